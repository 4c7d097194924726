"""Notebooks 03 and 05: the panels update their figure in place (``Panel.redraw``, issue 31 §5).

A panel moved to a setting must show exactly what a new panel built at that setting shows: the
same PNG pixels and the same alt text, in the classroom and the lecture style.
"""
from __future__ import annotations

import pytest
from panel_pictures import figure_pixels, move_and_compare

from ppdm_edu.lecture import lecture_mode

pytestmark = pytest.mark.usefixtures("laptop_style")


# every control moved, alone and together: the slider ends, theta = 0.5 (a message), theta
# beyond 0.5 (the estimate's lattice reversed), a wide band clipped by the axis, estimates off the
# axis, P(A) at 0 and 1, and back to the start
WARNER_STEPS = [
    dict(theta=0.71), dict(n=210), dict(pi=0.35), dict(theta=0.5), dict(theta=0.52),
    dict(n=10), dict(pi=0.0), dict(theta=0.3, n=5_000), dict(pi=1.0), dict(theta=1.0),
    dict(theta=0.0, pi=0.5, n=10), dict(theta=0.55, n=20), dict(theta=0.7, n=200, pi=0.3),
]


@pytest.mark.parametrize("lecture", [False, True])
def test_warner_panel_redrawn_in_place_shows_what_a_new_panel_draws(lecture):
    from ppdm_edu.widgets.randomized_response import WarnerSurveyPanel

    lecture_mode(lecture)
    moved = WarnerSurveyPanel()
    before = moved.figure
    shown = len(move_and_compare(moved, WARNER_STEPS, WarnerSurveyPanel))
    assert shown == len(WARNER_STEPS) - 1  # only theta = 0.5 is a message
    assert moved.figure is before  # in place, not a new figure


def test_sampling_distribution_drawing_updated_draws_what_the_plot_function_draws():
    """The drawing class on its own (the notebook's figure, with its legend): updated to another
    simulation it shows what plot_sampling_distribution draws for that simulation."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from ppdm_edu.plots.alt_text import figure_description
    from ppdm_edu.plots.randomized_response import SamplingDistributionDrawing, plot_sampling_distribution
    from ppdm_edu.rr_simulation import simulate_warner_surveys

    def render(figure):
        FigureCanvasAgg(figure)
        return figure_pixels(figure), figure_description(figure)

    moved = Figure(figsize=(8, 3.6))
    drawing = SamplingDistributionDrawing(moved.add_subplot(), simulate_warner_surveys(0.3, 0.7, 200, rng=0))
    render(moved)
    for pi, theta, n in [(0.6, 0.55, 20), (0.1, 0.9, 5_000), (0.3, 0.7, 200)]:
        sim = simulate_warner_surveys(pi, theta, n, rng=0)
        drawing.update(sim)
        fresh = Figure(figsize=(8, 3.6))
        plot_sampling_distribution(sim, ax=fresh.add_subplot())
        (a, text_a), (b, text_b) = render(moved), render(fresh)
        assert a.shape == b.shape and (a == b).all(), (pi, theta, n)
        assert text_a == text_b


# seed 9: at theta = 0.49 without the label disguised the estimate from the disguised test set is
# negative (-22.7 %): its bar is empty and its label moves beside it, in black; theta = 0.5 is a
# message; theta 0 and 1 have an infinite epsilon in the title; 0.49 with the label disguised
# estimates more than 100 %
RR_STEPS = [
    dict(theta=0.71), dict(theta=0.69), dict(disguised_label=False), dict(theta=0.5),
    dict(theta=0.49), dict(disguised_label=True), dict(theta=0.0), dict(theta=1.0),
    dict(theta=0.51, disguised_label=False), dict(theta=0.49), dict(theta=0.7, disguised_label=True),
]


@pytest.mark.parametrize("lecture", [False, True])
def test_rr_tree_panel_redrawn_in_place_shows_what_a_new_panel_draws(lecture):
    from ppdm_edu.widgets.rr_trees import RRTreePanel

    lecture_mode(lecture)
    moved = RRTreePanel(seed=9)
    before = moved.figure
    compared = move_and_compare(moved, RR_STEPS, lambda **state: RRTreePanel(seed=9, **state))
    shown = len(compared)
    outside = sum(result.estimated_accuracy < 0 for _, result in compared)
    assert shown == len(RR_STEPS) - 1  # only theta = 0.5 is a message
    assert outside == 2  # the label beside an empty bar was shown, twice
    assert moved.figure is before  # in place, not a new figure


@pytest.mark.parametrize("lecture", [False, True])
def test_panel_accuracy_drawing_updated_draws_what_the_plot_function_draws(lecture):
    """The drawing class on its own, on a figure without a layout engine (tight_layout fits it
    once): bars at the ends, at the inside/beside threshold and beyond [0, 100] %."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from ppdm_edu.plots.alt_text import figure_description
    from ppdm_edu.plots.rr_trees import PanelAccuracyDrawing, plot_panel_accuracy

    lecture_mode(lecture)

    def render(figure):
        return figure_pixels(figure), figure_description(figure)

    def new_figure():
        figure = Figure(figsize=(8, 2.8), dpi=100, layout=None)
        FigureCanvasAgg(figure)
        return figure

    moved = new_figure()
    drawing = PanelAccuracyDrawing(moved.add_subplot(), 0.84, 0.82, 0.83, 0.7)
    render(moved)
    for values in [(0.84, 0.149, 0.15, 0.51), (0.84, 0.0, -0.4, 0.0), (1.0, 1.0, 1.7, 1.0),
                   (0.5, 0.75, 0.1499, 0.45), (0.84, 0.82, 0.83, 0.7)]:
        drawing.update(*values)
        fresh = new_figure()
        plot_panel_accuracy(*values, ax=fresh.add_subplot())
        (a, text_a), (b, text_b) = render(moved), render(fresh)
        assert a.shape == b.shape and (a == b).all(), values
        assert text_a == text_b
