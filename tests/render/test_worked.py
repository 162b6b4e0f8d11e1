"""What players read of a worked example whose result an overlay's house values change (``render.worked``)."""

from __future__ import annotations

import pytest

from generator.model.ruleset import HouseResult
from generator.render.worked import for_readers, house_phrase


def changed(*results) -> HouseResult:
    return HouseResult(entry="rules.moving", source=">>> x", path="rules.yaml", line=3, results=tuple(results))


@pytest.mark.parametrize(
    ("results", "said"),
    [
        ((("7 hexes", "8 hexes"),), "the text: 7 hexes; these house rules: 8 hexes"),
        # exact numbers as every output prints them: a third as ⅓, sixths as 1/6, a whole number held as a
        # fraction as that number
        ((("Fraction(1, 6)", "Fraction(1, 3)"),), "the text: 1/6; these house rules: ⅓"),
        ((("Fraction(3, 1)", "Fraction(7, 2)"),), "the text: 3; these house rules: 3½"),
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


def _read(sentence: str, code: str, results, hidden: bool = False) -> str:
    """What players read of one example whose results an overlay changes: its sentence, as the print renderers
    take it (no mark for a checked sentence)."""
    text = f"{sentence}\n\n```python\n{code}\n```\n"
    house = HouseResult(entry="rules.moving", source=code, path="rules.yaml", line=3, results=tuple(results))
    return for_readers(text, " CHECKED", house=(house,), hidden=hidden).strip()


def test_a_sentence_stating_a_changed_result_prints_the_house_number_marked_as_a_house_value():
    code = ">>> move(riders=True, extra=True)\n4 hexes"
    assert _read("The riders move an extra hex, 4 in all:", code, [("4 hexes", "5 hexes")]) == (
        "The riders move an extra hex, 5 (house rule; the text: 4) in all."
    )
    # the result's unit written after the number goes with it, as a house value prints
    assert _read("So they move 4 hexes in all:", code, [("4 hexes", "5 hexes")]) == (
        "So they move 5 hexes (house rule; the text: 4 hexes) in all."
    )
    # of a result of several values, the place that changed; and a number on another line of the paragraph
    two = ">>> move(riders=False), move(riders=True)\n(2 hexes, 3 hexes)"
    assert _read("Foot move 2 and riders\n3 hexes:", two, [("(2 hexes, 3 hexes)", "(2 hexes, 4 hexes)")]) == (
        "Foot move 2 and riders\n4 hexes (house rule; the text: 3 hexes)."
    )


@pytest.mark.parametrize(
    ("sentence", "code"),
    [
        ("They move 4 hexes, 4 in all:", ">>> move()\n4 hexes"),  # which 4 is the result is not known
        ("With 4 riders the band moves:", ">>> band_move(riders=4)\n4 hexes"),  # the 4 its statement writes
        ("A roll of 4 and a move of 4:", ">>> roll()\n4\n>>> move()\n4 hexes"),  # an unchanged result is 4 too
        ("They move four hexes in all:", ">>> move()\n4 hexes"),  # a number word: no digits to put the house's in
        ("They move about 4 hexes:", ">>> move()\n4 hexes"),  # hedged
        ("They get there 4 times in 6:", ">>> move()\n4 hexes"),  # part of a chance
        ("They move 3 + 1 = 4 hexes:", ">>> move()\n4 hexes"),  # part of a sum
    ],
)
def test_a_number_that_may_not_be_the_changed_result_is_left_and_both_results_said_after(sentence, code):
    read = _read(sentence, code, [("4 hexes", "5 hexes")])
    assert "house rule;" not in read and read.endswith("(the text: 4 hexes; these house rules: 5 hexes)")


def test_a_game_masters_house_number_is_never_printed_in_a_players_sentence():
    read = _read("They move 4 in all:", ">>> move()\n4 hexes", [("4 hexes", "5 hexes")], hidden=True)
    house = "another result (its house values are the game-master's)"
    assert read == f"They move 4 in all. (the text: 4 hexes; these house rules: {house})"
