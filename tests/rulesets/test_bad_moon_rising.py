"""Bad Moon Rising (rules_src/bad_moon_rising, source 001_6aa62a09eb22793c.txt), through its data.

Expected values are typed by hand from the text (the sentence is quoted) or come from
brute-force enumeration; never from the code under test.
"""

import itertools
from fractions import Fraction
from functools import cache
from math import ceil
from pathlib import Path

import pytest
from helpers import ruleset_names, sweep

from generator.examples.namespace import mechanics_namespace
from generator.examples.own_mechanics import exported
from generator.model.formula import FormulaError

ns, rules, values = ruleset_names("bad_moon_rising", "rules", "values")  # module fixtures

SIZES = range(0, 80)


# -- the values, as the text states them -------------------------------------------------------


def test_values_from_the_text(rules, values):
    # "a number of inches equal to the score the unit lost the combat by"
    assert values.push_back_per_point == 1 and rules.value("push_back_per_point").value.unit == "inches"
    # "a Unit Strength more than twice that of the unit(s) pushing the push back distance is halved"
    assert values.push_back_halving_strength == 2
    assert values.push_back_halving == Fraction(1, 2)
    # "enough casualties to remove one full rank"; "-1 Leadership for each full rank above one"
    assert values.confusion_test_full_ranks == 1
    assert values.confusion_leadership_per_rank == -1
    # "A unit only has to make one Confusion test per phase."
    assert values.confusion_tests_per_phase == 1
    # "friendly units breaking from other combats within 6""
    assert values.friends_breaking_range == 6 and rules.value("friends_breaking_range").value.unit == "inches"
    # "one model in the front rank, two models in the second rank ... three models in the third rank"
    assert (values.wedge_front_rank_models, values.wedge_rank_step) == (1, 1)
    # "half the models on the inside of the formation, rounded up, can also fire"
    assert values.wedge_hill_inside_shooters == Fraction(1, 2)


def test_quick_reference_marks(rules):
    """The sheet carries the text's core procedures (001): push back, Confusion and the wedge, with the phases."""
    marked = {e.id for _section, e in rules.all_entries() if getattr(e, "quick_reference", False)}
    assert {
        "push_back_distance",
        "push_back_halving",
        "who_may_push_back",
        "confusion_circumstances",
        "confused_movement",
        "confused_in_combat",
        "wedge_formation",
        "wedge_combat",
    } <= marked
    assert {"push_backs", "step_6_pursue", "step_7_redress_ranks"} <= {p.id for p in rules.phases if p.quick_reference}


def test_quick_reference_words_the_lost_rank_as_the_text(rules):
    """001: "If a unit suffers enough casualties to remove one full rank in the Magic or Shooting phase it must take
    a Confusion test (see below) at the end of the phase, assuming that it has not already failed a Panic test that
    phase." The sheet's summary keeps the text's words for what sets the test off."""
    summary = " ".join(str(rules.rule("disruption_confusion_test").quick_reference.summary).split())
    assert "suffers enough casualties to remove one full rank in the Magic or Shooting phase" in summary
    assert "failed a Panic test that phase" in summary


def test_own_names_do_not_shadow(ns, rules):
    """The ruleset's own mechanics, its formulas and lookups, and the generic mechanics share the
    examples' namespace: no name may hide another."""
    own = set(exported(rules, Path(".")))
    data = {f.id for f in rules.formulas} | {l.id for l in rules.lookups}
    generic = set(mechanics_namespace())
    assert not own & data and not own & generic and not data & generic
    assert own and all(ns[name] is not None for name in own | data)


# -- the wedge, by brute force -------------------------------------------------------------------


def brute_rank_sizes(models):
    """Fill rank 1 with 1 model, rank 2 with 2... one model at a time."""
    sizes = []
    for _ in range(models):
        if not sizes or sizes[-1] == len(sizes):
            sizes.append(0)
        sizes[-1] += 1
    return tuple(sizes)


def to_edge(place, width):
    return min(place - 1, width - place)


@cache
def brute_rear_places(width, taken):
    """Of every way to put `taken` models in a rank of `width` places, those that fill the edges
    first (no empty place nearer an edge than a taken one); of those, the one nearest place 1
    (the reading for the odd model)."""
    ways = [
        set(c)
        for c in itertools.combinations(range(1, width + 1), taken)
        if all(to_edge(t, width) <= to_edge(e, width) for t in c for e in set(range(1, width + 1)) - set(c))
    ]
    return tuple(sorted(min(ways, key=lambda way: sorted(way))))


@cache
def brute_positions(models):
    sizes = brute_rank_sizes(models)
    positions = frozenset()
    for rank, size in enumerate(sizes, start=1):
        places = range(1, rank + 1) if size == rank else brute_rear_places(rank, size)
        positions |= {(rank, place) for place in places}
    return positions


def centre(rank, place):
    """A model's position across the table: each rank sits symmetrically behind the one in front."""
    return Fraction(2 * place - rank - 1, 2)


def brute_inside(models):
    """Models with a model of their unit on all six sides: left, right, two ahead, two behind."""
    spots = {(rank, centre(rank, place)) for rank, place in brute_positions(models)}
    half = Fraction(1, 2)

    def surrounded(rank, x):
        around = [
            (rank, x - 1),
            (rank, x + 1),
            (rank - 1, x - half),
            (rank - 1, x + half),
            (rank + 1, x - half),
            (rank + 1, x + half),
        ]
        return all(spot in spots for spot in around)

    return sum(1 for rank, x in spots if surrounded(rank, x))


def test_rank_sizes_match_filling_one_at_a_time(ns):
    def case(models):
        assert ns["wedge_rank_sizes"](models) == brute_rank_sizes(models)

    sweep(SIZES, case)


def test_complete_ranks_against_counting(ns):
    def case(ranks):
        models = sum(range(1, ranks + 1))
        assert ns["wedge_models"](ranks) == models
        assert ns["wedge_complete_ranks"](models) == ranks
        if ranks:
            assert ns["wedge_complete_ranks"](models - 1) == ranks - 1
            assert ns["wedge_rank_models"](ranks) == ranks

    sweep(range(0, 15), case)


def test_positions_against_enumeration(ns):
    def case(models):
        positions = ns["wedge_positions"](models)
        assert len(positions) == models
        assert set(positions) == brute_positions(models)

    sweep(SIZES, case)


def test_rear_rank_places_against_enumeration(ns):
    def case(models):
        sizes = brute_rank_sizes(models)
        width = len(sizes)
        expected = tuple(range(1, width + 1)) if sizes[-1] == width else brute_rear_places(width, sizes[-1])
        assert ns["wedge_rear_rank_places"](models) == expected

    sweep(range(1, 80), case)


def test_inside_and_edges_against_neighbours(ns):
    def case(models):
        assert ns["wedge_inside_models"](models) == brute_inside(models)
        assert ns["wedge_edge_models"](models) == models - brute_inside(models)

    sweep(SIZES, case)


def test_complete_wedge_edges_are_the_three_sides(ns):
    def case(ranks):
        # A triangle of `ranks` a side has 3 * (ranks - 1) models on its perimeter.
        assert ns["wedge_edge_models"](sum(range(1, ranks + 1))) == 3 * (ranks - 1)

    sweep(range(2, 15), case)


def test_hill_adds_half_the_inside_rounded_up(ns):
    def case(models):
        # "If deployed on a hill half the models on the inside of the formation, rounded up, can also fire."
        inside = brute_inside(models)
        assert ns["wedge_shooters"](models) == models - inside
        assert ns["wedge_shooters"](models, on_hill=True) == models - inside + ceil(Fraction(inside, 2))

    sweep(SIZES, case)


def test_chart_formula_against_enumeration(ns):
    def case(ranks):
        models = sum(range(1, ranks + 1))
        inside = brute_inside(models)
        counts = ns["wedge_complete_counts"]
        assert counts(ranks, "models") == models
        assert counts(ranks, "shoot") == models - inside
        assert counts(ranks, "shoot on a hill") == models - inside + ceil(Fraction(inside, 2))

    sweep(range(1, 13), case)


def test_casualties_come_from_the_centre_of_the_rear_rank(ns):
    def case(models):
        # "Casualties removed in combat are taken from the centre of the rearmost rank first."
        first = ns["wedge_casualties"](models, 1)[0]
        positions = brute_positions(models)
        rear = max(rank for rank, _ in positions)
        assert first[0] == rear

        def off_centre(place):
            return abs(Fraction(2 * place - rear - 1, 2))

        assert off_centre(first[1]) == min(off_centre(p) for r, p in positions if r == rear)

    sweep(range(1, 60), case)


def test_what_survives_casualties_is_a_wedge(ns):
    def case(models):
        for casualties in range(models + 1):
            removed = ns["wedge_casualties"](models, casualties)
            assert len(set(removed)) == casualties, f"{casualties} casualties"
            assert brute_positions(models) - set(removed) == brute_positions(models - casualties), (
                f"{casualties} casualties"
            )

    sweep(range(0, 40), case)


def test_wedge_casualties_cannot_exceed_the_unit(ns):
    with pytest.raises(ValueError):
        ns["wedge_casualties"](5, 6)


def test_wedge_weapons(ns):
    # "equipped with short bows, bows, long bows, crossbows or repeating crossbows"
    for weapon in (
        "short bows",
        "bows",
        "long bows",
        "crossbows",
        "repeating crossbows",
        "Long bow",
        "repeating crossbow",
    ):
        assert ns["may_form_wedge"](weapon), weapon
    assert not ns["may_form_wedge"]("handgun") and not ns["may_form_wedge"]("javelins")


def test_wedge_movement(ns):
    # "it can move sideways or backwards counting every inch moved as two"; wheeling forward "as normal";
    # "always counting every inch moved by the rearmost complete rank as two"
    cost = ns["wedge_move_cost"]
    assert cost(3, "forward") == cost(3, "wheel forward") == 3
    assert cost(3, "sideways") == cost(3, "backwards") == 6
    assert cost(Fraction(5, 2), "wheel backwards") == 5
    assert ns["wedge_move_allowance"](5, "sideways") == Fraction(5, 2)
    assert ns["wedge_move_allowance"](5, "forward") == 5
    # "The wedge can march move only when moving /wheeling forward."
    assert [
        ns["wedge_can_march"](d) for d in ("forward", "wheel forward", "sideways", "backwards", "wheel backwards")
    ] == [True, True, False, False, False]
    # "The wedge cannot turn"
    assert ns["wedge_inch_cost"]("turn").startswith("Cannot turn")
    with pytest.raises(FormulaError, match="turn"):
        cost(1, "turn")


# -- push back -------------------------------------------------------------------------------


def brute_push_back(lost_by, charge, march, move, pushed, pushing):
    """Inch by inch (in half inches), the way players would measure it on the table."""
    target = Fraction(lost_by, 2) if pushed is not None and pushed > 2 * pushing else Fraction(lost_by)
    moved = Fraction(0)
    while moved < target and moved < charge and moved < march:
        moved += Fraction(1, 2)
    confused = target > march
    return moved, confused, move is not None and moved > move and not confused


def test_push_back_against_measuring(ns):
    def case(lost_by, charge, march, move, pushed, pushing):
        result = ns["push_back"](
            lost_by,
            charge_distance=charge,
            march_distance=march,
            move=move,
            pushed_strength=pushed,
            pushing_strength=pushing,
        )
        distance, confused, test = brute_push_back(lost_by, charge, march, move, pushed, pushing)
        assert (result.distance, result.confused, result.psychology_test) == (distance, confused, test)
        assert result.follow_up == result.distance
        assert result.distance.unit == "inches"  # a distance keeps its unit, and its magnitude is exact
        assert isinstance(result.distance.magnitude, int) == (Fraction(result.distance.magnitude).denominator == 1)

    sweep(
        (
            (lost_by, charge, march, move, pushed, pushing)
            for lost_by in range(1, 14)
            for charge, march, move in [(8, 8, 4), (6, 10, 5), (12, 8, 4), (10, 10, None)]
            for pushed, pushing in [(None, None), (10, 5), (11, 5), (30, 10)]
        ),
        case,
    )


def test_push_back_text_sentences(ns):
    push_back = ns["push_back"]
    # "So if a unit lost a combat by 2 points it is pushed back 2 inches."
    assert push_back(2, charge_distance=8, march_distance=8).distance == 2
    # "The unit that does the pushing follows up the same distance."
    assert push_back(2, charge_distance=8, march_distance=8).follow_up == 2
    # "... the charge distance of the pushing unit with the lowest Movement or the normal march distance
    # of the unit being pushed back (whichever is lowest)."
    assert push_back(7, charge_distance=6, march_distance=10).distance == 6
    assert push_back(7, charge_distance=10, march_distance=5).distance == 5
    # "A unit that would normally be pushed back further than it's march move is halted when it has
    # reached it's march distance and is automatically Confused"
    halted = push_back(9, charge_distance=12, march_distance=8)
    assert (halted.distance, halted.confused) == (8, True)
    # "a Unit Strength more than twice that of the unit(s) pushing the push back distance is halved"
    assert push_back(
        3, charge_distance=8, march_distance=8, pushed_strength=25, pushing_strength=12
    ).distance == Fraction(3, 2)
    assert push_back(3, charge_distance=8, march_distance=8, pushed_strength=24, pushing_strength=12).distance == 3
    # "if it is pushed back further than its normal Move distance ... it must take a Psychology test"
    assert push_back(6, charge_distance=8, march_distance=8, move=4).psychology_test
    assert not push_back(4, charge_distance=8, march_distance=8, move=4).psychology_test


def test_push_back_formulas(ns):
    assert ns["push_back_halves"](21, 10) and not ns["push_back_halves"](20, 10)
    assert ns["push_back_normal_distance"](5, True) == Fraction(5, 2)
    assert ns["push_back_distance"](5, 8, 8, False) == 5
    assert ns["push_back_confuses"](9, 8, False) and not ns["push_back_confuses"](9, 8, True)


def test_push_back_needs_both_strengths(ns):
    with pytest.raises(ValueError):
        ns["push_back"](2, charge_distance=8, march_distance=8, pushed_strength=20)
    with pytest.raises(ValueError):
        ns["push_back"](0, charge_distance=8, march_distance=8)


def test_permission(ns):
    permission = ns["push_back_permission"]
    # "When a unit wins a round of combat and not all of it's enemies flee it can elect to push them back."
    assert permission() == "may"
    # "A Frenzied unit must always push back enemy units, if able to."
    assert permission(frenzied=True) == "must"
    # "it must not have any enemies in it's flank or rear"; "if there are friendly units directly in front
    # of a unit it cannot push back the enemy"
    for blocked in ("all_enemies_flee", "enemy_in_flank_or_rear", "friends_directly_in_front"):
        assert permission(frenzied=True, **{blocked: True}) == "cannot"
    assert permission(won_round=False) == "cannot"


def test_permission_formula_every_case(ns):
    choice = ns["push_back_choice"]
    for won, flee, flank, friends, frenzied in itertools.product((False, True), repeat=5):
        able = won and not flee and not flank and not friends
        expected = ("must" if frenzied else "may") if able else "cannot"
        assert choice(won, flee, flank, friends, frenzied) == expected


def test_slowest_pusher(ns):
    assert ns["slowest_pusher_charge"]((4, 8), (6, 12)) == 8
    assert ns["slowest_pusher_charge"]((5, 10)) == 10
    with pytest.raises(ValueError):
        ns["slowest_pusher_charge"]()


@pytest.mark.parametrize("strengths", [(20,), (20, 10), (10, 20), (15, 15), (15, 15, 15), (5, 12, 12), (30, 29, 1)])
def test_several_pushers_against_sorting(strengths, ns):
    # "only the only with the highest Unit Strength can do so ... In case of ties the owning player may decide"
    units = {f"unit {i}": strength for i, strength in enumerate(strengths)}
    ranked = sorted(units.items(), key=lambda item: -item[1])
    strongest = tuple(name for name, strength in units.items() if strength == ranked[0][1])
    apart = ns["units_pushing_back"](units)
    assert set(apart.units) == set(strongest)
    assert apart.owner_picks_one == (len(strongest) > 1)
    # "unless they are both fighting in the same side of the enemy unit": all work together
    together = ns["units_pushing_back"](units, same_side=True)
    assert together.units == tuple(units) and not together.owner_picks_one


def test_several_pushers_need_some(ns):
    with pytest.raises(ValueError):
        ns["units_pushing_back"]({})


def test_pushed_into(ns):
    # "If the unit being pushed back into is in combat it must stand its ground, it cannot make way. If the
    # unit being pushed back into is fleeing it must make way, it cannot stand its ground."
    options = ns["pushed_into_options"]
    assert options(in_combat=True) == ("stand its ground",)
    assert options(fleeing=True) == ("make way",)
    # "It can make way or it can stand its ground."
    assert set(options()) == {"make way", "stand its ground"}
    with pytest.raises(ValueError):
        options(in_combat=True, fleeing=True)


# -- disruption and Confusion ------------------------------------------------------------------


def test_confusion_modifier_by_counting_ranks(ns):
    def case(width, full):
        for rear in range(width):
            for removed in range(full * width + rear + 1):
                ranks = 0
                while (ranks + 1) * width <= removed:
                    ranks += 1
                expected = None if ranks == 0 else 1 - ranks
                test = ns["confusion_test_after_casualties"](removed, rank_width=width, full_ranks=full, rear_rank=rear)
                assert test == expected, f"rear rank {rear}, {removed} removed"

    sweep(itertools.product(range(1, 8), range(1, 6)), case)


def test_text_example_bands(ns):
    # "if a unit has three full ranks of five models and an incomplete rear rank of two models it only has
    # to take a Confusion test if five or more models have been killed ... the test would be unmodified if
    # five to nine models were removed, at -1 Leadership if ten to fourteen models were removed and at -2
    # Leadership if fifteen or more models were removed."
    test = ns["confusion_test_after_casualties"]
    bands = {n: test(n, rank_width=5, full_ranks=3, rear_rank=2) for n in range(18)}
    assert [n for n, m in bands.items() if m is None] == [0, 1, 2, 3, 4]
    assert [n for n, m in bands.items() if m == 0] == [5, 6, 7, 8, 9]
    assert [n for n, m in bands.items() if m == -1] == [10, 11, 12, 13, 14]
    assert [n for n, m in bands.items() if m == -2] == [15, 16, 17]


def test_no_test_after_failed_panic_or_when_immune(ns):
    # "assuming that it has not already failed a Panic test that phase"; "A unit that is Immune to
    # Psychology does not have to take Confusion tests"
    kwargs = dict(rank_width=5, full_ranks=3, rear_rank=2)
    assert ns["confusion_test_after_casualties"](10, failed_panic=True, **kwargs) is None
    assert ns["confusion_test_after_casualties"](10, immune_to_psychology=True, **kwargs) is None


def test_a_unit_without_a_rear_rank_is_its_full_ranks(ns):
    """Three full ranks of five are 15 models: a 16th casualty cannot be removed, a 15th can."""
    test = ns["confusion_test_after_casualties"]
    with pytest.raises(ValueError, match="15 models"):
        test(16, rank_width=5, full_ranks=3)
    test(15, rank_width=5, full_ranks=3)


def test_disruption_rejects_impossible_units(ns):
    with pytest.raises(ValueError):
        ns["confusion_test_after_casualties"](18, rank_width=5, full_ranks=3, rear_rank=2)
    with pytest.raises(ValueError):
        ns["confusion_test_after_casualties"](5, rank_width=5, full_ranks=3, rear_rank=5)
    assert ns["full_ranks_removed"](9, 5) == 1


def test_one_test_per_phase(ns):
    # "A unit only has to make one Confusion test per phase."
    assert [ns["confusion_tests_to_take"](n) for n in range(4)] == [0, 1, 1, 1]
    assert ns["confusion_tests_to_take"](3, immune_to_psychology=True) == 0


def test_friends_breaking(ns):
    # "When a unit is victorious in combat but has to take a Panic test due to friendly units breaking from
    # other combats within 6" ... it takes a Confusion test, not a Panic test. Units that lost their combat
    # but passed their Break tests take Panic tests as normal."
    test = ns["friends_breaking_test"]
    assert test(won_combat=True) == "Confusion test"
    assert test(won_combat=False) == "Panic test"
    # "within 6"": 6" or less (a reading)
    assert test(won_combat=True, distance=Fraction(11, 2)) == "Confusion test"
    assert test(won_combat=False, distance=6) == "Panic test"
    assert test(won_combat=True, distance=Fraction(13, 2)) is None
