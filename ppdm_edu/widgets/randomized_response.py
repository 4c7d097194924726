"""Panels for notebook 03 (randomized response, Du & Zhan Section 3)."""
from __future__ import annotations

import ipywidgets as widgets
import numpy as np

from ..lecture import OKABE_ITO
from ..plots.randomized_response import SAMPLING_XLIM, SamplingDistributionDrawing
from ..randomized_response import rr_epsilon, sample_size_factor
from ..rr_simulation import simulate_warner_surveys
from .panel import Panel, epsilon_text, margin_axes, slider

__all__ = ["WarnerSurveyPanel"]


class WarnerSurveyPanel(Panel):
    """A class survey with Warner's device, repeated 1,000 times.

    Sliders: theta (probability of answering the true question), n (respondents per survey) and
    the true share P(A). Every update runs 1,000 fresh surveys
    (:func:`~ppdm_edu.rr_simulation.simulate_warner_surveys`, one binomial draw per survey)
    and shows the sampling distribution of the unbiased estimate against the truth and Warner's
    theoretical +-2 SE band. theta = 0.5 shows why nothing can be estimated.

    Parameters
    ----------
    seed : int, default 0
        Seed of the surveys; the same at every update, so a slider changes the setting only.
    **initial
        Initial control values: ``theta`` (float in [0, 1], default 0.7), ``n`` (10-5,000
        respondents, default 200) and ``pi`` (true P(A = yes) in [0, 1], default 0.3).

    Examples
    --------
    >>> panel = WarnerSurveyPanel(theta=0.8, n=500)
    >>> panel.controls["theta"].value = 0.5   # shows a message instead of the figure
    >>> panel.error is not None
    True
    """

    title = "Warner's randomized response: 1,000 repeated class surveys"
    figsize = (8, 3.6)
    n_surveys = 1_000

    def __init__(self, seed: int = 0, **initial):
        self.seed = seed
        super().__init__(**initial)

    def build_controls(self) -> dict:
        return {
            "theta": slider(widgets.FloatSlider, value=0.7, min=0.0, max=1.0, step=0.01,
                            description="θ (truthful question)", readout_format=".2f"),
            "n": slider(widgets.IntSlider, value=200, min=10, max=5_000, step=10,
                        description="n (respondents)"),
            "pi": slider(widgets.FloatSlider, value=0.3, min=0.0, max=1.0, step=0.05,
                         description="true P(A = yes)", readout_format=".2f"),
        }

    def compute(self, theta, n, pi):
        # the same seed at every update: moving a slider changes the setting, not the luck
        return simulate_warner_surveys(pi, theta, n, n_surveys=self.n_surveys, rng=self.seed)

    def draw(self, figure, result) -> None:
        # fixed margins (the Panel figure has no layout engine: it would double the render time)
        # margins grow with the font (lecture mode uses larger fonts)
        ax = margin_axes(figure, left=4.0, bottom=3.0, top=1.8)
        # the artists of plot_sampling_distribution, kept to be updated in place (redraw)
        self._drawing = SamplingDistributionDrawing(ax, result, legend=False)

    def redraw(self, figure, result) -> bool:
        # every slider changes the data only (histogram, band, truth, y limits, title): the same
        # axes, ticks and grey range serve; the picture is the one a new figure shows
        drawing = getattr(self, "_drawing", None)
        if drawing is None or drawing.ax.figure is not figure:
            return False  # the last drawing is on another figure (describe() of another result)
        drawing.update(result)
        return True

    def summary(self, result) -> str:
        eps_text = epsilon_text(rr_epsilon(result.theta))
        factor = sample_size_factor(result.truth, result.theta) if 0 < result.truth < 1 else float("nan")
        factor_text = "—" if factor != factor else f"{factor:.1f}×"
        off = int(np.sum((result.estimates < SAMPLING_XLIM[0]) | (result.estimates > SAMPLING_XLIM[1])))
        off_text = f" ({off} beyond the axis)" if off else ""
        key = (
            f'<span style="color:{OKABE_ITO[0]}" aria-hidden="true">&#9632;</span> estimates of {result.n_surveys:,} '
            f"surveys{off_text} &nbsp; "
            f'<span style="color:{OKABE_ITO[1]}" aria-hidden="true"><b>|</b></span> truth P(A) = {result.truth:.2f} &nbsp; '
            f'<span style="color:{OKABE_ITO[2]}" aria-hidden="true">&#9632;</span> truth ± 2 Warner SE (hatched) &nbsp; '
            "<b>- -</b> mean of the estimates &nbsp; grey: the possible proportions [0, 1]<br>"
        )
        return key + (
            f"ε = {eps_text} &nbsp;·&nbsp; Warner SE = {result.std_error:.4f} &nbsp;·&nbsp; "
            f"spread of the 1,000 estimates = {result.empirical_sd:.4f} &nbsp;·&nbsp; "
            f"within ±2 SE: {100 * result.within_2se:.1f} % &nbsp;·&nbsp; "
            f"outside [0, 1]: {100 * result.outside_unit:.1f} % &nbsp;·&nbsp; "
            f"respondents needed vs a direct question: {factor_text}"
        )
