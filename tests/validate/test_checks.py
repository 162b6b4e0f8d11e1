"""Semantic checks on small projects: what they accept, and gaps in what they catch."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.validate import check_project
from generator.validate.checks import CHECKS
from helpers import BROKEN

BASE = BROKEN / "_base"


def checked(tmp_path: Path, text: str) -> list[str]:
    """`path:line:col: error[code]: message` lines for a base project plus one file."""
    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(BASE, folder)
    (folder / "case.yaml").write_text(text, encoding="utf-8")
    return [d.format().splitlines()[0] for d in check_project(tmp_path).diagnostics]


def test_the_registered_checks():
    assert list(CHECKS) == ["references", "spells", "tables", "keywords", "declared_kinds", "sources", "army_limits", "row_counts", "play_aids",
                            "value_cells", "armies", "glossary_terms", "chapter_ids", "prose_links", "gm_references", "audience", "quick_reference", "examples_assert",
                            "formulas", "lookups", "charts", "sheets", "name_clashes", "prose_safety", "examples_stated",
                            "example_sentences"]


def test_links_accept_explicit_titles_aliases_and_any_case(tmp_path):
    assert checked(tmp_path, """
glossary:
  knocked_down: {term: Knocked Down, aliases: [Knocked over], definition: Lying down.}
rules:
  falling:
    title: Falling
    chapter: basics
    body: |
      See {rule}`the rule on falling <falling>`, {term}`knocked down` and {term}`Knocked Over`.
""") == []


def test_quotes_match_across_spacing_case_and_curly_quotes(tmp_path):
    assert checked(tmp_path, """
rules:
  activating:
    title: Activating
    chapter: basics
    source: {section: BASICS, quote: "each UNIT   rolls one dice\\n when it activates"}
""") == []


def test_a_not_given_roll_range_skips_coverage(tmp_path):
    assert checked(tmp_path, """
tables:
  unknown:
    title: Unknown ranges
    dice: D6
    rows:
      - {roll: not given, result: Something}
      - {roll: {not_given: the picture is lost}, result: Something else}
""") == []


def test_a_spell_on_its_table(tmp_path):
    assert checked(tmp_path, """
tables:
  spells:
    title: Spells
    dice: D6
    rows:
      - {roll: 1-3, result: Fireball, ref: fireball}
      - {roll: 4-6, result: Mist}
spells:
  fireball: {name: Fireball, table: spells, roll: 2, effect: Burns.}
""") == []


def test_links_in_nested_prose_are_checked(tmp_path):
    found = checked(tmp_path, """
tables:
  t:
    title: T
    dice: D6
    rows:
      - {roll: 1-6, result: X, effect: "See {rule}`nowhere`."}
profiles:
  troops:
    title: Troops
    columns:
      pts: {label: PTS, type: points, min: 0}
    rows:
      levy: {name: Levy, pts: 2, note: "See {term}`Nothing`."}
""")
    assert len(found) == 2
