"""Settings of a whole project, not of one ruleset: ``rulepress.yaml`` beside ``rules_src/``.

Each class is also the schema of its part of the file: field types drive loading, ``spec`` help texts feed
diagnostics and the generated format reference, as for the sections of a ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .base import spec
from .entries import Located

PAPER_SIZES = ("a4", "letter")  # every paper size a printout can be laid out for, as file names write them
DEFAULT_SITE_NAME = "Rules library"
SITE_NAME_LENGTH = 60  # a tab's title and the navigation's heading


@dataclass(frozen=True, kw_only=True)
class SiteSettings(Located):
    """The ``site:`` part of ``rulepress.yaml``: what the rules website is called and where it is published."""

    name: str = spec(
        "The site's name: the title of every page's tab and the name above its navigation. Unset, the site is "
        "called `Rules library`.",
        "",
        example="Northfield Wargames Club rules",
    )
    url: str = spec(
        "The address the players' site (what a build writes to `build/site/`) is published at, `https://` or "
        "`http://`. Every sheet and handout then prints the address of its page there, as text and as a QR code. "
        "Unset, printouts carry no link: a link relative to nowhere is no use on paper.",
        "",
        example="https://club.example.org/rules/",
    )


@dataclass(frozen=True, kw_only=True)
class Settings(Located):
    """``rulepress.yaml`` in the project's folder, beside ``rules_src/``: what holds for every ruleset of the project.
    The file is optional; without it every setting has its default."""

    site: SiteSettings | None = spec("Where the rules website is published (below).", None)
    papers: tuple[Literal["a4", "letter"], ...] = spec(
        "The paper sizes every cheat sheet, handout, roster and card sheet is laid out for: `a4`, `letter` (US "
        "Letter) or both; the site links each. Unset, both: a club that prints on one size alone gets half the "
        "PDFs, and its builds half the layout work.",
        PAPER_SIZES,
        example="[letter]",
    )

    @property
    def site_name(self) -> str:
        """What the site is called; `Rules library` when the project does not say."""
        return " ".join((self.site.name if self.site else "").split()) or DEFAULT_SITE_NAME

    @property
    def site_url(self) -> str:
        """The site's address, ending in `/` so that a page's path joins it; empty when not set."""
        url = self.site.url.strip() if self.site else ""
        return url if not url or url.endswith("/") else url + "/"


NO_SETTINGS = Settings()
