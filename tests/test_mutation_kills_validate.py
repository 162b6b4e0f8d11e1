"""Focused tests that kill mutmut survivors in validation (see docs/mutation-survivors.md).

Columns and messages are counted by hand in the texts below (0-based, as Finding reports them).
"""

from __future__ import annotations

import pytest

from generator.diagnostics import Code
from generator.validate import computed, prose
from generator.validate.prose import prose_findings

LINK_HINT = "link to an http(s) address or, with a role such as {rule}`id`, to an entry of the rules"


def test_shortened_text_keeps_sixty_characters():
    assert prose._short("a  b\n c") == "a b c"
    assert prose._short("x" * 60) == "x" * 60
    assert prose._short("x" * 61) == "x" * 59 + "…"
    assert prose._short("abcdef", limit=5) == "abcd…"
    assert prose._short(12) == "12"


def test_only_web_mail_and_anchor_links_are_allowed():
    for href in ("#rules", "http://a.org", "https://a.org", "mailto:a@b.org", "HTTPS://A.ORG", "ht tps://a.org", " #x"):
        assert prose._allowed_link(href), href
    for href in ("javascript:x", "file:///etc", "data:x", "../a.md", "a.md", "/etc/passwd", "ftp://a.org", "", "http:/a"):
        assert not prose._allowed_link(href), href


def test_a_refused_link_is_found_where_it_is_written():
    found = prose_findings("a [x](javascript:alert(1)) b")
    assert [(f.code, f.message, f.line, f.column, f.hint) for f in found] == [
        (Code.PROSE_LINK, "a link to `javascript:alert(1)`", 0, 6, LINK_HINT)]
    found = prose_findings("line\n\n[y](file:///etc/passwd)")
    assert [(f.line, f.column) for f in found] == [(2, 4)]


def test_the_link_is_sought_as_written_unquoted_or_by_its_scheme():
    lines = ["see [a](<java script:x>) here"]
    assert prose._link_needle("java%20script:x", lines, [0, 0]) == "java script:x"
    assert prose._link_needle("java script:x", lines, [0, 0]) == "java script:x"
    lines = ["[a](JAVASCRIPT:x&amp;y)"]
    assert prose._link_needle("JAVASCRIPT:x&y", lines, [0, 0]) == "JAVASCRIPT:"
    assert prose._link_needle("nothing:here", ["[a](b)"], [0, 0]) == "]("
    assert prose._link_needle("x:y", ["x:y", "later"], [1, 0]) == "]("  # only from the cursor's line on
    found = prose_findings("one [a](<java script:x>)")
    assert [(f.line, f.column) for f in found] == [(0, 9)]


def test_inputs_are_shown_as_names_and_values():
    assert computed._shown({}) == "no inputs"
    assert computed._shown({"S": 4, "T": 3}) == "S=4, T=3"
    assert computed._shown({"a": "x"}) == "a=x"


def test_a_keyword_splits_from_its_trailing_numbers():
    from generator.validate.checks import split_keyword

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
    from generator.validate import checks

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
    monkeypatch.setattr(validate, "mechanics_problems", lambda root, ruleset: (f"mechanics of {ruleset} in {root.name}",))
    assert validate.check_ruleset(tmp_path, "abc") == ["check of abc", f"mechanics of abc in {tmp_path.name}"]


# -- chart axes, on stand-ins for the chart and its axes (only these attributes are read) -------------

def _written(value):
    """An axis value as the loader gives it: a quantity (a word is text)."""
    from generator.model.quantity import Quantity

    return Quantity("text", value) if isinstance(value, str) else Quantity("number", value)


def _axis(values=(), low=None, high=None, ranged=True, input="x"):
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location

    span = SimpleNamespace(low=low, high=high) if ranged else None
    return SimpleNamespace(values=tuple(_written(v) for v in values), range=span, input=input, loc=Location("rules_src/r/charts.yaml", 3),
                           locs=MappingProxyType({"values": Location("rules_src/r/charts.yaml", 7, 11)}))


def test_an_axis_takes_its_values_or_its_whole_range():
    from generator.validate.computed import axis_values

    assert axis_values(None, _axis(low=2, high=4)) == [2, 3, 4]
    assert axis_values(None, _axis(low=None, high=4)) == []
    assert axis_values(None, _axis(low=2, high=None)) == []
    assert axis_values(None, _axis(ranged=False)) == []
    assert axis_values(None, _axis(values=("a", "cover + moving"), low=1, high=2), {"cover": 1, "moving": 2}) == ["a", 3]


def test_an_axis_word_is_computed_only_when_every_name_it_uses_is_a_value():
    from generator.validate.computed import _axis_value

    assert _axis_value(_written("cover + moving"), {"cover": 1, "moving": 2}) == 3
    assert _axis_value(_written("cover + moving"), {"cover": 1, "moving": 2, "other": 5}) == 3
    assert _axis_value(_written("cover + wind"), {"cover": 1}) == "cover + wind"
    assert _axis_value(_written("cover +"), {"cover": 1}) == "cover +"
    assert _axis_value(_written("cover"), None) == "cover"
    assert _axis_value(_written(4), {"cover": 1}) == 4


def test_every_cell_of_a_chart_gets_its_row_column_and_fixed_inputs():
    from types import SimpleNamespace

    from generator.validate.computed import chart_cells

    chart = SimpleNamespace(fixed=(SimpleNamespace(id="range", value=_written(12)),),
                            rows=_axis(values=("cover",), input="row"), columns=_axis(values=("cover", "open"), input="col"))
    assert list(chart_cells(chart, {"cover": 2})) == [{"col": 2, "range": 12, "row": 2}, {"col": "open", "range": 12, "row": 2}]
    one_row = SimpleNamespace(fixed=(), rows=None, columns=_axis(low=1, high=2, input="col"))
    assert list(chart_cells(one_row)) == [{"col": 1}, {"col": 2}]


def test_an_axis_value_that_does_not_compute_is_a_located_chart_error():
    from types import SimpleNamespace

    from generator.diagnostics import Code, Location
    from generator.validate.computed import _axis_ok

    found = []
    chart = SimpleNamespace(id="to_hit")
    assert _axis_ok(chart, _axis(values=("a / 0",)), SimpleNamespace(scope={"a": 1}), found, "rows") is False
    assert [(d.code, d.message, d.location) for d in found] == [
        (Code.BAD_CHART, "a value of the rows of `to_hit` does not compute: `a / 0` divides by zero",
         Location("rules_src/r/charts.yaml", 7, 11))]
    assert _axis_ok(chart, _axis(values=("a + 1",)), SimpleNamespace(scope={"a": 1}), found, "rows") is True
    assert len(found) == 1


def test_prose_is_read_without_its_worked_examples_and_markup():
    from generator.validate.checks import _readable

    text = "Roll a die.\n```python\n>>> 1 + 1\n2\n```\nThen   {term}`hit <hits>` it.\n~~~\nx\n~~~\nEnd."
    assert _readable(text) == "Roll a die. Then hit it. End."


def _chart(rows=None, columns=None, fixed=(), formula="to_wound", chance=""):
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location

    at = Location("rules_src/r/charts.yaml", 20)
    locs = MappingProxyType({"formula": Location("rules_src/r/charts.yaml", 21, 14),
                             "chance": Location("rules_src/r/charts.yaml", 22, 13)})
    return SimpleNamespace(id="wounds", formula=formula, chance=chance, result="", rows=rows, columns=columns,
                           fixed=tuple(fixed), loc=at, locs=locs)


def _labelled(axis, input, labels=()):
    from types import MappingProxyType

    from generator.diagnostics import Location

    axis.input, axis.labels = input, tuple(labels)
    axis.locs = MappingProxyType({**axis.locs, "input": Location("rules_src/r/charts.yaml", 30, 12),
                                  "labels": Location("rules_src/r/charts.yaml", 31, 13)})
    return axis


def _problems(chart, evaluate=lambda formula, **cell: 1, scope=None):
    from types import SimpleNamespace

    from generator.validate.computed import chart_problems

    inputs = (SimpleNamespace(id="strength", default=None, optional=False, unit=""),
              SimpleNamespace(id="toughness", default=None, optional=False, unit=""))
    formulas = (SimpleNamespace(id="to_wound", inputs=inputs, results=(), unit=""),
                SimpleNamespace(id="odds", inputs=inputs, results=(), unit=""))
    ruleset = SimpleNamespace(reachable=lambda section: formulas if section == "formulas" else ())
    calc = SimpleNamespace(scope=scope or {"a": 1}, evaluate=evaluate)
    return [(d.code.code, d.message, str(d.location), d.hint) for d in chart_problems(ruleset, chart, calc)]


def test_a_chart_naming_an_unknown_formula_says_which_and_suggests_one():
    assert _problems(_chart(formula="to_wund", chance="xyz")) == [
        ("unknown-ref", "chart `wounds` names formula `to_wund`, which is not in `formulas:`",
         "rules_src/r/charts.yaml:21:14", "did you mean `to_wound`?"),
        ("unknown-ref", "chart `wounds` names formula `xyz`, which is not in `formulas:`", "rules_src/r/charts.yaml:22:13", None),
    ]


def test_a_charts_axes_must_vary_inputs_and_have_values_and_matching_labels():
    rows = _labelled(_axis(values=(1, 2)), "strenght")
    columns = _labelled(_axis(low=1, high=None), "toughness", labels=("one",))
    assert _problems(_chart(rows=rows, columns=columns)) == [
        ("bad-chart", "the rows of `wounds` vary `strenght`, which is not an input of `to_wound`",
         "rules_src/r/charts.yaml:30:12", "did you mean `strength`?"),
        ("bad-chart", "the columns of `wounds` need `values:` or a closed `range:`", "rules_src/r/charts.yaml:3:1", None),
        ("bad-chart", "the columns of `wounds` have 1 labels for 0 values", "rules_src/r/charts.yaml:31:13", None),
    ]


def test_an_axis_that_does_not_compute_leaves_the_other_axis_checked():
    rows = _labelled(_axis(values=("a / 0", "a")), "strength", labels=("x",))
    columns = _labelled(_axis(ranged=False), "toughness")
    assert _problems(_chart(rows=rows, columns=columns)) == [
        ("bad-chart", "a value of the rows of `wounds` does not compute: `a / 0` divides by zero",
         "rules_src/r/charts.yaml:7:11", None),  # and its labels are not counted against values it lacks
        ("bad-chart", "the columns of `wounds` need `values:` or a closed `range:`", "rules_src/r/charts.yaml:3:1", None),
    ]


def test_a_chart_without_rows_names_its_columns_and_its_fixed_inputs():
    from types import SimpleNamespace

    from generator.diagnostics import Location

    columns = _labelled(_axis(ranged=False), "toughnes")
    fixed = SimpleNamespace(id="strenght", value=_written(3), loc=Location("rules_src/r/charts.yaml", 40, 5))
    assert _problems(_chart(columns=columns, fixed=[fixed])) == [
        ("bad-chart", "the columns of `wounds` vary `toughnes`, which is not an input of `to_wound`",
         "rules_src/r/charts.yaml:30:12", "did you mean `toughness`?"),
        ("bad-chart", "`wounds` fixes `strenght`, which is not an input of `to_wound`", "rules_src/r/charts.yaml:40:5",
         "did you mean `strength`?"),
    ]


def test_a_cell_that_does_not_compute_is_named_by_its_inputs():
    from generator.model.formula import FormulaError

    def evaluate(formula, **cell):
        if cell == {"toughness": 2, "strength": 1}:
            raise FormulaError("no such wound")
        return 1

    rows, columns = _labelled(_axis(values=(1,)), "strength"), _labelled(_axis(values=(1, 2)), "toughness")
    assert _problems(_chart(rows=rows, columns=columns), evaluate) == [
        ("bad-chart", "`wounds` cannot compute its cell for toughness=2, strength=1: no such wound",
         "rules_src/r/charts.yaml:21:14", None)]


# -- lookups: every row a number range or a word, no number twice, none missing -------------------

def _lookup_row(line, when=None, match=""):
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location
    from generator.model.dice import RollRange

    return SimpleNamespace(when=RollRange.parse(when) if when is not None else None, match=match,
                           loc=Location("rules_src/r/lookups.yaml", line),
                           locs=MappingProxyType({"when": Location("rules_src/r/lookups.yaml", line, 9),
                                                  "match": Location("rules_src/r/lookups.yaml", line, 10)}))


def _coverage(rows, over=None):
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location
    from generator.model.dice import RollRange
    from generator.validate.computed import lookup_coverage

    lookup = SimpleNamespace(id="outcome", rows=tuple(rows), over=RollRange.parse(over) if over else None,
                             loc=Location("rules_src/r/lookups.yaml", 1),
                             locs=MappingProxyType({"rows": Location("rules_src/r/lookups.yaml", 2, 3)}))
    return [(d.code.code, d.message, str(d.location)) for d in lookup_coverage(lookup)]


def test_a_lookup_row_is_a_range_or_a_word_and_no_word_twice():
    assert _coverage([_lookup_row(5), _lookup_row(6, when="1-2", match="rout"), _lookup_row(7, match="Rout"),
                      _lookup_row(8, match="hold")]) == [
        ("bad-value", "each row of `outcome` has either `when:` (a number or range) or `match:` (a word)",
         "rules_src/r/lookups.yaml:5:1"),
        ("bad-value", "each row of `outcome` has either `when:` (a number or range) or `match:` (a word)",
         "rules_src/r/lookups.yaml:6:1"),
        ("table-overlap", "`outcome` answers `Rout` twice", "rules_src/r/lookups.yaml:7:10"),
    ]
    assert _coverage([_lookup_row(5, match="rout"), _lookup_row(6, match="hold")]) == []


def test_a_lookup_over_a_range_has_each_number_once():
    rows = [_lookup_row(5, when="3+"), _lookup_row(6, when="1-2"), _lookup_row(7, when="2")]
    assert _coverage(rows, over="0-4") == [
        ("table-overlap", "row `2` of `outcome` covers 2 again", "rules_src/r/lookups.yaml:7:9"),
        ("table-gap", "`outcome` has no row for 0 of 0-4", "rules_src/r/lookups.yaml:2:3"),
    ]
    assert _coverage([_lookup_row(5, when="0-"), _lookup_row(6, when="1-2"), _lookup_row(7, when="3+")], over="-2-6") == []
    assert _coverage([_lookup_row(5, when="1-2"), _lookup_row(6, when="5-6")], over="1-6") == [
        ("table-gap", "`outcome` has no row for 3-4 of 1-6", "rules_src/r/lookups.yaml:2:3")]


def test_a_lookup_over_no_range_only_minds_overlaps_between_its_rows():
    assert _coverage([_lookup_row(5, when="0-"), _lookup_row(6, when="3+")]) == []
    assert _coverage([_lookup_row(5, when="0-"), _lookup_row(6, when="-1")]) == [
        ("table-overlap", "row `-1` of `outcome` covers -1 again", "rules_src/r/lookups.yaml:6:9")]
    assert _coverage([_lookup_row(5, when="3+"), _lookup_row(6, when="5+")]) == [
        ("table-overlap", "row `5+` of `outcome` covers 5-6 again", "rules_src/r/lookups.yaml:6:9")]


@pytest.mark.parametrize("text, found", [
    (":::note\nSee {raw}`x`.\n:::", [("prose-role", "the role `{raw}` is not allowed in prose", 1, 4)]),
    ("```{note} Title {raw}`y`\nBody {raw}`z`.\n```", [("prose-role", "the role `{raw}` is not allowed in prose", 0, 16),
                                                        ("prose-role", "the role `{raw}` is not allowed in prose", 1, 5)]),
    ("Intro.\n\n```{warning}\nSee {raw}`w`.\n```", [("prose-role", "the role `{raw}` is not allowed in prose", 3, 4)]),
    ("```{include} a.md\n```", [("prose-directive", "the directive `{include}` is not allowed in prose", 0, 3)]),
    ("```python\n{raw}`x`\n```", []),
    ("```{note\n{raw}`x`\n```", []),
    ("```note} x\n{raw}`q`\n```", []),
    ("```\n{raw}`q`\n```", []),
    ("~~~{note} Title {raw}`y`\nBody.\n~~~", [("prose-role", "the role `{raw}` is not allowed in prose", 0, 16)]),
    ("~~~{note} A long {raw}`y` title\nBody.\n~~~", [("prose-role", "the role `{raw}` is not allowed in prose", 0, 17)]),
], ids=["colon-fence", "admonition-title-and-body", "admonition-after-prose", "directive", "python-code", "open-brace-only",
        "close-brace-only", "bare-fence", "tilde-title", "tilde-title-of-several-words"])  # ids without `::`, which a pytest node id cannot hold
def test_a_fence_is_read_as_myst_reads_it(text, found):
    assert [(f.code.code, f.message, f.line, f.column) for f in prose_findings(text)] == found


def test_a_location_names_the_item_of_a_list_when_it_was_written():
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location
    from generator.validate.checks import _loc_of

    item0, item2, rows, entry = (Location("r.yaml", n) for n in (10, 12, 9, 1))
    owner = SimpleNamespace(loc=entry, locs=MappingProxyType({"rows[0]": item0, "rows[2]": item2, "rows": rows}))
    assert _loc_of(owner, "rows", 2) == item2 and _loc_of(owner, "rows", 0) == item0
    assert _loc_of(owner, "rows", 5) == rows and _loc_of(owner, "rows") == rows and _loc_of(owner, "cols") == entry


def test_a_bare_id_prefers_the_game_masters_entry():
    from types import SimpleNamespace

    from generator.validate.checks import _any_entry

    player, gm, other = (SimpleNamespace(id="ambush", audience="player"), SimpleNamespace(id="ambush", audience="gm"),
                         SimpleNamespace(id="other", audience="player"))
    ruleset = SimpleNamespace(all_entries=lambda: [("rules", other), ("rules", player), ("glossary", gm)])
    assert _any_entry(ruleset, "ambush") is gm
    assert _any_entry(SimpleNamespace(all_entries=lambda: [("rules", other), ("rules", player)]), "ambush") is player
    assert _any_entry(ruleset, "nothing") is None


def test_a_lookup_over_an_open_range_still_finds_its_gaps():
    assert _coverage([_lookup_row(5, when="3-4"), _lookup_row(6, when="6+")], over="3+") == [
        ("table-gap", "`outcome` has no row for 5 of 3+", "rules_src/r/lookups.yaml:2:3")]


def test_an_overlap_below_every_bound_is_told_from_one_below_the_lowest():
    assert _coverage([_lookup_row(5, when="1-"), _lookup_row(6, when="0-")]) == [
        ("table-overlap", "row `0 or less` of `outcome` covers -1-0 again", "rules_src/r/lookups.yaml:6:9")]


# -- game-master-only entries named by player entries, every way one entry can name another ------------

# Every player entry below names a game-master-only one once per way of naming (a row's `ref`, a
# keyword with trailing numbers, a spell's table, an army's matrix, troop, heroes and spells, a
# limit's counts, a formula's values, formulas, lookups and tables, a chart's formulas and axis
# values, a sheet's charts and cites, prose roles). Not reported: the gm_note (the game-master's own
# text), the game-master-only row `gm_spy`'s note, `Gm Fear X2` (`X2` is not a number),
# `Xgm_val` (not the value's name; alone on the columns) and the axis value `true`.
GM_NAMED = """rules:
  secret: {title: Secret, chapter: basics, audience: gm, body: Hidden.}
  open: {title: Open, chapter: basics, gm_note: "Only {rule}`secret`.", body: "Read {rule}`secret`."}
keywords:
  gm_fear: {name: Gm Fear, audience: gm, definition: Hidden., chapter: basics}
tables:
  gm_table:
    title: Gm table
    dice: D6
    audience: gm
    rows:
      - {roll: 1-6, result: X}
  player_t:
    title: Player table
    dice: D6
    rows:
      - {roll: 1-3, result: X, ref: secret}
      - {roll: 4-6, result: Y, effect: "See {rule}`secret`."}
profiles:
  troops:
    title: Troops
    columns:
      pts: {label: Pts, type: points, min: 0}
    rows:
      ogre: {name: Ogre, pts: 5, keywords: [GM FEAR 2 -1]}
      gm_spy: {name: Spy, pts: 5, audience: gm, keywords: [Gm Fear], note: "Is {rule}`secret`."}
  gm_matrix:
    title: Gm matrix
    audience: gm
    columns:
      pts: {label: Pts, type: points, min: 0}
    rows:
      brute: {name: Brute, pts: 5}
items:
  amulet: {name: Amulet, rules: Shiny., keywords: [Gm Fear, Gm Fear X2]}
spells:
  bolt: {name: Bolt, table: gm_table, roll: 1, effect: Zap.}
  gm_bolt: {name: Gm bolt, audience: gm, effect: Zap.}
heroes:
  gm_hero: {name: Gm hero, level: low, points: 2, ability: Hides., audience: gm}
armies:
  host:
    title: Host
    matrix: troops
    agreed_points: 10
    units:
      - {troop: gm_spy, count: 1, points: 5, heroes: [gm_hero],  spells: [gm_bolt]}
  host2:
    title: Host two
    matrix: gm_matrix
    agreed_points: 10
    units:
      - {troop: brute, count: 1, points: 5}
army_limits:
  cap:
    title: Cap
    count: gm_hero
    at_most: gm_spy + 1
values:
  gm_val: {value: 2, label: Gm value, audience: gm}
formulas:
  gm_f:
    title: Gm formula
    audience: gm
    inputs:
      a: {label: A, min: 1, max: 3}
      b: {label: B, min: 1, max: 3}
    expr: a + b
  score:
    title: Score
    inputs:
      a: {label: A, min: 1, max: 3}
      b: {label: B, min: 1, max: 3}
    expr: gm_val + gm_f(a, b) + gm_lookup(a) + gm_table(a)
    description: "As {rule}`secret` says."
lookups:
  gm_lookup:
    title: Gm lookup
    key: K
    audience: gm
    rows:
      - {when: 1-6, result: X}
charts:
  grid:
    title: Grid
    formula: gm_f
    chance: gm_f
    rows: {input: a, values: [gm_val, 2, Xgm_val, true]}
    columns: {input: b, values: [1, Xgm_val], note_formula: gm_f}
  gm_chart:
    title: Gm chart
    audience: gm
    formula: gm_f
    rows: {input: a, range: 1-3}
    columns: {input: b, range: 1-3}
sheets:
  cheat:
    title: Cheat
    charts: [gm_chart]
    cites: [secret]
"""


def _gm_references(tmp_path):
    import shutil
    from pathlib import Path

    from generator.validate import check_project

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(Path(__file__).parent / "broken" / "_base", folder)
    (folder / "case.yaml").write_text(GM_NAMED, encoding="utf-8")
    return [f"{d.location.line}:{d.location.column}: {d.message}" for d in check_project(tmp_path).diagnostics
            if d.code is Code.GM_REFERENCE]


def test_every_way_of_naming_a_game_master_entry_is_found_where_it_is_written(tmp_path):
    # line:column counted by hand in GM_NAMED, 1-based
    assert _gm_references(tmp_path) == [
    "3:79: `open` is for players but names game-master-only `secret`",
    "17:37: `player_t` is for players but names game-master-only `secret`",
    "18:40: `player_t` is for players but names game-master-only `secret`",
    "25:45: `troops` is for players but names game-master-only `gm_fear`",
    "35:52: `amulet` is for players but names game-master-only `gm_fear`",
    "37:29: `bolt` is for players but names game-master-only `gm_table`",
    "47:17: `host` is for players but names game-master-only `gm_spy`",
    "47:55: `host` is for players but names game-master-only `gm_hero`",
    "47:75: `host` is for players but names game-master-only `gm_bolt`",
    "50:13: `host2` is for players but names game-master-only `gm_matrix`",
    "57:12: `cap` is for players but names game-master-only `gm_hero`",
    "58:14: `cap` is for players but names game-master-only `gm_spy`",
    "74:11: `score` is for players but names game-master-only `gm_f`",
    "74:11: `score` is for players but names game-master-only `gm_lookup`",
    "74:11: `score` is for players but names game-master-only `gm_table`",
    "74:11: `score` is for players but names game-master-only `gm_val`",
    "75:18: `score` is for players but names game-master-only `secret`",
    "86:14: `grid` is for players but names game-master-only `gm_f`",
    "87:13: `grid` is for players but names game-master-only `gm_f`",
    "88:30: `grid` is for players but names game-master-only `gm_val`",
    "89:61: `grid` is for players but names game-master-only `gm_f`",
    "99:14: `cheat` is for players but names game-master-only `gm_chart`",
    "100:13: `cheat` is for players but names game-master-only `secret`",
    ]


# -- the {pdf} role and what an image's alt text holds -------------------------------------------------

PDF_HINT = "name a PDF of the build, such as `sheets/x-a4.pdf`"
IMAGE_HINT = "describe it in words; a ruleset's outputs show no image named in its prose"


def _not_a_pdf(target):
    return f"`{{pdf}}` names `{target}`, which is not a PDF of the build"


@pytest.mark.parametrize("text, expected", [
    ("{pdf}`sheets/x-a4.pdf`", []),
    ("{pdf}`the sheet <sheets/x-a4.pdf>`", []),  # an explicit title: the target between <> is checked
    ("a {pdf}`x.txt`", [(Code.PROSE_LINK, _not_a_pdf("x.txt"), 0, 2, PDF_HINT)]),
    ("{pdf}`a <b.doc>`", [(Code.PROSE_LINK, _not_a_pdf("b.doc"), 0, 0, PDF_HINT)]),
    # the first {pdf} is passed over, so the second one's finding is placed at its own column
    ("{pdf}`ok.pdf` and {pdf}`../x.pdf`", [(Code.PROSE_LINK, _not_a_pdf("../x.pdf"), 0, 18, PDF_HINT)]),
    # a role inside an image's alt text is found too, on the image's line
    ("one\n\ntwo ![a {foo}`x`](a.png)", [
        (Code.PROSE_IMAGE, "an image (`a.png`): prose may not show images", 2, 4, IMAGE_HINT),
        (Code.PROSE_ROLE, "the role `{foo}` is not allowed in prose", 2, 8, prose.ROLES_HINT)]),
], ids=["pdf", "pdf-titled", "not-pdf", "titled-not-pdf", "second-pdf", "role-in-image"])
def test_a_pdf_role_names_a_pdf_of_the_build(text, expected):
    assert [(f.code, f.message, f.line, f.column, f.hint) for f in prose_findings(text)] == expected


def test_the_roles_hint_lists_every_allowed_role():
    assert prose.ROLES_HINT == ("roles: {chart}, {entry}, {formula}, {gap}, {lookup}, {pdf}, {profile}, {rule}, {source}, "
                                "{spell}, {table}, {term}, {value}")


# -- an army whose matrix did not load, and a carried spell that names no spell ----------------------------------

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
    import shutil
    from pathlib import Path

    from generator.validate import check_project

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(Path(__file__).parent / "broken" / "_base", folder)
    (folder / "case.yaml").write_text(ARMY_REFS, encoding="utf-8")
    found = [(d.code, d.message, d.location.line, d.location.column, d.hint) for d in check_project(tmp_path).diagnostics]
    # 1-based line:column counted by hand in ARMY_REFS
    assert found == [
        (Code.MISSING_FIELD, "profile matrix `broken` needs the field `title`", 2, 3, "title: The matrix's heading."),
        (Code.UNKNOWN_REF, "matrix `broken` has errors of its own, so `host` cannot be checked", 16, 13, "fix the matrix first"),
        (Code.UNKNOWN_REF, "spell `nope` is not in `spells:`", 25, 53, None),
    ]


# -- placing a finding: the first needle from a line or a cursor, else the line's first non-space -------

@pytest.mark.parametrize("lines, where, needle, expected", [
    (["xy  xy"], 0, "xy", (0, 0)),          # from a line: its whole text is searched
    (["a", "xy"], 0, "xy", (1, 0)),         # later lines are searched from their start
    (["ab", "cd"], 1, "ab", (1, 0)),        # never before the line given: not found, the line's start
    (["a", "  b"], 5, "zz", (1, 2)),        # past the end: the last line, at its first non-space
    (["  a", "b"], -1, "zz", (0, 2)),       # before the start: the first line
    (["  a"], 3, "zz", (0, 2)),
    ([], 0, "zz", (0, 0)),                  # no text at all
])
def test_a_needle_is_sought_from_the_line_given(lines, where, needle, expected):
    assert prose._seek(lines, where, needle) == expected


def test_a_cursor_moves_past_what_it_found_and_stays_when_nothing_is():
    cursor = [0, 0]
    assert prose._seek(["", "  ab ab"], cursor, "ab") == (1, 2)
    assert cursor == [1, 4]
    assert prose._seek(["", "  ab ab"], cursor, "ab") == (1, 5)  # the second one, from the cursor's column
    assert cursor == [1, 7]
    assert prose._seek(["", "  ab ab"], cursor, "ab") == (1, 2)  # none left: the line's first non-space
    assert cursor == [1, 7]


# -- what a prose role names: a term by any spelling, `entry` by section.id, other roles in their own section

ROLE_CASE = """
glossary:
  knocked_down: {term: Knocked Down, aliases: [Knocked over], definition: Lying down.}
rules:
  falling: {title: Falling, chapter: basics, body: Down.}
"""


@pytest.mark.parametrize("role, target, expected", [
    ("term", "Knocked over", ("Term", "knocked_down")),
    ("term", "KNOCKED DOWN", ("Term", "knocked_down")),
    ("term", "nothing", None),
    ("entry", "rules.falling", ("Rule", "falling")),
    ("entry", "glossary.knocked_down", ("Term", "knocked_down")),
    ("entry", "nosuch.falling", None),
    ("entry", "rules", None),
    ("rule", "falling", ("Rule", "falling")),
    ("rule", "knocked_down", None),     # ids are looked up in the role's own section only
    ("table", "falling", None),
])
def test_a_role_names_the_entry_of_its_own_section(tmp_path, role, target, expected):
    import shutil
    from pathlib import Path

    from generator.source.project import load_project
    from generator.validate import checks

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(Path(__file__).parent / "broken" / "_base", folder)
    (folder / "case.yaml").write_text(ROLE_CASE, encoding="utf-8")
    project, diagnostics = load_project(tmp_path)
    assert list(diagnostics) == []
    ruleset = project.rulesets[0]
    found = checks._role_entry(ruleset, role, target, checks.term_names(ruleset))
    assert (None if found is None else (type(found).__name__, found.id)) == expected


# -- the values a formula's input is checked over ------------------------------------------------------

def _input(**fields):
    from generator.model.computed import Input

    return Input(id="n", label="N", **fields)


@pytest.mark.parametrize("fields, expected", [
    ({"min": 1, "max": 3}, [1, 2, 3]),
    ({"min": -1, "max": 1, "optional": True}, [None, -1, 0, 1]),
    ({"type": "bool"}, [False, True]),
    ({"type": "bool", "optional": True}, [None, False, True]),
    ({"type": "text", "choices": ("left", "right")}, ["left", "right"]),
    ({"type": "text", "choices": ("up",), "optional": True}, [None, "up"]),
    ({"type": "text"}, None),                               # a text without choices: unbounded
    ({"type": "text", "optional": True}, None),
    ({"min": 1}, None), ({"max": 1}, None),                 # half-bounded
    ({"min": 0, "max": 100}, list(range(0, 101))),          # 101 values: still enumerated
    ({"min": 5, "max": 105}, list(range(5, 106))),
    ({"min": 0, "max": 101}, None),                         # 102 values: too many
    ({"min": 0, "max": 101, "optional": True}, None),
])
def test_an_inputs_values_are_every_one_it_takes_or_none(fields, expected):
    from generator.validate.computed import input_values

    assert input_values(_input(**fields)) == expected


# -- every Markdown text of an entry, its rows' too, each where it is written ---------------------------

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
    import shutil
    from pathlib import Path

    from generator.source.project import load_project

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(Path(__file__).parent / "broken" / "_base", folder)
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


# -- a head-count army: stated models against the matrix's, and lines whose models nobody gives -------

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
    import shutil
    from pathlib import Path

    from generator.validate import check_project

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(Path(__file__).parent / "broken" / "_base", folder)
    (folder / "case.yaml").write_text(HEAD_COUNT, encoding="utf-8")
    found = [(d.code, d.message, d.location.line, d.location.column, d.hint) for d in check_project(tmp_path).diagnostics]
    # 1-based line:column counted by hand in HEAD_COUNT; 2 men of 3 models each are 6
    assert found == [
        (Code.POINTS_MISMATCH, "2x man is 6 models, not 5", 22, 52, "2 x 3 = 6"),
        (Code.MISSING_FIELD, "`host` is balanced by head-count, but the models of `odd` are not known", 23, 17,
         "`troops` says `not given`: state the line's models, as in `models: 10`"),
        (Code.MISSING_FIELD, "`band` is balanced by head-count, but the models of `elf` are not known", 29, 17,
         "`plain` has no `models` column: state the line's models, as in `models: 10`"),
    ]


# -- a formula's result against its declared kind ------------------------------------------------------

TARGET_WORDS = "not a target roll (a whole number, or None when it cannot succeed)"


@pytest.mark.parametrize("kind, result, expected", [
    ("target", 4, ""), ("target", None, ""),
    ("target", True, f"True, {TARGET_WORDS}"), ("target", "x", f"'x', {TARGET_WORDS}"),
    ("chance", "half", "'half', not a chance from 0 to 1"), ("chance", 2, "2, not a chance from 0 to 1"),
    ("chance", 1, ""),
    ("bool", True, ""), ("bool", 1, "1, not true or false"),
    ("roll", "d6", ""),  # replaced by a real die below
    ("roll", 3, "3, not a roll"),
    ("number", 3, ""), ("number", "die", "a roll, not a number"), ("number", True, "True, not a number"),
    ("distance", "x", "'x', not a number"), ("distance", 2, ""),
    ("text", 3, ""),
])
def test_a_result_that_does_not_fit_its_kind_says_what_it_is(kind, result, expected):
    from types import SimpleNamespace

    import icepool

    from generator.validate.computed import result_problem

    if (kind, result) in (("roll", "d6"), ("number", "die")):
        result = icepool.d6
    assert result_problem(SimpleNamespace(result=kind), result) == expected


# -- an army that names an entry which failed to load (its points are not added up) ---------------------

def _army(matrix="m", extras=(), upgrades=(), heroes=(), spells=()):
    from types import SimpleNamespace

    unit = SimpleNamespace(upgrades=upgrades, heroes=heroes, spells=spells)
    return SimpleNamespace(matrix=matrix, extras=extras, units=[SimpleNamespace(upgrades=(), heroes=(), spells=()), unit])


@pytest.mark.parametrize("unloaded, army, expected", [
    ({("profiles", "m")}, _army(), True),
    ({("costs", "banner")}, _army(extras=("banner",)), True),
    ({("costs", "banner")}, _army(upgrades=("banner",)), True),
    ({("heroes", "h")}, _army(heroes=("h",)), True),
    ({("spells", "s")}, _army(spells=("s",)), True),
    (set(), _army(extras=("banner",), upgrades=("banner",), heroes=("h",), spells=("s",)), False),
    # the same id failing in another section is not this army's
    ({("heroes", "m"), ("spells", "banner"), ("costs", "h"), ("profiles", "s")},
     _army(extras=("banner",), upgrades=("banner",), heroes=("h",), spells=("s",)), False),
])
def test_an_army_names_an_unloaded_entry_only_in_that_entrys_section(unloaded, army, expected):
    from generator.model.ruleset import Ruleset
    from generator.validate.checks import _names_unloaded

    assert _names_unloaded(Ruleset(id="x", meta=None, unloaded=frozenset(unloaded)), army) is expected
