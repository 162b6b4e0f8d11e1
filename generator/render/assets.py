"""Where templates, stylesheets and their assets come from: the project's own
``templates/`` first, file by file, then the defaults shipped in the package."""

from __future__ import annotations

import functools
from pathlib import Path

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
            names.update(
                p.relative_to(folder).as_posix()
                for p in folder.rglob("*")
                if p.is_file() and p.suffix not in (".j2", ".html")
            )
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
