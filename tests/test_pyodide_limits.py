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
way a student would: by setting ``control.value``, which runs the whole update. Under the
``emscripten`` variant every notebook's code cells are then run top to bottom in an in-process
IPython shell (Agg backend; the cwd is ``notebooks/``).
"""
from __future__ import annotations

import json
import multiprocessing.process
import re
import socket
import subprocess
import sys
import threading
import traceback
from pathlib import Path

import ipywidgets as widgets
import matplotlib
import pytest

from ppdm_edu.widgets import all_panels

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
PANELS = sorted(all_panels())


class _Attempts(list):
    """What tried to start a thread/process/socket under the simulation (kind, name, stack)."""

    def describe(self) -> str:
        return "\n\n".join(f"{kind} {name!r} from:\n{stack}" for kind, name, stack in self)


def _stack() -> str:
    return "".join(traceback.format_stack(limit=12)[:-2])


@pytest.fixture(params=["emscripten", "native"])
def pyodide(request, monkeypatch):
    """Make thread, subprocess, multiprocessing and socket starts raise as in Pyodide."""
    attempts = _Attempts()

    def thread_start(self):
        attempts.append(("thread", self.name, _stack()))
        raise RuntimeError("can't start new thread")  # Pyodide's message

    def popen(self, *args, **kwargs):
        attempts.append(("subprocess", str(args[:1]), _stack()))
        raise OSError(38, "Function not implemented")  # ENOSYS, as Emscripten's fork/exec

    def process_start(self):
        attempts.append(("process", self.name, _stack()))
        raise OSError(38, "Function not implemented")

    def socket_init(self, *args, **kwargs):
        attempts.append(("socket", str(args[:2]), _stack()))
        raise OSError(50, "Protocol not available")  # what Pyodide's socket module raises

    monkeypatch.setattr(threading.Thread, "start", thread_start)
    monkeypatch.setattr(subprocess.Popen, "__init__", popen)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", process_start)
    monkeypatch.setattr(socket.socket, "__init__", socket_init)
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
def _code_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.fixture(scope="module")
def shell():
    """One in-process IPython shell (no history thread), created before any limit is simulated."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    matplotlib.use("Agg")
    config = Config()
    config.HistoryManager.enabled = False  # its writer is a thread (the harness's, not ours)
    shell = InteractiveShell.instance(config=config)
    yield shell
    # later tests must not find an IPython shell (get_ipython() is None outside Jupyter)
    shell.reset(new_session=False)
    InteractiveShell.clear_instance()


@pytest.mark.slow
@pytest.mark.parametrize("pyodide", ["emscripten"], indirect=True)  # the panels run under both
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_notebook_runs_top_to_bottom_under_pyodide(path, shell, pyodide, monkeypatch):
    monkeypatch.chdir(path.parent)  # the notebooks read ../reports relative to themselves
    shell.reset(new_session=False)
    for k, source in enumerate(_code_cells(path)):
        result = shell.run_cell(source, store_history=False, silent=False)
        err = result.error_before_exec or result.error_in_exec
        assert err is None, f"{path.name} code cell {k}: {type(err).__name__}: {err}\n{source[:400]}"
        assert not pyodide, f"{path.name} code cell {k} tried, under Pyodide:\n{pyodide.describe()}"
    import matplotlib.pyplot as plt

    plt.close("all")
