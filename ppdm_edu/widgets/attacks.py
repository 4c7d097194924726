"""Panels of notebook 07: the spectral-filtering attack and the attacker's posterior intervals."""
from __future__ import annotations

import functools
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np

from ..attacks import (
    RecordReconstruction,
    gaussian_bayes_reconstruct,
    relative_rmse,
    spectral_filter,
)
from ..datasets import correlated_data, plateau, plateau_pdf
from ..plots.attacks import PosteriorWidthDrawing, RecoveryDrawing, SpectrumDrawing
from ..posterior import BayesEstimate, bayes_estimate
from ..random_state import spawn_rngs
from ..randomization import GaussianNoise
from .panel import Panel, figure_margins, measure_tick_labels_once, pin_title, slider
from .precompute import AheadCache, slider_neighbours

__all__ = ["SpectralAttackPanel", "PosteriorIntervalPanel"]



def _margins(figure, **extra) -> dict:
    """Fixed margins for a Panel figure (it has no layout engine), growing with the font size
    so that tick and axis labels are not clipped in lecture mode."""
    return dict(figure_margins(figure, left=4.0, bottom=3.4, top=1.8), **extra)

@dataclass(frozen=True)
class _AttackResult:
    X: np.ndarray
    W: np.ndarray
    sd: np.ndarray
    spectral: RecordReconstruction
    bayes: RecordReconstruction
    raw_rmse: float
    spectral_rmse: float
    bayes_rmse: float


class SpectralAttackPanel(Panel):
    """Correlation and noise sliders -> spectrum of the perturbed data and recovered records.

    ``correlation`` is the share of every attribute's variance that comes from the two latent
    factors (:func:`ppdm_edu.datasets.correlated_data`); ``sigma`` is the noise standard
    deviation in units of each attribute's standard deviation. The records and the noise are
    drawn with fixed seeds, so moving a slider changes one thing only.

    Left: the eigenvalues of the perturbed data against the noise band
    (:class:`~ppdm_edu.plots.attacks.SpectrumDrawing`). Right: attribute 1's true values
    against the published and the recovered ones; the read-out gives the RMSE of the perturbed
    values, of the spectral filter and of the Gaussian Bayes estimate.

    Parameters
    ----------
    **initial
        Initial control values: ``correlation`` (float in [0, 1], default 0.99) and ``sigma``
        (float in [0.1, 3], default 1.0).
    """

    title = "Spectral filtering (Kargupta et al. 2003): correlated attributes betray the noise"
    figsize = (10.0, 4.0)
    n = 2000
    n_attributes = 10
    seed = 0

    def build_controls(self):
        return {
            "correlation": slider(
                widgets.FloatSlider, value=0.99, min=0.0, max=1.0, step=0.01, description="correlation",
                tooltip="share of each attribute explained by the common factor", readout_format=".2f"),
            "sigma": slider(
                widgets.FloatSlider, value=1.0, min=0.1, max=3.0, step=0.05, description="noise σ / sd",
                tooltip="noise standard deviation over the attribute standard deviation", readout_format=".2f"),
        }

    def compute(self, correlation, sigma):
        if sigma <= 0:
            raise ValueError("sigma must be > 0: without noise there is nothing to filter")
        data_rng, noise_rng = spawn_rngs(self.seed)  # independent streams: noise never follows data
        X = correlated_data(self.n, n_attributes=self.n_attributes, n_factors=2,
                            correlation=correlation, rng=data_rng)
        sd = sigma * X.std(axis=0)
        W = X + noise_rng.normal(size=X.shape) * sd
        spectral = spectral_filter(W, sd**2)
        bayes = gaussian_bayes_reconstruct(W, sd**2)
        return _AttackResult(
            X=X, W=W, sd=sd, spectral=spectral, bayes=bayes,
            raw_rmse=relative_rmse(W, X, sd), spectral_rmse=spectral.rmse(X, sd),
            bayes_rmse=bayes.rmse(X, sd),
        )

    def draw(self, figure, result):
        left, right = figure.subplots(1, 2, gridspec_kw=_margins(figure, wspace=0.3))
        self._drawings = (
            SpectrumDrawing(left, result.spectral, n=self.n),
            # the colours are explained in the read-out (faster redraw)
            RecoveryDrawing(right, result.X, result.W, result.spectral.estimate, max_points=300,
                            legend=False))
        # both titles fixed at y=1.0, where matplotlib's search ends (no top ticks, no offset text)
        right.set_title("Attribute 1", fontsize="medium", y=1.0)
        pin_title(left)
        measure_tick_labels_once(figure)

    def redraw(self, figure, result):
        # both sliders change only the data: the same axes, ticks and legend serve
        spectrum, recovery = self._drawings
        spectrum.update(result.spectral)
        recovery.update(result.X, result.W, result.spectral.estimate)
        return True

    def summary(self, result):
        return (
            "Right, attribute 1: <span style='color:#767676' aria-hidden='true'>&#9679;</span> published (perturbed) "
            "<span style='color:#0072B2' aria-hidden='true'>&#9679;</span> recovered by the spectral filter<br>"
            f"RMSE in units of sigma: perturbed values <b>{result.raw_rmse:.2f}</b>, "
            f"spectral filter (<b>{result.spectral.n_components}</b> components kept) "
            f"<b>{result.spectral_rmse:.2f}</b>, Gaussian Bayes (BE-DR) "
            f"<b>{result.bayes_rmse:.2f}</b> (n = {self.n:,})"
        )


@dataclass(frozen=True)
class _PosteriorResult:
    x: np.ndarray
    w: np.ndarray
    estimate: BayesEstimate
    apriori_width: float
    coverage: float


class PosteriorIntervalPanel(Panel):
    """Privacy level slider -> Table 1 width versus the attacker's posterior interval width.

    Plateau data with Gaussian noise whose 95 % interval is ``privacy`` times the data's range:
    the figure (:func:`~ppdm_edu.plots.attacks.plot_posterior_width`) and the read-out compare
    the width Table 1 promises with the attacker's posterior 95 % intervals and their coverage.

    Parameters
    ----------
    **initial
        Initial control value: ``privacy`` (float in [0.1, 3], default 1.0).
    """

    title = "What the distribution tells the attacker: posterior 95 % interval vs Table 1"
    figsize = (7.0, 4.0)
    n = 2000
    seed = 0

    def build_controls(self):
        return {
            "privacy": slider(
                widgets.FloatSlider, value=1.0, min=0.1, max=3.0, step=0.05,
                description="privacy level", tooltip="Table 1 interval width / range", readout_format=".2f"),
        }

    def __init__(self, **initial):
        self._results = AheadCache(maxsize=256)
        super().__init__(**initial)

    def compute(self, privacy):
        if privacy <= 0:
            raise ValueError("the privacy level must be > 0")
        # kept per slider position (rounded: 0.95 + 0.05 is not 1.0 in floating point); the
        # positions one step left and right are computed ahead (after_update)
        key = round(float(privacy), 6)
        return self._results.get(key, functools.partial(self._estimate, key))

    def after_update(self, result):
        """Compute the posterior one slider step left and right while the room looks.

        Parameters
        ----------
        result : object
            The result now shown.
        """
        ahead = slider_neighbours(self.controls["privacy"], self.values()["privacy"])
        self._results.prefetch([(p, functools.partial(self._estimate, p)) for p in ahead])

    def _estimate(self, privacy):
        """Plateau data, Gaussian noise of this privacy level, the attacker's posterior
        intervals: a pure function of ``privacy`` (fixed seeds)."""
        noise = GaussianNoise.from_interval_width(privacy * 1.0, 0.95)  # range of plateau: 1
        data_rng, noise_rng = spawn_rngs(self.seed)  # independent streams: noise never follows data
        x = plateau(self.n, rng=data_rng)
        w = x + noise.sample(x.shape, noise_rng)
        # 500 grid cells: at least 10 per noise sd over the slider's range (the library default
        # of 40 per sd is for the notebook's numbers; the curve does not need it)
        est = bayes_estimate(w, noise, plateau_pdf, bounds=(0.0, 1.0), n_grid=500)
        inside = (x >= est.lower) & (x <= est.upper)
        return _PosteriorResult(x=x, w=w, estimate=est, apriori_width=noise.interval_width(0.95),
                                coverage=float(inside.mean()))

    def draw(self, figure, result):
        ax = figure.subplots(gridspec_kw=_margins(figure))
        # the artists of plot_posterior_width, kept to be updated in place (redraw)
        self._drawing = PosteriorWidthDrawing(ax, result.w, result.estimate, result.apriori_width,
                                              bounds=(0.0, 1.0))
        # y=1.0 fixed, where matplotlib's search ends (no top ticks, no offset text)
        ax.set_title("Plateau data, Gaussian noise", y=1.0)
        measure_tick_labels_once(figure)

    def redraw(self, figure, result):
        # another privacy level changes the data, the limits and one legend label: the same
        # axes, lines and legend serve (the picture is the one a new panel draws)
        self._drawing.update(result.w, result.estimate, result.apriori_width)
        return True

    def summary(self, result):
        mean = float(result.estimate.width.mean())
        return (
            f"Table 1 promises <b>{result.apriori_width:.2f}</b>; the posterior interval is "
            f"<b>{mean:.2f}</b> on average ({mean / result.apriori_width:.0%} of it) and holds the "
            f"true value for {result.coverage:.1%} of the records"
        )
