"""Data mutation: change each value of the sample rules one at a time and see whether a test notices.

Issue 14 asks that changing any one value of a chart, table or mechanic makes at least one test fail
that does not recompute the value with the code under test. This script makes each such change on a
copy of the project (a number +1, a word result replaced), then runs, in a forked child so nothing
is imported twice, `rulepress check` on the changed ruleset (its worked examples and the quote
checks hold the text's own numbers) and, when check passes, that ruleset's oracle tests in
tests/rulesets/ (hand-typed published charts and the texts' worked numbers). Every change neither
caught is printed, with the reason when it is a known one (KNOWN below).

It also changes each number and number word of every worked example's sentence (the paragraph
players read, marked checked: `3` to `4`, `two` to `three`, `half` to `a third`, `D6` to `D7`), the
example's code left as it was; `check`'s example-sentence rule must catch each one. `--sentences`
tries only those, in this process, with that rule alone (it reads text and runs nothing, so it is fast).

    python scripts/data_mutation.py [--jobs 2] [--ruleset NAME] [--limit N] [--from EARLIER_REPORT] [--sentences]
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import os
import re
import shutil
import sys
import tempfile
import time
import tokenize
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Keys whose scalars are prose, names or formula-input bounds, never a published value.
PROSE_KEYS = {
    "quote",
    "section",
    "title",
    "label",
    "labels",
    "summary",
    "description",
    "note",
    "notes",
    "effect",
    "definition",
    "needs",
    "source",
    "aliases",
    "phase",
    "body",
    "text",
    "name",
    "id",
    "ref",
    "chapter",
    "key",
    "match",
    "show",
    "impossible",
    "input",
    "formula",
    "min",
    "max",
    "default",
    "source_title",
    "hint",
    "caption",
    "heading",
    "kind",
    "requires",
    "rule",
    "term",
}
# Word results of table and lookup rows are values too: the row's outcome.
WORD_KEYS = {"result"}
NUMBER = re.compile(r"\d+")

# Changes no oracle can catch, by (file, key) or file: the reason is printed beside each.
KNOWN = {
    ("warhammer_fantasy_charts/ruleset.yaml", None): "the ruleset's metadata, no rule value",
    ("rampant_hex/formulas.yaml", "digits"): "decimal places a chart prints: presentation, not a rule value",
}
# Changes that leave the behaviour as it was (equivalent), by (file, line).
KNOWN_AT = {
    (
        "bad_moon_rising/mechanics.py",
        221,
    ): "equivalent: a wedge's rank two ahead holds the front-left neighbour's place "
    "whenever the rank ahead does, so `rank - 2` finds the same inside models",
    ("rampant_hex/mechanics.py", 112): "equivalent on this army: every limit divides a count by 2 or more, so a count "
    "left out and read as 1 rounds down to 0 as a 0 does",
}


@dataclass(frozen=True)
class Mutation:
    ruleset: str
    path: str  # relative to rules_src/
    line: int
    key: str
    start: int  # character offsets of the changed text in the file
    end: int
    old: str
    new: str

    def describe(self) -> str:
        return f"rules_src/{self.path}:{self.line} {self.key}: {self.old!r} -> {self.new!r}"


# -- finding the values ---------------------------------------------------------------------------
def _bumped(text: str) -> tuple[int, int, str] | None:
    """The first whole number in `text`, one more (relative offsets and the new digits)."""
    match = NUMBER.search(text)
    if match is None:
        return None
    return match.start(), match.end(), str(int(match.group()) + 1)


def _scalars(node, key=None):
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            yield from _scalars(v, k.value if isinstance(k, yaml.ScalarNode) else key)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _scalars(item, key)
    elif isinstance(node, yaml.ScalarNode) and key is not None:
        yield key, node


def yaml_mutations(rules_src: Path, relative: Path) -> list[Mutation]:
    text = (rules_src / relative).read_text(encoding="utf-8")
    ruleset = relative.parts[0]
    found = []
    for key, node in _scalars(yaml.compose(text)):
        if key in PROSE_KEYS or "\n" in node.value or node.end_mark.line != node.start_mark.line:
            continue
        raw = text[node.start_mark.index : node.end_mark.index]
        line = node.start_mark.line + 1
        bump = _bumped(raw)
        if bump is not None:
            start, end, digits = bump
            found.append(
                Mutation(
                    ruleset,
                    str(relative),
                    line,
                    key,
                    node.start_mark.index + start,
                    node.start_mark.index + end,
                    raw[start:end],
                    digits,
                )
            )
        elif key in WORD_KEYS and node.style is None and raw.strip():
            found.append(
                Mutation(
                    ruleset, str(relative), line, key, node.start_mark.index, node.end_mark.index, raw, "Something Else"
                )
            )
    return found


def python_mutations(rules_src: Path, relative: Path) -> list[Mutation]:
    """Each number literal in a ruleset's mechanics, one more (floats and fractions' parts too)."""
    text = (rules_src / relative).read_text(encoding="utf-8")
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type != tokenize.NUMBER:
            continue
        row, col = token.start
        offset = starts[row - 1] + col
        bump = _bumped(token.string)
        if bump is None:
            continue
        start, end, digits = bump
        found.append(
            Mutation(
                relative.parts[0],
                str(relative),
                row,
                "number",
                offset + start,
                offset + end,
                token.string[start:end],
                digits,
            )
        )
    return found


def all_mutations(rules_src: Path, only: str | None) -> list[Mutation]:
    found = []
    for ruleset in sorted(p.name for p in rules_src.iterdir() if p.is_dir()):
        if only and ruleset != only:
            continue
        base = rules_src / ruleset
        for path in sorted(base.glob("*.yaml")):
            found.extend(yaml_mutations(rules_src, path.relative_to(rules_src)))
        for path in sorted(base.glob("mechanics*.py")):
            found.extend(python_mutations(rules_src, path.relative_to(rules_src)))
    return found


# -- the sentences before worked examples ------------------------------------------------------------
_NEXT_WORD = {
    "half": "twice",
    "third": "quarter",
    "thirds": "quarters",
    "quarter": "third",
    "quarters": "thirds",
    "once": "twice",
    "twice": "thrice",
    "thrice": "once",
    "twenty": "nineteen",
}
# A sentence's number is checked against every number its example states, not bound to one of them: a number
# changed into another number the same example states (or, for twice/half, another ratio of two of them) passes.
SENTENCE_KNOWN = "the new number is also one the example states: a sentence's number is not bound to one of them"


def _next_spoken(text: str) -> str:
    """A number word one more (`two` -> `three`, `a half` -> `a third`), keeping its capital."""
    from generator.examples.languages import ENGLISH

    words = text.split()
    by_number = sorted(ENGLISH.words.items(), key=lambda item: item[1])
    names = [word for word, number in by_number if number <= 20 and word != "once"]  # zero to twenty, in order
    for index, word in enumerate(words):
        lower = word.lower()
        if lower in names and lower != "twenty":
            new = names[names.index(lower) + 1]
        elif lower in _NEXT_WORD:
            new = _NEXT_WORD[lower]
        else:
            continue
        words[index] = new.capitalize() if word[0].isupper() else new
        return " ".join(words)
    return text


def _changed_number(stated) -> str:
    bump = _bumped(stated.text)
    if bump is not None:
        start, end, digits = bump
        return stated.text[:start] + digits + stated.text[end:]
    return _next_spoken(stated.text)


_ALSO_STATED: set[tuple[str, int]] = set()  # (path, start) of sentence changes into a number the example states


def _also_stated(number_text: str, found) -> bool:
    from generator.examples.sentence import stated_numbers

    changed = stated_numbers(number_text)
    return (
        len(changed) == 1
        and changed[0].value is not None
        and (
            found.has(changed[0].value)
            or (changed[0].ratio and found.relates(changed[0].value))
            or (changed[0].percent and found.rounds_to(changed[0]))
        )
    )


def sentence_mutations(root: Path, only: str | None) -> list[Mutation]:
    """Each number of each example sentence of the rules in ``root``, one more; the code left as it was."""
    from generator.diagnostics import TextLocation
    from generator.examples.sentence import evidence, stated, stated_numbers
    from generator.source.project import load_project
    from generator.validate.prose import _value_text, markdown_texts

    project, _ = load_project(root)
    found = []
    for ruleset in project.rulesets:
        if ruleset.meta.overlay or (only and ruleset.id != only):
            continue
        for entry in (ruleset.meta, *(e for _s, e in ruleset.all_entries())):
            for text, loc in markdown_texts(entry):
                if not isinstance(loc, TextLocation) or not loc.path.startswith(f"rules_src/{ruleset.id}/"):
                    continue
                lines = (root / loc.path).read_text(encoding="utf-8").splitlines(keepends=True)
                for offset, paragraph, code in stated(text):
                    found_in_example = evidence(code, lambda id: _value_text(ruleset, id))
                    for number in stated_numbers(paragraph):
                        where = loc.at(text, offset + number.start)
                        start = sum(len(line) for line in lines[: where.line - 1]) + where.column - 1
                        if "".join(lines)[start : start + len(number.text)] != number.text:
                            continue  # a folded scalar: its text is not where the file has it
                        found.append(
                            Mutation(
                                ruleset.id,
                                loc.path.removeprefix("rules_src/"),
                                where.line,
                                "sentence",
                                start,
                                start + len(number.text),
                                number.text,
                                _changed_number(number),
                            )
                        )
                        if _also_stated(found[-1].new, found_in_example):
                            _ALSO_STATED.add((found[-1].path, start))
    return [m for m in found if m.new != m.old]


def _sentence_caught(copy: Path, mutation: Mutation) -> bool:
    """Whether the example-sentence rule reports the changed sentence (the code is unchanged, so it still passes)."""
    from generator.source.project import load_project
    from generator.validate.prose import check_example_sentences

    project, _ = load_project(copy, only=mutation.ruleset)
    return any(
        d.location.path == f"rules_src/{mutation.path}"  # the unchanged rules have none (`check` passes)
        for d in check_example_sentences(project.ruleset(mutation.ruleset))
    )


def run_sentences(only: str | None, limit: int | None) -> int:
    """Every sentence change, tried in this process with the example-sentence rule alone."""
    started = time.monotonic()
    mutations = sentence_mutations(ROOT, only)[:limit]
    copy = Path(tempfile.mkdtemp(dir=_copies()))
    shutil.copytree(ROOT / "rules_src", copy / "rules_src")
    uncaught = []
    for mutation in mutations:
        target = copy / "rules_src" / mutation.path
        original = target.read_text(encoding="utf-8")
        target.write_text(original[: mutation.start] + mutation.new + original[mutation.end :], encoding="utf-8")
        try:
            if not _sentence_caught(copy, mutation):
                uncaught.append(mutation)
        finally:
            target.write_text(original, encoding="utf-8")
    print(
        f"sentence mutation: {len(mutations) - len(uncaught)} / {len(mutations)} changes caught by check "
        f"(example-sentence) in {time.monotonic() - started:.0f} s"
    )
    for mutation in uncaught:
        reason = _known_reason(mutation)
        print(f"  NOT CAUGHT {mutation.describe()}" + (f"  [known: {reason}]" if reason else ""))
    unexplained = [m for m in uncaught if _known_reason(m) is None]
    print(f"{len(unexplained)} uncaught without a known reason")
    return 1 if unexplained else 0


# -- running the oracles ----------------------------------------------------------------------------
SHARED_ORACLES = [
    "test_values_quoted.py",
    "test_printed_by_hand.py",
]  # oracles over every ruleset: quotes, and what prints


def oracle_tests(copy: Path, ruleset: str) -> list[str]:
    """The ruleset's own tests in tests/rulesets/, then the oracles every ruleset shares."""
    folder = copy / "tests" / "rulesets"
    own = sorted(str(p) for p in folder.glob(f"test_{ruleset}*.py"))
    return own + [str(folder / name) for name in SHARED_ORACLES if (folder / name).exists()]


def _silenced():
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)


def _oracles_fail(copy: Path, ruleset: str) -> str | None:
    """In a forked child: which oracle caught the changed copy ("check", "tests"), or None."""
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            os.chdir(copy)
            _silenced()
            from generator.report import run_check

            if run_check(copy, ruleset) != 0:
                code = 1
            else:
                import pytest

                tests = oracle_tests(copy, ruleset)
                code = (
                    2
                    if tests and pytest.main([*tests, "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]) != 0
                    else 0
                )
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return {0: None, 1: "check", 2: "tests"}.get(code, f"crash ({code})")


_COPY: Path | None = None
_COPIES: list[Path] = []  # the folder of every copy, made by the first (not on import: the tests import this script)


def _copies() -> Path:
    if not _COPIES:
        _COPIES.append(Path(tempfile.mkdtemp(prefix="rulepress-data-mutation-")))
    return _COPIES[0]


def _make_copy() -> None:
    global _COPY
    _COPY = Path(tempfile.mkdtemp(dir=_copies()))
    for name in ("rules_src", "tests", "conftest.py", "pyproject.toml"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, _COPY / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, _COPY / name)


def _try(mutation: Mutation) -> tuple[Mutation, str | None]:
    target = _COPY / "rules_src" / mutation.path
    original = target.read_text(encoding="utf-8")
    assert original[mutation.start : mutation.end] == mutation.old, mutation
    target.write_text(original[: mutation.start] + mutation.new + original[mutation.end :], encoding="utf-8")
    try:
        return mutation, _oracles_fail(_COPY, mutation.ruleset)
    finally:
        target.write_text(original, encoding="utf-8")


def _baseline(rulesets: set[str]) -> list[str]:
    """Rulesets whose oracles fail before any change: a mutation there would prove nothing."""
    return [r for r in sorted(rulesets) if _oracles_fail(_COPY, r) is not None]


def _known_reason(mutation: Mutation) -> str | None:
    if mutation.key == "sentence":
        return SENTENCE_KNOWN if (mutation.path, mutation.start) in _ALSO_STATED else None
    return (
        KNOWN.get((mutation.path, mutation.key))
        or KNOWN.get((mutation.path, None))
        or KNOWN_AT.get((mutation.path, mutation.line))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ruleset")
    parser.add_argument("--limit", type=int, help="only the first N changes (a quick look)")
    parser.add_argument(
        "--from",
        dest="earlier",
        type=Path,
        help="try again only the changes an earlier report of this script lists as not caught",
    )
    parser.add_argument(
        "--sentences",
        action="store_true",
        help="only the changes to worked examples' sentences, with the example-sentence rule alone",
    )
    args = parser.parse_args(argv)
    if args.sentences:
        return run_sentences(args.ruleset, args.limit)

    import pytest  # noqa: F401

    import generator.examples.namespace  # noqa: F401
    import generator.report  # noqa: F401  imported once, before the forks

    mutations = (all_mutations(ROOT / "rules_src", args.ruleset) + sentence_mutations(ROOT, args.ruleset))[: args.limit]
    if args.earlier:
        listed = {
            line.split("NOT CAUGHT ", 1)[1].split("  [known:")[0].strip()
            for line in args.earlier.read_text(encoding="utf-8").splitlines()
            if "NOT CAUGHT " in line
        }
        mutations = [m for m in mutations if m.describe() in listed]
    started = time.monotonic()
    _make_copy()
    broken = _baseline({m.ruleset for m in mutations})
    print(
        f"{len(mutations)} changes to try; the unchanged rules pass their oracles ({time.monotonic() - started:.0f} s)",
        flush=True,
    )
    if broken:
        print(f"the unchanged rules already fail their oracles: {', '.join(broken)}; fix that first")
        return 2
    context = multiprocessing.get_context("fork")
    uncaught: list[Mutation] = []
    by: dict[str, int] = {}
    with context.Pool(args.jobs, initializer=_make_copy) as pool:
        for done, (mutation, caught) in enumerate(pool.imap_unordered(_try, mutations, chunksize=4), 1):
            if done % 25 == 0:
                print(
                    f"  {done} / {len(mutations)} tried, {len(uncaught)} not caught so far", file=sys.stderr, flush=True
                )
            if caught is None:
                uncaught.append(mutation)
            else:
                by[caught.split(" ")[0]] = by.get(caught.split(" ")[0], 0) + 1
    uncaught.sort(key=lambda m: (m.path, m.start))
    explained = [(m, _known_reason(m)) for m in uncaught]
    print(
        f"data mutation: {len(mutations) - len(uncaught)} / {len(mutations)} changes caught "
        f"({', '.join(f'{n} by {k}' for k, n in sorted(by.items()))}) in {time.monotonic() - started:.0f} s"
    )
    for mutation, reason in explained:
        print(f"  NOT CAUGHT {mutation.describe()}" + (f"  [known: {reason}]" if reason else ""))
    unexplained = [m for m, reason in explained if reason is None]
    print(f"{len(unexplained)} uncaught without a known reason")
    return 1 if unexplained else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        for copies in _COPIES:
            shutil.rmtree(copies, ignore_errors=True)
