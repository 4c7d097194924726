"""One interface for the course's randomizers.

Every paper of the course randomizes each record on the user's side, but each states it in its
own units: Agrawal & Srikant (2000) add uniform or Gaussian noise and speak of "% privacy",
Du & Zhan (2003) flip bits with Warner's θ, and the local-differential-privacy literature
(Evfimievski et al. 2003; Wang et al., USENIX Security 2017) speaks of ε. This module puts them
behind one small surface, modelled on diffprivlib's ``mechanisms/base.py`` (an abstract
``DPMechanism`` with ``randomise``, ``epsilon`` and ``delta``):

* :meth:`Mechanism.randomize` ``(values, rng) -> reports``;
* :attr:`Mechanism.epsilon` and :attr:`Mechanism.delta`, the *claimed* privacy (``inf`` where
  the mechanism has no finite ε, e.g. additive uniform noise);
* :meth:`Mechanism.response_matrix`, ``A[s, t] = P(report in s | value in t)``, the likelihood
  that reconstruction uses;
* :meth:`Mechanism.estimate`, the original distribution from the reports, by one of four named
  estimators (:data:`ESTIMATION_METHODS`), each meaning one thing:

  - ``"inversion"``: the unbiased estimate (for Warner and GRR the solution of
    ``A p = counts / n``, Wang et al. 2017 Eq. 1 in closed form; for OUE their Eq. 2, unbiased
    but not that solution, since OUE's bits are not one report each); its entries may be negative;
  - ``"projected"`` (the default): that estimate projected onto the probability simplex
    (:func:`project_to_simplex`);
  - ``"ibu"``: the iterative Bayes of Agrawal & Srikant (Sec. 3, Eq. 3), the *iterative Bayesian
    update* (IBU) of the LDP literature, run to its fixed point: it stops when one more
    iteration would move the estimate by less than ``tol`` (L1), and only then says
    ``converged``;
  - ``"ibu-early"``: the same iteration stopped by the paper's own χ² rule (Sec. 3), a
    *shrinkage* estimator that stays near its uniform start when the mechanism is noisy;
* :meth:`Mechanism.inversion_covariance`, the covariance of the ``"inversion"`` estimate (its
  error in closed form).

The local randomizers are thin wrappers over the existing objects
(:class:`~ppdm_edu.randomization.UniformNoise`, :class:`~ppdm_edu.randomization.GaussianNoise`,
:func:`~ppdm_edu.ldp.laplace_mechanism`, :func:`~ppdm_edu.randomized_response.warner_disguise`,
...): no formula is written twice. :class:`CentralLaplace` is the trusted curator they are
compared with (Dwork, McSherry, Nissim & Smith 2006): one release of noisy counts.

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.mechanisms import GeneralizedRR
>>> grr = GeneralizedRR(k=4, epsilon=2.0)
>>> values = np.repeat(np.arange(4), [4000, 3000, 2000, 1000])
>>> reports = grr.randomize(values, rng=0)
>>> grr.estimate(reports).probabilities.round(1).tolist()
[0.4, 0.3, 0.2, 0.1]
>>> grr.estimate(reports, method="ibu").converged
True
"""
from __future__ import annotations

import abc
import math
from dataclasses import dataclass
from typing import cast

import numpy as np
from scipy import optimize

from ._validation import (
    check_bool,
    check_bounds,
    check_finite_1d,
    check_integer,
    check_positive,
    check_probability,
    check_real_values,  # perturb's own refusals
    check_size,
)
from .ldp import (
    GAUSSIAN_MAX_EPSILON,
    gaussian_delta,
    gaussian_epsilon,
    laplace_mechanism,
    laplace_noise_for_epsilon,
)
from .random_state import check_random_state, spawn_rngs
from .randomization import GaussianNoise, Noise, UniformNoise, check_noise, noise_for_privacy, perturb
from .randomized_response import check_theta, rr_epsilon, theta_for_epsilon, warner_disguise
from .reconstruction import DEFAULT_MAX_ITER, DEFAULT_TOL, chi2_threshold, reconstruct_counts, response_matrix

__all__ = [
    "Mechanism",
    "DistributionEstimate",
    "AdditiveNoiseMechanism",
    "UniformNoiseMechanism",
    "GaussianNoiseMechanism",
    "LaplaceMechanism",
    "WarnerRR",
    "GeneralizedRR",
    "OptimizedUnaryEncoding",
    "CentralLaplace",
    "ESTIMATION_METHODS",
    "MAX_CATEGORIES",
    "IBU_TOL",
    "IBU_MAX_ITER",
    "project_to_simplex",
]

#: The estimators of :meth:`Mechanism.estimate`, one meaning each (see the module doc).
ESTIMATION_METHODS = ("projected", "inversion", "ibu", "ibu-early")
#: The largest domain (categories or bins) a mechanism accepts (OUE reports are n x k bits).
MAX_CATEGORIES = 10_000
#: Uniforms drawn at once by OUE's randomize (8 MB): a block of rows, not all n x k.
_OUE_BLOCK_ENTRIES = 1 << 20
#: Default ``tol`` of ``estimate(method="ibu")``: at the estimate returned, one more iteration
#: of Eq. 3 moves it by less than this (L1).
IBU_TOL = 1e-8
#: Default and largest iteration limit of ``estimate(method="ibu")`` and ``"ibu-early"`` (updates by
#: Eq. 3). The hardest problems here, the trade-off reproduction's additive noises on the k = 10
#: histogram, need far fewer (``benchmarks/ibu_speed.md``); a wide Gaussian noise whose maximum
#: lies on the edge of the simplex needs the most.
IBU_MAX_ITER = 1_000_000
#: Extrapolations tried per round of the accelerated iteration before taking the plain steps.
_SQUAREM_TRIES = 10


@dataclass(frozen=True)
class DistributionEstimate:
    """The original distribution estimated from a mechanism's reports.

    Attributes
    ----------
    probabilities : ndarray
        Estimated probability of each category (or interval of ``edges``). Non-negative and
        summing to 1, except for ``"inversion"``: the unbiased estimate, whose entries may be
        negative (and, for OUE, need not sum to 1 exactly).
    method : str
        The estimator, one of :data:`ESTIMATION_METHODS`.
    n : int
        Number of records the reports stand for.
    n_iter : int
        Iterations of Eq. 3 (0 for ``"inversion"`` and ``"projected"``).
    converged : bool
        True for ``"inversion"`` and ``"projected"`` (closed forms). For ``"ibu"``: the estimate
        is at the iteration's fixed point within ``tol`` (one more iteration moves it by less
        than ``tol``, L1), False if ``max_iter`` iterations did not get it there. Always False
        for ``"ibu-early"``: the χ² rule stops at a shrunk estimate, not at the fixed point.
    edges : ndarray or None
        Interval boundaries for the additive-noise mechanisms, None for categorical ones.
    """

    probabilities: np.ndarray
    method: str
    n: int
    n_iter: int
    converged: bool
    edges: np.ndarray | None = None


def _check_method(method) -> str:
    if not isinstance(method, str) or method not in ESTIMATION_METHODS:
        raise ValueError(f"method must be one of {ESTIMATION_METHODS}, got {method!r}")
    return method


def project_to_simplex(v) -> np.ndarray:
    """The probability vector closest to ``v`` in Euclidean distance.

    Subtract one constant from every entry and clip at 0, the constant chosen so that the result
    sums to 1 (Duchi et al., ICML 2008, Fig. 1; Wang et al. 2020 call it "Norm-Sub" for LDP
    frequency estimates). Because the true distribution lies in the simplex, which is convex,
    the projection is never farther from it than ``v`` is (in L2): post-processing an unbiased
    estimate this way can only reduce its error.

    Parameters
    ----------
    v : array-like of float, shape (k,)
        Any real vector (e.g. an unbiased frequency estimate with negative entries).

    Returns
    -------
    ndarray, shape (k,)
        Non-negative, sums to 1.

    Raises
    ------
    ValueError
        If ``v`` is empty, not 1-D, or holds NaN or infinity.

    Examples
    --------
    >>> project_to_simplex([0.7, 0.5, -0.2]).round(12).tolist()
    [0.6, 0.4, 0.0]
    """
    v = check_finite_1d(v, "v")
    u = np.sort(v)[::-1]
    excess = np.cumsum(u) - 1.0                  # what the top j entries hold beyond 1
    j = np.arange(1, v.size + 1)
    rho = int(np.flatnonzero(u - excess / j > 0)[-1])  # entries that stay positive: rho + 1
    p = np.maximum(v - excess[rho] / (rho + 1), 0.0)
    return p / p.sum()


# ---------------------------------------------------------------------------------------------
# the iterative Bayes (Agrawal & Srikant 2000, Sec. 3) = IBU (Agrawal & Aggarwal 2001)
# ---------------------------------------------------------------------------------------------
def _bayes_update(pr: np.ndarray, counts: np.ndarray, forward, backward):
    """Eq. 3 of Agrawal & Srikant once: ``pr_t <- pr_t * sum_s A[s, t] N_s / (n (A pr)_s)``.

    ``forward(pr) = A @ pr`` and ``backward(r) = A.T @ r``. Returns the new estimate and each
    category's factor ``g_t = sum_s A[s, t] N_s / (n (A pr)_s)``, by which it multiplied ``pr_t``.
    """
    predicted = forward(pr)                      # P(report in s) under the current estimate
    ratio = np.divide(counts, predicted, out=np.zeros_like(predicted), where=counts > 0)
    factor = backward(ratio) / counts.sum()
    new = pr * factor
    return new / new.sum(), factor


def _ibu_early(counts: np.ndarray, forward, backward, m: int, threshold: float, max_iter: int):
    """Fig. 1 of Agrawal & Srikant: Eq. 3 from the uniform start until Pearson's χ² between
    successive count estimates is at most ``threshold`` (Sec. 3, "Stopping Criterion": a
    fraction of its 95 % critical value, :func:`ppdm_edu.reconstruction.chi2_threshold`), as
    :func:`ppdm_edu.reconstruction.reconstruct_counts` stops.

    Returns ``(pr, n_iter)``.
    """
    n = counts.sum()
    pr = np.full(m, 1.0 / m)
    for it in range(1, max_iter + 1):
        new, _ = _bayes_update(pr, counts, forward, backward)
        seen = pr > 0
        statistic = n * float(((new[seen] - pr[seen]) ** 2 / pr[seen]).sum())
        pr = new
        if statistic <= threshold:
            return pr, it
    return pr, max_iter


def _ibu(counts: np.ndarray, forward, backward, m: int, tol: float, max_iter: int):
    """Eq. 3 from the uniform start to its fixed point, the maximum of the likelihood.

    **When to stop.** At ``pr``, Eq. 3 multiplies each ``pr_t`` by a factor ``g_t`` with
    ``sum_t pr_t g_t = 1``, so the next iteration moves the estimate by ``sum_t pr_t |g_t - 1|``
    <= ``2 (max_t g_t - 1)`` (L1). The iteration stops when ``max_t g_t - 1 <= tol / 2``: one more
    iteration would move it by less than ``tol``. The same number bounds how far the likelihood
    is from its maximum: ``g_t`` is the gradient of the log-likelihood per report, which is
    concave, so no distribution is more likely by more than a factor ``exp(n tol / 2)``
    (the gap of the Karush-Kuhn-Tucker conditions).

    **Faster.** Towards a maximum on the edge of the simplex, or along a direction the noise
    hides (a noise much wider than the grid), Eq. 3 alone can take millions of iterations. Each
    round here takes two of its steps and extrapolates along them (SQUAREM, Varadhan & Roland,
    Scand. J. Stat. 2008), keeps the extrapolation only where it is a distribution at least as
    likely as the second step (else the two plain steps stand), and takes one step of Eq. 3
    from there; every round raises the likelihood, as Eq. 3 itself does.

    Returns ``(pr, n_iter, converged)``; ``n_iter`` counts the updates by Eq. 3.
    """
    seen = counts > 0

    def loglik(p):  # the multinomial log-likelihood of the counts, up to a constant
        predicted = forward(p)[seen]
        return float(counts[seen] @ np.log(predicted)) if (predicted > 0).all() else -math.inf

    pr = np.full(m, 1.0 / m)
    n_iter = 0
    while n_iter < max_iter:
        p1, factor = _bayes_update(pr, counts, forward, backward)
        n_iter += 1
        if factor.max() - 1.0 <= tol / 2.0:
            return pr, n_iter, True
        if n_iter + 2 > max_iter:  # no room for a round: the last update stands, not converged
            return p1, n_iter, False
        p2, _ = _bayes_update(p1, counts, forward, backward)
        n_iter += 1
        r, v = p1 - pr, p2 - 2.0 * p1 + pr
        step = -math.sqrt(r @ r) / math.sqrt(v @ v) if v.any() else -1.0
        x, floor = p2, loglik(p2)
        for _ in range(_SQUAREM_TRIES):
            if step >= -1.0:  # the extrapolation of step -1 is p2 itself
                break
            candidate = pr - 2.0 * step * r + step * step * v
            if (candidate >= 0).all() and (candidate[p2 > 0] > 0).all() and loglik(candidate) >= floor:
                x = candidate / candidate.sum()
                break
            step = (step - 1.0) / 2.0  # halfway back towards the plain steps
        pr, _ = _bayes_update(x, counts, forward, backward)
        n_iter += 1
    return pr, n_iter, False


class Mechanism(abc.ABC):
    """A randomizer whose reports estimate the distribution of the values it randomized.

    Subclasses give :meth:`randomize`, :attr:`epsilon`, :meth:`response_matrix` and
    :meth:`counts` (reports -> counts per observed outcome); the estimators are shared.
    """

    #: Short name used in tables and plots.
    name = "mechanism"

    @abc.abstractmethod
    def randomize(self, values, rng=None) -> np.ndarray:
        """Randomize each value independently.

        Parameters
        ----------
        values : array-like
            The true values (categories ``0..k-1`` or numbers in ``bounds``).
        rng : None, int or numpy.random.Generator
            Source of the randomness.

        Returns
        -------
        ndarray
            One report per value.
        """

    @property
    @abc.abstractmethod
    def epsilon(self) -> float:
        """The claimed ε (``inf`` where the mechanism has none)."""

    @property
    def delta(self) -> float:
        """The claimed δ of an (ε, δ) guarantee (0 for pure ε-LDP)."""
        return 0.0

    @abc.abstractmethod
    def response_matrix(self) -> np.ndarray:
        """``A[s, t] = P(report falls in outcome s | true value in category t)``.

        Returns
        -------
        ndarray, shape (n_outcomes, n_categories)
            The likelihood reconstruction uses.
        """

    @abc.abstractmethod
    def counts(self, reports) -> np.ndarray:
        """Counts of the reports per observed outcome (the rows of :meth:`response_matrix`).

        Parameters
        ----------
        reports : array-like
            Output of :meth:`randomize`.

        Returns
        -------
        ndarray of float
            One count per outcome.
        """

    def _edges(self):
        return None

    def _unbiased(self, N: np.ndarray, n: int) -> np.ndarray:
        # E[N / n] = A f: least squares on A is unbiased (for the binned additive noises A is tall)
        return np.linalg.lstsq(self.response_matrix(), N / n, rcond=None)[0]

    def estimate(self, reports, method: str = "projected", max_iter: int | None = None,
                 tol: float | None = None) -> DistributionEstimate:
        """The original distribution from the reports, by the estimator named.

        Parameters
        ----------
        reports : array-like
            Output of :meth:`randomize`.
        method : {"projected", "inversion", "ibu", "ibu-early"}, default "projected"
            ``"inversion"``: the unbiased estimate, the solution of ``A p = counts / n`` (least
            squares on :meth:`response_matrix`; Warner and GRR in the closed form of Wang et al.
            2017, Eq. 1, which is that solution; OUE by their Eq. 2, an unbiased estimate
            that is *not* that solution, because OUE's bits are not one report each); its
            entries may be negative, and its error has a closed form
            (:meth:`inversion_covariance`). ``"projected"``: that estimate projected onto the
            probability simplex (:func:`project_to_simplex`), never farther from the truth.
            ``"ibu"``: the iterative Bayes of Agrawal & Srikant (Sec. 3, Eq. 3), the IBU of the
            LDP literature, from the uniform start to its fixed point, the maximum of the
            likelihood: it stops when one more iteration would move the estimate by less than
            ``tol`` (L1), and then no distribution is more likely by more than a factor
            ``exp(n tol / 2)`` (``n`` the counts' total); ``converged`` is False if ``max_iter``
            updates did not get it there. ``tol`` bounds that last move, not the distance to the
            exact maximum: where the likelihood is flat (a noise much wider than the grid),
            distributions far apart are almost equally likely, and the data cannot tell them
            apart either. ``"ibu-early"``: the same iteration stopped by the paper's χ² rule
            (:func:`ppdm_edu.reconstruction.reconstruct_counts` stops so); with a noisy
            mechanism it stops after a few iterations near the uniform start, a *shrinkage*
            estimator, never called converged.
        max_iter : int, optional
            Iteration limit: :data:`IBU_MAX_ITER` (also the largest allowed) for ``"ibu"``,
            1000 for ``"ibu-early"``.
        tol : float, optional
            ``"ibu"``: the L1 move of one more iteration at which it stops (default
            :data:`IBU_TOL`). ``"ibu-early"``: fraction of the χ² threshold (default 0.01, the
            paper's; 0 runs ``max_iter`` iterations).

        Returns
        -------
        DistributionEstimate
            The estimated probabilities.

        Raises
        ------
        ValueError
            If ``method``, ``max_iter`` or ``tol`` is invalid, or the reports are invalid.
        """
        method = _check_method(method)
        edges = self._edges()
        N, n = self._counted(reports)
        if method in ("inversion", "projected"):
            p = self._unbiased(N, n)
            if method == "projected":
                p = project_to_simplex(p)
            return DistributionEstimate(probabilities=p, method=method, n=n, n_iter=0,
                                        converged=True, edges=edges)
        m = self._n_categories()
        early = method == "ibu-early"
        max_iter = check_integer((DEFAULT_MAX_ITER if early else IBU_MAX_ITER) if max_iter is None else max_iter,
                                 "max_iter", minimum=1, maximum=IBU_MAX_ITER)
        # the stop: the χ² threshold (chi2_threshold checks tol), or the move of one more iteration
        limit = (chi2_threshold(m, DEFAULT_TOL if tol is None else tol) if early
                 else check_positive(IBU_TOL if tol is None else tol, "tol"))
        if N.min() < 0:
            raise ValueError(f"method {method!r} needs counts of reports, got a negative count "
                             f"({N.min():g}): use 'inversion' or 'projected'")
        if not N.sum() > 0:
            # no report gives evidence for any category (OUE reports whose bits are all 0 are
            # equally likely under every category): the likelihood is flat, uniform is its maximum
            return DistributionEstimate(probabilities=np.full(m, 1.0 / m), method=method, n=n,
                                        n_iter=0, converged=not early, edges=edges)
        forward, backward = self._response_operators()
        if early:
            p, n_iter = _ibu_early(N, forward, backward, m, limit, max_iter)
            converged = False
        else:
            p, n_iter, converged = _ibu(N, forward, backward, m, limit, max_iter)
        return DistributionEstimate(probabilities=p, method=method, n=n, n_iter=n_iter,
                                    converged=converged, edges=edges)

    def inversion_covariance(self, frequencies, n: int) -> np.ndarray:
        """Covariance of the ``"inversion"`` estimate over the randomness of the reports.

        One report per record, drawn from column ``t`` of :meth:`response_matrix` for a value in
        ``t``: the counts are multinomial given the values, ``Cov(counts / n) = (diag(A f) -
        A diag(f) A^T) / n``, and the estimate is ``A^+ counts / n`` (Warner 1965 for k = 2;
        Wang et al. 2017, Sec. 4 for GRR).

        Parameters
        ----------
        frequencies : array-like of float, shape (n_categories,)
            The sample's own share of each category (the error is measured against it).
        n : int
            Number of records, >= 1.

        Returns
        -------
        ndarray, shape (n_categories, n_categories)
            The covariance matrix.

        Raises
        ------
        ValueError
            If ``frequencies`` is not a distribution over the categories or ``n`` is not a
            positive integer.
        """
        f, n = self._check_frequencies(frequencies, n)
        A = self.response_matrix()
        sigma = (np.diag(A @ f) - (A * f) @ A.T) / n
        pinv = np.linalg.pinv(A)
        return pinv @ sigma @ pinv.T

    def _check_frequencies(self, frequencies, n) -> tuple[np.ndarray, int]:
        f = check_finite_1d(frequencies, "frequencies")
        m = self._n_categories()
        if f.size != m or f.min() < 0 or not math.isclose(float(f.sum()), 1.0, rel_tol=1e-9):
            raise ValueError(f"frequencies must be {m} non-negative shares summing to 1, got {f.tolist()}")
        return f, check_integer(n, "n", minimum=1)

    def _counted(self, reports) -> tuple[np.ndarray, int]:
        """(counts per outcome, number of reports), refusing a 0-d array."""
        if np.ndim(reports) == 0:
            value = np.asarray(reports).item()
            raise ValueError(f"reports must be an array with one report per record, got the single "
                             f"value {value!r} (0-d); wrap one report in a list: [{value!r}]")
        N = self.counts(reports)
        return N, int(N.sum())

    def _n_categories(self) -> int:
        return int(self.response_matrix().shape[1])

    def _response_operators(self):
        """``(pr -> A @ pr, r -> A.T @ r)`` for the iterative Bayes (dense here; Warner, GRR and
        OUE have O(k) ones)."""
        A = self.response_matrix()
        return A.dot, A.T.dot

    def reconstruct(self, reports, max_iter: int = DEFAULT_MAX_ITER, tol: float = DEFAULT_TOL,
                    keep_history: bool = False):
        """The iterative Bayes reconstruction itself (Agrawal & Srikant's Fig. 1 = IBU).

        Parameters
        ----------
        reports : array-like
            Output of :meth:`randomize`.
        max_iter : int, default 1000
            Iteration limit.
        tol : float, default 0.01
            Stopping tolerance (fraction of the χ² threshold; 0 runs ``max_iter`` iterations).
        keep_history : bool, default False
            Keep every iterate.

        Returns
        -------
        ppdm_edu.reconstruction.Reconstruction
            The result of :func:`~ppdm_edu.reconstruction.reconstruct_counts` on the dense
            :meth:`response_matrix`: notebook 02's own loop (``estimate(method="ibu-early")``
            is the same iteration and stopping rule).
        """
        return reconstruct_counts(self.counts(reports), self.response_matrix(), edges=self._edges(),
                                  n=None, method="em", max_iter=max_iter, tol=tol,
                                  keep_history=keep_history)

    def __repr__(self):
        return f"{type(self).__name__}(epsilon={self.epsilon:.4g})"


# ---------------------------------------------------------------------------------------------
# additive noise on a bounded attribute (Agrawal & Srikant Sec. 2; Laplace: Dwork et al. 2006)
# ---------------------------------------------------------------------------------------------
class AdditiveNoiseMechanism(Mechanism):
    """Value distortion ``x + r`` on an attribute in ``bounds`` (Agrawal & Srikant Sec. 2).

    The original distribution is estimated over ``n_bins`` equal intervals of ``bounds`` (or,
    with ``discrete=True``, over ``n_bins`` equally spaced values from low to high, e.g. the
    0/1 of a binary attribute or the codes of a category); the reports are counted in bins of
    the same width that reach as far as the noise does.

    Parameters
    ----------
    noise : Noise
        The noise (:class:`~ppdm_edu.randomization.UniformNoise`, ``GaussianNoise``, ``LaplaceNoise``).
    bounds : (float, float), default (0, 1)
        Range of the original values (its width is the sensitivity of the local value).
    n_bins : int, default 10
        Intervals (or grid values) the distribution is estimated on, 2 to :data:`MAX_CATEGORIES`.
    discrete : bool, default False
        True when the values are the ``n_bins`` grid points ``linspace(low, high, n_bins)``: the
        response matrix is then exact for point values (intervals assume values spread
        uniformly inside each interval, which biases the estimate for 0/1 data).

    Raises
    ------
    TypeError
        If ``noise`` is not a ppdm_edu Noise.
    ValueError
        If ``bounds`` or ``n_bins`` is invalid.
    """

    name = "additive"

    def __init__(self, noise: Noise, bounds=(0.0, 1.0), n_bins: int = 10, discrete: bool = False):
        self.noise = check_noise(noise)
        self.bounds = check_bounds(bounds)
        self.n_bins = check_integer(n_bins, "n_bins", minimum=2, maximum=MAX_CATEGORIES)
        self.discrete = check_bool(discrete, "discrete")
        lo, hi = self.bounds
        if self.discrete:
            self.points: np.ndarray | None = np.linspace(lo, hi, self.n_bins)
            width = (hi - lo) / (self.n_bins - 1)
            start, n_w = lo - width / 2, self.n_bins
            self.edges: np.ndarray | None = None
        else:
            self.points = None
            width = (hi - lo) / self.n_bins
            start, n_w = lo, self.n_bins
            self.edges = np.linspace(lo, hi, self.n_bins + 1)
        reach = max(abs(b) for b in self.noise.support(1.0 - 1e-9))
        extra = min(int(math.ceil(reach / width)), MAX_CATEGORIES)
        self.w_edges = start + width * np.arange(-extra, n_w + extra + 1)
        self._width = width
        self._matrix: np.ndarray | None = None  # the response matrix, computed once (read-only)
        self._pinv: np.ndarray | None = None  # and its pseudo-inverse

    @property
    def value_range(self) -> float:
        """``high - low`` of ``bounds``: the sensitivity of one value."""
        return self.bounds[1] - self.bounds[0]

    @property
    def epsilon(self) -> float:
        """The noise's ε for this range (:meth:`Noise.ldp_epsilon`; ``inf`` for uniform and Gaussian)."""
        return float(self.noise.ldp_epsilon(self.value_range))

    def _check_values(self, values) -> np.ndarray:
        arr = check_real_values(values, "values")
        lo, hi = self.bounds
        if ((arr < lo) | (arr > hi)).any():
            raise ValueError(f"values must lie in bounds {self.bounds} (the guarantee needs a known range)")
        return arr

    def randomize(self, values, rng=None) -> np.ndarray:  # noqa: D102 (documented on the base)
        return perturb(self._check_values(values), self.noise, rng=rng)

    def response_matrix(self) -> np.ndarray:  # noqa: D102
        if self._matrix is None:  # (a mechanism is immutable: computed once, shared read-only)
            if self.discrete:
                # exact for point values: P(w in bin s | x = point t) from the noise's own CDF
                assert self.points is not None  # set by __init__ when discrete
                lo = self.w_edges[:-1, None] - self.points[None, :]
                hi = self.w_edges[1:, None] - self.points[None, :]
                A = np.asarray(self.noise.interval_probability(lo, hi), dtype=float)
            else:
                # "em": the exact probability for a value uniform in each interval (Agrawal &
                # Aggarwal 2001)
                A = response_matrix(self.edges, self.noise, self.w_edges, method="em")
            A.setflags(write=False)
            self._matrix = A
        return self._matrix

    def counts(self, reports) -> np.ndarray:  # noqa: D102
        w = check_real_values(reports, "reports").ravel()
        # the bins are equally wide: bin floor((w - first edge) / width); reports beyond the
        # outer bins (a far tail) are counted in the outermost bins
        idx = w - self.w_edges[0]
        idx /= self._width
        np.clip(idx, 0, self.w_edges.size - 2, out=idx)  # (then the integer part is the floor)
        return np.bincount(idx.astype(np.intp), minlength=self.w_edges.size - 1).astype(float)

    def _unbiased(self, N: np.ndarray, n: int) -> np.ndarray:
        # least squares on the (tall) response matrix, by its pseudo-inverse, computed once
        if self._pinv is None:
            self._pinv = np.linalg.pinv(self.response_matrix())
            self._pinv.setflags(write=False)
        return self._pinv @ (N / n)

    def _edges(self):
        return self.edges

    def __repr__(self):
        return f"{type(self).__name__}({self.noise!r}, bounds={self.bounds})"


class UniformNoiseMechanism(AdditiveNoiseMechanism):
    """Additive uniform noise on [-α, α] (Agrawal & Srikant Sec. 2): no finite ε.

    Parameters
    ----------
    alpha : float
        Half-width of the noise, > 0.
    bounds : (float, float), default (0, 1)
        Range of the values.
    n_bins : int, default 10
        Intervals the distribution is estimated on.
    discrete : bool, default False
        Values on a grid of ``n_bins`` points (see :class:`AdditiveNoiseMechanism`).

    Examples
    --------
    >>> UniformNoiseMechanism.for_privacy(1.0).epsilon
    inf
    """

    name = "uniform"

    def __init__(self, alpha: float, bounds=(0.0, 1.0), n_bins: int = 10, discrete: bool = False):
        super().__init__(UniformNoise(check_positive(alpha, "alpha")), bounds, n_bins, discrete)

    @classmethod
    def for_privacy(cls, level: float, bounds=(0.0, 1.0), n_bins: int = 10, confidence: float = 0.95,
                    discrete: bool = False):
        """The noise of "``level`` x 100 % privacy" (Agrawal & Srikant Sec. 2.1).

        Parameters
        ----------
        level : float
            Privacy level (1.0 = the 95 % interval of the noise is as wide as the range).
        bounds : (float, float), default (0, 1)
            Range of the values.
        n_bins : int, default 10
            Intervals the distribution is estimated on.
        confidence : float, default 0.95
            Confidence of the interval.
        discrete : bool, default False
            Values on a grid of ``n_bins`` points (see :class:`AdditiveNoiseMechanism`).

        Returns
        -------
        UniformNoiseMechanism
            The mechanism (its noise from :func:`~ppdm_edu.randomization.noise_for_privacy`).
        """
        lo, hi = check_bounds(bounds)
        noise = cast(UniformNoise, noise_for_privacy("uniform", level, hi - lo, confidence))  # "uniform"
        return cls(noise.alpha, bounds, n_bins, discrete)


class GaussianNoiseMechanism(AdditiveNoiseMechanism):
    """Additive Gaussian noise N(0, σ²): (ε, δ)-LDP only (no pure ε).

    Parameters
    ----------
    sigma : float
        Standard deviation of the noise, > 0.
    bounds : (float, float), default (0, 1)
        Range of the values.
    delta : float, default 1e-5
        The δ at which ε is stated (:func:`ppdm_edu.ldp.gaussian_epsilon`).
    n_bins : int, default 10
        Intervals the distribution is estimated on.
    discrete : bool, default False
        Values on a grid of ``n_bins`` points (see :class:`AdditiveNoiseMechanism`).

    Examples
    --------
    >>> m = GaussianNoiseMechanism.for_epsilon(1.0)
    >>> round(m.epsilon, 6), m.delta
    (1.0, 1e-05)
    """

    name = "gaussian"

    def __init__(self, sigma: float, bounds=(0.0, 1.0), delta: float = 1e-5, n_bins: int = 10,
                 discrete: bool = False):
        super().__init__(GaussianNoise(check_positive(sigma, "sigma")), bounds, n_bins, discrete)
        self._delta = check_probability(delta, "delta", open_interval=True)

    @property
    def delta(self) -> float:
        """The δ of the (ε, δ) guarantee."""
        return self._delta

    @property
    def epsilon(self) -> float:
        """The ε at :attr:`delta` (:func:`ppdm_edu.ldp.gaussian_epsilon`)."""
        return float(gaussian_epsilon(self.noise.sigma, self._delta, self.bounds))

    @classmethod
    def for_epsilon(cls, epsilon: float, bounds=(0.0, 1.0), delta: float = 1e-5, n_bins: int = 10,
                    discrete: bool = False):
        """The smallest σ whose (ε, δ) guarantee reaches ``epsilon`` at ``delta``.

        Parameters
        ----------
        epsilon : float
            Target ε, > 0.
        bounds : (float, float), default (0, 1)
            Range of the values.
        delta : float, default 1e-5
            Target δ.
        n_bins : int, default 10
            Intervals the distribution is estimated on.
        discrete : bool, default False
            Values on a grid of ``n_bins`` points (see :class:`AdditiveNoiseMechanism`).

        Returns
        -------
        GaussianNoiseMechanism
            σ solved from :func:`ppdm_edu.ldp.gaussian_delta` (exact, Balle & Wang 2018).

        Raises
        ------
        ValueError
            If ``epsilon`` is not in (0, :data:`ppdm_edu.ldp.GAUSSIAN_MAX_EPSILON`] or another
            argument is invalid.
        """
        eps = check_positive(epsilon, "epsilon")
        if eps > GAUSSIAN_MAX_EPSILON:
            raise ValueError(f"epsilon must be at most {GAUSSIAN_MAX_EPSILON:g} for the Gaussian "
                             f"mechanism, got {eps:g} (beyond it sigma is below a thousandth of the range)")
        delta = check_probability(delta, "delta", open_interval=True)
        lo, hi = check_bounds(bounds)
        # gaussian_delta decreases in sigma: bracket and solve delta(sigma) = delta
        f = lambda s: gaussian_delta(s, eps, (lo, hi)) - delta  # noqa: E731
        s_hi = (hi - lo)
        while f(s_hi) > 0:
            s_hi *= 2.0
        s_lo = s_hi
        while f(s_lo) < 0 and s_lo > 1e-12 * (hi - lo):
            s_lo /= 2.0
        sigma = optimize.brentq(f, s_lo, s_hi, xtol=1e-14 * (hi - lo), rtol=1e-12)
        return cls(sigma, (lo, hi), delta, n_bins, discrete)


class LaplaceMechanism(AdditiveNoiseMechanism):
    """The local Laplace mechanism ``x + Laplace((high - low) / ε)`` (:func:`ppdm_edu.ldp.laplace_mechanism`).

    Parameters
    ----------
    epsilon : float
        The privacy level, > 0.
    bounds : (float, float), default (0, 1)
        Range of the values.
    n_bins : int, default 10
        Intervals the distribution is estimated on.
    discrete : bool, default False
        Values on a grid of ``n_bins`` points (see :class:`AdditiveNoiseMechanism`).

    Examples
    --------
    >>> LaplaceMechanism(0.5).epsilon
    0.5
    """

    name = "laplace"

    def __init__(self, epsilon: float, bounds=(0.0, 1.0), n_bins: int = 10, discrete: bool = False):
        self._epsilon = check_positive(epsilon, "epsilon")
        super().__init__(laplace_noise_for_epsilon(self._epsilon, bounds), bounds, n_bins, discrete)

    @property
    def epsilon(self) -> float:
        """The claimed ε."""
        return self._epsilon

    def randomize(self, values, rng=None) -> np.ndarray:  # noqa: D102
        return laplace_mechanism(self._check_values(values), self._epsilon, self.bounds, rng=rng)


# ---------------------------------------------------------------------------------------------
# categorical: Warner (Du & Zhan Sec. 3), k-ary GRR and OUE (Wang et al. 2017, Sec. 4)
# ---------------------------------------------------------------------------------------------
class _Categorical(Mechanism):
    k = 2

    def _check_values(self, values, name: str = "values") -> np.ndarray:
        arr = check_real_values(values, name)  # perturb's refusals: masked, complex, datetime, object
        bad = (arr != np.round(arr)) | (arr < 0) | (arr > self.k - 1)
        if bad.any():
            first = int(np.flatnonzero(bad.ravel())[0])
            raise ValueError(f"{name} must be integer categories 0..{self.k - 1}, got "
                             f"{arr.ravel()[first]:g} at position {first}")
        return arr.astype(np.int64)

    def counts(self, reports) -> np.ndarray:  # noqa: D102
        return np.bincount(self._check_values(reports, "reports").ravel(), minlength=self.k).astype(float)

    def _pq(self) -> tuple[float, float]:
        raise NotImplementedError  # pragma: no cover

    def response_matrix(self) -> np.ndarray:  # noqa: D102
        p, q = self._pq()
        return np.where(np.eye(self.k, dtype=bool), p, q)

    def _n_categories(self) -> int:
        return self.k

    def _unbiased(self, N: np.ndarray, n: int) -> np.ndarray:
        p, q = self._pq()
        if p == q:  # the reports carry no information (Warner's theta = 1/2): least squares
            return super()._unbiased(N, n)
        return (N / n - q) / (p - q)  # Wang et al. 2017, Eq. 1 (GRR) and Eq. 2 (OUE)

    def _response_operators(self):
        # fast path: A = (p - q) I + q 1 1^T is symmetric, so A @ pr and A.T @ r are one O(k)
        # product, never the k x k matrix (tests/test_mechanism_estimators.py: equal to dense)
        p, q = self._pq()

        def pq_product(v: np.ndarray) -> np.ndarray:
            return (p - q) * v + q * v.sum()

        return pq_product, pq_product


class WarnerRR(_Categorical):
    """Warner's randomized response: tell the truth with probability θ (Du & Zhan Sec. 3).

    Parameters
    ----------
    theta : float
        Probability of answering the true question, in [0, 1].

    Examples
    --------
    >>> round(WarnerRR.for_epsilon(math.log(3)).theta, 6)
    0.75
    """

    name = "warner"
    k = 2

    def __init__(self, theta: float):
        self.theta = check_theta(theta)

    @classmethod
    def for_epsilon(cls, epsilon: float):
        """Warner's θ for a claimed ε (:func:`ppdm_edu.randomized_response.theta_for_epsilon`).

        Parameters
        ----------
        epsilon : float
            The privacy level, > 0.

        Returns
        -------
        WarnerRR
            The mechanism with θ = e^ε / (1 + e^ε).
        """
        return cls(float(theta_for_epsilon(check_positive(epsilon, "epsilon"))))

    @property
    def epsilon(self) -> float:
        """``|ln(θ / (1 − θ))|`` (:func:`ppdm_edu.randomized_response.rr_epsilon`)."""
        return float(rr_epsilon(self.theta))

    def randomize(self, values, rng=None) -> np.ndarray:  # noqa: D102
        return warner_disguise(self._check_values(values), self.theta, rng=rng)

    def _pq(self) -> tuple[float, float]:
        return self.theta, 1.0 - self.theta


class _KAry(_Categorical):
    """``k`` categories at a claimed ε, from which :meth:`_pq` derives ``p`` and ``q`` (GRR, OUE)."""

    def __init__(self, k: int, epsilon: float):
        self.k = check_integer(k, "k", minimum=2, maximum=MAX_CATEGORIES)
        self._epsilon = check_positive(epsilon, "epsilon")

    @property
    def epsilon(self) -> float:
        """The claimed ε: GRR's ``ln(p / q)``, OUE's ``ln(p (1 − q) / ((1 − p) q))``."""
        return self._epsilon


class GeneralizedRR(_KAry):
    """k-ary generalized randomized response (direct encoding; Wang et al. 2017, Sec. 4.1).

    Report the true category with probability ``p = e^ε / (e^ε + k − 1)``, else one of the
    other ``k − 1`` uniformly (each with ``q = 1 / (e^ε + k − 1)``). For k = 2 this is
    Warner's randomized response with θ = p.

    Parameters
    ----------
    k : int
        Number of categories, 2 to :data:`MAX_CATEGORIES`.
    epsilon : float
        The privacy level, > 0.

    Examples
    --------
    >>> GeneralizedRR(2, math.log(3)).response_matrix().round(12).tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    """

    name = "grr"

    def _pq(self) -> tuple[float, float]:
        # p = e^eps / (e^eps + k - 1) written with e^-eps, which cannot overflow (eps >= 710)
        t = math.exp(-self._epsilon)
        return 1.0 / (1.0 + (self.k - 1) * t), t / (1.0 + (self.k - 1) * t)

    def randomize(self, values, rng=None) -> np.ndarray:  # noqa: D102
        x = self._check_values(values)
        keep_rng, other_rng = spawn_rngs(rng, 2)
        p, _ = self._pq()
        keep = keep_rng.random(x.shape) < p
        # one of the k - 1 other categories, uniformly: shift by 1..k-1 modulo k
        other = (x + other_rng.integers(1, self.k, size=x.shape)) % self.k
        return np.where(keep, x, other)


class OptimizedUnaryEncoding(_KAry):
    """Optimized unary encoding, OUE (Wang et al., USENIX Security 2017, Sec. 4.3).

    The value is one-hot encoded in ``k`` bits; its own bit is reported as 1 with probability
    ``p = 1/2`` and every other bit as 1 with ``q = 1 / (e^ε + 1)``. Its variance does not
    grow with ``k``; GRR's does, so OUE wins when ``k > 3 e^ε + 2`` (their Sec. 5).

    Parameters
    ----------
    k : int
        Number of categories, 2 to :data:`MAX_CATEGORIES`.
    epsilon : float
        The privacy level, > 0.

    Examples
    --------
    >>> OptimizedUnaryEncoding(3, math.log(3)).response_matrix().tolist()
    [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]]
    """

    name = "oue"

    def _pq(self) -> tuple[float, float]:
        t = math.exp(-self._epsilon)  # q = 1 / (e^eps + 1), without overflow at eps >= 710
        return 0.5, t / (1.0 + t)

    def randomize(self, values, rng=None) -> np.ndarray:  # noqa: D102
        x = self._check_values(values)
        check_size(x.size, "values (OUE reports k bits per value)", per_item=self.k)
        gen = check_random_state(rng)
        p, q = self._pq()
        own = x.ravel()
        bits = np.empty((own.size, self.k), dtype=bool)
        # one uniform per bit: the value's own bit is 1 when u < p, every other bit when u < q.
        # Drawn a block of rows at a time (the same stream as one draw of all n x k), so the
        # uniforms never take 8 bytes per bit of the whole report at once.
        rows = max(1, _OUE_BLOCK_ENTRIES // self.k)
        for start in range(0, own.size, rows):
            u = gen.random((min(rows, own.size - start), self.k))
            block = bits[start:start + u.shape[0]]
            np.less(u, q, out=block)
            r = np.arange(u.shape[0])
            block[r, own[start:start + u.shape[0]]] = u[r, own[start:start + u.shape[0]]] < p
        return bits.view(np.int8).reshape(x.shape + (self.k,))

    def counts(self, reports) -> np.ndarray:
        """How many reports have each bit set (the observed "support" of each category).

        Parameters
        ----------
        reports : array-like, shape (n, k)
            Bit vectors from :meth:`randomize`.

        Returns
        -------
        ndarray of float, shape (k,)
            Column sums.
        """
        bits = self._check_bits(reports)
        # 0/1 bits: their column sums are the counts (summed in int64, not as n x k floats)
        return bits.sum(axis=0, dtype=np.int64).astype(float)

    def _check_bits(self, reports) -> np.ndarray:
        bits = reports
        if isinstance(bits, np.ma.MaskedArray) or np.asarray(bits).dtype.kind not in "biu":
            bits = check_real_values(reports, "reports")  # perturb's refusals, then floats
        bits = np.asarray(bits)
        if bits.ndim != 2 or bits.shape[1] != self.k:
            raise ValueError(f"reports must be an (n, {self.k}) array of 0/1 bits, got shape {bits.shape}")
        if bits.shape[0] == 0:
            raise ValueError(f"reports is empty (shape {bits.shape}): at least one report is needed")
        if bits.dtype.kind in "iu":
            ok = bits.min() >= 0 and bits.max() <= 1  # two passes, no n x k temporary
        else:
            ok = bits.dtype == bool or bool(((bits == 0) | (bits == 1)).all())
        if not ok:
            bad = np.flatnonzero(((bits != 0) & (bits != 1)).ravel())[0]
            raise ValueError(f"reports must be 0/1 bits, got {bits.ravel()[bad].item()!r} in row "
                             f"{bad // self.k}, column {bad % self.k}")
        return bits

    def _counted(self, reports) -> tuple[np.ndarray, int]:
        if np.ndim(reports) == 0:
            return super()._counted(reports)  # (its message)
        return self.counts(reports), int(np.shape(reports)[0])

    def inversion_covariance(self, frequencies, n: int) -> np.ndarray:
        """Covariance of the ``"inversion"`` estimate (Wang et al. 2017, Sec. 4.3).

        Every bit of a report is its own coin: given the values, the counts of the categories
        are independent, ``Var c_v = n f_v p (1 - p) + n (1 - f_v) q (1 - q)``, and the estimate
        ``(c_v / n - q) / (p - q)`` has a diagonal covariance.

        Parameters
        ----------
        frequencies : array-like of float, shape (k,)
            The sample's own share of each category.
        n : int
            Number of records, >= 1.

        Returns
        -------
        ndarray, shape (k, k)
            The (diagonal) covariance matrix.

        Raises
        ------
        ValueError
            If ``frequencies`` is not a distribution over the k categories or ``n`` is not a
            positive integer.
        """
        f, n = self._check_frequencies(frequencies, n)
        p, q = self._pq()
        return np.diag((f * p * (1 - p) + (1 - f) * q * (1 - q)) / (n * (p - q) ** 2))


# ---------------------------------------------------------------------------------------------
# the central alternative: one trusted curator, Laplace noise on the counts (Dwork et al. 2006)
# ---------------------------------------------------------------------------------------------
class CentralLaplace(_Categorical):
    """A trusted curator's release: the counts plus Laplace(Δ/ε) each (Dwork et al. 2006).

    Not a local randomizer: :meth:`randomize` takes the whole data set and returns one release,
    the number of records ``n`` followed by the ``k`` noisy counts. ``n`` is public: the
    neighbour relation, one record of the data set replaced, keeps it. For k = 2 only the count
    of 1s gets noise (sensitivity Δ = 1) and the count of 0s is ``n`` minus it; for k > 2 every
    count gets noise, with L1 sensitivity Δ = 2 (replacing one record moves two counts by one).
    The estimators read the noisy counts as counts of the categories (the response matrix is
    the identity); the iterative Bayes refuses them, since a noisy count can be negative.

    Parameters
    ----------
    k : int
        Categories, 2 to 1,000.
    epsilon : float
        The privacy level, > 0.

    Examples
    --------
    >>> m = CentralLaplace(2, 1.0)
    >>> m.epsilon, m.sensitivity
    (1.0, 1.0)
    >>> release = m.randomize([0, 1, 1, 0], rng=0)
    >>> release.shape, float(release[0])
    ((3,), 4.0)
    >>> m.estimate(m.randomize([0, 1, 1, 0] * 1000, rng=0)).probabilities.round(2).tolist()
    [0.5, 0.5]
    """

    name = "central-laplace"

    def __init__(self, k: int, epsilon: float):
        self.k = check_integer(k, "k", minimum=2, maximum=1000)
        self._epsilon = check_positive(epsilon, "epsilon")
        self.sensitivity = 1.0 if self.k == 2 else 2.0

    @property
    def epsilon(self) -> float:
        """The claimed ε (for one record of the data set)."""
        return self._epsilon

    @property
    def scale(self) -> float:
        """The Laplace scale b = Δ / ε of the noise on each released count."""
        return self.sensitivity / self._epsilon

    def _pq(self) -> tuple[float, float]:
        return 1.0, 0.0  # a count is the count of its own category: A = I

    def randomize(self, values, rng=None) -> np.ndarray:
        """The release of the whole data set: ``n``, then the noisy counts.

        Parameters
        ----------
        values : array-like of int
            Every record's category, ``0..k-1``.
        rng : None, int or numpy.random.Generator
            Source of the noise.

        Returns
        -------
        ndarray of float, shape (k + 1,)
            ``n`` and the counts plus noise (for k = 2: ``[n, n - c, c]`` with ``c`` the noisy
            count of 1s).
        """
        codes = self._check_values(values).ravel()
        if codes.size == 0:
            raise ValueError("values is empty: the curator needs at least one record")
        gen = check_random_state(rng)
        counts = np.bincount(codes, minlength=self.k).astype(float)
        if self.k == 2:
            c1 = counts[1] + gen.laplace(0.0, self.scale)
            noisy = np.array([codes.size - c1, c1])
        else:
            noisy = counts + gen.laplace(0.0, self.scale, size=self.k)
        return np.concatenate([[float(codes.size)], noisy])

    def counts(self, reports) -> np.ndarray:
        """The noisy counts of a release (its entries after ``n``).

        Parameters
        ----------
        reports : array-like of float, shape (k + 1,)
            A release from :meth:`randomize`.

        Returns
        -------
        ndarray of float, shape (k,)
            The noisy counts (they may be negative).
        """
        return self._counted(reports)[0]

    def _counted(self, reports) -> tuple[np.ndarray, int]:
        release = check_finite_1d(reports, "reports")
        n = release[0] if release.size == self.k + 1 else math.nan
        if not (n >= 1 and n == round(n)):
            raise ValueError(f"reports must be one release of {self.k + 1} numbers (n, then the "
                             f"{self.k} noisy counts), got shape {release.shape}")
        return release[1:].copy(), int(n)

    def inversion_covariance(self, frequencies, n: int) -> np.ndarray:
        """Covariance of the ``"inversion"`` estimate, the noisy counts over ``n``.

        Laplace(b) has variance ``2 b^2``; for k = 2 the two shares move together.

        Parameters
        ----------
        frequencies : array-like of float, shape (k,)
            The sample's own share of each category (the noise does not depend on it).
        n : int
            Number of records, >= 1.

        Returns
        -------
        ndarray, shape (k, k)
            The covariance matrix.

        Raises
        ------
        ValueError
            If ``frequencies`` is not a distribution over the k categories or ``n`` is not a
            positive integer.
        """
        _, n = self._check_frequencies(frequencies, n)
        var = 2.0 * self.scale ** 2 / n ** 2
        return np.array([[var, -var], [-var, var]]) if self.k == 2 else np.diag(np.full(self.k, var))
