"""A long-lived process's loads (generator/source/project.py LoadMemo): folders whose files did not change are
not built again, and what a load gives is what a fresh load gives."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from generator.source.project import LoadMemo, load_project

ROOT = Path(__file__).resolve().parents[2]


def model_text(project) -> str:
    """The whole model as text, locations included; compiled expressions print their address, which is left out."""
    return re.sub(r" at 0x[0-9a-f]+", "", repr(project))


def shown(diagnostics) -> list[str]:
    return [d.format() for d in diagnostics]


def test_only_the_folder_edited_is_built_again_and_the_load_is_a_fresh_one(tmp_path):
    root = tmp_path / "project"
    for name in ("rampant_hex", "warhammer_fantasy_charts"):
        shutil.copytree(ROOT / "rules_src" / name, root / "rules_src" / name)
    root = root.resolve()
    memo = LoadMemo()
    first, _ = load_project(root, memo=memo)
    rules = root / "rules_src" / "rampant_hex" / "rules.yaml"
    rules.write_text(rules.read_text().replace("plenty of miniatures", "plenty of painted miniatures", 1))
    second, said = load_project(root, memo=memo)
    fresh, fresh_said = load_project(root)
    assert second.ruleset("warhammer_fantasy_charts") is first.ruleset("warhammer_fantasy_charts")
    assert second.ruleset("rampant_hex") is not first.ruleset("rampant_hex")
    assert "plenty of painted miniatures" in repr(second.ruleset("rampant_hex").rules)
    assert model_text(second) == model_text(fresh) and shown(said) == shown(fresh_said)


def test_a_folder_that_breaks_and_mends_gives_its_diagnostics_each_time(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(ROOT / "rules_src" / "warhammer_fantasy_charts", root / "rules_src" / "warhammer_fantasy_charts")
    root = root.resolve()
    memo = LoadMemo()
    broken = root / "rules_src" / "warhammer_fantasy_charts" / "broken.yaml"
    broken.write_text("rules: [unclosed\n")
    for _ in range(2):  # the second time from the memo: the same located error
        _project, said = load_project(root, memo=memo)
        assert [d.code.code for d in said] == ["yaml-syntax"] and shown(said) == shown(load_project(root)[1])
    broken.unlink()
    assert shown(load_project(root, memo=memo)[1]) == []


def test_in_an_edited_folder_only_the_edited_files_entries_are_built_again(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(ROOT / "rules_src" / "rampant_hex", root / "rules_src" / "rampant_hex")
    root = root.resolve()
    memo = LoadMemo()
    first = load_project(root, memo=memo)[0].ruleset("rampant_hex")
    rules = root / "rules_src" / "rampant_hex" / "rules.yaml"
    rules.write_text(rules.read_text().replace("plenty of miniatures", "plenty of painted miniatures", 1))
    second, said = load_project(root, memo=memo)
    fresh, fresh_said = load_project(root)
    again = second.ruleset("rampant_hex")
    assert again is not first and again.tables and len(again.tables) == len(first.tables)
    assert all(now is before for now, before in zip(again.tables, first.tables))  # tables.yaml: not built again
    assert not any(now is before for now, before in zip(again.rules, first.rules))  # rules.yaml: built again
    assert model_text(second) == model_text(fresh) and shown(said) == shown(fresh_said)


def test_a_broken_entry_of_a_file_not_edited_is_told_again_and_kept_out(tmp_path):
    folder = tmp_path / "project" / "rules_src" / "warhammer_fantasy_charts"
    shutil.copytree(ROOT / "rules_src" / "warhammer_fantasy_charts", folder)
    (folder / "broken.yaml").write_text("values:\n  speed: {label: Speed}\n")
    root = (tmp_path / "project").resolve()
    memo = LoadMemo()
    load_project(root, memo=memo)
    charts = folder / "charts.yaml"
    charts.write_text(charts.read_text() + "\n# edited\n")
    project, said = load_project(root, memo=memo)
    fresh, fresh_said = load_project(root)
    assert (
        shown(said)
        == shown(fresh_said)
        == [
            "rules_src/warhammer_fantasy_charts/broken.yaml:2:3: error[missing-field]: value `speed` needs the field "
            '`value`\n  hint: value: The value as the rules write it: `2`, `1½`, `3/2`, `6"`, `3 hexes`, `4+`, `2D6`, '
            "`2 minutes`; `not given` if the text leaves it out."
        ]
    )
    assert project.rulesets[0].unloaded == fresh.rulesets[0].unloaded == {("values", "speed")}
    assert model_text(project) == model_text(fresh)
