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
* **Knowledge of the distribution reduces privacy** (Agrawal & Aggarwal, PODS 2001): the
  posterior of one value given its perturbed value is in :mod:`ppdm_edu.posterior`.

The correlated test data come from :func:`ppdm_edu.datasets.correlated.correlated_data`.

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.attacks import spectral_filter, relative_rmse
>>> from ppdm_edu.datasets.correlated import correlated_data
>>> X = correlated_data(2000, correlation=0.99, rng=0)
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

from ._validation import (
    check_finite_1d,
    check_finite_2d,
    check_finite_array,
    check_integer,
    check_positive,
)
from .randomization import Noise

__all__ = [
    "marchenko_pastur_bounds",
    "tracy_widom_bound",
    "RecordReconstruction",
    "spectral_filter",
    "pca_reconstruct",
    "gaussian_bayes_reconstruct",
    "relative_rmse",
]


# ---------------------------------------------------------------------------------------------
# Spectral filtering and PCA / Bayes reconstruction of records
# ---------------------------------------------------------------------------------------------
def marchenko_pastur_bounds(n: int, m: int, noise_var: float = 1.0) -> tuple[float, float]:
    """Eigenvalue range of the sample covariance of an n x m matrix of i.i.d. noise.

    Kargupta et al. (2003, Sec. 4): with ``Q = n / m``, the eigenvalues of the noise covariance
    lie (as n, m grow with Q fixed) in ``[sigma^2 (1 - 1/sqrt(Q))^2, sigma^2 (1 + 1/sqrt(Q))^2]``.

    Parameters
    ----------
    n : int
        Number of records, >= 1.
    m : int
        Number of attributes, >= 1.
    noise_var : float, default 1.0
        Variance ``sigma^2`` of the noise, > 0.

    Returns
    -------
    tuple of float
        ``(lambda_min, lambda_max)``, the asymptotic edges of the pure-noise spectrum.

    Raises
    ------
    ValueError
        If ``n`` or ``m`` is not a positive integer or ``noise_var <= 0``.

    Examples
    --------
    >>> lo, hi = marchenko_pastur_bounds(5000, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.913, 1.091)
    """
    n = check_integer(n, "n", minimum=1)
    m = check_integer(m, "m", minimum=1)
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
        """Root-mean-square error against the true records, per unit of ``scale``.

        Parameters
        ----------
        X : array-like, shape (n, m)
            The true records.
        scale : float or array-like of shape (m,), optional
            Unit per attribute (e.g. the noise standard deviation); None gives the plain RMSE.

        Returns
        -------
        float
            :func:`relative_rmse` of :attr:`estimate` against ``X``.
        """
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
    """Center W and divide each attribute by its noise standard deviation (noise becomes N(0, I)).

    Also returns the eigen-decomposition of the whitened covariance (largest first) and the
    Marchenko-Pastur edges its pure-noise eigenvalues stay within, which all three attacks report.
    """
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
    return W, mean, sd, Z, cov, eigenvalues[order], vectors[:, order], marchenko_pastur_bounds(n, m)


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
    n : int
        Number of records, >= 3.
    m : int
        Number of attributes, >= 1.
    noise_var : float, default 1.0
        Variance ``sigma^2`` of the noise, > 0.
    level : {0.90, 0.95, 0.99}
        Probability that pure noise stays below the bound (TW1 quantiles 0.4501, 0.9793,
        2.0234 from the Tracy-Widom tables).

    Returns
    -------
    float
        The bound on the largest eigenvalue of the pure-noise sample covariance.

    Raises
    ------
    ValueError
        If ``n < 3``, ``m < 1``, ``noise_var <= 0`` or ``level`` is not tabulated.

    Examples
    --------
    >>> round(tracy_widom_bound(5000, 10), 3)
    1.112
    """
    n = check_integer(n, "n", minimum=3)
    m = check_integer(m, "m", minimum=1)
    var = check_positive(noise_var, "noise_var")
    if not isinstance(level, float) or level not in _TW1_QUANTILES:
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
    >>> from ppdm_edu.datasets.correlated import correlated_data
    >>> X = correlated_data(1000, rng=0)
    >>> W = X + np.random.default_rng(0).normal(size=X.shape) * X.std(axis=0)
    >>> spectral_filter(W, X.var(axis=0)).n_components
    2
    """
    W, mean, sd, Z, _, eigenvalues, vectors, bounds = _whitened(W, noise_var)
    n, m = W.shape
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
        Perturbed records ``x + r`` (n >= 2).
    noise_var : float, array-like of shape (m,) or Noise
        Variance of the independent noise added to each attribute (public).
    k : int or None
        Number of principal components (0 <= k <= m). None: the number of eigenvalues above the
        noise bound (``threshold``), as in :func:`spectral_filter`.
    threshold : {"marchenko-pastur", "tracy-widom"}
        Rule used when ``k`` is None.

    Returns
    -------
    RecordReconstruction
        ``estimate`` holds the projected records; ``eigenvalues`` are those of the perturbed
        covariance in noise units (as for :func:`spectral_filter`).

    Raises
    ------
    ValueError
        If ``W`` is not a finite 2-D array with at least 2 records, ``noise_var`` has the
        wrong length or is not > 0, ``k`` is out of range or ``threshold`` is unknown.

    Notes
    -----
    The projection is orthogonal in the original units, as in the paper (which assumes the same
    noise variance on every attribute). With unequal noise variances it lets the noise of the
    widely-spread attributes leak into the others; :func:`spectral_filter` whitens first.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu.datasets.correlated import correlated_data
    >>> X = correlated_data(1000, rng=0)
    >>> W = X + np.random.default_rng(0).normal(size=X.shape) * X.std(axis=0)
    >>> pca_reconstruct(W, X.var(axis=0), k=2).estimate.shape
    (1000, 10)
    """
    W, mean, sd, _, cov_z, eigenvalues, _, bounds = _whitened(W, noise_var)
    n, m = W.shape
    if k is None:
        k = _signal_count(eigenvalues, n, m, threshold)
    else:
        k = check_integer(k, "k (components kept, at most the number of attributes)",
                          minimum=0, maximum=m)
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

    Parameters
    ----------
    W : array-like, shape (n, m)
        Perturbed records ``x + r`` (n >= 2).
    noise_var : float, array-like of shape (m,) or Noise
        Variance of the independent noise added to each attribute (public).

    Returns
    -------
    RecordReconstruction
        ``estimate`` holds the posterior means; ``n_components`` is m.

    Raises
    ------
    ValueError
        If ``W`` is not a finite 2-D array with at least 2 records, or ``noise_var`` has the
        wrong length or is not > 0.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu.datasets.correlated import correlated_data
    >>> X = correlated_data(1000, rng=0)
    >>> W = X + np.random.default_rng(0).normal(size=X.shape) * X.std(axis=0)
    >>> gaussian_bayes_reconstruct(W, X.var(axis=0)).method
    'bayes'
    """
    W, mean, sd, Z, _, eigenvalues, vectors, bounds = _whitened(W, noise_var)
    m = W.shape[1]
    # In noise units Sigma_r = I, so Sigma_x = V diag(max(lambda - 1, 0)) V^T and the posterior
    # mean is V diag(max(lambda - 1, 0) / lambda) V^T z (a Wiener filter).
    # a direction with no variance at all (a constant attribute) keeps nothing: gain 0, not 0/0
    gain = np.divide(np.clip(eigenvalues - 1.0, 0.0, None), eigenvalues,
                     out=np.zeros_like(eigenvalues), where=eigenvalues > 0)
    estimate = mean + (((Z @ vectors) * gain) @ vectors.T) * sd
    return RecordReconstruction(estimate, "bayes", m, eigenvalues, bounds)


def relative_rmse(estimate, X, scale=None) -> float:
    """``sqrt(mean(((estimate - X) / scale)^2))`` over all values.

    With ``scale`` = the noise standard deviation per attribute, the raw perturbed values score
    about 1.0 and a perfect attack 0.0; ``scale=None`` gives the plain RMSE.

    Parameters
    ----------
    estimate : array-like
        The attacker's estimates.
    X : array-like
        The true values, same shape as ``estimate``.
    scale : float or array-like, optional
        Unit of the error, > 0, broadcast against the last axis (one per attribute); None for
        the plain RMSE.

    Returns
    -------
    float
        The (relative) root-mean-square error, >= 0.

    Raises
    ------
    ValueError
        If the shapes differ, the arrays are empty or not finite, or ``scale`` is not finite
        and > 0.

    Examples
    --------
    >>> relative_rmse([[1.0, 2.0]], [[0.0, 2.0]], scale=[2.0, 1.0])
    0.3535533905932738
    """
    est = check_finite_array(estimate, "estimate")
    X = check_finite_array(X, "X")
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
        s = check_finite_array(scale, "scale")
        if np.any(s <= 0) or s.ndim > 1 or s.size not in (1, X.shape[-1]):
            raise ValueError(f"scale must be one number > 0 or one per column of X ({X.shape[-1]}), got {scale!r}")
        err = err / s
    return float(np.sqrt(np.mean(err**2)))
