"""The check memo's parts, called directly (generator/validate/memo.py and the cache plumbing of
generator/validate/__init__.py): the canonical text of model content, the keys made of what an item
reads, the remembering itself, and which cache and checker a check uses. Stand-ins replace only what
a part is handed (a ruleset's sections, a cache, the costly checks), so each test takes milliseconds."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType, SimpleNamespace

import pytest

from generator.check_cache import CheckCache
from generator.diagnostics import Severity
from generator.model.formula import Expression
from generator.validate import memo
from generator.validate.memo import Reach, canonical, formula_names, remembered, remembering, text_key, words


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
        "int:1", "bool:True", "float:1.5", "str:'1'", "NoneType:None", "Fraction:Fraction(1, 2)", "Colour:<Colour.RED: 1>"]
    assert canonical(Expression.parse("a + 1")) == "Expression('a + 1')"
    assert canonical(Opaque("shown")) == "Opaque:shown"


def test_the_words_of_an_item_are_its_names_fields_and_the_words_of_its_texts():
    assert words(Spot("cover + moving", 2)) == {"Spot", "name", "str", "cover", "moving", "size", "int"}


def test_a_text_key_is_the_sha256_of_its_utf8_bytes_an_undecodable_byte_kept():
    assert text_key("é") == hashlib.sha256("é".encode("utf-8")).hexdigest()
    assert text_key("\udcff") == hashlib.sha256(b"\xff").hexdigest()  # a byte read with surrogateescape


# -- formula_names -----------------------------------------------------------------------------------------
def test_a_formula_names_what_its_expression_and_every_step_use_called_or_not():
    formula = _calc("f", "a + f(b)", "c + g(d)", "e")
    assert formula_names(formula) == {"a", "f", "b", "c", "g", "d", "e"}
    assert formula_names(_calc("h", "x")) == {"x"}


# -- Reach ---------------------------------------------------------------------------------------------------
def _book(w=5, v=1, x_table=7, x_value=8, u=0):
    return Book(values=[Val("v", v), Val("w", w), Val("u", u), Val("x", x_value)],
                tables=[Val("x", x_table)],
                formulas=[_calc("f", "v + g(2)"), _calc("g", "w * nowhere")])


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
import generator.validate as validate  # noqa: E402
from generator.diagnostics import Code, Diagnostic, Location  # noqa: E402

RULESETS = {  # sorted as the project lists them: `broken` (its base is missing) comes first
    "broken": "ruleset:\n  title: Broken\n  extends: missing\n",
    "core": "ruleset:\n  title: Core\n",
    "ext": "ruleset:\n  title: Ext\n  extends: core\n",
    "lone": "ruleset:\n  title: Lone\n  extends: missing\n  overlay: true\n",
}


@pytest.fixture
def project(tmp_path):
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


def test_every_ruleset_is_checked_but_one_whose_base_is_missing_an_overlay_all_the_same(project, checked):
    result = validate.check_project(project)
    assert checked["checked"] == ["core", "ext", "lone"]
    assert [d.message for d in result.diagnostics if d.code is Code.TAB] == ["found in core", "found in ext", "found in lone"]
    assert checked["computed"] == ["core", "ext", "lone"]  # no cache: nothing remembered
    validate.check_project(project)
    assert checked["computed"] == ["core", "ext", "lone"] * 2


def test_check_of_one_ruleset_checks_only_it(project, checked):
    validate.check_project(project, only="ext")
    assert checked["checked"] == ["ext"]


def test_a_checker_checks_each_ruleset_with_the_projects_memo(project, checked):
    calls = []

    def checker(root, ruleset):
        calls.append((root, ruleset.id))
        remembered("prose", lambda: ruleset.id, lambda: checked["computed"].append(ruleset.id), dump=str, load=str)
        return [_found(f"{ruleset.id} by the checker")]

    result = validate.check_project(project, checker=checker)
    assert calls == [(project.resolve(), "core"), (project.resolve(), "ext"), (project.resolve(), "lone")]
    assert checked["checked"] == []
    assert "found in ext by the checker" in [d.message for d in result.diagnostics]
    validate.check_project(project, checker=checker)
    assert checked["computed"] == ["core", "ext", "lone"]  # the second check read them back
    assert (project / ".rulepress-cache").is_dir()


def test_with_a_cache_an_unchanged_ruleset_is_given_back_and_a_changed_one_remembers_its_costly_results(project, checked):
    first = validate.check_project(project, cache=CheckCache(project))
    assert checked["checked"] == ["core", "ext", "lone"]
    assert validate.check_project(project, cache=CheckCache(project)).diagnostics == first.diagnostics
    assert checked["checked"] == ["core", "ext", "lone"]  # nothing checked again
    with (project / "rules_src" / "lone" / "ruleset.yaml").open("a", encoding="utf-8") as out:
        out.write("# an edit\n")
    validate.check_project(project, cache=CheckCache(project))
    assert checked["checked"] == ["core", "ext", "lone", "lone"]
    assert checked["computed"] == ["core", "ext", "lone"]  # lone's costly result came from the memo


def test_the_memo_cache_is_the_one_given_else_the_projects_for_a_checker_else_none(tmp_path):
    given = CheckCache(tmp_path)
    assert validate._memo_cache(tmp_path, given, None) is given
    assert validate._memo_cache(tmp_path, given, print) is given
    assert validate._memo_cache(tmp_path, None, None) is None
    own = validate._memo_cache(tmp_path, None, print)
    assert isinstance(own, CheckCache) and own.root == tmp_path.resolve()


# -- _ruleset_problems with a cache: stand-ins for the checks, real folders and a real cache -----------------
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
    state = SimpleNamespace(project=SimpleNamespace(root=tmp_path, rulesets=(house, mid)), house=house,
                            checked=[], mechanics=[])
    monkeypatch.setattr(validate, "run_checks", lambda ruleset: state.checked.append(ruleset.id) or iter([_found(ruleset.id)]))
    monkeypatch.setattr(validate, "mechanics_problems", lambda root, ruleset: list(state.mechanics))
    return state


def _check(slots):
    """One check of house, with the cache a check makes (it digests each folder once)."""
    return validate._ruleset_problems(slots.project, slots.house, CheckCache(slots.project.root))


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
