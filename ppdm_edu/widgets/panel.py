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

Subclasses implement :meth:`build_controls`, :meth:`compute` and :meth:`draw` (and optionally
:meth:`summary`). Algorithms never import this module.
"""
from __future__ import annotations

import base64
import html
import io
import time

import ipywidgets as widgets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..lecture import widget_width

__all__ = ["Panel"]

# figure.figsize width of styles/classroom.mplstyle; the projector style's is 11
_CLASSROOM_FIGURE_WIDTH = 8.0


class Panel:
    """Controls + figure + message line. Display it by leaving it as the last expression of a cell."""

    #: shown above the controls
    title: str = ""
    #: figure size in inches (None: matplotlib's rcParams)
    figsize: tuple[float, float] | None = None

    def __init__(self, **initial):
        self.controls: dict[str, widgets.ValueWidget] = self.build_controls()
        for name, value in initial.items():
            if name not in self.controls:
                raise ValueError(f"unknown control {name!r}; controls: {', '.join(self.controls)}")
            self.controls[name].value = value
        # No layout engine: constrained layout re-measures every text and makes savefig draw
        # twice, which doubles the update time; panels place their axes with fixed margins.
        self.figure = Figure(figsize=self.figure_size(), layout=None)
        FigureCanvasAgg(self.figure)
        self.image = widgets.Image(format="png")
        self.message = widgets.HTML()
        self.readout = widgets.HTML()
        self.result = None
        self.error: Exception | None = None
        self.last_update_seconds: float | None = None
        header = [widgets.HTML(f"<b>{html.escape(self.title)}</b>")] if self.title else []
        self.widget = widgets.VBox(
            header + [widgets.VBox(list(self.controls.values())), self.message, self.image, self.readout]
        )
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.update()

    # -- to implement -------------------------------------------------------------------
    def build_controls(self) -> dict:
        """Return ``{name: widget}``; the names are the keyword arguments of :meth:`compute`."""
        raise NotImplementedError

    def compute(self, **values):
        """Run the real algorithm for the current control values; return a result object."""
        raise NotImplementedError

    def draw(self, figure: Figure, result) -> None:
        """Draw ``result`` into the (cleared) ``figure``."""
        raise NotImplementedError

    def summary(self, result) -> str:
        """Optional HTML shown under the figure (numbers the slide talks about)."""
        return ""

    # -- machinery ------------------------------------------------------------------------
    def figure_size(self) -> tuple[float, float] | None:
        """``figsize``, enlarged in lecture mode by as much as the style enlarges figures.

        Projector fonts are about 1.5x larger; without a larger canvas, titles, legends and axis
        labels of a panel designed for the classroom style collide or are clipped.
        """
        if self.figsize is None:
            return None
        from matplotlib import rcParams

        scale = max(1.0, rcParams["figure.figsize"][0] / _CLASSROOM_FIGURE_WIDTH)
        return (self.figsize[0] * scale, self.figsize[1] * scale)

    @staticmethod
    def slider_layout():
        return widgets.Layout(width=widget_width())

    def values(self) -> dict:
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
                '<div style="color:#B00020;font-weight:bold">&#9888; '
                f"{html.escape(str(err))}</div>"
            )
            self.image.layout.display = "none"
            self.readout.layout.display = "none"
            self.last_update_seconds = time.perf_counter() - start
            return
        self.error = None
        self.result = result
        self.message.value = ""
        self.figure.clear()
        self.draw(self.figure, result)
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png")
        self.image.value = buffer.getvalue()
        self.readout.value = self.summary(result)
        self.image.layout.display = None
        self.readout.layout.display = None
        self.last_update_seconds = time.perf_counter() - start

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The live widget, plus the current figure as a static PNG.

        JupyterLab renders the widget; a viewer without a kernel or widget state (GitHub, a
        notebook read without running it) falls back to the PNG, so the committed notebooks
        still show every panel's figure.
        """
        bundle = dict(self.widget._repr_mimebundle_(include=include, exclude=exclude) or {})
        if self.image.value:
            bundle["image/png"] = base64.b64encode(self.image.value).decode("ascii")
        bundle["text/plain"] = f"<{type(self).__name__}: run the notebook to use the controls>"
        return bundle
