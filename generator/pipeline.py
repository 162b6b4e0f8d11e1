"""`rulepress build`: check, render what changed, swap the new build in only on success.

* **Locked**: one build at a time per output folder (``flock``); a second says so and exits.
* **Atomic**: everything is written to a staging folder beside ``build/`` and swapped in
  by two renames once all of it succeeded; a failure leaves the previous build as it was.
* **Incremental**: every PDF is keyed by a hash of its HTML, stylesheets and the
  generator's code; an unchanged key reuses the previous file (a hard link), so a
  no-change build renders nothing. The site is keyed likewise as a whole and, when
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
from .render.pdf import PdfJob, ResourceOutside, render_all
from .render.reference import codes_reference, format_reference
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
    seconds: dict[str, float] = field(default_factory=dict)

    def line(self) -> str:
        parts = []
        for kind in OUTPUTS:
            if kind in self.written or kind in self.reused:
                parts.append(f"{kind}: {self.written.get(kind, 0)} written, {self.reused.get(kind, 0)} unchanged"
                             + (f" ({self.seconds[kind]:.1f}s)" if kind in self.seconds else ""))
        return "; ".join(parts)


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
    """The generator's version and code, plus the project's templates: any change re-renders."""
    from .render.site.pages import code_hash as generator_hash

    return f"{__version__}-{generator_hash()}"


def job_key(job: PdfJob, code: str, root: Path) -> str:
    digest = hashlib.sha256(code.encode())
    digest.update(job.html.encode("utf-8"))
    for sheet in job.stylesheets:
        digest.update(Path(sheet).read_bytes())
    templates = root / "templates"
    if templates.is_dir():  # images and stylesheets linked from the HTML live here
        for path in sorted(templates.rglob("*")):
            if path.is_file() and path.suffix not in (".j2", ".html"):
                digest.update(path.relative_to(templates).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def run_build(root: Path, args) -> int:
    out = (args.out or root / "build").resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    try:
        with build_lock(out):
            return _build(root, out, args, started)
    except BuildLocked as locked:
        print(f"rulepress: {locked}", file=sys.stderr)
        return 1


def _build(root: Path, out: Path, args, started: float) -> int:
    result = check_project(root)
    failures = [f for ruleset in result.project.rulesets for f in run_examples(ruleset).failures] if result.ok else []
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
        print(warned, file=sys.stderr)
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
        for kind in ("sheets", "handouts"):
            if self.wanted(kind):
                self.pdfs(kind, self.jobs(kind))
            else:
                self.carry(kind)
        if self.wanted("site"):
            self.site()
        else:
            self.carry("site")
            self.carry("site-gm")

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
            others = [r.id for r in self.project.rulesets if r.id != self.args.ruleset]
            jobs = [j for j in jobs if not any(j.target.name.startswith(o) for o in others)]
        return jobs

    def pdfs(self, kind: str, jobs: list[PdfJob]) -> None:
        started = time.perf_counter()
        to_render = []
        for job in jobs:
            relative = job.target.relative_to(self.staging).as_posix()
            key = job_key(job, self.code, self.root)
            self.manifest[relative] = key
            previous = self.out / relative
            if self.old.get(relative) == key and previous.is_file():
                job.target.parent.mkdir(parents=True, exist_ok=True)
                _link_or_copy(previous, job.target)
                self.summary.reused[kind] = self.summary.reused.get(kind, 0) + 1
            else:
                to_render.append(job)
        with _progress(f"rendering {kind}", len(to_render)) as advance:
            for _ in render_all(to_render, self.root, self.workers, on_done=advance):
                pass
        self.summary.written[kind] = len(to_render)
        self.summary.seconds[kind] = time.perf_counter() - started
        self.carry(kind, skip=set(self.manifest))

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
        if self.args.ruleset:
            return not Path(relative).name.startswith(self.args.ruleset)
        return False

    # -- site ------------------------------------------------------------------------------
    def site(self) -> None:
        from .render.site.pages import site_key

        started = time.perf_counter()
        downloads = self.downloads()
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
        with _progress("building the site", len(todo)) as advance:
            for (name, _args), outdir in zip(todo, _build_sites([args for _name, args in todo], advance)):
                shutil.copytree(outdir, self.staging / name, ignore=shutil.ignore_patterns(".buildinfo", ".doctrees"))
                self.summary.written["site"] = self.summary.written.get("site", 0) + 1
        self.summary.seconds["site"] = time.perf_counter() - started

    def downloads(self) -> dict[str, list[tuple[str, str]]]:
        """Per ruleset (and "" for general sheets), the PDFs in the staged build, as (title, path under build/)."""
        found: dict[str, list[tuple[str, str]]] = {}
        ids = sorted((r.id for r in self.project.rulesets), key=len, reverse=True)
        for kind in ("sheets", "handouts"):
            folder = self.staging / kind
            for pdf in sorted(folder.glob("*.pdf")) if folder.is_dir() else []:
                owner = next((i for i in ids if pdf.name.startswith(i + "-")), "")
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


def _build_sites(jobs: list, advance) -> list[str]:
    if not jobs:
        return []
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=min(len(jobs), os.cpu_count() or 1), mp_context=context) as pool:
        results = []
        for outdir in pool.map(_site_worker, jobs):
            results.append(outdir)
            advance()
        return results


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
    staging.rename(out)
    shutil.rmtree(old, ignore_errors=True)
