"""Issue 14 cases fixed at the boundary: bounded work and no silent nonsense (each failed before)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ppdm_edu import GaussianNoise, UniformNoise, reconstruct, warner_estimate
from ppdm_edu.experiments import as2000_trees, du_zhan, liu
from ppdm_edu.experiments.as2000_reconstruction import MAX_GRID_RUNS, error_grid
from ppdm_edu.randomized_response import warner_std_error
from ppdm_edu.reconstruction import MAX_ITER, chi2_threshold, reconstruct_counts, response_matrix
from ppdm_edu.rr_simulation import MAX_SWEEP_RECORDS, mrr_theta_sweep
from ppdm_edu.trees import c45
from ppdm_edu.trees.gini import gini, gini_split, mdl_leaf_cost


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


# --- second pass over the examples (each failed on the code before this commit) -------
@pytest.mark.parametrize("call, match", [
    (lambda: gini([np.nan, 3]), r"counts contains 1 NaN"),                 # returned 0.0
    (lambda: gini([-1, 3]), r"counts must be class counts >= 0, got -1"),  # did not name counts
    (lambda: gini_split([3, 1], [np.nan, 2]), r"right_counts contains 1 NaN"),
    (lambda: mdl_leaf_cost([-1, 3]), r"counts must be class counts >= 0"),  # returned -0.10 bits
    (lambda: mdl_leaf_cost([np.nan, 3]), r"counts contains 1 NaN"),        # returned NaN
    (lambda: c45.gain_ratio([-1, 3], [2, 2]), r"left_counts must be class counts >= 0"),
    (lambda: c45.add_errors(-5, 1), r"n must be a record count >= 0, got -5"),  # returned 0.0
    (lambda: c45.add_errors(5, -1), r"e must be an error count between 0 and n"),  # returned 1.17
    (lambda: c45.add_errors(5, 7), r"e must be an error count between 0 and n"),   # returned 0.0
    (lambda: c45.add_errors(5, 1, confidence="0.25"), r"confidence must be one real number"),
], ids=["gini-nan", "gini-negative", "gini_split-nan", "mdl-negative", "mdl-nan",
        "gain_ratio-negative", "add_errors-n<0", "add_errors-e<0", "add_errors-e>n",
        "add_errors-text-confidence"])
def test_tree_helpers_refuse_impossible_counts(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_error_grid_refuses_zero_or_unbounded_seeds():
    # n_seeds=0 returned a row of NaN (mean of nothing); n_seeds=10**12 ran for ever
    with pytest.raises(ValueError, match="n_seeds must be an integer between 1 and 10000, got 0"):
        error_grid(ns=(200,), sigmas=(0.25,), n_seeds=0)
    with pytest.raises(ValueError, match=f"n_seeds must be an integer between 1 and {MAX_GRID_RUNS}"):
        error_grid(ns=(200,), sigmas=(0.25,), n_seeds=10**12)
    with pytest.raises(ValueError, match="reconstructions; at most"):
        error_grid(ns=range(1, 101), sigmas=(0.1, 0.2), n_seeds=100)


def test_make_noises_says_it_needs_one_snr_per_column():
    X4 = np.random.default_rng(0).normal(size=(50, 4))
    # a numpy broadcast error before ("operands could not be broadcast ... (6,) ... (4,)")
    with pytest.raises(ValueError, match=r"snr must be one number or one per column of X \(4 columns\)"
                                         r", got 6 values .*data set 'data1'"):
        liu.make_noises(X4, "data1")
    with pytest.raises(ValueError, match=r"got 2 values \[1, 2\]"):
        liu.make_noises(X4, snr=[1, 2], kind="gaussian")
    with pytest.raises(ValueError, match="X must be two-dimensional"):  # an IndexError before
        liu.make_noises(X4[:, 0], "data1")
    assert len(liu.make_noises(X4, snr=2.0, kind="gaussian")) == 4


@pytest.mark.parametrize("call, match", [
    (lambda: liu.summarize([]), r"records is empty"),                    # KeyError: 'table'
    (lambda: liu.summarize([{"table": "t", "row": "r"}]), r"records lacks the column\(s\) \['data', 'accuracy'\]"),
    (lambda: as2000_trees.summarize(pd.DataFrame()), r"df is empty"),   # KeyError: 'function'
    (lambda: du_zhan.summarize_sweep(pd.DataFrame()), r"df is empty"),  # KeyError: 'theta'
], ids=["liu-empty", "liu-missing-columns", "as2000-empty", "du_zhan-empty"])
def test_summaries_of_no_runs_say_so(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("tiny", [1e-300, 1e-310, 1e-320, 5e-324])
def test_far_tail_likelihoods_neither_overflow_nor_stop_the_iteration(tiny):
    # Eq. 3 is invariant to scaling a row of the response matrix. A row of subnormal
    # likelihoods made N / (A Pr) overflow to inf ("RuntimeWarning: overflow in divide", found
    # by hypothesis in test_invariant_to_shuffling): the iteration stopped at the uniform start
    # with converged=False. It must give the answer of the same row scaled to 1.
    N = np.array([10.0, 1.0])
    reference = reconstruct_counts(N, np.array([[1.0, 0.0], [1.0, 1.0]]))
    rec = reconstruct_counts(N, np.array([[1.0, 0.0], [tiny, tiny]]))
    assert rec.converged
    np.testing.assert_allclose(rec.probabilities, reference.probabilities, rtol=1e-12)


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("method", ["bayes", "em"])
def test_one_value_in_a_far_gaussian_tail_gives_no_overflow(method):
    w = np.r_[np.zeros(50), 0.38]   # 38 sigma away: a likelihood of ~1e-314
    for m in (1, 2, 5, 10):
        rec = reconstruct(w, GaussianNoise(0.01), n_intervals=m, method=method)
        assert np.isfinite(rec.probabilities).all() and rec.probabilities.sum() == pytest.approx(1.0)
