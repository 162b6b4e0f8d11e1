"""Quantities as the rules write them, beyond the common cases: units in the singular, percentages and
centimetres, rolls too large to state, and the small printers of exact numbers. Expected texts by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.model.base import Bounds, NotGiven, Source
from generator.model.dice import target_probability
from generator.model.points import exact
from generator.model.quantity import NotPicked, Quantity, QuantityError, QuantityTooLarge, number_text


@pytest.mark.parametrize(
    "written, kind, shown, unit",
    [
        ("1 hex", "distance", "1 hex", "hexes"),
        ("2 hexes", "distance", "2 hexes", "hexes"),
        ("1 minute", "count", "1 minute", "minutes"),
        ("1 models", "count", "1 model", "models"),
        ("3 squares", "distance", "3 squares", "squares"),
        ("5 cm", "distance", "5 cm", "cm"),
        ("50%", "count", "50%", "percent"),
        ("3 dice", "count", "3 dice", "dice"),
        ("3 pouces", "distance", '3"', "inches"),  # French rules: a distance, not a count of pouces
        ("8 centimètres", "distance", "8 cm", "cm"),
        ("3 Zoll", "distance", '3"', "inches"),  # German
        ("2 épées", "count", "2 épées", "épées"),  # a count of a word with an accent
    ],
)
def test_units_read_and_print_as_people_write_them(written, kind, shown, unit):
    quantity = Quantity.parse(written)
    assert (quantity.kind, str(quantity), quantity.unit) == (kind, shown, unit)


@pytest.mark.parametrize(
    "written, kind, error, message",
    [
        ("2D1001", "", QuantityTooLarge, "`2D1001` has 1,001 sides; the largest die is a D1000"),
        (
            "1" * 30 + "D6",
            "",
            QuantityTooLarge,
            "the dice count `111111111111… (30 digits)` in `111111111111111111111111111111D6` "
            "is beyond 1,000,000,000, the largest number a roll may state",
        ),
        ("3 furlongs!", "", QuantityError, '`furlongs!` is not a unit (inches, ", hexes, minutes, models...)'),
        (
            "2 inches",
            "number",
            QuantityError,
            "`2 inches` has a unit; declare `type: distance` or `count`, or leave the type out",
        ),
        ("D6+", "dice", QuantityError, "`D6+` ends with an operator"),
    ],
)
def test_quantities_that_cannot_be_read_say_why(written, kind, error, message):
    with pytest.raises(error) as caught:
        Quantity.parse(written, kind)
    assert str(caught.value) == message


def test_number_text_prints_fractions_and_leaves_anything_else_alone():
    assert (number_text(Fraction(-9, 4)), number_text(Fraction(23, 8)), number_text(Fraction(2, 3))) == (
        "-2¼",
        "2 7/8",
        "⅔",
    )
    assert (number_text("a text"), number_text(True)) == ("a text", "True")


@pytest.mark.parametrize(
    "target, sides, chance",
    [
        (None, 6, 0),
        (7, 6, 0),
        (4, 6, Fraction(3, 6)),
        (1, 6, 1),
        (2, 20, Fraction(19, 20)),
    ],
)
def test_target_probability_counts_the_faces_at_or_above_the_target(target, sides, chance):
    assert target_probability(target, sides) == chance


def test_points_are_whole_numbers_or_fractions_only():
    assert exact(Fraction(4, 2)) == 2 and type(exact(Fraction(4, 2))) is int
    assert exact(Fraction(3, 2)) == Fraction(3, 2)
    for wrong in (1.5, True, "2"):
        with pytest.raises(TypeError, match="^points are whole numbers or Fractions, not "):
            exact(wrong)


def test_not_given_and_sources_print_for_people():
    assert (str(NotGiven("lost page")), repr(NotGiven("lost page"))) == ("not given", "not given: lost page")
    with pytest.raises(ValueError, match="not given"):  # a gap is never true or false
        bool(NotGiven("lost page"))
    assert str(Source(file="rules.txt")) == "rules.txt"
    assert str(Source(section="Shooting", file="rules.txt")) == "rules.txt § Shooting"


# Quantities parsed and printed as written; every expected text by hand.


@pytest.mark.parametrize(
    "raw, kind, parsed_kind, magnitude, unit, shown",
    [
        ('6"', "", "distance", 6, "inches", '6"'),
        ("3 hexes", "", "distance", 3, "hexes", "3 hexes"),
        ("1 hex", "", "distance", 1, "hexes", "1 hex"),
        ("1 hexes", "", "distance", 1, "hexes", "1 hex"),
        ("2 minutes", "", "count", 2, "minutes", "2 minutes"),
        ("1 minute", "", "count", 1, "minutes", "1 minute"),
        ("1 dice", "", "count", 1, "dice", "1 die"),
        ("1 die", "", "count", 1, "dice", "1 die"),
        ("1 tokens", "", "count", 1, "tokens", "1 token"),
        ("10 cm", "", "distance", 10, "cm", "10 cm"),
        ("5 mm", "", "distance", 5, "mm", "5 mm"),
        ("4 squares", "", "distance", 4, "squares", "4 squares"),
        ("50%", "", "count", 50, "percent", "50%"),
        ("4+", "", "target", 4, "", "4+"),
        ("4 +", "target", "target", 4, "", "4+"),
        ("1½", "", "number", Fraction(3, 2), "", "1½"),
        ("3", "count", "count", 3, "", "3"),
        ("3", "number", "number", 3, "", "3"),
        ("hello", "", "text", "hello", "", "hello"),
        ("4+", "text", "text", "4+", "", "4+"),
        ("2 furlongs", "", "count", 2, "furlongs", "2 furlongs"),
        ("6 in", "distance", "distance", 6, "inches", '6"'),
    ],
)
def test_quantity_parse_and_print(raw, kind, parsed_kind, magnitude, unit, shown):
    quantity = Quantity.parse(raw, kind)
    assert (quantity.kind, quantity.magnitude, quantity.unit) == (parsed_kind, magnitude, unit)
    assert quantity.value == magnitude
    assert quantity.written == raw.strip()
    assert str(quantity) == shown


def test_quantity_dice():
    quantity = Quantity.parse("2D6")
    assert quantity.kind == "dice" and str(quantity) == "2D6"
    assert Quantity.parse(" d6 ").kind == "dice"
    assert Quantity.parse("D6", "dice").kind == "dice"


@pytest.mark.parametrize(
    "raw, kind, error",
    [
        ("4", "target", QuantityError),
        ("6", "distance", QuantityError),
        ("6 hexes", "number", QuantityError),
        ("6 h3x", "", QuantityError),
        ("abc", "number", QuantityError),
        ("D", "dice", QuantityError),
        ("2D5000", "dice", QuantityTooLarge),
        ("2D6 +", "", QuantityError),
    ],
)
def test_quantity_refuses(raw, kind, error):
    with pytest.raises(error):
        Quantity.parse(raw, kind)


def test_bounds_and_not_given_read_as_words():
    assert str(Bounds(1, 6)) == "from 1 to 6"
    assert str(Bounds(low=2)) == "at least 2"
    assert str(Bounds(high=9)) == "at most 9"
    assert str(Bounds(0, 0)) == "from 0 to 0"
    assert str(NotGiven()) == "not given" and repr(NotGiven("x")) == "not given: x"
    with pytest.raises(ValueError, match="not given"):  # a gap is never true or false
        bool(NotGiven("x"))


def test_dice_and_text_quantities_print_as_written_and_one_die_is_a_die():
    assert str(Quantity("dice", "2D6", "dice")) == "2D6"
    assert str(Quantity("text", "all of them", "models")) == "all of them"
    assert str(Quantity("count", 1, "dice")) == "1 die"
    assert str(Quantity("count", 2, "dice")) == "2 dice"
    assert str(Quantity("count", 1, "models")) == "1 model"


# Units in capitals, dice among words, and each refusal said in words.


@pytest.mark.parametrize(
    "raw, kind, unit", [("3 Hexes", "distance", "hexes"), ("2 Minutes", "count", "minutes"), ("4 CM", "distance", "cm")]
)
def test_a_unit_may_be_written_in_capitals(raw, kind, unit):
    parsed = Quantity.parse(raw)
    assert (parsed.kind, parsed.unit) == (kind, unit)


@pytest.mark.parametrize("raw", ["D6 + S", "d6 + str", "D8 - Armour"])
def test_dice_mixed_with_other_words_stay_text_unless_declared(raw):
    parsed = Quantity.parse(raw)
    assert (parsed.kind, parsed.magnitude) == ("text", raw)
    assert Quantity.parse(raw, "dice").kind == "dice"


@pytest.mark.parametrize(
    "raw, kind, error, message",
    [
        ("D1001", "", QuantityTooLarge, "`D1001` has 1,001 sides; the largest die is a D1000"),
        ("2D6 +", "", QuantityError, "`2D6 +` ends with an operator"),
        ("many", "distance", QuantityError, "`many` is not a distance"),
        ("6", "distance", QuantityError, '`6` needs a unit (6", 3 hexes)'),
        (
            "3 hexes",
            "number",
            QuantityError,
            "`3 hexes` has a unit; declare `type: distance` or `count`, or leave the type out",
        ),
    ],
)
def test_a_quantity_that_is_refused_says_why(raw, kind, error, message):
    with pytest.raises(error) as raised:
        Quantity.parse(raw, kind)
    assert type(raised.value) is error
    assert str(raised.value) == message


# -- alternatives: "4 or 5 feet" as formulas see them ---------------------------------------------------------
def _pace():
    return Quantity.parse("4 or 5 feet").value


@pytest.mark.parametrize(
    "n", [0, 3, -1, True, "1"], ids=["none before the first", "past the last", "negative", "true", "a text"]
)
def test_picking_an_alternative_the_text_does_not_give_says_which_may_be_picked(n):
    with pytest.raises(NotPicked) as refused:
        _pace().pick(n)
    assert str(refused.value) == f"`4 or 5 feet` has 2 alternatives: pick 1 to 2, not {n!r}"


def test_alternatives_used_as_one_value_suggest_picking_the_first():
    with pytest.raises(NotPicked) as refused:
        _pace() + 1
    assert (
        str(refused.value)
        == "`4 or 5 feet` gives alternatives, not one value: pick one first, as `pick(value, 1)` for 4 feet"
    )


def test_alternatives_of_another_kind_than_declared_are_refused_in_the_words_the_text_writes():
    # the unit is written once, after the last: the error quotes that, not a "4 feet" the text never wrote
    with pytest.raises(QuantityError) as refused:
        Quantity.parse("4 or 5 feet", "number")
    assert str(refused.value).startswith("`5 feet` has a unit; declare `type: distance`")


def test_alternatives_equal_the_same_alternatives_and_hash_apart_from_others():
    assert _pace() == Quantity.parse("4 or 5 ft").value  # the same two lengths, written otherwise
    assert _pace() != Quantity.parse("4 or 6 feet").value
    assert hash(_pace()) == hash(Quantity.parse("4 or 5 ft").value)
    # one hash for all alternatives would still be correct, but every key of a table would collide
    assert len({hash(Quantity.parse(f"{n} or {n + 1}").value) for n in range(20)}) == 20


def test_a_number_written_with_its_plus_sign_prints_with_it():
    """ "Moving −1, large target 1" in print: the text's +1 modifier lost its sign, as YAML reads `+1` as 1."""
    from helpers import sample_project

    ruleset = sample_project()[0].ruleset("ordo_ineptus")  # the model as loaded, read by every output
    assert str(ruleset.value("large_target_modifier").value) == "+1"  # shooting.yaml: `value: +1`
    assert str(ruleset.value("moving_modifier").value) == "-1"
    assert [str(Quantity.parse(w)) for w in ("+1", "1", "+1½", "+0", "-1")] == ["+1", "1", "+1½", "0", "-1"]
