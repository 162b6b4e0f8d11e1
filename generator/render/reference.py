"""The authors' reference, generated from the schema and the diagnostic enum.

Nothing here is written twice: field names, types, defaults and help texts come
from the model's dataclasses; codes and what they catch from ``Code``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Annotated, Literal, Union, get_args, get_origin

from ..diagnostics import Code
from ..model.base import Bounds, Markdown, NotGiven, Source
from ..model.dice import DiceExpr, RollRange
from ..model.entries import ArmyUnit, Column, Meta, ProfileRow, TableRow
from ..model.points import Points
from ..model.ruleset import SECTIONS
from ..source.build import is_required, schema_fields


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
        return f"list of {type_name(get_args(tp)[0])}"
    names = {str: "text", Markdown: "Markdown", int: "whole number", bool: "true/false", DiceExpr: "dice expression",
             RollRange: "roll (5, 1-2, 6+, 1-)", NotGiven: "`not given`", Source: "source citation",
             Points: "points (3, 1½, 1 1/2, 3/2 or 1.5)"}
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
    return f"default `{value}`"


def _one_of(cls, key: str) -> str | None:
    """`**at least one of** `this`, `other`` for fields of which an entry needs at least one."""
    for group in getattr(cls, "one_of", ()):
        if key in group:
            return "**at least one of** " + ", ".join(f"`{k}`" for k in group)
    return None


def fields_table(cls) -> str:
    lines = ["| field | type | | meaning | example |", "|---|---|---|---|---|"]
    for key, f, tp in schema_fields(cls):
        example = f.metadata.get("example") or ""
        default = _one_of(cls, key) or _default(f)
        lines.append(f"| `{key}` | {type_name(tp)} | {default} | {f.metadata.get('help', '')} | {('`' + example + '`') if example else ''} |")
    return "\n".join(lines)


PARTS = {"Row of a roll table (`rows:`)": TableRow, "Column of a profile matrix (`columns:`)": Column,
         "Row of a profile matrix (`rows:`)": ProfileRow, "Line of an army list (`units:`)": ArmyUnit, "Source citation (`source:`)": Source}


def format_reference() -> str:
    out = ["# Rules data format reference", "",
           "Generated from the model's schema. Every file in `rules_src/<ruleset>/` is a mapping of sections; "
           "each section maps lower_snake_case ids to entries. Write `not given` for any value the source text leaves out.", "",
           "## `ruleset:` (in ruleset.yaml)", "", (Meta.__doc__ or "").strip(), "", fields_table(Meta), ""]
    for name, cls in SECTIONS.items():
        out += [f"## `{name}:`", "", " ".join((cls.__doc__ or "").split()), "", fields_table(cls), ""]
    for title, cls in PARTS.items():
        extra = " Its cells are keyed by column id, typed by the column's `type`, `min` and `max`." if cls is ProfileRow else ""
        out += [f"## {title}", "", fields_table(cls) + ("\n\n" + extra.strip() if extra else ""), ""]
    return "\n".join(out)


def codes_reference() -> str:
    out = ["# Diagnostic codes", "",
           "Each problem is printed as `path:line:column: error[code]: message`, followed by a hint.", "",
           "| code | catches | usual fix |", "|---|---|---|"]
    out += [f"| `{c.code}` | {c.catches} | {c.default_hint} |" for c in Code]
    return "\n".join(out) + "\n"
