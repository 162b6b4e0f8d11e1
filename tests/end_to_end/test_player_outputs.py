"""What players see: every player page in Chromium at phone width, and every player PDF, holds no author material.

One build of the whole project for players (site, sheets, handouts) per module. Every page of the player site is
opened at 390 px and its visible text (``document.body.innerText``: a closed ``<details>`` shows only its summary)
is scanned; every player PDF's text is read back with pypdf and scanned the same way. Expected sentences are
written by hand from the source texts in /work/shared/seeds/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from site_helpers import serve

pytestmark = pytest.mark.browser

# What no player may see: (what it is, pattern).
AUTHOR_MATERIAL = [
    ("doctest prompt", re.compile(r">>>")),
    ("a Fraction from code", re.compile(r"Fraction\(")),
    ("a YAML file name", re.compile(r"\b\w+\.ya?ml\b")),
    ("a 'line N' citation", re.compile(r"\bline \d+\b")),
    ("a hashed source file name", re.compile(r"\d{3}_[0-9a-f]{16}")),
    ("a raw role", re.compile(r"\{[a-z-]+\}`")),
    ("a doubled word", re.compile(r"\btable table\b|\bchart chart\b|\bthe the\b", re.I)),
    ("a table named by its plural title", re.compile(r"rolled on the Injuries\b")),
    ("a bare id in See also", re.compile(r"See also:[^\n]*?(?<![\w-])[a-z]+(?:_[a-z0-9]+)+\b")),
]


def findings(text: str) -> list[str]:
    found = []
    for what, pattern in AUTHOR_MATERIAL:
        for match in pattern.finditer(text):
            start = max(0, match.start() - 50)
            found.append(f"{what}: …{' '.join(text[start : match.end() + 30].split())}…")
    return found


def test_the_scan_catches_each_kind_of_author_material():
    """The patterns themselves, on strings written by hand (a scan that finds nothing proves nothing)."""
    bad = [
        ">>> hits_distribution(attack=3, armour=4)[1]",
        "Fraction(4, 9)",
        "rules.yaml",
        "rules.yaml line 58",
        "Source: 004_7d410289ba4fa7f8.txt",
        "See {rule}`knocked_down_effects`",
        "the Injury Table table",
        "a die is rolled on the Injuries.",
        "See also: knocked_down, armour_save.",
    ]
    for text in bad:
        assert findings(text), text
    good = [
        "Source: City of the Damned combat system, Combat System",
        "See also: Knocked Down, Armour saves.",
        "On a roll of 1–2 the model is Knocked Down.",
        "Three attack dice hit exactly once 4 times in 9.",
    ]
    for text in good:
        assert not findings(text), text


@pytest.fixture(scope="module")
def built(player_build) -> Path:
    return player_build


@pytest.fixture(scope="module")
def pages(built, browser) -> dict[str, dict]:
    """Every HTML page of the player site: its visible text at 390 px, and facts about its worked examples."""
    site = built / "site"
    names = sorted(
        p.relative_to(site).as_posix() for p in site.rglob("*.html") if not p.relative_to(site).parts[0].startswith("_")
    )
    assert len(names) > 30, names
    seen = {}
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    with serve(site) as url:
        for name in names:
            page.goto(f"{url}/{name}")
            seen[name] = page.evaluate("""() => ({
                text: document.body.innerText,
                boxes: [...document.querySelectorAll('details.how-checked')].map(d => ({
                    open: d.open, ignored: d.hasAttribute('data-pagefind-ignore'),
                    summary: d.querySelector('summary').innerText, code: d.textContent})),
                marks: [...document.querySelectorAll('abbr.checked')].map(a => a.title),
            })""")
    context.close()
    return seen


@pytest.fixture(scope="module")
def pdfs(built, read_pdfs) -> dict[str, str]:
    files = sorted([*(built / "sheets").glob("*.pdf"), *(built / "handouts").glob("*.pdf")])
    assert len(files) >= 40, files
    return {path.name: "\n".join(page.text for page in pdf.pages) for path, pdf in read_pdfs(files).items()}


def test_no_player_page_shows_author_material(pages):
    bad = {name: found for name, seen in pages.items() if (found := findings(seen["text"]))}
    assert not bad, "\n".join(f"{name}: {f}" for name, found in bad.items() for f in found[:3])


def test_no_player_pdf_holds_author_material(pdfs):
    bad = {name: found for name, text in pdfs.items() if (found := findings(text))}
    assert not bad, "\n".join(f"{name}: {f}" for name, found in bad.items() for f in found[:3])


def test_the_player_site_has_no_author_pages(built, pages):
    site = built / "site"
    assert not list(site.rglob("examples.html")) and not list(site.rglob("names.html"))
    assert not (site / "reference").exists()
    assert not any("Worked examples" in seen["text"].splitlines()[:3] for seen in pages.values())


def test_worked_examples_read_as_checked_sentences_with_the_code_closed(pages):
    injuries = pages["city_of_the_damned_combat/injuries.html"]
    text = " ".join(injuries["text"].split())
    # the example's sentence, from 002 "Combat System" and the example's own checked result, then the mark
    assert (
        "A Strength 3 hit on a Toughness 3 model with 1 Wound looks up 0 to 5, and against 3 Wounds, -2 to 3. ✓ checked"
        in text
    )
    assert "each of its six totals is equally likely. ✓ checked" in text
    assert injuries["marks"] and set(injuries["marks"]) == {"checked against the rules on every build"}
    boxes = injuries["boxes"]
    assert boxes and all(not b["open"] and b["ignored"] and b["summary"] == "How this is checked" for b in boxes)
    assert any(">>> injury_range(strength=3, toughness=3, wounds=3)" in b["code"] for b in boxes)
    assert "injury_range(" not in text  # closed: the code is in the page, not in what players see
    # every page with code keeps it closed and out of search
    for name, seen in pages.items():
        assert all(not b["open"] and b["ignored"] for b in seen["boxes"]), name


def test_citations_name_the_source_by_title_and_section(pages, pdfs):
    text = " ".join(pages["city_of_the_damned_combat/injuries.html"]["text"].split())
    assert "Source: City of the Damned combat system, Combat System" in text
    booklet = " ".join(pdfs["city_of_the_damned_combat-handout-a4.pdf"].split())
    assert "Source: City of the Damned combat system, Critical Hits" in booklet
    assert "From City of the Damned combat system" in booklet  # the cover names the text, not its file


def test_references_show_titles(pages):
    injuries = " ".join(pages["city_of_the_damned_combat/injuries.html"]["text"].split())
    # the Injury Table's Knocked Down row points at the rule, by its title (002: "Knocked Down")
    assert "The model lies face up. See Knocked Down." in injuries
    assert "look up the sum on the Injury Table." in injuries
    glossary = " ".join(pages["city_of_the_damned_combat/glossary.html"]["text"].split())
    assert "A result of the Injury Table." in glossary
    damage = " ".join(pages["ordo_ineptus/damage.html"]["text"].split())
    assert "a die is rolled on the injury table." in damage


def test_ordo_ineptus_booklet_reads_its_turn_sequence_and_prints_its_charts(pdfs):
    booklet = " ".join(pdfs["ordo_ineptus-handout-a4.pdf"].split())
    # 000, "Turn sequence": "Each player's turn is broken up into four phases." 1. Recovery ... 4. Hand to Hand Combat
    assert (
        "Each player's turn is broken up into four phases, taken in this order: Recovery, Movement, Shooting, "
        "and Hand to Hand Combat. ✓ checked"
    ) in booklet.replace("’", "'")
    assert "['Recovery'" not in booklet
    # the to-hit and wound charts page holds the charts, not code
    chart_page = booklet[booklet.index("The to-hit and wound charts") :]
    assert "Close combat: to hit" in chart_page and "Defender's WS".replace("'", "’") in chart_page.replace("'", "’")
    assert "To wound" in chart_page and "Toughness" in chart_page
    assert "to_hit_melee" not in booklet and "to_wound(" not in booklet


def test_print_never_shows_code_but_keeps_the_checked_sentence(pdfs):
    booklet = " ".join(pdfs["city_of_the_damned_combat-handout-a4.pdf"].split())
    assert "against 3 Wounds, -2 to 3. ✓ checked" in booklet
    assert "injury_total" not in booklet and "injury_range" not in booklet
    for name, text in pdfs.items():  # no author talk: "the worked examples" read a rule; covers count examples
        flat = " ".join(text.split()).casefold()
        assert "the worked examples" not in flat and "run against the rules model" not in flat, name


def repeated_see_also(text: str) -> list[str]:
    """Each "See also:" line that names one thing twice ("See also: Fear, Fear.")."""
    bad = []
    for line in text.splitlines():
        if line.strip().startswith("See also: "):
            listed = line.strip().removeprefix("See also: ").rstrip(".")
            items = [item.strip() for item in listed.split("; " if "; " in listed else ", ")]
            if len(set(items)) < len(items):
                bad.append(line.strip())
    return bad


def test_the_see_also_scan_catches_a_repeat():
    assert repeated_see_also("Fear tests\nSee also: Fear, Fear.\n") == ["See also: Fear, Fear."]
    assert repeated_see_also("See also: Fear (rule), Fear (term).") == []
    assert repeated_see_also("See also: Stupid; Stupid, not in combat.") == []  # a title with a comma in it


def test_no_see_also_line_names_one_thing_twice(pages, pdfs):
    bad = [f"{name}: {line}" for name, seen in pages.items() for line in repeated_see_also(seen["text"])]
    bad += [f"{name}: {line}" for name, text in pdfs.items() for line in repeated_see_also(text)]
    assert not bad, "\n".join(bad[:10])
