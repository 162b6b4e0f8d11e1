"""Cheat sheets rendered to PDF and read back; their site pages; the chart data behind both.

Every sheet is rendered once per module in both paper sizes with
``render_all(workers=2)``, then read back with pypdf: one page, the paper size,
embedded fonts, no text under 7 pt or inside the 10 mm margin, and the numbers the
mechanics compute — every cell of the to-hit and to-wound charts, every row of the
armour, shooting and Rampant Hex charts — computed here from the mechanics, never
typed. Game-master-only victory points never reach a player sheet or page.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.mechanics import fantasy, rampant_hex, shellendrak
from generator.model.dice import percent
from generator.render.pdf import render_all
from generator.render.sheets import PAPERS, Sheet, sheet_html, sheet_jobs, sheet_pages, sheets
from generator.render.sheets_charts import Cell, Chart, Row
from generator.render.sheets_pages import chart_md
from generator.render.sheets_quickref import quick_reference
from generator.source.project import Project
from generator.validate import check_project

ROOT = Path(__file__).resolve().parents[1]
MM = 72 / 25.4
SIZES = {"a4": (595, 842), "letter": (612, 792)}
STATS = range(1, 11)


def normalise(text: str) -> str:
    return " ".join(text.replace("\u2010", "-").replace("\u2011", "-").replace("\u00ad", "").replace("\u00a0", " ").split())


def loadable_project() -> Project:
    """The rulesets that pass `rulepress check` right now (others may be mid-edit)."""
    rulesets = []
    for folder in sorted((ROOT / "rules_src").iterdir()):
        if folder.is_dir() and not folder.name.startswith((".", "_")):
            result = check_project(ROOT, only=folder.name)
            if result.ok:
                rulesets.extend(result.project.rulesets)
    return Project(ROOT.resolve(), tuple(rulesets))


@pytest.fixture(scope="module")
def project() -> Project:
    project = loadable_project()
    for needed in ("rampant_hex", "ordo_ineptus"):
        if needed not in {r.id for r in project.rulesets}:
            pytest.skip(f"{needed} has check errors right now")
    return project


@pytest.fixture(scope="module")
def rendered(project, tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("sheets")
    jobs = sheet_jobs(project, out)
    render_all(jobs, ROOT, workers=2)
    return {job.target.name: job.target for job in jobs}


@pytest.fixture(scope="module")
def texts(rendered) -> dict[str, str]:
    return {name: normalise(" ".join(page.extract_text() for page in PdfReader(path).pages))
            for name, path in rendered.items()}


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


def target_cell(target: int | None, impossible: str) -> str:
    return impossible if target is None else f"{target}+ {shown_chance(fantasy.target_chance(target))}"


def to_hit_rows() -> list[str]:
    return [f"{a} " + " ".join(target_cell(fantasy.to_hit_melee(a, d), "") for d in STATS) for a in STATS]


def to_wound_rows() -> list[str]:
    return [f"{s} " + " ".join(target_cell(fantasy.to_wound(s, t), "no effect") for t in STATS) for s in STATS]


def armour_rows(**how) -> list[str]:
    return [f"{base}+ " + " ".join(target_cell(fantasy.armour_save(base, s, **how), "no save") for s in STATS)
            for base in range(2, 7)]


SHOOTING_COLUMNS = [(), ("cover",), ("moving",), ("long range",), ("large target",), ("cover", "moving"),
                    ("cover", "long range"), ("moving", "long range"), ("cover", "moving", "long range"),
                    ("large target", "cover"), ("large target", "long range")]


def shooting_rows() -> list[str]:
    def cell(bs, mods):
        chance = fantasy.shooting_chance(bs, *mods)
        return "cannot hit" if chance == 0 else f"{fantasy.to_hit_shooting(bs, *mods)}+ {shown_chance(chance)}"
    return [f"{bs} " + " ".join(cell(bs, mods) for mods in SHOOTING_COLUMNS) for bs in STATS]


def two_places(value: Fraction) -> str:
    text = f"{float(round(value, 2)):.2f}"
    return text.rstrip("0").rstrip(".")


def rampant_hex_rows() -> dict[str, list[str]]:
    return {
        "expected hits": [f"{a} " + " ".join(two_places(rampant_hex.expected_hits(a, armour)) for armour in range(1, 6))
                          for a in range(1, 7)],
        "a hit": [f"{a} " + " ".join(shown_chance(rampant_hex.chance_of_a_hit(a, armour)) for armour in range(1, 6))
                  for a in range(1, 7)],
        "moral": [f"{m} " + " ".join("cannot pass" if (p := rampant_hex.moral_pass_chance(m, h)) == 0 else shown_chance(p)
                                     for h in range(0, 7)) for m in range(1, 7)],
    }


# -- what exists -----------------------------------------------------------------------------------------
def test_every_sheet_in_both_sizes(project, tmp_path):
    names = {job.target.name for job in sheet_jobs(project, tmp_path)}
    stems = {"fantasy-to-hit", "fantasy-to-wound", "fantasy-armour-saves", "fantasy-shooting",
             "rampant_hex-combat-odds", "ordo_ineptus-victory-points", "ordo_ineptus-victory-points-gm"}
    stems |= {f"{r.id}-quick-reference" for r in project.rulesets}
    assert names == {f"{stem}-{paper}.pdf" for stem in stems for paper in ("a4", "letter")}


def test_jobs_point_inside_the_project(project, tmp_path):
    for job in sheet_jobs(project, tmp_path):
        assert job.target.parent == tmp_path
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
            yield str(font.get("/BaseFont")), any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def text_runs(page):
    """(x, y, size in pt) where each run of text starts, in page coordinates."""
    runs = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            a, b, c, d, e, f = tm
            A, B, C, D, E, F = cm
            x, y = e * A + f * C + E, e * B + f * D + F
            scale = math.hypot(c * A + d * C, c * B + d * D)
            runs.append((x, y, size * scale))

    page.extract_text(visitor_text=visit)
    return runs


def test_one_page_paper_size_fonts_margins(rendered):
    problems = []
    for name, path in sorted(rendered.items()):
        reader = PdfReader(path)
        width, height = SIZES[name.rsplit("-", 1)[1].removesuffix(".pdf")]
        if len(reader.pages) != 1:
            problems.append(f"{name}: {len(reader.pages)} pages")
        box = reader.pages[0].mediabox
        if abs(float(box.width) - width) > 1 or abs(float(box.height) - height) > 1:
            problems.append(f"{name}: page {float(box.width)}x{float(box.height)}")
        unembedded = [font for font, embedded in fonts(reader) if not embedded]
        if unembedded:
            problems.append(f"{name}: fonts not embedded: {unembedded}")
        runs = text_runs(reader.pages[0])
        small = {round(size, 2) for _x, _y, size in runs if size < 7 - 0.01}
        if small:
            problems.append(f"{name}: text below 7 pt: {sorted(small)}")
        outside = [(round(x), round(y)) for x, y, _s in runs
                   if not (10 * MM <= x <= width - 10 * MM and 10 * MM <= y <= height - 10 * MM)]
        if outside:
            problems.append(f"{name}: text inside the 10 mm margin at {outside[:3]}")
    assert not problems, "\n".join(problems)


def test_every_sheet_states_source_and_computation(texts, project):
    for name, text in texts.items():
        assert "Source: " in text, name
        assert "Numbers computed by Rulepress" in text, name
    for text in both(texts, "fantasy-to-wound") + both(texts, "fantasy-to-hit") + both(texts, "fantasy-shooting"):
        assert "Warhammer Fantasy chart, as used by Ordo Ineptus" in text
        assert "§ Shooting Phase" in text
    for text in both(texts, "fantasy-armour-saves"):
        assert "§ Armor" in text


# -- the charts hold what the mechanics compute -----------------------------------------------------------
def test_to_hit_chart_every_cell(texts):
    for text in both(texts, "fantasy-to-hit"):
        for row in to_hit_rows():
            assert row in text


def test_to_wound_chart_every_cell_with_no_effect(texts):
    for text in both(texts, "fantasy-to-wound"):
        for row in to_wound_rows():
            assert row in text
        assert "no effect" in text


def test_armour_chart_rows_with_and_without_armour_piercing(texts):
    for text in both(texts, "fantasy-armour-saves"):
        for row in armour_rows() + armour_rows(armour_piercing=True):
            assert row in text
        # the text's own example: a 4+ save is a 5+ against Strength 4, 6+ against 5, nothing from 6
        four_up = armour_rows()[2].split()
        assert four_up[:11] == ["4+", "4+", "50%", "4+", "50%", "4+", "50%", "5+", "33.3%", "6+", "16.7%"]


def test_critical_armour_rows(texts):
    rows = [f"{base}+ " + " ".join(target_cell(shellendrak.critical_armour_save(base, s, roll=1), "no save")
                                   for s in STATS) for base in range(2, 7)]
    for text in both(texts, "fantasy-armour-saves"):
        for row in rows:
            assert row in text


def test_shooting_chart_every_row(texts):
    for text in both(texts, "fantasy-shooting"):
        for row in shooting_rows():
            assert row in text
        for name in fantasy.SHOOTING_MODIFIERS:
            assert name in text


def test_rampant_hex_odds(texts):
    for text in both(texts, "rampant_hex-combat-odds"):
        for rows in rampant_hex_rows().values():
            for row in rows:
                assert row in text


def test_command_unit_reads_the_next_row_down():
    """The moral chart's note: a command unit's extra die is one more MORAL die."""
    for moral in range(1, 6):
        for markers in range(0, 7):
            assert (rampant_hex.moral_pass_chance(moral, markers, extra_dice=1)
                    == rampant_hex.moral_pass_chance(moral + 1, markers))


def test_no_chance_prints_as_certain_unless_it_is():
    assert shown_chance(rampant_hex.chance_of_a_hit(6, 1)) == ">99.9%"
    assert shown_chance(rampant_hex.moral_pass_chance(3, 0)) == "100%"


# -- victory points ------------------------------------------------------------------------------------------
def test_player_checklist_never_names_gm_only_points(project, texts):
    ruleset = project.ruleset("ordo_ineptus")
    secret = [v for v in ruleset.victory_points if v.gm_only]
    public = [v for v in ruleset.victory_points if not v.gm_only]
    assert secret, "the Shellendrak text has hidden tasks"
    for text in both(texts, "ordo_ineptus-victory-points"):
        for entry in secret:
            assert entry.name.casefold() not in text.casefold()
            assert normalise(entry.condition)[:40] not in text
        for entry in public:
            assert entry.name in text
        assert "Hidden task" in text
    for text in both(texts, "ordo_ineptus-victory-points-gm"):
        for entry in secret + public:
            assert entry.name in text


def test_checklist_gaps_are_boxes_not_numbers(project, texts):
    """No points are given in 000, so no points value may print: every box is blank."""
    ruleset = project.ruleset("ordo_ineptus")
    assert all(v.points.__class__.__name__ == "NotGiven" for v in ruleset.victory_points)
    for text in both(texts, "ordo_ineptus-victory-points") + both(texts, "ordo_ineptus-victory-points-gm"):
        body = text.split("Source:")[0]
        assert "Total victory points" in body
        assert not any(word.isdigit() for word in body.split())


# -- quick references -----------------------------------------------------------------------------------------
def test_quick_reference_tables_with_their_odds(project, texts):
    for ruleset in project.rulesets:
        for text in both(texts, f"{ruleset.id}-quick-reference"):
            for phase in ruleset.phases:
                if phase.audience != "gm":
                    assert normalise(phase.title) in text
            for table in ruleset.tables:
                if table.audience == "gm":
                    assert table.title not in text
                    continue
                assert table.title in text
                if table.ranges_given and not table.dice.stats:
                    for row, chance in table.odds():
                        assert f"{row.roll} {normalise(row.result)}" in text
                        assert shown_chance(chance) in text
                else:
                    assert "not given in the source" in text


def test_missing_roll_ranges_show_the_gap(project, texts):
    if "city_of_the_damned_combat" not in {r.id for r in project.rulesets}:
        pytest.skip("city_of_the_damned_combat has check errors right now")
    table = project.ruleset("city_of_the_damned_combat").table("injury")
    assert not table.ranges_given
    for text in both(texts, "city_of_the_damned_combat-quick-reference"):
        assert text.count("not given in the source") >= len(table.rows)


def test_quick_reference_mechanic_numbers(texts):
    for text in both(texts, "ordo_ineptus-quick-reference"):
        assert " ".join(shown_chance(shellendrak.casting_chance(d)) for d in range(3, 8)) in text
        assert " ".join(shown_chance(shellendrak.search_success_chance(n)) for n in range(1, 7)) in text
        assert f"{shellendrak.PLAYER_TIMER_MINUTES} minutes" in text


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
    assert "Hidden tasks" in gm["ordo_ineptus-victory-points"]


def test_pages_hold_the_charts_as_pipe_tables(project):
    pages = sheet_pages(project, "player")
    wound = pages["fantasy-to-wound"]
    assert wound.startswith("# To\\-wound chart")
    assert "| **3** | **2\\+ (83\\.3%)** | **3\\+ (66\\.7%)** | 4\\+ (50%) | 5\\+ (33\\.3%) | 6\\+ (16\\.7%) | *no effect* |" in wound
    assert "{source}`Warhammer Fantasy chart, as used by Ordo Ineptus" in wound
    quick = pages["rampant_hex-quick-reference"]
    assert "| 1\\-2 | 2 activations | 33\\.3% |" in quick


def test_page_text_is_escaped():
    chart = Chart("<script>x</script>", "a|b", "*c*", ("[1](javascript:x)",), (Row("`r`", (Cell("<b>", "50%"),)),))
    text = chart_md(chart)
    assert "<script>" not in text and "<b>" not in text and "](" not in text
    assert "\\<script\\>" in text and "a\\|b" in text


# -- templates ------------------------------------------------------------------------------------------------
def test_templates_escape_data_text(project):
    evil = Sheet("evil", "evil", "<script>alert(1)</script>", "sheets/charts.html.j2", ("<img src=x>",),
                 {"charts": (Chart("<i>t</i>", "<b>", "<u>", ("<s>",), (Row("<r>", (Cell("<c>", "50%"),)),),
                                   notes=("<n>",)),), "extras": ("<e>",)}, subtitle="<sub>")
    html = sheet_html(evil, PAPERS[0], project)
    for tag in ("<script>", "<img", "<i>t", "<b>", "<u>", "<s>", "<r>", "<c>", "<n>", "<e>", "<sub>"):
        assert tag not in html
    assert "&lt;script&gt;" in html


def test_sheets_are_grouped_by_page_name(project):
    every = sheets(project)
    assert len({s.name for s in every}) == len(every)
    gm = [s for s in every if s.audience == "gm"]
    assert gm and all(s.name.endswith("-gm") and any(p.page == s.page and p.audience == "player" for p in every)
                      for s in gm)


def test_downloads_list_no_gm_sheet_for_players(project, tmp_path):
    from generator.render.sheets import sheet_downloads

    player, gm = sheet_downloads(project, "player"), sheet_downloads(project, "gm")
    player_files = {href for links in player.values() for _title, href in links}
    gm_files = {href for links in gm.values() for _title, href in links}
    assert not any("-gm-" in href for href in player_files)
    assert {f"sheets/{job.target.name}" for job in sheet_jobs(project, tmp_path)} == gm_files
    assert "sheets/ordo_ineptus-victory-points-gm-letter.pdf" in {h for _t, h in gm["ordo_ineptus"]}
    assert all(href.startswith("sheets/fantasy-") for _t, href in player[""])
