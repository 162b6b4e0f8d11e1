"""Bad Moon Rising: experimental advanced rules by Avian (source text 001_6aa62a09eb22793c.txt).

Push back (§ Push back), the Confusion test after casualties from shooting or magic
(§ Disruption due to shooting or magic), Confusion (§ Confusion, § Further ideas for
Confusion) and the Archery Wedge (§ The Archery Wedge).

Distances are inches and exact: a whole distance is an ``int``, a halved one may be
a ``Fraction``. Where the text leaves a reading open, the docstring says which one
is taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from typing import Mapping

__all__ = [
    "PushBack", "push_back", "push_back_permission", "slowest_pusher_charge", "pushed_into_options",
    "Pushers", "units_pushing_back",
    "full_ranks_removed", "confusion_test_after_casualties", "confusion_tests_to_take",
    "friends_breaking_test",
    "WEDGE_WEAPONS", "may_form_wedge", "wedge_models", "wedge_complete_ranks", "wedge_rank_sizes",
    "wedge_rear_rank_places", "wedge_positions", "wedge_edge_models", "wedge_inside_models",
    "wedge_shooters", "wedge_casualties", "wedge_move_cost", "wedge_move_allowance", "wedge_can_march",
]


def _exact(value: int | Fraction) -> int | Fraction:
    """A whole number as an int, anything else as the Fraction it is."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else value


def _positive(name: str, value) -> None:
    if value <= 0:
        raise ValueError(f"{name} must be more than 0, not {value}")


# -- Push back ------------------------------------------------------------------------------

def push_back_permission(*, won_round: bool = True, all_enemies_flee: bool = False,
                         enemy_in_flank_or_rear: bool = False, friends_directly_in_front: bool = False,
                         frenzied: bool = False) -> str:
    """Whether a unit ``"must"``, ``"may"`` or ``"cannot"`` push back the enemy it fights.

    A unit that wins a round of combat, and not all of whose enemies flee, can elect to push
    them back, unless it has enemies in its flank or rear or friendly units directly in
    front of it. A Frenzied unit must always push back, if able to.
    """
    if not won_round or all_enemies_flee or enemy_in_flank_or_rear or friends_directly_in_front:
        return "cannot"
    return "must" if frenzied else "may"


@dataclass(frozen=True)
class Pushers:
    """Which units push back an enemy unit: ``units`` push it together, or, when
    ``owner_picks_one``, their owning player picks one of them to do it."""

    units: tuple[str, ...]
    owner_picks_one: bool = False


def units_pushing_back(unit_strengths: Mapping[str, int], *, same_side: bool = False) -> Pushers:
    """Of several units of one side that want to push back an enemy unit, which do so.

    Only the one with the highest Unit Strength can, unless they are fighting in the same
    side of the enemy unit (``same_side``: all of them, as read here), when they work
    together. In case of ties the owning player decides which unit pushes back.
    """
    if not unit_strengths:
        raise ValueError("give the Unit Strength of each unit that wants to push back")
    if same_side or len(unit_strengths) == 1:
        return Pushers(tuple(unit_strengths))
    highest = max(unit_strengths.values())
    strongest = tuple(unit for unit, strength in unit_strengths.items() if strength == highest)
    return Pushers(strongest, owner_picks_one=len(strongest) > 1)


def slowest_pusher_charge(*pushers: tuple[int, int]) -> int:
    """The charge distance of the pushing unit with the lowest Movement.

    Each pusher is a pair ``(Movement, charge distance)``. When several share the lowest
    Movement, the lowest of their charge distances is taken (the text does not say).
    """
    if not pushers:
        raise ValueError("give at least one pushing unit as (Movement, charge distance)")
    lowest_movement = min(movement for movement, _charge in pushers)
    return min(charge for movement, charge in pushers if movement == lowest_movement)


@dataclass(frozen=True)
class PushBack:
    """The outcome of one push back.

    ``distance`` is how far the pushed unit moves directly away from the pusher, and how far
    the pusher follows up. ``confused``: it would have gone further than its march distance,
    so it is halted and automatically Confused. ``psychology_test``: it was pushed further
    than its normal Move distance, so it must pass a Psychology test or be Confused.
    """

    distance: int | Fraction
    halved: bool
    confused: bool
    psychology_test: bool

    @property
    def follow_up(self) -> int | Fraction:
        """The pushing unit follows up the same distance."""
        return self.distance


def push_back(lost_by: int, *, charge_distance: int, march_distance: int, move: int | None = None,
              pushed_strength: int | None = None, pushing_strength: int | None = None) -> PushBack:
    """Push back a unit that lost the combat by ``lost_by`` points.

    The distance is the score the unit lost by, halved when the pushed unit(s) have a Unit
    Strength more than twice the pushers', and at most the lower of ``charge_distance`` (the
    charge distance of the pushing unit with the lowest Movement) and the pushed unit's
    ``march_distance``.

    Readings where the text is silent on the order: the halving is applied before the
    maximum, since the maximum is the furthest a unit "can be pushed back"; a unit is
    automatically Confused whenever the distance it would normally go exceeds its march
    distance, even if the pusher's charge distance stops it sooner. ``move`` (its normal Move
    distance), if given, decides the Psychology test for being pushed further than it.
    """
    _positive("lost_by", lost_by)
    _positive("charge_distance", charge_distance)
    _positive("march_distance", march_distance)
    if (pushed_strength is None) != (pushing_strength is None):
        raise ValueError("give both pushed_strength and pushing_strength, or neither")
    halved = pushed_strength is not None and pushed_strength > 2 * pushing_strength
    normally = Fraction(lost_by, 2) if halved else Fraction(lost_by)
    distance = min(normally, charge_distance, march_distance)
    confused = normally > march_distance
    test = move is not None and distance > move and not confused
    return PushBack(_exact(distance), halved, confused, test)


def pushed_into_options(*, in_combat: bool = False, fleeing: bool = False) -> tuple[str, ...]:
    """What a unit that has another unit pushed back into it may do.

    A unit in combat must stand its ground; a fleeing unit must make way; any other unit
    chooses.
    """
    if in_combat and fleeing:
        raise ValueError("a unit is either in combat or fleeing, not both")
    if in_combat:
        return ("stand its ground",)
    if fleeing:
        return ("make way",)
    return ("make way", "stand its ground")


# -- Disruption due to shooting or magic ------------------------------------------------------

def full_ranks_removed(removed: int, rank_width: int) -> int:
    """How many full ranks ``removed`` casualties make: an incomplete rank never counts."""
    _positive("rank_width", rank_width)
    if removed < 0:
        raise ValueError(f"removed must be 0 or more, not {removed}")
    return removed // rank_width


def confusion_test_after_casualties(removed: int, *, rank_width: int, full_ranks: int, rear_rank: int = 0,
                                    failed_panic: bool = False, immune_to_psychology: bool = False) -> int | None:
    """The Leadership modifier of the Confusion test a unit takes after casualties in the
    Magic or Shooting phase, or ``None`` if it takes none.

    The unit was ``full_ranks`` ranks of ``rank_width`` models and an incomplete rear rank of
    ``rear_rank`` models. It tests if a full rank or more was removed (and it has not already
    failed a Panic test that phase), at -1 Leadership per full rank removed above one.
    """
    _positive("full_ranks", full_ranks)
    if not 0 <= rear_rank < rank_width:
        raise ValueError(f"an incomplete rear rank has 0 to {rank_width - 1} models, not {rear_rank}")
    models = full_ranks * rank_width + rear_rank
    if not 0 <= removed <= models:
        raise ValueError(f"the unit has {models} models; {removed} cannot be removed")
    ranks = full_ranks_removed(removed, rank_width)
    if ranks == 0 or failed_panic or immune_to_psychology:
        return None
    return -(ranks - 1)


# -- Confusion --------------------------------------------------------------------------------

def confusion_tests_to_take(reasons: int, *, immune_to_psychology: bool = False) -> int:
    """A unit takes one Confusion test per phase however many reasons it has, and none at all
    if it is Immune to Psychology (it can still be Confused automatically)."""
    if reasons < 0:
        raise ValueError(f"reasons must be 0 or more, not {reasons}")
    return 0 if immune_to_psychology else min(reasons, 1)


FRIENDS_BREAKING_RANGE = 6  # inches: "friendly units breaking from other combats within 6""


def friends_breaking_test(*, won_combat: bool, distance: int | Fraction | None = None) -> str | None:
    """Further ideas for Confusion: the test a unit in combat takes for friendly units breaking
    from other combats within 6" (step 4 of the Combat phase), or ``None`` if they broke
    further away. "Within 6"" is read as 6" or less."""
    if distance is not None and distance > FRIENDS_BREAKING_RANGE:
        return None
    return "Confusion test" if won_combat else "Panic test"


# -- The Archery Wedge --------------------------------------------------------------------------

WEDGE_WEAPONS = ("short bows", "bows", "long bows", "crossbows", "repeating crossbows")
_DIRECTIONS = {"forward": 1, "wheel forward": 1, "sideways": 2, "backwards": 2, "wheel backwards": 2}


def may_form_wedge(weapon: str) -> bool:
    """Units equipped with short bows, bows, long bows, crossbows or repeating crossbows."""
    singular = {name.removesuffix("s") for name in WEDGE_WEAPONS}
    return weapon.casefold().strip().removesuffix("s") in singular


def wedge_models(ranks: int) -> int:
    """Models in a wedge of that many complete ranks: rank n holds n models."""
    if ranks < 0:
        raise ValueError(f"ranks must be 0 or more, not {ranks}")
    return ranks * (ranks + 1) // 2


def wedge_complete_ranks(models: int) -> int:
    """The complete ranks a wedge of ``models`` forms; the last of them is its widest complete rank."""
    if models < 0:
        raise ValueError(f"models must be 0 or more, not {models}")
    return (isqrt(8 * models + 1) - 1) // 2


def wedge_rank_sizes(models: int) -> tuple[int, ...]:
    """Models in each rank, front first: 1, 2, 3... and an incomplete rear rank if any are left."""
    complete = wedge_complete_ranks(models)
    left_over = models - wedge_models(complete)
    return tuple(range(1, complete + 1)) + ((left_over,) if left_over else ())


def _edges_first(width: int) -> list[int]:
    """Places 1..width of a rank in the order models fill it: the edges first, then inwards."""
    order, low, high = [], 1, width
    while low <= high:
        order.append(low)
        if high != low:
            order.append(high)
        low, high = low + 1, high - 1
    return order


def wedge_rear_rank_places(models: int) -> tuple[int, ...]:
    """The places (1 = one edge) of the rearmost rank that hold models.

    An incomplete rear rank is as wide as one more than the widest complete rank, and is
    filled from its edges first. Which edge takes the odd model is not given; here it is
    place 1.
    """
    sizes = wedge_rank_sizes(models)
    if not sizes:
        return ()
    width = len(sizes)
    return tuple(sorted(_edges_first(width)[:sizes[-1]]))


def wedge_positions(models: int) -> tuple[tuple[int, int], ...]:
    """Every model's (rank, place), ranks from 1 at the front, places from 1 at one edge."""
    positions = []
    for rank in range(1, len(wedge_rank_sizes(models)) + 1):
        places = range(1, rank + 1) if rank <= wedge_complete_ranks(models) else wedge_rear_rank_places(models)
        positions.extend((rank, place) for place in places)
    return tuple(positions)


def wedge_inside_models(models: int) -> int:
    """Models on the inside of the formation, counted without enumerating places.

    A model is inside when models of its unit surround it on all six sides: left and right,
    the two places diagonally in front and the two diagonally behind. Every other model is
    on an edge: the leader, both ends of every rank and the whole rearmost rank.
    """
    complete = wedge_complete_ranks(models)
    left_over = models - wedge_models(complete)
    # Ranks 3 .. complete-1 have complete ranks on both sides: all but their two ends are inside.
    inside = wedge_models(complete - 3) if complete > 3 else 0
    if left_over == 0:
        return inside
    # The widest complete rank has a partial rank behind: a middle model of it is inside when
    # both places behind it are filled. The rear rank fills from each edge inwards.
    from_one_edge, from_other_edge = (left_over + 1) // 2, left_over // 2
    return inside + max(0, from_one_edge - 2) + max(0, from_other_edge - 2)


def wedge_edge_models(models: int) -> int:
    """Models on the edges of the wedge: all of them may shoot, following the normal
    shooting restrictions (no line of sight through models of the same unit)."""
    return models - wedge_inside_models(models)


def wedge_shooters(models: int, *, on_hill: bool = False) -> int:
    """How many models of a wedge can shoot: every model on an edge and, when deployed on a
    hill, also half the models on the inside, rounded up."""
    extra = -(-wedge_inside_models(models) // 2) if on_hill else 0
    return wedge_edge_models(models) + extra


def wedge_casualties(models: int, casualties: int) -> tuple[tuple[int, int], ...]:
    """The (rank, place) of each casualty removed in combat, in order: from the centre of
    the rearmost rank first. What is left is the wedge of the remaining models."""
    if not 0 <= casualties <= models:
        raise ValueError(f"a wedge of {models} models cannot lose {casualties}")
    removed, left = [], models
    for _ in range(casualties):
        removed.append(next(p for p in wedge_positions(left) if p not in wedge_positions(left - 1)))
        left -= 1
    return tuple(removed)


def wedge_move_cost(inches: int | Fraction, direction: str) -> int | Fraction:
    """Inches of Movement used to move a wedge ``inches`` in ``direction``: moving sideways
    or backwards, and wheeling backwards (measured at the rearmost complete rank), count
    every inch as two. A wedge cannot turn."""
    return _exact(Fraction(inches) * _factor(direction))


def wedge_move_allowance(movement: int, direction: str) -> int | Fraction:
    """How far a wedge can move in ``direction`` with its normal Movement."""
    return _exact(Fraction(movement, _factor(direction)))


def wedge_can_march(direction: str) -> bool:
    """A wedge can march move only when moving or wheeling forward."""
    return _factor(direction) == 1


def _factor(direction: str) -> int:
    if direction == "turn":
        raise ValueError("a wedge cannot turn; it reforms, or moves sideways or backwards")
    if direction not in _DIRECTIONS:
        raise ValueError(f"direction is one of {', '.join(_DIRECTIONS)}, not {direction!r}")
    return _DIRECTIONS[direction]
