"""Run worked examples with doctest, reporting failures as located diagnostics."""

from __future__ import annotations

import doctest
import io
from dataclasses import dataclass

from ..diagnostics import Code, Diagnostic, Location
from ..model.ruleset import Example, Ruleset
from .namespace import namespace_for
from .own_mechanics import MechanicsError

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass(frozen=True)
class ExampleRun:
    ruleset: str
    total: int
    failures: tuple[Diagnostic, ...]


def run_examples(ruleset: Ruleset, root=None) -> ExampleRun:
    """Run every example of ``ruleset``; the examples of one entry share a namespace, in order."""
    failures: list[Diagnostic] = []
    parser = doctest.DocTestParser()
    try:
        fresh = namespace_for(ruleset, root)
    except MechanicsError as error:
        return ExampleRun(ruleset.id, len(ruleset.examples), (error.diagnostic,))
    shared: dict[str, dict] = {}
    for example in ruleset.examples:
        globs = shared.setdefault(example.entry, dict(fresh))
        test = parser.get_doctest(example.source, globs, example.entry, example.path, example.line - 1)
        runner = _Collecting(optionflags=OPTIONS)
        runner.run(test, out=io.StringIO().write, clear_globs=False)
        for failed, message in runner.problems:
            where = Location(example.path, example.line + failed.lineno, example.indent + failed.indent + 1)
            failures.append(Diagnostic(Code.EXAMPLE_FAILED, f"{example.entry}: {message}", where))
    return ExampleRun(ruleset.id, len(ruleset.examples), tuple(failures))


class _Collecting(doctest.DocTestRunner):
    def __init__(self, **kwargs):
        super().__init__(verbose=False, **kwargs)
        self.problems: list[tuple[doctest.Example, str]] = []

    def report_failure(self, out, test, example, got):
        want = example.want.strip() or "nothing"
        self.problems.append((example, f"`{example.source.strip()}` gave {got.strip() or 'nothing'}, the text says {want}"))

    def report_unexpected_exception(self, out, test, example, exc_info):
        kind, value, _tb = exc_info
        self.problems.append((example, f"`{example.source.strip()}` raised {kind.__name__}: {value}"))
