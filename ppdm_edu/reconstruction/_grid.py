"""The interval grid: equal-width intervals over the domain, and the observed bins beyond it.

Agrawal & Srikant (2000), Sec. 3 ("Partitioning") and Sec. 4.2 (the number of intervals).
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import check_bounds, check_finite_1d, check_integer, check_positive
from ..randomization import Noise

METHODS = ("bayes", "em")
MAX_INTERVALS = 10_000
_MAX_EXTENSION = 5_000
# Perturbed values farther than this from the domain cannot have come from it (noise support).
_REACH_COVERAGE = 1.0 - 1e-12


def check_method(method) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    return method


def check_tol(tol) -> float:
    return check_positive(tol, "tol", allow_zero=True)


def domain_bounds(bounds, w: np.ndarray | None = None,
                  w_range: tuple[float, float] | None = None) -> tuple[float, float]:
    """``bounds`` checked, or with None the range of ``w`` (``w_range``: its (min, max), if known)."""
    if bounds is None:
        if w is None:
            raise ValueError("bounds are needed")
        lo, hi = (float(w.min()), float(w.max())) if w_range is None else w_range
        if hi <= lo:  # a single value (or all equal): give the grid some width
            lo, hi = lo - 0.5, hi + 0.5
        return lo, hi
    return check_bounds(bounds)


def default_n_intervals(n: int) -> int:
    """The paper's heuristic (Sec. 4.2): about 100 points per interval, bounded to 10..100.

    Parameters
    ----------
    n : int
        Number of records, >= 1.

    Returns
    -------
    int
        ``round(n / 100)`` clipped to the range 10..100.

    Raises
    ------
    ValueError
        If ``n < 1``.

    Examples
    --------
    >>> default_n_intervals(500), default_n_intervals(4_321), default_n_intervals(10**6)
    (10, 43, 100)
    """
    n = check_integer(n, "n")  # refuses text ("100"), bools and 2.5 by name
    if not n >= 1:
        raise ValueError(f"n (number of records) must be >= 1, got {n}")
    return int(min(100, max(10, round(n / 100))))


def make_edges(bounds, n_intervals=None, width=None, n: int | None = None) -> np.ndarray:
    """Equal-width interval boundaries over ``bounds``.

    Give ``n_intervals`` or ``width`` (not both); with neither, :func:`default_n_intervals` of
    ``n``. With ``width`` the last interval may end a little past ``bounds[1]``.

    Parameters
    ----------
    bounds : (float, float)
        ``(low, high)`` with ``low < high``, both finite: the domain to split.
    n_intervals : int, optional
        Number of intervals, 1 to 10,000.
    width : float, optional
        Width of each interval, > 0 (at most 10,000 intervals may result).
    n : int, optional
        Number of records, used only when neither ``n_intervals`` nor ``width`` is given
        (:func:`default_n_intervals`).

    Returns
    -------
    ndarray, shape (m + 1,)
        Strictly increasing boundaries, starting at ``low``.

    Raises
    ------
    ValueError
        If ``bounds`` is not a finite increasing pair, both ``n_intervals`` and ``width`` are
        given, none of ``n_intervals``, ``width`` and ``n`` is, or the grid would have more
        than 10,000 intervals.

    Examples
    --------
    >>> make_edges((0, 1), width=0.25).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    lo, hi = domain_bounds(bounds)
    if n is not None:
        n = check_integer(n, "n", minimum=1)
    return _make_edges(lo, hi, n_intervals, width, n)


def _make_edges(lo: float, hi: float, n_intervals, width, n: int | None) -> np.ndarray:
    """:func:`make_edges` for checked bounds ``lo < hi`` and a checked ``n`` (or None)."""
    if n_intervals is not None and width is not None:
        raise ValueError("give n_intervals or width, not both")
    if width is not None:
        width = check_positive(width, "width")
        m = max(1, int(math.ceil((hi - lo) / width - 1e-9)))
        if m > MAX_INTERVALS:
            raise ValueError(
                f"width {width} gives {m} intervals over ({lo}, {hi}); at most "
                f"{MAX_INTERVALS} are allowed: use a larger width"
            )
        return lo + width * np.arange(m + 1)
    if n_intervals is None:
        if n is None:
            raise ValueError("give n_intervals, width or n (for the default heuristic)")
        n_intervals = default_n_intervals(n)
    m = check_integer(n_intervals, "n_intervals", minimum=1, maximum=MAX_INTERVALS)
    return np.linspace(lo, hi, m + 1)


def check_edges(edges, name="edges") -> np.ndarray:
    e = check_finite_1d(edges, name)
    # (finite values: b - a <= 0 exactly when b <= a; one comparison instead of np.diff)
    if e.size < 2 or not (e[1:] > e[:-1]).all():
        raise ValueError(f"{name} must be at least two strictly increasing boundaries")
    return e


def reach(noise: Noise) -> float:
    """Half-width of an interval that holds the noise with probability 1 - 1e-12."""
    return float(noise.support(_REACH_COVERAGE)[1])


def extend_edges(edges: np.ndarray, reach: float) -> np.ndarray:
    """``edges`` extended on both sides with intervals of the end widths to cover +-reach."""
    # at most _MAX_EXTENSION bins a side: wider ones when the noise dwarfs the intervals
    left_w = max(edges[1] - edges[0], reach / _MAX_EXTENSION)
    right_w = max(edges[-1] - edges[-2], reach / _MAX_EXTENSION)
    k_left = int(math.ceil(reach / left_w)) + 1
    k_right = int(math.ceil(reach / right_w)) + 1
    left = edges[0] - left_w * np.arange(k_left, 0, -1)
    right = edges[-1] + right_w * np.arange(1, k_right + 1)
    return np.concatenate([left, edges, right])

