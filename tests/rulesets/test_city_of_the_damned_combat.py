"""The City of the Damned combat system as data (rules_src/city_of_the_damned_combat/), against brute force.

Expected values come from the source text (002_83544e0424992a45.txt, quoted in the
comments) or from enumerating the dice face by face with itertools.product.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from helpers import ruleset_names, sweep

from generator.model.formula import FormulaError

ns, rules = ruleset_names("city_of_the_damned_combat", "rules")  # module fixtures
FACES = range(1, 7)
D20 = range(1, 21)
STATS = list(itertools.product(range(1, 11), range(1, 11), range(1, 5)))
STATES = ("standing", "Knocked Down", "Stunned")


def enumerate_injuries(strength: int, toughness: int, wounds: int) -> dict[int, Fraction]:
    """'Roll a D6 and add the attackers Strength then subtract the defenders Toughness and Wounds', face by face."""
    counts = Counter(face + strength - toughness - wounds for face in FACES)
    return {total: Fraction(n, 6) for total, n in counts.items()}


# -- the injury roll -------------------------------------------------------------------------
def test_injury_distribution_matches_enumeration(ns):
    def case(strength, toughness, wounds):
        expected = enumerate_injuries(strength, toughness, wounds)
        assert ns["injury_distribution"](strength, toughness, wounds) == expected, "injury_distribution"
        roll = ns["injury_roll"](strength, toughness, wounds)
        assert {o: roll.probability(o) for o in roll.outcomes()} == expected, "injury_roll"

    sweep(STATS, case)


def test_injury_range_and_total_agree_with_enumeration(ns):
    def case(strength, toughness, wounds):
        totals = [ns["injury_total"](face, strength, toughness, wounds) for face in FACES]
        assert totals == [face + strength - toughness - wounds for face in FACES], "injury_total face by face"
        assert ns["injury_range"](strength, toughness, wounds) == (min(totals), max(totals)), "injury_range"

    sweep(STATS[::7], case)


def test_injury_total_example(ns):
    # A Strength 4 hit, Toughness 3, 1 Wound, a 4 rolled: 4 + 4 - 3 - 1
    assert ns["injury_total"](4, strength=4, toughness=3, wounds=1) == 4


@pytest.mark.parametrize("bad", [0, 7])
def test_injury_total_refuses_impossible_d6(bad, ns):
    with pytest.raises(ValueError, match="1 to 6"):
        ns["injury_total"](bad, 3, 3, 1)


def test_the_injury_roll_is_the_tables_dice_and_no_range_is_given(ns, rules):
    table = rules.table("injury")
    # "Roll a D6 and add the attackers Strength then subtract the defenders Toughness and Wounds"
    assert str(table.dice) == "D6 + S - T - W"
    assert table.dice.distribution(S=5, T=3, W=2) == ns["injury_distribution"](5, 3, 2)
    assert [row.result for row in table.rows] == ["Knocked Down", "Stunned", "Out of Action"]
    assert not table.ranges_given  # the text gives no ranges; nothing may be looked up
    with pytest.raises(LookupError):
        table.lookup(3)


# -- critical hits ---------------------------------------------------------------------------
def test_critical_to_hit_needs_a_natural_six_not_needed_anyway(ns):
    # "If you roll a natural 6 when rolling To Hit you have caused a Critical Hit ... you do not cause
    # a Critical Hit if you needed a 6 to hit at all."
    for needed in range(2, 8):
        for face in FACES:
            assert ns["is_critical_hit"](face, needed) == (face == 6 and needed < 6), (face, needed)


def test_injury_roll_critical_on_a_natural_six(ns):
    # "a natural 6 on the Injury Roll (D6+S) also causes a Critical Hit"
    assert [ns["injury_roll_critical"](face) for face in FACES] == [False] * 5 + [True]


def enumerate_criticals(needed: int) -> dict[int, Fraction]:
    """Every (to-hit, injury) pair of faces; a miss makes no injury roll."""
    counts = Counter()
    for to_hit, injury in itertools.product(FACES, FACES):
        if to_hit < needed:
            counts[0] += 1
        else:
            counts[int(to_hit == 6 and needed < 6) + int(injury == 6)] += 1
    return {n: Fraction(counts[n], 36) for n in (0, 1, 2)}


@pytest.mark.parametrize("needed", range(2, 7))
def test_critical_counts_match_enumeration(needed, ns):
    expected = enumerate_criticals(needed)
    assert ns["critical_count_distribution"](needed) == expected
    assert ns["critical_chance"](needed) == 1 - expected[0]
    assert ns["critical_chance"](needed, at_least=2) == expected[2]
    assert ns["critical_chance"](needed, at_least=0) == 1


def test_critical_chances_from_the_examples(ns):
    assert ns["critical_chance"](4) == Fraction(2, 9)
    assert ns["critical_count_distribution"](4)[2] == Fraction(1, 36)
    assert ns["critical_chance"](6) == Fraction(1, 36)


@pytest.mark.parametrize("needed", [1, 7])
def test_critical_chance_refuses_impossible_targets(needed, ns):
    with pytest.raises(FormulaError, match="from 2 to 6"):
        ns["critical_chance"](needed)
    with pytest.raises(FormulaError, match="from 2 to 6"):
        ns["critical_count_distribution"](needed)


def test_critical_hit_chart_is_on_the_quick_reference(ns, rules):
    chart = rules.chart("critical_hit_chances")
    assert chart.quick_reference and chart.formula == "critical_chance"
    assert [q.value for q in chart.columns.values] == [2, 3, 4, 5, 6]
    for at_least, needed in itertools.product([q.value for q in chart.rows.values], [2, 3, 4, 5, 6]):
        expected = enumerate_criticals(needed)
        assert ns["critical_chance"](needed, at_least) == sum(p for n, p in expected.items() if n >= at_least)


# -- simultaneous system ---------------------------------------------------------------------
def test_turn_order_highest_first(ns):
    # "In each phase the player with the highest number moves followed by the next highest number."
    assert ns["turn_order"]({"a": 3, "b": 20, "c": 11}) == [("b",), ("c",), ("a",)]


def test_turn_order_keeps_ties_together_in_roll_order(ns):
    assert ns["turn_order"]({"a": 5, "b": 12, "c": 5, "d": 1}) == [("b",), ("a", "c"), ("d",)]


@pytest.mark.parametrize("bad", [0, 21])
def test_turn_order_refuses_non_d20_rolls(bad, ns):
    # "each player rolls a D20"
    with pytest.raises(ValueError, match="D20"):
        ns["turn_order"]({"a": bad})


def test_turn_order_ties_against_enumeration(ns):
    die = ns["values"].turn_order_die.die()
    ties = sum(a == b for a, b in itertools.product(D20, D20))
    assert (die == die).probability(True) == Fraction(ties, 400) == Fraction(1, 20)


def test_recovery_on_four_plus(ns, rules):
    # "in the next Recovery Phase the model may stand up on the roll of 4+"
    # "the model may only be turned into Knocked Down on the roll of 4+"
    for formula in ("stands_up", "turns_knocked_down"):
        assert [ns[formula](face) for face in FACES] == [False, False, False, True, True, True]
    for value in ("stand_up_roll", "stunned_recovery_roll"):
        assert rules.value(value).quick_reference == (value == "stand_up_roll")
        assert ns["target_probability"](getattr(ns["values"], value)) == Fraction(sum(f >= 4 for f in FACES), 6)


def test_knocked_down_needs_natural_sixes(ns, rules):
    # "He may fight in HtH but need natural 6's to hit."
    value = rules.value("knocked_down_to_hit")
    assert value.quick_reference
    # a natural 6 is the face 6 itself, not a target such as 6+ that a modifier could move
    assert (value.value.kind, str(value.value)) == ("number", "6")
    assert [ns["knocked_down_hits"](face) for face in FACES] == [face == 6 for face in FACES]
    assert not ns["is_critical_hit"](6, needed=ns["values"].knocked_down_to_hit)


def test_stand_up_move_is_half(ns):
    # "the model may stand up and use up to half his normal move"
    assert ns["stand_up_move"](4) == 2
    assert ns["stand_up_move"](5) == Fraction(5, 2)


def test_stunned_models_crawl_up_to_two_inches(ns):
    # 'A model that is stunned may only crawl up to 2".'
    crawls = [ns["stunned_may_crawl"](d) for d in (0, 1, 2, Fraction(5, 2), 3)]
    assert crawls == [True, True, True, False, False]


# -- downed models and blunt weapons ------------------------------------------------------------
def test_hits_on_downed_models(ns):
    # "all sucessful hits against a Knocked Down model will take him Out of Action"; "a hit directed
    # against, no need to roll to hit, a Stunned model in subsequent turns will take him Out of Action"
    assert [ns["needs_roll_to_hit"](s) for s in STATES] == [True, True, False]
    assert [ns["hit_outcome"](s) for s in STATES] == ["Injury Table", "Out of Action", "Out of Action"]
    with pytest.raises(LookupError):
        ns["hit_outcome"]("prone")
    with pytest.raises(FormulaError, match="one of"):
        ns["needs_roll_to_hit"]("prone")


def test_blunt_weapons_stun_on_five_or_six(ns):
    # "Hammer, staff, mace and club treats a result of 5-6 as stunned."
    assert [total for total in range(-5, 15) if ns["blunt_weapon_stuns"](total)] == [5, 6]


def test_blunt_stun_chance_matches_enumeration(ns):
    def case(strength, toughness, wounds):
        expected = sum(
            (p for total, p in enumerate_injuries(strength, toughness, wounds).items() if total in (5, 6)), Fraction(0)
        )
        assert ns["blunt_stun_chance"](strength, toughness, wounds) == expected

    sweep(STATS[::3], case)
