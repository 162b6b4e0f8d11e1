"""Formula, chart, lookup and prose checks, and what their memo keeps and reads back
(generator/validate/computed.py, generator/validate/prose.py).

The memo is a stand-in (a dict behind ``get``/``put``) set where ``memo.remembered`` looks for it, and
formulas, charts and rulesets are stand-ins holding only the attributes the checks read, so every test
runs in milliseconds in the test process. Messages and columns are typed by hand.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from types import MappingProxyType, SimpleNamespace

import pytest
from helpers import checked

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


CELL_HINT = "make the formula compute there, or leave that value off the chart"  # a cell that fails


def _never(*args, **kwargs):
    raise AssertionError("computed again although the memo holds the answer")


def _located(diagnostics):
    return [(d.code, d.message, str(d.location), d.hint) for d in diagnostics]


# -- formulas -------------------------------------------------------------------------------------


def _input(id, low, high):
    return SimpleNamespace(id=id, optional=False, type="number", min=low, max=high, choices=(), default=None, unit="")


def _formula(*inputs, id="to_wound", names=("strength",)):
    return SimpleNamespace(
        id=id,
        inputs=tuple(inputs),
        result="number",
        unit="",
        let=(),
        results=(),
        expr=SimpleNamespace(names=frozenset(names), calls=frozenset()),
        loc=Location(FILE, 4),
        locs=MappingProxyType({"expr": Location(FILE, 5, 9), "result": Location(FILE, 6, 11)}),
    )


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
            (Code.BAD_FORMULA, "`to_wound` gives 'x'", f"{FILE}:6:11", "declare it")
        ]


def test_a_formula_checked_without_a_reach_makes_its_rulesets_own():
    formula = _formula(_input("a", 1, 3))
    calc = _calc(_fails_for_two, ruleset=_ruleset(formula))
    with _remembering(_Memo()) as held:
        assert _located(computed._try_every_input(formula, calc)) == [
            (Code.BAD_FORMULA, "`to_wound` fails for a=2: no wound", f"{FILE}:5:9", None)
        ]
        [(kind, key)] = held.stored
        assert kind == "formulas" and len(key) == 64  # a sha256 of what the formula reads


def test_a_formula_is_tried_with_up_to_two_thousand_combinations_of_its_inputs():
    def fails_at_the_last(formula, **inputs):
        if inputs == {"a": 40, "b": 50}:
            raise FormulaError("too far")
        return 1

    assert computed.first_failure(_formula(_input("a", 1, 40), _input("b", 1, 50)), _calc(fails_at_the_last)) == (
        "expr",
        "`to_wound` fails for a=40, b=50: too far",
        None,
    )
    # 40 x 51 combinations, over 2,000: each input's ends alone are tried, 40 and 50 among them, never 20 and 25
    wider = _formula(_input("a", 1, 40), _input("b", 0, 50))
    assert computed.first_failure(wider, _calc(fails_at_the_last)) == (
        "expr",
        "`to_wound` fails for a=40, b=50: too far",
        None,
    )
    assert computed.tried_values(wider) == [[1, 2, 39, 40], [0, 1, 49, 50]]

    def fails_between(formula, **inputs):
        if inputs == {"a": 20, "b": 25}:
            raise FormulaError("too far")
        return 1

    assert computed.first_failure(wider, _calc(fails_between)) is None
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
    assert computed._load_failure(["result", "`f` gives 'x'", "declare it"]) == (
        "result",
        "`f` gives 'x'",
        "declare it",
    )
    for stored in (
        ("expr", "m", None),
        {"expr": "m"},
        "none",
        ["where", "m", None],
        ["expr", 3, None],
        ["expr", "m", 4],
        ["where", "m", 4],
    ):
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
    return SimpleNamespace(
        input=input,
        values=tuple(Quantity("number", v) if isinstance(v, int) else Quantity("text", v) for v in values),
        range=None,
        labels=(),
        note_formula="",
        loc=Location(FILE, 30),
        locs=MappingProxyType({"values": Location(FILE, 31, 11)}),
    )


def _chart(rows, columns, chance=""):
    return SimpleNamespace(
        id="wounds",
        formula="to_wound",
        chance=chance,
        result="",
        rows=rows,
        columns=columns,
        fixed=(),
        loc=Location(FILE, 20),
        locs=MappingProxyType({"formula": Location(FILE, 21, 14)}),
    )


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
        (
            Code.BAD_CHART,
            "`wounds` cannot compute its cell for toughness=2, strength=1: no odds",
            f"{FILE}:21:14",
            CELL_HINT,
        )
    ]


def test_a_charts_cell_failure_is_kept_under_its_key_and_read_back_without_computing_again():
    chart, reach = _chart(_axis("strength", 1), _axis("toughness", 1, 2), chance="odds"), _Reach()
    message = "`wounds` cannot compute its cell for toughness=2, strength=1: no odds"
    with _remembering(_Memo()) as held:
        assert _located(computed.chart_problems(_CHART_RULESET, chart, _calc(_no_odds_against_two), lambda: reach)) == [
            (Code.BAD_CHART, message, f"{FILE}:21:14", CELL_HINT)
        ]
        assert held.stored == {("charts", "chart:wounds"): [message]}
        [(kind, item, names)] = reach.asked
        assert (kind, item) == ("chart", chart) and {"to_wound", "odds", "strength", "toughness"} <= names
        assert "NoneType" not in names
        assert _located(computed.chart_problems(_CHART_RULESET, chart, _calc(_never), lambda: reach)) == [
            (Code.BAD_CHART, message, f"{FILE}:21:14", CELL_HINT)
        ]


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
            (Code.BAD_CHART, "`wounds` stored", f"{FILE}:21:14", CELL_HINT)
        ]


def test_a_chart_checked_without_a_reach_makes_its_rulesets_own():
    chart = _chart(_axis("strength", 1), _axis("toughness", 1, 2), chance="odds")
    with _remembering(_Memo()) as held:
        assert _located(computed.chart_problems(_CHART_RULESET, chart, _calc(_no_odds_against_two))) == [
            (
                Code.BAD_CHART,
                "`wounds` cannot compute its cell for toughness=2, strength=1: no odds",
                f"{FILE}:21:14",
                CELL_HINT,
            )
        ]
        [(kind, key)] = held.stored
        assert kind == "charts" and len(key) == 64


def test_a_chart_axis_that_does_not_compute_fails_before_any_cell():
    chart = _chart(None, _axis("toughness", "a / 0"))
    assert computed.cell_failure(chart, _TO_WOUND, None, _calc(_never)) == (
        "`wounds` cannot compute its cell for no inputs: `a / 0` divides by zero"
    )


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
            Finding(Code.PROSE_ROLE, "the role `{raw}` is not allowed in prose", 0, 0, ROLES_HINT)
        ]
        assert held.stored == {
            ("prose", _sha256(text)): [["prose-role", "the role `{raw}` is not allowed in prose", 0, 0, ROLES_HINT]]
        }
    stored = {("prose", _sha256(text)): [["prose-link", "a link to `x:`", 1, 2, "link elsewhere"]]}
    with _remembering(_Memo(stored)):
        assert prose._remembered_findings(text) == [Finding(Code.PROSE_LINK, "a link to `x:`", 1, 2, "link elsewhere")]


def test_stored_prose_findings_read_back_only_when_each_has_the_stored_shape():
    assert prose._load_findings([]) == []
    assert prose._load_findings(
        [["prose-role", "the role", 2, 3, "a hint"], ["prose-image", "an image", 0, 1, "words"]]
    ) == [Finding(Code.PROSE_ROLE, "the role", 2, 3, "a hint"), Finding(Code.PROSE_IMAGE, "an image", 0, 1, "words")]
    with pytest.raises(ValueError, match="^not findings$"):
        prose._load_findings({"prose-role": "the role"})
    for finding in (
        ["prose-role", 5, 2, 3, "h"],
        ["prose-role", "m", "2", 3, "h"],
        ["prose-role", "m", True, 3, "h"],
        ["prose-role", "m", 2, 3.0, "h"],
        ["prose-role", "m", 2, 3, None],
    ):
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


# Charts and their axes, a formula's inputs and results, on stand-in charts and formulas.


def test_inputs_are_shown_as_names_and_values():
    assert computed._shown({}) == "no inputs"
    assert computed._shown({"S": 4, "T": 3}) == "S=4, T=3"
    assert computed._shown({"a": "x"}) == "a=x"


def _written(value):
    """An axis value as the loader gives it: a quantity (a word is text)."""
    from generator.model.quantity import Quantity

    return Quantity("text", value) if isinstance(value, str) else Quantity("number", value)


def _axis_of(values=(), low=None, high=None, ranged=True, input="x"):
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location

    span = SimpleNamespace(low=low, high=high) if ranged else None
    return SimpleNamespace(
        values=tuple(_written(v) for v in values),
        range=span,
        input=input,
        loc=Location("rules_src/r/charts.yaml", 3),
        locs=MappingProxyType({"values": Location("rules_src/r/charts.yaml", 7, 11)}),
    )


def test_an_axis_takes_its_values_or_its_whole_range():
    from generator.model.charts import axis_values

    assert axis_values(None, _axis_of(low=2, high=4)) == [2, 3, 4]
    assert axis_values(None, _axis_of(low=None, high=4)) == []
    assert axis_values(None, _axis_of(low=2, high=None)) == []
    assert axis_values(None, _axis_of(ranged=False)) == []
    assert axis_values(None, _axis_of(values=("a", "cover + moving"), low=1, high=2), {"cover": 1, "moving": 2}) == [
        "a",
        3,
    ]


def test_an_axis_word_is_computed_only_when_every_name_it_uses_is_a_value():
    from generator.model.charts import _axis_value

    assert _axis_value(_written("cover + moving"), {"cover": 1, "moving": 2}) == 3
    assert _axis_value(_written("cover + moving"), {"cover": 1, "moving": 2, "other": 5}) == 3
    assert _axis_value(_written("cover + wind"), {"cover": 1}) == "cover + wind"
    assert _axis_value(_written("cover +"), {"cover": 1}) == "cover +"
    assert _axis_value(_written("cover"), None) == "cover"
    assert _axis_value(_written(4), {"cover": 1}) == 4


def test_every_cell_of_a_chart_gets_its_row_column_and_fixed_inputs():
    from types import SimpleNamespace

    from generator.model.charts import chart_cells

    chart = SimpleNamespace(
        fixed=(SimpleNamespace(id="range", value=_written(12)),),
        rows=_axis_of(values=("cover",), input="row"),
        columns=_axis_of(values=("cover", "open"), input="col"),
    )
    assert list(chart_cells(chart, {"cover": 2})) == [
        {"col": 2, "range": 12, "row": 2},
        {"col": "open", "range": 12, "row": 2},
    ]
    one_row = SimpleNamespace(fixed=(), rows=None, columns=_axis_of(low=1, high=2, input="col"))
    assert list(chart_cells(one_row)) == [{"col": 1}, {"col": 2}]


def test_an_axis_value_that_does_not_compute_is_a_located_chart_error():
    from types import SimpleNamespace

    from generator.diagnostics import Code, Location
    from generator.validate.computed import _axis_ok

    found = []
    chart = SimpleNamespace(id="to_hit")
    assert _axis_ok(chart, _axis_of(values=("a / 0",)), SimpleNamespace(scope={"a": 1}), found, "rows") is False
    assert [(d.code, d.message, d.location) for d in found] == [
        (
            Code.BAD_CHART,
            "a value of the rows of `to_hit` does not compute: `a / 0` divides by zero",
            Location("rules_src/r/charts.yaml", 7, 11),
        )
    ]
    assert _axis_ok(chart, _axis_of(values=("a + 1",)), SimpleNamespace(scope={"a": 1}), found, "rows") is True
    assert len(found) == 1


def _chart_of(rows=None, columns=None, fixed=(), formula="to_wound", chance=""):
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location

    at = Location("rules_src/r/charts.yaml", 20)
    locs = MappingProxyType(
        {"formula": Location("rules_src/r/charts.yaml", 21, 14), "chance": Location("rules_src/r/charts.yaml", 22, 13)}
    )
    return SimpleNamespace(
        id="wounds",
        formula=formula,
        chance=chance,
        result="",
        rows=rows,
        columns=columns,
        fixed=tuple(fixed),
        loc=at,
        locs=locs,
    )


def _labelled(axis, input, labels=()):
    from types import MappingProxyType

    from generator.diagnostics import Location

    axis.input, axis.labels = input, tuple(labels)
    axis.locs = MappingProxyType(
        {
            **axis.locs,
            "input": Location("rules_src/r/charts.yaml", 30, 12),
            "labels": Location("rules_src/r/charts.yaml", 31, 13),
        }
    )
    return axis


def _problems(chart, evaluate=lambda formula, **cell: 1, scope=None):
    from types import SimpleNamespace

    from generator.validate.computed import chart_problems

    inputs = (
        SimpleNamespace(id="strength", type="int", default=None, optional=False, unit=""),
        SimpleNamespace(id="toughness", type="int", default=None, optional=False, unit=""),
    )
    formulas = (
        SimpleNamespace(id="to_wound", inputs=inputs, results=(), unit=""),
        SimpleNamespace(id="odds", inputs=inputs, results=(), unit=""),
    )
    ruleset = SimpleNamespace(reachable=lambda section: formulas if section == "formulas" else ())
    calc = SimpleNamespace(scope=scope or {"a": 1}, evaluate=evaluate)
    return [(d.code.code, d.message, str(d.location), d.hint) for d in chart_problems(ruleset, chart, calc)]


def test_a_chart_naming_an_unknown_formula_says_which_and_suggests_one():
    assert _problems(_chart_of(formula="to_wund", chance="xyz")) == [
        (
            "unknown-ref",
            "chart `wounds` names formula `to_wund`, which is not in `formulas:`",
            "rules_src/r/charts.yaml:21:14",
            "did you mean `to_wound`?",
        ),
        (
            "unknown-ref",
            "chart `wounds` names formula `xyz`, which is not in `formulas:`",
            "rules_src/r/charts.yaml:22:13",
            None,
        ),
    ]


def test_a_charts_axes_must_vary_inputs_and_have_values_and_matching_labels():
    rows = _labelled(_axis_of(values=(1, 2)), "strenght")
    columns = _labelled(_axis_of(low=1, high=None), "toughness", labels=("one",))
    assert _problems(_chart_of(rows=rows, columns=columns)) == [
        (
            "bad-chart",
            "the rows of `wounds` vary `strenght`, which is not an input of `to_wound`",
            "rules_src/r/charts.yaml:30:12",
            "did you mean `strength`?",
        ),
        (
            "bad-chart",
            "the columns of `wounds` need `values:` or a closed `range:`",
            "rules_src/r/charts.yaml:3:1",
            None,
        ),
        ("bad-chart", "the columns of `wounds` have 1 labels for 0 values", "rules_src/r/charts.yaml:31:13", None),
    ]


def test_an_axis_that_does_not_compute_leaves_the_other_axis_checked():
    rows = _labelled(_axis_of(values=("a / 0", "a")), "strength", labels=("x",))
    columns = _labelled(_axis_of(ranged=False), "toughness")
    assert _problems(_chart_of(rows=rows, columns=columns)) == [
        (
            "bad-chart",
            "a value of the rows of `wounds` does not compute: `a / 0` divides by zero",
            "rules_src/r/charts.yaml:7:11",
            None,
        ),  # and its labels are not counted against values it lacks
        (
            "bad-chart",
            "the columns of `wounds` need `values:` or a closed `range:`",
            "rules_src/r/charts.yaml:3:1",
            None,
        ),
    ]


def test_a_chart_without_rows_names_its_columns_and_its_fixed_inputs():
    from types import SimpleNamespace

    from generator.diagnostics import Location

    columns = _labelled(_axis_of(ranged=False), "toughnes")
    fixed = SimpleNamespace(id="strenght", value=_written(3), loc=Location("rules_src/r/charts.yaml", 40, 5))
    assert _problems(_chart_of(columns=columns, fixed=[fixed])) == [
        (
            "bad-chart",
            "the columns of `wounds` vary `toughnes`, which is not an input of `to_wound`",
            "rules_src/r/charts.yaml:30:12",
            "did you mean `toughness`?",
        ),
        (
            "bad-chart",
            "`wounds` fixes `strenght`, which is not an input of `to_wound`",
            "rules_src/r/charts.yaml:40:5",
            "did you mean `strength`?",
        ),
    ]


def test_a_cell_that_does_not_compute_is_named_by_its_inputs():
    from generator.model.formula import FormulaError

    def evaluate(formula, **cell):
        if cell == {"toughness": 2, "strength": 1}:
            raise FormulaError("no such wound")
        return 1

    rows, columns = _labelled(_axis_of(values=(1,)), "strength"), _labelled(_axis_of(values=(1, 2)), "toughness")
    assert _problems(_chart_of(rows=rows, columns=columns), evaluate) == [
        (
            "bad-chart",
            "`wounds` cannot compute its cell for toughness=2, strength=1: no such wound",
            "rules_src/r/charts.yaml:21:14",
            CELL_HINT,
        )
    ]


def _input_with(**fields):
    from generator.model.computed import Input

    return Input(id="n", label="N", **fields)


@pytest.mark.parametrize(
    "fields, expected",
    [
        ({"min": 1, "max": 3}, [1, 2, 3]),
        ({"min": -1, "max": 1, "optional": True}, [None, -1, 0, 1]),
        ({"type": "bool"}, [False, True]),
        ({"type": "bool", "optional": True}, [None, False, True]),
        ({"type": "text", "choices": ("left", "right")}, ["left", "right"]),
        ({"type": "text", "choices": ("up",), "optional": True}, [None, "up"]),
        ({"type": "text"}, None),  # a text without choices: unbounded
        ({"type": "text", "optional": True}, None),
        ({"min": 1}, None),
        ({"max": 1}, None),  # half-bounded
        ({"min": 0, "max": 1999}, list(range(0, 2000))),  # 2,000 values: still enumerated
        ({"min": 5, "max": 2004}, list(range(5, 2005))),
        ({"min": 0, "max": 2000}, None),  # 2,001 values: too many
        ({"min": 0, "max": 2000, "optional": True}, None),
    ],
)
def test_an_inputs_values_are_every_one_it_takes_or_none(fields, expected):
    from generator.validate.computed import input_values

    assert input_values(_input_with(**fields)) == expected


TARGET_WORDS = "not a target roll (a whole number, or None when it cannot succeed)"


@pytest.mark.parametrize(
    "kind, result, expected",
    [
        ("target", 4, ""),
        ("target", None, ""),
        ("target", True, f"True, {TARGET_WORDS}"),
        ("target", "x", f"'x', {TARGET_WORDS}"),
        ("chance", "half", "'half', not a chance from 0 to 1"),
        ("chance", 2, "2, not a chance from 0 to 1"),
        ("chance", 1, ""),
        ("bool", True, ""),
        ("bool", 1, "1, not true or false"),
        ("roll", "d6", ""),  # replaced by a real die below
        ("roll", 3, "3, not a roll"),
        ("number", 3, ""),
        ("number", "die", "a roll, not a number"),
        ("number", True, "True, not a number"),
        ("distance", "x", "'x', not a number"),
        ("distance", 2, ""),
        ("text", 3, ""),
    ],
)
def test_a_result_that_does_not_fit_its_kind_says_what_it_is(kind, result, expected):
    from types import SimpleNamespace

    import icepool

    from generator.validate.computed import result_problem

    if (kind, result) in (("roll", "d6"), ("number", "die")):
        result = icepool.d6
    assert result_problem(SimpleNamespace(result=kind), result) == expected


# Lookups: every row a number range or a word, no number twice, none missing.


def _lookup_row(line, when=None, match=""):
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location
    from generator.model.dice import RollRange

    return SimpleNamespace(
        when=RollRange.parse(when) if when is not None else None,
        match=match,
        loc=Location("rules_src/r/lookups.yaml", line),
        locs=MappingProxyType(
            {
                "when": Location("rules_src/r/lookups.yaml", line, 9),
                "match": Location("rules_src/r/lookups.yaml", line, 10),
            }
        ),
    )


def _coverage(rows, over=None):
    from types import MappingProxyType, SimpleNamespace

    from generator.diagnostics import Location
    from generator.model.dice import RollRange
    from generator.validate.computed import lookup_coverage

    lookup = SimpleNamespace(
        id="outcome",
        rows=tuple(rows),
        over=RollRange.parse(over) if over else None,
        loc=Location("rules_src/r/lookups.yaml", 1),
        locs=MappingProxyType({"rows": Location("rules_src/r/lookups.yaml", 2, 3)}),
    )
    return [(d.code.code, d.message, str(d.location)) for d in lookup_coverage(lookup)]


def test_a_lookup_row_is_a_range_or_a_word_and_no_word_twice():
    assert _coverage(
        [
            _lookup_row(5),
            _lookup_row(6, when="1-2", match="rout"),
            _lookup_row(7, match="Rout"),
            _lookup_row(8, match="hold"),
        ]
    ) == [
        (
            "bad-value",
            "each row of `outcome` has either `when:` (a number or range) or `match:` (a word)",
            "rules_src/r/lookups.yaml:5:1",
        ),
        (
            "bad-value",
            "each row of `outcome` has either `when:` (a number or range) or `match:` (a word)",
            "rules_src/r/lookups.yaml:6:1",
        ),
        ("table-overlap", "`outcome` answers `Rout` twice", "rules_src/r/lookups.yaml:7:10"),
    ]
    assert _coverage([_lookup_row(5, match="rout"), _lookup_row(6, match="hold")]) == []


def test_a_lookup_over_a_range_has_each_number_once():
    rows = [_lookup_row(5, when="3+"), _lookup_row(6, when="1-2"), _lookup_row(7, when="2")]
    assert _coverage(rows, over="0-4") == [
        ("table-overlap", "row `2` of `outcome` covers 2 again", "rules_src/r/lookups.yaml:7:9"),
        ("table-gap", "`outcome` has no row for 0 of 0-4", "rules_src/r/lookups.yaml:2:3"),
    ]
    assert (
        _coverage([_lookup_row(5, when="0-"), _lookup_row(6, when="1-2"), _lookup_row(7, when="3+")], over="-2-6") == []
    )
    assert _coverage([_lookup_row(5, when="1-2"), _lookup_row(6, when="5-6")], over="1-6") == [
        ("table-gap", "`outcome` has no row for 3-4 of 1-6", "rules_src/r/lookups.yaml:2:3")
    ]


def test_a_lookup_over_no_range_only_minds_overlaps_between_its_rows():
    assert _coverage([_lookup_row(5, when="0-"), _lookup_row(6, when="3+")]) == []
    assert _coverage([_lookup_row(5, when="0-"), _lookup_row(6, when="-1")]) == [
        ("table-overlap", "row `-1` of `outcome` covers -1 again", "rules_src/r/lookups.yaml:6:9")
    ]
    assert _coverage([_lookup_row(5, when="3+"), _lookup_row(6, when="5+")]) == [
        ("table-overlap", "row `5+` of `outcome` covers 5-6 again", "rules_src/r/lookups.yaml:6:9")
    ]


def test_a_lookup_over_an_open_range_still_finds_its_gaps():
    assert _coverage([_lookup_row(5, when="3-4"), _lookup_row(6, when="6+")], over="3+") == [
        ("table-gap", "`outcome` has no row for 5 of 3+", "rules_src/r/lookups.yaml:2:3")
    ]


def test_an_overlap_below_every_bound_is_told_from_one_below_the_lowest():
    assert _coverage([_lookup_row(5, when="1-"), _lookup_row(6, when="0-")]) == [
        ("table-overlap", "row `0 or less` of `outcome` covers -1-0 again", "rules_src/r/lookups.yaml:6:9")
    ]


MISSPELT_IN_EXPRESSIONS = """\
formulas:
  reach_roll:
    title: Reach roll
    inputs: {kind: {label: Kind, type: text, choices: [spear, sword]}}
    expr: 'D6 + 1 if kind == "reech" else 2D6 + reech'
  long_reach:
    title: Long reach
    let:
      twice: |
        (D6
          + reech * 2)
    expr: twice
"""


def test_a_name_no_entry_has_is_told_where_the_expression_reads_it(tmp_path):
    """Not at the expression's start: past a quoted text that holds the same word, on the line of a block it is on."""
    found = [line for line in checked(tmp_path, MISSPELT_IN_EXPRESSIONS) if "[bad-formula]" in line]
    assert found == [
        "rules_src/x/case.yaml:5:49: error[bad-formula]: `reech` in `reach_roll` is not an input, a value, a `let` "
        "name, a formula, a table or a function",
        "rules_src/x/case.yaml:11:13: error[bad-formula]: `reech` in `let: twice` of `long_reach` is not an input, "
        "a value, an earlier `let` name, a formula, a table or a function",
    ]
