"""`rulepress build` and `rulepress export`: the project checked, then written into a staging folder and
swapped in whole, locked against a second build into the same folder; what went wrong is one message and
an exit status, and the previous build is left as it was."""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from ..check_cache import CheckCache
from ..diagnostics import printable
from ..examples.run import run_project_examples
from ..examples.walled import prestart
from ..exit import INTERNAL, INTERRUPTED
from ..pool import RenderFailed
from ..render.export import export as export_json
from ..render.export import is_export
from ..render.jinja import TemplateFailed
from ..render.pdf import RenderRefused
from ..render.site.pages import SiteFailed, SiteWarnings
from ..render.site.search import SearchIndexError
from ..report import os_error_text, plural, print_diagnostics
from ..validate import check_project
from .guard import BuildLocked, OutRefused, build_lock, check_out, writable
from .plan import Builder
from .request import BuildHooks, BuildRequest
from .staging import MANIFEST, clean_stale, link_or_copy, new_staging, read_manifest, swap, write_manifest


def kept(out: Path) -> str:
    """What a build that stopped says of its output folder: left as it was, or never made (a first build)."""
    return f"{out} is left as it was" if out.exists() else f"nothing is written to {out}"


def run_build(request: BuildRequest, hooks: BuildHooks = BuildHooks()) -> int:
    return _locked(request, lambda request, out, started: _build(request, hooks, out, started))


def run_export(request: BuildRequest) -> int:
    """`rulepress export`: into ``build/export/`` (the rest of ``build/`` kept) or into ``--out``,
    locked, staged and swapped in like a build, so neither a build nor a failure loses it."""
    return _locked(request, _export)


def _locked(request: BuildRequest, work) -> int:
    """``work(request, out, started)`` with the output folder checked and locked, and what a killed build left
    beside it cleaned away; a refusal, a lock held elsewhere, Ctrl-C or a file system error is one line."""
    root = request.root
    default = root / "build"
    out = (request.out or default).resolve()
    try:
        check_out(root, out, default)
    except OutRefused as refused:
        print(printable(f"rulepress: error: {refused}"), file=sys.stderr)
        return 2
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None and not epoch.strip():
        del os.environ["SOURCE_DATE_EPOCH"]  # empty means unset (Sphinx would fail on it); workers inherit this
    elif epoch is not None and not epoch.strip().isdigit():
        print(
            printable(f"rulepress: error: SOURCE_DATE_EPOCH={epoch!r} is not a number of seconds since 1970"),
            file=sys.stderr,
        )
        return 2
    if out.is_dir() and not writable(out):
        print(
            printable(f"rulepress: error: {out} is read-only; it is left as it was (make it writable, or pass --out)"),
            file=sys.stderr,
        )
        return 1
    started = time.perf_counter()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with build_lock(out):
            clean_stale(out)
            try:
                return work(request, out, started)
            except KeyboardInterrupt:
                clean_stale(out)  # a worker stopped mid-write may have written into staging after it was removed
                raise
    except BuildLocked as locked:
        print(printable(f"rulepress: {locked}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(printable(f"rulepress: interrupted; {kept(out)}"), file=sys.stderr, flush=True)
        return INTERRUPTED
    except OSError as error:  # a read-only or full disk, a folder that vanished: one line, build/ as it was
        print(
            printable(f"rulepress: error: cannot write the build: {os_error_text(error)}; {kept(out)}"),
            file=sys.stderr,
        )
        return 1


def _build(request: BuildRequest, hooks: BuildHooks, out: Path, started: float) -> int:
    result, failures = (hooks.checker or check_with_examples)(request.root)
    if not result.ok or failures:
        print_diagnostics(list(result.diagnostics) + failures)
        print(
            printable(f"build failed: {plural(len(result.diagnostics.errors) + len(failures), 'error')}; {kept(out)}"),
            file=sys.stderr,
        )
        return 1
    print_diagnostics(result.diagnostics.sorted())  # its warnings, as `check` prints them: a build alone says them too
    project = result.project
    old = read_manifest(out)
    staging = new_staging(out)
    builder = Builder(project, out, staging, old, request, hooks)
    try:
        builder.run()
        write_manifest(staging, builder.manifest)
        swap(staging, out)
    except RenderRefused as refused:
        print_diagnostics(refused.diagnostics)
        told = plural(len(refused.diagnostics), "error")
        print(printable(f"build failed: {told}; {kept(out)}"), file=sys.stderr)
        return 1
    except TemplateFailed as failed:
        print_diagnostics(failed.diagnostics)
        print(
            printable(f"build failed: {plural(len(failed.diagnostics), 'template error')}; {kept(out)}"),
            file=sys.stderr,
        )
        return 1
    except SearchIndexError as failed:
        print(printable(f"error: {failed}"), file=sys.stderr)
        print(printable(f"build failed: no search index; {kept(out)}"), file=sys.stderr)
        return 1
    except SiteWarnings as warned:
        print(printable(str(warned)), file=sys.stderr)
        print(printable(f"build failed: the site build warned; {kept(out)}"), file=sys.stderr)
        return 1
    except RenderFailed as failed:
        print(printable(f"error: {failed}"), file=sys.stderr)
        print(printable(f"build failed: a render did not finish; {kept(out)}"), file=sys.stderr)
        return 1
    except SiteFailed as failed:  # not the rules' fault: the status of an internal error, and a way to report it
        print(
            printable(f"rulepress: internal error: {failed} (please report this with the command you ran)"),
            file=sys.stderr,
        )
        print(printable(f"build failed: the site build stopped; {kept(out)}"), file=sys.stderr)
        return INTERNAL
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(
        printable(
            f"built {plural(1 if request.ruleset else len(project.rulesets), 'ruleset')} into {out} in "
            f"{time.perf_counter() - started:.1f}s — "
            f"{builder.summary.line()}"
        )
    )
    for note in builder.summary.notes():
        print(printable(note))
    return 0


def check_with_examples(root: Path):
    """Every check, then every worked example the errors found do not reach: (result, failures), each
    ruleset's from the check cache when nothing it reads changed; the result's project carries what the
    overlays' examples give under their house values. `rulepress serve` passes its own checker, which
    remembers what it checked in memory."""
    cache = CheckCache(root)  # the project is loaded whole; what an unchanged ruleset found is reused
    result = check_project(root, cache=cache, loaded=prestart)
    runs = run_project_examples(result.project, result.diagnostics, cache)
    project = result.project.with_house_results({run.ruleset: run.changed for run in runs})
    return dataclasses.replace(result, project=project), [f for run in runs for f in run.failures]


def _export_folder(out: Path):
    """copytree's ``ignore`` leaving out ``out``'s export/, which an export writes whole: another audience's files
    or a ruleset since removed would otherwise stay beside this export's."""
    return lambda folder, names: ["export"] if Path(folder) == out and "export" in names else []


def _export(request: BuildRequest, out: Path, started: float) -> int:
    if request.out is not None and out.is_dir() and any(out.iterdir()) and not is_export(out):
        # a build's folder: an export writes its folder whole, and would leave that build no more
        print(
            printable(
                f"rulepress: error: --out {out} holds a build; an export replaces its folder whole: name a new or "
                "empty folder, or one an export wrote (an export of the project's build/ goes to build/export/, "
                "without --out)"
            ),
            file=sys.stderr,
        )
        return 2
    result, failures = check_with_examples(request.root)  # the examples too: an overlay's say what its values change
    if not result.ok or failures:
        print_diagnostics(list(result.diagnostics) + failures)
        errors = len(result.diagnostics.errors) + len(failures)
        print(printable(f"export failed: {plural(errors, 'error')}; {kept(out)}"), file=sys.stderr)
        return 1
    into_build = request.out is None  # build/export/, the rest of build/ kept; else the files at the top of --out
    staging = new_staging(out)
    try:
        if into_build and out.is_dir():  # the rest of the build kept; export/ holds this export's files alone
            shutil.copytree(out, staging, dirs_exist_ok=True, copy_function=link_or_copy, ignore=_export_folder(out))
        folder = staging / "export" if into_build else staging
        fresh = Path(tempfile.mkdtemp(prefix=".export-", dir=staging))
        written = export_json(result.project, fresh, request.audience)
        folder.mkdir(exist_ok=True)  # in the staging folder, made above
        for path in written:  # a rename, never a write through a hard link to the previous build
            os.replace(path, folder / path.name)
        fresh.rmdir()
        if into_build and not (staging / MANIFEST).is_file():  # build/ a first build will read
            (staging / MANIFEST).write_text("{}", encoding="utf-8")
        swap(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for path in written:
        print(printable(f"wrote {(out / 'export' if into_build else out) / path.name}"))
    return 0
