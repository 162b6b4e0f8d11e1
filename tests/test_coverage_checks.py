"""`check` on a ruleset that breaks the play-aid, modified-table and `{entry}` rules: every problem is
reported once, located at the value that causes it, with the message and hint its check states."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main

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
"""
F = "rules_src/game/ruleset.yaml"
EXPECTED = [
    # line 13 is the body; both roles are told at its start
    f"{F}:13:11: error[unknown-ref]: `rule.moving` names no section: write {{entry}}`section.id`\n  hint: did you mean `rules`?",
    f"{F}:13:11: error[unknown-ref]: spell `fireball` is not in `spells:`\n  hint: check the id against the entries of that section",
    # `D6 + modifier` reaches any total: a `1-` row but nothing open upwards
    f"{F}:17:11: error[table-unbounded]: `D6 + modifier` can roll any total, but `unbounded` has no highest open row and no clamp\n"
    "  hint: add `clamp:` or open-ended rows such as `6+` and `1-`",
    f"{F}:25:7: error[too-large]: the rows of `wide` span 1 to 20,001; a modified table may span at most 10,000 results\n"
    "  hint: write open-ended rows such as `6+` and `1-` for the far ends",
    f"{F}:31:15: error[bad-value]: movement `courage` is 3, not a distance\n  hint: name a value written as a distance: 6\", 2 hexes",
    f"{F}:34:51: error[unknown-ref]: movement `nowhere` is not in `values:`\n  hint: check the id against the entries of that section",
    f"{F}:36:38: error[out-of-range]: `wounds` asks for 13 boxes; a unit's row holds 1 to 12\n"
    "  hint: leave `boxes` out for an open count: a tally space is printed",
    f"{F}:37:22: error[duplicate-id]: `hurts` tracks 'wounds', as `wounds` already does\n  hint: track each thing once",
    f"{F}:38:7: error[unknown-ref]: `fear` says what is tracked but not where the rules say so\n"
    "  hint: name the glossary `term`, the `rule` or the `source` that makes players track it",
    f"{F}:39:36: error[unknown-ref]: term `spirit` is not in `glossary:`\n  hint: check the id against the entries of that section",
    f"{F}:39:50: error[unknown-ref]: rule `haunting` is not in `rules:`\n  hint: check the id against the entries of that section",
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
    assert out == "1 ruleset, 2 tables, 1 profile, 0 examples, 11 errors\n"


def test_the_lines_named_are_those_of_the_values():
    """Each location points at the text it complains about (the oracle for the positions above)."""
    lines = RULES.splitlines()
    needles = ["Units move.", "Units move.", "D6 + modifier", "- {roll: 1-", "courage", "nowhere", "13", "wounds",
               "fear:", "spirit", "haunting"]
    for diagnostic, needle in zip(EXPECTED, needles, strict=True):
        line, column = (int(n) for n in diagnostic.split(":")[1:3])
        assert lines[line - 1][column - 1:].startswith(needle), (diagnostic, lines[line - 1])
