"""Who may see an entry: player text names no game-master-only entry, and hidden tasks are the game-master's."""

from __future__ import annotations

from functools import cached_property

from ..diagnostics import Code, Diagnostic
from ..examples.sentence import names_read, stated
from ..model.base import Named, value_loc
from ..model.computed import Value
from ..model.entries import gm_only
from ..model.ruleset import Ruleset, term_names
from .links import ANCHOR_LINK, ROLE, prose_fields, prose_loc, role_entry, role_target, site_anchors
from .references import entry_or_none


def _any_entry(ruleset: Ruleset, id: str):
    """For a bare id (see_also): a game-master-only entry of that id if there is one, else any entry of it."""
    return _by_id(ruleset).get(id)


def _by_id(ruleset: Ruleset) -> dict:
    """``_any_entry`` of every id at once: the first entry of each id, or its first game-master-only one."""
    found = {}
    for _section, entry in ruleset.all_entries():
        held = found.get(entry.id)
        if held is None or (gm_only(entry) and not gm_only(held)):
            found[entry.id] = entry
    return found


class _Finder:
    """Finds the entry a ``Named`` names in one ruleset, in the places it says to look. One finder serves a
    whole check: what it looks among is gathered once, not once per entry that names something."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset

    @cached_property
    def by_id(self) -> dict:
        return _by_id(self.ruleset)

    @cached_property
    def keywords(self) -> dict:
        return {k.name.casefold(): k for k in self.ruleset.reachable("keywords")}

    @cached_property
    def heroes(self) -> dict:
        return {h.id: h for h in self.ruleset.heroes}

    @cached_property
    def troops(self) -> dict:
        return {row.id: row for matrix in self.ruleset.profiles for row in matrix.rows}

    def find(self, name: Named, inside=None):
        if not name.among:
            return self.by_id.get(name.id)
        for place in name.among:
            if (found := self._in(place, name.id, inside)) is not None:
                return found
        return None

    def _in(self, place: str, id: str, inside):
        if place == "keyword":
            return self.keywords.get(id.casefold())
        if place == "row":
            return {row.id: row for row in inside.rows}.get(id)
        if place == "hero":
            return self.heroes.get(id)
        if place == "troop":
            return self.troops.get(id)
        return entry_or_none(self.ruleset, place, id)

    def found(self, names, inside=None):
        """(entry, where it is named) for each of ``names`` found, and for what is named inside each found."""
        for name in names:
            if (found := self.find(name, inside)) is not None:
                yield found, name.loc
                yield from self.found(name.inside, found)


def _references(ruleset: Ruleset, entry, finder: _Finder, terms: dict[str, str]):
    """(target entry, location) for every entry that ``entry`` names: what its type names (``names()``), then
    the prose roles of every kind in its text (``terms``: the ruleset's ``term_names``)."""
    yield from finder.found(entry.names())
    for owner, name, value in prose_fields(entry):
        if name == "gm_note" or (owner is not entry and gm_only(owner)):
            continue  # the game-master's own text may name what it likes
        for match in ROLE.finditer(value):
            if (found := role_entry(ruleset, match["role"], role_target(match["target"]), terms)) is not None:
                yield found, prose_loc(owner, name, value, match.start())


def _secret_places(ruleset: Ruleset) -> dict:
    """The `#anchor` places of game-master-only entries, mapped to the entry."""
    return {place: e for place, (_section, e) in site_anchors(ruleset).items() if e is not None and gm_only(e)}


def _linked_by_anchor(entry, secret: dict):
    """(game-master-only entry, location) of each `#anchor` link of an entry's player text to that entry's place
    (``secret``: ``_secret_places``): the players' site has no such place, and its build stops there."""
    if not secret:
        return
    for owner, name, text in prose_fields(entry, "](#"):
        if name == "gm_note" or (owner is not entry and gm_only(owner)):
            continue
        for match in ANCHOR_LINK.finditer(text):
            if (target := secret.get(match[1])) is not None:
                yield target, prose_loc(owner, name, text, match.start(1) - 1)  # at the `#`


EXAMPLE_READS = ("values", "formulas", "tables", "lookups", "charts")  # what an example's result can print


def _read_by_examples(ruleset: Ruleset, entry):
    """(entry, location) of what the worked examples of an entry's player text read (values, formulas, tables...):
    players read each example's sentence, whose numbers are those entries' (``values.secret`` under "The bonus is
    2")."""
    for owner, name, text in prose_fields(entry, ">>>"):
        if name != "gm_note" and (owner is entry or not gm_only(owner)):
            yield from _read_by_examples_of(ruleset, owner, name, text)


def _read_by_examples_of(ruleset: Ruleset, owner, name: str, text: str):
    for offset, _paragraph, code in stated(text):
        for id in names_read(code):
            for section in EXAMPLE_READS:
                if (found := entry_or_none(ruleset, section, id)) is not None:
                    yield found, prose_loc(owner, name, text, offset)


def check_gm_references(ruleset: Ruleset):
    finder, terms, secret = _Finder(ruleset), term_names(ruleset), _secret_places(ruleset)
    for _section, entry in (("ruleset", ruleset.meta), *ruleset.all_entries()):
        if gm_only(entry):
            continue
        yield from _placed_in_gm_chapter(ruleset, entry)
        seen = set()
        for target, loc in _references(ruleset, entry, finder, terms):
            if gm_only(target) and (id(target), str(loc)) not in seen:
                seen.add((id(target), str(loc)))
                yield Diagnostic(
                    Code.GM_REFERENCE,
                    f"`{entry.id or 'ruleset'}` is for players but names game-master-only `{target.id}`",
                    loc,
                    _hidden_by_overlay(ruleset, target),
                )
        for target, loc in _linked_by_anchor(entry, secret):
            if (id(target), str(loc)) not in seen:
                seen.add((id(target), str(loc)))
                yield Diagnostic(
                    Code.GM_REFERENCE,
                    f"`{entry.id or 'ruleset'}` is for players but links the place of game-master-only `{target.id}`",
                    loc,
                    "link it only from game-master material, or mark the linking entry `audience: gm`",
                )
        for target, loc in _read_by_examples(ruleset, entry):
            if gm_only(target) and (id(target), str(loc)) not in seen:
                seen.add((id(target), str(loc)))
                yield Diagnostic(
                    Code.GM_REFERENCE,
                    f"`{entry.id or 'ruleset'}` is for players but its worked example reads game-master-only "
                    f"`{target.id}`: players read the example's sentence, and its numbers",
                    loc,
                    "read it in game-master material alone, or mark the entry `audience: gm`",
                )


def _placed_in_gm_chapter(ruleset: Ruleset, entry):
    """Player material in the game-master's chapter: its page, which players never get, is where it prints."""
    chapter = getattr(entry, "chapter", "")
    placed_in = entry_or_none(ruleset, "chapters", chapter) if chapter else None
    if placed_in is not None and gm_only(placed_in):
        yield Diagnostic(
            Code.GM_REFERENCE,
            f"`{entry.id}` is for players but is placed in game-master-only chapter `{chapter}`",
            value_loc(entry, "chapter"),
            "place it in a chapter for the players, or mark it `audience: gm` too",
        )


def _hidden_by_overlay(ruleset: Ruleset, target) -> str | None:
    """The hint when an overlay made a value its base's player text prints the game-master's."""
    if not (ruleset.meta.overlay and isinstance(target, Value) and target.is_house_rule and "audience" in target.locs):
        return None
    return (
        f"the overlay `{ruleset.id}` marks its house value `{target.id}` `audience: gm` ({target.locs['audience']}), "
        f"but player text of `{ruleset.meta.extends}` prints it: keep that house value for players"
    )


def check_audience(ruleset: Ruleset):
    for vp in ruleset.victory_points:
        if vp.hidden and vp.audience != "gm":
            yield Diagnostic(
                Code.HIDDEN_NOT_GM, f"hidden task `{vp.id}` must be `audience: gm`", value_loc(vp, "hidden")
            )
