"""Figures of notebook 09: the secret bits an attacker rebuilt, and the share recovered against the error.

Every function draws on the ``ax`` it is given (or a new one) and returns it; the ``*Drawing``
classes keep their artists so that a panel can show a new result in place. The sweeps are read
from tables (columns named in each docstring), so that plots never import the experiments.
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np

from .alt_text import set_description
from .palette import OKABE_ITO

__all__ = ["BitsDrawing", "plot_bits", "RecoveryCurveDrawing", "plot_recovery_curve", "plot_recovery",
           "plot_attack_tradeoff", "DECODER_STYLE"]

BLUE, VERMILION, GREEN, PURPLE, ORANGE, SKY = OKABE_ITO[:6]
GREY = "#767676"  # 4.5:1 on white
#: line style and marker of each decoder (the colour is the number of people's)
DECODER_STYLE = {"least-squares": ("-", "o", "least squares"), "l1": ("--", "s", "L1 program")}
#: colour per number of people in the sweeps (then the palette in order)
_N_COLOURS = (BLUE, VERMILION, GREEN, PURPLE, ORANGE)
#: how each answering policy is drawn in the trade-off figure: colour, marker, legend name
_POLICY_STYLE = {
    "bounded": (GREY, "D", "error uniform on (−E, E)"),
    "laplace-budget": (BLUE, "o", "Laplace, total ε split over m"),
    "laplace-per-query": (VERMILION, "^", "Laplace, ε per query"),
    "gaussian-budget": (GREEN, "s", "Gaussian (zCDP), total ε, δ = 1e-5"),
}
#: where each DP policy's total ε is written beside its markers (points above or below)
_LABEL_OFFSET = {"laplace-budget": 6, "gaussian-budget": -11, "laplace-per-query": 6}
#: people per row of the bits grid
COLUMNS = 20


def _ax(ax):
    if ax is None:
        _, ax = plt.subplots()
    return ax


def _grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    k = np.arange(n)
    return k % COLUMNS, -(k // COLUMNS)


class BitsDrawing:
    """Every person's secret bit and whether the attacker guessed it, one square per person.

    Filled squares: secret 1, hollow: secret 0, both guessed right; a vermilion cross: guessed
    wrong. The shapes, not only the colours, tell them apart.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    secret : array-like of 0/1
        The true bits.
    guess : array-like of 0/1
        The attacker's guess.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> drawing = BitsDrawing(plt.subplots()[1], [1, 0, 1, 1], [1, 0, 0, 1])
    >>> drawing.update([1, 0, 1, 1], [1, 1, 1, 1])
    >>> len(drawing.wrong.get_offsets())
    1
    """

    def __init__(self, ax, secret, guess):
        self.ax = ax
        style = dict(s=42, linewidths=1.2)
        self.ones = ax.scatter([], [], marker="s", color=BLUE, label="secret 1, guessed right", **style)
        self.zeros = ax.scatter([], [], marker="s", facecolors="none", edgecolors=BLUE,
                                label="secret 0, guessed right", **style)
        self.wrong = ax.scatter([], [], marker="X", color=VERMILION, label="guessed wrong", s=70, linewidths=0.5)
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_visible(False)
        self.update(secret, guess)

    def update(self, secret, guess) -> None:
        """Show another secret and guess (any number of people).

        Parameters
        ----------
        secret : array-like of 0/1
            The true bits.
        guess : array-like of 0/1
            The attacker's guess.
        """
        d = np.asarray(secret).astype(bool)
        g = np.asarray(guess).astype(bool)
        x, y = _grid(d.size)
        right = d == g
        for artist, mask in ((self.ones, right & d), (self.zeros, right & ~d), (self.wrong, ~right)):
            artist.set_offsets(np.column_stack([x[mask], y[mask]]) if mask.any() else np.empty((0, 2)))
        rows = -int(y.min()) + 1 if d.size else 1
        self.ax.set_xlim(-0.8, COLUMNS - 0.2)
        self.ax.set_ylim(-rows + 0.3, 0.8)
        wrong = int((~right).sum())
        self.ax.set_title(f"{d.size - wrong} of {d.size} secrets guessed right", fontsize="medium")
        set_description(self.ax, f"{d.size} people, one secret bit each (a square: filled 1, hollow 0); "
                                 "crosses mark the attacker's wrong guesses.")


def plot_bits(secret, guess, ax=None):
    """The secret bits and the attacker's guess (:class:`BitsDrawing`).

    Parameters
    ----------
    secret : array-like of 0/1
        The true bits.
    guess : array-like of 0/1
        The attacker's guess.
    ax : matplotlib.axes.Axes, optional
        Where to draw.

    Returns
    -------
    matplotlib.axes.Axes
        The axes.
    """
    ax = _ax(ax)
    BitsDrawing(ax, secret, guess)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.02), ncol=3, fontsize="small", frameon=False)
    return ax


class RecoveryCurveDrawing:
    """The share of bits least squares recovers at every error level, its prediction, and the
    attack now shown as one marker.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    levels : array-like of float
        Error levels E / √n.
    shares : array-like of float
        Least squares' recovered share at each level (one secret, one set of queries).
    prediction : array-like of float or None
        :func:`~ppdm_edu.database_reconstruction.least_squares_prediction` at each level (None
        where it does not apply: ``m <= n + 1``).
    level : float
        The level of the attack shown.
    share : float
        Its recovered share.
    decoder : str
        Its decoder (a key of :data:`DECODER_STYLE`).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> d = RecoveryCurveDrawing(plt.subplots()[1], [0, 1, 2], [1.0, 0.8, 0.6], None, 1.0, 0.7, "l1")
    >>> d.now.get_offsets().tolist()
    [[1.0, 0.7]]
    """

    def __init__(self, ax, levels, shares, prediction, level: float, share: float, decoder: str):
        self.ax = ax
        # the two references are named where they are drawn: the legend keeps to the three series
        ax.axhline(0.5, color=GREY, lw=1, ls=":")
        ax.axvline(1.0, color=GREY, lw=1, ls="-.")
        ax.text(0.99, 0.495, "a coin", transform=ax.get_yaxis_transform(), ha="right", va="top",
                fontsize="x-small", color=GREY)
        ax.text(1.0, 0.99, " E = √n", transform=ax.get_xaxis_transform(), ha="left", va="top",
                fontsize="x-small", color=GREY)
        self.curve, = ax.plot([], [], "-", color=BLUE, lw=1.6, marker=".", label="least squares, every E")
        self.predicted, = ax.plot([], [], "--", color="black", lw=1.2, label="prediction Φ(√(m−n−1) / 4σ)")
        self.now = ax.scatter([], [], marker="o", s=120, facecolors="none", edgecolors=VERMILION, linewidths=2.2,
                              label="this attack", zorder=3)
        ax.set_ylim(0.4, 1.03)
        ax.set_xlabel("error bound E / √n")
        ax.set_ylabel("share of bits recovered")
        ax.yaxis.set_major_formatter(mticker.PercentFormatter(1.0, decimals=0))
        ax.legend(loc="lower left", fontsize="x-small", framealpha=0.9)
        self.update(levels, shares, prediction, level, share, decoder)

    def update(self, levels, shares, prediction, level: float, share: float, decoder: str) -> None:
        """Show another curve and attack on the same axes.

        Parameters
        ----------
        levels : array-like of float
            Error levels E / √n.
        shares : array-like of float
            Least squares' recovered share at each level.
        prediction : array-like of float or None
            Its closed form at each level (None where it does not apply).
        level : float
            The level of the attack shown.
        share : float
            Its recovered share.
        decoder : str
            Its decoder (a key of :data:`DECODER_STYLE`).
        """
        levels = np.asarray(levels, dtype=float)
        self.curve.set_data(levels, np.asarray(shares, dtype=float))
        if prediction is None:
            self.predicted.set_data([], [])
        else:
            self.predicted.set_data(levels, np.asarray(prediction, dtype=float))
        self.now.set_offsets([[float(level), float(share)]])
        self.now.set_label(f"this attack ({DECODER_STYLE[decoder][2]})")
        self.ax.set_xlim(levels.min() - 0.05, levels.max() + 0.05)
        legend = self.ax.get_legend()
        if legend is not None:
            legend.get_texts()[-1].set_text(self.now.get_label())


def plot_recovery_curve(levels, shares, prediction, level: float, share: float, decoder: str, ax=None):
    """:class:`RecoveryCurveDrawing` on ``ax``.

    Parameters
    ----------
    levels : array-like of float
        Error levels E / √n.
    shares : array-like of float
        Least squares' recovered share at each level.
    prediction : array-like of float or None
        Its closed form at each level (None where it does not apply).
    level : float
        The level of the attack shown.
    share : float
        Its recovered share.
    decoder : str
        Its decoder (a key of :data:`DECODER_STYLE`).
    ax : matplotlib.axes.Axes, optional
        Where to draw.

    Returns
    -------
    matplotlib.axes.Axes
        The axes.
    """
    ax = _ax(ax)
    RecoveryCurveDrawing(ax, levels, shares, prediction, level, share, decoder)
    return ax


def plot_recovery(table, ax=None, prediction=None):
    """The √n threshold: share of bits recovered against E / √n, per number of people and decoder.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per (n, decoder, level): columns ``n``, ``decoder`` (a key of
        :data:`DECODER_STYLE`), ``level`` (E / √n), ``mean`` (recovered share over the seeds),
        ``low`` and ``high`` (the band drawn, e.g. mean ± 2 standard errors), ``seeds``.
    ax : matplotlib.axes.Axes, optional
        Where to draw.
    prediction : (array-like, array-like), optional
        Levels and least squares' predicted share (the same for every n when m / n is fixed).

    Returns
    -------
    matplotlib.axes.Axes
        The axes (x on a symmetric-log scale, so that E = 0 is on it).
    """
    ax = _ax(ax)
    ns = sorted(int(v) for v in table["n"].unique())
    for k, n in enumerate(ns):
        colour = _N_COLOURS[k % len(_N_COLOURS)]
        for decoder, rows in table[table["n"] == n].groupby("decoder", sort=False):
            rows = rows.sort_values("level")
            ls, marker, name = DECODER_STYLE[decoder]
            seeds = int(rows["seeds"].min())
            ax.plot(rows["level"], rows["mean"], ls=ls, marker=marker, ms=4, color=colour, lw=1.4,
                    label=f"n = {n}, {name} ({seeds} seeds)")
            ax.fill_between(rows["level"], rows["low"], rows["high"], color=colour, alpha=0.15, lw=0)
    if prediction is not None:
        ax.plot(*prediction, color="black", lw=1.0, ls=":", label="least squares, predicted")
    ax.axhline(0.5, color=GREY, lw=1, ls=":")
    ax.axvline(1.0, color=GREY, lw=1, ls="-.")
    ax.set_xscale("symlog", linthresh=0.125)
    ax.xaxis.set_major_locator(mticker.FixedLocator(sorted(table["level"].unique())))
    ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_locator(mticker.NullLocator())
    ax.set_ylim(0.4, 1.02)
    ax.set_xlabel("error bound E / √n (answers uniform on (−E, E))")
    ax.set_ylabel("share of bits recovered")
    ax.yaxis.set_major_formatter(mticker.PercentFormatter(1.0, decimals=0))
    ax.legend(fontsize="x-small", loc="lower left")
    set_description(ax, "Bands: mean ± 2 standard errors over the seeds. The dash-dotted vertical line marks "
                        "E = √n, the dotted horizontal one a coin's 50 %.")
    return ax


def plot_attack_tradeoff(table, ax=None):
    """The trade-off from the attacker's side: share of bits recovered against the error a user sees.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per policy setting: ``policy`` (``"bounded"``, ``"laplace-budget"``,
        ``"laplace-per-query"``, ``"gaussian-budget"``), ``rms`` (root-mean-square error of one
        answer over √n), ``mean``, ``low``, ``high`` (recovered share and its band), ``bound``
        (the most any attacker can get right under the policy's (ε, δ), 1 without one) and
        ``epsilon`` (the total ε, ``inf`` without one).
    ax : matplotlib.axes.Axes, optional
        Where to draw.

    Returns
    -------
    matplotlib.axes.Axes
        The axes (x log scale).
    """
    ax = _ax(ax)
    for policy, rows in table.groupby("policy", sort=False):
        colour, marker, name = _POLICY_STYLE[policy]
        rows = rows.sort_values("rms")
        ax.errorbar(rows["rms"], rows["mean"], yerr=[rows["mean"] - rows["low"], rows["high"] - rows["mean"]],
                    color=colour, marker=marker, ms=6, lw=1.2, capsize=2, label=f"{name}: measured")
        promised = rows[rows["bound"] < 0.999]   # where DP's promise is below certainty
        if len(promised):
            ax.plot(promised["rms"], promised["bound"], color=colour, marker=marker, ms=7, mfc="white", lw=0.8,
                    ls=":", label=f"{name}: DP's promise (at most)")
        dy = _LABEL_OFFSET.get(policy)
        if dy is not None:
            for _, r in rows.iterrows():
                ax.annotate(f"ε={r['epsilon']:g}", (r["rms"], r["mean"]), textcoords="offset points",
                            xytext=(5, dy), fontsize="xx-small", color="black")
    ax.axhline(0.5, color=GREY, lw=1, ls=":")
    ax.axvline(1.0, color=GREY, lw=1, ls="-.")
    ax.set_xscale("log")
    ax.set_ylim(0.4, 1.03)
    ax.set_xlabel("error a user sees: root-mean-square error of one count / √n")
    ax.set_ylabel("share of bits recovered (least squares)")
    ax.yaxis.set_major_formatter(mticker.PercentFormatter(1.0, decimals=0))
    ax.legend(fontsize="x-small", loc="lower left")
    lo, hi = table["rms"][table["rms"] > 0].min(), table["rms"].max()
    if math.isfinite(lo) and math.isfinite(hi):
        ax.set_xlim(lo / 1.6, hi * 1.6)
    set_description(ax, "Hollow markers: the largest share any attacker can recover under each release's "
                        "total (ε, δ), for one person's bit changing. The dash-dotted vertical line marks an "
                        "error of √n.")
    return ax
