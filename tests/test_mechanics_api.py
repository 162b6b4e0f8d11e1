"""Rules authors' mechanics use Rulepress only through its public API, `generator.mechanics.__all__`.

Every mechanics file (the samples', the test fixtures' and the scaffold `rulepress new` copies) imports from the
generator only `from generator.mechanics import <a name of __all__>`; each name is documented in the package's
docstring and is what worked examples see; the package's submodules never import the package itself.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import generator.mechanics as api
from generator.examples.namespace import mechanics_namespace

ROOT = Path(__file__).resolve().parents[1]
MECHANICS = sorted(
    [
        *ROOT.glob("rules_src/*/mechanics*.py"),
        *ROOT.glob("tests/fixtures/*/rules_src/*/mechanics*.py"),
        *ROOT.glob("generator/scaffold/template/mechanics*.py"),
    ]
)
PACKAGE = Path(api.__file__).parent


def generator_imports(path: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """Each import of the generator in ``path``: (line, module, names imported from it; () for `import module`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, ()) for a in node.names if a.name.split(".")[0] == "generator"]
        elif isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] == "generator"):
            found.append((node.lineno, "." * node.level + (node.module or ""), tuple(a.name for a in node.names)))
    return found


def outside_the_api(path: Path, root: Path = ROOT) -> list[str]:
    """The imports of the generator in ``path`` that are not names of the public API, each with its place."""
    return [
        f"{path.relative_to(root)}:{line}: {module} {', '.join(names)}".rstrip()
        for line, module, names in generator_imports(path)
        if module != "generator.mechanics" or not names or not set(names) <= set(api.__all__)
    ]


def test_the_mechanics_files_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in MECHANICS}
    assert {
        "rules_src/rampant_hex/mechanics.py",
        "rules_src/ordo_ineptus/mechanics_combat.py",
        "tests/fixtures/homebrew/rules_src/melee/mechanics.py",
        "generator/scaffold/template/mechanics.py",
    } <= names


@pytest.mark.parametrize("path", MECHANICS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_mechanics_import_only_the_public_api(path):
    assert outside_the_api(path) == []


def test_a_deep_import_is_caught(tmp_path):
    planted = tmp_path / "mechanics.py"
    planted.write_text(
        "from generator.mechanics import army_points\nfrom generator.mechanics.armies import evaluate\n"
        "from generator.model.entries import ArmyList\nimport generator.model\n"
        "from generator.mechanics import _OPS\n",
        encoding="utf-8",
    )
    assert outside_the_api(planted, tmp_path) == [
        "mechanics.py:2: generator.mechanics.armies evaluate",
        "mechanics.py:3: generator.model.entries ArmyList",
        "mechanics.py:4: generator.model",
        "mechanics.py:5: generator.mechanics _OPS",
    ]


def test_every_public_name_exists_and_is_documented():
    assert len(set(api.__all__)) == len(api.__all__)
    for name in api.__all__:
        assert hasattr(api, name), name
        assert re.search(rf"``{re.escape(name)}[`(]", api.__doc__), f"{name} is not documented in the docstring"


def test_worked_examples_see_the_public_api():
    assert set(mechanics_namespace()) == set(api.__all__)


SUBMODULES = sorted(p for p in PACKAGE.glob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", SUBMODULES, ids=lambda p: p.name)
def test_the_submodules_do_not_import_their_package(path):
    """The package imports its submodules; one importing the package back would be an import cycle."""
    for _line, module, names in generator_imports(path):
        assert module not in (".", "generator.mechanics"), f"{path.name} imports {module} {names}"
