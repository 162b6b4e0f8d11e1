"""Rulepress: tabletop wargame rules kept as data, checked, and published."""

__version__ = "0.1.0"
