"""Army limits as the rules write them: what a limit expression may hold, each refusal said in words, and
the bounds as written; a ruleset without an army matrix says so when a force is costed from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.mechanics.armies import LimitExpressionError, LimitTooLarge, army_matrix, limit_bounds, parse_limit
from generator.source.project import load_project

ROOT = Path(__file__).resolve().parents[1]
NAMES = {"heroes", "troops"}


@pytest.mark.parametrize("text, message", [
    ("x" * 301, "the limit expression is 301 characters long; the limit is 300"),
    ("12345678901", "a number in `12345678901` is larger than 1,000,000,000, the largest number a rule may state"),
    ("9999999999", "a number in `9999999999` is larger than 1,000,000,000, the largest number a rule may state"),
])
def test_limits_too_large_to_read(text, message):
    with pytest.raises(LimitTooLarge) as caught:
        parse_limit(text, NAMES)
    assert str(caught.value) == message


@pytest.mark.parametrize("text, message", [
    ("1.5", "`1.5` is not a whole number"),
    ("'a'", "`'a'` is not a whole number"),
    ("True", "`True` is not a whole number"),
    ("heroes % 2", "only + - * / and // are allowed"),
    ("f(1)", "`f(1)` is not allowed in an army limit"),
    ("troops +", "`troops +` is not an arithmetic expression"),
    ("wizards", "`wizards` is not a count an army limit can use"),
])
def test_limits_that_are_not_arithmetic_over_counts(text, message):
    with pytest.raises(LimitExpressionError) as caught:
        parse_limit(text, NAMES)
    assert not isinstance(caught.value, LimitTooLarge)
    assert str(caught.value) == message


def test_the_largest_number_a_rule_may_state_is_read():
    assert parse_limit("1000000000 - troops", NAMES) is not None


@pytest.fixture(scope="module")
def project():
    project, diagnostics = load_project(ROOT)
    assert not diagnostics.errors
    return project


def test_limit_bounds_are_the_bounds_the_rules_write(project):
    # rules_src/rampant_hex/heroes.yaml: "at_most: units // 2", and one appeal "at_most: 1"
    limits = {limit.id: limit_bounds(limit) for limit in project.ruleset("rampant_hex").army_limits}
    assert limits["heroes_half_units"] == (("at most", "units // 2"),)
    assert limits["one_appeal"] == (("at most", "1"),)


def test_a_ruleset_without_an_army_matrix_says_so(project):
    with pytest.raises(LookupError) as caught:
        army_matrix(project.ruleset("ordo_ineptus"))
    assert str(caught.value) == "ordo_ineptus has no profile matrices with a points or models column: name one with matrix="
