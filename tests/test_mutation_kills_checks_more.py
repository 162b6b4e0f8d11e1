"""More focused tests of the checks in generator/validate/ that kill mutmut survivors (see docs/survivors/checks.md).

Expected messages, spans and locations are written by hand from the tables and texts below.
"""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

from generator.diagnostics import Code, Location
from generator.model import computed, entries
from generator.model.dice import DiceExpr, RollRange
from generator.model.entries import RollTable, TableRow
from generator.model.ruleset import Ruleset
from generator.validate import armies, glossary, links, references, sources, tables

ROWS_LOC = Location("t.yaml", 2, 1)


def _table(dice: str, rolls: list[str], clamp: str | None = None) -> RollTable:
    rows = tuple(TableRow(roll=RollRange.parse(roll), result=f"r{index}",
                          locs=MappingProxyType({"roll": Location("t.yaml", 10 + index, 1)}))
                 for index, roll in enumerate(rolls))
    return RollTable(title="T", id="t", dice=DiceExpr.parse(dice), rows=rows, clamp=RollRange.parse(clamp) if clamp else None,
                     locs=MappingProxyType({"dice": Location("t.yaml", 1, 1), "rows": ROWS_LOC}))


def _found(diagnostics):
    return [(d.code, d.message, d.location, d.hint) for d in diagnostics]


# -- a modified table: how wide its rows may spread, and the window of totals it reads -------------------

WIDE_HINT = "write open-ended rows such as `6+` and `1-` for the far ends"


def test_a_modified_table_whose_rows_spread_too_far_is_refused_where_its_rows_are():
    # 0 to 10,001: one result more than the 10,000 a modified table may span
    assert _found(tables.table_coverage(_table("D6 + S", ["0-", "1-10000", "10001+"]))) == [
        (Code.TOO_LARGE, "the rows of `t` span 0 to 10,001; a modified table may span at most 10,000 results", ROWS_LOC,
         WIDE_HINT)]
    # exactly 10,000 results apart is allowed, and the table is whole
    assert tables.table_coverage(_table("D6 + S", ["0-", "1-9999", "10000+"])) == []
    # the rows' spread counts, not how large their numbers are: 5,999 to 6,000 is one result apart
    assert tables.table_coverage(_table("D6 + S", ["5999-", "6000+"])) == []


def test_open_rows_that_overlap_are_told_over_one_total_beyond_every_written_number():
    # written numbers 0 to 2: the totals read are -1 to 3, so `0-` covers -1 and 0 that `1-` covered
    assert _found(tables.table_coverage(_table("D6 + S", ["1-", "0-", "2+"]))) == [
        (Code.TABLE_OVERLAP, "row `0-` of `t` covers -1-0 again", Location("t.yaml", 11, 1), "make the row ranges disjoint")]
    # written numbers 4 to 6: the totals read are 3 to 7, so `6+` covers 6 and 7 that `5+` covered
    assert _found(tables.table_coverage(_table("D6 + S", ["4-", "5+", "6+"]))) == [
        (Code.TABLE_OVERLAP, "row `6+` of `t` covers 6-7 again", Location("t.yaml", 12, 1), "make the row ranges disjoint")]


# -- references to entries that failed to load --------------------------------------------------------

def _ruleset(unloaded=(), **sections) -> Ruleset:
    return Ruleset(id="x", meta=None, unloaded=frozenset(unloaded), **sections)


def test_an_id_that_failed_to_load_in_another_section_is_still_an_unknown_reference():
    loc = Location("a.yaml", 3, 5)
    costs = (SimpleNamespace(id="banner"),)
    # `ghost` failed to load as a hero, not as a cost: naming it as a cost is an error
    assert _found([references.unknown_ref(_ruleset({("heroes", "ghost")}, costs=costs), "costs", "ghost", loc, "extra")]) == [
        (Code.UNKNOWN_REF, "extra `ghost` is not in `costs:`", loc, None)]
    # failed to load as a cost: its own error is told, not this one
    assert references.unknown_ref(_ruleset({("costs", "ghost")}, costs=costs), "costs", "ghost", loc, "extra") is None
    assert references.unknown_ref(_ruleset(costs=costs), "costs", "banner", loc, "extra") is None


def test_an_army_is_refused_for_its_matrix_only_when_the_matrix_itself_failed_to_load():
    matrix_loc = Location("a.yaml", 7, 13)
    matrix = SimpleNamespace(id="m", rows=(SimpleNamespace(id="man"),))
    army = SimpleNamespace(id="host", matrix="m", extras=(), units=[], locs=MappingProxyType({"matrix": matrix_loc}),
                           loc=Location("a.yaml", 6, 3))
    # a hero `m` failed to load; the matrix `m` loaded, so the army is checked (and is fine)
    assert list(armies._army_refs(_ruleset({("heroes", "m")}, profiles=(matrix,)), army)) == []
    assert _found(armies._army_refs(_ruleset({("profiles", "m")}), army)) == [
        (Code.UNKNOWN_REF, "matrix `m` has errors of its own, so `host` cannot be checked", matrix_loc, "fix the matrix first")]


# -- who an entry is for ----------------------------------------------------------------------------

def test_an_entry_is_for_the_game_master_by_its_audience_or_by_saying_so_itself():
    from generator.model.entries import VictoryPoints, gm_only

    assert gm_only(SimpleNamespace(audience="gm")) is True
    # a hidden task is the game-master's whatever its audience says
    assert gm_only(VictoryPoints(id="relic", name="Relic", kind="task", hidden=True)) is True
    assert gm_only(VictoryPoints(id="flag", name="Flag", kind="task")) is False
    assert gm_only(SimpleNamespace(audience="player")) is False
    assert gm_only(SimpleNamespace(id="row")) is False  # no audience, no gm_only: everyone's


# -- what a limit, a formula and prose name ------------------------------------------------------------

def test_a_limit_names_the_counts_its_expression_uses_and_nothing_else():
    assert entries.limit_names("units // 2 + heroes") == {"units", "heroes"}
    assert entries.limit_names(3) == set()
    assert entries.limit_names("  ") == set()  # a bound the limit does not have
    assert entries.limit_names("heroes = 2") == set()  # a statement, not an expression: the limits check reports it


def test_a_formula_names_what_its_expression_and_steps_use_but_not_its_own_inputs_and_steps():
    from generator.model.formula import Expression

    formula = SimpleNamespace(
        inputs=(SimpleNamespace(id="s"),),
        let=(SimpleNamespace(id="half", expr=Expression.parse("s // 2 + bonus + other(s)")),),
        expr=Expression.parse("half + base + tbl(half)"))
    assert computed.computes_with(formula) == {"bonus", "other", "base", "tbl"}
    assert computed.computes_with(SimpleNamespace(inputs=(), let=(), expr=Expression.parse("a + f(b)"))) == {"a", "b", "f"}


def test_prose_in_a_list_of_lines_is_found_at_the_line_written():
    loc = Location("r.yaml", 4, 7)
    entry = SimpleNamespace(id="e", locs=MappingProxyType({"lines[1]": loc}),
                            lines=("no role here", "see {rule}`a`", "and {term}`b`"), body="plain")
    # the second line's own place was recorded; the third's was not, so it is placed at the list
    assert list(links.prose_fields(entry)) == [(entry, "lines[1]", "see {rule}`a`"), (entry, "lines", "and {term}`b`")]


# -- how a quote and a glossary term are compared ------------------------------------------------------

def test_a_quote_is_compared_with_plain_quotes_single_spaces_and_any_case():
    assert sources._normal("It’s  ‘The’\n“Rule”") == "it's 'the' \"rule\""
    assert sources._normal("“Charge!”  ’tis") == "\"charge!\" 'tis"


def test_a_glossary_term_reads_as_its_words_in_lower_case_with_single_spaces():
    assert glossary._term_key("Fire\u00a0 BALL") == "fire ball"
    assert glossary._term_key(" Shield\twall ") == "shield wall"


# -- the parts of an entry that can cite a source --------------------------------------------------------

def test_the_rows_and_parts_of_an_entry_that_have_a_place_can_cite_a_source():
    part = SimpleNamespace(locs={}, source=None)
    first, second = SimpleNamespace(locs={}, parts=(part,)), SimpleNamespace(locs={})
    entry = SimpleNamespace(locs={}, rows=(first, second), see_also=("a", "b"), notes=(SimpleNamespace(text="no place"),),
                            numbers=(1, 2))
    assert list(sources._cited(entry)) == [entry, first, part, second]
