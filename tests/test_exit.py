"""How the process ends: 130 after Ctrl-C, whatever CPython remembers of where the interrupt landed."""

import subprocess
import sys
import textwrap

from helpers import ROOT

# Ctrl-C landing in an extension module's start-up code: that code runs through PyRun_String, which is what
# marks a KeyboardInterrupt as unhandled for CPython, even when the command catches it and says so.
INTERRUPTED_START_UP = textwrap.dedent(
    """
    import ctypes, sys
    ctypes.pythonapi.PyRun_SimpleString(b"raise KeyboardInterrupt")
    if sys.argv[1] == "sys.exit":
        sys.exit(130)
    from generator.exit import exit_with
    exit_with(130)
    """
)


def _status(tmp_path, ending: str) -> int:
    (tmp_path / "interrupted_start_up.py").write_text(INTERRUPTED_START_UP, encoding="utf-8")
    env = {"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [sys.executable, "-m", "interrupted_start_up", ending], capture_output=True, env=env, timeout=60
    )
    return run.returncode


def test_an_interrupt_in_extension_start_up_code_still_ends_with_status_130(tmp_path):
    assert _status(tmp_path, "sys.exit") == -2  # what CPython does on its own: it ends itself by SIGINT
    assert _status(tmp_path, "exit_with") == 130
