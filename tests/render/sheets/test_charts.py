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


SHOWN_AS_ITS_RESULT = """ruleset: {title: A game}
formulas:
  ambush:
    title: Bandits in an ambush
    inputs: {warband: {label: Warband, min: 1, max: 2}, turn: {label: Turn, min: 5, max: 6}}
    expr: warband // 2 + turn
  to_hit:
    title: To hit
    inputs: {skill: {label: Skill, min: 3, max: 4}}
    expr: 7 - skill
    result: target
  spotted:
    title: Spotted
    inputs: {range: {label: Range, min: 1, max: 2}}
    expr: chance(D6 > range + 3)
    result: chance
charts:
  ambush_chart: {title: Ambush, formula: ambush, rows: {input: warband, range: 1-2}, columns: {input: turn, range: 5-6}}
  to_hit_chart: {title: To hit, formula: to_hit, columns: {input: skill, range: 3-4}}
  spotted_chart: {title: Spotted, formula: spotted, columns: {input: range, range: 1-2}}
  ambush_odds:
    {title: Ambush as targets, formula: ambush, show: target, columns: {input: turn, range: 5-6}, fixed: {warband: 1}}
"""


def test_a_chart_without_show_prints_its_formulas_result_as_that_result_is(tmp_path):
    """A formula of plain numbers charts numbers (bandits: warband // 2 + turn), a target charts the roll needed with
    its chance on a D6, a chance charts that chance; `show:` written says otherwise."""
    from helpers import make_project

    from generator.render.sheets.charts import chart_from_model
    from generator.validate import check_project

    result = check_project(make_project(tmp_path, {"game/ruleset.yaml": SHOWN_AS_ITS_RESULT}))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    game = result.project.ruleset("game")

    def cells(chart_id):
        return [
            [(cell.text, cell.chance) for cell in row.cells]
            for row in chart_from_model(game, game.chart(chart_id)).rows
        ]

    assert cells("ambush_chart") == [[("5", ""), ("6", "")], [("6", ""), ("7", "")]]
    assert cells("to_hit_chart") == [[("4+", "50%"), ("3+", "66.7%")]]  # 3 of 6 faces, then 4 of 6
    assert cells("spotted_chart") == [[("", "33.3%"), ("", "16.7%")]]  # a 5 or 6, then a 6
    assert cells("ambush_odds") == [[("5", "33.3%"), ("6", "16.7%")]]  # as written: each number a roll to make
