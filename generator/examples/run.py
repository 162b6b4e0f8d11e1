"""Run worked examples with doctest (in a confined child process), reporting failures as located diagnostics.

An overlay runs its base's examples again under its own values: an example its house values give another
result is no failure (it proves the text, as written) but a ``HouseResult``, which every output shows
beside the text's result instead of a checked mark. Examples run for every ruleset the project's errors do
not reach (``blocked``), so one check tells every failure there is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import wall
from ..check_cache import CheckCache, examples_slot, names_slot, rules_slot
from ..diagnostics import Code, Diagnostic
from ..model.ruleset import HouseResult, Ruleset
from .confined import Outcome, run_here, seconds_allowed
from .judge import OPTIONS, Collecting  # noqa: F401 - where examples were judged before
from .names import names_in
from .namespace import namespace_for
from .walled import asked_of, dump_house_results, host_for, load_house_results, loaded_by_examples


def run_confined(
    ruleset, root, *, examples: bool = True, names: bool = False, seconds: float | None = None, coverage: bool = False
) -> Outcome:
    """Load ``ruleset``'s mechanics, run its examples (``examples``) and list the names they can use
    (``names``), all in confined children, behind the operating-system wall when this run uses it (see
    ``wall``); what went wrong comes back as located diagnostics. With ``coverage`` the children also say
    where each entry the examples read was written (``model.reads``): claims about their own run."""
    seconds = seconds_allowed() if seconds is None else seconds
    if root is not None and wall.in_use():
        if not (examples or names or coverage):
            found = loaded_by_examples(Path(root), ruleset, seconds)
            if found is not None:
                return found
        run = {"examples": examples, "names": names, "seconds": seconds, "coverage": coverage}
        return asked_of(Path(root), ruleset, **run).run(ruleset, **run)
    return run_here(ruleset, root, examples=examples, names=names, seconds=seconds, coverage=coverage)


@dataclass(frozen=True)
class ExampleRun:
    ruleset: str
    total: int
    failures: tuple[Diagnostic, ...]
    changed: tuple[HouseResult, ...] = ()  # an overlay's: examples its house values give another result
    not_run: str = ""  # why its examples did not run: errors reach them
    unrun: int = 0  # examples never run, after one that used up the ruleset's time
    failed: int | None = None  # examples with a failure (a failure is a statement); None: one per failure

    @property
    def failed_examples(self) -> int:
        return len(self.failures) if self.failed is None else self.failed


def run_examples(ruleset: Ruleset, root=None) -> ExampleRun:
    """Run every example of ``ruleset`` in a confined child process (see ``confined``), in order, each in a
    fresh copy of the namespace (doctest copies it). Failures, crashes and timeouts come back located."""
    if not ruleset.examples:
        return ExampleRun(ruleset.id, 0, ())
    outcome = run_confined(ruleset, root, examples=True)
    failures = outcome.mechanics + outcome.failures
    return ExampleRun(
        ruleset.id,
        len(ruleset.examples),
        failures,
        outcome.changed,
        unrun=outcome.unrun,
        failed=failed_in(ruleset.examples, failures),
    )


def failed_in(examples, failures) -> int:
    """How many examples a failure is told in (two wrong results of one example are one example failed); a failure
    in none of them (its mechanics did not load) counts as one."""
    hit, outside = set(), False
    for failure in failures:
        where = failure.location
        found = [
            index
            for index, example in enumerate(examples)
            if example.path == where.path
            and example.line <= where.line < example.line + len(example.source.splitlines())
        ]
        hit.update(found[:1])
        outside = outside or not found
    return len(hit) + outside


def listed_names(ruleset, root=None, problems: list | None = None) -> list[tuple[str, str, str]]:
    """Every name a worked example of ``ruleset`` can use, as ``names.names_in`` rows. With a project ``root``
    the ruleset's own mechanics are part of it: they are loaded and looked at in a confined child process, and
    only the names come back. Mechanics that do not load leave their names out, the rest are listed all the
    same, and what went wrong is added to ``problems`` when given."""
    if root is None:
        return names_in(ruleset, namespace_for(ruleset, None))
    cache = CheckCache(root)  # the names of the same files (its folder, its bases', the generator) as last time
    slot, key = names_slot(ruleset.id), cache.ruleset_key(ruleset)
    stored = cache.get(slot, key)
    if isinstance(stored, list) and all(isinstance(row, list) and len(row) == 3 for row in stored):
        return [tuple(str(part) for part in row) for row in stored]
    outcome = run_confined(ruleset, root, examples=False, names=True)
    if problems is not None:
        problems.extend(outcome.mechanics)
    if outcome.names is None:  # without its own mechanics (they did not load) no rules code runs here: the engine's
        return names_in(ruleset, namespace_for(ruleset, None))  # names alone
    if not outcome.mechanics:  # mechanics that failed (perhaps only out of time) are loaded again next time
        cache.put(slot, key, [list(row) for row in outcome.names])
    return list(outcome.names)


def run_examples_cached(ruleset: Ruleset, root, cache, others=()) -> ExampleRun:
    """``run_examples``, or what it gave last time if ``cache`` holds a passing run for the same files
    of the ruleset (its mechanics, its bases'; ``others`` are the project's rulesets) and the same
    generator. A failing run is not stored: an example that ran out of time on a busy machine runs again."""
    if cache is None:
        return run_examples(ruleset, root)
    slot, key = examples_slot(ruleset.id), cache.ruleset_key(ruleset, others)
    stored = cache.get(slot, key)
    if isinstance(stored, dict) and type(stored.get("total")) is int and stored["total"] >= 0:
        changed = load_house_results(stored.get("changed"))
        if changed is not None:
            return ExampleRun(ruleset.id, stored["total"], (), changed)
    run = run_examples(ruleset, root)
    if not run.failures:
        cache.put(slot, key, {"total": run.total, "changed": dump_house_results(run.changed)})
    return run


def prefetch(project, cache, examples: bool = True, lanes: int = 1) -> None:
    """Ask the walled host now for every run this check is about to need (each ruleset's mechanics and examples
    that the check cache does not hold), so it runs them while the checks run here. What the checks then make
    unneeded (a ruleset they find errors in) is dropped at the end (``forget``). Only with the wall and a cache."""
    try:
        if cache is None or not wall.in_use():
            return
    except wall.WallMissing:
        return  # said where the wall is first needed
    seconds, wanted = seconds_allowed(), []
    running = {  # a run of examples loads the mechanics first: it tells what a run of the mechanics alone would
        ruleset.id
        for ruleset in (project.rulesets if examples else ())
        if ruleset.examples
        and cache.get(examples_slot(ruleset.id), cache.ruleset_key(ruleset, project.rulesets)) is None
    }
    for ruleset in project.rulesets:
        if ruleset.unreadable or (ruleset.meta.extends and ruleset.base is None and not ruleset.meta.overlay):
            continue  # not checked, its mechanics not loaded
        key = cache.ruleset_key(ruleset, project.rulesets)
        if ruleset.mechanics and not ruleset.meta.overlay and ruleset.id not in running:
            if cache.get(rules_slot(ruleset.id), key) is None:
                wanted.append((ruleset, False))
    wanted += [(ruleset, True) for ruleset in project.rulesets if ruleset.id in running]
    load = [0] * lanes  # examples asked of each lane's host so far: the next run goes to the least loaded
    for ruleset, examples in wanted:
        lane = load.index(min(load))
        load[lane] += len(ruleset.examples) if examples else 1
        host_for(project.root, lane).send(ruleset, examples=examples, names=False, seconds=seconds)


def run_project_examples(project, diagnostics, cache=None) -> list[ExampleRun]:
    """Every ruleset's examples, in the project's order, except where errors reach them: a ruleset whose
    files (or whose bases') have errors, or an overlay whose base's examples fail, runs none and says why."""
    why_not = blocked(project, diagnostics)
    runs: dict[str, ExampleRun] = {}

    def run(ruleset) -> ExampleRun:
        if ruleset.id in runs:
            return runs[ruleset.id]
        runs[ruleset.id] = ExampleRun(ruleset.id, len(ruleset.examples), ())  # a loop of bases ends here
        reason = why_not.get(ruleset.id, "")
        base = _known(project, ruleset.meta.extends) if ruleset.meta.overlay else None
        if not reason and base is not None and base.id != ruleset.id and run(base).failures:
            reason = f"its base `{base.id}` has failing examples"  # they would show here as house results
        if reason:
            found = ExampleRun(ruleset.id, len(ruleset.examples), (), not_run=reason)
        else:
            found = run_examples_cached(ruleset, project.root, cache, project.rulesets)
        runs[ruleset.id] = found
        return found

    return [run(ruleset) for ruleset in project.rulesets]


# Errors of the text players read, which change nothing an example runs on: its examples still run, so a wrong
# result is told beside the sentence that states the right one (the sentence alone was blamed, the example unrun).
READ_ONLY = frozenset(
    {Code.EXAMPLE_SENTENCE, Code.SOURCE_QUOTE, Code.SOURCE_SECTION, Code.QUOTE_SECTION, Code.SOURCE_FILE}
)


def blocked(project, diagnostics) -> dict[str, str]:
    """Ruleset id -> why its examples cannot run: an error in its folder, in a base's, or one that belongs
    to no ruleset (a project's templates are no ruleset's rules: their errors stop no example)."""
    folders: set[str] = set()
    everything = False
    known = {ruleset.id for ruleset in project.rulesets}
    for diagnostic in diagnostics:
        if diagnostic.severity.value != "error" or diagnostic.code in READ_ONLY:
            continue
        parts = str(diagnostic.location.path).replace("\\", "/").split("/")
        if parts[0] == "templates":
            continue
        if len(parts) >= 2 and parts[0] == "rules_src" and parts[1] in known:
            folders.add(parts[1])
        else:
            everything = True
    reasons = {}
    for ruleset in project.rulesets:
        if everything:
            reasons[ruleset.id] = "the project has errors"
            continue
        lineage = bases_of(project, ruleset)
        if ruleset.id in folders:
            reasons[ruleset.id] = "its rules have errors"
        elif any(base in folders for base in lineage):
            reasons[ruleset.id] = f"its base `{next(b for b in lineage if b in folders)}` has errors"
    return reasons


def bases_of(project, ruleset) -> list[str]:
    """The ids ``ruleset`` extends, nearest first, as ``extends:`` names them (a loop is followed once)."""
    found: list[str] = []
    current = ruleset
    while current is not None and current.meta.extends and current.meta.extends not in found + [ruleset.id]:
        found.append(current.meta.extends)
        current = _known(project, current.meta.extends)
    return found


def _known(project, id: str):
    return next((r for r in project.rulesets if r.id == id), None)
