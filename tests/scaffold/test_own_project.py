"""A rules project of one's own: an empty folder, `rulepress new`, `rulepress build` (the whole build of a new
project, and that it leaves the package's templates as they were, is tests/scaffold/test_new_project_build.py).

Templates come from the package's defaults; a project's own ``templates/`` overrides
them file by file. Real builds, read back with pypdf.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from helpers import on_a4_alone
from pypdf import PdfReader

from generator.cli import main
from generator.render.assets import default_templates, readable, template_path
from generator.render.jinja import jinja_env

pytestmark = pytest.mark.build  # its tests run real builds (Sphinx, WeasyPrint) in their bodies

SHEETS_ONLY = ("--only", "sheets", "--audience", "player", "--ruleset", "my_game")  # the sheet the tests read


def pdf_text(path: Path) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(path).pages)


def new_project(tmp_path: Path, monkeypatch) -> Path:
    """``rulepress new my_game`` in an empty folder, run from inside it (not from the repository)."""
    monkeypatch.chdir(tmp_path)
    assert main(["-C", str(tmp_path), "new", "my_game"]) == 0
    return on_a4_alone(tmp_path)


def quick_reference(root: Path) -> str:
    return pdf_text(root / "build/sheets/my_game-quick-reference-a4.pdf")


def test_the_projects_own_templates_override_the_defaults_file_by_file(tmp_path, monkeypatch):
    root = new_project(tmp_path, monkeypatch)
    assert main(["-C", str(root), "build", *SHEETS_ONLY]) == 0
    assert "Brunwald house rules" not in quick_reference(root)
    own = root / "templates"
    (own / "sheets").mkdir(parents=True)
    base = (default_templates() / "sheets/base.html.j2").read_text(encoding="utf-8")
    (own / "sheets/base.html.j2").write_text(
        base.replace("</footer>", "<p>Brunwald house rules</p></footer>"), encoding="utf-8"
    )
    css = (default_templates() / "print-base.css").read_text(encoding="utf-8")
    (own / "print-base.css").write_text('@import "mark.css";\n' + css, encoding="utf-8")
    (own / "mark.css").write_text('.sheet-foot::after { content: "Stylesheet mark one"; }\n', encoding="utf-8")
    assert main(["-C", str(root), "build", *SHEETS_ONLY]) == 0
    text = quick_reference(root)
    assert "Brunwald house rules" in text and "Stylesheet mark one" in text
    assert "worked out exactly from the rules" in text  # the rest of the sheet templates are still the defaults
    (own / "mark.css").write_text('.sheet-foot::after { content: "Stylesheet mark two"; }\n', encoding="utf-8")
    assert main(["-C", str(root), "build", *SHEETS_ONLY]) == 0  # only an asset changed: the key must see it
    assert "Stylesheet mark two" in quick_reference(root)


def test_the_defaults_come_from_the_package_without_a_project_templates_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    packaged = resources.files("generator") / "templates"
    assert packaged.joinpath("print-base.css").is_file() and packaged.joinpath("sheets/base.html.j2").is_file()
    assert default_templates() == Path(str(packaged)).resolve()
    assert template_path(tmp_path, "print-base.css") == default_templates() / "print-base.css"
    template = jinja_env(tmp_path).get_template("handouts/handout.html.j2")
    assert Path(template.filename).resolve() == default_templates() / "handouts/handout.html.j2"
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates/print-base.css").write_text("body {}", encoding="utf-8")
    assert template_path(tmp_path, "print-base.css") == tmp_path / "templates/print-base.css"


def test_the_sandbox_reads_the_project_and_the_defaults_and_nothing_else(tmp_path):
    root, defaults = tmp_path / "project", default_templates()
    (root / "templates/sheets").mkdir(parents=True)
    (root / "templates/sheets/logo.svg").write_text("<svg/>", encoding="utf-8")
    (tmp_path / "elsewhere.css").write_text("body {}", encoding="utf-8")
    (root / "templates/link.css").symlink_to(tmp_path / "elsewhere.css")
    assert readable(root / "templates/sheets/logo.svg", root) == root / "templates/sheets/logo.svg"
    assert readable(root / "templates/print-base.css", root) == defaults / "print-base.css"
    assert readable(defaults / "sheets/logo.svg", root) == root / "templates/sheets/logo.svg"
    assert readable(defaults / "handouts/print.css", root) == defaults / "handouts/print.css"
    outside = [
        Path("/etc/hostname"),
        defaults / "../README.md",
        defaults.parent / "pyproject.toml",
        root / "../elsewhere.css",
        root / "templates/link.css",
        defaults / "missing.css",
    ]
    assert [readable(path, root) for path in outside] == [None] * len(outside)


def test_an_overriding_stylesheet_naming_a_file_outside_is_still_refused(tmp_path, monkeypatch, capsys):
    root = new_project(tmp_path, monkeypatch)
    (root / "templates").mkdir()
    css = (default_templates() / "print-base.css").read_text(encoding="utf-8")
    (root / "templates/print-base.css").write_text(
        css + "body { background: url(file:///etc/hostname); }\n", encoding="utf-8"
    )
    capsys.readouterr()
    assert main(["-C", str(root), "build", *SHEETS_ONLY]) == 1
    err = capsys.readouterr().err
    line = len((root / "templates/print-base.css").read_text(encoding="utf-8").splitlines())
    assert f"templates/print-base.css:{line}:" in err and "error[resource-outside]" in err, err
    assert not (root / "build").exists()


def test_a_file_outside_named_in_a_template_the_sheet_extends_is_located_there(tmp_path, monkeypatch, capsys):
    """An override of `sheets/base.html.j2` (which every sheet extends) with an image from outside on its line 20:
    refused, and told at that line of that file, not at the first line of the sheet's own template."""
    root = new_project(tmp_path, monkeypatch)
    (root / "templates/sheets").mkdir(parents=True)
    lines = (default_templates() / "sheets/base.html.j2").read_text(encoding="utf-8").splitlines()
    lines.insert(19, '<img src="file:///etc/hostname">')
    (root / "templates/sheets/base.html.j2").write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["-C", str(root), "build", *SHEETS_ONLY]) == 1
    err = capsys.readouterr().err
    assert "templates/sheets/base.html.j2:20:11: error[resource-outside]" in err, err  # where the address starts
    assert "charts.html.j2:1:1" not in err and "quick-reference.html.j2:1:1" not in err, err
