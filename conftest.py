"""Collects the worked examples inside rules_src/*.yaml as pytest items (via Sybil)."""

import os
import tempfile

from sybil import Sybil

from generator.examples.sybil_yaml import parse_yaml_examples

pytest_collect_file = Sybil(parsers=[parse_yaml_examples], patterns=["*.yaml", "*.yml"], path="rules_src").pytest()

# The cache key (generator/cache_seal.py) lives in the user's state folder: tests, and the rulepress
# processes they start, make theirs in a scratch one, never in the home of whoever runs them.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="rulepress-test-state-")
