"""Randomized response: Warner's related-question model and multivariate randomized response.

Du & Zhan (KDD 2003), Section 3 (Warner 1965) and Section 4.1 (MRR).

*Warner's related-question model.* Each respondent secretly answers "I have attribute A" with
probability ``theta`` and its negation "I do not have A" with probability ``1 - theta``. The
interviewer sees only yes/no. With ``pi = P(A = yes)`` and ``lambda = P*(yes)`` (the proportion of
"yes" responses), Section 3 of the paper gives::

    P*(A = yes) = P(A = yes) * theta + P(A = no) * (1 - theta)

so ``pi_hat = (lambda_hat - (1 - theta)) / (2 * theta - 1)``, which exists only for theta != 1/2.

*Multivariate randomized response (MRR).* A record of N binary attributes is sent unchanged with
probability ``theta``, or with **every** attribute flipped with probability ``1 - theta``. For a
conjunction E (e.g. ``A1 = 1 and A2 = 1 and A3 = 0``, pattern ``110``) and its complementary
pattern E-bar (``001``), Eq. 3 of the paper::

    P*(E)    = P(E)    * theta + P(E-bar) * (1 - theta)
    P*(Ebar) = P(Ebar) * theta + P(E)     * (1 - theta)

is a 2x2 linear system with determinant ``2 * theta - 1``; :func:`mrr_solve` solves it.

*Today's vocabulary.* The same mechanism is ``epsilon``-local differential privacy with
``epsilon = |ln(theta / (1 - theta))|`` (:func:`rr_epsilon`): theta near 1/2 is strong privacy and a
noisy estimate, theta = 0 or 1 reveals every answer (epsilon = infinity).
"""
from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from ._validation import check_binary, check_finite_array, check_probability
from .random_state import check_random_state

#: Fewer responses than this get a RuntimeWarning from warner_estimate (normal approximation).
_MIN_NORMAL_N = 30

__all__ = [
    "warner_disguise",
    "warner_estimate",
    "WarnerEstimate",
    "mrr_disguise",
    "mrr_estimate",
    "mrr_solve",
    "MRREstimate",
    "rr_epsilon",
    "theta_for_epsilon",
    "warner_std_error",
    "sample_size_factor",
]


# -- the domain checks of theta (used by ldp and rr_simulation too) --------------------------
#: |2 theta - 1| below this counts as theta = 1/2 (the singular randomized-response system).
SINGULAR_THETA_TOL = 1e-9


def singular_theta_message(theta: float, name: str = "theta") -> str:
    """The explanation given when ``theta = 1/2`` makes randomized response uninformative.

    Parameters
    ----------
    theta : float
        The offending value.
    name : str, default "theta"
        Argument name used in the message.

    Returns
    -------
    str
        The message (Du & Zhan 2003, Eq. 3: determinant ``2 theta - 1 = 0``).

    Examples
    --------
    >>> singular_theta_message(0.5)[:30]
    'theta = 0.5 makes the randomiz'
    """
    return (
        f"{name} = {theta:g} makes the randomized-response system singular: its determinant "
        "2*theta - 1 is 0 (Eq. 3 of Du & Zhan), because with theta = 0.5 every disguised answer "
        "is a fair coin flip whatever the truth, so the responses carry no information about "
        "P(E). Choose theta != 0.5 (further from 0.5 = more accurate but less private), or use "
        "Warner's unrelated-question model, where the second question is an unrelated one whose "
        "'yes' probability is known."
    )


def check_theta(theta, name: str = "theta", *, allow_half: bool = True, vectorized: bool = False):
    """The randomized-response probability theta (keep the true answer), in ``[0, 1]``.

    Policy (the same in every module): a string such as ``"0.7"`` or a bool is a TypeError;
    NaN or a value outside [0, 1] is a ValueError; with ``allow_half=False`` (estimation) theta
    within 1e-9 of 1/2 is a ValueError explaining why the system is singular.

    Parameters
    ----------
    theta : float or array-like of float
        The value(s) to check.
    name : str, default "theta"
        Argument name used in the message.
    allow_half : bool, default True
        Whether theta = 1/2 is allowed (disguising is fine; estimating is not).
    vectorized : bool, default False
        Accept an array of thetas and return a float array.

    Returns
    -------
    float or numpy.ndarray
        theta as a float (or a float array with ``vectorized=True``).

    Raises
    ------
    TypeError
        If ``theta`` is text, a bool or not numeric.
    ValueError
        If ``theta`` is NaN or outside [0, 1], or (with ``allow_half=False``) within 1e-9 of
        1/2.

    Examples
    --------
    >>> check_theta(0.7)
    0.7
    >>> check_theta("0.7")
    Traceback (most recent call last):
    ...
    TypeError: theta must be a real number in [0, 1], got '0.7'
    """
    if vectorized:
        raw = np.asarray(theta)
        if raw.dtype.kind not in "iuf" or raw.size == 0:
            raise TypeError(f"{name} must be a real number (or array of them) in [0, 1], got {theta!r}")
        arr = raw.astype(float)
        bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
        if bad.any():
            raise ValueError(f"{name} must be between 0 and 1, got {float(arr[bad].ravel()[0])}")
        if not allow_half and np.any(np.abs(2.0 * arr - 1.0) < SINGULAR_THETA_TOL):
            raise ValueError(singular_theta_message(0.5, name))
        return arr
    if isinstance(theta, (bool, np.bool_)) or not isinstance(theta, numbers.Real):
        raise TypeError(f"{name} must be a real number in [0, 1], got {theta!r}")
    value = float(theta)
    if not 0.0 <= value <= 1.0:  # also catches NaN
        raise ValueError(f"{name} must be between 0 and 1, got {value}")
    if not allow_half and abs(2.0 * value - 1.0) < SINGULAR_THETA_TOL:
        raise ValueError(singular_theta_message(value, name))
    return value




def _check_real_array(values, name: str, low: float = -np.inf, high: float = np.inf, *,
                      open_low: bool = False, allowed: str = "") -> np.ndarray:
    """A float array (any shape) of finite values in [low, high] (or (low, high] with open_low)."""
    try:
        if values is None or isinstance(values, (str, bytes)) or np.asarray(values).dtype.kind in "US":
            raise TypeError  # text such as "0.7" is refused everywhere (check_theta)
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number or an array of numbers, got {values!r}") from None
    bad = ~np.isfinite(arr) | (arr > high) | ((arr <= low) if open_low else (arr < low))
    if bad.any():
        raise ValueError(f"{name} must be {allowed}, got {float(arr[bad].ravel()[0])}")
    return arr


def _check_theta(theta, *, estimating: bool) -> float:
    """theta in [0, 1]; for estimation also theta != 1/2 (singular system, Eq. 3)."""
    return check_theta(theta, allow_half=not estimating)


def _check_responses(responses, name: str) -> np.ndarray:
    arr = np.asarray(responses)
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be one-dimensional (one 0/1 answer per respondent), got shape {arr.shape}"
        )
    return check_binary(arr, name)


# --------------------------------------------------------------------------------------------
# Warner's related-question model (Section 3)
# --------------------------------------------------------------------------------------------
def warner_disguise(truth, theta: float, rng=None) -> np.ndarray:
    """Disguise yes/no answers with Warner's related-question model.

    Each respondent answers the true question ("I have A") with probability ``theta`` and its
    negation ("I do not have A") with probability ``1 - theta`` (Section 3 of Du & Zhan).

    Parameters
    ----------
    truth : array-like of 0/1 (or bool), shape (n,)
        The true answers (1 = has the sensitive attribute A).
    theta : float in [0, 1]
        Probability of answering the true question. ``theta = 0.5`` is allowed here (the answers
        become fair coin flips) but nothing can be estimated from them.
    rng : None, int or numpy.random.Generator
        Randomness of the respondents' devices.

    Returns
    -------
    numpy.ndarray of uint8, shape (n,)
        The disguised answers. ``theta = 1`` returns ``truth`` and ``theta = 0`` its negation,
        exactly.

    Raises
    ------
    ValueError
        If ``truth`` is not a 1-d array of 0/1 values, or ``theta`` is outside [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> truth = np.array([1, 0, 0, 1, 1])
    >>> warner_disguise(truth, 1.0, rng=0).tolist()
    [1, 0, 0, 1, 1]
    >>> warner_disguise(truth, 0.0, rng=0).tolist()
    [0, 1, 1, 0, 0]
    """
    truth = _check_responses(truth, "truth")
    theta = _check_theta(theta, estimating=False)
    rng = check_random_state(rng)
    # random() is in [0, 1): theta = 1 -> always the true question, theta = 0 -> never.
    tells_truth = rng.random(truth.shape[0]) < theta
    return np.where(tells_truth, truth, 1 - truth).astype(np.uint8)


def warner_std_error(pi, theta, n):
    """Warner's standard error of the unbiased estimate (vectorized; broadcasts its inputs).

    ``sqrt(pi (1 - pi) / n + theta (1 - theta) / (n (2 theta - 1)^2))``: sampling variance of a
    proportion plus the price of the randomizing device (Warner 1965). Equal to
    ``sqrt(lambda (1 - lambda) / (n (2 theta - 1)^2))`` with ``lambda = theta pi + (1 - theta)(1 - pi)``.
    Returns ``inf`` at theta = 1/2.

    Parameters
    ----------
    pi : float or array-like of float
        The proportion P(A = yes), in [0, 1] (the true one, or an estimate of it).
    theta : float or array-like of float
        Probability of answering the true question, in [0, 1].
    n : float or array-like of float
        Number of respondents, > 0.

    Returns
    -------
    float or numpy.ndarray
        The standard error (a float when all inputs are scalars, else the broadcast array);
        ``inf`` where theta is within 1e-9 of 1/2.

    Raises
    ------
    TypeError
        If an input is not numeric (text is refused).
    ValueError
        If ``pi`` or ``theta`` is outside [0, 1] or ``n <= 0`` (or any is not finite).

    Examples
    --------
    >>> round(float(warner_std_error(0.3, 0.8, 1000)), 4)
    0.0256
    """
    pi = _check_real_array(pi, "pi", 0.0, 1.0, allowed="a proportion between 0 and 1")
    theta = _check_real_array(theta, "theta", 0.0, 1.0, allowed="between 0 and 1")
    n = _check_real_array(n, "n", 0.0, open_low=True, allowed="a finite number > 0 (respondents)")
    with np.errstate(divide="ignore", invalid="ignore"):
        var = pi * (1 - pi) / n + theta * (1 - theta) / (n * (2 * theta - 1) ** 2)
    var = np.where(np.abs(2 * theta - 1) < SINGULAR_THETA_TOL, np.inf, var)
    out = np.sqrt(np.maximum(var, 0.0))
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class WarnerEstimate:
    """Result of :func:`warner_estimate`.

    Attributes
    ----------
    estimate : float
        Unbiased estimate of P(A = yes); may fall outside [0, 1] when theta is near 0.5.
    estimate_clipped : float
        ``estimate`` clipped to [0, 1] (what you would report; slightly biased near 0 and 1).
    std_error : float
        Estimated Warner standard error ``sqrt(pi (1 - pi)/n + theta (1 - theta)/(n (2 theta - 1)^2))`` at
        ``pi = estimate_clipped`` (never 0 for 0 < theta < 1, even for an impossible raw estimate):
        the respondents are a random sample of a population and the device adds noise.
    std_error_disguise : float
        ``sqrt(theta (1 - theta) / (n (2 theta - 1)^2))``: the device's part alone, i.e. the
        spread of the estimate when the *same* n people are asked again and again (0 at
        theta = 0 or 1). Use it to compare with repeated disguises of one fixed data set.
    ci_low : float
        Lower end of the normal-approximation confidence interval,
        ``estimate - z * std_error`` clipped to [0, 1] (``z`` the two-sided normal quantile
        of ``confidence``).
    ci_high : float
        Upper end, ``estimate + z * std_error`` clipped to [0, 1].
    p_star : float
        Observed proportion of "yes" responses, P*(A = yes).
    n : int
        Number of responses.
    theta : float
        The theta used to disguise the answers.
    confidence : float
        Level of the confidence interval.
    """

    estimate: float
    estimate_clipped: float
    std_error: float
    std_error_disguise: float
    ci_low: float
    ci_high: float
    p_star: float
    n: int
    theta: float
    confidence: float


def warner_estimate(responses, theta: float, *, confidence: float = 0.95) -> WarnerEstimate:
    """Estimate P(A = yes) from disguised answers (Warner's related-question model).

    Solves ``P*(yes) = P(yes) theta + (1 - P(yes)) (1 - theta)`` (Section 3 of Du & Zhan) for
    ``P(yes)``: ``pi_hat = (p_star - (1 - theta)) / (2 theta - 1)``, unbiased for a random sample.

    Parameters
    ----------
    responses : array-like of 0/1, shape (n,)
        The disguised answers, e.g. from :func:`warner_disguise`.
    theta : float in [0, 1], not 0.5
        The probability of answering the true question that the respondents used.
    confidence : float in (0, 1)
        Level of the normal-approximation confidence interval.

    Returns
    -------
    WarnerEstimate
        The unbiased and clipped estimates, both standard errors and the confidence
        interval. A ``RuntimeWarning`` is issued when the unbiased estimate falls outside
        [0, 1].

    Raises
    ------
    ValueError
        theta = 0.5 (singular: the answers are coin flips), theta outside [0, 1], responses
        empty or not 0/1.

    Examples
    --------
    >>> import numpy as np
    >>> truth = np.random.default_rng(0).random(20_000) < 0.3
    >>> answers = warner_disguise(truth, 0.8, rng=1)
    >>> res = warner_estimate(answers, 0.8)
    >>> bool(abs(res.estimate - truth.mean()) < 3 * res.std_error)
    True
    """
    responses = _check_responses(responses, "responses")
    theta = _check_theta(theta, estimating=True)
    confidence = check_probability(confidence, "confidence", open_interval=True)
    n = int(responses.shape[0])
    yes = float(np.count_nonzero(responses))
    p_star = yes / n
    # Section 3: solve P* = P theta + (1 - P)(1 - theta) for P. Written on counts so that
    # theta = 1 gives yes / n and theta = 0 gives (n - yes) / n exactly (integer arithmetic).
    est = float((yes - (1.0 - theta) * n) / ((2.0 * theta - 1.0) * n))
    clipped = min(max(est, 0.0), 1.0)
    if clipped != est:
        # unbiased, but impossible as a proportion: with few respondents the device's noise
        # dominates (e.g. one "yes" at theta = 0.6 gives 3.0); say so instead of hiding it
        warnings.warn(f"the unbiased estimate {est:.3g} lies outside [0, 1] (n = {n} respondents is "
                      "too few for this theta); use estimate_clipped and the interval, whose "
                      "standard error is evaluated at the clipped value", RuntimeWarning,
                      stacklevel=2)
    # the standard error at a possible proportion (Warner's formula needs pi in [0, 1])
    se = float(warner_std_error(clipped, theta, n))
    # the normal quantile Phi^-1 (what scipy.stats.norm.ppf computes, without importing all of
    # scipy.stats for one number)
    z = float(special.ndtri(0.5 + confidence / 2.0))
    low = min(max(est - z * se, 0.0), 1.0)
    high = min(max(est + z * se, 0.0), 1.0)
    return WarnerEstimate(
        estimate=est,
        estimate_clipped=clipped,
        std_error=se,
        std_error_disguise=float(np.sqrt(theta * (1.0 - theta) / n) / abs(2.0 * theta - 1.0)),
        ci_low=low,
        ci_high=high,
        p_star=p_star,
        n=n,
        theta=theta,
        confidence=confidence,
    )


# --------------------------------------------------------------------------------------------
# Multivariate randomized response (Section 4.1)
# --------------------------------------------------------------------------------------------
def _as_binary_matrix(X, name: str = "X"):
    """(uint8 array, column labels or None) from a 0/1 DataFrame or 2-D array."""
    if isinstance(X, pd.DataFrame):
        if X.shape[0] == 0 or X.shape[1] == 0:
            raise ValueError(f"{name} is empty (shape {X.shape})")
        return check_binary(X.to_numpy(), name), list(X.columns)
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D 0/1 matrix (records x attributes), got shape {arr.shape}; "
            "for a single yes/no question use warner_disguise / warner_estimate"
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape})")
    return check_binary(arr, name), None


def _column_positions(keys, columns, n_cols: int, what: str) -> list[int]:
    """Map column names (DataFrame) or integer indices (array) to positions."""
    positions = []
    for key in keys:
        if columns is not None:
            if key not in columns:
                raise ValueError(
                    f"{what} refers to unknown column {key!r}; columns are: "
                    + ", ".join(map(str, columns))
                )
            positions.append(columns.index(key))
        else:
            if isinstance(key, bool) or not isinstance(key, numbers.Integral):
                raise ValueError(
                    f"{what} must use integer column indices for an array, got {key!r} "
                    "(use a DataFrame to refer to columns by name)"
                )
            if not -n_cols <= int(key) < n_cols:
                raise ValueError(f"{what}: column index {key} out of range for {n_cols} columns")
            positions.append(int(key) % n_cols)
    return positions


def _keep_positions(keep, columns, n_cols: int) -> list[int]:
    if keep is None:
        return []
    if isinstance(keep, (str, numbers.Integral)):
        keep = [keep]
    if not isinstance(keep, (list, tuple, np.ndarray, pd.Index)):
        raise TypeError(f"keep must be None, a column or a list of columns, got {keep!r}")
    return sorted(set(_column_positions(list(keep), columns, n_cols, "keep")))


def mrr_disguise(X, theta: float, rng=None, keep=None):
    """Disguise a 0/1 data set with multivariate randomized response (Section 4.1).

    Each record is sent unchanged with probability ``theta``, or with **every** attribute
    flipped (0 <-> 1) with probability ``1 - theta`` (step 3a of Section 5.1). Columns in
    ``keep`` are never flipped: the paper's variant where the class label is not sensitive.

    Parameters
    ----------
    X : pandas.DataFrame or array-like of 0/1, shape (n, N)
        The true records: ``n`` records of ``N`` binary attributes.
    theta : float in [0, 1]
        Probability of sending the record unchanged. 0.5 is allowed here (nothing can be
        estimated from the result, see :func:`mrr_solve`).
    rng : None, int or numpy.random.Generator
        Randomness of the per-record coin (one draw per record).
    keep : None, a column, or a list of columns
        Columns sent truthfully (e.g. the class column): names for a DataFrame, integer
        indices for an array.

    Returns
    -------
    pandas.DataFrame or numpy.ndarray of uint8, shape (n, N)
        The disguised records, of the same kind as ``X`` (a DataFrame keeps its index and
        columns). ``theta = 1`` returns the data and ``theta = 0`` their complement (except
        ``keep``), exactly.

    Raises
    ------
    ValueError
        If ``X`` is not a non-empty 2-D 0/1 matrix, ``theta`` is outside [0, 1], or ``keep``
        names an unknown column.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 1, 0], [0, 1, 1]])
    >>> mrr_disguise(X, 0.0, rng=0).tolist()
    [[0, 0, 1], [1, 0, 0]]
    >>> mrr_disguise(X, 0.0, rng=0, keep=[2]).tolist()
    [[0, 0, 0], [1, 0, 1]]
    """
    arr, columns = _as_binary_matrix(X)
    theta = _check_theta(theta, estimating=False)
    rng = check_random_state(rng)
    n, n_cols = arr.shape
    flip_cols = np.ones(n_cols, dtype=bool)
    flip_cols[_keep_positions(keep, columns, n_cols)] = False
    # step 3a: r < theta -> copy the record, otherwise copy its complement
    lie = rng.random(n) >= theta
    flip = (lie[:, None] & flip_cols[None, :]).astype(np.uint8)
    out = arr ^ flip
    if columns is not None:
        return pd.DataFrame(out, index=X.index, columns=X.columns)
    return out


def mrr_solve(p_star_e, p_star_ebar, theta: float):
    """Solve Eq. 3 of Du & Zhan for P(E), vectorized over many conjunctions at once.

    ``P*(E) = P(E) theta + P(Ebar)(1 - theta)`` and ``P*(Ebar) = P(Ebar) theta + P(E)(1 - theta)``
    give ``P(E) = (theta P*(E) - (1 - theta) P*(Ebar)) / (2 theta - 1)``.

    Parameters
    ----------
    p_star_e, p_star_ebar : float or array-like (broadcastable)
        Observed proportions (or counts: the system is linear, so counts in give estimated
        counts out) of disguised records matching E and its complementary pattern E-bar.
    theta : float in [0, 1], not 0.5
        Probability that a record was sent unchanged.

    Returns
    -------
    float or numpy.ndarray
        The unbiased estimate of P(E) (not clipped: it can fall outside [0, 1] — or [0, n] for
        counts — when theta is near 0.5; clip it yourself if you need a proportion). P(Ebar) is
        ``mrr_solve(p_star_ebar, p_star_e, theta)``. ``theta = 1`` returns ``p_star_e`` and
        ``theta = 0`` returns ``p_star_ebar``, exactly.

    Raises
    ------
    ValueError
        theta = 0.5 (determinant 0), theta outside [0, 1], negative or non-finite inputs.

    Examples
    --------
    >>> round(mrr_solve(0.3, 0.1, 0.75), 10)
    0.4
    >>> mrr_solve([0.3, 0.2], [0.1, 0.2], 0.75).round(3).tolist()
    [0.4, 0.2]
    """
    theta = _check_theta(theta, estimating=True)
    a = check_finite_array(p_star_e, "p_star_e")
    b = check_finite_array(p_star_ebar, "p_star_ebar")
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"p_star_e and p_star_ebar must have the same (or broadcastable) shapes, "
                         f"got {a.shape} and {b.shape}") from None
    for name, v in (("p_star_e", a), ("p_star_ebar", b)):
        if not np.isfinite(v).all() or (v < 0).any():
            raise ValueError(
                f"{name} must hold finite, non-negative proportions (or counts); got "
                f"{v[~(np.isfinite(v) & (v >= 0))].ravel()[0]!r}"
            )
    # Eq. 3, solved by Cramer's rule (determinant 2 theta - 1)
    out = (theta * a - (1.0 - theta) * b) / (2.0 * theta - 1.0)
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class MRREstimate:
    """Result of :func:`mrr_estimate`.

    Attributes
    ----------
    estimate : float
        Unbiased estimate of P(E) from Eq. 3 (may leave [0, 1] when theta is near 0.5).
    estimate_clipped : float
        ``estimate`` clipped to [0, 1].
    estimate_complement : float
        The estimate of P(Ebar) from the same system.
    std_error : float
        Estimated standard error for a random sample (multinomial counts of E, Ebar, rest)::

            sqrt((theta^2 a(1-a) + (1-theta)^2 b(1-b) + 2 theta (1-theta) a b) / (n (2 theta - 1)^2))

        with ``a = P*(E)``, ``b = P*(Ebar)``. Reduces to Warner's for a single attribute.
    std_error_disguise : float
        The randomization's part alone, for a *fixed* data set (what repeating the disguise on
        the same records shows): only the M true records matching E or Ebar can land in E or
        Ebar (each in its own pattern with probability theta, in the other with 1 - theta), so
        ``Var = M theta (1 - theta) / (n (2 theta - 1))^2`` with ``M / n = a + b`` observed exactly.
    p_star_e : float
        Observed proportion of disguised records matching E, P*(E).
    p_star_ebar : float
        Observed proportion of disguised records matching Ebar, P*(Ebar).
    n : int
        Number of records.
    theta : float
        The theta used to disguise the records.
    conditions : dict
        E, as given (``{column: 0 or 1}``).
    complement : dict
        Ebar: the same columns with every value flipped, except kept columns, which keep
        their value.
    """

    estimate: float
    estimate_clipped: float
    estimate_complement: float
    std_error: float
    std_error_disguise: float
    p_star_e: float
    p_star_ebar: float
    n: int
    theta: float
    conditions: dict
    complement: dict


def _check_conditions(conditions) -> dict:
    if not isinstance(conditions, Mapping):
        raise ValueError(
            "conditions must be a dict {column: 0 or 1} describing the conjunction E, "
            f"got {type(conditions).__name__}"
        )
    out = {}
    for key, value in conditions.items():
        if isinstance(value, (bool, np.bool_)):
            value = int(value)
        if not isinstance(value, numbers.Real) or value not in (0, 1):
            raise ValueError(f"conditions[{key!r}] must be 0 or 1 (binary data), got {value!r}")
        out[key] = 1 if value == 1 else 0
    return out


def mrr_estimate(disguised, theta: float, conditions, keep=None) -> MRREstimate:
    """Estimate P(E) for a conjunction E from MRR-disguised data (Eq. 3 of Du & Zhan).

    Counts the disguised records matching E and its complementary pattern Ebar (every value of
    E flipped, except columns in ``keep``, which were sent truthfully) and solves Eq. 3.

    Parameters
    ----------
    disguised : pandas.DataFrame or 2-D array-like of 0/1
        Output of :func:`mrr_disguise`.
    theta : float in [0, 1], not 0.5
        Probability that a record was sent unchanged.
    conditions : dict {column: 0 or 1}
        The conjunction E, e.g. ``{"A1": 1, "A2": 1, "A3": 0}`` (column names for a DataFrame,
        integer indices for an array). An empty dict is the always-true E (estimate 1).
    keep : None, a column, or a list of columns
        The columns left undisguised by :func:`mrr_disguise` (must match what was used there).

    Returns
    -------
    MRREstimate
        The estimates of P(E) and P(Ebar), the observed proportions and both standard
        errors.

    Raises
    ------
    ValueError
        If ``disguised`` is not a non-empty 2-D 0/1 matrix, ``theta`` is 0.5 or outside
        [0, 1], ``conditions`` is not a dict of 0/1 values, or a column is unknown.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.random((50_000, 3)) < [0.6, 0.5, 0.3]).astype(int)
    >>> G = mrr_disguise(X, 0.8, rng=1)
    >>> res = mrr_estimate(G, 0.8, {0: 1, 1: 1, 2: 0})
    >>> truth = np.mean((X[:, 0] == 1) & (X[:, 1] == 1) & (X[:, 2] == 0))
    >>> bool(abs(res.estimate - truth) < 4 * res.std_error)
    True
    """
    arr, columns = _as_binary_matrix(disguised, "disguised")
    theta = _check_theta(theta, estimating=True)
    conditions = _check_conditions(conditions)
    n, n_cols = arr.shape
    pos = _column_positions(list(conditions), columns, n_cols, "conditions")
    kept = set(_keep_positions(keep, columns, n_cols))
    values = np.array(list(conditions.values()), dtype=np.uint8)
    # Ebar: the complementary pattern; undisguised (kept) columns keep their value (Section 4.2)
    flips = np.array([p not in kept for p in pos], dtype=np.uint8)
    values_bar = values ^ flips
    sub = arr[:, pos]
    count_e = float(np.count_nonzero(np.all(sub == values, axis=1)))
    count_ebar = float(np.count_nonzero(np.all(sub == values_bar, axis=1)))
    p_e, p_ebar = count_e / n, count_ebar / n
    # Eq. 3 on counts, then / n: theta = 0 or 1 gives the exact proportion of the true data
    est = mrr_solve(count_e, count_ebar, theta) / n
    est_bar = mrr_solve(count_ebar, count_e, theta) / n
    d2 = (2.0 * theta - 1.0) ** 2
    if np.array_equal(values, values_bar):
        # E and Ebar are the same event (only kept columns): P(E) = P*(E), a plain proportion
        var = p_e * (1 - p_e) / n
    else:
        var = (theta**2 * p_e * (1 - p_e) + (1 - theta) ** 2 * p_ebar * (1 - p_ebar)
               + 2 * theta * (1 - theta) * p_e * p_ebar) / (n * d2)
    # fixed data: count*(E) = Bin(N_E, theta) + Bin(N_Ebar, 1 - theta), N_E + N_Ebar = M fixed
    if np.array_equal(values, values_bar):
        var_disguise = 0.0
    else:
        var_disguise = (p_e + p_ebar) * theta * (1 - theta) / (n * d2)
    labels = list(conditions)
    return MRREstimate(
        estimate=est,
        estimate_clipped=min(max(est, 0.0), 1.0),
        estimate_complement=est_bar,
        std_error=float(np.sqrt(max(var, 0.0))),
        std_error_disguise=float(np.sqrt(var_disguise)),
        p_star_e=p_e,
        p_star_ebar=p_ebar,
        n=int(n),
        theta=theta,
        conditions=dict(conditions),
        complement={k: int(v) for k, v in zip(labels, values_bar)},
    )


# --------------------------------------------------------------------------------------------
# theta <-> epsilon (local differential privacy)
# --------------------------------------------------------------------------------------------
def rr_epsilon(theta):
    """Local-differential-privacy level of randomized response: ``|ln(theta / (1 - theta))|``.

    The neighbour relation is one yes/no *answer* (value level), delta = that answer flipped: a
    disguised answer is at most ``e^epsilon`` times more likely under one true answer than under
    the other, which is the definition of epsilon-LDP for Warner's model. theta = 0.5 gives 0
    (perfect privacy, no information); theta = 0 or 1 gives infinity (the truth is revealed).

    For MRR on records of N >= 2 attributes (one coin keeps or flips the whole record) this
    epsilon holds only between a record and its complement (delta = every answer flipped). At
    the record level, two records differing in one attribute (delta = one answer flipped) never
    produce the same disguised record, so the record-level epsilon is infinite.

    Parameters
    ----------
    theta : float or array-like in [0, 1]
        Probability of keeping the true answer (or record).

    Returns
    -------
    float or numpy.ndarray
        epsilon >= 0 (a float for a scalar theta); ``inf`` at theta = 0 or 1.

    Raises
    ------
    TypeError, ValueError
        If ``theta`` is not numeric or lies outside [0, 1].

    Examples
    --------
    >>> round(rr_epsilon(0.75), 4)
    1.0986
    >>> rr_epsilon(0.25) == rr_epsilon(0.75)
    True
    >>> rr_epsilon(1.0)
    inf
    """
    t = check_theta(theta, vectorized=True)
    with np.errstate(divide="ignore"):
        out = np.abs(np.log(t) - np.log1p(-t))
    return float(out) if out.ndim == 0 else out


def theta_for_epsilon(eps):
    """The theta >= 0.5 with ``rr_epsilon(theta) = eps``: ``e^eps / (1 + e^eps)`` (1 - theta works too).

    Parameters
    ----------
    eps : float or array-like of float
        epsilon >= 0 (``inf`` gives theta = 1).

    Returns
    -------
    float or numpy.ndarray
        theta in [0.5, 1].

    Raises
    ------
    TypeError
        If ``eps`` is not numeric.
    ValueError
        If ``eps`` is empty, negative or NaN.

    Examples
    --------
    >>> round(theta_for_epsilon(1.0), 4)
    0.7311
    """
    if isinstance(eps, (str, bytes)) or np.asarray(eps).dtype.kind not in "iuf":
        raise TypeError(f"eps must be a number >= 0 (inf allowed), got {eps!r}")
    e = np.asarray(eps, dtype=float)
    if e.size == 0 or not np.all(e >= 0):  # NaN fails the comparison
        raise ValueError(f"eps must be >= 0 (inf allowed), got {eps!r}")
    out = 1.0 / (1.0 + np.exp(-e))
    return float(out) if out.ndim == 0 else out


def sample_size_factor(pi, theta):
    """How many times more respondents randomized response needs for the precision of a direct
    question: ``Var_RR / Var_direct = 1 + theta (1 - theta) / ((2 theta - 1)^2 pi (1 - pi))``.

    The ratio of Warner's variance (:func:`warner_std_error` squared) to the variance
    ``pi (1 - pi) / n`` of a direct question; it does not depend on ``n``.

    Parameters
    ----------
    pi : float or array-like of float
        The proportion P(A = yes), strictly between 0 and 1.
    theta : float or array-like of float
        Probability of answering the true question, in [0, 1].

    Returns
    -------
    float or numpy.ndarray
        The factor, >= 1 (a float for scalar inputs); 1 at theta = 0 or 1 and ``inf`` at
        theta = 1/2.

    Raises
    ------
    TypeError
        If an input is not numeric.
    ValueError
        If ``pi`` is not strictly between 0 and 1 or ``theta`` is outside [0, 1].

    Examples
    --------
    >>> round(sample_size_factor(0.3, 0.8), 2)
    3.12
    """
    pi = _check_real_array(pi, "pi", 0.0, 1.0, open_low=True, allowed="strictly between 0 and 1")
    if (pi == 1.0).any():
        raise ValueError("pi must be strictly between 0 and 1 (a direct question has no variance "
                         "at pi = 0 or 1), got 1.0")
    theta = _check_real_array(theta, "theta", 0.0, 1.0, allowed="between 0 and 1")
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 1.0 + theta * (1 - theta) / ((2 * theta - 1) ** 2 * pi * (1 - pi))
    out = np.where(np.abs(2 * theta - 1) < SINGULAR_THETA_TOL, np.inf, out)
    return float(out) if out.ndim == 0 else out
