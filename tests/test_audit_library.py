"""A real library's claim put to the test: OpenDP's geometric mechanism (optional extra audit-lib)."""
from __future__ import annotations

import os

import pytest

from ppdm_edu.audit import audit_epsilon
from ppdm_edu.audit.library import opendp_available, opendp_geometric

# `make test` installs OpenDP (the test extra includes audit-lib): under CI a missing OpenDP is a
# failure, not a skip; elsewhere (a plain `pip install -e .`) the tests skip
_IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
pytestmark = pytest.mark.skipif(not opendp_available() and not _IN_CI,
                                reason="OpenDP (extra audit-lib) not installed")


def test_opendp_geometric_claim_is_not_refuted_and_its_own_map_agrees():
    lib = opendp_geometric(1.0)
    assert lib.library_epsilon == pytest.approx(1.0)
    # OpenDP cannot be seeded: confidence 0.999 keeps a false refutation below 1 in 1,000 runs
    audit = audit_epsilon(lib.randomizer, 0, 1, trials=20_000, confidence=0.999)
    assert not audit.refutes(lib.claimed_epsilon), audit
    assert audit.lower_bound > 0.5, audit  # and the audit is not vacuous


def test_a_broken_scale_is_caught():
    # the caller claims epsilon = 1 but passes half the scale it needs: the true epsilon is 2
    lib = opendp_geometric(1.0, scale_factor=0.5)
    assert lib.library_epsilon == pytest.approx(2.0)  # OpenDP's own map knows
    audit = audit_epsilon(lib.randomizer, 0, 1, trials=20_000, confidence=0.999)
    assert audit.refutes(lib.claimed_epsilon), audit
    assert audit.lower_bound <= 2.0


def test_bad_arguments():
    with pytest.raises(ValueError, match="sensitivity"):
        opendp_geometric(1.0, sensitivity=0)
    with pytest.raises(ValueError, match="epsilon"):
        opendp_geometric(0.0)


def test_a_seed_the_library_cannot_take_is_said_to_be_ignored():
    import warnings

    lib = opendp_geometric(1.0)
    assert "secure randomness" in lib.randomizer.ignores_rng
    with pytest.warns(RuntimeWarning, match="rng=0 does not seed this randomizer"):
        audit_epsilon(lib.randomizer, 0, 1, trials=1000, rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no seed given: nothing to warn about
        audit_epsilon(lib.randomizer, 0, 1, trials=1000)


def test_a_fractional_input_is_refused_not_truncated():
    import numpy as np

    lib = opendp_geometric(1.0)
    with pytest.raises(ValueError, match=r"takes integer inputs .* got 0\.5"):
        lib.randomizer(np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match=r"the randomizer refused x0 = 0\.5: OpenDP"):
        audit_epsilon(lib.randomizer, 0.5, 1.5, trials=100)
    assert lib.randomizer(np.array([2.0, 3.0])).dtype == np.int64   # whole floats are integers
