"""The summary line of each ruleset's worked examples (``report.run_line``): its counts add up to its examples."""

from __future__ import annotations

import pytest

from generator.diagnostics import Code, Diagnostic, Location
from generator.examples.run import ExampleRun
from generator.model.ruleset import HouseResult
from generator.report import run_line


def failed(line: int) -> Diagnostic:
    return Diagnostic(Code.EXAMPLE_FAILED, "expected 2, got 3", Location("rules_src/g/rules.yaml", line, 7))


def changed(entry: str) -> HouseResult:
    return HouseResult(entry=entry, source=">>> x", path="rules_src/g/rules.yaml", line=3, results=(("1", "2"),))


@pytest.mark.parametrize(
    ("run", "line"),
    [
        (ExampleRun("g", 3, ()), "g: 3 examples, all pass"),
        (ExampleRun("g", 3, (failed(4),)), "g: 3 examples, 1 failed"),
        (ExampleRun("g", 4, (failed(4),), unrun=2), "g: 4 examples, 1 failed, 2 not run"),
        (
            ExampleRun("h", 10, (failed(4),), (changed("rules.a"), changed("rules.b")), unrun=3),
            "h: 10 examples, 4 pass, 1 failed, 3 not run, "
            "2 give another result under its house values (rules.a, rules.b)",
        ),
        (ExampleRun("g", 0, ()), "g: no worked examples"),
    ],
)
def test_each_example_is_counted_once_passed_failed_not_run_or_changed(run, line):
    assert run_line(run) == line
