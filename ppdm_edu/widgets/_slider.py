"""The panels' sliders: ipywidgets' sliders with a view a screen reader can name (WCAG 4.1.2).

ipywidgets draws its sliders with noUiSlider, whose handle (``role="slider"``) gets no accessible
name: a screen reader says "slider, 0.5" on every panel (jupyter-widgets/ipywidgets#2650). These
classes keep the ipywidgets slider models' traits and checks (``value``, ``min``, ``max``, ``step``,
``base``, ``description``, ``readout``, ``readout_format``, ``continuous_update``, ``style``,
``layout``), so code that reads or observes a slider, the panels and the site's twins, sees an
``IntSlider``, ``FloatSlider`` or ``FloatLogSlider``; only the view in the browser is new, an
`anywidget <https://anywidget.dev>`_ module (``_slider.js``): a native ``<input type="range">``
named by ``aria-label`` (the control's tooltip: its label and what it means,
:mod:`ppdm_edu.widgets._names`), with ``aria-valuetext`` (the read-out and :attr:`unit`), and the
browser's own keyboard handling. anywidget's front end ships as a JupyterLab extension with the
package (JupyterLab, and the JupyterLite build, which bundles every installed extension).
"""
from __future__ import annotations

from pathlib import Path

import anywidget
import ipywidgets as widgets
from traitlets import Unicode

__all__: list[str] = []

_HERE = Path(__file__).resolve().parent
# the view's source as text (not a path: anywidget would watch a path for changes in a thread)
_ESM = (_HERE / "_slider.js").read_text(encoding="utf-8")
_CSS = (_HERE / "_slider.css").read_text(encoding="utf-8")
# the read-out formats the view formats as Python does (``_slider.js``: ``format``)
_FORMATS = ("d", ".0f", ".1f", ".2f", ".3f", ".4f", ".1g", ".2g", ".3g", ".4g")


class _Named(anywidget.AnyWidget):
    """What a named control adds to its ipywidgets model: an anywidget view and the label width."""

    # the label column's width (ipywidgets' style's description_width), copied here because the
    # view draws its own label (ipywidgets' style view may run before the label exists)
    _label_width = Unicode("").tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._follow_style({"new": self.style})
        self.observe(self._follow_style, names="style")

    def _follow_style(self, change) -> None:
        change["new"].observe(self._copy_width, names="description_width")
        self._label_width = change["new"].description_width or ""

    def _copy_width(self, change) -> None:
        self._label_width = change["new"] or ""


class _NamedSlider(_Named):
    """What the three sliders add to their ipywidgets model: the view, a unit, the label width."""

    _esm = _ESM
    _css = _CSS
    #: the unit said after the value ("% of the range", "records"); empty for a pure number
    unit = Unicode("").tag(sync=True)
    _kind = Unicode("float").tag(sync=True)

    def __init__(self, **kwargs):
        fmt = kwargs.get("readout_format")
        if fmt is not None and fmt not in _FORMATS:
            raise ValueError(f"readout_format={fmt!r} is not one the slider's view formats; "
                             f"use one of {', '.join(_FORMATS)}")
        super().__init__(**kwargs)

    def value_text(self) -> str:
        """The value as the slider says it: its read-out, then :attr:`unit` (``aria-valuetext``).

        Returns
        -------
        str
            E.g. ``"100 % of the range"`` or ``"0.70"``.
        """
        shown = format(self.value, self.readout_format)
        return f"{shown} {self.unit}" if self.unit else shown


class NamedIntSlider(_NamedSlider, widgets.IntSlider):
    """An :class:`ipywidgets.IntSlider` whose view has an accessible name and value text."""

    _kind = Unicode("int").tag(sync=True)


class NamedFloatSlider(_NamedSlider, widgets.FloatSlider):
    """An :class:`ipywidgets.FloatSlider` whose view has an accessible name and value text."""

    _kind = Unicode("float").tag(sync=True)


class NamedFloatLogSlider(_NamedSlider, widgets.FloatLogSlider):
    """An :class:`ipywidgets.FloatLogSlider` (it steps the exponent) whose view has an
    accessible name and value text."""

    _kind = Unicode("log").tag(sync=True)


class NamedToggleButtons(_Named, widgets.ToggleButtons):
    """An :class:`ipywidgets.ToggleButtons` whose view is a group named by what the control
    means, of buttons that say which one is pressed (``_toggles.js``; ipywidgets' own buttons
    carry no pressed state and no group name)."""

    _esm = (_HERE / "_toggles.js").read_text(encoding="utf-8")
    # every panel sizes its buttons to their text (button_width "auto", _layout.align_labels);
    # the view draws its own buttons, so that is said here, with the focus ring every control has
    _css = (".ppdm-toggles .widget-toggle-button { width: auto; padding: 0 0.8em; }\n"
            ".ppdm-toggles .widget-toggle-button:focus-visible { outline: 3px solid #0b57d0; "
            "outline-offset: 2px; }\n")


_CHOICES = (_HERE / "_choices.js").read_text(encoding="utf-8")


class NamedDropdown(_Named, widgets.Dropdown):
    """An :class:`ipywidgets.Dropdown` whose ``<select>`` is named by what the control means."""

    _esm = _CHOICES
    _kind = Unicode("dropdown").tag(sync=True)


class NamedSelectMultiple(_Named, widgets.SelectMultiple):
    """An :class:`ipywidgets.SelectMultiple` whose list is named by what the control means."""

    _esm = _CHOICES
    _kind = Unicode("multiple").tag(sync=True)


class NamedCheckbox(_Named, widgets.Checkbox):
    """An :class:`ipywidgets.Checkbox` whose box is named by what the control means."""

    _esm = _CHOICES
    _kind = Unicode("checkbox").tag(sync=True)


#: the named control for each ipywidgets choice control the panels use
NAMED_CHOICES = {widgets.Dropdown: NamedDropdown, widgets.SelectMultiple: NamedSelectMultiple,
                 widgets.Checkbox: NamedCheckbox, widgets.ToggleButtons: NamedToggleButtons}

#: the named slider for each ipywidgets slider the panels use
NAMED = {widgets.IntSlider: NamedIntSlider, widgets.FloatSlider: NamedFloatSlider,
         widgets.FloatLogSlider: NamedFloatLogSlider}
