"""Cards to cut out, as plain dicts: one per spell and per troop type, placed on sheets.

Cards are the standard 63 x 88 mm, butted edge to edge in a grid centred on the
page (3 x 3 on both A4 and US Letter), with crop marks in the margins on every
cut line. Positions are computed here in millimetres, so templates only place boxes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.base import NotGiven
from ..model.ruleset import Ruleset
from .handouts_content import cell, keyword_named, source_mark, spell_facts, visible
from .prose import Prose, gm_only
from .present import NOT_GIVEN_TEXT, shown

CARD_WIDTH, CARD_HEIGHT = 63.0, 88.0
MIN_MARGIN = 5.0  # what most printers leave unprinted at the page edge
MARK_GAP, MARK_LENGTH = 1.5, 5.0


@dataclass(frozen=True)
class Paper:
    key: str  # in file names
    name: str
    css: str  # for @page size
    width: float  # mm
    height: float


PAPERS = (Paper("a4", "A4", "A4", 210.0, 297.0), Paper("letter", "US Letter", "letter", 215.9, 279.4))


def _mm(value: float) -> str:
    return f"{value:.2f}mm"


def sheet_layout(paper: Paper) -> dict:
    """Where the cards and crop marks go on one sheet of ``paper`` (all lengths in mm)."""
    cols = int((paper.width - 2 * MIN_MARGIN) // CARD_WIDTH)
    rows = int((paper.height - 2 * MIN_MARGIN) // CARD_HEIGHT)
    left = (paper.width - cols * CARD_WIDTH) / 2
    top = (paper.height - rows * CARD_HEIGHT) / 2
    slots = [{"left": _mm(left + c * CARD_WIDTH), "top": _mm(top + r * CARD_HEIGHT)} for r in range(rows) for c in range(cols)]
    marks = []
    vertical_room = min(MARK_LENGTH, top - MARK_GAP - 1)
    for c in range(cols + 1):
        x = left + c * CARD_WIDTH
        for y in (top - MARK_GAP - vertical_room, top + rows * CARD_HEIGHT + MARK_GAP):
            marks.append({"left": _mm(x), "top": _mm(y), "width": "0", "height": _mm(vertical_room), "axis": "v"})
    horizontal_room = min(MARK_LENGTH, left - MARK_GAP - 1)
    for r in range(rows + 1):
        y = top + r * CARD_HEIGHT
        for x in (left - MARK_GAP - horizontal_room, left + cols * CARD_WIDTH + MARK_GAP):
            marks.append({"left": _mm(x), "top": _mm(y), "width": _mm(horizontal_room), "height": "0", "axis": "h"})
    return {"cols": cols, "rows": rows, "per_sheet": cols * rows, "slots": slots, "marks": marks,
            "card_width": _mm(CARD_WIDTH), "card_height": _mm(CARD_HEIGHT),
            "page_width": _mm(paper.width), "page_height": _mm(paper.height - 0.5)}


def spell_card(ruleset: Ruleset, spell, prose: Prose) -> dict:
    return {"kind": "Spell", "title": spell.name, "facts": spell_facts(ruleset, spell, prose.audience), "stats": [], "rules": [],
            "keywords": None, "body": prose.html(spell.effect), "note": "", "gm": gm_only(spell),
            "source": source_mark(spell, ruleset)}


def troop_card(ruleset: Ruleset, matrix, row, prose: Prose) -> dict:
    keywords = cell(row.keywords) if isinstance(row.keywords, NotGiven) else {"text": shown(row.keywords, "none"), "gap": False}
    written = () if isinstance(row.keywords, NotGiven) else row.keywords
    rules = [(name, k) for name in written if (k := keyword_named(ruleset, name)) and visible(k, prose.audience)]
    return {"kind": "Troop type", "title": row.name, "facts": [],
            "stats": [{"label": c.label, "value": cell(row.values.get(c.id))} for c in matrix.columns],
            "keywords": keywords, "body": "", "note": prose.inline(row.note),
            "rules": [{"name": name, "definition": prose.inline(k.definition)} for name, k in rules], "gm": gm_only(row) or gm_only(matrix),
            "source": source_mark(row, ruleset) or source_mark(matrix, ruleset)}


def cards(ruleset: Ruleset, audience: str) -> list[dict]:
    """Every card the audience may see: spells in table order, then troop types."""
    prose = Prose(ruleset, audience)
    spells = sorted((s for s in ruleset.spells if visible(s, audience)), key=lambda s: (s.table, s.roll if s.roll is not None else 0))
    found = [spell_card(ruleset, s, prose) for s in spells]
    for matrix in ruleset.profiles:
        if visible(matrix, audience):
            found += [troop_card(ruleset, matrix, row, prose) for row in matrix.rows if visible(row, audience)]
    return found


def cards_context(ruleset: Ruleset, audience: str, paper: Paper) -> dict:
    layout = sheet_layout(paper)
    found = cards(ruleset, audience)
    per = layout["per_sheet"]
    sheets = [list(zip(layout["slots"], found[i:i + per])) for i in range(0, len(found), per)]
    return {"audience": audience, "ruleset_id": ruleset.id, "ruleset_title": ruleset.title, "layout": layout,
            "sheets": [[{"slot": slot, "card": card} for slot, card in sheet] for sheet in sheets],
            "count": len(found), "gap_text": NOT_GIVEN_TEXT}
