"""`rulepress list FILE.yaml`: a player's army list checked against its ruleset, then printed as a filled roster.

The list is an ``armies:`` file, as the site's army builder exports one. It is checked as if it stood in the
ruleset's folder, with every check `check` runs on the ruleset's own lists (so its errors are the same, located in
the list file), and printed with the roster sheet's template, behind the wall like every other render. The PDF goes
beside the list (or to ``--out``), written whole or not at all; a file there that is not a PDF is never replaced.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Code, Diagnostic, Diagnostics, Location, did_you_mean, printable
from ..mechanics import armies
from ..model.base import NotGiven
from ..pool import RenderFailed
from ..render.assets import default_templates
from ..render.handouts.cards import PAPERS
from ..render.handouts.content import GAP_CELL, roster_lines
from ..render.handouts.jobs import list_roster_job
from ..render.jinja import TemplateFailed
from ..render.pdf import RenderRefused, worker_render
from ..report import plural, print_diagnostics
from ..source.project import RULES_DIR, load_project, ruleset_folders, shown_path
from ..source.yamlnodes import Mapping, Scalar, describe, load_file
from ..validate import check_project
from .workers import run_tasks

LIST_SECTION = "armies"
_START = "start it with `armies:`, each list under its own id, as the army builder exports it"
EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


@dataclass(frozen=True)
class ListRequest:
    """`rulepress list`'s command line."""

    root: Path
    path: Path
    ruleset: str | None = None
    out: Path | None = None
    paper: str | None = None  # None: the first of the project's papers


class ListRefused(Exception):
    """A list that cannot be checked at all (no such file, no ruleset to check it against): one line, and a hint."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


def run_list(request: ListRequest) -> int:
    root, path = request.root, request.path.absolute()
    try:
        target = _target(path, request.out)
        folder = _folder_of(path, root)
        tree, diagnostics = _read(path, root, alone=folder is None)
        if tree is None:
            return _failed(list(diagnostics), 0)
        ruleset_id, overlays = _ruleset_of(path, root, tree, request.ruleset)
    except ListRefused as refused:
        _say(f"rulepress: error: {refused}")
        if refused.hint:
            _say(f"  hint: {refused.hint}")
        return EXIT_USAGE
    inside = folder == ruleset_id  # already one of the ruleset's files, which may hold any section: not read twice
    into = _owner_of_lists(root, ruleset_id)
    result = check_project(root, ruleset_id, extra=None if inside else {into: ((path, tree),)})
    shown = shown_path(path, root)
    if diagnostics.errors or not result.ok:
        theirs = [d for d in result.diagnostics.errors if d.location.path != shown]
        return _failed(Diagnostics(dict.fromkeys([*diagnostics, *result.diagnostics])).sorted(), len(theirs))
    ruleset = result.project.ruleset(ruleset_id)
    lists = tuple(army for army in ruleset.armies if army.loc.path == shown)
    if request.ruleset is None and folder is None:  # chosen by the matrix it names: said, and the overlays it fits
        print(printable(_chosen(ruleset, overlays)))
    for army in lists:
        print(printable(summary(ruleset, army)))
    return _print(result.project, ruleset, lists, target, _paper(request.paper or result.project.settings.papers[0]))


def summary(ruleset, army) -> str:
    """One line a list is told by: its points and its models, each against what was agreed, as its roster counts
    them (a list balanced by head-count has no points), and each limit it breaks (none can, once checked) or that
    they all hold."""
    lines = roster_lines(ruleset, army, "player")
    totals = []
    if lines["costed"]:
        totals.append(_against(lines["total"], "points", army.agreed_points, lines["agreed"]))
    if not lines["costed"] or army.agreed_models is not None:
        totals.append(_against(lines["models"], "models", army.agreed_models, lines["agreed_models"]))
    held = [limit for limit in lines["limits"] if limit["holds"]]
    limits = f"{plural(len(held), 'army limit')} held" if held else "no army limits"
    return f"{army.title}: {', '.join(totals)}, {plural(lines['units'], 'unit')}; {limits}"


def _against(spent, unit: str, agreed, shown) -> str:
    """``spent`` points or models against what was agreed: none agreed (the points of a list that agreed models
    only), left out by the text, or a number."""
    if agreed is None:
        return f"{spent} {unit}"
    if isinstance(agreed, NotGiven):  # the text leaves what was agreed out: said so, never a number made up
        return f"{spent} {unit} (agreed: {GAP_CELL})"
    return f"{spent} of {shown} {unit}"


def _target(path: Path, out: Path | None) -> Path:
    if not path.is_file():
        raise ListRefused(f"no list file {path}", "give an `armies:` file, such as one the site's army builder exports")
    target = (out or path.with_suffix(".pdf")).absolute()
    if target.is_dir():
        target = target / path.with_suffix(".pdf").name
    if target.exists() and not _is_pdf(target):
        raise ListRefused(f"{target} is there and is not a PDF; it is left as it was", "pass --out with another name")
    if not target.parent.is_dir():
        raise ListRefused(f"no folder {target.parent} to write the roster into")
    return target


def _is_pdf(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return path.is_file() and file.read(5) == b"%PDF-"
    except OSError:
        return False


def _read(path: Path, root: Path, alone: bool) -> tuple[Mapping | None, Diagnostics]:
    """The list file's ``armies:`` section as a tree to check (None when there is none to), each problem located;
    ``alone``: the file holds that section and nothing else, and what else it holds is told and left out."""
    diagnostics = Diagnostics()
    tree = load_file(path, root, diagnostics)
    if tree is None:
        if not diagnostics.errors:  # read as nothing, without a word of the reader's own
            diagnostics.add(
                Code.MISSING_FIELD, "the list file holds no `armies:`", Location(shown_path(path, root)), _START
            )
        return None, diagnostics
    if not isinstance(tree, Mapping):
        diagnostics.add(
            Code.WRONG_TYPE, f"a list file must be a mapping with `armies:`, not {describe(tree)}", tree.loc
        )
        return None, diagnostics
    for key, _node in tree.items:
        if alone and key.text != LIST_SECTION:
            diagnostics.add(
                Code.UNKNOWN_SECTION,
                f"`{key.text}` in a list file, which holds `armies:` alone",
                key.loc,
                "rules go in the ruleset's own files; a list file is what the army builder exports",
            )
    section = tree.get(LIST_SECTION)
    if section is None:
        diagnostics.add(
            Code.MISSING_FIELD,
            "the list file holds no `armies:`",
            tree.loc,
            _START,
        )
        return None, diagnostics
    if isinstance(section, Mapping) and not section.items:  # a roster of nothing would print as a blank page
        diagnostics.add(
            Code.MISSING_FIELD,
            "`armies:` holds no list",
            section.loc,
            "put each list under its own id, as the army builder exports it",
        )
        return None, diagnostics
    return Mapping(tuple((k, v) for k, v in tree.items if k.text == LIST_SECTION or not alone), tree.loc), diagnostics


def _folder_of(path: Path, root: Path) -> str | None:
    """The ruleset folder ``path`` is in, if it is in one."""
    parts = path.resolve().relative_to(root).parts if path.resolve().is_relative_to(root) else ()
    return parts[1] if len(parts) > 2 and parts[0] == RULES_DIR else None


def _ruleset_of(path: Path, root: Path, tree: Mapping, named: str | None) -> tuple[str, tuple[str, ...]]:
    """The ruleset to check the list against: the one named, else the folder the list is in, else the one whose
    army matrix the list's armies name; and, for that last, the overlays of it the list fits too."""
    names = [folder.name for folder in ruleset_folders(root)]
    if named:
        if named not in names:
            raise ListRefused(f"no ruleset `{named}` in rules_src/", did_you_mean(named, names) or _listed(names))
        return named, ()
    folder = _folder_of(path, root)
    if folder:
        return folder, ()
    matrices = _matrices_named(tree)
    project, _diagnostics = load_project(root)
    fitting = [r for r in project.rulesets if _army_matrix_ids(r) & matrices]
    # a ruleset that extends another which fits plays the list under its house values: only when asked for
    fits = sorted(r.id for r in fitting if r.meta.extends not in {f.id for f in fitting})
    if len(fits) == 1:
        return fits[0], tuple(sorted(r.id for r in fitting if r.meta.extends == fits[0] and r.meta.overlay))
    with_armies = [r.id for r in project.rulesets if _army_matrix_ids(r)]
    if not fits:
        raise ListRefused(
            f"no ruleset has the army matrix the list names ({', '.join(sorted(matrices)) or 'none'})",
            "pass --ruleset; rulesets with an army matrix: " + (", ".join(with_armies) or "none"),
        )
    if len(matrices) > 1 and not any(matrices <= _army_matrix_ids(r) for r in fitting):
        named = ", ".join(f"`{m}`" for m in sorted(matrices))
        raise ListRefused(
            f"the lists name army matrices of different rulesets ({named}): no one ruleset holds them all",
            "put each ruleset's lists in a file of their own",
        )
    raise ListRefused(f"rulesets {', '.join(fits)} each have the army matrix the list names", "pass --ruleset")


def _chosen(ruleset, overlays: tuple[str, ...]) -> str:
    """The line that says which ruleset a list was checked against, when the command chose it, and how to play it
    under an overlay's house values instead."""
    told = f"checked against `{ruleset.id}` ({ruleset.title})"
    if overlays:
        told += "; under house rules: " + ", ".join(f"--ruleset {id}" for id in overlays)
    return told


def _owner_of_lists(root: Path, ruleset_id: str) -> str:
    """The ruleset whose folder a list is read into: an overlay changes values only, so a list checked under its
    house values is read into the ruleset it extends, and the overlay is checked with it."""
    project, _diagnostics = load_project(root)
    ruleset = project.ruleset(ruleset_id)
    return ruleset.meta.extends if ruleset.meta.overlay and ruleset.meta.extends else ruleset_id


def _listed(names: list[str]) -> str:
    return "rulesets: " + (", ".join(names) or "none")


def _matrices_named(tree: Mapping) -> set[str]:
    section = tree.get(LIST_SECTION)
    if not isinstance(section, Mapping):
        return set()
    found = set()
    for _key, army in section.items:
        matrix = army.get("matrix") if isinstance(army, Mapping) else None
        if isinstance(matrix, Scalar):
            found.add(matrix.text)
    return found


def _army_matrix_ids(ruleset) -> set[str]:
    """The matrices a list of ``ruleset`` may name (a ruleset may hold several, each list naming its own)."""
    return {matrix.id for matrix in armies.army_matrices(ruleset)}


def _paper(key: str):
    return next(paper for paper in PAPERS if paper.key == key)


def _print(project, ruleset, lists: tuple, target: Path, paper) -> int:
    """Render the lists' roster into a folder beside ``target`` (the one place the render may write), then put it
    in place with one rename: a failure leaves whatever was there."""
    root = project.root
    staging = Path(tempfile.mkdtemp(prefix=".rulepress-list-", dir=target.parent))
    try:
        job = list_roster_job(project, ruleset, lists, staging / target.name, paper)
        run_tasks([(worker_render, (job, root))], 1, lambda *_: None, walled=([root, default_templates()], [staging]))
        os.replace(staging / target.name, target)
    except (RenderRefused, TemplateFailed) as failed:
        print_diagnostics(failed.diagnostics)
        _say(f"list failed: the roster was not printed; {target.name} is left as it was")
        return EXIT_ERRORS
    except RenderFailed as failed:
        _say(f"error: {failed}")
        _say(f"list failed: the roster did not finish; {target.name} is left as it was")
        return EXIT_ERRORS
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(printable(f"wrote {target}"))
    return EXIT_OK


def _failed(diagnostics: list[Diagnostic], in_ruleset: int) -> int:
    print_diagnostics(diagnostics)
    errors = len([d for d in diagnostics if d.severity.value == "error"])
    where = f" ({in_ruleset} in the ruleset: `rulepress check` tells them too)" if in_ruleset else ""
    _say(f"list failed: {plural(errors, 'error')}{where}; no roster printed")
    return EXIT_ERRORS


def _say(text: str) -> None:
    print(printable(text), file=sys.stderr, flush=True)
