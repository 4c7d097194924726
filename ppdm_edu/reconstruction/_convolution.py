"""The response matrix of an equal-width grid as a convolution, never stored (large problems).

When the observed bins are the intervals' grid extended (bin ``k`` is ``[lo + k L, lo + (k+1) L)``
and interval ``t`` is bin ``t``), ``A[s, t]`` depends only on ``k_s - t``: with the mid-points of
Eq. 3 it is ``f_Y((k_s - t) L) L`` (Sec. 3), and with exact bin probabilities (Agrawal & Aggarwal
2001) the probability of a shift of ``k_s - t`` bins. The ``m_w x m`` matrix is then one vector
``h`` of its ``m_w + m - 1`` diagonals (Toeplitz), and the two mat-vecs of an iteration are
correlations of ``h`` (:func:`numpy.correlate`, one BLAS dot per output)::

    (A @ pr)[s]  = sum_t h[k_s - t] pr[t]
    (A.T @ r)[t] = sum_s h[k_s - t] r[s]

At n = 10^6 and m = 2,000 intervals the dense matrix is 4,723 x 2,000 (75.6 MB, 76 bytes per
value); ``h`` is 53 kB and stays in cache, so each product reads no matrix from memory at all. The diagonals are computed by the dense matrix's own formula
(:func:`~._matrix.response_pairs`, the column of interval 0 over every shift), so the entries are
the dense ones up to the rounding of the mid-point distances (the dense matrix computes
``m(I_s) - m(I_t)`` from both grids, which differs from ``(k_s - t) L`` in its last bits): the
estimates agree with the dense loop to ~1e-13 relative, which is why only matrices far above
``_iteration._COPY_MAX_ENTRIES`` (whose summation order is kept bit for bit) take this form.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ._matrix import response_pairs

# the smallest matrix (m_w x m entries) computed as a convolution instead of stored: 2^17 (1 MB
# dense), above _iteration._COPY_MAX_ENTRIES (2^16: every panel, tree node and reproduction,
# whose numbers stay bit for bit). Around 2^17 both forms take the same time; from m = 500
# intervals on the convolution is several times faster end to end and needs no matrix
# (benchmarks/reconstruct_floor.py; tests/test_reconstruction_convolution.py shows it gives the
# dense loop's estimates)
CONVOLUTION_MIN_ENTRIES = 1 << 17


class ConvolutionResponse:
    """``A[rows]`` for the Toeplitz response ``A[s, t] = h[k_s - t - d0]``, as an operator.

    It supports what the iteration and its preparation use of a matrix: ``shape``, ``size``,
    ``A @ v`` and ``A.dot(v, out)``, ``A.T @ r`` and ``A.T.dot(r, out)``, row selection
    ``A[index]`` (another operator), scaling ``A / c`` and ``A /= c``, the row maxima
    ``A.max(axis=1)`` and ``np.asarray(A)`` (the dense rows, for the rare guarded step).

    ``h``: the diagonals, ``h[d]`` for shifts ``d0 .. d0 + h.size - 1``; ``k``: each row's bin
    (increasing); ``m``: the number of intervals.
    """

    ndim = 2
    dtype = np.dtype(float)

    def __init__(self, h: np.ndarray, d0: int, k: np.ndarray, m: int):
        self.h, self.d0, self.k, self.m = h, int(d0), np.asarray(k, dtype=np.intp), int(m)
        # the products run over every bin from the first row's to the last row's (a row not
        # selected gets r = 0): offsets of the rows in that range, and the part of h it needs
        self._k0 = int(self.k[0]) if self.k.size else 0
        self._pos = self.k - self._k0
        span = int(self._pos[-1]) + 1 if self.k.size else 0
        start = self._k0 - (self.m - 1) - self.d0  # h index of shift k0 - (m - 1)
        self._h = self.h[start:start + span + self.m - 1]
        self._span = span
        self.T = _Transposed(self)

    @classmethod
    def from_grid(cls, edges: np.ndarray, lo: float, L: float, bins: np.ndarray, noise,
                  method: str) -> ConvolutionResponse:
        """The response of the observed ``bins`` (increasing) on the equal-width grid ``edges``."""
        m = edges.size - 1
        d0 = int(bins[0]) - (m - 1)
        shifts = np.arange(d0, int(bins[-1]) + 1, dtype=float)
        # interval 0 against a bin `d` bins to its right: the dense formula's column 0
        h = response_pairs(edges[:2], lo + shifts * L, lo + (shifts + 1.0) * L, noise, method)
        return cls(h.reshape(-1), d0, bins, m)

    # -- shape -----------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return (self.k.size, self.m)

    @property
    def size(self) -> int:
        return self.k.size * self.m

    # -- products (Eq. 3's two mat-vecs) ------------------------------------------------------
    def dot(self, pr: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """``A @ pr``: ``sum_t h[k_s - t] pr[t]``, a correlation of h with ``pr`` reversed."""
        full = np.correlate(self._h, pr[::-1], "valid")  # every bin from k0 to the last row's
        return np.take(full, self._pos, out=out)

    def __matmul__(self, pr: np.ndarray) -> np.ndarray:
        return self.dot(pr)

    def _tdot(self, r: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """``A.T @ r``: ``sum_s h[k_s - t] r[s]``, a correlation of h with r over the bins."""
        full = np.zeros(self._span)
        full[self._pos] = r
        t = np.correlate(self._h, full, "valid")[::-1]
        if out is None:
            return t.copy()
        out[...] = t
        return out

    # -- what the preparation of the iteration uses ---------------------------------------------
    def __getitem__(self, index) -> ConvolutionResponse:
        """The rows ``index`` (a slice, integer indices or a boolean mask), as an operator."""
        return ConvolutionResponse(self.h, self.d0, self.k[index], self.m)

    def __truediv__(self, c: float) -> ConvolutionResponse:
        return ConvolutionResponse(self.h / c, self.d0, self.k, self.m)

    def __itruediv__(self, c: float) -> ConvolutionResponse:
        self.h /= c  # (self._h is a view of it)
        return self

    def max(self, axis: int) -> np.ndarray:
        """Each row's maximum (``axis=1``): the largest of its window of m diagonals."""
        if axis != 1:
            raise ValueError(f"axis must be 1, got {axis!r}")
        # row s holds h[k_s - t] for t = 0 .. m - 1: a window of m consecutive diagonals
        window = sliding_window_view(self._h, self.m)  # a view: no copy of m_w x m entries
        return window.max(axis=1)[self._pos]

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        # row s: h[k_s - t] for t = 0 .. m - 1, i.e. a window read backwards
        window = sliding_window_view(self._h, self.m)[:, ::-1]
        return np.asarray(window[self._pos], dtype=dtype)

    def __mul__(self, other):  # the guarded step's A[rows] * pr (a few rows, rarely)
        return np.asarray(self) * other

    def __repr__(self) -> str:
        return f"ConvolutionResponse(shape={self.shape})"


class _Transposed:
    """``A.T`` of a :class:`ConvolutionResponse`: its products only."""

    def __init__(self, A: ConvolutionResponse):
        self._A = A

    @property
    def shape(self) -> tuple[int, int]:
        return self._A.shape[::-1]

    @property
    def size(self) -> int:
        return self._A.size

    def dot(self, r: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        return self._A._tdot(r, out)

    def __matmul__(self, r: np.ndarray) -> np.ndarray:
        return self._A._tdot(r)
