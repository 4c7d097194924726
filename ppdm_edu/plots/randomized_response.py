"""Figures for randomized response (notebook 03; Du & Zhan Sections 3 and 4.1).

Each function draws on the ``ax`` it is given (or a new one) and returns it, so the notebook and
the widget panel draw the same picture.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.ticker import FormatStrFormatter, MaxNLocator, MultipleLocator, NullFormatter

from ..randomized_response import rr_epsilon, warner_std_error

__all__ = [
    "plot_sampling_distribution",
    "SamplingDistributionDrawing",
    "plot_theta_tradeoff",
    "plot_mrr_sweep",
]

# fixed axis so that the spread of the estimates can be compared across slider positions
SAMPLING_XLIM = (-0.5, 1.5)


def _lattice_edges(theta: float, n: int, lo: float, hi: float, bins: int) -> np.ndarray:
    """Bin edges that never alias the discrete estimates.

    A survey's estimate can only take the values ``(k - (1 - theta) n) / ((2 theta - 1) n)``,
    k = 0..n: a lattice of spacing ``h = 1 / (n |2 theta - 1|)``. Bins of a whole number of
    lattice steps, centred on lattice points, hold the same number of possible values each, so
    the histogram shows no artificial gaps or spikes.
    """
    h = 1.0 / (n * abs(2.0 * theta - 1.0))
    width = h * max(1, int(np.ceil((hi - lo) / bins / h)))
    origin = -(1.0 - theta) / (2.0 * theta - 1.0)  # the estimate for k = 0 "yes" answers
    first = origin + np.floor((lo - origin) / h) * h - h / 2.0
    n_edges = int(np.ceil((hi - first) / width)) + 1
    return first + width * np.arange(n_edges)


def plot_sampling_distribution(sim, ax=None, xlim=SAMPLING_XLIM, bins: int = 100, legend: bool = True):
    """Histogram of the estimates of many surveys, with the truth and the +-2 SE band.

    The sampling distribution of Warner's unbiased estimate (Du & Zhan 2003, Section 3): it
    widens as theta approaches 0.5 and spills outside the possible proportions [0, 1] (grey).
    To redraw for another simulation without a new figure, use
    :class:`SamplingDistributionDrawing`.

    Parameters
    ----------
    sim : SurveySimulation
        From :func:`ppdm_edu.rr_simulation.simulate_warner_surveys`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    xlim : (float, float)
        Fixed horizontal range (estimates outside it are counted in the legend, not drawn).
    bins : int
        At most about this many bins over ``xlim`` (bins are whole multiples of the spacing
        between possible estimates, so small surveys show no aliasing gaps).
    legend : bool
        Draw the legend (the widget panel explains the colours in its HTML read-out instead,
        which is cheaper to redraw).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the histogram of the estimates.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.6))
    return SamplingDistributionDrawing(ax, sim, xlim=xlim, bins=bins, legend=legend).ax


class SamplingDistributionDrawing:
    """The artists of :func:`plot_sampling_distribution`, redrawn in place for another survey.

    A panel that moves its theta, n or P(A) slider calls :meth:`update` instead of drawing a
    new figure: the axes, their ticks, the grey range of the possible proportions and the
    legend are kept; the histogram, the +-2 SE band, the truth line, the y limits and the title
    change. The picture is pixel for pixel the one :func:`plot_sampling_distribution` draws for
    the same simulation.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    sim : SurveySimulation
        From :func:`ppdm_edu.rr_simulation.simulate_warner_surveys`.
    xlim : (float, float)
        Fixed horizontal range (estimates outside it are counted in the legend, not drawn).
    bins : int
        At most about this many bins over ``xlim``.
    legend : bool
        Draw the legend.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from ppdm_edu.rr_simulation import simulate_warner_surveys
    >>> drawing = SamplingDistributionDrawing(plt.subplots()[1], simulate_warner_surveys(0.3, 0.8, 200, rng=0))
    >>> drawing.update(simulate_warner_surveys(0.6, 0.7, 500, rng=0))
    >>> drawing.ax.get_title(), float(drawing.truth.get_xdata()[0])
    ('θ = 0.70, n = 500 respondents per survey', 0.6)
    """

    def __init__(self, ax, sim, xlim=SAMPLING_XLIM, bins: int = 100, legend: bool = True):
        self.ax, self.xlim, self.bins = ax, (float(xlim[0]), float(xlim[1])), bins
        lo, hi = self.xlim
        ax.axvspan(0.0, 1.0, color="0.93", zorder=0)  # the possible proportions
        # hatched as well as green: under deuteranopia/protanopia the light green and the grey
        # of the possible proportions are the same grey (CAM02-UCS distance ~5)
        self.band = ax.axvspan(*self._band(sim), facecolor=to_rgba("C2", 0.25), edgecolor="C2",
                               hatch="///", linewidth=0, zorder=1, label="truth ± 2 SE (Warner)")
        counts, edges, off = self._histogram(sim)
        self.histogram = ax.stairs(counts, edges, fill=True, color="C0", alpha=0.75, zorder=2,
                                   label=self._histogram_label(off))
        self.truth = ax.axvline(sim.truth, color="C1", lw=2, zorder=3, label="truth")
        ax.set_xlim(lo, hi)
        # few ticks: every tick label is text to lay out, the main cost of a slider update
        ax.xaxis.set_major_locator(MultipleLocator(0.5))
        ax.yaxis.set_major_locator(MaxNLocator(4, integer=True))
        ax.set_xlabel("estimated P(A = yes)")
        ax.set_ylabel("surveys per bin")
        ax.set_title(self._title(sim))
        self.legend = ax.legend(loc="upper right", fontsize="small", framealpha=0.9) if legend else None

    def _band(self, sim) -> tuple[float, float]:
        lo, hi = self.xlim
        return max(sim.truth - 2 * sim.std_error, lo), min(sim.truth + 2 * sim.std_error, hi)

    def _histogram(self, sim) -> tuple[np.ndarray, np.ndarray, int]:
        lo, hi = self.xlim
        edges = _lattice_edges(sim.theta, sim.n, lo, hi, self.bins)
        counts, _ = np.histogram(sim.estimates, bins=edges)
        off = int(np.sum((sim.estimates < lo) | (sim.estimates > hi)))
        return counts, edges, off

    @staticmethod
    def _histogram_label(off: int) -> str:
        return f"estimates ({off} off the axis)" if off else "estimates"

    @staticmethod
    def _title(sim) -> str:
        return f"θ = {sim.theta:.2f}, n = {sim.n:,} respondents per survey"

    def update(self, sim) -> None:
        """Show another simulation on the same axes.

        Parameters
        ----------
        sim : SurveySimulation
            From :func:`ppdm_edu.rr_simulation.simulate_warner_surveys`.
        """
        x0, x1 = self._band(sim)
        self.band.set_x(x0)
        self.band.set_width(x1 - x0)
        counts, edges, off = self._histogram(sim)
        self.histogram.set_data(counts, edges)
        label = self._histogram_label(off)
        self.histogram.set_label(label)
        self.truth.set_xdata([sim.truth, sim.truth])
        # the y data limits a new drawing finds: the histogram's, from its baseline 0 to its
        # highest bin (the spans and the truth line count along x only, and x stays at xlim);
        # set directly, as Axes.relim would find them by walking the histogram's path (3 ms)
        self.ax.dataLim.intervaly = (min(0.0, float(counts.min())), max(0.0, float(counts.max())))
        self.ax.autoscale_view()
        self.ax.set_title(self._title(sim))
        if self.legend is not None:
            # entries in the order the artists were added: band, histogram, truth
            self.legend.get_texts()[1].set_text(label)


def plot_theta_tradeoff(pi: float = 0.3, n: int = 1_000, axes=None, thetas=None):
    """Why theta near 0.5 protects more and costs more: SE of the estimate and epsilon vs theta.

    Left: Warner's standard error at sample size ``n``, against a direct question. Right: the
    privacy level epsilon = |ln(theta / (1 - theta))| (smaller is more private).

    Parameters
    ----------
    pi : float, default 0.3
        True proportion P(A = yes) the standard error is computed at.
    n : int, default 1000
        Respondents per survey.
    axes : sequence of two matplotlib.axes.Axes, optional
        Where to draw the cost (left) and the privacy (right); a new figure when omitted.
    thetas : array-like, optional
        Values of theta on the x axes (default: [0, 1] without a gap around 0.5, where there
        is no estimate).

    Returns
    -------
    sequence of matplotlib.axes.Axes
        The two axes drawn on.
    """
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    if thetas is None:
        thetas = np.concatenate([np.linspace(0.0, 0.47, 95), np.linspace(0.53, 1.0, 95)])
    thetas = np.asarray(thetas, dtype=float)
    se = warner_std_error(pi, thetas, n)
    ax = axes[0]
    for side in (thetas < 0.5, thetas > 0.5):
        ax.plot(thetas[side], se[side], color="C0")
    ax.axhline(warner_std_error(pi, 1.0, n), color="0.4", ls=":", label="direct question (θ = 0 or 1)")
    ax.axvline(0.5, color="C3", ls="--", lw=1, label="θ = 0.5: no estimate")
    ax.set_yscale("log")
    ax.set_yticks([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0])
    ax.set_ylim(0.8 * float(np.min(se)), 3.0 * float(np.max(se)))  # head room: legend above the curve
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("θ")
    ax.set_ylabel("standard error of the estimate (log scale)")
    ax.set_title(f"cost: Warner SE at n = {n:,}, P(A) = {pi:.2f}")
    ax.legend(fontsize="small", loc="upper left")
    ax = axes[1]
    eps = rr_epsilon(np.clip(thetas, 1e-6, 1 - 1e-6))
    for side in (thetas < 0.5, thetas > 0.5):
        ax.plot(thetas[side], eps[side], color="C1")
    ax.axvline(0.5, color="C3", ls="--", lw=1)
    ax.set_ylim(0, 6)
    ax.set_xlabel("θ")
    ax.set_ylabel("ε = |ln(θ / (1 − θ))|")
    ax.set_title("privacy: smaller ε = more private")
    return axes


def plot_mrr_sweep(frame, ax=None, title: str | None = None):
    """MRR estimates of P(E) against theta: every run as a dot, mean +- 2 SD, and the truth.

    How the MRR estimate of a conjunction of attributes (Du & Zhan 2003, Section 4.1) scatters
    as theta approaches 0.5, where the estimate is undefined (dashed line).

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy output of :func:`ppdm_edu.rr_simulation.mrr_theta_sweep`
        (columns theta, estimate, truth).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the runs, their mean ± 2 SD and the truth.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.8))
    truth = float(frame["truth"].iloc[0])
    jitter = np.random.default_rng(0).uniform(-0.006, 0.006, len(frame))  # drawing only
    ax.scatter(frame["theta"] + jitter, frame["estimate"], s=8, alpha=0.35, color="C0",
               label="one disguised data set")
    stats = frame.groupby("theta")["estimate"].agg(["mean", "std"])
    ax.errorbar(stats.index, stats["mean"], yerr=2 * stats["std"].fillna(0), fmt="o", color="black",
                capsize=3, label="mean ± 2 SD over runs")
    ax.axhline(truth, color="C1", lw=2, label=f"truth P(E) = {truth:.3f}")
    ax.axvline(0.5, color="C3", ls="--", lw=1)
    ax.set_xlabel("θ")
    ax.set_ylabel("estimated P(E)")
    ax.set_title(title or "MRR estimate of a conjunction as θ varies")
    ax.legend(fontsize="small", loc="best")
    return ax
