"""The Markdown pages the site is made from, read as text (no Sphinx run)."""

from __future__ import annotations

from types import SimpleNamespace

from generator.render.site.pages import az_bar, downloads_md


def test_downloads_are_grouped_by_kind_with_a_link_per_paper():
    # as pipeline.plan.downloads names them: "<title> (<paper>)", under build/<kind>/, in file-name order
    downloads = [
        ("Roster (A4)", "handouts/g-roster-a4.pdf"),
        ("Roster (US Letter)", "handouts/g-roster-letter.pdf"),
        ("To wound (A4)", "sheets/g-to-wound-a4.pdf"),
        ("Cards (A4)", "handouts/g-cards-a4.pdf"),
        ("To wound (US Letter)", "sheets/g-to-wound-letter.pdf"),
    ]
    assert downloads_md(downloads) == (
        "### Handouts\n\n"
        "- Cards: {pdf}`A4 <handouts/g-cards-a4.pdf>`\n"
        "- Roster: {pdf}`A4 <handouts/g-roster-a4.pdf>` · {pdf}`US Letter <handouts/g-roster-letter.pdf>`\n\n"
        "### Cheat sheets\n\n"
        "- To wound: {pdf}`A4 <sheets/g-to-wound-a4.pdf>` · {pdf}`US Letter <sheets/g-to-wound-letter.pdf>`"
    )


def test_a_download_without_a_paper_is_linked_as_a_pdf():
    assert downloads_md([("Campaign log", "handouts/g-campaign-log.pdf")]) == (
        "### Handouts\n\n- Campaign log: {pdf}`PDF <handouts/g-campaign-log.pdf>`"
    )


def test_the_glossary_bar_links_each_initial_to_its_first_term():
    ruleset = SimpleNamespace(id="g")
    terms = [
        SimpleNamespace(id=id, term=term)
        for id, term in [("ambush", "Ambush"), ("armour", "armour"), ("dead", "Dead"), ("d6", "D6"), ("x2", "2 up")]
    ]
    assert az_bar(ruleset, terms) == (
        ":::{container} rp-az\n{ref}`A <g-glossary-ambush>` {ref}`D <g-glossary-dead>` {ref}`# <g-glossary-x2>`\n:::\n"
    )
