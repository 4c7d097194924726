"""Perturbed values -> counts per observed bin (the ``N(I_s)`` of Eq. 3), and each record's bin.

The values are binned on the interval grid extended beyond the domain: bin ``k`` is
``[lo + k L, lo + (k + 1) L)``. This is one pass of floor + :func:`numpy.bincount` over blocks
of values (no sort, no array of the size of the data unless each record's bin is asked for, as
the cross-validation stop needs it); the counts and bins are those ``numpy.unique`` gives
(sorted non-empty bins), the per-record codes its ``return_inverse``.
"""
from __future__ import annotations

import numpy as np

# values per block: the block's float temporary stays in cache (512 kB)
_BLOCK = 1 << 16
# 2**52 and its bits: a float64 x in [2**52, 2**53) is an integer, and its bits (as int64) are
# _TWO52_BITS + (x - 2**52). Used where intp is int64 (not on 32-bit platforms such as Pyodide)
_TWO52 = float(2**52)
_TWO52_BITS = int(np.array(_TWO52).view(np.int64))
_VIEW_AS_INTP = np.dtype(np.intp) == np.dtype(np.int64)


def bin_values(values: np.ndarray, lo: float, hi: float, L: float, m: int, k_out: int,
               codes: bool = False, w_range: tuple[float, float] | None = None):
    """Non-empty bins, their counts and (with ``codes``) each value's index among them.

    Bin ``k`` of ``floor((clip(w) - lo) / L)``, clipped to ``-k_out .. m - 1 + k_out``, where
    values are first clipped to ``k_out + 1`` bins beyond the domain (a value that far cannot
    come from it under the noise).

    Returns
    -------
    bins : ndarray of int64, shape (m_w,)
        The non-empty bins' ``k``, increasing.
    counts : ndarray of int64, shape (m_w,)
        The number of values in each.
    code : ndarray of intp, shape (n,), or None
        ``bins[code[i]]`` is the bin of ``values[i]`` (None unless ``codes``).

    ``w_range``: the values' (min, max), if known: when they lie within the clip's bounds
    (nearly always), the first clip changes nothing and is skipped.
    """
    n = values.size
    span = m + 2 * k_out
    low, high = lo - (k_out + 1) * L, hi + (k_out + 1) * L
    code: np.ndarray | None
    if span > max(n, _BLOCK):
        # far more bins than values (intervals far narrower than the noise's reach): the
        # counts array would outgrow the data; sort instead (only non-empty bins are kept)
        k = np.floor((np.clip(values, low, high) - lo) / L)
        k = np.clip(k, -k_out, m - 1 + k_out).astype(np.int64)
        bins, code, counts = np.unique(k, return_inverse=True, return_counts=True)
        return bins, counts, (code.ravel() if codes else None)
    index = np.empty(n, dtype=np.intp) if codes else None
    buf = np.empty(min(n, _BLOCK))
    inside = w_range is not None and low <= w_range[0] and w_range[1] <= high
    # one block (n <= _BLOCK): its bincount is the counts (no zeroed array to add it to)
    acc: np.ndarray | None = None if 0 < n <= _BLOCK else np.zeros(span, dtype=np.intp)
    for start in range(0, n, _BLOCK):  # blocks of values (a bounded loop, not one per record)
        stop = min(n, start + _BLOCK)
        t = buf[: stop - start]
        # the same operations, in the same order, as the one-shot expression above
        if inside:  # clip would change nothing
            np.subtract(values[start:stop], lo, out=t)
        else:
            np.clip(values[start:stop], low, high, out=t)
            np.subtract(t, lo, out=t)
        np.divide(t, L, out=t)
        np.floor(t, out=t)
        np.clip(t, -k_out, m - 1 + k_out, out=t)
        if _VIEW_AS_INTP:
            # t + k_out (0 .. span - 1) as integers without numpy's float -> int conversion
            # (its slowest step): t + k_out + 2**52 is exact (an integer below 2**53), and the
            # bits of a double in [2**52, 2**53) are those of 2**52 plus its offset from it
            np.add(t, k_out + _TWO52, out=t)
            k = t.view(np.intp)
            np.subtract(k, _TWO52_BITS, out=k)
        else:
            np.add(t, k_out, out=t)  # 0 .. span - 1, exact (integers far below 2**53)
            k = t.astype(np.intp)
        if acc is None:
            acc = np.bincount(k, minlength=span)
        else:
            acc += np.bincount(k, minlength=span)
        if index is not None:  # i.e. codes
            index[start:stop] = k
    counts = acc if acc is not None else np.zeros(span, dtype=np.intp)
    nonempty = np.flatnonzero(counts)
    bins = (nonempty - k_out).astype(np.int64)
    code = None
    if index is not None:  # i.e. codes
        rank = np.cumsum(counts > 0) - 1  # bin -> its index among the non-empty bins
        code = np.take(rank, index, out=index, mode="clip")  # in place: indices are in range
    return bins, counts[nonempty].astype(np.int64), code
