"""`rulepress build`: check, then write every output aside and swap it in only on success."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from .examples.run import run_examples
from .render.reference import codes_reference, format_reference
from .report import print_diagnostics
from .validate import check_project


CACHE_DIR = ".rulepress-cache"


def run_build(root: Path, args) -> int:
    out = (args.out or root / "build").resolve()
    result = check_project(root, args.ruleset)
    failures = [f for ruleset in result.project.rulesets for f in run_examples(ruleset).failures] if result.ok else []
    if not result.ok or failures:
        print_diagnostics(list(result.diagnostics) + failures)
        print(f"build failed: {len(result.diagnostics.errors) + len(failures)} errors; {out} is left as it was", file=sys.stderr)
        return 1
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=out.parent))
    try:
        write_outputs(result.project, staging, args)
        _swap(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(f"built {len(result.project.rulesets)} rulesets into {out}")
    return 0


def write_outputs(project, staging: Path, args) -> None:
    reference = staging / "reference"
    reference.mkdir(parents=True)
    (reference / "format.md").write_text(format_reference(), encoding="utf-8")
    (reference / "codes.md").write_text(codes_reference(), encoding="utf-8")
    if not args.only or "site" in args.only:
        build_site_outputs(project, staging, args)


def build_site_outputs(project, staging: Path, args) -> None:
    from .render.site.pages import build_site

    cache = staging.parent / CACHE_DIR  # beside the output folder, so tests building elsewhere keep theirs apart
    for audience in _audiences(args):
        name = "site" if audience == "player" else "site-gm"
        result = build_site(project, cache / name, cache / f"{name}-html", audience, only=args.ruleset or "")
        shutil.copytree(result.outdir, staging / name, ignore=shutil.ignore_patterns(".buildinfo", ".doctrees"))


def _audiences(args) -> list[str]:
    return [args.audience] if getattr(args, "audience", None) else ["player", "gm"]


def _swap(staging: Path, out: Path) -> None:
    """Replace ``out`` by ``staging`` with two renames, so a reader never sees half a build."""
    old = out.with_name(out.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    staging.rename(out)
    shutil.rmtree(old, ignore_errors=True)
