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
import re

from ..model.base import QUICK_REFERENCE_FORMS, Bounds, Markdown, NotGiven, QuickMark, Source
from ..model.computed import Axis, Binding, Input, LookupRow, Outcome, Setting
from ..model.formula import Expression
from ..model.quantity import Quantity
from ..model.dice import DiceExpr, RollRange
from ..model.entries import ArmyUnit, Column, Declares, Meta, ProfileRow, TableRow, Track
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
             Points: "points (3, 1½, 1 1/2, 3/2 or 1.5)",
             Quantity: "quantity (`2`, `1½`, `6\"`, `3 hexes`, `4+`, `2D6`, `2 minutes`)",
             Expression: "expression (text: `strength - toughness`)",
             Axis: "chart axis (below)", Setting: "value (the input held at it)",
             QuickMark: "`{summary:, title:}` (quick reference mark, below)"}
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


PARTS = {"Lists a ruleset declares (`ruleset: declares:`)": Declares, "Input of a formula (`inputs:`)": Input, "Named step of a formula (`let:`)": Binding,
         "One of several results of a formula (`results:`)": Outcome,
         "Chart axis (`rows:`, `columns:`)": Axis, "Row of a lookup (`rows:`)": LookupRow,
         "Row of a roll table (`rows:`)": TableRow, "Column of a profile matrix (`columns:`)": Column,
         "Row of a profile matrix (`rows:`)": ProfileRow, "What units track in play (`tracks:`)": Track,
         "Quick reference mark (`quick_reference:`)": QuickMark,
         "Line of an army list (`units:`)": ArmyUnit, "Source citation (`source:`)": Source}


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
    "```yaml\nrules:\n  hitting:\n    quick_reference: {summary: \"Roll a D6 per attack: {value}`hit_target` hits.\"}\n"
    "costs:\n  banner:\n    quick_reference: false   # on the roster, not the quick reference\n```")


def format_reference() -> str:
    out = ["# Rules data format reference", "",
           "Generated from the model's schema. Every file in `rules_src/<ruleset>/` is a mapping of sections; "
           "each section maps lower_snake_case ids to entries. Write `not given` for any value the source text leaves out.", "",
           "## `ruleset:` (in ruleset.yaml)", "", (Meta.__doc__ or "").strip(), "", fields_table(Meta), ""]
    for name, cls in SECTIONS.items():
        out += [f"## `{name}:`", "", doc(cls), "", fields_table(cls), ""]
    for title, cls in PARTS.items():
        extra = {ProfileRow: " Its cells are keyed by column id, typed by the column's `type`, `min` and `max`. A cell "
                             "may name a value instead of typing its number again, as prose does with the `{value}` role: "
                             "`score: {value: bowmen_score}`; it must fit the column's type and bounds, prints as the value "
                             "(marked as a house rule where an overlay changes it) and computes as it.",
                 Outcome: " A formula with `results:` is called with `result=\"name\"` to give one of them (in formulas, "
                          "charts' `result:` and examples); in a worked example, called without it, it gives them all "
                          "(`brawl(4, 2)` prints `brawl(killed=2, prisoners=1)`, `brawl(4, 2).killed` is 2).",
                 QuickMark: QUICK_MARK_DOC}.get(cls, "")
        out += [f"## {title}", "", fields_table(cls) + ("\n\n" + extra.strip() if extra else ""), ""]
    return "\n".join(out)


def codes_reference() -> str:
    out = ["# Diagnostic codes", "",
           "Each problem is printed as `path:line:column: error[code]: message`, followed by a hint.", "",
           "| code | catches | usual fix |", "|---|---|---|"]
    out += [f"| `{c.code}` | {c.catches} | {c.default_hint} |" for c in Code]
    return "\n".join(out) + "\n"


# -- the names worked examples can use, per ruleset ----------------------------------------------------------
def _one_line(text) -> str:
    lines = [line.strip() for line in str(text or "").strip().splitlines()]
    return lines[0] if lines and lines[0] else ""


def _signature(name: str, thing) -> str:
    import inspect

    try:
        signature = inspect.signature(thing)
    except (TypeError, ValueError):
        return f"{name}(...)"
    plain = signature.replace(parameters=[p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()],
                              return_annotation=inspect.Signature.empty)
    try:
        return f"{name}{plain}"
    except (TypeError, ValueError):
        return f"{name}(...)"


def example_names(ruleset, root=None, audience: str = "gm", problems: list | None = None) -> list[tuple[str, str, str]]:
    """(kind, name with signature, one line) for every name a worked example of ``ruleset`` can use.

    With a project ``root`` the ruleset's own mechanics are part of it: they are loaded and looked at in a
    confined child process (see ``examples.confined``), and only the names come back. Mechanics that do not
    load leave their names out, the rest are listed all the same, and what went wrong is added to
    ``problems`` when given. For players, no gm-only formula, lookup, table or value is named (their titles
    and numbers are the game-master's)."""
    from ..examples.namespace import namespace_for

    if root is None:
        names = names_in(ruleset, namespace_for(ruleset, None))
    else:
        from ..examples.confined import run_confined

        outcome = run_confined(ruleset, root, examples=False, names=True)
        if problems is not None:
            problems.extend(outcome.mechanics)
        # without its own mechanics (they did not load) no rules code runs here: the engine's names alone
        names = list(outcome.names) if outcome.names is not None else names_in(ruleset, namespace_for(ruleset, None))
    if audience == "gm":
        return names
    from .present import gm_only

    hidden = {e.id for section in ("formulas", "lookups", "tables", "values")
              for e in ruleset.reachable(section) if gm_only(e)}
    return [entry for entry in names if entry[1].removeprefix("values.").partition("(")[0] not in hidden]


def names_in(ruleset, namespace: dict) -> list[tuple[str, str, str]]:
    """(kind, name with signature, one line) for every name in ``namespace``, an example namespace of ``ruleset``."""
    import inspect
    from types import ModuleType, SimpleNamespace

    from .prose import value_text

    formulas = {f.id: f for f in ruleset.reachable("formulas")}
    lookups = {l.id: l for l in ruleset.reachable("lookups")}
    hidden: set[str] = set()  # names_in lists everything; example_names leaves out what players may not see
    found = []
    for name in sorted(namespace, key=str.casefold):
        thing = namespace[name]
        if name.startswith("_") or name in hidden:
            continue
        if name in formulas:
            found.append(("formula", _signature(name, thing), _formula_line(formulas[name])))
        elif name in lookups:
            found.append(("lookup", f"{name}(key)", f"The row of {lookups[name].title} for a "
                                                     f"{(lookups[name].key or 'key').lower()}: its value, else its result"))
        elif isinstance(thing, ModuleType):
            found.append(("module", name, _one_line(thing.__doc__)))
        elif isinstance(thing, SimpleNamespace):
            found.append(("values", f"{name}.<id>", "Every value of the ruleset by id, as its exact number"))
            for value in ruleset.reachable("values"):
                if value.id in hidden:
                    continue
                found.append(("value", f"{name}.{value.id}", f"{value.label or value.id.replace('_', ' ')}: "
                                                             f"{value_text(ruleset, value.id)}"))
        else:
            try:  # a ruleset's own helpers are described by their own code (run confined): it may fail
                if inspect.isclass(thing) or callable(thing):
                    kind = "class" if inspect.isclass(thing) else "function"
                    found.append((kind, _signature(name, thing), _one_line(getattr(thing, "__doc__", ""))))
                else:
                    found.append(("object", name, _one_line(type(thing).__doc__)))
            except Exception as error:  # noqa: BLE001
                found.append(("object", name, f"could not be described ({type(error).__name__})"))
    return found


def _formula_line(formula) -> str:
    """A formula's line in the names reference; one with several results lists them and how to name one."""
    if not formula.results:
        return formula.title
    names = ", ".join(o.id for o in formula.results)
    first = formula.results[0].id
    return (f"{formula.title}. Results: {names}; ``{formula.id}(..., result=\"{first}\")`` gives one, "
            f"``{formula.id}(...)`` all of them (``{formula.id}(...).{first}``)")


_LIGHT = re.compile(r"([\\|{}<>*_\[\]$])")


def _light_escape(text: str) -> str:
    """One docstring line for a Markdown table cell: reST ``code`` as code, markup characters escaped."""
    parts = re.split(r"``?([^`]+?)``?", " ".join(str(text).split()))
    return "".join(f"`{part}`" if index % 2 else _LIGHT.sub(r"\\\1", part) for index, part in enumerate(parts))


def names_reference(ruleset, root=None, audience: str = "gm", problems: list | None = None) -> str:
    """Markdown: every name the ruleset's worked examples can use, with its signature and one line."""
    out = [f"# Names for worked examples: {ruleset.title}", "",
           f"Generated from the namespace the worked examples of `{ruleset.id}` run in: the generic mechanics, "
           "the ruleset's formulas and lookups by id, its values as `values.<id>`, its own mechanics module and helpers.",
           "", "| name | kind | what it is |", "|---|---|---|"]
    for kind, signature, line in example_names(ruleset, root, audience, problems):
        cell = _light_escape(line)
        out.append(f"| `{signature.replace('|', '¦')}` | {kind} | {cell} |")
    return "\n".join(out) + "\n"
