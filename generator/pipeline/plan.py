"""What a build renders and what it keeps: the ``Builder`` plans each output against the previous build's
manifest (a PDF by its key, a ruleset's PDFs by their inputs, a site by its key), links what is unchanged
from the previous build, and renders the rest in the worker pool. Also where Sphinx keeps each site's cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import keys
from ..cache_seal import real_folder, seal, verify_or_wipe, wipe
from ..history import read_once
from ..keys import code_hash, job_key, ruleset_key
from ..model.entries import SEES_EVERYTHING
from ..render.assets import default_templates
from ..render.export import export as export_json
from ..render.export import exported_audiences
from ..render.handouts.jobs import handout_jobs
from ..render.imprint import rules_date
from ..render.jinja import TemplateFailed
from ..render.pdf import PdfJob, RenderRefused, worker_render
from ..render.reference import codes_reference, format_reference, names_reference
from ..render.sheets.jobs import sheet_jobs
from ..render.site.pages import PRINTOUTS, site_key, site_pages
from ..render.site.search import INDEX_DIR, index_site
from ..source.project import SETTINGS_FILE
from .guard import CACHE_DIR
from .printout_links import dead_pdf_links
from .request import BuildHooks, BuildRequest
from .staging import keep_if_same, link_or_copy
from .workers import progress, run_tasks, site_worker

OUTPUTS = ("site", "sheets", "handouts")
SITES = {"player": "site", "gm": "site-gm", "author": "site-author"}  # each audience's site, by its folder
PRINTED = ("player", "gm")  # the audiences PDFs are printed for
NO_JEKYLL = ".nojekyll"  # in each site: GitHub Pages then serves it as it is (mark_for_static_hosts)


@dataclass
class Summary:
    written: dict[str, int] = field(default_factory=dict)
    reused: dict[str, int] = field(default_factory=dict)  # made again would be the same: linked from the last build
    kept: dict[str, int] = field(default_factory=dict)  # not made this build (--only, --ruleset): the last build's
    stale: dict[str, set[str]] = field(default_factory=dict)  # kind -> kept PDFs (names) made anew would differ
    rendering: float = 0.0  # seconds in the worker pool (sites and PDFs together)

    def line(self) -> str:
        parts = [
            self._part(kind)
            for kind in (*OUTPUTS, "export")  # the export a build finds, written anew
            if kind in self.written or kind in self.reused or kind in self.kept
        ]
        return "; ".join(parts) + (f" (rendering {self.rendering:.1f}s)" if self.rendering else "")

    def _part(self, kind: str) -> str:
        made = kind in self.written or kind in self.reused
        counts = [f"{self.written.get(kind, 0)} written, {self.reused.get(kind, 0)} unchanged"] if made else []
        counts += [f"{self.kept[kind]} kept from the last build"] if self.kept.get(kind) else []
        return f"{kind}: " + ", ".join(counts)

    def notes(self) -> list[str]:
        """What a reader of the build must know of the files it kept: those that, made now, would not be the same."""
        return [_stale_note(kind, sorted(names)) for kind, names in sorted(self.stale.items()) if names]


MOST_NAMED = 6  # kept PDFs a note names before it counts the rest


def _stale_note(kind: str, names: list[str]) -> str:
    """``the sheet `a.pdf` ... is``, ``the sheets `a.pdf` and `b.pdf` ... are``: ``kind`` is a plural of OUTPUTS."""
    shown = [f"`{name}`" for name in names[:MOST_NAMED]]
    if len(names) > len(shown):
        listed = ", ".join(shown) + f" and {len(names) - len(shown)} more"
    else:
        listed = " and ".join([", ".join(shown[:-1]), shown[-1]] if len(shown) > 1 else shown)
    one = len(names) == 1
    return (
        f"note: the {kind.removesuffix('s') if one else kind} {listed} kept from the last build "
        f"{'is' if one else 'are'} out of date ({'its' if one else 'their'} rules, templates or Rulepress changed "
        f"since): `rulepress build --only {kind}` makes {'it' if one else 'them'} anew"
    )


# -- Sphinx's caches -----------------------------------------------------------------------------------------
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


# -- the build -----------------------------------------------------------------------------------------------
class Builder:
    """One build of ``project`` into ``staging``, which becomes ``out``: ``old`` is the manifest of the build
    in ``out`` (what each of its files was made from); ``manifest`` becomes this build's."""

    def __init__(
        self, project, out: Path, staging: Path, old: dict, request: BuildRequest, hooks: BuildHooks = BuildHooks()
    ):
        self.project, self.out, self.staging, self.old = project, out, staging, old
        self.request, self.hooks = request, hooks
        self.root = project.root
        self.code = code_hash()
        self.manifest: dict[str, str] = {}
        self.summary = Summary()
        self.workers = request.jobs
        self._templates: bytes | None = None  # keys.templates_digest, read once a build
        self._rules_keys: dict[str, str] = {}  # ruleset id -> keys.rules_key, read once a build
        self._to_judge: dict[str, dict[str, list[str]]] = {}  # kind -> ruleset -> kept PDFs whose rules changed

    def wanted(self, kind: str) -> bool:
        if kind in ("sheets", "handouts") and self.request.audience not in (None, *PRINTED):
            return False  # the authors' edition is a site only
        return not self.request.only or kind in self.request.only

    def audiences(self) -> list[str]:
        return [self.request.audience] if self.request.audience else list(SITES)

    def run(self) -> None:
        with read_once():  # each ruleset's date is read from its history once, for its keys and its printouts
            self._run()

    def _run(self) -> None:
        self.write_reference()
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
        refused = dead_pdf_links(self.project) if self.wanted("site") else []
        if refused:  # told with the templates' failures, if any: every error of the rules in one run
            raise RenderRefused(failed + refused)
        if failed:
            raise TemplateFailed(failed)
        sites = self.plan_sites(pdfs) if self.wanted("site") else []
        for audience, name in SITES.items():
            if not self.wanted("site") or audience not in self.audiences():
                self.carry(name)  # what this build was not asked for stays as it was
                for slot in (
                    name + "/",
                    f"{name}/.inputs",
                ):  # and keeps its keys, or the next full build makes it again
                    if slot in self.old:
                        self.manifest[slot] = self.old[slot]
        self.refresh_export()
        self.render(pdfs, sites)
        self.place_printouts()
        self.mark_for_static_hosts()

    def refresh_export(self) -> None:
        """The export an earlier `rulepress export` left in the output folder, written anew from these rules for the
        audiences it is for: kept as it was, it would give older numbers than the site beside it."""
        previous = self.out / "export"
        for audience in exported_audiences(previous) if previous.is_dir() else ():
            for path in export_json(self.project, self.staging / "export", audience):
                old = previous / path.name
                same = old.is_file() and old.read_bytes() == path.read_bytes()
                counts = self.summary.reused if same else self.summary.written
                counts["export"] = counts.get("export", 0) + 1

    def mark_for_static_hosts(self) -> None:
        """An empty ``.nojekyll`` in each site: GitHub Pages publishing a branch runs Jekyll unless the site holds
        one, and Jekyll drops every folder whose name starts with `_` (`_static/`, `_pagefind/`: the styles, the
        scripts and the search index). Kept from the last build where it is there already (a link to its file)."""
        for name in SITES.values():
            site = self.staging / name
            if site.is_dir() and not (site / NO_JEKYLL).exists():
                (site / NO_JEKYLL).write_bytes(b"")

    def place_printouts(self) -> None:
        """Each site gets the PDFs it links inside its own folder (`printouts/sheets`, `printouts/handouts`), so a
        site published alone still opens them: links to this build's PDFs (made or kept), the players' alone in the
        players' site. Made anew each build, so a site kept from the last one never links an old PDF."""
        for audience, name in SITES.items():
            site = self.staging / name
            if not site.is_dir():
                continue
            shutil.rmtree(site / PRINTOUTS, ignore_errors=True)
            for kind in ("sheets", "handouts"):
                folder = self.staging / kind
                for pdf in sorted(folder.glob("*.pdf")) if folder.is_dir() else ():
                    if audience in SEES_EVERYTHING or "-gm-" not in pdf.name:
                        (site / PRINTOUTS / kind).mkdir(parents=True, exist_ok=True)
                        link_or_copy(pdf, site / PRINTOUTS / kind / pdf.name)

    def render(self, pdfs: list[tuple[str, PdfJob]], sites: list[tuple[str, tuple]]) -> None:
        """Sites and PDFs in one process pool, the long site builds first, so the cores stay busy."""
        started = time.perf_counter()
        warm_site = self.hooks.site_builder  # serve's: Sphinx stays loaded in its process
        tasks = [] if warm_site else [(site_worker, args) for _name, args in sites]
        labels = [] if warm_site else [name for name, _args in sites]
        ordered = sorted(pdfs, key=lambda kj: -len(kj[1].html))
        tasks += [(worker_render, (job, self.root)) for _kind, job in ordered]
        labels += [f"{kind} of {self.owner(job.target.name) or 'the project'}" for kind, job in ordered]
        with progress("building", len(tasks), labels) as advance:
            results = self.render_tasks(tasks, advance)
        if warm_site:
            results = [warm_site(self.project, args) for _name, args in sites]
        for _name, args in sites:  # written by this machine's Sphinx: vouched for, so the next build may load it
            seal_site_cache(self.root, Path(args[1]))
        later = self.hooks.index_later  # serve's: the page first, the search index after it
        for (name, _args), outdir in zip(sites, results):
            previous = self.out / name
            skipped = (".buildinfo", ".doctrees", *((INDEX_DIR,) if later else ()))
            shutil.copytree(
                outdir,
                self.staging / name,
                ignore=shutil.ignore_patterns(*skipped),
                copy_function=lambda source, target: keep_if_same(source, target, previous, Path(outdir)),
            )
            if later:
                self.previous_index(name)
        self.summary.rendering = time.perf_counter() - started
        for kind in ("site", "sheets", "handouts"):
            count = len(sites) if kind == "site" else sum(1 for k, _job in pdfs if k == kind)
            if count or self.wanted(kind):
                self.summary.written[kind] = count

    def render_tasks(self, tasks: list, advance) -> list:
        """The renders, behind the wall when this run uses it: they read the project and the default
        templates, and write only the staging folder and this output's site caches."""
        site_caches = site_cache(self.root, self.out, "site").parent
        return run_tasks(
            tasks, self.workers, advance, walled=([self.root, default_templates()], [self.staging, site_caches])
        )

    def previous_index(self, name: str) -> None:
        """The search index of the previous build of site ``name`` (its very files), until `serve` swaps in
        the new one (``search_index``); Pagefind's own index when there is none yet."""
        previous = self.out / name / INDEX_DIR
        if previous.is_dir():
            shutil.copytree(previous, self.staging / name / INDEX_DIR, copy_function=link_or_copy)
        else:
            index_site(self.staging / name)

    # -- PDFs ------------------------------------------------------------------------------
    def jobs(self, kind: str, rulesets: set[str] | None = None) -> list[PdfJob]:
        """The PDFs of ``kind`` this build makes (of the ``rulesets`` named, when given), their HTML rendered."""
        folder = self.staging / kind
        if kind == "sheets":
            jobs = sheet_jobs(self.project, folder, rulesets)
            if self.request.audience == "player":
                jobs = [j for j in jobs if "-gm" not in j.target.name]
        else:
            jobs = [
                job
                for audience in self.audiences()
                if audience in PRINTED
                for job in handout_jobs(self.project, folder, audience, rulesets)
            ]
        if self.request.ruleset:
            jobs = [j for j in jobs if self.owner(j.target.name) == self.request.ruleset]
        return jobs

    def changed_jobs(self, kind: str) -> list[PdfJob]:
        """The jobs of ``kind`` to render. A ruleset whose inputs (``inputs_key``) are those of the previous
        build keeps its previous PDFs without its HTML being made at all; the others' jobs are made and
        then keyed by their HTML (``plan``), so a prose edit re-renders only the PDFs that print it."""
        changed = set()
        for ruleset in self.project.rulesets:
            if self.request.ruleset and ruleset.id != self.request.ruleset:
                continue
            slot, key = f"{kind}/.inputs-{ruleset.id}", self.inputs_key(kind, ruleset)
            self.manifest[f"{kind}/.rules-{ruleset.id}"] = self.rules_key(ruleset)
            previous = [
                name
                for name in self.old
                if name.startswith(kind + "/")
                and name.endswith(".pdf")
                and self.owner(name.split("/", 1)[1]) == ruleset.id
            ]
            if self.old.get(slot) == key and all((self.out / name).is_file() for name in previous):
                for name in previous:
                    (self.staging / name).parent.mkdir(parents=True, exist_ok=True)
                    link_or_copy(self.out / name, self.staging / name)
                    self.manifest[name] = self.old[name]
                    self.summary.reused[kind] = self.summary.reused.get(kind, 0) + 1
            else:
                changed.add(ruleset.id)
            self.manifest[slot] = key
        return self.plan(kind, self.jobs(kind, changed)) if changed else []

    def inputs_key(self, kind: str, ruleset) -> str:
        """A hash of everything one ruleset's PDFs of ``kind`` are made from (``keys.inputs_key``): the files
        of the ruleset and of its bases, every template and asset, the audiences this build makes,
        SOURCE_DATE_EPOCH, the generator's code and the date the PDFs give the rules."""
        return keys.inputs_key(
            kind,
            self.audiences(),
            self.request.audience,
            os.environ.get("SOURCE_DATE_EPOCH", ""),
            ruleset_key(self.root, ruleset, self.code),
            self.templates_digest(),
            rules_date(ruleset, self.root),
            self.settings(),
        )

    def rules_key(self, ruleset) -> str:
        """A hash of what a ruleset's PDFs print, whatever the build asked for: its rules and the templates. A PDF
        kept from a build whose key for its ruleset differs was made from older rules."""
        if ruleset.id not in self._rules_keys:
            self._rules_keys[ruleset.id] = keys.rules_key(
                ruleset_key(self.root, ruleset, self.code),
                self.templates_digest(),
                rules_date(ruleset, self.root),
                self.settings(),
            )
        return self._rules_keys[ruleset.id]

    def settings(self) -> bytes:
        """The bytes of the project's settings file (rulepress.yaml), or none."""
        path = self.root / SETTINGS_FILE
        return path.read_bytes() if path.is_file() else b""

    def templates_digest(self) -> bytes:
        """``keys.templates_digest``, read once a build."""
        if self._templates is None:
            self._templates = keys.templates_digest(self.root)
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
                link_or_copy(previous, job.target)
                self.summary.reused[kind] = self.summary.reused.get(kind, 0) + 1
            else:
                to_render.append(job)
        return to_render

    def write_reference(self) -> None:
        """The format and the codes; and the names each ruleset's worked examples can use, which name the
        game-master's entries too: a build for the players alone keeps the last build's, and writes none."""
        reference = self.staging / "reference"
        reference.mkdir(parents=True)
        (reference / "format.md").write_text(format_reference(), encoding="utf-8")
        (reference / "codes.md").write_text(codes_reference(), encoding="utf-8")
        if not any(audience in SEES_EVERYTHING for audience in self.audiences()):
            if self.old and not (self.out / "reference").is_symlink():  # the last build this machine's
                for kept in sorted((self.out / "reference").glob("names-*.md")):
                    if kept.is_file() and not kept.is_symlink():
                        link_or_copy(kept, reference / kept.name)
            return
        for ruleset in self.project.rulesets:
            (reference / f"names-{ruleset.id}.md").write_text(
                names_reference(ruleset, self.project.root), encoding="utf-8"
            )

    def carry(self, kind: str, skip: set[str] = frozenset()) -> None:
        """Keep the previous build's files of ``kind`` that this build did not produce (--only, --ruleset)."""
        previous = self.out / kind
        if not previous.is_dir():
            return
        kept_site = False
        for path in previous.rglob("*"):
            relative = path.relative_to(self.out).as_posix()
            target = self.staging / relative
            if path.is_file() and relative not in skip and not target.exists():
                if kind in ("sheets", "handouts") and not self._carry_pdf(relative):
                    continue
                if PRINTOUTS in Path(relative).parts[1:-1]:
                    continue  # a site's copies of the PDFs are placed anew from this build's (place_printouts)
                target.parent.mkdir(parents=True, exist_ok=True)
                link_or_copy(path, target)
                if relative in self.old:
                    self.manifest[relative] = self.old[relative]
                if kind in ("sheets", "handouts") and path.suffix == ".pdf":
                    self._keep_pdf(kind, Path(relative).name)
                elif kind not in SITES.values():
                    self.summary.reused[kind] = self.summary.reused.get(kind, 0) + 1
                kept_site = kept_site or kind in SITES.values()
        if kept_site:
            self.summary.kept["site"] = self.summary.kept.get("site", 0) + 1
        if kind in ("sheets", "handouts"):
            self._judge_kept(kind)

    def _keep_pdf(self, kind: str, name: str) -> None:
        """Count a PDF kept from the last build and keep its ruleset's keys. When its ruleset's rules changed since
        (its ``rules_key``), whether the PDF itself is out of date is judged by its own key (``_judge_kept``)."""
        self.summary.kept[kind] = self.summary.kept.get(kind, 0) + 1
        owner = self.owner(name)
        ruleset = next((r for r in self.project.rulesets if r.id == owner), None)
        if ruleset is None:
            return
        rules_slot = f"{kind}/.rules-{owner}"
        for slot in (rules_slot, f"{kind}/.inputs-{owner}"):
            if slot in self.old and slot not in self.manifest:
                self.manifest[slot] = self.old[slot]
        if f"{kind}/{name}" not in self.old:  # a build that did not say what made it
            self.summary.stale.setdefault(kind, set()).add(name)
            self._to_judge.setdefault(kind, {}).setdefault(owner, [])  # its ruleset's key stays the old one
            return
        made_from = self.old.get(rules_slot)  # none: a build that did not say (by an older Rulepress)
        if made_from is None or made_from != self.rules_key(ruleset):
            self._to_judge.setdefault(kind, {}).setdefault(owner, []).append(name)

    def _judge_kept(self, kind: str) -> None:
        """The kept PDFs of ``kind`` whose rules changed since they were made: each is out of date when the key the
        build would give it now (``job_key``, of the HTML its rules make now: what says "unchanged" in a build that
        makes it) is not the key it was made under, or no job makes it any more. A prose edit printed on none of a
        ruleset's sheets leaves every sheet as it is. Its ruleset's rules key is the new one when none is out of
        date (the next build need not judge again), else the one the PDFs were made under."""
        kept = self._to_judge.pop(kind, {})
        judged = {owner: names for owner, names in kept.items() if names}
        now = self._keys_now(kind, set(judged)) if judged else {}
        for owner, names in sorted(kept.items()):
            stale = {name for name in names if now is None or now.get(name) != self.old.get(f"{kind}/{name}")}
            self.summary.stale.setdefault(kind, set()).update(stale)
            rules_slot = f"{kind}/.rules-{owner}"
            if not stale and names:
                self.manifest[rules_slot] = self.rules_key(next(r for r in self.project.rulesets if r.id == owner))
            elif rules_slot in self.old:
                self.manifest[rules_slot] = self.old[rules_slot]
            else:
                self.manifest.pop(rules_slot, None)

    def _keys_now(self, kind: str, rulesets: set[str]) -> dict[str, str] | None:
        """The key of every PDF of ``kind`` of the ``rulesets`` as made now, for every audience printed, by its file
        name (their HTML made, none rendered); None when a template fails (the build asked for none of them: it
        cannot tell which are out of date, so all are)."""
        folder = self.staging / kind
        try:
            if kind == "sheets":
                jobs = sheet_jobs(self.project, folder, rulesets)
            else:
                jobs = [job for audience in PRINTED for job in handout_jobs(self.project, folder, audience, rulesets)]
        except TemplateFailed:
            return None
        return {job.target.name: job_key(job, self.code, self.root) for job in jobs}

    def _carry_pdf(self, relative: str) -> bool:
        """Carry a PDF over only when this build did not mean to produce its kind for its ruleset."""
        kind = relative.split("/")[0]
        if not self.wanted(kind):
            return True
        audience = self.request.audience
        if audience and ("-gm-" in Path(relative).name) != (audience == "gm"):
            return True
        if self.request.ruleset:
            return self.owner(Path(relative).name) != self.request.ruleset
        return False

    # -- site ------------------------------------------------------------------------------
    def plan_sites(self, pdfs: list[tuple[str, PdfJob]]) -> list[tuple[str, tuple]]:
        """The sites whose key changed, as (name, worker arguments); unchanged ones are linked."""
        downloads = self.downloads([job.target for _kind, job in pdfs])
        todo = []
        for audience in self.audiences():
            name = SITES[audience]
            slot, inputs = f"{name}/.inputs", self.site_inputs_key(audience, downloads)
            self.manifest[slot] = inputs
            if self.old.get(slot) == inputs and name + "/" in self.old and (self.out / name / "index.html").is_file():
                # made from the very same files as last time: its pages (calculators and all) are not made again
                self.manifest[name + "/"] = self.old[name + "/"]
                shutil.copytree(self.out / name, self.staging / name, copy_function=link_or_copy)
                self.summary.reused["site"] = self.summary.reused.get("site", 0) + 1
                continue
            pages = site_pages(self.project, audience, downloads)  # once: the key, then Sphinx's pages
            key = site_key(self.project, audience, downloads, self.code, pages)
            self.manifest[name + "/"] = key
            if self.old.get(name + "/") == key and (self.out / name / "index.html").is_file():
                shutil.copytree(self.out / name, self.staging / name, copy_function=link_or_copy)
                self.summary.reused["site"] = self.summary.reused.get("site", 0) + 1
                continue
            cache = site_cache(self.root, self.out, name)
            trust_site_cache(self.root, cache)
            todo.append(
                (
                    name,
                    (
                        str(self.root),
                        str(cache),
                        str(cache.with_name(name + "-html")),
                        audience,
                        downloads,
                        pages,
                        self.project.house_results(),
                    ),
                )
            )
        return todo

    def site_inputs_key(self, audience: str, downloads: dict) -> str:
        """A hash of everything one audience's site is made from, without making its pages: every ruleset's key
        (``keys.ruleset_key``: its files, mechanics and sources, its bases', the templates and the generator's code),
        the project's settings, the downloads it links, the house results its examples gave, SOURCE_DATE_EPOCH."""
        return keys.site_inputs_key(
            audience,
            os.environ.get("SOURCE_DATE_EPOCH", ""),
            [ruleset_key(self.root, ruleset, self.code) for ruleset in self.project.rulesets],
            self.settings(),
            sorted(downloads.items()),
            repr(sorted(self.project.house_results().items())),
            self.templates_digest(),
        )

    def downloads(self, coming: list[Path]) -> dict[str, list[tuple[str, str]]]:
        """Per ruleset (and "" for general sheets), the PDFs of this build — staged already or ``coming`` — as
        (title, path under build/)."""
        found: dict[str, list[tuple[str, str]]] = {}
        for kind in ("sheets", "handouts"):
            folder = self.staging / kind
            staged = set(folder.glob("*.pdf")) if folder.is_dir() else set()
            for pdf in sorted(staged | {p for p in coming if p.parent == folder}):
                owner = self.owner(pdf.name)
                title = (
                    pdf.stem.removeprefix(owner + "-")
                    .replace("-", " ")
                    .replace(" a4", " (A4)")
                    .replace(" letter", " (US Letter)")
                )
                found.setdefault(owner, []).append((title[:1].upper() + title[1:], f"{kind}/{pdf.name}"))
        return found
