"""What additive noise does not protect: estimating *individual* values from perturbed data.

Agrawal & Srikant (2000, Sec. 6) "reconstruct distributions, not individual records, thus
preserving privacy of individual records", and measure privacy by the width of the interval the
*noise* spreads a value over (Table 1: 3.92 sigma at 95 % for Gaussian noise). Three lines of
work showed that an attacker can do much better than that width:

* **Spectral filtering** (Kargupta, Datta, Wang & Sivakumar, ICDM 2003). When attributes are
  correlated, the signal lives in a few principal directions while independent noise spreads
  evenly over all of them. Random-matrix theory (Marchenko-Pastur) bounds the eigenvalues of a
  pure-noise sample covariance to ``[sigma^2 (1 - sqrt(m/n))^2, sigma^2 (1 + sqrt(m/n))^2]``;
  eigenvalues of the perturbed covariance above that bound carry signal. Projecting the
  perturbed records on their eigenvectors removes most of the noise: :func:`spectral_filter`.
* **PCA and Bayes reconstruction of records** (Huang, Du & Chen, SIGMOD 2005): PCA-DR estimates
  the original covariance as ``Cov(W) - Cov(R)`` and projects on its top ``k`` components
  (:func:`pca_reconstruct`); BE-DR is the Gaussian posterior mean
  ``mu + Sigma_x (Sigma_x + Sigma_r)^-1 (w - mu)`` (:func:`gaussian_bayes_reconstruct`).
* **Knowledge of the distribution reduces privacy** (Agrawal & Aggarwal, PODS 2001): with the
  (reconstructed) distribution of X as prior, the posterior of one record given its perturbed
  value is much narrower than the noise interval: :func:`bayes_estimate`,
  :func:`posterior_interval_width`, :func:`property_posterior`.

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.attacks import correlated_data, spectral_filter, relative_rmse
>>> X = correlated_data(2000, correlation=0.99, seed=0)
>>> sd = X.std(axis=0)
>>> W = X + np.random.default_rng(1).normal(size=X.shape) * sd
>>> result = spectral_filter(W, noise_var=sd**2)
>>> result.n_components
2
>>> bool(relative_rmse(result.estimate, X, sd) < 0.5)
True
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .randomization import GaussianNoise, Noise
from .validation import (
    check_finite_1d,
    check_finite_2d,
    check_positive,
    check_probability,
    check_random_state,
)

__all__ = [
    "correlated_data",
    "marchenko_pastur_bounds",
    "tracy_widom_bound",
    "RecordReconstruction",
    "spectral_filter",
    "pca_reconstruct",
    "gaussian_bayes_reconstruct",
    "relative_rmse",
    "BayesEstimate",
    "bayes_estimate",
    "PosteriorPrivacy",
    "posterior_interval_width",
    "property_posterior",
]


# ---------------------------------------------------------------------------------------------
# Data with a low-dimensional structure (the setting in which Kargupta et al. 2003 attack)
# ---------------------------------------------------------------------------------------------
def _check_count(value, name: str, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def correlated_data(n: int = 5000, n_attributes: int = 10, n_factors: int = 2,
                    correlation: float = 0.99, seed=None) -> np.ndarray:
    """Records driven by a few latent factors plus independent variation.

    Attribute ``j`` is ``mean_j + scale_j (sqrt(c) s_j + sqrt(1 - c) e_j)`` where ``s_j`` is a
    fixed random unit-variance mix of ``n_factors`` standard normal factors, ``e_j`` is
    independent standard normal and ``c = correlation`` is the share of each attribute's
    variance that comes from the common factors. ``correlation = 0`` gives independent
    attributes; ``correlation = 0.99`` gives the 2-factor data of the course's expected result
    (independent variation with 10 % of each attribute's standard deviation). Means and scales
    differ per attribute (units differ, as age and salary do).

    Parameters
    ----------
    n : int
        Number of records (>= 2).
    n_attributes : int
        Number of attributes m (>= 1).
    n_factors : int
        Number of latent factors (1 <= n_factors <= n_attributes).
    correlation : float in [0, 1]
        Share of variance explained by the factors.
    seed : None, int or numpy.random.Generator

    Returns
    -------
    ndarray, shape (n, n_attributes)

    Examples
    --------
    >>> correlated_data(100, seed=0).shape
    (100, 10)
    """
    n = _check_count(n, "n", minimum=2)
    m = _check_count(n_attributes, "n_attributes")
    k = _check_count(n_factors, "n_factors")
    if k > m:
        raise ValueError(f"n_factors ({k}) must not exceed n_attributes ({m})")
    c = check_probability(correlation, "correlation")
    rng = check_random_state(seed)
    loadings = rng.normal(size=(k, m))
    loadings /= np.linalg.norm(loadings, axis=0)  # each attribute: unit-variance factor part
    means = rng.uniform(-50.0, 50.0, m)
    scales = rng.uniform(1.0, 20.0, m)
    factors = rng.normal(size=(n, k))
    independent = rng.normal(size=(n, m))
    z = math.sqrt(c) * (factors @ loadings) + math.sqrt(1.0 - c) * independent
    return means + scales * z


# ---------------------------------------------------------------------------------------------
# Spectral filtering and PCA / Bayes reconstruction of records
# ---------------------------------------------------------------------------------------------
def marchenko_pastur_bounds(n: int, m: int, noise_var: float = 1.0) -> tuple[float, float]:
    """Eigenvalue range of the sample covariance of an n x m matrix of i.i.d. noise.

    Kargupta et al. (2003, Sec. 4): with ``Q = n / m``, the eigenvalues of the noise covariance
    lie (as n, m grow with Q fixed) in ``[sigma^2 (1 - 1/sqrt(Q))^2, sigma^2 (1 + 1/sqrt(Q))^2]``.

    Examples
    --------
    >>> lo, hi = marchenko_pastur_bounds(5000, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.913, 1.091)
    """
    n = _check_count(n, "n", minimum=1)
    m = _check_count(m, "m", minimum=1)
    var = check_positive(noise_var, "noise_var")
    r = math.sqrt(m / n)
    return var * (1.0 - r) ** 2, var * (1.0 + r) ** 2


@dataclass(frozen=True)
class RecordReconstruction:
    """Estimates of the original records from their perturbed values.

    Attributes
    ----------
    estimate : ndarray, shape (n, m)
        The attacker's estimate of every original value.
    method : str
        ``"spectral"`` (Kargupta 2003), ``"pca"`` (PCA-DR) or ``"bayes"`` (BE-DR, Huang 2005).
    n_components : int
        Dimension of the signal subspace used (m for BE-DR, which uses all of them).
    eigenvalues : ndarray, shape (m,)
        Descending eigenvalues of the perturbed covariance in noise units (each attribute
        divided by its noise standard deviation, so pure noise has eigenvalues near 1).
    noise_bounds : tuple of float
        Marchenko-Pastur range ``(lambda_min, lambda_max)`` of those eigenvalues for pure noise.
    """

    estimate: np.ndarray
    method: str
    n_components: int
    eigenvalues: np.ndarray
    noise_bounds: tuple[float, float]

    def rmse(self, X, scale=None) -> float:
        """Root-mean-square error against the true records, per unit of ``scale`` (see
        :func:`relative_rmse`)."""
        return relative_rmse(self.estimate, X, scale)


def _check_noise_var(noise_var, m: int) -> np.ndarray:
    if isinstance(noise_var, Noise):
        return np.full(m, float(noise_var.var))
    if isinstance(noise_var, numbers.Real) and not isinstance(noise_var, bool):
        return np.full(m, check_positive(noise_var, "noise_var"))
    var = check_finite_1d(noise_var, "noise_var")
    if var.size == 1:
        return np.full(m, check_positive(float(var[0]), "noise_var"))
    if var.size != m:
        raise ValueError(
            f"noise_var must be one variance or one per attribute ({m}), got {var.size} values"
        )
    if np.any(var <= 0):
        raise ValueError(f"noise_var must be > 0 for every attribute, got {var.min()}")
    return var


def _whitened(W, noise_var):
    """Center W and divide each attribute by its noise standard deviation (noise becomes N(0, I))."""
    W = check_finite_2d(W, "W")
    n, m = W.shape
    if n < 2:
        raise ValueError(f"W needs at least 2 records to estimate a covariance, got {n}")
    sd = np.sqrt(_check_noise_var(noise_var, m))
    mean = W.mean(axis=0)
    Z = (W - mean) / sd
    cov = (Z.T @ Z) / (n - 1)
    eigenvalues, vectors = np.linalg.eigh(cov)
    order = np.argsort(eigenvalues)[::-1]
    return W, mean, sd, Z, cov, eigenvalues[order], vectors[:, order]


def tracy_widom_bound(n: int, m: int, noise_var: float = 1.0, level: float = 0.99) -> float:
    """Finite-sample upper bound of the largest pure-noise eigenvalue (Johnstone 2001).

    The Marchenko-Pastur edge is an asymptotic limit: at n = 5,000 and m = 10 the largest
    eigenvalue of a pure-noise sample covariance still exceeds it in a sizeable share of draws.
    Johnstone (Ann. Statist. 2001, Thm. 1.1) gives its fluctuations: with ``N = n - 1``,
    ``(N l_1 - mu) / s`` tends to the Tracy-Widom law TW1, where ``mu = (sqrt(N - 1) + sqrt(m))^2``
    and ``s = (sqrt(N - 1) + sqrt(m)) (1 / sqrt(N - 1) + 1 / sqrt(m))^(1/3)``. The bound returned
    is ``sigma^2 (mu + q s) / N`` with ``q`` the TW1 quantile at ``level``.

    Parameters
    ----------
    level : {0.90, 0.95, 0.99}
        Probability that pure noise stays below the bound (TW1 quantiles 0.4501, 0.9793,
        2.0234 from the Tracy-Widom tables).

    Examples
    --------
    >>> round(tracy_widom_bound(5000, 10), 3)
    1.112
    """
    n = _check_count(n, "n", minimum=3)
    m = _check_count(m, "m", minimum=1)
    var = check_positive(noise_var, "noise_var")
    if level not in _TW1_QUANTILES:
        raise ValueError(f"level must be one of {sorted(_TW1_QUANTILES)}, got {level!r}")
    big_n = n - 1  # centered data: n - 1 degrees of freedom
    root = math.sqrt(big_n - 1) + math.sqrt(m)
    mu = root**2
    s = root * (1.0 / math.sqrt(big_n - 1) + 1.0 / math.sqrt(m)) ** (1.0 / 3.0)
    return var * (mu + _TW1_QUANTILES[level] * s) / big_n


_TW1_QUANTILES = {0.90: 0.4501, 0.95: 0.9793, 0.99: 2.0234}
_THRESHOLDS = ("marchenko-pastur", "tracy-widom")


def _signal_count(eigenvalues, n, m, threshold) -> int:
    if threshold == "marchenko-pastur":
        bound = marchenko_pastur_bounds(n, m)[1]
    elif threshold == "tracy-widom":
        bound = tracy_widom_bound(n, m)
    else:
        raise ValueError(f"threshold must be one of {', '.join(_THRESHOLDS)}; got {threshold!r}")
    return int(np.sum(eigenvalues > bound))


def spectral_filter(W, noise_var, threshold: str = "marchenko-pastur") -> RecordReconstruction:
    """Kargupta et al. (ICDM 2003) spectral filtering of additively perturbed records.

    1. Scale each attribute by its (public) noise standard deviation, so the noise covariance
       is the identity; compute the eigenvalues of the perturbed sample covariance.
    2. Eigenvalues above the Marchenko-Pastur bound ``(1 + sqrt(m/n))^2`` of pure noise are
       signal (Sec. 4 of the paper); keep their eigenvectors ``A_s``.
    3. Estimate the records as the projection ``U_hat = U_p A_s A_s^T`` (Eq. in Sec. 4),
       then undo the scaling and add the mean back.

    Parameters
    ----------
    W : array-like, shape (n, m)
        Perturbed records ``x + r`` (n >= 2).
    noise_var : float, array-like of shape (m,) or Noise
        Variance of the independent noise added to each attribute (public in the randomization
        model).
    threshold : {"marchenko-pastur", "tracy-widom"}
        ``marchenko-pastur`` is the paper's rule (asymptotic edge of the noise spectrum);
        ``tracy-widom`` adds Johnstone's finite-sample margin (:func:`tracy_widom_bound`), so a
        pure-noise eigenvalue is taken for signal in only about 1 % of draws.

    Returns
    -------
    RecordReconstruction
        ``estimate`` holds the filtered records.

    Examples
    --------
    >>> import numpy as np
    >>> X = correlated_data(1000, seed=0)
    >>> W = X + np.random.default_rng(0).normal(size=X.shape) * X.std(axis=0)
    >>> spectral_filter(W, X.var(axis=0)).n_components
    2
    """
    W, mean, sd, Z, _, eigenvalues, vectors = _whitened(W, noise_var)
    n, m = W.shape
    bounds = marchenko_pastur_bounds(n, m)
    k = _signal_count(eigenvalues, n, m, threshold)
    A = vectors[:, :k]
    estimate = mean + ((Z @ A) @ A.T) * sd
    return RecordReconstruction(estimate, "spectral", k, eigenvalues, bounds)


def pca_reconstruct(W, noise_var, k=None, threshold: str = "marchenko-pastur") -> RecordReconstruction:
    """PCA-based data reconstruction (PCA-DR) of Huang, Du & Chen (SIGMOD 2005).

    The original covariance is estimated as ``Cov(W) - Cov(R)`` (Cov(R) is diagonal and
    public); the centered perturbed records are projected on its top ``k`` eigenvectors.

    Parameters
    ----------
    W : array-like, shape (n, m)
    noise_var : float, array-like of shape (m,) or Noise
    k : int or None
        Number of principal components (0 <= k <= m). None: the number of eigenvalues above the
        noise bound (``threshold``), as in :func:`spectral_filter`.
    threshold : {"marchenko-pastur", "tracy-widom"}
        Rule used when ``k`` is None.

    Notes
    -----
    The projection is orthogonal in the original units, as in the paper (which assumes the same
    noise variance on every attribute). With unequal noise variances it lets the noise of the
    widely-spread attributes leak into the others; :func:`spectral_filter` whitens first.

    Examples
    --------
    >>> import numpy as np
    >>> X = correlated_data(1000, seed=0)
    >>> W = X + np.random.default_rng(0).normal(size=X.shape) * X.std(axis=0)
    >>> pca_reconstruct(W, X.var(axis=0), k=2).estimate.shape
    (1000, 10)
    """
    W, mean, sd, _, cov_z, eigenvalues, _ = _whitened(W, noise_var)
    n, m = W.shape
    bounds = marchenko_pastur_bounds(n, m)
    if k is None:
        k = _signal_count(eigenvalues, n, m, threshold)
    else:
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 0 <= int(k) <= m:
            raise ValueError(f"k must be an integer between 0 and {m} (number of attributes), got {k!r}")
        k = int(k)
    # Cov(X) = Cov(W) - Cov(R) in original units (Huang et al. 2005, Sec. 4.1)
    cov_x = cov_z * np.outer(sd, sd) - np.diag(sd**2)
    values, vectors = np.linalg.eigh(cov_x)
    Q = vectors[:, np.argsort(values)[::-1][:k]]
    estimate = mean + ((W - mean) @ Q) @ Q.T
    return RecordReconstruction(estimate, "pca", k, eigenvalues, bounds)


def gaussian_bayes_reconstruct(W, noise_var) -> RecordReconstruction:
    """Bayes-estimate-based data reconstruction (BE-DR) of Huang, Du & Chen (SIGMOD 2005).

    Assuming X is multivariate normal, the posterior mean of a record given ``w`` is
    ``mu + Sigma_x (Sigma_x + Sigma_r)^-1 (w - mu)`` with ``Sigma_x = Cov(W) - Sigma_r``
    (negative eigenvalues of the estimate are set to 0). It shrinks each record toward the
    mean along the directions where the signal is weak and keeps it where the signal is strong.

    Examples
    --------
    >>> import numpy as np
    >>> X = correlated_data(1000, seed=0)
    >>> W = X + np.random.default_rng(0).normal(size=X.shape) * X.std(axis=0)
    >>> gaussian_bayes_reconstruct(W, X.var(axis=0)).method
    'bayes'
    """
    W, mean, sd, Z, cov_z, eigenvalues, vectors = _whitened(W, noise_var)
    n, m = W.shape
    bounds = marchenko_pastur_bounds(n, m)
    # In noise units Sigma_r = I, so Sigma_x = V diag(max(lambda - 1, 0)) V^T and the posterior
    # mean is V diag(max(lambda - 1, 0) / lambda) V^T z (a Wiener filter).
    gain = np.clip(eigenvalues - 1.0, 0.0, None) / eigenvalues
    estimate = mean + (((Z @ vectors) * gain) @ vectors.T) * sd
    return RecordReconstruction(estimate, "bayes", m, eigenvalues, bounds)


def relative_rmse(estimate, X, scale=None) -> float:
    """``sqrt(mean(((estimate - X) / scale)^2))`` over all values.

    With ``scale`` = the noise standard deviation per attribute, the raw perturbed values score
    about 1.0 and a perfect attack 0.0; ``scale=None`` gives the plain RMSE.

    Examples
    --------
    >>> relative_rmse([[1.0, 2.0]], [[0.0, 2.0]], scale=[2.0, 1.0])
    0.3535533905932738
    """
    est = np.asarray(estimate, dtype=float)
    X = np.asarray(X, dtype=float)
    if est.shape != X.shape:
        raise ValueError(f"estimate has shape {est.shape} but X has shape {X.shape}")
    if est.size == 0:
        raise ValueError("estimate is empty")
    for name, arr in (("estimate", est), ("X", X)):
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} contains {int((~np.isfinite(arr)).sum())} NaN or infinite "
                             "value(s); relative_rmse needs finite values")
    err = est - X
    if scale is not None:
        s = np.asarray(scale, dtype=float)
        if np.any(~np.isfinite(s)) or np.any(s <= 0):
            raise ValueError("scale must be finite and > 0")
        err = err / s
    return float(np.sqrt(np.mean(err**2)))


# ---------------------------------------------------------------------------------------------
# One attribute: the posterior of an individual value given its perturbed value
# ---------------------------------------------------------------------------------------------
def _check_pair(bounds):
    if bounds is None:
        return None
    try:
        pair = tuple(float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValueError(f"bounds must be a pair (low, high), got {bounds!r}") from None
    if len(pair) != 2:
        raise ValueError(f"bounds must be a pair (low, high), got {bounds!r}")
    return pair


def _prior_on_grid(prior, bounds, n_grid, noise: Noise):
    """Return (cell_edges, prior mass per cell) for a prior given as a reconstruction result,
    as (edges, probabilities) or as a density callable with ``bounds``."""
    if hasattr(prior, "edges") and hasattr(prior, "probabilities"):
        edges, probs = prior.edges, prior.probabilities
        kind = "histogram"
    elif isinstance(prior, tuple) and len(prior) == 2 and not callable(prior[0]):
        edges, probs = prior
        kind = "histogram"
    elif callable(prior):
        kind = "density"
    else:
        raise ValueError(
            "prior must be a reconstruction result (with .edges and .probabilities), a tuple "
            f"(edges, probabilities) or a density function with bounds; got {type(prior).__name__}"
        )
    if kind == "histogram":
        edges = check_finite_1d(edges, "prior edges")
        probs = check_finite_1d(probs, "prior probabilities")
        if edges.size != probs.size + 1:
            raise ValueError(
                f"prior needs one more edge than probabilities, got {edges.size} edges and "
                f"{probs.size} probabilities"
            )
        if np.any(np.diff(edges) <= 0):
            raise ValueError("prior edges must be strictly increasing")
        if np.any(probs < 0) or probs.sum() <= 0:
            raise ValueError("prior probabilities must be >= 0 with a positive sum")
        lo, hi = (float(edges[0]), float(edges[-1])) if bounds is None else bounds
    else:
        if bounds is None:
            raise ValueError("a prior given as a density function needs bounds=(low, high)")
        lo, hi = bounds
    lo, hi = float(lo), float(hi)
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"bounds must be finite with low < high, got ({lo}, {hi})")
    if n_grid is None:
        # fine enough that a cell is small against the noise (at most 4,000 cells)
        n_grid = int(np.clip(math.ceil(40.0 * (hi - lo) / noise.std), 400, 4000))
    n_grid = _check_count(n_grid, "n_grid", minimum=10)
    cell = np.linspace(lo, hi, n_grid + 1)
    if kind == "histogram":
        cdf = np.concatenate([[0.0], np.cumsum(probs)]) / probs.sum()
        mass = np.diff(np.interp(cell, edges, cdf))  # exact mass of the step density per cell
    else:
        mid = 0.5 * (cell[:-1] + cell[1:])
        dens = np.asarray(prior(mid), dtype=float)
        if dens.shape != mid.shape or np.any(~np.isfinite(dens)) or np.any(dens < 0):
            raise ValueError("the prior density must return finite values >= 0 for an array input")
        mass = dens * np.diff(cell)
    if mass.sum() <= 0:
        raise ValueError(f"the prior puts no mass on [{lo}, {hi}]")
    return cell, mass / mass.sum()


def _log_noise_pdf(noise: Noise, r: np.ndarray) -> np.ndarray:
    if isinstance(noise, GaussianNoise):  # avoid underflow far in the tails
        return -0.5 * (r / noise.sigma) ** 2
    with np.errstate(divide="ignore"):
        return np.log(noise.pdf(r))


def _posterior_chunks(w, noise, cell, mass, chunk_cells=250_000):
    """Yield (slice, posterior mass per cell) for blocks of records (vectorized inside a block)."""
    mid = 0.5 * (cell[:-1] + cell[1:])
    log_mass = np.log(np.where(mass > 0, mass, 1.0)) + np.where(mass > 0, 0.0, -np.inf)
    step = max(1, chunk_cells // mid.size)
    for start in range(0, w.size, step):
        block = slice(start, min(start + step, w.size))
        # Bayes' rule: f(x | w) ∝ f_R(w - x) f_X(x)  (AS2000 Sec. 3, for one record)
        logp = _log_noise_pdf(noise, w[block, None] - mid[None, :]) + log_mass[None, :]
        top = logp.max(axis=1, keepdims=True)
        bad = ~np.isfinite(top[:, 0])
        if bad.any():
            first = float(w[block][bad][0])
            raise ValueError(
                f"{int(bad.sum())} perturbed value(s) (first {first:g}) are impossible under this "
                "prior and noise: the prior's support plus the noise does not reach them"
            )
        post = np.exp(logp - top)
        yield block, post / post.sum(axis=1, keepdims=True)


def _quantile(cdf, cell, q):
    """Row-wise quantile ``q`` (shape (n,)) of piecewise-uniform posteriors; cdf has shape (n, K + 1).

    One ``searchsorted`` over all rows at once: row ``i`` is shifted by ``2 i`` so the
    concatenated, row-wise increasing CDFs form one increasing array.
    """
    n, k1 = cdf.shape
    shift = 2.0 * np.arange(n)
    flat = (cdf + shift[:, None]).ravel()
    pos = np.searchsorted(flat, q + shift, side="left") - np.arange(n) * k1
    idx = np.clip(pos - 1, 0, k1 - 2)  # cell with cdf[idx] < q <= cdf[idx + 1]
    rows = np.arange(n)
    c0, c1 = cdf[rows, idx], cdf[rows, idx + 1]
    gap = c1 - c0
    frac = np.where(gap > 0, (q - c0) / np.where(gap > 0, gap, 1.0), 0.5)
    return cell[idx] + np.clip(frac, 0.0, 1.0) * (cell[idx + 1] - cell[idx])


@dataclass(frozen=True)
class BayesEstimate:
    """Posterior summary of every record: what an attacker who knows the distribution learns.

    Attributes
    ----------
    mean : ndarray, shape (n,)
        Posterior mean E[X | W = w] (the minimum-MSE estimate of the original value).
    lower, upper : ndarray, shape (n,)
        Posterior ``confidence`` interval of each record.
    std : ndarray, shape (n,)
        Posterior standard deviation.
    confidence : float
    interval : str
        ``"central"`` (equal tails) or ``"shortest"``.
    """

    mean: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    std: np.ndarray
    confidence: float
    interval: str

    @property
    def width(self) -> np.ndarray:
        return self.upper - self.lower


def bayes_estimate(W, noise: Noise, prior, *, confidence: float = 0.95, bounds=None,
                   interval: str = "central", n_grid=None) -> BayesEstimate:
    """Posterior mean and posterior interval of each record's original value.

    The attacker knows the noise distribution (public) and the distribution of X (public too:
    it is what reconstruction outputs, AS2000 Sec. 3). For each perturbed value ``w``,
    ``f(x | w) ∝ f_R(w - x) f_X(x)``; this is evaluated on a grid of cells over the prior's
    support, vectorized over records (Huang, Du & Chen 2005; Agrawal & Aggarwal 2001).

    Parameters
    ----------
    W : array-like, shape (n,)
        Perturbed values of one attribute.
    noise : Noise
        The noise that was added (e.g. ``GaussianNoise(sigma)``).
    prior : reconstruction result, (edges, probabilities) or callable
        The distribution of X: the result of :func:`ppdm_edu.reconstruct` (anything with
        ``.edges`` and ``.probabilities``), a tuple ``(edges, probabilities)`` of a histogram,
        or a density function (then ``bounds`` is required).
    confidence : float in (0, 1)
        Posterior probability inside the interval.
    bounds : (low, high) or None
        Support of X (default: the histogram's outer edges).
    interval : {"central", "shortest"}
        ``central`` cuts (1 - confidence)/2 in each tail; ``shortest`` is the narrowest
        interval with that probability (the notion behind Table 1).
    n_grid : int or None
        Number of grid cells (default: 40 cells per noise standard deviation, 400 to 4,000).

    Returns
    -------
    BayesEstimate

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import GaussianNoise
    >>> from ppdm_edu.datasets import plateau_pdf
    >>> est = bayes_estimate([0.5, 1.4], GaussianNoise(0.25), plateau_pdf, bounds=(0, 1))
    >>> bool(est.width.max() < GaussianNoise(0.25).interval_width(0.95))
    True
    """
    if not isinstance(noise, Noise):
        raise ValueError(f"noise must be a Noise object (e.g. GaussianNoise), got {type(noise).__name__}")
    w = check_finite_1d(W, "W")
    c = check_probability(confidence, "confidence", open_interval=True)
    if interval not in ("central", "shortest"):
        raise ValueError(f"interval must be 'central' or 'shortest', got {interval!r}")
    cell, mass = _prior_on_grid(prior, _check_pair(bounds), n_grid, noise)
    mid = 0.5 * (cell[:-1] + cell[1:])
    half_width = np.diff(cell) / 2.0
    mean = np.empty(w.size)
    std = np.empty(w.size)
    lower = np.empty(w.size)
    upper = np.empty(w.size)
    tails = np.linspace(0.0, 1.0 - c, 21) if interval == "shortest" else np.array([(1.0 - c) / 2])
    for block, post in _posterior_chunks(w, noise, cell, mass):
        mean[block] = post @ mid
        # each cell is uniform: E[x^2] = mid^2 + h^2 / 3
        second = post @ (mid**2 + half_width**2 / 3.0)
        std[block] = np.sqrt(np.clip(second - mean[block] ** 2, 0.0, None))
        cdf = np.concatenate([np.zeros((post.shape[0], 1)), np.cumsum(post, axis=1)], axis=1)
        cdf[:, -1] = 1.0
        best_lo = best_hi = None
        for t in tails:  # loop over a few tail splits, never over records
            ones = np.ones(post.shape[0])
            lo = _quantile(cdf, cell, t * ones)
            hi = _quantile(cdf, cell, (t + c) * ones)
            if best_lo is None:
                best_lo, best_hi = lo, hi
            else:
                better = (hi - lo) < (best_hi - best_lo)
                best_lo = np.where(better, lo, best_lo)
                best_hi = np.where(better, hi, best_hi)
        lower[block], upper[block] = best_lo, best_hi
    return BayesEstimate(mean, lower, upper, std, c, interval)


@dataclass(frozen=True)
class PosteriorPrivacy:
    """A-priori interval privacy (Table 1) versus what the attacker's posterior leaves.

    Attributes
    ----------
    apriori_width : float
        ``noise.interval_width(confidence)``: 3.92 sigma at 95 % for Gaussian noise (Table 1).
    mean_width, median_width : float
        Average and median width of the posterior intervals over the records.
    ratio : float
        ``mean_width / apriori_width`` (below 1: the paper's measure overstates privacy).
    coverage : float
        Share of records whose true value lies in its posterior interval (close to
        ``confidence`` when the prior is right: the attacker's intervals are honest).
    rmse_posterior_mean, rmse_perturbed : float
        Error of the posterior mean and of the perturbed value as estimates of x.
    confidence : float
    """

    apriori_width: float
    mean_width: float
    median_width: float
    ratio: float
    coverage: float
    rmse_posterior_mean: float
    rmse_perturbed: float
    confidence: float


def posterior_interval_width(x, noise: Noise, prior, *, w=None, confidence: float = 0.95,
                             bounds=None, interval: str = "central", n_grid=None,
                             rng=None) -> PosteriorPrivacy:
    """Compare the paper's a-priori interval privacy with the attacker's posterior intervals.

    Agrawal & Srikant (2000, Table 1) measure privacy by the width of the interval the noise
    alone spreads a value over. Agrawal & Aggarwal (PODS 2001) observed that an attacker who
    also knows the distribution of X (which the reconstruction publishes) learns more; here the
    gap is measured: perturb ``x`` (or take ``w``), run :func:`bayes_estimate`, and summarize.

    Parameters
    ----------
    x : array-like, shape (n,)
        The true values (to check coverage and errors).
    noise : Noise
    prior : see :func:`bayes_estimate`
        The distribution the attacker uses (true or reconstructed).
    w : array-like, shape (n,), optional
        Perturbed values; default ``x + noise`` drawn with ``rng``.
    confidence, bounds, interval, n_grid : see :func:`bayes_estimate`
    rng : None, int or numpy.random.Generator

    Examples
    --------
    >>> from ppdm_edu import GaussianNoise
    >>> from ppdm_edu.datasets import plateau, plateau_pdf
    >>> r = posterior_interval_width(plateau(2000, seed=0), GaussianNoise(0.1), plateau_pdf,
    ...                              bounds=(0, 1), rng=1)
    >>> round(r.apriori_width, 3), bool(r.ratio < 1)
    (0.392, True)
    """
    if not isinstance(noise, Noise):
        raise ValueError(f"noise must be a Noise object (e.g. GaussianNoise), got {type(noise).__name__}")
    x = check_finite_1d(x, "x")
    if w is None:
        w = x + noise.sample(x.shape, check_random_state(rng))
    else:
        w = check_finite_1d(w, "w")
        if w.shape != x.shape:
            raise ValueError(f"w has {w.size} values but x has {x.size}")
    est = bayes_estimate(w, noise, prior, confidence=confidence, bounds=bounds,
                         interval=interval, n_grid=n_grid)
    width = est.width
    apriori = float(noise.interval_width(confidence))
    inside = (x >= est.lower) & (x <= est.upper)
    return PosteriorPrivacy(
        apriori_width=apriori,
        mean_width=float(width.mean()),
        median_width=float(np.median(width)),
        ratio=float(width.mean() / apriori),
        coverage=float(inside.mean()),
        rmse_posterior_mean=float(np.sqrt(np.mean((est.mean - x) ** 2))),
        rmse_perturbed=float(np.sqrt(np.mean((w - x) ** 2))),
        confidence=est.confidence,
    )


def property_posterior(W, noise: Noise, prior, low: float, high: float, *, bounds=None,
                       n_grid=None) -> np.ndarray:
    """``P(low <= X <= high | W = w)`` for every perturbed value (a rho1-to-rho2 check).

    Evfimievski, Gehrke & Srikant (PODS 2003) call it an upward rho1-to-rho2 privacy breach when
    a property with prior probability <= rho1 has posterior probability >= rho2 after seeing
    the randomized value. With additive noise the prior of the property is the prior mass of
    [low, high] and its posterior is computed here on the same grid as :func:`bayes_estimate`.

    Examples
    --------
    >>> from ppdm_edu import UniformNoise
    >>> from ppdm_edu.datasets import plateau_pdf
    >>> # uniform noise of half-width 0.5: w = -0.45 forces x <= 0.05
    >>> round(float(property_posterior([-0.45], UniformNoise(0.5), plateau_pdf, 0, 0.05,
    ...                                bounds=(0, 1))[0]), 6)
    1.0
    """
    if not isinstance(noise, Noise):
        raise ValueError(f"noise must be a Noise object (e.g. GaussianNoise), got {type(noise).__name__}")
    w = check_finite_1d(W, "W")
    low, high = float(low), float(high)
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"need finite low < high, got ({low}, {high})")
    cell, mass = _prior_on_grid(prior, _check_pair(bounds), n_grid, noise)
    # share of each cell inside [low, high]
    share = np.clip((np.minimum(cell[1:], high) - np.maximum(cell[:-1], low)) / np.diff(cell), 0, 1)
    out = np.empty(w.size)
    for block, post in _posterior_chunks(w, noise, cell, mass):
        out[block] = np.clip(post @ share, 0.0, 1.0)
    return out
