"""Auditing the (ε, δ) a randomizer really gives, from its outputs on two inputs.

A randomizer *claims* a privacy level: randomized response with θ claims ε = |ln(θ / (1 − θ))|
(notebook 03), the Laplace mechanism claims its ε (notebook 07), the Gaussian mechanism an
(ε, δ) pair. A bug or a wrong parameter can silently break the claim. (ε, δ)-differential privacy
says that for two neighbouring inputs x, x' and every set S of outputs

    P(M(x) ∈ S) ≤ e^ε · P(M(x') ∈ S) + δ,

so a *measured* pair of probabilities gives a *lower bound* on the ε the randomizer can have at
that δ (δ = 0: pure ε). This is the black-box auditing of Ding et al. (CCS 2018), Jagielski,
Ullman & Oprea (NeurIPS 2020) and Nasr et al. (S&P 2021): ``1 − FNR ≤ e^ε FPR + δ`` for the test
that rejects x0 in S. :func:`audit_epsilon` runs the randomizer many times on x0 and on x1 and
reads in four steps:

1. **split** the runs: a *selection* part (whose first half learns the scores, the second half
   tunes the event) and an *estimation* part. Choosing the event on the runs that estimate it
   would pick the luckiest event and overstate ε; on fresh runs the chosen event is a fixed set,
   so the bound holds as stated;
2. **choose** the Neyman–Pearson event ``score ≥ t`` (or ``≤ t``) of a learned likelihood
   ratio whose bound looks best (:mod:`ppdm_edu.audit._events`). A symmetric mechanism carries
   evidence in both tails; adding ``P1(A) ≤ e^ε P0(A) + δ`` and ``P0(B) ≤ e^ε P1(B) + δ`` gives
   one inequality with twice the runs (a *pooled* event), which may be chosen;
3. **count** the estimation runs in that event, among a Poisson number of runs of each input;
4. **bound** the *ratio* of the two probabilities in one exact test: given the total count, the
   numerator's share is binomial (Przyborowski & Wilenski 1940). The result is a statistically
   valid lower bound on ε at δ, at the stated confidence: if it exceeds the claimed ε, the claim
   is false (with that confidence).

Why one test of the ratio: bounding each probability on its own (``α / 2`` each, Bonferroni) and
dividing assumes both bounds sit at their worst ends at once; the conditional test spends the
whole ``α`` on the one quantity ε depends on (the measured gain: ``benchmarks/audit_bounds.md``).
:func:`audit_delta` keeps the two Clopper–Pearson bounds: a bound on δ is a difference of the
probabilities, not a ratio.

Examples
--------
>>> from ppdm_edu.audit import audit_epsilon
>>> from ppdm_edu.mechanisms import WarnerRR
>>> result = audit_epsilon(WarnerRR(0.75), 1, 0, trials=100_000, rng=0)
>>> round(result.lower_bound, 1)          # ln 3 = 1.10 is the claim
1.1
>>> bool(result.lower_bound <= 1.0987)
True
"""
from __future__ import annotations

import inspect
import math
import warnings
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from .._validation import check_integer, check_positive, check_probability
from ..mechanisms import Mechanism
from ..random_state import spawn_rngs
from ._events import Event, choose_event, learn_scores
from ._stats import check_confidence, delta_bound, poisson_epsilon_bound

__all__ = ["EpsilonAudit", "DeltaAudit", "audit_epsilon", "audit_delta", "MAX_TRIALS", "SELECTION_SHARE"]

#: The most runs per input the audits accept (each run stores one output: about
#: 0.8 GB of float64 outputs per input at this size; more is refused instead of exhausting memory).
MAX_TRIALS = 100_000_000
#: Share of the runs that choose the event; the rest estimate it. A few Neyman–Pearson
#: thresholds of one learned score need fewer runs to choose from than to estimate with.
SELECTION_SHARE = 0.2
#: Share of the selection runs that learn the scores (the rest tune the threshold on fresh runs).
_FIT_SHARE = 0.5
#: The Poisson number of estimation runs counted per input has mean ``n − 3 √n``: more than the
#: ``n`` runs there are (the audit then shows nothing) with probability about 0.1 % per input.
_POISSON_MARGIN = 3.0


@dataclass(frozen=True)
class EpsilonAudit:
    """The result of :func:`audit_epsilon`.

    Attributes
    ----------
    lower_bound : float
        A lower bound on ε at ``delta``, valid with probability ``confidence`` (0 when nothing
        is shown).
    event : str
        The output event S chosen on the selection runs, in words.
    direction : str
        ``"x0/x1"`` if the bound is on P(M(x0) ∈ S) against P(M(x1) ∈ S), ``"x1/x0"`` for the
        reverse, ``"pooled"`` for the sum of one event of each direction (two events, twice the runs).
    count_numerator : int
        How many counted estimation runs of the numerator input fell in S (both events' runs
        when pooled).
    count_denominator : int
        How many counted estimation runs of the denominator input fell in S.
    n_estimation : int
        Runs per input in the estimation part.
    trials : int
        Runs per input in all.
    confidence : float
        The confidence of the bound.
    expected_runs : float
        Mean of the Poisson number of estimation runs counted per input (a little below
        ``n_estimation``; see :func:`audit_epsilon`).
    ratio_lower : float
        Lower bound on ``P(M(numerator input) ∈ S) / P(M(denominator input) ∈ S)`` (each summed
        over the two events when pooled), from the numerator's share of the counted runs;
        ``lower_bound`` is the logarithm of this bound less δ's share, at least 0.
    delta : float
        The δ at which ε is bounded (0: pure ε).
    """

    lower_bound: float
    event: str
    direction: str
    count_numerator: int
    count_denominator: int
    n_estimation: int
    trials: int
    confidence: float
    expected_runs: float
    ratio_lower: float
    delta: float = 0.0

    def refutes(self, claimed_epsilon: float) -> bool:
        """True when the audit shows (at its confidence) more than ``claimed_epsilon`` at its δ.

        Parameters
        ----------
        claimed_epsilon : float
            The ε the randomizer claims at :attr:`delta`.

        Returns
        -------
        bool
            ``lower_bound > claimed_epsilon``.

        Examples
        --------
        >>> from ppdm_edu.mechanisms import WarnerRR
        >>> audit = audit_epsilon(WarnerRR(0.9), 1, 0, trials=20_000, rng=0)   # true ε = ln 9
        >>> audit.refutes(math.log(3)), audit.refutes(math.log(9) + 0.5)
        (True, False)
        """
        return self.lower_bound > float(claimed_epsilon)


@dataclass(frozen=True)
class DeltaAudit:
    """The result of :func:`audit_delta`.

    Attributes
    ----------
    lower_bound : float
        A lower bound on the δ the randomizer needs at ``epsilon``, valid with probability
        ``confidence``.
    epsilon : float
        The ε at which δ is bounded.
    event : str
        The output event chosen on the selection runs, in words.
    direction : str
        As in :class:`EpsilonAudit`.
    n_estimation : int
        Runs per input in the estimation part.
    trials : int
        Runs per input in all.
    confidence : float
        The confidence of the bound.
    """

    lower_bound: float
    epsilon: float
    event: str
    direction: str
    n_estimation: int
    trials: int
    confidence: float

    def refutes(self, claimed_delta: float) -> bool:
        """True when the audit shows (at its confidence) more than ``claimed_delta`` at its ε.

        Parameters
        ----------
        claimed_delta : float
            The δ the randomizer claims at :attr:`epsilon`.

        Returns
        -------
        bool
            ``lower_bound > claimed_delta``.
        """
        return self.lower_bound > float(claimed_delta)


# --------------------------------------------------------------------------------------------
# the runs
def _check_trials(trials) -> int:
    return check_integer(trials, "trials", minimum=4, maximum=MAX_TRIALS)


def as_randomizer(randomizer) -> Callable:
    """The ``(values, rng) -> outputs`` function an audit runs.

    A :class:`ppdm_edu.mechanisms.Mechanism` is run through its :meth:`~Mechanism.randomize`
    (the one randomizer interface of the package); any other callable must take ``(values, rng)``.
    A callable whose attribute ``ignores_rng`` is a (true) reason draws its own randomness: the
    audits warn when they are given a seed they cannot pass on.

    Parameters
    ----------
    randomizer : Mechanism or callable
        What to audit.

    Returns
    -------
    callable
        ``(values, rng) -> outputs``.

    Raises
    ------
    TypeError
        If ``randomizer`` is neither a Mechanism nor a callable of two arguments.

    Examples
    --------
    >>> from ppdm_edu.mechanisms import WarnerRR
    >>> import numpy as np
    >>> as_randomizer(WarnerRR(1.0))(np.array([1, 0]), 0).tolist()
    [1, 0]
    """
    if isinstance(randomizer, Mechanism):
        return randomizer.randomize
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
    return randomizer


def _warn_if_rng_ignored(randomizer, rng) -> None:
    reason = getattr(randomizer, "ignores_rng", None)
    if rng is not None and reason:
        warnings.warn(f"rng={rng!r} does not seed this randomizer ({reason}): two audits with one "
                      f"seed can differ", RuntimeWarning, stacklevel=3)


def run_twice(randomizer, x0, x1, trials: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """``trials`` outputs of the randomizer on ``x0`` and on ``x1`` (independent streams).

    Parameters
    ----------
    randomizer : Mechanism or callable
        What to run (see :func:`as_randomizer`).
    x0, x1 : scalar or 1-D array
        The two inputs (values, or records); they must differ.
    trials : int
        Runs per input.
    rng : None, int or numpy.random.Generator
        Seed.

    Returns
    -------
    (ndarray, ndarray)
        The outputs on ``x0`` and on ``x1``, one per run (rows for records or bit vectors).

    Raises
    ------
    ValueError
        If the inputs are equal or of different shapes, or the randomizer does not return one
        output per run (finite, if numeric).
    TypeError
        If the randomizer returns outputs that are neither numbers, bools nor strings.
    """
    run = as_randomizer(randomizer)
    trials = _check_trials(trials)
    a0, a1 = np.asarray(x0), np.asarray(x1)
    if a0.shape != a1.shape or a0.ndim > 1:
        raise ValueError(f"x0 and x1 must be two values or two records of the same length, got "
                         f"shapes {a0.shape} and {a1.shape}")
    if np.array_equal(a0, a1):
        raise ValueError(f"x0 and x1 must differ (an audit compares two inputs), got {x0!r} twice")
    outputs = []
    for x_name, a, stream in zip(("x0", "x1"), (a0, a1), spawn_rngs(rng, 2)):
        try:
            out = np.asarray(run(np.repeat(a[None, ...], trials, axis=0), stream))
        except (TypeError, ValueError) as err:  # the randomizer's own refusal of the input
            kind = TypeError if isinstance(err, TypeError) else ValueError
            raise kind(f"the randomizer refused {x_name} = {a.tolist()!r}: {err}") from err
        if out.shape[:1] != (trials,):
            raise ValueError(f"the randomizer returned {out.shape[0] if out.ndim else 'a scalar'} outputs "
                             f"for {trials} copies of {x_name}; it must return one output per input")
        if out.dtype.kind == "O":  # Python objects: strings or numbers become an array of them
            out = np.asarray(out.tolist())
        if out.dtype.kind not in "biufUS":
            example = out.ravel()[0] if out.size else None
            raise TypeError(f"the randomizer returned outputs of dtype {out.dtype} for {x_name} (e.g. "
                            f"{example!r}); it must return numbers, bools or strings, one per input")
        if out.dtype.kind == "f" and not np.isfinite(out).all():
            raise ValueError(f"the randomizer returned NaN or infinite outputs for {x_name}")
        outputs.append(out.reshape(trials, -1) if out.ndim > 2 else out)
    return outputs[0], outputs[1]


# --------------------------------------------------------------------------------------------
# split and count
class Parts(NamedTuple):
    """The runs of each input, in three parts that never overlap."""

    fit: tuple[np.ndarray, np.ndarray]    # learn the scores
    tune: tuple[np.ndarray, np.ndarray]   # choose the event (fresh runs: a learned table cannot flatter itself)
    est: tuple[np.ndarray, np.ndarray]    # bound the chosen event

    @property
    def selection(self) -> tuple[np.ndarray, np.ndarray]:
        """``fit`` and ``tune`` together (the runs a score that learns nothing may be tuned on)."""
        return np.concatenate([self.fit[0], self.tune[0]]), np.concatenate([self.fit[1], self.tune[1]])


def split(out0: np.ndarray, out1: np.ndarray, selection: float) -> Parts:
    """The runs cut into learning, tuning and estimation parts (the first ``selection`` share
    chooses: half of it learns, half tunes; the rest estimates).

    Parameters
    ----------
    out0, out1 : ndarray
        The outputs on x0 and on x1 (as many of each).
    selection : float
        Share of the runs that choose the event, in (0, 1).

    Returns
    -------
    Parts
        The three parts of each input's runs.
    """
    n = out0.shape[0]
    n_sel = min(max(int(round(n * selection)), 2), n - 2)
    n_fit = int(n_sel * _FIT_SHARE)
    return Parts((out0[:n_fit], out1[:n_fit]), (out0[n_fit:n_sel], out1[n_fit:n_sel]),
                 (out0[n_sel:], out1[n_sel:]))


def _count(events: tuple[Event, ...], out0: np.ndarray, out1: np.ndarray) -> tuple[int, int]:
    """(numerator, denominator) runs in the chosen event(s), summed over a pooled pair."""
    k_num = k_den = 0
    for event in events:
        kn, kd = event.counts(out0, out1)
        k_num, k_den = k_num + kn, k_den + kd
    return k_num, k_den


# --------------------------------------------------------------------------------------------
def audit_epsilon(randomizer, x0, x1, *, trials: int, confidence: float = 0.95, delta: float = 0.0,
                  selection: float = SELECTION_SHARE, rng=None) -> EpsilonAudit:
    """A statistically valid lower bound on the ε of a randomizer at a given δ, from its outputs.

    Parameters
    ----------
    randomizer : Mechanism or callable
        Any :class:`ppdm_edu.mechanisms.Mechanism` (run through its ``randomize``), or
        ``randomizer(values, rng) -> outputs`` with one output (number, bool, string or row of
        them) per input. Continuous outputs need no binning: the audit cuts them at quantiles of
        its selection runs.
    x0, x1 : scalar or 1-D array
        The two neighbouring inputs (values, or records for a record-level randomizer); they
        must differ. The bound is on ε for *this* pair (the neighbour relation it stands for).
    trials : int
        Runs per input, from 4 to :data:`MAX_TRIALS`.
    confidence : float, default 0.95
        Probability that the returned bound does not exceed the randomizer's true ε at ``delta``,
        in [0.5, 1).
    delta : float, default 0.0
        The δ at which ε is bounded, in [0, 1). 0 keeps the pure-ε meaning.
    selection : float, default SELECTION_SHARE
        Share of the runs that choose the event (the rest estimate it), in (0, 1).
    rng : None, int or numpy.random.Generator
        Seed; the runs on ``x0``, the runs on ``x1`` and the Poisson numbers of counted runs use
        independent streams. A randomizer that draws its own randomness (``ignores_rng``, e.g.
        OpenDP's) is not seeded by it: a warning says so.

    Returns
    -------
    EpsilonAudit
        The bound, the event and the counts behind it.

    Notes
    -----
    The steps, each on runs the previous ones did not see:

    1. *split*: a share ``selection`` of each input's runs chooses; the rest estimates.
    2. *choose*: the scores are learned on half the selection runs; the thresholds of a learned
       score are tuned on the other half, those of the output itself (nothing learned) on all
       of them. A candidate's value is the bound the estimation runs would give at its tuning
       shares, less 2 standard errors of its tuning estimate (the best of many noisy
       estimates looks better than it is). An event of each direction may be pooled
       (``P1(A) + P0(B) <= e^ε (P0(A) + P1(B)) + 2δ``) when A and B are disjoint.
    3. *count*: ``L0, L1 ~ Poisson(n − 3√n)`` of the ``n`` estimation runs of each input are
       counted (more than ``n`` drawn for either input, about 0.3 % of the time: the bound is 0).
       Counts of disjoint events among a Poisson number of independent runs are independent
       Poisson variables (the splitting property, e.g. Mitzenmacher & Upfal 2005, ch. 5), so the
       numerator count ``K_num`` and the denominator count ``K_den`` are, even for a pooled pair
       (with a fixed number of runs its two counts would be slightly dependent).
    4. *bound*: given ``m = K_num + K_den``, ``K_num ~ Binomial(m, μ_num / (μ_num + μ_den))``;
       its one-sided Clopper–Pearson bound at error ``1 − confidence`` bounds ``μ_num / μ_den``,
       and ``e^ε >= μ_num / μ_den − (expected runs) · δ / μ_den`` (with δ > 0 a tenth of the error
       goes to a lower bound on ``μ_den``).

    Raises
    ------
    TypeError
        If ``randomizer`` is not a Mechanism or a callable of two arguments ``(values, rng)``,
        ``trials`` is not a number, or the randomizer's outputs are not numbers, bools or strings.
    ValueError
        If ``trials``, ``confidence``, ``delta`` or ``selection`` is out of range, ``x0`` and
        ``x1`` are equal or of different shapes, or the randomizer does not return one output
        per run (finite, if numeric).

    Examples
    --------
    >>> from ppdm_edu.mechanisms import GaussianNoiseMechanism, WarnerRR
    >>> broken = WarnerRR(0.9)          # claims ln 3 but tells the truth 90 % of the time
    >>> audit_epsilon(broken, 1, 0, trials=20_000, rng=1).refutes(math.log(3))
    True
    >>> gauss = GaussianNoiseMechanism.for_epsilon(1.0, delta=1e-5)
    >>> audit = audit_epsilon(gauss, 0.0, 1.0, trials=100_000, delta=gauss.delta, rng=0)
    >>> bool(0.4 < audit.lower_bound <= 1.0)
    True
    """
    trials = _check_trials(trials)
    confidence = check_confidence(confidence)
    delta = check_positive(delta, "delta", allow_zero=True)
    if delta >= 1:
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")
    selection = check_probability(selection, "selection", open_interval=True)
    _warn_if_rng_ignored(randomizer, rng)
    runs_rng, count_rng = spawn_rngs(rng, 2)
    alpha = 1.0 - confidence  # one test of the ratio, not a bound on each probability

    def objective(k_num, k_den, runs):
        return poisson_epsilon_bound(k_num, k_den, runs, alpha, delta).epsilon

    # 1. split
    parts = split(*run_twice(randomizer, x0, x1, trials, runs_rng), selection)
    n_est = parts.est[0].shape[0]
    mean = max(n_est - _POISSON_MARGIN * math.sqrt(n_est), 0.0)
    # 2. choose: learned scores on the runs they did not learn from, the output on all of them
    scores = learn_scores(*parts.fit)
    choice = max(choose_event([s for s in scores if s.fitted], *parts.tune, objective, target=mean,
                              disjoint_pairs=True),
                 choose_event([s for s in scores if not s.fitted], *parts.selection, objective,
                              target=mean, disjoint_pairs=True),
                 key=lambda c: c.value)
    # 3. count among L0, L1 ~ Poisson(mean) runs, drawn independently of the runs
    n0, n1 = (int(v) for v in count_rng.poisson(mean, size=2))
    k_num, k_den = (0, 0) if n0 > n_est or n1 > n_est else _count(choice.events, parts.est[0][:n0],
                                                                    parts.est[1][:n1])
    # 4. bound
    bound = poisson_epsilon_bound(k_num, k_den, mean * len(choice.events), alpha, delta)
    event, direction = choice.describe()
    return EpsilonAudit(lower_bound=float(bound.epsilon), event=event, direction=direction,
                        count_numerator=k_num, count_denominator=k_den, n_estimation=n_est,
                        trials=trials, confidence=confidence, expected_runs=mean,
                        ratio_lower=float(bound.ratio), delta=delta)


def audit_delta(randomizer, x0, x1, *, epsilon: float, trials: int, confidence: float = 0.95,
                selection: float = SELECTION_SHARE, rng=None) -> DeltaAudit:
    """A statistically valid lower bound on the δ a randomizer needs at a given ε.

    The dual of :func:`audit_epsilon`: ``δ ≥ P(M(x) ∈ S) − e^ε P(M(x') ∈ S)`` for every event S
    (the hockey-stick divergence). Additive uniform noise has no finite ε, and its audited ε
    grows with the runs; its δ at any finite ε is a stable number: the share of outputs only
    one of the two inputs can produce.

    The same steps as :func:`audit_epsilon` with a fixed number of runs: split; choose (every
    score tuned on the runs it did not learn from); count the event on all the estimation runs;
    bound each probability by Clopper–Pearson at half the error (Bonferroni: the difference holds
    when both bounds do).

    Parameters
    ----------
    randomizer : Mechanism or callable
        As in :func:`audit_epsilon`.
    x0, x1 : scalar or 1-D array
        The two neighbouring inputs.
    epsilon : float
        The ε at which δ is bounded, ≥ 0.
    trials : int
        Runs per input, from 4 to :data:`MAX_TRIALS`.
    confidence : float, default 0.95
        Probability that the bound does not exceed the true δ at ``epsilon``, in [0.5, 1).
    selection : float, default SELECTION_SHARE
        Share of the runs that choose the event.
    rng : None, int or numpy.random.Generator
        Seed (as in :func:`audit_epsilon`).

    Returns
    -------
    DeltaAudit
        The bound and its event.

    Raises
    ------
    TypeError, ValueError
        As :func:`audit_epsilon`, and if ``epsilon`` is negative or not finite.

    Examples
    --------
    >>> from ppdm_edu.mechanisms import UniformNoiseMechanism
    >>> uniform = UniformNoiseMechanism.for_privacy(1.0)     # 100 % privacy on [0, 1]
    >>> [round(audit_delta(uniform, 0.0, 1.0, epsilon=1.0, trials=t, rng=0).lower_bound, 3)
    ...  for t in (1_000, 10_000, 100_000)]      # the true δ is 0.95 at every finite ε
    [0.899, 0.938, 0.945]
    """
    trials = _check_trials(trials)
    confidence = check_confidence(confidence)
    epsilon = check_positive(epsilon, "epsilon", allow_zero=True)
    selection = check_probability(selection, "selection", open_interval=True)
    _warn_if_rng_ignored(randomizer, rng)
    alpha = (1.0 - confidence) / 2.0  # each of the two probabilities

    def objective(k_num, k_den, n):
        return delta_bound(k_num, k_den, n, alpha, epsilon)

    parts = split(*run_twice(randomizer, x0, x1, trials, rng), selection)      # 1. split
    choice = choose_event(learn_scores(*parts.fit), *parts.tune, objective)   # 2. choose
    k_num, k_den = _count(choice.events, *parts.est)                         # 3. count
    n_est = parts.est[0].shape[0]
    bound = delta_bound(k_num, k_den, n_est * len(choice.events), alpha, epsilon)  # 4. bound
    event, direction = choice.describe()
    return DeltaAudit(lower_bound=float(bound), epsilon=epsilon, event=event, direction=direction,
                      n_estimation=n_est, trials=trials, confidence=confidence)
