"""A broken source quote fails the suite, in every ruleset, and nothing skips over it.

`test_the_sample_rules_pass_check` is the suite's own test that rules_src/ checks clean. The meta tests break
one quote in each ruleset of a copy: check then reports each one where it was broken, and the suite's test,
run on the copy with `CI` set, fails and skips nothing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, sample_check

from generator.validate import check_project

pytestmark = pytest.mark.fuzz  # many generated or hostile projects, each a run of its own

QUOTE = re.compile(r'quote: "([^"]{12,})"')


def test_the_sample_rules_pass_check():
    result = sample_check()
    assert [d.format().splitlines()[0] for d in result.diagnostics] == []


def break_one_quote_per_ruleset(project: Path) -> dict[str, str]:
    """In each ruleset that quotes its source, the first double-quoted quote gets a word the text never has."""
    broken = {}
    for folder in sorted(p for p in (project / "rules_src").iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            match = QUOTE.search(text)
            if match:
                path.write_text(text[: match.start(1)] + "zyxwvut " + text[match.start(1) :], encoding="utf-8")
                broken[folder.name] = f"rules_src/{folder.name}/{path.name}:{text.count(chr(10), 0, match.start()) + 1}"
                break
    return broken


@pytest.fixture(scope="module")
def broken_copy(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    project = tmp_path_factory.mktemp("quotes")
    shutil.copytree(ROOT / "rules_src", project / "rules_src", ignore=shutil.ignore_patterns("__pycache__"))
    return project, break_one_quote_per_ruleset(project)


def test_every_ruleset_that_quotes_its_source_has_a_quote_broken(broken_copy):
    _project, broken = broken_copy
    # rampant_hex_house only overlays rampant_hex, and warhammer_fantasy_charts has no source text (its charts
    # are typed from the printed rulebook and held to tests/rulesets/published_charts.py): neither quotes anything
    assert sorted(broken) == ["bad_moon_rising", "city_of_the_damned_combat", "ordo_ineptus", "rampant_hex"]


def test_check_reports_each_broken_quote_where_it_was_broken(broken_copy):
    project, broken = broken_copy
    found = [d.format().splitlines()[0] for d in check_project(project).diagnostics]
    quotes = [line for line in found if "error[source-quote]" in line]
    assert sorted(line.rsplit(":", 4)[0] for line in quotes) == sorted(broken.values())
    assert all("zyxwvut" in line for line in quotes)


def test_the_suite_fails_on_the_broken_copy_with_nothing_skipped(broken_copy):
    project, _broken = broken_copy
    (project / "tests").mkdir(exist_ok=True)
    for name in ("conftest.py", "helpers.py", "validate/test_broken_quotes.py"):
        shutil.copy2(ROOT / "tests" / name, project / "tests" / Path(name).name)
    env = {**os.environ, "CI": "true", "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/test_broken_quotes.py",
            "-k",
            "pass_check",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rs",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    summary = run.stdout.strip().splitlines()[-1]
    assert run.returncode == 1, run.stdout
    assert re.search(r"\b1 failed\b", summary) and "skipped" not in summary and "passed" not in summary, summary
