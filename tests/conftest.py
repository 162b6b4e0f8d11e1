"""Suite-wide rules that keep the tests honest.

On CI (any non-empty ``CI``) nothing may skip: a skip there hides a missing browser, a
broken ruleset or a tool the run was meant to have, so it is reported as a failure.
"""

from __future__ import annotations

import os

import pytest

ON_CI = bool(os.environ.get("CI"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if ON_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped on CI, where nothing may skip: {reason}"


def pytest_collection_modifyitems(config, items):
    """A test is a browser test exactly when it uses Chromium (the `browser` or `page` fixtures):
    deselecting `-m "not browser"` then drops no test that needs no browser."""
    for item in items:
        if {"browser", "page", "phone"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


# -- Chromium, one for the whole run --------------------------------------------------------------
@pytest.fixture(scope="session")
def browser():
    from site_helpers import chromium

    with chromium() as launched:
        yield launched


def _tab(browser, viewport):

    context = browser.new_context(viewport=viewport)
    yield context.new_page()
    context.close()


@pytest.fixture
def page(browser):
    """A desktop-sized tab."""
    from site_helpers import DESKTOP

    yield from _tab(browser, DESKTOP)


@pytest.fixture
def phone(browser):
    """A tab the size of a phone (390 px wide)."""
    from site_helpers import PHONE

    yield from _tab(browser, PHONE)
