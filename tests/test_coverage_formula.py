"""The expression language's edges: what each function takes besides rolls, and every refusal a located
message. Expected values are counted by hand over a D6's six faces."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from generator.model.formula import MAX_LENGTH, Expression, FormulaError


def ev(text: str, **scope):
    return Expression.parse(text).evaluate(scope)


def faces(die: icepool.Die) -> dict:
    """A roll as {outcome: how many of its equally likely faces give it}."""
    return dict(die.items())


# -- functions given plain numbers, not rolls --------------------------------------------------------
def test_a_plain_number_is_a_roll_that_always_comes_out_the_same():
    assert faces(ev("total(2, 3)")) == {6: 1}
    assert ev("mean(5)") == 5
    assert ev("mean(1/2)") == Fraction(1, 2)


@pytest.mark.parametrize("text, expected", [
    ("chance(True)", 1), ("chance(3 > 4)", 0), ("chance(1/2)", Fraction(1, 2)), ("chance(0)", 0),
])
def test_chance_of_a_plain_condition_or_probability(text, expected):
    assert ev(text) == expected


def test_where_on_a_plain_condition_picks_one_side():
    assert ev("where(1 > 0, 'a', 'b')") == "a"
    assert ev("where(0 > 1, 'a', 'b')") == "b"


def test_clamp_a_roll_piles_the_ends_onto_the_limits():
    # D6 kept within 2..5: faces 1 and 2 give 2, 6 and 5 give 5.
    assert faces(ev("clamp(D6, 2, 5)")) == {2: 2, 3: 1, 4: 1, 5: 2}


def test_rounding_a_roll_rounds_each_outcome():
    # halves of 1..6 are ½ 1 1½ 2 2½ 3; down: 0 1 1 2 2 3. Quarters ¼..1½ up: 1 1 1 1 2 2.
    assert faces(ev("floor(D6 / 2)")) == {0: 1, 1: 2, 2: 2, 3: 1}
    assert faces(ev("ceil(D6 / 4)")) == {1: 4, 2: 2}


def test_a_conditional_on_a_roll_is_a_roll():
    assert faces(ev("1 if D6 > 3 else 0")) == {0: 3, 1: 3}


def test_chance_of_one_total():
    assert ev("chance_of(2D6, 7)") == Fraction(6, 36)


# -- refusals ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, message", [
    ("mean('x')", "'x' is not a roll"),
    ("count(1/2, D6 > 3)", "a pool has 0 to 100 dice, not 1/2"),
    ("count(D6, D6 > 3)", "a pool has 0 to 100 dice, not a roll"),
    ("count(True, D6 > 3)", "a pool has 0 to 100 dice, not True"),
    ("highest(101)", "a pool has 0 to 100 dice, not 101"),
    ("lowest(-1)", "a pool has 0 to 100 dice, not -1"),
    ("chance(2)", "chance() takes a condition or a roll, not 2"),
    ("each(D6, 3)", "each() takes a roll and a formula, table or lookup"),
    ("(1)(2)", "only functions, formulas and tables can be called, by name"),
    ("speed + 1", "`speed` is not an input, a value or a `let` name here"),
    ("1 + 'a'", "`1 + 'a'` failed: unsupported operand type(s) for +: 'int' and 'str'"),
])
def test_each_refusal_says_what_is_wrong(text, message):
    with pytest.raises(FormulaError) as caught:
        ev(text)
    assert str(caught.value) == message


def test_an_expression_longer_than_the_cap_is_refused_before_parsing():
    widest = "max(" + ", ".join(["1"] * ((MAX_LENGTH - 5) // 3)) + ")"
    assert len(widest) <= MAX_LENGTH and Expression.parse(widest).evaluate({}) == 1
    with pytest.raises(FormulaError, match="at most 2000 characters; split it with `let:`"):
        Expression.parse("x" * (MAX_LENGTH + 1))


def test_a_syntax_error_is_located_at_its_column():
    with pytest.raises(FormulaError) as caught:
        Expression.parse("(" * 201 + "1" + ")" * 201)
    assert "too many nested parentheses" in str(caught.value)
    assert caught.value.offset == 200  # the 201st parenthesis, counted from 0


def test_formulas_that_call_each_other_without_end_are_a_message():
    def loops(value):  # stands for a formula that calls itself
        return loops(value)

    with pytest.raises(FormulaError, match="^the formulas call each other without end$"):
        ev("loops(1)", loops=loops)
