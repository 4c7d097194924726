"""Correlated records driven by a few latent factors (the setting of record-reconstruction attacks).

Kargupta, Datta, Wang & Sivakumar (ICDM 2003) and Huang, Du & Chen (SIGMOD 2005) show that
additive noise protects correlated attributes poorly; :func:`correlated_data` generates such
data for :mod:`ppdm_edu.attacks`.

Examples
--------
>>> X = correlated_data(500, n_attributes=4, n_factors=1, rng=0)
>>> X.shape
(500, 4)
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import check_integer, check_probability, check_size
from ..random_state import check_random_state

__all__ = ["correlated_data"]


def correlated_data(n: int = 5000, n_attributes: int = 10, n_factors: int = 2,
                    correlation: float = 0.99, rng=None) -> np.ndarray:
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
    rng : None, int or numpy.random.Generator
        Seed or generator; the same seed gives the same records.

    Returns
    -------
    numpy.ndarray
        The records, shape ``(n, n_attributes)``.

    Raises
    ------
    TypeError
        If ``n``, ``n_attributes`` or ``n_factors`` is not an integer.
    ValueError
        If ``n < 2``, ``n_attributes < 1``, ``n_factors`` is not in 1..n_attributes,
        ``correlation`` is not in [0, 1], or the data would not fit in memory.

    Examples
    --------
    >>> correlated_data(100, rng=0).shape
    (100, 10)
    """
    n = check_integer(n, "n", minimum=2)
    m = check_integer(n_attributes, "n_attributes", minimum=1)
    k = check_integer(n_factors, "n_factors", minimum=1)
    check_size((n, m), "(n, n_attributes)")
    if k > m:
        raise ValueError(f"n_factors ({k}) must not exceed n_attributes ({m})")
    c = check_probability(correlation, "correlation")
    rng = check_random_state(rng)
    loadings = rng.normal(size=(k, m))
    loadings /= np.linalg.norm(loadings, axis=0)  # each attribute: unit-variance factor part
    means = rng.uniform(-50.0, 50.0, m)
    scales = rng.uniform(1.0, 20.0, m)
    factors = rng.normal(size=(n, k))
    independent = rng.normal(size=(n, m))
    z = math.sqrt(c) * (factors @ loadings) + math.sqrt(1.0 - c) * independent
    return means + scales * z
