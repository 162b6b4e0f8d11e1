"""The generated references cover the whole schema and every diagnostic code."""

from __future__ import annotations

import dataclasses
import re
import typing

import pytest

from generator.diagnostics import Code
from generator.model.base import NotGiven
from generator.model.dice import DiceExpr, RollRange
from generator.model.entries import Meta
from generator.model.ruleset import SECTIONS
from generator.model.computed import Setting
from generator.model.formula import Expression
from generator.model.quantity import Quantity
from generator.render.reference import PARTS, codes_reference, doc, format_reference
from generator.source.build import is_required, schema_fields

REFERENCE = format_reference()


def parts_of(text: str) -> dict[str, str]:
    """The reference cut at its `## ` headings: heading -> body."""
    pieces = re.split(r"^## (.+)$", text, flags=re.M)
    return dict(zip(pieces[1::2], pieces[2::2]))


PARTS_BY_HEADING = parts_of(REFERENCE)


def documented_classes() -> dict[str, type]:
    """Each heading of the reference and the class whose fields it must list."""
    headings = {"`ruleset:` (in ruleset.yaml)": Meta}
    headings |= {f"`{name}:`": cls for name, cls in SECTIONS.items()}
    headings |= dict(PARTS)
    return headings


def nested_dataclasses(tp) -> set[type]:
    """Dataclasses a field type holds, through Optional, unions, tuples and Annotated."""
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return {tp}
    return set().union(*(nested_dataclasses(arg) for arg in typing.get_args(tp)))


def test_every_section_has_its_heading():
    assert list(PARTS_BY_HEADING)[: 1 + len(SECTIONS)] == ["`ruleset:` (in ruleset.yaml)", *(f"`{n}:`" for n in SECTIONS)]


@pytest.mark.parametrize("heading, cls", documented_classes().items(), ids=lambda value: getattr(value, "__name__", None) or str(value))
def test_every_author_facing_field_is_documented(heading, cls):
    body = PARTS_BY_HEADING[heading]
    rows = {m[1]: m[0] for m in re.finditer(r"^\| `([^`]+)` \|.*\|$", body, flags=re.M)}
    fields = schema_fields(cls)
    assert list(rows) == [key for key, _f, _tp in fields]  # every field, in schema order, and nothing else
    for key, f, _tp in fields:
        row = rows[key]
        assert f.metadata.get("help", "") in row, key
        assert ("**required**" in row) == is_required(f), key
        if f.metadata.get("example"):
            assert f"`{f.metadata['example']}`" in row, key


def test_internal_fields_are_not_documented():
    for heading, cls in documented_classes().items():
        internal = {f.name for f in dataclasses.fields(cls) if f.metadata.get("internal")}
        documented = set(re.findall(r"^\| `([^`]+)` \|", PARTS_BY_HEADING[heading], flags=re.M))
        assert internal & documented == set(), heading


def test_every_nested_part_of_an_entry_is_documented():
    nested = set()
    for cls in documented_classes().values():
        for _key, _f, tp in schema_fields(cls):
            nested |= nested_dataclasses(tp)
    # `D6`, `1-2`, `not given`, `6"`, `strength - toughness`, `{input: value}`: named by type_name
    written_as_one_value = {DiceExpr, RollRange, NotGiven, Quantity, Expression, Setting}
    assert nested - written_as_one_value <= set(PARTS.values())


def test_section_docstrings_are_shown():
    for name, cls in SECTIONS.items():
        assert doc(cls) in PARTS_BY_HEADING[f"`{name}:`"], name
        assert " ".join(cls.__doc__.split()).replace("``", "`")[:40] in doc(cls).replace("``", "`").replace("` ", "`")[:40] or "``" in cls.__doc__


def test_codes_page_lists_every_code():
    page = codes_reference()
    rows = re.findall(r"^\| `([a-z-]+)` \| (.+) \| (.+) \|$", page, flags=re.M)
    assert [code for code, _catches, _hint in rows] == [c.code for c in Code]
    for (_code, catches, hint), c in zip(rows, Code):
        assert (catches, hint) == (c.catches, c.default_hint)


def test_codes_are_unique_and_described():
    assert len({c.code for c in Code}) == len(Code)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", c.code) and c.catches and c.default_hint for c in Code)
