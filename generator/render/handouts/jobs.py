"""Printed handouts: a rules booklet per ruleset, army rosters and cards, per audience.

``handout_jobs(project, out_dir, audience)`` lists the PDFs to render with
:func:`generator.render.pdf.render_all`: for every ruleset and both paper sizes a
booklet, and where the ruleset has them a roster sheet (a blank roster per profile
matrix, then the ``armies:``) and a sheet of cards (spells, heroes, profile rows), each
card sheet followed by its backs. Content is assembled by the pure functions of
``content`` and ``cards``; the templates in ``templates/handouts/``
(the project's, else the defaults) only lay it out. Game-master outputs carry ``gm``
in their file names and are the only ones that contain game-master-only material; one is
made only where the game-master sees more than the players (:func:`gm_sees_more`).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from ...source.project import Project
from ..assets import PROJECT_TEMPLATES, template_path
from ..imprint import imprint
from ..jinja import Renderings
from ..pdf import PdfJob
from ..present import gm_words
from ..prose import house_notes_once
from .cards import Paper, cards, cards_context, imprint_place, papers_of
from .content import AUDIENCES, handout_context, roster_context, roster_on, visible

TEMPLATE_DIR = "handouts"
IMPRINT_STYLESHEET = "imprint.css"  # the small print of every sheet and handout (templates/imprint.html.j2)
KINDS = ("handout", "roster", "cards")


def output_name(ruleset_id: str, kind: str, audience: str, paper: Paper) -> str:
    """``<ruleset>-handout-gm-a4.pdf``: player outputs have no audience part."""
    parts = [ruleset_id, kind] + (["gm"] if audience == "gm" else []) + [paper.key]
    return "-".join(parts) + ".pdf"


def handout_jobs(project: Project, out_dir: Path, audience: str, rulesets: set[str] | None = None) -> list[PdfJob]:
    """Every handout, roster and card sheet of the project for one audience, in each of its paper sizes
    (of the ``rulesets`` named, when given). Raises TemplateFailed with every template's failure."""
    if audience not in AUDIENCES:
        raise ValueError(f"audience must be one of {AUDIENCES}, not {audience!r}")
    root = Path(project.root).resolve()
    renderings, jobs = Renderings(root), []
    for ruleset in project.rulesets:
        if rulesets is not None and ruleset.id not in rulesets:
            continue
        contexts = printed_contexts(ruleset, audience)
        # every handout leads back to its ruleset's page, which lists them all
        printed = imprint(ruleset, root, project.settings.site_url, f"{ruleset.id}/index.html") if contexts else None
        for kind, context in contexts.items():
            for paper in papers_of(project.settings):
                if kind == "roster":
                    context = roster_on(contexts["roster"], paper)
                if kind == "cards":
                    context = cards_context(ruleset, audience, paper)
                    line = " · ".join(filter(None, (printed.rules, printed.url)))
                    context["imprint_at"] = imprint_place(paper, context["layout"], line, bool(printed.qr))
                job = _job(
                    renderings,
                    root,
                    kind,
                    {
                        **context,
                        "paper": paper,
                        "imprint": printed,
                        "language": ruleset.language,
                        "gm_name": gm_words(ruleset),
                    },
                    Path(out_dir) / output_name(ruleset.id, kind, audience, paper),
                )
                if job is not None:
                    jobs.append(job)
    renderings.raise_failures()
    return jobs


def printed_contexts(ruleset, audience: str) -> dict[str, dict | None]:
    """The kinds of handout one audience gets of a ruleset (`handout`, `roster`, `cards`), each with its context
    (the cards' is None: it depends on the paper)."""
    contexts = {"handout": handout_context(ruleset, audience)}
    if any(visible(a, audience) for a in ruleset.armies) or any(
        visible(m, audience) and m.pieces for m in ruleset.profiles
    ):
        contexts["roster"] = roster_context(ruleset, audience)
    if cards(ruleset, audience):
        contexts["cards"] = None
    if audience == "gm":  # a game-master's version only where the game-master sees more than the players
        contexts = {kind: context for kind, context in contexts.items() if gm_sees_more(ruleset, kind, context)}
    return contexts


def handout_names(project: Project, audience: str) -> list[str]:
    """The file name of every PDF :func:`handout_jobs` makes for one audience, none of them laid out."""
    return [
        output_name(ruleset.id, kind, audience, paper)
        for ruleset in project.rulesets
        for kind in printed_contexts(ruleset, audience)
        for paper in papers_of(project.settings)
    ]


def list_roster_job(project: Project, ruleset, lists: tuple, target: Path, paper: Paper) -> PdfJob:
    """The filled roster of a player's own army ``lists`` (`rulepress list`): the roster sheet's layout, its
    lists alone. Raises TemplateFailed with the template's failure."""
    root = Path(project.root).resolve()
    renderings = Renderings(root)
    context = roster_on(roster_context(ruleset, "player", lists), paper)
    printed = imprint(ruleset, root, project.settings.site_url, f"{ruleset.id}/index.html")
    job = _job(
        renderings,
        root,
        "roster",
        {**context, "paper": paper, "imprint": printed, "language": ruleset.language, "gm_name": gm_words(ruleset)},
        target,
    )
    renderings.raise_failures()
    return job


def gm_sees_more(ruleset, kind: str, gm_context: dict | None) -> bool:
    """Whether the game-master's version of one output holds anything the players' does not: its
    context, audience aside, differs from the players' (game-master-only entries, notes, hidden tasks)."""

    def content(context: dict | None) -> dict:
        return {key: value for key, value in (context or {}).items() if key not in ("audience", "description", "paper")}

    if kind == "handout":
        player = handout_context(ruleset, "player")
    elif kind == "roster":
        player = roster_context(ruleset, "player") if any(visible(a, "player") for a in ruleset.armies) else None
    else:
        return cards(ruleset, "gm") != cards(ruleset, "player")
    return player is None or content(player) != content(gm_context)


def created_meta() -> str:
    """The creation date from SOURCE_DATE_EPOCH, read here rather than in the render workers,
    whose environment is the one the process pool started with."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return ""
    created = datetime.fromtimestamp(int(epoch), tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return f'<meta name="dcterms.created" content="{created}">'


def _job(renderings: Renderings, root: Path, kind: str, context: dict, target: Path) -> PdfJob | None:
    """The job of one document; None when its template failed (``renderings`` keeps why)."""
    template = f"{TEMPLATE_DIR}/{kind}.html.j2"
    folder = root / PROJECT_TEMPLATES / TEMPLATE_DIR  # relative URLs: the fetcher falls back to the defaults
    html = renderings.render(template, context)
    if html is None:
        return None
    html = html.replace("<head>", "<head>" + created_meta(), 1)
    if kind == "handout":
        html = house_notes_once(html)
    stylesheets = tuple(template_path(root, f"{TEMPLATE_DIR}/{name}.css") for name in ("print", kind)) + (
        template_path(root, IMPRINT_STYLESHEET),
    )
    title = _title(kind, context)
    return PdfJob(
        html=html,
        target=target,
        base_dir=folder,
        template=f"{PROJECT_TEMPLATES}/{template}",
        title=title,
        stylesheets=stylesheets,
        tighter=TIGHTER if kind == "handout" else (),
    )


# the booklet's classes for layouts that save its last page or fill it (templates/handouts/handout.css)
TIGHTER = ("tighter", "tighter index-apart")


def _title(kind: str, context: dict) -> str:
    name = context.get("title") or context.get("ruleset_title", "")
    what = {"handout": "rules handout", "roster": "army rosters", "cards": "cards"}[kind]
    gm = f" ({context['gm_name']['word']})" if context["audience"] == "gm" else ""
    return f"{name}: {what}{gm}, {context['paper'].name}"
