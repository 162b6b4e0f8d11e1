"""The extension in a Sphinx project of one's own (README, "Using the Sphinx extension in your own project"): each
section the README lists renders with `:ruleset:` on any page, and what a directive cannot show is an error located
at it, never a traceback. The expected texts are read from the rulesets' YAML."""

from __future__ import annotations

import html
import io
import pickle
import re
import zlib
from pathlib import Path

import pytest
import yaml
from site_helpers import ROOT, copy_project

pytestmark = pytest.mark.build  # runs Sphinx for real

RULESETS = ["rampant_hex", "city_of_the_damned_combat", "ordo_ineptus", "warhammer_fantasy_charts"]
# What a project whose pages show Rampant Hex alone copies: checking the rules is most of a build of a few pages.
RAMPANT_HEX = ["rampant_hex"]


def _data(ruleset: str) -> dict:
    """A ruleset's sections as its YAML files write them, merged."""
    merged: dict = {}
    for path in sorted((ROOT / "rules_src" / ruleset).glob("*.yaml")):
        for section, entries in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).items():
            if isinstance(entries, dict):
                merged.setdefault(section, {}).update(entries)
    return merged


def _words(text: str, count: int) -> str:
    """The first ``count`` words of prose, before any role or code in it."""
    return " ".join(re.split(r"[{`]", str(text))[0].split()[:count])


def _shown(ruleset: str, section: str, id: str) -> list[str]:
    """Text a page showing entry ``id`` must hold, from the YAML."""
    data = _data(ruleset)
    entry = data[section][id]
    first = {
        "tables": lambda: [row["result"] for row in entry["rows"]],
        "rules": lambda: [_words(entry["body"], 6)],
        "profiles": lambda: [row["name"] for row in entry["rows"].values()],
        "spells": lambda: [_words(entry["effect"], 6), str(entry["target"])],
        "glossary": lambda: [_words(entry["definition"], 8)],
        "keywords": lambda: [_words(entry["definition"], 8)],
        "heroes": lambda: [_words(entry["ability"], 5)],
        "items": lambda: [_words(entry["rules"], 4), entry["kind"]],
        "armies": lambda: [data["profiles"][entry["matrix"]]["rows"][unit["troop"]]["name"] for unit in entry["units"]],
        "costs": lambda: [entry["name"]],
        "army_limits": lambda: [entry["title"]],
        "victory_points": lambda: [entry["name"], _words(entry["condition"], 3)],
        "phases": lambda: [entry["title"], _words(entry["summary"], 3)],
    }
    return first[section]()


# One entry of each section the README lists, from a sample ruleset that has one.
SHOWN = [
    ("tables", "rampant_hex", "activations"),
    ("rules", "rampant_hex", "what_you_need"),
    ("profiles", "rampant_hex", "troops"),
    ("spells", "rampant_hex", "olde_reddes_mystte"),
    ("glossary", "rampant_hex", "unit"),
    ("keywords", "rampant_hex", "ranged_attack"),
    ("heroes", "rampant_hex", "warrior_hero"),
    ("items", "city_of_the_damned_combat", "hammer"),
    ("armies", "rampant_hex", "thirty_point_force"),
    ("costs", "rampant_hex", "scroll_appeal"),
    ("army_limits", "rampant_hex", "heroes_half_units"),
    ("victory_points", "ordo_ineptus", "dr_shellendrak"),
    ("phases", "rampant_hex", "combat"),
]


def _page(section: str, id: str, ruleset: str | None) -> str:
    option = f":ruleset: {ruleset}\n" if ruleset else ""
    return f"# {section}\n\n```{{rulepress}} {section} {id}\n{option}```\n"


def _build(
    tmp_path: Path, pages: dict[str, str], change=None, conf: str = "", rulesets=RAMPANT_HEX, **folders
) -> tuple[Path, str]:
    """A Sphinx project in ``tmp_path/site`` with the extension and these pages, on a copy of ``rulesets``, built
    (after ``change`` to the copy of the rules, if given; with ``conf``'s settings too); its HTML folder and what
    Sphinx warned."""
    project = copy_project(tmp_path / "project", rulesets)
    if change is not None:
        change(project)
    site = tmp_path / "site"
    site.mkdir()
    (site / "conf.py").write_text(
        f'extensions = ["myst_parser", "generator.render.site"]\nrulepress_root = {str(project)!r}\n'
        'exclude_patterns = ["_build", "_doctrees"]\nhtml_theme = "furo"\n' + conf,
        encoding="utf-8",
    )
    toc = "\n".join(name.removesuffix(".md") for name in pages)
    (site / "index.md").write_text(f"# Rules\n\n```{{toctree}}\n{toc}\n```\n", encoding="utf-8")
    for name, text in pages.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    return _rebuild(site, **folders)


def _rebuild(site: Path, out: str = "_build", doctrees: str = "_doctrees", parallel: int = 0) -> tuple[Path, str]:
    """Sphinx run again on the project ``_build`` made, as a plain `sphinx-build` does (incremental, no -E); the
    output and doctrees folders relative to the project's; ``parallel``: -j."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    warnings = io.StringIO()
    with docutils_namespace():  # each run registers its nodes and roles afresh, as a new process would
        app = Sphinx(
            str(site),
            str(site),
            str(site / out),
            str(site / doctrees),
            "html",
            status=None,
            warning=warnings,
            parallel=parallel,
        )
        app.build()
    return site / out, warnings.getvalue()


def _text(page: Path) -> str:
    """A built page's words, tags gone and spaces collapsed; quotes and minus signs as written."""
    body = re.sub(r"(?s)<(script|style).*?</\1>|<[^>]+>", " ", page.read_text(encoding="utf-8"))
    text = html.unescape(body).replace("\u2212", "-").translate(str.maketrans("‘’“”", "''\"\""))
    return " ".join(text.split())


def test_each_section_the_readme_lists_renders_its_entry_on_a_page_of_ones_own(tmp_path):
    pages = {f"pages/{section}.md": _page(section, id, ruleset) for section, ruleset, id in SHOWN}
    # the ruleset may come from the page's folder instead, as on Rulepress's own site
    pages["rampant_hex/folder.md"] = _page("profiles", "troops", None)
    spell_table = _data("rampant_hex")["spells"]["olde_reddes_mystte"]["table"]
    pages["pages/spell_table.md"] = _page("tables", spell_table, "rampant_hex")
    built, warnings = _build(tmp_path, pages, rulesets=RULESETS)
    assert warnings == ""
    missing = {}
    for section, ruleset, id in SHOWN:
        text = _text(built / "pages" / f"{section}.html")
        missing[section] = [shown for shown in _shown(ruleset, section, id) if shown not in text]
    assert {section: texts for section, texts in missing.items() if texts} == {}
    in_folder = _text(built / "rampant_hex" / "folder.html")
    assert all(name in in_folder for name in _shown("rampant_hex", "profiles", "troops"))
    # a cost shown by its id is that one cost, not the section's table
    costs = _data("rampant_hex")["costs"]
    others = [cost["name"] for id, cost in costs.items() if id != "scroll_appeal"]
    assert others and not any(name in _text(built / "pages" / "costs.html") for name in others)
    # a phase shown alone keeps its step's number in the turn
    step = list(_data("rampant_hex")["phases"]).index("combat") + 1
    assert step > 1 and f'start="{step}"' in (built / "pages" / "phases.html").read_text(encoding="utf-8")
    # the spell's table, shown on another page of this project, is linked from the spell
    spell = (built / "pages" / "spells.html").read_text(encoding="utf-8")
    assert f'href="spell_table.html#{f"rampant_hex-tables-{spell_table}".replace("_", "-")}"' in spell


def test_what_a_directive_cannot_show_is_an_error_at_the_directive_naming_what_there_is(tmp_path):
    tables = list(_data("rampant_hex")["tables"])
    typo = tables[0][:-1]  # one letter short of an id
    glossary = list(_data("rampant_hex")["glossary"])
    secret_id, secret = next(
        (id, vp) for id, vp in _data("ordo_ineptus")["victory_points"].items() if vp.get("audience") == "gm"
    )
    pages = {
        "game_masters.md": _page("victory_points", secret_id, "ordo_ineptus"),
        "unknown_id.md": _page("tables", typo, "rampant_hex"),
        "unknown_section.md": _page("tablez", tables[0], "rampant_hex"),
        "unknown_ruleset.md": _page("tables", tables[0], "rampant_hexx"),
        "no_ruleset.md": _page("tables", tables[0], None),
        "no_id.md": _page("glossary", "", "rampant_hex"),
    }
    built, warnings = _build(tmp_path, pages, rulesets=RULESETS)
    told = {line.split(": ERROR: ")[0].rsplit("/", 1)[-1]: line for line in warnings.splitlines() if "ERROR" in line}
    assert set(told) == {f"{name}:3" for name in pages}, warnings  # line 3: the directive's
    assert f"rampant_hex has no tables entry `{typo}`; did you mean `{tables[0]}`?" in told["unknown_id.md:3"]
    assert all(f"`{id}`" in told["unknown_id.md:3"] for id in tables)
    assert "no section `tablez`; did you mean `tables`?" in told["unknown_section.md:3"].replace(" to show", "")
    assert "no ruleset `rampant_hexx`; did you mean `rampant_hex`?" in told["unknown_ruleset.md:3"]
    assert ":ruleset:" in told["no_ruleset.md:3"] and "`rampant_hex`" in told["no_ruleset.md:3"]
    assert "give its id" in told["no_id.md:3"] and f"`{glossary[0]}`" in told["no_id.md:3"]
    assert "`rulepress_audience` is `player`" in told["game_masters.md:3"]
    assert _words(secret["condition"], 3) not in _text(built / "game_masters.html")
    assert "Traceback" not in warnings
    assert (built / "unknown_id.html").is_file()


def test_a_roll_role_prints_the_range_of_the_row_it_names(tmp_path):
    """Prose that names a row's roll (`on a 3-4, ...`) went stale when the rows moved: {roll}`table:Result` prints
    the row's range from the data, as the table prints it (an en dash), the row named by its result in any case."""
    rows = _data("rampant_hex")["tables"]["activations"]["rows"]
    row = rows[1]
    page = f"# Rolls\n\nOn a {{roll}}`activations:{row['result'].upper()}` the player has {row['value']}.\n"
    built, warnings = _build(tmp_path, {"rampant_hex/rolls.md": page})
    assert warnings == ""
    low, _, high = str(row["roll"]).partition("-")
    shown = f"{low}\u2013{high}" if high else low
    assert f"On a {shown} the player has {row['value']}." in _text(built / "rampant_hex" / "rolls.html")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _roll_text(roll) -> str:
    low, _, high = str(roll).partition("-")
    return f"{low}\u2013{high}" if high else low


def test_a_page_quoting_values_by_roles_only_shows_the_new_values_after_the_rules_change(tmp_path):
    """An incremental build read again only the pages with a directive: a page using only roles kept the old
    numbers, while its footer said they were checked."""
    rules = tmp_path / "project" / "rules_src" / "rampant_hex"
    move = _data("rampant_hex")["values"]["move"]["value"]
    first, second = _data("rampant_hex")["tables"]["activations"]["rows"][:2]
    page = f"# Quoted\n\nA unit moves {{value}}`move`.\n\nOn {{roll}}`activations:{first['result']}` it is short.\n"
    built, warnings = _build(tmp_path, {"rampant_hex/quoted.md": page})
    assert warnings == ""
    assert f"moves {move} " in _text(built / "rampant_hex" / "quoted.html")
    low, high = str(first["roll"]).split("-")
    _edit(rules / "values.yaml", f"  move:\n    value: {move}\n", "  move:\n    value: 7 hexes\n")
    # the first row shrinks to its lowest roll, the second grows down to meet it: no gap
    _edit(
        rules / "tables.yaml",
        f"{{roll: {first['roll']}, result: {first['result']}",
        f"{{roll: {low}, result: {first['result']}",
    )
    _edit(
        rules / "tables.yaml",
        f"{{roll: {second['roll']}, result: {second['result']}",
        f"{{roll: {int(low) + 1}-{str(second['roll']).split('-')[-1]}, result: {second['result']}",
    )
    built, warnings = _rebuild(tmp_path / "site")
    assert warnings == ""
    text = _text(built / "rampant_hex" / "quoted.html")
    assert "moves 7 hexes " in text and f"On {low} it is short." in text


def test_a_role_on_a_page_when_the_rules_have_an_error_is_an_error_at_the_role_and_the_build_goes_on(tmp_path):
    """A role crashed Sphinx with a traceback (exit 2) when the rules had an error; directives said so and went on."""
    tables = tmp_path / "project" / "rules_src" / "rampant_hex" / "tables.yaml"
    last = _data("rampant_hex")["tables"]["activations"]["rows"][-1]
    move = _data("rampant_hex")["values"]["move"]["value"]
    page = "# Quoted\n\nSome words.\n\nA unit moves {value}`move`.\n"
    row = f"      - {{roll: {last['roll']}, result: {last['result']}, value: {last['value']}}}\n"

    def gap(project: Path) -> None:  # the table's last roll has no row
        _edit(tables, row, "")

    built, warnings = _build(tmp_path, {"rampant_hex/quoted.md": page}, change=gap)
    told = [line for line in warnings.splitlines() if "ERROR" in line]
    assert len(told) == 1 and told[0].split(": ERROR: ")[0].endswith("quoted.md:5"), warnings
    assert "table-gap" in warnings and "Traceback" not in warnings
    assert (built / "rampant_hex" / "quoted.html").is_file()
    # the rules mended, the page is read again and quotes the value
    (tmp_path / "project" / "rules_src" / "rampant_hex" / "tables.yaml").write_text(
        (ROOT / "rules_src" / "rampant_hex" / "tables.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    built, warnings = _rebuild(tmp_path / "site")
    assert warnings == ""
    assert f"moves {move} " in _text(built / "rampant_hex" / "quoted.html")


def test_a_plain_sphinx_build_publishes_no_template_cache(tmp_path):
    """`sphinx-build -b html . _build/html` keeps its doctrees in `_build/html/.doctrees`, and the compiled
    templates were kept beside them: in the folder one publishes."""
    built, warnings = _build(
        tmp_path, {"rampant_hex/page.md": _page("tables", "activations", None)}, doctrees="_build/.doctrees"
    )
    assert warnings == ""
    cached = [p.relative_to(built) for p in built.rglob("__jinja2_*")]
    assert cached and all(p.parts[0] == ".doctrees" for p in cached), cached


def test_a_parallel_build_reads_the_pages_as_a_serial_one_without_a_warning(tmp_path):
    """`sphinx-build -j 2 -W` failed: the extension did not say that it reads pages safely in parallel."""
    tables = list(_data("rampant_hex")["tables"])[:3]
    move = _data("rampant_hex")["values"]["move"]["value"]
    pages = {f"rampant_hex/{id}.md": _page("tables", id, None) for id in tables}
    pages |= {f"rampant_hex/quote{n}.md": f"# Quote {n}\n\nA unit moves {{value}}`move`.\n" for n in range(3)}
    built, warnings = _build(tmp_path, pages, parallel=2)
    assert warnings == ""
    for id in tables:
        text = _text(built / "rampant_hex" / f"{id}.html")
        assert all(str(row["result"]) in text for row in _data("rampant_hex")["tables"][id]["rows"]), id
    assert all(f"moves {move} " in _text(built / "rampant_hex" / f"quote{n}.html") for n in range(3))
    # what each page's entries are (where a warning in their text points) came back from the readers
    env = pickle.loads((tmp_path / "site" / "_doctrees" / "environment.pickle").read_bytes())
    assert env.rulepress_entry_lines == {f"rampant_hex/{id}:1": ("rampant_hex", "tables", id) for id in tables}


def _inventory(built: Path) -> set[str]:
    """The std labels a site's objects.inv lists (what intersphinx links to)."""
    lines = zlib.decompress((built / "objects.inv").read_bytes().split(b"\n", 4)[4]).decode().splitlines()
    return {line.split()[0] for line in lines if " std:label " in line}


def test_a_project_of_ones_own_keeps_its_themes_search_unless_it_asks_for_rulepress_search(tmp_path):
    """The extension replaced furo's search with a box whose index a plain sphinx-build never makes: every search
    on such a site failed. The theme's own search stays; Rulepress's box only where the project asks for it."""
    pages = {"rampant_hex/page.md": _page("tables", "activations", None)}
    built, warnings = _build(tmp_path / "theirs", pages)
    assert warnings == ""
    page = (built / "rampant_hex" / "page.html").read_text(encoding="utf-8")
    assert "rp-search" not in page and "data-pagefind-body" not in page and 'role="search"' in page
    assert (built / "search.html").is_file() and (built / "searchindex.js").is_file()
    assert "search" in _inventory(built)
    built, warnings = _build(tmp_path / "ours", pages, conf="rulepress_search = True\n")
    assert warnings == ""
    page = (built / "rampant_hex" / "page.html").read_text(encoding="utf-8")
    assert 'class="rp-search"' in page and "data-pagefind-body" in page
    assert not (built / "search.html").exists()
    assert "search" not in _inventory(built)  # no dead link for intersphinx


def test_a_relative_rulepress_root_is_read_from_the_folder_of_conf_py(tmp_path, monkeypatch):
    """A relative `rulepress_root` was read from wherever sphinx-build ran: from another folder, no ruleset."""
    monkeypatch.chdir("/")  # not the folder of conf.py
    move = _data("rampant_hex")["values"]["move"]["value"]
    page = "# Quoted\n\nA unit moves {value}`move`.\n"
    built, warnings = _build(tmp_path, {"rampant_hex/quoted.md": page}, conf='rulepress_root = "../project"\n')
    assert warnings == ""
    assert f"moves {move} " in _text(built / "rampant_hex" / "quoted.html")


def test_a_misspelt_id_in_a_role_is_an_error_saying_what_it_may_have_meant(tmp_path):
    """Directives said "did you mean"; roles said only that the id was not there."""
    data = _data("rampant_hex")
    value = next(iter(data["values"]))
    table = next(iter(data["tables"]))
    term = next(iter(data["glossary"].values()))["term"]
    results = [str(row["result"]) for row in data["tables"][table]["rows"]]
    page = (
        f"# Typos\n\n{{value}}`{value}x`\n\n{{table}}`{table}x`\n\n{{term}}`{term}x`\n\n"
        f"{{roll}}`{table}:{results[0]}x`\n"
    )
    built, warnings = _build(tmp_path, {"rampant_hex/typos.md": page})
    told = {line.split(": ERROR: ")[0].rsplit(":", 1)[-1]: line for line in warnings.splitlines() if "ERROR" in line}
    assert set(told) == {"3", "5", "7", "9"}, warnings
    assert f"did you mean `{value}`?" in told["3"]
    assert f"did you mean `{table}`?" in told["5"]
    assert f"did you mean `{term}`?" in told["7"]
    assert f"did you mean `{results[0]}`?" in told["9"] and all(f"`{r}`" in told["9"] for r in results)
