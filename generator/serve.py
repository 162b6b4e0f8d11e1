"""`rulepress serve`: build, serve build/ on 127.0.0.1, rebuild on save, reload the browser.

No extra dependencies: the watcher polls modification times (cheap for a rules
folder), and pages get a small script, injected while serving, that polls the
build number and reloads when a rebuild finished.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

RELOAD_PATH = "/__rulepress__/build"
RELOAD_SCRIPT = (
    "<script>(function(){let seen=null;setInterval(async()=>{try{const r=await fetch('%s');"
    "const n=await r.text();if(seen!==null&&n!==seen)location.reload();seen=n;}catch(e){}},1000);})();</script>" % RELOAD_PATH
)


def snapshot(root: Path) -> dict[str, float]:
    """Modification times of everything a build reads."""
    found = {}
    for folder in (root / "rules_src", root / "templates"):
        if folder.is_dir():
            for path in folder.rglob("*"):
                if path.is_file():
                    found[str(path)] = path.stat().st_mtime_ns
    return found


class _State:
    def __init__(self):
        self.build = 0
        self.status = "ok"


def _handler(directory: Path, state: _State):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(directory), **kwargs)

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path == RELOAD_PATH:
                return self._send(f"{state.build}:{state.status}".encode(), "text/plain")
            if self.path in ("/", "/index.html"):
                self.send_response(302)
                self.send_header("Location", "/site/index.html")
                self.end_headers()
                return None
            path = Path(self.translate_path(self.path))
            if path.suffix == ".html" and path.is_file():
                html = path.read_text(encoding="utf-8").replace("</body>", RELOAD_SCRIPT + "</body>", 1)
                return self._send(html.encode("utf-8"), "text/html; charset=utf-8")
            return super().do_GET()

        def _send(self, body: bytes, kind: str):
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return Handler


def serve(root: Path, host: str = "127.0.0.1", port: int = 8000, only: list[str] | None = None,
          poll: float = 0.5, rounds: int | None = None) -> int:
    """Serve until interrupted (or for ``rounds`` polls, for tests)."""
    from .pipeline import INTERRUPTED, run_build as build_once

    def run_build(root, args) -> int:
        code = build_once(root, args)
        if code == INTERRUPTED:  # Ctrl-C during a build stops serve too
            raise KeyboardInterrupt
        return code

    args = SimpleNamespace(out=None, ruleset=None, only=only or ["site"], audience="player", jobs=None)
    state = _State()
    try:  # listen first: a busy port or a wrong address is said at once, before a build
        server = http.server.ThreadingHTTPServer((host, port), _handler(root / "build", state))
    except (OSError, OverflowError) as error:
        cause = getattr(error, "strerror", None) or str(error)
        print(f"rulepress: error: cannot serve on {host}:{port}: {cause}", file=sys.stderr)
        return 1
    try:
        built = build_once(root, args)
    except BaseException:
        server.server_close()
        raise
    if built == INTERRUPTED:
        server.server_close()
        return built
    state.status = "ok" if built == 0 else "failed"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"serving {root / 'build'} at http://{host}:{server.server_address[1]}/ — edit rules_src/ and the page reloads; Ctrl-C stops")
    seen = snapshot(root)
    try:
        count = 0
        while rounds is None or count < rounds:
            count += 1
            time.sleep(poll)
            now = snapshot(root)
            if now != seen:
                seen = now
                print("change seen; rebuilding...")
                built = run_build(root, args)
                if built == 130:
                    break
                state.status = "ok" if built == 0 else "failed"
                state.build += 1
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
    return 0
