"""Value distortion and value-class membership (Agrawal & Srikant 2000, Section 2).

A client hides a value ``x`` by sending ``w = x + r`` where ``r`` is drawn from a public noise
distribution: uniform on [-alpha, +alpha] or Gaussian with mean 0 and standard deviation sigma.
The noise objects here are small, immutable and carry the math a lecture needs as methods
(``sample``, ``pdf``, ``cdf``, ``var``, ``interval_width``, ``entropy``, ``privacy``).

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.randomization import UniformNoise, GaussianNoise, perturb, noise_for_privacy
>>> UniformNoise(alpha=0.5).interval_width(0.95)   # Table 1: 0.95 x 2 alpha
0.95
>>> round(GaussianNoise(sigma=1.0).interval_width(0.95), 2)  # Table 1: 3.92 sigma
3.92
>>> round(noise_for_privacy("gaussian", level=1.0, value_range=130_000).interval_width(0.95), 6)
130000.0
>>> w = perturb(np.array([30.0, 40.0]), UniformNoise(5.0), rng=0)
"""
from __future__ import annotations

import abc
import math
import numbers
from dataclasses import dataclass
from typing import ClassVar, TypeVar

import numpy as np
from scipy import special

from ._validation import (
    check_finite_1d,
    check_finite_array,
    check_integer,
    check_positive,
    check_probability,
    check_real,
    check_real_values,
    check_size,
)
from .random_state import check_random_state

__all__ = [
    "Noise",
    "UniformNoise",
    "GaussianNoise",
    "LaplaceNoise",
    "perturb",
    "discretize",
    "Discretization",
    "noise_for_privacy",
    "noise_for_snr",
    "NOISE_KINDS",
]

_LOG2E = 1.0 / math.log(2.0)
_NoiseT = TypeVar("_NoiseT", bound="Noise")  # the classmethods return the subclass they are called on
_SQRT2PI = math.sqrt(2.0 * math.pi)


def _check_quantile(q):
    """q as a float array in [0, 1]; text, NaN or an out-of-range probability is refused, naming q."""
    arr = check_finite_array(q, "q", allow_empty=True)
    if np.any((arr < 0.0) | (arr > 1.0)):
        raise ValueError(f"q must hold probabilities in [0, 1], got {q!r}")
    return arr


def _check_confidence(confidence) -> float:
    return check_probability(confidence, "confidence", open_interval=True)


def _as_values(x, name: str = "x") -> np.ndarray:
    """A float array with no NaN (infinities are fine: cdf(inf) = 1, pdf(inf) = 0)."""
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be a number or an array of numbers, got {x!r}")
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number or an array of numbers, got {x!r}") from None
    if np.isnan(arr).any():
        raise ValueError(
            f"{name} contains {int(np.isnan(arr).sum())} NaN value(s): a density or probability "
            "of NaN is undefined; drop or impute them first"
        )
    return arr


def _unwrap(arr: np.ndarray):
    """Scalars in, Python floats out (as scipy.stats does for 0-d input)."""
    return float(arr) if np.ndim(arr) == 0 else arr


class Noise(abc.ABC):
    """Base class of additive noise models ``r`` with mean 0 and a symmetric density (``w = x + r``).

    Every module asks the noise object for its math instead of branching on its type: a
    subclass is a frozen dataclass with one field, the scale ``scale_name``, and provides the
    closed forms ``_sample``, ``_pdf``, ``_cdf``, ``_ppf``, ``_cdf_integral``, ``_entropy``,
    ``_unit_interval_width`` (the interval width at scale 1) and ``_scale_squared_per_variance``;
    the public methods here check their input (NaN raises) and derive the rest (``var``,
    ``interval_width``, ``from_interval_width``, ``from_variance``, ``sf``, ``logpdf``,
    ``interval_probability``, ``support``, ``privacy``).

    Attributes
    ----------
    kind : str
        ``"uniform"``, ``"gaussian"`` or ``"laplace"``.
    scale_name : str
        Name of the single parameter (``"alpha"``, ``"sigma"``, ``"b"``).
    scale_symbol : str
        Its symbol for labels (``"α"``, ``"σ"``, ``"b"``).
    """

    kind: ClassVar[str] = ""
    scale_name: ClassVar[str] = ""
    scale_symbol: ClassVar[str] = ""
    # scale^2 / variance: 3 (uniform, var = alpha^2 / 3), 1 (Gaussian), 1/2 (Laplace, var = 2 b^2)
    _scale_squared_per_variance: ClassVar[float] = 1.0

    # --- closed forms, provided by subclasses -----------------------------------------------
    @abc.abstractmethod
    def _sample(self, size, gen: np.random.Generator) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    @abc.abstractmethod
    def _pdf(self, x: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _logpdf(self, x: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.log(self._pdf(x))

    @abc.abstractmethod
    def _cdf(self, x: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    @abc.abstractmethod
    def _ppf(self, q: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    # optional closed form (not abstract): reconstruction falls back to quadrature without it
    def _cdf_integral(self, t: np.ndarray) -> np.ndarray:  # pragma: no cover - optional
        raise NotImplementedError

    @staticmethod
    @abc.abstractmethod
    def _unit_interval_width(confidence: float) -> float:  # pragma: no cover - abstract
        """Width of the shortest ``confidence`` interval of the noise with scale 1."""
        raise NotImplementedError

    # --- one parameter: every subclass is a frozen dataclass with the one field ``scale_name``
    def __post_init__(self):
        name = self.scale_name
        if name:  # the one field is checked once, here: finite and > 0
            object.__setattr__(self, name, check_positive(getattr(self, name), name))

    @property
    def scale(self) -> float:
        """The single parameter (alpha, sigma or b)."""
        return getattr(self, self.scale_name)

    @property
    def var(self) -> float:
        """Variance of the noise: alpha^2 / 3, sigma^2 or 2 b^2."""
        return self.scale**2 / self._scale_squared_per_variance

    def interval_width(self, confidence: float = 0.95) -> float:
        """Width of the shortest interval holding the noise with probability ``confidence``.

        The width is the scale times the unit width (Agrawal & Srikant, Table 1): ``c x 2 alpha``
        for uniform, ``2 z sigma`` with ``z = Phi^-1((1 + c) / 2)`` for Gaussian and
        ``-2 b ln(1 - c)`` for Laplace noise.

        Parameters
        ----------
        confidence : float, default 0.95
            Strictly between 0 and 1.

        Returns
        -------
        float
            The width.

        Examples
        --------
        >>> UniformNoise(2.0).interval_width(0.95)   # Table 1: 95 % of 2 alpha
        3.8
        >>> round(GaussianNoise(1.0).interval_width(0.95), 2)   # Table 1: 3.92 sigma
        3.92
        >>> round(LaplaceNoise(0.5).interval_width(0.95), 4)   # -ln(0.05) = 2.9957
        2.9957
        """
        return self._unit_interval_width(_check_confidence(confidence)) * self.scale

    @classmethod
    def from_interval_width(cls: type[_NoiseT], width: float, confidence: float = 0.95) -> _NoiseT:
        """The noise whose ``confidence`` interval is ``width`` wide.

        Parameters
        ----------
        width : float
            Interval width, > 0.
        confidence : float, default 0.95
            Strictly between 0 and 1.

        Returns
        -------
        Noise
            An instance of this class, with scale = width / (the width at scale 1):
            alpha = width / (2 c), sigma = width / (2 z), b = width / (-2 ln(1 - c)).

        Examples
        --------
        >>> UniformNoise.from_interval_width(1.9).alpha   # 95 % privacy of width 1.9
        1.0
        >>> round(GaussianNoise.from_interval_width(3.92).sigma, 3)
        1.0
        >>> round(LaplaceNoise.from_interval_width(2.9957).b, 3)
        0.5
        """
        width = check_positive(width, "width")
        return cls(**{cls.scale_name: width / cls._unit_interval_width(_check_confidence(confidence))})

    @classmethod
    def from_variance(cls: type[_NoiseT], var: float) -> _NoiseT:
        """The noise with this variance.

        Parameters
        ----------
        var : float
            Variance, > 0.

        Returns
        -------
        Noise
            An instance of this class: alpha = sqrt(3 var), sigma = sqrt(var), b = sqrt(var / 2).

        Examples
        --------
        >>> UniformNoise.from_variance(3.0).alpha
        3.0
        >>> GaussianNoise.from_variance(4.0).sigma
        2.0
        >>> LaplaceNoise.from_variance(2.0).b
        1.0
        """
        return cls(**{cls.scale_name: math.sqrt(cls._scale_squared_per_variance * check_positive(var, "var"))})

    @classmethod
    def unit_sample(cls, size, rng=None) -> np.ndarray:
        """Draws of this kind of noise at scale 1 (alpha, sigma or b = 1).

        Scaled, they are draws at any scale: ``noise.scale * unit`` has the law of ``noise``
        (every kind here is a scale family), and ``perturb(x, noise, unit=unit)`` adds them.
        Rescaling one set of unit draws changes the privacy level, not the luck of the draw
        (common random numbers).

        Parameters
        ----------
        size : int or tuple of int
            Shape of the output.
        rng : None, int or numpy.random.Generator, optional
            Seed or generator.

        Returns
        -------
        numpy.ndarray
            Noise values of shape ``size`` at scale 1.

        Examples
        --------
        >>> unit = GaussianNoise.unit_sample(3, rng=0)
        >>> bool(np.allclose(2.5 * unit, GaussianNoise(2.5).sample(3, rng=0)))
        True
        """
        return cls(**{cls.scale_name: 1.0}).sample(size, rng)

    @abc.abstractmethod
    def _entropy(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def _privacy(self) -> float:
        return 2.0 ** self.entropy()

    def entropy(self) -> float:
        """Differential entropy h(R) in bits (closed form).

        ``log2(2 alpha)`` for uniform, ``0.5 log2(2 pi e sigma^2)`` for Gaussian and
        ``log2(2 e b)`` for Laplace noise.

        Returns
        -------
        float
            ``h(R)``.

        Examples
        --------
        >>> UniformNoise(2.0).entropy()
        2.0
        >>> round(GaussianNoise(1.0).entropy(), 4)
        2.0471
        >>> round(LaplaceNoise(0.5).entropy(), 4)   # log2(e)
        1.4427
        """
        return self._entropy()

    # --- public, checked ----------------------------------------------------------------------
    def sample(self, size, rng=None) -> np.ndarray:
        """Draw independent noise values.

        Parameters
        ----------
        size : int or tuple of int
            Shape of the output; at most 10^9 values (more is refused with a ValueError).
        rng : None, int or numpy.random.Generator, optional
            Seed or generator; the same seed gives the same values.

        Returns
        -------
        numpy.ndarray
            Noise values of shape ``size``.

        Examples
        --------
        >>> GaussianNoise(1.0).sample(3, rng=0).shape
        (3,)
        """
        dims = (size,) if not isinstance(size, (tuple, list)) else tuple(size)
        shape = tuple(check_integer(d, "size", minimum=0) for d in dims)
        check_size(shape)
        return self._sample(shape, check_random_state(rng))

    def pdf(self, x):
        """Probability density ``f_R(x)``.

        Parameters
        ----------
        x : float or array-like of float
            Points (NaN raises ValueError).

        Returns
        -------
        float or numpy.ndarray
            The density at each point.

        Examples
        --------
        >>> UniformNoise(2.0).pdf([0.0, 3.0]).tolist()
        [0.25, 0.0]
        """
        return _unwrap(self._pdf(_as_values(x)))

    def logpdf(self, x):
        """Natural log of the density, ``-inf`` where the density is 0.

        Parameters
        ----------
        x : float or array-like of float
            Points (NaN raises ValueError).

        Returns
        -------
        float or numpy.ndarray
            ``ln f_R(x)``, accurate far in the tails (no underflow to ``-inf``).

        Examples
        --------
        >>> GaussianNoise(1.0).logpdf(40.0) < -800
        True
        """
        return _unwrap(self._logpdf(_as_values(x)))

    def cdf(self, x):
        """``F_R(x) = P(R <= x)``.

        Parameters
        ----------
        x : float or array-like of float
            Points (NaN raises ValueError).

        Returns
        -------
        float or numpy.ndarray
            Probabilities in [0, 1].

        Examples
        --------
        >>> UniformNoise(1.0).cdf(0.5)
        0.75
        """
        return _unwrap(np.clip(self._cdf(_as_values(x)), 0.0, 1.0))

    def sf(self, x):
        """Survival function ``P(R > x) = F_R(-x)`` (the noise is symmetric), exact in the tail.

        Parameters
        ----------
        x : float or array-like of float
            Points (NaN raises ValueError).

        Returns
        -------
        float or numpy.ndarray
            Probabilities in [0, 1].

        Examples
        --------
        >>> GaussianNoise(1.0).sf(30.0) > 0
        True
        """
        return _unwrap(np.clip(self._cdf(-_as_values(x)), 0.0, 1.0))

    def ppf(self, q):
        """Quantile function ``F_R^{-1}(q)``.

        Parameters
        ----------
        q : float or array-like of float
            Probabilities in [0, 1].

        Returns
        -------
        float or numpy.ndarray
            The quantiles (``-inf``/``inf`` at 0/1 for unbounded noise).

        Examples
        --------
        >>> round(GaussianNoise(1.0).ppf(0.975), 2)
        1.96
        """
        arr = _as_values(q, "q")
        if np.any((arr < 0) | (arr > 1)):
            raise ValueError(f"q must be probabilities in [0, 1], got {float(arr[(arr < 0) | (arr > 1)].ravel()[0])}")
        return _unwrap(self._ppf(arr))

    def interval_probability(self, lower, upper):
        """``P(lower < R <= upper)``, vectorized and accurate in both tails.

        Computed as ``F(upper) - F(lower)`` left of 0 and ``F(-lower) - F(-upper)`` right of it,
        so that far in the right tail the difference is not ``1 - 1``. This is the interval
        integral of the EM reconstruction (Agrawal & Aggarwal 2001).

        Parameters
        ----------
        lower, upper : float or array-like of float
            Interval ends (broadcast together); ``upper <= lower`` gives 0.

        Returns
        -------
        float or numpy.ndarray
            Probabilities in [0, 1].

        Examples
        --------
        >>> float(GaussianNoise(1.0).interval_probability(30.0, 31.0)) > 0
        True
        """
        lo, hi = np.broadcast_arrays(_as_values(lower, "lower"), _as_values(upper, "upper"))
        right = lo >= 0
        p = np.where(right, self._cdf(-lo) - self._cdf(-hi), self._cdf(hi) - self._cdf(lo))
        return _unwrap(np.clip(p, 0.0, 1.0))

    def cdf_integral(self, t):
        """``G(t) = integral_{-inf}^t F_R(u) du`` (closed form; the EM response matrix uses it).

        Parameters
        ----------
        t : float or array-like of float
            Points (NaN raises ValueError).

        Returns
        -------
        float or numpy.ndarray
            ``G(t)``, which is ``E[(t - R)^+]``.

        Examples
        --------
        >>> UniformNoise(1.0).cdf_integral([-2.0, 0.0, 2.0]).tolist()
        [0.0, 0.25, 2.0]
        """
        return _unwrap(self._cdf_integral(_as_values(t, "t")))

    def pdf_averaged_at_jumps(self, x, atol: float = 0.0):
        """The density, with the mean of its one-sided limits within ``atol`` of a jump.

        A mid-point rule evaluating a discontinuous density exactly at its jump should use the
        average of the two limits; for continuous densities this is just :meth:`pdf`.

        Parameters
        ----------
        x : float or array-like of float
            Points (NaN raises ValueError).
        atol : float, default 0.0
            Points this close to a jump count as on it.

        Returns
        -------
        float or numpy.ndarray
            Density values.

        Examples
        --------
        >>> UniformNoise(1.0).pdf_averaged_at_jumps([0.0, 1.0, 2.0]).tolist()
        [0.5, 0.25, 0.0]
        """
        atol = check_positive(atol, "atol", allow_zero=True)
        return _unwrap(self._pdf_at_jumps(_as_values(x), atol))

    def _pdf_at_jumps(self, x: np.ndarray, atol: float) -> np.ndarray:
        return self._pdf(x)

    @property
    def std(self) -> float:
        """Standard deviation of the noise."""
        return math.sqrt(self.var)

    def privacy(self) -> float:
        """Pi(R) = 2**h(R), the differential-entropy privacy of Agrawal & Aggarwal (2001).

        In closed form ``2 alpha`` for uniform and ``sqrt(2 pi e) sigma`` for Gaussian noise.

        Returns
        -------
        float
            The privacy, in the units of the values.

        Examples
        --------
        >>> UniformNoise(2.0).privacy()
        4.0
        >>> round(GaussianNoise(1.0).privacy(), 4)
        4.1327
        """
        return self._privacy()

    def support(self, coverage: float = 1.0 - 1e-9) -> tuple[float, float]:
        """An interval ``[-b, b]`` that holds the noise with at least ``coverage`` probability.

        Parameters
        ----------
        coverage : float, default 1 - 1e-9
            Strictly between 0 and 1 (bounded noise ignores it and returns its support).

        Returns
        -------
        tuple of float
            ``(-b, b)``.

        Examples
        --------
        >>> UniformNoise(2.0).support()
        (-2.0, 2.0)
        """
        coverage = check_probability(coverage, "coverage", open_interval=True)
        half = 0.5 * self.interval_width(coverage)
        return -half, half

    def ldp_epsilon(self, value_range: float) -> float:
        """The smallest epsilon for which ``x + R`` on values spanning ``value_range`` is epsilon-LDP.

        Parameters
        ----------
        value_range : float
            ``high - low`` of the values, > 0.

        Returns
        -------
        float
            ``value_range / b`` for Laplace noise; ``inf`` for Gaussian noise (the privacy loss
            grows linearly in the output) and uniform noise (edge outputs rule inputs out).

        Examples
        --------
        >>> LaplaceNoise(0.5).ldp_epsilon(1.0), GaussianNoise(10.0).ldp_epsilon(1.0)
        (2.0, inf)
        """
        check_positive(value_range, "value_range")
        return math.inf


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
    scale_name: ClassVar[str] = "alpha"
    scale_symbol: ClassVar[str] = "α"
    _scale_squared_per_variance: ClassVar[float] = 3.0

    @staticmethod
    def _unit_interval_width(confidence):
        # Table 1: the interval [-c alpha, c alpha] holds the noise with probability c
        return 2.0 * confidence

    def _sample(self, size, gen):
        return gen.uniform(-self.alpha, self.alpha, size)

    def _pdf(self, x):
        return np.where(np.abs(x) <= self.alpha, 0.5 / self.alpha, 0.0)

    def _pdf_at_jumps(self, x, atol):
        # mid-point distances are multiples of the interval width up to rounding: without the
        # average at the jump, rounding alone would decide whether a bin alpha away counts
        a = self.alpha
        gap = np.abs(x) - a
        return np.where(gap < -atol, 0.5 / a, np.where(gap <= atol, 0.25 / a, 0.0))

    def _cdf(self, x):
        return np.clip((x + self.alpha) / (2.0 * self.alpha), 0.0, 1.0)

    def _ppf(self, q):
        return -self.alpha + 2.0 * self.alpha * q

    def _cdf_integral(self, t):
        a = self.alpha
        with np.errstate(invalid="ignore", over="ignore"):
            inside = (t + a) ** 2 / (4.0 * a)
        return np.where(t <= -a, 0.0, np.where(t >= a, t, inside))

    def _entropy(self):
        return math.log2(2.0 * self.alpha)  # h = log2(2 alpha)

    def _privacy(self):
        return 2.0 * self.alpha  # Pi = 2**h = 2 alpha

    def support(self, coverage: float = 1.0) -> tuple[float, float]:
        """The whole support ``(-alpha, alpha)`` whatever ``coverage``.

        Parameters
        ----------
        coverage : float, default 1.0
            Ignored (bounded noise).

        Returns
        -------
        tuple of float
            ``(-alpha, alpha)``.

        Examples
        --------
        >>> UniformNoise(2.0).support()
        (-2.0, 2.0)
        """
        check_probability(coverage, "coverage")  # ignored, but a wrong value is still refused
        return -self.alpha, self.alpha



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
    scale_name: ClassVar[str] = "sigma"
    scale_symbol: ClassVar[str] = "σ"

    @staticmethod
    def _unit_interval_width(confidence):
        # Table 1: 2 z sigma, z = Phi^-1((1 + c) / 2) (3.92 sigma at c = 0.95)
        return 2.0 * float(special.ndtri(0.5 + 0.5 * confidence))

    def _sample(self, size, gen):
        return gen.normal(0.0, self.sigma, size)

    def _pdf(self, x):
        z = x / self.sigma
        if np.ndim(z) == 0:
            return np.exp(-0.5 * z * z) / (_SQRT2PI * self.sigma)
        out = -0.5 * z  # exp(-z^2 / 2) / (sqrt(2 pi) sigma), computed in place
        out *= z
        np.exp(out, out=out)
        out /= _SQRT2PI * self.sigma
        return out

    def _logpdf(self, x):
        z = x / self.sigma
        return -0.5 * z * z - math.log(_SQRT2PI * self.sigma)

    def _cdf(self, x):
        return special.ndtr(x / self.sigma)

    def _ppf(self, q):
        return self.sigma * special.ndtri(q)

    def _cdf_integral(self, t):
        s = self.sigma
        z = t / s
        with np.errstate(invalid="ignore"):
            out = s * (z * special.ndtr(z) + np.exp(-0.5 * z * z) / _SQRT2PI)
        return np.where(np.isposinf(t), np.inf, np.where(np.isneginf(t), 0.0, out))

    def ppf(self, q) -> np.ndarray | float:
        """Quantile of N(0, sigma^2): sigma * Phi^-1(q).

        Parameters
        ----------
        q : float or array-like of float
            Probabilities in [0, 1].

        Returns
        -------
        float or numpy.ndarray
            The quantiles (a float for a scalar ``q``); ``-inf``/``inf`` at 0/1.

        Raises
        ------
        ValueError
            If a probability is NaN or outside [0, 1].

        Examples
        --------
        >>> round(GaussianNoise(2.0).ppf(0.975), 3)
        3.92
        """
        q = _check_quantile(q)
        out = self.sigma * special.ndtri(q)
        return out if out.ndim else float(out)

    def _entropy(self):
        return 0.5 * math.log2(2.0 * math.pi * math.e * self.sigma**2)  # h = 0.5 log2(2 pi e sigma^2)

    def _privacy(self):
        return math.sqrt(2.0 * math.pi * math.e) * self.sigma  # Pi = 2**h = sqrt(2 pi e) sigma



@dataclass(frozen=True)
class LaplaceNoise(Noise):
    """Laplace noise with density ``exp(-|r| / b) / (2 b)`` (mean 0, variance ``2 b^2``).

    Added to values in ``[low, high]`` with ``b = (high - low) / epsilon`` it is epsilon-LDP
    (the Laplace mechanism of Dwork, McSherry, Nissim & Smith 2006, applied by each client).

    Parameters
    ----------
    b : float
        Scale; finite and > 0.

    Examples
    --------
    >>> n = LaplaceNoise(1.0)
    >>> n.var, round(n.interval_width(0.95), 4)
    (2.0, 5.9915)
    """

    b: float
    kind: ClassVar[str] = "laplace"
    scale_name: ClassVar[str] = "b"
    scale_symbol: ClassVar[str] = "b"
    _scale_squared_per_variance: ClassVar[float] = 0.5

    @staticmethod
    def _unit_interval_width(confidence):
        # P(|R| <= t) = 1 - exp(-t / b) = c  =>  t = -b ln(1 - c)
        return -2.0 * math.log1p(-confidence)

    def _sample(self, size, gen):
        return gen.laplace(0.0, self.b, size)

    def _pdf(self, x):
        return np.exp(-np.abs(x) / self.b) / (2.0 * self.b)

    def _logpdf(self, x):
        return -np.abs(x) / self.b - math.log(2.0 * self.b)

    def _cdf(self, x):
        z = x / self.b
        return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0.0)), 1.0 - 0.5 * np.exp(-np.maximum(z, 0.0)))

    def _ppf(self, q):
        with np.errstate(divide="ignore"):
            return np.where(q < 0.5, self.b * np.log(2.0 * q), -self.b * np.log(2.0 * (1.0 - q)))

    def _cdf_integral(self, t):
        # G(t) = b/2 e^{t/b} for t <= 0, t + b/2 e^{-t/b} for t > 0
        z = t / self.b
        return np.where(z <= 0, 0.5 * self.b * np.exp(np.minimum(z, 0.0)),
                        t + 0.5 * self.b * np.exp(-np.maximum(z, 0.0)))

    def _entropy(self):
        return math.log2(2.0 * math.e * self.b)  # h = log2(2 e b)

    def ldp_epsilon(self, value_range: float) -> float:
        """``value_range / b``: the Laplace mechanism's epsilon (Dwork et al. 2006).

        Parameters
        ----------
        value_range : float
            ``high - low`` of the values, > 0.

        Returns
        -------
        float
            ``value_range / b``.

        Examples
        --------
        >>> LaplaceNoise(0.5).ldp_epsilon(1.0)
        2.0
        """
        return check_positive(value_range, "value_range") / self.b



NOISE_KINDS: dict[str, type[Noise]] = {
    "uniform": UniformNoise, "gaussian": GaussianNoise, "laplace": LaplaceNoise,
}


def _noise_class(kind: str) -> type[Noise]:
    if not isinstance(kind, str):
        raise TypeError(f"kind must be a string, one of {sorted(NOISE_KINDS)}, got {kind!r}")
    try:
        return NOISE_KINDS[kind.lower()]
    except KeyError:
        raise ValueError(
            f"unknown noise kind {kind!r}; allowed: {', '.join(sorted(NOISE_KINDS))}"
        ) from None


def perturb(x, noise, rng=None, *, unit=None):
    """Value distortion: return ``x + r`` with ``r`` drawn independently from ``noise``.

    One noise perturbs every value of ``x`` (any shape). A mapping ``{column: noise}`` perturbs
    the named columns of a 2-D array or a DataFrame and leaves the others as they are (Sec. 2:
    each attribute has its own public noise); a DataFrame with one noise has every column
    perturbed.

    Stream layout (what makes the same ``rng`` give the same values): with one noise and an
    array, ``r`` is one draw of ``x``'s shape; per column, each perturbed column in turn, in the
    mapping's order, draws its ``n`` values from ``rng``: consecutive, non-overlapping blocks of
    one stream, so the columns' noises are independent.

    Parameters
    ----------
    x : array-like of float or pandas.DataFrame
        Original values: real numbers only (NaN or infinity raise ValueError; masked arrays,
        complex, datetimes, objects and text raise TypeError). With a mapping, a 2-D table.
    noise : Noise or dict
        Any :class:`Noise` (uniform, Gaussian or Laplace), or ``{column: Noise}`` keyed by column
        name (DataFrame) or position (0 .. n_columns - 1).
    rng : None, int or numpy.random.Generator
        Seed or generator; the same seed gives the same perturbed values.
    unit : array-like of float, optional
        Noise already drawn at scale 1 (``UniformNoise(1)``, ``GaussianNoise(1)`` or
        ``LaplaceNoise(1)``), shape ``x.shape`` for one noise or ``(n, number of perturbed
        columns)`` in the mapping's order: ``r = noise.scale * unit`` instead of a draw (common
        random numbers: another level rescales the same draws). Not together with ``rng``.

    Returns
    -------
    numpy.ndarray or pandas.DataFrame
        ``x + r``, same shape as ``x`` (a DataFrame keeps its columns, index and the dtypes of
        the columns left as they are).

    Raises
    ------
    TypeError
        If ``noise`` is not a Noise or a dict of them, or ``x`` is not real numbers.
    ValueError
        If ``x`` is empty or holds NaN or infinity, a mapping names an unknown column or is given
        for data that is not 2-D, or ``unit`` has the wrong shape or comes with ``rng``.

    Examples
    --------
    >>> perturb([1.0, 2.0], GaussianNoise(0.1), rng=1).shape
    (2,)
    >>> W = perturb(np.zeros((3, 2)), {1: UniformNoise(1.0)}, rng=0)
    >>> W[:, 0].tolist()
    [0.0, 0.0, 0.0]
    """
    if not isinstance(noise, dict):
        check_noise(noise)
    arr = check_real_values(x, "x")
    if unit is not None and rng is not None:
        raise ValueError("give rng (perturb draws the noise) or unit (perturb rescales the draws "
                         "given), not both")
    frame = hasattr(x, "columns") and hasattr(x, "index")
    if isinstance(noise, Noise) and not frame:
        if unit is None:
            return arr + noise.sample(arr.shape, rng)
        return arr + noise.scale * _check_unit(unit, arr.shape)
    if arr.ndim != 2:
        raise ValueError(f"x must be a 2-D table (records x columns) for noise per column, got shape "
                         f"{arr.shape}")
    names = list(x.columns) if frame else None
    cols = check_noise_mapping(noise, arr.shape[1], names, require_all=False)
    out = _perturb_columns(arr, cols, rng, unit)
    if not frame:
        return out
    result = x.copy()
    for j in cols:
        result[x.columns[j]] = out[:, j]
    return result


def _perturb_columns(arr: np.ndarray, cols: dict, rng, unit) -> np.ndarray:
    """A copy of the table ``arr`` with ``cols[j]`` ({position: Noise}) added to column ``j``.

    The columns draw in the mapping's order, each its ``n`` values from one stream (consecutive,
    non-overlapping blocks), or rescale their column of ``unit`` (common random numbers).
    """
    n = arr.shape[0]
    out = arr.copy()
    if unit is None:
        gen = check_random_state(rng)
        for j, nz in cols.items():
            out[:, j] = out[:, j] + nz.sample(n, gen)
    else:
        draws = _check_unit(unit, (n, len(cols)))
        for i, (j, nz) in enumerate(cols.items()):
            out[:, j] = arr[:, j] + nz.scale * draws[:, i]
    return out


def _check_unit(unit, shape) -> np.ndarray:
    draws = check_finite_array(unit, "unit")
    if draws.shape != tuple(shape):
        raise ValueError(f"unit must have shape {tuple(shape)} (one column per perturbed column), "
                         f"got {draws.shape}")
    return draws


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
        """Lower end of each value's interval."""
        return self.edges[self.index]

    @property
    def upper(self) -> np.ndarray:
        """Upper end of each value's interval."""
        return self.edges[self.index + 1]

    @property
    def midpoint(self) -> np.ndarray:
        """Mid-point of each value's interval."""
        return 0.5 * (self.lower + self.upper)

    @property
    def width(self) -> np.ndarray:
        """Width of each value's interval."""
        return self.upper - self.lower


def discretize(x, edges=None, width=None, origin=None) -> Discretization:
    """Value-class membership: report the interval a value lies in instead of the value.

    Give either ``edges`` (increasing boundaries that cover every value; intervals need not be
    of equal width, as in the paper's salary example) or ``width`` (equal-width intervals
    starting at ``origin``, default ``min(x)``).

    Parameters
    ----------
    x : array-like of float
        Finite values, 1-D.
    edges : array-like of float, optional
        Strictly increasing boundaries covering every value.
    width : float, optional
        Equal interval width, > 0; at most 10^9 intervals (more is refused with a ValueError).
    origin : float, optional
        Start of the first equal-width interval (<= min(x)).

    Returns
    -------
    Discretization
        Edges and the interval index of each value.

    Raises
    ------
    ValueError
        If ``x`` is not finite, both or neither of ``edges`` and ``width`` are given, ``origin``
        lies above ``min(x)``, ``edges`` is not increasing or does not cover the values, or
        ``width`` gives too many intervals.

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
        start = float(values.min()) if origin is None else check_real(origin, "origin")
        if start > values.min():
            raise ValueError(f"origin {start} is above the smallest value {values.min()}")
        n_edges = math.floor((values.max() - start) / width) + 2
        check_size(int(n_edges), "width (the number of intervals it gives)")
        k = max(1, int(n_edges) - 1)
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

    Parameters
    ----------
    kind : {"uniform", "gaussian", "laplace"}
        Noise family.
    level : float
        Privacy level (1.0 = 100 %), > 0.
    value_range : float
        Range of the attribute, finite and > 0.
    confidence : float, default 0.95
        Confidence of the interval, strictly between 0 and 1.

    Returns
    -------
    Noise
        The noise object.

    Raises
    ------
    TypeError
        If ``kind`` is not a string.
    ValueError
        If ``kind`` is unknown, ``level`` or ``value_range`` is not finite and > 0, or
        ``confidence`` is not strictly between 0 and 1.

    Examples
    --------
    >>> round(noise_for_privacy("gaussian", 1.0, 3.92).sigma, 3)   # 3.92 = 2 x 1.96
    1.0
    >>> round(noise_for_privacy("laplace", 1.0, 10.0).interval_width(0.95), 6)
    10.0
    """
    level = check_positive(level, "privacy level")
    value_range = check_positive(value_range, "value_range")
    return _noise_class(kind).from_interval_width(level * value_range, confidence)


def noise_for_snr(x, snr: float, kind: str = "gaussian") -> Noise:
    """Noise whose variance gives the signal-to-noise ratio ``var(x) / var(noise) = snr``.

    Used by Liu, Kantarcioglu & Thuraisingham (Section 7) to set the noise per attribute.

    Parameters
    ----------
    x : array-like of float
        The attribute's values (not constant).
    snr : float
        Signal-to-noise ratio, > 0.
    kind : {"gaussian", "uniform", "laplace"}, default "gaussian"
        Noise family.

    Returns
    -------
    Noise
        The noise object with variance ``var(x) / snr``.

    Raises
    ------
    TypeError
        If ``kind`` is not a string.
    ValueError
        If ``x`` is not finite or is constant, ``snr`` is not finite and > 0, or ``kind`` is
        unknown.

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


_NOISE_TYPES = "a Noise (UniformNoise, GaussianNoise or LaplaceNoise)"


def check_noise(noise, name: str = "noise"):
    """A noise object (:class:`ppdm_edu.randomization.Noise`); anything else is a TypeError.

    Parameters
    ----------
    noise : Noise
        The object to check.
    name : str, default "noise"
        Argument name used in the message.

    Returns
    -------
    Noise
        ``noise`` unchanged.

    Examples
    --------
    >>> from ppdm_edu.randomization import GaussianNoise
    >>> check_noise(GaussianNoise(1.0)).kind
    'gaussian'
    >>> check_noise(1.0)
    Traceback (most recent call last):
    ...
    TypeError: noise must be a Noise (UniformNoise, GaussianNoise or LaplaceNoise), got float
    """
    if not isinstance(noise, Noise):
        raise TypeError(f"{name} must be {_NOISE_TYPES}, got {type(noise).__name__}")
    return noise


def check_noise_mapping(noise, n_features: int, feature_names=None, name: str = "noise", *,
                        require_all: bool = True) -> dict:
    """Noise per column: one Noise for every column, or a dict keyed by column name or position.

    Parameters
    ----------
    noise : Noise or dict
        One noise for every column, or ``{column: Noise}``; keys are column names (when
        ``feature_names`` is given) or positions ``0 .. n_features - 1``.
    n_features : int
        Number of columns.
    feature_names : sequence of str or None, optional
        Column names, when the data had them.
    name : str, default "noise"
        Argument name used in messages.
    require_all : bool, default True
        Whether every column needs an entry (otherwise unlisted columns are unperturbed).

    Returns
    -------
    dict
        ``{column position: Noise}``.

    Raises
    ------
    TypeError
        If ``noise`` is neither a Noise nor a dict, or a dict value is not a Noise.
    ValueError
        If a key names an unknown column or (with ``require_all``) a column has no entry.

    Examples
    --------
    >>> from ppdm_edu.randomization import GaussianNoise
    >>> sorted(check_noise_mapping({"b": GaussianNoise(1.0)}, 2, ["a", "b"], require_all=False))
    [1]
    """
    n_features = check_integer(n_features, "n_features", minimum=1)
    names = None if feature_names is None else [str(c) for c in feature_names]
    if isinstance(noise, Noise):
        return dict.fromkeys(range(n_features), noise)
    if not isinstance(noise, dict):
        raise TypeError(
            f"{name} must be {_NOISE_TYPES} or a dict of them per column, got {type(noise).__name__}"
        )
    allowed = f"the column names {names}" if names is not None else \
        f"column positions 0..{n_features - 1}"
    out = {}
    for key, value in noise.items():
        if not isinstance(value, Noise):
            raise TypeError(f"{name}[{key!r}] must be {_NOISE_TYPES}, got {type(value).__name__}")
        if names is not None and isinstance(key, str) and key in names:
            pos = names.index(key)
        elif isinstance(key, numbers.Integral) and not isinstance(key, bool) \
                and 0 <= int(key) < n_features:
            pos = int(key)
        else:
            raise ValueError(f"{name} given for unknown column {key!r}; allowed: {allowed}")
        out[pos] = value
    if require_all and len(out) < n_features:
        missing = [names[j] if names is not None else j for j in range(n_features) if j not in out]
        raise ValueError(f"{name} has no entry for column(s) {missing}; keys must be {allowed}")
    return out
