"""Booklets read like a rulebook, and game-master versions exist only where the game-master sees more.

The handouts are built once for the module with the real command (``rulepress build --only
handouts``), then every booklet is read back with pypdf: its title metadata, a cover with
no author material, a contents page, the charts, a roll-table appendix and an index with
page numbers, pages that are filled (chapters run on rather than each starting a page),
type of 8 pt or more, and a game-master's mark on every page of a game-master's copy.
Expected names and values are written by hand from rules_src/ and the source texts.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pytest
import yaml
from helpers import sample_project
from pdf_text import Pdf

ROOT = Path(__file__).resolve().parents[3]

# ruleset id -> title, from each rules_src/<id>/ruleset.yaml
TITLES = {
    "bad_moon_rising": "Bad Moon Rising",
    "city_of_the_damned_combat": "City of the Damned combat system",
    "ordo_ineptus": "Ordo Ineptus: the Shellendrak skirmish",
    "rampant_hex": "Blood, Guts and Rampant Hex",
    "rampant_hex_house": "Blood, Guts and Rampant Hex — club house rules",
    "warhammer_fantasy_charts": "Warhammer Fantasy charts",
}
# the roll tables (`tables:`) of each ruleset, by their titles in rules_src (the overlay prints its base's)
ROLL_TABLES = {
    "city_of_the_damned_combat": ["Injury Table"],
    "ordo_ineptus": ["Search roll", "Critical hits", "Injuries", "Stupid, not in combat"],
    "rampant_hex": ["Number of activations", "S.T.P.W.T. response", "Spells", "Faulty scrolls"],
    "rampant_hex_house": ["Number of activations", "S.T.P.W.T. response", "Spells", "Faulty scrolls"],
}
# game-master-only material: ordo_ineptus alone has it (a hidden task, gm notes on two rules), all of it in its booklet
GM_BOOKLETS = ["ordo_ineptus"]
GM_SHEETS = ["ordo_ineptus-victory-points-gm"]  # the hidden task is on its victory-point checklist
GM_MARK = "Game-master's copy"


def ruleset_header(ruleset_id: str) -> dict:
    """The `ruleset:` mapping of a sample's ruleset.yaml."""
    return yaml.safe_load((ROOT / "rules_src" / ruleset_id / "ruleset.yaml").read_text(encoding="utf-8"))["ruleset"]


ORDO_GM = ruleset_header("ordo_ineptus")["declares"]["game_master"]  # what its text calls its game-master
ORDO_GM_MARK = f"{ORDO_GM}'s copy"
# the published Warhammer Fantasy close-combat to-hit chart: attacker's WS row, against defender's WS 1 to 10
TO_HIT_ROWS = {1: "4+ 4+ 5+ 5+ 5+ 5+ 5+ 5+ 5+ 5+", 4: "3+ 3+ 3+ 4+ 4+ 4+ 4+ 4+ 5+ 5+"}
MIN_LINES = 20  # every page but the cover, the contents and the last holds at least this many lines of text
MIN_TYPE = 7.95  # points: booklet type is 8 pt or more


def normalise(text: str) -> str:
    return " ".join(text.replace("\u2010", "-").replace("\u00ad", "").split())


def read_booklet(pdf: Pdf) -> dict:
    """Per page: the text, its line count and the smallest type on it; the title metadata."""
    pages = []
    for page in pdf.pages:
        sizes = [p.size * math.hypot(p.tm[0], p.tm[1]) * math.hypot(p.cm[0], p.cm[1]) for p in page.pieces]
        lines = [l.strip() for l in page.text.splitlines() if l.strip()]
        pages.append(
            {
                "text": normalise(page.text),
                "lines": len(lines),
                "smallest": min(sizes, default=99),
                # where on the page each chapter or appendix starts: how many lines come before its kicker
                "starts": [n for n, l in enumerate(lines) if re.fullmatch(r"CHAPTER \d+|APPENDIX [A-Z]", l)],
            }
        )
    return {"title": pdf.title, "pages": pages}


@pytest.fixture(scope="module")
def built(sample_build) -> Path:
    return sample_build / "handouts"


@pytest.fixture(scope="module")
def booklets(built, read_pdfs) -> dict[str, dict]:
    """File name -> read_booklet, for every booklet of the build."""
    return {path.name: read_booklet(pdf) for path, pdf in read_pdfs(sorted(built.glob("*-handout-*.pdf"))).items()}


def ruleset_of(name: str) -> str:
    return max((id for id in TITLES if name.startswith(id + "-")), key=len)


def appendix(pages: list[dict], title: str) -> str:
    """The text of the appendix headed ``title``, up to the next appendix or the end."""
    text = " ".join(p["text"] for p in pages)
    start = re.search(rf"APPENDIX [A-Z] {re.escape(title)} ", text)
    if start is None:
        return ""
    after = re.compile(r"APPENDIX [A-Z] ").search(text, start.end())
    return text[start.end() : after.start() if after else len(text)]


def test_every_ruleset_has_a_booklet_and_only_rulesets_with_gm_material_a_gm_copy(built, booklets):
    names = set(booklets)
    assert names >= {f"{id}-handout-{paper}.pdf" for id in TITLES for paper in ("a4", "letter")}
    gm = sorted({ruleset_of(n) for n in names if "-handout-gm-" in n})
    assert gm == GM_BOOKLETS
    assert {p.name for p in built.glob("*-gm-*")} == {
        f"{id}-handout-gm-{paper}.pdf" for id in GM_BOOKLETS for paper in ("a4", "letter")
    }  # no gm roster or cards


def test_gm_sheets_only_where_the_gm_sees_more(tmp_path):
    from generator.render.sheets.jobs import sheets

    project = sample_project()[0]  # the samples' model, as their check reads it
    assert sorted(s.name for s in sheets(project) if s.audience == "gm") == GM_SHEETS


def test_title_metadata_is_the_ruleset_title(booklets):
    for name, booklet in booklets.items():
        assert booklet["title"] == TITLES[ruleset_of(name)], name


def test_the_cover_holds_no_author_material(booklets):
    from generator import __version__

    for name, booklet in booklets.items():
        cover = booklet["pages"][0]["text"]
        assert normalise(TITLES[ruleset_of(name)]) in cover, name
        for banned in (
            "worked example",
            ".yaml",
            ".txt",
            __version__,
            "Rulepress",
            "chapters",
            "hidden content",
            "contains hidden",
        ):
            assert banned.casefold() not in cover.casefold(), (name, banned)


def test_contents_list_every_part_with_its_page(booklets):
    for name, booklet in booklets.items():
        pages = booklet["pages"]
        contents = pages[1]["text"]
        assert contents.startswith("Contents"), name
        listed = re.search(r"Index[ .]*?(\d+)", contents)
        assert listed, name
        assert re.search(r"APPENDIX [A-Z] Index", pages[int(listed[1]) - 1]["text"], re.I), name


def test_roll_table_appendix_and_index_name_every_roll_table(booklets):
    for name, booklet in booklets.items():
        pages = booklet["pages"]
        index = appendix(pages, "Index")
        assert index, name
        tables = ROLL_TABLES.get(ruleset_of(name), [])
        if not tables:
            assert not appendix(pages, "Roll tables"), name
            continue
        digest = appendix(pages, "Roll tables")
        for title in tables:
            assert re.search(rf"{re.escape(title)}( Game-master only)? D6 ", digest), (name, title)  # its dice
            kind = "" if title.casefold().endswith("table") else " table"  # "Injury Table", never "Injury Table table"
            assert re.search(rf"{re.escape(title)}{kind}[ .]*\d+", index), (name, title)  # with its page number
    ordo = appendix(booklets["ordo_ineptus-handout-a4.pdf"]["pages"], "Roll tables")
    # the results, from 000 "Wounds & Injuries": knocked down on 1 or 2, stunned on 3 or 4, killed on 5 or 6
    assert re.search(r"Injuries D6 p\. \d+ 1[–-]2 Knocked Down 3[–-]4 Stunned 5[–-]6 Killed", ordo)


def test_index_names_terms_and_rules_with_pages(booklets):
    index = appendix(booklets["ordo_ineptus-handout-a4.pdf"]["pages"], "Index")
    # a rule, a glossary term and a term's other spelling (rules_src/ordo_ineptus)
    for entry in ("Charging", "Critical hit term", "Armor piercing (see Armour piercing) term"):
        assert re.search(rf"{re.escape(entry)}[ .]*\d+", index), entry


# the base both rulesets play by (rules_src/warhammer_fantasy_charts): its charts print headed as its own
CHARTS_FROM = f"From {ruleset_header('warhammer_fantasy_charts')['title']}"


def test_ordo_ineptus_prints_the_to_hit_chart_it_plays_by(booklets):
    for paper in ("a4", "letter"):
        text = " ".join(p["text"] for p in booklets[f"ordo_ineptus-handout-{paper}.pdf"]["pages"])
        heading = f"Close combat: to hit {CHARTS_FROM} Attacker's WS"
        chart = re.sub(r" \d+(\.\d+)?%", "", text[text.index(heading) :])
        for row, targets in TO_HIT_ROWS.items():
            assert f" {row} {targets} " in chart, (paper, row)
    bad_moon = " ".join(p["text"] for p in booklets["bad_moon_rising-handout-a4.pdf"]["pages"])
    assert (
        f"Close combat: to hit {CHARTS_FROM} Attacker's WS" in bad_moon
        and f"To wound {CHARTS_FROM} Strength" in bad_moon
    )


def test_pages_are_filled_not_a_page_per_chapter(booklets):
    for name, booklet in booklets.items():
        pages = booklet["pages"]
        starts = [n for page in pages for n in page["starts"]]
        assert len(starts) >= 3, name
        # parts run on: most start below the end of the one before (more lines above than the running heads)
        assert sum(n >= 3 for n in starts) * 2 >= len(starts), (name, starts)
        # an index set on a page of its own (laid out so when that saves a page: generator/render/pdf.py) may leave
        # the page before it short
        apart = min(pages[-1]["starts"], default=9) <= 1 and re.search(r"APPENDIX [A-Z] Index ", pages[-1]["text"])
        for number, page in enumerate(pages[2 : -2 if apart else -1], 3):
            assert page["lines"] >= MIN_LINES, (name, number, page["lines"])


def test_type_is_8_pt_or_more(booklets):
    for name, booklet in booklets.items():
        for number, page in enumerate(booklet["pages"], 1):
            assert page["smallest"] >= MIN_TYPE, (name, number, page["smallest"])


def test_every_page_of_a_gm_copy_carries_the_gm_mark_and_no_player_page_does(booklets):
    for name, booklet in booklets.items():
        for number, page in enumerate(booklet["pages"], 1):
            assert (GM_MARK in page["text"] or ORDO_GM_MARK in page["text"]) == ("-gm-" in name), (name, number)
    gm = " ".join(p["text"] for p in booklets["ordo_ineptus-handout-gm-a4.pdf"]["pages"])
    assert f"{ORDO_GM} only" in gm and f"{ORDO_GM}'s note" in gm and ORDO_GM_MARK in gm  # its own word, not ours


# -- a sample list's totals in the booklet ------------------------------------------------------------------------
def booklet_list_totals(root: Path, ruleset_id: str) -> str:
    """The foot of the first army list the player booklet prints: its HTML's text, no PDF made."""
    from generator.pipeline.plan import handout_jobs
    from generator.validate import check_project

    result = check_project(root, ruleset_id)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    job = next(
        j for j in handout_jobs(result.project, root / "out", "player") if j.target.name.endswith("handout-a4.pdf")
    )
    table = job.html[job.html.index('class="army-table"') :]
    table = table[table.index("<tfoot>") : table.index("</table>")]
    return " ".join(re.sub(r"<[^>]+>", " ", table).split())


def test_a_printed_list_counts_against_what_was_agreed_or_says_the_text_leaves_it_out(tmp_path):
    """tests/fixtures: 24 of the 30 models agreed (headcount), 8 of the 10 points (homebrew); with the agreed number
    left out by the text, the gap, never "of not given"."""
    fixtures = ROOT / "tests" / "fixtures"
    assert booklet_list_totals(fixtures / "headcount", "skirmish") == "Total models 24 of 30"
    assert booklet_list_totals(fixtures / "homebrew", "melee") == "Total 8 of 10"
    for fixture, ruleset_id, old, new, expected in [
        (
            "headcount",
            "skirmish",
            "agreed_models: 30",
            "agreed_models: not given",
            "Total models 24 (agreed: not given)",
        ),
        ("homebrew", "melee", "agreed_points: 10", "agreed_points: not given", "Total 8 (agreed: not given)"),
    ]:
        copy = tmp_path / ruleset_id
        shutil.copytree(fixtures / fixture, copy)
        path = copy / "rules_src" / ruleset_id / "ruleset.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        assert booklet_list_totals(copy, ruleset_id) == expected
