"""Auditing in one run (Steinke, Nasr & Jagielski, NeurIPS 2023): many canaries, one release.

The two-input audit runs the mechanism thousands of times. A central mechanism (a curator's
noisy histogram, a trained model) is costly to run even twice. The one-run audit puts ``m``
*canary* records in one dataset, each included or not by a fair coin ``S_i``, runs the mechanism
**once**, and guesses from the output which canaries were in: "in" for the ``guesses / 2``
highest scores, "out" for the lowest, no guess on the rest. For an ε-DP mechanism (neighbours:
one record added or removed) the number ``W`` of correct guesses out of ``r`` is stochastically
dominated by ``Binomial(r, e^ε / (1 + e^ε))`` (their Theorem 3.1): each canary is a coin the
mechanism may only tilt by e^ε. The Clopper–Pearson lower bound ``p`` on the success rate then
gives ``ε ≥ ln(p / (1 − p))``. (Their (ε, δ) version adds a δ term; only pure ε is done here.)

Examples
--------
>>> audit = audit_one_run(laplace_histogram(1.0), canaries=10_000, guesses=1_000, rng=0)
>>> bool(0 < audit.lower_bound <= 1.0), audit.releases
(True, 1)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .._validation import check_integer, check_positive
from ..random_state import check_random_state, spawn_rngs
from ._stats import check_confidence, cp_lower

__all__ = ["OneRunAudit", "audit_one_run", "laplace_histogram"]


@dataclass(frozen=True)
class OneRunAudit:
    """The result of :func:`audit_one_run`.

    Attributes
    ----------
    lower_bound : float
        Lower bound on ε (add/remove one record), valid with probability ``confidence``.
    correct : int
        Correct guesses.
    guesses : int
        Guesses made (the other canaries abstained).
    canaries : int
        Canaries in the dataset.
    confidence : float
        Confidence of the bound.
    releases : int
        Runs of the mechanism the audit needed (1).
    """

    lower_bound: float
    correct: int
    guesses: int
    canaries: int
    confidence: float
    releases: int = 1


def audit_one_run(release: Callable, canaries: int, *, guesses: int, confidence: float = 0.95,
                  rng=None) -> OneRunAudit:
    """A lower bound on ε from a single run of a mechanism on ``canaries`` coin-flipped records.

    Parameters
    ----------
    release : callable
        ``release(included, rng) -> scores``: runs the mechanism once on the dataset holding
        the canaries where ``included`` (bool, shape ``(canaries,)``) is True, and returns one
        score per canary (higher: the output suggests it was included).
    canaries : int
        Number of canaries ``m``, 2 to 10,000,000.
    guesses : int
        How many canaries to guess on (half "in" at the top scores, half "out" at the bottom),
        2 to ``canaries``; fewer, surer guesses can give a higher bound.
    confidence : float, default 0.95
        Probability that the bound does not exceed the true ε, in [0.5, 1).
    rng : None, int or numpy.random.Generator
        Seed (the coins and the mechanism's noise use independent streams).

    Returns
    -------
    OneRunAudit
        The bound and the guesses behind it.

    Raises
    ------
    TypeError, ValueError
        If an argument is out of range or ``release`` does not return one finite score per canary.
    """
    m = check_integer(canaries, "canaries", minimum=2, maximum=10_000_000)
    r = check_integer(guesses, "guesses", minimum=2, maximum=m)
    confidence = check_confidence(confidence)
    if not callable(release):
        raise TypeError(f"release must be a callable (included, rng) -> scores, got {release!r}")
    coin_rng, mech_rng = spawn_rngs(rng, 2)
    included = coin_rng.random(m) < 0.5
    scores = np.asarray(release(included.copy(), mech_rng), dtype=float)
    if scores.shape != (m,) or not np.isfinite(scores).all():
        raise ValueError(f"release must return {m} finite scores (one per canary), got shape {scores.shape}")
    # ties broken at random (by the coin stream's successor), never by canary index
    order = np.lexsort((coin_rng.random(m), scores))
    k_in = r // 2
    guessed_in, guessed_out = order[m - k_in:], order[: r - k_in]
    correct = int(included[guessed_in].sum() + (~included[guessed_out]).sum())
    p = float(cp_lower(correct, r, 1.0 - confidence))
    bound = math.log(p / (1.0 - p)) if p > 0.5 else 0.0
    return OneRunAudit(lower_bound=bound, correct=correct, guesses=r, canaries=m, confidence=confidence)


def laplace_histogram(epsilon: float, scale_factor: float = 1.0) -> Callable:
    """A curator's histogram with one bin per canary and Laplace noise (Dwork et al. 2006).

    Adding or removing one record moves one count by 1 (sensitivity 1), so noise ``Laplace(1 / ε)``
    makes the release ε-DP for add/remove neighbours.

    Parameters
    ----------
    epsilon : float
        The ε claimed, > 0.
    scale_factor : float, default 1.0
        Noise scale ``scale_factor / ε``: below 1 is a deliberately broken mechanism (true ε
        ``epsilon / scale_factor``).

    Returns
    -------
    callable
        ``(included, rng) -> noisy count of each canary's bin``.

    Raises
    ------
    TypeError, ValueError
        If ``epsilon`` or ``scale_factor`` is not a positive number.

    Examples
    --------
    >>> import numpy as np
    >>> (laplace_histogram(1e9)(np.array([True, False]), 0).round(6) + 0.0).tolist()
    [1.0, 0.0]
    """
    scale = check_positive(scale_factor, "scale_factor") / check_positive(epsilon, "epsilon")

    def release(included, rng):
        counts = np.asarray(included, dtype=float)
        return counts + check_random_state(rng).laplace(0.0, scale, size=counts.shape)

    return release
