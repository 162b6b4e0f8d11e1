"""Overlays (house rules on a base): each changed value says what it was, and keeps its audience.

README "Bases and overlays": every output of an overlay marks each changed value as a house rule and
shows the original. An overlay of an overlay shows the lower overlay's value as that overlay's house rule,
and the text's value as the text's. README "Game-master material": a value either the base or an overlay
keeps for the game-master reaches no player output.
"""

from __future__ import annotations

from pathlib import Path

from helpers import make_project

from generator.model.entries import gm_only
from generator.render.export import ruleset_json
from generator.render.prose import value_html, value_text
from generator.render.site.pages import landing, ruleset_index, site_pages
from generator.validate import check_project

BASE = """\
ruleset:
  title: Skirmish
  source: text.txt
values:
  move: {value: 6 hexes, label: How far models move, source: {section: MOVING, quote: "Models move 6 hexes."}}
  ambush: {value: 3 hexes, label: Ambush range, audience: gm, source: {section: MOVING}}
  scouts: {value: 4 hexes, label: How far scouts see, source: {section: MOVING}}
"""


def overlay(id: str, title: str, extends: str, values: str) -> str:
    return f"ruleset:\n  title: {title}\n  extends: {extends}\n  overlay: true\nvalues:\n{values}"


def project(tmp_path: Path, **overlays: str):
    """A checked project: the base `skirmish` and the given overlays (folder id -> ruleset.yaml text)."""
    make_project(tmp_path, {"skirmish/sources/text.txt": "MOVING\nModels move 6 hexes.\n"}, skirmish=BASE, **overlays)
    result = check_project(tmp_path)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project


THREE_DEEP = {
    "club": overlay("club", "Club rules", "skirmish", "  move: {value: 7 hexes, house_note: Wider board.}\n"),
    "league": overlay("league", "League rules", "club", "  move: {value: 8 hexes, house_note: Wider still.}\n"),
    "finals": overlay("finals", "Finals rules", "league", "  move: {value: 9 hexes}\n"),
}


# -- what a changed value was ------------------------------------------------------------------------
def test_an_overlay_shows_the_texts_value_as_the_texts(tmp_path):
    rules = project(tmp_path, club=THREE_DEEP["club"]).ruleset("club")
    assert value_text(rules, "move") == "7 hexes (house rule; the text: 6 hexes)"


def test_an_overlay_of_an_overlay_labels_the_lower_overlays_value_as_its_house_rule(tmp_path):
    rules = project(tmp_path, club=THREE_DEEP["club"], league=THREE_DEEP["league"]).ruleset("league")
    assert value_text(rules, "move") == "8 hexes (house rule; house rule of Club rules: 7 hexes; the text: 6 hexes)"
    assert "house rule of Club rules: 7 hexes; the text: 6 hexes" in str(value_html(rules, "move"))


def test_each_overlay_below_is_named_nearest_first(tmp_path):
    rules = project(tmp_path, **THREE_DEEP).ruleset("finals")
    assert value_text(rules, "move") == (
        "9 hexes (house rule; house rule of League rules: 8 hexes; "
        "house rule of Club rules: 7 hexes; the text: 6 hexes)"
    )


def test_a_value_only_the_lower_overlay_changes_keeps_its_label(tmp_path):
    rules = project(
        tmp_path,
        club=THREE_DEEP["club"],
        league=overlay("league", "League rules", "club", "  scouts: {value: 5 hexes}\n"),
    ).ruleset("league")
    assert value_text(rules, "move") == "7 hexes (house rule; the text: 6 hexes)"
    assert value_text(rules, "scouts") == "5 hexes (house rule; the text: 4 hexes)"


# -- who a changed value is for -----------------------------------------------------------------------
def test_a_game_master_value_stays_the_game_masters_when_an_overlay_changes_it(tmp_path):
    rules = project(tmp_path, club=overlay("club", "Club rules", "skirmish", "  ambush: {value: 5 hexes}\n")).ruleset(
        "club"
    )
    assert gm_only(rules.value("ambush"))


def test_an_overlay_value_marked_for_the_game_master_is_the_game_masters(tmp_path):
    rules = project(
        tmp_path, club=overlay("club", "Club rules", "skirmish", "  scouts: {value: 9 hexes, audience: gm}\n")
    ).ruleset("club")
    assert gm_only(rules.value("scouts"))
    assert not gm_only(rules.value("move"))


def test_an_overlay_of_an_overlay_cannot_give_players_what_the_lower_overlay_hid(tmp_path):
    rules = project(
        tmp_path,
        club=overlay("club", "Club rules", "skirmish", "  scouts: {value: 9 hexes, audience: gm}\n"),
        league=overlay("league", "League rules", "club", "  scouts: {value: 10 hexes}\n"),
    ).ruleset("league")
    assert gm_only(rules.value("scouts"))


def test_players_pages_and_export_of_an_overlay_name_only_the_house_rules_they_may_see(tmp_path):
    built = project(
        tmp_path,
        club=overlay(
            "club",
            "Club rules",
            "skirmish",
            "  move: {value: 7 hexes}\n  ambush: {value: 5 hexes}\n  scouts: {value: 9 hexes, audience: gm}\n",
        ),
    )
    rules = built.ruleset("club")
    player = ruleset_index(rules, [], [], audience="player", base_title="Skirmish")
    assert "changes 1 value." in player and "How far models move" in player
    assert "Ambush" not in player and "scouts" not in player and "How far scouts see" not in player
    gm = ruleset_index(rules, [], [], audience="gm", base_title="Skirmish")
    assert "changes 3 values." in gm and "Ambush range" in gm and "How far scouts see" in gm
    assert "house rules on Skirmish: changes 1 value" in landing(built, "player")
    assert "house rules on Skirmish: changes 3 values" in landing(built, "gm")
    assert [v["id"] for v in ruleset_json(rules, "player")["values"]] == ["move"]
    assert [v["id"] for v in ruleset_json(rules, "gm")["values"]] == ["move", "ambush", "scouts"]


def test_an_overlays_numbers_page_names_its_base_by_title_and_counts_what_players_see(tmp_path):
    built = project(
        tmp_path,
        club=overlay(
            "club", "Club rules", "skirmish", "  move: {value: 7 hexes}\n  scouts: {value: 9 hexes, audience: gm}\n"
        ),
    )
    player = site_pages(built, "player").files["club/values.md"]
    assert "House rules on Skirmish: changes 1 value." in player and "skirmish" not in player
    assert "House rules on Skirmish: changes 2 values." in site_pages(built, "gm").files["club/values.md"]


def test_an_overlay_needs_what_its_base_needs_and_has_its_author_and_strap_line(tmp_path):
    """The trial's house rules printed no "What you need" and lost the cover's strap line and author: the overlay is
    the base game with other values. What the overlay writes of its own stays its own."""
    with_needs = BASE.replace(
        "  source: text.txt\n",
        "  source: text.txt\n  subtitle: Small battles\n  author: Sprinks\n  needs: [a D6, a hex board]\n",
    )
    make_project(
        tmp_path,
        {"skirmish/sources/text.txt": "MOVING\nModels move 6 hexes.\n"},
        skirmish=with_needs,
        club=overlay("club", "Club rules", "skirmish", "  move: {value: 7 hexes}\n"),
        mine=overlay("mine", "My rules", "skirmish", "  move: {value: 8 hexes}\n").replace(
            "  overlay: true\n", "  overlay: true\n  author: Me\n"
        ),
    )
    result = check_project(tmp_path)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    club, mine = result.project.ruleset("club").meta, result.project.ruleset("mine").meta
    assert (club.title, club.subtitle, club.author, club.needs) == (
        "Club rules",
        "Small battles",
        "Sprinks",
        ("a D6", "a hex board"),
    )
    assert (mine.author, mine.needs) == ("Me", ("a D6", "a hex board"))
