"""Cheat sheets as MyST Markdown pages for the rules website.

Text from data is escaped; author prose (phase summaries, table notes) keeps its
Markdown, with cross-reference roles reduced to their text so a page stands on its
own. Gaps use the site's ``{gap}`` role and sources its ``{source}`` role.
"""

from __future__ import annotations

from ..prose import _ROLE, role_as_text  # the same role-to-text reading as the print templates
from ..worked import for_readers, house_hidden
from .charts import Cell, Chart
from ..present import NOT_GIVEN_TEXT
from .quickref import GAP, QuickReference
from .victory import VpChecklist
from ..site.charts import picker_md
from ..site.myst import esc, gap, pipe_table, role_text  # the site's own Markdown writers

GAP_TEXT = "not given"


_RULESET = None  # the ruleset whose sheet is being written: {value} roles print its values


def prose_md(text: str, inline: bool = False) -> str:
    """Author prose with roles as plain text; ``inline`` puts it on one line, safe in a table cell."""
    text = _ROLE.sub(lambda m: esc(role_as_text(m, _RULESET)), text or "")
    text = for_readers(text, "" if inline else " {checked}`✓`", house=getattr(_RULESET, "house_results", ()),
                       escape=esc, hidden=house_hidden(_RULESET)).strip()  # a worked example is its sentence
    return " ".join(text.split()).replace("|", "\\|") if inline else text


def cell_md(cell: Cell) -> str:
    """`4+ (50%)`, bold when the odds are good; an impossible cell is its word alone, in italics."""
    if cell.tone == "none":
        return f"*{esc(cell.text or cell.chance)}*"
    if cell.text and cell.chance:
        text = f"{esc(cell.text)} ({esc(cell.chance)})"
    else:
        text = esc(cell.text or cell.chance)
    return f"**{text}**" if cell.tone == "good" else text


def chart_md(chart: Chart, level: int = 2) -> str:
    corner = " / ".join(part for part in (f"{chart.row_head} ↓" if chart.row_head else "",
                                          f"{chart.column_head} →" if chart.column_head else "") if part)
    notes = chart.column_notes or ("",) * len(chart.columns)
    header = [esc(corner)] + [esc(f"{c} ({n})" if n else c) for c, n in zip(chart.columns, notes)]
    rows = [[f"**{esc(row.label)}**"] + [cell_md(c) for c in row.cells] for row in chart.rows]
    parts = [f"{'#' * level} {esc(chart.title)}"] if chart.title else []
    parts.append(picker_md(chart))  # the phone's way in: pick the two values, read the target and odds
    parts.append(pipe_table(header, rows))
    parts += [prose_md(note) for note in chart.notes]
    return "\n\n".join(p for p in parts if p)


def value_md(value: str | None, plain: bool = False) -> str:
    """A value, or the gap mark (plain in a column whose header says the source gives none of it)."""
    return gap(GAP_TEXT, plain=plain) if value is GAP else esc(value)


def quickref_md(ref: QuickReference) -> str:
    parts = []
    if ref.needs:
        parts.append("**You need:** " + "; ".join(esc(n) for n in ref.needs))
    if ref.sequences:
        parts.append("## Turn sequence")
        for sequence in ref.sequences:
            if len(ref.sequences) > 1:
                parts.append(f"### {esc(sequence.name.capitalize())}")
            parts.append("\n".join(("- " if sequence.self_numbered else f"{n}. ") + f"**{esc(p.title)}**"
                                   + (f": {prose_md(p.summary, inline=True)}" if p.summary else "")
                                   for n, p in enumerate(sequence.phases, 1)))
    if ref.tables:
        parts.append("## Roll tables")
        for table in ref.tables:
            parts.append(f"### {esc(table.title)} ({esc(table.dice)})")
            nowhere = {part: bool(table.lines) and all(getattr(line, part) is GAP for line in table.lines)
                       for part in ("roll", "chance")}
            head = {part: f"{label} ({NOT_GIVEN_TEXT})" if nowhere[part] else label
                    for part, label in (("roll", "Roll"), ("chance", "Chance"))}
            parts.append(pipe_table([esc(head["roll"]), "Result", esc(head["chance"])], [
                [value_md(line.roll, nowhere["roll"]), esc(line.result) + (f" — {esc(line.detail)}" if line.detail else ""),
                 value_md(line.chance, nowhere["chance"])] for line in table.lines]))
            if table.note:
                parts.append(prose_md(table.note))
            parts.append(f"{{source}}`{role_text(table.source)}`")
    for matrix in ref.matrices:
        parts.append(f"## {esc(matrix.title)}")
        parts.append(pipe_table(["Troop type"] + [esc(c) for c in matrix.columns],
                                [[esc(name)] + [value_md(v) for v in values] for name, values in matrix.rows]))
        if matrix.note:
            parts.append(prose_md(matrix.note))
    for group in ref.keys:
        parts.append(f"## {esc(group.title)}")
        if group.lines:
            parts.append("\n".join(
                f"- **{esc(line.label)}**" + (f": {value_md(line.value)}" if line.value != "" else "")
                + (f" — {prose_md(line.detail, inline=True)}" if line.detail else "") for line in group.lines))
        parts += [chart_md(chart, level=3) for chart in group.charts]
        if group.source:
            parts.append(f"{{source}}`{role_text(group.source)}`")
    return "\n\n".join(parts)


def checklist_md(checklist: VpChecklist, hidden_task: str) -> str:
    parts = []
    for group in checklist.groups:
        rows, hidden_shown = [], False
        for line in group.lines:
            if not line.name:
                continue  # write-in lines are for paper
            if line.name == hidden_task and checklist.audience == "player":
                if hidden_shown:
                    continue
                hidden_shown = True
                rows.append([esc(hidden_task), gap(GAP_TEXT), esc("The Game Master tells you when you complete one.")])
                continue
            name = esc(line.name) + (" *(hidden)*" if line.hidden else "")
            rows.append([name, gap(GAP_TEXT) if line.points is None else esc(line.points_shown), prose_md(line.condition, inline=True)])
        if rows:
            parts += [f"## {esc(group.title)}", pipe_table(["What", "Points", "When it scores"], rows)]
    return "\n\n".join(parts)


def sheet_markdown(sheet, computed_by: str, ruleset=None) -> str:
    """The page for one sheet: title, its charts or lists, its sources."""
    global _RULESET
    _RULESET = ruleset
    try:
        return _sheet_markdown(sheet, computed_by)
    finally:
        _RULESET = None


def _sheet_markdown(sheet, computed_by: str) -> str:
    parts = [f"# {esc(sheet.heading)}"]
    if sheet.subtitle and not sheet.page_title:
        parts.append(f"*{esc(sheet.subtitle)}*")
    context = sheet.context
    if "charts" in context:
        parts += [chart_md(chart) for chart in context["charts"]]
        parts += [prose_md(extra) for extra in context.get("extras", ())]
    if "ref" in context:
        parts.append(quickref_md(context["ref"]))
    if "checklist" in context:
        parts.append(checklist_md(context["checklist"], context["hidden_task"]))
    parts.append(f"{{source}}`{role_text('; '.join(sheet.sources))}`")
    parts.append(esc(computed_by))
    return "\n\n".join(parts).rstrip() + "\n"
