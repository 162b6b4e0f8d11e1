"""`rulepress export` of an overlay (generator/render/export.py): a house value carries what the text gives, and a
worked example its house values change carries both results, as every other output shows them."""

from __future__ import annotations

import json

import jsonschema
from helpers import ROOT

from generator.cli import main


def test_an_overlays_export_shows_each_house_value_beside_the_texts_and_the_examples_it_changes(tmp_path, capsys):
    assert main(["-C", str(ROOT), "export", "--out", str(tmp_path / "export")]) == 0
    capsys.readouterr()
    schema = json.loads((tmp_path / "export" / "ruleset.schema.json").read_text(encoding="utf-8"))
    house, text = (
        json.loads((tmp_path / "export" / f"{name}.json").read_text(encoding="utf-8"))
        for name in ("rampant_hex_house", "rampant_hex")
    )
    for exported in (house, text):
        jsonschema.validate(exported, schema, cls=jsonschema.Draft202012Validator)
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

    from helpers import sample_check

    from generator.model.ruleset import HouseResult
    from generator.render.export import ruleset_json
    from generator.render.present import shown_examples

    house = sample_check().project.ruleset("rampant_hex_house")
    example = shown_examples(house, "player")[0]
    changed = HouseResult(example.entry, "", example.path, example.line, (("3", "4"),))  # as check finds them
    secret = tuple(  # its house value made the game-master's
        dataclasses.replace(v, audience="gm") if v.id == "riders_move" else v for v in house.values
    )
    told = lambda ruleset, audience: [  # noqa: E731
        e["house_results"] for e in ruleset_json(ruleset, audience)["examples"] if "house_results" in e
    ]
    assert told(dataclasses.replace(house, house_results=(changed,)), "player") == [
        [{"the_text": "3", "house_rules": "4"}]
    ]
    hidden = dataclasses.replace(house, values=secret, house_results=(changed,))
    assert told(hidden, "player") == []
    assert told(hidden, "gm") == [[{"the_text": "3", "house_rules": "4"}]]
