"""The order and titles readers find a ruleset's entries in: the site's pages and the booklets' chapters alike."""

from __future__ import annotations

from ..model.ruleset import Ruleset

# Sections with no chapter of their own get a page each, after the chapters (`PAGED_SECTIONS`), titled as the
# ruleset's `page_titles:` declares, else in these neutral words.
SECTION_PAGES = {
    "keywords": "Keywords",
    "spells": "Spells",
    "heroes": "Heroes",
    "items": "Weapons and items",
    "army": "Army building",
    "victory_points": "Victory points",
    "lookups": "Lookup tables",
    "charts": "Charts",
    "values": "Numbers",
    "formulas": "How the numbers are computed",
}


def section_page_title(ruleset: Ruleset, key: str) -> str:
    """The title of the page of ``key``'s entries with no chapter: the ruleset's own, else the neutral one."""
    return ruleset.meta.page_titles.get(key) or SECTION_PAGES[key]


# Order of entry kinds within a chapter: matrices first, then rules, tables (with their spells)...
CHAPTER_ORDER = (
    "profiles",
    "rules",
    "tables",
    "spells",
    "lookups",
    "charts",
    "keywords",
    "heroes",
    "items",
    "costs",
    "army_limits",
    "armies",
    "victory_points",
    "formulas",
)
