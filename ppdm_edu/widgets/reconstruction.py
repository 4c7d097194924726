"""Panels for notebook 02 (reconstructing the original distribution, AS2000 Sec. 3)."""
from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np

from ..datasets import plateau, triangles
from ..plots.reconstruction import ReconstructionDrawing
from ..random_state import spawn_rngs
from ..randomization import Noise, noise_for_privacy, perturb
from ..reconstruction import (
    Reconstruction,
    interval_distribution,
    reconstruct,
    sample_total_variation,
    total_variation,
)
from .panel import Panel, margin_axes, slider, toggle_buttons

__all__ = ["ReconstructionPanel", "ReconstructionIterationsPanel"]

_SHAPES = {"plateau": plateau, "triangles": triangles}


@dataclass(frozen=True, eq=False)
class _Run:
    x: np.ndarray
    w: np.ndarray
    noise: Noise
    rec: Reconstruction
    truth: np.ndarray
    tv_randomized: float
    tv_reconstructed: float


def _axes(figure):
    # Fixed margins instead of constrained layout: the layout pass re-measures every text and
    # costs more than the reconstruction itself (latency target p95 < 150 ms). None (not
    # "none", which leaves a placeholder engine) also spares savefig its extra layout draw;
    # the axes rectangle is given directly.
    figure.set_layout_engine(None)
    return margin_axes(figure, left=4.0, bottom=3.0, top=0.6)


# the read-out names the algorithm (the toggle's "bayes" / "em"): with the same data and stopping
# rule the two often stop after the same number of iterations at nearly the same distance, and a
# read-out that did not name the method would then not change when it is switched
METHOD_NAMES = {"bayes": "iterative Bayes (AS2000 §3)", "em": "EM (Agrawal & Aggarwal 2001)"}

_LEGEND = (
    '<span style="color:#000000" aria-hidden="true">&#9644;</span> original &nbsp; '
    '<span style="color:#D55E00" aria-hidden="true">&#9644;</span> randomized &nbsp; '
    '<span style="color:#0072B2" aria-hidden="true">&#9644;</span> reconstructed'
)


def _draw_run(ax, run: _Run, probabilities) -> ReconstructionDrawing:
    """Original, randomized and reconstructed densities: the library's Fig. 2 drawing.

    No title or legend in the figure (the HTML summary carries them): text layout is the most
    expensive part of a PNG redraw. The drawing keeps its lines, so that a panel redraws them
    in place (:meth:`ReconstructionDrawing.update`).
    """
    drawing = ReconstructionDrawing(ax, run.rec, run.x, run.w, legend=False,
                                    probabilities=probabilities)
    ax.locator_params(nbins=6)
    return drawing


def _redraw_run(panel, figure, run: _Run, probabilities) -> bool:
    """Show ``run`` on the drawing ``panel`` last made in ``figure``, if it made one there.

    Every control of notebook 02's panels changes the data only (the same three lines, no
    title or legend): the axes, their ticks and labels serve again. False (draw a new figure)
    when the panel's last drawing is not in ``figure`` (:meth:`Panel.describe` drew one for
    another result into a figure of its own) or something else was drawn on its axes.
    """
    drawing = getattr(panel, "_drawing", None)
    if drawing is None or drawing.ax.figure is not figure:
        return False
    ax = drawing.ax
    if len(figure.axes) != 1 or len(ax.lines) != 3 or ax.texts or ax.patches or ax.collections:
        return False  # not the drawing _draw_run made: start over
    drawing.update(run.rec, run.x, run.w, probabilities=probabilities)
    return True


def _run(shape, kind, privacy_percent, n, n_intervals, method, seed, keep_history=False,
         stop="paper") -> _Run:
    if shape not in _SHAPES:
        raise ValueError(f"shape must be one of {', '.join(_SHAPES)}, got {shape!r}")
    if privacy_percent <= 0:
        raise ValueError("privacy must be above 0 % (0 % means no noise: nothing to reconstruct)")
    # "privacy level" of Sec. 2.1: the 95 % confidence interval of the noise is
    # privacy_percent % of the attribute's range (here [0, 1])
    noise = noise_for_privacy(kind, privacy_percent / 100.0, value_range=1.0)
    data_rng, noise_rng = spawn_rngs(seed)  # independent streams: noise never follows data
    x = _SHAPES[shape](int(n), rng=data_rng)
    w = perturb(x, noise, rng=noise_rng)
    rec = reconstruct(w, noise, bounds=(0.0, 1.0), n_intervals=int(n_intervals), method=method,
                      keep_history=keep_history, stop=stop, rng=seed)
    truth = interval_distribution(x, rec.edges)
    return _Run(x=x, w=w, noise=noise, rec=rec, truth=truth,
                tv_randomized=sample_total_variation(x, w, rec.edges),
                tv_reconstructed=total_variation(rec.probabilities, truth))


def _noise_text(noise: Noise) -> str:
    return (f"Gaussian σ = {noise.scale:.3f}" if noise.kind == "gaussian"
            else f"uniform ±{noise.scale:.3f}")


class ReconstructionPanel(Panel):
    """Randomize a Fig. 2 distribution and reconstruct it, live.

    Controls: the original shape, the noise kind, the privacy level (the noise's 95 %
    confidence interval as a percentage of the range [0, 1], Sec. 2.1), the number of records
    and of intervals, the method (the paper's iterative Bayes or EM) and the stopping rule (the
    paper's, or iterations chosen by held-out likelihood). Every update draws
    fresh data and noise with the same seed, randomizes and reconstructs.

    The figure is one panel of Fig. 2 of Agrawal & Srikant (2000)
    (:func:`~ppdm_edu.plots.reconstruction.plot_reconstruction`); the read-out gives the TV
    distances of the randomized and the reconstructed values to the original.

    Parameters
    ----------
    seed : int, default 0
        Seed of the data and of the noise (independent streams); the same at every update.
    **initial
        Initial control values: ``shape`` ("plateau" or "triangles"), ``noise`` ("gaussian"
        or "uniform"), ``privacy`` (%, 0-200, default 100), ``n`` (records, default 10,000),
        ``n_intervals`` (default 20), ``method`` ("bayes" or "em") and ``stop`` ("paper" or
        "cross-validation").

    Examples
    --------
    >>> panel = ReconstructionPanel(n=2_000)
    >>> panel.controls["noise"].value = "uniform"
    >>> panel.result.rec.n_intervals
    20
    >>> panel.controls["privacy"].value = 0      # shows a message instead of the figure
    >>> panel.error is not None
    True
    """

    title = "Reconstructing the original distribution (Agrawal & Srikant, Fig. 2)"
    figsize = (7.5, 3.4)

    def __init__(self, seed: int = 0, **initial):
        self.seed = seed
        super().__init__(**initial)

    def build_controls(self) -> dict:
        style = {"description_width": "initial"}
        return {
            "shape": toggle_buttons(options=list(_SHAPES), value="plateau",
                                           description="original", style=style),
            "noise": toggle_buttons(options=["gaussian", "uniform"], value="gaussian",
                                           description="noise", style=style),
            "privacy": slider(widgets.IntSlider, value=100, min=0, max=200, step=5,
                              description="privacy (%)", tooltip="privacy level: width of the 95 % confidence interval of the noise, in % of the range"),
            "n": slider(widgets.IntSlider, value=10_000, min=500, max=50_000, step=500,
                        description="n (records)"),
            "n_intervals": slider(widgets.IntSlider, value=20, min=5, max=100, step=1,
                                  description="intervals"),
            "method": toggle_buttons(options=["bayes", "em"], value="bayes",
                                            description="method", style=style),
            # the paper's chi^2 rule, or iterations chosen by held-out likelihood (notebook 02)
            "stop": toggle_buttons(options=[("paper's rule", "paper"),
                                                   ("cross-validation", "cross-validation")],
                                          value="paper", description="stop", style=style),
        }

    def compute(self, shape, noise, privacy, n, n_intervals, method, stop):
        return _run(shape, noise, privacy, n, n_intervals, method, self.seed, stop=stop)

    def draw(self, figure, result: _Run) -> None:
        self._drawing = _draw_run(_axes(figure), result, result.rec.probabilities)

    def redraw(self, figure, result: _Run) -> bool:
        # every control changes the data only: the same lines, redrawn and autoscaled in place
        return _redraw_run(self, figure, result, result.rec.probabilities)

    def summary(self, result: _Run) -> str:
        rec = result.rec
        stop = ("iterations chosen by held-out likelihood" if rec.stop == "cross-validation"
                else "converged" if rec.converged else "stopped at max_iter")
        return (
            f"{_LEGEND}<br>{_noise_text(result.noise)}, n = {result.x.size:,} &nbsp;·&nbsp; "
            f"TV randomized vs original = {result.tv_randomized:.3f} &nbsp;·&nbsp; "
            f"TV reconstructed vs original = {result.tv_reconstructed:.3f} &nbsp;·&nbsp; "
            f"{METHOD_NAMES[rec.method]}: {rec.n_iter} iterations ({stop}) &nbsp;·&nbsp; "
            f"{rec.n_intervals} intervals"
        )


class ReconstructionIterationsPanel(Panel):
    """Scrub through the iterations of one reconstruction (the ``history``).

    The reconstruction runs once, when the panel is built (``shape``, ``noise``, ``privacy``,
    ``n``, ``n_intervals``, ``method``, ``tol``, ``seed`` as in :class:`ReconstructionPanel`);
    the slider only picks which stored estimate to draw, starting from the uniform one.

    Parameters
    ----------
    shape : str, default "triangles"
        Original distribution, "plateau" or "triangles".
    noise : str, default "gaussian"
        Noise kind, "gaussian" or "uniform".
    privacy : int, default 100
        Privacy level in % (the noise's 95 % interval as a share of the range [0, 1]).
    n : int, default 10000
        Number of records.
    n_intervals : int, default 20
        Number of intervals of the reconstruction.
    method : str, default "bayes"
        "bayes" (the paper's iterative rule) or "em".
    tol : float, optional
        Stopping threshold of the reconstruction (default: the library's).
    seed : int, default 0
        Seed of the data and of the noise.
    **initial
        Initial control value: ``iteration`` (default: the last one).

    Raises
    ------
    ValueError
        If a setting is invalid (unknown shape, privacy 0 %) or ``initial`` names an unknown
        control.

    Examples
    --------
    >>> panel = ReconstructionIterationsPanel(n=2_000)
    >>> panel.controls["iteration"].value = 0
    >>> bool(np.allclose(panel.result[1], 1 / 20))
    True
    """

    title = "The estimate, iteration by iteration"
    figsize = (7.5, 3.4)

    def __init__(self, shape: str = "triangles", noise: str = "gaussian", privacy: int = 100,
                 n: int = 10_000, n_intervals: int = 20, method: str = "bayes",
                 tol: float | None = None, seed: int = 0, **initial):
        self.run = _run(shape, noise, privacy, n, n_intervals, method, seed, keep_history=True)
        if tol is not None:  # re-run with another stopping threshold
            rec = reconstruct(self.run.w, self.run.noise, bounds=(0.0, 1.0),
                              n_intervals=int(n_intervals), method=method, tol=tol,
                              keep_history=True)
            self.run = _Run(**{**self.run.__dict__, "rec": rec,
                               "tv_reconstructed": total_variation(rec.probabilities,
                                                                   self.run.truth)})
        super().__init__(**initial)

    def build_controls(self) -> dict:
        last = self.run.rec.n_iter
        return {
            "iteration": slider(widgets.IntSlider, value=last, min=0, max=last, step=1,
                                description="iteration", continuous_update=True),
        }

    def compute(self, iteration):
        j = int(iteration)
        history = self._history()
        if not 0 <= j < history.shape[0]:
            raise ValueError(f"iteration must be between 0 and {history.shape[0] - 1}, got {j}")
        return j, history[j]

    def draw(self, figure, result) -> None:
        j, pr = result
        ax = _axes(figure)
        self._drawing = _draw_run(ax, self.run, pr)
        ax.set_ylim(0, self._y_max())

    def redraw(self, figure, result) -> bool:
        # only the estimate moves; the y limits, fixed for the whole history, stay
        j, pr = result
        return _redraw_run(self, figure, self.run, pr)

    def _history(self) -> np.ndarray:
        history = self.run.rec.history
        assert history is not None  # the panel reconstructs with keep_history=True
        return history

    def _y_max(self) -> float:
        return max(2.2, 1.1 * float(self._history().max() / self.run.rec.widths[0]))

    def summary(self, result) -> str:
        j, pr = result
        tv = total_variation(pr, self.run.truth)
        return (f"{_LEGEND}<br>{_noise_text(self.run.noise)}, n = {self.run.x.size:,} "
                f"&nbsp;·&nbsp; {METHOD_NAMES[self.run.rec.method]}, "
                f"iteration {j} of {self.run.rec.n_iter}: TV to the original = "
                f"{tv:.3f} (randomized: {self.run.tv_randomized:.3f})")
