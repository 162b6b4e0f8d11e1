"""The contributor builds the site, then replaces every template Jinja compiled into the site cache
(templates-bytecode/) by a pickle payload behind Jinja's own header (Jinja unpickles the checksum that
follows it), and leaves the pages to be written again (no output, no environment)."""
import shutil
import sys
from pathlib import Path

from jinja2.bccache import bc_magic

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _forge  # noqa: E402

project = _forge.project_argument()
_forge.build_site_as_contributor(project)
cache = _forge.site_cache(project)
compiled = sorted((cache / "templates-bytecode").iterdir())
assert compiled, "the contributor's build compiled no template"
for path in compiled:
    path.write_bytes(bc_magic + _forge.payload(project))
shutil.rmtree(cache / "doctrees")
shutil.rmtree(cache.with_name(cache.name + "-html"))
shutil.rmtree(project / "build")
(project / "build").mkdir()
(project / "build" / ".manifest.json").write_text("{}")
