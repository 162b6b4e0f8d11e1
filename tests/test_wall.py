"""The operating-system wall (generator/wall.py) holds on its own, and the fence bypasses the red team found
end inside it.

The first tests run a small Python payload through ``wall.command`` directly, with no audit hook at all:
what it can read, see, reach and write is what rules code could, had it climbed the fence. The later
tests run each bypass through the real CLI (``rulepress check --untrusted``), a secret file beside the
project and a secret in the command's environment, and assert neither shows and nothing outside changed.
Each CLI attack is also run with no usable bubblewrap: ``--untrusted`` then refuses, exit 2, in one line.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from generator import wall

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "tests" / "attacks" / "_template" / "project"
SECRET = "OUTSIDE-SECRET-wall-5d02"
TOKEN = "CI-TOKEN-wall-93f1c7"  # the command's environment holds it, as a CI job's would
LOCATED = re.compile(r"^[^:\n/]+:[0-9]+:[0-9]+: error\[(?P<code>[a-z-]+)\]", re.M)

def digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir")
            for p in sorted(folder.rglob("*")) if p.name != "payload.py"}  # the payload is written into the project


@pytest.fixture
def place(tmp_path):
    """A project folder with the template's rules and, beside it, ``outside/secret.txt``."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET + "\n")
    project = tmp_path / "project"
    shutil.copytree(TEMPLATE, project)
    return project, outside


def processes_with(marker: str) -> list[str]:
    found = []
    for name in os.listdir("/proc"):
        try:
            line = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if name.isdigit() and marker in line:
            found.append(f"{name}: {line}")
    return found


# ---------------------------------------------------------------------------------------------------------
# The wall alone: a payload behind wall.command, no audit hook


def behind_the_wall(project: Path, payload: str, *, timeout: float = 120, **popen) -> tuple[dict, str]:
    """Run ``payload`` (Python) behind the wall reading ``project``, with TOKEN in the command's environment:
    what it reported (the JSON it prints last) and everything it wrote."""
    script = project / "payload.py"
    script.write_text(textwrap.dedent(payload))
    command = wall.command([sys.executable, str(script)], read=[project])
    env = {**os.environ, "CI_SECRET_TOKEN": TOKEN}
    run = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=timeout, env=env,
                         preexec_fn=wall.limits(2 * 1024**3, 60), cwd="/", **popen)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1]), said


def test_behind_the_wall_a_file_beside_the_project_cannot_be_read_or_listed(place):
    project, outside = place
    report, said = behind_the_wall(project, f"""
        import json, os
        found = {{}}
        for path in ({str(outside / 'secret.txt')!r}, "/proc/1/root" + {str(outside / 'secret.txt')!r},
                     "/proc/self/root" + {str(outside / 'secret.txt')!r}):
            try:
                found[path] = open(path).read()
            except OSError as error:
                found[path] = type(error).__name__
        try:
            found["listed"] = os.listdir({str(outside)!r})
        except OSError as error:
            found["listed"] = type(error).__name__
        found["project"] = sorted(os.listdir({str(project)!r}))
        print(json.dumps(found))
        """)
    assert SECRET not in said
    assert all(report[path] == "FileNotFoundError" for path in report if path.endswith("secret.txt")), report
    assert report["listed"] == "FileNotFoundError", report
    assert report["project"] == sorted(os.listdir(project)), "the project itself is readable behind the wall"


def test_behind_the_wall_the_commands_environment_is_nowhere(place):
    project, _outside = place
    report, said = behind_the_wall(project, """
        import json, os
        found = {"environ": dict(os.environ)}
        for name in os.listdir("/proc"):
            if name.isdigit() or name == "self":
                for kind in ("environ", "cmdline"):
                    try:
                        found[f"{name}/{kind}"] = open(f"/proc/{name}/{kind}", "rb").read().decode(errors="replace")
                    except OSError as error:
                        found[f"{name}/{kind}"] = type(error).__name__
        print(json.dumps(found))
        """)
    assert "CI_SECRET_TOKEN" not in report["environ"]
    assert TOKEN not in said, [name for name, text in report.items() if TOKEN in str(text)]


def test_behind_the_wall_there_is_no_network(place):
    project, _outside = place
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        report, _said = behind_the_wall(project, f"""
            import json, socket
            found = {{}}
            for address in (("127.0.0.1", {port}), ("8.8.8.8", 53)):
                try:
                    socket.create_connection(address, timeout=3).close()
                    found[str(address)] = "connected"
                except OSError as error:
                    found[str(address)] = type(error).__name__
            print(json.dumps(found))
            """)
        listener.settimeout(0.5)
        with pytest.raises(socket.timeout):
            listener.accept()  # nothing behind the wall reached the test's own port
    assert "connected" not in report.values(), report


def test_behind_the_wall_no_process_of_the_machine_is_visible_or_can_be_signalled(place):
    project, _outside = place
    me = os.getpid()
    report, _said = behind_the_wall(project, f"""
        import json, os, signal
        found = {{"pids": sorted(int(n) for n in os.listdir("/proc") if n.isdigit()), "parent": os.getppid()}}
        for kind, act in (("kill", lambda: os.kill({me}, 0)), ("pidfd", lambda: os.pidfd_open({me}))):
            try:
                act()
                found[kind] = "reached"
            except OSError as error:
                found[kind] = type(error).__name__
        print(json.dumps(found))
        """)
    assert report["kill"] == report["pidfd"] == "ProcessLookupError", report
    assert max(report["pids"]) < 10 and report["parent"] == 1, report  # its own PID namespace: bwrap's init, itself


def test_behind_the_wall_nothing_outside_its_scratch_can_be_written(place):
    project, outside = place
    marker = f"written-{uuid.uuid4().hex[:8]}"
    before_outside, before_project = digest(outside), digest(project)
    targets = [outside / marker, project / marker, project / "rules_src" / marker, Path("/") / marker,
               Path("/dev") / marker, Path("/dev/shm") / marker, Path.home() / marker, Path("/var/tmp") / marker]
    report, _said = behind_the_wall(project, f"""
        import json, os
        found = {{}}
        for path in {[str(t) for t in targets]!r}:
            try:
                with open(path, "w") as file:
                    file.write("written behind the wall")
                found[path] = "written"
            except OSError as error:
                found[path] = type(error).__name__
        print(json.dumps(found))
        """)
    for target in targets:
        assert not target.exists(), f"{target} was written from behind the wall"
    assert digest(outside) == before_outside and digest(project) == before_project
    writable = {path for path, how in report.items() if how == "written"}
    assert writable <= {str(outside / marker)}, f"written behind the wall, beyond its capped /tmp: {writable}"
    # (outside/ lies under /tmp here: behind the wall that is the capped scratch tmpfs, gone afterwards)


def test_behind_the_wall_sysctls_are_read_only(place):
    project, _outside = place
    report, _said = behind_the_wall(project, """
        import json
        try:  # the hostname is the wall's own (its UTS namespace): the one sysctl safe to try to write
            with open("/proc/sys/kernel/hostname", "w") as file:
                file.write("walled")
            found = "written"
        except OSError as error:
            found = type(error).__name__
        print(json.dumps({"hostname": found}))
        """)
    assert report["hostname"] != "written", "rules code could set kernel parameters (kernel.core_pattern...)"


def test_behind_the_wall_the_scratch_tmp_is_capped(place):
    project, _outside = place
    report, _said = behind_the_wall(project, """
        import errno, json
        written, stopped = 0, None
        chunk = b"x" * (16 * 1024 * 1024)
        try:
            for n in range(64):  # 1 GiB in 16 MiB files, past the cap
                with open(f"/tmp/fill-{n}", "wb") as file:
                    file.write(chunk)
                written += len(chunk)
        except OSError as error:
            stopped = errno.errorcode.get(error.errno, str(error.errno))
        print(json.dumps({"written": written, "stopped": stopped}))
        """)
    assert report["stopped"] == "ENOSPC" and report["written"] <= wall.SCRATCH_BYTES, report


def test_behind_the_wall_bwraps_init_holds_neither_the_environment_nor_the_hosts_channels(place, monkeypatch):
    """bwrap's init (pid 1 behind the wall) can be read from inside: it must hold no secret and no pipe
    of the host's, or rules code past the fence could read the token or forge the host's replies."""
    from generator.examples.walled import Host

    project, _outside = place
    monkeypatch.setenv("CI_SECRET_TOKEN", TOKEN)
    host = Host(project)
    try:
        init = _children(host.process.pid)
        for _ in range(200):  # until bwrap's init has started the host
            if len(init) == 1 and _children(init[0]):
                break
            time.sleep(0.05)
            init = _children(host.process.pid)
        assert len(init) == 1 and _children(init[0]), init
        channels = {f"pipe:[{os.fstat(stream.fileno()).st_ino}]" for stream in (host.requests, host.replies)}
        held = set()
        for fd in os.listdir(f"/proc/{init[0]}/fd"):
            try:
                held.add(os.readlink(f"/proc/{init[0]}/fd/{fd}"))
            except OSError:
                pass
        assert not channels & held, f"bwrap's init holds the host's channels: {held}"
        assert TOKEN.encode() not in Path(f"/proc/{init[0]}/environ").read_bytes()
    finally:
        host.close()


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        found += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    return found
