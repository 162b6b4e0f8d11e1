"""Malformed rules data of the kinds the broken corpus does not hold: each value of the wrong shape is one
located `wrong-type` error at that value, and the check goes on to the next one."""

from __future__ import annotations

from pathlib import Path

from generator.cli import main

RULES = """\
ruleset: {title: Malformed}
formulas:
  charge:
    title: Charge
    inputs: {dice: {label: Dice, optional: maybe}, bonus: {label: Bonus, default: [1, 2]}}
    expr: dice
tables:
  weather:
    title: Weather
    dice: D6
    quick_reference: 5
    rows:
      - {roll: 1-6, result: Fine}
profiles:
  listed: [a, b]
  rowlist:
    title: Row list
    columns: {attack: {label: A}}
    rows: [archer]
  scalars:
    title: Scalar rows
    columns: {attack: {label: A}, cost: {label: Pts, type: points}}
    rows:
      archer: just an archer
      knight: {name: Knight, attack: {not_given: lost page}, cost: true}
      squire: {name: Squire, attack: {not_given: lost, extra: 1}, cost: 2}
"""
F = "rules_src/game/ruleset.yaml"
KIND = "  hint: write a value of the expected kind"
EXPECTED = f"""\
{F}:5:44: error[wrong-type]: `optional` must be true or false, not the text `maybe`
{KIND}
{F}:5:83: error[wrong-type]: `default` has an unexpected value
{KIND}
{F}:11:22: error[wrong-type]: `quick_reference` must be `true`, `false` or a mapping with `summary:` (and `title:`), not the number `5`
  hint: write `quick_reference: true`, or `quick_reference: {{summary: ...}}`
{F}:15:11: error[wrong-type]: expected a mapping of profile matrix fields, found a list (- item lines)
{KIND}
{F}:19:11: error[wrong-type]: `rows` must be a mapping of ids to rows, not a list (- item lines)
{KIND}
{F}:24:15: error[wrong-type]: profile row `archer` must be a mapping, not the text `just an archer`
{KIND}
{F}:25:68: error[wrong-type]: Pts must be a whole number or an exact fraction such as 1½, 1 1/2, 3/2 or 1.5, not the boolean `true`
  hint: write points as 3, 1½, 1 1/2, 3/2 or 1.5, without units
{F}:26:38: error[wrong-type]: `attack` must be `not given`, or `not given: why` with the why in words
  hint: write `not given`, or `"not given: the text omits it"` (quoted, for the colon)
"""
# where each error points, by hand: (line, column) -> the text that starts there
POINTED_AT = {(5, 44): "maybe", (5, 83): "[1, 2]", (11, 22): "5", (15, 11): "[a, b]", (19, 11): "[archer]",
              (24, 15): "just an archer", (25, 68): "true", (26, 38): "{not_given: lost, extra: 1}"}


def test_each_value_of_the_wrong_shape_is_one_located_error(tmp_path: Path, capsys):
    (tmp_path / "rules_src" / "game").mkdir(parents=True)
    (tmp_path / "rules_src" / "game" / "ruleset.yaml").write_text(RULES, encoding="utf-8")
    assert main(["-C", str(tmp_path), "check", "--no-examples"]) == 1
    out, err = capsys.readouterr()
    assert err == EXPECTED
    assert out == "1 ruleset, 0 tables, 0 profiles, 0 examples, 8 errors\n"


def test_the_positions_are_those_of_the_values():
    lines = RULES.splitlines()
    for (line, column), text in POINTED_AT.items():
        assert lines[line - 1][column - 1:].startswith(text), (line, column)
