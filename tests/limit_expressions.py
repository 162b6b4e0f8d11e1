"""Every army-limit expression up to a depth, for checks against brute force (tests/mechanics, tests/render)."""

from __future__ import annotations

OPERATORS = ("+", "-", "*", "/", "//")


def limit_expressions(depth: int, leaves: tuple[str, ...], rights: tuple[str, ...]):
    """Every expression of ``leaves`` up to ``depth`` steps, each step one of + - * / // with one of ``rights``."""
    if depth == 0:
        yield from leaves
        return
    smaller = list(limit_expressions(depth - 1, leaves, rights))
    yield from smaller
    for left in smaller:
        for op in OPERATORS:
            for right in rights:
                yield f"({left} {op} {right})"
