"""Issue 14 §4: every panel with every pair of its controls at their extremes.

``test_bad_inputs.py`` moves one control at a time; here two controls sit at an extreme
together (min/max of a slider, first/last option of a choice, every checkbox state), because a
read-out that survives each extreme alone can still break on a combination (100 % privacy with
the smallest sample, theta = 1/2 with the largest n, ...). Each combination either shows the
figure with a read-out free of NaN, inf and negative probabilities, or shows its message.
"""
from __future__ import annotations

import itertools
import re

import ipywidgets as widgets
import pytest

from ppdm_edu.widgets import all_panels

PANELS = sorted(all_panels())
# NaN/inf anywhere, or a negative number shown as a probability/percentage
BAD_READOUT = re.compile(r"\bnan\b|\binf\b|-\d+(?:\.\d+)?\s*%|probabilit[^<\n]{0,40}?-\d", re.I)


def _ends(control):
    if isinstance(control, widgets.SelectMultiple):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        return [tuple(values[:1]), tuple(values)]
    if isinstance(control, (widgets.IntRangeSlider, widgets.FloatRangeSlider)):
        return [(control.min, control.min), (control.max, control.max)]
    if isinstance(control, widgets.FloatLogSlider):
        return [control.base ** control.min, control.base ** control.max]
    if hasattr(control, "min") and hasattr(control, "max"):
        return [control.min, control.max]
    if getattr(control, "options", None):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        return [values[0], values[-1]] if len(values) > 1 else values
    if isinstance(control, (widgets.Checkbox, widgets.ToggleButton)):
        return [True, False]
    return []


@pytest.mark.parametrize("key", PANELS)
def test_every_pair_of_extremes_shows_a_readout_or_a_message(key):
    panel = all_panels()[key]()
    controls = {name: c for name, c in panel.controls.items() if _ends(c)}
    start = panel.values()
    combinations = 0
    # the panel's own steps (Panel.update: compute, draw, summary) without encoding the PNG and
    # without the two extra updates that moving the controls one by one would trigger
    for (a, ca), (b, cb) in itertools.combinations(controls.items(), 2):
        for va, vb in itertools.product(_ends(ca), _ends(cb)):
            combinations += 1
            try:
                result = panel.compute(**{**start, a: va, b: vb})
            except ValueError as err:  # the panel shows this message instead of the figure
                assert str(err), (key, a, va, b, vb)
                continue
            panel.figure.clear()
            panel.draw(panel.figure, result)  # an exception here is a crash in front of the class
            readout = panel.summary(result)
            assert not BAD_READOUT.search(readout), f"{key}: {a}={va!r}, {b}={vb!r}: {readout}"
    assert combinations >= 4 or len(controls) < 2, f"{key}: {combinations} combinations"
