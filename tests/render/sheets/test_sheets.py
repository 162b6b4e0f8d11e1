"""Cheat sheets rendered to PDF and read back; their site pages; the chart data behind both.

Every sheet is rendered once per run in both paper sizes by the shared
`rulepress build` (tests/conftest.py ``sample_build``), then read back with pypdf: one page, the paper size,
embedded fonts, no text under 7 pt or inside the 10 mm margin, and the numbers the
rules state — every cell of the to-hit and to-wound charts, every row of the
armour, shooting and combat-odds charts — worked out here from the source text's
rules, independently of the rules data. Chart sheets come from `sheets:` data and are
found by their title. Game-master-only victory points never reach a player sheet or page.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from helpers import make_project, sample_check
from pypdf import PdfReader

from generator.model.dice import percent
from generator.model.text import range_words
from generator.render.markdown import chart_md, esc
from generator.render.sheets.charts import Cell, Chart, Row
from generator.render.sheets.jobs import (
    PAPERS,
    Sheet,
    overflow,
    quick_reference_sheet,
    sheet_html,
    sheet_jobs,
    sheet_pages,
    sheets,
)
from generator.render.sheets.quickref import cite, column_parts, quick_reference, spells_group
from generator.render.sheets.victory import victory_checklist
from generator.source.project import Project
from generator.validate import check_project

ROOT = Path(__file__).resolve().parents[3]
MM = 72 / 25.4
SIZES = {"a4": (595, 842), "letter": (612, 792)}
STATS = range(1, 11)


def normalise(text: str) -> str:
    return " ".join(
        text.replace("\u2010", "-").replace("\u2011", "-").replace("\u00ad", "").replace("\u00a0", " ").split()
    )


def loadable_project() -> Project:
    """Every ruleset of rules_src/; a ruleset with check errors fails the tests that need it, never skips them."""
    result = sample_check()
    if not result.ok:
        pytest.fail("rules_src/ has check errors; `rulepress check` lists them")
    return result.project


@pytest.fixture(scope="module")
def project() -> Project:
    return loadable_project()


@pytest.fixture(scope="module")
def made(project, tmp_path_factory) -> tuple[Path, list]:
    """(out folder, every sheet job of the project into it): their HTML made once for the module's tests, which read
    the jobs and change none; nothing is rendered."""
    out = tmp_path_factory.mktemp("sheets")
    return out, sheet_jobs(project, out)


@pytest.fixture(scope="module")
def rendered(project, sample_build) -> dict[str, Path]:
    """File name -> PDF, for every sheet job of the project, as `rulepress build` rendered it."""
    jobs = sheet_jobs(project, sample_build / "sheets")
    assert all(job.target.is_file() for job in jobs), [job.target.name for job in jobs if not job.target.is_file()]
    return {job.target.name: job.target for job in jobs}


@pytest.fixture(scope="module")
def texts(rendered, read_pdfs) -> dict[str, str]:
    return {
        path.name: normalise(" ".join(page.text for page in pdf.pages))
        for path, pdf in read_pdfs(rendered.values()).items()
    }


def both(texts: dict[str, str], stem: str) -> list[str]:
    return [texts[f"{stem}-{paper.id}.pdf"] for paper in PAPERS]


# -- the numbers, from the mechanics -------------------------------------------------------------------
def shown_chance(probability: Fraction) -> str:
    """As a sheet prints a chance: rounded, but never 100% or 0% unless certain."""
    text = percent(probability)
    if text == "100%" and probability != 1:
        return ">99.9%"
    if text == "0%" and probability != 0:
        return "<0.1%"
    return text


def d6(target: int | None) -> Fraction:
    """P(one D6 rolls target or more), counted over the six faces."""
    return Fraction(sum(1 for face in range(1, 7) if target is not None and face >= target), 6)


def target_cell(target: int | None, impossible: str) -> str:
    return impossible if target is None or target > 6 else f"{target}+ {shown_chance(d6(target))}"


# Expected values typed from the source text (000 § Shooting Phase, § Armor; 004 Blood, Guts and
# Rampant Hex), written out here independently of the rules data and of any code under test.
def hit_melee(attacker: int, defender: int) -> int:
    """000, close combat as in Fantasy: 3+ against a lower WS, 5+ against more than double, else 4+."""
    return 3 if attacker > defender else 5 if defender > 2 * attacker else 4


def wound(strength: int, toughness: int) -> int | None:
    """The Warhammer Fantasy chart: S = T 4+; one easier per point of S above (to 2+), one harder per point
    below, 6+ at T = S + 2 and at T = S + 3; no effect only from T - S >= 4."""
    difference = strength - toughness
    return None if difference <= -4 else min(6, max(2, 4 - difference))


def save(base: int, strength: int, worse: int = 0) -> int | None:
    """000 § Armor: each point of Strength above 3 makes the save one worse; past 6+ there is none."""
    target = base + max(0, strength - 3) + worse
    return None if target > 6 else target


MODIFIERS = {"cover": -1, "moving": -1, "long range": -1, "large target": +1}  # 000 § Shooting Phase


def shooting(bs: int, mods: tuple[str, ...]) -> tuple[int, Fraction]:
    """7 - BS, one harder per -1; a natural 1 always misses; 7+ is a 6 then 4+, 8+ a 6 then 5+, 9+ a 6 then 6+."""
    needed = max(2, 7 - bs - sum(MODIFIERS[m] for m in mods))
    chance = d6(needed) if needed <= 6 else d6(6) * d6(needed - 3) if needed <= 9 else Fraction(0)
    return needed, chance


def to_hit_rows() -> list[str]:
    return [f"{a} " + " ".join(target_cell(hit_melee(a, d), "") for d in STATS) for a in STATS]


def to_wound_rows() -> list[str]:
    return [f"{s} " + " ".join(target_cell(wound(s, t), "no effect") for t in STATS) for s in STATS]


def armour_rows(worse: int = 0) -> list[str]:
    return [f"{base}+ " + " ".join(target_cell(save(base, s, worse), "no save") for s in STATS) for base in range(2, 7)]


SHOOTING_COLUMNS = [
    (),
    ("cover",),
    ("moving",),
    ("long range",),
    ("large target",),
    ("cover", "moving"),
    ("cover", "long range"),
    ("moving", "long range"),
    ("cover", "moving", "long range"),
    ("large target", "cover"),
    ("large target", "long range"),
]


def shooting_rows() -> list[str]:
    def cell(bs, mods):
        needed, chance = shooting(bs, mods)
        return "cannot hit" if chance == 0 else f"{needed}+ {shown_chance(chance)}"

    return [f"{bs} " + " ".join(cell(bs, mods) for mods in SHOOTING_COLUMNS) for bs in STATS]


def two_places(value: Fraction) -> str:
    text = f"{float(round(value, 2)):.2f}"
    return text.rstrip("0").rstrip(".")


def beats(dice: int, score: int) -> Fraction:
    """004: the chance that at least one of ``dice`` D6 scores higher than ``score``."""
    return 1 - Fraction(min(score, 6), 6) ** dice


def rampant_hex_rows() -> dict[str, list[str]]:
    return {
        "expected hits": [
            f"{a} " + " ".join(two_places(Fraction(a * (6 - armour), 6)) for armour in range(1, 6)) for a in range(1, 7)
        ],
        "a hit": [f"{a} " + " ".join(shown_chance(beats(a, armour)) for armour in range(1, 6)) for a in range(1, 7)],
        "moral": [
            f"{m} " + " ".join("cannot pass" if (p := beats(m, h)) == 0 else shown_chance(p) for h in range(0, 7))
            for m in range(1, 7)
        ],
    }


# Sheets that come from `sheets:` data are found by their title, whichever ruleset holds them.
TO_HIT, TO_WOUND, ARMOUR, SHOOTING, COMBAT_ODDS, TO_HIT_AND_WOUND = (
    "Close combat to-hit chart",
    "To-wound chart",
    "Armour saves",
    "Shooting to-hit chart",
    "Combat and moral odds",
    "To-hit and to-wound charts",
)


def titled(project, title: str, audience: str = "player") -> list[str]:
    """The file stems of the sheets with this title."""
    return [s.name for s in sheets(project) if s.title == title and s.audience == audience]


def sheet_texts(texts: dict[str, str], project, title: str) -> list[str]:
    stems = titled(project, title)
    assert stems, f"no sheet titled {title!r}"
    return [text for stem in stems for text in both(texts, stem)]


def victory_stem(project, ruleset_id: str, audience: str = "player") -> str:
    return next(
        s.name
        for s in sheets(project)
        if s.ruleset == ruleset_id and s.audience == audience and s.template == "sheets/victory-points.html.j2"
    )


# -- what exists -----------------------------------------------------------------------------------------
def test_every_sheet_in_both_sizes(project, made):
    names = {job.target.name for job in made[1]}
    stems = {
        stem
        for title in (TO_HIT, TO_WOUND, ARMOUR, SHOOTING, COMBAT_ODDS, TO_HIT_AND_WOUND)
        for stem in titled(project, title)
    }
    assert len(stems) >= 5, "every chart sheet comes from `sheets:` data"
    stems |= {victory_stem(project, "ordo_ineptus"), victory_stem(project, "ordo_ineptus", "gm")}
    stems |= {f"{r.id}-quick-reference" for r in project.rulesets if r.meta.kind != "base"}
    stems |= {s.name for s in sheets(project)}  # and nothing else is made than the sheets listed
    assert names == {f"{stem}-{paper}.pdf" for stem in stems for paper in ("a4", "letter")}
    for ruleset in project.rulesets:
        for entry in ruleset.sheets:
            stem = f"{ruleset.id}-{entry.id.replace('_', '-')}"
            assert f"{stem}-a4.pdf" in names or f"{stem}-gm-a4.pdf" in names


def test_jobs_point_inside_the_project(made):
    out, jobs = made
    for job in jobs:
        assert job.target.parent == out
        assert (ROOT / job.template).is_file()
        assert all(sheet.is_file() and sheet.is_relative_to(ROOT) for sheet in job.stylesheets)
        assert "http:" not in job.html and "https:" not in job.html


# -- print quality ---------------------------------------------------------------------------------------
def fonts(reader: PdfReader):
    """(name, embedded) for every font the pages use; Type0 fonts through their descendant."""
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            described = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = described.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            yield (
                str(font.get("/BaseFont")),
                any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")),
            )


def text_runs(page):
    """(x, y, size in pt) where each run of text starts, in page coordinates: from every piece of text pypdf's text
    visitor was given (tests/pdf_text.py, read once per run)."""
    runs = []
    for piece in page.pieces:
        a, b, c, d, e, f = piece.tm
        A, B, C, D, E, F = piece.cm
        x, y = e * A + f * C + E, e * B + f * D + F
        scale = math.hypot(c * A + d * C, c * B + d * D)
        runs.append((x, y, piece.size * scale))
    return runs


def test_one_page_paper_size_fonts_margins(rendered, read_pdfs):
    problems = []
    read = read_pdfs(rendered.values())
    for name, path in sorted(rendered.items()):
        reader, pages = PdfReader(path), read[path].pages
        width, height = SIZES[name.rsplit("-", 1)[1].removesuffix(".pdf")]
        if len(pages) != 1:
            problems.append(f"{name}: {len(pages)} pages")
        if abs(pages[0].width - width) > 1 or abs(pages[0].height - height) > 1:
            problems.append(f"{name}: page {pages[0].width}x{pages[0].height}")
        unembedded = [font for font, embedded in fonts(reader) if not embedded]
        if unembedded:
            problems.append(f"{name}: fonts not embedded: {unembedded}")
        runs = text_runs(pages[0])
        small = {round(size, 2) for _x, _y, size in runs if size < 7 - 0.01}
        if small:
            problems.append(f"{name}: text below 7 pt: {sorted(small)}")
        outside = [
            (round(x), round(y))
            for x, y, _s in runs
            if not (10 * MM <= x <= width - 10 * MM and 10 * MM <= y <= height - 10 * MM)
        ]
        if outside:
            problems.append(f"{name}: text inside the 10 mm margin at {outside[:3]}")
    assert not problems, "\n".join(problems)


def test_every_sheet_states_its_source_and_how_its_chances_were_found_naming_no_tool(texts, project):
    for name, text in texts.items():
        assert "Source: " in text, name
        has_chances = bool(re.search(r"\d%", text))  # a sheet that prints a chance (a checklist, rules alone: none)
        assert ("worked out exactly from the rules" in text) == has_chances, name
        assert "icepool" not in text.lower() and "Rulepress" not in text, name
    for text in sheet_texts(texts, project, SHOOTING):
        assert "§ Shooting Phase" in text
    for text in sheet_texts(texts, project, ARMOUR):
        assert "§ Armor" in text


# -- the charts hold what the mechanics compute -----------------------------------------------------------
def test_to_hit_chart_every_cell(texts, project):
    for text in sheet_texts(texts, project, TO_HIT):
        for row in to_hit_rows():
            assert row in text


def test_to_wound_chart_every_cell_with_no_effect(texts, project):
    for text in sheet_texts(texts, project, TO_WOUND):
        for row in to_wound_rows():
            assert row in text
        assert "no effect" in text


def test_to_hit_and_to_wound_on_one_page(texts, project, rendered):
    """Issue 12: both charts on one sheet, every cell as the mechanics above compute it, one page in both papers."""
    stems = titled(project, TO_HIT_AND_WOUND)
    assert stems
    for stem in stems:
        for paper in PAPERS:
            assert len(PdfReader(rendered[f"{stem}-{paper.id}.pdf"]).pages) == 1
    for text in sheet_texts(texts, project, TO_HIT_AND_WOUND):
        for row in to_hit_rows() + to_wound_rows():
            assert row in text


# which legend entries each chart sheet may show, by hand: the to-hit chart has no impossible cell
# (the worst is a 5+), the to-wound chart has "no effect" cells; the close combat charts frame equal stats
LEGEND = {
    "bold on grey": "good",
    "plain: between": "even",
    "italic: 1 in 3 or worse": "poor",
    "hatched: cannot succeed": "none",
    "thick frame: equal values": "marked",
}
USES = {
    TO_HIT: {"good", "even", "poor", "marked"},
    TO_WOUND: {"good", "even", "poor", "none", "marked"},
    TO_HIT_AND_WOUND: {"good", "even", "poor", "none", "marked"},
}


def test_legends_list_only_what_the_chart_uses(texts, project):
    for title, uses in USES.items():
        for text in sheet_texts(texts, project, title):
            for words, kind in LEGEND.items():
                assert (words in text) == (kind in uses), (title, words)


def test_armour_chart_rows_with_and_without_armour_piercing(texts, project):
    for text in sheet_texts(texts, project, ARMOUR):
        for row in armour_rows() + armour_rows(worse=1):  # armour piercing: one worse still
            assert row in text
        # the text's own example: a 4+ save is a 5+ against Strength 4, 6+ against 5, nothing from 6
        four_up = armour_rows()[2].split()
        assert four_up[:11] == ["4+", "4+", "50%", "4+", "50%", "4+", "50%", "5+", "33.3%", "6+", "16.7%"]


def test_critical_armour_rows(texts, project):
    rows = armour_rows(worse=2)  # 000: a critical of 1-3 (not a Killing Blow) makes the save two worse
    for text in sheet_texts(texts, project, ARMOUR):
        for row in rows:
            assert row in text


def test_shooting_chart_every_row(texts, project):
    for text in sheet_texts(texts, project, SHOOTING):
        for row in shooting_rows():
            assert row in text
        for name in MODIFIERS:
            assert name in text


def test_rampant_hex_odds(texts, project):
    for text in sheet_texts(texts, project, COMBAT_ODDS):
        for rows in rampant_hex_rows().values():
            for row in rows:
                assert row in text


def test_no_chance_prints_as_certain_unless_it_is():
    assert shown_chance(beats(6, 1)) == ">99.9%"
    assert shown_chance(beats(3, 0)) == "100%"


# -- victory points ------------------------------------------------------------------------------------------
def test_player_checklist_never_names_gm_only_points(project, texts):
    ruleset = project.ruleset("ordo_ineptus")
    secret = [v for v in ruleset.victory_points if v.gm_only]
    public = [v for v in ruleset.victory_points if not v.gm_only]
    assert secret, "the Shellendrak text has hidden tasks"
    for text in both(texts, victory_stem(project, "ordo_ineptus")):
        for entry in secret:
            assert entry.name.casefold() not in text.casefold()
            assert normalise(entry.condition)[:40] not in text
        for entry in public:
            assert entry.name in text
        assert "Hidden task" in text
    for text in both(texts, victory_stem(project, "ordo_ineptus", "gm")):
        for entry in secret + public:
            assert entry.name in text


def test_the_game_masters_checklist_is_one_sheet_for_every_player(project, texts):
    """The players each keep their own line; the game-master's sheet has a column per player, headed by the side
    each plays (ordo_ineptus declares `side: Warband`), and every line, the hidden ones named."""
    side = project.ruleset("ordo_ineptus").meta.victory_point_sheet.side
    assert side == "Warband"
    for text in both(texts, victory_stem(project, "ordo_ineptus")):
        assert "Player:" in text and text.count(side) == 1
    for text in both(texts, victory_stem(project, "ordo_ineptus", "gm")):
        assert "Player:" not in text and text.count(f"{side} ") >= 4
        assert "Write each player's Warband at the head of a column" in text


def test_the_game_masters_overview_says_in_words_whom_a_line_is_hidden_from(project, texts):
    """The Shellendrak text's hidden tasks (victory.yaml `hidden: true`, `audience: gm`) are named on the game-master's
    overview with what "hidden" means: a bare badge word printed "Hidden tasks hidden", which read like a typo."""
    secret = [v.name for v in project.ruleset("ordo_ineptus").victory_points if v.gm_only]
    assert secret
    for text in both(texts, victory_stem(project, "ordo_ineptus", "gm")):
        for name in secret:
            assert f"{name} (hidden from players)" in text
            assert f"{name} hidden" not in text


def test_checklist_gaps_are_boxes_not_numbers(project, texts):
    """No points are given in 000, so no points value may print: every box is blank."""
    ruleset = project.ruleset("ordo_ineptus")
    assert all(v.points.__class__.__name__ == "NotGiven" for v in ruleset.victory_points)
    for text in both(texts, victory_stem(project, "ordo_ineptus")) + both(
        texts, victory_stem(project, "ordo_ineptus", "gm")
    ):
        body = text.split("Source:")[0]
        assert "Total victory points" in body
        assert not any(word.isdigit() for word in body.split())


# -- quick references -----------------------------------------------------------------------------------------
def with_minus_signs(text: str) -> str:
    """The text as print sets it: "-2" standing alone as "−2" (a range "2-6" keeps its hyphen)."""
    return re.sub(r"(?<![\w.\-])-(?=\d)", "−", text)


def test_quick_reference_tables_with_their_odds(project, texts):
    for ruleset in project.rulesets:
        if ruleset.meta.kind == "base":
            continue
        for text in both(texts, f"{ruleset.id}-quick-reference"):
            for phase in ruleset.phases:
                if phase.audience != "gm":
                    assert normalise(phase.title) in text
            for table in ruleset.tables:
                if table.audience == "gm" or table.quick_reference is False:  # the author took it off the sheet
                    assert table.title not in text
                    continue
                assert table.title in text
                if table.ranges_given and not table.dice.stats:
                    for row, chance in table.odds():
                        assert (
                            f"{range_words(row.roll).replace('-', '–')} {with_minus_signs(normalise(row.result))}"
                            in text
                        )  # en-dash ranges, and a negative number's minus sign ("Save −2")
                        assert shown_chance(chance) in text
                else:  # the key explains the write-in box once
                    assert "not given in the source" in text


def test_a_quick_reference_says_how_chances_are_rounded_once(project, texts):
    for ruleset in project.rulesets:
        if ruleset.meta.kind == "base":
            continue
        for text in both(texts, f"{ruleset.id}-quick-reference"):
            said = " ".join(text.split())
            chances = bool(re.search(r"\d%", said))  # one of rules and values alone prints none, and says nothing
            assert (said.count("rounded only for print"), said.count("rounded to")) == (int(chances), 0), ruleset.id


def test_missing_roll_ranges_show_the_gap(project, texts):
    table = project.ruleset("city_of_the_damned_combat").table("injury")
    assert not table.ranges_given
    for text in both(texts, "city_of_the_damned_combat-quick-reference"):
        assert "Roll (not given in the source)" in text  # said once, in the header; each roll is an empty box
        for row in table.rows:
            assert normalise(row.result) in text
            before = text.split(normalise(row.result))[0].split()[-1]
            assert not before[:1].isdigit(), (row.result, before)


def two_d6_at_least(total: int) -> Fraction:
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= total), 36)


def test_quick_reference_numbers_from_data(texts):
    """000: casting is the difficulty or more on 2D6; a search roll succeeds on a 5 or 6; a 2 minute timer."""
    for text in both(texts, "ordo_ineptus-quick-reference"):
        # the cells of one row may run together in the text layer: compare without spaces
        assert "".join(shown_chance(two_d6_at_least(d)) for d in range(3, 8)) in text.replace(" ", "")
        assert "5–6 Success 33.3%" in text
        assert "2 minute timer" in text


def test_quick_reference_leaves_out_gm_entries(project):
    for ruleset in project.rulesets:
        ref = quick_reference(ruleset)
        shown = {p.title for s in ref.sequences for p in s.phases} | {t.title for t in ref.tables}
        hidden = {e.title for e in ruleset.phases + ruleset.tables if e.audience == "gm"}
        assert not shown & hidden


# -- site pages -------------------------------------------------------------------------------------------------
def gm_only_names(project) -> list[str]:
    names = [v.name for r in project.rulesets for v in r.victory_points if v.gm_only]
    for ruleset in project.rulesets:
        for _section, entry in ruleset.all_entries():
            if getattr(entry, "audience", "player") == "gm":
                names.append(getattr(entry, "title", "") or getattr(entry, "name", "") or getattr(entry, "term", ""))
    return [n for n in names if n]


def test_player_pages_have_no_gm_content(project):
    pages = sheet_pages(project, "player")
    secret = gm_only_names(project)
    assert secret
    for name, page in pages.items():
        assert "-gm" not in name
        for word in secret:
            assert word.casefold() not in page.casefold(), (name, word)
    gm = sheet_pages(project, "gm")
    assert set(gm) == set(pages)
    assert "Hidden tasks" in gm[victory_stem(project, "ordo_ineptus")]


def test_pages_hold_the_charts_as_pipe_tables(project):
    pages = sheet_pages(project, "player")
    wound = pages[titled(project, TO_WOUND)[0]]
    assert "To\\-wound chart" in wound.splitlines()[0]
    # Strength 3: 2+ and 3+ against T1 and T2, 4+ at T3, 5+, then 6+ at T5 and T6, no effect from T7
    assert (
        "| **3** | **2\\+ (83\\.3%)** | **3\\+ (66\\.7%)** | 4\\+ (50%) | 5\\+ (33\\.3%) | 6\\+ (16\\.7%) "
        "| 6\\+ (16\\.7%) | *no effect* |"
    ) in wound
    assert "{source}`" in wound
    quick = pages["rampant_hex-quick-reference"]
    assert "| 1–2 | 2 activations | 33\\.3% |" in quick


def test_a_wide_chart_prints_on_the_quick_reference_in_parts_of_six_columns_or_fewer():
    """Ten chances side by side in half a page run into each other: a chart wider than six columns prints in parts
    one above the other, as few as hold six or fewer, of widths at most one apart, every column once and in order."""
    for count in range(1, 40):
        chart = Chart("t", "r", "c", tuple(str(n) for n in range(count)), (Row("x", (Cell("3+", "50%"),) * count),))
        parts = [list(part) for part in column_parts(chart)]
        assert [n for part in parts for n in part] == list(range(count))
        assert len(parts) == -(-count // 6) and max(map(len, parts)) <= 6
        assert max(map(len, parts)) - min(map(len, parts)) <= 1


def test_a_chart_of_one_unlabelled_row_prints_no_empty_emphasis():
    """A chart over one input has a row with no label: its cell is empty, not `****` (which Markdown prints as is)."""
    chart = Chart("Hit", "", "Fight", ("0", "1"), (Row("", (Cell("", "41.7%", tone="good"), Cell("", ""))),))
    row = next(line for line in chart_md(chart).splitlines() if "41" in line)
    assert row == "|  | **41\\.7%** |  |"


def test_a_chart_page_says_what_bold_means_under_a_chart_with_bold_odds_only():
    """Bold marks odds of 2 in 3 or better (the printed legend's words); a page's chart said it nowhere."""
    good = Chart(
        "Hit", "Fight", "Armour", ("1", "2"), (Row("1", (Cell("3+", "66.7%", tone="good"), Cell("5+", "33.3%"))),)
    )
    even = Chart("Hit", "Fight", "Armour", ("1", "2"), (Row("1", (Cell("4+", "50%"), Cell("5+", "33.3%"))),))
    assert chart_md(good).splitlines()[-1] == "**Bold**: a chance of 2 in 3 or better."
    assert "Bold" not in chart_md(even)


def test_a_sheet_says_its_chances_are_worked_out_only_where_it_prints_one():
    """A sheet of a chart of results in words (AE, DR...) ended "Every chance here is worked out exactly" with no
    chance on it; so did a sheet of tables whose chances vary with a modifier."""
    from types import MappingProxyType

    from generator.render.sheets.jobs import CHANCES_NOTE, Sheet, chances_note
    from generator.render.sheets.quickref import QuickTable, TableLine

    def sheet(**context) -> Sheet:
        return Sheet("s", "s", "S", "sheets/charts.html.j2", (), MappingProxyType(context))

    words = Chart("CRT", "Roll", "Odds", ("1:1", "2:1"), (Row("1", (Cell("AR", ""), Cell("DR", ""))),))
    odds = Chart("Hit", "Fight", "Armour", ("1",), (Row("1", (Cell("4+", "50%"),)),))
    varies = QuickTable("Injury", "D6 + M", (TableLine("1-3", "Down", "varies"),), "", True, "")
    known = QuickTable("Injury", "D6", (TableLine("1-3", "Down", "50%"),), "", True, "")
    assert [chances_note(sheet(charts=(words,))), chances_note(sheet(charts=(words, odds)))] == ["", CHANCES_NOTE]
    assert [chances_note(sheet(tables=(varies,))), chances_note(sheet(tables=(varies, known)))] == ["", CHANCES_NOTE]


def test_page_text_is_escaped():
    chart = Chart("<script>x</script>", "a|b", "*c*", ("[1](javascript:x)",), (Row("`r`", (Cell("<b>", "50%"),)),))
    text = chart_md(chart)
    assert "<script>" not in text and "<b>" not in text and "](" not in text
    assert "\\<script\\>" in text and "a\\|b" in text


# -- templates ------------------------------------------------------------------------------------------------
def test_templates_escape_data_text(project):
    evil = Sheet(
        "evil",
        "evil",
        "<script>alert(1)</script>",
        "sheets/charts.html.j2",
        ("<img src=x>",),
        {
            "charts": (
                Chart("<i>t</i>", "<b>", "<u>", ("<s>",), (Row("<r>", (Cell("<c>", "50%"),)),), notes=("<n>",)),
            ),
            "extras": ("<e>",),
        },
        subtitle="<sub>",
        ruleset=project.rulesets[0].id,
    )
    html = sheet_html(evil, PAPERS[0], project)
    for tag in ("<script>", "<img", "<i>t", "<b>", "<u>", "<s>", "<r>", "<c>", "<n>", "<e>", "<sub>"):
        assert tag not in html
    assert "&lt;script&gt;" in html


def test_sheets_are_grouped_by_page_name(project):
    every = sheets(project)
    assert len({s.name for s in every}) == len(every)
    gm = [s for s in every if s.audience == "gm"]
    assert gm and all(
        s.name.endswith("-gm") and any(p.page == s.page and p.audience == "player" for p in every) for s in gm
    )


def test_downloads_list_no_gm_sheet_for_players(project, made):
    from generator.render.sheets.jobs import sheet_downloads

    player, gm = sheet_downloads(project, "player"), sheet_downloads(project, "gm")
    player_files = {href for links in player.values() for _title, href in links}
    gm_files = {href for links in gm.values() for _title, href in links}
    assert not any("-gm-" in href for href in player_files)
    assert {f"sheets/{job.target.name}" for job in made[1]} == gm_files
    assert f"sheets/{victory_stem(project, 'ordo_ineptus', 'gm')}-letter.pdf" in {h for _t, h in gm["ordo_ineptus"]}
    assert "" not in player  # every sheet belongs to a ruleset
    for stem in titled(project, TO_WOUND):
        owner = next(s.ruleset for s in sheets(project) if s.name == stem)
        assert f"sheets/{stem}-a4.pdf" in {h for _t, h in player[owner]}


def test_sheets_name_sources_by_title_never_by_file(texts):
    """Issue 12: a player reads `Blood, Guts and Rampant Hex § COMBAT`, never a hashed file name like 004_7d41...txt."""
    for name, text in texts.items():
        assert not re.search(r"\b\d{3}_[0-9a-f]{16}\.txt\b", text), name


def test_the_sites_quick_reference_holds_what_the_printed_one_holds_in_its_order(project):
    """One content list: every block the sheet prints (turn sequence, each chapter's marked rules, roll tables,
    matrices, key numbers) is on the site's page, in the sheet's order."""
    from generator.render.sheets.jobs import sheet_pages, sheets

    for sheet in sheets(project):
        if "ref" not in sheet.context or sheet.audience != "player":
            continue
        page = sheet_pages(project, "player")[sheet.page]
        titles = [
            title
            for kind, block in sheet.context["ref"].blocks
            for title in (
                [rule.title for rule in block.rules] if kind == "rules" else [] if kind == "sequence" else [block.title]
            )
        ]
        at = 0
        for title in titles:  # each after the one before
            found = page.find(esc(title), at)
            assert found >= at, (sheet.page, title, "missing or out of the sheet's order")
            at = found
    # City of the Damned marks its Stunned rule for the sheet (rules.yaml: `quick_reference:` with a summary)
    page = sheet_pages(project, "player")["city_of_the_damned_combat-quick-reference"]
    assert '- **Stunned**: Turn the model face down. It may only crawl up to 2".' in page


def test_an_overlays_sheets_cite_the_text_it_changes_by_the_texts_title(project):
    """The sample house rules change values of Blood, Guts and Rampant Hex; their sheets cite that text, as its own
    sheets do, never the overlay's title."""
    house, text = project.ruleset("rampant_hex_house"), project.ruleset("rampant_hex")
    rule = house.rule("faulty_scrolls")
    assert cite(rule, house) == cite(rule, text) == "Blood, Guts and Rampant Hex § Faulty scrolls!"


def test_a_players_checklist_whose_every_entry_is_the_game_masters_still_names_its_rules(tmp_path):
    """Its rules are named (never `Source: .`); a game with no source text names none, and prints no source line."""
    secret = (
        "ruleset: {title: Night Watch, source_title: The Watch Book, declares: {victory_point_kinds: [task]}}\n"
        "victory_points:\n"
        "  crypt: {name: Seal the crypt, kind: task, points: 3, condition: The crypt is sealed., audience: gm}\n"
    )
    for folder, text, named in (
        ("cited", secret, ("The Watch Book",)),  # the source text, by its title
        ("original", secret.replace(" source_title: The Watch Book,", ""), ()),
    ):
        result = check_project(make_project(tmp_path / folder, watch=text))
        assert result.ok, [d.format() for d in result.diagnostics.errors]
        ruleset = result.project.ruleset("watch")
        assert victory_checklist(ruleset, "player").sources == named
        assert victory_checklist(ruleset, "gm").sources == named


def test_a_charts_note_on_a_quick_reference_is_prose_like_every_other_note(made):
    """City of the Damned's critical-hit chart notes "*Interpretation:* ...": the sheet prints the word in italics,
    never its asterisks."""
    (job,) = [j for j in made[1] if j.target.name == "city_of_the_damned_combat-quick-reference-a4.pdf"]
    assert "<em>Interpretation:</em> a hit that is already a" in job.html
    assert "*Interpretation:*" not in job.html


def test_a_spell_on_no_table_reads_as_its_facts_then_its_effect(tmp_path):
    spells = (
        "ruleset: {title: Night Watch}\n"
        "spells:\n"
        "  chill: {name: Grave Chill, range: 6, range_unit: inches, casting_value: 8, duration: Until its next turn,\n"
        "          effect: The target is stunned.}\n"
        "  glow: {name: Glow, range: 3, range_unit: inches, effect: +1 to hit}\n"
    )
    result = check_project(make_project(tmp_path, watch=spells))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    lines = {line.label: line.detail for line in spells_group(result.project.ruleset("watch")).lines}
    assert lines == {
        "Grave Chill": "Range 6 inches; cast on 8+; duration: Until its next turn. The target is stunned.",
        "Glow": "range 3 inches; +1 to hit",
    }


SKIRMISH = """\
ruleset:
  title: Skirmish at the Mill
  source: text.txt
chapters:
  moving: {title: Moving}
rules:
  moving:
    title: Moving
    chapter: moving
    quick_reference: true
    body: A model moves up to {value}`move`.
    source: {section: MOVING}
values:
  move: {value: 6 hexes, label: How far models move, source: {section: MOVING}}
  dash: {value: 2 hexes, label: How far a dash adds, source: {section: MOVING}}
"""
CLUB = """\
ruleset:
  title: Club rules for the Mill
  extends: skirmish
  overlay: true
values:
  move: {value: 7 hexes, house_note: A wider board.}
  dash: {value: 3 hexes, house_note: Quicker feet., quick_reference: false}
"""


def club_quick_reference(tmp_path):
    make_project(
        tmp_path, {"skirmish/sources/text.txt": "MOVING\nModels move 6 hexes.\n"}, skirmish=SKIRMISH, club=CLUB
    )
    result = check_project(tmp_path)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project.ruleset("club")


def key_numbers(ref):
    (numbers,) = [group for group in ref.keys if group.title == "Key numbers"]
    return numbers


def test_an_overlays_quick_reference_cites_the_text_by_its_title_not_the_overlays(tmp_path):
    ref = quick_reference(club_quick_reference(tmp_path))
    ((group, _tables),) = ref.chapters
    assert group.source == key_numbers(ref).source == "Skirmish at the Mill § MOVING"


def test_an_overlays_quick_reference_shows_each_house_value_but_one_it_marks_off(tmp_path):
    lines = key_numbers(quick_reference(club_quick_reference(tmp_path))).lines
    assert [(line.label, line.value) for line in lines] == [
        ("How far models move", "7 hexes (house rule; the text: 6 hexes)")
    ]


def test_an_overlays_quick_reference_too_long_says_what_an_overlay_can_do(tmp_path):
    club = club_quick_reference(tmp_path)
    hint = overflow(quick_reference_sheet(club), PAPERS[0]).hint
    assert "`quick_reference: false`" in hint and "house value" in hint and "house_note" in hint
    text = overflow(quick_reference_sheet(club.original), PAPERS[0])
    assert text.hint is None and "mark fewer entries" in text.format()  # a text's own marks are its to take off


def test_a_sheet_too_long_names_the_projects_own_templates_it_is_made_with(tmp_path):
    """The trial's own print CSS pushed the quick reference onto two pages, and the error sent the author to the
    rules alone: where the project's own templates make a sheet, the hint names them."""
    from generator.render.sheets.jobs import sheet_jobs

    game = "ruleset: {title: G}\nvalues:\n  move: {value: 6, label: Move, quick_reference: true}\n"
    root = make_project(tmp_path, g=game)
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    [plain, *_] = [j for j in sheet_jobs(result.project, tmp_path / "out") if "quick-reference" in j.target.name]
    assert plain.overflow.hint is None  # the code's own: mark fewer entries, shorter summaries
    (root / "templates").mkdir()
    (root / "templates" / "print-base.css").write_text("body { font-size: 30pt; }\n", encoding="utf-8")
    [own, *_] = [j for j in sheet_jobs(result.project, tmp_path / "out") if "quick-reference" in j.target.name]
    assert own.overflow.hint == (
        "mark fewer entries for it (`quick_reference: false`), or give them shorter summaries "
        "(`quick_reference: {summary: ...}`); it is made with the project's own templates/print-base.css, which may "
        "be what makes it longer than the defaults do"
    )


def test_a_spell_tables_row_labels_the_spells_duration_after_its_range(project):
    """Rampant Hex's spells (rules_src/rampant_hex/magic.yaml) give a range and a duration; Sorcreenes spelle's
    duration is "not given (the extra hex ...)". Printed bare after the range ("range 3 hexes; not given (...)"), it
    read as the range's; labelled, as the cards label it, each part says what it is."""
    magic = yaml.safe_load((ROOT / "rules_src" / "rampant_hex" / "magic.yaml").read_text(encoding="utf-8"))
    ruleset = project.ruleset("rampant_hex")
    (table,) = [t for t in quick_reference(ruleset).tables if t.title == ruleset.table("spells").title]
    details = {line.result: line.detail for line in table.lines}
    for spell in magic["spells"].values():
        parts = [f"range {spell['range']} {spell.get('range_unit', 'hexes')}"] if "range" in spell else []
        parts += [f"duration: {spell['duration']}"] if "duration" in spell else []  # `range_unit:`: hexes unless set
        assert details[spell["name"]] == "; ".join(parts), spell["name"]


def test_a_house_value_inside_the_authors_brackets_gives_the_text_s_own_at_their_end_unnested(texts):
    """Rampant Hex's activation summary (rules.yaml) reads "Move up to {value}`move` ({value}`riders_move` for
    riders)"; the house rules (rampant_hex_house/ruleset.yaml) move riders 4 hexes where the text (values.yaml)
    says 3. Marked in place, the house value's own brackets nested in the author's: "(4 hexes (house rule; the text:
    3 hexes) for riders)"."""
    load = lambda *path: yaml.safe_load((ROOT / "rules_src" / Path(*path)).read_text(encoding="utf-8"))  # noqa: E731
    base, house = load("rampant_hex", "values.yaml")["values"], load("rampant_hex_house", "ruleset.yaml")["values"]
    move, riders, text_riders = base["move"]["value"], house["riders_move"]["value"], base["riders_move"]["value"]
    assert riders != text_riders
    for paper in PAPERS:
        text = texts[f"rampant_hex_house-quick-reference-{paper.id}.pdf"]
        sentence = text.split("Each activation: ")[1].split("not through units")[0]
        assert sentence.startswith(f"Move up to {move} ({riders} for riders; house rule; the text: {text_riders})")
        assert sentence.count("(") == sentence.count(")") == 1
