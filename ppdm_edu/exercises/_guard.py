"""The guard around a student's code: how ``check`` runs the functions of a "write it yourself"
exercise so that nothing they do can hang the check, end the kernel or change the verdict.

* **Linux**: the calls run in a forked child process, which sends back only numbers (numpy arrays
  written with ``allow_pickle=False``) and is killed at the time limit. A loop, ``sys.exit``,
  ``os._exit`` or a crash ends the child, never the kernel; whatever the functions rebind stays in
  the child, and the judge runs in the kernel on the numbers alone. What the functions print is
  captured in the child and printed by the kernel.
* **Other systems with signals** (macOS, the BSDs): the calls run in the kernel, on its main
  thread, stopped at the limit by a timer signal (``SIGALRM``); **Windows** (no fork, no
  ``SIGALRM``): in the kernel, stopped by interrupting the main thread from a timer thread, which
  stops Python code but not a long ``time.sleep`` or numpy call until it returns. In both,
  ``SystemExit`` is caught and ``os._exit``/``os.abort`` (and IPython's ``exit``) are replaced
  while the student's code runs.
* **Pyodide** (no thread, process or signal): in the kernel with no time limit; the check says so
  before it starts (so that a cell that never ends is explained) and in its verdict.

Whatever the system, every exception the student's objects raise (even one whose ``__str__``
raises) becomes a plain "not yet", and :func:`restore_checker` puts back any of the checker's own
functions, tables or numpy's functions that code in the kernel rebound since import. These are
self-checks for learning, not an exam: a student who wants to fool their own check can.
"""
from __future__ import annotations

import builtins
import io
import json
import math
import os
import signal
import sys
import threading
import types
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import numpy as np

__all__ = ["TIME_LIMIT", "Call", "Returned", "StudentError", "run_calls", "guard_mode", "restore_checker",
           "snapshot_checker"]

#: Seconds the functions of one check may run together (all hidden cases). The reference
#: implementations take well under a second; a Python loop over the records still fits.
TIME_LIMIT = 10.0
#: Where to run the student's code: None for the best this Python supports (:func:`guard_mode`),
#: or one of its modes (tests force each one).
MODE: str | None = None
#: What a child may send back (a return value far larger than the hidden inputs is refused).
MAX_BYTES = 64 * 2 ** 20

_REAL_EXIT = os._exit  # the child's own way out, taken before any student code runs


class StudentError(Exception):
    """The student's code raised, exited, ran too long or returned something that is not numbers:
    the message says which and how, in plain words."""


class _TimeLimit(BaseException):
    """Raised inside the student's code at the time limit (a BaseException, so that an
    ``except Exception`` in the student's code does not swallow it)."""


class _Exited(BaseException):
    """Raised in place of ``os._exit`` / ``os.abort`` / IPython's ``exit`` while student code runs."""

    def __init__(self, how: str):
        super().__init__(how)
        self.how = how


# what the guard itself raises inside the student's code: never turned into a "raised ..." hint
_STOPS = (_TimeLimit, _Exited, KeyboardInterrupt)


@dataclass(frozen=True)
class Call:
    """One call of a student's function on hidden inputs.

    Attributes
    ----------
    function : callable
        The student's function.
    name : str
        Its name in the exercise (for the messages).
    args : tuple
        Its arguments; arrays are passed as copies, and a change the function makes to them is
        reported in :attr:`Returned.changed`.
    """

    function: Callable
    name: str
    args: tuple


@dataclass(frozen=True)
class Returned:
    """What one call gave back, as plain numbers.

    Attributes
    ----------
    value : numpy.ndarray
        The return value as a plain ndarray of booleans or numbers (any shape, possibly empty).
    changed : tuple of int
        Positions of the array arguments the call changed in place.
    """

    value: np.ndarray
    changed: tuple[int, ...] = ()


class Results:
    """The outcomes of a list of calls, in order; asking for a call that did not complete raises
    the :class:`StudentError` that stopped the list (so a judge reads the outcomes in the order it
    would have made the calls, and meets the failure where it happened)."""

    def __init__(self, returned: list[Returned], error: StudentError | None, note: str = ""):
        self.returned = returned
        self.error = error
        self.note = note

    def __getitem__(self, i: int) -> Returned:
        if i < len(self.returned):
            return self.returned[i]
        raise self.error if self.error is not None else IndexError(i)

    def __len__(self) -> int:
        return len(self.returned)

    def part(self, start: int) -> "Results":
        """The outcomes from call ``start`` on, numbered from 0 (the second function's calls)."""
        return Results(self.returned[start:], self.error, self.note) if start <= len(self.returned) \
            else Results([], self.error, self.note)


# --- describing the student's objects without trusting them ------------------------------------------
def _type_name(obj) -> str:
    try:
        name = type(obj).__name__
        return name if isinstance(name, str) else "object"
    except BaseException:  # a metaclass that lies: say nothing more
        return "object"


def _text(obj, limit: int = 160) -> str:
    """``str(obj)``, or a plain note when its ``__str__`` raises or returns something odd."""
    try:
        text = str(obj)
        if type(text) is not str:
            raise TypeError
    except _STOPS:
        raise
    except BaseException:
        return "(its message cannot be printed: its __str__ raised)"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def describe_exception(error: BaseException) -> str:
    """"ValueError: the message", safely (the exception's own ``__str__`` may raise)."""
    text = _text(error)
    return f"{_type_name(error)}: {text}" if text else _type_name(error)


def _what_came_back(result) -> str | None:
    """Words for a return value that cannot be numbers (text, a generator, a mapping, a function),
    judged from its type only; None when numpy should try to read it."""
    if isinstance(result, (str, bytes)):
        shown = str.__str__(result)[:40] if isinstance(result, str) else bytes.decode(result[:40], errors="replace")
        return f"text ({shown!r}{'…' if len(shown) >= 40 else ''}), not numbers: return the array itself"
    if isinstance(result, types.GeneratorType) or hasattr(type(result), "__next__"):
        return ("a generator (an iterator), not an array: its values are never computed; build an array "
                "(or a list) of them instead")
    if isinstance(result, (dict, set, frozenset)):
        return f"a {_type_name(result)}, not an array of numbers"
    if callable(result) and not isinstance(result, np.ndarray):
        return "a function, not its result: call it and return what it computes"
    return None


def _as_numbers(result, name: str) -> np.ndarray:
    """The return value as a plain ndarray of booleans/numbers, or a StudentError saying what came back."""
    if result is None:
        raise StudentError(f"{name} returned None: return the result (is the `return` missing?).")
    words = _what_came_back(result)
    if words is not None:
        raise StudentError(f"{name} returned {words}.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = np.asarray(result)
    except _STOPS:
        raise
    except BaseException as error:
        raise StudentError(f"{name} returned an object of type {_type_name(result)} that numpy cannot read as an array "
                           f"({describe_exception(error)}).") from None
    if value.dtype.kind not in "biufc":
        what = "text" if value.dtype.kind in "US" else "objects that are not numbers"
        raise StudentError(f"{name} returned a {_type_name(result)} of {what}: return an array of numbers.")
    return np.array(value, dtype=value.dtype, copy=True, subok=False)


def _one_call(call: Call) -> Returned:
    """Run one call; everything the student's code does becomes a Returned or a StudentError
    (except the guard's own time limit and exit signals, which the caller handles)."""
    args = tuple(np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in call.args)
    try:
        result = call.function(*args)
    except _STOPS:
        raise
    except NotImplementedError:
        raise StudentError(f"{call.name} raises NotImplementedError: write its body.") from None
    except SystemExit as error:
        code = error.code if type(error.code) in (int, str, type(None)) else "…"
        raise StudentError(f"{call.name} called sys.exit({code!r}) (or exit()): return the result instead of "
                           "ending the program.") from None
    except BaseException as error:  # any bug of the student's code is a hint, not a traceback
        raise StudentError(f"{call.name} raised {describe_exception(error)}") from None
    try:
        value = _as_numbers(result, call.name)
    except (StudentError, *_STOPS):
        raise
    except BaseException as error:  # a str or ndarray subclass whose methods raise
        raise StudentError(f"{call.name} returned an object of type {_type_name(result)} that cannot be read "
                           f"({describe_exception(error)}).") from None
    changed = tuple(i for i, (given, used) in enumerate(zip(call.args, args))
                    if isinstance(given, np.ndarray) and not _same_array(given, used))
    return Returned(value, changed)


def _same_array(a: np.ndarray, b) -> bool:
    return isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype \
        and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))


def _timeout_error(exercise_id: str, limit: float, running: str) -> StudentError:
    return StudentError(f"your function ran for more than {limit:g} s on {exercise_id}'s hidden data ({running} "
                        "was still running) and was stopped: look for a loop that never ends, or a loop over "
                        "the records that one numpy operation can do.")


# --- where to run -----------------------------------------------------------------------------------
def guard_mode() -> str:
    """How this Python runs a student's functions: "process" (a forked child, Linux), "alarm" (in
    the kernel, stopped by SIGALRM), "interrupt" (in the kernel, stopped by interrupting the main
    thread: Windows) or "none" (in the kernel with no time limit: Pyodide, or a check called
    outside the main thread where neither of the two in-kernel stops can reach).

    Returns
    -------
    str
        One of "process", "alarm", "interrupt", "none".
    """
    if sys.platform == "emscripten":
        return "none"
    if sys.platform.startswith("linux") and hasattr(os, "fork"):
        return "process"
    if threading.current_thread() is not threading.main_thread():
        return "none"
    if hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM"):
        return "alarm"
    return "interrupt"


_NO_LIMIT = {
    "emscripten": "Pyodide has no thread, process or signal that could stop it",
    "thread": "check() was called outside the main thread, where nothing can stop it",
}


def run_calls(calls: list[Call], exercise_id: str, limit: float | None = None, mode: str | None = None) -> Results:
    """Run the student's calls in order under the guard; stop at the first that fails.

    Parameters
    ----------
    calls : list of Call
        The calls, in the order the judge reads them.
    exercise_id : str
        Named in the messages.
    limit : float, optional
        Seconds for all the calls together (default :data:`TIME_LIMIT`).
    mode : str, optional
        Force one of :func:`guard_mode`'s modes (tests); default: the one this Python supports.

    Returns
    -------
    Results
        The outcomes; a failed call's :class:`StudentError` is raised when the judge reaches it.
        ``note`` says when the calls ran with no time limit.
    """
    limit = TIME_LIMIT if limit is None else float(limit)
    mode = mode or MODE or guard_mode()
    if mode == "process":
        return _run_in_child(calls, exercise_id, limit)
    note = ""
    if mode == "none":
        why = _NO_LIMIT["emscripten" if sys.platform == "emscripten" else "thread"]
        note = f"checked without a time limit ({why})"
        print(f"check({exercise_id!r}) runs your functions without a time limit: {why}. If this cell does not "
              "finish, interrupt or restart the kernel and look for a loop that never ends.", flush=True)
    return _run_here(calls, exercise_id, limit, mode, note)


# --- in a forked child (Linux) -------------------------------------------------------------------------
def _frame(header: dict, array: np.ndarray | None = None) -> bytes:
    body = json.dumps(header).encode()
    out = len(body).to_bytes(8, "little") + body
    if array is not None:
        buffer = io.BytesIO()
        np.lib.format.write_array(buffer, array, allow_pickle=False)
        out += buffer.getvalue()
    return out


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _child(calls: list[Call], fd: int, limit: float) -> None:
    """In the forked child: run the calls, send one frame per call, then what was printed."""
    import faulthandler
    faulthandler.disable()  # a crash of the student's code is reported by the parent, in one line
    # a backstop: the kernel ends this process even if the parent is gone
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(int(math.ceil(limit)) + 5)
    printed = io.StringIO()
    sys.stdout = sys.stderr = printed   # never the kernel's streams (their sockets belong to the parent)
    sys.stdin = io.StringIO()

    def no_input(*args):
        raise EOFError("input() cannot be answered inside check()")
    builtins.input = no_input
    for i, call in enumerate(calls):
        try:
            returned = _one_call(call)
        except StudentError as error:
            _write_all(fd, _frame({"i": i, "error": str(error)}))
            break
        except _STOPS:  # Ctrl-C reached the child too: the parent reports it
            _write_all(fd, _frame({"i": i, "error": f"{call.name} was interrupted before it returned."}))
            break
        _write_all(fd, _frame({"i": i, "changed": list(returned.changed)}, returned.value))
    _write_all(fd, _frame({"end": True, "printed": printed.getvalue()[-4000:]}))


def _run_in_child(calls: list[Call], exercise_id: str, limit: float) -> Results:
    read_fd, write_fd = os.pipe()
    with warnings.catch_warnings():  # Python 3.12+ warns about fork() in a process with threads
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: never returns to the caller
        status = 0
        try:
            os.close(read_fd)
            _child(calls, write_fd, limit)
        except BaseException:
            status = 70
        finally:
            _REAL_EXIT(status)
    os.close(write_fd)
    try:
        data, stopped = _collect(read_fd, limit)
    finally:
        os.close(read_fd)
        try:
            os.kill(pid, signal.SIGKILL)  # done or not: the child ends here
        except ProcessLookupError:
            pass
        _, status = os.waitpid(pid, 0)
    returned, error, printed, complete = _read_frames(data, calls)
    if printed:
        print(printed, end="" if printed.endswith("\n") else "\n", flush=True)
    if error is None and not complete:
        running = calls[len(returned)].name if len(returned) < len(calls) else "your code"
        error = {
            "interrupted": StudentError(f"{running} was interrupted (KeyboardInterrupt) before it returned."),
            "too much": StudentError(f"{running} returned far more values than the hidden inputs have."),
            "time": _timeout_error(exercise_id, limit, running),
        }.get(stopped) or StudentError(f"{running} ended the Python process ({_how_it_ended(status)}): in the "
                                       "kernel itself that would have stopped the kernel. Return the result instead.")
    return Results(returned, error)


def _collect(read_fd: int, limit: float) -> tuple[bytes, str]:
    """Read the child's frames until it closes the pipe; stop early at the time limit, at
    :data:`MAX_BYTES` or at Ctrl-C. Returns the bytes and why reading stopped ("" at the end)."""
    import select  # only here: the forked child exists on Linux alone
    data = bytearray()
    deadline = _monotonic() + limit
    try:
        while True:
            remaining = deadline - _monotonic()
            if remaining <= 0:
                return bytes(data), "time"
            ready, _, _ = select.select([read_fd], [], [], remaining)
            chunk = os.read(read_fd, 1 << 20) if ready else None
            if chunk == b"":
                return bytes(data), ""
            data += chunk or b""
            if len(data) > MAX_BYTES:
                return bytes(data), "too much"
    except KeyboardInterrupt:  # the stop button: end the child, say so
        return bytes(data), "interrupted"


def _how_it_ended(status: int) -> str:
    if os.WIFEXITED(status):
        return f"os._exit({os.WEXITSTATUS(status)}) or a fatal error"
    if os.WIFSIGNALED(status):
        try:
            name = signal.Signals(os.WTERMSIG(status)).name
        except ValueError:
            name = str(os.WTERMSIG(status))
        return f"it was killed by signal {name}: a crash, os.abort() or os.kill"
    return "an unknown way"


def _read_frames(data: bytes, calls: list[Call]):
    """The frames the child sent: the returned arrays, the error, the printed text, and whether the
    end frame arrived. Only JSON and .npy data (no pickles) are read."""
    returned: list[Returned] = []
    error = None
    printed = ""
    complete = False
    stream = io.BytesIO(data)
    while True:
        size = stream.read(8)
        if len(size) < 8:
            break
        body = stream.read(int.from_bytes(size, "little"))
        try:
            header = json.loads(body)
        except ValueError:
            break
        if header.get("end"):
            printed = str(header.get("printed", ""))
            complete = True
            break
        if "error" in header:
            error = StudentError(str(header["error"]))
            continue
        try:
            value = np.lib.format.read_array(stream, allow_pickle=False)
        except ValueError:
            break
        if value.dtype.kind not in "biufc" or len(returned) >= len(calls):
            break
        returned.append(Returned(value, tuple(int(i) for i in header.get("changed", ()))))
    return returned, error, printed, complete


def _monotonic() -> float:
    import time
    return time.monotonic()


# --- in the kernel (macOS, Windows, Pyodide) ------------------------------------------------------------
@contextmanager
def _exits_replaced():
    """``os._exit``, ``os.abort`` and IPython's ``exit`` raise :class:`_Exited` while student code runs."""
    def replacement(how):
        def stop(*args, **kwargs):
            raise _Exited(how)
        return stop
    saved = [(os, "_exit", os._exit), (os, "abort", os.abort)]
    shell = None
    if "IPython" in sys.modules:  # in a kernel, exit() asks the kernel to shut down
        from IPython import get_ipython
        shell = get_ipython()
    os._exit = replacement("os._exit()")
    os.abort = replacement("os.abort()")
    if shell is not None and hasattr(shell, "ask_exit"):
        shell.ask_exit = replacement("exit()")
    try:
        yield
    finally:
        for module, name, original in saved:
            setattr(module, name, original)
        if shell is not None and "ask_exit" in vars(shell):
            del shell.ask_exit


class _Stopper:
    """The time limit in the kernel, for the "alarm" and "interrupt" modes.

    At the limit a signal handler runs on the main thread: SIGALRM from a timer ("alarm"), or
    SIGINT sent by a timer thread with ``_thread.interrupt_main`` ("interrupt", Windows). It raises
    :class:`_TimeLimit` in the student's code, and from then on a trace function raises it again at
    every line of the student's frames, so a bare ``except`` (or ``except BaseException``) that
    swallows one stop is left at its next line. The user's own Ctrl-C stays a KeyboardInterrupt.
    """

    def __init__(self, limit: float, mode: str):
        self.limit, self.mode = limit, mode
        self.armed = self.fired = False
        self._undo: list[Callable[[], None]] = []

    def __enter__(self):
        if self.mode not in ("alarm", "interrupt"):
            return self
        self.armed = True
        previous_trace = sys.gettrace()
        self._undo.append(lambda: sys.settrace(previous_trace))
        if self.mode == "alarm":
            self._undo.append(self._start_alarm())
        else:
            self._undo.append(self._start_interrupter())
        return self

    def _start_alarm(self) -> Callable[[], None]:
        previous = signal.signal(signal.SIGALRM, self._on_signal)
        started = _monotonic()
        delay, interval = signal.setitimer(signal.ITIMER_REAL, self.limit)

        def undo():
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if delay > 0:  # another timer (pytest-timeout's, say) was running: resume it
                signal.setitimer(signal.ITIMER_REAL, max(delay - (_monotonic() - started), 1e-3), interval)
        return undo

    def _start_interrupter(self) -> Callable[[], None]:
        import _thread
        previous = signal.signal(signal.SIGINT, self._on_signal)
        stop = threading.Event()

        def interrupter():
            if stop.wait(self.limit):
                return
            self.fired = True
            while not stop.is_set():
                _thread.interrupt_main()
                stop.wait(0.05)
        thread = threading.Thread(target=interrupter, name="ppdm-check-time-limit", daemon=True)
        thread.start()

        def undo():
            stop.set()
            thread.join()
            signal.signal(signal.SIGINT, previous)  # a pending interrupt runs first, in the disarmed handler
        return undo

    def _on_signal(self, signum, frame):
        if not self.armed:
            return
        if self.mode == "interrupt" and not self.fired:
            raise KeyboardInterrupt  # the user's stop button, not the limit
        self.fired = True
        if self.mode == "alarm":
            signal.setitimer(signal.ITIMER_REAL, 0.05)  # and again, while the student's code runs
        self._trace_student_frames(frame)
        raise _TimeLimit

    def _trace_student_frames(self, frame) -> None:
        def tracer(frame, event, arg):
            if not self.armed or frame.f_globals.get("__name__") == __name__:
                return None  # the guard's own frames are never stopped
            if event == "exception":  # raising here would only replace the exception being swallowed
                return tracer
            raise _TimeLimit  # at the next line, e.g. the `except` that swallowed the last one
        while frame is not None and frame.f_globals.get("__name__") != __name__:
            frame.f_trace = tracer
            frame = frame.f_back
        sys.settrace(tracer)

    def disarm(self) -> None:
        """Stop for good and put back the handlers, timers and tracer (safe to call twice)."""
        self.armed = False  # first: from here on neither the handler nor the tracer raises
        while self._undo:
            self._undo.pop()()

    def __exit__(self, *exc):
        self.disarm()
        return False


def _run_here(calls: list[Call], exercise_id: str, limit: float, mode: str, note: str) -> Results:
    returned: list[Returned] = []
    error = None
    stopper = _Stopper(limit, mode)
    try:
        with _exits_replaced(), stopper:
            for call in calls:
                try:
                    returned.append(_one_call(call))
                except StudentError as failure:
                    error = failure
                    break
    except (_TimeLimit, KeyboardInterrupt) as stop:
        stopper.disarm()
        running = calls[len(returned)].name if len(returned) < len(calls) else "your code"
        if isinstance(stop, KeyboardInterrupt) and not stopper.fired:
            error = StudentError(f"{running} was interrupted (KeyboardInterrupt) before it returned.")
        else:
            error = _timeout_error(exercise_id, limit, running)
    except _Exited as exited:
        running = calls[len(returned)].name if len(returned) < len(calls) else "your code"
        error = StudentError(f"{running} called {exited.how}: in the kernel that would have stopped the kernel. "
                             "Return the result instead.")
    rebound = restore_checker()  # what the functions rebound in this kernel, put back before the judge reads
    if rebound:
        note = "; ".join(filter(None, (note, f"your code changed the checker's own {', '.join(rebound[:3])}, "
                                             "put back before judging")))
    return Results(returned, error, note)


# --- the checker's own references ---------------------------------------------------------------------
_SNAPSHOT: list = []


def _function_state(function) -> tuple:
    return (function.__code__, function.__defaults__, function.__kwdefaults__)


def snapshot_checker(modules) -> None:
    """Remember the checker's modules as imported: every global, the contents of its tables
    (dicts), the code of its functions and the attributes of its classes and frozen records; and
    the functions of numpy and math and the builtins that judges use.

    Parameters
    ----------
    modules : iterable of module
        The exercise package's modules.
    """
    entries = []
    for module in list(modules):
        for name, value in _globals(module, ours=True):
            entries += _remember(module, name, value, ours=True)
    for module in (np, math):
        for name, value in _globals(module, ours=False):
            entries += _remember(module, name, value, ours=False)
    # of builtins only what judges call: a kernel rebinds others on purpose (ipykernel's input)
    entries += [("attr", builtins, name, vars(builtins)[name]) for name in _BUILTINS_JUDGES_USE]
    _SNAPSHOT[:] = entries


def _globals(module, ours: bool):
    return [(name, value) for name, value in list(vars(module).items())
            if name not in _TUNABLE and not name.startswith("__") and (ours or _library_callable(value))]


def _library_callable(value) -> bool:
    """numpy's, math's and builtins' functions and types (numpy 2 wraps many functions in a
    dispatcher object), not data such as ``builtins._``."""
    return callable(value) and not isinstance(value, types.ModuleType)


def _remember(module, name: str, value, ours: bool) -> list[tuple]:
    entries: list[tuple] = [("attr", module, name, value)]
    if isinstance(value, types.FunctionType) and (ours or value.__module__.startswith("numpy")):
        entries.append(("code", value, None, _function_state(value)))
    if ours and isinstance(value, dict):
        for key, item in list(value.items()):
            entries.append(("item", value, key, item))
            if hasattr(item, "__dataclass_fields__"):
                entries.append(("fields", item, None, dict(vars(item))))
    if ours and isinstance(value, type) and value.__module__ == module.__name__:
        entries += [("attr", value, attr, member) for attr, member in list(vars(value).items())
                    if not attr.startswith("__")]
    return entries


_BUILTINS_JUDGES_USE = ("abs", "all", "any", "bool", "callable", "dict", "enumerate", "float", "frozenset", "getattr",
                        "hasattr", "int", "isinstance", "issubclass", "iter", "len", "list", "map", "max", "min", "next",
                        "range", "repr", "round", "set", "sorted", "str", "sum", "tuple", "type", "vars", "zip")
#: Module globals that tests (and a curious lecturer) may change on purpose.
_TUNABLE = frozenset({"TIME_LIMIT", "MODE"})


def restore_checker() -> list[str]:
    """Put back whatever was rebound since :func:`snapshot_checker`; return what was.

    Returns
    -------
    list of str
        The names that had been changed (e.g. ``"nb02._bayes_step_hint"``), now restored.
    """
    restored = [_RESTORE[kind](owner, key, original) for kind, owner, key, original in _SNAPSHOT]
    return list(dict.fromkeys(name for name in restored if name))


def _restore_attr(owner, key, original) -> str:
    if vars(owner).get(key, _MISSING) is original:
        return ""
    setattr(owner, key, original)
    return f"{_owner_name(owner)}.{key}"


def _restore_code(function, _key, original) -> str:
    if all(now is then for now, then in zip(_function_state(function), original)):
        return ""
    function.__code__, function.__defaults__, function.__kwdefaults__ = original
    return f"{function.__module__.rsplit('.', 1)[-1]}.{function.__name__}"


def _restore_item(table, key, original) -> str:
    if table.get(key, _MISSING) is original:
        return ""
    table[key] = original
    return f"the entry {key!r} of one of its tables"


def _restore_fields(record, _key, original) -> str:
    if all(vars(record).get(k, _MISSING) is v for k, v in original.items()):
        return ""
    for k, v in original.items():
        object.__setattr__(record, k, v)  # a frozen dataclass: the way its own __init__ sets them
    return f"the fields of {_type_name(record)} {getattr(record, 'id', '')}".rstrip()


_RESTORE = {"attr": _restore_attr, "code": _restore_code, "item": _restore_item, "fields": _restore_fields}
_MISSING = object()


def _owner_name(owner) -> str:
    name = getattr(owner, "__name__", "?")
    return name.rsplit(".", 1)[-1] if isinstance(owner, types.ModuleType) else name
