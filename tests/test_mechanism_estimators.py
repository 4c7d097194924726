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
    IBU_TOL,
    GeneralizedRR,
    OptimizedUnaryEncoding,
    WarnerRR,
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
        raw = mech.estimate(reports, method="inversion").probabilities
        est = mech.estimate(reports)
        assert est.method == "projected" and est.converged and est.n == n
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


def _eq3(pr, A, N):
    """One iteration of Agrawal & Srikant's Eq. 3 on the dense matrix, written out again here."""
    return pr * (A.T @ np.divide(N, A @ pr, out=np.zeros(len(N)), where=N > 0)) / N.sum()


def _loglik(p, A, N):
    D = A @ p
    return float(N[N > 0] @ np.log(D[N > 0]))


def _grr_maximum_likelihood(N, p, q):
    """GRR's likelihood sum_t N_t log((p - q) pi_t + q) is separable on the simplex: its maximum is
    pi_t = max(N_t / lam - c, 0), c = q / (p - q), with lam filling the simplex (water-filling)."""
    c, order = q / (p - q), np.sort(N)[::-1]
    for j in range(1, N.size + 1):
        lam = order[:j].sum() / (1 + j * c)
        if j == N.size or order[j] / lam - c <= 0:
            return np.maximum(N / lam - c, 0.0)
    raise AssertionError("unreachable")


@pytest.mark.parametrize("cls, k, eps", GRID)
def test_ibu_is_at_its_fixed_point(cls, k, eps):
    mech, n = cls(k, eps), 20_000
    x = _peaked_data(k, n, 0)
    f = np.bincount(x, minlength=k) / n
    reports = mech.randomize(x, rng=1)
    tol = 1e-7
    est = mech.estimate(reports, method="ibu", tol=tol)
    assert est.converged and 1 < est.n_iter < 100_000  # one step from the uniform start never is
    # converged=True: one more iteration of Eq. 3 (on the dense matrix) moves it by less than tol
    A, N = mech.response_matrix(), mech.counts(reports)
    assert np.abs(_eq3(est.probabilities, A, N) - est.probabilities).sum() < tol
    if cls is GeneralizedRR:
        # the maximum of the likelihood, in closed form: none is more likely by more than n tol / 2
        p, q = A[0, 0], A[1, 0]
        best = _grr_maximum_likelihood(N, p, q)
        assert np.abs(_eq3(best, A, N) - best).sum() < 1e-12  # (the maximum is Eq. 3's fixed point)
        assert _loglik(best, A, N) - _loglik(est.probabilities, A, N) <= N.sum() * tol / 2
        assert np.abs(best - est.probabilities).sum() < 1e-3
    # the maximum-likelihood estimate is within the unbiased inversion's sampling error
    mean, sd = _expected_squared_error(mech, f, n)
    assert np.sum((est.probabilities - f) ** 2) <= mean + Z * sd


def test_ibu_fast_path_reaches_the_plain_loops_fixed_point():
    # a maximum inside the simplex, where Eq. 3 alone converges in a few thousand iterations: the
    # accelerated iteration ("ibu") stops where the plain loop ends up
    mech = GeneralizedRR(5, 2.0)
    reports = mech.randomize(_peaked_data(5, 100_000, 3), rng=5)  # f_v = 2^-v / (1 - 2^-5) > 0.03
    plain = mech.estimate(reports, method="ibu-early", tol=0.0, max_iter=20_000)  # tol 0: every iteration
    fast = mech.estimate(reports, method="ibu", tol=1e-10)
    assert fast.converged and fast.n_iter < plain.n_iter  # (the plain loop stops when a step changes nothing)
    np.testing.assert_allclose(fast.probabilities, plain.probabilities, rtol=0, atol=1e-8)


def test_one_iteration_from_uniform_is_not_reported_as_converged():
    # GRR with k = 100 at eps = 1: the paper's chi^2 rule stops after one iteration, still
    # almost uniform; neither it nor "ibu" stopped after a few iterations may call that converged
    mech = GeneralizedRR(100, 1.0)
    x = _peaked_data(100, 100_000, 0)
    reports = mech.randomize(x, rng=2)
    early = mech.estimate(reports, method="ibu-early")
    assert early.n_iter <= 2 and not early.converged
    assert np.abs(early.probabilities - 0.01).max() < 0.01  # a shrinkage estimator: near uniform
    for max_iter in (1, 2, 3, 4):
        est = mech.estimate(reports, method="ibu", max_iter=max_iter)
        assert est.n_iter <= max_iter and not est.converged


@pytest.mark.parametrize("make", [lambda: OptimizedUnaryEncoding(10, 1.0), lambda: GeneralizedRR(10, 0.5),
                                  lambda: WarnerRR(0.7)])
def test_the_early_stop_is_reconstructs_chi2_iteration(make):
    mech = make()
    reports = mech.randomize(_peaked_data(mech.k, 5_000, 0), rng=3)
    rec = mech.reconstruct(reports)  # notebook 02's loop, on the dense matrix
    est = mech.estimate(reports, method="ibu-early")
    assert est.n_iter == rec.n_iter > 1 and not est.converged
    np.testing.assert_allclose(est.probabilities, rec.probabilities, rtol=0, atol=1e-13)


@pytest.mark.parametrize("cls", [GeneralizedRR, OptimizedUnaryEncoding])
def test_iterative_bayes_equals_reconstruct_iteration_for_iteration(cls):
    # the O(k) fast path of the iterative Bayes gives the dense reconstruction's numbers
    mech = cls(7, 1.0)
    reports = mech.randomize(_peaked_data(7, 3_000, 1), rng=4)
    ours = mech.estimate(reports, method="ibu-early", tol=0.0, max_iter=50)  # tol 0: all 50
    rec = mech.reconstruct(reports, max_iter=50, tol=0.0)
    assert ours.n_iter == rec.n_iter == 50
    np.testing.assert_allclose(ours.probabilities, rec.probabilities, rtol=0, atol=1e-12)


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
    raw = mech.estimate(reports, method="inversion").probabilities
    assert raw.min() < 0
    p = mech.estimate(reports, method="projected").probabilities
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
    a = mech.estimate(reports, method="ibu")
    b = mech.estimate(reports, method="ibu", tol=IBU_TOL)
    c = mech.estimate(reports, method="ibu", tol=IBU_TOL * 100)
    assert a.n_iter == b.n_iter > c.n_iter and a.converged


@pytest.mark.parametrize("k", [2_000, 10_000])
def test_grr_inversion_is_the_closed_form(k):
    # the closed form (Wang et al. Eq. 1), O(k): no k x k least-squares solve at k = 10,000
    mech = GeneralizedRR(k, 1.0)
    reports = mech.randomize(np.random.default_rng(0).integers(0, k, 20_000), rng=1)
    e = math.e
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    raw = mech.estimate(reports, method="inversion").probabilities
    np.testing.assert_allclose(raw, (np.bincount(reports, minlength=k) / reports.size - q) / (p - q),
                               rtol=1e-9, atol=1e-12)
    est = mech.estimate(reports, method="projected")
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


@pytest.mark.parametrize("method", ["inversion", "projected", "ibu", "ibu-early"])
def test_warner_at_one_half_estimates_the_uniform_distribution(method):
    # theta = 1/2: p = q, every report is a fair coin whatever the truth, A = [[.5, .5], [.5, .5]]
    # is singular and the closed form (N / n - q) / (p - q) would divide by 0. The least-squares
    # inversion's smallest solution, and the flat likelihood's maximum, are the uniform distribution.
    mech = WarnerRR(0.5)
    reports = mech.randomize(_peaked_data(2, 1_000, 0), rng=0)
    assert 0.4 < reports.mean() < 0.6
    with np.errstate(all="raise"):
        est = mech.estimate(reports, method=method)
    np.testing.assert_allclose(est.probabilities, [0.5, 0.5], rtol=0, atol=1e-12)
    assert est.converged == (method != "ibu-early")
