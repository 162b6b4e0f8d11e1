"""The check daemon (generator/daemon/): a warm process answers `rulepress check` with exactly what a cold
`check --all` of the same files prints, and a daemon that is not this user's, not this project's or
generator's, dead or hung is never trusted: the check then runs in its own process."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from generator import report
from generator.daemon import client, server
from generator.scaffold import scaffold

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("rampant_hex", "rampant_hex_house")  # a base with mechanics and examples, and its house overlay
# The tests of what a daemon answers beside the cold check's own (after each edit, for one ruleset, without examples)
# run with the wall, as an author's daemon does: its two walled hosts, loaded ahead. The others test what the wall
# does not change (conftest's `without_the_wall`).
WITHOUT_THE_WALL = pytest.mark.usefixtures("without_the_wall")


def rulepress(project: Path, *args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "generator", "-C", str(project), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


@pytest.fixture
def runtime(monkeypatch) -> dict:
    """A private runtime folder for this test's sockets, in this process and in the commands it runs (short: a
    socket's path has at most 107 bytes, which pytest's own folders pass)."""
    folder = Path(tempfile.mkdtemp(prefix="rp-run-"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    yield dict(os.environ)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def project(tmp_path) -> Path:
    root = tmp_path / "project"
    for name in RULESETS:
        shutil.copytree(ROOT / "rules_src" / name, root / "rules_src" / name)
    shutil.copytree(ROOT / "templates", root / "templates")
    return root.resolve()


@pytest.fixture
def small_project(tmp_path) -> Path:
    """`rulepress new`'s demo and its house overlay: the shape of RULESETS (a base with mechanics and examples, and its
    overlay) at a fraction of their check, for what a daemon does with any project (the samples' answers are above)."""
    root = tmp_path / "small"
    (root / "rules_src").mkdir(parents=True)
    scaffold(root, "demo", None)
    return root.resolve()


def running(project: Path, runtime: dict):
    started = rulepress(project, "daemon", "start", env=runtime)
    assert started.returncode == 0, started.stderr
    try:
        yield project
    finally:
        rulepress(project, "daemon", "stop", env=runtime)


@pytest.fixture
def daemon(project, runtime):
    yield from running(project, runtime)


@pytest.fixture
def small_daemon(small_project, runtime):
    yield from running(small_project, runtime)


@pytest.fixture
def small_daemon_with_templates(small_project, runtime):
    shutil.copytree(ROOT / "templates", small_project / "templates")
    yield from running(small_project, runtime)


def cold_check(project: Path, capsys, *options: str) -> tuple[str, str, int]:
    """A cold `check --all` of ``project`` as (stderr, stdout, status): run here, where the generator is loaded
    already, as the reference a daemon's answers are compared with (the commands that ask a daemon are processes)."""
    from generator.cli import main

    status = main(["-C", str(project), "check", "--all", *options])
    out, err = capsys.readouterr()
    return err, out, status


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


EDITS = {
    "a one-word prose edit": ("rampant_hex/rules.yaml", "plenty of miniatures", "plenty of painted miniatures"),
    "a value the examples state": (
        "rampant_hex/values.yaml",
        "value: 2\n    label: An Expert Ranger",
        "value: 5\n    label: An Expert Ranger",
    ),
    "a file that no longer reads": ("rampant_hex/tables.yaml", "tables:", "tables: [unclosed\n"),
    "a mechanic that fails as it loads": (
        "rampant_hex/mechanics.py",
        "\ndef attack_hits(",
        "\n1 / 0\ndef attack_hits(",
    ),
    "a template that no longer parses": ("../templates/handouts/roster.html.j2", "{%", "{% if %}{%"),
}


def test_the_warm_check_prints_what_a_cold_check_prints_after_each_edit(daemon, runtime, capsys):
    """Each edit in turn (they pile up): the daemon's answer, and a whole `rulepress check` process that asks it,
    are byte for byte a cold `check --all` of the same files, errors and exit status included."""
    seen = []
    for what, (name, old, new) in [("nothing", (None, None, None)), *EDITS.items()]:
        if name is not None:
            edit(daemon / "rules_src" / name, old, new)
        warm = client.checked(daemon, None, True, report.project_key(daemon, None, True))
        assert warm is not None, f"the daemon did not answer after {what}"
        process = rulepress(daemon, "check", env=runtime)
        cold = cold_check(daemon, capsys)
        assert warm == cold, what
        assert (process.stderr, process.stdout, process.returncode) == warm, what
        seen.append((what, cold[2]))
    assert seen == [
        ("nothing", 0),
        ("a one-word prose edit", 0),
        ("a value the examples state", 1),
        ("a file that no longer reads", 1),
        ("a mechanic that fails as it loads", 1),
        ("a template that no longer parses", 1),
    ]


def test_the_warm_check_of_one_ruleset_or_without_examples_is_the_cold_one(daemon, runtime, capsys):
    """Both asked of one daemon after the same edit, each answered before any cold check here wrote the cache."""
    name, old, new = EDITS["a value the examples state"]
    edit(daemon / "rules_src" / name, old, new)
    one, no_examples = ("--ruleset", "rampant_hex_house"), ("--no-examples",)
    warm = {}
    for options in (one, no_examples):
        process = rulepress(daemon, "check", *options, env=runtime)
        only = options[1] if options[0] == "--ruleset" else None
        key = report.project_key(daemon, only, "--no-examples" not in options)
        warm[options] = (process.stderr, process.stdout, process.returncode)
        assert client.checked(daemon, only, "--no-examples" not in options, key) == warm[options], options
    for options, answer in warm.items():
        assert answer == cold_check(daemon, capsys, *options), options
    assert warm[one][1].startswith("rampant_hex_house: 29 examples")
    assert warm[no_examples][1].startswith("2 rulesets")


@WITHOUT_THE_WALL
def test_the_warm_check_sees_a_template_edit(small_daemon_with_templates, runtime):
    """A project's templates are checked too, and what was found in them is remembered by their content only."""
    project = small_daemon_with_templates
    name, old, new = EDITS["a template that no longer parses"]
    edit(project / "rules_src" / name, old, new)
    broken = rulepress(project, "check", env=runtime)
    assert broken.returncode == 1 and "templates/handouts/roster.html.j2:" in broken.stderr
    edit(project / "rules_src" / name, new, old)
    assert rulepress(project, "check", env=runtime).returncode == 0


@WITHOUT_THE_WALL
def test_what_each_edit_does_is_told_by_the_warm_check(daemon, runtime):
    """The answers are not only equal to the cold ones: they say what each edit broke, as the text states it."""
    name, old, new = EDITS["a value the examples state"]
    edit(daemon / "rules_src" / name, old, new)
    valued = rulepress(daemon, "check", env=runtime)
    assert valued.returncode == 1 and "error[example-failed]" in valued.stderr
    name, old, new = EDITS["a file that no longer reads"]
    edit(daemon / "rules_src" / name, old, new)
    broken = rulepress(daemon, "check", env=runtime)
    assert "rules_src/rampant_hex/tables.yaml:" in broken.stderr and "error[yaml-syntax]" in broken.stderr
    assert "rampant_hex: 29 examples not run: its rules have errors" in broken.stdout


def test_a_daemon_of_another_generator_is_not_asked(small_daemon, monkeypatch):
    """The socket's name holds the generator's code hash: a check by a changed generator finds none."""
    assert client.ask(small_daemon, {"op": "ping"}) is not None
    monkeypatch.setattr(client, "environment", lambda: "0.0.0-changed|python|settings")
    assert client.socket_path(small_daemon) is not None
    assert client.ask(small_daemon, {"op": "ping"}) is None


@WITHOUT_THE_WALL
def test_the_daemon_runs_the_generator_that_started_it(small_project, runtime, tmp_path):
    """A generator that is not the one installed (a copy, a checkout run from its folder) starts a daemon of its own
    code: from the project folder, `python -m generator` alone found the installed one, whose answers it never took."""
    copy = tmp_path / "elsewhere"
    shutil.copytree(ROOT / "generator", copy / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    with open(copy / "generator" / "__init__.py", "a", encoding="utf-8") as init:
        init.write("# this copy's own code, so its daemons are keyed apart from the installed generator's\n")
    env = {name: value for name, value in runtime.items() if name != "PYTHONPATH"}
    run = subprocess.run(  # run from the copy's folder, as a checkout is
        [sys.executable, "-m", "generator", "-C", str(small_project), "daemon", "start"],
        capture_output=True,
        text=True,
        env=env,
        cwd=copy,
        timeout=300,
    )
    try:  # `start` says so once a daemon answers with its own generator's key
        assert run.returncode == 0 and "check daemon started" in run.stdout, run.stdout + run.stderr
    finally:
        subprocess.run(
            [sys.executable, "-m", "generator", "-C", str(small_project), "daemon", "stop"],
            env=env,
            cwd=copy,
            timeout=60,
        )


def test_a_daemon_whose_generator_changed_under_it_ends(project, runtime, monkeypatch):
    path = client.socket_path(project)
    warm = server.Daemon(project, path)
    assert not warm.stale()
    monkeypatch.setattr(server, "environment", lambda: "0.0.0-before-the-change|python|settings")
    assert warm.stale()


def test_settings_that_change_a_check_lead_to_another_daemon(project, runtime, monkeypatch):
    first = client.socket_path(project)
    monkeypatch.setenv("RULEPRESS_EXAMPLE_SECONDS", "3")
    assert client.socket_path(project) != first
    monkeypatch.setenv("RULEPRESS_WALL", "required")
    monkeypatch.delenv("RULEPRESS_EXAMPLE_SECONDS")
    assert client.socket_path(project) not in (first, None)


def serve_once(path: Path, answer: bytes | None) -> threading.Thread:
    """A fake daemon at ``path`` that reads one request and sends ``answer`` (None: never answers, then closes)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(1)

    def run():
        connection, _ = listener.accept()
        with connection, listener:
            connection.recv(1 << 16)
            if answer is not None:
                connection.sendall(answer)
            else:
                connection.recv(1 << 16)  # until the client gives up and closes

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def honest_answer(project: Path, **changes) -> bytes:
    found = {
        "daemon": client.daemon_key(project),
        "key": report.project_key(project, None, True),
        "stderr": "",
        "stdout": "all is well\n",
        "status": 0,
        **changes,
    }
    return (json.dumps(found) + "\n").encode()


@pytest.mark.parametrize(
    "changes",
    [
        {"daemon": "a daemon of another project or generator"},
        {"key": "a hash of other files"},
        {"status": 70},
        {"stdout": ["not", "text"]},
    ],
    ids=["another-daemon", "other-files", "another-status", "not-text"],
)
def test_an_answer_that_is_not_for_this_check_is_not_used(project, runtime, changes):
    key = report.project_key(project, None, True)
    thread = serve_once(client.socket_path(project), honest_answer(project, **changes))
    assert client.checked(project, None, True, key) is None
    thread.join(5)


def test_the_fake_daemon_s_honest_answer_is_used(project, runtime):
    """The other side of the test above: the same fake daemon, answering for this check, is believed."""
    key = report.project_key(project, None, True)
    thread = serve_once(client.socket_path(project), honest_answer(project))
    assert client.checked(project, None, True, key) == ("", "all is well\n", 0)
    thread.join(5)


def test_a_daemon_that_hangs_is_given_up(project, runtime):
    thread = serve_once(client.socket_path(project), None)
    assert client.ask(project, {"op": "check", "only": None, "examples": True}, seconds=0.5) is None
    thread.join(5)


@WITHOUT_THE_WALL
def test_a_dead_daemon_s_socket_is_ignored_and_replaced(project, runtime):
    path = client.socket_path(project)
    left = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    left.bind(str(path))
    left.close()  # bound, never listening: what a daemon that was killed leaves
    assert client.ask(project, {"op": "ping"}) is None
    cold = rulepress(project, "check", env=runtime)
    assert cold.returncode == 0 and cold.stdout.endswith(
        "2 rulesets, 8 tables, 14 profile rows, 58 examples, 0 errors\n"
    )
    started = rulepress(project, "daemon", "start", env=runtime)
    try:
        assert started.returncode == 0, started.stderr
        assert client.ask(project, {"op": "ping"}) is not None
    finally:
        rulepress(project, "daemon", "stop", env=runtime)
    assert rulepress(project, "daemon", "status", env=runtime).returncode == 1
    assert not path.exists()


@pytest.mark.parametrize("mode", [0o755, 0o710, 0o701])
def test_a_runtime_folder_others_can_enter_holds_no_daemon(project, tmp_path, monkeypatch, mode):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "rulepress").mkdir(mode=0o700)
    os.chmod(shared / "rulepress", mode)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(shared))
    assert client.runtime_folder() is None and client.socket_path(project) is None
    assert client.ask(project, {"op": "ping"}) is None


def test_a_socket_path_too_long_for_the_kernel_means_no_daemon(project, tmp_path, monkeypatch):
    deep = tmp_path / ("x" * 60) / ("y" * 60)
    deep.mkdir(parents=True, mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(deep))
    assert client.runtime_folder() is not None and client.socket_path(project) is None


def test_a_runtime_folder_that_is_a_link_holds_no_daemon(project, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / "xdg").mkdir(mode=0o700)
    (tmp_path / "xdg" / "rulepress").symlink_to(elsewhere)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "xdg"))
    assert client.runtime_folder() is None


def test_the_daemon_answers_only_its_own_key(project, runtime):
    warm = server.Daemon(project, client.socket_path(project))
    assert "refused" in warm.answer({"op": "ping", "daemon": "someone else's"})
    assert warm.answer({"op": "ping", "daemon": client.daemon_key(project)})["root"] == str(project)
    assert "refused" in warm.answer({"op": "check", "only": ["not", "a", "name"], "daemon": client.daemon_key(project)})


@WITHOUT_THE_WALL
def test_a_check_its_cache_answers_loads_neither_the_model_nor_the_dice_library(small_project, runtime):
    """What keeps the daemon's client quick: a check answered without checking imports no model."""
    probe = (
        "import sys\nfrom generator.cli import main\nstatus = main(sys.argv[1:])\n"
        "print(sorted(n for n in sys.modules if n == 'icepool' or n.startswith('generator.model')), file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    command = [sys.executable, "-c", probe, "-C", str(small_project), "check"]
    cold = subprocess.run(command, capture_output=True, text=True, env=runtime, cwd=ROOT, timeout=300)
    cached = subprocess.run(command, capture_output=True, text=True, env=runtime, cwd=ROOT, timeout=300)
    assert "'icepool'" in cold.stderr.splitlines()[-1]  # the probe sees them when they are loaded
    assert cached.stderr.splitlines()[-1] == "[]"


@WITHOUT_THE_WALL
def test_what_the_daemon_found_is_written_to_the_check_cache_once_it_has_answered(small_daemon, runtime):
    """The daemon answers first and writes after, sealed as any check's: a cold check later reads it back."""
    import time

    from generator.check_cache import CheckCache, output_slot

    edit(
        small_daemon / "rules_src" / "demo" / "rules.yaml", "Roll a D6 for each attack;", "Roll one D6 for each attack;"
    )
    key = report.project_key(small_daemon, None, True)
    warm = client.checked(small_daemon, None, True, key)
    assert warm is not None and warm[2] == 0
    deadline = time.monotonic() + 30
    while CheckCache(small_daemon).get(output_slot(None, True), key) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    stored = CheckCache(small_daemon).get(output_slot(None, True), key)
    assert stored is not None and (stored["stderr"], stored["stdout"], stored["status"]) == warm
