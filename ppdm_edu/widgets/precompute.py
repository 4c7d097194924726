"""Results of slow panel updates, kept and computed ahead of the slider.

A lecturer moves a slider one step, talks, moves it again. :class:`AheadCache` keeps the results
a panel computed (keyed by the control values they depend on; least recently used dropped
first) and, while the kernel waits for the next move, computes the results of the neighbouring
slider positions on one background worker (a :class:`concurrent.futures.ThreadPoolExecutor` of
one thread). A move to a position already computed (or being computed) costs only the drawing;
a move to anywhere else costs what it always did, since the caller computes it at once (and the
worker waits while it does).

The results are the same whichever thread computes them: every computation must be a pure
function of its key (the panels seed their data and noise from fixed seeds).

Under Pyodide (JupyterLite, ``sys.platform == "emscripten"``) a thread cannot start
(``RuntimeError: can't start new thread``): there :meth:`AheadCache.prefetch` computes nothing
ahead and starts nothing, and every result is computed in the foreground by
:meth:`AheadCache.get` when the slider reaches it. The results are the same, only a move to a
neighbouring position is no faster than any other. Should a thread fail to start anywhere else,
the cache falls back to the same foreground computing (and stops trying).
"""
from __future__ import annotations

import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

__all__: list[str] = []

#: the name (prefix) of the worker thread
THREAD_NAME = "ppdm-panel-ahead"


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
    """An LRU cache of results with one background worker that computes results ahead.

    Parameters
    ----------
    maxsize : int, default 256
        Results kept (least recently used dropped first).
    delay : float, default 0.0
        Seconds the worker waits after :meth:`prefetch` before it starts on the new work: a
        move that follows within that time does not share the interpreter with it (a lecturer
        who talks longer loses nothing; the work starts after the pause).

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
        self._not_before = 0.0  # time.monotonic() before which the worker starts nothing new
        self._lock = threading.Condition()
        self._done: OrderedDict = OrderedDict()  # the LRU: most recently used last
        # work handed to the worker: a ticket per key while it waits, its future once it runs
        self._queued: dict[Hashable, object] = {}
        self._running: dict[Hashable, Future] = {}
        self._futures: dict[Hashable, Future] = {}
        self._foreground = 0  # results the caller is computing now: the worker waits
        self._executor: ThreadPoolExecutor | None = None
        self._can_thread = True  # False once a thread could not start

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
        """The result for ``key``: kept, awaited from the worker, or computed now.

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
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return self._done[key]
            running = self._running.get(key)
            if running is None:
                # queued but not started: taken back, computed here at once
                self._queued.pop(key, None)
                self._foreground += 1
        if running is not None:
            try:
                return running.result()
            except Exception:  # noqa: BLE001 - failed on the worker: compute it here, the caller sees the error
                with self._lock:
                    self._foreground += 1
        try:
            value = compute()
            with self._lock:
                self._store(key, value)
        finally:
            with self._lock:
                self._foreground -= 1
                self._lock.notify_all()
        return value

    def prefetch(self, items: Iterable[tuple[Hashable, Callable[[], object]]]) -> None:
        """Replace the work waiting for the worker by ``items`` (``(key, compute)``, first first).

        Parameters
        ----------
        items : iterable of (hashable, callable)
            Work to do ahead; keys already kept or under way are skipped, failures are dropped.
            Where no thread can start (Pyodide), nothing is computed ahead: :meth:`get`
            computes each result when it is asked for.
        """
        with self._lock:
            for key in list(self._queued):  # the work of the last prefetch that has not started
                del self._queued[key]
                future = self._futures.pop(key, None)
                if future is not None:
                    future.cancel()
            if not (self._can_thread and threads_available()):
                self._lock.notify_all()
                return
            self._not_before = time.monotonic() + self.delay
            for key, compute in items:
                if key in self._done or key in self._running or key in self._queued:
                    continue
                ticket = object()
                try:
                    future = self._worker().submit(self._work, key, compute, ticket)
                except RuntimeError:
                    # "can't start new thread" (Pyodide, or a process out of threads): compute in
                    # the foreground from now on, as under Pyodide; the results are the same
                    self._stop_worker()
                    break
                self._queued[key] = ticket
                self._futures[key] = future
            self._lock.notify_all()

    def _worker(self) -> ThreadPoolExecutor:
        if self._executor is None:
            # imported here: `import ppdm_edu` stays light and starts nothing under Pyodide
            from concurrent.futures import ThreadPoolExecutor

            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=THREAD_NAME)
        return self._executor

    def _stop_worker(self) -> None:
        self._can_thread = False
        self._queued.clear()
        self._futures.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no work waits for the worker and nothing runs.

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
            return self._lock.wait_for(lambda: not self._queued and not self._running, timeout)

    def _work(self, key, compute, ticket):
        """Run on the worker: wait out the delay and the caller's own computing, then compute."""
        with self._lock:
            while True:
                if self._queued.get(key) is not ticket:  # replaced or taken by the caller
                    return None
                pause = self._not_before - time.monotonic()
                if pause > 0:  # the room is still looking at the last move
                    self._lock.wait(pause)
                elif self._foreground:  # the panel's own update goes first
                    self._lock.wait()
                else:
                    break
            del self._queued[key]
            self._running[key] = self._futures.pop(key)
        try:
            value = compute()
        except Exception:  # noqa: BLE001 - e.g. a ValueError at a slider extreme: not kept
            with self._lock:
                self._running.pop(key, None)
                self._lock.notify_all()
            raise
        with self._lock:
            self._store(key, value)
            self._running.pop(key, None)
            self._lock.notify_all()
        return value


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
