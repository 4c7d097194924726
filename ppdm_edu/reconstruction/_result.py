"""The result of a reconstruction: :class:`Reconstruction`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from ..posterior import posterior
from ..randomization import Noise


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
        True if the stopping rule was met within ``max_iter`` iterations: with
        ``stop="paper"`` the chi^2 statistic fell to the threshold; with
        ``stop="cross-validation"`` the held-out score stopped improving (its curve was cut
        by the rule below, not by ``max_iter``).
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
    >>> from ppdm_edu import UniformNoise, perturb, plateau, reconstruct
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
        # a None noise goes through on purpose: posterior's check_noise raises the TypeError
        return posterior(w, self.edges, self.probabilities, cast(Noise, self.noise),
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

