"""A ruleset finds its entries: its own first, then its bases' shared ones, each kind in its own section, in
reading order; the owner of an entry through every base. Entries are stood in for (only their ids matter)."""

from __future__ import annotations

from fractions import Fraction

import pytest

# -- the ruleset aggregate, on entries stood in for (only their ids matter to it) ---------------


def _ruleset(id, base=None, **sections):
    from types import SimpleNamespace

    from generator.model.ruleset import Ruleset

    entries = {name: tuple(SimpleNamespace(id=i, name=f"{id}:{i}") for i in ids) for name, ids in sections.items()}
    return Ruleset(id=id, meta=SimpleNamespace(title=f"The {id} rules"), base=base, **entries)


def test_a_ruleset_finds_its_own_entries_then_its_bases_shared_ones():
    base = _ruleset("base", values=("move", "save"), rules=("charge",), glossary=("hit",))
    child = _ruleset("child", base=base, values=("save",), rules=("rally",))
    assert child.title == "The child rules"
    assert child.get("values", "save").name == "child:save"
    assert child.get("values", "move").name == "base:move"
    assert child.get("glossary", "hit").name == "base:hit"
    with pytest.raises(KeyError, match="^'child has no rules entry `charge`'$"):
        child.get("rules", "charge")  # rules are not shared
    with pytest.raises(KeyError, match="^'child has no values entry `nothing`'$"):
        child.get("values", "nothing")
    with pytest.raises(KeyError, match="^'no section `meta`'$"):
        child.section("meta")
    with pytest.raises(KeyError, match="^'child has no values entry `mvoe`; did you mean `move`\\?'$"):
        child.get("values", "mvoe")  # the closest id the ruleset reaches, its base's too
    assert [e.name for e in child.reachable("values")] == ["child:save", "base:move"]
    assert [e.name for e in child.reachable("rules")] == ["child:rally"]
    assert [e.name for e in base.reachable("values")] == ["base:move", "base:save"]
    assert child.owner_of("values", "save") is child and child.owner_of("values", "move") is base
    assert child.owner_of("values", "nothing") is base and base.owner_of("values", "nothing") is base


def test_each_kind_of_entry_is_looked_up_in_its_own_section():
    sections = {
        "values": "v",
        "formulas": "f",
        "charts": "c",
        "lookups": "l",
        "tables": "t",
        "profiles": "p",
        "rules": "r",
        "spells": "s",
        "glossary": "g",
    }
    rules = _ruleset("x", **{section: (id, "other") for section, id in sections.items()})
    found = [
        rules.value("v"),
        rules.formula("f"),
        rules.chart("c"),
        rules.lookup("l"),
        rules.table("t"),
        rules.profile("p"),
        rules.rule("r"),
        rules.spell("s"),
        rules.term("g"),
    ]
    assert [e.name for e in found] == ["x:v", "x:f", "x:c", "x:l", "x:t", "x:p", "x:r", "x:s", "x:g"]
    with pytest.raises(KeyError):
        rules.value("f")


def test_a_rulesets_entries_ids_and_counts_follow_reading_order():
    rules = _ruleset("x", values=("a", "b"), chapters=("intro",), sheets=("qr",), rules=("r1",))
    assert [(s, e.id) for s, e in rules.all_entries()] == [
        ("chapters", "intro"),
        ("rules", "r1"),
        ("values", "a"),
        ("values", "b"),
        ("sheets", "qr"),
    ]
    assert rules.ids() == {"intro": "chapters", "r1": "rules", "a": "values", "b": "values", "qr": "sheets"}
    assert list(rules.counts().items()) == list(
        {
            "chapters": 1,
            "phases": 0,
            "rules": 1,
            "glossary": 0,
            "keywords": 0,
            "tables": 0,
            "profiles": 0,
            "spells": 0,
            "items": 0,
            "heroes": 0,
            "costs": 0,
            "army_limits": 0,
            "armies": 0,
            "victory_points": 0,
            "values": 2,
            "formulas": 0,
            "lookups": 0,
            "charts": 0,
            "sheets": 1,
        }.items()
    )  # in reading order


def test_unloaded_entries_are_known_by_id_and_section():
    from dataclasses import replace

    rules = replace(_ruleset("x"), unloaded=frozenset({("values", "broken")}))
    assert rules.is_unloaded("broken") and rules.is_unloaded("broken", "values")
    assert not rules.is_unloaded("broken", "rules") and not rules.is_unloaded("other")


def test_the_owner_of_an_entry_is_found_through_every_base():
    grand = _ruleset("grand", values=("old",))
    base = _ruleset("base", base=grand, values=("move",))
    child = _ruleset("child", base=base)
    assert child.owner_of("values", "old") is grand and child.owner_of("values", "move") is base


# -- a spell's chance on its table, on a ruleset checked from YAML ------------------------------
SPELLS = """\
ruleset: {title: Hedge magic}
tables:
  hedge_spells:
    title: Hedge spells
    dice: D6
    rows:
      - {roll: 1-2, result: Fireball, ref: fireball}
      - {roll: 3-5, result: Nothing happens}
      - {roll: 6, result: "Backfire: the caster burns"}
  lost_spells:
    title: Lost spells
    dice: D6
    rows:
      - {roll: not given, result: Mist, ref: mist}
      - {roll: not given, result: Nothing happens}
spells:
  fireball: {name: Fireball, table: hedge_spells, effect: Burns.}
  glow: {name: Glow, table: hedge_spells, effect: Shines.}
  mist: {name: Mist, table: lost_spells, effect: Hides.}
"""


def test_a_spells_chance_is_its_rows_and_none_where_it_has_no_row_or_the_text_gives_no_ranges(tmp_path):
    from helpers import make_project

    from generator.validate import check_project

    result = check_project(make_project(tmp_path, game=SPELLS))
    assert result.ok, [d.format() for d in result.diagnostics]
    game = result.project.ruleset("game")
    chances = {id: game.spell_chance(game.spell(id)) for id in ("fireball", "glow", "mist")}
    assert chances == {"fireball": Fraction(2, 6), "glow": None, "mist": None}  # 1-2 on a D6; no row; no ranges


def test_a_roll_role_names_a_row_by_its_result_up_to_the_first_colon_or_by_the_id_its_ref_names(tmp_path):
    from helpers import make_project

    from generator.validate import check_project

    game = check_project(make_project(tmp_path, game=SPELLS)).project.ruleset("game")
    for target, result in (
        ("hedge_spells:Backfire: the caster burns", "Backfire: the caster burns"),  # a result with a colon of its own
        ("hedge_spells: Nothing happens ", "Nothing happens"),
        ("hedge_spells:fireball", "Fireball"),
    ):
        table, row = game.table_row(target)
        assert (table.id, row.result) == ("hedge_spells", result), target
    with pytest.raises(KeyError, match="`hedge_spells` names no row: write {roll}`table:Result`"):
        game.table_row("hedge_spells")
