"""Cards to cut out, as plain dicts: one per spell, hero and troop type, placed on sheets.

Cards are the standard 63 x 88 mm, butted edge to edge in a grid centred on the
page (3 x 3 on both A4 and US Letter), with crop marks in the margins on every
cut line. Each sheet of fronts is followed by a sheet of backs, its columns mirrored
for printing on both sides. Positions are computed here in millimetres, so templates
only place boxes. What a troop card tracks and how far it moves come from the
matrix's ``tracks:`` and ``movement:`` in the data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

from markupsafe import Markup

from ...mechanics import armies
from ...model.base import NotGiven
from ...model.entries import ValueCell
from ...model.ruleset import Ruleset
from ..present import (
    NOT_GIVEN_TEXT,
    capitalized,
    defined_in,
    gm_only,
    hero_kind,
    keywords_label,
    profile_text,
    range_text,
    shown,
    source_title,
)
from ..prose import Prose
from ..tracks import tracks
from .content import cell, fact, keyword_named, movement, source_mark, spell_facts, visible

CARD_WIDTH, CARD_HEIGHT = 63.0, 88.0
TAG = re.compile(r"<[^>]+>")
FOOTNOTE = re.compile(r'<span class="house-note"[^>]*>(.*?)</span>', re.S)
MIN_MARGIN = 5.0  # what most printers leave unprinted at the page edge
MARK_GAP, MARK_LENGTH = 1.5, 5.0


def card_source(entry, ruleset: Ruleset) -> dict | None:
    """A card's source line, one line at its foot: the section alone where the source is the ruleset's own text
    (the sheet's imprint names the rules, and the title beside the section would be cut off), else as cited."""
    mark, source = source_mark(entry, ruleset), getattr(entry, "source", None)
    if mark and source.section and source_title(defined_in(ruleset, entry), source.file) == source_title(ruleset):
        return {**mark, "text": f"Source: {source.section}"}
    return mark


@dataclass(frozen=True)
class Paper:
    key: str  # in file names
    name: str
    css: str  # for @page size
    width: float  # mm
    height: float


PAPERS = (Paper("a4", "A4", "A4", 210.0, 297.0), Paper("letter", "US Letter", "letter", 215.9, 279.4))


def papers_of(settings) -> tuple[Paper, ...]:
    """The paper sizes a project prints on (``papers:`` of its rulepress.yaml), in its order."""
    return tuple(paper for key in settings.papers for paper in PAPERS if paper.key == key)


def _mm(value: float) -> str:
    return f"{value:.2f}mm"


def sheet_layout(paper: Paper) -> dict:
    """Where the cards and crop marks go on one sheet of ``paper`` (all lengths in mm)."""
    cols = int((paper.width - 2 * MIN_MARGIN) // CARD_WIDTH)
    rows = int((paper.height - 2 * MIN_MARGIN) // CARD_HEIGHT)
    left = (paper.width - cols * CARD_WIDTH) / 2
    top = (paper.height - rows * CARD_HEIGHT) / 2
    slots = [
        {"left": _mm(left + c * CARD_WIDTH), "top": _mm(top + r * CARD_HEIGHT)}
        for r in range(rows)
        for c in range(cols)
    ]
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
    return {
        "qr": _qr_place(paper, cols, left, top),
        "left": left,
        "top": top,
        "cols": cols,
        "rows": rows,
        "per_sheet": cols * rows,
        "slots": slots,
        "marks": marks,
        "card_width": _mm(CARD_WIDTH),
        "card_height": _mm(CARD_HEIGHT),
        "page_width": _mm(paper.width),
        "page_height": _mm(paper.height - 0.5),
    }


IMPRINT_GAP = 0.7  # between the imprint and the cards' cut line or the crop marks
IMPRINT_LINE = 3.2  # one line of 7 pt type, in mm
IMPRINT_CHAR = 1.15  # the width of one of its characters in mm, on average and a little more: room is planned from it
QR_LARGEST, QR_SMALLEST = 15.0, 10.0  # the QR code's side; one smaller than this does not scan reliably: none then


def imprint_place(paper: Paper, layout: dict, text: str, with_qr: bool) -> dict:
    """Where a card sheet's imprint (``text``: which rules, the site's address) runs, in its margin: on one line at the
    head of the page, above the crop marks and beside the QR code, where the paper leaves room for it there (under the
    crop marks at the foot, US Letter leaves no line a printer prints); else down the left margin beside the first row
    of cards, between its crop marks, turned a quarter (a line it does not fit there grows outwards, away from the
    cards)."""
    left, top, cols = layout["left"], layout["top"], layout["cols"]
    marks_start = top - MARK_GAP - min(MARK_LENGTH, top - MARK_GAP - 1)
    qr = layout["qr"] if with_qr else None
    right = (qr["x"] - 3 * IMPRINT_GAP) if qr else left + cols * CARD_WIDTH
    fits = len(text) * IMPRINT_CHAR <= right - left
    if MIN_MARGIN + IMPRINT_LINE + IMPRINT_GAP <= marks_start and fits:
        return {"turned": False, "left": _mm(left), "top": _mm(MIN_MARGIN), "width": _mm(right - left)}
    length = CARD_HEIGHT - 2 * (MARK_GAP + 1)
    return {"turned": True, "left": _mm(left - IMPRINT_GAP), "top": _mm(top + MARK_GAP + 1), "width": _mm(length)}


def _qr_place(paper: Paper, cols: int, left: float, top: float) -> dict | None:
    """Where the QR code of the site's address goes: over the last column of cards, between the crop marks, no
    nearer the paper's edge than ``MIN_MARGIN``; None where that margin is too narrow for one that scans."""
    side = min(QR_LARGEST, top - MIN_MARGIN - IMPRINT_GAP)
    if side < QR_SMALLEST:
        return None
    x = left + (cols - 1) * CARD_WIDTH + (CARD_WIDTH - side) / 2
    return {"x": x, "left": _mm(x), "top": _mm(top - IMPRINT_GAP - side), "size": _mm(side)}


SIZES = ("xxlarge", "xlarge", "large", "medium", "small")  # largest first: the card body's type size classes


def _body_size(*printed: str, room: float = 1.0) -> str:
    """A type size class that lets a card's text fill the card: the less text (for the ``room`` it has), the larger
    it prints. ``printed`` is the text as the card prints it (HTML): a value a house rule changed prints the text's
    value and a note mark beside it, so its length is counted from what prints, not from the data."""
    length = sum(len(" ".join(_text_of(html).split())) for html in printed if html) / room
    for size, under in zip(SIZES, (80, 130, 200, 320)):
        if length < under:
            return size
    return "small"


def _text_of(html: str) -> str:
    """What a card's HTML prints, without its tags; a house rule's reason prints on the page of notes, not here."""
    html = FOOTNOTE.sub("", str(html))
    return unescape(TAG.sub("", html))


def _stat_rows(stats: list[dict]) -> list[list[dict]]:
    """The stats in rows of equal boxes: two to a row up to four stats, else three, so the numbers print large."""
    per = 2 if len(stats) <= 4 else 3
    return [stats[i : i + per] for i in range(0, len(stats), per)]


def spell_card(ruleset: Ruleset, spell, prose: Prose) -> dict:
    """A spell: its number in a corner badge (the casting value where the game has one, else its roll on its table)."""
    facts = spell_facts(ruleset, spell, prose.audience)
    badge = None
    if spell.casting_value is not None:
        badge = {"label": "Cast", "value": cell(spell.casting_value)}
        facts = [f for f in facts if f["label"] != "Casting value"]
    elif spell.table and (roll := ruleset.spell_roll(spell)) is not None:
        badge = {"label": ruleset.table(spell.table).dice.text, "value": {"text": range_text(roll), "gap": False}}
    body = prose.html(spell.effect)
    return {
        "kind": "Spell",
        "class": "spell",
        "title": spell.name,
        "badge": badge,
        "facts": facts,
        "stats": [],
        "rules": [],
        "keywords": None,
        "tracks": [],
        "body": body,
        "note": "",
        "gm": gm_only(spell),
        "size": _body_size(body, room=0.75 if len(facts) > 2 else 0.9),
        "source": card_source(spell, ruleset),
    }


def hero_card(ruleset: Ruleset, hero, prose: Prose) -> dict:
    """A hero: level in the kind line, cost in the corner badge, the ability in large type."""
    costed = hero.points is not None  # a ruleset balanced by head-count gives its heroes no cost
    facts = [fact("Cost", cell(hero.points), after="points on top of the unit it joins")] if costed else []
    body = prose.html(hero.ability)
    return {
        "kind": capitalized(hero_kind(hero)),
        "class": "hero",
        "title": hero.name,
        "badge": {"label": "pts", "value": cell(hero.points)} if costed else None,
        "facts": facts,
        "stats": [],
        "rules": [],
        "keywords": None,
        "tracks": [],
        "body": body,
        "note": "",
        "gm": gm_only(hero),
        "size": _body_size(body, room=1.5),
        "source": card_source(hero, ruleset),
    }


def _stat(ruleset: Ruleset, row, column) -> dict:
    """A stat as a card prints it, large: a cell naming a value prints the value, marked when a house rule changed
    it."""
    written = row.values.get(column.id)
    if not isinstance(written, ValueCell):
        stat = cell(written) if isinstance(written, NotGiven) else {"text": profile_text(column, written), "gap": False}
        return {"label": column.label, "value": stat, "unit": ""}
    value = ruleset.value(written.value)
    return {"label": column.label, "value": cell(value.value), "unit": "", "house": value.is_house_rule}


def troop_card(ruleset: Ruleset, matrix, row, prose: Prose) -> dict:
    """A troop type: its profile as large numbers (movement beside it), special rules, and boxes for what the game
    tracks."""
    # special rules the source does not give say so in words, as the roster does: an empty box beside the label read
    # as though the note under it were the special rules
    keywords = {
        "text": NOT_GIVEN_TEXT if isinstance(row.keywords, NotGiven) else shown(row.keywords, "none"),
        "gap": False,
    }
    written = () if isinstance(row.keywords, NotGiven) else row.keywords
    rules = [(name, k) for name in written if (k := keyword_named(ruleset, name)) and visible(k, prose.audience)]
    points = armies.points_column(matrix)
    stats = [_stat(ruleset, row, c) for c in matrix.columns if c is not points]
    move = movement(ruleset, matrix, row)
    if move is not None:
        stats.append(
            {
                "label": "Move",
                "value": {"text": move["number"], "gap": move["gap"]},
                "unit": move["unit"],
                "house": move["house"],
            }
        )
    badge = {"label": points.label, "value": _stat(ruleset, row, points)["value"]} if points else None
    note = prose.inline(row.note)
    definitions = [{"name": name, "definition": prose.inline(k.definition)} for name, k in rules]
    return {
        "kind": matrix.row_label,
        "class": "troop",
        "title": row.name,
        "badge": badge,
        "facts": [],
        "stats": _stat_rows(stats),
        "keywords": keywords,
        "body": "",
        "note": note,
        "tracks": tracks(ruleset, matrix),
        "rules": definitions,
        "gm": gm_only(row) or gm_only(matrix),
        "size": _body_size(note, *(d["definition"] for d in definitions), room=0.3),
        "source": card_source(row, ruleset) or card_source(matrix, ruleset),
    }


def _roll_order(roll) -> int:
    """Where a spell's roll sorts on its table: by its lowest result (an open low end first, no roll before any)."""
    if roll is None:
        return 0
    return roll.low if roll.low is not None else roll.high


def cards(ruleset: Ruleset, audience: str) -> list[dict]:
    """Every card the audience may see: spells in table order, heroes, then troop types."""
    prose = Prose(ruleset, audience)
    spells = sorted(
        (s for s in ruleset.spells if visible(s, audience)),
        key=lambda s: (s.table, _roll_order(ruleset.spell_roll(s))),
    )
    found = [spell_card(ruleset, s, prose) | {"key": card_key("spells", s.id)} for s in spells]
    found += [
        hero_card(ruleset, h, prose) | {"key": card_key("heroes", h.id)} for h in ruleset.heroes if visible(h, audience)
    ]
    for matrix in ruleset.profiles:
        if visible(matrix, audience) and matrix.pieces:  # a chart of terrain or weather is no card
            found += [
                troop_card(ruleset, matrix, row, prose) | {"key": card_key("profiles", matrix.id, row.id)}
                for row in matrix.rows
                if visible(row, audience)
            ]
    return found


def card_key(section: str, *ids: str) -> str:
    """What names one card among a ruleset's: a spell's or hero's section and id, a troop type's matrix and row."""
    return ".".join((section, *ids))


def card_pages(ruleset: Ruleset, audience: str, paper: Paper) -> dict[str, int]:
    """The page of the card sheet PDF each card is printed on (from 1), by ``card_key``: sheets of ``per_sheet``
    cards, each front followed by its page of backs (``cards_context``)."""
    per = sheet_layout(paper)["per_sheet"]
    return {card["key"]: 2 * (index // per) + 1 for index, card in enumerate(cards(ruleset, audience))}


NOTE_FIELDS = ("body", "note")  # a card's HTML that may carry a house rule's reason (and each rule's definition)


def _notes_apart(found: list[dict]) -> tuple[list[dict], list[dict]]:
    """The cards with each house rule's reason taken out of their text and a numbered call left in its place, and the
    reasons, numbered in the order the cards first call them, for a page of notes after the cards.

    A reason printed as a footnote would run at the page's foot, where the crop marks are and the margin under the
    cards (7.7 mm on US Letter) holds no line a printer prints."""
    numbers: dict[str, int] = {}

    def called(html) -> Markup:
        def call(match: re.Match) -> str:
            number = numbers.setdefault(match.group(1), len(numbers) + 1)
            return f'<sup class="note-call">{number}</sup>'

        return Markup(FOOTNOTE.sub(call, str(html)))

    cards_ = []
    for card in found:
        card = card | {field: called(card[field]) for field in NOTE_FIELDS if card[field]}
        card["rules"] = [rule | {"definition": called(rule["definition"])} for rule in card["rules"]]
        cards_.append(card)
    notes = [{"number": number, "html": Markup(text)} for text, number in numbers.items()]
    return cards_, notes


def _one_size_per_kind(chunk: list[dict]) -> list[dict]:
    """The cards of one sheet with one body size for each kind (class) of card: the smallest any of them needs, so
    neighbours of a kind print alike instead of jumping between sizes; and no kind more than one size above the
    smallest body of text on the sheet, so a short hero beside a long spell does not print twice as large (a
    profile card's size sets only its notes: its stats are its body)."""
    smallest: dict[str, int] = {}
    for card in chunk:
        smallest[card["class"]] = max(smallest.get(card["class"], 0), SIZES.index(card["size"]))
    floor = max((smallest[card["class"]] for card in chunk if not card["stats"]), default=0) - 1
    return [card | {"size": SIZES[max(smallest[card["class"]], floor)]} for card in chunk]


def back_slots(layout: dict) -> list[dict]:
    """Where each card's back goes on the back page: the same row, the column mirrored, so a sheet printed on both
    sides (flipped on its long edge) puts every back behind its front."""
    cols = layout["cols"]
    return [layout["slots"][(i // cols) * cols + (cols - 1 - i % cols)] for i in range(len(layout["slots"]))]


def cards_context(ruleset: Ruleset, audience: str, paper: Paper) -> dict:
    layout = sheet_layout(paper)
    found = cards(ruleset, audience)
    per = layout["per_sheet"]
    backs = back_slots(layout)
    sheets = []
    found, notes = _notes_apart(found)
    for i in range(0, len(found), per):
        chunk = _one_size_per_kind(found[i : i + per])
        sheets.append(
            {"side": "front", "cards": [{"slot": slot, "card": card} for slot, card in zip(layout["slots"], chunk)]}
        )
        sheets.append({"side": "back", "cards": [{"slot": slot, "card": card} for slot, card in zip(backs, chunk)]})
    return {
        "audience": audience,
        "ruleset_id": ruleset.id,
        "ruleset_title": ruleset.title,
        "layout": layout,
        "sheets": sheets,
        "count": len(found),
        "gap_text": NOT_GIVEN_TEXT,
        "keywords_label": keywords_label(ruleset),
        "notes": notes,
    }
