"""Notebook 04's trees panel draws without measuring what does not change (issue 31 goal 5).

The panel gives its title y = 1.0 (where matplotlib's automatic placement puts it) and keeps its
axis labels where the first draw put them; these tests compare its pictures with the bars drawn
the plain way (:func:`~ppdm_edu.plots.trees.plot_accuracy_bars`, automatic placement) on a
figure of the same geometry, in both styles.
"""
from __future__ import annotations

import numpy as np
import pytest
from panel_pictures import figure_pixels, png_pixels

from ppdm_edu.lecture import lecture_mode
from ppdm_edu.plots.trees import AlgorithmBarsDrawing, plot_accuracy_bars
from ppdm_edu.widgets.panel import figure_margins

pytestmark = pytest.mark.usefixtures("laptop_style")


def _plain(panel, result) -> np.ndarray:
    """The panel's picture of ``result`` drawn the plain way: automatic title and labels."""
    figure = panel._new_figure()
    ax = figure.subplots(gridspec_kw=figure_margins(figure, left=4.0, bottom=2.2, top=2.4))
    plot_accuracy_bars(result.accuracies, ax=ax, title=panel._title(result))
    return figure_pixels(figure, pil_kwargs={"compress_level": 1})


def _shown(panel) -> np.ndarray:
    return png_pixels(panel.image.value)


@pytest.mark.parametrize("lecture", [False, True])
def test_trees_panel_moved_shows_the_bars_drawn_the_plain_way(lecture):
    from ppdm_edu.trees.as2000 import ALGORITHMS
    from ppdm_edu.widgets.trees import TreesPanel

    lecture_mode(lecture)
    panel = TreesPanel(n_train=1_000, n_test=500)
    three = ("original", "randomized", "byclass")
    steps = [(1, "gaussian", 105, three), (1, "gaussian", 100, three), (1, "uniform", 100, three),
             (5, "uniform", 100, three), (5, "uniform", 100, tuple(ALGORITHMS)),
             (5, "uniform", 5, tuple(ALGORITHMS)), (2, "gaussian", 200, ("byclass",)),
             (2, "gaussian", 195, ("byclass",)), (4, "gaussian", 195, three)]
    for function, noise, privacy, algorithms in steps:
        panel.controls["function"].value = function
        panel.controls["noise"].value = noise
        panel.controls["privacy"].value = privacy
        panel.controls["algorithms"].value = algorithms
        a, b = _shown(panel), _plain(panel, panel.result)
        assert a.shape == b.shape and (a == b).all(), (lecture, function, noise, privacy, algorithms)


@pytest.mark.parametrize("lecture", [False, True])
def test_every_title_of_the_trees_panel_is_where_matplotlib_would_place_it(lecture):
    """matplotlib lifts a title above whatever is at the top of the axes (nothing here) and
    leaves it at y = 1.0 when its bottom is not below the axes' top (its descent is less than
    its pad): true of every title the panel shows, so y = 1.0 changes no pixel."""
    from ppdm_edu.widgets.trees import TreesPanel, TreesResult

    lecture_mode(lecture)
    panel = TreesPanel(n_train=200, n_test=100, algorithms=("original",))
    figure = panel.figure
    ax = figure.axes[0]
    renderer = figure.canvas.get_renderer()
    assert ax.xaxis.get_ticks_position() == "bottom" and ax.xaxis.get_label_position() == "bottom"
    top = ax.get_window_extent(renderer).ymax
    for n_train in (10_000, 200):
        for function in (1, 2, 3, 4, 5):
            for noise in ("gaussian", "uniform"):
                for privacy in range(5, 205, 5):
                    result = TreesResult(function=function, noise=noise, privacy=privacy / 100,
                                         accuracies={"original": 0.5}, seconds={}, n_leaves={},
                                         n_train=n_train, n_test=100)
                    ax.set_title(panel._title(result), y=1.0)
                    assert ax.title.get_window_extent(renderer).ymin >= top, ax.get_title()


@pytest.mark.parametrize("lecture", [False, True])
def test_bars_with_kept_label_positions_draw_what_the_plot_function_draws(lecture):
    import matplotlib.pyplot as plt

    lecture_mode(lecture)
    before = {"original": 0.97, "randomized": 0.62, "byclass": 0.9}
    after = {"original": 0.97, "randomized": 0.5, "byclass": 1.0}
    fig, ax = plt.subplots(figsize=(7, 2.8), dpi=90)
    drawing = AlgorithmBarsDrawing(ax, before, "F1", title_y=1.0)
    figure_pixels(fig, pil_kwargs={"compress_level": 1})
    drawing.keep_label_positions()
    assert drawing.update(after, "F2")
    a = figure_pixels(fig, pil_kwargs={"compress_level": 1})
    fig2, ax2 = plt.subplots(figsize=(7, 2.8), dpi=90)
    plot_accuracy_bars(after, ax=ax2, title="F2")
    b = figure_pixels(fig2, pil_kwargs={"compress_level": 1})
    plt.close(fig)
    plt.close(fig2)
    assert a.shape == b.shape and (a == b).all()
