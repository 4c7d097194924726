"""Figures at projector size (issue 15 §2): no legend on the data, no overlapping labels."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from ppdm_edu.lecture import lecture_mode  # noqa: E402
from ppdm_edu.plots.randomization import (  # noqa: E402
    plot_loss_vs_snr,
    plot_noise_intervals,
    plot_original_vs_perturbed,
)
from ppdm_edu.plots.trees import plot_fig6  # noqa: E402
from ppdm_edu.randomization import GaussianNoise, UniformNoise  # noqa: E402


@pytest.fixture(params=[False, True], ids=["classroom", "projector"])
def style(request):
    lecture_mode(request.param)
    yield request.param
    lecture_mode(False)
    plt.close("all")


def _boxes_overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _line_points_in(ax, box) -> int:
    """How many data points of the axes' lines fall inside ``box`` (display coordinates)."""
    n = 0
    for line in ax.get_lines():
        xy = ax.transData.transform(np.column_stack(line.get_data()).astype(float))
        n += int(((xy[:, 0] > box.x0) & (xy[:, 0] < box.x1) & (xy[:, 1] > box.y0) & (xy[:, 1] < box.y1)).sum())
    return n


def test_noise_interval_legend_stays_above_the_peak(style):
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.4), sharey=True)
    for ax, c in zip(axes, (0.95, 0.999)):
        plot_noise_intervals([UniformNoise.from_interval_width(73, 0.95),
                              GaussianNoise.from_interval_width(73, 0.95)], confidence=c, ax=ax,
                             labels=["uniform", "Gaussian"])
    fig.tight_layout()
    fig.canvas.draw()
    for ax in axes:
        box = ax.get_legend().get_window_extent()
        assert _line_points_in(ax, box) == 0, "a density curve runs through the legend"


def test_neighbouring_perturbation_legends_do_not_collide(style):
    rng = np.random.default_rng(0)
    fig, axes = plt.subplots(2, 2, figsize=(11, 6), sharex="col")
    for ax in axes.ravel():
        x = rng.uniform(17, 90, 5_000)
        plot_original_vs_perturbed(x, x + rng.uniform(-19, 19, x.size), ax=ax, value_range=(17, 90),
                                   label="age", unit="years")
    fig.tight_layout()
    fig.canvas.draw()
    legends = [ax.get_legend().get_window_extent() for ax in axes.ravel()]
    for ax, box in zip(axes.ravel(), legends):
        inside = ax.get_window_extent()
        assert box.x0 >= inside.x0 - 1 and box.x1 <= inside.x1 + 1, "legend wider than its axes"
    assert not _boxes_overlap(legends[0], legends[1])


def test_loss_curve_avoids_its_legend(style):
    fig, ax = plt.subplots(figsize=(7, 3.4))
    plot_loss_vs_snr(ax=ax)
    fig.tight_layout()
    fig.canvas.draw()
    assert _line_points_in(ax, ax.get_legend().get_window_extent()) == 0


def test_fig6_x_labels_do_not_overlap(style):
    rows = [dict(function=f, algorithm=a, noise=k, privacy=p, run=0, accuracy=90 - 10 * p)
            for f in (1, 2, 3, 5) for a in ("randomized", "byclass") for k in ("gaussian", "uniform")
            for p in (0.25, 0.5, 1.0, 2.0)]
    rows += [dict(function=f, algorithm="original", noise="none", privacy=0.0, run=0, accuracy=99)
             for f in (1, 2, 3, 5)]
    fig = plt.figure(figsize=(10, 7), layout="constrained")
    plot_fig6(pd.DataFrame(rows), fig)
    fig.canvas.draw()
    labels = [ax.xaxis.label for ax in fig.axes if ax.get_xlabel()]
    assert len(labels) == 2
    a, b = (t.get_window_extent() for t in labels)
    assert not _boxes_overlap(a, b)
