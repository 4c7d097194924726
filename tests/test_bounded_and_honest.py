"""Issue 14 cases fixed at the boundary: bounded work and no silent nonsense (each failed before)."""
from __future__ import annotations

import numpy as np
import pytest

from ppdm_edu import GaussianNoise, UniformNoise, reconstruct, warner_estimate
from ppdm_edu.experiments.rr_simulation import MAX_SWEEP_RECORDS, mrr_theta_sweep
from ppdm_edu.randomized_response import warner_std_error
from ppdm_edu.reconstruction import MAX_ITER, chi2_threshold, reconstruct_counts, response_matrix


def test_reconstruct_refuses_an_unbounded_iteration_count():
    w = np.linspace(0, 1, 200)
    with pytest.raises(ValueError, match=f"max_iter must be an integer between 1 and {MAX_ITER}"):
        reconstruct(w, GaussianNoise(0.1), bounds=(0, 1), max_iter=10**12, tol=0)


def test_sweep_refuses_an_unbounded_number_of_runs():
    X = np.array([[0, 1], [1, 1], [1, 0]])
    with pytest.raises(ValueError, match=f"at most {MAX_SWEEP_RECORDS:,}"):
        mrr_theta_sweep(X, {0: 1}, thetas=[0.7], runs=10**12, rng=0)


def test_one_yes_answer_is_not_an_estimate_of_3_with_se_0():
    with pytest.warns(RuntimeWarning, match="outside \\[0, 1\\]"):
        res = warner_estimate([1], 0.6)
    assert res.estimate_clipped == 1.0
    assert res.std_error > 1.0          # one respondent says almost nothing
    assert 0.0 <= res.ci_low <= res.ci_high <= 1.0


def test_warner_std_error_needs_a_proportion():
    with pytest.raises(ValueError, match="pi"):
        warner_std_error(1.5, 0.8, 100)
    with pytest.raises(ValueError, match="pi"):
        warner_std_error(-0.1, 0.8, 100)


def test_chi2_threshold_refuses_a_fractional_interval_count():
    with pytest.raises(ValueError, match="m \\(number of intervals\\) must be an integer"):
        chi2_threshold(2.7)


def test_reconstruct_counts_refuses_a_negative_record_count():
    edges = np.linspace(0, 1, 11)
    noise = UniformNoise(0.2)
    matrix = response_matrix(edges, noise)
    counts = np.ones(matrix.shape[0])
    with pytest.raises(ValueError, match="n must be"):
        reconstruct_counts(counts, matrix, edges=edges, noise=noise, n=-5)


@pytest.mark.parametrize("call", [
    lambda: GaussianNoise(1.0).sample(10**12),
    lambda: UniformNoise(1.0).sample((10**6, 10**6)),
    lambda: __import__("ppdm_edu").agrawal(10**12, 1),
    lambda: __import__("ppdm_edu").plateau(10**12),
    lambda: __import__("ppdm_edu").discretize(np.array([0.0, 1.0]), width=1e-12),
], ids=["gaussian-sample", "uniform-sample-2d", "agrawal", "plateau", "discretize"])
def test_absurd_sizes_are_refused_before_allocating(call):
    # used to end in numpy's MemoryError "Unable to allocate 7.28 TiB"
    with pytest.raises(ValueError, match="at most 1,000,000,000"):
        call()
