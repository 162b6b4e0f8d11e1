"""Markdown writers the site's pages and the cheat sheets' pages share: escaping, roles, tables, charts.

Plain text from data is escaped, so it can never become markup or HTML; author prose keeps its Markdown,
with cross-reference roles reduced to their text (``prose_md``).
"""

from __future__ import annotations

import json
import re

from ..model.ruleset import GAME_MASTER
from .present import GAP_DASH, NOT_GIVEN_TEXT, one_of
from .prose import _ROLE, role_as_text  # the same role-to-text reading as the print templates
from .sheets.charts import Cell, Chart, tone_words
from .worked import for_readers, house_hidden

_CHECKED_MARK = "\ue002"  # where a checked sentence's mark goes once roles are printed (a role itself)
_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~&$:^])")


def esc(text) -> str:
    """Escape plain text for Markdown: every punctuation mark that could start markup."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def role_text(text) -> str:
    """Text inside a role: roles make plain text nodes of it, so only backticks need care."""
    return " ".join(str(text).split()).replace("`", "'")


def gap(text: str = NOT_GIVEN_TEXT) -> str:
    """The gap mark (site: an em dash with a note mark, see site.gap_node)."""
    return f"{{gap}}`{role_text(text) or NOT_GIVEN_TEXT}`"


def pipe_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c.replace("\n", " ") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def picker_data(chart, reasons: dict | None = None) -> dict:
    """A chart (sheets.charts.Chart) as the picker's data: labels and each cell's target and odds, and with
    ``reasons`` (``why.chart_reasons``) why each cell is what it is."""

    def shown(cell) -> list[str]:  # an impossible cell is its word alone ("no effect"), as in the grid
        return [cell.text or cell.chance or GAP_DASH, cell.chance if cell.text and cell.tone != "none" else ""]

    return {
        "row_head": chart.row_head or "Row",
        "column_head": chart.column_head or "Column",
        "rows": [row.label for row in chart.rows],
        "columns": [
            f"{c}: {n}" if n else c for c, n in zip(chart.columns, chart.column_notes or ("",) * len(chart.columns))
        ],
        "cells": [[shown(cell) for cell in row.cells] for row in chart.rows],
        "units": [one_of(chart.unit), chart.unit] if chart.unit else [],  # for exactly 1, and for any other number
    } | (reasons or {})


def picker_md(chart, reasons: dict | None = None) -> str:
    """MyST for the picker of a two-way chart (one with row labels); empty for a single row."""
    if not chart.row_head or len(chart.rows) < 2:
        return ""
    data = json.dumps(picker_data(chart, reasons), ensure_ascii=False)
    return f"````{{chart-picker}}\n{data}\n````"


def prose_md(text: str, ruleset=None, inline: bool = False) -> str:
    """Author prose with roles as plain text (a `{value}` role prints ``ruleset``'s value); ``inline`` puts it on
    one line, safe in a table cell."""
    # the sentences are read with their roles unprinted, as check reads them: a house value's printed original
    # (`4 hexes (house rule; the text: 3 hexes)`) is no number a sentence states
    text = for_readers(
        text or "",
        "" if inline else _CHECKED_MARK,
        house=getattr(ruleset, "house_results", ()),
        escape=esc,
        hidden=house_hidden(ruleset),
        language=getattr(ruleset, "language", "en"),
        game_master=ruleset.game_master() if ruleset is not None else GAME_MASTER,
    )
    text = _ROLE.sub(lambda m: esc(role_as_text(m, ruleset)), text).replace(_CHECKED_MARK, " {checked}`✓`")
    text = text.strip()  # a worked example is its sentence
    return " ".join(text.split()).replace("|", "\\|") if inline else text


def cell_md(cell: Cell) -> str:
    """`4+ (50%)`, bold when the odds are good; an impossible cell is its word alone, in italics."""
    if cell.tone == "none":
        return emphasis(esc(cell.text or cell.chance), "*")
    if cell.text and cell.chance:
        text = f"{esc(cell.text)} ({esc(cell.chance)})"
    else:
        text = esc(cell.text or cell.chance)
    return emphasis(text, "**") if cell.tone == "good" else text


def tone_key_md(chart: Chart) -> str:
    """What a chart's bold cells mean, under a chart that has any (the printed sheet's legend says it on paper, in the
    same words: 2 in 3 or better, or 1 in 3 or less where the chart's lower chances are the better)."""
    if not any(cell.tone == "good" and (cell.text or cell.chance) for row in chart.rows for cell in row.cells):
        return ""
    return f"**Bold**: a chance of {esc(tone_words('good', (chart.better,)))}."


def emphasis(text: str, mark: str) -> str:
    """``text`` between ``mark``s (``**`` bold, ``*`` italics); nothing for no text: ``****`` would print as is."""
    return f"{mark}{text}{mark}" if text else ""


def chart_md(chart: Chart, level: int = 2, ruleset=None, reasons: dict | None = None) -> str:
    corner = " / ".join(
        part
        for part in (
            f"{chart.row_head} ↓" if chart.row_head else "",
            f"{chart.column_head} →" if chart.column_head else "",
        )
        if part
    )
    notes = chart.column_notes or ("",) * len(chart.columns)
    header = [esc(corner)] + [esc(f"{c} ({n})" if n else c) for c, n in zip(chart.columns, notes)]
    rows = [[emphasis(esc(row.label), "**")] + [cell_md(c) for c in row.cells] for row in chart.rows]
    parts = [f"{'#' * level} {esc(chart.title)}"] if chart.title else []
    parts.append(picker_md(chart, reasons))  # the phone's way in: pick the two values, read the target and odds
    parts.append(pipe_table(header, rows))
    parts.append(tone_key_md(chart))
    parts += [prose_md(note, ruleset) for note in chart.notes]
    return "\n\n".join(p for p in parts if p)
