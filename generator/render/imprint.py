"""The small print of every sheet and handout: what rules it was printed from, and the way back to its page on the
site.

* **Which rules**: the ruleset's `version:` as its text states it; without one, the date of the rules. That date is
  ``SOURCE_DATE_EPOCH`` when set (a reproducible build dates everything with it), else the day the ruleset's own
  files (and its bases') last changed (``history``: the day of the last commit touching their folders when those
  are committed as they are, else the newest file's time): rules left alone print the same date however often and
  wherever they are built, and a printout made after an edit says it is newer.
* **The way back**: with the project's `site: url:` (``rulepress.yaml``) the address of the printout's page on the
  players' site, as text and as a QR code (segno, a PNG of one pixel per module drawn without smoothing, so it is
  sharp at any size and the same bytes every time). Without it, neither: a relative link means nothing on paper.

Everything here is text; the templates escape it like any other value.
"""

from __future__ import annotations

import base64
import io
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import segno

from ..history import last_changed
from ..model.ruleset import Ruleset

_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)*[a-z]?")
QR_BORDER = 2  # modules of quiet zone drawn in the image; the page's white margin around it adds more
QR_ERROR = "m"  # a code that survives a crease or a smudge; segno raises it further when the size allows


@dataclass(frozen=True)
class Imprint:
    rules: str  # "Old Mill · rules as of 2026-12-02", or "Old Mill · 2nd edition" where the text states one
    url: str = ""  # the page's address on the site; empty when the project sets no site address
    qr: str = ""  # that address as a QR code, a data: URI of a PNG; empty without an address


def rules_date(ruleset: Ruleset, root: Path) -> str:
    """``YYYY-MM-DD`` (UTC) of SOURCE_DATE_EPOCH when set, else of the last change of the ruleset's files and its
    bases' (``history.last_changed``)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), tz=UTC).strftime("%Y-%m-%d")
    changed = last_changed(Path(root), ruleset_files(ruleset, root))
    moment = datetime.fromtimestamp(changed, tz=UTC) if changed is not None else datetime.now(tz=UTC)  # no files
    return moment.strftime("%Y-%m-%d")


def ruleset_files(ruleset: Ruleset, root: Path) -> list[Path]:
    """Every file a ruleset is made from, its bases' too: its YAML, its mechanics and its source texts."""
    found: dict[Path, None] = {}
    seen = set()
    while ruleset is not None and ruleset.id not in seen:
        seen.add(ruleset.id)
        names = [*ruleset.files, *ruleset.mechanics]
        names += [f"{folder}/sources/{name}" for name in ruleset.sources for folder in _folders(ruleset)]
        for name in names:
            path = Path(root) / name
            if path.is_file():
                found[path] = None
        ruleset = ruleset.base
    return list(found)


def _folders(ruleset: Ruleset) -> set[str]:
    """The ruleset's own folder (``rules_src/<id>``), from where its files are."""
    return {name.rsplit("/", 1)[0] for name in ruleset.files}


def rules_label(ruleset: Ruleset, root: Path) -> str:
    """What rules a printout is of, in the words of its footer: the ruleset's short title and its version, else the
    date of its rules."""
    said = _version(ruleset) or f"rules as of {rules_date(ruleset, root)}"
    base = ruleset.original if ruleset.meta.overlay else None
    if base is not None and _version(base):  # house rules on the text's 2nd edition are not on its 1st
        said += f", on {base.meta.short_title or base.title} {_version(base)}"
    return f"{ruleset.meta.short_title or ruleset.title} · {said}"


def _version(ruleset: Ruleset) -> str:
    """The version the ruleset states, as printed: a bare number reads as one on paper (`version 1.2`, not `1.2`)."""
    version = " ".join(ruleset.meta.version.split())
    return f"version {version}" if _NUMBER.fullmatch(version) else version


def qr_png(url: str) -> bytes:
    """The QR code of ``url``: a PNG of one pixel per module with a quiet zone of ``QR_BORDER`` modules."""
    out = io.BytesIO()
    segno.make(url, error=QR_ERROR, micro=False).save(out, kind="png", scale=1, border=QR_BORDER)
    return out.getvalue()


def page_url(site_url: str, page: str) -> str:
    """The address of ``page`` (a path of the built site, such as ``sheets/x.html``) under the site's address."""
    return site_url + page if site_url else ""


def imprint(ruleset: Ruleset, root: Path, site_url: str, page: str) -> Imprint:
    """The imprint of a printout of ``ruleset`` whose page on the site is ``page``."""
    url = page_url(site_url, page)
    qr = "data:image/png;base64," + base64.b64encode(qr_png(url)).decode("ascii") if url else ""
    return Imprint(rules_label(ruleset, root), url, qr)
