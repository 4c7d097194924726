"""The measured trade-off curve, the curves ε, (ε, δ) and μ-GDP promise, and its figure."""
from __future__ import annotations

import dataclasses
import math

import matplotlib
import numpy as np
import pytest
from scipy import stats

from ppdm_edu.audit.curve import TradeoffCurve, epsilon_delta_tradeoff, gdp_tradeoff, tradeoff_curve
from ppdm_edu.mechanisms import GaussianNoiseMechanism, WarnerRR
from ppdm_edu.plots.alt_text import figure_description
from ppdm_edu.plots.audit import describe_tradeoff_curve, plot_tradeoff_curve

matplotlib.use("Agg")


def test_warner_curve_has_its_one_corner_inside_the_bands():
    curve = tradeoff_curve(WarnerRR(0.75), 1, 0, trials=40_000, rng=1)
    assert isinstance(curve, TradeoffCurve)
    assert curve.alpha.tolist()[0] == 0 and curve.beta.tolist()[0] == 1
    assert curve.alpha[-1] == 1 and curve.beta[-1] == 0
    assert curve.alpha.size == 3  # two outputs: one non-trivial test, "say 0"
    assert curve.alpha_low[1] <= 0.25 <= curve.alpha_high[1]
    assert curve.beta_low[1] <= 0.25 <= curve.beta_high[1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        curve.score = "x"


def test_gaussian_curve_follows_its_gdp_promise():
    mech = GaussianNoiseMechanism.for_epsilon(1.0)
    curve = tradeoff_curve(mech, 0.0, 1.0, trials=50_000, rng=2)
    assert np.all(np.diff(curve.alpha) >= 0) and np.all(np.diff(curve.beta) <= 0)
    promised = gdp_tradeoff(curve.alpha, 1.0 / mech.noise.sigma)
    inner = (curve.alpha > 0.01) & (curve.alpha < 0.99)
    assert np.abs(curve.beta[inner] - promised[inner]).max() < 0.02


def test_promised_curves():
    a = np.array([0.0, 0.1, 0.5, 1.0])
    assert epsilon_delta_tradeoff(a, 0.0).tolist() == pytest.approx((1 - a).tolist())  # no leak: guessing
    assert epsilon_delta_tradeoff(a, math.inf).tolist() == [0, 0, 0, 0]
    # delta lowers the whole curve by delta at alpha = 0
    assert epsilon_delta_tradeoff([0.0], 1.0, 0.1)[0] == pytest.approx(0.9)
    f = epsilon_delta_tradeoff(a, 1.0)
    assert f[1] == pytest.approx(max(1 - math.e * 0.1, (1 - 0.1) / math.e))
    # mu-GDP is the trade-off of N(0, 1) against N(mu, 1): the test "output >= z"
    z, mu = 1.3, 0.7
    assert gdp_tradeoff([stats.norm.sf(z)], mu)[0] == pytest.approx(stats.norm.cdf(z - mu))
    with pytest.raises(ValueError, match="alpha"):
        gdp_tradeoff([1.5], 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        epsilon_delta_tradeoff([0.5], -1.0)


def test_a_false_claim_shows_as_points_below_the_promise():
    curve = tradeoff_curve(WarnerRR(0.9), 1, 0, trials=20_000, rng=0)
    text = describe_tradeoff_curve(curve, epsilon=math.log(3))
    assert "1 with their whole 95% band below" in text, text
    honest = describe_tradeoff_curve(curve, epsilon=math.log(9) + 0.2)
    assert "0 with their whole 95% band below" in honest, honest


def test_plot_draws_promises_and_alt_text_from_the_data():
    mech = GaussianNoiseMechanism.for_epsilon(1.0)
    curve = tradeoff_curve(mech, 0.0, 1.0, trials=5_000, rng=0)
    ax = plot_tradeoff_curve(curve, epsilon=1.0, delta=1e-5, mu=1.0 / mech.noise.sigma)
    labels = [line.get_label() for line in ax.get_lines()]
    assert any(lbl.startswith("ε = 1, δ = 1e-05") for lbl in labels)
    assert any(lbl.startswith("μ = 0.268") for lbl in labels)
    # the two promises differ in line style, not only in colour
    styles = {line.get_label(): line.get_linestyle() for line in ax.get_lines()}
    assert len({styles[lbl] for lbl in labels}) == len(labels)
    text = figure_description(ax.figure)
    assert f"{curve.n_estimation:,} runs per input" in text and "GDP promises" in text
    matplotlib.pyplot.close(ax.figure)
