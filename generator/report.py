"""`rulepress check`: diagnostics first, then a one-line summary per run."""

from __future__ import annotations

import sys
from pathlib import Path

from .diagnostics import Diagnostic, printable
from .examples.run import run_examples as run_ruleset_examples
from .validate import check_project


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def print_diagnostics(diagnostics: list[Diagnostic], stream=None) -> None:
    stream = stream or sys.stderr
    for diagnostic in diagnostics:
        print(diagnostic.format(), file=stream)


def run_check(root: Path, only: str | None = None, run_examples: bool = True) -> int:
    result = check_project(root, only)
    diagnostics = list(result.diagnostics)
    runs = []
    if result.ok and run_examples:
        for ruleset in result.project.rulesets:
            run = run_ruleset_examples(ruleset, result.project.root)
            runs.append(run)
            diagnostics.extend(run.failures)
    print_diagnostics(diagnostics)
    sys.stderr.flush()
    rulesets = result.project.rulesets
    for run in runs:
        status = "all pass" if not run.failures else f"{len(run.failures)} failed"
        print(printable(f"{run.ruleset}: {plural(run.total, 'example')}, {status}"))
    tables = sum(len(r.tables) for r in rulesets)
    profiles = sum(len(m.rows) for r in rulesets for m in r.profiles)
    examples = sum(len(r.examples) for r in rulesets)
    errors = len([d for d in diagnostics if d.severity.value == "error"])
    print(f"{plural(len(rulesets), 'ruleset')}, {plural(tables, 'table')}, {plural(profiles, 'profile')}, "
          f"{plural(examples, 'example')}, {plural(errors, 'error')}")
    return 1 if errors else 0

