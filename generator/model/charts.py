"""What a chart's cells are: the values its axes take and the inputs of every cell, and the formula they show.

Both ``check`` (every cell must compute) and the renderers (the grid with its odds) read a chart this way.
"""

from __future__ import annotations

from .computed import Chart, Formula, plain
from .formula import Expression, FormulaError
from .ruleset import Ruleset


def _axis_value(written, scope):
    """A word that names values of the ruleset is computed; any other word is a text input's choice."""
    value = plain(written)
    if not isinstance(value, str) or scope is None:
        return value
    try:
        expression = Expression.parse(value)
    except FormulaError:
        return value
    if not expression.names or not expression.names <= scope.keys():
        return value
    return expression.evaluate(scope)


def chart_cells(chart: Chart, scope=None):
    """The inputs of every cell, row by row (``scope``: the ruleset's, for axis values written as expressions)."""
    fixed = {s.id: plain(s.value) for s in chart.fixed}
    rows = axis_values(chart, chart.rows, scope) if chart.rows is not None else [None]
    for row in rows:
        for column in axis_values(chart, chart.columns, scope):
            cell = {chart.columns.input: column, **fixed}
            if chart.rows is not None:
                cell[chart.rows.input] = row
            yield cell


def axis_values(chart: Chart, axis, scope=None) -> list:
    """The values an axis takes; a word is a value id or an expression of values (`cover + moving`),
    computed in ``scope`` so that a changed value reaches the chart."""
    if axis.values:
        return [_axis_value(q, scope) for q in axis.values]
    if axis.range is not None and axis.range.low is not None and axis.range.high is not None:
        return list(range(axis.range.low, axis.range.high + 1))
    return []


_SHOWN_AS = {"target": "target", "chance": "chance", "bool": "chance"}  # a result of any other kind: `number`


def chart_show(chart: Chart, formula: Formula) -> str:
    """How a chart's cells print its formula's result (``formula``: ``chart_formula``'s): as the chart says, else as
    that result is, so a chart of plain numbers never prints them as rolls to make."""
    return chart.show or _SHOWN_AS.get(formula.result, "number")


def chart_formula(ruleset: Ruleset, chart: Chart) -> Formula:
    """The formula of one result whose values a chart's cells show (the chart's owner's: charts are checked first)."""
    formula = ruleset.formula(chart.formula)
    return formula.view(chart.result) if chart.result else formula
