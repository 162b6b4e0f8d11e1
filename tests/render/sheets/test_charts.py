"""How a chart sheet prints a number (`generator/render/sheets/charts.py`): exact where people read the fraction,
rounded where they could not, and an axis heading as the game writes it.

Expected texts are worked by hand: a fraction whose denominator has only the factors 2 and 5 ends as a decimal
would, so it stays exact; quarters and halves print as glyphs, eighths and the rest as n/d."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.model.quantity import Quantity
from generator.render.sheets.charts import _shown, exact_number_text


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (3, "3"),
        (Fraction(3, 2), "1½"),
        (Fraction(1, 3), "⅓"),  # a third: a denominator people read
        (Fraction(7, 8), "7/8"),
        (Fraction(7, 16), "7/16"),  # only 2s below: it ends, so it stays exact
        (Fraction(3, 25), "3/25"),  # only 5s below
        (Fraction(1, 40), "1/40"),  # 2s and 5s
        (Fraction(2, 9), "0.22"),  # ninths never end: rounded
        (Fraction(-31, 12), "-2.58"),
        (True, "True"),
        ("swift", "swift"),
    ],
)
def test_a_chart_number_is_exact_where_people_read_it_else_rounded(value, printed):
    assert exact_number_text(value) == printed


def test_an_axis_heading_is_the_games_own_text():
    assert _shown(Quantity.parse('3"')) == '3"'
    assert _shown(True) == "yes" and _shown(False) == "no"
    assert _shown(Fraction(5, 2)) == "2½" and _shown(4) == "4" and _shown("mounted") == "mounted"
