"""How values, chances and roll ranges are printed for players: a chance is never shown as certain or
impossible unless it is, `not given` is a visible mark, and ranges use the en dash and minus sign."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.model.base import NotGiven
from generator.model.dice import RollRange
from generator.render.present import bounds_text, chance_text, exact_chance_text, range_text, shown


@pytest.mark.parametrize(
    "chance, text",
    [
        (Fraction(9999, 10000), ">99.9%"),  # 99.99% rounds to 100%, but it can fail
        (Fraction(1, 10000), "<0.1%"),  # 0.01% rounds to 0%, but it can happen
        (Fraction(1), "100%"),
        (Fraction(0), "0%"),
        (Fraction(1, 3), "33.3%"),
        (Fraction(2, 3), "66.7%"),
        (Fraction(1, 2), "50%"),
    ],
)
def test_a_chance_is_only_certain_or_impossible_when_it_is(chance, text):
    assert chance_text(chance) == text


def test_an_exact_chance_is_the_fraction_then_the_percentage():
    assert [exact_chance_text(c) for c in (Fraction(1, 3), Fraction(1), Fraction(0))] == [
        "1/3 (33.3%)",
        "1 (100%)",
        "0 (0%)",
    ]


@pytest.mark.parametrize(
    "value, text",
    [
        (NotGiven("lost"), "not given in the source"),
        (None, "—"),
        ("", "—"),
        ((), "—"),
        (("Fear", "Flying"), "Fear, Flying"),
        (True, "yes"),
        (False, "no"),
        (Fraction(3, 2), "1½"),
        (7, "7"),
    ],
)
def test_shown_values(value, text):
    assert shown(value) == text


def test_shown_uses_the_mark_asked_for_nothing():
    assert shown(None, none="-") == "-"


@pytest.mark.parametrize(
    "written, printed",
    [
        ("5", "5"),
        ("1-2", "1–2"),
        ("6+", "6+"),
        ("1-", "1−"),
        ("-2", "−2"),
        ("-3--1", "−3–−1"),
    ],
)
def test_roll_ranges_print_with_an_en_dash_and_minus_signs(written, printed):
    assert range_text(RollRange.parse(written)) == printed


def test_army_limit_bounds_in_words():
    assert bounds_text("2", "3") == "at least 2 and at most 3"
    assert bounds_text("", "3") == "at most 3"
    assert bounds_text(None, " ") == ""
    assert bounds_text(Fraction(3, 2), show=lambda bound: f"[{bound}]") == "at least [3/2]"
