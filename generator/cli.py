"""The `rulepress` command. ``main(argv) -> int`` so tests run it in-process."""

from __future__ import annotations

import argparse
import os
import select
import shlex
import sys
from pathlib import Path

from . import __version__, report
from .diagnostics import Code, did_you_mean, printable
from .exit import INTERNAL, INTERRUPTED, exit_with

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
EXIT_INTERNAL, EXIT_INTERRUPTED = INTERNAL, INTERRUPTED
LATEST_EPOCH = 253402300799  # 9999-12-31T23:59:59Z, the last second a date can show


class _FromEnvironment(str):
    """A default argparse reads as it reads the option (it converts a text default), said to come from ``name``."""

    def __new__(cls, name: str):
        made = super().__new__(cls, os.environ[name])
        made.name = name
        return made


def _positive(text: str) -> int:
    where = f"{text.name}: " if isinstance(text, _FromEnvironment) else ""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{where}`{text}` is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{where}{value} worker processes cannot run anything; give 1 or more")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port {value} does not exist; give 1-65535 (0: any free port)")
    return value


def _source_date_epoch() -> str | None:
    """Read SOURCE_DATE_EPOCH once for this process and its workers: empty means unset (it is removed,
    so Sphinx and the PDF workers never see it); anything but whole seconds is a message, not a traceback."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        return None
    if not epoch.strip():
        del os.environ["SOURCE_DATE_EPOCH"]
        return None
    text = epoch.strip()
    if not text.isascii() or not text.isdigit() or int(text[:20]) > LATEST_EPOCH:
        shown = printable(text if len(text) <= 40 else text[:39] + "…")
        return f"SOURCE_DATE_EPOCH must be whole seconds since 1970 (0 to {LATEST_EPOCH}) or unset, not `{shown}`"
    os.environ["SOURCE_DATE_EPOCH"] = text
    return None


WALL_SETTINGS = ("auto", "required", "off")  # RULEPRESS_WALL, as the README gives it


def _note_unknown_wall_setting() -> None:
    """A RULEPRESS_WALL that is none of its settings is read as `required` (a typo never lowers the wall): said, so a
    typo of `off` is not a mystery. `inside` is what the wall's own children are given."""
    written = os.environ.get("RULEPRESS_WALL", "").strip().lower()
    if written and written not in (*WALL_SETTINGS, "inside"):
        shown = printable(written if len(written) <= 40 else written[:39] + "…")
        _say(
            f"rulepress: note: RULEPRESS_WALL is `{shown}`, none of {', '.join(WALL_SETTINGS)}: it is read as "
            "`required`"
        )


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 on usage errors; keep that, without a traceback
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rulepress",
        description="Tabletop wargame rules as data: check them, build a site, cheat sheets and handouts.",
    )
    parser.add_argument("--version", action="version", version=f"rulepress {__version__}")
    parser.add_argument(
        "-C", "--project", type=Path, default=Path("."), help="project folder (holds rules_src/); default: here"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = commands.add_parser("check", help="validate rules_src/ and run every worked example")
    check.add_argument("--ruleset", help="check only this ruleset")
    check.add_argument("--no-examples", action="store_true", help="skip running the worked examples")
    check.add_argument(
        "--all",
        action="store_true",
        dest="everything",
        help="check everything again and run every example, trusting nothing cached",
    )
    build = commands.add_parser("build", help="check, then build every output into build/")
    build.add_argument("--ruleset", help="build only this ruleset")
    build.add_argument(
        "--only", choices=["site", "sheets", "handouts"], action="append", help="build only these outputs"
    )
    build.add_argument(
        "--audience",
        choices=["player", "gm", "author"],
        help="build only for this audience (default: all three; the authors' edition is a site only)",
    )
    build.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output folder (default: build/); a new or empty folder, or one a build wrote",
    )
    build.add_argument(
        "--jobs",
        type=_positive,
        default=_FromEnvironment("RULEPRESS_JOBS") if os.environ.get("RULEPRESS_JOBS") else None,
        help="worker processes for the sites and PDFs (default: RULEPRESS_JOBS if set, else one per core)",
    )
    serve = commands.add_parser("serve", help="build the site, serve it on 127.0.0.1 and rebuild on every save")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; any other is warned about)",
    )
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000; 0: any free port)")
    serve.add_argument(
        "--audience",
        choices=["player", "gm", "author"],
        default="player",
        help="player (default): the player site and files only; gm: the game-master's too; author: the authors' site",
    )
    serve.add_argument(
        "--site-only",
        action="store_true",
        help="rebuild the site alone: its sheets and handouts stay as the last build left them (a large project's "
        "saves reach the page sooner)",
    )
    new = commands.add_parser("new", help="start a ruleset with one example of every kind of entry")
    new.add_argument("name", help="the ruleset id (lower_snake_case), also its folder name")
    new.add_argument("--title", help="its title (default: from the name)")
    export = commands.add_parser("export", help="write each ruleset as JSON, with a JSON Schema, for other tools")
    export.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output folder, written whole: this export's files alone (default: build/export, which a later "
        "build writes anew from its rules); a new or empty folder, or one an export wrote",
    )
    export.add_argument(
        "--audience",
        choices=["player", "gm"],
        default="player",
        help="whose rules: the players' (default; no game-master entries, notes or house results that would tell "
        "a game-master's house value), or the game-master's, everything, as NAME-gm.json",
    )
    army_list = commands.add_parser(
        "list", help="check an army list file against its ruleset, then print it as a filled roster PDF"
    )
    army_list.add_argument("file", type=Path, help="an `armies:` file, such as the site's army builder exports")
    army_list.add_argument(
        "--ruleset", help="the ruleset to check it against (default: the folder it is in, or the one its matrix names)"
    )
    army_list.add_argument(
        "--out", type=Path, default=None, help="the roster PDF to write (default: beside the list, ending .pdf)"
    )
    army_list.add_argument(
        "--paper",
        choices=["a4", "letter"],
        default=None,
        help="paper size (default: the first of rulepress.yaml's papers, else a4)",
    )
    daemon = commands.add_parser(
        "daemon", help="start, stop or ask after a warm process that answers `rulepress check` for this project"
    )
    daemon.add_argument("action", choices=["start", "stop", "status", "run"], help="run: the daemon itself, here")
    commands.add_parser("codes", help="list every diagnostic code and what it catches")
    coverage = commands.add_parser(
        "coverage", help="list every value, formula, table row... no worked example exercises"
    )
    coverage.add_argument("--ruleset", help="report only this ruleset (every ruleset's examples still run)")
    names = commands.add_parser(
        "names", help="print the names one ruleset's worked examples can use, even while check fails"
    )
    names.add_argument("ruleset", help="the ruleset id")
    for command in (check, build, serve, export, coverage, names, army_list):
        command.add_argument(
            "--untrusted",
            action="store_true",
            help="rules someone else wrote: refuse to run without the operating-system wall",
        )
    return parser


def run() -> None:
    """The ``rulepress`` command: run it, and end the process with its status."""
    exit_with(main())


def main(argv: list[str] | None = None) -> int:
    """Run one command. Every failure is a message and an exit status, never a traceback: known ones
    (interrupted, a file system error) have their own message, anything else is an internal error (70)."""
    command = None
    try:
        parser = _parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exit:
            return int(exit.code or 0) if isinstance(exit.code, (int, type(None))) else EXIT_USAGE
        command = args.command
        return _run(parser, args)
    except KeyboardInterrupt:
        return _interrupted(command)
    except OSError as error:
        if isinstance(error, BrokenPipeError) and _stdout_gone():  # its reader stopped (`rulepress codes | head`)
            _stdout_to_null()
            return EXIT_BROKEN_PIPE
        _say(f"rulepress: error: {report.os_error_text(error)}")
        return EXIT_ERRORS
    except RecursionError:
        _say("rulepress: error: the rules nest too deeply to read")
        return EXIT_ERRORS
    except Exception as error:  # the last resort: one line, and a way to report it
        if _caused_by_interrupt(error):  # Ctrl-C inside a class being defined reaches us wrapped (RuntimeError)
            return _interrupted(command)
        _say(
            f"rulepress: internal error: {type(error).__name__}: {report.one_line(error)} "
            "(please report this with the command you ran)"
        )
        return EXIT_INTERNAL


WRITING_COMMANDS = ("build", "serve", "export")
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as shells report a command whose reader went away


def _stdout_gone() -> bool:
    """Whether standard output is a pipe nobody reads any more (a write there is what broke)."""
    poller = select.poll()
    try:
        poller.register(sys.stdout.fileno(), select.POLLOUT)
    except (OSError, ValueError):  # no descriptor (output captured in memory): not what broke
        return False
    return any(event & select.POLLERR for _fd, event in poller.poll(0))


def _stdout_to_null() -> None:
    """Standard output onto /dev/null: Python flushes it once more at exit, which would fail on the closed pipe."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)


def _interrupted(command: str | None) -> int:
    """Ctrl-C: one line, and for a command that writes an output folder, that it was left as it was."""
    left = "; build/ is left as it was" if command in WRITING_COMMANDS else ""
    _say(f"rulepress: interrupted{left}")
    return EXIT_INTERRUPTED


def _caused_by_interrupt(error: BaseException) -> bool:
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def _say(text: str) -> None:
    try:
        print(printable(text), file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed or gone: the exit status still says it
        pass


def _build_request(root: Path, args):
    """`rulepress build`'s command line as the pipeline's typed request."""
    from .pipeline.request import BuildRequest  # deferred: its dataclasses cost a check ~2 ms it never needs

    return BuildRequest(
        root=root,
        out=args.out,
        only=tuple(args.only or ()),
        ruleset=args.ruleset,
        audience=args.audience,
        jobs=args.jobs,
    )


def _export_request(root: Path, args):
    """`rulepress export`'s command line as the pipeline's typed request."""
    from .pipeline.request import BuildRequest  # deferred: as in _build_request

    return BuildRequest(root=root, out=args.out, audience=args.audience)


def _run(parser, args) -> int:
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    problem = _source_date_epoch()
    if problem:
        _say(f"rulepress: error: {problem}")
        return EXIT_USAGE
    _note_unknown_wall_setting()
    root = args.project.resolve()
    if getattr(args, "untrusted", False):
        from . import wall  # deferred: it imports subprocess, which a check served from its cache never needs

        wall.require()
        found = wall.status()
        if not found.usable:
            _say(f"rulepress: error: --untrusted needs the operating-system wall, and {found.reason}")
            return EXIT_USAGE
    if args.command == "codes":
        for code in Code:
            print(f"{code.code:20} {'(a warning) ' if code.warning else ''}{code.catches}")
        return EXIT_OK
    if args.command == "new":
        from .scaffold import ScaffoldError, scaffold  # deferred: importlib.resources, which a check never needs

        try:
            written = scaffold(root, args.name, args.title)
        except ScaffoldError as error:
            _say(f"rulepress: error: {error}")
            return EXIT_USAGE
        for path in written:
            print(f"created {path.relative_to(root)}")
        here = "" if args.project == Path(".") else f"-C {shlex.quote(str(args.project))} "  # as it was asked
        print(printable(f"next: rulepress {here}check, then rulepress {here}build"))
        return EXIT_OK
    if not (root / "rules_src").is_dir():
        _say(f"rulepress: error: no rules_src/ folder in {root}")  # a path may hold ESC: printed escaped
        _say("  hint: run rulepress in a project folder, or pass -C PATH")
        return EXIT_USAGE
    ruleset = getattr(args, "ruleset", None)
    if args.command == "list":
        from .pipeline.army_list import ListRequest, run_list  # deferred: a check never loads the renderers

        return run_list(ListRequest(root, args.file, ruleset, args.out, args.paper))
    if ruleset:
        from .source.project import ruleset_folders  # deferred: the model, which a check the cache answers never loads

        names = [folder.name for folder in ruleset_folders(root)]
        if ruleset not in names:
            _say(f"rulepress: error: no ruleset `{ruleset}` in rules_src/")
            _say(f"  hint: {did_you_mean(ruleset, names) or 'rulesets: ' + ', '.join(names)}")
            return EXIT_USAGE
    if args.command == "check":
        return report.run_check(root, args.ruleset, run_examples=not args.no_examples, everything=args.everything)
    if args.command == "daemon":
        from .daemon import server  # deferred: the daemon's own side loads the whole check

        return {"start": server.start, "stop": server.stop, "status": server.status, "run": server.run_daemon}[
            args.action
        ](root)
    if args.command == "coverage":
        return report.run_coverage(root, args.ruleset)
    if args.command == "names":
        return report.run_names(root, args.ruleset)
    if args.command == "build":
        from .pipeline.build import run_build  # deferred: a check never loads Sphinx, WeasyPrint's jobs or the model

        return run_build(_build_request(root, args))
    if args.command == "serve":
        from .serve import serve as serve_site  # deferred: likewise (serve builds with the pipeline)

        return serve_site(root, args.host, args.port, only=["site"] if args.site_only else None, audience=args.audience)
    if args.command == "export":
        from .pipeline.build import run_export  # deferred: a check never loads Sphinx, WeasyPrint's jobs or the model

        return run_export(_export_request(root, args))
    return EXIT_USAGE  # pragma: no cover


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
