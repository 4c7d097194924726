"""The base of every interactive panel in the notebooks: controls, a figure, a read-out.

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

The concepts live apart: the layout (controls in one row, figure sized to the screen, fixed
margins) in :mod:`ppdm_edu.widgets._layout`; the static stand-in shown when the kernel is gone
in :mod:`ppdm_edu.widgets._stand_in`; results computed ahead of the slider in
:mod:`ppdm_edu.widgets.precompute`. This module holds the lifecycle: a subclass implements
:meth:`Panel.build_controls`, :meth:`Panel.compute` and :meth:`Panel.draw` (and optionally
:meth:`Panel.summary`); the other hooks make an update cheaper. Algorithms never import this
module.

Speed: a panel may update its last drawing in place (:meth:`Panel.redraw`) instead of building a
new figure; one figure is kept per layout (:meth:`Panel.figure_key`), so that coming back to a
layout is a redraw in place too; and while the kernel is idle its event loop draws the layouts
a panel names ahead (:meth:`Panel.results_ahead`, never under Pyodide). Every picture is the one
a new panel draws at the same values (the tests compare them pixel for pixel).
"""
from __future__ import annotations

import abc
import asyncio
import base64
import html
import io
import time
from collections.abc import Hashable
from typing import Any

import ipywidgets as widgets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from traitlets import Unicode

from ..lecture import is_lecture_mode
from ..plots.alt_text import figure_description
from . import _layout, _stand_in
from ._kept import KeptFigures
from ._layout import (
    choice,
    figure_margins,
    margin_axes,
    measure_tick_labels_once,
    pin_title,
    slider,
    toggle_buttons,
)
from ._names import UNITS, accessible_name
from ._stand_in import KERNEL_GONE_TEXT, LIVE_CLASS, STATIC_CLASS, static_picture, static_readout

__all__ = ["Panel"]
# the helpers every panel module imports from here (defined in the modules above)
_SHARED = (choice, figure_margins, margin_axes, measure_tick_labels_once, pin_title, slider, toggle_buttons,
           KERNEL_GONE_TEXT, LIVE_CLASS, STATIC_CLASS, static_picture, static_readout)


class _NamedImage(widgets.Image):
    """An ``ipywidgets.Image`` whose ``tooltip`` (the figure's description) names the ``<img>``.

    ipywidgets 8's view puts a widget's tooltip into the ``title`` of its element only when the
    model's ``description`` is empty, and reads ``description.length`` to find out: the Image
    model has no description, so a tooltip on a plain Image throws in the browser and the image
    is replaced by an error box. An empty, synced ``description`` makes the tooltip the
    ``<img>``'s title, its accessible name (HTML-AAM: an img without alt is named by its title).
    """

    description = Unicode("").tag(sync=True)


class Panel(KeptFigures, abc.ABC):
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
        # no margin: ipywidgets' 2 px on each side would push a figure narrowed to its output
        # area's width (max-width 100%) 4 px past it
        self.image = _NamedImage(format="png", layout=widgets.Layout(
            width=f"{width_px}px", max_width="100%", height="auto", margin="0"))
        self.message = widgets.HTML()
        self.readout = widgets.HTML(layout=widgets.Layout(max_width=f"{max(width_px, 400)}px"))
        self.result = None
        self.error: Exception | None = None
        self.last_update_seconds: float | None = None
        self._static_handle = None
        self._drawn = False
        self._static_pending: asyncio.TimerHandle | None = None
        self._init_kept_figures()
        _layout.align_labels(self.controls.values(), self.lecture)
        # every control's tooltip says what it means ("θ, probability of a truthful
        # answer"), not just its symbol (ipywidgets puts it on the label as its title)
        for name, control in self.controls.items():
            control.tooltip = accessible_name(type(self).__name__, name, control)
            if control.has_trait("unit"):  # a named slider says its value with its unit
                control.unit = UNITS.get((type(self).__name__, name), control.unit)
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

    # Each subclass names its own controls, compute(self, theta, n): an override may not narrow
    # compute(self, **values), which accepts every keyword. The typing spec reads a signature
    # of exactly (*args: Any, **kwargs: Any) as "any parameters" (Callable[..., Any]), so every
    # subclass's compute is a valid override; update() passes the values by keyword only.
    @abc.abstractmethod
    def compute(self, *args: Any, **values: Any) -> Any:
        """Run the real algorithm for the current control values; return a result object.

        A ``ValueError`` (a setting the algorithm rejects) is shown as a message instead of the
        figure.

        Parameters
        ----------
        *args
            Never given: :meth:`update` passes every value by keyword. With it the signature
            reads "any parameters" to a type checker, so a subclass may name its controls.
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
        return _layout.geometry(self.figure_size(), self.lecture, self.control_rows())

    def control_rows(self) -> int:
        """Rows the controls take: one per slider, three per list box, two others per row.

        Returns
        -------
        int
            Estimated rows (sizes the figure so that the panel fits one screen).
        """
        return _layout.control_rows(self.controls.values())

    def figure_size(self) -> tuple[float, float] | None:
        """``figsize``, enlarged in lecture mode by as much as the style enlarges figures.

        Returns
        -------
        tuple of float or None
            Width and height in inches, or None (no ``figsize``: matplotlib's default).
        """
        return _layout.scaled_figsize(self.figsize)

    @staticmethod
    def slider_layout():
        """The layout of every panel's sliders: :func:`~ppdm_edu.lecture.widget_width` wide.

        Returns
        -------
        ipywidgets.Layout
            A new layout, never wider than the cell.
        """
        return _layout.slider_layout()

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
        drawn = self._show_layout(self.figure_key(result))
        if not (drawn and self.redraw(self.figure, result)):
            # a new Figure, not figure.clear(): clearing walks and unlinks every artist of the
            # last drawing, which costs more (4-60 ms a redraw) than building an empty figure
            self.figure = self._new_figure()
            self.draw(self.figure, result)
            self._drawn = True
        buffer = io.BytesIO()
        # zlib level 1: 5-10 ms less per update than the default 6, the PNG ~10 % larger
        self.figure.savefig(buffer, format="png", pil_kwargs={"compress_level": 1})
        _layout.keep_labels_placed(self.figure)
        # the image's text alternative, from what was just drawn. ipywidgets' Image
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

    # -- the static stand-in (see ppdm_edu.widgets._stand_in) ------------------------------
    def static_html(self) -> str:
        """The static stand-in: a sentence saying the controls need the kernel, the last PNG,
        the settings it was drawn at and the read-out (or the message that replaced them).

        Returns
        -------
        str
            HTML (with the style rule that hides it while the live panel is shown).
        """
        return self._static_bundle()["text/html"]

    def _static_bundle(self) -> dict:
        settings = " \u00b7 ".join(_stand_in.control_setting(c) for c in self.controls.values())
        shown = self.message.value if self.error is not None else self.readout.value
        bundle = _stand_in.stand_in(self.image.value, self.alt_text or self.title, settings, shown,
                                    picture=self.error is None)
        bundle["text/plain"] = f"<{type(self).__name__}: static copy, run the cell to use the controls>"
        return bundle

    def _refresh_static(self) -> None:
        if self._static_pending is not None:
            self._static_pending.cancel()
            self._static_pending = None
        _stand_in.PENDING.discard(self)
        if self._static_handle is not None:
            self._static_handle.update(self._static_bundle(), raw=True)

    def _refresh_static_soon(self) -> None:
        """Refresh the static stand-in :attr:`static_delay` seconds after an update (a later
        update postpones it), or at the end of the cell that made the update, or now without an
        event loop (a script, a test).

        The stand-in is hidden while the live panel is shown: sent with the new picture, its
        ~20-80 kB of HTML (the picture again, in base64) reach the page right behind the
        picture, and re-rendering them (its style rule re-inserted restyles the whole notebook,
        10-20 ms) delays the painting of the picture the student is waiting for.
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
        _stand_in.PENDING.add(self)
        _stand_in.flush_after_cells()

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



def epsilon_text(eps: float) -> str:
    """The privacy level epsilon as a panel's read-out shows it.

    Parameters
    ----------
    eps : float
        Epsilon of the setting (e.g. :func:`ppdm_edu.randomized_response.rr_epsilon` of theta).

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
