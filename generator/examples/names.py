"""The names a worked example of a ruleset can use, listed by looking at its namespace.

A ruleset's own mechanics are rules code, so the names of a project's ruleset are listed in a confined child
(``confined``; ``run.listed_names`` asks it) and only the rows come back. A row is (kind, name with signature,
one line); a value's line is left empty here: how a value reads (a house rule, a gap) is the renderer's to say.
"""

from __future__ import annotations

import dataclasses
import inspect
from types import ModuleType, SimpleNamespace


def names_in(ruleset, namespace: dict) -> list[tuple[str, str, str]]:
    """(kind, name with signature, one line) for every name in ``namespace``, an example namespace of ``ruleset``."""
    formulas = {f.id: f for f in ruleset.reachable("formulas")}
    lookups = {l.id: l for l in ruleset.reachable("lookups")}
    found = []
    for name in sorted(namespace, key=str.casefold):
        thing = namespace[name]
        if name.startswith("_"):
            continue
        if name in formulas:
            found.append(("formula", _signature(name, thing), _formula_line(formulas[name])))
        elif name in lookups:
            found.append(
                (
                    "lookup",
                    f"{name}(key)",
                    f"The row of {lookups[name].title} for a "
                    f"{(lookups[name].key or 'key').lower()}: its value, else its result",
                )
            )
        else:
            try:  # a ruleset's own helpers are described by their own code (run confined): even asking may fail
                found += _described(name, thing, ruleset)
            except Exception as error:  # noqa: BLE001
                found.append(("object", name, f"could not be described ({type(error).__name__})"))
    return found


def _described(name: str, thing, ruleset) -> list[tuple[str, str, str]]:
    if isinstance(thing, ModuleType):
        return [("module", name, _one_line(thing.__doc__))]
    if isinstance(thing, SimpleNamespace):
        return [
            ("values", f"{name}.<id>", "Every value of the ruleset by id, as its exact number"),
            *(("value", f"{name}.{value.id}", "") for value in ruleset.reachable("values")),
        ]
    if inspect.isclass(thing):
        return [("class", _signature(name, thing), _one_line(_written_doc(thing)))]
    if callable(thing):
        return [("function", _signature(name, thing), _one_line(getattr(thing, "__doc__", "")))]
    return [("object", name, _one_line(_written_doc(type(thing))))]


def _written_doc(kind: type) -> str:
    """A class's docstring as its author wrote it: none where a dataclass made one of its fields (its signature
    with every type: a line of noise in the names reference)."""
    doc = kind.__doc__ or ""
    return "" if dataclasses.is_dataclass(kind) and doc.startswith(f"{kind.__name__}(") else doc


def _one_line(text) -> str:
    """A docstring's first paragraph, on one line."""
    return " ".join(str(text or "").strip().split("\n\n")[0].split())


_BOOKKEEPING = {"loc", "locs"}  # where a model value was written: the loader's, never an author's to pass


def _signature(name: str, thing) -> str:
    try:
        found = inspect.signature(thing)
    except (TypeError, ValueError):
        return f"{name}(...)"
    shown = [p for p in found.parameters.values() if p.name not in _BOOKKEEPING]
    plain = found.replace(
        parameters=[p.replace(annotation=inspect.Parameter.empty) for p in shown],
        return_annotation=inspect.Signature.empty,
    )
    try:
        return f"{name}{plain}"
    except (TypeError, ValueError):
        return f"{name}(...)"


def _formula_line(formula) -> str:
    """A formula's line in the names reference; one with several results lists them and how to name one."""
    if not formula.results:
        return formula.title
    names = ", ".join(o.id for o in formula.results)
    first = formula.results[0].id
    return (
        f'{formula.title}. Results: {names}; ``{formula.id}(..., result="{first}")`` gives one, '
        f"``{formula.id}(...)`` all of them (``{formula.id}(...).{first}``)"
    )
