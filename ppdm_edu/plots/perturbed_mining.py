"""Figures for notebook 06 (Liu, Kantarcioglu & Thuraisingham): mining perturbed data directly.

Every function draws on the ``ax`` it is given (or a new one) and returns it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..lecture import OKABE_ITO

__all__ = ["plot_p_s1", "plot_threshold_curve", "plot_paper_vs_ours", "plot_accuracy_bars"]


def _ax(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
    return ax


def plot_p_s1(noise, t: float = 0.0, threshold: float | None = 0.5, ax=None, label=None, color=None,
              span: float | None = None):
    """p_S1(w | t) = P(R >= w - t) against w (Section 6), with the threshold rule of Eq. 12.

    Records whose ``p_S1`` is above ``threshold`` are sent left (to S1); for a decreasing
    ``p_S1`` that is ``w < t + c`` with ``c = F_R^-1(1 - threshold)``: a dotted line marks it.
    """
    ax = _ax(ax)
    half = span if span is not None else 4.0 * noise.std
    w = np.linspace(t - half, t + half, 400)
    p = noise.sf(w - t)
    color = color or OKABE_ITO[0]
    ax.plot(w, p, color=color, label=label or f"{noise.kind} noise, sd {noise.std:.3g}")
    ax.axvline(t, color="0.3", lw=1)
    if threshold is not None:
        ax.axhline(threshold, color="0.5", ls="--", lw=1)
        inside = w[p > threshold]
        if inside.size:
            ax.axvline(inside.max(), color=color, ls=":", lw=1.5)
    ax.set_xlabel("perturbed value w")
    ax.set_ylabel(r"$p_{S1}(w\,|\,t) = P(R \geq w - t)$")
    ax.set_ylim(-0.03, 1.03)
    return ax


def plot_threshold_curve(figures: pd.DataFrame, figure: int = 1, ax=None, title=None):
    """Fig. 1 / 2: threshold-method accuracy on original test records against the threshold.

    ``figures`` is the ``liu_figures.csv`` frame (columns figure, repeat, threshold, accuracy,
    c45_on_w); mean ± sd over repeats, and C4.5 on the perturbed values as a dashed line.
    """
    ax = _ax(ax)
    d = figures[figures["figure"] == figure]
    g = d.groupby("threshold")["accuracy"]
    mean, sd = g.mean(), g.std().fillna(0.0)
    ax.errorbar(mean.index, mean.values, yerr=sd.values, marker="o", capsize=3, color=OKABE_ITO[0],
                label="PPDTC4.5 threshold method")
    ax.axhline(d["c45_on_w"].mean(), color="0.4", ls="--", label="C4.5 on perturbed values")
    ax.set_xlabel("threshold")
    ax.set_ylabel("accuracy on original test records (%)")
    if title:
        ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower center")
    return ax


def plot_paper_vs_ours(summary: pd.DataFrame, table: str, rows, ax=None, title=None):
    """Grouped bars: the paper's accuracy (hatched) beside ours (mean ± sd) per data set."""
    ax = _ax(ax)
    rows = list(rows)
    data = ["data1", "data2", "data3", "data4", "data5"]
    width = 0.8 / (2 * len(rows))
    x = np.arange(len(data))
    for i, row in enumerate(rows):
        sub = summary[(summary["table"] == table) & (summary["row"] == row)].set_index("data").reindex(data)
        color = OKABE_ITO[i % len(OKABE_ITO)]
        offset = (2 * i - len(rows) + 0.5) * width
        ax.bar(x + offset, sub["paper"], width, color="white", edgecolor=color, hatch="//",
               label=f"{row} (paper)")
        ax.bar(x + offset + width, sub["mean"], width, yerr=sub["std"], color=color, capsize=2,
               label=f"{row} (ours)")
    ax.set_xticks(x, data)  # bar centres average to x
    ax.set_ylabel("accuracy (%)")
    ax.axhline(76.38, color="0.3", ls=":", lw=1, label="always '<=50K' (76.4 %)")
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, frameon=False)
    return ax


def plot_accuracy_bars(values: dict, ax=None, title=None, baseline: float | None = None):
    """Horizontal bars of accuracies (in %), e.g. for the widget panel."""
    ax = _ax(ax)
    names = list(values)
    vals = [values[k] for k in names]
    colors = [OKABE_ITO[i % len(OKABE_ITO)] for i in range(len(names))]
    ax.barh(names, vals, color=colors)
    for i, v in enumerate(vals):
        ax.text(v, i, f" {v:.1f} %", va="center")
    lo = min(50.0, min(vals) - 5)
    ax.set_xlim(lo, 100)
    if baseline is not None:
        ax.axvline(baseline, color="0.3", ls=":", lw=1)
    ax.invert_yaxis()
    ax.set_xlabel("accuracy (%)")
    if title:
        ax.set_title(title)
    return ax
