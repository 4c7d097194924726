"""Issue 25 §1: the panels and the notebooks run where Pyodide (JupyterLite) runs them.

Pyodide cannot start a thread (``RuntimeError: can't start new thread``), a subprocess or a
``multiprocessing`` process, nor open a socket. The fixture ``pyodide`` makes all four raise
as they do there, and records every attempt. Two variants:

* ``emscripten``: ``sys.platform`` says "emscripten" as under Pyodide. Nothing may even *try*
  to start a thread, a process or a socket (the package must know where it is).
* ``native``: ``sys.platform`` is left alone, so the package does try (``AheadCache`` computes
  slider neighbours ahead in a thread); the start fails and it must fall back to computing in
  the foreground, showing the same results.

Under each variant every panel of :func:`ppdm_edu.widgets.all_panels` is built and every
control is moved through every option (discrete controls) or to both ends (sliders), the
way a student would: by setting ``control.value``, which runs the whole update.

The notebooks run under the limits where they are run anyway: nbval's kernels of this test run
start under the strict simulation of ``tests/pyodide_guard.py`` (a pytest plugin), so a cell that
starts a thread, a process or a socket fails there; the last test checks that the kernels are so.
"""
from __future__ import annotations

import os
import re
import sys
import threading
from pathlib import Path

import ipywidgets as widgets
import pyodide_guard
import pytest

from ppdm_edu.widgets import all_panels

REPO = Path(__file__).resolve().parents[1]
PANELS = sorted(all_panels())


@pytest.fixture(params=["emscripten", "native"])
def pyodide(request, monkeypatch):
    """Make thread, subprocess, multiprocessing and socket starts raise as in Pyodide."""
    attempts = pyodide_guard.simulate(monkeypatch.setattr, pyodide_guard.Attempts())
    if request.param == "emscripten":
        monkeypatch.setattr(sys, "platform", "emscripten")
    attempts.variant = request.param
    return attempts


def _options(control) -> list:
    """Every value a student can give ``control``: every option of a discrete control, both ends
    and the default of a slider, each single choice plus none and all of a multiple choice."""
    if isinstance(control, widgets.SelectMultiple):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        return [(v,) for v in values] + [(), tuple(values), control.value]
    if isinstance(control, (widgets.IntSlider, widgets.FloatSlider)):
        return [control.min, control.max, control.value]
    if isinstance(control, widgets.FloatLogSlider):  # its min and max are exponents
        return [control.base ** control.min, control.base ** control.max, control.value]
    if getattr(control, "options", None):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        return values + [control.value]
    if isinstance(control, (widgets.Checkbox, widgets.ToggleButton)):
        return [not control.value, control.value]
    raise AssertionError(f"a control this test does not know how to move: {type(control).__name__}")


# a measured duration in a read-out (the trees panel's "training time" row): not a result
TIMING = re.compile(r"\d+(?:\.\d+)? s(?=<)")


def _shown(panel) -> str:
    """What the panel shows now: the read-out (durations masked), or its message when it refused
    the setting."""
    return TIMING.sub("(time) s", panel.message.value if panel.error is not None else panel.readout.value)


@pytest.mark.parametrize("key", PANELS)
def test_every_panel_moves_through_every_control_under_pyodide_limits(key, pyodide, monkeypatch):
    cls = all_panels()[key]
    panel = cls()  # construction runs the first update (and, before issue 25, a prefetch)
    assert panel.error is not None or panel.image.value, key
    moves = 0
    for name, control in panel.controls.items():
        for value in _options(control):
            control.value = value  # the whole update, as a student's move
            moves += 1
            assert panel.error is not None or panel.image.value, (key, name, value)
    assert moves >= 2
    if pyodide.variant == "emscripten":
        assert not pyodide, f"{key} tried, under Pyodide:\n{pyodide.describe()}"
    else:
        # only thread starts may be tried (and fall back); never a process or a socket
        assert {kind for kind, _, _ in pyodide} <= {"thread"}, pyodide.describe()
    # same results as a panel that never met the limits: the last state, computed afresh
    monkeypatch.undo()
    reference = _fresh_panel(cls, panel.values())
    assert _shown(panel) == _shown(reference), key


def _fresh_panel(cls, values):
    """A panel with ``values`` on its controls (built after the limits are lifted)."""
    panel = cls()
    for name, value in values.items():
        panel.controls[name].value = value
    return panel


def test_the_native_variant_really_tries_a_thread(monkeypatch):
    """The fallback is exercised: without the emscripten platform, a panel that computes ahead
    tries to start a thread, the start fails, and the panel goes on in the foreground."""
    tried = []

    def thread_start(self):
        tried.append(self.name)
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", thread_start)
    from ppdm_edu.widgets.rr_trees import RRTreePanel

    panel = RRTreePanel()
    panel.controls["theta"].value = 0.8
    assert len(tried) == 1 and tried[0].startswith("ppdm-panel-ahead"), tried  # tried once, then never again
    assert panel.error is None and panel.image.value


# -- the notebooks ----------------------------------------------------------------------------
# They run once in this test run, under nbval, in kernels that the plugin ``pyodide_guard`` puts
# under the limits (``sys.platform == "emscripten"``, strict). This checks that it does.
def test_notebook_kernels_of_this_run_are_under_pyodide_limits(tmp_path):
    """A kernel started as nbval starts it (this Python, this environment) says it is Pyodide,
    refuses a thread started from a cell with :class:`pyodide_guard.PyodideLimit`, and a panel
    in it still draws (it computes nothing ahead there)."""
    from jupyter_client.manager import start_new_kernel

    assert os.environ.get(pyodide_guard.IPYTHONDIR), "the pyodide_guard plugin is not loaded"
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(tmp_path))
    try:
        def run(code: str) -> tuple[str, str]:
            out, err = [], []

            def hook(msg):
                kind, content = msg["msg_type"], msg["content"]
                if kind == "stream":
                    out.append(content["text"])
                elif kind == "error":
                    err.append(f"{content['ename']}: {content['evalue']}")

            kc.execute_interactive(code, output_hook=hook, timeout=240)
            return "".join(out), "".join(err)

        out, err = run("import sys; print(sys.platform)")
        assert (out.strip(), err) == ("emscripten", ""), (out, err)
        out, err = run("import threading; threading.Thread(target=print).start()")
        assert err.startswith("PyodideLimit: Pyodide cannot start a thread"), (out, err)
        out, err = run("from ppdm_edu.widgets.rr_trees import RRTreePanel\n"
                       "p = RRTreePanel(); p.controls['theta'].value = 0.8\n"
                       "print(p.error is None and len(p.image.value) > 0)")
        assert (out.strip(), err) == ("True", ""), (out, err)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
