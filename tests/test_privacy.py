"""Privacy measures: Table 1 (Agrawal & Srikant 2000) and Pi(A), conditional privacy, privacy loss
(Agrawal & Aggarwal 2001, as restated in Liu et al. Section 3)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

from ppdm_edu import GaussianNoise, UniformNoise, perturb
from ppdm_edu.privacy import (
    PAPER_TABLE1,
    conditional_privacy,
    differential_entropy,
    entropy_privacy,
    gaussian_privacy_loss,
    interval_privacy,
    mutual_information,
    privacy_by_attribute,
    privacy_loss,
    privacy_measures,
    snr,
    table1,
)

N_BIG = 200_000  # the accuracy bar: within 3 % of the closed form at n = 200,000
SQRT_2PIE = math.sqrt(2 * math.pi * math.e)
LOSS_N01 = 1 - 2 ** -0.5  # X ~ N(0,1), W = X + N(0,1): I = 0.5 bit


def rel_err(estimate, exact):
    return abs(estimate - exact) / abs(exact)


# --- Table 1 ----------------------------------------------------------------------------------

def test_interval_privacy_table1_exact_values():
    t = interval_privacy()
    assert list(t.index) == ["discretization", "uniform", "gaussian"]
    assert list(t.columns) == ["unit", "50%", "95%", "99.9%"]
    assert list(t["unit"]) == ["W", "2α", "σ"]
    for method in ("discretization", "uniform"):
        assert t.loc[method, ["50%", "95%", "99.9%"]].tolist() == [0.5, 0.95, 0.999]
    g = t.loc["gaussian"]
    assert g["50%"] == pytest.approx(2 * 0.6744898, abs=1e-6)
    assert g["95%"] == pytest.approx(3.9199280, abs=1e-6)
    assert g["99.9%"] == pytest.approx(2 * 3.2905267, abs=1e-6)


def test_interval_privacy_any_confidence_and_single_method():
    t = interval_privacy("gaussian", 0.8)
    assert t.shape == (1, 2)
    assert t.loc["gaussian", "80%"] == pytest.approx(2 * stats.norm.ppf(0.9))
    # the Gaussian row is exactly the noise object's interval width for sigma = 1
    for c in (0.3, 0.5, 0.95, 0.999):
        assert interval_privacy("gaussian", c).iloc[0, 1] == pytest.approx(
            GaussianNoise(1.0).interval_width(c))
        assert interval_privacy("uniform", c).iloc[0, 1] == pytest.approx(
            UniformNoise(0.5).interval_width(c))


def test_table1_paper_values_beside_exact():
    t = table1()
    assert len(t) == 9
    assert set(t.columns) >= {"method", "confidence", "paper", "exact", "difference", "note"}
    for method, column in PAPER_TABLE1.items():
        for c, paper in column.items():
            row = t[(t.method == method) & (t.confidence == c)].iloc[0]
            assert row.paper == paper
            assert row.exact == pytest.approx(interval_privacy(method, c).iloc[0, 1])
    differs = t[t.note != "agrees"]
    # exactly two printed entries are not the exact value rounded: 1.34 (1.349) and 6.8 (6.58)
    assert sorted(zip(differs.method, differs.confidence)) == [("gaussian", 0.5), ("gaussian", 0.999)]
    row = t[(t.method == "gaussian") & (t.confidence == 0.999)].iloc[0]
    assert round(row.exact, 2) == 6.58
    assert "99.93%" in row.note  # 6.8 sigma actually holds 99.93 %


@pytest.mark.parametrize("bad", [0.0, 1.0, 1.5, -0.1, []])
def test_interval_privacy_bad_confidence(bad):
    with pytest.raises(ValueError, match="confidence"):
        interval_privacy("uniform", bad)


@pytest.mark.parametrize("bad", ["laplace", [], ["uniform", "nope"]])
def test_interval_privacy_bad_method(bad):
    with pytest.raises(ValueError, match="method"):
        interval_privacy(bad)


# --- Pi(A) = 2**h(A) ----------------------------------------------------------------------------

@pytest.mark.parametrize("a, offset", [(1.0, 0.0), (7.0, 20.0), (130_000.0, 20_000.0)])
def test_entropy_privacy_uniform_is_length(a, offset):
    # Liu et al. Section 3: U uniform on [0, a] has Pi(U) = a
    x = np.random.default_rng(0).uniform(offset, offset + a, N_BIG)
    assert rel_err(entropy_privacy(x), a) < 0.03


@pytest.mark.parametrize("sigma", [1.0, 12.5])
def test_entropy_privacy_gaussian_closed_form(sigma):
    x = np.random.default_rng(1).normal(3.0, sigma, N_BIG)
    assert rel_err(entropy_privacy(x), SQRT_2PIE * sigma) < 0.03
    assert rel_err(entropy_privacy(x), GaussianNoise(sigma).privacy()) < 0.03


def test_entropy_privacy_matches_noise_objects():
    rng = np.random.default_rng(2)
    for noise in (UniformNoise(3.0), GaussianNoise(2.0)):
        assert rel_err(entropy_privacy(noise.sample(N_BIG, rng)), noise.privacy()) < 0.03


def test_entropy_privacy_scales_with_the_data():
    # f_B(x) = 2 f_A(2x) offers half as much privacy as A (Liu et al. Section 3)
    x = np.random.default_rng(3).gamma(2.0, size=20_000)
    assert entropy_privacy(x / 2) == pytest.approx(entropy_privacy(x) / 2, rel=1e-9)


def test_entropy_privacy_integer_data_uses_grid_cells():
    # whole numbers 0..99 with equal probability: each stands for its unit cell -> Pi = 100
    x = np.random.default_rng(4).integers(0, 100, N_BIG).astype(float)
    assert rel_err(entropy_privacy(x), 100.0) < 0.03


def test_differential_entropy_units():
    x = np.random.default_rng(5).normal(size=50_000)
    bits = differential_entropy(x)
    assert differential_entropy(x, base=math.e) == pytest.approx(bits * math.log(2))
    assert 2 ** bits == pytest.approx(entropy_privacy(x))


@pytest.mark.parametrize("bad, match", [
    ([1.0], "at least 2"),
    ([2.0, 2.0, 2.0], "all equal"),
    ([1.0, np.nan, 2.0], "NaN"),
    ([], "empty"),
    (np.ones((3, 2)), "one-dimensional"),
])
def test_differential_entropy_bad_samples(bad, match):
    with pytest.raises(ValueError, match=match):
        differential_entropy(bad)


@pytest.mark.parametrize("base", [1, 0, -2, float("inf"), True])
def test_bad_base(base):
    x = np.arange(10.0)
    with pytest.raises(ValueError, match="base"):
        differential_entropy(x, base=base)
    with pytest.raises(ValueError, match="base"):
        privacy_loss(x, x, base=base)


# --- I(X;W), conditional privacy, privacy loss -------------------------------------------------

@pytest.fixture(scope="module")
def gaussian_pair():
    rng = np.random.default_rng(10)
    x = rng.normal(size=N_BIG)
    return x, x + rng.normal(size=N_BIG)


def test_privacy_loss_gaussian_knn(gaussian_pair):
    x, w = gaussian_pair
    assert rel_err(privacy_loss(x, w), LOSS_N01) < 0.03


def test_privacy_loss_gaussian_known_noise(gaussian_pair):
    x, w = gaussian_pair
    assert rel_err(privacy_loss(x, w, noise=GaussianNoise(1.0)), LOSS_N01) < 0.03


def test_conditional_privacy_gaussian(gaussian_pair):
    # h(X|W) for X ~ N(0,1), W = X + N(0,1): X|W is N(W/2, 1/2) -> Pi = sqrt(2 pi e / 2)
    x, w = gaussian_pair
    exact = SQRT_2PIE * math.sqrt(0.5)
    assert rel_err(conditional_privacy(x, w), exact) < 0.03
    assert rel_err(conditional_privacy(x, w, noise=GaussianNoise(1.0)), exact) < 0.03


@pytest.mark.parametrize("snr_value", [0.5, 1.7])
def test_privacy_loss_follows_gaussian_closed_form(snr_value):
    rng = np.random.default_rng(11)
    x = rng.normal(size=N_BIG // 4)
    w = x + rng.normal(0, math.sqrt(1 / snr_value), x.size)
    assert rel_err(privacy_loss(x, w), gaussian_privacy_loss(snr_value)) < 0.03


def test_mutual_information_discrete_x_against_integral():
    # X in {0, 1} (a point mass, like capital_gain = 0), W = X + N(0,1): I = h(W) - h(N)
    rng = np.random.default_rng(12)
    x = rng.integers(0, 2, N_BIG).astype(float)
    w = x + rng.normal(size=N_BIG)

    def f(t):
        return 0.5 * (stats.norm.pdf(t) + stats.norm.pdf(t - 1))

    h_w = integrate.quad(lambda t: -f(t) * math.log2(f(t)), -12, 13)[0]
    exact = h_w - 0.5 * math.log2(2 * math.pi * math.e)
    assert rel_err(mutual_information(x, w), exact) < 0.03


def test_mutual_information_exact_duplicates_are_handled():
    # discretized data: many identical (x, w) pairs (eps = 0); I(X;X) for X uniform on 4 values = 2 bits
    x = np.random.default_rng(13).integers(0, 4, 20_000).astype(float)
    assert mutual_information(x, x) == pytest.approx(2.0, rel=0.03)


def test_independent_data_lose_nothing():
    rng = np.random.default_rng(14)
    x, w = rng.normal(size=50_000), rng.normal(size=50_000)
    assert 0.0 <= privacy_loss(x, w) < 0.01


def test_constant_data_carry_no_information():
    x = np.full(100, 3.0)
    w = np.random.default_rng(15).normal(size=100)
    assert mutual_information(x, w) == 0.0
    assert privacy_loss(x, w) == 0.0


def test_privacy_loss_units_and_invariance():
    rng = np.random.default_rng(16)
    x = rng.normal(size=20_000)
    w = x + rng.normal(size=20_000)
    i_bits = mutual_information(x, w)
    assert mutual_information(x, w, base=math.e) == pytest.approx(i_bits * math.log(2))
    # the loss is unit-free: 1 - 2**-I_bits = 1 - e**-I_nats
    assert privacy_loss(x, w) == pytest.approx(1 - math.exp(-i_bits * math.log(2)))
    # the units mix-up hypothesis (I in nats put in 2**-I) gives a smaller number
    assert privacy_loss(x, w, base=math.e) < privacy_loss(x, w)
    # I is invariant to rescaling either variable (e.g. dollars vs thousands of dollars)
    # (equal up to floating-point ties at the neighbour radius)
    assert privacy_loss(1000 * x + 5, w / 3) == pytest.approx(privacy_loss(x, w), rel=1e-4)
    # deterministic: same input, same number
    assert privacy_loss(x, w) == privacy_loss(x, w)


@pytest.mark.parametrize("kwargs, match", [
    ({"x": [1.0, 2.0, 3.0], "w": [1.0, 2.0]}, "same length"),
    ({"x": np.arange(10.0), "w": np.arange(10.0), "k": 0}, "k"),
    ({"x": np.arange(10.0), "w": np.arange(10.0), "k": 2.5}, "k"),
    ({"x": np.arange(4.0), "w": np.arange(4.0), "k": 3}, "at least"),
    ({"x": [1.0, np.inf, 2.0, 3.0, 4.0, 5.0], "w": np.arange(6.0)}, "NaN or infinite"),
])
def test_mutual_information_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        mutual_information(**kwargs)
    with pytest.raises(ValueError, match=match):
        privacy_loss(**kwargs)


# --- SNR and the combined measures ------------------------------------------------------------

def test_snr_with_model_or_values():
    x = np.random.default_rng(20).normal(0, 3.0, 10_000)
    assert snr(x, GaussianNoise(3.0)) == pytest.approx(x.var() / 9.0)
    r = np.random.default_rng(21).uniform(-1, 1, 500)
    assert snr(x, r) == pytest.approx(x.var() / r.var())
    with pytest.raises(ValueError, match="constant"):
        snr(x, np.zeros(10))
    with pytest.raises(ValueError, match="NaN"):
        snr([1.0, np.nan], GaussianNoise(1.0))


def test_gaussian_privacy_loss_closed_form():
    assert gaussian_privacy_loss(1.0) == pytest.approx(LOSS_N01)
    assert gaussian_privacy_loss(0.0) == 0.0
    with pytest.raises(ValueError, match="snr"):
        gaussian_privacy_loss(-1.0)


def test_privacy_measures_are_consistent():
    rng = np.random.default_rng(22)
    x = rng.uniform(0, 10, 10_000)
    noise = GaussianNoise(2.0)
    w = perturb(x, noise, rng=rng)
    m = privacy_measures(x, w, noise, confidence=0.95, value_range=10.0)
    assert m.interval_width == pytest.approx(noise.interval_width(0.95))
    assert m.privacy_level == pytest.approx(m.interval_width / 10.0)
    assert m.pi_noise == pytest.approx(noise.privacy())
    assert m.loss == pytest.approx(1 - 2 ** -m.mutual_information)
    assert m.pi_x_given_w == pytest.approx(m.pi_x * (1 - m.loss))
    assert m.snr == pytest.approx(snr(x, noise))
    fast = privacy_measures(x, w, noise, estimator="known-noise")
    assert fast.loss == pytest.approx(m.loss, abs=0.03)
    with pytest.raises(ValueError, match="estimator"):
        privacy_measures(x, w, noise, estimator="bins")
    with pytest.raises(ValueError, match="value_range"):
        privacy_measures(x, w, noise, value_range=0.0)
    with pytest.raises(TypeError, match="noise must be a Noise"):
        privacy_measures(x, w, "gaussian")
    with pytest.raises(TypeError, match="noise must be a Noise"):
        mutual_information(np.arange(10.0), np.arange(10.0), noise=1.0)
    with pytest.raises(ValueError, match="value_range"):  # inf used to report privacy level 0
        privacy_measures(x, w, noise, value_range=float("inf"))


def test_results_are_plain_floats_and_frames():
    x = np.random.default_rng(23).normal(size=1000)
    assert type(entropy_privacy(x)) is float
    assert type(privacy_loss(x, x + 1.0 * x[::-1])) is float
    assert isinstance(interval_privacy(), pd.DataFrame)


def test_privacy_by_attribute():
    rng = np.random.default_rng(30)
    X = pd.DataFrame({"a": rng.normal(size=20_000), "b": rng.uniform(0, 5, 20_000)})
    t = privacy_by_attribute(X, [1.0, 0.5], rng=31)
    assert list(t.index) == ["a", "b"]
    assert t.loc["a", "loss"] == pytest.approx(gaussian_privacy_loss(1.0), rel=0.05)
    assert t.loc["b", "noise_scale"] == pytest.approx(math.sqrt(X["b"].var(ddof=0) / 0.5))
    assert np.allclose(t["loss"], 1 - 2.0 ** -t["mi_bits"])
    assert np.allclose(t["loss_if_nats"], 1 - 2.0 ** -(t["mi_bits"] * math.log(2)))
    pd.testing.assert_frame_equal(t, privacy_by_attribute(X, [1.0, 0.5], rng=31))  # seeded
    with pytest.raises(ValueError, match="one per column"):
        privacy_by_attribute(X, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="DataFrame"):
        privacy_by_attribute(X.to_numpy(), 1.0)
    with pytest.raises(ValueError, match="kind"):
        privacy_by_attribute(X, 1.0, kind="cauchy")
    lap = privacy_by_attribute(X, 1.0, kind="laplace", rng=31)  # Laplace is a noise kind now
    assert lap.loc["b", "noise_scale"] == pytest.approx(math.sqrt(X["b"].var(ddof=0) / 2.0))


def test_mutual_information_grid_data():
    # 73 whole-number "ages" with Gaussian noise (sigma = 18.6, 100 % privacy): exact
    # I = h(W) - h(N) by integration; the ties of grid data must not bias the estimate
    values, sigma = np.arange(73.0), 18.6

    def f(t):
        return np.mean(stats.norm.pdf(t - values, scale=sigma))

    h_w = integrate.quad(lambda t: -f(t) * math.log2(f(t)), -100, 180, limit=400)[0]
    exact = h_w - 0.5 * math.log2(2 * math.pi * math.e * sigma**2)
    rng = np.random.default_rng(40)
    x = rng.integers(0, 73, N_BIG).astype(float)
    w = x + rng.normal(0, sigma, x.size)
    assert rel_err(mutual_information(x, w), exact) < 0.03
    assert rel_err(mutual_information(x, w, noise=GaussianNoise(sigma)), exact) < 0.03
    # the spread over grid cells is seeded
    assert mutual_information(x, w, rng=5) == mutual_information(x, w, rng=5)


def test_entropy_with_far_outliers_keeps_every_value():
    # a tiny IQR and one far outlier: the bin count is capped, and no value falls off the edges
    x = np.r_[np.random.default_rng(50).normal(0, 1e-3, 10_000), 1e6]
    assert np.isfinite(differential_entropy(x))
    xi = np.r_[np.random.default_rng(51).integers(0, 3, 10_000), 10**7].astype(float)
    assert np.isfinite(differential_entropy(xi))
    from ppdm_edu.privacy import _histogram_edges

    for v in (x, xi):
        edges = _histogram_edges(v)
        assert edges[0] <= v.min() and edges[-1] >= v.max() and edges.size <= 100_001


def test_miller_madow_correction_removes_the_histogram_bias():
    # the plug-in histogram entropy is biased low by about (B - 1) / (2n) nats (Miller & Madow
    # 1955); with the correction the mean over 300 samples of N(0, 1) at n = 1,000 is within
    # 0.005 nats of 1/2 log(2 pi e) (about 4 standard errors of that mean), where the
    # uncorrected plug-in is ~0.013 below it
    exact = 0.5 * math.log(2 * math.pi * math.e)
    estimates = [differential_entropy(np.random.default_rng(seed).normal(size=1_000), base=math.e)
                 for seed in range(300)]
    assert abs(np.mean(estimates) - exact) < 0.005


def test_no_information_is_reported_as_zero_not_as_a_negative_estimate():
    # I(X;W) = 0 and an unbiased estimate of it falls below 0 about half the time; I >= 0, so
    # those are reported as 0. k-NN: X and W independent. Known noise (h(W) - h(R)): X is a
    # constant, so W = X + R says nothing about it
    noise = GaussianNoise(1.0)
    knn, known = [], []
    for seed in range(20):
        rng = np.random.default_rng(seed)
        x, w = rng.normal(size=500), rng.normal(size=500)
        knn.append(mutual_information(x, w))
        x = np.full(1_000, 3.0)
        known.append(mutual_information(x, x + noise.sample(1_000, rng), noise=noise))
    for estimates in (knn, known):
        assert min(estimates) == 0.0 and all(i >= 0.0 for i in estimates), estimates


def test_miller_madow_correction_is_b_minus_one_over_2n():
    # the correction itself, exactly: (B - 1) / (2n) nats for B occupied bins (Miller & Madow
    # 1955), computed beside the estimator from the same bins
    from ppdm_edu.privacy import _histogram_edges

    x = np.random.default_rng(7).normal(size=400)
    counts, edges = np.histogram(x, bins=_histogram_edges(x))
    keep = counts > 0
    p = counts[keep] / x.size
    plug_in = float(-np.sum(p * np.log(p / np.diff(edges)[keep])))
    expected = plug_in + (np.count_nonzero(keep) - 1) / (2 * x.size)
    assert differential_entropy(x, base=math.e) == pytest.approx(expected, rel=0, abs=1e-12)
