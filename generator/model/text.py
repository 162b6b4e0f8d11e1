"""Model values in plain words, for the text that quotes what an author wrote: diagnostics and the notes that
repeat a written range. Kept apart from the values (as icepool keeps its formatters apart from ``Die``), and in
the model package because both the checks and the renderers print with it and neither may import the other;
the typography of the outputs (en dashes, minus signs) is render/present.py's."""

from __future__ import annotations

import unicodedata


def range_words(roll) -> str:
    """A roll range in plain text: `5`, `1-2`, `6+`, `1 or less`."""
    if roll.low is not None and roll.low == roll.high:
        return str(roll.low)
    if roll.high is None:
        return f"{roll.low}+"
    if roll.low is None:
        return f"{roll.high} or less"
    return f"{roll.low}-{roll.high}"


_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss", "ø": "o", "Ø": "O", "đ": "d"})


def unaccented(text: str) -> str:
    """``text`` in plain Latin letters: accents dropped and ligatures spelt out (`Œil blessé` is `OEil blesse`), as
    ids are made and as a reader looks a word up in an index (À under A, Œ under O)."""
    plain = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    return "".join(c for c in plain if not unicodedata.combining(c))


def sort_key(text: str) -> tuple[str, str]:
    """Where ``text`` goes in an alphabetical list: by its letters without accents, then as written."""
    return unaccented(text).casefold(), text.casefold()


def initial(text: str) -> str:
    """The letter of an index ``text`` is listed under (`À terre`: A, `Œil`: O), `#` for a digit or a sign."""
    first = unaccented(text)[:1].upper()
    return first if first.isalpha() else "#"


def anchor(ruleset_id: str, kind: str, id: str) -> str:
    """The anchor an entry's (or a page's) place on the site has: `ruleset-section-id`, with hyphens. Prose may link
    it (`[the ambush](#game-rules-ambush)`); `check` holds such a link to the audience rule as a role."""
    return f"{ruleset_id}-{kind}-{id}".replace("_", "-")
