"""How a worked example's failure is worded. The runner is the one the confined child uses; here it runs
in-process on hand-written `>>>` blocks so each message can be read exactly."""

from __future__ import annotations

import doctest
import io

from generator.examples.run import OPTIONS, Collecting


def problems(source: str) -> list[tuple[int, str]]:
    test = doctest.DocTestParser().get_doctest(source, {}, "example", "rules.yaml", 0)
    runner = Collecting(optionflags=OPTIONS)
    runner.run(test, out=io.StringIO().write)
    return [(example.lineno, text) for example, text in runner.problems]


def test_a_wrong_result_names_the_statement_what_it_gave_and_what_the_text_says():
    assert problems(">>> 1 + 1\n3\n") == [(0, "`1 + 1` gave 2, the example expects 3")]


def test_a_statement_that_prints_nothing_where_the_text_expects_something():
    assert problems(">>> x = 1\n1\n") == [(0, "`x = 1` gave nothing, the example expects 1")]


def test_a_result_where_the_text_expects_nothing():
    assert problems(">>> 2 * 3\n") == [(0, "`2 * 3` gave 6, the example expects nothing")]


def test_an_exception_names_its_kind_and_message():
    assert problems(">>> 1 / 0\n1\n") == [(0, "`1 / 0` raised ZeroDivisionError: division by zero")]


def test_whitespace_and_ellipsis_are_forgiven_and_every_statement_is_judged():
    source = ">>> [1,  2]\n[1, 2]\n>>> 'a long text'\n'a ...'\n>>> 3\n4\n"
    assert problems(source) == [(4, "`3` gave 3, the example expects 4")]


def test_a_misspelt_name_is_told_with_the_closest_name_the_example_may_use():
    test = doctest.DocTestParser().get_doctest(">>> cast_chanse(3)\n1\n", {"cast_chance": abs}, "example", "x", 0)
    runner = Collecting(optionflags=OPTIONS)
    runner.run(test, out=io.StringIO().write)
    assert [text for _example, text in runner.problems] == [
        "`cast_chanse(3)` raised NameError: name 'cast_chanse' is not defined; did you mean `cast_chance`?"
    ]


def test_a_function_of_the_formula_language_is_told_how_an_example_gets_its_answer_instead():
    """`chance(...)` is a word of formulas, not an example's name: the closest name (`chance_of_hits`, a formula of
    another meaning) is not offered; the way to a table's chance and to a formula's answer is."""
    names = {"chance_of_hits": abs, "rules": object()}
    test = doctest.DocTestParser().get_doctest('>>> chance(spells(D6) == "Grog")\n1\n', names, "example", "x", 0)
    runner = Collecting(optionflags=OPTIONS)
    runner.run(test, out=io.StringIO().write)
    [told] = [text for _example, text in runner.problems]
    assert "did you mean" not in told
    assert told.startswith("`chance(spells(D6) == \"Grog\")` raised NameError: name 'chance' is not defined; ")
    assert 'rules.table("id").chance("Result")' in told


def test_a_profile_cell_read_as_an_attribute_is_told_to_read_it_by_subscript():
    from generator.model.entries import ProfileRow

    row = ProfileRow(id="troll", name="Troll", values={"moral": 3})
    assert row["moral"] == 3
    try:
        row.moral  # noqa: B018 - reading it is the point
    except AttributeError as error:
        assert 'row["moral"]' in str(error)
    else:
        raise AssertionError("a cell read as an attribute gave no error")
    try:
        row.speed  # noqa: B018 - a name that is no column: Python's own message
    except AttributeError as error:
        assert str(error) == "'ProfileRow' object has no attribute 'speed'"
