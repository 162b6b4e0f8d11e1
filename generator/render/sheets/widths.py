"""How wide a word prints in a chart's type (print-base.css `table.chart`: DejaVu Sans Condensed), worked out on paper
before any layout, from the font's own advance widths: a chart sheet sets its words small enough for their columns.

The widths are the font's (its `hmtx` table, in thousandths of an em) for the printable ASCII characters; its
oblique has its upright's. A letter with an accent is as wide as its letter (é as e); any other character is taken
as an em, wider than any of these, so a guess errs towards smaller type. Nothing here knows a game.
"""

from __future__ import annotations

import unicodedata

# ' ' (32) to '~' (126), in thousandths of an em
_REGULAR = (
    286, 360, 414, 754, 572, 855, 702, 247, 351, 351, 450, 754, 286, 325, 286, 303, 572, 572, 572, 572, 572, 572, 572,
    572, 572, 572, 303, 303, 754, 754, 754, 478, 900, 615, 617, 628, 693, 568, 518, 697, 677, 265, 265, 590, 501, 776,
    673, 708, 542, 708, 625, 571, 549, 659, 615, 890, 616, 549, 616, 351, 303, 351, 754, 450, 450, 551, 571, 495, 571,
    554, 316, 571, 570, 250, 250, 521, 250, 876, 570, 550, 571, 571, 370, 469, 353, 570, 532, 736, 532, 532, 472, 572,
    303, 572, 754,
)  # fmt: skip
_BOLD = (
    313, 410, 469, 754, 626, 901, 785, 275, 411, 411, 470, 754, 342, 374, 342, 329, 626, 626, 626, 626, 626, 626, 626,
    626, 626, 626, 360, 360, 754, 754, 754, 522, 900, 696, 686, 660, 747, 615, 615, 738, 753, 334, 334, 697, 573, 896,
    753, 765, 659, 765, 693, 648, 614, 730, 696, 993, 694, 651, 652, 411, 329, 411, 754, 450, 450, 607, 644, 533, 644,
    610, 391, 644, 641, 308, 308, 598, 308, 938, 641, 618, 644, 644, 444, 536, 430, 641, 586, 831, 580, 586, 523, 641,
    329, 641, 754,
)  # fmt: skip
OTHER = 1000  # a character not in the tables: an em


def _width(character: str, table: tuple[int, ...]) -> int:
    base = unicodedata.normalize("NFD", character)[:1] or character  # é as e; ½ and ß as themselves
    code = ord(base)
    return table[code - 32] if 32 <= code <= 126 else OTHER


def word_em(word: str, bold: bool = False) -> float:
    """The width of ``word`` in ems of the chart's type, upright or oblique, bold or not."""
    table = _BOLD if bold else _REGULAR
    return sum(_width(character, table) for character in word) / 1000


def longest_word_em(text: str, bold: bool = False) -> float:
    """The width of the widest word of ``text`` (a line breaks between words, never inside one), in ems."""
    return max((word_em(word, bold) for word in text.split()), default=0.0)
