"""A project's templates are someone else's code: they run in Jinja's sandbox, read only the templates
folders, are bounded in time and size, and every failure is a located `template-error`.

In-process, without PDFs: ``render`` and ``template_problems`` on a folder holding only ``templates/``.
The attacks themselves, run as CI runs them, are ``tests/attacks/template_*``.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import jinja2
import pytest
from helpers import ATTACKS

from generator.cli import main
from generator.render import jinja
from generator.render.assets import default_templates
from generator.render.jinja import ConfinedLoader, TemplateFailed, jinja_env, render, template_problems

ATTACK_PROJECT = ATTACKS / "_template" / "project"


def templates(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, text in files.items():
        path = root / "templates" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    jinja_env.cache_clear()  # one environment per project and run: these tests reuse tmp folders
    return root


def failure(root: Path, name: str, context: dict | None = None) -> tuple[str, str]:
    """(location, message) of the one diagnostic rendering ``name`` gives."""
    with pytest.raises(TemplateFailed) as raised:
        render(root, name, context or {})
    [diagnostic] = raised.value.diagnostics
    assert diagnostic.code.code == "template-error"
    return str(diagnostic.location), diagnostic.message


def test_what_a_layout_needs_still_works_in_the_sandbox(tmp_path):
    root = templates(
        tmp_path,
        {
            "sheets/lib.html.j2": "{% macro cell(v) %}<td>{{ v }}</td>{% endmacro %}",
            "sheets/part.html.j2": "<p>{{ title ~ '!' }}</p>",
            "sheets/page.html.j2": (
                '{% import "sheets/lib.html.j2" as lib %}{% include "sheets/part.html.j2" %}'
                "{% for row in rows %}{{ loop.index }}:{{ lib.cell(row.get('name')|upper) }}{% endfor %}"
                "{{ range(3)|join(',') }} {{ dict(a=1)['a'] }} {{ names|join('/') }} {{ '<b>' }} {{ 'a "
                "b'.split()|length }} {{ 2 * 3 }} {{ 1.5 ** 2 }} {{ 2 ** 10 }} {{ '%5.1f' % 2.25 }}"
            ),
        },
    )
    html = render(
        root, "sheets/page.html.j2", {"title": "T", "rows": [{"name": "x"}, {"name": "y"}], "names": ["p", "q"]}
    )
    assert html == "<p>T!</p>1:<td>X</td>2:<td>Y</td>0,1,2 1 p/q &lt;b&gt; 2 6 2.25 1024   2.2"


def test_the_environment_is_the_immutable_sandbox_without_unneeded_globals(tmp_path):
    environment = jinja_env(tmp_path)
    assert isinstance(environment, jinja2.sandbox.ImmutableSandboxedEnvironment)
    assert {"lipsum", "cycler", "joiner", "namespace"}.isdisjoint(environment.globals)


@pytest.mark.parametrize(
    "name, why",
    [
        ("../secret.txt", "climbs out"),
        ("sheets/../../secret.txt", "climbs out"),
        ("/etc/passwd", "absolute"),
        ("C:/Windows/win.ini", "absolute"),
        ("sheets\\..\\..\\secret.txt", "absolute"),
    ],
)
def test_a_template_name_that_could_leave_the_templates_folders_is_refused(tmp_path, name, why):
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    with pytest.raises(jinja.TemplateOutside, match=why):
        ConfinedLoader(tmp_path).get_source(jinja_env(tmp_path), name)


def test_a_name_that_is_not_text_is_no_template_name():
    for name in (5, None, ""):
        with pytest.raises(jinja.TemplateOutside, match="is not a template name"):
            jinja.template_parts(name)


def test_a_template_linking_out_of_the_templates_folder_is_refused_even_inside_the_project(tmp_path):
    jinja_env.cache_clear()
    (tmp_path / "notes.txt").write_text("project notes", encoding="utf-8")
    (tmp_path / "templates/sheets").mkdir(parents=True)
    (tmp_path / "templates/sheets/base.html.j2").symlink_to(tmp_path / "notes.txt")
    (tmp_path / "templates/sheets/part.html.j2").write_text("<p>part</p>", encoding="utf-8")
    (tmp_path / "templates/sheets/again.html.j2").symlink_to("part.html.j2")  # a second name inside is fine
    assert failure(tmp_path, "sheets/base.html.j2")[1].startswith(
        "`sheets/base.html.j2` links outside the templates folder"
    )
    assert render(tmp_path, "sheets/again.html.j2", {}) == "<p>part</p>"


def test_a_name_the_project_lacks_comes_from_the_defaults(tmp_path):
    source, filename, _ = ConfinedLoader(tmp_path).get_source(jinja_env(tmp_path), "sheets/base.html.j2")
    assert Path(filename) == default_templates() / "sheets/base.html.j2"


@pytest.mark.parametrize(
    "text, where, says",
    [
        ("<p>\n{{ x.nope }}</p>", "templates/t.html.j2:2:1", "has no attribute 'nope'"),
        ("<p>\n\n{{ ''.__class__ }}</p>", "templates/t.html.j2:3:1", "the template sandbox refuses it"),
        ("{{ lipsum }}", "templates/t.html.j2:1:1", "'lipsum' is undefined"),
        (
            "<p>\n{{ 'a'.center(5) }}</p>",
            "templates/t.html.j2:2:1",
            "calling `center` of a str in a template is refused",
        ),
        ('\n{% include "../../x" %}', "templates/t.html.j2:2:13", "`../../x` climbs out of the templates folder"),
        ('{% include "a" ~ "/../../x" %}', "templates/t.html.j2:1:1", "`a/../../x` climbs out of the templates folder"),
        ('{% include "sheets/none.html.j2" %}', "templates/t.html.j2:1:13", "no template `sheets/none.html.j2`"),
        ("{% for i in range(10**9) %}{% endfor %}", "templates/t.html.j2:1:1", "MAX_RANGE"),
        ("{{ 'x' * 10**8 }}", "templates/t.html.j2:1:1", "would be longer than 10,000,000"),
        ("{{ 3 ** 10000000 }}", "templates/t.html.j2:1:1", "bits; it is refused"),
        ("{% macro m(n) %}{{ m(n) }}{% endmacro %}{{ m(1) }}", "templates/t.html.j2:1:1", "too deeply"),
        ("<p>\n{{ '%99999999d' % 1 }}</p>", "templates/t.html.j2:2:1", "a format with a field that wide is refused"),
        ("{{ '%99999999d' | format(1) }}", "templates/t.html.j2:1:1", "a format with a field that wide is refused"),
        ("\n\n{{ 1 // 0 }}", "templates/t.html.j2:3:1", "while rendering: ZeroDivisionError: integer division"),
    ],
)
def test_a_failure_while_rendering_is_located_at_its_template_line(tmp_path, text, where, says):
    location, message = failure(templates(tmp_path, {"t.html.j2": text}), "t.html.j2", {"x": object()})
    assert (location, says in message) == (where, True), message


def test_a_failing_template_that_replaces_a_default_names_the_default_to_start_again_from(tmp_path):
    """The defaults ship inside Rulepress, not in the project: the hint sent the author to `generator/templates`."""
    root = templates(tmp_path, {"sheets/base.html.j2": "\n{{ nope }}", "mine.html.j2": "{{ nope }}"})
    hints = []
    for name in ("sheets/base.html.j2", "mine.html.j2"):
        with pytest.raises(TemplateFailed) as raised:
            render(root, name, {})
        hints.append(raised.value.diagnostics[0].hint)
    default = default_templates() / "sheets" / "base.html.j2"
    assert default.is_file() and hints == [
        f"fix the template at the place named, or start again from the default it replaces: {default}",
        None,  # a template of the project's own: no default to name (the code's own hint is printed)
    ]


def test_a_failure_in_an_included_template_is_located_there(tmp_path):
    root = templates(
        tmp_path, {"sheets/a.html.j2": '{% include "sheets/b.html.j2" %}', "sheets/b.html.j2": "\n\n{{ nope }}"}
    )
    assert failure(root, "sheets/a.html.j2") == (
        "templates/sheets/b.html.j2:3:1",
        "while rendering: 'nope' is undefined",
    )


def test_a_template_that_runs_too_long_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEPRESS_TEMPLATE_SECONDS", "0.5")
    loops = "{% for i in items %}{% for j in items %}{% endfor %}{% endfor %}"  # no call inside: only the loops count
    root = templates(tmp_path, {"t.html.j2": loops})
    started = time.monotonic()
    location, message = failure(root, "t.html.j2", {"items": list(range(100_000))})
    assert time.monotonic() - started < 5
    assert (location, message) == ("templates/t.html.j2:1:1", "rendering took longer than 0.5 s; it is refused")


@pytest.mark.parametrize(
    "written, seconds",
    [(None, 10.0), ("", 10.0), ("2.5", 2.5), ("0", 0.1), ("soon", 10.0), ("601", 600.0), ("inf", 600.0), ("nan", 10.0)],
)
def test_the_time_a_document_may_take_is_the_machine_owners_held_to_a_floor_and_a_ceiling(
    monkeypatch, written, seconds
):
    if written is None:
        monkeypatch.delenv("RULEPRESS_TEMPLATE_SECONDS", raising=False)
    else:
        monkeypatch.setenv("RULEPRESS_TEMPLATE_SECONDS", written)
    assert jinja.seconds_allowed() == seconds


def test_output_over_the_limit_is_refused_before_it_is_joined(tmp_path, monkeypatch):
    monkeypatch.setattr(jinja, "MAX_CHARACTERS", 1000)
    root = templates(
        tmp_path, {"t.html.j2": "{% for i in range(2000) %}x{% endfor %}", "ok.html.j2": "{{ 'x' * 1000 }}"}
    )
    assert "longer than 1,000 characters" in failure(root, "t.html.j2")[1]
    assert render(root, "ok.html.j2", {}) == "x" * 1000


def test_check_finds_encoding_syntax_and_outside_names_in_the_projects_templates(tmp_path):
    root = templates(
        tmp_path,
        {
            "sheets/base.html.j2": b"<p>\ncaf\xe9</p>",
            "sheets/charts.html.j2": "{% extends 'sheets/base.html.j2' %}\n{% block content %}{% if %}{% endblock %}",
            "handouts/handout.html.j2": '{% import "handouts/_macros.html.j2" as m %}\n'
            '{% include ["none.j2", "/etc/passwd"] %} {% extends "../../x" %}',
            "handouts/cards.html.j2": '{% include "missing.html.j2" %}{% include "gone.html.j2" ignore missing %}',
            "handouts/roster.html.j2": "{% include name %}",  # computed: judged while rendering
            "print-base.css": "body {}",
        },
    )
    found = [(str(d.location), d.code.code, d.message) for d in template_problems(root)]
    assert found == [
        (
            "templates/handouts/cards.html.j2:1:13",
            "template-error",
            "no template `missing.html.j2` in templates/ (the project's or the defaults)",
        ),
        (
            "templates/handouts/handout.html.j2:2:25",
            "template-error",
            "`/etc/passwd` is an absolute path; only names inside templates/ (the project's or the defaults) are read",
        ),
        (
            "templates/handouts/handout.html.j2:2:54",
            "template-error",
            "`../../x` climbs out of the templates folder; only names inside templates/ (the project's or the "
            "defaults) are read",
        ),
        (
            "templates/sheets/base.html.j2:2:4",
            "template-error",
            "the template is not UTF-8 text (its first bad byte is here); it is not read",
        ),
        (
            "templates/sheets/charts.html.j2:2:1",
            "template-error",
            "template syntax: Expected an expression, got 'end of statement block'",
        ),
    ]


def test_check_sees_a_template_edited_since_the_last_check(tmp_path, capsys):
    root = tmp_path / "project"
    shutil.copytree(ATTACK_PROJECT, root)
    templates(root, {"sheets/base.html.j2": (default_templates() / "sheets/base.html.j2").read_text(encoding="utf-8")})
    assert main(["-C", str(root), "check"]) == 0
    templates(root, {"sheets/base.html.j2": "{% if %}"})
    assert main(["-C", str(root), "check"]) == 1
    assert "templates/sheets/base.html.j2:1:1: error[template-error]: template syntax" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("template", "says"),
    [
        (
            "{{ range(300)|map('center', 9000000)|list|length }}",
            "the template made over 50,000,000 characters or items in all while rendering; it is refused",
        ),
        ("{{ '{:>6000000000}'.format(1) }}", "a format with a field that wide is refused"),
        ("{{ '{:>{}}'.format(1, 6000000000) }}", "a format with a field that wide is refused"),
    ],
)
def test_what_a_template_makes_in_all_is_bounded_before_memory_runs_out(tmp_path, template, says):
    """The club's trial: 300 results each under the limit of one took 2.7 GB of the process that renders (10 GB with
    5,000), and a format's width was refused only after 5.9 GB were made. Rendered here in a process of 1 GB."""
    import resource
    import subprocess
    import sys

    root = templates(tmp_path, {"t.html.j2": template})
    script = (
        "from pathlib import Path\nfrom generator.render.jinja import render, TemplateFailed\n"
        f"try:\n    render(Path({str(root)!r}), 't.html.j2', {{}})\nexcept TemplateFailed as e:\n"
        "    print(e.diagnostics[0].message)\n"
    )
    gigabyte = 1 << 30
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (gigabyte, gigabyte)),
    )
    assert done.stdout.strip() == says, done.stdout + done.stderr


def test_a_format_of_ordinary_widths_and_numbers_still_renders(tmp_path):
    root = templates(tmp_path, {"t.html.j2": "{{ '{:>6}'.format(1) }}|{{ '{:,}'.format(123456789012) }}"})
    assert render(root, "t.html.j2", {}) == "     1|123,456,789,012"
