"""Run worked examples with doctest (in a confined child process), reporting failures as located diagnostics."""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic
from ..model.ruleset import Ruleset
from .confined import run_confined
from .judge import OPTIONS, Collecting  # noqa: F401 - where examples were judged before


@dataclass(frozen=True)
class ExampleRun:
    ruleset: str
    total: int
    failures: tuple[Diagnostic, ...]


def run_examples(ruleset: Ruleset, root=None) -> ExampleRun:
    """Run every example of ``ruleset`` in a confined child process (see ``confined``), in order, each in a
    fresh copy of the namespace (doctest copies it). Failures, crashes and timeouts come back located."""
    if not ruleset.examples:
        return ExampleRun(ruleset.id, 0, ())
    outcome = run_confined(ruleset, root, examples=True)
    return ExampleRun(ruleset.id, len(ruleset.examples), outcome.mechanics + outcome.failures)


def run_examples_cached(ruleset: Ruleset, root, cache, others=()) -> ExampleRun:
    """``run_examples``, or what it gave last time if ``cache`` holds a passing run for the same files
    of the ruleset (its mechanics, its bases'; ``others`` are the project's rulesets) and the same
    generator. A failing run is not stored: an example that ran out of time on a busy machine runs again."""
    if cache is None:
        return run_examples(ruleset, root)
    slot, key = f"examples-{ruleset.id}", cache.ruleset_key(ruleset, others)
    stored = cache.get(slot, key)
    if isinstance(stored, int) and stored >= 0:
        return ExampleRun(ruleset.id, stored, ())
    run = run_examples(ruleset, root)
    if not run.failures:
        cache.put(slot, key, run.total)
    return run
