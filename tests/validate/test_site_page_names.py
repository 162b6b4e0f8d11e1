"""A chapter's page is named by its id, beside the pages the site makes itself: `check` refuses a chapter
that would take one of their names, so a project `check` passes has no page hiding another."""

from __future__ import annotations

import dataclasses
import shutil

import pytest

from generator.model.entries import Chapter
from generator.model.ruleset import SITE_FOLDERS, SITE_PAGE_NAMES
from generator.render.site.pages import SECTION_PAGES, site_pages
from generator.scaffold import scaffold
from generator.validate import check_project
from generator.validate.checks import run_checks

pytestmark = pytest.mark.usefixtures("without_the_wall")  # the wall is not what is tested here (conftest)


def new_project(tmp_path):
    scaffold(tmp_path, "game", None)  # one entry of every kind, and an overlay
    result = check_project(tmp_path)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project


def test_every_page_the_site_makes_in_a_ruleset_folder_is_one_no_chapter_can_be_named(tmp_path):
    project = new_project(tmp_path)
    for audience in ("player", "gm"):
        for ruleset in project.rulesets:
            chapters = {chapter.id for chapter in ruleset.chapters}
            made = {
                path.removeprefix(f"{ruleset.id}/").removesuffix(".md")
                for path in site_pages(project, audience).files
                if path.startswith(f"{ruleset.id}/")
            } - chapters
            # ids are lower_snake_case: a name with a hyphen is no chapter's; a section page yields to a chapter
            unchecked = {name for name in made if "-" not in name and name not in SECTION_PAGES}
            assert unchecked <= set(SITE_PAGE_NAMES), (audience, ruleset.id, unchecked)
            assert "index" in made


def test_a_chapter_named_like_a_page_the_site_makes_is_refused_at_its_id(tmp_path):
    rules = new_project(tmp_path).ruleset("game")
    for name in SITE_PAGE_NAMES:
        renamed = dataclasses.replace(rules, chapters=(*rules.chapters, Chapter(id=name, title="Extra")))
        found = [d for d in run_checks(renamed) if d.code.code == "page-name"]
        assert [f"`{name}`" in d.message for d in found] == [True], (name, [d.format() for d in found])


def test_a_chapter_named_like_a_section_page_keeps_both_pages(tmp_path):
    project = new_project(tmp_path)
    rules = project.ruleset("game")
    renamed = dataclasses.replace(rules, chapters=(*rules.chapters, Chapter(id="values", title="Numbers we use")))
    assert [d.format() for d in run_checks(renamed) if d.code.code == "page-name"] == []
    project = dataclasses.replace(project, rulesets=tuple(renamed if r.id == "game" else r for r in project.rulesets))
    files = site_pages(project, "player").files
    assert "game/values.md" in files and "game/values-list.md" in files


def test_every_folder_the_site_makes_beside_the_rulesets_is_one_no_ruleset_folder_can_be_named(tmp_path):
    project = new_project(tmp_path)
    ids = {ruleset.id for ruleset in project.rulesets}
    for audience in ("player", "gm"):
        folders = {path.split("/")[0] for path in site_pages(project, audience).files if "/" in path} - ids
        assert folders and folders <= set(SITE_FOLDERS), (audience, folders)


def test_a_ruleset_folder_named_like_a_folder_the_site_makes_is_refused_at_the_folder(tmp_path):
    for name in SITE_FOLDERS:
        root = tmp_path / name
        scaffold(root, "game", None)  # `new` refuses the name itself: a folder renamed by hand is refused by check
        shutil.rmtree(root / "rules_src" / "game_house_rules")
        (root / "rules_src" / "game").rename(root / "rules_src" / name)
        found = [d.format() for d in check_project(root).diagnostics.errors if d.code.code == "page-name"]
        assert found == [
            f"rules_src/{name}:1:1: error[page-name]: ruleset folder `{name}` would take the name of the site's "
            f"folder of {SITE_FOLDERS[name]}\n  hint: rename the folder, such as `{name}_rules`"
        ]
