"""Lecture mode: one switch for projector-friendly figures and widgets.

Every notebook starts with::

    LECTURE_MODE = False  # True on a projector
    from ppdm_edu import lecture_mode
    lecture_mode(LECTURE_MODE)

``True`` applies ``styles/projector.mplstyle`` (the projector ``matplotlibrc`` shipped with the
package: larger fonts, thicker lines and markers, darker axes), ``False`` the default
``styles/classroom.mplstyle``. Both use the colour-blind-safe Okabe & Ito palette in matplotlib
and seaborn and the perceptually uniform, colour-blind-friendly ``cividis`` colour map. In
lecture mode, widget panels built afterwards get wider sliders (:func:`widget_width`) and, inside
a Jupyter kernel, a small style sheet enlarges the widgets' text and labels.

Switch before building figures or panels: a panel reads the mode when it is created.
"""
from __future__ import annotations

from importlib import resources
from typing import Any

# the plots' palette (Okabe & Ito 2008) is the styles' colour cycle. The notebooks' setup sits
# above the plots: it imports them (the palette, the figures' alt text), never the other way.
from .plots.palette import OKABE_ITO

__all__ = ["lecture_mode", "is_lecture_mode", "OKABE_ITO"]

STYLES = ("classroom", "projector")

_STATE = {"lecture": False}


def style_path(name: str) -> str:
    """Path of a matplotlib style shipped with the package.

    Usable with ``matplotlib.style.use`` or ``matplotlib.style.context``, e.g. to draw one
    figure in the projector style without switching the whole session (:func:`lecture_mode`).

    Parameters
    ----------
    name : {"classroom", "projector"}
        ``"classroom"``: the default laptop style; ``"projector"``: larger fonts, thicker lines
        and markers, darker axes.

    Returns
    -------
    str
        Absolute path of ``styles/<name>.mplstyle`` inside the installed package.

    Raises
    ------
    ValueError
        If `name` is not one of the shipped styles.

    Examples
    --------
    >>> style_path("projector").endswith("projector.mplstyle")
    True
    """
    if name not in STYLES:
        raise ValueError(f"unknown style {name!r}; choose from {STYLES}")
    return str(resources.files("ppdm_edu").joinpath("styles").joinpath(f"{name}.mplstyle"))


def lecture_mode(enabled: bool = True) -> None:
    """Switch between the projector style (``True``) and the default classroom style (``False``).

    Resets matplotlib's style first (the backend is left alone), so switching back and forth
    gives the same result every time. Projector style: larger fonts and thicker lines, the
    colour-blind-safe Okabe-Ito palette in matplotlib and seaborn, and wider widget controls
    (see :func:`widget_width`); inside a Jupyter kernel it also displays a small style sheet
    that enlarges the widgets' text (:func:`widget_css`). With ``False`` nothing is displayed.

    Parameters
    ----------
    enabled : bool
        ``True`` on a projector, ``False`` on a laptop.

    Examples
    --------
    >>> from ppdm_edu import lecture_mode
    >>> lecture_mode(True)    # before the figures of a lecture
    >>> lecture_mode(False)   # back to the laptop style
    """
    import matplotlib.style
    import numpy as np
    import seaborn as sns

    if not isinstance(enabled, (bool, np.bool_)):
        raise ValueError(f"enabled must be True or False, got {enabled!r}")
    _STATE["lecture"] = bool(enabled)
    # "default" first: a reset that, unlike rcParamsDefault, keeps the backend (inline in Jupyter)
    matplotlib.style.use(["default", style_path("projector" if enabled else "classroom")])
    sns.set_palette(OKABE_ITO)
    _install_inline_alt()
    if enabled:
        _display_widget_css()


def is_lecture_mode() -> bool:
    """Whether :func:`lecture_mode` was last switched on.

    Returns
    -------
    bool
        ``True`` after ``lecture_mode(True)``, ``False`` after ``lecture_mode(False)`` and before
        any call (the classroom style is the default).

    Examples
    --------
    >>> lecture_mode(False)
    >>> is_lecture_mode()
    False
    """
    return _STATE["lecture"]


def widget_width() -> str:
    """CSS width for slider widgets: wide enough to grab on a projector.

    Panels cap it at the cell's width (``max-width: 100%``) so the read-out stays visible.

    Returns
    -------
    str
        A CSS length: ``"820px"`` in lecture mode, ``"560px"`` otherwise.

    Examples
    --------
    >>> lecture_mode(False)
    >>> widget_width()
    '560px'
    """
    return "820px" if _STATE["lecture"] else "560px"


# Pixel sizes of a panel's figure, measured in JupyterLab 4 (Chromium): the output area is
# about 830 px wide in a 1024 px window with the sidebar hidden, and the notebook shows about
# 640 px of height at 1024x768 (menu, tabs, toolbar, status bar take the rest); at 1366x768 with
# the file browser open the output area is about 880 px wide.
_FIGURE_PX = {False: (760, 330), True: (800, 330)}
# the vertical budget left for the figure: visible notebook (~640 px) minus title, read-out
# (about three lines) and margins; each row of controls takes ~42 px in lecture mode, ~34 px else
_BUDGET = {False: (540, 34), True: (480, 42)}


def figure_width_px() -> int:
    """Width in pixels at which panels render (and show) their figure in the current mode.

    Returns
    -------
    int
        760 on a laptop, 800 in lecture mode.
    """
    return _FIGURE_PX[_STATE["lecture"]][0]


def figure_max_height_px(control_rows: int = 0) -> int:
    """Tallest figure (pixels) a panel draws, so controls + figure + read-out fit one screen.

    Parameters
    ----------
    control_rows : int, default 0
        Rows of controls above the figure (each takes room from the figure).

    Returns
    -------
    int
        Height in pixels, at most 330 and at least 200.

    Examples
    --------
    >>> figure_max_height_px(0) >= figure_max_height_px(6)
    True
    """
    base, per_row = _BUDGET[_STATE["lecture"]]
    return int(max(200, min(_FIGURE_PX[_STATE["lecture"]][1], base - per_row * control_rows)))


def widget_css() -> str:
    """The style sheet lecture mode displays in a notebook: projector-sized prose, code and widgets.

    Uses the CSS variables of JupyterLab (``--jp-content-font-size*``, ``--jp-code-font-size``)
    and of ipywidgets 8 (``--jp-widgets-*``), so it applies to the whole page, including panels
    created before the switch.

    Returns
    -------
    str
        An HTML ``<style>`` element, ready for ``IPython.display.HTML``.

    Examples
    --------
    >>> widget_css().startswith("<style>")
    True
    """
    return (
        "<style>\n"
        ":root {\n"
        "  --jp-content-font-size1: 20px;\n"
        "  --jp-content-font-size2: 1.3em;\n"
        "  --jp-content-font-size3: 1.5em;\n"
        "  --jp-code-font-size: 17px;\n"
        "  --jp-code-line-height: 1.35;\n"
        "  --jp-widgets-font-size: 18px;\n"
        "  --jp-widgets-inline-height: 36px;\n"
        "  --jp-widgets-inline-label-width: 190px;\n"
        "  --jp-widgets-slider-handle-size: 22px;\n"
        "  --jp-widgets-slider-track-thickness: 6px;\n"
        "  --jp-widgets-inline-width: 420px;\n"
        "}\n"
        ".jupyter-widgets .widget-html-content { font-size: 18px; }\n"
        ".jp-RenderedMarkdown, .jp-RenderedHTMLCommon { font-size: 20px; }\n"
        ".jp-Notebook .cm-content, .jp-OutputArea-output pre { font-size: 17px; }\n"
        ".widget-readout { flex-shrink: 0; }\n"
        # projector-sized code wraps instead of running out of a narrow notebook column (a 1024 px
        # window with the file browser open leaves it ~590 px): CodeMirror's own line wrapping
        ".jp-Notebook .cm-content { white-space: break-spaces !important; word-break: break-word;"
        " overflow-wrap: anywhere; flex-shrink: 1 !important; }\n"
        # no gutter left of outputs (a panel's has no "[n]:" anyway; the input keeps its count):
        # its 64 px go to the figure, which a 1024 px window with the file browser open shrinks
        ".jp-OutputArea-child > .jp-OutputArea-prompt { display: none; }\n"
        "</style>"
    )


def _ipython_shell(needs: str):
    """The running IPython shell if it has the attribute ``needs``, else None (scripts, tests)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    return shell if shell is not None and hasattr(shell, needs) else None


def _display_widget_css() -> None:
    """Display :func:`widget_css` when running inside a Jupyter kernel (not in scripts/tests)."""
    if _ipython_shell("kernel") is None:
        return
    from IPython.display import HTML, display

    display(HTML(widget_css()))


# -- alt text for inline figures (WCAG 2.1 SC 1.1.1) ----------------------------------------------
# JupyterLab's image renderer gives an image/png output no alt attribute (jupyterlab#9399), and
# myst-nb takes an image's alt only from cell metadata. So inside a kernel every matplotlib
# Figure is also formatted as text/html, an <img> with the PNG and its description
# (plots.alt_text.figure_description) as alt; JupyterLab shows text/html before image/png. The
# text/plain of the figure becomes the same description (instead of "<Figure size 640x480 with 1
# Axes>"): the site build (site/_a11y.py) reads it as the alt of the image myst-nb writes.
_INLINE: dict[str, Any] = {"cache": {}}  # "cache", "png" (the inline printer), "hooked"


def _figure_png(shell, fig):
    """The inline backend's PNG of ``fig`` (base64 text), computed once for both formatters."""

    cached = _INLINE["cache"].pop(id(fig), None)
    if cached is not None:
        return cached
    printer = _INLINE.get("png")
    return printer(fig) if printer is not None else None


def _install_inline_alt() -> None:
    """Register the text/html and text/plain formatters of matplotlib figures (inside IPython),
    and a pre-execute hook that puts them back when ``%matplotlib inline`` resets the formatters."""
    shell = _ipython_shell("display_formatter")
    if shell is None:
        return
    # Choosing the inline backend (lazily, at the first figure) resets every Figure formatter
    # (IPython's select_figure_formats): choose it now, then register, so that a figure shown
    # with plt.show() inside the cell that first draws one is formatted too.
    import matplotlib
    import matplotlib.pyplot as plt

    plt.switch_backend(matplotlib.get_backend())
    _register_inline_alt(shell)
    if not _INLINE.get("hooked"):
        # pre_execute: after a "%matplotlib inline" of the last cell; post_execute: after the
        # backend was first chosen inside this cell (before the inline backend's flush_figures,
        # which registers later and so runs after this hook)
        shell.events.register("pre_execute", lambda: _register_inline_alt(shell))
        shell.events.register("post_execute", lambda: _register_inline_alt(shell))
        _INLINE["hooked"] = True


def _register_inline_alt(shell) -> None:
    import base64
    import html as html_lib

    from matplotlib.figure import Figure

    from .plots.alt_text import figure_description

    formatters = shell.display_formatter.formatters
    png_formatter = formatters["image/png"]
    try:
        printer = png_formatter.lookup_by_type(Figure)
    except KeyError:
        printer = None
    if printer is not None and not getattr(printer, "_ppdm_alt", False):
        _INLINE["png"] = printer

        def png(fig):
            data = _figure_png(shell, fig)
            if data is None or isinstance(data, tuple):
                return data
            # the output's metadata {"image/png": {"alt": ...}}, as IPython.display.Image(alt=)
            # writes it (ipython#12864; jupyter/enhancement-proposals#120 proposes it as the
            # standard place for an image's alt text)
            return data, {"alt": figure_description(fig)}

        png._ppdm_alt = True  # type: ignore[attr-defined]  # a marker on the function: ours already
        png_formatter.for_type(Figure, png)

    def as_html(fig):
        data = _INLINE["png"](fig) if _INLINE.get("png") else None
        if not data:
            return None
        if isinstance(data, tuple):  # (data, metadata) from a retina printer
            data = data[0]
        if isinstance(data, bytes):
            data = base64.b64encode(data).decode("ascii")
        _INLINE["cache"] = {id(fig): data}  # the image/png formatter runs next: no second render
        alt = html_lib.escape(figure_description(fig), quote=True)
        return f'<img src="data:image/png;base64,{data}" alt="{alt}" style="max-width:100%;height:auto">'

    def as_text(fig, p, cycle):
        p.text(figure_description(fig) or repr(fig))

    formatters["text/html"].for_type(Figure, as_html)
    formatters["text/plain"].for_type(Figure, as_text)
