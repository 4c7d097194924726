"""How a panel is laid out: controls in one wrapping row with one label width, a figure as wide
in pixels as it is shown and no taller than one screen allows, axes placed with fixed margins
given in font heights (no layout engine: it doubles the redraw time), titles and the axis labels
that cannot move fixed where matplotlib first put them."""
from __future__ import annotations

import weakref

import ipywidgets as widgets

from ..lecture import figure_max_height_px, figure_width_px, widget_width

__all__: list[str] = []

# figure.figsize width of styles/classroom.mplstyle; the projector style's is 11
CLASSROOM_FIGURE_WIDTH = 8.0
# widest lecture-mode figure in inches (figure_width_px / 76 dpi)
LECTURE_MAX_INCHES = 10.5
# mean glyph width / font size of the widgets' sans-serif font, to size the shared label width
_GLYPH = 0.56


def figure_margins(figure, left: float = 4.5, bottom: float = 3.2, top: float = 0.8,
                   right: float = 0.8) -> dict:
    """Fixed subplot margins given in font heights (``left`` etc.), as figure fractions.

    Panels draw without a layout engine (it doubles the redraw time); margins fixed as fractions
    clip the axis labels of a short, wide figure with projector fonts. In font heights they
    hold in both styles and at every figure size.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The panel's figure (its size and dpi).
    left, bottom, top, right : float
        Margins in multiples of the style's font size (``font.size``) in pixels.

    Returns
    -------
    dict
        ``left``, ``right``, ``bottom``, ``top`` for ``subplots_adjust`` / ``gridspec_kw``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> m = figure_margins(Figure(figsize=(8, 3), dpi=100))
    >>> bool(0 < m["left"] < m["right"] < 1 and 0 < m["bottom"] < m["top"] < 1)
    True
    """
    from matplotlib import rcParams

    font = rcParams["font.size"] * figure.dpi / 72.0
    w, h = figure.get_size_inches() * figure.dpi
    return dict(left=left * font / w, right=1.0 - right * font / w,
                bottom=bottom * font / h, top=1.0 - top * font / h)


def widest_label(figure, labels, fontsize) -> float:
    """The width of the widest of ``labels`` at ``fontsize``, in font heights (the unit of
    :func:`figure_margins`), measured by the figure's renderer: a margin that fits the longest
    tick label, whatever the labels are.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The panel's figure, on an Agg canvas (its dpi and renderer).
    labels : iterable of str
        The texts.
    fontsize : float or str
        Their size, as matplotlib takes it ("small", 10, ...).

    Returns
    -------
    float
        Width in multiples of ``font.size``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> figure = Figure(figsize=(4, 3), dpi=100)
    >>> _ = FigureCanvasAgg(figure)
    >>> bool(widest_label(figure, ["a much longer label", "short"], 10) > widest_label(figure, ["short"], 10))
    True
    """
    from matplotlib import rcParams
    from matplotlib.font_manager import FontProperties

    renderer = figure.canvas.get_renderer()
    prop = FontProperties(size=fontsize)
    widest = max(renderer.get_text_width_height_descent(text, prop, ismath=False)[0] for text in labels)
    return widest / renderer.points_to_pixels(rcParams["font.size"])


def margin_axes(figure, **margins):
    """One axes filling ``figure`` inside fixed margins given in font heights.

    Panels draw without a layout engine; :func:`figure_margins` turns the margins into figure
    fractions and the axes takes the rectangle between them.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The panel's figure.
    **margins
        ``left``, ``bottom``, ``top``, ``right`` in font heights (see :func:`figure_margins`).

    Returns
    -------
    matplotlib.axes.Axes
        The new axes.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = margin_axes(Figure(figsize=(8, 3), dpi=100), left=4.0, top=0.6)
    >>> bool(0 < ax.get_position().x0 < 0.2)
    True
    """
    m = figure_margins(figure, **margins)
    return figure.add_axes((m["left"], m["bottom"], m["right"] - m["left"], m["top"] - m["bottom"]))


def pin_title(ax, **kwargs) -> None:
    """Set ``ax``'s title again at ``y = 1.0``, fixed: matplotlib no longer re-places it at each draw.

    Left automatic, the title's height is found at every draw by measuring the tick labels of
    the x axis and the offset text of the y axis (3-7 ms a panel redraw). On axes whose x ticks
    and x label are at the bottom and whose y axis shows no offset text, that search always
    ends at ``y = 1.0``: fixing it there draws the same picture
    (``tests/test_widgets_render_06_08.py`` compares both at many settings).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes whose title (its text) is already set.
    **kwargs
        Text properties given to ``set_title`` (e.g. ``fontsize``), as the title was set.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> _ = ax.set_title("a title")
    >>> pin_title(ax)
    >>> ax.title.get_position()[1], ax.get_title()
    (1.0, 'a title')
    """
    ax.set_title(ax.get_title(), y=1.0, **kwargs)


# figures whose axis labels that cannot move are fixed after their first draw (keep_labels_placed)
_TO_PLACE: weakref.WeakSet = weakref.WeakSet()


def measure_tick_labels_once(figure) -> None:
    """Have ``figure``'s axis labels that cannot move stay, from its first draw on, where
    matplotlib put them.

    At each draw matplotlib lays out an axis' ticks and measures their labels, then places the
    axis label by laying them out and measuring them again. Two kinds of label cannot move
    between two draws of a panel's figure, so once matplotlib has placed them,
    :meth:`Axis.set_label_coords` fixes them there (public API; matplotlib then skips the second
    measurement of that axis):

    * below an x axis, the label's height depends on the tick labels' height only (one line of
      the tick font), which no setting of a panel changes;
    * an empty label (the mechanisms' names on the y axis of a bar chart) draws nothing, wherever
      it is.

    The other y-axis labels stay automatic: their place follows the width of the tick labels,
    which the settings change.

    Call it once the axes exist; the panel fixes the labels after the figure's first draw
    (:func:`keep_labels_placed`).

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A panel's figure.

    Examples
    --------
    >>> from matplotlib.backends.backend_agg import FigureCanvasAgg
    >>> from matplotlib.figure import Figure
    >>> figure = Figure()
    >>> canvas = FigureCanvasAgg(figure)
    >>> ax = figure.subplots()
    >>> _ = ax.set_xlabel("x")
    >>> measure_tick_labels_once(figure)
    >>> figure.canvas.draw()
    >>> placed = ax.xaxis.label.get_position()
    >>> keep_labels_placed(figure)
    >>> _ = ax.set_xticks([0.5], ["a label\\nof two lines"])
    >>> figure.canvas.draw()
    >>> ax.xaxis.label.get_position() == placed
    True
    """
    _TO_PLACE.add(figure)


def _cannot_move(axis) -> bool:
    """Whether ``axis``' label is one :func:`measure_tick_labels_once` fixes."""
    text = axis.label.get_text()
    return not text or (axis.axis_name == "x" and axis.get_label_position() == "bottom")


def keep_labels_placed(figure) -> None:
    """Fix the axis labels that cannot move (:func:`measure_tick_labels_once`) of a figure it
    named where its last draw put them (nothing for other figures, nor twice).

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure just drawn.
    """
    if figure not in _TO_PLACE:
        return
    _TO_PLACE.discard(figure)
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if _cannot_move(axis):
                # the same point in the same coordinates (axes x, display y for an x axis): the
                # same pixels
                axis.set_label_coords(*axis.label.get_position(), transform=axis.label.get_transform())


def slider_layout() -> widgets.Layout:
    """The layout of every panel's sliders: :func:`~ppdm_edu.lecture.widget_width` wide,
    never wider than the cell (a slider wider than the cell pushes its read-out out of sight).

    Returns
    -------
    ipywidgets.Layout
        A new layout.
    """
    return widgets.Layout(width=widget_width(), max_width="100%")


def slider(kind, **options):
    """A slider laid out as every panel's: named for screen readers, updates on release, full
    label, cell-safe width.

    The controls of the panels differ in their range and label only; this sets the rest once:
    the slider is the named one of ``kind`` (:mod:`ppdm_edu.widgets._slider`: the same model, a
    view with an accessible name and value text), ``continuous_update=False`` (the algorithm
    runs when the slider is let go), the label's ``description_width`` "initial" and
    :func:`slider_layout`.

    Parameters
    ----------
    kind : type
        :class:`ipywidgets.IntSlider`, :class:`ipywidgets.FloatSlider` or
        :class:`ipywidgets.FloatLogSlider`.
    **options
        Its arguments (``value``, ``min``, ``max``, ``step``, ``description``,
        ``readout_format``, ``tooltip``, ...); they override the defaults above.

    Returns
    -------
    ipywidgets.ValueWidget
        The new slider.

    Examples
    --------
    >>> s = slider(widgets.IntSlider, value=3, min=0, max=9, description="n")
    >>> s.value, s.continuous_update, s.style.description_width, isinstance(s, widgets.IntSlider)
    (3, False, 'initial', True)
    """
    from ._slider import NAMED

    defaults = {"continuous_update": False, "style": {"description_width": "initial"},
                "layout": slider_layout()}
    return NAMED.get(kind, kind)(**{**defaults, **options})


def toggle_buttons(**options):
    """Toggle buttons as every panel's: a group named for screen readers, each button saying
    whether it is pressed (:class:`~ppdm_edu.widgets._slider.NamedToggleButtons`: the
    :class:`ipywidgets.ToggleButtons` model with that view).

    Parameters
    ----------
    **options
        The arguments of :class:`ipywidgets.ToggleButtons` (``options``, ``value``,
        ``description``, ``style``, ...).

    Returns
    -------
    ipywidgets.ToggleButtons
        The new control.

    Examples
    --------
    >>> t = toggle_buttons(options=["bayes", "em"], value="em", description="method")
    >>> t.value, t.index, isinstance(t, widgets.ToggleButtons)
    ('em', 1, True)
    """
    from ._slider import NamedToggleButtons

    return NamedToggleButtons(**options)


def choice(kind, **options):
    """A drop-down, a multiple selection or a check box named for screen readers: the named
    control of ``kind`` (:mod:`ppdm_edu.widgets._slider`: the same model, a view whose native
    control is named by the control's label and meaning, not by its label alone).

    Parameters
    ----------
    kind : type
        :class:`ipywidgets.Dropdown`, :class:`ipywidgets.SelectMultiple` or
        :class:`ipywidgets.Checkbox`.
    **options
        Its arguments.

    Returns
    -------
    ipywidgets.ValueWidget
        The new control (an instance of ``kind``).

    Examples
    --------
    >>> d = choice(widgets.Dropdown, options=[("Function 1", 1), ("Function 2", 2)], value=2)
    >>> d.value, d.index, isinstance(d, widgets.Dropdown)
    (2, 1, True)
    """
    from ._slider import NAMED_CHOICES

    return NAMED_CHOICES[kind](**options)


def control_rows(controls) -> int:
    """Rows the controls take: one per slider, three per list box, two others per row.

    Parameters
    ----------
    controls : iterable of ipywidgets.Widget
        A panel's controls.

    Returns
    -------
    int
        Estimated rows (sizes the figure so that the panel fits one screen).
    """
    controls = list(controls)
    sliders = sum(isinstance(c, (widgets.IntSlider, widgets.FloatSlider)) for c in controls)
    lists = sum(isinstance(c, widgets.SelectMultiple) for c in controls)
    return sliders + 3 * lists + -(-(len(controls) - sliders - lists) // 2)


def align_labels(controls, lecture: bool) -> None:
    """One label width for every control, so that they line up.

    Parameters
    ----------
    controls : iterable of ipywidgets.Widget
        A panel's controls.
    lecture : bool
        Lecture mode (larger font).
    """
    controls = list(controls)
    font_px = 18 if lecture else 13
    # a check box's description is beside the box, not a label in the column
    labelled = [c for c in controls
                if getattr(c, "description", "") and not isinstance(c, widgets.Checkbox)]
    longest = max((len(c.description) for c in labelled), default=0)
    if not longest:
        return
    width = f"{round(longest * font_px * _GLYPH) + 8}px"
    for control in controls:
        if control in labelled and hasattr(control.style, "description_width"):
            control.style.description_width = width
        if isinstance(control, widgets.ToggleButtons):
            # ipywidgets 8 gives ToggleButtons no inline-hbox class: without it the label
            # sits above the buttons, left-aligned, instead of beside them like the others'
            control.add_class("widget-inline-hbox")
            control.style.button_width = "auto"


def scaled_figsize(figsize) -> tuple[float, float] | None:
    """``figsize``, enlarged in lecture mode by as much as the style enlarges figures.

    Projector fonts are about 1.5x larger; without a larger canvas, titles, legends and axis
    labels of a panel designed for the classroom style collide or are clipped.

    Parameters
    ----------
    figsize : tuple of float or None
        The panel's size in the classroom style.

    Returns
    -------
    tuple of float or None
        Width and height in inches, or None (no ``figsize``: matplotlib's default).
    """
    if figsize is None:
        return None
    from matplotlib import rcParams

    scale = max(1.0, rcParams["figure.figsize"][0] / CLASSROOM_FIGURE_WIDTH)
    return (figsize[0] * scale, figsize[1] * scale)


def geometry(size, lecture: bool, rows: int) -> tuple[tuple[float, float], float]:
    """Figure size (inches) and dpi: as wide in pixels as the image is shown, not too tall.

    Parameters
    ----------
    size : tuple of float or None
        The panel's figure size (:func:`scaled_figsize`); None: matplotlib's rcParams.
    lecture : bool
        Lecture mode (a wide figure is narrowed so that its fonts stay large enough).
    rows : int
        Rows the controls take (:func:`control_rows`).

    Returns
    -------
    size : tuple of float
        Width and height in inches.
    dpi : float
        Dots per inch (so that width x dpi is the shown width in pixels).
    """
    from matplotlib import rcParams

    size = size or tuple(rcParams["figure.figsize"])
    if lecture and size[0] > LECTURE_MAX_INCHES:
        # at least ~76 dpi: a 17 pt projector font stays >= 18 px on screen
        size = (LECTURE_MAX_INCHES, size[1] * LECTURE_MAX_INCHES / size[0])
    dpi = figure_width_px() / size[0]
    height = min(size[1], figure_max_height_px(rows) / dpi)
    return (size[0], height), dpi
