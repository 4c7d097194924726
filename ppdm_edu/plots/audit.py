"""Figures for :mod:`ppdm_edu.audit`: the audited bound against trials, and the trade-off curve."""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from ..audit.curve import TradeoffCurve, epsilon_delta_tradeoff, gdp_tradeoff
from .alt_text import set_description
from .palette import OKABE_ITO

__all__ = ["plot_bound_vs_trials", "plot_tradeoff_curve", "describe_tradeoff_curve"]


def plot_bound_vs_trials(trials, bounds, claimed=None, ax=None):
    """Lower bound on ε against the number of runs, one line per mechanism (log x axis).

    Parameters
    ----------
    trials : array_like
        Runs per input (the x axis).
    bounds : dict
        ``{mechanism name: sequence of lower bounds, one per entry of trials}``.
    claimed : dict, optional
        ``{mechanism name: the ε it claims}``, drawn as dashed lines in the same colour
        (``None`` or ``inf``: no finite claim, nothing drawn).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
    trials = np.asarray(trials, dtype=float)
    claimed = claimed or {}
    for name, values in bounds.items():
        (line,) = ax.plot(trials, values, marker="o", label=name)
        eps = claimed.get(name)
        if eps is not None and np.isfinite(eps):
            ax.axhline(eps, color=line.get_color(), linestyle="--", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlabel("runs per input (trials)")
    ax.set_ylabel("audited lower bound on ε")
    ax.set_title("Dashed: the ε each mechanism claims", fontsize="medium")
    ax.legend(loc="upper left", fontsize="small", frameon=False)
    return ax


def _promises(epsilon, delta, mu):
    """(label, function of alpha) for each promised curve asked for."""
    out = []
    if epsilon is not None and math.isfinite(epsilon):
        label = f"ε = {epsilon:.3g}" + (f", δ = {delta:.2g}" if delta else "") + " promises"
        out.append((label, lambda a: epsilon_delta_tradeoff(a, epsilon, delta)))
    if mu is not None:
        out.append((f"μ = {mu:.3g} GDP promises", lambda a: gdp_tradeoff(a, mu)))
    return out


def describe_tradeoff_curve(curve: TradeoffCurve, epsilon=None, delta: float = 0.0, mu=None) -> str:
    """The sentence a reader who cannot see :func:`plot_tradeoff_curve` gets, from the data.

    Parameters
    ----------
    curve : TradeoffCurve
        The measured curve.
    epsilon, delta, mu : float, optional
        The promises drawn.

    Returns
    -------
    str
        The measured curve at a few type I errors, and how many of its points (and of their
        band corners) lie below each promised curve.

    Examples
    --------
    >>> from ppdm_edu.audit.curve import tradeoff_curve
    >>> from ppdm_edu.mechanisms import WarnerRR
    >>> c = tradeoff_curve(WarnerRR(0.75), 1, 0, trials=2_000, rng=0)
    >>> describe_tradeoff_curve(c, epsilon=math.log(3)).split(". ")[0]
    'Measured trade-off curve of value ratio tests on 1,600 runs per input (3 points)'
    """
    text = [f"Measured trade-off curve of {curve.score} tests on {curve.n_estimation:,} runs per input "
            f"({curve.alpha.size} points)"]
    at = []
    for a in (0.01, 0.1, 0.5):
        j = int(np.searchsorted(curve.alpha, a, side="right")) - 1  # the last point at or left of a
        at.append(f"type I error {curve.alpha[j]:.3g}: type II error {curve.beta[j]:.3g} "
                  f"(band {curve.beta_low[j]:.3g} to {curve.beta_high[j]:.3g})")
    text.append("; ".join(dict.fromkeys(at)))
    for label, f in _promises(epsilon, delta, mu):
        below = int((curve.beta < f(curve.alpha) - 1e-12).sum())
        # a point's whole box is below a falling curve when its top-right corner is
        beyond = int((curve.beta_high < f(curve.alpha_high) - 1e-12).sum())
        text.append(f"{label}: {below} measured points lie below it, {beyond} with their whole "
                    f"{curve.confidence:.0%} band below")
    return ". ".join(text) + "."


def plot_tradeoff_curve(curve: TradeoffCurve, epsilon=None, delta: float = 0.0, mu=None, ax=None):
    """The measured trade-off curve with its bands, against the curves ε, (ε, δ) or μ-GDP promise.

    A test's point (type I error, type II error) below a promised curve means the promise is
    broken for that test; the band shows how sure the measurement is of each point.

    Parameters
    ----------
    curve : TradeoffCurve
        From :func:`ppdm_edu.audit.curve.tradeoff_curve`.
    epsilon : float, optional
        Draw the curve (ε, ``delta``)-DP promises.
    delta : float, default 0.0
        The δ of that promise.
    mu : float, optional
        Draw the curve μ-GDP promises.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on (its alt text set from the data, :func:`describe_tradeoff_curve`).

    Examples
    --------
    >>> from ppdm_edu.audit.curve import tradeoff_curve
    >>> from ppdm_edu.mechanisms import LaplaceMechanism
    >>> c = tradeoff_curve(LaplaceMechanism(1.0), 0.0, 1.0, trials=2_000, rng=0)
    >>> ax = plot_tradeoff_curve(c, epsilon=1.0)
    >>> ax.get_xlabel()
    'type I error α = P(reject x0 | x0)'
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(4.8, 4.4), layout="constrained")
    grid = np.linspace(0, 1, 401)
    # colour-vision safe: Okabe-Ito hues, and every curve also differs in line style
    styles = [(OKABE_ITO[1], "--"), (OKABE_ITO[2], ":")]
    for (label, f), (color, ls) in zip(_promises(epsilon, delta, mu), styles):
        ax.plot(grid, f(grid), color=color, linestyle=ls, linewidth=2, label=label, zorder=3)
    # between two thresholds a randomized test reaches every point of the segment: draw lines
    ax.fill_between(curve.alpha, curve.beta_low, curve.beta_high, color=OKABE_ITO[0],
                    alpha=0.25, linewidth=0, label=f"{curve.confidence:.0%} band (pointwise)")
    ax.plot(curve.alpha, curve.beta, color=OKABE_ITO[0], linewidth=1.8,
            marker="o" if curve.alpha.size <= 12 else None, label=f"measured ({curve.score})")
    ax.plot([0, 1], [1, 0], color="0.5", linewidth=1, linestyle="-.", label="no privacy loss (guessing)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("type I error α = P(reject x0 | x0)")
    ax.set_ylabel("type II error β = P(accept x0 | x1)")
    ax.set_title("Trade-off curve: lower means a stronger attacker", fontsize="medium")
    ax.legend(loc="upper right", fontsize="small", frameon=False)
    set_description(ax, describe_tradeoff_curve(curve, epsilon, delta, mu))
    return ax
