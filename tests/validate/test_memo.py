"""The check memo (generator/validate/memo.py, slots ``memo-*`` of the check cache): a ruleset checked
again tries again only the formulas, charts and prose texts whose content, or what they read, changed.

What ran is observed by counting calls of the costly checks (never by timing): ``first_failure`` (a
formula tried with every input), ``cell_failure`` (every cell of a chart) and ``prose_findings``."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

import generator.validate.computed as computed
import generator.validate.prose as prose
from generator import check_cache
from generator.cache_seal import sign
from generator.cli import main
from generator.scaffold import scaffold
from helpers import ROOT


@pytest.fixture
def project(tmp_path):
    """The `rulepress new` ruleset demo (values, formulas, a lookup, a chart, prose) and its overlay."""
    root = tmp_path / "project"
    (root / "rules_src").mkdir(parents=True)
    scaffold(root, "demo", None)
    return root


@pytest.fixture
def tried(monkeypatch):
    """Formula ids tried with every input, chart ids computed cell by cell, prose texts judged, in this process."""
    seen = {"formulas": Counter(), "charts": Counter(), "prose": []}
    first_failure, cell_failure, prose_findings = computed.first_failure, computed.cell_failure, prose.prose_findings

    def counting_formula(formula, calc):
        seen["formulas"][formula.id] += 1
        return first_failure(formula, calc)

    def counting_chart(chart, formula, chance, calc):
        seen["charts"][chart.id] += 1
        return cell_failure(chart, formula, chance, calc)

    def counting_prose(text):
        seen["prose"].append(text)
        return prose_findings(text)

    monkeypatch.setattr(computed, "first_failure", counting_formula)
    monkeypatch.setattr(computed, "cell_failure", counting_chart)
    monkeypatch.setattr(prose, "prose_findings", counting_prose)
    return seen


def forget(tried) -> None:
    tried["formulas"].clear()
    tried["charts"].clear()
    tried["prose"].clear()


def check(root: Path, capsys, *extra: str) -> tuple[int, str, str]:
    status = main(["-C", str(root), "check", *extra])
    out, err = capsys.readouterr()
    return status, out, err


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


FORMULAS = {"melee_score", "melee_outcome", "to_wound"}  # melee.yaml of `rulepress new`


def melee(project: Path) -> Path:
    return project / "rules_src" / "demo" / "melee.yaml"


def test_each_formula_content_is_tried_once_the_overlay_sharing_its_bases(project, capsys, tried):
    assert check(project, capsys)[0] == 0
    # demo and demo_house_rules both hold the three formulas; the overlay changes only `fall_back`,
    # which no formula reads, so each is tried once for both
    assert tried["formulas"] == Counter({id: 1 for id in FORMULAS})
    assert tried["charts"] == Counter({"to_wound_chart": 1})


def test_a_prose_edit_tries_no_formula_and_judges_only_its_text(project, capsys, tried):
    check(project, capsys)
    forget(tried)
    edit(project / "rules_src" / "demo" / "rules.yaml", "Roll a D6 for each attack;", "Roll one D6 for each attack;")
    assert check(project, capsys)[0] == 0
    assert tried["formulas"] == Counter() and tried["charts"] == Counter()
    assert len(tried["prose"]) == 1 and "Roll one D6 for each attack;" in tried["prose"][0]


def test_a_changed_formula_is_tried_again_alone(project, capsys, tried):
    check(project, capsys)
    forget(tried)
    edit(melee(project), "clamp(4 - difference, 2, 6)", "clamp(5 - difference, 2, 6)")
    check(project, capsys)
    assert set(tried["formulas"]) == {"to_wound"}
    assert set(tried["charts"]) == {"to_wound_chart"}  # the chart shows it
    assert tried["prose"] == []


def test_a_changed_value_tries_again_the_formulas_that_read_it(project, capsys, tried):
    check(project, capsys)
    forget(tried)
    edit(melee(project), "foot_score: {value: 1,", "foot_score: {value: 2,")
    check(project, capsys)
    assert set(tried["formulas"]) == {"melee_score"}  # `foot * foot_score + riders * rider_score`
    assert tried["charts"] == Counter()  # to_wound reads no value


TWICE = ("formulas:\n", "formulas:\n  twice_the_score:\n    title: Twice\n    inputs:\n"
         "      foot: {label: Foot, min: 0, max: 3}\n    expr: 2 * melee_score(foot, 0)\n    source: {section: MELEE}\n")
# melee_score itself has too many inputs (21 x 21) to be tried with each; this one has 4


def test_a_value_changed_into_a_roll_is_found_wrong_by_the_formula_that_reads_it(project, capsys, tried):
    edit(melee(project), *TWICE)
    assert check(project, capsys)[0] == 0
    edit(melee(project), "foot_score: {value: 1,", "foot_score: {value: D6,")
    status, _out, err = check(project, capsys)
    assert status == 1
    assert "`twice_the_score` gives a roll, not a number for foot=0" in err  # the memo held "fine" before
    assert check(project, capsys, "--all") == (status, _out, err)


def test_a_changed_lookup_tries_again_the_formula_that_reads_it(project, capsys, tried):
    check(project, capsys)
    forget(tried)
    edit(melee(project), "{when: 1-2, result: Falls back}", "{when: 1-2, result: Falls back in good order}")
    check(project, capsys)
    assert set(tried["formulas"]) == {"melee_outcome"}  # `melee_results(floor(ours - theirs))`


def test_a_formula_reached_through_a_call_counts_as_read(project, capsys, tried):
    edit(melee(project), *TWICE)
    check(project, capsys)
    forget(tried)
    edit(melee(project), "foot_score: {value: 1,", "foot_score: {value: 2,")
    check(project, capsys)
    assert set(tried["formulas"]) == {"melee_score", "twice_the_score"}  # it reads foot_score through melee_score


def test_a_changed_table_tries_again_the_formula_that_reads_it(project, capsys, tried):
    edit(melee(project), "formulas:\n", "formulas:\n  injury_roll:\n    title: An injury\n    inputs:\n"
         "      roll: {label: Roll, min: 1, max: 6}\n    expr: injuries(roll)\n    result: text\n    source: {section: FIGHTING}\n")
    assert check(project, capsys)[0] == 0
    forget(tried)
    edit(project / "rules_src" / "demo" / "rules.yaml", "- {roll: 1-3,", "- {roll: 1-2,")
    status, _out, err = check(project, capsys)
    assert tried["formulas"]["injury_roll"] >= 1 and "melee_score" not in tried["formulas"]
    assert "`injury_roll` fails for roll=3" in err  # no row for 3 any more: found, not remembered as fine
    assert status == 1


def test_a_changed_mechanic_is_loaded_again_and_formulas_which_cannot_read_it_are_not_tried(project, capsys, tried):
    check(project, capsys)
    forget(tried)
    mechanics = project / "rules_src" / "demo" / "mechanics.py"
    edit(mechanics, "// 1)", "// 1) + 1")
    status, out, err = check(project, capsys)
    assert status == 1 and "gave 5, the text says 4" in err  # the example using the mechanic ran again
    assert tried["formulas"] == Counter()  # a formula sees values, tables, lookups, formulas: no mechanic


def test_a_changed_generator_tries_everything_again(project, capsys, tried, monkeypatch):
    first = check(project, capsys)
    forget(tried)
    monkeypatch.setattr(check_cache, "generator_hash", lambda: "0.1.0-another-generator")
    assert check(project, capsys) == first
    assert set(tried["formulas"]) == FORMULAS and set(tried["charts"]) == {"to_wound_chart"}
    assert tried["prose"]


def test_check_all_tries_everything_again(project, capsys, tried):
    first = check(project, capsys)
    forget(tried)
    assert check(project, capsys, "--all") == first
    assert set(tried["formulas"]) == FORMULAS and tried["prose"]


@pytest.mark.parametrize("garbage", ["", "{not json", "[1, 2]", '{"key": 3}'])
def test_a_corrupt_memo_slot_is_a_miss(project, capsys, tried, garbage):
    first = check(project, capsys)
    forget(tried)
    (project / ".rulepress-cache" / "check" / "output-all.json").unlink()
    for slot in ("rules-demo", "rules-demo_house_rules"):  # so that the rulesets are checked again
        (project / ".rulepress-cache" / "check" / f"{slot}.json").unlink()
    for memo in (project / ".rulepress-cache" / "check").glob("memo-*.json"):
        memo.write_text(garbage, encoding="utf-8")
    assert check(project, capsys) == first
    assert set(tried["formulas"]) == FORMULAS


def test_a_memo_entry_with_a_wrong_value_is_a_miss(project, capsys, tried):
    first = check(project, capsys)
    forget(tried)
    folder = project / ".rulepress-cache" / "check"
    (folder / "output-all.json").unlink()
    for slot in ("rules-demo", "rules-demo_house_rules"):
        (folder / f"{slot}.json").unlink()
    for memo in folder.glob("memo-*.json"):  # signed by this machine (so trusted), holding what does not read back
        stored = json.loads(memo.read_bytes().split(b"\n", 1)[1])
        stored["value"] = {key: [["nonsense", 1, 2, 3, 4, 5]] for key in stored["value"]}
        memo.write_bytes(sign(f"check {memo.stem}", json.dumps(stored).encode(), project))
    assert check(project, capsys) == first
    assert set(tried["formulas"]) == FORMULAS and tried["prose"]


def test_a_remembered_failure_is_located_where_the_formula_now_stands(project, capsys, tried):
    edit(melee(project), *TWICE)
    edit(melee(project), "foot_score: {value: 1,", "foot_score: {value: D6,")
    status, _out, err = check(project, capsys)
    assert status == 1 and "melee.yaml:13:3: error[bad-formula]: `twice_the_score` gives" in err  # at the formula (no `result:` written)
    edit(melee(project), "formulas:\n", "formulas:\n\n\n")  # two lines above it: nothing it reads changed
    forget(tried)
    status, out, err = check(project, capsys)
    assert tried["formulas"] == Counter()
    assert "melee.yaml:15:3: error[bad-formula]: `twice_the_score` gives" in err and "melee.yaml:13:" not in err
    assert check(project, capsys, "--all") == (status, out, err)


SAMPLES = ROOT / "rules_src"
EDITS = {  # one file changed, as an author edits (the benchmark's edits)
    "prose": ("rampant_hex/rules.yaml", "plenty of miniatures", "plenty of painted miniatures"),
    "value": ("rampant_hex/values.yaml", "value: 2\n    label: An Expert Ranger adds this to the roll for the table edge",
              "value: 3\n    label: An Expert Ranger adds this to the roll for the table edge"),
    "formula": ("rampant_hex/formulas.yaml", "expr: roll > armour", "expr: roll >= armour"),
}


@pytest.mark.parametrize("kind", sorted(EDITS))
def test_on_the_samples_a_check_after_one_edit_prints_what_check_all_prints(tmp_path, capsys, tried, kind):
    project = tmp_path / "samples"
    shutil.copytree(SAMPLES, project / "rules_src")
    assert check(project, capsys)[0] == 0
    source, old, new = EDITS[kind]
    edit(project / "rules_src" / source, old, new)
    forget(tried)
    remembered = check(project, capsys)
    formulas, texts = set(tried["formulas"]), len(tried["prose"])
    assert remembered == check(project, capsys, "--all")  # byte for byte, nothing trusted from the cache
    if kind == "value":
        assert remembered[0] == 1 and "gave (3, 0), the text says (2, 0)" in remembered[2]
        assert formulas == {"ranger_bonus"}  # the one formula that reads expert_ranger_setup_bonus
    if kind == "prose":
        assert remembered[0] == 0 and formulas == set() and texts == 1
    if kind == "formula":
        assert "scores_a_hit" in formulas and "hits" not in formulas


def test_a_check_through_a_checker_uses_the_memo_too(project, tried):
    """serve checks each ruleset through its own checker: a ruleset it checks again pays only for what changed."""
    from generator.validate import check_project, check_ruleset

    def checker(root, ruleset):
        return check_ruleset(root, ruleset)

    first = check_project(project, checker=checker)
    assert set(tried["formulas"]) == FORMULAS
    forget(tried)
    assert check_project(project, checker=checker).diagnostics == first.diagnostics
    assert tried["formulas"] == Counter() and tried["prose"] == []
    edit(melee(project), "clamp(4 - difference, 2, 6)", "clamp(5 - difference, 2, 6)")
    check_project(project, checker=checker)
    assert set(tried["formulas"]) == {"to_wound"}
