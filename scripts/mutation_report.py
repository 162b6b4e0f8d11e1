"""Print the mutation score of the last `mutmut run`: killed / total per module, and in all.

mutmut keeps each mutated file's verdicts in ``mutants/<path>.meta`` (JSON, ``exit_code_by_key``:
mutant name to the exit code of its tests). A mutant is killed when its tests failed (exit 1 or 3)
or ran out of time (a mutant that loops forever is caught too); survivors are listed, with why
each is kept, in docs/mutation-survivors.md.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

KILLED = {1, 3}
TIMEOUT = {36, 24, -24, 152, 255}
NO_TESTS = {5, 33}


def verdict(exit_code: int | None) -> str:
    if exit_code in KILLED or exit_code in TIMEOUT:
        return "killed"
    if exit_code == 0:
        return "survived"
    if exit_code in NO_TESTS:
        return "no tests"
    return "not checked" if exit_code is None else "suspicious"


def module_name(meta: Path, root: Path) -> str:
    return meta.relative_to(root).as_posix().removesuffix(".meta")


def tally(root: Path) -> dict[str, Counter]:
    by_module: dict[str, Counter] = {}
    for meta in sorted(root.rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        by_module[module_name(meta, root)] = Counter(verdict(code) for code in codes.values())
    return by_module


def line(name: str, counts: Counter) -> str:
    total = sum(counts.values())
    score = 100 * counts["killed"] / total if total else 0
    others = ", ".join(f"{counts[k]} {k}" for k in ("survived", "no tests", "suspicious", "not checked") if counts[k])
    return f"{name:<40} {counts['killed']:>5} / {total:<5} killed  {score:5.1f}%   {others}"


def main(root: str = "mutants") -> int:
    by_module = tally(Path(root))
    if not by_module:
        print(f"no mutation results under {root}/: run `make mutation`", file=sys.stderr)
        return 1
    for name, counts in by_module.items():
        print(line(name, counts))
    print(line("all", sum(by_module.values(), Counter())))
    print("survivors: `.venv/bin/mutmut results`; each is killed by a test or explained in docs/mutation-survivors.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
