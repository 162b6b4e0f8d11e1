"""Suite-wide rules that keep the tests honest.

On CI (any non-empty ``CI``) nothing may skip: a skip there hides a missing browser, a
broken ruleset or a tool the run was meant to have, so it is reported as a failure.
"""

from __future__ import annotations

import fcntl
import fnmatch
import gc
import importlib
import json
import os
import sys
from pathlib import Path

import pytest
from xdist import is_xdist_worker

ON_CI = bool(os.environ.get("CI"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if ON_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped on CI, where nothing may skip: {reason}"


def pytest_sessionstart(session):
    """mutmut's stats run records, in this process, which tests reach which mutated functions (it keeps the
    setting in this process as well as in the environment). A `rulepress` command a test starts would inherit it,
    try to record too, find no mutmut settings from its own folder and fail; what it recorded would be lost
    anyway. Such a command runs the unmutated code instead."""
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        del os.environ["MUTANT_UNDER_TEST"]


def pytest_collection(session):
    """pytest-xdist has every worker import every test module, and pytest keeps each module with its asserts
    rewritten as bytecode for the next run. On a first run the workers would all rewrite the same module at the
    same moment: each imports its own share of the modules first, then the others, whose bytecode the others
    have written by then. The imports are pytest's own (its rewriting hook; prepend mode: the module's folder on
    sys.path, its name its file's), of the files pytest collects; one that fails is left for pytest to report.

    Python's collector is off while this process collects (on again in pytest_collection_finish): the imports and
    the items it would walk again and again all live as long as the run. xdist's controller collects nothing."""
    if is_xdist_worker(session) or getattr(session.config.option, "dist", "no") == "no":
        gc.disable()
    config = session.config
    if not is_xdist_worker(session) or config.getoption("importmode") != "prepend":
        return  # (a pytest this one starts inherits the worker's environment, not its role)
    worker, count = config.workerinput["workerid"], config.workerinput["workercount"]
    found = (
        _test_modules(Path(arg.split("::")[0]), config.getini("python_files"), config.getini("norecursedirs"))
        for arg in config.args
    )
    modules = sorted({module for paths in found for module in paths})
    first = len(modules) * int(worker.removeprefix("gw")) // count
    for module in modules[first:] + modules[:first]:
        if str(module.parent) != sys.path[0]:
            sys.path.insert(0, str(module.parent))
        try:
            importlib.import_module(module.stem)
        except Exception:  # noqa: BLE001, S112 - pytest imports it again and reports why it fails
            continue


def pytest_collection_finish(session):
    """What collecting made (the test modules, the plugins, their imports) lives as long as the run: Python's
    collector need not walk it again at each full collection the tests set off (a worker's third of them)."""
    gc.freeze()
    gc.enable()


def _test_modules(path: Path, names: list[str], skipped: list[str]) -> list[Path]:
    """The test files pytest collects under ``path``: named as ``python_files`` says, in no folder it skips."""
    path = path.resolve()
    if not path.is_dir():
        return [path] if any(fnmatch.fnmatch(path.name, name) for name in names) else []
    return [
        module
        for name in names
        for module in path.rglob(name)
        if not any(
            fnmatch.fnmatch(part, skip)
            for part in module.relative_to(path).parts[:-1]
            for skip in [*skipped, "__pycache__"]
        )
    ]


UNDER_MUTMUT = "mutmut" in sys.modules  # mutmut runs the tests in its own process, stats and mutants alike
if UNDER_MUTMUT:
    # mutmut names the mutant under test in the environment, which the wall clears: behind it every mutant would be
    # the code unmutated, and each test's walled host a cost that tells nothing. Under mutmut rules code runs in
    # confined children forked by the tests' own process, where the mutant is the one under test. (The wall's own
    # tests raise it themselves; neither it nor the examples' runner is mutated.)
    os.environ["RULEPRESS_WALL"] = "off"

    @pytest.fixture(autouse=True)
    def _engine_caches_start_empty():
        """mutmut forks each mutant's tests from the process that ran them all unmutated: what that process kept
        (a source text's sections, a calculator, a roll) would be given back, and the mutated code that makes it
        would never run, so its mutant would survive. Under mutmut each test starts with the engine's caches empty
        (the stats run too: it then sees every test that makes them). A normal run keeps them, as a long-lived
        process does, and pays no fixture for it."""
        from helpers import empty_engine_caches  # here: pytester copies this file where helpers is not

        empty_engine_caches()


@pytest.fixture(autouse=True)
def _walled_hosts_end_with_their_test():
    """A walled host lives as long as the process that started it (one per project folder): a test session
    checks hundreds of projects, so each test's hosts end with it; the sample rules' host is kept for the next."""
    yield
    from generator.examples.walled import close_hosts

    close_hosts(keep=[ROOT])


@pytest.fixture
def without_the_wall(monkeypatch):
    """For the modules that test what the wall does not change (the memo, the check cache, army lists, overlays'
    examples, ...): rules code runs in confined children forked from the test's own process, as
    `RULEPRESS_WALL=off` runs it, not in a walled host started for each test's project (a seventh of a second of
    CPU each: a tenth of what `make test-fast` costs). That both ways check alike is tested on the samples
    (tests/examples/test_confined.py); what the wall itself does, in tests/test_wall.py and
    tests/examples/test_confined.py, and every command, daemon and build test runs with it."""
    monkeypatch.setenv("RULEPRESS_WALL", "off")


# Markers follow from the fixtures a test uses, so `make test-fast` (-m "not browser and not build and not fuzz")
# drops exactly the tests that need Chromium, a real render (Sphinx site or WeasyPrint PDF) or long fuzzing.
BROWSER_FIXTURES = {"browser", "page", "phone"}
# A fixture that renders for real asks for `renders` (the shared builds below do). A test that renders in its own body
# says so itself (`@pytest.mark.build`, or `pytestmark` for a whole module), as the long runs say `fuzz`.


def pytest_collection_modifyitems(config, items):
    """A test is a browser test exactly when it uses Chromium (the `browser` or `page` fixtures):
    deselecting `-m "not browser"` then drops no test that needs no browser. `build` and `fuzz` likewise."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if BROWSER_FIXTURES & fixtures:
            item.add_marker(pytest.mark.browser)
        if "renders" in fixtures:
            item.add_marker(pytest.mark.build)


# -- The sample build, one for the whole run ------------------------------------------------------
# `rulepress build` of this project's rules_src/, made once per run and shared by every test that only reads it.
# With pytest-xdist each worker has its own session: the first to get the lock builds into the run's shared
# temporary folder, the others wait for it and read the same files. Tests never write into it.
ROOT = Path(__file__).resolve().parents[1]


def _run_folder(tmp_path_factory) -> Path:
    """The temporary folder of this run: shared by all xdist workers, this process's own without xdist."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _shared_folder(tmp_path_factory) -> Path:
    """Where the shared builds are made: the run's temporary folder, or ``RULEPRESS_TESTS_SHARED`` (a folder kept
    from run to run) for someone changing tests only, who would otherwise wait for the same builds on every run.
    Nothing there is made again when the engine or rules_src/ change: never use it when changing either (CI
    ignores it)."""
    kept = os.environ.get("RULEPRESS_TESTS_SHARED")
    return Path(kept) if kept and not ON_CI else _run_folder(tmp_path_factory)


def made_once(tmp_path_factory, name: str, make) -> Path:
    """The run's folder ``shared-<name>``, filled by ``make(folder)`` in the first worker that asks for it; the
    others wait for it, then read the same files."""
    folder = _shared_folder(tmp_path_factory) / f"shared-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / "made").exists():
            make(folder)
            (folder / "made").touch()
    return folder


def shared_build(tmp_path_factory, name: str, *options: str) -> Path:
    """The output folder of `rulepress -C ROOT build *options`, built by the first worker that asks."""
    from generator.cli import main

    def build(folder: Path) -> None:
        jobs = str(os.cpu_count() or 1)  # one per core, as a terminal builds: the workers that need it wait for it
        assert main(["-C", str(ROOT), "build", "--jobs", jobs, *options, "--out", str(folder / "build")]) == 0

    return made_once(tmp_path_factory, name, build) / "build"


@pytest.fixture(scope="session")
def once_a_run(tmp_path_factory):
    """``once_a_run(name, make)``: `made_once` for a module's own costly folder (a build of a project it makes), made
    by the first xdist worker that asks, not once in each worker the module's tests run in."""
    return lambda name, make: made_once(tmp_path_factory, name, make)


@pytest.fixture(scope="session")
def renders() -> None:
    """Asked for by every fixture that renders a Sphinx site or WeasyPrint PDFs: the tests using it are `build`."""


@pytest.fixture(scope="session")
def sample_build(tmp_path_factory, renders) -> Path:
    """Every output (site, site-gm, sheets, handouts) of rules_src/ for both audiences: `rulepress build`."""
    return shared_build(tmp_path_factory, "sample")


HOMEBREW = ROOT / "tests" / "fixtures" / "homebrew"


@pytest.fixture(scope="session")
def homebrew_build(tmp_path_factory, renders) -> Path:
    """tests/fixtures/homebrew copied into an empty folder (no templates of its own) and built as a terminal would
    run `rulepress build`: two workers, hash seed 1, no SOURCE_DATE_EPOCH. Returns the project folder; nothing
    outside it may change."""
    import hashlib
    import shutil
    import subprocess
    import sys

    def digest(folder: Path) -> dict[str, str]:
        return {
            p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts
        }

    def build(folder: Path) -> None:
        project = folder / "project"
        shutil.rmtree(project, ignore_errors=True)  # what a failed first try left
        shutil.copytree(HOMEBREW, project)
        outside = (ROOT / "templates", HOMEBREW, ROOT / "generator")
        before = [digest(path) for path in outside]
        env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
        run = subprocess.run(
            [sys.executable, "-m", "generator", "-C", str(project), "build", "--jobs", "2"],
            capture_output=True,
            text=True,
            env=env | {"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "1", "NO_COLOR": "1"},
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert [digest(path) for path in outside] == before, "the build changed a file outside its project"
        assert not (project / "templates").exists()

    return made_once(tmp_path_factory, "homebrew", build) / "project"


@pytest.fixture(scope="session")
def frontier_build(tmp_path_factory, renders) -> Path:
    """tests/fixtures/frontier (a game nobody wrote the engine for, with its own mechanics and a house overlay)
    copied into an empty folder and built with the wall as it defaults. Returns its build folder."""
    import shutil
    import subprocess
    import sys

    def build(folder: Path) -> None:
        project = folder / "project"
        shutil.rmtree(project, ignore_errors=True)  # what a failed first try left
        shutil.copytree(
            ROOT / "tests" / "fixtures" / "frontier",
            project,
            ignore=shutil.ignore_patterns(".rulepress-cache", "build"),
        )
        env = {key: value for key, value in os.environ.items() if key != "RULEPRESS_WALL"}
        run = subprocess.run(
            [sys.executable, "-m", "generator", "-C", str(project), "build", "--jobs", "1"],
            capture_output=True,
            text=True,
            env=env | {"PYTHONPATH": str(ROOT)},
            timeout=600,
        )
        assert run.returncode == 0, run.stdout + run.stderr

    return made_once(tmp_path_factory, "frontier", build) / "project" / "build"


@pytest.fixture(scope="session")
def player_build(tmp_path_factory, sample_build) -> Path:
    """Every output of rules_src/ for the players: the player files of the sample build, linked into a folder of
    their own. They are the files `rulepress build --audience player` writes, byte for byte
    (tests/pipeline/test_pipeline.py proves it), without a second build of every ruleset."""
    from helpers import player_files  # here: test_golden_review runs this conftest alone, without helpers.py

    def link(folder: Path) -> None:
        for relative in player_files(sample_build):
            (folder / "build" / relative).parent.mkdir(parents=True, exist_ok=True)
            os.link(sample_build / relative, folder / "build" / relative)

    return made_once(tmp_path_factory, "player", link) / "build"


@pytest.fixture(scope="session")
def crawled_player_site(tmp_path_factory, player_build, browser) -> dict[str, dict]:
    """Every page of the player site as Chromium shows it at 390 px and at 1280 px: what each of site_helpers'
    page scripts answers on it (``site_helpers.crawl``), crawled once per run by the first worker that asks."""
    from site_helpers import crawl

    def write(folder: Path) -> None:
        (folder / "pages.json").write_text(json.dumps(crawl(player_build / "site", browser)), encoding="utf-8")

    found = json.loads((made_once(tmp_path_factory, "player-pages", write) / "pages.json").read_text(encoding="utf-8"))
    assert len(found) > 40 and "rampant_hex/troops.html" in found  # the whole site, not an empty folder
    return found


@pytest.fixture(scope="session")
def read_pdfs(tmp_path_factory):
    """``read_pdfs(paths)``: path -> what pypdf reads from it (tests/pdf_text.py), each file's bytes read once per
    run, whichever worker and module asks first."""
    from pdf_text import read_pdfs  # here: test_golden_review runs this conftest alone, without tests/ on its path

    cache = _run_folder(tmp_path_factory) / "pdf-text"
    return lambda paths: read_pdfs(list(paths), cache)


# -- Chromium, one for the whole run --------------------------------------------------------------
@pytest.fixture(scope="session")
def browser():
    from site_helpers import chromium

    with chromium() as launched:
        yield launched


def _tab(browser, viewport):

    context = browser.new_context(viewport=viewport)
    yield context.new_page()
    context.close()


@pytest.fixture
def page(browser):
    """A desktop-sized tab."""
    from site_helpers import DESKTOP

    yield from _tab(browser, DESKTOP)


@pytest.fixture
def phone(browser):
    """A tab the size of a phone (390 px wide)."""
    from site_helpers import PHONE

    yield from _tab(browser, PHONE)
