"""`rulepress list FILE.yaml`: a player's army list, checked against its ruleset as `check` checks the ruleset's own
lists, then printed as a filled roster PDF (read back here).

The numbers come from Blood, Guts and Rampant Hex (004): heavy foot 5 points, light foot 4, a low level hero 2, a
high level hero 5, the appeal for scrolls 4; at most one high level hero per full 40 points of troops, no more heroes
than half the units, one high level hero of any type, one appeal.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdf
import pytest
from helpers import WAR_MACHINES, make_project
from pdf_layout import overlapping_words, read_layout, squares, words_across_rules

from generator.check_cache import WarmCache
from generator.cli import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, main
from generator.diagnostics import Code, Diagnostic, Location
from generator.pipeline import army_list
from generator.pipeline.army_list import summary
from generator.pool import RenderFailed
from generator.render.handouts.cards import PAPERS
from generator.render.handouts.jobs import list_roster_job
from generator.validate import check_project
from generator.validate.memo import remembering

pytestmark = pytest.mark.usefixtures("without_the_wall", "costly_checks_once")  # the wall is not tested here


@pytest.fixture(scope="module")
def costly_checks_once(tmp_path_factory):
    """Every list here is checked with the same rampant_hex (or homebrew, or headcount): their costly checks (each
    formula tried with every input: most of a list's check) are remembered by their content, as the check daemon
    remembers them (tests/validate/test_memo.py), and made once a module instead of once a test. What a check
    finds is the same; what `list` does with it is what these tests are about."""
    with remembering(WarmCache(tmp_path_factory.mktemp("memo"))):
        yield


ROOT = Path(__file__).resolve().parents[2]

BUILT_IN_THE_PAGE = """\
armies:
  my_army:
    title: "My army"
    matrix: troops
    agreed_points: 20
    units:
      - {troop: heavy_foot, count: 1, heroes: [warrior_hero]}
      - {troop: light_foot, count: 1}
    extras: [scroll_appeal]
"""

GREEDY = """\
armies:
  greedy:
    title: "Greedy"
    matrix: troops
    agreed_points: 20
    units:
      - {troop: heavy_foot, count: 2, heroes: [legendary_warrior]}
      - {troop: heavy_foot, count: 1, heroes: [high_commander]}
    extras: [scroll_appeal, scroll_appeal]
"""


# the list names the matrix `troops`, which the text and its house rules both have: the text is chosen, and said
CHOSEN = "checked against `rampant_hex` (Blood, Guts and Rampant Hex); under house rules: --ruleset rampant_hex_house"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lists") / "project"
    for ruleset in ("rampant_hex", "rampant_hex_house"):
        shutil.copytree(ROOT / "rules_src" / ruleset, root / "rules_src" / ruleset)
    return root


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def written(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


@pytest.mark.build
def test_a_list_from_the_builder_is_told_by_its_totals_and_printed_as_a_filled_roster(capsys, project, tmp_path):
    """The list kept outside the project, its ruleset found from the matrix it names: heavy foot 5 with a warrior
    hero 2, light foot 4 and the appeal 4 make 15 of the 20 agreed points; the PDF beside it is that roster."""
    path = written(tmp_path / "mine", "my_list.yaml", BUILT_IN_THE_PAGE)
    code, out, err = run(capsys, "-C", str(project), "list", str(path))
    assert (code, err) == (EXIT_OK, "")
    roster = path.with_suffix(".pdf")
    assert out.splitlines() == [CHOSEN, "My army: 15 of 20 points, 2 units; 5 army limits held", f"wrote {roster}"]
    text = " ".join(pdf_text(roster).split())
    for printed in ("My army", "1× Heavy foot (5 pts)", "+ Warrior hero", "1× Light foot (4 pts)", "Total 15 points"):
        assert printed in text, (printed, text)
    assert "Agreed 20 points Left unspent 5 points" in text
    assert "Blank army roster" not in text  # the list alone, not the ruleset's blank rosters and sample lists
    assert "A 30 point force" not in text
    assert pypdf.PdfReader(roster).pages[0].mediabox.height == pytest.approx(297 / 25.4 * 72, abs=1)


@pytest.mark.build
def test_a_roster_prints_on_letter_paper_into_the_folder_given(capsys, project, tmp_path):
    path = written(tmp_path, "my_list.yaml", BUILT_IN_THE_PAGE)
    out_folder = tmp_path / "printouts"
    out_folder.mkdir()
    code, out, _err = run(capsys, "-C", str(project), "list", str(path), "--paper", "letter", "--out", str(out_folder))
    assert code == EXIT_OK
    page = pypdf.PdfReader(out_folder / "my_list.pdf").pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((612, 792), abs=1)


# A tournament list of 500 points from the text's own troops, no heroes or upgrades, so every army limit holds: heavy
# foot at 5 points, light foot and skirmishers at 4, monsters at 6 and levy at 2 (004's troop table): 50 x 5 + 30 x 4
# + 2 x 4 + 10 x 6 + 31 x 2 = 250 + 120 + 8 + 60 + 62 = 500 points, 123 units.
LONG_LIST_LINES = (
    ("heavy_foot", "Heavy foot", 50),
    ("light_foot", "Light foot", 30),
    ("skirmishers", "Skirmishers", 2),
    ("monsters", "Monsters", 10),
    ("levy", "Levy", 31),
)
LONG_LIST = (
    "armies:\n  big_club:\n    title: Big club\n    matrix: troops\n    agreed_points: 500\n    units:\n"
    + "".join(f"      - {{troop: {troop}, count: {count}}}\n" for troop, _name, count in LONG_LIST_LINES)
)
MM = 72 / 25.4  # points per millimetre
TURN_BOX_MM = (3.4, 3.8)  # an Activated box is 3.6 mm square; a hit marker's, 3.2 mm
FOOT_MM = 15  # the roster's bottom margin: the imprint and the page number stand in it
NEARLY_EMPTY = 0.5  # of a page's height: a page (not the last) whose printing ends above this wastes the rest


def activated_rows(page) -> list[float]:
    """The middles of the page's rows of Activated boxes, top to bottom: a unit's row each, six boxes, a turn each."""
    low, high = TURN_BOX_MM
    boxes = squares(page, low * MM, high * MM)
    rows = sorted({round((box.top + box.bottom) / 2) for box in boxes})
    assert all(sum(round((box.top + box.bottom) / 2) == row for box in boxes) == 6 for row in rows), rows
    return rows


def top_of(page, text: str) -> float | None:
    """How far down the page the first word ``text`` stands (its top), None if it is not on the page."""
    return next((word.box.top for word in page.words if word.text == text), None)


@pytest.mark.build
def test_a_long_roster_starts_on_page_one_and_every_page_names_its_units_and_columns(capsys, project, tmp_path):
    """A 500-point list of 123 units (LONG_LIST_LINES): its title block and its table start on page one, a line of
    50 or 31 units breaks across pages between its units' rows of boxes, never leaving a page half empty, and every
    page of the table repeats the column headers and names the unit of each row of boxes on it: the line that starts
    there by its count and name, the one it continues by its name, "continued". A line of 2 units is kept whole."""
    path = written(tmp_path, "big.yaml", LONG_LIST)
    code, out, err = run(capsys, "-C", str(project), "list", str(path))
    assert (code, err) == (EXIT_OK, "")
    assert "Big club: 500 of 500 points, 123 units; 5 army limits held" in out.splitlines()
    roster = path.with_suffix(".pdf")
    texts = [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(roster).pages]
    pages = read_layout(roster)
    assert "Big club" in texts[0] and "50× Heavy foot" in texts[0]

    owners = [(name, count) for _troop, name, count in LONG_LIST_LINES for _unit in range(count)]  # a row a unit
    firsts = {sum(count for *_, count in LONG_LIST_LINES[:index]) for index in range(len(LONG_LIST_LINES))}
    done = 0
    for number, (page, text) in enumerate(zip(pages, texts), 1):
        foot = page.height - FOOT_MM * MM
        inked = [word.box.bottom for word in page.words if word.box.top < foot]
        inked += [rule.outer.bottom for rule in page.rules if rule.outer.top < foot]
        if number < len(pages):
            assert max(inked) > NEARLY_EMPTY * page.height, (number, max(inked) / page.height)
        assert not overlapping_words(page) and not words_across_rules(page), number
        rows = activated_rows(page)
        if not rows:
            continue
        for header in ("No.", "Unit", "Each", "Points", "Activated", "Hit", "markers"):
            assert top_of(page, header) is not None and top_of(page, header) < rows[0], (number, header)
        for name, count in [owners[unit] for unit in range(done, done + len(rows)) if unit in firsts]:
            assert f"{count}× {name}" in text, (number, name)
        continued = [] if done in firsts else [f"{owners[done][0]}, continued"]  # its first row here says whose
        assert re.findall(r"(\w+(?: \w+)?, continued)", text) == continued, number
        if continued:
            assert top_of(page, "continued") < rows[0] + TURN_BOX_MM[1] * MM, number
        done += len(rows)
    assert done == len(owners) == 123
    assert "Total 500 points" in " ".join(texts)


def refused(capsys, project: Path, path: Path) -> list[str]:
    """What `rulepress list` says of a list it refuses, line by line: it prints nothing and exits with errors."""
    code, out, err = run(capsys, "-C", str(project), "list", str(path))
    assert (code, out) == (EXIT_ERRORS, "")
    return err.splitlines()


def test_a_list_that_breaks_the_rules_gets_check_s_errors_located_in_it_and_no_roster(capsys, project, tmp_path):
    """Three high level heroes (5 each) on three heavy foot (15 points of troops) and two appeals (4 each): 38 of 20
    points, and four limits broken, each with its numbers; the roster printed before is left as it was."""
    path = written(tmp_path, "greedy.yaml", GREEDY)
    before = b"%PDF-1.7 the roster printed last time"
    path.with_suffix(".pdf").write_bytes(before)
    heroes = "rules_src/rampant_hex/heroes.yaml"
    assert refused(capsys, project, path) == [  # each limit told where the list goes over it: the last part it counts
        f"{path}:5:20: error[over-points]: `greedy` spends 38 points of the 20 agreed",
        "  hint: remove units or raise the agreed total",
        f"{path}:7:9: error[limit-broken]: `greedy` breaks “Only one high level hero of any type”: "
        "most_of_one_high_hero is 2, but at most 1 is allowed",
        f"  hint: limit defined at {heroes}:92:3",
        f"{path}:8:9: error[limit-broken]: `greedy` breaks “Never more heroes than half the units in the force, "
        "rounding down”: low_heroes + high_heroes is 3, but at most 1 (units // 2) is allowed",
        f"  hint: counted at 7:9 and 8:9; limit defined at {heroes}:71:3",
        f"{path}:8:9: error[limit-broken]: `greedy` breaks “One high level hero per full 40 points of units (the "
        "troops' own PTS only, as read here)”: high_heroes is 3, but at most 0 (troop_points // 40) is allowed",
        f"  hint: counted at 7:9 and 8:9; limit defined at {heroes}:85:3",
        f"{path}:9:29: error[limit-broken]: `greedy` breaks “No more than one appeal for scrolls”: scroll_appeal is 2, "
        "but at most 1 is allowed",
        f"  hint: counted at 9:14 and 9:29; limit defined at {heroes}:99:3",
        "list failed: 5 errors; no roster printed",
    ]
    assert path.with_suffix(".pdf").read_bytes() == before


def test_every_problem_of_a_list_file_is_told_in_one_run(capsys, project, tmp_path):
    """A section a list cannot hold, a hero and a troop type that are not the ruleset's: three located errors."""
    path = written(
        tmp_path,
        "mixed.yaml",
        "rules:\n  my_rule: {title: Mine}\n"
        + BUILT_IN_THE_PAGE.replace("warrior_hero", "warior_hero").replace("troop: light_foot", "troop: light_fot"),
    )
    assert refused(capsys, project, path) == [
        f"{path}:1:1: error[unknown-section]: `rules` in a list file, which holds `armies:` alone",
        "  hint: rules go in the ruleset's own files; a list file is what the army builder exports",
        f"{path}:9:48: error[unknown-ref]: hero `warior_hero` is not in `heroes:`",
        "  hint: did you mean `warrior_hero`?",
        f"{path}:10:17: error[unknown-ref]: troop `light_fot` is not a row of `troops`",
        "  hint: did you mean `light_foot`?",
        "list failed: 3 errors; no roster printed",
    ]
    assert not path.with_suffix(".pdf").exists()


def test_a_list_over_its_points_in_the_lines_without_errors_is_told_so_beside_them(capsys, project, tmp_path):
    """Four heavy foot (5 points each: 20) on 10 agreed, and a levy with a misspelt hero: the levy's line cannot be
    priced, but 20 of 10 is over whatever it costs, so both errors come in one run."""
    path = written(
        tmp_path,
        "two.yaml",
        BUILT_IN_THE_PAGE.replace("agreed_points: 20", "agreed_points: 10")
        .replace("{troop: heavy_foot, count: 1, heroes: [warrior_hero]}", "{troop: heavy_foot, count: 4}")
        .replace("{troop: light_foot, count: 1}", "{troop: levy, count: 1, heroes: [warior_hero]}")
        .replace("    extras: [scroll_appeal]\n", ""),
    )
    assert refused(capsys, project, path) == [
        f"{path}:5:20: error[over-points]: `my_army` spends at least 20 points of the 10 agreed, in its lines "
        "without errors",
        "  hint: remove units or raise the agreed total",
        f"{path}:8:42: error[unknown-ref]: hero `warior_hero` is not in `heroes:`",
        "  hint: did you mean `warrior_hero`?",
        "list failed: 2 errors; no roster printed",
    ]


def test_lines_without_errors_spending_exactly_the_agreed_points_are_not_over(capsys, project, tmp_path):
    """The same list on 20 agreed: 20 of 20 is not over, whatever the levy's line costs once it is written right."""
    path = written(
        tmp_path,
        "even.yaml",
        BUILT_IN_THE_PAGE.replace(
            "{troop: heavy_foot, count: 1, heroes: [warrior_hero]}", "{troop: heavy_foot, count: 4}"
        )
        .replace("{troop: light_foot, count: 1}", "{troop: levy, count: 1, heroes: [warior_hero]}")
        .replace("    extras: [scroll_appeal]\n", ""),
    )
    assert refused(capsys, project, path) == [
        f"{path}:8:42: error[unknown-ref]: hero `warior_hero` is not in `heroes:`",
        "  hint: did you mean `warrior_hero`?",
        "list failed: 1 error; no roster printed",
    ]


def test_a_limit_the_lines_without_errors_already_break_is_told_beside_the_line_written_wrong(
    capsys, project, tmp_path
):
    """The greedy list and a levy with a misspelt hero: whatever that line holds, two of one high level hero and
    two appeals already go over their `at most 1`. The limits whose most allowed grows with the list (`units // 2`,
    `troop_points // 40`) wait: the levy's line may be what keeps them."""
    path = written(
        tmp_path,
        "greedy.yaml",
        GREEDY.replace("    extras:", "      - {troop: levy, count: 1, heroes: [warior_hero]}\n    extras:"),
    )
    heroes = "rules_src/rampant_hex/heroes.yaml"
    assert refused(capsys, project, path) == [
        f"{path}:5:20: error[over-points]: `greedy` spends at least 38 points of the 20 agreed, in its lines "
        "without errors",
        "  hint: remove units or raise the agreed total",
        f"{path}:7:9: error[limit-broken]: `greedy` breaks “Only one high level hero of any type”: "
        "most_of_one_high_hero is 2 in its lines without errors, but at most 1 is allowed",
        f"  hint: limit defined at {heroes}:92:3",
        f"{path}:9:42: error[unknown-ref]: hero `warior_hero` is not in `heroes:`",
        "  hint: did you mean `warrior_hero`?",
        f"{path}:10:29: error[limit-broken]: `greedy` breaks “No more than one appeal for scrolls”: scroll_appeal is "
        "2 in its lines without errors, but at most 1 is allowed",
        f"  hint: counted at 10:14 and 10:29; limit defined at {heroes}:99:3",
        "list failed: 4 errors; no roster printed",
    ]


def test_a_line_written_wrong_is_told_beside_the_other_lines_errors_and_their_points(capsys, project, tmp_path):
    """`count: 0` (the schema's own range) on the first line left the whole army unloaded, so a misspelt hero on
    the second and 4 heavy foot (20 points) on 10 agreed on the third waited for the next run: now the line written
    wrong is left out and the others are checked as lines beside an error are."""
    path = written(
        tmp_path,
        "lines.yaml",
        BUILT_IN_THE_PAGE.replace("agreed_points: 20", "agreed_points: 10")
        .replace(
            "      - {troop: heavy_foot, count: 1, heroes: [warrior_hero]}\n",
            "      - {troop: heavy_foot, count: 0}\n      - {troop: levy, count: 1, heroes: [warior_hero]}\n",
        )
        .replace("{troop: light_foot, count: 1}", "{troop: heavy_foot, count: 4}")
        .replace("    extras: [scroll_appeal]\n", ""),
    )
    assert refused(capsys, project, path) == [
        f"{path}:5:20: error[over-points]: `my_army` spends at least 20 points of the 10 agreed, in its lines "
        "without errors",
        "  hint: remove units or raise the agreed total",
        f"{path}:7:36: error[out-of-range]: `count` is 0; it must be from 1 to 100",
        "  hint: use a value within the declared bounds",
        f"{path}:8:42: error[unknown-ref]: hero `warior_hero` is not in `heroes:`",
        "  hint: did you mean `warrior_hero`?",
        "list failed: 3 errors; no roster printed",
    ]


def test_a_list_whose_every_line_is_written_wrong_says_so_and_nothing_of_its_points(capsys, project, tmp_path):
    """No line loads: each is told where it is written, and the list's points (none counted) are not."""
    path = written(
        tmp_path,
        "none.yaml",
        BUILT_IN_THE_PAGE.replace("count: 1, heroes: [warrior_hero]", "count: 0")
        .replace("{troop: light_foot, count: 1}", "{troop: light_foot, count: many}")
        .replace("    extras: [scroll_appeal]\n", ""),
    )
    assert refused(capsys, project, path) == [
        f"{path}:7:36: error[out-of-range]: `count` is 0; it must be from 1 to 100",
        "  hint: use a value within the declared bounds",
        f"{path}:8:36: error[wrong-type]: `count` must be a whole number, not the text `many`",
        "  hint: write a value of the expected kind",
        "list failed: 2 errors; no roster printed",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("armies: [\n", ":2:1: error[yaml-syntax]: YAML syntax: did not find expected node content"),
        ("", ":1:1: error[empty-file]:"),
        ("- just a list\n", ":1:1: error[wrong-type]: a list file must be a mapping with `armies:`, not a list"),
        ("units: []\n", ":1:1: error[unknown-section]: `units` in a list file, which holds `armies:` alone"),
    ],
)
def test_a_file_that_is_no_list_is_a_located_error(capsys, project, tmp_path, text, expected):
    path = written(tmp_path, "odd.yaml", text)
    code, _out, err = run(capsys, "-C", str(project), "list", str(path))
    assert code == EXIT_ERRORS
    assert err.startswith(f"{path}{expected}"), err
    assert err.endswith("no roster printed\n")


def test_a_file_where_the_roster_would_go_that_is_no_pdf_is_left_alone(capsys, project, tmp_path):
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE)
    notes = path.with_suffix(".pdf")
    notes.write_text("my notes, not a PDF", encoding="utf-8")
    code, _out, err = run(capsys, "-C", str(project), "list", str(path))
    assert code == EXIT_USAGE
    assert err.splitlines() == [
        f"rulepress: error: {notes} is there and is not a PDF; it is left as it was",
        "  hint: pass --out with another name",
    ]
    assert notes.read_text(encoding="utf-8") == "my notes, not a PDF"


ANOTHER_MATRIX = BUILT_IN_THE_PAGE.replace("matrix: troops", "matrix: regiments")
A_SECOND_LIST = BUILT_IN_THE_PAGE.replace("my_army:", "second:").replace("matrix: troops", "matrix: squads")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (ANOTHER_MATRIX, "regiments"),
        (ANOTHER_MATRIX + A_SECOND_LIST.removeprefix("armies:\n"), "regiments, squads"),  # each one named
        ("armies:\n  odd: 3\n", "none"),  # an army that is no mapping names no matrix
    ],
)
def test_a_list_whose_matrix_no_ruleset_has_asks_for_the_ruleset(capsys, project, tmp_path, text, named):
    path = written(tmp_path, "elsewhere.yaml", text)
    code, _out, err = run(capsys, "-C", str(project), "list", str(path))
    assert code == EXIT_USAGE
    assert err.splitlines() == [
        f"rulepress: error: no ruleset has the army matrix the list names ({named})",
        "  hint: pass --ruleset; rulesets with an army matrix: rampant_hex, rampant_hex_house",
    ]


def test_a_list_is_checked_against_the_ruleset_named_or_the_folder_it_is_in(capsys, project, tmp_path):
    """Named, the house overlay checks it (the same costs: the same total); kept in the ruleset's own folder, it is
    one of that ruleset's files and is checked once."""
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE.replace("agreed_points: 20", "agreed_points: 10"))
    code, _out, err = run(capsys, "-C", str(project), "list", str(path), "--ruleset", "rampant_hex_house")
    assert code == EXIT_ERRORS
    assert f"{path}:5:20: error[over-points]: `my_army` spends 15 points of the 10 agreed" in err.splitlines()
    inside = written(project / "rules_src" / "rampant_hex", "zz_mine.yaml", path.read_text(encoding="utf-8"))
    try:
        code, _out, err = run(capsys, "-C", str(project), "list", str(inside))
    finally:
        inside.unlink()
    assert code == EXIT_ERRORS
    assert err.splitlines()[0] == (
        "rules_src/rampant_hex/zz_mine.yaml:5:20: error[over-points]: `my_army` spends 15 points of the 10 agreed"
    )
    code, _out, err = run(capsys, "-C", str(project), "list", str(path), "--ruleset", "rampant_hx")
    assert code == EXIT_USAGE
    assert err.splitlines() == [
        "rulepress: error: no ruleset `rampant_hx` in rules_src/",
        "  hint: did you mean `rampant_hex`?",
    ]


def test_a_list_file_kept_in_rules_src_itself_is_checked_as_one_kept_outside(capsys, project):
    """rules_src/ holds ruleset folders; a list saved beside them belongs to none of them and is checked all the same
    (its errors were once left out, and an empty roster printed)."""
    path = written(project / "rules_src", "my_list.yaml", BUILT_IN_THE_PAGE.replace("    agreed_points: 20\n", ""))
    try:
        code, out, err = run(capsys, "-C", str(project), "list", str(path))
    finally:
        path.unlink()
    assert (code, out) == (EXIT_ERRORS, "")
    assert err.splitlines() == [
        "rules_src/my_list.yaml:2:3: error[missing-field]: army list `my_army` needs `agreed_points` or "
        "`agreed_models` (or both)",
        "  hint: add `agreed_points: 30` or `agreed_models: 20`",
        "list failed: 1 error; no roster printed",
    ]
    assert not path.with_suffix(".pdf").exists()


@pytest.mark.parametrize("named", [(), ("--ruleset", "rampant_hex")])
def test_an_armies_section_holding_no_list_is_a_located_error_not_a_blank_roster(capsys, project, tmp_path, named):
    path = written(tmp_path, "nothing.yaml", "armies: {}\n")
    code, out, err = run(capsys, "-C", str(project), "list", str(path), *named)
    assert (code, out) == (EXIT_ERRORS, "")
    assert err.splitlines() == [
        f"{path}:1:9: error[missing-field]: `armies:` holds no list",
        "  hint: put each list under its own id, as the army builder exports it",
        "list failed: 1 error; no roster printed",
    ]
    assert not path.with_suffix(".pdf").exists()


def test_a_list_file_that_reads_as_nothing_is_told_so(capsys, project, tmp_path, monkeypatch):
    """Whatever the reader gives back empty without a word of its own, the list is not taken for an empty one."""
    path = written(tmp_path, "blank.yaml", BUILT_IN_THE_PAGE)
    monkeypatch.setattr(army_list, "load_file", lambda *args: None)
    assert refused(capsys, project, path) == [
        f"{path}:1:1: error[missing-field]: the list file holds no `armies:`",
        "  hint: start it with `armies:`, each list under its own id, as the army builder exports it",
        "list failed: 1 error; no roster printed",
    ]


def test_a_project_with_no_ruleset_says_there_is_none_to_name(capsys, tmp_path):
    (tmp_path / "empty" / "rules_src").mkdir(parents=True)
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE)
    code, _out, err = run(capsys, "-C", str(tmp_path / "empty"), "list", str(path), "--ruleset", "rampant_hex")
    assert code == EXIT_USAGE
    assert err.splitlines() == ["rulepress: error: no ruleset `rampant_hex` in rules_src/", "  hint: rulesets: none"]


def test_a_file_with_another_section_and_no_armies_is_told_both(capsys, project, tmp_path):
    path = written(tmp_path, "rules.yaml", "rules: {}\n")
    code, _out, err = run(capsys, "-C", str(project), "list", str(path))
    assert code == EXIT_ERRORS
    assert err.splitlines() == [
        f"{path}:1:1: error[unknown-section]: `rules` in a list file, which holds `armies:` alone",
        "  hint: rules go in the ruleset's own files; a list file is what the army builder exports",
        f"{path}:1:1: error[missing-field]: the list file holds no `armies:`",
        "  hint: start it with `armies:`, each list under its own id, as the army builder exports it",
        "list failed: 2 errors; no roster printed",
    ]


def test_two_rulesets_with_the_matrix_a_list_names_ask_which(capsys, project, tmp_path):
    """A second ruleset (not an overlay) with the same army matrix: the list could be either's."""
    root = tmp_path / "two"
    shutil.copytree(project / "rules_src" / "rampant_hex", root / "rules_src" / "rampant_hex")
    shutil.copytree(project / "rules_src" / "rampant_hex", root / "rules_src" / "rampant_hex_again")
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE)
    code, _out, err = run(capsys, "-C", str(root), "list", str(path))
    assert code == EXIT_USAGE
    assert err.splitlines() == [
        "rulepress: error: rulesets rampant_hex, rampant_hex_again each have the army matrix the list names",
        "  hint: pass --ruleset",
    ]


def test_a_project_whose_rulesets_have_no_army_matrix_says_there_is_none(capsys, tmp_path):
    root = tmp_path / "no_armies"
    (root / "rules_src" / "game").mkdir(parents=True)
    (root / "rules_src" / "game" / "ruleset.yaml").write_text("ruleset: {title: A game}\n", encoding="utf-8")
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE)
    code, _out, err = run(capsys, "-C", str(root), "list", str(path))
    assert code == EXIT_USAGE
    assert err.splitlines() == [
        "rulepress: error: no ruleset has the army matrix the list names (troops)",
        "  hint: pass --ruleset; rulesets with an army matrix: none",
    ]


def test_what_the_command_line_names_must_be_there(capsys, project, tmp_path):
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE)
    refusals = {
        (str(tmp_path / "gone.yaml"),): [
            f"rulepress: error: no list file {tmp_path / 'gone.yaml'}",
            "  hint: give an `armies:` file, such as one the site's army builder exports",
        ],
        (str(path), "--out", str(tmp_path / "gone" / "mine.pdf")): [
            f"rulepress: error: no folder {tmp_path / 'gone'} to write the roster into"
        ],
        (str(path), "--ruleset", "zzz"): [  # nothing close to it: every ruleset is named
            "rulepress: error: no ruleset `zzz` in rules_src/",
            "  hint: rulesets: rampant_hex, rampant_hex_house",
        ],
    }
    for argv, expected in refusals.items():
        code, out, err = run(capsys, "-C", str(project), "list", *argv)
        assert (code, out, err.splitlines()) == (EXIT_USAGE, "", expected), argv


def test_a_list_whose_ruleset_has_errors_says_how_many_are_the_rulesets(capsys, project, tmp_path):
    root = tmp_path / "broken"
    shutil.copytree(project, root)
    ruleset = root / "rules_src" / "rampant_hex" / "ruleset.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8") + "values:\n  Bad Id: {value: 1}\n", encoding="utf-8")
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE)
    code, out, err = run(capsys, "-C", str(root), "list", str(path), "--ruleset", "rampant_hex")
    assert (code, out) == (EXIT_ERRORS, "")
    assert err.splitlines()[-1] == (
        "list failed: 1 error (1 in the ruleset: `rulepress check` tells them too); no roster printed"
    )


# -- what `list` hands the printer, and how the roster is put in place (the render itself: the `build` tests above)
# A list counted in points whose players also agreed a number of models (each line's models stated): its line says
# both, as its roster's totals do.
COUNTED_BOTH = (
    BUILT_IN_THE_PAGE.replace("    agreed_points: 20\n", "    agreed_models: 20\n")
    .replace("count: 1, heroes", "count: 1, models: 5, heroes")
    .replace("{troop: light_foot, count: 1}", "{troop: light_foot, count: 1, models: 6}")
)


def test_a_checked_list_is_told_then_handed_to_the_printer_with_where_and_on_what_paper(
    capsys, project, tmp_path, monkeypatch
):
    printed = []

    def printer(project, ruleset, lists, target, paper):
        printed.append((ruleset.id, [army.title for army in lists], target, paper.key))
        return EXIT_OK

    monkeypatch.setattr(army_list, "_print", printer)
    path = written(tmp_path, "mine.yaml", COUNTED_BOTH)
    folder = tmp_path / "rosters"
    folder.mkdir()
    code, out, _err = run(capsys, "-C", str(project), "list", str(path), "--out", str(folder), "--paper", "letter")
    assert code == EXIT_OK
    assert out == CHOSEN + "\nMy army: 15 points, 11 of 20 models, 2 units; 5 army limits held\n"
    assert printed == [("rampant_hex", ["My army"], folder / "mine.pdf", "letter")]


@pytest.mark.parametrize(
    "settings, paper", [(None, "a4"), ("papers: [letter]\n", "letter"), ("papers: [letter, a4]\n", "letter")]
)
def test_without_paper_given_a_roster_prints_on_the_projects_first_paper(
    capsys, project, tmp_path, monkeypatch, settings, paper
):
    printed = []
    monkeypatch.setattr(army_list, "_print", lambda _p, _r, _l, _t, chosen: printed.append(chosen.key) or EXIT_OK)
    own = tmp_path / "project"
    shutil.copytree(project, own)
    if settings is not None:
        (own / "rulepress.yaml").write_text(settings, encoding="utf-8")
    path = written(tmp_path, "mine.yaml", COUNTED_BOTH)
    code, _out, _err = run(capsys, "-C", str(own), "list", str(path), "--out", str(tmp_path))
    assert code == EXIT_OK
    assert printed == [paper]


def test_a_list_is_not_held_up_by_the_errors_of_a_ruleset_it_is_not_checked_against(
    capsys, project, tmp_path, monkeypatch
):
    """The house overlay broken: a list checked against the ruleset it extends is printed all the same."""
    root = tmp_path / "project"
    shutil.copytree(project, root)
    house = root / "rules_src" / "rampant_hex_house" / "ruleset.yaml"
    house.write_text(house.read_text(encoding="utf-8") + "values:\n  Bad Id: {value: 1}\n", encoding="utf-8")
    staged_renders(monkeypatch, root, write=b"%PDF-1.7 the roster")
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE)
    code, out, err = run(capsys, "-C", str(root), "list", str(path), "--ruleset", "rampant_hex")
    assert (code, err) == (EXIT_OK, "")
    assert out.splitlines()[-1] == f"wrote {path.with_suffix('.pdf')}"


def staged_renders(monkeypatch, project: Path, write: bytes | None = None, error: Exception | None = None) -> list:
    """`list`'s render stood in for: it checks what it is handed, then writes ``write`` where the job says, or raises
    ``error``; the folders it was given to write in, as it ran."""
    folders = []

    def render(tasks, workers, advance, walled):
        ((_render, (job, root)),) = tasks
        folders.append(job.target.parent)
        assert job.target.parent.name.startswith(".rulepress-list-")  # hidden beside the roster while it renders
        assert "My army" in job.html and "A 30 point force" not in job.html  # the list's roster, not the ruleset's
        assert root == walled[0][0] == project  # it reads the project
        assert walled[1] == [job.target.parent]  # and writes only its staging folder
        if error is not None:
            raise error
        job.target.write_bytes(write)
        advance()
        return [None]

    monkeypatch.setattr(army_list, "run_tasks", render)
    return folders


def test_a_roster_is_put_in_place_whole_and_its_staging_folder_removed(capsys, project, tmp_path, monkeypatch):
    folders = staged_renders(monkeypatch, project, write=b"%PDF-1.7 the new roster")
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE)
    path.with_suffix(".pdf").write_bytes(b"%PDF-1.7 the roster printed last time")
    code, out, _err = run(capsys, "-C", str(project), "list", str(path))
    assert code == EXIT_OK
    assert out.splitlines()[-1] == f"wrote {path.with_suffix('.pdf')}"
    assert path.with_suffix(".pdf").read_bytes() == b"%PDF-1.7 the new roster"
    assert [folder.parent for folder in folders] == [tmp_path] and not folders[0].exists()


@pytest.mark.parametrize(
    ("error", "told"),
    [
        (
            RenderFailed("the worker ran out of memory"),
            ["error: the worker ran out of memory", "{failed} did not finish"],
        ),
        (
            army_list.RenderRefused([Diagnostic(Code.TEMPLATE_ERROR, "no such page", Location("templates/x.j2", 3))]),
            ["templates/x.j2:3:1: error[template-error]: no such page", "{failed} was not printed"],
        ),
        (
            army_list.TemplateFailed([Diagnostic(Code.TEMPLATE_ERROR, "bad tag", Location("templates/y.j2", 7))]),
            ["templates/y.j2:7:1: error[template-error]: bad tag", "{failed} was not printed"],
        ),
    ],
)
def test_a_roster_that_fails_leaves_the_one_there_and_no_staging_folder(
    capsys, project, tmp_path, monkeypatch, error, told
):
    folders = staged_renders(monkeypatch, project, error=error)
    path = written(tmp_path, "mine.yaml", BUILT_IN_THE_PAGE)
    path.with_suffix(".pdf").write_bytes(b"%PDF-1.7 the roster printed last time")
    code, _out, err = run(capsys, "-C", str(project), "list", str(path))
    assert code == EXIT_ERRORS
    failed = "list failed: the roster"
    said = [
        line.format(failed=failed) + ("; mine.pdf is left as it was" if "{failed}" in line else "") for line in told
    ]
    assert [line for line in err.splitlines() if not line.startswith("  hint:")] == said
    assert path.with_suffix(".pdf").read_bytes() == b"%PDF-1.7 the roster printed last time"
    assert len(folders) == 1 and not folders[0].exists()


# -- the line a list is told by (printed before its roster) -------------------------------------------------------
def told(root: Path, ruleset_id: str, edits: dict[str, str] | None = None, tmp_path: Path | None = None) -> list[str]:
    """`summary` of each list of a ruleset in ``root``, once ``edits`` (old text: new) are made in a copy of its
    ruleset.yaml; the project must check clean."""
    if edits:
        copy = tmp_path / "project"
        shutil.copytree(root, copy)
        path = copy / "rules_src" / ruleset_id / "ruleset.yaml"
        text = path.read_text(encoding="utf-8")
        for old, new in edits.items():
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
        root = copy
    result = check_project(root, ruleset_id)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ruleset = result.project.ruleset(ruleset_id)
    return [summary(ruleset, army) for army in ruleset.armies]


HEADCOUNT = ROOT / "tests" / "fixtures" / "headcount"


def test_a_list_is_told_by_its_points_against_the_agreed_its_units_and_the_limits_it_holds():
    """004's example force: light foot 2 (8 points), heavy foot 2 (10), skirmishers (4), monsters (6) and levy (2)
    are 30 of the 30 points and 7 units, within the ruleset's five army limits."""
    assert told(ROOT, "rampant_hex") == ["A 30 point force: 30 of 30 points, 7 units; 5 army limits held"]


def test_a_list_balanced_by_head_count_is_told_by_its_models(tmp_path):
    """tests/fixtures/headcount: two units of 10 musketeers, a field gun (no models; it counts as a gun, not a unit)
    and 4 gun crew are 24 of the 30 models agreed, 3 units; each edit below is told as written by hand."""
    assert told(HEADCOUNT, "skirmish") == ["The vanguard: 24 of 30 models, 3 units; 2 army limits held"]
    one_unit = {"{troop: musketeers, count: 2, heroes: [captain]}": "{troop: musketeers, heroes: [captain]}"}
    one_unit |= {"      - {troop: field_gun}\n      - {troop: gun_crew}\n": ""}
    assert told(HEADCOUNT, "skirmish", one_unit, tmp_path / "one") == [
        "The vanguard: 10 of 30 models, 1 unit; 2 army limits held"  # no gun: a crew for each, none past half
    ]
    not_given = {"agreed_models: 30": "agreed_models: not given"}
    assert told(HEADCOUNT, "skirmish", not_given, tmp_path / "gap") == [
        "The vanguard: 24 models (agreed: not given), 3 units; 2 army limits held"
    ]


def test_points_agreed_that_the_text_leaves_out_are_said_to_be_left_out(tmp_path):
    """tests/fixtures/homebrew: 2 footmen at 1 point and 4 horsemen at 1½ are 8 points and 6 units."""
    homebrew = ROOT / "tests" / "fixtures" / "homebrew"
    assert told(homebrew, "melee") == ["A patrol: 8 of 10 points, 6 units; 1 army limit held"]
    assert told(homebrew, "melee", {"agreed_points: 10": "agreed_points: not given"}, tmp_path) == [
        "A patrol: 8 points (agreed: not given), 6 units; 1 army limit held"
    ]


def roster_totals(root: Path, ruleset_id: str) -> str:
    """The totals of the roster `rulepress list` prints of a ruleset's lists: the HTML's text, no PDF made."""
    result = check_project(root, ruleset_id)
    assert result.ok, [d.format() for d in result.diagnostics.errors]
    ruleset = result.project.ruleset(ruleset_id)
    job = list_roster_job(result.project, ruleset, ruleset.armies, root / "roster.pdf", PAPERS[0])
    totals = job.html[job.html.index('<table class="totals">') :]
    return " ".join(re.sub(r"<[^>]+>", " ", totals[: totals.index("</table>")]).split())


def test_a_roster_counts_against_what_was_agreed_or_says_the_text_leaves_it_out(tmp_path):
    """The head-count list (24 of 30 models: 6 left) and the points list (8 of 10: 2 left unspent), then each with
    its agreed number left out by the text: no number is left to count against it, and nothing else is printed."""
    homebrew = ROOT / "tests" / "fixtures" / "homebrew"
    assert roster_totals(HEADCOUNT, "skirmish") == "Models 24 of 30 agreed Left to field 6 models"
    assert roster_totals(homebrew, "melee") == "Total 8 points Agreed 10 points Left unspent 2 points"
    for fixture, ruleset_id, old, new, expected in [
        (HEADCOUNT, "skirmish", "agreed_models: 30", "agreed_models: not given", "Models 24 Agreed models not given"),
        (homebrew, "melee", "agreed_points: 10", "agreed_points: not given", "Total 8 points Agreed points not given"),
    ]:
        copy = tmp_path / ruleset_id
        shutil.copytree(fixture, copy)
        path = copy / "rules_src" / ruleset_id / "ruleset.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        assert roster_totals(copy, ruleset_id) == expected


@pytest.mark.parametrize(
    ("agreed", "expected"),
    [
        ("9", "Total 8 points Agreed 9 points Left unspent 1 point"),  # 9 - 8 = 1: one point, singular
        ("9½", "Total 8 points Agreed 9½ points Left unspent 1½ points"),
        ("8", "Total 8 points Agreed 8 points Left unspent 0 points"),
    ],
)
def test_a_roster_says_one_point_in_the_singular_and_any_other_number_of_points_in_the_plural(
    tmp_path, agreed, expected
):
    """tests/fixtures/homebrew's patrol costs 8 points: agreed on 9 it leaves one point unspent, not "1 points"."""
    copy = tmp_path / "homebrew"
    shutil.copytree(ROOT / "tests" / "fixtures" / "homebrew", copy)
    path = copy / "rules_src" / "melee" / "ruleset.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("agreed_points: 10", f"agreed_points: {agreed}"), encoding="utf-8"
    )
    assert roster_totals(copy, "melee") == expected


def test_a_list_of_a_ruleset_without_army_limits_says_so(tmp_path):
    limits = (HEADCOUNT / "rules_src" / "skirmish" / "ruleset.yaml").read_text(encoding="utf-8")
    section = limits[limits.index("army_limits:\n") : limits.index("armies:\n")]
    assert told(HEADCOUNT, "skirmish", {section: ""}, tmp_path) == [
        "The vanguard: 24 of 30 models, 3 units; no army limits"
    ]


def test_a_list_naming_one_of_a_rulesets_several_army_matrices_is_checked_against_that_ruleset(capsys, tmp_path):
    """Its goblins' list names `goblins`, one of its two matrices: the command finds the ruleset by it (over its
    agreed points here, so no roster is printed)."""
    root = tmp_path / "factions"
    game = (
        "ruleset: {title: Hammerfall}\n"
        "profiles:\n"
        "  dwarfs: {title: Dwarfs, columns: {pts: {label: Pts, type: points}}, rows: {warriors: {name: W, pts: 60}}}\n"
        "  goblins: {title: Goblins, columns: {pts: {label: Pts, type: points}}, rows: {spears: {name: S, pts: 30}}}\n"
    )
    written(root / "rules_src" / "game", "ruleset.yaml", game)
    horde = "armies:\n  horde:\n    title: Horde\n    matrix: goblins\n    agreed_points: 50\n"
    path = written(tmp_path, "horde.yaml", horde + "    units:\n      - {troop: spears, count: 2}\n")
    code, _out, err = run(capsys, "-C", str(root), "list", str(path))
    assert code == EXIT_ERRORS
    assert f"{path}:5:20: error[over-points]: `horde` spends 60 points of the 50 agreed" in err.splitlines()
    assert "warning[army-matrices]: `game` chooses armies from 2 profile matrices (dwarfs, goblins)" in err


def test_a_file_of_lists_for_two_rulesets_is_told_so_not_that_both_have_its_matrix(capsys, tmp_path):
    """The trial's file of a Roman and a Gallic list: neither ruleset has both matrices."""
    goblins = WAR_MACHINES.replace("Hammerfall", "Gobbofall").replace("dwarfs:", "goblins:")
    root = make_project(tmp_path / "two", hammerfall=WAR_MACHINES, gobbofall=goblins)
    lists = (
        "armies:\n"
        "  throng: {title: Throng, matrix: dwarfs, units: [{troop: warriors, count: 1}]}\n"
        "  mob: {title: Mob, matrix: goblins, units: [{troop: warriors, count: 1}]}\n"
    )
    code, _out, err = run(capsys, "-C", str(root), "list", str(written(tmp_path, "both.yaml", lists)))
    assert code == EXIT_USAGE
    assert err.splitlines() == [
        "rulepress: error: the lists name army matrices of different rulesets (`dwarfs`, `goblins`): no one ruleset "
        "holds them all",
        "  hint: put each ruleset's lists in a file of their own",
    ]
