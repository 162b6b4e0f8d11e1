"""Focused tests of dice, quantities and army counts that kill mutmut survivors (see docs/survivors/dice.md).

Every expected value is written by hand: messages as the source states them, numbers counted on paper.
None is computed with the code under test.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from types import SimpleNamespace

import pytest

from generator.mechanics import armies
from generator.mechanics.armies import LimitTooLarge, force, force_line, parse_limit
from generator.model.base import Markdown
from generator.model.dice import DiceExpr, DiceSyntaxError, DiceTooLarge, RollRange, Term
from generator.model.entries import Column, Cost, Hero, ProfileMatrix, ProfileRow
from generator.model.quantity import Quantity, QuantityError, QuantityTooLarge, parse_number
from generator.model.ruleset import Ruleset

BEYOND = "is beyond 1,000,000,000, the largest number a roll may state"


# -- dice: numbers too large to state ------------------------------------------------------------------
@pytest.mark.parametrize("key, message", [
    (10**10, f"the roll `10000000000` in `10000000000` {BEYOND}"),
    (-10**10, f"the roll `-10000000000` in `-10000000000` {BEYOND}"),
    ("99999999999+", f"the roll `99999999999` in `99999999999+` {BEYOND}"),
    ("12345678901234567890", f"the roll `12345678901234567890` in `12345678901234567890` {BEYOND}"),
    ("123456789012345678901", f"the roll `123456789012… (21 digits)` in `123456789012345678901` {BEYOND}"),
    ("1-123456789012345678901234", f"the roll `123456789012… (24 digits)` in `1-123456789012345678901234` {BEYOND}"),
])
def test_a_roll_key_beyond_the_largest_roll_names_the_number_and_points_at_the_start(key, message):
    with pytest.raises(DiceTooLarge) as raised:
        RollRange.parse(key)
    assert str(raised.value) == message
    assert raised.value.offset == 0


def test_the_largest_roll_may_be_stated_negative_as_well():
    assert (RollRange.parse(-1000000000).low, RollRange.parse(-1000000000).high) == (-1000000000, -1000000000)
    assert (RollRange.parse(1000000000).low, RollRange.parse(1000000000).high) == (1000000000, 1000000000)
    with pytest.raises(DiceTooLarge):
        RollRange.parse(-1000000001)


@pytest.mark.parametrize("text, message, offset", [
    ("D6 + 99999999999D6", f"the dice count `99999999999` in `D6 + 99999999999D6` {BEYOND}", 5),
    ("D6 + D99999999999", f"the number of sides `99999999999` in `D6 + D99999999999` {BEYOND}", 5),
    ("D6 + 99999999999", f"the number `99999999999` in `D6 + 99999999999` {BEYOND}", 5),
    ("D6 - D1001", "`D1001` has 1,001 sides; the largest die is a D1000", 5),
    ("20D101", "`20D101` rolls 2,020 dice × sides; the limit is 2,000 (such as 2D1000 or 20D100)", 0),
])
def test_a_dice_term_beyond_a_cap_says_which_number_and_where(text, message, offset):
    with pytest.raises(DiceTooLarge) as raised:
        DiceExpr.parse(text)
    assert str(raised.value) == message
    assert raised.value.offset == offset


def test_a_two_sided_die_is_a_die():
    coin = DiceExpr.parse("2D2")
    assert coin.terms == (Term(1, count=2, sides=2),)
    assert coin.distribution() == {2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
    with pytest.raises(DiceSyntaxError):
        DiceExpr.parse("D1")


def test_a_roll_needing_stats_names_every_missing_one():
    with pytest.raises(TypeError) as raised:
        DiceExpr.parse("D6 + S - T").die()
    assert str(raised.value) == "D6 + S - T needs values for S, T"


def test_only_a_positive_sign_adds_a_term():
    """Parsing gives signs of +1 and -1; a term built by hand with any sign that is not positive is taken away."""
    taken = DiceExpr("D6", (Term(0, count=1, sides=6),))
    assert sorted(taken.distribution()) == [-6, -5, -4, -3, -2, -1]
    added = DiceExpr("D6", (Term(1, count=1, sides=6),))
    assert sorted(added.distribution()) == [1, 2, 3, 4, 5, 6]


# -- quantities ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, error, message", [
    ("abc", QuantityError, "`abc` is not a number (write 3, 1½, 3/2 or 1.5)"),
    ("1/0", QuantityError, "`1/0` divides by zero"),
    ("1 2/2", QuantityError, "`1 2/2`: the fraction after a whole number must be below 1, as in 1 1/2"),
    ("1000000001", QuantityTooLarge, "`1000000001` is larger than 1,000,000,000, the largest number a rule may state"),
])
def test_a_number_that_is_refused_says_why(text, error, message):
    with pytest.raises(error) as raised:
        parse_number(text)
    assert type(raised.value) is error
    assert str(raised.value) == message


@pytest.mark.parametrize("raw, kind, unit", [("3 Hexes", "distance", "hexes"), ("2 Minutes", "count", "minutes"),
                                             ("4 CM", "distance", "cm")])
def test_a_unit_may_be_written_in_capitals(raw, kind, unit):
    parsed = Quantity.parse(raw)
    assert (parsed.kind, parsed.unit) == (kind, unit)


@pytest.mark.parametrize("raw", ["D6 + S", "d6 + str", "D8 - Armour"])
def test_dice_mixed_with_other_words_stay_text_unless_declared(raw):
    parsed = Quantity.parse(raw)
    assert (parsed.kind, parsed.magnitude) == ("text", raw)
    assert Quantity.parse(raw, "dice").kind == "dice"


@pytest.mark.parametrize("raw, kind, error, message", [
    ("D1001", "", QuantityTooLarge, "`D1001` has 1,001 sides; the largest die is a D1000"),
    ("2D6 +", "", QuantityError, "`2D6 +` ends with an operator"),
    ("many", "distance", QuantityError, "`many` is not a distance"),
    ("6", "distance", QuantityError, "`6` needs a unit (6\", 3 hexes)"),
    ("3 hexes", "number", QuantityError, "`3 hexes` has a unit; declare `type: distance` or `count`, or leave the type out"),
])
def test_a_quantity_that_is_refused_says_why(raw, kind, error, message):
    with pytest.raises(error) as raised:
        Quantity.parse(raw, kind)
    assert type(raised.value) is error
    assert str(raised.value) == message


# -- army counts ---------------------------------------------------------------------------------------
def _hero(id, level, points=2):
    return Hero(id=id, name=id.title(), level=level, ability=Markdown(""), points=points)


def _matrix(id, column_type="points", rows=(("levy", 3), ("guard", 5))):
    column = Column(id="value", label="VALUE", type=column_type)
    return ProfileMatrix(id=id, title=id.title(), columns=(column,),
                         rows=tuple(ProfileRow(id=row, name=row.title(), values={"value": value}) for row, value in rows))


def _ruleset(levels=(), profiles=None, heroes=(), costs=(), unloaded=()):
    return Ruleset(id="x", meta=SimpleNamespace(hero_levels=tuple(levels), title="X"),
                   profiles=(_matrix("troops"),) if profiles is None else tuple(profiles),
                   heroes=tuple(heroes), costs=tuple(costs), unloaded=frozenset(unloaded))


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
    names = armies.count_names(_ruleset(unloaded={("costs", "banner"), ("heroes", "wizard"), ("rules", "moving"),
                                                  ("spells", "fireball")}))
    assert {"banner", "wizard"} <= names
    assert not {"moving", "fireball"} & names
    assert {"levy", "guard", "units", "heroes"} <= names


def test_the_counts_of_an_army_add_up_over_its_lines():
    ruleset = _ruleset(levels=("low", "high"), heroes=(_hero("captain", "low"), _hero("sage", "odd")),
                       costs=(Cost(id="banner", name="Banner", points=1),))
    army = force(force_line("levy", 2, heroes=("captain",), upgrades=("banner",)),
                 force_line("levy", 3, heroes=("captain", "sage"), upgrades=("banner",)),
                 force_line("guard", 1))
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


@pytest.mark.parametrize("profiles, which", [
    ((), "no"),
    ((_matrix("stats", column_type="int"),), "no"),
    ((_matrix("foot"), _matrix("horse")), "2 (foot, horse)"),
    ((_matrix("foot", "models"), _matrix("horse", "models"), _matrix("boats", "models")), "3 (foot, horse, boats)"),
])
def test_without_one_army_matrix_the_error_says_how_many_there_are(profiles, which):
    with pytest.raises(LookupError) as raised:
        armies.army_matrix(_ruleset(profiles=profiles))
    assert str(raised.value) == f"x has {which} profile matrices with a points or models column: name one with matrix="


# -- limit expressions ---------------------------------------------------------------------------------
NAMES = {"units", "heroes"}


def test_a_limit_expression_of_three_hundred_characters_is_read():
    text = "units" + " " * 295
    assert len(text) == 300
    assert armies.evaluate(parse_limit(text, NAMES), {"units": 7}) == 7
    with pytest.raises(LimitTooLarge) as raised:
        parse_limit(text + " ", NAMES)
    assert str(raised.value) == "the limit expression is 301 characters long; the limit is 300"


def test_the_largest_number_a_limit_may_state_is_a_thousand_million():
    assert armies.evaluate(parse_limit("1000000000", NAMES), {}) == 1000000000
    assert armies.evaluate(parse_limit("units * 1000000000", NAMES), {"units": 2}) == 2000000000


@pytest.mark.parametrize("text, shown", [
    ("99999999999 +", "99999999999 +"),
    ("00000000000", "00000000000"),
    ("1.00000000000", "1.00000000000"),
    ("units + units + units + units + 99999999999", "units + units + units + units + 99999999"),
    ("1000000001", "1000000001"),
    ("units + units + units + units + 1000000001", "units + units + units + units + 10000000"),
])
def test_a_limit_with_a_number_too_large_is_refused_before_anything_else(text, shown):
    with pytest.raises(LimitTooLarge) as raised:
        parse_limit(text, NAMES)
    assert str(raised.value) == f"a number in `{shown}` is larger than 1,000,000,000, the largest number a rule may state"


def test_a_limit_nested_deeper_than_python_can_parse_is_refused_as_too_large():
    text = "-" * 295 + "units"
    parse_limit("units + 1", NAMES)  # the patterns are compiled before the stack is made short
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 25)
    try:
        with pytest.raises(LimitTooLarge) as raised:
            parse_limit(text, NAMES)
    finally:
        sys.setrecursionlimit(limit)
    assert str(raised.value) == f"`{'-' * 40}` is nested too deeply"
