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
