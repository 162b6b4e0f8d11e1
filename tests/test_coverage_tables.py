"""A clamped roll table read beyond its ends, a table whose ranges the source omits, and keywords with
parameters read off a profile row. Odds are counted by hand over a D6's six faces."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from generator.validate import check_project

RULES = """
ruleset: {title: Clamped}
tables:
  injury:
    title: Injury
    dice: D6 + modifier
    clamp: 2-5
    rows:
      - {roll: 2, result: Grazed}
      - {roll: 3-4, result: Stunned}
      - {roll: 5, result: Out of action}
  rumours:
    title: Rumours
    dice: D6
    rows:
      - {roll: not given, result: Gold}
      - {roll: not given, result: Dragons}
profiles:
  troops:
    title: Troops
    columns: {move: {label: M}}
    rows:
      archer: {name: Archer, move: 4, keywords: [SHOOTS 12, Fear, Regenerate 4 5]}
      ghost: {name: Ghost, move: 6, keywords: not given}
keywords:
  shoots: {name: Shoots, params: [range], kind: ability, definition: Shoots this far.}
  fear: {name: Fear, kind: psychology, definition: Causes fear.}
  regenerate: {name: Regenerate, params: [low, high], kind: ability, definition: Heals on these rolls.}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    root: Path = tmp_path_factory.mktemp("clamped")
    (root / "rules_src" / "game").mkdir(parents=True)
    (root / "rules_src" / "game" / "ruleset.yaml").write_text(RULES, encoding="utf-8")
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics]
    return result.project.ruleset("game")


def table(game, id: str):
    return next(t for t in game.section("tables") if t.id == id)


def odds(game, **stats) -> dict[str, Fraction]:
    return {row.result: chance for row, chance in table(game, "injury").odds(**stats)}


@pytest.mark.parametrize("modifier, expected", [
    # totals 1..6 read 2 2 3 4 5 5
    (0, {"Grazed": Fraction(2, 6), "Stunned": Fraction(2, 6), "Out of action": Fraction(2, 6)}),
    # totals 3..8 read 3 4 5 5 5 5
    (2, {"Grazed": 0, "Stunned": Fraction(2, 6), "Out of action": Fraction(4, 6)}),
    # totals -2..3 read 2 2 2 2 2 3
    (-3, {"Grazed": Fraction(5, 6), "Stunned": Fraction(1, 6), "Out of action": 0}),
])
def test_a_clamped_table_reads_totals_beyond_its_ends_as_the_nearest_row(game, modifier, expected):
    assert odds(game, modifier=modifier) == expected


def test_lookup_and_chance_of_a_clamped_table(game):
    injury = table(game, "injury")
    assert (injury.lookup(-10).result, injury.lookup(4).result, injury.lookup(99).result) == ("Grazed", "Stunned", "Out of action")
    assert injury.chance("Stunned", modifier=1) == Fraction(2, 6)  # totals 2..7: only 3 and 4


def test_a_table_without_its_ranges_cannot_be_read_or_given_odds(game):
    rumours = table(game, "rumours")
    assert not rumours.ranges_given
    for read in (lambda: rumours.lookup(3), lambda: rumours.odds()):
        with pytest.raises(LookupError, match="^the source does not give the roll ranges of Rumours$"):
            read()


def test_keywords_are_read_with_their_parameters(game):
    troops = next(iter(game.section("profiles")))
    archer = troops.row("archer")
    assert (archer.keyword("shoots"), archer.keyword("FEAR"), archer.keyword("Regenerate")) == ((12,), (), (4, 5))
    assert archer.keyword("flying") is None
    assert archer["move"] == 4 and troops.column("move").label == "M"


def test_a_row_whose_keywords_the_source_omits_says_so(game):
    troops = next(iter(game.section("profiles")))
    ghost = troops.row("Ghost")  # by name as well as by id
    with pytest.raises(LookupError, match="^the source does not give the special rules of Ghost$"):
        ghost.keyword("fear")
    with pytest.raises(KeyError):
        troops.row("dragon")
