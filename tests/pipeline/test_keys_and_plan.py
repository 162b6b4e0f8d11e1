"""How a build plans its work: the code hash, each PDF's key and the files it follows, the per-ruleset input key,
the site keys, and the builder's plan (which PDF belongs to which ruleset, what is made, what is carried over).
On folders and pages made by hand, with every renderer stood in for."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from types import SimpleNamespace

from stand_ins import ALL_PDFS, build, builder, files, manifest, stand_ruleset

import generator.pipeline.plan  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.staging  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import __version__, keys, pipeline
from generator.pipeline.request import BuildRequest
from generator.render.assets import default_templates
from generator.render.pdf import PdfJob, RowFill


def test_the_site_cache_is_one_folder_per_out_folder_inside_the_project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    digest = hashlib.sha256(str(out).encode()).hexdigest()[:16]
    assert (
        pipeline.plan.site_cache(Path("."), Path("out"), "site-gm")
        == tmp_path / ".rulepress-cache" / f"out-{digest}" / "site-gm"
    )
    assert pipeline.plan.site_cache(tmp_path, tmp_path / "other", "site") != pipeline.plan.site_cache(
        tmp_path, out, "site"
    )


def test_the_code_hash_starts_with_the_version():
    code = pipeline.plan.code_hash()
    assert code.startswith(f"{__version__}-") and len(code) > len(__version__) + 8


def _job(tmp_path: Path, html: str, stylesheets=(), fit=(), base=None) -> PdfJob:
    return PdfJob(
        html=html,
        target=tmp_path / "out.pdf",
        base_dir=base or tmp_path / "templates",
        stylesheets=tuple(stylesheets),
        fit=tuple(fit),
    )


def test_the_pdf_key_hashes_code_html_fit_and_stylesheets_in_that_order(tmp_path):
    sheet = tmp_path / "plain.css"
    sheet.write_text("p { color: black }")
    job = _job(tmp_path, "<p>x</p>", [sheet], fit=["a", "b"])
    expected = hashlib.sha256(b"code-1")
    for part in (b"<p>x</p>", b"\0fit\0a", b"\0fit\0b", b"p { color: black }"):
        expected.update(part)
    assert keys.job_key(job, "code-1", tmp_path) == expected.hexdigest()


def test_the_pdf_key_hashes_how_rows_grow_and_the_tighter_layouts_after_the_fit(tmp_path):
    """A one-page sheet whose rows fill the room left, or a document laid out tighter, prints otherwise than the same
    HTML laid out as it is: each is part of its key, after the fitted texts and before the stylesheets."""
    fill = RowFill(selector=".row", rows=3, height_mm=6.0, most_mm=12.0)
    job = PdfJob(
        html="<p>x</p>", target=tmp_path / "out.pdf", base_dir=tmp_path, fit=("a",), fill=fill, tighter=("t1", "t2")
    )
    expected = hashlib.sha256(b"code-1")
    for part in (b"<p>x</p>", b"\0fit\0a", b"\0fill\0" + repr(fill).encode(), b"\0tighter\0t1", b"\0tighter\0t2"):
        expected.update(part)
    assert keys.job_key(job, "code-1", tmp_path) == expected.hexdigest()


def test_the_site_key_changes_with_each_thing_a_site_is_made_from():
    made_from = {
        "audience": "player",
        "epoch": "1700000000",
        "rulesets": ["a", "b"],
        "settings": b"site: x",
        "downloads": ["a-cards.pdf"],
        "house": "a_house",
        "templates": b"page.html",
    }
    other = {
        "audience": "gm",
        "epoch": "1700000001",
        "rulesets": ["a"],
        "settings": b"site: y",
        "downloads": ["a-cards.pdf", "b-cards.pdf"],
        "house": "",
        "templates": b"page.html changed",
    }
    each = [keys.site_inputs_key(**made_from)]
    each += [keys.site_inputs_key(**(made_from | {name: other[name]})) for name in made_from]
    assert len(set(each)) == len(made_from) + 1


def test_a_files_digest_is_the_sha256_of_its_bytes_read_again_once_they_change(tmp_path):
    one, other = tmp_path / "one.yaml", tmp_path / "other.yaml"
    one.write_bytes(b"title: One\n")
    other.write_bytes(b"title: Another\n")
    assert keys.file_digest(one) == hashlib.sha256(b"title: One\n").hexdigest()
    assert keys.file_digest(other) == hashlib.sha256(b"title: Another\n").hexdigest()
    assert keys.file_digest(one) == hashlib.sha256(b"title: One\n").hexdigest()  # asked again, still its own
    one.write_bytes(b"title: One, changed\n")
    os.utime(one, ns=(1, 1))  # another time too, though a size alone tells it
    assert keys.file_digest(one) == hashlib.sha256(b"title: One, changed\n").hexdigest()


def test_a_rulesets_printed_key_changes_with_each_thing_it_prints_from():
    """`rules_key`: the ruleset's key, the templates, its rules' date and the project's settings."""
    parts = ("ruleset-key", b"templates", "2026-12-06", b"site: {name: Club}")
    base = keys.rules_key(*parts)
    assert keys.rules_key(*parts) == base
    changed = [
        ("another-key", b"templates", "2026-12-06", b"site: {name: Club}"),
        ("ruleset-key", b"other templates", "2026-12-06", b"site: {name: Club}"),
        ("ruleset-key", b"templates", "2026-12-07", b"site: {name: Club}"),
        ("ruleset-key", b"templates", "", b"site: {name: Club}"),
        ("ruleset-key", b"templates", "2026-12-06", b"site: {name: Another club}"),
        ("ruleset-key", b"templates", "2026-12-06", b""),
    ]
    found = [keys.rules_key(*other) for other in changed]
    assert base not in found and len(set(found)) == len(found)


def test_the_pdf_key_hashes_each_linked_asset_by_name_folder_and_bytes(tmp_path):
    (tmp_path / "templates").mkdir()
    logo = tmp_path / "templates" / "logo.png"
    logo.write_bytes(b"PNG1")
    job = _job(tmp_path, '<img src="logo.png"><img src="gone.png">')
    expected = hashlib.sha256(b"c")
    expected.update(job.html.encode())
    expected.update(b"gone.png\0default\0")
    expected.update(b"missing")
    expected.update(b"logo.png\0project\0")
    expected.update(b"PNG1")
    assert keys.job_key(job, "c", tmp_path) == expected.hexdigest()


def test_the_pdf_key_follows_what_the_page_links_and_nothing_else(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "logo.png").write_bytes(b"PNG1")
    (tmp_path / "templates" / "unused.png").write_bytes(b"x")
    job = _job(tmp_path, '<img src="logo.png">')
    key = keys.job_key(job, "c", tmp_path)
    (tmp_path / "templates" / "unused.png").write_bytes(b"y")
    assert keys.job_key(job, "c", tmp_path) == key
    (tmp_path / "templates" / "logo.png").write_bytes(b"PNG2")
    assert keys.job_key(job, "c", tmp_path) != key


def test_a_link_the_key_cannot_name_makes_it_follow_every_asset(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "unused.png").write_bytes(b"x")
    job = _job(tmp_path, '<img src="https://example.org/a.png">')
    key = keys.job_key(job, "c", tmp_path)
    (tmp_path / "templates" / "unused.png").write_bytes(b"y")
    assert keys.job_key(job, "c", tmp_path) != key


def test_linked_assets_follows_src_link_href_url_and_imports(tmp_path):
    templates = tmp_path / "templates"
    (templates / "css").mkdir(parents=True)
    (templates / "css" / "main.css").write_text('@import "parts.css"; body { background: url(../paper.png) }')
    (templates / "css" / "parts.css").write_text("h1 { background: url('head.png#top') }")
    html = (
        '<img src="first.png"><img src="a.png?v=2"><link rel="stylesheet" href="css/main.css"><a '
        'href="not-fetched.html">x</a>'
        "<p style='x: url(\"b.png\")'></p>"
        '<img src="#place"><img src="data:image/png;base64,AAAA"><img src="a.png">'
    )
    job = _job(tmp_path, html)
    assert keys.linked_assets(job, tmp_path) == [
        "a.png",
        "b.png",
        "css/head.png",
        "css/main.css",
        "css/parts.css",
        "first.png",
        "paper.png",
    ]


def test_linked_assets_follows_the_stylesheets_given_beside_the_html(tmp_path):
    templates = tmp_path / "templates"
    (templates / "sheets").mkdir(parents=True)
    sheet = templates / "sheets" / "sheet.css"
    sheet.write_text("@import 'base.css';")
    (templates / "sheets" / "base.css").write_text("")
    job = _job(tmp_path, "<p>no links</p>", [sheet])
    assert keys.linked_assets(job, tmp_path) == ["sheets/base.css"]


def test_linked_assets_is_none_for_a_scheme_or_a_file_outside_the_templates(tmp_path):
    (tmp_path / "templates").mkdir()
    assert keys.linked_assets(_job(tmp_path, '<img src="file:///etc/passwd">'), tmp_path) is None
    assert keys.linked_assets(_job(tmp_path, '<img src="http://x/y.png">'), tmp_path) is None
    assert keys.linked_assets(_job(tmp_path, '<img src="../secret.png">'), tmp_path) is None
    assert keys.linked_assets(_job(tmp_path, '<img src="a/b:c.png">'), tmp_path) == ["a/b:c.png"]


def test_linked_assets_names_the_default_templates_too(tmp_path):
    job = _job(tmp_path, '<img src="x.png">', base=default_templates() / "sheets")
    assert keys.linked_assets(job, tmp_path) == ["sheets/x.png"]


def test_a_stylesheet_that_cannot_be_read_is_empty_text(tmp_path):
    assert keys._text(tmp_path / "missing.css") == ""
    (tmp_path / "bad.css").write_bytes(b"a\xffb")
    assert keys._text(str(tmp_path / "bad.css")) == "a\ufffdb"


# The per-ruleset input key, the templates digest and the site key, on builds with stand-in renderers.


def _record_jobs(renderers, monkeypatch) -> list:
    made = []

    def sheets(project, folder, rulesets=None):
        made.append(("sheets", sorted(rulesets)))
        return renderers.sheet_jobs(project, folder, rulesets)

    def handouts(project, folder, audience, rulesets=None):
        made.append(("handouts", sorted(rulesets)))
        return renderers.handout_jobs(project, folder, audience, rulesets)

    monkeypatch.setattr("generator.pipeline.plan.sheet_jobs", sheets)
    monkeypatch.setattr("generator.pipeline.plan.handout_jobs", handouts)
    return made


def test_an_unchanged_ruleset_keeps_its_pdfs_without_their_pages_being_made(project, renderers, monkeypatch, capsys):
    made = _record_jobs(renderers, monkeypatch)
    assert build(project, renderers) == 0
    assert made == [
        ("sheets", ["melee", "melee_house"]),
        ("handouts", ["melee", "melee_house"]),
        ("handouts", ["melee", "melee_house"]),
    ]  # the handouts once per audience
    keys = manifest(project)
    assert (
        len({keys[f"{kind}/.inputs-{id}"] for kind in ("sheets", "handouts") for id in ("melee", "melee_house")}) == 4
    )  # one a kind and ruleset
    assert all(
        len(keys[f"{kind}/.inputs-{id}"]) == 64 for kind in ("sheets", "handouts") for id in ("melee", "melee_house")
    )
    made.clear()
    capsys.readouterr()
    assert build(project, renderers) == 0
    assert made == [] and renderers.pdfs == []
    assert manifest(project) == keys
    assert (
        capsys.readouterr().out.split(" — ")[1].split(" (")[0]
        == "site: 0 written, 3 unchanged; sheets: 0 written, 8 unchanged; handouts: 0 written, 14 unchanged"
    )
    from stand_ins import edit

    edit(project, "melee_house")
    index = project / "build" / "site" / "index.html"
    before = index.stat().st_ino
    assert build(project, renderers) == 0
    assert made == [("sheets", ["melee_house"]), ("handouts", ["melee_house"]), ("handouts", ["melee_house"])]
    assert renderers.pdfs == []  # the pages came out the same: the PDFs are kept by their own keys
    # and so did the sites' pages, made again to be compared: each site is kept, its files linked, not copied
    assert capsys.readouterr().out.split(" — ")[1].startswith("site: 0 written, 3 unchanged;")
    assert index.stat().st_ino == before


def test_an_unchanged_project_keeps_its_sites_without_their_pages_being_made(project, renderers, monkeypatch):
    """A site's pages (calculators and their reasons the costliest) are made only when what they are made from
    changed: a ruleset's files, the project's settings, SOURCE_DATE_EPOCH, the generator."""
    made, making = [], pipeline.plan.site_pages  # the stand-ins' own, as the fixture set them

    def pages(project, audience, downloads=None):
        made.append(audience)
        return making(project, audience, downloads)

    monkeypatch.setattr("generator.pipeline.plan.site_pages", pages)
    assert build(project, renderers) == 0
    assert sorted(made) == ["author", "gm", "player"]
    keys = manifest(project)
    assert len({keys[f"{name}/.inputs"] for name in ("site", "site-gm", "site-author")}) == 3  # one an audience
    made.clear()
    assert build(project, renderers) == 0
    assert made == [] and manifest(project) == keys
    from stand_ins import edit

    edit(project, "melee_house")
    assert build(project, renderers) == 0
    assert sorted(made) == ["author", "gm", "player"]
    made.clear()
    (project / "rulepress.yaml").write_text("site:\n  name: Northfield club rules\n", encoding="utf-8")
    assert build(project, renderers) == 0
    assert sorted(made) == ["author", "gm", "player"]
    made.clear()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000")
    assert build(project, renderers) == 0
    assert sorted(made) == ["author", "gm", "player"]
    made.clear()
    assert build(project, renderers, audience="gm") == 0
    assert made == []  # only the game-master's asked for: it is unchanged, and the other two keep their keys
    assert build(project, renderers) == 0
    assert made == []
    monkeypatch.setattr(pipeline.plan, "code_hash", lambda: "a newer generator")
    assert build(project, renderers) == 0
    assert sorted(made) == ["author", "gm", "player"]  # a newer generator makes every page again


def test_a_new_source_date_epoch_or_generator_makes_every_page_again(project, renderers, monkeypatch):
    made = _record_jobs(renderers, monkeypatch)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000")
    assert build(project, renderers) == 0
    made.clear()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "2000")
    assert build(project, renderers) == 0
    assert made == [
        ("sheets", ["melee", "melee_house"]),
        ("handouts", ["melee", "melee_house"]),
        ("handouts", ["melee", "melee_house"]),
    ]
    made.clear()
    assert build(project, renderers) == 0
    assert made == []
    monkeypatch.setattr(pipeline.plan, "code_hash", lambda: "a newer generator")
    assert build(project, renderers) == 0
    assert sorted(renderers.pdfs) == ALL_PDFS


def test_the_input_key_reads_no_audience_from_arguments_that_name_none(tmp_path):
    ruleset = stand_ruleset(tmp_path, "mini")
    made = builder(tmp_path, ids=("mini",))
    bare = pipeline.plan.Builder(made.project, tmp_path / "build", tmp_path / "staging", {}, BuildRequest(tmp_path))
    assert bare.inputs_key("sheets", ruleset) == made.inputs_key("sheets", ruleset)
    assert builder(tmp_path, ids=("mini",), audience="gm").inputs_key("sheets", ruleset) != made.inputs_key(
        "sheets", ruleset
    )


def test_a_pdf_the_manifest_names_in_a_folder_of_its_ruleset_stays_with_it(project, renderers, monkeypatch):
    made = _record_jobs(renderers, monkeypatch)
    assert build(project, renderers) == 0
    extra = project / "build" / "sheets" / "melee-extra" / "notes.pdf"
    extra.parent.mkdir()
    extra.write_text("notes")
    keys = manifest(project)
    keys["sheets/melee-extra/notes.pdf"] = "by hand"
    keys["sheets/elsewhere/melee_house-x.pdf"] = "by hand, and gone"  # in no folder of a ruleset: no ruleset's PDF
    pipeline.staging.write_manifest(project / "build", keys)  # as this machine's build would have
    inode = extra.stat().st_ino
    made.clear()
    assert build(project, renderers) == 0
    assert made == [] and renderers.pdfs == []
    assert extra.read_text() == "notes" and extra.stat().st_ino == inode
    assert manifest(project)["sheets/melee-extra/notes.pdf"] == "by hand"


def test_a_pdf_no_longer_made_is_dropped_and_the_rest_still_carried(project, renderers):
    assert build(project, renderers) == 0
    (project / "build" / "sheets" / "melee_house-retired-a4.pdf").write_text("a sheet since removed")
    kept = project / "build" / "sheets" / "extra" / "melee-notes.pdf"  # read after every file beside it
    kept.parent.mkdir()
    kept.write_text("melee's")
    assert build(project, renderers, ruleset="melee_house") == 0
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == sorted(
        ALL_PDFS + ["sheets/extra/melee-notes.pdf"]
    )  # the retired sheet gone, melee's notes kept


def test_the_templates_digest_hashes_each_files_folder_name_and_bytes_once_a_build(tmp_path, monkeypatch):
    defaults = tmp_path / "defaults"
    (defaults / "fonts").mkdir(parents=True)
    (defaults / "sheet.css").write_text("body {}")
    (defaults / "fonts" / "a.woff").write_bytes(b"\0font")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "sheet.css").write_text("p {}")
    monkeypatch.setattr("generator.keys.default_templates", lambda: defaults)
    made = builder(tmp_path)
    expected = hashlib.sha256()
    for name, path in (
        ("project/sheet.css", tmp_path / "templates" / "sheet.css"),
        ("default/fonts/a.woff", defaults / "fonts" / "a.woff"),
        ("default/sheet.css", defaults / "sheet.css"),
    ):
        expected.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    assert made.templates_digest() == expected.digest()
    (tmp_path / "templates" / "sheet.css").write_text("q {}")
    assert made.templates_digest() == expected.digest()  # read once a build
    (tmp_path / "templates" / "sheet.css").rename(tmp_path / "templates" / "page.css")
    (tmp_path / "templates" / "page.css").write_text("p {}")
    renamed = hashlib.sha256()
    for name, path in (
        ("project/page.css", tmp_path / "templates" / "page.css"),
        ("default/fonts/a.woff", defaults / "fonts" / "a.woff"),
        ("default/sheet.css", defaults / "sheet.css"),
    ):
        renamed.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    assert builder(tmp_path).templates_digest() == renamed.digest()


def test_the_site_key_and_sphinx_are_given_the_same_pages_made_from_the_downloads(project, renderers, monkeypatch):
    asked, keyed = [], []

    def site_pages(project, audience, downloads=None):
        asked.append((project, audience, downloads))
        return f"the {audience} pages"

    def site_key(project, audience, downloads, code, pages=None):
        keyed.append(pages)
        return f"{audience} {downloads}"

    monkeypatch.setattr("generator.pipeline.plan.site_pages", site_pages)
    monkeypatch.setattr("generator.pipeline.plan.site_key", site_key)
    assert build(project, renderers, audience="gm") == 0
    ((who, audience, downloads),) = asked
    assert who is renderers.project and audience == "gm"
    assert downloads == renderers.downloads["gm"] and sorted(downloads) == ["melee", "melee_house"]
    assert keyed == ["the gm pages"] and renderers.site_args[0][5] == "the gm pages"


# The builder's plan, on a builder made from arguments: which PDF belongs to which ruleset, what is carried, the jobs.


def test_a_builder_whose_arguments_name_no_audience_makes_every_one(tmp_path):
    project = SimpleNamespace(root=tmp_path, rulesets=[SimpleNamespace(id="mini")])
    made = pipeline.plan.Builder(project, tmp_path / "build", tmp_path / "staging", {}, BuildRequest(tmp_path))
    assert made.audiences() == ["player", "gm", "author"] and made.workers is None
    assert made._carry_pdf("handouts/mini-gm-cards-a4.pdf") is False


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
    assert builder(tmp_path).audiences() == ["player", "gm", "author"]
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
    assert made.summary.kept == {"site": 1} and made.summary.reused == {}


def test_carry_of_pdfs_keeps_only_those_not_meant_for_this_build(tmp_path):
    made = builder(tmp_path, ruleset="mini")
    (tmp_path / "build" / "sheets").mkdir(parents=True)
    for name in ("mini-a4.pdf", "mini_two-a4.pdf"):
        (tmp_path / "build" / "sheets" / name).write_text(name)
    made.carry("sheets")
    assert files(tmp_path / "staging") == ["sheets/mini_two-a4.pdf"] and made.summary.kept == {"sheets": 1}
    assert made.summary.stale == {"sheets": {"mini_two-a4.pdf"}}  # the last build said nothing of what made it


def test_the_jobs_of_a_kind_follow_audience_and_ruleset(tmp_path, monkeypatch):
    def job(name):
        return PdfJob(html="", target=tmp_path / "staging" / "x" / name, base_dir=tmp_path)

    sheets = [job("mini-sheet-a4.pdf"), job("mini-gm-sheet-a4.pdf"), job("mini_two-sheet-a4.pdf")]
    asked = []
    monkeypatch.setattr(
        "generator.pipeline.plan.sheet_jobs", lambda project, folder, rulesets=None: asked.append(folder) or sheets
    )
    monkeypatch.setattr(
        "generator.pipeline.plan.handout_jobs",
        lambda project, folder, audience, rulesets=None: (
            asked.append((folder, audience)) or [job(f"mini-{audience}.pdf")]
        ),
    )

    def names(made, kind):
        return [j.target.name for j in made.jobs(kind)]

    assert names(builder(tmp_path), "sheets") == ["mini-sheet-a4.pdf", "mini-gm-sheet-a4.pdf", "mini_two-sheet-a4.pdf"]
    assert asked == [tmp_path / "staging" / "sheets"]
    assert names(builder(tmp_path, audience="player"), "sheets") == ["mini-sheet-a4.pdf", "mini_two-sheet-a4.pdf"]
    assert names(builder(tmp_path, audience="gm"), "sheets") == [
        "mini-sheet-a4.pdf",
        "mini-gm-sheet-a4.pdf",
        "mini_two-sheet-a4.pdf",
    ]
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
    coming = [
        tmp_path / "staging" / "handouts" / "mini-cards-a4.pdf",
        tmp_path / "staging" / "handouts" / "general.pdf",
        tmp_path / "elsewhere" / "mini-x.pdf",
    ]
    assert made.downloads(coming) == {
        "mini_two": [("Wound sheet (US Letter)", "sheets/mini_two-wound-sheet-letter.pdf")],
        "mini": [("Cards (A4)", "handouts/mini-cards-a4.pdf")],
        "": [("General", "handouts/general.pdf")],
    }


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


def test_the_input_key_hashes_kind_audiences_audience_and_epoch_then_the_ruleset_templates_and_date(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(pipeline.plan, "ruleset_key", lambda root, ruleset, code: "ruleset-key")
    monkeypatch.setattr(keys, "templates_digest", lambda root: b"templates")
    monkeypatch.setattr(pipeline.plan, "rules_date", lambda ruleset, root: "2024-03-05")  # what its printouts say
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    mini = SimpleNamespace(id="mini")
    unset = b"\x00".join(
        [b"sheets", b"['player', 'gm', 'author']", b"None", b"", b"ruleset-keytemplates", b"dated", b"2024-03-05"]
    )  # no epoch: empty
    assert builder(tmp_path).inputs_key("sheets", mini) == hashlib.sha256(unset).hexdigest()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    gm = b"\x00".join([b"handouts", b"['gm']", b"gm", b"1700000000", b"ruleset-keytemplates", b"dated", b"2024-03-05"])
    assert builder(tmp_path, audience="gm").inputs_key("handouts", mini) == hashlib.sha256(gm).hexdigest()


def test_the_renders_read_the_project_and_default_templates_and_write_staging_and_site_caches(tmp_path, monkeypatch):
    asked = []

    def run_tasks(tasks, workers, advance, walled=None):
        asked.append((tasks, workers, walled))
        return ["rendered"]

    monkeypatch.setattr(pipeline.plan, "run_tasks", run_tasks)
    made = builder(tmp_path, jobs=2)
    assert made.render_tasks([("task", ())], print) == ["rendered"]
    where = hashlib.sha256(str((tmp_path / "build").resolve()).encode()).hexdigest()[:16]
    caches = tmp_path.resolve() / ".rulepress-cache" / f"out-{where}"  # the folder of both sites' caches
    assert asked == [([("task", ())], 2, ([tmp_path, default_templates()], [tmp_path / "staging", caches]))]


# Sphinx's caches of a site: kept only as this machine sealed them.


def _site_cache(root: Path) -> tuple[Path, Path]:
    """Both folders of the player site's cache, with a file in each, as Sphinx leaves them."""
    cache = pipeline.plan.site_cache(root, root / "build", "site")
    html = cache.with_name("site-html")
    for folder, name in ((cache, "environment.pickle"), (html, "index.html")):
        folder.mkdir(parents=True)
        (folder / name).write_text("Sphinx's own")
    return cache, html


def test_a_sealed_site_cache_is_kept_and_one_changed_folder_wipes_both(project, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    cache, html = _site_cache(project)
    pipeline.plan.seal_site_cache(project, cache)
    assert sorted(p.name for p in cache.parent.iterdir()) == ["site", "site-html", "site-html.seal", "site.seal"]
    pipeline.plan.trust_site_cache(project, cache)
    assert (cache / "environment.pickle").is_file() and (html / "index.html").is_file()
    (html / "index.html").write_text("changed since")
    pipeline.plan.trust_site_cache(project, cache)
    assert list(cache.parent.iterdir()) == []  # Sphinx builds the site afresh


def test_a_site_cache_is_never_sealed_nor_trusted_with_a_key_inside_the_project(project, monkeypatch):
    from generator.cache_seal import seal

    monkeypatch.setenv("XDG_STATE_HOME", str(project / "state"))  # the contributor could have written this key
    cache, html = _site_cache(project)
    pipeline.plan.seal_site_cache(project, cache)
    assert sorted(p.name for p in cache.parent.iterdir()) == ["site", "site-html"]
    for folder in (cache, html):
        seal(folder)  # sealed as anyone holding the project's key could
    pipeline.plan.trust_site_cache(project, cache)
    assert list(cache.parent.iterdir()) == []


def test_a_rulesets_key_is_the_documented_hash_of_its_files_sources_templates_and_base(tmp_path):
    """Written out by hand: the code and id, then each file (a missing one as `(missing)`), each prose source, each
    project template by its name under templates/ and its bytes, then the base's own key, computed with the same
    code."""
    root = tmp_path
    (root / "rules_src" / "base").mkdir(parents=True)
    (root / "rules_src" / "base" / "ruleset.yaml").write_text("ruleset: {title: Base}\n")
    (root / "templates" / "sheets").mkdir(parents=True)
    (root / "templates" / "sheets" / "base.html.j2").write_text("<p>sheet</p>")
    base = SimpleNamespace(id="base", files=("rules_src/base/ruleset.yaml",), mechanics=(), sources={}, base=None)
    house = SimpleNamespace(
        id="house",
        files=("rules_src/house/ruleset.yaml",),  # not there
        mechanics=(),
        sources={"rules.yaml": "Charge!"},
        base=base,
    )
    templates = f"sheets/base.html.j2:{hashlib.sha256(b'<p>sheet</p>').hexdigest()}".encode()

    def by_hand(ruleset, files: list[bytes], sources: list[bytes], then: bytes = b"") -> str:
        digest = hashlib.sha256(f"code-1\n{ruleset.id}\n".encode())
        for part in (*files, *sources, templates, then):
            digest.update(part)
        return digest.hexdigest()

    base_key = by_hand(base, [b"rules_src/base/ruleset.yaml\0ruleset: {title: Base}\n"], [])
    assert keys.ruleset_key(root, base, "code-1") == base_key
    assert keys.ruleset_key(root, house, "code-1") == by_hand(
        house, [b"rules_src/house/ruleset.yaml\0(missing)"], [b"rules.yaml\0Charge!"], base_key.encode()
    )


def test_the_build_lock_is_a_file_of_its_own_even_where_a_link_stood(tmp_path):
    """A shipped `build.lock` that links to another file is replaced by a file of the build's (0644), and the
    file it linked to is left as it was."""
    from generator.pipeline.guard import _open_lock

    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    lock = tmp_path / "build.lock"
    lock.symlink_to(target)
    with _open_lock(lock) as handle:
        handle.write("locked")
    assert not lock.is_symlink() and lock.read_text() == "locked" and target.read_text() == "keep me"
    assert lock.stat().st_mode & 0o777 == 0o644 & ~_umask()
    with _open_lock(lock) as handle:  # a file of its own already: opened as it is, never truncated
        assert handle.read() == "locked"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_copy_of_the_project_elsewhere_written_at_another_time_has_the_same_keys(tmp_path):
    """What the manifest holds names nothing of where the project is or when its files were written: two clones in
    two folders keep the same keys (and the same manifest)."""
    made = []
    for where, day in (("one", 1_700_000_000), ("two", 1_800_000_000)):
        root = tmp_path / where / "club"
        ruleset = stand_ruleset(root, "melee")
        (root / "templates" / "sheets").mkdir(parents=True)
        (root / "templates" / "sheets" / "page.html.j2").write_text("<p>sheet</p>")
        (root / "templates" / "sheet.css").write_text("p {}")
        for path in (root / "templates").rglob("*"):
            os.utime(path, (day, day))
        os.utime(root / "rules_src" / "melee" / "ruleset.yaml", (1_600_000_000, 1_600_000_000))
        project = SimpleNamespace(root=root, rulesets=[ruleset], house_results=dict)
        built = pipeline.plan.Builder(project, root / "build", root / "staging", {}, BuildRequest(root))
        job = PdfJob(html='<link href="sheet.css"><p>x</p>', target=Path("x"), base_dir=root / "templates")
        made.append(
            (
                built.inputs_key("sheets", ruleset),
                built.rules_key(ruleset),
                built.site_inputs_key("player", {}),
                keys.ruleset_key(root, ruleset, "code"),
                keys.job_key(job, "code", root),
            )
        )
    assert made[0] == made[1]
