"""Profile cells that name values, and movement, in every rendering of a matrix (issue 21, item 10).

A rider's score is a value the prose prints with the `{value}` role; the matrix names it (`score: {value:
rider_score}`) rather than typing 1½ again, so an overlay that changes the value changes the cell, marked as
a house rule. A matrix's `movement:` shows as a Move column on the site, in the booklet and on the quick
reference, as it already does on rosters and cards. Expected values are the YAML's own numbers.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from helpers import make_project

from generator.mechanics import armies
from generator.render.handouts.cards import troop_card
from generator.render.handouts.content import handout_context
from generator.render.prose import Prose
from generator.render.sheets.quickref import matrices
from generator.render.site.myst import profile_md
from generator.validate import check_project

GAME = """
ruleset: {title: Riders and foot}
values:
  foot_score: {value: 1, label: What a foot soldier scores}
  rider_score: {value: 1½, label: What a rider scores}
  rider_cost: {value: 3, label: What a rider costs}
  foot_move: {value: 4 inches, label: How far foot move}
  rider_move: {value: 8 inches, label: How far riders move}
profiles:
  troops:
    title: Troops
    movement: foot_move
    columns:
      pts: {label: Pts, type: points, min: 0}
      score: {label: Score, type: points, min: 0, max: 5}
    rows:
      foot: {name: Foot, pts: 2, score: {value: foot_score}}
      rider: {name: Rider, pts: {value: rider_cost}, score: {value: rider_score}, movement: rider_move}
armies:
  patrol:
    title: A patrol
    matrix: troops
    agreed_points: 20
    units:
      - {troop: rider, count: 2}
      - {troop: foot, count: 3}
    total: 12
"""
HOUSE = """
ruleset: {title: "Riders and foot, house rules", extends: game, overlay: true}
values:
  rider_score: {value: 2, house_note: Our riders hit harder}
  foot_move: {value: 5 inches, house_note: Bigger tables}
"""


def _checked(tmp_path: Path, **files: str):
    result = check_project(make_project(tmp_path, **files))
    return result, [d.format().splitlines()[0] for d in result.diagnostics.errors]


def test_a_cell_naming_a_value_is_that_value_for_the_mechanics(tmp_path):
    result, errors = _checked(tmp_path, game=GAME)
    assert errors == []
    game = result.project.ruleset("game")
    matrix = game.profile("troops")
    assert game.cell(matrix, matrix.row("rider"), "score") == Fraction(3, 2)
    assert game.cell(matrix, matrix.row("rider"), "pts") == 3
    # the list states 12: two riders at the value's 3 and three foot at 2
    assert armies.army_points(game, game.get("armies", "patrol")) == 12


def test_an_overlay_that_changes_a_named_value_changes_the_cell_and_marks_it_in_every_matrix(tmp_path):
    result, errors = _checked(tmp_path, game=GAME, house=HOUSE)
    assert errors == []
    house = result.project.ruleset("house")
    matrix = house.profile("troops")
    assert house.cell(matrix, matrix.row("rider"), "score") == 2
    assert "{value}`rider_score`" in profile_md(matrix, house)  # the site prints it through the value role
    booklet = _profile_block(handout_context(house, "player"))
    rider = next(r for r in booklet["rows"] if r["name"] == "Rider")
    assert rider["cells"][1]["house"] and "the text: 1½" in str(rider["cells"][1]["text"])
    [quick] = matrices(house)
    assert dict(quick.rows)["Rider"][1] == "2 (house rule; the text: 1½)"
    card = troop_card(house, matrix, matrix.row("rider"), Prose(house, "player"))
    score = next(s for row in card["stats"] for s in row if s["label"] == "Score")
    assert score["value"]["text"] == "2" and score["house"]


def test_movement_shows_in_the_site_booklet_and_quick_reference_matrices(tmp_path):
    result, errors = _checked(tmp_path, game=GAME, house=HOUSE)
    assert errors == []
    game, house = result.project.ruleset("game"), result.project.ruleset("house")
    site = profile_md(game.profile("troops"), game)
    header = site.splitlines()[0]
    assert "Move" in header and "{value}`foot_move`" in site and "{value}`rider_move`" in site
    booklet = _profile_block(handout_context(game, "player"))
    assert booklet["columns"][-1] == "Move"
    assert [str(r["cells"][-1]["text"]) for r in booklet["rows"]] == [
        '<span class="value">4&#34;</span>',
        '<span class="value">8&#34;</span>',
    ]
    [quick] = matrices(house)
    assert quick.columns[-1] == "Move"
    assert dict(quick.rows)["Foot"][-1] == '5" (house rule; the text: 4")' and dict(quick.rows)["Rider"][-1] == '8"'


def test_a_cell_naming_an_unknown_or_unfitting_value_is_a_located_error(tmp_path):
    broken = GAME.replace("{value: foot_score}", "{value: foot_scor}").replace(
        "{value: rider_score}", "{value: rider_move}"
    )
    _result, errors = _checked(tmp_path, game=broken)
    assert [e.split(": error")[1] for e in errors] == [
        "[unknown-ref]: Score of `foot` names value `foot_scor`, which is not in `values:`",
        '[wrong-type]: Score of `rider` names value `rider_move`, which is 8", not a number of points',
    ]
    assert errors[0].startswith("rules_src/game/ruleset.yaml:17:")


def test_a_number_column_takes_a_named_fraction_and_refuses_a_distance(tmp_path):
    # the README's own advice: a score that may be 1½ is `type: number`; check crashed on it (KeyError)
    scores = GAME.replace(
        "score: {label: Score, type: points, min: 0, max: 5}", "score: {label: Score, type: number, min: 0, max: 5}"
    )
    result, errors = _checked(tmp_path / "fits", game=scores)
    assert errors == []
    game = result.project.ruleset("game")
    assert game.cell(game.profile("troops"), game.profile("troops").row("rider"), "score") == Fraction(3, 2)
    _result, errors = _checked(tmp_path / "misfits", game=scores.replace("{value: rider_score}", "{value: rider_move}"))
    assert [e.split(": error")[1] for e in errors] == [
        '[wrong-type]: Score of `rider` names value `rider_move`, which is 8", not a number'
    ]


def test_a_house_value_beyond_the_column_is_refused_where_the_overlay_writes_it(tmp_path):
    _result, errors = _checked(tmp_path, game=GAME, house=HOUSE.replace("{value: 2,", "{value: 6,"))
    assert errors == [
        "rules_src/house/ruleset.yaml:4:3: error[out-of-range]: Score of `rider` names value "
        "`rider_score`, which is 6; Score is at least 0 and at most 5"
    ]


def test_a_players_cell_may_not_name_a_game_master_value(tmp_path):
    secret = GAME.replace(
        "rider_score: {value: 1½, label: What a rider scores}",
        "rider_score: {value: 1½, label: What a rider scores, audience: gm}",
    )
    _result, errors = _checked(tmp_path, game=secret)
    assert any("error[gm-reference]" in e and "rider_score" in e for e in errors), errors


def _profile_block(context) -> dict:
    """The booklet's block of the profile matrix, wherever the context holds it."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "columns" in node and "rows" in node and "keywords_label" in node:
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value)

    walk(context)
    [block] = found
    return block


def test_the_export_writes_a_named_cell_as_written_and_its_schema_accepts_it(tmp_path):
    import jsonschema

    from generator.render.export import json_schema, ruleset_json

    result, errors = _checked(tmp_path, game=GAME)
    assert errors == []
    exported = ruleset_json(result.project.ruleset("game"))
    rider = next(r for r in exported["profiles"][0]["rows"] if r["id"] == "rider")
    assert rider["values"] == {"pts": {"value": "rider_cost"}, "score": {"value": "rider_score"}}
    jsonschema.validate(exported, json_schema())


CELLS = """
ruleset: {title: Cells of every kind}
values:
  lost_count: {value: not given, label: A count the text leaves out}
  band: {value: 3 models, label: A band}
  cost: {value: 3 points, label: A cost}
  half: {value: 1½, label: One and a half}
  none: {value: 0, label: Nothing}
  five: {value: 5, label: Five}
  six: {value: 6, label: Six}
  minus_one: {value: -1, label: One less}
  reach: {value: 6 inches, label: A reach}
  hexes: {value: 3 hexes, label: Three hexes}
profiles:
  troops:
    title: Troops
    columns:
      note: {label: Note, type: text}
      dice: {label: Dice, type: dice}
      men: {label: Men, type: models}
      top: {label: Top, type: int, max: 5}
      low: {label: Low, type: int, min: 0}
      move: {label: Move, type: inches}
    rows:
      fits: {name: Fits, note: {value: reach}, dice: {value: lost_count}, men: {value: band}, top: {value: five},
             low: {value: none}, move: {value: reach}}
      counts: {name: Counts, note: x, dice: {value: band}, men: 2, top: {value: none}, low: {value: five}, move: 4}
"""


def test_a_gap_any_value_in_a_text_column_any_count_of_dice_and_the_bounds_themselves_fit(tmp_path):
    # `not given` is a gap, not a misfit; a text column takes anything; a dice column counts dice of any unit;
    # min and max are inclusive
    _result, errors = _checked(tmp_path, game=CELLS)
    assert errors == []


def test_a_cell_naming_a_value_of_the_wrong_unit_a_fraction_or_one_past_a_bound_says_which(tmp_path):
    broken = CELLS.replace(
        "counts: {name: Counts, note: x, dice: {value: band}, men: 2, top: {value: none}, low: {value: five}, move: 4}",
        "counts: {name: Counts, note: x, dice: {value: half}, men: {value: cost}, top: {value: six},"
        " low: {value: minus_one}, move: {value: hexes}}",
    )
    result = check_project(make_project(tmp_path, game=broken))
    assert [d.format().split(": error", 1)[1] for d in result.diagnostics.errors] == [
        "[wrong-type]: Dice of `counts` names value `half`, which is 1½, not a number of dice (a whole number)\n"
        "  hint: name a number of dice such as 3",
        "[wrong-type]: Men of `counts` names value `cost`, which is 3 points, not a number of models\n"
        "  hint: name a number of models such as 10",
        "[out-of-range]: Top of `counts` names value `six`, which is 6; Top is at most 5\n"
        "  hint: name a value within the column's bounds, or widen `min`/`max`",
        "[out-of-range]: Low of `counts` names value `minus_one`, which is -1; Low is at least 0\n"
        "  hint: name a value within the column's bounds, or widen `min`/`max`",
        "[wrong-type]: Move of `counts` names value `hexes`, which is 3 hexes, not a distance in inches\n"
        '  hint: name a distance in inches such as 6"',
    ]


def test_a_players_row_may_not_move_by_a_game_master_value(tmp_path):
    """The rider's own movement prints on the players' roster, cards and matrices: a game-master's value there would
    reach the players, so check refuses it where the row names it (as it does the matrix's own movement)."""
    secret = GAME.replace(
        "rider_move: {value: 8 inches, label: How far riders move}",
        "rider_move: {value: 8 inches, label: How far riders move, audience: gm}",
    )
    _result, errors = _checked(tmp_path / "row", game=secret)
    line, row = next((n, text) for n, text in enumerate(secret.splitlines(), 1) if "movement: rider_move" in text)
    assert errors == [
        f"rules_src/game/ruleset.yaml:{line}:{row.index('rider_move') + 1}: error[gm-reference]: `troops` is for "
        "players but names game-master-only `rider_move`"
    ]
    secret = GAME.replace(
        "foot_move: {value: 4 inches, label: How far foot move}",
        "foot_move: {value: 4 inches, label: How far foot move, audience: gm}",
    )
    _result, errors = _checked(tmp_path / "matrix", game=secret)
    assert [e.split(": error")[1] for e in errors] == [
        "[gm-reference]: `troops` is for players but names game-master-only `foot_move`"
    ]
