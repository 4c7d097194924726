"""Exact bounds the audits share (Clopper & Pearson 1934; Garwood 1936).

The audits turn counts of runs whose output fell in an event into one-sided bounds on the
event's probability. Clopper–Pearson bounds are exact: for any true probability ``p`` the lower
bound exceeds ``p`` with probability at most ``alpha``. They stay conservative when the runs
counted are independent but not identically distributed (a sum of two binomials with different
``p``, as in a pooled audit): Hoeffding (1956, Theorem 4) shows such a sum is more concentrated
than the binomial with the same mean, so its tails beyond the mean are lighter.

The ε audit bounds a *ratio* of two probabilities in one step instead (:func:`ratio_lower`,
:func:`poisson_epsilon_bound`): with Poisson counts ``K_num ~ Poisson(μ_num)`` and
``K_den ~ Poisson(μ_den)``, independent, the numerator's share of the ``m = K_num + K_den``
counted runs is exactly ``Binomial(m, μ_num / (μ_num + μ_den))`` (the conditional test of two
Poisson means, Przyborowski & Wilenski 1940). One Clopper–Pearson bound at the full error
``alpha`` then bounds the ratio, where two bounds (one per probability, ``alpha / 2`` each) would
need both to sit at their worst ends at once.
"""
from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np
from scipy import special

# The Clopper-Pearson bounds are quantiles of beta distributions (Clopper & Pearson 1934: the
# lower bound from k of n is the alpha quantile of Beta(k, n - k + 1)) and Garwood's Poisson bound
# a quantile of a gamma distribution (Gamma(k) at alpha): the inverse regularized incomplete beta
# and gamma functions.


def check_confidence(confidence) -> float:
    """The confidence of an audit's bound, in [0.5, 1).

    Parameters
    ----------
    confidence : float
        Probability that the bound holds.

    Returns
    -------
    float
        ``confidence`` as a float.

    Raises
    ------
    TypeError
        If ``confidence`` is not a real number.
    ValueError
        If it is outside [0.5, 1): a lower bound that holds with probability below one half is
        more often wrong than right (and ``1 - confidence`` rounds to 1 near 0).

    Examples
    --------
    >>> check_confidence(0.95)
    0.95
    """
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"confidence must be a real number in [0.5, 1), got {confidence!r}")
    confidence = float(confidence)
    if not 0.5 <= confidence < 1.0:
        raise ValueError(f"confidence must be in [0.5, 1) (the probability that the bound holds; below "
                         f"0.5 a lower bound is more often wrong than right), got {confidence!r}")
    return confidence


def cp_lower(k, n, alpha: float) -> np.ndarray:
    """One-sided Clopper–Pearson lower bound on ``p`` from ``k`` successes in ``n`` runs.

    Parameters
    ----------
    k : int or array_like of int
        Successes, ``0 <= k <= n``.
    n : int or array_like of int
        Runs.
    alpha : float
        Error probability: ``P(bound > p) <= alpha``.

    Returns
    -------
    ndarray
        The bound (0 where ``k = 0``).

    Examples
    --------
    >>> float(cp_lower(0, 10, 0.05)), round(float(cp_lower(10, 10, 0.05)), 4)
    (0.0, 0.7411)
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    return np.where(k > 0, special.betaincinv(np.maximum(k, 1), n - k + 1, alpha), 0.0)


def cp_upper(k, n, alpha: float) -> np.ndarray:
    """One-sided Clopper–Pearson upper bound on ``p`` from ``k`` successes in ``n`` runs.

    Parameters
    ----------
    k : int or array_like of int
        Successes, ``0 <= k <= n``.
    n : int or array_like of int
        Runs.
    alpha : float
        Error probability: ``P(bound < p) <= alpha``.

    Returns
    -------
    ndarray
        The bound (1 where ``k = n``).

    Examples
    --------
    >>> round(float(cp_upper(0, 10, 0.05)), 4)      # the "rule of three" is 3 / n = 0.3
    0.2589
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    return np.where(k < n, special.betaincinv(k + 1, np.maximum(n - k, 1), 1.0 - alpha), 1.0)


def epsilon_bound(k_num, k_den, n, alpha: float, delta: float) -> np.ndarray:
    """Lower bound on ε from one event: ``ln((P_num_lower − δ) / P_den_upper)``, at least 0.

    (ε, δ)-DP requires ``P(M(x) ∈ S) <= e^ε P(M(x') ∈ S) + δ`` for every event ``S``
    (Dwork & Roth 2014, Def. 2.4); with ``S`` the rejection region of a test, ``P_num = 1 − FNR``
    and ``P_den = FPR``, the form of Jagielski, Ullman & Oprea (2020) and Nasr et al. (2021).
    Each probability is bounded with error ``alpha`` (Bonferroni over the two).

    Parameters
    ----------
    k_num, k_den : int or array_like of int
        Runs of the numerator and denominator input that fell in the event.
    n : int or array_like of int
        Runs per input.
    alpha : float
        Error probability of each one-sided bound.
    delta : float
        The δ at which ε is bounded.

    Returns
    -------
    ndarray
        The bound (0 where nothing is shown).

    Examples
    --------
    >>> round(float(epsilon_bound(7500, 2500, 10_000, 0.025, 0.0)), 2)   # ln 3 = 1.10
    1.05
    """
    low = cp_lower(k_num, n, alpha) - delta
    up = cp_upper(k_den, n, alpha)
    with np.errstate(divide="ignore"):
        ratio = np.log(np.maximum(low, 1e-300) / up)
    return np.where(low > 0, np.maximum(ratio, 0.0), 0.0)


def delta_bound(k_num, k_den, n, alpha: float, epsilon: float) -> np.ndarray:
    """Lower bound on δ at a given ε from one event: ``P_num_lower − e^ε P_den_upper``, at least 0.

    Parameters
    ----------
    k_num, k_den : int or array_like of int
        Runs of the numerator and denominator input that fell in the event.
    n : int or array_like of int
        Runs per input.
    alpha : float
        Error probability of each one-sided bound.
    epsilon : float
        The ε at which δ is bounded (``inf`` gives 0).

    Returns
    -------
    ndarray
        The bound.

    Examples
    --------
    >>> round(float(delta_bound(9000, 0, 10_000, 0.025, 1.0)), 3)
    0.893
    """
    if not np.isfinite(epsilon):
        return np.zeros(np.broadcast(np.asarray(k_num), np.asarray(k_den)).shape)
    low = cp_lower(k_num, n, alpha)
    up = cp_upper(k_den, n, alpha)
    return np.maximum(low - np.exp(epsilon) * up, 0.0)


def poisson_lower(k, alpha: float) -> np.ndarray:
    """One-sided lower bound on a Poisson mean ``μ`` from one count ``k`` (Garwood 1936).

    Parameters
    ----------
    k : int or array_like of int
        The count, ``k >= 0``.
    alpha : float
        Error probability: ``P(bound > μ) <= alpha``.

    Returns
    -------
    ndarray
        The bound (0 where ``k = 0``).

    Examples
    --------
    >>> round(float(poisson_lower(100, 0.05)), 1)      # about 100 - 1.645 * 10
    84.1
    """
    k = np.asarray(k, dtype=float)
    return np.where(k > 0, special.gammaincinv(np.maximum(k, 1e-300), alpha), 0.0)


def ratio_lower(k_num, k_den, alpha: float) -> np.ndarray:
    """One-sided lower bound on ``μ_num / μ_den`` from two independent Poisson counts.

    Given their sum ``m``, ``k_num`` is ``Binomial(m, π)`` with ``π = μ_num / (μ_num + μ_den)``
    (Przyborowski & Wilenski 1940); the Clopper–Pearson lower bound on ``π`` is turned into the
    ratio ``π / (1 − π)``, which increases with ``π``. Exact at every ``m``, so at every pair of means.

    Parameters
    ----------
    k_num, k_den : int or array_like of int
        The two counts.
    alpha : float
        Error probability: ``P(bound > μ_num / μ_den) <= alpha``.

    Returns
    -------
    ndarray
        The bound (0 where ``k_num = 0``; finite even where ``k_den = 0``).

    Examples
    --------
    >>> round(float(ratio_lower(300, 100, 0.05)), 2)      # the counts show 3
    2.47
    """
    k_num = np.asarray(k_num, dtype=float)
    k_den = np.asarray(k_den, dtype=float)
    share = cp_lower(k_num, k_num + k_den, alpha)
    return share / (1.0 - share)


class PoissonEpsilonBound(NamedTuple):
    """The result of :func:`poisson_epsilon_bound` (each field an array over the counts given)."""

    #: lower bound on ε at δ (0 where nothing is shown)
    epsilon: np.ndarray
    #: lower bound on ``μ_num / μ_den`` before δ's share is taken off
    ratio: np.ndarray
    #: the error the ratio bound spent (all of ``alpha`` at δ = 0, nine tenths of it at δ > 0)
    alpha_ratio: float


def poisson_epsilon_bound(k_num, k_den, runs, alpha: float, delta: float) -> PoissonEpsilonBound:
    """Lower bound on ε at δ from Poisson counts of one event (or a pooled pair), at least 0.

    ``K_num ~ Poisson(runs · P_num)`` and ``K_den ~ Poisson(runs · P_den)``, independent, where
    ``runs`` is the expected number of runs behind each count (per input, times the number of
    events pooled). (ε, δ)-DP requires ``P_num <= e^ε P_den + δ`` (Dwork & Roth 2014, Def. 2.4),
    so ``e^ε >= μ_num / μ_den − runs · δ / μ_den``. With δ = 0 the ratio bound takes the whole
    error ``alpha``; with δ > 0 a tenth of it goes to the lower bound on ``μ_den`` of the δ term
    (a union bound: the result holds when both bounds do).

    Parameters
    ----------
    k_num, k_den : int or array_like of int
        The two counts.
    runs : float or array_like
        Expected runs behind each count.
    alpha : float
        Error probability of the bound.
    delta : float
        The δ at which ε is bounded.

    Returns
    -------
    PoissonEpsilonBound
        ``epsilon`` (0 where nothing is shown, and where ``k_den = 0`` with δ > 0), the ratio
        bound it comes from and the error that bound spent.

    Examples
    --------
    >>> bound = poisson_epsilon_bound(300, 100, 10_000, 0.05, 0.0)      # ln 3 = 1.10
    >>> round(float(bound.epsilon), 2), round(float(bound.ratio), 2), bound.alpha_ratio
    (0.9, 2.47, 0.05)
    """
    k_num = np.asarray(k_num, dtype=float)
    k_den = np.asarray(k_den, dtype=float)
    alpha_ratio = alpha - alpha / 10 if delta > 0 else alpha
    ratio = ratio_lower(k_num, k_den, alpha_ratio)
    e_eps = ratio
    if delta > 0:
        den_low = poisson_lower(k_den, alpha / 10)
        with np.errstate(divide="ignore"):
            slack = np.where(den_low > 0, np.asarray(runs, dtype=float) * delta / den_low, np.inf)
        e_eps = ratio - slack
    with np.errstate(divide="ignore"):
        epsilon = np.where(e_eps > 1.0, np.log(np.maximum(e_eps, 1.0)), 0.0)
    return PoissonEpsilonBound(epsilon, ratio, alpha_ratio)
