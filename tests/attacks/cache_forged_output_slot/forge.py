"""A shipped output-all slot: what `check` prints back for this very project, saying all is well."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _forge  # noqa: E402

_forge.forge_output(_forge.project_argument(), "game: no worked examples\n1 ruleset, 0 tables, 0 profile rows, 0 examples, 0 errors\n")
