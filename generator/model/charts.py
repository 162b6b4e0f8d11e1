"""What a chart's cells are: the values its axes take and the inputs of every cell, and the formula they show.

Both ``check`` (every cell must compute) and the renderers (the grid with its odds) read a chart this way.
"""

from __future__ import annotations

from .computed import Chart, Formula, Input, plain
from .formula import Expression, FormulaError
from .ruleset import Ruleset


def _axis_value(written, scope, spec: Input | None = None):
    """A word that names values of the ruleset is computed; any other word is a text input's choice. For a text
    input (``spec``), a value that is one of its choices is that choice, as written: `hearts` stays the suit though
    a value is named `hearts`, and a quoted `"2"` stays the text it is."""
    text = _text_of(written) if spec is not None and spec.type == "text" else None
    if text is not None and text in spec.choices:
        return text
    value = plain(written)
    if not isinstance(value, str) or scope is None:
        return text if text is not None else value  # a number given a text input is the text it was written as
    expression = _names_in(value, scope)
    return value if expression is None else expression.evaluate(scope)


def _text_of(written) -> str | None:
    """An axis or `fixed:` value as its author wrote it, as text (None for true and false: never a text)."""
    if written is None or isinstance(written, bool):
        return None
    return written.written or str(written)


def _names_in(word: str, scope) -> Expression | None:
    """``word`` as an expression of the ruleset's values (`cover + moving`), or None where it is no such thing."""
    try:
        expression = Expression.parse(word)
    except FormulaError:
        return None
    return expression if expression.names and expression.names <= scope.keys() else None


def _inputs_of(formula: Formula | None) -> dict:
    return {} if formula is None else {i.id: i for i in formula.inputs}


def chart_cells(chart: Chart, scope=None, formula: Formula | None = None):
    """The inputs of every cell, row by row (``scope``: the ruleset's, for axis values written as expressions;
    ``formula``: the chart's, whose text inputs take their values as written)."""
    inputs = _inputs_of(formula)
    fixed = {s.id: _fixed_value(s.value, inputs.get(s.id)) for s in chart.fixed}
    rows = axis_values(chart, chart.rows, scope, formula) if chart.rows is not None else [None]
    for row in rows:
        for column in axis_values(chart, chart.columns, scope, formula):
            cell = {chart.columns.input: column, **fixed}
            if chart.rows is not None:
                cell[chart.rows.input] = row
            yield cell


def _fixed_value(written, spec: Input | None):
    """A `fixed:` value: a text input's as written (`"2"` is no number there), any other's as it computes."""
    text = _text_of(written) if spec is not None and spec.type == "text" else None
    return text if text is not None else plain(written)


def axis_values(chart: Chart, axis, scope=None, formula: Formula | None = None) -> list:
    """The values an axis takes; a word is a value id or an expression of values (`cover + moving`),
    computed in ``scope`` so that a changed value reaches the chart, unless it is a choice of ``formula``'s text
    input the axis varies."""
    if axis.values:
        spec = _inputs_of(formula).get(axis.input)
        return [_axis_value(q, scope, spec) for q in axis.values]
    if axis.range is not None and axis.range.low is not None and axis.range.high is not None:
        return list(range(axis.range.low, axis.range.high + 1))
    return []


def read_as_values(axis, scope, formula: Formula | None = None) -> list[tuple[str, object]]:
    """The words of an axis read as the ruleset's values, each with what it computed: what an error about a cell
    says, so that `hearts` read as a value of 13 is not left a puzzle (`suit=13`)."""
    if not axis.values or scope is None:
        return []
    spec = _inputs_of(formula).get(axis.input)
    choices = spec.choices if spec is not None and spec.type == "text" else ()
    found = []
    for written in axis.values:
        word = plain(written)
        expression = _names_in(word, scope) if isinstance(word, str) and word not in choices else None
        if expression is not None:
            found.append((word, expression.evaluate(scope)))
    return found


_SHOWN_AS = {"target": "target", "chance": "chance", "bool": "chance"}  # a result of any other kind: `number`


def chart_show(chart: Chart, formula: Formula) -> str:
    """How a chart's cells print its formula's result (``formula``: ``chart_formula``'s): as the chart says, else as
    that result is, so a chart of plain numbers never prints them as rolls to make."""
    return chart.show or _SHOWN_AS.get(formula.result, "number")


def chart_formula(ruleset: Ruleset, chart: Chart) -> Formula:
    """The formula of one result whose values a chart's cells show (the chart's owner's: charts are checked first)."""
    formula = ruleset.formula(chart.formula)
    return formula.view(chart.result) if chart.result else formula
