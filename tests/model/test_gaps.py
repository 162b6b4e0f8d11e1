"""Gaps (issue 21, item 5): `not given` is accepted wherever a value can stand, its near misses are errors,
a gap is never a number or true, examples test for one with `is_given`, and outputs mark it."""

from __future__ import annotations

import pytest
from helpers import make_project, sample_project

from generator.examples.namespace import namespace_for
from generator.model.base import NotGiven
from generator.model.calculate import calculator
from generator.render.present import shown
from generator.render.prose import value_text
from generator.render.reference import names_in
from generator.validate import check_project

GAPS = """
ruleset: {title: Gaps}
values:
  crawl: not given
  reach: "not given: the text omits it"
  sweep: {not given: a page is missing}
  pace: 2
profiles:
  troops:
    title: Troops
    columns:
      attack: {label: ATTACK, type: dice, min: 0, cells: "not given: the matrix was a picture"}
      pts: {label: PTS, type: points, min: 0}
    rows:
      levy: {name: Levy, pts: 2}
      riders: {name: Riders, attack: 3, pts: not given}
armies:
  riders:
    title: Riders of unknown cost and size
    matrix: troops
    agreed_points: not given
    units:
      - {troop: riders, count: 2}
"""


@pytest.fixture
def gaps(tmp_path):
    result = check_project(make_project(tmp_path, game=GAPS))
    assert [d.format() for d in result.diagnostics.errors] == []
    return result.project.ruleset("game")


def test_not_given_with_a_note_is_a_gap_wherever_a_value_stands(gaps):
    assert [gaps.value(id).value for id in ("crawl", "reach", "sweep")] == [
        NotGiven(),
        NotGiven("the text omits it"),
        NotGiven("a page is missing"),
    ]
    assert [gaps.value(id).value.note for id in ("reach", "sweep")] == ["the text omits it", "a page is missing"]
    assert [value_text(gaps, id) for id in ("crawl", "reach", "pace")] == ["not given", "not given", "2"]


def test_a_whole_column_and_an_armys_agreed_size_can_be_not_given(gaps):
    matrix = gaps.profile("troops")
    assert matrix.row("levy")["attack"] == NotGiven("the matrix was a picture")
    assert matrix.row("riders")["attack"] == 3  # a row that states its cell keeps it
    assert shown(matrix.row("levy")["attack"]) == "not given in the source"
    assert isinstance(gaps.get("armies", "riders").agreed_points, NotGiven)


@pytest.mark.parametrize("typo", ["not givne", "Not Given", "notgiven", "not_givn", '"not-given: the text omits it"'])
def test_near_misses_of_not_given_are_gap_typos_with_a_did_you_mean(tmp_path, typo):
    result = check_project(make_project(tmp_path, game=f"ruleset: {{title: Typo}}\nvalues:\n  crawl: {typo}\n"))
    found = [(d.code.value, d.location.line, d.hint) for d in result.diagnostics.errors]
    assert len(found) == 1 and found[0][:2] == ("gap-typo", 3) and "did you mean `not given`" in found[0][2]


def test_words_that_are_not_gaps_stay_text(tmp_path):
    words = "ruleset: {title: Words}\nvalues:\n  side: not driven\n  odd: nothing\n"
    result = check_project(make_project(tmp_path, game=words))
    assert result.diagnostics.errors == []


def test_an_example_sees_a_gap_as_not_given_never_as_a_number_or_true(gaps):
    names = namespace_for(gaps)
    crawl = names["values"].crawl
    assert repr(crawl) == "not given" and "object at" not in repr(crawl)
    assert names["is_given"](crawl) is False and names["is_given"](names["values"].pace) is True
    with pytest.raises(ValueError, match="not given"):
        bool(crawl)
    with pytest.raises(ValueError, match="not given"):
        crawl + 1
    with pytest.raises(ValueError, match="not given"):
        crawl > 0


def test_a_gap_used_as_a_number_names_the_value_and_the_note_when_it_has_them():
    from generator.model.base import NotGivenError

    advice = "; test for it with is_given(...) before using it"
    with pytest.raises(NotGivenError) as raised:
        NotGiven() + 1
    assert str(raised.value) == "not given: the text does not give this value" + advice
    with pytest.raises(NotGivenError) as raised:
        NotGiven("a page is missing", what="sweep") < 2
    assert str(raised.value) == "not given: the text does not give the value `sweep` (a page is missing)" + advice


def test_is_given_looks_inside_a_value_entry_a_table_row_and_a_cell(gaps):
    from generator.mechanics.stated import is_given
    from generator.model.dice import RollRange
    from generator.model.entries import TableRow

    assert [is_given(gaps.value(id)) for id in ("crawl", "reach", "pace")] == [False, False, True]
    rows = [TableRow(roll=NotGiven(), result="Flee"), TableRow(roll=RollRange.parse("1-2"), result="Stand")]
    assert [is_given(row) for row in rows] == [False, True]
    levy = gaps.profile("troops").row("levy")
    assert [is_given(levy["attack"]), is_given(levy["pts"])] == [False, True]


def test_is_given_is_listed_in_the_names_reference(gaps):
    listed = {signature.partition("(")[0]: line for _kind, signature, line in names_in(gaps, namespace_for(gaps))}
    assert "is_given" in listed and "not given" in listed["is_given"]


def test_a_formula_can_test_for_a_gap(tmp_path):
    text = (
        GAPS
        + """
formulas:
  crawl_or_none:
    title: The crawl, if the text gives it
    expr: crawl if is_given(crawl) else None
"""
    )
    result = check_project(make_project(tmp_path, game=text))
    assert result.diagnostics.errors == []
    ruleset = result.project.ruleset("game")
    assert calculator(ruleset).evaluate(ruleset.formula("crawl_or_none")) is None


def test_a_formula_reading_a_gap_names_the_value_and_the_texts_note(tmp_path):
    text = (
        GAPS
        + """
formulas:
  sweep_and_one:
    title: One more than the sweep
    expr: sweep + 1
"""
    )
    result = check_project(make_project(tmp_path, game=text))
    said = [d.message for d in result.diagnostics.errors]
    assert len(said) == 1 and "the text does not give the value `sweep` (a page is missing)" in said[0]


def test_the_points_hint_says_what_can_be_done(tmp_path):
    text = GAPS.replace("agreed_points: not given", "agreed_points: 30")
    result = check_project(make_project(tmp_path, game=text))
    [problem] = result.diagnostics.errors
    assert problem.code.value == "points-not-given"
    hint = problem.format().split("hint: ", 1)[1]
    assert "add a house value" not in hint and "agreed_points: not given" in hint


def test_the_sample_texts_gaps_are_still_gaps():
    """README "The sample rulesets": Rampant Hex's matrix, the City of the Damned injury ranges, Ordo's
    victory points, each `not given` in the data, are gaps in the model the outputs mark."""
    samples = sample_project()[0]  # the model the outputs are made from, as the check reads it
    troops = samples.ruleset("rampant_hex").profile("troops")
    assert isinstance(troops.row("heavy_foot")["attack"], NotGiven) and troops.row("heavy_foot")["pts"] == 5
    city = samples.ruleset("city_of_the_damned_combat")
    assert any(isinstance(row.roll, NotGiven) for table in city.tables for row in table.rows)
    ordo = samples.ruleset("ordo_ineptus")
    assert any(isinstance(vp.points, NotGiven) for vp in ordo.victory_points)


# A value the text does not give, when a formula uses it.


def test_a_value_the_text_does_not_give_says_so_when_used(tmp_path):
    from generator.model.calculate import NotGivenValue, calculator
    from generator.source.project import load_project

    folder = tmp_path / "rules_src" / "game"
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(
        "ruleset: {title: A game}\nvalues:\n  reach: {value: 3 hexes, label: Reach}\n"
        "  rally: {value: not given, label: Rally}\n",
        encoding="utf-8",
    )
    project, diagnostics = load_project(tmp_path)
    assert not diagnostics.errors, [d.format() for d in diagnostics.errors]
    values = calculator(project.ruleset("game")).values()
    assert values.reach == 3
    with pytest.raises(NotGivenValue, match="does not give the value `rally`"):
        values.rally + 1
    with pytest.raises(AttributeError, match="has no value `nothing`"):
        values.nothing


def test_a_missing_value_says_so_and_dunder_lookups_stay_plain():
    from generator.model.calculate import Values

    values = Values(move=6)
    assert values.move == 6
    with pytest.raises(AttributeError, match="^the ruleset has no value `charge`$"):
        values.charge
    with pytest.raises(AttributeError, match="^the ruleset has no value `mvoe`; did you mean `move`\\?$"):
        values.mvoe
    with pytest.raises(AttributeError, match="^__deepcopy_hook__$"):
        values.__deepcopy_hook__
