"""What players see: every player page in Chromium at phone width, and every player PDF, holds no author material.

The run's player outputs (conftest `player_build`: site, sheets, handouts). Every page of the player site is opened
at 390 px and at 1280 px once per run (conftest `crawled_player_site`) and its visible text
(``document.body.innerText``: a closed ``<details>`` shows only its summary) is scanned; every player PDF's text is
read back with pypdf and scanned the same way. Expected sentences are written by hand from the source texts in
/work/shared/seeds/.
"""

from __future__ import annotations

import re
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from site_helpers import serve

from generator.source.project import load_project

ROOT = Path(__file__).resolve().parents[2]

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
    ("a snake_case id", re.compile(r"(?<![\w./-])[a-z]+(?:_[a-z0-9]+)+\b")),
    ("a Python literal", re.compile(r"\b(?:None|True|False)\b(?! of\b)|==|//|\bis None\b")),
    ("a source file id", re.compile(r"\(0\d\d\)|\b0\d\d §|\bin 0\d\d\b")),
    ("a tool credit", re.compile(r"\b(?:icepool|Sphinx|Furo|pradyunsg|Pagefind|WeasyPrint|Jinja)\b")),
    ("author talk", re.compile(r"How this is (?:checked|computed)|✓ checked|\bInputs:")),
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
        "The save is reduced by critical_save_penalty on a 1-3.",
        "Armor. None is no save.",
        "critical = roll == 6",
        "units // 2",
        "Ordo Ineptus (000) and Bad Moon Rising (001)",
        "000 § Armor.",
        "Shooting while moving (not printed in 000)",
        "exact odds (icepool), rounded only for print",
        "Made with Sphinx and @pradyunsg's Furo",
        "A hit. ✓ checked",
        "How this is computed",
        "Inputs: base_save",
    ]
    for text in bad:
        assert findings(text), text
    good = [
        "Source: City of the Damned combat system, Combat System",
        "See also: Knocked Down, Armour saves.",
        "On a roll of 1–2 the model is Knocked Down.",
        "Three attack dice hit exactly once 4 times in 9.",
        "None of the models may move.",
        "at least one is misspelled 91 times in 216.",
        "Every value, table, chart and worked example on this page is checked against the rules on every build.",
        "Shooting at long range (as in Fantasy; not printed in this text)",
        "rules/index.html",
    ]
    for text in good:
        assert not findings(text), text


@pytest.fixture(scope="module")
def built(player_build) -> Path:
    return player_build


@pytest.fixture(scope="module")
def pages(crawled_player_site) -> dict[str, dict]:
    """Every HTML page of the player site: what it shows at 390 px (`text`), what it holds folded away (`folded`),
    facts about its worked examples, and what it shows at 1280 px (`desktop`)."""
    return {
        name: {**seen["phone"]["seen"], "desktop": seen["desktop"]["text"]}
        for name, seen in crawled_player_site.items()
    }


@pytest.fixture(scope="module")
def pdfs(built, read_pdfs) -> dict[str, str]:
    files = sorted([*(built / "sheets").glob("*.pdf"), *(built / "handouts").glob("*.pdf")])
    assert len(files) >= 40, files
    return {path.name: "\n".join(page.text for page in pdf.pages) for path, pdf in read_pdfs(files).items()}


def test_no_player_page_shows_author_material_visible_or_folded(pages):
    """At 390 px and 1280 px, and in what a closed box or a hidden element would hold."""
    bad = {
        name: found
        for name, seen in pages.items()
        if (found := findings(seen["text"]) + findings(seen["desktop"]) + findings(seen["folded"]))
    }
    assert not bad, "\n".join(f"{name}: {f}" for name, found in bad.items() for f in found[:3])


CODE_LIKE = re.compile(r"[_=()<>{}\[\]]|//|\b(?:if|else|and|or|not|def|return)\b")


HYPHEN_MINUS = re.compile(r"(?<![\w.\-\u2212])-\d")  # "-1" as a word of its own: not "2-6" nor "D6-1"


def test_a_negative_number_reads_with_one_sign_on_every_page(pages):
    """As in print (tests/render/test_print_layout.py): the rules' "-1" shows as the minus sign the charts print.
    Bad Moon Rising, Disruption: "at -1 Leadership if ten to fourteen models were removed"."""
    hyphened = {name: HYPHEN_MINUS.findall(seen["desktop"]) for name, seen in pages.items()}
    assert not {name: found for name, found in hyphened.items() if found}
    disruption = "\n".join(seen["desktop"] for name, seen in pages.items() if name.startswith("bad_moon_rising/"))
    assert "at \u22121 Leadership if ten to fourteen models were removed" in disruption


def test_no_player_page_holds_code(pages):
    """No code block; an inline code span (an author's way to set a number or a dice roll apart) never holds code."""
    assert CODE_LIKE.search("modified if modified <= worst else None") and not CODE_LIKE.search("2 hexes")
    bad = {name: code for name, seen in pages.items() if (code := [c for c in seen["code"] if CODE_LIKE.search(c)])}
    assert not bad, bad


def test_no_player_page_shows_a_formulas_input_bounds(pages):
    """The range `check` tries an input over ("Men in the body: 1 to 100") is no rule: never printed for players."""
    project, diagnostics = load_project(ROOT)
    assert not diagnostics
    bounds = {
        f"{spec.label}: {spec.min} to {spec.max}"
        for ruleset in project.rulesets
        for formula in ruleset.formulas
        for spec in formula.inputs
        if spec.min is not None and spec.max is not None
    }
    assert len(bounds) > 20
    bad = {name: [b for b in bounds if b in seen["folded"]] for name, seen in pages.items()}
    assert not {name: found for name, found in bad.items() if found}


def test_no_player_pdf_holds_author_material(pdfs):
    bad = {name: found for name, text in pdfs.items() if (found := findings(text))}
    assert not bad, "\n".join(f"{name}: {f}" for name, found in bad.items() for f in found[:3])


def test_the_player_site_has_no_author_pages(built, pages):
    site = built / "site"
    assert not list(site.rglob("examples.html")) and not list(site.rglob("names.html"))
    assert not (site / "reference").exists()
    assert not any("Worked examples" in seen["text"].splitlines()[:3] for seen in pages.values())


def test_worked_examples_read_as_sentences_and_the_check_is_said_once_a_page(pages):
    injuries = pages["city_of_the_damned_combat/injuries.html"]
    text = " ".join(injuries["text"].split())
    # the example's sentence, from 002 "Combat System" and the example's own checked result, with no mark
    assert (
        "A Strength 3 hit on a Toughness 3 model with 1 Wound looks up 0 to 5, and against 3 Wounds, \u22122 to 3."
        in text
    )
    assert "each of its six totals is equally likely." in text
    assert "injury_range(" not in injuries["folded"]
    note = "Every value, table, chart and worked example on this page is checked against the rules on every build."
    for name, seen in pages.items():
        assert (seen["boxes"], seen["marks"]) == (0, 0), name
        assert seen["note"] == ([] if name in ("index.html", "genindex.html") else [note]), name


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
        "and Hand to Hand Combat."
    ) in booklet.replace("’", "'")
    assert "['Recovery'" not in booklet
    # the to-hit and wound charts page holds the charts, not code
    chart_page = booklet[booklet.index("The to-hit and wound charts") :]
    assert "Close combat: to hit" in chart_page and "Defender's WS".replace("'", "’") in chart_page.replace("'", "’")
    assert "To wound" in chart_page and "Toughness" in chart_page
    assert "to_hit_melee" not in booklet and "to_wound(" not in booklet


def test_print_never_shows_code_but_keeps_the_checked_sentence(pdfs):
    booklet = " ".join(pdfs["city_of_the_damned_combat-handout-a4.pdf"].split())
    assert "against 3 Wounds, −2 to 3." in booklet  # print sets a negative number with its minus sign
    assert re.search(
        r"Every worked example in this booklet \(\d+\) is checked against the rules on every build", booklet
    )
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


class _PdfLinks(HTMLParser):
    """The PDF links of a page: its download links, and the army builder's link to a card sheet (in its data)."""

    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "pdf-download" in (attrs.get("class") or "").split():
            self.hrefs.append(attrs["href"])

    def handle_data(self, data):
        self.hrefs += re.findall(r'"href": "([^"]+\.pdf)"', data)


def test_the_player_site_published_alone_opens_every_pdf_it_links(built):
    """build/site/ is what a club puts online (`site: url:`): served alone, each PDF a page links (a download, a
    cheat sheet's, a card from the army builder) opens, the very PDF the build printed, and every player PDF is
    linked; no game-master's is there."""
    site = built / "site"
    linked: dict[str, str] = {}
    for page in sorted(site.rglob("*.html")):
        links = _PdfLinks()
        links.feed(page.read_text(encoding="utf-8"))
        for href in links.hrefs:
            target = (page.parent / href.split("#")[0]).resolve()
            linked.setdefault(target.relative_to(site.resolve()).as_posix(), page.name)
    with serve(site) as url:
        for path in sorted(linked):
            with urllib.request.urlopen(f"{url}/{path}") as answer:
                assert answer.read() == (built / path.removeprefix("printouts/")).read_bytes(), (path, linked[path])
    printed = {p.relative_to(built).as_posix() for kind in ("sheets", "handouts") for p in (built / kind).glob("*.pdf")}
    assert set(linked) == {f"printouts/{name}" for name in printed if "-gm-" not in name}
    assert not [p for p in (site / "printouts").rglob("*") if "-gm-" in p.name]


def test_an_impossible_chart_cell_reads_as_its_word_alone_in_every_pdf(pdfs):
    """The to-wound chart's cells that cannot wound print "no effect", in the booklet as on the sheets and the
    site: never "no effect 0%"."""
    words = re.compile(r"no effect\s*0%")
    assert "no effect" in pdfs["warhammer_fantasy_charts-handout-a4.pdf"]
    assert [name for name, text in pdfs.items() if words.search(text)] == []
