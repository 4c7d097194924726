"""The capstone panel of notebook 08: every mechanism's error at one ε, with its audited ε."""
from __future__ import annotations

import functools
import math
import weakref

import ipywidgets as widgets
import numpy as np

from ..plots.tradeoff import MechanismErrorsDrawing
from ..tradeoff import DELTA_AUDIT_EPSILON, LOCAL_MECHANISMS, MechanismRow, mechanism_row, task_data
from ._layout import widest_label
from .panel import Panel, choice, margin_axes, measure_tick_labels_once, slider
from .precompute import AheadCache, log_slider_neighbours

__all__ = ["TradeoffPanel"]

#: the estimator of each mechanism in the panel: the unbiased inversion (its error has a closed
#: form), except for the additive noises on the histogram, whose inversion is too ill-conditioned
#: to draw and whose converged iterative Bayes is too slow for a slider: there the early-stopped
#: iteration, a shrinkage estimator, named as such in the bar's label
_PANEL_ESTIMATOR = {("histogram", m): "ibu-early" for m in ("laplace", "gaussian", "uniform")}

_ERROR_LABEL = {"share": "absolute error of the share (log scale)",
                "histogram": "total variation of the k = 10 histogram (log scale)"}


@functools.lru_cache(maxsize=8)
def _records(task: str, n: int, runs: int, seed: int) -> tuple:
    """The records of every run (they do not depend on ε: drawn once per task)."""
    return tuple(task_data(task, n, rng=np.random.default_rng([seed, 1, run])) for run in range(runs))


@functools.lru_cache(maxsize=1024)
def _row(task: str, mechanism: str, param: float, estimator: str, n: int, runs: int, trials: int | None,
         seed: int) -> MechanismRow:
    """One mechanism's row at ``param`` (cached: uniform noise is run at 100 % privacy at every ε,
    so its row is the same at every position of the slider, and moving back to an ε costs
    nothing)."""
    noise = [np.random.default_rng([seed, 2, run]) for run in range(runs)]
    return mechanism_row(task, mechanism, param, _records(task, n, runs, seed), noise, estimator=estimator,
                         trials=trials, audit_rng=seed)


class TradeoffPanel(Panel):
    """Choose a mechanism: every local randomizer and the central Laplace mechanism at one ε.

    An ε slider (log scale) and a task dropdown (the share of a binary attribute, or a k = 10
    histogram). Every update draws ``n`` = 10,000 records ``runs`` times (the same seed at every
    update), runs each mechanism on them with a named estimator and audits each local
    mechanism's claim: one :func:`ppdm_edu.tradeoff.mechanism_row` per mechanism, the row
    function of the reproduction too (the unbiased inversion, whose error
    :func:`ppdm_edu.tradeoff.theory_error` gives in closed form; the early-stopped iterative
    Bayes for the additive noises on the histogram, labelled so; the audit
    :func:`ppdm_edu.tradeoff.audit_claim`: ε at its δ, δ at its ε, 20,000 runs per input, 95 %
    confidence). Additive uniform noise has no ε: it is shown at 100 % privacy
    (Agrawal & Srikant), with its audited δ at ε = 1 in the read-out.

    Every result is kept (per ε to 6 decimals and task): moving back to a position costs only
    the drawing, which updates the bars in place while the task stays
    (:class:`~ppdm_edu.plots.tradeoff.MechanismErrorsDrawing`). The row of each mechanism is
    kept per parameter too: uniform noise, at 100 % privacy at every ε, is run and audited once
    per task. While the room looks at the
    figure, the positions one ε step right and left and the other task are computed ahead in a
    background thread (:class:`~ppdm_edu.widgets.precompute.AheadCache`); under Pyodide nothing
    is computed ahead (no thread), every position is computed when the slider reaches it.

    Parameters
    ----------
    seed : int, default 0
        Seed of the data, the noise and the audits.
    **initial
        Initial control values: ``epsilon`` (0.1 to 5, default 1.0) and ``task``
        (``"share"`` or ``"histogram"``).

    Examples
    --------
    >>> panel = TradeoffPanel(epsilon=2.0, task="histogram")
    >>> [row["mechanism"] for row in panel.result["rows"]][-1]
    'central-laplace'
    """

    title = "Choosing a mechanism: error at one ε, local against central"
    figsize = (8, 3.6)
    n = 10_000
    runs = 5
    trials = 20_000

    def __init__(self, seed: int = 0, **initial):
        self.seed = seed
        self._results = AheadCache(maxsize=256)
        self._drawings: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # figure -> its bars
        self._latest: dict = {}  # task -> the result last computed for it (by either thread)
        super().__init__(**initial)

    def build_controls(self) -> dict:
        return {
            "epsilon": slider(widgets.FloatLogSlider, value=1.0, base=10, min=-1, max=math.log10(5),
                              step=0.05, description="ε (claimed)", readout_format=".2f"),
            "task": choice(widgets.Dropdown, options=[("share of a yes/no attribute", "share"),
                                              ("k = 10 histogram", "histogram")],
                                     value="share", description="task",
                                     style={"description_width": "initial"}),
        }

    def _key(self, eps: float, task: str):
        # rounded: the slider's value reached by steps and the same value typed are one position
        return (round(float(eps), 6), task, self.seed)

    def compute(self, epsilon, task):
        eps = float(epsilon)
        return self._results.get(self._key(eps, task), functools.partial(self._compute, eps, task))

    def _compute(self, eps: float, task: str) -> dict:
        """Every mechanism's error at ``eps`` over the runs, its theory and each local one's audited ε."""
        if task not in LOCAL_MECHANISMS:
            raise ValueError(f"task must be one of {', '.join(LOCAL_MECHANISMS)}, got {task!r}")
        rows = []
        for name in LOCAL_MECHANISMS[task] + ("central-laplace",):
            row = _row(task, name, 1.0 if name == "uniform" else eps, _PANEL_ESTIMATOR.get((task, name), "inversion"),
                       self.n, self.runs, None if name == "central-laplace" else self.trials, self.seed)
            label = "uniform (100%)" if name == "uniform" else name
            if row.estimator == "ibu-early":
                label += " (early IBU)"
            rows.append({"mechanism": label, "error": row.error, "error_sd": row.error_sd,
                         "epsilon": row.epsilon, "delta": row.delta,
                         "audited_epsilon": math.nan if row.audit is None else row.audit.epsilon,
                         "audited_delta": math.nan if row.audit is None else row.audit.delta,
                         "theory": row.theory})
        result = {"epsilon": eps, "task": task, "rows": rows}
        self._latest[task] = result
        return result

    def after_update(self, result) -> None:
        """Compute ahead, while the room looks at the figure: one ε step right, one left, then
        the other task at this ε (nothing under Pyodide).

        Parameters
        ----------
        result : dict
            The result now shown.
        """
        eps, task = result["epsilon"], result["task"]
        ahead = [(e, task) for e in log_slider_neighbours(self.controls["epsilon"], eps)]
        ahead += [(eps, other) for other in LOCAL_MECHANISMS if other != task]
        self._results.prefetch([(self._key(e, t), functools.partial(self._compute, e, t))
                                for e, t in ahead])

    def results_ahead(self, result) -> list:
        # the other task's figure, drawn while the kernel is idle once a result of it is computed
        # (at this ε if there is one; any ε serves, the figure is then redrawn in place)
        out = []
        for other in LOCAL_MECHANISMS:
            if other != result["task"]:
                ahead = self._results.peek(self._key(result["epsilon"], other), self._latest.get(other))
                if ahead is not None:
                    out.append(ahead)
        return out

    def draw(self, figure, result) -> None:
        # the mechanisms' names are the y tick labels: the left margin fits the longest (the
        # histogram task's "uniform (100%) (early IBU)"), plus the ticks' length and pad; the
        # right margin holds half of the last decade's label
        from matplotlib import rcParams

        names = [r["mechanism"] for r in result["rows"]]
        left = widest_label(figure, names, rcParams["ytick.labelsize"]) + 1.2
        ax = margin_axes(figure, left=left, bottom=3.4, top=0.8, right=1.6)
        # the artists of plot_mechanism_errors, kept to be updated in place (redraw)
        self._drawings[figure] = MechanismErrorsDrawing(ax, result["rows"],
                                                        error_label=_ERROR_LABEL[result["task"]])
        measure_tick_labels_once(figure)

    def figure_key(self, result):
        # one figure per task (its mechanisms and axis label); both are kept
        return result["task"]

    def redraw(self, figure, result) -> bool:
        # another ε, the same task: the same axes and log ticks serve (the picture is the same
        # as a new figure's)
        drawing = self._drawings.get(figure)
        return drawing is not None and drawing.update(result["rows"], error_label=_ERROR_LABEL[result["task"]])

    def summary(self, result) -> str:
        rows = {r["mechanism"]: r for r in result["rows"]}
        central = rows["central-laplace"]
        # theory where it exists (the unbiased estimators); the runs give only an interval
        local = [r for r in result["rows"] if r["mechanism"] != "central-laplace"
                 and math.isfinite(r["epsilon"]) and math.isfinite(r["theory"])]
        best = min(local, key=lambda r: r["theory"])
        # on the histogram the additive noises' labels name their estimator too
        gauss = next(r for r in result["rows"] if r["mechanism"].startswith("gaussian"))
        uniform = next(r for r in result["rows"] if r["mechanism"].startswith("uniform"))
        se = best["error_sd"] / math.sqrt(self.runs)
        return (f"ε = {result['epsilon']:.2f} (one value; central: one record) · n = {self.n:,}, "
                f"{self.runs} runs · theory, unbiased estimators: least error <b>{best['mechanism']}</b> "
                f"({best['theory']:.4f}; runs: {best['error']:.4f} ± {2 * se:.4f}, 2 standard errors), central Laplace "
                f"{central['theory']:.5f}, local / central = <b>{best['theory'] / central['theory']:.0f}×</b> · "
                f"audited: 95 % lower bounds at {self.trials:,} runs per input, ε at each claimed δ "
                f"(Gaussian: δ = {gauss['delta']:.0e}), uniform (100%): δ ≥ <b>{uniform['audited_delta']:.2f}</b> at "
                f"ε = {DELTA_AUDIT_EPSILON:g} (no finite ε) · a lower bound can refute a claim, never certify it")
