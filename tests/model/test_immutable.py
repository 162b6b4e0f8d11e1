"""The model is immutable: entries, their parts and the ruleset cannot be changed after loading."""

from __future__ import annotations

import dataclasses
import typing
from types import MappingProxyType

import pytest
from helpers import sample_project

from generator.diagnostics import Code, Diagnostic, Location
from generator.model import base, dice, entries
from generator.model.ruleset import SECTIONS, Example, Ruleset

MODEL_CLASSES = sorted(
    {
        cls
        for module in (base, dice, entries)
        for cls in vars(module).values()
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
    }
    | {Ruleset, Example, Location, Diagnostic},
    key=lambda cls: cls.__qualname__,
)


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    project, diagnostics = sample_project()
    assert not diagnostics.errors
    return project.ruleset("rampant_hex")


@pytest.mark.parametrize("cls", MODEL_CLASSES, ids=lambda cls: cls.__qualname__)
def test_every_model_class_is_frozen(cls):
    assert cls.__dataclass_params__.frozen


@pytest.mark.parametrize("cls", MODEL_CLASSES, ids=lambda cls: cls.__qualname__)
def test_no_field_holds_a_mutable_collection(cls):
    for name, hint in typing.get_type_hints(cls).items():
        for part in (hint, *typing.get_args(hint)):
            assert typing.get_origin(part) not in (list, dict, set) and part not in (list, dict, set), (cls, name)


def every_value(rules: Ruleset):
    """Every entry and every dataclass value nested in one, with where it was found."""

    def nested(value, where):
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            yield where, value
            for f in dataclasses.fields(value):
                yield from nested(getattr(value, f.name), f"{where}.{f.name}")
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                yield from nested(item, f"{where}[{index}]")

    for section, entry in rules.all_entries():
        yield from nested(entry, f"{section}.{entry.id}")
    yield from nested(rules.meta, "meta")
    for example in rules.examples:
        yield f"example {example.path}:{example.line}", example


def test_loaded_values_cannot_be_changed(rules):
    checked = 0
    for _where, value in every_value(rules):
        field = dataclasses.fields(value)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(value, field)
        checked += 1
    assert checked > 50


def test_collections_in_loaded_values_are_tuples_or_read_only_mappings(rules):
    for where, value in every_value(rules):
        for f in dataclasses.fields(value):
            held = getattr(value, f.name)
            assert not isinstance(held, (list, dict, set)), f"{where}.{f.name}"
            if isinstance(held, MappingProxyType):
                with pytest.raises(TypeError):
                    held["new"] = 1  # type: ignore[index]


def test_the_ruleset_cannot_be_changed(rules):
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.tables = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.sources["extra.txt"] = ""  # type: ignore[index]
    assert all(isinstance(rules.section(name), tuple) for name in SECTIONS)


def test_profile_cells_are_read_only(rules):
    row = rules.profile("troops").row("heavy_foot")
    assert row["pts"] == 5
    with pytest.raises(TypeError):
        row.values["pts"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        row.locs["pts"] = Location("x")  # type: ignore[index]


def test_replace_makes_a_new_value_and_leaves_the_old_one(rules):
    table = rules.table("activations")
    renamed = dataclasses.replace(table, title="Renamed")
    assert (table.title, renamed.title) == ("Number of activations", "Renamed")
    assert renamed.rows is table.rows


def test_values_are_hashable_where_they_hold_no_mappings():
    assert hash(dice.DiceExpr.parse("D6 + S")) == hash(dice.DiceExpr.parse("D6 + S"))
    assert hash(dice.RollRange.parse("1-2")) == hash(dice.RollRange.parse("1-2"))
    assert hash(Location("a", 1, 2)) == hash(Location("a", 1, 2))
    assert len({Diagnostic(Code.TAB, "m", Location("a")), Diagnostic(Code.TAB, "m", Location("a"))}) == 1
