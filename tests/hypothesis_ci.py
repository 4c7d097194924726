"""Hypothesis profiles, loaded by pytest as a plugin (``-p hypothesis_ci`` in pyproject.toml; a
plugin, not ``tests/conftest.py``, which would collide with ``tests/browser/conftest.py``).

Hypothesis: under CI (``CI=true``, what ``.ci/run`` sets) every property test runs the same
examples on every run (``derandomize``), so a red CI is reproducible and a green one is not luck
of the draw; locally the default profile keeps exploring new examples. The per-test
``@settings(max_examples=..., deadline=None)`` still apply on top of the profile.
"""
from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
