"""A chart over a text input: an axis value that is one of the input's choices is that choice, as written, even
where a ruleset value has the same name or the choice is written with digits ("2"); a word the chart reads as a
value, where that makes a cell fail, is named in the error; and a text input given a number says so in words that
do not contradict its choices.

Expected cells are read from each formula's expression by hand, never from the code's output.
"""

from __future__ import annotations

import pytest
from helpers import make_project

from generator.render.sheets.charts import chart_from_model
from generator.validate import check_project

GAME = """\
ruleset: {title: Card Odds}
values:
  hearts: {value: 13 cards, label: Hearts in the deck}
formulas:
  outcome:
    title: What a card does
    inputs:
      suit: {label: Suit, type: text, choices: [hearts, clubs]}
      rank: {label: Rank, type: text, choices: [ace, "2", "10", king]}
    expr: "('red ' if suit == 'hearts' else 'black ') + ('low' if rank in ('2', '10') else 'high')"
    result: text
  deck_share:
    title: Share of the deck
    inputs:
      suit: {label: Suit, type: text, choices: [hearts, clubs]}
    expr: "hearts if suit == 'hearts' else 52 - hearts"
charts:
  card_chart:
    title: What each card does
    formula: outcome
    rows: {input: suit, values: [hearts, clubs]}
    columns: {input: rank, values: [ace, "2", "10", king]}
  digits_fixed:
    title: Clubs by rank, rank held at 2
    formula: outcome
    columns: {input: suit, values: [hearts, clubs]}
    fixed: {rank: "2"}
  share_chart:
    title: Share of the deck
    formula: deck_share
    columns: {input: suit, values: [hearts, clubs]}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    result = check_project(make_project(tmp_path_factory.mktemp("cards"), game=GAME))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project.ruleset("game")


def texts(ruleset, chart_id: str) -> list[list[str]]:
    chart = chart_from_model(ruleset, ruleset.chart(chart_id))
    return [[cell.text for cell in row.cells] for row in chart.rows]


def test_a_text_axis_value_that_is_a_choice_is_that_choice_though_a_value_has_its_name(game):
    # `hearts` is a value of 13 cards and a choice of `suit`: the chart's rows are the suits
    chart = chart_from_model(game, game.chart("card_chart"))
    assert [row.label for row in chart.rows] == ["hearts", "clubs"]
    assert [dict(cell.given)["suit"] for cell in chart.rows[0].cells] == ["hearts"] * 4
    # and the formula that reads the value still reads 13: 13 hearts, 39 clubs
    assert texts(game, "share_chart") == [["13", "39"]]


def test_a_quoted_number_on_a_text_axis_or_fixed_stays_the_text_it_is(game):
    # "2" and "10" are low, ace and king high; red for hearts, black for clubs
    assert texts(game, "card_chart") == [
        ["red high", "red low", "red low", "red high"],
        ["black high", "black low", "black low", "black high"],
    ]
    assert chart_from_model(game, game.chart("card_chart")).columns == ("ace", "2", "10", "king")
    assert texts(game, "digits_fixed") == [["red low", "black low"]]


def test_a_word_read_as_a_value_where_a_cell_fails_is_named_in_the_error(tmp_path):
    # a text input without choices: `hearts` on its axis is read as the value (13), which no text input takes
    ambiguous = GAME.replace(
        "suit: {label: Suit, type: text, choices: [hearts, clubs]}", "suit: {label: Suit, type: text}"
    )
    result = check_project(make_project(tmp_path, game=ambiguous))
    errors = [d.format() for d in result.diagnostics.errors]
    assert len(errors) == 3, errors  # every chart varies `suit` over `hearts`
    assert any(
        "cannot compute its cell for rank=ace, suit=13: `suit` of outcome is a text, not the number 13 "
        "(`hearts` of the rows is read as the value `hearts`, 13)" in e
        for e in errors
    ), errors


WORDS_AS_VALUES = """\
ruleset: {title: Card Odds}
values:
  hearts: {value: 1300, label: Hearts in the deck}
formulas:
  pairing:
    title: A suit beside a rank
    inputs:
      suit: {label: Suit, type: text}
      rank: {label: Rank, type: text}
    expr: "suit + rank"
    result: text
charts:
  both_axes:
    title: Suits by ranks
    formula: pairing
    rows: {input: suit, values: [hearts]}
    columns: {input: rank, values: [hearts - 1]}
  columns_only:
    title: Suits, rank held
    formula: pairing
    columns: {input: suit, values: [hearts]}
    fixed: {rank: ace}
"""


def test_every_axis_word_read_as_a_value_is_named_rows_and_columns_alike(tmp_path):
    """Each axis's word is named with the axis it is on; an expression of values (`hearts - 1`) is "values", not
    a value; a chart with columns alone names its columns' word. (Numbers past 256: Python keeps one object of each
    small int, so a cell's number and the value's would be one object even if compared by identity.)"""
    result = check_project(make_project(tmp_path, game=WORDS_AS_VALUES))
    errors = [d.format() for d in result.diagnostics.errors]
    assert len(errors) == 2, errors
    assert any(
        "cannot compute its cell for rank=1299, suit=1300: " in e
        and "(`hearts` of the rows is read as the value `hearts`, 1300; "
        "`hearts - 1` of the columns is read as values, 1299)"
        in e
        for e in errors
    ), errors
    assert any(
        "`columns_only` cannot compute its cell" in e
        and "(`hearts` of the columns is read as the value `hearts`, 1300)" in e
        for e in errors
    ), errors


def test_a_choice_that_names_a_value_is_never_said_to_be_read_as_it(tmp_path):
    """`hearts` is a choice of `suit` and the name of a value that is the text `hearts`: the chart's cell takes the
    choice as written, so its error names no word read as a value, though the two texts are equal."""
    game = """\
ruleset: {title: Card Odds}
values:
  hearts: {value: hearts, label: The red suit}
formulas:
  suit_plus_one:
    title: A suit and one more
    inputs:
      suit: {label: Suit, type: text, choices: [hearts, clubs]}
    expr: "suit + 1"
charts:
  suits:
    title: Suits
    formula: suit_plus_one
    columns: {input: suit, values: [hearts]}
"""
    result = check_project(make_project(tmp_path, game=game))
    charts = [d.message for d in result.diagnostics.errors if d.code.value == "bad-chart"]
    assert len(charts) == 1, [d.format() for d in result.diagnostics.errors]
    assert charts[0].startswith("`suits` cannot compute its cell for suit=hearts: ")
    assert "read as" not in charts[0]
