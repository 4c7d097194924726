"""Shared fixtures of the unit tests, and the Hypothesis profile they run under.

Hypothesis: under CI (``CI=true``, what ``.ci/run`` sets) every property test runs the same
examples on every run (``derandomize``), so a red CI is reproducible and a green one is not luck
of the draw; locally the default profile keeps exploring new examples. The per-test
``@settings(max_examples=..., deadline=None)`` still apply on top of the profile.
"""
from __future__ import annotations

import os
import shutil

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# `--doctest-modules` imports every .py file under tests/ as a module of its own name; the two
# conftest.py files (this one and tests/browser's) would both be "conftest" and clash. They hold no
# doctests: pytest loads them as conftests, never collects them.
collect_ignore = ["conftest.py", "browser/conftest.py"]


@pytest.fixture
def laptop_style():
    """The classroom (laptop) style before and after the test, whatever style the test switches
    to: a panel reads the mode when it is built, so a test left in lecture mode would change the
    pictures of the tests after it. Use with ``pytestmark = pytest.mark.usefixtures("laptop_style")``."""
    from ppdm_edu.lecture import lecture_mode

    lecture_mode(False)
    yield
    lecture_mode(False)


@pytest.fixture(scope="session")
def node() -> str:
    """The path of Node.js, for the tests that run the site's scripts. Skipped where node is
    missing, except under CI (``CI`` set): a CI run that skips them has not tested the scripts,
    so there a missing node fails (``.ci/run`` installs it)."""
    path = shutil.which("node")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("node (Node.js) is not installed, and CI is set: the site's scripts must be tested "
                        "in CI. Install it (.ci/run does: apt-get install nodejs) or put it on PATH.")
        pytest.skip("node (Node.js) is not installed: the site's scripts are not run")
    return path
