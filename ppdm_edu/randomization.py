"""Value distortion and value-class membership (Agrawal & Srikant 2000, Section 2).

A client hides a value ``x`` by sending ``w = x + r`` where ``r`` is drawn from a public noise
distribution: uniform on [-alpha, +alpha] or Gaussian with mean 0 and standard deviation sigma.
The noise objects here are small, immutable and carry the math a lecture needs as methods
(``sample``, ``pdf``, ``cdf``, ``var``, ``interval_width``, ``entropy``, ``privacy``).

Examples
--------
>>> import numpy as np
>>> from ppdm_edu import UniformNoise, GaussianNoise, perturb, noise_for_privacy
>>> UniformNoise(alpha=0.5).interval_width(0.95)   # Table 1: 0.95 x 2 alpha
0.95
>>> round(GaussianNoise(sigma=1.0).interval_width(0.95), 2)  # Table 1: 3.92 sigma
3.92
>>> round(noise_for_privacy("gaussian", level=1.0, value_range=130_000).interval_width(0.95), 6)
130000.0
>>> w = perturb(np.array([30.0, 40.0]), UniformNoise(5.0), rng=0)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy import optimize, special

from .validation import (
    MAX_ELEMENTS,
    check_finite_1d,
    check_positive,
    check_probability,
    check_random_state,
    check_size,
)

__all__ = [
    "Noise",
    "UniformNoise",
    "GaussianNoise",
    "perturb",
    "discretize",
    "Discretization",
    "noise_for_privacy",
    "noise_for_snr",
    "NOISE_KINDS",
]

_LOG2E = 1.0 / math.log(2.0)


class Noise:
    """Base class of additive noise models ``r`` with mean 0 (``w = x + r``)."""

    kind: ClassVar[str] = ""

    # --- to be provided by subclasses -------------------------------------------------
    def sample(self, size, rng=None) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def pdf(self, x) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def cdf(self, x) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def var(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def interval_width(self, confidence: float = 0.95) -> float:  # pragma: no cover
        raise NotImplementedError

    def entropy(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def scale(self) -> float:  # pragma: no cover - abstract
        """The single parameter (alpha or sigma)."""
        raise NotImplementedError

    # --- shared ----------------------------------------------------------------------
    @property
    def std(self) -> float:
        return math.sqrt(self.var)

    def privacy(self) -> float:
        """Pi(R) = 2**h(R), the differential-entropy privacy of Agrawal & Aggarwal (2001)."""
        return 2.0 ** self.entropy()

    def sf(self, x) -> np.ndarray:
        """P(R > x) = 1 - cdf(x) (used by PPDTC4.5: P(R >= w - t))."""
        return 1.0 - self.cdf(x)

    def ppf(self, q) -> np.ndarray:
        """Quantile function F_R^-1(q) for q in [0, 1] (PPDTC4.5's threshold shift, Liu Sec. 6).

        Subclasses give closed forms; this default inverts :meth:`cdf` numerically, so every
        noise answers the same call and no caller branches on the noise type.

        Parameters
        ----------
        q : float or array_like
            Probabilities in [0, 1].

        Returns
        -------
        numpy.ndarray or float
            The quantiles, same shape as ``q``.
        """
        q = _check_quantile(q)
        lo, hi = self.support(1.0 - 1e-12)
        out = np.array([optimize.brentq(lambda r, t=t: float(self.cdf(r)) - t, lo, hi)
                        if 0.0 < t < 1.0 else (lo if t == 0.0 else hi) for t in np.ravel(q)])
        return out.reshape(np.shape(q)) if np.ndim(q) else float(out[0])

    def support(self, coverage: float = 1.0 - 1e-9) -> tuple[float, float]:
        """An interval [-b, b] that holds the noise with at least ``coverage`` probability."""
        half = 0.5 * self.interval_width(coverage)
        return -half, half


def _check_quantile(q):
    """q as a float array in [0, 1]; a NaN or out-of-range probability is refused, naming q."""
    arr = np.asarray(q, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any((arr < 0.0) | (arr > 1.0)):
        raise ValueError(f"q must hold probabilities in [0, 1], got {q!r}")
    return arr


def _check_confidence(confidence) -> float:
    return check_probability(confidence, "confidence", open_interval=True)


@dataclass(frozen=True)
class UniformNoise(Noise):
    """Uniform noise on [-alpha, +alpha] (Section 2, "Value Distortion").

    Parameters
    ----------
    alpha : float
        Half-width of the noise interval; finite and > 0.

    Examples
    --------
    >>> n = UniformNoise(2.0)
    >>> n.var, n.privacy()
    (1.3333333333333333, 4.0)
    """

    alpha: float
    kind: ClassVar[str] = "uniform"

    def __post_init__(self):
        object.__setattr__(self, "alpha", check_positive(self.alpha, "alpha"))

    @property
    def scale(self) -> float:
        return self.alpha

    def sample(self, size, rng=None) -> np.ndarray:
        """Draw noise values; ``rng`` is a seed or a :class:`numpy.random.Generator`."""
        check_size(size)
        return check_random_state(rng).uniform(-self.alpha, self.alpha, size)

    def pdf(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.where(np.abs(x) <= self.alpha, 0.5 / self.alpha, 0.0)

    def cdf(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.clip((x + self.alpha) / (2.0 * self.alpha), 0.0, 1.0)

    def ppf(self, q) -> np.ndarray:
        """Quantile of U[-alpha, alpha]: -alpha + 2 alpha q."""
        q = _check_quantile(q)
        out = -self.alpha + 2.0 * self.alpha * q
        return out if out.ndim else float(out)

    @property
    def var(self) -> float:
        return self.alpha**2 / 3.0

    def interval_width(self, confidence: float = 0.95) -> float:
        """Width of the shortest interval holding the noise with this probability: c x 2 alpha."""
        return _check_confidence(confidence) * 2.0 * self.alpha

    def entropy(self) -> float:
        """Differential entropy in bits: log2(2 alpha)."""
        return math.log2(2.0 * self.alpha)

    def privacy(self) -> float:
        """Pi = 2**h = 2 alpha (closed form)."""
        return 2.0 * self.alpha

    def support(self, coverage: float = 1.0) -> tuple[float, float]:
        return -self.alpha, self.alpha

    @classmethod
    def from_interval_width(cls, width: float, confidence: float = 0.95) -> "UniformNoise":
        width = check_positive(width, "width")
        return cls(width / (2.0 * _check_confidence(confidence)))

    @classmethod
    def from_variance(cls, var: float) -> "UniformNoise":
        return cls(math.sqrt(3.0 * check_positive(var, "variance")))


@dataclass(frozen=True)
class GaussianNoise(Noise):
    """Gaussian noise with mean 0 and standard deviation sigma (Section 2).

    Parameters
    ----------
    sigma : float
        Standard deviation; finite and > 0.

    Examples
    --------
    >>> n = GaussianNoise(1.0)
    >>> round(n.interval_width(0.5), 2), round(n.privacy(), 3)
    (1.35, 4.133)
    """

    sigma: float
    kind: ClassVar[str] = "gaussian"

    def __post_init__(self):
        object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))

    @property
    def scale(self) -> float:
        return self.sigma

    def sample(self, size, rng=None) -> np.ndarray:
        """Draw noise values; ``rng`` is a seed or a :class:`numpy.random.Generator`."""
        check_size(size)
        return check_random_state(rng).normal(0.0, self.sigma, size)

    def pdf(self, x) -> np.ndarray:
        z = np.asarray(x, dtype=float) / self.sigma
        return np.exp(-0.5 * z * z) / (math.sqrt(2.0 * math.pi) * self.sigma)

    def cdf(self, x) -> np.ndarray:
        return special.ndtr(np.asarray(x, dtype=float) / self.sigma)

    def ppf(self, q) -> np.ndarray:
        """Quantile of N(0, sigma^2): sigma * Phi^-1(q)."""
        q = _check_quantile(q)
        out = self.sigma * special.ndtri(q)
        return out if out.ndim else float(out)

    @property
    def var(self) -> float:
        return self.sigma**2

    def interval_width(self, confidence: float = 0.95) -> float:
        """Shortest interval holding the noise with this probability: 2 z sigma, z = Phi^-1((1+c)/2)."""
        c = _check_confidence(confidence)
        return 2.0 * float(special.ndtri(0.5 + 0.5 * c)) * self.sigma

    def entropy(self) -> float:
        """Differential entropy in bits: 0.5 log2(2 pi e sigma^2)."""
        return 0.5 * math.log2(2.0 * math.pi * math.e * self.sigma**2)

    def privacy(self) -> float:
        """Pi = 2**h = sqrt(2 pi e) sigma (closed form)."""
        return math.sqrt(2.0 * math.pi * math.e) * self.sigma

    @classmethod
    def from_interval_width(cls, width: float, confidence: float = 0.95) -> "GaussianNoise":
        width = check_positive(width, "width")
        c = _check_confidence(confidence)
        return cls(width / (2.0 * float(special.ndtri(0.5 + 0.5 * c))))

    @classmethod
    def from_variance(cls, var: float) -> "GaussianNoise":
        return cls(math.sqrt(check_positive(var, "variance")))


NOISE_KINDS: dict[str, type[Noise]] = {"uniform": UniformNoise, "gaussian": GaussianNoise}


def _noise_class(kind: str) -> type[Noise]:
    try:
        return NOISE_KINDS[str(kind).lower()]
    except KeyError:
        raise ValueError(
            f"unknown noise kind {kind!r}; allowed: {', '.join(sorted(NOISE_KINDS))}"
        ) from None


def perturb(x, noise: Noise, rng=None) -> np.ndarray:
    """Value distortion: return ``x + r`` with ``r`` drawn independently from ``noise``.

    Parameters
    ----------
    x : array-like of float
        Original values (any shape; NaN or infinity raise ValueError).
    noise : Noise
        A :class:`UniformNoise` or :class:`GaussianNoise`.
    rng : None, int or numpy.random.Generator
        Seed or generator; the same seed gives the same perturbed values.

    Examples
    --------
    >>> perturb([1.0, 2.0], GaussianNoise(0.1), rng=1).shape
    (2,)
    """
    if not isinstance(noise, Noise):
        raise TypeError(f"noise must be a UniformNoise or GaussianNoise, got {type(noise).__name__}")
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as err:
        raise ValueError(f"x must be numeric: {err}") from None
    if arr.size == 0:
        raise ValueError("x is empty: at least one value is needed")
    if not np.isfinite(arr).all():
        raise ValueError("x contains NaN or infinite values; drop or impute them first")
    return arr + noise.sample(arr.shape, rng)


@dataclass(frozen=True)
class Discretization:
    """Result of :func:`discretize`: which interval each value falls in.

    Attributes
    ----------
    edges : ndarray, shape (k + 1,)
        Interval boundaries; interval ``i`` is [edges[i], edges[i+1]) (the last one closed).
    index : ndarray of int, shape (n,)
        Interval of each value.
    """

    edges: np.ndarray
    index: np.ndarray

    @property
    def lower(self) -> np.ndarray:
        return self.edges[self.index]

    @property
    def upper(self) -> np.ndarray:
        return self.edges[self.index + 1]

    @property
    def midpoint(self) -> np.ndarray:
        return 0.5 * (self.lower + self.upper)

    @property
    def width(self) -> np.ndarray:
        return self.upper - self.lower


def discretize(x, edges=None, width=None, origin=None) -> Discretization:
    """Value-class membership: report the interval a value lies in instead of the value.

    Give either ``edges`` (increasing boundaries that cover every value; intervals need not be
    of equal width, as in the paper's salary example) or ``width`` (equal-width intervals
    starting at ``origin``, default ``min(x)``).

    Examples
    --------
    >>> d = discretize([3.0, 14.0, 27.0], width=10.0, origin=0.0)
    >>> d.index.tolist(), d.lower.tolist()
    ([0, 1, 2], [0.0, 10.0, 20.0])
    """
    values = check_finite_1d(x, "x")
    if (edges is None) == (width is None):
        raise ValueError("give exactly one of edges (interval boundaries) or width (> 0)")
    if width is not None:
        width = check_positive(width, "width")
        start = float(values.min()) if origin is None else float(origin)
        if start > values.min():
            raise ValueError(f"origin {start} is above the smallest value {values.min()}")
        span = (values.max() - start) / width
        if not span < MAX_ELEMENTS:
            raise ValueError(f"width = {width!r} makes {span:,.0f} intervals over the data's range; "
                             f"at most {MAX_ELEMENTS:,} are allowed: use a wider width")
        k = max(1, int(math.floor(span)) + 1)
        edges_arr = start + width * np.arange(k + 1)
    else:
        edges_arr = check_finite_1d(edges, "edges")
        if edges_arr.size < 2 or np.any(np.diff(edges_arr) <= 0):
            raise ValueError("edges must be at least two strictly increasing boundaries")
        if values.min() < edges_arr[0] or values.max() > edges_arr[-1]:
            raise ValueError(
                f"edges [{edges_arr[0]}, {edges_arr[-1]}] do not cover the values "
                f"[{values.min()}, {values.max()}]"
            )
    index = np.searchsorted(edges_arr, values, side="right") - 1
    index = np.clip(index, 0, edges_arr.size - 2)
    return Discretization(edges=edges_arr, index=index)


def noise_for_privacy(kind: str, level: float, value_range: float, confidence: float = 0.95) -> Noise:
    """Noise giving "``level`` x 100 % privacy" for an attribute of the given range.

    The papers' convention (Agrawal & Srikant, Section 2.1): at ``level`` = 1.0 (100 %) the
    ``confidence`` interval of the noise is as wide as the attribute's range. So Gaussian noise
    at 100 % privacy and 95 % confidence has sigma = range / 3.92, uniform noise has
    alpha = range / (2 x 0.95).

    Examples
    --------
    >>> round(noise_for_privacy("gaussian", 1.0, 3.92).sigma, 3)   # 3.92 = 2 x 1.96
    1.0
    """
    level = check_positive(level, "privacy level")
    value_range = check_positive(value_range, "value_range")
    return _noise_class(kind).from_interval_width(level * value_range, confidence)


def noise_for_snr(x, snr: float, kind: str = "gaussian") -> Noise:
    """Noise whose variance gives the signal-to-noise ratio ``var(x) / var(noise) = snr``.

    Used by Liu, Kantarcioglu & Thuraisingham (Section 7) to set the noise per attribute.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(10.0)
    >>> round(noise_for_snr(x, 1.0).var / float(x.var()), 6)
    1.0
    """
    values = check_finite_1d(x, "x")
    snr = check_positive(snr, "snr")
    var_x = float(values.var())
    if var_x <= 0:
        raise ValueError("x is constant (variance 0): no noise level gives a finite SNR")
    return _noise_class(kind).from_variance(var_x / snr)
