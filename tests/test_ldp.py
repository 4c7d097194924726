"""Local differential privacy: RR as epsilon-LDP, rho1-to-rho2 breaches, Laplace vs Gaussian noise."""
import math

import numpy as np
import pytest
from scipy import integrate

from ppdm_edu import GaussianNoise, UniformNoise, randomized_response
from ppdm_edu.ldp import (
    LaplaceNoise,
    amplification,
    breach_limit,
    gaussian_delta,
    gaussian_epsilon,
    laplace_mechanism,
    laplace_noise_for_epsilon,
    log_likelihood_ratio,
    max_theta_without_breach,
    mechanism_table,
    rho_breach,
    rr_epsilon,
    rr_posterior,
    worst_case_epsilon,
)


# ---------------------------------------------------------------------------------------------
# Randomized response
# ---------------------------------------------------------------------------------------------
def test_rr_epsilon_is_the_shared_function_and_matches_the_closed_form():
    assert rr_epsilon is randomized_response.rr_epsilon  # reused, not re-implemented
    theta = np.array([0.01, 0.3, 0.5, 0.6, 0.75, 0.9, 0.99])
    np.testing.assert_allclose(rr_epsilon(theta), np.abs(np.log(theta / (1 - theta))))


@pytest.mark.parametrize("theta", [0.55, 0.7, 0.9, 0.2])
def test_rr_epsilon_is_the_largest_log_likelihood_ratio(theta):
    # transition matrix P(Y = y | X = x) of Warner's scheme
    P = np.array([[theta, 1 - theta], [1 - theta, theta]])
    worst = max(P[x, y] / P[x2, y] for x in range(2) for x2 in range(2) for y in range(2))
    assert math.log(worst) == pytest.approx(rr_epsilon(theta))
    assert amplification(theta) == pytest.approx(worst)


def test_rr_posterior_matches_simulation():
    rng = np.random.default_rng(0)
    n, prior, theta = 400_000, 0.1, 0.8
    x = rng.random(n) < prior
    keep = rng.random(n) < theta
    y = np.where(keep, x, ~x)
    for answer in (0, 1):
        observed = x[y == answer].mean()
        assert rr_posterior(prior, theta, answer=answer) == pytest.approx(observed, abs=0.004)


def test_breach_theorem_is_tight_for_randomized_response():
    rho1, rho2 = 0.05, 0.5
    assert breach_limit(rho1, rho2) == pytest.approx(19.0)
    t_star = max_theta_without_breach(rho1, rho2)
    assert t_star == pytest.approx(0.95)
    for theta in np.linspace(0.5, 0.999, 60):
        check = rho_breach(rho1, rho2, theta)
        # Theorem 1 (Evfimievski et al. 2003) rules out breaches when gamma < limit ...
        if check.guaranteed:
            assert not check.breach
        # ... and for one bit the posterior odds are exactly gamma x prior odds, so it is tight
        assert check.breach == (check.gamma >= check.limit * (1 - 1e-12))
    assert not rho_breach(rho1, rho2, t_star - 0.01).breach
    assert rho_breach(rho1, rho2, t_star + 0.01).breach


def test_breach_is_symmetric_in_theta():
    a, b = rho_breach(0.1, 0.6, 0.85), rho_breach(0.1, 0.6, 0.15)
    assert a.epsilon == pytest.approx(b.epsilon)
    assert a.upward_posterior == pytest.approx(b.upward_posterior)
    assert a.breach == b.breach


# ---------------------------------------------------------------------------------------------
# Laplace mechanism
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [0.0, 0.3, 1.0])
def test_laplace_mechanism_is_unbiased(value):
    n, eps = 200_000, 0.5
    y = laplace_mechanism(np.full(n, value), eps, (0, 1), rng=1)
    b = 1.0 / eps
    se = math.sqrt(2) * b / math.sqrt(n)
    assert abs(y.mean() - value) < 4 * se
    assert y.var() == pytest.approx(2 * b**2, rel=0.03)


def test_laplace_mechanism_mean_of_a_dataset_and_reproducibility():
    x = np.random.default_rng(2).uniform(20, 80, 100_000)
    y = laplace_mechanism(x, 1.0, (20, 80), rng=3)
    np.testing.assert_array_equal(y, laplace_mechanism(x, 1.0, (20, 80), rng=3))
    se = math.sqrt(2) * 60.0 / math.sqrt(x.size)
    assert abs(y.mean() - x.mean()) < 4 * se


@pytest.mark.parametrize("bounds", [(0.0, 1.0), (20.0, 80.0)])
def test_laplace_scale_is_the_value_range_over_epsilon(bounds):
    # the sensitivity of one value is the width of its range: the two ends are the neighbours
    eps, (lo, hi) = 0.5, bounds
    lap = laplace_noise_for_epsilon(eps, bounds)
    assert lap.scale == pytest.approx((hi - lo) / eps)
    w = np.linspace(lo - 30 * (hi - lo), hi + 30 * (hi - lo), 2001)
    assert np.abs(log_likelihood_ratio(lap, lo, hi, w)).max() == pytest.approx(eps)
    noise = laplace_mechanism(np.full(50_000, lo), eps, bounds, rng=4) - lo
    assert noise.std() == pytest.approx(math.sqrt(2) * (hi - lo) / eps, rel=0.05)


def test_laplace_privacy_loss_is_bounded_by_epsilon_and_gaussian_is_not():
    bounds, eps = (0.0, 1.0), 2.0
    lap = laplace_noise_for_epsilon(eps, bounds)
    w = np.linspace(-20, 21, 4001)
    loss = log_likelihood_ratio(lap, 0.0, 1.0, w)
    assert np.abs(loss).max() == pytest.approx(eps)  # reached outside [0, 1]
    assert np.all(np.abs(loss) <= eps + 1e-12)
    assert worst_case_epsilon(lap, bounds) == pytest.approx(eps)
    gauss = GaussianNoise(lap.std)  # same variance
    g = log_likelihood_ratio(gauss, 0.0, 1.0, w)
    # linear in w: (x1 - x2)(2 w - x1 - x2) / (2 sigma^2)
    np.testing.assert_allclose(g, -(2 * w - 1) / (2 * gauss.sigma**2))
    assert np.abs(g).max() > 10 * eps
    assert worst_case_epsilon(gauss, bounds) == math.inf


def test_uniform_noise_rules_inputs_out():
    uni = UniformNoise(0.6)
    loss = log_likelihood_ratio(uni, 0.0, 1.0, np.array([-0.55, 0.5, 1.55, 5.0]))
    assert loss[0] == math.inf and loss[2] == -math.inf  # only one input can produce w
    assert loss[1] == 0.0
    assert np.isnan(loss[3])  # impossible under both
    assert worst_case_epsilon(uni, (0, 1)) == math.inf


def test_laplace_noise_is_a_proper_noise_model():
    lap = LaplaceNoise(0.7)
    total, _ = integrate.quad(lambda r: float(lap.pdf(r)), -np.inf, np.inf)
    assert total == pytest.approx(1.0)
    for c in (0.5, 0.95, 0.999):
        half = lap.interval_width(c) / 2
        assert float(lap.cdf(half) - lap.cdf(-half)) == pytest.approx(c)
    assert float(lap.cdf(0.0)) == pytest.approx(0.5)
    entropy_bits, _ = integrate.quad(lambda r: -float(lap.pdf(r)) * math.log2(float(lap.pdf(r))),
                                     -60, 60)
    assert lap.entropy() == pytest.approx(entropy_bits, rel=1e-6)


# ---------------------------------------------------------------------------------------------
# Gaussian: only (epsilon, delta)
# ---------------------------------------------------------------------------------------------
def test_gaussian_delta_decreases_and_epsilon_inverts_it():
    deltas = [gaussian_delta(1.0, e, (0, 1)) for e in (0.0, 0.5, 1.0, 2.0, 4.0)]
    assert deltas == sorted(deltas, reverse=True) and deltas[-1] > 0
    eps = gaussian_epsilon(1.0, 1e-5, (0, 1))
    assert gaussian_delta(1.0, eps, (0, 1)) == pytest.approx(1e-5, rel=1e-4)


def test_analytic_gaussian_is_at_least_as_good_as_the_classical_bound():
    # Dwork & Roth (Thm A.1): sigma = Delta sqrt(2 ln(1.25 / delta)) / epsilon works for eps < 1
    eps, delta = 0.5, 1e-5
    sigma = math.sqrt(2 * math.log(1.25 / delta)) / eps
    assert gaussian_delta(sigma, eps, (0, 1)) <= delta


def test_gaussian_delta_matches_the_privacy_loss_distribution():
    # delta(eps) = P(L > eps) - e^eps P(L' < -eps); check by Monte Carlo on the privacy loss
    sigma, eps = 0.8, 1.0
    rng = np.random.default_rng(5)
    w = rng.normal(0.0, sigma, 2_000_000)  # outputs under x1 = 0
    loss = log_likelihood_ratio(GaussianNoise(sigma), 0.0, 1.0, w)
    mc = np.mean(np.clip(1.0 - np.exp(eps - loss), 0.0, None))  # E[(1 - e^(eps - L))_+]
    assert gaussian_delta(sigma, eps, (0, 1)) == pytest.approx(mc, abs=2e-3)


def test_mechanism_table_matches_closed_forms():
    t = mechanism_table(value_range=1.0, level=1.0)
    assert t.loc["gaussian (AS2000)", "95% interval (Table 1)"] == pytest.approx(1.0)
    assert t.loc["gaussian (AS2000)", "pure epsilon"] == math.inf
    assert t.loc["uniform (AS2000)", "pure epsilon"] == math.inf
    # Laplace with the variance of sigma = range / 3.92: b = sigma / sqrt 2, eps = range / b
    assert t.loc["laplace, same variance", "pure epsilon"] == pytest.approx(
        3.919927969 * math.sqrt(2), rel=1e-6)


# ---------------------------------------------------------------------------------------------
# Bad inputs
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("call, match", [
    (lambda: rr_epsilon(1.5), "between 0 and 1"),
    (lambda: rr_posterior(1.2, 0.7), "prior"),
    (lambda: rr_posterior(0.2, 0.7, answer=2), "answer"),
    (lambda: rho_breach(0.5, 0.2, 0.7), "smaller than rho2"),
    (lambda: rho_breach(0.0, 0.2, 0.7), "strictly between"),
    (lambda: rho_breach(0.1, 0.2, 1.7), "between 0 and 1"),
    (lambda: laplace_mechanism([0.5], 0.0, (0, 1)), "> 0"),
    (lambda: laplace_mechanism([0.5], 1.0, (1, 0)), "low < high"),
    (lambda: laplace_mechanism([1.5], 1.0, (0, 1)), "outside bounds"),
    (lambda: laplace_mechanism([np.nan], 1.0, (0, 1)), "NaN"),
    (lambda: laplace_mechanism([], 1.0, (0, 1)), "empty"),
    (lambda: LaplaceNoise(-1.0), "> 0"),
    (lambda: gaussian_epsilon(1.0, 0.0, (0, 1)), "strictly between"),
    (lambda: gaussian_delta(0.0, 1.0, (0, 1)), "> 0"),
    (lambda: log_likelihood_ratio(GaussianNoise(1), 0, 1, [np.inf]), "NaN or infinite"),
])
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call", [
    lambda: log_likelihood_ratio(1.0, 0, 1, [0.0]),
    lambda: worst_case_epsilon("gaussian", (0, 1)),
])
def test_a_wrong_noise_type_is_the_same_type_error_everywhere(call):
    with pytest.raises(TypeError, match="noise must be a Noise"):
        call()


@pytest.mark.parametrize("call", [
    lambda: rr_posterior(0.3, "0.7"),
    lambda: rr_posterior("0.3", 0.7),
    lambda: amplification("0.7"),
])
def test_text_theta_is_refused(call):
    with pytest.raises(TypeError, match="theta|prior"):
        call()


def test_laplace_noise_lives_in_randomization_and_ldp_reexports_it():
    from ppdm_edu import randomization
    assert LaplaceNoise is randomization.LaplaceNoise
    assert worst_case_epsilon(LaplaceNoise(0.25), (2, 3)) == pytest.approx(4.0)
