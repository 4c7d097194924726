"""The stopping rules: the paper's chi^2 rule and held-out likelihood (cross-validation).

Agrawal & Srikant (2000), Sec. 3, "Stopping Criterion".
"""
from __future__ import annotations

import functools

import numpy as np
from scipy import special

from .._validation import check_integer, check_probability
from ._grid import check_tol

DEFAULT_TOL = 0.01  # "1% of the threshold of the chi^2 test" (Sec. 3)
#: ``reconstruct(stop=...)``: the paper's chi^2 rule, or held-out likelihood (beyond the paper)
STOP_RULES = ("paper", "cross-validation")


def chi2_threshold(m: int, tol: float = DEFAULT_TOL, level: float = 0.95) -> float:
    """The stopping threshold: ``tol`` x the ``level`` critical value of chi^2 with m-1 df.

    The paper stops "when the difference between successive estimates becomes very small (1% of
    the threshold of the chi^2 test)" (Agrawal & Srikant 2000, Sec. 3, Stopping Criterion).

    Parameters
    ----------
    m : int
        Number of intervals, >= 1 (the test has ``max(m - 1, 1)`` degrees of freedom).
    tol : float, default 0.01
        Fraction of the critical value, >= 0.
    level : float, default 0.95
        Level of the chi^2 test, strictly between 0 and 1.

    Returns
    -------
    float
        ``tol * chi2.ppf(level, max(m - 1, 1))``.

    Raises
    ------
    ValueError
        If ``m < 1``, ``tol < 0`` or ``level`` is not strictly between 0 and 1.

    Examples
    --------
    >>> round(chi2_threshold(20), 4)
    0.3014
    """
    m = check_integer(m, "m (number of intervals)", minimum=1)
    level = check_probability(level, "level", open_interval=True)
    tol = check_tol(tol)
    return tol * _chi2_critical(max(m - 1, 1), level)


def stop_threshold(m: int, tol: float) -> float:
    """:func:`chi2_threshold` at the 95 % level for arguments already checked (the loop's)."""
    return tol * _chi2_critical(max(m - 1, 1), 0.95)


@functools.lru_cache(maxsize=256)
def _chi2_critical(df: int, level: float) -> float:
    # cached: the Local tree reconstructs thousands of times on the same grid (about 6 % of
    # its time went to this inverse CDF)
    # chi2.ppf(level, df) = 2 P^-1(df/2, level) (regularized lower incomplete gamma): the same
    # bits at the 95 % level for df 1..12,000, without importing all of scipy.stats
    return float(2.0 * special.gammaincinv(df / 2.0, level))



def _peaked(j: int, best: int) -> bool:
    """The cross-validation stopping rule: after iteration ``j`` the held-out score has not
    improved for as many iterations as it took to reach its best (plus 100). Later iterations
    only fit the training folds' noise; stopping there cuts the curve, not the choice."""
    return j >= 2 * best + 100


def heldout_converged(scores: np.ndarray) -> bool:
    """Whether :func:`heldout_loglik`'s curve was cut by the stopping rule (its best score is
    behind it), not by ``max_iter`` while the score may still rise."""
    return _peaked(scores.size - 1, int(np.argmax(scores)))


def heldout_loglik(code: np.ndarray, A: np.ndarray, folds: int, max_iter: int,
                    rng: np.random.Generator) -> np.ndarray:
    """Mean held-out log-likelihood per record after 0, 1, ... iterations (K folds at once).

    All folds iterate together: the estimates are a (K, m) matrix and one update is two
    matrix products, so K folds cost about one run of the paper's loop per iteration. The
    held-out score of fold k after iteration j is sum_s C[k, s] log q_j(s), where C[k, s]
    counts fold k's perturbed values in observed bin s and q_j = normalized A @ Pr_j is the
    perturbed distribution the training folds' estimate predicts (Eq. 3's denominator).
    """
    n_bins, m = A.shape
    fold = rng.permutation(code.size)
    # fold * n_bins + code
    np.remainder(fold, folds, out=fold)
    np.multiply(fold, n_bins, out=fold)
    np.add(fold, code, out=fold)
    C = np.bincount(fold, minlength=folds * n_bins).reshape(folds, n_bins)
    del fold
    C = C.astype(float)
    train = C.sum(axis=0)[None, :] - C                       # (K, m_w) training counts
    n_train = train.sum(axis=1, keepdims=True)
    pr = np.full((folds, m), 1.0 / m)
    scores = np.full(max_iter + 1, -np.inf)
    tiny = np.finfo(float).tiny
    best = 0
    for j in range(max_iter + 1):
        D = pr @ A.T                                         # (K, m_w) predicted mass
        q = D / D.sum(axis=1, keepdims=True)
        scores[j] = float(np.sum(C * np.log(np.maximum(q, tiny)))) / code.size
        if scores[j] > scores[best]:
            best = j
        if j == max_iter or _peaked(j, best):
            scores = scores[: j + 1]
            break
        ratio = np.where(D > 0.0, train / np.where(D > 0.0, D, 1.0), 0.0)
        new = pr * (ratio @ A) / n_train                     # Eq. 3 for every fold at once
        pr = new / new.sum(axis=1, keepdims=True)
    return scores
