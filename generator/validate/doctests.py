"""Worked examples: every `>>>` statement checks something."""

from __future__ import annotations

import functools

from ..diagnostics import Code, Diagnostic, Location
from ..model.ruleset import Ruleset

# A statement that only sets up names: it checks nothing itself, but a later statement may use it.
_SETUP = ("Assign", "AnnAssign", "AugAssign", "Import", "ImportFrom", "FunctionDef")


def _statement_kinds(source: str) -> set[str] | None:
    """The kinds of Python statement in one `>>>` statement (None: it does not parse)."""
    import ast

    try:
        return {type(node).__name__ for node in ast.parse(source).body}
    except SyntaxError:
        return None


def check_examples_assert(ruleset: Ruleset):
    """Every `>>>` statement of a worked example checks something: it states its result, is an `assert`, or
    sets up names for a later statement of its block that states one. A bare `>>> f(x)` whose output is
    empty passes doctest whatever f returns, so it would prove nothing."""
    for example in ruleset.examples:
        if example.ruleset != ruleset.id:
            continue  # a base's examples are checked with the base
        for line, column, text, what in _unchecked(example.source):
            yield Diagnostic(
                Code.EXAMPLE_UNCHECKED,
                f"{example.entry}: `{text}` {what}",
                Location(example.path, example.line + line, example.indent + column + 1),
            )


@functools.lru_cache(maxsize=4096)  # a pure function of the example's text: a check run again reuses it
def _unchecked(source: str) -> tuple[tuple[int, int, str, str], ...]:
    """Each statement of ``source`` that checks nothing: its line and column in the example, its text, and why."""
    import doctest

    statements = doctest.DocTestParser().get_examples(source)
    kinds = [_statement_kinds(statement.source) for statement in statements]
    checks = [bool(s.want.strip()) or bool(k) and k <= {"Assert"} for s, k in zip(statements, kinds)]
    found = []
    for index, statement in enumerate(statements):
        if checks[index] or not kinds[index]:
            continue  # it checks; or it is empty or does not parse, which doctest reports when the example runs
        if kinds[index] <= set(_SETUP) and any(checks[index + 1 :]):
            continue
        what = "sets up names no later statement checks" if kinds[index] <= set(_SETUP) else "states no result"
        found.append((statement.lineno, statement.indent, statement.source.strip()[:60], what))
    return tuple(found)
