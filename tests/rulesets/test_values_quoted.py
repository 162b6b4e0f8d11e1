"""Every value of every ruleset against its source text: the quote it cites states its number, in digits or in
words ("4+", "two", "halved"). A value whose quote cannot state it (a step read off a pattern, a modifier
"as in Fantasy") is typed here by hand instead, with the reason. Nothing here computes a value with the code:
a changed number in a `values:` entry no longer matches the words the book printed.
"""

from __future__ import annotations

import re

import pytest
from helpers import sample_project

WORDS = {
    0: ["no", "none", "zero"],
    1: ["one", "a", "an", "single", "once"],
    2: ["two", "twice", "double", "pair"],
    3: ["three", "thrice", "triple"],
    4: ["four"],
    5: ["five"],
    6: ["six"],
    7: ["seven"],
    8: ["eight"],
    9: ["nine"],
    10: ["ten"],
    11: ["eleven"],
    12: ["twelve"],
    20: ["twenty"],
    30: ["thirty"],
}
FRACTION_WORDS = {"½": ["half", "halved", "halves"], "¼": ["quarter"], "⅓": ["third"]}
# Values the cited sentence cannot state, typed by hand as the text gives them (ruleset, id): (value, why).
TYPED = {
    ("bad_moon_rising", "wedge_rank_step"): (
        "1",
        "the text counts one, two, three models per rank: one more each rank",
    ),
    ("ordo_ineptus", "moving_modifier"): ("-1", "'as in Fantasy': Warhammer Fantasy's -1 to hit for moving"),
    ("ordo_ineptus", "long_range_modifier"): ("-1", "'as in Fantasy': -1 to hit at long range"),
    ("ordo_ineptus", "large_target_modifier"): ("+1", "'as in Fantasy': +1 to hit a large target"),
    ("ordo_ineptus", "card_order"): ("A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2", "'ace, king, queen, jack, 10, etc.'"),
    ("rampant_hex_house", "riders_move"): ("4 hexes", "the house rule's own number; its quote is the base's"),
}


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+|[½¼⅓]", text)


def stated(number: str, quote: str) -> bool:
    quote = quote.casefold()
    if number.isdigit():
        return bool(re.search(rf"(?<!\d){number}(?!\d)", quote)) or any(
            re.search(rf"\b{word}\b", quote) for word in WORDS.get(int(number), [])
        )
    return number in quote or any(word in quote for word in FRACTION_WORDS.get(number, []))


def quoted_values():
    project, diagnostics = sample_project()
    assert not diagnostics.errors
    return [
        (ruleset.id, value)
        for ruleset in project.rulesets
        for value in ruleset.values
        if value.source is not None and value.source.quote
    ]


VALUES = quoted_values()


@pytest.mark.parametrize("ruleset", sorted({r for r, _ in VALUES}))
def test_each_quoted_value_is_stated_by_its_quote(ruleset):
    wrong = []
    for owner, value in VALUES:
        if owner != ruleset or (owner, value.id) in TYPED:
            continue
        missing = [n for n in numbers(str(value.value)) if not stated(n, value.source.quote)]
        if missing:
            wrong.append(f"{value.id}: {value.value} ({', '.join(missing)} not in “{value.source.quote}”)")
    assert wrong == []


@pytest.mark.parametrize("ruleset, id", sorted(TYPED))
def test_a_value_its_quote_cannot_state_is_as_typed(ruleset, id):
    value = next(v for owner, v in VALUES if (owner, v.id) == (ruleset, id))
    assert str(value.value).replace("−", "-") == TYPED[ruleset, id][0]


def test_the_number_reader_takes_digits_words_and_halves():
    assert stated("4", "on the roll of 4+") and stated("2", "two models") and stated("½", "the distance is halved")
    assert not stated("5", "on the roll of 4+") and not stated("3", "two models") and not stated("1", "10 hexes")
