"""A formula called from an example or mechanics with the wrong inputs: each is a message naming the
formula, the input and what it takes. Messages are as the inputs' declarations below say."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from generator.model.calculate import calculator
from generator.model.formula import FormulaError
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


def write(root: Path, text: str) -> Path:
    (root / "rules_src" / "game").mkdir(parents=True)
    (root / "rules_src" / "game" / "ruleset.yaml").write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def charge(tmp_path):
    result = check_project(write(tmp_path, INPUTS))
    assert result.ok, [d.format() for d in result.diagnostics]
    return calculator(result.project.ruleset("game")).scope["charge"]


def test_inputs_that_fit_their_declarations_give_the_result(charge):
    assert charge(**GOOD) == 2
    assert charge(True, "right", "onward", 6, 0, 3) == 6  # positional, in declared order; the bounds included


@pytest.mark.parametrize("wrong, message", [
    ({"bold": 1}, "`bold` of charge is true or false, not 1"),
    ({"side": "up"}, "`side` of charge is one of left, right, not 'up'"),
    ({"motto": 3}, "`motto` of charge is a text, not 3"),
    ({"dice": 7}, "`dice` of charge runs from 1 to 6, not 7"),
    ({"dice": 0}, "`dice` of charge runs from 1 to 6, not 0"),
    ({"dice": Fraction(3, 2)}, "`dice` of charge is a whole number, not 3/2"),
    ({"dice": "2"}, "`dice` of charge is a number, not '2'"),
    ({"dice": True}, "`dice` of charge is a number, not True"),
    ({"share": -1}, "`share` of charge runs at least 0, not -1"),
    ({"cap": 4}, "`cap` of charge runs at most 3, not 4"),
])
def test_an_input_outside_its_declaration_is_named(charge, wrong, message):
    with pytest.raises(FormulaError) as caught:
        charge(**{**GOOD, **wrong})
    assert str(caught.value) == message


def test_calls_with_the_wrong_shape_are_named(charge):
    with pytest.raises(FormulaError, match=r"^charge takes 6 inputs \(bold, side, motto, dice, share, cap\), not 7$"):
        charge(True, "left", "onward", 1, 0, 1, 9)
    with pytest.raises(FormulaError, match="^charge has no input `speed`; its inputs are bold, side, motto, dice, share, cap$"):
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
    result = check_project(write(tmp_path, text))
    assert [d.format() for d in result.diagnostics] == [
        "rules_src/game/ruleset.yaml:8:11: error[bad-formula]: `long_reach` fails for no inputs: not given: the text "
        "does not give the value `reach`; test for it with is_given(...) before using it\n  hint: use the inputs, values, `let` names, tables and functions listed in the "
        "format reference"]
