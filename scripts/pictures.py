#!/usr/bin/env python3
"""Pictures of each kind of output, made from an existing build folder.

    python scripts/pictures.py [--build build] [--out docs/pictures]

Reads the build (``site/``, ``sheets/``, ``handouts/``) and writes one PNG per output kind:

    site-phone.png       a rules page of the site in Chromium at 390 px (one phone screen)
    site-desktop.png     the same page at 1280 px
    chart-site.png       the to-hit chart on the site (the Warhammer charts page) at 1280 px
    chart-phone.png      the same chart at 390 px
    calculator-phone.png an odds calculator at 390 px, two values picked, why opened (the Rampant Hex hits calculator)
    army-builder-phone.png the army builder at 390 px, opened on the text's own list
    chart-sheet.png      a to-hit chart sheet PDF
    quick-reference.png  the first page of a quick-reference sheet
    booklet.png          a rules page of a player handout booklet (not its cover)
    roster.png           the first page of a player roster
    cards.png            the first page of a player card sheet

Files are found by pattern, so small changes in their names do not break the script; a kind whose
file is missing is skipped with a message. Site pages are served from 127.0.0.1 (scripts run) and
shot with Playwright driving /usr/bin/chromium; PDFs are rasterized with pypdfium2. PNGs are
reduced to a 256-colour palette with Pillow to keep them small.
"""

from __future__ import annotations

import argparse
import fnmatch
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from site_helpers import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, serve  # noqa: E402  the browser the tests use

PDF_WIDTH = 900  # px: reads well in a README at its usual column width
CHART_MAX_HEIGHT = 1400  # px: a chart section taller than this is cut (the top holds the key)

# Rulesets tried first, in order, when several files match a pattern; any other ruleset follows.
PREFER = ["rampant_hex", "warhammer_fantasy_charts", "ordo_ineptus", "city_of_the_damned_combat", "bad_moon_rising"]

# Site pages: (pattern under site/, preferred pages). The first existing page is shot.
SITE_PAGES = ["rampant_hex/combat.html", "rampant_hex/morale.html", "*/combat.html", "*/rules.html", "*/index.html"]
CHART_PAGES = ["warhammer_fantasy_charts/charts.html", "*/charts.html"]
CHART_HEADING = re.compile(r"to hit", re.I)  # the chart section's heading says this
CALCULATOR_PAGES = ["rampant_hex/calculators.html", "*/calculators.html"]
BUILDER_PAGES = ["rampant_hex/army-builder.html", "*/army-builder.html"]
CALCULATOR_PICKS = ("3", "3")  # the first values a player tries: a middling attack against a middling armour


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, default=ROOT / "build", help="build folder to read (default build/)")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "docs" / "pictures", help="folder for the PNGs (default docs/pictures/)"
    )
    args = parser.parse_args(argv)
    build: Path = args.build
    if not build.is_dir():
        print(f"pictures: no build folder at {build}; run `make build` first", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)

    made: list[str] = []
    skipped: list[str] = []

    def done(kind: str, png: bytes | None, source: str | None, why: str = "") -> None:
        if png is None:
            skipped.append(kind)
            print(f"  skip {kind:16} {why}")
            return
        target = args.out / f"{kind}.png"
        target.write_bytes(png)
        made.append(kind)
        print(f"  made {kind:16} {target}  ({len(png) // 1024} KB) from {source}")

    print(f"pictures: reading {build}, writing {args.out}")
    _site_pictures(build, done)
    _pdf_pictures(build, done)
    print(f"pictures: {len(made)} made, {len(skipped)} skipped" + (f" ({', '.join(skipped)})" if skipped else ""))
    return 0


# ---------------------------------------------------------------------------------------- site


def _site_pictures(build: Path, done) -> None:
    site = build / "site"
    kinds = ("site-phone", "site-desktop", "chart-site", "chart-phone", "calculator-phone", "army-builder-phone")
    if not site.is_dir():
        for kind in kinds:
            done(kind, None, None, f"no site folder at {site}")
        return
    page = _first_page(site, SITE_PAGES)
    chart = _first_page(site, CHART_PAGES)
    calculators = _first_page(site, CALCULATOR_PAGES)
    builder = _first_page(site, BUILDER_PAGES)
    if not CHROMIUM.exists():
        for kind in kinds:
            done(kind, None, None, f"{CHROMIUM} is missing (make browser)")
        return
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        for kind in kinds:
            done(kind, None, None, "playwright is not installed (pip install playwright)")
        return

    with serve(site) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            if page is None:
                done("site-phone", None, None, "no rules page found under site/")
                done("site-desktop", None, None, "no rules page found under site/")
            else:
                for kind, viewport in (("site-phone", PHONE), ("site-desktop", DESKTOP)):
                    tab = browser.new_page(viewport=viewport, device_scale_factor=1)
                    tab.goto(f"{url}/{page}", wait_until="networkidle")
                    done(kind, _small(tab.screenshot()), f"site/{page} at {viewport['width']} px")
                    tab.close()
            if chart is None:
                done("chart-site", None, None, "no charts page found under site/")
                done("chart-phone", None, None, "no charts page found under site/")
            else:
                for kind, width in (("chart-site", DESKTOP["width"]), ("chart-phone", PHONE["width"])):
                    tab = browser.new_page(viewport={"width": width, "height": 900}, device_scale_factor=1)
                    tab.goto(f"{url}/{chart}", wait_until="networkidle")
                    png, how = _chart_shot(tab)
                    done(kind, png, f"site/{chart} at {width} px ({how})", f"no to-hit chart table on site/{chart}")
                    tab.close()
            if calculators is None:
                done("calculator-phone", None, None, "no calculators page found under site/")
            else:
                tab = browser.new_page(viewport=PHONE, device_scale_factor=1)
                tab.goto(f"{url}/{calculators}", wait_until="networkidle")
                png, how = _calculator_shot(tab)
                done(
                    "calculator-phone", png, f"site/{calculators} at {PHONE['width']} px ({how})", "no roll calculator"
                )
                tab.close()
            if builder is None:
                done("army-builder-phone", None, None, "no army builder page found under site/")
            else:
                tab = browser.new_page(viewport={"width": PHONE["width"], "height": 1500}, device_scale_factor=1)
                tab.goto(f"{url}/{builder}", wait_until="networkidle")
                box = tab.locator(".rp-army-builder").bounding_box()
                clip = {"x": 0, "y": max(box["y"] - 8, 0), "width": PHONE["width"], "height": min(box["height"], 1400)}
                done("army-builder-phone", _small(tab.screenshot(clip=clip)), f"site/{builder} at {PHONE['width']} px")
                tab.close()
        finally:
            browser.close()


def _chart_shot(tab) -> tuple[bytes | None, str]:
    """The to-hit chart's section: its heading, key and table, cut at CHART_MAX_HEIGHT."""
    sections = tab.locator("section:has(table)").filter(has=tab.locator("h2", has_text=CHART_HEADING))
    # The innermost section holding both a "to hit" heading and a table; outer chapters hold all.
    for i in range(sections.count()):
        target = sections.nth(i)
        if target.locator("section").count():
            continue
        box = target.bounding_box()
        if not box or box["height"] < 20:
            continue
        heading = target.locator("h2").first.inner_text().strip()
        left = max(box["x"] - 16, 0)
        clip = {
            "x": left,
            "y": max(box["y"] - 8, 0),
            "width": min(box["width"] + 32, tab.viewport_size["width"] - left),
            "height": min(box["height"] + 16, CHART_MAX_HEIGHT),
        }
        return _small(tab.screenshot(full_page=True, clip=clip)), f"section {heading!r}"
    return None, ""


def _calculator_shot(tab) -> tuple[bytes | None, str]:
    """The first calculator whose answer is a roll (a table of chances), with CALCULATOR_PICKS picked."""
    forms = tab.locator("form.rp-calculator")
    for i in range(forms.count()):
        form = forms.nth(i)
        selects = form.locator(".rp-calc-inputs select")
        if selects.count() != len(CALCULATOR_PICKS):
            continue
        for index, label in enumerate(CALCULATOR_PICKS):
            options = selects.nth(index).locator("option").all_inner_texts()
            if label in options:
                selects.nth(index).select_option(label=label)
        if not form.locator("table.rp-calc-odds").count():
            continue
        if form.locator(".rp-calc-why summary").count():
            form.locator(".rp-calc-why summary").click()  # with its reasons open: why the numbers are these
        # the theme's bar and back-to-top button float over whatever is scrolled under them: not in the picture
        tab.add_style_tag(content=".mobile-header, .back-to-top { visibility: hidden !important; }")
        section = form.locator("xpath=ancestor::section[1]")  # the calculator's own section, not the page's
        section.scroll_into_view_if_needed()
        box = section.bounding_box()  # where the window shows it: the page is scrolled by scrollY above it
        top = box["y"] + tab.evaluate("window.scrollY")
        clip = {"x": 0, "y": max(top - 8, 0), "width": tab.viewport_size["width"], "height": box["height"] + 16}
        heading = section.locator("h2").first.inner_text().strip()
        return _small(tab.screenshot(full_page=True, clip=clip)), f"section {heading!r}"
    return None, ""


def _first_page(site: Path, patterns: list[str]) -> str | None:
    pages = sorted(p.relative_to(site).as_posix() for p in site.glob("*/*.html"))
    for pattern in patterns:
        hits = _prefer([p for p in pages if fnmatch.fnmatch(p, pattern)])
        if hits:
            return hits[0]
    return None


# ---------------------------------------------------------------------------------------- PDFs

# kind: (folder, patterns tried in order, which page: "first" or "rules")
PDF_KINDS = {
    "chart-sheet": (
        "sheets",
        ["warhammer*to-hit*a4*.pdf", "*to-hit*a4*.pdf", "*to-hit*.pdf", "*chart*a4*.pdf"],
        "first",
    ),
    "quick-reference": ("sheets", ["*quick-reference*a4*.pdf", "*quick-reference*.pdf"], "first"),
    "booklet": ("handouts", ["*handout-a4*.pdf", "*handout*a4*.pdf", "*handout*.pdf"], "rules"),
    "roster": ("handouts", ["*roster-a4*.pdf", "*roster*a4*.pdf", "*roster*.pdf"], "first"),
    "cards": ("handouts", ["*cards-a4*.pdf", "*cards*a4*.pdf", "*cards*.pdf"], "first"),
}


def _pdf_pictures(build: Path, done) -> None:
    try:
        import pypdfium2 as pdfium
    except ImportError:
        for kind in PDF_KINDS:
            done(kind, None, None, "pypdfium2 is not installed (pip install pypdfium2)")
        return
    for kind, (folder, patterns, which) in PDF_KINDS.items():
        pdf = _pick_pdf(build / folder, patterns)
        if pdf is None:
            done(kind, None, None, f"no file matching {patterns[0]} in {build / folder}")
            continue
        doc = pdfium.PdfDocument(pdf)
        try:
            index = _rules_page(doc) if which == "rules" else 0
            page = doc[index]
            scale = PDF_WIDTH / page.get_width()
            image = page.render(scale=scale).to_pil()
            done(kind, _small(image), f"{folder}/{pdf.name} page {index + 1} of {len(doc)}")
        finally:
            doc.close()


def _pick_pdf(folder: Path, patterns: list[str]) -> Path | None:
    """The first PDF matching a pattern, player editions (no ``-gm``) first, preferred rulesets first."""
    if not folder.is_dir():
        return None
    files = sorted(folder.glob("*.pdf"))
    for pattern in patterns:
        hits = [f for f in files if fnmatch.fnmatch(f.name, pattern)]
        player = [f for f in hits if "-gm" not in f.name]
        hits = _prefer(player or hits, key=lambda f: f.name)
        if hits:
            return hits[0]
    return None


def _rules_page(doc) -> int:
    """A page that shows rules: the page after the cover with the most text among the next few."""
    if len(doc) < 2:
        return 0
    best, best_chars = 1, -1
    for index in range(1, min(len(doc), 5)):
        textpage = doc[index].get_textpage()
        chars = len(textpage.get_text_range().strip())
        textpage.close()
        if chars > best_chars:
            best, best_chars = index, chars
    return best


# ---------------------------------------------------------------------------------------- shared


def _prefer(items: list, key=lambda s: s) -> list:
    def rank(item) -> tuple[int, str]:
        name = key(item)
        for i, ruleset in enumerate(PREFER):
            if name == ruleset or name.startswith(ruleset + "/") or name.startswith(ruleset + "-"):
                return i, name
        return len(PREFER), name

    return sorted(items, key=rank)


def _small(image) -> bytes:
    """A PNG reduced to a 256-colour palette when Pillow is there; else the PNG as it came."""
    try:
        from PIL import Image
    except ImportError:
        if isinstance(image, bytes):
            return image
        raise SystemExit("pictures: Pillow is needed to write rasterized PDF pages") from None
    if isinstance(image, bytes):
        image = Image.open(io.BytesIO(image))
    image = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


if __name__ == "__main__":
    sys.exit(main())
