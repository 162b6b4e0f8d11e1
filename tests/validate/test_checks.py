"""Semantic checks on small projects: what they accept, and gaps in what they catch."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import MappingProxyType, SimpleNamespace

import pytest
from helpers import BROKEN, VALID_BASE, checked, make_project

from generator.cli import main
from generator.diagnostics import Code, Location
from generator.model import computed, entries
from generator.model.dice import DiceExpr, RollRange
from generator.model.entries import RollTable, TableRow
from generator.model.ruleset import Ruleset
from generator.render.handouts.content import keyword_named
from generator.validate import armies, check_project, checks, glossary, links, prose, references, sources, tables
from generator.validate.checks import CHECKS


def test_the_registered_checks():
    assert list(CHECKS) == [
        "references",
        "spells",
        "tables",
        "keywords",
        "declared_kinds",
        "declared_words",
        "version",
        "sources",
        "army_matrices",
        "upgrade_troops",
        "army_limits",
        "row_counts",
        "play_aids",
        "value_cells",
        "armies",
        "glossary_terms",
        "chapter_ids",
        "empty_chapters",
        "repeated_titles",
        "prose_links",
        "anchor_links",
        "gm_references",
        "audience",
        "quick_reference",
        "examples_assert",
        "formulas",
        "lookups",
        "charts",
        "sheets",
        "name_clashes",
        "prose_safety",
        "examples_stated",
        "example_sentences",
        "language",
    ]


def test_links_accept_explicit_titles_aliases_and_any_case(tmp_path):
    assert (
        checked(
            tmp_path,
            """
glossary:
  knocked_down: {term: Knocked Down, aliases: [Knocked over], definition: Lying down.}
rules:
  falling:
    title: Falling
    chapter: basics
    body: |
      See {rule}`the rule on falling <falling>`, {term}`knocked down` and {term}`Knocked Over`.
""",
        )
        == []
    )


def test_quotes_match_across_spacing_case_and_curly_quotes(tmp_path):
    assert (
        checked(
            tmp_path,
            """
rules:
  activating:
    title: Activating
    chapter: basics
    source: {section: BASICS, quote: "each UNIT   rolls one dice\\n when it activates"}
""",
        )
        == []
    )


def test_a_not_given_roll_range_skips_coverage(tmp_path):
    assert (
        checked(
            tmp_path,
            """
tables:
  unknown:
    title: Unknown ranges
    dice: D6
    rows:
      - {roll: not given, result: Something}
      - {roll: {not_given: the picture is lost}, result: Something else}
""",
        )
        == []
    )


def test_a_spell_on_its_table(tmp_path):
    assert (
        checked(
            tmp_path,
            """
tables:
  spells:
    title: Spells
    dice: D6
    rows:
      - {roll: 1-3, result: Fireball, ref: fireball}
      - {roll: 4-6, result: Mist}
spells:
  fireball: {name: Fireball, table: spells, roll: 1-3, effect: Burns.}
""",
        )
        == []
    )


def test_links_in_nested_prose_are_checked(tmp_path):
    found = checked(
        tmp_path,
        """
tables:
  t:
    title: T
    dice: D6
    rows:
      - {roll: 1-6, result: X, effect: "See {rule}`nowhere`."}
profiles:
  troops:
    title: Troops
    columns:
      pts: {label: PTS, type: points, min: 0}
    rows:
      levy: {name: Levy, pts: 2, note: "See {term}`Nothing`."}
""",
    )
    assert len(found) == 2


# A ruleset that breaks the play-aid, modified-table and {entry} rules: every problem is reported once,
# located at the value that causes it, with the message and hint its check states.

RULES = """\
ruleset: {title: Aids}
values:
  move: {value: 6", label: Move}
  courage: {value: 3, label: Courage}
glossary:
  wound_marker: {term: Wound marker, definition: A marker for a wound.}
chapters:
  basics: {title: Basics}
rules:
  moving:
    title: Moving
    chapter: basics
    body: Units move. See {entry}`spells.fireball` and {entry}`rule.moving`.
tables:
  unbounded:
    title: Unbounded
    dice: D6 + modifier
    rows:
      - {roll: 1-, result: Low}
      - {roll: 2-6, result: High}
  wide:
    title: Wide
    dice: D6 + modifier
    rows:
      - {roll: 1-, result: Low}
      - {roll: 2-20000, result: Middle}
      - {roll: 20001+, result: High}
profiles:
  troops:
    title: Troops
    movement: courage
    columns: {attack: {label: A}}
    rows:
      archer: {name: Archer, attack: 4, movement: nowhere}
    tracks:
      wounds: {label: Wounds, boxes: 13, term: wound_marker}
      hurts: {label: wounds, rule: moving}
      fear: {label: Fear}
      ghost: {label: Ghosts, term: spirit, rule: haunting}
      rally: {label: Rallied, rule: moving, turns: move}
      orders: {label: Orders, boxes: 5, per: turn, rule: moving, turns: courage}
      nerve: {label: Nerve, per: turn, rule: moving, turns: game_length}
"""


F = "rules_src/game/ruleset.yaml"


EXPECTED = [
    # line 13 is the body, on one line: each role is told where it is written
    f"{F}:13:27: error[unknown-ref]: spell `fireball` is not in `spells:`\n  hint: check the id against the entries of that section",
    f"{F}:13:56: error[unknown-ref]: `rule.moving` names no section: write {{entry}}`section.id`\n  hint: did you mean `rules`?",
    # `D6 + modifier` reaches any total: a `1-` row but nothing open upwards
    f"{F}:17:11: error[table-unbounded]: `D6 + modifier` can roll any total, but `unbounded` has no highest open row and no clamp\n"
    "  hint: add `clamp:` or open-ended rows such as `6+` and `1-`",
    f"{F}:25:7: error[too-large]: the rows of `wide` span 1 to 20,001; a modified table may span at most 10,000 results\n"
    "  hint: write open-ended rows such as `6+` and `1-` for the far ends",
    f'{F}:31:15: error[bad-value]: movement `courage` is 3, not a distance\n  hint: name a value written as a distance: 6", 2 hexes',
    f"{F}:34:51: error[unknown-ref]: movement `nowhere` is not in `values:`\n  hint: check the id against the entries of that section",
    f"{F}:36:38: error[out-of-range]: `wounds` asks for 13 boxes; a unit's row holds 1 to 12\n"
    "  hint: leave `boxes` out for an open count: a tally space is printed",
    f"{F}:37:22: error[duplicate-id]: `hurts` tracks 'wounds', as `wounds` already does\n  hint: track each thing once",
    f"{F}:38:7: error[missing-field]: `fear` says what is tracked but not where the rules say so\n"
    "  hint: name the glossary `term`, the `rule` or the `source` that makes players track it",
    f"{F}:39:36: error[unknown-ref]: term `spirit` is not in `glossary:`\n  hint: check the id against the entries of that section",
    f"{F}:39:50: error[unknown-ref]: rule `haunting` is not in `rules:`\n  hint: check the id against the entries of that section",
    f"{F}:40:52: error[bad-value]: `rally` prints its boxes once per turn (`turns`), but its marks stay all game\n"
    "  hint: write `per: turn`, or leave `turns` out",
    f'{F}:40:52: error[bad-value]: turns `move` is 6", not a whole number of turns\n'
    "  hint: name a value written as a count: 6 turns",
    f"{F}:41:73: error[out-of-range]: `orders` asks for 5 boxes in each of 3 turns, 15 in all; "
    "a unit's row holds 1 to 12\n  hint: leave `turns` out: one set of boxes is printed, rubbed out each turn",
    f"{F}:42:61: error[unknown-ref]: turns `game_length` is not in `values:`\n"
    "  hint: check the id against the entries of that section",
]


@pytest.fixture
def reported(tmp_path: Path, capsys) -> tuple[int, list[str], str]:
    (tmp_path / "rules_src" / "game").mkdir(parents=True)
    (tmp_path / "rules_src" / "game" / "ruleset.yaml").write_text(RULES, encoding="utf-8")
    code = main(["-C", str(tmp_path), "check", "--no-examples"])
    out, err = capsys.readouterr()
    return code, err.rstrip("\n").split("\nrules_src/"), out


def test_each_broken_play_aid_table_and_role_is_one_located_error(reported):
    code, found, out = reported
    assert code == 1
    assert [found[0], *("rules_src/" + d for d in found[1:])] == EXPECTED
    assert out == "1 ruleset, 2 tables, 1 profile row, 0 examples, 15 errors\n"


def test_the_lines_named_are_those_of_the_values():
    """Each location points at the text it complains about (the oracle for the positions above)."""
    lines = RULES.splitlines()
    needles = [
        "{entry}`spells.fireball`",
        "{entry}`rule.moving`",
        "D6 + modifier",
        "- {roll: 1-",
        "courage",
        "nowhere",
        "13",
        "wounds",
        "fear:",
        "spirit",
        "haunting",
        "move}",
        "move}",
        "courage}",
        "game_length}",
    ]
    for diagnostic, needle in zip(EXPECTED, needles, strict=True):
        line, column = (int(n) for n in diagnostic.split(":")[1:3])
        assert lines[line - 1][column - 1 :].startswith(needle), (diagnostic, lines[line - 1])


# The checks' parts on hand-made rulesets. Expected messages, spans and locations are written by hand
# from the tables and texts below.

ROWS_LOC = Location("t.yaml", 2, 1)


def _table(dice: str, rolls: list[str], clamp: str | None = None) -> RollTable:
    rows = tuple(
        TableRow(
            roll=RollRange.parse(roll),
            result=f"r{index}",
            locs=MappingProxyType({"roll": Location("t.yaml", 10 + index, 1)}),
        )
        for index, roll in enumerate(rolls)
    )
    return RollTable(
        title="T",
        id="t",
        dice=DiceExpr.parse(dice),
        rows=rows,
        clamp=RollRange.parse(clamp) if clamp else None,
        locs=MappingProxyType({"dice": Location("t.yaml", 1, 1), "rows": ROWS_LOC}),
    )


def _found(diagnostics):
    return [(d.code, d.message, d.location, d.hint) for d in diagnostics]


WIDE_HINT = "write open-ended rows such as `6+` and `1-` for the far ends"


def test_a_modified_table_whose_rows_spread_too_far_is_refused_where_its_rows_are():
    # 0 to 10,001: one result more than the 10,000 a modified table may span
    assert _found(tables.table_coverage(_table("D6 + S", ["0-", "1-10000", "10001+"]))) == [
        (
            Code.TOO_LARGE,
            "the rows of `t` span 0 to 10,001; a modified table may span at most 10,000 results",
            ROWS_LOC,
            WIDE_HINT,
        )
    ]
    # exactly 10,000 results apart is allowed, and the table is whole
    assert tables.table_coverage(_table("D6 + S", ["0-", "1-9999", "10000+"])) == []
    # the rows' spread counts, not how large their numbers are: 5,999 to 6,000 is one result apart
    assert tables.table_coverage(_table("D6 + S", ["5999-", "6000+"])) == []


def test_open_rows_that_overlap_are_told_over_one_total_beyond_every_written_number():
    # written numbers 0 to 2: the totals read are -1 to 3, so `0-` covers -1 and 0 that `1-` covered
    assert _found(tables.table_coverage(_table("D6 + S", ["1-", "0-", "2+"]))) == [
        (
            Code.TABLE_OVERLAP,
            "row `0-` of `t` covers -1-0 again, as row `1-` at 10:1 does",
            Location("t.yaml", 11, 1),
            "make the row ranges disjoint",
        )
    ]
    # written numbers 4 to 6: the totals read are 3 to 7, so `6+` covers 6 and 7 that `5+` covered
    assert _found(tables.table_coverage(_table("D6 + S", ["4-", "5+", "6+"]))) == [
        (
            Code.TABLE_OVERLAP,
            "row `6+` of `t` covers 6-7 again, as row `5+` at 11:1 does",
            Location("t.yaml", 12, 1),
            "make the row ranges disjoint",
        )
    ]


def _ruleset(unloaded=(), **sections) -> Ruleset:
    return Ruleset(id="x", meta=None, unloaded=frozenset(unloaded), **sections)


def test_an_id_that_failed_to_load_in_another_section_is_still_an_unknown_reference():
    loc = Location("a.yaml", 3, 5)
    costs = (SimpleNamespace(id="banner"),)
    # `ghost` failed to load as a hero, not as a cost: naming it as a cost is an error
    assert _found(
        [references.unknown_ref(_ruleset({("heroes", "ghost")}, costs=costs), "costs", "ghost", loc, "extra")]
    ) == [(Code.UNKNOWN_REF, "extra `ghost` is not in `costs:`", loc, None)]
    # failed to load as a cost: its own error is told, not this one
    assert references.unknown_ref(_ruleset({("costs", "ghost")}, costs=costs), "costs", "ghost", loc, "extra") is None
    assert references.unknown_ref(_ruleset(costs=costs), "costs", "banner", loc, "extra") is None


def test_an_army_is_refused_for_its_matrix_only_when_the_matrix_itself_failed_to_load():
    matrix_loc = Location("a.yaml", 7, 13)
    matrix = SimpleNamespace(id="m", rows=(SimpleNamespace(id="man"),))
    army = SimpleNamespace(
        id="host",
        matrix="m",
        extras=(),
        units=[],
        locs=MappingProxyType({"matrix": matrix_loc}),
        loc=Location("a.yaml", 6, 3),
    )
    # a hero `m` failed to load; the matrix `m` loaded, so the army is checked (and is fine)
    assert list(armies._matrix_refs(_ruleset({("heroes", "m")}, profiles=(matrix,)), army)) == []
    assert _found(armies._matrix_refs(_ruleset({("profiles", "m")}), army)) == [
        (
            Code.UNKNOWN_REF,
            "matrix `m` has errors of its own, so `host` cannot be checked",
            matrix_loc,
            "fix the matrix first",
        )
    ]


def test_an_entry_is_for_the_game_master_by_its_audience_or_by_saying_so_itself():
    from generator.model.entries import VictoryPoints, gm_only

    assert gm_only(SimpleNamespace(audience="gm")) is True
    # a hidden task is the game-master's whatever its audience says
    assert gm_only(VictoryPoints(id="relic", name="Relic", kind="task", hidden=True)) is True
    assert gm_only(VictoryPoints(id="flag", name="Flag", kind="task")) is False
    assert gm_only(SimpleNamespace(audience="player")) is False
    assert gm_only(SimpleNamespace(id="row")) is False  # no audience, no gm_only: everyone's


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
        expr=Expression.parse("half + base + tbl(half)"),
    )
    assert computed.computes_with(formula) == {"bonus", "other", "base", "tbl"}
    assert computed.computes_with(SimpleNamespace(inputs=(), let=(), expr=Expression.parse("a + f(b)"))) == {
        "a",
        "b",
        "f",
    }
    several = SimpleNamespace(  # a formula of several results computes with what each of them reads
        inputs=(),
        let=(),
        expr=None,
        results=(
            SimpleNamespace(expr=Expression.parse("kills + 1")),
            SimpleNamespace(expr=Expression.parse("rout(2)")),
        ),
    )
    assert computed.computes_with(several) == {"kills", "rout"}


def test_prose_in_a_list_of_lines_is_found_at_the_line_written():
    loc = Location("r.yaml", 4, 7)
    entry = SimpleNamespace(
        id="e",
        locs=MappingProxyType({"lines[1]": loc}),
        lines=("no role here", "see {rule}`a`", "and {term}`b`"),
        body="plain",
    )
    # the second line's own place was recorded; the third's was not, so it is placed at the list
    assert list(links.prose_fields(entry)) == [(entry, "lines[1]", "see {rule}`a`"), (entry, "lines", "and {term}`b`")]


def test_a_quote_is_compared_with_plain_quotes_single_spaces_and_any_case():
    assert sources._normal("It’s  ‘The’\n“Rule”") == "it's 'the' \"rule\""
    assert sources._normal("“Charge!”  ’tis") == '"charge!" \'tis'


def test_a_section_name_is_compared_with_plain_quotes_and_single_spaces_in_its_case():
    from generator.validate.sections import plain

    assert plain("The “Last”  Stand’s\nend") == 'The "Last" Stand\'s end'
    assert plain("‘Orders’") == "'Orders'"


def test_a_glossary_term_reads_as_its_words_in_lower_case_with_single_spaces():
    assert glossary._term_key("Fire\u00a0 BALL") == "fire ball"
    assert glossary._term_key(" Shield\twall ") == "shield wall"


def test_the_rows_and_parts_of_an_entry_that_have_a_place_can_cite_a_source():
    part = SimpleNamespace(locs={}, source=None)
    first, second = SimpleNamespace(locs={}, parts=(part,)), SimpleNamespace(locs={})
    entry = SimpleNamespace(
        locs={}, rows=(first, second), see_also=("a", "b"), notes=(SimpleNamespace(text="no place"),), numbers=(1, 2)
    )
    assert list(sources._cited(entry)) == [entry, first, part, second]


# Check registration, locations, keywords, markdown fields and armies, on hand-made rulesets; columns and
# messages counted by hand in the texts below (0-based, as Finding reports them).


def test_a_keyword_splits_from_its_trailing_numbers():
    from generator.model.entries import split_keyword

    assert split_keyword("Poison") == ("Poison", ())
    assert split_keyword("Fear 2") == ("Fear", ("2",))
    assert split_keyword("Regenerate 4 -1") == ("Regenerate", ("4", "-1"))
    assert split_keyword("7") == ("7", ())  # a lone number is the keyword's name, not its parameter
    assert split_keyword("Big 2 Gun 3") == ("Big 2 Gun", ("3",))


def test_markdown_fields_are_found_inside_optional_and_union_types():
    from typing import Optional, Union

    from generator.model.base import Markdown

    assert prose._is_markdown(Markdown)
    assert prose._is_markdown(Optional[Markdown])
    assert prose._is_markdown(Union[int, tuple[Markdown, ...]])
    assert not prose._is_markdown(str) and not prose._is_markdown(Optional[int])


def test_a_check_registers_under_its_name_without_the_prefix():

    def check_mutation_probe(ruleset, diagnostics):
        return None

    try:
        assert checks.check(check_mutation_probe) is check_mutation_probe
        assert checks.CHECKS["mutation_probe"] is check_mutation_probe
        assert "check_mutation_probe" not in checks.CHECKS
    finally:
        checks.CHECKS.pop("mutation_probe", None)


def test_a_rulesets_problems_are_its_checks_then_its_mechanics(monkeypatch, tmp_path):
    import generator.validate as validate

    monkeypatch.setattr(validate, "run_checks", lambda ruleset: iter([f"check of {ruleset}"]))
    monkeypatch.setattr(
        validate, "mechanics_problems", lambda root, ruleset: (f"mechanics of {ruleset} in {root.name}",)
    )
    assert validate.check_ruleset(tmp_path, "abc") == ["check of abc", f"mechanics of abc in {tmp_path.name}"]


def test_a_location_names_the_item_of_a_list_when_it_was_written():
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location
    from generator.model.base import item_loc

    item0, item2, rows, entry = (Location("r.yaml", n) for n in (10, 12, 9, 1))
    owner = SimpleNamespace(loc=entry, locs=MappingProxyType({"rows[0]": item0, "rows[2]": item2, "rows": rows}))
    assert item_loc(owner, "rows", 2) == item2 and item_loc(owner, "rows", 0) == item0
    assert item_loc(owner, "rows", 5) == rows and item_loc(owner, "rows") == rows and item_loc(owner, "cols") == entry


def test_a_bare_id_prefers_the_game_masters_entry():
    from types import SimpleNamespace

    from generator.validate.audience import _any_entry

    player, gm, other = (
        SimpleNamespace(id="ambush", audience="player"),
        SimpleNamespace(id="ambush", audience="gm"),
        SimpleNamespace(id="other", audience="player"),
    )
    ruleset = SimpleNamespace(all_entries=lambda: [("rules", other), ("rules", player), ("glossary", gm)])
    assert _any_entry(ruleset, "ambush") is gm
    assert _any_entry(SimpleNamespace(all_entries=lambda: [("rules", other), ("rules", player)]), "ambush") is player
    assert _any_entry(ruleset, "nothing") is None


ARMY_REFS = """profiles:
  broken:
    columns:
      pts: {label: Pts, type: points, min: 0}
    rows:
      ogre: {name: Ogre, pts: 5}
  troops:
    title: Troops
    columns:
      pts: {label: Pts, type: points, min: 0}
    rows:
      man: {name: Man, pts: 5}
armies:
  host:
    title: Host
    matrix: broken
    agreed_points: 10
    units:
      - {troop: ogre, count: 1, points: 5}
  band:
    title: Band
    matrix: troops
    agreed_points: 10
    units:
      - {troop: man, count: 1, points: 5,  spells: [nope]}
"""


def test_an_army_on_a_matrix_that_did_not_load_is_not_checked_further(tmp_path):

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(BROKEN / "_base", folder)
    (folder / "case.yaml").write_text(ARMY_REFS, encoding="utf-8")
    found = [
        (d.code, d.message, d.location.line, d.location.column, d.hint) for d in check_project(tmp_path).diagnostics
    ]
    # 1-based line:column counted by hand in ARMY_REFS
    assert found == [
        (Code.MISSING_FIELD, "profile matrix `broken` needs the field `title`", 2, 3, "title: The matrix's heading."),
        (
            Code.UNKNOWN_REF,
            "matrix `broken` has errors of its own, so `host` cannot be checked",
            16,
            13,
            "fix the matrix first",
        ),
        (Code.UNKNOWN_REF, "spell `nope` is not in `spells:`", 25, 53, None),
    ]


MARKDOWN_CASE = """tables:
  t:
    title: T
    dice: D6
    rows:
      - {roll: 1-3, result: X, effect: "Row one."}
      - {roll: 4-6, result: Y}
sheets:
  s:
    title: S
    charts: []
    notes: ["First.", "Second."]
"""


def test_markdown_texts_reach_rows_and_each_item_of_a_list(tmp_path):

    from generator.source.project import load_project

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(BROKEN / "_base", folder)
    (folder / "case.yaml").write_text(MARKDOWN_CASE, encoding="utf-8")
    project, diagnostics = load_project(tmp_path)
    assert list(diagnostics) == []
    ruleset = project.rulesets[0]

    def texts(section, id):
        return [(text, loc.line, loc.column) for text, loc in prose.markdown_texts(ruleset.get(section, id))]

    # 1-based line:column counted by hand in MARKDOWN_CASE; a field left out is "" at its owner's place
    assert texts("tables", "t") == [("", 2, 3), ("Row one.", 6, 40), ("", 7, 9)]
    assert texts("sheets", "s") == [("First.", 12, 13), ("Second.", 12, 23)]
    assert list(prose.markdown_texts(ruleset.get("sheets", "s").__class__)) == []  # a class is not an entry
    assert list(prose.markdown_texts("text")) == []


HEAD_COUNT = """profiles:
  troops:
    title: Troops
    columns:
      models: {label: Models, type: models, min: 1}
      pts: {label: Pts, type: points, min: 0}
    rows:
      man: {name: Man, models: 3, pts: 5}
      odd: {name: Odd, models: not given, pts: 5}
  plain:
    title: Plain
    columns:
      pts: {label: Pts, type: points, min: 0}
    rows:
      elf: {name: Elf, pts: 5}
armies:
  host:
    title: Host
    matrix: troops
    agreed_models: 20
    units:
      - {troop: man, count: 2, points: 10, models: 5}
      - {troop: odd, count: 1, points: 5}
  band:
    title: Band
    matrix: plain
    agreed_models: 20
    units:
      - {troop: elf, count: 1, points: 5}
"""


def test_a_head_count_armys_models_are_checked_line_by_line(tmp_path):

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(BROKEN / "_base", folder)
    (folder / "case.yaml").write_text(HEAD_COUNT, encoding="utf-8")
    found = [
        (d.code, d.message, d.location.line, d.location.column, d.hint) for d in check_project(tmp_path).diagnostics
    ]
    # 1-based line:column counted by hand in HEAD_COUNT; 2 men of 3 models each are 6
    assert found == [
        (
            Code.ARMY_MATRICES,
            "`x` chooses armies from 2 profile matrices (troops, plain): the army builder works from one, so the "
            "site has none, and every army limit counts each army alike",
            10,
            3,
            None,
        ),
        (Code.POINTS_MISMATCH, "2x man is 6 models, not 5", 22, 52, "2 x 3 = 6"),
        (
            Code.MISSING_FIELD,
            "`host` is balanced by head-count, but the models of `odd` are not known",
            23,
            17,
            "`troops` says `not given`: state the line's models, as in `models: 10`",
        ),
        (
            Code.MISSING_FIELD,
            "`band` is balanced by head-count, but the models of `elf` are not known",
            29,
            17,
            "`plain` has no `models` column: state the line's models, as in `models: 10`",
        ),
    ]


def _army(matrix="m", extras=(), upgrades=(), heroes=(), spells=()):
    from types import SimpleNamespace

    unit = SimpleNamespace(troop="t", upgrades=upgrades, heroes=heroes, spells=spells)
    return SimpleNamespace(
        matrix=matrix, extras=extras, units=[SimpleNamespace(troop="u", upgrades=(), heroes=(), spells=()), unit]
    )


@pytest.mark.parametrize(
    "unloaded, army, expected",
    [
        ({("profiles", "m")}, _army(), False),  # the matrix is the whole list's (refused as such), not the line's
        ({("costs", "banner")}, _army(extras=("banner",)), False),  # an extra is the list's, not the line's
        ({("costs", "banner")}, _army(upgrades=("banner",)), True),
        ({("heroes", "h")}, _army(heroes=("h",)), True),
        ({("spells", "s")}, _army(spells=("s",)), True),
        ({("profile rows", "m.t")}, _army(), True),  # the row of its troop `t`
        (set(), _army(extras=("banner",), upgrades=("banner",), heroes=("h",), spells=("s",)), False),
        # the same id failing in another section is not this line's
        (
            {("heroes", "m"), ("spells", "banner"), ("costs", "h"), ("profiles", "s"), ("profile rows", "other.t")},
            _army(extras=("banner",), upgrades=("banner",), heroes=("h",), spells=("s",)),
            False,
        ),
    ],
)
def test_a_line_names_an_unloaded_entry_only_in_that_entrys_section(unloaded, army, expected):
    from generator.model.ruleset import Ruleset
    from generator.validate.armies import _unit_unloaded

    assert _unit_unloaded(Ruleset(id="x", meta=None, unloaded=frozenset(unloaded)), army, army.units[1]) is expected


def test_an_empty_rules_file_hides_no_entries_so_the_other_files_are_still_checked(tmp_path):
    """Only a file that does not read stops its ruleset's checks (what it holds is unknown); an empty one holds
    nothing, so a wrong reference elsewhere is still reported beside it."""
    from generator.validate import check_project

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(VALID_BASE, folder)
    (folder / "case.yaml").write_text(
        "rules:\n  r:\n    title: R\n    chapter: nowhere\n    body: Text.\n", encoding="utf-8"
    )
    (folder / "empty.yaml").write_text("# nothing yet\n", encoding="utf-8")
    lines = [d.format().splitlines()[0] for d in check_project(tmp_path).diagnostics]
    assert lines == [
        "rules_src/x/case.yaml:4:14: error[unknown-ref]: chapter `nowhere` is not in `chapters:`",
        "rules_src/x/empty.yaml:1:1: error[empty-file]: the file has no content",
    ]


@pytest.mark.parametrize(("length", "told"), [(40, False), (41, True)])
def test_a_version_of_forty_characters_fits_the_footer_and_one_more_does_not(tmp_path, length, told):
    root = tmp_path / "project"
    (root / "rules_src" / "game").mkdir(parents=True)
    (root / "rules_src" / "game" / "ruleset.yaml").write_text(f"ruleset:\n  title: A game\n  version: {'v' * length}\n")
    found = [d.message for d in check_project(root).diagnostics if "`version`" in d.message]
    assert found == ([f"`version` has {length} characters; at most 40 fit a printout's footer"] if told else [])


FACTION_CORE = """\
ruleset: {title: Hammerfall}
keywords:
  shoots: {name: SHOOTS, params: [range], definition: The unit may shoot this far.}
"""
FACTION = """\
ruleset: {title: "Hammerfall: the Dwarfs", extends: core}
profiles:
  dwarfs:
    title: Dwarfs
    columns:
      pts: {label: Pts, type: points, min: 0}
    rows:
      thunderers: {name: Thunderers, pts: 90, keywords: [SHOOTS 24]}
      rangers: {name: Rangers, pts: 80, keywords: [SHOOT 18]}
"""


def test_a_ruleset_uses_the_keywords_of_the_one_it_extends(tmp_path):
    """A faction's own ruleset beside its game's shared one: the core's keywords are the faction's too."""
    result = check_project(make_project(tmp_path, core=FACTION_CORE, dwarfs=FACTION))
    found = [(d.code.code, d.message, d.hint) for d in result.diagnostics]
    assert found == [("unknown-keyword", "`SHOOT` is not declared in `keywords:`", "did you mean `SHOOTS`?")]
    dwarfs = result.project.ruleset("dwarfs")
    assert keyword_named(dwarfs, "shoots").definition == "The unit may shoot this far."
