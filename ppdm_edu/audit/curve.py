"""The trade-off curve of a mechanism for two inputs: what an attacker's test can achieve.

An attacker sees one output and tests "the input was x0" against "it was x1" by rejecting x0
when the output falls in an event S. Its type I error is ``α = P(M(x0) ∈ S)`` and its type II
error ``β = P(M(x1) ∉ S)``. The best tests (Neyman–Pearson: S = {likelihood ratio ≥ t}) trace the
*trade-off curve* β(α) (Dong, Roth & Su 2022, f-DP). A privacy guarantee promises that no test
falls below a curve:

* ε-DP and (ε, δ)-DP: ``β ≥ max(0, 1 − δ − e^ε α, e^{−ε} (1 − δ − α))``
  (Kairouz, Oh & Viswanath 2015; Dong et al. Prop. 2.5), :func:`epsilon_delta_tradeoff`;
* μ-GDP (the Gaussian mechanism with sensitivity/σ = μ): ``β ≥ Φ(Φ⁻¹(1 − α) − μ)``,
  :func:`gdp_tradeoff`.

:func:`tradeoff_curve` measures the curve of the tests :func:`~ppdm_edu.audit.audit_epsilon`
would choose from (the score learned on the fitting runs), on fresh runs, with pointwise
Clopper–Pearson bands. The audited ε comes from one point of this curve; the whole curve shows
why a bound is loose (few runs in the corner where the promised curve bends) or tight.

Examples
--------
>>> from ppdm_edu.mechanisms import WarnerRR
>>> curve = tradeoff_curve(WarnerRR(0.75), 1, 0, trials=10_000, rng=0)
>>> curve.alpha.round(2).tolist(), curve.beta.round(2).tolist()    # ε = ln 3: β ≥ 0.25 at α = 0.25
([0.0, 0.24, 1.0], [1.0, 0.24, 0.0])
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._validation import check_finite_array, check_positive, check_probability
from ._events import choose_event, learn_scores
from ._stats import check_confidence, cp_lower, cp_upper, epsilon_bound
from ._two_input import SELECTION_SHARE, _check_trials, _warn_if_rng_ignored, run_twice, split

__all__ = ["TradeoffCurve", "tradeoff_curve", "epsilon_delta_tradeoff", "gdp_tradeoff"]

#: At most this many points on a measured curve (quantiles of the score beyond it).
MAX_POINTS = 200


@dataclass(frozen=True)
class TradeoffCurve:
    """A measured trade-off curve (the result of :func:`tradeoff_curve`).

    Attributes
    ----------
    alpha : ndarray
        Type I errors ``P(M(x0) ∈ S_t)``, increasing from 0 to 1 (one per threshold).
    beta : ndarray
        Type II errors ``P(M(x1) ∉ S_t)``, decreasing from 1 to 0.
    alpha_low : ndarray
        Pointwise lower Clopper–Pearson bound on each ``alpha`` (each of the four bounds has error
        ``(1 − confidence) / 2``: each point's interval on its own, not simultaneous over the curve).
    alpha_high : ndarray
        Pointwise upper bound on each ``alpha``.
    beta_low : ndarray
        Pointwise lower bound on each ``beta``.
    beta_high : ndarray
        Pointwise upper bound on each ``beta``.
    score : str
        The score whose thresholds make the tests.
    n_estimation : int
        Runs per input the curve is measured on.
    trials : int
        Runs per input in all.
    confidence : float
        Confidence of each band.
    """

    alpha: np.ndarray
    beta: np.ndarray
    alpha_low: np.ndarray
    alpha_high: np.ndarray
    beta_low: np.ndarray
    beta_high: np.ndarray
    score: str
    n_estimation: int
    trials: int
    confidence: float


def tradeoff_curve(randomizer, x0, x1, *, trials: int, confidence: float = 0.95,
                   selection: float = SELECTION_SHARE, rng=None) -> TradeoffCurve:
    """The empirical trade-off curve (type I against type II error) of tests on one output.

    Parameters
    ----------
    randomizer : Mechanism or callable
        As in :func:`~ppdm_edu.audit.audit_epsilon`.
    x0, x1 : scalar or 1-D array
        The two neighbouring inputs (the test rejects x0).
    trials : int
        Runs per input, from 4 to :data:`~ppdm_edu.audit.MAX_TRIALS`.
    confidence : float, default 0.95
        Confidence of each pointwise band, in [0.5, 1).
    selection : float, default SELECTION_SHARE
        Share of the runs that learn the score (and choose it among the candidates).
    rng : None, int or numpy.random.Generator
        Seed.

    Returns
    -------
    TradeoffCurve
        The curve and its bands, measured on the runs the score was not learned on.

    Raises
    ------
    TypeError, ValueError
        As :func:`~ppdm_edu.audit.audit_epsilon`.
    """
    trials = _check_trials(trials)
    confidence = check_confidence(confidence)
    selection = check_probability(selection, "selection", open_interval=True)
    _warn_if_rng_ignored(randomizer, rng)
    parts = split(*run_twice(randomizer, x0, x1, trials, rng), selection)
    # the score is the one the ε audit would pick (the most telling tests at the corner)
    choice = choose_event(learn_scores(*parts.fit), *parts.tune,
                          lambda k_num, k_den, n: epsilon_bound(k_num, k_den, n, 0.025, 0.0))
    score = choice.events[0].score
    s0, s1 = score.of(parts.est[0]), score.of(parts.est[1])
    values = np.unique(np.concatenate([s0, s1]))
    if values.size > MAX_POINTS:
        values = np.unique(np.quantile(values, np.linspace(0, 1, MAX_POINTS), method="nearest"))
    # reject x0 when score >= t: from t above every score (the corner (0, 1)) to the lowest
    # score (every run rejected, the corner (1, 0))
    t = np.concatenate([[np.inf], values[::-1]])
    n = s0.size
    k0 = n - np.searchsorted(np.sort(s0), t, side="left")      # x0's runs rejected
    k1 = n - np.searchsorted(np.sort(s1), t, side="left")      # x1's runs rejected
    a = (1.0 - confidence) / 2.0
    return TradeoffCurve(alpha=k0 / n, beta=1 - k1 / n,
                         alpha_low=cp_lower(k0, n, a), alpha_high=cp_upper(k0, n, a),
                         beta_low=1 - cp_upper(k1, n, a), beta_high=1 - cp_lower(k1, n, a),
                         score=score.name, n_estimation=n, trials=trials, confidence=confidence)


def epsilon_delta_tradeoff(alpha, epsilon: float, delta: float = 0.0) -> np.ndarray:
    """The lowest type II error (ε, δ)-DP allows at type I error ``alpha``.

    Parameters
    ----------
    alpha : array_like
        Type I errors in [0, 1].
    epsilon : float
        ε ≥ 0 (``inf``: no constraint).
    delta : float, default 0.0
        δ in [0, 1].

    Returns
    -------
    ndarray
        ``max(0, 1 − δ − e^ε α, e^{−ε} (1 − δ − α))``.

    Raises
    ------
    ValueError
        If an argument is out of range.

    Examples
    --------
    >>> epsilon_delta_tradeoff([0.0, 0.25, 1.0], math.log(3)).round(3).tolist()
    [1.0, 0.25, 0.0]
    """
    a = check_finite_array(alpha, "alpha")
    if ((a < 0) | (a > 1)).any():
        raise ValueError("alpha must lie in [0, 1]")
    if not (isinstance(epsilon, numbers.Real) and epsilon == math.inf):  # inf: no constraint
        epsilon = check_positive(epsilon, "epsilon", allow_zero=True)
    delta = check_probability(delta, "delta")
    if math.isinf(epsilon):
        return np.zeros_like(a)
    return np.maximum.reduce([np.zeros_like(a), 1 - delta - math.exp(epsilon) * a,
                              math.exp(-epsilon) * (1 - delta - a)])


def gdp_tradeoff(alpha, mu: float) -> np.ndarray:
    """The lowest type II error μ-Gaussian DP allows at type I error ``alpha`` (Dong et al. 2022).

    Parameters
    ----------
    alpha : array_like
        Type I errors in [0, 1].
    mu : float
        μ ≥ 0 (the Gaussian mechanism: sensitivity / σ).

    Returns
    -------
    ndarray
        ``Φ(Φ⁻¹(1 − α) − μ)``.

    Raises
    ------
    ValueError
        If an argument is out of range.

    Examples
    --------
    >>> gdp_tradeoff([0.0, 0.5, 1.0], 0.0).tolist()
    [1.0, 0.5, 0.0]
    """
    a = check_finite_array(alpha, "alpha")
    if ((a < 0) | (a > 1)).any():
        raise ValueError("alpha must lie in [0, 1]")
    mu = check_positive(mu, "mu", allow_zero=True)
    return stats.norm.cdf(stats.norm.isf(a) - mu)
