"""A mechanics module that imports Rulepress's own modules, not its API for mechanics (which it may import)."""

import generator.model.formula
from generator.mechanics import army_points
from generator.model.dice import DiceExpr

__all__ = ["parsed", "cost"]


def parsed(text):
    return DiceExpr.parse(text), generator.model.formula


def cost(army, ruleset):
    return army_points(ruleset, army)
