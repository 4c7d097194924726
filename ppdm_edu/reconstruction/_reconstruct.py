"""The public entry points: :func:`reconstruct`, :func:`reconstruct_counts`, :class:`Reconstructor`."""
from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np

from .._validation import (
    check_bool,
    check_bounds,
    check_finite_1d,
    check_integer,
    check_positive,
    finite_1d_with_range,
)
from ..random_state import check_random_state
from ..randomization import Noise, check_noise
from ._binning import bin_values
from ._convolution import CONVOLUTION_MIN_ENTRIES, ConvolutionResponse
from ._grid import _make_edges, check_edges, domain_bounds, extend_edges, reach
from ._iteration import DEFAULT_MAX_ITER, check_run_args, finish
from ._matrix import MAX_MATRIX_ENTRIES, below_probability, response_matrix, response_pairs
from ._result import Reconstruction
from ._stopping import DEFAULT_TOL, STOP_RULES, heldout_converged, heldout_loglik


def reconstruct(w, noise: Noise, bounds=None, n_intervals=None, width=None, method="bayes",
                max_iter: int = DEFAULT_MAX_ITER, tol: float = DEFAULT_TOL,
                keep_history: bool = True, stop: str = "paper", folds: int = 5,
                rng=None) -> Reconstruction:
    """Reconstruct the distribution of the original values from perturbed ``w = x + y``.

    Parameters
    ----------
    w : array-like of float, shape (n,)
        Perturbed values (no NaN or infinity).
    noise : UniformNoise or GaussianNoise
        The public noise model used to perturb.
    bounds : (low, high), optional
        Domain of the original values, split into intervals. Default: the range of the
        perturbed values ``(min(w), max(w))``, which contains the original values' range
        (noise spreads values outwards) but is wider by about the noise's reach: pass the
        attribute's known domain (e.g. ``(0, 1)``, or age 20..80) when you have it, as in the
        paper.
    n_intervals, width : int or float, optional
        Number or width of the equal-width intervals (not both). With neither, the paper's
        heuristic (Sec. 4.2): ``n / 100`` intervals bounded to 10..100.
    method : {"bayes", "em"}
        Agrawal & Srikant's iterative Bayes with mid-points (Eq. 3) or Agrawal & Aggarwal's EM
        with exact bin probabilities (see the module notes).
    max_iter : int
        At most this many iterations, from 1 to ``MAX_ITER`` (100,000): with ``tol=0`` the loop
        runs to ``max_iter``, and the history keeps one estimate per iteration.
    tol : float
        Stop when the chi^2 statistic between successive count estimates is at most ``tol``
        times the 95 % chi^2 critical value with ``m - 1`` degrees of freedom (paper: 1 %).
        ``tol=0`` runs ``max_iter`` iterations.
    keep_history : bool
        Keep the estimate after every iteration (for animations).
    stop : {"paper", "cross-validation"}
        ``"paper"``: stop by ``tol`` (Sec. 3, the default; unchanged numbers).
        ``"cross-validation"``: choose the number of iterations by held-out likelihood, which
        needs only the perturbed values and the public noise: split the records into ``folds``
        folds, run the update on K-1 folds, score the log-likelihood of the held-out fold's
        perturbed values under the predicted perturbed distribution after every iteration
        (up to ``max_iter``), take the iteration with the best mean score, then run that many
        iterations on all the data (``tol`` is then not used).
    folds : int
        Number of folds for ``stop="cross-validation"`` (2 to 20).
    rng : None, int or numpy.random.Generator
        Seed of the fold assignment (``stop="cross-validation"`` only).

    Returns
    -------
    Reconstruction
        The estimated interval probabilities and counts, the grid, the number of iterations
        and whether the stopping rule was met (with ``keep_history`` the estimate after every
        iteration).

    Raises
    ------
    ValueError
        If ``w`` is empty or not finite, an argument is out of its range, no perturbed value
        can come from ``bounds`` under ``noise``, or the problem is too large.

    Notes
    -----
    The perturbed values are counted on the same grid as the intervals, extended beyond
    ``bounds`` to cover them; only the non-empty bins enter the update. Values farther than
    the noise can reach from the domain (with uniform noise: more than alpha beyond a bound)
    are impossible for every interval and are ignored (``n_ignored``). A response matrix of
    2^17 entries or more (observed bins x intervals: many intervals, or noise far wider than an
    interval) is not stored: on this equal-width grid an entry depends only on the shift
    between bin and interval, and the update correlates the ``m_w + m - 1`` diagonals instead
    (the estimates agree with the stored matrix's to ~1e-13).

    Examples
    --------
    >>> from ppdm_edu import UniformNoise, perturb, triangles
    >>> x = triangles(5_000, 0)
    >>> noise = UniformNoise(0.5)
    >>> rec = reconstruct(perturb(x, noise, rng=0), noise, bounds=(0, 1), n_intervals=20)
    >>> round(float(rec.probabilities.sum()), 6), round(float(rec.counts.sum()))
    (1.0, 5000)
    """
    values, w_min, w_max = finite_1d_with_range(w, "w")
    noise = check_noise(noise)
    method, max_iter, tol = check_run_args(method, max_iter, tol)
    if stop not in STOP_RULES:
        raise ValueError(f"stop must be one of {', '.join(map(repr, STOP_RULES))}, got {stop!r}")
    keep_history = check_bool(keep_history, "keep_history")
    folds = check_integer(folds, "folds", minimum=2, maximum=20)  # checked even when unused
    rng = check_random_state(rng)
    if stop == "cross-validation" and values.size < 2 * folds:
        raise ValueError(f"stop='cross-validation' needs at least 2 records per fold: "
                         f"{values.size} values for {folds} folds")
    lo, hi = domain_bounds(bounds, values, (w_min, w_max))
    if bounds is None:  # (the range of w, widened if it is one value: check that it is a range)
        lo, hi = check_bounds((lo, hi))
    edges = _make_edges(lo, hi, n_intervals, width, values.size)  # (lo, hi) checked above
    m = edges.size - 1
    if m > values.size:
        _warn_few_records(m, values.size)
    L = float((edges[-1] - edges[0]) / m)
    # Bin w on the interval grid extended to cover it: bin k is [lo + k L, lo + (k+1) L).
    # Values beyond the noise's reach are clipped to a bin just outside it (they are
    # impossible for every interval either way), which keeps the indices bounded.
    # (capped so the indices stay int64 when the intervals are far narrower than the noise;
    # capped before rounding up, since with subnormal intervals the ratio overflows to inf;
    # L is 0 only when hi - lo underflows)
    k_out = int(math.ceil(min(reach(noise) / L if L > 0.0 else math.inf, 1e9))) + 2
    # non-empty bins only; each record's bin only for the cross-validation stop
    bins, N, code = bin_values(values, lo, hi, L, m, k_out, codes=stop != "paper")
    if bins.size * m > MAX_MATRIX_ENTRIES:
        raise ValueError(
            f"{bins.size} observed bins x {m} intervals is too large a problem; "
            "use fewer or wider intervals"
        )
    if stop == "paper" and bins.size * m >= CONVOLUTION_MIN_ENTRIES:
        # a large matrix on this equal-width grid is a convolution: never stored (see
        # _convolution)
        C = ConvolutionResponse.from_grid(edges, lo, L, bins, noise, method)
        return finish(edges, N, C, values.size, noise, method, max_iter, tol, keep_history,
                      owned=True, row_top=C.max(axis=1))
    ks = bins.astype(float)
    w_lower, w_upper = lo + ks * L, lo + (ks + 1.0) * L
    row_top = np.empty(bins.size)  # each row's maximum, taken while building A
    A = response_pairs(edges, w_lower, w_upper, noise, method, row_max=row_top)
    if stop == "paper":
        return finish(edges, N, A, values.size, noise, method, max_iter, tol, keep_history,
                      owned=True, row_top=row_top)
    loglik = heldout_loglik(code, A, folds, max_iter, rng)
    del code
    best = int(np.argmax(loglik))
    rec = finish(edges, N, A, values.size, noise, method, max(best, 1), 0.0, keep_history,
                 owned=True, row_top=row_top)
    if best == 0:  # the uniform start scores best: report it, not one step past it
        start = np.full(m, 1.0 / m)
        start.setflags(write=False)
        rec = dataclasses.replace(rec, probabilities=start, counts=start * rec.n, n_iter=0,
                                  history=None if rec.history is None else rec.history[:1])
    return _cross_validated(rec, loglik)


def _warn_few_records(m: int, n: int) -> None:
    # Sec. 4.2 of AS2000: about 100 records per interval. With fewer records than intervals
    # most intervals have no record to estimate them from; unless the noise is negligible the
    # likelihood is nearly flat, the paper's stop rule fires after an iteration or two and the
    # estimate stays close to its uniform start.
    warnings.warn(f"{m} intervals for {n} records: fewer than one record per interval "
                  "leaves most intervals without data to estimate them from; unless the noise is "
                  "far narrower than an interval, the reconstruction stays close to its uniform "
                  "start; use fewer or wider intervals (the paper: about 100 records per interval)",
                  UserWarning, stacklevel=3)


def _cross_validated(rec: Reconstruction, loglik: np.ndarray) -> Reconstruction:
    """``rec``, run for the held-out score's best number of iterations, as the result of the
    cross-validation stop: converged only if the score's curve was cut by that rule."""
    loglik.setflags(write=False)
    return dataclasses.replace(rec, converged=heldout_converged(loglik), stop="cross-validation",
                               heldout_loglik=loglik)



def reconstruct_counts(counts_w, matrix, edges=None, noise: Noise | None = None, n=None,
                       method: str = "bayes", max_iter: int = DEFAULT_MAX_ITER,
                       tol: float = DEFAULT_TOL, keep_history: bool = False) -> Reconstruction:
    """The iteration alone, on counts of perturbed values per observed bin.

    Use with a precomputed :func:`response_matrix` when reconstructing many subsets on the
    same grid (decision trees: per class and per node); :class:`Reconstructor` does this for
    you.

    Parameters
    ----------
    counts_w : array-like, shape (m_w,)
        Number of perturbed values in each observed bin (non-negative).
    matrix : ndarray, shape (m_w, m)
        ``response_matrix(edges, noise, w_edges, method)``.
    edges : array-like, shape (m + 1,), optional
        Interval boundaries stored in the result (default ``0..m``).
    noise : Noise, optional
        Stored in the result (needed only for ``Reconstruction.posterior``).
    n : float, optional
        Number of records the counts stand for, > 0 (default ``sum(counts_w)``).
    method : {"bayes", "em"}, default "bayes"
        How ``matrix`` was built (stored in the result).
    max_iter : int, default 1000
        Iteration limit, between 1 and :data:`MAX_ITER`.
    tol : float, default 0.01
        Stopping tolerance as a fraction of the chi^2 critical value (>= 0).
    keep_history : bool, default False
        Keep the estimate after every iteration.

    Returns
    -------
    Reconstruction
        The estimated distribution over the intervals of ``edges``.

    Raises
    ------
    ValueError
        If the shapes do not match, the counts or the matrix are negative or not finite, the
        matrix is all zero, the counts sum to 0, an argument is out of its range, or no observed
        bin can come from any interval.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import UniformNoise
    >>> from ppdm_edu.reconstruction import response_matrix
    >>> edges, w_edges = [0, 1, 2, 3], [-1, 0, 1, 2, 3, 4]
    >>> A = response_matrix(edges, UniformNoise(0.5), w_edges, method="em")
    >>> A.sum(axis=0).tolist()   # every value lands in some observed bin
    [1.0, 1.0, 1.0]
    >>> rec = reconstruct_counts([125, 750, 125, 0, 0], A, edges=edges, method="em")
    >>> rec.probabilities.round(2).tolist()   # all the mass in the first interval
    [1.0, 0.0, 0.0]
    """
    N = check_finite_1d(counts_w, "counts_w")  # (finite: checked there)
    if noise is not None:
        check_noise(noise)
    try:
        A = np.asarray(matrix, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"matrix must be an array of numbers (response_matrix(...)), got {matrix!r:.60}") from None
    _check_counts(N, A)
    return _from_counts(N, A, _matrix_row_maxima(A), edges, noise, n, method, max_iter, tol,
                        keep_history)


def _check_counts(N: np.ndarray, A: np.ndarray) -> None:
    if A.ndim != 2 or N.ndim != 1 or A.shape[0] != N.size:
        raise ValueError(
            f"matrix must have shape (len(counts_w), m); got counts of length {N.size} and "
            f"matrix of shape {A.shape}"
        )
    if not N.min() >= 0:
        raise ValueError("counts_w must be finite and non-negative")


def _from_counts(N, A, row_top, edges, noise, n, method, max_iter, tol,
                 keep_history) -> Reconstruction:
    """:func:`reconstruct_counts` once the counts and the matrix are checked (``row_top``: the
    matrix's row maxima)."""
    if not row_top.max() > 0:
        raise ValueError("matrix is all zero: no observed bin can come from any interval")
    n_counted = float(N.sum())
    if n_counted <= 0:
        raise ValueError("counts_w sums to 0: at least one perturbed value is needed")
    method, max_iter, tol = check_run_args(method, max_iter, tol)
    m = A.shape[1]
    edges = np.arange(m + 1, dtype=float) if edges is None else check_edges(edges)
    if edges.size != m + 1:
        raise ValueError(f"edges must have m + 1 = {m + 1} boundaries, got {edges.size}")
    n_total = n_counted if n is None else check_positive(n, "n")
    edges = edges.copy()
    return finish(edges, N, A, n_total, noise, method, max_iter, tol, keep_history,
                  row_top=row_top)


# entries per block of rows in the matrix check (the block size: benchmarks/engineering_notes.md)
_CHECK_BLOCK_ENTRIES = 1 << 17


def _matrix_row_maxima(A: np.ndarray) -> np.ndarray:
    """``A.max(axis=1)`` of a matrix checked to be finite and non-negative (ValueError if not).

    NaN and +inf show in the row maxima, -inf and negative entries in the minimum. A large
    matrix is read once from memory: both are taken block of rows by block of rows.
    """
    if A.size == 0:
        return np.zeros(A.shape[0])
    if A.size <= _CHECK_BLOCK_ENTRIES:
        row_top = A.max(axis=1)
        low = A.min()
    else:
        m_w, m = A.shape
        row_top = np.empty(m_w)
        rows = max(1, _CHECK_BLOCK_ENTRIES // m)
        biggest, smallest = np.maximum.reduce, np.minimum.reduce
        low = math.inf
        for s in range(0, m_w, rows):  # m_w / rows blocks (bounded by the matrix size)
            block = A[s:s + rows]
            biggest(block, axis=1, out=row_top[s:s + rows])
            low = min(low, float(smallest(block, axis=None)))  # (NaN shows in row_top)
    if not (np.isfinite(row_top).all() and low >= 0):
        raise ValueError("matrix must be finite and non-negative")
    return row_top


class Reconstructor:
    """Reconstruct many subsets quickly on one fixed grid (the response matrix is built once).

    For the decision trees' ByClass and Local variants (Sec. 4.2), which reconstruct the
    distribution of an attribute per class and per node: build one ``Reconstructor`` per
    attribute at the root and call it on each subset of perturbed values.

    Parameters
    ----------
    noise : Noise
        The public noise model used to perturb.
    edges : array-like
        Interval boundaries of the original values (e.g. from :func:`make_edges`).
    method : {"bayes", "em"}, default "bayes"
        As in :func:`reconstruct`.
    max_iter : int, default 1000
        Iteration limit per call, 1 to :data:`MAX_ITER`.
    tol : float, default 0.01
        Stopping tolerance (fraction of the chi^2 critical value), >= 0.
    w_edges : array-like, optional
        Bins for the perturbed values. Default: ``edges`` extended on both sides (with the end
        intervals' widths) by the noise's reach; values outside are counted in the end bins.
    stop : {"paper", "cross-validation"}, default "paper"
        As in :func:`reconstruct`. With ``stop="cross-validation"`` each call chooses its
        number of iterations by held-out likelihood (subsets with fewer than ``2 * folds``
        values use the paper's rule).
    folds : int, default 5
        Number of folds for ``stop="cross-validation"``, 2 to 20.
    rng : None, int or numpy.random.Generator
        Seed of the fold assignments (one stream for all calls, in call order).

    Attributes
    ----------
    matrix : ndarray, shape (m_w, m)
        The read-only response matrix (with ``"em"`` the end bins are open, so its columns
        sum to 1).
    w_edges : ndarray, shape (m_w + 1,)
        The observed bins' boundaries.

    Raises
    ------
    ValueError
        If an argument is out of its range (as in :func:`reconstruct`).

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import GaussianNoise, perturb, plateau
    >>> from ppdm_edu.reconstruction import make_edges
    >>> noise = GaussianNoise(0.25)
    >>> rc = Reconstructor(noise, make_edges((0, 1), n_intervals=20))
    >>> w = perturb(plateau(2_000, 0), noise, rng=0)
    >>> rec = rc(w[:1000])
    >>> round(float(rec.counts.sum()))
    1000
    """

    def __init__(self, noise: Noise, edges, method: str = "bayes",
                 max_iter: int = DEFAULT_MAX_ITER, tol: float = DEFAULT_TOL, w_edges=None,
                 stop: str = "paper", folds: int = 5, rng=None):
        if stop not in STOP_RULES:
            raise ValueError(f"stop must be one of {', '.join(map(repr, STOP_RULES))}, got {stop!r}")
        self.stop = stop
        self.folds = check_integer(folds, "folds", minimum=2, maximum=20)
        self.rng = check_random_state(rng)
        self.noise = check_noise(noise)
        self.edges = check_edges(edges)
        self.method, self.max_iter, self.tol = check_run_args(method, max_iter, tol)
        if w_edges is None:
            w_edges = extend_edges(self.edges, reach(self.noise))
        self.w_edges = check_edges(w_edges, "w_edges")
        self.matrix = response_matrix(self.edges, self.noise, self.w_edges, self.method)
        if self.method == "em":
            # values outside w_edges are counted in the end bins, so those bins are open:
            # add P(W < w_edges[0] | I_p) and P(W >= w_edges[-1] | I_p) (columns sum to 1)
            self.matrix[0] += below_probability(self.edges, self.w_edges[0], self.noise)
            self.matrix[-1] += 1.0 - below_probability(self.edges, self.w_edges[-1], self.noise)
            np.clip(self.matrix, 0.0, 1.0, out=self.matrix)
        self.matrix.setflags(write=False)
        # its row maxima, for every call (the matrix is checked once here, not per call; a
        # matrix that fails the check is checked, and refused, on every call as before)
        self._checked = (self.matrix, self.noise)
        try:
            self._row_top: np.ndarray | None = _matrix_row_maxima(self.matrix)
        except ValueError:
            self._row_top = None

    def bin_counts(self, w) -> np.ndarray:
        """Counts of ``w`` in the observed bins (values outside go to the end bins).

        Parameters
        ----------
        w : array-like of float, shape (n,)
            Perturbed values (finite).

        Returns
        -------
        ndarray of int, shape (m_w,)
            Number of values in each bin of :attr:`w_edges`.
        """
        values = check_finite_1d(w, "w")
        idx = np.searchsorted(self.w_edges, values, side="right") - 1
        idx = np.clip(idx, 0, self.w_edges.size - 2)
        return np.bincount(idx, minlength=self.w_edges.size - 1)

    def __call__(self, w, keep_history: bool = False) -> Reconstruction:
        """Reconstruct from the perturbed values ``w`` of one subset.

        Parameters
        ----------
        w : array-like of float, shape (n,)
            Perturbed values of the subset (finite).
        keep_history : bool, default False
            Keep the estimate after every iteration.

        Returns
        -------
        Reconstruction
            The estimated distribution over the intervals of ``edges``.
        """
        return self.from_counts(self.bin_counts(w), keep_history=keep_history)

    def from_counts(self, counts_w, keep_history: bool = False) -> Reconstruction:
        """Reconstruct from counts per observed bin (e.g. ``bin_counts(w)`` summed over nodes).

        Parameters
        ----------
        counts_w : array-like, shape (m_w,)
            Number of perturbed values in each bin of :attr:`w_edges` (non-negative).
        keep_history : bool, default False
            Keep the estimate after every iteration.

        Returns
        -------
        Reconstruction
            The estimated distribution over the intervals of ``edges`` (its ``stop`` says which
            rule chose the number of iterations).

        Raises
        ------
        ValueError
            If ``counts_w`` does not have one non-negative finite count per observed bin or
            sums to 0.
        """
        counts = np.asarray(counts_w)
        if self.stop == "paper" or not (counts.ndim == 1 and counts.size == self.matrix.shape[0]
                                        and np.all(counts >= 0) and counts.sum() >= 2 * self.folds):
            return self._counts(counts_w, self.max_iter, self.tol, keep_history)
        # one value per record in its bin (the fold split only needs the bin of each record)
        code = np.repeat(np.arange(counts.size), counts.astype(np.int64))
        loglik = heldout_loglik(code, self.matrix, self.folds, self.max_iter, self.rng)
        best = int(np.argmax(loglik))
        rec = self._counts(counts_w, max(best, 1), 0.0, keep_history)
        return _cross_validated(rec, loglik)

    def _counts(self, counts_w, max_iter, tol, keep_history) -> Reconstruction:
        """``reconstruct_counts(counts_w, self.matrix, ...)`` without re-checking the read-only
        matrix and the noise (checked in ``__init__``): the same result and errors."""
        checked = self._checked
        if (self._row_top is None or self.matrix is not checked[0] or self.noise is not checked[1]
                or self.matrix.flags.writeable):
            # (attributes replaced or made writable since __init__: check them as before)
            return reconstruct_counts(counts_w, self.matrix, edges=self.edges, noise=self.noise,
                                      method=self.method, max_iter=max_iter, tol=tol,
                                      keep_history=keep_history)
        N = check_finite_1d(counts_w, "counts_w")
        _check_counts(N, self.matrix)
        return _from_counts(N, self.matrix, self._row_top, self.edges, self.noise, None,
                            self.method, max_iter, tol, keep_history)

    def __repr__(self):
        return (f"Reconstructor({self.noise!r}, {self.edges.size - 1} intervals, "
                f"{self.w_edges.size - 1} observed bins, method={self.method!r})")

