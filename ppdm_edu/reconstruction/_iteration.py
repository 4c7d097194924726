"""The iteration of Fig. 1 with Eq. 3 (Agrawal & Srikant 2000, Sec. 3), and its preparation.

Fig. 1 of the paper::

    (1) Pr^0 := uniform distribution
        j := 0
        repeat
    (2)     Pr^{j+1}(X in I_p) := Eq. 3 applied to Pr^j, for every interval p
            j := j + 1
    (3) until (stopping criterion met)

with Eq. 3, ``A[s, t]`` the likelihood of observed bin ``I_s`` given interval ``I_t``
(``f_Y(m(I_s) - m(I_t))`` for ``"bayes"``) and ``N(I_s)`` the perturbed values in bin ``s``::

    Pr'(X in I_p) = 1/n sum_s N(I_s) A[s, p] Pr(X in I_p) / sum_t A[s, t] Pr(X in I_t)

:func:`iterate` is that loop and :func:`bayes_update` is Eq. 3, as numpy products over all
intervals and bins at once. ``A`` is a dense matrix or, for a large problem on the equal-width
grid, a :class:`~._convolution.ConvolutionResponse` (the same products without storing ``A``).
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import check_bool, check_integer, check_size
from ._grid import check_method, check_tol
from ._result import Reconstruction
from ._stopping import stop_threshold

DEFAULT_MAX_ITER = 1000
#: The most iterations any reconstruction runs: with ``tol=0`` the loop runs to ``max_iter``,
#: so an unbounded ``max_iter`` could run for hours (one iteration is O(m^2)); the paper's rule
#: stops after tens to hundreds.
MAX_ITER = 100_000
# N / D above this is computed another way (A.T @ ratio must not overflow either)
_MAX_RATIO = 1e290
# the largest matrix whose transpose is copied (see _transposed): 512 kB
_COPY_MAX_ENTRIES = 1 << 16


def iterate(N: np.ndarray, A, max_iter: int, tol: float, keep_history: bool):
    """Run Fig. 1 with Eq. 3 on observed bin counts ``N`` (m_w,) and likelihoods ``A`` (m_w, m).

    Rows of ``A`` must not be all zero and ``N`` must be positive. Returns ``(pr, n_iter,
    converged, history, statistic, threshold)``: the last estimate, the iterations run, whether
    the paper's stopping rule was met, the estimates after every iteration (row 0: the uniform
    start; None unless ``keep_history``), the last chi^2 statistic and the threshold.
    """
    m = A.shape[1]
    n = float(N.sum())
    threshold = stop_threshold(m, tol)
    AT = _transposed(A)
    pr = np.full(m, 1.0 / m)  # step (1): the uniform start
    history = [pr] if keep_history else None
    statistic = float("nan")
    for j in range(1, max_iter + 1):
        new = bayes_update(pr, A, AT, N, n)  # step (2): Eq. 3
        if new is None:  # no observed bin can come from the estimate: nothing to update
            return pr, j, False, _stack(history), statistic, threshold
        # step (3): Pearson's chi^2 between successive count estimates n Pr (Sec. 3,
        # "Stopping Criterion"), against tol x its 95 % critical value
        statistic = chi2_statistic(n * pr, n * new)
        pr = new
        if history is not None:
            history.append(pr)
        if statistic <= threshold:
            return pr, j, True, _stack(history), statistic, threshold
    return pr, max_iter, False, _stack(history), statistic, threshold


def bayes_update(pr: np.ndarray, A, AT, N: np.ndarray, n: float) -> np.ndarray | None:
    """Eq. 3 once: the new estimate from ``pr``, or None if no observed bin can come from it.

    ``AT`` is ``A.T`` (see :func:`_transposed`)::

        Pr'(X in I_p) = Pr(X in I_p) / n  sum_s A[s, p] N(I_s) / D_s
        D_s           = sum_t A[s, t] Pr(X in I_t)
    """
    D = A @ pr  # every D_s once, re-used for every p (footnote 2: O(m^2), not O(m^3))
    with np.errstate(divide="ignore", over="ignore"):
        ratio = N / D  # N(I_s) / D_s
    if not ratio.max() <= _MAX_RATIO:  # some D_s is 0 or nearly: see _guarded_update
        return _guarded_update(pr, A, AT, N, n, D)
    new = pr * (AT @ ratio) / n  # Pr(X in I_p) / n  sum_s A[s, p] N(I_s) / D_s
    total = new.sum()  # 1 up to rounding: dividing by it keeps the estimate a distribution
    return new / total if 0.0 < total < math.inf else None


def _guarded_update(pr: np.ndarray, A, AT, N: np.ndarray, n: float,
                    D: np.ndarray) -> np.ndarray | None:
    """Eq. 3 when a denominator ``D_s`` is 0 or so small that ``N_s / D_s`` overflows."""
    ok = D > 0.0
    n_eff = n
    with np.errstate(over="ignore"):
        ratio = N / np.where(ok, D, 1.0)  # (inf where N_s / D_s overflows)
    if not ok.all():
        # an observed bin that the estimate cannot produce carries no information about it:
        # leave it out of the sum and of n instead of dividing by zero (never NaN)
        ratio[~ok] = 0.0
        n_eff = float(N[ok].sum())
        if n_eff <= 0.0:
            return None
    huge = ratio > _MAX_RATIO
    share = 0.0
    if huge.any():
        # such a bin's share of the counts, N_s A[s, t] Pr_t / D_s <= N_s, is computed in
        # that order instead (exact, never inf or NaN); the other bins as in bayes_update
        ratio[huge] = 0.0
        share = (N[huge, None] * ((A[huge] * pr) / D[huge, None])).sum(axis=0)
    new = (pr * (AT @ ratio) + share) / n_eff
    total = new.sum()
    return new / total if 0.0 < total < math.inf else None


def chi2_statistic(before: np.ndarray, after: np.ndarray) -> float:
    """Pearson's chi^2 of ``after`` against ``before`` over the entries where ``before > 0``."""
    pos = before > 0.0
    with np.errstate(over="ignore"):
        return float(((after[pos] - before[pos]) ** 2 / before[pos]).sum())


def _transposed(A):
    """``A.T`` for the second product ``A.T @ r``: a C-contiguous copy when ``A`` is small.

    The copy and the view give the same estimates up to the last bits (the products are summed
    in another order); why small matrices are copied: benchmarks/engineering_notes.md.
    """
    if isinstance(A, np.ndarray) and A.size <= _COPY_MAX_ENTRIES:
        return np.ascontiguousarray(A.T)
    return A.T  # (a ConvolutionResponse's A.T: its products, never a matrix)


def _stack(history):
    return None if history is None else np.array(history)


def check_run_args(method, max_iter, tol):
    """The checked ``(method, max_iter, tol)`` of a reconstruction."""
    method = check_method(method)
    max_iter = check_integer(max_iter, "max_iter", minimum=1, maximum=MAX_ITER)
    tol = check_tol(tol)
    return method, max_iter, tol


def finish(edges, N, A, n_total, noise, method, max_iter, tol, keep_history,
           owned: bool = False, row_top: np.ndarray | None = None) -> Reconstruction:
    """Prepare ``A`` (drop impossible/empty bins, scale) and run :func:`iterate`.

    ``owned``: ``A`` was built for this call and may be scaled in place (no copy). ``A`` is a
    matrix or a :class:`~._convolution.ConvolutionResponse` (the same rows, never stored).
    ``row_top``: ``A.max(axis=1)`` if the caller has it.
    """
    keep_history = check_bool(keep_history, "keep_history")
    if row_top is None:
        row_top = A.max(axis=1)
    N, A, row_top, n_ignored, owned = _observed_rows(edges, noise, N, A, row_top, n_total, owned)
    if keep_history:  # the history holds up to max_iter + 1 estimates of m probabilities
        check_size(int(max_iter) + 1, "max_iter with keep_history=True (lower max_iter or pass "
                   "keep_history=False)", per_item=int(A.shape[1]))
    A = _scaled(A, row_top, owned)
    pr, n_iter, converged, history, statistic, threshold = iterate(
        N.astype(float), A, max_iter, tol, keep_history
    )
    for arr in (edges, pr) + ((history,) if history is not None else ()):
        arr.setflags(write=False)
    counts = n_total * pr
    counts.setflags(write=False)
    return Reconstruction(
        edges=edges, probabilities=pr, counts=counts, n_iter=int(n_iter),
        converged=bool(converged), history=history, method=method, noise=noise,
        n=int(n_total), n_ignored=n_ignored, statistic=statistic, threshold=threshold,
    )


def _observed_rows(edges, noise, N, A, row_top, n_total, owned):
    """The bins that enter Eq. 3: ``(N, A, row_top, n_ignored, owned)`` without the empty bins
    and the bins no interval can produce (``n_ignored`` values in those)."""
    possible = row_top > 0.0  # A >= 0: a row sums to > 0 exactly when its maximum is > 0
    n_ignored = int(N[~possible].sum())
    if n_ignored == n_total:
        raise ValueError(
            "none of the perturbed values can come from the domain "
            f"[{edges[0]}, {edges[-1]}] under {noise!r}; check bounds and the noise model"
        )
    keep = possible & (N > 0)
    if keep.all():
        return N, A, row_top, n_ignored, owned
    idx = np.flatnonzero(keep)
    first, last = int(idx[0]), int(idx[-1]) + 1
    if last - first == idx.size:
        # one run of rows (e.g. counts on a grid with empty tails): a view, not a copy of A
        return N[first:last], A[first:last], row_top[first:last], n_ignored, owned
    return N[idx], A[idx], row_top[idx], n_ignored, True


def _scaled(A, row_top: np.ndarray, owned: bool):
    """``A`` with its largest entry scaled to 1, and rows of far-tail likelihoods by powers of 2.

    Eq. 3 is invariant to scaling A by a constant, and to scaling any one row: the largest
    entry at 1 keeps a matrix of tiny (even subnormal) likelihoods from overflowing N / (A Pr),
    and a row of far-tail likelihoods (~1e-310) would lose its digits in A @ Pr. A power of 2
    is exact: ordinary rows keep their bits. ``owned``: ``A`` may be changed in place.
    """
    top = float(row_top.max())
    if top != 1.0:
        if owned:
            A /= top
        else:
            A, owned = A / top, True
        row_top = row_top / top
    tiny = row_top < 1e-250
    if tiny.any():
        if not owned or not isinstance(A, np.ndarray):
            A = np.array(A)  # (a ConvolutionResponse becomes its dense rows here: rare)
        shift = -np.frexp(row_top[tiny])[1]
        A[tiny] = np.ldexp(A[tiny], shift[:, None])
    return A
