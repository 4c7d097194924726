"""The events an audit can choose: Neyman–Pearson tests of scores learned from runs.

By the Neyman–Pearson lemma the most telling event for two inputs is a tail of the likelihood
ratio ``P(output | x1) / P(output | x0)``: ``{ratio ≥ t}`` (or ``≤ t`` the other way round).
The ratio is unknown for a black box, so it is *learned* from runs on each input
(:func:`learn_scores`): the output itself (its tails are the Neyman–Pearson events of any
monotone likelihood ratio), the ratio of each output value (or each cell of continuous outputs)
and, for records and bit vectors, a naive-Bayes sum of each column's ratio.
:func:`choose_event` picks the threshold (and direction, or a pooled pair of tails) whose bound
looks best on runs the scores were not learned from (Ding et al. 2018; Jagielski, Ullman & Oprea
2020; Nasr et al. 2021).
"""
from __future__ import annotations

import math
from typing import Callable, NamedTuple

import numpy as np

__all__ = ["Score", "learn_scores", "choose_event"]

#: Outputs with more distinct numbers than this (in the learning runs) are treated as continuous
#: and cut into cells at quantiles of those runs.
_MAX_CELLS = 64
#: At most this many thresholds per score are tried (quantiles of the score when it has more values).
_MAX_THRESHOLDS = 200
#: How many standard errors of its tuning estimate a candidate event is marked down by when it is
#: chosen for a target number of runs (see :func:`choose_event`; why 2:
#: benchmarks/engineering_notes.md).
_TUNING_PENALTY = 2.0


# --------------------------------------------------------------------------------------------
# scores learned from runs: higher = likelier from x1 than from x0
class Score(NamedTuple):
    """A function of the outputs, learned from runs (higher: likelier from x1)."""

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
    """``table`` at each key (0 for keys the learning runs never showed)."""
    pos = np.clip(np.searchsorted(table_keys, keys), 0, table_keys.size - 1)
    return np.where(table_keys[pos] == keys, table[pos], 0.0)


def _value_ratio_table(out0: np.ndarray, out1: np.ndarray):
    """Estimated log likelihood ratio of each distinct output (key) of the learning runs."""
    k0, k1 = _keys(out0), _keys(out1)
    values, codes = np.unique(np.concatenate([k0, k1]), return_inverse=True)
    codes = codes.ravel()
    c0 = np.bincount(codes[: k0.size], minlength=values.size)
    c1 = np.bincount(codes[k0.size:], minlength=values.size)
    return values, _log_ratio(c1, c0)


def _is_numeric(out: np.ndarray) -> bool:
    return out.ndim == 1 and out.dtype.kind in "iuf"


def learn_scores(out0: np.ndarray, out1: np.ndarray) -> list[Score]:
    """The candidate scores, learned from outputs on x0 and on x1.

    * the output itself, for 1-D numbers (its tails are the Neyman–Pearson events of any
      monotone likelihood ratio: Laplace, Gaussian, geometric noise);
    * the estimated likelihood ratio of each output value, or of each cell of continuous outputs
      (cut at quantiles, finer in the tails, where the evidence of Laplace or Gaussian noise lies);
    * for records and bit vectors, a naive-Bayes sum of each column's ratio (exact for
      independently randomized bits, as OUE's).

    Parameters
    ----------
    out0, out1 : ndarray
        Outputs on x0 and on x1 (the runs the scores learn from).

    Returns
    -------
    list of Score
        The scores (each maps outputs to floats; higher means likelier from x1).
    """
    scores: list[Score] = []
    numeric = _is_numeric(out0) and _is_numeric(out1)
    if numeric:
        scores.append(Score("output", lambda o: np.asarray(o, dtype=float),
                            lambda op, t: f"output {op} {t:.4g}", fitted=False))
    both = np.concatenate([out0, out1]).astype(float) if numeric and out0.dtype.kind == "f" else None
    if both is not None and np.unique(both).size > _MAX_CELLS:  # continuous outputs: quantile cells
        tail = 0.5 ** np.arange(3, max(4, int(math.log2(both.size)) - 3))  # 1/8, 1/16, ... ~16 runs
        levels = np.unique(np.concatenate([np.linspace(0, 1, 17)[1:-1], tail, 1 - tail]))
        edges = np.unique(np.quantile(both, levels))
        cut = lambda o: np.searchsorted(edges, np.asarray(o, dtype=float), side="right")  # noqa: E731
        c0 = np.bincount(cut(out0), minlength=edges.size + 1)
        c1 = np.bincount(cut(out1), minlength=edges.size + 1)
        ratio = _log_ratio(c1, c0)
        scores.append(Score("cell ratio", lambda o: ratio[cut(o)],
                            lambda op, t: f"output in the {edges.size + 1} quantile cells with "
                                          f"ln ratio {op} {t:.3g}"))
        return scores
    values, table = _value_ratio_table(out0, out1)

    def describe_values(op: str, t: float) -> str:
        inside = values[table >= t] if op == "≥" else values[table <= t]
        if out0.ndim == 1 and inside.size <= 4:
            shown = inside.tolist()
            return f"output = {shown[0]!r}" if len(shown) == 1 else f"output in {shown!r}"
        return f"one of {inside.size} outputs with ln ratio {op} {t:.3g}"

    scores.append(Score("value ratio", lambda o: _lookup(values, table, _keys(o)), describe_values))
    if out0.ndim == 2 and out0.shape[1] > 1:
        columns = [_value_ratio_table(out0[:, j], out1[:, j]) for j in range(out0.shape[1])]

        def naive_bayes(o):
            o = np.asarray(o)
            return sum(_lookup(v, t, o[:, j]) for j, (v, t) in enumerate(columns))

        scores.append(Score("naive Bayes", naive_bayes,
                            lambda op, t: f"naive-Bayes ln ratio of the columns {op} {t:.3g}"))
    return scores


# --------------------------------------------------------------------------------------------
# Neyman–Pearson events of a score, and the choice among them
class Event(NamedTuple):
    """``{score ≥ threshold}`` (direction ``"x1/x0"``) or ``{score ≤ threshold}`` (``"x0/x1"``)."""

    score: Score
    direction: str
    threshold: float

    def counts(self, out0: np.ndarray, out1: np.ndarray) -> tuple[int, int]:
        """(numerator, denominator): runs of each input whose output falls in the event."""
        s0, s1 = self.score.of(out0), self.score.of(out1)
        if self.direction == "x1/x0":
            return int((s1 >= self.threshold).sum()), int((s0 >= self.threshold).sum())
        return int((s0 <= self.threshold).sum()), int((s1 <= self.threshold).sum())

    def describe(self) -> str:
        """The event in words."""
        return self.score.describe("≥" if self.direction == "x1/x0" else "≤", self.threshold)


class Choice(NamedTuple):
    """The chosen event, or two pooled events (one of each direction), and its tuning value."""

    value: float
    events: tuple[Event, ...]

    def describe(self) -> tuple[str, str]:
        """(the event in words, its direction: ``"x1/x0"``, ``"x0/x1"`` or ``"pooled"``)."""
        if len(self.events) == 1:
            return self.events[0].describe(), self.events[0].direction
        a, b = self.events
        return f"{a.describe()} (x1/x0) and {b.describe()} (x0/x1)", "pooled"


def _candidates(s0: np.ndarray, s1: np.ndarray):
    """Neyman–Pearson thresholds and their (numerator, denominator) counts, per direction.

    A score with few values is cut at each of them; a finer one at a few tail sizes of the
    numerator input (``score ≥ t`` holding a share q of x1's runs; ``score ≤ t`` a share q of
    x0's): tails from 1/2 down to about 10 runs (where ε shows) and their complements (large
    events, where δ shows). The j-th events of the two directions are mirror images, so that
    they can be pooled.
    """
    values = np.unique(np.concatenate([s0, s1]))
    if values.size <= _MAX_THRESHOLDS:
        # reversed for the lower events: the j-th pair is {score ≥ v_j} and {score ≤ v_(-j)},
        # mirror images for a symmetric mechanism
        t_hi, t_lo = values, values[::-1]
    else:
        q = 0.5 * 0.75 ** np.arange(60)
        q = q[q * s0.size >= 10]
        q = np.concatenate([q, 1 - q[1:]])
        t_hi = np.quantile(s1, 1 - q, method="inverted_cdf")
        t_lo = np.quantile(s0, q, method="inverted_cdf")
    s0s, s1s = np.sort(s0), np.sort(s1)
    ge0 = s0.size - np.searchsorted(s0s, t_hi, side="left")
    ge1 = s1.size - np.searchsorted(s1s, t_hi, side="left")
    le0 = np.searchsorted(s0s, t_lo, side="right")
    le1 = np.searchsorted(s1s, t_lo, side="right")
    return {"x1/x0": (t_hi, ge1, ge0), "x0/x1": (t_lo, le0, le1)}


def choose_event(scores: list[Score], tune0, tune1, objective: Callable, *, target: float | None = None,
                 disjoint_pairs: bool = False) -> Choice:
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
        size rules out can be the best one at the estimation size), less ``_TUNING_PENALTY``
        standard errors of its log ratio (the best of many noisy estimates looks better than it
        is, most for the events with few tuning runs). Omitted, the objective is taken at the
        tuning runs' size.
    disjoint_pairs : bool, default False
        Pool only events that cannot both hold for one output (needed when each run may be
        counted once, as by the Poisson counts of :func:`~ppdm_edu.audit.audit_epsilon`).

    Returns
    -------
    Choice
        The best value and its event(s).
    """
    n_tune = tune0.shape[0]
    scale = 1.0 if target is None else target / n_tune

    def value_of(k_num, k_den, n):
        value = objective(k_num * scale, k_den * scale, n * scale)
        if target is None:
            return value
        # the delta method's standard error of a log ratio, with ½ added to each count so that a
        # count of 0 has a finite one
        k_num, k_den = np.asarray(k_num, dtype=float), np.asarray(k_den, dtype=float)
        return value - _TUNING_PENALTY * np.sqrt(1.0 / (k_num + 0.5) + 1.0 / (k_den + 0.5))

    best = Choice(-math.inf, ())
    for score in scores:
        cand = _candidates(score.of(tune0), score.of(tune1))
        value = {d: value_of(k_num, k_den, n_tune) for d, (_, k_num, k_den) in cand.items()}
        for d, (t, _, _) in cand.items():
            j = int(np.argmax(value[d]))
            if value[d][j] > best.value:
                best = Choice(float(value[d][j]), (Event(score, d, float(t[j])),))
        # an event of each direction pooled: twice the runs behind one inequality
        # (P1(A) + P0(B) <= e^ε (P0(A) + P1(B)) + 2δ). The pairs: the mirror images, and the two
        # directions' own best events
        (ta, na, da), (tb, nb, db) = cand["x1/x0"], cand["x0/x1"]
        ia = np.append(np.arange(ta.size), np.argmax(value["x1/x0"]))
        ib = np.append(np.arange(tb.size), np.argmax(value["x0/x1"]))
        pooled = value_of(na[ia] + nb[ib], da[ia] + db[ib], 2 * n_tune)
        if disjoint_pairs:  # {score >= ta} and {score <= tb} are disjoint when tb < ta
            pooled = np.where(tb[ib] < ta[ia], pooled, -math.inf)
        j = int(np.argmax(pooled))
        if pooled[j] > best.value:
            best = Choice(float(pooled[j]), (Event(score, "x1/x0", float(ta[ia[j]])),
                                             Event(score, "x0/x1", float(tb[ib[j]]))))
    return best
