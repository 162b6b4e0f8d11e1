"""The engine's layers hold: no import cycle, even through imports written inside functions, and
every function-level import of the package says why it is deferred (scripts/import_layers.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("import_layers", ROOT / "scripts" / "import_layers.py")
import_layers = importlib.util.module_from_spec(_spec)
sys.modules["import_layers"] = import_layers  # its dataclass looks its module up there
_spec.loader.exec_module(import_layers)


def package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture(scope="module")
def engine_graph():
    """The engine's imports (every module of generator/ read once for both tests below)."""
    return import_layers.graph(ROOT / "generator")


def test_the_engine_has_no_import_cycle(engine_graph):
    edges, _ = engine_graph
    assert import_layers.cycles(edges) == []


def test_every_function_level_import_of_the_engine_says_why_it_is_deferred(engine_graph):
    _, late = engine_graph
    assert [str(item) for item in late if not item.explained] == []


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    root = package(
        tmp_path,
        {
            "a.py": "from .b import two\n",
            "b.py": "def two():\n    from .a import one  # deferred: to show the cycle it hides\n    return one\n",
        },
    )
    edges, late = import_layers.graph(root)
    assert import_layers.cycles(edges) == [["pkg.a", "pkg.b"]]
    assert [(item.line, item.explained) for item in late] == [(2, True)]


def test_a_cycle_through_a_subpackage_and_a_relative_import_is_found(tmp_path):
    root = package(
        tmp_path,
        {
            "render/__init__.py": "",
            "render/site.py": "from ..model import thing\n",
            "model.py": "from .render import site\nthing = 1\n",
        },
    )
    edges, _ = import_layers.graph(root)
    assert import_layers.cycles(edges) == [["pkg.model", "pkg.render.site"]]


def test_an_unexplained_function_level_import_is_reported_and_fails_the_run(tmp_path, capsys):
    root = package(tmp_path, {"a.py": "def f():\n    from . import b\n", "b.py": ""})
    assert import_layers.main([str(root)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "cycles 0; function-level imports 1 (unexplained 1)"


def test_a_package_gathering_its_own_submodules_is_no_cycle(tmp_path):
    root = package(
        tmp_path,
        {
            "__init__.py": "from .dice import roll\n__all__ = ['roll']\n",
            "dice.py": "from . import tables\n\ndef roll():\n    return 1\n",
            "tables.py": "",
        },
    )
    edges, _ = import_layers.graph(root)
    assert import_layers.cycles(edges) == []
    assert import_layers.main([str(root)]) == 0


def test_the_readme_says_what_each_part_of_the_engine_is():
    """Its "What is where" table names every module and subpackage at the top of generator/ (a newcomer's map)."""
    table = [line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    named = {part for line in table for part in line.split("|")[1].replace("`", "").replace(",", " ").split()}
    parts = {
        f"generator/{path.name}" + ("/" if path.is_dir() else "")
        for path in (ROOT / "generator").iterdir()
        if not path.name.startswith("__") and (path.suffix == ".py" or (path / "__init__.py").is_file())
    }
    assert "generator/cli.py" in parts and "generator/render/" in parts
    assert sorted(parts - named) == []
