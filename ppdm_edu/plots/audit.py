"""Figures for :mod:`ppdm_edu.audit` (notebook 07): the audited lower bound on ε against trials."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

__all__ = ["plot_bound_vs_trials"]


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
