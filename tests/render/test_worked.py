"""What players read of a worked example whose result an overlay's house values change (``render.worked``)."""

from __future__ import annotations

import pytest

from generator.model.ruleset import HouseResult
from generator.render.worked import house_phrase


def changed(*results) -> HouseResult:
    return HouseResult(entry="rules.moving", source=">>> x", path="rules.yaml", line=3, results=tuple(results))


@pytest.mark.parametrize(
    ("results", "said"),
    [
        ((("7 hexes", "8 hexes"),), "the text: 7 hexes; these house rules: 8 hexes"),
        ((("Fraction(1, 6)", "Fraction(1, 3)"),), "the text: 1/6; these house rules: 1/3"),
        # of several values, only the one that differs: foot 2 hexes in both, riders 3 and 4
        ((("(2 hexes, 3 hexes)", "(2 hexes, 4 hexes)"),), "the text: 3 hexes; these house rules: 4 hexes"),
        ((("(1, (2, 3))", "(1, (2, 5))"),), "the text: 3; these house rules: 5"),
        ((("'3+'", None),), "the text: 3+; these house rules: no result (the example does not work out)"),
    ],
)
def test_a_changed_result_players_can_read_is_said_both_ways(results, said):
    assert house_phrase(changed(*results)) == said


@pytest.mark.parametrize(
    "results",
    [
        (("{1}", "{1, 2}"),),  # a set of counts
        (("True", "False"), ("(True, False)", "(False, False)")),
        (("(2 hexes, 3 hexes)", "(2 hexes, 3 hexes, 4 hexes)"),),  # not as many values: no place to compare
        (("{'move': 3}", "{'move': 4}"),),
    ],
)
def test_a_changed_result_that_is_no_number_or_word_of_the_game_is_not_printed(results):
    assert house_phrase(changed(*results)) == "so in the text; these house rules give another result"


def test_the_authors_read_every_changed_result_as_the_example_printed_it():
    result = changed(("{1}", "{1, 2}"), ("(2 hexes, 3 hexes)", "(2 hexes, 4 hexes)"))
    assert house_phrase(result, raw=True) == (
        "the text: {1}, (2 hexes, 3 hexes); these house rules: {1, 2}, (2 hexes, 4 hexes)"
    )


def test_a_game_masters_house_result_is_not_narrowed_to_the_place_it_changes():
    hidden = "these house rules: another result (its house values are the game-master's)"
    assert house_phrase(changed(("(2 hexes, 3 hexes)", "(2 hexes, 4 hexes)")), hidden=True) == (
        "so in the text; these house rules give another result (its house values are the game-master's)"
    )
    assert house_phrase(changed(("7 hexes", "8 hexes")), hidden=True) == f"the text: 7 hexes; {hidden}"


def test_under_a_paragraph_only_the_changed_results_it_states_are_said():
    result = changed(("(True, False)", "(True, True)"), ("'50%'", "'100%'"))
    assert house_phrase(result, paragraph="Half the time it works.") == "the text: 50%; these house rules: 100%"
