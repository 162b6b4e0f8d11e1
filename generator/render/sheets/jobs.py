"""One-page cheat sheets: PDF jobs (A4 and US Letter) and MyST pages for the rules website.

Which sheets exist depends on the project: every ``sheets:`` entry of a ruleset (its
charts computed from the ruleset's formulas), a victory-point checklist with every
ruleset that has victory points (a player and a game-master version) and a quick
reference with every ruleset that is a game (not ``kind: base``). Chart data comes from
:mod:`charts`, :mod:`quickref` and :mod:`victory` (no HTML there);
the Jinja2 templates in ``templates/sheets/`` (the project's, else the defaults) only lay it out.

The pipeline calls :func:`sheet_jobs` and renders the jobs with
:func:`~generator.render.pdf.render_all`; the site calls :func:`sheet_pages`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType, SimpleNamespace

from ...diagnostics import Code, Diagnostic, Location
from ...keys import generator_hash, ruleset_key
from ...model.base import NOWHERE
from ...model.entries import visible_to
from ...model.ruleset import Ruleset
from ...source.project import Project
from ..assets import PROJECT_TEMPLATES, template_path
from ..imprint import imprint
from ..jinja import Renderings, render
from ..pdf import PdfJob, RowFill
from ..present import cites_a_source, source_title
from ..prose import Prose
from . import charts, tables, widths
from .pages import sheet_markdown
from .quickref import GAP, cite, marked, marked_entries, quick_reference, visible
from .victory import HIDDEN_TASK, has_victory_points, victory_checklist

STYLESHEET = "print-base.css"  # under templates/
IMPRINT_STYLESHEET = "imprint.css"  # the small print of every sheet and handout (templates/imprint.html.j2)
# A sheet's last line says how its chances were found, in the players' words (no tool is named); a sheet with no
# chances (the victory-point checklist) has none.
CHANCES_NOTE = "Every chance here is worked out exactly from the rules, and rounded only for print."


def chances_note(sheet: Sheet) -> str:
    """The note for a sheet that prints a chance: none for one that prints none (a chart of results in words, a
    table whose chances vary with a modifier, a checklist), which the note would promise."""
    return CHANCES_NOTE if prints_chances(sheet) else ""


def prints_chances(sheet: Sheet) -> bool:
    context = sheet.context
    ref = context.get("ref")
    charts = [*context.get("charts", ()), *(chart for group in getattr(ref, "keys", ()) for chart in group.charts)]
    tables = [*context.get("tables", ()), *getattr(ref, "tables", ())]
    tables += [table for _group, listed in getattr(ref, "chapters", ()) for table in listed]
    in_charts = any(cell.chance for chart in charts for row in chart.rows for cell in row.cells)
    return in_charts or any(line.chance and line.chance[:1].isdigit() for t in tables for line in t.lines)


@dataclass(frozen=True)
class Paper:
    id: str  # in file names
    css_size: str  # for @page size
    width_pt: int
    height_pt: int


PAPERS = (Paper("a4", "A4", 595, 842), Paper("letter", "letter", 612, 792))


def papers_of(settings) -> tuple[Paper, ...]:
    """The paper sizes a project prints on (``papers:`` of its rulepress.yaml), in its order."""
    return tuple(paper for key in settings.papers for paper in PAPERS if paper.id == key)


@dataclass(frozen=True)
class Sheet:
    name: str  # file stem without the paper: "<ruleset>-to-wound", "<ruleset>-victory-points-gm"
    page: str  # page name on the site; the gm and player versions share it
    title: str
    template: str  # under templates/
    sources: tuple[str, ...]
    context: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    audience: str = "player"
    subtitle: str = ""
    layout: str = ""  # CSS class for the sheet's layout
    type_pt: float = 0  # planned body size on A4 of a sheet fitted to one page (see PdfJob.fit); 0: as the CSS says
    page_title: str = ""  # heading of the site page, when the title alone is not enough
    ruleset: str = ""  # the ruleset the sheet belongs to
    written_at: Location = NOWHERE  # the YAML that asks for the sheet: its `sheets:` entry, or the ruleset
    marks: tuple[str, ...] = ()  # what the author put on it (`charts `x``...), named when it does not fit its page
    overflow_hint: str = ""  # what its author can do when it does not fit, where the code's own hint is not that

    @property
    def heading(self) -> str:
        return self.page_title or self.title


def _rule(ruleset: Ruleset, rule_id: str):
    try:
        rule = ruleset.rule(rule_id)
    except KeyError:
        return None
    return rule if visible(rule) else None


def _sources(ruleset: Ruleset, *rule_ids: str) -> tuple[str, ...]:
    """Source lines of the cited rules, skipping rules the ruleset lacks or hides.

    The first names the ruleset (`Title § Section`); the rest only add their section.
    """
    lines: list[str] = []
    for rule_id in rule_ids:
        rule = _rule(ruleset, rule_id)
        if rule is None:
            continue
        line = cite(rule, ruleset)
        if lines and rule.source and rule.source.section:
            line = f"§ {rule.source.section.rstrip('.')}"
        if not any(known.endswith(line) for known in lines):
            lines.append(line)
    return tuple(lines)


def sheet_stem(ruleset: Ruleset, sheet_id: str) -> str:
    """``<ruleset id>-<sheet id with - for _>``: the file and page name of a data sheet."""
    return f"{ruleset.id}-{sheet_id.replace('_', '-')}"


def data_sheets(ruleset: Ruleset) -> list[Sheet]:
    """Every ``sheets:`` entry of the ruleset: its charts, roll tables, notes and cited sources on one page.

    Its roll tables, under its charts, have their type planned to fill the page (see :mod:`.tables`); a sheet of
    charts alone has its chart rows grown into the room its page leaves (`row_fill`). A sheet of roll tables alone
    has the `tables` layout: the entry's `layout:` is how its charts are set."""
    found = []
    for entry in ruleset.sheets:
        name = sheet_stem(ruleset, entry.id) + ("-gm" if entry.audience == "gm" else "")
        # a chart's words as large as its columns take (`words_pt`)
        charts_ = tuple(
            replace(chart, words_pt=words_pt(chart, entry.layout)) for chart in charts.charts_of(ruleset, entry.charts)
        )
        tables_ = tables.sheet_tables(ruleset, entry.tables)
        alone = bool(tables_) and not charts_
        least = ROW_HEIGHTS_MM.get(entry.layout, ROW_HEIGHTS_MM["stack"])[0]
        taken = tables.charts_height_mm(charts_, least)  # the charts above its tables, at their rows' least heights
        sources = _sources(ruleset, *entry.cites) or ((source_title(ruleset),) if cites_a_source(ruleset) else ())
        found.append(
            Sheet(
                name,
                name,
                entry.title,
                "sheets/charts.html.j2",
                sources,
                MappingProxyType(
                    {
                        "charts": charts_,
                        "tables": tables_,
                        "table_columns": tables.columns(tables_, len(entry.notes), taken),
                        "charts_mm": taken,
                        "extras": tuple(str(n) for n in entry.notes),
                        "uses": charts.legend_uses(charts_),
                    }
                ),
                audience=entry.audience,
                subtitle=ruleset.title,
                layout=TABLES_LAYOUT if alone else entry.layout,
                type_pt=tables.planned_pt(
                    tables_, PAPERS[0].width_pt, PAPERS[0].height_pt, len(entry.notes), taken_mm=taken
                )
                if tables_
                else 0,
                page_title=f"{ruleset.title}: {entry.title}",
                ruleset=ruleset.id,
                written_at=entry.loc,
                marks=tuple(f"charts `{c}`" for c in entry.charts)
                + tuple(f"tables `{t}`" for t in entry.tables)
                + _notes(entry.notes),
                overflow_hint=_data_sheet_hint(entry),
            )
        )
    return found


TABLES_LAYOUT = "tables"  # a sheet of roll tables alone (print-base.css `.sheet.tables`)


def _data_sheet_hint(entry) -> str:
    """What the author of a `sheets:` entry too long for its page can do: the quick reference's marks are no part
    of it."""
    listed = " or ".join(kind for kind, ids in (("charts", entry.charts), ("roll tables", entry.tables)) if ids)
    notes = ", shorten its `notes:`" if entry.notes else ""
    return (
        f"list fewer {listed} in `{entry.id}`{notes}, or split it into two `sheets:` entries, each with a part of "
        "them (each prints on a page of its own)"
    )


def _notes(notes) -> tuple[str, ...]:
    return (f"{len(notes)} {'note' if len(notes) == 1 else 'notes'}",) if notes else ()


def victory_sheets(ruleset: Ruleset) -> list[Sheet]:
    if not has_victory_points(ruleset):
        return []
    sheets = []
    player, gm = victory_checklist(ruleset, "player"), victory_checklist(ruleset, "gm")
    # a game-master's checklist only where it names more than the players' (hidden tasks, gm-only entries)
    audiences = ("player", "gm") if player.groups != gm.groups else ("player",)
    for audience in audiences:
        checklist = gm if audience == "gm" else player
        suffix = "-gm" if audience == "gm" else ""
        sheets.append(
            Sheet(
                f"{ruleset.id}-victory-points{suffix}",
                f"{ruleset.id}-victory-points",
                "Victory points checklist" + (f" ({ruleset.game_master()})" if audience == "gm" else ""),
                "sheets/victory-points.html.j2",
                checklist.sources,
                MappingProxyType(
                    {"checklist": checklist, "hidden_task": HIDDEN_TASK, "game_master": ruleset.game_master()}
                ),
                audience=audience,
                subtitle=ruleset.title,
                layout="checklist",
                page_title=f"{ruleset.title}: victory points checklist",
                ruleset=ruleset.id,
                written_at=ruleset.victory_points[0].loc,
                marks=tuple(f"victory_points `{v.id}`" for v in ruleset.victory_points if visible_to(v, audience)),
            )
        )
    return sheets


QUICKREF_MIN_PT, QUICKREF_MAX_PT = 8.0, 12.0  # body type of a quick reference, never below 8 pt
QUICKREF_FALLBACK = 0.9  # when the planned type overflows the page, the one extra layout is this much smaller


def quickref_type(ref) -> float:
    """The body size (pt, A4) at which the reference's text about fills its page, from its estimated lines.

    Printed area grows with the square of the type, so the size goes with the square root of the
    room over the text. One number per sheet, planned before any layout: no search.
    """
    needed = ref.estimated_lines()  # lines of 8 pt text in one half-page column, both columns together
    room = 2 * QUICKREF_LINES_AT_8PT
    size = QUICKREF_MIN_PT * (room / max(needed, 1)) ** 0.5
    return round(min(QUICKREF_MAX_PT, max(QUICKREF_MIN_PT, size)), 1)


QUICKREF_LINES_AT_8PT = 60  # lines of 8 pt text one A4 column holds under the sheet's heading


def fit_css(sheet: Sheet, paper: Paper) -> tuple[str, ...]:
    """The planned type for this paper and the smaller one tried if it overflows (see PdfJob.fit)."""
    if not sheet.type_pt:
        return ()
    if sheet.context.get("tables"):  # planned on this paper's own page; the smallest type where it overflows
        context = sheet.context
        planned = tables.planned_pt(
            context["tables"],
            paper.width_pt,
            paper.height_pt,
            len(context["extras"]),
            context["table_columns"],
            context["charts_mm"],
        )
        return tuple(
            f".sheet.{sheet.layout} .roll-tables {{ font-size: {size:g}pt; }}"
            for size in dict.fromkeys((planned, tables.MIN_PT))
        )
    scale = (paper.width_pt * paper.height_pt / (PAPERS[0].width_pt * PAPERS[0].height_pt)) ** 0.5
    planned = max(QUICKREF_MIN_PT, round(sheet.type_pt * scale, 1))
    fallback = max(QUICKREF_MIN_PT, round(planned * QUICKREF_FALLBACK, 1))
    return tuple(f".sheet.{sheet.layout} {{ font-size: {size:g}pt; }}" for size in dict.fromkeys((planned, fallback)))


# A chart's rows as the default stylesheet sets them (templates/print-base.css, `.sheet.<layout> table.chart td`), and
# the most they grow to when the page leaves room: a chart sheet uses its page (a chart of six rows makes a big one,
# to read across the table). The game-master's victory-point overview (a column of points per player) grows its lines
# the same way.
ROW_HEIGHTS_MM = {"grid": (12.5, 32.0), "wide": (11.0, 24.0), "stack": (6.0, 14.0)}
# a chart cell's type as print-base.css sets it in each layout (pt): a target, a chance under it, a chance alone
CELL_TYPE_PT = {"grid": (12.0, 8.0, 9.5), "wide": (10.0, 8.0, 9.5), "stack": (9.0, 8.0, 9.5)}
OVERVIEW_ROW_MM = (8.0, 13.0)
# a chart's columns as print-base.css sets them in each layout (mm): its corner column, with its padding, and the
# padding either side of a cell; and the thickest border a cell has (pt: a marked cell's frame)
CORNER_MM = {"grid": 18.2, "wide": 16.2, "stack": 18.2}
CELL_PADDING_MM = {"grid": 0.3, "wide": 0.1, "stack": 0.3}
FRAME_PT = 1.8
WORDS_MIN_PT = 7.0  # a chart's words print no smaller: a word too wide even so breaks inside its cell (print-base.css)
WORDS_FULL = 0.95  # of a column's width its widest word may take: kerning and rounding take the rest


def words_pt(chart: charts.Chart, layout: str) -> float:
    """The size a chart's words (`Cell.words`: `Glancing blow`) print at on a sheet of this layout: 0 (its layout's own,
    `CELL_TYPE_PT`) where its widest word fits its column on the narrowest paper at that size, else the size at which
    it fits, never below `WORDS_MIN_PT`. Words keep that size as the rows grow (`row_fill`); an impossible cell's word
    has its own small size."""
    cells = [cell for row in chart.rows for cell in row.cells if cell.words and cell.tone != "none"]
    if not cells or layout not in CELL_TYPE_PT:
        return 0.0
    widest = max(widths.longest_word_em(cell.text, bold=cell.tone == "good") for cell in cells)
    page_mm = min(paper.width_pt for paper in PAPERS) * tables.MM_PER_PT - 2 * SHEET_MARGIN_MM
    column_mm = (page_mm - CORNER_MM[layout]) / len(chart.columns) - 2 * CELL_PADDING_MM[layout]
    room_pt = (column_mm / tables.MM_PER_PT - FRAME_PT) * WORDS_FULL
    if widest * CELL_TYPE_PT[layout][0] <= room_pt:
        return 0.0
    return max(WORDS_MIN_PT, math.floor(room_pt / widest * 10) / 10)


def row_fill(sheet: Sheet) -> RowFill | None:
    """How a sheet's rows grow into the room its page leaves (see RowFill): a chart sheet's cells, the victory-point
    overview's lines; None for a sheet of text."""
    charts_ = sheet.context.get("charts")
    if charts_ and sheet.layout in ROW_HEIGHTS_MM:
        least, most = ROW_HEIGHTS_MM[sheet.layout]
        rows = sum(len(chart.rows) for chart in charts_)
        cells = f".sheet.{sheet.layout} table.chart td"
        target, chance, alone = CELL_TYPE_PT[sheet.layout]
        # an impossible cell keeps its small word on the hatching; a cell of words keeps its size (`Cell.words`)
        lit = f"{cells}:not(.tone-none):not(.words)"
        grow = ((f"{lit} .target", target), (f"{lit} .chance", chance), (f"{lit} > .chance:only-child", alone))
        return RowFill(cells, rows, least, most, grow)
    checklist = sheet.context.get("checklist")
    if checklist is not None and checklist.sides > 1:
        rows = sum(len(group.lines) for group in checklist.groups) + 1  # and the totals
        return RowFill("table.checklist.overview td.side", rows, *OVERVIEW_ROW_MM)
    return None


def quick_reference_sheet(ruleset: Ruleset) -> Sheet:
    ref = quick_reference(ruleset)
    sources = (source_title(ruleset),) if cites_a_source(ruleset) else ()
    return Sheet(
        f"{ruleset.id}-quick-reference",
        f"{ruleset.id}-quick-reference",
        "Quick reference",
        "sheets/quick-reference.html.j2",
        sources,
        MappingProxyType({"ref": ref}),
        subtitle=ruleset.title,
        layout="quickref",
        page_title=f"{ruleset.title}: quick reference",
        ruleset=ruleset.id,
        type_pt=quickref_type(ref),
        written_at=ruleset.meta.loc,
        marks=marked_entries(ruleset),
        overflow_hint=_quickref_hint(ruleset, ref),
    )


def _quickref_hint(ruleset: Ruleset, ref) -> str:
    """What the author of a quick reference too long for its page can do; where it prints roll tables, that they can
    go on a sheet of their own, each row with its chance, as here."""
    hint = OVERLAY_OVERFLOW if ruleset.meta.overlay else Code.SHEET_OVERFLOW.default_hint
    if not ref.tables:
        return "" if hint == Code.SHEET_OVERFLOW.default_hint else hint
    where = " in the base" if ruleset.meta.overlay else ""  # an overlay prints its base's sheets, and has none
    ids = [table.id for table in ruleset.tables if marked(table)]
    return (
        f"{hint}; or print its roll tables on a cheat sheet of their own, each row with its chance as here: mark them "
        f"`quick_reference: false` and list them in a `sheets:` entry{where} (`sheets: {{roll_tables: {{title: Roll "
        f"tables, tables: [{', '.join(ids[:3])}{', ...' if len(ids) > 3 else ''}]}}}}`)"
    )


# An overlay changes values only: its base's marks are not its to take off
OVERLAY_OVERFLOW = (
    "an overlay's quick reference prints its base's marked entries and every house value: mark fewer of the base's "
    "entries for it (`quick_reference: false` in the base), give a house value `quick_reference: false` to leave it "
    "off the sheet's key numbers (a printed rule naming it still marks it a house rule), or shorten its `house_note:`"
)


def quick_reference_sheets(ruleset: Ruleset) -> list[Sheet]:
    """A game's quick reference; a base ruleset (`kind: base`) is no game and has none."""
    return [] if ruleset.meta.kind == "base" else [quick_reference_sheet(ruleset)]


BUILDERS: tuple[Callable[[Ruleset], list[Sheet]], ...] = (data_sheets, victory_sheets, quick_reference_sheets)


def sheets(project: Project) -> list[Sheet]:
    """Every sheet the project's rulesets call for, player and gm versions both."""
    return [sheet for ruleset in project.rulesets for sheet in _sheets_of(project.root, ruleset)]


_MADE: dict[str, tuple[Sheet, ...]] = {}  # by the bytes of a ruleset's files (and its bases') and the generator


def _sheets_of(root, ruleset: Ruleset) -> tuple[Sheet, ...]:
    """One ruleset's sheets (frozen, so shared safely), made once per process for the same files: a build
    asks for them for each site, the PDFs and the downloads, and `serve` on every save; their charts are the cost."""

    key = ruleset_key(root, ruleset, generator_hash()) if _from_files(root, ruleset) else None
    if key is None or key not in _MADE:
        made = tuple(sheet for build in BUILDERS for sheet in build(ruleset))
        if key is None:
            return made
        _MADE[key] = made
    return _MADE[key]


def _from_files(root, ruleset: Ruleset) -> bool:
    """Whether a ruleset (and each base) was loaded from files that still exist: only then do its files name it."""
    while ruleset is not None:
        if not ruleset.files or not all((Path(root) / name).is_file() for name in ruleset.files):
            return False
        ruleset = ruleset.base
    return True


# -- PDF -------------------------------------------------------------------------------------------------------
def sheet_context(sheet: Sheet, paper: Paper, project: Project) -> dict:
    ruleset = project.ruleset(sheet.ruleset)
    prose = Prose(ruleset, sheet.audience).html  # gm-only names masked on player sheets
    printed = imprint(ruleset, project.root, project.settings.site_url, site_page(sheet, project))
    return dict(
        sheet=sheet,
        paper=paper,
        computed_by=chances_note(sheet),
        prose=prose,
        gap=GAP,
        imprint=printed,
        imprint_lines=imprint_lines(printed, paper),
        language=ruleset.language,
        **sheet.context,
    )


IMPRINT_CHAR_MM = 1.45  # the width of a character of a sheet's imprint (8 pt condensed), on average and a little more
SHEET_MARGIN_MM = 12  # print-base.css


def imprint_lines(printed, paper: Paper) -> int:
    """The lines a sheet's imprint takes across its foot: one, or two where its text is longer than one holds."""
    room = paper.width_pt * 25.4 / 72 - 2 * SHEET_MARGIN_MM
    return 1 if (len(printed.rules) + 3 + len(printed.url)) * IMPRINT_CHAR_MM <= room else 2


def site_page(sheet: Sheet, project: Project) -> str:
    """The sheet's page on the players' site: its own page, or its ruleset's where only the game-master's site has
    one (a game-master's sheet with no players' version)."""
    if sheet.audience == "player" or any(s.page == sheet.page and s.audience == "player" for s in sheets(project)):
        return f"sheets/{sheet.page}.html"
    return f"{sheet.ruleset}/index.html"


def sheet_html(sheet: Sheet, paper: Paper, project: Project) -> str:
    """The sheet's HTML; TemplateFailed (located) when its template cannot make it."""
    return render(Path(project.root).resolve(), sheet.template, sheet_context(sheet, paper, project))


def sheet_jobs(project: Project, out_dir: Path, rulesets: set[str] | None = None) -> list[PdfJob]:
    """A PdfJob per sheet and paper size: ``out_dir/<sheet>-<a4|letter>.pdf`` (of the ``rulesets`` named, when given).
    Raises TemplateFailed with every template's failure."""
    root = Path(project.root).resolve()
    out_dir = Path(out_dir)
    chosen = (
        project
        if rulesets is None
        else SimpleNamespace(rulesets=[r for r in project.rulesets if r.id in rulesets], root=project.root)
    )
    renderings, jobs = Renderings(root), []
    for sheet in sheets(chosen):
        for paper in papers_of(project.settings):
            html = renderings.render(sheet.template, sheet_context(sheet, paper, project))
            if html is not None:
                jobs.append(
                    PdfJob(
                        html=html,
                        target=out_dir / f"{sheet.name}-{paper.id}.pdf",
                        base_dir=root / PROJECT_TEMPLATES / "sheets",
                        template=f"{PROJECT_TEMPLATES}/{sheet.template}",
                        title=f"{sheet.title} — {sheet.subtitle}" if sheet.subtitle else sheet.title,
                        # the sheet's own rules for the imprint (print-base.css) after the shared ones
                        stylesheets=(template_path(root, IMPRINT_STYLESHEET), template_path(root, STYLESHEET)),
                        fit=fit_css(sheet, paper),
                        overflow=overflow(sheet, paper, _own_templates(root, sheet)),
                        fill=row_fill(sheet),
                    )
                )
    renderings.raise_failures()
    return jobs


MOST_NAMED = 12  # entries an overflow names before it counts the rest


def _own_templates(root: Path, sheet: Sheet) -> list[str]:
    """The files of the project's own templates/ the sheet is made with, in place of the defaults."""
    used = (IMPRINT_STYLESHEET, STYLESHEET, sheet.template)
    return [name for name in used if (root / PROJECT_TEMPLATES / name).is_file()]


def overflow(sheet: Sheet, paper: Paper, own: list[str] = ()) -> Diagnostic:
    """The error the sheet is when its layout takes more than its one page: located at the YAML that asks
    for it, naming what the author put on it (`{pages}` stands for the page count the render finds), and the
    project's own templates it is made with (``own``), which may be what makes it longer."""
    paper_name = "A4" if paper.id == "a4" else "US Letter"
    named = _marks_text(sheet.marks)
    smaller = " even in its smaller type" if sheet.type_pt else ""
    return Diagnostic(
        Code.SHEET_OVERFLOW,
        f"the sheet `{sheet.name}` takes {{pages}} pages of {paper_name}{smaller}, not one"
        + (f": it prints {named}" if named else ""),
        sheet.written_at,
        _overflow_hint(sheet, own),
    )


# what an overflow calls the entries of each section it names, one and many
MARK_KINDS = {
    "profiles": ("profile matrix", "profile matrices"),
    "heroes": ("hero", "heroes"),
    "army_limits": ("army limit", "army limits"),
    "victory_points": ("victory point", "victory points"),
}
_MARK = re.compile(r"(\w+) `(.*)`")


def _marks_text(marks: tuple[str, ...]) -> str:
    """What a sheet prints, grouped by kind and counted, its first ``MOST_NAMED`` entries named and one of each
    kind at least: '40 tables (`t_00`, ... `t_08` and 31 more) and 4 profile matrices (`m_1`, ...)'."""
    kinds: dict[str, list[str]] = {}
    loose = []  # what is counted, not named (`2 notes`)
    for mark in marks:
        found = _MARK.fullmatch(mark)
        if found:
            kinds.setdefault(found[1], []).append(found[2])
        else:
            loose.append(mark)
    shown = {kind: min(1, len(ids)) for kind, ids in kinds.items()}
    spare = MOST_NAMED - sum(shown.values())
    for kind, ids in kinds.items():
        more = max(0, min(spare, len(ids) - shown[kind]))
        shown[kind] += more
        spare -= more
    parts = []
    for kind, ids in kinds.items():
        one, many = MARK_KINDS.get(kind, (kind.replace("_", " ").removesuffix("s"), kind.replace("_", " ")))
        names = ", ".join(f"`{i}`" for i in ids[: shown[kind]])
        rest = len(ids) - shown[kind]
        names += f" and {rest} more" if rest else ""
        parts.append(f"{one} {names}" if len(ids) == 1 else f"{len(ids)} {many} ({names})")
    parts += loose
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def _overflow_hint(sheet: Sheet, own: list[str]) -> str | None:
    """What the author can do, and, where the project's own templates make the sheet, that they may be the cause."""
    if not own:
        return sheet.overflow_hint or None
    files = ", ".join(f"templates/{name}" for name in own)
    return (
        f"{sheet.overflow_hint or Code.SHEET_OVERFLOW.default_hint}; it is made with the project's own {files}, which "
        "may be what makes it longer than the defaults do"
    )


def sheet_downloads(project: Project, audience: str) -> dict[str, list[tuple[str, str]]]:
    """Ruleset id -> (link title, "sheets/<file>.pdf") for one audience.

    The player list never names a gm sheet; the gm list has both versions.
    """
    found: dict[str, list[tuple[str, str]]] = {}
    for sheet in sheets(project):
        if sheet.audience == "gm" and audience != "gm":
            continue
        for paper in papers_of(project.settings):
            size = "A4" if paper.id == "a4" else "US Letter"
            found.setdefault(sheet.ruleset, []).append(
                (f"{sheet.title} ({size})", f"sheets/{sheet.name}-{paper.id}.pdf")
            )
    return found


# -- MyST pages for the site -----------------------------------------------------------------------------------
def sheet_pages(project: Project, audience: str) -> dict[str, str]:
    """Page name -> MyST Markdown: every sheet as a page; for ``player`` never a gm version."""
    if audience not in ("player", "gm"):
        raise ValueError(f"audience is `player` or `gm`, not `{audience}`")
    every = sheets(project)
    gm_versions = {sheet.page for sheet in every if sheet.audience == "gm"}
    chosen = [
        sheet
        for sheet in every
        if sheet.audience == audience or (sheet.audience == "player" and sheet.page not in gm_versions)
    ]
    return {
        sheet.page: sheet_markdown(
            sheet, chances_note(sheet), project.ruleset(sheet.ruleset) if sheet.ruleset else None
        )
        for sheet in chosen
    }
