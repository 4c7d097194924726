"""Text alternatives for figures, generated from what the figure draws (WCAG 2.1 SC 1.1.1).

Every figure of the package reaches a reader as a picture: inline in a notebook, as a panel's
live image, on the course website, as the frames of an animation. A screen-reader user gets
its *alt text* instead, so the alt text must carry what the picture shows: which curves, where
they peak, the ranges, the numbers in the title. Nobody writes it by hand; it is read off the
artists matplotlib holds (line data, bar heights, step-histogram values, bands, scatter points,
the titles and axis labels), so it changes whenever the drawing changes.

A plot function that knows more than its artists say (a TV distance, which curve is the
estimate) adds its own sentence with :func:`set_description`; :func:`figure_description` puts
the figure's sentences, each axes' own sentence and the generated account together.

:func:`figure_description` is the accessor every other layer uses: the widget panels
(``Panel.describe``), :func:`ppdm_edu.lecture.lecture_mode`'s inline-figure formatter and the
animation player.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

import numpy as np

if TYPE_CHECKING:
    from matplotlib.figure import Figure, SubFigure

__all__ = ["figure_description", "axes_description", "set_description", "MAX_SERIES"]

# where a description given by a plot function is kept on the Figure / Axes
_ATTRIBUTE = "_ppdm_description"
#: series (lines, bar groups, bands, ...) described per axes; the rest are counted
MAX_SERIES = 6


def set_description(target, text: str) -> None:
    """Attach a sentence a plot function knows about its figure (or one axes of it).

    Parameters
    ----------
    target : matplotlib.figure.Figure or matplotlib.axes.Axes
        What the sentence is about.
    text : str
        One or two sentences in words and numbers, e.g. ``"The reconstruction is within TV
        0.04 of the original."``; replaces an earlier one on the same target.

    Raises
    ------
    TypeError
        If ``text`` is not a string or ``target`` is neither a Figure nor an Axes.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> set_description(fig, "Nothing drawn yet.")
    >>> figure_description(fig)
    'Nothing drawn yet.'
    """
    from matplotlib.axes import Axes
    from matplotlib.figure import FigureBase

    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if not isinstance(target, (FigureBase, Axes)):
        raise TypeError(f"target must be a matplotlib Figure or Axes, got {type(target).__name__}")
    setattr(target, _ATTRIBUTE, text.strip())


def _num(value) -> str:
    """A number as a sentence says it: 3 significant digits, no trailing zeros."""
    value = float(value)
    if not np.isfinite(value):
        return "infinity" if value > 0 else ("minus infinity" if value < 0 else "undefined")
    if value == 0:
        return "0"
    return f"{value:.3g}".replace("e+0", "e").replace("e-0", "e-")


def _label(artist) -> str:
    label = str(artist.get_label() or "")
    return "" if label.startswith("_") else label


def _named(kind: str, label: str) -> str:
    return f"{kind} '{label}'" if label else kind


def _curve(x, y, label: str) -> str | None:
    """One sentence for a line: its x range, its peak and its lowest point."""
    x = np.asarray(x, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    ok = np.isfinite(x) & np.isfinite(y)
    if not ok.any():
        return None
    x, y = x[ok], y[ok]
    if x.size == 1:
        return f"{_named('point', label)} at ({_num(x[0])}, {_num(y[0])})"
    if np.ptp(x) == 0:
        return f"{_named('vertical line', label)} at x = {_num(x[0])}"
    if np.ptp(y) == 0:
        return f"{_named('horizontal line', label)} at y = {_num(y[0])}"
    top, low = int(np.argmax(y)), int(np.argmin(y))
    trend = ""
    if x.size >= 3:
        slope = np.sign(np.diff(y[np.argsort(x)]))
        if (slope >= 0).all():
            trend = ", rising"
        elif (slope <= 0).all():
            trend = ", falling"
    return (f"{_named('line', label)} over x from {_num(x.min())} to {_num(x.max())}{trend}, "
            f"highest {_num(y[top])} at x = {_num(x[top])}, lowest {_num(y[low])} at x = {_num(x[low])}")


def _rounded_to_zero(values: np.ndarray) -> np.ndarray:
    """``values`` with the float residue of a sum or a transform (8.88e-16 where 0 was meant)
    set to 0: anything below 1e-9 of the largest magnitude is no height a reader should hear."""
    values = np.asarray(values, dtype=float)
    scale = np.abs(values[np.isfinite(values)]).max(initial=0.0)
    return np.where(np.abs(values) <= 1e-9 * scale, 0.0, values)


def _bars(lefts, widths, heights, label: str, kind: str = "bars") -> str | None:
    """One sentence for bars or a histogram: where it spans, where it peaks."""
    lefts, widths, heights = (np.asarray(a, dtype=float).ravel() for a in (lefts, widths, heights))
    ok = np.isfinite(lefts) & np.isfinite(widths) & np.isfinite(heights)
    if not ok.any():
        return None
    lefts, widths, heights = lefts[ok], widths[ok], _rounded_to_zero(heights[ok])
    rights = lefts + widths
    ends = _rounded_to_zero(np.r_[lefts, rights])  # bin edges such as 1.11e-16 where 0 was meant
    lefts, rights = ends[:lefts.size], ends[lefts.size:]
    top = int(np.argmax(heights))
    nonzero = heights > 0
    span = (f"non-zero from {_num(lefts[nonzero].min())} to {_num(rights[nonzero].max())}"
            if nonzero.any() else "all zero")
    return (f"{_named(kind, label)}: {heights.size} bars, {span}, "
            f"peak {_num(heights[top])} at {_num(lefts[top])} to {_num(rights[top])}")


def _filled_extent(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """x and y of a filled outline where it has a height: a fill over zero is not drawn.

    ``fill_between(edges, h, step="post")`` on a grid wider than the data spans the whole grid,
    with zero height where there are no values; a reader is told where the area is, not its grid.
    """
    pts = np.asarray(pts, dtype=float)
    pts = pts[np.isfinite(pts).all(axis=1)] if pts.ndim == 2 else pts[:0]
    if not len(pts):
        return None
    xs, inverse = np.unique(pts[:, 0], return_inverse=True)
    low = np.full(len(xs), np.inf)
    high = np.full(len(xs), -np.inf)
    np.minimum.at(low, inverse, pts[:, 1])
    np.maximum.at(high, inverse, pts[:, 1])
    tall = high > low
    if not tall.any():
        return None
    return xs[tall], np.r_[low[tall], high[tall]]


def _filled(kind: str, label: str, pts) -> str | None:
    extent = _filled_extent(pts)
    if extent is None:
        return None
    x, y = extent
    y = _rounded_to_zero(y)
    return (f"{_named(kind, label)} over x from {_num(x.min())} to {_num(x.max())}, "
            f"y from {_num(y.min())} to {_num(y.max())}")


def _step_bins(pts) -> tuple[np.ndarray, np.ndarray] | None:
    """The bins of a histogram drawn as an outline, or None if ``pts`` is not one.

    ``hist(histtype="step" or "stepfilled")`` and ``fill_between(edges, h, step="post")`` draw a
    histogram as a polygon: horizontal and vertical segments only, each bin's top one horizontal
    segment above a common baseline. Anything else (a curve, a band between two step curves)
    returns None. Returns the bin edges and the heights above the baseline.
    """
    pts = np.asarray(pts, dtype=float)
    pts = pts[np.isfinite(pts).all(axis=1)] if pts.ndim == 2 else pts[:0]
    if len(pts) < 4:
        return None
    step = np.diff(pts, axis=0)
    tol = 1e-9 * np.maximum(np.abs(pts).max(axis=0), 1e-300)
    flat, upright = np.abs(step[:, 1]) <= tol[1], np.abs(step[:, 0]) <= tol[0]
    if not (flat | upright).all():
        return None
    base = pts[:, 1].min()
    left = np.minimum(pts[:-1, 0], pts[1:, 0])
    right = np.maximum(pts[:-1, 0], pts[1:, 0])
    tops = flat & (right > left) & (pts[:-1, 1] > base + tol[1])
    edges = np.unique(pts[:, 0])
    if len(edges) < 3 or tops.sum() < 2:
        return None  # one filled rectangle is a region, not a histogram
    middles = (edges[:-1] + edges[1:]) / 2
    covers = (left[tops][:, None] < middles) & (middles < right[tops][:, None])
    if (covers.sum(axis=0) > 1).any():
        return None  # two tops over one bin: not one histogram
    heights = np.where(covers, pts[:-1, 1][tops][:, None] - base, 0.0).sum(axis=0)
    return edges, heights


def _histogram_outline(pts, label: str, filled: bool) -> str | None:
    """A step outline told as what it is: a histogram (filled) or a step histogram (a line)."""
    bins = _step_bins(pts)
    if bins is None:
        return None
    edges, heights = bins
    return _bars(edges[:-1], np.diff(edges), heights, label, "histogram" if filled else "step histogram")


def _error_ranges(container) -> list[tuple[float, float]]:
    """(low, high) of each error bar of an ``ErrorbarContainer``, in the order drawn."""
    _data_line, _caps, columns = container.lines
    out: list[tuple[float, float]] = []
    for column in columns:
        for seg in column.get_segments():
            seg = np.asarray(seg, dtype=float)
            if seg.ndim != 2 or len(seg) < 2:
                continue
            # a bar is a segment along one axis: its ends on that axis are the range
            along = 0 if np.ptp(seg[:, 0]) >= np.ptp(seg[:, 1]) else 1
            out.append((float(seg[:, along].min()), float(seg[:, along].max())))
    return out


def _errorbars(container, label: str) -> str | None:
    """One sentence for ``errorbar``: where the points are and how far their bars reach."""
    data_line, _caps, _columns = container.lines
    ranges = _error_ranges(container)
    if data_line is None or not ranges:
        return None
    x = np.asarray(data_line.get_xdata(), dtype=float)
    y = np.asarray(data_line.get_ydata(), dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    if not ok.any():
        return None
    x, y = x[ok], y[ok]
    low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
    axis = "y" if container.has_yerr else "x"
    return (f"{_named('error bars', label)}: {x.size} points over x from {_num(x.min())} to "
            f"{_num(x.max())}, y from {_num(y.min())} to {_num(y.max())}; the bars reach over "
            f"{axis} from {_num(low)} to {_num(high)}")


def _tick_names(axis) -> dict[float, str]:
    try:
        return {round(float(t), 6): lab.get_text() for t, lab in
                zip(axis.get_ticklocs(), axis.get_ticklabels()) if lab.get_text()}
    except (TypeError, ValueError):  # pragma: no cover - exotic axes
        return {}


def _categories(ax, rects, label: str, horizontal: bool, errors=None) -> str | None:
    """A few bars one by one: each bar's category (its tick label, else its centre), its value
    and, when it has one, the range of its error bar."""
    names = _tick_names(ax.yaxis if horizontal else ax.xaxis)
    items = []
    if errors is not None and len(errors) != len(rects):
        errors = None
    for k, r in enumerate(rects):
        centre = r.get_y() + r.get_height() / 2 if horizontal else r.get_x() + r.get_width() / 2
        value = r.get_width() if horizontal else r.get_height()
        if not (np.isfinite(centre) and np.isfinite(value)):
            continue
        name = " ".join(names.get(round(float(centre), 6), "").split())
        try:  # a numeric tick label says no more than the centre itself
            float(name.replace("\u2212", "-"))
            name = ""
        except ValueError:
            pass
        name = name or _num(centre)
        bar = f" (error bar {_num(errors[k][0])} to {_num(errors[k][1])})" if errors is not None else ""
        items.append(f"{name}: {_num(value)}{bar}")
    if not items:
        return None
    if len(items) > 12:
        return None
    return f"{_named('bars', label)}: " + ", ".join(items)


def _errorbar_parts(ax) -> set[int]:
    """ids of the artists that draw error bars (data line, caps, bar columns): described with
    their bars or as error bars, never as curves of their own."""
    from matplotlib.container import ErrorbarContainer

    parts: set[int] = set()
    for container in ax.containers:
        if isinstance(container, ErrorbarContainer):
            data_line, caps, columns = container.lines
            parts.update(id(a) for a in (data_line, *caps, *columns) if a is not None)
    return parts


def _bar_container(ax, container, rects) -> str | None:
    """One ``bar``/``hist`` container: a few categories one by one, else (side by side without
    gaps, as ``ax.hist`` draws) a histogram by its span and peak."""
    lefts = np.array([p.get_x() for p in rects])
    rights = lefts + np.array([p.get_width() for p in rects])
    contiguous = len(rects) > 3 and np.allclose(lefts[1:], rights[:-1])
    horizontal = getattr(container, "orientation", "vertical") == "horizontal"
    errorbar = getattr(container, "errorbar", None)
    errors = _error_ranges(errorbar) if errorbar is not None else None
    if horizontal or (len(rects) <= 12 and not contiguous):
        text = _categories(ax, rects, _label(container), horizontal, errors)
        if text:
            return text
    return _bars([p.get_x() for p in rects], [p.get_width() for p in rects],
                 [p.get_height() for p in rects], _label(container),
                 "histogram" if len(rects) > 8 else "bars")


def _containers(ax) -> tuple[list[str | None], set[int]]:
    """Bar containers (with their error bars) and error bar containers, in the order drawn; and
    the ids of the patches they hold (not described again as loose patches)."""
    from matplotlib.container import BarContainer, ErrorbarContainer
    from matplotlib.patches import Rectangle

    # the error bars of ``bar(..., yerr=...)`` are told with their bars, not on their own
    with_bars = {id(c.errorbar) for c in ax.containers
                 if isinstance(c, BarContainer) and c.errorbar is not None}
    texts: list[str | None] = []
    held: set[int] = set()
    for container in ax.containers:
        if isinstance(container, ErrorbarContainer):
            if id(container) not in with_bars:
                texts.append(_errorbars(container, _label(container)))
            continue
        rects = [p for p in container if isinstance(p, Rectangle)]
        if rects:
            held.update(id(p) for p in rects)
            texts.append(_bar_container(ax, container, rects))
    return texts, held


def _outline(patch) -> str | None:
    """A loose patch that is not a rectangle: a histogram (``stairs``, ``hist(histtype="step"
    or "stepfilled")``: filled, or a step histogram when only its outline is drawn), or a
    labelled outline (``fill``: a shaded region, or an outline when unfilled); an unlabelled
    outline is left out."""
    from matplotlib.patches import StepPatch

    label = _label(patch)
    filled = bool(patch.get_fill())
    if isinstance(patch, StepPatch):
        values, edges, _baseline = patch.get_data()
        edges = np.asarray(edges, dtype=float)
        return _bars(edges[:-1], np.diff(edges), values, label, "histogram" if filled else "step histogram")
    if not label:
        return None
    pts = patch.get_path().transformed(patch.get_patch_transform()).vertices
    return (_histogram_outline(pts, label, filled)
            or _filled("shaded region" if filled else "outline", label, pts))


def _span(patch, axis: str) -> str:
    """``axvspan`` (axis "x") / ``axhspan`` (axis "y"): where the band lies along that axis."""
    start, size = (patch.get_x(), patch.get_width()) if axis == "x" else (patch.get_y(), patch.get_height())
    return f"{_named('shaded band', _label(patch))} over {axis} from {_num(start)} to {_num(start + size)}"


def _rectangle(patch) -> str:
    """A labelled rectangle in data coordinates: its x and y ranges (a negative width or height
    draws it the other way)."""
    x0, x1 = patch.get_x(), patch.get_x() + patch.get_width()
    y0, y1 = patch.get_y(), patch.get_y() + patch.get_height()
    return (f"{_named('rectangle', _label(patch))} over x from {_num(min(x0, x1))} to "
            f"{_num(max(x0, x1))}, y from {_num(min(y0, y1))} to {_num(max(y0, y1))}")


def _rectangles(ax, rects) -> list[str | None]:
    """Loose rectangles: spans first, then labelled rectangles one by one, then the unlabelled
    ones (two or more) together as bars. A rectangle in axes coordinates is frame, not data."""
    spans: list[str | None] = []
    in_data = []
    for patch in rects:
        # axvspan / axhspan: a rectangle in blended coordinates, data along one axis only
        x_data, y_data = patch.get_data_transform().contains_branch_seperately(ax.transData)
        if x_data and y_data:
            in_data.append(patch)
        elif x_data or y_data:
            spans.append(_span(patch, "x" if x_data else "y"))
    labelled = [_rectangle(p) for p in in_data if _label(p)]
    unlabelled = [p for p in in_data if not _label(p)]
    together = []
    if len(unlabelled) > 1:
        together.append(_bars([p.get_x() for p in unlabelled], [p.get_width() for p in unlabelled],
                              [p.get_height() for p in unlabelled], "", "bars"))
    return spans + labelled + together


def _patches(ax) -> list[str]:
    """The containers in the order drawn (``bar``/``hist`` with their error bars, ``errorbar``),
    then the loose patches: step histograms (``stairs``) and filled outlines, spans, rectangles.
    A series with nothing to say (no finite values) is left out."""
    from matplotlib.patches import Rectangle

    texts, held = _containers(ax)
    loose = [p for p in ax.patches if id(p) not in held]
    texts += [_outline(p) for p in loose if not isinstance(p, Rectangle)]
    texts += _rectangles(ax, [p for p in loose if isinstance(p, Rectangle)])
    return [t for t in texts if t]


def _collections(ax) -> list[str]:
    """Scatter points, bands (``fill_between``) and segment collections (error bars)."""
    from matplotlib.collections import LineCollection, PathCollection, PolyCollection

    out = []
    parts = _errorbar_parts(ax)
    for coll in ax.collections:
        if id(coll) in parts:
            continue
        label = _label(coll)
        if isinstance(coll, PathCollection):
            offsets = np.asarray(coll.get_offsets(), dtype=float)
            if offsets.ndim != 2 or not len(offsets):
                continue
            x, y = offsets[:, 0], offsets[:, 1]
            out.append(f"{_named('scatter', label)}: {len(offsets)} points, x from {_num(np.nanmin(x))} "
                       f"to {_num(np.nanmax(x))}, y from {_num(np.nanmin(y))} to {_num(np.nanmax(y))}")
        elif isinstance(coll, PolyCollection):
            verts = [np.asarray(p.vertices, dtype=float) for p in coll.get_paths() if len(p)]
            if not verts:
                continue
            # fill_between(..., step=...) of counts over a baseline is a histogram, not a band
            text = (_histogram_outline(verts[0], label, filled=True) if len(verts) == 1 else None) \
                or _filled("shaded band", label, np.concatenate(verts))
            if text:
                out.append(text)
        elif isinstance(coll, LineCollection) and label:
            out.append(f"{_named('segments', label)}: {len(coll.get_segments())}")
    return out


def _images(ax) -> list[str]:
    out = []
    for image in ax.images:
        data = np.asarray(image.get_array(), dtype=float)
        if data.size:
            out.append(f"{_named('colour map', _label(image))} of {data.shape[0]} by "
                       f"{data.shape[1] if data.ndim > 1 else 1} cells, values from "
                       f"{_num(np.nanmin(data))} to {_num(np.nanmax(data))}")
    return out


def _lines(ax) -> list[str]:
    """The curves (``plot``), without the lines that draw error bars."""
    parts_of_errorbars = _errorbar_parts(ax)
    texts = (_curve(line.get_xdata(), line.get_ydata(), _label(line))
             for line in ax.lines if id(line) not in parts_of_errorbars)
    return [t for t in texts if t]


def _one_line_each(text_artists) -> list[str]:
    """The non-blank texts of matplotlib Text artists, each on one line (runs of whitespace as
    one space)."""
    return [" ".join(t.get_text().split()) for t in text_artists if t.get_text().strip()]


def _axis_names(ax) -> list[str]:
    """The axis names only: the limits are where matplotlib put the frame, not data; the
    series give the ranges of what is drawn."""
    return [f"{name} axis: {label}." for name, label in (("x", ax.get_xlabel()), ("y", ax.get_ylabel()))
            if label]


def _series_sentences(series: list[str]) -> list[str]:
    """The first ``MAX_SERIES`` series in one sentence; the rest counted, with their labels."""
    out = []
    shown = series[:MAX_SERIES]
    if shown:
        out.append("; ".join(shown) + ".")
    rest = series[MAX_SERIES:]
    if rest:
        names = [m.group(1) for m in (re.search(r"'([^']*)'", s) for s in rest) if m]
        out.append(f"{len(rest)} more series" + (": " + ", ".join(f"'{n}'" for n in names) if names else "")
                   + ".")
    return out


def axes_description(ax) -> str:
    """A description of one axes: its own sentence (if a plot function set one), then its title,
    axes and every series it draws, with numbers read from the artists.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        A drawn axes.

    Returns
    -------
    str
        One or more sentences; ``""`` for an axes that is switched off and draws nothing.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> _ = ax.plot([0, 1, 2], [1, 3, 2], label="estimate")
    >>> _ = ax.set(title="Density", xlabel="age")
    >>> axes_description(ax)
    "Density. x axis: age. line 'estimate' over x from 0 to 2, highest 3 at x = 1, lowest 1 at x = 0."
    """
    own = getattr(ax, _ATTRIBUTE, "")
    title = " ".join(t for t in (ax.get_title("left"), ax.get_title(), ax.get_title("right")) if t)
    series = _lines(ax) + _patches(ax) + _collections(ax) + _images(ax)
    texts = _one_line_each(t for t in ax.texts if t.get_visible())
    legend = ax.get_legend()
    keys = _one_line_each(legend.get_texts()) if legend is not None else []
    if not (title or series or texts or own or keys) and not ax.axison:
        return ""
    parts = [own] if own else []
    if title:
        parts.append(title.rstrip(".") + ".")
    if ax.axison:
        parts += _axis_names(ax)
    parts += _series_sentences(series)
    # legend keys the sentences above do not already name
    described = " ".join(parts)
    missing = [k for k in keys if f"'{k}'" not in described]
    if missing:
        parts.append("Legend: " + "; ".join(missing) + ".")
    if texts:
        parts.append("Text: " + "; ".join(texts) + ".")
    return " ".join(parts)


def figure_description(fig) -> str:
    """The alt text of a figure: the figure's own sentence, its title, then every axes.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        A drawn figure (a panel's, a plot function's, an animation's current frame).

    Returns
    -------
    str
        Sentences in words and numbers, generated from the artists; panels of more than one
        axes are numbered ("Panel 1 of 2: ...").

    Raises
    ------
    TypeError
        If ``fig`` is not a matplotlib Figure.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> ax = fig.add_subplot()
    >>> _ = ax.bar([0, 1, 2], [2, 5, 1], width=1.0, label="counts")
    >>> figure_description(fig)
    "bars 'counts': 0: 2, 1: 5, 2: 1."
    """
    from matplotlib.figure import FigureBase

    if not isinstance(fig, FigureBase):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    parts = []
    own = getattr(fig, _ATTRIBUTE, "")
    if own:
        parts.append(own)
    suptitle = fig.get_suptitle().strip()
    if suptitle:
        parts.append(suptitle.rstrip(".") + ".")
    # colour bars are axes too; they are described by the colour map they belong to
    # a FigureBase is a Figure or a SubFigure; both have get_axes (FigureBase's stub does not)
    axes = [ax for ax in cast("Figure | SubFigure", fig).get_axes() if ax.get_label() != "<colorbar>"]
    described = [d for d in (axes_description(ax) for ax in axes) if d]
    if len(described) == 1:
        parts.append(described[0])
    else:
        parts += [f"Panel {k} of {len(described)}: {d}" for k, d in enumerate(described, 1)]
    return " ".join(parts)
