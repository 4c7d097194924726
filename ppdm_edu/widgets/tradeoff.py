"""The capstone panel of notebook 08: every mechanism's error at one ε, with its audited ε."""
from __future__ import annotations

import functools
import math
import weakref

import ipywidgets as widgets
import numpy as np

from ..audit import audit_epsilon
from ..plots.tradeoff import MechanismErrorsDrawing
from ..tradeoff import LOCAL_MECHANISMS, make_mechanism, run_error, task_data
from .panel import Panel, margin_axes, measure_tick_labels_once, slider
from .precompute import AheadCache, log_slider_neighbours

__all__ = ["TradeoffPanel"]

_ERROR_LABEL = {"share": "absolute error of the share (log scale)",
                "histogram": "total variation of the k = 10 histogram (log scale)"}


@functools.lru_cache(maxsize=256)
def _audited(task: str, mechanism: str, param: float, trials: int, seed: int) -> float:
    """Audited ε of one configuration (cached: moving back to an ε costs nothing)."""
    mech = make_mechanism(mechanism, param, task)
    x1 = 1 if task == "share" else 9
    return float(audit_epsilon(mech, 0, x1, trials=trials, rng=seed).lower_bound)


class TradeoffPanel(Panel):
    """Choose a mechanism: every local randomizer and the central Laplace mechanism at one ε.

    An ε slider (log scale) and a task dropdown (the share of a binary attribute, or a k = 10
    histogram). Every update draws ``n`` = 10,000 records five times (the same seed at every
    update), runs each mechanism on them with its own estimator
    (:func:`ppdm_edu.tradeoff.run_error`) and audits each local mechanism with
    :func:`ppdm_edu.audit.audit_epsilon` (20,000 runs per input, 95 % confidence). Additive
    uniform noise has no ε: it is shown at 100 % privacy (Agrawal & Srikant), placed by its
    audited ε only.

    Every result is kept (per ε to 6 decimals and task): moving back to a position costs only
    the drawing, which updates the bars in place while the task stays
    (:class:`~ppdm_edu.plots.tradeoff.MechanismErrorsDrawing`). While the room looks at the
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
            "task": widgets.Dropdown(options=[("share of a yes/no attribute", "share"),
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
        """Every mechanism's error at ``eps`` over the runs, and each local one's audited ε."""
        if task not in LOCAL_MECHANISMS:
            raise ValueError(f"task must be one of {', '.join(LOCAL_MECHANISMS)}, got {task!r}")
        rows = []
        data = [task_data(task, self.n, rng=np.random.default_rng([self.seed, 1, run]))
                for run in range(self.runs)]
        for mech in LOCAL_MECHANISMS[task] + ("central-laplace",):
            param = 1.0 if mech == "uniform" else eps
            errors = np.array([run_error(task, mech, param, x, rng=np.random.default_rng([self.seed, 2, run]))
                               for run, x in enumerate(data)])
            if mech == "central-laplace":
                claimed, audited = eps, math.nan
            else:
                claimed = make_mechanism(mech, param, task).epsilon
                audited = _audited(task, mech, round(param, 6), self.trials, self.seed)
            label = "uniform (100%)" if mech == "uniform" else mech
            rows.append({"mechanism": label, "error": float(errors.mean()),
                         "error_sd": float(errors.std(ddof=1)), "epsilon": claimed, "audited_epsilon": audited})
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
        ax = margin_axes(figure, left=9.5, bottom=3.4, top=0.8)
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
        central = rows["central-laplace"]["error"]
        local = [r for r in result["rows"] if r["mechanism"] not in ("central-laplace",)
                 and math.isfinite(r["epsilon"]) and abs(r["epsilon"] - result["epsilon"]) < 1e-6]
        best = min(local, key=lambda r: r["error"])
        ratio = best["error"] / central if central > 0 else math.inf
        return (f"ε = {result['epsilon']:.2f} · n = {self.n:,}, {self.runs} runs · "
                f"best local mechanism: <b>{best['mechanism']}</b> (error {best['error']:.4f}) · "
                f"central Laplace: {central:.5f} · local / central = <b>{ratio:.0f}×</b> · "
                f"audited ε: 95 % lower bound at {self.trials:,} runs per input")
