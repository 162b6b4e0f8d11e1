"""Pagefind's index of a copy of the build, swapped in after the page: how `rulepress serve` shows a save
at once and its search a moment later, without a reader ever seeing half an index."""

from __future__ import annotations

import shutil
from pathlib import Path

from ..render.site.search import INDEX_DIR, index_site
from .guard import BuildLocked, build_lock
from .staging import link_or_copy, new_staging, swap


def copy_for_index(out: Path, name: str = "site") -> Path | None:
    """A copy of the build ``out`` (hard links) without site ``name``'s search index, for ``index_copy``;
    None when ``out`` has no such site. The caller makes sure no build swaps ``out`` meanwhile."""
    if not (out / name / "index.html").is_file():
        return None
    staging = new_staging(out)
    try:
        shutil.copytree(
            out,
            staging,
            dirs_exist_ok=True,
            copy_function=link_or_copy,
            ignore=lambda folder, _names: [INDEX_DIR] if Path(folder) == out / name else [],
        )
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def index_copy(staging: Path, name: str = "site") -> None:
    """Pagefind's index of the copy's site, written into the copy alone (the build it was copied from is
    never half-indexed); the copy is removed when Pagefind fails."""
    try:
        index_site(staging / name)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def swap_index(staging: Path, out: Path) -> None:
    """Swap in what ``index_copy`` made, locked like a build; a build holding the lock wins (the copy is dropped)."""
    try:
        with build_lock(out):
            swap(staging, out)
    except BuildLocked:
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
