"""`rulepress build`: check, render what changed, swap the new build in only on success.

* **Locked**: one build at a time per output folder (``flock``); a second says so and exits.
* **Atomic**: everything is written to a staging folder beside ``build/`` and swapped in
  by two renames once all of it succeeded; a failure, Ctrl-C or kill -9 leaves the previous
  build as it was, and the next build removes a killed build's staging folder.
* **Never loses data**: ``--out`` must be a folder this tool made (it holds its manifest) or a
  new or empty one; never the project, a folder above it, or one with other files. ``rulepress
  export`` is written the same way (locked, staged, swapped); a build keeps ``build/export/``.
* **No orphans**: workers die with the build (``PR_SET_PDEATHSIG`` on Linux, else they watch
  it), and every site is built in a fresh process (Sphinx registers roles process-wide).
* **Incremental**: every PDF is keyed by a hash of its HTML, the stylesheets and
  assets it links (the project's own, else the package defaults) and the generator's
  code; an unchanged key reuses the previous file (a hard link), so a no-change build
  renders nothing. The site is keyed likewise as a whole and, when
  it changed, rebuilt by Sphinx's own incremental build, whose cache is kept in the project
  (``.rulepress-cache/out-<hash of the out folder>/``): each directive depends on a hash of
  what it shows, so Sphinx reads again only the pages a change shows on, and every page whose
  bytes did not change stays the previous build's very file. That cache holds pickles (Sphinx's
  environment, Jinja's compiled templates): it is sealed by this process after a successful build
  and handed to Sphinx again only if it verifies (``cache_seal``), else removed first.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from contextlib import contextmanager
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__, wall
from .cache_seal import real_folder, seal, verify_or_wipe, wipe
from .diagnostics import printable
from .examples.run import run_examples_cached
from .keys import code_hash, ruleset_key
from .pool import RenderFailed
from .render.assets import asset_names, template_path
from .render.jinja import TemplateFailed
from .render.pdf import PdfJob, RenderRefused, worker_render
from .render.reference import codes_reference, format_reference, names_reference
from .render.site.pages import SiteFailed, SiteWarnings
from .render.site.search import INDEX_DIR, SearchIndexError, index_site
from .report import plural, print_diagnostics
from .validate import check_project

CACHE_DIR = ".rulepress-cache"
MANIFEST = ".manifest.json"
MANIFEST_MAC = ".manifest.mac"  # its MAC with this machine's key (``cache_seal``)
OUTPUTS = ("site", "sheets", "handouts")
EXIT_INTERNAL = 70  # as `rulepress` exits on any internal error (cli.EXIT_INTERNAL)
INTERRUPTED = 130  # the exit status of a build stopped by Ctrl-C (128 + SIGINT)


class BuildLocked(Exception):
    pass


class OutRefused(Exception):
    """``--out`` names a folder a build must not replace."""


def check_out(root: Path, out: Path, default: Path) -> None:
    """Refuse an output folder whose replacement would lose data: the project or a folder above it
    or inside rules_src/, or a folder holding files this tool did not write. The default folder
    (``build/``), a folder holding a manifest, a new folder and an empty one are fine."""
    root, out = root.resolve(), out.resolve()
    label, shown = "--out", str(out)
    if out == default.resolve():
        if not default.is_symlink():
            return
        label, shown = "the output folder", f"{out} (where {default.name}/ links)"  # a project's build/ linking elsewhere
    if out == root:
        raise OutRefused(f"{label} {shown} is the project folder; a build replaces its output folder whole")
    if root.is_relative_to(out):
        raise OutRefused(f"{label} {shown} holds the project; a build replaces its output folder whole")
    if out.is_relative_to(root / "rules_src"):
        raise OutRefused(f"{label} {shown} is inside rules_src/; write builds elsewhere")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise OutRefused(f"{label} {shown} is not a folder")
    if out.is_dir() and not (out / MANIFEST).is_file() and any(out.iterdir()):
        raise OutRefused(f"{label} {shown} holds files rulepress did not write; "
                         "name a new or empty folder, or one an earlier build wrote")


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
    lock_dir = real_folder(out.parent / CACHE_DIR, out.parent)  # never a shipped link leading elsewhere
    path = lock_dir / f"{out.name}.lock" if out.name != "build" else lock_dir / "build.lock"
    with _open_lock(path) as handle:
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


def _open_lock(path: Path):
    """The lock file, opened for writing without following a link: a shipped ``build.lock`` linking to
    another file would have that file truncated; such a link is removed."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW
    try:
        handle = os.open(path, flags, 0o644)
    except OSError:
        wipe(path)
        handle = os.open(path, flags, 0o644)
    return os.fdopen(handle, "r+")


def site_cache(root: Path, out: Path, name: str) -> Path:
    """Where Sphinx keeps ``name`` (site, site-gm) between builds of ``root`` into ``out``: inside the
    project, one folder per output folder, so two projects (or two --out folders of one) never share
    pages; a cache beside the output folder would be shared by every project building into it."""
    where = hashlib.sha256(str(Path(out).resolve()).encode()).hexdigest()[:16]
    return Path(root).resolve() / CACHE_DIR / f"out-{where}" / name


def site_cache_folders(cache: Path) -> tuple[Path, Path]:
    """The two folders of one site's Sphinx cache: sources, doctrees and compiled templates; Sphinx's output."""
    return cache, cache.with_name(cache.name + "-html")


def trust_site_cache(root: Path, cache: Path) -> None:
    """Before Sphinx is given a site's cache: it unpickles the environment and Jinja loads compiled
    templates from there, so each is kept only if this machine sealed it as it is (``cache_seal``);
    otherwise both folders are removed, and Sphinx builds that site afresh. Links standing for the
    folders above (``.rulepress-cache`` leading elsewhere) are removed first, so nothing is written
    through them."""
    real_folder(cache.parent, Path(root).resolve())
    folders = site_cache_folders(cache)
    if not all([verify_or_wipe(folder, root) for folder in folders]):  # a list: every folder is verified
        for folder in folders:
            wipe(folder)


def seal_site_cache(root: Path, cache: Path) -> None:
    for folder in site_cache_folders(cache):
        seal(folder, root)


def job_key(job: PdfJob, code: str, root: Path) -> str:
    digest = hashlib.sha256(code.encode())
    digest.update(job.html.encode("utf-8"))
    for text in job.fit:
        digest.update(b"\0fit\0" + text.encode("utf-8"))
    for sheet in job.stylesheets:
        digest.update(Path(sheet).read_bytes())
    linked = linked_assets(job, root)
    # the files this job's HTML and stylesheets link (the project's, else the defaults); every asset
    # when one link cannot be named, so a change is never missed
    for name in linked if linked is not None else asset_names(root):
        path = template_path(root, name)
        digest.update(name.encode() + b"\0" + str(path).encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"missing")
    return digest.hexdigest()


_CSS_LINK = re.compile(r"""@import\s+["']([^"']+)["']|url\(\s*["']?([^"')]+?)["']?\s*\)""")
_HTML_LINK = re.compile(r"""(?:\bsrc|<link\b[^>]*?\bhref)\s*=\s*["']([^"']+)["']""")  # what the renderer fetches; <a href> it does not


def linked_assets(job: PdfJob, root: Path) -> list[str] | None:
    """The names under templates/ of every file the job's HTML and stylesheets link (``src``,
    ``href``, ``url()``, ``@import``, followed through the stylesheets they import), sorted;
    None when a link names something that is not such a file."""
    from .render.assets import PROJECT_TEMPLATES, default_templates

    bases = (Path(root).resolve() / PROJECT_TEMPLATES, default_templates())
    found: set[str] = set()
    pending = [(url, Path(job.base_dir)) for url in _HTML_LINK.findall(job.html)]
    pending += [(a or b, Path(job.base_dir)) for a, b in _CSS_LINK.findall(job.html)]
    pending += [(a or b, Path(sheet).parent) for sheet in job.stylesheets for a, b in _CSS_LINK.findall(_text(sheet))]
    while pending:
        url, folder = pending.pop()
        if url.startswith(("#", "data:")):
            continue  # a place in the page, or the bytes themselves: in the HTML already
        if ":" in url.split("/")[0]:
            return None  # file:, http: and the like: the renderer refuses or fetches them; key by everything
        target = (folder / url.split("#")[0].split("?")[0]).resolve()
        name = next((target.relative_to(base).as_posix() for base in bases if target.is_relative_to(base)), None)
        if name is None:
            return None
        if name not in found:
            found.add(name)
            if name.endswith(".css"):
                path = template_path(root, name)
                pending += [(a or b, path.parent) for a, b in _CSS_LINK.findall(_text(path))]
    return sorted(found)


def _text(path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def run_build(root: Path, args) -> int:
    return _locked(root, args, _build)


def run_export(root: Path, args) -> int:
    """`rulepress export`: into ``build/export/`` (the rest of ``build/`` kept) or into ``--out``,
    locked, staged and swapped in like a build, so neither a build nor a failure loses it."""
    return _locked(root, args, _export)


def _locked(root: Path, args, work) -> int:
    default = root / "build"
    out = (args.out or default).resolve()
    try:
        check_out(root, out, default)
    except OutRefused as refused:
        print(printable(f"rulepress: error: {refused}"), file=sys.stderr)
        return 2
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None and not epoch.strip():
        del os.environ["SOURCE_DATE_EPOCH"]  # empty means unset (Sphinx would fail on it); workers inherit this
    elif epoch is not None and not epoch.strip().isdigit():
        print(printable(f"rulepress: error: SOURCE_DATE_EPOCH={epoch!r} is not a number of seconds since 1970"), file=sys.stderr)
        return 2
    if out.is_dir() and not _writable(out):
        print(printable(f"rulepress: error: {out} is read-only; it is left as it was (make it writable, or pass --out)"),
              file=sys.stderr)
        return 1
    started = time.perf_counter()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with build_lock(out):
            _clean_stale(out)
            return work(root, out, args, started)
    except BuildLocked as locked:
        print(printable(f"rulepress: {locked}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(printable(f"rulepress: interrupted; {out} is left as it was"), file=sys.stderr, flush=True)
        return INTERRUPTED
    except OSError as error:  # a read-only or full disk, a folder that vanished: one line, build/ as it was
        from .cli import os_error_text

        print(printable(f"rulepress: error: cannot write the build: {os_error_text(error)}; {out} is left as it was"), file=sys.stderr)
        return 1


def _writable(folder: Path) -> bool:
    """Whether a build may replace ``folder``: writable by us, and not marked read-only by its owner
    (``chmod a-w``, which root would otherwise ignore)."""
    import stat

    return os.access(folder, os.W_OK) and bool(folder.stat().st_mode & stat.S_IWUSR)


def _staging_prefix(out: Path) -> str:
    return f".{out.name}-staging-"


def _new_staging(out: Path) -> Path:
    return Path(tempfile.mkdtemp(prefix=_staging_prefix(out), dir=out.parent))


def _clean_stale(out: Path) -> None:
    """Remove what a killed build into ``out`` left beside it: its staging folder and the previous
    build it was swapping out. Called with the lock held, so no live build owns them."""
    staged = re.compile(re.escape(_staging_prefix(out)) + r"[a-z0-9_]{8}")
    swapped = re.compile(re.escape(f".{out.name}.old-") + r"[0-9]+")
    for path in sorted(out.parent.iterdir(), key=lambda p: p.name):
        if not path.is_dir() or path.is_symlink():
            continue
        if swapped.fullmatch(path.name) and not out.exists():
            path.rename(out)  # killed between the two renames of a swap: the previous build comes back
        elif staged.fullmatch(path.name) or swapped.fullmatch(path.name):
            shutil.rmtree(path, ignore_errors=True)


def _build(root: Path, out: Path, args, started: float) -> int:
    result, failures = (getattr(args, "checker", None) or check_with_examples)(root)
    if not result.ok or failures:
        print_diagnostics(list(result.diagnostics) + failures)
        print(printable(f"build failed: {plural(len(result.diagnostics.errors) + len(failures), 'error')}; {out} is left as it was"),
              file=sys.stderr)
        return 1
    project = result.project
    old = _read_manifest(out)
    staging = _new_staging(out)
    builder = _Builder(project, out, staging, old, args)
    try:
        builder.run()
        write_manifest(staging, builder.manifest, out)
        _swap(staging, out)
    except RenderRefused as refused:
        print_diagnostics(refused.diagnostics)
        print(printable(f"build failed; {out} is left as it was"), file=sys.stderr)
        return 1
    except TemplateFailed as failed:
        print_diagnostics(failed.diagnostics)
        print(printable(f"build failed: {plural(len(failed.diagnostics), 'template error')}; {out} is left as it was"), file=sys.stderr)
        return 1
    except SearchIndexError as failed:
        print(printable(f"error: {failed}"), file=sys.stderr)
        print(printable(f"build failed: no search index; {out} is left as it was"), file=sys.stderr)
        return 1
    except SiteWarnings as warned:
        print(printable(str(warned)), file=sys.stderr)
        print(printable(f"build failed: the site build warned; {out} is left as it was"), file=sys.stderr)
        return 1
    except RenderFailed as failed:
        print(printable(f"error: {failed}"), file=sys.stderr)
        print(printable(f"build failed: a render did not finish; {out} is left as it was"), file=sys.stderr)
        return 1
    except SiteFailed as failed:  # not the rules' fault: the status of an internal error, and a way to report it
        print(printable(f"rulepress: internal error: {failed} (please report this with the command you ran)"), file=sys.stderr)
        print(printable(f"build failed: the site build stopped; {out} is left as it was"), file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(printable(f"built {len(project.rulesets)} rulesets into {out} in {time.perf_counter() - started:.1f}s — {builder.summary.line()}"))
    return 0


def check_with_examples(root: Path):
    """Every check, then every worked example the errors found do not reach: (result, failures), each
    ruleset's from the check cache when nothing it reads changed; the result's project carries what the
    overlays' examples give under their house values. `rulepress serve` passes its own checker, which
    remembers what it checked in memory."""
    from .check_cache import CheckCache
    from .examples.run import run_project_examples
    from .examples.walled import prestart

    prestart(root)
    cache = CheckCache(root)  # the project is loaded whole; what an unchanged ruleset found is reused
    result = check_project(root, cache=cache)
    runs = run_project_examples(result.project, result.diagnostics, cache)
    project = result.project.with_house_results({run.ruleset: run.changed for run in runs})
    return dataclasses.replace(result, project=project), [f for run in runs for f in run.failures]


def _export(root: Path, out: Path, args, started: float) -> int:
    from .render.export import export as export_json

    result = check_project(root)
    if not result.ok:
        print_diagnostics(result.diagnostics)
        print(printable(f"export failed: {plural(len(result.diagnostics.errors), 'error')}; {out} is left as it was"), file=sys.stderr)
        return 1
    into_build = args.out is None  # build/export/, the rest of build/ kept; else the files at the top of --out
    staging = _new_staging(out)
    try:
        if out.is_dir():  # keep what this export does not rewrite (the other audience, the build)
            shutil.copytree(out, staging, dirs_exist_ok=True, copy_function=_link_or_copy)
        folder = staging / "export" if into_build else staging
        fresh = Path(tempfile.mkdtemp(prefix=".export-", dir=staging))
        written = export_json(result.project, fresh, args.audience)
        folder.mkdir(parents=True, exist_ok=True)
        for path in written:  # a rename, never a write through a hard link to the previous build
            os.replace(path, folder / path.name)
        fresh.rmdir()
        if not (staging / MANIFEST).is_file():
            (staging / MANIFEST).write_text("{}", encoding="utf-8")
        _swap(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for path in written:
        print(printable(f"wrote {(out / 'export' if into_build else out) / path.name}"))
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
        failed = []  # every template's failure, sheets and handouts, before any PDF is rendered
        for kind in ("sheets", "handouts"):
            if self.wanted(kind):
                try:
                    pdfs += [(kind, job) for job in self.changed_jobs(kind)]
                except TemplateFailed as failure:
                    failed += failure.diagnostics
                    continue
                self.carry(kind, skip=set(self.manifest))
            else:
                self.carry(kind)
        if failed:
            raise TemplateFailed(failed)
        sites = self.plan_sites(pdfs) if self.wanted("site") else []
        for audience, name in (("player", "site"), ("gm", "site-gm")):
            if not self.wanted("site") or audience not in self.audiences():
                self.carry(name)  # what this build was not asked for stays as it was
                if name + "/" in self.old:  # and keeps its key, or the next full build would make it again
                    self.manifest[name + "/"] = self.old[name + "/"]
        self.carry("export")  # `rulepress export` writes it; a build keeps it
        self.render(pdfs, sites)

    def render(self, pdfs: list[tuple[str, PdfJob]], sites: list[tuple[str, tuple]]) -> None:
        """Sites and PDFs in one process pool, the long site builds first, so the cores stay busy."""
        started = time.perf_counter()
        warm_site = getattr(self.args, "site_builder", None)  # serve's: Sphinx stays loaded in its process
        tasks = [] if warm_site else [(_site_worker, args) for _name, args in sites]
        tasks += [(worker_render, (job, self.root)) for _kind, job in sorted(pdfs, key=lambda kj: -len(kj[1].html))]
        with _progress("building", len(tasks)) as advance:
            results = self.run_tasks(tasks, advance)
        if warm_site:
            results = [warm_site(self.project, args) for _name, args in sites]
        for _name, args in sites:  # written by this machine's Sphinx: vouched for, so the next build may load it
            seal_site_cache(self.root, Path(args[1]))
        later = getattr(self.args, "index_later", False)  # serve's: the page first, the search index after it
        for (name, _args), outdir in zip(sites, results):
            previous = self.out / name
            skipped = (".buildinfo", ".doctrees", *((INDEX_DIR,) if later else ()))
            shutil.copytree(outdir, self.staging / name, ignore=shutil.ignore_patterns(*skipped),
                            copy_function=lambda source, target: _keep_if_same(source, target, previous, Path(outdir)))
            if later:
                self.previous_index(name)
        self.summary.rendering = time.perf_counter() - started
        for kind in ("site", "sheets", "handouts"):
            count = len(sites) if kind == "site" else sum(1 for k, _job in pdfs if k == kind)
            if count or self.wanted(kind):
                self.summary.written[kind] = count

    def run_tasks(self, tasks: list, advance) -> list:
        """The renders, behind the wall when this run uses it: they read the project and the default
        templates, and write only the staging folder and this output's site caches."""
        from .render.assets import default_templates

        site_caches = site_cache(self.root, self.out, "site").parent
        return _run_tasks(tasks, self.workers, advance,
                          walled=([self.root, default_templates()], [self.staging, site_caches]))

    def previous_index(self, name: str) -> None:
        """The search index of the previous build of site ``name`` (its very files), until `serve` swaps in
        the new one (``index_copy``); Pagefind's own index when there is none yet."""
        previous = self.out / name / INDEX_DIR
        if previous.is_dir():
            shutil.copytree(previous, self.staging / name / INDEX_DIR, copy_function=_link_or_copy)
        else:
            index_site(self.staging / name)

    # -- PDFs ------------------------------------------------------------------------------
    def jobs(self, kind: str, rulesets: set[str] | None = None) -> list[PdfJob]:
        """The PDFs of ``kind`` this build makes (of the ``rulesets`` named, when given), their HTML rendered."""
        folder = self.staging / kind
        if kind == "sheets":
            from .render.sheets.jobs import sheet_jobs

            jobs = sheet_jobs(self.project, folder, rulesets)
            if getattr(self.args, "audience", None) == "player":
                jobs = [j for j in jobs if "-gm" not in j.target.name]
        else:
            from .render.handouts.jobs import handout_jobs

            jobs = [job for audience in self.audiences() for job in handout_jobs(self.project, folder, audience, rulesets)]
        if self.args.ruleset:
            jobs = [j for j in jobs if self.owner(j.target.name) == self.args.ruleset]
        return jobs

    def changed_jobs(self, kind: str) -> list[PdfJob]:
        """The jobs of ``kind`` to render. A ruleset whose inputs (``inputs_key``) are those of the previous
        build keeps its previous PDFs without its HTML being made at all; the others' jobs are made and
        then keyed by their HTML (``plan``), so a prose edit re-renders only the PDFs that print it."""
        changed = set()
        for ruleset in self.project.rulesets:
            if self.args.ruleset and ruleset.id != self.args.ruleset:
                continue
            slot, key = f"{kind}/.inputs-{ruleset.id}", self.inputs_key(kind, ruleset)
            previous = [name for name in self.old if name.startswith(kind + "/") and name.endswith(".pdf")
                        and self.owner(name.split("/", 1)[1]) == ruleset.id]
            if self.old.get(slot) == key and all((self.out / name).is_file() for name in previous):
                for name in previous:
                    (self.staging / name).parent.mkdir(parents=True, exist_ok=True)
                    _link_or_copy(self.out / name, self.staging / name)
                    self.manifest[name] = self.old[name]
                    self.summary.reused[kind] = self.summary.reused.get(kind, 0) + 1
            else:
                changed.add(ruleset.id)
            self.manifest[slot] = key
        return self.plan(kind, self.jobs(kind, changed)) if changed else []

    def inputs_key(self, kind: str, ruleset) -> str:
        """A hash of everything one ruleset's PDFs of ``kind`` are made from: the files of the ruleset and of
        its bases (``keys.ruleset_key``), every template and asset (the project's and the defaults, by
        content), the audiences this build makes, SOURCE_DATE_EPOCH and the generator's code."""

        digest = hashlib.sha256(f"{kind}\0{self.audiences()}\0{getattr(self.args, 'audience', None)}\0"
                                f"{os.environ.get('SOURCE_DATE_EPOCH', '')}\0".encode())
        digest.update(ruleset_key(self.root, ruleset, self.code).encode())
        digest.update(self.templates_digest())
        return digest.hexdigest()

    def templates_digest(self) -> bytes:
        if not hasattr(self, "_templates"):
            from .render.assets import PROJECT_TEMPLATES, default_templates

            digest = hashlib.sha256()
            for folder in (Path(self.root).resolve() / PROJECT_TEMPLATES, default_templates()):
                for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
                    if path.is_file():
                        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
            self._templates = digest.digest()
        return self._templates

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
        from .render.site.pages import site_key, site_pages

        downloads = self.downloads([job.target for _kind, job in pdfs])
        todo = []
        for audience in self.audiences():
            name = "site" if audience == "player" else "site-gm"
            pages = site_pages(self.project, audience, downloads)  # once: the key, then Sphinx's pages
            key = site_key(self.project, audience, downloads, self.code, pages)
            self.manifest[name + "/"] = key
            if self.old.get(name + "/") == key and (self.out / name / "index.html").is_file():
                shutil.copytree(self.out / name, self.staging / name, copy_function=_link_or_copy)
                self.summary.reused["site"] = self.summary.reused.get("site", 0) + 1
                continue
            cache = site_cache(self.root, self.out, name)
            trust_site_cache(self.root, cache)
            todo.append((name, (str(self.root), str(cache), str(cache.with_name(name + "-html")), audience, downloads, pages,
                                self.project.house_results())))
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


def copy_for_index(out: Path, name: str = "site") -> Path | None:
    """A copy of the build ``out`` (hard links) without site ``name``'s search index, for ``index_copy``;
    None when ``out`` has no such site. The caller makes sure no build swaps ``out`` meanwhile."""
    if not (out / name / "index.html").is_file():
        return None
    staging = _new_staging(out)
    try:
        shutil.copytree(out, staging, dirs_exist_ok=True, copy_function=_link_or_copy,
                        ignore=lambda folder, _names: [INDEX_DIR] if Path(folder) == out / name else [])
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
            _swap(staging, out)
    except BuildLocked:
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _site_worker(args) -> str:
    """Build one site in a fresh process forked from the worker: Sphinx and MyST register roles
    process-wide, so two Sphinx applications must not share a process (with ``--jobs 1`` one
    worker builds both sites)."""
    return _in_fresh_process(_build_one_site, args)


def _build_one_site(args) -> str:
    from .render.site.pages import build_site

    from .render.site import checked_project
    from .source.project import load_project

    root, cache, outdir, audience, downloads, pages = args[:6]
    # the build checked the project a moment ago: loaded again here (the same files give the same model), and
    # Sphinx's extension uses this project rather than checking it once more
    project = with_site_house_results(load_project(Path(root))[0], args)
    with checked_project(project):
        return str(build_site(project, Path(cache), Path(outdir), audience, downloads, pages=pages).outdir)


def with_site_house_results(project, args):
    """The project a site task builds: what the build's examples found of its overlays, which a project
    loaded again from the files does not know, is in the task's seventh argument."""
    return project.with_house_results(args[6]) if len(args) > 6 and isinstance(args[6], dict) else project


def _in_fresh_process(function, args):
    """``function(args)`` in a child process; its result or its exception, raised here."""
    import multiprocessing
    import pickle

    if not hasattr(os, "fork"):  # pragma: no cover - not Linux or macOS
        return function(args)
    reader, writer = multiprocessing.get_context("fork").Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=_fresh_child, args=(writer, function, args))
    child.start()
    writer.close()
    try:
        outcome = reader.recv()
    except EOFError:
        child.join()
        raise RuntimeError(f"the site build process ended without a result (exit status {child.exitcode})") from None
    finally:
        reader.close()
    child.join()
    status, value = outcome
    if status == "error":
        raise pickle.loads(value)
    return value


def _fresh_child(writer, function, args) -> None:
    import pickle

    die_with_parent()
    try:
        outcome = ("ok", function(args))
    except BaseException as error:  # noqa: BLE001 - handed to the parent, which raises it
        try:
            outcome = ("error", pickle.dumps(error))
        except Exception:  # noqa: BLE001 - an exception that does not pickle
            outcome = ("error", pickle.dumps(RuntimeError(f"{type(error).__name__}: {error}")))
    writer.send(outcome)
    writer.close()


def die_with_parent(parent: int | None = None) -> None:
    """End this process when its parent ends (a kill -9 of the build leaves no worker behind):
    ``PR_SET_PDEATHSIG`` on Linux; elsewhere a thread that watches ``parent``."""
    parent = parent or os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent ended before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass
    watch(parent)


def watch(pid: int, every: float = 0.5) -> None:
    """End this process soon after process ``pid`` has ended (a thread that polls it)."""
    import threading

    def poll() -> None:
        while True:
            time.sleep(every)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:
                pass

    threading.Thread(target=poll, name=f"watch-{pid}", daemon=True).start()


def _worker_init(build: int) -> None:
    """A pool worker: ignore Ctrl-C (the build handles it and ends the pool), end with the build."""
    from .render.pdf import _warm_worker

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()  # the forkserver
    # ...which does not end with the build: every worker holds its "build alive" pipe open. So
    # each worker watches the build itself.
    try:
        os.kill(build, 0)
    except ProcessLookupError:
        os._exit(1)
    watch(build)
    _warm_worker()


def _call(task):
    function, args = task
    start = time.perf_counter()
    result = function(args)
    if os.environ.get("RULEPRESS_TIMINGS"):
        print(f"  {time.perf_counter() - start:6.2f}s {function.__name__} {str(args)[:90]}", file=sys.stderr)
    return result


def _run_tasks(tasks: list, workers: int | None, advance, walled: tuple | None = None) -> list:
    """Run (function, args) tasks in a process pool; results in task order. With ``walled`` (what the
    tasks read, what they write) and the wall in use, the pool is walled workers (``pool``)."""
    if not tasks:
        return []
    if walled is not None and wall.in_use():
        from .pool import run_walled

        read, write = walled
        for folder in write:
            Path(folder).mkdir(parents=True, exist_ok=True)
        return run_walled(tasks, workers or min(len(tasks), os.cpu_count() or 1), advance, read=read, write=write)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("forkserver")  # workers import WeasyPrint/Sphinx themselves, in parallel
    workers = workers or min(len(tasks), os.cpu_count() or 1)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(),))
    try:
        # Children start with Ctrl-C blocked (a mask they inherit), so none is interrupted halfway through
        # starting Python; here a Ctrl-C meanwhile waits, then arrives, and this process stops them itself.
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


def _stop(pool) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())  # the executor keeps its workers here
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()


def _keep_if_same(source, target, previous: Path, built: Path) -> None:
    """Stage a file of Sphinx's output: the previous build's own file (a hard link) where its bytes
    are the same, so a page the change did not touch keeps its identity; else a copy. Never a link
    into Sphinx's output folder, which Sphinx rewrites in place on the next build."""
    before = previous / Path(source).relative_to(built)
    try:
        same = before.is_file() and before.stat().st_size == os.stat(source).st_size and before.read_bytes() == Path(source).read_bytes()
    except OSError:
        same = False
    if same:
        _link_or_copy(before, target)
    else:
        shutil.copy2(source, target)


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
    """What the build in ``out`` was made from, if this machine wrote it there: a manifest shipped with
    the project (or copied from elsewhere) is no build of ours, so nothing it names is reused."""
    from .cache_seal import unsign

    try:
        data = (out / MANIFEST).read_bytes()
        signed = (out / MANIFEST_MAC).read_bytes()
    except OSError:
        return {}
    if unsign(_manifest_label(out), signed.strip() + b"\n" + data) != data:
        return {}
    try:
        found = json.loads(data)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def write_manifest(folder: Path, entries: dict, out: Path | None = None) -> None:
    """``entries`` as the manifest of ``folder`` (a staging folder that becomes ``out``), signed with this
    machine's key so only this machine's next build reuses what it names."""
    from .cache_seal import sign

    data = json.dumps(entries, indent=1, sort_keys=True).encode("utf-8")
    (folder / MANIFEST).write_bytes(data)
    signed = sign(_manifest_label(out or folder), data)
    if signed is not None:
        (folder / MANIFEST_MAC).write_bytes(signed.partition(b"\n")[0] + b"\n")


def _manifest_label(out: Path) -> str:
    """What the manifest's MAC is bound to: its being one, not where it stands (a project copied on this
    machine keeps its build's keys; the key, not the place, says who wrote it)."""
    return "build manifest"


def _swap(staging: Path, out: Path) -> None:
    """Replace ``out`` by ``staging`` with two renames, so a reader never sees half a build;
    Ctrl-C waits until both are done (a kill -9 between them is undone by the next build)."""
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    blocked = hasattr(signal, "pthread_sigmask")
    if blocked:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        if out.exists():
            out.rename(old)
        try:
            staging.rename(out)
        except BaseException:
            if old.exists() and not out.exists():
                old.rename(out)
            raise
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    shutil.rmtree(old, ignore_errors=True)
