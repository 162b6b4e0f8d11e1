"""One-page cheat sheets: PDF jobs (A4 and US Letter) and MyST pages for the rules website.

Which sheets exist depends on the project: the Warhammer Fantasy charts come with the
ruleset that uses them (Ordo Ineptus), the combat odds with Rampant Hex, a victory-point
checklist with every ruleset that has victory points (a player and a game-master
version) and a quick reference with every ruleset. Chart data comes from
:mod:`sheets_charts`, :mod:`sheets_quickref` and :mod:`sheets_victory` (no HTML there);
the Jinja2 templates in ``templates/sheets/`` (the project's, else the defaults) only lay it out.

The pipeline calls :func:`sheet_jobs` and renders the jobs with
:func:`~generator.render.pdf.render_all`; the site calls :func:`sheet_pages`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Callable

from ..model.ruleset import Ruleset
from ..source.project import Project
from . import sheets_charts as charts
from .prose import Prose
from .assets import PROJECT_TEMPLATES, jinja_env, template_path
from .pdf import PdfJob
from .sheets_pages import sheet_markdown
from .sheets_quickref import GAP, cite, quick_reference, visible
from .sheets_victory import HIDDEN_TASK, has_victory_points, victory_checklist

STYLESHEET = "print-base.css"  # under templates/
COMPUTED_BY = "Numbers computed by Rulepress from the rules model: exact odds (icepool), rounded only for print."


@dataclass(frozen=True)
class Paper:
    id: str  # in file names
    css_size: str  # for @page size
    width_pt: int
    height_pt: int


PAPERS = (Paper("a4", "A4", 595, 842), Paper("letter", "letter", 612, 792))


@dataclass(frozen=True)
class Sheet:
    name: str  # file stem without the paper: "fantasy-to-hit", "ordo_ineptus-victory-points-gm"
    page: str  # page name on the site; the gm and player versions share it
    title: str
    template: str  # under templates/
    sources: tuple[str, ...]
    context: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    audience: str = "player"
    subtitle: str = ""
    layout: str = ""  # CSS class for the sheet's layout
    page_title: str = ""  # heading of the site page, when the title alone is not enough
    ruleset: str = ""  # the ruleset the sheet belongs to; "" for the general Fantasy charts

    @property
    def heading(self) -> str:
        return self.page_title or self.title


# -- the Fantasy charts, as the Shellendrak skirmish uses them ---------------------------------------------------
FANTASY_USER = "ordo_ineptus"  # the ruleset whose text adopts the Warhammer Fantasy charts
FANTASY = "Warhammer Fantasy chart, as used by "


def _rule(ruleset: Ruleset, rule_id: str):
    try:
        rule = ruleset.rule(rule_id)
    except KeyError:
        return None
    return rule if visible(rule) else None


def _sources(ruleset: Ruleset, *cites: tuple[str, str]) -> tuple[str, ...]:
    """``(rule id, prefix)`` pairs as source lines, skipping rules the ruleset lacks.

    The first names the ruleset (`Title § Section`); the rest only add their section.
    """
    lines: list[str] = []
    for rule_id, prefix in cites:
        rule = _rule(ruleset, rule_id)
        if rule is None:
            continue
        line = prefix + cite(rule, ruleset)
        if lines and not prefix and rule.source and rule.source.section:
            line = f"§ {rule.source.section}"
        if not any(known.endswith(line) for known in lines):
            lines.append(line)
    return tuple(lines)


def _extras(ruleset: Ruleset, lines: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    return tuple(text for rule_id, text in lines if _rule(ruleset, rule_id))


def _critical_note(ruleset: Ruleset) -> tuple[str, ...]:
    """The critical-hit die of 000 with its odds, from the ruleset's own table."""
    try:
        table = ruleset.table("critical_hit_table")
    except KeyError:
        return ()
    if not visible(table) or not table.ranges_given:
        return ()
    rolls = "; ".join(f"{row.roll}: {row.result} ({charts.chance_text(chance)})" for row, chance in table.odds())
    return (f"A 6 to wound ({charts.chance_text(charts.fantasy.target_chance(6))}) is a critical hit; its die: {rolls}.",)


def fantasy_sheets(ruleset: Ruleset) -> list[Sheet]:
    if _rule(ruleset, "fantasy_charts") is None:
        return []
    charts_cite = ("fantasy_charts", FANTASY)
    subtitle = f"For {ruleset.title}"

    def sheet(name: str, title: str, cites, charts_, extras, layout: str) -> Sheet:
        return Sheet(name, name, title, "sheets/charts.html.j2", _sources(ruleset, *cites),
                     MappingProxyType({"charts": tuple(charts_), "extras": tuple(extras)}), subtitle=subtitle,
                     layout=layout)

    return [
        sheet("fantasy-to-hit", "Close combat to-hit chart", (charts_cite, ("fear_tests", ""), ("hated_enemies", "")),
              (charts.to_hit_chart(),), _extras(ruleset, charts.fantasy_extras()), "grid"),
        sheet("fantasy-to-wound", "To-wound chart", (charts_cite, ("critical_hits", "")),
              (charts.to_wound_chart(),), _critical_note(ruleset), "grid"),
        sheet("fantasy-armour-saves", "Armour saves", (("armour", ""), ("critical_hits", "")), charts.armour_charts(),
              ("Each point of Strength above three makes the save one worse, armour piercing one worse still; a save "
               "worse than a six is lost. Ward saves ignore Strength: take the armour save first, then the ward save "
               "if it fails.",) + _critical_note(ruleset), "stack"),
        sheet("fantasy-shooting", "Shooting to-hit chart", (("shooting_modifiers", FANTASY), ("no_shooting_after_running", "")), (charts.shooting_chart(),),
              ("Cover: any obstructing terrain partly hiding the target. Long range: more than half the weapon's "
               "range. Models that ran or attempted a charge may not shoot.",), "wide"),
    ]


def rampant_hex_sheets(ruleset: Ruleset) -> list[Sheet]:
    sources = _sources(ruleset, ("ranged_attacks", ""), ("combat", ""), ("moral_checks", ""))
    if not sources:
        return []
    return [Sheet(f"{ruleset.id}-combat-odds", f"{ruleset.id}-combat-odds", "Combat and moral odds",
                  "sheets/charts.html.j2", sources,
                  MappingProxyType({"charts": charts.rampant_hex_charts(), "extras": ()}),
                  subtitle=ruleset.title, layout="stack", page_title=f"{ruleset.title}: combat and moral odds",
                  ruleset=ruleset.id)]


def victory_sheets(ruleset: Ruleset) -> list[Sheet]:
    if not has_victory_points(ruleset):
        return []
    sheets = []
    for audience in ("player", "gm"):
        checklist = victory_checklist(ruleset, audience)
        suffix = "-gm" if audience == "gm" else ""
        sheets.append(Sheet(f"{ruleset.id}-victory-points{suffix}", f"{ruleset.id}-victory-points",
                            "Victory points checklist" + (" (Game Master)" if audience == "gm" else ""),
                            "sheets/victory-points.html.j2", checklist.sources,
                            MappingProxyType({"checklist": checklist, "hidden_task": HIDDEN_TASK}),
                            audience=audience, subtitle=ruleset.title, layout="checklist",
                            page_title=f"{ruleset.title}: victory points checklist", ruleset=ruleset.id))
    return sheets


QUICKREF_DENSE_AT = 60  # estimated lines in a column beyond which the quick reference uses its denser layout


def quick_reference_sheet(ruleset: Ruleset) -> Sheet:
    ref = quick_reference(ruleset)
    sources = (f"{ruleset.title} ({ruleset.meta.source})",) if ruleset.meta.source else (ruleset.title,)
    return Sheet(f"{ruleset.id}-quick-reference", f"{ruleset.id}-quick-reference", "Quick reference",
                 "sheets/quick-reference.html.j2", sources, MappingProxyType({"ref": ref}), subtitle=ruleset.title,
                 layout="quickref" + (" dense" if ref.longest_column > QUICKREF_DENSE_AT else ""),
                 page_title=f"{ruleset.title}: quick reference", ruleset=ruleset.id)


BUILDERS: tuple[Callable[[Ruleset], list[Sheet]], ...] = (
    lambda r: fantasy_sheets(r) if r.id == FANTASY_USER else [],
    lambda r: rampant_hex_sheets(r) if r.id == "rampant_hex" else [],
    victory_sheets,
    lambda r: [quick_reference_sheet(r)],
)


def sheets(project: Project) -> list[Sheet]:
    """Every sheet the project's rulesets call for, player and gm versions both."""
    return [sheet for ruleset in project.rulesets for build in BUILDERS for sheet in build(ruleset)]


# -- PDF -------------------------------------------------------------------------------------------------------
def sheet_html(sheet: Sheet, paper: Paper, project: Project) -> str:
    template = jinja_env(Path(project.root).resolve()).get_template(sheet.template)
    ruleset = project.ruleset(sheet.ruleset or FANTASY_USER)
    prose = Prose(ruleset, sheet.audience).html  # gm-only names masked on player sheets
    return template.render(sheet=sheet, paper=paper, computed_by=COMPUTED_BY, prose=prose, gap=GAP, **sheet.context)


def sheet_jobs(project: Project, out_dir: Path) -> list[PdfJob]:
    """A PdfJob per sheet and paper size: ``out_dir/<sheet>-<a4|letter>.pdf``."""
    root = Path(project.root).resolve()
    out_dir = Path(out_dir)
    return [PdfJob(html=sheet_html(sheet, paper, project), target=out_dir / f"{sheet.name}-{paper.id}.pdf",
                   base_dir=root / PROJECT_TEMPLATES / "sheets", template=f"{PROJECT_TEMPLATES}/{sheet.template}",
                   title=f"{sheet.title} — {sheet.subtitle}" if sheet.subtitle else sheet.title,
                   stylesheets=(template_path(root, STYLESHEET),))
            for sheet in sheets(project) for paper in PAPERS]


def sheet_downloads(project: Project, audience: str) -> dict[str, list[tuple[str, str]]]:
    """Ruleset id ("" for the general Fantasy charts) -> (link title, "sheets/<file>.pdf") for one audience.

    The player list never names a gm sheet; the gm list has both versions.
    """
    found: dict[str, list[tuple[str, str]]] = {}
    for sheet in sheets(project):
        if sheet.audience == "gm" and audience != "gm":
            continue
        for paper in PAPERS:
            size = "A4" if paper.id == "a4" else "US Letter"
            found.setdefault(sheet.ruleset, []).append((f"{sheet.title} ({size})", f"sheets/{sheet.name}-{paper.id}.pdf"))
    return found


# -- MyST pages for the site -----------------------------------------------------------------------------------
def sheet_pages(project: Project, audience: str) -> dict[str, str]:
    """Page name -> MyST Markdown: every sheet as a page; for ``player`` never a gm version."""
    if audience not in ("player", "gm"):
        raise ValueError(f"audience is `player` or `gm`, not `{audience}`")
    every = sheets(project)
    gm_versions = {sheet.page for sheet in every if sheet.audience == "gm"}
    chosen = [sheet for sheet in every if sheet.audience == audience
              or (sheet.audience == "player" and sheet.page not in gm_versions)]
    return {sheet.page: sheet_markdown(sheet, COMPUTED_BY) for sheet in chosen}
