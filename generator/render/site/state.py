"""The project a Sphinx run renders, where the extension's hooks and directives find it.

Sphinx pickles its environment between builds and the checked project does not pickle, so the project
is kept here, by the run's source folder, for the duration of the run; and a caller that has just checked
a project (serve's warm builds, the site worker) lends it for the runs on its root with
:func:`checked_project`, so they do not check it again.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import cached_property
from pathlib import Path

from sphinx.application import Sphinx

from ...validate import check_project


class Model:
    """The project, loaded once per Sphinx run."""

    def __init__(self, root: Path, only: str | None):
        self.root = root
        self.only = only

    @cached_property
    def project(self):
        result = check_project(self.root, self.only)
        if not result.ok:
            raise RuntimeError(
                "rules_src has errors; run `rulepress check`:\n"
                + "\n".join(d.format() for d in result.diagnostics.errors[:20])
            )
        return result.project


_MODELS: dict[str, Model] = {}  # by Sphinx source folder; set up when the builder starts
_CHECKED: dict[str, object] = {}  # by project root: a project its caller has just checked (serve's warm builds)


@contextmanager
def checked_project(project):
    """Within this block, Sphinx runs on ``project``'s root use ``project`` instead of checking it again."""
    key = str(Path(project.root).resolve())
    _CHECKED[key] = project
    try:
        yield
    finally:
        _CHECKED.pop(key, None)


def init_model(app: Sphinx) -> None:
    # a relative `rulepress_root` is from the folder of conf.py, as Sphinx's own paths are, not from where one runs
    root = Path(app.confdir or app.srcdir) / app.config.rulepress_root
    made = Model(root.resolve(), app.config.rulepress_ruleset or None)
    if made.only is None and str(made.root) in _CHECKED:
        made.__dict__["project"] = _CHECKED[str(made.root)]  # what the cached property would have computed
    _MODELS[str(app.srcdir)] = made


def model(env) -> Model:
    """The project of the Sphinx run ``env`` belongs to."""
    return _MODELS[str(env.srcdir)]
