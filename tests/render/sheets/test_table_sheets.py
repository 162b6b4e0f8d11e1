"""Roll tables on a `sheets:` entry: each row with its roll and its chance, on one page in type as large as it takes,
and on the sheet's site page; what the author of a sheet too long for its page is told to do.

Every chance expected here is counted by brute force over the dice's faces, never read from the code.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import make_project
from pypdf import PdfReader

from generator.diagnostics import Code
from generator.render.pdf import render_pdf
from generator.render.sheets.jobs import PAPERS, overflow, quick_reference_sheet, sheet_jobs, sheet_pages, sheets
from generator.validate import check_project

SCOUT = """\
ruleset: {title: Lone Scout}
tables:
  foes:
    title: Who is out there
    dice: D66
    quick_reference: false
    rows:
      - {roll: 11-36, result: Nothing stirs}
      - {roll: 41-56, result: Two wanderers}
      - {roll: 61-66, result: A pack closes in}
  finds:
    title: What you find
    dice: D100
    quick_reference: false
    rows:
      - {roll: 1-40, result: A handful of coins}
      - {roll: 41-90, result: A coil of rope}
      - {roll: 91-100, result: A sealed map case}
  nerve:
    title: Nerve
    dice: 2D6
    quick_reference: false
    rows:
      - {roll: 2-4, result: Flee}
      - {roll: 5-7, result: Hold still}
      - {roll: 8+, result: Press on}
  hurt:
    title: Hurt
    dice: D6 + grit
    quick_reference: false
    rows:
      - {roll: 0-, result: Lost}
      - {roll: 1-3, result: Limping}
      - {roll: 4-6, result: Bruised}
      - {roll: 7+, result: Unharmed}
  trail:
    title: Along the trail
    dice: D100
    quick_reference: false
    rows:
TRAIL  sky:
    title: Sky
    dice: D3
    quick_reference: false
    rows:
      - {roll: 1, result: Clear}
      - {roll: 2-3, result: Overcast}
formulas:
  reach:
    title: Reach
    inputs:
      skill: {label: Skill, min: 1, max: 3}
    expr: 7 - skill
    result: target
charts:
  reach_chart:
    title: Reach needed
    formula: reach
    columns: {input: skill, range: 1-3}
sheets:
  roll_tables:
    title: Roll tables
    tables: [foes, finds, nerve, hurt, trail, sky]
  weather:
    title: Weather
    tables: [sky, nerve]
  reach_and_sky:
    title: Reach and sky
    charts: [reach_chart]
    tables: [sky]
"""

# twenty rows of five rolls each, each a line or two of text
SCOUT = SCOUT.replace(
    "TRAIL",
    "".join(
        f"      - {{roll: {low}-{low + 4}, result: Stretch {low // 5 + 1} of the trail winds on past old stones and"
        " fallen trees}\n"
        for low in range(1, 100, 5)
    ),
)

FACES = {
    "D66": [10 * a + b for a, b in itertools.product(range(1, 7), repeat=2)],
    "D100": list(range(1, 101)),
    "2D6": [a + b for a, b in itertools.product(range(1, 7), repeat=2)],
    "D3": [1, 2, 3],
}


def counted(dice: str, low: int, high: int) -> str:
    """The chance of rolling low to high, counted over every face, as a sheet prints it (0.1%, no trailing .0)."""
    faces = FACES[dice]
    chance = Fraction(sum(low <= face <= high for face in faces), len(faces))
    text = f"{float(chance) * 100:.1f}".removesuffix(".0")
    return f"{text}%"


# (roll as printed, result, chance): the rows each table prints, its chances counted over its dice
EXPECTED = {
    "foes": [
        ("11–36", "Nothing stirs", counted("D66", 11, 36)),
        ("41–56", "Two wanderers", counted("D66", 41, 56)),
        ("61–66", "A pack closes in", counted("D66", 61, 66)),
    ],
    "finds": [
        ("1–40", "A handful of coins", counted("D100", 1, 40)),
        ("41–90", "A coil of rope", counted("D100", 41, 90)),
        ("91–100", "A sealed map case", counted("D100", 91, 100)),
    ],
    "nerve": [
        ("2–4", "Flee", counted("2D6", 2, 4)),
        ("5–7", "Hold still", counted("2D6", 5, 7)),
        ("8+", "Press on", counted("2D6", 8, 12)),
    ],
    # its chances depend on the modifier: as the quick reference prints it
    "hurt": [("0 or less", "Lost", "varies"), ("1–3", "Limping", "varies"), ("7+", "Unharmed", "varies")],
    "sky": [("1", "Clear", counted("D3", 1, 1)), ("2–3", "Overcast", counted("D3", 2, 3))],
    "trail": [
        (f"{low}–{low + 4}", f"Stretch {low // 5 + 1} of the trail winds on past old stones and fallen trees", "5%")
        for low in range(1, 100, 5)
    ],
}


def test_the_expected_chances_are_the_dice_counts():
    assert counted("D66", 11, 36) == "50%" and counted("D66", 61, 66) == "16.7%" and counted("D100", 96, 100) == "5%"
    assert counted("2D6", 2, 4) == "16.7%" and counted("2D6", 8, 12) == "41.7%"
    assert Counter(FACES["2D6"])[7] == 6


@pytest.fixture(scope="module")
def scout(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("scout"), scout=SCOUT)
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project


def flat(text: str) -> str:
    return " ".join(text.replace("\u2212", "-").split())


def run_sizes(page) -> dict[str, float]:
    """Each run of text on the page and the size (pt) it prints in, the largest where it prints more than once."""
    sizes: dict[str, float] = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            scale = math.hypot(tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3])
            sizes[text.strip()] = max(sizes.get(text.strip(), 0), size * scale)

    page.extract_text(visitor_text=visit)
    return sizes


@pytest.fixture(scope="module")
def printed(scout, tmp_path_factory) -> dict[str, PdfReader]:
    """File name -> the PDF of every sheet of roll tables, rendered for real in both paper sizes."""
    out = tmp_path_factory.mktemp("printed")
    jobs = [job for job in sheet_jobs(scout, out) if "quick-reference" not in job.target.name]
    return {job.target.name: PdfReader(render_pdf(job, Path(scout.root))) for job in jobs}


@pytest.mark.build
@pytest.mark.parametrize("paper", [p.id for p in PAPERS])
def test_a_sheet_of_roll_tables_prints_every_row_with_its_chance_on_one_page(printed, paper):
    pdf = printed[f"scout-roll-tables-{paper}.pdf"]
    assert len(pdf.pages) == 1
    text = flat(pdf.pages[0].extract_text())
    for title in ("Who is out there (D66)", "What you find (D100)", "Nerve (2D6)", "Hurt (D6 + grit)", "Sky (D3)"):
        assert title in text, text
    for rows in EXPECTED.values():
        for roll, result, chance in rows:
            assert f"{roll} {result} {chance}" in text, (roll, result, chance, text)


@pytest.mark.build
@pytest.mark.parametrize("paper", [p.id for p in PAPERS])
def test_a_sheet_of_a_few_roll_tables_prints_them_large_and_one_of_many_smaller(printed, paper):
    few = run_sizes(printed[f"scout-weather-{paper}.pdf"].pages[0])
    many = run_sizes(printed[f"scout-roll-tables-{paper}.pdf"].pages[0])
    # the quick reference's smallest type is 8 pt: two short tables take half again as large and more
    assert few["Overcast"] >= 12, few
    assert 8 <= many["Overcast"] < few["Overcast"], (many, few)
    assert len(printed[f"scout-weather-{paper}.pdf"].pages) == 1


@pytest.mark.build
def test_a_sheet_prints_its_roll_tables_under_its_charts(printed):
    text = flat(printed["scout-reach-and-sky-a4.pdf"].pages[0].extract_text())
    # skill 1 to 3: 6+, 5+, 4+ on a D6 (1, 2 and 3 faces of 6)
    assert "6+ 16.7%" in text and "5+ 33.3%" in text and "4+ 50%" in text, text
    assert text.index("Reach needed") < text.index("Sky (D3)")
    assert f"2–3 Overcast {counted('D3', 2, 3)}" in text, text


def test_the_sheets_site_page_lists_each_table_with_its_chances(scout):
    page = sheet_pages(scout, "player")["scout-roll-tables"]
    assert "## What you find (D100)" in page
    assert "| 91–100 | A sealed map case | 10% |" in page
    assert "| 8\\+ | Press on | 41\\.7% |" in page
    assert "| 0 or less | Lost | varies |" in page


def test_a_sheet_too_long_for_its_page_is_told_to_list_fewer_or_be_split_not_about_quick_reference_marks(scout):
    by_name = {sheet.name: sheet for sheet in sheets(scout)}
    for name, listed in (("scout-roll-tables", "roll tables"), ("scout-reach-and-sky", "charts or roll tables")):
        told = overflow(by_name[name], PAPERS[0])
        assert told.code is Code.SHEET_OVERFLOW
        assert f"list fewer {listed} in `{name.removeprefix('scout-').replace('-', '_')}`" in told.hint
        assert "split it into two `sheets:` entries" in told.hint
        assert "quick_reference" not in told.hint, told.hint
    assert "6 tables (`foes`, `finds`, `nerve`, " in overflow(by_name["scout-roll-tables"], PAPERS[0]).message


def test_a_sheet_too_long_for_its_page_names_what_it_prints_by_kind_each_kind_counted_and_named(scout):
    sheet = next(sheet for sheet in sheets(scout) if sheet.name == "scout-roll-tables")
    tables = tuple(f"tables `t{n:02}`" for n in range(40))
    matrices = tuple(f"profiles `m{n}`" for n in range(4))
    told = overflow(dataclasses.replace(sheet, marks=tables + matrices), PAPERS[0]).message
    listed = told.split(": it prints ", 1)[1]
    assert listed.startswith("40 tables (`t00`, `t01`, ")
    assert listed.count("tables") == 1  # the kind once, not before every table
    assert listed.endswith(" and 4 profile matrices (`m0` and 3 more)")  # the matrices counted as matrices
    assert listed.count("`") == 2 * 12  # twelve named in all
    assert "and 29 more)" in listed  # 40 tables, 11 of them named


def test_a_quick_reference_with_roll_tables_too_long_for_its_page_is_told_they_can_go_on_a_sheet(tmp_path):
    marked = SCOUT.replace("    quick_reference: false\n", "")
    result = check_project(make_project(tmp_path, scout=marked))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    hint = overflow(quick_reference_sheet(result.project.ruleset("scout")), PAPERS[0]).hint
    assert "`quick_reference: false`" in hint
    assert "`sheets:` entry" in hint and "tables: [foes, finds, nerve, ...]" in hint, hint


def test_a_quick_reference_without_roll_tables_keeps_the_codes_hint(tmp_path):
    result = check_project(make_project(tmp_path, scout="ruleset: {title: Lone Scout}\n"))
    hint = overflow(quick_reference_sheet(result.project.ruleset("scout")), PAPERS[0]).hint
    assert hint is None  # the code's own hint is printed


def test_an_overlays_quick_reference_is_told_its_bases_tables_can_go_on_a_sheet_of_the_base(tmp_path):
    marked = SCOUT.replace("    quick_reference: false\n", "").replace(
        "ruleset: {title: Lone Scout}\n", "ruleset: {title: Lone Scout}\nvalues:\n  pace: {value: 6, label: Pace}\n"
    )
    house = "ruleset: {title: House scouting, extends: scout, overlay: true}\nvalues:\n  pace: {value: 7}\n"
    result = check_project(make_project(tmp_path, scout=marked, house=house))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    hint = overflow(quick_reference_sheet(result.project.ruleset("house")), PAPERS[0]).hint
    assert "`quick_reference: false` in the base" in hint  # the overlay's own words, kept
    assert "list them in a `sheets:` entry in the base" in hint and "tables: [foes, finds, nerve, ...]" in hint, hint
