"""Panel for notebook 01: value distortion and how much privacy it buys (AS2000 Section 2).

The panel perturbs 10,000 values of a real attribute (Adult ``age`` or the synthetic
``salary`` of Agrawal & Srikant's Table 2) with uniform or Gaussian noise set by "x % privacy"
at a chosen confidence, and recomputes the privacy measures live.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np
from matplotlib.transforms import Bbox

from ..lecture import OKABE_ITO, is_lecture_mode
from ..plots.randomization import noise_label, plot_original_vs_perturbed
from ..privacy import PrivacyMeasures, privacy_measures
from ..random_state import spawn_rngs
from ..randomization import Noise, noise_for_privacy, perturb
from .panel import Panel, choice, margin_axes, slider, toggle_buttons

__all__ = ["RandomizationPanel"]

#: attribute name -> (unit, domain used for "x % privacy")
ATTRIBUTES = {
    "age (Adult)": ("years", (17.0, 90.0)),
    "salary (synthetic)": ("dollars", (20_000.0, 150_000.0)),
}


def _num(value: float) -> str:
    """19.2 or 34,211: readable in years and in dollars."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


@functools.lru_cache(maxsize=4)
def attribute_sample(name: str, n: int = 10_000, seed: int = 0) -> np.ndarray:
    """``n`` values of a course attribute (read-only array; the same for the same seed).

    The values come from the first of :func:`~ppdm_edu.random_state.spawn_rngs`'s streams of
    ``seed``; the panel draws its noise from the second, so noise never depends on the data.

    Parameters
    ----------
    name : str
        A key of :data:`ATTRIBUTES`: Adult's ``age`` (sampled without replacement from the
        training set) or Agrawal & Srikant's synthetic ``salary``.
    n : int, default 10000
        Number of values.
    seed : int, default 0
        Seed of the data stream.

    Returns
    -------
    numpy.ndarray
        ``n`` float values, read-only (kept in a cache).

    Raises
    ------
    ValueError
        If ``name`` is not a key of :data:`ATTRIBUTES`.
    """
    if name not in ATTRIBUTES:
        raise ValueError(f"unknown attribute {name!r}; allowed: {', '.join(ATTRIBUTES)}")
    if name.startswith("age"):
        from ..datasets import load_adult

        age = load_adult("train").frame["age"].to_numpy(dtype=float)
        values = spawn_rngs(seed)[0].choice(age, size=n, replace=False)
    else:
        from ..datasets import agrawal

        values = agrawal(n, function=1, rng=spawn_rngs(seed)[0])[0]["salary"].to_numpy(dtype=float)
    values.setflags(write=False)
    return values


@dataclass(frozen=True)
class RandomizationResult:
    """What one update of :class:`RandomizationPanel` computed."""

    attribute: str
    unit: str
    domain: tuple[float, float]
    noise: Noise
    x: np.ndarray
    w: np.ndarray
    measures: PrivacyMeasures


class RandomizationPanel(Panel):
    """Original vs perturbed histogram with the privacy measures, live.

    Controls: the attribute, the noise kind, the privacy level (the noise's ``confidence``
    interval as a % of the attribute's range, Agrawal & Srikant Section 2.1) and the
    confidence. Each update draws fresh-but-seeded noise for 10,000 values and computes
    interval privacy, Pi(X), Pi(R), Pi(X|W), the privacy loss and the SNR with
    :func:`~ppdm_edu.privacy.privacy_measures`. The mutual information uses the known noise
    model, I = h(W) - h(R) (``estimator="known-noise"``), to stay within the 100 ms budget; the
    notebook checks it against the k-NN estimate.

    Parameters
    ----------
    seed : int, default 0
        Seed of the data and of the noise (independent streams); the same at every update.
    **initial
        Initial control values: ``attribute`` (a key of :data:`ATTRIBUTES`), ``kind``
        ("uniform" or "gaussian"), ``level`` (privacy in %, 0-200, default 50) and
        ``confidence`` (0.5-1, default 0.95).

    Examples
    --------
    >>> panel = RandomizationPanel(level=100.0)
    >>> panel.controls["level"].value = 0.0     # no noise: a message, not a crash
    >>> panel.error is not None
    True
    """

    title = "Value distortion: original vs perturbed values and the privacy they keep"
    figsize = (7.5, 3.0)
    n = 10_000

    def __init__(self, seed: int = 0, **initial):
        self.seed = seed
        self.lecture = is_lecture_mode()
        super().__init__(**initial)

    def figure_size(self):
        # its own projector size (tuned for this panel) instead of the generic enlargement
        return (11.0, 4.6) if self.lecture else self.figsize

    def build_controls(self) -> dict:
        style = {"description_width": "initial"}
        return {
            "attribute": choice(widgets.Dropdown, options=list(ATTRIBUTES), value="age (Adult)",
                                          description="attribute", style=style),
            "kind": toggle_buttons(options=["uniform", "gaussian"], value="uniform",
                                          description="noise", style=style),
            "level": slider(widgets.FloatSlider, value=50.0, min=0.0, max=200.0, step=5.0,
                            description="privacy (%)", tooltip="privacy level: width of the noise interval at this confidence, in % of the range",
                            readout_format=".0f"),
            "confidence": slider(widgets.FloatSlider, value=0.95, min=0.5, max=1.0, step=0.005,
                                 description="confidence", readout_format=".3f"),
        }

    def compute(self, attribute, kind, level, confidence) -> RandomizationResult:
        unit, domain = ATTRIBUTES[attribute]
        value_range = domain[1] - domain[0]
        if level <= 0:
            raise ValueError("privacy level 0 %: no noise is added, so the values are disclosed "
                             "exactly; move the slider above 0")
        noise = noise_for_privacy(kind, level / 100.0, value_range, confidence=confidence)
        x = attribute_sample(attribute, self.n, self.seed)
        # the same seed at every update: a slider changes the setting, not the luck; the noise
        # stream is independent of the data stream (spawn_rngs), never the data's own seed
        w = perturb(x, noise, rng=spawn_rngs(self.seed)[1])
        measures = privacy_measures(x, w, noise, confidence=confidence, value_range=value_range,
                                    estimator="known-noise")
        return RandomizationResult(attribute, unit, domain, noise, x, w, measures)

    def draw(self, figure, result: RandomizationResult) -> None:
        # Fixed margins and no layout engine at all: a layout engine (even the placeholder that
        # set_layout_engine("none") leaves) makes savefig draw the figure twice, and that pass
        # re-measures every text; None removes it (with the default rcParams).
        figure.set_layout_engine(None)
        # Title and legend live in the HTML read-out (summary), where text costs nothing; in
        # the PNG they cost about a third of the drawing time (p95 budget: 100 ms per update).
        self._ax = margin_axes(figure, left=2.0, bottom=3.0, top=0.4)
        self._plot(self._ax, result)

    @staticmethod
    def _plot(ax, result: RandomizationResult) -> None:
        plot_original_vs_perturbed(result.x, result.w, ax=ax, bins=60, value_range=result.domain,
                                   label=result.attribute.split(" ")[0], unit=result.unit,
                                   legend=False)
        ax.set_yticks([])  # densities: the shape matters, not the numbers (and fewer texts to draw)

    def redraw(self, figure, result: RandomizationResult) -> bool:
        # the same axes (and their axis objects) serve: only the domain, the two histograms and
        # the labels are drawn again, on data limits emptied as a new axes' are (what Axes.relim
        # does); the limits are autoscaled at draw as for a new figure: the same picture
        ax = self._ax
        if ax.texts or ax.images or ax.artists or ax.tables:
            return False  # something else was drawn on these axes: start over
        for artist in [*ax.patches, *ax.collections, *ax.lines]:
            artist.remove()
        ax.dataLim.ignore(True)
        ax.dataLim.set_points(Bbox.null().get_points())
        ax.ignore_existing_data_limits = True
        self._plot(ax, result)
        return True

    def summary(self, result: RandomizationResult) -> str:
        m = result.measures
        u = result.unit
        c0, c1 = OKABE_ITO[0], OKABE_ITO[1]
        return (
            f'<span style="color:{c0}" aria-hidden="true">&#9632;</span> original &nbsp; '
            f'<span style="color:{c1}" aria-hidden="true">&#9472;&#9472;</span> perturbed w = x + r &nbsp; '
            f'<span style="color:#767676" aria-hidden="true">&#9632;</span> domain<br>'
            f"<b>{noise_label(result.noise, u)}</b> &nbsp;·&nbsp; "
            f"{100 * m.confidence:.1f} % interval = {_num(m.interval_width)} {u} &nbsp;·&nbsp; "
            f"interval privacy = {100 * m.privacy_level:.0f} % of the range at "
            f"{100 * m.confidence:.1f} % confidence &nbsp;·&nbsp; SNR = {m.snr:.2f}<br>"
            f"Π(X) = {_num(m.pi_x)} {u} &nbsp;·&nbsp; Π(R) = {_num(m.pi_noise)} {u} &nbsp;·&nbsp; "
            f"Π(X|W) = {_num(m.pi_x_given_w)} {u} &nbsp;·&nbsp; "
            f"I(X;W) = {m.mutual_information:.3f} bit &nbsp;·&nbsp; "
            f"privacy loss = {m.loss:.3f}"
        )
