"""Roll tables on a ``sheets:`` entry: each row with its roll and chance, as the quick reference prints them, in type
as large as the page takes.

A sheet sets its roll tables in two balanced columns (one for a single table, or where one column takes larger type)
and plans their size from the room each table takes at a size, worked out on paper before any layout, the way the
quick reference plans its own (``jobs.quickref_type``): the largest size at which the tables' columns fit the page
(under the sheet's charts, at their rows' least heights, where it has charts), between ``MIN_PT`` and ``MAX_PT``.
One layout at that size, and one at ``MIN_PT`` where it overflows: the sheet is told too long for its page only at
the smallest size. Nothing here knows HTML (templates/sheets/charts.html.j2 and print-base.css's `.roll-tables` lay
it out) nor any game.
"""

from __future__ import annotations

from ...model.ruleset import Ruleset
from .quickref import QuickTable, quick_table

MIN_PT, MAX_PT = 8.0, 20.0  # a sheet of a few tables is read across the table: far larger than the quick reference
UNDER_CHARTS_MAX_PT = 11.0  # under charts, no larger than their numbers: the charts are what the sheet is for
MM_PER_PT = 25.4 / 72
LINE = 1.2  # line height (em), print-base.css `.sheet.tables`
CHARACTER = 0.58  # the width of an average character of DejaVu Sans (em), a little more
MARGINS_MM = (12 + 13.5, 12 + 12)  # print-base.css @page: top and foot, left and right
HEAD_MM = 16  # the sheet's title, subtitle and rule under them
FOOT_MM = 13  # its sources, how its chances were found, the rule above them
NOTE_MM = 4.5  # a line of its notes (8 pt), and the box around them
GAP_MM = 5  # between the two columns
FULL = 0.93  # of the room the estimate may take: the estimate is of text whose widths it guesses


def sheet_tables(ruleset: Ruleset, ids) -> tuple[QuickTable, ...]:
    """The roll tables a sheet lists, each printed as its quick reference line by line (a base's cited by it)."""
    return tuple(quick_table(ruleset.table(id), ruleset.owner_of("tables", id)) for id in ids)


def charts_height_mm(charts, row_mm: float) -> float:
    """The height the charts above the tables take with rows ``row_mm`` tall (their least), and their legend."""
    if not charts:
        return 0
    return LEGEND_MM + sum(
        CHART_HEAD_MM
        + (COLUMN_NOTE_MM if chart.column_notes else 0)
        + len(chart.rows) * row_mm
        + NOTE_MM * len(chart.notes)
        for chart in charts
    )


CHART_HEAD_MM, COLUMN_NOTE_MM, LEGEND_MM = 14, 4, 9  # a chart's caption and head row; a second head line; the legend


def columns(tables, notes: int = 0, taken_mm: float = 0) -> int:
    """One column or two: two where there are two tables or more, unless one column sets them in larger type (a few
    short tables, one under another, rather than side by side in a strip across the head of the page); on A4."""
    if len(tables) < 2:
        return 1
    one, two = (planned_pt(tables, 595, 842, notes, count, taken_mm) for count in (1, 2))
    return 1 if one >= two else 2


def _lines(text: str, width_mm: float, em_mm: float) -> int:
    words = " ".join(str(text).split())
    return max(1, -(-int(len(words) * CHARACTER * em_mm * 10) // max(1, int(width_mm * 10)))) if words else 0


def table_height_mm(table: QuickTable, size_pt: float, width_mm: float) -> float:
    """The height a table takes in a column ``width_mm`` wide at a body size: caption, head, rows, note, source."""
    em = size_pt * MM_PER_PT
    roll = max((len(line.roll or "") for line in table.lines), default=2) * CHARACTER * em + 1.8
    chance = 4.2 * em + 1.8
    result = max(width_mm - roll - chance, 10)
    rows = sum(
        max(1, _lines(f"{line.result} {line.detail}", result, em)) * LINE * em
        + _lines(line.effect, result, em) * LINE * em
        + 1.2
        for line in table.lines
    )
    note = _lines(table.note, width_mm, em) * LINE * em
    cite = LINE * em if table.source else 0
    return 1.25 * LINE * em + (LINE * em + 1.2) + rows + note + cite + 1.0 * em


def column_height_mm(heights: list[float], count: int) -> float:
    """How tall the columns are where blocks of these heights, kept whole and in order, are balanced in ``count``."""
    if count == 1 or len(heights) < 2:
        return sum(heights)
    return min(max(sum(heights[:split]), sum(heights[split:])) for split in range(1, len(heights)))


def planned_pt(
    tables, width_pt: float, height_pt: float, notes: int = 0, count: int | None = None, taken_mm: float = 0
) -> float:
    """The body size at which the tables fill a page of this paper in ``count`` columns (by default as many as
    `columns` says) under ``taken_mm`` of charts, from MAX_PT down by tenths to MIN_PT."""
    count = count or columns(tables, notes, taken_mm)
    width = (width_pt * MM_PER_PT - MARGINS_MM[1] - GAP_MM * (count - 1)) / count
    page = height_pt * MM_PER_PT - MARGINS_MM[0] - HEAD_MM - FOOT_MM - taken_mm
    room = (page - (notes * NOTE_MM + 4 if notes else 0)) * FULL
    size = MAX_PT if not taken_mm else UNDER_CHARTS_MAX_PT
    while size > MIN_PT:
        heights = [table_height_mm(table, size, width) for table in tables]
        if column_height_mm(heights, count) <= room:
            return round(size, 1)
        size = round(size - 0.1, 1)
    return MIN_PT
