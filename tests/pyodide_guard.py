"""Pyodide's limits in a CPython process, and the pytest plugin that puts them in nbval's kernels.

Pyodide (JupyterLite) cannot start a thread (``RuntimeError: can't start new thread``), a
subprocess or a ``multiprocessing`` process, nor open a socket. :func:`simulate` makes all four
raise as they do there and records every attempt; it is used two ways:

* by ``tests/test_pyodide_limits.py``, around every panel moved through every control;
* inside every notebook kernel of the test run (loaded as a plugin: ``-p pyodide_guard`` in
  pyproject.toml). At start-up each kernel runs an IPython start-up file (a private
  ``IPYTHONDIR`` that this plugin creates) that sets ``sys.platform = "emscripten"`` and calls
  :func:`simulate` with ``strict=True``: a start tried from a notebook cell or from ``ppdm_edu``
  raises :class:`PyodideLimit`, which no ``except Exception`` fallback swallows, so the cell fails
  and nbval names it. The notebooks are thereby executed once, as nbval executes them, under the
  limits (no second run of every notebook just for this check). The kernel's own machinery
  (its I/O threads, started before the start-up file runs, and anything it starts later on its
  own) is left alone: under Pyodide the kernel is another program.
"""
from __future__ import annotations

import multiprocessing.process
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path

#: what each kind of start raises under Pyodide (the exception and its message)
PYODIDE_ERRORS = {
    "thread": lambda: RuntimeError("can't start new thread"),
    "subprocess": lambda: OSError(38, "Function not implemented"),  # ENOSYS, as Emscripten's fork/exec
    "process": lambda: OSError(38, "Function not implemented"),
    "socket": lambda: OSError(50, "Protocol not available"),  # what Pyodide's socket module raises
}
#: the environment variable that holds the start-up folder for the kernels
IPYTHONDIR = "IPYTHONDIR"
STARTUP = "00-pyodide-limits.py"


class PyodideLimit(BaseException):
    """A thread, process or socket start that Pyodide cannot do, tried from notebook or package
    code in a kernel under the strict simulation (a ``BaseException``: a fallback written as
    ``except Exception`` must not hide it)."""


class Attempts(list):
    """What tried to start a thread/process/socket under the simulation: (kind, name, stack)."""

    variant = "emscripten"

    def describe(self) -> str:
        return "\n\n".join(f"{kind} {name!r} from:\n{stack}" for kind, name, stack in self)


#: the file name ipykernel gives a cell's code (``/tmp/ipykernel_<pid>/<hash>.py``) or IPython's
CELL_FILE = re.compile(r"ipykernel_\d+[/\\]\d+\.py$|^<ipython-input-")


def _ours(frames) -> bool:
    """Whether a stack runs notebook cell code or ``ppdm_edu`` (not only the kernel's machinery)."""
    return any(f"{os.sep}ppdm_edu{os.sep}" in f.filename or CELL_FILE.search(f.filename) for f in frames)


def simulate(setattr_, attempts: Attempts, *, strict: bool = False) -> Attempts:
    """Make thread, subprocess, multiprocessing and socket starts raise as under Pyodide.

    ``setattr_`` is ``monkeypatch.setattr`` in a test (undone after it) or :func:`setattr` in a
    kernel. Every attempt is appended to ``attempts``. With ``strict``, an attempt from notebook
    or package code raises :class:`PyodideLimit` instead, and any other goes through unchanged.
    """
    originals = {"thread": threading.Thread.start, "subprocess": subprocess.Popen.__init__,
                 "process": multiprocessing.process.BaseProcess.start, "socket": socket.socket.__init__}

    def guard(kind, name_of):
        def start(self, *args, **kwargs):
            frames = traceback.extract_stack(limit=40)[:-1]
            if strict and not _ours(frames):
                return originals[kind](self, *args, **kwargs)
            name = name_of(self, args)
            stack = "".join(traceback.format_list(frames[-12:]))
            attempts.append((kind, name, stack))
            if strict:
                raise PyodideLimit(f"Pyodide cannot start a {kind} ({name!r}); tried from:\n{stack}")
            raise PYODIDE_ERRORS[kind]()
        return start

    setattr_(threading.Thread, "start", guard("thread", lambda self, a: self.name))
    setattr_(subprocess.Popen, "__init__", guard("subprocess", lambda self, a: str(a[:1])))
    setattr_(multiprocessing.process.BaseProcess, "start", guard("process", lambda self, a: self.name))
    setattr_(socket.socket, "__init__", guard("socket", lambda self, a: str(a[:2])))
    return attempts


def enforce_in_kernel() -> Attempts:
    """What a notebook kernel's start-up file calls: the strict simulation, as under Pyodide.

    matplotlib is imported first, as on the platform it runs on: it reads ``sys.platform`` once,
    to find its font cache (``~/.cache/matplotlib`` on Linux, ``~/.matplotlib`` elsewhere), and
    builds a missing cache with a timer thread. Pyodide's matplotlib has its own cache; what is
    simulated here is the package and the notebooks, not matplotlib's installation.
    """
    import matplotlib.font_manager  # noqa: F401

    sys.platform = "emscripten"  # type: ignore[misc]  # what the package reads to know where it is
    return simulate(setattr, Attempts(), strict=True)


def startup_source(tests_dir: Path) -> str:
    """The IPython start-up file every notebook kernel of the test run executes."""
    return (
        "# written by tests/pyodide_guard.py for the test run: Pyodide's limits in this kernel\n"
        "import sys as _sys\n"
        f"_sys.path.insert(0, {str(tests_dir)!r})\n"
        "import pyodide_guard as _guard\n"
        "_sys.path.pop(0)\n"
        "_guard.enforce_in_kernel()\n"
        "del _sys, _guard\n"
    )


# -- the pytest plugin -------------------------------------------------------------------------
_made: list[str] = []


def pytest_configure(config):
    """A private IPYTHONDIR whose start-up file puts every kernel of this run under the limits."""
    folder = tempfile.mkdtemp(prefix="ppdm-ipython-")
    startup = Path(folder) / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / STARTUP).write_text(startup_source(Path(__file__).resolve().parent), encoding="utf-8")
    _made.append(folder)
    os.environ[IPYTHONDIR] = folder


def pytest_unconfigure(config):
    while _made:
        shutil.rmtree(_made.pop(), ignore_errors=True)
