"""Results of slow panel updates, kept and computed ahead of the slider (issue 17 §6).

A lecturer moves a slider one step, talks, moves it again. :class:`AheadCache` keeps every result
a panel computed (keyed by the control values it depends on) and, while the kernel waits for the
next move, computes the results of the neighbouring slider positions in one background thread.
A move to a position already computed (or being computed) costs only the drawing; a move to
anywhere else costs what it always did, since the caller computes it in its own thread at once
(and the background thread waits while it does).

The results are the same whichever thread computes them: every computation must be a pure
function of its key (the panels seed their data and noise from fixed seeds).

Under Pyodide (JupyterLite, ``sys.platform == "emscripten"``) a thread cannot start
(``RuntimeError: can't start new thread``): there :meth:`AheadCache.prefetch` computes nothing
ahead and starts nothing, and every result is computed in the foreground by
:meth:`AheadCache.get` when the slider reaches it. The results are the same, only a move to a
neighbouring position is no faster than any other. Should ``Thread.start`` fail anywhere else, the
cache falls back to the same foreground computing (and stops trying to start a thread).
"""
from __future__ import annotations

import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable

__all__: list[str] = []


def threads_available() -> bool:
    """Whether this Python can start a thread: False under Pyodide (``sys.platform ==
    "emscripten"``, JupyterLite), where ``Thread.start`` raises ``RuntimeError``.

    Read at every call (not once at import), so that a test can pretend to be Pyodide.

    Returns
    -------
    bool
        True everywhere but in the browser.

    Examples
    --------
    >>> threads_available()
    True
    """
    return sys.platform != "emscripten"


class AheadCache:
    """A bounded result cache with a one-thread background queue.

    Parameters
    ----------
    maxsize : int, default 256
        Results kept (least recently used dropped first).
    delay : float, default 0.0
        Seconds the background thread waits after :meth:`prefetch` before it starts on the new
        work: a move that follows within that time does not share the interpreter with it (a
        lecturer who talks longer loses nothing; the work starts after the pause).

    Examples
    --------
    >>> cache = AheadCache()
    >>> cache.get(("f", 1), lambda: 1 + 1)
    2
    >>> cache.prefetch([(("f", 2), lambda: 2 + 2)])
    >>> cache.wait_idle(timeout=10)
    True
    >>> cache.get(("f", 2), lambda: -1)   # computed ahead: the function is not called
    4
    """

    def __init__(self, maxsize: int = 256, delay: float = 0.0):
        if int(maxsize) < 1:
            raise ValueError(f"maxsize must be a positive integer, got {maxsize!r}")
        if not float(delay) >= 0.0:
            raise ValueError(f"delay must be a number of seconds >= 0, got {delay!r}")
        self.maxsize = int(maxsize)
        self.delay = float(delay)
        self._not_before = 0.0  # time.monotonic() before which the thread starts nothing new
        self._lock = threading.Condition()
        self._done: OrderedDict = OrderedDict()
        self._running: dict[Hashable, threading.Event] = {}
        self._queue: list[tuple[Hashable, Callable]] = []
        self._foreground = 0
        self._thread: threading.Thread | None = None
        # False once a thread could not start: no computing ahead from then on
        self._can_thread = True

    def __contains__(self, key) -> bool:
        with self._lock:
            return key in self._done

    def peek(self, key: Hashable, default=None):
        """The result kept for ``key``, else ``default``: never computes, never waits.

        Parameters
        ----------
        key : hashable
            What the result depends on.
        default : object, optional
            Returned when no result is kept (also while one is being computed).

        Returns
        -------
        object
            The kept result or ``default``.
        """
        with self._lock:
            return self._done.get(key, default)

    def _store(self, key, value) -> None:
        self._done[key] = value
        self._done.move_to_end(key)
        while len(self._done) > self.maxsize:
            self._done.popitem(last=False)

    def get(self, key: Hashable, compute: Callable[[], object]):
        """The result for ``key``: kept, awaited from the background thread, or computed now.

        Parameters
        ----------
        key : hashable
            What the result depends on.
        compute : callable
            Computes it (no arguments); called only when no result is kept or under way.

        Returns
        -------
        object
            The result (an exception of ``compute`` propagates and nothing is kept).
        """
        while True:
            with self._lock:
                if key in self._done:
                    self._done.move_to_end(key)
                    return self._done[key]
                event = self._running.get(key)
                if event is None:
                    self._queue = [(k, f) for k, f in self._queue if k != key]
                    event = self._running[key] = threading.Event()
                    self._foreground += 1
                    break
            event.wait()  # the background thread is on it; if it failed, compute it here
        try:
            value = compute()
        except BaseException:
            with self._lock:
                self._running.pop(key).set()
                self._foreground -= 1
                self._lock.notify_all()
            raise
        with self._lock:
            self._store(key, value)
            self._running.pop(key).set()
            self._foreground -= 1
            self._lock.notify_all()
        return value

    def prefetch(self, items: Iterable[tuple[Hashable, Callable[[], object]]]) -> None:
        """Replace the background queue by ``items`` (``(key, compute)``, first computed first).

        Parameters
        ----------
        items : iterable of (hashable, callable)
            Work to do ahead; keys already kept or under way are skipped, failures are dropped.
            Where no thread can start (Pyodide), nothing is computed ahead: :meth:`get`
            computes each result when it is asked for.
        """
        if not (self._can_thread and threads_available()):
            with self._lock:
                self._queue = []
                self._lock.notify_all()
            return
        with self._lock:
            self._queue = [(k, f) for k, f in items if k not in self._done and k not in self._running]
            self._not_before = time.monotonic() + self.delay
            if self._queue and (self._thread is None or not self._thread.is_alive()):
                thread = threading.Thread(target=self._work, name="ppdm-panel-ahead", daemon=True)
                try:
                    thread.start()
                except RuntimeError:
                    # "can't start new thread" (Pyodide, or a process out of threads): compute in
                    # the foreground from now on, as under Pyodide; the results are the same
                    self._can_thread = False
                    self._thread = None
                    self._queue = []
                else:
                    self._thread = thread
            self._lock.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until the background queue is empty and nothing runs.

        Parameters
        ----------
        timeout : float, optional
            Seconds (None: no limit).

        Returns
        -------
        bool
            False on timeout.
        """
        with self._lock:
            return self._lock.wait_for(lambda: not self._queue and not self._running, timeout)

    def _work(self) -> None:
        while True:
            with self._lock:
                # the panel's own update goes first: wait while it computes
                if not self._lock.wait_for(lambda: self._queue and not self._foreground, timeout=30):
                    if not self._queue:
                        self._thread = None
                        return
                    continue
                pause = self._not_before - time.monotonic()
                if pause > 0:  # the room is still looking at the last move
                    self._lock.wait(pause)
                    continue
                key, compute = self._queue.pop(0)
                event = self._running[key] = threading.Event()
            try:
                value = compute()
                failed = False
            except Exception:  # noqa: BLE001 - e.g. a ValueError at a slider extreme: skip it
                failed = True
            with self._lock:
                if not failed:
                    self._store(key, value)
                self._running.pop(key, None)
                event.set()
                self._lock.notify_all()


def slider_neighbours(slider, value) -> list:
    """The positions one step right and one step left of ``value`` on ``slider`` (right first).

    What the panels compute ahead. Rounded to 6 decimals, so that a float slider's position has
    one key whether reached by steps (0.7 + 0.01) or typed (0.71); positions outside the
    slider's range are left out.

    Parameters
    ----------
    slider : ipywidgets.IntSlider or ipywidgets.FloatSlider
        Gives ``step``, ``min`` and ``max``.
    value : float
        The position now shown.

    Returns
    -------
    list of float
        At most two positions.

    Examples
    --------
    >>> import ipywidgets as widgets
    >>> slider_neighbours(widgets.FloatSlider(min=0.0, max=1.0, step=0.01), 0.7)
    [0.71, 0.69]
    >>> slider_neighbours(widgets.IntSlider(min=0, max=200, step=5), 200)
    [195]
    """
    return [v for v in (round(value + d, 6) for d in (slider.step, -slider.step))
            if slider.min <= v <= slider.max]


def log_slider_neighbours(slider, value) -> list:
    """The positions one step right and one step left of ``value`` on a log ``slider``.

    :class:`ipywidgets.FloatLogSlider` steps its exponent: ``step``, ``min`` and ``max`` are
    powers of ``base``. As :func:`slider_neighbours`, right first, exponents rounded to 6
    decimals. As the slider does, a step lands on the grid ``min + k * step`` (from a position
    off the grid, such as a ``max`` off it, on the next grid point that way) and a step past an
    end stops at that end; an end has one neighbour.

    Parameters
    ----------
    slider : ipywidgets.FloatLogSlider
        Gives ``base``, ``step``, ``min`` and ``max`` (exponents).
    value : float
        The position now shown (> 0).

    Returns
    -------
    list of float
        At most two positions.

    Examples
    --------
    >>> import ipywidgets as widgets
    >>> s = widgets.FloatLogSlider(value=1.0, base=10, min=-1, max=0.5, step=0.25)
    >>> [round(v, 4) for v in log_slider_neighbours(s, 1.0)]
    [1.7783, 0.5623]
    >>> [round(v, 4) for v in log_slider_neighbours(s, 0.1)]
    [0.1778]
    >>> [round(v, 4) for v in log_slider_neighbours(s, 10 ** 0.5)]   # the right end
    [1.7783]
    >>> s.max = 0.6                                                  # off the grid of 0.25
    >>> [round(v, 4) for v in log_slider_neighbours(s, 10 ** 0.6)]   # one step left: 0.5
    [3.1623]
    """
    import math

    if not value > 0:
        return []
    here = math.log(value, slider.base)
    at = (here - slider.min) / slider.step  # grid points from min (a fraction: off the grid)
    out = []
    for k in (math.floor(at + 1e-6) + 1, math.ceil(at - 1e-6) - 1):
        e = min(max(round(slider.min + k * slider.step, 6), slider.min), slider.max)
        if abs(e - here) > 1e-6:
            out.append(slider.base ** e)
    return out
