"""Rules nobody wrote by hand: Hypothesis feeds generated YAML and prose to `rulepress check`.

Whatever the data, `check` must end with exit status 0 (clean) or 1 (located errors, at least one
of them printed), print no traceback, and finish in time. Each example runs in a forked child of
the test process (everything is imported by then, so a fork costs milliseconds) that is killed
when it overruns and may allocate 2 GiB at most, so a hang inside C code (a huge power, a regex)
or a runaway allocation fails the example instead of hanging the suite or the machine.

The runs are derandomized: CI sees the same examples on every run. A failure prints the smallest
project Hypothesis found; its files can be pasted into a `rules_src/` folder to reproduce it.

Generated YAML and prose are checked behind the wall, as a terminal checks them: worked examples run in a walled
host (a second process that loads the same files again). Changed copies of a whole `rulepress new` project, and
values beyond the caps, are checked with the wall off: their examples run in confined children forked by the check
(`RULEPRESS_WALL=off`, as the tests of what the wall does not change run them). What those tests try is the loader
and the checks, which run alike either way (tests/examples/test_confined.py); a host started for each of their 300
examples was about three quarters of their CPU (the changed copies: 36 core-seconds with a host each, 10 without).
"""

from __future__ import annotations

import atexit
import copy
import dataclasses
import functools
import os
import re
import resource
import select
import shutil
import signal
import sys
import tempfile
import textwrap
import time
import typing
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from helpers import ROOT
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.diagnostics import Diagnostics
from generator.model.ruleset import SECTIONS
from generator.scaffold import scaffold
from generator.source.build import schema_fields
from generator.source.yamlnodes import Mapping, Scalar, load_file

pytestmark = pytest.mark.fuzz  # many generated or hostile projects, each a run of its own

TEMPLATE = ROOT / "tests" / "attacks" / "_template" / "project"
RULESET = "game"
HARD_TIMEOUT = 10.0  # seconds one `check` may run before its child is killed and the example fails
MEMORY_LIMIT = 2 << 30  # bytes it may allocate: past that a MemoryError fails the example, not the machine
ERROR_LINE = re.compile(r"^[^\n]+:[0-9]+:[0-9]+: error\[[a-z-]+\]", re.M)

FUZZ = settings(
    max_examples=150,
    derandomize=True,  # the same examples on every run and every machine
    database=None,  # writes no .hypothesis/ folder
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    print_blob=False,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],  # no slow "explain" phase
)


# --- `check` in a child process with a hard time limit ----------------------------------------------


@dataclasses.dataclass
class Outcome:
    status: int | None  # main()'s return value; None when it raised, crashed or was killed
    output: str  # stdout and stderr, interleaved as printed
    seconds: float
    timed_out: bool = False


def run_check(project: Path, walled: bool = True) -> Outcome:
    """`generator.cli.main(["-C", project, "check"])` in a forked child, killed after HARD_TIMEOUT; ``walled``: its
    worked examples run behind the wall (else RULEPRESS_WALL=off)."""
    capture = project.parent / "output.txt"
    read, write = os.pipe()
    started = time.monotonic()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: ends with os._exit, never returns into pytest
        code = 255
        try:
            os.close(read)
            size = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            resource.setrlimit(resource.RLIMIT_AS, (size + MEMORY_LIMIT, size + MEMORY_LIMIT))
            out = os.open(capture, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(out, 1)
            os.dup2(out, 2)
            import traceback

            sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
            sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
            if not walled:
                os.environ["RULEPRESS_WALL"] = "off"
            try:
                result = main(["-C", str(project), "check"])
                said = repr(result)
                code = 0
            except BaseException:  # exactly what the property is about: print it, never hide it
                traceback.print_exc()
                said = "raised"
                code = 3
            sys.stdout.flush()
            sys.stderr.flush()
            os.write(write, said.encode())
        finally:
            os._exit(code)
    os.close(write)
    said = b""
    timed_out = False
    try:
        while True:
            left = HARD_TIMEOUT - (time.monotonic() - started)
            if left <= 0 or not select.select([read], [], [], left)[0]:
                timed_out = True
                os.kill(pid, signal.SIGKILL)
                break
            chunk = os.read(read, 64)
            if not chunk:
                break
            said += chunk
        _, wait_status = os.waitpid(pid, 0)
    finally:
        os.close(read)
    seconds = time.monotonic() - started
    output = capture.read_text(encoding="utf-8", errors="backslashreplace") if capture.exists() else ""
    status = None
    if timed_out:
        pass
    elif os.WIFEXITED(wait_status) and os.WEXITSTATUS(wait_status) == 0:
        try:
            status = int(said.decode())
        except ValueError:
            output += f"\n[main() returned {said!r}, not an exit status]"
    else:
        output += f"\n[check's process ended with wait status {wait_status}]"
    return Outcome(status, output, seconds, timed_out)


def assert_checked_cleanly(outcome: Outcome) -> None:
    shown = (
        outcome.output if len(outcome.output) < 6000 else outcome.output[:3000] + "\n[...]\n" + outcome.output[-3000:]
    )
    assert not outcome.timed_out, f"check still running after {HARD_TIMEOUT:.0f} s; it printed:\n{shown}"
    assert "Traceback" not in outcome.output, f"check printed a traceback:\n{shown}"
    assert outcome.status in (0, 1), f"check ended with {outcome.status!r} (0 or 1 expected); it printed:\n{shown}"
    errors = ERROR_LINE.findall(outcome.output)
    if outcome.status == 1:
        assert errors, f"check failed without a located error:\n{shown}"
    else:
        assert not errors, f"check passed but printed errors:\n{shown}"


# --- the project every example starts from --------------------------------------------------------

MINIMAL = textwrap.dedent("""\
    ruleset:
      title: Fuzzed game
      source: text.txt
      summary: @SUMMARY@

    chapters:
      play:
        title: Play
        intro: @INTRO@

    rules:
      moving:
        title: Moving
        chapter: play
        source: {section: MOVING, quote: "Models move 6 inches."}
        body: @BODY@
        gm_note: @GM_NOTE@
      secret_plan:
        title: The secret plan
        chapter: play
        audience: gm
        source: {section: MOVING}
        body: GM-ONLY-SECRET the villain hides in the mill.
    """)
PROSE_SLOTS = ("@BODY@", "@GM_NOTE@", "@INTRO@", "@SUMMARY@")
PLAIN = {"@BODY@": "Models move 6 inches.", "@GM_NOTE@": "''", "@INTRO@": "''", "@SUMMARY@": "''"}


def minimal_ruleset(prose: dict[str, str] | None = None, quoted: bool = False) -> str:
    """ruleset.yaml with each slot's prose as a literal block (`|`), or one double-quoted line."""
    text = MINIMAL
    for slot in PROSE_SLOTS:
        written = (prose or {}).get(slot)
        if written is None:
            text = text.replace(slot, PLAIN[slot])
        elif quoted:
            text = text.replace(
                slot,
                yaml.safe_dump(written, default_style='"', allow_unicode=True, width=10**9)
                .removesuffix("\n...\n")
                .strip(),
            )
        else:
            column = 8 if slot in ("@BODY@", "@GM_NOTE@") else 6
            text = text.replace(
                slot, "|\n" + textwrap.indent(written, " " * column, lambda line: True).rstrip(" ") + "\n"
            )
    return text


def make_project(base: Path, files: dict[str, str | bytes], template: Path = TEMPLATE) -> Path:
    project = base / "project"
    shutil.copytree(template, project)
    folder = project / "rules_src" / RULESET
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", errors="surrogatepass")
    return project


@pytest.fixture(scope="module", autouse=True)
def warmed_up():
    """One check in this process first, so each forked child finds everything imported and cached."""
    with tempfile.TemporaryDirectory() as base:
        project = make_project(
            Path(base), {"ruleset.yaml": minimal_ruleset({"@BODY@": "Models move.\n\n```python\n>>> 1 + 1\n2\n```\n"})}
        )
        assert main(["-C", str(project), "check"]) == 0
    assert main(["-C", str(seed()[0]), "check"]) == 0  # the mutated seeds start valid


def check_files(files: dict[str, str | bytes], template: Path = TEMPLATE, walled: bool = True) -> None:
    for name, content in files.items():
        shown = content if len(content) < 4000 else content[:2000] + "\n[...]\n" + content[-1500:]
        note(f"--- rules_src/{RULESET}/{name} ---\n{shown if isinstance(shown, str) else shown!r}")
    with tempfile.TemporaryDirectory(prefix="rulepress-fuzz-") as base:
        outcome = run_check(make_project(Path(base), files, template), walled)
    event(f"exit status {outcome.status}")
    event(f"check took {min(int(outcome.seconds * 10), 10) / 10:.1f}+ s")
    for code in sorted(set(re.findall(r"(?:error|warning)\[([a-z-]+)\]", outcome.output))):
        event(f"says {code}")  # --hypothesis-show-statistics: which checks the generated data reaches
    assert_checked_cleanly(outcome)


# --- generated YAML: entries of every section, fields of its schema, values valid and not ------------


def _nested_classes(tp, found: set) -> None:
    for arg in typing.get_args(tp) or ():
        _nested_classes(arg, found)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp) and tp not in found:
        found.add(tp)
        for _key, _field, hint in schema_fields(tp):
            _nested_classes(hint, found)


SECTION_FIELDS = {name: [key for key, _f, _t in schema_fields(cls)] for name, cls in SECTIONS.items()}
_nested: set = set()
for _cls in SECTIONS.values():
    for _key, _field, _hint in schema_fields(_cls):
        _nested_classes(_hint, _nested)
ALL_FIELDS = sorted(
    {key for cls in _nested for key, _f, _t in schema_fields(cls)}
    | {key for keys in SECTION_FIELDS.values() for key in keys}
)


class Plain(str):
    """Text written as a plain YAML scalar of digits: a number too long for yaml.safe_dump to write."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(Plain, lambda dumper, data: dumper.represent_scalar("tag:yaml.org,2002:int", str(data)))
_Dumper.add_representer(
    str,
    lambda dumper, data: (
        dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
        if "\n" in data.strip("\n") and data == data.strip(" ")
        else dumper.represent_str(data)
    ),
)

# Values past the caps on number size, nesting, dice and expression length (issue 11: "Limits with
# clear errors"). They get a property of their own, so that a missing cap does not hide other bugs.
HUGE_NUMBERS = [Plain("9" * 4301), Plain("-" + "9" * 5000), Plain("1" + "0" * 4400), 10**4000, 10**1000]
HUGE_DICE = [
    "D1000000000",
    "100D1000",
    "1000000D6",
    "1000D1000",
    "D6 + 10**9",
    "D" + "9" * 5000,
    "9" * 5000 + "D6",
    "D6 + " * 5000 + "1",
    "D100000 + D100000",
]
HUGE_ROLLS = ["1-1000000000", "-1000000000-1000000000", "1-" + "9" * 5000, "9" * 4301 + "+", Plain("9" * 4301)]
HUGE_EXPRESSIONS = [
    "1 + " * 5000 + "1",
    "(" * 500 + "1" + ")" * 500,
    "9 ** 9 ** 9",
    "10 ** 10 ** 9",
    "units ** units",
    "-" * 5000 + "1",
    "not " * 3000 + "a",
]
BEYOND_CAPS = HUGE_NUMBERS + HUGE_DICE + HUGE_ROLLS + HUGE_EXPRESSIONS
CAPS_BY_FIELD = {  # which values past a cap go where: a field of that kind reaches the code the cap protects
    **dict.fromkeys(["dice"], HUGE_DICE),
    **dict.fromkeys(["roll", "when", "range", "clamp", "over"], HUGE_ROLLS + HUGE_NUMBERS),
    **dict.fromkeys(["expr", "count", "at_most", "at_least", "let", "difference"], HUGE_EXPRESSIONS + HUGE_NUMBERS),
    **dict.fromkeys(
        [
            "points",
            "value",
            "min",
            "max",
            "agreed_points",
            "agreed_models",
            "total",
            "models",
            "casting_value",
            "digits",
            "default",
            "foot",
            "riders",
        ],
        HUGE_NUMBERS + HUGE_DICE[:3],
    ),
}


NUMBERS = st.one_of(
    st.integers(-20, 120),
    st.integers(-(2**64), 2**64),
    st.sampled_from([-1, 0, 7, 2**31, 2**63, -(2**63), 10**9, 10**18, 10**100, -(10**100)]),
)
TEXTS = st.sampled_from(
    [
        "",
        " ",
        "not given",
        "Not Given",
        "not  given",
        "n/a",
        "—",
        "?",
        "D6",
        "d6",
        "2D6",
        "D3",
        "D6 + S - T - W",
        "3D6-2",
        "D6+1",
        "D66",
        "D0",
        "0D6",
        "D-1",
        "-D6",
        "D",
        "DD6",
        "D6+",
        "D6 * 2",
        "2D6 + 2D6 + 2D6",
        "D6 + " * 40 + "1",
        "S",
        "20D20",
        "D100",
        "1-6",
        "6+",
        "1-",
        "6-1",
        "0-0",
        "-3",
        "-3--1",
        "1–2",
        "1 - 2",
        "1-36",
        "-99-1",
        "+",
        "-",
        "1-2-3",
        "0",
        "-0",
        "007",
        "1½",
        "1 1/2",
        "3/2",
        "1.5",
        "1/0",
        "0/0",
        "-3/2",
        "1e9",
        "1_000",
        "0x10",
        "nan",
        "inf",
        "∞",
        "4+",
        '6"',
        "3 hexes",
        "12 inches",
        "2:1",
        "1.10",
        "½",
        "¼",
        "1 1/0",
        "play",
        "moving",
        "secret_plan",
        "game",
        "gm",
        "player",
        "rules",
        "base",
        "int",
        "dice",
        "target",
        "text",
        "points",
        "models",
        "inches",
        "number",
        "bool",
        "chance",
        "roll",
        "distance",
        "true",
        "yes",
        "no",
        "on",
        "null",
        "~",
        "strength - toughness",
        "units // 2",
        "units / 0",
        "units % 0",
        "2 ** 3",
        "(1 + 2) * 3",
        "a if b else c",
        "__import__('os')",
        "lambda: 0",
        "[x for x in units]",
        "units.__class__",
        "open('/etc/passwd')",
        "{term}`moving`",
        "{entry}`nonsense`",
        "``{rule}`secret_plan```",
        "`",
        "{",
        "}",
        "a\u2028b",
        "a\u2029b",
        "\x00",
        "nul\x00byte",
        "\x1b[2J\x1b[HALL CHECKS PASSED",
        "\r",
        "a\rb",
        "\x7f",
        "\x85",
        "\u202eevil",
        "e\u0301",
        "\ufeff",
        "\ufffe",
        "\U0001f3b2",
        "Ｄ６",
        "\u00a0",
        "\u200b",
        "İ",
        "ß",
        "x" * 5000,
        "word " * 2000,
        "\n" * 300,
        "../../../../etc/passwd",
        "/etc/passwd",
        "text.txt",
        "sources/text.txt",
    ]
)
IDS = st.one_of(
    st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True),
    st.sampled_from(
        [
            "moving",
            "play",
            "secret_plan",
            "a",
            "Bad Id",
            "1x",
            "_x",
            "x-y",
            "x" * 300,
            "ü",
            "",
            "ruleset",
            "rules",
            "not given",
        ]
    ),
    st.integers(-3, 12),
)
KEYS = st.one_of(st.sampled_from(ALL_FIELDS), IDS)


def dump(document, style: int) -> str:
    return yaml.dump(
        document,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=bool(style & 1),
        default_flow_style=True if style & 2 else False,
        width=80 if style & 4 else 10**6,
    )


RAW_FRAGMENTS = [
    "rules:\n",
    "  moving:\n",
    "    title: x\n",
    "tables:\n  t:\n    dice: D6\n    rows:\n",
    "      1-6: {result: x}\n",
    "---\n",
    "...\n",
    "&a [*a]\n",
    "x: &a 1\ny: *a\n",
    "<<: *a\n",
    "!!python/object:os.system 'ls'\n",
    "!include /etc/passwd\n",
    "? [a, b]\n: c\n",
    "x: 1\nx: 2\n",
    "\tx: 1\n",
    "x: |\n  a\n b\n",
    "x: >-\n",
    "%YAML 1.2\n",
    "%TAG ! tag:x,2000:\n",
    "{",
    "}",
    "[",
    "]",
    "'",
    '"',
    "#",
    "- ",
    ": ",
    "|",
    ">",
    "\\",
    "\x00",
    "\ufeff",
    "\u2028",
    "\r\n",
    "\r",
    "chapters: {play: {title: Play}}\n",
    "values:\n  v: {value: 2D6}\n",
]
RAW_BEYOND_CAPS = [
    "rules: " + "[" * 600 + "]" * 600 + "\n",
    "x: " + "{a: " * 300 + "1" + "}" * 300 + "\n",
    "x: " + "9" * 5000 + "\n",
    "tables:\n  t:\n    dice: D6\n    rows:\n      " + "9" * 5000 + ": x\n",
]


@st.composite
def deep_nesting(draw):
    depth = draw(st.sampled_from([99, 100, 101, 200, 480, 500, 999, 1000, 3000]))
    kind = draw(st.sampled_from(["flow-list", "flow-map", "block-list", "block-map"]))
    section = draw(st.sampled_from(list(SECTIONS)))
    if kind == "flow-list":
        return f"{section}:\n  x:\n    title: " + "[" * depth + "]" * depth + "\n"
    if kind == "flow-map":
        return f"{section}:\n  x: " + "{a: " * depth + "1" + "}" * depth + "\n"
    depth = min(depth, 1000)  # block nesting indents: 1000 levels are a 1 MB file already
    if kind == "block-list":
        return f"{section}:\n  x:\n" + "".join(" " * (i + 4) + "-\n" for i in range(depth)).rstrip("\n") + " 1\n"
    return f"{section}:\n" + "".join(" " * (i + 2) + f"k{i}:\n" for i in range(depth)).rstrip("\n") + " 1\n"


SCALARS = st.one_of(
    NUMBERS,
    TEXTS,
    st.booleans(),
    st.none(),
    st.text(max_size=30),
    st.text(
        st.characters(codec="utf-8", categories=["Cc", "Cf", "Zl", "Zp", "Zs", "Mn", "So", "Nd", "No"]), max_size=12
    ),
    st.builds(
        lambda c, s, k: f"{c}D{s}{k:+d}",
        st.sampled_from(["", "0", "1", "2", "3", "10"]),
        st.sampled_from(["6", "0", "1", "3", "12", "20", "100"]),
        st.integers(-10, 10),
    ),
    st.builds(lambda low, high: f"{low}-{high}", st.integers(-5, 30), st.integers(-5, 30)),
)
VALUES_ANY = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)


# Entries shaped by the schema: each field gets a value of its type most of the time (so the data gets
# past the loader into the checks of tables, dice, formulas, charts, armies...) and anything otherwise.
REF_IDS = ["play", "moving", "secret_plan", "a", "b", "t", "f", "m", "x"]
WORDS = st.sampled_from(
    [
        "Play",
        "Moving",
        "Knocked down",
        "strength",
        "a",
        "b",
        "x",
        "not given",
        "",
        "Fear",
        "SHOOTS 12",
        "SHOOTS",
        "Fear 2",
        "weapon",
        "low",
        "high",
        "monster",
        "text.txt",
        "MOVING",
        "Models move 6 inches.",
        "{term}`moving`",
        "{rule}`secret_plan`",
        "{value}`a`",
        "{table}`t`",
    ]
)
TYPED_LEAVES = {
    "Points": st.sampled_from(
        [0, 1, 2, 3, 10, -1, 1000000, "1½", "1 1/2", "3/2", "1.5", "0.1", "1/3", "½", "2 ½", "-1"]
    ),
    "DiceExpr": st.one_of(
        st.sampled_from(
            [
                "D6",
                "2D6",
                "D3",
                "D6 + S - T - W",
                "D6 + a",
                "D6 - 1",
                "D66",
                "D20",
                "3D6",
                "D6 + D6",
                "D2",
                "D1",
                "2D6 - 7",
                "D6 + strength",
                "S",
                "0",
                "7",
                "D10 * 2",
            ]
        ),
        st.builds(lambda c, s, k: f"{c}D{s}{k:+d}", st.integers(0, 4), st.integers(0, 12), st.integers(-8, 8)),
    ),
    "Quantity": st.sampled_from(
        [
            2,
            0,
            -1,
            "1½",
            "3/2",
            '6"',
            "3 hexes",
            "4+",
            "2D6",
            "D6",
            "7+",
            "1+",
            "0+",
            '½"',
            "12 inches",
            "1.25",
            "2 1/2",
            "-3",
            "6-",
            "x",
        ]
    ),
    "Expression": st.sampled_from(
        [
            "a",
            "a + 1",
            "strength - toughness",
            "a / b",
            "a // 2",
            "a * b - 3",
            "1 / 0",
            "a if b else 2",
            "min(a, b)",
            "max(a, 3)",
            "a > b",
            "a and not b",
            "a == 1",
            "-a",
            "(a + 1) * 2",
            "units // 2",
            "low_heroes + high_heroes",
            "units / 3",
            "roll(t)",
            "f(a)",
            "a.b",
            "a[0]",
            "abs(a)",
            "round(a / 3)",
            "",
            "a +",
            "2 ** 10",
            "a % 3",
            "a ** 2",
        ]
    ),
    "RollRange": st.one_of(
        st.sampled_from(["1-6", "6+", "1-", "3", "1-2", "3-4", "5-6", "2-12", "7+", "2-", 1, 6, 0, -1]),
        st.builds(lambda low, high: f"{low}-{high}", st.integers(-2, 13), st.integers(-2, 13)),
    ),
}


def _typed(tp, key: str, depth: int = 0):
    """A value for a field of type ``tp`` as an author would write it (give or take a mutation)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        return _typed(args[0], key, depth)
    if origin in (typing.Union, __import__("types").UnionType):
        return st.one_of(*[_typed(a, key, depth) for a in args])
    if tp is type(None):
        return st.none()
    if origin is typing.Literal:
        return st.sampled_from(args)
    name = getattr(tp, "__name__", "")
    if name == "NotGiven":
        return st.sampled_from(["not given", "Not given", {"not_given": "the source omits it"}])
    if name in TYPED_LEAVES:
        return TYPED_LEAVES[name]
    if origin is tuple:
        item = args[0]
        if (
            isinstance(item, type)
            and dataclasses.is_dataclass(item)
            and "id" in {f.name for f in dataclasses.fields(item)}
        ):
            return st.dictionaries(st.sampled_from(REF_IDS), _typed_entry(item, depth + 1), max_size=3)
        return st.lists(_typed(item, key, depth + 1), max_size=4)
    if tp is bool:
        return st.booleans()
    if tp is int:
        return st.one_of(st.integers(-3, 20), NUMBERS)
    if tp is str or name == "Markdown":
        if key in (
            "chapter",
            "phase",
            "table",
            "matrix",
            "formula",
            "troop",
            "ref",
            "input",
            "extends",
            "note_formula",
            "chance",
            "key",
        ):
            return st.sampled_from(REF_IDS + ["", "nonsense"])
        return WORDS
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _typed_entry(tp, depth + 1)
    return VALUES_ANY


@st.composite
def _matrix(draw, depth: int):
    columns = draw(
        st.dictionaries(
            st.sampled_from(["m", "a", "s", "pts", "x", "name"]),
            _typed_entry(_column_class(), depth + 1),
            min_size=1,
            max_size=3,
        )
    )
    rows = {}
    for row_id in draw(st.lists(st.sampled_from(REF_IDS), max_size=3, unique=True)):
        row = draw(_typed_entry(_row_class(), depth + 1))
        for column in columns:
            if draw(st.integers(0, 9)):
                row[column] = draw(st.one_of(st.integers(-2, 12), st.sampled_from(["4+", "not given", "1½", "x", 3])))
        rows[row_id] = row
    matrix = draw(_typed_entry(SECTIONS["profiles"], depth + 1, skip=("columns", "rows")))
    matrix.update(columns=columns, rows=rows)
    return matrix


def _column_class():
    return next(t for k, _f, t in schema_fields(SECTIONS["profiles"]) if k == "columns").__args__[0]


def _row_class():
    return next(t for k, _f, t in schema_fields(SECTIONS["profiles"]) if k == "rows").__args__[0]


def _typed_entry(cls, depth: int = 0, skip: tuple = ()):
    if cls is SECTIONS["profiles"] and not skip:
        return _matrix(depth)
    fields = [(key, tp) for key, _f, tp in schema_fields(cls) if key not in skip]

    @st.composite
    def build(draw):
        entry = {}
        for key, tp in fields:
            roll = draw(st.integers(0, 19))
            if roll == 0:
                continue  # left out
            entry[key] = draw(VALUES_ANY if roll == 1 or depth > 4 else _typed(tp, key, depth))
        if draw(st.integers(0, 14)) == 0:
            entry[draw(st.sampled_from(ALL_FIELDS))] = draw(VALUES_ANY)
        return entry

    return build()


@st.composite
def shaped_documents(draw, beyond_caps: bool):
    document = {}
    for name in draw(st.lists(st.sampled_from(list(SECTIONS)), min_size=1, max_size=3, unique=True)):
        ids = draw(st.lists(st.sampled_from(REF_IDS), min_size=1, max_size=2, unique=True))
        document[name] = {id: draw(_typed_entry(SECTIONS[name])) for id in ids}
    if beyond_caps:  # one value somewhere replaced by one past a cap
        _replace_one(draw, document, st.sampled_from(BEYOND_CAPS))
    return document


def _replace_one(draw, node, value):
    while True:
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(list(node)))
            if not isinstance(node[key], (dict, list)) or not node[key] or draw(st.integers(0, 3)) == 0:
                node[key] = draw(value)
                return
            node = node[key]
        elif isinstance(node, list) and node:
            index = draw(st.integers(0, len(node) - 1))
            if not isinstance(node[index], (dict, list)) or not node[index] or draw(st.integers(0, 3)) == 0:
                node[index] = draw(value)
                return
            node = node[index]
        else:
            return


# --- mutated copies of a valid ruleset: `rulepress new`'s tutorial, one to three values changed ------


@functools.cache
def seed() -> tuple[Path, dict[str, object]]:
    """A project made by `rulepress new game` (every kind of entry), and its rules files as plain data."""
    folder = Path(tempfile.mkdtemp(prefix="rulepress-fuzz-seed-"))
    atexit.register(shutil.rmtree, folder, True)
    scaffold(folder, RULESET)
    files = {}
    for path in sorted((folder / "rules_src" / RULESET).glob("*.yaml")):
        tree = load_file(path, folder, Diagnostics())
        files[path.name] = _plain(tree)
        path.write_text(dump(files[path.name], 1), encoding="utf-8")  # as the examples will write it
    return folder, files


def _plain(node):
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, Mapping):
        return {key.text: _plain(value) for key, value in node.items}
    return [_plain(item) for item in node.items]


MUTATIONS = ("replace", "replace", "typed", "retarget", "retarget", "delete", "rename", "copy", "empty", "audience")


def seed_ids() -> list[str]:
    """Every id the seed defines (and one it does not): what a reference may wrongly name."""
    return sorted(
        {
            id
            for document in seed()[1].values()
            for section in document.values()
            if isinstance(section, dict)
            for id in section
        }
        | {"", "nonsense"}
    )


@st.composite
def mutated_seeds(draw, beyond_caps: bool):
    """The seed's rules files with one to three changes (one past a cap, with beyond_caps)."""
    _folder, files = seed()
    files = copy.deepcopy(files)
    changes = 1 if beyond_caps else draw(st.integers(1, 3))
    mutated = set()
    for _ in range(changes):
        name = draw(st.sampled_from(sorted(set(files) - {"ruleset.yaml"} if beyond_caps else files)))
        kind = "caps" if beyond_caps else draw(st.sampled_from(MUTATIONS))
        _mutate(draw, files[name], kind)
        mutated.add(name)
    style = draw(st.sampled_from([1, 1, 1, 3, 0]))
    written = {
        name: dump(document, style) if name in mutated else seed_dump(name, style) for name, document in files.items()
    }
    return {name: text for name, text in written.items() if text != seed_dump(name, 1)}  # the changed files


@functools.cache
def seed_dump(name: str, style: int) -> str:
    """A seed file as ``dump`` writes it: a file no change reached is the seed's, written once per style rather than
    on every example (dumping the seed's files twice an example was most of the time this process spent on one)."""
    return dump(seed()[1][name], style)


def _leaves(node, field: str = ""):
    """(container, key, field name) of every scalar below ``node``."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        name = key if isinstance(node, dict) else field
        if isinstance(child, (dict, list)) and child:
            yield from _leaves(child, name)
        else:
            yield node, key, name


def _mutate(draw, node, kind: str) -> None:
    """Walk down from ``node`` to a random place and change it."""
    if kind == "caps":  # a scalar of a field that a cap protects, most of the time
        leaves = list(_leaves(node))
        capped = [leaf for leaf in leaves if leaf[2] in CAPS_BY_FIELD]
        parent, key, field = draw(st.sampled_from(capped if capped and draw(st.integers(0, 4)) else leaves))
        parent[key] = draw(st.sampled_from(CAPS_BY_FIELD.get(field, BEYOND_CAPS)))
        return
    if kind == "audience":  # an entry (or a profile row) for the game-master only, or a hidden task
        entries = [
            (section, id)
            for section in node.values()
            if isinstance(section, dict)
            for id in section
            if isinstance(section[id], dict)
        ]
        if entries:
            section, id = draw(st.sampled_from(entries))
            section[id][draw(st.sampled_from(["audience", "audience", "hidden"]))] = draw(
                st.sampled_from(["gm", True, "GM"])
            )
        return
    if kind == "retarget":  # a reference to another entry, of the wrong kind or of none
        parent, key, _field = draw(st.sampled_from(list(_leaves(node)) or [({}, "x", "")]))
        parent[key] = draw(st.sampled_from(seed_ids()))
        return
    path = []
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        path.append((node, key))
        child = node[key]
        if not isinstance(child, (dict, list)) or not child or draw(st.integers(0, 3)) == 0:
            break
        node = child
    if not path:
        return
    parent, key = path[-1]
    if kind == "replace":
        parent[key] = draw(VALUES_ANY)
    elif kind == "typed":
        parent[key] = draw(st.one_of(*TYPED_LEAVES.values(), NUMBERS, TEXTS))
    elif kind == "empty":
        parent[key] = draw(st.sampled_from([None, "", [], {}, "not given", 0, -1]))
    elif kind == "delete":
        del parent[key]
    elif kind == "rename" and isinstance(parent, dict):
        new = draw(st.one_of(st.sampled_from(ALL_FIELDS), IDS))
        parent[new] = parent.pop(key)
    elif kind == "copy" and isinstance(parent, dict):
        new = draw(st.one_of(st.sampled_from(ALL_FIELDS), IDS))
        parent[new] = copy.deepcopy(parent[key])
    elif kind == "copy":
        parent.append(copy.deepcopy(parent[key]))


def yaml_files(beyond_caps: bool):
    """Rules files: documents of the rules schema written by PyYAML, raw YAML-ish text, any text, any bytes."""
    scalars = st.one_of(SCALARS, *([st.sampled_from(BEYOND_CAPS)] * 3 if beyond_caps else []))
    values = (
        VALUES_ANY
        if not beyond_caps
        else st.recursive(
            scalars,
            lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
            max_leaves=12,
        )
    )

    @st.composite
    def entries(draw, section: str):
        fields = SECTION_FIELDS.get(section) or ALL_FIELDS
        keys = draw(
            st.lists(
                st.one_of(st.sampled_from(fields), st.sampled_from(fields), KEYS),
                max_size=min(len(fields), 8),
                unique=True,
            )
        )
        return {key: draw(st.one_of(st.dictionaries(IDS, values, max_size=3), values)) for key in keys}

    @st.composite
    def documents(draw):
        names = draw(
            st.lists(
                st.one_of(
                    st.sampled_from(list(SECTIONS)), st.sampled_from(["ruleset", "rule", "Rules", "", "sources"])
                ),
                min_size=1,
                max_size=3,
                unique=True,
            )
        )
        document = {}
        for name in names:
            shape = draw(st.integers(0, 9))
            if shape == 0:
                document[name] = draw(values)
            else:
                ids = draw(st.lists(IDS, max_size=3, unique=True))
                document[name] = {
                    id: draw(st.one_of(entries(name), values) if shape == 1 else entries(name)) for id in ids
                }
        return document

    fragments = st.sampled_from(RAW_FRAGMENTS + (RAW_BEYOND_CAPS if beyond_caps else []))
    raw = st.lists(st.one_of(fragments, st.text(max_size=20)), min_size=1, max_size=12).map("".join)
    dumped = st.builds(dump, documents(), st.integers(0, 7))
    shaped = st.builds(dump, shaped_documents(beyond_caps), st.integers(0, 7))
    if beyond_caps:
        return st.one_of(shaped, raw, deep_nesting())
    return st.one_of(
        shaped, shaped, shaped, shaped, dumped, dumped, raw, st.text(max_size=200), st.binary(max_size=100)
    )


@FUZZ
@given(extra=yaml_files(beyond_caps=False), name=st.sampled_from(["fuzz.yaml", "more/fuzz.yml"]))
def test_generated_yaml_is_checked_without_a_traceback(extra, name):
    check_files({"ruleset.yaml": minimal_ruleset(), name: extra})


@FUZZ
@given(files=mutated_seeds(beyond_caps=False))
def test_changed_rules_are_checked_without_a_traceback(files):
    check_files(files, seed()[0], walled=False)


@settings(FUZZ)
@given(
    case=st.one_of(
        mutated_seeds(beyond_caps=True).map(lambda files: ("seed", files)),
        mutated_seeds(beyond_caps=True).map(lambda files: ("seed", files)),
        yaml_files(beyond_caps=True).map(lambda extra: ("template", {"fuzz.yaml": extra})),
    )
)
def test_values_beyond_the_caps_are_checked_without_a_traceback(case):
    template, files = case
    check_files(files, seed()[0] if template == "seed" else TEMPLATE, walled=False)


# --- generated prose: MyST roles and directives, known and unknown, in a rule body ------------------

ROLES = [
    "term",
    "rule",
    "table",
    "spell",
    "profile",
    "value",
    "formula",
    "chart",
    "lookup",
    "entry",
    "ref",
    "doc",
    "download",
    "numref",
    "math",
    "raw",
    "eval-rst",
    "abbr",
    "sub-ref",
    "kbd",
    "code",
    "py:func",
    "unknown-role",
    "",
    " term",
    "TERM",
    "term:x",
    "{term}",
]
DIRECTIVES = [
    "note",
    "warning",
    "tip",
    "admonition",
    "seealso",
    "include",
    "literalinclude",
    "eval-rst",
    "raw",
    "image",
    "figure",
    "toctree",
    "math",
    "code-block",
    "code",
    "csv-table",
    "list-table",
    "table",
    "glossary",
    "only",
    "dropdown",
    "contents",
    "meta",
    "unknown-directive",
    "",
    "note:",
    "NOTE",
]
TARGETS = [
    "moving",
    "secret_plan",
    "play",
    "nonsense",
    "Moving",
    "moving <moving>",
    "x <secret_plan>",
    "/etc/passwd",
    "../../secret.txt",
    "text.txt",
    "https://example.invalid/x",
    "javascript:alert(1)",
    "a`b",
    "",
    " ",
    "{}",
    "<>",
    "x" * 300,
    "\u202e",
    "\x00",
    "not given",
    "1 + 1",
    "a\nb",
]
OPTIONS = [
    ":glob:",
    ":file: /etc/passwd",
    ":url: http://127.0.0.1:9/",
    ":class: x",
    ":name: moving",
    ":maxdepth: 1",
    ":encoding: latin-1",
    ":start-line: 1",
    ":header-rows: 1",
    ":caption: x",
    ":target: javascript:alert(1)",
    ":unknown-option: x",
    ":",
    ":http-equiv=refresh: 0; url=javascript:x",
]
EXAMPLES = [
    ">>> 1 + 1\n2",
    ">>> 1 / 0",
    ">>> undefined_name",
    ">>> print('x')\nx",
    ">>> x = 3\n>>> x\n3",
    ">>> 1 + 1\n3",
    ">>>",
    ">>> ",
    ">>> (",
    ">>> '''",
    "... 1",
    ">>> import os",
    ">>> 'é' * 3\n'ééé'",
]


@st.composite
def roles(draw):
    role, target = draw(st.sampled_from(ROLES)), draw(st.sampled_from(TARGETS))
    form = draw(st.integers(0, 4))
    if form == 0:
        return f"{{{role}}}`{target}`"
    if form == 1:
        return f"{{{role}}}``{target}``"
    if form == 2:
        return f"{{{role}}}`{target}"  # never closed
    if form == 3:
        return f"[{target}]({target})" if draw(st.booleans()) else f"![{target}]({target})"
    return f"{{{role}}}`{target}`{{{role}}}`{target}`"


@st.composite
def directives(draw, depth: int = 0):
    name = draw(st.sampled_from(DIRECTIVES))
    fence = draw(st.sampled_from(["```", "````", "~~~", ":::"]))
    argument = draw(st.sampled_from(TARGETS + [""] * 4))
    options = draw(st.lists(st.sampled_from(OPTIONS), max_size=2))
    body = draw(
        st.lists(
            st.one_of(
                st.sampled_from(TARGETS),
                roles(),
                st.text(max_size=15),
                directives(depth + 1) if depth < 2 else st.just(""),
            ),
            max_size=3,
        )
    )
    closed = draw(st.booleans()) or draw(st.booleans())
    lines = [f"{fence}{{{name}}} {argument}".rstrip(), *options, "", *body]
    if closed:
        lines.append(fence)
    return "\n".join(lines)


@st.composite
def code_fences(draw):
    fence = draw(st.sampled_from(["```", "~~~", "````"]))
    language = draw(st.sampled_from(["python", "{code-block} python", "pycon", "", "yaml", "python {", "  python"]))
    body = draw(st.lists(st.sampled_from(EXAMPLES), min_size=1, max_size=3))
    closed = draw(st.booleans()) or draw(st.booleans())
    return "\n".join([f"{fence}{language}", *body] + ([fence] if closed else []))


TOKENS = st.sampled_from(
    [
        "{",
        "}",
        "{{",
        "}}",
        "`",
        "``",
        "```",
        "~~~",
        ":::",
        "$$",
        "$x$",
        "(label)=",
        "(moving)=",
        "[[moving]]",
        "<script>",
        "</div>",
        "<!--",
        "{{ jinja }}",
        "{% raw %}",
        "\\",
        "|",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "---",
        "#" * 7 + " x",
        "# Heading",
        "* list",
        "1. item",
        "> quote",
        "[^1]",
        "[^1]: note",
        "+++",
        "%",
        "..",
        ".. include:: /etc/passwd",
        ".. raw:: html",
        "<http://127.0.0.1>",
        "&amp;",
        "&#0;",
        "\u2028",
        "\x1b[2J",
        "GM-ONLY-SECRET",
        "@BODY@",
    ]
)
PROSE = st.lists(
    st.one_of(st.text(max_size=20), TOKENS, TOKENS, roles(), roles(), directives(), code_fences()),
    min_size=1,
    max_size=10,
).flatmap(
    lambda parts: st.lists(st.sampled_from([" ", "\n", "\n\n", ""]), min_size=len(parts), max_size=len(parts)).map(
        lambda glue: "".join(p + g for p, g in zip(parts, glue))
    )
)


@st.composite
def prose_rulesets(draw):
    slot = draw(st.sampled_from(PROSE_SLOTS[:1] * 4 + PROSE_SLOTS[1:]))
    return minimal_ruleset({slot: draw(PROSE)}, quoted=draw(st.integers(0, 3)) == 0)


@FUZZ
@given(ruleset=prose_rulesets())
def test_generated_prose_is_checked_without_a_traceback(ruleset):
    check_files({"ruleset.yaml": ruleset})


def test_the_runner_sees_a_traceback_a_hang_and_a_wrong_status(monkeypatch, tmp_path):
    """The property would pass vacuously if the child hid what it is about: show it does not."""
    project = make_project(tmp_path, {"ruleset.yaml": minimal_ruleset()})
    assert run_check(project).status == 0

    def raising(argv):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(sys.modules[__name__], "main", raising)
    outcome = run_check(project)
    assert outcome.status is None and "Traceback" in outcome.output and "ZeroDivisionError" in outcome.output
    with pytest.raises(AssertionError, match="traceback"):
        assert_checked_cleanly(outcome)

    monkeypatch.setattr(sys.modules[__name__], "main", lambda argv: 2)
    with pytest.raises(AssertionError, match="0 or 1 expected"):
        assert_checked_cleanly(run_check(project))

    monkeypatch.setattr(sys.modules[__name__], "HARD_TIMEOUT", 0.5)
    monkeypatch.setattr(sys.modules[__name__], "main", lambda argv: time.sleep(30))
    started = time.monotonic()
    outcome = run_check(project)
    assert outcome.timed_out and time.monotonic() - started < 5
    with pytest.raises(AssertionError, match="still running"):
        assert_checked_cleanly(outcome)

    monkeypatch.setattr(sys.modules[__name__], "HARD_TIMEOUT", 10.0)
    monkeypatch.setattr(sys.modules[__name__], "main", lambda argv: len(bytearray(8 << 30)))
    outcome = run_check(project)
    assert outcome.status is None and "MemoryError" in outcome.output
