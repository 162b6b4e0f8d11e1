"""The schema-driven builder: fields whose entries are keyed by id written as lists, and `declares:` told whole."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Annotated, Union, get_args, get_origin

import pytest
from helpers import make_project

from generator.cli import main
from generator.diagnostics import Code, Diagnostics
from generator.model.entries import Entry, Meta
from generator.model.ruleset import SECTIONS
from generator.source.build import INVALID, Builder
from generator.source.yamlnodes import parse_text


def _parts(tp):
    """The types a field's type is made of (`tuple[Input, ...] | None` gives Input)."""
    origin = get_origin(tp)
    if origin is Annotated:
        return _parts(get_args(tp)[0])
    if origin in (Union, types.UnionType, tuple):
        return [part for arg in get_args(tp) if arg is not Ellipsis for part in _parts(arg)]
    return [tp]


def keyed_fields() -> dict[str, object]:
    """`Class.field` and its type for every field of the schema, walked from its sections, whose items are entries:
    written under their ids or names, as the format reference says."""
    found, seen, todo = {}, set(), [Meta, *SECTIONS.values()]
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for f in dataclasses.fields(cls):
            if f.metadata.get("internal"):
                continue
            tp = typing.get_type_hints(cls, include_extras=True)[f.name]
            item = get_args(tp)[0] if get_origin(tp) is tuple else None
            if isinstance(item, type) and issubclass(item, Entry):
                found[f"{cls.__name__}.{f.name}"] = tp
            todo += [part for part in _parts(tp) if dataclasses.is_dataclass(part)]
    return found


KEYED = keyed_fields()


def test_the_fields_keyed_by_id_are_those_the_format_reference_calls_so():
    assert {
        "Formula.inputs",
        "Formula.let",
        "Formula.results",
        "Chart.fixed",
        "ProfileMatrix.columns",
        "ProfileMatrix.tracks",
        "Declares.page_titles",
        "VictoryPointSheet.kinds",
    } <= set(KEYED)


@pytest.mark.parametrize("written", ["- {label: X}\n- {label: Y}\n", "[x, y]\n", "x\n"])
@pytest.mark.parametrize("field", sorted(KEYED))
def test_a_field_keyed_by_id_written_otherwise_is_one_located_wrong_type_error(field, written):
    diagnostics = Diagnostics()
    node = parse_text(f"field:\n  {written.replace(chr(10), chr(10) + '  ').rstrip()}\n", "f.yaml", diagnostics)
    key = field.partition(".")[2]
    built = Builder(diagnostics).value(KEYED[field], node.get("field"), key)
    assert built is INVALID
    [told] = list(diagnostics)
    assert (told.code, told.location.line, told.location.column) == (Code.WRONG_TYPE, 2, 3)
    assert f"`{key}` must be a mapping of" in told.message
    assert f"`{key}: {{" in told.hint  # the mapping it should be


FORMULA_INPUTS_AS_A_LIST = """\
formulas:
  f:
    title: F
    inputs:
      - {label: X}
    expr: "1"
"""

RULESET = "ruleset:\n  title: G\nchapters:\n  c: {title: C, intro: Some text.}\n"


@pytest.mark.parametrize("command", [["check"], ["check", "--no-examples"], ["names", "g"]])
def test_inputs_written_as_a_list_are_told_not_a_crash(tmp_path, capsys, command):
    root = make_project(tmp_path, {"g/extra.yaml": FORMULA_INPUTS_AS_A_LIST}, g=RULESET)
    code = main(["-C", str(root), *command])
    err = capsys.readouterr().err
    assert "internal error" not in err
    if command[0] == "check":
        assert code == 1
        assert "rules_src/g/extra.yaml:5:7: error[wrong-type]: `inputs` must be a mapping of names to entries" in err
    else:
        assert code == 0  # `names` works while `check` fails


RESULTS_AS_A_LIST = """\
formulas:
  f:
    title: F
    results:
      - {expr: "1"}
      - {expr: "2", result: bool}
rules:
  r:
    title: R
    chapter: c
    body: |
      ```python
      >>> f()
      3
      ```
"""


def test_two_results_written_as_a_list_are_an_error_not_one_result(tmp_path, capsys):
    root = make_project(tmp_path, {"g/extra.yaml": RESULTS_AS_A_LIST}, g=RULESET)
    assert main(["-C", str(root), "check"]) == 1
    err = capsys.readouterr().err
    assert "rules_src/g/extra.yaml:5:7: error[wrong-type]: `results` must be a mapping of names to entries" in err
    assert "f(=2)" not in err  # the first result no longer lost under an empty name


DECLARES_WITH_THREE_PROBLEMS = """\
ruleset:
  title: G
  declares:
    victory_point_kinds: [leader]
    victory_point_sheet:
      kinds:
        leader: {title: L, write_in_lines: 25}
        relic: Relics
    page_titles:
      spells: Magic
      nonsense: Whatever
chapters:
  c: {title: C, intro: Some text.}
"""


def test_a_heading_out_of_range_leaves_the_other_problems_of_declares_told_in_the_same_check(tmp_path, capsys):
    root = make_project(tmp_path, g=DECLARES_WITH_THREE_PROBLEMS)
    assert main(["-C", str(root), "check"]) == 1
    told = [line for line in capsys.readouterr().err.splitlines() if "error[" in line]
    assert [line.split(": ")[0:2] for line in told] == [
        ["rules_src/g/ruleset.yaml:7:44", "error[out-of-range]"],  # write_in_lines 25, beyond 0-20
        ["rules_src/g/ruleset.yaml:8:9", "error[undeclared-kind]"],  # relic is not a declared kind
        ["rules_src/g/ruleset.yaml:11:7", "error[unknown-section]"],  # no section `nonsense` has a page
    ]


def test_a_field_name_with_a_space_is_told_the_field_it_is_closest_to_and_a_sentence_that_it_is_text(tmp_path, capsys):
    rules = (
        "rules:\n  r:\n    title: R\n    chapter: c\n    gm note: Secret.\n    body: |\n    Each turn has two: parts.\n"
    )
    root = make_project(tmp_path, {"g/extra.yaml": rules}, g=RULESET)
    assert main(["-C", str(root), "check", "--no-examples"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "rules_src/g/extra.yaml:5:5: error[unknown-field]: unknown field `gm note` in rule",
        "  hint: did you mean `gm_note`?",
        "rules_src/g/extra.yaml:7:5: error[unknown-field]: unknown field `Each turn has two` in rule",
        "  hint: this reads as a line of text: the lines of a text written after `|` are indented further than its "
        "field's name, every one of them (`body: |`, then the text two spaces in)",
    ]
