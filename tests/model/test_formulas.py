"""The expression language, quantities, bases and overlays, against hand-written values and brute force."""

from __future__ import annotations

import ast
import inspect
import itertools
import pickle
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from generator.model.calculate import calculator
from generator.model.formula import Expression, FormulaError, path_of
from generator.model.quantity import Quantity, QuantityError, number_text, parse_number
from generator.validate import check_project

FACES = range(1, 7)


def ev(text: str, **scope):
    return Expression.parse(text).evaluate(scope)


# -- quantities ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "written, kind, magnitude, unit, shown",
    [
        ("2", "number", 2, "", "2"),
        ("1½", "number", Fraction(3, 2), "", "1½"),
        ("1 1/2", "number", Fraction(3, 2), "", "1½"),
        ("3/2", "number", Fraction(3, 2), "", "1½"),
        ("1.5", "number", Fraction(3, 2), "", "1½"),
        ("-1", "number", -1, "", "-1"),
        ('6"', "distance", 6, "inches", '6"'),
        ("2½ inches", "distance", Fraction(5, 2), "inches", '2½"'),
        ("3 hexes", "distance", 3, "hexes", "3 hexes"),
        ("1 hex", "distance", 1, "hexes", "1 hex"),
        ("2 minutes", "count", 2, "minutes", "2 minutes"),
        ("1 minutes", "count", 1, "minutes", "1 minute"),  # one of a count: its last word without its one s
        ("1 game turns", "count", 1, "game turns", "1 game turn"),
        ("1 brass", "count", 1, "brass", "1 brass"),  # not "1 bras"
        ("1 ox", "count", 1, "ox", "1 ox"),
        ("1 dice", "count", 1, "dice", "1 die"),
        ("1 feet", "distance", 1, "feet", "1 foot"),
        ("1 cm", "distance", 1, "cm", "1 cm"),
        ("4+", "target", 4, "", "4+"),
    ],
)
def test_quantities_read_as_written(written, kind, magnitude, unit, shown):
    quantity = Quantity.parse(written)
    assert (quantity.kind, quantity.magnitude, quantity.unit, str(quantity)) == (kind, magnitude, unit, shown)


def test_dice_quantities_keep_their_distribution():
    two_d6 = Quantity.parse("2D6")
    assert two_d6.kind == "dice" and str(two_d6) == "2D6"
    assert two_d6.magnitude.distribution()[7] == Fraction(6, 36)


@pytest.mark.parametrize("bad", ["", "abc 3", "1/0", "3 furlongs!", "12345678901234567890"])
def test_bad_numbers_are_refused(bad):
    with pytest.raises(QuantityError):
        parse_number(bad) if " " not in bad else Quantity.parse(bad, "distance")


@pytest.mark.parametrize(
    "written, meant",
    [("3 hexs", "hexes"), ("6 inchs", "inches"), ("2 squres", "squares"), ("4 fet", "feet"), ("2 inc", "inch")],
)
def test_a_slip_in_a_unit_of_distance_is_refused_with_the_unit_meant(written, meant):
    """Three letters are enough to slip on (`fet` for feet); any other word counts something (2 cards, 3 ox)."""
    with pytest.raises(QuantityError, match=f"^`{written.split()[1]}` is not a unit; did you mean `{meant}`\\?$"):
        Quantity.parse(written)
    assert Quantity.parse("3 ox").unit == "ox" and Quantity.parse("2 cards").kind == "count"


def test_number_text_prints_fractions_as_people_write_them():
    assert [number_text(x) for x in (Fraction(1, 2), Fraction(7, 4), Fraction(5, 7), -3, 10)] == [
        "½",
        "1¾",
        "5/7",
        "-3",
        "10",
    ]


# -- the language against brute force ----------------------------------------------------------
@pytest.mark.parametrize("attack, armour", list(itertools.product(range(1, 5), range(1, 6))))
def test_count_is_the_enumerated_number_of_successes(attack, armour):
    exactly_one = sum(1 for rolls in itertools.product(FACES, repeat=attack) if sum(r > armour for r in rolls) == 1)
    assert ev("chance(count(attack, D6 > armour) == 1)", attack=attack, armour=armour) == Fraction(
        exactly_one, 6**attack
    )


@pytest.mark.parametrize("dice, markers", list(itertools.product(range(1, 4), range(0, 7))))
def test_highest_is_the_enumerated_best_die(dice, markers):
    passing = sum(1 for rolls in itertools.product(FACES, repeat=dice) if max(rolls) > markers)
    assert ev("chance(highest(dice, D6) > markers)", dice=dice, markers=markers) == Fraction(passing, 6**dice)


@pytest.mark.parametrize("target", range(2, 14))
def test_sums_of_dice_against_the_36_outcomes(target):
    hits = sum(1 for a, b in itertools.product(FACES, FACES) if a + b >= target)
    assert ev("chance(2D6 >= target)", target=target) == Fraction(hits, 36)


def test_a_chain_of_comparisons_reads_each_roll_once():
    for low, high in itertools.product(range(0, 8), repeat=2):
        inside = sum(1 for face in FACES if low <= face <= high)
        assert ev("chance(low <= D6 <= high)", low=low, high=high) == Fraction(inside, 6), (low, high)
    alike = sum(1 for a, b, c in itertools.product(FACES, repeat=3) if a == b == c)
    assert ev("chance(D6 == D6 == D6)") == Fraction(alike, 6**3)  # three dice written: three rolls
    assert ev("chance(3 < 4 < D6)") == Fraction(2, 6)
    assert ev("4 < 3 < D6") is False  # a plain start that fails ends the chain, as in Python


def test_in_asks_whether_a_roll_is_one_of_the_values():
    for chosen in itertools.combinations(range(0, 8), 2):
        among = sum(1 for face in FACES if face in chosen)
        assert ev("chance(D6 in chosen)", chosen=chosen) == Fraction(among, 6), chosen
        assert ev("chance(D6 not in chosen)", chosen=chosen) == Fraction(6 - among, 6), chosen
    assert ev("chance(D6 in (1, 2))") == Fraction(2, 6)
    with pytest.raises(FormulaError, match="^`in` looks among values, not rolls"):
        ev("3 in (D6, 2)")


def test_and_or_and_not_of_rolls_hold_outcome_by_outcome():
    pairs = list(itertools.product(FACES, FACES))
    for a, b in itertools.product(range(0, 7), repeat=2):
        both = sum(1 for x, y in pairs if x > a and y > b)
        either = sum(1 for x, y in pairs if x > a or y > b)
        assert ev("chance(D6 > a and D6 > b)", a=a, b=b) == Fraction(both, 36), (a, b)
        assert ev("chance(D6 > a or D6 > b)", a=a, b=b) == Fraction(either, 36), (a, b)
    for a in range(0, 7):
        assert ev("chance(not (D6 > a))", a=a) == Fraction(sum(1 for x in FACES if not x > a), 6)
    assert ev("False or 2 > 1") is True and ev("0 and D6") == 0  # plain values still stop where Python stops


def test_max_and_min_of_rolls_are_the_higher_and_the_lower_roll():
    for first, second in [(6, 6), (6, 8), (4, 10)]:
        pairs = list(itertools.product(range(1, first + 1), range(1, second + 1)))
        for k in range(0, 12):
            higher = sum(1 for a, b in pairs if max(a, b) >= k)
            lower = sum(1 for a, b in pairs if min(a, b) >= k)
            assert ev(f"chance(max(D{first}, D{second}) >= k)", k=k) == Fraction(higher, len(pairs)), (first, k)
            assert ev(f"chance(min(D{first}, D{second}) >= k)", k=k) == Fraction(lower, len(pairs)), (first, k)
    assert ev("chance(min(D6, 3) == 3)") == Fraction(4, 6)  # a 3, 4, 5 or 6 rolled
    assert ev("chance(max((D6, D6, D6)) == 6)") == 1 - Fraction(5**3, 6**3)
    assert ev("chance(max(D6) == 6)") == Fraction(1, 6)  # the one roll, not its highest face
    assert (ev("max(2, 3)"), ev("min(2, 3)"), ev("max((4, 1))")) == (3, 2, 4)


def test_lowest_and_total():
    worst = sum(1 for rolls in itertools.product(FACES, repeat=3) if min(rolls) <= 2)
    assert ev("chance(lowest(3) <= 2)") == Fraction(worst, 216)
    assert ev("chance(total(2, D3) == 4)") == Fraction(3, 9)  # 1+3, 2+2, 3+1


def test_division_is_exact_and_whole_results_are_ints():
    assert ev("7 / 2") == Fraction(7, 2)
    assert ev("6 / 2") == 3 and isinstance(ev("6 / 2"), int)
    assert ev("floor(7 / 2)") == 3 and ev("ceil(7 / 2)") == 4


@pytest.mark.parametrize(
    "text, faces",
    [
        ("D6 / 2", {Fraction(face, 2) for face in FACES}),
        ("2 / D6", {Fraction(2, face) for face in FACES}),
        ("D6 / D6", {Fraction(a, b) for a, b in itertools.product(FACES, FACES)}),
    ],
)
def test_a_roll_divided_keeps_exact_outcomes_never_floats(text, faces):
    roll = ev(text)
    assert set(roll.outcomes()) == faces
    assert all(type(outcome) in (int, Fraction) for outcome in roll.outcomes())


def test_an_expression_nested_past_the_limit_is_refused_before_it_is_evaluated():
    assert ev("+".join(["1"] * 150)) == 150  # a long sum nests one addition inside the next
    assert ev("-" * 200 + "1") == 1  # 200 minus signs: 200 operations, each inside the next
    for deep in ("-" * 201 + "1", "+".join(["1"] * 900), "-" * 1999 + "1"):
        with pytest.raises(FormulaError) as refused:
            Expression.parse(deep)
        assert str(refused.value) == f"`{deep[:40]}` nests more than 200 operations deep; split it with `let:`"


def test_the_mean_and_chances_of_a_divided_roll_are_exact():
    assert ev("mean(D6 / 2)") == Fraction(7, 4)  # (1 + 2 + ... + 6) / 6 / 2
    assert ev("chance(D6 / 2 > 2)") == Fraction(1, 3)  # 5 and 6
    ratios = [Fraction(a, b) for a, b in itertools.product(FACES, FACES)]
    assert ev("mean(D6 / D6)") == sum(ratios, Fraction(0)) / 36


def test_conditions_and_impossible_results():
    rule = "None if toughness - strength >= 4 else clamp(4 - strength + toughness, 2, 6)"
    assert [ev(rule, strength=1, toughness=t) for t in (1, 2, 3, 4, 5)] == [4, 5, 6, 6, None]
    assert ev("'sideways' in ('sideways', 'backwards')") is True
    assert ev("where(D6 >= 4, 1, 0) == 1").probability(True) == Fraction(1, 2)


def test_the_way_an_expression_goes_decides_tests_of_numbers_and_takes_both_sides_of_a_test_of_a_roll():
    text = "(near if D6 >= 4 else far) + bonus if range > 1 else point_blank"
    way = path_of(Expression.parse(text), {"range": 2, "near": 1, "far": 0, "bonus": 1, "point_blank": 3})
    # the test of numbers is decided and only its side is read; the roll's test is no decision: both its sides are
    assert [(ast.unparse(d.test), d.held) for d in way.decisions] == [("range > 1", True)]
    assert way.names == ("range", "dice", "near", "far", "bonus")  # `D6` is written for `dice(1, 6)`
    way = path_of(Expression.parse(text), {"range": 1, "point_blank": 3})
    assert [(ast.unparse(d.test), d.held) for d in way.decisions] == [("range > 1", False)]
    assert way.names == ("range", "point_blank")


@pytest.mark.parametrize(
    "text",
    [
        "a.b",
        "x[0]",
        "2 ** 8",
        "lambda: 1",
        "[i for i in (1, 2)]",
        "open('x')",
        "__import__('os')",
        "f(*args)",
        "~3",
        "1.5",
    ],
)
def test_what_the_language_refuses(text):
    with pytest.raises(FormulaError):
        ev(text, x=(1,), f=min, args=(1,))


def test_numbers_cannot_grow_without_end():
    with pytest.raises(FormulaError, match="largest number"):
        ev("999999999 * 999999999 * 999999999")
    with pytest.raises(FormulaError, match="dice"):
        ev("chance(1000D6 > 3)")
    with pytest.raises(FormulaError, match="sides"):
        ev("chance(D100000 > 3)")


# -- a project: formulas calling formulas, lookups, bases and overlays --------------------------------
BASE = """
ruleset: {title: Standard charts, kind: base}
values:
  double: {value: 2, label: Twice}
formulas:
  to_wound:
    title: To wound
    inputs: {strength: {label: S, min: 1, max: 10}, toughness: {label: T, min: 1, max: 10}}
    expr: None if toughness - strength >= 4 else clamp(4 - strength + toughness, 2, 6)
    result: target
"""
GAME = """
ruleset: {title: A game, extends: charts}
values:
  cavalry: {value: 1½, label: A horseman's score}
formulas:
  score:
    title: Score
    inputs: {foot: {label: Foot, min: 0, max: 9}, horse: {label: Horse, min: 0, max: 9}}
    expr: foot + horse * cavalry
  outcome:
    title: Outcome
    inputs: {ours: {label: Ours, type: number, min: 0}, theirs: {label: Theirs, type: number, min: 0}}
    expr: by_difference(floor(ours - theirs))
    result: text
  wounds_on_six:
    title: A wound needs a six
    inputs: {strength: {label: S, min: 1, max: 10}}
    expr: to_wound(strength, min(10, strength + double)) == 6
    result: bool
lookups:
  by_difference:
    title: By difference
    key: Difference
    rows:
      - {when: 3+, result: Prisoners taken}
      - {when: 1-2, result: Pushed back}
      - {when: 0-, result: Nothing}
"""
HOUSE = """
ruleset: {title: A game with house rules, extends: game, overlay: true}
values:
  cavalry: {value: 2, house_note: Horses count double}
  double: {value: 3, house_note: A base value changed too}
"""


def test_formulas_lookups_and_a_base_work_together(tmp_path):
    root = make_project(tmp_path, {"charts/ruleset.yaml": BASE, "game/ruleset.yaml": GAME})
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics]
    scope = calculator(result.project.ruleset("game")).scope
    assert scope["score"](2, 2) == 5  # 2 foot + 2 horse at 1½
    assert scope["outcome"](scope["score"](0, 3), scope["score"](1, 0)) == "Prisoners taken"  # 4½ against 1
    assert scope["outcome"](1, 1) == "Nothing"
    assert [scope["wounds_on_six"](s) for s in (1, 5)] == [True, True]  # T = S + 2 needs a 6
    with pytest.raises(FormulaError, match="runs from 0 to 9"):
        scope["score"](10, 0)


def test_an_overlay_changes_values_and_keeps_the_originals(tmp_path):
    root = make_project(tmp_path, {"charts/ruleset.yaml": BASE, "game/ruleset.yaml": GAME, "house/ruleset.yaml": HOUSE})
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics]
    house = result.project.ruleset("house")
    assert calculator(house).scope["score"](2, 2) == 6  # horses now count 2
    assert calculator(result.project.ruleset("game")).scope["score"](2, 2) == 5  # the original is untouched
    cavalry = house.value("cavalry")
    assert (str(cavalry.value), str(cavalry.original), cavalry.house_note) == ("2", "1½", "Horses count double")
    assert str(house.value("double").original) == "2" and calculator(house).scope["wounds_on_six"](1) is True
    assert house.title == "A game with house rules"
    assert house.examples == result.project.ruleset("game").examples  # run again under the house values


def test_removing_a_base_is_a_located_error_not_a_crash(tmp_path):
    root = make_project(tmp_path, {"game/ruleset.yaml": GAME})
    lines = [d.format().splitlines()[0] for d in check_project(root).diagnostics.errors]
    assert (
        lines[0] == "rules_src/game/ruleset.yaml:2:35: error[base-ruleset]: `game` extends `charts`, "
        "which is not a ruleset of this project"
    )


def test_a_ruleset_may_not_repeat_its_bases_ids(tmp_path):
    clash = GAME.replace("values:\n", "values:\n  double: {value: 5, label: again}\n")
    root = make_project(tmp_path, {"charts/ruleset.yaml": BASE, "game/ruleset.yaml": clash})
    codes = [d.code.code for d in check_project(root).diagnostics.errors]
    assert codes == ["base-ruleset"]


def test_bases_that_extend_each_other_are_refused(tmp_path):
    root = make_project(
        tmp_path,
        {"a/ruleset.yaml": "ruleset: {title: A, extends: b}\n", "b/ruleset.yaml": "ruleset: {title: B, extends: a}\n"},
    )
    messages = [d.message for d in check_project(root).diagnostics.errors]
    assert messages == ["`b` extends itself through a → b → a"]


def test_each_asks_one_roll_several_questions():
    # a natural 6 that is also a hit on 4+: 1 face in 6 (two separate rolls would give 1/6 * 1/2)
    assert ev(
        "chance(each(D6, six_that_hits, 4))", six_that_hits=lambda face, needed: face >= needed and face == 6
    ) == Fraction(1, 6)


def test_a_dice_value_may_name_stats():
    injury = Quantity.parse("D6 + S - T - W", "dice")
    assert injury.kind == "dice" and injury.magnitude.bounds(S=3, T=3, W=1) == (0, 5)


def test_mean_is_the_enumerated_average():
    hits = sum(sum(r > 4 for r in rolls) for rolls in itertools.product(FACES, repeat=3))
    assert ev("mean(count(3, D6 > 4))") == Fraction(hits, 216)


def test_inputs_default_to_true_or_false(tmp_path):
    game = """
ruleset: {title: Defaults}
formulas:
  move:
    title: Move
    inputs: {riders: {label: Riders, type: bool, default: false}}
    expr: 3 if riders else 2
charts:
  moves:
    title: Moves
    formula: move
    columns: {input: riders, values: [no, yes]}
"""
    root = make_project(tmp_path, {"game/ruleset.yaml": game})
    result = check_project(root)
    codes = [d.code.code for d in result.diagnostics.errors]
    assert codes == ["bad-chart"]  # `no` and `yes` are words, not true and false
    root = make_project(tmp_path, {"game/ruleset.yaml": game.replace("[no, yes]", "[false, true]")})
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics]
    scope = calculator(result.project.ruleset("game")).scope
    assert (scope["move"](), scope["move"](riders=True)) == (2, 3)


def test_a_true_or_false_input_left_out_is_passed_on_as_false(tmp_path):
    """`default: 0` on a true-or-false input is false, and reaches a formula it calls as false, not the number 0."""
    game = """
ruleset: {title: Defaults}
formulas:
  move:
    title: Move
    inputs: {riders: {label: Riders, type: bool, default: 0}}
    expr: 3 if riders else 2
  charge:
    title: Charge
    inputs: {riders: {label: Riders, type: bool, default: 0}}
    expr: 2 * move(riders)
"""
    root = make_project(tmp_path, {"game/ruleset.yaml": game})
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics]
    scope = calculator(result.project.ruleset("game")).scope
    assert (scope["charge"](), scope["charge"](riders=True)) == (4, 6)


def test_dice_values_roll_in_formulas_and_optional_inputs(tmp_path):
    game = """
ruleset: {title: Flight}
values:
  flight: {value: 2D6, label: How far a model flees}
formulas:
  flees_at_least:
    title: Flees at least
    inputs: {inches: {label: Inches, min: 2, max: 12}}
    expr: chance(flight >= inches)
    result: chance
  shamble:
    title: Shamble
    inputs: {move: {label: Move, min: 1, max: 10}, enemy: {label: Nearest enemy, min: 0, max: 20, optional: true}}
    expr: move / 2 if enemy is None else min(move / 2, enemy)
"""
    with pytest.raises(FormulaError):
        Expression.parse("a is None")  # `is` is refused; optional inputs compare with ==
    game = game.replace("enemy is None", "enemy == None")
    result = check_project(make_project(tmp_path, {"game/ruleset.yaml": game}))
    assert result.ok, [d.format() for d in result.diagnostics]
    scope = calculator(result.project.ruleset("game")).scope
    at_least_7 = sum(1 for a, b in itertools.product(FACES, FACES) if a + b >= 7)
    assert scope["flees_at_least"](7) == Fraction(at_least_7, 36)
    assert (scope["shamble"](5), scope["shamble"](5, enemy=1), scope["shamble"](5, None)) == (
        Fraction(5, 2),
        1,
        Fraction(5, 2),
    )
    assert str(calculator(result.project.ruleset("game")).values().flight) == "2D6"


def test_the_examples_of_one_rule_share_a_namespace(tmp_path, capsys):
    from generator.cli import main

    body = (
        "      Doubling 2 gives 4:\n\n      ```python\n      >>> helper = lambda n: n * 2\n      >>> helper(2)\n      "
        "4\n      ```\n\n"
        "      and 3 gives 6:\n\n      ```python\n      >>> helper(3)\n      6\n      ```\n"
    )
    other = "      Doubling 1 gives 2:\n\n      ```python\n      >>> helper(1)\n      2\n      ```\n"
    rules = (
        "ruleset: {title: Shared}\nchapters: {c: {title: C}}\nrules:\n"
        f"  first:\n    title: First\n    chapter: c\n    body: |\n{body}"
        f"  second:\n    title: Second\n    chapter: c\n    body: |\n{other}"
    )
    root = make_project(tmp_path, {"game/ruleset.yaml": rules})
    assert main(["-C", str(root), "check"]) == 1
    err = capsys.readouterr().err
    # the first rule's second block sees its helper; another rule does not
    assert err.count("error[example-failed]") == 1 and "rules.second: `helper(1)` raised NameError" in err


# -- budgets: what a formula may build is bounded before it is built -------------------------------
import icepool
from helpers import make_project

from generator.model import formula as F
from generator.model.formula import (  # noqa: E402
    MAX_LENGTH,
    Budget,
    FormulaTooLarge,
    budget,
    explode,
    keep_highest,
    keep_lowest,
    maximum,
    mean,
    minimum,
    reroll,
)


@pytest.mark.parametrize("written", ["2D1000", "20D100", "100D20", "D1000"])
def test_dice_up_to_the_tables_cap_of_dice_times_sides_are_rolled(written):
    count, sides = (int(n or 1) for n in written.split("D"))
    assert ev(f"mean({written})") == Fraction(count * (sides + 1), 2)


@pytest.mark.parametrize(
    "written, why",
    [
        ("mean(100D1000)", "`100D1000` rolls 100,000 dice × sides; the limit is 2,000"),
        ("mean(3D1000)", "`3D1000` rolls 3,000 dice × sides; the limit is 2,000"),
        ("mean(21D100)", "`21D100` rolls 2,100 dice × sides; the limit is 2,000"),
        ("mean(D1001)", "`D1001` has 1,001 sides; the largest die is a D1000"),
    ],
)
def test_dice_over_the_tables_cap_are_refused_where_they_are_written(written, why):
    with pytest.raises(FormulaTooLarge) as refused:
        Expression.parse(written)
    assert why in str(refused.value)
    assert refused.value.offset == written.index(written.split("(")[1].rstrip(")"))


def test_dice_made_from_numbers_keep_the_same_cap():
    assert ev("mean(dice(n, 1000))", n=2) == 1001
    with pytest.raises(FormulaTooLarge, match="`3D1000` rolls 3,000 dice × sides"):
        ev("mean(dice(n, 1000))", n=3)


def test_a_total_of_rolls_keeps_the_cap_of_dice_times_outcomes():
    assert ev("mean(total(100, D20))") == 1050
    assert ev("mean(total(2, D1000))") == 1001
    with pytest.raises(FormulaTooLarge, match="rolls 2,100 dice × sides"):
        ev("mean(total(100, D21))")


def test_the_highest_and_lowest_of_a_hundred_d1000_are_exact_and_quick():
    best, worst = ev("highest(100, D1000)"), ev("lowest(100, D1000)")
    assert best.probability(1000) == 1 - Fraction(999, 1000) ** 100  # not all of them below 1000
    assert best.probability(1) == Fraction(1, 1000) ** 100
    assert worst.probability(1) == 1 - Fraction(999, 1000) ** 100
    assert worst.probability(1000) == Fraction(1, 1000) ** 100


@pytest.mark.parametrize("count, sides", [(1, 6), (2, 6), (3, 6), (3, 4), (4, 3)])
def test_the_highest_and_lowest_of_a_pool_equal_brute_force(count, sides):
    rolls = list(itertools.product(range(1, sides + 1), repeat=count))
    for function, pick in (("highest", max), ("lowest", min)):
        roll = ev(f"{function}({count}, D{sides})")
        for outcome in range(1, sides + 1):
            assert roll.probability(outcome) == Fraction(sum(pick(r) == outcome for r in rolls), len(rolls))


def test_two_rolls_combine_up_to_a_million_outcome_pairs():
    import icepool

    assert len(ev("a + b", a=icepool.d(1000), b=icepool.d(1000))) == 1999
    with pytest.raises(
        FormulaTooLarge,
        match="a roll of 1,000 outcomes with one of 1,001 makes 1,001,000 pairs; the limit is 1,000,000",
    ):
        ev("a + b", a=icepool.d(1000), b=icepool.d(1001))


def test_squaring_a_roll_again_and_again_is_refused_before_it_is_built():
    with pytest.raises(FormulaTooLarge, match="3,996,001 pairs"):
        ev("(2D1000 * 2D1000)")


@pytest.mark.parametrize(
    "text, passes",
    [
        ("'a' * 1000", True),
        ("'a' * 1001", False),
        ("500 * 'ab'", True),
        ("501 * 'ab'", False),
        ("(1, 2) * 500", True),
        ("(1, 2) * 501", False),
        ("'aaaa' * 1000000000000", False),
    ],
)
def test_a_text_or_list_is_repeated_to_at_most_a_thousand_items(text, passes):
    if passes:
        assert len(ev(text)) == 1000
    else:
        with pytest.raises(FormulaTooLarge, match="the limit is 1,000"):
            ev(text)


@pytest.mark.parametrize(
    "text, repeated",
    [
        ("('ab' if D6 > 3 else 'abcd') * 251", "1,004"),  # a roll of texts: its longest, 4, times 251
        ("'abcd' * (D6 * 50)", "1,200"),  # a text times a roll: its largest, 300
    ],
)
def test_a_roll_repeating_a_text_is_refused_by_its_longest_text_and_its_largest_number(text, repeated):
    with pytest.raises(FormulaTooLarge, match=f"^a text or list repeated to {repeated} items; the limit is 1,000$"):
        ev(text)
    assert max(len(outcome) for outcome in ev(text.replace("251", "250").replace("50", "41")).outcomes()) <= 1000


def test_texts_joined_past_a_thousand_characters_are_refused():
    assert len(ev("a + a", a="x" * 500)) == 1000
    with pytest.raises(FormulaTooLarge, match="a text or list of 1,002 items; the limit is 1,000"):
        ev("a + a", a="x" * 501)


def test_a_text_is_neither_formatted_nor_read_as_a_number():
    with pytest.raises(FormulaError, match="`%` takes numbers"):
        ev("'%999999999d' % 1")
    with pytest.raises(FormulaError, match="is not a number"):
        ev("'1e999999999' / 1")
    with pytest.raises(FormulaError, match="is not a number"):
        ev("floor('1e999999999')")


def test_a_fraction_has_at_most_4096_bits():
    assert ev("1 / a", a=2**4095) == Fraction(1, 2**4095)
    with pytest.raises(FormulaTooLarge, match="more than 4,096 bits"):
        ev("1 / a", a=2**4096)


def test_a_roll_whose_outcomes_pass_the_largest_number_is_refused():
    assert ev("mean(D6 * 100000000000)") == 350000000000
    with pytest.raises(FormulaTooLarge, match="a result passed 1,000,000,000,000"):
        ev("mean(D6 * 1000000000000)")


def test_rolls_compared_together_may_combine_up_to_the_cap_of_outcome_pairs_and_not_one_more(monkeypatch):
    """A chained comparison rolls each die once over every combination: at the cap it is computed, past it refused
    before any is (the cap lowered here, so the combinations are few)."""
    monkeypatch.setattr(F, "MAX_PAIRS", 36)
    assert _chances(ev("D6 < D6 < D1")) == {False: Fraction(1)}  # 6 x 6 x 1 = 36 combinations
    with pytest.raises(FormulaTooLarge, match="^comparing these rolls takes 72 combinations; the limit is 36$"):
        ev("D6 < D6 < D2")


def test_a_budget_counts_steps_and_refuses_the_first_one_over():
    held = Budget(10)
    held.spend(10)
    with pytest.raises(FormulaTooLarge, match="more than 10 steps"):
        held.spend(1)


def test_evaluating_an_expression_costs_one_step_per_operation():
    with budget(3):
        assert ev("1 + 2") == 3  # an addition of two numbers: three operations
    with budget(2), pytest.raises(FormulaTooLarge, match="more than 2 steps"):
        ev("1 + 2")


def test_one_budget_holds_for_every_evaluation_within_it():
    with budget(5):
        ev("1 + 2")
        with pytest.raises(FormulaTooLarge):
            ev("1 + 2")


def _chain(formulas: int):
    """``formulas`` expressions, each calling the next: a top one and ``formulas - 1`` below it."""
    scope = {}
    for depth in range(formulas):
        below = Expression.parse(f"step{depth + 1}(1)" if depth + 1 < formulas else "1")
        scope[f"step{depth}"] = lambda _n, below=below: below.evaluate(scope)
    return Expression.parse("step0(1)").evaluate(scope)


def test_formulas_call_formulas_forty_deep_but_not_forty_one():
    assert _chain(39) == 1  # the top expression and 39 below it: 40 deep
    with pytest.raises(FormulaError, match="^the formulas call each other without end$"):
        _chain(40)


def test_a_formula_calling_itself_over_a_die_is_told_quickly_as_calling_itself():
    again = Expression.parse("mean(each(D6, again))")
    scope = {"again": lambda _n: again.evaluate(scope)}
    with pytest.raises(FormulaError, match="^the formulas call each other without end$") as error:
        again.evaluate(scope)
    assert not isinstance(error.value, FormulaTooLarge)


def test_running_out_of_memory_while_evaluating_is_a_too_large_error():
    def greedy(_n):
        raise MemoryError

    with pytest.raises(FormulaTooLarge, match="`greedy\\(1\\)` ran out of memory"):
        ev("greedy(1)", greedy=greedy)


# -- budgets in `check`: located too-large errors ----------------------------------------------------
def _checked(tmp_path: Path, entries: str) -> list[str]:
    root = make_project(tmp_path, {"game/ruleset.yaml": "ruleset: {title: A game}\n" + entries})
    return [d.format().splitlines()[0] for d in check_project(root).diagnostics.errors]


def _sum_chart(rows: str, columns: str) -> str:
    return f"""
formulas:
  sum:
    title: Sum
    inputs: {{a: {{label: A}}, b: {{label: B}}}}
    expr: a + b
charts:
  grid:
    title: Grid
    formula: sum
    rows: {{input: a, range: {rows}}}
    columns: {{input: b, range: {columns}}}
    show: number
"""


def test_a_chart_of_four_hundred_cells_is_checked_and_one_more_row_is_refused(tmp_path):
    assert _checked(tmp_path / "fits", _sum_chart("1-20", "1-20")) == []
    assert _checked(tmp_path / "over", _sum_chart("1-21", "1-20")) == [
        "rules_src/game/ruleset.yaml:12:11: error[too-large]: `grid` has 420 cells; a chart has at most 400"
    ]


def test_a_chart_axis_longer_than_a_chart_may_be_is_refused_before_it_is_listed(tmp_path):
    # the narrow ranges first: where the axis were listed before it is measured, they fail at once, not out of memory
    assert _checked(tmp_path / "fits", _sum_chart("1", "1-400")) == []  # one row of as many cells as a chart may have
    assert _checked(tmp_path / "over", _sum_chart("1", "1-401")) == [
        "rules_src/game/ruleset.yaml:13:32: error[too-large]: the columns of `grid` take 401 values; "
        "a chart has at most 400 cells"
    ]
    assert _checked(tmp_path, _sum_chart("1", "1-1000000000")) == [
        "rules_src/game/ruleset.yaml:13:32: error[too-large]: the columns of `grid` take 1,000,000,000 values; "
        "a chart has at most 400 cells"
    ]


def _lookup(high: int) -> str:
    return f"""
lookups:
  far:
    title: Far
    key: Distance
    over: 1-{high}
    rows:
      - {{when: 1-{high - 1}, result: near}}
      - {{when: {high}, result: far}}
"""


def test_a_lookup_spans_ten_thousand_numbers_but_not_one_more(tmp_path):
    assert _checked(tmp_path / "fits", _lookup(10_001)) == []
    assert _checked(tmp_path / "over", _lookup(10_002)) == [
        "rules_src/game/ruleset.yaml:7:11: error[too-large]: the rows of `far` span 1 to 10,002; a lookup may span at "
        "most 10,000 numbers"
    ]


def test_a_formula_over_the_step_budget_is_a_too_large_error_at_its_expression(tmp_path):
    entries = """
formulas:
  grows:
    title: Grows
    inputs: {n: {label: N, min: 0, max: 100}}
    expr: "grows(n - 1) + grows(n - 2) if n > 1 else 1"
"""
    [line] = _checked(tmp_path, entries)
    assert line.startswith("rules_src/game/ruleset.yaml:7:11: error[too-large]: `grows` is too large to check for n=")
    assert line.endswith(
        "computing it takes more than 3,000,000 steps (operations and roll outcomes), the most one check may take"
    )


def test_a_let_step_that_is_too_large_is_located_at_that_step(tmp_path):
    entries = """
formulas:
  square:
    title: Square
    let:
      a: 2D1000
      b: a * a
    expr: mean(b)
"""
    assert _checked(tmp_path, entries) == [
        "rules_src/game/ruleset.yaml:8:10: error[too-large]: `square` is too large to check for no inputs: combining "
        "a roll of 1,999 outcomes with one of 1,999 makes 3,996,001 pairs; the limit is 1,000,000"
    ]


def test_dice_over_the_cap_in_a_formula_are_a_too_large_error_where_written(tmp_path):
    entries = """
formulas:
  storm:
    title: Storm
    expr: mean(100D1000)
"""
    assert _checked(tmp_path, entries) == [  # at the die, not the expression's start
        "rules_src/game/ruleset.yaml:6:16: error[too-large]: `100D1000` rolls 100,000 dice × sides; the limit is 2,000 "
        "(such as 2D1000 or 20D100)"
    ]


def test_a_targets_die_is_checked_as_the_outputs_roll_it(tmp_path):
    entries = """
formulas:
  needed:
    title: Needed
    inputs: {n: {label: N, min: 1, max: 6}}
    expr: n
    result: target
    die: {die}
"""
    assert _checked(tmp_path / "fits", entries.replace("{die}", "2D1000")) == []
    assert _checked(tmp_path / "over", entries.replace("{die}", "3D1000")) == [
        "rules_src/game/ruleset.yaml:9:10: error[too-large]: the `die:` of `needed` does not compute: `3D1000` rolls "
        "3,000 dice × sides; the limit is 2,000 (such as 2D1000 or 20D100)"
    ]
    assert _checked(tmp_path / "named", entries.replace("{die}", "D6 + n")) == [
        "rules_src/game/ruleset.yaml:9:10: error[bad-formula]: the `die:` of `needed` names `n`: a die is rolled as "
        "written, without inputs, values or formulas"
    ]


def test_a_check_that_runs_out_of_memory_is_a_located_error_after_what_it_found(tmp_path, monkeypatch):
    from generator.diagnostics import Code, Diagnostic
    from generator.validate import checks

    def greedy(ruleset):
        yield Diagnostic(Code.BAD_VALUE, "found first", ruleset.meta.loc)
        raise MemoryError

    monkeypatch.setitem(checks.CHECKS, "greedy_things", greedy)
    assert _checked(tmp_path, "") == [
        "rules_src/game/ruleset.yaml:1:10: error[bad-value]: found first",
        "rules_src/game/ruleset.yaml:1:10: error[too-large]: checking the greedy things of `game` ran out of memory",
    ]


def test_icepool_running_out_of_stack_is_a_roll_too_large_not_formulas_calling_each_other():
    module = {"__name__": "icepool.population"}  # a function of icepool's that recurses without end
    exec("def deep(n):\n    return deep(n + 1)\n", module)
    with pytest.raises(FormulaTooLarge, match="^a roll has too many outcomes to compute$"):
        ev("build(1)", build=module["deep"])


def test_an_expression_evaluated_once_still_pickles_and_evaluates_alike():
    """An expression keeps the function it is compiled to after its first evaluation; a process pool's task that
    holds it is still pickled, without that function, and the copy compiles its own."""
    expression = Expression.parse("bonus * 2 if bonus > 0 else 3")
    assert expression.evaluate({"bonus": 2}) == 4
    copy = pickle.loads(pickle.dumps(expression))
    assert copy.text == expression.text and copy.names == {"bonus"}
    assert [copy.evaluate({"bonus": b}) for b in (-1, 0, 1, 5)] == [3, 3, 2, 10]


@pytest.mark.stack  # counts frames of Python's stack: under mutmut each call also passes through its trampoline
def test_each_nested_operation_takes_one_frame_of_pythons_stack():
    """What MAX_DEPTH promises: an expression nested as deep as it allows is evaluated far inside Python's recursion
    limit, so a formula calling another, each that deep, is never told as formulas calling each other without end."""
    deepest = Expression.parse("-" * 200 + "1")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 200 + 30)  # a frame for each operation, 30 for evaluating itself
    try:
        assert deepest.evaluate({}) == 1
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.stack  # counts the formulas on the stack: under mutmut each call also passes through its trampoline
def test_the_stack_running_out_as_icepool_calls_back_into_a_formula_is_a_roll_too_large():
    module = {"__name__": "icepool.population"}  # icepool calling a formula back while it builds a roll
    exec("def build(formula):\n    return formula.evaluate({})\n", module)
    inner = Expression.parse("1")
    with budget() as held:

        def spend(steps):  # the stack runs out as the inner formula starts: as it draws its first step
            if held.calls_deep >= 2:
                raise RecursionError("maximum recursion depth exceeded")
            Budget.spend(held, steps)

        held.spend = spend
        with pytest.raises(FormulaTooLarge, match="^a roll has too many outcomes to compute$"):
            ev("build(1)", build=lambda _n: module["build"](inner))


def test_a_function_from_no_module_that_calls_itself_without_end_is_a_message():
    module = {}  # code run with exec() and no `__name__`, as a caller's helper may be
    exec("def loops(value):\n    return loops(value)\n", module)
    with pytest.raises(FormulaError, match="^the formulas call each other without end$"):
        ev("loops(1)", loops=module["loops"])


@pytest.mark.parametrize(
    "name, shown",
    [
        ("n" * 32, "`greedy(" + "n" * 32 + ")`"),  # 40 characters: shown whole
        ("n" * 33, "`greedy(" + "n" * 32 + "…`"),  # 41: the first 39 and an ellipsis
    ],
    ids=["forty characters", "forty-one"],
)
def test_an_expression_that_ran_out_of_memory_is_shown_up_to_forty_characters(name, shown):
    def greedy(_n):
        raise MemoryError

    with pytest.raises(FormulaTooLarge) as error:
        ev(f"greedy({name})", greedy=greedy, **{name: 1})
    assert str(error.value) == f"{shown} ran out of memory"


def test_lookup_rows_that_cover_the_same_numbers_over_and_over_are_refused_before_they_are_compared(tmp_path):
    def lookup(rows: int) -> str:
        listed = "".join(f"      - {{when: 1-10000, result: r{n}}}\n" for n in range(rows))
        return f"\nlookups:\n  again:\n    title: Again\n    key: Distance\n    rows:\n{listed}"

    at_the_limit = _checked(tmp_path / "fits", lookup(100))
    assert len(at_the_limit) == 99 and all("error[table-overlap]" in line for line in at_the_limit)
    assert _checked(tmp_path / "over", lookup(101)) == [
        "rules_src/game/ruleset.yaml:8:7: error[too-large]: the rows of `again` cover 1,010,000 numbers between them; "
        "at most 1,000,000"
    ]


# The expression language's edges: what each function takes besides rolls, and every refusal a located
# message. Expected values are counted by hand over a D6's six faces.


def faces(die: icepool.Die) -> dict:
    """A roll as {outcome: how many of its equally likely faces give it}."""
    return dict(die.items())


# -- functions given plain numbers, not rolls --------------------------------------------------------
def test_a_plain_number_is_a_roll_that_always_comes_out_the_same():
    assert faces(ev("total(2, 3)")) == {6: 1}
    assert ev("mean(5)") == 5
    assert ev("mean(1/2)") == Fraction(1, 2)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("chance(True)", 1),
        ("chance(3 > 4)", 0),
        ("chance(1/2)", Fraction(1, 2)),
        ("chance(0)", 0),
    ],
)
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
@pytest.mark.parametrize(
    "text, message",
    [
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
    ],
)
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


# The expression language's functions and refusals, against dice counted by hand.


def _odds(die) -> dict:
    return {outcome: die.probability(outcome) for outcome in die.outcomes()}


def test_lowest_and_highest_of_two_d6_by_hand():
    # lowest of 2D6 is 1 in 11 of the 36 rolls, 6 in 1; highest mirrors it
    assert _odds(F.lowest(2))[1] == Fraction(11, 36) and _odds(F.lowest(2))[6] == Fraction(1, 36)
    assert _odds(F.highest(2))[6] == Fraction(11, 36) and _odds(F.highest(2))[1] == Fraction(1, 36)
    assert _odds(F.lowest(2, icepool.d(3)))[1] == Fraction(5, 9)
    assert _odds(F.highest(2, icepool.d(3)))[3] == Fraction(5, 9)
    assert _odds(F.lowest(0)) == {0: 1} and _odds(F.highest(0)) == {0: 1}


def test_count_total_mean_and_chance_by_hand():
    assert _odds(F.count(2, icepool.d6 >= 5)) == {0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}
    assert _odds(F.total(2, icepool.d(2))) == {2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
    assert F.mean(F.total(2, icepool.d6)) == 7
    assert F.chance(icepool.d6 >= 5) == Fraction(1, 3)
    assert F.chance(True) == 1 and F.chance(False) == 0 and F.chance(Fraction(1, 4)) == Fraction(1, 4)
    assert F.chance_of(icepool.d6, 3) == Fraction(1, 6)
    for wrong in (2, Fraction(-1, 2), "x"):
        with pytest.raises(F.FormulaError):
            F.chance(wrong)
    for wrong in (-1, 101, True, Fraction(1, 2)):
        with pytest.raises(F.FormulaError):
            F.count(wrong, icepool.d6 > 3)
    assert _odds(F.count(100, True)) == {100: 1} and _odds(F.count(0, True)) == {0: 1}


def test_where_clamp_each_and_rounding():
    assert F.where(True, 1, 2) == 1 and F.where(False, 1, 2) == 2 and F.where(0, "a", "b") == "b"
    assert _odds(F.where(icepool.d6 >= 4, 10, 20)) == {10: Fraction(1, 2), 20: Fraction(1, 2)}
    assert F.clamp(7, 1, 6) == 6 and F.clamp(0, 1, 6) == 1 and F.clamp(3, 1, 6) == 3
    assert _odds(F.clamp(icepool.d6, 2, 5))[2] == Fraction(1, 3)
    assert _odds(F.each(icepool.d(4), lambda o, k: o > k, 3)) == {False: Fraction(3, 4), True: Fraction(1, 4)}
    with pytest.raises(F.FormulaError):
        F.each(icepool.d6, 3)
    assert F.FUNCTIONS["floor"](Fraction(7, 2)) == 3 and F.FUNCTIONS["ceil"](Fraction(7, 2)) == 4
    assert F.FUNCTIONS["floor"](Fraction(-7, 2)) == -4
    assert _odds(F.FUNCTIONS["ceil"](icepool.d(2) + 0)) == {1: Fraction(1, 2), 2: Fraction(1, 2)}


def test_dice_function_caps():
    assert _odds(F._dice(1, 1)) == {1: 1}
    assert F._dice(1, 1000).max_outcome() == 1000 and F._dice(100, 2).max_outcome() == 200
    assert _odds(F._dice(0, 6)) == {0: 1}
    for count, sides in ((1, 0), (1, 1001), (-1, 6), (101, 6)):
        with pytest.raises(F.FormulaError):
            F._dice(count, sides)
    with pytest.raises(F.FormulaError):
        F._as_die("x")
    assert _odds(F._as_die(3)) == {3: 1}


def test_floor_and_ceil_round_exact_numbers_and_every_face_of_a_die():
    import math

    import icepool

    from generator.model.formula import _round

    floor, ceil = _round(math.floor), _round(math.ceil)
    assert floor(Fraction(7, 2)) == 3 and ceil(Fraction(7, 2)) == 4 and floor(-0.5) == -1 and ceil(2) == 2
    halves = icepool.Die([Fraction(1, 2), Fraction(3, 2), Fraction(3, 2)])
    assert floor(halves) == icepool.Die([0, 1, 1]) and ceil(halves) == icepool.Die([1, 2, 2])


def test_floor_and_ceil_round_a_distance_in_its_unit_and_refuse_a_text():
    import math

    from generator.model.formula import _round
    from generator.model.units import Distance

    floor, ceil = _round(math.floor), _round(math.ceil)
    assert floor(Distance(Fraction(5, 2), "inches")) == Distance(2, "inches")  # 2½" rounds to 2"
    assert ceil(Distance(Fraction(5, 2), "hexes")) == Distance(3, "hexes")
    with pytest.raises(FormulaError) as error:
        floor("3")
    assert str(error.value) == "'3' is not a number"


def test_pick_of_a_value_that_gives_no_alternatives_says_what_it_was_given():
    with pytest.raises(FormulaError) as error:
        ev("pick(3, 1)")
    assert str(error.value) == "pick() takes a value the text gives as alternatives (4 or 5 feet), not 3"


def test_a_formula_error_shows_rolls_fractions_and_other_values_plainly():
    import icepool

    from generator.model.formula import _show

    assert _show(icepool.d6) == "a roll"
    assert _show(Fraction(1, 2)) == "1/2"
    assert _show("x") == "'x'" and _show(3) == "3"


def test_each_needs_something_to_call():
    import icepool

    from generator.model.formula import FormulaError, each

    with pytest.raises(FormulaError, match=r"^each\(\) takes a roll and a formula, table or lookup$"):
        each(icepool.d6, 3)
    assert each(icepool.d6, lambda outcome, extra: outcome + extra, 10) == icepool.d6 + 10


def test_clamp_keeps_numbers_and_every_face_of_a_roll_within_bounds():
    import icepool

    from generator.model.formula import clamp

    assert clamp(7, 1, 6) == 6 and clamp(-1, 1, 6) == 1 and clamp(Fraction(5, 2), 1, 6) == Fraction(5, 2)
    assert clamp(icepool.d6, 2, 5) == icepool.Die({2: 2, 3: 1, 4: 1, 5: 2})


def test_a_formula_error_keeps_where_in_the_text_it_is():
    from generator.model.formula import FormulaError

    assert (
        FormulaError("bad", 4).offset == 4 and FormulaError("bad").offset == 0 and str(FormulaError("bad", 4)) == "bad"
    )


NOT_ALLOWED = "is not allowed in a formula (no attributes, subscripts, lambdas or comprehensions)"


@pytest.mark.parametrize(
    "text, message, offset",
    [
        ("1 + 2 ** 3", "`**` is not allowed in a formula", 4),
        ("a and b << 2", "`<<` is not allowed in a formula", 6),
        ("x is y", "compare with == != < <= > >= or `in`", 0),
        ("1 + (x is y)", "compare with == != < <= > >= or `in`", 5),
        ("1 + 2.5", "`2.5` is not a whole number up to 1,000,000,000,000 or a text", 4),
        ("1000000000001", "`1000000000001` is not a whole number up to 1,000,000,000,000 or a text", 0),
        ("-1000000000001", "`1000000000001` is not a whole number up to 1,000,000,000,000 or a text", 1),
        ("x + a.b(1)", "only functions, formulas and tables can be called, by name", 4),
        ("f(**k)", "write arguments one by one", 0),
        ("1 + f(*a)", "write arguments one by one", 4),
        ("x + y[1]", f"`y[1]` {NOT_ALLOWED}", 4),
        ("1 + (lambda: 1)", f"`lambda: 1` {NOT_ALLOWED}", 5),
        ("2 + ~x", "`~` is not allowed in a formula", 4),
    ],
    ids=[
        "power",
        "shift",
        "is",
        "is-inside",
        "decimal",
        "too-big",
        "too-small",
        "method",
        "kwargs",
        "starred",
        "subscript",
        "lambda",
        "invert",
    ],
)
def test_a_refused_expression_says_why_and_where(text, message, offset):
    from generator.model.formula import Expression, FormulaError

    with pytest.raises(FormulaError) as error:
        Expression.parse(text)
    assert (str(error.value), error.value.offset) == (message, offset)


@pytest.mark.parametrize(
    "text, at",
    [
        ("2D6 + D6 + x.y", "x.y"),  # each die is parsed as a longer call, dice(2, 6)
        ("  3D6 + y[1]", "y[1]"),  # after the spaces the parser never sees
        ("'Hälfte' + D6 + y[1]", "y[1]"),  # Python counts a node's columns in bytes: ä is two
        ("(D6 +\n   1 + z.w)", "z.w"),  # on the second line
        ("2D6 + + * 3", "* 3"),  # a syntax error, told where Python stops
        ("D6 + 2 ** 3", "2 ** 3"),
        ("1 + 2D1000000", "2D1000000"),  # a die over the cap
    ],
)
def test_a_refused_expression_is_told_where_its_author_wrote_the_fault(text, at):
    from generator.model.formula import Expression, FormulaError

    with pytest.raises(FormulaError) as error:
        Expression.parse(text)
    assert error.value.offset == text.index(at)


def test_a_formula_that_does_not_parse_is_told_in_the_file_where_it_stops(tmp_path):
    entries = """
formulas:
  plain:
    title: Plain
    expr: 2D6 + + * 3
  quoted:
    title: Quoted
    expr: "D6 + 'a' + x.y"
  block:
    title: Block
    expr: |
      (D6 +
        z.w)
"""
    assert _checked(tmp_path, entries) == [  # columns counted by hand from the lines above
        "rules_src/game/ruleset.yaml:6:19: error[bad-formula]: `2D6 + + * 3` is not an expression: invalid syntax",
        f"rules_src/game/ruleset.yaml:9:23: error[bad-formula]: `x.y` {NOT_ALLOWED}",
        f"rules_src/game/ruleset.yaml:14:9: error[bad-formula]: `z.w` {NOT_ALLOWED}",
    ]


@pytest.mark.parametrize(
    "text", ["1000000000000", "-1000000000000", "x + None", "x in (1, 2)", "x not in [1]", "f(a=1)"]
)
def test_an_allowed_expression_parses(text):
    from generator.model.formula import Expression

    assert Expression.parse(text).text == text


EVAL_SCOPE = {"x": 3, "a": 0, "b": 5, "c": 2, "f": lambda a, b=0: a - b, "n": 7}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("-x", -3),
        ("+x", 3),
        ("not a", True),
        ("(x, 2)", (3, 2)),
        ("[x]", (3,)),
        ("a and b", 0),
        ("c and b", 5),
        ("a or b", 5),
        ("c or b", 2),
        ("c and b and a", 0),
        ("x if a else b", 5),
        ("x in (1, 2, 3)", True),
        ("x not in (1, 2)", True),
        ("x not in (1, 2, 3)", False),
        ("x in 3", True),
        ("1 < x < 4", True),
        ("1 < x < 3", False),
        ("f(5, b=2)", 3),
        ("f(5, b=c)", 3),
    ],
)
def test_an_expression_evaluates_as_worked_by_hand(text, expected):
    from generator.model.formula import Expression

    assert Expression.parse(text).evaluate(EVAL_SCOPE) == expected


def test_a_conditional_on_a_roll_weighs_both_branches():
    from generator.model.formula import Expression

    # D6 >= 4 is even odds, so each branch weighs 1/2
    assert _odds(Expression.parse("1 if D6 >= 4 else 2").evaluate({})) == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    # the branches read the scope too
    assert _odds(Expression.parse("x if D6 >= 4 else c").evaluate(EVAL_SCOPE)) == {3: Fraction(1, 2), 2: Fraction(1, 2)}
    # half the time -D6 (each of -6..-1 at 1/12), half the time +D6 (each of 1..6 at 1/12)
    assert _odds(Expression.parse("-D6 if D6 >= 4 else +D6").evaluate({})) == {
        v: Fraction(1, 12) for v in (-6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6)
    }


@pytest.mark.parametrize(
    "text, message",
    [
        ("y + 1", "`y` is not an input, a value or a `let` name here"),
        ("n(2)", "`n` is not a function, a formula or a table"),
    ],
)
def test_an_unknown_name_or_function_says_which(text, message):
    from generator.model.formula import Expression, FormulaError

    with pytest.raises(FormulaError) as error:
        Expression.parse(text).evaluate(EVAL_SCOPE)
    assert str(error.value) == message


def test_a_d66_in_a_formula_is_the_d66_of_a_table():
    """A D66 rolled in a formula: 61 to 66 is 6 results of 36; `dice(1, 66)` is the same die."""
    assert ev("chance(D66 >= 61)") == Fraction(6, 36)
    assert ev("chance(dice(1, 66) == 16)") == Fraction(1, 36)
    assert ev("chance(D66 == 20)") == 0


# -- dice kept, exploding and re-rolled: against every roll listed ---------------------------------
def _chances(die) -> dict:
    return {outcome: Fraction(die.quantity(outcome), die.denominator()) for outcome in die.outcomes()}


def _listed(rolls) -> dict:
    """The chance of each total over equally likely ``rolls``."""
    rolls = list(rolls)
    counted: dict = {}
    for total in rolls:
        counted[total] = counted.get(total, 0) + 1
    return {total: Fraction(n, len(rolls)) for total, n in counted.items()}


@pytest.mark.parametrize(
    "keep, dice, sides", [(2, 3, 6), (1, 3, 6), (3, 3, 6), (2, 4, 6), (1, 2, 10), (3, 5, 4), (0, 3, 6)]
)
def test_keeping_the_highest_or_lowest_dice_adds_those_of_every_roll(keep, dice, sides):
    rolls = list(itertools.product(range(1, sides + 1), repeat=dice))
    highest = _listed(sum(sorted(roll)[dice - keep :]) for roll in rolls)
    lowest = _listed(sum(sorted(roll)[:keep]) for roll in rolls)
    assert _chances(ev(f"keep_highest({keep}, {dice}, D{sides})")) == highest
    assert _chances(ev(f"keep_lowest({keep}, {dice}, D{sides})")) == lowest
    if sides == 6:
        assert _chances(ev(f"keep_highest({keep}, {dice})")) == highest  # a D6 unless told


def _exploded(sides: int, times: int) -> dict:
    """Every way a die rolls when its highest face rolls again and adds, up to ``times`` more rolls."""
    if times == 0:
        return _listed(range(1, sides + 1))
    again = _exploded(sides, times - 1)
    chances = {face: Fraction(1, sides) for face in range(1, sides)}
    for more, chance in again.items():
        chances[sides + more] = chances.get(sides + more, 0) + chance / sides
    return chances


@pytest.mark.parametrize("sides, times", [(6, 0), (6, 1), (6, 3), (10, 2), (4, 5), (2, 20)])
def test_an_exploding_die_adds_a_roll_again_on_its_highest_face_up_to_the_times_written(sides, times):
    assert _chances(ev(f"explode(D{sides}, {times})")) == _exploded(sides, times)


@pytest.mark.parametrize("under, times", [(4, 1), (2, 1), (7, 1), (4, 2), (1, 3)])
def test_a_re_rolled_die_rolls_again_under_its_number_and_the_last_roll_stands(under, times):
    def rolled(left: int) -> dict:
        if left == 0:
            return _listed(FACES)
        chances: dict = {}
        for face in FACES:
            for outcome, chance in ({face: Fraction(1)} if face >= under else rolled(left - 1)).items():
                chances[outcome] = chances.get(outcome, 0) + chance / 6
        return chances

    assert _chances(ev(f"reroll(D6, {under}, {times})")) == rolled(times)
    if times == 1:
        assert _chances(ev(f"reroll(D6, {under})")) == rolled(1)  # once unless told


@pytest.mark.parametrize(
    "written, why",
    [
        ("keep_highest(4, 3)", "keeps 0 to 3 of 3 dice, not 4"),
        ("keep_lowest(-1, 3)", "keeps 0 to 3 of 3 dice, not -1"),
        ("keep_highest(3 / 2, 3)", "keeps 0 to 3 of 3 dice, not 3/2"),
        ("keep_highest(1, 3, D1000)", "`3 rolls of a roll of 1,000 outcomes` rolls 3,000 dice × sides"),
        ("explode(D6, 21)", "a die is rolled again 0 to 20 times, not 21"),
        ("reroll(D6, 4, True)", "a die is rolled again 0 to 20 times, not True"),
    ],
)
def test_dice_kept_or_rolled_again_outside_what_a_roll_can_be_are_refused(written, why):
    with pytest.raises(FormulaError, match=why):
        ev(written)


@pytest.mark.parametrize(
    "made, steps",
    [
        (lambda: keep_highest(2, 3), 3 * 2 * 6 + 1),  # dice × kept × outcomes, and one for the sum
        (lambda: keep_lowest(1, 4, icepool.d10), 4 * 1 * 10 + 1),
        (lambda: keep_highest(0, 3), 3 * 0 * 6 + 1),
        (lambda: explode(icepool.d6, 2), 6 * 6 * 3),  # outcomes × outcomes for each roll: the first and two more
        (lambda: explode(icepool.d4, 0), 4 * 4 * 1),
        (lambda: reroll(icepool.d6, 4, 1), 6 * 6 * 2),
        (lambda: reroll(icepool.d8, 3, 3), 8 * 8 * 4),
        (lambda: maximum(icepool.d6, icepool.d8), 8 * 2),  # the outcomes of all, for each roll
        (lambda: minimum(icepool.d4, 7, icepool.d4), 5 * 3),
        (lambda: mean(icepool.d8), 8),  # one an outcome of the roll averaged
    ],
)
def test_keeping_exploding_re_rolling_and_the_highest_cost_the_steps_of_the_outcomes_they_combine(made, steps):
    """What each costs of a check's budget, as Budget says: one step per outcome pair a roll is built from. One
    step fewer refuses it, so a formula over the budget is refused at the same call on every machine."""
    with budget(steps):
        made()
    with budget(steps - 1), pytest.raises(FormulaTooLarge, match=f"more than {steps - 1:,} steps"):
        made()


def test_the_highest_and_lowest_kept_of_one_die_are_two_rolls():
    """Each is remembered apart: the lowest of two D6 asked after the highest of the same die is not the highest."""
    die = icepool.Die([1, 2, 3])
    rolls = list(itertools.product(range(1, 4), repeat=2))
    assert _chances(keep_highest(1, 2, die)) == _listed(max(roll) for roll in rolls)
    assert _chances(keep_lowest(1, 2, die)) == _listed(min(roll) for roll in rolls)
