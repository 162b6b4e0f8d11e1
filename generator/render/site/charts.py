"""Charts readable on a phone: a small "your value / their value" picker above each grid.

The grid stays (in its own scroll box); the picker shows the one cell a player needs: pick
the row's value and the column's, read the target and the odds. Its data is the chart's own
cells, embedded in the page as escaped JSON (a ``<script type="application/json">``, never
run); static/rulepress-charts.js reads it. Nothing is fetched. Without JavaScript the picker
shows the first pair, and the grid below holds every pair. The picker's MyST is ``markdown.picker_md``'s.

A grid read across is read by its rows as well as its columns: each row's label heads it (``<th scope="row">``),
so a screen reader moving along a row says which row it is in, as it says the column. So do the first cells of
the cheat-sheet pages' tables (a roll's row by its roll, a chart's by its value, a task by its name). Every
table's column heads say they head columns (``scope="col"``).
"""

from __future__ import annotations

from html import escape

from docutils import nodes
from sphinx.transforms import SphinxTransform

from .calculator import why_html
from .embedded import JsonDirective, add_html_node, picker_field, picker_form
from .myst import CHART_GRID


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


SHEET_PAGES = "sheets/"  # the cheat sheets' pages (site.pages: `sheets/<name>.md`)


class RowHeadings(SphinxTransform):
    """A chart's grid (the class ``CHART_GRID``, wherever the site prints one) and every table of a cheat-sheet
    page have their first column as stub: its cells are the rows' headings (``visit_entry`` writes their scope)."""

    default_priority = 800

    def apply(self, **kwargs) -> None:
        sheet = self.env.docname.startswith(SHEET_PAGES)
        for table in self.document.findall(nodes.table):
            if not (sheet or CHART_GRID in table["classes"]):
                continue
            for group in table.findall(nodes.tgroup):
                columns = [child for child in group.children if isinstance(child, nodes.colspec)]
                if columns:
                    columns[0]["stub"] = 1


def visit_entry(self, node: nodes.entry) -> None:
    """docutils' cell, a heading cell saying what it heads: ``scope="col"`` in the table's head, ``scope="row"``
    in a stub column (docutils writes both as ``<th>``, without a scope)."""
    type(self).visit_entry(self, node)
    if self.body[-1].startswith("<th"):
        scope = "col" if isinstance(node.parent.parent, nodes.thead) else "row"
        self.body[-1] = f'<th scope="{scope}"' + self.body[-1][len("<th") :]


def depart_entry(self, node: nodes.entry) -> None:
    type(self).depart_entry(self, node)


def setup_charts(app) -> None:
    add_html_node(app, chart_picker, visit_picker)
    app.add_node(nodes.entry, override=True, html=(visit_entry, depart_entry))
    app.add_transform(RowHeadings)
    app.add_directive("chart-picker", ChartPicker, override=True)
    app.add_js_file("rulepress-charts.js")
