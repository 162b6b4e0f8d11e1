"""Numbers and points as a rule book writes them: every written form read, each refusal said in words, and
exact fractions printed. Every expected value is written by hand, never computed with the code under test."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.model.points import exact as exact_points
from generator.model.points import points_text
from generator.model.quantity import QuantityError, QuantityTooLarge, number_text, parse_number


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("abc", QuantityError, "`abc` is not a number (write 3, 1½, 3/2 or 1.5)"),
        ("1/0", QuantityError, "`1/0` divides by zero"),
        ("1 2/2", QuantityError, "`1 2/2`: the fraction after a whole number must be below 1, as in 1 1/2"),
        (
            "1000000001",
            QuantityTooLarge,
            "`1000000001` is larger than 1,000,000,000, the largest number a rule may state",
        ),
    ],
)
def test_a_number_that_is_refused_says_why(text, error, message):
    with pytest.raises(error) as raised:
        parse_number(text)
    assert type(raised.value) is error
    assert str(raised.value) == message


# Numbers and points as a rule book prints them; fractions worked on paper.


@pytest.mark.parametrize(
    "text, value",
    [
        ("3", 3),
        ("-1", -1),
        ("−2", -2),
        ("+4", 4),
        ("1½", Fraction(3, 2)),
        ("1 1/2", Fraction(3, 2)),
        ("3/2", Fraction(3, 2)),
        ("25/2", Fraction(25, 2)),  # a fraction of two-digit numerator, not 2 and 5/2
        ("-17 / 4", Fraction(-17, 4)),
        ("1.5", Fraction(3, 2)),
        (".25", Fraction(1, 4)),
        ("2⅞", Fraction(23, 8)),
        ("1000000000", 1000000000),
        ("-1.05", Fraction(-21, 20)),
    ],
)
def test_parse_number_reads_every_written_form(text, value):
    parsed = parse_number(text)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize(
    "text, error",
    [
        ("", QuantityError),
        ("abc", QuantityError),
        ("1/0", QuantityError),
        ("1 3/2", QuantityError),
        ("1 0/2", QuantityError),
        ("1000000001", QuantityTooLarge),
        ("-1000000001", QuantityTooLarge),
    ],
)
def test_parse_number_refuses(text, error):
    with pytest.raises(error):
        parse_number(text)


@pytest.mark.parametrize(
    "value, text",
    [
        (3, "3"),
        (0, "0"),
        (Fraction(3, 2), "1½"),
        (Fraction(2, 3), "⅔"),
        (Fraction(-9, 4), "-2¼"),
        (Fraction(23, 8), "2 7/8"),
        (Fraction(7, 8), "7/8"),
        (Fraction(-7, 8), "-7/8"),
        (Fraction(4, 2), "2"),
        (Fraction(1, 3), "⅓"),
        (Fraction(3, 4), "¾"),
        (True, "True"),
        ("x", "x"),
        (2.5, "2.5"),
    ],
)
def test_number_text_prints_as_a_rule_book_does(value, text):
    assert number_text(value) == text


def test_points_are_whole_or_exact_fractions():
    assert exact_points(Fraction(6, 3)) == 2 and type(exact_points(Fraction(6, 3))) is int
    assert exact_points(Fraction(1, 2)) == Fraction(1, 2)
    assert exact_points(5) == 5
    for wrong in (True, 1.5, "2"):
        with pytest.raises(TypeError):
            exact_points(wrong)
    assert points_text(Fraction(5, 2)) == "2½"
    assert points_text(7) == "7"
