"""Checks that reach inside entries: quotes cited by a profile row, a track or a spell, and game-master-only
entries named through a table row's link. Expected locations are read off the YAML written here."""

from __future__ import annotations

from test_checks import checked

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
    found = checked(tmp_path, """
profiles:
  troops:
    title: Troops
    columns:
      pts: {label: PTS, type: points, min: 0}
    rows:
      levy: {name: Levy, pts: 2, source: {section: MAGIC, quote: "each unit rolls one dice"}}
""")
    assert found == ["rules_src/x/case.yaml:8:52: error[source-section]: section “MAGIC” is not in base.txt"]


def test_a_table_row_cannot_cite_a_source_unnoticed(tmp_path):
    """Rows of a roll table carry no `source:`: one written there is refused where it stands, not ignored."""
    found = checked(tmp_path, """
tables:
  t:
    title: T
    dice: D6
    rows:
      - roll: 1-6
        result: X
        source: {section: BASICS, quote: "each unit rolls two dice"}
""")
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
    found = checked(tmp_path, GM_RULE + """
tables:
  t:
    title: T
    dice: D6
    rows:
      - {roll: 1-3, result: X, ref: secret}
      - {roll: 4-6, result: Y, effect: "See {rule}`secret`."}
""")
    assert found == [
        "rules_src/x/case.yaml:14:37: error[gm-reference]: `t` is for players but names game-master-only `secret`",
        "rules_src/x/case.yaml:15:40: error[gm-reference]: `t` is for players but names game-master-only `secret`",
    ]


def test_a_game_master_table_may_link_a_game_master_rule(tmp_path):
    assert checked(tmp_path, GM_RULE + """
tables:
  t:
    title: T
    dice: D6
    audience: gm
    rows:
      - {roll: 1-3, result: X, ref: secret}
      - {roll: 4-6, result: Y, effect: "See {rule}`secret`."}
""") == []
