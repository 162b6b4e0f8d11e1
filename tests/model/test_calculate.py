"""A formula called from an example or mechanics with the wrong inputs: each is a message naming the
formula, the input and what it takes. Messages are as the inputs' declarations below say."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from helpers import make_project

from generator.model.calculate import calculator
from generator.model.dice import RollRange
from generator.model.formula import FormulaError
from generator.model.quantity import Quantity
from generator.validate import check_project

INPUTS = """
ruleset: {title: Inputs}
formulas:
  charge:
    title: Charge
    inputs:
      bold: {label: Bold, type: bool}
      side: {label: Side, type: text, choices: [left, right]}
      motto: {label: Motto, type: text}
      dice: {label: Dice, min: 1, max: 6}
      share: {label: Share, type: number, min: 0}
      cap: {label: Cap, max: 3}
    expr: dice
"""
GOOD = {"bold": True, "side": "left", "motto": "onward", "dice": 2, "share": Fraction(1, 2), "cap": 1}


@pytest.fixture
def charge(tmp_path):
    result = check_project(make_project(tmp_path, game=INPUTS))
    assert result.ok, [d.format() for d in result.diagnostics]
    return calculator(result.project.ruleset("game")).scope["charge"]


def test_a_number_given_a_text_input_whose_choice_is_its_digits_is_told_apart_from_it():
    # the choice is the text '2'; the number 2 is no choice, and the message must not read "one of 2 ... not 2"
    spec = _spec(type="text", choices=("ace", "2"))
    assert _input_error(spec, a=2) == "`a` of f is a text, one of 'ace', '2', not the number 2"


def test_inputs_that_fit_their_declarations_give_the_result(charge):
    assert charge(**GOOD) == 2
    assert charge(True, "right", "onward", 6, 0, 3) == 6  # positional, in declared order; the bounds included


@pytest.mark.parametrize(
    "wrong, message",
    [
        ({"bold": 1}, "`bold` of charge is true or false, not 1"),
        ({"side": "up"}, "`side` of charge is one of left, right, not 'up'"),
        ({"motto": 3}, "`motto` of charge is a text, not the number 3"),
        ({"motto": Fraction(1, 2)}, "`motto` of charge is a text, not the number 1/2"),
        ({"motto": True}, "`motto` of charge is a text, not True"),
        ({"dice": 7}, "`dice` of charge runs from 1 to 6, not 7"),
        ({"dice": 0}, "`dice` of charge runs from 1 to 6, not 0"),
        ({"dice": Fraction(3, 2)}, "`dice` of charge is a whole number, not 3/2"),
        ({"dice": "2"}, "`dice` of charge is a number, not '2'"),
        ({"dice": True}, "`dice` of charge is a number, not True"),
        ({"share": -1}, "`share` of charge runs at least 0, not -1"),
        ({"cap": 4}, "`cap` of charge runs at most 3, not 4"),
    ],
)
def test_an_input_outside_its_declaration_is_named(charge, wrong, message):
    with pytest.raises(FormulaError) as caught:
        charge(**{**GOOD, **wrong})
    assert str(caught.value) == message


def test_calls_with_the_wrong_shape_are_named(charge):
    with pytest.raises(FormulaError, match=r"^charge takes 6 inputs \(bold, side, motto, dice, share, cap\), not 7$"):
        charge(True, "left", "onward", 1, 0, 1, 9)
    with pytest.raises(
        FormulaError, match="^charge has no input `speed`; its inputs are bold, side, motto, dice, share, cap$"
    ):
        charge(**GOOD, speed=1)
    with pytest.raises(FormulaError, match="^charge got `bold` twice$"):
        charge(True, **GOOD)
    with pytest.raises(FormulaError, match=r"^charge needs the input `bold` \(Bold\)$"):
        charge()


def test_a_formula_using_a_value_the_text_does_not_give_is_a_located_error(tmp_path):
    text = """
ruleset: {title: Reach}
values:
  reach: {value: not given, label: Reach}
formulas:
  long_reach:
    title: Long reach
    expr: reach + 1
"""
    result = check_project(make_project(tmp_path, game=text))
    assert [d.format() for d in result.diagnostics] == [
        "rules_src/game/ruleset.yaml:8:11: error[bad-formula]: `long_reach` fails for no inputs: not given: the text "
        "does not give the value `reach`; test for it with is_given(...) before using it\n  hint: use the inputs, "
        "values, `let` names, tables and functions listed in the "
        "format reference"
    ]


# A formula's inputs and their messages, on stand-in formulas (only these attributes are read); formulas,
# tables and lookups as the functions a worked example calls.


def test_a_table_rows_value_is_its_number_else_its_result():
    from types import SimpleNamespace

    from generator.model.calculate import row_value

    assert row_value(SimpleNamespace(value=Quantity.parse("3"), result="three")) == 3
    assert row_value(SimpleNamespace(value=0, result="zero")) == 0
    assert row_value(SimpleNamespace(value=None, result="none")) == "none"
    assert row_value(SimpleNamespace(result="no value field")) == "no value field"


def _spec(id="a", type="int", **given):
    from types import SimpleNamespace

    fields = dict(id=id, label=id.upper(), type=type, optional=False, default=None, choices=(), min=None, max=None)
    fields.update(given)
    return SimpleNamespace(**fields)


def _formula(*specs, id="f"):
    from types import SimpleNamespace

    return SimpleNamespace(
        id=id,
        inputs=specs,
        let=(),
        results=(),
        expr=SimpleNamespace(evaluate=lambda scope: scope),
        result="number",
        unit="",
    )


def _input_error(spec, **given):
    from generator.model.calculate import _input
    from generator.model.formula import FormulaError

    with pytest.raises(FormulaError) as error:
        _input(_formula(spec), spec, given)
    return str(error.value)


def test_each_kind_of_wrong_input_is_named_in_its_message():

    from generator.model.calculate import _input

    assert _input_error(_spec()) == "f needs the input `a` (A)"
    assert _input_error(_spec(type="bool"), a=1) == "`a` of f is true or false, not 1"
    assert (
        _input_error(_spec(type="text", choices=("left", "right")), a="up")
        == "`a` of f is one of left, right, not 'up'"
    )
    assert (
        _input_error(_spec(type="text", choices=("left", "right")), a=3)
        == "`a` of f is a text, one of 'left', 'right', not the number 3"
    )
    assert _input_error(_spec(type="text"), a=3) == "`a` of f is a text, not the number 3"
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
    for args, kwargs, message in [
        ((1, 2, 3), {}, "f takes 2 inputs (a, b), not 3"),
        ((), {"c": 1}, "f has no input `c`; its inputs are a, b"),
        ((1,), {"a": 1}, "f got `a` twice"),
    ]:
        with pytest.raises(FormulaError) as error:
            calc.evaluate(two, *args, **kwargs)
        assert str(error.value) == message
    with pytest.raises(FormulaError) as error:
        calc.evaluate(_formula(id="g"), c=1)
    assert str(error.value) == "g has no input `c`; its inputs are none"


def test_a_lookup_row_is_found_by_word_or_number_never_by_a_bool():
    from types import SimpleNamespace

    from generator.model.computed import Lookup

    rout, close = SimpleNamespace(match="Rout", when=None), SimpleNamespace(match="", when=RollRange.parse("1-2"))
    table = SimpleNamespace(title="Outcome", rows=(rout, close))
    assert Lookup.row(table, " rout ") is rout and Lookup.row(table, 2) is close
    for key, shown in (("hold", "'hold'"), (True, "True"), (5, "5")):
        with pytest.raises(LookupError, match=f"^Outcome has no row for {shown}$"):
            Lookup.row(table, key)


def test_formulas_tables_and_lookups_are_functions_that_describe_themselves():
    import inspect
    from types import SimpleNamespace

    from generator.model.calculate import Calculator, _lookup_reader, _table_reader

    calc = Calculator.__new__(Calculator)
    calc.scope = {}
    formula = _formula(_spec("strength"), _spec("toughness"), id="to_wound")
    formula.title = "To wound"
    call = calc.function(formula)
    assert (call.__name__, call.__qualname__, call.__doc__) == ("to_wound", "to_wound", "To wound")
    assert str(inspect.signature(call)) == "(strength, toughness)"
    table = SimpleNamespace(
        id="injury", title="Injuries", lookup=lambda total: SimpleNamespace(value=None, result=f"r{total}")
    )
    read = _table_reader(table)
    assert (read.__name__, read.__doc__) == (
        "injury",
        "The row of Injuries for a rolled total (or a roll): its value, else its result.",
    )
    lookup = SimpleNamespace(id="outcome", title="Outcome", key="Difference", read=lambda key: key * 10)
    read = _lookup_reader(lookup)
    assert (read.__name__, read.__doc__) == (
        "outcome",
        "The row of Outcome for a difference: its value, else its result.",
    )
    assert read(2) == 20 and read(icepool.d6) == icepool.Die([10, 20, 30, 40, 50, 60])
    lookup.key = ""
    assert _lookup_reader(lookup).__doc__ == "The row of Outcome for a key: its value, else its result."


def test_a_formulas_signature_lists_required_inputs_first_and_the_rest_by_keyword():
    from generator.model.calculate import _signature

    formula = _formula(_spec("a"), _spec("b", default=Quantity.parse("2")), _spec("c"), _spec("d", optional=True))
    assert str(_signature(formula)) == "(a, b=2, d=None, *, c)"
    assert str(_signature(_formula(_spec("x"), _spec("y")))) == "(x, y)"
    assert str(_signature(_formula(_spec("x", optional=True), _spec("y")))) == "(x=None, *, y)"
