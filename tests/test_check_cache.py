"""The check cache (generator/check_cache.py): a check of unchanged files prints what the last one
printed without checking again; a changed file, mechanic or generator checks again what it touches;
a deleted or corrupt cache changes nothing but the time; `check --all` runs every example."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from types import SimpleNamespace

import pytest

import generator.examples.run as example_runs
import generator.validate as validate
from generator import check_cache
from generator.cache_seal import sign
from generator.check_cache import CheckCache, load_diagnostics, tree_digest
from generator.cli import main
from generator.scaffold import scaffold

pytestmark = pytest.mark.usefixtures("without_the_wall")  # the wall is not what is tested here (conftest)

ROOT = Path(__file__).resolve().parents[1]
RENDERERS = ("sphinx", "weasyprint", "jinja2")


@pytest.fixture
def project(tmp_path):
    """Two independent rulesets from `rulepress new` (demo and other), each with its house-rules overlay."""
    root = tmp_path / "project"
    (root / "rules_src").mkdir(parents=True)
    scaffold(root, "demo", None)
    scaffold(root, "other", None)
    return root


@pytest.fixture(scope="module")
def checked_once(tmp_path_factory) -> tuple[Path, tuple[int, str, str]]:
    """The project above after one check, with what it printed, made once for the tests that start from there."""
    root = tmp_path_factory.mktemp("checked") / "project"
    (root / "rules_src").mkdir(parents=True)
    scaffold(root, "demo", None)
    scaffold(root, "other", None)
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, redirect_stdout(out), redirect_stderr(err):
        patch.setenv("RULEPRESS_WALL", "off")  # as `without_the_wall`, a function's fixture, runs the tests here
        status = main(["-C", str(root), "check"])
    return root, (status, out.getvalue(), err.getvalue())


@pytest.fixture
def checked(checked_once, tmp_path) -> tuple[Path, tuple[int, str, str]]:
    """A copy of that checked project, its check cache too, and what its check printed. The output slot, keyed by the
    project's folder, misses in a copy; every other slot is keyed by content alone and is found there."""
    root, printed = checked_once
    shutil.copytree(root, tmp_path / "project", symlinks=True)
    return tmp_path / "project", printed


@pytest.fixture
def counted(monkeypatch):
    """Which rulesets were checked and which had their examples run, in this process."""
    seen = {"checked": [], "examples": []}
    run_checks, run_examples = validate.run_checks, example_runs.run_examples

    def counting_checks(ruleset):
        seen["checked"].append(ruleset.id)
        return run_checks(ruleset)

    def counting_examples(ruleset, root=None):
        seen["examples"].append(ruleset.id)
        return run_examples(ruleset, root)

    monkeypatch.setattr(validate, "run_checks", counting_checks)
    monkeypatch.setattr(example_runs, "run_examples", counting_examples)
    yield seen
    seen["checked"].clear()
    seen["examples"].clear()


def check(root: Path, capsys, *extra: str) -> tuple[int, str, str]:
    status = main(["-C", str(root), "check", *extra])
    out, err = capsys.readouterr()
    return status, out, err


def forget(counted) -> None:
    counted["checked"].clear()
    counted["examples"].clear()


PASSING = (
    "demo: 2 examples, all pass\ndemo_house_rules: 2 examples, all pass\n"  # an overlay runs its base's
    "other: 2 examples, all pass\nother_house_rules: 2 examples, all pass\n"
    "4 rulesets, 8 tables, 8 profile rows, 8 examples, 0 errors\n"
)


def test_an_unchanged_project_is_printed_back_without_checking(project, capsys, counted):
    first = check(project, capsys)
    assert first == (0, PASSING, "")
    assert sorted(counted["checked"]) == ["demo", "demo_house_rules", "other", "other_house_rules"]
    forget(counted)
    assert check(project, capsys) == first
    assert counted == {"checked": [], "examples": []}


def test_a_changed_yaml_file_checks_its_ruleset_and_its_overlay_again(checked, capsys, counted):
    project, _first = checked
    melee = project / "rules_src" / "demo" / "melee.yaml"
    melee.write_text(
        melee.read_text(encoding="utf-8").replace("melee_score(2, 0))\n      4\n", "melee_score(2, 0))\n      5\n"),
        encoding="utf-8",
    )
    status, out, err = check(project, capsys)
    assert status == 1
    assert "demo: 2 examples, 1 failed\n" in out and "other: 2 examples, all pass\n" in out
    assert "demo_house_rules: 2 examples not run: its base `demo` has failing examples\n" in out
    assert "gave 4, the example expects 5" in err and "rules_src/demo/melee.yaml:" in err
    assert sorted(counted["checked"]) == ["demo", "demo_house_rules"]  # other's files did not change
    assert sorted(counted["examples"]) == ["demo"]
    forget(counted)
    assert check(project, capsys) == (status, out, err)  # a failing example is never stored: it runs again
    assert counted["examples"] == ["demo"]


def test_a_changed_mechanic_runs_its_examples_again(checked, capsys, counted):
    project, _first = checked
    mechanics = project / "rules_src" / "demo" / "mechanics.py"
    mechanics.write_text(mechanics.read_text(encoding="utf-8").replace("// 1)", "// 1) + 1"), encoding="utf-8")
    status, out, err = check(project, capsys)
    assert status == 1
    assert "demo: 2 examples, 1 failed\n" in out
    assert "gave 5, the example expects 4" in err
    assert sorted(counted["examples"]) == ["demo"]  # its overlay would only tell the same failure again


def test_a_changed_generator_trusts_nothing_cached(checked, capsys, counted, monkeypatch):
    project, first = checked
    monkeypatch.setattr(check_cache, "generator_hash", lambda: "0.1.0-another-generator")
    assert check(project, capsys) == first
    assert sorted(counted["checked"]) == ["demo", "demo_house_rules", "other", "other_house_rules"]
    assert sorted(counted["examples"]) == ["demo", "demo_house_rules", "other", "other_house_rules"]


def test_a_deleted_cache_gives_the_same_output(checked, capsys):
    project, first = checked
    shutil.rmtree(project / ".rulepress-cache")
    assert check(project, capsys) == first
    assert (project / ".rulepress-cache" / "check").is_dir()  # rebuilt


@pytest.mark.parametrize("garbage", ["", "{not json", "[1, 2]", '{"key": 3}', "\udcff"])
def test_a_corrupt_cache_gives_the_same_output(checked, capsys, counted, garbage):
    project, first = checked
    slots = sorted((project / ".rulepress-cache" / "check").glob("*.json"))
    kept = [slot.name for slot in slots if not slot.name.startswith("memo-")]
    assert len(kept) == 9  # the output, and each ruleset's diagnostics and example run
    assert {slot.name for slot in slots} - set(kept) >= {"memo-formulas.json", "memo-prose.json"}  # each costly item's
    for slot in slots:
        slot.write_bytes(garbage.encode("utf-8", "surrogateescape"))
    forget(counted)
    assert check(project, capsys) == first
    assert sorted(counted["checked"]) == ["demo", "demo_house_rules", "other", "other_house_rules"]
    assert check(project, capsys) == first  # and it was rebuilt


def test_a_slot_holding_a_right_key_and_a_wrong_value_is_checked_again(project, capsys, counted):
    first = check(project, capsys)
    folder = project / ".rulepress-cache" / "check"
    for slot in folder.glob("*.json"):  # signed by this machine (so trusted), holding what does not read back
        key = json.loads(slot.read_bytes().split(b"\n", 1)[1])["key"]
        value = json.dumps({"key": key, "value": [["Nowhere", "x", 1, 1, "no-such-code", "", None, "?"]]})
        slot.write_bytes(sign(f"check {slot.stem}", value.encode(), project))
    forget(counted)
    assert check(project, capsys) == first
    assert sorted(counted["checked"]) == ["demo", "demo_house_rules", "other", "other_house_rules"]


def test_check_all_runs_every_example_and_checks_every_ruleset(checked, capsys, counted):
    project, first = checked
    assert check(project, capsys, "--all") == first
    assert sorted(counted["examples"]) == ["demo", "demo_house_rules", "other", "other_house_rules"]
    assert sorted(counted["checked"]) == ["demo", "demo_house_rules", "other", "other_house_rules"]


def test_no_examples_and_one_ruleset_are_cached_apart(project, capsys, counted):
    everything = check(project, capsys)
    only = check(project, capsys, "--ruleset", "other", "--no-examples")
    assert only == (0, "1 ruleset, 2 tables, 2 profile rows, 2 examples, 0 errors\n", "")  # other alone
    assert check(project, capsys) == everything
    assert check(project, capsys, "--ruleset", "other", "--no-examples") == only


@pytest.mark.build  # renders for real in its body
def test_the_build_sees_a_cached_failure_too(project, capsys, tmp_path):
    """The build checks with the same cache: a ruleset made wrong after a passing check refuses the build."""
    check(project, capsys)
    melee = project / "rules_src" / "demo" / "melee.yaml"
    melee.write_text(melee.read_text(encoding="utf-8").replace("'Taken prisoner'", "'Set free'"), encoding="utf-8")
    status = main(["-C", str(project), "build", "--only", "sheets", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 1 and "the example expects 'Set free'" in err and "build failed" in err
    assert not (tmp_path / "out").exists()


# -- the whole process, on the sample rules ----------------------------------------------------------------
RUN_AND_LIST = """
import sys
from generator.cli import main
status = main(sys.argv[2:])
loaded = sorted({name.split(".")[0] for name in sys.modules} & set(sys.argv[1].split(",")))
print("renderers loaded:", loaded, file=sys.stderr)
sys.exit(status)
"""


def check_process(project: Path, *extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", RUN_AND_LIST, ",".join(RENDERERS), "-C", str(project), "check", *extra],
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=300,
    )


def test_check_on_the_samples_prints_the_same_cached_and_loads_no_renderer(tmp_path):
    project = tmp_path / "samples"
    shutil.copytree(ROOT / "rules_src", project / "rules_src")
    cold = check_process(project)
    warm = check_process(project)
    forced = check_process(project, "--all")
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.endswith("renderers loaded: []\n"), cold.stderr
    assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    assert (forced.returncode, forced.stdout, forced.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    assert cold.stdout.endswith(" 0 errors\n") and "rampant_hex: 29 examples, all pass\n" in cold.stdout


def test_a_linked_cache_folder_is_neither_read_nor_written(project, capsys, tmp_path):
    """Rules from elsewhere may ship `.rulepress-cache/check` as a link: nothing is written through it."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / ".rulepress-cache").mkdir()
    (project / ".rulepress-cache" / "check").symlink_to(elsewhere)
    assert check(project, capsys) == (0, PASSING, "")
    assert list(elsewhere.iterdir()) == []


# The keys over links, huge and unreadable files, and slots that do not read back: a key changes exactly
# when what the loader would read changes, and nothing outside the project is read.


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A project (``root``, with rules_src/game/) and a folder outside it."""
    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / "rules_src" / "game").mkdir(parents=True)
    (root / "rules_src" / "game" / "ruleset.yaml").write_text("ruleset: {title: Game}\n")
    outside.mkdir()
    (outside / "secret.yaml").write_text("one\n")
    return root.resolve(), outside


def key(root: Path) -> str:
    return tree_digest(root / "rules_src", root).hexdigest()


def test_a_link_leading_outside_is_hashed_by_its_text_alone(layout):
    root, outside = layout
    (root / "rules_src" / "game" / "stolen.yaml").symlink_to(outside / "secret.yaml")
    before = key(root)
    (outside / "secret.yaml").write_text("two, of another length\n")
    assert key(root) == before  # what it leads to is never read
    (root / "rules_src" / "game" / "stolen.yaml").unlink()
    (root / "rules_src" / "game" / "stolen.yaml").symlink_to(outside / "elsewhere.yaml")
    assert key(root) != before  # where it leads is part of the key


def test_a_linked_top_folder_leading_outside_is_not_entered(layout):
    root, outside = layout
    (root / "rules_src" / "linked").symlink_to(outside, target_is_directory=True)
    top = root / "rules_src" / "linked"
    before = tree_digest(top, root).hexdigest()
    (outside / "secret.yaml").write_text("changed\n")
    (outside / "more.yaml").write_text("new\n")
    assert tree_digest(top, root).hexdigest() == before


def test_a_link_inside_the_project_is_followed(layout):
    root, _outside = layout
    (root / "shared.yaml").write_text("a: 1\n")
    (root / "rules_src" / "game" / "shared.yaml").symlink_to(root / "shared.yaml")
    before = key(root)
    (root / "shared.yaml").write_text("a: 2\n")
    assert key(root) != before


def test_a_loop_of_links_ends(layout):
    root, _outside = layout
    (root / "rules_src" / "game" / "again").symlink_to(root / "rules_src", target_is_directory=True)
    first = key(root)
    assert key(root) == first  # it ends, and the same way each time
    (root / "rules_src" / "game" / "ruleset.yaml").write_text("ruleset: {title: Changed}\n")
    assert key(root) != first


def test_a_file_beyond_the_size_cap_is_hashed_by_its_size(layout, monkeypatch):
    root, _outside = layout
    monkeypatch.setattr(check_cache, "LARGE", 10)
    big = root / "rules_src" / "game" / "big.yaml"
    big.write_text("x" * 20)
    before = key(root)
    big.write_text("y" * 20)
    assert key(root) == before  # same size: never read
    big.write_text("y" * 21)
    assert key(root) != before


def test_an_unreadable_file_keys_as_unreadable(layout, monkeypatch):
    root, _outside = layout
    readable = key(root)
    real = Path.read_bytes

    def refuse(self):  # as for a file without read permission (root may read anything, so it is simulated)
        if self.name == "ruleset.yaml":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    unreadable = key(root)
    assert unreadable != readable and key(root) == unreadable


def test_a_slot_that_does_not_read_back_is_a_miss(layout):
    root, _outside = layout
    cache = CheckCache(root)
    cache.put("rules-game", "key-1", [1, 2])
    assert cache.get("rules-game", "key-1") == [1, 2]
    assert cache.get("rules-game", "key-2") is None  # another key
    slot = cache.folder / "rules-game.json"
    for corrupt in ("{not json", json.dumps([1, 2]), json.dumps({"key": "key-1"}), "\udcff"):
        slot.write_text(corrupt, encoding="utf-8", errors="surrogateescape")
        assert cache.get("rules-game", "key-1") is None, corrupt
    assert CheckCache(root, reading=False).get("rules-game", "key-1") is None  # `check --all` reads nothing


def test_a_cache_folder_that_is_a_link_is_neither_read_nor_written(layout):
    root, outside = layout
    (root / ".rulepress-cache").symlink_to(outside, target_is_directory=True)
    cache = CheckCache(root)
    cache.put("rules-game", "key-1", [1])
    assert not (outside / "check").exists()
    (outside / "check").mkdir()
    (outside / "check" / "rules-game.json").write_text(json.dumps({"key": "key-1", "value": [1]}))
    assert cache.get("rules-game", "key-1") is None


def test_stored_diagnostics_that_do_not_read_back_are_none():
    assert load_diagnostics([["Location", "a.yaml", 1, 1, "no-such-code", "m", None, "error"]]) is None
    assert load_diagnostics([["Elsewhere", "a.yaml", 1, 1, "bad-id", "m", None, "error"]]) is None
    assert load_diagnostics([["Location", "a.yaml", 1]]) is None
    (read,) = load_diagnostics([["Location", "a.yaml", 2, 3, "bad-id", "m", None, "error"]])
    assert read.format() == "a.yaml:2:3: error[bad-id]: m\n  hint: use lower-case letters, digits and underscores"


# The check daemon's cache (check_cache.WarmCache): it writes later what it found, reads it back meanwhile, and what
# it writes is what a cold check reads.


def test_a_warm_cache_reads_back_what_it_has_yet_to_write_and_writes_it_sealed_when_flushed(project):
    warm, cold = check_cache.WarmCache(project), CheckCache(project)
    warm.put("output-all", "the key", {"status": 0})
    assert warm.unwritten and warm.get("output-all", "the key") == {"status": 0}
    assert warm.get("output-all", "another key") is None  # read back under its own key only
    assert cold.get("output-all", "the key") is None  # nothing on the disk yet
    warm.flush()
    assert not warm.unwritten
    assert cold.get("output-all", "the key") == {"status": 0}
    assert warm.get("output-all", "the key") == {"status": 0}  # from the disk now


def test_a_warm_cache_keeps_one_memo_across_checks_and_digests_folders_afresh(project):
    warm = check_cache.WarmCache(project)
    assert warm.memo() is warm.memo()
    assert CheckCache(project).memo() is not CheckCache(project).memo()  # a cold check's: read from the slots
    before = warm.ruleset_key(SimpleNamespace(id="demo", meta=SimpleNamespace(extends="")))
    (project / "rules_src" / "demo" / "rules.yaml").write_text("rules: {}\n", encoding="utf-8")
    assert warm.ruleset_key(SimpleNamespace(id="demo", meta=SimpleNamespace(extends=""))) == before  # one check's
    warm.fresh()
    assert warm.ruleset_key(SimpleNamespace(id="demo", meta=SimpleNamespace(extends=""))) != before
