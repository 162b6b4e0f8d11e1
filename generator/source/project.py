"""Load ``rules_src/<ruleset>/`` folders into :class:`Ruleset` values."""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import os
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from urllib.parse import urlsplit

from ..check_cache import environment, tree_digest
from ..diagnostics import Code, Diagnostics, Location, closest, did_you_mean
from ..model.entries import Meta
from ..model.ruleset import SECTIONS, SITE_FOLDERS, Example, Ruleset
from ..model.settings import NO_SETTINGS, PAPER_SIZES, SITE_NAME_LENGTH, Settings
from .bases import OVERLAY_SECTIONS, overlay_refused, resolve_bases
from .build import ID, Builder
from .fences import find_examples
from .yamlnodes import Mapping, Node, decode, describe, load_bytes, load_file, too_big_file

RULES_DIR = "rules_src"
TEMPLATES_DIR = "templates"  # a project's own templates and stylesheets (render/assets.py)
MECHANICS_FILE = "mechanics.py"  # a ruleset's own procedures, where data cannot say them (and mechanics_*.py)
META_SECTION = "ruleset"
SETTINGS_FILE = "rulepress.yaml"  # the project's own settings, beside rules_src/ (optional)
URL_LENGTH = 200  # a site address longer than this makes a QR code too dense to print small
_URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*")


@dataclass(frozen=True)
class Project:
    root: Path
    rulesets: tuple[Ruleset, ...]
    settings: Settings = NO_SETTINGS  # rulepress.yaml: what holds for the whole project

    def ruleset(self, id: str) -> Ruleset:
        for ruleset in self.rulesets:
            if ruleset.id == id:
                return ruleset
        raise KeyError(f"no ruleset `{id}`; there are: {', '.join(r.id for r in self.rulesets)}")

    def with_house_results(self, found: dict) -> Project:
        """The project with what running the examples found of each overlay (ruleset id -> ``HouseResult``s),
        so that every output shows the house rules' result where it is not the text's."""
        if not any(found.values()):
            return self
        return dataclasses.replace(
            self,
            rulesets=tuple(
                dataclasses.replace(r, house_results=tuple(found[r.id])) if found.get(r.id) else r
                for r in self.rulesets
            ),
        )

    def house_results(self) -> dict:
        return {r.id: r.house_results for r in self.rulesets if r.house_results}


def shown_path(path: Path, root: Path) -> str:
    """A file as diagnostics name it: from the project folder, or whole when it is outside (an army list)."""
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def ruleset_folders(root: Path) -> list[Path]:
    base = root / RULES_DIR
    if not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def yaml_files(folder: Path) -> list[Path]:
    return sorted(
        p
        for p in folder.rglob("*")
        if p.suffix in (".yaml", ".yml") and p.is_file() and "sources" not in p.relative_to(folder).parts
    )


def leads_outside(path: Path, root: Path) -> bool:
    """True if ``path``'s real path (every link followed) is not inside the project ``root`` (a resolved path)."""
    try:
        return not path.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # a loop of links
        return True


def outside_links(root: Path) -> list[Path]:
    """Every link under rules_src/ and templates/ (those folders included) that leads outside the project.

    A linked folder is judged as a whole and not entered; files read later are judged again one by one.
    """
    found = []
    for top in (root / RULES_DIR, root / TEMPLATES_DIR):
        if top.is_symlink() and leads_outside(top, root):
            found.append(top)
            continue
        for folder, dirs, files in os.walk(top):  # does not follow links to folders
            for name in dirs + files:
                path = Path(folder) / name
                if path.is_symlink() and leads_outside(path, root):
                    found.append(path)
    return sorted(found)


def _refuse_link(path: Path, root: Path, diagnostics: Diagnostics, what: str = "") -> None:
    what = what or ("folder" if path.is_dir() else "file")
    diagnostics.add(
        Code.SYMLINK_OUTSIDE,
        f"`{path.name}` is a {what} that leads outside the project (a symbolic link); it is not read",
        Location(path.relative_to(root).as_posix()),
    )


def _defined(paths) -> tuple[str, ...]:
    """The functions and classes mechanics files define at their top level, read and not run (what is wrong in a
    file is told where its mechanics load)."""
    names: set[str] = set()
    for path in paths:
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError, OSError, RecursionError, MemoryError):
            continue
        kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        names.update(node.name for node in tree.body if isinstance(node, kinds))
    return tuple(sorted(names))


def _inside(paths, root: Path, diagnostics: Diagnostics) -> list[Path]:
    """``paths`` whose real path is inside the project; each other one is a located error."""
    kept = []
    for path in paths:
        if leads_outside(path, root):
            _refuse_link(path, root, diagnostics)
        else:
            kept.append(path)
    return kept


def load_project(
    root: Path, only: str | None = None, extra: dict | None = None, memo: LoadMemo | None = None
) -> tuple[Project, Diagnostics]:
    """Every ruleset of the project (or ``only`` one, with the bases it extends), bases resolved. ``extra`` maps a
    ruleset id to files read already (``(path, tree)``) to load as if they were in its folder: an army list.
    ``memo``: a long-lived process's rulesets loaded before, reused for each folder whose files did not change."""
    root = Path(root).resolve()
    diagnostics = Diagnostics()
    loaded = {}
    for link in outside_links(root):
        _refuse_link(link, root, diagnostics, "link" if not link.exists() else "")
    if (root / RULES_DIR).is_symlink() and leads_outside(root / RULES_DIR, root):
        return Project(root, (), load_settings(root, diagnostics)), Diagnostics(dict.fromkeys(diagnostics))
    for folder in ruleset_folders(root):
        if leads_outside(folder, root):
            continue  # refused above
        files = (extra or {}).get(folder.name, ())
        if memo is not None and not files:
            ruleset = memo.ruleset(folder, root, diagnostics)
        else:
            ruleset = load_ruleset(folder, root, diagnostics, files)
        if ruleset is not None:
            loaded[ruleset.id] = ruleset
    resolved = resolve_bases(loaded, diagnostics)
    settings = load_settings(root, diagnostics)
    diagnostics = Diagnostics(dict.fromkeys(diagnostics))  # a link found by the walk and again when read
    if only:
        needed = _with_bases(only, loaded)
        folders = {folder.name for folder in ruleset_folders(root)}
        diagnostics = Diagnostics(d for d in diagnostics if _in_folders(d, needed, folders))
        resolved = {id: r for id, r in resolved.items() if id == only}
    return Project(root, tuple(resolved.values()), settings), diagnostics


class LoadMemo:
    """Rulesets loaded before, by everything their folder holds (each file, link and name, as the check cache
    hashes them) and the limits the loader obeys: a process that loads the same project again and again (the
    check daemon, the walled host) reads every file but builds again only the folders that changed. A ruleset
    is an immutable value, so the one kept is the one a fresh load would give, with the same diagnostics."""

    KEPT = 64  # folders remembered: the project's, and a few states of each before the last edit

    def __init__(self):
        self._loaded: dict[tuple, tuple[Ruleset | None, tuple]] = {}
        self._files: dict[tuple, tuple[Node | None, tuple]] = {}
        self._sections: dict[tuple, tuple] = {}

    def ruleset(self, folder: Path, root: Path, diagnostics: Diagnostics) -> Ruleset | None:
        key = (str(root), folder.name, tree_digest(folder, root).hexdigest(), environment())
        if key not in self._loaded:
            found = Diagnostics()
            self._loaded[key] = (load_ruleset(folder, root, found, load=self.file, build=self.section), tuple(found))
            _keep_last(self._loaded, self.KEPT)
        ruleset, said = self._loaded[key]
        diagnostics.extend(said)
        return ruleset

    def file(self, path: Path, root: Path, diagnostics: Diagnostics) -> Node | None:
        """One YAML file's nodes, parsed again only when its bytes changed (a folder's other files are not)."""
        shown = shown_path(path, root)
        if too_big_file(path, shown, diagnostics):
            return None
        data = path.read_bytes()
        key = (shown, hashlib.sha256(data).digest(), environment())
        if key not in self._files:
            found = Diagnostics()
            self._files[key] = (load_bytes(data, shown, found), tuple(found))
            _keep_last(self._files, 16 * self.KEPT)
        tree, said = self._files[key]
        diagnostics.extend(said)
        return tree

    def section(self, builder: Builder, cls, node: Node, name: str) -> list:
        """One section's entries as ``builder`` builds them, built again only when its file's bytes changed (a
        file parsed once gives the same nodes, ``file``) or the ruleset's default source did."""
        key = (id(node), name, builder.default_source)
        found = self._sections.get(key)
        if found is None or found[0] is not node:  # the node is held with what was built from it: its id stays its own
            said = Diagnostics()
            alone = Builder(said, builder.default_source)
            entries = tuple(alone.entries(cls, node, name))
            found = self._sections[key] = (node, entries, tuple(said), alone.failed, tuple(alone.rows_with_errors))
            _keep_last(self._sections, 64 * self.KEPT)
        _node, entries, said, failed, rows_with_errors = found
        builder.diagnostics.extend(said)
        builder.failed |= failed
        builder.rows_with_errors.extend(rows_with_errors)
        return list(entries)


def _keep_last(kept: dict, most: int) -> None:
    while len(kept) > most:
        del kept[next(iter(kept))]


def load_settings(root: Path, diagnostics: Diagnostics) -> Settings:
    """The project's ``rulepress.yaml``, each problem a located diagnostic; the defaults when there is none, or
    for what could not be read."""
    path = root / SETTINGS_FILE
    if not path.exists() and not path.is_symlink():
        return NO_SETTINGS
    if leads_outside(path, root) or not path.is_file():
        _refuse_link(path, root, diagnostics, "link" if not path.exists() else "")
        return NO_SETTINGS
    tree = load_file(path, root, diagnostics)
    if tree is None:
        return NO_SETTINGS
    if not isinstance(tree, Mapping):
        diagnostics.add(
            Code.WRONG_TYPE, f"`{SETTINGS_FILE}` must be a mapping of settings, not {describe(tree)}", tree.loc
        )
        return NO_SETTINGS
    built = Builder(diagnostics, "").dataclass(Settings, tree)
    if not isinstance(built, Settings):
        return NO_SETTINGS
    if built.site and len(" ".join(built.site.name.split())) > SITE_NAME_LENGTH:
        diagnostics.add(
            Code.WRONG_TYPE,
            f"`name` has {len(' '.join(built.site.name.split()))} characters; at most {SITE_NAME_LENGTH} fit a "
            "browser tab and the navigation's heading",
            built.site.locs.get("name", built.site.loc),
            "keep the site's name short, such as `name: Northfield club rules`",
        )
        built = dataclasses.replace(built, site=dataclasses.replace(built.site, name=""))
    if built.site and any(c in built.site.name for c in "<>"):
        diagnostics.add(
            Code.WRONG_TYPE,
            "`name` holds `<` or `>`: the site's name is plain text, printed on every page",
            built.site.locs.get("name", built.site.loc),
            "write the name as words, such as `name: Northfield club rules`",
        )
        built = dataclasses.replace(built, site=dataclasses.replace(built.site, name=""))
    if len(set(built.papers)) != len(built.papers) or not built.papers:
        twice = next((paper for paper in built.papers if built.papers.count(paper) > 1), "")
        diagnostics.add(
            Code.WRONG_TYPE,
            f"`papers` names `{twice}` twice" if twice else "`papers` lists no paper size: a build would print nothing",
            built.locs.get("papers", built.loc),
            "list each size once: `papers: [a4]`, `papers: [letter]` or `papers: [a4, letter]`",
        )
        built = dataclasses.replace(built, papers=tuple(dict.fromkeys(built.papers)) or PAPER_SIZES)
    if built.site and built.site.url.strip():
        problem = url_problem(built.site.url.strip())
        if problem:
            diagnostics.add(
                Code.WRONG_TYPE,
                f"`url` {problem}",
                built.site.locs.get("url", built.site.loc),
                "write the address the site is published at, such as `url: https://club.example.org/rules/`",
            )
            return dataclasses.replace(built, site=None)
    return built


def url_problem(url: str) -> str:
    """What makes ``url`` no address of a published site (empty when it is one): printouts print it and encode it."""
    if len(url) > URL_LENGTH:
        return f"has {len(url)} characters; at most {URL_LENGTH} print as a QR code small enough for a footer"
    if not _URL_CHARACTERS.fullmatch(url):
        bad = next(c for c in url if not _URL_CHARACTERS.fullmatch(c))
        return f"holds `{bad}`, which an address cannot: percent-encode it (spaces and letters beyond ASCII too)"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"must start with `https://` or `http://` and a host name, not `{url}`"
    if parts.username or parts.password:
        return "must not carry a user name or password: every printout would show it"
    if parts.query or parts.fragment:
        return "must be the site's folder, without `?` or `#`: each printout adds its page's path to it"
    return ""


def _with_bases(id: str, loaded: dict) -> set[str]:
    chain = set()
    while id in loaded and id not in chain:
        chain.add(id)
        id = loaded[id].meta.extends
    return chain


def _in_folders(diagnostic, ids: set[str], folders: set[str]) -> bool:
    """Whether a diagnostic is of one of the rulesets ``ids`` or of no ruleset folder of ``folders`` (an army list
    read into a ruleset may lie anywhere, rules_src/ itself too)."""
    parts = Path(diagnostic.location.path).parts
    return len(parts) < 2 or parts[0] != RULES_DIR or parts[1] in ids or parts[1] not in folders


def load_ruleset(
    folder: Path, root: Path, diagnostics: Diagnostics, extra: tuple = (), load=load_file, build=None
) -> Ruleset | None:
    """One ruleset folder; ``load(path, root, diagnostics)`` reads one YAML file of it and ``build(builder, cls, node,
    name)`` builds one section's entries (``LoadMemo``'s remember both)."""
    shown = lambda p: shown_path(p, root)  # noqa: E731
    if not ID.fullmatch(folder.name):
        diagnostics.add(Code.BAD_ID, f"ruleset folder `{folder.name}` is not lower_snake_case", Location(shown(folder)))
    elif folder.name in SITE_FOLDERS:
        diagnostics.add(
            Code.PAGE_NAME,
            f"ruleset folder `{folder.name}` would take the name of the site's folder of {SITE_FOLDERS[folder.name]}",
            Location(shown(folder)),
            f"rename the folder, such as `{folder.name}_rules`",
        )
    trees, unreadable = [], []
    for path in _inside(yaml_files(folder), root, diagnostics):
        said = len(diagnostics)
        tree = load(path, root, diagnostics)
        if tree is None:
            if any(d.code is not Code.EMPTY_FILE for d in diagnostics[said:]):  # an empty file hides no entries
                unreadable.append(shown(path))
            continue
        if not isinstance(tree, Mapping):
            diagnostics.add(
                Code.WRONG_TYPE, f"a rules file must be a mapping of sections, not {describe(tree)}", tree.loc
            )
            unreadable.append(shown(path))
            continue
        trees.append((path, tree))
    trees.extend(extra)

    meta_nodes = [(path, tree.get(META_SECTION)) for path, tree in trees if tree.get(META_SECTION) is not None]
    # ruleset.yaml's is the ruleset's; one in another file is told wherever it sorts
    meta_nodes.sort(key=lambda found: Path(found[0]).name != "ruleset.yaml")
    default_source = ""
    meta = None
    if not meta_nodes and not unreadable:  # a file that does not read may hold it: its own error is said
        diagnostics.add(
            Code.MISSING_FIELD,
            f"ruleset `{folder.name}` has no `ruleset:` section",
            Location(shown(folder / "ruleset.yaml")),
            "add ruleset.yaml with `ruleset: {title: ...}`",
        )
    for index, (_path, node) in enumerate(meta_nodes):
        if index:
            diagnostics.add(
                Code.DUPLICATE_ID, "a second `ruleset:` section", node.loc, "keep one `ruleset:` per folder"
            )
            continue
        source_node = node.get("source") if isinstance(node, Mapping) else None
        default_source = source_node.text if source_node is not None and hasattr(source_node, "text") else ""
        built = Builder(diagnostics, default_source).dataclass(Meta, node, folder.name)
        meta = built if isinstance(built, Meta) else None

    builder = Builder(diagnostics, default_source)
    sections: dict[str, list] = defaultdict(list)
    seen: dict[tuple[str, str], Location] = {}
    set_aside = []  # (section, entry) of each duplicate: checked all the same (validate.checks)
    for _path, tree in trees:
        for key, node in tree.items:
            name = key.text
            if name == META_SECTION:
                continue
            if name not in SECTIONS:
                hint = did_you_mean(name, list(SECTIONS) + [META_SECTION]) or "sections are: " + ", ".join(SECTIONS)
                diagnostics.add(Code.UNKNOWN_SECTION, f"unknown section `{name}`", key.loc, hint)
                meant = closest(name, SECTIONS)
                if meant and isinstance(
                    node, Mapping
                ):  # `tabels:`: what names its entries is not told they are missing
                    builder.failed.update((meant, entry_key.text) for entry_key, _value in node.items)
                continue
            if meta is not None and meta.overlay and name not in OVERLAY_SECTIONS:
                diagnostics.extend(overlay_refused(name, key, node, meta.extends))
                continue  # not built: what it holds is no entry of the overlay, whose base keeps its own
            built = build(builder, SECTIONS[name], node, name) if build else builder.entries(SECTIONS[name], node, name)
            for entry in built:
                where = (name, entry.id)
                if where in seen:
                    first = seen[where]
                    diagnostics.add(
                        Code.DUPLICATE_ID, f"{name} entry `{entry.id}` is already defined at {first}", entry.loc
                    )
                    set_aside.append((name, entry))
                    continue
                seen[where] = entry.loc
                sections[name].append(entry)

    examples = []
    for path, _tree in trees[: len(trees) - len(extra)]:  # a list's notes are not rules text to run
        examples.extend(_examples(folder.name, path, root, sections))
    mechanics = _inside(
        sorted(folder.glob("mechanics*.py"), key=lambda p: (p.name != MECHANICS_FILE, p.name)), root, diagnostics
    )
    sources_folder = folder / "sources"
    source_files = []
    if sources_folder.exists() and leads_outside(sources_folder, root):
        _refuse_link(sources_folder, root, diagnostics)
    elif sources_folder.is_dir():
        source_files = sorted(p for p in sources_folder.glob("*") if p.is_file())
    sources = {
        p.name: _source_text(p, shown(p), diagnostics)
        for p in _inside(source_files, root, diagnostics)
        if not too_big_file(p, shown(p), diagnostics)
    }
    if meta is None:
        meta = Meta(title=folder.name, id=folder.name)
    return Ruleset(
        id=folder.name,
        meta=meta,
        unloaded=frozenset(builder.failed),
        rows_with_errors=tuple(builder.rows_with_errors),
        set_aside=tuple(set_aside),
        examples=tuple(examples),
        files=tuple(shown(p) for p, _ in trees),
        unreadable=tuple(unreadable),
        sources=MappingProxyType(sources),
        mechanics=tuple(shown(p) for p in mechanics if p.is_file()),
        mechanics_defines=_defined(p for p in mechanics if p.is_file()),
        **{name: tuple(entries) for name, entries in sections.items()},
    )


def _source_text(path: Path, written: str, diagnostics: Diagnostics) -> str:
    """A source text as UTF-8; one that is not is an `encoding` error at its first bad byte, and is read as Windows-1252
    (what Word saves as "ANSI"), so its quotes are checked as the author sees them rather than each refused."""
    data = path.read_bytes()
    text = decode(data, written, diagnostics)
    return text if text is not None else data.decode("cp1252", errors="replace")


def _examples(ruleset: str, path: Path, root: Path, sections) -> list[Example]:
    shown = path.relative_to(root).as_posix()
    owners = sorted(
        (
            (entry.loc.line, f"{name}.{entry.id}")
            for name, entries in sections.items()
            for entry in entries
            if entry.loc.path == shown
        ),
    )
    found = []
    for block in find_examples(path.read_text(encoding="utf-8")):
        owner = next((o for line, o in reversed(owners) if line <= block.line), "")
        found.append(Example(ruleset, owner, shown, block.line, block.source, block.indent))
    return found
