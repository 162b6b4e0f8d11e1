"""Odds calculators: a formula whose inputs each take a few values, worked out by the engine for every combination.

A page only looks the answer up: nothing it shows is computed in the browser. A calculator is plain data (JSON in
the page): its inputs (their labels and the values they take, in the game's words) and, for each combination of
those values in order (the first input varying slowest), the answer: the result in words, its exact chance where it
has one, and for a roll its whole distribution with the chance of at least and at most each result. A formula with
too many combinations to tabulate gets no calculator; the page says so and points at its chart.

Nothing here knows HTML or any game: the words are the formula's and its inputs', the numbers the engine's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
from dataclasses import dataclass
from fractions import Fraction
from math import prod

import icepool

from ..check_cache import environment
from ..model.base import Markdown
from ..model.calculate import calculator, row_value
from ..model.canonical import canonical
from ..model.computed import Formula, Input
from ..model.entries import visible_to
from ..model.formula import Expression, FormulaError
from ..model.ruleset import Ruleset
from ..model.units import unit_text
from .present import chance_text, choice_text, minus_text, shown
from .sheets.charts import exact_number_text, target_chance
from .why import Reasons

MAX_COMBINATIONS = 2000  # answers one page holds for one calculator (the samples' largest has 1,521)
MAX_OUTCOMES = 40  # results of one roll listed with their chances


@dataclass(frozen=True)
class Tabled:
    """A formula's calculator, or why it has none (``data`` None and ``why`` said)."""

    formula: Formula
    data: dict | None
    why: str = ""


def input_choices(spec: Input) -> list | None:
    """The values an input takes, in order, or None when it is unbounded or takes over a hundred."""
    if spec.type == "bool":
        values = [False, True]
    elif spec.type == "text":
        values = list(spec.choices) or None
    elif spec.min is None or spec.max is None or spec.max - spec.min > 100:
        values = None
    else:
        values = list(range(spec.min, spec.max + 1))
    if values is None:
        return None
    return [None, *values] if spec.optional else values


def _exact(chance: Fraction) -> str:
    return str(chance.numerator) if chance.denominator == 1 else f"{chance.numerator}/{chance.denominator}"


def _chance(chance: Fraction) -> dict:
    chance = Fraction(chance)
    return {"exact": _exact(chance), "percent": chance_text(chance)}


def word_order(ruleset: Ruleset) -> dict[str, int]:
    """Where each result in words stands in the rules: the order its tables' and lookups' rows list them (the first
    place a word is listed), so a roll of words reads as its table does, not alphabetically."""
    order: dict[str, int] = {}
    for entry in (*ruleset.reachable("tables"), *ruleset.reachable("lookups")):
        for row in entry.rows:
            value = row_value(row)
            if isinstance(value, str):
                order.setdefault(value, len(order))
    return order


def _roll(die: icepool.Die, order: dict[str, int]) -> dict:
    """A roll's answer: its mean and, for each result, the chance of exactly it, and where results rank (numbers,
    distances) of at least and at most it; results in words have no order to count along, and are listed as the
    rules list them (``order``; words no table lists after, alphabetically)."""
    outcomes = list(die.outcomes())
    if len(outcomes) > MAX_OUTCOMES:
        raise TooMany(f"a roll of {len(outcomes)} results")
    total = die.denominator()
    ranked = not any(isinstance(o, str | bool) for o in outcomes)
    if all(isinstance(o, str) for o in outcomes):
        outcomes.sort(key=lambda o: (order.get(o, len(order)), o))
    rows, below = [], 0
    for outcome in outcomes:
        exactly = Fraction(die.quantity(outcome), total)
        row = {"result": minus_text(shown(outcome)), "exactly": _chance(exactly)}
        if ranked:
            row |= {
                "at_least": _chance(1 - Fraction(below, total)),
                "at_most": _chance(Fraction(below, total) + exactly),
            }
        rows.append(row)
        below += die.quantity(outcome)
    mean = sum(Fraction(die.quantity(o), total) * o for o in outcomes) if all(_is_number(o) for o in outcomes) else None
    return {"text": f"average {minus_text(exact_number_text(mean))}" if mean is not None else "", "rows": rows}


def _is_number(value) -> bool:
    return isinstance(value, int | Fraction) and not isinstance(value, bool)


class TooMany(ValueError):
    """A formula whose answers are too many to put in a page."""


def _part(
    formula: Formula, value, die: icepool.Die, chance_of=None, told: bool = False, order: dict[str, int] | None = None
) -> dict:
    """One result, in words, with its chance where it has one: a target and the chance of rolling it (the chart's
    own chance formula where one gives it; none where another result of the formula ``told`` it), a chance, a roll
    and its distribution, or a plain value."""
    kind = formula.result
    if kind == "target" and told:
        return {"text": "impossible" if value is None else f"{value}+"}
    if kind == "target":
        chance = Fraction(chance_of) if chance_of is not None else target_chance(die, value)
        return {"text": "impossible" if value is None else f"{value}+", "chance": _chance(chance)}
    if kind == "chance":
        return {"text": chance_text(Fraction(value)), "exact": _exact(Fraction(value))}
    if isinstance(value, icepool.Die):
        return {"roll": _roll(value, order or {})}
    if kind == "number" and _is_number(value):
        unit = formula.unit
        return {"text": minus_text(unit_text(value, unit, exact_number_text) if unit else exact_number_text(value))}
    return {"text": minus_text(shown(value, none="none"))}


def _die(formula: Formula) -> icepool.Die:
    die = Expression.parse(formula.die or "D6").evaluate({})
    return die if isinstance(die, icepool.Die) else icepool.d(6)


def tabulate(ruleset: Ruleset, formula: Formula, chance_formula: Formula | None = None) -> Tabled:
    """The calculator of one formula: every combination of its inputs' values, answered by the engine."""
    choices = [input_choices(spec) for spec in formula.inputs]
    rolls = [view.result == "roll" for view in ([formula.view(o.id) for o in formula.results] or [formula])]
    if not formula.inputs and not any(rolls):  # a roll with none is still worth its chances: 3D6 keep the best 2
        return Tabled(formula, None, "it has no inputs to choose" + _always(formula, fixed_answers(ruleset, formula)))
    if any(c is None for c in choices):
        return Tabled(formula, None, _unpicked(spec for spec, c in zip(formula.inputs, choices) if c is None))
    if prod(len(c) for c in choices) > MAX_COMBINATIONS:
        return Tabled(formula, None, f"its inputs combine in {prod(len(c) for c in choices):,} ways")
    calc = calculator(ruleset)
    views = [formula.view(o.id) for o in formula.results] if formula.results else [formula]
    # a result that is a chance says the chance; a target beside it may not be a roll of its die (7+: a 6, then 4+)
    told = any(view.result == "chance" for view in views) and len(views) > 1
    dice = [_die(view) for view in views]
    units = [(spec.unit or formula.unit) if spec.type == "distance" else "" for spec in formula.inputs]
    options = [
        [choice_text(spec, v, ruleset, unit) for v in c] for spec, c, unit in zip(formula.inputs, choices, units)
    ]
    ids = [spec.id for spec in formula.inputs]
    answers, reasons, order = [], Reasons(ruleset, formula), word_order(ruleset)
    try:
        for picks in itertools.product(*(range(len(c)) for c in choices)):
            given = {id: c[at] for id, c, at in zip(ids, choices, picks)}
            result = calc.evaluate(formula, **given)
            chance_of = calc.evaluate(chance_formula, **given) if chance_formula is not None else None
            values = [result[o.id] for o in formula.results] if formula.results else [result]
            answers.append([_part(v, value, die, chance_of, told, order) for v, value, die in zip(views, values, dice)])
            reasons.add(given, {id: texts[at] for id, texts, at in zip(ids, options, picks)})
    except TooMany as error:
        return Tabled(formula, None, str(error))
    except (FormulaError, ArithmeticError, TypeError, ValueError):
        return Tabled(formula, None, "some of its combinations have no answer")
    data = {
        "id": formula.id,
        "title": formula.title,
        "inputs": [
            {"label": spec.label, "options": texts, "default": _default(spec, c)}
            for spec, c, texts in zip(formula.inputs, choices, options)
        ],
        "results": [o.label or o.id.replace("_", " ") for o in formula.results] or [""],
        "answers": answers,
        **reasons.data(),
    }
    return Tabled(formula, data)


def fixed_answers(ruleset: Ruleset, formula: Formula) -> list[str | None] | None:
    """The one answer of a formula with no inputs, worked out by the engine: for each of its results, that answer in
    words, a chance exact and as a percentage (``3/13 (23.1%)``), a target with its chance; None for a result that is
    a roll (its chances are its calculator's). None for a formula with inputs, or one the engine cannot answer."""
    if formula.inputs:
        return None
    views = list(formula.views())
    try:
        result = calculator(ruleset).evaluate(formula)
        values = [result[o.id] for o in formula.results] if formula.results else [result]
        told = any(view.result == "chance" for view in views) and len(views) > 1
        parts = [
            None
            if view.result == "roll" or isinstance(value, icepool.Die)
            else _part(view, value, _die(view), told=told)
            for view, value in zip(views, values)
        ]
    except (FormulaError, ArithmeticError, TypeError, ValueError):
        return None
    return [None if part is None else _part_text(part) for part in parts]


def _part_text(part: dict) -> str:
    """One result that is not a roll as one line of text: a chance as ``3/13 (23.1%)``, a target with its chance."""
    if "exact" in part:
        return f"{part['exact']} ({part['text']})"
    if "chance" in part:
        return f"{part['text']}, a chance of {part['chance']['exact']} ({part['chance']['percent']})"
    return part["text"]


def _always(formula: Formula, answers: list[str | None] | None) -> str:
    """What a formula with no inputs always gives, after why it has no calculator; nothing when it has no answer."""
    if not answers or None in answers:
        return ""
    if not formula.results:
        return f", and is always {answers[0]}"
    labels = [o.label or o.id.replace("_", " ") for o in formula.results]
    return ", and always gives " + "; ".join(f"{label}: {text}" for label, text in zip(labels, answers))


def _unpicked(specs) -> str:
    """Why inputs get no picker: no bound (any value), or more values than a picker lists."""
    bounded = {True: [], False: []}
    for spec in specs:
        bounded[spec.min is not None and spec.max is not None].append(spec)
    told = [f"{', '.join(s.label for s in bounded[False])} can take any value"] if bounded[False] else []
    told += [f"{s.label} takes {s.max - s.min + 1:,} values" for s in bounded[True]]
    return "; ".join(told)


def _default(spec: Input, choices: list) -> int:
    """Where an input's picker starts: its default where it has one, else its first value."""
    default = spec.default
    value = getattr(default, "magnitude", default)
    return choices.index(value) if value in choices else 0


_MADE: dict[tuple, Tabled] = {}  # (what the ruleset is made from, formula, chance formula) -> its calculator
MADE_KEPT = 1024
_KEYS: dict[tuple, tuple[list, str]] = {}  # computed_key by the identities of what it is made from (held)


def computed_key(ruleset: Ruleset) -> str:
    """What a ruleset's computed outputs (its calculators, its charts' grids with their reasons) are made from: the
    whole ruleset (its bases and its text as written too) but its rules' prose and its worked examples, which none
    of them reads, so an edit of a rule's wording keeps them (tests/render/test_calculators.py pins that they read
    neither). Worked out once for the same field values (a ruleset given its house results is another object holding
    the same ones)."""
    parts = [getattr(ruleset, field.name) for field in dataclasses.fields(ruleset) if field.name != "house_results"]
    identity = tuple(map(id, parts))
    known = _KEYS.get(identity)
    if known is None or any(held is not part for held, part in zip(known[0], parts)):
        text = canonical(_without_prose(ruleset)).encode("utf-8", "surrogateescape")
        known = _KEYS[identity] = (parts, hashlib.sha256(text).hexdigest())
        while len(_KEYS) > MADE_KEPT:
            del _KEYS[next(iter(_KEYS))]
    return known[1]


def _without_prose(ruleset: Ruleset | None) -> Ruleset | None:
    if ruleset is None:
        return None
    return dataclasses.replace(
        ruleset,
        rules=tuple(dataclasses.replace(rule, body=Markdown(""), gm_note=Markdown("")) for rule in ruleset.rules),
        examples=(),
        house_results=(),
        base=_without_prose(ruleset.base),
        original=_without_prose(ruleset.original),
    )


def calculators(ruleset: Ruleset, audience: str, key: str | None = None, store=None) -> list[Tabled]:
    """A calculator for each formula of the ruleset this audience may see, in the order they are written; a chart's
    formula takes the chart's chance formula (a 7+ to hit that is a 6 and then a second roll, say). ``key``: what
    the ruleset's calculators are made from (``computed_key``); a calculator made before for the same key is given
    again (a build's other audiences, serve's next save of a rule's wording): no audience changes one. ``store``:
    the project's check cache, which keeps them for the next build (a new process) by the same key and generator."""
    chances = {}
    for chart in ruleset.section("charts"):
        if chart.chance and not chart.result:
            formula, chance = ruleset.formula(chart.formula), ruleset.formula(chart.chance)
            if [i.id for i in chance.inputs] == [i.id for i in formula.inputs]:
                chances.setdefault(chart.formula, chance)
    wanted = [
        (formula, chances.get(formula.id))
        for formula in ruleset.section("formulas")
        if visible_to(formula, audience) and formula.calculator
    ]
    kept = store is not None and key is not None
    if kept:
        _stored(ruleset, key, store)
    fresh = kept and any(_slot(key, formula, chance) not in _MADE for formula, chance in wanted)
    found = [_made(ruleset, formula, chance, key) for formula, chance in wanted]
    if fresh:
        _store(ruleset, key, store)
    return found


def _slot(key: str, formula: Formula, chance: Formula | None) -> tuple:
    return key, formula.id, chance.id if chance is not None else None


def _store_key(key: str) -> str:
    return hashlib.sha256(f"{environment()}\0{key}".encode("utf-8", "surrogateescape")).hexdigest()


def _stored(ruleset: Ruleset, key: str, store) -> None:
    """What the store keeps for ``key`` (written by this machine, for the same generator), into ``_MADE``."""
    kept = store.get(_store_slot(ruleset), _store_key(key))
    if not isinstance(kept, list):
        return
    formulas = {formula.id: formula for formula in ruleset.section("formulas")}
    for row in kept:
        if not (isinstance(row, list) and len(row) == 4 and row[0] in formulas):
            continue
        formula_id, chance_id, data, why = row
        if (
            (data is None or isinstance(data, dict))
            and isinstance(why, str)
            and (chance_id is None or isinstance(chance_id, str))
        ):
            _MADE.setdefault((key, formula_id, chance_id), Tabled(formulas[formula_id], data, why))


def _store(ruleset: Ruleset, key: str, store) -> None:
    rows = [[slot[1], slot[2], made.data, made.why] for slot, made in _MADE.items() if slot[0] == key]
    store.put(_store_slot(ruleset), _store_key(key), rows)


def _store_slot(ruleset: Ruleset) -> str:
    return f"calculators-{ruleset.id}"


def _made(ruleset: Ruleset, formula: Formula, chance: Formula | None, key: str | None) -> Tabled:
    if key is None:
        return tabulate(ruleset, formula, chance)
    slot = _slot(key, formula, chance)
    if slot not in _MADE:
        _MADE[slot] = tabulate(ruleset, formula, chance)
        while len(_MADE) > MADE_KEPT:
            del _MADE[next(iter(_MADE))]
    return _MADE[slot]
