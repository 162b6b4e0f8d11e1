"""Dice expressions, roll ranges and probability formatting, checked against brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from generator.model.dice import DiceExpr, DiceSyntaxError, DiceTooLarge, RollRange, Term, percent, target_probability
from generator.model.text import range_words


# -- parsing --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, count, sides",
    [
        ("D6", 1, 6),
        ("2D6", 2, 6),
        ("D3", 1, 3),
        ("D20", 1, 20),
        ("3D6", 3, 6),
        ("d6", 1, 6),
        ("100D6", 100, 6),
    ],
)
def test_a_single_dice_term(text, count, sides):
    expr = DiceExpr.parse(text)
    assert expr.terms == (Term(1, count=count, sides=sides),)
    assert expr.text == text.upper()  # d6 is read as D6, and printed so
    assert expr.stats == ()
    assert not expr.is_modified


@pytest.mark.parametrize(
    "written, printed", [("2d6", "2D6"), ("d6+d6", "D6+D6"), ("d6 + dex", "D6 + dex"), ("3d6 -  1", "3D6 - 1")]
)
def test_dice_typed_in_small_letters_print_as_rules_print_them_and_stats_as_written(written, printed):
    assert DiceExpr.parse(written).text == printed


def test_stats_keep_their_order_and_signs():
    expr = DiceExpr.parse("D6 + S - T - W")
    assert expr.terms == (Term(1, count=1, sides=6), Term(1, stat="S"), Term(-1, stat="T"), Term(-1, stat="W"))
    assert expr.stats == ("S", "T", "W")
    assert expr.is_modified
    assert str(expr.natural) == "D6"


def test_constants_and_spacing():
    expr = DiceExpr.parse("2D6   -2")
    assert expr.terms == (Term(1, count=2, sides=6), Term(-1, constant=2))
    assert expr.text == "2D6 -2"  # runs of spaces are collapsed
    assert expr.is_modified
    assert DiceExpr.parse("D6+1").terms[1] == Term(1, constant=1)
    assert DiceExpr.parse("-D6").terms == (Term(-1, count=1, sides=6),)


def test_a_stat_named_twice_is_listed_once():
    assert DiceExpr.parse("D6 + S - S_x + S").stats == ("S", "S_x")


def test_natural_keeps_only_the_dice():
    natural = DiceExpr.parse("2D6 + D3 - 1 + S").natural
    assert str(natural) == "2D6 + D3"
    assert not natural.is_modified


def test_terms_print_as_written():
    assert [str(t) for t in DiceExpr.parse("D6 + 2D8 + 3 - S").terms] == ["D6", "2D8", "3", "S"]


@pytest.mark.parametrize(
    "text, offset, message",
    [
        ("", 0, "empty dice expression ``"),
        ("   ", 0, "empty dice expression `   `"),
        ("+D6", 0, "`+` needs a term before it in `+D6`"),
        ("D6 ++ 1", 4, "`+` needs a term before it in `D6 ++ 1`"),
        ("D6 - -1", 5, "`-` needs a term before it in `D6 - -1`"),
        ("D6 +", 3, "`D6 +` ends with an operator"),
        ("D6 + S -  ", 7, "`D6 + S -  ` ends with an operator"),
        ("D6 D6", 3, "missing `+` or `-` before `D6` in `D6 D6`"),
        ("D6 + 2S", 6, "missing `+` or `-` before `S` in `D6 + 2S`"),
        ("D6 * 2", 3, "unexpected `*` in dice expression `D6 * 2`"),
        ("D6 + S!", 6, "unexpected `!` in dice expression `D6 + S!`"),
        ("3 + 2", 0, "`3 + 2` rolls no dice; write a die such as D6"),
        ("S", 0, "`S` rolls no dice; write a die such as D6"),
        ("D1", 0, "`D1` is not a usable die in `D1` (1-100 dice of 2 or more sides)"),
        ("0D6", 0, "`0D6` is not a usable die in `0D6` (1-100 dice of 2 or more sides)"),
        ("D6 + 101D6", 5, "`101D6` is not a usable die in `D6 + 101D6` (1-100 dice of 2 or more sides)"),
    ],
)
def test_syntax_errors_carry_their_offset(text, offset, message):
    with pytest.raises(DiceSyntaxError) as caught:
        DiceExpr.parse(text)
    assert (caught.value.offset, str(caught.value)) == (offset, message)


def test_a_syntax_error_is_a_value_error():
    assert issubclass(DiceSyntaxError, ValueError)


# -- distributions against brute force ------------------------------------------------------
def brute_force(expr: DiceExpr, **stats: int) -> dict[int, Fraction]:
    """Every face of every die enumerated with itertools.product, then counted."""
    dice = [(t.sign, t.sides) for t in expr.terms if t.is_dice for _ in range(t.count)]
    shift = sum(t.sign * (stats[t.stat] if t.stat else t.constant) for t in expr.terms if not t.is_dice)
    totals = Counter(
        shift + sum(sign * face for (sign, _), face in zip(dice, faces))
        for faces in itertools.product(*(range(1, sides + 1) for _, sides in dice))
    )
    ways = sum(totals.values())
    return {total: Fraction(n, ways) for total, n in totals.items()}


@pytest.mark.parametrize(
    "text, stats",
    [
        ("D6", {}),
        ("2D6", {}),
        ("3D6", {}),
        ("D3", {}),
        ("D20", {}),
        ("D6 + D3", {}),
        ("2D6 - 2", {}),
        ("D6 - D6", {}),
        ("-D6 + 7", {}),
        ("D8 + 2D4 - 3", {}),
        ("D6 + S - T - W", {"S": 4, "T": 3, "W": 1}),
        ("D6 + S - T - W", {"S": 3, "T": 5, "W": 2}),
        ("D6 + S - T - W", {"S": 0, "T": 0, "W": 0}),
        ("2D6 + S - T", {"S": 10, "T": -2}),
        ("D20 + S", {"S": -4}),
    ],
)
def test_distributions_equal_brute_force(text, stats):
    expr = DiceExpr.parse(text)
    distribution = expr.distribution(**stats)
    assert distribution == brute_force(expr, **stats)
    assert sum(distribution.values()) == 1
    assert all(isinstance(p, Fraction) for p in distribution.values())
    assert expr.bounds(**stats) == (min(distribution), max(distribution))


@pytest.mark.parametrize("text, dice, faces", [("D66", 2, 6), ("D666", 3, 6), ("D88", 2, 8), ("D33 + 1", 2, 3)])
def test_a_die_written_with_one_digit_again_is_read_digit_by_digit(text, dice, faces):
    """D66 is a tens die and a units die (11 to 66, 36 results alike), as skirmish games roll their injury tables:
    against every way the dice fall, each die a digit."""
    shift = 1 if "+ 1" in text else 0
    ways = list(itertools.product(range(1, faces + 1), repeat=dice))
    read = Counter(int("".join(map(str, way))) + shift for way in ways)
    expected = {total: Fraction(n, len(ways)) for total, n in read.items()}
    assert DiceExpr.parse(text).distribution() == expected
    assert str(DiceExpr.parse(text)) == text


def test_dice_that_are_not_one_digit_again_keep_their_sides():
    for text, sides in (("D100", 100), ("D10", 10), ("D11", 11), ("D12", 12), ("D20", 20)):
        assert DiceExpr.parse(text).distribution() == {face: Fraction(1, sides) for face in range(1, sides + 1)}


def test_two_d6_has_the_familiar_triangle():
    distribution = DiceExpr.parse("2D6").distribution()
    assert [distribution[t] * 36 for t in range(2, 13)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]


def test_stats_must_all_be_given():
    with pytest.raises(TypeError, match="D6 \\+ S - T needs values for T"):
        DiceExpr.parse("D6 + S - T").die(S=1)


def test_dice_expressions_are_values():
    assert DiceExpr.parse("D6 + S") == DiceExpr.parse("D6 + S")
    assert hash(DiceExpr.parse("2D6")) == hash(DiceExpr.parse("2D6"))
    assert str(DiceExpr.parse("D6  +  S")) == "D6 + S"


# -- roll ranges ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "key, low, high, text, shown",
    [
        (5, 5, 5, "5", "5"),
        ("5", 5, 5, "5", "5"),
        ("0", 0, 0, "0", "0"),
        ("-1", -1, -1, "-1", "-1"),
        ("1-2", 1, 2, "1-2", "1-2"),
        (" 1 - 2 ", 1, 2, "1 - 2", "1-2"),
        ("1–2", 1, 2, "1–2", "1-2"),  # an en dash, as copied from a web page
        ("1—2", 1, 2, "1—2", "1-2"),  # an em dash
        ("2\u00a0-\u00a05", 2, 5, "2\u00a0-\u00a05", "2-5"),  # the no-break spaces a French editor types
        ("2\u202f–\u202f5", 2, 5, "2\u202f–\u202f5", "2-5"),  # narrow ones
        ("1\u2212", None, 1, "1\u2212", "1 or less"),  # a minus sign
        ("-3--1", -3, -1, "-3--1", "-3--1"),
        ("6+", 6, None, "6+", "6+"),
        ("2 +", 2, None, "2 +", "2+"),
        ("1-", None, 1, "1-", "1 or less"),
        # an open end as the outputs print it, and as source texts write it
        ("0 or less", None, 0, "0 or less", "0 or less"),
        ("-1 or less", None, -1, "-1 or less", "-1 or less"),
        ("7 or more", 7, None, "7 or more", "7+"),
        ("7 or More", 7, None, "7 or More", "7+"),
        ("≤0", None, 0, "≤0", "0 or less"),
        ("≥ 7", 7, None, "≥ 7", "7+"),
        (">=7", 7, None, ">=7", "7+"),
    ],
)
def test_roll_ranges_parse(key, low, high, text, shown):
    roll = RollRange.parse(key)
    assert (roll.low, roll.high, roll.text, range_words(roll)) == (low, high, text, shown)


@pytest.mark.parametrize(
    "key, message",
    [
        ("3-1", "range `3-1` runs backwards; write `1-3`"),
        ("3--4", "range `3--4` runs backwards; write `3-4`"),  # a dash too many, not 3 down to -4
        ("2--1", "range `2--1` runs backwards; write `-1-2`"),
        ("0--2", "range `0--2` runs backwards; write `0-2`"),
        ("41-00", "range `41-00` runs backwards; write `41-100`"),  # percentile dice read 00 as 100
        (True, "`True` is not a roll"),
        ("abc", "`abc` is not a roll: write 5, 1-2, 6+ or 1-"),
        ("1-2-3", "`1-2-3` is not a roll: write 5, 1-2, 6+ or 1-"),
        ("+3", "`+3` is not a roll: write 5, 1-2, 6+ or 1-"),
        ("", "`` is not a roll: write 5, 1-2, 6+ or 1-"),
        ("1 to 3", "`1 to 3` is not a roll: write 5, 1-2, 6+ or 1-"),
        ("7 or so", "`7 or so` is not a roll: write 5, 1-2, 6+ or 1-"),
        ("or more", "`or more` is not a roll: write 5, 1-2, 6+ or 1-"),
    ],
)
def test_bad_roll_keys(key, message):
    with pytest.raises(DiceSyntaxError) as caught:
        RollRange.parse(key)
    assert str(caught.value) == message


def test_roll_range_membership():
    assert [v for v in range(-2, 10) if v in RollRange.parse("3-5")] == [3, 4, 5]
    assert [v for v in range(-2, 10) if v in RollRange.parse("6+")] == [6, 7, 8, 9]
    assert [v for v in range(-2, 10) if v in RollRange.parse("1-")] == [-2, -1, 0, 1]
    assert RollRange.parse("2-3").within([1, 2, 3, 4, 3]) == [2, 3, 3]


# -- formatting and targets -----------------------------------------------------------------
@pytest.mark.parametrize(
    "probability, digits, shown",
    [
        (Fraction(1, 3), 1, "33.3%"),
        (Fraction(2, 3), 1, "66.7%"),
        (Fraction(1, 6), 1, "16.7%"),
        (Fraction(1, 2), 1, "50%"),
        (Fraction(1), 1, "100%"),
        (Fraction(0), 1, "0%"),
        (Fraction(13, 18), 1, "72.2%"),
        (Fraction(1, 3), 2, "33.33%"),
        (Fraction(1, 8), 2, "12.5%"),
        (Fraction(1, 6), 0, "17%"),
        (Fraction(1, 1000), 1, "0.1%"),
        # an exact half rounds up, as people read percentages (12.5% -> 13%), not to even
        (Fraction(1, 8), 0, "13%"),
    ],
)
def test_percent(probability, digits, shown):
    assert percent(probability, digits) == shown


def test_percent_takes_what_fraction_takes():
    assert percent(Fraction(1, 4)) == percent(0.25) == percent(Fraction("1/4")) == "25%"


@pytest.mark.parametrize(
    "target, sides, chance",
    [
        (4, 6, Fraction(1, 2)),
        (2, 6, Fraction(5, 6)),
        (6, 6, Fraction(1, 6)),
        (7, 6, Fraction(0)),
        (1, 6, Fraction(1)),
        (0, 6, Fraction(1)),
        (2, 20, Fraction(19, 20)),
        (11, 10, Fraction(0)),
    ],
)
def test_target_probability(target, sides, chance):
    assert target_probability(target, sides) == chance
    assert chance == Fraction(sum(1 for face in range(1, sides + 1) if face >= target), sides)


# Roll ranges, probabilities and dice expressions, worked by hand.


@pytest.mark.parametrize(
    "key, low, high, shown",
    [
        (5, 5, 5, "5"),
        ("5", 5, 5, "5"),
        ("1-2", 1, 2, "1-2"),
        ("1 – 2", 1, 2, "1-2"),
        ("6+", 6, None, "6+"),
        ("1-", None, 1, "1 or less"),
        ("-1", -1, -1, "-1"),
        ("-2--1", -2, -1, "-2--1"),
        ("0", 0, 0, "0"),
    ],
)
def test_roll_ranges(key, low, high, shown):
    roll = RollRange.parse(key)
    assert (roll.low, roll.high, range_words(roll)) == (low, high, shown)


def test_roll_range_membership_at_its_edges():
    assert [o for o in range(0, 9) if o in RollRange.parse("2-4")] == [2, 3, 4]
    assert RollRange.parse("5+").within(range(1, 8)) == [5, 6, 7]
    assert RollRange.parse("2-").within(range(1, 5)) == [1, 2]


@pytest.mark.parametrize(
    "key, error",
    [
        (True, DiceSyntaxError),
        ("4-2", DiceSyntaxError),
        ("x", DiceSyntaxError),
        ("1000000001", DiceTooLarge),
        (10**9 + 1, DiceTooLarge),
        ("5++", DiceSyntaxError),
    ],
)
def test_roll_ranges_refused(key, error):
    with pytest.raises(error):
        RollRange.parse(key)


def test_target_probability_by_hand():
    assert target_probability(4) == Fraction(1, 2)
    assert target_probability(6) == Fraction(1, 6)
    assert target_probability(7) == 0
    assert target_probability(None) == 0
    assert target_probability(1) == 1
    assert target_probability(8, sides=8) == Fraction(1, 8)
    assert target_probability(3, sides=4) == Fraction(1, 2)


@pytest.mark.parametrize(
    "probability, digits, text",
    [
        (Fraction(1, 3), 1, "33.3%"),
        (Fraction(2, 3), 1, "66.7%"),
        (Fraction(1, 2), 1, "50%"),
        (Fraction(1), 1, "100%"),
        (Fraction(0), 1, "0%"),
        (Fraction(1, 8), 1, "12.5%"),
        (Fraction(1, 8), 0, "13%"),
        (Fraction(1, 3), 2, "33.33%"),
        (Fraction(1, 400), 1, "0.3%"),
        (Fraction(1, 2000), 1, "0.1%"),
        (Fraction(1, 6), 1, "16.7%"),
    ],
)
def test_percent_rounds_halves_up(probability, digits, text):
    assert percent(probability, digits) == text


def test_percent_default_is_one_digit():
    assert percent(Fraction(1, 6)) == "16.7%"


@pytest.mark.parametrize(
    "text, terms",
    [
        ("D6", "D6"),
        ("2D6", "2D6"),
        ("D6 + S - T", "D6 S T"),
        ("1d6", "D6"),
        ("-D6 + 3", "D6 3"),
    ],
)
def test_dice_terms_print_as_written(text, terms):
    assert " ".join(str(t) for t in DiceExpr.parse(text).terms) == terms


def test_dice_expression_facts():
    expr = DiceExpr.parse("2D6 + S - T + S + 1")
    assert expr.stats == ("S", "T")
    assert expr.is_modified
    assert not DiceExpr.parse("D6 + D3").is_modified
    assert str(expr.natural) == "2D6"
    assert str(DiceExpr.parse("D6  +   2")) == "D6 + 2"
    assert [t.sign for t in DiceExpr.parse("-D6 + 3 - S").terms] == [-1, 1, -1]


def test_dice_distributions_by_hand():
    assert DiceExpr.parse("D6 + S - T").bounds(S=4, T=3) == (2, 7)
    assert DiceExpr.parse("2D6").distribution()[7] == Fraction(6, 36)
    assert DiceExpr.parse("D3 - 1").distribution() == {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)}
    assert DiceExpr.parse("-D3").bounds() == (-3, -1)
    with pytest.raises(TypeError):
        DiceExpr.parse("D6 + S").die()


@pytest.mark.parametrize(
    "text, error, offset",
    [
        ("", DiceSyntaxError, 0),
        ("3", DiceSyntaxError, 0),
        ("D6 +", DiceSyntaxError, 3),
        ("D6 D6", DiceSyntaxError, 3),
        ("+ D6", DiceSyntaxError, 0),
        ("- - D6", DiceSyntaxError, 2),
        ("D6 $", DiceSyntaxError, 3),
        ("D1", DiceSyntaxError, 0),
        ("0D6", DiceSyntaxError, 0),
        ("101D6", DiceSyntaxError, 0),
        ("100D21", DiceTooLarge, 0),
        ("100D20", None, 0),
        ("D1001", DiceTooLarge, 0),
        ("2D1000", None, 0),
        ("3D1000", DiceTooLarge, 0),
        ("D6 + 99999999999", DiceTooLarge, 5),
    ],
)
def test_dice_syntax_errors_and_caps(text, error, offset):
    if error is None:  # exactly at the caps: 100 dice, 2,000 dice × sides
        assert DiceExpr.parse(text).text == text
        return
    with pytest.raises(error) as caught:
        DiceExpr.parse(text)
    assert caught.value.offset == offset


def test_a_dice_syntax_error_points_at_the_start_unless_told():
    assert DiceSyntaxError("m").offset == 0
    assert DiceSyntaxError("m", 4).offset == 4
    with pytest.raises(DiceSyntaxError) as caught:
        RollRange.parse("4-2")
    assert caught.value.offset == 0


def test_long_dice_text_is_cut_to_forty_characters_in_messages():
    from generator.model.dice import _short

    assert _short("x" * 40) == "x" * 40
    assert _short("y" * 41) == "y" * 39 + "…"


# Roll keys and dice terms at their caps, and what a roll needs; messages as the source states them.

BEYOND = "is beyond 1,000,000,000, the largest number a roll may state"


# -- dice: numbers too large to state ------------------------------------------------------------------
@pytest.mark.parametrize(
    "key, message",
    [
        (10**10, f"the roll `10000000000` in `10000000000` {BEYOND}"),
        (-(10**10), f"the roll `-10000000000` in `-10000000000` {BEYOND}"),
        ("99999999999+", f"the roll `99999999999` in `99999999999+` {BEYOND}"),
        ("12345678901234567890", f"the roll `12345678901234567890` in `12345678901234567890` {BEYOND}"),
        ("123456789012345678901", f"the roll `123456789012… (21 digits)` in `123456789012345678901` {BEYOND}"),
        (
            "1-123456789012345678901234",
            f"the roll `123456789012… (24 digits)` in `1-123456789012345678901234` {BEYOND}",
        ),
    ],
)
def test_a_roll_key_beyond_the_largest_roll_names_the_number_and_points_at_the_start(key, message):
    with pytest.raises(DiceTooLarge) as raised:
        RollRange.parse(key)
    assert str(raised.value) == message
    assert raised.value.offset == 0


def test_the_largest_roll_may_be_stated_negative_as_well():
    assert (RollRange.parse(-1000000000).low, RollRange.parse(-1000000000).high) == (-1000000000, -1000000000)
    assert (RollRange.parse(1000000000).low, RollRange.parse(1000000000).high) == (1000000000, 1000000000)
    with pytest.raises(DiceTooLarge):
        RollRange.parse(-1000000001)


@pytest.mark.parametrize(
    "text, message, offset",
    [
        ("D6 + 99999999999D6", f"the dice count `99999999999` in `D6 + 99999999999D6` {BEYOND}", 5),
        ("D6 + D99999999999", f"the number of sides `99999999999` in `D6 + D99999999999` {BEYOND}", 5),
        ("D6 + 99999999999", f"the number `99999999999` in `D6 + 99999999999` {BEYOND}", 5),
        ("D6 - D1001", "`D1001` has 1,001 sides; the largest die is a D1000", 5),
        ("20D101", "`20D101` rolls 2,020 dice × sides; the limit is 2,000 (such as 2D1000 or 20D100)", 0),
    ],
)
def test_a_dice_term_beyond_a_cap_says_which_number_and_where(text, message, offset):
    with pytest.raises(DiceTooLarge) as raised:
        DiceExpr.parse(text)
    assert str(raised.value) == message
    assert raised.value.offset == offset


def test_a_two_sided_die_is_a_die():
    coin = DiceExpr.parse("2D2")
    assert coin.terms == (Term(1, count=2, sides=2),)
    assert coin.distribution() == {2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
    with pytest.raises(DiceSyntaxError):
        DiceExpr.parse("D1")


def test_a_roll_needing_stats_names_every_missing_one():
    with pytest.raises(TypeError) as raised:
        DiceExpr.parse("D6 + S - T").die()
    assert str(raised.value) == "D6 + S - T needs values for S, T"


def test_only_a_positive_sign_adds_a_term():
    """Parsing gives signs of +1 and -1; a term built by hand with any sign that is not positive is taken away."""
    taken = DiceExpr("D6", (Term(0, count=1, sides=6),))
    assert sorted(taken.distribution()) == [-6, -5, -4, -3, -2, -1]
    added = DiceExpr("D6", (Term(1, count=1, sides=6),))
    assert sorted(added.distribution()) == [1, 2, 3, 4, 5, 6]
