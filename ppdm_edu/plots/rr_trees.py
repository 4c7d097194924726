"""Figures for decision trees on randomized-response data (notebook 05; Du & Zhan Sections 4-5).

Each function draws on the ``ax`` it is given (or a new one) and returns it, so the notebook, the
``reproduce du-zhan`` command and the widget panel draw the same picture.
"""
from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.layout_engine import ConstrainedLayoutEngine, TightLayoutEngine

from ..randomized_response import rr_epsilon

__all__ = [
    "plot_mean_accuracy",
    "plot_accuracy_variance",
    "plot_fig2",
    "plot_estimated_vs_true",
    "plot_panel_accuracy",
    "PanelAccuracyDrawing",
    "side_by_side",
]


def _by_theta(df: pd.DataFrame):
    g = df.groupby("theta")["accuracy"]
    return g.mean(), g.var(ddof=1)


def plot_mean_accuracy(df: pd.DataFrame, ax=None, original=None, show_runs: bool = True):
    """Fig. 2(a): mean accuracy of RR-ID3 per theta, with the original ID3 accuracy as a line.

    Fig. 2(a) of Du & Zhan (2003): accuracy falls as theta approaches 0.5 (shaded band).

    Parameters
    ----------
    df : pandas.DataFrame
        The tidy output of :func:`ppdm_edu.experiments.rr_theta_sweep` (one row per run:
        theta, accuracy, ...).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    original : float, optional
        Accuracy of ID3 on the original data; default ``df.attrs["original_accuracy"]``.
    show_runs : bool
        Also draw every single run as a faint dot (shows the spread behind the mean).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the Fig. 2(a) curve.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    original = df.attrs.get("original_accuracy") if original is None else original
    mean, _ = _by_theta(df)
    if show_runs:
        ax.scatter(df["theta"], 100 * df["accuracy"], s=8, color="C0", alpha=0.2, lw=0,
                   label="single runs")
    ax.plot(mean.index, 100 * mean.to_numpy(), "o-", color="C0", label="RR-ID3 (mean)")
    if original is not None:
        ax.axhline(100 * original, color="C1", ls="--", label=f"original ID3 ({100 * original:.1f} %)")
    ax.axvspan(0.4, 0.6, color="0.92", zorder=0, label="θ ∈ (0.4, 0.6)")
    ax.set_xlim(0, 1.02)
    ax.set_xlabel("θ (probability a record is sent unchanged)")
    ax.set_ylabel("accuracy on the test set (%)")
    ax.set_title("Fig. 2(a): mean accuracy")
    ax.legend(fontsize="small", loc="lower left")
    return ax


def plot_accuracy_variance(df: pd.DataFrame, ax=None, log: bool = True):
    """Fig. 2(b): variance of the accuracy (in %², over the runs) per theta.

    Fig. 2(b) of Du & Zhan (2003): the trees become unstable as theta approaches 0.5.

    Parameters
    ----------
    df : pandas.DataFrame
        The tidy output of :func:`ppdm_edu.experiments.rr_theta_sweep` (one row per run:
        theta, accuracy, ...).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    log : bool, default True
        Symmetric-log y axis (the variance spans orders of magnitude).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the Fig. 2(b) curve.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    _, var = _by_theta(df)
    values = 1e4 * var.to_numpy()  # fraction^2 -> (% points)^2
    ax.plot(var.index, values, "o-", color="C3")
    ax.axvspan(0.4, 0.6, color="0.92", zorder=0)
    if log and np.all(values[np.isfinite(values)] >= 0):
        ax.set_yscale("symlog", linthresh=0.01)
    ax.set_xlim(0, 1.02)
    ax.set_xlabel("θ")
    ax.set_ylabel("variance of the accuracy (%²)")
    ax.set_title("Fig. 2(b): variance")
    return ax


def plot_fig2(df: pd.DataFrame, axes=None):
    """Both panels of Fig. 2 side by side.

    Fig. 2 of Du & Zhan (2003): :func:`plot_mean_accuracy` (left) and
    :func:`plot_accuracy_variance` (right).

    Parameters
    ----------
    df : pandas.DataFrame
        The tidy output of :func:`ppdm_edu.experiments.rr_theta_sweep` (one row per run:
        theta, accuracy, ...).
    axes : sequence of two matplotlib.axes.Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    sequence of matplotlib.axes.Axes
        The two axes drawn on.
    """
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(11, 4))
    plot_mean_accuracy(df, ax=axes[0])
    plot_accuracy_variance(df, ax=axes[1])
    return axes


def plot_estimated_vs_true(df: pd.DataFrame, ax=None, clip=(40.0, 100.0)):
    """Section 4.3: accuracy estimated from a disguised test set vs the true test accuracy.

    One dot per run, coloured by |2 theta - 1| (the factor Eq. 3 divides by; 0 at theta = 0.5),
    with the diagonal. Points outside ``clip`` (the estimate
    is unbiased but unbounded near theta = 0.5) are drawn at the border and counted in the title.

    Parameters
    ----------
    df : pandas.DataFrame
        The tidy output of :func:`ppdm_edu.experiments.rr_theta_sweep` (columns theta,
        accuracy, estimated_accuracy).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    clip : tuple of float, default (40.0, 100.0)
        Range of both axes, in %.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the runs and the diagonal (and a colour bar beside it).
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 5))
    true = 100 * df["accuracy"].to_numpy()
    est = 100 * df["estimated_accuracy"].to_numpy()
    lo, hi = clip
    outside = int(np.sum((est < lo) | (est > hi)))
    points = ax.scatter(true, np.clip(est, lo, hi), c=np.abs(2 * df["theta"] - 1), cmap="viridis",
                        s=16, vmin=0, vmax=1, alpha=0.8)
    ax.plot([lo, hi], [lo, hi], color="0.3", lw=1, ls="--", label="estimate = true")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("true accuracy on the test set B (%)")
    ax.set_ylabel("estimated from disguised B (%)")
    title = "§4.3: accuracy from a disguised test set"
    if outside:
        title += f"\n({outside} estimates outside [{lo:.0f}, {hi:.0f}] drawn at the border)"
    ax.set_title(title)
    ax.figure.colorbar(points, ax=ax, label="|2θ − 1|  (0: θ = 0.5, 1: θ = 0 or 1)")
    ax.legend(fontsize="small", loc="upper left")
    return ax


def plot_panel_accuracy(original: float, accuracy: float, estimated: float, theta: float, ax=None):
    """The widget's picture: original ID3, RR-ID3 on the true test set, and the §4.3 estimate.

    Three horizontal bars labelled with their values; the title gives theta and its epsilon.
    An axes without a layout engine gets ``tight_layout`` once, so that the labels fit. To
    redraw for other accuracies without a new figure, use :class:`PanelAccuracyDrawing`.

    Parameters
    ----------
    original : float
        Accuracy of ID3 on the original data, in [0, 1] (also a dashed line).
    accuracy : float
        Accuracy of RR-ID3 on the true test set, in [0, 1].
    estimated : float
        Accuracy estimated from the disguised test set (Du & Zhan 2003, Section 4.3); may fall
        outside [0, 1].
    theta : float
        Probability a record is sent unchanged.
    ax : matplotlib.axes.Axes, optional
        Where to draw the bars; a new figure and axes when omitted.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the three bars.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3))
    return PanelAccuracyDrawing(ax, original, accuracy, estimated, theta).ax


class PanelAccuracyDrawing:
    """The artists of :func:`plot_panel_accuracy`, redrawn in place for another theta.

    A panel that moves its theta slider or its label check box calls :meth:`update` instead of
    drawing a new figure: the axes, their ticks and category labels, and the position
    ``tight_layout`` found for them are kept (they do not depend on the accuracies); the bar
    lengths, their value labels, the dashed line and the title change. The picture is pixel for
    pixel the one :func:`plot_panel_accuracy` draws for the same values.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    original : float
        Accuracy of ID3 on the original data, in [0, 1] (also a dashed line).
    accuracy : float
        Accuracy of RR-ID3 on the true test set, in [0, 1].
    estimated : float
        Accuracy estimated from the disguised test set (Section 4.3); may fall outside [0, 1].
    theta : float
        Probability a record is sent unchanged.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> drawing = PanelAccuracyDrawing(plt.subplots()[1], 0.84, 0.82, 0.83, 0.7)
    >>> drawing.update(0.84, 0.75, -0.1, 0.55)
    >>> [t.get_text() for t in drawing.labels], drawing.ax.get_title()
    (['84.0 %', '75.0 %', '-10.0 %'], 'θ = 0.55, ε = 0.20')
    """

    #: the bars, top to bottom
    NAMES = ("ID3 on original data", "RR-ID3, true test set", "RR-ID3, estimated\nfrom disguised test set")
    #: a bar at least this long (in %) has its value inside, in white
    INSIDE = 15

    def __init__(self, ax, original: float, accuracy: float, estimated: float, theta: float):
        self.ax = ax
        self._text_color = mpl.rcParams["text.color"]  # a label beside its bar (as ax.text)
        values = [100 * original, 100 * accuracy, 100 * estimated]
        shown = np.clip(values, 0, 100)
        self.bars = ax.barh(list(self.NAMES), shown, color=["C1", "C0", "C2"])
        self.labels = []
        for bar, value in zip(self.bars, values):
            y = bar.get_y() + bar.get_height() / 2
            if bar.get_width() >= self.INSIDE:  # label inside the bar
                label = ax.text(bar.get_width() - 1, y, f"{value:.1f} %", ha="right", va="center",
                                color="white", fontweight="bold")
            else:  # short bar (or an estimate outside [0, 100]): label to its right
                label = ax.text(bar.get_width() + 1, y, f"{value:.1f} %", ha="left", va="center",
                                fontweight="bold")
            self.labels.append(label)
        ax.set_xlim(0, 100)
        self.original = ax.axvline(100 * original, color="C1", ls="--", lw=1)
        ax.invert_yaxis()
        ax.set_xlabel("accuracy (%)")
        ax.set_title(self._title(theta))
        if not isinstance(ax.figure.get_layout_engine(), (ConstrainedLayoutEngine, TightLayoutEngine)):
            # the widget's figure has no layout engine: fit the bar labels and the x label once
            # (font sizes differ in lecture mode, so fixed margins would clip them)
            ax.figure.tight_layout()

    @staticmethod
    def _title(theta: float) -> str:
        eps = rr_epsilon(theta)
        return f"θ = {theta:.2f}, ε = " + ("∞" if np.isinf(eps) else f"{eps:.2f}")

    def update(self, original: float, accuracy: float, estimated: float, theta: float) -> None:
        """Show other accuracies on the same axes.

        The layout is not fitted again: the category labels, the x axis and the title's height,
        which ``tight_layout`` fitted, are the same at every theta.

        Parameters
        ----------
        original : float
            Accuracy of ID3 on the original data, in [0, 1].
        accuracy : float
            Accuracy of RR-ID3 on the true test set, in [0, 1].
        estimated : float
            Accuracy estimated from the disguised test set; may fall outside [0, 1].
        theta : float
            Probability a record is sent unchanged.
        """
        values = [100 * original, 100 * accuracy, 100 * estimated]
        for bar, label, value, shown in zip(self.bars, self.labels, values, np.clip(values, 0, 100)):
            bar.set_width(shown)
            inside = bar.get_width() >= self.INSIDE
            label.set_x(bar.get_width() - 1 if inside else bar.get_width() + 1)
            label.set_horizontalalignment("right" if inside else "left")
            label.set_color("white" if inside else self._text_color)
            label.set_text(f"{value:.1f} %")
        self.original.set_xdata([100 * original, 100 * original])
        self.ax.set_title(self._title(theta))


def side_by_side(left: str, right: str, titles=("left", "right"), gap: int = 4) -> str:
    """Two blocks of text (e.g. two ``export_text`` outputs) printed next to each other.

    Parameters
    ----------
    left, right : str
        The two blocks (lines separated by newlines).
    titles : tuple of str, default ("left", "right")
        A heading line above each block.
    gap : int, default 4
        Spaces between the longest left line and the right block.

    Returns
    -------
    str
        The lines side by side, without trailing spaces.

    Examples
    --------
    >>> print(side_by_side("a\\nbb", "c", titles=("x", "y")))
    x     y
    a     c
    bb
    """
    lines_l = [titles[0], *left.splitlines()]
    lines_r = [titles[1], *right.splitlines()]
    width = max(len(s) for s in lines_l) + gap
    rows = []
    for i in range(max(len(lines_l), len(lines_r))):
        a = lines_l[i] if i < len(lines_l) else ""
        b = lines_r[i] if i < len(lines_r) else ""
        rows.append((a.ljust(width) + b).rstrip())
    return "\n".join(rows)
