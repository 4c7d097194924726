"""Figures for notebook 06 (Liu, Kantarcioglu & Thuraisingham): mining perturbed data directly.

Every function draws on the ``ax`` it is given (or a new one) and returns it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .palette import OKABE_ITO

__all__ = ["plot_p_s1", "plot_threshold_curve", "plot_paper_vs_ours", "plot_accuracy_bars",
           "PSOneDrawing", "AccuracyBarsDrawing"]


def _ax(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
    return ax


class PSOneDrawing:
    """The artists of :func:`plot_p_s1`, redrawn in place for a new split (a panel's slider).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    noise : noise object
        The attribute's noise (its ``sf`` and ``std`` are used).
    t : float, default 0.0
        Split point.
    threshold : float or None, default 0.5
        Threshold of Eq. 12 (None: no threshold lines).
    label, color : str, optional
        Curve label and colour.
    span : float, optional
        Half width of the w range (default: 4 noise sd).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from ppdm_edu.randomization import GaussianNoise
    >>> drawing = PSOneDrawing(plt.subplots()[1], GaussianNoise(1.0), t=0.0, threshold=0.3)
    >>> drawing.update(GaussianNoise(2.0), t=5.0, threshold=0.3)
    >>> bool(drawing.ax.get_xlim()[0] < -2.0 < 12.0 < drawing.ax.get_xlim()[1])
    True
    """

    def __init__(self, ax, noise, t: float = 0.0, threshold: float | None = 0.5, label=None,
                 color=None, span: float | None = None):
        self.ax, self.span = ax, span
        self._auto_label = not label  # the default label names the noise: it follows update()
        color = color or OKABE_ITO[0]
        w, p = self._curve(noise, t)
        self.curve, = ax.plot(w, p, color=color, label=label or self._noise_label(noise))
        self.split = ax.axvline(t, color="0.3", lw=1)
        self.level = self.cut = None
        if threshold is not None:
            self.level = ax.axhline(threshold, color="0.5", ls="--", lw=1)
            self.cut = ax.axvline(t, color=color, ls=":", lw=1.5)
            self._place_cut(self.cut, w, p, threshold)
        ax.set_xlabel("perturbed value w")
        ax.set_ylabel(r"$p_{S1}(w\,|\,t) = P(R \geq w - t)$")
        ax.set_ylim(-0.03, 1.03)

    @staticmethod
    def _noise_label(noise) -> str:
        return f"{noise.kind} noise, sd {noise.std:.3g}"

    def _curve(self, noise, t):
        half = self.span if self.span is not None else 4.0 * noise.std
        w = np.linspace(t - half, t + half, 400)
        return w, noise.sf(w - t)

    @staticmethod
    def _place_cut(cut, w, p, threshold):
        # records with p_S1 above the threshold go left: the last such w (Eq. 12)
        inside = w[p > threshold]
        cut.set_visible(bool(inside.size))
        if inside.size:
            cut.set_xdata([inside.max()] * 2)

    def update(self, noise, t: float, threshold: float | None) -> None:
        """Show the curve of ``noise`` around the split ``t`` with ``threshold``.

        Parameters
        ----------
        noise : noise object
            The attribute's noise.
        t : float
            Split point.
        threshold : float or None
            Threshold of Eq. 12 (None only if the drawing was made without one).
        """
        w, p = self._curve(noise, t)
        self.curve.set_data(w, p)
        if self._auto_label:  # the alt text (and a legend) name the noise now shown
            self.curve.set_label(self._noise_label(noise))
        self.split.set_xdata([t, t])
        if self.level is not None and self.cut is not None and threshold is not None:
            self.level.set_ydata([threshold, threshold])
            self._place_cut(self.cut, w, p, threshold)
        # the x limits plot() would give for the new curve (the y limits are fixed)
        self.ax.relim()
        self.ax.autoscale_view(scaley=False)


def plot_p_s1(noise, t: float = 0.0, threshold: float | None = 0.5, ax=None, label=None, color=None,
              span: float | None = None):
    """p_S1(w | t) = P(R >= w - t) against w (Section 6), with the threshold rule of Eq. 12.

    Records whose ``p_S1`` is above ``threshold`` are sent left (to S1); for a decreasing
    ``p_S1`` that is ``w < t + c`` with ``c = F_R^-1(1 - threshold)``: a dotted line marks it.
    To redraw for a new split without a new figure, use :class:`PSOneDrawing`.

    Parameters
    ----------
    noise : noise object
        The attribute's noise (its ``sf`` and ``std`` are used).
    t : float, default 0.0
        Split point on the original values (a solid vertical line).
    threshold : float or None, default 0.5
        Threshold of Eq. 12, drawn as a dashed level; None draws the curve alone.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    label : str, optional
        Legend label of the curve (default: the noise's kind and sd).
    color : str, optional
        Colour of the curve and of the cut line.
    span : float, optional
        Half width of the w range around ``t`` (default: 4 noise sd).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the p_S1 curve, the split and the threshold lines.
    """
    ax = _ax(ax)
    PSOneDrawing(ax, noise, t, threshold, label=label, color=color, span=span)
    return ax


def plot_threshold_curve(figures: pd.DataFrame, figure: int = 1, ax=None, title=None):
    """Fig. 1 / 2: threshold-method accuracy on original test records against the threshold.

    Reproduces Fig. 1 or Fig. 2 of Liu, Kantarcioglu & Thuraisingham: the mean ± sd over the
    repeats of the threshold method's accuracy, and C4.5 trained on the perturbed values as a
    dashed line.

    Parameters
    ----------
    figures : pandas.DataFrame
        The ``liu_figures.csv`` frame (columns figure, repeat, threshold, accuracy, c45_on_w).
    figure : int, default 1
        Which figure of the paper (the rows with this ``figure``).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the accuracy curve and the C4.5 line.
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
    """Grouped bars: the paper's accuracy (hatched) beside ours (mean ± sd) per data set.

    Compares one table of Liu, Kantarcioglu & Thuraisingham with our reproduction on the five
    perturbed versions of Adult (data1 to data5); a dotted line marks the majority class.

    Parameters
    ----------
    summary : pandas.DataFrame
        The summary of :func:`ppdm_edu.experiments.liu.summarize` (or ``liu_summary.csv``;
        columns table, row, data, paper, mean, std).
    table : str
        Which table of the paper (value of the ``table`` column).
    rows : iterable of str
        The table's rows to draw (classifier and test-set names), one pair of bars each.
    ax : matplotlib.axes.Axes, optional
        Where to draw the bars; a new figure and axes when omitted.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the grouped bars (legend below it).
    """
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


class AccuracyBarsDrawing:
    """The artists of :func:`plot_accuracy_bars`, redrawn in place for new accuracies.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    values : dict
        ``{name: accuracy in %}``; the names are the bars, top to bottom.
    title : str, optional
        Axes title.
    baseline : float, optional
        A dotted vertical line (e.g. the majority-class accuracy).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> drawing = AccuracyBarsDrawing(plt.subplots()[1], {"a": 80.0, "b": 60.0})
    >>> drawing.update({"a": 90.0, "b": 40.0})
    >>> [t.get_text() for t in drawing.labels], drawing.ax.get_xlim()
    ([' 90.0 %', ' 40.0 %'], (np.float64(35.0), np.float64(100.0)))
    """

    def __init__(self, ax, values: dict, title=None, baseline: float | None = None):
        self.ax, self.names = ax, list(values)
        colors = [OKABE_ITO[i % len(OKABE_ITO)] for i in range(len(self.names))]
        self.bars = ax.barh(self.names, [values[k] for k in self.names], color=colors)
        self.labels = [ax.text(0.0, i, "", va="center") for i in range(len(self.names))]
        if baseline is not None:
            ax.axvline(baseline, color="0.3", ls=":", lw=1)
        ax.invert_yaxis()
        ax.set_xlabel("accuracy (%)")
        if title:
            ax.set_title(title)
        self.update(values)

    def update(self, values: dict) -> None:
        """Show new accuracies for the same names.

        Parameters
        ----------
        values : dict
            ``{name: accuracy in %}`` with the names the drawing was made with.
        """
        vals = [values[k] for k in self.names]
        for bar, label, v in zip(self.bars, self.labels, vals):
            bar.set_width(v)
            label.set_x(v)
            label.set_text(f" {v:.1f} %")
        self.ax.set_xlim(min(50.0, min(vals) - 5), 100)


def plot_accuracy_bars(values: dict, ax=None, title=None, baseline: float | None = None):
    """Horizontal bars of accuracies (in %), e.g. for the widget panel.

    Each bar is labelled with its value; the x axis starts at 50 % (lower if a value is lower).
    To redraw for new accuracies without a new figure, use :class:`AccuracyBarsDrawing`.

    Parameters
    ----------
    values : dict
        ``{name: accuracy in %}``; the names are the bars, top to bottom.
    ax : matplotlib.axes.Axes, optional
        Where to draw the bars; a new figure and axes when omitted.
    title : str, optional
        Axes title.
    baseline : float, optional
        A dotted vertical line (e.g. the majority-class accuracy).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with one labelled bar per entry.
    """
    ax = _ax(ax)
    AccuracyBarsDrawing(ax, values, title=title, baseline=baseline)
    return ax
