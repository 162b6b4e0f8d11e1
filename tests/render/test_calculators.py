"""Odds calculators: every answer a calculator holds, against the published charts and against enumerating dice.

The oracles never call the engine: the Warhammer Fantasy charts are typed from the rulebook
(tests/rulesets/published_charts.py), shooting at 7+ and over is two real dice enumerated, and Rampant Hex's hits
are every face of every attack die counted ("Any dice that score higher than the targets ARMOUR cause one hit", 004).
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from types import MappingProxyType

import pytest
from dice_counting import hits_by_counting
from dice_enumeration import Dist, Oracle
from helpers import make_project, sample_project
from rulesets.published_charts import TO_HIT_CHART, TO_WOUND_CHART, shooting_by_enumeration

from generator.render import calculators as calc
from generator.render.present import minus_text, shown
from generator.render.sheets.charts import exact_number_text
from generator.validate import check_project


def tabled(ruleset_id: str, formula_id: str) -> calc.Tabled:
    """A sample's calculator for the players, made as a build makes it: by its key, once a process (a fresh one
    equals it: test_no_calculator_reads_a_rules_wording_or_its_examples). The model is the samples' one load a
    worker makes (calculators read the model alone: a checked project holds the same)."""
    ruleset = sample_project()[0].ruleset(ruleset_id)
    return next(
        t for t in calc.calculators(ruleset, "player", calc.computed_key(ruleset)) if t.formula.id == formula_id
    )


def answers(found: calc.Tabled) -> dict[tuple[str, ...], list[dict]]:
    """Each answer by the options picked, as a player sees them."""
    options = [spec["options"] for spec in found.data["inputs"]]
    return dict(zip(itertools.product(*options), found.data["answers"], strict=True))


def fraction(chance: dict) -> Fraction:
    return Fraction(chance["exact"])


def test_the_to_hit_calculator_gives_the_published_chart():
    by_pick = answers(tabled("warhammer_fantasy_charts", "to_hit_melee"))
    assert len(by_pick) == 100
    for attacker, row in TO_HIT_CHART.items():
        for defender, needed in enumerate(row, 1):
            (part,) = by_pick[(str(attacker), str(defender))]
            assert part["text"] == f"{needed}+"
            assert fraction(part["chance"]) == Fraction(7 - needed, 6)


def test_the_to_wound_calculator_gives_the_published_chart():
    by_pick = answers(tabled("warhammer_fantasy_charts", "to_wound"))
    for strength, row in TO_WOUND_CHART.items():
        for toughness, needed in enumerate(row, 1):
            (part,) = by_pick[(str(strength), str(toughness))]
            assert part["text"] == ("impossible" if needed is None else f"{needed}+")
            assert fraction(part["chance"]) == (0 if needed is None else Fraction(7 - needed, 6))


def test_the_shooting_calculator_takes_any_total_modifier_with_two_dice_odds():
    """BS 1 to 10 (the chart's rows) and every total modifier from -5 to +5: the chance is the chart's own (a 6, then
    a second roll, from 7+), never a roll of 7 on one die."""
    by_pick = answers(tabled("warhammer_fantasy_charts", "to_hit_shooting"))
    assert len(by_pick) == 10 * 11
    for bs, modifier in itertools.product(range(1, 11), range(-5, 6)):
        shown = "±0" if modifier == 0 else f"{modifier:+d}".replace("-", "\u2212")
        (part,) = by_pick[(str(bs), shown)]
        assert fraction(part["chance"]) == shooting_by_enumeration(bs, modifier), (bs, modifier)


# 000: "Cover ... confers a -1 modifier to the shooting. Other shooting modifiers are for moving, large target, and
# long range ..., as in Fantasy": Fantasy's -1 for moving and long range, +1 for a large target.
SHOOTING_MODIFIERS = {"cover": -1, "moving": -1, "long_range": -1, "large_target": +1}


def test_a_shot_takes_any_combination_of_the_modifiers_the_rules_allow():
    by_pick = answers(tabled("ordo_ineptus", "shot_with_modifiers"))
    assert len(by_pick) == 10 * 2**4
    for bs in range(1, 11):
        for ticked in itertools.product((False, True), repeat=4):
            modifier = sum(m for m, on in zip(SHOOTING_MODIFIERS.values(), ticked) if on)
            roll, chance = by_pick[(str(bs), *("yes" if on else "no" for on in ticked))]
            needed = 7 - bs - modifier
            assert roll == {"text": "impossible" if needed >= 10 else f"{max(2, needed)}+"}  # no chance of one die
            assert Fraction(chance["exact"]) == shooting_by_enumeration(bs, modifier), (bs, ticked)
    # 000's own example: "A firer of Ballistic Skill 3 who moved needs a 5 to hit"
    assert by_pick[("3", "no", "yes", "no", "no")][0]["text"] == "5+"


def test_the_hits_calculator_gives_every_roll_of_the_attack_dice():
    found = tabled("rampant_hex", "hits")
    options = [spec["options"] for spec in found.data["inputs"]]
    assert [spec["label"] for spec in found.data["inputs"]] == ["ATTACK", "ARMOUR"]
    for (attack, armour), (part,) in answers(found).items():
        expected = hits_by_counting(int(attack), int(armour))
        rows = part["roll"]["rows"]
        assert [int(r["result"]) for r in rows] == list(expected), (attack, armour)
        below = Fraction(0)
        for row, chance in zip(rows, expected.values()):
            assert fraction(row["exactly"]) == chance
            assert fraction(row["at_least"]) == 1 - below and fraction(row["at_most"]) == below + chance
            below += chance
    assert options[0][0] == "0" and len(answers(found)) == len(options[0]) * len(options[1])


WIDE = """\
ruleset: {title: Wide}
formulas:
  pool:
    title: A pool of dice
    inputs:
      dice: {label: Dice, type: int, min: 1, max: 120}
      bonus: {label: Bonus, type: int, min: 0}
    expr: dice + bonus
"""


KEPT = """\
ruleset: {title: Fury}
formulas:
  kept:
    title: Three dice, keep the highest two
    expr: keep_highest(2, 3)
    result: roll
  plain:
    title: A fixed number
    expr: 3 + 4
"""


def test_a_roll_with_no_inputs_has_a_calculator_of_its_chances_and_a_number_has_none(tmp_path):
    """ "Roll 3D6, keep the highest 2" has no inputs, and it is the roll a player most wants the odds of: the page
    said it had no inputs to choose. Its chances are those of every roll of three dice, listed. A number with no
    inputs has nothing to pick: the page names it with its one answer."""
    result = check_project(make_project(tmp_path, fury=KEPT))
    assert result.ok, [d.format() for d in result.diagnostics]
    fury = result.project.ruleset("fury")
    kept, plain = (calc.tabulate(fury, formula) for formula in fury.formulas)
    rolls = list(itertools.product(range(1, 7), repeat=3))
    totals = [sum(sorted(roll)[1:]) for roll in rolls]
    [[part]] = kept.data["answers"]
    assert kept.data["inputs"] == [] and [int(row["result"]) for row in part["roll"]["rows"]] == sorted(set(totals))
    for row in part["roll"]["rows"]:
        total = int(row["result"])
        assert fraction(row["exactly"]) == Fraction(totals.count(total), len(rolls))
        assert fraction(row["at_least"]) == Fraction(sum(t >= total for t in totals), len(rolls))
    assert plain.data is None and plain.why == f"it has no inputs to choose, and is always {3 + 4}"


STEP = KEPT.replace(
    "  plain:\n",
    "  step:\n    title: A die kept so far\n    calculator: false\n    inputs:\n"
    "      face: {label: Face, type: int, min: 1, max: 6}\n    expr: face + 1\n  plain:\n",
)


def test_a_formula_marked_as_a_step_gets_no_calculator(tmp_path):
    """The helpers a dice mechanic needs (a die kept so far, an exploding die's level) were each published to
    players with a calculator, about half of one game's: `calculator: false` leaves a step out."""
    result = check_project(make_project(tmp_path, fury=STEP))
    assert result.ok, [d.format() for d in result.diagnostics]
    fury = result.project.ruleset("fury")
    assert [f.id for f in fury.formulas] == ["kept", "step", "plain"]
    assert [t.formula.id for t in calc.calculators(fury, "player")] == ["kept", "plain"]


def test_a_bounded_input_with_too_many_values_for_a_picker_says_how_many_not_any(tmp_path):
    """Dice 1 to 120 is bounded: the page said it "can take any value"."""
    result = check_project(make_project(tmp_path, wide=WIDE))
    assert result.ok, [d.format() for d in result.diagnostics]
    ruleset = result.project.ruleset("wide")
    assert calc.tabulate(ruleset, ruleset.formulas[0]).why == "Bonus can take any value; Dice takes 120 values"


def test_a_formula_that_takes_any_value_or_too_many_has_no_calculator_and_says_why(monkeypatch):
    full_ranks = tabled("bad_moon_rising", "full_ranks_removed")
    assert full_ranks.data is None and full_ranks.why == "Models removed, Models in a full rank can take any value"
    monkeypatch.setattr(calc, "MAX_COMBINATIONS", 1000)
    # made afresh under the smaller cap, and forgotten after (rampant_hex's others as this process made them)
    monkeypatch.setattr(calc, "_MADE", made_but(sample_project()[0].ruleset("rampant_hex"), "chance_of_hits"))
    many = tabled("rampant_hex", "chance_of_hits")  # ATTACK 0-12, ARMOUR 0-8, exactly 0-12: 13 x 9 x 13
    assert many.data is None and many.why == "its inputs combine in 1,521 ways"


def made_but(ruleset, left_out: str) -> dict:
    """What the calculators remember of ``ruleset`` once all its calculators are made (in this process, by the
    first test to ask), but for ``left_out``'s: a ``_MADE`` where only that one is made again."""
    key = calc.computed_key(ruleset)
    every = calc.calculators(ruleset, "gm", key)
    made = {slot: tabled for slot, tabled in calc._MADE.items() if slot[0] == key and slot[1] != left_out}
    assert left_out in [t.formula.id for t in every] and len(made) == len(every) - 1
    return made


@pytest.mark.parametrize("value, shown", [(-3, "\u22123"), (0, "±0"), (2, "+2")])
def test_a_modifier_is_picked_with_its_sign(value, shown):
    spec = calc.Input(id="modifier", label="Modifiers", min=-5, max=5)
    assert calc.choice_text(spec, value) == shown


def sample_rulesets():
    project = sample_project()[0]
    return [(r, calc.calculators(r, "player", calc.computed_key(r))) for r in project.rulesets]  # made once a run


def oracle_chart_chances(ruleset) -> dict:
    """Each charted formula's chance formula, as the calculators pair them (a 7+ to hit: a 6, then a second roll)."""
    found = {}
    for chart in ruleset.section("charts"):
        if chart.chance and not chart.result:
            formula, chance = ruleset.formula(chart.formula), ruleset.formula(chart.chance)
            if [i.id for i in chance.inputs] == [i.id for i in formula.inputs]:
                found.setdefault(chart.formula, chance.id)
    return found


def expected_part(oracle: Oracle, view, value, given: dict, chance_id: str | None, told: bool) -> dict:
    """What a calculator must say for one result, from the naive enumeration alone (the words are the output's)."""
    if view.result == "target":
        text = "impossible" if value is None else f"{value}+"
        if told:
            return {"text": text}
        if chance_id:
            hit = Fraction(oracle.formula(chance_id, **given))
        else:
            die = oracle.evaluate(_die_tree(view.die or "D6"), {})
            hit = Fraction(0) if value is None else sum((w for face, w in die.items() if face >= value), Fraction(0))
        return {"text": text, "chance": hit}
    if view.result == "chance":
        return {"exact": Fraction(value)}
    if isinstance(value, Dist):
        outcomes = sorted(value)
        below, rows = Fraction(0), []
        for outcome in outcomes:
            rows.append((outcome, value[outcome], 1 - below, below + value[outcome]))
            below += value[outcome]
        return {"rows": rows}
    if view.result == "number" and isinstance(value, int | Fraction) and not isinstance(value, bool):
        text = exact_number_text(value)
        if view.unit == "inches":  # as every output prints inches: 3"
            return {"text": minus_text(f'{text}"')}
        unit = {"hits": "hit", "dice": "die"}.get(view.unit, view.unit) if value == 1 else view.unit  # "1 hit"
        return {"text": minus_text(f"{text} {unit}" if unit else text)}
    return {"text": minus_text(shown(value, none="none"))}


def _die_tree(text: str):
    from dice_enumeration import _tree

    return _tree(text)


def said(part: dict) -> dict:
    """A calculator's answer for one result, its numbers as exact fractions."""
    if "roll" in part:
        return {
            "rows": [
                (
                    _outcome(row["result"]),
                    Fraction(row["exactly"]["exact"]),
                    Fraction(row["at_least"]["exact"]),
                    Fraction(row["at_most"]["exact"]),
                )
                for row in part["roll"]["rows"]
            ]
        }
    if "exact" in part:
        return {"exact": Fraction(part["exact"])}
    if "chance" in part:
        return {"text": part["text"], "chance": Fraction(part["chance"]["exact"])}
    return {"text": part["text"]}


class RememberedOracle(Oracle):
    """The same naive enumeration, each answer listed once for the same arguments: a calculator asks a formula or a
    function again and again with arguments it asked before (`chance_of(hits(attack, armour), exactly)` lists
    hits(attack, armour) again for each of 13 numbers of hits, `highest(moral)` again for each number of hit
    markers). Arguments equal but written apart are told apart (`_by_value`); one that cannot be a key (unhashable)
    is listed again each time. A roll is keyed once (`_rolls`): the same roll object is asked with again and again
    (hits(attack, armour) for each number of hits), and no roll changes once listed (`Dist.of` makes it whole)."""

    def __init__(self, ruleset):
        self._listed: dict = {}
        self._rolls: dict = {}
        super().__init__(ruleset)

    def _once(self, asked: tuple, list_it):
        try:
            key = _by_value(asked, self._rolls)
        except TypeError:  # unhashable: listed again
            return list_it()
        if key not in self._listed:
            self._listed[key] = list_it()
        return self._listed[key]

    def formula(self, id: str, *args, result: str | None = None, **given):
        asked = ("formula", id, args, result, tuple(sorted(given.items())))
        return self._once(asked, lambda: super(RememberedOracle, self).formula(id, *args, result=result, **given))

    def call(self, name: str, args: list, kwargs: dict, scope: dict):  # what a call gives reads its arguments alone
        asked = ("call", name, tuple(args), tuple(sorted(kwargs.items())))
        return self._once(asked, lambda: super(RememberedOracle, self).call(name, args, kwargs, scope))


def _by_value(value, rolls: dict):
    """``value`` as a key that tells apart what is equal but not written alike: True and 1, 3 and Fraction(3), 3" and
    3" of a Fraction, a roll of yes and no and one of 1 and 0. Raises TypeError for what cannot be a key. ``rolls``:
    each roll's key by its identity, with the roll held so that no other takes its identity."""
    if isinstance(value, Dist):
        held = rolls.get(id(value))
        if held is None or held[0] is not value:
            key = ("roll", tuple(sorted((_by_value(outcome, rolls), chance) for outcome, chance in value.items())))
            held = rolls[id(value)] = (value, key)
        return held[1]
    if isinstance(value, tuple | list):
        return (type(value).__name__, tuple(_by_value(item, rolls) for item in value))
    hash(value)
    return (type(value).__name__, repr(value), value)


def _outcome(text: str):
    return {"yes": True, "no": False}.get(text) if text in ("yes", "no") else int(text.replace("\u2212", "-"))


def test_every_calculator_answer_equals_listing_every_die_face():
    """Every answer of every calculator of the samples (overlays too): each roll's whole distribution, each chance and
    each target as the naive enumeration of tests/dice_enumeration.py gives it, for every combination of inputs."""
    checked = {}
    for ruleset, tabled in sample_rulesets():
        oracle = RememberedOracle(ruleset)
        chances = oracle_chart_chances(ruleset)
        for found in tabled:
            if not found.data:
                continue
            formula = found.formula
            views = [formula.view(o.id) for o in formula.results] if formula.results else [formula]
            told = any(v.result == "chance" for v in views) and len(views) > 1
            choices = [calc.input_choices(spec) for spec in formula.inputs]
            for combination, answer in zip(itertools.product(*choices), found.data["answers"], strict=True):
                given = dict(zip((spec.id for spec in formula.inputs), combination))
                result = oracle.formula(formula.id, **given)
                values = [result[o.id] for o in formula.results] if formula.results else [result]
                expected = [
                    expected_part(oracle, view, value, given, chances.get(formula.id), told)
                    for view, value in zip(views, values)
                ]
                assert [said(part) for part in answer] == expected, (ruleset.id, formula.id, given)
            checked[(ruleset.id, formula.id)] = len(found.data["answers"])
    assert len(checked) == 61  # every calculator of the samples, each answer of each compared above


# A site's calculators are made again only when what they are made from changes (calc.computed_key): a rule's
# wording, its game-master's note and the worked examples are left out of that key, so they must be what no
# calculator reads. Each sample ruleset's calculators, with that prose garbled and the examples gone, are the same.
def _garbled(ruleset):
    if ruleset is None:
        return None
    return dataclasses.replace(
        ruleset,
        rules=tuple(
            dataclasses.replace(rule, body=f"garbled {index} " * 40, gm_note=f"note {index}")
            for index, rule in enumerate(ruleset.rules)
        ),
        examples=(),
        house_results=(),
        base=_garbled(ruleset.base),
        original=_garbled(ruleset.original),
    )


def test_no_calculator_reads_a_rules_wording_or_its_examples():
    compared = 0
    for ruleset in sample_project()[0].rulesets:  # the game-master's calculators: every formula's
        garbled = _garbled(ruleset)
        assert calc.computed_key(garbled) == calc.computed_key(ruleset)
        made = [(t.formula.id, t.data, t.why) for t in calc.calculators(ruleset, "gm", calc.computed_key(ruleset))]
        assert [(t.formula.id, t.data, t.why) for t in calc.calculators(garbled, "gm")] == made  # made afresh
        compared += sum(1 for _id, data, _why in made if data)
    assert compared >= 10  # the samples hold that many calculators: the comparison is not empty


def test_no_charts_grid_reads_a_rules_wording_or_its_examples():
    from generator.render.site import myst

    compared = 0
    for ruleset in sample_project()[0].rulesets:
        garbled = _garbled(ruleset)
        for chart in ruleset.section("charts"):
            myst._GRIDS.clear()  # each made afresh, not given back by the key under test
            made = myst.chart_grid_md(chart, ruleset, heading=True)
            myst._GRIDS.clear()
            assert myst.chart_grid_md(chart, garbled, heading=True) == made
            compared += 1
    assert compared >= 5


def test_the_computed_key_changes_with_a_value_a_title_or_a_source_text():
    ruleset = sample_project()[0].ruleset("rampant_hex")
    key = calc.computed_key(ruleset)
    first_value, first_rule = ruleset.values[0], ruleset.rules[0]
    changed = [
        dataclasses.replace(
            ruleset, values=(dataclasses.replace(first_value, label="Another label"), *ruleset.values[1:])
        ),
        dataclasses.replace(
            ruleset, rules=(dataclasses.replace(first_rule, title="Another title"), *ruleset.rules[1:])
        ),
        dataclasses.replace(ruleset, sources=MappingProxyType({**ruleset.sources, "more.txt": "more"})),
    ]
    assert all(calc.computed_key(other) != key for other in changed)


# A build is a new process: the calculators a build made are kept in the project's check cache by what they are made
# from, and the next build takes them from there instead of working every answer out again.
def test_the_next_process_takes_the_calculators_from_the_check_cache(tmp_path, monkeypatch):
    from generator.check_cache import CheckCache

    ruleset = sample_project()[0].ruleset("rampant_hex")
    key, store = calc.computed_key(ruleset), CheckCache(tmp_path)
    # this process made its calculators before but one (a build's other audience, serve's last save): the store
    # keeps them all, not only the one made now
    monkeypatch.setattr(calc, "_MADE", made_but(ruleset, "hits"))
    made = [(t.formula.id, t.data, t.why) for t in calc.calculators(ruleset, "gm", key, store)]
    monkeypatch.setattr(calc, "_MADE", {})  # as a new process starts
    monkeypatch.setattr(calc, "tabulate", lambda *args: pytest.fail("worked out again, not read back"))
    assert [(t.formula.id, t.data, t.why) for t in calc.calculators(ruleset, "gm", key, store)] == made
    assert sum(1 for _id, data, _why in made if data) >= 3


def test_calculators_kept_by_another_generator_or_garbled_are_worked_out_again(tmp_path, monkeypatch):
    from generator.check_cache import CheckCache

    ruleset = sample_project()[0].ruleset("warhammer_fantasy_charts")
    key, store = calc.computed_key(ruleset), CheckCache(tmp_path)
    monkeypatch.setattr(calc, "_MADE", {})
    made = [(t.formula.id, t.data, t.why) for t in calc.calculators(ruleset, "gm", key, store)]
    worked = []
    tabulate = calc.tabulate
    monkeypatch.setattr(calc, "tabulate", lambda *args: worked.append(args[1].id) or tabulate(*args))
    monkeypatch.setattr(calc, "environment", lambda: "0.0.0-another-generator")
    monkeypatch.setattr(calc, "_MADE", {})
    assert [(t.formula.id, t.data, t.why) for t in calc.calculators(ruleset, "gm", key, store)] == made
    assert worked == [formula_id for formula_id, _data, _why in made]
    store.put("calculators-warhammer_fantasy_charts", calc._store_key(key), [[made[0][0], None, "not data", 3]])
    monkeypatch.setattr(calc, "_MADE", {})
    worked.clear()
    assert [(t.formula.id, t.data, t.why) for t in calc.calculators(ruleset, "gm", key, store)] == made
    assert worked == [formula_id for formula_id, _data, _why in made]


RANGE_BANDS = """\
ruleset: {title: Void Breakers}
values:
  short_range: {value: 12", label: Short range}
formulas:
  to_hit:
    title: Roll needed to hit
    unit: inches
    inputs:
      aim: {label: Aim, min: 4, max: 5}
      range: {label: Range to target, type: distance, min: 11, max: 13}
      hexes: {label: Hexes moved, type: distance, unit: hexes, min: 1, max: 2}
    expr: 11 - aim + (1 if range > short_range else 0) + (0 if hexes < 2 else 0)
    result: target
    die: D10
"""


def test_a_distance_is_picked_in_its_unit_and_said_so_in_why(tmp_path):
    result = check_project(make_project(tmp_path, void=RANGE_BANDS))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    void = result.project.ruleset("void")
    (found,) = calc.calculators(void, "player", calc.computed_key(void))
    options = [spec["options"] for spec in found.data["inputs"]]
    assert options == [["4", "5"], ['11"', '12"', '13"'], ["1 hex", "2 hexes"]]
    reasons = {line for why in found.data["why"] for line in why["because"]}
    assert 'Range to target 13" is more than 12"' in reasons  # the pick as the player picked it


INJURY = """
ruleset: {title: Ashfall}
tables:
  injury:
    title: Injury
    dice: 2D6
    rows:
      - {roll: 2-6, result: Flesh wound}
      - {roll: 7-11, result: Badly hurt}
      - {roll: 12+, result: Out cold}
formulas:
  hurt:
    title: How badly
    inputs: {heavy: {label: Hit by a heavy weapon, type: bool}}
    expr: injury(2D6 + (1 if heavy else 0))
    result: text
  wounds:
    title: Wounds
    inputs: {heavy: {label: Hit by a heavy weapon, type: bool}}
    expr: D3 + (1 if heavy else 0)
    result: roll
"""


def test_a_roll_of_results_in_words_lists_them_as_their_table_does(tmp_path):
    """Not alphabetically (Badly hurt, Flesh wound, Out cold): a player reads the odds in the table's order."""
    result = check_project(make_project(tmp_path, ashfall=INJURY))
    ashfall = result.project.ruleset("ashfall")
    found = {c.formula.id: c.data for c in calc.calculators(ashfall, "player", calc.computed_key(ashfall))}
    for answer in found["hurt"]["answers"]:
        assert [r["result"] for r in answer[0]["roll"]["rows"]] == ["Flesh wound", "Badly hurt", "Out cold"]


def test_a_roll_of_results_in_words_gives_the_chance_of_each_and_no_running_totals(tmp_path):
    """At least and at most count along an order: numbers have one, words (a table's results) do not."""
    result = check_project(make_project(tmp_path, ashfall=INJURY))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ashfall = result.project.ruleset("ashfall")
    found = {c.formula.id: c.data for c in calc.calculators(ashfall, "player", calc.computed_key(ashfall))}
    sums = [a + b for a in range(1, 7) for b in range(1, 7)]
    words = {"Badly hurt": range(7, 12), "Flesh wound": range(2, 7), "Out cold": range(12, 13)}
    rows = found["hurt"]["answers"][0][0]["roll"]["rows"]  # not heavy: 2D6 as rolled
    assert {r["result"]: r["exactly"]["exact"] for r in rows} == {
        word: str(Fraction(sum(s in band for s in sums), 36)) for word, band in words.items()
    }
    assert all(set(r) == {"result", "exactly"} for r in rows)
    rows = found["wounds"]["answers"][1][0]["roll"]["rows"]  # heavy: D3 + 1, each result a third
    assert [(r["result"], r["at_least"]["exact"], r["at_most"]["exact"]) for r in rows] == [
        ("2", "1", "1/3"),
        ("3", "2/3", "2/3"),
        ("4", "1/3", "1"),
    ]
