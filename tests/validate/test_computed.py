"""Focused tests of formula, chart and prose checks and of what their memo keeps and reads back
(generator/validate/computed.py, generator/validate/prose.py; see docs/survivors/computed.md).

The memo is a stand-in (a dict behind ``get``/``put``) set where ``memo.remembered`` looks for it, and
formulas, charts and rulesets are stand-ins holding only the attributes the checks read, so every test
runs in milliseconds in the test process. Messages and columns are typed by hand.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from types import MappingProxyType, SimpleNamespace

import pytest

from generator.diagnostics import Code, Location
from generator.model.formula import FormulaError
from generator.model.quantity import Quantity
from generator.validate import computed, memo, prose
from generator.validate.prose import ROLES_HINT, Finding

FILE = "rules_src/r/computed.yaml"


class _Memo:
    """What a check's memo holds, by (kind, key); ``asked`` is every (kind, key) read."""

    def __init__(self, stored=None):
        self.stored = dict(stored or {})
        self.asked = []

    def get(self, kind, key):
        self.asked.append((kind, key))
        return self.stored.get((kind, key))

    def put(self, kind, key, value):
        self.stored[(kind, key)] = value


class _Reach:
    """A stand-in for ``memo.Reach``: the key names the kind and the item's id; every call is kept."""

    def __init__(self):
        self.asked = []

    def key(self, kind, item, names):
        self.asked.append((kind, item, set(names)))
        return f"{kind}:{item.id}"


@contextmanager
def _remembering(held):
    token = memo._memo.set(held)
    try:
        yield held
    finally:
        memo._memo.reset(token)


def _never(*args, **kwargs):
    raise AssertionError("computed again although the memo holds the answer")


def _located(diagnostics):
    return [(d.code, d.message, str(d.location), d.hint) for d in diagnostics]


# -- formulas -------------------------------------------------------------------------------------

def _input(id, low, high):
    return SimpleNamespace(id=id, optional=False, type="number", min=low, max=high, choices=(), default=None, unit="")


def _formula(*inputs, id="to_wound", names=("strength",)):
    return SimpleNamespace(id=id, inputs=tuple(inputs), result="number", unit="", let=(), results=(),
                           expr=SimpleNamespace(names=frozenset(names), calls=frozenset()),
                           loc=Location(FILE, 4), locs=MappingProxyType({"expr": Location(FILE, 5, 9),
                                                                         "result": Location(FILE, 6, 11)}))


def _ruleset(*formulas):
    return SimpleNamespace(reachable=lambda section: formulas if section == "formulas" else ())


def _calc(evaluate, ruleset=None, scope=None):
    return SimpleNamespace(evaluate=evaluate, ruleset=ruleset, scope=scope if scope is not None else {"a": 1})


def _fails_for_two(formula, **inputs):
    if inputs == {"a": 2}:
        raise FormulaError("no wound")
    return 1


def test_a_formulas_first_failure_is_kept_under_its_key_and_read_back_without_trying_again():
    formula, reach = _formula(_input("a", 1, 3)), _Reach()
    expected = [(Code.BAD_FORMULA, "`to_wound` fails for a=2: no wound", f"{FILE}:5:9", None)]
    with _remembering(_Memo()) as held:
        assert _located(computed._try_every_input(formula, _calc(_fails_for_two), lambda: reach)) == expected
        assert held.stored == {("formulas", "formula:to_wound"): ["expr", "`to_wound` fails for a=2: no wound", None]}
        assert reach.asked == [("formula", formula, {"strength"})]
        assert _located(computed._try_every_input(formula, _calc(_never), lambda: reach)) == expected


def test_a_formula_that_never_fails_is_kept_as_such_and_not_tried_again():
    formula, reach = _formula(_input("a", 1, 3)), _Reach()
    with _remembering(_Memo()) as held:
        assert list(computed._try_every_input(formula, _calc(lambda formula, **inputs: 1), lambda: reach)) == []
        assert held.stored == {("formulas", "formula:to_wound"): ["none"]}
        assert list(computed._try_every_input(formula, _calc(_never), lambda: reach)) == []


def test_a_remembered_formula_failure_is_what_the_memo_holds_where_the_formula_now_stands():
    formula = _formula(_input("a", 1, 3))
    held = _Memo({("formulas", "formula:to_wound"): ["result", "`to_wound` gives 'x'", "declare it"]})
    with _remembering(held):
        assert _located(computed._try_every_input(formula, _calc(_never), lambda: _Reach())) == [
            (Code.BAD_FORMULA, "`to_wound` gives 'x'", f"{FILE}:6:11", "declare it")]


def test_a_formula_checked_without_a_reach_makes_its_rulesets_own():
    formula = _formula(_input("a", 1, 3))
    calc = _calc(_fails_for_two, ruleset=_ruleset(formula))
    with _remembering(_Memo()) as held:
        assert _located(computed._try_every_input(formula, calc)) == [
            (Code.BAD_FORMULA, "`to_wound` fails for a=2: no wound", f"{FILE}:5:9", None)]
        [(kind, key)] = held.stored
        assert kind == "formulas" and len(key) == 64  # a sha256 of what the formula reads


def test_a_formula_is_tried_with_up_to_four_hundred_combinations_of_its_inputs():
    def fails_at_the_last(formula, **inputs):
        if inputs == {"a": 20, "b": 20}:
            raise FormulaError("too far")
        return 1

    assert computed.first_failure(_formula(_input("a", 1, 20), _input("b", 1, 20)), _calc(fails_at_the_last)) == (
        "expr", "`to_wound` fails for a=20, b=20: too far", None)
    assert computed.first_failure(_formula(_input("a", 1, 20), _input("b", 0, 20)), _calc(fails_at_the_last)) is None
    assert computed._product([[1, 2, 3], [4, 5]]) == 6
    assert computed._product([[1, 2, 3]]) == 3
    assert computed._product([]) == 1


def test_a_formula_may_name_every_function_and_constant_as_well_as_the_rulesets_entries():
    entries = {"values": "reach", "formulas": "to_wound", "tables": "injury", "lookups": "cover"}
    ruleset = SimpleNamespace(reachable=lambda section: (SimpleNamespace(id=entries[section]),))
    known = computed._known_names(ruleset)
    assert {"reach", "to_wound", "injury", "cover"} <= known
    assert {"min", "max", "dice", "chance", "mean", "None", "True", "False", "never"} <= known
    assert "strength" not in known


def test_a_stored_formula_failure_reads_back_only_when_it_has_the_stored_shape():
    assert computed._dump_failure(None) == ["none"]
    assert computed._dump_failure(("expr", "`f` fails", None)) == ["expr", "`f` fails", None]
    assert computed._load_failure(["none"]) is None
    assert computed._load_failure(["expr", "`f` fails", None]) == ("expr", "`f` fails", None)
    assert computed._load_failure(["result", "`f` gives 'x'", "declare it"]) == ("result", "`f` gives 'x'", "declare it")
    for stored in (("expr", "m", None), {"expr": "m"}, "none", ["where", "m", None], ["expr", 3, None], ["expr", "m", 4],
                   ["where", "m", 4]):
        with pytest.raises(ValueError, match="^not a formula's failure$"):
            computed._load_failure(stored)



def test_a_stored_too_large_failure_reads_back_as_too_large():
    refused = ("let.b", computed.TooLarge("`f` is too large to check"), None)
    assert computed._dump_failure(refused) == ["let.b", "`f` is too large to check", None, "too-large"]
    back = computed._load_failure(["let.b", "`f` is too large to check", None, "too-large"])
    assert back == refused and isinstance(back[1], computed.TooLarge)
    assert not isinstance(computed._load_failure(["expr", "`f` fails", None])[1], computed.TooLarge)
    for stored in (["expr", "m", None, "bad-formula"], ["expr", "m", None, "too-large", "x"], [3, "m", None]):
        with pytest.raises(ValueError, match="^not a formula's failure$"):
            computed._load_failure(stored)


def test_a_stored_too_large_chart_failure_reads_back_as_too_large():
    assert computed._dump_message(computed.TooLarge("`c` too large")) == ["`c` too large", "too-large"]
    assert computed._dump_message("`c` fails") == ["`c` fails"]
    assert isinstance(computed._load_message(["`c` too large", "too-large"]), computed.TooLarge)
    assert not isinstance(computed._load_message(["`c` fails"]), computed.TooLarge)
    for stored in ([None, "too-large"], ["m", "bad-chart"], ["m", "too-large", "x"], []):
        with pytest.raises(ValueError, match="^not a chart's failure$"):
            computed._load_message(stored)


# -- charts ---------------------------------------------------------------------------------------

def _axis(input, *values):
    return SimpleNamespace(input=input, values=tuple(Quantity("number", v) if isinstance(v, int) else Quantity("text", v)
                                                      for v in values),
                           range=None, labels=(), note_formula="", loc=Location(FILE, 30),
                           locs=MappingProxyType({"values": Location(FILE, 31, 11)}))


def _chart(rows, columns, chance=""):
    return SimpleNamespace(id="wounds", formula="to_wound", chance=chance, result="", rows=rows, columns=columns, fixed=(),
                           loc=Location(FILE, 20), locs=MappingProxyType({"formula": Location(FILE, 21, 14)}))


_STRENGTH, _TOUGHNESS = _input("strength", 1, 6), _input("toughness", 1, 6)
_TO_WOUND = _formula(_STRENGTH, _TOUGHNESS, names=("strength", "toughness"))
_ODDS = _formula(_STRENGTH, _TOUGHNESS, id="odds", names=("strength", "toughness"))
_CHART_RULESET = _ruleset(_TO_WOUND, _ODDS)


def _no_odds_against_two(formula, **cell):
    if formula.id == "odds" and cell["toughness"] == 2:
        raise FormulaError("no odds")
    return 1


def test_a_charts_chance_formula_is_computed_for_every_cell_too():
    chart = _chart(_axis("strength", 1), _axis("toughness", 1, 2), chance="odds")
    assert _located(computed.chart_problems(_CHART_RULESET, chart, _calc(_no_odds_against_two))) == [
        (Code.BAD_CHART, "`wounds` cannot compute its cell for toughness=2, strength=1: no odds", f"{FILE}:21:14", None)]


def test_a_charts_cell_failure_is_kept_under_its_key_and_read_back_without_computing_again():
    chart, reach = _chart(_axis("strength", 1), _axis("toughness", 1, 2), chance="odds"), _Reach()
    message = "`wounds` cannot compute its cell for toughness=2, strength=1: no odds"
    with _remembering(_Memo()) as held:
        assert _located(computed.chart_problems(_CHART_RULESET, chart, _calc(_no_odds_against_two), lambda: reach)) == [
            (Code.BAD_CHART, message, f"{FILE}:21:14", None)]
        assert held.stored == {("charts", "chart:wounds"): [message]}
        [(kind, item, names)] = reach.asked
        assert (kind, item) == ("chart", chart) and {"to_wound", "odds", "strength", "toughness"} <= names
        assert "NoneType" not in names
        assert _located(computed.chart_problems(_CHART_RULESET, chart, _calc(_never), lambda: reach)) == [
            (Code.BAD_CHART, message, f"{FILE}:21:14", None)]


def test_a_chart_whose_cells_all_compute_is_kept_as_such_and_not_computed_again():
    chart, reach = _chart(_axis("strength", 1), _axis("toughness", 1, 2)), _Reach()
    with _remembering(_Memo()) as held:
        assert computed.chart_problems(_CHART_RULESET, chart, _calc(lambda formula, **cell: 1), lambda: reach) == []
        assert held.stored == {("charts", "chart:wounds"): [None]}
        assert computed.chart_problems(_CHART_RULESET, chart, _calc(_never), lambda: reach) == []


def test_a_remembered_chart_failure_is_what_the_memo_holds():
    chart = _chart(_axis("strength", 1), _axis("toughness", 1, 2))
    with _remembering(_Memo({("charts", "chart:wounds"): ["`wounds` stored"]})):
        assert _located(computed.chart_problems(_CHART_RULESET, chart, _calc(_never), lambda: _Reach())) == [
            (Code.BAD_CHART, "`wounds` stored", f"{FILE}:21:14", None)]


def test_a_chart_checked_without_a_reach_makes_its_rulesets_own():
    chart = _chart(_axis("strength", 1), _axis("toughness", 1, 2), chance="odds")
    with _remembering(_Memo()) as held:
        assert _located(computed.chart_problems(_CHART_RULESET, chart, _calc(_no_odds_against_two))) == [
            (Code.BAD_CHART, "`wounds` cannot compute its cell for toughness=2, strength=1: no odds", f"{FILE}:21:14",
             None)]
        [(kind, key)] = held.stored
        assert kind == "charts" and len(key) == 64


def test_a_chart_axis_that_does_not_compute_fails_before_any_cell():
    chart = _chart(None, _axis("toughness", "a / 0"))
    assert computed.cell_failure(chart, _TO_WOUND, None, _calc(_never)) == (
        "`wounds` cannot compute its cell for no inputs: `a / 0` divides by zero")


def test_a_stored_chart_failure_reads_back_only_as_one_message_or_none():
    assert computed._load_message(["`wounds` fails"]) == "`wounds` fails"
    assert computed._load_message([None]) is None
    for stored in (("`wounds` fails",), [5]):
        with pytest.raises(ValueError, match="^not a chart's failure$"):
            computed._load_message(stored)


# -- prose ----------------------------------------------------------------------------------------

def _sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_prose_findings_are_kept_by_the_texts_hash_and_read_back_from_it():
    text = "{raw}`x`"
    with _remembering(_Memo()) as held:
        assert prose._remembered_findings(text) == [
            Finding(Code.PROSE_ROLE, "the role `{raw}` is not allowed in prose", 0, 0, ROLES_HINT)]
        assert held.stored == {("prose", _sha256(text)): [["prose-role", "the role `{raw}` is not allowed in prose", 0, 0,
                                                            ROLES_HINT]]}
    stored = {("prose", _sha256(text)): [["prose-link", "a link to `x:`", 1, 2, "link elsewhere"]]}
    with _remembering(_Memo(stored)):
        assert prose._remembered_findings(text) == [Finding(Code.PROSE_LINK, "a link to `x:`", 1, 2, "link elsewhere")]


def test_stored_prose_findings_read_back_only_when_each_has_the_stored_shape():
    assert prose._load_findings([]) == []
    assert prose._load_findings([["prose-role", "the role", 2, 3, "a hint"], ["prose-image", "an image", 0, 1, "words"]]) == [
        Finding(Code.PROSE_ROLE, "the role", 2, 3, "a hint"), Finding(Code.PROSE_IMAGE, "an image", 0, 1, "words")]
    with pytest.raises(ValueError, match="^not findings$"):
        prose._load_findings({"prose-role": "the role"})
    for finding in (["prose-role", 5, 2, 3, "h"], ["prose-role", "m", "2", 3, "h"], ["prose-role", "m", True, 3, "h"],
                    ["prose-role", "m", 2, 3.0, "h"], ["prose-role", "m", 2, 3, None]):
        with pytest.raises(ValueError, match="^not a finding$"):
            prose._load_findings([finding])


def test_a_finding_is_sought_from_its_own_line_not_from_the_texts_start():
    found = prose.prose_findings("The `{raw}` role is refused:\n\n{raw}`x`")
    assert [(f.line, f.column) for f in found] == [(2, 0)]
    found = prose.prose_findings("Intro\n\n```{note}\nThe `{raw}` role:\n\n{raw}`x`\n```")
    assert [(f.line, f.column) for f in found] == [(5, 0)]


def test_an_allowed_role_moves_the_search_past_itself():
    found = prose.prose_findings("{raw} then {term}`a` and {raw}`b`")
    assert [(f.line, f.column) for f in found] == [(0, 25)]
