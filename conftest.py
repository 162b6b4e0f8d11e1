"""Collects the worked examples inside rules_src/*.yaml as pytest items (via Sybil)."""

from sybil import Sybil

from generator.examples.sybil_yaml import parse_yaml_examples

pytest_collect_file = Sybil(parsers=[parse_yaml_examples], patterns=["*.yaml", "*.yml"], path="rules_src").pytest()
