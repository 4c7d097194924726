"""No panel cuts a label: every drawn tick label, axis label and title lies inside its figure.

Panels draw with fixed margins (no layout engine, ``widgets/_layout.py``); a margin too narrow
for a label cuts it at the picture's edge, which a learner sees as a truncated mechanism name.
Checked for every panel, in both styles, at the defaults and at every option of each discrete
control (the trade-off panel's histogram task has the longest names).
"""
from __future__ import annotations

import pytest

from ppdm_edu import lecture_mode
from ppdm_edu.widgets import all_panels

PANELS = sorted(all_panels())


def _drawn_tick_labels(axis) -> list:
    """The tick labels matplotlib draws: those of ticks inside the view limits."""
    lo, hi = sorted(axis.get_view_interval())
    slack = 1e-9 * abs(hi - lo)
    return [t for t, loc in zip(axis.get_ticklabels(), axis.get_ticklocs()) if lo - slack <= loc <= hi + slack]


def _cut_labels(figure) -> list[str]:
    renderer = figure.canvas.get_renderer()
    width, height = figure.bbox.width, figure.bbox.height
    cut = []
    for ax in figure.axes:
        texts = [*_drawn_tick_labels(ax.xaxis), *_drawn_tick_labels(ax.yaxis), ax.xaxis.label, ax.yaxis.label,
                 ax.title]
        for text in texts:
            if not (text.get_visible() and text.get_text()):
                continue
            box = text.get_window_extent(renderer)
            if box.x0 < -1 or box.y0 < -1 or box.x1 > width + 1 or box.y1 > height + 1:  # 1 px: rounding
                cut.append(f"{text.get_text()!r} at {[round(v) for v in box.extents]} "
                           f"in a {width:.0f} x {height:.0f} px figure")
    return cut


@pytest.fixture(params=[False, True], ids=["classroom", "lecture"])
def style(request):
    lecture_mode(request.param)
    yield request.param
    lecture_mode(False)


@pytest.mark.parametrize("key", PANELS)
def test_no_label_is_cut_at_the_figures_edge(key, style):
    panel = all_panels()[key]()
    assert panel.error is None, panel.message.value
    cut = {"defaults": _cut_labels(panel.figure)}
    for name, control in panel.controls.items():
        options = getattr(control, "options", None)
        if not options or getattr(control, "disabled", False) or isinstance(control.value, tuple):
            continue
        original = control.value
        for option in options:
            value = option[1] if isinstance(option, tuple) else option
            control.value = value
            if panel.error is None:
                cut[f"{name} = {value!r}"] = _cut_labels(panel.figure)
        control.value = original
    found = {where: labels for where, labels in cut.items() if labels}
    assert not found, f"{key}: labels cut at the figure's edge: {found}"
