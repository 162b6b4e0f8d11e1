"""Rulepress benchmark: every measurement side by side with its floor, in one run.

Run from the project folder (after `make build` has set up .venv):

    .venv/bin/python benchmarks/bench.py            # about 10 minutes on 2 cores
    .venv/bin/python benchmarks/bench.py --quick    # fewer repeats, no 10x build

It works on a copy of rules_src/ and templates/ in a temporary folder, so the
project is never touched, and prints a table with each target met or not.
Wall-clock times are measured here, never in tests.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed(function, repeat: int = 1) -> float:
    """The median wall time of ``repeat`` calls, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def copy_project(target: Path, copies: int = 1) -> Path:
    """rules_src/ (each ruleset ``copies`` times, under new ids) and templates/ in ``target``."""
    for folder in sorted((ROOT / "rules_src").iterdir()):
        if not folder.is_dir():
            continue
        for index in range(copies):
            name = folder.name if index == 0 else f"{folder.name}_{index}"
            shutil.copytree(folder, target / "rules_src" / name)
    shutil.copytree(ROOT / "templates", target / "templates")
    return target


def rulepress(project: Path, *args: str, statuses=(0,), env: dict | None = None) -> float:
    command = [sys.executable, "-m", "generator", "-C", str(project), *args]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, **(env or {})})
    elapsed = time.perf_counter() - start
    if done.returncode not in statuses:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return elapsed


# -- check and its floor ----------------------------------------------------------------------------
def check_in_process(project: Path) -> None:
    from generator.examples.run import run_examples
    from generator.validate import check_project

    result = check_project(project)
    assert result.ok, result.diagnostics[:3]
    for ruleset in result.project.rulesets:
        assert not run_examples(ruleset, result.project.root).failures


def yaml_floor(project: Path) -> None:
    import yaml

    for path in sorted((project / "rules_src").rglob("*.yaml")):
        yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)


FLOOR_PROCESS = (
    "import sys, yaml, pathlib\n"
    "for path in sorted((pathlib.Path(sys.argv[1]) / 'rules_src').rglob('*.yaml')):\n"
    "    yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)\n"
)


def check_processes(project: Path, repeat: int, *args: str) -> tuple[float, float]:
    """Medians of a whole `rulepress check` process and of its floor, a process that imports yaml and
    CSafeLoads the same files, run side by side (alternating) so both see the same load."""
    floors, checks = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", FLOOR_PROCESS, str(project)], check=True)
        floors.append(time.perf_counter() - start)
        checks.append(rulepress(project, "check", *args))
    return statistics.median(floors), statistics.median(checks)


# one file changed, as an author edits: a word of a rule's prose, or a value that formulas and examples read.
# Each edit writes text no check has seen (``{}`` takes a new word or number each time): an edit undone would
# find what the check before the last one stored, which is not what an author's next edit finds.
PROSE_EDIT = (
    "rules_src/rampant_hex/rules.yaml",
    "plenty of miniatures",
    "plenty of {} miniatures",
    (
        "painted",
        "based",
        "metal",
        "plastic",
        "old",
        "new",
        "tall",
        "small",
        "bright",
        "dull",
        "fine",
        "rough",
        "cheap",
        "rare",
        "spare",
        "loaned",
        "borrowed",
        "varnished",
        "primed",
        "boxed",
        "loose",
    ),
)
VALUE_EDIT = (
    "rules_src/rampant_hex/values.yaml",
    "value: 2\n    label: An Expert Ranger adds this to the roll for the table edge",
    "value: {}\n    label: An Expert Ranger adds this to the roll for the table edge",
    tuple(range(3, 24)),
)


def check_after_edit(project: Path, edit: tuple, repeat: int) -> tuple[float, float]:
    """Medians of the floor process and of `rulepress check` right after one file was edited, side by side
    (alternating). Each check sees exactly one file changed since the check before it, into text never
    checked before. A changed value makes the examples that state the old one fail (exit status 1), as
    they should: that check is timed too."""
    source, old, new, fillers = edit
    path = project / source
    original = path.read_text(encoding="utf-8")
    assert old in original, f"{old!r} is not in {path}"
    assert repeat <= len(fillers), f"{len(fillers)} edits of {source} prepared, not {repeat}"
    rulepress(project, "check")
    floors, checks = [], []
    try:
        for filler in fillers[:repeat]:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", FLOOR_PROCESS, str(project)], check=True)
            floors.append(time.perf_counter() - start)
            path.write_text(original.replace(old, new.format(filler), 1), encoding="utf-8")
            checks.append(rulepress(project, "check", statuses=(0, 1)))
    finally:
        path.write_text(original, encoding="utf-8")
    return statistics.median(floors), statistics.median(checks)


def refuse(path: Path) -> None:
    from generator.diagnostics import Diagnostics
    from generator.source.yamlnodes import parse_text

    diagnostics = Diagnostics()
    assert parse_text(path.read_text(encoding="utf-8"), path.name, diagnostics) is None and diagnostics


def load_only(project: Path) -> None:
    from generator.validate import check_project

    assert check_project(project).ok


def check_process_against_floor(project: Path, repeat: int) -> tuple[float, float]:
    """Medians of `rulepress check` as a process and of a bare process that only loads the same YAML files
    with CSafeLoader, run in turn (so both see the same machine load)."""
    floor = [
        sys.executable,
        "-c",
        "import pathlib, sys, yaml\n"
        "for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.yaml')): yaml.load(p.read_bytes(), "
        "Loader=yaml.CSafeLoader)",
        str(project / "rules_src"),
    ]
    checks, floors = [], []
    for _ in range(repeat):
        checks.append(rulepress(project, "check"))
        start = time.perf_counter()
        subprocess.run(floor, check=True)
        floors.append(time.perf_counter() - start)
    return statistics.median(checks), statistics.median(floors)


def edits_in_turn(path: Path, old: str, new: str, measure, times: int = 5) -> float:
    """The median of ``measure()`` after edits made and undone in turn: each sees exactly one changed file."""
    original = path.read_text(encoding="utf-8")
    assert old in original, f"{old!r} is not in {path}"
    edited = original.replace(old, new, 1)
    try:
        return statistics.median(
            _measure_after(path, edited if index % 2 == 0 else original, measure) for index in range(times)
        )
    finally:
        path.write_text(original, encoding="utf-8")


def _measure_after(path: Path, text: str, measure) -> float:
    path.write_text(text, encoding="utf-8")
    return measure()


# -- floors of the build ---------------------------------------------------------------------------------
def sphinx_floor(project: Path, work: Path) -> float:
    """Bare sphinx-build of the very pages the build generated, with the same configuration."""
    from generator.pipeline.plan import site_cache
    from generator.render.site.pages import sphinx_config

    source = work / "sphinx-src"
    shutil.rmtree(source, ignore_errors=True)
    shutil.copytree(site_cache(project, project / "build", "site") / "src", source)
    config = sphinx_config(project, "player")
    (source / "conf.py").write_text(
        "\n".join(f"{key} = {value!r}" for key, value in config.items()) + "\n", encoding="utf-8"
    )
    out = work / "sphinx-out"
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", "-W", "-E", str(source), str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"bare sphinx-build failed:\n{done.stderr[-2000:]}")
    return elapsed


def pdf_jobs(project_root: Path, out: Path):
    from generator.render.handouts.jobs import handout_jobs
    from generator.render.sheets.jobs import sheet_jobs
    from generator.validate import check_project

    project = check_project(project_root).project
    jobs = sheet_jobs(project, out / "sheets")
    for audience in ("player", "gm"):
        jobs += handout_jobs(project, out / "handouts", audience)
    return jobs


def weasyprint_floor(jobs, out: Path) -> float:
    """Bare WeasyPrint of the same HTML, one after the other, no sandbox, no pool."""
    import weasyprint

    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for index, job in enumerate(jobs):
        stylesheets = [weasyprint.CSS(filename=str(s)) for s in job.stylesheets]
        weasyprint.HTML(string=job.html, base_url=job.base_dir.as_uri() + "/").write_pdf(
            out / f"{index}.pdf", stylesheets=stylesheets
        )
    return time.perf_counter() - start


def pool_against_sequential(project_root: Path, work: Path, only: str = "") -> tuple[float, float, int]:
    """All PDFs (or those under ``only``, e.g. "sheets") rendered one by one, then in the pool."""
    from generator.render.pdf import render_all

    def jobs(folder: Path):
        return [j for j in pdf_jobs(project_root, folder) if not only or j.target.parent.name == only]

    sequential_jobs = jobs(work / "seq")
    sequential = timed(lambda: render_all(sequential_jobs, project_root, workers=1))
    pooled_jobs = jobs(work / "pool")
    pooled = timed(lambda: render_all(pooled_jobs, project_root, workers=os.cpu_count() or 2))
    return sequential, pooled, len(pooled_jobs)


# -- serve: save to page on disk -----------------------------------------------------------------------
EDITED_RULE = (
    "rules_src/rampant_hex/rules.yaml",
    "An opponent, one gridded playing surface",
    "site/rampant_hex/setup.html",
)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_save_to_page(project: Path, saves: int) -> list[float]:
    """Start `rulepress serve` on ``project`` (a process of its own, as a user runs it), then ``saves``
    times: save a new word into a rule and time until the page file on disk holds it."""
    source, phrase, page = EDITED_RULE
    rule, built = project / source, project / "build" / page
    original = rule.read_text(encoding="utf-8")
    command = [sys.executable, "-m", "generator", "-C", str(project), "serve", "--port", str(free_port())]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    times = []
    try:
        printed = []
        while not printed or not printed[-1].startswith("serving"):  # "serving ..." once the first build is in
            printed.append(server.stdout.readline())
            if not printed[-1]:
                raise SystemExit("serve did not start:\n" + "".join(printed))
        for number in range(saves):
            word = f"Benchword{number}"
            start = time.perf_counter()
            rule.write_text(original.replace(phrase, f"{word} {phrase}", 1), encoding="utf-8")
            while not _holds(built, word):
                if time.perf_counter() - start > 120:
                    raise SystemExit(f"serve did not write {word} into {built} within 120 s")
                time.sleep(0.005)
            times.append(time.perf_counter() - start)
            time.sleep(0.3)  # let serve settle before the next save
    finally:
        server.terminate()
        server.wait(timeout=30)
        rule.write_text(original, encoding="utf-8")
    return times


def _holds(page: Path, word: str) -> bool:
    try:
        return word in page.read_text(encoding="utf-8")
    except OSError:  # between the two renames of a swap
        return False


# -- report --------------------------------------------------------------------------------------------------
class Table:
    def __init__(self):
        self.rows: list[tuple[str, str, str, str]] = []

    def add(self, what: str, seconds: float, against: str = "", verdict: str = "") -> None:
        shown = f"{seconds * 1000:7.1f} ms" if seconds < 1 else f"{seconds:8.2f} s"
        self.note(what, shown, against, verdict)

    def note(self, what: str, value: str, against: str = "", verdict: str = "") -> None:
        self.rows.append((what, value, against, verdict))
        print(
            " | ".join(part for part in self.rows[-1] if part), file=sys.stderr, flush=True
        )  # a long run shows each row as it comes

    def print(self) -> None:
        widths = [
            max(len(r[i]) for r in self.rows + [("measurement", "time", "compared with", "target")]) for i in range(4)
        ]
        line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"  # noqa: E731
        print(line(("measurement", "time", "compared with", "target")))
        print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        for row in self.rows:
            print(line(row))


def verdict(ok: bool, text: str) -> str:
    return ("met: " if ok else "NOT met: ") + text


def wall_against_fence(project: Path, repeat: int) -> tuple[float, float]:
    """Medians of `rulepress check --all` behind the wall (bubblewrap) and with the audit-hook fence alone
    (``RULEPRESS_WALL=off``, what check did before the wall), side by side (alternating)."""
    walled, fenced = [], []
    for _ in range(repeat):
        walled.append(rulepress(project, "check", "--all", env={"RULEPRESS_WALL": "required"}))
        fenced.append(rulepress(project, "check", "--all", env={"RULEPRESS_WALL": "off"}))
    return statistics.median(walled), statistics.median(fenced)


def wall_rows(table: Table, project: Path, repeat: int) -> None:
    walled, fenced = wall_against_fence(project, repeat)
    table.add("rulepress check --all, the fence alone (RULEPRESS_WALL=off: check before the wall)", fenced)
    table.add(
        "rulepress check --all behind the wall (bubblewrap)",
        walled,
        f"{walled / fenced:.2f}x the fence alone",
        verdict(walled <= 1.5 * fenced, "at most 1.5x"),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats; skip the 10x build")
    parser.add_argument("--full", action="store_true", help="also build the 100x corpus (hours on 2 cores)")
    parser.add_argument("--wall", action="store_true", help="only the wall's rows: check behind it and without it")
    args = parser.parse_args(argv)
    if args.wall:
        return wall_only(7 if not args.quick else 3)
    repeat = 3 if args.quick else 7
    table = Table()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rulepress-bench-") as temp:
        work = Path(temp)
        project = copy_project(work / "project")

        floor = timed(lambda: yaml_floor(project), repeat * 3)
        loading = timed(lambda: load_only(project), repeat * 3)
        check = timed(lambda: check_in_process(project), repeat)
        table.add("bare YAML parse (CSafeLoader), floor of check", floor)
        table.add(
            "check: load + validate (no examples)",
            loading,
            f"{loading / floor:.1f}x floor",
            verdict(loading <= 2 * floor, "at most 2x"),
        )
        table.add(
            "check: load + validate + every example",
            check,
            f"{check / floor:.1f}x floor",
            verdict(check <= 2 * floor, "at most 2x"),
        )
        process_floor, forced = check_processes(project, repeat, "--all")  # --all: nothing from the check cache
        _floor, cached = check_processes(project, repeat)  # the project as the last check saw it
        table.add("bare YAML parse as a process (python + import yaml), floor of rulepress check", process_floor)
        table.add(
            "rulepress check --all (process: every ruleset checked, every example run)",
            forced,
            f"{forced / process_floor:.1f}x floor",
        )
        table.add(
            "rulepress check, nothing changed (process, from the check cache)",
            cached,
            f"{cached / process_floor:.2f}x floor",
            verdict(cached <= 2 * process_floor, "at most 2x"),
        )
        wall_rows(table, project, repeat)
        for warm in (False, True):  # a check in a fresh process, then one a running check daemon answers
            if warm:
                rulepress(project, "daemon", "start")
            try:
                for what, edit in (("a one-word prose edit", PROSE_EDIT), ("one value changed", VALUE_EDIT)):
                    edit_floor, edited = check_after_edit(project, edit, repeat * 2 + 1)
                    table.add(
                        f"rulepress check after {what} (one file changed: {edit[0].removeprefix('rules_src/')})"
                        + (", the check daemon running" if warm else ", no daemon"),
                        edited,
                        f"{edited / edit_floor:.2f}x floor {edit_floor * 1000:.0f} ms",
                        verdict(edited <= 2 * edit_floor, "at most 2x") if warm else "",
                    )
            finally:
                if warm:
                    rulepress(project, "daemon", "stop")
        for name in ("alias_bomb", "python_tag"):
            refused = timed(lambda: refuse(ROOT / "tests" / "broken" / f"{name}.yaml"), repeat * 10)
            table.add(f"refuse tests/broken/{name}.yaml", refused, "", verdict(refused < 1, "under a second"))

        clean = rulepress(project, "build")
        sphinx = sphinx_floor(project, work)
        jobs = pdf_jobs(project, work / "jobs")
        weasy = weasyprint_floor(jobs, work / "weasy")
        floor_build = sphinx + weasy
        table.add("bare sphinx-build of the same pages (floor)", sphinx)
        table.add(f"bare WeasyPrint of the same HTML, {len(jobs)} PDFs (floor)", weasy)
        table.add(
            "clean build (rulepress build)",
            clean,
            f"{clean / floor_build:.2f}x floor {floor_build:.1f} s",
            verdict(clean <= 1.3 * floor_build, "at most 1.3x floor"),
        )
        unchanged = statistics.median(rulepress(project, "build") for _ in range(3))
        table.add(
            "no-change rebuild",
            unchanged,
            f"{100 * unchanged / clean:.1f}% of clean",
            verdict(unchanged <= 0.05 * clean, "at most 5%"),
        )
        build = lambda: rulepress(project, "build")  # noqa: E731
        prose_source, phrase, _page = EDITED_RULE
        prose = edits_in_turn(project / prose_source, phrase, "One " + phrase, build)
        table.add(
            "one-word prose edit rebuilt (rampant_hex/rules.yaml)",
            prose,
            f"{100 * prose / clean:.1f}% of clean",
            verdict(prose <= 0.10 * clean, "at most 10%"),
        )
        tables = project / "rules_src" / "rampant_hex" / "tables.yaml"
        one_file = edits_in_turn(tables, "The player must complete", "The player must always complete", build)
        table.add(
            "one tables file changed (rampant_hex/tables.yaml)",
            one_file,
            f"{100 * one_file / clean:.1f}% of clean",
            verdict(one_file <= 0.25 * clean, "at most 25%, aiming at 10%"),
        )
        saves = serve_save_to_page(project, 5 if args.quick else 11)
        table.add(
            "serve: save to the page on disk (median)",
            statistics.median(saves),
            f"{len(saves)} saves, {min(saves):.2f}-{max(saves):.2f} s",
            verdict(statistics.median(saves) <= 1, "at most 1 s"),
        )

        rules = project / "rules_src" / "rampant_hex" / "rules.yaml"
        prose = rules.read_text(encoding="utf-8")
        worded = prose.replace("plenty of miniatures", "plenty of painted miniatures", 1)
        assert worded != prose

        def change_one_word(text: str) -> float:
            rules.write_text(text, encoding="utf-8")
            return rulepress(project, "build")

        one_word = statistics.median(change_one_word(text) for text in (worded, prose, worded, prose, worded))
        rules.write_text(prose, encoding="utf-8")
        rulepress(project, "build")  # back to the clean build's text for what follows
        table.add(
            "a one-word prose edit in one rule, rebuilt (rampant_hex/rules.yaml)",
            one_word,
            f"{100 * one_word / clean:.1f}% of clean",
            verdict(one_word <= 0.10 * clean, "at most 10%"),
        )

        for only in ("sheets", "handouts", ""):
            sequential, pooled, count = pool_against_sequential(project, work / f"pool-{only or 'all'}", only)
            what = f"{count} {only or 'PDFs'}"
            table.add(f"{what} sequential (render_all, 1 worker)", sequential)
            table.add(
                f"{what} in the pool ({os.cpu_count()} workers)",
                pooled,
                f"{sequential / pooled:.2f}x faster",
                verdict(sequential / pooled >= 1.8, "at least 1.8x") if not only else "",
            )

        per_size = {}
        if args.quick:  # the 100x check alone runs for over half an hour on 2 cores
            table.note("check, synthetic corpus 100x (400 rulesets)", "skipped", "run without --quick")
        for copies in (1, 10) if args.quick else (1, 10, 100):
            big = copy_project(work / f"corpus-{copies}x", copies)
            seconds = timed(lambda: check_in_process(big), 1 if copies == 100 else 3)
            floor_big = timed(lambda: yaml_floor(big), 3)
            per_size[copies] = seconds
            growth = "" if copies == 1 else f"{seconds / per_size[1]:.1f}x the 1x time for {copies}x data"
            table.add(
                f"check, synthetic corpus {copies}x ({4 * copies} rulesets)",
                seconds,
                f"{seconds / floor_big:.1f}x its floor; {growth}".strip("; "),
                verdict(seconds / per_size[1] <= 1.3 * copies, "linear") if copies > 1 else "",
            )
            build_it = copies == 1 or (copies == 10 and not args.quick) or args.full
            if build_it:
                table.add(f"clean build, synthetic corpus {copies}x", rulepress(big, "build"))
            else:
                table.note(
                    f"clean build, synthetic corpus {copies}x",
                    "skipped",
                    "estimate: scales with PDFs and pages, as 1x x size",
                    "run with --full",
                )
            shutil.rmtree(big, ignore_errors=True)
    table.print()
    print(
        f"machine load (1, 5, 15 min averages) on {os.cpu_count()} cores: "
        f"at the start {', '.join(f'{x:.1f}' for x in load_before)}; at the end "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    return 0


def wall_only(repeat: int) -> int:
    table = Table()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rulepress-bench-") as temp:
        project = copy_project(Path(temp) / "project")
        wall_rows(table, project, repeat)
    table.print()
    print(
        f"machine load (1, 5, 15 min averages) on {os.cpu_count()} cores: "
        f"at the start {', '.join(f'{x:.1f}' for x in load_before)}; at the end "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
