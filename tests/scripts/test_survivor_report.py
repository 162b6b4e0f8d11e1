"""scripts/mutation_report.py: the score of a mutmut run, and which mutants left alive
docs/mutation-equivalents.md explains, by function and changed line rather than by mutmut's numbers.

Each test builds a small ``mutants/`` tree the way mutmut 3.8.1 writes one: the mutated copy of a
module holds, for each function, its original as ``x_<name>__mutmut_orig`` (``xǁ<Class>ǁ<name>`` for a
method, inside its class) and each mutant as ``..._mutmut_<n>``; ``<module>.py.meta`` (JSON) maps each
mutant's name (dotted module, then the mangled function) to the exit code of its tests, None when not
run yet.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import load_script

ROOT = Path(__file__).resolve().parents[2]


report = load_script("mutation_report")

SURVIVED, KILLED = 0, 1

DICE_NUMBERED = """\
class DiceExpr:
    def xǁDiceExprǁparse__mutmut_orig(cls, text):
        position = 0
        while position < len(text):
            position += 1
        return position

    def xǁDiceExprǁparse__mutmut_{n}(cls, text):
        position = 0
        while position <= len(text):
            position += 1
        return position

    def xǁDiceExprǁparse__mutmut_{m}(cls, text):
        position = 1
        while position < len(text):
            position += 1
        return position


def x_count__mutmut_orig(text):
    position = 0
    while position < len(text):
        position += 1
    return position


def x_count__mutmut_1(text):
    position = 0
    while position <= len(text):
        position += 1
    return position
"""
DICE = DICE_NUMBERED.format(n=8, m=9)


def mutants_tree(
    tmp_path: Path, verdicts: dict[str, int | None], *, module: str = "generator/model/dice.py", source: str = DICE
) -> Path:
    """A ``mutants/`` folder holding one mutated module and its verdicts, as mutmut leaves them."""
    root = tmp_path / "mutants"
    path = root / module
    path.parent.mkdir(parents=True)
    path.write_text(source, encoding="utf-8")
    meta = {
        "exit_code_by_key": verdicts,
        "hash_by_function_name": {},
        "type_check_error_by_key": {},
        "durations_by_key": {},
        "estimated_durations_by_key": {},
    }
    path.with_name(path.name + ".meta").write_text(json.dumps(meta), encoding="utf-8")
    return root


def equivalents(tmp_path: Path, *entries: str) -> Path:
    """A reviewed file with one reason and these explanations under it."""
    path = tmp_path / "equivalents.md"
    path.write_text(
        "# Mutants\n\n### Equivalent: the loop stops where only spaces are left.\n\n"
        + "".join(f"{entry}\n" for entry in entries),
        encoding="utf-8",
    )
    return path


def unexplained(root: Path, explained: Path) -> list[str]:
    missing, _ = report.review(report.verdicts(root), explained, root)
    return missing


PARSE_8 = "generator.model.dice.xǁDiceExprǁparse__mutmut_8"
PARSE_9 = "generator.model.dice.xǁDiceExprǁparse__mutmut_9"
COUNT_1 = "generator.model.dice.x_count__mutmut_1"
LOOSE_LOOP = "- `DiceExpr.parse`: ``while position <= len(text):``"


@pytest.mark.parametrize(
    ("name", "function"),
    [
        (PARSE_8, "DiceExpr.parse"),
        ("generator.pipeline.x__export__mutmut_38", "_export"),
        ("generator.model.dice.xǁDiceSyntaxErrorǁ__init____mutmut_1", "DiceSyntaxError.__init__"),
        ("generator.validate.x_check__mutmut_12", "check"),
    ],
)
def test_a_mutant_is_explained_under_its_function_without_module_or_number(name, function):
    assert report.function_of(name) == function


def test_a_survivor_whose_function_and_changed_line_are_explained_is_explained(tmp_path):
    root = mutants_tree(tmp_path, {PARSE_8: SURVIVED, PARSE_9: KILLED})
    assert unexplained(root, equivalents(tmp_path, LOOSE_LOOP)) == []


def test_a_survivor_nobody_explained_is_listed(tmp_path):
    root = mutants_tree(tmp_path, {PARSE_8: SURVIVED, PARSE_9: KILLED})
    assert unexplained(root, equivalents(tmp_path)) == [PARSE_8]


def test_the_same_line_in_another_function_explains_nothing(tmp_path):
    root = mutants_tree(tmp_path, {PARSE_8: KILLED, PARSE_9: KILLED, COUNT_1: SURVIVED})
    assert unexplained(root, equivalents(tmp_path, LOOSE_LOOP)) == [COUNT_1]


def test_another_changed_line_of_the_same_function_is_not_explained(tmp_path):
    root = mutants_tree(tmp_path, {PARSE_8: KILLED, PARSE_9: SURVIVED})
    assert unexplained(root, equivalents(tmp_path, LOOSE_LOOP)) == [PARSE_9]


def test_a_renumbered_mutant_is_still_explained(tmp_path):
    """Any edit of a function renumbers its mutants: the explanation does not depend on the number."""
    renumbered = "generator.model.dice.xǁDiceExprǁparse__mutmut_31"
    source = DICE_NUMBERED.format(n=31, m=30)
    root = mutants_tree(
        tmp_path, {renumbered: SURVIVED, "generator.model.dice.xǁDiceExprǁparse__mutmut_30": KILLED}, source=source
    )
    assert unexplained(root, equivalents(tmp_path, LOOSE_LOOP)) == []


def test_a_function_moved_to_another_module_is_still_explained(tmp_path):
    moved = "generator.model.rolls.xǁDiceExprǁparse__mutmut_8"
    root = mutants_tree(
        tmp_path,
        {moved: SURVIVED, "generator.model.rolls.xǁDiceExprǁparse__mutmut_9": KILLED},
        module="generator/model/rolls.py",
    )
    assert unexplained(root, equivalents(tmp_path, LOOSE_LOOP)) == []


def test_a_killed_mutant_needs_no_explanation(tmp_path):
    root = mutants_tree(tmp_path, {PARSE_8: KILLED, PARSE_9: KILLED, COUNT_1: KILLED})
    assert unexplained(root, equivalents(tmp_path)) == []


def test_a_mutant_not_checked_yet_needs_an_explanation_too(tmp_path):
    root = mutants_tree(tmp_path, {PARSE_8: None, PARSE_9: KILLED})
    assert unexplained(root, equivalents(tmp_path)) == [PARSE_8]


def test_an_explanation_quotes_the_start_of_a_long_line_and_squeezes_its_spaces(tmp_path):
    root = mutants_tree(tmp_path, {PARSE_8: SURVIVED, PARSE_9: KILLED})
    assert unexplained(root, equivalents(tmp_path, "- `DiceExpr.parse`: ``while  position <=``")) == []


def test_a_changed_default_is_quoted_as_the_signature_of_f(tmp_path):
    source = (
        "def x_watch__mutmut_orig(pid: int, every: float = 0.5) -> None:\n    pass\n\n\n"
        "def x_watch__mutmut_1(pid: int, every: float = 1.5) -> None:\n    pass\n"
    )
    root = mutants_tree(
        tmp_path, {"generator.pipeline.x_watch__mutmut_1": SURVIVED}, module="generator/pipeline.py", source=source
    )
    entry = "- `watch`: ``def f(pid: int, every: float = 1.5) -> None:``"
    assert unexplained(root, equivalents(tmp_path, entry)) == []


def test_a_package_s_own_mutants_are_read_from_its_init(tmp_path):
    source = (
        "def x_check__mutmut_orig(found):\n    return bool(found)\n\n\n"
        "def x_check__mutmut_1(found):\n    return bool(None)\n"
    )
    root = mutants_tree(
        tmp_path,
        {"generator.validate.x_check__mutmut_1": SURVIVED},
        module="generator/validate/__init__.py",
        source=source,
    )
    assert unexplained(root, equivalents(tmp_path, "- `check`: ``return bool(None)``")) == []


def test_an_explanation_that_matches_no_mutant_left_alive_is_reported_for_deletion(tmp_path):
    root = mutants_tree(tmp_path, {PARSE_8: KILLED, PARSE_9: KILLED})
    stale = "- `DiceExpr.parse`: ``while position != len(text):``"
    missing, unused = report.review(report.verdicts(root), equivalents(tmp_path, LOOSE_LOOP, stale), root)
    assert missing == []
    assert [(e.function, e.line) for e in unused] == [
        ("DiceExpr.parse", "while position <= len(text):"),
        ("DiceExpr.parse", "while position != len(text):"),
    ]


def test_the_report_prints_the_score_per_module_and_in_all(tmp_path, monkeypatch, capsys):
    root = mutants_tree(tmp_path, {PARSE_8: SURVIVED, PARSE_9: KILLED, COUNT_1: KILLED})
    monkeypatch.setattr(report, "EXPLAINED", equivalents(tmp_path, LOOSE_LOOP))
    assert report.main(str(root)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["generator/model/dice.py", "2", "/", "3", "killed", "66.7%", "1", "survived"]
    assert lines[1].split() == ["all", "2", "/", "3", "killed", "66.7%", "1", "survived"]
    assert lines[2].startswith(f"not killed and not explained in {report.EXPLAINED}: 0 ")
    assert lines[3] == f"explanations in {report.EXPLAINED} that match no mutant left alive: 0"


def test_the_report_names_each_survivor_it_cannot_explain(tmp_path, monkeypatch, capsys):
    root = mutants_tree(tmp_path, {PARSE_8: SURVIVED, PARSE_9: SURVIVED})
    monkeypatch.setattr(report, "EXPLAINED", equivalents(tmp_path, LOOSE_LOOP))
    report.main(str(root))
    out = capsys.readouterr().out
    assert f"not killed and not explained in {report.EXPLAINED}: 1 " in out
    assert f"\n  {PARSE_9}\n" in out and f"  {PARSE_8}\n" not in out


def test_the_markdown_table_holds_the_same_numbers(tmp_path, capsys):
    root = mutants_tree(tmp_path, {PARSE_8: SURVIVED, PARSE_9: KILLED, COUNT_1: KILLED})
    report.main(str(root), "--markdown")
    rows = capsys.readouterr().out.splitlines()
    assert rows[2] == "| `generator/model/dice.py` | 3 | 2 | 1 | 0 | 66.7% |"
    assert rows[3] == "| **all** | 3 | 2 | 1 | 0 | 66.7% |"


def test_the_mutants_to_run_again_are_those_checked_and_not_killed(tmp_path, capsys):
    # exit 0 survived, 33 no tests, 1 killed, None not run yet: `make mutation-again` runs the first two again
    root = mutants_tree(
        tmp_path, {PARSE_8: SURVIVED, PARSE_9: 33, COUNT_1: KILLED, "generator.model.dice.x_f__mutmut_1": None}
    )
    assert report.main(str(root), "--not-killed") == 0
    assert capsys.readouterr().out.splitlines() == [PARSE_8, PARSE_9]


def _many(tmp_path: Path, count: int) -> Path:
    """A tree of ``count`` mutants of one function, every third one surviving."""
    verdicts = {f"generator.model.dice.x_count__mutmut_{n}": SURVIVED if n % 3 == 0 else KILLED for n in range(count)}
    return mutants_tree(tmp_path, verdicts)


def test_a_sample_draws_distinct_mutants_and_the_same_ones_for_the_same_seed(tmp_path, capsys):
    root = _many(tmp_path, 40)
    by_module = report.verdicts(root)
    drawn = report.sample(by_module, 10, seed=3)
    assert len(set(drawn)) == 10 and set(drawn) <= set(by_module["generator/model/dice.py"])
    assert report.sample(by_module, 10, seed=3) == drawn and report.sample(by_module, 10, seed=4) != drawn
    assert len(report.sample(by_module, 100, seed=3)) == 40  # never more than there are
    assert report.main(str(root), "--sample", "10", "--seed", "3") == 0
    assert capsys.readouterr().out.split() == drawn


@pytest.mark.parametrize(
    ("killed", "checked", "low", "high"),
    [
        # by hand, z = 1.96: centre (p + z²/2n) / (1 + z²/n), half-width z·√(p(1-p)/n + z²/4n²) / (1 + z²/n)
        (24, 30, 0.6269, 0.9050),
        (30, 30, 0.8865, 1.0),  # all killed: the low end is 1 / (1 + z²/n)
        (0, 30, 0.0, 0.1135),
        (135, 150, 0.8416, 0.9385),
    ],
)
def test_the_interval_of_the_share_killed_is_wilsons(killed, checked, low, high):
    found = report.wilson(killed, checked)
    assert found == pytest.approx((low, high), abs=1e-4)


def test_the_estimate_counts_the_sample_s_verdicts_and_gives_the_interval(tmp_path, capsys):
    root = _many(tmp_path, 30)  # n = 0, 3, ... 27 survive: 10 of 30
    names = tmp_path / "sample.txt"
    names.write_text("\n".join(f"generator.model.dice.x_count__mutmut_{n}" for n in range(30)), encoding="utf-8")
    assert report.main(str(root), "--estimate", str(names)) == 0
    assert capsys.readouterr().out.splitlines() == [
        "sample of 30: 20 of 30 checked killed (66.7%); 10 survived",
        "the share killed among all 30 mutants: 48.8% to 80.8% (95% interval)",
    ]


def test_every_explanation_line_of_the_reviewed_file_is_read():
    """A line of the list that the report cannot read would explain nothing, and silently."""
    text = (ROOT / "docs" / "mutation-equivalents.md").read_text(encoding="utf-8")
    listed = text.partition("\n## Not killed, and why\n")[2]
    assert listed, "docs/mutation-equivalents.md has no '## Not killed, and why' section"
    entries = [line for line in listed.splitlines() if line.startswith("- ")]
    assert len(report.explanations(ROOT / "docs" / "mutation-equivalents.md")) == len(entries) > 0
