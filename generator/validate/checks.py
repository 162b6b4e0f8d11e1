"""Every semantic check of a loaded ruleset, in the order they run. Each check yields located diagnostics.

The checks live by domain in the modules of ``validate/``; ``CHECKS`` below lists them all, so this is the one
place to add one. They all run, so a rules author sees every problem at once, each at the value at fault.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from ..diagnostics import Code, Diagnostic
from ..model.ruleset import Ruleset
from . import (
    armies,
    audience,
    computed,
    declared,
    doctests,
    glossary,
    links,
    profiles,
    prose,
    quickref,
    references,
    sources,
    tables,
)

Check = Callable[[Ruleset], Iterable[Diagnostic]]
CHECKS: dict[str, Check] = {}


def check(function: Check) -> Check:
    """Register ``function`` as the check named after it, without its `check_` prefix, after those already listed."""
    CHECKS[function.__name__.removeprefix("check_")] = function
    return function


for _function in (
    references.check_references,
    references.check_spells,
    tables.check_tables,
    declared.check_keywords,
    declared.check_declared_kinds,
    declared.check_declared_words,
    declared.check_version,
    sources.check_sources,
    armies.check_army_matrices,
    armies.check_upgrade_troops,
    armies.check_army_limits,
    armies.check_row_counts,
    profiles.check_play_aids,
    profiles.check_value_cells,
    armies.check_armies,
    glossary.check_glossary_terms,
    references.check_chapter_ids,
    references.check_empty_chapters,
    references.check_repeated_titles,
    links.check_prose_links,
    links.check_anchor_links,
    audience.check_gm_references,
    audience.check_audience,
    quickref.check_quick_reference,
    doctests.check_examples_assert,
    computed.check_formulas,
    computed.check_lookups,
    computed.check_charts,
    computed.check_sheets,
    computed.check_name_clashes,
    prose.check_prose_safety,
    prose.check_examples_stated,
    prose.check_example_sentences,
    prose.check_language,
):
    check(_function)


def run_checks(ruleset: Ruleset) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for name, function in CHECKS.items():
        found.extend(_bounded(name, function, ruleset))
    return found + _set_aside_problems(ruleset, found)


def _set_aside_problems(ruleset: Ruleset, found: list[Diagnostic]) -> list[Diagnostic]:
    """What is wrong inside the entries set aside as duplicates of an id (`Ruleset.set_aside`): the checks run
    again on the ruleset with each in the place of the entry that kept its id, and what they find within its lines
    that they did not find before is told, so both definitions are checked in the one run."""
    told = set(found)
    rounds: list[dict[tuple[str, str], object]] = []  # an id defined three times needs two
    for section, entry in ruleset.set_aside:
        for swapped in rounds:
            if (section, entry.id) not in swapped:
                break
        else:
            swapped = {}
            rounds.append(swapped)
        swapped[section, entry.id] = entry
    starts = [e.loc for _s, e in (*ruleset.all_entries(), *ruleset.set_aside) if getattr(e, "loc", None)]
    problems: list[Diagnostic] = []
    for swapped in rounds:
        sections = {section for section, _id in swapped}
        shadow = dataclasses.replace(
            ruleset,
            set_aside=(),
            **{name: tuple(swapped.get((name, e.id), e) for e in ruleset.section(name)) for name in sorted(sections)},
        )
        spans = [_span(entry.loc, starts) for entry in swapped.values() if getattr(entry, "loc", None)]
        for name, function in CHECKS.items():
            for diagnostic in _bounded(name, function, shadow):
                where = diagnostic.location
                if diagnostic not in told and any(
                    path == where.path and lo <= where.line < hi for path, lo, hi in spans
                ):
                    told.add(diagnostic)
                    problems.append(diagnostic)
    return problems


def _span(loc, starts) -> tuple[str, int, float]:
    """(file, first line, line after the last) of the entry written at ``loc``: up to the next entry in its file."""
    after = [s.line for s in starts if s.path == loc.path and s.line > loc.line]
    return loc.path, loc.line, min(after, default=float("inf"))


def _bounded(name: str, function: Check, ruleset: Ruleset) -> list[Diagnostic]:
    """What one check finds; one that runs out of memory or stack (some entry beyond every cap foreseen) is a
    located ``too-large`` error at the ruleset, after what it found before, never an internal error."""
    found: list[Diagnostic] = []
    try:
        for diagnostic in function(ruleset):
            found.append(diagnostic)
    except (MemoryError, RecursionError) as error:
        what = "memory" if isinstance(error, MemoryError) else "stack"
        found.append(
            Diagnostic(
                Code.TOO_LARGE,
                f"checking the {name.replace('_', ' ')} of `{ruleset.id}` ran out of {what}",
                ruleset.meta.loc,
                "look for an entry far larger than a rule needs",
            )
        )
    return found
