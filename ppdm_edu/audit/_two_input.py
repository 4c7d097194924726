"""Auditing the (ε, δ) a randomizer really gives, from its outputs on two inputs.

A randomizer *claims* a privacy level: randomized response with θ claims ε = |ln(θ / (1 − θ))|
(notebook 03), the Laplace mechanism claims its ε (notebook 07), the Gaussian mechanism an
(ε, δ) pair. A bug or a wrong parameter can silently break the claim. (ε, δ)-differential privacy
says that for two neighbouring inputs x, x' and every set S of outputs

    P(M(x) ∈ S) ≤ e^ε · P(M(x') ∈ S) + δ,

so a *measured* pair of probabilities gives a *lower bound* on the ε the randomizer can have at
that δ (δ = 0: pure ε). :func:`audit_epsilon` runs the randomizer many times on x0 and on x1:

1. on the **selection** part of the runs it learns a score (an estimate of the likelihood ratio
   ``P(output | x1) / P(output | x0)``) and picks the Neyman–Pearson event ``score ≥ t`` (or
   ``≤ t``) whose bound looks best;
2. on the **estimation** part it counts the runs in that fixed event, among a Poisson number of
   runs of each input, and bounds the *ratio* of the two probabilities in one exact test: given
   the total count, the numerator's share is binomial (Przyborowski & Wilenski 1940). The result
   is a statistically valid lower bound on ε at δ, at the stated confidence: if it exceeds the
   claimed ε, the claim is false (with that confidence).

This is the black-box auditing of Ding et al. (CCS 2018), Jagielski, Ullman & Oprea (NeurIPS 2020)
and Nasr et al. (S&P 2021): ``1 − FNR ≤ e^ε FPR + δ`` for the test that rejects x0 in S.
A symmetric mechanism carries evidence in both tails; adding the two inequalities
``P1(A) ≤ e^ε P0(A) + δ`` and ``P0(B) ≤ e^ε P1(B) + δ`` gives one with twice the runs
(a *pooled* event), which the selection part may choose.

Why two parts: choosing the event on the same runs that estimate its probabilities would pick
the luckiest event and overstate ε; on fresh runs the chosen event is a fixed set, so the
bounds hold as stated.

Why one test of the ratio: bounding each probability on its own (``α / 2`` each, Bonferroni) and
dividing assumes both bounds sit at their worst ends at once. The conditional test spends the
whole ``α`` on the one quantity ε depends on. With it, and the event chosen for the bound the
estimation runs will give (Notes of :func:`audit_epsilon`), the Gaussian mechanism at ε = 1,
δ = 1e-5 and 100,000 runs gets a median bound of 0.63 over 50 seeds, where bounding each
probability gave 0.55 (``benchmarks/audit_bounds.md``). :func:`audit_delta` keeps the two
Clopper–Pearson bounds: a bound on δ is a difference of the probabilities, not a ratio.

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
import numbers
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from .._validation import check_positive, check_probability
from ..mechanisms import Mechanism
from ..random_state import spawn_rngs
from ._stats import delta_bound, poisson_epsilon_bound, ratio_lower

__all__ = ["EpsilonAudit", "DeltaAudit", "audit_epsilon", "audit_delta", "MAX_TRIALS", "SELECTION_SHARE"]

#: The most runs per input the audits accept (each run stores one output: about
#: 0.8 GB of float64 outputs per input at this size; more is refused instead of exhausting memory).
MAX_TRIALS = 100_000_000
#: Share of the runs that choose the event; the rest estimate it. A few Neyman–Pearson
#: thresholds of one learned score need fewer runs to choose from than to estimate with.
SELECTION_SHARE = 0.2
#: Outputs with more distinct numbers than this (in the selection half) are treated as continuous
#: and cut into cells at quantiles of the selection half.
_MAX_CELLS = 64
#: At most this many thresholds per score are tried (quantiles of the score when it has more values).
_MAX_THRESHOLDS = 200
#: How many standard errors of its tuning estimate a candidate event is marked down by when the
#: ε audit chooses (see :func:`choose_event`). Measured over 200 seeds: on the Gaussian mechanism
#: (ε = 1, δ = 1e-5, 100,000 runs) 1.5 and 2 give the same median bound, 2.5 a lower one; on
#: Laplace, OUE (20,000 runs) 2 keeps the worst seeds from small lucky events (Laplace's
#: lowest bound 0.33 at 1.5, 0.73 at 2), and 1 leaves a few seeds near 0 everywhere.
_TUNING_PENALTY = 2.0


@dataclass(frozen=True)
class EpsilonAudit:
    """The result of :func:`audit_epsilon`.

    Attributes
    ----------
    lower_bound : float
        A lower bound on ε at ``delta``, valid with probability ``confidence`` (0 when nothing
        is shown).
    event : str
        The output event S chosen on the selection half, in words.
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
        The output event chosen on the selection half, in words.
    direction : str
        As in :class:`EpsilonAudit`.
    n_estimation : int
        Runs per input in the estimation half.
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
# inputs and runs
def _check_trials(trials) -> int:
    if isinstance(trials, bool) or not isinstance(trials, numbers.Integral):
        raise TypeError(f"trials must be an integer, got {trials!r}")
    if not 4 <= int(trials) <= MAX_TRIALS:
        raise ValueError(f"trials must be from 4 to {MAX_TRIALS:,} (runs per input), got {trials}")
    return int(trials)


def as_randomizer(randomizer) -> Callable:
    """The ``(values, rng) -> outputs`` function an audit runs.

    A :class:`ppdm_edu.mechanisms.Mechanism` is run through its :meth:`~Mechanism.randomize`
    (the one randomizer interface of the package); any other callable must take ``(values, rng)``.

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


def _check_output(outputs, trials: int, x_name: str) -> np.ndarray:
    out = np.asarray(outputs)
    if out.shape[:1] != (trials,):
        raise ValueError(f"the randomizer returned {out.shape[0] if out.ndim else 'a scalar'} outputs "
                         f"for {trials} copies of {x_name}; it must return one output per input")
    if out.dtype.kind == "f" and not np.isfinite(out).all():
        raise ValueError(f"the randomizer returned NaN or infinite outputs for {x_name}")
    if out.ndim > 2:
        out = out.reshape(trials, -1)
    return out


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
    """
    run = as_randomizer(randomizer)
    trials = _check_trials(trials)
    a0, a1 = np.asarray(x0), np.asarray(x1)
    if a0.shape != a1.shape or a0.ndim > 1:
        raise ValueError(f"x0 and x1 must be two values or two records of the same length, got "
                         f"shapes {a0.shape} and {a1.shape}")
    if np.array_equal(a0, a1):
        raise ValueError(f"x0 and x1 must differ (an audit compares two inputs), got {x0!r} twice")
    rng0, rng1 = spawn_rngs(rng, 2)
    out0 = _check_output(run(np.repeat(a0[None, ...], trials, axis=0), rng0), trials, "x0")
    out1 = _check_output(run(np.repeat(a1[None, ...], trials, axis=0), rng1), trials, "x1")
    return out0, out1


# --------------------------------------------------------------------------------------------
# scores learned on the selection half: higher = likelier from x1 than from x0
class Score(NamedTuple):
    """A function of the outputs, learned on the selection half (higher: likelier from x1)."""

    name: str
    of: Callable[[np.ndarray], np.ndarray]
    describe: Callable[[str, float], str]
    #: False for a score that learns nothing (the output itself): its thresholds may be chosen
    #: on all the selection runs, not only on those the learned scores did not see
    fitted: bool = True


def _keys(out: np.ndarray) -> np.ndarray:
    """One sortable key per output (a row of a record or bit vector becomes one bytes key)."""
    if out.ndim == 1:
        return out
    row = np.ascontiguousarray(out)
    return row.view(np.dtype((np.void, row.dtype.itemsize * row.shape[1]))).ravel()


def _log_ratio(c1: np.ndarray, c0: np.ndarray) -> np.ndarray:
    # add-½ smoothing: an output seen only from one input gets a large finite ratio, not ±inf
    return np.log((c1 + 0.5) / (c0 + 0.5))


def _lookup(table_keys: np.ndarray, table: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """``table`` at each key (0 for keys the selection half never saw)."""
    pos = np.clip(np.searchsorted(table_keys, keys), 0, table_keys.size - 1)
    return np.where(table_keys[pos] == keys, table[pos], 0.0)


def _value_ratio_table(sel0: np.ndarray, sel1: np.ndarray):
    """Estimated log likelihood ratio of each distinct output (key) of the selection half."""
    k0, k1 = _keys(sel0), _keys(sel1)
    values, codes = np.unique(np.concatenate([k0, k1]), return_inverse=True)
    codes = codes.ravel()
    c0 = np.bincount(codes[: k0.size], minlength=values.size)
    c1 = np.bincount(codes[k0.size:], minlength=values.size)
    return values, _log_ratio(c1, c0)


def _is_numeric(out: np.ndarray) -> bool:
    return out.ndim == 1 and out.dtype.kind in "iuf"


def _continuous_edges(sel0: np.ndarray, sel1: np.ndarray) -> np.ndarray | None:
    """Cell edges at quantiles of the selection half, finer in the tails (where the evidence of
    Laplace or Gaussian noise lies), or None when the outputs take few values."""
    both = np.concatenate([sel0, sel1]).astype(float)
    if np.unique(both).size <= _MAX_CELLS:
        return None
    tail = 0.5 ** np.arange(3, max(4, int(math.log2(both.size)) - 3))  # 1/8, 1/16, ... ~16 runs
    levels = np.unique(np.concatenate([np.linspace(0, 1, 17)[1:-1], tail, 1 - tail]))
    return np.unique(np.quantile(both, levels))


def learn_scores(sel0: np.ndarray, sel1: np.ndarray) -> list[Score]:
    """The candidate scores, learned on the selection outputs of x0 and x1.

    * the output itself, for 1-D numbers (its tails are the Neyman–Pearson events of any
      monotone likelihood ratio: Laplace, Gaussian, geometric noise);
    * the estimated likelihood ratio of each output value, or of each cell of continuous outputs;
    * for records and bit vectors, a naive-Bayes sum of each column's ratio (exact for
      independently randomized bits, as OUE's).

    Parameters
    ----------
    sel0, sel1 : ndarray
        Selection-half outputs on x0 and on x1.

    Returns
    -------
    list of Score
        The scores (each maps outputs to floats; higher means likelier from x1).
    """
    scores: list[Score] = []
    if _is_numeric(sel0) and _is_numeric(sel1):
        scores.append(Score("output", lambda o: np.asarray(o, dtype=float),
                            lambda op, t: f"output {op} {t:.4g}", fitted=False))
    edges = _continuous_edges(sel0, sel1) if _is_numeric(sel0) and sel0.dtype.kind == "f" else None
    if edges is not None:
        cells = np.arange(edges.size + 1)
        cut = lambda o: np.searchsorted(edges, np.asarray(o, dtype=float), side="right")  # noqa: E731
        c0 = np.bincount(cut(sel0), minlength=cells.size)
        c1 = np.bincount(cut(sel1), minlength=cells.size)
        ratio = _log_ratio(c1, c0)
        scores.append(Score("cell ratio", lambda o: ratio[cut(o)],
                            lambda op, t: f"output in the {edges.size + 1} quantile cells with "
                                          f"ln ratio {op} {t:.3g}"))
        return scores
    values, table = _value_ratio_table(sel0, sel1)

    def describe_values(op: str, t: float) -> str:
        inside = values[table >= t] if op == "≥" else values[table <= t]
        if sel0.ndim == 1 and inside.size <= 4:
            shown = inside.tolist()
            return f"output = {shown[0]!r}" if len(shown) == 1 else f"output in {shown!r}"
        return f"one of {inside.size} outputs with ln ratio {op} {t:.3g}"

    scores.append(Score("value ratio", lambda o: _lookup(values, table, _keys(o)), describe_values))
    if sel0.ndim == 2 and sel0.shape[1] > 1:
        columns = [_value_ratio_table(sel0[:, j], sel1[:, j]) for j in range(sel0.shape[1])]

        def naive_bayes(o):
            o = np.asarray(o)
            return sum(_lookup(v, t, o[:, j]) for j, (v, t) in enumerate(columns))

        scores.append(Score("naive Bayes", naive_bayes,
                            lambda op, t: f"naive-Bayes ln ratio of the columns {op} {t:.3g}"))
    return scores


# --------------------------------------------------------------------------------------------
# Neyman–Pearson events of a score and the choice on the selection half
class _Event(NamedTuple):
    score: Score
    direction: str      # "x1/x0": S = {score >= t}; "x0/x1": S = {score <= t}
    threshold: float


def _tail_levels(n: int) -> np.ndarray:
    """Event sizes (shares of the numerator input's runs): tails from 1/2 down to about 10 runs
    (where ε shows) and their complements (large events, where δ shows)."""
    levels = 0.5 * 0.75 ** np.arange(60)
    levels = levels[levels * n >= 10]
    return np.concatenate([levels, 1 - levels[1:]])


def _in_event(scores: np.ndarray, event: _Event) -> np.ndarray:
    return scores >= event.threshold if event.direction == "x1/x0" else scores <= event.threshold


def _counts(event: _Event, s0: np.ndarray, s1: np.ndarray) -> tuple[int, int]:
    """(numerator, denominator) runs in the event."""
    k0, k1 = int(_in_event(s0, event).sum()), int(_in_event(s1, event).sum())
    return (k1, k0) if event.direction == "x1/x0" else (k0, k1)


def _candidates(s0: np.ndarray, s1: np.ndarray):
    """Neyman–Pearson thresholds and their (numerator, denominator) counts, per direction.

    A score with few values is cut at each of them; a finer one at a few tail sizes of the
    numerator input (``score ≥ t`` holding a share q of x1's runs; ``score ≤ t`` a share q of
    x0's). The j-th events of the two directions are mirror images, so that they can be pooled.
    """
    values = np.unique(np.concatenate([s0, s1]))
    if values.size <= _MAX_THRESHOLDS:
        # reversed for the lower events: the j-th pair is {score ≥ v_j} and {score ≤ v_(-j)},
        # mirror images for a symmetric mechanism (pooled below)
        t_hi, t_lo = values, values[::-1]
    else:
        q = _tail_levels(s0.size)
        t_hi = np.quantile(s1, 1 - q, method="inverted_cdf")
        t_lo = np.quantile(s0, q, method="inverted_cdf")
    s0s, s1s = np.sort(s0), np.sort(s1)
    ge0 = s0.size - np.searchsorted(s0s, t_hi, side="left")
    ge1 = s1.size - np.searchsorted(s1s, t_hi, side="left")
    le0 = np.searchsorted(s0s, t_lo, side="right")
    le1 = np.searchsorted(s1s, t_lo, side="right")
    return {"x1/x0": (t_hi, ge1, ge0), "x0/x1": (t_lo, le0, le1)}


class _Choice(NamedTuple):
    value: float
    events: tuple          # one event, or two (pooled)


def choose_event(scores: list[Score], tune0, tune1, objective: Callable, *, target: float | None = None,
                 disjoint_pairs: bool = False) -> _Choice:
    """The event (or pooled pair) whose ``objective`` looks best on the tuning runs.

    Each candidate is scored by a bound as conservative as the final one: the best of many
    small events would look better than it is.

    Parameters
    ----------
    scores : list of Score
        From :func:`learn_scores`.
    tune0, tune1 : ndarray
        Tuning outputs (fresh runs, not those the scores were learned on).
    objective : callable
        ``objective(k_num, k_den, n) -> bound`` (vectorized over arrays of counts).
    target : float, optional
        Runs per input the chosen event will be counted on. Given, each candidate's tuning
        shares are scaled to that many runs: the objective is the bound the estimation runs would
        give if they showed the tuning shares (a small event that a penalty at the tuning runs'
        size rules out can be the best one at the estimation size). Omitted, the objective is
        taken at the tuning runs' size.
    disjoint_pairs : bool, default False
        Pool only events that cannot both hold for one output (needed when each run may be
        counted once, as by the Poisson counts of :func:`audit_epsilon`).

    Returns
    -------
    _Choice
        The best value and its event(s).
    """
    n_tune = tune0.shape[0]
    scale = 1.0 if target is None else target / n_tune

    def objective_at_target(k_num, k_den, n):
        value = objective(k_num * scale, k_den * scale, n * scale)
        if target is None:
            return value
        # the best of many noisy estimates looks better than it is, most for the events with few
        # tuning runs: take each estimate _TUNING_PENALTY standard errors of its log ratio lower
        # (the delta method, with ½ added to each count so that a count of 0 has a finite one)
        k_num, k_den = np.asarray(k_num, dtype=float), np.asarray(k_den, dtype=float)
        return value - _TUNING_PENALTY * np.sqrt(1.0 / (k_num + 0.5) + 1.0 / (k_den + 0.5))

    best = _Choice(-math.inf, ())
    for score in scores:
        cand = _candidates(score.of(tune0), score.of(tune1))
        value = {d: objective_at_target(k_num, k_den, n_tune) for d, (_, k_num, k_den) in cand.items()}
        for d, (t, _, _) in cand.items():
            j = int(np.argmax(value[d]))
            if value[d][j] > best.value:
                best = _Choice(float(value[d][j]), (_Event(score, d, float(t[j])),))
        # an event of each direction pooled: twice the runs behind one inequality. The pairs:
        # the mirror images, and the two directions' own best events
        (ta, na, da), (tb, nb, db) = cand["x1/x0"], cand["x0/x1"]
        ia = np.append(np.arange(ta.size), np.argmax(value["x1/x0"]))
        ib = np.append(np.arange(tb.size), np.argmax(value["x0/x1"]))
        pooled = objective_at_target(na[ia] + nb[ib], da[ia] + db[ib], 2 * n_tune)
        if disjoint_pairs:  # {score >= ta} and {score <= tb} are disjoint when tb < ta
            pooled = np.where(tb[ib] < ta[ia], pooled, -math.inf)
        j = int(np.argmax(pooled))
        if pooled[j] > best.value:
            best = _Choice(float(pooled[j]), (_Event(score, "x1/x0", float(ta[ia[j]])),
                                              _Event(score, "x0/x1", float(tb[ib[j]]))))
    return best


def _estimate(choice: _Choice, est0, est1):
    """Counts of the chosen event(s) on the estimation half and the runs they are out of."""
    k_num = k_den = 0
    for event in choice.events:
        kn, kd = _counts(event, event.score.of(est0), event.score.of(est1))
        k_num, k_den = k_num + kn, k_den + kd
    return k_num, k_den, est0.shape[0] * len(choice.events)


def _describe(choice: _Choice) -> tuple[str, str]:
    words = []
    for e in choice.events:
        op = "≥" if e.direction == "x1/x0" else "≤"
        words.append(e.score.describe(op, e.threshold))
    if len(choice.events) == 1:
        return words[0], choice.events[0].direction
    return f"{words[0]} (x1/x0) and {words[1]} (x0/x1)", "pooled"


#: Share of the selection runs that learn the scores (the rest tune the threshold on fresh runs).
_FIT_SHARE = 0.5


class _Parts(NamedTuple):
    fit: tuple[np.ndarray, np.ndarray]    # learns the scores
    tune: tuple[np.ndarray, np.ndarray]   # chooses the event (fresh runs: a learned table cannot flatter itself)
    est: tuple[np.ndarray, np.ndarray]    # bounds the chosen event


def _split(out0, out1, selection: float) -> _Parts:
    n = out0.shape[0]
    n_sel = min(max(int(round(n * selection)), 2), n - 2)
    n_fit = int(n_sel * _FIT_SHARE)
    return _Parts((out0[:n_fit], out1[:n_fit]), (out0[n_fit:n_sel], out1[n_fit:n_sel]),
                  (out0[n_sel:], out1[n_sel:]))


def _run_audit(parts: _Parts, objective: Callable):
    """Learn the scores, choose the event, count it on the estimation runs."""
    choice = choose_event(learn_scores(*parts.fit), *parts.tune, objective)
    k_num, k_den, n = _estimate(choice, *parts.est)
    event, direction = _describe(choice)
    return k_num, k_den, n, event, direction


#: The Poisson number of estimation runs counted per input has mean ``n − 3 √n``: more than the
#: ``n`` runs there are (the audit then shows nothing) with probability about 0.1 % per input.
_POISSON_MARGIN = 3.0


def _poisson_mean(n: int) -> float:
    return max(n - _POISSON_MARGIN * math.sqrt(n), 0.0)


def _choose_for_poisson_counts(parts: _Parts, objective: Callable, target: float) -> _Choice:
    """The event :func:`audit_epsilon` counts: learned scores tuned on the runs they did not
    learn from, the output itself (nothing learned) tuned on all the selection runs."""
    scores = learn_scores(*parts.fit)
    learned = [s for s in scores if s.fitted]
    plain = [s for s in scores if not s.fitted]
    sel0 = np.concatenate([parts.fit[0], parts.tune[0]])
    sel1 = np.concatenate([parts.fit[1], parts.tune[1]])
    a = choose_event(learned, *parts.tune, objective, target=target, disjoint_pairs=True)
    b = choose_event(plain, sel0, sel1, objective, target=target, disjoint_pairs=True)
    return a if a.value >= b.value else b


def _poisson_counts(choice: _Choice, est0, est1, mean: float, rng) -> tuple[int, int]:
    """Counts of the chosen event(s) among the first ``L0`` and ``L1`` estimation runs of x0 and
    x1, with ``L0, L1 ~ Poisson(mean)`` drawn independently of the runs ((0, 0) if more runs are
    drawn than there are).

    Why a Poisson number of runs: the counts of *disjoint* events among a Poisson number of
    independent runs are independent Poisson variables (the splitting property of the Poisson
    distribution, e.g. Mitzenmacher & Upfal 2005, ch. 5). A pooled pair counts the runs of each
    input in two disjoint events, one on each side of the ratio; with a fixed number of runs
    those two counts would be (slightly) dependent, and the exact conditional test of
    :func:`~ppdm_edu.audit._stats.ratio_lower` needs them independent.
    """
    n0, n1 = (int(v) for v in rng.poisson(mean, size=2))
    if n0 > est0.shape[0] or n1 > est1.shape[0]:
        return 0, 0
    k_num = k_den = 0
    for event in choice.events:
        kn, kd = _counts(event, event.score.of(est0[:n0]), event.score.of(est1[:n1]))
        k_num, k_den = k_num + kn, k_den + kd
    return k_num, k_den


def _check_selection(selection) -> float:
    selection = check_probability(selection, "selection", open_interval=True)
    return selection


# --------------------------------------------------------------------------------------------
def audit_epsilon(randomizer, x0, x1, *, trials: int, confidence: float = 0.95, delta: float = 0.0,
                  selection: float = SELECTION_SHARE, rng=None) -> EpsilonAudit:
    """A statistically valid lower bound on the ε of a randomizer at a given δ, from its outputs.

    Parameters
    ----------
    randomizer : Mechanism or callable
        Any :class:`ppdm_edu.mechanisms.Mechanism` (run through its ``randomize``), or
        ``randomizer(values, rng) -> outputs`` with one output (value or row) per input.
        Continuous outputs need no binning: the audit cuts them at quantiles of its selection half.
    x0, x1 : scalar or 1-D array
        The two neighbouring inputs (values, or records for a record-level randomizer); they
        must differ. The bound is on ε for *this* pair (the neighbour relation it stands for).
    trials : int
        Runs per input, from 4 to :data:`MAX_TRIALS`.
    confidence : float, default 0.95
        Probability that the returned bound does not exceed the randomizer's true ε at ``delta``.
    delta : float, default 0.0
        The δ at which ε is bounded, in [0, 1). 0 keeps the pure-ε meaning.
    selection : float, default SELECTION_SHARE
        Share of the runs that choose the event (the rest estimate it), in (0, 1).
    rng : None, int or numpy.random.Generator
        Seed; the runs on ``x0``, the runs on ``x1`` and the Poisson numbers of counted runs use
        independent streams.

    Returns
    -------
    EpsilonAudit
        The bound, the event and the counts behind it.

    Notes
    -----
    The steps, each on runs the previous ones did not see:

    1. *choose*: the scores are learned on half the selection runs; the thresholds of a learned
       score are tuned on the other half, those of the output itself (nothing learned) on all
       of them. A candidate's value is the bound the estimation runs would give at its tuning
       shares, less 2 standard errors of its tuning estimate (the best of many noisy
       estimates looks better than it is). An event of each direction may be pooled
       (``P1(A) + P0(B) <= e^ε (P0(A) + P1(B)) + 2δ``) when A and B are disjoint.
    2. *count*: ``L0, L1 ~ Poisson(n − 3√n)`` of the ``n`` estimation runs of each input are
       counted (more than ``n`` drawn for either input, about 0.3 % of the time: the bound is 0). Counts of
       disjoint events among a Poisson number of independent runs are independent Poisson
       variables, so the numerator count ``K_num`` and the denominator count ``K_den`` are.
    3. *bound*: given ``m = K_num + K_den``, ``K_num ~ Binomial(m, μ_num / (μ_num + μ_den))``;
       its one-sided Clopper–Pearson bound at error ``1 − confidence`` bounds ``μ_num / μ_den``,
       and ``e^ε >= μ_num / μ_den − (expected runs) · δ / μ_den`` (with δ > 0 a tenth of the error
       goes to a lower bound on ``μ_den``).

    Raises
    ------
    TypeError
        If ``randomizer`` is not a Mechanism or a callable of two arguments ``(values, rng)``,
        or ``trials`` is not an integer.
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
    confidence = check_probability(confidence, "confidence", open_interval=True)
    delta = check_positive(delta, "delta", allow_zero=True)
    if delta >= 1:
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")
    selection = _check_selection(selection)
    runs_rng, count_rng = spawn_rngs(rng, 2)
    out0, out1 = run_twice(randomizer, x0, x1, trials, runs_rng)
    alpha = 1.0 - confidence  # one test of the ratio, not a bound on each probability

    def objective(k_num, k_den, runs):
        return poisson_epsilon_bound(k_num, k_den, runs, alpha, delta)

    parts = _split(out0, out1, selection)
    mean = _poisson_mean(parts.est[0].shape[0])
    choice = _choose_for_poisson_counts(parts, objective, target=mean)
    k_num, k_den = _poisson_counts(choice, *parts.est, mean, count_rng)
    runs = mean * len(choice.events)
    event, direction = _describe(choice)
    a_ratio = alpha - alpha / 10 if delta > 0 else alpha   # as in poisson_epsilon_bound
    return EpsilonAudit(lower_bound=float(objective(k_num, k_den, runs)), event=event, direction=direction,
                        count_numerator=k_num, count_denominator=k_den, n_estimation=parts.est[0].shape[0],
                        trials=trials, confidence=confidence, expected_runs=mean,
                        ratio_lower=float(ratio_lower(k_num, k_den, a_ratio)), delta=delta)


def audit_delta(randomizer, x0, x1, *, epsilon: float, trials: int, confidence: float = 0.95,
                selection: float = SELECTION_SHARE, rng=None) -> DeltaAudit:
    """A statistically valid lower bound on the δ a randomizer needs at a given ε.

    The dual of :func:`audit_epsilon`: ``δ ≥ P(M(x) ∈ S) − e^ε P(M(x') ∈ S)`` for every event S
    (the hockey-stick divergence). Additive uniform noise has no finite ε, and its audited ε
    grows with the runs; its δ at any finite ε is a stable number: the share of outputs only
    one of the two inputs can produce.

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
        Probability that the bound does not exceed the true δ at ``epsilon``.
    selection : float, default SELECTION_SHARE
        Share of the runs that choose the event.
    rng : None, int or numpy.random.Generator
        Seed.

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
    confidence = check_probability(confidence, "confidence", open_interval=True)
    epsilon = check_positive(epsilon, "epsilon", allow_zero=True)
    selection = _check_selection(selection)
    out0, out1 = run_twice(randomizer, x0, x1, trials, rng)
    alpha = (1.0 - confidence) / 2.0

    def objective(k_num, k_den, n):
        return delta_bound(k_num, k_den, n, alpha, epsilon)

    parts = _split(out0, out1, selection)
    k_num, k_den, n, event, direction = _run_audit(parts, objective)
    return DeltaAudit(lower_bound=float(objective(k_num, k_den, n)), epsilon=epsilon, event=event,
                      direction=direction, n_estimation=parts.est[0].shape[0], trials=trials,
                      confidence=confidence)
