"""The generated references cover the whole schema and every diagnostic code."""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import pytest

from generator.diagnostics import Code
from generator.examples.names import _signature
from generator.model.base import NotGiven
from generator.model.computed import Setting
from generator.model.dice import DiceExpr, RollRange
from generator.model.entries import Meta
from generator.model.formula import Expression
from generator.model.quantity import Quantity
from generator.model.ruleset import SECTIONS
from generator.render.reference import (
    PARTS,
    _light_escape,
    codes_reference,
    doc,
    example_names,
    format_reference,
    names_reference,
)
from generator.source.build import is_required, schema_fields
from generator.validate import check_project

REFERENCE = format_reference()


def parts_of(text: str) -> dict[str, str]:
    """The reference cut at its `## ` headings: heading -> body."""
    pieces = re.split(r"^## (.+)$", text, flags=re.M)
    return dict(zip(pieces[1::2], pieces[2::2]))


PARTS_BY_HEADING = parts_of(REFERENCE)


def documented_classes() -> dict[str, type]:
    """Each heading of the reference and the class whose fields it must list."""
    headings = {"`ruleset:` (in ruleset.yaml)": Meta}
    headings |= {f"`{name}:`": cls for name, cls in SECTIONS.items()}
    headings |= dict(PARTS)
    return headings


def nested_dataclasses(tp) -> set[type]:
    """Dataclasses a field type holds, through Optional, unions, tuples and Annotated."""
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return {tp}
    return set().union(*(nested_dataclasses(arg) for arg in typing.get_args(tp)))


def test_every_section_has_its_heading():
    assert list(PARTS_BY_HEADING)[: 1 + len(SECTIONS)] == [
        "`ruleset:` (in ruleset.yaml)",
        *(f"`{n}:`" for n in SECTIONS),
    ]


@pytest.mark.parametrize(
    "heading, cls", documented_classes().items(), ids=lambda value: getattr(value, "__name__", None) or str(value)
)
def test_every_author_facing_field_is_documented(heading, cls):
    body = PARTS_BY_HEADING[heading]
    rows = {m[1]: m[0] for m in re.finditer(r"^\| `([^`]+)` \|.*\|$", body, flags=re.M)}
    fields = schema_fields(cls)
    assert list(rows) == [key for key, _f, _tp in fields]  # every field, in schema order, and nothing else
    for key, f, _tp in fields:
        row = rows[key]
        assert f.metadata.get("help", "") in row, key
        assert ("**required**" in row) == is_required(f), key
        if f.metadata.get("example"):
            assert f"`{f.metadata['example']}`" in row, key


def test_internal_fields_are_not_documented():
    for heading, cls in documented_classes().items():
        internal = {f.name for f in dataclasses.fields(cls) if f.metadata.get("internal")}
        documented = set(re.findall(r"^\| `([^`]+)` \|", PARTS_BY_HEADING[heading], flags=re.M))
        assert internal & documented == set(), heading


def test_every_nested_part_of_an_entry_is_documented():
    nested = set()
    for cls in documented_classes().values():
        for _key, _f, tp in schema_fields(cls):
            nested |= nested_dataclasses(tp)
    # `D6`, `1-2`, `not given`, `6"`, `strength - toughness`, `{input: value}`: named by type_name
    written_as_one_value = {DiceExpr, RollRange, NotGiven, Quantity, Expression, Setting}
    assert nested - written_as_one_value <= set(PARTS.values())


def test_section_docstrings_are_shown():
    for name, cls in SECTIONS.items():
        assert doc(cls) in PARTS_BY_HEADING[f"`{name}:`"], name
        assert (
            " ".join(cls.__doc__.split()).replace("``", "`")[:40] in doc(cls).replace("``", "`").replace("` ", "`")[:40]
            or "``" in cls.__doc__
        )


def type_cell(heading: str, key: str) -> str:
    """The type the reference gives field ``key`` under ``heading``."""
    return re.search(rf"^\| `{key}` \| ([^|]+) \|", PARTS_BY_HEADING[heading], flags=re.M)[1].strip()


@pytest.mark.parametrize(
    "heading, key, written",
    [
        ("`formulas:`", "inputs", "mapping of name → Input"),
        ("`formulas:`", "let", "mapping of name → Binding"),
        ("`formulas:`", "results", "mapping of name → Outcome"),
        ("`charts:`", "fixed", "mapping of input → value (the input held at it)"),
        ("`profiles:`", "columns", "mapping of id → Column"),
        ("`profiles:`", "tracks", "mapping of id → Track"),
        ("Lists a ruleset declares (`ruleset: declares:`)", "page_titles", "mapping of section → PageTitle"),
        (
            "Words of the victory-point sheet (`declares: victory_point_sheet:`)",
            "kinds",
            "mapping of kind → KindHeading",
        ),
        # written as YAML lists, they are: an army list's lines, a roll table's rows, a sheet's charts
        ("`armies:`", "units", "list of ArmyUnit"),
        ("`tables:`", "rows", "list of TableRow"),
        ("`sheets:`", "charts", "list of text"),
    ],
)
def test_fields_written_under_names_are_called_mappings_and_lists_lists(heading, key, written):
    """`inputs:` written as a YAML list, as "list of Input" read, is a wrong-type error: each input is written under
    its name."""
    assert type_cell(heading, key) == written


def test_a_default_list_is_written_as_yaml_writes_it():
    """The paper sizes, both unless a project says: `[a4, letter]`, as in rulepress.yaml, not Python's tuple."""
    heading = next(h for h in PARTS_BY_HEADING if h.startswith("`rulepress.yaml`"))
    row = re.search(r"^\| `papers` \|.*$", PARTS_BY_HEADING[heading], flags=re.M)[0]
    assert "| list of `a4` / `letter` | default `[a4, letter]` |" in row


def test_a_track_is_told_to_need_a_term_a_rule_or_a_source():
    """A track without any of them is an error (`validate.profiles`): the reference said all three were optional."""
    rows = re.findall(
        r"^\| `(term|rule|source)` \| [^|]+ \| ([^|]+) \|",
        PARTS_BY_HEADING["What units track in play (`tracks:`)"],
        re.M,
    )
    assert dict(rows) == dict.fromkeys(["term", "rule", "source"], "**at least one of** `term`, `rule`, `source`")


def test_codes_page_lists_every_code():
    page = codes_reference()
    rows = re.findall(r"^\| `([a-z-]+)` \| (error|warning) \| (.+) \| (.+) \|$", page, flags=re.M)
    assert [code for code, _printed, _catches, _hint in rows] == [c.code for c in Code]
    for (_code, printed, catches, hint), c in zip(rows, Code):
        assert (printed, catches, hint) == ("warning" if c.warning else "error", c.catches, c.default_hint)


def test_the_codes_page_says_as_what_each_code_is_printed_as_the_broken_examples_print_it():
    """The page said every problem prints as `error[...]`; `target-die`, `untried-inputs` and others print as
    warnings. What the broken-input corpus pins (tests/broken/*.expected) is what the page says: a code printed as a
    warning there is a warning on the page, one printed as an error is an error (`example-language` is both: an
    error for a tag that is no language, a warning for a language `check` does not read)."""
    printed: dict[str, set[str]] = {}
    for golden in (Path(__file__).parents[1] / "broken").glob("*.expected"):
        for kind, code in re.findall(r"^\S+: (error|warning)\[([a-z-]+)\]", golden.read_text(encoding="utf-8"), re.M):
            printed.setdefault(code, set()).add(kind)
    page = dict(re.findall(r"^\| `([a-z-]+)` \| (error|warning) \|", codes_reference(), flags=re.M))
    assert "warning" in {kind for kinds in printed.values() for kind in kinds}
    wrong = {code: (kinds, page[code]) for code, kinds in printed.items() if len(kinds) == 1 and kinds != {page[code]}}
    assert not wrong
    assert {code for code, kind in page.items() if kind == "warning"} <= {
        c for c, k in printed.items() if "warning" in k
    }


def test_codes_are_unique_and_described():
    assert len({c.code for c in Code}) == len(Code)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", c.code) and c.catches and c.default_hint for c in Code)


# The names a worked example can use, as the authors' reference lists them: the ruleset's own formulas,
# lookups and values by id, with the game-master's left out of the players' list.

RULES = """\
ruleset: {title: Names}
values:
  move: {value: 6", label: Move}
  secret_bonus: {value: 2, label: Secret bonus, audience: gm}
formulas:
  charge:
    title: Charge distance
    inputs: {dice: {label: Dice, min: 1, max: 3}}
    expr: move + dice
  ambush:
    title: Ambush roll
    audience: gm
    expr: secret_bonus + 1
lookups:
  morale:
    title: Morale
    key: Difference
    rows:
      - {when: 1+, result: Holds}
      - {when: 0-, result: Flees}
"""


OWN_KINDS = ("formula", "lookup", "value", "values")


PLAYER = [
    ("formula", "charge(dice)", "Charge distance"),
    ("lookup", "morale(key)", "The row of Morale for a difference: its value, else its result"),
    ("values", "values.<id>", "Every value of the ruleset by id, as its exact number"),
    ("value", "values.move", 'Move: 6"'),
]


GM_ONLY = [("formula", "ambush()", "Ambush roll"), ("value", "values.secret_bonus", "Secret bonus: 2")]


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    root: Path = tmp_path_factory.mktemp("names")
    (root / "rules_src" / "game").mkdir(parents=True)
    (root / "rules_src" / "game" / "ruleset.yaml").write_text(RULES, encoding="utf-8")
    result = check_project(root)
    assert result.ok, [d.format() for d in result.diagnostics]
    return result.project.ruleset("game")


def own(names):
    return [entry for entry in names if entry[0] in OWN_KINDS]


def test_the_game_master_sees_every_name_of_the_ruleset(ruleset):
    assert sorted(own(example_names(ruleset, None, "gm"))) == sorted(PLAYER + GM_ONLY)


def test_players_do_not_see_the_game_masters_formulas_and_values(ruleset):
    player, gm = example_names(ruleset, None, "player"), example_names(ruleset, None, "gm")
    assert own(player) == PLAYER
    assert set(gm) - set(player) == set(GM_ONLY)


def test_the_names_page_is_a_table_row_per_name(ruleset):
    page = names_reference(ruleset, None, "player").splitlines()
    assert page[0] == "# Names for worked examples: Names"
    assert "| `charge(dice)` | formula | Charge distance |" in page
    assert '| `values.move` | value | Move: 6" |' in page
    assert not any("ambush" in line or "secret_bonus" in line for line in page)


def test_a_docstring_line_is_escaped_for_a_table_cell():
    assert _light_escape("a | b *c* ``code`` [x] $1") == r"a \| b \*c\* `code` \[x\] \$1"
    assert _light_escape("two\n  lines") == "two lines"


def test_a_callable_without_a_signature_is_shown_with_dots():
    assert _signature("maximum", max) == "maximum(...)"  # a builtin Python cannot describe
    assert _signature("pair", lambda a, b=2: None) == "pair(a, b=2)"
