"""The id a name reads as (generator/source/ids.py): what `rulepress new` offers and check's hints suggest."""

from __future__ import annotations

import pytest

from generator.source.ids import ID, id_like


@pytest.mark.parametrize(
    ("written", "id"),
    [
        ("BadId", "bad_id"),  # a capital inside a word starts the next: `badid` was offered
        ("heavyFoot", "heavy_foot"),
        ("HTMLPage", "html_page"),
        ("HP", "hp"),
        ("level2Hero", "level2_hero"),
        ("ÉtatMajor", "etat_major"),
        ("Œil du chef", "oeil_du_chef"),  # a ligature is its letters, never split
        ("My-Game", "my_game"),
        ("règles_de_mêlée", "regles_de_melee"),
        ("2fast", "entry_2fast"),
        ("!!", "entry"),
    ],
)
def test_a_name_reads_as_the_id_its_words_make(written, id):
    assert id_like(written) == id
    assert ID.fullmatch(id)
