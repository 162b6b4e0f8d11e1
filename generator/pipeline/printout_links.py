"""Each `{pdf}` link in the rules' text names a PDF the project's build makes, one its readers' site holds: the
players' site holds the players' printouts alone. Told by `check`, and checked when a site is built, from the
printouts' names (none laid out), so `build --only site` and `serve` refuse a dead link before any PDF exists."""

from __future__ import annotations

from ..diagnostics import Code, Diagnostic, did_you_mean
from ..render.handouts.jobs import handout_names
from ..render.sheets.jobs import sheet_downloads
from ..validate.links import pdf_links

LISTED = 4  # the printouts a hint names when none is close to the link's


def printouts(project, audience: str) -> set[str]:
    """Every PDF a whole build makes that ``audience``'s site holds, as `{pdf}` names it (`sheets/x-a4.pdf`)."""
    sees_all = audience != "player"  # the game-master's site and the authors' hold every PDF
    sheets = {href for links in sheet_downloads(project, "gm" if sees_all else "player").values() for _t, href in links}
    readers = ("player", "gm") if sees_all else ("player",)
    return sheets | {f"handouts/{name}" for reader in readers for name in handout_names(project, reader)}


def dead_pdf_links(project) -> list[Diagnostic]:
    """A located error for each `{pdf}` link to a PDF the build does not make, or to the game-master's from text
    the players read."""
    links = dict.fromkeys(link for ruleset in project.rulesets for link in pdf_links(ruleset))
    if not links:
        return []  # the printouts' names cost their content: worked out only for a project that links them
    players, everyone = printouts(project, "player"), printouts(project, "gm")
    found = []
    for target, loc, read_by_players in links:
        if target in players or (target in everyone and not read_by_players):
            continue
        if target in everyone:
            theirs = target.replace("-gm-", "-", 1)
            found.append(
                Diagnostic(
                    Code.PROSE_LINK,
                    f"`{{pdf}}` names `{target}`, the game-master's, which the players' site does not hold",
                    loc,
                    (f"link the players' `{theirs}`, " if theirs in players else "")
                    + "or write the link in the game-master's text (a `gm_note:`, or an entry marked `audience: gm`)",
                )
            )
        else:
            made = sorted(everyone if not read_by_players else players)
            found.append(
                Diagnostic(
                    Code.PROSE_LINK,
                    f"`{{pdf}}` names `{target}`, which the build does not make",
                    loc,
                    did_you_mean(target, made) or _made_hint(made),
                )
            )
    return found


def _made_hint(made: list[str]) -> str:
    listed = ", ".join(f"`{name}`" for name in made[:LISTED])
    more = f" and {len(made) - LISTED} more" if len(made) > LISTED else ""
    return f"name one the build makes: {listed}{more}, listed on each ruleset's page under Downloads"
