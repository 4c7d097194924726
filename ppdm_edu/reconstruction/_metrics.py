"""Scores of a reconstruction against the original values (Fig. 2's "Original" and "Randomized")."""
from __future__ import annotations

import math

import numpy as np

from .._validation import check_finite_1d, check_probabilities
from ._grid import check_edges
from ._matrix import MAX_MATRIX_ENTRIES


def interval_distribution(x, edges, clip: bool = False) -> np.ndarray:
    """Fraction of the values of ``x`` in each interval of ``edges``.

    Values outside ``[edges[0], edges[-1]]`` are dropped (and the rest renormalized) unless
    ``clip`` puts them into the end intervals. Used to score a reconstruction against the
    original values and to draw the "Randomized" line of Fig. 2.

    Parameters
    ----------
    x : array-like of float, shape (n,)
        The values (finite).
    edges : array-like, shape (m + 1,)
        Strictly increasing interval boundaries; the last interval includes its right edge.
    clip : bool, default False
        Count values outside the grid in the nearest end interval instead of dropping them.

    Returns
    -------
    ndarray, shape (m,)
        Fraction of the counted values in each interval; sums to 1.

    Raises
    ------
    ValueError
        If ``x`` is not finite, ``edges`` is not increasing, or no value lies in the grid.

    Examples
    --------
    >>> interval_distribution([0.1, 0.2, 0.7, 5.0], [0, 0.5, 1]).tolist()
    [0.6666666666666666, 0.3333333333333333]
    """
    values = check_finite_1d(x, "x")
    edges = check_edges(edges)
    if clip:
        values = np.clip(values, edges[0], edges[-1])
    counts, _ = np.histogram(values, bins=edges)
    total = counts.sum()
    if total == 0:
        raise ValueError(f"no value of x lies in [{edges[0]}, {edges[-1]}]")
    return counts / total


def total_variation(p, q) -> float:
    """Total-variation distance ``0.5 sum |p - q|`` between two distributions on the same intervals.

    Parameters
    ----------
    p : array-like of float, shape (m,)
        A probability vector (non-negative, summing to 1).
    q : array-like of float, shape (m,)
        Another probability vector of the same shape.

    Returns
    -------
    float
        The distance, between 0 (equal) and 1 (disjoint supports).

    Raises
    ------
    ValueError
        If ``p`` or ``q`` is not a probability vector or their shapes differ.

    Examples
    --------
    >>> total_variation([0.5, 0.5], [1.0, 0.0])
    0.5
    """
    p = check_probabilities(p, "p")
    q = check_probabilities(q, "q")
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same shape, got {p.shape} and {q.shape}")
    return float(0.5 * np.abs(p - q).sum())


def sample_total_variation(x, w, edges) -> float:
    """TV distance between the empirical distributions of two samples on the grid of ``edges``.

    The grid is extended on both sides (with the end intervals' widths) until it covers both
    samples, so mass one sample has outside ``[edges[0], edges[-1]]`` counts as a difference.
    This is how far the *randomized* values are from the original ones (Fig. 2's
    "Randomized" line against "Original").

    Parameters
    ----------
    x : array-like of float, shape (n_x,)
        The first sample (e.g. the original values), finite.
    w : array-like of float, shape (n_w,)
        The second sample (e.g. the perturbed values), finite.
    edges : array-like, shape (m + 1,)
        Strictly increasing boundaries of the grid.

    Returns
    -------
    float
        Total-variation distance between the two histograms, between 0 and 1.

    Raises
    ------
    ValueError
        If a sample is not finite, ``edges`` is not increasing, or the samples span so many
        intervals of the grid that the histogram would be too large.

    Examples
    --------
    >>> sample_total_variation([0.1, 0.2], [0.1, 1.7], [0, 0.5, 1])
    0.5
    """
    a = check_finite_1d(x, "x")
    b = check_finite_1d(w, "w")
    e = check_edges(edges)
    lo = min(a.min(), b.min(), e[0])
    hi = max(a.max(), b.max(), e[-1])
    left_w, right_w = e[1] - e[0], e[-1] - e[-2]
    k_left = int(math.ceil((e[0] - lo) / left_w)) + 1
    k_right = int(math.ceil((hi - e[-1]) / right_w)) + 1
    if k_left + k_right + e.size > 10 * MAX_MATRIX_ENTRIES:
        raise ValueError("the samples are too spread out for this grid; use wider intervals")
    grid = np.concatenate([e[0] - left_w * np.arange(k_left, 0, -1), e,
                           e[-1] + right_w * np.arange(1, k_right + 1)])
    p = np.histogram(a, grid)[0] / a.size
    q = np.histogram(b, grid)[0] / b.size
    return total_variation(p, q)

