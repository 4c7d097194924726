"""Alt texts true of the data: every number a panel's alt text states lies within what its figure
draws (the plotted data, not the axis limits), error bars are read as error bars of the bars they
belong to, and no label or text of the figure is left out."""
from __future__ import annotations

import re

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from matplotlib.collections import LineCollection, PathCollection, PolyCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, StepPatch  # noqa: E402

from ppdm_edu import lecture_mode  # noqa: E402
from ppdm_edu.plots.alt_text import figure_description  # noqa: E402

widgets = pytest.importorskip("ipywidgets")

from ppdm_edu.widgets import all_panels  # noqa: E402

_NUM = re.compile(r"(?<![\w.])[-\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?(?![\w])")
# counts of things, not data values: "81 bars", "300 points", "Panel 1 of 2", "3 more series"
_COUNTS = re.compile(r"\b\d[\d,]* (?:bars|points|more series|error bars)\b|Panel \d+ of \d+|"
                     r"\d+ by \d+ cells|segments[^;.]*?: \d+")
# the word before a number that says which axis it is on (the last one before it counts: in
# "x from 3 to 10" both are x, in "peak 120 at 0.27 to 0.29" the peak is y and the rest x)
_ROLE = re.compile(r"(?<!\w)(highest|lowest|peak|y =|y from|x =|x from|at|non-zero from)(?!\w)")
_Y_WORDS = {"highest", "lowest", "peak", "y =", "y from"}


def _value(token: str) -> float:
    return float(token.replace(",", "").replace("\u2212", "-"))


def _finite(a) -> np.ndarray:
    a = np.ma.filled(np.ma.asarray(a, dtype=float), np.nan).ravel()
    return a[np.isfinite(a)]


def _filled_x(pts: np.ndarray) -> np.ndarray:
    """x of a filled outline where it has a height (a fill over zero is not drawn)."""
    pts = pts[np.isfinite(pts).all(axis=1)]
    if not len(pts):
        return pts[:, 0]
    xs, inverse = np.unique(pts[:, 0], return_inverse=True)
    lo = np.full(len(xs), np.inf)
    hi = np.full(len(xs), -np.inf)
    np.minimum.at(lo, inverse, pts[:, 1])
    np.maximum.at(hi, inverse, pts[:, 1])
    return xs[hi > lo]


def _drawn(artist, ax) -> tuple[np.ndarray, np.ndarray]:
    """The x and the y values ``artist`` draws (in data coordinates), found apart from alt_text."""
    empty = np.empty(0)
    if isinstance(artist, Line2D):
        return _finite(artist.get_xdata()), _finite(artist.get_ydata())
    if isinstance(artist, StepPatch):
        values, edges, _ = artist.get_data()
        values, edges = np.asarray(values, float), np.asarray(edges, float)
        on = values != 0
        return _finite(np.r_[edges[:-1][on], edges[1:][on]]), _finite(np.r_[values, 0.0])
    if isinstance(artist, PathCollection):
        off = np.asarray(artist.get_offsets(), dtype=float).reshape(-1, 2)
        return _finite(off[:, 0]), _finite(off[:, 1])
    if isinstance(artist, PolyCollection):
        paths = [p.vertices for p in artist.get_paths() if len(p.vertices)]
        if not paths:
            return empty, empty
        pts = np.concatenate(paths).astype(float)
        return _finite(_filled_x(pts)), _finite(pts[:, 1])
    if isinstance(artist, LineCollection):
        segs = [np.asarray(s, float) for s in artist.get_segments() if len(s)]
        if not segs:
            return empty, empty
        pts = np.concatenate(segs)
        return _finite(pts[:, 0]), _finite(pts[:, 1])
    if isinstance(artist, Patch):
        x_data, y_data = artist.get_data_transform().contains_branch_seperately(ax.transData)
        pts = artist.get_patch_transform().transform(artist.get_path().vertices)
        if not (x_data and y_data):  # axvspan / axhspan: only the data coordinate is data
            return (_finite(pts[:, 0]) if x_data else empty), (_finite(pts[:, 1]) if y_data else empty)
        return _finite(_filled_x(pts)), _finite(pts[:, 1])
    return empty, empty


def _figure_texts(fig, title: str) -> list[str]:
    texts = [title, fig.get_suptitle()]
    for ax in fig.get_axes():
        texts += [ax.get_title(loc) for loc in ("left", "center", "right")]
        texts += [ax.get_xlabel(), ax.get_ylabel()]
        texts += [t.get_text() for t in ax.texts]
        legend = ax.get_legend()
        if legend is not None:
            texts += [t.get_text() for t in legend.get_texts()]
        for axis in (ax.xaxis, ax.yaxis):
            for label in axis.get_ticklabels():
                try:
                    _value(label.get_text())
                except ValueError:  # a category's name, not a tick value
                    texts.append(label.get_text())
    return [t for t in texts if t]


def _artists(ax) -> list:
    return list(ax.lines) + list(ax.patches) + list(ax.collections)


def _check_segment(segment: str, ax, allowed_tokens: set[str]) -> list[str]:
    """Numbers of one axes' description that lie outside the data that axes draws."""
    by_label: dict[str, list] = {}
    for artist in _artists(ax):
        by_label.setdefault(str(artist.get_label()), []).append(artist)
    for container in ax.containers:
        by_label.setdefault(str(container.get_label()), []).extend(
            a for a in container if a is not None and not isinstance(a, tuple))
    pooled = [_drawn(a, ax) for a in _artists(ax)]
    all_x = np.concatenate([p[0] for p in pooled] + [np.empty(0)])
    all_y = np.concatenate([p[1] for p in pooled] + [np.empty(0)])
    wrong = []
    for clause in re.split(r"\. |; ", _COUNTS.sub(" ", segment)):
        named = re.search(r"'([^']+)'", clause)
        artists = by_label.get(named[1], []) if named else []
        if artists:
            drawn = [_drawn(a, ax) for a in artists]
            xs = np.concatenate([d[0] for d in drawn] + [np.empty(0)])
            ys = np.concatenate([d[1] for d in drawn] + [np.empty(0)])
        else:
            xs, ys = all_x, all_y
        for m in _NUM.finditer(clause):
            token = m[0]
            if token.lstrip("-\u2212") in allowed_tokens:
                continue
            if named and named.start() < m.start() < named.end():
                continue  # inside a label: text drawn in the legend
            before = clause[:m.start()]
            v = _value(token)
            roles = _ROLE.findall(before)
            if not roles:
                pool = np.r_[xs, ys]
            else:
                pool = ys if roles[-1] in _Y_WORDS else xs
            if not len(pool):
                wrong.append(f"{token} in {clause!r}: nothing drawn")
                continue
            lo, hi = pool.min(), pool.max()
            tol = 0.006 * max(abs(v), abs(lo), abs(hi)) + 1e-12
            if not lo - tol <= v <= hi + tol:
                wrong.append(f"{token} in {clause!r}: drawn data from {lo:.4g} to {hi:.4g}")
    return wrong


def numbers_outside_the_data(fig, alt: str, title: str = "") -> list[str]:
    """Every number of ``alt`` not within the data ``fig`` draws (nor written in its text)."""
    texts = _figure_texts(fig, title)
    allowed = {m[0].lstrip("-\u2212") for t in texts for m in _NUM.finditer(t)}
    axes = [ax for ax in fig.get_axes() if ax.get_label() != "<colorbar>"]
    segments = re.split(r"Panel \d+ of \d+: ", alt)
    if len(axes) > 1:
        segments = segments[1:]
    else:
        segments = [alt]
    assert len(segments) == len(axes), alt
    wrong = []
    for ax, segment in zip(axes, segments):
        wrong += _check_segment(segment, ax, allowed)
    return wrong


def _states(panel) -> list[dict]:
    """Three settings of a panel: as built, and each slider a third / two thirds along its
    range with each choice's second / last option."""
    states: list[dict] = [{}]
    for frac, pick in ((1 / 3, 1), (2 / 3, -1)):
        state = {}
        for name, control in panel.controls.items():
            if isinstance(control, (widgets.IntSlider, widgets.FloatSlider)):
                steps = round((control.max - control.min) / control.step)
                value = control.min + round(steps * frac) * control.step
                state[name] = int(value) if isinstance(control, widgets.IntSlider) else round(value, 6)
            elif isinstance(control, (widgets.Dropdown, widgets.ToggleButtons, widgets.RadioButtons)):
                options = [o[1] if isinstance(o, tuple) else o for o in control.options]
                state[name] = options[pick] if len(options) > 1 else options[0]
        states.append(state)
    return states


PANELS = sorted(all_panels())


@pytest.mark.parametrize("name", PANELS)
def test_every_number_of_a_panel_alt_text_lies_within_the_data_drawn(name):
    lecture_mode(False)
    panel = all_panels()[name]()
    shown = 0
    for state in _states(panel):
        for key, value in state.items():
            panel.controls[key].value = value
        if panel.error is not None:
            continue
        shown += 1
        alt = figure_description(panel.figure)
        wrong = numbers_outside_the_data(panel.figure, alt, panel.title)
        assert not wrong, f"{name} at {state}:\n" + "\n".join(wrong) + f"\n{alt}"
        # every label and text the figure shows is in its alt text
        for ax in panel.figure.get_axes():
            legend = ax.get_legend()
            shown_texts = [t.get_text() for t in ax.texts if t.get_visible()]
            if legend is not None:
                shown_texts += [t.get_text() for t in legend.get_texts()]
            for text in shown_texts:
                assert " ".join(text.split()) in alt, f"{name} at {state}: {text!r} missing from {alt!r}"
    assert shown >= 2, f"{name}: fewer than two of the three settings drew a figure"


def test_axis_limits_are_not_read_as_data():
    fig = Figure()
    ax = fig.add_subplot()
    ax.plot([17, 50, 90], [0.1, 0.3, 0.2], label="ages")
    ax.set(xlim=(-22.5, 128), xlabel="age", ylabel="density")
    alt = figure_description(fig)
    assert "-22.5" not in alt and "128" not in alt, alt
    assert not numbers_outside_the_data(fig, alt), alt


def test_a_filled_histogram_spans_where_it_has_height():
    fig = Figure()
    ax = fig.add_subplot()
    edges = np.linspace(-22.5, 128, 61)
    h = np.where((edges[:-1] >= 17) & (edges[:-1] < 90), 1.0, 0.0)
    ax.fill_between(edges, np.r_[h, h[-1]], step="post", label="original")
    alt = figure_description(fig)
    assert "-22.5" not in alt and "128" not in alt, alt
    assert not numbers_outside_the_data(fig, alt), alt


def test_a_horizontal_band_is_read_on_the_y_axis():
    fig = Figure()
    ax = fig.add_subplot()
    ax.plot([1, 10], [1, 60])
    ax.axhspan(0.5, 2.0, label="noise band")
    alt = figure_description(fig)
    assert "shaded band 'noise band' over y from 0.5 to 2" in alt, alt


def test_error_bars_are_read_as_error_bars_of_their_bars():
    fig = Figure()
    ax = fig.add_subplot()
    y = np.arange(3)[::-1]
    ax.barh(y, [0.01, 0.02, 0.005], xerr=[0.002, 0.004, 0.001])
    ax.set_yticks(y, ["warner", "oue", "laplace"])
    alt = figure_description(fig)
    assert "line" not in alt, alt  # the caps are not curves over a row index
    assert "warner: 0.01 (error bar 0.008 to 0.012)" in alt, alt
    assert not numbers_outside_the_data(fig, alt), alt


def test_a_standalone_errorbar_series_is_named():
    fig = Figure()
    ax = fig.add_subplot()
    ax.errorbar([0.5, 1, 2], [0.3, 0.2, 0.1], yerr=[0.05, 0.04, 0.02], label="warner", marker="o")
    alt = figure_description(fig)
    assert "error bars 'warner'" in alt and "from 0.08 to 0.35" in alt, alt
    assert alt.count("'warner'") == 1, alt


def test_every_text_and_every_labelled_series_is_named():
    fig = Figure()
    ax = fig.add_subplot()
    for k in range(9):
        ax.plot([0, 1], [k, k + 1], label=f"series {k}")
    for k in range(6):
        ax.text(0.5, k, f"note {k}")
    ax.legend()
    alt = figure_description(fig)
    for k in range(9):
        assert f"series {k}" in alt, alt
    for k in range(6):
        assert f"note {k}" in alt, alt


# -- mark kinds: what is drawn is what is said ---------------------------------------------------
def _alt_of(draw) -> str:
    from ppdm_edu.plots.alt_text import axes_description

    fig = Figure()
    ax = fig.subplots()
    draw(ax)
    return axes_description(ax)


def test_an_unfilled_step_histogram_is_a_step_histogram_not_a_shaded_region():
    """``hist(histtype="step")`` draws a line along the bins' tops: not a shaded region, and its
    baseline is 0 (never a float residue such as 8.88e-16)."""
    x = np.random.default_rng(0).normal(0.5, 0.2, 2_000)
    alt = _alt_of(lambda ax: ax.hist(x, bins=np.arange(-1, 2.01, 0.05), density=True,
                                     histtype="step", label="original x"))
    assert alt.startswith("step histogram 'original x': 60 bars"), alt
    assert "shaded" not in alt and "e-1" not in alt, alt


def test_a_filled_step_outline_is_a_histogram_not_a_band():
    """``fill_between(edges, h, step="post")`` (a panel's fast histogram) and
    ``hist(histtype="stepfilled")`` are histograms; a fill between two step curves stays a band."""
    edges, h = np.linspace(0, 1, 11), np.arange(10.0)
    alt = _alt_of(lambda ax: ax.fill_between(edges, np.r_[h, h[-1]], step="post", label="original"))
    assert alt.startswith("histogram 'original': 10 bars, non-zero from 0.1 to 1, peak 9 at 0.9 to 1"), alt
    alt = _alt_of(lambda ax: ax.hist(np.r_[0.15, 0.25, 0.25, 0.75], bins=edges, histtype="stepfilled", label="w"))
    assert alt.startswith("histogram 'w': 10 bars, non-zero from 0.1 to 0.8, peak 2 at 0.2 to 0.3"), alt
    alt = _alt_of(lambda ax: ax.fill_between(edges, np.r_[h, h[-1]], np.r_[h, h[-1]] + 5, step="post",
                                             label="between"))
    assert alt.startswith("shaded band 'between'"), alt
    alt = _alt_of(lambda ax: ax.stairs(h, edges, label="line"))
    assert alt.startswith("step histogram 'line'"), alt
    alt = _alt_of(lambda ax: ax.stairs(h, edges, fill=True, label="filled"))
    assert alt.startswith("histogram 'filled'"), alt
