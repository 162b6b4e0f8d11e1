"""`rulepress export`: each ruleset as JSON, with a JSON Schema generated from the model.

For other tools (list builders, virtual tabletops). Exact probabilities, and points
that are not whole, are exported as strings such as "1/3" and "3/2" (never floats);
whole points are integers; `not given` is
``{"not_given": "why"}``. The schema comes from the same dataclasses that load
the YAML, so it cannot drift from the format.
"""

from __future__ import annotations

import dataclasses
import json
import types
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Literal, Union, get_args, get_origin

from .. import __version__
from ..mechanics import armies
from ..model.base import Bounds, Markdown, NotGiven, Source
from ..model.computed import Formula, Input, Value
from ..model.dice import DiceExpr, RollRange
from ..model.entries import ArmyList, ArmyUnit, Meta, ProfileRow, RollTable
from ..model.formula import FUNCTION_HELP, FUNCTIONS, Expression
from ..model.points import Points
from ..model.quantity import Quantity
from ..model.ruleset import SECTIONS, Ruleset
from ..source.build import schema_fields
from .present import SEES_EVERYTHING, for_audience, gm_only, shown_examples
from .worked import _values as shown_values  # the one reading of a result's values, as the site's house notes
from .worked import house_hidden, house_hidden_result, shown_result

SCHEMA_ID = "https://rulepress.invalid/schema/ruleset.json"  # an identifier, never fetched
SCHEMA_FILE = "ruleset.schema.json"  # beside the rulesets' files in every export
GM_SUFFIX = "-gm"  # NAME-gm.json: a ruleset's export for the game-master (ids have no hyphen)

_FRACTION = {"type": "string", "pattern": r"^-?[0-9]+/[0-9]+$", "description": 'an exact fraction such as "3/2"'}
_NOT_GIVEN = {
    "type": "object",
    "properties": {"not_given": {"type": "string"}},
    "required": ["not_given"],
    "additionalProperties": False,
}


# -- values -------------------------------------------------------------------------------------
_ONE_QUANTITY = {
    "type": "object",
    "description": "a number as the rules write it, with its kind; the magnitude is exact "
    "(`3/2`, never a float), or the dice or the text",
    "properties": {
        "kind": {"enum": ["number", "distance", "target", "dice", "count", "text"]},
        "text": {"type": "string", "description": 'as printed: 6", 1½, 4+, 2D6'},
        "magnitude": {
            "type": "string",
            "description": 'exact: a whole number or a fraction ("3/2") for a number, a distance, a count (its '
            'unit apart) or a target ("4" of 4+); the dice of dice ("2D6"); the text itself of text',
        },
        "unit": {"type": "string", "description": "a distance's or a count's unit (inches, hexes, models...)"},
    },
    "required": ["kind", "text", "magnitude"],
    "additionalProperties": False,
}
_ALTERNATIVES = {
    "type": "object",
    "description": "alternatives the text gives (4 or 5 feet): each one a number as the others are; a formula "
    "must pick one (`pick(value, n)`, 1 the first)",
    "properties": {
        "kind": {"const": "alternatives"},
        "text": {"type": "string", "description": "as written: 4 or 5 feet"},
        "alternatives": {"type": "array", "items": _ONE_QUANTITY, "minItems": 2},
        "unit": {"type": "string", "description": "their unit, where they have one"},
    },
    "required": ["kind", "text", "alternatives"],
    "additionalProperties": False,
}
_QUANTITY = {"anyOf": [_ONE_QUANTITY, _ALTERNATIVES]}


def exact_text(number) -> str:
    """An exact number as the export writes it: ``3``, ``-1``, ``3/2``."""
    number = Fraction(number)
    return str(number.numerator) if number.denominator == 1 else f"{number.numerator}/{number.denominator}"


def quantity_json(value: Quantity) -> dict:
    if value.kind == "alternatives":
        data = {"kind": value.kind, "text": str(value), "alternatives": [quantity_json(o) for o in value.magnitude]}
    else:
        magnitude = value.magnitude
        shown = (
            exact_text(magnitude) if isinstance(magnitude, int | Fraction) else getattr(magnitude, "text", magnitude)
        )
        data = {"kind": value.kind, "text": str(value), "magnitude": str(shown)}
    if value.unit:
        data["unit"] = value.unit
    return data


def result_json(result: str | None) -> list[dict] | None:
    """A worked example's result (as the example printed it, ``(2 hexes, Fraction(3, 1))``) as quantities: one for
    each value of a tuple or list, else one for the whole; each a number, distance, target, dice or count where it
    reads as one, else text as readers read it (``True``, ``{1, 2}``). None: the example does not work out there."""
    if result is None:
        return None
    values = shown_values(shown_result(result)) or [shown_result(result)]
    return [quantity_json(_read_quantity(value)) for value in values]


def _read_quantity(text: str) -> Quantity:
    try:
        return Quantity.parse(text)
    except ValueError:  # QuantityError and what a malformed dice text raises
        return Quantity("text", text, "", text)


def to_json(value):
    if isinstance(value, NotGiven):
        return {"not_given": value.note}
    if isinstance(value, Quantity):
        return quantity_json(value)
    if isinstance(value, Expression):
        return value.text
    if isinstance(value, DiceExpr):
        return value.text
    if isinstance(value, RollRange):
        return value.text
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, types.MappingProxyType) or isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [to_json(v) for v in value]
    if dataclasses.is_dataclass(value):
        return entry_json(value)
    return value


def entry_json(entry, audience: str = "player") -> dict:
    """An entry as JSON; for players without what is the game-master's (gm-only rows, `gm_note`)."""
    data = {}
    if getattr(entry, "id", ""):
        data["id"] = entry.id
    for key, f, _tp in schema_fields(type(entry)):
        value = getattr(entry, f.name)
        if audience not in SEES_EVERYTHING:
            if f.name == "gm_note":
                value = type(value)("")
            elif isinstance(value, tuple) and any(gm_only(v) for v in value):
                value = tuple(v for v in value if not gm_only(v))
        if isinstance(entry, Input) and f.name == "default" and entry.type == "bool" and isinstance(value, Quantity):
            value = bool(value.magnitude)  # `default: 0` of a yes-or-no input: false, as the schema has it
        data[key] = to_json(value)
    if isinstance(entry, ProfileRow):
        data["values"] = to_json(entry.values)
    if isinstance(entry, RollTable) and entry.ranges_given and not entry.dice.stats:
        data["odds"] = [to_json(chance) for _row, chance in entry.odds()]
    if isinstance(entry, Value) and entry.is_house_rule:  # an overlay's: what the text gives, as every output shows
        data["house_rule"] = {
            "the_text": to_json(entry.original),
            "earlier": [{"overlay": step.ruleset, "value": to_json(step.value)} for step in entry.earlier],
        }
    return data


def ruleset_json(ruleset: Ruleset, audience: str = "player") -> dict:
    data = {"$schema": SCHEMA_ID, "rulepress": __version__, "id": ruleset.id, "ruleset": entry_json(ruleset.meta)}
    house_costed = ruleset.meta.overlay  # an overlay's lists as its site and rosters cost them
    for name in SECTIONS:
        entries = for_audience(ruleset.section(name), audience)
        data[name] = [
            _house_costed(ruleset, e, entry_json(e, audience))
            if name == "armies" and house_costed
            else entry_json(e, audience)
            for e in entries
        ]
    # what a house value of the game-master's changes would tell players that value: theirs say only that these
    # house rules give another result, as the site and the PDFs do
    hidden = audience not in SEES_EVERYTHING and house_hidden(ruleset)
    withheld = {"withheld": house_hidden_result(ruleset.game_master())} if hidden else None
    house = {(r.path, r.line): r for r in ruleset.house_results}
    data["examples"] = [
        _example_json(e, house.get((e.path, e.line)), withheld) for e in shown_examples(ruleset, audience)
    ]
    return data


def _house_costed(ruleset: Ruleset, army, data: dict) -> dict:
    """An overlay's army list as its site and rosters cost it: each line's points and the total under its house
    values where the text states other figures, marked as a house value is, the text's figure beside."""
    units = [unit for unit in army.units if not gm_only(unit)]  # as entry_json left them
    figures = [
        (line, "points", unit.points, armies.line_cost(ruleset, army, unit).total)
        for line, unit in zip(data["units"], units, strict=True)
    ]
    figures.append((data, "total", army.total, armies.army_points(ruleset, army)))
    for place, key, stated, cost in figures:
        if stated is not None and not isinstance(cost, NotGiven) and cost != stated:
            place[key] = points_json(cost)
            place["house_rule"] = {"the_text": points_json(stated)}
    return data


def points_json(points) -> int | str:
    """Points as the export writes them: a whole number as one, else an exact fraction ``"3/2"``."""
    points = Fraction(points)
    return points.numerator if points.denominator == 1 else exact_text(points)


def _example_json(example, house, withheld: dict | None = None) -> dict:
    """A worked example where it is written; under an overlay's values that change its results, what each statement
    that differs gives in the text and under the house rules (null: it raises there), or ``withheld`` in their
    stead where they would tell a house value the reader may not see."""
    data = {"entry": example.entry, "path": example.path, "line": example.line, "statements": example.statements}
    if house is not None:
        data["house_results"] = withheld or [
            {"the_text": result_json(text), "house_rules": result_json(rules)} for text, rules in house.results
        ]
    return data


# -- schema -------------------------------------------------------------------------------------------
def type_schema(tp) -> dict:
    origin = get_origin(tp)
    if origin is Annotated:
        base, *marks = get_args(tp)
        schema = type_schema(base)
        for mark in marks:
            if isinstance(mark, Bounds):
                if mark.low is not None:
                    schema["minimum"] = mark.low
                if mark.high is not None:
                    schema["maximum"] = mark.high
        return schema
    if origin in (Union, types.UnionType):
        options = [type_schema(a) for a in get_args(tp)]
        return {"anyOf": options}
    if origin is Literal:
        return {"enum": list(get_args(tp))}
    if origin is tuple:
        return {"type": "array", "items": type_schema(get_args(tp)[0])}
    if tp is type(None):
        return {"type": "null"}
    if tp is NotGiven:
        return dict(_NOT_GIVEN)
    if tp is Quantity:
        return json.loads(json.dumps(_QUANTITY))
    if tp is Expression:
        return {"type": "string", "description": "an expression over the formula's inputs, values and dice"}
    if tp in (str, Markdown):
        return {"type": "string"}
    if tp is int:
        return {"type": "integer"}
    if tp is Points:  # a whole number, or an exact fraction written "3/2" (1½ points)
        return {"anyOf": [{"type": "integer"}, dict(_FRACTION)]}
    if tp is bool:
        return {"type": "boolean"}
    if tp is DiceExpr:
        return {"type": "string", "pattern": r"^[0-9A-Za-z_+\- ]+$", "description": "a dice expression such as 2D6 + 1"}
    if tp is RollRange:
        return {"type": "string", "description": "a roll: 5, 1-2, 6+ or 1-"}
    if dataclasses.is_dataclass(tp):
        return {"$ref": f"#/$defs/{tp.__name__}"}
    raise TypeError(f"no schema for {tp!r}")


def class_schema(cls) -> dict:
    properties, required = {}, []
    if any(f.name == "id" for f in dataclasses.fields(cls)):
        properties["id"] = {
            "type": "string",
            "pattern": "^[a-z][a-z0-9_]*$",
            "description": "its id, one of its kind: what prose roles ({rule}`id`) and other entries name it by",
        }
    for key, f, tp in schema_fields(cls):
        schema = type_schema(tp)
        schema["description"] = f.metadata.get("help", "")
        if cls is Formula and key == "expr":
            schema["description"] += " " + _functions_text()
        properties[key] = schema
        required.append(key)  # export writes every field, defaults included
    if cls is ProfileRow:
        properties["values"] = {
            "type": "object",
            "description": 'its cells by their column\'s id: a whole number; an exact fraction such as "3/2" (a '
            "`points` or `number` column); a text (a `text` column, written as the source prints it); "
            '`{"not_given": why}` where the text leaves the cell out; or `{"value": id}`, a cell that shows that '
            "value (in `values`, an overlay's house value included). A `target` cell is its number (4 of 4+), an "
            "`inches` cell its inches, a `dice` cell its number of dice.",
            "additionalProperties": {
                "anyOf": [  # points and number cells may be fractions: "3/2"
                    {"type": "integer"},
                    {"type": "string"},
                    dict(_NOT_GIVEN),
                    {
                        "type": "object",
                        "properties": {"value": {"type": "string"}},
                        "required": ["value"],  # names a value
                        "additionalProperties": False,
                    },
                ]
            },
        }
        required.append("values")
    if cls is RollTable:
        properties["odds"] = {
            "type": "array",
            "items": {"type": "string", "pattern": r"^[0-9]+/[0-9]+$"},
            "description": 'the exact chance of each row, in the order of `rows` ("1/3"): absent where a row\'s '
            "roll is not given or the dice name stats (D6 + S - T) that only a game gives",
        }
    if cls in (ArmyList, ArmyUnit):  # on an overlay's lists only
        what = "line's points" if cls is ArmyUnit else "list's total"
        properties["house_rule"] = {
            "type": "object",
            "description": f"in an overlay's export, where its house values cost this {what} otherwise than the "
            f"text states: the text's figure (`{'points' if cls is ArmyUnit else 'total'}` is then the house one, "
            "as the overlay's site and rosters cost it)",
            "properties": {"the_text": type_schema(Points)},
            "required": ["the_text"],
            "additionalProperties": False,
        }
    if cls is Value:  # on an overlay's house values only
        given = {"anyOf": [*json.loads(json.dumps(_QUANTITY))["anyOf"], dict(_NOT_GIVEN)]}
        earlier = {
            "type": "object",
            "properties": {"overlay": {"type": "string", "description": "its title"}, "value": given},
            "required": ["overlay", "value"],
            "additionalProperties": False,
        }
        properties["house_rule"] = {
            "type": "object",
            "description": "a house rule's value: what the text gives, and the house values of the overlays between",
            "properties": {"the_text": given, "earlier": {"type": "array", "items": earlier}},
            "required": ["the_text", "earlier"],
            "additionalProperties": False,
        }
    doc = " ".join((cls.__doc__ or "").split())
    return {
        "type": "object",
        "description": "" if doc.startswith(f"{cls.__name__}(") else doc,  # never the signature dataclass writes
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _functions_text() -> str:
    """Every function a formula may call, from the formula language's own table, each with its help (the first
    paragraph of its docstring, or the table's own words where it has none of its own)."""

    def help_of(name: str) -> str:
        own = (FUNCTIONS[name].__doc__ or "").strip() if FUNCTIONS[name].__module__ != "builtins" else ""
        return " ".join(own.split("\n\n")[0].split()) if own and name not in _OWN_WORDS else FUNCTION_HELP[name]

    return "Its functions: " + "; ".join(f"`{name}`: {help_of(name).rstrip('.')}" for name in FUNCTIONS) + "."


_OWN_WORDS = ("floor", "ceil", "dice")  # said better by the table than by the function it wraps


def _classes() -> list[type]:
    seen: list[type] = []

    def visit(tp):
        origin = get_origin(tp)
        if origin is not None:
            for arg in get_args(tp):
                visit(arg)
            return
        if (
            isinstance(tp, type)
            and dataclasses.is_dataclass(tp)
            and tp not in seen
            and tp not in (NotGiven, DiceExpr, RollRange, Quantity, Expression)
        ):
            seen.append(tp)
            for _key, _f, field_type in schema_fields(tp):
                visit(field_type)

    for cls in (Meta, *SECTIONS.values(), ProfileRow, Source):
        visit(cls)
    return seen


def json_schema() -> dict:
    defs = {cls.__name__: class_schema(cls) for cls in _classes()}
    sections = {
        name: {
            "type": "array",
            "items": {"$ref": f"#/$defs/{cls.__name__}"},
            "description": f"the ruleset's `{name}:` entries, as its rules files give them (a player export: without "
            "the game-master's)",
        }
        for name, cls in SECTIONS.items()
    }
    result = {
        "type": "array",
        "items": json.loads(json.dumps(_QUANTITY)),
        "description": "a statement's result: each value of it (one, or each of a tuple's) as a quantity",
    }
    example = {
        "type": "object",
        "properties": {
            "entry": {"type": "string", "description": "the entry whose prose holds it: section.id (rules.hitting)"},
            "path": {"type": "string", "description": "the rules file it is written in, from the project's folder"},
            "line": {"type": "integer", "description": "the line of that file where it starts"},
            "statements": {"type": "integer", "description": "how many `>>>` statements it checks"},
            "house_results": {
                "description": "under an overlay's values that change the example's results: each statement "
                "whose result differs, in the text and under the house rules; in a player export where a house value "
                "of the game-master's would be told by them, only that they are withheld",
                "anyOf": [
                    {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "the_text": result,
                                "house_rules": {
                                    "anyOf": [result, {"type": "null"}],
                                    "description": "null: the statement does not work out under the house rules",
                                },
                            },
                            "required": ["the_text", "house_rules"],
                            "additionalProperties": False,
                        },
                    },
                    {
                        "type": "object",
                        "properties": {"withheld": {"type": "string", "description": "what players read instead"}},
                        "required": ["withheld"],
                        "additionalProperties": False,
                    },
                ],
            },
        },
        "required": ["entry", "path", "line", "statements"],
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Rulepress ruleset",
        "type": "object",
        "properties": {
            "$schema": {"type": "string", "description": "this schema's $id"},
            "rulepress": {"type": "string", "description": "the version of rulepress that wrote it"},
            "id": {"type": "string", "description": "the ruleset's id: its folder under rules_src/"},
            "ruleset": {
                "$ref": "#/$defs/Meta",
                "description": "what the ruleset is: its title, source, the ruleset it extends",
            },
            **sections,
            "examples": {
                "type": "array",
                "items": example,
                "description": "its worked examples, checked on every build: where each is written, and what an "
                "overlay's values change",
            },
        },
        "required": ["id", "ruleset", *SECTIONS, "examples"],
        "additionalProperties": False,
        "$defs": defs,
    }


def export(project, out: Path, audience: str = "player") -> list[Path]:
    """Each ruleset's JSON for ``audience`` and the schema, into ``out``: the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / SCHEMA_FILE]
    written[0].write_text(json.dumps(json_schema(), indent=2) + "\n", encoding="utf-8")
    for ruleset in project.rulesets:
        suffix = GM_SUFFIX if audience == "gm" else ""
        path = out / f"{ruleset.id}{suffix}.json"
        path.write_text(
            json.dumps(ruleset_json(ruleset, audience), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        written.append(path)
    return written


def exported_audiences(folder: Path) -> list[str]:
    """The audiences an export in ``folder`` is for, by its files' names (none: no export there)."""
    names = [p.name for p in folder.glob("*.json") if p.name != SCHEMA_FILE and not p.name.startswith(".")]
    gm = [name for name in names if name.endswith(f"{GM_SUFFIX}.json")]
    return (["player"] if len(gm) < len(names) else []) + (["gm"] if gm else [])


def is_export(folder: Path) -> bool:
    """Whether ``folder`` is one `rulepress export --out` wrote: its schema, and nothing but JSON files beside it."""
    try:
        schema = json.loads((folder / SCHEMA_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(schema, dict)
        and schema.get("$id") == SCHEMA_ID
        and all(p.is_file() and not p.is_symlink() and p.suffix == ".json" for p in folder.iterdir())
    )
