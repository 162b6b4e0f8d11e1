"""Where templates, stylesheets and their assets come from: the project's own
``templates/`` first, file by file, then the defaults shipped in the package."""

from __future__ import annotations

import functools
from pathlib import Path

import jinja2

PROJECT_TEMPLATES = "templates"  # in the project root, and shown in diagnostics


@functools.cache
def default_templates() -> Path:
    """The package's default templates, as a real path (``generator/templates`` is a symlink)."""
    return (Path(__file__).parent.parent / "templates").resolve()


def template_path(root: Path, relative: str) -> Path:
    """``relative`` (under templates/) in the project if it has that file, else the default."""
    own = Path(root) / PROJECT_TEMPLATES / relative
    return own if own.is_file() else default_templates() / relative


def asset_names(root: Path) -> list[str]:
    """Every file name (not templates) under the project's or the default templates/, sorted."""
    names = set()
    for folder in (Path(root) / PROJECT_TEMPLATES, default_templates()):
        if folder.is_dir():
            names.update(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                         if p.is_file() and p.suffix not in (".j2", ".html"))
    return sorted(names)


def readable(path: Path, root: Path) -> Path | None:
    """The file a fetched ``path`` stands for, resolved like templates; None if it is
    not a file inside the project or the default templates."""
    root, defaults = Path(root).resolve(), default_templates()
    path = path.resolve()
    for folder in (root / PROJECT_TEMPLATES, defaults):
        if path.is_relative_to(folder):
            path = template_path(root, path.relative_to(folder).as_posix()).resolve()
            break
    inside = path.is_relative_to(root) or path.is_relative_to(defaults)
    return path if inside and path.is_file() else None


class _Defaults(jinja2.FileSystemLoader):
    """The default templates; a default goes stale once the project adds its own (serve)."""

    def __init__(self, project: Path):
        super().__init__(str(default_templates()))
        self.project = project

    def get_source(self, environment, name):
        source, filename, uptodate = super().get_source(environment, name)
        own = self.project.joinpath(*jinja2.loaders.split_template_path(name))
        return source, filename, lambda: uptodate() and not own.is_file()


@functools.cache
def jinja_env(root: Path) -> jinja2.Environment:
    """Templates from the project's ``templates/``, then the defaults: strict, autoescaped;
    one environment per project, so each template is compiled once per run."""
    own = Path(root) / PROJECT_TEMPLATES
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(own)), _Defaults(own)])
    return jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "j2"], default_for_string=True, default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
