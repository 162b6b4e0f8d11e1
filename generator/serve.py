"""`rulepress serve`: build, serve build/ on 127.0.0.1, rebuild on save, reload the browser.

For one person on one machine: it answers only requests whose ``Host`` is this machine's loopback name
(or the address it was told to listen on) with its port, so a page elsewhere cannot read it by DNS
rebinding; it serves the game-master's files only with ``--audience gm``; every bad request is a 4xx and
a flood of connections a 503, never a thread each or a traceback (``_Server``, ``_handler``).

Kept warm between rebuilds, so a save reaches the page in about a second:

* **Events, not polling**: watchfiles tells of a save; changes that come within ``STEP_MS`` of each
  other (an editor's write-then-rename) are one rebuild.
* **Checks remembered**: each ruleset's checks and worked examples are keyed by the bytes of its
  files (and its base's, and the generator's code); an unchanged ruleset is not checked again.
* **Sphinx stays loaded**: the site is built in this process, Sphinx and the extensions imported
  once, each build inside ``docutils_namespace`` (which undoes the roles and directives a Sphinx
  application registers process-wide); Sphinx's own incremental build re-reads only the pages
  whose text or YAML changed. The build is still staged and swapped in whole (``generator.pipeline``).
* **The page first**: the site is staged with the previous build's search index and swapped in, the browser
  reloads; Pagefind then indexes a copy of build/ (hard links) and that copy is swapped in whole
  (``SearchIndex``), unless a newer build came meanwhile.
* **Reload at once**: pages get a small script, injected while serving, that listens to a
  server-sent event stream and reloads when a build has finished; a failed build puts an overlay on
  the page with what the terminal printed (escaped), and the next good save takes it away.
"""

from __future__ import annotations

import dataclasses
import html
import http.server
import io
import ipaddress
import queue
import re
import select
import shutil
import socket
import sys
import threading
import time
import urllib.parse
from contextlib import nullcontext, redirect_stderr
from pathlib import Path

from sphinx.util.docutils import docutils_namespace

from . import wall
from .diagnostics import printable
from .examples.run import run_project_examples
from .exit import INTERRUPTED
from .keys import code_hash, ruleset_key
from .model.entries import SEES_EVERYTHING
from .pipeline.build import run_build
from .pipeline.plan import SITES
from .pipeline.request import BuildHooks, BuildRequest
from .pipeline.search_index import copy_for_index, index_copy, swap_index
from .pipeline.workers import with_site_house_results
from .pool import Workers, rebuilt
from .render.assets import default_templates
from .render.site.pages import build_site
from .render.site.search import SearchIndexError
from .render.site.state import checked_project
from .source.project import LoadMemo, load_project
from .validate import check_project, check_ruleset

RELOAD_PATH = "/__rulepress__/build"  # the build number and status, as text ("3:ok")
EVENTS_PATH = "/__rulepress__/events"  # server-sent events: one "build" event per finished build
STEP_MS = 50  # a save's changes closer than this are one rebuild
KEEPALIVE_S = 15.0
RELOAD_SCRIPT = """<script>(function(){const shown=%d;
const events=new EventSource('%s');
events.addEventListener('build',e=>{const n=parseInt(e.data,10);if(n!==shown){events.close();location.reload();}});
})();</script>"""
OVERLAY = (
    '<div id="rulepress-overlay" role="alert" style="position:fixed;inset:0;z-index:2147483647;overflow:auto;'
    'margin:0;padding:2em;background:rgba(30,0,0,.94);color:#fff;font:14px/1.5 monospace">'
    '<p style="font-weight:bold;color:#ff8a80;margin:0 0 1em">%s Fix the error and save:</p>'
    '<pre style="white-space:pre-wrap;margin:0">%s</pre></div>'
)
LAST_SAVE_FAILED = "The last save did not build; this page is the previous build."
EARLIER_BUILD = "The rules did not build; this page is from an earlier build."  # serve's first build failed
NOTHING_BUILT = "The rules did not build, and there is no earlier build to show."
# the home page while nothing is built: the overlay and the reload script are all it holds
EMPTY_PAGE = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>rulepress serve: not built</title></head>'
    "<body></body></html>"
)


class _State:
    """The last build's number, status and (when it failed) what it printed; waiters are woken on change."""

    def __init__(self):
        self.build = 0
        self.status = "ok"
        self.errors = ""
        self.closed = False
        self.changed = threading.Condition()

    def finished(self, ok: bool, errors: str, first: bool = False) -> None:
        with self.changed:
            self.status, self.errors = ("ok", "") if ok else ("failed", errors)
            self.build += 0 if first else 1  # build 0 is the one serve starts with
            self.changed.notify_all()

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def wait_past(self, build: int, timeout: float = KEEPALIVE_S) -> int:
        """The build number once it is past ``build`` (or after ``timeout`` seconds, unchanged)."""
        with self.changed:
            self.changed.wait_for(lambda: self.build != build or self.closed, timeout=timeout)
            return self.build


def page_additions(state: _State, lead: str | None = None) -> str:
    """What a served page gets before ``</body>``: the reload script, and the overlay after a failed build."""
    added = RELOAD_SCRIPT % (state.build, EVENTS_PATH)
    if state.status == "failed":
        lead = lead or (LAST_SAVE_FAILED if state.build else EARLIER_BUILD)
        added = OVERLAY % (lead, html.escape(state.errors or "the build failed")) + added
    return added


# -- one person on one machine ------------------------------------------------------------------
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
ANY_ADDRESS = ("0.0.0.0", "::", "")
PLAYER_FOLDERS = ("site", "sheets", "handouts", "export")  # what build/ shows players; the rest is the game-master's
MARKED_GM = ("sheets", "handouts", "export")  # folders whose game-master files say `-gm` in their names
MAX_CONNECTIONS = 64  # requests answered at once (a browser opens about 6); past it a 503, not a thread
MAX_EVENT_STREAMS = 32  # open pages listening for rebuilds; past it a 503
IDLE_S = 10.0  # a connection that sends nothing for this long is closed
GONE_CHECK_S = 1.0  # how often an event stream looks whether its page went away (so its slot is freed)
BUSY = (
    b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 19\r\n"
    b"Retry-After: 1\r\nConnection: close\r\n\r\nrulepress: too busy"
)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_BAD_ESCAPE = re.compile("%(?![0-9A-Fa-f]{2})")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address, or a name every address of which is) reaches this machine only."""
    name = host.strip("[]")
    if name.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(name, None)
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(ipaddress.ip_address(info[4][0].split("%")[0]).is_loopback for info in found)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class HostCheck:
    """Which ``Host`` headers serve answers, against DNS rebinding (a page elsewhere whose name is made to
    point at 127.0.0.1 sends its own name): this machine's loopback names and the address serve listens on,
    each with the port; listening on every address (0.0.0.0), also an address written as numbers, which no
    other site's page can send, and this machine's name."""

    def __init__(self, host: str, port: int):
        self.port = port
        self.names = {*LOOPBACK_NAMES, _bracketed(host.lower())}
        self.any_address = host in ANY_ADDRESS
        if self.any_address:
            machine = socket.gethostname().lower()
            self.names |= {machine, machine + ".local"}

    def allows(self, header: str | None) -> bool:
        if not header:
            return False
        header = header.strip().lower()
        if ":" in header and not header.endswith("]"):
            name, _, port = header.rpartition(":")
        else:
            name, port = header, "80"
        if port != str(self.port):
            return False
        return name in self.names or (self.any_address and _is_address(name))


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    return True


def for_game_master(parts: tuple[str, ...]) -> bool:
    """Whether a file under build/ is the game-master's: anything outside the player outputs (site-gm/,
    the reference, the manifest), and a sheet, handout or export with ``-gm`` in its name."""
    if not parts or parts[0] not in PLAYER_FOLDERS:
        return True
    return parts[0] in MARKED_GM and any("-gm" in part for part in parts[1:])


def requested_parts(target: str) -> tuple[str, ...] | None:
    """The path a request names, as folder and file names under build/, or None for one no browser sends:
    NUL or another control character, a `%` not followed by two hex digits, bytes that are not UTF-8, `..`."""
    path = target.split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/") or _BAD_ESCAPE.search(path):
        return None
    try:
        text = urllib.parse.unquote(path, errors="strict")
    except UnicodeDecodeError:
        return None
    if _CONTROL.search(text) or "\\" in text:
        return None
    parts = tuple(part for part in text.split("/") if part not in ("", "."))
    return None if ".." in parts else parts


class _Server(http.server.ThreadingHTTPServer):
    """A thread per request up to ``MAX_CONNECTIONS``; past it (or when no thread can start) a 503 written at
    once, so a flood of connections costs neither threads nor tracebacks."""

    block_on_close = False  # Ctrl-C does not wait for open event streams or idle connections
    request_queue_size = 128  # a burst of connections waits to be accepted (and refused), not for SYN retries

    def __init__(self, address, handler):
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__(address, handler)

    def process_request(self, request, client_address):
        if not self.slots.acquire(blocking=False):
            return self._refuse(request)
        try:
            super().process_request(request, client_address)
        except RuntimeError:  # can't start new thread
            self.slots.release()
            self._refuse(request)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def _refuse(self, request) -> None:
        try:
            request.setblocking(False)
            try:
                request.recv(65536)  # what the client sent, so closing does not reset the connection
            except OSError:
                pass
            request.send(BUSY)
        except OSError:
            pass
        self.shutdown_request(request)

    def handle_error(self, request, client_address):
        failed = sys.exc_info()[1]
        if isinstance(failed, (ConnectionError, TimeoutError)):  # a page closed or reloaded mid-answer
            return
        _tell(printable(f"rulepress: serve: a request failed: {type(failed).__name__}: {failed}"))


def _tell(text: str) -> None:
    """To the terminal, never into a build's overlay text (stderr is teed during a build)."""
    try:
        print(text, file=sys.__stderr__, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def _handler(directory: Path, state: _State, hosts: HostCheck, audience: str = "player"):
    streams = threading.BoundedSemaphore(MAX_EVENT_STREAMS)
    home = f"/{SITES[audience]}/index.html"

    class Handler(http.server.SimpleHTTPRequestHandler):
        timeout = IDLE_S

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(directory), **kwargs)

        def log_message(self, *args):
            pass

        def do_GET(self):
            return self._answer(body=True)

        def do_HEAD(self):
            return self._answer(body=False)

        def _answer(self, body: bool):
            if not hosts.allows(self.headers.get("Host")):
                return self.send_error(403, "rulepress serve answers only to the address it prints")
            if self.path == RELOAD_PATH:
                return self._send(f"{state.build}:{state.status}".encode(), "text/plain", body)
            if self.path == EVENTS_PATH:
                return self._events() if body else self._send(b"", "text/event-stream", body)
            if self.path in ("/", "/index.html"):
                return self._redirect(home)
            parts = requested_parts(self.path)
            if parts is None:
                return self.send_error(400, "a path no page links to")
            path = self._served(parts)
            if path is None and "/" + "/".join(parts) == home and state.status == "failed":
                # a first build that failed: its errors on the page, which reloads once a save builds
                page = EMPTY_PAGE.replace("</body>", page_additions(state, NOTHING_BUILT) + "</body>", 1)
                return self._send(page.encode("utf-8"), "text/html; charset=utf-8", body)
            if path is None:
                return self.send_error(404)
            if path.is_dir():
                if not self.path.split("?", 1)[0].endswith("/"):
                    return self._redirect(urllib.parse.quote("/" + "/".join(parts) + "/"))
                path = path / "index.html"
                if not path.is_file():
                    return self.send_error(404)  # no folder listings: they would name every file
            try:
                content = path.read_bytes()
            except OSError:  # swapped out by a build meanwhile
                return self.send_error(404)
            if path.suffix == ".html":
                page = content.decode("utf-8", "replace").replace("</body>", page_additions(state) + "</body>", 1)
                return self._send(page.encode("utf-8"), "text/html; charset=utf-8", body)
            return self._send(content, self.guess_type(str(path)), body)

        def _served(self, parts: tuple[str, ...]) -> Path | None:
            """The file or folder ``parts`` names under build/, when this audience may see it."""
            if any(part.startswith(".") for part in parts) or (
                audience not in SEES_EVERYTHING and for_game_master(parts)
            ):
                return None
            root = directory.resolve()
            try:
                path = directory.joinpath(*parts).resolve()
            except (OSError, RuntimeError):
                return None
            if not path.is_relative_to(root) or not path.exists():
                return None
            if audience not in SEES_EVERYTHING and for_game_master(
                path.relative_to(root).parts
            ):  # a link into site-gm/
                return None
            return path

        def _redirect(self, location: str):
            self.send_response(302)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def _events(self) -> None:
            """The build number now, then again after every build, until the client or the server goes."""
            if not streams.acquire(blocking=False):
                self.send_response(503)
                self.send_header("Retry-After", "5")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            try:
                self._stream()
            finally:
                streams.release()

        def _stream(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            shown = state.build
            try:
                self._event(shown)
                quiet_since = time.monotonic()
                while not state.closed and not self._gone():
                    now = state.wait_past(shown, GONE_CHECK_S)
                    if now != shown:
                        shown = now
                        self._event(shown)
                        quiet_since = time.monotonic()
                    elif time.monotonic() - quiet_since >= KEEPALIVE_S:
                        self.wfile.write(b": still here\n\n")  # keeps proxies and the browser from timing out
                        self.wfile.flush()
                        quiet_since = time.monotonic()
            except OSError:  # the page went away
                pass

        def _gone(self) -> bool:
            """Whether the page closed its end: an event stream's client sends nothing after its request."""
            try:
                readable, _, _ = select.select([self.connection], [], [], 0)
                return bool(readable) and not self.connection.recv(1, socket.MSG_PEEK)
            except (OSError, ValueError):
                return True

        def _event(self, build: int) -> None:
            self.wfile.write(f"event: build\ndata: {build}\n\n".encode())
            self.wfile.flush()

        def _send(self, content: bytes, kind: str, body: bool = True):
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(content)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if body:
                self.wfile.write(content)

    return Handler


# -- warm building -----------------------------------------------------------------------------
class RememberedChecks:
    """``pipeline.build.check_with_examples`` for serve: each ruleset's check and example run are kept in
    memory, keyed by the bytes they were made from, so a save re-checks only the rulesets it touched; and a
    ruleset whose folder did not change is not loaded again (``LoadMemo``)."""

    def __init__(self):
        self.checks: dict[str, list] = {}
        self.examples: dict[tuple, object] = {}
        self.loads = LoadMemo()

    def __call__(self, root: Path):
        code = code_hash()

        def checker(project_root, ruleset):
            key = ruleset_key(project_root, ruleset, code)
            if key not in self.checks:
                self.checks[key] = check_ruleset(project_root, ruleset)
            return self.checks[key]

        result = check_project(root, checker=checker, memo=self.loads)
        runs = run_project_examples(
            result.project, result.diagnostics, _InMemory(self.examples, result.project.root, code)
        )
        project = result.project.with_house_results({run.ruleset: run.changed for run in runs})
        return dataclasses.replace(result, project=project), [f for run in runs for f in run.failures]


class _InMemory:
    """The check cache's slots for examples, kept in serve's memory (a passing run, by what it read)."""

    def __init__(self, store: dict, root: Path, code: str):
        self.store, self.root, self.code = store, root, code

    def ruleset_key(self, ruleset, others=()) -> str:
        return ruleset_key(self.root, ruleset, self.code)

    def get(self, slot: str, key: str):
        return self.store.get((slot, key))

    def put(self, slot: str, key: str, value) -> None:
        self.store[(slot, key)] = value


def site_builder(root: Path):
    """How serve builds its site: behind the wall when this run uses it (one walled worker kept warm
    across saves), else here, with Sphinx already imported and the project already checked."""
    return WalledSite(root) if wall.in_use() else warm_site


class WalledSite:
    """serve's site builds in one walled render worker (``pool``), kept for every save: Sphinx stays
    imported there, and it writes only the site caches."""

    def __init__(self, root: Path):
        self.root, self.walled = root, None

    def __call__(self, project, args) -> str:
        if self.walled is None or self.walled.process.poll() is not None:
            caches = Path(args[1]).parent
            caches.mkdir(parents=True, exist_ok=True)
            self.walled = Workers(1, [self.root, default_templates()], [caches])
        answer = self.walled.workers[0].ask((loaded_warm_site, args))
        if "ok" not in answer:
            self.walled.stop()
            self.walled = None
            raise rebuilt(answer)
        return answer["ok"]


_WORKER_LOADS = LoadMemo()  # in serve's walled site worker, which lives as long as serve: unchanged folders kept


def loaded_warm_site(args) -> str:
    """``warm_site`` in a walled worker: the project loaded there (the command checked it a moment ago)."""
    return warm_site(with_site_house_results(load_project(Path(args[0]), memo=_WORKER_LOADS)[0], args), args)


def warm_site(project, args) -> str:
    """pipeline's site task, run here with Sphinx already imported and the project already checked."""
    _root, cache, outdir, audience, downloads, pages = args[:6]
    with docutils_namespace(), checked_project(project):  # Pagefind runs after the page is on disk (SearchIndex)
        return str(build_site(project, Path(cache), Path(outdir), audience, downloads, pages=pages, index=False).outdir)


class _Tee(io.TextIOBase):
    """stderr as it was, and a copy kept for the page's overlay."""

    def __init__(self, stream):
        self.stream, self.copy = stream, io.StringIO()

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()

    progress_lines = False  # nor the progress lines a log is given: the page would show them as what the build said

    def isatty(self) -> bool:
        return False  # no progress bar: it would draw into the copy


PRINTOUTS = ("sheets", "handouts")  # what the served site links, brought up to date behind the page


def print_behind(
    request: BuildRequest,
    hooks: BuildHooks,
    index: SearchIndex | None,
    state: _State | None = None,
    changes: queue.Queue | None = None,
) -> None:
    """After a good build of the page, the printouts it links (sheets, then handouts) brought up to date too, once
    its search index is in: the page never waits for them, and a save made meanwhile waits for one kind at most
    (the rest follow that save's page). Only what the save changed is rendered again (the build's keys). Printouts
    that fail show on the page as a failed build does (a sheet too long for its page is found only by laying it
    out); printouts added or removed are linked from the page at once (it is built again)."""
    if index:
        index.wait()
    before = _printouts(request.root)
    print("bringing the printouts up to date...", flush=True)
    for kind in PRINTOUTS:
        if changes is not None and not changes.empty():
            return  # a save waits: its page first, then the printouts again
        tee = _Tee(sys.stderr)
        with redirect_stderr(tee), index.swaps if index else nullcontext():
            code = run_build(dataclasses.replace(request, only=(kind,)), hooks)
        if code == INTERRUPTED:
            raise KeyboardInterrupt
        if code != 0 and state is not None:
            state.finished(False, f"The printouts ({kind}) were not made:\n" + tee.copy.getvalue().strip())
            return
    if state is not None and _printouts(request.root) != before and (changes is None or changes.empty()):
        build_and_tell(request, hooks, state, index=index)  # the page links the printouts there are now


def _printouts(root: Path) -> set[str]:
    """The printouts in build/, by name: what the page links."""
    return {p.relative_to(root).as_posix() for kind in PRINTOUTS for p in (root / "build" / kind).glob("*.pdf")}


def build_and_tell(
    request: BuildRequest, hooks: BuildHooks, state: _State, first: bool = False, index: SearchIndex | None = None
) -> int:
    """One warm build; ``state`` learns its outcome and what it printed (the browser reloads at once);
    then, after a good build, ``index`` makes the site's search index again, behind the page."""
    tee = _Tee(sys.stderr)
    with redirect_stderr(tee), index.swaps if index else nullcontext():
        code = run_build(request, hooks)
    if code == INTERRUPTED:  # Ctrl-C during a build stops serve too
        raise KeyboardInterrupt
    state.finished(code == 0, tee.copy.getvalue().strip(), first)
    if code == 0 and index:
        index.start(state.build)
    return code


class SearchIndex:
    """Pagefind's index of the served site, made again after each good build on a copy of build/ (hard
    links) and swapped in whole, so a save reaches the page without waiting for it and no reader ever
    sees half an index. A build started meanwhile wins: the index of a build that is no longer the last
    is dropped (the next build's index follows it)."""

    def __init__(self, out: Path, state: _State, site: str = "site"):
        self.out, self.state, self.site = out, state, site
        self.swaps = threading.Lock()  # held by a build, and by this while it copies or swaps build/
        self.thread: threading.Thread | None = None

    def start(self, build: int) -> None:
        self.thread = threading.Thread(target=self._index, args=(build,), name="rulepress-search-index", daemon=True)
        self.thread.start()

    def _index(self, build: int) -> None:
        try:
            with self.swaps:
                if self.state.build != build:
                    return
                staging = copy_for_index(self.out, self.site)
            if staging is None:
                return
            index_copy(staging, self.site)
            with self.swaps:
                if self.state.build == build:
                    swap_index(staging, self.out)
                else:
                    shutil.rmtree(staging, ignore_errors=True)
        except (
            SearchIndexError,
            OSError,
        ) as failed:  # a build removed the copy, or Pagefind failed: the next build tries again
            if self.state.build == build:  # to the terminal, never into a build's overlay text (stderr is teed then)
                print(f"rulepress: the search index was not renewed: {failed}", file=sys.__stderr__, flush=True)

    def wait(self, timeout: float | None = None) -> None:
        if self.thread is not None:
            self.thread.join(timeout)


def watched(root: Path) -> list[Path]:
    return [folder for folder in (root / "rules_src", root / "templates") if folder.is_dir()]


def serve(
    root: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    only: list[str] | None = None,
    poll: float = 0.5,
    rounds: int | None = None,
    stop: threading.Event | None = None,
    audience: str = "player",
) -> int:
    """Serve until interrupted (or for ``rounds`` waits of ``poll`` seconds, or until ``stop`` is set: for tests).
    ``audience`` "gm" builds and serves the game-master's site and files too, "author" the authors' site (and
    every file); "player" serves none of them."""
    request = BuildRequest(root=root, only=tuple(only or ["site"]), audience=audience)
    printouts = only is None  # the site first; the files it links follow
    hooks = BuildHooks(checker=RememberedChecks(), site_builder=site_builder(root), index_later=True)
    state = _State()
    index = SearchIndex(root / "build", state, SITES[audience])
    hosts = HostCheck(host, port)
    try:  # listen first: a busy port or a wrong address is said at once, before a build
        server = _Server((host, port), _handler(root / "build", state, hosts, audience))
    except (OSError, OverflowError, UnicodeError) as error:
        cause = getattr(error, "strerror", None) or str(error)
        print(printable(f"rulepress: error: cannot serve on {host}:{port}: {cause}"), file=sys.stderr)
        return 1
    hosts.port = server.server_address[1]  # port 0: the one the system chose
    if not is_loopback(host):
        readers = "the served rules, the game-master's included" if audience in SEES_EVERYTHING else "the served rules"
        print(
            printable(
                f"rulepress: warning: serving on {host}, not this machine only: anyone on the network "
                f"can read {readers}"
            ),
            file=sys.stderr,
            flush=True,
        )
    halt = threading.Event()
    try:
        changes = start_watching(root, halt)  # before the first build: a save during it is built next
        good = build_and_tell(request, hooks, state, first=True, index=index) == 0
    except KeyboardInterrupt:
        halt.set()
        server.server_close()
        return INTERRUPTED
    except BaseException:
        halt.set()
        server.server_close()
        raise
    threading.Thread(target=server.serve_forever, daemon=True).start()
    shown = f"{root / 'build'}" + {
        "gm": " (the game-master's site and files too)",
        "author": " (the authors' site, and every file)",
    }.get(audience, "")
    print(
        printable(
            f"serving {shown} at http://{_bracketed(host)}:{hosts.port}/ — edit rules_src/ and the page "
            "reloads; Ctrl-C stops"
        ),
        flush=True,
    )
    try:
        if good and printouts and changes.empty():
            print_behind(request, hooks, index, state, changes)
        _rebuild_on_change(request, hooks, state, changes, poll, rounds, stop, index, printouts)
    except KeyboardInterrupt:
        pass
    finally:
        halt.set()
        state.close()
        index.wait(timeout=60)  # never leave a half-made copy of build/ behind
        server.shutdown()
        server.server_close()
    return 0


def start_watching(root: Path, halt: threading.Event) -> queue.Queue:
    """A queue that receives each set of changes watchfiles sees under rules_src/ and templates/, from a
    thread that runs until ``halt``; returns once the watcher is in place, so no save is missed."""
    import watchfiles

    changes: queue.Queue = queue.Queue()
    ready = threading.Event()

    def watch() -> None:
        while not halt.is_set():
            folders = watched(root)
            for found in watchfiles.watch(
                *folders,
                step=STEP_MS,
                debounce=1000,
                rust_timeout=200,
                yield_on_timeout=True,
                stop_event=halt,
                raise_interrupt=False,
            ):
                ready.set()  # the first (empty) answer comes once the watcher is registered
                if found:
                    changes.put(found)
                if watched(root) != folders:  # templates/ made (or removed) while serving: watched from now on
                    changes.put({("folder", str(root / "templates"))})
                    break

    threading.Thread(target=watch, name="rulepress-watch", daemon=True).start()
    ready.wait(timeout=60)
    return changes


def _rebuild_on_change(
    request: BuildRequest,
    hooks: BuildHooks,
    state: _State,
    changes: queue.Queue,
    poll: float,
    rounds: int | None,
    stop: threading.Event | None,
    index: SearchIndex | None = None,
    printouts: bool = False,
) -> None:
    count = 0
    while (rounds is None or count < rounds) and not (stop is not None and stop.is_set()):
        count += 1
        try:
            changes.get(timeout=poll)
        except queue.Empty:
            continue
        while not changes.empty():  # everything seen so far is one rebuild
            changes.get_nowait()
        print("change seen; rebuilding...", flush=True)
        if build_and_tell(request, hooks, state, index=index) == 0 and printouts and changes.empty():
            print_behind(request, hooks, index, state, changes)
