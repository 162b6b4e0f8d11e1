"""City of the Damned combat system (002_83544e0424992a45.txt): what data cannot say.

The injury roll is the Injury Table's own dice (``D6 + S - T - W`` in tables.yaml),
read here rather than copied; the turn order is a procedure over the players' D20s;
the count of Critical Hits per attack is read off the ``critical_chance`` formula.
Every number comes from ``values`` or from the data's formulas and tables.

The Injury Table gives its three results but not their roll ranges, so nothing here
turns an injury total into Knocked Down, Stunned or Out of Action.
"""

__all__ = [
    "injury_roll",
    "injury_total",
    "injury_distribution",
    "injury_range",
    "critical_count_distribution",
    "turn_order",
    "blunt_stun_chance",
]

_INJURY = rules.table("injury").dice  # noqa: F821 - preset by the loader


def _input(formula: str, name: str):
    for spec in rules.formula(formula).inputs:  # noqa: F821
        if spec.id == name:
            return spec
    raise LookupError(f"{formula} has no input {name}")


def injury_roll(strength: int, toughness: int, wounds: int):
    """The Injury Table's roll for one hit, as an icepool die: D6 + S - T - W."""
    return _INJURY.die(S=strength, T=toughness, W=wounds)


def injury_range(strength: int, toughness: int, wounds: int) -> tuple[int, int]:
    """The lowest and highest injury totals (the lowest and highest natural roll)."""
    return _INJURY.bounds(S=strength, T=toughness, W=wounds)


def injury_distribution(strength: int, toughness: int, wounds: int) -> dict:
    """The exact chance of each injury total for one hit."""
    return _INJURY.distribution(S=strength, T=toughness, W=wounds)


def injury_total(natural: int, strength: int, toughness: int, wounds: int) -> int:
    """The sum looked up on the Injury Table for a rolled ``natural`` D6."""
    low, high = _INJURY.natural.bounds()
    if not low <= natural <= high:
        raise ValueError(f"the injury roll is {_INJURY.natural}, {low} to {high}, not {natural}")
    return injury_range(strength, toughness, wounds)[0] + natural - low


def critical_count_distribution(needed: int) -> dict:
    """For one attack needing ``needed``+ to hit: the chance of each number of Critical Hits."""
    spec = _input("critical_chance", "at_least")
    at_least = critical_chance  # noqa: F821 - a formula of this ruleset, in scope
    counts = range(spec.min, spec.max + 1)
    return {n: at_least(needed, n) - (at_least(needed, n + 1) if n < spec.max else 0) for n in counts}


def turn_order(rolls) -> list:
    """Simultaneous System: who moves in each phase, highest D20 first, then the next highest.

    The text does not say how ties are settled, so players with equal rolls are
    returned together, in one group, in the order given, for the players to resolve.
    """
    low, high = values.turn_order_die.bounds()  # noqa: F821
    for player, roll in rolls.items():
        if not low <= roll <= high:
            raise ValueError(f"{player} rolled {roll}; a {values.turn_order_die} rolls {low} to {high}")  # noqa: F821
    by_roll: dict = {}
    for player, roll in rolls.items():
        by_roll.setdefault(roll, []).append(player)
    return [tuple(by_roll[roll]) for roll in sorted(by_roll, reverse=True)]


def blunt_stun_chance(strength: int, toughness: int, wounds: int):
    """The chance that a hit with a hammer, staff, mace or club gives a result it treats as Stunned."""
    stuns = blunt_weapon_stuns  # noqa: F821 - a formula of this ruleset, in scope
    return injury_roll(strength, toughness, wounds).map(stuns).probability(True)
