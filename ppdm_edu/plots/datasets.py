"""First-look plots of the course's data (notebook 00)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns

from ..datasets import ADULT_CONTINUOUS, agrawal, plateau, plateau_pdf, triangles, triangles_pdf

__all__ = ["plot_agrawal_classes", "plot_fig2_shapes", "plot_adult_continuous"]

_GROUP_NAMES = {1: "Group A", 0: "Group B"}


def plot_agrawal_classes(functions=(1, 2), n: int = 3_000, rng=0, axes=None):
    """Age against salary, coloured by class, for the given Table 3 functions.

    The synthetic data of Agrawal & Srikant (2000, Table 2): one scatter plot per
    classification function shows the regions of Group A and Group B that a tree must learn.

    Parameters
    ----------
    functions : sequence of int, default (1, 2)
        Classification functions of Table 3, one panel each.
    n : int, default 3000
        Records drawn per function.
    rng : int, numpy.random.Generator or None, default 0
        Random numbers of :func:`ppdm_edu.datasets.agrawal` (SPEC 7). An int draws the same
        records for every function; a Generator draws fresh ones for each.
    axes : sequence of matplotlib.axes.Axes, optional
        One axes per function; a new row of axes when omitted.

    Returns
    -------
    sequence of matplotlib.axes.Axes
        The axes drawn on (the legend is outside the last one).
    """
    if axes is None:
        _, axes = plt.subplots(1, len(functions), figsize=(5.5 * len(functions), 4.2), squeeze=False)
        axes = axes.ravel()
    for ax, function in zip(axes, functions):
        X, y = agrawal(n, function=function, rng=rng)
        frame = X.assign(group=[_GROUP_NAMES[v] for v in y])
        sns.scatterplot(data=frame, x="age", y="salary", hue="group", hue_order=["Group A", "Group B"],
                        s=8, alpha=0.6, linewidth=0, ax=ax)
        ax.set_title(f"Function {function}")
        ax.yaxis.set_major_formatter(lambda v, _: f"{v / 1000:.0f}K")
        if ax is not axes[-1] and ax.get_legend() is not None:
            ax.get_legend().remove()
    # the points fill the axes: one legend, outside the last panel, so that it covers no data
    if axes[-1].get_legend() is not None:
        sns.move_legend(axes[-1], "upper left", bbox_to_anchor=(1.01, 1), frameon=False, markerscale=2)
    return axes


def plot_fig2_shapes(n: int = 10_000, rng=0, axes=None):
    """The two original distributions of AS2000 Fig. 2: density and a sample histogram.

    The plateau and the triangles of Fig. 2 of Agrawal & Srikant (2000), the shapes that
    notebook 02 randomizes and reconstructs.

    Parameters
    ----------
    n : int, default 10000
        Size of the sample drawn from each shape.
    rng : int, numpy.random.Generator or None, default 0
        Random numbers of the two samples (SPEC 7).
    axes : sequence of two matplotlib.axes.Axes, optional
        Where to draw plateau and triangles; a new figure when omitted.

    Returns
    -------
    sequence of matplotlib.axes.Axes
        The two axes drawn on.
    """
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    grid = np.linspace(0, 1, 401)
    for ax, (name, sampler, pdf) in zip(axes, [("plateau", plateau, plateau_pdf),
                                                ("triangles", triangles, triangles_pdf)]):
        ax.hist(sampler(n, rng=rng), bins=20, range=(0, 1), density=True, alpha=0.45,
                label=f"sample, n = {n:,}")
        ax.plot(grid, pdf(grid), color="black", label="density")
        ax.set_title(name)
        ax.set_xlabel("attribute value")
        ax.set_ylim(0, 1.3 * pdf(grid).max())  # head room: the legend sits above the data
        ax.legend(loc="upper center", ncols=2, fontsize="small", frameon=False)
    axes[0].set_ylabel("density")
    return axes


def plot_adult_continuous(frame, axes=None):
    """Histograms of Adult's six continuous attributes, split by income class.

    Each class is normalised on its own (``common_norm=False``), so that the shapes of the two
    classes can be compared although "> 50K" is the smaller class.

    Parameters
    ----------
    frame : pandas.DataFrame
        Adult records with the columns of :data:`ppdm_edu.datasets.ADULT_CONTINUOUS` and
        ``income`` (0 or 1), e.g. ``load_adult("train").frame``.
    axes : sequence of matplotlib.axes.Axes, optional
        Six axes, one per attribute; a new 2 x 3 grid when omitted.

    Returns
    -------
    sequence of matplotlib.axes.Axes
        The axes drawn on (the legend is in the first).
    """
    if axes is None:
        _, axes = plt.subplots(2, 3, figsize=(13, 6.5))
        axes = np.asarray(axes).ravel()
    for ax, col in zip(axes, ADULT_CONTINUOUS):
        sns.histplot(data=frame, x=col, hue="income", bins=30, element="step", stat="density",
                     common_norm=False, ax=ax, legend=(col == ADULT_CONTINUOUS[0]))
        ax.set_ylabel("")
        if frame[col].max() >= 1e6:  # long tick labels collide: write them in M or K
            ax.xaxis.set_major_formatter(lambda v, _: f"{v / 1e6:g}M")
        elif frame[col].max() >= 10_000:
            ax.xaxis.set_major_formatter(lambda v, _: f"{v / 1000:.0f}K")
    legend = axes[0].get_legend()
    if legend is not None:
        legend.set_title("income")
        names = {"0": "≤ 50K", "1": "> 50K"}
        for text in legend.get_texts():
            text.set_text(names.get(text.get_text(), text.get_text()))
    axes[0].set_ylabel("density")
    axes[len(axes) // 2].set_ylabel("density")
    return axes
