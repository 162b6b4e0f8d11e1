"""Distances keep their unit (issue 21, item 4): lengths convert exactly, grid units stand apart, and a value
prints in the unit its text uses. Expected values are the conversions the issue states (1 ft = 12 in,
1 yd = 36 in, 1 in = 2.54 cm = 25.4 mm), worked out here by hand, never by the code under test."""

from __future__ import annotations

import itertools
import math
import pickle
from fractions import Fraction

import pytest
from helpers import make_project

from generator.model.calculate import calculator
from generator.model.formula import Expression, FormulaError
from generator.model.quantity import Quantity, QuantityError
from generator.model.units import Distance, UnitMismatch
from generator.render.prose import value_text
from generator.render.sheets.charts import chart_from_model
from generator.source.project import load_project
from generator.validate import check_project

INCHES_IN = {
    "inches": Fraction(1),
    "feet": Fraction(12),
    "yards": Fraction(36),
    "cm": 1 / Fraction("2.54"),
    "mm": 1 / Fraction("25.4"),
}  # the definitions, in inches


def errors(result) -> list[tuple[str, str]]:
    return [(d.code.value, f"{d.location.line}:{d.location.column}") for d in result.diagnostics.errors]


FEET_AND_INCHES = """
ruleset: {title: Feet and inches}
values:
  stride: {value: 1 foot, type: distance}
  step: 6"
  cells: 3 hexes
formulas:
  longer:
    title: The stride is longer than the step
    expr: stride > step
    result: bool
  together:
    title: A stride and a step
    expr: stride + step
    result: distance
  together_in_feet:
    title: A stride and a step, in feet
    expr: stride + step
    result: distance
    unit: feet
"""


@pytest.fixture
def feet(tmp_path):
    result = check_project(make_project(tmp_path, game=FEET_AND_INCHES))
    assert errors(result) == []
    return result.project.ruleset("game")


# -- the finding: 1 foot was read as 1 inch ---------------------------------------------------------------
def test_a_foot_is_longer_than_six_inches_in_formulas_and_examples(feet):
    calc = calculator(feet)
    assert calc.evaluate(feet.formula("longer")) is True
    values = calc.values()
    assert values.stride > values.step and not values.stride < values.step


def test_a_foot_and_six_inches_make_eighteen_inches(feet):
    calc = calculator(feet)
    together = calc.evaluate(feet.formula("together"))
    assert (together.in_unit("inches"), str(together)) == (18, '18"')
    in_feet = calc.evaluate(feet.formula("together_in_feet"))
    assert (in_feet.magnitude, str(in_feet)) == (Fraction(3, 2), "1½ feet")


def test_a_value_prints_in_the_unit_its_text_uses(feet):
    assert [value_text(feet, id) for id in ("stride", "step", "cells")] == ["1 foot", '6"', "3 hexes"]
    assert [
        str(Quantity.parse(w)) for w in ("2 feet", "1 yard", "3 yds", "2.5 cm", "10 mm", '1½"', "1 hex", "2 squares")
    ] == ["2 feet", "1 yard", "3 yards", "2½ cm", "10 mm", '1½"', "1 hex", "2 squares"]


# -- exact conversions against the definitions -------------------------------------------------------
@pytest.mark.parametrize("left, right", list(itertools.product(INCHES_IN, repeat=2)))
def test_lengths_convert_exactly_and_compare_across_units(left, right):
    for a, b in [(1, 1), (3, 2), (Fraction(5, 2), 7), (254, 10)]:
        x, y = Distance(a, left), Distance(b, right)
        in_inches = a * INCHES_IN[left], b * INCHES_IN[right]
        assert (x < y, x == y, x > y) == (
            in_inches[0] < in_inches[1],
            in_inches[0] == in_inches[1],
            in_inches[0] > in_inches[1],
        )
        assert (x + y).in_unit("inches") == in_inches[0] + in_inches[1]
        assert (x - y).in_unit("inches") == in_inches[0] - in_inches[1]
        assert x / y == in_inches[0] / in_inches[1]


def test_the_stated_equalities_hold_exactly():
    assert Distance(1, "feet") == Distance(12, "inches") and Distance(1, "yards") == Distance(3, "feet")
    assert Distance(1, "inches") == Distance(Fraction("2.54"), "cm") == Distance(Fraction("25.4"), "mm")
    assert Distance(1, "yards").in_unit("cm") == Fraction("91.44")


# -- grid units are their own measure ------------------------------------------------------------------------
@pytest.mark.parametrize("grid", ["hexes", "squares"])
def test_grid_units_do_not_mix_with_lengths_or_each_other(grid):
    other = "squares" if grid == "hexes" else "hexes"
    for length in INCHES_IN:
        with pytest.raises(UnitMismatch):
            Distance(3, grid) + Distance(6, length)
        with pytest.raises(UnitMismatch):
            Distance(3, grid) < Distance(6, length)
    with pytest.raises(UnitMismatch):
        Distance(1, grid) == Distance(1, other)
    assert Distance(2, grid) + 1 == Distance(3, grid)  # a bare number is read in the distance's unit


def test_a_formula_mixing_hexes_and_inches_is_a_located_unit_mismatch(tmp_path):
    text = (
        FEET_AND_INCHES
        + """
  too_far:
    title: Beyond the hexes
    expr: cells < step
    result: bool
"""
    )
    result = check_project(make_project(tmp_path, game=text))
    assert errors(result) == [("unit-mismatch", "24:11")]  # the `expr:` of `too_far`
    assert '3 hexes and 6" cannot be compared' in result.diagnostics.errors[0].message


def test_a_chart_axis_mixing_measures_is_a_located_unit_mismatch(tmp_path):
    text = (
        FEET_AND_INCHES
        + """
  reaches:
    title: Reaches
    inputs: {distance: {label: Distance, type: distance, unit: inches, min: 0, max: 24}}
    expr: distance <= stride
    result: bool
charts:
  reach:
    title: Reach
    formula: reaches
    columns: {input: distance, values: [step, cells]}
"""
    )
    result = check_project(make_project(tmp_path, game=text))
    assert errors(result) == [("unit-mismatch", "31:40")]  # the axis `values:`


def test_a_chart_prints_distances_in_their_unit(tmp_path):
    text = (
        FEET_AND_INCHES
        + """
  doubled:
    title: Doubled
    inputs: {distance: {label: Distance, type: distance, unit: feet, min: 0, max: 3}}
    expr: distance * 2
    result: distance
charts:
  doubled:
    title: Doubled
    formula: doubled
    show: number
    columns: {input: distance, values: [step, stride]}
"""
    )
    result = check_project(make_project(tmp_path, game=text))
    assert errors(result) == []
    chart = chart_from_model(result.project.ruleset("game"), result.project.ruleset("game").chart("doubled"))
    assert chart.columns == ('6"', "1 foot")
    assert [cell.text for cell in chart.rows[0].cells] == ["1 foot", "2 feet"]


def test_an_input_reads_a_bare_number_in_its_unit_and_converts_a_length(feet, tmp_path):
    text = (
        FEET_AND_INCHES
        + """
  reaches:
    title: Reaches
    inputs: {distance: {label: Distance, type: distance, unit: feet}}
    expr: distance <= stride
    result: bool
"""
    )
    ruleset = check_project(make_project(tmp_path, game=text)).project.ruleset("game")
    calc = calculator(ruleset)
    assert calc.evaluate(ruleset.formula("reaches"), 1) is True  # 1 is read as 1 foot
    assert calc.evaluate(ruleset.formula("reaches"), Distance(13, "inches")) is False
    with pytest.raises(FormulaError, match="different measures"):
        calc.evaluate(ruleset.formula("reaches"), Distance(1, "hexes"))


def test_an_input_without_a_unit_of_its_own_is_read_in_its_formulas_unit(tmp_path):
    text = """
ruleset: {title: Gaps in feet}
formulas:
  doubled:
    title: Twice the gap
    inputs: {gap: {label: Gap, type: distance, max: 2}}
    expr: gap * 2
    result: distance
    unit: feet
"""
    ruleset = check_project(make_project(tmp_path, game=text)).project.ruleset("game")
    doubled = ruleset.formula("doubled")
    calc = calculator(ruleset)
    # 18 inches is 1 1/2 feet: within the input's 2 (feet, the formula's unit), and twice it is 3 feet
    assert calc.evaluate(doubled, Distance(18, "inches")) == Distance(3, "feet")
    with pytest.raises(FormulaError, match="at most 2"):
        calc.evaluate(doubled, Distance(30, "inches"))  # 2 1/2 feet


def test_a_distance_formula_of_several_lengths_gives_each_in_its_unit(feet, tmp_path):
    text = (
        FEET_AND_INCHES
        + """
  both_in_feet:
    title: The stride and the step, in feet
    expr: (stride, step)
    result: distance
    unit: feet
"""
    )
    ruleset = check_project(make_project(tmp_path, game=text)).project.ruleset("game")
    both = calculator(ruleset).evaluate(ruleset.formula("both_in_feet"))
    assert [(d.magnitude, d.unit) for d in both] == [(1, "feet"), (Fraction(1, 2), "feet")]  # 6" is half a foot


def test_an_overlay_cannot_turn_inches_into_hexes(tmp_path):
    make_project(tmp_path, base='ruleset: {title: Base}\nvalues:\n  step: 6"\n')
    make_project(tmp_path, house="ruleset: {title: House, extends: base, overlay: true}\nvalues:\n  step: 2 hexes\n")
    _project, diagnostics = load_project(tmp_path)
    assert [(d.code.value, d.location.line) for d in diagnostics.errors] == [("unit-mismatch", 3)]


# -- alternatives: "4 or 5 feet" ----------------------------------------------------------------------------
def test_alternatives_are_a_value_printed_as_written_that_formulas_must_pick_from(tmp_path):
    text = """
ruleset: {title: Alternatives}
values:
  pace: 4 or 5 feet
  tries: 2, 3 or 4
  paces: 2, 3 or 4 feet
formulas:
  unpicked:
    title: Uses the pace as one number
    expr: pace + 1
    result: distance
  shorter:
    title: The shorter pace
    expr: pick(pace, 1)
    result: distance
"""
    result = check_project(make_project(tmp_path, game=text))
    assert errors(result) == [("bad-formula", "10:11")]
    assert "gives alternatives" in result.diagnostics.errors[0].message
    ruleset = result.project.ruleset("game")
    assert [value_text(ruleset, id) for id in ("pace", "tries")] == ["4 or 5 feet", "2, 3 or 4"]
    assert calculator(ruleset).evaluate(ruleset.formula("shorter")) == Distance(4, "feet")
    paces = calculator(ruleset).values().paces  # the unit written once, after the last: each of the three is in it
    assert [(paces.pick(n).magnitude, paces.pick(n).unit) for n in (1, 2, 3)] == [(2, "feet"), (3, "feet"), (4, "feet")]
    pace = calculator(ruleset).values().pace
    assert (repr(pace), pace.pick(2)) == ("4 or 5 feet", Distance(5, "feet"))
    with pytest.raises(ValueError, match="gives alternatives"):
        bool(pace)


def test_words_joined_by_or_stay_text_and_mixed_alternatives_are_refused():
    assert Quantity.parse("left or right").kind == "text"
    with pytest.raises(QuantityError, match="one kind and measure"):
        Quantity.parse('2" or 1 hex')


def test_the_expression_language_divides_and_rounds_distances_exactly():
    scope = {"move": Distance(5, "inches"), "cells": Distance(3, "hexes")}
    assert Expression.parse("move / 2").evaluate(scope) == Distance(Fraction(5, 2), "inches")
    assert str(Expression.parse("floor(move / 2)").evaluate(scope)) == '2"'
    assert Expression.parse("max(move, 1)").evaluate(scope) == Distance(5, "inches")
    with pytest.raises(FormulaError, match="mixes measures"):
        Expression.parse("move + cells").evaluate(scope)


# -- every operation against the arithmetic of inches, worked out from the definitions above -------------------
MAGNITUDES = (Fraction(0), Fraction(1), Fraction(5, 2), Fraction(-3), Fraction(7))


def inches(distance: Distance) -> Fraction:
    """A length in inches by the issue's definitions (never by ``Distance.to``)."""
    return Fraction(distance.magnitude) * INCHES_IN[distance.unit]


@pytest.mark.parametrize("left, right", list(itertools.product(INCHES_IN, repeat=2)))
def test_each_operation_on_two_lengths_is_the_arithmetic_of_their_inches(left, right):
    finer = min(left, right, key=INCHES_IN.__getitem__)  # the result keeps the unit that keeps both exact
    for a, b in itertools.product(MAGNITUDES, repeat=2):
        x, y = Distance(a, left), Distance(b, right)
        for result, expected in ((x + y, inches(x) + inches(y)), (x - y, inches(x) - inches(y))):
            assert (result.unit, inches(result)) == (finer, expected)
        assert (x < y, x <= y, x > y, x >= y, x == y) == (
            inches(x) < inches(y),
            inches(x) <= inches(y),
            inches(x) > inches(y),
            inches(x) >= inches(y),
            inches(x) == inches(y),
        )
        if x == y:
            assert hash(x) == hash(y)  # equal lengths are one key, whatever their units
        if b:
            quotient = (inches(x) / INCHES_IN[finer]) // (inches(y) / INCHES_IN[finer])
            assert x // y == quotient and x / y == inches(x) / inches(y)
            remainder = x % y
            assert remainder.unit == finer and inches(remainder) == inches(x) - quotient * inches(y)


@pytest.mark.parametrize("unit", [*INCHES_IN, "hexes", "squares"])
def test_a_length_and_a_bare_number_work_in_the_lengths_own_unit(unit):
    for a, n in itertools.product(MAGNITUDES, (Fraction(2), Fraction(-1, 2), 3)):
        x = Distance(a, unit)
        for result, expected in (
            (x + n, a + n),
            (n + x, n + a),
            (x - n, a - n),
            (n - x, n - a),
            (x * n, a * n),
            (n * x, n * a),
            (x / n, a / n),
            (x // n, a // n),
            (x % n, a % n),
            (-x, -a),
            (+x, a),
            (abs(x), abs(a)),
        ):
            assert isinstance(result, Distance) and (result.unit, result.magnitude) == (unit, expected)
        assert (x < n, x == n, bool(x)) == (a < n, a == n, a != 0)
    half = Distance(Fraction(5, 2), unit)
    assert (math.floor(half), math.ceil(half)) == (Distance(2, unit), Distance(3, unit))
    assert half < 2.75 and half == 2.5 and half > 2.25  # a float compares exactly


@pytest.mark.parametrize(
    "operation",
    [
        lambda x: x * x,
        lambda x: 2 / x,
        lambda x: x + Distance(1, "hexes"),
        lambda x: x.to("hexes"),
    ],
    ids=["an area", "a number over a length", "a grid unit added", "converted to a grid unit"],
)
def test_what_no_rule_measures_is_a_unit_mismatch(operation):
    with pytest.raises(UnitMismatch):
        operation(Distance(6, "inches"))


@pytest.mark.parametrize("operand", ["6", None, float("nan"), 1.5])
def test_a_length_does_no_arithmetic_with_what_is_not_an_exact_number(operand):
    x = Distance(6, "inches")
    for operation in (
        lambda: x + operand,
        lambda: operand + x,
        lambda: x - operand,
        lambda: x * operand,
        lambda: x / operand,
        lambda: x // operand,
        lambda: x % operand,
    ):
        with pytest.raises(TypeError):
            operation()
    assert (x == operand) is False


def test_a_distance_is_an_exact_immutable_value_in_a_known_unit():
    with pytest.raises(ValueError, match="not a unit of distance"):
        Distance(1, "paces")
    for magnitude in (1.5, True, "6"):
        with pytest.raises(TypeError, match="exact number"):
            Distance(magnitude, "inches")
    x = Distance(6, "inches")
    with pytest.raises(AttributeError, match="immutable"):
        x.magnitude = 7
    assert pickle.loads(pickle.dumps(x)) == x and str(Distance(1, "feet")) == "1 foot"


# -- what a user reads when an operation is refused, and how distances key a table ----------------------------
@pytest.mark.parametrize(
    "operation, message",
    [
        (
            lambda x, y: x / y,
            '6" and 1 hex cannot be divided by each other: inches measure a length, hexes count cells of a hex grid',
        ),
        (
            lambda x, y: x // y,
            '6" and 1 hex cannot be divided by each other: inches measure a length, hexes count cells of a hex grid',
        ),
        (
            lambda x, y: x % y,
            '6" and 1 hex cannot be divided by each other: inches measure a length, hexes count cells of a hex grid',
        ),
        (
            lambda x, _y: x.to("hexes"),
            '6" cannot be converted to hexes: inches measure a length, hexes count cells of a hex grid',
        ),
        (lambda x, _y: x * x, '6" times 6" is an area, which no rule measures'),
        (lambda x, _y: 2 / x, '2 divided by 6" is not a distance or a number'),
    ],
    ids=["divided", "divided rounding down", "remainder", "converted", "an area", "a number over a length"],
)
def test_a_refused_operation_says_what_was_refused_and_why(operation, message):
    with pytest.raises(UnitMismatch) as refused:
        operation(Distance(6, "inches"), Distance(1, "hexes"))
    assert str(refused.value) == message


def test_equal_lengths_in_different_units_are_one_key_and_different_lengths_hash_apart():
    # 1 foot = 12 inches = 30.48 cm = 304.8 mm, by the definitions above
    same = {
        Distance(1, "feet"),
        Distance(12, "inches"),
        Distance(Fraction("30.48"), "cm"),
        Distance(Fraction("304.8"), "mm"),
    }
    assert len(same) == 1
    # one hash for every distance would still be correct, but a table keyed by distances would
    # search every key each time
    assert len({hash(Distance(n, "inches")) for n in range(50)}) == 50


def test_a_distance_prints_its_number_as_the_given_printer_does():
    # a chart prints a rounded number in the distance's own unit
    assert Distance(Fraction(1, 3), "feet").text(lambda magnitude: f"{float(magnitude):.2f}") == "0.33 feet"
    assert Distance(Fraction(5, 2), "inches").text(lambda _magnitude: "2.5") == '2.5"'
