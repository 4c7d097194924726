"""Noise models, perturbation and value-class membership (Agrawal & Srikant 2000, Section 2)."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy import integrate, stats

from ppdm_edu import GaussianNoise, UniformNoise, discretize, noise_for_privacy, noise_for_snr, perturb
from ppdm_edu.randomization import NOISE_KINDS, Noise

NOISES = [UniformNoise(0.7), UniformNoise(25.0), GaussianNoise(0.3), GaussianNoise(12.0)]


# --- closed forms --------------------------------------------------------------------------------

def test_uniform_closed_forms():
    n = UniformNoise(2.0)
    assert n.alpha == 2.0 and n.scale == 2.0 and n.kind == "uniform"
    assert n.var == pytest.approx(4.0 / 3.0)
    assert n.std == pytest.approx(2.0 / math.sqrt(3.0))
    assert n.entropy() == pytest.approx(2.0)  # log2(2 alpha) bits
    assert n.privacy() == pytest.approx(4.0)  # Pi = 2 alpha
    assert n.interval_width(0.95) == pytest.approx(0.95 * 4.0)
    assert n.support() == (-2.0, 2.0)


def test_gaussian_closed_forms():
    n = GaussianNoise(3.0)
    assert n.sigma == 3.0 and n.scale == 3.0 and n.kind == "gaussian"
    assert n.var == pytest.approx(9.0)
    assert n.entropy() == pytest.approx(0.5 * math.log2(2 * math.pi * math.e * 9.0))
    assert n.privacy() == pytest.approx(math.sqrt(2 * math.pi * math.e) * 3.0)
    assert n.interval_width(0.95) == pytest.approx(3.919928 * 3.0, rel=1e-6)
    assert n.interval_width(0.999) == pytest.approx(6.581054 * 3.0, rel=1e-6)


@pytest.mark.parametrize("noise", NOISES, ids=repr)
def test_privacy_is_two_to_the_entropy(noise):
    assert noise.privacy() == pytest.approx(2.0 ** noise.entropy())
    # and the entropy agrees with scipy's (nats -> bits)
    ref = stats.uniform(-noise.scale, 2 * noise.scale) if noise.kind == "uniform" else stats.norm(0, noise.scale)
    assert noise.entropy() == pytest.approx(float(ref.entropy()) / math.log(2))


@pytest.mark.parametrize("noise", NOISES, ids=repr)
def test_pdf_cdf_var_are_one_distribution(noise):
    lo, hi = noise.support(1 - 1e-12)
    mass = integrate.quad(lambda t: float(noise.pdf(t)), lo, hi, points=[-noise.scale, noise.scale])[0]
    assert mass == pytest.approx(1.0, abs=1e-6)
    var = integrate.quad(lambda t: t * t * float(noise.pdf(t)), lo, hi, points=[-noise.scale, noise.scale])[0]
    assert var == pytest.approx(noise.var, rel=1e-5)
    grid = np.linspace(lo, hi, 7)
    assert np.all(np.diff(noise.cdf(grid)) >= 0)
    assert noise.cdf(0.0) == pytest.approx(0.5)
    assert noise.sf(grid) == pytest.approx(1 - noise.cdf(grid))


@pytest.mark.parametrize("noise", NOISES, ids=repr)
@pytest.mark.parametrize("c", [0.5, 0.95, 0.999])
def test_interval_width_holds_confidence(noise, c):
    half = noise.interval_width(c) / 2
    assert float(noise.cdf(half) - noise.cdf(-half)) == pytest.approx(c, abs=1e-9)


@pytest.mark.parametrize("noise", NOISES, ids=repr)
def test_samples_follow_the_model(noise):
    r = noise.sample(200_000, rng=0)
    assert r.shape == (200_000,)
    assert r.mean() == pytest.approx(0.0, abs=5 * noise.std / math.sqrt(r.size))
    assert r.var() == pytest.approx(noise.var, rel=0.02)
    cdf = lambda t: noise.cdf(t)  # noqa: E731
    assert stats.kstest(r[:5000], cdf).pvalue > 1e-3


def test_noise_objects_are_immutable():
    n = UniformNoise(1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        n.alpha = 2.0
    assert UniformNoise(1) == UniformNoise(1.0)
    assert isinstance(UniformNoise(np.float64(1.5)).alpha, float)
    assert set(NOISE_KINDS) == {"uniform", "gaussian", "laplace"}
    assert all(issubclass(c, Noise) for c in NOISE_KINDS.values())


@pytest.mark.parametrize("cls, name", [(UniformNoise, "alpha"), (GaussianNoise, "sigma")])
@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf"), -float("inf")])
def test_bad_parameters(cls, name, bad):
    with pytest.raises(ValueError, match=name):
        cls(bad)


@pytest.mark.parametrize("noise", NOISES, ids=repr)
@pytest.mark.parametrize("bad", [0.0, 1.0, -0.5, 1.5, float("nan")])
def test_bad_confidence(noise, bad):
    with pytest.raises(ValueError, match="confidence"):
        noise.interval_width(bad)


# --- perturb ---------------------------------------------------------------------------------------

def test_perturb_adds_noise_of_the_model():
    x = np.linspace(20, 90, 50_000)
    w = perturb(x, UniformNoise(5.0), rng=1)
    r = w - x
    assert r.min() >= -5.0 and r.max() <= 5.0
    assert r.var() == pytest.approx(25.0 / 3.0, rel=0.03)
    assert perturb(np.ones((3, 4)), GaussianNoise(1.0), rng=0).shape == (3, 4)


def test_perturb_seeds_reproduce():
    x = np.arange(100.0)
    g = GaussianNoise(2.0)
    assert np.array_equal(perturb(x, g, rng=7), perturb(x, g, rng=7))
    assert not np.array_equal(perturb(x, g, rng=7), perturb(x, g, rng=8))
    gen = np.random.default_rng(7)
    first, second = perturb(x, g, rng=gen), perturb(x, g, rng=gen)
    assert not np.array_equal(first, second)  # a Generator advances
    assert np.array_equal(first, perturb(x, g, rng=np.random.default_rng(7)))
    assert np.array_equal(UniformNoise(1.0).sample(5, rng=3), UniformNoise(1.0).sample(5, rng=3))


@pytest.mark.parametrize("bad, match", [([], "empty"), ([1.0, np.nan], "NaN"), ([np.inf], "NaN")])
def test_perturb_bad_values(bad, match):
    with pytest.raises(ValueError, match=match):
        perturb(bad, UniformNoise(1.0), rng=0)


def test_perturb_bad_noise_and_seed():
    with pytest.raises(TypeError, match="noise"):
        perturb([1.0], 0.5, rng=0)
    with pytest.raises(ValueError, match="seed"):
        perturb([1.0], UniformNoise(1.0), rng=-1)


# --- discretize (value-class membership) -----------------------------------------------------------

def test_discretize_equal_width():
    d = discretize([3.0, 14.0, 27.0, 30.0], width=10.0, origin=0.0)
    assert d.index.tolist() == [0, 1, 2, 3]
    assert d.lower.tolist() == [0.0, 10.0, 20.0, 30.0]
    assert d.upper.tolist() == [10.0, 20.0, 30.0, 40.0]
    assert d.midpoint.tolist() == [5.0, 15.0, 25.0, 35.0]
    assert np.all(d.width == 10.0)


def test_discretize_unequal_edges_like_the_salary_example():
    # "salary may be discretized into 10K intervals for lower values and 50K for higher values"
    edges = [20_000, 30_000, 40_000, 50_000, 100_000, 150_000]
    x = np.array([20_000, 25_000, 49_999, 50_000, 120_000, 150_000.0])
    d = discretize(x, edges=edges)
    assert d.index.tolist() == [0, 0, 2, 3, 4, 4]  # the last interval is closed
    assert np.all((d.lower <= x) & (x <= d.upper))


@pytest.mark.parametrize("kwargs, match", [
    ({}, "exactly one"),
    ({"edges": [0, 10], "width": 5.0}, "exactly one"),
    ({"width": 0.0}, "width"),
    ({"width": -1.0}, "width"),
    ({"edges": [0.0, 5.0, 5.0, 40.0]}, "increasing"),
    ({"edges": [0.0]}, "increasing"),
    ({"edges": [5.0, 10.0]}, "cover"),
    ({"width": 5.0, "origin": 10.0}, "origin"),
])
def test_discretize_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        discretize([3.0, 14.0, 27.0], **kwargs)


# --- noise_for_privacy and noise_for_snr -------------------------------------------------------------

@pytest.mark.parametrize("kind", ["uniform", "gaussian", "Gaussian"])
@pytest.mark.parametrize("level", [0.25, 0.5, 1.0, 2.0])
@pytest.mark.parametrize("confidence", [0.5, 0.95, 0.999])
def test_noise_for_privacy_round_trip(kind, level, confidence):
    value_range = 130_000.0
    noise = noise_for_privacy(kind, level, value_range, confidence=confidence)
    assert noise.kind == kind.lower()
    assert noise.interval_width(confidence) == pytest.approx(level * value_range, rel=1e-12)
    again = noise_for_privacy(kind, noise.interval_width(confidence) / value_range, value_range, confidence)
    assert again.scale == pytest.approx(noise.scale, rel=1e-12)


def test_noise_for_privacy_paper_convention():
    # 100 % privacy at 95 % confidence: Gaussian sigma = range / 3.92, uniform alpha = range / 1.9
    assert noise_for_privacy("gaussian", 1.0, 100.0).sigma == pytest.approx(100 / 3.919928, rel=1e-6)
    assert noise_for_privacy("uniform", 1.0, 100.0).alpha == pytest.approx(100 / 1.9)


@pytest.mark.parametrize("args, match", [
    (("cauchy", 1.0, 10.0), "unknown noise kind"),
    (("uniform", 0.0, 10.0), "privacy level"),
    (("uniform", -1.0, 10.0), "privacy level"),
    (("uniform", 1.0, 0.0), "value_range"),
    (("gaussian", 1.0, float("inf")), "value_range"),
    (("gaussian", 1.0, 10.0, 1.0), "confidence"),
])
def test_noise_for_privacy_errors(args, match):
    with pytest.raises(ValueError, match=match):
        noise_for_privacy(*args)


@pytest.mark.parametrize("kind", ["uniform", "gaussian"])
def test_noise_for_snr(kind):
    x = np.random.default_rng(0).normal(40, 13, 1000)
    for s in (0.5, 1.0, 1.7):
        noise = noise_for_snr(x, s, kind=kind)
        assert noise.kind == kind
        assert x.var() / noise.var == pytest.approx(s)


def test_noise_for_snr_errors():
    with pytest.raises(ValueError, match="constant"):
        noise_for_snr(np.ones(5), 1.0)
    with pytest.raises(ValueError, match="snr"):
        noise_for_snr(np.arange(5.0), 0.0)
    with pytest.raises(ValueError, match="kind"):
        noise_for_snr(np.arange(5.0), 1.0, kind="cauchy")


# --- the notebook's panel and plots ------------------------------------------------------------------

def test_panel_updates_and_messages():
    from ppdm_edu.widgets.randomization import RandomizationPanel

    panel = RandomizationPanel(level=100.0)
    assert panel.error is None and panel.image.value[:4] == b"\x89PNG"
    m = panel.result.measures
    assert m.privacy_level == pytest.approx(1.0)  # 100 % of the range at 95 % confidence
    assert panel.result.noise == noise_for_privacy("uniform", 1.0, 73.0)
    assert 0.0 < m.loss < 1.0 and m.pi_x_given_w < m.pi_x
    for kind in ("gaussian", "uniform"):
        panel.controls["kind"].value = kind
        assert panel.error is None and panel.result.noise.kind == kind
    panel.controls["attribute"].value = "salary (synthetic)"
    assert panel.error is None and panel.result.x.size == 10_000
    # more privacy -> less loss
    losses = []
    for level in (25.0, 100.0, 200.0):
        panel.controls["level"].value = level
        losses.append(panel.result.measures.loss)
    assert losses[0] > losses[1] > losses[2]
    # the extremes give a message, not a crash, and keep the last figure
    image = panel.image.value
    panel.controls["level"].value = 0.0
    assert isinstance(panel.error, ValueError) and "privacy level" in panel.message.value
    assert panel.image.value == image
    panel.controls["level"].value = 50.0
    panel.controls["confidence"].value = 1.0
    assert isinstance(panel.error, ValueError) and "confidence" in panel.message.value
    panel.controls["confidence"].value = 0.95
    assert panel.error is None and panel.message.value == ""


def test_panel_is_seeded():
    from ppdm_edu.widgets.randomization import RandomizationPanel

    a, b = RandomizationPanel(seed=3), RandomizationPanel(seed=3)
    assert np.array_equal(a.result.w, b.result.w)
    assert a.result.measures == b.result.measures
    assert not np.array_equal(a.result.w, RandomizationPanel(seed=4).result.w)


def test_histogram_edges_follow_the_recording_grid():
    from ppdm_edu.plots.randomization import _shared_edges

    x = np.random.default_rng(0).integers(17, 91, 5000).astype(float)
    w = perturb(x, UniformNoise(20.0), rng=1)
    edges = _shared_edges(x, w, 60)
    assert edges[0] <= w.min() and edges[-1] >= w.max()
    # every bin holds the same number of whole numbers: edges sit half-way between them
    assert np.allclose((edges - 0.5) % 1.0, 0.0)
    assert np.allclose(np.diff(edges), edges[1] - edges[0])


def test_plots_draw():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ppdm_edu.plots.randomization import (
        noise_label,
        plot_loss_vs_snr,
        plot_noise_intervals,
        plot_original_vs_perturbed,
        plot_table1_curves,
    )

    x = np.random.default_rng(0).normal(size=1000)
    ax = plot_original_vs_perturbed(x, x + 1.0, value_range=(-3, 3), unit="$")
    assert "\\$" in ax.get_xlabel()
    assert len(plot_table1_curves().lines) == 3 + 3 + 1
    assert len(plot_noise_intervals([UniformNoise(1.0), GaussianNoise(1.0)]).lines) == 2
    with pytest.raises(ValueError, match="noises"):
        plot_noise_intervals([UniformNoise(1.0), 2.0])
    assert len(plot_loss_vs_snr([0.5, 1.0], ours=[0.1, 0.2], paper=[0.1, 0.2]).lines) == 3
    assert noise_label(GaussianNoise(16581.9), "dollars") == "gaussian, σ = 16,582 dollars"
    assert noise_label(UniformNoise(19.21)) == "uniform, α = 19.2"
    plt.close("all")


@pytest.mark.parametrize("cls", [UniformNoise, GaussianNoise])
def test_constructors_from_width_and_variance(cls):
    assert cls.from_interval_width(3.0, 0.8).interval_width(0.8) == pytest.approx(3.0)
    assert cls.from_variance(2.5).var == pytest.approx(2.5)
    with pytest.raises(ValueError, match="width"):
        cls.from_interval_width(0.0)
    with pytest.raises(ValueError, match="confidence"):
        cls.from_interval_width(1.0, 1.0)
    with pytest.raises(ValueError, match="var must"):
        cls.from_variance(-1.0)


def test_attribute_sample_errors_and_seed():
    from ppdm_edu.widgets.randomization import attribute_sample

    with pytest.raises(ValueError, match="unknown attribute"):
        attribute_sample("height")
    a = attribute_sample("age (Adult)", 500, 1)
    assert np.array_equal(a, attribute_sample("age (Adult)", 500, 1)) and a.size == 500
    assert not a.flags.writeable
