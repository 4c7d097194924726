"""The static stand-in of a panel: what a notebook shows of it when the kernel is gone.

When the kernel is gone (restarted, shut down, or the notebook opened without running it), the
widget cannot be drawn: JupyterLab shows "Error displaying widget: model not found", or nothing.
So a panel displays *two* outputs: first a static copy of its last figure, the control settings
it was drawn at and its read-out, under a sentence saying the controls need the kernel, then the
live widget. A style rule in the static output hides it while the live widget (class
``ppdm-panel``) follows it; once the widget is gone the static copy shows.

The stand-in is one MIME bundle: ``text/html`` for the notebook to show, and the same content
as data under :data:`MIME_TYPE` (the PNG, its alt text, the settings, the read-out) for the
site build and the tests to read, without parsing the HTML.
"""
from __future__ import annotations

import base64
import html
import weakref
from html.parser import HTMLParser

__all__: list[str] = []

#: CSS class of the live panel (the outer VBox) and of its static stand-in
LIVE_CLASS = "ppdm-panel"
STATIC_CLASS = "ppdm-panel-static"
#: the stand-in's own MIME type: its content as data
MIME_TYPE = "application/vnd.ppdm-edu.panel-stand-in+json"
#: what the static stand-in says (shown only when the live widget is not)
KERNEL_GONE_TEXT = ("This panel's kernel is gone (restarted or shut down, or the notebook was "
                    "opened without running it): the controls are not live. Run this cell again "
                    "to bring them back. The last picture it drew:")
# the stand-in's copy of the control settings and the read-out, below its picture
_READOUT_CLASS = "ppdm-panel-static-readout"

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
STYLE = (
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
    # a focus ring a keyboard user sees on every control of the panel (ipywidgets only tints a
    # focused slider handle); #0b57d0 is 6.4:1 on white (WCAG 2.4.7, 1.4.11)
    f".{LIVE_CLASS} :focus-visible {{outline: 3px solid #0b57d0 !important; outline-offset: 2px;}}"
    "</style>"
)


def control_setting(control) -> str:
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


def _readout_html(settings: str, shown: str) -> str:
    return (f'<p style="color:#555">Controls: {html.escape(settings)}</p>'
            f'<div style="line-height:1.35">{shown}</div>')


def stand_in(png: bytes, alt: str, settings: str, shown: str, picture: bool) -> dict:
    """The stand-in's MIME bundle.

    Parameters
    ----------
    png : bytes
        The last picture (empty: none yet).
    alt : str
        Its alt text.
    settings : str
        The control settings it was drawn at, as plain text.
    shown : str
        The read-out (or the message that replaced the figure), HTML.
    picture : bool
        Whether the picture is shown (False while a message replaces it).

    Returns
    -------
    dict
        ``text/html`` (with the style rule that hides it while the live panel is shown) and the
        same content as data under :data:`MIME_TYPE`.
    """
    data = base64.b64encode(png).decode("ascii") if png and picture else ""
    img = (f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}" '
           'style="max-width:100%;height:auto">' if data else "")
    page = (f'{STYLE}<div class="{STATIC_CLASS}">'
            f'<p style="color:#B00020;font-weight:bold">&#9888; {html.escape(KERNEL_GONE_TEXT)}</p>'
            f'{img}<div class="{_READOUT_CLASS}">{_readout_html(settings, shown)}</div></div>')
    # the PNG is kept once, in the page's <img> (a saved notebook would otherwise hold it twice);
    # the data part holds what the page shows as text
    return {"text/html": page,
            MIME_TYPE: {"alt": alt, "settings": settings, "readout": shown}}


class _StandInPage(HTMLParser):
    """What a stand-in's page holds: the ``<img>``'s data and alt, and the read-out ``<div>``'s
    inner HTML, cut from the text as is (the picture of every stand-in; everything of one saved
    before it carried :data:`MIME_TYPE`)."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.png = ""
        self.alt = ""
        self.readout = ""
        self._text = text
        self._line_starts = [0]
        for k, ch in enumerate(text):
            if ch == "\n":
                self._line_starts.append(k + 1)
        self._depth = 0  # open <div>s inside the read-out
        self._start = 0
        self.feed(text)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img" and (attrs.get("src") or "").startswith("data:image/png;base64,") and not self.png:
            self.png = attrs["src"].split(",", 1)[1]
            self.alt = attrs.get("alt") or ""
        if self._depth:
            self._depth += tag == "div"
        elif tag == "div" and attrs.get("class") == _READOUT_CLASS:
            self._depth = 1
            self._start = self._offset() + len(self.get_starttag_text() or "")

    def handle_endtag(self, tag):
        if self._depth and tag == "div":
            self._depth -= 1
            if not self._depth:
                self.readout = self._text[self._start:self._offset()]


def _content(output: dict) -> dict | None:
    data = output.get("data", {})
    text = data.get("text/html", "")
    text = "".join(text) if isinstance(text, list) else text
    if MIME_TYPE in data:
        content = dict(data[MIME_TYPE])
        if "png" not in content:  # kept once, in the page
            content["png"] = _StandInPage(text).png if STATIC_CLASS in text else ""
        return content
    if STATIC_CLASS not in text:
        return None
    parser = _StandInPage(text)
    return {"png": parser.png, "alt": parser.alt, "readout_html": parser.readout}


def static_picture(output: dict) -> tuple[bytes, str] | None:
    """The picture a saved notebook output keeps of a panel, if it is a panel's stand-in.

    The stand-in is what a notebook without a kernel shows of a panel; the site build turns it
    into the page's image and the tests look for that image.

    Parameters
    ----------
    output : dict
        One output of a code cell, as in the notebook's JSON.

    Returns
    -------
    tuple of (bytes, str) or None
        The PNG and its alt text, or None when ``output`` is not a stand-in with a picture.

    Examples
    --------
    >>> static_picture({"output_type": "stream", "text": "hello"}) is None
    True
    """
    content = _content(output)
    if not content or not content.get("png"):
        return None
    return base64.b64decode(content["png"]), content.get("alt", "")


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
    content = _content(output)
    if not content:
        return ""
    if "readout_html" in content:
        return content["readout_html"]
    return _readout_html(content.get("settings", ""), content.get("readout", ""))


# panels whose stand-in waits for its refresh (Panel._refresh_static_soon)
PENDING: weakref.WeakSet = weakref.WeakSet()
_FLUSH_REGISTERED: list = []


def _flush_pending(*_result) -> None:
    for panel in list(PENDING):
        panel._refresh_static()


def flush_after_cells() -> None:
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
    shell.events.register("post_run_cell", _flush_pending)
    _FLUSH_REGISTERED.append(shell)
