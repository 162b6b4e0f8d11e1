"""Citations: the source texts cited are in `sources/`, their sections are headings, their quotes are there."""

from __future__ import annotations

import functools

from ..diagnostics import Code, Diagnostic, did_you_mean
from ..model.base import Source, value_loc
from ..model.ruleset import Ruleset
from .sections import Sections, find_sections, plain


@functools.lru_cache(maxsize=4096)  # each source text and quote, once for a ruleset and its overlays (and a daemon)
def _normal(text: str) -> str:
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return " ".join(text.split()).casefold()


def _cited(entry):
    """An entry and every row or part of it that can cite a source."""
    yield entry
    for value in vars(entry).values():
        if isinstance(value, tuple):
            for item in value:
                if hasattr(item, "locs") and not isinstance(item, str):
                    yield from _cited(item)


def check_sources(ruleset: Ruleset):
    normal = {name: _normal(text) for name, text in ruleset.sources.items()}
    sections = _cited_sections(ruleset)
    if ruleset.meta.source and ruleset.meta.source not in ruleset.sources:
        yield Diagnostic(
            Code.SOURCE_FILE,
            f"source text `{ruleset.meta.source}` is not in `sources/`",
            value_loc(ruleset.meta, "source"),
            did_you_mean(ruleset.meta.source, ruleset.sources),
        )
    for _section, entry in ruleset.all_entries():
        for part in _cited(entry):
            source = getattr(part, "source", None)
            if not isinstance(source, Source):
                continue
            if not source.file:
                if source.quote:  # printed as a quote from the text, while there is no text to find it in
                    yield Diagnostic(
                        Code.SOURCE_FILE,
                        f"a quote from no source text: the ruleset names none, so “{_clipped(source.quote)}” cannot "
                        "be checked",
                        value_loc(source, "quote"),
                        "put the text in `sources/` and name it in `ruleset: source:` (or the citation's `file:`), "
                        "or leave the quote out",
                    )
                continue
            if source.file not in ruleset.sources:
                if source.file != ruleset.meta.source:
                    yield Diagnostic(
                        Code.SOURCE_FILE,
                        f"source text `{source.file}` is not in `sources/`",
                        source.loc,
                        did_you_mean(source.file, ruleset.sources),
                    )
                continue
            yield from _citation_problems(source, normal[source.file], sections[source.file])


def _cited_sections(ruleset: Ruleset) -> dict[str, Sections]:
    """Each source text's sections, found with the names the ruleset's entries cite from it."""
    names: dict[str, set[str]] = {name: set() for name in ruleset.sources}
    for _section, entry in ruleset.all_entries():
        for part in _cited(entry):
            source = getattr(part, "source", None)
            if isinstance(source, Source) and source.section and source.file in names:
                names[source.file].add(source.section)
    return {name: find_sections(text, names[name]) for name, text in ruleset.sources.items()}


def _clipped(text: str, length: int = 60) -> str:
    """A quote or heading as a message shows it: its first ``length`` characters, and an ellipsis where it goes on."""
    return text if len(text) <= length else text[:length] + "…"


_CURLY = ("“”", "‘’", "„“", "«»")


def _curly_quoted(quote: str, text: str) -> str | None:
    """The hint for a quote written between the curly quotes Word types: YAML keeps them as part of the value."""
    if len(quote) > 2 and (quote[0] + quote[-1]) in _CURLY and _normal(quote[1:-1].strip()) in text:
        return (
            f"the text holds it without the {quote[0]} {quote[-1]} around it, which YAML keeps as part of the value "
            'as Word types them: quote with straight quotes, "…", or none'
        )
    return None


def _citation_problems(source: Source, text: str, sections: Sections):
    """A citation's section stands as a heading in its text, and its quote lies inside that section."""
    section = plain(source.section)
    if source.quote and _normal(source.quote) not in text:
        yield Diagnostic(
            Code.SOURCE_QUOTE,
            f"the quote is not in {source.file}: “{_clipped(source.quote)}”",
            value_loc(source, "quote"),
            _curly_quoted(source.quote, text),
        )
        return
    if not section:
        return
    if section not in sections.starts:
        where = "is no heading of" if _normal(section) in text else "is not in"
        yield Diagnostic(
            Code.SOURCE_SECTION,
            f"section “{_clipped(section)}” {where} {source.file}",
            value_loc(source, "section"),
            did_you_mean(section, sections.headings) or "copy the heading as the source writes it",
        )
        return
    if source.quote and section not in (holding := sections.holding(source.quote, _normal)):
        under = (
            f"did you mean `{holding[0]}`? the quote stands under it"
            if holding
            else "cite the section whose text holds the quote"
        )
        yield Diagnostic(
            Code.QUOTE_SECTION,
            f"the quote is not in section “{_clipped(section)}” of {source.file}: “{_clipped(source.quote)}”",
            value_loc(source, "section"),
            under,
        )
