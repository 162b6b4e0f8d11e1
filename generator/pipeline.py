"""`rulepress build`: check, render what changed, swap the new build in only on success.

* **Locked**: one build at a time per output folder (``flock``); a second says so and exits.
* **Atomic**: everything is written to a staging folder beside ``build/`` and swapped in
  by two renames once all of it succeeded; a failure leaves the previous build as it was.
* **Incremental**: every PDF is keyed by a hash of its HTML, the stylesheets and
  assets it uses (the project's own, else the package defaults) and the generator's
  code; an unchanged key reuses the previous file (a hard link), so a no-change build
  renders nothing. The site is keyed likewise as a whole and, when
  it changed, rebuilt by Sphinx's own incremental build.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .examples.run import run_examples
from .render.assets import asset_names, template_path
from .render.pdf import PdfJob, ResourceOutside, worker_render
from .render.reference import codes_reference, format_reference, names_reference
from .render.site.pages import SiteWarnings
from .report import plural, print_diagnostics
from .validate import check_project

CACHE_DIR = ".rulepress-cache"
MANIFEST = ".manifest.json"
OUTPUTS = ("site", "sheets", "handouts")


class BuildLocked(Exception):
    pass


@dataclass
class Summary:
    written: dict[str, int] = field(default_factory=dict)
    reused: dict[str, int] = field(default_factory=dict)
    rendering: float = 0.0  # seconds in the worker pool (sites and PDFs together)

    def line(self) -> str:
        parts = [f"{kind}: {self.written.get(kind, 0)} written, {self.reused.get(kind, 0)} unchanged"
                 for kind in OUTPUTS if kind in self.written or kind in self.reused]
        return "; ".join(parts) + (f" (rendering {self.rendering:.1f}s)" if self.rendering else "")


@contextmanager
def build_lock(out: Path):
    """Hold an exclusive lock for builds into ``out``; raise BuildLocked if another build has it."""
    lock_dir = out.parent / CACHE_DIR
    lock_dir.mkdir(parents=True, exist_ok=True)
    path = lock_dir / f"{out.name}.lock" if out.name != "build" else lock_dir / "build.lock"
    with open(path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            owner = handle.read().strip() or "another process"
            raise BuildLocked(f"another rulepress build is writing {out} (pid {owner}); try again when it has finished") from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)


def code_hash() -> str:
    """The generator's version and code: any change re-renders."""
    from .render.site.pages import code_hash as generator_hash

    return f"{__version__}-{generator_hash()}"


def job_key(job: PdfJob, code: str, root: Path) -> str:
    digest = hashlib.sha256(code.encode())
    digest.update(job.html.encode("utf-8"))
    for sheet in job.stylesheets:
        digest.update(Path(sheet).read_bytes())
    for name in asset_names(root):  # images and stylesheets the HTML links: the project's, else the defaults
        digest.update(name.encode())
        digest.update(template_path(root, name).read_bytes())
    return digest.hexdigest()


def run_build(root: Path, args) -> int:
    out = (args.out or root / "build").resolve()
    started = time.perf_counter()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with build_lock(out):
            return _build(root, out, args, started)
    except BuildLocked as locked:
        print(f"rulepress: {locked}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"rulepress: interrupted; {out} is left as it was", file=sys.stderr, flush=True)
        return 130
    except OSError as error:  # a read-only or full disk: the staging folder is gone, build/ untouched
        from .cli import os_error_text

        print(f"rulepress: error: cannot write the build: {os_error_text(error)}; {out} is left as it was", file=sys.stderr)
        return 1


def _build(root: Path, out: Path, args, started: float) -> int:
    result = check_project(root)
    failures = [f for ruleset in result.project.rulesets for f in run_examples(ruleset, result.project.root).failures] if result.ok else []
    if not result.ok or failures:
        print_diagnostics(list(result.diagnostics) + failures)
        print(f"build failed: {plural(len(result.diagnostics.errors) + len(failures), 'error')}; {out} is left as it was",
              file=sys.stderr)
        return 1
    project = result.project
    old = _read_manifest(out)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=out.parent))
    builder = _Builder(project, out, staging, old, args)
    try:
        builder.run()
        (staging / MANIFEST).write_text(json.dumps(builder.manifest, indent=1, sort_keys=True), encoding="utf-8")
        _swap(staging, out)
    except ResourceOutside as refused:
        print_diagnostics(refused.diagnostics)
        print(f"build failed; {out} is left as it was", file=sys.stderr)
        return 1
    except SiteWarnings as warned:
        from .diagnostics import printable

        print(printable(str(warned)), file=sys.stderr)
        print(f"build failed: the site build warned; {out} is left as it was", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(f"built {len(project.rulesets)} rulesets into {out} in {time.perf_counter() - started:.1f}s — {builder.summary.line()}")
    return 0


class _Builder:
    def __init__(self, project, out: Path, staging: Path, old: dict, args):
        self.project, self.out, self.staging, self.old, self.args = project, out, staging, old, args
        self.root = project.root
        self.code = code_hash()
        self.manifest: dict[str, str] = {}
        self.summary = Summary()
        self.workers = getattr(args, "jobs", None)

    def wanted(self, kind: str) -> bool:
        return not self.args.only or kind in self.args.only

    def audiences(self) -> list[str]:
        return [self.args.audience] if getattr(self.args, "audience", None) else ["player", "gm"]

    def run(self) -> None:
        reference = self.staging / "reference"
        reference.mkdir(parents=True)
        (reference / "format.md").write_text(format_reference(), encoding="utf-8")
        (reference / "codes.md").write_text(codes_reference(), encoding="utf-8")
        for ruleset in self.project.rulesets:  # the names each ruleset's worked examples can use
            (reference / f"names-{ruleset.id}.md").write_text(names_reference(ruleset, self.project.root), encoding="utf-8")
        pdfs: list[tuple[str, PdfJob]] = []
        for kind in ("sheets", "handouts"):
            if self.wanted(kind):
                pdfs += [(kind, job) for job in self.plan(kind, self.jobs(kind))]
                self.carry(kind, skip=set(self.manifest))
            else:
                self.carry(kind)
        sites = self.plan_sites(pdfs) if self.wanted("site") else []
        for audience, name in (("player", "site"), ("gm", "site-gm")):
            if not self.wanted("site") or audience not in self.audiences():
                self.carry(name)  # what this build was not asked for stays as it was
        self.render(pdfs, sites)

    def render(self, pdfs: list[tuple[str, PdfJob]], sites: list[tuple[str, tuple]]) -> None:
        """Sites and PDFs in one process pool, the long site builds first, so the cores stay busy."""
        started = time.perf_counter()
        tasks = [(_site_worker, args) for _name, args in sites]
        tasks += [(worker_render, (job, self.root)) for _kind, job in sorted(pdfs, key=lambda kj: -len(kj[1].html))]
        with _progress("building", len(tasks)) as advance:
            results = _run_tasks(tasks, self.workers, advance)
        for (name, _args), outdir in zip(sites, results):
            shutil.copytree(outdir, self.staging / name, ignore=shutil.ignore_patterns(".buildinfo", ".doctrees"))
        self.summary.rendering = time.perf_counter() - started
        for kind in ("site", "sheets", "handouts"):
            count = len(sites) if kind == "site" else sum(1 for k, _job in pdfs if k == kind)
            if count or self.wanted(kind):
                self.summary.written[kind] = count

    # -- PDFs ------------------------------------------------------------------------------
    def jobs(self, kind: str) -> list[PdfJob]:
        folder = self.staging / kind
        if kind == "sheets":
            from .render.sheets import sheet_jobs

            jobs = sheet_jobs(self.project, folder)
            if getattr(self.args, "audience", None) == "player":
                jobs = [j for j in jobs if "-gm" not in j.target.name]
        else:
            from .render.handouts import handout_jobs

            jobs = [job for audience in self.audiences() for job in handout_jobs(self.project, folder, audience)]
        if self.args.ruleset:
            jobs = [j for j in jobs if self.owner(j.target.name) == self.args.ruleset]
        return jobs

    def owner(self, name: str) -> str:
        """The ruleset a PDF belongs to: the longest id its name starts with, then a dash (so that
        `mini-` is never taken for `mini_two-`); "" for none."""
        ids = sorted((r.id for r in self.project.rulesets), key=len, reverse=True)
        return next((id for id in ids if name.startswith(id + "-")), "")

    def plan(self, kind: str, jobs: list[PdfJob]) -> list[PdfJob]:
        """The jobs whose key changed; unchanged PDFs are linked from the previous build."""
        to_render = []
        for job in jobs:
            relative = job.target.relative_to(self.staging).as_posix()
            key = job_key(job, self.code, self.root)
            self.manifest[relative] = key
            previous = self.out / relative
            job.target.parent.mkdir(parents=True, exist_ok=True)
            if self.old.get(relative) == key and previous.is_file():
                _link_or_copy(previous, job.target)
                self.summary.reused[kind] = self.summary.reused.get(kind, 0) + 1
            else:
                to_render.append(job)
        return to_render

    def carry(self, kind: str, skip: set[str] = frozenset()) -> None:
        """Keep the previous build's files of ``kind`` that this build did not produce (--only, --ruleset)."""
        previous = self.out / kind
        if not previous.is_dir():
            return
        for path in previous.rglob("*"):
            relative = path.relative_to(self.out).as_posix()
            target = self.staging / relative
            if path.is_file() and relative not in skip and not target.exists():
                if kind in ("sheets", "handouts") and not self._carry_pdf(relative):
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                _link_or_copy(path, target)
                if relative in self.old:
                    self.manifest[relative] = self.old[relative]
                self.summary.reused[kind.split("-")[0]] = self.summary.reused.get(kind.split("-")[0], 0) + 1

    def _carry_pdf(self, relative: str) -> bool:
        """Carry a PDF over only when this build did not mean to produce its kind for its ruleset."""
        kind = relative.split("/")[0]
        if not self.wanted(kind):
            return True
        audience = getattr(self.args, "audience", None)
        if audience and ("-gm-" in Path(relative).name) != (audience == "gm"):
            return True
        if self.args.ruleset:
            return self.owner(Path(relative).name) != self.args.ruleset
        return False

    # -- site ------------------------------------------------------------------------------
    def plan_sites(self, pdfs: list[tuple[str, PdfJob]]) -> list[tuple[str, tuple]]:
        """The sites whose key changed, as (name, worker arguments); unchanged ones are linked."""
        from .render.site.pages import site_key

        downloads = self.downloads([job.target for _kind, job in pdfs])
        todo = []
        for audience in self.audiences():
            name = "site" if audience == "player" else "site-gm"
            key = site_key(self.project, audience, downloads, self.code)
            self.manifest[name + "/"] = key
            if self.old.get(name + "/") == key and (self.out / name / "index.html").is_file():
                shutil.copytree(self.out / name, self.staging / name, copy_function=_link_or_copy)
                self.summary.reused["site"] = self.summary.reused.get("site", 0) + 1
                continue
            cache = self.out.parent / CACHE_DIR / name
            todo.append((name, (str(self.root), str(cache), str(cache.with_name(name + "-html")), audience, downloads)))
        return todo

    def downloads(self, coming: list[Path]) -> dict[str, list[tuple[str, str]]]:
        """Per ruleset (and "" for general sheets), the PDFs of this build — staged already or ``coming`` — as
        (title, path under build/)."""
        found: dict[str, list[tuple[str, str]]] = {}
        for kind in ("sheets", "handouts"):
            folder = self.staging / kind
            staged = set(folder.glob("*.pdf")) if folder.is_dir() else set()
            for pdf in sorted(staged | {p for p in coming if p.parent == folder}):
                owner = self.owner(pdf.name)
                title = pdf.stem.removeprefix(owner + "-").replace("-", " ").replace(" a4", " (A4)").replace(" letter", " (US Letter)")
                found.setdefault(owner, []).append((title[:1].upper() + title[1:], f"{kind}/{pdf.name}"))
        return found


def _site_worker(args) -> str:
    """Build one site in its own process: Sphinx and MyST register roles process-wide,
    so two Sphinx applications must not share a process."""
    from .render.site.pages import build_site

    root, cache, outdir, audience, downloads = args
    project = check_project(Path(root)).project
    return str(build_site(project, Path(cache), Path(outdir), audience, downloads).outdir)


def _call(task):
    function, args = task
    start = time.perf_counter()
    result = function(args)
    if os.environ.get("RULEPRESS_TIMINGS"):
        print(f"  {time.perf_counter() - start:6.2f}s {function.__name__} {str(args)[:90]}", file=sys.stderr)
    return result


def _run_tasks(tasks: list, workers: int | None, advance) -> list:
    """Run (function, args) tasks in a process pool; results in task order."""
    if not tasks:
        return []
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from .render.pdf import _warm_worker

    context = multiprocessing.get_context("forkserver")  # workers import WeasyPrint/Sphinx themselves, in parallel
    workers = workers or min(len(tasks), os.cpu_count() or 1)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_quiet_worker, initargs=(_warm_worker,))
    try:
        # Children start with Ctrl-C blocked (a mask they inherit), so none is interrupted halfway through
        # starting Python; here a Ctrl-C meanwhile waits, then arrives, and this process stops them itself.
        import signal

        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            futures = [pool.submit(_call, task) for task in tasks]
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        for future in futures:
            future.add_done_callback(lambda _future: advance())
        results = [future.result() for future in futures]
    except BaseException:  # Ctrl-C, a failed task: stop every worker now rather than wait for the rest
        _stop(pool)
        raise
    pool.shutdown()
    return results


def _quiet_worker(warm) -> None:
    """Workers leave Ctrl-C to the parent, which stops them: no worker prints a traceback of its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm()


def _stop(pool) -> None:
    processes = list(getattr(pool, "_processes", {}).values())  # the executor keeps its workers here
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()


def _link_or_copy(source, target) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


@contextmanager
def _progress(description: str, total: int):
    """A rich progress bar on a terminal; silent otherwise (CI logs, tests)."""
    if not sys.stderr.isatty():
        yield lambda *_: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with Progress(*columns, transient=True) as progress:
        task = progress.add_task(description, total=total or None)
        yield lambda *_: progress.advance(task)


def _read_manifest(out: Path) -> dict[str, str]:
    try:
        return json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _swap(staging: Path, out: Path) -> None:
    """Replace ``out`` by ``staging`` with two renames, so a reader never sees half a build."""
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        out.rename(old)
    try:
        staging.rename(out)
    except BaseException:
        if old.exists() and not out.exists():
            old.rename(out)  # put the previous build back
        raise
    shutil.rmtree(old, ignore_errors=True)
