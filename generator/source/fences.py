"""Find worked examples: fenced ``python`` blocks with ``>>>`` lines, at any indentation.

Examples sit inside YAML block scalars, so a fence may be indented. We scan the
raw file text, so every example keeps its real line in the ``rules_src`` file.
The one scanner here serves both what ``check`` runs and counts (``find_examples``)
and what renderers mark and hide (``example_fences``, by line).
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass

_OPEN = re.compile(r"^(?P<indent>[ ]*)(?P<fence>`{3,}|~{3,})\s*(?:\{code-block\}\s*)?python\s*$")


@dataclass(frozen=True)
class Block:
    line: int  # 1-based line of the block's first code line
    source: str  # dedented code
    start: int  # character offsets of the code in the text
    end: int
    indent: int


def example_fences(lines: list[str]) -> Iterator[tuple[int, int, str, str]]:
    """(open index, close index, indent, fence) of each fenced python block holding ``>>>`` lines,
    in ``lines`` given without their line endings."""
    index = 0
    while index < len(lines):
        opened = _OPEN.match(lines[index])
        if not opened:
            index += 1
            continue
        indent, fence = opened["indent"], opened["fence"]
        close = re.compile(rf"^{indent}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        end = index + 1
        while end < len(lines) and not close.match(lines[end]):
            end += 1
        if any(">>>" in line for line in lines[index + 1 : end]):
            yield index, end, indent, fence
        index = end + 1


@functools.lru_cache(maxsize=512)  # a long-lived process (the check daemon) scans each file's text once
def find_examples(text: str) -> tuple[Block, ...]:
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    blocks = []
    for index, end, indent, _fence in example_fences([line.rstrip("\n") for line in lines]):
        body = "".join(lines[index + 1 : end])
        blocks.append(Block(index + 2, textwrap.dedent(body), offsets[index + 1], offsets[end], len(indent)))
    return tuple(blocks)
