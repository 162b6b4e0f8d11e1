"""Ids: lower_snake_case of ASCII letters, digits and underscores, and the id a title or a mistyped id suggests."""

from __future__ import annotations

import re

from ..model.text import unaccented

ID = re.compile(r"[a-z][a-z0-9_]*")


def id_like(text: str, empty: str = "entry") -> str:
    """The id ``text`` reads as: its letters without their accents (`blessé` is `blesse`, `Œil` `oeil`), every
    other run of characters an underscore, lower case; ``empty`` where nothing is left, and before a first digit."""
    written = re.sub(r"[^a-z0-9]+", "_", unaccented(text).casefold()).strip("_")
    return f"{empty}_{written}" if written[:1].isdigit() else written or empty
