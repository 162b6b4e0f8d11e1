"""Army lists and limits under an overlay: the text's sample lists are the text's, house values and house limits
are the overlay's (validate/armies.py, source/bases.py)."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import make_project

from generator.render.site.pages import landing, ruleset_index
from generator.source.yamlnodes import load_file
from generator.validate import check_project

GAME = """\
ruleset: {title: Skirmish}
values:
  warrior_pts: {value: 5, label: Points of a warrior}
profiles:
  warband:
    title: Warband
    columns:
      pts: {label: Pts, type: points, min: 0}
    rows:
      warrior: {name: Warrior, pts: {value: warrior_pts}}
      beast: {name: Beast, pts: 6}
army_limits:
  beasts_per_warriors:
    title: One beast per two warriors
    count: beast
    at_most: warrior // 2
armies:
  starter:
    title: A starter force
    matrix: warband
    agreed_points: 20
    total: 16
    units:
      - {troop: warrior, count: 2, points: 10}
      - {troop: beast, count: 1, points: 6}
"""
ERRATA = """\
ruleset: {title: Skirmish errata, extends: skirmish, overlay: true}
values:
  warrior_pts: {value: 8, house_note: "Errata: warriors cost 8."}
"""


def _lines(root) -> list[str]:
    return [d.format().splitlines()[0] for d in check_project(root).diagnostics]


def test_a_sample_list_right_under_the_text_is_no_error_under_an_overlay_that_recosts_it(tmp_path):
    """2 warriors at 8 and a beast at 6 are 22 points, over the 20 agreed and not the 16 the list states: that is
    what the house value makes of the text's list, not an error of the text's list."""
    assert _lines(make_project(tmp_path, skirmish=GAME, skirmish_errata=ERRATA)) == []


def test_a_sample_list_wrong_under_the_text_is_told_once_against_the_text(tmp_path):
    """A list that does not add up in the text (2 x 5 + 6 = 16, not the 15 it states) is the base's error, told with
    the text's numbers alone, not again with the house values' (2 x 8 + 6 = 22)."""
    wrong = GAME.replace("total: 16", "total: 15")
    assert _lines(make_project(tmp_path, skirmish=wrong, skirmish_errata=ERRATA)) == [
        "rules_src/skirmish/ruleset.yaml:22:12: error[points-mismatch]: `starter` adds up to 16 points, not 15"
    ]


def test_a_list_read_in_under_an_overlay_is_held_to_its_house_values(tmp_path):
    """A player's list checked under the errata (as `rulepress list --ruleset` reads it in): 2 x 8 + 6 = 22 of 20."""
    root = make_project(tmp_path, skirmish=GAME, skirmish_errata=ERRATA)
    listed = tmp_path / "player.yaml"
    listed.write_text(
        "armies:\n  mine:\n    title: Mine\n    matrix: warband\n    agreed_points: 20\n    units:\n"
        "      - {troop: warrior, count: 2}\n      - {troop: beast, count: 1}\n",
        encoding="utf-8",
    )
    tree = load_file(listed, root, [])
    result = check_project(root, "skirmish_errata", extra={"skirmish": ((listed, tree),)})
    assert [d.format().splitlines()[0] for d in result.diagnostics] == [
        "player.yaml:5:20: error[over-points]: `mine` spends 22 points of the 20 agreed"
    ]


PACK = """\
ruleset: {title: Skirmish tournament pack, extends: skirmish, overlay: true}
army_limits:
  no_beasts:
    title: No beasts
    count: beast
    at_most: "0"
  points_cap:
    title: At most 15 points
    count: points
    at_most: "15"
"""
PLAYER_LIST = """\
armies:
  mine:
    title: Mine
    matrix: warband
    agreed_points: 20
    units:
      - {troop: warrior, count: 2}
      - {troop: beast, count: 1}
"""


def _read_in(root, ruleset: str, text: str = PLAYER_LIST) -> list[str]:
    """What `check` tells of a list file read in under ``ruleset`` (as `rulepress list --ruleset` reads one)."""
    listed = root / "player.yaml"
    listed.write_text(text, encoding="utf-8")
    result = check_project(root, ruleset, extra={"skirmish": ((listed, load_file(listed, root, [])),)})
    return [d.format().splitlines()[0] for d in result.diagnostics]


def test_a_tournament_pack_overlay_adds_a_ban_and_a_points_cap_that_lists_are_held_to(tmp_path):
    """The text's starter force (16 points, one beast) breaks both house limits: no error of the text's list. A
    player's list of 2 warriors and a beast (2 x 5 + 6 = 16 points) is held to both, each marked a house rule, and
    keeps the text's own limits (1 beast, at most 2 // 2 = 1)."""
    root = make_project(tmp_path, skirmish=GAME, skirmish_pack=PACK)
    assert _lines(root) == []
    assert [line.partition(": error")[2] for line in _read_in(root, "skirmish_pack")] == [
        "[limit-broken]: `mine` breaks “At most 15 points (house rule)”: points is 16, but at most 15 is allowed",
        "[limit-broken]: `mine` breaks “No beasts (house rule)”: beast is 1, but at most 0 is allowed",
    ]
    assert _read_in(root, "skirmish") == []


def test_an_overlay_cannot_change_a_limit_of_the_text(tmp_path):
    """A house limit with the id of the text's limit would loosen or replace it: refused where it is written."""
    loosen = PACK.replace("no_beasts", "beasts_per_warriors")
    assert _lines(make_project(tmp_path, skirmish=GAME, skirmish_pack=loosen)) == [
        "rules_src/skirmish_pack/ruleset.yaml:3:3: error[overlay-change]: `skirmish` has the army limit "
        "`beasts_per_warriors`: an overlay adds limits, the text's all hold"
    ]


def test_an_overlay_editing_a_profile_cell_is_told_the_route_through_a_value_once(tmp_path):
    """An errata written on the cell itself: one located error naming how to change it, nothing blamed on the base
    (whose list used to be told its matrix had errors) and no schema errors of a matrix the overlay never meant."""
    cell = (
        "ruleset: {title: Skirmish errata, extends: skirmish, overlay: true}\n"
        "profiles:\n  warband:\n    rows:\n      beast: {pts: 7}\n"
    )
    result = check_project(make_project(tmp_path, skirmish=GAME, skirmish_errata=cell))
    assert [d.format() for d in result.diagnostics] == [
        "rules_src/skirmish_errata/ruleset.yaml:3:3: error[overlay-change]: an overlay changes values and adds army "
        "limits only; `profiles` entry `warband` cannot be changed or added in an overlay of `skirmish`\n"
        "  hint: make the cell name a value in `skirmish` (`pts: {value: beast_pts}`, with the text's number in "
        "`values: beast_pts:`), then change that value here under `values:`"
    ]


def test_a_limit_of_a_ruleset_that_extends_a_game_counting_the_games_troops_is_told_where_such_limits_go(tmp_path):
    """A ruleset that `extends` the game fields none of its armies, so `beast` would be 0 in every list and the ban
    would ban nothing: told so, with the overlay that holds the game's lists to it, not that `beast` (a troop id of
    the game) is no troop id."""
    pack = PACK.replace(", overlay: true", "")
    lines = _lines(make_project(tmp_path, skirmish=GAME, skirmish_pack=pack))
    assert lines == [
        f"rules_src/skirmish_pack/ruleset.yaml:{line}:12: error[bad-expression]: `{name}` is a count of `skirmish`'s "
        "armies, and `skirmish_pack`, which extends it, has no army matrix to field armies from"
        for line, name in ((5, "beast"), (9, "points"))
    ]


def test_a_ruleset_that_extends_a_game_with_a_matrix_of_its_own_is_told_it_fields_that_one_alone(tmp_path):
    """The same limits in a supplement with a matrix of its own: its lists field that matrix's troops, never the
    game's `beast` (its points cap counts its own lists' points: no error); the hint says where a limit on the
    game's lists goes."""
    pack = PACK.replace(", overlay: true", "") + (
        "profiles:\n  bog_band:\n    title: Bog band\n    columns:\n      pts: {label: Pts, type: points, min: 0}\n"
        "    rows:\n      bog_walker: {name: Bog walker, pts: 4}\n"
    )
    found = [d.format() for d in check_project(make_project(tmp_path, skirmish=GAME, skirmish_pack=pack)).diagnostics]
    assert found == [
        "rules_src/skirmish_pack/ruleset.yaml:5:12: error[bad-expression]: `beast` is a count of `skirmish`'s "
        "armies, and `skirmish_pack`, which extends it, fields armies from `bog_band` alone\n"
        "  hint: limits on `skirmish`'s armies (a tournament pack's ban or points cap) go in an overlay of it: "
        "`extends: skirmish` with `overlay: true`, and `army_limits:` beside its house values"
    ]


def test_the_readme_s_tournament_pack_checks_as_an_overlay_of_a_game_with_what_it_names(tmp_path):
    """The README's pack (its `yml` block: a ruleset of its own, not one with its `yaml` blocks), over a game whose
    heavy foot cost names `heavy_foot_pts` and which has monsters: clean, its limits marked house rules."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    pack = re.search(r"^```yml\n(# rules_src/club_pack/ruleset.yaml\n.*?)^```$", readme, re.M | re.S)[1]
    game = (
        "ruleset: {title: My game}\nvalues:\n  heavy_foot_pts: {value: 5}\nprofiles:\n  troops:\n    title: Troops\n"
        "    columns:\n      pts: {label: Pts, type: points, min: 0}\n    rows:\n"
        "      heavy_foot: {name: Heavy foot, pts: {value: heavy_foot_pts}}\n      monsters: {name: Monsters, pts: 6}\n"
    )
    result = check_project(make_project(tmp_path, my_game=game, club_pack=pack))
    assert [d.format() for d in result.diagnostics] == []
    limits = result.project.ruleset("club_pack").army_limits
    assert [limit.title for limit in limits] == ["No monsters (house rule)", "At most 500 points (house rule)"]


def test_a_pack_s_front_page_and_landing_count_the_limits_it_adds(tmp_path):
    """A pack that changes no value said 'changes 0 values' and nothing of its two limits."""
    project = check_project(make_project(tmp_path, skirmish=GAME, skirmish_pack=PACK)).project
    index = ruleset_index(project.ruleset("skirmish_pack"), [], [], base_title="Skirmish")
    assert "House rules on Skirmish: changes 0 values, adds 2 army limits." in index
    assert "- {entry}`army_limits.no_beasts`\n- {entry}`army_limits.points_cap`" in index
    assert "house rules on Skirmish: changes 0 values, adds 2 army limits" in landing(project, "player")
