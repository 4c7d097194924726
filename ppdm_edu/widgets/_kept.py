"""Figures kept per layout, and drawn ahead while the kernel is idle.

A panel whose layout changes with a control (the trees panel's bars with the selected
algorithms, the trade-off panel's mechanisms with the task) cannot redraw in place across that
change. The figure drawn for each layout (:meth:`Panel.figure_key`) is kept, so that coming back
to a layout is a redraw in place; and while the kernel is idle its event loop draws the layouts
a panel names (:meth:`KeptFigures.results_ahead`), never under Pyodide.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from matplotlib.figure import Figure

from . import _layout

__all__: list[str] = []


class KeptFigures:
    """The figures of a :class:`~ppdm_edu.widgets.panel.Panel`, one per layout, and the idle
    drawing of the layouts it names ahead."""

    # what the panel provides
    figure: Figure
    result: Any
    error: Exception | None
    _drawn: bool
    figure_key: Callable[[Any], Hashable]
    draw: Callable[[Figure, Any], None]
    _new_figure: Callable[[], Figure]

    #: figures kept, one per :meth:`figure_key` (the one shown included), to be redrawn in place
    kept_figures: int = 4
    #: seconds after an update before the kernel draws the layouts of :meth:`results_ahead`
    draw_ahead_delay: float = 0.25
    #: times the kernel looks again (every :attr:`draw_ahead_delay` s) while none is computed yet
    draw_ahead_tries: int = 20

    def _init_kept_figures(self) -> None:
        # the key of the figure shown (figure_key) and the other figures kept, by key
        self._figure_key: Hashable = None
        self._kept: OrderedDict = OrderedDict()
        self._ahead_handle: asyncio.TimerHandle | None = None
        self._ahead_tries = 0

    def _keep(self, key, figure) -> None:
        self._kept[key] = figure
        while len(self._kept) > max(self.kept_figures - 1, 0):
            self._kept.popitem(last=False)

    def _show_layout(self, key) -> bool:
        """Make the figure of layout ``key`` the one shown; True when it is drawn already (to be
        redrawn in place), False when :meth:`draw` must start on a new figure."""
        drawn = self._drawn
        if drawn and key != self._figure_key:
            # another layout: keep this figure, bring back the one last drawn for that layout
            kept = self._kept.pop(key, None)
            self._keep(self._figure_key, self.figure)
            if kept is not None:
                self.figure = kept
            drawn = kept is not None
        self._figure_key = key
        return drawn

    def results_ahead(self, result) -> list:
        """Results, already computed, whose layout (:meth:`figure_key`) is worth drawing ahead.

        The first figure of a layout costs the most (its axes, ticks and text are built); a
        panel whose layouts are few (the trade-off panel's two tasks) names here the result of
        each other layout, as far as it is computed (never compute here). While the kernel is
        idle, :meth:`draw_ahead` draws each into a kept figure, so that the first move to it is
        a redraw in place. Nothing is drawn ahead under Pyodide, nor without an event loop (a
        script). Default: none.

        Parameters
        ----------
        result : object
            What :meth:`compute` returned for the controls now shown.

        Returns
        -------
        list
            Results of other layouts, most likely next first.
        """
        return []

    def draw_ahead(self) -> bool:
        """Draw the first layout of :meth:`results_ahead` that has no figure yet, and keep it.

        Called by the kernel's event loop :attr:`draw_ahead_delay` seconds after an update
        (the loop runs it between two messages: a move waits at most for one drawing).

        Returns
        -------
        bool
            True when a figure was drawn (then the next one is scheduled; while no result is
            computed yet, the loop looks again, :attr:`draw_ahead_tries` times).
        """
        self._ahead_handle = None
        if self.result is None or self.error is not None or not self._drawn:
            return False
        results = self.results_ahead(self.result)
        if not results and self._ahead_tries < self.draw_ahead_tries:
            self._ahead_tries += 1
            self._schedule_draw_ahead(again=True)
            return False
        for result in results:
            key = self.figure_key(result)
            if key == self._figure_key or key in self._kept:
                continue
            figure = self._new_figure()
            self.draw(figure, result)
            figure.canvas.draw()  # builds the ticks and lays out the text: what a first update pays
            _layout.keep_labels_placed(figure)
            self._keep(key, figure)
            self._schedule_draw_ahead(again=True)
            return True
        return False

    def _schedule_draw_ahead(self, again: bool = False) -> None:
        from .precompute import threads_available

        if not again:
            self._ahead_tries = 0
        if self._ahead_handle is not None:
            self._ahead_handle.cancel()
            self._ahead_handle = None
        if type(self).results_ahead is KeptFigures.results_ahead:  # names no layout: nothing to draw
            return
        if not threads_available():  # Pyodide: nothing ahead, the page's one thread is the student's
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test): nothing drawn ahead
            return
        self._ahead_handle = loop.call_later(self.draw_ahead_delay, self.draw_ahead)

