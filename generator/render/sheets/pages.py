"""Cheat sheets as MyST Markdown pages for the rules website.

Text from data is escaped; author prose (phase summaries, table notes) keeps its
Markdown, with cross-reference roles reduced to their text so a page stands on its
own. Gaps use the site's ``{gap}`` role and sources its ``{source}`` role.
"""

from __future__ import annotations

from ..markdown import chart_md, esc, gap, pipe_table, prose_md, role_text  # shared with the site's pages
from ..present import NOT_GIVEN_TEXT
from .quickref import GAP, QuickReference
from .victory import VpChecklist

GAP_TEXT = "not given"


def value_md(value: str | None) -> str:
    """A value, or the gap mark."""
    return gap(GAP_TEXT) if value is GAP else esc(value)


def quickref_md(ref: QuickReference, ruleset=None) -> str:
    parts = []
    if ref.needs:
        parts.append("**You need:** " + "; ".join(esc(n) for n in ref.needs))
    if ref.sequences:
        parts.append("## Turn sequence")
        for sequence in ref.sequences:
            if len(ref.sequences) > 1:
                parts.append(f"### {esc(sequence.name.capitalize())}")
            parts.append(
                "\n".join(
                    ("- " if sequence.self_numbered else f"{n}. ")
                    + f"**{esc(p.title)}**"
                    + (f": {prose_md(p.summary, ruleset, inline=True)}" if p.summary else "")
                    for n, p in enumerate(sequence.phases, 1)
                )
            )
    if ref.tables:
        parts.append("## Roll tables")
        for table in ref.tables:
            parts.append(f"### {esc(table.title)} ({esc(table.dice)})")
            nowhere = {
                part: bool(table.lines) and all(getattr(line, part) is GAP for line in table.lines)
                for part in ("roll", "chance")
            }
            head = {
                part: f"{label} ({NOT_GIVEN_TEXT})" if nowhere[part] else label
                for part, label in (("roll", "Roll"), ("chance", "Chance"))
            }
            parts.append(
                pipe_table(
                    [esc(head["roll"]), "Result", esc(head["chance"])],
                    [
                        [
                            value_md(line.roll),
                            esc(line.result) + (f" — {esc(line.detail)}" if line.detail else ""),
                            value_md(line.chance),
                        ]
                        for line in table.lines
                    ],
                )
            )
            if table.note:
                parts.append(prose_md(table.note, ruleset))
            parts.append(f"{{source}}`{role_text(table.source)}`")
    for matrix in ref.matrices:
        parts.append(f"## {esc(matrix.title)}")
        parts.append(
            pipe_table(
                ["Troop type"] + [esc(c) for c in matrix.columns],
                [[esc(name)] + [value_md(v) for v in values] for name, values in matrix.rows],
            )
        )
        if matrix.note:
            parts.append(prose_md(matrix.note, ruleset))
    for group in ref.keys:
        parts.append(f"## {esc(group.title)}")
        if group.lines:
            parts.append(
                "\n".join(
                    f"- **{esc(line.label)}**"
                    + (f": {value_md(line.value)}" if line.value != "" else "")
                    + (f" — {prose_md(line.detail, ruleset, inline=True)}" if line.detail else "")
                    for line in group.lines
                )
            )
        parts += [chart_md(chart, level=3, ruleset=ruleset) for chart in group.charts]
        if group.source:
            parts.append(f"{{source}}`{role_text(group.source)}`")
    return "\n\n".join(parts)


def checklist_md(checklist: VpChecklist, hidden_task: str, ruleset=None) -> str:
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
            rows.append(
                [
                    name,
                    gap(GAP_TEXT) if line.points is None else esc(line.points_shown),
                    prose_md(line.condition, ruleset, inline=True),
                ]
            )
        if rows:
            parts += [f"## {esc(group.title)}", pipe_table(["What", "Points", "When it scores"], rows)]
    return "\n\n".join(parts)


def sheet_markdown(sheet, computed_by: str, ruleset=None) -> str:
    """The page for one sheet: title, its charts or lists, its sources; a `{value}` role prints ``ruleset``'s value."""
    parts = [f"# {esc(sheet.heading)}"]
    if sheet.subtitle and not sheet.page_title:
        parts.append(f"*{esc(sheet.subtitle)}*")
    context = sheet.context
    if "charts" in context:
        parts += [chart_md(chart, ruleset=ruleset) for chart in context["charts"]]
        parts += [prose_md(extra, ruleset) for extra in context.get("extras", ())]
    if "ref" in context:
        parts.append(quickref_md(context["ref"], ruleset))
    if "checklist" in context:
        parts.append(checklist_md(context["checklist"], context["hidden_task"], ruleset))
    parts.append(f"{{source}}`{role_text('; '.join(sheet.sources))}`")
    if computed_by:
        parts.append(esc(computed_by))
    return "\n\n".join(parts).rstrip() + "\n"
