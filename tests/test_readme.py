"""The README's examples of rules data are rules data: put together as one ruleset (with the sample text its first
example cites), they check without an error, and each worked example in them passes.

A new author pastes them first; an example that does not check teaches the wrong format."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml

from generator.pipeline.build import check_with_examples

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# the fences of the README's YAML examples: ``` or ```` (one holding a worked example's own ``` fence)
_BLOCK = re.compile(r"^(?P<fence>````?)yaml\n(?P<text>.*?)^(?P=fence)$", re.M | re.S)
# chapters the examples name and declare nowhere (each is a fragment of a game)
CHAPTERS = {"morale": {"title": "Morale"}}


def readme_examples() -> list[dict]:
    return [yaml.safe_load(found["text"]) for found in _BLOCK.finditer(README.read_text(encoding="utf-8"))]


def merged(blocks: list[dict]) -> dict:
    """The examples as one ruleset's data: each section's entries together (a later example adds to a section)."""
    data: dict = {"chapters": dict(CHAPTERS)}
    for block in blocks:
        for section, entries in block.items():
            data.setdefault(section, {}).update(entries)
    return data


class _Literal(yaml.SafeDumper):
    """Writes a text of several lines as a block (`|`), as the README does: prose is read as written there."""


_Literal.add_representer(
    str,
    lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if "\n" in text else None),
)


def told(root: Path, data: dict) -> list[str]:
    """What `check` with its worked examples says of ``data`` as ruleset `readme`, beside the sample text."""
    folder = root / "rules_src" / "readme"
    shutil.copytree(ROOT / "rules_src" / "rampant_hex" / "sources", folder / "sources")
    text = yaml.dump(data, Dumper=_Literal, allow_unicode=True, sort_keys=False)
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    result, failures = check_with_examples(root)
    return [d.format() for d in [*result.diagnostics, *failures]]


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if ": error[" in line.splitlines()[0]]


def test_the_readme_s_yaml_examples_check_as_one_ruleset_and_its_worked_example_passes(tmp_path):
    blocks = readme_examples()
    assert len(blocks) >= 8  # the ruleset, profiles, declarations, a worked example, values, formulas, charts
    said = told(tmp_path, merged(blocks))
    assert not errors(said), "\n".join(said)


def test_a_wrong_result_in_the_readme_s_worked_example_would_be_told(tmp_path):
    """The harness runs the README's worked example: with its result changed, it fails (and its sentence's "3 times
    in 4" is no longer the example's)."""
    data = merged(readme_examples())
    body = data["rules"]["moral_checks"]["body"]
    data["rules"]["moral_checks"]["body"] = body.replace("Fraction(3, 4)", "Fraction(2, 3)")
    codes = [line.split(": error[")[1].split("]")[0] for line in errors(told(tmp_path, data))]
    assert sorted(codes) == ["example-failed", "example-sentence"]
