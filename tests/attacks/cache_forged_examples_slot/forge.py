"""The contributor's rulepress runs no example and reports them passing: its examples-game slot says so."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _forge  # noqa: E402
import generator.examples.run as run  # noqa: E402

project = _forge.project_argument()
run.run_examples = lambda ruleset, root: run.ExampleRun(ruleset.id, 1, ())
_forge.check_quietly(project)
_forge.keep_only(project, "examples-")
