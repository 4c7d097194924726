"""The wording and the order of an axes' alt text, for every kind of artist the description tells
apart. The notebooks' committed outputs carry these sentences, so a change of order or wording
is a change of every figure's alt text, not a detail: the expected strings are pinned whole.
"""
from __future__ import annotations

import matplotlib
import numpy as np

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from ppdm_edu.plots.alt_text import MAX_SERIES, axes_description  # noqa: E402


def test_patches_are_told_containers_first_then_outlines_then_spans_then_rectangles():
    ax = Figure().add_subplot()
    ax.add_patch(Rectangle((0, 0), 1, 2, label="box"))      # labelled, in data coordinates
    ax.add_patch(Rectangle((2, 0), 1, 3))                    # two unlabelled ones: told together
    ax.add_patch(Rectangle((3, 1), 1, 1))
    ax.axvspan(1, 2, label="window")
    ax.axhspan(3, 4)
    ax.stairs([1, 5, 2], [0, 1, 2, 3], label="perturbed")
    ax.fill([0, 1, 1, 0], [0, 0, 1, 1], label="area")
    ax.fill([5, 6, 6, 5], [0, 0, 1, 1])                      # an unlabelled outline is not told
    ax.bar([0, 1, 2], [2, 5, 1], yerr=[0.5, 1, 0.2], label="counts")
    ax.errorbar([0, 1, 2], [1, 2, 3], yerr=0.3, label="estimate")
    ax.hist(np.arange(20.0), bins=10, label="ages")
    assert axes_description(ax) == (
        "bars 'counts': 0: 2 (error bar 1.5 to 2.5), 1: 5 (error bar 4 to 6), 2: 1 (error bar 0.8 "
        "to 1.2); error bars 'estimate': 3 points over x from 0 to 2, y from 1 to 3; the bars "
        "reach over y from 0.7 to 3.3; histogram: 10 bars, non-zero from 0 to 19, peak 2 "
        "at 0 to 1.9; step histogram 'perturbed': 3 bars, non-zero from 0 to 3, peak 5 at 1 to "
        "2; shaded region 'area' over x from 0 to 1, y from 0 to 1; shaded band 'window' over x "
        "from 1 to 2. 3 more series: 'box'."
    )


def test_loose_rectangles_spans_then_labelled_then_the_unlabelled_together():
    ax = Figure().add_subplot()
    ax.add_patch(Rectangle((1, 0), -1, 2, label="box"))      # a negative width draws leftwards
    ax.add_patch(Rectangle((2, 0), 1, 3))
    ax.add_patch(Rectangle((3, 1), 1, 1))
    ax.add_patch(Rectangle((0.1, 0.1), 0.2, 0.2, transform=ax.transAxes, label="frame"))  # not data
    ax.axhspan(3, 4)
    ax.axvspan(1, 2, label="window")
    assert axes_description(ax) == (
        "shaded band over y from 3 to 4; shaded band 'window' over x from 1 to 2; rectangle 'box' "
        "over x from 0 to 1, y from 0 to 2; bars: 2 bars, non-zero from 2 to 4, peak 3 at 2 to 3."
    )


def test_title_axes_series_overflow_legend_and_text_in_that_order():
    ax = Figure().add_subplot()
    for i in range(MAX_SERIES + 3):
        ax.plot([0, 1], [i, i + 1], label=f"s{i}" if i % 2 else None)
    ax.legend(["s1", "extra"])  # "s1" is named by its series already, "extra" is not
    ax.set(title="Runs", xlabel="round")
    ax.text(0, 0, "  seed\n 3 ")
    names = [f"line 's{i}'" if i % 2 else "line" for i in range(MAX_SERIES)]
    lines = "; ".join(f"{name} over x from 0 to 1, highest {i + 1} at x = 1, lowest {i} at x = 0"
                      for i, name in enumerate(names))
    assert axes_description(ax) == (
        f"Runs. x axis: round. {lines}. 3 more series: 's7'. Legend: extra. Text: seed 3."
    )


def test_an_axes_switched_off_says_nothing_unless_it_draws_or_names_something():
    ax = Figure().add_subplot()
    ax.set_axis_off()
    assert axes_description(ax) == ""
    ax.set_title("Key.")
    assert axes_description(ax) == "Key."
