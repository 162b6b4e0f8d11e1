"""Print the mutation score of the last `mutmut run`: killed / total per module, and in all.

mutmut keeps each mutated file's verdicts in ``mutants/<path>.meta`` (JSON, ``exit_code_by_key``:
mutant name to the exit code of its tests). A mutant is killed when its tests failed (exit 1 or 3)
or ran out of time (a mutant that loops forever is caught too). Every mutant that is not killed
must be named, with why it is kept, in docs/mutation-survivors.md: the report lists those that are
not. ``--markdown`` prints the table that file holds, from the same numbers.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

KILLED = {1, 3}
TIMEOUT = {36, 24, -24, 152, 255}
NO_TESTS = {5, 33}
KINDS = ("survived", "no tests", "suspicious", "not checked")
EXPLAINED = Path("docs/mutation-survivors.md")


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


def verdicts(root: Path) -> dict[str, dict[str, str]]:
    """Per mutated file, each mutant's verdict."""
    by_module = {}
    for meta in sorted(root.rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        if codes:
            by_module[module_name(meta, root)] = {name: verdict(code) for name, code in codes.items()}
    return by_module


def line(name: str, counts: Counter) -> str:
    total = sum(counts.values())
    score = 100 * counts["killed"] / total if total else 0
    others = ", ".join(f"{counts[k]} {k}" for k in KINDS if counts[k])
    return f"{name:<40} {counts['killed']:>5} / {total:<5} killed  {score:5.1f}%   {others}"


def markdown(by_module: dict[str, Counter]) -> str:
    rows = ["| module | mutants | killed | survived | no tests | score |", "|---|---|---|---|---|---|"]
    for name, counts in [*by_module.items(), ("**all**", sum(by_module.values(), Counter()))]:
        total = sum(counts.values())
        shown = f"`{name}`" if not name.startswith("*") else name
        rows.append(f"| {shown} | {total} | {counts['killed']} | {counts['survived']} | {counts['no tests']} | "
                    f"{100 * counts['killed'] / total:.1f}% |")
    return "\n".join(rows)


def explanations(explained: Path) -> dict[str, str]:
    """Each mutant docs/mutation-survivors.md explains, with the changed line it quotes for it."""
    parts = [explained, *sorted(explained.parent.glob("survivors/*.md"))]  # docs/survivors/<area>.md too
    text = "\n".join(part.read_text(encoding="utf-8") for part in parts if part.is_file())
    # a section headed OPEN lists mutants still to analyse, one headed Killed claims a kill the next run
    # must show: naming a survivor in either explains nothing
    sections = re.split(r"^(?=#{1,6} )", text, flags=re.M)
    kept = "".join(section for section in sections if not re.match(r"#{1,6} (OPEN|Killed)", section))
    return dict(re.findall(r"^- `([\w.ǁ]+)` \([^)]*\): ``(.*?) ?``\s*$", kept, flags=re.M))


def _squeezed(text: str) -> str:
    """Spaces squeezed, and backticks as quotes (a quote in a Markdown code span cannot hold a backtick)."""
    return " ".join(text.replace("`", "'").split())


def changed_lines(root: Path, name: str) -> list[str]:
    """The lines mutant ``name`` holds that its original function does not, read from mutmut's copy."""
    at = re.search(r"\.x[_ǁ]", name).start()
    module, function = name[:at], name[at + 1:]
    path = root / (module.replace(".", "/") + ".py")
    if not path.is_file():  # a package's own mutants are in its __init__.py
        path = root / module.replace(".", "/") / "__init__.py"
    source = path.read_text(encoding="utf-8")

    def body(suffix: str) -> list[str]:
        found = re.search(rf"^([ \t]*)def {re.escape(suffix)}\(.*?(?=^\1?\S|\Z)", source, flags=re.M | re.S)
        # the signature too (a default may be mutated), written `def f(` as the explanations quote it
        return found.group(0).replace(f"def {suffix}(", "def f(", 1).splitlines() if found else []

    original = set(body(re.sub(r"__mutmut_\d+$", "__mutmut_orig", function)))
    return [line for line in body(function) if line not in original]


def unexplained(by_module: dict[str, dict[str, str]], explained: Path, root: Path) -> list[str]:
    """Mutants not killed that docs/mutation-survivors.md does not name, or names with a line the mutant
    does not change (an explanation left over from before the function's mutants were renumbered)."""
    quoted = explanations(explained)
    missing = []
    for mutants in by_module.values():
        for name, kind in mutants.items():
            if kind == "killed":
                continue
            quote = _squeezed(quoted.get(name, ""))
            if not quote or not any(quote in _squeezed(line) for line in changed_lines(root, name)):
                missing.append(name)
    return sorted(missing)


def main(*args: str) -> int:
    root = Path(next((a for a in args if not a.startswith("--")), "mutants"))
    by_module = verdicts(root)
    if not by_module:
        print(f"no mutation results under {root}/: run `make mutation`", file=sys.stderr)
        return 1
    counts = {name: Counter(mutants.values()) for name, mutants in by_module.items()}
    if "--markdown" in args:
        print(markdown(counts))
        return 0
    for name, module_counts in counts.items():
        print(line(name, module_counts))
    print(line("all", sum(counts.values(), Counter())))
    missing = unexplained(by_module, EXPLAINED, root)
    print(f"not killed and not explained in {EXPLAINED}: {len(missing)}")
    for name in missing:
        print(f"  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
