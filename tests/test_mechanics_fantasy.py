"""The Fantasy charts and the Shellendrak skirmish (000) mechanics, against brute force and the text.

The oracles are the Warhammer Fantasy charts written out cell by cell, plain enumeration of
every way the dice can fall, and the statements 000 makes in so many words.
"""

from __future__ import annotations

import importlib
import itertools
import pkgutil
from fractions import Fraction

import pytest

from generator import mechanics
from generator.mechanics import fantasy, shellendrak
from generator.mechanics.fantasy import (
    SHOOTING_MODIFIERS, armour_save, save_chance, shooting_chance, target_chance, target_text, to_hit_melee,
    to_hit_shooting, to_wound,
)
from generator.mechanics.shellendrak import (
    all_alone_test_due, at_long_range, close_combat_hit_chance, critical_armour_save, critical_hit_chance,
    critical_hit_effect, injury_chart_chances, injury_chart_result, may_coup_de_grace, may_leave_combat, may_shoot,
    rolls_on_injury_chart, shooting_targets, strike_order,
)

FACES = range(1, 7)
N = None  # "no effect" on the wound chart

# The Warhammer Fantasy to-hit chart: attacker's WS (rows) against defender's WS (columns 1-10).
TO_HIT_CHART = {
    1: [4, 4, 5, 5, 5, 5, 5, 5, 5, 5],
    2: [3, 4, 4, 4, 5, 5, 5, 5, 5, 5],
    3: [3, 3, 4, 4, 4, 4, 5, 5, 5, 5],
    4: [3, 3, 3, 4, 4, 4, 4, 4, 5, 5],
    5: [3, 3, 3, 3, 4, 4, 4, 4, 4, 4],
    6: [3, 3, 3, 3, 3, 4, 4, 4, 4, 4],
    7: [3, 3, 3, 3, 3, 3, 4, 4, 4, 4],
    8: [3, 3, 3, 3, 3, 3, 3, 4, 4, 4],
    9: [3, 3, 3, 3, 3, 3, 3, 3, 4, 4],
    10: [3, 3, 3, 3, 3, 3, 3, 3, 3, 4],
}

# The Warhammer Fantasy wound chart: Strength (rows) against Toughness (columns 1-10).
TO_WOUND_CHART = {
    1: [4, 5, 6, N, N, N, N, N, N, N],
    2: [3, 4, 5, 6, N, N, N, N, N, N],
    3: [2, 3, 4, 5, 6, N, N, N, N, N],
    4: [2, 2, 3, 4, 5, 6, N, N, N, N],
    5: [2, 2, 2, 3, 4, 5, 6, N, N, N],
    6: [2, 2, 2, 2, 3, 4, 5, 6, N, N],
    7: [2, 2, 2, 2, 2, 3, 4, 5, 6, N],
    8: [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
    9: [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
    10: [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
}

# The Fantasy BS table: the roll to hit before modifiers.
BS_TO_HIT = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2}


def count(outcomes, wanted) -> Fraction:
    outcomes = list(outcomes)
    return Fraction(sum(1 for o in outcomes if wanted(*o)), len(outcomes))


def one_die(wanted) -> Fraction:
    return count(((face,) for face in FACES), wanted)


def dice(n: int):
    return itertools.product(FACES, repeat=n)


# -- fantasy: the charts ----------------------------------------------------------------------
@pytest.mark.parametrize("attacker", TO_HIT_CHART)
def test_to_hit_melee_is_the_fantasy_chart(attacker):
    assert [to_hit_melee(attacker, defender) for defender in range(1, 11)] == TO_HIT_CHART[attacker]


@pytest.mark.parametrize("strength", TO_WOUND_CHART)
def test_to_wound_is_the_fantasy_chart(strength):
    assert [to_wound(strength, toughness) for toughness in range(1, 11)] == TO_WOUND_CHART[strength]


@pytest.mark.parametrize("bs, needed", BS_TO_HIT.items())
def test_ballistic_skill_before_modifiers(bs, needed):
    assert to_hit_shooting(bs) == needed
    assert shooting_chance(bs) == one_die(lambda r: r >= needed)


def test_000_shooting_modifiers():
    """000: cover is -1; moving, large target and long range "as in Fantasy"."""
    assert SHOOTING_MODIFIERS == {"cover": -1, "moving": -1, "long range": -1, "large target": +1}
    assert to_hit_shooting(3, "cover") == 5
    assert to_hit_shooting(3, "large target") == 3
    assert to_hit_shooting(5, "large target") == 2  # a natural 1 always misses


def _shooting_by_enumeration(needed: int) -> Fraction:
    """7+ is a 6 then 4+, 8+ a 6 then 5+, 9+ a 6 then 6+: enumerate both dice."""
    if needed <= 6:
        return count(dice(1), lambda r: r >= max(needed, 2))
    return count(dice(2), lambda first, second: first == 6 and second >= needed - 3 and needed <= 9)


@pytest.mark.parametrize("bs", range(1, 7))
@pytest.mark.parametrize("modifiers", [
    combo for size in range(len(SHOOTING_MODIFIERS) + 1) for combo in itertools.combinations(SHOOTING_MODIFIERS, size)
])
def test_shooting_chance_against_enumeration(bs, modifiers):
    needed = 7 - bs - sum(SHOOTING_MODIFIERS[m] for m in modifiers)
    assert shooting_chance(bs, *modifiers) == _shooting_by_enumeration(needed)


def test_shooting_beyond_9_plus_cannot_hit():
    assert to_hit_shooting(1, "cover", "moving", "long range") == 9
    assert shooting_chance(1, "cover", "moving", "long range") == Fraction(1, 36)
    assert shooting_chance(0, "cover", "moving", "long range") == 0


@pytest.mark.parametrize("target", [None, 0, 1, 2, 3, 4, 5, 6, 7])
def test_target_chance_counts_faces(target):
    expected = Fraction(0) if target is None else one_die(lambda r: r >= target)
    assert target_chance(target) == expected


def test_target_text():
    assert target_text(4) == "4+"
    assert target_text(None) == "–"
    assert target_text(None, none="no save") == "no save"


# -- fantasy: armour ------------------------------------------------------------------------
def test_000_armour_statement():
    """"a normal 4+ armor save would be a 5+ save against a Str 4 hit, 6+ against a St 5 hit
    and would be nothing against a hit of Str 6 or higher". """
    assert armour_save(4, 3) == 4
    assert armour_save(4, 4) == 5
    assert armour_save(4, 5) == 6
    assert all(armour_save(4, s) is None for s in range(6, 11))


def test_000_armour_piercing_one_more():
    for base, strength in itertools.product(range(1, 7), range(1, 8)):
        plain = armour_save(base, strength)
        piercing = armour_save(base, strength, armour_piercing=True)
        assert piercing == (None if plain is None or plain == 6 else plain + 1)


def test_no_save_stays_no_save():
    assert armour_save(None, 1) is None


@pytest.mark.parametrize("base", [None, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("strength", range(1, 8))
@pytest.mark.parametrize("ward", [None, 4, 5, 6])
@pytest.mark.parametrize("piercing", [False, True])
def test_save_chance_against_enumeration(base, strength, ward, piercing):
    """Armour first, then the ward save (which Strength does not touch) if the armour fails."""
    armour = armour_save(base, strength, piercing)

    def saved(armour_roll, ward_roll):
        if armour is not None and armour_roll >= armour:
            return True
        return ward is not None and ward_roll >= ward

    assert save_chance(base, strength, piercing, ward=ward) == count(dice(2), saved)


# -- shellendrak: shooting (the Initiative tests, movement and charges are in tests/rulesets/test_ordo_ineptus.py)
def test_may_shoot():
    assert not may_shoot(attempted_charge=True) and not may_shoot(ran=True) and may_shoot()


def test_hidden_and_targets():
    assert shooting_targets({"a": 5, "b": 5, "c": 7}) == ("a", "b")
    assert shooting_targets({}) == ()
    assert not at_long_range(15, 30) and at_long_range(15.5, 30) and at_long_range(4, 7)


# -- shellendrak: critical hits and injuries -------------------------------------------------------
@pytest.mark.parametrize("strength", range(1, 11))
@pytest.mark.parametrize("toughness", range(1, 11))
def test_critical_hit_chance_is_a_six_that_wounds(strength, toughness):
    needed = to_wound(strength, toughness)
    assert critical_hit_chance(strength, toughness) == one_die(lambda r: r == 6 and needed is not None and r >= needed)


def test_000_critical_hit_table():
    """"On a 1, 2, or 3 the armor save is reduced by 2. On a 4 or 5 ... and the wounds are doubled,
    on a 6 the model receives a Killing Blow"."""
    for roll in (1, 2, 3):
        effect = critical_hit_effect(roll)
        assert (effect.save_penalty, effect.wound_multiplier, effect.killing_blow) == (2, 1, False)
    for roll in (4, 5):
        effect = critical_hit_effect(roll)
        assert (effect.save_penalty, effect.wound_multiplier, effect.killing_blow) == (2, 2, False)
    assert critical_hit_effect(6).killing_blow
    with pytest.raises(ValueError):
        critical_hit_effect(7)


@pytest.mark.parametrize("base", [None, 1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("strength", range(1, 8))
@pytest.mark.parametrize("roll", FACES)
def test_critical_armour_save_is_two_worse(base, strength, roll):
    plain = armour_save(base, strength)
    expected = None if roll == 6 or plain is None or plain + 2 > 6 else plain + 2
    assert critical_armour_save(base, strength, roll) == expected


def test_000_injury_chart():
    assert [injury_chart_result(r) for r in FACES] == ["Knocked Down"] * 2 + ["Stunned"] * 2 + ["Killed"] * 2
    for result, chance in injury_chart_chances().items():
        assert chance == one_die(lambda r: injury_chart_result(r) == result) == Fraction(1, 3)
    assert rolls_on_injury_chart()
    assert not rolls_on_injury_chart(killing_blow=True)
    assert not rolls_on_injury_chart(villager_or_circus=True)
    assert may_coup_de_grace("knocked down", 0)
    assert not may_coup_de_grace("Stunned", 0)
    assert not may_coup_de_grace("Knocked Down", 2)


# -- shellendrak: combat and psychology ------------------------------------------------------------
def test_strike_order():
    assert strike_order({"a": 2, "b": 5, "c": 3}, chargers=["a"]) == (("a",), ("b",), ("c",))
    assert strike_order({"a": 4, "b": 4}) == (("a", "b"),)


def test_all_alone_and_leaving():
    assert all_alone_test_due(2) and not all_alone_test_due(1) and not all_alone_test_due(2, friends=1)
    assert not all_alone_test_due(2, unbreakable=True) and not all_alone_test_due(2, immune_to_psychology=True)
    assert may_leave_combat(["X"], []) and not may_leave_combat(["X", "Z"], ["Z"])


@pytest.mark.parametrize("attacker, defender", list(itertools.product(range(1, 11), repeat=2)))
@pytest.mark.parametrize("afraid", [False, True])
def test_hatred_rerolls_against_enumeration(attacker, defender, afraid):
    needed = 6 if afraid else TO_HIT_CHART[attacker][defender - 1]
    assert close_combat_hit_chance(attacker, defender, afraid) == one_die(lambda r: r >= needed)
    rerolled = count(dice(2), lambda first, second: first >= needed or second >= needed)
    assert close_combat_hit_chance(attacker, defender, afraid, hatred=True) == rerolled


# -- the shared namespace ----------------------------------------------------------------------------
def test_names_are_not_shadowed_by_other_modules():
    """Worked examples see every module's __all__ in one namespace; ours must stay unique."""
    ours = set(fantasy.__all__) | set(shellendrak.__all__)
    assert not set(fantasy.__all__) & set(shellendrak.__all__)
    for info in pkgutil.iter_modules(mechanics.__path__):
        if info.name in ("fantasy", "shellendrak"):
            continue
        module = importlib.import_module(f"{mechanics.__name__}.{info.name}")
        assert not ours & set(getattr(module, "__all__", ())), info.name


def test_every_exported_name_exists():
    for module in (fantasy, shellendrak):
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.{name}"
