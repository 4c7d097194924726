"""Panel for notebook 04 (decision trees from perturbed data, Agrawal & Srikant Sections 4-5)."""
from __future__ import annotations

import functools
import html
import weakref
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np

from ..datasets import agrawal
from ..datasets.synthetic import agrawal_bounds, agrawal_noise
from ..plots.trees import ALGORITHM_STYLE, AlgorithmBarsDrawing
from ..randomization import NOISE_KINDS, perturb
from ..trees.as2000 import ALGORITHMS, make_classifier, train_and_score
from .panel import Panel, choice, figure_margins, slider, toggle_buttons
from .precompute import AheadCache, slider_neighbours

__all__ = ["TreesPanel", "TreesResult"]


@dataclass(frozen=True)
class TreesResult:
    """What one position of the controls shows.

    Attributes
    ----------
    function : int
        Classification function of Table 3.
    noise : str
        Noise kind, "gaussian" or "uniform".
    privacy : float
        Privacy level as a fraction of the range (1.0 = 100 %).
    accuracies : dict
        ``{algorithm: test accuracy in [0, 1]}`` for the selected algorithms.
    seconds : dict
        ``{algorithm: training time in s}`` (of the first training).
    n_leaves : dict
        ``{algorithm: leaves of its tree}``.
    n_train : int
        Training records.
    n_test : int
        Test records.
    """

    function: int
    noise: str
    privacy: float
    accuracies: dict
    seconds: dict
    n_leaves: dict
    n_train: int
    n_test: int


@functools.lru_cache(maxsize=8)
def _data(function: int, n_train: int, n_test: int, seed: int):
    X, y = agrawal(n_train, function, rng=np.random.default_rng([seed, function, 0]), balanced=True)
    Xt, yt = agrawal(n_test, function, rng=np.random.default_rng([seed, function, 1]), balanced=True)
    return X, y, Xt, yt


@functools.lru_cache(maxsize=8)
def _original(function: int, n_train: int, n_test: int, seed: int):
    """Original does not depend on the noise: train it once per function (accuracy, s, leaves)."""
    X, y, Xt, yt = _data(function, n_train, n_test, seed)
    return train_and_score(make_classifier("original"), X, y, Xt, yt)


@functools.lru_cache(maxsize=8)
def _unit_noise(kind: str, n: int, n_attr: int, seed: int) -> np.ndarray:
    """Standard noise (sigma = 1 or alpha = 1) drawn once: moving the privacy slider rescales
    the same draws, so what changes is the privacy level, not the luck of the draw."""
    rng = np.random.default_rng([seed, 99, 0 if kind == "gaussian" else 1])
    return NOISE_KINDS[kind].unit_sample((n, n_attr), rng)


class TreesPanel(Panel):
    """Perturb the training data, train the selected algorithms, and test them -- live.

    Every update perturbs the numeric attributes of 10,000 balanced training records of the
    chosen function (elevel, car and zipcode stay as they are), trains each selected algorithm
    and scores it on 5,000 original test records (Sec. 5.1). Original is trained on the
    unperturbed records (once per function: it does not depend on the noise). The training
    times shown are those of the first training.

    The figure is one setting of Fig. 5 of Agrawal & Srikant (2000), as bars
    (:func:`~ppdm_edu.plots.trees.plot_accuracy_bars`); the read-out tables accuracy, leaves and
    training time.

    Parameters
    ----------
    n_train : int, default 10000
        Training records per function.
    n_test : int, default 5000
        Test records per function.
    seed : int, default 0
        Seed of the data and of the noise.
    **initial
        Initial control values: ``function`` (1-5), ``noise`` ("gaussian" or "uniform"),
        ``privacy`` (%, 0-200, default 100) and ``algorithms`` (a tuple of
        ``ppdm_edu.trees.as2000.ALGORITHMS``).

    Examples
    --------
    >>> panel = TreesPanel(function=1, noise="uniform", privacy=100)
    >>> panel.result.accuracies["byclass"] > panel.result.accuracies["randomized"] + 0.2
    True
    >>> panel.controls["algorithms"].value = ()   # nothing selected: a message, no crash
    >>> panel.error is not None
    True
    """

    title = "Trees on perturbed data (Agrawal & Srikant, Fig. 5 one setting at a time)"
    figsize = (7, 2.8)

    def __init__(self, n_train: int = 10_000, n_test: int = 5_000, seed: int = 0, **initial):
        self.n_train = n_train
        self.n_test = n_test
        self.seed = seed
        # training ahead waits half a second after a move: two trees at a time would otherwise
        # share the interpreter with a quick next move (2 cores: each at half speed)
        self._trained = AheadCache(maxsize=512, delay=0.5)
        self._bars: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # figure -> its bars
        super().__init__(**initial)

    def build_controls(self) -> dict:
        style = {"description_width": "initial"}
        return {
            "function": choice(widgets.Dropdown, options=[(f"Function {f}", f) for f in (1, 2, 3, 4, 5)],
                                         value=1, description="function", tooltip="classification function of Table 3", style=style),
            "noise": toggle_buttons(options=[("Gaussian", "gaussian"), ("Uniform", "uniform")],
                                           value="gaussian", description="noise", style=style),
            "privacy": slider(widgets.IntSlider, value=100, min=0, max=200, step=5,
                              description="privacy (%)", tooltip="privacy level: width of the 95 % confidence interval of the noise, in % of the range"),
            "algorithms": choice(widgets.SelectMultiple, 
                options=[(ALGORITHM_STYLE[a][0], a) for a in ALGORITHMS],
                value=("original", "randomized", "byclass"), rows=5,
                description="algorithms", style=style),
        }

    def compute(self, function, noise, privacy, algorithms) -> TreesResult:
        algorithms = tuple(algorithms)
        if not algorithms:
            raise ValueError("select at least one algorithm (ctrl/cmd-click to select several)")
        if privacy <= 0:
            raise ValueError("privacy 0 % means no noise at all: choose at least 5 % "
                             "(Original shows the accuracy without perturbation)")
        level = privacy / 100.0
        accuracies, seconds, leaves = {}, {}, {}
        for alg in algorithms:
            # kept per (function, noise, privacy, algorithm): changing the selection trains only
            # the newly selected algorithms, a visited privacy level costs nothing (Original
            # does not depend on the noise: one per function)
            accuracies[alg], seconds[alg], leaves[alg] = self._trained.get(*self._task(function, noise, privacy, alg))
        return TreesResult(function=function, noise=noise, privacy=level, accuracies=accuracies,
                           seconds=seconds, n_leaves=leaves, n_train=self.n_train, n_test=self.n_test)

    def _key(self, function, noise, privacy, alg):
        if alg == "original":
            return (function, alg, self.n_train, self.n_test, self.seed)
        return (function, noise, int(privacy), alg, self.n_train, self.n_test, self.seed)

    def _task(self, function, noise, privacy, alg):
        """``(key, compute)`` of one algorithm's accuracy, seconds and leaves at a setting."""
        if alg == "original":
            return (self._key(function, noise, privacy, alg),
                    functools.partial(_original, function, self.n_train, self.n_test, self.seed))
        return (self._key(function, noise, privacy, alg),
                functools.partial(self._train, function, noise, privacy, alg))

    def _train(self, function, noise, privacy, alg):
        """Perturb the training records at ``privacy`` %, train ``alg``, test it (Sec. 5.1)."""
        X, y, Xt, yt = _data(function, self.n_train, self.n_test, self.seed)
        noises = agrawal_noise(noise, privacy / 100.0)
        unit = _unit_noise(noise, self.n_train, len(noises), self.seed)
        W = perturb(X, noises, unit=unit)  # x + scale * unit: alpha or sigma, the noise knows
        return train_and_score(make_classifier(alg, noises), W, y, Xt, yt)

    def after_update(self, result: TreesResult) -> None:
        """Train the selected algorithms ahead while the room looks at the figure: at the
        neighbouring privacy levels (one step right first, then one step left), then with the
        other noise, then for the next and the previous function (cyclic), each at this privacy
        level; last, the algorithms not selected at this setting. Nothing under Pyodide (no
        thread).

        Parameters
        ----------
        result : object
            The result now shown.
        """
        slider = self.controls["privacy"]
        f, noise = result.function, result.noise
        here = round(result.privacy * 100)
        settings = [(f, noise, p) for p in slider_neighbours(slider, here) if p > 0]  # 0 %: a message
        settings += [(f, other, here) for other in ("gaussian", "uniform") if other != noise]
        functions = [option[1] for option in self.controls["function"].options]
        at = functions.index(f) if f in functions else 0
        # the next and the previous function (cyclic: from Function 1 back to 5); not every
        # function: that much training ahead at every new level slows the next moves on 2 cores
        settings += [(functions[(at + k) % len(functions)], noise, here) for k in (1, -1)]
        tasks = dict(self._task(g, kind, p, alg) for g, kind, p in settings for alg in result.accuracies)
        # last, the algorithms not selected, here (selecting them all is the next slowest move)
        tasks.update(self._task(f, noise, here, alg) for alg in ALGORITHMS if alg not in result.accuracies)
        self._trained.prefetch(tasks.items())  # each key once (Original's has no noise, no level)

    @staticmethod
    def _title(result: TreesResult) -> str:
        return (f"Function {result.function}, {result.noise} noise, "
                f"{result.privacy:.0%} privacy ({result.n_train:,} training records)")

    def draw(self, figure, result: TreesResult) -> None:
        ax = figure.subplots(gridspec_kw=figure_margins(figure, left=4.0, bottom=2.2, top=2.4))
        # the artists of plot_accuracy_bars, kept to be updated in place (redraw). The title at
        # y = 1.0 is where matplotlib puts it (nothing above the axes; every title of this panel
        # checked in both styles, tests/test_widgets_trees_04.py): said so, no draw measures
        # the tick labels to place it
        from matplotlib import rcParams

        fixed = (rcParams["axes.titley"] is None and not rcParams["xtick.top"]
                 and not rcParams["xtick.labeltop"])
        self._bars[figure] = AlgorithmBarsDrawing(ax, result.accuracies, title=self._title(result),
                                                  title_y=1.0 if fixed else None)

    def figure_key(self, result: TreesResult):
        # one figure per selection of algorithms (its bars and axes); up to kept_figures kept
        return tuple(a for a in ALGORITHMS if a in result.accuracies)

    def results_ahead(self, result: TreesResult) -> list:
        # every algorithm selected (the next slowest move), drawn while the kernel is idle once
        # all of them are trained here
        here = round(result.privacy * 100)
        trained = {alg: self._trained.peek(self._key(result.function, result.noise, here, alg))
                   for alg in ALGORITHMS}
        if any(v is None for v in trained.values()):
            return []
        return [TreesResult(function=result.function, noise=result.noise, privacy=result.privacy,
                            accuracies={a: v[0] for a, v in trained.items()},
                            seconds={a: v[1] for a, v in trained.items()},
                            n_leaves={a: v[2] for a, v in trained.items()},
                            n_train=result.n_train, n_test=result.n_test)]

    def redraw(self, figure, result: TreesResult) -> bool:
        # the same algorithms: the same axes, ticks and bars serve, only heights and labels change
        # (a redraw in place costs about half of a new figure; the picture is the same)
        bars = self._bars.get(figure)
        if bars is None:
            return False
        from matplotlib import rcParams

        if rcParams["savefig.dpi"] == "figure":
            # every figure redrawn here was drawn before (saved by update, or drawn ahead), at
            # its own dpi, the one savefig uses: the axis labels stay where that draw put them
            bars.keep_label_positions()
        return bars.update(result.accuracies, title=self._title(result))

    def summary(self, result: TreesResult) -> str:
        # one column per algorithm: four rows whatever the selection (the panel fits one screen)
        shown = [a for a in ALGORITHMS if a in result.accuracies]

        def row(head, cells):
            return (f"<tr><th style='text-align:left;padding-right:1em'>{head}</th>"
                    + "".join(f"<td style='padding-right:1.2em'>{c}</td>" for c in cells) + "</tr>")

        return ("<table>"
                + row("algorithm", [html.escape(ALGORITHM_STYLE[a][0]) for a in shown])
                + row("test accuracy", [f"{100 * result.accuracies[a]:.1f} %" for a in shown])
                + row("leaves", [result.n_leaves[a] for a in shown])
                + row("training time", [f"{result.seconds[a]:.2f} s" for a in shown])
                + "</table>")


# keep the bounds helper importable from here for the notebook's "what does the server know" cell
PUBLIC_BOUNDS = agrawal_bounds()
