"""A cell of a column of inches written with its unit, as a value is (`8"`, `8 inches`), is that many inches:
the same cell as one written `8`, printed by every output as the column prints its other cells. A cell in
another unit is a located error naming both units (tests/broken/inches_cell_in_another_unit.yaml)."""

from __future__ import annotations

from helpers import make_project

from generator.render.army_builder import builder_data
from generator.render.export import ruleset_json
from generator.render.handouts.cards import troop_card
from generator.render.prose import Prose
from generator.render.sheets.quickref import matrices
from generator.render.site.myst import profile_md
from generator.validate import check_project

# three troops that all move 8 inches, written three ways, and one that moves 6
GAME = """
ruleset: {title: Movers}
profiles:
  troops:
    title: Troops
    columns:
      move: {label: M, type: inches, min: 0, max: 24}
      pts: {label: Pts, type: points, min: 0}
    rows:
      bare: {name: Bare, move: 8, pts: 3}
      symbol: {name: Symbol, move: 8", pts: 3}
      worded: {name: Worded, move: 8 inches, pts: 3}
      slow: {name: Slow, move: 6in, pts: 2}
armies:
  patrol:
    title: A patrol
    matrix: troops
    agreed_points: 20
    units:
      - {troop: symbol, count: 2}
    total: 6
"""


def test_a_cell_of_inches_written_with_its_unit_is_that_many_inches_in_every_output(tmp_path):
    result = check_project(make_project(tmp_path, game=GAME))
    assert [d.format() for d in result.diagnostics.errors] == []
    game = result.project.ruleset("game")
    matrix = game.profile("troops")
    moves = {row.id: game.cell(matrix, row, "move") for row in matrix.rows}
    assert moves == {"bare": 8, "symbol": 8, "worded": 8, "slow": 6}
    # the site's table: each row's M cell as the column prints a bare 8
    site_rows = [line for line in profile_md(matrix, game).splitlines() if line.startswith("|")][2:]
    assert [row.split("|")[2].strip() for row in site_rows] == ['8"', '8"', '8"', '6"']
    [quick] = matrices(game)
    assert [cells[0] for _name, cells in quick.rows] == ['8"', '8"', '8"', '6"']
    builder = builder_data(game, "player")
    assert [troop["stats"][0] for troop in builder["troops"]] == ['8"', '8"', '8"', '6"']
    card = troop_card(game, matrix, matrix.row("symbol"), Prose(game, "player"))
    [move] = [s for row in card["stats"] for s in row if s["label"] == "M"]
    assert move["value"]["text"] == '8"'
    exported = {row["id"]: row["values"]["move"] for m in ruleset_json(game)["profiles"] for row in m["rows"]}
    assert exported == {"bare": 8, "symbol": 8, "worded": 8, "slow": 6}
