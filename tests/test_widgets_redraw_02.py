"""Notebook 02's panels redraw their figure in place (issue 31 §5, panel latency).

``ReconstructionPanel`` and ``ReconstructionIterationsPanel`` keep their axes and lines
(:class:`~ppdm_edu.plots.reconstruction.ReconstructionDrawing`) and give the lines new data at
every move (``Panel.redraw``). A picture redrawn in place must be pixel for pixel, and in its
alt text word for word, the one a new panel built at the same setting shows, in both styles.
"""
from __future__ import annotations

import matplotlib
import pytest
from panel_pictures import (
    assert_shows_what_a_new_panel_shows,
    figure_pixels,
    move_and_compare,
    same_picture,
)

from ppdm_edu.lecture import lecture_mode
from ppdm_edu.plots.reconstruction import ReconstructionDrawing, plot_reconstruction
from ppdm_edu.widgets.reconstruction import (
    ReconstructionIterationsPanel,
    ReconstructionPanel,
    _run,
)

matplotlib.use("Agg")


pytestmark = pytest.mark.usefixtures("laptop_style")


# every control of ReconstructionPanel moved at least once, some twice; moves that change the
# x range (privacy 200 %: the randomized line spreads far out), the number of points (intervals)
# and the y range (triangles / plateau, few records), and a message (privacy 0 %) in between
_STEPS = [dict(shape="triangles"), dict(noise="uniform"), dict(privacy=55), dict(n=2_000),
          dict(n_intervals=37), dict(method="em"), dict(stop="cross-validation"),
          dict(privacy=0), dict(privacy=200), dict(n_intervals=5), dict(shape="plateau"),
          dict(noise="gaussian", method="bayes"), dict(stop="paper", n=50_000),
          dict(n_intervals=100, privacy=5)]


@pytest.mark.parametrize("lecture", [False, True])
def test_reconstruction_panel_redrawn_in_place_shows_what_a_new_panel_draws(lecture):
    """After each move of every control (a message at 0 % included) the panel's picture and alt
    text are those of a new panel at those values, and the figure is the same one."""
    lecture_mode(lecture)
    moved = ReconstructionPanel()
    before = moved.figure
    compared = len(move_and_compare(moved, _STEPS, ReconstructionPanel))
    assert compared == len(_STEPS) - 1
    assert moved.figure is before  # in place, not a new figure


@pytest.mark.parametrize("lecture", [False, True])
@pytest.mark.parametrize("setting", [dict(), dict(shape="plateau", noise="uniform",
                                                  privacy=150, n_intervals=30, method="em")])
def test_iterations_panel_redrawn_in_place_shows_what_a_new_panel_draws(lecture, setting):
    """Scrubbing the iterations moves only the estimate: the picture and alt text are those of a
    new panel built at that iteration, on the same figure."""
    lecture_mode(lecture)
    moved = ReconstructionIterationsPanel(n=5_000, **setting)
    last = moved.run.rec.n_iter
    before = moved.figure
    for iteration in [0, 1, last, last // 2, 2, last - 1]:
        moved.controls["iteration"].value = iteration
        fresh = ReconstructionIterationsPanel(n=5_000, iteration=iteration, **setting)
        assert_shows_what_a_new_panel_shows(moved, fresh, iteration)
    assert moved.figure is before


def test_a_figure_drawn_for_describe_does_not_take_the_live_drawing():
    """``Panel.describe`` of another result draws into a figure of its own (with the panel's
    ``draw``): the next move must still show its setting on the live figure, not on that one."""
    panel = ReconstructionPanel(n=2_000)
    other = panel.compute(**{**panel.values(), "shape": "triangles"})
    text = panel.describe(other)
    assert text == ReconstructionPanel(n=2_000, shape="triangles").alt_text
    panel.controls["privacy"].value = 150
    fresh = ReconstructionPanel(n=2_000, privacy=150)
    assert same_picture(panel.image.value, fresh.image.value)
    assert panel.alt_text == fresh.alt_text


@pytest.mark.parametrize("lecture", [False, True])
def test_reconstruction_drawing_update_draws_what_plot_reconstruction_draws(lecture):
    """The drawing class on its own (with a legend, a title and the EM curve, as notebooks use
    ``plot_reconstruction``): updated for another reconstruction, it is pixel for pixel a new
    drawing of it."""
    import matplotlib.pyplot as plt

    lecture_mode(lecture)
    a = _run("plateau", "gaussian", 60, 3_000, 20, "bayes", 0)
    b = _run("triangles", "uniform", 180, 4_000, 33, "em", 1)
    fig, ax = plt.subplots(figsize=(6, 3.8))
    drawing = ReconstructionDrawing(ax, a.rec, a.x, a.w, em=a.rec, title="first")
    drawing.update(b.rec, b.x, b.w, em=b.rec, title="second")
    moved = figure_pixels(fig)
    fresh_fig, fresh_ax = plt.subplots(figsize=(6, 3.8))
    assert plot_reconstruction(b.rec, b.x, b.w, ax=fresh_ax, em=b.rec, title="second") is fresh_ax
    fresh = figure_pixels(fresh_fig)
    plt.close(fig)
    plt.close(fresh_fig)
    assert moved.shape == fresh.shape and (moved == fresh).all()


def test_reconstruction_drawing_refuses_another_set_of_curves():
    import matplotlib.pyplot as plt

    a = _run("plateau", "gaussian", 60, 2_000, 20, "bayes", 0)
    fig, ax = plt.subplots()
    drawing = ReconstructionDrawing(ax, a.rec, a.x, a.w, legend=False)
    with pytest.raises(ValueError, match="exactly when"):
        drawing.update(a.rec, a.x)              # no w: the randomized line would be stale
    with pytest.raises(ValueError, match="exactly when"):
        drawing.update(a.rec, a.x, a.w, em=a.rec)  # no EM line to draw it on
    plt.close(fig)


def test_the_readout_names_the_method_and_changes_with_it():
    """Switching iterative Bayes <-> EM changes the read-out (and the twin's, which is this
    summary): it names the algorithm, whatever the numbers do."""
    from ppdm_edu.widgets.reconstruction import METHOD_NAMES

    panel = ReconstructionPanel()
    bayes = panel.readout.value
    assert METHOD_NAMES["bayes"] in bayes and METHOD_NAMES["em"] not in bayes
    panel.controls["method"].value = "em"
    em = panel.readout.value
    assert METHOD_NAMES["em"] in em and METHOD_NAMES["bayes"] not in em
    assert em != bayes
