"""Auditing the ε a randomizer really gives, from its outputs alone.

A randomizer *claims* a privacy level: randomized response with θ claims
ε = |ln(θ / (1 − θ))| (notebook 03), the Laplace mechanism claims its ε (notebook 07). A bug or a
wrong parameter can silently break the claim. ε-local differential privacy says that for any two
inputs x0, x1 and every set S of outputs

    P(M(x0) ∈ S) ≤ e^ε · P(M(x1) ∈ S),

so a *measured* pair of probabilities gives a *lower bound* on the ε the randomizer can have.
:func:`audit_epsilon` runs the randomizer many times on x0 and on x1, chooses the output event S
on one half of the runs, and bounds P(M(x0) ∈ S) from below and P(M(x1) ∈ S) from above on the
other half with exact Clopper–Pearson intervals. The ratio of those bounds is a statistically
valid lower bound on ε at the stated confidence: if it exceeds the claimed ε, the claim is false
(with that confidence). This is the black-box auditing idea of Ding et al. (CCS 2018) and
Jagielski, Ullman & Oprea (NeurIPS 2020), in its simplest exact form.

Why two halves: choosing the event on the same runs that estimate its probabilities would pick
the luckiest event and overstate ε; on fresh runs the chosen event is a fixed set, so the
Clopper–Pearson bounds hold as stated.

Examples
--------
>>> from ppdm_edu.audit import audit_epsilon, warner_randomizer
>>> result = audit_epsilon(warner_randomizer(0.75), 1, 0, trials=100_000, rng=0)
>>> round(result.lower_bound, 1)          # ln 3 = 1.10 is the claim
1.1
>>> bool(result.lower_bound <= 1.0987)
True
"""
from __future__ import annotations

import inspect
import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np
from scipy import stats

from .ldp import laplace_mechanism
from .random_state import spawn_rngs
from .randomization import Noise
from .randomized_response import mrr_disguise, warner_disguise
from .validation import check_finite_array, check_probability

if TYPE_CHECKING:  # for the annotation only: at run time a Mechanism is recognised by audit_view
    from .mechanisms import Mechanism

__all__ = [
    "EpsilonAudit",
    "audit_epsilon",
    "warner_randomizer",
    "mrr_randomizer",
    "laplace_randomizer",
    "additive_noise_randomizer",
    "MAX_TRIALS",
]

#: The most runs per input :func:`audit_epsilon` accepts (each run stores one output: about
#: 0.8 GB of float64 outputs per input at this size; more is refused instead of exhausting memory).
MAX_TRIALS = 100_000_000


@dataclass(frozen=True)
class EpsilonAudit:
    """The result of :func:`audit_epsilon`.

    Attributes
    ----------
    lower_bound : float
        A lower bound on ε valid with probability ``confidence`` (0 when nothing is shown).
    event : str
        The output event S chosen on the selection half, in words.
    direction : str
        ``"x0/x1"`` if the bound is on ln P(M(x0) ∈ S) / P(M(x1) ∈ S), else ``"x1/x0"``.
    count_numerator : int
        How many estimation-half runs of the numerator input fell in S.
    count_denominator : int
        How many estimation-half runs of the denominator input fell in S.
    n_estimation : int
        Runs per input in the estimation half.
    trials : int
        Runs per input in all.
    confidence : float
        The confidence of the bound.
    p_numerator_lower : float
        One-sided Clopper–Pearson lower bound on P(M(numerator input) ∈ S).
    p_denominator_upper : float
        One-sided Clopper–Pearson upper bound on P(M(denominator input) ∈ S); the log-ratio
        of the two is ``lower_bound``.
    """

    lower_bound: float
    event: str
    direction: str
    count_numerator: int
    count_denominator: int
    n_estimation: int
    trials: int
    confidence: float
    p_numerator_lower: float
    p_denominator_upper: float

    def refutes(self, claimed_epsilon: float) -> bool:
        """True when the audit shows (at its confidence) more than ``claimed_epsilon``.

        Parameters
        ----------
        claimed_epsilon : float
            The ε the randomizer claims.

        Returns
        -------
        bool
            ``lower_bound > claimed_epsilon``.

        Examples
        --------
        >>> audit = audit_epsilon(warner_randomizer(0.75), 1, 0, trials=20_000, rng=0)
        >>> audit.refutes(math.log(3)), audit.refutes(0.0)
        (False, True)
        """
        return self.lower_bound > float(claimed_epsilon)


# --------------------------------------------------------------------------------------------
def _check_trials(trials) -> int:
    if isinstance(trials, bool) or not isinstance(trials, numbers.Integral):
        raise TypeError(f"trials must be an integer, got {trials!r}")
    if not 4 <= int(trials) <= MAX_TRIALS:
        raise ValueError(f"trials must be from 4 to {MAX_TRIALS:,} (runs per input), got {trials}")
    return int(trials)


def _codes(outputs, trials: int, x_name: str) -> np.ndarray:
    """Outputs as a 1-D array, one per run (records are encoded as row ids by the caller)."""
    out = np.asarray(outputs)
    if out.shape[:1] != (trials,):
        raise ValueError(f"the randomizer returned {out.shape[0] if out.ndim else 'a scalar'} outputs "
                         f"for {trials} copies of {x_name}; it must return one output per input")
    if out.dtype.kind == "f" and not np.isfinite(out).all():
        raise ValueError(f"the randomizer returned NaN or infinite outputs for {x_name}")
    return out


def _encode(out0: np.ndarray, out1: np.ndarray):
    """Common integer codes for the outputs of both inputs (rows of records are one output)."""
    both = np.concatenate([out0, out1])
    if both.ndim > 1:
        values, codes = np.unique(both.reshape(len(both), -1), axis=0, return_inverse=True)
    else:
        values, codes = np.unique(both, return_inverse=True)
    codes = codes.ravel()
    return values, codes[: len(out0)], codes[len(out0):]


def _cp_lower(k: np.ndarray | int, n: int, alpha: float) -> np.ndarray:
    """One-sided Clopper–Pearson lower bound: P(p < bound) ≤ alpha."""
    k = np.asarray(k, dtype=float)
    return np.where(k > 0, stats.beta.ppf(alpha, np.maximum(k, 1), n - k + 1), 0.0)


def _cp_upper(k: np.ndarray | int, n: int, alpha: float) -> np.ndarray:
    """One-sided Clopper–Pearson upper bound: P(p > bound) ≤ alpha."""
    k = np.asarray(k, dtype=float)
    return np.where(k < n, stats.beta.ppf(1.0 - alpha, k + 1, np.maximum(n - k, 1)), 1.0)


def _candidate_events(n_values: int, ordered: bool):
    """Boolean masks over output codes: every single output, and for ordered outputs every
    "≤ t" and "> t" set (tails carry the evidence for continuous mechanisms)."""
    eye = np.eye(n_values, dtype=bool)
    names = [("value", i) for i in range(n_values)]
    masks = [eye]
    if ordered and n_values > 2:
        lower = np.tril(np.ones((n_values, n_values), dtype=bool))[:-1]  # codes <= t
        masks += [lower, ~lower]
        names += [("<=", t) for t in range(n_values - 1)] + [(">", t) for t in range(n_values - 1)]
    return np.concatenate(masks), names


def audit_epsilon(randomizer: Callable | Mechanism, x0, x1, *, trials: int, confidence: float = 0.95,
                  rng=None) -> EpsilonAudit:
    """A statistically valid lower bound on the ε of a randomizer, from its outputs.

    Parameters
    ----------
    randomizer : callable or Mechanism
        ``randomizer(values, rng) -> outputs``: one output per input value (or record), or any
        :class:`ppdm_edu.mechanisms.Mechanism` (audited through its ``audit_view()``). Outputs
        are compared for equality, so a continuous mechanism must bin its outputs (see the
        adapters :func:`laplace_randomizer` and :func:`additive_noise_randomizer`).
    x0, x1 : scalar or 1-D array
        The two inputs (values, or records for a record-level randomizer); they must differ.
    trials : int
        Runs per input, from 4 to :data:`MAX_TRIALS`; half choose the event, half estimate it.
    confidence : float, default 0.95
        Probability that the returned bound does not exceed the randomizer's true ε.
    rng : None, int or numpy.random.Generator
        Seed; the runs on ``x0`` and on ``x1`` use independent streams.

    Returns
    -------
    EpsilonAudit
        The bound, the event and the counts behind it.

    Raises
    ------
    TypeError
        If ``randomizer`` is not callable with two arguments ``(values, rng)`` or ``trials``
        is not an integer.
    ValueError
        If ``trials`` or ``confidence`` is out of range, ``x0`` and ``x1`` are equal or of
        different shapes, or the randomizer does not return one output per run (finite, if numeric).

    Examples
    --------
    >>> broken = warner_randomizer(0.9)          # claims ln 3 but tells the truth 90 % of the time
    >>> audit_epsilon(broken, 1, 0, trials=20_000, rng=1).refutes(math.log(3))
    True
    """
    # a ppdm_edu.mechanisms.Mechanism is audited through its own view (continuous reports binned)
    view = getattr(randomizer, "audit_view", None)
    if callable(view):
        randomizer = view()
    if not callable(randomizer):
        raise TypeError(f"randomizer must be a callable (values, rng) -> outputs or a "
                        f"ppdm_edu.mechanisms.Mechanism, got {randomizer!r}")
    try:
        inspect.signature(randomizer).bind(None, None)
    except TypeError:
        raise TypeError(f"randomizer must take two arguments (values, rng) -> outputs, got "
                        f"{getattr(randomizer, '__name__', randomizer)!r} with signature "
                        f"{inspect.signature(randomizer)}") from None
    except ValueError:  # no signature to inspect (some builtins): the call will tell
        pass
    trials = _check_trials(trials)
    confidence = check_probability(confidence, "confidence", open_interval=True)
    a0, a1 = np.asarray(x0), np.asarray(x1)
    if a0.shape != a1.shape or a0.ndim > 1:
        raise ValueError(f"x0 and x1 must be two values or two records of the same length, got "
                         f"shapes {a0.shape} and {a1.shape}")
    if np.array_equal(a0, a1):
        raise ValueError(f"x0 and x1 must differ (an audit compares two inputs), got {x0!r} twice")
    rng0, rng1 = spawn_rngs(rng, 2)
    out0 = _codes(randomizer(np.repeat(a0[None, ...], trials, axis=0), rng0), trials, "x0")
    out1 = _codes(randomizer(np.repeat(a1[None, ...], trials, axis=0), rng1), trials, "x1")
    values, c0, c1 = _encode(out0, out1)
    n_values = len(values)
    ordered = values.ndim == 1 and values.dtype.kind in "iuf"
    masks, names = _candidate_events(n_values, ordered)

    # half for choosing the event, half for estimating it (the runs are i.i.d.)
    half = trials // 2
    n_est = trials - half
    alpha = (1.0 - confidence) / 2.0  # Bonferroni: one bound on each probability
    sel0 = np.bincount(c0[:half], minlength=n_values)
    sel1 = np.bincount(c1[:half], minlength=n_values)
    est0 = np.bincount(c0[half:], minlength=n_values)
    est1 = np.bincount(c1[half:], minlength=n_values)
    k_sel0, k_sel1 = masks.astype(np.int64) @ sel0, masks.astype(np.int64) @ sel1

    # The direction (which input is the numerator) and the event are both chosen on the
    # selection half; the estimation half then bounds ONE ratio. Keeping the larger of two
    # ratios bounded on the same estimation half would be a union of two tests: at most
    # 1 - 2 * (1 - confidence) (e.g. 90 % for a stated 95 %; issue 27).
    candidates = []
    for direction, k_num, k_den, e_num, e_den in (("x0/x1", k_sel0, k_sel1, est0, est1),
                                                   ("x1/x0", k_sel1, k_sel0, est1, est0)):
        # the event whose *conservative* ratio looks largest on the selection half
        score = np.log(np.maximum(_cp_lower(k_num, half, alpha), 1e-300)) - np.log(
            _cp_upper(k_den, half, alpha))
        j = int(np.argmax(score))
        candidates.append((float(score[j]), direction, j, e_num, e_den))
    # ties (e.g. a symmetric randomizer) keep x0/x1: max returns the first of equal scores
    _, direction, j, e_num, e_den = max(candidates, key=lambda c: c[0])
    kn, kd = int(masks[j].astype(np.int64) @ e_num), int(masks[j].astype(np.int64) @ e_den)
    # Bonferroni over the two one-sided Clopper-Pearson bounds (alpha each): the ratio of the
    # bounds exceeds the true ratio with probability <= 1 - confidence
    p_low = float(_cp_lower(kn, n_est, alpha))
    p_up = float(_cp_upper(kd, n_est, alpha))
    bound = max(0.0, math.log(p_low / p_up)) if p_low > 0 else 0.0
    kind, t = names[j]
    if kind == "value":
        event = f"output = {values[t].tolist()!r}"
    else:
        event = f"output {kind} {values[t].tolist()!r}"
    return EpsilonAudit(lower_bound=bound, event=event, direction=direction, count_numerator=kn,
                        count_denominator=kd, n_estimation=n_est, trials=trials,
                        confidence=confidence, p_numerator_lower=p_low, p_denominator_upper=p_up)


# --------------------------------------------------------------------------------------------
# adapters: the course's mechanisms as (values, rng) -> outputs
def warner_randomizer(theta: float) -> Callable:
    """Warner's randomized response with ``theta`` (Du & Zhan Sec. 3) as an auditable randomizer.

    Parameters
    ----------
    theta : float
        Probability of answering the true question.

    Returns
    -------
    callable
        ``(answers, rng) -> disguised answers``.

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
    warner_disguise(np.zeros(1, dtype=int), theta, rng=0)  # validates theta now, not in the audit
    return lambda values, rng: warner_disguise(values, theta, rng=rng)


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
    mrr_disguise(np.zeros((1, 1), dtype=int), theta, rng=0)
    return lambda values, rng: np.asarray(mrr_disguise(np.atleast_2d(values), theta, rng=rng))


def _binner(bins) -> np.ndarray:
    edges = check_finite_array(bins, "bins")
    if edges.ndim != 1 or edges.size < 2 or not np.all(np.diff(edges) > 0) or not np.isfinite(edges).all():
        raise ValueError(f"bins must be at least two increasing finite edges, got {bins!r}")
    return edges


def laplace_randomizer(epsilon: float, bounds=(0.0, 1.0), bins=None) -> Callable:
    """The Laplace mechanism of :func:`ppdm_edu.ldp.laplace_mechanism`, outputs binned.

    Parameters
    ----------
    epsilon : float
        The ε it claims.
    bounds : tuple of float, default (0, 1)
        The attribute's range (sensitivity ``high - low``).
    bins : array_like, optional
        Bin edges for the outputs (outputs outside fall in the two open end bins). Default: 40
        bins over the range widened by 5 noise scales on each side.

    Returns
    -------
    callable
        ``(values, rng) -> bin index of each output``. Binning can only lose evidence: a bound
        on the binned outputs is a valid bound for the mechanism.

    Raises
    ------
    ValueError
        If ``epsilon`` or ``bounds`` is invalid (checked now) or ``bins`` is not at least two
        increasing finite edges.

    Examples
    --------
    >>> import numpy as np
    >>> idx = laplace_randomizer(1.0)(np.full(1000, 0.5), 0)
    >>> bool(idx.min() >= 0 and idx.max() <= 41)   # 41 edges: bin indices 0..41
    True
    """
    laplace_mechanism(np.array([bounds[0]]), epsilon, bounds, rng=0)  # validates them first
    low, high = (float(b) for b in bounds)
    scale = (high - low) / float(epsilon)
    edges = _binner(np.linspace(low - 5 * scale, high + 5 * scale, 41) if bins is None else bins)
    return lambda values, rng: np.searchsorted(
        edges, laplace_mechanism(values, epsilon, bounds, rng=rng), side="right")


def additive_noise_randomizer(noise: Noise, bins) -> Callable:
    """Additive value distortion ``x + r`` (Agrawal & Srikant Sec. 2) with binned outputs.

    Parameters
    ----------
    noise : Noise
        The noise (uniform, Gaussian, Laplace, ...).
    bins : array_like
        Bin edges for the perturbed values: they decide what the audit can see. With uniform
        noise, bins that separate the supports of ``x0 + r`` and ``x1 + r`` expose outputs only
        one input can produce, so the bound grows without limit with the trials: additive
        uniform noise has no finite ε.

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
    return lambda values, rng: np.searchsorted(
        edges, np.asarray(values, dtype=float) + noise.sample(np.shape(values), rng), side="right")
