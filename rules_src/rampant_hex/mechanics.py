"""Blood, Guts and Rampant Hex: the procedures its data cannot say.

Every number comes from the data (``values:``, ``formulas:``, the tables, the troop
profile matrix); this module only loops over dice already rolled, picks units and
players, and builds forces. ``rules`` and ``values`` are preset by the engine.

Readings the text leaves open, decided here and said in the rules prose:

- Roll-offs (SETTING UP, INITIATIVE): what a tie means is not given, so the odds
  report ties apart rather than resolve them.
- "add 1 to their dice rolls when testing moral": 1 is added to every die.
- A misspelled scroll that rolls its own spell again applies that same spell.
- Ending the game on turns: equal points lost is not given, so no winner is named.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.mechanics import ArmyList, ArmyUnit, count_names, evaluate, parse_limit
from generator.mechanics import force as army_force

__all__ = [
    "attack_hits",
    "hits_distribution",
    "passes_moral",
    "roll_off_odds",
    "units_falling_back",
    "fewest_points_lost",
    "scroll_spell",
    "force",
    "limit_allowance",
]

_formulas = globals()  # the ruleset's formulas and tables, preset here by id


# -- dice already rolled ------------------------------------------------------------------------


def attack_hits(rolls, armour: int) -> int:
    """Hits from rolled attack dice: each die that scores higher than ARMOUR is one hit."""
    return sum(1 for roll in rolls if _formulas["scores_a_hit"](roll, armour))


def hits_distribution(attack: int, armour: int) -> dict[int, Fraction]:
    """The exact chance of each number of hits from ATTACK dice against ARMOUR."""
    return {hits: Fraction(_formulas["chance_of_hits"](attack, armour, hits)) for hits in range(attack + 1)}


def passes_moral(rolls, hit_markers: int, bonus: int = 0) -> bool:
    """A moral check passes if any die (plus a Commander's bonus) is higher than the hit markers."""
    return any(_formulas["die_passes_moral"](roll, hit_markers, bonus) for roll in rolls)


def roll_off_odds(bonus: int = 0, opponent_bonus: int = 0) -> dict[str, Fraction]:
    """Both players roll 1 dice and the highest roller wins: the chance you win, tie or lose.

    What a tie means is not given in the text, so it is reported, not resolved.
    """
    outcomes = rules.formula("roll_off_chance").inputs[0].choices
    return {outcome: Fraction(_formulas["roll_off_chance"](outcome, bonus, opponent_bonus)) for outcome in outcomes}


# -- combat and the end of the game --------------------------------------------------------------


def units_falling_back(hit_markers: Mapping[str, int]) -> tuple[str, ...]:
    """The units of a combat that must move away: the one with the most hit markers, and every
    unit that shares the highest number."""
    if not hit_markers:
        return ()
    most = max(hit_markers.values())
    return tuple(unit for unit, hits in hit_markers.items() if hits == most)


def fewest_points_lost(**points_lost: int) -> str | None:
    """The winner once the agreed turns have expired: the player who lost the fewest PTS of
    units. Equal losses are not given in the text, so no winner is named (``None``)."""
    if not points_lost:
        raise ValueError("give the points each player has lost, e.g. you=10, opponent=8")
    least = min(points_lost.values())
    players = [player for player, lost in points_lost.items() if lost == least]
    return players[0] if len(players) == 1 else None


# -- scrolls ---------------------------------------------------------------------------------------


def scroll_spell(spell: str, faulty_roll: int, misspelled_roll: int | None = None) -> str:
    """The spell that takes effect when a scroll of ``spell`` (an id) is used: the faulty scroll
    roll comes first, and on a misspelling the spell table roll decides, whatever its range."""
    if _formulas["faulty_scroll"](faulty_roll) != "Misspelled":
        return rules.spell(spell).name
    if misspelled_roll is None:
        raise ValueError("the scroll is misspelled: give misspelled_roll, the roll on the spell table")
    return _formulas["spells"](misspelled_roll)


# -- forces: points and limits ---------------------------------------------------------------------


def force(*lines: ArmyUnit, agreed_points: int | None = None, extras: tuple[str, ...] = ()) -> ArmyList:
    """A force chosen from the army's profile matrix, for the limits and points examples; the
    agreed points are those of a medium game unless given."""
    agreed = values.medium_game_most if agreed_points is None else agreed_points  # noqa: F821 - preset
    return army_force(*lines, ruleset=rules, agreed_points=agreed, extras=extras)  # noqa: F821 - preset


def limit_allowance(ruleset, limit: str, **counts: int) -> int:
    """The most an army limit allows for the given counts (``troop_points=40``, ``units=7``)."""
    names = count_names(ruleset)
    unknown = sorted(set(counts) - names)
    if unknown:
        raise ValueError(f"{', '.join(unknown)} is not a count an army limit uses")
    entry = ruleset.get("army_limits", limit)
    return evaluate(parse_limit(entry.at_most, names), {name: counts.get(name, 0) for name in names})
