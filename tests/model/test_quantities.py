"""Quantities as the rules write them, beyond the common cases: units in the singular, percentages and
centimetres, rolls too large to state, and the small printers of exact numbers. Expected texts by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.model.base import NotGiven, Source
from generator.model.dice import target_probability
from generator.model.points import exact
from generator.model.quantity import Quantity, QuantityError, QuantityTooLarge, number_text


@pytest.mark.parametrize("written, kind, shown, unit", [
    ("1 hex", "distance", "1 hex", "hexes"),
    ("2 hexes", "distance", "2 hexes", "hexes"),
    ("1 minute", "count", "1 minute", "minutes"),
    ("1 models", "count", "1 model", "models"),
    ("3 squares", "distance", "3 squares", "squares"),
    ("5 cm", "distance", "5 cm", "cm"),
    ("50%", "count", "50%", "percent"),
    ("3 dice", "count", "3 dice", "dice"),
])
def test_units_read_and_print_as_people_write_them(written, kind, shown, unit):
    quantity = Quantity.parse(written)
    assert (quantity.kind, str(quantity), quantity.unit) == (kind, shown, unit)


@pytest.mark.parametrize("written, kind, error, message", [
    ("2D1001", "", QuantityTooLarge, "`2D1001` has 1,001 sides; the largest die is a D1000"),
    ("1" * 30 + "D6", "", QuantityTooLarge, "the dice count `111111111111… (30 digits)` in `111111111111111111111111111111D6` "
                                             "is beyond 1,000,000,000, the largest number a roll may state"),
    ("3 furlongs!", "", QuantityError, "`furlongs!` is not a unit (inches, \", hexes, minutes, models...)"),
    ("2 inches", "number", QuantityError, "`2 inches` has a unit; declare `type: distance` or `count`, or leave the type out"),
    ("D6+", "dice", QuantityError, "`D6+` ends with an operator"),
])
def test_quantities_that_cannot_be_read_say_why(written, kind, error, message):
    with pytest.raises(error) as caught:
        Quantity.parse(written, kind)
    assert str(caught.value) == message


def test_number_text_prints_fractions_and_leaves_anything_else_alone():
    assert (number_text(Fraction(-9, 4)), number_text(Fraction(23, 8)), number_text(Fraction(2, 3))) == ("-2¼", "2 7/8", "⅔")
    assert (number_text("a text"), number_text(True)) == ("a text", "True")


@pytest.mark.parametrize("target, sides, chance", [
    (None, 6, 0), (7, 6, 0), (4, 6, Fraction(3, 6)), (1, 6, 1), (2, 20, Fraction(19, 20)),
])
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
