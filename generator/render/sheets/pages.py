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
    """The quick reference as a page: the blocks the printed sheet has (``QuickReference.blocks``), in its order."""
    parts = ["**You need:** " + "; ".join(esc(n) for n in ref.needs)] if ref.needs else []
    writers = {"sequence": _sequence_md, "rules": _rules_md, "table": _table_md, "matrix": _matrix_md, "keys": _keys_md}
    previous = ""
    for kind, block in ref.blocks:
        if kind == "sequence" and block is ref.sequences[0]:
            parts.append("## Turn sequence")
        if kind == "table" and previous not in ("rules", "table"):  # a table under no chapter of its own
            parts.append("## Roll tables")
        parts += writers[kind](block, ref, ruleset)
        previous = kind
    return "\n\n".join(parts)


def _sequence_md(sequence, ref: QuickReference, ruleset) -> list[str]:
    heading = [f"### {esc(sequence.name.capitalize())}"] if len(ref.sequences) > 1 else []
    return heading + [
        "\n".join(
            ("- " if sequence.self_numbered else f"{n}. ")
            + f"**{esc(p.title)}**"
            + (f": {prose_md(p.summary, ruleset, inline=True)}" if p.summary else "")
            for n, p in enumerate(sequence.phases, 1)
        )
    ]


def _rules_md(group, ref: QuickReference, ruleset) -> list[str]:
    """A chapter's rules marked for the sheet, each with the summary written for it."""
    lines = [
        f"- **{esc(rule.title)}**" + (f": {prose_md(rule.text, ruleset, inline=True)}" if rule.text else "")
        for rule in group.rules
    ]
    return [f"## {esc(group.title)}", "\n".join(lines)] + (
        [f"{{source}}`{role_text(group.source)}`"] if group.source else []
    )


def _table_md(table, ref: QuickReference | None, ruleset, level: int = 3) -> list[str]:
    """A roll table with each row's roll and chance, as the printed sheet has it (a quick reference, a sheet)."""
    parts = [f"{'#' * level} {esc(table.title)} ({esc(table.dice)})"]
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
    return parts + ([f"{{source}}`{role_text(table.source)}`"] if table.source else [])


def _matrix_md(matrix, ref: QuickReference, ruleset) -> list[str]:
    parts = [
        f"## {esc(matrix.title)}",
        pipe_table(
            [esc(matrix.row_label)] + [esc(c) for c in matrix.columns],
            [[esc(name)] + [value_md(v) for v in values] for name, values in matrix.rows],
        ),
    ]
    return parts + ([prose_md(matrix.note, ruleset)] if matrix.note else [])


def _keys_md(group, ref: QuickReference, ruleset) -> list[str]:
    parts = [f"## {esc(group.title)}"]
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
    return parts + ([f"{{source}}`{role_text(group.source)}`"] if group.source else [])


def checklist_md(checklist: VpChecklist, hidden_task: str, ruleset) -> str:
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
                rows.append(
                    [
                        esc(hidden_task),
                        gap(GAP_TEXT),
                        esc(f"The {ruleset.game_master()} tells you when you complete one."),
                    ]
                )
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
        parts += [part for table in context.get("tables", ()) for part in _table_md(table, None, ruleset, level=2)]
        parts += [prose_md(extra, ruleset) for extra in context.get("extras", ())]
    if "ref" in context:
        parts.append(quickref_md(context["ref"], ruleset))
    if "checklist" in context:
        parts.append(checklist_md(context["checklist"], context["hidden_task"], ruleset))
    if sheet.sources:
        parts.append(f"{{source}}`{role_text('; '.join(sheet.sources))}`")
    if computed_by:
        parts.append(esc(computed_by))
    return "\n\n".join(parts).rstrip() + "\n"
