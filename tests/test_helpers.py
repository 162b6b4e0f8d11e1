"""The shared test helpers do what the tests that lean on them assume."""

from __future__ import annotations

import importlib

import helpers
import pytest
from helpers import make_project, sweep

from generator.model.calculate import calculator
from generator.render import calculators
from generator.validate import check_project, sections


def test_a_sweep_passes_when_every_case_passes():
    seen = []
    sweep([(1, 2), (3, 4)], lambda a, b: seen.append((a, b)))
    assert seen == [(1, 2), (3, 4)]


def test_a_sweep_names_every_failing_case_and_counts_them():
    def check(n):
        assert n % 3, f"{n} is a multiple of three"

    with pytest.raises(AssertionError) as failure:
        sweep(range(1, 10), check)
    text = str(failure.value)
    lines = text.splitlines()
    assert lines[0] == "3 case(s) failed:"
    assert [line.split(":")[0] for line in lines[1:]] == ["(3,)", "(6,)", "(9,)"]
    assert lines[1].startswith("(3,): 3 is a multiple of three / assert")  # the message, then what was compared


def test_a_sweep_lets_an_error_that_is_no_failed_comparison_through():
    def check(n):
        raise KeyError(n)

    with pytest.raises(KeyError):
        sweep([1], check)


def test_emptying_the_engine_caches_empties_each_one_the_suite_lists(tmp_path):
    """Under mutmut every test starts with them empty (tests/conftest.py): a cache renamed or added unlisted would keep
    a result of the unmutated run and hide the mutants of the code that makes it."""
    ruleset = check_project(make_project(tmp_path, game=CACHED)).project.ruleset("game")
    calculators.calculators(ruleset, "player", calculators.computed_key(ruleset))
    calculator(ruleset).evaluate(ruleset.formula("doubled_roll"), 2)
    sections.find_sections("# Melee\nBlows are struck.", ["Melee"])
    caches = {
        (name, cache): getattr(importlib.import_module(name), cache)
        for name, kept in helpers.ENGINE_CACHES.items()
        for cache in kept
    }
    assert all(isinstance(found, dict) for found in caches.values())
    filled = {key for key, found in caches.items() if found}
    assert {("generator.model.formula", "_ROLLS"), ("generator.render.calculators", "_MADE")} <= filled
    assert sections._sections.cache_info().currsize
    helpers.empty_engine_caches()
    assert [key for key, found in caches.items() if found] == []
    assert sections._sections.cache_info().currsize == 0


CACHED = """
ruleset: {title: Cached}
formulas:
  doubled_roll:
    title: Twice a die and a number
    inputs: {number: {label: Number, min: 1, max: 3}}
    expr: dice(2, 6) + number
"""
