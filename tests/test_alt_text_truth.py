"""Alt texts true of the data: every statement a panel's alt text makes about a series (a line's
range, its highest and lowest point and where they are, its trend; a histogram's span and peak bar;
each bar's value and error bar; a scatter's count and ranges; a band's extent) is read back here
from the artists the figure draws and must hold for one of them; every number lies within what the
figure draws (the plotted data, not the axis limits); no label or text of the figure is left out."""
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


# -- the statements, read back against the artists ---------------------------------------------
# A number as the alt text writes it (3 significant digits; a minus sign, a decimal exponent).
_N = r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?!\d|\.\d|e[-+]?\d)"
# a label: anything up to its closing quote, never across the end of a statement
_LABEL = r"(?: '(?P<label>(?:(?!; |\. ).)*?)')?"
# a statement starts the text or follows the end of another, or a title's colon
_AT = r"(?:^|(?<=; )|(?<=\. )|(?<=: ))"


def _close(token: str, truth: float) -> bool:
    """``token`` is ``truth`` written to 3 significant digits (within half a unit of the third)."""
    value, truth = _value(token), float(truth)
    if truth == 0 or not np.isfinite(truth):
        return value == truth
    unit = 10.0 ** (np.floor(np.log10(abs(truth))) - 2)
    return abs(value - truth) <= 0.5 * unit * (1 + 1e-9)


def _any_close(token: str, truths) -> bool:
    return any(_close(token, t) for t in np.ravel(truths))


def _errorbar_artists(ax) -> set[int]:
    from matplotlib.container import ErrorbarContainer

    ids: set[int] = set()
    for c in ax.containers:
        if isinstance(c, ErrorbarContainer):
            data_line, caps, columns = c.lines
            ids.update(id(a) for a in (data_line, *caps, *columns) if a is not None)
    return ids


def _labelled(artists, label):
    """The artists a statement may be about: those with its label, or the unlabelled ones."""
    def name(a):
        text = str(a.get_label() or "")
        return "" if text.startswith("_") else text
    return [a for a in artists if name(a) == (label or "")]


def _line_is(m, line) -> bool:
    x = np.asarray(line.get_xdata(), dtype=float).ravel()
    y = np.asarray(line.get_ydata(), dtype=float).ravel()
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if x.size < 2:
        return False
    trend = ""
    if x.size >= 3:
        order = np.argsort(x, kind="stable")
        d = np.diff(y[order])
        trend = ", rising" if (d >= 0).all() else ", falling" if (d <= 0).all() else ""
    top, low = y == y.max(), y == y.min()
    return (_close(m["x0"], x.min()) and _close(m["x1"], x.max()) and (m["trend"] or "") == trend
            and _close(m["hi"], y.max()) and _any_close(m["xhi"], x[top])
            and _close(m["lo"], y.min()) and _any_close(m["xlo"], x[low]))


def _bar_series(ax):
    """(label, lefts, widths, heights) of everything drawn as bars: step histograms, bar
    containers, and the loose unlabelled rectangles in data coordinates (told together)."""
    from matplotlib.container import BarContainer
    from matplotlib.patches import Rectangle

    out = []
    for patch in ax.patches:
        if isinstance(patch, StepPatch):
            values, edges, _ = patch.get_data()
            edges = np.asarray(edges, dtype=float)
            out.append((patch, edges[:-1], np.diff(edges), np.asarray(values, dtype=float)))
    held = set()
    for c in ax.containers:
        if isinstance(c, BarContainer):
            rects = list(c)
            held.update(id(r) for r in rects)
            out.append((c, *(np.array([f(r) for r in rects], dtype=float)
                             for f in (Rectangle.get_x, Rectangle.get_width, Rectangle.get_height))))
    # a histogram drawn as an outline (hist(histtype="step"/"stepfilled"), fill_between(step=)):
    # its bins read off the filled shape itself, by which cells of a grid lie inside it
    from matplotlib.collections import PolyCollection

    outlines = [(p, p.get_patch_transform().transform(p.get_path().vertices)) for p in ax.patches
                if not isinstance(p, (Rectangle, StepPatch)) and not str(p.get_label() or "_").startswith("_")]
    outlines += [(c, c.get_paths()[0].vertices) for c in ax.collections
                 if isinstance(c, PolyCollection) and len(c.get_paths()) == 1]
    for artist, pts in outlines:
        bins = _bins_inside(np.asarray(pts, dtype=float))
        if bins is not None:
            out.append((artist, *bins))
    loose = [p for p in ax.patches if isinstance(p, Rectangle) and id(p) not in held
             and all(p.get_data_transform().contains_branch_seperately(ax.transData))
             and str(p.get_label() or "_").startswith("_")]
    if len(loose) > 1:
        out.append((None, *(np.array([f(r) for r in loose], dtype=float)
                            for f in (Rectangle.get_x, Rectangle.get_width, Rectangle.get_height))))
    return out


def _bins_inside(pts):
    """(lefts, widths, heights) of a closed step outline: each bin's height is the top of the
    column of grid cells (between the outline's x and y values) that lie inside the shape."""
    from matplotlib.path import Path as MplPath

    pts = pts[np.isfinite(pts).all(axis=1)]
    xs, ys = np.unique(pts[:, 0]), np.unique(pts[:, 1])
    if xs.size < 3 or ys.size < 2:
        return None
    mx, my = (xs[:-1] + xs[1:]) / 2, (ys[:-1] + ys[1:]) / 2
    grid = np.array([(x, y) for x in mx for y in my])
    inside = MplPath(np.vstack([pts, pts[:1]]), closed=True).contains_points(grid).reshape(mx.size, my.size)
    tops = np.where(inside.any(axis=1), ys[1:][np.argmax(np.where(inside, np.arange(my.size), -1), axis=1)], ys[0])
    return xs[:-1], np.diff(xs), tops - ys[0]


def _histogram_is(m, lefts, widths, heights) -> bool:
    ok = np.isfinite(lefts) & np.isfinite(widths) & np.isfinite(heights)
    lefts, heights = lefts[ok], heights[ok]
    rights = lefts + widths[ok]
    if int(m["n"]) != heights.size or not heights.size:
        return False
    nonzero = heights > 0
    if m["a"] is None:
        span = not nonzero.any()
    else:
        span = (nonzero.any() and _close(m["a"], lefts[nonzero].min())
                and _close(m["b"], rights[nonzero].max()))
    peak = heights == heights.max()
    return bool(span and _close(m["p"], heights.max()) and any(
        _close(m["l"], lo) and _close(m["r"], hi) for lo, hi in zip(lefts[peak], rights[peak])))


def _categories_are(items: str, container) -> bool:
    """Each bar's value (a horizontal bar's width) and error bar, in the order drawn."""
    horizontal = getattr(container, "orientation", "vertical") == "horizontal"
    values = [r.get_width() if horizontal else r.get_height() for r in container]
    told = re.findall(rf": ({_N})(?: \(error bar ({_N}) to ({_N})\))?(?=, |$)", items)
    if len(told) != len(values):
        return False
    errors = None
    if container.errorbar is not None:
        (columns,) = container.errorbar.lines[2] or (None,)
        if columns is not None:
            axis = 0 if horizontal else 1
            errors = [(s[:, axis].min(), s[:, axis].max()) for s in map(np.asarray, columns.get_segments())]
    for k, (value, lo, hi) in enumerate(told):
        if not _close(value, values[k]):
            return False
        if errors is not None and lo and not (_close(lo, errors[k][0]) and _close(hi, errors[k][1])):
            return False
    return True


_STATEMENTS = {
    "line": re.compile(rf"{_AT}line{_LABEL} over x from (?P<x0>{_N}) to (?P<x1>{_N})"
                       rf"(?P<trend>, rising|, falling)?, highest (?P<hi>{_N}) at x = (?P<xhi>{_N}), "
                       rf"lowest (?P<lo>{_N}) at x = (?P<xlo>{_N})"),
    "level": re.compile(rf"{_AT}(?P<orientation>horizontal|vertical) line{_LABEL} at (?P<axis>[xy]) = "
                        rf"(?P<v>{_N})"),
    "point": re.compile(rf"{_AT}point{_LABEL} at \\((?P<x>{_N}), (?P<y>{_N})\\)"),
    "histogram": re.compile(rf"{_AT}(?:step histogram|histogram|bars){_LABEL}: (?P<n>\d+) bars, (?:non-zero from "
                            rf"(?P<a>{_N}) to (?P<b>{_N})|all zero), peak (?P<p>{_N}) at (?P<l>{_N}) "
                            rf"to (?P<r>{_N})"),
    "categories": re.compile(rf"{_AT}bars{_LABEL}: (?P<items>(?!\d+ bars, ).*?)(?=; |\. |\.$)"),
    "scatter": re.compile(rf"{_AT}scatter{_LABEL}: (?P<n>\d+) points, x from (?P<x0>{_N}) to "
                          rf"(?P<x1>{_N}), y from (?P<y0>{_N}) to (?P<y1>{_N})"),
    "errorbars": re.compile(rf"{_AT}error bars{_LABEL}: (?P<n>\d+) points over x from (?P<x0>{_N}) "
                            rf"to (?P<x1>{_N}), y from (?P<y0>{_N}) to (?P<y1>{_N}); the bars reach over "
                            rf"(?P<axis>[xy]) from (?P<lo>{_N}) to (?P<hi>{_N})"),
    "span": re.compile(rf"{_AT}shaded band{_LABEL} over (?P<axis>[xy]) from (?P<a>{_N}) to "
                       rf"(?P<b>{_N})(?!, y from)"),
    "filled": re.compile(rf"{_AT}shaded (?:band|region){_LABEL} over x from (?P<x0>{_N}) to "
                         rf"(?P<x1>{_N}), y from (?P<y0>{_N}) to (?P<y1>{_N})"),
    "rectangle": re.compile(rf"{_AT}rectangle{_LABEL} over x from (?P<x0>{_N}) to (?P<x1>{_N}), "
                            rf"y from (?P<y0>{_N}) to (?P<y1>{_N})"),
    "colour map": re.compile(rf"{_AT}colour map{_LABEL} of (?P<r>\d+) by (?P<c>\d+) cells, values "
                             rf"from (?P<lo>{_N}) to (?P<hi>{_N})"),
}


def _statement_is_true(kind: str, m, ax) -> bool:  # noqa: C901 - one reader per kind of statement
    from matplotlib.collections import PathCollection, PolyCollection
    from matplotlib.container import BarContainer, ErrorbarContainer
    from matplotlib.patches import Rectangle

    label = m["label"]
    if kind == "line":
        parts = _errorbar_artists(ax)
        return any(_line_is(m, a) for a in _labelled([a for a in ax.lines if id(a) not in parts], label))
    if kind in ("level", "point"):
        parts = _errorbar_artists(ax)
        for line in _labelled([a for a in ax.lines if id(a) not in parts], label):
            x = np.asarray(line.get_xdata(), dtype=float).ravel()
            y = np.asarray(line.get_ydata(), dtype=float).ravel()
            ok = np.isfinite(x) & np.isfinite(y)
            x, y = x[ok], y[ok]
            if kind == "point":
                if x.size == 1 and _close(m["x"], x[0]) and _close(m["y"], y[0]):
                    return True
                continue
            along = y if m["orientation"] == "horizontal" else x
            if x.size > 1 and np.ptp(along) == 0 and (m["orientation"] == "horizontal") == (np.ptp(x) > 0) \
                    and _close(m["v"], along[0]):
                return True
        return False
    if kind == "histogram":
        return any(_histogram_is(m, lefts, widths, heights) for artist, lefts, widths, heights in _bar_series(ax)
                   if artist is None and not label or artist is not None and _labelled([artist], label))
    if kind == "categories":
        bars = [c for c in ax.containers if isinstance(c, BarContainer)]
        return any(_categories_are(m["items"], c) for c in _labelled(bars, label))
    if kind == "scatter":
        for c in _labelled([c for c in ax.collections if isinstance(c, PathCollection)], label):
            off = np.asarray(c.get_offsets(), dtype=float).reshape(-1, 2)
            if (len(off) == int(m["n"]) and _close(m["x0"], np.nanmin(off[:, 0])) and _close(m["x1"], np.nanmax(off[:, 0]))
                    and _close(m["y0"], np.nanmin(off[:, 1])) and _close(m["y1"], np.nanmax(off[:, 1]))):
                return True
        return False
    if kind == "errorbars":
        for c in _labelled([c for c in ax.containers if isinstance(c, ErrorbarContainer)], label):
            data_line, _caps, columns = c.lines
            x, y = (_finite(data_line.get_xdata()), _finite(data_line.get_ydata()))
            along = 0 if m["axis"] == "x" else 1
            reach = np.concatenate([np.asarray(s, dtype=float)[:, along] for col in columns
                                    for s in col.get_segments() if len(s)])
            if (x.size == int(m["n"]) and _close(m["x0"], x.min()) and _close(m["x1"], x.max())
                    and _close(m["y0"], y.min()) and _close(m["y1"], y.max())
                    and _close(m["lo"], reach.min()) and _close(m["hi"], reach.max())):
                return True
        return False
    if kind == "span":
        for p in _labelled([p for p in ax.patches if isinstance(p, Rectangle)], label):
            x_data, y_data = p.get_data_transform().contains_branch_seperately(ax.transData)
            if x_data == y_data or ("x" if x_data else "y") != m["axis"]:
                continue
            start, size = (p.get_x(), p.get_width()) if x_data else (p.get_y(), p.get_height())
            if _close(m["a"], start) and _close(m["b"], start + size):
                return True
        return False
    if kind == "filled":
        outlines = [np.concatenate([q.vertices for q in c.get_paths() if len(q.vertices)])
                    for c in _labelled([c for c in ax.collections if isinstance(c, PolyCollection)], label)
                    if any(len(q.vertices) for q in c.get_paths())]
        outlines += [p.get_patch_transform().transform(p.get_path().vertices)
                     for p in _labelled([p for p in ax.patches if not isinstance(p, (Rectangle, StepPatch))], label)]
        for pts in outlines:
            pts = np.asarray(pts, dtype=float)
            xs = _filled_x(pts)
            ys = pts[np.isin(pts[:, 0], xs), 1]
            if (xs.size and _close(m["x0"], xs.min()) and _close(m["x1"], xs.max())
                    and _close(m["y0"], np.nanmin(ys)) and _close(m["y1"], np.nanmax(ys))):
                return True
        return False
    if kind == "rectangle":
        for p in _labelled([p for p in ax.patches if isinstance(p, Rectangle)], label):
            xs = sorted((p.get_x(), p.get_x() + p.get_width()))
            ys = sorted((p.get_y(), p.get_y() + p.get_height()))
            if all(_close(m[k], v) for k, v in zip(("x0", "x1", "y0", "y1"), (*xs, *ys))):
                return True
        return False
    for image in _labelled(list(ax.images), label):  # colour map
        data = np.asarray(image.get_array(), dtype=float)
        if (data.shape[0] == int(m["r"]) and _close(m["lo"], np.nanmin(data))
                and _close(m["hi"], np.nanmax(data))):
            return True
    return False


def statements_not_true(fig, alt: str) -> list[str]:
    """The statements of ``alt`` about a series that no artist of its axes makes true."""
    axes = [ax for ax in fig.get_axes() if ax.get_label() != "<colorbar>"]
    segments = re.split(r"Panel \d+ of \d+: ", alt)[1:] if len(axes) > 1 else [alt]
    assert len(segments) == len(axes), alt
    wrong = [f"a number the figure cannot draw: {w!r}" for w in re.findall(r"\bundefined\b|\binfinity\b", alt)]
    for ax, segment in zip(axes, segments):
        for kind, pattern in _STATEMENTS.items():
            for m in pattern.finditer(segment):
                if not _statement_is_true(kind, m, ax):
                    wrong.append(f"{kind}: {m[0]!r}")
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
        wrong = numbers_outside_the_data(panel.figure, alt, panel.title) + statements_not_true(panel.figure, alt)
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


def test_a_filled_band_spans_where_it_has_height():
    # a band (sloped edges: not a histogram) over a grid wider than the data: zero height outside
    fig = Figure()
    ax = fig.add_subplot()
    x = np.linspace(-22.5, 128, 61)
    ax.fill_between(x, 0.0, np.where((x >= 17) & (x < 90), 1.0, 0.0), label="domain")
    alt = figure_description(fig)
    assert "shaded band 'domain' over x from 17.6 to 87.9, y from 0 to 1" in alt, alt   # grid points 17.6, 87.9
    assert not numbers_outside_the_data(fig, alt) and not statements_not_true(fig, alt), alt


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


# -- each kind of statement, read back: a true one passes, a wrong point or range fails ----------
# (what to draw, a statement the alt text must make, edits that make it false: each must be caught)
STATEMENT_CASES = {
    # 5.125 is told with three digits (5.12), not two; the peak and the lowest point at their x
    "line: highest and lowest point": (
        lambda ax: ax.plot([0, 1, 2, 3, 4], [2, 5.125, 1, 4, 3], label="estimate"),
        "highest 5.12 at x = 1, lowest 1 at x = 2",
        [("at x = 1,", "at x = 2,"), ("lowest 1 at x = 2", "lowest 1 at x = 0"), ("5.12", "5.1")]),
    # drawn in no order; along x it rises
    "line: trend along x": (
        lambda ax: ax.plot([3, 1, 2, 0], [3, 1, 2, 0.5]), ", rising,", [("rising", "falling")]),
    "line: a missing x": (
        lambda ax: ax.plot([0, np.nan, 2, 3], [1, 2, 3, 4]), "line over x from 0 to 3", []),
    "histogram: span and peak bar": (
        lambda ax: ax.stairs([0, 1, 4, 2, 0], [0, 1, 2, 3, 4, 5], label="counts"),
        "histogram 'counts': 5 bars, non-zero from 1 to 4, peak 4 at 2 to 3",
        [("peak 4 at 2 to 3", "peak 4 at 0 to 1"), ("non-zero from 1 to 4", "non-zero from 0 to 5")]),
    # few bins side by side are still a histogram, not categories told bar by bar
    "histogram: few bins": (
        lambda ax: ax.hist([0.5, 1.5, 1.6, 2.5, 2.6, 2.7, 3.5, 4.5, 5.5], bins=6, range=(0, 6)),
        "bars: 6 bars, non-zero from 0 to 6, peak 3 at 2 to 3", []),
    "bars: each value and its own error bar": (
        lambda ax: ax.bar([0, 1, 2], [2, 5, 1], yerr=[0.5, 1, 0.25], label="counts"),
        "0: 2 (error bar 1.5 to 2.5), 1: 5 (error bar 4 to 6), 2: 1 (error bar 0.75 to 1.25)",
        [("(error bar 4 to 6)", "(error bar 1.5 to 2.5)")]),
    "bars: a horizontal bar's value is its width": (
        lambda ax: ax.barh([0, 1], [0.25, 0.5], height=0.8, label="widths"), ": 0.25", [(": 0.25", ": 0.8")]),
    "scatter: count and both ranges": (
        lambda ax: ax.scatter([10, 15, 20], [0.5, 0.25, 1], label="records"),
        "scatter 'records': 3 points, x from 10 to 20, y from 0.25 to 1", [("x from 10", "x from 0.25")]),
    "colour map: smallest and largest value": (
        lambda ax: ax.imshow([[0.0, 1.0], [2.0, 9.0]], label="counts"),
        "colour map 'counts' of 2 by 2 cells, values from 0 to 9", [("from 0 to 9", "from 3 to 9")]),
}


@pytest.mark.parametrize("case", STATEMENT_CASES)
def test_each_kind_of_statement_is_read_back_against_the_drawing(case):
    draw, statement, falsified = STATEMENT_CASES[case]
    fig = Figure()
    draw(fig.add_subplot())
    alt = figure_description(fig)
    assert statement in alt, alt
    assert not statements_not_true(fig, alt), alt
    for old, new in falsified:   # the reader bites: the same statement made false is caught
        assert statements_not_true(fig, alt.replace(old, new)), (old, new, alt)


def test_the_panels_of_a_figure_are_numbered_from_one():
    fig = Figure()
    left, right = fig.subplots(1, 2)
    left.plot([0, 1], [0, 1])
    right.plot([0, 1], [1, 0])
    alt = figure_description(fig)
    assert alt.startswith("Panel 1 of 2: ") and " Panel 2 of 2: " in alt, alt
    assert not statements_not_true(fig, alt), alt
