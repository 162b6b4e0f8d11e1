"""Prose checks (generator/validate/prose.py): links, roles and fences as MyST reads them, and where a finding
is sought and reported. Columns counted by hand (0-based)."""

from __future__ import annotations

import shutil

import pytest
from helpers import BROKEN, make_project

from generator.diagnostics import Code
from generator.validate import prose
from generator.validate.prose import prose_findings

LINK_HINT = "link to an http(s) address or, with a role such as {rule}`id`, to an entry of the rules"


def test_only_web_mail_and_anchor_links_are_allowed():
    for href in ("#rules", "http://a.org", "https://a.org", "mailto:a@b.org", "HTTPS://A.ORG", "ht tps://a.org", " #x"):
        assert prose._allowed_link(href), href
    for href in (
        "javascript:x",
        "file:///etc",
        "data:x",
        "../a.md",
        "a.md",
        "/etc/passwd",
        "ftp://a.org",
        "",
        "http:/a",
    ):
        assert not prose._allowed_link(href), href


def test_a_refused_link_is_found_where_it_is_written():
    found = prose_findings("a [x](javascript:alert(1)) b")
    assert [(f.code, f.message, f.line, f.column, f.hint) for f in found] == [
        (Code.PROSE_LINK, "a link to `javascript:alert(1)`", 0, 6, LINK_HINT)
    ]
    found = prose_findings("line\n\n[y](file:///etc/passwd)")
    assert [(f.line, f.column) for f in found] == [(2, 4)]


def test_the_link_is_sought_as_written_unquoted_or_by_its_scheme():
    lines = ["see [a](<java script:x>) here"]
    assert prose._link_needle("java%20script:x", lines, [0, 0]) == "java script:x"
    assert prose._link_needle("java script:x", lines, [0, 0]) == "java script:x"
    lines = ["[a](JAVASCRIPT:x&amp;y)"]
    assert prose._link_needle("JAVASCRIPT:x&y", lines, [0, 0]) == "JAVASCRIPT:"
    assert prose._link_needle("nothing:here", ["[a](b)"], [0, 0]) == "]("
    assert prose._link_needle("x:y", ["x:y", "later"], [1, 0]) == "]("  # only from the cursor's line on
    found = prose_findings("one [a](<java script:x>)")
    assert [(f.line, f.column) for f in found] == [(0, 9)]


def test_prose_is_read_without_its_worked_examples_and_markup():
    from generator.validate.quickref import _readable

    text = "Roll a die.\n```python\n>>> 1 + 1\n2\n```\nThen   {term}`hit <hits>` it.\n~~~\nx\n~~~\nEnd."
    assert _readable(text) == "Roll a die. Then hit it. End."


@pytest.mark.parametrize(
    "text, found",
    [
        (":::note\nSee {raw}`x`.\n:::", [("prose-role", "the role `{raw}` is not allowed in prose", 1, 4)]),
        (
            "```{note} Title {raw}`y`\nBody {raw}`z`.\n```",
            [
                ("prose-role", "the role `{raw}` is not allowed in prose", 0, 16),
                ("prose-role", "the role `{raw}` is not allowed in prose", 1, 5),
            ],
        ),
        (
            "Intro.\n\n```{warning}\nSee {raw}`w`.\n```",
            [("prose-role", "the role `{raw}` is not allowed in prose", 3, 4)],
        ),
        ("```{include} a.md\n```", [("prose-directive", "the directive `{include}` is not allowed in prose", 0, 3)]),
        ("```python\n{raw}`x`\n```", []),
        ("```{note\n{raw}`x`\n```", []),
        ("```note} x\n{raw}`q`\n```", []),
        ("```\n{raw}`q`\n```", []),
        ("~~~{note} Title {raw}`y`\nBody.\n~~~", [("prose-role", "the role `{raw}` is not allowed in prose", 0, 16)]),
        (
            "~~~{note} A long {raw}`y` title\nBody.\n~~~",
            [("prose-role", "the role `{raw}` is not allowed in prose", 0, 17)],
        ),
    ],
    ids=[
        "colon-fence",
        "admonition-title-and-body",
        "admonition-after-prose",
        "directive",
        "python-code",
        "open-brace-only",
        "close-brace-only",
        "bare-fence",
        "tilde-title",
        "tilde-title-of-several-words",
    ],
)  # ids without `::`, which a pytest node id cannot hold
def test_a_fence_is_read_as_myst_reads_it(text, found):
    assert [(f.code.code, f.message, f.line, f.column) for f in prose_findings(text)] == found


PDF_HINT = "name a PDF of the build, such as `sheets/x-a4.pdf`"


IMAGE_HINT = "describe it in words; a ruleset's outputs show no image named in its prose"


def _not_a_pdf(target):
    return f"`{{pdf}}` names `{target}`, which is not a PDF of the build"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("{pdf}`sheets/x-a4.pdf`", []),
        ("{pdf}`the sheet <sheets/x-a4.pdf>`", []),  # an explicit title: the target between <> is checked
        ("a {pdf}`x.txt`", [(Code.PROSE_LINK, _not_a_pdf("x.txt"), 0, 2, PDF_HINT)]),
        ("{pdf}`a <b.doc>`", [(Code.PROSE_LINK, _not_a_pdf("b.doc"), 0, 0, PDF_HINT)]),
        # the first {pdf} is passed over, so the second one's finding is placed at its own column
        ("{pdf}`ok.pdf` and {pdf}`../x.pdf`", [(Code.PROSE_LINK, _not_a_pdf("../x.pdf"), 0, 18, PDF_HINT)]),
        # a role inside an image's alt text is found too, on the image's line
        (
            "one\n\ntwo ![a {foo}`x`](a.png)",
            [
                (Code.PROSE_IMAGE, "an image (`a.png`): prose may not show images", 2, 4, IMAGE_HINT),
                (Code.PROSE_ROLE, "the role `{foo}` is not allowed in prose", 2, 8, prose.ROLES_HINT),
            ],
        ),
    ],
    ids=["pdf", "pdf-titled", "not-pdf", "titled-not-pdf", "second-pdf", "role-in-image"],
)
def test_a_pdf_role_names_a_pdf_of_the_build(text, expected):
    assert [(f.code, f.message, f.line, f.column, f.hint) for f in prose_findings(text)] == expected


def test_the_roles_hint_lists_every_allowed_role():
    assert prose.ROLES_HINT == (
        "roles: {chart}, {entry}, {formula}, {gap}, {lookup}, {pdf}, {profile}, {roll}, {rule}, {source}, "
        "{spell}, {table}, {term}, {value}"
    )


def test_a_misspelt_role_is_told_the_role_it_is_closest_to():
    (typo,) = prose_findings("Roll on the {tabel}`injuries`.")
    assert (typo.message, typo.column, typo.hint) == (
        "the role `{tabel}` is not allowed in prose",
        12,
        "did you mean `{table}`? " + prose.ROLES_HINT,
    )
    (refused,) = prose_findings("An {raw}`<b>` here.")  # close to no role: the list alone
    assert refused.hint == prose.ROLES_HINT


@pytest.mark.parametrize(
    "lines, where, needle, expected",
    [
        (["xy  xy"], 0, "xy", (0, 0)),  # from a line: its whole text is searched
        (["a", "xy"], 0, "xy", (1, 0)),  # later lines are searched from their start
        (["ab", "cd"], 1, "ab", (1, 0)),  # never before the line given: not found, the line's start
        (["a", "  b"], 5, "zz", (1, 2)),  # past the end: the last line, at its first non-space
        (["  a", "b"], -1, "zz", (0, 2)),  # before the start: the first line
        (["  a"], 3, "zz", (0, 2)),
        ([], 0, "zz", (0, 0)),  # no text at all
    ],
)
def test_a_needle_is_sought_from_the_line_given(lines, where, needle, expected):
    assert prose._seek(lines, where, needle) == expected


def test_a_cursor_moves_past_what_it_found_and_stays_when_nothing_is():
    cursor = [0, 0]
    assert prose._seek(["", "  ab ab"], cursor, "ab") == (1, 2)
    assert cursor == [1, 4]
    assert prose._seek(["", "  ab ab"], cursor, "ab") == (1, 5)  # the second one, from the cursor's column
    assert cursor == [1, 7]
    assert prose._seek(["", "  ab ab"], cursor, "ab") == (1, 2)  # none left: the line's first non-space
    assert cursor == [1, 7]


ROLE_CASE = """
glossary:
  knocked_down: {term: Knocked Down, aliases: [Knocked over], definition: Lying down.}
rules:
  falling: {title: Falling, chapter: basics, body: Down.}
"""


@pytest.mark.parametrize(
    "role, target, expected",
    [
        ("term", "Knocked over", ("Term", "knocked_down")),
        ("term", "KNOCKED DOWN", ("Term", "knocked_down")),
        ("term", "nothing", None),
        ("entry", "rules.falling", ("Rule", "falling")),
        ("entry", "glossary.knocked_down", ("Term", "knocked_down")),
        ("entry", "nosuch.falling", None),
        ("entry", "rules", None),
        ("rule", "falling", ("Rule", "falling")),
        ("rule", "knocked_down", None),  # ids are looked up in the role's own section only
        ("table", "falling", None),
    ],
)
def test_a_role_names_the_entry_of_its_own_section(tmp_path, role, target, expected):

    from generator.source.project import load_project
    from generator.validate import links

    folder = tmp_path / "rules_src" / "x"
    shutil.copytree(BROKEN / "_base", folder)
    (folder / "case.yaml").write_text(ROLE_CASE, encoding="utf-8")
    project, diagnostics = load_project(tmp_path)
    assert list(diagnostics) == []
    ruleset = project.rulesets[0]
    found = links.role_entry(ruleset, role, target, links.term_names(ruleset))
    assert (None if found is None else (type(found).__name__, found.id)) == expected


def test_shortened_text_keeps_sixty_characters():
    assert prose._short("a  b\n c") == "a b c"
    assert prose._short("x" * 60) == "x" * 60
    assert prose._short("x" * 61) == "x" * 59 + "…"
    assert prose._short("abcdef", limit=5) == "abcd…"
    assert prose._short(12) == "12"


GAME_IN = """\
ruleset: {{title: Escarmouche, language: {language}}}
chapters:
  combat: {{title: Combat}}
rules:
  toucher:
    title: Toucher
    chapter: combat
    body: |
      Une attaque touche donc {sentence}

      ```python
      >>> from fractions import Fraction
      >>> Fraction(3, 6)
      Fraction(1, 2)
      ```
"""


@pytest.mark.parametrize(
    ("language", "sentence", "found"),
    [
        ("fr", "une fois sur deux :", []),
        ("fr", "deux fois sur trois :", ["error[example-sentence]: `deux fois sur trois`"]),
        ("fr", "27,8 % du temps :", ["error[example-sentence]: `27,8 %`"]),
        ("es", "dos de cada tres :", ["warning[example-language]: `check` does not know the number words of `es`"]),
    ],
)
def test_a_rulesets_worked_examples_are_read_in_its_language_and_another_is_warned_of(
    tmp_path, language, sentence, found
):
    """The trial's French sentence, two chances in three before an example of 1/2, passed unread and was marked
    checked for players; in a language whose number words check does not know, the author is told so."""
    from generator.validate import check_project

    text = GAME_IN.format(language=language, sentence=sentence)
    result = check_project(make_project(tmp_path, escarmouche=text))
    told = [d.format().splitlines()[0].partition(": ")[2] for d in result.diagnostics]
    assert [line[: len(want)] for line, want in zip(told, found)] == found and len(told) == len(found), told


CASTING = """\
ruleset: {{title: Embers}}
chapters:
  magic: {{title: Magic}}
tables:
  spells:
    title: Spells
    dice: D6
    rows:
      - {{roll: 1-6, result: Ember dart}}
spells:
  ember_dart: {{name: Ember dart, table: spells, roll: 1-6, casting_value: 8, effect: A dart of fire.}}
formulas:
  casting_chance:
    title: Casting chance
    inputs:
      casting_number: {{label: Casting number, type: int, min: 2, max: 12}}
    expr: chance(2D6 >= casting_number)
    result: chance
rules:
  casting:
    title: Casting
    chapter: magic
    body: |
      {sentence}

      ```python
      >>> casting_chance(casting_number=rules.spell("ember_dart").casting_value)
      Fraction(5, 12)
      ```
"""


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("With its casting number of 8, an ember dart is cast 5 times in 12:", []),
        ("With its casting number of 9, an ember dart is cast 5 times in 12:", ["error[example-sentence]: `9`"]),
    ],
)
def test_a_number_an_example_reads_from_an_entry_is_one_it_states(tmp_path, sentence, found):
    """The README's own way to follow the data, `rules.spell("ember_dart").casting_value`, read the casting number
    the sentence gives: "a casting number of 8" was refused as a number the example does not state."""
    from generator.validate import check_project

    result = check_project(make_project(tmp_path, embers=CASTING.format(sentence=sentence)))
    told = [d.format().splitlines()[0].partition(": ")[2] for d in result.diagnostics]
    assert [line[: len(want)] for line, want in zip(told, found)] == found and len(told) == len(found), told


GAS = """\
ruleset: {{title: Marsh}}
chapters:
  magic: {{title: Magic}}
tables:
  spells:
    title: Spells
    dice: D6
    rows:
      - {{roll: 1-2, result: Gas, ref: gas}}
      - {{roll: 3-6, result: Nothing}}
spells:
  gas: {{name: Gas, table: spells, roll: 1-2, effect: A cloud.}}
rules:
  casting:
    title: Casting
    chapter: magic
    body: |
      {sentence}

      ```python
      >>> rules.spell("gas").roll == rules.spell_row(rules.spell("gas")).roll
      True
      ```
"""


@pytest.mark.parametrize(
    ("sentence", "found"),
    [("Gas comes up on a roll of 1-2:", []), ("Gas comes up on a roll of 1-3:", ["error[example-sentence]: `3`"])],
)
def test_a_spell_s_roll_an_example_reads_is_a_range_it_states(tmp_path, sentence, found):
    """`rules.spell("gas").roll` reads the range `1-2`: the sentence's 1 and 2 are numbers the example states."""
    from generator.validate import check_project

    result = check_project(make_project(tmp_path, marsh=GAS.format(sentence=sentence)))
    told = [d.format().splitlines()[0].partition(": ")[2] for d in result.diagnostics]
    assert [line[: len(want)] for line, want in zip(told, found)] == found and len(told) == len(found), told


MORALE = """\
ruleset: {{title: Lone Patrol}}
chapters:
  morale: {{title: Morale}}
tables:
  morale:
    title: Morale
    dice: 2D6
    rows:
      - {{roll: 2-4, result: Rout}}
      - {{roll: 5-9, result: Hold}}
      - {{roll: 10+, result: Rally}}
rules:
  morale_test:
    title: Morale test
    chapter: morale
    body: |
      {sentence}

      ```python
      >>> rules.table("morale").chance("Rout")
      Fraction(1, 6)
      ```
"""


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("They rout on 2-4, a sixth of the throws:", []),
        ("They rally on 10 or more, and rout on 2-4, a sixth of the throws:", []),
        ("They rout on 2-7, a sixth of the throws:", ["error[example-sentence]: `7`"]),
        ("They rout on 3-4, a sixth of the throws:", ["error[example-sentence]: `3`"]),
    ],
)
def test_a_roll_a_named_table_s_rows_begin_or_end_on_is_one_the_example_states(tmp_path, sentence, found):
    """The README accepts the dice of a table an example names; the rows of that table were refused: "they rout on
    2-4" before an example of the morale table's rout was told `2` and `4` are not the example's. A roll no row
    begins or ends on still is."""
    from generator.validate import check_project

    result = check_project(make_project(tmp_path, lone_patrol=MORALE.format(sentence=sentence)))
    told = [d.format().splitlines()[0].partition(": ")[2] for d in result.diagnostics]
    assert [line[: len(want)] for line, want in zip(told, found)] == found and len(told) == len(found), told
