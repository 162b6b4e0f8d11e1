"""Model values in plain words, for the text that quotes what an author wrote: diagnostics and the notes that
repeat a written range. Kept apart from the values (as icepool keeps its formatters apart from ``Die``), and in
the model package because both the checks and the renderers print with it and neither may import the other;
the typography of the outputs (en dashes, minus signs) is render/present.py's."""

from __future__ import annotations


def range_words(roll) -> str:
    """A roll range in plain text: `5`, `1-2`, `6+`, `1 or less`."""
    if roll.low is not None and roll.low == roll.high:
        return str(roll.low)
    if roll.high is None:
        return f"{roll.low}+"
    if roll.low is None:
        return f"{roll.high} or less"
    return f"{roll.low}-{roll.high}"
