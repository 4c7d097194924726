"""The iteration of Fig. 1 with Eq. 3 (Agrawal & Srikant 2000, Sec. 3), and its preparation."""
from __future__ import annotations

import numpy as np

from ..validation import check_bool, check_integer, check_size
from ._grid import check_method, check_tol
from ._result import Reconstruction
from ._stopping import chi2_threshold

DEFAULT_MAX_ITER = 1000
#: The most iterations any reconstruction runs: with ``tol=0`` the loop runs to ``max_iter``,
#: so an unbounded ``max_iter`` could run for hours (one iteration is O(m^2)); the paper's rule
#: stops after tens to hundreds.
MAX_ITER = 100_000
_MAX_RATIO = 1e290


def iterate(N: np.ndarray, A: np.ndarray, max_iter: int, tol: float, keep_history: bool):
    """Run Fig. 1 / Eq. 3 on observed bin counts ``N`` (m_w,) with response ``A`` (m_w, m).

    Rows of ``A`` must not be all zero. Returns (pr, n_iter, converged, history, statistic,
    threshold).
    """
    m = A.shape[1]
    n = float(N.sum())
    pr = np.full(m, 1.0 / m)  # step (1): uniform start
    threshold = chi2_threshold(m, tol)
    history = [pr] if keep_history else None
    statistic = float("nan")
    converged = False
    n_iter = 0
    AT = np.ascontiguousarray(A.T)
    for n_iter in range(1, max_iter + 1):  # noqa: B007 (n_iter is reported after the loop)
        # Eq. 3: the denominators sum_t A[s, t] Pr(X in I_t) are computed once per
        # iteration and re-used for every p (footnote 2: O(m^2) instead of O(m^3)).
        D = A @ pr
        ok = D > 0.0
        with np.errstate(over="ignore"):
            if ok.all():
                ratio = N / D
                n_eff = n
            else:
                # an observed bin that the current estimate cannot produce carries no
                # information about it: leave it out instead of dividing by zero (never NaN)
                ratio = np.where(ok, N / np.where(ok, D, 1.0), 0.0)
                n_eff = float(N[ok].sum())
                if n_eff <= 0.0:
                    break
        huge = ratio > _MAX_RATIO
        if huge.any():
            # a bin whose likelihood under the estimate is tiny (D below ~1e-300, e.g. a far
            # Gaussian tail): N / D overflows to inf. Its share of the counts is computed
            # directly instead, N_s * A[s, t] Pr_t / D_s <= N_s (exact, never inf or NaN).
            ratio = np.where(huge, 0.0, ratio)
            share = N[huge, None] * ((A[huge] * pr) / D[huge, None])
            new = (pr * (AT @ ratio) + share.sum(axis=0)) / n_eff
        else:
            new = pr * (AT @ ratio) / n_eff
        total = new.sum()
        if not total > 0.0 or not np.isfinite(total):  # pragma: no cover - defensive
            break
        new /= total
        # stopping criterion: Pearson chi^2 between successive count estimates n Pr_j
        prev = n * pr
        diff = n * new - prev
        pos = prev > 0.0
        with np.errstate(over="ignore"):  # a tiny prev: the statistic is inf, i.e. not converged
            statistic = float(np.sum(diff[pos] ** 2 / prev[pos]))
        pr = new
        if keep_history:
            history.append(pr)
        if statistic <= threshold:
            converged = True
            break
    hist = np.array(history) if keep_history else None
    return pr, n_iter, converged, hist, statistic, threshold


def check_run_args(method, max_iter, tol):
    method = check_method(method)
    max_iter = check_integer(max_iter, "max_iter", minimum=1, maximum=MAX_ITER)
    tol = check_tol(tol)
    return method, max_iter, tol


def finish(edges, N, A, n_total, noise, method, max_iter, tol, keep_history) -> Reconstruction:
    keep_history = check_bool(keep_history, "keep_history")
    possible = A.sum(axis=1) > 0.0
    n_ignored = int(N[~possible].sum())
    if n_ignored == n_total:
        raise ValueError(
            "none of the perturbed values can come from the domain "
            f"[{edges[0]}, {edges[-1]}] under {noise!r}; check bounds and the noise model"
        )
    if not possible.all():
        N, A = N[possible], A[possible]
    keep = N > 0
    if not keep.all():
        N, A = N[keep], A[keep]
    if keep_history:  # the history holds up to max_iter + 1 estimates of m probabilities
        check_size(int(max_iter) + 1, "max_iter with keep_history=True (lower max_iter or pass "
                   "keep_history=False)", per_item=int(A.shape[1]))
    # Eq. 3 is invariant to scaling A by a constant; scaling its largest entry to 1 keeps a
    # matrix of tiny (even subnormal) likelihoods from overflowing N / (A Pr) to inf.
    top = float(A.max())
    if top != 1.0:
        A = A / top
    # Eq. 3 is invariant to scaling any one row of A too; a row of far-tail likelihoods
    # (subnormal, ~1e-310) loses its digits in A @ Pr, so such rows are scaled by a power of 2
    # (exact: the same answer as for the row scaled to max 1, and no change to ordinary rows).
    row_top = A.max(axis=1)
    tiny = row_top < 1e-250
    if tiny.any():
        A = A.copy()
        A[tiny] = np.ldexp(A[tiny], -np.frexp(row_top[tiny])[1][:, None])
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
