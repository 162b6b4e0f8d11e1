"""`rulepress new NAME`: a ruleset folder with one example of every kind of entry.

It also writes ``NAME_house_rules/``, an overlay that changes one value of NAME, to
show how house rules are kept apart from the text.

The files are a working tutorial: the new ruleset passes `rulepress check` and
builds at once, and each entry shows the format of its section.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..model.ruleset import SITE_FOLDERS
from ..source.ids import ID, id_like


class ScaffoldError(Exception):
    pass


def scaffold(root: Path, name: str, title: str | None = None) -> list[Path]:
    if not ID.fullmatch(name):
        raise ScaffoldError(
            f"`{name}` is not a usable ruleset id; an id is lower_snake_case of ASCII letters a-z, digits and _: "
            f"`{id_like(name, 'my_skirmish')}`"
        )
    if name in SITE_FOLDERS:  # what check would refuse (page-name): said before anything is written
        raise ScaffoldError(
            f"`{name}` would take the name of the site's folder of {SITE_FOLDERS[name]}; choose another name, such as "
            f"`{name}_rules`"
        )
    folder = root / "rules_src" / name
    if folder.exists():
        raise ScaffoldError(f"{folder} already exists; choose another name")
    overlay = root / "rules_src" / f"{name}_house_rules"
    if overlay.exists():
        raise ScaffoldError(f"{overlay} already exists; choose another name")
    title = title or name.replace("_", " ").title()
    values = {"TITLE": quoted_inside(title), "NAME": name}
    written = []
    for template, target in (("template", folder), ("overlay_template", overlay)):
        template_dir = resources.files(__package__) / template
        for item in sorted(template_dir.iterdir(), key=lambda p: p.name):
            written += _copy(item, target, values)
    return written


def quoted_inside(text: str) -> str:
    """``text`` escaped for the inside of a YAML double-quoted scalar (every ``@TITLE@`` in the
    templates stands inside one), so a quote, a backslash or a line break stays text."""
    out = []
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F or char in "\u2028\u2029\ufeff":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


def _copy(item, target: Path, values: dict[str, str]) -> list[Path]:
    if item.name == "__pycache__":
        return []  # bytecode Python may have cached beside the template's mechanics is no part of a project
    if item.is_dir():
        out = []
        for child in sorted(item.iterdir(), key=lambda p: p.name):
            out += _copy(child, target / item.name, values)
        return out
    target.mkdir(parents=True, exist_ok=True)
    text = item.read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    path = target / item.name
    path.write_text(text, encoding="utf-8")
    return [path]
