"""The names a worked example can use, as the authors' reference lists them: the ruleset's own formulas,
lookups and values by id, with the game-master's left out of the players' list."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.examples.names import _signature
from generator.render.reference import _light_escape, example_names, names_reference
from generator.validate import check_project

RULES = """\
ruleset: {title: Names}
values:
  move: {value: 6", label: Move}
  secret_bonus: {value: 2, label: Secret bonus, audience: gm}
formulas:
  charge:
    title: Charge distance
    inputs: {dice: {label: Dice, min: 1, max: 3}}
    expr: move + dice
  ambush:
    title: Ambush roll
    audience: gm
    expr: secret_bonus + 1
lookups:
  morale:
    title: Morale
    key: Difference
    rows:
      - {when: 1+, result: Holds}
      - {when: 0-, result: Flees}
"""
OWN_KINDS = ("formula", "lookup", "value", "values")
PLAYER = [
    ("formula", "charge(dice)", "Charge distance"),
    ("lookup", "morale(key)", "The row of Morale for a difference: its value, else its result"),
    ("values", "values.<id>", "Every value of the ruleset by id, as its exact number"),
    ("value", "values.move", 'Move: 6"'),
]
GM_ONLY = [("formula", "ambush()", "Ambush roll"), ("value", "values.secret_bonus", "Secret bonus: 2")]


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    root: Path = tmp_path_factory.mktemp("names")
    (root / "rules_src" / "game").mkdir(parents=True)
    (root / "rules_src" / "game" / "ruleset.yaml").write_text(RULES, encoding="utf-8")
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics]
    return result.project.ruleset("game")


def own(names):
    return [entry for entry in names if entry[0] in OWN_KINDS]


def test_the_game_master_sees_every_name_of_the_ruleset(ruleset):
    assert sorted(own(example_names(ruleset, None, "gm"))) == sorted(PLAYER + GM_ONLY)


def test_players_do_not_see_the_game_masters_formulas_and_values(ruleset):
    player, gm = example_names(ruleset, None, "player"), example_names(ruleset, None, "gm")
    assert own(player) == PLAYER
    assert set(gm) - set(player) == set(GM_ONLY)


def test_the_names_page_is_a_table_row_per_name(ruleset):
    page = names_reference(ruleset, None, "player").splitlines()
    assert page[0] == "# Names for worked examples: Names"
    assert "| `charge(dice)` | formula | Charge distance |" in page
    assert "| `values.move` | value | Move: 6\" |" in page
    assert not any("ambush" in line or "secret_bonus" in line for line in page)


def test_a_docstring_line_is_escaped_for_a_table_cell():
    assert _light_escape("a | b *c* ``code`` [x] $1") == r"a \| b \*c\* `code` \[x\] \$1"
    assert _light_escape("two\n  lines") == "two lines"


def test_a_callable_without_a_signature_is_shown_with_dots():
    assert _signature("maximum", max) == "maximum(...)"  # a builtin Python cannot describe
    assert _signature("pair", lambda a, b=2: None) == "pair(a, b=2)"
