"""Bad Moon Rising mechanics (001_6aa62a09eb22793c.txt), checked against plain enumeration."""

from fractions import Fraction

import pytest

from generator.mechanics import bad_moon_rising as bmr
from generator.mechanics.bad_moon_rising import (
    confusion_test_after_casualties, confusion_tests_to_take, friends_breaking_test, full_ranks_removed,
    may_form_wedge, push_back, push_back_permission, pushed_into_options, slowest_pusher_charge, units_pushing_back,
    wedge_can_march, wedge_casualties, wedge_complete_ranks, wedge_edge_models, wedge_inside_models,
    wedge_models, wedge_move_allowance, wedge_move_cost, wedge_positions, wedge_rank_sizes,
    wedge_rear_rank_places, wedge_shooters,
)

SIZES = range(0, 80)


# -- the wedge, by brute force -------------------------------------------------------------------

def brute_rank_sizes(models):
    """Fill rank 1 with 1 model, rank 2 with 2... one model at a time."""
    sizes = []
    for _ in range(models):
        if not sizes or sizes[-1] == len(sizes):
            sizes.append(0)
        sizes[-1] += 1
    return tuple(sizes)


def centre(rank, place):
    """A model's position across the table: each rank sits symmetrically behind the one in front.
    An incomplete rank is laid out as wide as a complete one of its number."""
    return Fraction(2 * place - rank - 1, 2)


def brute_inside(models):
    """Models with a model of their unit on all six sides: left, right, two ahead, two behind."""
    taken = set(wedge_positions(models))
    spots = {(rank, centre(rank, place)) for rank, place in taken}
    half = Fraction(1, 2)

    def surrounded(rank, x):
        around = [(rank, x - 1), (rank, x + 1), (rank - 1, x - half), (rank - 1, x + half),
                  (rank + 1, x - half), (rank + 1, x + half)]
        return all(spot in spots for spot in around)

    return sum(1 for rank, x in spots if surrounded(rank, x))


@pytest.mark.parametrize("models", SIZES)
def test_rank_sizes_match_filling_one_at_a_time(models):
    assert wedge_rank_sizes(models) == brute_rank_sizes(models)
    assert sum(wedge_rank_sizes(models)) == models


@pytest.mark.parametrize("ranks", range(0, 15))
def test_complete_ranks_inverse_of_model_count(ranks):
    assert wedge_models(ranks) == sum(range(1, ranks + 1))
    assert wedge_complete_ranks(wedge_models(ranks)) == ranks
    if ranks:
        assert wedge_complete_ranks(wedge_models(ranks) - 1) == ranks - 1


@pytest.mark.parametrize("models", SIZES)
def test_positions_are_one_per_model_and_within_ranks(models):
    positions = wedge_positions(models)
    assert len(set(positions)) == models
    for rank, place in positions:
        assert 1 <= place <= rank


@pytest.mark.parametrize("models", range(1, 80))
def test_incomplete_rear_rank_fills_edges_first(models):
    sizes = wedge_rank_sizes(models)
    places = wedge_rear_rank_places(models)
    width = len(sizes)
    # Every place taken is at least as near an edge as every place left empty.
    empty = set(range(1, width + 1)) - set(places)
    to_edge = lambda place: min(place - 1, width - place)
    assert all(to_edge(t) <= to_edge(e) for t in places for e in empty)


@pytest.mark.parametrize("models", SIZES)
def test_inside_and_edges_against_neighbours(models):
    assert wedge_inside_models(models) == brute_inside(models)
    assert wedge_edge_models(models) + wedge_inside_models(models) == models


@pytest.mark.parametrize("ranks", range(2, 15))
def test_complete_wedge_edges_are_the_three_sides(ranks):
    # A triangle of `ranks` a side has 3 * (ranks - 1) models on its perimeter.
    assert wedge_edge_models(wedge_models(ranks)) == 3 * (ranks - 1)


@pytest.mark.parametrize("models", SIZES)
def test_hill_adds_half_the_inside_rounded_up(models):
    inside = wedge_inside_models(models)
    extra = wedge_shooters(models, on_hill=True) - wedge_shooters(models)
    assert extra == inside // 2 + inside % 2
    assert wedge_shooters(models) == wedge_edge_models(models)


@pytest.mark.parametrize("models", range(1, 60))
def test_casualties_come_from_the_centre_of_the_rear_rank(models):
    first = wedge_casualties(models, 1)[0]
    rear = max(rank for rank, _ in wedge_positions(models))
    assert first[0] == rear
    width = rear
    in_rear = [place for rank, place in wedge_positions(models) if rank == rear]
    off_centre = lambda place: abs(Fraction(2 * place - width - 1, 2))
    assert off_centre(first[1]) == min(off_centre(p) for p in in_rear)


@pytest.mark.parametrize("models", range(0, 40))
def test_what_survives_casualties_is_a_wedge(models):
    for casualties in range(models + 1):
        removed = wedge_casualties(models, casualties)
        left = set(wedge_positions(models)) - set(removed)
        assert left == set(wedge_positions(models - casualties))


def test_wedge_weapons():
    assert all(may_form_wedge(weapon) for weapon in bmr.WEDGE_WEAPONS)
    assert may_form_wedge("Long bow") and may_form_wedge("repeating crossbow")
    assert not may_form_wedge("handgun") and not may_form_wedge("javelins")


def test_wedge_movement():
    assert wedge_move_cost(3, "forward") == 3
    assert wedge_move_cost(3, "sideways") == wedge_move_cost(3, "backwards") == 6
    assert wedge_move_cost(Fraction(5, 2), "wheel backwards") == 5
    assert wedge_move_allowance(5, "sideways") == Fraction(5, 2)
    assert wedge_can_march("wheel forward") and not wedge_can_march("backwards")
    with pytest.raises(ValueError, match="cannot turn"):
        wedge_move_cost(1, "turn")


# -- push back -------------------------------------------------------------------------------

def brute_push_back(lost_by, charge, march, move, pushed, pushing):
    """Inch by inch (in half inches), the way players would measure it on the table."""
    target = Fraction(lost_by, 2) if pushed is not None and pushed > 2 * pushing else Fraction(lost_by)
    moved = Fraction(0)
    while moved < target and moved < charge and moved < march:
        moved += Fraction(1, 2)
    confused = target > march
    return moved, confused, move is not None and moved > move and not confused


@pytest.mark.parametrize("lost_by", range(1, 14))
@pytest.mark.parametrize("charge, march, move", [(8, 8, 4), (6, 10, 5), (12, 8, 4), (10, 10, None)])
@pytest.mark.parametrize("pushed, pushing", [(None, None), (10, 5), (11, 5), (30, 10)])
def test_push_back_against_measuring(lost_by, charge, march, move, pushed, pushing):
    result = push_back(lost_by, charge_distance=charge, march_distance=march, move=move,
                       pushed_strength=pushed, pushing_strength=pushing)
    distance, confused, test = brute_push_back(lost_by, charge, march, move, pushed, pushing)
    assert (result.distance, result.confused, result.psychology_test) == (distance, confused, test)
    assert result.follow_up == result.distance
    assert isinstance(result.distance, int) == (Fraction(result.distance).denominator == 1)


def test_push_back_text_example():
    # "So if a unit lost a combat by 2 points it is pushed back 2 inches."
    assert push_back(2, charge_distance=8, march_distance=8).distance == 2


def test_push_back_needs_both_strengths():
    with pytest.raises(ValueError):
        push_back(2, charge_distance=8, march_distance=8, pushed_strength=20)


def test_permission():
    assert push_back_permission() == "may"
    assert push_back_permission(frenzied=True) == "must"
    for blocked in ("all_enemies_flee", "enemy_in_flank_or_rear", "friends_directly_in_front"):
        assert push_back_permission(frenzied=True, **{blocked: True}) == "cannot"
    assert push_back_permission(won_round=False) == "cannot"


def test_slowest_pusher():
    assert slowest_pusher_charge((4, 8), (6, 12)) == 8
    assert slowest_pusher_charge((5, 10)) == 10
    with pytest.raises(ValueError):
        slowest_pusher_charge()


@pytest.mark.parametrize("strengths", [(20,), (20, 10), (10, 20), (15, 15), (15, 15, 15), (5, 12, 12), (30, 29, 1)])
def test_several_pushers_against_sorting(strengths):
    # "only the only with the highest Unit Strength can do so ... In case of ties the owning player may decide"
    units = {f"unit {i}": strength for i, strength in enumerate(strengths)}
    ranked = sorted(units.items(), key=lambda item: -item[1])
    strongest = tuple(name for name, strength in units.items() if strength == ranked[0][1])
    apart = units_pushing_back(units)
    assert set(apart.units) == set(strongest)
    assert apart.owner_picks_one == (len(strongest) > 1)
    # "unless they are both fighting in the same side of the enemy unit": all work together
    together = units_pushing_back(units, same_side=True)
    assert together.units == tuple(units) and not together.owner_picks_one


def test_several_pushers_need_some():
    with pytest.raises(ValueError):
        units_pushing_back({})


def test_pushed_into():
    assert pushed_into_options(in_combat=True) == ("stand its ground",)
    assert pushed_into_options(fleeing=True) == ("make way",)
    assert set(pushed_into_options()) == {"make way", "stand its ground"}


# -- disruption and Confusion ------------------------------------------------------------------

@pytest.mark.parametrize("width", range(1, 8))
@pytest.mark.parametrize("full", range(1, 6))
def test_confusion_modifier_by_counting_ranks(width, full):
    for rear in range(width):
        for removed in range(full * width + rear + 1):
            ranks = 0
            while (ranks + 1) * width <= removed:
                ranks += 1
            expected = None if ranks == 0 else 1 - ranks
            assert confusion_test_after_casualties(removed, rank_width=width, full_ranks=full, rear_rank=rear) == expected


def test_text_example_bands():
    # Three full ranks of five and a rear rank of two: 5-9 unmodified, 10-14 at -1, 15+ at -2.
    bands = {n: confusion_test_after_casualties(n, rank_width=5, full_ranks=3, rear_rank=2) for n in range(18)}
    assert [n for n, m in bands.items() if m is None] == [0, 1, 2, 3, 4]
    assert [n for n, m in bands.items() if m == 0] == [5, 6, 7, 8, 9]
    assert [n for n, m in bands.items() if m == -1] == [10, 11, 12, 13, 14]
    assert [n for n, m in bands.items() if m == -2] == [15, 16, 17]


def test_no_test_after_failed_panic_or_when_immune():
    kwargs = dict(rank_width=5, full_ranks=3, rear_rank=2)
    assert confusion_test_after_casualties(10, failed_panic=True, **kwargs) is None
    assert confusion_test_after_casualties(10, immune_to_psychology=True, **kwargs) is None


def test_disruption_rejects_impossible_units():
    with pytest.raises(ValueError):
        confusion_test_after_casualties(18, rank_width=5, full_ranks=3, rear_rank=2)
    with pytest.raises(ValueError):
        confusion_test_after_casualties(5, rank_width=5, full_ranks=3, rear_rank=5)
    assert full_ranks_removed(9, 5) == 1


def test_one_test_per_phase():
    assert [confusion_tests_to_take(n) for n in range(4)] == [0, 1, 1, 1]
    assert confusion_tests_to_take(3, immune_to_psychology=True) == 0
    assert friends_breaking_test(won_combat=True) == "Confusion test"
    assert friends_breaking_test(won_combat=False) == "Panic test"
    # "within 6"": 6" or less
    assert friends_breaking_test(won_combat=True, distance=Fraction(11, 2)) == "Confusion test"
    assert friends_breaking_test(won_combat=False, distance=6) == "Panic test"
    assert friends_breaking_test(won_combat=True, distance=Fraction(13, 2)) is None


def test_names_unique_across_mechanics():
    import importlib
    import pkgutil

    from generator import mechanics

    seen = {}
    for info in pkgutil.iter_modules(mechanics.__path__):
        module = importlib.import_module(f"generator.mechanics.{info.name}")
        for name in getattr(module, "__all__", ()):
            assert name not in seen, f"{name} is exported by both {seen.get(name)} and {info.name}"
            seen[name] = info.name
    assert all(hasattr(bmr, name) for name in bmr.__all__)
