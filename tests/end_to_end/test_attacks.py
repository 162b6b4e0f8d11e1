"""Rules you did not write: every case in tests/attacks/ is run as a club's CI would run it.

See tests/attacks/README.md for the format. Each case asserts what its `expect.yaml` says and, for
every case: no traceback, no byte from outside the project in any output or message, no game-master
text in player outputs, the project unchanged, and a refused command leaving `build/` as it was.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, on_a4_alone

pytestmark = pytest.mark.fuzz  # many generated or hostile projects, each a run of its own

ATTACKS = ROOT / "tests" / "attacks"
CASES = sorted(p.name for p in ATTACKS.iterdir() if (p / "expect.yaml").is_file()) if ATTACKS.is_dir() else []
SECRET = "OUTSIDE-SECRET-7c1e9b"
GM_SECRET = "GM-ONLY-SECRET"
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u2028\u2029]")  # data never reaches a terminal raw
DIAGNOSTIC = re.compile(
    r"^(?P<path>[^:\n]+):(?P<line>[0-9]+):(?P<column>[0-9]+): (?:error|warning)\[(?P<code>[a-z-]+)\]", re.M
)


def digest(folder: Path, skip: tuple[str, ...] = ()) -> dict[str, str]:
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if any(relative == s or relative.startswith(s + "/") for s in skip) or "__pycache__" in path.parts:
            continue
        if path.is_symlink():
            found[relative] = "-> " + os.readlink(path)
        elif path.is_file():
            found[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def prepare(case: str, tmp_path: Path) -> tuple[Path, dict]:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"{SECRET}\n", encoding="utf-8")
    project = tmp_path / "project"
    source = ATTACKS / case / "project"
    shutil.copytree(source, project, symlinks=True)
    for path in project.rglob("*"):
        if (
            path.is_file()
            and not path.is_symlink()
            and path.suffix in (".yaml", ".yml", ".py", ".txt", ".md", ".css", ".j2")
        ):
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
            if "@OUTSIDE@" in text:
                path.write_text(text.replace("@OUTSIDE@", str(outside)), encoding="utf-8", errors="surrogateescape")
    for link in (ATTACKS / case).glob("links.yaml"):  # symlinks to make: {path in project: target}
        for name, target in (yaml.safe_load(link.read_text()) or {}).items():
            made = project / name
            made.parent.mkdir(parents=True, exist_ok=True)
            made.symlink_to(target.replace("@OUTSIDE@", str(outside)))
    settings = project / "rulepress.yaml"
    if not settings.exists() and not settings.is_symlink():  # a case's own settings are its attack: left as written
        on_a4_alone(project)  # what an attack reaches is no matter of paper size: half the PDFs
    expect = yaml.safe_load((ATTACKS / case / "expect.yaml").read_text(encoding="utf-8"))
    return project, expect


def readable(path: Path) -> bytes:
    """A file's bytes, and what compression hides: objects.inv's zlib body, a PDF's text."""
    data = path.read_bytes()
    if path.name == "objects.inv":
        header = data.split(b"\n", 4)
        if len(header) == 5:
            data += b"\n" + zlib.decompress(header[4])
    elif path.suffix == ".pdf":
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError, PdfStreamError

        try:
            data += "\n".join(page.extract_text() or "" for page in PdfReader(path).pages).encode()
        except (PdfReadError, PdfStreamError):  # a case may ship a stand-in named .pdf: its bytes are read above
            pass
    return data


def player_outputs(build: Path) -> list[Path]:
    found = []
    for kind in ("site", "sheets", "handouts", "export"):
        folder = build / kind
        if folder.is_dir():
            found += [p for p in folder.rglob("*") if p.is_file() and "-gm" not in p.name]
    return found


def attacker_setup(case: str, expect: dict, project: Path, tmp_path: Path) -> None:
    """``setup: forge.py`` in expect.yaml: a script of the case's, run first as the contributor on their
    own machine (its own cache key, in its own state folder), given the project and outside/ folders:
    what it leaves in the project (a cache it made, say) is what the command then meets."""
    if not expect.get("setup"):
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(tmp_path / "attacker-state")}
    subprocess.run(
        [sys.executable, str(ATTACKS / case / expect["setup"]), str(project), str(tmp_path / "outside")],
        check=True,
        cwd=tmp_path,
        env=env,
        timeout=expect.get("timeout", 120),
    )


@pytest.mark.parametrize("case", CASES)
def test_attack(case, tmp_path):
    project, expect = prepare(case, tmp_path)
    attacker_setup(case, expect, project, tmp_path)
    build = project / "build"
    build.mkdir(exist_ok=True)
    (build / "earlier-output.txt").write_text("a previous build's file\n", encoding="utf-8")
    before_build = digest(build)
    kept = {name: before_build[name.removeprefix("build/")] for name in expect.get("keeps", ())}
    before_project = digest(project, skip=("build", ".rulepress-cache"))
    before_outside = digest(tmp_path / "outside")
    command = [sys.executable, "-m", "generator", "-C", str(project), *expect.get("command", ["check"])]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "200"}
    env.update(
        {str(name): str(value) for name, value in (expect.get("env") or {}).items()}
    )  # e.g. a small file size cap
    try:
        run = subprocess.run(
            command,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=expect.get("timeout", 120),
            cwd=tmp_path,
            env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case}: rulepress did not finish in {expect.get('timeout', 120)} s (a hang)")
    messages = run.stdout + run.stderr
    assert "Traceback" not in messages, messages[-3000:]
    assert "without the wall" not in messages, "the case ran behind the fence only: " + messages[-3000:]
    assert digest(tmp_path / "outside") == before_outside, "a file beside the project was written"
    assert left_running(project) == [], "a process of the command outlived it"
    raw = RAW_CONTROL.search(messages)
    assert raw is None, f"a raw control character {raw[0]!r} reached the terminal:\n{messages[-3000:]!r}"
    assert run.returncode == expect.get("exit", 1), messages[-3000:]
    found = {m["code"] for m in DIAGNOSTIC.finditer(messages)}
    assert set(expect.get("codes", ())) <= found, f"expected {expect.get('codes')} in:\n{messages[-3000:]}"
    for match in DIAGNOSTIC.finditer(messages):
        assert not match["path"].startswith((".rulepress-cache", "/")), f"located outside the rules: {match[0]}"
    assert SECRET not in messages
    outputs = [p for p in build.rglob("*") if p.is_file()] if build.is_dir() else []
    for path in outputs:
        assert SECRET.encode() not in path.read_bytes(), f"{path} holds a byte from outside the project"
    for path in player_outputs(build):
        shown = readable(path)
        for text in (GM_SECRET, *expect.get("absent", ())):  # absent: more text of the game-master's, such as ids
            assert text.encode() not in shown, f"{path} shows game-master text {text!r} to players"
    assert digest(project, skip=("build", ".rulepress-cache")) == before_project, "the command changed the project"
    if run.returncode != 0:
        assert digest(build) == before_build, "a refused command changed build/"
    for text in expect.get("says", ()):
        assert text in messages, f"expected {text!r} in:\n{messages[-3000:]}"
    after_build = digest(build) if build.is_dir() else {}
    for name, sha in kept.items():  # files of an earlier build (or export) the command must keep
        assert after_build.get(name.removeprefix("build/")) == sha, f"{name} was lost"
    for name in expect.get("renewed", ()):  # files of an earlier build the command must keep, written anew
        assert name.removeprefix("build/") in after_build, f"{name} was lost"
        assert (project / name).stat().st_size > 0, f"{name} was emptied"


def left_running(project: Path, grace: float = 5.0) -> list[str]:
    """Processes whose command line names the project, after a moment for the wall's namespace to end."""
    end = time.monotonic() + grace
    while True:
        found = []
        for name in os.listdir("/proc"):
            try:
                line = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if name.isdigit() and int(name) != os.getpid() and str(project) in line:
                found.append(f"{name}: {line[:300]}")
        if not found or time.monotonic() >= end:
            return found
        time.sleep(0.1)


WALLED_COMMANDS = ("check", "build", "serve", "export")  # the commands that run rules code take --untrusted


def _command(case: str) -> list[str]:
    return list(yaml.safe_load((ATTACKS / case / "expect.yaml").read_text(encoding="utf-8")).get("command", ["check"]))


UNTRUSTED_CASES = [case for case in CASES if _command(case)[0] in WALLED_COMMANDS]


@pytest.mark.parametrize("case", UNTRUSTED_CASES)
def test_attack_is_refused_without_the_wall_when_untrusted(case, tmp_path):
    """Every case again, ``--untrusted`` with no usable bubblewrap: refused before any work, in one line."""
    project, expect = prepare(case, tmp_path)
    arguments = _command(case)
    arguments.insert(1, "--untrusted")
    before_project = digest(project)
    command = [sys.executable, "-m", "generator", "-C", str(project), *arguments]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NO_COLOR": "1",
        "COLUMNS": "200",
        **{str(name): str(value) for name, value in (expect.get("env") or {}).items()},
        "RULEPRESS_BWRAP": "/nonexistent",
    }
    run = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=60, cwd=tmp_path, env=env)
    messages = run.stdout + run.stderr
    assert run.returncode == 2, messages[-3000:]
    if expect.get("exit") != 2:  # a usage error (a bad --port, SOURCE_DATE_EPOCH) is said before the wall is asked for
        [line] = messages.strip().splitlines()
        assert (
            line.startswith("rulepress: error: --untrusted needs the operating-system wall") and "bubblewrap" in line
        ), line
    assert digest(project) == before_project, "a refused command changed the project"
