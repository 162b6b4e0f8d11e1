"""Worked examples and a ruleset's own mechanics run only in a confined child process (generator/examples/confined.py).

The attack cases (tests/attacks/example_*, mechanics_*) run the CLI on hostile rules; these tests look at the
runner itself: short time limits, what is allowed, and a crash in the middle of an entry's examples.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import ROOT, sample_check

from generator.examples import confined, judge
from generator.examples.run import run_confined, run_examples
from generator.report import run_line
from generator.validate import check_project

TEMPLATE = ROOT / "tests" / "attacks" / "_template" / "project"


def project_with(tmp_path: Path, blocks: list[str], mechanics: str | None = None) -> Path:
    project = tmp_path / "project"
    shutil.copytree(TEMPLATE, project)
    ruleset = project / "rules_src" / "game" / "ruleset.yaml"
    body = "Models move 6 inches.\n" + "".join(
        f"\nAn example, checked:\n\n```python\n{textwrap.dedent(b).strip()}\n```\n" for n, b in enumerate(blocks, 1)
    )  # players read a sentence before each
    text = ruleset.read_text().replace(
        "    body: Models move 6 inches.\n", "    body: |\n" + textwrap.indent(body, "      ") + "\n", 1
    )
    ruleset.write_text(text)
    if mechanics is not None:
        (ruleset.parent / "mechanics.py").write_text(textwrap.dedent(mechanics).lstrip())
    return project


def loaded(project: Path):
    result = check_project(project)
    return result, result.project.ruleset("game")


def test_a_crash_is_located_and_the_later_examples_still_run(tmp_path):
    project = project_with(
        tmp_path, [">>> x = 2\n>>> x\n2", ">>> import os\n>>> assert os._exit(3)", ">>> 2 + 2\n4", ">>> 1 + 1\n3"]
    )
    result, ruleset = loaded(project)
    assert result.ok
    outcome = run_confined(ruleset, project, seconds=5)
    found = [(d.location.line, d.message) for d in outcome.failures]
    lines = [e.line for e in ruleset.examples]
    assert found[0] == (
        lines[1],
        "rules.moving: this example ended the process (exit status 3) before its result was sent",
    )
    assert found[1][0] == lines[3] and "`1 + 1` gave 2" in found[1][1]
    assert len(found) == 2


def test_the_time_limit_is_per_ruleset_and_names_the_example(tmp_path):
    project = project_with(tmp_path, [">>> 1 + 1\n2", ">>> while True: pass", ">>> 2 + 2\n4"])
    _result, ruleset = loaded(project)
    outcome = run_confined(ruleset, project, seconds=1)
    assert [d.code.code for d in outcome.failures] == ["example-failed"]
    failure = outcome.failures[0]
    assert failure.location.line == ruleset.examples[1].line
    assert "did not finish in 1 s" in failure.message and "the 1 example after it did not run" in failure.message
    assert outcome.unrun == 1  # counted apart from the failure, for the summary line


def test_the_summary_counts_the_examples_a_time_out_left_unrun_apart_from_the_failed(tmp_path, monkeypatch):
    project = project_with(tmp_path, [">>> 1 + 1\n2", ">>> while True: pass", ">>> 2 + 2\n4", ">>> 3 + 3\n6"])
    _result, ruleset = loaded(project)
    monkeypatch.setenv("RULEPRESS_EXAMPLE_SECONDS", "1")
    assert run_line(run_examples(ruleset, project)) == f"{ruleset.id}: 4 examples, 1 failed, 2 not run"


def test_the_time_limit_comes_from_the_environment(tmp_path, monkeypatch):
    project = project_with(tmp_path, [">>> 10**10**9 > 0\nTrue"])
    _result, ruleset = loaded(project)
    monkeypatch.setenv("RULEPRESS_EXAMPLE_SECONDS", "0.5")
    outcome = run_confined(ruleset, project)
    assert (
        "did not finish in 0.5 s (the time limit for a ruleset's examples and mechanics, RULEPRESS_EXAMPLE_SECONDS)"
        in outcome.failures[0].message
    )


@pytest.mark.usefixtures("without_the_wall")
def test_an_example_that_takes_more_memory_than_allowed_says_so_and_which_limit(tmp_path, monkeypatch):
    """A MemoryError has no message of its own: the failure read `raised MemoryError: ` and nothing else."""
    monkeypatch.setenv("RULEPRESS_EXAMPLE_MEMORY_MB", "256")
    project = project_with(tmp_path, [">>> len(bytearray(2 ** 31))\n1"])
    _result, ruleset = loaded(project)
    [failure] = run_confined(ruleset, project, seconds=5).failures
    assert failure.message.endswith(
        "raised MemoryError (more memory than a ruleset's examples may take: RULEPRESS_EXAMPLE_MEMORY_MB)"
    ), failure.message


@pytest.mark.parametrize(
    "gave, written, told",
    [
        (
            "Fraction(7, 12)",
            "Fraction(14, 24)",
            ": the same number, which Python prints as Fraction(7, 12): write that",
        ),
        ("0.5", "0.50", ": the same number, which Python prints as 0.5: write that"),
        ("2", "Fraction(4,2)", ": the same number, which Python prints as 2: write that"),
        ("Fraction(7, 12)", "Fraction(8, 12)", ""),
        ("(1, 2)", "(1, 2.0)", ""),
    ],
)
def test_a_result_the_text_writes_as_the_same_number_in_another_way_is_told_so(gave, written, told):
    """doctest compares what Python prints: `Fraction(14, 24)` is 7/12, and the author is told which way to write it."""
    [statement] = judge.statements(f">>> f()\n{written}\n")
    assert judge.gave_text(statement, gave + "\n") == f"`f()` gave {gave}, the example expects {written}{told}"


def test_scratch_files_and_the_ruleset_folder_are_allowed(tmp_path):
    project = project_with(
        tmp_path,
        [
            ">>> open('notes.txt', 'w').write('kept')\n4\n>>> open('notes.txt').read()\n'kept'",
            ">>> first_line()\n'MOVING'",
        ],
        mechanics="""
        from pathlib import Path

        def first_line():
            return (Path(__file__).parent / "sources" / "text.txt").read_text().split()[0]
        """,
    )
    result, ruleset = loaded(project)
    assert result.ok, [d.format() for d in result.diagnostics]
    assert run_confined(ruleset, project, seconds=5).failures == ()


def test_mechanics_that_read_outside_give_a_located_mechanic_error(tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("OUTSIDE\n")
    project = project_with(
        tmp_path,
        [],
        mechanics=f"""
        x = 0
        SECRET = open({str(outside)!r}).read()
        """,
    )
    result, _ruleset = loaded(project)
    [error] = result.diagnostics.errors
    assert (error.code.code, error.location.path, error.location.line) == (
        "mechanic-error",
        "rules_src/game/mechanics.py",
        2,
    )
    assert "may not open a file outside the ruleset folder" in error.message


def test_names_come_back_as_data():
    result = sample_check("rampant_hex")
    names = run_confined(result.project.ruleset("rampant_hex"), ROOT, examples=False, names=True).names
    assert any(kind == "function" and name.startswith("force(") for kind, name, _line in names)


def test_check_and_the_names_reference_never_import_rules_code_in_the_checking_process():
    code = textwrap.dedent("""
        import sys
        from pathlib import Path
        from generator.render.reference import names_reference
        from generator.report import run_check
        from generator.validate import check_project

        assert run_check(Path(".")) == 0
        result = check_project(Path("."))
        for ruleset in result.project.rulesets:
            names_reference(ruleset, result.project.root)
        loaded = [name for name in sys.modules if name.startswith("rulepress_rulesets")]
        assert not loaded, loaded
        print("clean")
        """)
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 0 and "clean" in run.stdout, run.stderr[-2000:]


@pytest.mark.parametrize(
    "attack",
    [
        "import socket",
        "import subprocess",
        "__import__('ctypes')",
        "import os; os.system('true')",
        "import os; os.kill(os.getppid(), 9)",
        "import gc; gc.get_objects()",
        "import os; os.listdir('/')",
        "open('/tmp/rulepress-written', 'w')",
        "import os; os.remove('/tmp/x')",
    ],
)
@pytest.mark.usefixtures("without_the_wall")
def test_what_the_confined_process_refuses(tmp_path, attack):
    """The audit-hook fence alone, as on a machine without bubblewrap: behind the wall some of these would fail
    for want of a network or a file, not at the fence (the attack cases, tests/attacks, run with the wall)."""
    project = project_with(tmp_path, [f">>> {attack}"])
    _result, ruleset = loaded(project)
    [failure] = run_confined(ruleset, project, seconds=5).failures
    assert "raised PermissionError" in failure.message and "(they run confined)" in failure.message


@pytest.mark.parametrize(
    "draw",
    [
        "import random; random.randint(1, 6)",
        "from random import choice; choice([1, 2])",
        "import random; random.Random(7).random()",
        "import random; random.SystemRandom().random()",
        "import secrets; secrets.randbelow(6)",
        "import os; os.urandom(2)",
    ],
)
@pytest.mark.usefixtures("without_the_wall")
def test_rules_code_may_not_draw_a_random_number(tmp_path, draw):
    """An example whose mechanic drew a random number passed on some runs and failed on others, and an overlay's
    run of it was told as a result its house values change: a worked example gives one result, every run."""
    project = project_with(tmp_path, [f">>> {draw}"])
    _result, ruleset = loaded(project)
    [failure] = run_confined(ruleset, project, seconds=5).failures
    assert "raised PermissionError: worked examples and mechanics may not draw random numbers" in failure.message


# The confined runner's settings read from the environment, and the one fallback the child sends when a
# ruleset's names cannot be listed.


@pytest.mark.parametrize(
    "written, seconds",
    [
        (None, 10.0),
        ("", 10.0),
        ("2.5", 2.5),
        ("0", 0.1),
        ("-4", 0.1),
        ("soon", 10.0),
        ("600", 600.0),
        ("601", 600.0),
        ("inf", 600.0),
        ("1e300", 600.0),
        ("-inf", 0.1),
        ("nan", 10.0),
    ],
)
def test_the_time_allowed_is_read_with_a_floor_a_ceiling_and_a_default(monkeypatch, written, seconds):
    if written is None:
        monkeypatch.delenv("RULEPRESS_EXAMPLE_SECONDS", raising=False)
    else:
        monkeypatch.setenv("RULEPRESS_EXAMPLE_SECONDS", written)
    assert confined.seconds_allowed() == seconds


@pytest.mark.parametrize(
    "written, megabytes",
    [
        (None, 1024),
        ("", 1024),
        ("200", 200),
        ("10", 64),
        ("lots", 1024),
        ("1.5", 1024),
        ("1048576", 1048576),
        ("99999999999999999999999", 1048576),  # 1 TiB at most: more is no limit (setrlimit fails)
    ],
)
def test_the_memory_allowed_is_read_with_a_floor_a_ceiling_and_a_default(monkeypatch, written, megabytes):
    if written is None:
        monkeypatch.delenv("RULEPRESS_EXAMPLE_MEMORY_MB", raising=False)
    else:
        monkeypatch.setenv("RULEPRESS_EXAMPLE_MEMORY_MB", written)
    assert confined.memory_allowed() == megabytes * 1024 * 1024


def test_names_that_cannot_be_listed_come_back_as_one_row():
    def broken(ruleset, namespace):
        raise ZeroDivisionError("a helper's docstring property divided by zero")

    rows = confined._names(SimpleNamespace(names_in=broken), ruleset=None, namespace={})
    assert rows == [["object", "(names)", "the names could not be listed: ZeroDivisionError"]]
    listed = confined._names(SimpleNamespace(names_in=lambda r, n: [("value", "values.move", 'Move: 6"')]), None, {})
    assert listed == [["value", "values.move", 'Move: 6"']]


def test_the_memory_now_grows_with_what_the_process_holds():
    """The child's memory limit starts from its size at the fork: the size read must follow allocations."""
    before = confined._memory_now()
    held = bytearray(256 * 1024 * 1024)
    after = confined._memory_now()
    assert before > 0 and after - before >= 256 * 1024 * 1024
    del held


# The walled host (generator/examples/walled.py) is started while the checks run, and only for a project with rules
# code to run: a check of rules without worked examples or mechanics never pays for one.
@pytest.mark.parametrize(
    ("examples", "mechanics", "starts"),
    [(0, None, False), (1, None, True), (0, "def twice(n):\n    return 2 * n\n", True)],
    ids=["neither", "an example", "mechanics"],
)
def test_a_check_starts_the_walled_host_only_for_rules_with_examples_or_mechanics(
    tmp_path, monkeypatch, examples, mechanics, starts
):
    from generator.cli import main
    from generator.examples import walled

    project = project_with(tmp_path, [">>> 1 + 1\n2"] * examples, mechanics)
    started = []
    monkeypatch.setenv(
        "RULEPRESS_WALL", "auto"
    )  # the wall where bwrap works, as for an author (not `make coverage`'s off)
    monkeypatch.setattr(walled, "host_for", started.append)  # what `prestart` starts; the examples' own host is real
    assert main(["-C", str(project), "check"]) == 0
    assert started == ([project.resolve()] if starts else [])


def test_closing_hosts_ends_each_projects_host_but_the_ones_kept(tmp_path, monkeypatch):
    """A process that checks many projects (a test session) ends each host when done with it: one walled host
    is about a hundred megabytes, and hundreds left running until the process exits filled the memory."""
    from generator import wall
    from generator.examples import walled

    monkeypatch.setenv("RULEPRESS_WALL", "auto")
    if not wall.in_use():
        pytest.fail(f"this test needs the wall: {wall.status().reason}")
    kept, ended = (project_with(tmp_path / name, [">>> 1 + 1\n2"], None) for name in ("kept", "ended"))
    hosts = [walled.host_for(kept), walled.host_for(ended)]
    assert all(host.alive() for host in hosts)
    walled.close_hosts(keep=[kept])
    assert hosts[0].alive() and not hosts[1].alive()
    assert walled.host_for(kept) is hosts[0] and walled.host_for(ended) is not hosts[1]  # a new one, asked again
    walled.close_hosts()
    assert not any(host.alive() for host in hosts)


# A check that runs a ruleset's examples takes what loading its mechanics gave from that run (the child loads them
# first, as a run of the mechanics alone would): one child per ruleset, and the same diagnostics.
def _check_asking(project: Path, monkeypatch, capsys, *options: str) -> tuple[int, str, list[dict]]:
    from generator.cli import main
    from generator.examples import walled

    asked, send = [], walled.Host._send

    def recording(host, text):
        if text not in host._pending and text not in host._answers:  # a run asked again is read, not run again
            asked.append(json.loads(text))
        return send(host, text)

    monkeypatch.setenv("RULEPRESS_WALL", "required")
    monkeypatch.setattr(walled.Host, "_send", recording)
    status = main(["-C", str(project), "check", "--all", *options])
    runs = [request for request in asked if "ruleset" in request]
    return status, capsys.readouterr().err, runs


def test_a_check_with_examples_loads_the_mechanics_once_with_them(tmp_path, monkeypatch, capsys):
    project = project_with(tmp_path, [">>> twice(2)\n4"], "def twice(n):\n    return n + n\n")
    status, errors, runs = _check_asking(project, monkeypatch, capsys)
    assert (status, errors) == (0, "")
    assert [(run["ruleset"], run["examples"]) for run in runs] == [("game", True)]
    status, errors, runs = _check_asking(project, monkeypatch, capsys, "--no-examples")
    assert (status, errors) == (0, "")
    assert [(run["ruleset"], run["examples"]) for run in runs] == [("game", False)]


def test_mechanics_that_fail_to_load_are_told_alike_with_or_without_the_examples(tmp_path, monkeypatch, capsys):
    project = project_with(tmp_path, [">>> twice(2)\n4"], "def twice(n):\n    return n + n\n\n\nfailing = {}[0]\n")
    with_examples = _check_asking(project, monkeypatch, capsys)
    alone = _check_asking(project, monkeypatch, capsys, "--no-examples")
    assert [(run["ruleset"], run["examples"]) for run in with_examples[2]] == [("game", True)]
    assert [(run["ruleset"], run["examples"]) for run in alone[2]] == [("game", False)]
    told = [line for line in with_examples[1].splitlines() if "mechanics.py" in line]
    assert told == [line for line in alone[1].splitlines() if "mechanics.py" in line]
    assert told and all("rules_src/game/mechanics.py:5:" in line for line in told), with_examples[1]
    assert with_examples[0] == alone[0] == 1


def test_a_misspelt_name_in_an_example_behind_the_wall_is_told_with_the_closest_name_it_may_use(tmp_path):
    mechanics = "__all__ = ['cast_chance']\n\n\ndef cast_chance(n):\n    return n\n"
    project = project_with(tmp_path, [">>> cast_chanse(3)\n3", ">>> cast_chance(3)\n3"], mechanics=mechanics)
    result, ruleset = loaded(project)
    assert result.ok
    (failure,) = run_confined(ruleset, project, seconds=5).failures
    assert failure.message == (
        "rules.moving: `cast_chanse(3)` raised NameError: name 'cast_chanse' is not defined; "
        "did you mean `cast_chance`?"
    )


def test_a_misspelt_value_in_an_example_is_told_with_the_closest_value_and_a_hint_to_fix_the_example(tmp_path):
    project = project_with(tmp_path, [">>> values.mvoe\n6", ">>> values.move\n6"])
    ruleset = project / "rules_src" / "game" / "ruleset.yaml"
    text = (
        ruleset.read_text()
        + '\nvalues:\n  move: {value: 6, label: Move, source: {section: MOVING, quote: "6 inches"}}\n'
    )
    ruleset.write_text(text)
    result, ruleset = loaded(project)
    assert result.ok, [d.format() for d in result.diagnostics]
    (failure,) = run_confined(ruleset, project, seconds=5).failures
    assert failure.message == (
        "rules.moving: `values.mvoe` raised AttributeError: the ruleset has no value `mvoe`; did you mean `move`?"
    )
    assert failure.hint == (
        "fix the example's code (a name, a value, an argument), or the model if the rules give what the example reads"
    )


def test_the_samples_check_alike_behind_the_wall_and_without(monkeypatch, capsys):
    """What the modules that run `without_the_wall` (tests/conftest.py) stand on: every worked example and mechanic
    of the samples, run in a walled host or in children forked by the checking process, gives the same check."""
    from generator.cli import main

    printed = {}
    for policy in ("required", "off"):
        monkeypatch.setenv("RULEPRESS_WALL", policy)
        status = main(["-C", str(ROOT), "check", "--all"])
        printed[policy] = (status, *capsys.readouterr())
    assert printed["required"] == printed["off"]
    status, out, _err = printed["off"]
    assert status == 0 and "rampant_hex: 29 examples, all pass\n" in out and out.endswith(" 0 errors\n")


def test_an_example_with_two_wrong_results_is_one_example_failed(tmp_path):
    """The summary counted failed statements as examples: "2 examples, 2 failed" for one example of two wrong
    results beside one that passes."""
    project = project_with(tmp_path, [">>> 1 + 1\n3\n>>> 2 + 2\n5", ">>> 3 + 3\n6"])
    _result, ruleset = loaded(project)
    run = run_examples(ruleset, project)
    assert len(run.failures) == 2
    assert run_line(run) == f"{ruleset.id}: 2 examples, 1 failed"
