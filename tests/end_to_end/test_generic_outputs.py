"""The renderers are generic: a project they have never seen (tests/fixtures/homebrew) builds, and
every new section of its data reaches the outputs.

The fixture is copied into an empty folder, with no templates of its own, and built for real
with ``rulepress build``: a no-dice mêlée deciding casualties and prisoners from two counts, a
chart from a formula, a lookup without dice, a fraction, an "at least" army limit and an overlay.
Expected values are typed by hand from the fixture's YAML (rules_src/melee/ruleset.yaml), never
computed by the code under test.
"""

from __future__ import annotations

import hashlib
import html
import io
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "homebrew"


@pytest.fixture(scope="module")
def built(homebrew_build) -> Path:
    """The fixture built in an empty folder, with no templates of its own (nothing outside it changed)."""
    return homebrew_build / "build"


def normalise(text: str) -> str:
    return " ".join(
        text.replace("\u2010", "-").replace("\u2011", "-").replace("\u00ad", "").replace("\u00a0", " ").split()
    )


_PAGES: dict[str, list[str]] = {}  # by the SHA-256 of a PDF's bytes: each page's text as pypdf extracts it


def pdf_pages(path: Path) -> list[str]:
    """Each page's text, read by pypdf once a worker for the same bytes, however many tests read the file."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _PAGES:
        _PAGES[digest] = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    return _PAGES[digest]


def pdf_text(path: Path) -> str:
    return normalise(" ".join(pdf_pages(path)))


def page_text(path: Path) -> str:
    """The visible text of a site page's article."""
    text = path.read_text(encoding="utf-8")
    text = text[text.find("<article") : text.rfind("</article>")]
    text = re.sub(r"(?s)<(script|style).*?</\1>", " ", text)
    return normalise(html.unescape(re.sub(r"<[^>]+>", " ", text)))


def page_html(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text[text.find("<article") : text.rfind("</article>")]


# -- the sheet of `sheets: wound_sheet` ----------------------------------------------------------------------
def test_sheets_are_named_after_ruleset_and_sheet(built):
    names = {p.name for p in (built / "sheets").glob("*.pdf")}
    for paper in ("a4", "letter"):
        assert f"melee-wound-sheet-{paper}.pdf" in names
        assert f"melee-quick-reference-{paper}.pdf" in names


def test_to_wound_sheet_holds_the_typed_cells(built):
    for paper in ("a4", "letter"):
        assert len(pdf_pages(built / "sheets" / f"melee-wound-sheet-{paper}.pdf")) == 1
        text = pdf_text(built / "sheets" / f"melee-wound-sheet-{paper}.pdf")
        assert "To-wound chart" in text and "Mêlée test" in text
        # expr: None if strength - toughness <= -4 else clamp(4 - (strength - toughness), 2, 6), on a D6.
        # Row S1: T1 4+ (3/6), T2 5+ (2/6), T3 6+, T4 6+ (clamped), T5..T10 no effect.
        # (an impossible cell prints its word alone: the hatching says 0%)
        assert "1 4+ 50% 5+ 33.3% 6+ 16.7% 6+ 16.7% no effect no effect" in text
        # Row S3: T1 2+ (5/6), T2 3+ (4/6), T3 4+ (3/6), T4 5+, T5 6+, T6 6+, T7 no effect.
        assert "3 2+ 83.3% 3+ 66.7% 4+ 50% 5+ 33.3% 6+ 16.7% 6+ 16.7% no effect no effect" in text
        # Row S10 is never worse than 2+ against T1..T6, and T10 needs 4+.
        assert "10 2+ 83.3%" in text and "4+ 50%" in text


def test_quick_reference_of_a_base_and_sources(built):
    text = pdf_text(built / "sheets" / "melee-quick-reference-a4.pdf")
    assert "Quick reference" in text


def test_quick_reference_shows_the_fraction_the_lookup_and_the_limit(built):
    text = pdf_text(built / "sheets" / "melee-quick-reference-a4.pdf")
    assert "What a cavalryman scores in a mêlée 1½" in text
    assert "They are taken prisoner" in text and "We fall back or stand" in text
    assert "At least one footman for every two horsemen" in text
    house = pdf_text(built / "sheets" / "melee_house-quick-reference-a4.pdf")
    assert "2 (house rule; the text: 1½)" in house


# -- the site --------------------------------------------------------------------------------------------------
def test_the_melee_decides_casualties_and_prisoners_on_the_authors_site(built):
    text = page_text(built / "site-author" / "melee" / "fighting.html")
    # the worked example: 3 horsemen (4½) against 1 footman (1) take it prisoner; 4 against 1 lose 3 models
    assert "They are taken prisoner" in text and "(3, 0)" in text
    players = page_text(built / "site" / "melee" / "fighting.html")
    assert "A cavalryman scores 1½ ." in players and "They are taken prisoner" not in players


def test_the_at_least_limit_on_the_site_and_in_the_booklet(built):
    site = page_text(built / "site" / "melee" / "armies.html")
    # a patrol of 2 footmen (1 pt) and 4 horsemen (1½): 2 + 6 = 8 points; at least 4 // 2 = 2 footmen
    assert "At least one footman for every two horsemen" in site
    assert "8" in site and "1½" in site
    booklet = pdf_text(built / "handouts" / "melee-handout-a4.pdf")
    assert "At least one footman for every two horsemen" in booklet and "at least" in booklet.casefold()


def test_value_role_prints_the_value(built):
    text = page_text(built / "site" / "melee" / "fighting.html")
    assert "A cavalryman scores 1½ ." in text or "A cavalryman scores 1½." in text
    assert "house rule" not in text


def test_overlay_marks_the_house_value_with_the_original(built):
    fighting = built / "site" / "melee_house" / "fighting.html"
    text = page_text(fighting)
    assert re.search(r"A cavalryman scores 2 \(house rule; the text: 1½\)", text), text[:400]
    markup = page_html(fighting)
    assert 'class="house-rule"' in markup
    assert "Our club counts cavalry double" in markup  # the house note, as the tooltip
    index = page_text(built / "site" / "melee_house" / "index.html")
    assert "House rules on Mêlée test: changes 1 value" in index
    numbers = page_text(built / "site" / "melee_house" / "values.html")
    assert "2 (house rule; the text: 1½)" in numbers
    assert "1½" in page_text(built / "site" / "melee" / "values.html")
    assert "house rule" not in page_text(built / "site" / "melee" / "values.html")
    landing = page_text(built / "site" / "index.html")
    assert "house rules on Mêlée test: changes 1 value" in landing


def test_values_page_lists_every_value(built):
    text = page_text(built / "site" / "melee" / "values.html")
    for label, value in (
        ("What a cavalryman scores in a mêlée", "1½"),
        ("What a foot soldier scores", "1"),
        ("Infantry move", '6"'),
        ("Save", "4+"),
    ):
        assert f"{label} {value}" in text


def test_lookup_renders_its_rows(built):
    text = page_text(built / "site" / "melee" / "lookups.html")
    assert "Outcome by difference" in text
    assert "Difference Result" in text
    assert "3+ They are taken prisoner" in text
    assert "1–2 They fall back" in text  # ranges print with an en dash
    assert "0 or less We fall back or stand" in text


def test_charts_render_with_odds_and_one_row(built):
    text = page_text(built / "site" / "melee" / "charts.html")
    assert "To wound" in text
    assert "4+ (50%)" in text and "no effect" in text
    # scores_chart: melee_score with infantry 0 and cavalry 0..4, a cavalryman scoring 1½: 0, 1½, 3, 4½, 6
    assert "Score by cavalry" in text
    assert "Cavalry → 0 1 2 3 4" in text
    assert "0 1½ 3 4½ 6" in text


def test_formulas_page_says_what_each_depends_on_and_the_authors_see_inputs_and_expression(built):
    text = page_text(built / "site" / "melee" / "formulas.html")
    assert "Score of one side" in text
    assert "Depends on: Infantry, Cavalry. Gives: a number." in text
    assert "0 to 20" not in text and "melee_score" not in text and "How this is computed" not in text
    authors = page_text(built / "site-author" / "melee" / "formulas.html")
    assert "Infantry: 0 to 20" in authors
    assert "melee_score = infantry * infantry_score + cavalry * cavalry_score" in authors
    assert "How this is computed" in authors


def test_sheet_pages_and_downloads(built):
    text = page_text(built / "site" / "sheets" / "melee-wound-sheet.html")
    assert "To-wound chart" in text and "4+ (50%)" in text
    index = page_text(built / "site" / "melee" / "index.html")
    assert "To-wound chart" in index


# -- handouts --------------------------------------------------------------------------------------------------
def test_booklets_print_charts_lookups_and_house_values(built):
    melee = pdf_text(built / "handouts" / "melee-handout-a4.pdf")
    assert "A cavalryman scores 1½" in melee
    assert "They are taken prisoner" in melee
    assert "no effect" in melee and "4+ 50%" in melee
    house = pdf_text(built / "handouts" / "melee_house-handout-a4.pdf")
    assert "A cavalryman scores 2 (house rule; the text: 1½)" in house
    assert "Our club counts cavalry double" in house


# -- the names reference ---------------------------------------------------------------------------------------
def test_names_reference_lists_formulas_and_own_mechanics(built):
    text = (built / "reference" / "names-melee.md").read_text(encoding="utf-8")
    assert "`melee_score(infantry, cavalry)` | formula | Score of one side" in text
    assert "`casualties(ours, theirs)` | function | Who dies" in text
    assert "`to_wound(strength, toughness)`" in text
    assert "`outcome_by_difference(key)` | lookup" in text
    assert "`values.cavalry_score`" in text
    for readers in ("site", "site-gm"):  # author material: the authors' site only
        assert not (built / readers / "melee" / "names.html").exists()
    site = page_text(built / "site-author" / "melee" / "names.html")
    assert "melee_score(infantry, cavalry)" in site and "casualties(ours, theirs)" in site


def test_format_reference_shows_the_new_types(built):
    text = (built / "reference" / "format.md").read_text(encoding="utf-8")
    assert "| `value` | quantity (" in text
    assert "| `expr` | expression (" in text
    assert "| `columns` | chart axis" in text
    assert "## Chart axis" in text


# -- no game in the engine -------------------------------------------------------------------------------------
IGNORED_KEYS = {
    "short_title",
    "source_title",
    "agreed_points",
    "army_limits",
    "victory_points",
    "see_also",
    "gm_note",
    "range_unit",
    "casting_value",
    "added_to_unit",
    "at_most",
    "at_least",
    "game_master",
}
GAME_WORDS = ("fantasy", "shellendrak", "rampant", "ordo", "moon", "damned")


def game_names() -> set[str]:
    """Every ruleset id of rules_src and every snake_case id its YAML defines (two-space indented keys)."""
    names = {p.name for p in (ROOT / "rules_src").iterdir() if p.is_dir()}
    for path in (ROOT / "rules_src").rglob("*.yaml"):
        for match in re.finditer(r"(?m)^  ([a-z][a-z0-9]*_[a-z0-9_]+):", path.read_text(encoding="utf-8")):
            names.add(match[1])
    return names - IGNORED_KEYS


def engine_files():
    """(path, text) of every text file of generator/ and templates/."""
    for folder in ("generator", "templates"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                try:
                    yield path, path.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue


def test_no_game_names_in_the_engine():
    """`grep -rlw` of every rules_src id over *.py and *.j2, and of the games' names over everything."""
    names = game_names()
    found = []
    for path, text in engine_files():
        if path.suffix in (".py", ".j2"):
            words = set(re.findall(r"\w+", text))
            for name in sorted(names & words):
                found.append(f"{path.relative_to(ROOT)}: {name}")
        lowered = text.casefold()
        for word in GAME_WORDS:
            if word in lowered:
                found.append(f"{path.relative_to(ROOT)}: {word}")
    assert not found, "\n".join(found)


# -- one ruleset's build keeps the others', even when one id begins with the other ----------------------------
@pytest.mark.build  # renders for real in its body
def test_building_one_ruleset_keeps_a_ruleset_whose_id_begins_with_it(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    assert main(["-C", str(project), "build", "--only", "sheets"]) == 0
    sheets = project / "build" / "sheets"
    before = {p.name: p.read_bytes() for p in sheets.glob("*.pdf")}
    assert {n for n in before if n.startswith("melee_house-")} and {n for n in before if n.startswith("melee-")}
    for ruleset in ("melee", "melee_house"):
        assert main(["-C", str(project), "build", "--only", "sheets", "--ruleset", ruleset]) == 0
        after = {p.name: p.read_bytes() for p in sheets.glob("*.pdf")}
        assert after == before, f"--ruleset {ruleset} lost or changed sheets of another ruleset"


def test_the_site_bears_the_name_the_project_gives_it(built):
    """tests/fixtures/homebrew/rulepress.yaml: `name: Homebrew club rules`, on every audience's site."""
    for site, suffix in (("site", ""), ("site-gm", " (game-master)"), ("site-author", " (authors)")):
        html = (built / site / "melee" / "fighting.html").read_text(encoding="utf-8")
        assert f"<title>Fighting · Mêlée test - Homebrew club rules{suffix}</title>" in html, site
        assert "Homebrew club rules ¶" in page_text(built / site / "index.html"), site  # its heading
    assert "Rulepress" not in page_text(built / "site" / "index.html")
