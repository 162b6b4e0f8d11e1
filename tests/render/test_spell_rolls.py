"""A spell on a row that covers several rolls: its card, its booklet entry and its site page print the row's range
(as the table prints a range, `1–2`) beside that row's chance, never one roll of it."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import make_project

from generator.render.handouts.cards import cards
from generator.render.handouts.content import spell_facts
from generator.render.site.myst import spell_md
from generator.validate import check_project

GAME = """\
ruleset: {title: Marsh}
chapters:
  magic: {title: Magic}
tables:
  spells:
    title: Marsh spells
    dice: D6
    chapter: magic
    rows:
      - {roll: 1-2, result: Gas, ref: gas}
      - {roll: 3-4, result: Mud, ref: mud}
      - {roll: 5+, result: Grog, ref: grog}
spells:
  gas: {name: Gas, table: spells, roll: 1-2, chapter: magic, effect: A cloud.}
  mud: {name: Mud, table: spells, chapter: magic, effect: A sinking.}
  grog: {name: Grog, table: spells, roll: 5+, chapter: magic, effect: A drink.}
"""

# (spell, the range its row covers as printed, that row's chance on a D6 counted face by face)
EXPECTED = [
    ("gas", "1–2", Fraction(sum(1 for face in range(1, 7) if face <= 2), 6)),
    ("mud", "3–4", Fraction(sum(1 for face in range(1, 7) if 3 <= face <= 4), 6)),  # roll left out: its row's
    ("grog", "5+", Fraction(sum(1 for face in range(1, 7) if face >= 5), 6)),
]


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    result = check_project(make_project(tmp_path_factory.mktemp("marsh"), marsh=GAME))
    assert [d.format() for d in result.diagnostics] == []
    return next(r for r in result.project.rulesets if r.id == "marsh")


@pytest.mark.parametrize(("spell", "printed", "chance"), EXPECTED)
def test_a_spell_s_card_badge_prints_its_row_s_range(ruleset, spell, printed, chance):
    card = next(c for c in cards(ruleset, "player") if c["title"] == ruleset.spell(spell).name)
    assert (card["badge"]["label"], card["badge"]["value"]["text"]) == ("D6", printed)


@pytest.mark.parametrize(("spell", "printed", "chance"), EXPECTED)
def test_a_spell_s_booklet_entry_prints_its_row_s_range_and_chance(ruleset, spell, printed, chance):
    table = next(f for f in spell_facts(ruleset, ruleset.spell(spell), "player") if f["label"] == "Table")
    text = table["value"]["text"] if isinstance(table["value"], dict) else str(table["value"])
    assert text.startswith(f"Marsh spells (D6), roll {printed}, {chance.numerator}/{chance.denominator} (")


@pytest.mark.parametrize(("spell", "printed", "chance"), EXPECTED)
def test_a_spell_s_page_prints_its_row_s_range_and_chance(ruleset, spell, printed, chance):
    percent = f"{float(chance * 100):.1f}".rstrip("0").rstrip(".") + "%"
    markdown = spell_md(ruleset.spell(spell), ruleset)
    assert f"roll {printed} ({percent})" in markdown.replace("\\", "")  # as read, Markdown's escapes undone


def test_spell_cards_are_in_the_order_of_their_rows(ruleset):
    names = [c["title"] for c in cards(ruleset, "player") if c["class"] == "spell"]
    assert names == ["Gas", "Mud", "Grog"]
