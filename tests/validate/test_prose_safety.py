"""Prose is content, not commands: what rules prose may hold, and a site that fetches nothing.

The attack cases (tests/attacks/prose_*, symlink_*) run whole projects; these tests pin the
allow-list itself and look inside a built site.
"""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import ROOT

from generator.cli import main
from generator.validate.prose import prose_findings

TEMPLATE = ROOT / "tests" / "attacks" / "_template" / "project"


def codes(text: str) -> list[str]:
    return [f.code.code for f in prose_findings(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Plain prose with *emphasis*, `code`, a [link](https://example.com) and a [mail](mailto:a@b.c).",
        "Roles: {term}`Stunned`, {rule}`Moving <moving>`, {value}`move`, {gap}`not given`, {source}`text.txt`, "
        "{pdf}`Sheet <sheets/game-quick-reference-a4.pdf>`, {entry}`rules.moving`.",
        "```python\n>>> 1 + 1\n2\n```",
        ":::{note}\nA note with {term}`Stunned`.\n:::\n\n```{warning}\nCareful.\n```\n\n:::{admonition} A "
        "title\n:class: tip\nText.\n:::",
        "<b>raw html</b> is shown as text",
        "Costs $5 and $6: dollar signs are text, not math.",
        "Term\n: its definition, with [an anchor](#moving)",
    ],
)
def test_what_rules_prose_uses_is_allowed(text):
    assert codes(text) == []


@pytest.mark.parametrize(
    "text, code",
    [
        ("```{include} /etc/passwd\n```", "prose-directive"),
        ("```{literalinclude} /etc/passwd\n```", "prose-directive"),
        ("```{eval-rst}\n.. meta::\n   :http-equiv=refresh: 0; url=https://example.invalid\n```", "prose-directive"),
        ("~~~{raw} html\n:file: /etc/passwd\n~~~", "prose-directive"),
        (":::{image} /etc/passwd\n:::", "prose-directive"),
        ("```{figure} x.png\n```", "prose-directive"),
        ("```{toctree}\n:glob:\n*\n```", "prose-directive"),
        ("```{math}\nx\n```", "prose-directive"),
        ("```{csv-table}\n:url: http://example.invalid/x.csv\n```", "prose-directive"),
        ("``` {include} /etc/passwd\n```", "prose-directive"),  # MyST strips the space
        ("- a list\n\n  > ```{include} /etc/passwd\n  > ```", "prose-directive"),
        (":::{note}\n::::{dropdown}\nx\n::::\n:::", "prose-directive"),
        (":::{note} ```{include} /etc/passwd\n```\n:::", "prose-directive"),
        (":::plain-div\n```{include} /etc/passwd\n```\n:::", "prose-directive"),
        ("Energy {math}`E=mc^2`", "prose-role"),
        ("{download}`x </etc/passwd>`", "prose-role"),
        ("| a |\n|---|\n| {doc}`/index` |", "prose-role"),
        (":::{admonition} Title {download}`x </etc/passwd>`\ntext\n:::", "prose-role"),
        ("![x](../../../etc/passwd)", "prose-image"),
        ("![x](https://example.invalid/pixel.png)", "prose-image"),
        ("[x](javascript:alert(1))", "prose-link"),
        ("[x](JAVASCRIPT:alert(1))", "prose-link"),
        ("<javascript:alert(1)>", "prose-link"),
        ("[x][r]\n\n[r]: data:text/html,hi", "prose-link"),
        ("[x](file:///etc/passwd)", "prose-link"),
        ("[x](/etc/passwd)", "prose-link"),
        ("[x](../../secret.txt)", "prose-link"),
        ("{pdf}`x <../../secret.pdf>`", "prose-link"),
        ("{pdf}`x <javascript:alert(1)>`", "prose-link"),
    ],
)
def test_everything_else_is_refused(text, code):
    assert code in codes(text)


def test_a_finding_is_located_at_its_line_and_column():
    [finding] = prose_findings("First line.\n\nSee {download}`x </etc/passwd>` now.")
    assert (finding.line, finding.column) == (2, 4)


# -- a built site fetches nothing -----------------------------------------------------------------
class _Resources(HTMLParser):
    """Every URL a page would load by itself (src, srcset, stylesheets, icons...) and every link."""

    def __init__(self):
        super().__init__()
        self.loads: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("src", "data", "poster", "background", "action", "formaction"):
            if attrs.get(name):
                self.loads.append(attrs[name])
        if attrs.get("srcset"):
            self.loads += [part.split()[0] for part in attrs["srcset"].split(",") if part.strip()]
        if tag == "link" and attrs.get("href"):
            self.loads.append(attrs["href"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag == "meta" and (attrs.get("http-equiv") or "").lower() == "refresh":
            self.loads.append(attrs.get("content") or "")


# The theme's footer credits are plain links a reader may click; nothing loads them.
THEME_CREDITS = {"https://www.sphinx-doc.org/", "https://pradyunsg.me", "https://github.com/pradyunsg/furo"}
REMOTE = re.compile(r"^\s*([a-z][a-z0-9+.-]*:|//)", re.I)


@pytest.fixture(scope="module")
def small_site(tmp_path_factory, renders) -> Path:
    project = tmp_path_factory.mktemp("prose") / "project"
    shutil.copytree(TEMPLATE, project)
    ruleset = project / "rules_src" / "game" / "ruleset.yaml"
    ruleset.write_text(
        ruleset.read_text(encoding="utf-8")
        + """
keywords:
  sneaky:
    name: "Sneaky` {include}`/etc/hostname` `x"
    params: [n]
    definition: "Moves unseen; costs $5 (dollar signs are text): see [the publisher](https://example.com)."
    source: {section: MOVING}
""",
        encoding="utf-8",
    )
    assert main(["-C", str(project), "build", "--only", "site"]) == 0
    return project / "build" / "site"


def test_the_site_loads_nothing_from_the_network(small_site):
    remote, links = [], []
    for path in small_site.rglob("*.html"):
        parser = _Resources()
        parser.feed(path.read_text(encoding="utf-8"))
        remote += [f"{path.name}: {url}" for url in parser.loads if REMOTE.match(url)]
        links += [url for url in parser.links if REMOTE.match(url)]
    assert remote == []
    assert set(links) <= THEME_CREDITS | {"https://example.com"}, set(links) - THEME_CREDITS
    for path in small_site.rglob("*.css"):
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"url\(\s*['\"]?\s*(https?:)?//|@import\s+(url\()?\s*['\"]?\s*(https?:)?//", text), path
    assert not any("mathjax" in p.read_text(encoding="utf-8").lower() for p in small_site.rglob("*.html"))


def test_a_keyword_name_with_a_backtick_is_text(small_site):
    page = next(p for p in small_site.rglob("*.html") if "Sneaky" in p.read_text(encoding="utf-8")).read_text(
        encoding="utf-8"
    )
    assert "{include}" in page  # printed as the name's own characters, not read as a role or directive
    assert "Written <code" in page
    code = re.search(r"Written <code[^>]*>(.*?)</code>", page, re.S)[1]
    assert "Sneaky" in code and "x" in code and "{include}" in code
