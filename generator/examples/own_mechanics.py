"""A ruleset's own mechanics: ``rules_src/<id>/mechanics.py`` (and ``mechanics_*.py``), for that ruleset only.

The files run in order as one module, so a later file can use what an earlier one defines.

The module runs with its ruleset already in scope as ``rules`` and its values as
``values``, so it reads every number from the data; ``check`` warns on any other
number literal than 0 and 1 in it. What it exports (``__all__``, else every public
function and class it defines) is what that ruleset's worked examples can call.
"""

from __future__ import annotations

import ast
import sys
import types
from fractions import Fraction
from pathlib import Path

import icepool

from ..diagnostics import Code, Diagnostic, Location, Severity
from ..model.calculate import calculator
from ..model.ruleset import Ruleset

_LOADED: dict[tuple[int, str], tuple[Ruleset, dict]] = {}


class MechanicsError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def preset(ruleset: Ruleset) -> dict:
    """What a mechanics module finds in scope before its first line runs: its ruleset, its values,
    and its roll tables, formulas and lookups by id, callable as in examples."""
    calc = calculator(ruleset)
    callables = {
        entry.id: calc.scope[entry.id]
        for section in ("tables", "formulas", "lookups")
        for entry in ruleset.reachable(section)
    }
    return {**callables, "rules": ruleset, "values": calc.values(), "Fraction": Fraction, "icepool": icepool}


def exported(ruleset: Ruleset, root: Path) -> dict:
    """The names a ruleset's mechanics module exports (and its bases'), loaded once per ruleset value."""
    names: dict = {}
    if ruleset.base is not None:
        names.update(exported(ruleset.base, root))
    if not ruleset.mechanics:
        return names
    key = (id(ruleset), str(root))
    known = _LOADED.get(key)
    if known is None or known[0] is not ruleset:
        known = (ruleset, _load(ruleset, Path(root), ruleset.mechanics))
        _LOADED[key] = known
    names.update(known[1])
    return names


def _load(ruleset: Ruleset, root: Path, files: tuple[str, ...]) -> dict:
    name = f"rulepress_rulesets.{ruleset.id}.mechanics"
    module = types.ModuleType(name)
    module.__file__ = str(root / files[0])
    module.__dict__.update(preset(ruleset))
    sys.modules[name] = module  # dataclasses defined in the module look themselves up here
    public: list[str] = []
    for shown in files:
        before = set(vars(module))
        _run(module, root / shown, shown)
        listed = vars(module).pop("__all__", None)  # each file lists its own exports
        public += (
            listed
            if listed is not None
            else [
                n
                for n in vars(module)
                if n not in before and not n.startswith("_") and getattr(vars(module)[n], "__module__", "") == name
            ]
        )
    return {n: getattr(module, n) for n in dict.fromkeys(public) if hasattr(module, n)}


def _run(module, path: Path, shown: str) -> None:
    try:
        code = compile(path.read_text(encoding="utf-8"), shown, "exec")
        exec(code, module.__dict__)
    except SyntaxError as error:
        raise MechanicsError(
            Diagnostic(Code.MECHANIC_ERROR, f"{error.msg}", Location(shown, error.lineno or 1, error.offset or 1))
        ) from None
    except Exception as error:  # the module's own error, reported where it happened
        line = _line_in(error, shown)
        raise MechanicsError(
            Diagnostic(Code.MECHANIC_ERROR, f"{type(error).__name__}: {error}", Location(shown, line, 1))
        ) from None


def _line_in(error: BaseException, shown: str) -> int:
    frame = error.__traceback__
    line = 1
    while frame is not None:
        if frame.tb_frame.f_code.co_filename == shown:
            line = frame.tb_lineno
        frame = frame.tb_next
    return line


def literal_warnings(path: Path, shown: str) -> list[Diagnostic]:
    """Number literals other than 0 and 1 in a mechanics module: numbers that belong in `values:`."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), shown)
    except SyntaxError as error:
        return [Diagnostic(Code.MECHANIC_ERROR, error.msg, Location(shown, error.lineno or 1, error.offset or 1))]
    found = []
    for node in ast.walk(tree):
        private = _private_import(node)
        if private:
            found.append(
                Diagnostic(
                    Code.MECHANIC_PRIVATE,
                    f"`{private}` is Rulepress's own, not its API for mechanics: it may change without notice",
                    Location(shown, node.lineno, node.col_offset + 1),
                    severity=Severity.WARNING,
                )
            )
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, (int, float, complex))
            and not isinstance(node.value, bool)
            and node.value not in (0, 1)
        ):
            found.append(
                Diagnostic(
                    Code.MECHANIC_LITERAL,
                    f"the number {node.value!r} is written in the mechanics",
                    Location(shown, node.lineno, node.col_offset + 1),
                    severity=Severity.WARNING,
                )
            )
    return found


PUBLIC = "generator.mechanics"  # the one module of Rulepress a ruleset's mechanics may import


def _private_import(node: ast.AST) -> str | None:
    """The module of Rulepress's own an import statement reads, when it is not the mechanics API."""
    if isinstance(node, ast.ImportFrom) and not node.level and node.module:
        names = [node.module]
    elif isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        return None
    return next((n for n in names if (n == "generator" or n.startswith("generator.")) and n != PUBLIC), None)
