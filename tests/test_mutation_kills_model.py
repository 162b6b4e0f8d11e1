"""Focused tests that kill mutmut survivors in the model (see docs/mutation-survivors.md).

Every expected value is written by hand: the fractions from arithmetic done on paper, the texts
as a rule book prints them. None is computed with the code under test.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.model.base import Bounds, NotGiven
from generator.model.dice import DiceExpr, DiceSyntaxError, DiceTooLarge, RollRange, percent, target_probability
from generator.model.points import exact as exact_points
from generator.model.points import points_text
from generator.model.quantity import Quantity, QuantityError, QuantityTooLarge, number_text, parse_number


@pytest.mark.parametrize("text, value", [
    ("3", 3), ("-1", -1), ("−2", -2), ("+4", 4), ("1½", Fraction(3, 2)), ("1 1/2", Fraction(3, 2)),
    ("3/2", Fraction(3, 2)), ("1.5", Fraction(3, 2)), (".25", Fraction(1, 4)), ("2⅞", Fraction(23, 8)),
    ("1000000000", 1000000000), ("-1.05", Fraction(-21, 20)),
])
def test_parse_number_reads_every_written_form(text, value):
    parsed = parse_number(text)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize("text, error", [
    ("", QuantityError), ("abc", QuantityError), ("1/0", QuantityError), ("1 3/2", QuantityError),
    ("1 0/2", QuantityError), ("1000000001", QuantityTooLarge), ("-1000000001", QuantityTooLarge),
])
def test_parse_number_refuses(text, error):
    with pytest.raises(error):
        parse_number(text)


@pytest.mark.parametrize("value, text", [
    (3, "3"), (0, "0"), (Fraction(3, 2), "1½"), (Fraction(2, 3), "⅔"), (Fraction(-9, 4), "-2¼"),
    (Fraction(23, 8), "2 7/8"), (Fraction(7, 8), "7/8"), (Fraction(-7, 8), "-7/8"), (Fraction(4, 2), "2"),
    (Fraction(1, 3), "⅓"), (Fraction(3, 4), "¾"), (True, "True"), ("x", "x"), (2.5, "2.5"),
])
def test_number_text_prints_as_a_rule_book_does(value, text):
    assert number_text(value) == text


def test_points_are_whole_or_exact_fractions():
    assert exact_points(Fraction(6, 3)) == 2 and type(exact_points(Fraction(6, 3))) is int
    assert exact_points(Fraction(1, 2)) == Fraction(1, 2)
    assert exact_points(5) == 5
    for wrong in (True, 1.5, "2"):
        with pytest.raises(TypeError):
            exact_points(wrong)
    assert points_text(Fraction(5, 2)) == "2½"
    assert points_text(7) == "7"


@pytest.mark.parametrize("raw, kind, parsed_kind, magnitude, unit, shown", [
    ("6\"", "", "distance", 6, "inches", '6"'),
    ("3 hexes", "", "distance", 3, "hexes", "3 hexes"),
    ("1 hex", "", "distance", 1, "hexes", "1 hex"),
    ("1 hexes", "", "distance", 1, "hexes", "1 hex"),
    ("2 minutes", "", "count", 2, "minutes", "2 minutes"),
    ("1 minute", "", "count", 1, "minutes", "1 minute"),
    ("1 dice", "", "count", 1, "dice", "1 die"),
    ("1 die", "", "count", 1, "dice", "1 die"),
    ("1 tokens", "", "count", 1, "tokens", "1 token"),
    ("10 cm", "", "distance", 10, "cm", "10 cm"),
    ("5 mm", "", "distance", 5, "mm", "5 mm"),
    ("4 squares", "", "distance", 4, "squares", "4 squares"),
    ("50%", "", "count", 50, "percent", "50%"),
    ("4+", "", "target", 4, "", "4+"),
    ("4 +", "target", "target", 4, "", "4+"),
    ("1½", "", "number", Fraction(3, 2), "", "1½"),
    ("3", "count", "count", 3, "", "3"),
    ("3", "number", "number", 3, "", "3"),
    ("hello", "", "text", "hello", "", "hello"),
    ("4+", "text", "text", "4+", "", "4+"),
    ("2 furlongs", "", "count", 2, "furlongs", "2 furlongs"),
    ("6 in", "distance", "distance", 6, "inches", '6"'),
])
def test_quantity_parse_and_print(raw, kind, parsed_kind, magnitude, unit, shown):
    quantity = Quantity.parse(raw, kind)
    assert (quantity.kind, quantity.magnitude, quantity.unit) == (parsed_kind, magnitude, unit)
    assert quantity.value == magnitude
    assert quantity.written == raw.strip()
    assert str(quantity) == shown


def test_quantity_dice():
    quantity = Quantity.parse("2D6")
    assert quantity.kind == "dice" and str(quantity) == "2D6"
    assert Quantity.parse(" d6 ").kind == "dice"
    assert Quantity.parse("D6", "dice").kind == "dice"


@pytest.mark.parametrize("raw, kind, error", [
    ("4", "target", QuantityError), ("6", "distance", QuantityError), ("6 hexes", "number", QuantityError),
    ("6 h3x", "", QuantityError), ("abc", "number", QuantityError), ("D", "dice", QuantityError),
    ("2D5000", "dice", QuantityTooLarge), ("2D6 +", "", QuantityError),
])
def test_quantity_refuses(raw, kind, error):
    with pytest.raises(error):
        Quantity.parse(raw, kind)


def test_bounds_and_not_given_read_as_words():
    assert str(Bounds(1, 6)) == "from 1 to 6"
    assert str(Bounds(low=2)) == "at least 2"
    assert str(Bounds(high=9)) == "at most 9"
    assert str(Bounds(0, 0)) == "from 0 to 0"
    assert str(NotGiven()) == "not given" and repr(NotGiven("x")) == "not given: x"
    with pytest.raises(ValueError, match="not given"):  # a gap is never true or false
        bool(NotGiven("x"))


@pytest.mark.parametrize("key, low, high, shown", [
    (5, 5, 5, "5"), ("5", 5, 5, "5"), ("1-2", 1, 2, "1-2"), ("1 – 2", 1, 2, "1-2"), ("6+", 6, None, "6+"),
    ("1-", None, 1, "1 or less"), ("-1", -1, -1, "-1"), ("-2--1", -2, -1, "-2--1"), ("0", 0, 0, "0"),
])
def test_roll_ranges(key, low, high, shown):
    from generator.model.text import range_words

    roll = RollRange.parse(key)
    assert (roll.low, roll.high, range_words(roll)) == (low, high, shown)


def test_roll_range_membership_at_its_edges():
    assert [o for o in range(0, 9) if o in RollRange.parse("2-4")] == [2, 3, 4]
    assert RollRange.parse("5+").within(range(1, 8)) == [5, 6, 7]
    assert RollRange.parse("2-").within(range(1, 5)) == [1, 2]


@pytest.mark.parametrize("key, error", [
    (True, DiceSyntaxError), ("4-2", DiceSyntaxError), ("x", DiceSyntaxError), ("1000000001", DiceTooLarge),
    (10**9 + 1, DiceTooLarge), ("5++", DiceSyntaxError),
])
def test_roll_ranges_refused(key, error):
    with pytest.raises(error):
        RollRange.parse(key)


def test_target_probability_by_hand():
    assert target_probability(4) == Fraction(1, 2)
    assert target_probability(6) == Fraction(1, 6)
    assert target_probability(7) == 0
    assert target_probability(None) == 0
    assert target_probability(1) == 1
    assert target_probability(8, sides=8) == Fraction(1, 8)
    assert target_probability(3, sides=4) == Fraction(1, 2)


@pytest.mark.parametrize("probability, digits, text", [
    (Fraction(1, 3), 1, "33.3%"), (Fraction(2, 3), 1, "66.7%"), (Fraction(1, 2), 1, "50%"), (Fraction(1), 1, "100%"),
    (Fraction(0), 1, "0%"), (Fraction(1, 8), 1, "12.5%"), (Fraction(1, 8), 0, "13%"), (Fraction(1, 3), 2, "33.33%"),
    (Fraction(1, 400), 1, "0.3%"), (Fraction(1, 2000), 1, "0.1%"), (Fraction(1, 6), 1, "16.7%"),
])
def test_percent_rounds_halves_up(probability, digits, text):
    assert percent(probability, digits) == text


def test_percent_default_is_one_digit():
    assert percent(Fraction(1, 6)) == "16.7%"


@pytest.mark.parametrize("text, terms", [
    ("D6", "D6"), ("2D6", "2D6"), ("D6 + S - T", "D6 S T"), ("1d6", "D6"), ("-D6 + 3", "D6 3"),
])
def test_dice_terms_print_as_written(text, terms):
    assert " ".join(str(t) for t in DiceExpr.parse(text).terms) == terms


def test_dice_expression_facts():
    expr = DiceExpr.parse("2D6 + S - T + S + 1")
    assert expr.stats == ("S", "T")
    assert expr.is_modified
    assert not DiceExpr.parse("D6 + D3").is_modified
    assert str(expr.natural) == "2D6"
    assert str(DiceExpr.parse("D6  +   2")) == "D6 + 2"
    assert [t.sign for t in DiceExpr.parse("-D6 + 3 - S").terms] == [-1, 1, -1]


def test_dice_distributions_by_hand():
    assert DiceExpr.parse("D6 + S - T").bounds(S=4, T=3) == (2, 7)
    assert DiceExpr.parse("2D6").distribution()[7] == Fraction(6, 36)
    assert DiceExpr.parse("D3 - 1").distribution() == {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)}
    assert DiceExpr.parse("-D3").bounds() == (-3, -1)
    with pytest.raises(TypeError):
        DiceExpr.parse("D6 + S").die()


@pytest.mark.parametrize("text, error, offset", [
    ("", DiceSyntaxError, 0), ("3", DiceSyntaxError, 0), ("D6 +", DiceSyntaxError, 3), ("D6 D6", DiceSyntaxError, 3),
    ("+ D6", DiceSyntaxError, 0), ("- - D6", DiceSyntaxError, 2), ("D6 $", DiceSyntaxError, 3), ("D1", DiceSyntaxError, 0),
    ("0D6", DiceSyntaxError, 0), ("101D6", DiceSyntaxError, 0), ("100D21", DiceTooLarge, 0), ("100D20", None, 0), ("D1001", DiceTooLarge, 0),
    ("2D1000", None, 0), ("3D1000", DiceTooLarge, 0), ("D6 + 99999999999", DiceTooLarge, 5),
])
def test_dice_syntax_errors_and_caps(text, error, offset):
    if error is None:  # exactly at the caps: 100 dice, 2,000 dice × sides
        assert DiceExpr.parse(text).text == text
        return
    with pytest.raises(error) as caught:
        DiceExpr.parse(text)
    assert caught.value.offset == offset


# -- the expression language's functions, against dice counted by hand ---------------------------------
from generator.model import formula as F  # noqa: E402
import icepool  # noqa: E402


def _odds(die) -> dict:
    return {outcome: die.probability(outcome) for outcome in die.outcomes()}


def test_lowest_and_highest_of_two_d6_by_hand():
    # lowest of 2D6 is 1 in 11 of the 36 rolls, 6 in 1; highest mirrors it
    assert _odds(F.lowest(2))[1] == Fraction(11, 36) and _odds(F.lowest(2))[6] == Fraction(1, 36)
    assert _odds(F.highest(2))[6] == Fraction(11, 36) and _odds(F.highest(2))[1] == Fraction(1, 36)
    assert _odds(F.lowest(2, icepool.d(3)))[1] == Fraction(5, 9)
    assert _odds(F.highest(2, icepool.d(3)))[3] == Fraction(5, 9)
    assert _odds(F.lowest(0)) == {0: 1} and _odds(F.highest(0)) == {0: 1}


def test_count_total_mean_and_chance_by_hand():
    assert _odds(F.count(2, icepool.d6 >= 5)) == {0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}
    assert _odds(F.total(2, icepool.d(2))) == {2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
    assert F.mean(F.total(2, icepool.d6)) == 7
    assert F.chance(icepool.d6 >= 5) == Fraction(1, 3)
    assert F.chance(True) == 1 and F.chance(False) == 0 and F.chance(Fraction(1, 4)) == Fraction(1, 4)
    assert F.chance_of(icepool.d6, 3) == Fraction(1, 6)
    for wrong in (2, Fraction(-1, 2), "x"):
        with pytest.raises(F.FormulaError):
            F.chance(wrong)
    for wrong in (-1, 101, True, Fraction(1, 2)):
        with pytest.raises(F.FormulaError):
            F.count(wrong, icepool.d6 > 3)
    assert _odds(F.count(100, True)) == {100: 1} and _odds(F.count(0, True)) == {0: 1}


def test_where_clamp_each_and_rounding():
    assert F.where(True, 1, 2) == 1 and F.where(False, 1, 2) == 2 and F.where(0, "a", "b") == "b"
    assert _odds(F.where(icepool.d6 >= 4, 10, 20)) == {10: Fraction(1, 2), 20: Fraction(1, 2)}
    assert F.clamp(7, 1, 6) == 6 and F.clamp(0, 1, 6) == 1 and F.clamp(3, 1, 6) == 3
    assert _odds(F.clamp(icepool.d6, 2, 5))[2] == Fraction(1, 3)
    assert _odds(F.each(icepool.d(4), lambda o, k: o > k, 3)) == {False: Fraction(3, 4), True: Fraction(1, 4)}
    with pytest.raises(F.FormulaError):
        F.each(icepool.d6, 3)
    assert F.FUNCTIONS["floor"](Fraction(7, 2)) == 3 and F.FUNCTIONS["ceil"](Fraction(7, 2)) == 4
    assert F.FUNCTIONS["floor"](Fraction(-7, 2)) == -4
    assert _odds(F.FUNCTIONS["ceil"](icepool.d(2) + 0)) == {1: Fraction(1, 2), 2: Fraction(1, 2)}


def test_dice_function_caps():
    assert _odds(F._dice(1, 1)) == {1: 1}
    assert F._dice(1, 1000).max_outcome() == 1000 and F._dice(100, 2).max_outcome() == 200
    assert _odds(F._dice(0, 6)) == {0: 1}
    for count, sides in ((1, 0), (1, 1001), (-1, 6), (101, 6)):
        with pytest.raises(F.FormulaError):
            F._dice(count, sides)
    with pytest.raises(F.FormulaError):
        F._as_die("x")
    assert _odds(F._as_die(3)) == {3: 1}


def test_a_dice_syntax_error_points_at_the_start_unless_told():
    assert DiceSyntaxError("m").offset == 0
    assert DiceSyntaxError("m", 4).offset == 4
    with pytest.raises(DiceSyntaxError) as caught:
        RollRange.parse("4-2")
    assert caught.value.offset == 0


def test_a_value_the_text_does_not_give_says_so_when_used(tmp_path):
    from generator.model.calculate import NotGivenValue, calculator
    from generator.source.project import load_project

    folder = tmp_path / "rules_src" / "game"
    folder.mkdir(parents=True)
    (folder / "ruleset.yaml").write_text(
        "ruleset: {title: A game}\nvalues:\n  reach: {value: 3 hexes, label: Reach}\n"
        "  rally: {value: not given, label: Rally}\n", encoding="utf-8")
    project, diagnostics = load_project(tmp_path)
    assert not diagnostics.errors, [d.format() for d in diagnostics.errors]
    values = calculator(project.ruleset("game")).values()
    assert values.reach == 3
    with pytest.raises(NotGivenValue, match="does not give the value `rally`"):
        values.rally + 1
    with pytest.raises(AttributeError, match="has no value `nothing`"):
        values.nothing


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
    assert [e.name for e in child.reachable("values")] == ["child:save", "base:move"]
    assert [e.name for e in child.reachable("rules")] == ["child:rally"]
    assert [e.name for e in base.reachable("values")] == ["base:move", "base:save"]
    assert child.owner_of("values", "save") is child and child.owner_of("values", "move") is base
    assert child.owner_of("values", "nothing") is base and base.owner_of("values", "nothing") is base


def test_each_kind_of_entry_is_looked_up_in_its_own_section():
    sections = {"values": "v", "formulas": "f", "charts": "c", "lookups": "l", "tables": "t", "profiles": "p",
                "rules": "r", "spells": "s", "glossary": "g"}
    rules = _ruleset("x", **{section: (id, "other") for section, id in sections.items()})
    found = [rules.value("v"), rules.formula("f"), rules.chart("c"), rules.lookup("l"), rules.table("t"),
             rules.profile("p"), rules.rule("r"), rules.spell("s"), rules.term("g")]
    assert [e.name for e in found] == ["x:v", "x:f", "x:c", "x:l", "x:t", "x:p", "x:r", "x:s", "x:g"]
    with pytest.raises(KeyError):
        rules.value("f")


def test_a_rulesets_entries_ids_and_counts_follow_reading_order():
    rules = _ruleset("x", values=("a", "b"), chapters=("intro",), sheets=("qr",), rules=("r1",))
    assert [(s, e.id) for s, e in rules.all_entries()] == [
        ("chapters", "intro"), ("rules", "r1"), ("values", "a"), ("values", "b"), ("sheets", "qr")]
    assert rules.ids() == {"intro": "chapters", "r1": "rules", "a": "values", "b": "values", "qr": "sheets"}
    assert list(rules.counts().items()) == list({"chapters": 1, "phases": 0, "rules": 1, "glossary": 0, "keywords": 0, "tables": 0,
                              "profiles": 0, "spells": 0, "items": 0, "heroes": 0, "costs": 0, "army_limits": 0,
                              "armies": 0, "victory_points": 0, "values": 2, "formulas": 0, "lookups": 0,
                              "charts": 0, "sheets": 1}.items())  # in reading order


def test_unloaded_entries_are_known_by_id_and_section():
    from dataclasses import replace

    rules = replace(_ruleset("x"), unloaded=frozenset({("values", "broken")}))
    assert rules.is_unloaded("broken") and rules.is_unloaded("broken", "values")
    assert not rules.is_unloaded("broken", "rules") and not rules.is_unloaded("other")


def test_an_example_counts_its_statements():
    from generator.model.ruleset import Example

    source = ">>> a = 1\n>>> a + 1\n2\n  >>> b\n... c\n# >>> not one\n"
    assert Example(ruleset="x", entry="rules.r", path="p", line=1, source=source).statements == 3


# -- the field and function builders, called directly (the model calls them while it is imported) --

def test_a_spec_field_carries_its_help_example_and_key():
    import dataclasses

    from generator.model.base import spec

    made = spec("How far it moves.", 3, example="6\"", key="move")
    assert made.default == 3 and dict(made.metadata) == {"help": "How far it moves.", "example": "6\"", "key": "move"}
    bare = spec("Required.")
    assert bare.default is dataclasses.MISSING and dict(bare.metadata) == {"help": "Required.", "example": None, "key": None}
    assert spec("A tuple is fine.", ()).default == ()
    for mutable in ([], {}, set()):
        with pytest.raises(TypeError, match="^use a tuple for defaults$"):
            spec("Mutable.", mutable)


def test_the_quick_reference_field_explains_its_default():
    from generator.model.base import quick_field

    shown = quick_field("rule", True)
    assert shown.default is True and dict(shown.metadata) == {
        "help": "Put the rule on the ruleset's quick reference (printed unless `false`): `true`, or "
                "`{summary: ...}` to print a short summary instead of the full text.",
        "example": "{summary: Roll a D6 for each hit.}", "key": None}
    hidden = quick_field("spell")
    assert hidden.default is False and hidden.metadata["help"] == (
        "Put the spell on the ruleset's quick reference (left off unless marked): `true`, or "
        "`{summary: ...}` to print a short summary instead of the full text.")


def test_an_entry_id_field_is_internal_and_empty_by_default():
    from generator.model.entries import _id

    made = _id()
    assert made.default == "" and dict(made.metadata) == {"internal": True}


def test_floor_and_ceil_round_exact_numbers_and_every_face_of_a_die():
    import math

    import icepool

    from generator.model.formula import _round

    floor, ceil = _round(math.floor), _round(math.ceil)
    assert floor(Fraction(7, 2)) == 3 and ceil(Fraction(7, 2)) == 4 and floor(-0.5) == -1 and ceil(2) == 2
    halves = icepool.Die([Fraction(1, 2), Fraction(3, 2), Fraction(3, 2)])
    assert floor(halves) == icepool.Die([0, 1, 1]) and ceil(halves) == icepool.Die([1, 2, 2])


def test_the_location_fields_are_internal_and_left_out_of_comparison():
    from types import MappingProxyType

    from generator.model.base import NOWHERE, located
    from generator.model.entries import _locs

    loc, locs = located()
    assert (loc.default, loc.compare, loc.repr, dict(loc.metadata)) == (NOWHERE, False, False, {"internal": True})
    assert (locs.compare, locs.repr, dict(locs.metadata)) == (False, False, {"internal": True})
    assert locs.default_factory() == MappingProxyType({}) and isinstance(locs.default_factory(), MappingProxyType)
    own = _locs()
    assert (own.compare, own.repr, dict(own.metadata)) == (False, False, {"internal": True})
    assert own.default_factory() == {} and isinstance(own.default_factory(), MappingProxyType)


def test_a_source_prints_as_file_and_section():
    from generator.model.base import Source

    assert str(Source(file="rules.txt", section="FIGHTING")) == "rules.txt § FIGHTING"
    assert str(Source(file="rules.txt")) == "rules.txt"


def test_a_rows_keywords_give_their_parameters():
    from generator.model.base import NotGiven
    from generator.model.entries import ProfileRow

    row = ProfileRow(id="gun", name="Great gun", keywords=("SHOOTS 12", "Fear", "Range -1 2", "Big Gun 3", "7", "FAST --3"))
    assert row.keyword("shoots") == (12,) and row.keyword("FEAR") == () and row.keyword("range") == (-1, 2)
    # a lone number is the keyword's name, and `--3` no number: the row reads keywords as the checks do (split_keyword)
    assert row.keyword("big gun") == (3,) and row.keyword("Charge") is None and row.keyword("") is None
    assert row.keyword("7") == () and row.keyword("fast --3") == () and row.keyword("fast") is None
    with pytest.raises(LookupError, match="^the source does not give the special rules of Great gun$"):
        ProfileRow(id="x", name="Great gun", keywords=NotGiven()).keyword("fear")


def test_a_matrix_finds_rows_columns_and_how_far_a_row_moves():
    from generator.model.entries import Column, ProfileMatrix, ProfileRow

    foot = ProfileRow(id="heavy_foot", name="Heavy foot")
    horse = ProfileRow(id="knights", name="Mounted knights", movement="mounted_move")
    matrix = ProfileMatrix(id="troops", title="Troops", movement="move",
                           columns=(Column(id="attack", label="ATTACK"), Column(id="armour", label="ARMOUR")),
                           rows=(foot, horse))
    assert matrix.column("armour").label == "ARMOUR" and matrix.column("attack").label == "ATTACK"
    assert matrix.movement_of(foot) == "move" and matrix.movement_of(horse) == "mounted_move"
    assert matrix.row("Heavy foot") is foot and matrix.row("heavy foot") is foot and matrix.row("KNIGHTS") is horse
    assert matrix.row("mounted knights") is horse
    with pytest.raises(KeyError):
        matrix.row("archers")


def test_long_dice_text_is_cut_to_forty_characters_in_messages():
    from generator.model.dice import _short

    assert _short("x" * 40) == "x" * 40
    assert _short("y" * 41) == "y" * 39 + "…"


def test_a_missing_value_says_so_and_dunder_lookups_stay_plain():
    from generator.model.calculate import Values

    values = Values(move=6)
    assert values.move == 6
    with pytest.raises(AttributeError, match="^the ruleset has no value `charge`$"):
        values.charge
    with pytest.raises(AttributeError, match="^__deepcopy_hook__$"):
        values.__deepcopy_hook__


def test_dice_and_text_quantities_print_as_written_and_one_die_is_a_die():
    assert str(Quantity("dice", "2D6", "dice")) == "2D6"
    assert str(Quantity("text", "all of them", "models")) == "all of them"
    assert str(Quantity("count", 1, "dice")) == "1 die"
    assert str(Quantity("count", 2, "dice")) == "2 dice"
    assert str(Quantity("count", 1, "models")) == "1 model"


def test_a_formula_error_shows_rolls_fractions_and_other_values_plainly():
    import icepool

    from generator.model.formula import _show

    assert _show(icepool.d6) == "a roll"
    assert _show(Fraction(1, 2)) == "1/2"
    assert _show("x") == "'x'" and _show(3) == "3"


def test_a_table_rows_value_is_its_number_else_its_result():
    from types import SimpleNamespace

    from generator.model.calculate import _row_value

    assert _row_value(SimpleNamespace(value=Quantity.parse("3"), result="three")) == 3
    assert _row_value(SimpleNamespace(value=0, result="zero")) == 0
    assert _row_value(SimpleNamespace(value=None, result="none")) == "none"
    assert _row_value(SimpleNamespace(result="no value field")) == "no value field"


def test_each_needs_something_to_call():
    import icepool

    from generator.model.formula import FormulaError, each

    with pytest.raises(FormulaError, match=r"^each\(\) takes a roll and a formula, table or lookup$"):
        each(icepool.d6, 3)
    assert each(icepool.d6, lambda outcome, extra: outcome + extra, 10) == icepool.d6 + 10


# -- a formula's inputs and their messages, on stand-in formulas (only these attributes are read) -------

def _spec(id="a", type="int", **given):
    from types import SimpleNamespace

    fields = dict(id=id, label=id.upper(), type=type, optional=False, default=None, choices=(), min=None, max=None)
    fields.update(given)
    return SimpleNamespace(**fields)


def _formula(*specs, id="f"):
    from types import SimpleNamespace

    return SimpleNamespace(id=id, inputs=specs, let=(), results=(), expr=SimpleNamespace(evaluate=lambda scope: scope),
                           result="number", unit="")


def _input_error(spec, **given):
    from generator.model.calculate import _input
    from generator.model.formula import FormulaError

    with pytest.raises(FormulaError) as error:
        _input(_formula(spec), spec, given)
    return str(error.value)


def test_each_kind_of_wrong_input_is_named_in_its_message():
    import icepool

    from generator.model.calculate import _input

    assert _input_error(_spec()) == "f needs the input `a` (A)"
    assert _input_error(_spec(type="bool"), a=1) == "`a` of f is true or false, not 1"
    assert _input_error(_spec(type="text", choices=("left", "right")), a="up") == "`a` of f is one of left, right, not 'up'"
    assert _input_error(_spec(type="text", choices=("left", "right")), a=3) == "`a` of f is one of left, right, not 3"
    assert _input_error(_spec(type="text"), a=3) == "`a` of f is a text, not 3"
    assert _input_error(_spec(), a=True) == "`a` of f is a number, not True"
    assert _input_error(_spec(), a="3") == "`a` of f is a number, not '3'"
    assert _input_error(_spec(), a=Fraction(1, 2)) == "`a` of f is a whole number, not 1/2"
    assert _input_error(_spec(min=1, max=6), a=7) == "`a` of f runs from 1 to 6, not 7"
    assert _input_error(_spec(min=1), a=0) == "`a` of f runs at least 1, not 0"
    assert _input_error(_spec(max=6), a=9) == "`a` of f runs at most 6, not 9"
    assert _input(_formula(), _spec(type="number", min=1, max=6), {"a": Fraction(7, 2)}) == Fraction(7, 2)
    assert _input(_formula(), _spec(type="text", choices=("left",)), {"a": "left"}) == "left"
    assert _input(_formula(), _spec(type="bool"), {"a": False}) is False
    assert _input(_formula(), _spec(optional=True), {"a": None}) is None
    assert _input(_formula(), _spec(default=Quantity.parse("4")), {}) == 4
    assert _input(_formula(), _spec(min=10), {"a": icepool.d6}) is icepool.d6


def test_a_formula_call_names_its_inputs_when_the_arguments_are_wrong():
    from generator.model.calculate import Calculator
    from generator.model.formula import FormulaError

    calc = Calculator.__new__(Calculator)
    calc.scope = {"move": 6}
    two = _formula(_spec("a"), _spec("b"))
    assert calc.evaluate(two, 1, b=2) == {"move": 6, "a": 1, "b": 2}
    for args, kwargs, message in [((1, 2, 3), {}, "f takes 2 inputs (a, b), not 3"),
                                  ((), {"c": 1}, "f has no input `c`; its inputs are a, b"),
                                  ((1,), {"a": 1}, "f got `a` twice")]:
        with pytest.raises(FormulaError) as error:
            calc.evaluate(two, *args, **kwargs)
        assert str(error.value) == message
    with pytest.raises(FormulaError) as error:
        calc.evaluate(_formula(id="g"), c=1)
    assert str(error.value) == "g has no input `c`; its inputs are none"


def test_a_lookup_row_is_found_by_word_or_number_never_by_a_bool():
    from types import SimpleNamespace

    from generator.model.computed import Lookup
    from generator.model.dice import RollRange

    rout, close = SimpleNamespace(match="Rout", when=None), SimpleNamespace(match="", when=RollRange.parse("1-2"))
    table = SimpleNamespace(title="Outcome", rows=(rout, close))
    assert Lookup.row(table, " rout ") is rout and Lookup.row(table, 2) is close
    for key, shown in (("hold", "'hold'"), (True, "True"), (5, "5")):
        with pytest.raises(LookupError, match=f"^Outcome has no row for {shown}$"):
            Lookup.row(table, key)


def test_clamp_keeps_numbers_and_every_face_of_a_roll_within_bounds():
    import icepool

    from generator.model.formula import clamp

    assert clamp(7, 1, 6) == 6 and clamp(-1, 1, 6) == 1 and clamp(Fraction(5, 2), 1, 6) == Fraction(5, 2)
    assert clamp(icepool.d6, 2, 5) == icepool.Die({2: 2, 3: 1, 4: 1, 5: 2})


def test_a_formula_error_keeps_where_in_the_text_it_is():
    from generator.model.formula import FormulaError

    assert FormulaError("bad", 4).offset == 4 and FormulaError("bad").offset == 0 and str(FormulaError("bad", 4)) == "bad"


def test_formulas_tables_and_lookups_are_functions_that_describe_themselves():
    import inspect
    from types import SimpleNamespace

    import icepool

    from generator.model.calculate import Calculator, _lookup_reader, _table_reader

    calc = Calculator.__new__(Calculator)
    calc.scope = {}
    formula = _formula(_spec("strength"), _spec("toughness"), id="to_wound")
    formula.title = "To wound"
    call = calc.function(formula)
    assert (call.__name__, call.__qualname__, call.__doc__) == ("to_wound", "to_wound", "To wound")
    assert str(inspect.signature(call)) == "(strength, toughness)"
    table = SimpleNamespace(id="injury", title="Injuries", lookup=lambda total: SimpleNamespace(value=None, result=f"r{total}"))
    read = _table_reader(table)
    assert (read.__name__, read.__doc__) == ("injury", "The row of Injuries for a rolled total (or a roll): its value, else its result.")
    lookup = SimpleNamespace(id="outcome", title="Outcome", key="Difference", read=lambda key: key * 10)
    read = _lookup_reader(lookup)
    assert (read.__name__, read.__doc__) == ("outcome", "The row of Outcome for a difference: its value, else its result.")
    assert read(2) == 20 and read(icepool.d6) == icepool.Die([10, 20, 30, 40, 50, 60])
    lookup.key = ""
    assert _lookup_reader(lookup).__doc__ == "The row of Outcome for a key: its value, else its result."


def test_a_formulas_signature_lists_required_inputs_first_and_the_rest_by_keyword():
    from generator.model.calculate import _signature

    formula = _formula(_spec("a"), _spec("b", default=Quantity.parse("2")), _spec("c"), _spec("d", optional=True))
    assert str(_signature(formula)) == "(a, b=2, d=None, *, c)"
    assert str(_signature(_formula(_spec("x"), _spec("y")))) == "(x, y)"
    assert str(_signature(_formula(_spec("x", optional=True), _spec("y")))) == "(x=None, *, y)"


def test_the_owner_of_an_entry_is_found_through_every_base():
    grand = _ruleset("grand", values=("old",))
    base = _ruleset("base", base=grand, values=("move",))
    child = _ruleset("child", base=base)
    assert child.owner_of("values", "old") is grand and child.owner_of("values", "move") is base


# -- what an expression may hold: each refusal's message and the column it points at (0-based, counted by hand)

NOT_ALLOWED = "is not allowed in a formula (no attributes, subscripts, lambdas or comprehensions)"


@pytest.mark.parametrize("text, message, offset", [
    ("1 + 2 ** 3", "`**` is not allowed in a formula", 4),
    ("a and b << 2", "`<<` is not allowed in a formula", 6),
    ("x is y", "compare with == != < <= > >= or `in`", 0),
    ("1 + (x is y)", "compare with == != < <= > >= or `in`", 5),
    ("1 + 2.5", "`2.5` is not a whole number up to 1,000,000,000,000 or a text", 4),
    ("1000000000001", "`1000000000001` is not a whole number up to 1,000,000,000,000 or a text", 0),
    ("-1000000000001", "`1000000000001` is not a whole number up to 1,000,000,000,000 or a text", 1),
    ("x + a.b(1)", "only functions, formulas and tables can be called, by name", 4),
    ("f(**k)", "write arguments one by one", 0),
    ("1 + f(*a)", "write arguments one by one", 4),
    ("x + y[1]", f"`y[1]` {NOT_ALLOWED}", 4),
    ("1 + (lambda: 1)", f"`lambda: 1` {NOT_ALLOWED}", 5),
    ("2 + ~x", "`~` is not allowed in a formula", 4),
], ids=["power", "shift", "is", "is-inside", "decimal", "too-big", "too-small", "method", "kwargs", "starred", "subscript", "lambda",
        "invert"])
def test_a_refused_expression_says_why_and_where(text, message, offset):
    from generator.model.formula import Expression, FormulaError

    with pytest.raises(FormulaError) as error:
        Expression.parse(text)
    assert (str(error.value), error.value.offset) == (message, offset)


@pytest.mark.parametrize("text", ["1000000000000", "-1000000000000", "x + None", "x in (1, 2)", "x not in [1]", "f(a=1)"])
def test_an_allowed_expression_parses(text):
    from generator.model.formula import Expression

    assert Expression.parse(text).text == text


# -- evaluation: each kind of node on plain numbers, the values worked out by hand --------------------

EVAL_SCOPE = {"x": 3, "a": 0, "b": 5, "c": 2, "f": lambda a, b=0: a - b, "n": 7}


@pytest.mark.parametrize("text, expected", [
    ("-x", -3), ("+x", 3), ("not a", True),
    ("(x, 2)", (3, 2)), ("[x]", (3,)),
    ("a and b", 0), ("c and b", 5), ("a or b", 5), ("c or b", 2), ("c and b and a", 0),
    ("x if a else b", 5),
    ("x in (1, 2, 3)", True), ("x not in (1, 2)", True), ("x not in (1, 2, 3)", False), ("x in 3", True),
    ("1 < x < 4", True), ("1 < x < 3", False),
    ("f(5, b=2)", 3), ("f(5, b=c)", 3),
])
def test_an_expression_evaluates_as_worked_by_hand(text, expected):
    from generator.model.formula import Expression

    assert Expression.parse(text).evaluate(EVAL_SCOPE) == expected


def test_a_conditional_on_a_roll_weighs_both_branches():
    from generator.model.formula import Expression

    # D6 >= 4 is even odds, so each branch weighs 1/2
    assert _odds(Expression.parse("1 if D6 >= 4 else 2").evaluate({})) == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    # the branches read the scope too
    assert _odds(Expression.parse("x if D6 >= 4 else c").evaluate(EVAL_SCOPE)) == {3: Fraction(1, 2), 2: Fraction(1, 2)}
    # half the time -D6 (each of -6..-1 at 1/12), half the time +D6 (each of 1..6 at 1/12)
    assert _odds(Expression.parse("-D6 if D6 >= 4 else +D6").evaluate({})) == {
        v: Fraction(1, 12) for v in (-6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6)}


@pytest.mark.parametrize("text, message", [
    ("y + 1", "`y` is not an input, a value or a `let` name here"),
    ("n(2)", "`n` is not a function, a formula or a table"),
])
def test_an_unknown_name_or_function_says_which(text, message):
    from generator.model.formula import Expression, FormulaError

    with pytest.raises(FormulaError) as error:
        Expression.parse(text).evaluate(EVAL_SCOPE)
    assert str(error.value) == message
