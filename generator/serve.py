"""`rulepress serve`: build, serve build/ on 127.0.0.1, rebuild on save, reload the browser.

Kept warm between rebuilds, so a save reaches the page in about a second:

* **Events, not polling**: watchfiles tells of a save; changes that come within ``STEP_MS`` of each
  other (an editor's write-then-rename) are one rebuild.
* **Checks remembered**: each ruleset's checks and worked examples are keyed by the bytes of its
  files (and its base's, and the generator's code); an unchanged ruleset is not checked again.
* **Sphinx stays loaded**: the site is built in this process, Sphinx and the extensions imported
  once, each build inside ``docutils_namespace`` (which undoes the roles and directives a Sphinx
  application registers process-wide); Sphinx's own incremental build re-reads only the pages
  whose text or YAML changed. The build is still staged and swapped in whole (pipeline.py).
* **The page first**: the site is staged with the previous build's search index and swapped in, the browser
  reloads; Pagefind then indexes a copy of build/ (hard links) and that copy is swapped in whole
  (``SearchIndex``), unless a newer build came meanwhile.
* **Reload at once**: pages get a small script, injected while serving, that listens to a
  server-sent event stream and reloads when a build has finished; a failed build puts an overlay on
  the page with what the terminal printed (escaped), and the next good save takes it away.
"""

from __future__ import annotations

import functools
import hashlib
import html
import http.server
import io
import queue
import shutil
import sys
import threading
from contextlib import redirect_stderr
from pathlib import Path
from types import SimpleNamespace

RELOAD_PATH = "/__rulepress__/build"  # the build number and status, as text ("3:ok")
EVENTS_PATH = "/__rulepress__/events"  # server-sent events: one "build" event per finished build
STEP_MS = 50  # a save's changes closer than this are one rebuild
KEEPALIVE_S = 15.0
RELOAD_SCRIPT = """<script>(function(){const shown=%d;
const events=new EventSource('%s');
events.addEventListener('build',e=>{const n=parseInt(e.data,10);if(n!==shown){events.close();location.reload();}});
})();</script>"""
OVERLAY = ('<div id="rulepress-overlay" role="alert" style="position:fixed;inset:0;z-index:2147483647;overflow:auto;'
           'margin:0;padding:2em;background:rgba(30,0,0,.94);color:#fff;font:14px/1.5 monospace">'
           '<p style="font-weight:bold;color:#ff8a80;margin:0 0 1em">The last save did not build; '
           'this page is the previous build. Fix the error and save:</p>'
           '<pre style="white-space:pre-wrap;margin:0">%s</pre></div>')


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

    def wait_past(self, build: int) -> int:
        """The build number once it is past ``build`` (or after a keep-alive interval, unchanged)."""
        with self.changed:
            self.changed.wait_for(lambda: self.build != build or self.closed, timeout=KEEPALIVE_S)
            return self.build


def page_additions(state: _State) -> str:
    """What a served page gets before ``</body>``: the reload script, and the overlay after a failed build."""
    added = RELOAD_SCRIPT % (state.build, EVENTS_PATH)
    if state.status == "failed":
        added = OVERLAY % html.escape(state.errors or "the build failed") + added
    return added


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a page closed or reloaded mid-answer: nothing to say
            super().handle_error(request, client_address)


def _handler(directory: Path, state: _State):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(directory), **kwargs)

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path == RELOAD_PATH:
                return self._send(f"{state.build}:{state.status}".encode(), "text/plain")
            if self.path == EVENTS_PATH:
                return self._events()
            if self.path in ("/", "/index.html"):
                self.send_response(302)
                self.send_header("Location", "/site/index.html")
                self.end_headers()
                return None
            path = Path(self.translate_path(self.path))
            if path.suffix == ".html" and path.is_file():
                page = path.read_text(encoding="utf-8").replace("</body>", page_additions(state) + "</body>", 1)
                return self._send(page.encode("utf-8"), "text/html; charset=utf-8")
            return super().do_GET()

        def _events(self) -> None:
            """The build number now, then again after every build, until the client or the server goes."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            shown = state.build
            try:
                self._event(shown)
                while not state.closed:
                    now = state.wait_past(shown)
                    if now != shown:
                        shown = now
                        self._event(shown)
                    else:
                        self.wfile.write(b": still here\n\n")  # finds a closed connection
                        self.wfile.flush()
            except OSError:  # the page went away
                pass

        def _event(self, build: int) -> None:
            self.wfile.write(f"event: build\ndata: {build}\n\n".encode())
            self.wfile.flush()

        def _send(self, body: bytes, kind: str):
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return Handler


# -- warm building -----------------------------------------------------------------------------
class RememberedChecks:
    """``pipeline.check_with_examples`` for serve: each ruleset's check and example run are kept in
    memory, keyed by the bytes they were made from, so a save re-checks only the rulesets it touched."""

    def __init__(self):
        self.checks: dict[str, list] = {}
        self.examples: dict[str, list] = {}

    def __call__(self, root: Path):
        from .examples.run import run_examples
        from .pipeline import code_hash
        from .validate import check_project, check_ruleset

        code = code_hash()

        def checker(project_root, ruleset):
            key = ruleset_key(project_root, ruleset, code)
            if key not in self.checks:
                self.checks[key] = check_ruleset(project_root, ruleset)
            return self.checks[key]

        result = check_project(root, checker=checker)
        failures = []
        if result.ok:
            for ruleset in result.project.rulesets:
                key = ruleset_key(result.project.root, ruleset, code)
                if key not in self.examples:
                    self.examples[key] = list(run_examples(ruleset, result.project.root).failures)
                failures += self.examples[key]
        return result, failures


def ruleset_key(root: Path, ruleset, code: str) -> str:
    """A hash of everything a ruleset's checks read: its files, prose sources and mechanics, its base's, the
    project's templates (names, sizes, times) and the generator's code."""
    digest = hashlib.sha256(f"{code}\n{ruleset.id}\n".encode())
    for name in (*ruleset.files, *ruleset.mechanics):
        path = Path(root) / name
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"(missing)"))
    for name, text in sorted(ruleset.sources.items()):
        digest.update(name.encode() + b"\0" + text.encode())
    templates = Path(root) / "templates"
    if templates.is_dir():
        for path in sorted(templates.rglob("*")):
            if path.is_file():
                stat = path.stat()
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    if ruleset.base is not None:
        digest.update(ruleset_key(root, ruleset.base, code).encode())
    return digest.hexdigest()


def warm_site(project, args) -> str:
    """pipeline's site task, run here with Sphinx already imported and the project already checked."""
    from sphinx.util.docutils import docutils_namespace

    from .render.site import checked_project
    from .render.site.pages import build_site

    _root, cache, outdir, audience, downloads, pages = args
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

    def isatty(self) -> bool:
        return False  # no progress bar: it would draw into the copy


def build_and_tell(root: Path, args, state: _State, first: bool = False, index: "SearchIndex | None" = None) -> int:
    """One warm build; ``state`` learns its outcome and what it printed (the browser reloads at once);
    then, after a good build, ``index`` makes the site's search index again, behind the page."""
    from .pipeline import INTERRUPTED, run_build

    tee = _Tee(sys.stderr)
    with redirect_stderr(tee), (index.swaps if index else _NO_LOCK):
        code = run_build(root, args)
    if code == INTERRUPTED:  # Ctrl-C during a build stops serve too
        raise KeyboardInterrupt
    state.finished(code == 0, tee.copy.getvalue().strip(), first)
    if code == 0 and index:
        index.start(state.build)
    return code


_NO_LOCK = threading.Lock()  # a lock nobody else holds: build_and_tell without a SearchIndex


class SearchIndex:
    """Pagefind's index of the served site, made again after each good build on a copy of build/ (hard
    links) and swapped in whole, so a save reaches the page without waiting for it and no reader ever
    sees half an index. A build started meanwhile wins: the index of a build that is no longer the last
    is dropped (the next build's index follows it)."""

    def __init__(self, out: Path, state: _State):
        self.out, self.state = out, state
        self.swaps = threading.Lock()  # held by a build, and by this while it copies or swaps build/
        self.thread: threading.Thread | None = None

    def start(self, build: int) -> None:
        self.thread = threading.Thread(target=self._index, args=(build,), name="rulepress-search-index", daemon=True)
        self.thread.start()

    def _index(self, build: int) -> None:
        from .pipeline import copy_for_index, index_copy, swap_index
        from .render.site.search import SearchIndexError

        try:
            with self.swaps:
                if self.state.build != build:
                    return
                staging = copy_for_index(self.out)
            if staging is None:
                return
            index_copy(staging)
            with self.swaps:
                if self.state.build == build:
                    swap_index(staging, self.out)
                else:
                    shutil.rmtree(staging, ignore_errors=True)
        except (SearchIndexError, OSError) as failed:  # a build removed the copy, or Pagefind failed: the next build tries again
            if self.state.build == build:  # to the terminal, never into a build's overlay text (stderr is teed then)
                print(f"rulepress: the search index was not renewed: {failed}", file=sys.__stderr__, flush=True)

    def wait(self, timeout: float | None = None) -> None:
        if self.thread is not None:
            self.thread.join(timeout)


def watched(root: Path) -> list[Path]:
    return [folder for folder in (root / "rules_src", root / "templates") if folder.is_dir()]


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000, only: list[str] | None = None,
          poll: float = 0.5, rounds: int | None = None, stop: threading.Event | None = None) -> int:
    """Serve until interrupted (or for ``rounds`` waits of ``poll`` seconds, or until ``stop`` is set: for tests)."""
    from .pipeline import INTERRUPTED

    args = SimpleNamespace(out=None, ruleset=None, only=only or ["site"], audience="player", jobs=None,
                           checker=RememberedChecks(), site_builder=warm_site, index_later=True)
    state = _State()
    index = SearchIndex(root / "build", state)
    try:  # listen first: a busy port or a wrong address is said at once, before a build
        server = _Server((host, port), _handler(root / "build", state))
    except (OSError, OverflowError) as error:
        cause = getattr(error, "strerror", None) or str(error)
        print(f"rulepress: error: cannot serve on {host}:{port}: {cause}", file=sys.stderr)
        return 1
    halt = threading.Event()
    try:
        changes = start_watching(root, halt)  # before the first build: a save during it is built next
        build_and_tell(root, args, state, first=True, index=index)
    except KeyboardInterrupt:
        halt.set()
        server.server_close()
        return INTERRUPTED
    except BaseException:
        halt.set()
        server.server_close()
        raise
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"serving {root / 'build'} at http://{host}:{server.server_address[1]}/ — edit rules_src/ and the page reloads; Ctrl-C stops",
          flush=True)
    try:
        _rebuild_on_change(root, args, state, changes, poll, rounds, stop, index)
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
        for found in watchfiles.watch(*watched(root), step=STEP_MS, debounce=1000, rust_timeout=200,
                                      yield_on_timeout=True, stop_event=halt, raise_interrupt=False):
            ready.set()  # the first (empty) answer comes once the watcher is registered
            if found:
                changes.put(found)

    threading.Thread(target=watch, name="rulepress-watch", daemon=True).start()
    ready.wait(timeout=60)
    return changes


def _rebuild_on_change(root: Path, args, state: _State, changes: queue.Queue, poll: float, rounds: int | None,
                       stop: threading.Event | None, index: SearchIndex | None = None) -> None:
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
        build_and_tell(root, args, state, index=index)
