"""A chart whose cells print words (a formula of text results: "Critical hit", "Miss") on a printed sheet: its words fit
their columns, however many, and no cell border runs through one (README: no drawn rule through a word).

A chart's numbers grow with its rows where the page leaves room; its words were grown the same way, and at thirteen
columns "Critical" came out wider than its cell, its borders through the word. Words keep a size their columns take
(`jobs.words_pt`, from the chart font's widths), and a word too wide even at the smallest breaks inside its cell.
Measured on the rendered PDF (tests/pdf_layout.py: the words' glyph boxes against the drawn rules).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import make_project
from pdf_layout import read_layout, words_across_rules

from generator.render.sheets.widths import word_em
from generator.validate import check_project

HOURS = 13  # a chart as wide as a deck's ranks
WATCHES = 16  # and wider
LONG_WORD = "Overwhelming"  # twelve letters: wider than a sixteenth of the page even in the smallest type

WORDS_CHART = f"""ruleset: {{title: A game}}
formulas:
  omen:
    title: What an omen foretells
    inputs:
      sign: {{label: Sign, type: text, choices: [north, east, south, west]}}
      hour: {{label: Hour, min: 1, max: {HOURS}}}
    expr: "('Critical hit' if hour > 10 else 'Hit') if sign == 'north' else 'Miss'"
    result: text
  tide:
    title: What a tide brings
    inputs:
      watch: {{label: Watch, min: 1, max: {WATCHES}}}
    expr: "'{LONG_WORD}' if watch > 12 else 'Calm'"
    result: text
  odds:
    title: Odds of a sign
    inputs: {{hour: {{label: Hour, min: 1, max: 3}}}}
    expr: chance(D6 > hour)
    result: chance
charts:
  omen_chart:
    title: Omens
    formula: omen
    rows: {{input: sign, values: [north, east, south, west]}}
    columns: {{input: hour, range: 1-{HOURS}}}
  tide_chart: {{title: Tides, formula: tide, columns: {{input: watch, range: 1-{WATCHES}}}}}
  odds_chart: {{title: Odds, formula: odds, columns: {{input: hour, range: 1-3}}}}
sheets:
  omens: {{title: Omens, charts: [omen_chart, tide_chart, odds_chart], layout: LAYOUT}}
"""


def words_sheet(tmp_path: Path, layout: str) -> Path:
    """The omens sheet of a project whose sheet is set in ``layout``, rendered on A4 (the narrower paper)."""
    from generator.render.pdf import render_pdf
    from generator.render.sheets.jobs import sheet_jobs

    result = check_project(make_project(tmp_path, game=WORDS_CHART.replace("LAYOUT", layout)))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    (job,) = [job for job in sheet_jobs(result.project, tmp_path / "out") if job.target.name == "game-omens-a4.pdf"]
    return render_pdf(job, tmp_path)


@pytest.mark.build  # renders a sheet for real in its body
@pytest.mark.parametrize("layout", ["grid", "wide", "stack"])
def test_a_charts_words_fit_their_columns_and_no_border_runs_through_one(tmp_path, layout):
    (page,) = read_layout(words_sheet(tmp_path, layout))
    crossed = [(word.text, round(word.box.left)) for word, _rule in words_across_rules(page)]
    assert crossed == []
    words = joined(word.text for word in page.words)
    # "Critical" fits a thirteenth of the page whole, in each of the three hours past the tenth
    assert words.count("Critical") == 3 and words.count("hit") == 3
    # "Overwhelming" does not fit a sixteenth even in the smallest type: it breaks inside its cell, every letter printed
    assert words.count(LONG_WORD) == WATCHES - 12


def joined(words) -> list[str]:
    """The words of a page with those broken at a line's end (a hyphen, and the rest on the next line) made whole."""
    found: list[str] = []
    broken = False
    for word in words:
        if broken:
            found[-1] = found[-1][:-1] + word
        else:
            found.append(word)
        broken = word.endswith(("\u2010", "-")) and len(word) > 1
    return found


def test_a_word_is_as_wide_as_the_chart_font_prints_it():
    """The widths a sheet plans its words by are the chart font's own (DejaVu Sans Condensed, print-base.css): read
    here from the installed font's metrics, letter by letter, regular and bold."""
    ttlib = pytest.importorskip("fontTools.ttLib")
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        pytest.skip("no fontconfig to find the chart font")
    for style, bold in (("", False), (":bold", True)):
        found = subprocess.run(
            [fc_match, "-f", "%{file}", f"DejaVu Sans Condensed{style}"], capture_output=True, text=True, check=False
        ).stdout
        if "DejaVuSansCondensed" not in found:
            pytest.skip("DejaVu Sans Condensed is not installed")
        font = ttlib.TTFont(found)
        glyphs, advances, em = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm
        for word in ("Critical", "Miss", "WAVE", "Überfall"):
            expected = sum(advances[glyphs[ord(c)]][0] for c in word.replace("Ü", "U")) / em  # Ü as wide as U
            assert word_em(word, bold) == pytest.approx(expected, abs=0.002), (word, bold)
