"""The sentence is part of the test: every number players read before a worked example is one it states."""

from fractions import Fraction

import pytest

from generator.examples.languages import DIGITS_ONLY, ENGLISH, FRENCH, GERMAN, language_of
from generator.examples.sentence import (
    evidence,
    paragraph_before,
    stated,
    stated_numbers,
    states,
    unverified,
)

NO_VALUES = lambda id: None  # noqa: E731


def problems(sentence: str, code: str, values=NO_VALUES) -> list[str]:
    return [p.text for p in unverified(sentence, evidence(code, values))]


PRISONERS = """\
>>> defenders, fleeing = 6, 4
>>> defenders - fleeing
2"""


def test_a_number_word_changed_in_the_sentence_alone_is_caught():
    assert problems("Of 6 defenders the 4 who flee escape, and two are taken prisoner:", PRISONERS) == []
    assert problems("Of 6 defenders the 4 who flee escape, and three are taken prisoner:", PRISONERS) == ["three"]


@pytest.mark.parametrize(
    "written, value",
    [
        ("12", 12),
        ("1½", Fraction(3, 2)),
        ("3/4", Fraction(3, 4)),
        ("1 1/2", Fraction(3, 2)),
        ("2.5", Fraction(5, 2)),
        ("-2", -2),
        ("4+", 4),
        ('6"', 6),
        ("41.7%", Fraction(417, 1000)),
        ("two", 2),
        ("Twenty", 20),
        ("once", 1),
        ("twice", 2),
        ("half", Fraction(1, 2)),
        ("one and a half", Fraction(3, 2)),
        ("two thirds", Fraction(2, 3)),
    ],
)
def test_numbers_are_read_as_players_read_them(written, value):
    found = stated_numbers(f"it is {written} here")
    assert [(n.text.rstrip('+"'), n.value) for n in found] == [(written.rstrip('+"'), Fraction(value))]


def test_roles_list_markers_dice_and_pronouns_are_not_numbers_of_the_prose():
    text = "1. move {value}`riders_move` on a D6, one of them, no-one else; Once a hero joins"
    assert [(n.text, n.dice) for n in stated_numbers(text)] == [("D6", "D6")]


def test_a_third_of_is_a_fraction_and_a_third_hit_is_not():
    assert [n.value for n in stated_numbers("a third of the rolls")] == [Fraction(1, 3)]
    assert stated_numbers("takes a third hit") == []


def test_the_example_states_its_literals_results_fractions_and_values_read_but_not_its_comments():
    found = evidence(
        ">>> at_least_one(3)  # nine of them\nFraction(19, 27)\n>>> values.reach\n'50%'", {"reach": '6"'}.get
    )
    assert {Fraction(1), Fraction(3), Fraction(19, 27), Fraction(6)} <= found.numbers
    assert Fraction(9) not in found.numbers
    assert found.has(Fraction(1, 2))  # printed as 50%


def test_dice_a_formula_the_example_calls_rolls_are_stated_but_not_its_numbers():
    rolls = {"hit_chance": "chance(2D6 + fight >= 9)"}.get
    code = ">>> hit_chance(fight=1)\nFraction(5, 12)"
    found = evidence(code, NO_VALUES, rolls)
    assert found.dice == {"2D6"} and Fraction(9) not in found.numbers  # the formula's 9 is no number it states
    said = "A goblin with Fight 1 rolls 2D6 and hits 15 times in 36:"
    assert [p.text for p in unverified(said, found)] == []
    assert [p.text for p in unverified(said.replace("2D6", "3D6"), found)] == ["3D6"]
    assert [p.text for p in unverified(said, evidence(code, NO_VALUES))] == ["2D6"]  # no formula: not stated


def test_a_chance_must_be_one_the_example_states():
    code = ">>> chance_of_a_hit(3)\nFraction(19, 27)"
    assert problems("three dice hit 19 times in 27:", code) == []
    assert problems("three dice hit 19 times in 28:", code) == ["19 times in 28"]
    assert problems("one time in six", ">>> p\nFraction(1, 6)") == []


FACE_CARD = ">>> face_card()\nFraction(3, 13)"  # 12 face cards in 52: 3/13


@pytest.mark.parametrize(
    ("language", "sentence", "chance"),
    [
        (ENGLISH, "A face card comes up 3 cards in 13:", Fraction(3, 13)),
        (ENGLISH, "A face card comes up three draws in thirteen:", Fraction(3, 13)),
        (ENGLISH, "A face card comes up 12 cards in 52:", Fraction(3, 13)),
        (ENGLISH, "A heart comes up one card in four:", Fraction(1, 4)),
        (ENGLISH, "A heart comes up one draw in four:", Fraction(1, 4)),
        (ENGLISH, "A heart comes up one chit in four:", Fraction(1, 4)),
        (ENGLISH, "Every fourth card is a heart:", Fraction(1, 4)),
        (FRENCH, "Un cœur sort une carte sur quatre :", Fraction(1, 4)),
        (FRENCH, "Un cœur sort un tirage sur quatre :", Fraction(1, 4)),
        (GERMAN, "Ein Herz kommt bei einer Karte von vier:", Fraction(1, 4)),
        (GERMAN, "Ein Herz kommt 13 Karten von 52:", Fraction(1, 4)),
    ],
)
def test_n_cards_or_draws_in_m_is_a_chance_the_example_must_state(language, sentence, chance):
    """A card game puts its chances as cards or draws ("one card in four", "3 cards in 13"): each is one chance, which
    an example stating it verifies and one stating another chance does not (before, "one card in four" was two loose
    numbers, and "13 cards in 3" passed beside any example stating 13 and 3)."""
    stating = f">>> heart()\nFraction({chance.numerator}, {chance.denominator})"
    assert unverified(sentence, evidence(stating, NO_VALUES), language) == []
    [problem] = unverified(sentence, evidence(">>> other()\nFraction(1, 2)", NO_VALUES), language)
    assert problem.why == f"a chance of {chance}, which the example does not state"


def test_a_chance_over_1_is_said_to_be_over_1():
    """ "13 cards in 3" beside an example of 3/13 is a chance of 13/3, the two numbers the wrong way round; its
    message says no chance is over 1."""
    assert problems("A face card comes up 13 cards in 3:", FACE_CARD) == ["13 cards in 3"]
    [problem] = unverified("A face card comes up 13 times in 3:", evidence(FACE_CARD, NO_VALUES))
    assert problem.why == "a chance of 13/3, over 1, which no chance can be"


def test_a_part_of_the_cards_is_a_part_of_the_deck_not_a_chance():
    """ "a quarter of the cards" may be two numbers of the example, one a quarter of the other (13 of 52), as a part
    of any whole may; "a quarter of the draws" is a chance, which 13 and 52 alone do not state."""
    deck = ">>> values.hearts, values.deck\n(13, 52)"
    assert problems("A quarter of the cards are hearts:", deck) == []
    assert problems("A heart comes up a quarter of the draws:", deck) == ["a quarter"]


def test_a_percentage_must_round_from_a_chance_of_the_example_at_its_precision():
    code = ">>> casting_chance(8)\nFraction(5, 12)"  # 41.666...%
    assert problems("it succeeds 41.7% of the time", code) == []
    assert problems("it succeeds 42% of the time", code) == []
    assert problems("it succeeds 41.6% of the time", code) == ["41.6%"]


def test_a_percentage_the_example_prints_may_be_said_to_fewer_places_never_more():
    """A mechanic that prints its chance as `'58.3%'`: "58%" is that percentage, rounded (it was refused); "58.33%"
    claims a precision the example never printed."""
    code = ">>> percent(morale_pass(7))\n'58.3%'"
    assert problems("it passes 58.3% of the time", code) == []
    assert problems("it passes 58% of the time", code) == []
    assert problems("it passes 59% of the time", code) == ["59%"]
    assert problems("it passes 58.33% of the time", code) == ["58.33%"]


def test_a_sum_must_be_true_and_its_result_stated():
    code = ">>> cost('command')\n8"
    assert problems("it costs 3 + 5 = 8 pts", code) == []
    assert problems("it costs 3 + 6 = 8 pts", code) == ["3 + 6 = 8"]
    assert problems("it costs 2 x 5 = 10 pts", code) == ["10"]


def test_a_hedged_number_must_describe_a_number_of_the_example():
    code = ">>> expected()\nFraction(19, 6)"
    assert problems("a player can expect a little over 3", code) == []
    assert problems("a player can expect a little over 4", code) == ["4"]


def test_a_hedged_chance_may_round_a_chance_of_the_example():
    """ "about 8%" of 1/12 passed and "about 8 times in 100" was refused: a hedged chance is one of the example's,
    rounded to that many rolls (1/12 is 8⅓ in 100); unhedged it must be exact."""
    code = ">>> rules.table('morale').chance('Rout')\nFraction(1, 12)"
    assert problems("they rout about 8 times in 100", code) == []
    assert problems("they rout roughly 1 time in 12", code) == []
    assert problems("they rout about 9 times in 100", code) == ["9 times in 100"]
    assert problems("they rout 8 times in 100", code) == ["8 times in 100"]
    assert problems("they rout a little over 8 times in 100", code) == []
    assert problems("they rout a little under 8 times in 100", code) == ["8 times in 100"]


def test_odds_must_be_written_so_by_the_example():
    """ "12 attacking 5 is 3:1" passed before an example giving '2:1': the digits 3 and 1 were somewhere in it. Odds
    are the example's only as it writes them."""
    code = ">>> odds_column(12, 5), odds_column(5, 12)\n('2:1', '1:3')"
    assert problems("12 attacking 5 is 2:1, and 5 attacking 12 is 1:3", code) == []
    assert problems("12 attacking 5 is 3:1, and 5 attacking 12 is 1:2", code) == ["3:1", "1:2"]
    assert problems("12 attacking 5 is 2 : 1", code) == []


def test_twice_and_half_may_relate_two_numbers_of_the_example():
    assert problems("Models move 6 inches; twice that at the double, 12 inches.", ">>> at_the_double(6)\n12") == []
    assert problems("Models move 6 inches; thrice that at the double.", ">>> at_the_double(6)\n12") == ["thrice"]


@pytest.mark.parametrize(
    ("said", "flagged"),
    [
        ("A third of the rolls give 2", "A third"),
        ("One roll in three gives 2", "One roll in three"),
        ("Two rolls in six give 2", "Two rolls in six"),
        ("a third of all throws", "a third"),
    ],
)
def test_a_part_of_the_rolls_is_a_chance_the_example_must_state_not_a_ratio_of_its_numbers(said, flagged):
    # the example's 2 and 6 stand in the ratio of a third: that is no chance of a third
    two_in_six = ">>> activations_chance(2)  # on a D6\nFraction(1, 6)\n>>> two_or_three = (2, 6)"
    assert problems(said, two_in_six) == [flagged]
    assert problems(said, ">>> activations_chance(2)\nFraction(1, 3)") == []
    assert problems(said, ">>> activations_chance(2)\n'33.3%'") == []


@pytest.mark.parametrize(
    ("said", "part"),
    [
        ("Half the rolls", Fraction(1, 2)),
        ("a quarter of the time", Fraction(1, 4)),
        ("a sixth of the rolls", Fraction(1, 6)),
    ],
)
def test_half_a_quarter_or_a_sixth_of_the_rolls_must_be_the_examples_chance(said, part):
    assert problems(said, f">>> p\nFraction({part.numerator}, {part.denominator})") == []
    assert problems(said, ">>> p\nFraction(1, 12)\n>>> 12, 6, 4, 3, 2") == [said.split(" of")[0].split(" the")[0]]


def test_a_part_of_something_else_than_the_rolls_may_still_relate_two_numbers():
    assert problems("Riders move half as far, 3 hexes, as a 6 hex charge:", ">>> charge(6)\n3") == []
    assert problems("Two hexes in three turns", ">>> moved(3)\n2") == []  # no chance: a turn is not a try
    assert [n.value for n in stated_numbers("the sixth turn, and a sixth of the rolls")] == [Fraction(1, 6)]


def test_the_sentence_is_the_whole_paragraph_the_example_follows_and_no_earlier_one():
    text = "Steps 1, 3 and 5 are rules prose.\n\nIt ends with two\nprisoners:\n\n```python\n>>> 1 + 1\n2\n```\n"
    ((offset, paragraph, code),) = stated(text)
    assert paragraph == "It ends with two\nprisoners:"
    assert text[offset:].startswith("It ends")
    assert code == ">>> 1 + 1\n2"


@pytest.mark.parametrize(
    "result, said",
    [
        ("50%", True),  # "half the time"
        ("1/6", True),  # "one time in six"
        ("3", False),
        ("(True, False)", False),
        ("66.7%", False),
    ],
)
def test_a_paragraph_states_a_result_when_it_says_one_of_its_numbers(result, said):
    paragraph = "He stands up half the time, and hits one time in six:"
    assert states(paragraph, result) is said


def test_the_paragraph_before_an_example_starts_after_the_last_blank_line_or_example():
    lines = ["Rules prose.", "", "It ends with two", "prisoners:", "", "```python"]
    assert paragraph_before(lines, 3, set()) == "It ends with two\nprisoners:"


def test_the_dice_of_a_table_the_example_names_are_dice_it_rolls():
    rolls = {"advancement": "D10", "injury": "2D10"}.get
    code = '>>> table_chance("advancement", 7)\nFraction(1, 10)'
    said = "A veteran rolls a D10 on the advancement table and gets a new skill one time in ten:"
    assert [p.text for p in unverified(said, evidence(code, NO_VALUES, rolls))] == []
    assert [p.text for p in unverified(said.replace("a D10", "2D10"), evidence(code, NO_VALUES, rolls))] == ["2D10"]
    assert [p.text for p in unverified(said, evidence(code, NO_VALUES))] == ["D10"]  # no table of that id


HALF = ">>> hit_chance(3)\nFraction(1, 2)"


@pytest.mark.parametrize(
    ("language", "sentence", "unverified_"),
    [
        (FRENCH, "Une attaque touche donc une fois sur deux :", []),
        (FRENCH, "Une attaque touche donc deux fois sur trois :", ["deux fois sur trois"]),
        (FRENCH, "Elle touche la moitié du temps :", []),
        (FRENCH, "Elle touche un tiers du temps :", ["un tiers"]),
        (FRENCH, "Elle touche 50 % du temps :", []),
        (FRENCH, "Elle touche 50\u00a0% du temps :", []),
        (FRENCH, "Elle touche 50\u202f% du temps :", []),
        (FRENCH, "Elle touche 27,8 % du temps :", ["27,8 %"]),
        (FRENCH, "Elle touche environ trois fois sur six :", []),
        (FRENCH, "Le troisième jet d'une attaque touche une fois sur deux :", []),
        (GERMAN, "Ein Angriff trifft in einem von zwei Würfen:", []),
        (GERMAN, "Ein Angriff trifft in zwei von drei Würfen:", ["zwei von drei"]),
        (GERMAN, "Er trifft die Hälfte der Zeit:", []),
        (GERMAN, "Er trifft in 50 % der Fälle:", []),
        (GERMAN, "Er trifft ein Drittel der Würfe:", ["ein Drittel"]),
    ],
)
def test_a_sentence_in_the_rulesets_language_is_read_for_its_numbers_in_words_and_its_percentages(
    language, sentence, unverified_
):
    """Players of a French or German rulebook read its numbers in their words: "deux fois sur trois" is a chance of
    2/3 an example of 1/2 does not state, "27,8 %" a percentage with a decimal comma (and a space before %)."""
    assert [p.text for p in unverified(sentence, evidence(HALF, NO_VALUES), language)] == unverified_


def test_a_decimal_comma_is_a_decimal_in_french_and_german_and_not_in_english():
    assert [n.value for n in stated_numbers("27,8 %", language=FRENCH)] == [Fraction(278, 1000)]
    assert [n.value for n in stated_numbers("1,5 pouce", language=GERMAN)] == [Fraction(3, 2)]
    assert [n.value for n in stated_numbers("1,500 points")] == [1500]  # English: a thousands separator


def test_articles_are_no_numbers_but_one_is_one_before_a_part_or_in_a_chance():
    """French "une attaque" and German "ein Angriff" are articles; "un tiers", "une fois sur deux", "einer von
    sechs" say one."""
    assert stated_numbers("Une attaque et un sort", language=FRENCH) == []
    assert stated_numbers("Ein Angriff und eine Zauberei", language=GERMAN) == []
    assert [n.value for n in stated_numbers("un tiers, une fois sur deux", language=FRENCH)] == [
        Fraction(1, 3),
        1,
        2,
    ]
    assert [n.value for n in stated_numbers("einer von sechs", language=GERMAN)] == [1, 6]


def test_in_a_language_whose_words_are_not_known_only_digits_are_read():
    assert [n.text for n in stated_numbers("dos de cada tres, 2 de 3, 27.8%", language=DIGITS_ONLY)] == [
        "2",
        "3",
        "27.8%",
    ]
    assert language_of("es") is None and language_of("fr-CA") is FRENCH and language_of("") is ENGLISH


@pytest.mark.parametrize(
    ("language", "sentence", "value"),
    [
        (GERMAN, "Ein Treffer gelingt in zwei Dritteln der Würfe:", Fraction(2, 3)),
        (GERMAN, "Der Reiter zählt viereinhalb:", Fraction(9, 2)),
        (GERMAN, "Er zählt zweieinhalb:", Fraction(5, 2)),
        (GERMAN, "Die Einheit kostet sechzig Punkte:", 60),
        (GERMAN, "Die Einheit kostet einundzwanzig Punkte:", 21),
        (GERMAN, "Die Einheit kostet neunundneunzig Punkte:", 99),
        (GERMAN, "Die Einheit kostet hundert Punkte:", 100),
        (ENGLISH, "The unit costs twenty-one points:", 21),
        (ENGLISH, "The unit costs sixty points:", 60),
        (ENGLISH, "The unit costs one hundred points:", 100),
        (FRENCH, "L'unité coûte soixante et onze points :", 71),
        (FRENCH, "L'unité coûte quatre-vingt-dix-neuf points :", 99),
        (FRENCH, "L'unité coûte vingt-deux points :", 22),
    ],
)
def test_number_words_past_twenty_halves_and_parts_after_in_are_read(language, sentence, value):
    """German writes "in zwei Dritteln der Würfe" (the dative after "in"), 4½ as "viereinhalb" and 21 as
    "einundzwanzig"; English and French write "twenty-one" and "soixante et onze". Each is the number it says, so
    an example that states another number is caught."""
    [number] = stated_numbers(sentence, language=language)
    assert number.value == value
    assert [p.text for p in unverified(sentence, evidence(HALF, NO_VALUES), language)] == [number.text]


@pytest.mark.parametrize(
    ("language", "sentence", "chance"),
    [
        (GERMAN, "Jeder dritte Wurf trifft:", Fraction(1, 3)),
        (GERMAN, "Bei jedem dritten Wurf trifft er:", Fraction(1, 3)),
        (GERMAN, "Das gelingt einmal in drei Würfen:", Fraction(1, 3)),
        (GERMAN, "Er trifft sechzig von hundert Mal:", Fraction(3, 5)),
        (ENGLISH, "Every third roll hits:", Fraction(1, 3)),
        (ENGLISH, "It hits sixty in a hundred times:", Fraction(3, 5)),
    ],
)
def test_every_third_roll_and_once_in_three_are_chances(language, sentence, chance):
    """ "Jeder dritte Wurf" and "einmal in drei Würfen" are a chance of 1/3 (as "every third roll", "once in three"):
    an example of 1/3 verifies them, one of 1/2 does not, and the message names the chance."""
    stating = f">>> hit_chance(5)\nFraction({chance.numerator}, {chance.denominator})"
    assert unverified(sentence, evidence(stating, NO_VALUES), language) == []
    [problem] = unverified(sentence, evidence(HALF, NO_VALUES), language)
    assert f"a chance of {chance}" in problem.why


def test_einmal_outside_a_chance_and_an_article_before_in_are_no_numbers():
    """ "noch einmal" (again) and "eine in Deckung stehende Einheit" (an article) say no number."""
    assert stated_numbers("Er würfelt noch einmal, auf einmal trifft er.", language=GERMAN) == []
    assert stated_numbers("Eine in Deckung stehende Einheit", language=GERMAN) == []


@pytest.mark.parametrize(
    ("language", "written", "value"),
    [
        (GERMAN, "1.000", 1000),
        (GERMAN, "1.500", 1500),
        (GERMAN, "12.345.678", 12345678),
        (GERMAN, "1.000,5", Fraction(2001, 2)),
        (GERMAN, "1\u2009000", 1000),
        (GERMAN, "2,5", Fraction(5, 2)),
        (FRENCH, "1 000", 1000),
        (FRENCH, "1\u202f000", 1000),
        (FRENCH, "1\u00a0000,5", Fraction(2001, 2)),
        (FRENCH, "1 1/2", Fraction(3, 2)),
        (ENGLISH, "1,000", 1000),
        (ENGLISH, "1,000,000,000", 1000000000),
        (ENGLISH, "1.5", Fraction(3, 2)),
    ],
)
def test_thousands_are_grouped_as_the_language_writes_them(language, written, value):
    """German groups thousands with a dot (1.000) and writes decimals with a comma; French groups them with a space;
    English with a comma, and writes decimals with a dot."""
    assert [n.value for n in stated_numbers(f"ein {written} x", language=language)] == [value]


def test_a_comma_in_the_examples_code_parts_its_arguments():
    """English groups thousands with a comma in prose ("1,200"), but `cost(1,200)` in code is two arguments."""
    assert problems("It costs 200 points:", ">>> cost(1,200)\n201") == []
    assert problems("It costs 1,200 points:", ">>> cost(1200)\n1200") == []
