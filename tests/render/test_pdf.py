"""Loading WeasyPrint: once per process, every library it needs, and no process started to find them."""

from __future__ import annotations

import subprocess
import sys

from helpers import ROOT

LOADS = """
import sys
started = []
sys.addaudithook(lambda event, args: started.append(args[0]) if event == "subprocess.Popen" else None)
from generator.render.pdf import weasyprint_module
weasyprint = weasyprint_module()
from weasyprint.text import ffi
print(started)
print(weasyprint_module() is weasyprint, all(ffi.__dict__.get(name) is not None for name in sys.argv[1:]))
"""
LIBRARIES = ("gobject", "pango", "harfbuzz", "harfbuzz_subset", "fontconfig", "pangoft2")


def test_weasyprint_loads_every_library_without_starting_a_process_to_find_them():
    # A fresh process: this one may have loaded WeasyPrint already, and the look-up is what its first import does.
    loaded = subprocess.run(
        [sys.executable, "-c", LOADS, *LIBRARIES], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    assert loaded.stdout.splitlines() == ["[]", "True True"], loaded.stderr
