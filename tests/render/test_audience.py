"""Audiences are a property of every output: what players get counts and names only what players see."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from helpers import ATTACKS

from generator.model.entries import ArmyList, ArmyUnit, Hero
from generator.render.export import ruleset_json
from generator.render.site.myst import army_md, profile_md
from generator.render.site.pages import examples_page, landing
from generator.validate import check_project


def load(case: str, tmp_path: Path):
    shutil.copytree(ATTACKS / case / "project", tmp_path / "project")
    result = check_project(tmp_path / "project")
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project


def test_landing_and_examples_count_what_players_see(tmp_path):
    project = load("audience_landing_counts", tmp_path)
    ruleset = project.ruleset("game")
    assert "3 rules, 0 tables, 1 verified example" in landing(project, "author")  # the game-master's rules counted
    for readers in ("player", "gm"):  # what a ruleset is, not how many entries it has
        assert " rules," not in landing(project, readers) and "verified example" not in landing(project, readers)
    assert examples_page(ruleset, "player") is None
    assert "hidden_odds" in examples_page(ruleset, "gm") and "hidden_odds" in examples_page(ruleset, "author")


def test_gm_rows_only_in_gm_outputs(tmp_path):
    ruleset = load("audience_gm_row_site", tmp_path).ruleset("game")
    matrix = ruleset.profile("troops")
    assert "Ghoul" not in profile_md(matrix, ruleset, "player")  # Markdown escapes GM-ONLY-SECRET: look for the name
    assert "Ghoul" in profile_md(matrix, ruleset, "gm")
    player, gm = ruleset_json(ruleset, "player"), ruleset_json(ruleset, "gm")
    assert [r["id"] for r in player["profiles"][0]["rows"]] == ["foot"]
    assert [r["id"] for r in gm["profiles"][0]["rows"]] == ["foot", "ghoul"]


def test_gm_note_and_examples_only_in_gm_export(tmp_path):
    ruleset = load("audience_gm_note_export", tmp_path).ruleset("game")
    assert ruleset_json(ruleset, "player")["rules"][0]["gm_note"] == ""
    assert "GM-ONLY-SECRET" in ruleset_json(ruleset, "gm")["rules"][0]["gm_note"]
    ruleset = load("audience_gm_examples_export", tmp_path / "two").ruleset("game")
    assert ruleset_json(ruleset, "player")["examples"] == []
    assert [e["entry"] for e in ruleset_json(ruleset, "gm")["examples"]] == ["rules.hidden_odds"]


def test_an_army_never_prints_a_gm_hero_to_players(tmp_path):
    ruleset = load("audience_gm_row_site", tmp_path).ruleset("game")

    hero = Hero(id="villain", name="GM-ONLY-SECRET Villain", ability="", points=1, audience="gm")
    army = ArmyList(
        id="raid",
        title="Raid",
        matrix="troops",
        agreed_points=10,
        units=(ArmyUnit(troop="foot", count=1, heroes=("villain",)),),
    )
    ruleset = replace(ruleset, heroes=(hero,), armies=(army,))
    assert "Villain" not in army_md(army, ruleset, "player")
    assert "Villain" in army_md(army, ruleset, "gm")


GM_CHAPTER = """ruleset: {title: A game}
chapters:
  play: {title: Playing}
  betrayal: {title: The Mill Owner Betrays, audience: gm}
rules:
  moving: {title: Moving, chapter: play, body: Move 6 inches.}
  twist: {title: The twist, chapter: betrayal, audience: gm, body: The mill owner sides with the bandits.}
"""


def test_a_game_masters_chapter_and_its_title_are_in_no_player_output(tmp_path):
    from helpers import make_project

    from generator.render.handouts.content import placement
    from generator.render.site.pages import site_pages

    result = check_project(make_project(tmp_path, {"game/ruleset.yaml": GM_CHAPTER}))
    assert result.ok and not result.diagnostics, [d.format() for d in result.diagnostics]
    ruleset = result.project.ruleset("game")
    shown = {audience: site_pages(result.project, audience).files for audience in ("player", "gm")}
    assert [name for name, text in shown["player"].items() if "Mill Owner" in text or "betrayal" in text] == []
    assert "game/betrayal.md" in shown["gm"] and "The Mill Owner Betrays" in shown["gm"]["game/betrayal.md"]
    chapters = {a: [(p["number"], p["title"]) for p in placement(ruleset, a) if p["kind"] == "chapter"] for a in shown}
    assert chapters == {"player": [("1", "Playing")], "gm": [("1", "Playing"), ("2", "The Mill Owner Betrays")]}
    assert "betrayal" not in str(ruleset_json(ruleset, "player")) and "betrayal" in str(ruleset_json(ruleset, "gm"))
