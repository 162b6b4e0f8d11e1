"""The project's own settings, `rulepress.yaml` beside `rules_src/`: where its rules website is published.

Optional: a project without the file has every default (no site address, so printouts carry no link). What is
wrong in it is a located diagnostic like any in the rules, printed by `check`, which then fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import make_project

from generator.cli import main
from generator.source.project import load_project

GAME = "ruleset:\n  title: Siege of the Old Mill\n"


def project(root: Path, settings: str | None) -> Path:
    make_project(root, game=GAME)
    if settings is not None:
        (root / "rulepress.yaml").write_text(settings, encoding="utf-8")
    return root


def problems(root: Path) -> list[str]:
    return [d.format() for d in load_project(root)[1]]


def test_without_the_file_no_site_address(tmp_path):
    loaded, diagnostics = load_project(project(tmp_path, None))
    assert loaded.settings.site_url == "" and not list(diagnostics)


@pytest.mark.parametrize(
    "written, read",
    [
        ("https://club.example.org/rules/", "https://club.example.org/rules/"),
        ("https://club.example.org/rules", "https://club.example.org/rules/"),  # a folder: its pages go under it
        ("http://192.168.1.20:8000/", "http://192.168.1.20:8000/"),
        ("  https://example.org  ", "https://example.org/"),
    ],
)
def test_the_site_address_is_read_as_the_sites_folder(tmp_path, written, read):
    loaded, diagnostics = load_project(project(tmp_path, f'site:\n  url: "{written}"\n'))
    assert not list(diagnostics)
    assert loaded.settings.site_url == read


def test_an_empty_address_is_no_address(tmp_path):
    loaded, diagnostics = load_project(project(tmp_path, "site:\n  url:\n"))
    assert loaded.settings.site_url == "" and not list(diagnostics)


@pytest.mark.parametrize(
    "url, message",
    [
        (
            "ftp://club.example.org/",
            "`url` must start with `https://` or `http://` and a host name, not `ftp://club.example.org/`",
        ),
        (
            "club.example.org/rules",
            "`url` must start with `https://` or `http://` and a host name, not `club.example.org/rules`",
        ),
        (
            "https://example.org/my rules/",
            "`url` holds ` `, which an address cannot: percent-encode it (spaces and letters beyond ASCII too)",
        ),
        (
            "https://example.org/?page=1",
            "`url` must be the site's folder, without `?` or `#`: each printout adds its page's path to it",
        ),
        (
            "https://club:secret@example.org/",
            "`url` must not carry a user name or password: every printout would show it",
        ),
        (
            "https://example.org/" + "a" * 200,
            "`url` has 220 characters; at most 200 print as a QR code small enough for a footer",
        ),
    ],
)
def test_an_address_that_is_none_is_refused_where_it_is_written(tmp_path, url, message):
    root = project(tmp_path, f"# where the site is\nsite:\n  url: '{url}'\n")
    assert problems(root) == [
        f"rulepress.yaml:3:8: error[wrong-type]: {message}\n"
        "  hint: write the address the site is published at, such as `url: https://club.example.org/rules/`"
    ]
    assert load_project(root)[0].settings.site_url == ""  # no link is printed from it


def test_an_unknown_setting_is_refused_with_a_did_you_mean(tmp_path):
    root = project(tmp_path, "site:\n  ulr: https://example.org/\n")
    assert problems(root) == [
        "rulepress.yaml:2:3: error[unknown-field]: unknown field `ulr` in site settings\n  hint: did you mean `url`?"
    ]


def test_a_file_that_is_not_a_mapping_is_refused(tmp_path):
    root = project(tmp_path, "- https://example.org/\n")
    assert problems(root) == [
        "rulepress.yaml:1:1: error[wrong-type]: `rulepress.yaml` must be a mapping of settings, "
        "not a list (- item lines)\n"
        "  hint: write a value of the expected kind"
    ]


def test_a_settings_file_that_leads_outside_the_project_is_not_read(tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("site:\n  url: https://example.org/\n", encoding="utf-8")
    root = project(tmp_path / "project", None)
    os.symlink(outside, root / "rulepress.yaml")
    loaded, diagnostics = load_project(root)
    assert loaded.settings.site_url == ""
    assert [d.format().splitlines()[0] for d in diagnostics] == [
        "rulepress.yaml:1:1: error[symlink-outside]: `rulepress.yaml` is a file that leads outside the project "
        "(a symbolic link); it is not read"
    ]


def test_check_reports_the_settings_and_fails(tmp_path, capsys):
    root = project(tmp_path, "site:\n  url: ftp://example.org/\n")
    assert main(["-C", str(root), "check"]) == 1
    assert "rulepress.yaml:2:8: error[wrong-type]: `url` must start with `https://`" in capsys.readouterr().err


def test_a_changed_settings_file_is_checked_again(tmp_path, capsys):
    """`check` replays an unchanged project's report from its cache; a change to rulepress.yaml is a change."""
    root = project(tmp_path, "site:\n  url: https://example.org/\n")
    assert main(["-C", str(root), "check"]) == 0
    (root / "rulepress.yaml").write_text("site:\n  url: ftp://example.org/\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["-C", str(root), "check"]) == 1
    assert "rulepress.yaml:2:8: error[wrong-type]" in capsys.readouterr().err


def test_the_site_is_called_what_the_project_says_or_rules_library(tmp_path):
    assert load_project(project(tmp_path / "unset", None))[0].settings.site_name == "Rules library"
    loaded, diagnostics = load_project(project(tmp_path / "set", "site:\n  name: '  Northfield   club rules '\n"))
    assert loaded.settings.site_name == "Northfield club rules" and not list(diagnostics)


def test_a_site_name_too_long_for_a_tab_is_a_located_error_and_the_default_stands(tmp_path):
    name = "The Northfield and District Wargames and Tabletop Gaming Club's rules"  # 69 characters
    root = project(tmp_path, f'site:\n  name: "{name}"\n')
    assert problems(root) == [
        "rulepress.yaml:2:9: error[wrong-type]: `name` has 69 characters; at most 60 fit a browser tab and the "
        "navigation's heading\n  hint: keep the site's name short, such as `name: Northfield club rules`"
    ]
    assert load_project(root)[0].settings.site_name == "Rules library"


def test_a_site_name_with_markup_is_a_located_error_and_the_default_stands(tmp_path):
    """The club's trial: `</title></script><script>alert(3)</script>` in the site's name passed `check` and reached
    every player page's navigation as a live script."""
    root = project(tmp_path, 'site:\n  name: "Club </title><script>alert(3)</script>"\n')
    assert problems(root) == [
        "rulepress.yaml:2:9: error[wrong-type]: `name` holds `<` or `>`: the site's name is plain text, printed on "
        "every page\n  hint: write the name as words, such as `name: Northfield club rules`"
    ]
    assert load_project(root)[0].settings.site_name == "Rules library"


def test_the_site_name_reaches_sphinx_escaped_so_furos_raw_heading_prints_it_as_written(tmp_path):
    from generator.render.site.pages import sphinx_config

    config = sphinx_config(tmp_path, "player", name='Smith & Sons\' "rules" <b>')
    assert config["project"] == 'Smith &amp; Sons\' "rules" &lt;b&gt;'
    assert config["html_title"] == config["project"]


@pytest.mark.parametrize(
    "written, read",
    [
        (None, ("a4", "letter")),  # unset: every printout in both sizes
        ("papers: [letter]\n", ("letter",)),
        ("papers: letter\n", ("letter",)),  # one size may be written without a list
        ("papers: [letter, a4]\n", ("letter", "a4")),
    ],
)
def test_the_paper_sizes_are_read_as_written_or_both(tmp_path, written, read):
    loaded, diagnostics = load_project(project(tmp_path, written))
    assert loaded.settings.papers == read and not list(diagnostics)


@pytest.mark.parametrize(
    "written, message, read",
    [
        ("papers: []", "1:9: error[wrong-type]: `papers` lists no paper size: a build would print nothing", None),
        ("papers:", "1:8: error[wrong-type]: `papers` lists no paper size: a build would print nothing", None),
        ("papers: [a4, letter, a4]", "1:9: error[wrong-type]: `papers` names `a4` twice", ("a4", "letter")),
    ],
)
def test_paper_sizes_listing_none_or_one_twice_are_a_located_error(tmp_path, written, message, read):
    root = project(tmp_path, written + "\n")
    assert problems(root) == [
        f"rulepress.yaml:{message}\n"
        "  hint: list each size once: `papers: [a4]`, `papers: [letter]` or `papers: [a4, letter]`"
    ]
    assert load_project(root)[0].settings.papers == (read or ("a4", "letter"))


def test_a_paper_size_not_known_is_refused_with_the_sizes_known(tmp_path):
    assert problems(project(tmp_path, "papers: [a4, A5]\n")) == [
        "rulepress.yaml:1:14: error[wrong-type]: `papers` must be one of a4, letter, not the text `A5`\n"
        "  hint: one of: a4, letter"
    ]
