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


# -- One crawl of the player site for every test that reads each of its pages ----------------------------------
# Each page is opened once at a phone's width and once at a desktop's, and every script below runs on it; the tests
# read the answers by name (tests/render/site/test_phone.py, tests/end_to_end/test_player_outputs.py) instead of
# opening every page again for each thing they look at.

# Everything whose right edge is past the screen, unless it sits inside a scroll box of the page's own text
# (a table's wrapper); furo's closed navigation drawers sit off-screen on purpose and are left out.
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5 || el.closest('.sidebar-drawer, .toc-drawer')) continue;
    let scrolled = false;
    for (let p = el.parentElement; p && p.closest('article') && p.tagName !== 'ARTICLE'; p = p.parentElement) {
      const style = getComputedStyle(p);
      if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && p.getBoundingClientRect().right <= width + 0.5) {
        scrolled = true;
        break;
      }
    }
    if (!scrolled) out.push(`${el.tagName}.${el.className} ends at ${Math.round(box.right)}px`);
  }
  return {scrollWidth: document.documentElement.scrollWidth, out: out.slice(0, 5)};
}"""

# every table the page shows (the army builder's roster is for print: not on the screen)
TABLES = """() => [...document.querySelectorAll('article table')].filter(t => t.getClientRects().length).map(table => {
  const wrapper = table.parentElement;
  const first = table.querySelector('tbody tr > :first-child');  // a row's heading (a th on charts) or first cell
  return {overflow: getComputedStyle(wrapper).overflowX,
          wrapperRight: wrapper.getBoundingClientRect().right,
          sticky: first ? getComputedStyle(first).position : 'sticky',
          headSticky: table.querySelector('thead th:first-child') ? getComputedStyle(table.querySelector('thead th:first-child')).position : 'sticky'};
})"""

# Each cell marked as a roll range: its text, and how many lines its range takes (distinct tops of its text's
# boxes; a chart cell's chance, set under its target on purpose, is not the range).
RANGES = """() => [...document.querySelectorAll('article td.range')].map(cell => {
  const tops = new Set(), walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (text.parentElement.closest('.odds')) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.bottom));
  }
  return {text: cell.innerText.trim(), lines: tops.size, chance: !!cell.querySelector('.odds')};
})"""

# the text of every table cell that holds no code (code: YAML as authors write it)
CELL_TEXTS = "() => [...document.querySelectorAll('article td:not(:has(code))')].map(cell => cell.innerText)"

# the height of the page's title, or null on a page without one
TITLE_HEIGHT = "() => { const h = document.querySelector('article h1'); return h && h.getBoundingClientRect().height; }"

# The page's visible text (`innerText`: a closed <details> shows only its summary), all its text as folded away
# (`textContent`, scripts and styles left out), and facts about its worked examples.
SEEN = """() => {
  const body = document.body.cloneNode(true);
  body.querySelectorAll('script, style, noscript, template').forEach(e => e.remove());
  return {
    text: document.body.innerText,
    folded: body.textContent,
    boxes: [...document.querySelectorAll('details.how-checked')].length,
    marks: [...document.querySelectorAll('abbr.checked')].length,
    code: [...document.querySelectorAll('article pre, article code')].map(e => e.textContent),
    note: [...document.querySelectorAll('.rp-checked-page')].map(e => e.innerText),
  };
}"""

CHART_WIDTHS = """() => [...document.querySelectorAll('article table.rulepress-charts')].map(table => ({
  chart: table.closest('section') ? table.closest('section').querySelector('h1, h2, h3').innerText : '',
  width: table.getBoundingClientRect().width,
  column: table.closest('article').getBoundingClientRect().width,
}))"""

PHONE_SCRIPTS = {
    "seen": SEEN,
    "sticking_out": STICKING_OUT,
    "tables": TABLES,
    "ranges": RANGES,
    "cells": CELL_TEXTS,
    "title_height": TITLE_HEIGHT,
}
DESKTOP_SCRIPTS = {"text": "() => document.body.innerText", "charts": CHART_WIDTHS}


def player_pages(site: Path) -> list[str]:
    """Every HTML page of a built site a player opens (not Sphinx's own `_static` and the like)."""
    return sorted(
        p.relative_to(site).as_posix() for p in site.rglob("*.html") if not p.relative_to(site).parts[0].startswith("_")
    )


def crawl(site: Path, browser) -> dict[str, dict]:
    """``{page: {"phone": {script: answer}, "desktop": {script: answer}}}`` for every page of the built ``site``."""
    found = {}
    tabs = {
        name: browser.new_context(viewport=size).new_page() for name, size in (("phone", PHONE), ("desktop", DESKTOP))
    }
    scripts = {"phone": PHONE_SCRIPTS, "desktop": DESKTOP_SCRIPTS}
    try:
        with serve(site) as url:
            for path in player_pages(site):
                found[path] = {}
                for name, tab in tabs.items():
                    tab.goto(f"{url}/{path}")
                    found[path][name] = {key: tab.evaluate(script) for key, script in scripts[name].items()}
    finally:
        for tab in tabs.values():
            tab.context.close()
    return found
