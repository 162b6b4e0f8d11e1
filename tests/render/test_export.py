"""`rulepress export` (generator/render/export.py): every file it writes holds to the schema it ships, with every
number typed as the rules write it; an overlay's house values, the army lists they cost and the worked examples they
change carry what the text gives beside them, as every other output shows them."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import jsonschema
import pytest
from helpers import ROOT

from generator.cli import main

# A project of every kind of value and cell the export writes, on `rulepress new`'s demo (a base and its overlay):
# alternatives, not given, dice, a count, fractions, targets, distances, a game-master value and profile row, a
# yes-or-no input, a worked example whose results the overlays change, an army list the overlay costs otherwise, and
# a second overlay with a house value of the game-master's.
PROBE = """\
values:
  warrior_pts: {value: 5, label: A warrior's points, source: {section: WARRIORS}}
  either_move: {value: 4 or 5 feet, label: Either move, source: {section: WARRIORS}}
  unknown_reach: {value: "not given: the text stops here", label: Unknown reach, source: {section: WARRIORS}}
  charge_dice: {value: 2D6, label: Charge dice, source: {section: WARRIORS}}
  crew: {value: 2 models, label: Crew, source: {section: WARRIORS}}
  flag_price: {value: 1½, label: Flag price, source: {section: WARRIORS}}
  hidden_bonus: {value: 2, label: Hidden bonus, audience: gm, source: {section: WARRIORS}}

profiles:
  engines:
    title: Engines
    chapter: warriors
    source: {section: WARRIORS}
    columns:
      rating: {label: Rating, type: number, help: A rating.}
      dice: {label: Dice, type: dice, help: Dice thrown.}
      range: {label: Range, type: inches, help: How far.}
      save: {label: Save, type: target, help: A save.}
      kind: {label: Kind, type: text, help: Its kind.}
      speed: {label: Speed, type: number, help: Its speed.}
    rows:
      cart:
        {name: Cart, rating: 3/2, dice: 2, range: 12, save: 5+, kind: "3/2", speed: {value: flag_price},
         source: {section: WARRIORS}}
      sled:
        {name: Sled, rating: not given, dice: 1, range: not given, save: 6+, kind: plain, speed: 1, audience: gm,
         source: {section: WARRIORS}}

formulas:
  braced:
    title: Braced score
    inputs:
      braced: {label: Braced, type: bool, default: 0}
      foot: {label: Foot soldiers, min: 0, max: 20}
    expr: foot + 1 if braced else foot
    source: {section: WARRIORS}

rules:
  marching:
    title: Marching
    chapter: warriors
    source: {section: WARRIORS}
    body: |
      A loser falls back 3 inches, and two flags cost 3 points:

      ```python
      >>> values.fall_back, values.flag_price * 2
      (3", Fraction(3, 1))
      ```
"""
SECRET = """\
ruleset: {title: Game (secret house rules), extends: game, overlay: true, summary: Only the game-master knows.}
values:
  hidden_bonus: {value: 3}
  fall_back: {value: 5 inches}
"""


@pytest.fixture(scope="module")
def every_kind(tmp_path_factory) -> Path:
    """The project above, exported for players into ``export/`` and for the game-master into ``export-gm/``."""
    root = tmp_path_factory.mktemp("every_kind")
    assert main(["-C", str(root), "new", "game"]) == 0
    source = root / "rules_src"
    warriors = source / "game" / "warriors.yaml"
    warriors.write_text(warriors.read_text(encoding="utf-8").replace("pts: 5\n", "pts: {value: warrior_pts}\n"))
    (source / "game" / "probe.yaml").write_text(PROBE, encoding="utf-8")
    with (source / "game_house_rules" / "ruleset.yaml").open("a", encoding="utf-8") as overlay:
        overlay.write("  warrior_pts: {value: 5½}\n")
    (source / "game_secret").mkdir()
    (source / "game_secret" / "ruleset.yaml").write_text(SECRET, encoding="utf-8")
    assert main(["-C", str(root), "export", "--out", str(root / "export")]) == 0
    assert main(["-C", str(root), "export", "--audience", "gm", "--out", str(root / "export-gm")]) == 0
    return root


@pytest.fixture(scope="module")
def samples(tmp_path_factory) -> Path:
    """This repository's rules_src/ exported for players into ``export/`` and for the game-master into
    ``export-gm/``, once for the tests that read them."""
    root = tmp_path_factory.mktemp("samples")
    assert main(["-C", str(ROOT), "export", "--out", str(root / "export")]) == 0
    assert main(["-C", str(ROOT), "export", "--audience", "gm", "--out", str(root / "export-gm")]) == 0
    return root


def exported(folder: Path, name: str) -> dict:
    return json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))


@cache
def validator(schema_text: str) -> jsonschema.Draft202012Validator:
    """A validator of the schema written ``schema_text``, itself checked against its metaschema first: once a text,
    as every export writes the same schema and checking it is the costly part."""
    schema = json.loads(schema_text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


_REPR = re.compile(r"\b(?:Fraction|Quantity|Distance|Alternatives|Points|NotGiven)\(")
_FENCE = re.compile(r"```python\n.*?```", re.S)  # a worked example's code, in the prose as its author wrote it


def _strings(data):
    if isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)
    elif isinstance(data, str):
        yield _FENCE.sub("", data)


def test_every_export_holds_to_the_schema_it_ships_and_no_field_holds_pythons_own_text(every_kind, samples):
    """The companion-app trial: "4 or 5 feet" exported `kind: alternatives`, which the schema refused, with a magnitude
    that was a tuple of Quantity reprs, and house results read `Fraction(3, 1)` and `(2 hexes, 3 hexes)`."""
    folders = [samples / "export", samples / "export-gm", every_kind / "export", every_kind / "export-gm"]
    for folder in folders:
        schema = validator((folder / "ruleset.schema.json").read_text(encoding="utf-8"))
        files = sorted(p for p in folder.glob("*.json") if p.name != "ruleset.schema.json")
        assert files
        for path in files:
            data = json.loads(path.read_text(encoding="utf-8"))
            assert [e.message for e in schema.iter_errors(data)] == [], path.name
            assert [s for s in _strings(data) if _REPR.search(s) or re.fullmatch(r"\(.*, .*\)", s)] == [], path.name


def test_alternatives_export_as_the_list_of_them_each_a_distance(every_kind):
    value = next(v for v in exported(every_kind / "export", "game")["values"] if v["id"] == "either_move")
    feet = lambda n: {"kind": "distance", "text": f"{n} feet", "magnitude": str(n), "unit": "feet"}  # noqa: E731
    assert value["value"] == {
        "kind": "alternatives",
        "text": "4 or 5 feet",
        "alternatives": [feet(4), feet(5)],
        "unit": "feet",
    }


def test_a_yes_or_no_inputs_default_exports_as_false(every_kind):
    braced = next(f for f in exported(every_kind / "export", "game")["formulas"] if f["id"] == "braced")
    assert [i["default"] for i in braced["inputs"]] == [False, None]  # `default: 0` of a bool; none for `foot`


def test_an_examples_house_results_are_each_of_its_values_typed(every_kind):
    """marching: fall_back 3 inches in the text, 4 in the overlay; flag_price 1½ twice is 3 either way."""
    house = next(
        e for e in exported(every_kind / "export", "game_house_rules")["examples"] if e["entry"] == "rules.marching"
    )
    inches = lambda n: {"kind": "distance", "text": f'{n}"', "magnitude": str(n), "unit": "inches"}  # noqa: E731
    three = {"kind": "number", "text": "3", "magnitude": "3"}
    assert house["house_results"] == [{"the_text": [inches(3), three], "house_rules": [inches(4), three]}]


def test_an_overlays_army_lists_are_costed_under_its_house_values_the_texts_figures_beside(every_kind):
    """The starter force: 2 warriors at 5 points and an archer at 6, 16 in all (the demo's text); the overlay's
    warriors cost 5½: 11 for the line, 17 in all, as its site and rosters cost them."""
    for folder, name in (
        (every_kind / "export", "game_house_rules"),
        (every_kind / "export-gm", "game_house_rules-gm"),
    ):
        starter = next(a for a in exported(folder, name)["armies"] if a["id"] == "starter")
        assert [(u["troop"], u["points"], u.get("house_rule")) for u in starter["units"]] == [
            ("warrior", 11, {"the_text": 10}),
            ("archer", 6, None),
        ]
        assert (starter["total"], starter["house_rule"]) == (17, {"the_text": 16})
    text = next(a for a in exported(every_kind / "export", "game")["armies"] if a["id"] == "starter")
    assert (text["total"], "house_rule" in text, [u["points"] for u in text["units"]]) == (16, False, [10, 6])


def test_the_players_export_says_a_result_is_withheld_where_a_game_masters_house_value_changes_it(every_kind):
    """game_secret's hidden_bonus is the game-master's: players read that its house rules give marching another result,
    as its site says, and not the 5 inches; the game-master's export gives it."""
    player, gm = (
        next(e for e in exported(folder, name)["examples"] if e["entry"] == "rules.marching")
        for folder, name in ((every_kind / "export", "game_secret"), (every_kind / "export-gm", "game_secret-gm"))
    )
    assert player["house_results"] == {"withheld": "another result (its house values are the game-master's)"}
    assert "5" not in json.dumps(player)
    assert gm["house_results"][0]["house_rules"][0]["text"] == '5"'


def test_an_overlays_export_shows_each_house_value_beside_the_texts_and_the_examples_it_changes(samples):
    schema = validator((samples / "export" / "ruleset.schema.json").read_text(encoding="utf-8"))
    house, text = (exported(samples / "export", name) for name in ("rampant_hex_house", "rampant_hex"))
    for written in (house, text):
        schema.validate(written)
    riders = next(v for v in house["values"] if v["id"] == "riders_move")
    # rampant_hex/values.yaml: "value: 3 hexes"; the club's overlay: 4 hexes
    assert (riders["value"]["text"], riders["house_rule"]["the_text"]["text"]) == ("4 hexes", "3 hexes")
    assert riders["house_rule"]["earlier"] == []
    changed = {e["entry"] for e in house["examples"] if "house_results" in e}
    assert changed == {"rules.faulty_scrolls", "rules.activating_units"}  # as `rulepress check` names them
    assert all(r["the_text"] != r["house_rules"] for e in house["examples"] for r in e.get("house_results", ()))
    assert not any("house_rule" in v for v in text["values"]) and not any(
        "house_results" in e for e in text["examples"]
    )


def test_the_players_export_leaves_out_the_results_a_game_masters_house_value_changes():
    """The club's trial: the players' export carried `"house_rules": "3"`, the game-master's house value, where the
    site and the PDFs say only that the house rules give another result. The game-master's export keeps them."""
    import dataclasses

    from helpers import sample_project

    from generator.model.ruleset import HouseResult
    from generator.render.export import ruleset_json
    from generator.render.present import shown_examples

    house = sample_project()[0].ruleset("rampant_hex_house")  # the samples' model, as their check reads it
    example = shown_examples(house, "player")[0]
    changed = HouseResult(example.entry, "", example.path, example.line, (("3", "4"),))  # as check finds them
    secret = tuple(  # its house value made the game-master's
        dataclasses.replace(v, audience="gm") if v.id == "riders_move" else v for v in house.values
    )
    told = lambda ruleset, audience: [  # noqa: E731
        e["house_results"] for e in ruleset_json(ruleset, audience)["examples"] if "house_results" in e
    ]
    number = lambda n: [{"kind": "number", "text": n, "magnitude": n}]  # noqa: E731
    assert told(dataclasses.replace(house, house_results=(changed,)), "player") == [
        [{"the_text": number("3"), "house_rules": number("4")}]
    ]
    hidden = dataclasses.replace(house, values=secret, house_results=(changed,))
    assert "4" not in json.dumps(told(hidden, "player"))
    assert told(hidden, "gm") == [[{"the_text": number("3"), "house_rules": number("4")}]]


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_an_export_writes_its_folder_whole_and_keeps_the_rest_of_the_build(every_kind, capsys):
    """The trial: a player export left an older game-master's `NAME-gm.json` beside its files, and `--out` left a
    `.manifest.json` of `{}` in the folder it wrote."""
    root = every_kind
    (root / "build" / "site").mkdir(parents=True)
    (root / "build" / "site" / "index.html").write_text("the build's", encoding="utf-8")
    assert main(["-C", str(root), "export", "--audience", "gm"]) == 0
    assert main(["-C", str(root), "export"]) == 0
    assert _files(root / "build" / "export") == [
        "game.json",
        "game_house_rules.json",
        "game_secret.json",
        "ruleset.schema.json",
    ]
    assert (root / "build" / "site" / "index.html").read_text(encoding="utf-8") == "the build's"
    out = root / "elsewhere"
    assert main(["-C", str(root), "export", "--out", str(out)]) == 0
    assert main(["-C", str(root), "export", "--audience", "gm", "--out", str(out)]) == 0  # an export's folder
    assert _files(out) == ["game-gm.json", "game_house_rules-gm.json", "game_secret-gm.json", "ruleset.schema.json"]
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    capsys.readouterr()
    assert main(["-C", str(root), "export", "--out", str(out)]) == 2  # a file no export wrote is never lost
    assert "holds files rulepress did not write" in capsys.readouterr().err
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    before = sorted(p.relative_to(root / "build").as_posix() for p in (root / "build").rglob("*"))
    assert main(["-C", str(root), "export", "--out", str(root / "build")]) == 2  # nor a build another folder holds
    assert capsys.readouterr().err == (
        f"rulepress: error: --out {root / 'build'} holds a build; an export replaces its folder whole: name a new or "
        "empty folder, or one an export wrote (an export of the project's build/ goes to build/export/, without "
        "--out)\n"
    )
    assert sorted(p.relative_to(root / "build").as_posix() for p in (root / "build").rglob("*")) == before


def test_a_build_writes_the_export_it_finds_anew_from_its_rules_for_the_audiences_it_was_for(every_kind, tmp_path):
    """The trial: a build after the rules changed kept build/export/ as the last `rulepress export` wrote it, its
    numbers older than the site's beside it. A build now writes it as an export of these rules would."""
    from generator.pipeline.build import check_with_examples
    from generator.pipeline.plan import Builder
    from generator.pipeline.request import BuildRequest

    out, staging = tmp_path / "build", tmp_path / "staging"
    (out / "export").mkdir(parents=True)
    (out / "export" / "game-gm.json").write_text("{}", encoding="utf-8")  # an older game-master's export
    (out / "export" / "gone-gm.json").write_text("{}", encoding="utf-8")  # of a ruleset since removed
    staging.mkdir()
    (out / "export" / "ruleset.schema.json").write_bytes(
        (every_kind / "export-gm" / "ruleset.schema.json").read_bytes()
    )
    project = check_with_examples(every_kind)[0].project
    builder = Builder(project, out, staging, {}, BuildRequest(root=every_kind))
    builder.refresh_export()
    assert builder.summary.line() == "export: 3 written, 1 unchanged"  # the schema was this export's already
    assert _files(staging / "export") == _files(every_kind / "export-gm")
    for name in _files(staging / "export"):
        assert (staging / "export" / name).read_bytes() == (every_kind / "export-gm" / name).read_bytes()
    Builder(project, out.with_name("none"), tmp_path / "bare", {}, BuildRequest(root=every_kind)).refresh_export()
    assert not (tmp_path / "bare").exists()  # no export there: a build makes none


def test_the_schema_describes_every_definition_and_property_in_words():
    """The trial: TableRow, Column, ProfileRow and LookupRow were described by the signature dataclasses write
    (`TableRow(*, loc: 'Location' = ...`), and 101 properties (odds, a row's values, the top level) by nothing."""
    from generator.render.export import json_schema

    schema = json_schema()
    tables = {"(top)": schema, **schema["$defs"]}
    undescribed = [
        f"{name}.{key}"
        for name, table in tables.items()
        for key, prop in table["properties"].items()
        if not prop.get("description", "").strip()
    ]
    assert undescribed == []
    signatures = [
        name for name, table in schema["$defs"].items() if not table["description"] or "(*" in table["description"]
    ]
    assert signatures == []


def test_a_formulas_expression_names_every_function_of_the_language():
    """`chance_of`, `abs`, `dice`, `pick` and `is_given` were missing: the list is the engine's own table now."""
    from generator.model.formula import FUNCTIONS
    from generator.render.export import json_schema

    said = json_schema()["$defs"]["Formula"]["properties"]["expr"]["description"]
    assert [name for name in FUNCTIONS if f"`{name}`:" not in said] == []
    assert {"chance_of", "abs", "dice", "pick", "is_given"} <= set(FUNCTIONS)  # the trial's five, still there
