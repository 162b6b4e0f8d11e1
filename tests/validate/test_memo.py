"""The check memo (generator/validate/memo.py, slots ``memo-*`` of the check cache): a ruleset checked
again tries again only the formulas, charts and prose texts whose content, or what they read, changed.

What ran is observed by counting calls of the costly checks (never by timing): ``first_failure`` (a
formula tried with every input), ``cell_failure`` (every cell of a chart) and ``prose_findings``."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType, SimpleNamespace

import pytest
from helpers import ROOT

import generator.validate as validate
import generator.validate.computed as computed
import generator.validate.prose as prose
from generator import check_cache
from generator.cache_seal import sign
from generator.check_cache import CheckCache
from generator.cli import main
from generator.diagnostics import Code, Diagnostic, Location, Severity
from generator.model.formula import Expression
from generator.scaffold import scaffold
from generator.validate import memo
from generator.validate.memo import Reach, canonical, formula_names, remembered, remembering, text_key, words

pytestmark = pytest.mark.usefixtures("without_the_wall")  # the wall is not what is tested here (conftest)


@pytest.fixture
def project(tmp_path):
    """The `rulepress new` ruleset demo (values, formulas, a lookup, a chart, prose) and its overlay."""
    root = tmp_path / "project"
    (root / "rules_src").mkdir(parents=True)
    scaffold(root, "demo", None)
    return root


@pytest.fixture(scope="module")
def checked_once(tmp_path_factory) -> tuple[Path, tuple[int, str, str]]:
    """That project after one check, with what it printed, made once for the tests that start from there."""
    root = tmp_path_factory.mktemp("checked") / "project"
    (root / "rules_src").mkdir(parents=True)
    scaffold(root, "demo", None)
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, redirect_stdout(out), redirect_stderr(err):
        patch.setenv("RULEPRESS_WALL", "off")  # as `without_the_wall`, a function's fixture, runs the tests here
        status = main(["-C", str(root), "check"])
    return root, (status, out.getvalue(), err.getvalue())


@pytest.fixture
def checked_copy(checked_once, tmp_path) -> tuple[Path, tuple[int, str, str]]:
    """A copy of that checked project, its check cache too, and what its check printed. The output slot, keyed by the
    project's folder, misses in a copy; the memo and every other slot are keyed by content alone and are found."""
    root, printed = checked_once
    shutil.copytree(root, tmp_path / "project", symlinks=True)
    return tmp_path / "project", printed


@pytest.fixture
def tried(monkeypatch):
    """Formula ids tried with every input, chart ids computed cell by cell, prose texts judged, in this process."""
    seen = {"formulas": Counter(), "charts": Counter(), "prose": []}
    first_failure, cell_failure, prose_findings = computed.first_failure, computed.cell_failure, prose.prose_findings

    def counting_formula(formula, calc):
        seen["formulas"][formula.id] += 1
        return first_failure(formula, calc)

    def counting_chart(chart, formula, chance, calc):
        seen["charts"][chart.id] += 1
        return cell_failure(chart, formula, chance, calc)

    def counting_prose(text):
        seen["prose"].append(text)
        return prose_findings(text)

    monkeypatch.setattr(computed, "first_failure", counting_formula)
    monkeypatch.setattr(computed, "cell_failure", counting_chart)
    monkeypatch.setattr(prose, "prose_findings", counting_prose)
    return seen


def forget(tried) -> None:
    tried["formulas"].clear()
    tried["charts"].clear()
    tried["prose"].clear()


def check(root: Path, capsys, *extra: str) -> tuple[int, str, str]:
    status = main(["-C", str(root), "check", *extra])
    out, err = capsys.readouterr()
    return status, out, err


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


FORMULAS = {"melee_score", "melee_outcome", "to_wound"}  # melee.yaml of `rulepress new`


def melee(project: Path) -> Path:
    return project / "rules_src" / "demo" / "melee.yaml"


def test_each_formula_content_is_tried_once_the_overlay_sharing_its_bases(project, capsys, tried):
    assert check(project, capsys)[0] == 0
    # demo and demo_house_rules both hold the three formulas; the overlay changes only `fall_back`,
    # which no formula reads, so each is tried once for both
    assert tried["formulas"] == Counter({id: 1 for id in FORMULAS})
    assert tried["charts"] == Counter({"to_wound_chart": 1})


def test_a_prose_edit_tries_no_formula_and_judges_only_its_text(checked_copy, capsys, tried):
    project, _first = checked_copy
    edit(project / "rules_src" / "demo" / "rules.yaml", "Roll a D6 for each attack;", "Roll one D6 for each attack;")
    assert check(project, capsys)[0] == 0
    assert tried["formulas"] == Counter() and tried["charts"] == Counter()
    assert len(tried["prose"]) == 1 and "Roll one D6 for each attack;" in tried["prose"][0]


def test_a_changed_formula_is_tried_again_alone(checked_copy, capsys, tried):
    project, _first = checked_copy
    edit(melee(project), "clamp(4 - difference, 2, 6)", "clamp(5 - difference, 2, 6)")
    check(project, capsys)
    assert set(tried["formulas"]) == {"to_wound"}
    assert set(tried["charts"]) == {"to_wound_chart"}  # the chart shows it
    assert tried["prose"] == []


def test_a_changed_value_tries_again_the_formulas_that_read_it(checked_copy, capsys, tried):
    project, _first = checked_copy
    edit(melee(project), "foot_score: {value: 1,", "foot_score: {value: 2,")
    check(project, capsys)
    assert set(tried["formulas"]) == {"melee_score"}  # `foot * foot_score + riders * rider_score`
    assert tried["charts"] == Counter()  # to_wound reads no value


TWICE = (
    "formulas:\n",
    "formulas:\n  twice_the_score:\n    title: Twice\n    inputs:\n"
    "      foot: {label: Foot, min: 0, max: 3}\n    expr: 2 * melee_score(foot, 0)\n    source: {section: MELEE}\n",
)
# melee_score itself has too many inputs (21 x 21) to be tried with each; this one has 4


def test_a_value_changed_into_a_roll_is_found_wrong_by_the_formula_that_reads_it(project, capsys, tried):
    edit(melee(project), *TWICE)
    assert check(project, capsys)[0] == 0
    edit(melee(project), "foot_score: {value: 1,", "foot_score: {value: D6,")
    status, _out, err = check(project, capsys)
    assert status == 1
    assert "`twice_the_score` gives a roll, not a number for foot=0" in err  # the memo held "fine" before
    assert check(project, capsys, "--all") == (status, _out, err)


def test_a_changed_lookup_tries_again_the_formula_that_reads_it(checked_copy, capsys, tried):
    project, _first = checked_copy
    edit(melee(project), "{when: 1-2, result: Falls back}", "{when: 1-2, result: Falls back in good order}")
    check(project, capsys)
    assert set(tried["formulas"]) == {"melee_outcome"}  # `melee_results(floor(ours - theirs))`


def test_a_formula_reached_through_a_call_counts_as_read(project, capsys, tried):
    edit(melee(project), *TWICE)
    check(project, capsys)
    forget(tried)
    edit(melee(project), "foot_score: {value: 1,", "foot_score: {value: 2,")
    check(project, capsys)
    assert set(tried["formulas"]) == {"melee_score", "twice_the_score"}  # it reads foot_score through melee_score


def test_a_changed_table_tries_again_the_formula_that_reads_it(project, capsys, tried):
    edit(
        melee(project),
        "formulas:\n",
        "formulas:\n  injury_roll:\n    title: An injury\n    inputs:\n"
        "      roll: {label: Roll, min: 1, max: 6}\n    expr: injuries(roll)\n    result: text\n    source: {section: "
        "FIGHTING}\n",
    )
    assert check(project, capsys)[0] == 0
    forget(tried)
    edit(project / "rules_src" / "demo" / "rules.yaml", "- {roll: 1-3,", "- {roll: 1-2,")
    status, _out, err = check(project, capsys)
    assert tried["formulas"]["injury_roll"] >= 1 and "melee_score" not in tried["formulas"]
    assert "`injury_roll` fails for roll=3" in err  # no row for 3 any more: found, not remembered as fine
    assert status == 1


def test_a_changed_mechanic_is_loaded_again_and_formulas_which_cannot_read_it_are_not_tried(
    checked_copy, capsys, tried
):
    project, _first = checked_copy
    mechanics = project / "rules_src" / "demo" / "mechanics.py"
    edit(mechanics, "// 1)", "// 1) + 1")
    status, out, err = check(project, capsys)
    assert status == 1 and "gave 5, the example expects 4" in err  # the example using the mechanic ran again
    assert tried["formulas"] == Counter()  # a formula sees values, tables, lookups, formulas: no mechanic


def test_a_changed_generator_tries_everything_again(checked_copy, capsys, tried, monkeypatch):
    project, first = checked_copy
    monkeypatch.setattr(check_cache, "generator_hash", lambda: "0.1.0-another-generator")
    assert check(project, capsys) == first
    assert set(tried["formulas"]) == FORMULAS and set(tried["charts"]) == {"to_wound_chart"}
    assert tried["prose"]


def test_check_all_tries_everything_again(checked_copy, capsys, tried):
    project, first = checked_copy
    assert check(project, capsys, "--all") == first
    assert set(tried["formulas"]) == FORMULAS and tried["prose"]


@pytest.mark.parametrize("garbage", ["", "{not json", "[1, 2]", '{"key": 3}'])
def test_a_corrupt_memo_slot_is_a_miss(checked_copy, capsys, tried, garbage):
    project, first = checked_copy
    (project / ".rulepress-cache" / "check" / "output-all.json").unlink()
    for slot in ("rules-demo", "rules-demo_house_rules"):  # so that the rulesets are checked again
        (project / ".rulepress-cache" / "check" / f"{slot}.json").unlink()
    for stored in (project / ".rulepress-cache" / "check").glob("memo-*.json"):
        stored.write_text(garbage, encoding="utf-8")
    assert check(project, capsys) == first
    assert set(tried["formulas"]) == FORMULAS


def test_a_memo_entry_with_a_wrong_value_is_a_miss(checked_copy, capsys, tried):
    project, first = checked_copy
    folder = project / ".rulepress-cache" / "check"
    (folder / "output-all.json").unlink()
    for slot in ("rules-demo", "rules-demo_house_rules"):
        (folder / f"{slot}.json").unlink()
    for slot in folder.glob("memo-*.json"):  # signed by this machine (so trusted), holding what does not read back
        stored = json.loads(slot.read_bytes().split(b"\n", 1)[1])
        stored["value"] = {key: [["nonsense", 1, 2, 3, 4, 5]] for key in stored["value"]}
        slot.write_bytes(sign(f"check {slot.stem}", json.dumps(stored).encode(), project))
    assert check(project, capsys) == first
    assert set(tried["formulas"]) == FORMULAS and tried["prose"]


def test_a_remembered_failure_is_located_where_the_formula_now_stands(project, capsys, tried):
    edit(melee(project), *TWICE)
    edit(melee(project), "foot_score: {value: 1,", "foot_score: {value: D6,")
    status, _out, err = check(project, capsys)
    assert (
        status == 1 and "melee.yaml:13:3: error[bad-formula]: `twice_the_score` gives" in err
    )  # at the formula (no `result:` written)
    edit(melee(project), "formulas:\n", "formulas:\n\n\n")  # two lines above it: nothing it reads changed
    forget(tried)
    status, out, err = check(project, capsys)
    assert tried["formulas"] == Counter()
    assert "melee.yaml:15:3: error[bad-formula]: `twice_the_score` gives" in err and "melee.yaml:13:" not in err
    assert check(project, capsys, "--all") == (status, out, err)


SAMPLES = ROOT / "rules_src"
EDITS = {  # one file changed, as an author edits (the benchmark's edits)
    "prose": ("rampant_hex/rules.yaml", "plenty of miniatures", "plenty of painted miniatures"),
    "value": (
        "rampant_hex/values.yaml",
        "value: 2\n    label: An Expert Ranger adds this to the roll for the table edge",
        "value: 3\n    label: An Expert Ranger adds this to the roll for the table edge",
    ),
    "formula": ("rampant_hex/formulas.yaml", "expr: roll > armour", "expr: roll >= armour"),
}


def test_on_the_samples_a_check_after_one_edit_prints_what_check_all_prints(tmp_path, capsys, tried):
    """Each edit is made to its own copy of the samples as one check left them, their check cache with them (the
    output slot, keyed by the folder, misses in a copy as it misses after any edit; the others are keyed by content)."""
    checked = tmp_path / "checked"
    shutil.copytree(SAMPLES, checked / "rules_src")
    assert check(checked, capsys)[0] == 0
    for kind, (source, old, new) in sorted(EDITS.items()):
        project = tmp_path / kind
        shutil.copytree(checked, project, symlinks=True)
        edit(project / "rules_src" / source, old, new)
        forget(tried)
        remembered = check(project, capsys)
        formulas, texts = set(tried["formulas"]), len(tried["prose"])
        assert remembered == check(project, capsys, "--all"), kind  # byte for byte, nothing trusted from the cache
        if kind == "value":
            assert remembered[0] == 1 and "gave (3, 0), the example expects (2, 0)" in remembered[2]
            assert formulas == {"ranger_bonus"}  # the one formula that reads expert_ranger_setup_bonus
        if kind == "prose":
            assert remembered[0] == 0 and formulas == set() and texts == 1
        if kind == "formula":
            assert "scores_a_hit" in formulas and "hits" not in formulas


def test_a_projects_templates_unchanged_are_not_read_again_and_their_problems_are_told_the_same(
    project, capsys, monkeypatch
):
    """A template Jinja cannot parse is told by every check; a check after a rules edit (which the whole check's
    output slot misses) finds the same templates' problems in the memo and tells them as the first did."""
    import generator.render.jinja as jinja

    (project / "templates" / "handouts").mkdir(parents=True)
    (project / "templates" / "handouts" / "handout.html.j2").write_text("{% if %}\n", encoding="utf-8")
    read, reading = [], jinja.template_problems
    monkeypatch.setattr(jinja, "template_problems", lambda root: read.append(root) or reading(root))
    first = check(project, capsys)
    assert first[0] == 1 and "handout.html.j2" in first[2] and len(read) == 1
    with melee(project).open("a", encoding="utf-8") as rules:
        rules.write("# an edit of the rules alone\n")
    assert check(project, capsys) == first and len(read) == 1


def test_a_check_through_a_checker_uses_the_memo_too(project, tried):
    """serve checks each ruleset through its own checker: a ruleset it checks again pays only for what changed."""
    from generator.validate import check_project, check_ruleset

    def checker(root, ruleset):
        return check_ruleset(root, ruleset)

    first = check_project(project, checker=checker)
    assert set(tried["formulas"]) == FORMULAS
    forget(tried)
    assert check_project(project, checker=checker).diagnostics == first.diagnostics
    assert tried["formulas"] == Counter() and tried["prose"] == []
    edit(melee(project), "clamp(4 - difference, 2, 6)", "clamp(5 - difference, 2, 6)")
    check_project(project, checker=checker)
    assert set(tried["formulas"]) == {"to_wound"}


# The memo's parts, called directly (generator/validate/memo.py and the cache plumbing of
# generator/validate/__init__.py): the canonical text of model content, the keys made of what an item reads, the
# remembering itself, and which cache and checker a check uses. Stand-ins replace only what a part is handed.


# -- stand-ins for model entries: canonical reads any dataclass, a formula's names read `expr` and `let` --
@dataclass(frozen=True)
class Spot:
    name: str
    size: int
    loc: object = None
    locs: object = None


@dataclass(frozen=True)
class Val:
    id: str
    value: int
    loc: object = None


@dataclass(frozen=True)
class Calc:
    id: str
    expr: Expression
    let: tuple = ()
    loc: object = None


class Colour(Enum):
    RED = 1


class Opaque:
    """An object canonical knows nothing of: it is written as its repr."""

    def __init__(self, shown: str):
        self.shown = shown

    def __repr__(self) -> str:
        return self.shown


class Book:
    """A ruleset as Reach reads it: the entries each section reaches."""

    def __init__(self, **sections):
        self.sections = sections

    def reachable(self, section):
        return tuple(self.sections.get(section, ()))


def _calc(id, text, *steps):
    return Calc(id, Expression.parse(text), tuple(SimpleNamespace(expr=Expression.parse(step)) for step in steps))


# -- canonical ---------------------------------------------------------------------------------------------
def test_a_dataclass_is_written_as_its_class_and_fields_without_where_it_was_written():
    assert canonical(Spot("a", 2, loc="rules.yaml:3:1", locs={"name": 3})) == "Spot(name=str:'a',size=int:2)"
    assert canonical(Spot("a", 2, loc="rules.yaml:9:1")) == canonical(Spot("a", 2, loc="other.yaml:1:1"))
    assert canonical(Spot("a", 3)) != canonical(Spot("a", 2))
    assert canonical(Val("a", 2)) == "Val(id=str:'a',value=int:2)"  # another class, the same field values
    assert canonical(Spot) == f"type:{Spot!r}"  # a class itself is no content


def test_lists_and_tuples_are_written_with_their_type_and_each_item():
    assert canonical([1, "a"]) == "list[int:1,str:'a']"
    assert canonical((Spot("b", 1),)) == "tuple[Spot(name=str:'b',size=int:1)]"
    assert canonical(()) == "tuple[]"


def test_a_mapping_is_written_in_the_order_of_its_keys_reprs_whatever_its_own_order():
    # repr order: "'a b'" < "'a'" < "'b'" (a space sorts before the closing quote), whatever the values
    assert canonical({"b": 1, "a b": 2, "a": 3}) == "{str:'a b':int:2,str:'a':int:3,str:'b':int:1}"
    assert canonical({"a": 3, "a b": 2, "b": 1}) == canonical({"b": 1, "a b": 2, "a": 3})
    assert canonical(MappingProxyType({1: "x", "1": "y"})) == "{str:'1':str:'y',int:1:str:'x'}"  # keys of two types
    assert canonical({}) == "{}"


def test_a_plain_value_is_written_with_its_type_and_repr():
    assert [canonical(v) for v in (1, True, 1.5, "1", None, Fraction(1, 2), Colour.RED)] == [
        "int:1",
        "bool:True",
        "float:1.5",
        "str:'1'",
        "NoneType:None",
        "Fraction:Fraction(1, 2)",
        "Colour:<Colour.RED: 1>",
    ]
    assert canonical(Expression.parse("a + 1")) == "Expression('a + 1')"
    assert canonical(Opaque("shown")) == "Opaque:shown"


def test_the_words_of_an_item_are_its_names_fields_and_the_words_of_its_texts():
    assert words(Spot("cover + moving", 2)) == {"Spot", "name", "str", "cover", "moving", "size", "int"}


def test_a_text_key_is_the_sha256_of_its_utf8_bytes_an_undecodable_byte_kept():
    assert text_key("é") == hashlib.sha256("é".encode()).hexdigest()
    assert text_key("\udcff") == hashlib.sha256(b"\xff").hexdigest()  # a byte read with surrogateescape


# -- formula_names -----------------------------------------------------------------------------------------
def test_a_formula_names_what_its_expression_and_every_step_use_called_or_not():
    formula = _calc("f", "a + f(b)", "c + g(d)", "e")
    assert formula_names(formula) == {"a", "f", "b", "c", "g", "d", "e"}
    assert formula_names(_calc("h", "x")) == {"x"}


# -- Reach ---------------------------------------------------------------------------------------------------
def _book(w=5, v=1, x_table=7, x_value=8, u=0):
    return Book(
        values=[Val("v", v), Val("w", w), Val("u", u), Val("x", x_value)],
        tables=[Val("x", x_table)],
        formulas=[_calc("f", "v + g(2)"), _calc("g", "w * nowhere")],
    )


def test_a_key_changes_when_anything_its_names_reach_changes_even_through_another_formula():
    item = Val("item", 0)
    key = Reach(_book()).key("formula", item, ["f"])
    assert Reach(_book()).key("formula", item, ["f"]) == key  # the same content, made again
    assert Reach(_book(w=6)).key("formula", item, ["f"]) != key  # w is read through g
    assert Reach(_book(v=2)).key("formula", item, ["f"]) != key
    assert Reach(_book(u=9)).key("formula", item, ["f"]) == key  # u is read by nothing f reaches
    assert Reach(_book()).key("formula", Val("item", 1), ["f"]) != key  # the item itself
    assert Reach(_book()).key("chart", item, ["f"]) != key  # the kind of check


def test_a_name_of_two_sections_reaches_both_entries():
    key = Reach(_book()).key("formula", Val("item", 0), ["x"])
    assert Reach(_book(x_table=70)).key("formula", Val("item", 0), ["x"]) != key
    assert Reach(_book(x_value=80)).key("formula", Val("item", 0), ["x"]) != key


def test_a_key_is_the_same_whatever_the_order_and_repeats_of_its_names():
    reach = Reach(_book())
    item = Val("item", 0)
    key = reach.key("formula", item, ["v", "w"])
    assert reach.key("formula", item, ["w", "v"]) == key
    assert reach.key("formula", item, ["v", "v", "w"]) == key
    assert reach.key("formula", item, ["w", "v", "v"]) == key


def test_names_after_one_no_entry_has_are_read_all_the_same():
    item = Val("item", 0)
    key = Reach(_book()).key("formula", item, ["v", "nowhere"])
    assert Reach(_book(v=2)).key("formula", item, ["v", "nowhere"]) != key
    assert Reach(_book()).key("formula", item, ["v"]) != key  # a name of nothing is kept as such


def test_a_key_is_the_hash_of_the_item_then_of_each_name_with_what_it_stands_for():
    item = Val("item", 0)
    expected = hashlib.sha256(b"formula\0Val(id=str:'item',value=int:0)")
    expected.update(b"\0nowhere\0\0<none>")  # a name no entry has
    expected.update(b"\0v\0values#0\0" + hashlib.sha256(b"Val(id=str:'v',value=int:1)").hexdigest().encode())
    assert Reach(_book()).key("formula", item, ["v", "nowhere"]) == expected.hexdigest()


def test_an_entry_is_digested_once_however_many_keys_reach_it(monkeypatch):
    digested = []
    monkeypatch.setattr(memo, "text_key", lambda text: digested.append(text) or f"digest of {text}")
    reach = Reach(_book())
    reach.key("formula", Val("one", 0), ["v"])
    reach.key("formula", Val("two", 0), ["v"])
    assert digested == ["Val(id=str:'v',value=int:1)"]


def test_a_key_tells_apart_texts_that_differ_in_an_undecodable_byte():
    reach = Reach(_book())
    assert reach.key("formula", Opaque("\udcff"), ["\udcff"]) != reach.key("formula", Opaque("\udcfe"), ["\udcff"])
    assert reach.key("formula", Opaque("x"), ["\udcff"]) != reach.key("formula", Opaque("x"), ["\udcfe"])


# -- remembered ----------------------------------------------------------------------------------------------
def test_within_a_memo_an_item_is_computed_once_per_kind_and_key_and_read_back_after(tmp_path):
    computed = []

    def compute():
        computed.append(1)
        return ("found", len(computed))

    def ask(kind, key):
        return remembered(kind, lambda: key, compute, dump=list, load=lambda stored: ("loaded", *stored))

    with remembering(CheckCache(tmp_path)):
        assert ask("formulas", "k1") == ("found", 1)
        assert ask("formulas", "k1") == ("loaded", "found", 1)
        assert ask("charts", "k1") == ("found", 2)
        assert ask("formulas", "k2") == ("found", 3)
    with remembering(CheckCache(tmp_path)):  # the next check reads what this one kept
        assert ask("formulas", "k2") == ("loaded", "found", 3)
    assert len(computed) == 3


def test_outside_a_memo_nothing_is_keyed_or_kept(tmp_path):
    def no_key():
        raise AssertionError("a key made without a memo")

    assert remembered("formulas", no_key, lambda: 4, dump=str, load=int) == 4
    with remembering(None) as active:
        assert active is None
        assert remembered("formulas", no_key, lambda: 5, dump=str, load=int) == 5


def test_an_entry_that_does_not_read_back_is_computed_again(tmp_path):
    def load(stored):
        raise ValueError(stored)

    with remembering(CheckCache(tmp_path)):
        assert remembered("prose", lambda: "k", lambda: 1, dump=str, load=load) == 1
        assert remembered("prose", lambda: "k", lambda: 2, dump=str, load=load) == 2


# -- generator/validate/__init__.py: which rulesets are checked, through which cache and checker ----------
RULESETS = {  # sorted as the project lists them: `broken` (its base is missing) comes first
    "broken": "ruleset:\n  title: Broken\n  extends: missing\n",
    "core": "ruleset:\n  title: Core\n",
    "ext": "ruleset:\n  title: Ext\n  extends: core\n",
    "lone": "ruleset:\n  title: Lone\n  extends: missing\n  overlay: true\n",
}


@pytest.fixture
def rulesets_project(tmp_path):
    for id, text in RULESETS.items():
        (tmp_path / "rules_src" / id).mkdir(parents=True)
        (tmp_path / "rules_src" / id / "ruleset.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def _found(id: str) -> Diagnostic:
    return Diagnostic(Code.TAB, f"found in {id}", Location(f"rules_src/{id}/ruleset.yaml", 2, 1))


@pytest.fixture
def checked(monkeypatch):
    """The rulesets whose checks ran (each finds one diagnostic), and the costly results they computed,
    each remembered under its ruleset's id as a costly check is."""
    seen = {"checked": [], "computed": []}

    def run_checks(ruleset):
        seen["checked"].append(ruleset.id)
        remembered("prose", lambda: ruleset.id, lambda: seen["computed"].append(ruleset.id), dump=str, load=str)
        return iter([_found(ruleset.id)])

    monkeypatch.setattr(validate, "run_checks", run_checks)
    return seen


def test_every_ruleset_is_checked_but_one_whose_base_is_missing_an_overlay_all_the_same(rulesets_project, checked):
    result = validate.check_project(rulesets_project)
    assert checked["checked"] == ["core", "ext", "lone"]
    assert [d.message for d in result.diagnostics if d.code is Code.TAB] == [
        "found in core",
        "found in ext",
        "found in lone",
    ]
    assert checked["computed"] == ["core", "ext", "lone"]  # no cache: nothing remembered
    validate.check_project(rulesets_project)
    assert checked["computed"] == ["core", "ext", "lone"] * 2


def test_check_of_one_ruleset_checks_only_it(rulesets_project, checked):
    validate.check_project(rulesets_project, only="ext")
    assert checked["checked"] == ["ext"]


def test_a_checker_checks_each_ruleset_with_the_projects_memo(rulesets_project, checked):
    calls = []

    def checker(root, ruleset):
        calls.append((root, ruleset.id))
        remembered("prose", lambda: ruleset.id, lambda: checked["computed"].append(ruleset.id), dump=str, load=str)
        return [_found(f"{ruleset.id} by the checker")]

    result = validate.check_project(rulesets_project, checker=checker)
    assert calls == [
        (rulesets_project.resolve(), "core"),
        (rulesets_project.resolve(), "ext"),
        (rulesets_project.resolve(), "lone"),
    ]
    assert checked["checked"] == []
    assert "found in ext by the checker" in [d.message for d in result.diagnostics]
    validate.check_project(rulesets_project, checker=checker)
    assert checked["computed"] == ["core", "ext", "lone"]  # the second check read them back
    assert (rulesets_project / ".rulepress-cache").is_dir()


def test_with_a_cache_an_unchanged_ruleset_is_given_back_and_a_changed_one_remembers_its_costly_results(
    rulesets_project, checked
):
    first = validate.check_project(rulesets_project, cache=CheckCache(rulesets_project))
    assert checked["checked"] == ["core", "ext", "lone"]
    assert validate.check_project(rulesets_project, cache=CheckCache(rulesets_project)).diagnostics == first.diagnostics
    assert checked["checked"] == ["core", "ext", "lone"]  # nothing checked again
    with (rulesets_project / "rules_src" / "lone" / "ruleset.yaml").open("a", encoding="utf-8") as out:
        out.write("# an edit\n")
    validate.check_project(rulesets_project, cache=CheckCache(rulesets_project))
    assert checked["checked"] == ["core", "ext", "lone", "lone"]
    assert checked["computed"] == ["core", "ext", "lone"]  # lone's costly result came from the memo


def test_the_memo_cache_is_the_one_given_else_the_projects_for_a_checker_else_none(tmp_path):
    given = CheckCache(tmp_path)
    assert validate._memo_cache(tmp_path, given, None) is given
    assert validate._memo_cache(tmp_path, given, print) is given
    assert validate._memo_cache(tmp_path, None, None) is None
    own = validate._memo_cache(tmp_path, None, print)
    assert isinstance(own, CheckCache) and own.root == tmp_path.resolve()


# -- a ruleset's stored problems and its mechanics kept with them: stand-ins for the checks, real folders and a
# real cache ---------------------------------------------------------------------------------------------------
def _ruleset(id, extends="", overlay=False, base=None):
    return SimpleNamespace(id=id, meta=SimpleNamespace(extends=extends, overlay=overlay), base=base)


@pytest.fixture
def slots(tmp_path, monkeypatch):
    """A project of `house` (an overlay of `mid`, which it holds applied, not attached), `mid` and `other`;
    the checks it ran and what its mechanics find (nothing unless set)."""
    for id in ("house", "mid", "other"):
        (tmp_path / "rules_src" / id).mkdir(parents=True)
        (tmp_path / "rules_src" / id / "rules.yaml").write_text(f"# {id}\n", encoding="utf-8")
    house, mid = _ruleset("house", extends="mid", overlay=True), _ruleset("mid")
    state = SimpleNamespace(
        project=SimpleNamespace(root=tmp_path, rulesets=(house, mid)), house=house, checked=[], mechanics=[]
    )
    monkeypatch.setattr(
        validate, "run_checks", lambda ruleset: state.checked.append(ruleset.id) or iter([_found(ruleset.id)])
    )
    monkeypatch.setattr(validate, "mechanics_problems", lambda root, ruleset: list(state.mechanics))
    return state


def _check(slots):
    """One check of house as ``check_project`` makes it, with the cache a check makes (it digests each folder once):
    what is stored, else its checks and then its mechanics."""
    cache = CheckCache(slots.project.root)
    stored = validate._stored_problems(slots.project, slots.house, cache)
    if stored is not None:
        return stored
    checks = list(validate.run_checks(slots.house))
    return checks + validate._mechanics_kept(slots.project, slots.house, cache, checks)


def _touch(root, id):
    with (root / "rules_src" / id / "rules.yaml").open("a", encoding="utf-8") as out:
        out.write("# edited\n")


def test_a_ruleset_checked_once_is_given_back_until_its_folder_or_its_bases_changes(slots):
    root = slots.project.root
    assert _check(slots) == [_found("house")]
    assert _check(slots) == [_found("house")]
    assert slots.checked == ["house"]
    _touch(root, "other")  # no folder of house's: its base is known from the project's rulesets
    assert _check(slots) == [_found("house")]
    assert slots.checked == ["house"]
    _touch(root, "mid")
    _check(slots)
    assert slots.checked == ["house", "house"]


def test_a_ruleset_whose_mechanics_fail_is_checked_again_next_time(slots):
    slots.mechanics = [_found("mechanics")]
    assert _check(slots) == [_found("house"), _found("mechanics")]
    assert _check(slots) == [_found("house"), _found("mechanics")]
    assert slots.checked == ["house", "house"]


# -- mechanics_problems: stand-ins for the reading of the mechanics and for the confined child -----------------
@pytest.fixture
def confined_runs(monkeypatch):
    """What the literal reading finds (set per test) and the confined runs asked for, as (examples run?)."""
    state = SimpleNamespace(literal=[], runs=[])

    def run_confined(ruleset, root, *, examples=True, names=False, seconds=None):
        state.runs.append(bool(examples))
        return SimpleNamespace(mechanics=["loaded: " + str(root)], failures=["an example ran"] if examples else [])

    monkeypatch.setattr(validate, "literal_warnings", lambda path, shown: [d for d in state.literal if d.path == shown])
    monkeypatch.setattr(validate, "run_confined", run_confined)
    return state


def _literal(shown, severity):
    return SimpleNamespace(path=shown, severity=severity)


def test_mechanics_are_loaded_without_their_examples_unless_reading_them_found_an_error(confined_runs, tmp_path):
    ruleset = SimpleNamespace(mechanics=("rules_src/a/mechanics.py",), meta=SimpleNamespace(overlay=False))
    warning = _literal("rules_src/a/mechanics.py", Severity.WARNING)
    confined_runs.literal = [warning]
    assert validate.mechanics_problems(tmp_path, ruleset) == [warning, f"loaded: {tmp_path}"]
    assert confined_runs.runs == [False]  # loaded once, no example run
    error = _literal("rules_src/a/mechanics.py", Severity.ERROR)
    confined_runs.literal = [warning, error]
    assert validate.mechanics_problems(tmp_path, ruleset) == [warning, error]  # read, never run
    assert confined_runs.runs == [False]
