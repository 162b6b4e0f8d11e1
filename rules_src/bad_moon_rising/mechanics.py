"""Bad Moon Rising: the procedures the data cannot say (source text 001_6aa62a09eb22793c.txt).

The numbers and the rules that are formulas live in numbers.yaml (values, formulas,
lookups); this module only adds what is a procedure: which units push back, where the
models of a wedge stand, which are on its edges, the order casualties leave it, and
friendly signatures (keyword defaults) for the formulas. Every number comes from
``values`` or from a formula or lookup of the data.

Where the text leaves a reading open, the docstring says which one is taken.
"""

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "PushBack",
    "push_back",
    "push_back_permission",
    "slowest_pusher_charge",
    "pushed_into_options",
    "Pushers",
    "units_pushing_back",
    "confusion_test_after_casualties",
    "confusion_tests_to_take",
    "may_form_wedge",
    "wedge_complete_ranks",
    "wedge_rank_sizes",
    "wedge_rear_rank_places",
    "wedge_positions",
    "wedge_edge_models",
    "wedge_inside_models",
    "wedge_shooters",
    "wedge_casualties",
]


def _formula(id):
    """A formula or lookup of this ruleset, callable by id (the engine presets them in this module)."""
    return globals()[id]


# -- Push back ------------------------------------------------------------------------------


def push_back_permission(
    *,
    won_round=True,
    all_enemies_flee=False,
    enemy_in_flank_or_rear=False,
    friends_directly_in_front=False,
    frenzied=False,
):
    """Whether a unit ``"must"``, ``"may"`` or ``"cannot"`` push back the enemy it fights
    (the formula ``push_back_choice`` with every condition but winning the round left out)."""
    return _formula("push_back_choice")(
        won_round, all_enemies_flee, enemy_in_flank_or_rear, friends_directly_in_front, frenzied
    )


@dataclass(frozen=True)
class Pushers:
    """Which units push back an enemy unit: ``units`` push it together, or, when
    ``owner_picks_one``, their owning player picks one of them to do it."""

    units: tuple
    owner_picks_one: bool = False


def units_pushing_back(unit_strengths: Mapping, *, same_side=False):
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


def slowest_pusher_charge(*pushers):
    """The charge distance of the pushing unit with the lowest Movement.

    Each pusher is a pair ``(Movement, charge distance)``. When several share the lowest
    Movement, the lowest of their charge distances is taken (a reading: the text does not say).
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

    distance: object
    halved: bool
    confused: bool
    psychology_test: bool

    @property
    def follow_up(self):
        """The pushing unit follows up the same distance."""
        return self.distance


def push_back(lost_by, *, charge_distance, march_distance, move=None, pushed_strength=None, pushing_strength=None):
    """Push back a unit that lost the combat by ``lost_by`` points: the formulas
    ``push_back_halves``, ``push_back_distance``, ``push_back_confuses`` and
    ``push_back_move_test`` (their descriptions give the readings taken).

    The Unit Strengths, given both or neither, decide the halving; ``move`` (the pushed
    unit's normal Move distance), if given, decides the Psychology test.
    """
    if (pushed_strength is None) != (pushing_strength is None):
        raise ValueError("give both pushed_strength and pushing_strength, or neither")
    halved = pushed_strength is not None and _formula("push_back_halves")(pushed_strength, pushing_strength)
    distance = _formula("push_back_distance")(lost_by, charge_distance, march_distance, halved)
    confused = _formula("push_back_confuses")(lost_by, march_distance, halved)
    test = move is not None and _formula("push_back_move_test")(distance, move, confused)
    return PushBack(distance, halved, confused, test)


def pushed_into_options(*, in_combat=False, fleeing=False):
    """What a unit that has another unit pushed back into it may do (the lookup ``pushed_into``)."""
    if in_combat and fleeing:
        raise ValueError("a unit is either in combat or fleeing, not both")
    key = "in combat" if in_combat else "fleeing" if fleeing else "neither"
    return tuple(_formula("pushed_into")(key).split(" or "))


# -- Disruption and Confusion -----------------------------------------------------------------


def confusion_test_after_casualties(
    removed, *, rank_width, full_ranks, rear_rank=0, failed_panic=False, immune_to_psychology=False
):
    """The Leadership modifier of the Confusion test a unit takes after casualties in the
    Magic or Shooting phase, or ``None`` if it takes none (the formula ``casualty_confusion_test``).

    The unit was ``full_ranks`` ranks of ``rank_width`` models and an incomplete rear rank of
    ``rear_rank`` models; those only check that ``removed`` fits the unit.
    """
    if full_ranks < 1:
        raise ValueError(f"full_ranks must be 1 or more, not {full_ranks}")
    if not 0 <= rear_rank < rank_width:
        raise ValueError(f"an incomplete rear rank has 0 to {rank_width - 1} models, not {rear_rank}")
    models = full_ranks * rank_width + rear_rank
    if not 0 <= removed <= models:
        raise ValueError(f"the unit has {models} models; {removed} cannot be removed")
    return _formula("casualty_confusion_test")(removed, rank_width, failed_panic, immune_to_psychology)


def confusion_tests_to_take(reasons, *, immune_to_psychology=False):
    """Confusion tests a unit takes in a phase with ``reasons`` to test (the formula ``confusion_tests_due``)."""
    return _formula("confusion_tests_due")(reasons, immune_to_psychology)


# -- The Archery Wedge --------------------------------------------------------------------------


def _singular(name):
    return name.casefold().strip().removesuffix("s")


def may_form_wedge(weapon):
    """Whether a unit with this weapon may form a wedge: it is a row of the lookup
    ``wedge_weapons`` (singular or plural, any case)."""
    lookup = rules.lookup("wedge_weapons")  # noqa: F821
    named = [row.match for row in lookup.rows if _singular(row.match) == _singular(weapon)]
    return bool(named) and lookup.row(named[0]) is not None  # read through the lookup, as a formula reads it


def wedge_complete_ranks(models):
    """The complete ranks a wedge of ``models`` forms; the last of them is its widest complete rank."""
    if models < 0:
        raise ValueError(f"models must be 0 or more, not {models}")
    ranks = 0
    while _formula("wedge_models")(ranks + 1) <= models:
        ranks += 1
    return ranks


def wedge_rank_sizes(models):
    """Models in each rank, front first: complete ranks (the formula ``wedge_rank_models``),
    then an incomplete rear rank of the models left over, if any."""
    complete = wedge_complete_ranks(models)
    left_over = models - _formula("wedge_models")(complete)
    sizes = tuple(_formula("wedge_rank_models")(rank) for rank in range(1, complete + 1))
    return sizes + ((left_over,) if left_over else ())


def _edges_first(width):
    """Places 1..width of a rank in the order models fill it: the edges first, then inwards."""
    order, low, high = [], 1, width
    while low <= high:
        order.append(low)
        if high != low:
            order.append(high)
        low, high = low + 1, high - 1
    return order


def _rank_width(rank):
    return _formula("wedge_rank_models")(rank)


def wedge_rear_rank_places(models):
    """The places (1 = one edge) of the rearmost rank that hold models.

    An incomplete rear rank is laid out as wide as a complete rank of its number, and is
    filled from its edges first. Which edge takes the odd model is not given; here it is
    place 1 (a reading).
    """
    sizes = wedge_rank_sizes(models)
    if not sizes:
        return ()
    return tuple(sorted(_edges_first(_rank_width(len(sizes)))[: sizes[-1]]))


def wedge_positions(models):
    """Every model's (rank, place), ranks from 1 at the front, places from 1 at one edge."""
    complete = wedge_complete_ranks(models)
    positions = []
    for rank in range(1, len(wedge_rank_sizes(models)) + 1):
        places = range(1, _rank_width(rank) + 1) if rank <= complete else wedge_rear_rank_places(models)
        positions.extend((rank, place) for place in places)
    return tuple(positions)


def _neighbours(rank, place):
    """The six places around a model: left and right, two diagonally in front, two behind.
    Each rank is one place wider and placed symmetrically behind the one in front, so place
    p touches places p-1 and p of the rank in front and p and p+1 of the rank behind."""
    return (
        (rank, place - 1),
        (rank, place + 1),
        (rank - 1, place - 1),
        (rank - 1, place),
        (rank + 1, place),
        (rank + 1, place + 1),
    )


def wedge_inside_models(models):
    """Models on the inside of the formation: those with models of their unit on all six sides.

    A reading: the text does not list which models are on the edges; every model that is
    not surrounded (the leader, both ends of every rank, the whole rearmost rank) is.
    """
    taken = set(wedge_positions(models))
    return sum(1 for position in taken if all(n in taken for n in _neighbours(*position)))


def wedge_edge_models(models):
    """Models on the edges of the wedge: all of them may shoot, following the normal
    shooting restrictions (no line of sight through models of the same unit)."""
    return models - wedge_inside_models(models)


def wedge_shooters(models, *, on_hill=False):
    """How many models of a wedge can shoot (the formula ``wedge_shooters_from``): every model
    on an edge and, when deployed on a hill, also half the inside models, rounded up."""
    return _formula("wedge_shooters_from")(wedge_edge_models(models), wedge_inside_models(models), on_hill)


def _fill_order(models):
    """The (rank, place) of each model in the order a wedge is filled: rank by rank from the
    front, each rank from its edges inwards. A wedge of n models holds the first n of them."""
    order, rank = [], 1
    while len(order) < models:
        order.extend((rank, place) for place in _edges_first(_rank_width(rank)))
        rank += 1
    return order[:models]


def wedge_casualties(models, casualties):
    """The (rank, place) of each casualty removed in combat, in order: from the centre of
    the rearmost rank first. What is left is the wedge of the remaining models (a reading:
    the rear rank keeps filling from its edges, so its centre empties first), so the
    casualties leave in the reverse of the order the wedge fills."""
    if not 0 <= casualties <= models:
        raise ValueError(f"a wedge of {models} models cannot lose {casualties}")
    return tuple(reversed(_fill_order(models)))[:casualties]
