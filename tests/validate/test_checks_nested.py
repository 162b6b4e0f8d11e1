"""Checks that reach inside entries: quotes cited by a profile row, a track or a spell, and game-master-only
entries named through a table row's link or hidden by an overlay. Expected locations are read off the YAML written
here."""

from __future__ import annotations

from pathlib import Path

from helpers import BROKEN, checked, make_project

from generator.diagnostics import Code
from generator.validate import check_project

# The base project's source text (tests/broken/_base/sources/base.txt) says: "Each unit rolls one dice when it
# activates. On a roll of a 1 the unit does nothing. A force may have one appeal for scrolls."
NESTED_QUOTES = """
profiles:
  troops:
    title: Troops
    columns:
      pts: {label: PTS, type: points, min: 0}
    rows:
      levy: {name: Levy, pts: 2, source: {section: BASICS, quote: "a levy costs two"}}
      guard: {name: Guard, pts: 3, source: {section: BASICS, quote: "each unit rolls one dice"}}
    tracks:
      activated:
        label: Activated
        boxes: 1
        source: {section: BASICS, quote: "each unit rolls two dice"}
spells:
  fireball: {name: Fireball, effect: Burns., source: {section: BASICS, quote: "fireball burns"}}
  mist: {name: Mist, effect: Hides., source: {section: BASICS, quote: "on a roll of a 1 the unit does nothing"}}
"""


def test_a_wrong_quote_inside_a_profile_row_a_track_or_a_spell_is_found_where_it_is_written(tmp_path):
    assert checked(tmp_path, NESTED_QUOTES) == [
        "rules_src/x/case.yaml:8:67: error[source-quote]: the quote is not in base.txt: “a levy costs two”",
        "rules_src/x/case.yaml:14:42: error[source-quote]: the quote is not in base.txt: “each unit rolls two dice”",
        "rules_src/x/case.yaml:16:79: error[source-quote]: the quote is not in base.txt: “fireball burns”",
    ]


def test_a_wrong_section_inside_a_profile_row_is_found(tmp_path):
    found = checked(
        tmp_path,
        """
profiles:
  troops:
    title: Troops
    columns:
      pts: {label: PTS, type: points, min: 0}
    rows:
      levy: {name: Levy, pts: 2, source: {section: MAGIC, quote: "each unit rolls one dice"}}
""",
    )
    assert found == ["rules_src/x/case.yaml:8:52: error[source-section]: section “MAGIC” is not in base.txt"]


def test_a_table_row_cannot_cite_a_source_unnoticed(tmp_path):
    """Rows of a roll table carry no `source:`: one written there is refused where it stands, not ignored."""
    found = checked(
        tmp_path,
        """
tables:
  t:
    title: T
    dice: D6
    rows:
      - roll: 1-6
        result: X
        source: {section: BASICS, quote: "each unit rolls two dice"}
""",
    )
    assert found == ["rules_src/x/case.yaml:9:9: error[unknown-field]: unknown field `source` in table row"]


GM_RULE = """
rules:
  secret:
    title: Secret
    chapter: basics
    audience: gm
    body: Hidden.
"""


def test_a_player_table_row_linking_a_game_master_rule_is_a_gm_reference(tmp_path):
    found = checked(
        tmp_path,
        GM_RULE
        + """
tables:
  t:
    title: T
    dice: D6
    rows:
      - {roll: 1-3, result: X, ref: secret}
      - {roll: 4-6, result: Y, effect: "See {rule}`secret`."}
""",
    )
    assert found == [
        "rules_src/x/case.yaml:14:37: error[gm-reference]: `t` is for players but names game-master-only `secret`",
        "rules_src/x/case.yaml:15:45: error[gm-reference]: `t` is for players but names game-master-only `secret`",
    ]


def test_a_game_master_table_may_link_a_game_master_rule(tmp_path):
    assert (
        checked(
            tmp_path,
            GM_RULE
            + """
tables:
  t:
    title: T
    dice: D6
    audience: gm
    rows:
      - {roll: 1-3, result: X, ref: secret}
      - {roll: 4-6, result: Y, effect: "See {rule}`secret`."}
""",
        )
        == []
    )


# Every way of naming a game-master entry, found where it is written.

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

    from generator.validate import check_project

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(BROKEN / "_base", folder)
    (folder / "case.yaml").write_text(GM_NAMED, encoding="utf-8")
    return [
        f"{d.location.line}:{d.location.column}: {d.message}"
        for d in check_project(tmp_path).diagnostics
        if d.code is Code.GM_REFERENCE
    ]


def test_every_way_of_naming_a_game_master_entry_is_found_where_it_is_written(tmp_path):
    # line:column counted by hand in GM_NAMED, 1-based
    assert _gm_references(tmp_path) == [
        "3:85: `open` is for players but names game-master-only `secret`",
        "17:37: `player_t` is for players but names game-master-only `secret`",
        "18:45: `player_t` is for players but names game-master-only `secret`",
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
        "75:22: `score` is for players but names game-master-only `secret`",
        "86:14: `grid` is for players but names game-master-only `gm_f`",
        "87:13: `grid` is for players but names game-master-only `gm_f`",
        "88:30: `grid` is for players but names game-master-only `gm_val`",
        "89:61: `grid` is for players but names game-master-only `gm_f`",
        "99:14: `cheat` is for players but names game-master-only `gm_chart`",
        "100:13: `cheat` is for players but names game-master-only `secret`",
    ]


SKIRMISH = """
ruleset: {title: A skirmish}
chapters: {fight: {title: Fight}}
values:
  reach: {value: 3 inches, label: How far a spear reaches}
  ambush: {value: 2, label: Ambushers hidden, audience: gm}
rules:
  spears:
    title: Spears
    chapter: fight
    body: "A spear reaches {value}`reach`; {value}`ambush` lie in wait."
"""


def _overlaid(root: Path, house_values: str) -> list[str]:
    house = f'ruleset: {{title: "A skirmish, house rules", extends: game, overlay: true}}\nvalues:\n{house_values}'
    result = check_project(make_project(root, game=SKIRMISH, house=house))
    return [d.format() for d in result.diagnostics]


def test_an_overlay_that_hides_a_house_value_its_base_prints_to_players_is_told_where_it_did(tmp_path):
    found = _overlaid(tmp_path, "  reach: {value: 4 inches, house_note: Longer spears, audience: gm}\n")
    assert found == [
        "rules_src/game/ruleset.yaml:11:28: error[gm-reference]: `spears` is for players but names "
        "game-master-only `reach`\n"
        "  hint: the overlay `house` marks its house value `reach` `audience: gm` "
        "(rules_src/house/ruleset.yaml:3:65), but player text of `game` prints it: keep that house value for players",
        "rules_src/game/ruleset.yaml:11:44: error[gm-reference]: `spears` is for players but names "
        "game-master-only `ambush`\n"
        "  hint: link it only from game-master material, or mark the linking entry `audience: gm`",
    ]


def test_an_overlay_that_only_changes_a_game_master_value_is_not_blamed_for_its_bases_player_text(tmp_path):
    # the base already hides `ambush`: its own error stands, with the ordinary hint
    assert _overlaid(tmp_path, "  ambush: {value: 3, house_note: More ambushers}\n") == [
        "rules_src/game/ruleset.yaml:11:44: error[gm-reference]: `spears` is for players but names "
        "game-master-only `ambush`\n"
        "  hint: link it only from game-master material, or mark the linking entry `audience: gm`"
    ]


LONG_QUOTES = """\
spells:
  far:
    name: Far
    effect: Flies.
    source: {quote: "a spell that is never written in the text, quoted at a length past sixty"}
  near:
    name: Near
    effect: Walks.
    source: {quote: "a spell of exactly sixty characters, never written in the te"}
"""


def test_a_long_quote_not_found_is_shown_by_its_first_sixty_characters_and_an_ellipsis(tmp_path):
    assert len("a spell of exactly sixty characters, never written in the te") == 60
    assert checked(tmp_path, LONG_QUOTES) == [
        "rules_src/x/case.yaml:5:21: error[source-quote]: the quote is not in base.txt: "
        "“a spell that is never written in the text, quoted at a lengt…”",
        "rules_src/x/case.yaml:9:21: error[source-quote]: the quote is not in base.txt: "
        "“a spell of exactly sixty characters, never written in the te”",
    ]
