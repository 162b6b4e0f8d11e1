"""Ordo Ineptus (000): the combat, shooting and damage procedures that data cannot say.

Everything with a number is data: the values, formulas and tables of combat.yaml,
shooting.yaml and damage.yaml, and the Warhammer Fantasy charts of the base ruleset
``warhammer_fantasy_charts``. What is left here takes what a formula cannot
(mappings of models, ``None`` for "no save") or reads a table row whole.

Preset by the loader: ``rules`` (this ruleset, its base attached), ``values``,
``Fraction`` and ``icepool``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from generator.mechanics import calculator

__all__ = [
    "target_chance",
    "target_text",
    "save_chance",
    "CriticalHit",
    "critical_hit_effect",
    "injury_chart_chances",
    "strike_order",
    "may_leave_combat",
    "shooting_targets",
]

_formulas = calculator(rules).scope
_D6 = icepool.d6


# -- a roll needed on one die --------------------------------------------------------------------
def target_chance(target: int | None) -> Fraction:
    """The chance to roll ``target`` or more on a D6; ``None`` (impossible: no effect, no save) is 0."""
    if target is None:
        return Fraction(0)
    return _D6.probability(">=", target)


def target_text(target: int | None, none: str = "–") -> str:
    """A target as printed: 4 is ``4+``; ``None`` is ``none``."""
    return none if target is None else f"{target}+"


# -- saves ---------------------------------------------------------------------------------------------
def save_chance(
    base_save: int | None, strength: int, armour_piercing: bool = False, ward: int | None = None
) -> Fraction:
    """000 § Armor: the armour save first (formula ``armour_save``), then the ward save, which Strength
    does not touch, if that fails. ``None`` is no armour save, or no ward save."""
    armour = None if base_save is None else _formulas["armour_save"](base_save, strength, armour_piercing)
    saved = target_chance(armour)
    return saved + (1 - saved) * target_chance(ward)


# -- critical hits and injuries -------------------------------------------------------------------------
@dataclass(frozen=True)
class CriticalHit:
    """What a critical hit does: worsen the armour save, multiply the wounds, or slay outright."""

    save_penalty: int
    wound_multiplier: int
    killing_blow: bool = False


def critical_hit_effect(roll: int) -> CriticalHit:
    """The row of ``critical_hit_table`` for the roll: its ``value`` is the wound multiplier; the row
    that names ``killing_blow`` slays; the others reduce the save by ``critical_save_penalty``."""
    try:
        row = rules.table("critical_hit_table").lookup(roll)
    except LookupError:
        raise ValueError(f"a D6 cannot roll {roll}") from None
    if row.ref == "killing_blow":
        return CriticalHit(save_penalty=0, wound_multiplier=1, killing_blow=True)
    return CriticalHit(save_penalty=values.critical_save_penalty, wound_multiplier=row.value)


def injury_chart_chances() -> dict[str, Fraction]:
    """Each result of ``injury_table`` with its exact chance."""
    return {row.result: chance for row, chance in rules.table("injury_table").odds()}


# -- close combat ------------------------------------------------------------------------------------------
def strike_order(initiative: Mapping[str, int], chargers: Iterable[str] = ()) -> tuple[tuple[str, ...], ...]:
    """Chargers strike first, then the rest from highest to lowest Initiative.

    Each group strikes at one step; the text gives no order within a group.
    """
    charging_set = set(chargers)
    charging = tuple(who for who in initiative if who in charging_set)
    rest = {who: i for who, i in initiative.items() if who not in charging_set}
    steps = tuple(
        tuple(who for who, i in rest.items() if i == level) for level in sorted(set(rest.values()), reverse=True)
    )
    return ((charging,) if charging else ()) + steps


def may_leave_combat(in_contact: Iterable[str], hostile: Iterable[str]) -> bool:
    """A model may leave a combat only if no model in base to base contact with it is hostile."""
    return not set(in_contact) & set(hostile)


# -- shooting -----------------------------------------------------------------------------------------------
def shooting_targets(enemies: Mapping[str, float], elevated: bool = False) -> tuple[str, ...]:
    """The enemies a model may shoot: the closest in line of sight, or any from an elevated position.

    ``enemies`` maps each visible, non-hidden enemy to its distance; equally close ones may all be chosen.
    """
    if elevated or not enemies:
        return tuple(enemies)
    closest = min(enemies.values())
    return tuple(name for name, distance in enemies.items() if distance == closest)
