"""Perturbed values -> counts per observed bin (the ``N(I_s)`` of Eq. 3), and each record's bin.

The values are binned on the interval grid extended beyond the domain: bin ``k`` is
``[lo + k L, lo + (k + 1) L)``. This is one pass of floor + :func:`numpy.bincount` over blocks
of values (no sort, no array of the size of the data unless each record's bin is asked for, as
the cross-validation stop needs it); the counts and bins are those ``numpy.unique`` gives
(sorted non-empty bins), the per-record codes its ``return_inverse``.
"""
from __future__ import annotations

import numpy as np

# values binned per block (the block size: benchmarks/engineering_notes.md)
_BLOCK = 1 << 15


def bin_values(values: np.ndarray, lo: float, hi: float, L: float, m: int, k_out: int,
               codes: bool = False):
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
    counts = np.zeros(span, dtype=np.intp)
    index = np.empty(n, dtype=np.intp) if codes else None
    for start in range(0, n, _BLOCK):  # blocks of values (a bounded loop, not one per record)
        # the expression of the sorted branch above, in place on one copy of the block
        t = np.clip(values[start:start + _BLOCK], low, high)
        t -= lo
        t /= L
        np.floor(t, out=t)
        np.clip(t, -k_out, m - 1 + k_out, out=t)
        k = t.astype(np.intp)
        k += k_out  # 0 .. span - 1
        counts += np.bincount(k, minlength=span)
        if index is not None:  # i.e. codes
            index[start:start + k.size] = k
    nonempty = np.flatnonzero(counts)
    bins = (nonempty - k_out).astype(np.int64)
    code = None
    if index is not None:  # i.e. codes
        rank = np.cumsum(counts > 0) - 1  # bin -> its index among the non-empty bins
        code = np.take(rank, index, out=index, mode="clip")  # in place: indices are in range
    return bins, counts[nonempty].astype(np.int64), code
