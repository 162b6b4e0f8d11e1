"""Import cycles inside a package, counting the imports written inside functions, and those
function-level imports that do not say why they are deferred.

    python scripts/import_layers.py [PACKAGE_DIR]     (default: generator)

prints each cycle and each unexplained function-level import, then
``cycles N; function-level imports M (unexplained U)``, and exits 1 when N or U is not 0.
A function-level import of the package is explained by a comment on its line or the line above
that says ``deferred`` and why (a heavy dependency kept out of a command that does not need it).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class LateImport:
    path: Path
    line: int
    explained: bool

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: function-level import without a '# deferred: why' comment"


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package under ``root``, by dotted name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _targets(node: ast.AST, module: str, is_package: bool, package: str) -> list[str]:
    """The dotted names an import statement may load, absolute."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    return [prefix, *(f"{prefix}.{alias.name}" for alias in node.names)]


def _owner(name: str, known: dict[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def graph(root: Path) -> tuple[dict[str, set[str]], list[LateImport]]:
    """Each module's imports of its own package (top-level and inside functions), and the
    function-level ones with whether a comment explains them."""
    known = modules(root)
    package = root.name
    edges: dict[str, set[str]] = {name: set() for name in known}
    late = []
    for name, path in known.items():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text)
        is_package = path.name == "__init__.py"
        inside = {
            id(node)
            for fn in ast.walk(tree)
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
            for node in ast.walk(fn)
        }
        for node in ast.walk(tree):
            targets = [t for t in _targets(node, name, is_package, package) if t.split(".")[0] == package]
            owners = {_owner(t, known) for t in targets} - {None, name}
            if is_package:  # a package's __init__ gathering its own submodules is its public surface, not a cycle
                owners = {o for o in owners if not o.startswith(name + ".")}
            edges[name] |= owners
            if targets and id(node) in inside:
                said = " ".join(lines[max(0, node.lineno - 2) : node.lineno])
                late.append(LateImport(path.relative_to(root.parent), node.lineno, "deferred" in said))
    return edges, late


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0] if args else "generator").resolve()
    edges, late = graph(root)
    groups = cycles(edges)
    for group in groups:
        print(f"cycle of {len(group)}: {', '.join(group)}")
    unexplained = [item for item in late if not item.explained]
    for item in unexplained:
        print(item)
    print(f"cycles {len(groups)}; function-level imports {len(late)} (unexplained {len(unexplained)})")
    return 1 if groups or unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
