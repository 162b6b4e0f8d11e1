"""The sections of a source text, read from the text: where each heading stands and how far its section runs.

A citation's quote must lie inside the section it names, so the booklet's "Source: …, SECTION" says
where the words are. A section begins where its name stands as a heading, as the text writes it (case
and words, spacing aside):

* a line of its own (a list dash before it allowed: ``-Make volleys.``);
* at the start of a line, or after a sentence's end, followed by the section's first sentence: a text
  flattened from a web page keeps its headings inline (``Routed The model is removed``).

A section runs to where the next heading begins: any heading some entry cites, or any line that looks
like one (a capitalised line of at most seven words, no sentence punctuation, no table columns). A name
that stands nowhere as a heading (a truncated one, a word of a sentence) is no section.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from types import MappingProxyType

HEADING_WORDS = 7  # a longer line is a sentence, not a heading
_SPACE = r"[^\S\n]"  # spacing within a line, no-break spaces too
_BULLET = rf"[-–•*]?{_SPACE}*"
_COLUMNS = re.compile(r"\S[^\S\n]{3,}\S")  # a table row: columns set apart by runs of spaces


def plain(text: str) -> str:
    """Text compared as the eye reads it: typographic quotes as plain ones, any run of whitespace one space."""
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return " ".join(text.split())


def _looks_like_heading(line: str) -> bool:
    words = line.split()
    return (
        0 < len(words) <= HEADING_WORDS
        and line[0].isupper()
        and not _COLUMNS.search(line)
        and not re.search(r"[,;:]|(?<!\.)\.$", line)
    )


BULLETED = 100  # the rank of a list item standing as a heading: under every other heading


@dataclass(frozen=True)
class Sections:
    """One source text's headings: ``starts`` maps each heading (cited or found) to where it stands; ``ranks``
    every heading's offset to its depth (0 a plain heading, 1, 2... a numbered one and its sub-list, then a
    list item), so a section runs over its sub-headings to the next heading of its rank or above."""

    text: str
    starts: dict[str, tuple[int, ...]]
    ranks: tuple[tuple[int, int], ...]  # (offset, rank), in the text's order
    headings: tuple[str, ...]  # every heading found, for a did-you-mean

    def spans(self, name: str) -> list[str]:
        """The text of each place section ``name`` runs (a name standing as a heading twice has two)."""
        found = []
        rank_at = dict(self.ranks)
        for start in self.starts.get(name, ()):
            end = next(
                (offset for offset, rank in self.ranks if offset > start and rank <= rank_at[start]), len(self.text)
            )
            found.append(self.text[start:end])
        return found

    def holding(self, quote: str, normal) -> list[str]:
        """The sections whose text holds ``quote`` (compared by ``normal``), innermost first."""
        found = self.__dict__.setdefault("_holding", {})  # frozen: a cache beside the fields, never compared
        if (quote, normal) not in found:
            wanted = normal(quote)
            holding = [
                (min(len(span) for span, said in spans if wanted in said), name)
                for name, spans in self._normalized(normal).items()
                if any(wanted in said for _span, said in spans)
            ]
            found[quote, normal] = tuple(name for _length, name in sorted(holding))
        return list(found[quote, normal])

    def _normalized(self, normal) -> dict[str, list[tuple[str, str]]]:
        """Each section's spans with their text as ``normal`` gives it, made once per way of comparing: a text is
        asked about every quote that cites it."""
        made = self.__dict__.setdefault("_normal_spans", {})  # frozen: a cache beside the fields, never compared
        if normal not in made:
            made[normal] = {name: [(span, normal(span)) for span in self.spans(name)] for name in self.starts}
        return made[normal]


_NUMBERED = re.compile(r"(\d+)\s*:")


def _ranked(places: dict[int, str]) -> tuple[tuple[int, int], ...]:
    """Each heading's rank, in the text's order: ``places`` maps its offset to its kind ("plain", "bullet", or
    the number of a numbered heading). A numbered heading that starts again at 1 opens a sub-list (the
    text's "2: Minor heroes" lists "1: Bold hero"...); the next number of an outer list closes it."""
    ranks, numbers = [], []
    for offset in sorted(places):
        kind = places[offset]
        if kind == "plain":
            numbers = []
            ranks.append((offset, 0))
        elif kind == "bullet":
            ranks.append((offset, BULLETED))
        else:
            number = int(kind)
            if numbers and number == 1 and numbers[-1] != 0:
                numbers.append(1)
            else:
                while numbers and numbers[-1] != number - 1:
                    numbers.pop()
                numbers[-1:] = [number]
            ranks.append((offset, len(numbers)))
    return tuple(ranks)


def find_sections(text: str, names) -> Sections:
    """The headings of ``text``: every one of ``names`` (the sections cited from it) where it stands as a
    heading, and every line that looks like a heading."""
    return _sections(text, frozenset(names))


@functools.lru_cache(maxsize=64)  # a pure function of a source text: an overlay and its base, or a check run again
def _sections(text: str, names: frozenset) -> Sections:
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')  # offsets kept
    starts: dict[str, tuple[int, ...]] = {}
    places: dict[int, str] = {}
    headings: list[str] = []
    for line in re.finditer(rf"^{_SPACE}*(?P<line>\S.*?){_SPACE}*$", text, re.M):
        if _looks_like_heading(line["line"]):
            places[line.start("line")] = "plain"
            starts.setdefault(plain(line["line"]), ())
            starts[plain(line["line"])] += (line.start("line"),)
            headings.append(plain(line["line"]))
    for name in sorted({plain(n) for n in names if plain(n)}):
        words = r"\s+".join(re.escape(word) for word in name.split())
        whole_line = (
            rf"^{_SPACE}*(?P<bullet>[-–•*]?){_SPACE}*(?P<at>{words})[,:]?{_SPACE}*$"  # a title may end in , or :
        )
        # a heading run into its section's text, at a line's start or after a sentence's end
        inline = (
            rf"(?:^{_SPACE}*|(?<=[.!?|]){_SPACE}+)(?P<at>{words})(?={_SPACE}+[A-Z0-9\"']|$)"
            rf"|\A{_SPACE}*(?P<first>{words})"
        )
        found = [(m.start("at"), bool(m["bullet"])) for m in re.finditer(whole_line, text, re.M)]
        if not found:
            found = [
                (m.start("at") if m["at"] is not None else m.start("first"), False)
                for m in re.finditer(inline, text, re.M)
            ]
        if not found:
            continue
        numbered = _NUMBERED.match(name)
        for offset, bullet in found:
            places[offset] = "bullet" if bullet else numbered[1] if numbered else "plain"
        starts[name] = tuple(sorted(set(starts.get(name, ())) | {offset for offset, _bullet in found}))
        headings.append(name)
    return Sections(text, MappingProxyType(starts), _ranked(places), tuple(dict.fromkeys(headings)))
