"""The expression language's rolls, their cache and its messages.

Rolls made from dice and numbers are remembered (``formula._ROLLS``): the second time a formula asks for
``highest(2)`` it gets the die built the first time. Every test here starts from an empty cache, so what is
checked is the roll as it is built, not one left over from an earlier test; and a few tests check the cache
itself: the same roll asked for twice is the same object, different rolls never share an entry, and the
cache stays within its bound.

Every expected value is written by hand (odds counted on paper, messages as the code words them). None is
computed with the code under test.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from types import SimpleNamespace

import icepool
import pytest

from generator.model import formula as F
from generator.model.formula import Expression, FormulaError
from generator.model.units import Distance


@pytest.fixture(autouse=True)
def empty_roll_cache(monkeypatch):
    monkeypatch.setattr(F, "_ROLLS", {})


def _odds(die) -> dict:
    return {outcome: die.probability(outcome) for outcome in die.outcomes()}


# -- each roll, built from nothing ---------------------------------------------------------------------


def test_the_highest_and_lowest_of_a_pool_are_right_when_first_rolled():
    # of the 36 rolls of 2D6, the highest is 1 in one (1-1), 2 in three, ... 6 in eleven
    assert _odds(F.highest(2)) == {
        1: Fraction(1, 36),
        2: Fraction(3, 36),
        3: Fraction(5, 36),
        4: Fraction(7, 36),
        5: Fraction(9, 36),
        6: Fraction(11, 36),
    }
    assert _odds(F.lowest(2)) == {
        1: Fraction(11, 36),
        2: Fraction(9, 36),
        3: Fraction(7, 36),
        4: Fraction(5, 36),
        5: Fraction(3, 36),
        6: Fraction(1, 36),
    }
    # of the 9 rolls of 2D3: highest 1 in one, 2 in three, 3 in five
    assert _odds(F.highest(2, icepool.d(3))) == {1: Fraction(1, 9), 2: Fraction(3, 9), 3: Fraction(5, 9)}
    assert _odds(F.lowest(2, icepool.d(3))) == {1: Fraction(5, 9), 2: Fraction(3, 9), 3: Fraction(1, 9)}
    # one die is just that die; a number is a die that always shows it
    assert _odds(F.highest(1, icepool.d(3))) == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    assert _odds(F.lowest(3, 4)) == {4: 1}
    # no dice rolled: 0, whatever the die
    for none in (F.highest(0), F.lowest(0), F.highest(0, icepool.d(3)), F.lowest(0, icepool.d(3))):
        assert _odds(none) == {0: 1}


def test_totals_counts_and_written_dice_are_right_when_first_rolled():
    assert _odds(F.total(2, icepool.d(2))) == {2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
    assert _odds(F.total(3, 2)) == {6: 1}
    assert _odds(F.count(2, icepool.d6 >= 5)) == {0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}
    # 2D3: totals 2..6 in 1, 2, 3, 2, 1 of the 9 rolls
    assert _odds(F._dice(2, 3)) == {
        2: Fraction(1, 9),
        3: Fraction(2, 9),
        4: Fraction(3, 9),
        5: Fraction(2, 9),
        6: Fraction(1, 9),
    }
    assert _odds(Expression.parse("2D3").evaluate({})) == _odds(icepool.Die({2: 1, 3: 2, 4: 3, 5: 2, 6: 1}))


def test_the_chance_of_a_condition_is_an_exact_fraction_from_zero_to_one():
    assert F.chance(icepool.d6 >= 5) == Fraction(1, 3)
    never = F.chance(icepool.d6 > 6)
    assert never == 0 and type(never) is Fraction
    assert F.chance(0) == 0 and F.chance(1) == 1 and F.chance(Fraction(1, 2)) == Fraction(1, 2)
    assert F.chance(True) == 1 and F.chance(False) == 0


# -- what a wrong argument is told ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: F.chance(2), "chance() takes a condition or a roll, not 2"),
        (lambda: F.chance(Fraction(3, 2)), "chance() takes a condition or a roll, not 3/2"),
        (lambda: F.chance(-1), "chance() takes a condition or a roll, not -1"),
        (lambda: F.chance(0.5), "chance() takes a condition or a roll, not 0.5"),
        (lambda: F.chance("x"), "chance() takes a condition or a roll, not 'x'"),
        (lambda: F._as_die("x"), "'x' is not a roll"),
        (lambda: F.total(2, "D6"), "'D6' is not a roll"),
        (lambda: F.count(-1, icepool.d6 > 3), "a pool has 0 to 100 dice, not -1"),
        (lambda: F.highest(True), "a pool has 0 to 100 dice, not True"),
        (lambda: F.lowest(Fraction(1, 2)), "a pool has 0 to 100 dice, not 1/2"),
        (lambda: F.total(101, icepool.d6), "a pool has 0 to 100 dice, not 101"),
    ],
    ids=[
        "two",
        "three-halves",
        "minus-one",
        "float",
        "text",
        "as-die",
        "total-of-text",
        "count",
        "highest-bool",
        "lowest-half",
        "total-too-many",
    ],
)
def test_a_wrong_argument_to_a_dice_function_is_named_in_its_message(call, message):
    with pytest.raises(FormulaError) as error:
        call()
    assert str(error.value) == message


# -- the cache of rolls ----------------------------------------------------------------------------------


def test_the_same_roll_asked_for_twice_is_built_once():
    d3 = icepool.d(3)
    for make in (
        lambda: F._dice(2, 6),
        lambda: F.highest(2),
        lambda: F.lowest(2),
        lambda: F.highest(2, d3),
        lambda: F.lowest(2, d3),
        lambda: F.total(2, d3),
        lambda: F.count(2, d3),
        lambda: F.chance(d3),
    ):
        assert make() is make()
    for text in ("D6 + 1", "1 + D6", "D6 + D6", "D6 >= 4"):
        expression = Expression.parse(text)
        assert expression.evaluate({}) is expression.evaluate({})


def test_different_rolls_never_share_a_remembered_entry():
    d3, d4 = icepool.d(3), icepool.d(4)
    two_d6 = F._dice(2, 6)
    three_d6 = F._dice(3, 6)
    assert F._dice(2, 6) is two_d6 and F._dice(3, 6) is three_d6
    of_d3 = F.total(2, d3)
    of_d4 = F.total(2, d4)
    assert F.total(2, d3) is of_d3 and F.total(2, d4) is of_d4
    assert _odds(of_d4)[8] == Fraction(1, 16)
    # 1, True and 1/1 are equal numbers but different arguments: each keeps its own roll
    of_one = F.count(2, 1)
    of_true = F.count(2, True)
    whole = Fraction(1)
    of_whole = F.count(2, whole)
    assert F.count(2, 1) is of_one and F.count(2, True) is of_true and F.count(2, whole) is of_whole
    assert _odds(of_true) == {2: 1}


def test_the_cache_of_rolls_stays_within_its_bound(monkeypatch):
    monkeypatch.setattr(F, "_ROLLS_KEPT", 3)
    made = []
    for sides in range(2, 12):
        made.append(F._dice(1, sides))
        assert len(F._ROLLS) <= 3
    assert [die.max_outcome() for die in made] == list(range(2, 12))
    assert F._dice(1, 11) is made[-1]


# -- dividing rolls, the largest number, and the messages of a failing evaluation -------------------------


def test_a_roll_divided_or_dividing_is_still_a_roll():
    assert _odds(Expression.parse("D6 / 2").evaluate({})) == {Fraction(k, 2): Fraction(1, 6) for k in range(1, 7)}
    assert _odds(Expression.parse("2 / D2").evaluate({})) == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    assert Expression.parse("7 / 2").evaluate({}) == Fraction(7, 2)


def test_a_roll_divided_by_a_number_has_exact_outcomes_even_where_a_float_would_round():
    # D3 / 3: a third, two thirds and one, each a third of the time; 1/3 as a float is not a third
    assert _odds(Expression.parse("D3 / 3").evaluate({})) == {
        Fraction(1, 3): Fraction(1, 3),
        Fraction(2, 3): Fraction(1, 3),
        1: Fraction(1, 3),
    }
    assert Expression.parse("chance(D3 / 3 == 1 / 3)").evaluate({}) == Fraction(1, 3)


def test_a_distance_divided_by_a_roll_is_a_roll_of_distances_in_its_unit():
    halved = Expression.parse("move / D2").evaluate({"move": Distance(6, "inches")})
    assert _odds(halved) == {Distance(6, "inches"): Fraction(1, 2), Distance(3, "inches"): Fraction(1, 2)}


# -- what building a roll costs from the budget ------------------------------------------------------------


def test_the_highest_or_lowest_of_a_pool_costs_one_step_per_outcome_of_each_die():
    # 50 rolls of a six-sided die: 300 steps
    for function in (F.highest, F.lowest):
        with F.budget(300):
            assert function(50, icepool.Die([1, 2, 3, 4, 5, 6])).max_outcome() == 6
        with F.budget(299), pytest.raises(F.FormulaTooLarge, match="more than 299 steps"):
            function(50, icepool.Die([1, 2, 3, 4, 5, 6]))


def test_counting_a_pools_successes_costs_the_outcomes_of_the_die_asked_and_the_pools_size_squared():
    # 10 rolls asked whether a D6 is above a mark: a condition of 2 outcomes, then 10 x 10 steps to build the count
    for mark in (3, 5):
        none_above = Fraction(sum(1 for face in range(1, 7) if face <= mark), 6) ** 10
        with F.budget(102):
            assert _odds(F.count(10, icepool.d6 > mark))[0] == none_above
        with F.budget(101), pytest.raises(F.FormulaTooLarge, match="more than 101 steps"):
            F.count(10, icepool.d6 > mark)
    with F.budget(1 + 100):  # a plain true asked of every roll: one outcome
        assert _odds(F.count(10, True)) == {10: 1}


def test_where_on_a_roll_costs_one_step_per_outcome_of_the_condition_and_of_each_side():
    # a condition of 2 outcomes (false, true), a D4 where it holds, a D3 where it does not: 2 + 4 + 3 steps
    with F.budget(9):
        assert _odds(F.where(icepool.d6 > 3, icepool.d(4), icepool.d(3)))[4] == Fraction(1, 8)
    with F.budget(8), pytest.raises(F.FormulaTooLarge, match="more than 8 steps"):
        F.where(icepool.d6 > 3, icepool.d(4), icepool.d(3))


def test_the_highest_of_a_roll_of_texts_is_refused_as_a_failed_formula():
    text = 'highest(2, where(D6 > 3, "hit", "miss"))'
    with pytest.raises(FormulaError) as error:
        Expression.parse(text).evaluate({})
    assert str(error.value) == f'`{text}` failed: can only concatenate str (not "int") to str'


def test_a_result_may_reach_the_largest_number_but_not_pass_it():
    assert Expression.parse("999999999999 + 1").evaluate({}) == 10**12
    with pytest.raises(FormulaError) as error:
        Expression.parse("999999999999 + 2").evaluate({})
    assert str(error.value) == "a result passed 1,000,000,000,000, the largest number a formula may reach"


def test_a_formula_that_calls_itself_without_end_is_refused():
    looping = Expression.parse("again(1)")
    scope = {"again": lambda n: looping.evaluate(scope)}
    with pytest.raises(FormulaError) as error:
        looping.evaluate(scope)
    assert str(error.value) == "the formulas call each other without end"


def test_a_call_that_fails_is_reported_with_the_expression_and_why():
    def no_row(key):
        raise LookupError(f"no row for {key}")

    with pytest.raises(FormulaError) as error:
        Expression.parse("injury(7)").evaluate({"injury": no_row})
    assert str(error.value) == "`injury(7)` failed: no row for 7"


# -- what parsing refuses, and where it points -------------------------------------------------------------


def test_an_expression_may_be_two_thousand_characters_long_and_no_longer():
    assert Expression.parse("x" * 2000).names == {"x" * 2000}
    with pytest.raises(FormulaError) as error:
        Expression.parse("x" * 2001)
    assert str(error.value) == "an expression has at most 2000 characters; split it with `let:`"


@pytest.mark.parametrize(
    "text, message, offset",
    [
        ("1 + )", "`1 + )` is not an expression: unmatched ')'", 4),
        (")", "`)` is not an expression: unmatched ')'", 0),
        ("1)", "`1)` is not an expression: unmatched ')'", 1),
        ("a b", "`a b` is not an expression: invalid syntax", 2),
        # CPython 3.11 gives no column (offset 0) for an expression that stops short: it points at the start
        ("1 +", "`1 +` is not an expression: invalid syntax", 0),
    ],
    ids=["unmatched-late", "unmatched-first", "unmatched-second", "two-names", "stops-short"],
)
def test_an_expression_that_does_not_parse_says_why_and_where(text, message, offset):
    with pytest.raises(FormulaError) as error:
        Expression.parse(text)
    assert (str(error.value), error.value.offset) == (message, offset)


def _depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def test_an_expression_nested_deeper_than_the_parser_can_go_is_refused_with_its_start():
    text = "-" * 400 + "1"
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_depth() + 60)  # the parser builds its tree within about 3 x the room left
    try:
        with pytest.raises(FormulaError) as error:
            Expression.parse(text)
    finally:
        sys.setrecursionlimit(limit)
    assert str(error.value) == "`" + "-" * 40 + "` is too deeply nested"


# -- the calculator of a ruleset, a matrix's rows, points -------------------------------------------------


def test_a_ruleset_has_one_calculator_and_another_ruleset_its_own():
    from generator.model.calculate import calculator
    from generator.model.ruleset import Ruleset

    one = Ruleset(id="one", meta=SimpleNamespace(title="One"))
    other = Ruleset(id="other", meta=SimpleNamespace(title="Other"))
    first = calculator(one)
    assert first.ruleset is one and calculator(one) is first
    assert calculator(other) is not first and calculator(other).ruleset is other
    assert calculator(one) is first


def test_a_matrix_row_is_found_by_its_id_written_with_spaces():
    from generator.model.entries import ProfileMatrix, ProfileRow

    foot = ProfileRow(id="heavy_foot", name="Spearmen")
    matrix = ProfileMatrix(id="troops", title="Troops", columns=(), rows=(foot,))
    assert matrix.row("Heavy Foot") is foot and matrix.row("heavy_foot") is foot and matrix.row("SPEARMEN") is foot
    with pytest.raises(KeyError) as error:
        matrix.row("archers")
    assert error.value.args == ("archers",)


def test_a_points_value_that_is_not_exact_is_named_in_the_error():
    from generator.model.points import exact

    for wrong, shown in ((1.5, "1.5"), ("2", "'2'"), (True, "True")):
        with pytest.raises(TypeError) as error:
            exact(wrong)
        assert str(error.value) == f"points are whole numbers or Fractions, not {shown}"
