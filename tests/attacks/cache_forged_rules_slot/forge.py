"""The contributor's rulepress runs no checks, so its rules-game slot says the ruleset has no problem."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _forge  # noqa: E402
import generator.validate  # noqa: E402

project = _forge.project_argument()
generator.validate.run_checks = lambda ruleset: iter(())
_forge.check_quietly(project)
_forge.keep_only(project, "rules-")
