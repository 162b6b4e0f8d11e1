"""Load a project and run every check: the one entry point for `check` and `build`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..check_cache import CheckCache, dump_diagnostics, load_diagnostics, rules_slot, tree_digest
from ..diagnostics import Diagnostics
from ..examples.own_mechanics import literal_warnings
from ..examples.run import run_confined
from ..source.project import TEMPLATES_DIR, Project, load_project
from .checks import run_checks
from .memo import remembered, remembering


@dataclass(frozen=True)
class CheckResult:
    project: Project
    diagnostics: Diagnostics

    @property
    def ok(self) -> bool:
        return not self.diagnostics.errors


def check_ruleset(root: Path, ruleset) -> list:
    """Every check of one loaded ruleset, its own mechanics included."""
    return list(run_checks(ruleset)) + list(mechanics_problems(root, ruleset))


def check_project(
    root: Path,
    only: str | None = None,
    cache=None,
    checker=None,
    loaded=None,
    extra: dict | None = None,
    memo=None,
) -> CheckResult:
    """Load and check the project. With a ``CheckCache``, each ruleset whose files (and bases') and
    generator are unchanged gives back what it found last time instead of being checked again, and a
    ruleset checked again pays its costly checks only for items whose content changed (``memo``);
    ``checker(root, ruleset)`` checks one ruleset instead (serve passes one that remembers in memory); its
    costly checks use the project's memo all the same. ``loaded(project)`` is called before the checks run.
    ``extra``: files read already, loaded into a ruleset's (``load_project``); never with a cache. ``memo``: a
    long-lived process's ``LoadMemo`` (the check daemon's)."""
    project, diagnostics = load_project(root, only, extra, memo)
    if loaded is not None:
        loaded(project)
    with remembering(_memo_cache(project.root, cache, checker)):
        checked = []  # (ruleset, what its checks found): its mechanics are asked for once every ruleset is checked,
        # as they may come with its examples' run, which the walled host may still be busy with
        for ruleset in project.rulesets:
            if ruleset.meta.extends and ruleset.base is None and not ruleset.meta.overlay:
                continue  # its base is missing (reported at `extends:`): what it names there would cascade
            if ruleset.unreadable:
                continue  # a file (its own or its base's) did not read (reported): what names its entries would cascade
            if checker:
                diagnostics.extend(checker(project.root, ruleset))
                continue
            stored = _stored_problems(project, ruleset, cache)
            if stored is not None:
                diagnostics.extend(stored)
            else:
                checked.append((ruleset, list(run_checks(ruleset))))
        for ruleset, checks in checked:
            diagnostics.extend(checks + _mechanics_kept(project, ruleset, cache, checks))
        diagnostics.extend(_template_problems(project.root))
    # an overlay is checked with its base's entries, so a problem of the base would be told twice
    unique = Diagnostics(dict.fromkeys(diagnostics))
    return CheckResult(project, Diagnostics(unique.sorted()))


def _template_problems(root: Path) -> list:
    """What is wrong in the project's own templates, which are project files too. Jinja is loaded only
    for a project that has some, so checking rules alone loads no renderer."""
    if not any(name.endswith(".j2") for _folder, _dirs, files in os.walk(root / TEMPLATES_DIR) for name in files):
        return []

    def problems() -> list:
        from ..render.jinja import template_problems  # deferred: Jinja is a renderer's dependency

        return template_problems(root)

    # what it finds reads the project's templates alone (and the generator's own, which every memo key holds)
    key = lambda: f"{root}\0{tree_digest(root / TEMPLATES_DIR, root).hexdigest()}"  # noqa: E731
    return remembered("templates", key, problems, dump_diagnostics, _diagnostics_back)


def _diagnostics_back(rows) -> list:
    found = load_diagnostics(rows)
    if found is None:
        raise ValueError("not diagnostics")  # a corrupt entry: a miss
    return found


def _memo_cache(root: Path, cache, checker):
    """The check cache whose memo the costly checks use: the one given, else the project's own when a
    ``checker`` (serve's) checks the rulesets; none for a bare load-and-check (an export, a namespace)."""
    if cache is not None:
        return cache
    if checker is not None:
        return CheckCache(root)
    return None


def _stored_problems(project: Project, ruleset, cache) -> list | None:
    """What checking ``ruleset`` and loading its mechanics found last time, when the check cache holds it."""
    if cache is None:
        return None
    stored = cache.get(rules_slot(ruleset.id), cache.ruleset_key(ruleset, project.rulesets))
    return load_diagnostics(stored) if stored is not None else None


def _mechanics_kept(project: Project, ruleset, cache, checks: list) -> list:
    """What loading ``ruleset``'s mechanics finds; with nothing found there, ``checks`` are kept in the check cache
    with it (a mechanic that failed, perhaps only out of time, is loaded again next time)."""
    mechanics = mechanics_problems(project.root, ruleset)
    if cache is not None and not mechanics:
        cache.put(rules_slot(ruleset.id), cache.ruleset_key(ruleset, project.rulesets), dump_diagnostics(checks))
    return mechanics


def mechanics_problems(root: Path, ruleset) -> list:
    if not ruleset.mechanics or ruleset.meta.overlay:
        return []
    found = [d for shown in ruleset.mechanics for d in literal_warnings(Path(root) / shown, shown)]  # read, not run
    if not any(d.severity.value == "error" for d in found):
        found += run_confined(ruleset, root, examples=False).mechanics  # loaded only in a confined child
    return found
