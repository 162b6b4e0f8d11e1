"""Judging a worked example: what its statements gave, against the text, decided where its code cannot reach.

The confined child runs an example with ``Recording``, which keeps what each statement printed or raised and
decides nothing; ``judge`` compares that, in the process that parsed the example itself, with the text. A
mechanic that patches doctest, or an example that forges a verdict, changes nothing the judge reads.
"""

from __future__ import annotations

import doctest
import re
from dataclasses import dataclass
from fractions import Fraction

from ..diagnostics import did_you_mean
from ..model.formula import FUNCTIONS

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


class Collecting(doctest.DocTestRunner):
    def __init__(self, **kwargs):
        super().__init__(verbose=False, **kwargs)
        self.problems: list[tuple[doctest.Example, str]] = []

    def report_failure(self, out, test, example, got):
        self.problems.append((example, gave_text(example, got)))

    def report_unexpected_exception(self, out, test, example, exc_info):
        kind, value, _tb = exc_info
        close = _close_name(value, test.globs) if isinstance(value, NameError) else ""
        self.problems.append((example, raised_text(example, f"{kind.__name__}: {value}{close}")))


EXPECTS = ", the example expects "  # between what a statement gave and its expected result, in a failure's message


def gave_text(example: doctest.Example, got: str) -> str:
    want = example.want.strip() or "nothing"
    same = _same_number(got.strip(), want)
    return f"`{example.source.strip()}` gave {got.strip() or 'nothing'}{EXPECTS}{want}" + same


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?|Fraction\((-?\d+), (-?\d+)\)")


def _same_number(got: str, want: str) -> str:
    """``: the same number, ...`` where the text writes the number it gave in another way (`Fraction(14, 24)` for
    `Fraction(7, 12)`, `0.50` for `0.5`): doctest compares what Python prints, never values."""
    values = []
    for text in (got, want):
        match = _NUMBER.fullmatch(text.replace(" ", "").replace(",", ", "))
        if match is None:
            return ""
        try:
            values.append(Fraction(int(match[1]), int(match[2])) if match[1] else Fraction(text))
        except (ValueError, ZeroDivisionError):
            return ""
    return f": the same number, which Python prints as {got}: write that" if values[0] == values[1] else ""


def raised_text(example: doctest.Example, raised: str) -> str:
    return f"`{example.source.strip()}` raised {raised}"


class _Recorder(doctest.OutputChecker):
    """Passes everything, keeping what each statement gave: the judgement is made elsewhere."""

    def __init__(self, events: list):
        self.events = events

    def check_output(self, want, got, optionflags):
        self.events.append(["gave", got, want])  # want: which text doctest compared, the result or the exception
        return True


class Recording(doctest.DocTestRunner):
    """Runs an example's statements and keeps, for each one run, what it printed (``gave``) or the
    exception it raised (``raised``), in order. It decides nothing: ``judge`` does, in a process the
    example's code cannot reach, against the text it parsed itself."""

    def __init__(self, **kwargs):
        self.events: list[list] = []
        super().__init__(checker=_Recorder(self.events), verbose=False, **kwargs)

    def report_unexpected_exception(self, out, test, example, exc_info):
        kind, value, trace = exc_info
        close = _close_name(value, test.globs) if isinstance(value, NameError) else ""
        told = f"{kind.__name__}: {value}" if str(value) else kind.__name__
        if isinstance(value, MemoryError):
            told += " (more memory than a ruleset's examples may take: RULEPRESS_EXAMPLE_MEMORY_MB)"
        self.events.append(["raised", f"{told}{close}{where_in_the_rules(trace)}"])


def _close_name(error: NameError, names) -> str:
    """``; did you mean `cast_chance`?``: the name an example may use that one it misspelt is closest to. A function
    of the formula language (``chance``) is no example's name: what it says instead is how an example gets there."""
    missing = getattr(error, "name", "") or ""
    if missing in FUNCTIONS:
        instead = (
            'a roll table\'s chance of a result is `rules.table("id").chance("Result")`, and a formula\'s answer is '
            "its id called (`formula_id(input=3)`)"
            if missing.startswith("chance")
            else "call a formula whose `expr:` uses it, by its id (`formula_id(input=3)`)"
        )
        return f"; `{missing}(...)` is a function of formulas' `expr:`, not a name worked examples have: {instead}"
    usable = [name for name in names if isinstance(name, str) and not name.startswith("_")]
    close = did_you_mean(missing, usable)
    return f"; {close}" if close else ""


def where_in_the_rules(trace) -> str:
    """`` (rules_src/x/mechanics.py:6)``: the last line of a ruleset's own mechanics an exception came through (they
    are compiled under their path in the project), so an example that fails inside them says where."""
    found = ""
    while trace is not None:
        code = trace.tb_frame.f_code
        if code.co_filename.startswith("rules_src/"):
            found = f" ({code.co_filename}:{trace.tb_lineno})"
        trace = trace.tb_next
    return found


def statements(source: str, name: str = "example") -> list[doctest.Example]:
    return doctest.DocTestParser().get_examples(source, name)


@dataclass(frozen=True)
class Mismatch:
    """A statement whose recorded event does not match its text: where it is, what the text says, what it gave."""

    line: int
    indent: int
    problem: str  # the failure, in words
    want: str  # the text's result
    got: str | None  # what it printed instead; None when it raised


def judge(source: str, events) -> list[tuple[int, int, str]] | None:
    """(line, indent, problem) for each statement of the example ``source`` whose recorded event does not
    match its text; None when ``events`` are not one well-formed event per statement run."""
    found = mismatches(source, events)
    return None if found is None else [(m.line, m.indent, m.problem) for m in found]


def mismatches(source: str, events) -> list[Mismatch] | None:
    """``judge``, keeping each mismatch's own result beside the text's (an overlay shows both)."""
    checker = doctest.OutputChecker()
    run = []
    for example in statements(source):
        flags = OPTIONS
        for flag, on in example.options.items():
            flags = flags | flag if on else flags & ~flag
        if not flags & doctest.SKIP:
            run.append((example, flags))
    if not isinstance(events, list) or len(events) != len(run):
        return None
    problems = []
    for (example, flags), event in zip(run, events):
        if not (
            isinstance(event, list)
            and len(event) in (2, 3)
            and event[0] in ("gave", "raised")
            and all(isinstance(part, str) for part in event[1:])
        ):
            return None
        kind, text, compared = (*event, "")[:3]
        stated = (example.exc_msg or example.want).strip()
        if kind == "raised":
            problems.append(Mismatch(example.lineno, example.indent, raised_text(example, text), stated, None))
            continue
        raised = example.exc_msg is not None and compared == example.exc_msg  # it raised the kind the text expects
        want = example.exc_msg if raised else example.want
        if not checker.check_output(want, text, flags):
            problems.append(Mismatch(example.lineno, example.indent, gave_text(example, text), stated, text.strip()))
    return problems
