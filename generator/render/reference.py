"""The authors' reference, generated from the schema and the diagnostic enum.

Nothing here is written twice: field names, types, defaults and help texts come
from the model's dataclasses; codes and what they catch from ``Code``.
"""

from __future__ import annotations

import dataclasses
import re
import types
from typing import Annotated, Literal, Union, get_args, get_origin

from ..diagnostics import Code
from ..examples.names import names_in as examples_names_in
from ..examples.run import listed_names
from ..model.base import QUICK_REFERENCE_FORMS, Bounds, Markdown, NotGiven, QuickMark, Source
from ..model.computed import Axis, Binding, Input, LookupRow, Outcome, Setting
from ..model.dice import DiceExpr, RollRange
from ..model.entries import (
    ArmyUnit,
    Column,
    Declares,
    Entry,
    KindHeading,
    Meta,
    PageTitle,
    ProfileRow,
    TableRow,
    Track,
    VictoryPointSheet,
)
from ..model.formula import Expression
from ..model.points import Points
from ..model.quantity import Quantity
from ..model.ruleset import SECTIONS
from ..model.settings import Settings, SiteSettings
from ..source.build import is_required, schema_fields
from .present import SEES_EVERYTHING, gm_only
from .prose import value_text


def type_name(tp) -> str:
    origin = get_origin(tp)
    if origin is Annotated:
        base, *marks = get_args(tp)
        bounds = [str(m) for m in marks if isinstance(m, Bounds)]
        return type_name(base) + (f" ({', '.join(bounds)})" if bounds else "")
    if origin in (Union, types.UnionType):
        parts = [type_name(a) for a in get_args(tp) if a is not type(None)]
        return " or ".join(parts)
    if origin is Literal:
        return " / ".join(f"`{a}`" for a in get_args(tp))
    if origin is tuple:
        item = get_args(tp)[0]
        if isinstance(item, type) and issubclass(item, Entry):  # written under their ids, never as a YAML list
            return f"mapping of {item.KEY} → {type_name(item)}"
        return f"list of {type_name(item)}"
    names = {
        str: "text",
        Markdown: "Markdown",
        int: "whole number",
        bool: "true/false",
        DiceExpr: "dice expression",
        RollRange: "roll (5, 1-2, 6+, 1-)",
        NotGiven: "`not given`",
        Source: "source citation",
        Points: "points (3, 1½, 1 1/2, 3/2 or 1.5)",
        Quantity: 'quantity (`2`, `1½`, `6"`, `3 hexes`, `4+`, `2D6`, `2 minutes`)',
        Expression: "expression (text: `strength - toughness`)",
        Axis: "chart axis (below)",
        Setting: "value (the input held at it)",
        QuickMark: "`{summary:, title:}` (quick reference mark, below)",
    }
    if tp in names:
        return names[tp]
    if dataclasses.is_dataclass(tp):
        return tp.__name__
    return getattr(tp, "__name__", str(tp))


def _default(f: dataclasses.Field) -> str:
    if is_required(f):
        return "**required**"
    value = f.default if f.default is not dataclasses.MISSING else f.default_factory()
    if value in ("", (), None):
        return "optional"
    if isinstance(value, tuple):  # as the YAML would write it
        return f"default `[{', '.join(map(str, value))}]`"
    return f"default `{value}`"


def _one_of(cls, key: str) -> str | None:
    """`**at least one of** `this`, `other`` for fields of which an entry needs at least one (as loaded, or as
    checked: ``one_of_checked``)."""
    for group in (*getattr(cls, "one_of", ()), *getattr(cls, "one_of_checked", ())):
        if key in group:
            return "**at least one of** " + ", ".join(f"`{k}`" for k in group)
    return None


def fields_table(cls) -> str:
    lines = ["| field | type | | meaning | example |", "|---|---|---|---|---|"]
    for key, f, tp in schema_fields(cls):
        example = f.metadata.get("example") or ""
        default = _one_of(cls, key) or _default(f)
        lines.append(
            f"| `{key}` | {type_name(tp)} | {default} | {f.metadata.get('help', '')} | "
            f"{('`' + example + '`') if example else ''} |"
        )
    return "\n".join(lines)


PARTS = {
    "Lists a ruleset declares (`ruleset: declares:`)": Declares,
    "Title of a section's page (`declares: page_titles:`)": PageTitle,
    "Words of the victory-point sheet (`declares: victory_point_sheet:`)": VictoryPointSheet,
    "Heading of a kind on that sheet (`victory_point_sheet: kinds:`)": KindHeading,
    "Input of a formula (`inputs:`)": Input,
    "Named step of a formula (`let:`)": Binding,
    "One of several results of a formula (`results:`)": Outcome,
    "Chart axis (`rows:`, `columns:`)": Axis,
    "Row of a lookup (`rows:`)": LookupRow,
    "Row of a roll table (`rows:`)": TableRow,
    "Column of a profile matrix (`columns:`)": Column,
    "Row of a profile matrix (`rows:`)": ProfileRow,
    "What units track in play (`tracks:`)": Track,
    "Quick reference mark (`quick_reference:`)": QuickMark,
    "Line of an army list (`units:`)": ArmyUnit,
    "Source citation (`source:`)": Source,
}


_RST_CODE = re.compile(r"``(.+?)``(?!`)")


def doc(cls) -> str:
    """A class docstring as one Markdown paragraph: reST ``code`` becomes Markdown code, backticks inside kept."""
    text = " ".join((cls.__doc__ or "").split())
    return _RST_CODE.sub(lambda m: f"`` {m[1]} ``" if "`" in m[1] else f"`{m[1]}`", text)


QUICK_MARK_DOC = (
    "What goes on a ruleset's one-page quick reference is the author's choice, written on each entry as "
    f"`quick_reference:`: {QUICK_REFERENCE_FORMS}. `true` prints the entry whole (a rule's body without its "
    "worked examples, a spell's range, duration and effect); `false` leaves it off; a mapping prints `summary:` "
    "instead of the full text and `title:` instead of the heading. Phases, roll tables, profile matrices, spells, "
    "points costs, heroes, items and army limits are printed unless `false`; rules, values, lookups and charts only "
    "when marked. Marked rules follow the turn sequence chapter by chapter. The sheet is one page in A4 and US Letter "
    "with type of 8 pt or more, sized from the length of what is marked: mark the procedures a player needs at the "
    "table (turn sequence, the rolls and their tables, the key values) and take lists that crowd off with `false`. "
    "Checks: `quickref-too-long` (a text or summary over the limit), `quickref-gm` (a game-master entry marked).\n\n"
    '```yaml\nrules:\n  hitting:\n    quick_reference: {summary: "Roll a D6 per attack: {value}`hit_target` hits."}\n'
    "costs:\n  banner:\n    quick_reference: false   # on the roster, not the quick reference\n```"
)


def format_reference() -> str:
    out = [
        "# Rules data format reference",
        "",
        "Generated from the model's schema. Every file in `rules_src/<ruleset>/` is a mapping of sections; "
        "each section maps lower_snake_case ids to entries. A field of type `mapping of id → X` (or of name, kind, "
        "section, input) is written the same way, each entry under its id or name (`inputs: {strength: {label: "
        "Strength}}`), never as a YAML list of `-` items; a `list of X` is a YAML list. Write `not given` for any "
        "value the source text leaves out.",
        "",
        "## `ruleset:` (in ruleset.yaml)",
        "",
        (Meta.__doc__ or "").strip(),
        "",
        fields_table(Meta),
        "",
    ]
    for name, cls in SECTIONS.items():
        out += [f"## `{name}:`", "", doc(cls), "", fields_table(cls), ""]
    out += [
        "## `rulepress.yaml` (the project's settings)",
        "",
        doc(Settings),
        "",
        fields_table(Settings),
        "",
        "## Where the site is published (`site:`)",
        "",
        fields_table(SiteSettings),
        "",
    ]
    for title, cls in PARTS.items():
        extra = {
            ProfileRow: " Its cells are keyed by column id, typed by the column's `type`, `min` and `max`. A cell "
            "may name a value instead of typing its number again, as prose does with the `{value}` role: "
            "`score: {value: bowmen_score}`; it must fit the column's type and bounds, prints as the value "
            "(marked as a house rule where an overlay changes it) and computes as it.",
            Outcome: ' A formula with `results:` is called with `result="name"` to give one of them (in formulas, '
            "charts' `result:` and examples); in a worked example, called without it, it gives them all "
            "(`brawl(4, 2)` prints `brawl(killed=2, prisoners=1)`, `brawl(4, 2).killed` is 2).",
            QuickMark: QUICK_MARK_DOC,
        }.get(cls, "")
        out += [f"## {title}", "", fields_table(cls) + ("\n\n" + extra.strip() if extra else ""), ""]
    return "\n".join(out)


def codes_reference() -> str:
    out = [
        "# Diagnostic codes",
        "",
        "Each problem is printed as `path:line:column: error[code]: message`, followed by a hint; a warning as "
        "`warning[code]`: it is told, and fails nothing.",
        "",
        "| code | printed as | catches | usual fix |",
        "|---|---|---|---|",
    ]
    out += [f"| `{c.code}` | {'warning' if c.warning else 'error'} | {c.catches} | {c.default_hint} |" for c in Code]
    return "\n".join(out) + "\n"


# -- the names worked examples can use, per ruleset ----------------------------------------------------------
def example_names(ruleset, root=None, audience: str = "gm", problems: list | None = None) -> list[tuple[str, str, str]]:
    """(kind, name with signature, one line) for every name a worked example of ``ruleset`` can use, as the
    examples list them (``examples.run.listed_names``: confined, with the ruleset's own mechanics when ``root``
    is given; what went wrong loading them is added to ``problems``), each value described as it reads. For
    players, no gm-only formula, lookup, table or value is named (their titles and numbers are the game-master's)."""
    names = described(ruleset, listed_names(ruleset, root, problems))
    if audience in SEES_EVERYTHING:
        return names
    hidden = {
        e.id
        for section in ("formulas", "lookups", "tables", "values")
        for e in ruleset.reachable(section)
        if gm_only(e)
    }
    return [entry for entry in names if entry[1].removeprefix("values.").partition("(")[0] not in hidden]


def names_in(ruleset, namespace: dict) -> list[tuple[str, str, str]]:
    """(kind, name with signature, one line) for every name in ``namespace``, an example namespace of ``ruleset``,
    each value described as it reads."""
    return described(ruleset, examples_names_in(ruleset, namespace))


def described(ruleset, rows) -> list[tuple[str, str, str]]:
    """The rows the examples listed, each value's line (left empty there) its label and how it reads."""
    return [_value_row(ruleset, row) if row[0] == "value" and not row[2] else tuple(row) for row in rows]


def _value_row(ruleset, row) -> tuple[str, str, str]:
    kind, shown, _line = row
    value = ruleset.value(shown.partition(".")[2])
    return kind, shown, f"{value.label or value.id.replace('_', ' ')}: {value_text(ruleset, value.id)}"


_LIGHT = re.compile(r"([\\|{}<>*_\[\]$])")


def _light_escape(text: str) -> str:
    """One docstring line for a Markdown table cell: reST ``code`` as code, markup characters escaped."""
    parts = re.split(r"``?([^`]+?)``?", " ".join(str(text).split()))
    return "".join(f"`{part}`" if index % 2 else _LIGHT.sub(r"\\\1", part) for index, part in enumerate(parts))


def names_reference(ruleset, root=None, audience: str = "gm", problems: list | None = None) -> str:
    """Markdown: every name the ruleset's worked examples can use, with its signature and one line."""
    out = [
        f"# Names for worked examples: {ruleset.title}",
        "",
        f"Generated from the namespace the worked examples of `{ruleset.id}` run in: the generic mechanics, "
        "the ruleset's formulas and lookups by id, its values as `values.<id>`, its own mechanics module and helpers.",
        "",
        "The functions of the formula language (`chance(...)`, `mean(...)`, `count(...)`...) are words of a "
        "formula's `expr:`, not names here: call the formula by its id, and read a roll table's chance of a result "
        'as `rules.table("id").chance("Result")`. A profile row\'s cell is read by its column\'s id: '
        '`rules.profile("id").row("id")["column"]`.',
        "",
        "| name | kind | what it is |",
        "|---|---|---|",
    ]
    for kind, signature, line in example_names(ruleset, root, audience, problems):
        cell = _light_escape(line)
        out.append(f"| `{signature.replace('|', '¦')}` | {kind} | {cell} |")
    return "\n".join(out) + "\n"
