"""The estimators of ppdm_edu.mechanisms against the theory of Wang et al. (USENIX Security 2017).

Every tolerance below comes from the closed-form covariance of the unbiased estimate (each user's
report is independent given the data; Wang et al. Sec. 4, Eq. for Var[c̃(i)]), not from a run.
The error is measured against the sample's own histogram: the data are fixed, only the
mechanism's coins vary, which is the setting of that variance.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from ppdm_edu.mechanisms import (
    BAYES_TOL,
    GeneralizedRR,
    OptimizedUnaryEncoding,
    WarnerRR,
    _ibu,
    project_to_simplex,
)

KS, EPSILONS = (2, 10, 100), (0.5, 1.0, 4.0)
GRID = [(cls, k, eps) for cls in (GeneralizedRR, OptimizedUnaryEncoding) for k in KS for eps in EPSILONS]
Z = 5.0  # one-sided normal quantile of the mean over runs (P < 3e-7 per cell under the CLT)


def _peaked_data(k, n, seed):
    """A distribution far from uniform (f_v proportional to 2^-v), so that shrinking toward the
    uniform start shows as error."""
    f = 0.5 ** np.arange(k)
    return np.random.default_rng([seed, k]).choice(k, size=n, p=f / f.sum())


def _covariance(mech, f, n):
    """Covariance of the unbiased estimate (c / n - q) / (p - q) for data with histogram f.

    GRR: each report is one category, P(s | v) = A[s, v], so Cov(c) / n = diag(A f) - A diag(f) A^T.
    OUE: the bits are independent, Var(bit i) = f_i p (1 - p) + (1 - f_i) q (1 - q).
    Either way the diagonal is Wang et al.'s n q (1 - q) / (p - q)^2 + n f_i (1 - p - q) / (p - q)
    (divided by n^2).
    """
    A = mech.response_matrix()
    p, q = A[0, 0], A[1, 0]
    if isinstance(mech, OptimizedUnaryEncoding):
        cov_c = np.diag(f * p * (1 - p) + (1 - f) * q * (1 - q))
    else:
        cov_c = np.diag(A @ f) - (A * f) @ A.T
    cov = cov_c / (n * (p - q) ** 2)
    wang = (q * (1 - q) / (p - q) ** 2 + f * (1 - p - q) / (p - q)) / n
    np.testing.assert_allclose(np.diag(cov), wang, rtol=1e-9)  # the same variance as Wang et al.
    return cov


def _expected_squared_error(mech, f, n):
    """Mean and standard deviation of ||unbiased - f||^2 (Gaussian limit: tr S, sqrt(2 tr S^2))."""
    cov = _covariance(mech, f, n)
    return float(np.trace(cov)), float(np.sqrt(2.0 * np.sum(cov * cov)))


@pytest.mark.parametrize("cls, k, eps", GRID)
def test_default_estimate_is_never_worse_than_the_unbiased_inversion(cls, k, eps):
    mech, n, runs = cls(k, eps), 20_000, 8
    raw_err, default_err = [], []
    for run in range(runs):
        x = _peaked_data(k, n, run)
        f = np.bincount(x, minlength=k) / n
        reports = mech.randomize(x, rng=np.random.default_rng([run, 99]))
        raw = mech.unbiased_estimate(reports)
        est = mech.estimate(reports)
        assert est.method == "inversion" and est.converged and est.n == n
        assert (est.probabilities >= 0).all() and est.probabilities.sum() == pytest.approx(1.0)
        raw_err.append(np.sum((raw - f) ** 2))
        default_err.append(np.sum((est.probabilities - f) ** 2))
        # the projection onto the simplex (which holds f) never moves away from f
        assert default_err[-1] <= raw_err[-1] * (1 + 1e-9) + 1e-15
    mean, sd = _expected_squared_error(mech, f, n)
    # the unbiased estimate has Wang et al.'s variance ...
    assert abs(np.mean(raw_err) - mean) <= Z * sd / math.sqrt(runs)
    # ... and the default is within the sampling error of it (in fact below it)
    assert np.mean(default_err) <= mean + Z * sd / math.sqrt(runs)


@pytest.mark.parametrize("cls, k, eps", GRID)
def test_converged_bayes_has_converged(cls, k, eps):
    mech, n = cls(k, eps), 20_000
    x = _peaked_data(k, n, 0)
    f = np.bincount(x, minlength=k) / n
    reports = mech.randomize(x, rng=1)
    tol, max_iter = 1e-5, 20_000
    est = mech.estimate(reports, method="bayes-converged", tol=tol, max_iter=max_iter)
    assert est.n_iter > 1  # one step from the uniform start is never convergence
    if not est.converged:
        assert est.n_iter == max_iter
        return
    # converged=True: iterating on (ten times as long again) moves the estimate by less than tol
    N = mech.counts(reports)
    forward, backward = mech._response_operators()
    later, _, _ = _ibu(N, forward, backward, k, 0.0, 10 * est.n_iter, start=est.probabilities)
    assert np.abs(later - est.probabilities).sum() < tol
    # and, the maximum-likelihood estimate, it is within the unbiased inversion's sampling error
    mean, sd = _expected_squared_error(mech, f, n)
    assert np.sum((est.probabilities - f) ** 2) <= mean + Z * sd


def test_one_iteration_from_uniform_is_not_reported_as_converged():
    # GRR with k = 100 at eps = 1: the paper's chi^2 rule stops after one iteration, still
    # almost uniform; neither it nor "bayes-converged" may call that converged
    mech = GeneralizedRR(100, 1.0)
    x = _peaked_data(100, 100_000, 0)
    reports = mech.randomize(x, rng=2)
    early = mech.estimate(reports, method="bayes-early-stop")
    assert early.n_iter <= 2 and not early.converged
    assert np.abs(early.probabilities - 0.01).max() < 0.01  # a shrinkage estimator: near uniform
    est = mech.estimate(reports, method="bayes-converged", max_iter=3)
    assert est.n_iter == 3 and not est.converged


def test_the_early_stop_is_the_old_chi2_iteration():
    mech = OptimizedUnaryEncoding(10, 1.0)
    reports = mech.randomize(_peaked_data(10, 5_000, 0), rng=3)
    rec = mech.reconstruct(reports)
    for method in ("bayes-early-stop", "bayes"):  # two names, the paper's iteration and rule
        est = mech.estimate(reports, method=method)
        assert est.n_iter == rec.n_iter and np.array_equal(est.probabilities, rec.probabilities)
        assert not est.converged


@pytest.mark.parametrize("cls", [GeneralizedRR, OptimizedUnaryEncoding])
def test_bayes_equals_reconstruct_iteration_for_iteration(cls):
    # the O(k) fast path of the iterative Bayes gives the dense reconstruction's numbers
    mech = cls(7, 1.0)
    reports = mech.randomize(_peaked_data(7, 3_000, 1), rng=4)
    ours, n_iter, _ = _ibu(mech.counts(reports), *mech._response_operators(), 7, 0.0, 50)
    rec = mech.reconstruct(reports, max_iter=50, tol=0.0)
    assert n_iter == rec.n_iter == 50
    np.testing.assert_allclose(ours, rec.probabilities, rtol=0, atol=1e-12)


@pytest.mark.parametrize("mech", [GeneralizedRR(6, 0.7), OptimizedUnaryEncoding(6, 0.7), WarnerRR(0.8)])
def test_fast_response_operators_equal_the_dense_matrix(mech):
    A = mech.response_matrix()
    forward, backward = mech._response_operators()
    v = np.random.default_rng(0).random(A.shape[1])
    np.testing.assert_allclose(forward(v), A @ v, rtol=1e-14)
    np.testing.assert_allclose(backward(v), A.T @ v, rtol=1e-14)


@pytest.mark.parametrize("mech, reports", [
    (GeneralizedRR(5, 0.5), np.zeros(30, dtype=int)),
    (OptimizedUnaryEncoding(5, 0.5), np.eye(5, dtype=np.int8)[np.r_[0, 0, 0, 1]]),
    (WarnerRR(0.6), np.zeros(30, dtype=int)),
])
def test_inversion_never_returns_negative_probabilities(mech, reports):
    # every report names category 0: the unbiased estimate of the others is negative
    raw = mech.unbiased_estimate(reports)
    assert raw.min() < 0
    p = mech.estimate(reports, method="inversion").probabilities
    assert p.min() >= 0 and p.sum() == pytest.approx(1.0)
    assert np.array_equal(p, project_to_simplex(raw))


def test_projection_is_the_closest_distribution():
    rng = np.random.default_rng(5)
    for _ in range(50):
        v = rng.normal(0.2, 0.5, size=6)
        p = project_to_simplex(v)
        assert p.min() >= 0 and p.sum() == pytest.approx(1.0)
        # optimality (KKT): v - p is the same constant on the support, and not above it off it
        support = p > 0
        shift = (v - p)[support]
        assert np.ptp(shift) < 1e-12
        assert ((v - p)[~support] <= shift[0] + 1e-12).all()
        # no random distribution is closer
        others = rng.dirichlet(np.ones(6), size=200)
        assert np.linalg.norm(p - v) <= np.linalg.norm(others - v, axis=1).min() + 1e-12


def test_default_tolerance_is_the_documented_one():
    mech = GeneralizedRR(3, 2.0)
    reports = mech.randomize(_peaked_data(3, 2_000, 0), rng=0)
    a = mech.estimate(reports, method="bayes-converged")
    b = mech.estimate(reports, method="bayes-converged", tol=BAYES_TOL)
    assert a.n_iter == b.n_iter and a.converged


@pytest.mark.parametrize("k", [2_000, 10_000])
def test_grr_inversion_is_the_closed_form(k):
    # the closed form (Wang et al. Eq. 1), O(k): no k x k least-squares solve at k = 10,000
    mech = GeneralizedRR(k, 1.0)
    reports = mech.randomize(np.random.default_rng(0).integers(0, k, 20_000), rng=1)
    e = math.e
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    raw = mech.unbiased_estimate(reports)
    np.testing.assert_allclose(raw, (np.bincount(reports, minlength=k) / reports.size - q) / (p - q),
                               rtol=1e-9, atol=1e-12)
    est = mech.estimate(reports, method="inversion")
    assert est.probabilities.shape == (k,) and est.probabilities.sum() == pytest.approx(1.0)


def test_oue_randomize_in_blocks_is_the_one_draw_formula():
    # the readable formula: one uniform per bit, the own bit kept below p, the others set below q;
    # randomize draws the same uniforms a block of rows at a time (n x k above one block here)
    mech, k, n = OptimizedUnaryEncoding(50, 1.3), 50, 30_000
    x = np.random.default_rng(0).integers(0, k, n)
    p, q = 0.5, 1 / (math.exp(1.3) + 1)
    u = np.random.default_rng(7).random((n, k))
    expected = u < np.where(x[:, None] == np.arange(k), p, q)
    bits = mech.randomize(x, rng=np.random.default_rng(7))
    assert bits.dtype == np.int8 and np.array_equal(bits, expected)


def test_oue_counts_are_the_same_on_every_bit_dtype():
    mech = OptimizedUnaryEncoding(6, 1.0)
    bits = mech.randomize(np.arange(600) % 6, rng=3)
    expected = bits.astype(np.int64).sum(axis=0).astype(float)
    for dtype in (bool, np.uint8, np.int8, np.int64, float):
        np.testing.assert_array_equal(mech.counts(bits.astype(dtype)), expected)
