"""Armies balanced by head-count (tests/fixtures/headcount): models, never points, on every output, and
what counts as a unit is the ruleset's to say (a field gun `counts_as: guns`; its crew are models).

Expected numbers are worked by hand from the fixture: 2 musketeers of 10 models, a gun of no models
and a crew of 4: 24 models of the 30 agreed, 3 units, 1 gun.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from html import unescape
from pathlib import Path

from helpers import FIXTURES

from generator.mechanics import armies
from generator.render.handouts.jobs import handout_jobs
from generator.render.sheets.jobs import sheet_jobs
from generator.render.site import myst
from generator.source.project import load_project
from generator.validate import check_project

FIXTURE = FIXTURES / "headcount"
POINTS_WORDS = re.compile(r"\b(points?|pts|unspent)\b", re.I)


def skirmish(root: Path = FIXTURE):
    project, diagnostics = load_project(root)
    assert not diagnostics.errors, [d.format() for d in diagnostics]
    return project, project.ruleset("skirmish")


def text_of(html: str) -> str:
    html = re.sub(r"(?s)<(style|script)\b.*?</\1>", " ", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_a_gun_counts_as_a_gun_not_a_unit_and_its_crew_as_models():
    _project, ruleset = skirmish()
    army = ruleset.get("armies", "vanguard")
    counts = armies.army_counts(ruleset, army)
    assert (counts["units"], counts["guns"], counts["models"]) == (3, 1, 24)
    assert "points" not in counts and "troop_points" not in counts  # nothing costs points in this game
    assert armies.points_column(ruleset.profile("troops")) is None  # the SCORE column (a number) is no cost
    assert [r.holds for r in armies.check_limits(ruleset, army)] == [True, True]
    assert armies.by_head_count(army) and not armies.balances_by_points(ruleset)
    # the same army with any points stated (a line's, an extra, a total, agreed points) or an upgrade is not
    for stated in (
        {"units": (dataclasses.replace(army.units[0], points=20), *army.units[1:])},
        {"units": (dataclasses.replace(army.units[0], upgrades=("drummer",)), *army.units[1:])},
        {"extras": ("flag",)},
        {"total": 24},
        {"agreed_points": 30},
    ):
        assert not armies.by_head_count(dataclasses.replace(army, **stated)), stated


def test_a_head_count_army_prints_models_and_no_points_on_any_output(tmp_path):
    project, ruleset = skirmish()
    documents = {job.target.name: text_of(job.html) for job in handout_jobs(project, tmp_path, "player")}
    documents |= {job.target.name: text_of(job.html) for job in sheet_jobs(project, tmp_path)}
    documents["site army"] = myst.army_md(ruleset.get("armies", "vanguard"), ruleset)
    documents["site hero"] = myst.hero_md(ruleset.get("heroes", "captain"), ruleset)
    for audience in ("player", "author"):
        documents[f"site limits ({audience})"] = myst.limits_md(list(ruleset.army_limits), ruleset, audience)
    for name, text in documents.items():
        assert not POINTS_WORDS.search(text), (
            f"{name}: …{text[max(0, POINTS_WORDS.search(text).start() - 80) :][:160]}…"
        )
    roster = documents["skirmish-roster-a4.pdf"]
    assert "Agreed models: 30" in roster and "Units: 3" in roster and "Guns: 1" in roster
    assert "24 of 30" in roster and "Agreed models:" in roster.split("The vanguard")[0]  # the blank roster's box too
    assert "Models: **24** of 30 agreed. Units: **3**; Guns: **1**." in documents["site army"]
    assert "Total models 24 of 30" in documents["skirmish-handout-a4.pdf"]


def checked(tmp_path: Path, more: str) -> list[str]:
    """The first line of each diagnostic `check` gives the fixture with one more file."""
    shutil.copytree(FIXTURE, tmp_path, dirs_exist_ok=True)
    (tmp_path / "rules_src" / "skirmish" / "more.yaml").write_text(more, encoding="utf-8")
    return [d.format().splitlines()[0] for d in check_project(tmp_path).diagnostics]


def test_a_head_count_ruleset_has_no_points_an_army_limit_could_count(tmp_path):
    found = checked(
        tmp_path,
        """army_limits:
  spend_it_all:
    title: Spend every point
    count: points
    at_least: "1"
""",
    )
    assert found == [
        "rules_src/skirmish/more.yaml:4:12: error[bad-expression]: `points` is not a count an army limit can use"
    ]


def test_guns_do_not_count_as_units_in_the_army_limits(tmp_path):
    # 2 guns and 3 units (musketeers, 2 crews): 2 guns > 3 // 2; were guns units, 5 // 2 = 2 would allow them
    found = checked(
        tmp_path,
        """armies:
  gun_line:
    title: A gun line
    matrix: troops
    agreed_models: 30
    units:
      - {troop: musketeers}
      - {troop: field_gun, count: 2}
      - {troop: gun_crew, count: 2}
""",
    )
    assert (
        len(found) == 1
        and "error[limit-broken]: `gun_line` breaks “One gun for every two units”: guns is 2" in found[0]
    ), found
