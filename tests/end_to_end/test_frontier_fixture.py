"""A game nobody wrote the engine for, built for real and read back (tests/fixtures/frontier).

Powder Smoke on the Frontier measures the table in feet and the artillery map in hexes, balances sides by
head-count (a mountain gun of no models `counts_as: guns`, its crew of 3), resolves a volley as one formula
of three results, names the brawl scores in its profile cells, and has a house overlay whose rider score of
2 (the text's 1½) changes the brawl example's result. One build, behind the wall as any build runs; every
expected value is worked by hand from the fixture's YAML:

* moves: foot 1 foot, riders 2 ft (printed "2 feet"), 3 feet together; a gun reaches 6 hexes;
* the river patrol: 2 rifles of 8 + 4 scouts + a gun of 0 + a crew of 3 = 23 of 24 agreed models,
  4 bands (2 + 1 + 1; the gun is no band), 1 gun; at most 4 // 2 = 2 guns, at least 1 crew;
* a volley hits on 3+ within 1 foot (2/3 a musket) and 4+ out to 3 feet (1/2): n muskets hit n·2/3 and n/2 times;
* two riders score 2 × 1½ = 3 in the text, 2 × 2 = 4 under the house rules.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pypdf
import pytest
from helpers import FIXTURES

FIXTURE = FIXTURES / "frontier"
POINTS_WORDS = re.compile(r"\b(points?|pts)\b", re.I)
# two riders score 2 × 1½ = 3 in the text, 2 × 2 = 4 under the house rules: the sentence prints the house score
HOUSE_BRAWL = "Two riders score 4 (house rule; the text: 3)."


def rulepress(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "RULEPRESS_WALL"}  # the wall as it defaults
    return subprocess.run(
        [sys.executable, "-m", "generator", "-C", str(project), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.fixture(scope="module")
def built(frontier_build) -> Path:
    return frontier_build


def page(build: Path, ruleset: str, name: str, site: str = "site") -> str:
    """A site page's text as its readers read it (players', or ``site``'s): tags, scripts and styles gone, spacing
    made single."""
    html = (build / site / ruleset / f"{name}.html").read_text(encoding="utf-8")
    html = re.sub(r"(?s)<(style|script)\b.*?</\1>", " ", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def pdf(build: Path, name: str) -> tuple[int, str]:
    reader = pypdf.PdfReader(build / name)
    return len(reader.pages), " ".join("".join(p.extract_text() for p in reader.pages).split())


def sentence_mark(text: str, sentence: str) -> str:
    """What follows ``sentence`` up to its folded code on the authors' site: the mark (or both results) with it."""
    after = text.split(sentence, 1)[1]
    return after.split("How this is checked", 1)[0]


# -- feet on the table, hexes on the map -------------------------------------------------------------------
def test_the_table_is_measured_in_feet_and_the_guns_in_hexes_on_every_page(built):
    numbers = page(built, "frontier", "values")
    for label, shown in [
        ("How far foot move in a turn", "1 foot"),
        ("How far riders move in a turn", "2 feet"),
        ("Close range of a musket", "1 foot"),
        ("Range of a musket", "3 feet"),
        ("How far a gun reaches on the hex grid", "6 hexes"),
    ]:
        assert f"{label} {shown} " in numbers
    moving = page(built, "frontier", "moving")
    assert "Foot move 1 foot in a turn and riders 2 feet" in moving
    assert "A rider moves 2 feet and a foot soldier 1 foot, 3 feet between them." in moving
    authors = page(built, "frontier", "moving", "site-author")
    assert "A rider moves 2 feet and a foot soldier 1 foot, 3 feet between them. ✓ checked" in authors
    assert "a gun reaches 6 hexes" in page(built, "frontier", "artillery")
    assert not re.search(r'\d"|\binch(es)?\b', numbers)  # a foot is never turned into inches


# -- the head-count army, a gun and its crew --------------------------------------------------------------
def test_the_army_page_gives_models_bands_and_guns_and_never_points(built):
    forces = page(built, "frontier", "forces")
    assert "2x Rifles 16 1x Scouts 4 1x Mountain gun 0 1x Gun crew 3" in forces
    assert "Models: 23 of 24 agreed. Units: 4 ; Guns: 1 ." in forces
    assert "No more than one gun for every two bands: 1 of at most 2" in forces
    assert "Each gun needs its crew: 1 of at least 1" in forces
    for ruleset in ("frontier", "frontier_house"):
        for name in ("index", "forces", "values"):
            assert not POINTS_WORDS.search(page(built, ruleset, name)), (ruleset, name)


def test_the_roster_has_an_agreed_models_box_and_the_patrol_and_no_points(built):
    _pages, roster = pdf(built, "handouts/frontier-roster-a4.pdf")
    blank, patrol = roster.split("The river patrol", 1)
    assert "Agreed models:" in blank
    assert "Agreed models: 24 Units: 4 Guns: 1" in patrol and "Models 23 of 24 agreed" in patrol
    assert not POINTS_WORDS.search(roster)
    _pages, booklet = pdf(built, "handouts/frontier-handout-a4.pdf")
    assert "Total models 23 of 24" in booklet and not POINTS_WORDS.search(booklet)


# -- a volley: one formula, three results -----------------------------------------------------------------
def test_the_volley_page_lists_its_three_results_and_charts_the_hits(built):
    shooting = page(built, "frontier", "shooting")
    assert "Depends on: Muskets firing, Distance to the target, Models in the target band." in shooting
    assert (
        "Gives: Roll to hit: the roll needed (4+) Hits on average: a number Chance the target breaks: a chance"
        in shooting
    )
    authors = page(built, "frontier", "shooting", "site-author")
    assert "needed — Roll to hit: the roll needed" in authors
    assert 'hits — Hits on average: a number ( volley(..., result="hits") )' in authors
    assert 'breaks — Chance the target breaks: a chance ( volley(..., result="breaks") )' in authors
    # n muskets at 1 foot hit n × 2/3 times, at 3 feet n × 1/2: the chart's rows, muskets 1 to 6
    hits = "1 ⅔ ½ 2 1⅓ 1 3 2 1½ 4 2⅔ 2 5 3⅓ 2½ 6 4 3"
    assert f"Muskets ↓ / Distance → 1 foot 3 feet {hits}" in shooting
    assert "need a 3+, hit 4 times on average and break the band 656 times in 729. ✓ checked" in authors
    _pages, sheet = pdf(built, "sheets/frontier-volley-sheet-a4.pdf")
    assert f"Muskets ↓ Distance → 1 foot 3 feet {hits}" in sheet


# -- a cell naming a value, and the Move column -----------------------------------------------------------
def test_a_cell_naming_a_score_prints_the_score_beside_the_move(built):
    rows = (
        "Troop type SCORE MODELS Move Special rules Rifles 1 8 1 foot — Scouts {} 4 2 feet — "
        "Mountain gun 0 0 1 foot — Gun crew 1 3 1 foot —"
    )
    assert rows.format("1½") in page(built, "frontier", "forces")
    assert rows.format("2 (house rule; the text: 1½)") in page(built, "frontier_house", "forces")
    _pages, quick = pdf(built, "sheets/frontier-quick-reference-a4.pdf")
    assert "Troop type SCORE MODELS Move Rifles 1 8 1 foot Scouts 1½ 4 2 feet" in quick
    _pages, cards = pdf(built, "handouts/frontier-cards-a4.pdf")
    assert "Scouts SCORE 1½ MODELS 4 Move 2 feet" in cards


# -- the house rules change an example's result -----------------------------------------------------------
def test_the_overlay_prints_its_own_brawl_score_and_never_checks_that_sentence(built):
    assert sentence_mark(page(built, "frontier", "brawls", "site-author"), "Two riders score 3.").strip() == "✓ checked"
    house = page(built, "frontier_house", "brawls", "site-author")
    assert HOUSE_BRAWL in house and HOUSE_BRAWL in page(built, "frontier_house", "brawls")
    assert "✓" not in sentence_mark(house, HOUSE_BRAWL) and "these house rules" not in sentence_mark(house, HOUSE_BRAWL)
    assert "each rider 2 (house rule; the text: 1½)" in house
    # the patrol's sentence reads no rider score: true under the house rules too, so checked there
    forces = page(built, "frontier_house", "forces", "site-author")
    assert sentence_mark(forces, "and breaks no limit.").strip() == "✓ checked"


def test_the_house_booklet_and_quick_reference_show_the_house_result_and_value(built):
    _pages, booklet = pdf(built, "handouts/frontier_house-handout-a4.pdf")
    assert HOUSE_BRAWL in booklet
    assert "✓" not in booklet.split(HOUSE_BRAWL, 1)[1].split("Source:", 1)[0]
    _pages, quick = pdf(built, "sheets/frontier_house-quick-reference-a4.pdf")
    assert "What a rider scores in a brawl 2 (house rule; the text: 1½)" in quick


def test_each_quick_reference_is_one_page(built):
    for ruleset in ("frontier", "frontier_house"):
        for paper in ("a4", "letter"):
            pages, _text = pdf(built, f"sheets/{ruleset}-quick-reference-{paper}.pdf")
            assert pages == 1, (ruleset, paper)


def test_check_names_the_example_the_house_rules_change(built):
    done = rulepress(built.parent, "check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "frontier: 6 examples, all pass",
        "frontier_house: 6 examples, 5 pass, 1 gives another result under its house values (rules.brawls)",
        "2 rulesets, 0 tables, 8 profile rows, 12 examples, 0 errors",
    ]
