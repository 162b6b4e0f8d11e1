"""Every quick reference, rendered as real PDFs (A4 and Letter): one page, type of 8 pt or more,
its rules filling at least two-thirds of the page, and each ruleset's core procedures on it.

Expected names are written by hand from the source texts in rules_src/<ruleset>/sources/.
"""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

ROOT = Path(__file__).resolve().parents[3]
MARGIN_PT = 12 / 25.4 * 72  # templates/print-base.css: @page margin 12mm
GAMES = ("bad_moon_rising", "city_of_the_damned_combat", "ordo_ineptus", "rampant_hex", "rampant_hex_house")

CORE = {  # written by hand from each source text
    "city_of_the_damned_combat": (
        "Simultaneous System",
        "Injury Table",
        "Knocked Down",
        "Stunned",
        "Out of Action",
        "Critical Hits",
        "D20",
        "crawl up to 2",
    ),
    "bad_moon_rising": ("Push back", "Confusion", "Wedge", "Pursue", "Redress Ranks", "strike last"),
    "ordo_ineptus": (
        "Recovery",
        "Movement",
        "Shooting",
        "Hand to Hand Combat",
        "Critical",
        "Killing Blow",
        "Armour",
        "Injur",
        "Fear",
        "Terror",
        "Frenz",
        "Hatred",
        "victory points",
    ),
    "rampant_hex": ("Initiative", "Activation", "Combat", "Moral", "activation marker"),
    "rampant_hex_house": ("Initiative", "Activation", "Combat", "Moral"),
}
SPELLS = {  # Rampant Hex spells with words of their effects (004, "Picking spells")
    "Olde reddes mystte": "charge activation immediately",
    "Dolcivanians domee": "Armour stat",
    "Hallicians hail": "ranged attack",
}


@pytest.fixture(scope="module")
def sheets(player_build) -> Path:
    return player_build / "sheets"


def _read(path: Path):
    """(page count, page height, [(y, font size, text)] of page one) read back with pypdf."""
    reader = pypdf.PdfReader(path)
    page = reader.pages[0]
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            scale = (tm[2] ** 2 + tm[3] ** 2) ** 0.5 * (cm[2] ** 2 + cm[3] ** 2) ** 0.5 or 1
            found.append((tm[5] * cm[3] + cm[5], size * scale, text))

    page.extract_text(visitor_text=visit)
    return len(reader.pages), float(page.mediabox.height), found, page.extract_text()


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("ruleset", GAMES)
def test_quick_reference_fills_one_page(sheets, ruleset, paper):
    pages, height, lines, text = _read(sheets / f"{ruleset}-quick-reference-{paper}.pdf")
    assert pages == 1
    sizes = [size for _y, size, _t in lines]
    assert min(sizes) >= 7.95, min(sizes)
    footer = max(y for y, _s, t in lines if "Source:" in t)  # the footer is not rules
    rules = [y for y, _s, t in lines if y > footer + 1]
    used = (height - MARGIN_PT) - min(rules)
    assert used >= 2 / 3 * (height - 2 * MARGIN_PT), (used, height)
    flat = " ".join(text.split())
    for name in CORE[ruleset]:
        assert name.casefold() in flat.casefold(), name
    if ruleset.startswith("rampant_hex"):
        for spell, effect in SPELLS.items():
            assert spell in flat and effect in flat, spell


def test_fitting_lays_a_sheet_out_at_most_twice():
    """Build speed: the planned type is laid out once, and a smaller one only if that overflows; never a search."""
    from generator.render.pdf import _fitted

    class Document:
        def __init__(self, pages):
            self.pages, self.layouts = pages, []

        def render(self, stylesheets):
            self.layouts.append(stylesheets[-1])
            return self

    for pages, layouts in (([1], 1), ([1, 2], 2)):
        document = Document(pages)
        _fitted(document, [], (".sheet { font-size: 9pt; }", ".sheet { font-size: 8pt; }"))
        assert len(document.layouts) == layouts
