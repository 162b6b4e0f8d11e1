"""Glossary terms: each spelling of a term (or alias) reads as one term only."""

from __future__ import annotations

from ..diagnostics import Code, Diagnostic
from ..model.base import item_loc, value_loc
from ..model.ruleset import Ruleset


def _term_key(text: str) -> str:
    """A term as a reader sees it: the same word in any case, Unicode form (NFC or NFD) or spacing."""
    import unicodedata

    return unicodedata.normalize("NFC", " ".join(unicodedata.normalize("NFKC", str(text)).casefold().split()))


def check_glossary_terms(ruleset: Ruleset):
    """Two glossary terms (or aliases) that read as one word would send links to whichever came last."""
    own = ruleset.section("glossary")
    own_ids = {entry.id for entry in own}
    seen: dict[str, tuple[str, object]] = {}
    for entry in ruleset.reachable("glossary"):
        if entry.id not in own_ids:  # a base's terms: taken first, checked with the base
            for spelling in (entry.term, *entry.aliases):
                seen.setdefault(_term_key(spelling), (spelling, entry))
    for entry in own:
        for index, spelling in enumerate((entry.term, *entry.aliases)):
            key = _term_key(spelling)
            loc = value_loc(entry, "term") if index == 0 else item_loc(entry, "aliases", index - 1)
            if key in seen and seen[key][1] is not entry:
                first, other = seen[key]
                where = "in the base ruleset" if other.id not in own_ids else f"at {value_loc(other, 'term')}"
                yield Diagnostic(
                    Code.DUPLICATE_TERM,
                    f"glossary term `{spelling}` of `{entry.id}` is the term `{first}` of `{other.id}` {where}",
                    loc,
                )
                continue
            seen.setdefault(key, (spelling, entry))
