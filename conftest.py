"""Collects the worked examples inside rules_src/*.yaml as pytest items (via Sybil)."""

import atexit
import os
import shutil
import tempfile

from sybil import Sybil

from generator.examples.sybil_yaml import parse_yaml_examples

pytest_collect_file = Sybil(parsers=[parse_yaml_examples], patterns=["*.yaml", "*.yml"], path="rules_src").pytest()

# The cache key (generator/cache_seal.py) lives in the user's state folder: tests, and the rulepress
# processes they start, make theirs in a scratch one, never in the home of whoever runs them. One for the
# whole run, as a machine has one: pytest-xdist's workers inherit the folder the controller made.


def _remove_at_exit(folder: str) -> None:
    """``folder`` is removed when this process ends, not when a child forked from it does (mutmut forks one per
    mutant, and each ends while the run goes on)."""
    made_by = os.getpid()

    def remove() -> None:
        if os.getpid() == made_by:
            shutil.rmtree(folder, ignore_errors=True)

    atexit.register(remove)


if "RULEPRESS_TEST_STATE" not in os.environ:
    os.environ["RULEPRESS_TEST_STATE"] = tempfile.mkdtemp(prefix="rulepress-test-state-")
    _remove_at_exit(os.environ["RULEPRESS_TEST_STATE"])
os.environ["XDG_STATE_HOME"] = os.environ["RULEPRESS_TEST_STATE"]
# pytest-xdist already runs a test per core, and many of them build: one render worker a build keeps the cores as busy
# without a second worker's start (Python, WeasyPrint, Sphinx) in every build. A test that means two asks for them.
os.environ.setdefault("RULEPRESS_JOBS", "1")
