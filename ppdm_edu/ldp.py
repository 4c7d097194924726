"""From 2000-era randomization to local differential privacy (LDP).

A randomizer ``M`` is **epsilon-LDP** if for every two inputs ``x, x'`` and every output ``y``,
``P(M(x) = y) <= e^epsilon P(M(x') = y)``. The same ratio bound is what Evfimievski, Gehrke &
Srikant (PODS 2003) call an *at most gamma-amplifying* randomization (``gamma = e^epsilon``), and
they prove it rules out rho1-to-rho2 privacy breaches whenever
``rho2 (1 - rho1) / (rho1 (1 - rho2)) > gamma`` (their Theorem 1). This module states the
mechanisms of the course in that vocabulary:

* **Randomized response** (Warner 1965; Du & Zhan 2003): keeping the true bit with probability
  theta is epsilon-LDP with ``epsilon = |ln(theta / (1 - theta))|`` (:func:`rr_epsilon`, reused
  from :mod:`ppdm_edu.randomized_response`), and :func:`rho_breach` checks breaches.
* **Laplace mechanism on bounded data**: ``x + Laplace(Delta / epsilon)`` for ``x`` in
  ``[low, high]`` (``Delta = high - low``) is epsilon-LDP and unbiased
  (:func:`laplace_mechanism`, :class:`LaplaceNoise`).
* **Gaussian and uniform additive noise** (Agrawal & Srikant 2000) give **no** pure epsilon: the
  log-likelihood ratio :func:`log_likelihood_ratio` of Gaussian noise grows without bound in ``w``, and
  uniform noise makes some outputs impossible under one input and possible under another
  (:func:`worst_case_epsilon` is infinite). Gaussian noise only gives the weaker
  (epsilon, delta) guarantee (:func:`gaussian_delta`, :func:`gaussian_epsilon`).

Examples
--------
>>> from ppdm_edu.ldp import rr_epsilon, rho_breach, laplace_noise_for_epsilon
>>> round(rr_epsilon(0.75), 4)
1.0986
>>> rho_breach(0.05, 0.5, theta=0.9).breach
False
>>> laplace_noise_for_epsilon(1.0, bounds=(0, 10)).b
10.0
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, special

from ._validation import (
    check_bounds,
    check_finite_1d,
    check_finite_array,
    check_positive,
    check_probability,
    check_real,
)
from .randomization import LaplaceNoise, Noise, check_noise, noise_for_privacy
from .randomized_response import check_theta, rr_epsilon, theta_for_epsilon

__all__ = [
    "amplification",
    "rr_posterior",
    "BreachCheck",
    "rho_breach",
    "breach_limit",
    "max_theta_without_breach",
    "laplace_noise_for_epsilon",
    "laplace_mechanism",
    "log_likelihood_ratio",
    "worst_case_epsilon",
    "gaussian_delta",
    "gaussian_epsilon",
    "GAUSSIAN_MAX_EPSILON",
    "mechanism_table",
]


# ---------------------------------------------------------------------------------------------
# Randomized response as epsilon-LDP, and rho1-to-rho2 breaches (Evfimievski et al. 2003)
# ---------------------------------------------------------------------------------------------
def amplification(theta):
    """gamma = e^epsilon = max(theta / (1 - theta), (1 - theta) / theta) of randomized response.

    Evfimievski, Gehrke & Srikant (2003, Def. 3): a randomization is *at most gamma-amplifying*
    if ``p(x -> y) / p(x' -> y) <= gamma`` for all inputs and outputs.

    Parameters
    ----------
    theta : float or array-like of float
        Probability of keeping the true bit, in [0, 1].

    Returns
    -------
    float or ndarray
        ``gamma >= 1`` (a float for a scalar ``theta``); infinite at theta 0 or 1.

    Raises
    ------
    TypeError, ValueError
        If ``theta`` is not a number (or array of numbers) in [0, 1].

    Examples
    --------
    >>> round(amplification(0.9), 6)
    9.0
    """
    out = np.exp(rr_epsilon(theta))
    return float(out) if np.ndim(out) == 0 else out


def rr_posterior(prior, theta, answer: int = 1):
    """P(X = 1 | Y = answer) under Warner's randomized response (keep the bit w.p. theta).

    ``P(Y = 1 | X = 1) = theta`` and ``P(Y = 1 | X = 0) = 1 - theta`` (Du & Zhan 2003, Sec. 3),
    so by Bayes' rule the posterior odds are the prior odds times ``theta / (1 - theta)`` after
    a "1" (divided by it after a "0").

    Parameters
    ----------
    prior : float or array-like in [0, 1]
        P(X = 1) before the answer is seen.
    theta : float or array-like in [0, 1]
        Probability that the reported bit is the true one (broadcast against ``prior``).
    answer : {0, 1}, default 1
        The reported bit ``Y``.

    Returns
    -------
    float or ndarray
        The posterior ``P(X = 1 | Y = answer)`` (a float for scalar inputs). Where the answer
        is impossible (theta 0 or 1 with a prior of 0 or 1), the prior.

    Raises
    ------
    ValueError
        If ``answer`` is not 0 or 1, or ``prior``/``theta`` lie outside [0, 1].

    Examples
    --------
    >>> round(rr_posterior(0.05, 0.9, answer=1), 4)
    0.3214
    """
    if answer not in (0, 1):
        raise ValueError(f"answer must be 0 or 1, got {answer!r}")
    p = check_theta(prior, "prior", vectorized=True)  # same rule: numbers in [0, 1]
    t = check_theta(theta, vectorized=True)
    like1 = t if answer == 1 else 1.0 - t  # P(Y = answer | X = 1)
    like0 = 1.0 - t if answer == 1 else t  # P(Y = answer | X = 0)
    num = like1 * p
    den = num + like0 * (1.0 - p)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), p)
    return float(out) if out.ndim == 0 else out


def breach_limit(rho1: float, rho2: float) -> float:
    """``rho2 (1 - rho1) / (rho1 (1 - rho2))``: the amplification below which no
    rho1-to-rho2 breach can happen (Evfimievski et al. 2003, Theorem 1).

    Parameters
    ----------
    rho1 : float
        Prior probability bound of the property, strictly between 0 and 1.
    rho2 : float
        Posterior probability that counts as a breach, strictly between ``rho1`` and 1.

    Returns
    -------
    float
        The limit (> 1): an at most gamma-amplifying randomization with ``gamma`` below it
        allows no rho1-to-rho2 breach.

    Raises
    ------
    ValueError
        If ``rho1`` or ``rho2`` is not in (0, 1) or ``rho1 >= rho2``.

    Examples
    --------
    >>> round(breach_limit(0.05, 0.5), 6)
    19.0
    """
    rho1, rho2 = _check_rhos(rho1, rho2)
    return rho2 * (1.0 - rho1) / (rho1 * (1.0 - rho2))


def _check_rhos(rho1, rho2):
    rho1 = check_probability(rho1, "rho1", open_interval=True)
    rho2 = check_probability(rho2, "rho2", open_interval=True)
    if not rho1 < rho2:
        raise ValueError(f"rho1 must be smaller than rho2 (a breach is a jump up), got {rho1} >= {rho2}")
    return rho1, rho2


@dataclass(frozen=True)
class BreachCheck:
    """Outcome of :func:`rho_breach` for randomized response with parameter theta.

    Attributes
    ----------
    rho1 : float
        Prior bound of the property (a breach raises a prior <= rho1 to >= rho2).
    rho2 : float
        Posterior bound of the property, ``rho1 < rho2``.
    theta : float
        Probability that randomized response keeps the true bit.
    epsilon : float
        LDP level of the randomization, ``|ln(theta / (1 - theta))|``.
    gamma : float
        Amplification ``e^epsilon``.
    limit : float
        ``rho2 (1 - rho1) / (rho1 (1 - rho2))``; Theorem 1 guarantees no breach if gamma < limit.
    upward_posterior : float
        Largest posterior of a property whose prior is rho1 (after the most telling answer).
    downward_posterior : float
        Smallest posterior of a property whose prior is rho2.
    breach : bool
        True if an upward (posterior >= rho2) or downward (posterior <= rho1) breach happens.
    guaranteed : bool
        True if Theorem 1 rules breaches out (gamma < limit).
    """

    rho1: float
    rho2: float
    theta: float
    epsilon: float
    gamma: float
    limit: float
    upward_posterior: float
    downward_posterior: float
    breach: bool
    guaranteed: bool


def rho_breach(rho1: float, rho2: float, theta: float) -> BreachCheck:
    """Does randomized response with this theta allow a rho1-to-rho2 privacy breach?

    Evfimievski, Gehrke & Srikant (PODS 2003, Def. 1): an *upward* rho1-to-rho2 breach occurs
    when a property Q(X) with prior probability <= rho1 gets posterior probability >= rho2 after
    the randomized value is seen; a *downward* one when a prior >= rho2 falls to <= rho1. For a
    one-bit answer the posterior odds are the prior odds times gamma (or divided by it), so the
    worst property is the one with prior exactly rho1 (rho2) and Theorem 1 is tight:
    a breach happens exactly when ``gamma >= limit``.

    Parameters
    ----------
    rho1 : float
        Prior probability bound, strictly between 0 and 1.
    rho2 : float
        Posterior probability bound, strictly between ``rho1`` and 1.
    theta : float
        Probability that randomized response keeps the true bit, in [0, 1].

    Returns
    -------
    BreachCheck
        Epsilon, gamma, the Theorem 1 limit, the worst upward and downward posteriors and
        whether a breach happens.

    Raises
    ------
    ValueError
        If ``rho1``/``rho2`` are not in (0, 1) with ``rho1 < rho2``, or ``theta`` is not in
        [0, 1].

    Examples
    --------
    >>> c = rho_breach(0.05, 0.5, theta=0.96)
    >>> c.breach, round(c.upward_posterior, 3), round(c.gamma, 1), round(c.limit, 1)
    (True, 0.558, 24.0, 19.0)
    """
    rho1, rho2 = _check_rhos(rho1, rho2)
    theta = check_theta(theta)
    eps = float(rr_epsilon(theta))
    gamma = math.exp(eps) if math.isfinite(eps) else math.inf
    telling = 1 if theta >= 0.5 else 0  # the answer that raises P(X = 1) most
    up = float(rr_posterior(rho1, theta, answer=telling))
    down = float(rr_posterior(rho2, theta, answer=1 - telling))
    limit = breach_limit(rho1, rho2)
    return BreachCheck(
        rho1=rho1, rho2=rho2, theta=theta, epsilon=eps, gamma=gamma, limit=limit,
        upward_posterior=up, downward_posterior=down,
        # a breach is posterior >= rho2 (<= rho1); the tiny tolerance keeps theta exactly at the
        # limit (posterior = rho2 up to rounding) on the breach side, as the definition says
        breach=bool(up >= rho2 * (1 - 1e-12) or down <= rho1 * (1 + 1e-12)),
        guaranteed=bool(gamma < limit * (1 - 1e-12)),
    )


def max_theta_without_breach(rho1: float, rho2: float) -> float:
    """The theta (>= 0.5) at which randomized response starts to allow rho1-to-rho2 breaches.

    Any theta strictly between ``1 - t`` and ``t`` (t returned here) is safe:
    ``t = limit / (1 + limit)`` with ``epsilon = ln(limit)``.

    Parameters
    ----------
    rho1 : float
        Prior probability bound, strictly between 0 and 1.
    rho2 : float
        Posterior probability bound, strictly between ``rho1`` and 1.

    Returns
    -------
    float
        ``t`` in (0.5, 1): the theta at which gamma reaches :func:`breach_limit`.

    Raises
    ------
    ValueError
        If ``rho1``/``rho2`` are not in (0, 1) with ``rho1 < rho2``.

    Examples
    --------
    >>> round(max_theta_without_breach(0.05, 0.5), 4)
    0.95
    """
    return float(theta_for_epsilon(math.log(breach_limit(rho1, rho2))))


# ---------------------------------------------------------------------------------------------
# Laplace mechanism on bounded data
# ---------------------------------------------------------------------------------------------
def laplace_noise_for_epsilon(epsilon: float, bounds) -> LaplaceNoise:
    """``LaplaceNoise(b = (high - low) / epsilon)``: the noise that makes bounded data epsilon-LDP.

    Parameters
    ----------
    epsilon : float
        The privacy level, > 0.
    bounds : (float, float)
        ``(low, high)``, the known range of the data (``low < high``); its width is the
        sensitivity ``Delta``.

    Returns
    -------
    LaplaceNoise
        Laplace noise with scale ``b = Delta / epsilon``.

    Raises
    ------
    ValueError
        If ``epsilon <= 0``, ``bounds`` is not a finite increasing pair, or ``(high - low) /
        epsilon`` overflows.

    Examples
    --------
    >>> laplace_noise_for_epsilon(2.0, (0, 1)).b
    0.5
    """
    eps = check_positive(epsilon, "epsilon")
    lo, hi = check_bounds(bounds)
    b = (hi - lo) / eps
    if not math.isfinite(b):
        raise ValueError(f"epsilon = {eps:g} is too small for the range {hi - lo:g}: the Laplace scale "
                         f"(high - low) / epsilon overflows; epsilon must be at least "
                         f"{(hi - lo) / np.finfo(float).max:g}")
    return LaplaceNoise(b)


def laplace_mechanism(x, epsilon: float, bounds, rng=None) -> np.ndarray:
    """Each value in ``[low, high]`` reported as ``x + Laplace((high - low) / epsilon)``.

    The output densities for two inputs differ by at most a factor
    ``exp(|x - x'| / b) <= exp(epsilon)``: epsilon-LDP, whatever the output. The noise has mean
    0, so the mean of the reports estimates the mean of the data without bias.

    Parameters
    ----------
    x : array-like of float
        Values that must lie in ``bounds`` (the guarantee needs a known range; values outside
        raise instead of being silently clipped).
    epsilon : float
        The privacy level, > 0.
    bounds : (float, float)
        ``(low, high)``, the known range of the data (``low < high``).
    rng : None, int or numpy.random.Generator
        Source of the noise.

    Returns
    -------
    ndarray of float
        The reports ``x + Laplace((high - low) / epsilon)``, same shape as ``x``.

    Raises
    ------
    ValueError
        If ``x`` is empty, not numeric, not finite or has values outside ``bounds``, or
        ``epsilon``/``bounds`` are invalid.

    Examples
    --------
    >>> import numpy as np
    >>> y = laplace_mechanism(np.full(100_000, 0.3), 1.0, (0, 1), rng=0)
    >>> round(float(y.mean()), 1)
    0.3
    """
    noise = laplace_noise_for_epsilon(epsilon, bounds)
    lo, hi = check_bounds(bounds)
    arr = check_finite_array(x, "x")
    outside = (arr < lo) | (arr > hi)
    if outside.any():
        raise ValueError(
            f"x has {int(outside.sum())} value(s) outside bounds [{lo}, {hi}] (first "
            f"{float(arr[outside].ravel()[0]):g}); the epsilon guarantee needs every value in the "
            "bounds: clip them or widen the bounds"
        )
    return arr + noise.sample(arr.shape, rng)


# ---------------------------------------------------------------------------------------------
# Why Gaussian / uniform additive noise give no pure epsilon
# ---------------------------------------------------------------------------------------------
def log_likelihood_ratio(noise: Noise, x1: float, x2: float, w):
    """``ln f_R(w - x1) - ln f_R(w - x2)``: how much more likely output w is under x1 than x2.

    epsilon-LDP means ``|log_likelihood_ratio| <= epsilon`` for every w and every x1, x2. For Laplace noise it stays in
    ``[-|x1 - x2| / b, |x1 - x2| / b]``; for Gaussian noise it is linear in w,
    ``(x1 - x2)(2 w - x1 - x2) / (2 sigma^2)``, so unbounded; for uniform noise it is +-inf
    where only one input can produce w. Outputs impossible under both inputs give NaN.

    Parameters
    ----------
    noise : Noise
        The additive noise model ``R``.
    x1 : float
        The first input (finite).
    x2 : float
        The second input (finite).
    w : array-like of float, shape (n,)
        Outputs at which to evaluate the ratio (finite).

    Returns
    -------
    ndarray, shape (n,)
        The log-likelihood ratio at each ``w``; ``+-inf`` where only one input can produce
        ``w``, NaN where neither can.

    Raises
    ------
    TypeError
        If ``noise`` is not a noise model.
    ValueError
        If ``x1``, ``x2`` or ``w`` is not finite.

    Examples
    --------
    >>> from ppdm_edu import GaussianNoise
    >>> log_likelihood_ratio(GaussianNoise(1.0), 0.0, 1.0, [0.5, 10.0]).round(2).tolist()
    [0.0, -9.5]
    """
    check_noise(noise)
    x1, x2 = check_real(x1, "x1"), check_real(x2, "x2")
    if not (math.isfinite(x1) and math.isfinite(x2)):
        raise ValueError("x1 and x2 must be finite")
    w = check_finite_1d(w, "w")
    a, b = noise.logpdf(w - x1), noise.logpdf(w - x2)
    with np.errstate(invalid="ignore"):
        out = a - b
    both_impossible = np.isneginf(a) & np.isneginf(b)
    return np.where(both_impossible, np.nan, out)


def worst_case_epsilon(noise: Noise, bounds) -> float:
    """The smallest epsilon for which ``x + noise`` on ``[low, high]`` is epsilon-LDP.

    ``(high - low) / b`` for :class:`LaplaceNoise`; infinite for Gaussian noise (the privacy
    loss grows linearly in w) and for uniform noise (outputs near the edges rule inputs out).

    Parameters
    ----------
    noise : Noise
        The additive noise model.
    bounds : (float, float)
        ``(low, high)``, the range of the data (``low < high``).

    Returns
    -------
    float
        The pure LDP level (``inf`` when no epsilon works).

    Raises
    ------
    TypeError
        If ``noise`` is not a noise model.
    ValueError
        If ``bounds`` is not a finite increasing pair.

    Examples
    --------
    >>> from ppdm_edu import GaussianNoise
    >>> worst_case_epsilon(LaplaceNoise(0.5), (0, 1)), worst_case_epsilon(GaussianNoise(10.0), (0, 1))
    (2.0, inf)
    """
    check_noise(noise)
    lo, hi = check_bounds(bounds)
    return noise.ldp_epsilon(hi - lo)


def gaussian_delta(sigma: float, epsilon: float, bounds) -> float:
    """Smallest delta for which ``x + N(0, sigma^2)`` on ``[low, high]`` is (epsilon, delta)-DP.

    The exact ("analytic Gaussian mechanism") formula of Balle & Wang (ICML 2018, Thm. 8), with
    sensitivity ``Delta = high - low``:
    ``delta = Phi(Delta / (2 sigma) - epsilon sigma / Delta)
    - e^epsilon Phi(-Delta / (2 sigma) - epsilon sigma / Delta)``.

    Parameters
    ----------
    sigma : float
        Standard deviation of the Gaussian noise, > 0.
    epsilon : float
        The privacy level, >= 0.
    bounds : (float, float)
        ``(low, high)``, the range of the data (``low < high``).

    Returns
    -------
    float
        delta in [0, 1].

    Raises
    ------
    ValueError
        If ``sigma <= 0``, ``epsilon < 0`` or ``bounds`` is invalid.

    Examples
    --------
    >>> round(gaussian_delta(1.0, 1.0, (0, 1)), 4)
    0.1269
    """
    sigma = check_positive(sigma, "sigma")
    eps = check_positive(epsilon, "epsilon", allow_zero=True)
    lo, hi = check_bounds(bounds)
    d = hi - lo
    a, c = d / (2.0 * sigma), eps * sigma / d
    # log-space for the second term avoids inf * 0 at large epsilon
    second = math.exp(eps + special.log_ndtr(-a - c)) if math.isfinite(eps) else 0.0
    return float(max(special.ndtr(a - c) - second, 0.0))


#: The largest ε the Gaussian mechanism is solved for: beyond it σ is below about a thousandth of
#: the range, no privacy to speak of.
GAUSSIAN_MAX_EPSILON = 1e6


def gaussian_epsilon(sigma: float, delta: float, bounds) -> float:
    """Smallest epsilon with ``gaussian_delta(sigma, epsilon, bounds) <= delta``.

    Solved numerically (bracketing, then Brent's method) on the formula of
    :func:`gaussian_delta` (Balle & Wang 2018, Thm. 8).

    Parameters
    ----------
    sigma : float
        Standard deviation of the Gaussian noise, > 0.
    delta : float
        The allowed failure probability, strictly between 0 and 1.
    bounds : (float, float)
        ``(low, high)``, the range of the data (``low < high``).

    Returns
    -------
    float
        The epsilon, >= 0 (0 if ``delta`` is reached already at epsilon 0).

    Raises
    ------
    ValueError
        If ``sigma <= 0``, ``delta`` is not in (0, 1), ``bounds`` is invalid, or ``sigma`` is so
        small that epsilon exceeds :data:`GAUSSIAN_MAX_EPSILON`.

    Examples
    --------
    >>> round(gaussian_epsilon(1.0, 1e-5, (0, 1)), 3)
    4.377
    """
    sigma = check_positive(sigma, "sigma")
    delta = check_probability(delta, "delta", open_interval=True)
    lo, hi = check_bounds(bounds)
    if gaussian_delta(sigma, 0.0, (lo, hi)) <= delta:
        return 0.0
    top = 1.0
    while gaussian_delta(sigma, top, (lo, hi)) > delta:  # delta falls with epsilon
        if top >= GAUSSIAN_MAX_EPSILON:
            raise ValueError(f"sigma = {sigma:g} is so small against the range {hi - lo:g} that epsilon "
                             f"exceeds {GAUSSIAN_MAX_EPSILON:g} at delta = {delta:g}; use sigma of at "
                             f"least {1e-3 * (hi - lo):g}")
        top = min(2.0 * top, GAUSSIAN_MAX_EPSILON)
    return float(optimize.brentq(lambda e: gaussian_delta(sigma, e, (lo, hi)) - delta, 0.0, top,
                                 xtol=1e-10))


def mechanism_table(value_range: float = 1.0, level: float = 1.0, delta: float = 1e-5) -> pd.DataFrame:
    """Additive mechanisms at the paper's "``level`` x 100 % privacy", in LDP terms.

    Rows: uniform and Gaussian noise set by :func:`ppdm_edu.noise_for_privacy` (AS2000 Sec.
    2.1: their 95 % interval is ``level`` x the range), and Laplace noise with the same variance
    as that Gaussian. Columns: noise standard deviation, the 95 % interval width of Table 1,
    the pure LDP epsilon, and the epsilon of an (epsilon, delta) guarantee (for uniform noise
    no epsilon works once ``delta`` is below ``range / (2 alpha)``: reported as inf).

    Parameters
    ----------
    value_range : float, default 1.0
        Width of the attribute's range, > 0 (the sensitivity).
    level : float, default 1.0
        Privacy level as a fraction of the range (1.0 is the paper's "100 % privacy"), > 0.
    delta : float, default 1e-5
        The delta of the (epsilon, delta) column, strictly between 0 and 1.

    Returns
    -------
    pandas.DataFrame
        Three rows (uniform, Gaussian, Laplace with the Gaussian's variance) and the columns
        ``"noise sd"``, ``"95% interval (Table 1)"``, ``"pure epsilon"`` and
        ``"epsilon at delta=<delta>"``. For the Laplace row the last column repeats the pure
        epsilon (pure epsilon-LDP implies (epsilon, delta) for every delta).

    Raises
    ------
    ValueError
        If an argument is out of its range.

    Examples
    --------
    >>> t = mechanism_table()
    >>> list(t.index)
    ['uniform (AS2000)', 'gaussian (AS2000)', 'laplace, same variance']
    """
    value_range = check_positive(value_range, "value_range")
    level = check_positive(level, "level")
    delta = check_probability(delta, "delta", open_interval=True)
    bounds = (0.0, value_range)
    uni = noise_for_privacy("uniform", level, value_range)
    gau = noise_for_privacy("gaussian", level, value_range)
    lap = LaplaceNoise(gau.std / math.sqrt(2.0))
    # uniform: the total-variation distance between the two extreme inputs is range / (2 alpha),
    # so (epsilon, delta) holds for every epsilon iff delta >= range / (2 alpha)
    uni_eps = 0.0 if delta >= min(1.0, value_range / (2.0 * uni.scale)) else math.inf  # scale = alpha
    rows = {
        "uniform (AS2000)": (uni.std, uni.interval_width(0.95), worst_case_epsilon(uni, bounds), uni_eps),
        "gaussian (AS2000)": (gau.std, gau.interval_width(0.95), worst_case_epsilon(gau, bounds),
                              gaussian_epsilon(gau.scale, delta, bounds)),
        "laplace, same variance": (lap.std, lap.interval_width(0.95), worst_case_epsilon(lap, bounds),
                                   worst_case_epsilon(lap, bounds)),
    }
    return pd.DataFrame.from_dict(
        rows, orient="index",
        columns=["noise sd", "95% interval (Table 1)", "pure epsilon", f"epsilon at delta={delta:g}"],
    )
