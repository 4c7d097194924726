"""Under CI (``CI`` set, as ``.ci/run`` does) a skipped test is a failed test.

A skip in CI means something was not tested while the run is green. Locally a missing optional
tool (node, OpenDP, dask) may skip what needs it; in CI every environment installs what its tests
need, so a skip there is a broken install or a forgotten ``importorskip``. The only skips allowed
are listed below, each with the environment that takes it and why. A -p plugin (pyproject's
addopts), so that it holds for the notebooks and doctests as well as ``tests/``.
"""
from __future__ import annotations

import os

import pytest

ALLOWED = {
    # reason (its start)                                   where and why it may skip
    "the stored pictures were drawn with the [lab] extra's matplotlib":
        "make test-deps' newest environment lifts matplotlib to >= 3.11, which draws other pixels "
        "(tests/test_twins.py); the read-outs are still compared there",
    "all tests skipped by +SKIP option":
        "a docstring whose examples are all marked `# doctest: +SKIP` shows usage without running it "
        "(reproduce_all and execution write reports/; PerturbedTreePanel trains for seconds); the "
        "same calls run in tests/test_reproduce*.py, test_checkpoint_trust.py and test_liu.py",
}


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def _reason(report) -> str:
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return text.removeprefix("Skipped: ")


def refuse_skip(report) -> None:
    """Turn a skip report into a failure unless its reason is allowed (``ALLOWED``)."""
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    reason = _reason(report)
    if any(reason.startswith(allowed) for allowed in ALLOWED):
        return
    report.outcome = "failed"
    report.longrepr = (f"skipped under CI: {reason}\nCI must run every test: install what it needs, or, "
                       "if this environment legitimately cannot, add the reason to ALLOWED in "
                       "tests/ci_skips.py with where and why")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if _in_ci():
        refuse_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    if _in_ci():
        refuse_skip(outcome.get_result())
