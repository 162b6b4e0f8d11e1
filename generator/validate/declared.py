"""What the ruleset declares: the keywords entries use, and the kinds and levels its `ruleset:` lists."""

from __future__ import annotations

from ..diagnostics import Code, Diagnostic, did_you_mean
from ..model.base import NotGiven, item_loc, value_loc
from ..model.entries import split_keyword
from ..model.ruleset import PAGED_SECTIONS, Ruleset


def check_keywords(ruleset: Ruleset):
    declared = {k.name.casefold(): k for k in ruleset.reachable("keywords")}  # a base's too
    rows = [row for m in ruleset.profiles for row in m.rows] + list(ruleset.rows_with_errors)
    for entry in rows + list(ruleset.items):
        for index, written in enumerate(() if isinstance(entry.keywords, NotGiven) else entry.keywords):
            loc = item_loc(entry, "keywords", index)
            yield from _keyword_written(str(written), declared, loc)


def _keyword_written(written: str, declared: dict, loc):
    name, params = split_keyword(written)
    keyword = declared.get(name.casefold())
    if keyword is None:
        keyword = _named_first(written, declared)
        if keyword is None:
            yield Diagnostic(
                Code.UNKNOWN_KEYWORD,
                f"`{name}` is not declared in `keywords:`",
                loc,
                did_you_mean(name, [k.name for k in declared.values()]),
            )
            return
        given = written[len(keyword.name) :].split()
        shown = " ".join(p.upper() for p in keyword.params)
        takes = {0: "nothing", 1: f"a whole number ({shown})"}.get(len(keyword.params), f"whole numbers ({shown})")
        yield Diagnostic(
            Code.KEYWORD_PARAMS,
            f"`{written}` gives `{' '.join(given)}` where `{keyword.name}` takes {takes}",
            loc,
            f"write it as `{' '.join([keyword.name, shown]).strip()}`",
        )
    elif len(params) != len(keyword.params):
        wanted = " ".join([keyword.name, *(p.upper() for p in keyword.params)])
        yield Diagnostic(
            Code.KEYWORD_PARAMS,
            f"`{written}` gives {len(params)} parameter(s); `{keyword.name}` takes {len(keyword.params)}",
            loc,
            f"write it as `{wanted}`",
        )


def _named_first(written: str, declared: dict):
    """The declared keyword ``written`` starts with, followed by words that are not whole numbers (`NAME x`),
    the longest such name; None if there is none."""
    words = written.split()
    for end in range(len(words) - 1, 0, -1):
        keyword = declared.get(" ".join(words[:end]).casefold())
        if keyword is not None:
            return keyword
    return None


DECLARED = (  # (section, field, the `ruleset:` list it must be in, what it is)
    ("heroes", "level", "hero_levels", "hero level"),
    ("keywords", "kind", "keyword_kinds", "keyword kind"),
    ("items", "kind", "item_kinds", "item kind"),
    ("victory_points", "kind", "victory_point_kinds", "victory-point kind"),
)


def check_declared_kinds(ruleset: Ruleset):
    """Hero levels and the kinds of keywords, items and victory points are those `ruleset:` declares, if it declares
    any."""
    for section, field, declaring, what in DECLARED:
        declared = getattr(ruleset.meta, declaring)
        if not declared:
            continue  # nothing declared: any value
        for entry in ruleset.section(section):
            value = getattr(entry, field)
            if value in declared:
                continue
            listed = ", ".join(declared)
            if not value:  # no default: an entry of a ruleset that declares the list gives its own
                yield Diagnostic(
                    Code.UNDECLARED_KIND,
                    f"`{entry.id}` gives no `{field}:`; `{declaring}:` of "
                    f"`ruleset: declares:` says which {what}s there are",
                    value_loc(entry, field),
                    f"give it one of {listed}",
                )
                continue
            hint = (
                did_you_mean(value, declared) or f"`{declaring}:` declares {listed}; add it there or use one of those"
            )
            default = "" if field in entry.locs else f" (the default, as `{entry.id}` gives no `{field}:`)"
            yield Diagnostic(
                Code.UNDECLARED_KIND,
                f"{what} `{value}`{default} is not in `{declaring}:` of `ruleset: declares:`",
                value_loc(entry, field),
                hint,
            )


def check_declared_words(ruleset: Ruleset):
    """The pages `page_titles:` titles are pages the site makes, and the kinds the victory-point sheet heads are kinds
    the ruleset declares (when it declares them)."""
    declares = ruleset.meta.declares
    if declares is None:
        return
    for page in declares.page_titles:
        if page.id not in PAGED_SECTIONS:
            yield Diagnostic(
                Code.UNKNOWN_SECTION,
                f"`page_titles:` names `{page.id}`, which has no page of its own",
                page.loc,
                did_you_mean(page.id, PAGED_SECTIONS) or f"title one of: {', '.join(PAGED_SECTIONS)}",
            )
    kinds = ruleset.meta.victory_point_kinds
    for heading in declares.victory_point_sheet.kinds if declares.victory_point_sheet and kinds else ():
        if heading.id not in kinds:
            yield Diagnostic(
                Code.UNDECLARED_KIND,
                f"victory-point kind `{heading.id}` is not in `victory_point_kinds:` of `ruleset: declares:`",
                heading.loc,
                did_you_mean(heading.id, kinds) or f"`victory_point_kinds:` declares {', '.join(kinds)}",
            )


VERSION_LENGTH = 40  # a version prints in a printout's footer line, beside the date's place and the site's address


def check_version(ruleset: Ruleset):
    """A `version:` is a short label of one line: every sheet and handout prints it small in its footer."""
    version = ruleset.meta.version
    loc = value_loc(ruleset.meta, "version")
    if "\n" in version.strip():
        yield Diagnostic(
            Code.WRONG_TYPE,
            "`version` must be one line: it is printed in the footer of every sheet and handout",
            loc,
            "write the version or edition as the text states it, such as `version: 2nd edition`",
        )
    elif len(version.strip()) > VERSION_LENGTH:
        yield Diagnostic(
            Code.WRONG_TYPE,
            f"`version` has {len(version.strip())} characters; at most {VERSION_LENGTH} fit a printout's footer",
            loc,
            "keep the version or edition short, such as `version: 2nd edition`; say more in `summary:`",
        )
