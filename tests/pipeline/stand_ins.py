"""Stand-ins for everything a build calls out to (the checker, the PDF jobs of each kind, the site's key and
builder, the reference pages, the worker pool, the exporter), each noting what it was asked, and the small
helpers the pipeline's tests read a build with. File names are written out by hand."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

import generator.pipeline.build  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.plan  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.staging  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.workers  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import keys, pipeline
from generator.diagnostics import Diagnostics
from generator.pipeline.request import BuildHooks, BuildRequest
from generator.render.pdf import PdfJob

SHEETS = ["quick-reference-a4", "quick-reference-letter", "wound-sheet-a4", "wound-sheet-letter"]

REAL_SITE_INPUTS_KEY = keys.site_inputs_key  # the stand-ins patch it (with their site versions)


HANDOUTS = ["cards-a4", "cards-letter", "handout-a4", "handout-letter", "roster-a4", "roster-letter"]


GM_HANDOUTS = ["gm-notes-a4"]


def pdfs_of(ruleset: str, gm: bool = True) -> list[str]:
    return sorted(
        [f"sheets/{ruleset}-{name}.pdf" for name in SHEETS]
        + [f"handouts/{ruleset}-{name}.pdf" for name in HANDOUTS + (GM_HANDOUTS if gm else [])]
    )


ALL_PDFS = sorted(pdfs_of("melee") + pdfs_of("melee_house"))


EVERY_FILE = sorted(
    ALL_PDFS
    + [
        ".manifest.json",
        ".manifest.mac",
        "reference/codes.md",
        "reference/format.md",
        "reference/names-melee.md",
        "reference/names-melee_house.md",
        "site-author/.nojekyll",
        "site-author/index.html",
        "site-gm/.nojekyll",
        "site-gm/index.html",
        "site/.nojekyll",
        "site/index.html",
    ]
)


def stand_ruleset(root: Path, id: str) -> SimpleNamespace:
    """A ruleset as the PDFs' input key reads it: one file of its own."""
    path = root / "rules_src" / id / "ruleset.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text(f"{id}: 1\n")
    return SimpleNamespace(id=id, files=(f"rules_src/{id}/ruleset.yaml",), mechanics=(), sources={}, base=None)


def edit(root: Path, id: str) -> None:
    """Change a ruleset's file, as an author does before its PDFs' pages change."""
    path = root / "rules_src" / id / "ruleset.yaml"
    path.write_text(path.read_text() + "# edited\n")


class Stand:
    """Stands in for the checked project and every renderer; notes what each build asked of them.
    ``html`` holds what a PDF's page would be: change one to change that PDF's key."""

    def __init__(self, root: Path, folder: Path):
        self.folder, self.pdfs, self.sites, self.downloads = folder, [], [], {}
        self.project = SimpleNamespace(
            root=root, rulesets=[stand_ruleset(root, "melee"), stand_ruleset(root, "melee_house")], house_results=dict
        )  # no overlay example changed
        self.html: dict[str, str] = {}
        self.site_version = {"player": 1, "gm": 1, "author": 1}
        self.tasks, self.workers, self.site_args, self.site_projects, self.keyed, self.progress = [], [], [], [], [], []

    def checker(self, root):
        assert root == self.project.root
        return SimpleNamespace(ok=True, diagnostics=Diagnostics(), project=self.project), []

    def _job(self, folder: Path, name: str) -> PdfJob:
        html = self.html.get(name, f"<p>{name}</p>")
        return PdfJob(html=html, target=folder / name, base_dir=self.project.root / "templates")

    def sheet_jobs(self, project, folder, rulesets=None):
        return [
            self._job(folder, f"{r.id}-{name}.pdf")
            for r in project.rulesets
            for name in SHEETS
            if rulesets is None or r.id in rulesets
        ]

    def handout_jobs(self, project, folder, audience, rulesets=None):
        names = HANDOUTS if audience == "player" else GM_HANDOUTS
        return [
            self._job(folder, f"{r.id}-{name}.pdf")
            for r in project.rulesets
            for name in names
            if rulesets is None or r.id in rulesets
        ]

    def site_inputs_key(self, audience, *rest) -> str:
        """The real key of what a site is made from, with this stand-in site's version: a new version stands for a
        change of the rules it is made from."""
        return f"{REAL_SITE_INPUTS_KEY(audience, *rest)} {self.site_version[audience]}"

    def site_key(self, project, audience, downloads, code, pages=None):
        self.keyed.append(project)
        return f"{audience} {self.site_version[audience]} {code} {sorted(downloads.items())}"

    def run_tasks(self, tasks, workers, advance, walled=None):
        self.workers.append(workers)
        results = []
        for index, (function, args) in enumerate(tasks):
            advance(index)
            if function is pipeline.workers.site_worker:  # a site in the pool: what serve's hook would build
                self.tasks.append(f"site {args[3]}")
                results.append(self.site(self.project, args))
                continue
            assert function is pipeline.plan.worker_render
            job, _root = args
            self.tasks.append(job.target.name)
            job.target.write_text(f"rendered {job.target.name}")
            self.pdfs.append(f"{job.target.parent.name}/{job.target.name}")
            results.append(None)
        return results

    def site(self, project, args):
        root, cache, html, audience, downloads, _pages = args[:6]  # and the house results, when an overlay has any
        self.sites.append(audience)
        self.site_args.append(args)
        self.site_projects.append(project)
        self.downloads[audience] = downloads
        outdir = self.folder / f"sphinx-{audience}"
        outdir.mkdir(parents=True, exist_ok=True)
        (outdir / "index.html").write_text(f"the {audience} site")
        (outdir / ".buildinfo").write_text("Sphinx's own")
        (outdir / ".doctrees").mkdir(exist_ok=True)
        (outdir / ".doctrees" / "index.doctree").write_text("Sphinx's own")
        return str(outdir)

    def export(self, project, out, audience="player"):
        out.mkdir(parents=True, exist_ok=True)
        written = [out / "ruleset.schema.json"]
        written += [out / f"{r.id}{'-gm' if audience == 'gm' else ''}.json" for r in project.rulesets]
        for path in written:
            path.write_text(f"{path.name} for {audience}")
        return written


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    (root / "rules_src").mkdir(parents=True)
    return root


@pytest.fixture
def renderers(project, tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    stand = Stand(project, tmp_path)
    monkeypatch.setattr(pipeline.plan, "run_tasks", stand.run_tasks)
    monkeypatch.setattr(pipeline.plan, "format_reference", lambda: "format")
    monkeypatch.setattr(pipeline.plan, "codes_reference", lambda: "codes")
    monkeypatch.setattr(pipeline.plan, "names_reference", lambda ruleset, root: f"names of {ruleset.id} in {root.name}")
    monkeypatch.setattr("generator.pipeline.plan.sheet_jobs", stand.sheet_jobs)
    monkeypatch.setattr("generator.pipeline.plan.handout_jobs", stand.handout_jobs)
    monkeypatch.setattr("generator.pipeline.plan.site_key", stand.site_key)
    monkeypatch.setattr("generator.pipeline.plan.dead_pdf_links", lambda project: [])  # rules with no text to link
    monkeypatch.setattr(pipeline.plan.keys, "site_inputs_key", stand.site_inputs_key)
    monkeypatch.setattr(
        "generator.pipeline.plan.site_pages", lambda project, audience, downloads=None: f"{audience} pages"
    )
    monkeypatch.setattr("generator.pipeline.build.export_json", stand.export)
    monkeypatch.setattr("generator.pipeline.plan.export_json", stand.export)  # a build writes anew an export it finds
    monkeypatch.setattr(pipeline.build, "check_with_examples", stand.checker)
    return stand


def build(root: Path, renderers: Stand, **options) -> int:
    renderers.pdfs.clear()
    renderers.sites.clear()
    return pipeline.build.run_build(
        *request_and_hooks(root, dict(site_builder=renderers.site, checker=renderers.checker), **options)
    )


def request_and_hooks(root: Path, hooks: dict, **options) -> tuple[BuildRequest, BuildHooks]:
    """A build's request and hooks from keyword arguments as the command line and serve give them."""
    hooks = {
        **hooks,
        **{name: options.pop(name) for name in ("site_builder", "checker", "index_later") if name in options},
    }
    if "only" in options:
        options["only"] = tuple(options["only"] or ())
    return BuildRequest(root, **options), BuildHooks(**hooks)


def files(folder: Path) -> list[str]:
    """The files under ``folder``, without the sites' own copies of the PDFs (`printouts/`: printouts())."""
    found = (p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    return sorted(name for name in found if "printouts" not in name.split("/")[:-1])


def printouts(root: Path) -> dict[str, dict[str, int]]:
    """Each site's copies of the PDFs it links (`printouts/sheets/...`), each with its file's identity."""
    found = {}
    for site in ("site", "site-gm", "site-author"):
        folder = root / "build" / site / "printouts"
        found[site] = {p.relative_to(folder).as_posix(): p.stat().st_ino for p in folder.rglob("*") if p.is_file()}
    return found


def manifest(root: Path) -> dict:
    return json.loads((root / "build" / ".manifest.json").read_text())


def set_keys(root: Path, **written) -> None:
    entries = manifest(root)
    for relative, key in written.items():
        entries[relative] = key
    pipeline.staging.write_manifest(root / "build", entries)


def inodes(root: Path) -> dict[str, int]:
    """The identity of every PDF and site page (the reference pages are written anew each build)."""
    return {
        name: (root / "build" / name).stat().st_ino
        for name in files(root / "build")
        if name.endswith((".pdf", ".html", ".json")) and name not in (".manifest.json", ".manifest.mac")
    }


def summary_line(out: str) -> str:
    return out.strip().split(" — ")[1].split(" (rendering")[0]


def builder(tmp_path, ids=("mini", "mini_two"), old=None, **options) -> pipeline.plan.Builder:
    request, _hooks = request_and_hooks(tmp_path, {}, **options)
    project = SimpleNamespace(root=tmp_path, rulesets=[SimpleNamespace(id=id) for id in ids])
    return pipeline.plan.Builder(project, tmp_path / "build", tmp_path / "staging", old or {}, request)
