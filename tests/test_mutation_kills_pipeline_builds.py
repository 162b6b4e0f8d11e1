"""Builds with the renderers stood in for, so mutation testing can afford them (issue 14).

`rulepress build` checks, plans every PDF by its key, carries over what it was not asked for,
stages and swaps; tests/test_pdf_builds.py and tests/test_pipeline.py run all of that with the
real rules model, WeasyPrint and Sphinx and take minutes. Here everything the pipeline calls out
to is replaced by a stand-in that notes what it was asked (the checker, the PDF jobs of each
kind, the site's key and builder, the reference pages, the worker pool, the exporter), so a build
takes milliseconds, reaches no model code, and every step of the pipeline around the renderers
runs for real: keys, carry-over, ``--ruleset``, ``--only`` and ``--audience`` selection, the
summary, the swap, the refusals. The file names are written out by hand.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

import generator.pipeline.build
import generator.pipeline.plan
import generator.pipeline.staging
import generator.pipeline.workers
from generator import keys, pipeline
from generator.pipeline.request import BuildHooks, BuildRequest
from generator.diagnostics import Code, Diagnostic, Diagnostics, Location
from generator.render.pdf import PdfJob, ResourceOutside
from generator.render.site.pages import SiteWarnings
from generator.render.site.search import SearchIndexError

SHEETS = ["quick-reference-a4", "quick-reference-letter", "wound-sheet-a4", "wound-sheet-letter"]
HANDOUTS = ["cards-a4", "cards-letter", "handout-a4", "handout-letter", "roster-a4", "roster-letter"]
GM_HANDOUTS = ["gm-notes-a4"]


def pdfs_of(ruleset: str, gm: bool = True) -> list[str]:
    return sorted([f"sheets/{ruleset}-{name}.pdf" for name in SHEETS]
                  + [f"handouts/{ruleset}-{name}.pdf" for name in HANDOUTS + (GM_HANDOUTS if gm else [])])


ALL_PDFS = sorted(pdfs_of("melee") + pdfs_of("melee_house"))
EVERY_FILE = sorted(ALL_PDFS + [".manifest.json", ".manifest.mac", "reference/codes.md", "reference/format.md",
                                "reference/names-melee.md", "reference/names-melee_house.md",
                                "site-gm/index.html", "site/index.html"])


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
        self.project = SimpleNamespace(root=root, rulesets=[stand_ruleset(root, "melee"), stand_ruleset(root, "melee_house")],
                                       house_results=dict)  # no overlay example changed
        self.html: dict[str, str] = {}
        self.site_version = {"player": 1, "gm": 1}
        self.tasks, self.workers, self.site_args, self.site_projects, self.keyed, self.progress = [], [], [], [], [], []

    def checker(self, root):
        assert root == self.project.root
        return SimpleNamespace(ok=True, diagnostics=Diagnostics(), project=self.project), []

    def _job(self, folder: Path, name: str) -> PdfJob:
        html = self.html.get(name, f"<p>{name}</p>")
        return PdfJob(html=html, target=folder / name, base_dir=self.project.root / "templates")

    def sheet_jobs(self, project, folder, rulesets=None):
        return [self._job(folder, f"{r.id}-{name}.pdf") for r in project.rulesets for name in SHEETS
                if rulesets is None or r.id in rulesets]

    def handout_jobs(self, project, folder, audience, rulesets=None):
        names = HANDOUTS if audience == "player" else GM_HANDOUTS
        return [self._job(folder, f"{r.id}-{name}.pdf") for r in project.rulesets for name in names
                if rulesets is None or r.id in rulesets]

    def site_key(self, project, audience, downloads, code, pages=None):
        self.keyed.append(project)
        return f"{audience} {self.site_version[audience]} {code} {sorted(downloads.items())}"

    def run_tasks(self, tasks, workers, advance, walled=None):
        self.workers.append(workers)
        results = []
        for function, args in tasks:
            advance()
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
    monkeypatch.setattr("generator.pipeline.plan.site_pages", lambda project, audience, downloads=None: f"{audience} pages")
    monkeypatch.setattr("generator.pipeline.build.export_json", stand.export)
    monkeypatch.setattr(pipeline.build, "check_project", lambda root: stand.checker(root)[0])
    return stand


def build(root: Path, renderers: Stand, **options) -> int:
    renderers.pdfs.clear()
    renderers.sites.clear()
    return pipeline.build.run_build(*request_and_hooks(root, dict(site_builder=renderers.site, checker=renderers.checker),
                                                       **options))


def request_and_hooks(root: Path, hooks: dict, **options) -> tuple[BuildRequest, BuildHooks]:
    """A build's request and hooks from keyword arguments as the command line and serve give them."""
    hooks = {**hooks, **{name: options.pop(name) for name in ("site_builder", "checker", "index_later") if name in options}}
    if "only" in options:
        options["only"] = tuple(options["only"] or ())
    return BuildRequest(root, **options), BuildHooks(**hooks)


def files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def manifest(root: Path) -> dict:
    return json.loads((root / "build" / ".manifest.json").read_text())


def set_keys(root: Path, **keys) -> None:
    entries = manifest(root)
    for relative, key in keys.items():
        entries[relative] = key
    pipeline.staging.write_manifest(root / "build", entries)


def inodes(root: Path) -> dict[str, int]:
    """The identity of every PDF and site page (the reference pages are written anew each build)."""
    return {name: (root / "build" / name).stat().st_ino for name in files(root / "build")
            if name.endswith((".pdf", ".html", ".json")) and name not in (".manifest.json", ".manifest.mac")}


def summary_line(out: str) -> str:
    return out.strip().split(" — ")[1].split(" (rendering")[0]


def test_a_first_build_renders_every_pdf_and_both_sites(project, renderers, capsys):
    assert build(project, renderers) == 0
    assert sorted(renderers.pdfs) == ALL_PDFS
    assert renderers.sites == ["player", "gm"]
    assert files(project / "build") == EVERY_FILE
    inputs = [f"{kind}/.inputs-{id}" for kind in ("sheets", "handouts") for id in ("melee", "melee_house")]
    assert sorted(manifest(project)) == sorted(ALL_PDFS + inputs + ["site/", "site-gm/"])
    assert (project / "build" / "sheets" / "melee-wound-sheet-a4.pdf").read_text() == "rendered melee-wound-sheet-a4.pdf"
    assert (project / "build" / "site-gm" / "index.html").read_text() == "the gm site"
    assert (project / "build" / "reference" / "names-melee_house.md").read_text() == "names of melee_house in project"
    assert (project / "build" / "reference" / "format.md").read_text() == "format"
    assert (project / "build" / "reference" / "codes.md").read_text() == "codes"
    out = capsys.readouterr().out
    assert out.startswith(f"built 2 rulesets into {project / 'build'} in ")
    assert summary_line(out) == "site: 2 written, 0 unchanged; sheets: 8 written, 0 unchanged; handouts: 14 written, 0 unchanged"
    assert sorted(p.name for p in project.iterdir()) == [".rulepress-cache", "build", "rules_src"]  # no staging left


def test_the_pdf_keys_are_the_documented_hashes(project, renderers):
    assert build(project, renderers) == 0
    job = PdfJob(html="<p>melee-cards-a4.pdf</p>", target=Path("x"), base_dir=project / "templates")
    assert manifest(project)["handouts/melee-cards-a4.pdf"] == keys.job_key(job, pipeline.plan.code_hash(), project)


def test_the_site_lists_each_rulesets_pdfs_by_title(project, renderers):
    assert build(project, renderers) == 0
    assert renderers.downloads["player"]["melee"] == [
        ("Quick reference (A4)", "sheets/melee-quick-reference-a4.pdf"),
        ("Quick reference (US Letter)", "sheets/melee-quick-reference-letter.pdf"),
        ("Wound sheet (A4)", "sheets/melee-wound-sheet-a4.pdf"),
        ("Wound sheet (US Letter)", "sheets/melee-wound-sheet-letter.pdf"),
        ("Cards (A4)", "handouts/melee-cards-a4.pdf"),
        ("Cards (US Letter)", "handouts/melee-cards-letter.pdf"),
        ("Gm notes (A4)", "handouts/melee-gm-notes-a4.pdf"),
        ("Handout (A4)", "handouts/melee-handout-a4.pdf"),
        ("Handout (US Letter)", "handouts/melee-handout-letter.pdf"),
        ("Roster (A4)", "handouts/melee-roster-a4.pdf"),
        ("Roster (US Letter)", "handouts/melee-roster-letter.pdf"),
    ]
    assert sorted(renderers.downloads["gm"]) == ["melee", "melee_house"]


def test_a_build_with_nothing_changed_renders_nothing_and_keeps_every_file(project, renderers, capsys):
    assert build(project, renderers) == 0
    before, keys = inodes(project), manifest(project)
    capsys.readouterr()
    assert build(project, renderers) == 0
    assert renderers.pdfs == [] and renderers.sites == []
    assert inodes(project) == before and manifest(project) == keys
    assert summary_line(capsys.readouterr().out) == \
        "site: 0 written, 2 unchanged; sheets: 0 written, 8 unchanged; handouts: 0 written, 14 unchanged"


def test_only_a_pdf_whose_page_changed_or_whose_file_is_gone_is_rendered_again(project, renderers, capsys):
    assert build(project, renderers) == 0
    keys = manifest(project)
    renderers.html["melee-wound-sheet-a4.pdf"] = "<p>a changed wound sheet</p>"
    edit(project, "melee")
    (project / "build" / "handouts" / "melee_house-roster-letter.pdf").unlink()
    capsys.readouterr()
    assert build(project, renderers) == 0
    assert sorted(renderers.pdfs) == ["handouts/melee_house-roster-letter.pdf", "sheets/melee-wound-sheet-a4.pdf"]
    assert manifest(project)["sheets/melee-wound-sheet-a4.pdf"] != keys["sheets/melee-wound-sheet-a4.pdf"]
    assert manifest(project)["handouts/melee_house-roster-letter.pdf"] == keys["handouts/melee_house-roster-letter.pdf"]
    assert renderers.sites == []  # the sites link the PDFs by name, and no name changed
    assert summary_line(capsys.readouterr().out).split("; ")[1:] == \
        ["sheets: 1 written, 7 unchanged", "handouts: 1 written, 13 unchanged"]


def test_a_changed_site_rebuilds_that_site_and_keeps_sphinx_files_out(project, renderers):
    assert build(project, renderers) == 0
    renderers.site_version["gm"] = 2
    assert build(project, renderers) == 0
    assert renderers.sites == ["gm"] and renderers.pdfs == []
    assert files(project / "build" / "site-gm") == ["index.html"]  # .buildinfo is Sphinx's, not the site's
    assert manifest(project)["site-gm/"].startswith("gm 2 ")


def test_a_site_whose_index_is_gone_is_rebuilt(project, renderers):
    assert build(project, renderers) == 0
    (project / "build" / "site" / "index.html").unlink()
    assert build(project, renderers) == 0
    assert renderers.sites == ["player"]


def test_a_sphinx_page_with_the_same_bytes_stays_the_previous_file(project, renderers):
    assert build(project, renderers) == 0
    page = inodes(project)["site/index.html"]
    renderers.site_version["player"] = 2
    assert build(project, renderers) == 0
    assert renderers.sites == ["player"] and inodes(project)["site/index.html"] == page


def test_ruleset_renders_only_its_own_pdfs_even_when_another_id_starts_with_it(project, renderers):
    assert build(project, renderers, ruleset="melee") == 0
    assert sorted(renderers.pdfs) == pdfs_of("melee")
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == pdfs_of("melee")
    assert build(project, renderers, ruleset="melee_house") == 0
    assert sorted(renderers.pdfs) == pdfs_of("melee_house")
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == ALL_PDFS  # melee's carried over


def test_ruleset_carries_the_other_rulesets_pdfs_with_their_keys(project, renderers):
    assert build(project, renderers) == 0
    set_keys(project, **{"sheets/melee-wound-sheet-a4.pdf": "stale", "sheets/melee_house-wound-sheet-a4.pdf": "stale",
                         "sheets/.inputs-melee": "stale"})
    kept = inodes(project)["sheets/melee_house-wound-sheet-a4.pdf"]
    assert build(project, renderers, ruleset="melee") == 0
    assert renderers.pdfs == ["sheets/melee-wound-sheet-a4.pdf"]
    assert inodes(project)["sheets/melee_house-wound-sheet-a4.pdf"] == kept
    assert manifest(project)["sheets/melee_house-wound-sheet-a4.pdf"] == "stale"  # its key as the build that made it
    assert manifest(project)["sheets/melee-wound-sheet-a4.pdf"] != "stale"


def test_only_sheets_keeps_the_handouts_and_sites_as_they_were(project, renderers, capsys):
    assert build(project, renderers) == 0
    set_keys(project, **{"sheets/melee-wound-sheet-a4.pdf": "stale", "handouts/melee-cards-a4.pdf": "stale",
                         "site/": "stale", "sheets/.inputs-melee": "stale", "handouts/.inputs-melee": "stale"})
    before = inodes(project)
    capsys.readouterr()
    assert build(project, renderers, only=["sheets"]) == 0
    assert renderers.pdfs == ["sheets/melee-wound-sheet-a4.pdf"] and renderers.sites == []
    after = inodes(project)
    assert files(project / "build") == EVERY_FILE
    assert {name: ino for name, ino in after.items() if name != "sheets/melee-wound-sheet-a4.pdf"} == \
        {name: ino for name, ino in before.items() if name != "sheets/melee-wound-sheet-a4.pdf"}
    assert manifest(project)["handouts/melee-cards-a4.pdf"] == "stale"
    assert summary_line(capsys.readouterr().out) == \
        "site: 0 written, 2 unchanged; sheets: 1 written, 7 unchanged; handouts: 0 written, 14 unchanged"


def test_the_player_audience_makes_player_pdfs_and_keeps_the_gm_ones(project, renderers):
    assert build(project, renderers) == 0
    set_keys(project, **{"site/": "stale", "site-gm/": "stale", "handouts/melee-gm-notes-a4.pdf": "stale",
                         "handouts/melee-cards-a4.pdf": "stale"})
    before = inodes(project)
    assert build(project, renderers, audience="player") == 0
    assert renderers.sites == ["player"] and renderers.pdfs == ["handouts/melee-cards-a4.pdf"]
    after = inodes(project)
    assert after["site-gm/index.html"] == before["site-gm/index.html"]
    assert after["handouts/melee-gm-notes-a4.pdf"] == before["handouts/melee-gm-notes-a4.pdf"]
    assert manifest(project)["handouts/melee-gm-notes-a4.pdf"] == "stale"


def test_a_site_left_out_by_audience_or_only_keeps_its_key_so_the_next_full_build_reuses_it(project, renderers):
    assert build(project, renderers) == 0
    keys = {name: manifest(project)[name] for name in ("site/", "site-gm/")}
    assert build(project, renderers, audience="player") == 0
    assert manifest(project)["site-gm/"] == keys["site-gm/"]
    assert build(project, renderers, only="sheets") == 0
    assert {name: manifest(project)[name] for name in keys} == keys
    renderers.sites.clear()
    assert build(project, renderers) == 0
    assert renderers.sites == []


def test_the_gm_audience_makes_gm_pdfs_and_keeps_the_player_ones(project, renderers):
    assert build(project, renderers) == 0
    set_keys(project, **{"handouts/melee-gm-notes-a4.pdf": "stale", "handouts/melee-cards-a4.pdf": "stale"})
    assert build(project, renderers, audience="gm") == 0
    assert renderers.pdfs == ["handouts/melee-gm-notes-a4.pdf"]
    assert manifest(project)["handouts/melee-cards-a4.pdf"] == "stale"


def test_a_project_without_rulesets_builds_its_reference_pages(project, renderers):
    renderers.project.rulesets = []
    assert build(project, renderers, only=["sheets"]) == 0
    assert files(project / "build") == [".manifest.json", ".manifest.mac", "reference/codes.md", "reference/format.md"]
    assert manifest(project) == {}


def test_a_build_keeps_what_export_wrote(project, renderers, capsys):
    assert pipeline.build.run_export(BuildRequest(project, out=None, audience="player")) == 0
    assert capsys.readouterr().out == "".join(f"wrote {project / 'build' / 'export' / name}\n"
                                              for name in ("ruleset.schema.json", "melee.json", "melee_house.json"))
    assert build(project, renderers) == 0
    assert files(project / "build" / "export") == ["melee.json", "melee_house.json", "ruleset.schema.json"]
    before = inodes(project)
    assert pipeline.build.run_export(BuildRequest(project, out=None, audience="gm")) == 0
    assert files(project / "build" / "export") == [
        "melee-gm.json", "melee.json", "melee_house-gm.json", "melee_house.json", "ruleset.schema.json"]
    assert (project / "build" / "export" / "ruleset.schema.json").read_text() == "ruleset.schema.json for gm"
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == ALL_PDFS  # the build is kept whole
    assert {n: i for n, i in inodes(project).items() if n.endswith(".pdf")} == \
        {n: i for n, i in before.items() if n.endswith(".pdf")}  # linked, not copied
    assert json.loads((project / "build" / ".manifest.json").read_text())  # the build's manifest, not "{}"
    assert sorted(p.name for p in project.iterdir()) == [".rulepress-cache", "build", "rules_src"]


def test_export_into_its_own_folder_writes_at_the_top_with_a_manifest(project, renderers, tmp_path, capsys):
    out = tmp_path / "exported"
    assert pipeline.build.run_export(BuildRequest(project, out=out, audience="player")) == 0
    assert files(out) == [".manifest.json", "melee.json", "melee_house.json", "ruleset.schema.json"]
    assert (out / ".manifest.json").read_text() == "{}"
    assert capsys.readouterr().out.splitlines() == [f"wrote {out / name}" for name in
                                                    ("ruleset.schema.json", "melee.json", "melee_house.json")]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [".rulepress-cache"]  # no staging


def test_export_into_a_new_nested_build_folder(project, renderers):
    assert pipeline.build.run_export(BuildRequest(project, out=None, audience="gm")) == 0
    assert files(project / "build") == [".manifest.json", "export/melee-gm.json", "export/melee_house-gm.json",
                                        "export/ruleset.schema.json"]


def test_export_of_broken_rules_fails_and_writes_nothing(project, renderers, monkeypatch, capsys):
    broken = Diagnostics()
    for line in (1, 2):
        broken.add(Code.YAML_SYNTAX, "bad", Location("rules_src/x/ruleset.yaml", line))
    monkeypatch.setattr(pipeline.build, "check_project", lambda root: SimpleNamespace(ok=False, diagnostics=broken))
    assert pipeline.build.run_export(BuildRequest(project, out=None, audience="player")) == 1
    assert capsys.readouterr().err == "".join(d.format() + "\n" for d in broken) + \
        f"export failed: 2 errors; {project / 'build'} is left as it was\n"
    assert not (project / "build").exists()


def test_an_export_that_fails_halfway_leaves_no_staging_behind(project, renderers, monkeypatch, capsys):
    assert build(project, renderers) == 0
    before = inodes(project)

    def full(project, out, audience="player"):
        out.mkdir(exist_ok=True)
        (out / "half.json").write_text("{")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("generator.pipeline.build.export_json", full)
    assert pipeline.build.run_export(BuildRequest(project, out=None, audience="player")) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert inodes(project) == before
    assert sorted(p.name for p in project.iterdir()) == [".rulepress-cache", "build", "rules_src"]


def test_a_builder_whose_arguments_name_no_audience_makes_both(tmp_path):
    project = SimpleNamespace(root=tmp_path, rulesets=[SimpleNamespace(id="mini")])
    made = pipeline.plan.Builder(project, tmp_path / "build", tmp_path / "staging", {}, BuildRequest(tmp_path))
    assert made.audiences() == ["player", "gm"] and made.workers is None
    assert made._carry_pdf("handouts/mini-gm-cards-a4.pdf") is False


def _failing_site(error):
    def site(project, args):
        raise error
    return site


@pytest.mark.parametrize("error, message", [
    (SiteWarnings("index.md:3: WARNING: bad"), "index.md:3: WARNING: bad\nbuild failed: the site build warned"),
    (SearchIndexError("pagefind broke"), "error: pagefind broke\nbuild failed: no search index"),
    (ResourceOutside([Diagnostic(Code.RESOURCE_OUTSIDE, "/etc/x", Location("templates/a.css", 2))]),
     "templates/a.css:2:1: error[resource-outside]: /etc/x\n  hint: use a file inside the project\nbuild failed"),
])
def test_a_failing_render_leaves_the_previous_build_as_it_was(project, renderers, capsys, error, message):
    assert build(project, renderers) == 0
    set_keys(project, **{"site/": "stale"})
    before, keys = inodes(project), manifest(project)
    capsys.readouterr()
    assert build(project, renderers, site_builder=_failing_site(error)) == 1
    assert capsys.readouterr().err == f"{message}; {project / 'build'} is left as it was\n"
    assert inodes(project) == before and manifest(project) == keys
    assert sorted(p.name for p in project.iterdir()) == [".rulepress-cache", "build", "rules_src"]


def test_a_failed_worked_example_fails_the_build(project, renderers, capsys):
    failure = Diagnostic(Code.EXAMPLE_FAILED, "expected 2, got 3", Location("rules_src/x/ruleset.yaml", 4, 1))

    def checker(root):
        return SimpleNamespace(ok=True, diagnostics=Diagnostics(), project=None), [failure]

    assert build(project, renderers, checker=checker) == 1
    assert capsys.readouterr().err == (f"{failure.format()}\n"
                                       f"build failed: 1 error; {project / 'build'} is left as it was\n")
    assert not (project / "build").exists()


# -- the builder's choices, on a project stood in for ------------------------------------------

def builder(tmp_path, ids=("mini", "mini_two"), old=None, **options) -> pipeline.plan.Builder:
    request, _hooks = request_and_hooks(tmp_path, {}, **options)
    project = SimpleNamespace(root=tmp_path, rulesets=[SimpleNamespace(id=id) for id in ids])
    return pipeline.plan.Builder(project, tmp_path / "build", tmp_path / "staging", old or {}, request)


def test_a_pdf_belongs_to_the_longest_ruleset_id_it_starts_with(tmp_path):
    choose = builder(tmp_path)
    assert choose.owner("mini_two-sheet-a4.pdf") == "mini_two"
    assert choose.owner("mini-sheet-a4.pdf") == "mini"
    assert choose.owner("mini.pdf") == "" and choose.owner("minis-sheet.pdf") == ""
    assert builder(tmp_path, ids=("mini_two", "mini")).owner("mini_two-x.pdf") == "mini_two"


def test_the_builder_starts_from_the_arguments(tmp_path):
    made = builder(tmp_path, jobs=3)
    assert (made.root, made.workers, made.manifest, made.summary.line()) == (tmp_path, 3, {}, "")
    assert made.code == pipeline.plan.code_hash()
    assert builder(tmp_path).audiences() == ["player", "gm"]
    assert builder(tmp_path, audience="gm").audiences() == ["gm"]
    assert builder(tmp_path).wanted("sheets") and builder(tmp_path, only=[]).wanted("sheets")
    assert builder(tmp_path, only=["site"]).wanted("site") and not builder(tmp_path, only=["site"]).wanted("sheets")
    assert builder(tmp_path, ids=(), only=["x"]).workers is None


def test_a_pdf_is_carried_only_when_this_build_did_not_mean_to_make_it(tmp_path):
    assert builder(tmp_path)._carry_pdf("sheets/mini-a4.pdf") is False
    assert builder(tmp_path, only=["handouts"])._carry_pdf("sheets/mini-a4.pdf") is True
    assert builder(tmp_path, only=["sheets"])._carry_pdf("sheets/mini-a4.pdf") is False
    assert builder(tmp_path, audience="player")._carry_pdf("handouts/mini-gm-cards-a4.pdf") is True
    assert builder(tmp_path, audience="player")._carry_pdf("handouts/mini-cards-a4.pdf") is False
    assert builder(tmp_path, audience="gm")._carry_pdf("handouts/mini-cards-a4.pdf") is True
    assert builder(tmp_path, audience="gm")._carry_pdf("handouts/mini-gm-cards-a4.pdf") is False
    assert builder(tmp_path, ruleset="mini")._carry_pdf("sheets/mini_two-a4.pdf") is True
    assert builder(tmp_path, ruleset="mini")._carry_pdf("sheets/mini-a4.pdf") is False


def test_carry_keeps_files_this_build_did_not_make_and_counts_them(tmp_path):
    made = builder(tmp_path, old={"export/a.json": "k"})
    (tmp_path / "build" / "export" / "deep").mkdir(parents=True)
    (tmp_path / "build" / "export" / "a.json").write_text("a")
    (tmp_path / "build" / "export" / "deep" / "b.json").write_text("b")
    (tmp_path / "build" / "export" / "skip.json").write_text("s")
    (tmp_path / "staging" / "export").mkdir(parents=True)
    (tmp_path / "staging" / "export" / "new.json").write_text("new")
    (tmp_path / "build" / "export" / "new.json").write_text("old")
    made.carry("export", skip={"export/skip.json"})
    assert files(tmp_path / "staging") == ["export/a.json", "export/deep/b.json", "export/new.json"]
    assert (tmp_path / "staging" / "export" / "new.json").read_text() == "new"
    assert os.path.samefile(tmp_path / "staging" / "export" / "a.json", tmp_path / "build" / "export" / "a.json")
    assert made.manifest == {"export/a.json": "k"} and made.summary.reused == {"export": 2}
    made.carry("site-gm")  # nothing there: nothing carried
    assert made.summary.reused == {"export": 2}


def test_carry_counts_a_gm_site_as_site(tmp_path):
    made = builder(tmp_path)
    (tmp_path / "build" / "site-gm").mkdir(parents=True)
    (tmp_path / "build" / "site-gm" / "index.html").write_text("gm")
    made.carry("site-gm")
    assert made.summary.reused == {"site": 1}


def test_carry_of_pdfs_keeps_only_those_not_meant_for_this_build(tmp_path):
    made = builder(tmp_path, ruleset="mini")
    (tmp_path / "build" / "sheets").mkdir(parents=True)
    for name in ("mini-a4.pdf", "mini_two-a4.pdf"):
        (tmp_path / "build" / "sheets" / name).write_text(name)
    made.carry("sheets")
    assert files(tmp_path / "staging") == ["sheets/mini_two-a4.pdf"] and made.summary.reused == {"sheets": 1}


def test_the_jobs_of_a_kind_follow_audience_and_ruleset(tmp_path, monkeypatch):
    def job(name):
        return PdfJob(html="", target=tmp_path / "staging" / "x" / name, base_dir=tmp_path)

    sheets = [job("mini-sheet-a4.pdf"), job("mini-gm-sheet-a4.pdf"), job("mini_two-sheet-a4.pdf")]
    asked = []
    monkeypatch.setattr("generator.pipeline.plan.sheet_jobs", lambda project, folder, rulesets=None: asked.append(folder) or sheets)
    monkeypatch.setattr("generator.pipeline.plan.handout_jobs",
                        lambda project, folder, audience, rulesets=None: asked.append((folder, audience)) or [job(f"mini-{audience}.pdf")])

    def names(made, kind):
        return [j.target.name for j in made.jobs(kind)]

    assert names(builder(tmp_path), "sheets") == ["mini-sheet-a4.pdf", "mini-gm-sheet-a4.pdf", "mini_two-sheet-a4.pdf"]
    assert asked == [tmp_path / "staging" / "sheets"]
    assert names(builder(tmp_path, audience="player"), "sheets") == ["mini-sheet-a4.pdf", "mini_two-sheet-a4.pdf"]
    assert names(builder(tmp_path, audience="gm"), "sheets") == ["mini-sheet-a4.pdf", "mini-gm-sheet-a4.pdf", "mini_two-sheet-a4.pdf"]
    assert names(builder(tmp_path, ruleset="mini_two"), "sheets") == ["mini_two-sheet-a4.pdf"]
    asked.clear()
    assert names(builder(tmp_path), "handouts") == ["mini-player.pdf", "mini-gm.pdf"]
    assert asked == [(tmp_path / "staging" / "handouts", "player"), (tmp_path / "staging" / "handouts", "gm")]
    assert names(builder(tmp_path, ruleset="mini_two"), "handouts") == []


def test_downloads_name_staged_and_coming_pdfs_by_owner(tmp_path):
    made = builder(tmp_path)
    (tmp_path / "staging" / "sheets").mkdir(parents=True)
    (tmp_path / "staging" / "sheets" / "mini_two-wound-sheet-letter.pdf").write_text("staged")
    (tmp_path / "staging" / "sheets" / "notes.txt").write_text("not a pdf")
    coming = [tmp_path / "staging" / "handouts" / "mini-cards-a4.pdf", tmp_path / "staging" / "handouts" / "general.pdf",
              tmp_path / "elsewhere" / "mini-x.pdf"]
    assert made.downloads(coming) == {
        "mini_two": [("Wound sheet (US Letter)", "sheets/mini_two-wound-sheet-letter.pdf")],
        "mini": [("Cards (A4)", "handouts/mini-cards-a4.pdf")],
        "": [("General", "handouts/general.pdf")],
    }


# -- what the builder hands the renderers, and what it writes around them ------------------------

def test_the_manifest_is_sorted_json_one_space_deep(project, renderers):
    renderers.project.rulesets = []
    assert build(project, renderers, only=["site"]) == 0
    keys = manifest(project)
    assert (project / "build" / ".manifest.json").read_text() == \
        '{\n "site-gm/": "%s",\n "site/": "%s"\n}' % (keys["site-gm/"], keys["site/"])


def test_the_build_and_rendering_times_are_real_seconds(project, renderers, capsys):
    import re

    assert build(project, renderers) == 0
    out = capsys.readouterr().out
    took = re.fullmatch(r"built 2 rulesets into .* in (\d+\.\d)s — .* \(rendering (\d+\.\d)s\)\n", out)
    assert took and float(took.group(1)) < 600 and float(took.group(2)) < 600


def test_without_serves_hook_sites_go_to_the_pool_first_then_the_longest_pdfs(project, renderers):
    renderers.html.update({"melee-roster-a4.pdf": "<p>" + "long " * 50 + "</p>",
                           "melee_house-cards-letter.pdf": "<p>" + "longer " * 60 + "</p>"})
    assert pipeline.build.run_build(BuildRequest(project, jobs=3), BuildHooks(checker=renderers.checker)) == 0
    assert renderers.tasks[:4] == ["site player", "site gm", "melee_house-cards-letter.pdf", "melee-roster-a4.pdf"]
    assert len(renderers.tasks) == 2 + len(ALL_PDFS) and renderers.workers == [3]
    assert files(project / "build" / "site") == ["index.html"]  # neither .buildinfo nor .doctrees
    assert (project / "build" / "site" / "index.html").read_text() == "the player site"


def test_the_site_builder_is_given_the_project_its_cache_and_its_html_folder(project, renderers):
    assert build(project, renderers, audience="gm") == 0
    cache = pipeline.plan.site_cache(project, project / "build", "site-gm")
    assert renderers.site_projects == [renderers.project] and renderers.keyed == [renderers.project]
    root, cache_dir, html, audience, downloads, pages, house_results = renderers.site_args[0]
    assert pages == "gm pages" and house_results == {}
    assert (root, cache_dir, html, audience) == (str(project), str(cache), str(cache.with_name("site-gm-html")), "gm")
    assert manifest(project)["site-gm/"].startswith(f"gm 1 {pipeline.plan.code_hash()} ")
    assert files(project / "build" / "site-gm") == ["index.html"]


def test_only_the_site_builds_the_sites_and_carries_every_pdf(project, renderers):
    assert build(project, renderers) == 0
    set_keys(project, **{"site/": "stale", "sheets/melee-wound-sheet-a4.pdf": "stale"})
    assert build(project, renderers, only=["site"]) == 0
    assert renderers.sites == ["player"] and renderers.pdfs == []
    assert manifest(project)["sheets/melee-wound-sheet-a4.pdf"] == "stale"


def test_a_kind_asked_for_and_made_of_nothing_still_shows_in_the_summary(project, renderers, capsys):
    renderers.project.rulesets = []
    assert build(project, renderers, only=["sheets"]) == 0
    assert summary_line(capsys.readouterr().out) == "sheets: 0 written, 0 unchanged"


def test_the_gm_audience_rerenders_a_changed_sheet_and_never_carries_its_old_file(project, renderers, capsys):
    assert build(project, renderers) == 0
    old_page = project / "build" / "sheets" / "melee-wound-sheet-a4.pdf"
    old_inode = old_page.stat().st_ino
    renderers.html["melee-wound-sheet-a4.pdf"] = "<p>a changed wound sheet</p>"
    edit(project, "melee")
    capsys.readouterr()
    assert build(project, renderers, audience="gm") == 0
    assert renderers.pdfs == ["sheets/melee-wound-sheet-a4.pdf"]
    assert summary_line(capsys.readouterr().out).split("; ")[1] == "sheets: 1 written, 7 unchanged"
    assert (project / "build" / "sheets" / "melee-wound-sheet-a4.pdf").stat().st_ino != old_inode


def test_the_progress_bar_counts_every_task(project, renderers, monkeypatch):
    from contextlib import contextmanager

    shown = []

    @contextmanager
    def progress(description, total):
        shown.append((description, total))
        yield lambda *_: None

    monkeypatch.setattr(pipeline.plan, "progress", progress)
    assert build(project, renderers, only=["sheets"]) == 0
    assert shown == [("building", 8)]


def test_a_pdf_belongs_to_the_longest_id_even_when_ids_hold_dashes(tmp_path):
    choose = builder(tmp_path, ids=("a", "a-b", "a-b-c"))
    assert choose.owner("a-b-c-sheet.pdf") == "a-b-c" and choose.owner("a-b-sheet.pdf") == "a-b"
    assert choose.owner("a-sheet.pdf") == "a"
    assert builder(tmp_path, ids=("a-b", "a")).owner("a-b-x.pdf") == "a-b"


def test_jobs_without_an_audience_argument_keep_every_sheet(tmp_path, monkeypatch):
    job = PdfJob(html="", target=tmp_path / "staging" / "sheets" / "mini-gm-notes-a4.pdf", base_dir=tmp_path)
    monkeypatch.setattr("generator.pipeline.plan.sheet_jobs", lambda project, folder, rulesets=None: [job])
    project = SimpleNamespace(root=tmp_path, rulesets=[SimpleNamespace(id="mini")])
    made = pipeline.plan.Builder(project, tmp_path / "build", tmp_path / "staging", {}, BuildRequest(tmp_path))
    assert made.jobs("sheets") == [job]


def test_a_pdf_this_build_no_longer_makes_is_dropped_unless_it_was_not_asked_for(project, renderers):
    assert build(project, renderers) == 0
    for stale in ("sheets/melee-old-a4.pdf", "handouts/melee-old-a4.pdf", "handouts/melee-older-a4.pdf"):
        (project / "build" / stale).write_text("from a sheet since removed")
    assert build(project, renderers, ruleset="melee_house") == 0  # melee's were not asked for: kept
    assert {"sheets/melee-old-a4.pdf", "handouts/melee-old-a4.pdf", "handouts/melee-older-a4.pdf"} <= \
        set(files(project / "build"))
    assert build(project, renderers) == 0  # everything asked for: what no job makes is gone
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == ALL_PDFS
