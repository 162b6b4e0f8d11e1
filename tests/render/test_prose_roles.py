"""Roles in prose printed as text (`generator/render/prose.py`), for pages that link nothing (Markdown exports, the
quick references' notes) and for print: a value as the text gives it (a house rule with the text's own value), an
entry by its title or by the spelling the sentence used, and a name the ruleset does not have as it was written.

Expected texts come from the sample rules' YAML (titles, terms, values) and the Rampant Hex house overlay.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import ROOT

from generator.render.prose import _ROLE, Prose, role_as_text
from generator.source.project import load_project


@pytest.fixture(scope="module")
def project():
    return load_project(Path(ROOT))[0]


@pytest.fixture(scope="module")
def house(project):
    return project.ruleset("rampant_hex_house")


def printed(role: str, ruleset=None) -> str:
    return role_as_text(_ROLE.fullmatch(role), ruleset)


def test_a_value_prints_as_the_text_gives_it_and_a_house_rule_with_the_texts_own(project, house):
    assert printed("{value}`riders_move`", house) == "4 hexes (house rule; the text: 3 hexes)"
    assert printed("{value}`riders_move`", project.ruleset("rampant_hex")) == "3 hexes"
    assert printed("{value}`no_such_value`", house) == "no_such_value"


def test_an_entry_prints_as_its_title_or_as_the_spelling_the_sentence_used(house):
    assert printed("{rule}`what_you_need`", house) == "What you need"
    assert printed("{term}`hit_marker`", house) == "Hit marker"  # by id: the title
    assert printed("{term}`HIT MARKER`", house) == "HIT MARKER"  # by a spelling of the term: as written
    assert printed("{rule}`the kit <what_you_need>`", house) == "the kit"


def test_a_name_the_ruleset_lacks_and_a_role_read_without_a_ruleset_print_what_was_written(house):
    assert printed("{rule}`no_such_rule`", house) == "no such rule"
    assert printed("{entry}`rules.what_you_need`") == "what you need"
    assert printed("{term}`hit_marker`") == "hit_marker"  # a term is a word of the sentence: left as written


def test_in_print_an_unknown_value_is_its_name_as_written(house):
    assert Prose(house, "player").inline("roll {value}`no_such_value` dice") == "roll no_such_value dice"


def test_a_roll_role_prints_the_range_of_the_row_it_names_in_print_and_as_text(project):
    """{roll}`table:Result` prints the row's range as the table does (the activations table: 3 activations on 3-4,
    5 on a 6, per the YAML and the text's "1-2 = 2 activations ... 6 = 5 activations")."""
    hex_rules = project.ruleset("rampant_hex")
    assert printed("{roll}`activations:3 activations`", hex_rules) == "3–4"
    assert printed("{roll}`activations:5 Activations`", hex_rules) == "6"
    assert Prose(hex_rules, "player").inline("on a {roll}`activations:2 activations`, two") == "on a 1–2, two"
    assert printed("{roll}`activations:no such row`", hex_rules) == "activations:no such row"


def _printed_text(html) -> str:
    """What prints of some prose, a house rule's reason (a footnote, printed apart) left out."""
    return re.sub(r"<[^>]+>", "", re.sub(r'<span class="house-note">.*?</span>', "", str(html)))


def test_a_house_value_inside_brackets_prints_the_text_s_own_at_their_end_never_nested(house):
    """The house rules move riders 4 hexes (rampant_hex_house/ruleset.yaml), the text 3 (rampant_hex/values.yaml),
    other units 2. Inside the author's brackets the house value's own mark nested: "(4 hexes (house rule; the text:
    3 hexes) for riders)"."""
    prose = Prose(house, "player")
    written = "Move up to {value}`move` ({value}`riders_move` for riders), not through units."
    expected = "Move up to 2 hexes (4 hexes for riders; house rule; the text: 3 hexes), not through units."
    assert _printed_text(prose.inline(written)) == expected
    assert _printed_text(prose.html(written)).strip() == expected
    assert 'class="house-note"' in str(prose.inline(written))  # the reason is still given, once


def test_brackets_holding_two_house_values_or_left_open_keep_each_value_s_own_mark(house):
    """Which of two values a mark at the brackets' end spoke of would be lost; a bracket the text does not close has
    no end to carry it."""
    prose = Prose(house, "player")
    marked = "4 hexes (house rule; the text: 3 hexes)"
    assert _printed_text(prose.inline("({value}`riders_move` or {value}`riders_move`)")) == f"({marked} or {marked})"
    assert _printed_text(prose.inline("(riders {value}`riders_move`")) == f"(riders {marked}"
