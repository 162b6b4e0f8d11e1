"""Army lists: points of each line, the counts limits use, and the Rampant Hex limits."""

from __future__ import annotations

import ast
import shutil
import sys
from fractions import Fraction
from types import SimpleNamespace

import pytest
from helpers import BROKEN, WAR_MACHINES, make_project, sample_project
from limit_expressions import limit_expressions

from generator.cli import main
from generator.mechanics import armies
from generator.mechanics.armies import (
    BASE_COUNTS,
    LimitExpressionError,
    LimitTooLarge,
    army_counts,
    army_matrix,
    army_points,
    check_limits,
    count_names,
    evaluate,
    force,
    force_line,
    limit_bounds,
    line_cost,
    parse_limit,
)
from generator.model.base import Markdown, NotGiven
from generator.model.entries import ArmyList, ArmyUnit, Column, Cost, Hero, ProfileMatrix, ProfileRow
from generator.model.ruleset import Ruleset


@pytest.fixture(scope="module")
def rules():
    project, diagnostics = sample_project()
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
    assert {
        "low_heroes",
        "high_heroes",
        "most_of_one_low_hero",
        "most_of_one_high_hero",
    } <= names  # from `hero_levels: [low, high]`
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
    two_types = army(
        ArmyUnit(troop="heavy_foot", count=16),
        ArmyUnit(troop="levy", heroes=("legendary_warrior",)),
        ArmyUnit(troop="levy", heroes=("high_priest",)),
    )
    assert broken_limits(rules, two_types) == []
    same_type = army(
        ArmyUnit(troop="heavy_foot", count=16), ArmyUnit(troop="levy", count=2, heroes=("legendary_warrior",))
    )
    assert broken_limits(rules, same_type) == ["one_of_each_high_hero"]
    too_few_points = army(ArmyUnit(troop="heavy_foot", count=7), ArmyUnit(troop="levy", heroes=("high_priest",)))
    assert army_counts(rules, too_few_points)["troop_points"] == 37
    assert broken_limits(rules, too_few_points) == ["high_hero_per_40"]


# -- limit expressions ----------------------------------------------------------------------------
NAMES = set(BASE_COUNTS) | {"low_heroes", "high_heroes", "most_of_one_high_hero", "scroll_appeal"}


@pytest.mark.parametrize(
    "text, value",
    [
        ("units // 2", 3),
        ("low_heroes + high_heroes", 3),
        ("troop_points // 30", 1),
        ("1", 1),
        ("(units - 1) * 2", 12),
        ("scroll_appeal", 1),
        ("units*2//4+1", 4),
    ],
)
def test_limit_expressions_evaluate_over_counts(text, value):
    counts = {name: 0 for name in NAMES} | {
        "units": 7,
        "low_heroes": 1,
        "high_heroes": 2,
        "troop_points": 45,
        "scroll_appeal": 1,
    }
    assert evaluate(parse_limit(text, NAMES), counts) == value


@pytest.mark.parametrize(
    "text, message",
    [
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
    ],
)
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
    limits = limits.replace('at_most: "1"}', "at_most: units // (units - units)}")
    (folder / "zero.yaml").write_text(limits, encoding="utf-8")
    code = main(["-C", str(tmp_path), "check"])
    _out, err = capsys.readouterr()
    assert code == 1
    assert "error[bad-expression]" in err


# Forces and their lines keep what they are given. Prices are those of the Rampant Hex source text as typed
# in rules_src (light foot 4, heavy foot 5).


def test_a_force_line_keeps_every_field_as_given():
    line = force_line("heavy_foot", 3, heroes=["h"], upgrades=["u"], spells=["s"], models=12)
    assert (line.troop, line.count, line.heroes, line.upgrades, line.spells, line.models) == (
        "heavy_foot",
        3,
        ("h",),
        ("u",),
        ("s",),
        12,
    )
    plain = force_line("levy")
    assert (plain.count, plain.heroes, plain.upgrades, plain.spells, plain.models) == (1, (), (), (), None)


def test_a_force_keeps_what_it_is_given():
    listed = force(force_line("levy"), matrix="m", agreed_points=30, agreed_models=20, extras=["appeal"], title="T")
    assert (listed.title, listed.matrix, listed.agreed_points, listed.agreed_models, listed.extras) == (
        "T",
        "m",
        30,
        20,
        ("appeal",),
    )
    assert [u.troop for u in listed.units] == ["levy"]
    plain = force(force_line("levy"))
    assert (plain.title, plain.matrix, plain.agreed_points, plain.agreed_models, plain.extras) == (
        "A force",
        "",
        None,
        None,
        (),
    )


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


def test_a_limit_applied_to_an_army_reads_as_its_id_its_count_and_its_bounds():
    # the form worked examples print (rules_src/rampant_hex: `<heroes_half_units: 4, at most 3>`)
    from generator.mechanics.armies import LimitResult

    limit = SimpleNamespace(id="escorts")
    assert repr(LimitResult(limit, 1, at_most=3, at_least=2)) == "<escorts: 1, at least 2 and at most 3>"
    assert repr(LimitResult(limit, 4, at_most=None, at_least=2)) == "<escorts: 4, at least 2>"


# Army limits as the rules write them: what a limit expression may hold, each refusal said in words, and
# the bounds as written; a ruleset without an army matrix says so when a force is costed from it.

TWO_COUNTS = {"heroes", "troops"}


@pytest.mark.parametrize(
    "text, message",
    [
        ("x" * 301, "the limit expression is 301 characters long; the limit is 300"),
        ("12345678901", "a number in `12345678901` is larger than 1,000,000,000, the largest number a rule may state"),
        ("9999999999", "a number in `9999999999` is larger than 1,000,000,000, the largest number a rule may state"),
    ],
)
def test_limits_too_large_to_read(text, message):
    with pytest.raises(LimitTooLarge) as caught:
        parse_limit(text, TWO_COUNTS)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "text, message",
    [
        ("1.5", "`1.5` is not a whole number"),
        ("'a'", "`'a'` is not a whole number"),
        ("True", "`True` is not a whole number"),
        ("heroes % 2", "only + - * / and // are allowed"),
        ("f(1)", "`f(1)` is not allowed in an army limit"),
        ("troops +", "`troops +` is not an arithmetic expression"),
        ("wizards", "`wizards` is not a count an army limit can use"),
    ],
)
def test_limits_that_are_not_arithmetic_over_counts(text, message):
    with pytest.raises(LimitExpressionError) as caught:
        parse_limit(text, TWO_COUNTS)
    assert not isinstance(caught.value, LimitTooLarge)
    assert str(caught.value) == message


def test_the_largest_number_a_rule_may_state_is_read():
    assert parse_limit("1000000000 - troops", TWO_COUNTS) is not None


@pytest.fixture(scope="module")
def project():
    project, diagnostics = sample_project()
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
    assert (
        str(caught.value)
        == "ordo_ineptus has no profile matrices with a points or models column: name one with matrix="
    )


# Hero levels, army counts and limits at their bounds, on stand-in rulesets; numbers counted on paper.


# -- army counts ---------------------------------------------------------------------------------------
def _hero(id, level, points=2):
    return Hero(id=id, name=id.title(), level=level, ability=Markdown(""), points=points)


def _matrix(id, column_type="points", rows=(("levy", 3), ("guard", 5))):
    column = Column(id="value", label="VALUE", type=column_type)
    return ProfileMatrix(
        id=id,
        title=id.title(),
        columns=(column,),
        rows=tuple(ProfileRow(id=row, name=row.title(), values={"value": value}) for row, value in rows),
    )


def _ruleset(levels=(), profiles=None, heroes=(), costs=(), unloaded=()):
    return Ruleset(
        id="x",
        meta=SimpleNamespace(hero_levels=tuple(levels), title="X"),
        profiles=(_matrix("troops"),) if profiles is None else tuple(profiles),
        heroes=tuple(heroes),
        costs=tuple(costs),
        unloaded=frozenset(unloaded),
    )


def test_a_hero_levels_counts_are_named_in_snake_case():
    assert armies.level_counts("High Lord") == ("high_lord_heroes", "most_of_one_high_lord_hero")
    assert armies.level_counts(" Grand-Master! ") == ("grand_master_heroes", "most_of_one_grand_master_hero")
    assert armies.level_counts("Tier 2") == ("tier_2_heroes", "most_of_one_tier_2_hero")


def test_each_hero_level_gives_two_counts_described_in_words():
    described = armies.count_descriptions(_ruleset(levels=("low", "High Lord")))
    assert described["low_heroes"] == "low level heroes"
    assert described["most_of_one_low_hero"] == "the most low level heroes of any one type"
    assert described["high_lord_heroes"] == "High Lord level heroes"
    assert described["most_of_one_high_lord_hero"] == "the most High Lord level heroes of any one type"
    assert described["units"] == "units in the force"


def test_a_limit_may_name_costs_and_heroes_that_failed_to_load_but_nothing_else_unloaded():
    names = armies.count_names(
        _ruleset(unloaded={("costs", "banner"), ("heroes", "wizard"), ("rules", "moving"), ("spells", "fireball")})
    )
    assert {"banner", "wizard"} <= names
    assert not {"moving", "fireball"} & names
    assert {"levy", "guard", "units", "heroes"} <= names


def test_the_counts_of_an_army_add_up_over_its_lines():
    ruleset = _ruleset(
        levels=("low", "high"),
        heroes=(_hero("captain", "low"), _hero("sage", "odd")),
        costs=(Cost(id="banner", name="Banner", points=1),),
    )
    army = force(
        force_line("levy", 2, heroes=("captain",), upgrades=("banner",)),
        force_line("levy", 3, heroes=("captain", "sage"), upgrades=("banner",)),
        force_line("guard", 1),
    )
    counts = armies.army_counts(ruleset, army)
    assert counts["units"] == 6
    assert counts["levy"] == 5 and counts["guard"] == 1
    assert counts["banner"] == 5
    assert counts["captain"] == 5 and counts["sage"] == 3 and counts["heroes"] == 8
    assert counts["low_heroes"] == 5 and counts["most_of_one_low_hero"] == 5
    # a level no hero of the army has: none of it, and no type has any
    assert counts["high_heroes"] == 0 and counts["most_of_one_high_hero"] == 0
    # a hero of a level the ruleset does not declare is still counted under its level
    assert counts["odd_heroes"] == 3 and counts["most_of_one_odd_hero"] == 3
    # levy 3 + guard 5 a unit; captain 2 and sage 2 a unit; banner 1 a unit
    assert counts["troop_points"] == 5 * 3 + 5
    assert counts["points"] == 5 * 3 + 5 + 5 * 2 + 3 * 2 + 5 * 1


def test_an_army_with_no_heroes_has_none_of_any_level():
    counts = armies.army_counts(_ruleset(levels=("low",)), force(force_line("levy")))
    assert (counts["heroes"], counts["low_heroes"], counts["most_of_one_low_hero"]) == (0, 0, 0)


def test_the_army_matrix_is_the_one_with_points_else_the_one_with_models():
    by_models = _matrix("bands", column_type="models")
    assert armies.army_matrix(_ruleset(profiles=(by_models, _matrix("stats", column_type="int")))) is by_models
    priced = _matrix("troops")
    assert armies.army_matrix(_ruleset(profiles=(by_models, priced))) is priced


@pytest.mark.parametrize(
    "profiles, which",
    [
        ((), "no"),
        ((_matrix("stats", column_type="int"),), "no"),
        ((_matrix("foot"), _matrix("horse")), "2 (foot, horse)"),
        ((_matrix("foot", "models"), _matrix("horse", "models"), _matrix("boats", "models")), "3 (foot, horse, boats)"),
    ],
)
def test_without_one_army_matrix_the_error_says_how_many_there_are(profiles, which):
    with pytest.raises(LookupError) as raised:
        armies.army_matrix(_ruleset(profiles=profiles))
    assert str(raised.value) == f"x has {which} profile matrices with a points or models column: name one with matrix="


# -- limit expressions ---------------------------------------------------------------------------------
UNITS_AND_HEROES = {"units", "heroes"}


def test_a_limit_expression_of_three_hundred_characters_is_read():
    text = "units" + " " * 295
    assert len(text) == 300
    assert armies.evaluate(parse_limit(text, UNITS_AND_HEROES), {"units": 7}) == 7
    with pytest.raises(LimitTooLarge) as raised:
        parse_limit(text + " ", UNITS_AND_HEROES)
    assert str(raised.value) == "the limit expression is 301 characters long; the limit is 300"


def test_the_largest_number_a_limit_may_state_is_a_thousand_million():
    assert armies.evaluate(parse_limit("1000000000", UNITS_AND_HEROES), {}) == 1000000000
    assert armies.evaluate(parse_limit("units * 1000000000", UNITS_AND_HEROES), {"units": 2}) == 2000000000


@pytest.mark.parametrize(
    "text, shown",
    [
        ("99999999999 +", "99999999999 +"),
        ("00000000000", "00000000000"),
        ("1.00000000000", "1.00000000000"),
        ("units + units + units + units + 99999999999", "units + units + units + units + 99999999"),
        ("1000000001", "1000000001"),
        ("units + units + units + units + 1000000001", "units + units + units + units + 10000000"),
    ],
)
def test_a_limit_with_a_number_too_large_is_refused_before_anything_else(text, shown):
    with pytest.raises(LimitTooLarge) as raised:
        parse_limit(text, UNITS_AND_HEROES)
    assert (
        str(raised.value) == f"a number in `{shown}` is larger than 1,000,000,000, the largest number a rule may state"
    )


def test_a_limit_nested_deeper_than_python_can_parse_is_refused_as_too_large():
    text = "-" * 295 + "units"
    parse_limit("units + 1", UNITS_AND_HEROES)  # the patterns are compiled before the stack is made short
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 25)
    try:
        with pytest.raises(LimitTooLarge) as raised:
            parse_limit(text, UNITS_AND_HEROES)
    finally:
        sys.setrecursionlimit(limit)
    assert str(raised.value) == f"`{'-' * 40}` is nested too deeply"


def test_points_spent_on_a_kind_of_troop_count_its_lines_whole(tmp_path):
    """A bolt thrower (90) with its extra crew (15) and an engineer (25) is 130 points of war machines, each of the
    two: 260 of the 380 points spent (two units of warriors at 60) is more than a third."""
    from generator.validate import check_project

    result = check_project(make_project(tmp_path, hammerfall=WAR_MACHINES))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    rules = result.project.ruleset("hammerfall")
    assert count_names(rules) >= {"war_machines", "war_machines_points"}
    machines = ArmyUnit(troop="bolt_thrower", count=2, upgrades=("crew",), heroes=("engineer",))
    listed = ArmyList(title="t", matrix="dwarfs", units=(ArmyUnit(troop="warriors", count=2), machines))
    counts = army_counts(rules, listed)
    assert (counts["war_machines"], counts["units"], counts["war_machines_points"]) == (2, 2, 260)
    assert counts["points"] == 2 * 60 + 260
    (machines_limit,) = check_limits(rules, listed)
    assert not machines_limit.holds and machines_limit.at_most == Fraction(380, 3)


def _expressions(depth: int):
    """Every expression over counts `a` and `b` and the numbers 0 to 2, with + - * / and //, up to ``depth``."""
    return limit_expressions(depth, ("a", "b", "0", "1", "2"), ("a", "b", "0", "2", "(a - 1)", "(b + 1)"))


def _value(text: str, a: int, b: int):
    return _evaluated(parse_limit(text, {"a", "b"}), a, b)


def _evaluated(tree, a: int, b: int):
    try:
        return evaluate(tree, {"a": a, "b": b})
    except ZeroDivisionError:
        return None


def test_an_expression_said_only_to_grow_never_falls_as_its_counts_rise():
    """Against brute force: raising either count by one, from every pair of counts 0 to 3, never lowers the value
    of an expression `only_grows` accepts (a list's other lines can only add to what those count); `a - b`,
    `2 - a` and `a // (b + 1)` are refused, as they can fall; sums and products with 0 and division by 1 are not."""
    accepted = 0
    for text in set(_expressions(2)):
        tree = parse_limit(text, {"a", "b"})
        if not armies.only_grows(tree, {"a", "b"}):
            continue
        accepted += 1
        value = {(a, b): _evaluated(tree, a, b) for a in range(5) for b in range(5)}  # each pair once, 0 to 4
        for a in range(4):
            for b in range(4):
                here = value[a, b]
                for raised in (value[a + 1, b], value[a, b + 1]):
                    assert here is not None and raised is not None and raised >= here, (text, a, b)
    assert accepted > 100
    for falling in ("a - b", "2 - a", "a // (b + 1)"):
        assert not armies.only_grows(parse_limit(falling, {"a", "b"}), {"a", "b"})
    assert not armies.only_grows(parse_limit("a + b", {"a", "b"}), {"a"})  # `b` is not said to grow
    for growing in ("a + 0", "0", "a // 1", "(a + b) // 2", "a * 2 + b / 3"):  # sums, products, division by 1 up
        assert armies.only_grows(parse_limit(growing, {"a", "b"}), {"a", "b"}), growing


def test_a_fixed_expression_is_the_same_for_every_list():
    for text in ("1", "3 // 2 + 1", "(2 * 3) / 4"):
        values = {_value(text, a, b) for a in range(3) for b in range(3)}
        assert armies.fixed(parse_limit(text, {"a", "b"})) and len(values) == 1
    for text in ("a", "b * 0 + 1", "units // 2"):
        assert not armies.fixed(parse_limit(text, {"a", "b", "units"}))


def test_the_counts_a_line_can_only_raise_leave_out_points(rules):
    growing = armies.growing_counts(rules)
    assert {"units", "heroes", "scroll_appeal", "most_of_one_high_hero", "models"} <= growing
    assert not growing & {"points", "troop_points"}
