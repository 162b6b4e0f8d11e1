"""PDF rendering shared by cheat sheets and handouts: sandboxed, deterministic WeasyPrint.

* The fetcher reads only ``file:`` URLs inside the project or the package's default
  templates (and ``data:``); anything else — the network, ``/etc/hostname`` — is
  refused and reported as a located ``resource-outside`` diagnostic, pointing at where
  the HTML or template names it.
* Output is deterministic: no creation date unless ``SOURCE_DATE_EPOCH`` sets one,
  a fixed document identifier, and font subsets stamped with that date (not the render's time,
  as fontTools does without HarfBuzz-Subset), so the same sources give byte-identical PDFs.
* Every PDF is tagged (WeasyPrint's ``pdf_tags``): a structure tree of headings, paragraphs, lists and tables (a
  data cell tied to its column's header cell), marked as such, so a screen reader reads a sheet or handout as it
  reads the web page. An element that prints no text but names itself in HTML (``aria-label``, else ``title``: an
  empty write-in box's "not given in the source") has that name as its alternate description (``/Alt``), so the
  reader says it where the box stands. Not claimed as PDF/UA (``pdf_variant="pdf/ua-1"``): no validator here
  checks it.
* Templates are Jinja2 in its immutable sandbox (:mod:`.jinja`), with ``StrictUndefined`` and
  autoescaping, so a missing value fails loudly and text from data can never become markup.
"""

from __future__ import annotations

import ctypes.util
import dataclasses
import functools
import hashlib
import os
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlparse

from ..diagnostics import Code, Diagnostic, Location
from .assets import PROJECT_TEMPLATES, default_templates, readable, template_path
from .present import last_words_together, minus_signs


@functools.cache
def weasyprint_module():
    """WeasyPrint, imported once per process. It loads each C library by trying five names, one per system's way of
    naming it, and cffi looks each name it cannot open up with ctypes' ``find_library``, which on Linux runs
    ldconfig, gcc and ld: some eighty processes and 0.15 s in every process that renders. Each list also holds the
    library's Linux soname, which opens directly, so on Linux the look-up finds nothing while WeasyPrint loads."""
    if not sys.platform.startswith("linux"):
        import weasyprint

        return weasyprint
    look_up = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    try:
        import weasyprint
    finally:
        ctypes.util.find_library = look_up
    return weasyprint


class RenderRefused(Exception):
    """A render refused with located diagnostics: the build fails and leaves build/ as it was."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.format() for d in diagnostics))
        self.diagnostics = diagnostics

    def __reduce__(self):  # from a process pool's worker with its diagnostics, not their text
        return type(self), (self.diagnostics,)


def all_refused(refusals: list[RenderRefused]) -> RenderRefused:
    """The renders refused in one build as one refusal, each one's diagnostics told: the author learns of every
    sheet too long for its page in one run, not one a build."""
    kinds = {type(refused) for refused in refusals}
    kind = kinds.pop() if len(kinds) == 1 else RenderRefused
    return kind([diagnostic for refused in refusals for diagnostic in refused.diagnostics])


class ResourceOutside(RenderRefused):
    """A template or stylesheet named a resource outside the project."""


class SheetOverflow(RenderRefused):
    """A one-page sheet whose layout took more than one page."""


def _make_fetcher(root: Path, refused: list[str]):
    weasyprint_module()
    from weasyprint.urls import URLFetcher

    class SandboxedFetcher(URLFetcher):
        """Reads files inside ``root`` or the default templates, and data: URLs; refuses
        everything else. A templates/ file the project lacks is read from the defaults."""

        def fetch(self, url, headers=None):
            parsed = urlparse(url)
            if parsed.scheme == "data":
                return super().fetch(url, headers)
            if parsed.scheme == "file":
                path = readable(Path(unquote(parsed.path)), root)
                if path is not None:
                    return super().fetch(path.as_uri(), headers)
            refused.append(url)
            raise ValueError(f"rulepress refuses to fetch {url}: outside the project")

    return SandboxedFetcher(allowed_protocols=("file", "data"))


@dataclass
class PdfJob:
    """One PDF to render: HTML text, where relative URLs resolve, and where it came from."""

    html: str
    target: Path
    base_dir: Path  # relative URLs in the HTML resolve against this folder
    template: str = ""  # project-relative path of the template, for located errors
    title: str = ""
    stylesheets: tuple[Path, ...] = field(default_factory=tuple)
    # CSS texts for a one-page sheet: the first is the planned type; when the page overflows with it,
    # the second (smaller type) is laid out instead. At most one extra layout, never a search.
    fit: tuple[str, ...] = ()
    # A sheet meant for one page: the error it is when laid out on more (its message says `{pages}`
    # where the page count goes); None for a document of any length.
    overflow: Diagnostic | None = None
    # Rows that grow to use the page their one-page sheet leaves empty (see RowFill); None: as laid out.
    fill: RowFill | None = None
    # A document whose last page would hold a line or two is laid out again with each of these classes on its
    # <body> in turn (its stylesheet says what each sets closer or keeps together) while it still would; the layout
    # that takes the fewest pages, then leaves the most on its last, is kept. (): as laid out.
    tighter: tuple[str, ...] = ()


@dataclass(frozen=True)
class RowFill:
    """Rows of a one-page sheet that share the room its first layout leaves at the page's foot.

    The HTML marks where its content ends with an element of id `END_ANCHOR` and the foot of the page area with one
    of id `FOOT_ANCHOR` (fixed at its bottom); the room between them, measured on the first layout, goes to the
    ``rows`` rows ``selector`` names, each ``height_mm`` tall as the stylesheet sets them, up to ``most_mm``. A second
    layout that would take a second page is not kept: the first is."""

    selector: str
    rows: int
    height_mm: float
    most_mm: float
    # the type in those rows, (selector, size in pt): it grows with them, by the square root of their growth (a cell
    # twice as tall prints its numbers 1.41 times as large), up to TYPE_GROWTH
    type_pt: tuple[tuple[str, float], ...] = ()


END_ANCHOR, FOOT_ANCHOR = "rp-content-end", "rp-page-foot"
PX_PER_MM = 96 / 25.4  # WeasyPrint lays out in CSS pixels


def _created() -> str | None:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return None
    return datetime.fromtimestamp(int(epoch), tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _shown(path: Path, root: Path) -> str:
    """A project-relative name for a file of the project or of the default templates."""
    if path.is_relative_to(root):
        return path.relative_to(root).as_posix()
    return f"{PROJECT_TEMPLATES}/{path.relative_to(default_templates()).as_posix()}"


def _locate(url: str, job: PdfJob, root: Path) -> Location:
    """Where the refused URL is written: in the template if found there, a stylesheet, a template of the project's
    that the template extends or includes (its `base.html.j2`), else the HTML."""
    needle = url.removeprefix("file://")
    own = job.template.removeprefix(f"{PROJECT_TEMPLATES}/")
    candidates = [(template_path(root, own), job.template)] if job.template else []
    candidates += [(s, _shown(s, root)) for s in job.stylesheets]
    folder = Path(root) / PROJECT_TEMPLATES
    if folder.is_dir() and not folder.is_symlink():
        theirs = sorted(p for p in folder.rglob("*.j2") if p.is_file() and not p.is_symlink())
        candidates += [(p, f"{PROJECT_TEMPLATES}/{p.relative_to(folder).as_posix()}") for p in theirs]
    for path, shown in candidates:
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            for guess in (url, needle, Path(needle).name):
                index = text.find(guess)
                if index >= 0:
                    line = text.count("\n", 0, index) + 1
                    return Location(shown, line, index - (text.rfind("\n", 0, index) + 1) + 1)
    return Location(job.template or str(job.target.name), 1, 1)


def dated(html: str) -> str:
    """The HTML with SOURCE_DATE_EPOCH as its creation date, read in the calling process
    (pool workers keep the environment they were started with)."""
    created = _created()
    if created and "dcterms.created" not in html:
        html = html.replace("<head>", f'<head><meta name="dcterms.created" content="{created}">', 1)
    return html


def render_pdf(job: PdfJob, root: Path) -> Path:
    """Render one job to its target; raise ResourceOutside if it named anything outside."""
    weasyprint = weasyprint_module()
    from . import columns  # deferred with WeasyPrint, which it imports

    columns.install()
    _describe_wordless_elements()

    root = root.resolve()
    refused: list[str] = []
    fetcher = _make_fetcher(root, refused)
    html = last_words_together(minus_signs(dated(job.html)))
    base_url = job.base_dir.resolve().as_uri() + "/"
    document = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher)
    stylesheets = [weasyprint.CSS(filename=str(s), url_fetcher=fetcher) for s in job.stylesheets]
    rendered = _fitted(document, stylesheets, job.fit) if job.fit else document.render(stylesheets=stylesheets)
    if job.fill is not None and not job.fit and len(rendered.pages) == 1:  # a sheet of planned type is full
        rendered = _filled(document, stylesheets, job, rendered)
    for name in job.tighter:
        if not _ends_near_its_top(rendered):
            break
        tight = _with_body_class(html, name)
        again = weasyprint.HTML(string=tight, base_url=base_url, url_fetcher=fetcher).render(stylesheets=stylesheets)
        if _fuller_end(again) > _fuller_end(rendered):
            rendered = again
    shown = continued_rows(rendered)
    if shown and not labels_shown_in_place(rendered, shown):  # the same layout again, the labels shown by CSS
        labels = ", ".join(f"#{row} .{CONTINUED}" for row in shown) + " { visibility: visible; }"
        rendered = document.render(stylesheets=[*stylesheets, weasyprint.CSS(string=labels)])
    if refused:
        raise ResourceOutside(
            [
                Diagnostic(
                    Code.RESOURCE_OUTSIDE,
                    f"`{url}` is outside the project; rendering refused it",
                    _locate(url, job, root),
                )
                for url in dict.fromkeys(refused)
            ]
        )
    if job.overflow is not None and len(rendered.pages) > 1:
        raise SheetOverflow(
            [
                dataclasses.replace(
                    job.overflow, message=job.overflow.message.replace("{pages}", str(len(rendered.pages)))
                )
            ]
        )
    identifier = hashlib.md5(html.encode("utf-8")).hexdigest().encode()
    _fixed_font_dates()
    job.target.parent.mkdir(parents=True, exist_ok=True)
    rendered.write_pdf(job.target, pdf_identifier=identifier, pdf_tags=True)
    return job.target


TAGS_FROM_VERSION = "70.0"  # the WeasyPrint whose tagging `_describe_wordless_elements` wraps
LABELS_FROM_VERSION = "70.0"  # the WeasyPrint whose drawing and backgrounds `labels_shown_in_place` was read from


@functools.cache
def _describe_wordless_elements() -> bool:
    """Give each structure element WeasyPrint tags for an HTML element that prints no text of its own (its
    element holds no content) the element's name in HTML, ``aria-label`` else ``title``, as its ``/Alt``: the
    gap's empty box is read "not given in the source" where it stands, not skipped (a row "Lancers, 3 hexes"
    then heard as 3 points). WeasyPrint 70 gives ``/Alt`` to images only. Wraps its private ``_build_box_tree``,
    which calls itself through its module, so every box passes here; False (tags without names) for a WeasyPrint
    other than the one it was taken from."""
    weasyprint = weasyprint_module()
    if weasyprint.__version__ != TAGS_FROM_VERSION:
        return False
    import pydyf
    from weasyprint.css import AnonymousStyle
    from weasyprint.layout.absolute import AbsolutePlaceholder
    from weasyprint.pdf import tags

    build = tags._build_box_tree

    def build_box_tree(box, *args):
        for element in build(box, *args):
            own = box._box if isinstance(box, AbsolutePlaceholder) else box
            html, tag = own.element, own.element_tag or ""
            if (
                html is not None
                and tag not in ("html", "body")
                and "::" not in tag  # a pseudo-element's box has its element's
                and not isinstance(own.style, AnonymousStyle)  # so has an anonymous box
                and element["S"] == f"/{tags._get_pdf_tag(tag)}"  # this box's element, not a child's or a wrapper
                and not element["K"]
                and "Alt" not in element
            ):
                name = " ".join(html.get("aria-label", html.get("title", "")).split())
                if name:
                    element["Alt"] = pydyf.String(name)
            yield element

    tags._build_box_tree = build_box_tree
    return True


def _fitted(document, stylesheets, fit: tuple[str, ...]):
    """The document laid out with ``fit[0]``; if that takes more than one page, with ``fit[1]`` instead
    (still more than one is the job's ``overflow`` error, never a silent second page).

    The sheet plans its type from the length of its text (see sheets.quick_reference_sheet), so the
    first layout is nearly always kept: one layout, at most two, however long the text.
    """
    weasyprint = weasyprint_module()

    def render(css):
        return document.render(stylesheets=[*stylesheets, weasyprint.CSS(string=css)])

    rendered = render(fit[0])
    if len(rendered.pages) > 1 and len(fit) > 1:
        rendered = render(fit[1])
    return rendered


def _filled(document, stylesheets, job: PdfJob, rendered):
    """The one-page layout with its rows grown into the room it left at the page's foot (`RowFill`)."""
    weasyprint = weasyprint_module()

    anchors = rendered.pages[0].anchors
    if END_ANCHOR not in anchors or FOOT_ANCHOR not in anchors:
        return rendered
    room_mm = (anchors[FOOT_ANCHOR][1] - anchors[END_ANCHOR][1]) / PX_PER_MM
    fill = job.fill
    height = min(fill.most_mm, fill.height_mm + FILL_SHARE * room_mm / fill.rows)
    if height - fill.height_mm < 0.5:  # nothing worth a second layout
        return rendered
    grown = f"{fill.selector} {{ height: {height:.2f}mm; }}"
    factor = min(TYPE_GROWTH, (height / fill.height_mm) ** 0.5)
    grown += "".join(f" {selector} {{ font-size: {size * factor:.2f}pt; }}" for selector, size in fill.type_pt)
    again = document.render(stylesheets=[*stylesheets, weasyprint.CSS(string=grown)])
    return again if len(again.pages) == 1 else rendered


NEAR_TOP = 0.25  # of a page's height: a last page whose content ends above this holds a line or two


def _ends_near_its_top(rendered) -> bool:
    """Whether a document of several pages ends near the top of its last page (where its `END_ANCHOR` stands)."""
    last = rendered.pages[-1]
    return (
        len(rendered.pages) > 1 and END_ANCHOR in last.anchors and last.anchors[END_ANCHOR][1] < NEAR_TOP * last.height
    )


def _fuller_end(rendered) -> tuple[int, float]:
    """How well a layout ends: fewer pages first, then more on its last page (its end lower down)."""
    end = rendered.pages[-1].anchors.get(END_ANCHOR, (0, 0))
    return -len(rendered.pages), end[1]


# Rows that carry one thing across pages (a roster's line of many units, a row of boxes a unit): each has an id
# ROW_GROUP + "<group>-<row>", row 0 the group's first, and each row after it an element of class CONTINUED (the
# thing's name, "continued") that its stylesheet lays out hidden.
ROW_GROUP, CONTINUED = "rp-row-", "continued"


def continued_rows(rendered) -> list[str]:
    """The ids of the rows whose CONTINUED label is to be seen: the first row of a group on each page after the one it
    starts on (a page that opens with the group's row 0 needs none)."""
    shown = []
    for page in rendered.pages:
        first: dict[str, tuple[int, str]] = {}
        for anchor in page.anchors:
            if anchor.startswith(ROW_GROUP):
                group, _, row = anchor.rpartition("-")
                first[group] = min(first.get(group, (int(row), anchor)), (int(row), anchor))
        shown += [anchor for row, anchor in first.values() if row > 0]
    return shown


def labels_shown_in_place(rendered, rows: list[str]) -> bool:
    """Show the CONTINUED labels of these rows in the layout as it stands, as `#row .continued { visibility: visible }`
    would, without laying the document out again (a long roster's second layout was most of its time).

    Visibility moves no box: WeasyPrint reads it when drawing, and when laying out a box's background, which a hidden
    box has none of. So the flip is exact unless a label would show a background or shadow of its own; then, and in a
    WeasyPrint other than the one this was read from, nothing is changed and False is returned (lay out again). A box
    inside a label that sets its own visibility keeps it, as with the CSS."""
    weasyprint = weasyprint_module()
    if weasyprint.__version__ != LABELS_FROM_VERSION:
        return False
    flips = [box for page in rendered.pages for box in _label_boxes(page._page_box, frozenset(rows))]
    if any(_shows_a_background(box.style) for box in flips):
        return False
    for box in flips:
        box.style["visibility"] = "visible"
    return True


def _label_boxes(box, rows: frozenset[str], in_row: bool = False, in_label: bool = False):
    """The boxes a CONTINUED label inside one of ``rows`` draws: the label's own and those inheriting its visibility."""
    element = box.element
    if element is not None:
        in_row = in_row or element.get("id") in rows
        if in_row and "::" not in box.element_tag and CONTINUED in element.get("class", "").split():
            in_label = True
        elif in_label and "visibility" in getattr(box.style, "cascaded", {}):  # an anonymous box's style has none
            in_label = False  # its own visibility, kept
    if in_label:
        yield box
    for child in getattr(box, "children", ()):
        yield from _label_boxes(child, rows, in_row, in_label)


def _shows_a_background(style) -> bool:
    from weasyprint.draw.color import get_color  # deferred with WeasyPrint

    return (
        get_color(style, "background_color").alpha != 0
        or any(kind != "none" for kind, _ in style["background_image"])
        or bool(style["box_shadow"])
    )


def _with_body_class(html: str, name: str) -> str:
    """The HTML with ``name`` added to its <body>'s classes."""
    if '<body class="' in html:
        return html.replace('<body class="', f'<body class="{name} ', 1)
    return html.replace("<body", f'<body class="{name}"', 1)


TYPE_GROWTH = 1.3  # the most a grown row's type grows: a chart's numbers, not a poster's
FILL_SHARE = 0.97  # of the room left: borders and rounding take the rest, and a row grown too far costs a page


def _fixed_font_dates() -> None:
    """Without HarfBuzz-Subset, WeasyPrint subsets fonts with fontTools, which stamps each subset's
    ``head.modified`` with the time of the render: two renders then differ. Stamp it with
    SOURCE_DATE_EPOCH if set, else 1904-01-01 (the format's zero)."""
    try:
        from fontTools.misc.timeTools import timestampSinceEpoch
        from fontTools.ttLib.tables import _h_e_a_d
    except ImportError:  # pragma: no cover - WeasyPrint always brings fontTools
        return
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    stamp = timestampSinceEpoch(int(epoch)) if epoch.isdigit() else 0
    _h_e_a_d.timestampNow = lambda: stamp


def worker_render(args) -> tuple[str, float]:
    """Process-pool entry point: render and return (target, seconds)."""
    import time

    _quiet()
    job, root = args
    start = time.perf_counter()
    render_pdf(job, root)
    return str(job.target), time.perf_counter() - start


def _quiet() -> None:
    """A Sphinx build in the same worker turns on INFO logging: WeasyPrint's progress and the font
    subsetter's thousands of lines are noise in a build's output."""
    import logging

    for name in ("weasyprint", "weasyprint.progress", "fontTools"):
        logging.getLogger(name).setLevel(logging.WARNING)


def _warm_worker() -> None:
    weasyprint_module()  # once per worker, not once per PDF

    _quiet()


def render_all(jobs: list[PdfJob], root: Path, workers: int | None = None, on_done=None) -> list[tuple[str, float]]:
    """Render every job; with ``workers`` > 1 in a process pool. Returns (target, seconds) per job."""
    if not jobs:
        return []
    on_done = on_done or (lambda result: None)
    jobs = [dataclasses.replace(job, html=dated(job.html)) for job in jobs]
    workers = workers if workers is not None else min(len(jobs), os.cpu_count() or 1)
    results = []
    if workers <= 1 or len(jobs) == 1:
        for job in jobs:
            results.append(worker_render((job, root)))
            on_done(results[-1])
        return results
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_warm_worker) as pool:
        for result in pool.map(worker_render, [(job, root) for job in jobs], chunksize=1):
            results.append(result)
            on_done(result)
    return results
