"""The City of the Damned combat system's mechanics (002_83544e0424992a45.txt), against brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from generator.mechanics import city_of_the_damned as cotd
from generator.mechanics.city_of_the_damned import (
    cotd_blunt_stun_chance, cotd_blunt_weapon_stuns, cotd_critical_chance, cotd_critical_count_distribution,
    cotd_hit_outcome, cotd_injury_distribution, cotd_injury_range, cotd_injury_roll_critical, cotd_injury_total,
    cotd_is_critical_hit, cotd_knocked_down_to_hit_chance, cotd_needs_roll_to_hit, cotd_recovers,
    cotd_recovery_chance, cotd_stand_up_move, cotd_stunned_may_crawl, cotd_turn_order,
)

ROOT = Path(__file__).resolve().parents[1]
FACES = range(1, 7)
STATS = list(itertools.product(range(1, 11), range(1, 11), range(1, 5)))


def enumerate_injuries(strength: int, toughness: int, wounds: int) -> dict[int, Fraction]:
    """'Roll a D6 and add the attackers Strength then subtract the defenders Toughness and Wounds', face by face."""
    counts = Counter(face + strength - toughness - wounds for face in FACES)
    return {total: Fraction(n, 6) for total, n in counts.items()}


@pytest.mark.parametrize("strength, toughness, wounds", STATS)
def test_injury_distribution_matches_enumeration(strength, toughness, wounds):
    assert cotd_injury_distribution(strength, toughness, wounds) == enumerate_injuries(strength, toughness, wounds)


@pytest.mark.parametrize("strength, toughness, wounds", STATS[::7])
def test_injury_range_and_total_agree(strength, toughness, wounds):
    totals = [cotd_injury_total(face, strength, toughness, wounds) for face in FACES]
    assert cotd_injury_range(strength, toughness, wounds) == (min(totals), max(totals))


def test_injury_total_example():
    assert cotd_injury_total(4, strength=4, toughness=3, wounds=1) == 4


@pytest.mark.parametrize("bad", [0, 7])
def test_injury_total_refuses_impossible_d6(bad):
    with pytest.raises(ValueError, match="1 to 6"):
        cotd_injury_total(bad, 3, 3, 1)


def test_injury_distribution_is_the_tables_dice():
    from generator.validate import check_project

    result = check_project(ROOT, only="city_of_the_damned_combat")
    table = result.project.ruleset("city_of_the_damned_combat").table("injury")
    assert str(table.dice) == "D6 + S - T - W"
    assert table.dice.distribution(S=5, T=3, W=2) == cotd_injury_distribution(5, 3, 2)
    assert not table.ranges_given  # the text gives no ranges; nothing may be looked up
    with pytest.raises(LookupError):
        table.lookup(3)


# -- critical hits ---------------------------------------------------------------------------
def test_critical_to_hit_needs_a_natural_six_not_needed_anyway():
    for needed in range(2, 8):
        for face in FACES:
            assert cotd_is_critical_hit(face, needed) == (face == 6 and needed < 6)


def test_injury_roll_critical_on_a_natural_six():
    assert [cotd_injury_roll_critical(face) for face in FACES] == [False] * 5 + [True]


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
def test_critical_counts_match_enumeration(needed):
    assert cotd_critical_count_distribution(needed) == enumerate_criticals(needed)
    assert cotd_critical_chance(needed) == 1 - enumerate_criticals(needed)[0]


def test_critical_chances_from_the_examples():
    assert cotd_critical_chance(4) == Fraction(2, 9)
    assert cotd_critical_count_distribution(4)[2] == Fraction(1, 36)
    assert cotd_critical_chance(6) == Fraction(1, 36)


@pytest.mark.parametrize("needed", [1, 7])
def test_critical_distribution_refuses_impossible_targets(needed):
    with pytest.raises(ValueError, match="2\\+ to 6\\+"):
        cotd_critical_count_distribution(needed)


# -- simultaneous system ---------------------------------------------------------------------
def test_turn_order_highest_first():
    assert cotd_turn_order({"a": 3, "b": 20, "c": 11}) == [("b",), ("c",), ("a",)]


def test_turn_order_keeps_ties_together_in_roll_order():
    assert cotd_turn_order({"a": 5, "b": 12, "c": 5, "d": 1}) == [("b",), ("a", "c"), ("d",)]


def test_turn_order_refuses_non_d20_rolls():
    with pytest.raises(ValueError, match="D20"):
        cotd_turn_order({"a": 21})


def test_recovery_on_four_plus():
    assert [cotd_recovers(face) for face in FACES] == [False, False, False, True, True, True]
    assert cotd_recovery_chance() == Fraction(sum(cotd_recovers(f) for f in FACES), 6) == Fraction(1, 2)


def test_knocked_down_needs_natural_sixes():
    assert cotd_knocked_down_to_hit_chance() == Fraction(1, 6)
    assert not cotd_is_critical_hit(6, needed=6)


def test_stand_up_move_is_half():
    assert cotd_stand_up_move(4) == 2
    assert cotd_stand_up_move(5) == Fraction(5, 2)


def test_stunned_models_crawl_up_to_two_inches():
    assert [cotd_stunned_may_crawl(d) for d in (0, 1, 2, 2.5, 3)] == [True, True, True, False, False]


# -- downed models and blunt weapons ------------------------------------------------------------
def test_hits_on_downed_models():
    assert cotd_needs_roll_to_hit("standing") and cotd_needs_roll_to_hit("Knocked Down")
    assert not cotd_needs_roll_to_hit("Stunned")
    assert cotd_hit_outcome("standing") == "Injury Table"
    assert cotd_hit_outcome("Knocked Down") == cotd_hit_outcome("Stunned") == "Out of Action"
    with pytest.raises(ValueError, match="state must be one of"):
        cotd_hit_outcome("prone")


def test_blunt_weapons_stun_on_five_or_six():
    assert [total for total in range(-5, 15) if cotd_blunt_weapon_stuns(total)] == [5, 6]


@pytest.mark.parametrize("strength, toughness, wounds", STATS[::3])
def test_blunt_stun_chance_matches_enumeration(strength, toughness, wounds):
    expected = sum((p for total, p in enumerate_injuries(strength, toughness, wounds).items() if total in (5, 6)), Fraction(0))
    assert cotd_blunt_stun_chance(strength, toughness, wounds) == expected


def test_exports_are_prefixed_and_unique_across_mechanics():
    import importlib
    import pkgutil

    from generator import mechanics

    assert all(name.casefold().startswith("cotd_") for name in cotd.__all__)
    for info in pkgutil.iter_modules(mechanics.__path__):
        if info.name == "city_of_the_damned":
            continue
        other = importlib.import_module(f"generator.mechanics.{info.name}")
        assert not set(cotd.__all__) & set(getattr(other, "__all__", ())), info.name
