"""Synthetic data: the generator of Agrawal & Srikant (2000) Tables 2-3, and the two shapes of Fig. 2."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_bool, check_size
from ..random_state import check_random_state
from ..randomization import noise_for_privacy

__all__ = ["agrawal", "AGRAWAL_ATTRIBUTES", "AGRAWAL_NUMERIC", "AGRAWAL_DOMAINS", "plateau", "triangles",
           "plateau_pdf", "triangles_pdf", "agrawal_bounds", "agrawal_noise"]

AGRAWAL_ATTRIBUTES = ["salary", "commission", "age", "elevel", "car", "zipcode", "hvalue", "hyears", "loan"]
# The attributes the paper perturbs (Section 5); elevel, car and zipcode are categorical codes.
AGRAWAL_NUMERIC = ["salary", "commission", "age", "hvalue", "hyears", "loan"]
# Domain [low, high] of every attribute (Table 2), used for "x % privacy" of the range.
AGRAWAL_DOMAINS = {
    "salary": (20_000.0, 150_000.0),
    "commission": (0.0, 75_000.0),
    "age": (20.0, 80.0),
    "elevel": (0.0, 4.0),
    "car": (1.0, 20.0),
    "zipcode": (0.0, 8.0),
    "hvalue": (50_000.0, 1_350_000.0),
    "hyears": (1.0, 30.0),
    "loan": (0.0, 500_000.0),
}
_FUNCTIONS = (1, 2, 3, 4, 5)


def _attributes(n: int, rng: np.random.Generator) -> pd.DataFrame:
    salary = rng.uniform(20_000, 150_000, n)
    commission = np.where(salary >= 75_000, 0.0, rng.uniform(10_000, 75_000, n))
    age = rng.uniform(20, 80, n)
    elevel = rng.integers(0, 5, n)
    car = rng.integers(1, 21, n)
    zipcode = rng.integers(0, 9, n)
    k = 9 - zipcode  # house value depends on zip code: k in 1..9
    hvalue = rng.uniform(0.5, 1.5, n) * k * 100_000
    hyears = rng.uniform(1, 30, n)
    loan = rng.uniform(0, 500_000, n)
    return pd.DataFrame({
        "salary": salary, "commission": commission, "age": age, "elevel": elevel, "car": car,
        "zipcode": zipcode, "hvalue": hvalue, "hyears": hyears, "loan": loan,
    })


def _between(x, lo, hi):
    return (x >= lo) & (x <= hi)


def _group_a(X: pd.DataFrame, function: int) -> np.ndarray:
    """The classification functions of Table 3: True where the record is in Group A."""
    age, salary, elevel = X["age"].to_numpy(), X["salary"].to_numpy(), X["elevel"].to_numpy()
    young, middle, old = age < 40, (age >= 40) & (age < 60), age >= 60
    if function == 1:
        return young | old
    if function == 2:
        return ((young & _between(salary, 50_000, 100_000))
                | (middle & _between(salary, 75_000, 125_000))
                | (old & _between(salary, 25_000, 75_000)))
    if function == 3:
        return ((young & ((np.isin(elevel, [0, 1]) & _between(salary, 25_000, 75_000))
                          | (np.isin(elevel, [2, 3]) & _between(salary, 50_000, 100_000))))
                | (middle & ((np.isin(elevel, [1, 2, 3]) & _between(salary, 50_000, 100_000))
                             | ((elevel == 4) & _between(salary, 75_000, 125_000))))
                | (old & ((np.isin(elevel, [2, 3, 4]) & _between(salary, 50_000, 100_000))
                          | ((elevel == 1) & _between(salary, 25_000, 75_000)))))
    income = 0.67 * (X["salary"].to_numpy() + X["commission"].to_numpy()) - 0.2 * X["loan"].to_numpy()
    if function == 4:
        return income - 10_000 > 0
    equity = 0.1 * X["hvalue"].to_numpy() * np.maximum(X["hyears"].to_numpy() - 20, 0)
    return income + 0.2 * equity - 10_000 > 0


def agrawal(n: int, function: int, rng=None, balanced: bool = False):
    """Synthetic records of Agrawal & Srikant (2000), Tables 2 and 3.

    Nine attributes (Table 2): salary U[20K, 150K]; commission = 0 if salary >= 75K else
    U[10K, 75K]; age U[20, 80]; elevel, car and zipcode are integers chosen uniformly from
    0..4, 1..20 and 0..8; hvalue U[0.5 k 100K, 1.5 k 100K] with k = 9 - zipcode (so it depends on
    the zip code); hyears U[1, 30]; loan U[0, 500K]. "Distributed" attributes are continuous
    floats, "chosen" ones integers.

    The five classification functions are those of the paper's Table 3. They are *not* the first
    five functions of the 1993 generator of Agrawal, Imielinski & Swami: the paper's functions 3,
    4 and 5 resemble that generator's 4, 7 and 10, with different constants.

    Parameters
    ----------
    n : int
        Number of records (> 0).
    function : {1, 2, 3, 4, 5}
        Classification function of Table 3.
    rng : None, int or numpy.random.Generator
        Same seed, same records.
    balanced : bool
        If True, exactly ``n // 2`` records of Group A and ``n - n // 2`` of Group B (the paper's
        training and test sets are "equally split between the two classes"), in random order.

    Returns
    -------
    X : pandas.DataFrame, shape (n, 9)
        The attributes, columns in the order of :data:`AGRAWAL_ATTRIBUTES` (floats for the
        "distributed" attributes, integers for elevel, car and zipcode).
    y : ndarray of int, shape (n,)
        1 = Group A (the function's condition holds), 0 = Group B.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer (or too large for memory) or ``function`` is not
        1..5.

    Examples
    --------
    >>> X, y = agrawal(1000, function=1, rng=0, balanced=True)
    >>> X.shape, int(y.sum())
    ((1000, 9), 500)
    """
    _check_positive_n(n)
    if isinstance(function, bool) or not isinstance(function, (int, np.integer)) or function not in _FUNCTIONS:
        raise ValueError(f"function must be one of {_FUNCTIONS} (Table 3), got {function!r}")
    check_size(int(n), "n", per_item=9)  # nine attributes per record (Table 2)
    rng = check_random_state(rng)
    n = int(n)
    if not check_bool(balanced, "balanced"):
        X = _attributes(n, rng)
        return X, _group_a(X, function).astype(np.int64)
    # Rejection sampling in vectorized batches until each class has its quota.
    need = {1: n // 2, 0: n - n // 2}
    parts: dict[int, list] = {1: [], 0: []}
    have = {1: 0, 0: 0}
    while have[1] < need[1] or have[0] < need[0]:
        batch = _attributes(max(2 * n, 1000), rng)
        ya = _group_a(batch, function)
        for label, mask in ((1, ya), (0, ~ya)):
            take = batch[mask].iloc[: need[label] - have[label]]
            parts[label].append(take)
            have[label] += len(take)
    X = pd.concat(parts[1] + parts[0], ignore_index=True)
    y = np.concatenate([np.ones(need[1], dtype=np.int64), np.zeros(need[0], dtype=np.int64)])
    order = rng.permutation(n)
    return X.iloc[order].reset_index(drop=True), y[order]


# ---------------------------------------------------------------------------------------------
# Fig. 2 shapes. The paper only draws them; these are our documented choices on [0, 1].
# plateau:   density rises linearly on [0, 0.25], is flat on [0.25, 0.75], falls on [0.75, 1]
#            (a trapezoid; flat top height 4/3).
# triangles: two equal triangles, on [0, 0.5] peaking at 0.25 and on [0.5, 1] peaking at 0.75
#            (density 0 at 0, 0.5 and 1; peak height 2).
# ---------------------------------------------------------------------------------------------

def plateau_pdf(x) -> np.ndarray:
    """Density of :func:`plateau` (a trapezoid on [0, 1] with a flat top on [0.25, 0.75]).

    Parameters
    ----------
    x : float or array-like of float
        Points at which to evaluate the density (finite).

    Returns
    -------
    ndarray of float
        The density, same shape as ``x``: rising linearly on [0, 0.25], 4/3 on [0.25, 0.75],
        falling on [0.75, 1], and 0 outside [0, 1].

    Raises
    ------
    TypeError
        If ``x`` is None.
    ValueError
        If ``x`` is not numeric or not finite.

    Examples
    --------
    >>> plateau_pdf([-1.0, 0.125, 0.5, 1.0]).round(4).tolist()
    [0.0, 0.6667, 1.3333, 0.0]
    """
    x = _check_pdf_points(x)
    top = 4.0 / 3.0
    y = np.where(x < 0.25, top * x / 0.25, np.where(x > 0.75, top * (1 - x) / 0.25, top))
    return np.where((x < 0) | (x > 1), 0.0, y)


def triangles_pdf(x) -> np.ndarray:
    """Density of :func:`triangles` (two triangles, peaks at 0.25 and 0.75, zero at 0, 0.5, 1).

    Parameters
    ----------
    x : float or array-like of float
        Points at which to evaluate the density (finite).

    Returns
    -------
    ndarray of float
        The density, same shape as ``x``: peaks of height 2 at 0.25 and 0.75, 0 at 0, 0.5
        and 1 and outside [0, 1].

    Raises
    ------
    TypeError
        If ``x`` is None.
    ValueError
        If ``x`` is not numeric or not finite.

    Examples
    --------
    >>> triangles_pdf([0.25, 0.5, 0.625, 2.0]).tolist()
    [2.0, 0.0, 1.0, 0.0]
    """
    x = _check_pdf_points(x)
    y = 2.0 * (1.0 - np.abs((x % 0.5) - 0.25) / 0.25)
    return np.where((x < 0) | (x > 1), 0.0, y)


def _check_pdf_points(x) -> np.ndarray:
    """Points where a density is evaluated: numeric and finite (a NaN would get a density)."""
    if x is None:
        raise TypeError("x must be a number or an array of numbers, got None")
    try:
        x = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as err:
        raise ValueError(f"x must be numeric: {err}") from None
    if not np.isfinite(x).all():
        raise ValueError("x contains NaN or infinite values; a density needs finite points")
    return x


def _check_positive_n(n) -> None:
    """A record count: a whole number > 0 (a bool or 3.0 is refused)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise ValueError(f"n must be a positive integer, got {n!r}")


def _check_n(n):
    _check_positive_n(n)
    check_size(int(n), "n")
    return int(n)


def plateau(n: int, rng=None) -> np.ndarray:
    """Samples from the "plateau" distribution of Fig. 2 (our trapezoid choice, see module notes).

    Drawn as the sum ``U[0, 0.25] + U[0, 0.75]``, whose density is exactly the trapezoid of
    :func:`plateau_pdf`.

    Parameters
    ----------
    n : int
        Number of samples, > 0.
    rng : None, int or numpy.random.Generator
        Same seed, same samples.

    Returns
    -------
    ndarray of float, shape (n,)
        The samples, in [0, 1].

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer (or too large for memory).

    Examples
    --------
    >>> x = plateau(1000, rng=0)
    >>> bool((x >= 0).all() and (x <= 1).all())
    True
    """
    n = _check_n(n)
    rng = check_random_state(rng)
    return rng.uniform(0, 0.25, n) + rng.uniform(0, 0.75, n)


def triangles(n: int, rng=None) -> np.ndarray:
    """Samples from the "triangles" distribution of Fig. 2 (two triangles, peaks 0.25 and 0.75).

    Each triangle on [0, 0.5] is the sum of two U[0, 0.25]; a fair coin picks the half.

    Parameters
    ----------
    n : int
        Number of samples, > 0.
    rng : None, int or numpy.random.Generator
        Same seed, same samples.

    Returns
    -------
    ndarray of float, shape (n,)
        The samples, in [0, 1].

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer (or too large for memory).

    Examples
    --------
    >>> x = triangles(1000, rng=0)
    >>> bool((x >= 0).all() and (x <= 1).all())
    True
    """
    n = _check_n(n)
    rng = check_random_state(rng)
    return rng.uniform(0, 0.25, n) + rng.uniform(0, 0.25, n) + 0.5 * rng.integers(0, 2, n)


def agrawal_bounds() -> dict:
    """The public domain (Table 2) of each perturbed attribute: ``{name: (low, high)}``.

    The reconstruction trees split these domains into intervals (Sec. 4.2), and the privacy
    level of :func:`agrawal_noise` is a fraction of their widths (Sec. 5.1).

    Returns
    -------
    dict of str to tuple of float
        ``{attribute: (low, high)}`` for the six numeric attributes of Agrawal & Srikant 2000
        that are perturbed (salary, commission, age, hvalue, hyears, loan), in their units
        (dollars, years).

    Examples
    --------
    >>> agrawal_bounds()["age"]
    (20.0, 80.0)
    """
    return {a: AGRAWAL_DOMAINS[a] for a in AGRAWAL_NUMERIC}


def agrawal_noise(kind: str, privacy: float) -> dict:
    """``{attribute: noise}`` giving ``privacy`` x 100 % privacy at 95 % confidence (Sec. 5.1).

    Sec. 2.1 of Agrawal & Srikant 2000: at ``privacy`` = 1.0 (100 %) the 95 % confidence
    interval of an attribute's noise is as wide as its domain (Table 2, :func:`agrawal_bounds`),
    so the perturbed value tells within that interval nothing more than the domain already did.

    Parameters
    ----------
    kind : {"gaussian", "uniform", "laplace"}
        The noise family (the paper: Gaussian and uniform).
    privacy : float
        Privacy level as a fraction of each attribute's range, > 0 (0.25 = 25 %, 1.0 = 100 %;
        Fig. 6 goes up to 2.0 = 200 %).

    Returns
    -------
    dict of str to Noise
        One noise object per perturbed attribute (salary, commission, age, hvalue, hyears,
        loan), scaled to that attribute's range.

    Raises
    ------
    ValueError
        If `kind` is unknown or `privacy` is not a finite number > 0.

    Examples
    --------
    >>> noise = agrawal_noise("gaussian", 1.0)
    >>> round(noise["age"].interval_width(0.95))        # the whole range of age, 20..80
    60
    """
    return {a: noise_for_privacy(kind, privacy, hi - lo) for a, (lo, hi) in agrawal_bounds().items()}
