"""Army lists: points of each line, the counts limits use, and the Rampant Hex limits."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.mechanics import armies
from generator.mechanics.armies import (
    BASE_COUNTS, LimitExpressionError, army_counts, army_points, check_limits, count_names, evaluate, line_cost,
    parse_limit,
)
from generator.model.base import NotGiven
from generator.model.entries import ArmyList, ArmyUnit
from generator.source.project import load_project
from helpers import BROKEN, ROOT
from generator.mechanics.armies import force
from generator.mechanics.armies import force_line
from generator.mechanics.armies import LimitTooLarge
from generator.mechanics.armies import army_matrix
from generator.mechanics.armies import limit_bounds



@pytest.fixture(scope="module")
def rules():
    project, diagnostics = load_project(ROOT, only="rampant_hex")
    assert not diagnostics.errors, [d.format() for d in diagnostics.errors]
    return project.ruleset("rampant_hex")


def army(*units: ArmyUnit, extras: tuple[str, ...] = (), agreed: int = 50) -> ArmyList:
    return ArmyList(title="test", matrix="troops", agreed_points=agreed, units=units, extras=extras)


def broken_limits(rules, listed: ArmyList) -> list[str]:
    return [result.limit.id for result in check_limits(rules, listed) if not result.holds]


def result_of(rules, listed: ArmyList, limit: str):
    return next(r for r in check_limits(rules, listed) if r.limit.id == limit)


# -- points ---------------------------------------------------------------------------------------
def test_the_texts_thirty_point_force(rules):
    force = rules.get("armies", "thirty_point_force")
    assert [line_cost(rules, force, unit).total for unit in force.units] == [8, 10, 4, 6, 2]
    assert army_points(rules, force) == 30
    assert broken_limits(rules, force) == []


def test_a_heavy_foot_command_unit_costs_three_plus_five(rules):
    unit = ArmyUnit(troop="heavy_foot", upgrades=("command_unit",))
    cost = line_cost(rules, army(unit), unit)
    assert (cost.troop_points, cost.upgrade_points, cost.hero_points, cost.each, cost.total) == (5, 3, 0, 8, 8)


def test_heroes_and_upgrades_are_paid_for_each_unit_of_a_line(rules):
    unit = ArmyUnit(troop="levy", count=3, heroes=("warrior_hero",), upgrades=("command_unit",))
    cost = line_cost(rules, army(unit), unit)
    assert (cost.each, cost.total) == (2 + 3 + 2, 3 * 7)


def test_extras_are_bought_once_for_the_force(rules):
    listed = army(ArmyUnit(troop="heavy_foot", count=2), extras=("scroll_appeal",))
    assert army_points(rules, listed) == 10 + 4


def test_points_not_given_stay_not_given(rules):
    unit = ArmyUnit(troop="light_riders", count=2)
    cost = line_cost(rules, army(unit), unit)
    assert isinstance(cost.troop_points, NotGiven)
    assert isinstance(cost.each, NotGiven) and isinstance(cost.total, NotGiven)
    assert army_points(rules, army(unit, ArmyUnit(troop="levy"))) == 2  # the unknown line adds nothing


# -- counts ---------------------------------------------------------------------------------------
def test_count_names(rules):
    names = count_names(rules)
    assert set(BASE_COUNTS) <= names
    assert {"low_heroes", "high_heroes", "most_of_one_low_hero", "most_of_one_high_hero"} <= names  # from `hero_levels: [low, high]`
    assert {"scroll_appeal", "command_unit", "warrior_hero", "legendary_warrior", "heavy_foot", "levy"} <= names


def test_army_counts(rules):
    listed = army(
        ArmyUnit(troop="heavy_foot", count=2, upgrades=("command_unit",), heroes=("warrior_hero",)),
        ArmyUnit(troop="levy", count=3, heroes=("legendary_warrior",)),
        ArmyUnit(troop="light_riders"),
        extras=("scroll_appeal",),
    )
    counts = army_counts(rules, listed)
    assert counts["units"] == 6
    assert (counts["heavy_foot"], counts["levy"], counts["light_riders"], counts["skirmishers"]) == (2, 3, 1, 0)
    assert counts["troop_points"] == 2 * 5 + 3 * 2  # light riders have no points; upgrades and heroes are not troops
    assert counts["command_unit"] == 2
    assert (counts["heroes"], counts["low_heroes"], counts["high_heroes"]) == (5, 2, 3)
    assert (counts["warrior_hero"], counts["legendary_warrior"], counts["most_of_one_high_hero"]) == (2, 3, 3)
    assert counts["scroll_appeal"] == 1
    assert counts["points"] == army_points(rules, listed) == 2 * (5 + 3 + 2) + 3 * (2 + 5) + 4


# -- the Rampant Hex limits -------------------------------------------------------------------------
def test_seven_units_allow_three_heroes(rules):
    three = army(ArmyUnit(troop="levy", count=3, heroes=("warrior_hero",)), ArmyUnit(troop="levy", count=4))
    result = result_of(rules, three, "heroes_half_units")
    assert (result.count, result.allowed, result.holds) == (3, 3, True)
    assert broken_limits(rules, three) == []


def test_seven_units_do_not_allow_four_heroes(rules):
    four = army(ArmyUnit(troop="levy", count=4, heroes=("warrior_hero",)), ArmyUnit(troop="levy", count=3))
    result = result_of(rules, four, "heroes_half_units")
    assert (result.count, result.allowed, result.holds) == (4, 3, False)
    assert broken_limits(rules, four) == ["heroes_half_units"]


def test_a_command_unit_needs_thirty_points_of_troops(rules):
    short = army(ArmyUnit(troop="heavy_foot", upgrades=("command_unit",)), ArmyUnit(troop="heavy_foot", count=4))
    enough = army(ArmyUnit(troop="heavy_foot", upgrades=("command_unit",)), ArmyUnit(troop="heavy_foot", count=5))
    assert army_counts(rules, short)["troop_points"] == 25
    assert broken_limits(rules, short) == ["command_per_30"]
    assert army_counts(rules, enough)["troop_points"] == 30
    assert broken_limits(rules, enough) == []


def test_command_units_do_not_count_their_upgrade_as_troops(rules):
    # Six command units: 6 x 5 = 30 points of troops allow one, not 6 x 8 = 48.
    six = army(ArmyUnit(troop="heavy_foot", count=6, upgrades=("command_unit",)))
    result = result_of(rules, six, "command_per_30")
    assert (result.count, result.allowed) == (6, 1)


def test_a_second_appeal_breaks_the_limit(rules):
    once = army(ArmyUnit(troop="levy"), extras=("scroll_appeal",))
    twice = army(ArmyUnit(troop="levy"), extras=("scroll_appeal", "scroll_appeal"))
    assert broken_limits(rules, once) == []
    assert broken_limits(rules, twice) == ["one_appeal"]
    assert result_of(rules, twice, "one_appeal").count == 2


def test_high_level_heroes_one_per_forty_points_and_one_of_a_type(rules):
    one = army(ArmyUnit(troop="heavy_foot", count=8, heroes=()), ArmyUnit(troop="levy", heroes=("legendary_warrior",)))
    assert army_counts(rules, one)["troop_points"] == 42
    assert broken_limits(rules, one) == []
    two_types = army(ArmyUnit(troop="heavy_foot", count=16), ArmyUnit(troop="levy", heroes=("legendary_warrior",)),
                     ArmyUnit(troop="levy", heroes=("high_priest",)))
    assert broken_limits(rules, two_types) == []
    same_type = army(ArmyUnit(troop="heavy_foot", count=16), ArmyUnit(troop="levy", count=2, heroes=("legendary_warrior",)))
    assert broken_limits(rules, same_type) == ["one_of_each_high_hero"]
    too_few_points = army(ArmyUnit(troop="heavy_foot", count=7), ArmyUnit(troop="levy", heroes=("high_priest",)))
    assert army_counts(rules, too_few_points)["troop_points"] == 37
    assert broken_limits(rules, too_few_points) == ["high_hero_per_40"]


# -- limit expressions ----------------------------------------------------------------------------
NAMES = set(BASE_COUNTS) | {"low_heroes", "high_heroes", "most_of_one_high_hero", "scroll_appeal"}


@pytest.mark.parametrize("text, value", [
    ("units // 2", 3), ("low_heroes + high_heroes", 3), ("troop_points // 30", 1), ("1", 1),
    ("(units - 1) * 2", 12), ("scroll_appeal", 1), ("units*2//4+1", 4),
])
def test_limit_expressions_evaluate_over_counts(text, value):
    counts = {name: 0 for name in NAMES} | {"units": 7, "low_heroes": 1, "high_heroes": 2, "troop_points": 45, "scroll_appeal": 1}
    assert evaluate(parse_limit(text, NAMES), counts) == value


@pytest.mark.parametrize("text, message", [
    ("len(units)", "`len(units)` is not allowed in an army limit"),
    ("units.count", "`units.count` is not allowed in an army limit"),
    ("__import__('os').system('true')", "`__import__('os').system('true')` is not allowed in an army limit"),
    ("units[0]", "`units[0]` is not allowed in an army limit"),
    ("lambda: 1", "`lambda: 1` is not allowed in an army limit"),
    ("units < 2", "`units < 2` is not allowed in an army limit"),
    ("1 if units else 2", "`1 if units else 2` is not allowed in an army limit"),
    ("-1", "`-1` is not allowed in an army limit"),
    ("units ** 2", "only + - * / and // are allowed"),
    ("units % 2", "only + - * / and // are allowed"),
    ("True", "`True` is not a whole number"),
    ("1.5", "`1.5` is not a whole number"),
    ('"a"', "`'a'` is not a whole number"),
    ("wizards", "`wizards` is not a count an army limit can use"),
    ("units +", "`units +` is not an arithmetic expression"),
    ("", "`` is not an arithmetic expression"),
])
def test_limit_expressions_refuse_anything_but_arithmetic_on_counts(text, message):
    with pytest.raises(LimitExpressionError) as caught:
        parse_limit(text, NAMES)
    assert str(caught.value) == message


def test_parsing_a_limit_runs_nothing(monkeypatch):
    called = []
    monkeypatch.setattr(armies, "evaluate", lambda *args: called.append(args))
    with pytest.raises(LimitExpressionError):
        parse_limit("__import__('os').system('false')", NAMES)
    assert called == []
    assert isinstance(parse_limit("units", NAMES), ast.Name)


def test_a_limit_dividing_by_zero_is_a_diagnostic(tmp_path, capsys):
    folder = tmp_path / "rules_src" / "broken"
    shutil.copytree(BROKEN / "_base", folder)
    limits = (BROKEN / "limit_broken_appeal.yaml").read_text(encoding="utf-8")
    limits = limits.replace('at_most: "1"}', 'at_most: units // (units - units)}')
    (folder / "zero.yaml").write_text(limits, encoding="utf-8")
    code = main(["-C", str(tmp_path), "check"])
    _out, err = capsys.readouterr()
    assert code == 1
    assert "error[bad-expression]" in err


# Forces and their lines keep what they are given. Prices are those of the Rampant Hex source text as typed
# in rules_src (light foot 4, heavy foot 5).

def test_a_force_line_keeps_every_field_as_given():
    line = force_line("heavy_foot", 3, heroes=["h"], upgrades=["u"], scrolls=["s"], models=12)
    assert (line.troop, line.count, line.heroes, line.upgrades, line.scrolls, line.models) == (
        "heavy_foot", 3, ("h",), ("u",), ("s",), 12)
    plain = force_line("levy")
    assert (plain.count, plain.heroes, plain.upgrades, plain.scrolls, plain.models) == (1, (), (), (), None)


def test_a_force_keeps_what_it_is_given():
    listed = force(force_line("levy"), matrix="m", agreed_points=30, agreed_models=20, extras=["appeal"], title="T")
    assert (listed.title, listed.matrix, listed.agreed_points, listed.agreed_models, listed.extras) == (
        "T", "m", 30, 20, ("appeal",))
    assert [u.troop for u in listed.units] == ["levy"]
    plain = force(force_line("levy"))
    assert (plain.title, plain.matrix, plain.agreed_points, plain.agreed_models, plain.extras) == (
        "A force", "", None, None, ())


def test_a_force_chosen_from_a_ruleset_names_its_matrix_and_knows_its_troops(rules):
    listed = force(force_line("heavy_foot", 2), force_line("light_foot"), ruleset=rules)
    assert listed.matrix == "troops"
    assert armies.army_points(rules, listed) == 2 * 5 + 4
    with pytest.raises(KeyError):
        force(force_line("heavy_foot"), force_line("no_such_troop"), ruleset=rules)


def test_an_unpriced_cost_counts_as_nothing():
    class Entry:
        def __init__(self, points):
            self.points = points

    assert armies._points(Entry(NotGiven())) == 0
    assert armies._points(Entry(3)) == 3


def test_an_army_limits_bounds_are_listed_as_written():
    from types import SimpleNamespace

    from generator.mechanics.armies import limit_bounds

    assert limit_bounds(SimpleNamespace(at_least="2", at_most="half")) == (("at least", "2"), ("at most", "half"))
    assert limit_bounds(SimpleNamespace(at_least=" ", at_most="3")) == (("at most", "3"),)
    assert limit_bounds(SimpleNamespace(at_least=1, at_most="")) == (("at least", 1),)
    assert limit_bounds(SimpleNamespace(at_least="", at_most="")) == ()


# Army limits as the rules write them: what a limit expression may hold, each refusal said in words, and
# the bounds as written; a ruleset without an army matrix says so when a force is costed from it.

TWO_COUNTS = {"heroes", "troops"}


@pytest.mark.parametrize("text, message", [
    ("x" * 301, "the limit expression is 301 characters long; the limit is 300"),
    ("12345678901", "a number in `12345678901` is larger than 1,000,000,000, the largest number a rule may state"),
    ("9999999999", "a number in `9999999999` is larger than 1,000,000,000, the largest number a rule may state"),
])
def test_limits_too_large_to_read(text, message):
    with pytest.raises(LimitTooLarge) as caught:
        parse_limit(text, TWO_COUNTS)
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
        parse_limit(text, TWO_COUNTS)
    assert not isinstance(caught.value, LimitTooLarge)
    assert str(caught.value) == message


def test_the_largest_number_a_rule_may_state_is_read():
    assert parse_limit("1000000000 - troops", TWO_COUNTS) is not None


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
