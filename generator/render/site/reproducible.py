"""Two clean builds of a site give the same bytes.

sphinx-tippy names each page's tooltip script ``<page>.<uuid4>.js`` (a new name every build, for
browsers' caches) and writes its tooltips in the order of a ``set`` (which changes with Python's
hash seed). Here the name is a hash of the page's HTML body instead — it still changes whenever the
page does — and the tooltips are written in a sorted order. The previous scripts of a page that is
written again are removed (sphinx-tippy's own clean-up misses pages in sub-folders).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from sphinx.application import Sphinx

_NAME: dict[str, str] = {}  # the name of the page being written; read back by the patched uuid4


def _page_token(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Runs just before sphinx-tippy's own handler for the same page."""
    digest = hashlib.sha256(str(app.config.rulepress_code_hash).encode())
    digest.update(pagename.encode())
    digest.update(str(context.get("body", "")).encode())
    _NAME["token"] = digest.hexdigest()[:20]
    parts = pagename.split("/")
    folder = Path(app.outdir, "_static", "tippy", *parts).parent
    if folder.is_dir():
        for old in folder.glob(f"{parts[-1]}.*.js"):
            old.unlink()


def _token() -> str:
    return _NAME.get("token", "tips")


def _sorted_page_data(write):
    def write_sorted(app: Sphinx, pagename: str, *args, **kwargs):
        import sphinx_tippy

        data = sphinx_tippy.get_tippy_data(app)["pages"][pagename]
        for key in ("refs_in_page", "wiki_titles", "dois", "rtd_urls", "custom_in_page"):
            if isinstance(data.get(key), (set, frozenset)):
                data[key] = sorted(data[key], key=lambda item: repr(item))
        return write(app, pagename, *args, **kwargs)

    write_sorted.__wrapped__ = write
    return write_sorted


def setup_reproducible(app: Sphinx) -> None:
    try:
        import sphinx_tippy
    except ImportError:  # pragma: no cover - the site is built without tooltips
        return
    sphinx_tippy.uuid4 = _token
    if not hasattr(sphinx_tippy.write_tippy_props_page, "__wrapped__"):
        sphinx_tippy.write_tippy_props_page = _sorted_page_data(sphinx_tippy.write_tippy_props_page)
    app.connect("html-page-context", _page_token, priority=400)  # sphinx-tippy's runs at the default 500
