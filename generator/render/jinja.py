"""The Jinja environment that lays out sheets and handouts.

A project's ``templates/`` may come from someone else, so templates run in Jinja's immutable
sandbox: no ``__`` attributes, no changing the data, no ``lipsum``/``cycler``/``joiner``/``namespace``,
only harmless methods of text, lists and mappings. Names resolve only inside the project's
``templates/`` and the packaged defaults (no ``..``, no absolute path, no link out). A document may
take ``seconds_allowed()`` (``RULEPRESS_TEMPLATE_SECONDS``, 10 s) and make ``MAX_CHARACTERS``; loops,
calls and the operators that multiply text are counted against both. Every failure is a
:class:`TemplateFailed` holding located ``template-error`` diagnostics at ``templates/<name>:line:column``.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import time
from contextlib import contextmanager
from pathlib import Path, PurePath
from types import ModuleType

import jinja2
from jinja2 import nodes
from jinja2.runtime import markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from .. import settings
from ..diagnostics import Code, Diagnostic, Location
from .assets import PROJECT_TEMPLATES, default_templates

SECONDS = 10  # to render one document, unless the machine's owner sets another; the defaults take a few hundredths
MAX_CHARACTERS = 10_000_000  # in one document or any value a template makes; the largest default is 0.2 MB
MAX_POWER_BITS = 100_000  # `a ** b` beyond this many bits is refused before it is computed
# what a document's calls, filters and operators may make in all: each result may be up to MAX_CHARACTERS, and 300
# of them (`range(300)|map("center", 9000000)`) took 2.7 GB of the process that renders
MAX_MADE = 5 * MAX_CHARACTERS
UNNEEDED_GLOBALS = ("lipsum", "cycler", "joiner", "namespace")  # none of them lays out a sheet
SAFE_METHODS = frozenset(
    {  # methods of text, lists and mappings a template may call; none makes more than it reads
        "get",
        "items",
        "keys",
        "values",
        "count",
        "index",
        "find",
        "rfind",
        "startswith",
        "endswith",
        "lower",
        "upper",
        "title",
        "capitalize",
        "casefold",
        "strip",
        "lstrip",
        "rstrip",
        "split",
        "rsplit",
        "splitlines",
        "isdigit",
        "isalpha",
        "isalnum",
        "isspace",
        "islower",
        "isupper",
    }
)
BUILTIN_VALUES = (str, bytes, list, tuple, dict, set, frozenset, int, float)
_WIDE_FORMAT = re.compile(rf"[0-9]{{{len(str(MAX_CHARACTERS))},}}")  # a field width of MAX_CHARACTERS or more
_NESTED_FIELD = re.compile(r"\{[^{}]*\{")  # `{:>{}}`: a width given as an argument


class TemplateFailed(Exception):
    """One or more templates could not be read, parsed or rendered."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(dict.fromkeys(diagnostics), key=lambda d: (d.location, d.message))
        super().__init__("\n".join(d.format() for d in self.diagnostics))


class TemplateRefused(SecurityError):
    """Something the sandbox refuses: too long, too large, a method it does not allow."""


class TemplateOutside(jinja2.TemplateNotFound):
    """A template name that leads outside the templates folders."""

    def __init__(self, name: str, why: str):
        super().__init__(name, f"`{name}` {why}; only names inside templates/ (the project's or the defaults) are read")


class TemplateNotText(jinja2.TemplateError):
    """A template file that is not UTF-8, with where its first bad byte is."""

    def __init__(self, location: Location):
        super().__init__("the template is not UTF-8 text (its first bad byte is here)")
        self.location = location


# -- names ------------------------------------------------------------------------------------------------------
def template_parts(name: str) -> list[str]:
    """The path segments of a template name, or TemplateOutside if the name could leave the folder."""
    if not isinstance(name, str) or not name:
        raise TemplateOutside(str(name), "is not a template name")
    if name.startswith("/") or "\\" in name or "\0" in name or re.match(r"[A-Za-z]:", name):
        raise TemplateOutside(name, "is an absolute path")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise TemplateOutside(name, "climbs out of the templates folder")
    return parts


class ConfinedLoader(jinja2.BaseLoader):
    """Names inside the project's ``templates/`` first, then the packaged defaults; a file whose real
    path (links followed) is not inside the folder it was found in is refused, never read."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.folders = (self.root / PROJECT_TEMPLATES, default_templates())

    def find(self, name: str) -> tuple[Path, Path] | None:
        """(folder, real path) of the file ``name`` stands for, or None when no folder has it."""
        parts = template_parts(name)
        for folder in self.folders:
            path = folder.joinpath(*parts)
            if not (path.is_file() or path.is_symlink()):
                continue
            real, inside = path.resolve(), folder.resolve()
            if not real.is_relative_to(inside) or not inside.is_relative_to(self._allowed(folder)):
                raise TemplateOutside(name, "links outside the templates folder")
            return folder, real
        return None

    def _allowed(self, folder: Path) -> Path:
        return default_templates() if folder == default_templates() else self.root.resolve()

    def get_source(self, environment, name):
        found = self.find(name)
        if found is None:
            raise jinja2.TemplateNotFound(name)
        _folder, real = found
        data = real.read_bytes()
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise TemplateNotText(_byte_location(data, error.start, shown_name(name))) from None
        mtime = real.stat().st_mtime_ns
        return source, str(real), lambda: self.find(name) == found and real.stat().st_mtime_ns == mtime


def shown_name(name: str) -> str:
    return f"{PROJECT_TEMPLATES}/{'/'.join(template_parts(name))}"


def _byte_location(data: bytes, offset: int, path: str) -> Location:
    before = data[:offset]
    line_start = before.rfind(b"\n") + 1
    return Location(path, before.count(b"\n") + 1, len(before[line_start:].decode("utf-8", "replace")) + 1)


# -- the sandbox ------------------------------------------------------------------------------------------------
class _Budget(threading.local):
    deadline = float("inf")
    seconds = SECONDS  # the document's time allowed, read as it starts
    made = 0  # characters or items its calls, filters and operators have made so far


def seconds_allowed() -> float:
    """The time one document may take to render (``RULEPRESS_TEMPLATE_SECONDS``)."""
    return settings.seconds("RULEPRESS_TEMPLATE_SECONDS", SECONDS)


class RulepressSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox, with every loop, call and multiplying operator counted against the
    document's time and size budget (``bounded``)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def __init__(self, **options):
        super().__init__(**options)
        for name in UNNEEDED_GLOBALS:
            self.globals.pop(name, None)
        self.budget = _Budget()
        self.filters = {name: _checked_filter(self, name, function) for name, function in self.filters.items()}
        self.filters["rulepress_bounded_loop"] = _bounded_loop
        self.filters["rulepress_bounded_join"] = _bounded_join
        self.concat = self.bounded_concat  # a whole document, a macro's or a {% set %} block's output

    @contextmanager
    def bounded(self):
        self.budget.seconds = seconds_allowed()
        self.budget.deadline = time.monotonic() + self.budget.seconds
        self.budget.made = 0
        try:
            yield
        finally:
            self.budget.deadline = float("inf")

    def tick(self) -> None:
        if time.monotonic() > self.budget.deadline:
            raise TemplateRefused(f"rendering took longer than {self.budget.seconds:g} s; it is refused")

    def made(self, value, what: str):
        """``value``, a result within the limit of one, counted against what the document may make in all."""
        _fits(value, what)
        if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
            self.budget.made += len(value)
            if self.budget.made > MAX_MADE:
                raise TemplateRefused(
                    f"the template made over {MAX_MADE:,} characters or items in all while rendering; it is refused"
                )
        return value

    def wrap_str_format(self, value):
        """``text.format`` as the sandbox calls it, refused before it makes a field wider than the limit (a width
        written in the format, or given to it: `'{:>{}}'.format(1, 6000000000)`)."""
        formats = super().wrap_str_format(value)
        if formats is None:
            return None
        text = str(value.__self__)

        def bounded(*args, **kwargs):
            given = [a for a in (*args, *kwargs.values()) if isinstance(a, int) and not isinstance(a, bool)]
            if _WIDE_FORMAT.search(text) or (
                _NESTED_FIELD.search(text) and any(abs(a) >= MAX_CHARACTERS for a in given)
            ):
                raise TemplateRefused("a format with a field that wide is refused")
            return self.made(formats(*args, **kwargs), "a format's result")

        return bounded

    # Every loop's iterable and every `~` go through the filters above (Jinja has no hook for them).
    def _parse(self, source, name, filename):
        tree = super()._parse(source, name, filename)
        for loop in list(tree.find_all(nodes.For)):
            loop.iter = nodes.Filter(loop.iter, "rulepress_bounded_loop", [], [], None, None, lineno=loop.lineno)
        for parent in [tree, *tree.find_all(nodes.Node)]:
            for field in parent.fields:
                value = getattr(parent, field, None)
                if isinstance(value, nodes.Concat):
                    setattr(parent, field, _joined(value))
                elif isinstance(value, list):
                    setattr(parent, field, [_joined(v) if isinstance(v, nodes.Concat) else v for v in value])
        return tree

    def bounded_concat(self, pieces) -> str:
        kept, size = [], 0
        for piece in pieces:
            size += len(piece)
            if size > MAX_CHARACTERS:
                raise TemplateRefused(f"the output is longer than {MAX_CHARACTERS:,} characters; it is refused")
            kept.append(piece)
        self.tick()
        return "".join(kept)

    def is_safe_attribute(self, obj, attr, value) -> bool:
        if isinstance(obj, (PurePath, ModuleType)) or isinstance(value, (PurePath, ModuleType)):
            return False  # no way from the data to the disk
        return super().is_safe_attribute(obj, attr, value)

    def is_safe_callable(self, obj) -> bool:
        owner = getattr(obj, "__self__", None)
        if isinstance(owner, BUILTIN_VALUES) and getattr(obj, "__name__", None) not in SAFE_METHODS:
            return False
        return super().is_safe_callable(obj)

    def getattr(self, obj, attribute):
        self.tick()
        return super().getattr(obj, attribute)

    def getitem(self, obj, argument):
        self.tick()
        return super().getitem(obj, argument)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        __self.tick()
        if not __self.is_safe_callable(__obj):
            raise TemplateRefused(f"calling {_callable_name(__obj)} in a template is refused")
        for value in (*args, *kwargs.values()):
            _fits(value, "an argument")
        return __self.made(super().call(__context, __obj, *args, **kwargs), "a call's result")

    def call_binop(self, context, operator, left, right):
        self.tick()
        if operator == "**" and _power_bits(left, right) > MAX_POWER_BITS:
            raise TemplateRefused(
                f"`{left!r} ** {right!r}` would be a number of over {MAX_POWER_BITS:,} bits; it is refused"
            )
        if operator == "*":
            _fits_length(_repeated_length(left, right), "a repeated value")
        if operator == "+" and hasattr(left, "__len__") and hasattr(right, "__len__"):
            _fits_length(len(left) + len(right), "a sum")
        if operator == "%" and isinstance(left, str) and _WIDE_FORMAT.search(left):
            raise TemplateRefused("a format with a field that wide is refused")
        return self.made(super().call_binop(context, operator, left, right), "a result")


def _callable_name(obj) -> str:
    owner = getattr(obj, "__self__", None)
    name = getattr(obj, "__name__", None)
    if name and owner is not None:
        return f"`{name}` of a {type(owner).__name__}"
    return f"`{name}`" if name else f"a {type(obj).__name__}"


def _joined(concat: nodes.Concat) -> nodes.Filter:
    return nodes.Filter(
        nodes.List(concat.nodes, lineno=concat.lineno),
        "rulepress_bounded_join",
        [],
        [],
        None,
        None,
        lineno=concat.lineno,
    )


@jinja2.pass_environment
def _bounded_loop(environment, iterable):
    for item in iterable:
        environment.tick()
        yield item


@jinja2.pass_eval_context
def _bounded_join(eval_ctx, pieces):
    _fits_length(sum(len(str(piece)) for piece in pieces), "joined text")
    return markup_join(pieces) if eval_ctx.autoescape else str_join(pieces)


# The builtin filters that can make far more than they read, and how much they would make.
_FILTER_SIZES = {
    "center": lambda value, width=80: width,
    "indent": lambda value, width=4, *_a, **_k: (
        len(str(value)) * (1 + (width if isinstance(width, int) else len(str(width))))
    ),
    "replace": lambda value, old, new, count=None: (
        len(str(value))
        + (str(value).count(str(old)) if count is None else min(count, len(str(value)) + 1)) * len(str(new))
    ),
    "wordwrap": lambda value, width=79, break_long_words=True, wrapstring=None, *_a: (
        len(str(value)) * (1 + len(wrapstring or "\n"))
    ),
    "join": lambda value, d="", attribute=None: (
        sum(len(str(v)) + len(str(d)) for v in value) if hasattr(value, "__len__") else 0
    ),
    "slice": lambda value, slices, fill_with=None: slices if isinstance(slices, int) else 0,
    "batch": lambda value, linecount, fill_with=None: linecount if isinstance(linecount, int) else 0,
}


def _checked_filter(environment, name: str, function):
    """``function`` counted against the budget; a result (or, for the filters above, the size it would
    have) over the limit refused; ``format`` with a field wider than the limit refused."""
    guess = _FILTER_SIZES.get(name)
    passes_first = getattr(function, "jinja_pass_arg", None) is not None

    @functools.wraps(function)
    def checked(*args, **kwargs):
        environment.tick()
        plain = args[1:] if passes_first else args  # the context, eval context or environment Jinja passes
        if guess is not None and plain:
            try:
                size = guess(*plain, **kwargs)
            except TypeError:  # called with arguments the filter itself will refuse
                size = 0
            _fits_length(size, f"the result of `{name}`")
        if name == "format" and plain and _WIDE_FORMAT.search(str(plain[0])):
            raise TemplateRefused("a format with a field that wide is refused")
        return environment.made(function(*args, **kwargs), f"the result of `{name}`")

    return checked


def _power_bits(base, exponent) -> int:
    if not isinstance(base, int) or not isinstance(exponent, int) or exponent <= 1 or abs(base) <= 1:
        return 0
    return exponent * base.bit_length()


def _repeated_length(left, right) -> int:
    for sequence, times in ((left, right), (right, left)):
        if isinstance(times, int) and hasattr(sequence, "__len__") and not isinstance(sequence, (int, float)):
            return len(sequence) * times
    return 0


def _fits_length(size: int, what: str) -> None:
    if size > MAX_CHARACTERS:
        raise TemplateRefused(f"{what} would be longer than {MAX_CHARACTERS:,} characters or items; it is refused")


def _fits(value, what: str):
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        _fits_length(len(value), what)
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_POWER_BITS:
        raise TemplateRefused(f"{what} is a number of over {MAX_POWER_BITS:,} bits; it is refused")
    return value


@functools.cache
def jinja_env(root: Path) -> RulepressSandbox:
    """Templates from the project's ``templates/``, then the defaults: sandboxed, strict, autoescaped;
    one environment per project, so each template is compiled once per run."""
    return RulepressSandbox(
        loader=ConfinedLoader(Path(root)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "j2"], default_for_string=True, default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


# -- located errors ---------------------------------------------------------------------------------------------
def render(root: Path, name: str, context: dict) -> str:
    """Template ``name`` rendered with ``context``, or TemplateFailed with where and why."""
    environment = jinja_env(Path(root))
    try:
        with environment.bounded():
            return environment.get_template(name).render(**context)
    except TemplateFailed:
        raise
    except Exception as error:  # noqa: BLE001 - whatever a template does wrong is its author's located error
        raise TemplateFailed([located(error, Path(root), name)]) from None


class Renderings:
    """Renders many documents and gathers every template's failure; a template that failed once is not
    rendered again (its next document would fail the same way, after the same wait)."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.failed: dict[str, list[Diagnostic]] = {}

    def render(self, name: str, context: dict) -> str | None:
        if name in self.failed:
            return None
        try:
            return render(self.root, name, context)
        except TemplateFailed as failed:
            self.failed[name] = failed.diagnostics
            return None

    def raise_failures(self) -> None:
        if self.failed:
            raise TemplateFailed([d for found in self.failed.values() for d in found])


def located(error: BaseException, root: Path, name: str) -> Diagnostic:
    """The template-error diagnostic for ``error``, raised while rendering ``name``."""
    location = _where(error, root) or Location(_safe_shown(name))
    return Diagnostic(Code.TEMPLATE_ERROR, _message(error), location, _hint(error) or _default_of(location.path))


def _default_of(shown: str) -> str | None:
    """The hint naming the default a project's template replaces, where the author can copy it from: the defaults
    ship inside Rulepress, not in the project."""
    relative = str(shown).removeprefix(f"{PROJECT_TEMPLATES}/")
    default = default_templates() / relative
    if relative == str(shown) or not default.is_file():
        return None
    return f"fix the template at the place named, or start again from the default it replaces: {default}"


def _where(error: BaseException, root: Path) -> Location | None:
    if isinstance(error, TemplateNotText):
        return error.location
    if isinstance(error, jinja2.TemplateSyntaxError) and error.filename:
        shown = _shown_file(error.filename, root)
        if shown:
            return Location(shown, error.lineno or 1, 1)
    found = None
    tb = error.__traceback__
    while tb is not None:  # Jinja rewrites the traceback so template frames carry the template's lines
        shown = _shown_file(tb.tb_frame.f_code.co_filename, root)
        if shown:
            found = Location(shown, tb.tb_lineno, 1)
        tb = tb.tb_next
    if found and isinstance(error, jinja2.TemplateNotFound):
        return _with_column(found, root, error.name)
    return found


def _with_column(location: Location, root: Path, needle) -> Location:
    """``location`` with the column where ``needle`` is written on its line, when it is."""
    try:
        found = ConfinedLoader(root).find(location.path.removeprefix(PROJECT_TEMPLATES + "/"))
        line = found[1].read_text(encoding="utf-8").splitlines()[location.line - 1] if found else ""
    except (OSError, IndexError, UnicodeDecodeError, jinja2.TemplateNotFound):
        return location
    column = line.find(str(needle))
    return Location(location.path, location.line, column + 1) if column >= 0 else location


def _shown_file(filename: str, root: Path) -> str | None:
    """``templates/<name>`` for a file in the project's templates or the defaults, else None."""
    if not filename or filename.startswith("<"):
        return None
    path = Path(filename)
    for folder in (Path(root).resolve() / PROJECT_TEMPLATES, default_templates()):
        if path.is_relative_to(folder):
            return f"{PROJECT_TEMPLATES}/{path.relative_to(folder).as_posix()}"
    return None


def _safe_shown(name: str) -> str:
    try:
        return shown_name(name)
    except jinja2.TemplateNotFound:
        return PROJECT_TEMPLATES


def _message(error: BaseException) -> str:
    if isinstance(error, TemplateOutside):
        return error.message
    if isinstance(error, TemplateNotText):
        return f"{error.message}; it is not read"
    if isinstance(error, jinja2.TemplateNotFound):
        return f"no template `{error.name}` in templates/ (the project's or the defaults)"
    if isinstance(error, jinja2.TemplateSyntaxError):
        return f"template syntax: {error.message}"
    if isinstance(error, TemplateRefused):
        return str(error)
    if isinstance(error, SecurityError):
        return f"{str(error).rstrip('.')}: the template sandbox refuses it"
    if isinstance(error, jinja2.UndefinedError):
        return f"while rendering: {error.message}"
    if isinstance(error, RecursionError):
        return "while rendering: macros call each other too deeply; it is refused"
    if isinstance(error, OverflowError):
        return f"while rendering: {error}"
    if isinstance(error, MemoryError):
        return "while rendering: the template needed more memory than there is; it is refused"
    return f"while rendering: {type(error).__name__}: {error}"


def _hint(error: BaseException) -> str | None:
    if isinstance(error, TemplateNotText):
        return "save the template as UTF-8"
    if isinstance(error, jinja2.TemplateNotFound):
        return "name a template by its path under templates/, such as `sheets/base.html.j2`"
    if isinstance(error, SecurityError):
        return (
            "lay out the data the template is given; templates cannot reach Python's internals, files or unbounded work"
        )
    return None


# -- check ------------------------------------------------------------------------------------------------------
def template_problems(root: Path) -> list[Diagnostic]:
    """What `check` finds in the project's own templates without rendering them: files that are not
    UTF-8, syntax errors, and names of other templates (extends, include, import) that lead outside
    the templates folders or name no template."""
    own = Path(root) / PROJECT_TEMPLATES
    if not own.is_dir() or own.is_symlink() and not own.resolve().is_relative_to(Path(root).resolve()):
        return []  # a templates/ linking outside is refused as symlink-outside
    environment, found = jinja_env(Path(root)), []
    for name in _template_names(own):
        try:
            source, filename, _uptodate = environment.loader.get_source(environment, name)
            tree = environment.parse(source, name, filename)
        except Exception as error:  # noqa: BLE001 - any problem reading it is the template's located error
            found.append(located(error, Path(root), name))
            continue
        found += _named_problems(tree, Path(root), name)
    return found


def _template_names(own: Path) -> list[str]:
    """Every ``.j2`` under ``own``, by name; linked folders are not entered (a link is judged where it leads)."""
    return sorted(
        (Path(folder) / name).relative_to(own).as_posix()
        for folder, _dirs, files in os.walk(own)
        for name in files
        if name.endswith(".j2")
    )


def _named_problems(tree: nodes.Template, root: Path, name: str) -> list[Diagnostic]:
    loader, found = ConfinedLoader(root), []
    for node in tree.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
        try:
            value = node.template.as_const(nodes.EvalContext(jinja_env(root)))
        except nodes.Impossible:
            continue  # a name computed while rendering is judged then
        names = list(value) if isinstance(value, (list, tuple)) else [value]
        try:  # every name must stay inside; of a list (the first that exists is used), one must exist
            if not any([loader.find(named) is not None for named in names]) and not getattr(
                node, "ignore_missing", False
            ):
                raise jinja2.TemplateNotFound(names[0] if len(names) == 1 else ", ".join(map(str, names)))
        except jinja2.TemplateNotFound as error:
            at = _with_column(Location(shown_name(name), node.lineno, 1), root, error.name)
            found.append(Diagnostic(Code.TEMPLATE_ERROR, _message(error), at, _hint(error)))
    return found
