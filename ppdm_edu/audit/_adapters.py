"""The course's randomizers as the functions :func:`~ppdm_edu.audit.audit_epsilon` runs.

Each adapter is a thin view of a :class:`ppdm_edu.mechanisms.Mechanism` (its ``randomize``,
optionally with the outputs cut into bins): there is one randomizer interface, the Mechanism,
and the audit accepts a Mechanism directly. Multivariate randomized response on whole records
(Du & Zhan Sec. 4.1) has no Mechanism yet, so its adapter wraps
:func:`ppdm_edu.randomized_response.mrr_disguise`.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .._validation import check_finite_array
from ..mechanisms import AdditiveNoiseMechanism, LaplaceMechanism, WarnerRR
from ..randomization import Noise
from ..randomized_response import mrr_disguise

__all__ = ["warner_randomizer", "mrr_randomizer", "laplace_randomizer", "additive_noise_randomizer"]


def warner_randomizer(theta: float) -> Callable:
    """Warner's randomized response with ``theta`` (Du & Zhan Sec. 3): ``WarnerRR(theta).randomize``.

    Parameters
    ----------
    theta : float
        Probability of answering the true question.

    Returns
    -------
    callable
        ``(answers, rng) -> disguised answers``, the bound method of a
        :class:`~ppdm_edu.mechanisms.WarnerRR` (passing ``WarnerRR(theta)`` itself works too).

    Raises
    ------
    TypeError, ValueError
        If ``theta`` is not a number in [0, 1] (checked now, not during the audit).

    Examples
    --------
    >>> import numpy as np
    >>> warner_randomizer(1.0)(np.array([1, 0, 1]), 0).tolist()   # theta = 1: the truth
    [1, 0, 1]
    """
    return WarnerRR(theta).randomize


def mrr_randomizer(theta: float) -> Callable:
    """Multivariate randomized response (Du & Zhan Sec. 4.1) on whole 0/1 records.

    Parameters
    ----------
    theta : float
        Probability of sending the record unchanged (else every attribute is flipped).

    Returns
    -------
    callable
        ``(records, rng) -> disguised records`` (one output = one whole record).

    Raises
    ------
    TypeError, ValueError
        If ``theta`` is not a number in [0, 1] (checked now, not during the audit).

    Examples
    --------
    >>> import numpy as np
    >>> mrr_randomizer(0.0)(np.array([[1, 0], [0, 0]]), 0).tolist()   # theta = 0: complements
    [[0, 1], [1, 1]]
    """
    mrr_disguise(np.zeros((1, 1), dtype=int), theta, rng=0)  # validates theta now, not in the audit
    return lambda values, rng: np.asarray(mrr_disguise(np.atleast_2d(values), theta, rng=rng))


def _binner(bins) -> np.ndarray:
    edges = check_finite_array(bins, "bins")
    if edges.ndim != 1 or edges.size < 2 or not np.all(np.diff(edges) > 0):
        raise ValueError(f"bins must be at least two increasing finite edges, got {bins!r}")
    return edges


def _binned(randomize: Callable, edges: np.ndarray) -> Callable:
    # binning can only lose evidence: a bound on the binned outputs is a bound for the mechanism
    return lambda values, rng: np.searchsorted(edges, randomize(values, rng), side="right")


def laplace_randomizer(epsilon: float, bounds=(0.0, 1.0), bins=None) -> Callable:
    """The local Laplace mechanism (:class:`~ppdm_edu.mechanisms.LaplaceMechanism`), optionally binned.

    Parameters
    ----------
    epsilon : float
        The ε it claims.
    bounds : tuple of float, default (0, 1)
        The attribute's range (sensitivity ``high - low``).
    bins : array_like, optional
        Bin edges for the outputs (outputs outside fall in the two open end bins). Default: the
        raw outputs (the audit cuts continuous outputs itself).

    Returns
    -------
    callable
        ``(values, rng) -> outputs`` (bin indices when ``bins`` is given).

    Raises
    ------
    TypeError, ValueError
        If ``epsilon`` or ``bounds`` is invalid (checked now) or ``bins`` is not at least two
        increasing finite edges.

    Examples
    --------
    >>> import numpy as np
    >>> idx = laplace_randomizer(1.0, bins=np.linspace(-5, 6, 12))(np.full(1000, 0.5), 0)
    >>> bool(idx.min() >= 0 and idx.max() <= 12)   # 12 edges: bin indices 0..12
    True
    """
    mech = LaplaceMechanism(epsilon, bounds)
    return mech.randomize if bins is None else _binned(mech.randomize, _binner(bins))


def additive_noise_randomizer(noise: Noise, bins) -> Callable:
    """Additive value distortion ``x + r`` (Agrawal & Srikant Sec. 2) with binned outputs.

    A view of :class:`~ppdm_edu.mechanisms.AdditiveNoiseMechanism` on the range of ``bins``.

    Parameters
    ----------
    noise : Noise
        The noise (uniform, Gaussian, Laplace, ...).
    bins : array_like
        Bin edges for the perturbed values (the inputs must lie between the first and the
        last edge): they decide what the audit can see. With uniform noise, bins that separate
        the supports of ``x0 + r`` and ``x1 + r`` expose outputs only one input can produce, so
        the bound on pure ε grows without limit with the trials: additive uniform noise has no
        finite ε (:func:`~ppdm_edu.audit.audit_delta` gives the stable number, its δ).

    Returns
    -------
    callable
        ``(values, rng) -> bin index of each perturbed value``.

    Raises
    ------
    TypeError
        If ``noise`` is not a ppdm_edu Noise.
    ValueError
        If ``bins`` is not at least two increasing finite edges.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import UniformNoise
    >>> f = additive_noise_randomizer(UniformNoise(0.5), bins=[-1, 0, 1, 2])
    >>> f(np.full(3, 0.5), 0).tolist()     # 0.5 + r always lands in [0, 1): bin 2
    [2, 2, 2]
    """
    if not isinstance(noise, Noise):
        raise TypeError(f"noise must be a ppdm_edu Noise (UniformNoise, GaussianNoise, ...), got {noise!r}")
    edges = _binner(bins)
    mech = AdditiveNoiseMechanism(noise, bounds=(float(edges[0]), float(edges[-1])))
    return _binned(mech.randomize, edges)
