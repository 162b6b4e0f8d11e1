"""Roll tables: coverage diagnostics and odds, checked against brute force on random tables."""

from __future__ import annotations

import itertools
import random
import re
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType

import pytest

from generator.diagnostics import Code, Location
from generator.model.base import NotGiven
from generator.model.dice import DiceExpr, RollRange
from generator.model.entries import RollTable, TableRow
from generator.validate import check_project
from generator.validate.tables import table_coverage

DICE_LOC = Location("t.yaml", 1, 1)
ROWS_LOC = Location("t.yaml", 2, 1)


def row_loc(index: int) -> Location:
    return Location("t.yaml", 10 + index, 1)


def make_table(dice: str, rolls: list, clamp: str | None = None, id: str = "t") -> RollTable:
    rows = tuple(
        TableRow(
            roll=RollRange.parse(roll) if roll != "not given" else NotGiven(),
            result=f"r{index}",
            value=index,
            ref=f"ref{index}",
            locs=MappingProxyType({"roll": row_loc(index)}),
        )
        for index, roll in enumerate(rolls)
    )
    return RollTable(
        title="T",
        id=id,
        dice=DiceExpr.parse(dice),
        rows=rows,
        clamp=RollRange.parse(clamp) if clamp else None,
        locs=MappingProxyType({"dice": DICE_LOC, "rows": ROWS_LOC}),
    )


# -- brute force ------------------------------------------------------------------------------
def rolls(expr: DiceExpr, **stats: int):
    """(total, chance) for every combination of faces, by itertools.product."""
    dice = [(t.sign, t.sides) for t in expr.terms if t.is_dice for _ in range(t.count)]
    shift = sum(t.sign * (stats[t.stat] if t.stat else t.constant) for t in expr.terms if not t.is_dice)
    faces = list(itertools.product(*(range(1, sides + 1) for _, sides in dice)))
    for combination in faces:
        yield shift + sum(sign * face for (sign, _), face in zip(dice, combination)), Fraction(1, len(faces))


def oracle(table: RollTable) -> tuple[list[tuple[Code, Location]], list[int]]:
    """What coverage must report, and the missing totals, worked out the slow way."""
    # An end is closed by an open row (`1-`, `6+`) or by the clamp's own end (`1+` closes only the bottom).
    closed_low = any(r.roll.low is None for r in table.rows) or (
        table.clamp is not None and table.clamp.low is not None
    )
    closed_high = any(r.roll.high is None for r in table.rows) or (
        table.clamp is not None and table.clamp.high is not None
    )
    if table.dice.stats and not (closed_low and closed_high):
        return [(Code.TABLE_UNBOUNDED, DICE_LOC)], []
    # With stats, any total can be rolled; rows' ends stay well inside this window.
    totals = range(-100, 101) if table.dice.stats else {total for total, _ in rolls(table.dice)}
    reads = sorted({table.read(total) for total in totals})
    expected, covered = [], set()
    for index, row in enumerate(table.rows):
        hits = {read for read in reads if read in row.roll}
        ends = [end for end in (row.roll.low, row.roll.high) if end is not None]
        if not hits:
            expected.append((Code.TABLE_UNREACHABLE, row_loc(index)))
        elif not table.dice.stats and any(end < min(reads) or end > max(reads) for end in ends):
            expected.append((Code.TABLE_UNREACHABLE, row_loc(index)))  # a written number the dice never give
        if hits & covered:
            expected.append((Code.TABLE_OVERLAP, row_loc(index)))
        covered |= hits
    missing = [read for read in reads if read not in covered]
    if missing:
        expected.append((Code.TABLE_GAP, ROWS_LOC))
    return expected, missing


def brute_force_odds(table: RollTable, **stats: int) -> list[Fraction]:
    chances = defaultdict(Fraction)
    for total, chance in rolls(table.dice, **stats):
        read = table.read(total)
        index = next(i for i, row in enumerate(table.rows) if read in row.roll)
        chances[index] += chance
    return [chances[i] for i in range(len(table.rows))]


def expand(spans: str) -> list[int]:
    values = []
    for span in spans.split(", "):
        low, _, high = re.fullmatch(r"(-?[0-9]+)(-(-?[0-9]+))?", span).groups()
        values.extend(range(int(low), int(high or low) + 1))
    return values


# -- random tables --------------------------------------------------------------------------------
PLAIN_DICE = ["D6", "2D6", "D3", "D8", "D6 + 1", "2D6 - 2", "D6 + D3", "3D6", "D6 - D6"]
STAT_DICE = ["D6 + S", "D6 + S - T", "2D6 - S"]


def random_roll(rng: random.Random, low: int, high: int) -> str:
    a, b = sorted(rng.randint(low, high) for _ in range(2))
    kind = rng.choice(["single", "range", "range", "open high", "open low"])
    return {"single": str(a), "range": f"{a}-{b}", "open high": f"{a}+", "open low": f"{b}-"}[kind]


def random_table(rng: random.Random) -> RollTable:
    modified = rng.random() < 0.4
    dice = rng.choice(STAT_DICE if modified else PLAIN_DICE)
    low, high = (-4, 14) if modified else (-2, 20)
    clamp = None
    if rng.random() < 0.3:
        a, b = sorted(rng.randint(low, high) for _ in range(2))
        # Half-open clamps on stat rolls too: `1+` closes the bottom only (test_a_half_open_clamp_on_stats).
        clamp = rng.choice([f"{a}-{b}", f"{a}+", f"{b}-"])
    return make_table(dice, [random_roll(rng, low, high) for _ in range(rng.randint(1, 6))], clamp)


def partition_table(rng: random.Random) -> RollTable:
    """A table that covers its dice exactly once: consecutive ranges, open at the ends."""
    dice = rng.choice(PLAIN_DICE)
    low, high = DiceExpr.parse(dice).bounds()
    cuts = sorted(rng.sample(range(low + 1, high + 1), rng.randint(0, min(4, high - low))))
    edges = [low, *cuts, high + 1]
    rows = [f"{a}-{b - 1}" if b - 1 > a else str(a) for a, b in zip(edges, edges[1:])]
    if rng.random() < 0.5:
        rows[0] = f"{edges[1] - 1}-"
    if rng.random() < 0.5:
        rows[-1] = f"{edges[-2]}+"
    return make_table(dice, rows)


def test_random_tables_include_half_open_clamps_on_stat_rolls():
    """The case once left out as "reported wrongly" is drawn: stat dice with a `a+` or `b-` clamp."""
    tables = []
    for seed in range(20):  # the draws test_coverage_matches_brute_force_on_random_tables makes
        rng = random.Random(seed)
        tables.extend(random_table(rng) for _ in range(50))
    half_open = [
        t for t in tables if t.dice.stats and t.clamp is not None and (t.clamp.low is None or t.clamp.high is None)
    ]
    assert len(half_open) >= 10


@pytest.mark.parametrize("seed", range(20))
def test_coverage_matches_brute_force_on_random_tables(seed):
    rng = random.Random(seed)
    for _ in range(50):
        table = random_table(rng)
        found = table_coverage(table)
        expected, missing = oracle(table)
        assert [(d.code, d.location) for d in found] == expected, (
            table.dice.text,
            [r.roll.text for r in table.rows],
            table.clamp,
        )
        gaps = [d for d in found if d.code is Code.TABLE_GAP]
        if gaps:
            spans = re.fullmatch(r"`t` has no row for (.+) on .+", gaps[0].message)[1]
            assert expand(spans) == missing


@pytest.mark.parametrize("seed", range(10))
def test_exact_partitions_are_clean_and_their_odds_equal_brute_force(seed):
    rng = random.Random(1000 + seed)
    for _ in range(20):
        table = partition_table(rng)
        assert table_coverage(table) == []
        odds = table.odds()
        assert [row for row, _ in odds] == list(table.rows)
        assert sum(p for _, p in odds) == 1
        assert [p for _, p in odds] == brute_force_odds(table)


# -- stated cases ---------------------------------------------------------------------------------
def test_gap_message_names_the_missing_results():
    (gap,) = table_coverage(make_table("2D6", ["2-5", "7-9", "12"]))
    assert (gap.code, gap.message, gap.location) == (Code.TABLE_GAP, "`t` has no row for 6, 10-11 on 2D6", ROWS_LOC)


def test_overlap_and_unreachable_messages():
    found = table_coverage(make_table("D6", ["1-3", "3-7", "8"]))
    assert [(d.code, d.message) for d in found] == [
        (Code.TABLE_UNREACHABLE, "row `3-7` of `t` runs past what D6 can roll: 7 never comes up"),
        (Code.TABLE_OVERLAP, "row `3-7` of `t` covers 3 again, as row `1-3` at 10:1 does"),
        (Code.TABLE_UNREACHABLE, "row `8` of `t` can never be rolled with D6"),
    ]


def test_a_row_of_zeros_is_told_it_is_the_highest_roll_only_where_the_dice_roll_it():
    # percentile dice print their 100 as 00 (a D1000 its 1000 as 000); a D20 rolls 20, not 100: no such hint there
    hints = {
        (dice, written): [d.hint for d in table_coverage(make_table(dice, [*spread, written]))][-1]
        for dice, spread, written in (
            ("D100", ["1-100"], "00"),
            ("D1000", ["1-1000"], "000"),
            ("D20", ["1-20"], "00"),
            # a bare 00 in YAML is the number 0; a D10's 0 face is its 10; a D20, or D6 + 4 (5 to 10), has no such face
            ("D100", ["1-100"], "0"),
            ("D10", ["1-10"], "0"),
            ("D20", ["1-20"], "0"),
            ("D6 + 4", ["5-10"], "0"),
        )
    }
    assert hints == {
        ("D100", "00"): "`00` on these dice is 100: write `100`",
        ("D1000", "000"): "`000` on these dice is 1000: write `1000`",
        ("D20", "00"): None,
        ("D100", "0"): "`00` on these dice is their 100 (YAML reads a bare `00` as 0): write `100`",
        ("D10", "0"): "`0` on these dice is their 10: write `10`",
        ("D20", "0"): None,
        ("D6 + 4", "0"): None,
    }


def test_unbounded_messages():
    (low,) = table_coverage(make_table("D6 + S", ["1-3", "4+"]))
    (high,) = table_coverage(make_table("D6 + S", ["3-", "4-6"]))
    assert low.message == "`D6 + S` can roll any total, but `t` has no lowest open row and no clamp"
    assert high.message == "`D6 + S` can roll any total, but `t` has no highest open row and no clamp"
    assert low.location == high.location == DICE_LOC


def test_a_clamped_roll_reads_as_the_nearest_end():
    table = make_table("D6 + S - T", ["1", "2-5", "6"], clamp="1-6")
    assert table_coverage(table) == []
    assert [table.read(total) for total in (-3, 0, 1, 4, 6, 7, 12)] == [1, 1, 1, 4, 6, 6, 6]
    assert table.lookup(-3).result == "r0"
    assert table.lookup(12).result == "r2"
    odds = dict((row.result, p) for row, p in table.odds(S=5, T=1))  # D6 + 4: 5..10
    assert odds == {"r0": 0, "r1": Fraction(1, 6), "r2": Fraction(5, 6)}
    assert [p for _, p in table.odds(S=5, T=1)] == brute_force_odds(table, S=5, T=1)


def test_a_clamp_makes_outside_rows_unreachable():
    found = table_coverage(make_table("D6 + S", ["0", "1-6"], clamp="1-6"))
    assert [(d.code, d.message) for d in found] == [
        (Code.TABLE_UNREACHABLE, "row `0` of `t` can never be rolled with D6 + S clamped to 1-6")
    ]


def test_open_rows_cover_any_modifier():
    table = make_table("D6 + S - T", ["1-", "2-5", "6+"])
    assert table_coverage(table) == []
    for strength, toughness in [(0, 0), (5, 1), (1, 6), (10, -3)]:
        odds = [p for _, p in table.odds(S=strength, T=toughness)]
        assert sum(odds) == 1
        assert odds == brute_force_odds(table, S=strength, T=toughness)


def test_a_half_open_clamp_on_stats():
    # the clamp `1+` closes the bottom, so nothing below 1 is missing; the top is still open
    (problem,) = table_coverage(make_table("D6 + S", ["1", "2-5", "6"], clamp="1+"))
    assert problem.code is Code.TABLE_UNBOUNDED
    assert "no highest open row" in problem.message
    assert table_coverage(make_table("D6 + S", ["1", "2-5", "6+"], clamp="1+")) == []


def test_lookup_outside_every_row():
    table = make_table("D6", ["1-3", "4-6"])
    with pytest.raises(LookupError, match="T has no row for 9"):
        table.lookup(9)


def test_ranges_not_given_are_not_checked_and_cannot_be_read():
    table = make_table("D6", ["not given", "not given"])
    assert not table.ranges_given
    with pytest.raises(LookupError, match="the source does not give the roll ranges of T"):
        table.lookup(1)
    with pytest.raises(LookupError, match="the source does not give the roll ranges of T"):
        table.odds()


def test_chance_by_result_or_ref():
    table = make_table("2D6", ["2-6", "7", "8-12"])
    assert table.chance("r1") == table.chance("ref1") == Fraction(1, 6)
    assert table.chance("r0") == Fraction(15, 36)
    assert table.chance("nothing") == 0
    assert sum(table.chance(f"r{i}") for i in range(3)) == 1


def test_a_half_open_clamp_on_stats_with_no_rows():
    (problem,) = table_coverage(make_table("D6 + S", [], clamp="1+"))
    assert problem.code is Code.TABLE_UNBOUNDED
    (gap,) = table_coverage(make_table("D6 + S", [], clamp="1-6"))
    assert gap.code is Code.TABLE_GAP


# A clamped roll table read beyond its ends, a table whose ranges the source omits, and keywords with
# parameters read off a profile row. Odds are counted by hand over a D6's six faces.

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


@pytest.mark.parametrize(
    "modifier, expected",
    [
        # totals 1..6 read 2 2 3 4 5 5
        (0, {"Grazed": Fraction(2, 6), "Stunned": Fraction(2, 6), "Out of action": Fraction(2, 6)}),
        # totals 3..8 read 3 4 5 5 5 5
        (2, {"Grazed": 0, "Stunned": Fraction(2, 6), "Out of action": Fraction(4, 6)}),
        # totals -2..3 read 2 2 2 2 2 3
        (-3, {"Grazed": Fraction(5, 6), "Stunned": Fraction(1, 6), "Out of action": 0}),
    ],
)
def test_a_clamped_table_reads_totals_beyond_its_ends_as_the_nearest_row(game, modifier, expected):
    assert odds(game, modifier=modifier) == expected


def test_lookup_and_chance_of_a_clamped_table(game):
    injury = table(game, "injury")
    assert (injury.lookup(-10).result, injury.lookup(4).result, injury.lookup(99).result) == (
        "Grazed",
        "Stunned",
        "Out of action",
    )
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


def test_a_d66_table_covers_its_36_results_and_each_row_has_their_share():
    """Mordheim's way of writing a D66 table (`16-21` is 16 and 21): it covers every result once, and each row's
    chance is its results of the 36 ways two dice fall as tens and units."""
    rolls_written = ["11-15", "16-21", "22-26", "31-33", "34-45", "46-56", "61-66"]
    table = make_table("D66", rolls_written)
    assert table_coverage(table) == []
    ways = [10 * tens + units for tens in range(1, 7) for units in range(1, 7)]
    expected = [
        Fraction(sum(1 for way in ways if RollRange.parse(roll).low <= way <= RollRange.parse(roll).high), 36)
        for roll in rolls_written
    ]
    assert [chance for _row, chance in table.odds()] == expected
    assert expected[0] == Fraction(5, 36) and expected[1] == Fraction(2, 36)
