"""A ruleset that says what it calls its game-master (`declares: game_master:`) reads in that word wherever the
outputs name the game-master in their own words: the booklet's copy line, running head, badges and notes, the
rosters' and cards' titles, the victory-point checklist, the site's banner, title and landing page, and no
output of it prints the neutral `game-master` there; a ruleset that says nothing keeps `game-master`."""

from __future__ import annotations

import re
from html import unescape

from helpers import make_project

from generator.render.handouts.jobs import handout_jobs
from generator.render.sheets.jobs import PAPERS, sheet_html, sheet_pages, victory_sheets
from generator.render.sheets.pages import checklist_md
from generator.render.site import myst
from generator.render.site.pages import landing, site_game_master, sphinx_config
from generator.validate import check_project

VAULT = """\
ruleset:
  title: Vault Runners
  declares:
    game_master: warden
chapters:
  play: {title: Play}
  secrets: {title: Secrets, audience: gm}
rules:
  doors:
    title: Doors
    chapter: play
    body: A door opens on a roll of 4 or more.
    gm_note: The red door never opens.
  trap:
    title: The trap
    chapter: secrets
    audience: gm
    body: The third room is trapped.
victory_points:
  loot: {name: Grab the loot, kind: deed, points: 2, condition: You carry the loot out.}
  vault: {name: Open the vault, kind: deed, points: 5, hidden: true, audience: gm, condition: The vault is open.}
"""

NEUTRAL = re.compile(r"game-master", re.IGNORECASE)


def vault(tmp_path, text: str = VAULT):
    result = check_project(make_project(tmp_path, vault=text))
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    return result.project


def visible_text(html: str) -> str:
    """The words a page prints: its text and its styles' `content:` strings, not its class names (`gm-badge`) nor
    its styles' comments."""
    text = re.sub(r"<[^>]*>|/\*.*?\*/", " ", html, flags=re.S)
    return " ".join(unescape(text).split())


def test_the_booklet_names_the_game_master_as_the_ruleset_does(tmp_path):
    project = vault(tmp_path)
    jobs = {job.target.name: job for job in handout_jobs(project, tmp_path / "out", "gm")}
    booklet = visible_text(jobs["vault-handout-gm-a4.pdf"].html)
    assert "Warden's copy" in booklet  # the cover's line and the running head, a capital at a sentence's start
    assert 'content: "Warden\'s copy"' in booklet
    assert "Warden only" in booklet  # the badge and the cover's warning
    assert "Warden's note" in booklet
    assert jobs["vault-handout-gm-a4.pdf"].title.endswith("rules handout (warden), A4")
    assert "Warden's copy of the rules booklet of Vault Runners" in unescape(jobs["vault-handout-gm-a4.pdf"].html)
    assert not NEUTRAL.search(booklet), NEUTRAL.findall(booklet)
    player = visible_text(
        {j.target.name: j for j in handout_jobs(project, tmp_path / "p", "player")}["vault-handout-a4.pdf"].html
    )
    assert "Some tasks are hidden: the warden tells you when you complete one." in player
    assert not NEUTRAL.search(player)


def test_the_victory_point_checklist_says_the_game_master_tells_in_the_rulesets_word(tmp_path):
    project = vault(tmp_path)
    ruleset = project.ruleset("vault")
    sheets = {sheet.audience: sheet for sheet in victory_sheets(ruleset)}
    assert sheets["gm"].title == "Victory points checklist (warden)"
    html = visible_text(sheet_html(sheets["player"], PAPERS[0], project))
    assert "Write it in when the warden tells you that you have completed a hidden task." in html
    assert not NEUTRAL.search(html)
    page = checklist_md(sheets["player"].context["checklist"], sheets["player"].context["hidden_task"], ruleset)
    assert "| The warden tells you when you complete one" in page
    assert not any(NEUTRAL.search(text) for text in sheet_pages(project, "gm").values())


def test_the_site_names_the_game_master_as_its_rulesets_do(tmp_path):
    project = vault(tmp_path)
    ruleset = project.ruleset("vault")
    assert site_game_master(project) == "warden"
    config = sphinx_config(project.root, "gm", game_master=site_game_master(project))
    assert config["html_title"].endswith(" (warden)")
    assert "Warden's copy" in config["html_theme_options"]["announcement"]
    assert (
        "the warden's, with"
        in sphinx_config(project.root, "author", game_master="warden")["html_theme_options"]["announcement"]
    )
    assert "the warden's edition" in landing(project, "gm").replace("\\", "")
    assert "Warden's note" in myst.rule_md(ruleset.get("rules", "doors"), ruleset, "gm")
    hint = myst.victory_md(list(ruleset.victory_points), ruleset, "player")
    assert "the warden tells you" in hint and not NEUTRAL.search(hint)


def test_a_ruleset_that_names_no_game_master_keeps_the_neutral_word(tmp_path):
    project = vault(tmp_path, VAULT.replace("  declares:\n    game_master: warden\n", ""))
    ruleset = project.ruleset("vault")
    assert ruleset.game_master(start=True, possessive=True) == "Game-master's"
    assert site_game_master(project) == "game-master"
    assert "Game-master's copy" in sphinx_config(project.root, "gm")["html_theme_options"]["announcement"]
    booklet = {j.target.name: j for j in handout_jobs(project, tmp_path / "out", "gm")}["vault-handout-gm-a4.pdf"]
    assert "Game-master only" in booklet.html


def test_a_name_ending_in_s_takes_an_apostrophe_alone_and_quotes_are_safe_in_the_running_head(tmp_path):
    project = vault(tmp_path, VAULT.replace("game_master: warden", "game_master: 'the \"Boss\"'"))
    html = {j.target.name: j for j in handout_jobs(project, tmp_path / "out", "gm")}["vault-handout-gm-a4.pdf"].html
    assert 'content: "The \\22 Boss\\22 \'s copy"' in html  # a quote in a CSS string ends it: escaped
    plain = vault(tmp_path / "s", VAULT.replace("game_master: warden", "game_master: Judges"))
    assert plain.ruleset("vault").game_master(start=True, possessive=True) == "Judges'"
