"""The contributor's rulepress finds nothing in any prose, so its memo-prose slot clears the {include}."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _forge  # noqa: E402
import generator.validate.prose  # noqa: E402

project = _forge.project_argument()
generator.validate.prose.prose_findings = lambda text: []
_forge.check_quietly(project)
_forge.keep_only(project, "memo-prose")
