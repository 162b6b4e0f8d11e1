"""A chart of a formula's chance: a chance of 0 the formula gives prints 0%, as the format reference says (only a
`None` is impossible), unless the chart writes its `impossible:` word; and a chart whose lower chances are the better
(`better: lower`, a chance of dying) prints those in bold, and its legend, printed and on the site, says so.

Chances expected here are counted over a D6's faces, never read from the code.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import make_project
from pypdf import PdfReader

from generator.render.markdown import cell_md, chart_md, tone_key_md
from generator.render.pdf import render_pdf
from generator.render.sheets.jobs import PAPERS, sheet_html, sheet_jobs, sheet_pages, sheets
from generator.validate import check_project

GAME = """\
ruleset: {title: Lone Scout}
tables:
  hurt:
    title: Hurt
    dice: D6 + grit
    rows:
      - {roll: 0-, result: Lost}
      - {roll: 1-6, result: Limping}
      - {roll: 7+, result: Unharmed}
formulas:
  lost:
    title: Chance of being lost
    inputs: {grit: {label: Grit, min: -3, max: 3}}
    expr: chance(hurt(D6 + grit) == "Lost")
    result: chance
charts:
  lost_chart:
    title: Chance of being lost
    formula: lost
    columns: {input: grit, range: -3-3}
  lost_lower:
    title: Chance of being lost, lower the better
    formula: lost
    better: lower
    columns: {input: grit, range: -3-3}
  lost_word:
    title: Chance of being lost, called safe
    formula: lost
    impossible: safe
    columns: {input: grit, range: -3-3}
sheets:
  lower:
    title: Lower is better
    charts: [lost_lower]
  impossible:
    title: Impossible
    charts: [lost_word]
  higher:
    title: Higher is better
    charts: [lost_chart]
"""


def lost(grit: int) -> str:
    """The chance a D6 + grit rolls 0 or less, counted over the faces, as a chart prints it."""
    chance = Fraction(sum(face + grit <= 0 for face in range(1, 7)), 6)
    return f"{float(chance) * 100:.1f}".removesuffix(".0") + "%"


GRITS = range(-3, 4)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    result = check_project(make_project(tmp_path_factory.mktemp("game"), game=GAME))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project


def cells(game, chart_id: str):
    from generator.render.sheets.charts import chart_from_model

    return chart_from_model(game.ruleset("game"), game.ruleset("game").chart(chart_id))


def test_a_chance_of_0_a_formula_gives_prints_0_percent_not_the_impossible_word(game):
    assert [lost(g) for g in GRITS] == ["50%", "33.3%", "16.7%", "0%", "0%", "0%", "0%"]
    row = cells(game, "lost_chart").rows[0].cells
    assert [c.text or c.chance for c in row] == [lost(g) for g in GRITS]
    assert [c.tone for c in row[3:]] == ["poor"] * 4  # a chance of 0 is a poor one, never hatched "cannot succeed"


def test_a_chart_that_writes_its_impossible_word_prints_it_for_a_chance_of_0(game):
    row = cells(game, "lost_word").rows[0].cells
    assert [c.text for c in row[3:]] == ["safe"] * 4 and {c.tone for c in row[3:]} == {"none"}
    assert [c.chance for c in row[:3]] == [lost(g) for g in (-3, -2, -1)]


def test_a_chart_whose_lower_chances_are_better_bolds_them_on_the_site_and_says_so(game):
    chart = cells(game, "lost_lower")
    # 50% is between; 1 in 3 or less (33.3%, 16.7%, 0%) is the good end of a chance of harm
    assert [c.tone for c in chart.rows[0].cells] == ["even"] + ["good"] * 6
    assert cell_md(chart.rows[0].cells[1]) == "**33\\.3%**" and cell_md(chart.rows[0].cells[0]) == "50%"
    assert tone_key_md(chart) == "**Bold**: a chance of 1 in 3 or less \\(lower is better\\)."
    page = sheet_pages(game, "player")["game-lower"]
    assert "**Bold**: a chance of 1 in 3 or less \\(lower is better\\)." in page
    assert "2 in 3 or better" not in chart_md(chart)


def test_a_chart_whose_higher_chances_are_better_keeps_its_key(game):
    assert tone_key_md(cells(game, "lost_chart")) == ""  # no chance of 2 in 3: nothing in bold
    assert "or better" not in tone_key_md(cells(game, "lost_lower"))


def legend(game, sheet_name: str) -> str:
    """The words of a sheet's printed legend, as its HTML gives them."""
    sheet = next(s for s in sheets(game) if s.name == f"game-{sheet_name}")
    table = re.search(r'<table class="legend">(.*?)</table>', sheet_html(sheet, PAPERS[0], game), re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", table.group(1)).split()) if table else ""


def test_a_legend_without_its_bold_or_italic_entry_says_what_plain_is_between(game):
    # lost_chart: 50% is plain, 33.3% and below italic, nothing at 2 in 3: no bold entry to be between
    assert legend(game, "higher") == "Aa plain: between 1 in 3 and 2 in 3 Aa italic: 1 in 3 or worse"
    # lost_lower: 50% is plain, 33.3% and below bold (lower is better), nothing at 2 in 3: no italic entry
    assert legend(game, "lower") == (
        "Aa bold on grey: 1 in 3 or less (lower is better) Aa plain: between 1 in 3 and 2 in 3"
    )


@pytest.fixture(scope="module")
def printed(game, tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("printed")
    jobs = [job for job in sheet_jobs(game, out) if job.target.name.endswith("-a4.pdf")]
    return {
        job.target.name: " ".join(PdfReader(render_pdf(job, Path(game.root))).pages[0].extract_text().split())
        for job in jobs
        if "quick-reference" not in job.target.name
    }


@pytest.mark.build
def test_a_printed_chart_of_a_chance_of_harm_prints_0_percent_and_a_legend_of_lower_is_better(printed):
    text = printed["game-lower-a4.pdf"].replace("\u2212", "-")
    assert " ".join(lost(g) for g in GRITS) in text, text
    assert "bold on grey: 1 in 3 or less (lower is better)" in text, text
    assert "no effect" not in text and "cannot succeed" not in text and "1 in 3 or worse" not in text, text


@pytest.mark.build
def test_a_printed_chart_hatches_only_what_its_formula_calls_impossible(printed):
    text = printed["game-impossible-a4.pdf"].replace("\u2212", "-")
    assert " ".join([lost(g) for g in (-3, -2, -1)] + ["safe"] * 4) in text, text
    assert "hatched: cannot succeed" in text and "italic: 1 in 3 or worse" in text, text
