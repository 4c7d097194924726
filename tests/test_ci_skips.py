"""The CI skip rule (tests/ci_skips.py): a skip under CI fails unless its reason is allowed."""
from __future__ import annotations

import os

import ci_skips


class _Report:
    """The part of a pytest report the rule reads and writes."""

    def __init__(self, reason: str, outcome: str = "skipped"):
        self.outcome, self.longrepr = outcome, ("test_x.py", 3, f"Skipped: {reason}")

    @property
    def skipped(self) -> bool:
        return self.outcome == "skipped"


def test_an_unlisted_skip_becomes_a_failure_that_names_its_reason():
    report = _Report("node (Node.js) is not installed")
    ci_skips.refuse_skip(report)
    assert report.outcome == "failed"
    assert "skipped under CI: node (Node.js) is not installed" in report.longrepr
    assert "tests/ci_skips.py" in report.longrepr


def test_a_listed_skip_stays_a_skip_and_other_outcomes_are_untouched():
    allowed = _Report(next(iter(ci_skips.ALLOWED)) + " (3.11.0)")
    ci_skips.refuse_skip(allowed)
    assert allowed.outcome == "skipped"
    passed = _Report("", outcome="passed")
    ci_skips.refuse_skip(passed)
    assert passed.outcome == "passed"


def test_the_rule_is_on_in_this_run_when_ci_is_set():
    """.ci/run sets CI=true: the plugin is loaded (pyproject's addopts) and sees it."""
    import sys

    assert "ci_skips" in sys.modules
    assert ci_skips._in_ci() == (os.environ.get("CI", "").lower() not in ("", "0", "false", "no"))
