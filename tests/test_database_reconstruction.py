"""Dinur & Nissim's reconstruction attack (ppdm_edu.database_reconstruction): the decoders are
exact where they must be, equal to their definitions, the answering policies carry the privacy
they claim, and bad input is refused with the argument's name."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from ppdm_edu import database_reconstruction as dr
from ppdm_edu.database_reconstruction import (
    BoundedError,
    GaussianBudget,
    LaplaceBudget,
    LaplacePerQuery,
    attack,
    decode,
    guess_bound,
    l1_program,
    least_squares,
    least_squares_prediction,
    publish,
    random_queries,
    recovered_shares,
    secret_bits,
    zcdp_epsilon,
)


def _instance(n, m, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, n), rng.integers(0, 2, (m, n))


@pytest.mark.parametrize("decoder", list(dr.DECODERS))
@pytest.mark.parametrize("n,m", [(6, 12), (10, 40), (30, 60)])
def test_exact_answers_give_back_every_bit(decoder, n, m):
    """E = 0 and full column rank: the bits are the unique solution of A x = a (both decoders)."""
    for seed in range(3):
        d, A = _instance(n, m, seed)
        if np.linalg.matrix_rank(A) < n:
            continue
        release = publish(d, A, BoundedError(0.0))
        got = decode(release.queries, release.answers, decoder)
        assert np.array_equal(got.bits, d), (decoder, n, m, seed)
        assert np.allclose(got.estimate, d, atol=1e-6)


def test_least_squares_is_numpys_lstsq_column_by_column():
    d, A = _instance(40, 160, 1)
    answers = (A @ d)[:, None] + np.random.default_rng(2).uniform(-5, 5, (160, 4))
    together = least_squares(A, answers)
    for k in range(4):
        ref = np.linalg.lstsq(A.astype(float), answers[:, k], rcond=None)[0]
        np.testing.assert_allclose(together[:, k], ref, rtol=0, atol=1e-10)
        np.testing.assert_allclose(least_squares(A, answers[:, k]), ref, rtol=0, atol=1e-10)
    # and the normal equations (A has full column rank here)
    Af = A.astype(float)
    np.testing.assert_allclose(together, np.linalg.solve(Af.T @ Af, Af.T @ answers), atol=1e-8)


def test_l1_program_is_optimal_against_every_database_of_a_small_instance():
    """The program's minimum is no larger than the L1 residual of any 0/1 database (all 2^10
    enumerated), and its reported estimate has the residual it claims."""
    n, m = 10, 25
    d, A = _instance(n, m, 3)
    a = A @ d + np.random.default_rng(4).uniform(-2, 2, m)
    x = l1_program(A, a)
    assert x.min() >= 0 and x.max() <= 1
    best = min(np.abs(A @ np.array(bits) - a).sum() for bits in itertools.product((0, 1), repeat=n))
    assert np.abs(A @ x - a).sum() <= best + 1e-6
    # a corner of the box is not optimal in general: the relaxation can only be better
    assert np.abs(A @ x - a).sum() <= np.abs(A @ d - a).sum() + 1e-6


def test_small_errors_recover_everything_and_large_ones_do_not():
    n = 100
    shares = recovered_shares(n, 4 * n, [BoundedError(t * math.sqrt(n)) for t in (0.0, 0.25, 4.0)], rng=5)
    assert shares[0] == 1.0 and shares[1] >= 0.98 and shares[2] < 0.75


def test_recovered_shares_agree_with_attack_for_a_single_policy():
    single = recovered_shares(60, 240, [BoundedError(3.0)], "l1", rng=7)
    # the same instance and noise by hand: secret, queries and noise from the same three streams
    data_rng, query_rng, noise_rng = dr.spawn_rngs(7, 3)
    d = secret_bits(60, data_rng)
    A = random_queries(60, 240, query_rng)
    unit = dr.UniformNoise.unit_sample(240, dr.spawn_rngs(noise_rng, 1)[0])
    x = l1_program(A, A @ d + 3.0 * unit)
    assert single[0] == np.mean((x > 0.5) == d)


def test_the_prediction_is_beside_the_simulation():
    """Least squares at E = √n, m = 4n: the closed form within 3 standard errors of 40 seeds."""
    n, m = 100, 400
    sigma = math.sqrt(n) / math.sqrt(3)
    shares = np.array([recovered_shares(n, m, [BoundedError(math.sqrt(n))], rng=s)[0] for s in range(40)])
    se = shares.std(ddof=1) / math.sqrt(shares.size)
    assert abs(shares.mean() - least_squares_prediction(n, m, sigma)) < 3 * se
    assert least_squares_prediction(n, m, 0.0) == 1.0
    with pytest.raises(ValueError, match="m must be larger than n"):
        least_squares_prediction(100, 101, 1.0)


def test_streams_are_independent_and_reproducible():
    a, b = attack(40, 80, LaplacePerQuery(1.0), rng=3), attack(40, 80, LaplacePerQuery(1.0), rng=3)
    assert np.array_equal(a.release.answers, b.release.answers) and np.array_equal(a.secret, b.secret)
    # the noise is not a function of the data: another noise seed, the same secret and queries
    data_rng, query_rng, _ = dr.spawn_rngs(3, 3)
    assert np.array_equal(a.secret, secret_bits(40, data_rng))
    assert np.array_equal(a.release.queries, random_queries(40, 80, query_rng))
    assert a.rms_error > 0


def test_policies_state_their_privacy_for_one_bit_changing():
    m = 400
    assert LaplacePerQuery(0.5).guarantee(m).epsilon == 200.0
    assert LaplacePerQuery(0.5).noise(m).b == 2.0
    budget = LaplaceBudget(2.0)
    assert budget.noise(m).b == 200.0 and budget.guarantee(m).per_query_epsilon == 2.0 / m
    g = GaussianBudget(1.0, 1e-5)
    # m answers of sensitivity 1 at sigma: rho = m / (2 sigma^2), which converts back to epsilon
    sigma = g.noise(m).sigma
    assert zcdp_epsilon(m / (2 * sigma ** 2), 1e-5) == pytest.approx(1.0, rel=1e-12)
    assert g.guarantee(m).delta == 1e-5 and "bit" in g.guarantee(m).neighbours
    assert BoundedError(3.0).guarantee(m).epsilon == math.inf and BoundedError(0.0).noise(m) is None
    assert BoundedError(3.0).rms_error(m) == pytest.approx(3.0 / math.sqrt(3))


def test_guess_bound_is_met_by_randomized_response_on_the_bit():
    """Warner's device at theta = e^eps / (1 + e^eps) on each bit is eps-DP for one bit and a
    guesser that believes the report is right exactly theta of the time: the bound is tight."""
    eps = 1.0
    theta = math.exp(eps) / (1 + math.exp(eps))
    assert guess_bound(eps) == pytest.approx(theta)
    rng = np.random.default_rng(0)
    d = rng.integers(0, 2, 200_000)
    reports = np.where(rng.random(d.size) < theta, d, 1 - d)
    right = np.mean(reports == d)
    assert abs(right - theta) < 4 * math.sqrt(theta * (1 - theta) / d.size)
    assert guess_bound(0.0) == 0.5 and guess_bound(math.inf) == 1.0
    assert guess_bound(1.0, 1e-5) > guess_bound(1.0)


def test_dp_answers_keep_the_attack_below_the_promise():
    """Total eps = 1 (Laplace split over m, and the Gaussian by zCDP): least squares recovers no
    more than e/(1 + e) of the bits, beyond sampling error (binomial, 30 seeds of 100 bits)."""
    n, m = 100, 400
    for policy in (LaplaceBudget(1.0), GaussianBudget(1.0, 1e-5)):
        shares = np.array([recovered_shares(n, m, [policy], rng=s)[0] for s in range(30)])
        bound = policy.guarantee(m).guess_bound()
        right = int(round(shares.sum() * n))
        assert stats.binomtest(right, shares.size * n, bound, alternative="greater").pvalue > 1e-3, policy


@pytest.mark.parametrize("call,match", [
    (lambda: secret_bits(0), "n must be an integer"),
    (lambda: secret_bits(dr.MAX_BITS + 1), "n must be an integer"),
    (lambda: random_queries(10, 10**6), "m must be an integer"),
    (lambda: random_queries(10, 2.5), "m must be an integer"),
    (lambda: publish([0, 1, 2], [[1, 1, 1]], BoundedError(0.0)), "bits must hold only 0/1"),
    (lambda: publish([0, 1], [[1, 1, 1]], BoundedError(0.0)), "3 columns but there are 2 bits"),
    (lambda: publish([0, 1], [1, 1], BoundedError(0.0)), "queries must be a 0/1 matrix"),
    (lambda: least_squares([[1, 0]], [1.0, 2.0]), "one count per query"),
    (lambda: least_squares([[1, 0]], [float("nan")]), "answers"),
    (lambda: l1_program([[1, 0]], [[1.0, 2.0]]), "answers"),
    (lambda: decode([[1, 0]], [1.0], "magic"), "decoder must be one of 'least-squares', 'l1'"),
    (lambda: BoundedError(-1.0), "bound"),
    (lambda: BoundedError(float("nan")), "bound"),
    (lambda: LaplacePerQuery(0.0), "epsilon"),
    (lambda: GaussianBudget(1.0, 1.0), "delta"),
    (lambda: guess_bound(-1.0), "epsilon"),
    (lambda: recovered_shares(10, 20, [], rng=0), "answerings must be a non-empty list"),
])
def test_bad_input_is_refused_with_its_name(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_a_policy_must_be_a_policy():
    with pytest.raises(TypeError, match="answering must be an answering policy"):
        attack(10, 20, 0.5)
    with pytest.raises(TypeError, match="answerings must be"):
        recovered_shares(10, 20, BoundedError(1.0))


def test_scipy_optimize_loads_highs_when_it_is_imported():
    """Why the L1 program runs wherever ``scipy.optimize`` imports (notebook 09 §7 says so for
    JupyterLite, which notebooks 07 and 08 already need it in): the module imports HiGHS's
    compiled core at import time, not when ``linprog`` is first called."""
    import subprocess
    import sys

    # the wrapper sits in scipy.optimize._highspy in SciPy 1.17, in scipy.optimize._highs in 1.13
    code = ("import sys, scipy.optimize; print(any(m.startswith('scipy.optimize._highs') "
            "and m.endswith('._highs_wrapper') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
