"""Reconstructing the original distribution from perturbed values (Agrawal & Srikant 2000, Sec. 3).

The server sees only ``w_i = x_i + y_i`` and the public noise distribution ``f_Y``. It estimates
the distribution of ``X`` over a partition of the domain into intervals ``I_1..I_m``:

* ``method="bayes"`` -- the paper's iterative Bayes procedure with partitioning (Fig. 1, Eq. 3)::

      Pr'(X in I_p) = 1/n sum_s N(I_s) f_Y(m(I_s) - m(I_p)) Pr(X in I_p)
                                      / sum_t f_Y(m(I_s) - m(I_t)) Pr(X in I_t)

  where ``N(I_s)`` counts the perturbed values in observed bin ``I_s`` and ``m(.)`` is an
  interval's mid-point. The start is uniform.
* ``method="em"`` -- the EM algorithm of Agrawal & Aggarwal (PODS 2001). Same update, but the
  mid-point density ``f_Y(m(I_s) - m(I_p))`` is replaced by the exact probability that a value
  uniform in ``I_p`` lands in the observed bin ``I_s`` after noise (differences of the noise
  CDF). Each update increases the likelihood of the binned data, so EM converges to the
  maximum-likelihood estimate of the interval probabilities.

Both share one vectorized update: with ``A[s, p]`` the (approximate) probability of observed
bin ``s`` given interval ``p`` and ``D = A @ Pr`` the denominators (computed once per iteration
and re-used for every ``p``, the paper's footnote 2), one iteration is
``Pr' = Pr * (A.T @ (N / D)) / n`` -- O(m_w x m) work, no loop over records.

Stopping criterion (Sec. 3, "Stopping Criterion"): the paper compares successive estimates and
stops "when the difference ... becomes very small (1% of the threshold of the chi^2 test)". We
use Pearson's statistic between successive *count* estimates,
``chi2 = sum_p (N_{j+1}(I_p) - N_j(I_p))^2 / N_j(I_p)`` with ``N_j = n Pr_j``, and stop when it
is at most ``tol`` (default 0.01) times the 95 % critical value of chi^2 with ``m - 1`` degrees of
freedom -- the threshold a goodness-of-fit test of one estimate against the other would use.

Examples
--------
>>> import numpy as np
>>> from ppdm_edu import GaussianNoise, perturb, plateau, reconstruct
>>> x = plateau(10_000, 0)
>>> noise = GaussianNoise(0.25)
>>> rec = reconstruct(perturb(x, noise, rng=1), noise, bounds=(0, 1), width=0.05)
>>> rec.probabilities.shape, bool(rec.converged)
((20,), True)
>>> truth = interval_distribution(x, rec.edges)
>>> bool(total_variation(rec.probabilities, truth) < 0.1)
True
"""
from __future__ import annotations

import dataclasses
import functools
import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .randomization import Noise
from .validation import (
    check_bool,
    check_bounds,
    check_finite_1d,
    check_integer,
    check_noise,
    check_positive,
    check_probabilities,
    check_probability,
    check_random_state,
    check_size,
)

__all__ = [
    "Reconstruction",
    "Reconstructor",
    "reconstruct",
    "reconstruct_counts",
    "response_matrix",
    "make_edges",
    "default_n_intervals",
    "interval_distribution",
    "total_variation",
    "sample_total_variation",
    "posterior",
    "chi2_threshold",
    "METHODS",
    "DEFAULT_MAX_ITER",
    "DEFAULT_TOL",
    "MAX_ITER",
]

METHODS = ("bayes", "em")
DEFAULT_MAX_ITER = 1000
DEFAULT_TOL = 0.01  # "1% of the threshold of the chi^2 test" (Sec. 3)
#: The most iterations any reconstruction runs: with ``tol=0`` the loop runs to ``max_iter``,
#: so an unbounded ``max_iter`` could run for hours (one iteration is O(m^2)); the paper's rule
#: stops after tens to hundreds.
MAX_ITER = 100_000
#: ``reconstruct(stop=...)``: the paper's chi^2 rule, or held-out likelihood (beyond the paper)
STOP_RULES = ("paper", "cross-validation")
# A response matrix larger than this (m_w x m entries) would need hundreds of MB.
_MAX_MATRIX_ENTRIES = 20_000_000
_MAX_INTERVALS = 10_000
_MAX_EXTENSION = 5_000
# Perturbed values farther than this from the domain cannot have come from it (noise support).
_REACH_COVERAGE = 1.0 - 1e-12


# ---------------------------------------------------------------------------------------------
# result
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Reconstruction:
    """The reconstructed distribution of ``X`` over intervals (result of :func:`reconstruct`).

    Attributes
    ----------
    edges : ndarray, shape (m + 1,)
        Interval boundaries; interval ``p`` is ``[edges[p], edges[p+1])``.
    probabilities : ndarray, shape (m,)
        Estimated ``Pr(X in I_p)``: non-negative, summing to 1.
    counts : ndarray, shape (m,)
        Estimated ``N(I_p) = n Pr(X in I_p)`` (``n`` = number of perturbed values given).
    n_iter : int
        Number of iterations run.
    converged : bool
        True if the stopping criterion was met before ``max_iter``.
    history : ndarray, shape (n_iter + 1, m), or None
        The estimate after each iteration, row 0 being the uniform start (None unless
        ``keep_history``).
    method : str
        ``"bayes"`` or ``"em"``.
    noise : Noise
        The noise model used (needed by :meth:`posterior`).
    n : int
        Number of perturbed values.
    n_ignored : int
        Values that no interval of the domain can produce under the noise (e.g. further than
        alpha from the domain with uniform noise); they are left out of the update.
    statistic : float
        Chi^2 statistic between the last two estimates (see the module notes).
    threshold : float
        The stopping threshold it was compared with (``tol`` x chi^2 critical value).
    stop : str
        The stopping rule: ``"paper"`` (chi^2 of successive estimates) or
        ``"cross-validation"`` (iterations chosen by held-out likelihood).
    heldout_loglik : ndarray, shape (n_candidates,), or None
        With ``stop="cross-validation"``: the mean held-out log-likelihood per record after
        0, 1, 2, ... iterations (its argmax is ``n_iter``); the curve stops once it has not
        improved for ``n_iter + 100`` iterations, or at ``max_iter``.

    Examples
    --------
    >>> from ppdm_edu import UniformNoise, perturb, plateau
    >>> noise = UniformNoise(0.25)
    >>> rec = reconstruct(perturb(plateau(2000, 0), noise, rng=1), noise, bounds=(0, 1),
    ...                   n_intervals=10)
    >>> rec.n_intervals, round(float(rec.cdf()[-1]), 6)
    (10, 1.0)
    >>> list(rec.to_frame().columns)
    ['lower', 'upper', 'probability', 'count']
    >>> rec.posterior([0.5]).shape         # one row per value, one column per interval
    (1, 10)
    >>> float(rec.posterior_mean([1.1])[0]) > 0.75   # w = 1.1 means x >= 0.85
    True
    """

    edges: np.ndarray
    probabilities: np.ndarray
    counts: np.ndarray
    n_iter: int
    converged: bool
    history: np.ndarray | None = None
    method: str = "bayes"
    noise: Noise | None = None
    n: int = 0
    n_ignored: int = 0
    statistic: float = float("nan")
    threshold: float = float("nan")
    stop: str = "paper"
    heldout_loglik: np.ndarray | None = None

    @property
    def midpoints(self) -> np.ndarray:
        """Interval mid-points ``m(I_p)``."""
        return 0.5 * (self.edges[:-1] + self.edges[1:])

    @property
    def widths(self) -> np.ndarray:
        """Interval widths ``L_p``."""
        return np.diff(self.edges)

    @property
    def density(self) -> np.ndarray:
        """Average density over each interval, ``f_X(I_p) = Pr(X in I_p) / L_p``."""
        return self.probabilities / self.widths

    @property
    def n_intervals(self) -> int:
        """Number of intervals ``m`` (the length of :attr:`probabilities`)."""
        return int(self.probabilities.size)

    def cdf(self) -> np.ndarray:
        """Estimated ``F_X`` at the right edge of each interval.

        Returns
        -------
        ndarray, shape (m,)
            ``F_X(edges[p + 1]) = sum_{q <= p} Pr(X in I_q)``; non-decreasing, last entry 1 (up
            to rounding).
        """
        return np.cumsum(self.probabilities)

    def posterior(self, w, method: str | None = None) -> np.ndarray:
        """``P(X in I_p | W = w_i)`` for each value, using this estimate as the prior.

        Bayes' rule for one record (Agrawal & Srikant 2000, start of Sec. 3), discretized on this
        result's intervals; see :func:`posterior`.

        Parameters
        ----------
        w : array-like of float, shape (n,)
            Perturbed values (finite).
        method : {"bayes", "em"} or None, default None
            Likelihood of ``w`` given an interval: mid-point density (``"bayes"``) or the exact
            average over the interval (``"em"``). None uses the method of this reconstruction.

        Returns
        -------
        ndarray, shape (n, m)
            Row ``i`` is the posterior distribution of ``x_i`` over the intervals; rows sum
            to 1.

        Raises
        ------
        ValueError
            If ``w`` is not finite and 1-d or ``method`` is unknown.
        TypeError
            If this result has no noise model (``noise=None``, e.g. from
            :func:`reconstruct_counts` called without one).
        """
        return posterior(w, self.edges, self.probabilities, self.noise,
                         method=self.method if method is None else method)

    def posterior_mean(self, w, method: str | None = None) -> np.ndarray:
        """The posterior mean of each individual value (mid-point approximation).

        The attacker's best guess (in squared error) of ``x_i`` from ``w_i`` with this
        reconstruction as the prior: ``sum_p P(X in I_p | w_i) m(I_p)``.

        Parameters
        ----------
        w : array-like of float, shape (n,)
            Perturbed values (finite).
        method : {"bayes", "em"} or None, default None
            As in :meth:`posterior` (None: the method of this reconstruction).

        Returns
        -------
        ndarray, shape (n,)
            Posterior mean of each original value, using the interval mid-points.
        """
        return self.posterior(w, method) @ self.midpoints

    def to_frame(self):
        """A DataFrame with one row per interval (lower, upper, probability, count).

        Returns
        -------
        pandas.DataFrame
            Columns ``lower`` and ``upper`` (the interval's edges), ``probability``
            (``Pr(X in I_p)``) and ``count`` (``n Pr(X in I_p)``); ``m`` rows.
        """
        import pandas as pd

        return pd.DataFrame({
            "lower": self.edges[:-1], "upper": self.edges[1:],
            "probability": self.probabilities, "count": self.counts,
        })


# ---------------------------------------------------------------------------------------------
# input checks and the interval grid
# ---------------------------------------------------------------------------------------------
def _check_method(method) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    return method


def _check_tol(tol) -> float:
    return check_positive(tol, "tol", allow_zero=True)


def _check_bounds(bounds, w: np.ndarray | None = None) -> tuple[float, float]:
    if bounds is None:
        if w is None:
            raise ValueError("bounds are needed")
        lo, hi = float(w.min()), float(w.max())
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
    lo, hi = _check_bounds(bounds)
    if n is not None:
        n = check_integer(n, "n", minimum=1)
    if n_intervals is not None and width is not None:
        raise ValueError("give n_intervals or width, not both")
    if width is not None:
        width = check_positive(width, "width")
        m = max(1, int(math.ceil((hi - lo) / width - 1e-9)))
        if m > _MAX_INTERVALS:
            raise ValueError(
                f"width {width} gives {m} intervals over ({lo}, {hi}); at most "
                f"{_MAX_INTERVALS} are allowed: use a larger width"
            )
        return lo + width * np.arange(m + 1)
    if n_intervals is None:
        if n is None:
            raise ValueError("give n_intervals, width or n (for the default heuristic)")
        n_intervals = default_n_intervals(n)
    m = check_integer(n_intervals, "n_intervals", minimum=1, maximum=_MAX_INTERVALS)
    return np.linspace(lo, hi, m + 1)


def _check_edges(edges, name="edges") -> np.ndarray:
    e = check_finite_1d(edges, name)
    if e.size < 2 or np.any(np.diff(e) <= 0):
        raise ValueError(f"{name} must be at least two strictly increasing boundaries")
    return e


def _reach(noise: Noise) -> float:
    """Half-width of an interval that holds the noise with probability 1 - 1e-12."""
    return float(noise.support(_REACH_COVERAGE)[1])


def _extend_edges(edges: np.ndarray, reach: float) -> np.ndarray:
    """``edges`` extended on both sides with intervals of the end widths to cover +-reach."""
    # at most _MAX_EXTENSION bins a side: wider ones when the noise dwarfs the intervals
    left_w = max(edges[1] - edges[0], reach / _MAX_EXTENSION)
    right_w = max(edges[-1] - edges[-2], reach / _MAX_EXTENSION)
    k_left = int(math.ceil(reach / left_w)) + 1
    k_right = int(math.ceil(reach / right_w)) + 1
    left = edges[0] - left_w * np.arange(k_left, 0, -1)
    right = edges[-1] + right_w * np.arange(1, k_right + 1)
    return np.concatenate([left, edges, right])


# ---------------------------------------------------------------------------------------------
# the response matrix A[s, p] ~ P(observed bin s | X in interval p)
# ---------------------------------------------------------------------------------------------
def _below(edges: np.ndarray, c: float, noise: Noise) -> np.ndarray:
    """P(W < c | X ~ Uniform(I_p)) = [G(c - a_p) - G(c - b_p)] / L_p for each interval."""
    a, b = edges[:-1], edges[1:]
    if float(np.min(b - a)) < 1e-4 * noise.std:  # first difference would lose its digits
        return np.clip(noise.cdf(c - 0.5 * (a + b)), 0.0, 1.0)
    try:
        return np.clip((noise.cdf_integral(c - a) - noise.cdf_integral(c - b)) / (b - a), 0, 1)
    except NotImplementedError:
        nodes, weights = np.polynomial.legendre.leggauss(16)
        out = np.zeros(a.size)
        for node, weight in zip(nodes, weights):
            out += 0.5 * weight * noise.cdf(c - (a + 0.5 * (node + 1.0) * (b - a)))
        return out


def response_matrix(edges, noise: Noise, w_edges=None, method: str = "bayes") -> np.ndarray:
    """The ``m_w x m`` matrix ``A[s, p] ~ P(W in observed bin s | X in interval p)``.

    Parameters
    ----------
    edges : array-like, shape (m + 1,)
        Boundaries of the intervals of the original values.
    noise : Noise
        The public noise model.
    w_edges : array-like, shape (m_w + 1,), optional
        Boundaries of the bins the perturbed values are counted in (default: ``edges``).
    method : {"bayes", "em"}
        ``"bayes"``: the paper's mid-point approximation ``f_Y(m(I_s) - m(I_p)) L_s`` (Sec. 3);
        columns sum to about 1 over a grid that covers the noise. ``"em"``: the exact
        probability for a value uniform in ``I_p`` (differences of the noise CDF), as in
        Agrawal & Aggarwal (2001); columns sum to exactly the probability of landing inside
        ``w_edges``.

    Returns
    -------
    ndarray, shape (m_w, m)
        ``A[s, p]``, the probability (``"em"``) or its mid-point approximation (``"bayes"``)
        that a value of interval ``p`` is observed in bin ``s`` after noise.

    Raises
    ------
    ValueError
        If the edges are not strictly increasing, ``method`` is unknown, or the matrix would
        have more than 20 million entries.
    TypeError
        If ``noise`` is not a noise model.

    Examples
    --------
    >>> from ppdm_edu import UniformNoise
    >>> A = response_matrix([0, 1, 2, 3], UniformNoise(0.5), method="em")
    >>> A.round(3).tolist()
    [[0.75, 0.125, 0.0], [0.125, 0.75, 0.125], [0.0, 0.125, 0.75]]
    """
    edges = _check_edges(edges)
    w_edges = edges if w_edges is None else _check_edges(w_edges, "w_edges")
    noise = check_noise(noise)
    method = _check_method(method)
    if (w_edges.size - 1) * (edges.size - 1) > _MAX_MATRIX_ENTRIES:
        raise ValueError(
            f"the response matrix would have {(w_edges.size - 1) * (edges.size - 1)} entries "
            f"(more than {_MAX_MATRIX_ENTRIES}); use fewer or wider intervals"
        )
    return _response_pairs(edges, w_edges[:-1], w_edges[1:], noise, method)


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
    tol = _check_tol(tol)
    return tol * _chi2_critical(max(m - 1, 1), level)


@functools.lru_cache(maxsize=256)
def _chi2_critical(df: int, level: float) -> float:
    # cached: the Local tree reconstructs thousands of times on the same grid (about 6 % of
    # its time went to this inverse CDF)
    return float(stats.chi2.ppf(level, df))


# ---------------------------------------------------------------------------------------------
# the iteration (Fig. 1 with Eq. 3)
# ---------------------------------------------------------------------------------------------
# N / D above this is computed another way (A @ ratio must not overflow either)
_MAX_RATIO = 1e290


def _iterate(N: np.ndarray, A: np.ndarray, max_iter: int, tol: float, keep_history: bool):
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


def _check_run_args(method, max_iter, tol):
    method = _check_method(method)
    max_iter = check_integer(max_iter, "max_iter", minimum=1, maximum=MAX_ITER)
    tol = _check_tol(tol)
    return method, max_iter, tol


def _finish(edges, N, A, n_total, noise, method, max_iter, tol, keep_history) -> Reconstruction:
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
    pr, n_iter, converged, history, statistic, threshold = _iterate(
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
    are impossible for every interval and are ignored (``n_ignored``).

    Examples
    --------
    >>> from ppdm_edu import UniformNoise, perturb, triangles
    >>> x = triangles(5_000, 0)
    >>> noise = UniformNoise(0.5)
    >>> rec = reconstruct(perturb(x, noise, rng=0), noise, bounds=(0, 1), n_intervals=20)
    >>> round(float(rec.probabilities.sum()), 6), round(float(rec.counts.sum()))
    (1.0, 5000)
    """
    values = check_finite_1d(w, "w")
    noise = check_noise(noise)
    method, max_iter, tol = _check_run_args(method, max_iter, tol)
    if stop not in STOP_RULES:
        raise ValueError(f"stop must be one of {', '.join(map(repr, STOP_RULES))}, got {stop!r}")
    keep_history = check_bool(keep_history, "keep_history")
    folds = check_integer(folds, "folds", minimum=2, maximum=20)  # checked even when unused
    rng = check_random_state(rng)
    if stop == "cross-validation":
        if values.size < 2 * folds:
            raise ValueError(f"stop='cross-validation' needs at least 2 records per fold: "
                             f"{values.size} values for {folds} folds")
    lo, hi = _check_bounds(bounds, values)
    edges = make_edges((lo, hi), n_intervals=n_intervals, width=width, n=values.size)
    m = edges.size - 1
    if m > values.size:
        # Sec. 4.2 of AS2000: about 100 records per interval. With fewer records than intervals
        # most intervals have no record to estimate them from; unless the noise is negligible the
        # likelihood is nearly flat, the paper's stop rule fires after an iteration or two and the
        # estimate stays close to its uniform start (issue 27: 1 iteration at 2,000 / 5,000).
        warnings.warn(f"{m} intervals for {values.size} records: fewer than one record per interval "
                      "leaves most intervals without data to estimate them from; unless the noise is "
                      "far narrower than an interval, the reconstruction stays close to its uniform "
                      "start; use fewer or wider intervals (the paper: about 100 records per interval)",
                      UserWarning, stacklevel=2)
    L = (edges[-1] - edges[0]) / m
    # Bin w on the interval grid extended to cover it: bin k is [lo + k L, lo + (k+1) L).
    # Values beyond the noise's reach are clipped to a bin just outside it (they are
    # impossible for every interval either way), which keeps the indices bounded.
    # (capped so the indices stay int64 when the intervals are far narrower than the noise;
    # capped before rounding up, since with subnormal intervals the ratio overflows to inf)
    with np.errstate(over="ignore"):
        k_out = int(math.ceil(min(_reach(noise) / L, 1e9))) + 2
    k = np.floor((np.clip(values, lo - (k_out + 1) * L, hi + (k_out + 1) * L) - lo) / L)
    k = np.clip(k, -k_out, m - 1 + k_out).astype(np.int64)
    bins, code, N = np.unique(k, return_inverse=True, return_counts=True)  # non-empty bins only
    if bins.size * m > _MAX_MATRIX_ENTRIES:
        raise ValueError(
            f"{bins.size} observed bins x {m} intervals is too large a problem; "
            "use fewer or wider intervals"
        )
    ks = bins.astype(float)
    w_lower, w_upper = lo + ks * L, lo + (ks + 1.0) * L
    A = _response_pairs(edges, w_lower, w_upper, noise, method)
    if stop == "paper":
        return _finish(edges, N, A, values.size, noise, method, max_iter, tol, keep_history)
    loglik = _heldout_loglik(code.ravel(), A, folds, max_iter, check_random_state(rng))
    best = int(np.argmax(loglik))
    rec = _finish(edges, N, A, values.size, noise, method, max(best, 1), 0.0, keep_history)
    if best == 0:  # the uniform start scores best: report it, not one step past it
        start = np.full(m, 1.0 / m)
        start.setflags(write=False)
        rec = dataclasses.replace(rec, probabilities=start, counts=start * rec.n, n_iter=0,
                                  history=None if rec.history is None else rec.history[:1])
    loglik.setflags(write=False)
    return dataclasses.replace(rec, converged=True, stop="cross-validation", heldout_loglik=loglik)


def _heldout_loglik(code: np.ndarray, A: np.ndarray, folds: int, max_iter: int,
                    rng: np.random.Generator) -> np.ndarray:
    """Mean held-out log-likelihood per record after 0, 1, ... iterations (K folds at once).

    All folds iterate together: the estimates are a (K, m) matrix and one update is two
    matrix products, so K folds cost about one run of the paper's loop per iteration. The
    held-out score of fold k after iteration j is sum_s C[k, s] log q_j(s), where C[k, s]
    counts fold k's perturbed values in observed bin s and q_j = normalized A @ Pr_j is the
    perturbed distribution the training folds' estimate predicts (Eq. 3's denominator).
    """
    n_bins, m = A.shape
    fold = rng.permutation(code.size) % folds
    C = np.bincount(fold * n_bins + code, minlength=folds * n_bins).reshape(folds, n_bins)
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
        # patience: once the score has not improved for as many iterations as it took to
        # reach its best (plus 100), later iterations only fit the training folds' noise;
        # stopping there keeps the panel live (the curve is then cut, not the choice)
        if j == max_iter or j >= 2 * best + 100:
            scores = scores[: j + 1]
            break
        ratio = np.where(D > 0.0, train / np.where(D > 0.0, D, 1.0), 0.0)
        new = pr * (ratio @ A) / n_train                     # Eq. 3 for every fold at once
        pr = new / new.sum(axis=1, keepdims=True)
    return scores


def _response_pairs(edges, w_lower, w_upper, noise, method) -> np.ndarray:
    """Response matrix for observed bins ``[w_lower[s], w_upper[s])`` (need not be contiguous).

    ``"em"``: exact P(W in [c_s, d_s) | X ~ Uniform[a_p, b_p)) (Agrawal & Aggarwal 2001),
    ``1/L_p int_{a_p}^{b_p} [F_Y(d_s - x) - F_Y(c_s - x)] dx
    = [G(d_s - a_p) - G(d_s - b_p) - G(c_s - a_p) + G(c_s - b_p)] / L_p`` with ``G' = F_Y``.
    ``"bayes"``: the paper's mid-point approximation ``f_Y(m(I_s) - m(I_p)) L_s`` (Sec. 3).
    """
    # With intervals far narrower than the noise, the exact formula below is a second
    # difference of numbers ~scale apart from values ~L^2 f_Y: it loses every digit. There the
    # mid-point value is exact to O(L^2) relative error, so use it.
    narrow = min(float(np.min(np.diff(edges))), float(np.min(w_upper - w_lower)))
    if method == "em" and narrow >= 1e-4 * noise.std:
        a, b = edges[None, :-1], edges[None, 1:]
        c, d = w_lower[:, None], w_upper[:, None]
        L = b - a
        try:
            P = (noise.cdf_integral(d - a) - noise.cdf_integral(d - b)
                 - noise.cdf_integral(c - a) + noise.cdf_integral(c - b)) / L
        except NotImplementedError:
            # any other noise model: Gauss-Legendre quadrature of the CDF difference over I_p
            nodes, weights = np.polynomial.legendre.leggauss(16)
            P = np.zeros((c.shape[0], a.shape[1]))
            for node, weight in zip(nodes, weights):
                x = a + 0.5 * (node + 1.0) * L
                P += 0.5 * weight * (noise.cdf(d - x) - noise.cdf(c - x))
        # differences of nearly equal numbers can dip a hair below 0 or above 1
        return np.clip(P, 0.0, 1.0)
    mx = 0.5 * (edges[:-1] + edges[1:])
    mw = 0.5 * (w_lower + w_upper)
    Lw = w_upper - w_lower
    return _midpoint_pdf(noise, mw[:, None] - mx[None, :], float(Lw.min())) * Lw[:, None]


def _midpoint_pdf(noise: Noise, d: np.ndarray, scale: float) -> np.ndarray:
    """``f_Y(d)`` for mid-point distances, with the average of the one-sided limits at a jump.

    Mid-point distances are multiples of the interval width up to rounding, so with uniform
    noise whose alpha is such a multiple, rounding alone would decide whether a bin exactly
    alpha away counts (``|d| <= alpha``): the matrix becomes asymmetric and the estimate
    oscillates. At a jump the noise gives the mean of the two limits (the usual convention for
    a discontinuous integrand in a mid-point/trapezoid rule; ``Noise.pdf_averaged_at_jumps``).
    """
    return noise.pdf_averaged_at_jumps(d, atol=1e-9 * max(scale, noise.scale))


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
    >>> edges, w_edges = [0, 1, 2, 3], [-1, 0, 1, 2, 3, 4]
    >>> A = response_matrix(edges, UniformNoise(0.5), w_edges, method="em")
    >>> A.sum(axis=0).tolist()   # every value lands in some observed bin
    [1.0, 1.0, 1.0]
    >>> rec = reconstruct_counts([125, 750, 125, 0, 0], A, edges=edges, method="em")
    >>> rec.probabilities.round(2).tolist()   # all the mass in the first interval
    [1.0, 0.0, 0.0]
    """
    N = check_finite_1d(counts_w, "counts_w")
    if noise is not None:
        check_noise(noise)
    A = np.asarray(matrix, dtype=float)
    if A.ndim != 2 or N.ndim != 1 or A.shape[0] != N.size:
        raise ValueError(
            f"matrix must have shape (len(counts_w), m); got counts of length {N.size} and "
            f"matrix of shape {A.shape}"
        )
    if not (np.isfinite(N).all() and (N >= 0).all()):
        raise ValueError("counts_w must be finite and non-negative")
    if not (np.isfinite(A).all() and (A >= 0).all()):
        raise ValueError("matrix must be finite and non-negative")
    if not A.max() > 0:
        raise ValueError("matrix is all zero: no observed bin can come from any interval")
    if N.sum() <= 0:
        raise ValueError("counts_w sums to 0: at least one perturbed value is needed")
    method, max_iter, tol = _check_run_args(method, max_iter, tol)
    m = A.shape[1]
    edges = np.arange(m + 1, dtype=float) if edges is None else _check_edges(edges)
    if edges.size != m + 1:
        raise ValueError(f"edges must have m + 1 = {m + 1} boundaries, got {edges.size}")
    n_total = float(N.sum()) if n is None else check_positive(n, "n")
    edges = edges.copy()
    return _finish(edges, N, A, n_total, noise, method, max_iter, tol, keep_history)


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
        self.edges = _check_edges(edges)
        self.method, self.max_iter, self.tol = _check_run_args(method, max_iter, tol)
        if w_edges is None:
            w_edges = _extend_edges(self.edges, _reach(self.noise))
        self.w_edges = _check_edges(w_edges, "w_edges")
        self.matrix = response_matrix(self.edges, self.noise, self.w_edges, self.method)
        if self.method == "em":
            # values outside w_edges are counted in the end bins, so those bins are open:
            # add P(W < w_edges[0] | I_p) and P(W >= w_edges[-1] | I_p) (columns sum to 1)
            self.matrix[0] += _below(self.edges, self.w_edges[0], self.noise)
            self.matrix[-1] += 1.0 - _below(self.edges, self.w_edges[-1], self.noise)
            np.clip(self.matrix, 0.0, 1.0, out=self.matrix)
        self.matrix.setflags(write=False)

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
        run = dict(edges=self.edges, noise=self.noise, method=self.method,
                   keep_history=keep_history)
        counts = np.asarray(counts_w)
        if self.stop == "paper" or not (counts.ndim == 1 and counts.size == self.matrix.shape[0]
                                        and np.all(counts >= 0) and counts.sum() >= 2 * self.folds):
            return reconstruct_counts(counts_w, self.matrix, max_iter=self.max_iter, tol=self.tol,
                                      **run)
        # one value per record in its bin (the fold split only needs the bin of each record)
        code = np.repeat(np.arange(counts.size), counts.astype(np.int64))
        loglik = _heldout_loglik(code, self.matrix, self.folds, self.max_iter, self.rng)
        best = int(np.argmax(loglik))
        rec = reconstruct_counts(counts_w, self.matrix, max_iter=max(best, 1), tol=0.0, **run)
        loglik.setflags(write=False)
        return dataclasses.replace(rec, converged=True, stop="cross-validation",
                                   heldout_loglik=loglik)

    def __repr__(self):
        return (f"Reconstructor({self.noise!r}, {self.edges.size - 1} intervals, "
                f"{self.w_edges.size - 1} observed bins, method={self.method!r})")


# ---------------------------------------------------------------------------------------------
# helpers for evaluation and for attacks
# ---------------------------------------------------------------------------------------------
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
    edges = _check_edges(edges)
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
    e = _check_edges(edges)
    lo = min(a.min(), b.min(), e[0])
    hi = max(a.max(), b.max(), e[-1])
    left_w, right_w = e[1] - e[0], e[-1] - e[-2]
    k_left = int(math.ceil((e[0] - lo) / left_w)) + 1
    k_right = int(math.ceil((hi - e[-1]) / right_w)) + 1
    if k_left + k_right + e.size > 10 * _MAX_MATRIX_ENTRIES:
        raise ValueError("the samples are too spread out for this grid; use wider intervals")
    grid = np.concatenate([e[0] - left_w * np.arange(k_left, 0, -1), e,
                           e[-1] + right_w * np.arange(1, k_right + 1)])
    p = np.histogram(a, grid)[0] / a.size
    q = np.histogram(b, grid)[0] / b.size
    return total_variation(p, q)


def posterior(w, edges, probabilities, noise: Noise, method: str = "em") -> np.ndarray:
    """``P(X in I_p | W = w_i)`` for each perturbed value, with ``probabilities`` as the prior.

    Bayes' rule for one record (the start of Sec. 3), discretized: the likelihood of ``w`` given
    ``X in I_p`` is ``f_Y(w - m(I_p))`` (``method="bayes"``, mid-point) or the exact average
    ``[F_Y(w - a_p) - F_Y(w - b_p)] / L_p`` (``method="em"``). A value no interval can produce
    gets the prior as its posterior. Shape (n, m); rows sum to 1.

    This is what an attacker learns about one individual from a good reconstruction (the
    paper's warning: reconstruction gives distributions, not individual values).

    Parameters
    ----------
    w : array-like of float, shape (n,)
        Perturbed values (finite).
    edges : array-like, shape (m + 1,)
        Strictly increasing interval boundaries of the original values.
    probabilities : array-like of float, shape (m,)
        The prior ``Pr(X in I_p)``: non-negative, not all zero (normalized here).
    noise : Noise
        The public noise model.
    method : {"em", "bayes"}, default "em"
        Likelihood of ``w`` given ``X in I_p``: the exact average over the interval (``"em"``)
        or the density at the mid-point (``"bayes"``).

    Returns
    -------
    ndarray, shape (n, m)
        Row ``i`` is the posterior distribution of ``x_i`` over the intervals; rows sum to 1.

    Raises
    ------
    ValueError
        If ``w`` or ``edges`` is invalid, ``probabilities`` has the wrong length or is
        negative or all zero, or ``method`` is unknown.
    TypeError
        If ``noise`` is not a noise model.

    Examples
    --------
    >>> from ppdm_edu import UniformNoise
    >>> posterior([0.9], [0, 1, 2], [0.5, 0.5], UniformNoise(0.5)).round(2).tolist()
    [[0.6, 0.4]]
    """
    values = check_finite_1d(w, "w")
    edges = _check_edges(edges)
    prior = check_finite_1d(probabilities, "probabilities")
    if prior.size != edges.size - 1:
        raise ValueError(f"probabilities must have {edges.size - 1} entries, got {prior.size}")
    if (prior < 0).any() or prior.sum() <= 0:
        raise ValueError("probabilities must be non-negative and not all zero")
    prior = prior / prior.sum()
    noise = check_noise(noise)
    method = _check_method(method)
    if method == "em":
        # P(w - b_p < Y <= w - a_p) / L_p, computed without 1 - 1 cancellation in the tails
        like = noise.interval_probability(values[:, None] - edges[None, 1:],
                                          values[:, None] - edges[None, :-1]) / np.diff(edges)[None, :]
    else:
        mid = 0.5 * (edges[:-1] + edges[1:])
        like = noise.pdf(values[:, None] - mid[None, :])
    joint = like * prior[None, :]
    total = joint.sum(axis=1, keepdims=True)
    out = np.where(total > 0, joint / np.where(total > 0, total, 1.0), prior[None, :])
    return out
