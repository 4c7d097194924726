"""The one-run audit (Steinke, Nasr & Jagielski 2023) on a curator's Laplace histogram."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from ppdm_edu.audit.one_run import OneRunAudit, audit_one_run, laplace_histogram


@pytest.mark.parametrize("confidence", [0.5, 0.95])
def test_one_run_bound_keeps_its_confidence(confidence):
    # 400 seeds of a small audit at a large epsilon (where the bound is most often high)
    eps, n_seeds = 2.0, 400
    bounds = np.array([audit_one_run(laplace_histogram(eps), 200, guesses=40, confidence=confidence,
                                     rng=s).lower_bound for s in range(n_seeds)])
    misses = int((bounds > eps).sum())
    assert misses <= int(stats.binom.ppf(0.999, n_seeds, 1 - confidence)), misses
    assert np.median(bounds) > 0.5


def test_one_release_catches_a_broken_scale_and_is_close_for_an_honest_one():
    honest = audit_one_run(laplace_histogram(1.0), 100_000, guesses=10_000, rng=0)
    broken = audit_one_run(laplace_histogram(1.0, scale_factor=0.5), 100_000, guesses=10_000, rng=0)
    assert isinstance(honest, OneRunAudit) and honest.releases == 1
    assert 0.8 < honest.lower_bound <= 1.0, honest
    assert broken.lower_bound > 1.0, broken  # the claim eps = 1 is refuted from one release


def test_bad_arguments_name_themselves():
    with pytest.raises(ValueError, match="guesses"):
        audit_one_run(laplace_histogram(1.0), 10, guesses=11)
    with pytest.raises(ValueError, match="canaries"):
        audit_one_run(laplace_histogram(1.0), 1, guesses=1)
    with pytest.raises(ValueError, match="10 finite scores"):
        audit_one_run(lambda inc, rng: np.zeros(3), 10, guesses=4)
    with pytest.raises(TypeError, match="release"):
        audit_one_run(None, 10, guesses=4)
