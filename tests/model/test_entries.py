"""Entries and their parts: the fields a spec declares for the reference, the places an entry was written, a
source, a row's keywords, a matrix's rows and moves, an example's statements. Expected values written by hand."""

from __future__ import annotations

import pytest

from generator.model.base import NotGiven


def test_an_example_counts_its_statements():
    from generator.model.ruleset import Example

    source = ">>> a = 1\n>>> a + 1\n2\n  >>> b\n... c\n# >>> not one\n"
    assert Example(ruleset="x", entry="rules.r", path="p", line=1, source=source).statements == 3


def test_a_spec_field_carries_its_help_example_and_key():
    import dataclasses

    from generator.model.base import spec

    made = spec("How far it moves.", 3, example='6"', key="move")
    assert made.default == 3 and dict(made.metadata) == {"help": "How far it moves.", "example": '6"', "key": "move"}
    bare = spec("Required.")
    assert bare.default is dataclasses.MISSING and dict(bare.metadata) == {
        "help": "Required.",
        "example": None,
        "key": None,
    }
    assert spec("A tuple is fine.", ()).default == ()
    for mutable in ([], {}, set()):
        with pytest.raises(TypeError, match="^use a tuple for defaults$"):
            spec("Mutable.", mutable)


def test_the_quick_reference_field_explains_its_default():
    from generator.model.base import quick_field

    shown = quick_field("rule", True)
    assert shown.default is True and dict(shown.metadata) == {
        "help": "Put the rule on the ruleset's quick reference (printed unless `false`): `true`, or "
        "`{summary: ...}` to print a short summary instead of the full text.",
        "example": "{summary: Roll a D6 for each hit.}",
        "key": None,
    }
    hidden = quick_field("spell")
    assert hidden.default is False and hidden.metadata["help"] == (
        "Put the spell on the ruleset's quick reference (left off unless marked): `true`, or "
        "`{summary: ...}` to print a short summary instead of the full text."
    )


def test_the_coverage_field_is_empty_by_default_and_explains_what_an_excuse_does():
    from generator.model.base import coverage_field

    made = coverage_field()
    assert made.default == "" and dict(made.metadata) == {
        "help": "Why no worked example can exercise this (it is prose only: a timer, a choice the players make); "
        "`rulepress coverage` then counts it excused instead of missed.",
        "example": "prose only: the players time it with a watch",
        "key": None,
    }


def test_an_entry_id_field_is_internal_and_empty_by_default():
    from generator.model.entries import _id

    made = _id()
    assert made.default == "" and dict(made.metadata) == {"internal": True}


def test_the_location_fields_are_internal_and_left_out_of_comparison():
    from types import MappingProxyType

    from generator.model.base import NOWHERE, located
    from generator.model.entries import _locs

    loc, locs = located()
    assert (loc.default, loc.compare, loc.repr, dict(loc.metadata)) == (NOWHERE, False, False, {"internal": True})
    assert (locs.compare, locs.repr, dict(locs.metadata)) == (False, False, {"internal": True})
    assert locs.default_factory() == MappingProxyType({}) and isinstance(locs.default_factory(), MappingProxyType)
    own = _locs()
    assert (own.compare, own.repr, dict(own.metadata)) == (False, False, {"internal": True})
    assert own.default_factory() == {} and isinstance(own.default_factory(), MappingProxyType)


def test_a_source_prints_as_file_and_section():
    from generator.model.base import Source

    assert str(Source(file="rules.txt", section="FIGHTING")) == "rules.txt § FIGHTING"
    assert str(Source(file="rules.txt")) == "rules.txt"


def test_a_rows_keywords_give_their_parameters():
    from generator.model.entries import ProfileRow

    row = ProfileRow(
        id="gun", name="Great gun", keywords=("SHOOTS 12", "Fear", "Range -1 2", "Big Gun 3", "7", "FAST --3")
    )
    assert row.keyword("shoots") == (12,) and row.keyword("FEAR") == () and row.keyword("range") == (-1, 2)
    # a lone number is the keyword's name, and `--3` no number: the row reads keywords as the checks do (split_keyword)
    assert row.keyword("big gun") == (3,) and row.keyword("Charge") is None and row.keyword("") is None
    assert row.keyword("7") == () and row.keyword("fast --3") == () and row.keyword("fast") is None
    with pytest.raises(LookupError, match="^the source does not give the special rules of Great gun$"):
        ProfileRow(id="x", name="Great gun", keywords=NotGiven()).keyword("fear")


def test_a_matrix_finds_rows_columns_and_how_far_a_row_moves():
    from generator.model.entries import Column, ProfileMatrix, ProfileRow

    foot = ProfileRow(id="heavy_foot", name="Heavy foot")
    horse = ProfileRow(id="knights", name="Mounted knights", movement="mounted_move")
    matrix = ProfileMatrix(
        id="troops",
        title="Troops",
        movement="move",
        columns=(Column(id="attack", label="ATTACK"), Column(id="armour", label="ARMOUR")),
        rows=(foot, horse),
    )
    assert matrix.column("armour").label == "ARMOUR" and matrix.column("attack").label == "ATTACK"
    assert matrix.movement_of(foot) == "move" and matrix.movement_of(horse) == "mounted_move"
    assert matrix.row("Heavy foot") is foot and matrix.row("heavy foot") is foot and matrix.row("KNIGHTS") is horse
    assert matrix.row("mounted knights") is horse
    with pytest.raises(KeyError):
        matrix.row("archers")
