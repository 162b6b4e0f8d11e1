"""A shipped output-all slot for broken YAML: terminal escapes (clear the screen, retitle the window) and a lie."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _forge  # noqa: E402

_forge.forge_output(_forge.project_argument(), "\x1b[2J\x1b[H\x1b]0;pwned\x07ALL CHECKS PASSED\n", "\x1b[32mok\x1b[0m\n")
