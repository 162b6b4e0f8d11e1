"""Ids: lower_snake_case of ASCII letters, digits and underscores, and the id a title or a mistyped id suggests."""

from __future__ import annotations

import re
import unicodedata

ID = re.compile(r"[a-z][a-z0-9_]*")
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ß": "ss", "ø": "o", "Ø": "o", "đ": "d"})


def id_like(text: str, empty: str = "entry") -> str:
    """The id ``text`` reads as: its letters without their accents (`blessé` is `blesse`, `Œil` `oeil`), every
    other run of characters an underscore, lower case; ``empty`` where nothing is left, and before a first digit."""
    plain = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    written = re.sub(r"[^a-z0-9]+", "_", plain.casefold()).strip("_")
    return f"{empty}_{written}" if written[:1].isdigit() else written or empty
