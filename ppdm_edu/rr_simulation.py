"""Repeated-run simulations of randomized response (Du & Zhan 2003, Sections 3 and 4.1).

The estimators live in :mod:`ppdm_edu.randomized_response`; this module runs them many times to
show their sampling behaviour (notebook 03): :func:`simulate_warner_surveys` (many Warner surveys
at once, one binomial draw each) and :func:`mrr_theta_sweep` (MRR disguised ``runs`` times per
theta). Both bound their work: at most :data:`MAX_SURVEYS` surveys and :data:`MAX_SWEEP_RECORDS`
disguised records per call.

Examples
--------
>>> sim = simulate_warner_surveys(0.3, 0.8, 500, n_surveys=200, rng=0)
>>> sim.estimates.shape
(200,)
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._validation import check_binary, check_integer, check_probability, check_size
from .random_state import check_random_state
from .randomized_response import (
    check_theta,
    mrr_disguise,
    mrr_estimate,
    rr_epsilon,
    warner_std_error,
)

__all__ = ["SurveySimulation", "simulate_warner_surveys", "mrr_theta_sweep",
           "MAX_SURVEYS", "MAX_SWEEP_RECORDS"]

#: Upper bound on ``n_surveys`` of :func:`simulate_warner_surveys`.
MAX_SURVEYS = 10_000_000
#: Upper bound on ``len(thetas) * runs * n_records`` of :func:`mrr_theta_sweep` (about a minute).
MAX_SWEEP_RECORDS = 500_000_000


@dataclass(frozen=True)
class SurveySimulation:
    """Result of :func:`simulate_warner_surveys`.

    Attributes
    ----------
    estimates : numpy.ndarray, shape (n_surveys,)
        The unbiased estimate of P(A = yes) of every simulated survey.
    truth : float
        The population proportion ``pi`` the surveys try to estimate.
    std_error : float
        Warner's theoretical standard error at ``pi`` (see :func:`warner_std_error`).
    empirical_sd : float
        Standard deviation of ``estimates`` (ddof=1).
    within_2se : float
        Share of surveys whose estimate is within 2 standard errors of ``truth``.
    outside_unit : float
        Share of surveys whose unbiased estimate falls outside [0, 1].
    theta : float
        As given.
    n : int
        As given.
    n_surveys : int
        As given.
    """

    estimates: np.ndarray
    truth: float
    std_error: float
    empirical_sd: float
    within_2se: float
    outside_unit: float
    theta: float
    n: int
    n_surveys: int


def simulate_warner_surveys(pi: float, theta: float, n: int, n_surveys: int = 1_000, rng=None) -> SurveySimulation:
    """Run ``n_surveys`` independent Warner surveys of ``n`` fresh respondents each.

    Each survey samples ``n`` respondents from a population where a share ``pi`` has A; each
    answers through the related-question device, so the number of "yes" answers is
    ``Binomial(n, lambda)`` with ``lambda = theta pi + (1 - theta)(1 - pi)`` (Section 3). Drawing
    that binomial directly is exactly the same distribution as disguising ``n`` answers one by one
    (:func:`warner_disguise`), but costs one random number per survey, so 1,000 surveys take well
    under a millisecond (the slider of notebook 03).

    Parameters
    ----------
    pi : float in [0, 1]
        True share of the population with attribute A.
    theta : float in [0, 1], not 0.5
        Probability of answering the true question.
    n : int >= 1
        Respondents per survey.
    n_surveys : int, default 1000
        Number of surveys, between 2 and :data:`MAX_SURVEYS`.
    rng : None, int or numpy.random.Generator
        Seed or generator; the same seed gives the same surveys.

    Returns
    -------
    SurveySimulation
        The estimates and their summary.

    Examples
    --------
    >>> sim = simulate_warner_surveys(0.3, 0.8, 1_000, rng=0)
    >>> bool(abs(sim.estimates.mean() - 0.3) < 0.005)
    True
    >>> bool(abs(sim.empirical_sd / sim.std_error - 1) < 0.1)
    True
    """
    pi = check_probability(pi, "pi")
    theta = check_theta(theta, allow_half=False)
    n = check_integer(n, "n", minimum=1, maximum=np.iinfo(np.int64).max)
    n_surveys = check_integer(n_surveys, "n_surveys", minimum=2, maximum=MAX_SURVEYS)
    check_size(n_surveys, "n_surveys")
    rng = check_random_state(rng)
    lam = theta * pi + (1.0 - theta) * (1.0 - pi)  # P*(yes), Section 3
    yes = rng.binomial(n, lam, size=n_surveys).astype(float)
    estimates = (yes - (1.0 - theta) * n) / ((2.0 * theta - 1.0) * n)
    se = float(warner_std_error(pi, theta, n))
    return SurveySimulation(
        estimates=estimates,
        truth=pi,
        std_error=se,
        empirical_sd=float(estimates.std(ddof=1)),
        within_2se=float(np.mean(np.abs(estimates - pi) <= 2.0 * se)) if se > 0 else 1.0,
        outside_unit=float(np.mean((estimates < 0) | (estimates > 1))),
        theta=theta,
        n=n,
        n_surveys=n_surveys,
    )


def mrr_theta_sweep(X, conditions, thetas, runs: int = 20, rng=None, keep=None) -> pd.DataFrame:
    """Disguise ``X`` with MRR ``runs`` times per theta and estimate P(E) each time.

    Parameters
    ----------
    X : pandas.DataFrame or 2-D array of 0/1
        The true data (the "non-existing" undisguised data set of Section 4.1).
    conditions : dict {column: 0 or 1}
        The conjunction E.
    thetas : iterable of floats in [0, 1], none equal to 0.5
        The thetas to sweep.
    runs : int, default 20
        Disguises per theta, >= 1 (``len(thetas) * runs * n_records`` at most
        :data:`MAX_SWEEP_RECORDS`).
    rng : None, int or numpy.random.Generator
        Seed or generator for the disguises.
    keep : column or list of columns, optional
        Columns sent undisguised (see :func:`ppdm_edu.randomized_response.mrr_disguise`).

    Returns
    -------
    pandas.DataFrame
        Tidy: one row per (theta, run) with ``estimate``, ``std_error`` and
        ``std_error_disguise`` (estimated, per run; see :class:`MRREstimate`), ``p_star_e``,
        ``truth`` (P(E) in ``X``) and ``epsilon``.

    Examples
    --------
    >>> import numpy as np
    >>> X = (np.random.default_rng(0).random((2_000, 3)) < 0.5).astype(int)
    >>> df = mrr_theta_sweep(X, {0: 1, 1: 0}, thetas=[0.2, 0.9], runs=3, rng=0)
    >>> df.shape
    (6, 8)
    """
    if isinstance(thetas, (str, bytes)):
        raise TypeError(f"thetas must be an iterable of numbers, got {thetas!r}")
    check_binary(X, "X")  # named here; the DataFrame (column names in conditions) is kept
    thetas = [thetas] if isinstance(thetas, numbers.Real) else list(thetas)
    thetas = [check_theta(t, "thetas", allow_half=False) for t in thetas]
    if not thetas:
        raise ValueError("thetas is empty: give at least one theta")
    runs = check_integer(runs, "runs", minimum=1)
    rng = check_random_state(rng)
    truth = mrr_estimate(X, 1.0, conditions, keep=keep)  # theta = 1: plain counting (validates X)
    work = float(len(thetas)) * runs * truth.n
    if work > MAX_SWEEP_RECORDS:
        raise ValueError(
            f"runs = {runs} x {len(thetas)} thetas x {truth.n} records = {work:.3g} disguised "
            f"records; at most {MAX_SWEEP_RECORDS:,} are allowed per call: lower runs"
        )
    truth_estimate = truth.estimate
    rows = []
    for theta in thetas:  # loops over settings and runs; the records are handled by numpy
        for run in range(int(runs)):
            res = mrr_estimate(mrr_disguise(X, theta, rng, keep=keep), theta, conditions, keep=keep)
            rows.append({"theta": theta, "run": run, "estimate": res.estimate,
                         "std_error": res.std_error, "std_error_disguise": res.std_error_disguise,
                         "p_star_e": res.p_star_e, "truth": truth_estimate,
                         "epsilon": rr_epsilon(theta)})
    return pd.DataFrame(rows)
