"""What many test modules share: where things are, and a small project made in a temporary folder.

Test modules import it as ``helpers`` (pyproject.toml puts tests/ on pytest's ``pythonpath``)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import sys
from functools import cache
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
BROKEN = TESTS / "broken"
FIXTURES = TESTS / "fixtures"
ATTACKS = TESTS / "attacks"
VALID_BASE = BROKEN / "_base"  # the valid ruleset every broken case is checked next to


def make_project(root: Path, files: dict[str, str] | None = None, **rulesets: str) -> Path:
    """A project of rules files in ``root``: ``files`` maps a path under rules_src/ to its text, and each keyword
    names a ruleset whose ruleset.yaml is the text given (``make_project(tmp_path, game=TEXT)``). Returns root."""
    written = dict(files or {}) | {f"{id}/ruleset.yaml": text for id, text in rulesets.items()}
    for name, text in written.items():
        path = root / "rules_src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def load_script(name: str):
    """scripts/<name>.py imported as a module of that name (scripts/ is no package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def on_a4_alone(project: Path) -> Path:
    """``project``'s printouts laid out on A4 alone (`papers: [a4]` added to its rulepress.yaml): half the PDFs, for a
    test of what a build does, not of paper sizes (the sample build and the fixtures' builds print both)."""
    settings = project / "rulepress.yaml"
    written = settings.read_text(encoding="utf-8") if settings.is_file() else ""
    settings.write_text(written + "papers: [a4]\n", encoding="utf-8")
    return project


def checked(root: Path, text: str) -> list[str]:
    """`path:line:col: error[code]: message` lines of `check` on the valid base (as ruleset `x`) plus one file."""
    from generator.validate import check_project

    folder = root / "rules_src" / "x"
    shutil.copytree(VALID_BASE, folder)
    (folder / "case.yaml").write_text(text, encoding="utf-8")
    return [d.format().splitlines()[0] for d in check_project(root).diagnostics]


def player_files(build: Path) -> list[Path]:
    """A build's files for the players: every output folder but the game-master's and the authors' sites, without
    the files whose name marks them for the game-master (`-gm`), nor the build's own bookkeeping (dot files)."""
    found = []
    for folder in sorted(p for p in build.iterdir() if p.is_dir() and p.name not in ("site-gm", "site-author")):
        found += [p for p in sorted(folder.rglob("*")) if p.is_file() and "-gm" not in p.name]
    return [p.relative_to(build) for p in found if not any(part.startswith(".") for part in p.parts)]


def raising(error: BaseException):
    """A render worker's task that fails as a renderer would: it raises ``error`` (tests/test_pool.py)."""
    raise error


def worker_process(modules: tuple[str, ...]) -> list:
    """A render worker's task: the worker's process id, its parent's, and whether each of ``modules`` is loaded."""
    return [os.getpid(), os.getppid(), *(name in sys.modules for name in modules)]


def exiting(code: int):
    """A render worker's task that ends its worker at once, as a crash or a limit would."""
    os._exit(code)


def sweep(cases, check) -> None:
    """Run ``check(*case)`` for every case of an exhaustive comparison and fail once, naming every case that failed.

    A sweep over thousands of input combinations is one test, not one per combination: a pytest item costs far more
    than the comparison it makes (worse across xdist workers), and a failure still names each failing input."""
    failed = []
    for case in cases:
        case = case if isinstance(case, tuple) else (case,)
        try:
            check(*case)
        except AssertionError as error:
            said = " / ".join(line.strip() for line in str(error).splitlines() if line.strip())
            failed.append(f"{case}: {said[:300] or 'assertion failed'}")
    assert not failed, f"{len(failed)} case(s) failed:\n" + "\n".join(failed[:20])


def sample_check(only: str | None = None):
    """`check_project` of this repository's rules_src/ (all of it, or one ruleset with what it extends), made once
    per test process and shared by the tests that only read it: the model is immutable values. One ruleset's is the
    same result its worked examples and tests/rulesets/ use."""
    if only is None:
        return _whole_sample_check()
    from generator.examples.sybil_yaml import checked_ruleset

    return checked_ruleset(ROOT, only)


@cache
def sample_project():
    """This repository's rules_src/ as `load_project` gives it (project, diagnostics), loaded once per test process:
    the modules that parametrize by its entries read it while pytest collects, in every worker."""
    from generator.source.project import load_project

    return load_project(ROOT)


@cache
def _whole_sample_check():
    from generator.validate import check_project

    return check_project(ROOT)


def ctrl_c_as_a_terminal_leaves_it() -> None:
    """A ``preexec_fn``: the command gets Ctrl-C as a terminal leaves it, handled by default and not blocked,
    whatever this test run inherited (a shell runs a background job with Ctrl-C ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def ruleset_names(ruleset: str, *names: str) -> tuple:
    """Module fixtures for a sample ruleset's examples namespace: ``ns`` (the whole of it), then one per name in
    ``names``, each that name of it (``rules``, a mechanic...). The ruleset is checked when a test first asks, not
    while pytest imports the module to collect it (in every worker, for tests it may never run)."""
    import pytest

    @pytest.fixture(scope="module", name="ns")
    def whole() -> dict:
        from generator.examples.sybil_yaml import namespace_for_path

        return namespace_for_path(ROOT / "rules_src" / ruleset / "ruleset.yaml")

    def named(name: str):
        def fixture(ns):
            return ns[name]

        return pytest.fixture(scope="module", name=name)(fixture)

    return (whole, *(named(name) for name in names))


# What the engine keeps for the rest of a process from what the rules give, in dictionaries (functools caches are
# found by themselves). Not listed: what the machine is (the wall's probe, the generator's code hash, the assets)
# and the live walled hosts.
ENGINE_CACHES = {
    "generator.model.formula": ("_ROLLS",),
    "generator.model.calculate": ("_CALCULATORS",),
    "generator.examples.own_mechanics": ("_LOADED",),
    "generator.render.calculators": ("_MADE", "_KEYS"),
    "generator.render.sheets.jobs": ("_MADE",),
    "generator.render.site.myst": ("_GRIDS",),
}
MACHINE_CACHES = {"generator.wall", "generator.keys", "generator.render.assets", "generator.render.jinja"}


def empty_engine_caches() -> None:
    """Every cache the engine keeps from what the rules give, emptied (mutmut's runs: tests/conftest.py)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("generator.") or name in MACHINE_CACHES:
            continue
        for value in list(vars(module).values()):
            if hasattr(value, "__wrapped__") and callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
        for kept in ENGINE_CACHES.get(name, ()):
            getattr(module, kept).clear()


# A ruleset whose bolt thrower counts as a war machine, bought with extra crew and an engineer: the points spent on
# a kind of troop (`war_machines_points`), in the engine and in the army builder's page.
WAR_MACHINES = """\
ruleset: {title: Hammerfall, declares: {hero_levels: [hero]}}
profiles:
  dwarfs:
    title: Dwarfs
    columns:
      pts: {label: Pts, type: points, min: 0}
    rows:
      warriors: {name: Dwarf warriors, pts: 60}
      bolt_thrower: {name: Bolt thrower, pts: 90, counts_as: war_machines}
costs:
  crew: {name: Extra crew, points: 15, added_to_unit: true}
heroes:
  engineer: {name: Engineer, level: hero, points: 25, ability: Repairs.}
army_limits:
  machines:
    title: War machines at most a third of the points
    count: war_machines_points
    at_most: points / 3
"""


# a build's progress off a terminal (stderr, a line an output): "rulepress: [3/20] sheets of melee done (0m01s)"
PROGRESS = re.compile(r"^rulepress: (building [0-9]+ outputs?(: .+)?|\[[0-9]+/[0-9]+\] .+) \([0-9]+m[0-9]{2}s\)$")


def said_beside_progress(err: str) -> str:
    """What a build said on stderr but for its progress lines (a line an output, off a terminal)."""
    return "".join(line for line in err.splitlines(keepends=True) if not PROGRESS.match(line.rstrip("\n")))
