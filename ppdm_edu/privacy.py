"""How much privacy does a randomization give? Interval privacy and differential-entropy privacy.

Two families of measures are implemented:

* **Interval privacy** (Agrawal & Srikant 2000, Section 2.1, Table 1): if a value can be
  estimated with c % confidence to lie in [x1, x2], the width x2 - x1 is the privacy at that
  confidence. :func:`interval_privacy` regenerates Table 1 exactly at any confidence and
  :func:`table1` puts the paper's printed values beside the exact ones.
* **Differential-entropy privacy** (Agrawal & Aggarwal, PODS 2001, restated in Section 3 of
  Liu, Kantarcioglu & Thuraisingham): Pi(A) = 2**h(A) with h in bits (their Eq. 1-2);
  conditional privacy Pi(A|B) = 2**h(A|B); privacy loss P(A|B) = 1 - Pi(A|B)/Pi(A)
  = 1 - 2**-I(A;B). These are estimated from samples.

Estimators (documented choices)
-------------------------------
* h(X) from a 1-D sample (:func:`differential_entropy`): a histogram plug-in estimate with the
  Freedman-Diaconis bin width 2 IQR n^(-1/3) and the Miller-Madow correction (B - 1)/(2n) nats.
  The bin width shrinks as n^(-1/3) while the count per bin grows as n^(2/3), so both the
  discretisation bias (O(width^2)) and the finite-sample bias (O(B/n)) vanish: the estimate is
  consistent. Values recorded on a grid (Adult ``age`` in whole years) are treated as uniform
  over their grid cell: the bin width is rounded to a whole number of grid steps and the bin
  edges fall half-way between grid points, so bins never alias the grid.
* I(X;W) from paired samples (:func:`mutual_information`): the k-nearest-neighbour estimator of
  Kraskov, Stoegbauer & Grassberger (2004, "algorithm 1", max-norm, k = 3) on standardised
  x and w, with the Gao et al. (2017) rule for exactly repeated pairs (discrete-continuous
  mixtures); values recorded on a grid are spread over their grid cell first (seeded), which
  leaves I unchanged but removes the tie bias of k-NN at small n. It needs no bins, has a small
  bias for smooth dependences and costs one k-d tree query (scipy ``cKDTree``) plus two sorted
  searches.
* With the noise model known (it is public in this setting), I(X;W) = h(W) - h(R) exactly,
  since W = X + R with R independent of X gives h(W|X) = h(R) in closed form; then only h(W)
  is estimated (``noise=`` argument; no neighbour search).
* h(X|W) = h(X) - I(X;W), so conditional privacy combines the two (each is consistent).

Units: entropies and mutual information are in **bits** unless ``base`` says otherwise; Pi and
conditional privacy are in the units of the attribute (years, dollars); the privacy loss is a
number in [0, 1] without a unit (1 - 2**-I with I in bits equals 1 - e**-I with I in nats).

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.privacy import entropy_privacy, privacy_loss, snr
>>> rng = np.random.default_rng(0)
>>> x = rng.normal(size=50_000)
>>> w = x + rng.normal(size=50_000)
>>> round(privacy_loss(x, w), 2)         # closed form 1 - 2**-0.5 = 0.29
0.29
>>> round(snr(x, w - x), 1)
1.0
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special
from scipy.spatial import cKDTree

from ._validation import check_finite_1d, check_positive, check_probability
from .random_state import check_random_state
from .randomization import Noise, check_noise, noise_for_snr, perturb

__all__ = [
    "interval_privacy",
    "table1",
    "PAPER_TABLE1",
    "differential_entropy",
    "entropy_privacy",
    "mutual_information",
    "conditional_privacy",
    "privacy_loss",
    "gaussian_privacy_loss",
    "snr",
    "PrivacyMeasures",
    "privacy_measures",
    "privacy_by_attribute",
    "grid_step",
]

_LN2 = math.log(2.0)

# ---------------------------------------------------------------------------------------------
# Interval privacy: Table 1 of Agrawal & Srikant (2000)
# ---------------------------------------------------------------------------------------------

INTERVAL_METHODS = ("discretization", "uniform", "gaussian")
_UNITS = {"discretization": "W", "uniform": "2α", "gaussian": "σ"}

#: Table 1 of Agrawal & Srikant (2000) as printed: interval width at 50 %, 95 %, 99.9 %
#: confidence, as a multiple of W (discretization), 2 alpha (uniform) or sigma (Gaussian).
PAPER_TABLE1 = {
    "discretization": {0.5: 0.5, 0.95: 0.95, 0.999: 0.999},
    "uniform": {0.5: 0.5, 0.95: 0.95, 0.999: 0.999},
    "gaussian": {0.5: 1.34, 0.95: 3.92, 0.999: 6.8},
}


def _interval_coefficient(method: str, confidence: float) -> float:
    """Width of the shortest c-confidence interval in units of W, 2 alpha or sigma."""
    if method == "gaussian":
        # two-sided: [-z sigma, z sigma] with z = Phi^-1((1 + c) / 2)
        return 2.0 * float(special.ndtri(0.5 + 0.5 * confidence))
    # Discretization: the value is uniform over its interval of width W, so any sub-interval
    # of width c W holds it with probability c; likewise c x 2 alpha for uniform noise.
    return confidence


def _check_methods(method) -> list[str]:
    if not isinstance(method, str) and not hasattr(method, "__iter__"):
        raise TypeError(f"method must be a name or a sequence of names from {INTERVAL_METHODS}, "
                        f"got {method!r}")
    methods = [method] if isinstance(method, str) else list(method)
    if not methods:
        raise ValueError(f"method is empty; allowed: {', '.join(INTERVAL_METHODS)}")
    out = []
    for m in methods:
        key = str(m).lower()
        if key not in INTERVAL_METHODS:
            raise ValueError(f"unknown method {m!r}; allowed: {', '.join(INTERVAL_METHODS)}")
        out.append(key)
    return out


def _check_confidences(confidence) -> list[float]:
    if not isinstance(confidence, (numbers.Real, list, tuple, np.ndarray)):
        raise TypeError(f"confidence must be a number or a sequence of numbers in (0, 1), got {confidence!r}")
    values = [confidence] if isinstance(confidence, numbers.Real) else list(confidence)
    if not values:
        raise ValueError("confidence is empty; give one or more numbers strictly between 0 and 1")
    return [check_probability(c, "confidence", open_interval=True) for c in values]


def _confidence_label(c: float) -> str:
    return f"{100 * c:g}%"


def interval_privacy(method=INTERVAL_METHODS, confidence=(0.5, 0.95, 0.999)) -> pd.DataFrame:
    """Table 1 of Agrawal & Srikant (2000): the interval width that holds the true value.

    Parameters
    ----------
    method : str or sequence of str
        Any of ``"discretization"`` (intervals of equal width W), ``"uniform"`` (noise on
        [-alpha, alpha]) and ``"gaussian"`` (noise with standard deviation sigma).
    confidence : float or sequence of float
        Confidence levels strictly between 0 and 1.

    Returns
    -------
    pandas.DataFrame
        One row per method; column ``unit`` (``W``, ``2α`` or ``σ``) and one column per
        confidence (labelled like ``"95%"``) holding the exact width as a multiple of the unit.

    Raises
    ------
    ValueError
        If a method is unknown or a confidence is not strictly between 0 and 1 (or either list
        is empty).

    Examples
    --------
    >>> interval_privacy("gaussian", 0.95).round(2).to_string()
    '         unit   95%\\nmethod             \\ngaussian    σ  3.92'
    """
    methods = _check_methods(method)
    confidences = _check_confidences(confidence)
    rows = {
        m: {"unit": _UNITS[m], **{_confidence_label(c): _interval_coefficient(m, c) for c in confidences}}
        for m in methods
    }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "method"
    return frame


def table1() -> pd.DataFrame:
    """Table 1 of Agrawal & Srikant (2000): the paper's printed values beside the exact ones.

    Returns
    -------
    pandas.DataFrame
        Columns ``method, confidence, unit, paper, exact, difference, note``. ``note`` says where
        the printed value is not the exact one rounded to the printed precision: the Gaussian
        50 % entry 1.34 sigma (exact 1.349 sigma, so truncated, not rounded) and the Gaussian
        99.9 % entry 6.8 sigma (exact 2 x 3.2905 = 6.581 sigma; 6.8 sigma holds 99.93 %).

    Examples
    --------
    >>> t = table1()
    >>> row = t[(t.method == "gaussian") & (t.confidence == 0.999)].iloc[0]
    >>> f"{row.paper} {row.exact:.2f}"
    '6.8 6.58'
    """
    records = []
    for method, column in PAPER_TABLE1.items():
        for confidence, paper in column.items():
            exact = _interval_coefficient(method, confidence)
            decimals = len(repr(paper).split(".")[1])
            if round(exact, decimals) == paper:
                note = "agrees"
            else:
                # the confidence the printed width really holds (Gaussian only)
                held = float(2.0 * special.ndtr(paper / 2.0) - 1.0)
                note = (
                    f"printed {paper} but exact {exact:.3f} rounds to {round(exact, decimals)}; "
                    f"{paper} sigma holds {100 * held:.2f}%"
                )
            records.append({
                "method": method, "confidence": confidence, "unit": _UNITS[method],
                "paper": paper, "exact": exact, "difference": paper - exact, "note": note,
            })
    return pd.DataFrame.from_records(records)


# ---------------------------------------------------------------------------------------------
# Differential entropy and Pi(A) = 2**h(A) (Agrawal & Aggarwal 2001; Liu et al. Section 3)
# ---------------------------------------------------------------------------------------------

def _check_base(base) -> float:
    if isinstance(base, bool) or not isinstance(base, numbers.Real) or not math.isfinite(base) \
            or base <= 0 or base == 1:
        raise ValueError(f"base must be a finite number > 0 and != 1 (2 for bits, e for nats), got {base!r}")
    return float(base)


def grid_step(values) -> float | None:
    """The spacing of a lattice the values are recorded on (e.g. 1 for whole years), or None.

    Values recorded on a grid (ages in whole years) have ties that a density estimate must
    spread over the grid cell; this finds the cell width.

    Parameters
    ----------
    values : array-like of float
        The sample (1-D, finite).

    Returns
    -------
    float or None
        The grid spacing, or None when the values have (almost) no ties or no common lattice.

    Raises
    ------
    TypeError
        If ``values`` is text.
    ValueError
        If ``values`` is empty, not 1-d or not finite.

    Examples
    --------
    >>> grid_step([20, 20, 21, 21, 23, 23, 25, 25])
    1.0
    >>> grid_step([0.1, 0.25, 0.7]) is None
    True
    """
    values = check_finite_1d(values, "values")
    unique = np.unique(values)
    if unique.size < 2 or unique.size > values.size // 2:
        return None  # (almost) no ties: treat as continuous
    step = float(np.min(np.diff(unique)))
    ratio = (unique - unique[0]) / step
    if np.max(np.abs(ratio - np.round(ratio))) > 1e-6:
        return None
    return step


_MAX_BINS = 100_000


def _histogram_edges(values: np.ndarray) -> np.ndarray:
    """Freedman-Diaconis bin edges, aligned to the recording grid when there is one."""
    n = values.size
    lo, hi = float(values.min()), float(values.max())
    q75, q25 = np.percentile(values, [75.0, 25.0])
    width = 2.0 * (q75 - q25) * n ** (-1.0 / 3.0)  # Freedman & Diaconis (1981)
    if width <= 0:  # more than half of the values tied: Scott's rule on the standard deviation
        width = 3.49 * float(values.std()) * n ** (-1.0 / 3.0)
    step = grid_step(values)
    if step is not None:
        # each recorded value stands for its grid cell [v - step/2, v + step/2)
        width = max(1, int(round(width / step))) * step
        lo, hi = lo - 0.5 * step, hi + 0.5 * step
    if (hi - lo) / width > _MAX_BINS:  # far outliers: cap the number of (mostly empty) bins
        width = (hi - lo) / _MAX_BINS
        if step is not None:
            width = math.ceil(width / step) * step
    n_bins = max(1, int(math.ceil((hi - lo) / width - 1e-9)))
    if step is None:
        return np.linspace(lo, hi, n_bins + 1)
    return lo + width * np.arange(n_bins + 1)


def differential_entropy(samples, base: float = 2.0) -> float:
    """Estimate the differential entropy h(X) = -int f log f (Liu et al. Eq. 1) from a sample.

    Histogram plug-in estimate with Freedman-Diaconis bins and the Miller-Madow correction
    (see the module docstring for why it is consistent).

    Parameters
    ----------
    samples : array-like of float, shape (n,)
        At least 2 values, not all equal.
    base : float, default 2.0
        Logarithm base: 2 (bits, the papers' unit) or ``math.e`` (nats); finite, > 0, != 1.

    Returns
    -------
    float
        The estimate of h(X) in units of ``base`` (can be negative: a density concentrated on
        an interval shorter than 1 has h < 0).

    Raises
    ------
    ValueError
        If ``samples`` is not finite and 1-d, has fewer than 2 values or is constant, or
        ``base`` is invalid.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).uniform(0, 8, 100_000)
    >>> round(differential_entropy(x), 2)   # log2(8) = 3
    3.0
    """
    values = check_finite_1d(samples, "samples")
    base = _check_base(base)
    if values.size < 2:
        raise ValueError("samples must hold at least 2 values to estimate an entropy")
    if values.min() == values.max():
        raise ValueError(
            "samples are all equal: a constant has differential entropy -infinity (privacy 0)"
        )
    edges = _histogram_edges(values)
    counts, _ = np.histogram(values, bins=edges)
    widths = np.diff(edges)
    keep = counts > 0
    p = counts[keep] / values.size
    h_nats = float(-np.sum(p * np.log(p / widths[keep])))
    h_nats += (np.count_nonzero(keep) - 1) / (2.0 * values.size)  # Miller & Madow (1955)
    return float(h_nats / math.log(base))


def entropy_privacy(samples) -> float:
    """Pi(X) = 2**h(X) estimated from a sample (Agrawal & Aggarwal; Liu et al. Eq. 2).

    In the units of the attribute: a variable uniform on an interval of length a has Pi = a.

    Parameters
    ----------
    samples : array-like of float, shape (n,)
        At least 2 values, not all equal (see :func:`differential_entropy`).

    Returns
    -------
    float
        Pi(X) > 0, in the units of the attribute.

    Raises
    ------
    ValueError
        As :func:`differential_entropy`.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).uniform(0, 5, 100_000)
    >>> round(entropy_privacy(x), 1)
    5.0
    """
    return float(2.0 ** differential_entropy(samples, base=2.0))


def _check_pairs(x, w) -> tuple[np.ndarray, np.ndarray]:
    xs = check_finite_1d(x, "x")
    ws = check_finite_1d(w, "w")
    if xs.size != ws.size:
        raise ValueError(
            f"x and w must be paired samples of the same length, got {xs.size} and {ws.size}"
        )
    return xs, ws


def _check_k(k, n: int) -> int:
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or int(k) < 1:
        raise ValueError(f"k (number of neighbours) must be an integer >= 1, got {k!r}")
    if n < int(k) + 2:
        raise ValueError(f"need at least k + 2 = {k + 2} paired samples, got {n}")
    return int(k)


def _spread_over_grid(values: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """Values on a lattice of step s, each moved uniformly within its cell [v - s/2, v + s/2)."""
    step = grid_step(values)
    if step is None:
        return values
    return values + gen.uniform(-0.5 * step, 0.5 * step, values.size)


def _marginal_counts(v: np.ndarray, radius: np.ndarray, strict: np.ndarray) -> np.ndarray:
    """How many other points lie within ``radius`` of each point (< where strict, else <=)."""
    s = np.sort(v)
    upper = np.where(strict, np.searchsorted(s, v + radius, side="left"),
                     np.searchsorted(s, v + radius, side="right"))
    lower = np.where(strict, np.searchsorted(s, v - radius, side="right"),
                     np.searchsorted(s, v - radius, side="left"))
    return upper - lower - 1  # minus the point itself


def mutual_information(x, w, k: int = 3, base: float = 2.0, noise: Noise | None = None,
                       rng=0) -> float:
    """Estimate I(X;W) from paired samples with the KSG k-nearest-neighbour estimator.

    Kraskov, Stoegbauer & Grassberger (2004), algorithm 1: for each point, eps = max-norm
    distance to its k-th neighbour in the (x, w) plane; n_x, n_w = points strictly closer than
    eps in x alone and in w alone; I = psi(k) + psi(n) - mean(psi(n_x + 1) + psi(n_w + 1)).
    x and w are standardised first (I is invariant to scaling, the max-norm is not).

    Values recorded on a grid (Adult ``age`` in whole years, a discretized ``w``) are first
    spread uniformly over their grid cell, as :func:`differential_entropy` treats them. The
    cells do not overlap, so the spread value determines the recorded one and I is unchanged;
    but the k-NN estimator no longer sees thousands of exact ties, which bias it upwards at
    small n (73 whole-number ages, Gaussian noise at 100 % privacy, n = 10,000: +8 % with the
    ties; spread, the error is centred on 0 with a spread of about 3 % between draws).
    Kraskov et al. add small noise for the same reason. Any exact duplicates left
    (eps = 0) use the rule of Gao et al. (2017): k becomes the number of duplicates and the
    counts use <= 0. Negative estimates (possible when X and W are independent) are reported
    as 0, since I >= 0.

    Parameters
    ----------
    x, w : array-like of float, shape (n,)
        Paired samples (record i of ``w`` is the perturbed record i of ``x``).
    k : int
        Number of neighbours; 3 is the usual trade-off (bias falls, variance rises with k).
    base : float
        2 for bits (the papers' unit), ``math.e`` for nats.
    noise : Noise, optional
        If the additive noise model is known (it is public in the randomization setting), use
        I(X;W) = h(W) - h(W|X) = h(W) - h(R) instead: W = X + R with R independent of X, so
        h(W|X) = h(R) in closed form and only h(W) is estimated (histogram,
        :func:`differential_entropy`). No neighbour search; ``k`` is then ignored.
    rng : None, int or numpy.random.Generator
        Seed for the spread of grid values over their cells (default 0: the same input always
        gives the same number). Unused when neither x nor w is on a grid.

    Returns
    -------
    float
        The estimate of I(X;W) in units of ``base``, >= 0 (0 when ``x`` or ``w`` is constant).

    Raises
    ------
    ValueError
        If ``x`` and ``w`` are not finite 1-d samples of equal length, there are fewer than
        ``k + 2`` pairs, ``k`` is not a positive integer or ``base`` is invalid.
    TypeError
        If ``noise`` is given but is not a noise model.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> x = rng.normal(size=20_000)
    >>> round(mutual_information(x, x + rng.normal(size=20_000)), 1)   # 0.5 bit
    0.5
    """
    xs, ws = _check_pairs(x, w)
    k = _check_k(k, xs.size)
    base = _check_base(base)
    if noise is not None:
        check_noise(noise)
        if ws.min() == ws.max():
            return 0.0
        i_bits = differential_entropy(ws, base=2.0) - noise.entropy()
        return float(max(i_bits, 0.0) * _LN2 / math.log(base))
    sx, sw = float(xs.std()), float(ws.std())
    if sx == 0.0 or sw == 0.0:
        return 0.0  # a constant carries no information
    gen = check_random_state(rng)
    xs, ws = _spread_over_grid(xs, gen), _spread_over_grid(ws, gen)
    xs = (xs - xs.mean()) / sx
    ws = (ws - ws.mean()) / sw
    n = xs.size
    points = np.column_stack([xs, ws])
    dist, _ = cKDTree(points).query(points, k=k + 1, p=np.inf)
    eps = dist[:, -1]
    k_eff = np.full(n, float(k))
    tied = eps == 0.0
    if tied.any():
        # Gao, Kannan, Oh & Viswanath (2017): k~ = number of other points at distance 0
        _, inverse, counts = np.unique(points, axis=0, return_inverse=True, return_counts=True)
        k_eff[tied] = counts[inverse.ravel()[tied]] - 1
    n_x = _marginal_counts(xs, eps, ~tied)
    n_w = _marginal_counts(ws, eps, ~tied)
    i_nats = float(special.digamma(n) + np.mean(
        special.digamma(k_eff) - special.digamma(n_x + 1) - special.digamma(n_w + 1)
    ))
    return float(max(i_nats, 0.0) / math.log(base))


def conditional_privacy(x, w, k: int = 3, noise: Noise | None = None, rng=0) -> float:
    """Pi(X|W) = 2**h(X|W) with h(X|W) = h(X) - I(X;W) (Agrawal & Aggarwal 2001).

    What is left of X's privacy once W is published, in the units of X: the length of an
    interval over which a uniform variable would be as uncertain as X is given W.

    Parameters
    ----------
    x : array-like of float, shape (n,)
        Original values.
    w : array-like of float, shape (n,)
        Perturbed values, paired record by record with ``x``.
    k : int, default 3
        Neighbours of the KSG estimator of I(X;W) (see :func:`mutual_information`).
    noise : Noise, optional
        The known noise model: estimate I = h(W) - h(R) instead of the k-NN estimate.
    rng : None, int or numpy.random.Generator, default 0
        Seed for spreading grid values over their cells (see :func:`mutual_information`).

    Returns
    -------
    float
        Pi(X|W) > 0, in the units of ``x``.

    Raises
    ------
    ValueError
        As :func:`differential_entropy` and :func:`mutual_information`.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(2)
    >>> x = rng.normal(size=20_000)
    >>> round(conditional_privacy(x, x + rng.normal(size=20_000)), 1)   # sqrt(2 pi e / 2) = 2.9
    2.9
    """
    xs, ws = _check_pairs(x, w)
    return float(2.0 ** (differential_entropy(xs) - mutual_information(xs, ws, k=k, noise=noise, rng=rng)))


def privacy_loss(x, w, k: int = 3, base: float = 2.0, noise: Noise | None = None, rng=0) -> float:
    """Privacy loss P(X|W) = 1 - Pi(X|W)/Pi(X) = 1 - 2**-I(X;W) (Agrawal & Aggarwal 2001).

    The fraction of X's privacy lost by publishing W; 0 = nothing lost, 1 = X revealed.
    I(X;W) is estimated in **bits** from paired samples (:func:`mutual_information`).

    Parameters
    ----------
    x, w : array-like of float, shape (n,)
        Original and perturbed values, paired record by record.
    k : int
        Neighbours of the KSG estimator.
    base : float
        The logarithm base in which I is measured before it is put in ``2**-I``. Only the
        default ``base=2`` is the definition; ``base=math.e`` computes ``1 - 2**-I_nats``, the
        number a units mix-up would give (useful to test a hypothesis about a paper's table).
    noise : Noise, optional
        The known noise model: estimate I = h(W) - h(R) instead of the k-NN estimate
        (see :func:`mutual_information`).
    rng : None, int or numpy.random.Generator
        Seed for spreading grid values over their cells (see :func:`mutual_information`).

    Returns
    -------
    float
        The loss, in [0, 1).

    Raises
    ------
    ValueError
        As :func:`mutual_information`.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(3)
    >>> x = rng.normal(size=20_000)
    >>> round(privacy_loss(x, x + rng.normal(size=20_000)), 2), round(1 - 2 ** -0.5, 2)
    (0.29, 0.29)
    """
    return float(1.0 - 2.0 ** -mutual_information(x, w, k=k, base=base, noise=noise, rng=rng))


def gaussian_privacy_loss(snr_value: float) -> float:
    """Closed form for Gaussian X and Gaussian noise: I = log2(1 + SNR)/2, loss = 1 - (1+SNR)^-1/2.

    The reference curve for :func:`privacy_loss` (Liu et al. tabulate the privacy loss at
    several SNR values, their Table 1).

    Parameters
    ----------
    snr_value : float
        Signal-to-noise ratio var(X) / var(R), finite and >= 0.

    Returns
    -------
    float
        The privacy loss ``1 - 2**-I`` with I in bits, in [0, 1).

    Raises
    ------
    ValueError
        If ``snr_value`` is not a finite number >= 0.

    Examples
    --------
    >>> round(gaussian_privacy_loss(1.0), 4)
    0.2929
    """
    if isinstance(snr_value, bool) or not isinstance(snr_value, numbers.Real):
        raise TypeError(f"snr_value must be a finite number >= 0, got {snr_value!r}")
    if not math.isfinite(snr_value) or snr_value < 0:
        raise ValueError(f"snr_value must be a finite number >= 0, got {snr_value!r}")
    return 1.0 - (1.0 + float(snr_value)) ** -0.5


def snr(x, noise) -> float:
    """Signal-to-noise ratio var(x) / var(noise) (Liu et al. Section 7).

    Parameters
    ----------
    x : array-like of float
        The original values (population variance, ddof = 0).
    noise : Noise or array-like of float
        A noise model (its exact variance is used) or the noise values actually added
        (e.g. ``w - x``).

    Returns
    -------
    float
        ``var(x) / var(noise)``, >= 0.

    Raises
    ------
    ValueError
        If ``x`` or the noise values are not finite, or the noise values are constant.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import GaussianNoise
    >>> snr(np.array([0.0, 2.0]), GaussianNoise(1.0))
    1.0
    """
    values = check_finite_1d(x, "x")
    var_x = float(values.var())
    if isinstance(noise, Noise):
        var_r = noise.var
    else:
        r = check_finite_1d(noise, "noise")
        var_r = float(r.var())
        if var_r == 0.0:
            raise ValueError("noise values are constant (variance 0): the SNR is infinite")
    return float(var_x / var_r)


# ---------------------------------------------------------------------------------------------
# Everything at once
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PrivacyMeasures:
    """The measures of one perturbation ``w = x + r`` side by side.

    Attributes
    ----------
    confidence : float
        Confidence level of the interval measure (e.g. 0.95).
    interval_width : float
        Width of the noise's ``confidence`` interval (Agrawal & Srikant Table 1), attribute units.
    privacy_level : float
        ``interval_width / value_range`` ("x % privacy" of the papers, as a fraction).
    pi_x : float
        Pi(X) = 2**h(X) estimated from the sample, attribute units.
    pi_noise : float
        Pi(R) = 2**h(R) of the noise, in closed form.
    pi_x_given_w : float
        Conditional privacy Pi(X|W), estimated.
    mutual_information : float
        I(X;W) in bits, estimated.
    loss : float
        Privacy loss 1 - 2**-I(X;W).
    snr : float
        var(x) / var(r) with the noise model's variance.
    """

    confidence: float
    interval_width: float
    privacy_level: float
    pi_x: float
    pi_noise: float
    pi_x_given_w: float
    mutual_information: float
    loss: float
    snr: float


def privacy_measures(x, w, noise: Noise, confidence: float = 0.95, value_range=None, k: int = 3,
                     estimator: str = "knn") -> PrivacyMeasures:
    """Compute every measure of this module for one perturbation ``w = x + r``, ``r ~ noise``.

    ``value_range`` defaults to ``max(x) - min(x)``. ``estimator`` chooses how I(X;W) is
    estimated: ``"knn"`` (KSG from the pairs) or ``"known-noise"`` (h(W) - h(R), see
    :func:`mutual_information`).

    Parameters
    ----------
    x : array-like of float, shape (n,)
        Original values.
    w : array-like of float, shape (n,)
        Perturbed values, paired with ``x``.
    noise : Noise
        The noise model that produced ``w - x``.
    confidence : float, default 0.95
        Confidence of the interval measure, strictly between 0 and 1.
    value_range : float, optional
        Width of the attribute's domain, > 0 (default ``max(x) - min(x)``); the privacy level
        is ``interval_width / value_range``.
    k : int, default 3
        Neighbours of the KSG estimator (``estimator="knn"`` only).
    estimator : {"knn", "known-noise"}, default "knn"
        How I(X;W) is estimated.

    Returns
    -------
    PrivacyMeasures
        Interval width and privacy level, Pi(X), Pi(R), Pi(X|W), I(X;W), the loss and the SNR.

    Raises
    ------
    ValueError
        If an argument is out of its range, ``x`` and ``w`` are not paired finite samples, or
        ``x`` is constant and ``value_range`` is not given.
    TypeError
        If ``noise`` is not a noise model.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import UniformNoise, perturb
    >>> x = np.random.default_rng(0).uniform(0, 10, 10_000)
    >>> m = privacy_measures(x, perturb(x, UniformNoise(5.0), rng=1), UniformNoise(5.0))
    >>> f"{m.privacy_level:.2f} {m.pi_noise:.1f}"
    '0.95 10.0'
    """
    check_noise(noise)
    confidence = check_probability(confidence, "confidence", open_interval=True)
    if estimator not in ("knn", "known-noise"):
        raise ValueError(f"estimator must be 'knn' or 'known-noise', got {estimator!r}")
    xs, ws = _check_pairs(x, w)
    width = noise.interval_width(confidence)
    if value_range is None:
        value_range = float(xs.max() - xs.min())
        if not value_range > 0:
            raise ValueError("x is constant: give value_range (finite, > 0) explicitly")
    else:  # an infinite range would report privacy level 0
        value_range = check_positive(value_range, "value_range")
    h_x = differential_entropy(xs)
    i_xw = mutual_information(xs, ws, k=k, noise=noise if estimator == "known-noise" else None)
    return PrivacyMeasures(
        confidence=float(confidence),
        interval_width=width,
        privacy_level=width / value_range,
        pi_x=2.0 ** h_x,
        pi_noise=noise.privacy(),
        pi_x_given_w=2.0 ** (h_x - i_xw),
        mutual_information=i_xw,
        loss=1.0 - 2.0 ** -i_xw,
        snr=snr(xs, noise),
    )


def privacy_by_attribute(frame, snr_value, kind: str = "gaussian", rng=None, k: int = 3) -> pd.DataFrame:
    """Perturb every column at a given SNR and measure the privacy loss (Liu et al. Section 7).

    Each column ``x`` gets independent noise of variance ``var(x) / snr``
    (:func:`~ppdm_edu.randomization.noise_for_snr`); the loss 1 - 2**-I(X;W) is estimated from
    the pairs with the k-NN estimator.

    Parameters
    ----------
    frame : pandas.DataFrame
        Numeric columns (e.g. Adult's six continuous attributes).
    snr_value : float or sequence of float
        One SNR for every column, or one per column (in column order).
    kind : {"gaussian", "uniform"}
        The noise distribution.
    rng : None, int or numpy.random.Generator
        Seed for the noise; the same seed gives the same table.
    k : int
        Neighbours of the mutual-information estimator.

    Returns
    -------
    pandas.DataFrame
        One row per column: ``snr``, ``noise_scale`` (alpha or sigma), ``mi_bits`` (I(X;W) in
        bits), ``loss`` (1 - 2**-I, the definition) and ``loss_if_nats`` (1 - 2**-I with I in
        nats: what a units mix-up would print).

    Raises
    ------
    TypeError
        If ``kind`` is not a string.
    ValueError
        If ``frame`` is not a DataFrame with at least one finite numeric column, the number of
        SNR values does not match the columns, or an SNR, ``kind`` or ``k`` is invalid.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> X = pd.DataFrame({"a": np.random.default_rng(0).normal(size=5_000)})
    >>> t = privacy_by_attribute(X, 1.0, rng=1)
    >>> round(float(t.loc["a", "loss"]), 1)
    0.3
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas DataFrame of numeric columns, got {type(frame).__name__}")
    columns = list(frame.columns)
    if not columns:
        raise ValueError("frame has no columns")
    if isinstance(snr_value, (numbers.Real, str)):
        snrs = [snr_value] * len(columns)
    elif not isinstance(snr_value, (list, tuple, np.ndarray, pd.Series)):
        raise TypeError(f"snr_value must be one SNR or one per column, got {snr_value!r}")
    else:
        snrs = list(snr_value)
        if len(snrs) != len(columns):
            raise ValueError(f"snr_value: give one SNR or one per column: {len(columns)} columns, "
                             f"{len(snrs)} SNR values")
    snr_values = [check_positive(s, "snr_value") for s in snrs]
    gen = check_random_state(rng)
    rows = {}
    for column, s in zip(columns, snr_values):  # a loop over attributes, not records
        if not pd.api.types.is_numeric_dtype(frame[column].dtype):
            raise TypeError(f"frame column {column!r} must be numeric (privacy is measured on "
                            f"numbers), got dtype {frame[column].dtype}; drop or encode it first")
        x = check_finite_1d(frame[column].to_numpy(dtype=float), str(column))
        noise = noise_for_snr(x, s, kind=kind)
        w = perturb(x, noise, rng=gen)
        i_bits = mutual_information(x, w, k=k, rng=gen)
        rows[column] = {
            "snr": s,
            "noise_scale": noise.scale,
            "mi_bits": i_bits,
            "loss": 1.0 - 2.0 ** -i_bits,
            "loss_if_nats": 1.0 - 2.0 ** -(i_bits * _LN2),
        }
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "attribute"
    return out
