"""Formulas with several named results (issue 21, item 11), against brute force.

A mêlée that decides the killed, the prisoners and the survivors is one formula with one `let:` and three
results, each typed and checked over every input; other formulas name one result (`melee(h, d,
result="killed")`), a chart shows one (`result: killed`), and a worked example gets them all.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import MappingProxyType

import pytest
from helpers import make_project

from generator.cli import main
from generator.examples.namespace import namespace_for
from generator.model.calculate import calculator
from generator.model.formula import FormulaError, Results
from generator.render.reference import format_reference, names_in
from generator.render.sheets.charts import chart_from_model
from generator.render.site.myst import formula_md
from generator.validate import check_project

GAME = """
ruleset: {title: A mêlée}
formulas:
  melee:
    title: What a mêlée costs the losing side
    inputs:
      hits: {label: Hits, min: 0, max: 6}
      defenders: {label: Defenders, min: 1, max: 6}
    let:
      killed_models: min(hits, defenders)
      left: defenders - killed_models
    results:
      killed: {label: Killed, expr: killed_models}
      prisoners: {label: Taken prisoner, expr: left // 2}
      survivors: {label: Survivors, expr: left - left // 2}
      routed: {label: Routed, expr: left == 0, result: bool}
  prisoners_taken:
    title: Prisoners taken by a side that hits twice
    inputs: {defenders: {label: Defenders, min: 1, max: 6}}
    expr: melee(2, defenders, result="prisoners")
charts:
  killed_chart:
    title: Killed
    formula: melee
    result: killed
    rows: {input: hits, range: 0-6}
    columns: {input: defenders, range: 1-6}
    show: number
"""


def _by_hand(hits: int, defenders: int) -> dict:
    killed = min(hits, defenders)
    left = defenders - killed
    return {"killed": killed, "prisoners": left // 2, "survivors": left - left // 2, "routed": left == 0}


def _game(tmp_path: Path, text: str = GAME):
    result = check_project(make_project(tmp_path, game=text))
    assert result.ok, [d.format() for d in result.diagnostics]
    return result.project.ruleset("game")


def test_every_result_shares_the_inputs_and_let_and_is_exact_for_every_input(tmp_path):
    game = _game(tmp_path)
    melee = calculator(game).scope["melee"]
    for hits in range(7):
        for defenders in range(1, 7):
            expected = _by_hand(hits, defenders)
            assert melee(hits, defenders) == expected
            assert {name: melee(hits, defenders, result=name) for name in expected} == expected


def test_another_formula_and_a_chart_use_one_named_result(tmp_path):
    game = _game(tmp_path)
    assert [calculator(game).scope["prisoners_taken"](d) for d in range(1, 7)] == [
        _by_hand(2, d)["prisoners"] for d in range(1, 7)
    ]
    chart = chart_from_model(game, game.chart("killed_chart"))
    assert [[cell.text for cell in row.cells] for row in chart.rows] == [
        [str(min(h, d)) for d in range(1, 7)] for h in range(7)
    ]


def test_a_worked_example_reads_the_results_by_name(tmp_path):
    game = _game(tmp_path)
    both = calculator(game).scope["melee"](3, 5)
    assert isinstance(both, Results) and (both.killed, both["prisoners"]) == (3, 1)
    assert repr(both) == "melee(killed=3, prisoners=1, survivors=1, routed=False)"
    with pytest.raises(AttributeError, match="no result `wounded`; its results are killed, prisoners"):
        both.wounded
    with pytest.raises(FormulaError, match="no result 'wounded'"):
        calculator(game).scope["melee"](3, 5, result="wounded")


def test_a_worked_example_in_prose_runs_against_every_result(tmp_path, capsys):
    text = (
        GAME
        + """rules:
  melee_rule:
    title: Mêlée
    chapter: fight
    body: |
      Three hits on five defenders kill three; of the rest, one is taken prisoner and one survives.

      ```python
      >>> melee(hits=3, defenders=5)
      melee(killed=3, prisoners=1, survivors=1, routed=False)
      >>> melee(3, 5).prisoners, melee(3, 5, result="survivors")
      (1, 1)
      ```
chapters: {fight: {title: Fight}}
"""
    )
    assert main(["-C", str(make_project(tmp_path, game=text)), "check"]) == 0, capsys.readouterr().err
    assert "game: 1 example, all pass" in capsys.readouterr().out


def test_a_formula_calling_several_results_without_naming_one_is_a_located_error(tmp_path):
    text = GAME.replace('expr: melee(2, defenders, result="prisoners")', "expr: melee(2, defenders)")
    errors = [d.format().splitlines()[0] for d in check_project(make_project(tmp_path, game=text)).diagnostics.errors]
    assert errors == [
        "rules_src/game/ruleset.yaml:20:11: error[bad-formula]: `prisoners_taken` fails for defenders=1: "
        "`melee` gives several results (killed, prisoners, survivors, routed); name the one wanted: "
        '`melee(..., result="killed")`'
    ]


def test_a_wrongly_typed_result_is_located_at_that_result(tmp_path):
    text = GAME.replace(
        "{label: Taken prisoner, expr: left // 2}", "{label: Taken prisoner, expr: left // 2, result: chance}"
    )
    errors = [d.format().splitlines()[0] for d in check_project(make_project(tmp_path, game=text)).diagnostics.errors]
    # two defenders, no hits: two left, one taken prisoner, which is a chance; three left give one too, four two
    assert errors == [
        "rules_src/game/ruleset.yaml:14:67: error[bad-formula]: the result `prisoners` of `melee` gives "
        "2, not a chance from 0 to 1 for hits=0, defenders=4"
    ]


def test_the_references_list_the_results(tmp_path):
    game = _game(tmp_path)
    reference = format_reference()
    assert "`results`" in reference and "One of several results of a formula (`results:`)" in reference
    [(kind, signature, line)] = [n for n in names_in(game, namespace_for(game, None)) if n[1].startswith("melee(")]
    assert (kind, signature) == ("formula", "melee(hits, defenders, *, result=None)")
    assert "Results: killed, prisoners, survivors, routed" in line
    page = formula_md(game.formula("melee"), game, "author")
    assert "`killed` — Killed: a number" in page and "`routed` — Routed: yes or no" in page
    assert "melee.prisoners = left // 2" in page and "left = defenders - killed_models" in page
    players = formula_md(game.formula("melee"), game)  # each result in words, and the chart that shows one
    assert "**Depends on:** Hits, Defenders." in players
    assert "- Killed: a number\n- Taken prisoner: a number" in players and "{chart}`killed_chart`" in players
    assert "//" not in players and "`killed`" not in players


def test_the_export_writes_each_result_and_its_schema_accepts_them(tmp_path):
    import jsonschema

    from generator.render.export import json_schema, ruleset_json

    exported = ruleset_json(_game(tmp_path))
    melee = next(f for f in exported["formulas"] if f["id"] == "melee")
    assert melee["expr"] is None and [(r["id"], r["result"]) for r in melee["results"]] == [
        ("killed", "number"),
        ("prisoners", "number"),
        ("survivors", "number"),
        ("routed", "bool"),
    ]
    jsonschema.validate(exported, json_schema())


SKIRMISH = """
ruleset: {title: A skirmish}
formulas:
  volley:
    title: What a volley does
    inputs:
      hits: {label: Hits, min: 0, max: 6}
    results:
      downed: min(hits, 3)
      broken: {label: Broken, expr: hits == 0, result: bool}
      pushed: {expr: hits * 2, unit: inches, die: D8}
  single:
    title: One result
    expr: 1
"""


def test_one_result_seen_alone_is_that_result_titled_and_located_where_it_is_written(tmp_path):
    game = _game(tmp_path, SKIRMISH)
    volley = game.formula("volley")
    pushed = volley.view("pushed")
    assert (pushed.expr, pushed.result, pushed.die, pushed.unit, pushed.results) == (
        volley.outcome("pushed").expr,
        "number",
        "D8",
        "inches",
        (),
    )
    assert pushed.title == "What a volley does: pushed"  # no label: its id
    assert (pushed.inputs, pushed.let) == (volley.inputs, volley.let)
    where = {name: (loc.line, loc.column) for name, loc in pushed.locs.items()}
    # its expression where written; its kind, not written, where the result is; the rest where the formula's are
    assert where == {"title": (5, 12), "inputs": (7, 7), "results": (9, 7), "expr": (11, 22), "result": (11, 7)}
    broken = volley.view("broken")
    assert (broken.title, broken.result, broken.die, broken.unit) == ("What a volley does: Broken", "bool", "D6", "")
    assert [(broken.locs[name].line, broken.locs[name].column) for name in ("expr", "result")] == [(10, 37), (10, 56)]


def test_a_result_made_without_locations_is_located_where_the_result_is(tmp_path):
    from dataclasses import replace
    from types import MappingProxyType

    volley = _game(tmp_path, SKIRMISH).formula("volley")
    bare = tuple(replace(o, locs=MappingProxyType({})) for o in volley.results)
    view = replace(volley, results=bare).view("downed")
    assert view.locs["expr"] == view.locs["result"] == volley.outcome("downed").loc


def test_asking_a_formula_for_a_result_it_lacks_names_those_it_has(tmp_path):
    game = _game(tmp_path, SKIRMISH)
    with pytest.raises(FormulaError) as raised:
        game.formula("volley").outcome("routed")
    assert str(raised.value) == "volley has no result 'routed'; its results are downed, broken, pushed"
    with pytest.raises(FormulaError) as raised:
        game.formula("single").view("routed")
    assert str(raised.value) == "single has one result; call it without `result=`"


def test_results_equal_the_same_results_or_a_dict_of_them_and_nothing_else():
    brawl = Results("brawl", {"killed": 3, "prisoners": 1})
    assert brawl == Results("brawl", {"killed": 3, "prisoners": 1})
    assert brawl != Results("brawl", {"killed": 3, "prisoners": 2})
    assert brawl == {"killed": 3, "prisoners": 1} and brawl != {"killed": 3}
    # only results or a dict count: a read-only view with the same names and values is something else
    assert brawl != MappingProxyType({"killed": 3, "prisoners": 1})


TESTED = GAME.replace(  # a result that decides a test on its way
    "survivors: {label: Survivors, expr: left - left // 2}",
    "survivors: {label: Survivors, expr: left - left // 2 if left > 1 else left}",
)


def test_the_way_a_formula_of_several_results_went_holds_the_test_one_of_them_decided(tmp_path):
    assert TESTED != GAME
    game = _game(tmp_path, TESTED)
    melee = next(f for f in game.formulas if f.id == "melee")
    for defenders, held in ((4, True), (1, False)):  # left = defenders - min(0, defenders) = defenders
        scope, way = calculator(game).path(melee, hits=0, defenders=defenders)
        assert [(ast.unparse(d.test), d.held) for d in way.decisions] == [("left > 1", held)]
        assert scope["left"] == defenders
