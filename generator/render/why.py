"""Why a formula gives the result it gives, in words: the tests its expression decided for the inputs picked (each
with its numbers), the ruleset's values it read (each by its label, with where the source text gives it), and where
the rules print it.

The way is the engine's (``Calculator.path``): only the branches the evaluation took. The words are the formula's
and its values' own: an input by its label, a value by its number and label, a `let` name by its name. Nothing here
knows HTML or any game.
"""

from __future__ import annotations

import ast
from fractions import Fraction

from ..model.calculate import calculator
from ..model.charts import chart_formula
from ..model.computed import Formula
from ..model.formula import Decision, FormulaError, value_in
from ..model.numbers import number_text
from ..model.ruleset import Ruleset
from .present import choice_text, entry_source_text, entry_title, minus_text, shown
from .prose import value_text

_SIGNS = {ast.Add: "+", ast.Sub: "−", ast.Mult: "×", ast.Div: "÷", ast.FloorDiv: "÷", ast.Mod: "remainder of ÷"}
# each comparison as it reads when it holds, and when it does not
_COMPARED = {
    ast.Gt: ("is more than", "is not more than"),
    ast.GtE: ("is at least", "is less than"),
    ast.Lt: ("is less than", "is not less than"),
    ast.LtE: ("is at most", "is more than"),
    ast.Eq: ("is", "is not"),
    ast.NotEq: ("is not", "is"),
    ast.In: ("is one of", "is none of"),
    ast.NotIn: ("is none of", "is one of"),
    ast.Is: ("is", "is not"),
    ast.IsNot: ("is not", "is"),
}


_ROLL_WORDS = (
    "dice",
    "count",
    "highest",
    "lowest",
    "keep_highest",
    "keep_lowest",
    "explode",
    "reroll",
    "total",
    "each",
    "chance",
    "chance_of",
    "mean",
)


def _kind(operator: ast.operator) -> str:
    return "sum" if isinstance(operator, ast.Add | ast.Sub) else "product"


_FUNCTION_WORDS = {"max": "the larger of", "min": "the smaller of", "abs": "the size of", "clamp": "kept between"}


DEPTH = 3  # formulas followed into the formulas they call: deeper reasons are more than a player reads


class _Explaining:
    """Reasons within one ruleset: its entries by id looked up once, and the reasons of a formula another calls
    kept by what it is given (a chart's cells call the same few again and again)."""

    def __init__(self, ruleset: Ruleset, calc):
        self.ruleset, self.calc = ruleset, calc
        self.values = {v.id: v for v in ruleset.reachable("values")}
        self.formulas = {f.id: f for f in ruleset.reachable("formulas")}
        self.tables = {t.id: t for section in ("tables", "lookups") for t in ruleset.reachable(section)}
        self.called: dict[tuple, dict] = {}

    def why(self, formula: Formula, given: dict, picked: dict[str, str], depth: int = 0) -> dict:
        """The reasons for one answer (inputs ``given`` by id, each as the player ``picked`` it): ``because`` (each
        test decided, in words, then those of the formulas it calls), ``values`` (each value read: its number, label
        and source) and ``where`` (the chart or formula, and the ruleset)."""
        ruleset = self.ruleset
        scope, path = self.calc.path(formula, **given)
        words = _Words(self, formula, scope, picked)
        because = []
        said = [(words.named, b) for b in formula.let if b.id in path.names]
        said += [(words.decision, d) for d in path.decisions] + [(words.worked, way) for way in _worked_out(formula)]
        for say, what in said:
            try:
                because.append(say(what))
            except (FormulaError, ArithmeticError, TypeError, ValueError):
                continue  # a part that cannot be said alone (a roll inside it): the answer says what it gives
        used = [
            {"label": self.values[name].label or name.replace("_", " "), "value": minus_text(value_text(ruleset, name))}
            | _cited(self.values[name], ruleset)
            for name in path.names
            if name in self.values
        ]
        for call in path.calls if depth < DEPTH else ():
            called = _called(self.formulas, call, scope)
            if called is None:
                continue
            found = self._called_why(*called, depth + 1)
            because += found["because"]
            used += found["values"]
        unique = list({tuple(sorted(v.items())): v for v in used}.values())
        return {"because": list(dict.fromkeys(because)), "values": unique, "where": where(ruleset, formula)}

    def _called_why(self, inner: Formula, inner_given: dict, depth: int) -> dict:
        # an input the call leaves to its default is said by the value it takes, not as one picked
        inner_picked = {
            s.id: choice_text(s, inner_given[s.id], self.ruleset) for s in inner.inputs if s.id in inner_given
        }
        try:
            key = (inner.id, tuple(sorted(inner_given.items())), depth)
            hash(key)
        except TypeError:  # a value no key can hold: said afresh
            return self.why(inner, inner_given, inner_picked, depth)
        if key not in self.called:
            self.called[key] = self.why(inner, inner_given, inner_picked, depth)
        return self.called[key]


def _worked_out(formula: Formula) -> list[tuple[str, ast.expr]]:
    """The results a formula works out rather than picks between cases (a count of dice, a chance, a sum): each
    with its label, to say how; a result chosen by ``x if test else y`` is told by its tests instead."""
    if formula.results:
        ways = [(o.label or o.id.replace("_", " "), o.expr.tree) for o in formula.results]
    else:
        ways = [(formula.title, formula.expr.tree)]
    return [(label, tree) for label, tree in ways if isinstance(tree, ast.Call | ast.BinOp)]


def _called(formulas: dict[str, Formula], call: ast.Call, scope: dict) -> tuple[Formula, dict] | None:
    """The formula a call names and the inputs it passes, by id; None for a call of anything else, or one whose
    inputs cannot be worked out alone."""
    formula = formulas.get(call.func.id)
    if formula is None:
        return None
    try:
        given = {spec.id: value_in(arg, scope) for spec, arg in zip(formula.inputs, call.args)}
        given |= {k.arg: value_in(k.value, scope) for k in call.keywords if k.arg != "result"}
    except (FormulaError, ArithmeticError, TypeError, ValueError):
        return None
    if any(_is_roll(v) for v in given.values()):
        return None
    return formula, given


def _is_roll(value) -> bool:
    return hasattr(value, "outcomes")


class Reasons:
    """The reasons for many answers of one formula, as a page embeds them: ``why`` (for each answer, the tests
    decided and the values read, as indexes into ``values``), ``values`` (each said once, however many answers read
    it) and ``where``."""

    def __init__(self, ruleset: Ruleset, formula: Formula):
        self.ruleset, self.formula = ruleset, formula
        self.explaining = _Explaining(ruleset, calculator(ruleset))
        self.cited: dict[_Cited, int] = {}
        self.said: list[dict] = []

    def add(self, given: dict, picked: dict[str, str]) -> None:
        """The reasons of the answer for inputs ``given`` (by id), each input's value as the player picked it."""
        said = self.explaining.why(self.formula, given, picked)
        cited = [_Cited(value) for value in said["values"]]
        for value in cited:
            self.cited.setdefault(value, len(self.cited))
        self.said.append({"because": said["because"], "values": [self.cited[value] for value in cited]})

    def data(self) -> dict:
        cited = _cited(self.formula, self.ruleset)  # where the source text gives the formula, if it says
        return {
            "where": where(self.ruleset, self.formula, cited.get("source", "")),
            "cited": cited,
            "values": [dict(v) for v in self.cited],
            "why": self.said,
        }


def chart_reasons(ruleset: Ruleset, chart, shown) -> dict:
    """The reasons of every cell of a chart (``shown``: ``sheets.charts.Chart``, each cell with its inputs), row by
    row, as ``Reasons.data`` gives them; computed by the ruleset that defines the chart, as its cells are."""
    owner = ruleset.owner_of("charts", chart.id)
    formula = chart_formula(owner, chart)
    reasons = Reasons(owner, formula)
    specs = {spec.id: spec for spec in formula.inputs}
    for row in shown.rows:
        for cell in row.cells:
            given = dict(cell.given)
            reasons.add(given, {id: choice_text(specs[id], value, owner) for id, value in given.items()})
    return reasons.data()


class _Cited(dict):
    """A value as it is cited (label, value, source, quote): a dict that can be a key."""

    def __hash__(self):
        return hash(tuple(sorted(self.items())))


def where(ruleset: Ruleset, formula: Formula, cited: str = "") -> str:
    """Where the rules give the formula: the charts printed from it, else its own title; then the ruleset's, unless
    the citation printed after it (``cited``) starts with that title already."""
    charts = [entry_title(c) for c in ruleset.section("charts") if formula.id in (c.formula, c.chance)]
    named = [] if cited.startswith(ruleset.title) else [ruleset.title]
    return ", ".join([*(charts or [entry_title(formula)]), *named])


def _cited(entry, ruleset: Ruleset) -> dict:
    source = getattr(entry, "source", None)
    text = entry_source_text(entry, ruleset)
    if not text:
        return {}
    return {"source": text, "quote": source.quote} if source.quote else {"source": text}


class _Words:
    def __init__(self, known: _Explaining, formula: Formula, scope: dict, picked: dict[str, str]):
        self.ruleset, self.formula, self.scope, self.picked = known.ruleset, formula, scope, picked
        self.inputs = {spec.id: spec for spec in formula.inputs}
        self.values, self.formulas, self.tables = known.values, known.formulas, known.tables

    def named(self, binding) -> str:
        """A `let` name the way read: what it stands for, worked out (a roll stays in words)."""
        tree, value = binding.expr.tree, self.scope.get(binding.id)
        name = binding.id.replace("_", " ")
        if isinstance(tree, ast.IfExp):  # its cases are the formula's own choice: say what it came to
            return f"{name} is {self.number(value)}"
        plain = isinstance(tree, ast.Name | ast.Constant) or self._is_formula(tree) or _is_roll(value)
        return f"{name} is {self.part(tree)}" + ("" if plain else f" ({self.number(value)})")

    def worked(self, way: tuple[str, ast.expr]) -> str:
        """A result worked out, in words: ``Hits: counting ATTACK 3 dice where D6 is more than ARMOUR 3``."""
        label, tree = way
        return f"{label}: {self.part(tree)}"

    def decision(self, decision: Decision) -> str:
        return self.test(decision.test, decision.held)

    def test(self, node: ast.expr, held: bool) -> str:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.test(node.operand, not held)
        if isinstance(node, ast.BoolOp):
            joined = " and " if isinstance(node.op, ast.And) == held else " or "
            parts = [self.test(v, held) for v in node.values]
            return joined.join(parts)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            said = _COMPARED[type(node.ops[0])][0 if held else 1]
            return f"{self.side(node.left)} {said} {self.side(node.comparators[0])}"
        if isinstance(node, ast.Name) and node.id in self.inputs:  # a tick: `Hates the enemy: no`
            return f"{self.inputs[node.id].label}: {self.picked.get(node.id, self.number(held))}"
        return f"{self.part(node)}: {'yes' if held else 'no'}"

    def side(self, node: ast.expr) -> str:
        """One side of a comparison; worked out where it is a sum of several parts (``2 × WS 3 (6)``)."""
        text = self.part(node)
        if isinstance(node, ast.BinOp | ast.Call) and not self._is_formula(node):
            value = value_in(node, self.scope)
            text += "" if _is_roll(value) else f" ({self.number(value)})"
        return text

    def part(self, node: ast.expr, nested: bool = False) -> str:
        if isinstance(node, ast.Constant):
            return "none" if node.value is None else self.number(node.value)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return minus_text("-" + self.part(node.operand, True))
        if isinstance(node, ast.BinOp):  # a left part of the same kind reads left to right without brackets
            left_nested = not (isinstance(node.left, ast.BinOp) and _kind(node.left.op) == _kind(node.op))
            text = f"{self.part(node.left, left_nested)} {_SIGNS[type(node.op)]} {self.part(node.right, True)}"
            if isinstance(node.op, ast.FloorDiv):
                text += ", rounded down"
            return f"({text})" if nested else text
        if isinstance(node, ast.Call) and self._is_formula(node):
            formula, value = self.formulas[node.func.id], value_in(node, self.scope)
            title = formula.title  # as written: a German noun keeps its capital
            return title if _is_roll(value) else f"{title} ({self.number(value)})"
        if isinstance(node, ast.Call) and node.func.id in self.tables:  # a table read on a roll: its title
            table = self.tables[node.func.id]
            return f"{entry_title(table)} on {' and '.join(self.part(a, True) for a in node.args)}"
        if isinstance(node, ast.Call) and node.func.id in _ROLL_WORDS:
            return self.roll(node)
        if isinstance(node, ast.Call) and node.func.id in _FUNCTION_WORDS:
            args = [self.part(a, True) for a in node.args]
            return f"{_FUNCTION_WORDS[node.func.id]} {' and '.join(args)}"
        if isinstance(node, ast.Tuple | ast.List):
            return ", ".join(self.part(item, True) for item in node.elts)
        return self.number(value_in(node, self.scope))

    def roll(self, node: ast.Call) -> str:
        """What a roll is, in words: ``2D6``, ``counting 3 dice where D6 is more than 4``, ``the chance that ...``."""
        name, args = node.func.id, node.args
        if name == "dice" and all(isinstance(a, ast.Constant) for a in args):
            count, sides = (a.value for a in args)
            return f"{count if count != 1 else ''}D{sides}"
        if name == "count" and len(args) == 2:
            return f"counting {self.part(args[0], True)} dice where {self.said(args[1])}"
        if name in ("highest", "lowest") and args:
            die = self.part(args[1], True) if len(args) > 1 else "D6"
            return f"the {name} of {self.part(args[0], True)} {die}"
        if name in ("keep_highest", "keep_lowest") and len(args) >= 2:
            die = self.part(args[2], True) if len(args) > 2 else "D6"
            which = "highest" if name == "keep_highest" else "lowest"
            return f"the {which} {self.part(args[0], True)} of {self.part(args[1], True)} {die} added"
        if name == "explode" and len(args) == 2:
            die, times = (self.part(a, True) for a in args)
            return f"{die} exploding up to {times} times"
        if name == "reroll" and len(args) in (2, 3):
            die, under = (self.part(a, True) for a in args[:2])
            times = self.part(args[2], True) if len(args) == 3 else "1"
            return f"{die} re-rolled under {under}" + ("" if times == "1" else f" up to {times} times")
        if name == "each" and len(args) >= 2 and isinstance(args[1], ast.Name):
            through = self.formulas.get(args[1].id) or self.tables.get(args[1].id)
            title = entry_title(through) if through is not None else args[1].id.replace("_", " ")
            return f"{self.part(args[0], True)}, each face read as {title}"
        if name == "total" and len(args) == 2:
            return f"the total of {self.part(args[0], True)} {self.part(args[1], True)}"
        if name == "chance" and len(args) == 1:
            return f"the chance that {self.said(args[0])}"
        if name == "chance_of" and len(args) == 2:
            return f"the chance that {self.part(args[0], True)} is {self.part(args[1], True)}"
        if name == "mean" and len(args) == 1:
            return f"the average of {self.part(args[0], True)}"
        return name.replace("_", " ")

    def said(self, node: ast.expr) -> str:
        """A condition as it reads where it holds (``D6 is more than ARMOUR 3``), else the thing itself."""
        if isinstance(node, ast.Compare | ast.BoolOp) or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.test(node, True)
        return self.part(node)

    def _is_formula(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Call) and node.func.id in self.formulas

    def name(self, name: str) -> str:
        if name in self.inputs:
            return f"{self.inputs[name].label} {self.picked.get(name, self.number(self.scope.get(name)))}"
        if name in self.values:
            return minus_text(value_text(self.ruleset, name))
        return f"{name.replace('_', ' ')} ({self.number(self.scope.get(name))})"

    def number(self, value) -> str:
        if _is_roll(value):  # never a roll's inner table: the answer shows its chances
            return "a roll"
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int | Fraction):
            return minus_text(number_text(value))
        return minus_text(shown(value, none="none"))
