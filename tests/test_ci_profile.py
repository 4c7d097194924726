"""CI runs every property test on a fixed set of examples (the profile in tests/conftest.py)."""
from __future__ import annotations

import os

from hypothesis import settings


def test_the_ci_profile_is_derandomized():
    assert settings.get_profile("ci").derandomize is True


def test_ci_loads_the_ci_profile():
    wanted = os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
    assert settings.default.derandomize is (wanted == "ci")
