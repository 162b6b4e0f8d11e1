"""A pickle payload where Sphinx keeps the site's environment (doctrees/environment.pickle), shipped in
the project's .rulepress-cache/ for a build into build/."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _forge  # noqa: E402

project = _forge.project_argument()
doctrees = _forge.site_cache(project) / "doctrees"
doctrees.mkdir(parents=True)
(doctrees / "environment.pickle").write_bytes(_forge.payload(project))
