"""Pictures for notebook 01: value distortion, Table 1 and the entropy privacy measures.

Every function draws on the ``ax`` it is given (or a new one) and returns it; the panel of
:mod:`ppdm_edu.widgets.randomization` reuses :func:`plot_original_vs_perturbed`.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..privacy import PAPER_TABLE1, gaussian_privacy_loss, grid_step, interval_privacy
from ..randomization import Noise
from ._layout import legend_fraction

__all__ = [
    "noise_label",
    "plot_original_vs_perturbed",
    "plot_noise_intervals",
    "plot_table1_curves",
    "plot_loss_vs_snr",
]


def _axes(ax, figsize=(8, 3.6)):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def noise_label(noise: Noise, unit: str = "") -> str:
    """A short label such as ``uniform, α = 19.2 years`` for titles and legends.

    Parameters
    ----------
    noise : Noise
        A :class:`~ppdm_edu.randomization.UniformNoise` (labelled α) or
        :class:`~ppdm_edu.randomization.GaussianNoise` (labelled σ).
    unit : str, default ""
        Unit of the attribute, written after the value (``$`` is escaped for mathtext).

    Returns
    -------
    str
        The noise's kind, symbol and scale.

    Examples
    --------
    >>> from ppdm_edu.randomization import GaussianNoise
    >>> noise_label(GaussianNoise(2.5), "years")
    'gaussian, σ = 2.5 years'
    """
    symbol = "α" if noise.kind == "uniform" else "σ"
    value = f"{noise.scale:,.0f}" if noise.scale >= 100 else f"{noise.scale:.3g}"
    unit = unit.replace("$", r"\$")  # a lone $ would start matplotlib's mathtext
    return f"{noise.kind}, {symbol} = {value}{' ' + unit if unit else ''}"


def _shared_edges(x: np.ndarray, w: np.ndarray, bins: int) -> np.ndarray:
    """``bins`` equal bins over both samples; aligned to x's recording grid if it has one
    (whole-year ages), so that no bin holds one more grid value than its neighbour."""
    lo, hi = float(min(x.min(), w.min())), float(max(x.max(), w.max()))
    step = grid_step(x)
    if step is None:
        return np.linspace(lo, hi, bins + 1)
    width = max(1, int(np.ceil((hi - lo) / bins / step))) * step
    start = float(x.min()) - 0.5 * step
    start -= width * np.ceil((start - lo) / width)
    n_bins = int(np.ceil((hi - start) / width))
    return start + width * np.arange(n_bins + 1)


def plot_original_vs_perturbed(x, w, ax=None, bins: int = 60, value_range=None, label: str = "x",
                               unit: str = "", legend: bool = True):
    """Density histograms of the original values ``x`` and the perturbed ``w = x + r``.

    Drawn as a filled step area and a step line on one shared grid of ``bins`` bins spanning both
    samples, so the widening by the noise is visible and the drawing stays cheap. If
    ``value_range = (low, high)`` is given the attribute's domain is shaded. The original is
    colour ``C0`` (filled), the perturbed values ``C1`` (line): ``legend=False`` leaves the key
    to the caller (the panel puts it in its HTML read-out, where text costs nothing).

    Parameters
    ----------
    x : array-like of shape (n,)
        Original values.
    w : array-like of shape (n,)
        Perturbed values ``x + r``.
    ax : matplotlib.axes.Axes, optional
        Where to draw the histograms; a new figure and axes when omitted.
    bins : int, default 60
        Number of bins over both samples (aligned to ``x``'s recording grid if it has one).
    value_range : tuple of float, optional
        ``(low, high)`` of the attribute's domain, shaded grey.
    label : str, default "x"
        Name of the attribute on the x axis.
    unit : str, default ""
        Unit of the attribute, in parentheses after ``label``.
    legend : bool, default True
        Draw the legend (with head room above the histograms for it).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the two histograms.
    """
    ax = _axes(ax)
    x = np.asarray(x, dtype=float)
    w = np.asarray(w, dtype=float)
    edges = _shared_edges(x, w, bins)
    hx, _ = np.histogram(x, edges, density=True)
    hw, _ = np.histogram(w, edges, density=True)
    if value_range is not None:
        ax.axvspan(value_range[0], value_range[1], color="0.88", zorder=0, label="domain")
    # step outlines as a filled polygon and a line: unlike Axes.stairs (a patch whose data
    # limits matplotlib updates segment by segment in Python) these cost little to add,
    # which matters for the panel's 100 ms budget
    # short legend labels: three side by side must fit a quarter of a projector figure (the
    # axis label already names the attribute)
    ax.fill_between(edges, np.r_[hx, hx[-1]], step="post", alpha=0.45, linewidth=0, color="C0",
                    label="original")
    ax.plot(edges, np.r_[hw, hw[-1]], drawstyle="steps-post", linewidth=1.8, color="C1",
            label="perturbed")
    unit = unit.replace("$", r"\$")  # a lone $ would start matplotlib's mathtext
    ax.set_xlabel(f"{label} ({unit})" if unit else label)
    ax.set_ylabel("density")
    if legend:
        peak = max(hx.max(), hw.max())
        ax.set_ylim(0, peak / (1.0 - legend_fraction(ax, 1)))  # head room for one legend row
        ax.legend(loc="upper center", frameon=False, ncols=3, fontsize="small",
                  handlelength=1.0, handletextpad=0.4, columnspacing=0.8, borderaxespad=0.2)
    else:
        ax.set_ylim(0, 1.08 * max(hx.max(), hw.max()))
    return ax


def plot_noise_intervals(noises, confidence: float = 0.95, ax=None, labels=None):
    """Densities of noise models with their shortest ``confidence`` interval shaded (Table 1).

    The width of that interval is Agrawal & Srikant's (2000, Table 1) privacy measure; the
    legend gives it for each noise.

    Parameters
    ----------
    noises : iterable of Noise
        Uniform or Gaussian noises, drawn in colours C0, C1, ...
    confidence : float, default 0.95
        Confidence of the shaded interval.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    labels : sequence of str, optional
        Legend names of the noises (default: their ``repr``).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the noise densities and shaded intervals.

    Raises
    ------
    ValueError
        If an element of ``noises`` is not a :class:`~ppdm_edu.randomization.Noise`.
    """
    ax = _axes(ax)
    noises = list(noises)
    for noise in noises:
        if not isinstance(noise, Noise):
            raise ValueError(f"noises must be UniformNoise or GaussianNoise, got {type(noise).__name__}")
    reach = max(n.support(0.9999)[1] for n in noises) * 1.15
    grid = np.linspace(-reach, reach, 801)
    for i, noise in enumerate(noises):
        color = f"C{i}"
        half = noise.interval_width(confidence) / 2
        name = labels[i] if labels else repr(noise)
        ax.plot(grid, noise.pdf(grid), color=color,
                label=f"{name}: {100 * confidence:g}% interval width {2 * half:.3g}")
        inside = np.abs(grid) <= half
        ax.fill_between(grid[inside], noise.pdf(grid[inside]), color=color, alpha=0.2)
    ax.set_xlabel("noise r")
    ax.set_ylabel("density")
    top = max(float(n.pdf(grid).max()) for n in noises)
    # head room measured in legend rows: the legend sits above the densities, never on the
    # Gaussian peak, whatever the font size (projector style) and the axes' height
    ax.set_ylim(0, top / (1.0 - legend_fraction(ax, len(noises))))
    ax.legend(loc="upper center", frameon=False, fontsize="small", borderaxespad=0.2)
    return ax


def plot_table1_curves(ax=None, confidences=None):
    """Table 1 as curves: interval width (in W, 2 alpha or sigma) against confidence.

    Table 1 of Agrawal & Srikant (2000) for every confidence: the paper's nine printed values
    are the markers; the curves are exact.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    confidences : array-like, optional
        Confidence levels of the curves (default: 300 points in [0.01, 0.999]).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with one width curve per noise and the paper's markers.
    """
    ax = _axes(ax)
    if confidences is None:
        confidences = np.linspace(0.01, 0.999, 300)
    table = interval_privacy(confidence=list(confidences))
    for i, method in enumerate(table.index):
        unit = table.loc[method, "unit"]
        ax.plot(confidences, table.loc[method].drop("unit").to_numpy(float), color=f"C{i}",
                linestyle="--" if method == "uniform" else "-", label=f"{method} (× {unit})")
        printed = PAPER_TABLE1[method]
        ax.plot(list(printed), list(printed.values()), "o", color=f"C{i}", mfc="none")
    ax.plot([], [], "o", color="0.3", mfc="none", label="paper's Table 1")
    ax.set_xlabel("confidence c")
    ax.set_ylabel("interval width (multiple of unit)")
    ax.legend(loc="upper left", frameon=False)
    return ax


def plot_loss_vs_snr(snr_values=None, ours=None, paper=None, ax=None, labels=("ours", "paper"),
                     extra=None):
    """Privacy loss against SNR: the Gaussian closed form, with optional measured points.

    The curve is the loss ``1 - (1 + SNR)^(-1/2)`` of Gaussian data with Gaussian noise
    (Agrawal & Aggarwal 2001); measured losses are drawn as markers over it.

    Parameters
    ----------
    snr_values : array-like, optional
        SNR of the measured points (needed for any markers).
    ours : array-like, optional
        Our measured losses, aligned with ``snr_values`` (filled circles).
    paper : array-like, optional
        The paper's losses, aligned with ``snr_values`` (open squares).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    labels : tuple of str, default ("ours", "paper")
        Legend labels of ``ours`` and ``paper``.
    extra : tuple, optional
        ``(values, label)``: a third series aligned with ``snr_values`` (triangles).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the closed-form curve and the measured points.
    """
    ax = _axes(ax)
    grid = np.linspace(0.0, 3.0, 200)
    ax.plot(grid, [gaussian_privacy_loss(s) for s in grid], color="0.4",
            label=r"Gaussian x and r: $1 - (1+\mathrm{SNR})^{-1/2}$")
    if snr_values is not None and ours is not None:
        ax.plot(snr_values, ours, "o", color="C0", label=labels[0])
    if snr_values is not None and paper is not None:
        ax.plot(snr_values, paper, "s", color="C1", mfc="none", label=labels[1])
    if snr_values is not None and extra is not None:
        ax.plot(snr_values, extra[0], "^", color="C2", label=extra[1])
    ax.set_xlabel("SNR = var(x) / var(r)")
    ax.set_ylabel(r"privacy loss $1 - 2^{-I(X;W)}$")
    ax.set_ylim(0, None)
    # the loss rises from the lower left to the upper right: the lower right stays empty
    ax.legend(loc="lower right", frameon=False, fontsize="small")
    return ax
