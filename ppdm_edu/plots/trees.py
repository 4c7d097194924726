"""Figures for decision trees on perturbed data (notebook 04; Agrawal & Srikant Sections 4-5).

Each function draws on the ``ax`` / ``fig`` it is given (or a new one) and returns it, so the
notebook, ``python -m ppdm_edu reproduce as2000`` and the widget panel draw the same pictures.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

__all__ = [
    "ALGORITHM_STYLE",
    "plot_fig5",
    "plot_fig6",
    "plot_accuracy_bars",
    "AlgorithmBarsDrawing",
    "plot_class_histograms",
    "plot_partition",
]

#: label, colour, marker of each algorithm (Okabe-Ito colours, the same in every figure)
ALGORITHM_STYLE = {
    "original": ("Original", "#000000", "o"),
    "randomized": ("Randomized", "#D55E00", "v"),
    "global": ("Global", "#E69F00", "s"),
    "byclass": ("ByClass", "#0072B2", "^"),
    "local": ("Local", "#009E73", "D"),
}


def _mean_accuracy(df: pd.DataFrame) -> pd.DataFrame:
    return (df.groupby(["function", "noise", "privacy", "algorithm"])["accuracy"].mean() * 100).reset_index()


def plot_fig5(df: pd.DataFrame, fig=None, privacy=(0.25, 1.0), noises=("gaussian", "uniform")):
    """Fig. 5: accuracy per function for each algorithm; one panel per (noise, privacy level).

    Fig. 5 of Agrawal & Srikant (2000): Original, Randomized, Global, ByClass and Local
    (mean over repeats) for each classification function of Table 3, one legend below.

    Parameters
    ----------
    df : pandas.DataFrame
        The tidy frame of :func:`ppdm_edu.experiments.as2000_accuracy` (columns function,
        noise, privacy, algorithm, accuracy).
    fig : matplotlib.figure.Figure, optional
        Figure to draw the panels on (it should use constrained layout, for the legend); a
        new one when omitted.
    privacy : sequence of float, default (0.25, 1.0)
        Privacy levels, one column of panels each.
    noises : sequence of str, default ("gaussian", "uniform")
        Noise kinds, one row of panels each.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on.
    """
    if fig is None:
        fig = plt.figure(figsize=(10, 7), layout="constrained")
    m = _mean_accuracy(df)
    axes = fig.subplots(len(noises), len(privacy), sharex=True, sharey=True, squeeze=False)
    for r, kind in enumerate(noises):
        for c, level in enumerate(privacy):
            ax = axes[r, c]
            sel = m[(m["noise"] == kind) & np.isclose(m["privacy"], level)]
            for alg, (label, colour, marker) in ALGORITHM_STYLE.items():
                s = sel[sel["algorithm"] == alg].sort_values("function")
                if s.empty:
                    continue
                ax.plot(s["function"], s["accuracy"], marker=marker, color=colour, label=label,
                        ls="--" if alg in ("original", "randomized") else "-")
            ax.set_title(f"{kind.capitalize()} noise, {level:.0%} privacy")
            ax.set_xticks(sorted(m["function"].unique()))
            ax.set_xticklabels([f"F{f}" for f in sorted(m["function"].unique())])
            if c == 0:
                ax.set_ylabel("accuracy (%)")
            if r == len(noises) - 1:
                ax.set_xlabel("classification function (Table 3)")
    lo = max(0.0, float(np.floor(m["accuracy"].min() / 10) * 10))
    axes[0, 0].set_ylim(lo, 101)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=len(labels))
    fig.suptitle("Fig. 5: classification accuracy on perturbed training data")
    return fig


def plot_fig6(df: pd.DataFrame, fig=None, functions=(1, 2, 3, 5)):
    """Fig. 6: accuracy vs privacy level for ByClass and Randomized, Gaussian (G) and Uniform (U).

    Fig. 6 of Agrawal & Srikant (2000). Original (no perturbation) is the dotted line. One
    panel per function; unused panels of the grid are hidden.

    Parameters
    ----------
    df : pandas.DataFrame
        The tidy frame of :func:`ppdm_edu.experiments.as2000_accuracy`.
    fig : matplotlib.figure.Figure, optional
        Figure to draw the panels on (constrained layout, for the legend); a new one when
        omitted.
    functions : sequence of int, default (1, 2, 3, 5)
        Classification functions to show (those absent from ``df`` are skipped).

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on.
    """
    if fig is None:
        fig = plt.figure(figsize=(10, 7), layout="constrained")
    m = _mean_accuracy(df)
    functions = [f for f in functions if (m["function"] == f).any()]
    ncols = 2 if len(functions) > 1 else 1
    nrows = int(np.ceil(len(functions) / ncols))
    axes = np.atleast_1d(fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False)).ravel()
    styles = {("byclass", "gaussian"): ("ByClass(G)", "#0072B2", "-", "^"),
              ("byclass", "uniform"): ("ByClass(U)", "#56B4E9", "-", "v"),
              ("randomized", "gaussian"): ("Random(G)", "#D55E00", "--", "^"),
              ("randomized", "uniform"): ("Random(U)", "#E69F00", "--", "v")}
    for ax, f in zip(axes, functions):
        sel = m[m["function"] == f]
        orig = sel[sel["algorithm"] == "original"]["accuracy"]
        if len(orig):
            ax.axhline(float(orig.mean()), color="black", ls=":", label="Original")
        for (alg, kind), (label, colour, ls, marker) in styles.items():
            s = sel[(sel["algorithm"] == alg) & (sel["noise"] == kind)].sort_values("privacy")
            if len(s):
                ax.plot(100 * s["privacy"], s["accuracy"], ls=ls, marker=marker, color=colour, label=label)
        ax.set_title(f"Function {f}")
    for k, ax in enumerate(axes[: len(functions)]):
        if k % ncols == 0:
            ax.set_ylabel("accuracy (%)")
        if k + ncols >= len(functions):  # bottom panel of its column
            # short: "privacy level (% of the range, 95 % confidence)" twice side by side
            # overlaps with projector fonts; the notebook's prose defines the level
            ax.set_xlabel("privacy level (% of range)")
            ax.tick_params(labelbottom=True)
    for ax in axes[len(functions):]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    # at most three per row: five entries in one row are wider than a projector figure
    fig.legend(handles, labels, loc="outside lower center", ncol=min(3, len(labels)))
    fig.suptitle("Fig. 6: change in accuracy with privacy")
    return fig


def plot_accuracy_bars(accuracies: dict, ax=None, title: str = ""):
    """Bars of test accuracy (%) per algorithm, ``{algorithm: accuracy in [0, 1]}``.

    The bars are in the order and colours of :data:`ALGORITHM_STYLE`, each labelled with its
    value; a dotted line marks 50 % (guessing on balanced classes). To show other accuracies of
    the same algorithms without a new figure, use :class:`AlgorithmBarsDrawing`.

    Parameters
    ----------
    accuracies : dict
        ``{algorithm: accuracy in [0, 1]}`` with keys of :data:`ALGORITHM_STYLE`.
    ax : matplotlib.axes.Axes, optional
        Where to draw the bars; a new figure and axes when omitted.
    title : str, default ""
        Axes title (none when empty).

    Returns
    -------
    matplotlib.axes.Axes
        The axes with one labelled bar per entry.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3))
    return AlgorithmBarsDrawing(ax, accuracies, title).ax


class AlgorithmBarsDrawing:
    """The artists of :func:`plot_accuracy_bars`, redrawn in place for new accuracies.

    A panel that moves a control calls :meth:`update` instead of drawing a new figure: the
    axes, their ticks and the bars are kept (building them again is most of a redraw). The
    picture is pixel for pixel the one :func:`plot_accuracy_bars` draws for the same values.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (a fresh axes).
    accuracies : dict
        ``{algorithm: accuracy in [0, 1]}`` with keys of :data:`ALGORITHM_STYLE`.
    title : str, default ""
        Axes title (none when empty).
    title_y : float or None, default None
        Height of the title in axes coordinates; None lets matplotlib place it, measuring the
        tick labels at every draw to keep it above any at the top. With nothing above the axes
        and a title whose descent is less than its pad, matplotlib puts it at 1.0: giving 1.0
        then draws the same picture without those measurements (the trees panel does).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> drawing = AlgorithmBarsDrawing(plt.subplots()[1], {"original": 0.98, "byclass": 0.9}, "F1")
    >>> drawing.update({"original": 0.98, "byclass": 0.8}, "F1")
    True
    >>> [t.get_text() for t in drawing.labels], drawing.ax.get_title()
    (['98.0', '80.0'], 'F1')
    >>> drawing.update({"original": 0.98}, "F1")   # other algorithms: draw anew
    False
    """

    def __init__(self, ax, accuracies: dict, title: str = "", title_y: float | None = None):
        self.ax = ax
        self.title_y = title_y
        self.names = [a for a in ALGORITHM_STYLE if a in accuracies]
        values = [100 * accuracies[a] for a in self.names]
        self.bars = ax.bar([ALGORITHM_STYLE[a][0] for a in self.names], values,
                           color=[ALGORITHM_STYLE[a][1] for a in self.names])
        self.labels = [ax.text(bar.get_x() + bar.get_width() / 2, v + 1, f"{v:.1f}", ha="center", va="bottom")
                       for bar, v in zip(self.bars, values)]
        ax.axhline(50, color="0.5", ls=":", lw=1)
        ax.set_ylim(0, 109)
        ax.set_ylabel("test accuracy (%)")
        ax.grid(axis="x", visible=False)
        self.titled = bool(title)
        if title:
            ax.set_title(title, y=title_y)

    def update(self, accuracies: dict, title: str = "") -> bool:
        """Show new accuracies of the same algorithms.

        Parameters
        ----------
        accuracies : dict
            ``{algorithm: accuracy in [0, 1]}``.
        title : str, default ""
            Axes title.

        Returns
        -------
        bool
            False (and nothing changed) when the algorithms, or whether there is a title, are
            not those drawn: the bars and the axes would change, draw anew.
        """
        names = [a for a in ALGORITHM_STYLE if a in accuracies]
        if names != self.names or bool(title) != self.titled:
            return False
        for bar, label, name in zip(self.bars, self.labels, names):
            v = 100 * accuracies[name]
            bar.set_height(v)
            label.set_y(v + 1)
            label.set_text(f"{v:.1f}")
        if title:
            self.ax.set_title(title, y=self.title_y)
        return True

    def keep_label_positions(self) -> None:
        """Keep the axis labels where the last draw put them (no measuring on later draws).

        matplotlib places each axis label beside the tick labels, measuring every tick label at
        every draw. Neither the y ticks (the limits are fixed) nor the x ticks (the algorithms)
        change in :meth:`update`, so the places found by the last draw stay right, as long as
        the figure is drawn at the same dpi: call this only after the figure was drawn at the
        dpi it will be drawn and saved at (a panel's figure, saved with ``savefig.dpi`` =
        ``"figure"``).
        """
        for axis in (self.ax.xaxis, self.ax.yaxis):
            axis.set_label_coords(*axis.label.get_position(), transform=axis.label.get_transform())


def plot_class_histograms(x, w, y, edges, reconstructed=None, ax=None, labels=("Group B", "Group A"),
                          attribute: str = "value"):
    """One attribute per class: original values, perturbed values, and (optionally) the
    per-class reconstructions (ByClass) as step lines -- why split points move under noise.

    Parameters
    ----------
    x, w : array-like
        Original and perturbed values of the attribute.
    y : array-like of {0, 1}
        Class of each record.
    edges : array-like
        Interval boundaries (the reconstruction's).
    reconstructed : dict, optional
        ``{class: Reconstruction}``; their ``counts`` are drawn per interval.
    ax : matplotlib.axes.Axes, optional
        Where to draw the histograms; a new figure and axes when omitted.
    labels : tuple of str, default ("Group B", "Group A")
        Names of class 0 and class 1 in the legend.
    attribute : str, default "value"
        Name of the attribute on the x axis.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the per-class histograms (legend below it).
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.5))
    x, w, y = np.asarray(x, float), np.asarray(w, float), np.asarray(y)
    edges = np.asarray(edges, float)
    width = edges[1] - edges[0]
    colours = ("#D55E00", "#0072B2")
    lo = min(edges[0], np.quantile(w, 0.002))
    hi = max(edges[-1], np.quantile(w, 0.998))
    wedges = np.arange(edges[0] - width * np.ceil((edges[0] - lo) / width),
                       hi + width, width)
    for c in (0, 1):
        ax.hist(x[y == c], bins=edges, histtype="stepfilled", alpha=0.25, color=colours[c],
                label=f"{labels[c]}: original")
        ax.hist(w[y == c], bins=wedges, histtype="step", ls="--", color=colours[c],
                label=f"{labels[c]}: perturbed")
        if reconstructed is not None and c in reconstructed:
            rec = reconstructed[c]
            ax.stairs(rec.counts, rec.edges, color=colours[c], lw=2, label=f"{labels[c]}: reconstructed")
    ax.set_xlabel(attribute)
    ax.set_ylabel("records per interval")
    ax.legend(fontsize="small", ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.22))
    return ax


def plot_partition(tree, X, y, features=(0, 1), ax=None, labels=None, resolution: int = 300):
    """Records of two attributes coloured by class, with the regions of a fitted tree.

    The tree must use only these two attributes (e.g. the credit-risk example of Fig. 3 of
    Agrawal & Srikant 2000); the shaded regions are its predictions on a grid.

    Parameters
    ----------
    tree : fitted classifier
        A fitted tree of :mod:`ppdm_edu.trees` (``classes_``, ``predict`` and its feature
        names are used).
    X : array-like or pandas.DataFrame of shape (n, d)
        The records (a frame if the tree was fitted on named columns).
    y : array-like of shape (n,)
        Class of each record.
    features : tuple of int, default (0, 1)
        Columns of ``X`` on the x and y axes.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure and axes when omitted.
    labels : sequence of str, optional
        Axis labels (default: the tree's feature names).
    resolution : int, default 300
        Grid points per axis for the regions.

    Returns
    -------
    matplotlib.axes.Axes
        The axes with the regions and the records.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4))
    Xa = np.asarray(X, dtype=float)
    y = np.asarray(y)
    i, j = features
    pad_i = 0.05 * (Xa[:, i].max() - Xa[:, i].min() or 1)
    pad_j = 0.05 * (Xa[:, j].max() - Xa[:, j].min() or 1)
    gi = np.linspace(Xa[:, i].min() - pad_i, Xa[:, i].max() + pad_i, resolution)
    gj = np.linspace(Xa[:, j].min() - pad_j, Xa[:, j].max() + pad_j, resolution)
    GI, GJ = np.meshgrid(gi, gj)
    grid = np.zeros((GI.size, Xa.shape[1]))
    grid[:, i], grid[:, j] = GI.ravel(), GJ.ravel()
    if hasattr(X, "columns"):  # a tree fitted on named columns predicts on the same names
        grid = pd.DataFrame(grid, columns=X.columns)
    classes = list(tree.classes_)
    # class index of every grid point (classes_ is sorted: one searchsorted, no loop)
    pred = np.searchsorted(tree.classes_, tree.predict(grid)).reshape(GI.shape)
    colours = ["#D55E00", "#0072B2", "#009E73", "#CC79A7"]
    from matplotlib.colors import ListedColormap

    ax.contourf(GI, GJ, pred, levels=np.arange(len(classes) + 1) - 0.5,
                cmap=ListedColormap(colours[: len(classes)]), alpha=0.15)
    for k, c in enumerate(classes):
        sel = y == c
        ax.scatter(Xa[sel, i], Xa[sel, j], color=colours[k], label=str(c), edgecolor="white", s=60)
    names = labels or [tree._feature_name(i), tree._feature_name(j)]
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    ax.legend(title="class", fontsize="small")
    return ax
