"""Rosters and cards to play with, rendered to PDF once and read back.

The Rampant Hex roster and card sheets are rendered once per run (both papers, player audience, by the shared
`rulepress build --audience player`: tests/conftest.py ``player_build``) and read back with pypdf (text, and each
piece of text's position and size in points) and pypdfium2 (pixels). Expected names and numbers are written by
hand from the source text (/work/shared/seeds/004_7d410289ba4fa7f8.txt); the card geometry
(63 x 88 mm cards, 3 x 3 centred on the page) is worked out by hand below.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
import yaml
from helpers import sample_check
from pdf_layout import Box, read_layout, squares
from pdf_text import Page

from generator.diagnostics import Code
from generator.render.handouts.jobs import handout_jobs
from generator.source.project import Project
from generator.validate import check_project

ROOT = Path(__file__).resolve().parents[3]
MM = 72 / 25.4  # points per millimetre

# Rulesets in rules_src whose data has profile matrices (and so get a blank roster), by hand: Rampant Hex, and the
# club's house rules, which extend it and so play with its troops.
WITH_PROFILES = {"rampant_hex", "rampant_hex_house"}
WITHOUT_PROFILES = {"bad_moon_rising", "city_of_the_damned_combat", "ordo_ineptus", "warhammer_fantasy_charts"}

# From the source: "Each of these Hero types cost 2pts each" (low level) and the high level heroes at 5 pts.
HEROES = {
    "Warrior hero": 2,
    "The brave Commander": 2,
    "Warrior Priest": 2,
    "The swift Ranger": 2,
    "The Legendary Warrior": 5,
    "The High Commander": 5,
    "The High Priest": 5,
    "Expert Ranger": 5,
}
# From the source's spell table: "Roll 1D6 for each scroll", one spell for each result.
SPELLS = {
    "Olde reddes mystte": 1,
    "Callahannes cloudee of confusieon": 2,
    "Dolcivanians domee of protectieon": 3,
    "Hallicians hail of deathe": 4,
    "Sorcreenes spelle of inexplicable speede": 5,
    "Bollocs brandee of bravery insannee": 6,
}
TROOPS = ("Light foot", "Heavy foot", "Skirmishers", "Monsters", "Levy", "Light riders", "Artillery")
# Cards: 63 x 88 mm, 3 x 3, centred. A4: (210 - 189) / 2 = 10.5 mm, (297 - 264) / 2 = 16.5 mm;
# US Letter: (215.9 - 189) / 2 = 13.45 mm, (279.4 - 264) / 2 = 7.7 mm.
CARD_ORIGIN = {"a4": (10.5, 16.5), "letter": (13.45, 7.7)}
CARD_W, CARD_H = 63.0, 88.0


def words(text: str) -> str:
    return " ".join(text.replace("\u00ad", "").split())


def pieces(page: Page) -> list[dict]:
    """Each piece of text on a page with its position (mm from the top left) and its size in points."""
    found = []
    for piece in page.pieces:
        cm, tm = piece.cm, piece.tm
        a, b = tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3]
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        found.append(
            {"text": words(piece.text), "x": x / MM, "y": (page.height - y) / MM, "size": piece.size * math.hypot(a, b)}
        )
    return found


@pytest.fixture(scope="module")
def project() -> Project:
    rulesets = []
    for id in ("rampant_hex", "rampant_hex_house"):
        result = sample_check(id)
        assert result.ok, [d.format() for d in result.diagnostics.errors]
        rulesets += [r for r in result.project.rulesets if r.id == id]
    return Project(ROOT, tuple(rulesets))


@pytest.fixture(scope="module")
def pdfs(project, player_build) -> dict[str, Path]:
    """The Rampant Hex rosters and cards (both papers) and the house rules' A4 roster, as `rulepress build` rendered
    them: file name -> PDF."""
    jobs = [
        j
        for j in handout_jobs(project, player_build / "handouts", "player")
        if "-handout-" not in j.target.name
        and (j.target.name.startswith("rampant_hex-") or j.target.name == "rampant_hex_house-roster-a4.pdf")
    ]
    assert all(j.target.is_file() for j in jobs), [j.target.name for j in jobs if not j.target.is_file()]
    return {j.target.name: j.target for j in jobs}


@pytest.fixture(scope="module")
def read(pdfs, read_pdfs) -> dict[str, list[dict]]:
    """File name -> per page: its text and its pieces."""
    return {
        path.name: [{"text": words(page.text), "pieces": pieces(page)} for page in pdf.pages]
        for path, pdf in read_pdfs(pdfs.values()).items()
    }


# -- which rulesets get rosters and cards ------------------------------------------------------------
def test_a_roster_for_each_ruleset_with_profiles_and_none_for_the_others():
    result = sample_check()  # every ruleset of rules_src/ checked, each with what it extends
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    seen = set()
    for folder in sorted((ROOT / "rules_src").iterdir()):
        if not folder.is_dir() or folder.name.startswith((".", "_")):
            continue
        for ruleset in result.project.rulesets:
            if ruleset.id != folder.name:
                continue
            names = {
                j.target.name
                for j in handout_jobs(result.project, Path("/nonexistent"), "player", rulesets={ruleset.id})
                if j.target.name.startswith(ruleset.id + "-")
            }
            has_roster = f"{ruleset.id}-roster-a4.pdf" in names
            assert has_roster == (ruleset.id in WITH_PROFILES), ruleset.id
            seen.add(ruleset.id)
    assert seen == WITH_PROFILES | WITHOUT_PROFILES


# -- the blank roster ---------------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_blank_roster_comes_first_with_movement_and_tracking_boxes(read, paper):
    pages = read[f"rampant_hex-roster-{paper}.pdf"]
    first = pages[0]["text"]
    assert "Blank army roster" in first
    # the matrix's own columns and points, then movement, then what the data says units track
    assert "ATTACK ARMOUR MORAL Move" in first
    # "6 works well for a 50 point game": the Activated boxes are numbered by turn
    for heading in ("PTS", "Activated turn 1 2 3 4 5 6", "Hit markers"):
        assert heading in first, heading
    blank = " ".join(p["text"] for p in pages[:2])
    # movement from the rules: "up to 2 hexes, or 3 if they are riders"
    assert "Move: 2 hexes; Light riders 3 hexes." in blank
    # the army limits, costs and heroes to build by, printed from the data
    assert "Never more heroes than half the units in the force, rounding down" in blank
    assert "Appeal to the S.T.P.W.T. for scrolls (once for the force) 4" in blank
    assert "Command unit (on top of the unit) 3" in blank
    for troop, points in (("Light foot", 4), ("Heavy foot", 5), ("Skirmishers", 4), ("Monsters", 6), ("Levy", 2)):
        assert f"{troop} {points} 2 hexes" in blank, troop
    assert "Light riders" in blank and "3 hexes" in blank
    for hero, points in HEROES.items():
        assert f"{hero} {points}" in blank, hero
    # the sample list follows the blank roster, with movement and the same tracking columns
    sample = next(p["text"] for p in pages if "A 30 point force" in p["text"])
    assert pages.index(next(p for p in pages if "A 30 point force" in p["text"])) >= 1
    assert "Move" in sample and "Activated turn 1 2 3 4 5 6" in sample and "Hit markers" in sample
    assert "2× Light foot (4 pts)" in sample and "2 hexes" in sample


def band_of(box: Box, bands: list[float]) -> int:
    middle = (box.top + box.bottom) / 2
    return min(range(len(bands)), key=lambda index: abs(bands[index] - middle))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_unit_ticks_activated_once_a_turn_and_its_hits_in_boxes(pdfs, paper):
    """004: "Once a unit has activated place an activation marker ... They may not activate again until next turn"
    and "6 works well for a 50 point game": each unit gets a box for each of 6 turns, under its turn's number;
    "Place a hit marker ... for each hit caused" sets no most: boxes to tick, as many for every unit. Counted from
    the boxes drawn on the page; the text's sample force is 2 light foot, 2 heavy foot, skirmishers, monsters and
    levy: 7 units."""
    measured = {}
    for page in read_layout(pdfs[f"rampant_hex-roster-{paper}.pdf"]):
        text = " ".join(word.text for word in page.words)
        if "Blank army roster" not in text and "A 30 point force" not in text:
            continue
        turn = next(word.box for word in page.words if word.text == "turn")
        numbers = sorted(
            (
                word.box
                for word in page.words
                if word.text.isdigit()
                and turn.bottom - 1 <= word.box.top <= turn.bottom + 12
                and abs(word.box.left - turn.left) < 20 * MM
            ),
            key=lambda box: box.left,
        )
        assert len(numbers) == 6, numbers
        drawn = squares(page, 2 * MM, 6 * MM)
        activated = [b for b in drawn if numbers[0].left - 2 * MM < b.left and b.right < numbers[-1].right + 2 * MM]
        hits = [b for b in drawn if b.left > numbers[-1].right + 2 * MM]
        bands = sorted({round((b.top + b.bottom) / 2, 1) for b in activated})
        for band in bands:
            row = [b for b in activated if round((b.top + b.bottom) / 2, 1) == band]
            assert len(row) == 6, (paper, band, len(row))
            for number in numbers:  # each turn's number stands over one box of the row
                middle = (number.left + number.right) / 2
                assert sum(b.left <= middle <= b.right for b in row) == 1, (paper, band, middle)
        tally = [sum(band_of(b, bands) == index for b in hits) for index in range(len(bands))]
        assert len(set(tally)) == 1 and tally[0] >= 5, tally
        measured["blank" if "Blank army roster" in text else "sample"] = len(bands)
    # a blank roster has lines for at least as many units as the text's own force
    assert measured["sample"] == 7 and measured["blank"] >= 7, measured


def test_the_house_rules_roster_moves_riders_by_the_house_value(read):
    blank = " ".join(p["text"] for p in read["rampant_hex_house-roster-a4.pdf"][:2])
    # rules_src/rampant_hex_house: riders move 4 hexes in the club's game; the text says 3
    assert "Move: 2 hexes; Light riders 4 hexes (house rule; the text: 3 hexes)." in blank


# -- cards --------------------------------------------------------------------------------------------
def card_of(piece: dict, paper: str) -> tuple[int, int]:
    left, top = CARD_ORIGIN[paper]
    return int((piece["x"] - left) // CARD_W), int((piece["y"] - top) // CARD_H)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_hero_cards_with_their_cost_in_the_badge(read, paper):
    pages = read[f"rampant_hex-cards-{paper}.pdf"]
    text = " ".join(p["text"] for p in pages)
    for hero, cost in HEROES.items():
        level = "LOW LEVEL HERO" if cost == 2 else "HIGH LEVEL HERO"
        assert f"{level} {hero}" in text, hero
        assert f"Cost: {cost} points on top of the unit it joins" in text
        page = next(p for p in pages if hero in p["text"])
        title = next(piece for piece in page["pieces"] if hero.startswith(piece["text"]) and piece["size"] >= 11)
        badge = [
            piece
            for piece in page["pieces"]
            if piece["text"] == str(cost) and piece["size"] >= 14 and card_of(piece, paper) == card_of(title, paper)
        ]
        assert badge, hero


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_spell_cards_carry_their_number_in_a_corner_badge(read, paper):
    pages = read[f"rampant_hex-cards-{paper}.pdf"]
    left, top = CARD_ORIGIN[paper]
    for spell, roll in SPELLS.items():
        page = next(p for p in pages if spell in p["text"])
        title = next(piece for piece in page["pieces"] if spell.startswith(piece["text"]) and piece["size"] >= 11)
        column, row = card_of(title, paper)
        badge = [
            piece
            for piece in page["pieces"]
            if piece["text"] == str(roll) and piece["size"] >= 14 and card_of(piece, paper) == (column, row)
        ]
        assert len(badge) == 1, spell
        # in the top right corner: the right third of the card, its top 15 mm
        assert badge[0]["x"] > left + column * CARD_W + 2 * CARD_W / 3, spell
        assert badge[0]["y"] < top + row * CARD_H + 15, spell
        label = [piece for piece in page["pieces"] if piece["text"] == "D6" and card_of(piece, paper) == (column, row)]
        assert label, spell


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_sheet_of_cards_is_followed_by_its_backs_mirrored(read, paper):
    pages = read[f"rampant_hex-cards-{paper}.pdf"]
    assert len(pages) == 6  # 6 spells, 8 heroes, 7 troop types: 21 cards, 3 sheets, each with its back
    for index in (1, 3, 5):
        back = pages[index]
        assert not any(name in back["text"] for name in [*HEROES, *SPELLS, *TROOPS])
        assert back["text"].count("Blood, Guts and") == len(
            [
                p
                for p in pages[index - 1]["pieces"]
                if p["text"].startswith(("SPELL", "LOW LEVEL", "HIGH LEVEL", "TROOP TYPE"))
            ]
        )

    # the second sheet: cards 10 to 18 are heroes 4 to 8 then troop types; its middle row reads hero, hero, troop on
    # the front, so the back (flipped on the long edge) reads troop, hero, hero
    def kinds_in_row(page, row):
        found = {}
        for piece in page["pieces"]:
            if (
                piece["text"].startswith(("HIGH LEVEL HERO", "LOW LEVEL HERO", "TROOP TYPE"))
                and card_of(piece, paper)[1] == row
            ):
                found[card_of(piece, paper)[0]] = piece["text"].split()[-1]
        return [found[c] for c in sorted(found)]

    assert kinds_in_row(pages[2], 1) == ["HERO", "HERO", "TYPE"]
    assert kinds_in_row(pages[3], 1) == ["TYPE", "HERO", "HERO"]


def test_troop_cards_print_the_profile_large_with_movement_and_tracking(read):
    pages = read["rampant_hex-cards-a4.pdf"]
    text = " ".join(p["text"] for p in pages)
    for troop in TROOPS:
        assert troop in text
    assert text.count("Activated 1 2 3 4 5 6") == len(TROOPS)
    assert text.count("Hit markers") == len(TROOPS)
    big = [piece["text"] for page in pages for piece in page["pieces"] if piece["size"] >= 16]
    assert big.count("3") >= 1  # Light riders move 3 hexes
    assert big.count("2") >= 6  # every other troop type moves 2 hexes (and some heroes cost 2)
    for points in ("4", "5", "6"):  # the PTS the text gives, in the corner badge
        assert points in big


@pytest.mark.parametrize(
    "name",
    [
        "rampant_hex-cards-a4.pdf",
        "rampant_hex-cards-letter.pdf",
        "rampant_hex-roster-a4.pdf",
        "rampant_hex-roster-letter.pdf",
    ],
)
def test_no_type_under_seven_points(read, name):
    sizes = [(round(piece["size"], 2), piece["text"]) for page in read[name] for piece in page["pieces"]]
    assert sizes
    assert min(sizes)[0] >= 7, min(sizes)


def test_cards_fill_their_space(pdfs):
    """No front leaves a band of blank card taller than a quarter of it (the cards before had half a card blank):
    measured on the rendered pixels, inside the frame, every row of pixels with any ink counting as filled. The cards
    of a kind on one sheet share one type size, the one the longest text needs (test_print_layout.py), so the
    shortest leaves some room: a fifth of a card, not more than a quarter."""
    import pypdfium2

    scale = 100 / 72  # 100 dpi
    document = pypdfium2.PdfDocument(str(pdfs["rampant_hex-cards-a4.pdf"]))
    left, top = CARD_ORIGIN["a4"]
    px = lambda mm: int(round(mm * MM * scale))  # noqa: E731
    measured = 0
    for index in (0, 2, 4):  # the fronts
        image = document[index].render(scale=scale).to_pil().convert("L")
        for row in range(3):
            for column in range(3):
                # inside the frame (2 mm in) and a margin: 4 mm at the sides, 4 mm at the top,
                # the source line at the foot
                x0, x1 = px(left + column * CARD_W + 4), px(left + (column + 1) * CARD_W - 4)
                y0, y1 = px(top + row * CARD_H + 4), px(top + (row + 1) * CARD_H - 4)
                area = image.crop((x0, y0, x1, y1))
                inked = [any(area.getpixel((x, y)) < 200 for x in range(area.width)) for y in range(area.height)]
                if not any(inked):
                    continue  # an empty slot on the last sheet
                longest = run = 0
                for on in inked:
                    run = 0 if on else run + 1
                    longest = max(longest, run)
                assert longest < px(CARD_H / 4), (index, row, column, longest / (MM * scale))
                measured += 1
    assert measured == 21


# -- the data decides -------------------------------------------------------------------------------
def test_what_units_track_comes_from_the_data_and_is_checked(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(ROOT / "rules_src" / "rampant_hex", root / "rules_src" / "rampant_hex")
    troops = root / "rules_src/rampant_hex/troops.yaml"
    text = troops.read_text(encoding="utf-8")
    assert "term: hit_marker" in text and "movement: riders_move" in text
    troops.write_text(
        text.replace("term: hit_marker", "term: hit_markers").replace("movement: riders_move", "movement: riders"),
        encoding="utf-8",
    )
    result = check_project(root, only="rampant_hex")
    assert not result.ok
    errors = {(d.code, d.message) for d in result.diagnostics.errors}
    assert (Code.UNKNOWN_REF, "term `hit_markers` is not in `glossary:`") in errors
    assert (Code.UNKNOWN_REF, "movement `riders` is not in `values:`") in errors
    lines = text.splitlines()
    located = {d.location.line for d in result.diagnostics.errors}
    assert {
        next(i for i, l in enumerate(lines, 1) if "term: hit_marker" in l),
        next(i for i, l in enumerate(lines, 1) if "movement: riders_move" in l),
    } <= located


def test_the_renderers_and_templates_name_no_game_s_markers():
    paths = [*(ROOT / "generator/render").glob("handouts*.py"), *(ROOT / "templates/handouts").iterdir()]
    for path in paths:
        code = "\n".join(
            line
            for line in path.read_text(encoding="utf-8").casefold().splitlines()
            if not line.strip().startswith(('"""', "#", "/*")) and '"""' not in line
        )
        for word in ("hit marker", "activated", "activation marker", "riders", "hexes", "attack", "armour", "moral"):
            assert word not in code, (path, word)


LONG_LABEL = """\
ruleset: {title: Klingen, language: de}
chapters:
  kampf: {title: Kampf}
profiles:
  krieger:
    title: Krieger
    chapter: kampf
    columns:
      mod: {label: Nahkampfwaffenmodifikator, type: int, min: 0}
      kg: {label: KG, type: int, min: 0}
    rows:
      schwertkaempfer: {name: Schwertkämpfer, mod: 2, kg: 4}
"""


@pytest.mark.build  # renders a card sheet for real in its body
def test_a_stat_label_longer_than_its_box_breaks_in_its_language_inside_the_box(tmp_path):
    """A German author's "Nahkampfwaffenmodifikator" printed on a card as "Nahkampfwa": the word ran on past its stat
    box's border, cut off. It breaks where German hyphenates it, inside the box, every letter printed."""
    from helpers import make_project
    from pdf_layout import words_across_rules

    from generator.render.pdf import render_pdf

    result = check_project(make_project(tmp_path, klingen=LONG_LABEL))
    assert result.ok, [d.format() for d in result.diagnostics]
    (job,) = [
        j for j in handout_jobs(result.project, tmp_path / "out", "player") if j.target.name.endswith("cards-a4.pdf")
    ]
    (page, *_) = read_layout(render_pdf(job, tmp_path))
    assert words_across_rules(page) == []
    words = [word.text for word in page.words]
    at = next(i for i, word in enumerate(words) if word.startswith("Nahkampf"))
    assert words[at].endswith("\u2010") and words[at][:-1] + words[at + 1] == "Nahkampfwaffenmodifikator"


def test_a_troop_card_says_its_special_rules_are_not_given_and_prints_an_editors_note_as_a_note(read):
    """Every Rampant Hex troop type's keywords are `not given` (troops.yaml) and several carry an editor's `note:`
    ("The text writes "leve"; read as levy"). Beside an empty box labelled "Special rules:", the note read as the
    troop's special rules; the roster says "not given in the source", and the site and booklet print it as a note."""
    rows = yaml.safe_load((ROOT / "rules_src" / "rampant_hex" / "troops.yaml").read_text(encoding="utf-8"))
    (matrix,) = rows["profiles"].values()
    troops = [row for row in matrix["rows"].values() if row["keywords"] == "not given"]
    notes = [words(row["note"]) for row in troops if "note" in row and "{" not in row["note"]]  # no role to print
    assert troops and notes
    for paper in ("a4", "letter"):
        text = " ".join(page["text"] for page in read[f"rampant_hex-cards-{paper}.pdf"])
        assert text.count("Special rules: not given in the source") == len(troops)
        for note in notes:
            assert f"Note: {note}" in text
            assert f"Special rules: {note}" not in text
