"""Builds with the renderers stood in for (tests/pipeline/stand_ins.py), so they take milliseconds.

`rulepress build` checks, plans every PDF by its key, carries over what it was not asked for,
stages and swaps; tests/pipeline/test_pdf_builds.py and test_pipeline.py run all of that with the
real rules model, WeasyPrint and Sphinx and take minutes. Here everything the pipeline calls out
to is replaced by a stand-in that notes what it was asked, so a build reaches no model code, and
every step of the pipeline around the renderers runs for real: keys, carry-over, ``--ruleset``,
``--only`` and ``--audience`` selection, the summary, the swap, the refusals. The file names are
written out by hand.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from stand_ins import (
    ALL_PDFS,
    EVERY_FILE,
    SHEETS,
    build,
    edit,
    files,
    inodes,
    manifest,
    pdfs_of,
    printouts,
    set_keys,
    summary_line,
)

import generator.pipeline.build  # noqa: F401 - loads the submodule `pipeline.` reaches
import generator.pipeline.plan  # noqa: F401 - loads the submodule `pipeline.` reaches
from generator import keys, pipeline
from generator.diagnostics import Code, Diagnostic, Diagnostics, Location, Severity
from generator.exit import INTERNAL
from generator.pipeline.plan import Summary
from generator.pipeline.request import BuildHooks, BuildRequest
from generator.pool import RenderFailed
from generator.render.jinja import TemplateFailed
from generator.render.pdf import PdfJob, ResourceOutside
from generator.render.site.pages import SiteFailed, SiteWarnings
from generator.render.site.search import SearchIndexError


def test_a_first_build_renders_every_pdf_and_every_site(project, renderers, capsys):
    assert build(project, renderers) == 0
    assert sorted(renderers.pdfs) == ALL_PDFS
    assert renderers.sites == ["player", "gm", "author"]
    assert files(project / "build") == EVERY_FILE
    inputs = [
        f"{kind}/.{slot}-{id}"
        for kind in ("sheets", "handouts")
        for id in ("melee", "melee_house")
        for slot in ("inputs", "rules")
    ]
    assert sorted(manifest(project)) == sorted(
        ALL_PDFS
        + inputs
        + [f"{name}/{slot}" for name in ("site", "site-gm", "site-author") for slot in ("", ".inputs")]
    )
    assert (
        project / "build" / "sheets" / "melee-wound-sheet-a4.pdf"
    ).read_text() == "rendered melee-wound-sheet-a4.pdf"
    assert (project / "build" / "site-gm" / "index.html").read_text() == "the gm site"
    assert (project / "build" / "reference" / "names-melee_house.md").read_text() == "names of melee_house in project"
    assert (project / "build" / "reference" / "format.md").read_text() == "format"
    assert (project / "build" / "reference" / "codes.md").read_text() == "codes"
    out = capsys.readouterr().out
    assert out.startswith(f"built 2 rulesets into {project / 'build'} in ")
    assert (
        summary_line(out)
        == "site: 3 written, 0 unchanged; sheets: 8 written, 0 unchanged; handouts: 14 written, 0 unchanged"
    )
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
    assert (
        summary_line(capsys.readouterr().out)
        == "site: 0 written, 3 unchanged; sheets: 0 written, 8 unchanged; handouts: 0 written, 14 unchanged"
    )


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
    assert summary_line(capsys.readouterr().out).split("; ")[1:] == [
        "sheets: 1 written, 7 unchanged",
        "handouts: 1 written, 13 unchanged",
    ]


def test_a_changed_site_rebuilds_that_site_and_keeps_sphinx_files_out(project, renderers):
    assert build(project, renderers) == 0
    renderers.site_version["gm"] = 2
    assert build(project, renderers) == 0
    assert renderers.sites == ["gm"] and renderers.pdfs == []
    assert files(project / "build" / "site-gm") == [".nojekyll", "index.html"]  # .buildinfo is Sphinx's, not the site's
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


def test_ruleset_renders_only_its_own_pdfs_even_when_another_id_starts_with_it(project, renderers, capsys):
    assert build(project, renderers, ruleset="melee") == 0
    assert capsys.readouterr().out.startswith(f"built 1 ruleset into {project / 'build'} in ")  # not the project's 2
    assert sorted(renderers.pdfs) == pdfs_of("melee")
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == pdfs_of("melee")
    assert build(project, renderers, ruleset="melee_house") == 0
    assert sorted(renderers.pdfs) == pdfs_of("melee_house")
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == ALL_PDFS  # melee's carried over


def test_ruleset_carries_the_other_rulesets_pdfs_with_their_keys(project, renderers):
    assert build(project, renderers) == 0
    set_keys(
        project,
        **{
            "sheets/melee-wound-sheet-a4.pdf": "stale",
            "sheets/melee_house-wound-sheet-a4.pdf": "stale",
            "sheets/.inputs-melee": "stale",
        },
    )
    kept = inodes(project)["sheets/melee_house-wound-sheet-a4.pdf"]
    assert build(project, renderers, ruleset="melee") == 0
    assert renderers.pdfs == ["sheets/melee-wound-sheet-a4.pdf"]
    assert inodes(project)["sheets/melee_house-wound-sheet-a4.pdf"] == kept
    assert manifest(project)["sheets/melee_house-wound-sheet-a4.pdf"] == "stale"  # its key as the build that made it
    assert manifest(project)["sheets/melee-wound-sheet-a4.pdf"] != "stale"


def test_only_sheets_keeps_the_handouts_and_sites_as_they_were(project, renderers, capsys):
    assert build(project, renderers) == 0
    set_keys(
        project,
        **{
            "sheets/melee-wound-sheet-a4.pdf": "stale",
            "handouts/melee-cards-a4.pdf": "stale",
            "site/": "stale",
            "site/.inputs": "stale",
            "sheets/.inputs-melee": "stale",
            "handouts/.inputs-melee": "stale",
        },
    )
    before = inodes(project)
    capsys.readouterr()
    assert build(project, renderers, only=["sheets"]) == 0
    assert renderers.pdfs == ["sheets/melee-wound-sheet-a4.pdf"] and renderers.sites == []
    after = inodes(project)
    assert files(project / "build") == EVERY_FILE
    assert {name: ino for name, ino in after.items() if name != "sheets/melee-wound-sheet-a4.pdf"} == {
        name: ino for name, ino in before.items() if name != "sheets/melee-wound-sheet-a4.pdf"
    }
    assert manifest(project)["handouts/melee-cards-a4.pdf"] == "stale"
    assert (
        summary_line(capsys.readouterr().out)
        == "site: 3 kept from the last build; sheets: 1 written, 7 unchanged; handouts: 14 kept from the last build"
    )


def test_the_player_audience_makes_player_pdfs_and_keeps_the_gm_ones(project, renderers):
    assert build(project, renderers) == 0
    set_keys(
        project,
        **{
            "site/": "stale",
            "site/.inputs": "stale",
            "site-gm/": "stale",
            "site-gm/.inputs": "stale",
            "handouts/melee-gm-notes-a4.pdf": "stale",
            "handouts/melee-cards-a4.pdf": "stale",
        },
    )
    before = inodes(project)
    assert build(project, renderers, audience="player") == 0
    assert renderers.sites == ["player"] and renderers.pdfs == ["handouts/melee-cards-a4.pdf"]
    after = inodes(project)
    assert after["site-gm/index.html"] == before["site-gm/index.html"]
    assert after["handouts/melee-gm-notes-a4.pdf"] == before["handouts/melee-gm-notes-a4.pdf"]
    assert manifest(project)["handouts/melee-gm-notes-a4.pdf"] == "stale"


def test_each_site_holds_the_pdfs_it_links_the_players_alone_in_theirs_after_any_build(project, renderers):
    """A site published on its own opens its PDFs from its own `printouts/`: the very files of build/sheets and
    build/handouts (one file, linked), the players' alone in the players' site, after a full build and after builds
    that render some PDFs again and keep the sites (`--only sheets`, `--audience player`): never an old PDF."""

    def expected() -> dict[str, dict[str, int]]:
        built = {name: (project / "build" / name).stat().st_ino for name in ALL_PDFS}
        return {
            site: {name: ino for name, ino in built.items() if site != "site" or "-gm-" not in name}
            for site in ("site", "site-gm", "site-author")
        }

    assert build(project, renderers) == 0
    assert printouts(project) == expected()
    gm_notes = "handouts/melee-gm-notes-a4.pdf"
    assert gm_notes not in printouts(project)["site"] and gm_notes in printouts(project)["site-gm"]
    for options in ({"only": ["sheets"]}, {"audience": "player"}):
        set_keys(project, **{"sheets/melee-wound-sheet-a4.pdf": "stale", "sheets/.inputs-melee": "stale"})
        before = (project / "build" / "sheets" / "melee-wound-sheet-a4.pdf").stat().st_ino
        assert build(project, renderers, **options) == 0
        assert "sheets/melee-wound-sheet-a4.pdf" in renderers.pdfs and renderers.sites == []
        assert (project / "build" / "sheets" / "melee-wound-sheet-a4.pdf").stat().st_ino != before  # made anew
        assert printouts(project) == expected(), options


def test_a_site_left_out_by_only_is_kept_whole_whatever_order_its_folders_are_read_in(project, renderers):
    """`--only sheets` keeps each site as the last build made it, every file of every folder, while its own copies
    of the PDFs are placed anew: twenty folders of pages, read in the file system's order, around `printouts/`."""
    assert build(project, renderers) == 0
    site = project / "build" / "site"
    for index in range(20):
        (site / f"part{index:02}").mkdir()
        (site / f"part{index:02}" / "page.html").write_text(f"page {index}")
    pages = sorted(
        p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file() and "printouts" not in p.parts
    )
    assert build(project, renderers, only=["sheets"]) == 0
    assert (
        sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file() and "printouts" not in p.parts)
        == pages
    )


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


def test_printouts_kept_by_a_site_build_keep_their_rulesets_keys_and_a_removed_rulesets_are_kept_as_they_were(
    project, renderers
):
    """`--only site` keeps every PDF with the keys its ruleset's PDFs were made under, so the next whole build lays
    out none again; the PDFs of a ruleset removed since are kept too (removed by a build that makes them), not a
    failed build."""
    assert build(project, renderers) == 0
    slots = {name: key for name, key in manifest(project).items() if "/.inputs-" in name or "/.rules-" in name}
    assert sorted(slots) == sorted(
        f"{kind}/.{slot}-{id}"
        for kind in ("handouts", "sheets")
        for id in ("melee", "melee_house")
        for slot in ("inputs", "rules")
    )
    assert build(project, renderers, only=["site"]) == 0
    assert {name: manifest(project).get(name) for name in slots} == slots
    renderers.pdfs.clear()
    assert build(project, renderers) == 0
    assert renderers.pdfs == []
    kept = sorted(name for name in files(project / "build") if name.startswith("sheets/melee_house-"))
    renderers.project.rulesets = [r for r in renderers.project.rulesets if r.id == "melee"]
    assert build(project, renderers, only=["site"]) == 0
    assert kept and sorted(n for n in files(project / "build") if n.startswith("sheets/melee_house-")) == kept


def test_the_gm_audience_makes_gm_pdfs_and_keeps_the_player_ones(project, renderers):
    assert build(project, renderers) == 0
    set_keys(project, **{"handouts/melee-gm-notes-a4.pdf": "stale", "handouts/melee-cards-a4.pdf": "stale"})
    assert build(project, renderers, audience="gm") == 0
    assert renderers.pdfs == ["handouts/melee-gm-notes-a4.pdf"]
    assert manifest(project)["handouts/melee-cards-a4.pdf"] == "stale"


def test_a_build_for_the_players_alone_writes_no_names_reference_and_keeps_the_last_builds(
    project, renderers, tmp_path
):
    """The names a ruleset's examples can use are its game-master's entries too: a folder built for the players
    alone holds the format and the codes, never those names; where a full build was, its names are kept."""
    players = tmp_path / "players"
    assert build(project, renderers, audience="player", out=players) == 0
    assert [name for name in files(players) if name.startswith("reference/")] == [
        "reference/codes.md",
        "reference/format.md",
    ]
    assert build(project, renderers) == 0
    names = project / "build" / "reference" / "names-melee.md"
    names.write_text("names of the last full build")
    assert build(project, renderers, audience="player") == 0
    assert names.read_text() == "names of the last full build"
    for audience in ("gm", "author"):
        assert build(project, renderers, audience=audience) == 0
        assert names.read_text() == "names of melee in project"
        names.write_text("names of the last full build")
    # nor names behind a reference folder turned into a link, to files outside this machine's build
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "names-melee.md").write_text("names from elsewhere")
    shutil.rmtree(project / "build" / "reference")
    (project / "build" / "reference").symlink_to(elsewhere)
    assert build(project, renderers, audience="player") == 0
    assert not names.exists() and (elsewhere / "names-melee.md").read_text() == "names from elsewhere"
    # names this machine did not write (a build folder shipped with the project, its manifest unsigned) are not kept
    shutil.rmtree(project / "build")
    names.parent.mkdir(parents=True)
    names.write_text("names shipped with the project")
    assert build(project, renderers, audience="player") == 0
    assert not names.exists()


def test_the_authors_edition_is_a_site_alone_even_when_printouts_are_asked_for(project, renderers, tmp_path):
    """No sheet or handout is laid out for `--audience author`, asked for or not; the players' and the
    game-master's builds lay out theirs."""
    for only in ((), ("sheets",), ("handouts",), ("site", "sheets", "handouts")):
        authors = tmp_path / f"authors-{len(only)}"
        assert build(project, renderers, audience="author", only=only, out=authors) == 0
        assert renderers.pdfs == [] and not [name for name in files(authors) if name.endswith(".pdf")]
        assert renderers.sites == (["author"] if not only or "site" in only else [])
    for audience in ("player", "gm"):
        assert build(project, renderers, audience=audience, only=("sheets",), out=tmp_path / audience) == 0
        assert [name for name in files(tmp_path / audience) if name.startswith("sheets/")]
    # into a folder a whole build wrote, the authors' edition keeps every printout as it was
    assert build(project, renderers) == 0
    printed = {name: (project / "build" / name).read_bytes() for name in files(project / "build") if ".pdf" in name}
    assert [name for name in printed if name.startswith("sheets/")] and [
        n for n in printed if n.startswith("handouts/")
    ]
    assert build(project, renderers, audience="author") == 0
    assert {name: (project / "build" / name).read_bytes() for name in files(project / "build") if ".pdf" in name} == (
        printed
    )


def test_a_project_without_rulesets_builds_its_reference_pages(project, renderers):
    renderers.project.rulesets = []
    assert build(project, renderers, only=["sheets"]) == 0
    assert files(project / "build") == [".manifest.json", ".manifest.mac", "reference/codes.md", "reference/format.md"]
    assert manifest(project) == {}


def test_a_build_writes_anew_the_export_it_finds_and_an_export_keeps_the_build(project, renderers, capsys):
    assert pipeline.build.run_export(BuildRequest(project, out=None, audience="player")) == 0
    assert capsys.readouterr().out == "".join(
        f"wrote {project / 'build' / 'export' / name}\n"
        for name in ("ruleset.schema.json", "melee.json", "melee_house.json")
    )
    (project / "build" / "export" / "melee.json").write_text("of older rules")
    assert build(project, renderers) == 0
    assert files(project / "build" / "export") == ["melee.json", "melee_house.json", "ruleset.schema.json"]
    assert (project / "build" / "export" / "melee.json").read_text() == "melee.json for player"  # these rules'
    before = inodes(project)
    assert pipeline.build.run_export(BuildRequest(project, out=None, audience="gm")) == 0
    assert files(project / "build" / "export") == [  # this export's files alone: no older players' beside them
        "melee-gm.json",
        "melee_house-gm.json",
        "ruleset.schema.json",
    ]
    assert (project / "build" / "export" / "ruleset.schema.json").read_text() == "ruleset.schema.json for gm"
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == ALL_PDFS  # the build is kept whole
    assert {n: i for n, i in inodes(project).items() if n.endswith(".pdf")} == {
        n: i for n, i in before.items() if n.endswith(".pdf")
    }  # linked, not copied
    assert json.loads((project / "build" / ".manifest.json").read_text())  # the build's manifest, not "{}"
    assert sorted(p.name for p in project.iterdir()) == [".rulepress-cache", "build", "rules_src"]


def test_export_into_its_own_folder_writes_its_files_at_the_top_and_nothing_else(project, renderers, tmp_path, capsys):
    out = tmp_path / "exported"
    assert pipeline.build.run_export(BuildRequest(project, out=out, audience="player")) == 0
    assert files(out) == ["melee.json", "melee_house.json", "ruleset.schema.json"]
    assert capsys.readouterr().out.splitlines() == [
        f"wrote {out / name}" for name in ("ruleset.schema.json", "melee.json", "melee_house.json")
    ]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [".rulepress-cache"]  # no staging


def test_export_into_a_new_nested_build_folder(project, renderers):
    assert pipeline.build.run_export(BuildRequest(project, out=None, audience="gm")) == 0
    assert files(project / "build") == [
        ".manifest.json",
        "export/melee-gm.json",
        "export/melee_house-gm.json",
        "export/ruleset.schema.json",
    ]


def test_export_of_broken_rules_fails_and_writes_nothing(project, renderers, monkeypatch, capsys):
    broken = Diagnostics()
    for line in (1, 2):
        broken.add(Code.YAML_SYNTAX, "bad", Location("rules_src/x/ruleset.yaml", line))
    failed = [Diagnostic(Code.EXAMPLE_FAILED, "an example says 4", Location("rules_src/x/ruleset.yaml", 3))]
    monkeypatch.setattr(
        pipeline.build, "check_with_examples", lambda root: (SimpleNamespace(ok=False, diagnostics=broken), failed)
    )
    assert pipeline.build.run_export(BuildRequest(project, out=None, audience="player")) == 1
    assert (
        capsys.readouterr().err
        == "".join(d.format() + "\n" for d in [*broken, *failed])
        + f"export failed: 3 errors; nothing is written to {project / 'build'}\n"
    )
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


def _failing_site(error):
    def site(project, args):
        raise error

    return site


@pytest.mark.parametrize(
    "error, message, status",
    [
        (SiteWarnings("index.md:3: WARNING: bad"), "index.md:3: WARNING: bad\nbuild failed: the site build warned", 1),
        (SearchIndexError("pagefind broke"), "error: pagefind broke\nbuild failed: no search index", 1),
        (
            ResourceOutside([Diagnostic(Code.RESOURCE_OUTSIDE, "/etc/x", Location("templates/a.css", 2))]),
            "templates/a.css:2:1: error[resource-outside]: /etc/x\n  hint: use a file inside the project\n"
            "build failed: 1 error",
            1,
        ),
        (
            RenderFailed("a render worker ended"),
            "error: a render worker ended\nbuild failed: a render did not finish",
            1,
        ),
        (
            SiteFailed("sphinx fell over"),
            "rulepress: internal error: sphinx fell over (please report this with the command you ran)\n"
            "build failed: the site build stopped",
            INTERNAL,
        ),
    ],
)
def test_a_failing_render_leaves_the_previous_build_as_it_was(project, renderers, capsys, error, message, status):
    assert build(project, renderers) == 0
    set_keys(project, **{"site/": "stale", "site/.inputs": "stale"})
    before, keys = inodes(project), manifest(project)
    capsys.readouterr()
    assert build(project, renderers, site_builder=_failing_site(error)) == status
    assert capsys.readouterr().err == f"{message}; {project / 'build'} is left as it was\n"
    assert inodes(project) == before and manifest(project) == keys
    assert sorted(p.name for p in project.iterdir()) == [".rulepress-cache", "build", "rules_src"]


def test_a_failed_worked_example_fails_the_build(project, renderers, capsys):
    failure = Diagnostic(Code.EXAMPLE_FAILED, "expected 2, got 3", Location("rules_src/x/ruleset.yaml", 4, 1))

    def checker(root):
        return SimpleNamespace(ok=True, diagnostics=Diagnostics(), project=None), [failure]

    assert build(project, renderers, checker=checker) == 1
    assert capsys.readouterr().err == (
        f"{failure.format()}\nbuild failed: 1 error; nothing is written to {project / 'build'}\n"
    )
    assert not (project / "build").exists()  # a first build: there was nothing to leave as it was
    assert build(project, renderers) == 0
    capsys.readouterr()
    assert build(project, renderers, checker=checker) == 1
    assert capsys.readouterr().err.endswith(f"build failed: 1 error; {project / 'build'} is left as it was\n")


def test_a_build_says_the_warnings_check_says_and_builds(project, renderers, capsys):
    warned = Diagnostics()
    warned.add(
        Code.MECHANIC_LITERAL,
        "the number 6 is written",
        Location("rules_src/melee/mechanics.py", 4, 27),
        "name it",
        Severity.WARNING,
    )

    def checker(root):
        return SimpleNamespace(ok=True, diagnostics=warned, project=renderers.project), []

    assert build(project, renderers, checker=checker) == 0
    told, warning = capsys.readouterr().err.splitlines(), warned[0].format().splitlines()
    assert told[: len(warning)] == warning
    assert all(line.startswith("rulepress: ") for line in told[len(warning) :])  # then the progress of the renders
    assert warned[0].format().startswith("rules_src/melee/mechanics.py:4:27: warning[mechanic-literal]: ")
    assert (project / "build" / "site" / "index.html").is_file()


# -- what the builder hands the renderers, and what it writes around them ------------------------


def test_the_manifest_is_sorted_json_one_space_deep(project, renderers):
    renderers.project.rulesets = []
    assert build(project, renderers, only=["site"]) == 0
    keys = manifest(project)
    names = ["site-author/", "site-author/.inputs", "site-gm/", "site-gm/.inputs", "site/", "site/.inputs"]
    assert sorted(keys) == names
    assert (project / "build" / ".manifest.json").read_text() == (
        "{\n" + ",\n".join(f' "{name}": "{keys[name]}"' for name in names) + "\n}"
    )


def test_the_build_and_rendering_times_are_real_seconds(project, renderers, capsys):
    import re

    assert build(project, renderers) == 0
    out = capsys.readouterr().out
    took = re.fullmatch(r"built 2 rulesets into .* in (\d+\.\d)s — .* \(rendering (\d+\.\d)s\)\n", out)
    assert took and float(took.group(1)) < 600 and float(took.group(2)) < 600


def test_without_serves_hook_sites_go_to_the_pool_first_then_the_longest_pdfs(project, renderers):
    renderers.html.update(
        {
            "melee-roster-a4.pdf": "<p>" + "long " * 50 + "</p>",
            "melee_house-cards-letter.pdf": "<p>" + "longer " * 60 + "</p>",
        }
    )
    assert pipeline.build.run_build(BuildRequest(project, jobs=3), BuildHooks(checker=renderers.checker)) == 0
    assert renderers.tasks[:5] == [
        "site player",
        "site gm",
        "site author",
        "melee_house-cards-letter.pdf",
        "melee-roster-a4.pdf",
    ]
    assert len(renderers.tasks) == 3 + len(ALL_PDFS) and renderers.workers == [3]
    assert files(project / "build" / "site") == [".nojekyll", "index.html"]  # neither .buildinfo nor .doctrees
    assert (project / "build" / "site" / "index.html").read_text() == "the player site"


def test_the_site_builder_is_given_the_project_its_cache_and_its_html_folder(project, renderers):
    assert build(project, renderers, audience="gm") == 0
    cache = pipeline.plan.site_cache(project, project / "build", "site-gm")
    assert renderers.site_projects == [renderers.project] and renderers.keyed == [renderers.project]
    root, cache_dir, html, audience, downloads, pages, house_results = renderers.site_args[0]
    assert pages == "gm pages" and house_results == {}
    assert (root, cache_dir, html, audience) == (str(project), str(cache), str(cache.with_name("site-gm-html")), "gm")
    assert manifest(project)["site-gm/"].startswith(f"gm 1 {pipeline.plan.code_hash()} ")
    assert files(project / "build" / "site-gm") == [".nojekyll", "index.html"]


def test_only_the_site_builds_the_sites_and_carries_every_pdf(project, renderers):
    assert build(project, renderers) == 0
    set_keys(project, **{"site/": "stale", "site/.inputs": "stale", "sheets/melee-wound-sheet-a4.pdf": "stale"})
    assert build(project, renderers, only=["site"]) == 0
    assert renderers.sites == ["player"] and renderers.pdfs == []
    assert manifest(project)["sheets/melee-wound-sheet-a4.pdf"] == "stale"


def test_pdfs_not_asked_for_are_said_to_be_kept_not_unchanged(project, renderers, capsys):
    assert build(project, renderers) == 0
    capsys.readouterr()
    assert build(project, renderers, only=["site"]) == 0
    out = capsys.readouterr().out
    assert (
        summary_line(out)
        == "site: 0 written, 3 unchanged; sheets: 8 kept from the last build; handouts: 14 kept from the last build"
    )
    assert "note:" not in out  # nothing they print has changed


def test_pdfs_kept_from_before_their_rules_changed_are_named(project, renderers, capsys):
    assert build(project, renderers) == 0
    edit(project, "melee")
    renderers.html["melee-wound-sheet-a4.pdf"] = "<p>the wound sheet, its chart changed</p>"
    capsys.readouterr()
    assert build(project, renderers, only=["handouts"]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note:")]
    assert notes == [
        "note: the sheet `melee-wound-sheet-a4.pdf` kept from the last build is out of date (its rules, templates "
        "or Rulepress changed since): `rulepress build --only sheets` makes it anew"
    ]
    assert build(project, renderers, only=["sheets"]) == 0
    capsys.readouterr()
    assert build(project, renderers, only=["handouts"]) == 0
    assert "note:" not in capsys.readouterr().out  # made anew, and their keys kept by the builds that kept them


def test_kept_pdfs_whose_pages_cannot_be_made_now_are_all_said_out_of_date(project, renderers, monkeypatch, capsys):
    assert build(project, renderers) == 0
    edit(project, "melee")  # its pages the same, but a template now fails: which changed cannot be told

    def failing(*args, **kwargs):
        raise TemplateFailed([Diagnostic(Code.TEMPLATE_ERROR, "broken", Location("templates/sheets/x.html.j2"))])

    monkeypatch.setattr("generator.pipeline.plan.sheet_jobs", failing)
    capsys.readouterr()
    assert build(project, renderers, only=["site"]) == 0  # the sheets were not asked for: their template is not fatal
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note:")]
    assert notes == [
        "note: the sheets `melee-quick-reference-a4.pdf`, `melee-quick-reference-letter.pdf`, "
        "`melee-wound-sheet-a4.pdf` and `melee-wound-sheet-letter.pdf` kept from the last build are out of date "
        "(their rules, templates or Rulepress changed since): `rulepress build --only sheets` makes them anew"
    ]


def test_a_note_of_many_kept_pdfs_names_six_and_counts_the_rest():
    names = {f"r-sheet-{number}.pdf" for number in range(1, 9)}
    assert Summary(stale={"sheets": names}).notes() == [
        "note: the sheets `r-sheet-1.pdf`, `r-sheet-2.pdf`, `r-sheet-3.pdf`, `r-sheet-4.pdf`, `r-sheet-5.pdf`, "
        "`r-sheet-6.pdf` and 2 more kept from the last build are out of date (their rules, templates or Rulepress "
        "changed since): `rulepress build --only sheets` makes them anew"
    ]


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
    def progress(description, total, labels=None):
        shown.append((description, total))
        yield lambda *_: None

    monkeypatch.setattr(pipeline.plan, "progress", progress)
    assert build(project, renderers, only=["sheets"]) == 0
    assert shown == [("building", 8)]


def test_a_pdf_this_build_no_longer_makes_is_dropped_unless_it_was_not_asked_for(project, renderers):
    assert build(project, renderers) == 0
    for stale in ("sheets/melee-old-a4.pdf", "handouts/melee-old-a4.pdf", "handouts/melee-older-a4.pdf"):
        (project / "build" / stale).write_text("from a sheet since removed")
    assert build(project, renderers, ruleset="melee_house") == 0  # melee's were not asked for: kept
    assert {"sheets/melee-old-a4.pdf", "handouts/melee-old-a4.pdf", "handouts/melee-older-a4.pdf"} <= set(
        files(project / "build")
    )
    assert build(project, renderers) == 0  # everything asked for: what no job makes is gone
    assert [n for n in files(project / "build") if n.endswith(".pdf")] == ALL_PDFS


# The summary line a build prints.


def test_the_summary_line_names_each_kind_written_and_unchanged():
    assert Summary().line() == ""
    assert Summary(written={"site": 2}).line() == "site: 2 written, 0 unchanged"
    assert Summary(reused={"sheets": 3}).line() == "sheets: 0 written, 3 unchanged"
    assert (
        Summary(written={"site": 1}, reused={"site": 1}, rendering=2.34).line()
        == "site: 1 written, 1 unchanged (rendering 2.3s)"
    )
    assert Summary(written={"not-a-kind": 1}).line() == ""
    assert Summary(kept={"handouts": 4}).line() == "handouts: 4 kept from the last build"
    assert (
        Summary(written={"sheets": 1}, kept={"sheets": 2}).line()
        == "sheets: 1 written, 0 unchanged, 2 kept from the last build"
    )


def test_the_summary_follows_the_order_of_outputs():
    first, second = pipeline.plan.OUTPUTS[0], pipeline.plan.OUTPUTS[1]
    line = Summary(written={second: 1, first: 2}).line()
    assert line == f"{first}: 2 written, 0 unchanged; {second}: 1 written, 0 unchanged"


def test_the_template_errors_of_sheets_and_handouts_are_reported_together(project, renderers, monkeypatch, capsys):
    wound = Diagnostic(Code.TEMPLATE_ERROR, "'roll' is undefined", Location("templates/sheets/wound.html.j2", 3, 5))
    cards = Diagnostic(Code.TEMPLATE_ERROR, "unexpected end of template", Location("templates/handouts/cards.html.j2"))

    def failing(error):
        def jobs(*args, **kwargs):
            raise TemplateFailed([error])

        return jobs

    monkeypatch.setattr("generator.pipeline.plan.sheet_jobs", failing(wound))
    monkeypatch.setattr("generator.pipeline.plan.handout_jobs", failing(cards))
    assert build(project, renderers) == 1
    hint = (
        "fix the template at the place named, or start again from the default of the same path that ships with "
        "Rulepress"
    )
    assert capsys.readouterr().err == (
        "templates/handouts/cards.html.j2:1:1: error[template-error]: unexpected end of template\n"
        f"  hint: {hint}\n"
        "templates/sheets/wound.html.j2:3:5: error[template-error]: 'roll' is undefined\n"
        f"  hint: {hint}\n"
        f"build failed: 2 template errors; nothing is written to {project / 'build'}\n"
    )
    assert renderers.pdfs == [] and renderers.sites == [] and not (project / "build").exists()


def test_the_reference_pages_are_utf8_whatever_the_locale(project, renderers, monkeypatch):
    import locale

    monkeypatch.setattr(pipeline.plan, "format_reference", lambda: "format — café")
    monkeypatch.setattr(pipeline.plan, "codes_reference", lambda: "codes — café")
    monkeypatch.setattr(pipeline.plan, "names_reference", lambda ruleset, root: f"{ruleset.id} — café")
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")  # an ASCII locale: its own encoding has no dash
    try:
        status = build(project, renderers)
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    assert status == 0
    reference = project / "build" / "reference"
    assert (reference / "format.md").read_bytes() == b"format \xe2\x80\x94 caf\xc3\xa9"
    assert (reference / "codes.md").read_bytes() == b"codes \xe2\x80\x94 caf\xc3\xa9"
    assert (reference / "names-melee.md").read_bytes() == b"melee \xe2\x80\x94 caf\xc3\xa9"


def _site_with_a_cache(renderers, seen: list):
    """serve's site hook, standing in for Sphinx: notes what its cache held, then fills both of its folders."""

    def site(project, args):
        cache, html = Path(args[1]), Path(args[2])
        seen.append(sorted(p.name for folder in (cache, html) if folder.is_dir() for p in folder.iterdir()))
        for folder, name in ((cache, "environment.pickle"), (html, "index.html")):
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text("Sphinx's own")
        return renderers.site(project, args)

    return site


def test_the_site_cache_a_build_wrote_is_sealed_and_given_to_the_next_build(project, renderers, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    seen = []
    site = _site_with_a_cache(renderers, seen)
    assert build(project, renderers, audience="player", site_builder=site) == 0
    caches = pipeline.plan.site_cache(project, project / "build", "site").parent
    assert sorted(p.name for p in caches.iterdir()) == ["site", "site-html", "site-html.seal", "site.seal"]
    renderers.site_version["player"] = 2  # the rules changed: the site is built again, from its cache
    assert build(project, renderers, audience="player", site_builder=site) == 0
    assert seen == [[], ["environment.pickle", "index.html"]]


def test_a_build_seals_no_site_cache_with_a_key_inside_the_project(project, renderers, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(project / "state"))  # the contributor could have written this key
    assert build(project, renderers, audience="player", site_builder=_site_with_a_cache(renderers, [])) == 0
    caches = pipeline.plan.site_cache(project, project / "build", "site").parent
    assert sorted(p.name for p in caches.iterdir()) == ["site", "site-html"]


def test_every_site_holds_an_empty_nojekyll_so_github_pages_serves_its_underscore_folders(project, renderers):
    """GitHub Pages publishing a branch runs Jekyll unless the site has a `.nojekyll`, and Jekyll drops `_static/`
    and `_pagefind/`. Made, kept or carried, every site holds one, empty, and the same file from build to build."""
    assert build(project, renderers) == 0
    sites = [project / "build" / name for name in ("site", "site-gm", "site-author")]
    assert [(site / ".nojekyll").read_bytes() for site in sites] == [b"", b"", b""]
    first = (sites[0] / ".nojekyll").stat().st_ino
    assert build(project, renderers) == 0  # nothing changed: the site is the last build's
    assert build(project, renderers, only=["sheets"]) == 0  # the sites carried
    assert (sites[0] / ".nojekyll").stat().st_ino == first
    renderers.site_version["player"] = 2
    assert build(project, renderers, only=["site"]) == 0  # made again
    assert [(site / ".nojekyll").read_bytes() for site in sites] == [b"", b"", b""]
    assert not any(".nojekyll" in name for name in manifest(project))


def test_off_a_terminal_a_build_says_what_it_renders_and_each_output_as_it_is_done(project, renderers, capsys):
    """A CI log shows the build going (a line an output, to stderr), where a terminal shows the bar."""
    assert build(project, renderers, only=["sheets"]) == 0
    told = [re.sub(r" \([0-9]+m[0-9]{2}s\)$", "", line) for line in capsys.readouterr().err.splitlines()]
    pages = [f"{id}-{name}.pdf" for id in ("melee", "melee_house") for name in SHEETS]
    order = [name.split("-")[0] for name in sorted(pages, key=lambda name: -len(name))]  # the longest pages first
    first = list(dict.fromkeys(order))
    last = sorted((len(order) - order[::-1].index(id), id) for id in first)  # where each one's sheets are all done
    assert told == [
        f"rulepress: building 8 outputs: sheets of {first[0]}, sheets of {first[1]}",
        *(f"rulepress: [{n}/8] sheets of {id} done" for n, id in last),
    ]
