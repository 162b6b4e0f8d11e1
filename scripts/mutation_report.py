"""Print the mutation score of the last `mutmut run`: killed / total per module, and in all.

mutmut keeps each mutated file's verdicts in ``mutants/<path>.meta`` (JSON, ``exit_code_by_key``:
mutant name to the exit code of its tests). A mutant is killed when its tests failed (exit 1 or 3)
or ran out of time (a mutant that loops forever is caught too). Every mutant that is not killed
must be explained in docs/mutation-equivalents.md: the report lists those that are not, and the
explanations that no longer match any mutant. ``--markdown`` prints the score table that file
holds, from the same numbers; ``--not-killed`` the names of the mutants a run checked and did not kill.

A whole run takes many hours on two cores, so a score can be estimated from a sample: ``--sample N --seed S``
prints N mutants drawn at random among all (the same N for the same seed and code), for ``mutmut run`` to check;
``--estimate FILE`` then prints how many of those named in FILE were killed and the 95% interval (Wilson's) of
the share killed among all the mutants they were drawn from.

An explanation names a function (``DiceExpr.parse``, ``_export``) and quotes the line its mutant
changes, as mutmut wrote it: it explains every mutant of a function of that name whose changed
line holds the quote, whatever mutmut numbered the mutant and whichever module the function is in,
so it lasts while code is moved and mutants are renumbered.
"""

from __future__ import annotations

import json
import math
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

KILLED = {1, 3}
TIMEOUT = {36, 24, -24, 152, 255}
NO_TESTS = {5, 33}
KINDS = ("survived", "no tests", "suspicious", "not checked")
EXPLAINED = Path("docs/mutation-equivalents.md")
# one explanation a line: - `Class.method` or `function`, a colon, and the changed line in a (double) code span
_ENTRY = re.compile(r"^- `(?P<function>[\w.]+)`: ``\s?(?P<line>.*?)\s?``\s*$", flags=re.M)


class Explanation(NamedTuple):
    function: str
    line: str


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
        rows.append(
            f"| {shown} | {total} | {counts['killed']} | {counts['survived']} | {counts['no tests']} | "
            f"{100 * counts['killed'] / total:.1f}% |"
        )
    return "\n".join(rows)


def function_of(name: str) -> str:
    """The function a mutant changes, as the explanations name it: without module or number.

    ``generator.model.dice.xǁDiceExprǁparse__mutmut_8`` is ``DiceExpr.parse``,
    ``generator.pipeline.x__export__mutmut_38`` is ``_export``.
    """
    mangled = re.sub(r"__mutmut_\d+$", "", name.rpartition(".")[2])
    if mangled.startswith("xǁ"):
        return ".".join(mangled.removeprefix("xǁ").split("ǁ"))
    return mangled.removeprefix("x_")


def explanations(explained: Path) -> list[Explanation]:
    """Each function and changed line the reviewed file explains."""
    text = explained.read_text(encoding="utf-8") if explained.is_file() else ""
    return [Explanation(m["function"], m["line"]) for m in _ENTRY.finditer(text)]


def _squeezed(text: str) -> str:
    """Spaces squeezed, and backticks as quotes (a quote in a Markdown code span cannot hold a backtick)."""
    return " ".join(text.replace("`", "'").split())


def changed_lines(root: Path, name: str) -> list[str]:
    """The lines mutant ``name`` holds that its original function does not, read from mutmut's copy."""
    at = re.search(r"\.x[_ǁ]", name).start()
    module, function = name[:at], name[at + 1 :]
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


def explains(explanation: Explanation, name: str, lines: list[str]) -> bool:
    """Whether ``explanation`` is about mutant ``name``, whose changed lines are ``lines``."""
    quote = _squeezed(explanation.line)
    return (
        explanation.function == function_of(name)
        and bool(quote)
        and any(quote in _squeezed(changed) for changed in lines)
    )


def not_killed(by_module: dict[str, dict[str, str]]) -> list[str]:
    return sorted(name for mutants in by_module.values() for name, kind in mutants.items() if kind != "killed")


def _checked(by_module: dict[str, dict[str, str]], name: str) -> bool:
    return any(mutants.get(name, "not checked") != "not checked" for mutants in by_module.values())


def review(by_module: dict[str, dict[str, str]], explained: Path, root: Path) -> tuple[list[str], list[Explanation]]:
    """The mutants not killed that no explanation matches, and the explanations that match none of them
    (left over from code since changed or a mutant since killed: delete them)."""
    given = explanations(explained)
    used: set[Explanation] = set()
    missing = []
    for name in not_killed(by_module):
        lines = changed_lines(root, name)
        matching = {explanation for explanation in given if explains(explanation, name, lines)}
        used |= matching
        if not matching:
            missing.append(name)
    return missing, [explanation for explanation in given if explanation not in used]


def sample(by_module: dict[str, dict[str, str]], size: int, seed: int) -> list[str]:
    """``size`` mutant names drawn at random among every module's, by ``seed``: the same draw again for the same
    seed and the same mutants."""
    names = sorted(name for mutants in by_module.values() for name in mutants)
    return sorted(random.Random(seed).sample(names, min(size, len(names))))


def wilson(killed: int, checked: int, z: float = 1.96) -> tuple[float, float]:
    """The interval that holds the share killed among all mutants with 95% confidence, from ``killed`` of
    ``checked`` drawn at random (Wilson's score interval: right near 0% and 100% too, unlike p ± z·σ)."""
    if not checked:
        return 0.0, 1.0
    share = killed / checked
    middle = (share + z * z / (2 * checked)) / (1 + z * z / checked)
    half = z * math.sqrt(share * (1 - share) / checked + z * z / (4 * checked * checked)) / (1 + z * z / checked)
    return max(0.0, middle - half), min(1.0, middle + half)


def estimate(by_module: dict[str, dict[str, str]], names: list[str]) -> str:
    """What the sample ``names`` says of the whole score: killed of checked, and the interval."""
    found = {name: kind for mutants in by_module.values() for name, kind in mutants.items()}
    kinds = Counter(found.get(name, "not checked") for name in names)
    checked = sum(kinds.values()) - kinds["not checked"]
    low, high = wilson(kinds["killed"], checked)
    share = 100 * kinds["killed"] / checked if checked else 0
    others = "".join(f"; {kinds[k]} {k}" for k in KINDS if kinds[k])
    return (
        f"sample of {len(names)}: {kinds['killed']} of {checked} checked killed ({share:.1f}%){others}\n"
        f"the share killed among all {sum(len(m) for m in by_module.values())} mutants: "
        f"{100 * low:.1f}% to {100 * high:.1f}% (95% interval)"
    )


def _option(args: tuple[str, ...], name: str, default: str | None = None) -> str | None:
    return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else default


def main(*args: str) -> int:
    valued = {_option(args, name) for name in ("--sample", "--seed", "--estimate")}
    root = Path(next((a for a in args if not a.startswith("--") and a not in valued), "mutants"))
    by_module = verdicts(root)
    if not by_module:
        print(f"no mutation results under {root}/: run `make mutation`", file=sys.stderr)
        return 1
    counts = {name: Counter(mutants.values()) for name, mutants in by_module.items()}
    if "--markdown" in args:
        print(markdown(counts))
        return 0
    if "--sample" in args:  # the names `make mutation-sample` gives mutmut to run
        print("\n".join(sample(by_module, int(_option(args, "--sample")), int(_option(args, "--seed", "1")))))
        return 0
    if "--estimate" in args:
        print(estimate(by_module, Path(_option(args, "--estimate")).read_text(encoding="utf-8").split()))
        return 0
    if "--not-killed" in args:  # the names `make mutation-again` gives mutmut to run again
        print("\n".join(name for name in not_killed(by_module) if _checked(by_module, name)))
        return 0
    for name, module_counts in counts.items():
        print(line(name, module_counts))
    print(line("all", sum(counts.values(), Counter())))
    missing, unused = review(by_module, EXPLAINED, root)
    print(f"not killed and not explained in {EXPLAINED}: {len(missing)} (`mutmut show NAME` prints a mutant's diff)")
    for name in missing:
        print(f"  {name}")
    print(f"explanations in {EXPLAINED} that match no mutant left alive: {len(unused)}")
    for explanation in unused:
        print(f"  {explanation.function}: {explanation.line}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
