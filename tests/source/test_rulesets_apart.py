"""A game lives in its folder: removing one leaves the others checking clean. (That the engine names no game's
words is searched by tests/test_engine_vocabulary.py.)

A ruleset others build on (`extends:`) is the one exception, by design: removing it makes each
ruleset that extends it report a located `base-ruleset` error at its `extends:` line.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import ROOT, sample_project

from generator.validate import check_project

pytestmark = pytest.mark.usefixtures("without_the_wall")  # the wall is not what is tested here (conftest)

FOLDERS = sorted(p.name for p in (ROOT / "rules_src").iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def extended_by() -> dict[str, list[str]]:
    """Each ruleset's folder name: the rulesets that extend it."""
    project, _ = sample_project()
    return {id: sorted(r.id for r in project.rulesets if r.meta.extends == id) for id in FOLDERS}


def without(tmp_path: Path, removed: str) -> Path:
    shutil.copytree(ROOT / "rules_src", tmp_path / "rules_src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(tmp_path / "rules_src" / removed)
    return tmp_path


def test_the_samples_build_on_each_other_as_the_readme_says(extended_by):
    assert extended_by["warhammer_fantasy_charts"] == ["bad_moon_rising", "ordo_ineptus"]
    assert extended_by["rampant_hex"] == ["rampant_hex_house"]


@pytest.mark.parametrize("removed", FOLDERS)
def test_removing_one_ruleset_leaves_the_others_checking(tmp_path, removed, extended_by):
    result = check_project(without(tmp_path, removed))
    errors = [d for d in result.diagnostics.errors]
    dependants = extended_by[removed]
    assert sorted(d.location.path for d in errors) == [f"rules_src/{id}/ruleset.yaml" for id in dependants]
    assert {d.code.code for d in errors} <= {"base-ruleset"}
    assert {r.id for r in result.project.rulesets} == set(FOLDERS) - {removed}
