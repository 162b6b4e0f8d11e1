"""`rulepress check`: diagnostics first, then a one-line summary per run.

Imports stay light here: a check whose project and generator are unchanged prints back what the
check cache holds (``check_cache``) without loading the model, the checks or the examples."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from .check_cache import CheckCache, output_slot
from .daemon import client as daemon
from .diagnostics import Code, Diagnostic, Diagnostics, plural, printable


def one_line(error: BaseException) -> str:
    """An error's text on one line, cut at 300 characters."""
    text = " ".join(str(error).split())
    return text if len(text) <= 300 else text[:299] + "…"


def os_error_text(error: OSError) -> str:
    """``cannot write build/x: No space left on device``: the file and the cause, in one line."""
    cause = error.strerror or one_line(error) or type(error).__name__
    name = error.filename
    if name is None:
        return cause
    return f"{cause}: {name}" + (f" -> {error.filename2}" if error.filename2 else "")


def print_diagnostics(diagnostics: list[Diagnostic], stream=None) -> None:
    stream = stream or sys.stderr
    for diagnostic in diagnostics:
        print(diagnostic.format(), file=stream)


def run_check(root: Path, only: str | None = None, run_examples: bool = True, everything: bool = False) -> int:
    """Check the project; ``everything`` (``check --all``) trusts no cached result and runs every example."""
    cache = CheckCache(root, reading=not everything)
    slot, key = output_slot(only, run_examples), cache.project_key(only, run_examples)
    stored = cache.get(slot, key)
    if _replayed(stored):
        return stored["status"]
    warm = None if everything else daemon.checked(root, only, run_examples, key)
    if warm is not None:  # a daemon of this project and generator checked these very files
        _print(warm[0], warm[1])
        return warm[2]
    errors, out = io.StringIO(), io.StringIO()
    status, settled = _check(root, only, run_examples, cache, errors, out)
    _print(errors.getvalue(), out.getvalue())
    if settled:
        cache.put(slot, key, {"stderr": errors.getvalue(), "stdout": out.getvalue(), "status": status})
    return status


def project_key(root: Path, only: str | None, run_examples: bool) -> str:
    return CheckCache(root).project_key(only, run_examples)


def check_into(root: Path, only: str | None, run_examples: bool, memo, lanes: int = 2, cache=None) -> dict:
    """A check as `run_check` makes it (cache read and filled the same way), for the check daemon: what it prints
    (``stderr``, ``stdout``), its ``status`` and the ``key`` of the files it checked. ``memo``: the daemon's
    ``LoadMemo``, so folders that did not change are not loaded again; ``lanes``: walled hosts kept busy at once
    (a daemon keeps two: it pays for starting the second once, not on every check); ``cache``: the daemon's
    ``WarmCache`` (else the project's check cache, read from and written to the disk)."""
    cache = cache or CheckCache(root)
    slot, key = output_slot(only, run_examples), cache.project_key(only, run_examples)
    stored = cache.get(slot, key)
    if _valid(stored):
        return {**stored, "key": key}
    errors, out = io.StringIO(), io.StringIO()
    status, settled = _check(root, only, run_examples, cache, errors, out, memo, lanes)
    found = {"stderr": errors.getvalue(), "stdout": out.getvalue(), "status": status}
    if settled:
        cache.put(slot, key, found)
    return {**found, "key": key}


def _valid(stored) -> bool:
    return (
        isinstance(stored, dict)
        and isinstance(stored.get("stderr"), str)
        and isinstance(stored.get("stdout"), str)
        and type(stored.get("status")) is int
        and stored["status"] in (0, 1)
    )


def _replayed(stored) -> bool:
    if not _valid(stored):
        return False
    _print(stored["stderr"], stored["stdout"])
    return True


def _print(errors: str, out: str) -> None:
    sys.stderr.write(errors)
    sys.stderr.flush()
    sys.stdout.write(out)
    sys.stdout.flush()


def _check(root: Path, only, run_examples: bool, cache, errors, out, memo=None, lanes: int = 1) -> tuple[int, bool]:
    """Check into ``errors`` and ``out``: the exit status, and whether the result depends only on the
    files (nothing failed that might pass on a less busy machine), so it may be stored. Examples run
    wherever the errors found do not reach, and the summary says where they did not run and why."""
    # deferred: a check the cache answers never loads the checks, nor the examples' runner
    from .examples.run import prefetch, run_project_examples
    from .examples.walled import forget, load_ahead, prestart  # deferred: likewise
    from .validate import check_project  # deferred: likewise
    from .validate.prose import settle_example_sentences  # deferred: likewise

    def loaded(project) -> None:  # the walled host starts, and starts on the runs, while the checks run here
        prestart(project)
        prefetch(project, cache, run_examples, lanes)

    try:
        load_ahead(root)
        result = check_project(root, only, cache, loaded=loaded, memo=memo)
        diagnostics = list(result.diagnostics)
        runs, rulesets = [], result.project.rulesets
        if run_examples:
            runs = run_project_examples(result.project, diagnostics, cache)
            for run in runs:
                diagnostics.extend(run.failures)
            diagnostics = settle_example_sentences(result.project, diagnostics)
        if only is None and not any(d.severity.value == "error" for d in diagnostics):
            diagnostics += _dead_pdf_links(result.project)  # needs the whole project, as the build makes it
    finally:
        forget(root)
    print_diagnostics(Diagnostics(diagnostics).sorted(), errors)  # the examples' failures among the rest, by line
    unknown = {r.id for r in rulesets if r.unreadable}  # a file that does not read may hold examples
    for run in runs:
        if run.total or not run.not_run or run.ruleset in unknown:  # one with no examples has none that did not run
            print(printable(run_line(run)), file=out)
    for ruleset in rulesets:
        if ruleset.unreadable:
            print(printable(unchecked_line(ruleset.id, ruleset.unreadable)), file=out)
    tables = sum(len(r.tables) for r in rulesets)
    # every row written, those with an error in a cell too (left out of their matrix, kept for the checks)
    profiles = sum(len(m.rows) for r in rulesets for m in r.profiles) + sum(len(r.rows_with_errors) for r in rulesets)
    examples = sum(len(r.examples) for r in rulesets)
    error_count = len([d for d in diagnostics if d.severity.value == "error"])
    print(
        f"{plural(len(rulesets), 'ruleset')}, {plural(tables, 'table')}, {plural(profiles, 'profile row')}, "
        f"{plural(examples, 'example')}, {plural(error_count, 'error')}",
        file=out,
    )
    settled = not any(run.failures for run in runs) and _mechanics_settled(result)
    return (1 if error_count else 0), settled


def _dead_pdf_links(project) -> list[Diagnostic]:
    """Each `{pdf}` link to a PDF the build does not make, told as the build tells it. Only a project whose text
    links a PDF pays for the printouts' names (what each printout holds decides whether it is made)."""
    from .validate.links import pdf_links  # deferred: likewise

    if not any(True for ruleset in project.rulesets for _link in pdf_links(ruleset)):
        return []
    from .pipeline.printout_links import dead_pdf_links  # deferred: the printouts' jobs, and Jinja with them

    return dead_pdf_links(project)


def unchecked_line(ruleset: str, unreadable: tuple[str, ...]) -> str:
    """What ``check`` did not check of a ruleset with a file that does not read (its YAML syntax, mostly): only each
    file's own fields are, as the rest would take every entry of that file for missing: the summary says so, so
    that the errors told are not taken for all there are."""
    files = ", ".join(unreadable[:-1]) + (" and " if len(unreadable) > 1 else "") + unreadable[-1]
    one = len(unreadable) == 1
    return (
        f"{ruleset}: references, tables, profile matrices, armies, sheets and the sentences before worked examples "
        f"were not checked, as {files} {'does' if one else 'do'} not read: fix {'its' if one else 'their'} errors "
        "above, then check again"
    )


def run_line(run) -> str:
    """One ruleset's examples in the summary: ``game: 3 examples, all pass``; ``house: 25 examples, 23 pass,
    2 give other results under its house values (rules.x, rules.y)``; ``game: 3 examples not run: why``;
    ``core: no worked examples``."""
    if run.not_run:
        return f"{run.ruleset}: {plural(run.total, 'example') if run.total else 'examples'} not run: {run.not_run}"
    if not run.total and not run.failures:
        return f"{run.ruleset}: no worked examples"
    head = f"{run.ruleset}: {plural(run.total, 'example')}, "
    unrun = f", {run.unrun} not run" if run.unrun else ""
    if not run.changed:
        return head + ("all pass" if not run.failures else f"{run.failed_examples} failed{unrun}")
    entries = ", ".join(dict.fromkeys(change.entry for change in run.changed))
    failed = f", {run.failed_examples} failed{unrun}" if run.failures else ""
    passing = max(0, run.total - len(run.changed) - run.failed_examples - run.unrun)
    return (
        f"{head}{passing} pass{failed}, {len(run.changed)} give{'s' if len(run.changed) == 1 else ''} "
        f"another result under its house values ({entries})"
    )


def _mechanics_settled(result) -> bool:
    """No diagnostic came from loading a ruleset's mechanics (a child that may have run out of time)."""
    return not any(d.code in (Code.MECHANIC_ERROR, Code.EXAMPLE_FAILED) for d in result.diagnostics)


def run_coverage(root: Path, only: str | None = None) -> int:
    """`rulepress coverage`: run every ruleset's examples, recording what they read, and list per ruleset each
    entry none exercised (``examples.coverage``). 0 when every entry is exercised or excused, 1 otherwise."""
    from .examples.coverage import measure, report_lines, summary_line  # deferred: likewise
    from .examples.run import run_confined  # deferred: `rulepress check` never loads the examples' runner
    from .examples.walled import prestart  # deferred: likewise
    from .validate import check_project  # deferred: nor the checks, when its cache answers

    result = check_project(root, loaded=prestart)
    if not result.ok:
        print_diagnostics(list(result.diagnostics.errors))
        print("coverage: the rules have errors; fix them (rulepress check) before measuring", file=sys.stderr)
        return 1
    reads: set = set()
    failures = []
    for ruleset in result.project.rulesets:
        if ruleset.examples and not ruleset.meta.overlay:
            outcome = run_confined(ruleset, result.project.root, examples=True, coverage=True)
            reads |= outcome.reads
            failures += list(outcome.mechanics + outcome.failures)
    print_diagnostics(failures)
    measured = [
        measure(r, reads) for r in result.project.rulesets if not r.meta.overlay and (only is None or r.id == only)
    ]
    for coverage in measured:
        for line in report_lines(coverage):
            print(printable(line))
    for coverage in measured:
        print(printable(summary_line(coverage)))
    skipped = [r.id for r in result.project.rulesets if r.meta.overlay and (only is None or r.id == only)]
    for ruleset_id in skipped:
        print(printable(f"{ruleset_id}: an overlay, not measured (its examples are its base's, measured there)"))
    return 1 if failures or any(c.missed or c.needlessly_excused for c in measured) else 0


def run_names(root: Path, ruleset_id: str) -> int:
    """`rulepress names RULESET`: the names its worked examples can use, as Markdown, even while `check` fails."""
    from .render.reference import names_reference  # deferred: `rulepress check` never loads the model
    from .source.project import load_project  # deferred: likewise

    project, diagnostics = load_project(root, ruleset_id)
    ruleset = next((r for r in project.rulesets if r.id == ruleset_id), None)
    if ruleset is None:
        print_diagnostics(list(diagnostics.errors))
        return 1
    problems: list = []
    text = names_reference(ruleset, project.root, problems=problems)
    print_diagnostics(problems)
    sys.stdout.write(text)
    return 0
