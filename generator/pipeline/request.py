"""What a build is asked for, and what `rulepress serve` plugs into it: typed values, made by the caller.

``cli`` makes a ``BuildRequest`` from the command line; ``serve`` makes its own and passes ``BuildHooks``
that keep its checks and Sphinx warm between saves. The pipeline reads nothing else.
"""

from __future__ import annotations

from collections.abc import Callable  # not typing: `rulepress check` imports this module and never typing
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class BuildRequest:
    """One `rulepress build` or `rulepress export` of the project at ``root``."""

    root: Path
    out: Path | None = None  # None: build/ (an export: build/export/, the rest of build/ kept)
    only: tuple[str, ...] = ()  # the outputs to build ("site", "sheets", "handouts"); empty: every one
    ruleset: str | None = None  # build only this ruleset's files; None: every ruleset's
    audience: str | None = None  # "player" or "gm"; None: both (a build), an export is given one
    jobs: int | None = None  # worker processes; None: one per core


@dataclass(frozen=True)
class BuildHooks:
    """What `rulepress serve` does its own way; each left None does what `rulepress build` does.

    * ``checker(root) -> (result, failures)``: instead of ``build.check_with_examples``.
    * ``site_builder(project, site_task) -> html folder``: builds each site in this process (Sphinx kept
      loaded) instead of in a fresh worker process.
    * ``index_later``: stage the site with the previous build's search index; ``search_index`` makes the new
      one after the page is served.
    """

    checker: Callable[[Path], tuple[object, list]] | None = None
    site_builder: Callable[[object, tuple], str] | None = None
    index_later: bool = False
