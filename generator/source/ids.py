"""Ids: lower_snake_case of ASCII letters, digits and underscores, and the id a title or a mistyped id suggests."""

from __future__ import annotations

import re

from ..model.text import unaccented

ID = re.compile(r"[a-z][a-z0-9_]*")


def id_like(text: str, empty: str = "entry") -> str:
    """The id ``text`` reads as: its letters without their accents (`blessé` is `blesse`, `Œil` `oeil`), every
    other run of characters an underscore, lower case, and a capital inside a word the start of one (`BadId` is
    `bad_id`, `HP` `hp`); ``empty`` where nothing is left, and before a first digit."""
    split = unaccented(re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", text))  # Œil stays whole
    written = re.sub(r"[^a-z0-9]+", "_", split.casefold()).strip("_")
    return f"{empty}_{written}" if written[:1].isdigit() else written or empty
