"""Safe located YAML: values typed as the author typed them, 1-based locations, refusals."""

from __future__ import annotations

import pytest
from helpers import BROKEN

from generator.diagnostics import Code, Diagnostics, Location, TextLocation
from generator.source.yamlnodes import Mapping, Scalar, Sequence, decode, describe, load_file, parse_text, walk


def parse(text: str):
    diagnostics = Diagnostics()
    return parse_text(text, "f.yaml", diagnostics), diagnostics


def parse_ok(text: str):
    node, diagnostics = parse(text)
    assert list(diagnostics) == [], [d.format() for d in diagnostics]
    return node


def value_of(text: str):
    """The value of key `a` in a one-line document `a: <text>`."""
    node = parse_ok(f"a: {text}\n")
    return node.get("a").value


def codes(diagnostics) -> list[str]:
    return [d.code.code for d in diagnostics]


# -- typing: what the author typed, not what YAML 1.1 guesses ----------------------------------
@pytest.mark.parametrize(
    "text, value",
    [
        ("no", "no"),
        ("off", "off"),
        ("yes", "yes"),
        ("on", "on"),
        ("NO", "NO"),
        ("y", "y"),
        ("2:1", "2:1"),
        ("1.10", "1.10"),
        ("1.5", "1.5"),
        ("1e3", "1e3"),
        ("0x1F", "0x1F"),
        ("1_000", "1_000"),
        (".inf", ".inf"),
        ("2001-01-01", "2001-01-01"),
        ("TRUE", "TRUE"),
        ("4+", "4+"),
        ("1-2", "1-2"),
        ("12", 12),
        ("-3", -3),
        ("+3", 3),
        ("0", 0),
        ("012", 12),
        ("true", True),
        ("True", True),
        ("false", False),
        ("False", False),
        ("null", None),
        ("Null", None),
        ("NULL", None),
        ("~", None),
        ("", None),
        ('"12"', "12"),
        ("'12'", "12"),
        ('"no"', "no"),
        ('"true"', "true"),
        ('"null"', "null"),
        ('""', ""),
    ],
)
def test_scalars_keep_what_was_typed(text, value):
    got = value_of(text)
    assert got == value
    assert type(got) is type(value)


def test_block_scalars_are_text():
    node = parse_ok("a: |\n  12\nb: >\n  no\n  off\n")
    assert node.get("a").value == "12\n"
    assert node.get("b").value == "no off\n"
    assert (node.get("a").style, node.get("b").style) == ("|", ">")


def test_scalar_text_for_keys():
    assert [Scalar(v, Location("f")).text for v in (None, True, False, 12, "x")] == ["", "true", "false", "12", "x"]


def test_numeric_keys_are_found_by_their_text():
    node = parse_ok("1: one\n2-3: two\n")
    assert node.keys() == ["1", "2-3"]
    assert node.get("1").value == "one"
    assert node.get("missing") is None


# -- locations ----------------------------------------------------------------------------------
def test_locations_are_one_based_lines_and_columns():
    node = parse_ok("rules:\n  moving:\n    title: Moving\n    see_also: [a, b]\n")
    assert node.loc == Location("f.yaml", 1, 1)
    rules = node.get("rules")
    key, moving = rules.items[0]
    assert key.loc == Location("f.yaml", 2, 3)
    assert moving.loc == Location("f.yaml", 3, 5)  # a block mapping starts at its first key
    assert moving.get("title").loc == Location("f.yaml", 3, 12)
    see_also = moving.get("see_also")
    assert see_also.loc == Location("f.yaml", 4, 15)
    assert [item.loc.column for item in see_also.items] == [16, 19]


def test_flow_and_block_sequences():
    node = parse_ok("- a\n- [b, {c: d}]\n")
    assert isinstance(node, Sequence)
    first, second = node.items
    assert first.loc == Location("f.yaml", 1, 3)
    assert second.loc == Location("f.yaml", 2, 3)
    b, mapping = second.items
    assert (b.loc.column, mapping.loc.column, mapping.get("c").loc.column) == (4, 7, 11)


def test_quoted_values_are_located_at_their_quote():
    node = parse_ok('a:  "x"\n')
    assert node.get("a").loc == Location("f.yaml", 1, 5)
    assert node.get("a").style == '"'


def test_block_scalar_body_location():
    node = parse_ok("body: |\n  First line.\n")
    body = node.get("body")
    assert body.loc == Location("f.yaml", 1, 7)
    assert body.content_loc == TextLocation("f.yaml", 2, 3)  # where the text itself starts
    assert body.content_loc.at(body.value, body.value.index("line")) == Location("f.yaml", 2, 9)
    two = parse_ok("body: >\n    One\n    Two words\n").get("body")
    assert two.content_loc.at("One\nTwo words", 8) == Location("f.yaml", 3, 9)


def test_a_folded_block_maps_each_of_its_lines_to_the_file():
    """Folding joins a block's lines (a line break read as a space, a blank line as a break): a position on a later
    line is still told on that line of the file, not far along the first."""
    text = (
        "body: >\n  First line\n  second {rule}`x` line\n\n  after a blank\n    more indented {rule}`y`\n"
        "  last {rule}`z`\n"
    )
    node = parse_ok(text).get("body")
    assert node.value.startswith("First line second {rule}`x` line\nafter a blank\n")  # folded
    for written, line, column in (("{rule}`x`", 3, 10), ("after", 5, 3), ("{rule}`y`", 6, 19), ("{rule}`z`", 7, 8)):
        assert node.content_loc.at(node.value, node.value.index(written)) == Location("f.yaml", line, column), written


def test_a_value_on_one_line_maps_its_text_to_the_file_unless_an_escape_or_a_fold_moves_it():
    """A role's error inside a one-line text is told at the role, not at the value's start; the value itself is still
    told where it is written, at its opening quote."""
    node = parse_ok('plain: a {term}`x`\nquoted: "see {rule}`y`"\nescaped: "a \\" {rule}`z`"\nfolded: a\n  {rule}`w`\n')
    plain, quoted = node.get("plain"), node.get("quoted")
    assert str(plain.content_loc) == "f.yaml:1:8" and str(quoted.content_loc) == "f.yaml:2:9"
    assert plain.content_loc.at(plain.value, plain.value.index("{")) == Location("f.yaml", 1, 10)
    assert quoted.content_loc.at(quoted.value, quoted.value.index("{")) == Location("f.yaml", 2, 14)
    for unmapped in ("escaped", "folded"):
        assert node.get(unmapped).content_loc is node.get(unmapped).loc, unmapped


def test_a_leading_document_marker_and_end_marker_are_fine():
    node = parse_ok("---\na: 1\n...\n")
    assert node.get("a").loc == Location("f.yaml", 2, 4)


def test_a_byte_order_mark_is_ignored():
    assert parse_ok("\ufeffa: 1\n").get("a").value == 1


def test_load_file_shows_the_path_relative_to_the_project(tmp_path):
    folder = tmp_path / "rules_src" / "x"
    folder.mkdir(parents=True)
    (folder / "a.yaml").write_text("a: 1\n", encoding="utf-8")
    diagnostics = Diagnostics()
    node = load_file(folder / "a.yaml", tmp_path, diagnostics)
    assert node.get("a").loc == Location("rules_src/x/a.yaml", 1, 4)


# -- refusals -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, code, message, line, column",
    [
        ("a: &x 1\n", Code.YAML_ALIAS, "anchor `&x` is not allowed in rules data", 1, 4),
        ("a: 1\nb: *x\n", Code.YAML_ALIAS, "alias `*x` is not allowed in rules data", 2, 4),
        ("&x a: 1\n", Code.YAML_ALIAS, "anchor `&x` is not allowed in rules data", 1, 1),
        ("a: !!str 12\n", Code.YAML_TAG, "tag `!!str` is not allowed in rules data", 1, 4),
        ("a: !custom x\n", Code.YAML_TAG, "tag `!custom` is not allowed in rules data", 1, 4),
        ("a: ! x\n", Code.YAML_TAG, "tag `!` is not allowed in rules data", 1, 4),
        (
            "a: !!python/object/apply:os.system [ls]\n",
            Code.YAML_TAG,
            "tag `!!python/object/apply:os.system` is not allowed in rules data",
            1,
            4,
        ),
        ("a: !!map {b: 1}\n", Code.YAML_TAG, "tag `!!map` is not allowed in rules data", 1, 4),
        ("a:\n\tb: 1\n", Code.TAB, "tab character in rules data", 2, 1),
        ('a: "x\ty"\n', Code.TAB, "tab character in rules data", 1, 6),
        (
            "a: 1\n---\nb: 2\n",
            Code.YAML_SYNTAX,
            "YAML syntax: a rules file holds one YAML document, this one has several",
            2,
            1,
        ),
        ("a: [1,\n", Code.YAML_SYNTAX, "YAML syntax: did not find expected node content", 2, 1),
        (
            "a:\n  b: 1\n c: 2\n",
            Code.YAML_SYNTAX,
            "YAML syntax: this line starts at column 2, but the fields above it (from line 2) start at column 3",
            3,
            2,
        ),
        ("", Code.EMPTY_FILE, "the file has no content", 1, 1),
        ("\n  \n", Code.EMPTY_FILE, "the file has no content", 1, 1),
        ("# only\n  # comments\n", Code.EMPTY_FILE, "the file has no content", 1, 1),
    ],
)
def test_refused_with_one_located_diagnostic(text, code, message, line, column):
    node, diagnostics = parse(text)
    assert node is None
    assert [(d.code, d.message, d.location) for d in diagnostics] == [(code, message, Location("f.yaml", line, column))]


def test_a_quoted_scalar_may_carry_the_non_specific_tag():
    assert parse_ok('a: ! "x"\n').get("a").value == "x"


def test_every_refused_construct_is_reported_in_one_run():
    node, diagnostics = parse("a: &x 1\nb: *x\nc: !!str 2\n")
    assert node is None
    assert codes(diagnostics) == ["yaml-alias", "yaml-tag"]  # the first of each kind, located
    assert diagnostics[0].message == "anchor `&x` is not allowed in rules data (and 1 more in this file)"


def test_duplicate_keys_keep_the_first_and_are_reported():
    node, diagnostics = parse("a: 1\nb: 2\na: 3\n")
    assert node.keys() == ["a", "b"]
    assert node.get("a").value == 1
    assert [(d.code, d.message, d.location) for d in diagnostics] == [
        (Code.DUPLICATE_KEY, "key `a` repeats the key at line 1", Location("f.yaml", 3, 1))
    ]


def test_a_key_that_is_not_a_single_value_is_refused():
    node, diagnostics = parse("? [a, b]\n: 1\nc: 2\n")
    assert node.keys() == ["c"]
    assert [(d.code, d.location) for d in diagnostics] == [(Code.WRONG_TYPE, Location("f.yaml", 1, 3))]


def test_the_alias_bomb_fails_fast_without_expanding():
    text = (BROKEN / "alias_bomb.yaml").read_text(encoding="utf-8")
    node, diagnostics = parse(text)  # how fast: see benchmarks/, tests never time
    assert node is None
    assert codes(diagnostics) == ["yaml-alias"]
    assert diagnostics[0].message.endswith(f"(and {text.count('&') + text.count('*') - 1} more in this file)")


def test_a_python_tag_never_runs(tmp_path):
    marker = tmp_path / "pwned"
    node, diagnostics = parse(f'a: !!python/object/apply:os.system ["touch {marker}"]\n')
    assert node is None
    assert codes(diagnostics) == ["yaml-tag"]
    assert not marker.exists()


# -- bytes ------------------------------------------------------------------------------------
def test_decode_reports_the_first_bad_byte():
    diagnostics = Diagnostics()
    assert decode(b"a: 1\nb: caf\xe9\n", "f.yaml", diagnostics) is None
    assert [(d.code, d.message, d.location) for d in diagnostics] == [
        (
            Code.ENCODING,
            'byte 0xe9 is not valid UTF-8 (in Windows-1252, as Word saves "ANSI" text, it is `é`)',
            Location("f.yaml", 2, 7),
        )
    ]


def test_a_byte_windows_1252_has_no_character_for_is_told_without_one():
    diagnostics = Diagnostics()
    assert decode(b"a: \x81\n", "f.yaml", diagnostics) is None  # 0x81: no character in Windows-1252
    assert [d.message for d in diagnostics] == ["byte 0x81 is not valid UTF-8"]


def test_decode_passes_utf8_through():
    diagnostics = Diagnostics()
    assert decode("a: “Ünïcode”\n".encode(), "f.yaml", diagnostics) == "a: “Ünïcode”\n"
    assert list(diagnostics) == []


# -- helpers ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, described",
    [
        ("a: 12", "the number `12`"),
        ("a: true", "the boolean `true`"),
        ("a:", "an empty value"),
        ("a: word", "the text `word`"),
        ("a: 1.5", "the number `1.5`"),  # kept as written, exactly, but a number to whoever wrote it
        ("a: -.5", "the number `-.5`"),
        ("a: '1.5'", "the text `1.5`"),
        ("a: 1.5.2", "the text `1.5.2`"),
        ("a: " + "x" * 50, "the text `" + "x" * 39 + "…`"),
        ("a: {b: 1}", "a mapping (key: value lines)"),
        ("a: [1]", "a list (- item lines)"),
    ],
)
def test_describe(text, described):
    assert describe(parse_ok(text + "\n").get("a")) == described


def test_walk_visits_keys_and_values_in_order():
    node = parse_ok("a: [1, {b: 2}]\nc: 3\n")
    scalars = [n.value for n in walk(node) if isinstance(n, Scalar)]
    assert scalars == ["a", 1, "b", 2, "c", 3]
    assert sum(isinstance(n, Mapping) for n in walk(node)) == 2


def test_a_text_longer_than_any_rule_needs_is_too_large_where_it_is_written(tmp_path):
    """The club's trial: one rule body of 4.6 MB (a file under the 5 MB limit) passed `check`, and `build` ran for
    fifteen minutes on it without a word. A text of the rules is at most 100,000 characters."""
    from helpers import make_project

    from generator.source.build import MAX_TEXT
    from generator.validate import check_project

    body = "Roll a die. " * (MAX_TEXT // 12 + 1)
    game = (
        "ruleset: {title: G}\nchapters:\n  c: {title: C}\nrules:\n  long:\n    title: Long\n    chapter: c\n"
        f"    body: {body.strip()}\n"
    )
    result = check_project(make_project(tmp_path / "long", g=game))
    assert [d.format() for d in result.diagnostics] == [
        f"rules_src/g/ruleset.yaml:8:11: error[too-large]: `body` has {len(body.strip()):,} characters; the limit "
        f"is {MAX_TEXT:,}\n  hint: split the text into rules of their own: no one rule needs that much"
    ]
    fits = game.replace(body.strip(), body[:MAX_TEXT].strip())
    assert check_project(make_project(tmp_path / "fits", g=fits)).ok
