"""Panel for notebook 05 (decision trees from randomized-response data, Du & Zhan Sections 4-5)."""
from __future__ import annotations

import functools
import html
from dataclasses import dataclass

import ipywidgets as widgets

from ..plots.rr_trees import PanelAccuracyDrawing
from ..randomized_response import mrr_disguise, rr_epsilon
from ..trees.id3 import ID3, RRID3, check_rr_theta, estimate_accuracy
from .panel import Panel, choice, epsilon_text, slider
from .precompute import AheadCache, slider_neighbours

__all__ = ["RRTreePanel", "RRTreeResult"]


@dataclass(frozen=True)
class RRTreeResult:
    """What one slider position shows.

    Attributes
    ----------
    theta : float
        Probability a record is sent unchanged.
    original_accuracy : float
        Accuracy of ID3 on the original data, in [0, 1].
    accuracy : float
        Accuracy of RR-ID3 on the true test set.
    estimated_accuracy : float
        Accuracy estimated from the disguised test set (Section 4.3).
    n_nodes : int
        Nodes of the RR-ID3 tree.
    original_nodes : int
        Nodes of the ID3 tree of the original data.
    tree_text : str
        The first levels of the RR-ID3 tree, as text.
    disguised_label : bool
        Whether the class label was disguised too.
    """

    theta: float
    original_accuracy: float
    accuracy: float
    estimated_accuracy: float
    n_nodes: int
    original_nodes: int
    tree_text: str
    disguised_label: bool


@functools.lru_cache(maxsize=1)
def _adult():
    """The binarized Adult data and the ID3 tree of the original data (computed once)."""
    from ..datasets import adult_binary

    data = adult_binary()
    train, test = data.train.to_numpy(), data.test.to_numpy()
    original = ID3().fit(train[:, :-1], train[:, -1])
    return data, train, test, original


class RRTreePanel(Panel):
    """Disguise the Adult training data with theta, build RR-ID3, and test it -- live.

    Every update disguises the 8,000 training records with MRR (same seed at every position, so
    moving the slider changes theta, not the luck), builds the RR-ID3 tree, scores it on the true
    2,000 test records, and estimates its accuracy from a test set disguised with the same theta
    (Section 4.3). The first levels of the tree are printed under the figure. theta = 0.5 shows
    why no tree can be built.

    Parameters
    ----------
    seed : int, default 0
        Seed of the disguise (the test set uses ``seed + 1``).
    text_depth : int, default 3
        Levels of the tree printed under the figure.
    **initial
        Initial control values: ``theta`` (float in [0, 1], default 0.7) and
        ``disguised_label`` (bool, default True).

    Examples
    --------
    >>> panel = RRTreePanel(theta=0.8)
    >>> 0.7 < panel.result.accuracy < 0.9
    True
    >>> panel.controls["theta"].value = 0.5   # shows a message instead of the figure
    >>> panel.error is not None
    True
    """

    title = "RR-ID3 on the disguised Adult data (Du & Zhan, Fig. 2 one run at a time)"
    figsize = (8, 2.8)
    #: a theta slider re-builds the tree on every move, so an update must stay under a second
    latency_target_seconds = 1.0

    def __init__(self, seed: int = 0, text_depth: int = 3, **initial):
        self.seed = seed
        self.text_depth = text_depth
        self._results = AheadCache(maxsize=256)
        super().__init__(**initial)

    def build_controls(self) -> dict:
        style = {"description_width": "initial"}
        return {
            "theta": slider(widgets.FloatSlider, value=0.7, min=0.0, max=1.0, step=0.01,
                            description="θ (unchanged)", tooltip="probability that a record is sent unchanged",
                            readout_format=".2f"),
            "disguised_label": choice(widgets.Checkbox, value=True, description="class label disguised too",
                                                style=style),
        }

    def compute(self, theta, disguised_label):
        theta = check_rr_theta(theta)  # theta = 0.5 -> ValueError (shown as a message)
        # kept per (theta, label option): a position visited or computed ahead costs nothing
        key = self._key(theta, disguised_label)
        return self._results.get(key, functools.partial(self._build, *key))

    def _key(self, theta, disguised_label):
        # the slider's float steps (0.7 + 0.01 ...) rounded, so that a position has one key
        return (round(float(theta), 6), bool(disguised_label), self.seed, self.text_depth)

    def _build(self, theta, disguised_label, seed, text_depth):
        """Disguise, build RR-ID3, test it (Sections 4-5): a pure function of its arguments."""
        data, train, test, original = _adult()
        tree = RRID3(theta, disguised_label=disguised_label)
        keep = None if disguised_label else [train.shape[1] - 1]
        G = mrr_disguise(train, theta, seed, keep=keep)
        tree.fit(G[:, :-1], G[:, -1])
        T = mrr_disguise(test, theta, seed + 1, keep=keep)
        est = estimate_accuracy(tree, (T[:, :-1], T[:, -1]), theta, disguised_label)
        X_test, y_test = test[:, :-1], test[:, -1]
        return RRTreeResult(
            theta=float(theta),
            original_accuracy=original.score(X_test, y_test),
            accuracy=tree.score(X_test, y_test),
            estimated_accuracy=est.accuracy,
            n_nodes=tree.tree_.n_nodes,
            original_nodes=original.tree_.n_nodes,
            tree_text=tree.export_text(feature_names=list(data.feature_names), max_depth=text_depth),
            disguised_label=bool(disguised_label),
        )

    def after_update(self, result: RRTreeResult) -> None:
        """Build the trees one slider step right and left while the room looks at the figure,
        then the tree of the other label option at this theta (the check box's next click).

        Parameters
        ----------
        result : RRTreeResult
            The result now shown.
        """
        slider = self.controls["theta"]
        keys = [self._key(t, result.disguised_label)
                for t in slider_neighbours(slider, result.theta) if t != 0.5]
        keys.append(self._key(result.theta, not result.disguised_label))
        self._results.prefetch([(key, functools.partial(self._build, *key)) for key in keys])

    def draw(self, figure, result) -> None:
        # the artists of plot_panel_accuracy, kept to be updated in place (redraw)
        self._drawing = PanelAccuracyDrawing(figure.add_subplot(), result.original_accuracy, result.accuracy,
                                             result.estimated_accuracy, result.theta)
        # tight_layout leaves a placeholder layout engine, which makes savefig draw the figure
        # twice (once only to lay it out); the axes keep the position it found
        figure.set_layout_engine(None)

    def redraw(self, figure, result) -> bool:
        # theta and the label option change the bars, their labels and the title only: the same
        # axes, ticks and fitted layout serve; the picture is the one a new figure shows
        drawing = getattr(self, "_drawing", None)
        if drawing is None or drawing.ax.figure is not figure:
            return False  # the last drawing is on another figure (describe() of another result)
        drawing.update(result.original_accuracy, result.accuracy, result.estimated_accuracy, result.theta)
        return True

    def summary(self, result) -> str:
        eps_text = epsilon_text(rr_epsilon(result.theta))
        return (
            f"<b>θ = {result.theta:.2f}</b>, ε = {eps_text}; "
            f"accuracy {100 * result.accuracy:.1f} % (original ID3 {100 * result.original_accuracy:.1f} %), "
            f"estimated from the disguised test set {100 * result.estimated_accuracy:.1f} %; "
            f"tree: {result.n_nodes} nodes (original: {result.original_nodes})."
            # folded: open, the tree text would push the panel past one screen
            f"<details><summary>First {self.text_depth} levels of the RR-ID3 tree</summary>"
            f"<pre style='font-size:85%;line-height:1.15'>{html.escape(result.tree_text)}</pre></details>"
        )
