"""What the rules data was read for (generator/model/reads.py), the measure behind `rulepress coverage`: nothing is
recorded unless a run starts recording; then each formula evaluated, each lookup row read and each value a formula
reads by name, and no name an input or a `let` step gives it. The rules are those `rulepress new` writes; what they
read is read off their YAML here, by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.model import reads
from generator.model.calculate import calculator
from generator.scaffold import scaffold
from generator.source.project import load_project


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("reads")
    (root / "rules_src").mkdir()
    scaffold(root, "demo", None)
    project, diagnostics = load_project(root, "demo")
    assert not diagnostics.errors
    return project.ruleset("demo")


@pytest.fixture
def recording(monkeypatch):
    """A record for this test alone: the module's state is put back as it was (off) afterwards."""
    monkeypatch.setattr(reads, "_entries", None)
    monkeypatch.setattr(reads, "_values", None)
    reads.start()
    return reads


def ids(entries) -> set[str]:
    return {getattr(entry, "id", None) or getattr(entry, "when", None) for entry in entries}


def test_nothing_is_recorded_unless_a_run_starts_recording(demo, monkeypatch):
    monkeypatch.setattr(reads, "_entries", None)
    monkeypatch.setattr(reads, "_values", None)
    assert calculator(demo).scope["melee_score"](2, 1) == 2 * 1 + 1 * Fraction(3, 2)
    assert not reads.recording() and reads.taken() == ([], set())
    assert type(reads.scope({"a": 1})) is dict  # a formula's scope is not watched


def test_a_formula_records_itself_and_the_values_it_reads_by_name(demo, recording):
    assert calculator(demo).scope["melee_score"](foot=4, riders=2) == 4 * 1 + 2 * Fraction(3, 2)
    entries, values = recording.taken()
    assert ids(entries) == {"melee_score"}
    assert values == {"foot_score", "rider_score"}  # `foot` and `riders` are its inputs, not values


def test_a_let_step_and_a_lookup_row_read_through_a_formula_are_recorded_as_what_they_are(demo, recording):
    calc = calculator(demo)
    assert calc.scope["to_wound"](strength=3, toughness=3) == 4  # difference 0: clamp(4 - 0, 2, 6)
    entries, values = recording.taken()
    assert ids(entries) == {"to_wound"} and values == set()  # `difference` is its own `let` step
    assert calc.scope["melee_outcome"](ours=5, theirs=3) == "Falls back"  # a difference of 2: the row 1-2
    entries, _values = recording.taken()
    assert "melee_outcome" in ids(entries) and any(getattr(e, "result", None) == "Falls back" for e in entries)


def test_a_table_looked_up_records_the_table_and_the_row_it_gave(demo, recording):
    injuries = demo.table("injuries")
    assert injuries.lookup(5).result == "Out of action"  # rules.yaml: 4-6 it is out of action
    entries, values = recording.taken()
    assert [getattr(e, "id", None) or e.result for e in entries] == ["injuries", "Out of action"] and values == set()


def test_taking_the_record_starts_a_fresh_one(demo, recording):
    calculator(demo).scope["melee_score"](1, 0)
    assert recording.taken()[0]
    assert recording.recording() and recording.taken() == ([], set())


def test_a_watched_scope_notes_a_name_read_from_it_but_not_one_given_to_it(recording):
    scope = reads.scope({"move": 6, "charge": 2})
    scope["move"] = 5  # given locally, as an input is
    assert scope["move"] == 5 and scope.get("charge") == 2 and scope.get("missing", 0) == 0
    assert recording.taken() == ([], {"charge"})
