"""Noise objects carry their math; validation helpers; bounded work (issues 13 and 14)."""
import math
import warnings

import numpy as np
import pytest
from scipy import integrate, stats

from ppdm_edu._validation import check_bounds, check_integer, check_probabilities, check_size
from ppdm_edu.randomization import (
    GaussianNoise,
    LaplaceNoise,
    UniformNoise,
    check_noise,
    check_noise_mapping,
    discretize,
    noise_for_privacy,
    noise_for_snr,
)
from ppdm_edu.randomized_response import (
    check_theta,
    rr_epsilon,
    sample_size_factor,
    warner_estimate,
    warner_std_error,
)
from ppdm_edu.reconstruction import (
    MAX_ITER,
    chi2_threshold,
    reconstruct,
    reconstruct_counts,
    response_matrix,
    total_variation,
)

NOISES = [UniformNoise(1.5), GaussianNoise(0.7), LaplaceNoise(0.4)]
SCIPY = {"uniform": lambda n: stats.uniform(-n.alpha, 2 * n.alpha),
         "gaussian": lambda n: stats.norm(0, n.sigma),
         "laplace": lambda n: stats.laplace(0, n.b)}


@pytest.mark.parametrize("noise", NOISES, ids=lambda n: n.kind)
def test_noise_methods_agree_with_scipy(noise):
    ref = SCIPY[noise.kind](noise)
    x = np.linspace(-3, 3, 41)
    np.testing.assert_allclose(noise.cdf(x), ref.cdf(x), atol=1e-12)
    np.testing.assert_allclose(noise.sf(x), ref.sf(x), atol=1e-12)
    inside = np.abs(x) < (noise.alpha if noise.kind == "uniform" else np.inf)
    np.testing.assert_allclose(noise.logpdf(x[inside]), ref.logpdf(x[inside]), atol=1e-12)
    q = np.array([0.01, 0.3, 0.5, 0.9])
    np.testing.assert_allclose(noise.ppf(q), ref.ppf(q), atol=1e-12)
    assert noise.var == pytest.approx(ref.var())
    assert noise.entropy() == pytest.approx(ref.entropy() / math.log(2))
    lo, hi = noise.support(0.9)
    assert ref.cdf(hi) - ref.cdf(lo) >= 0.9 - 1e-12
    # G(t) = int_{-inf}^t F(u) du
    for t in (-1.0, 0.2, 2.5):
        val = integrate.quad(ref.cdf, -40, t, limit=200)[0]
        assert noise.cdf_integral(t) == pytest.approx(val, abs=1e-7)
    a, b = np.array([-0.5, 0.1]), np.array([0.3, 2.0])
    np.testing.assert_allclose(noise.interval_probability(a, b), ref.cdf(b) - ref.cdf(a), atol=1e-12)


def test_interval_probability_is_accurate_in_the_right_tail():
    n = GaussianNoise(1.0)
    p = n.interval_probability(10.0, 11.0)  # 1 - 1 in the cdf form gives 0
    assert p == pytest.approx(stats.norm.sf(10) - stats.norm.sf(11), rel=1e-10)
    assert p > 0


@pytest.mark.parametrize("noise", NOISES, ids=lambda n: n.kind)
@pytest.mark.parametrize("method", ["pdf", "logpdf", "cdf", "sf", "cdf_integral"])
def test_nan_input_raises_naming_x(noise, method):
    with pytest.raises(ValueError, match="NaN"):
        getattr(noise, method)([0.0, np.nan])


def test_laplace_is_a_noise_kind_everywhere():
    n = noise_for_privacy("laplace", 1.0, 10.0)
    assert isinstance(n, LaplaceNoise) and n.interval_width(0.95) == pytest.approx(10.0)
    x = np.arange(20.0)
    assert noise_for_snr(x, 2.0, kind="laplace").var == pytest.approx(x.var() / 2.0)
    assert LaplaceNoise(0.5).ldp_epsilon(1.0) == pytest.approx(2.0)
    assert GaussianNoise(1.0).ldp_epsilon(1.0) == math.inf
    assert [n.scale_symbol for n in NOISES] == ["α", "σ", "b"]


def test_absurd_sizes_are_refused_before_allocating():
    with pytest.raises(ValueError, match="at most"):
        GaussianNoise(1.0).sample(10**12)
    with pytest.raises(ValueError, match="at most"):
        GaussianNoise(1.0).sample((10**6, 10**6))
    with pytest.raises(ValueError, match="width"):
        discretize([0.0, 1.0], width=1e-12)
    with pytest.raises(ValueError, match="size"):
        GaussianNoise(1.0).sample(-1)


def test_reconstruct_iterations_are_bounded():
    w = GaussianNoise(1.0).sample(200, rng=0)
    with pytest.raises(ValueError, match="max_iter"):
        reconstruct(w, GaussianNoise(1.0), max_iter=10**12, tol=0)
    rec = reconstruct(w, GaussianNoise(1.0), n_intervals=10, max_iter=50, tol=0)
    assert rec.n_iter == 50 and rec.history.shape == (51, 10)
    assert MAX_ITER == 100_000


def test_reconstruct_counts_checks_n_and_survives_a_subnormal_matrix():
    edges, w_edges = [0, 1, 2, 3], [-1, 0, 1, 2, 3, 4]
    A = response_matrix(edges, UniformNoise(0.5), w_edges, method="em")
    with pytest.raises(ValueError, match="n must be > 0"):
        reconstruct_counts([125, 750, 125, 0, 0], A, edges=edges, n=-5)
    normal = reconstruct_counts([125, 750, 125, 0, 0], A, edges=edges, method="em", tol=0, max_iter=200)
    tiny = reconstruct_counts([125, 750, 125, 0, 0], A * 1e-310, edges=edges, method="em", tol=0,
                              max_iter=200)
    np.testing.assert_allclose(tiny.probabilities, normal.probabilities, atol=1e-6)
    assert tiny.probabilities[0] > 0.99


def test_chi2_threshold_and_total_variation_refuse_nonsense():
    with pytest.raises(ValueError, match="m"):
        chi2_threshold(2.7)
    with pytest.raises(ValueError, match="non-negative"):
        total_variation([-0.5, 1.5], [0.5, 0.5])
    with pytest.raises(ValueError, match="sum to 1"):
        total_variation([0.5, 0.7], [0.5, 0.5])


def test_warner_estimate_of_one_answer_is_honest():
    with pytest.warns(RuntimeWarning, match="n = 1"):
        res = warner_estimate([1], 0.6)
    assert res.estimate_clipped == 1.0
    assert res.std_error > 1.0  # not 0: one answer through a theta = 0.6 device says little
    assert (res.ci_low, res.ci_high) == (0.0, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warner_estimate(np.r_[np.ones(40), np.zeros(60)].astype(int), 0.8)  # no warning


def test_warner_std_error_and_text_theta():
    with pytest.raises(ValueError, match="pi"):
        warner_std_error(1.5, 0.7, 10)
    for call in (lambda: rr_epsilon("0.7"), lambda: sample_size_factor(0.3, "0.7"),
                 lambda: warner_std_error(0.3, "0.7", 10), lambda: check_theta("0.7")):
        with pytest.raises(TypeError):
            call()


def test_validation_helpers():
    assert check_integer(4.0, "k", minimum=1) == 4
    with pytest.raises(TypeError, match="k must be an integer"):
        check_integer(True, "k")
    with pytest.raises(TypeError):
        check_integer("3", "k")
    with pytest.raises(ValueError, match="k must be an integer between 1 and 3, got 2.5"):
        check_integer(2.5, "k", minimum=1, maximum=3)
    with pytest.raises(ValueError, match="low < high"):
        check_bounds((1, 1))
    with pytest.raises(ValueError, match="singular"):
        check_theta(0.5, allow_half=False)
    assert check_theta(0.5) == 0.5
    with pytest.raises(ValueError):
        check_theta(float("nan"))
    with pytest.raises(ValueError, match="sum to 1"):
        check_probabilities([0.2, 0.2])
    with pytest.raises(TypeError, match="noise must be a Noise"):
        check_noise("gaussian")
    g = GaussianNoise(1.0)
    assert check_noise_mapping(g, 2) == {0: g, 1: g}
    assert check_noise_mapping({"b": g}, 2, ["a", "b"], require_all=False) == {1: g}
    with pytest.raises(ValueError, match="no entry"):
        check_noise_mapping({"b": g}, 2, ["a", "b"])
    with pytest.raises(ValueError, match="unknown column"):
        check_noise_mapping({"c": g}, 2, ["a", "b"])
    with pytest.raises(TypeError, match=r"noise\['a'\] must be a Noise"):
        check_noise_mapping({"a": 1.0}, 1, ["a"])
    with pytest.raises(ValueError, match="at most 1,000,000,000"):
        check_size(2**31, "size")


def test_no_module_branches_on_the_noise_type():
    import pathlib
    import re
    root = pathlib.Path(__file__).resolve().parents[1] / "ppdm_edu"
    pattern = re.compile(r"isinstance\([^)]*,\s*\(?\s*(GaussianNoise|UniformNoise|LaplaceNoise)")
    offenders = [f"{p.relative_to(root)}:{i}" for p in root.rglob("*.py")
                 for i, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    mine = [o for o in offenders if o.split(":")[0] in {
        "randomization.py", "privacy.py", "ldp.py", "attacks.py",
        "posterior.py", "randomized_response.py", "_validation.py"} or o.startswith("reconstruction/")]
    assert mine == []
