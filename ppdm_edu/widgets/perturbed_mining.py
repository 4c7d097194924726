"""Notebook 06 panel: PPDTC4.5's threshold method, live on a 5,000-record Adult sample.

The threshold slider moves the threshold of Eq. 10-12; the SNR slider changes the noise
(Gaussian or uniform, the same SNR on the six attributes). Each update perturbs the sample
(one fixed noise draw, rescaled, so that only the noise *level* changes), fits C4.5 on the
perturbed values and PPDTC4.5 with the threshold, and tests both on 16,281 original and
perturbed test records. Results are kept per (threshold, SNR, noise) and the neighbouring slider
steps are computed ahead while the kernel waits (:class:`~ppdm_edu.widgets.precompute.AheadCache`).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np

from .._validation import check_positive, check_probability
from ..datasets import ADULT_CONTINUOUS
from ..random_state import spawn_rngs
from ..randomization import NOISE_KINDS, noise_for_snr
from ..trees.c45 import C45, PPDTC45
from .panel import Panel, figure_margins, measure_tick_labels_once, pin_title, slider, toggle_buttons
from .precompute import AheadCache, slider_neighbours

__all__ = ["PerturbedTreePanel", "PerturbedTreeResult"]


@dataclass(frozen=True)
class PerturbedTreeResult:
    """Accuracies (%) and the root split of one panel update.

    Attributes
    ----------
    threshold : float
        Threshold of the threshold method.
    snr : float
        Signal-to-noise ratio of every attribute's noise.
    kind : str
        Noise kind, "gaussian" or "uniform".
    original_c45 : float
        C4.5 trained and tested on original data.
    c45_on_w_original : float
        C4.5 trained on perturbed data, tested on original records.
    c45_on_w_perturbed : float
        C4.5 trained on perturbed data, tested on perturbed records.
    threshold_original : float
        PPDTC4.5 (threshold method), tested on original records.
    threshold_perturbed : float
        PPDTC4.5 (threshold method), tested on perturbed records.
    n_leaves : int
        Leaves of the PPDTC4.5 tree.
    root_attribute : str
        Attribute of the root split.
    root_split : float
        Split point of the root (NaN when the tree is a single leaf).
    root_noise : noise object
        The noise of the root attribute.
    shift : float
        ``F_R^-1(1 - threshold)`` of that noise: how far the threshold moves split points.
    """

    threshold: float
    snr: float
    kind: str
    original_c45: float
    c45_on_w_original: float
    c45_on_w_perturbed: float
    threshold_original: float
    threshold_perturbed: float
    n_leaves: int
    root_attribute: str
    root_split: float
    root_noise: object
    shift: float


class PerturbedTreePanel(Panel):
    """Threshold and SNR sliders re-run C4.5 and PPDTC4.5 (threshold method) on 5,000 records.

    Left: ``p_S1`` of the root split with the threshold rule (Liu, Kantarcioglu &
    Thuraisingham, Eq. 12); right: the accuracies of C4.5 on the original and on the perturbed
    data and of the threshold method, on original and on perturbed test records.

    Parameters
    ----------
    **initial
        Initial control values: ``threshold`` (float in [0.05, 0.95], default 0.3), ``snr``
        (float in [0.2, 5], default 1.7) and ``kind`` ("gaussian" or "uniform").

    Examples
    --------
    >>> panel = PerturbedTreePanel()          # doctest: +SKIP
    >>> panel.controls["threshold"].value = 0.3   # doctest: +SKIP
    """

    title = "PPDTC4.5 threshold method on 5,000 perturbed Adult records"
    figsize = (10, 3.6)
    n_train = 5_000
    seed = 0

    def __init__(self, **initial):
        from ..datasets.adult_continuous import adult_xy

        data_rng, rng = spawn_rngs(self.seed)  # the noise stream (rng) is independent of the data
        self._X, self._y, self._Xt, self._yt = adult_xy(self.n_train, data_rng)
        # one standardized noise draw per record and attribute, rescaled at every update
        self._z = {kind: (NOISE_KINDS[kind].unit_sample(self._X.shape, rng),
                          NOISE_KINDS[kind].unit_sample(self._Xt.shape, rng))
                   for kind in ("gaussian", "uniform")}
        self._original = 100 * C45().fit(self._X, self._y).score(self._Xt, self._yt)
        # one noise level's perturbed data is ~1 MB: keep a few; results are small
        self._levels = AheadCache(maxsize=6)
        self._results = AheadCache(maxsize=512)
        super().__init__(**initial)

    def build_controls(self):
        return {
            "threshold": slider(widgets.FloatSlider, value=0.3, min=0.05, max=0.95, step=0.05,
                                description="threshold", readout_format=".2f"),
            "snr": slider(widgets.FloatSlider, value=1.7, min=0.2, max=5.0, step=0.1, description="SNR",
                          readout_format=".1f"),
            "kind": toggle_buttons(options=["gaussian", "uniform"], value="gaussian",
                                          description="noise"),
        }

    def _perturbed(self, snr, kind):
        """Noises, perturbed train/test values and C4.5 on them, for one noise level (kept)."""
        return self._levels.get((round(snr, 6), kind), functools.partial(self._perturb, snr, kind))

    def _perturb(self, snr, kind):
        # SNR = var(x) / var(r) per attribute (Liu et al. Section 7): the library's rule
        noises = [noise_for_snr(self._X[:, j], snr, kind) for j in range(self._X.shape[1])]
        # the unit draws are N(0, 1) / U(-1, 1): scaled by sigma / alpha they are the noise
        scale = np.array([nz.scale for nz in noises])
        z, zt = self._z[kind]
        W, Wt = self._X + z * scale, self._Xt + zt * scale
        plain = C45().fit(W, self._y)
        return noises, W, Wt, (100 * plain.score(self._Xt, self._yt), 100 * plain.score(Wt, self._yt))

    def compute(self, threshold, snr, kind):
        theta = check_probability(threshold, "threshold", open_interval=True)
        snr = check_positive(snr, "snr")
        if kind not in ("gaussian", "uniform"):
            raise ValueError(f"noise must be 'gaussian' or 'uniform', got {kind!r}")
        return self._results.get((round(theta, 6), round(snr, 6), kind),
                                 functools.partial(self._fit, theta, snr, kind))

    def _fit(self, theta, snr, kind) -> PerturbedTreeResult:
        noises, W, Wt, (plain_original, plain_perturbed) = self._perturbed(snr, kind)
        tree = PPDTC45(dict(enumerate(noises)), threshold=theta).fit(W, self._y)
        t = tree.tree_
        root_a = int(t.feature[0]) if t.feature[0] >= 0 else 0
        return PerturbedTreeResult(
            threshold=theta, snr=snr, kind=kind, original_c45=self._original,
            c45_on_w_original=plain_original, c45_on_w_perturbed=plain_perturbed,
            threshold_original=100 * tree.score(self._Xt, self._yt),
            threshold_perturbed=100 * tree.score(Wt, self._yt),
            n_leaves=tree.n_leaves_, root_attribute=ADULT_CONTINUOUS[root_a],
            root_split=float(t.threshold[0]) if t.feature[0] >= 0 else float("nan"),
            root_noise=noises[root_a], shift=noises[root_a].ppf(1.0 - theta),
        )

    def after_update(self, result) -> None:
        """While the room looks: the other noise kind, then the next threshold and SNR steps.

        Parameters
        ----------
        result : object
            The result now shown.
        """
        # the other noise kind at this threshold and SNR first (a toggle costs a fit on a miss)
        ahead = [{"threshold": result.threshold, "snr": result.snr,
                  "kind": "uniform" if result.kind == "gaussian" else "gaussian"}]
        for name, here in (("threshold", result.threshold), ("snr", result.snr)):
            for v in slider_neighbours(self.controls[name], here):
                ahead.append({"threshold": result.threshold, "snr": result.snr, "kind": result.kind,
                              name: v})
        self._results.prefetch([
            ((round(a["threshold"], 6), round(a["snr"], 6), a["kind"]),
             functools.partial(self._fit, a["threshold"], a["snr"], a["kind"]))
            for a in ahead])

    def _bars(self, result) -> dict:
        return {
            "C4.5 on original data": result.original_c45,
            "C4.5 on w, test original": result.c45_on_w_original,
            "C4.5 on w, test perturbed": result.c45_on_w_perturbed,
            "threshold, test original": result.threshold_original,
            "threshold, test perturbed": result.threshold_perturbed,
        }

    @staticmethod
    def _split_title(result) -> str:
        return f"root split: {result.root_attribute} <= {result.root_split:,.6g}"

    def draw(self, figure, result):
        from ..plots.perturbed_mining import AccuracyBarsDrawing, PSOneDrawing

        # fixed margins (the Panel figure has no layout engine: it would double the render time)
        ax1, ax2 = figure.subplots(1, 2, gridspec_kw=dict(
            width_ratios=[1, 1.2], wspace=0.75, **figure_margins(figure, left=4.6, bottom=3.4, top=1.8, right=2.0)))
        split = None
        if np.isfinite(result.root_split):
            split = PSOneDrawing(ax1, result.root_noise, result.root_split, result.threshold)
            # y=1.0 fixed (no top ticks, no offset text: where matplotlib's search ends anyway)
            ax1.set_title(self._split_title(result), fontsize="medium", y=1.0)
            # draw less: the same label in plain text (mathtext costs ~60 ms a redraw)
            ax1.set_ylabel("p_S1 = P(R ≥ w − t)")
        else:
            ax1.text(0.5, 0.5, "the tree is a single leaf", ha="center", transform=ax1.transAxes)
        bars = AccuracyBarsDrawing(ax2, self._bars(result), baseline=100 * (1 - self._yt.mean()),
                                   title="accuracy on 16,281 test records")
        pin_title(ax2)
        for ax in (ax1, ax2):  # fewer ticks: tick layout is most of the remaining redraw
            ax.locator_params(axis="x", nbins=4)
        ax1.locator_params(axis="y", nbins=4)
        measure_tick_labels_once(figure)
        self._drawings = (split, bars)

    def redraw(self, figure, result):
        # the same axes, ticks and bars serve every position, unless the tree turns into a
        # single leaf or back (then the left axes change what they show: draw anew)
        split, bars = self._drawings
        if (split is None) == bool(np.isfinite(result.root_split)):
            return False
        if split is not None:
            split.update(result.root_noise, result.root_split, result.threshold)
            split.ax.set_title(self._split_title(result), fontsize="medium", y=1.0)
        bars.update(self._bars(result))
        return True

    def summary(self, result):
        return (f"threshold {result.threshold:.2f}, {result.kind} noise at SNR {result.snr:.1f}: "
                f"split points moved by F<sub>R</sub><sup>-1</sup>(1 - threshold) = {result.shift:,.4g} "
                f"(root attribute); PPDTC4.5 has {result.n_leaves} leaves. "
                f"Dotted line at 76.4 %: always answering '&lt;=50K'.")
