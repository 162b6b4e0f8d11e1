"""A ruleset that extends a game (a fan's supplement): what it prints of its base says whose it is.

README "Bases and overlays": its booklet prints the base's charts it plays by, each headed "From" the base's title;
its rosters give a base keyword "from" the base's title; every output cites a base entry's source by the base's
title, never the supplement's; its site's index says what it builds on, with a link there.
"""

from __future__ import annotations

import pytest
from helpers import make_project

from generator.render.handouts.content import handout_context, roster_context
from generator.render.present import defined_in
from generator.render.sheets.quickref import cite, value_groups
from generator.render.site.myst import source_line
from generator.render.site.pages import site_pages
from generator.validate import check_project

GAME_TITLE = "Skirmish in the Marsh"  # the base's title, which its entries are credited to
SUPPLEMENT_TITLE = "Bog Raiders: a fan supplement"

GAME = f"""\
ruleset:
  title: {GAME_TITLE}
  source: text.txt
chapters:
  play: {{title: Play}}
keywords:
  shoots:
    name: SHOOTS
    params: [range]
    chapter: play
    definition: Shoots at a unit this many hexes away.
    source: {{section: SHOOTING, quote: "SHOOTS 3 reaches 3 hexes"}}
values:
  move: {{value: 4 hexes, label: Move, quick_reference: true, source: {{section: MOVING, quote: "Units move 4 hexes"}}}}
formulas:
  hits:
    title: Hits
    inputs: {{dice: {{label: Dice, min: 1, max: 2}}, armour: {{label: Armour, min: 3, max: 4}}}}
    expr: dice * (6 - armour)
charts:
  hits_chart:
    title: Hits by dice and armour
    formula: hits
    rows: {{input: dice, range: 1-2}}
    columns: {{input: armour, range: 3-4}}
"""

SUPPLEMENT = f"""\
ruleset:
  title: "{SUPPLEMENT_TITLE}"
  source: bog.txt
  extends: skirmish
chapters:
  bog: {{title: Bog troops}}
values:
  mire:
    {{value: 2 hexes, label: Mire, quick_reference: true, source: {{section: BOGS, quote: "Mire slows by 2 hexes"}}}}
formulas:
  sinks:
    title: Sinks
    inputs: {{dice: {{label: Dice, min: 1, max: 2}}, depth: {{label: Depth, min: 1, max: 2}}}}
    expr: dice + depth
charts:
  sinks_chart:
    {{title: Sinking, formula: sinks, rows: {{input: dice, range: 1-2}}, columns: {{input: depth, range: 1-2}}}}
profiles:
  raiders:
    title: Bog raiders
    chapter: bog
    columns:
      attack: {{label: ATTACK, type: int, min: 0, max: 6}}
      pts: {{label: PTS, type: points, min: 0}}
    rows:
      archers: {{name: Mire archers, attack: 2, pts: 4, keywords: [SHOOTS 3]}}
armies:
  warband:
    title: A warband
    matrix: raiders
    chapter: bog
    agreed_points: 8
    total: 8
    units:
      - {{troop: archers, count: 2, points: 8}}
"""


@pytest.fixture(scope="module")
def found(tmp_path_factory):
    """The checked project: the game `skirmish` and the supplement `bog` that extends it."""
    tmp_path = tmp_path_factory.mktemp("supplement")
    make_project(
        tmp_path,
        {
            "skirmish/sources/text.txt": "SHOOTING\nSHOOTS 3 reaches 3 hexes.\nMOVING\nUnits move 4 hexes.\n",
            "bog/sources/bog.txt": "BOGS\nMire slows by 2 hexes.\n",
        },
        skirmish=GAME,
        bog=SUPPLEMENT,
    )
    result = check_project(tmp_path)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project


def test_a_base_keyword_on_a_supplements_roster_is_credited_to_the_base(found):
    bog = found.ruleset("bog")
    entries = roster_context(bog, "player")["rosters"][0]["glossary"]["entries"]
    shoots = next(e for e in entries if e["title"] == "SHOOTS")
    assert shoots["source"] == {"text": f"Source: {GAME_TITLE}, SHOOTING", "quote": "SHOOTS 3 reaches 3 hexes"}
    assert shoots["inherited"] == GAME_TITLE


def test_every_output_cites_a_base_entry_by_the_bases_title(found):
    bog, game = found.ruleset("bog"), found.ruleset("skirmish")
    shoots, move = bog.get("keywords", "shoots"), bog.get("values", "move")
    assert defined_in(bog, shoots) is bog.base and defined_in(bog, bog.get("values", "mire")) is bog
    assert f"{GAME_TITLE}, SHOOTING" in source_line(shoots, bog) and SUPPLEMENT_TITLE not in source_line(shoots, bog)
    assert cite(move, bog) == f"{GAME_TITLE} § MOVING" == cite(move, game)
    # the quick reference's key numbers: each section under the title of the text it is in
    (numbers,) = value_groups(bog)
    assert numbers.source == f"{SUPPLEMENT_TITLE} § BOGS; {GAME_TITLE} § MOVING"


def test_a_supplements_booklet_says_which_charts_are_the_bases(found):
    bog = found.ruleset("bog")
    blocks = [b for part in handout_context(bog, "player")["parts"] for b in part["blocks"] if b["kind"] == "charts"]
    assert {b["title"]: b["inherited"] for b in blocks} == {"Sinking": "", "Hits by dice and armour": GAME_TITLE}


def test_the_bases_own_booklet_marks_nothing_as_inherited(found):
    game = found.ruleset("skirmish")
    blocks = [b for part in handout_context(game, "player")["parts"] for b in part["blocks"] if "inherited" in b]
    assert blocks and not any(b["inherited"] for b in blocks)


def test_a_supplements_index_page_links_the_base_it_builds_on(found):
    pages = site_pages(found, "player")
    assert f"Builds on {{ref}}`{GAME_TITLE} <skirmish-page-index>`." in pages.files["bog/index.md"]
    assert "Builds on" not in pages.files["skirmish/index.md"]
