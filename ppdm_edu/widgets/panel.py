"""The base of every interactive panel in the notebooks.

A panel wires ipywidgets controls to a pure computation from the package and draws the result
into a matplotlib :class:`~matplotlib.figure.Figure`, rendered to PNG into an
:class:`ipywidgets.Image`. Rendering to PNG ourselves (instead of ``plt.show()`` in an Output
widget) keeps the update synchronous and measurable: setting ``control.value`` runs the whole
update (algorithm + redraw) before it returns, which is what ``benchmarks/`` times, and it works
the same on Binder, in a headless test and in JupyterLab.

A ``ValueError`` from the algorithm (a slider at an extreme, theta = 0.5, ...) is shown as a
message *instead of* the figure and its read-out (a figure left from the previous value, titled
with it, would show a result for a setting that is not on the controls); the next valid value
brings the figure back.

Layout (issue 15 §2): the controls sit in one wrapping row (toggle buttons side by side, sliders
as wide as :func:`~ppdm_edu.lecture.widget_width` but never wider than the cell), every control's
label gets the same width so the controls line up, and the figure is rendered at exactly the
pixel width it is shown at (:func:`~ppdm_edu.lecture.figure_width_px`) and no taller than
:func:`~ppdm_edu.lecture.figure_max_height_px`, so that the whole panel fits one screen (1366x768
normally, 1024x768 in lecture mode) and the PNG is never stretched.

When the kernel is gone (restarted, shut down, or the notebook opened without running it), the
widget cannot be drawn: JupyterLab shows "Error displaying widget: model not found", or nothing.
So a panel displays *two* outputs (:meth:`_ipython_display_`): first a static HTML copy of its
last figure, the control settings it was drawn at and its read-out, under a sentence saying the
controls need the kernel, then the live widget. A style
rule in the static output hides it while the live widget (class ``ppdm-panel``) follows it; once
the widget is gone the static copy shows. It is refreshed after every update (``display_id``), so it
is the *last* picture: at the end of the cell that moved a control, or, for a student's moves,
:attr:`Panel.static_delay` seconds after the last one (sent right behind the picture, its HTML
delayed the painting of the picture the student waits for, issue 31 §5).

Subclasses implement :meth:`build_controls`, :meth:`compute` and :meth:`draw` (and optionally
:meth:`summary`). Algorithms never import this module.

Speed (issues 17 and 31): a panel may update its last drawing in place (:meth:`Panel.redraw`)
instead of building a new figure; one figure is kept per layout (:meth:`Panel.figure_key`, e.g.
per selection of algorithms), so that coming back to a layout is a redraw in place too; and while
the kernel is idle its event loop draws the layouts a panel names ahead
(:meth:`Panel.results_ahead`, never under Pyodide). Results are computed ahead in a thread by the
panels themselves (:class:`~ppdm_edu.widgets.precompute.AheadCache`). Every picture is the one a
new panel draws at the same values (the tests compare them pixel for pixel).
"""
from __future__ import annotations

import abc
import asyncio
import base64
import html
import io
import re
import time
import weakref
from collections import OrderedDict
from collections.abc import Hashable

import ipywidgets as widgets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from traitlets import Unicode

from ..lecture import figure_max_height_px, figure_width_px, is_lecture_mode, widget_width
from ..plots.alt_text import figure_description
from ._names import accessible_name

__all__ = ["Panel"]

# figure.figsize width of styles/classroom.mplstyle; the projector style's is 11
_CLASSROOM_FIGURE_WIDTH = 8.0

#: CSS class of the live panel (the outer VBox) and of its static stand-in
LIVE_CLASS = "ppdm-panel"
STATIC_CLASS = "ppdm-panel-static"
# the stand-in's copy of the control settings and the read-out, below its picture
_STATIC_READOUT_CLASS = "ppdm-panel-static-readout"
#: what the static stand-in says (shown only when the live widget is not)
KERNEL_GONE_TEXT = ("This panel's kernel is gone (restarted or shut down, or the notebook was "
                    "opened without running it): the controls are not live. Run this cell again "
                    "to bring them back. The last picture it drew:")
# the picture inside a stand-in, as Panel.static_html writes it
_STATIC_PICTURE = re.compile(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)" alt="([^"]*)"')
_STATIC_READOUT = re.compile(rf'<div class="{_STATIC_READOUT_CLASS}">(.*)</div></div>\Z', re.S)


def _stand_in_html(output: dict) -> str:
    """The HTML of a saved output if it is a panel's stand-in, else ``""``."""
    text = output.get("data", {}).get("text/html", "")
    text = "".join(text) if isinstance(text, list) else text
    return text if STATIC_CLASS in text else ""


def static_picture(output: dict) -> tuple[bytes, str] | None:
    """The picture a saved notebook output keeps of a panel, if it is a panel's stand-in.

    The stand-in (:meth:`Panel.static_html`) is what a notebook without a kernel shows of a panel;
    the site build turns it into the page's image and the tests look for that image.

    Parameters
    ----------
    output : dict
        One output of a code cell, as in the notebook's JSON (``{"data": {"text/html": ...}}``).

    Returns
    -------
    tuple of (bytes, str) or None
        The PNG and its alt text (:meth:`Panel.describe`), or None when ``output`` is not a
        stand-in with a picture.

    Examples
    --------
    >>> static_picture({"output_type": "stream", "text": "hello"}) is None
    True
    """
    text = _stand_in_html(output)
    if not text:
        return None
    m = _STATIC_PICTURE.search(text)
    if m is None:
        return None
    return base64.b64decode(m[1]), html.unescape(m[2])


def static_readout(output: dict) -> str:
    """The settings and read-out a saved panel stand-in keeps below its picture, as HTML.

    A figure alone does not say where the sliders were, nor the numbers the panel printed: the
    site shows this under the panel's picture (``site/build.py``).

    Parameters
    ----------
    output : dict
        One output of a code cell, as in the notebook's JSON.

    Returns
    -------
    str
        The HTML of the settings line and the read-out, or ``""`` when ``output`` is not a
        stand-in or keeps none.

    Examples
    --------
    >>> static_readout({"output_type": "stream", "text": "hello"})
    ''
    """
    text = _stand_in_html(output)
    if not text:
        return ""
    m = _STATIC_READOUT.search(text)
    return m[1] if m else ""


def _control_setting(control) -> str:
    """``description = value`` of one control as its own read-out shows the value."""
    label = getattr(control, "label", None)  # selection widgets: the option's label(s)
    if label is not None:
        value = ", ".join(label) if isinstance(label, tuple) else str(label)
    elif isinstance(control.value, bool):
        value = "yes" if control.value else "no"
    elif getattr(control, "readout_format", None) and isinstance(control.value, (int, float)):
        value = format(control.value, control.readout_format)
    else:
        value = str(control.value)
    return f"{control.description or 'value'} = {value}"


# Shown only while no live panel follows the static output. :has() is in Chromium >= 105,
# Firefox >= 121, Safari >= 15.4; an older browser shows both (nothing is lost). The second rule
# hides the widget manager's "Error displaying widget: model not found" under the static copy.
# (JupyterLab's sanitizer drops <style> from untrusted outputs: a notebook opened from someone else
# shows both the message and the manager's error; trusted ones, e.g. after a restart, only ours.)
# After a restart ipywidgets keeps the dead views, marked "jupyter-widgets-disconnected"; after a
# shutdown the views stay unmarked, but the notebook's execution indicator says data-status
# "unknown" (no kernel) or "dead". Either way the live view counts as gone and is hidden.
_LIVE = f".{LIVE_CLASS}:not(.jupyter-widgets-disconnected)"
_NO_KERNEL = (".jp-NotebookPanel:has(.jp-Notebook-ExecutionIndicator[data-status='unknown'],"
              ".jp-Notebook-ExecutionIndicator[data-status='dead'])")
_STATIC_STYLE = (
    "<style>"
    f".jp-NotebookPanel:not({_NO_KERNEL}) .jp-OutputArea-child:has(.{STATIC_CLASS})"
    f":has(+ .jp-OutputArea-child {_LIVE}),"
    f".output_area:has(.{STATIC_CLASS}):has(+ .output_area {_LIVE}) {{display: none;}}"
    f".{LIVE_CLASS}.jupyter-widgets-disconnected, {_NO_KERNEL} .{LIVE_CLASS} {{display: none;}}"
    f".jp-OutputArea-child:has(.{STATIC_CLASS}) + .jp-OutputArea-child"
    " > .jp-OutputArea-output:not(:has(.jupyter-widgets, .widget-vbox)) {display: none;}"
    # the widgets' HTML line height is the control height (28 px, 36 px in lecture mode): a
    # read-out of several lines would take a third of the screen
    f".{LIVE_CLASS} .widget-html-content {{line-height: 1.35;}}"
    # issue 26 §3: a focus ring a keyboard user sees on every control of the panel (ipywidgets
    # only tints a focused slider handle); #0b57d0 is 6.4:1 on white (WCAG 2.4.7, 1.4.11)
    f".{LIVE_CLASS} :focus-visible {{outline: 3px solid #0b57d0 !important; outline-offset: 2px;}}"
    "</style>"
)
# widest lecture-mode figure in inches (figure_width_px / 76 dpi)
_LECTURE_MAX_INCHES = 10.5
# mean glyph width / font size of the widgets' sans-serif font, to size the shared label width
_GLYPH = 0.56


# panels whose stand-in waits for its refresh (Panel._refresh_static_soon)
_PENDING_STATIC: weakref.WeakSet = weakref.WeakSet()
_FLUSH_REGISTERED: list = []


def _flush_pending_static(*_result) -> None:
    for panel in list(_PENDING_STATIC):
        panel._refresh_static()


def _flush_static_after_cells() -> None:
    """Once per kernel: refresh every pending stand-in after each cell (IPython's
    ``post_run_cell``; not ``post_execute``, which ``comm`` also fires around every widget
    message), so that a notebook run top to bottom stores current stand-ins."""
    if _FLUSH_REGISTERED:
        return
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipywidgets needs IPython
        return
    shell = get_ipython()
    if shell is None:
        return
    shell.events.register("post_run_cell", _flush_pending_static)
    _FLUSH_REGISTERED.append(shell)


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


def pin_title(ax, **kwargs) -> None:
    """Set ``ax``'s title again at ``y = 1.0``, fixed: matplotlib no longer re-places it at each draw.

    Left automatic, the title's height is found at every draw by measuring the tick labels of
    the x axis and the offset text of the y axis (``Axes._update_title_position``, 3-7 ms a
    panel redraw). On axes whose x ticks and x label are at the bottom and whose y axis shows no
    offset text, that search always ends at ``y = 1.0``: fixing it there draws the same picture
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


def measure_tick_labels_once(figure) -> None:
    """Let every axis of ``figure`` place its label with the tick-label boxes it just measured.

    At each draw, matplotlib's ``Axis.draw`` lays out the ticks and measures their labels, then
    places the axis label by laying out the ticks and measuring the labels a second time, for
    the axes whose labels are aligned with this one (``Figure.align_labels``). Panels align
    none: the second pass finds the same boxes. Here, during a draw, the axis label is placed
    with the boxes of the first pass (the same ones: same picture, about 10 ms less for a
    panel of two axes). Outside a draw (``get_tightbbox``), with aligned labels, or on a
    matplotlib without these internals, matplotlib's own code runs.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A panel's figure, once its axes exist (call again after adding axes).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> figure = Figure()
    >>> ax = figure.subplots()
    >>> measure_tick_labels_once(figure)
    >>> "_get_tick_boxes_siblings" in vars(ax.xaxis)
    True
    """
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            _measure_once(axis)


def _measure_once(axis) -> None:
    cls = type(axis)
    if "_get_tick_boxes_siblings" in vars(axis) or not all(
            hasattr(cls, name) for name in ("_get_ticklabel_bboxes", "_get_tick_boxes_siblings")):
        return
    state: dict = {}

    def draw(renderer, *args, **kwargs):
        state["drawing"] = True
        try:
            return cls.draw(axis, renderer, *args, **kwargs)
        finally:
            state.clear()

    def ticklabel_bboxes(ticks, renderer):
        boxes = cls._get_ticklabel_bboxes(axis, ticks, renderer)
        if state.get("drawing"):
            state["boxes"] = boxes
        return boxes

    def tick_boxes_siblings(renderer):
        boxes = state.pop("boxes", None)
        groups = axis.axes.figure._align_label_groups
        group = groups.get(axis._get_axis_name()) if isinstance(groups, dict) else None
        if boxes is None or group is None or list(group.get_siblings(axis.axes)) != [axis.axes]:
            return cls._get_tick_boxes_siblings(axis, renderer)
        return list(boxes[0]), list(boxes[1])

    axis.draw = draw
    axis._get_ticklabel_bboxes = ticklabel_bboxes
    axis._get_tick_boxes_siblings = tick_boxes_siblings


class _NamedImage(widgets.Image):
    """An ``ipywidgets.Image`` whose ``tooltip`` (the figure's description) names the ``<img>``.

    ipywidgets 8's view puts a widget's tooltip into the ``title`` of its element only when the
    model's ``description`` is empty, and reads ``description.length`` to find out: the Image
    model has no description, so a tooltip on a plain Image throws in the browser and the image
    is replaced by an error box. An empty, synced ``description`` makes the tooltip the
    ``<img>``'s title, its accessible name (HTML-AAM: an img without alt is named by its title).
    """

    description = Unicode("").tag(sync=True)


class Panel(abc.ABC):
    """Controls + figure + message line. Display it by leaving it as the last expression of a cell.

    A subclass builds its controls (:meth:`build_controls`), computes a result from their values
    with the package's algorithms (:meth:`compute`) and draws it (:meth:`draw`, with an HTML
    read-out from :meth:`summary`). Building the panel runs the first update.

    Parameters
    ----------
    **initial
        Initial control values, by control name (the keys of :meth:`build_controls`), e.g.
        ``theta=0.8``; the other controls keep their defaults.

    Raises
    ------
    ValueError
        If a name in ``initial`` is not one of the panel's controls.
    """

    #: shown above the controls
    title: str = ""
    #: figure size in inches (None: matplotlib's rcParams)
    figsize: tuple[float, float] | None = None
    #: figures kept, one per :meth:`figure_key` (the one shown included), to be redrawn in place
    kept_figures: int = 4
    #: seconds after an update before the kernel draws the layouts of :meth:`results_ahead`
    draw_ahead_delay: float = 0.25
    #: times the kernel looks again (every :attr:`draw_ahead_delay` s) while none is computed yet
    draw_ahead_tries: int = 20
    #: seconds after the last update before the hidden static stand-in gets the new picture
    #: (:meth:`_refresh_static_soon`): by then the page has painted the live one, and quick
    #: moves in a row refresh it once, after the last
    static_delay: float = 1.0

    def __init__(self, **initial):
        self.controls: dict[str, widgets.ValueWidget] = self.build_controls()
        for name, value in initial.items():
            if name not in self.controls:
                raise ValueError(f"unknown control {name!r}; controls: {', '.join(self.controls)}")
            self.controls[name].value = value
        # No layout engine: constrained layout re-measures every text and makes savefig draw
        # twice, which doubles the update time; panels place their axes with fixed margins.
        self.lecture = is_lecture_mode()
        size, dpi = self.figure_geometry()
        self._geometry = (size, dpi)
        self.figure = self._new_figure()
        width_px = round(size[0] * dpi)
        # shown at exactly the rendered width (never stretched); narrower only on a narrow window
        self.image = _NamedImage(format="png", layout=widgets.Layout(
            width=f"{width_px}px", max_width="100%", height="auto"))
        self.message = widgets.HTML()
        self.readout = widgets.HTML(layout=widgets.Layout(max_width=f"{max(width_px, 400)}px"))
        self.result = None
        self.error: Exception | None = None
        self.last_update_seconds: float | None = None
        self._static_handle = None
        self._drawn = False
        # the key of the figure shown (figure_key) and the other figures kept, by key
        self._figure_key: Hashable = None
        self._kept: OrderedDict = OrderedDict()
        self._ahead_handle: asyncio.TimerHandle | None = None
        self._static_pending: asyncio.TimerHandle | None = None
        self._ahead_tries = 0
        self._align_labels()
        # issue 26 §2: every control's tooltip says what it means ("θ, probability of a truthful
        # answer"), not just its symbol (ipywidgets puts it on the label as its title)
        for name, control in self.controls.items():
            control.tooltip = accessible_name(type(self).__name__, name, control)
        #: the text alternative of the figure now shown (:meth:`describe` of :attr:`result`)
        self.alt_text = ""
        header = [widgets.HTML(f"<b>{html.escape(self.title)}</b>")] if self.title else []
        controls = widgets.HBox(list(self.controls.values()), layout=widgets.Layout(
            flex_flow="row wrap", align_items="center", width="100%"))
        self.widget = widgets.VBox(header + [controls, self.message, self.image, self.readout],
                                   layout=widgets.Layout(width="100%"))
        self.widget.add_class(LIVE_CLASS)
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.update()

    # -- to implement -------------------------------------------------------------------
    @abc.abstractmethod
    def build_controls(self) -> dict:
        """Return ``{name: widget}``; the names are the keyword arguments of :meth:`compute`."""
        raise NotImplementedError

    @abc.abstractmethod
    def compute(self, **values):
        """Run the real algorithm for the current control values; return a result object.

        A ``ValueError`` (a setting the algorithm rejects) is shown as a message instead of the
        figure.

        Parameters
        ----------
        **values
            The value of every control, by name (:meth:`values`).

        Returns
        -------
        object
            Whatever :meth:`draw` and :meth:`summary` need.
        """
        raise NotImplementedError

    @abc.abstractmethod
    def draw(self, figure: Figure, result) -> None:
        """Draw ``result`` into ``figure`` (a new, empty one at every update).

        Parameters
        ----------
        figure : matplotlib.figure.Figure
            An empty figure without a layout engine, sized by :meth:`figure_geometry`.
        result : object
            What :meth:`compute` returned.
        """
        raise NotImplementedError

    def summary(self, result) -> str:
        """Optional HTML shown under the figure (numbers the slide talks about).

        Parameters
        ----------
        result : object
            What :meth:`compute` returned.

        Returns
        -------
        str
            HTML; empty by default.
        """
        return ""

    def describe(self, result) -> str:
        """The text alternative of the figure drawn for ``result``: words and numbers from the figure.

        The panel's title, then :func:`~ppdm_edu.plots.alt_text.figure_description` of the figure
        :meth:`draw` makes for ``result`` (the live figure when ``result`` is the one shown, else a
        new figure drawn for it). It is the alt text of the live image (its accessible name), of
        the static stand-in and of the site's picture and twins; subclasses may append the
        numbers their read-out gives.

        Parameters
        ----------
        result : object
            What :meth:`compute` returned.

        Returns
        -------
        str
            One paragraph of plain text (no HTML), at least the title.
        """
        if result is self.result and self._drawn:
            figure = self.figure
        else:
            figure = self._new_figure()
            self.draw(figure, result)
        text = figure_description(figure)
        title = self.title.rstrip(".")
        return f"{title}. {text}".strip() if title else text

    def redraw(self, figure: Figure, result) -> bool:
        """Optionally show ``result`` by updating the last drawing of ``figure`` in place.

        Keeping the axes, ticks and legend saves about half of a redraw for a panel whose
        layout does not change with its controls. Return False (the default) to have
        :meth:`draw` start over on a new figure.

        Parameters
        ----------
        figure : matplotlib.figure.Figure
            The figure :meth:`draw` last drew into.
        result : object
            What :meth:`compute` returned.

        Returns
        -------
        bool
            True when the figure now shows ``result``.
        """
        return False

    def figure_key(self, result) -> Hashable:
        """Which of the kept figures can show ``result`` by :meth:`redraw`.

        A panel whose layout changes with a control (the trees panel's bars with the selected
        algorithms, the trade-off panel's mechanisms with the task) cannot redraw in place across
        that change. Keyed by this, the figure drawn for each layout is kept (up to
        :attr:`kept_figures`, least recently shown dropped first): coming back to a layout
        redraws its figure in place instead of building a new one. The default, None for every
        result, keeps one figure.

        Parameters
        ----------
        result : object
            What :meth:`compute` returned.

        Returns
        -------
        hashable
            The same for two results exactly when :meth:`redraw` can turn the figure drawn for
            one into the figure of the other.
        """
        return None

    def results_ahead(self, result) -> list:
        """Results, already computed, whose layout (:meth:`figure_key`) is worth drawing ahead.

        The first figure of a layout costs the most (its axes, ticks and text are built); a
        panel whose layouts are few (the trade-off panel's two tasks) names here the result of
        each other layout, as far as it is computed (never compute here). While the kernel is
        idle, :meth:`draw_ahead` draws each into a kept figure, so that the first move to it is
        a redraw in place. Nothing is drawn ahead under Pyodide, nor without an event loop (a
        script). Default: none.

        Parameters
        ----------
        result : object
            What :meth:`compute` returned for the controls now shown.

        Returns
        -------
        list
            Results of other layouts, most likely next first.
        """
        return []

    def draw_ahead(self) -> bool:
        """Draw the first layout of :meth:`results_ahead` that has no figure yet, and keep it.

        Called by the kernel's event loop :attr:`draw_ahead_delay` seconds after an update
        (the loop runs it between two messages: a move waits at most for one drawing).

        Returns
        -------
        bool
            True when a figure was drawn (then the next one is scheduled; while no result is
            computed yet, the loop looks again, :attr:`draw_ahead_tries` times).
        """
        self._ahead_handle = None
        if self.result is None or self.error is not None or not self._drawn:
            return False
        results = self.results_ahead(self.result)
        if not results and self._ahead_tries < self.draw_ahead_tries:
            self._ahead_tries += 1
            self._schedule_draw_ahead(again=True)
            return False
        for result in results:
            key = self.figure_key(result)
            if key == self._figure_key or key in self._kept:
                continue
            figure = self._new_figure()
            self.draw(figure, result)
            figure.canvas.draw()  # builds the ticks and lays out the text: what a first update pays
            self._kept[key] = figure
            while len(self._kept) > max(self.kept_figures - 1, 0):
                self._kept.popitem(last=False)
            self._schedule_draw_ahead(again=True)
            return True
        return False

    def _schedule_draw_ahead(self, again: bool = False) -> None:
        from .precompute import threads_available

        if not again:
            self._ahead_tries = 0
        if self._ahead_handle is not None:
            self._ahead_handle.cancel()
            self._ahead_handle = None
        if type(self).results_ahead is Panel.results_ahead:  # names no layout: nothing to draw
            return
        if not threads_available():  # Pyodide: nothing ahead, the page's one thread is the student's
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test): nothing drawn ahead
            return
        self._ahead_handle = loop.call_later(self.draw_ahead_delay, self.draw_ahead)

    # -- machinery ------------------------------------------------------------------------
    def _new_figure(self) -> Figure:
        size, dpi = self._geometry
        figure = Figure(figsize=size, dpi=dpi, layout=None)
        FigureCanvasAgg(figure)
        return figure

    def figure_geometry(self) -> tuple[tuple[float, float], float]:
        """Figure size (inches) and dpi: as wide in pixels as the image is shown, not too tall.

        The width in inches comes from :meth:`figure_size` (so font sizes keep their proportion
        to the axes); the dpi makes it :func:`~ppdm_edu.lecture.figure_width_px` pixels wide;
        the height keeps the aspect ratio but never exceeds
        :func:`~ppdm_edu.lecture.figure_max_height_px`, so that controls, figure and read-out
        fit one screen.

        Returns
        -------
        size : tuple of float
            Width and height in inches.
        dpi : float
            Dots per inch (so that width x dpi is the shown width in pixels).
        """
        from matplotlib import rcParams

        size = self.figure_size() or tuple(rcParams["figure.figsize"])
        if self.lecture and size[0] > _LECTURE_MAX_INCHES:
            # at least ~76 dpi: a 17 pt projector font stays >= 18 px on screen
            size = (_LECTURE_MAX_INCHES, size[1] * _LECTURE_MAX_INCHES / size[0])
        width_px = figure_width_px()
        dpi = width_px / size[0]
        height = min(size[1], figure_max_height_px(self.control_rows()) / dpi)
        return (size[0], height), dpi

    def control_rows(self) -> int:
        """Rows the controls take: one per slider, three per list box, two others per row.

        Returns
        -------
        int
            Estimated rows (sizes the figure so that the panel fits one screen).
        """
        sliders = sum(isinstance(c, (widgets.IntSlider, widgets.FloatSlider)) for c in self.controls.values())
        lists = sum(isinstance(c, widgets.SelectMultiple) for c in self.controls.values())
        return sliders + 3 * lists + -(-(len(self.controls) - sliders - lists) // 2)

    def _align_labels(self) -> None:
        """One label width for every control of the panel, so that they line up (issue 15 §2)."""
        font_px = 18 if self.lecture else 13
        # a check box's description is beside the box, not a label in the column
        labelled = [c for c in self.controls.values()
                    if getattr(c, "description", "") and not isinstance(c, widgets.Checkbox)]
        longest = max((len(c.description) for c in labelled), default=0)
        if not longest:
            return
        width = f"{round(longest * font_px * _GLYPH) + 8}px"
        for control in self.controls.values():
            if control in labelled and hasattr(control.style, "description_width"):
                control.style.description_width = width
            if isinstance(control, widgets.ToggleButtons):
                # ipywidgets 8 gives ToggleButtons no inline-hbox class: without it the label
                # sits above the buttons, left-aligned, instead of beside them like the others'
                control.add_class("widget-inline-hbox")
                control.style.button_width = "auto"

    def figure_size(self) -> tuple[float, float] | None:
        """``figsize``, enlarged in lecture mode by as much as the style enlarges figures.

        Projector fonts are about 1.5x larger; without a larger canvas, titles, legends and axis
        labels of a panel designed for the classroom style collide or are clipped.

        Returns
        -------
        tuple of float or None
            Width and height in inches, or None (no ``figsize``: matplotlib's default).
        """
        if self.figsize is None:
            return None
        from matplotlib import rcParams

        scale = max(1.0, rcParams["figure.figsize"][0] / _CLASSROOM_FIGURE_WIDTH)
        return (self.figsize[0] * scale, self.figsize[1] * scale)

    @staticmethod
    def slider_layout():
        """The layout of every panel's sliders: :func:`~ppdm_edu.lecture.widget_width` wide.

        Returns
        -------
        ipywidgets.Layout
            A new layout, never wider than the cell (a slider wider than the cell pushes its
            read-out out of sight: "1" for 100).
        """
        return widgets.Layout(width=widget_width(), max_width="100%")

    def values(self) -> dict:
        """The controls' current values.

        Returns
        -------
        dict
            ``{name: value}``: the keyword arguments of :meth:`compute`.
        """
        return {name: control.value for name, control in self.controls.items()}

    def _on_change(self, change) -> None:
        self.update()

    def update(self) -> None:
        """Recompute and redraw now (also called by every control change)."""
        start = time.perf_counter()
        try:
            result = self.compute(**self.values())
        except ValueError as err:
            self.error = err
            self.message.value = (
                '<div role="alert" style="color:#B00020;font-weight:bold">&#9888; '
                f"{html.escape(str(err))}</div>"
            )
            self.image.layout.display = "none"
            self.readout.layout.display = "none"
            self.last_update_seconds = time.perf_counter() - start
            return
        self.error = None
        self.result = result
        self.message.value = ""
        key = self.figure_key(result)
        drawn = self._drawn
        if drawn and key != self._figure_key:
            # another layout: keep this figure, bring back the one last drawn for that layout
            self._kept[self._figure_key] = self.figure
            kept = self._kept.pop(key, None)
            while len(self._kept) > max(self.kept_figures - 1, 0):
                self._kept.popitem(last=False)
            if kept is not None:
                self.figure = kept
            drawn = kept is not None
        self._figure_key = key
        if not (drawn and self.redraw(self.figure, result)):
            # a new Figure, not figure.clear(): clearing walks and unlinks every artist of the
            # last drawing, which costs more (4-60 ms a redraw) than building an empty figure
            self.figure = self._new_figure()
            self.draw(self.figure, result)
            self._drawn = True
        buffer = io.BytesIO()
        # zlib level 1: 5-10 ms less per update than the default 6, the PNG ~10 % larger
        self.figure.savefig(buffer, format="png", pil_kwargs={"compress_level": 1})
        # issue 26 §1: the image's text alternative, from what was just drawn. ipywidgets' Image
        # has no alt trait; its tooltip becomes the <img>'s title, which is its accessible name
        # (HTML-AAM: an img without alt is named by its title) and changes with every update.
        self.alt_text = self.describe(result)
        # picture and alt text in one comm message (the page lays the panel out once for both)
        with self.image.hold_sync():
            self.image.value = buffer.getvalue()
            self.image.tooltip = self.alt_text
        # a polite live region: a screen reader reads the new numbers after each update
        summary = self.summary(result)
        self.readout.value = (f'<div role="status" aria-live="polite" aria-atomic="true">{summary}</div>'
                              if summary else "")
        self.image.layout.display = None
        self.readout.layout.display = None
        self.last_update_seconds = time.perf_counter() - start
        self._refresh_static_soon()
        self.after_update(result)
        self._schedule_draw_ahead()

    def after_update(self, result) -> None:  # noqa: B027 (a hook: empty on purpose, not abstract)
        """Called after the figure is on its way (e.g. to compute the next slider positions
        ahead, :class:`~ppdm_edu.widgets.precompute.AheadCache`); nothing by default.

        Parameters
        ----------
        result : object
            What :meth:`compute` returned for the values now on the controls.
        """

    # -- the static stand-in ----------------------------------------------------------------
    def static_html(self) -> str:
        """The static stand-in: a sentence saying the controls need the kernel, the last PNG,
        the settings it was drawn at and the read-out (or the message that replaced them).

        Returns
        -------
        str
            HTML (with the style rule that hides it while the live panel is shown).
        """
        picture = ""
        if self.image.value:
            data = base64.b64encode(self.image.value).decode("ascii")
            picture = (f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt_text or self.title)}" '
                       f'style="max-width:100%;height:auto">')
        settings = " &middot; ".join(html.escape(_control_setting(c)) for c in self.controls.values())
        shown = self.message.value if self.error is not None else self.readout.value
        return (f'{_STATIC_STYLE}<div class="{STATIC_CLASS}">'
                f'<p style="color:#B00020;font-weight:bold">&#9888; {html.escape(KERNEL_GONE_TEXT)}</p>'
                f'{"" if self.error is not None else picture}'
                f'<div class="{_STATIC_READOUT_CLASS}"><p style="color:#555">Controls: {settings}</p>'
                f'<div style="line-height:1.35">{shown}</div></div></div>')

    def _static_bundle(self) -> dict:
        return {"text/html": self.static_html(),
                "text/plain": f"<{type(self).__name__}: static copy, run the cell to use the controls>"}

    def _refresh_static(self) -> None:
        if self._static_pending is not None:
            self._static_pending.cancel()
            self._static_pending = None
        _PENDING_STATIC.discard(self)
        if self._static_handle is not None:
            self._static_handle.update(self._static_bundle(), raw=True)

    def _refresh_static_soon(self) -> None:
        """Refresh the static stand-in :attr:`static_delay` seconds after an update (a later
        update postpones it), or at the end of the cell that made the update, or now without an
        event loop (a script, a test).

        The stand-in is hidden while the live panel is shown: sent with the new picture, its
        ~20-80 kB of HTML (the picture again, in base64) reach the page right behind the
        picture, and re-rendering them (its style rule re-inserted restyles the whole notebook,
        10-20 ms) delays the painting of the picture the student is waiting for (issue 31 §5).
        """
        if self._static_handle is None:
            return
        if self._static_pending is not None:
            self._static_pending.cancel()
            self._static_pending = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: now
            self._refresh_static()
            return
        self._static_pending = loop.call_later(self.static_delay, self._refresh_static)
        # a cell that moves a control (a notebook run top to bottom) leaves its stand-in current
        _PENDING_STATIC.add(self)
        _flush_static_after_cells()

    def _ipython_display_(self):
        """Display the static stand-in (with a display id, refreshed by every update), then the
        live widget; see the module docstring."""
        from IPython.display import display

        self._static_handle = display(self._static_bundle(), raw=True, display_id=True)
        display(self.widget)

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The live widget, plus the current figure as a static PNG.

        Used where :meth:`_ipython_display_` is not (a plain ``IPython.display`` of the bundle):
        a viewer without widget state falls back to the PNG.
        """
        bundle = dict(self.widget._repr_mimebundle_(include=include, exclude=exclude) or {})
        if self.image.value:
            bundle["image/png"] = base64.b64encode(self.image.value).decode("ascii")
        bundle["text/plain"] = f"<{type(self).__name__}: run the notebook to use the controls>"
        return bundle


# -- helpers shared by the panels -------------------------------------------------------------
def slider(kind, **options):
    """A slider laid out as every panel's: updates on release, full label, cell-safe width.

    The controls of the panels differ in their range and label only; this sets the rest once:
    ``continuous_update=False`` (the algorithm runs when the slider is let go), the label's
    ``description_width`` "initial" and :meth:`Panel.slider_layout`.

    Parameters
    ----------
    kind : type
        :class:`ipywidgets.IntSlider` or :class:`ipywidgets.FloatSlider`.
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
    >>> s.value, s.continuous_update, s.style.description_width
    (3, False, 'initial')
    """
    defaults = {"continuous_update": False, "style": {"description_width": "initial"},
                "layout": Panel.slider_layout()}
    return kind(**{**defaults, **options})


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


def epsilon_text(eps: float) -> str:
    """The privacy level epsilon as a panel's read-out shows it.

    Parameters
    ----------
    eps : float
        Epsilon of the setting (e.g. :func:`ppdm_edu.randomized_response.epsilon` of theta).

    Returns
    -------
    str
        Two decimals, or "∞ (no privacy)" for an infinite epsilon (theta 0 or 1).

    Examples
    --------
    >>> epsilon_text(0.8473), epsilon_text(float("inf"))
    ('0.85', '∞ (no privacy)')
    """
    return "∞ (no privacy)" if eps == float("inf") else f"{eps:.2f}"
