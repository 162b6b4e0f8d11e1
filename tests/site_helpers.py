"""Shared fixtures' helpers for tests that build the real site and open it in Chromium."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[1]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def require_chromium() -> None:
    """Skip without Debian's chromium, except on CI (any non-empty ``CI``) where it is a failure."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail("/usr/bin/chromium is missing on CI; `make test` installs it (scripts/ensure-chromium.sh)")
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)")


@contextmanager
def chromium():
    """Debian's headless Chromium driven by Playwright, for the duration of the block."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def serve(folder: Path):
    """Serve ``folder`` on 127.0.0.1 at a free port for the duration of the block."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def copy_project(target: Path, rulesets: list[str] | None = None) -> Path:
    """A copy of this project's rules_src (all rulesets, or some) in ``target``."""
    for name in rulesets or [p.name for p in (ROOT / "rules_src").iterdir() if p.is_dir()]:
        shutil.copytree(ROOT / "rules_src" / name, target / "rules_src" / name)
    return target
