"""Figures of notebook 07: spectra and recovered records, posterior intervals, breaches, privacy loss.

Every function draws on the ``ax`` it is given (or a new one) and returns it.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np

from ..attacks import RecordReconstruction, tracy_widom_bound
from ..posterior import BayesEstimate
from ..random_state import check_random_state
from ._layout import legend_fraction
from .palette import OKABE_ITO

__all__ = [
    "plot_spectrum",
    "plot_record_recovery",
    "SpectrumDrawing",
    "RecoveryDrawing",
    "plot_posterior_intervals",
    "plot_posterior_width",
    "PosteriorWidthDrawing",
    "plot_breach",
    "plot_log_likelihood_ratio",
]

BLUE, VERMILION, GREEN, PURPLE, ORANGE, SKY = OKABE_ITO[:6]
GREY = "#999999"


def _ax(ax):
    if ax is None:
        _, ax = plt.subplots()
    return ax


class SpectrumDrawing:
    """The artists of :func:`plot_spectrum`, redrawn in place for a new result.

    A panel that moves a slider calls :meth:`update` instead of drawing a new figure: the axes,
    their ticks and the legend are kept (building them again is about half of a redraw).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    result : RecordReconstruction
        What :func:`ppdm_edu.attacks.spectral_filter` returned.
    n : int, optional
        Number of records: draws the Tracy-Widom finite-sample edge too.
    title : str, optional
        Axes title.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from ppdm_edu.attacks import spectral_filter
    >>> from ppdm_edu.datasets import correlated_data
    >>> X = correlated_data(500, n_attributes=6, n_factors=2, rng=0)
    >>> W = X + np.random.default_rng(1).normal(size=X.shape) * X.std(axis=0)
    >>> drawing = SpectrumDrawing(plt.subplots()[1], spectral_filter(W, X.var(axis=0)), n=500)
    >>> drawing.update(spectral_filter(W * 2, X.var(axis=0)))
    >>> len(drawing.kept.get_xdata()) + len(drawing.dropped.get_xdata())
    6
    """

    def __init__(self, ax, result: RecordReconstruction, n: int | None = None, title: str | None = None):
        from matplotlib.patches import Rectangle

        self.ax, self.n = ax, n
        self._size: int | None = None
        # the Marchenko-Pastur band across the whole width (x in axes units, y in data units)
        self.band = ax.add_patch(Rectangle((0.0, 1.0), 1.0, 1.0, transform=ax.get_yaxis_transform(),
                                           color=ORANGE, alpha=0.35, lw=0,
                                           label="Marchenko-Pastur noise band"))
        self.edge = (ax.axhline(1.0, color=VERMILION, ls="--", lw=1, label="Tracy-Widom 99 % edge")
                     if n is not None else None)
        self.kept, = ax.plot([], [], "o", color=BLUE, ms=8, label="kept (signal)")
        self.dropped, = ax.plot([], [], "o", color=GREY, ms=8, label="dropped (noise)")
        ax.set_yscale("log")
        # few labelled ticks: log axes label minor ticks by default, which is slow to lay out
        ax.yaxis.set_major_locator(mticker.LogLocator(subs=(1.0, 2.0, 5.0), numticks=8))
        ax.yaxis.set_minor_locator(mticker.NullLocator())
        ax.yaxis.set_major_formatter(mticker.FormatStrFormatter("%g"))
        ax.set_xlabel("principal direction")
        ax.set_ylabel("eigenvalue (noise variance = 1)")
        ax.set_title(title or "Spectrum of the perturbed data")
        ax.legend(fontsize="small", loc="upper right")
        self.update(result)

    def update(self, result: RecordReconstruction) -> None:
        """Show ``result`` (same number of attributes) on the same axes.

        Parameters
        ----------
        result : RecordReconstruction
            The new spectrum.
        """
        ev = np.asarray(result.eigenvalues)
        idx = np.arange(1, ev.size + 1)
        kept = idx <= result.n_components
        lo, hi = result.noise_bounds
        self.band.set_y(lo)
        self.band.set_height(hi - lo)
        if self.edge is not None and self.n is not None:  # the edge exists only with n
            self.edge.set_ydata([tracy_widom_bound(self.n, ev.size)] * 2)
        self.kept.set_data(idx[kept], ev[kept])
        self.dropped.set_data(idx[~kept], ev[~kept])
        if ev.size != self._size:  # one labelled tick per principal direction
            self.ax.set_xlim(0.5, ev.size + 0.5)
            self.ax.set_xticks(idx)
            self._size = ev.size
        # head room (in log units) for the legend rows above the largest eigenvalue: in the
        # projector style the legend is as wide as the axes and would cover the kept points
        bottom, top = min(lo, ev.min()) / 1.3, max(hi, ev.max()) * 1.3
        rows = 3 + (self.n is not None)
        self.ax.set_ylim(bottom, bottom * (top / bottom) ** (1.0 / (1.0 - legend_fraction(self.ax, rows))))


def plot_spectrum(result: RecordReconstruction, ax=None, n: int | None = None, title: str | None = None):
    """Eigenvalues of the perturbed covariance (noise units) against the pure-noise band.

    Points above the Marchenko-Pastur edge (shaded band) are the signal Kargupta et al. (ICDM
    2003, Fig. 2 style) keep; the others are dropped as noise. With ``n`` (number of records) the
    Tracy-Widom finite-sample edge is drawn too. To redraw for a new result without a new
    figure, use :class:`SpectrumDrawing`.

    Parameters
    ----------
    result : RecordReconstruction
        What :func:`ppdm_edu.attacks.spectral_filter` returned (eigenvalues, noise bounds and
        the number of components kept).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    n : int, optional
        Number of records: draws the Tracy-Widom 99 % edge too.
    title : str, optional
        Axes title (default "Spectrum of the perturbed data").

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the eigenvalues, the noise band and its legend.
    """
    ax = _ax(ax)
    SpectrumDrawing(ax, result, n=n, title=title)
    return ax


class RecoveryDrawing:
    """The artists of :func:`plot_record_recovery`, redrawn in place for new records.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    X, W, estimate : array-like of shape (n, d)
        True, perturbed and recovered records.
    attribute : int, default 0
        Which column is shown.
    max_points : int, default 500
        The first ``max_points`` records are drawn.
    label : str, default "spectral filter"
        Legend label of the estimate.
    legend : bool, default True
        Draw the legend (a panel may explain the colours in its read-out instead).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(100, 2))
    >>> drawing = RecoveryDrawing(plt.subplots()[1], X, X + 1, X)
    >>> drawing.update(X, X - 1, X)
    >>> float(drawing.perturbed.get_offsets()[0, 1] - X[0, 0])
    -1.0
    """

    def __init__(self, ax, X, W, estimate, attribute: int = 0, max_points: int = 500,
                 label: str = "spectral filter", legend: bool = True):
        self.ax, self.attribute, self.max_points = ax, attribute, max_points
        empty = np.empty((0, 2))
        self.perturbed = ax.scatter(empty[:, 0], empty[:, 1], s=6, color=GREY, alpha=0.6,
                                    label="perturbed w = x + r")
        self.recovered = ax.scatter(empty[:, 0], empty[:, 1], s=6, color=BLUE, alpha=0.8, label=label)
        self.diagonal, = ax.plot([], [], color="black", lw=1, label="perfect recovery")
        ax.set_xlabel(f"true value of attribute {attribute + 1}")
        ax.set_ylabel("published w / estimate")  # short: fits a projector
        if legend:
            ax.legend(fontsize="small", loc="upper left", markerscale=3)
        self.update(X, W, estimate)

    def update(self, X, W, estimate) -> None:
        """Show new records on the same axes.

        Parameters
        ----------
        X, W, estimate : array-like of shape (n, d)
            True, perturbed and recovered records.
        """
        X, W, est = (np.asarray(a, dtype=float)[:, self.attribute] for a in (X, W, estimate))
        take = slice(0, min(self.max_points, X.size))
        x = X[take]
        self.perturbed.set_offsets(np.column_stack([x, W[take]]))
        self.recovered.set_offsets(np.column_stack([x, est[take]]))
        lims = [x.min(), x.max()]
        self.diagonal.set_data(lims, lims)
        # the limits scatter() would give: the data's extent plus the axes' margins
        self.ax.ignore_existing_data_limits = True
        self.ax.update_datalim(np.column_stack([np.r_[x, x, lims], np.r_[W[take], est[take], lims]]))
        self.ax.autoscale_view()


def plot_record_recovery(X, W, estimate, attribute: int = 0, ax=None, max_points: int = 500,
                         label: str = "spectral filter"):
    """True value (x) against the perturbed value and against the attacker's estimate (y).

    Points on the diagonal are records recovered exactly; the grey cloud is what was published.
    To redraw for new records without a new figure, use :class:`RecoveryDrawing`.

    Parameters
    ----------
    X, W, estimate : array-like of shape (n, d)
        True, perturbed and recovered records.
    attribute : int, default 0
        Which column is shown.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    max_points : int, default 500
        The first ``max_points`` records are drawn.
    label : str, default "spectral filter"
        Legend label of the estimate.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the two scatter clouds and the diagonal.
    """
    ax = _ax(ax)
    RecoveryDrawing(ax, X, W, estimate, attribute=attribute, max_points=max_points, label=label)
    return ax


def plot_posterior_intervals(x, w, est: BayesEstimate, apriori_width: float, ax=None,
                             n_show: int = 30, rng=0):
    """For a few records: the paper's interval around w (grey) and the posterior interval.

    The grey bar is the interval Agrawal & Srikant's Table 1 promises (``w`` plus or minus half
    its width, whatever the data); the blue bar is the attacker's posterior interval, which
    uses the distribution of X and is often much shorter. The red dot is the true value.

    Parameters
    ----------
    x, w : array-like of shape (n,)
        Original and perturbed values.
    est : BayesEstimate
        The posterior intervals of every record (:func:`ppdm_edu.posterior.bayes_estimate`).
    apriori_width : float
        Width of the Table 1 interval (the noise's interval at the same confidence).
    ax : matplotlib.axes.Axes, optional
        Where to draw the intervals; a new figure and axes when omitted.
    n_show : int, default 30
        Number of records drawn (picked at random, shown sorted by ``w``).
    rng : None, int or numpy.random.Generator, default 0
        Seed or generator of the random pick.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with one pair of intervals per record.
    """
    ax = _ax(ax)
    x, w = np.asarray(x, dtype=float), np.asarray(w, dtype=float)
    rng = check_random_state(rng)
    pick = np.sort(rng.choice(x.size, size=min(n_show, x.size), replace=False))
    pick = pick[np.argsort(w[pick])]
    pos = np.arange(pick.size)
    half = apriori_width / 2.0
    ax.vlines(pos - 0.15, w[pick] - half, w[pick] + half, color=GREY, lw=3,
              label=f"Table 1: w ± {half:.2f}")
    ax.vlines(pos + 0.15, est.lower[pick], est.upper[pick], color=BLUE, lw=3,
              label=f"posterior {est.confidence:.0%} interval")
    ax.scatter(pos + 0.15, x[pick], color=VERMILION, s=14, zorder=3, label="true x")
    ax.set_xticks([])
    ax.set_xlabel(f"{pick.size} records, sorted by their perturbed value")
    ax.set_ylabel("value")
    ax.legend(fontsize="small", loc="upper left")
    return ax


def plot_posterior_width(w, est: BayesEstimate, apriori_width: float, ax=None,
                         bounds: tuple[float, float] | None = None):
    """Posterior interval width as a function of the perturbed value w.

    The Table 1 width is a dashed constant; the posterior width changes with ``w`` and drops
    near the edges of the data's range, where the prior rules values out.

    Parameters
    ----------
    w : array-like of shape (n,)
        Perturbed values.
    est : BayesEstimate
        The posterior intervals of the same records.
    apriori_width : float
        Width of the Table 1 interval, drawn as a dashed line.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    bounds : tuple of float, optional
        ``(low, high)`` of the attribute: its width is drawn as a dotted line.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the width curve and the reference lines.
    """
    return PosteriorWidthDrawing(_ax(ax), w, est, apriori_width, bounds=bounds).ax


class PosteriorWidthDrawing:
    """The artists of :func:`plot_posterior_width`, redrawn in place for another noise level.

    A panel that moves its privacy slider calls :meth:`update` instead of drawing a new figure:
    the axes, the reference lines and the legend are kept. The picture is pixel for pixel the one
    :func:`plot_posterior_width` draws for the same data.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    w : array-like of shape (n,)
        Perturbed values.
    est : BayesEstimate
        The posterior intervals of the same records.
    apriori_width : float
        Width of the Table 1 interval, drawn as a dashed line.
    bounds : tuple of float, optional
        ``(low, high)`` of the attribute: its width is drawn as a dotted line.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from ppdm_edu.datasets import plateau, plateau_pdf
    >>> from ppdm_edu.posterior import bayes_estimate
    >>> from ppdm_edu.randomization import GaussianNoise
    >>> noise = GaussianNoise(0.2)
    >>> x = plateau(500, rng=0)
    >>> w = x + noise.sample(x.shape, 1)
    >>> est = bayes_estimate(w, noise, plateau_pdf, bounds=(0.0, 1.0), n_grid=200)
    >>> drawing = PosteriorWidthDrawing(plt.subplots()[1], w, est, noise.interval_width(0.95))
    >>> drawing.update(w, est, 0.5)
    >>> drawing.legend.get_texts()[1].get_text()
    'Table 1 width (0.50)'
    """

    def __init__(self, ax, w, est: BayesEstimate, apriori_width: float,
                 bounds: tuple[float, float] | None = None):
        self.ax = ax
        self.curve, = ax.plot([], [], color=BLUE, label="posterior interval width")
        self.table = ax.axhline(apriori_width, color=GREY, ls="--", label=self._table_label(apriori_width))
        if bounds is not None:
            ax.axhline(bounds[1] - bounds[0], color=GREEN, ls=":", label="range of X")
        ax.set_xlabel("perturbed value w")
        ax.set_ylabel("interval width")
        self._set_data(w, est, apriori_width)
        self.legend = ax.legend(fontsize="small")

    @staticmethod
    def _table_label(apriori_width: float) -> str:
        return f"Table 1 width ({apriori_width:.2f})"

    def _set_data(self, w, est: BayesEstimate, apriori_width: float) -> None:
        w = np.asarray(w, dtype=float)
        order = np.argsort(w)
        self.curve.set_data(w[order], est.width[order])
        self.table.set_ydata([apriori_width, apriori_width])
        # the data limits as a new drawing finds them (from every line), x autoscaled at draw
        self.ax.relim()
        self.ax.autoscale_view(scaley=False)
        self.ax.set_ylim(0, max(apriori_width, float(est.width.max())) * 1.15)

    def update(self, w, est: BayesEstimate, apriori_width: float) -> None:
        """Show the posterior widths of another noise level on the same axes.

        Parameters
        ----------
        w : array-like of shape (n,)
            Perturbed values at the new noise level.
        est : BayesEstimate
            Their posterior intervals.
        apriori_width : float
            Width of the new Table 1 interval (the dashed line and its legend entry).
        """
        self._set_data(w, est, apriori_width)
        label = self._table_label(apriori_width)
        self.table.set_label(label)
        self.legend.get_texts()[1].set_text(label)


def plot_breach(rho1: float, rho2: float, ax=None):
    """Posterior of a property with prior rho1 after the most telling RR answer, against theta.

    A rho1-to-rho2 privacy breach (Evfimievski, Gehrke & Srikant 2003) happens where the curve
    rises above ``rho2``; that range of theta is shaded.

    Parameters
    ----------
    rho1 : float
        Prior probability of the property, in (0, 1).
    rho2 : float
        Posterior level that counts as a breach, in (rho1, 1).
    ax : matplotlib.axes.Axes, optional
        Where to draw the posterior curve; a new figure and axes when omitted.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the posterior curve and the shaded breach range.
    """
    from ..ldp import max_theta_without_breach, rr_posterior

    ax = _ax(ax)
    theta = np.linspace(0.5, 0.999, 400)
    ax.plot(theta, rr_posterior(rho1, theta, answer=1), color=BLUE,
            label=f"posterior after a '1' (prior {rho1:.0%})")
    ax.axhline(rho2, color=VERMILION, ls="--", label=f"rho2 = {rho2:.0%}")
    ax.axhline(rho1, color=GREY, ls=":", label=f"rho1 = {rho1:.0%}")
    t_star = max_theta_without_breach(rho1, rho2)
    ax.axvspan(t_star, 1.0, color=VERMILION, alpha=0.12, label=f"breach: theta >= {t_star:.3f}")
    ax.set_xlabel("theta (probability of telling the truth)")
    ax.set_ylabel("P(property | answer)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small", loc="upper left")
    return ax


def plot_log_likelihood_ratio(noises: dict, x1: float, x2: float, w, ax=None, epsilon: float | None = None):
    """ln f(w - x1) - ln f(w - x2) against w for several noises (LDP: bounded by epsilon).

    The privacy loss of publishing ``w`` when the input is ``x1`` or ``x2``: a noise gives
    epsilon-local differential privacy only if the curve stays inside the band. Infinite
    losses (an output impossible under one input) are marked at the frame's edge.

    Parameters
    ----------
    noises : dict
        ``{label: noise object}``; at most four are drawn, in their own colours.
    x1, x2 : float
        The two inputs compared.
    w : array-like
        Output values at which the loss is evaluated.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    epsilon : float, optional
        Shade the band ``|loss| <= epsilon``.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with one loss curve per noise (legend below it).
    """
    from ..ldp import log_likelihood_ratio

    ax = _ax(ax)
    w = np.asarray(w, dtype=float)
    colors = [BLUE, VERMILION, GREEN, PURPLE]
    for (name, noise), color in zip(noises.items(), colors):
        loss = log_likelihood_ratio(noise, x1, x2, w)
        finite = np.isfinite(loss)
        ax.plot(w[finite], loss[finite], color=color, label=name)
        # +-inf: draw as marks at the frame edge instead of dropping them silently
        inf = np.isinf(loss)
        if inf.any():
            ax.scatter(w[inf], np.where(loss[inf] > 0, 9.5, -9.5),
                       marker="|", color=color, s=20, label=f"{name}: ±inf (impossible under one input)")
    if epsilon is not None:
        ax.axhspan(-epsilon, epsilon, color=GREY, alpha=0.2, label=f"|loss| <= epsilon = {epsilon:.2f}")
    ax.set_ylim(-10, 10)
    ax.set_xlabel("output w")
    ax.set_ylabel(f"privacy loss ln f(w | x={x1:g}) / f(w | x={x2:g})")
    # outside the axes: every corner of the frame holds a curve or a ±inf mark
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    return ax
