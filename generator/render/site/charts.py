"""Charts readable on a phone: a small "your value / their value" picker above each grid.

The grid stays (in its own scroll box); the picker shows the one cell a player needs: pick
the row's value and the column's, read the target and the odds. Its data is the chart's own
cells, embedded in the page as escaped JSON (a ``<script type="application/json">``, never
run); static/rulepress-charts.js reads it. Nothing is fetched. Without JavaScript the picker
shows the first pair, and the grid below holds every pair. The picker's MyST is ``markdown.picker_md``'s.
"""

from __future__ import annotations

from html import escape

from docutils import nodes

from .calculator import why_html
from .embedded import JsonDirective, add_html_node, picker_field, picker_form


class chart_picker(nodes.General, nodes.Element):
    """The picker: its data in node["data"]; written as HTML by visit_picker, skipped by other writers."""


def _result_html(cell: list[str], units: list[str]) -> str:
    target, odds = cell
    if units and target[-1:].isdigit():  # a number the formula gives a unit to says it: `0.83 hits`, `1 hit`
        target = f"{target} {units[0] if target == '1' else units[1]}"
    return f'<strong class="chart-picker-target">{escape(target)}</strong>' + (
        f' <span class="chart-picker-odds">{escape(odds)}</span>' if odds else ""
    )


def visit_picker(self, node: chart_picker) -> None:
    data = node["data"]
    number = node["number"]

    def select(name: str, head: str, labels: list[str]) -> str:
        return picker_field("chart-picker-field", f"chart-picker-{number}-{name}", name, head, labels)

    fields = select("row", data["row_head"], data["rows"]) + select("column", data["column_head"], data["columns"])
    answer = _result_html(data["cells"][0][0], data.get("units", [])) + (why_html(data, 0) if "why" in data else "")
    self.body.append(
        picker_form(
            "chart-picker", "Look up one pair", fields, "chart-picker-result", answer, "chart-picker-data", data
        )
    )
    raise nodes.SkipNode


class ChartPicker(JsonDirective):
    """```{chart-picker}``` with the picker's JSON data (written by ``markdown.picker_md``) as its content."""

    what = "a chart picker's data"

    def check(self, data: dict) -> None:
        assert data["rows"] and data["columns"] and len(data["cells"]) == len(data["rows"])
        assert "why" not in data or len(data["why"]) == len(data["rows"]) * len(data["columns"])

    def node(self, data: dict) -> nodes.Node:
        return chart_picker("", data=data, number=self.env.new_serialno("chart-picker"))


def setup_charts(app) -> None:
    add_html_node(app, chart_picker, visit_picker)
    app.add_directive("chart-picker", ChartPicker, override=True)
    app.add_js_file("rulepress-charts.js")
