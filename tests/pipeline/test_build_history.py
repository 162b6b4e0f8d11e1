"""A build's outputs depend on the sources alone, never on the builds before it.

Hypothesis drives a small project (`rulepress new`, its overlay left out to keep each build short)
through random sequences of edits a rules author makes: moving a chart between a chapter, the
charts page and a rule's `charts:`, renaming an entry and a chapter, breaking the data and fixing
it, emptying and corrupting files under `.rulepress-cache/`. After each edit the project is built
incrementally (`--only site`); whenever `check` would pass the build must pass, and its site must be
byte for byte the site a clean build of the same sources gives (a fresh copy, no cache). While the
data is broken the build must fail and leave `build/` as it was.

Bounded and reproducible: derandomized, no example database, a few short sequences.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from generator.cli import main

pytestmark = pytest.mark.fuzz  # many generated or hostile projects, each a run of its own

BUILD = ["build", "--only", "site", "--audience", "player", "--jobs", "1"]
GAME = Path("rules_src/game")
CHART_PLACES = ("chapter", "charts page", "rule")


def run(project: Path, *args: str) -> tuple[int, str]:
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        status = main(["-C", str(project), *args])
    return status, said.getvalue()


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def sources_digest(project: Path) -> str:
    digest = hashlib.sha256()
    for name, data in tree(project / "rules_src").items():
        digest.update(name.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def new_game(folder: Path) -> Path:
    status, said = run(folder, "new", "game")
    assert status == 0, said
    shutil.rmtree(folder / "rules_src" / "game_house_rules")  # one ruleset: each build takes a second or two
    return folder


class BuildHistory(RuleBasedStateMachine):
    """The project and what is known about it: where the chart is, the names in use, whether the data is broken."""

    def __init__(self):
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="rulepress-history-"))
        self.project = new_game(self.folder / "project")
        self.chart_place = "chapter"
        self.table_id = "injuries"
        self.chapter_title = "Fighting"
        self.broken = False
        self.clean_sites: dict[str, dict[str, bytes]] = CLEAN_SITES

    @initialize()
    def first_build(self):
        self.build_and_compare()

    def teardown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- edits ---------------------------------------------------------------------------------
    @rule(place=st.sampled_from(CHART_PLACES))
    def move_the_chart(self, place):
        melee, rules = self.project / GAME / "melee.yaml", self.project / GAME / "rules.yaml"
        if self.chart_place == "chapter":
            replace_once(
                melee, "    chapter: fighting\n    source: {section: CHARTS}\n", "    source: {section: CHARTS}\n"
            )
        elif self.chart_place == "rule":
            replace_once(rules, "    charts: [to_wound_chart]\n", "")
        if place == "chapter":
            replace_once(
                melee, "    source: {section: CHARTS}\n", "    chapter: fighting\n    source: {section: CHARTS}\n"
            )
        elif place == "rule":
            replace_once(rules, "    phase: fight\n", "    phase: fight\n    charts: [to_wound_chart]\n")
        self.chart_place = place
        self.build_and_compare()

    @rule()
    def rename_the_injury_table(self):
        new = "wounds" if self.table_id == "injuries" else "injuries"
        for path in (self.project / GAME).glob("*.yaml"):
            text = path.read_text(encoding="utf-8")
            path.write_text(re.sub(rf"\b{self.table_id}\b", new, text), encoding="utf-8")
        self.table_id = new
        self.build_and_compare()

    @rule()
    def rename_the_fighting_chapter(self):
        new = "Close combat" if self.chapter_title == "Fighting" else "Fighting"
        replace_once(
            self.project / GAME / "ruleset.yaml",
            f"fighting: {{title: {self.chapter_title}}}",
            f"fighting: {{title: {new}}}",
        )
        self.chapter_title = new
        self.build_and_compare()

    @rule()
    def break_or_fix_the_injury_rows(self):
        """A gap in the injury table (rolls 4-6 become 5-6), then the fix."""
        old, new = ("{roll: 4-6, result: Out of action}", "{roll: 5-6, result: Out of action}")
        replace_once(self.project / GAME / "rules.yaml", *((new, old) if self.broken else (old, new)))
        self.broken = not self.broken
        self.build_and_compare()

    @precondition(lambda self: (self.project / ".rulepress-cache").is_dir())
    @rule(pick=st.integers(min_value=0), how=st.sampled_from(("empty", "garbage", "tippy")))
    def spoil_a_cache_file(self, pick, how):
        cache = self.project / ".rulepress-cache"
        if how == "tippy":  # what a failed build left once: an empty sphinx-tippy cache
            targets = sorted(cache.rglob("tippy_*_cache.json")) or sorted(p for p in cache.rglob("*") if p.is_file())
        else:
            targets = sorted(p for p in cache.rglob("*") if p.is_file())
        if targets:
            target = targets[pick % len(targets)]
            target.write_bytes(b"" if how != "garbage" else b"\x80not what was written\n")
        self.build_and_compare()

    # -- the property ----------------------------------------------------------------------------
    def build_and_compare(self):
        before = tree(self.project / "build") if (self.project / "build").is_dir() else None
        status, said = run(self.project, *BUILD)
        if self.broken:
            assert status == 1 and "build failed" in said, said
            after = tree(self.project / "build") if (self.project / "build").is_dir() else None
            assert after == before, "a refused build changed build/"
            return
        assert status == 0, f"check passes, so the build must pass:\n{said}"
        expected = self.clean_site()
        got = tree(self.project / "build" / "site")
        differ = sorted(n for n in set(expected) | set(got) if expected.get(n) != got.get(n))
        assert not differ, f"the incremental site differs from a clean build in {differ[:10]}"

    def clean_site(self) -> dict[str, bytes]:
        key = sources_digest(self.project)
        if key not in self.clean_sites:
            clean = Path(tempfile.mkdtemp(prefix="rulepress-clean-", dir=self.folder))
            shutil.copytree(self.project / "rules_src", clean / "rules_src")
            status, said = run(clean, *BUILD)
            assert status == 0, f"a clean build of the same sources failed:\n{said}"
            self.clean_sites[key] = tree(clean / "build" / "site")
            shutil.rmtree(clean, ignore_errors=True)
        return self.clean_sites[key]

    @invariant()
    def the_cache_stays_inside_the_project(self):
        assert not (self.folder / ".rulepress-cache").exists()


CLEAN_SITES: dict[str, dict[str, bytes]] = {}  # sources digest -> the clean build's site, shared by every run

BuildHistory.TestCase.settings = settings(
    max_examples=4,
    stateful_step_count=5,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
test_incremental_builds_give_the_bytes_of_a_clean_build = BuildHistory.TestCase


# -- one test per finding (issue 21, item 7) ------------------------------------------------------------
@pytest.fixture(scope="module")
def game_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("game")


@pytest.fixture
def built_game(game_home) -> Path:
    """`new_game` with its players' site built: built by the first test that asks, each later test given a copy of
    that build at the same path (a build names its site caches by the path it builds into)."""
    project, built = game_home / "project", game_home / "built"
    shutil.rmtree(project, ignore_errors=True)
    if built.exists():
        shutil.copytree(built, project, symlinks=True)
    else:
        project.mkdir()
        assert run(new_game(project), *BUILD)[0] == 0
        shutil.copytree(project, built, symlinks=True)
    return project


def test_a_chart_moved_from_its_chapter_into_a_rule_builds_at_once(built_game):
    """The label of the chart left the chapter's page for the charts page, read first: never a duplicate."""
    project = built_game
    replace_once(
        project / GAME / "melee.yaml",
        "    chapter: fighting\n    source: {section: CHARTS}\n",
        "    source: {section: CHARTS}\n",
    )
    replace_once(
        project / GAME / "rules.yaml", "    phase: fight\n", "    phase: fight\n    charts: [to_wound_chart]\n"
    )
    assert run(project, "check")[0] == 0
    status, said = run(project, *BUILD)
    assert status == 0 and "duplicate label" not in said, said


def test_a_renamed_chapter_is_renamed_in_every_pages_navigation(built_game):
    project = built_game
    replace_once(project / GAME / "ruleset.yaml", "fighting: {title: Fighting}", "fighting: {title: Close combat}")
    assert run(project, *BUILD)[0] == 0
    unread = (project / "build" / "site" / "game" / "turn.html").read_text(
        encoding="utf-8"
    )  # a page the change is not on
    assert "Close combat" in unread and ">Fighting<" not in unread


def test_an_empty_tippy_cache_this_machine_sealed_is_no_failure(built_game):
    """A 0-byte `tippy_rtd_cache.json` (once left by a failed build) never stops a build, even sealed as valid."""
    from generator.cache_seal import seal
    from generator.pipeline import plan

    project = built_game
    html = plan.site_cache(project, project / "build", "site").with_name("site-html")
    (html / "tippy_rtd_cache.json").write_bytes(b"")
    seal(html, project)  # as if this machine had written it
    replace_once(project / GAME / "rules.yaml", "Roll a D6 for each attack", "Roll one D6 for each attack")
    status, said = run(project, *BUILD)
    assert status == 0, said


def test_an_exception_in_the_site_build_is_an_internal_error_never_a_warning(tmp_path, monkeypatch):
    from sphinx.application import Sphinx

    from generator.render.site import pages
    from generator.source.project import load_project

    def broken(self, *args, **kwargs):
        raise ValueError("an extension gave up")

    monkeypatch.setattr(Sphinx, "build", broken)
    project = load_project(new_game(tmp_path / "project"))[0]
    try:
        pages.build_site(project, tmp_path / "cache", tmp_path / "html", "player", index=False)
    except pages.SiteWarnings:
        raise AssertionError("an exception was reported as a warning of the rules text") from None
    except pages.SiteFailed as failed:
        assert "ValueError: an extension gave up" in str(failed) and str(tmp_path / "cache") not in str(failed)
    else:
        raise AssertionError("the site build did not fail")


def test_a_site_build_that_raised_exits_as_an_internal_error(tmp_path, monkeypatch):
    from generator.pipeline import plan
    from generator.render.site.pages import SiteFailed

    def raised(tasks, workers, advance, walled=None):
        raise SiteFailed("the site build stopped: JSONDecodeError: Expecting value")

    project = new_game(tmp_path)
    monkeypatch.setattr(plan, "run_tasks", raised)
    said, errors = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(errors):
        status = main(["-C", str(project), *BUILD])
    assert status == 70
    assert errors.getvalue().splitlines()[-2:] == [
        "rulepress: internal error: the site build stopped: JSONDecodeError: Expecting value"
        " (please report this with the command you ran)",
        f"build failed: the site build stopped; nothing is written to {project / 'build'}",
    ]
    assert not (project / "build").exists()


def test_a_render_that_did_not_finish_says_why_then_that_the_build_failed(tmp_path, monkeypatch):
    from generator.pipeline import plan
    from generator.pool import RenderFailed

    def raised(tasks, workers, advance, walled=None):
        raise RenderFailed("the render worker ended without an answer")

    project = new_game(tmp_path)
    monkeypatch.setattr(plan, "run_tasks", raised)
    said, errors = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(errors):
        status = main(["-C", str(project), *BUILD])
    assert status == 1
    assert errors.getvalue().splitlines()[-2:] == [
        "error: the render worker ended without an answer",
        f"build failed: a render did not finish; nothing is written to {project / 'build'}",
    ]
    assert not (project / "build").exists()
