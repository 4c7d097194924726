"""Exercises of notebook 07 (attacks and local differential privacy)."""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from . import _implementations as implementations
from .checking import EXACT, Exercise, Precision, Verdict, as_number, as_numbers, numeric_verdict, within

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 07"
# 07.6 offers these run counts; the answer (100 with rng=0, measured) is neither the smallest nor the largest
AUDIT_TRIALS = (30, 100, 300, 1_000, 3_000, 10_000)
P_07_1 = Precision(decimals=2)
P_07_2 = Precision(decimals=1)
P_07_3 = Precision(decimals=2)


@lru_cache(maxsize=None)
def four_factor_rmse(rng: int = 0, noise_rng: int = 1) -> float:
    """Spectral filtering (Tracy-Widom) of 10 attributes with 4 factors (correlation 0.99) and
    noise of one standard deviation per attribute: the RMSE in units of σ."""
    from ..attacks import spectral_filter
    from ..datasets import correlated_data
    X = correlated_data(5000, n_factors=4, correlation=0.99, rng=rng)
    s = X.std(axis=0)
    W = X + np.random.default_rng(noise_rng).normal(size=X.shape) * s
    return float(spectral_filter(W, s ** 2, threshold="tracy-widom").rmse(X, s))


def four_factor_reference() -> float:
    """Reference for 07.1 (the simulation with the exercise's seeds)."""
    return four_factor_rmse()


@lru_cache(maxsize=None)
def four_factor_tolerance() -> float:
    """Tolerance of 07.1: 4 SDs of the simulated RMSE over 10 data/noise seeds, plus the distance
    of the simulation's mean from the prediction √(4/10) (both are honest answers), plus 0.005 for
    rounding to two decimals."""
    sims = np.array([four_factor_rmse(s, 1000 + s) for s in range(10)])
    return 4 * float(sims.std(ddof=1)) + abs(float(sims.mean()) - math.sqrt(4 / 10)) + 0.005


def judge_07_1(answer) -> Verdict:
    value = as_number(answer, "07.1", "an RMSE in units of sigma (float)")
    ref = four_factor_reference()
    return numeric_verdict(value, ref, four_factor_tolerance(), percent_hint=False,
                           what_to_check="check the data (correlated_data(5000, n_factors=4, correlation=0.99)), "
                                         "the noise (one SD per attribute) and that the RMSE is divided by σ.",
                           mistakes=(
        (0.4, "0.4 is the share of the noise VARIANCE left: the RMSE is its square root."),
        (math.sqrt(0.2), "that is the two-factor case: this data has four factors."),
        (1.0, "that is the RMSE of the perturbed values before filtering."),
    ))


@lru_cache(maxsize=None)
def posterior_ratio(level: float, rng: int = 1) -> float:
    """Posterior 95 % interval width / Table 1 width on the plateau (5,000 records) at ``level``."""
    from ..datasets import plateau, plateau_pdf
    from ..posterior import posterior_interval_width
    from ..randomization import GaussianNoise
    x = plateau(5000, rng=0)
    return float(posterior_interval_width(x, GaussianNoise.from_interval_width(level), plateau_pdf,
                                          bounds=(0, 1), rng=rng).ratio)


def half_width_level() -> float:
    """Reference for 07.2: the privacy level (width / range) where the ratio crosses 0.5."""
    from scipy.optimize import brentq
    return float(brentq(lambda lv: posterior_ratio(round(lv, 4)) - 0.5, 1.0, 2.0, xtol=1e-3))


def judge_07_2(answer) -> Verdict:
    value = as_number(answer, "07.2", "a privacy level as a fraction of the range (e.g. 1.0 for 100 %)")
    # ±0.1: a grid of levels 0.1 apart (the exercise's method) locates the crossing to within one
    # step; the Monte-Carlo spread over seeds moves it by only ~0.004 (ratio SD ~0.001, slope ~0.26).
    return numeric_verdict(value, half_width_level(), 0.1 + 1e-9,
                           what_to_check="check that the ratio is posterior width / Table 1 width at each level, "
                                         "on the plateau data, and read the first level where it is below 0.5.",
                           mistakes=(
        (1.0, "at 100 % (Table 1's promise) the ratio is still above one half: go to higher levels."),
    ))


def breach_numbers(theta: float = 0.7, rho2: float = 0.5) -> tuple[float, float]:
    """Reference for 07.3: (ε of randomized response with ``theta``, the largest prior ρ1 that one
    answer cannot push to ``rho2``), from γ = amplification(θ) (Evfimievski et al.)."""
    from ..ldp import amplification, rr_epsilon
    gamma = float(amplification(theta))
    # a breach needs γ ≥ (ρ2 / (1 − ρ2)) (1 − ρ1) / ρ1  ⇔  ρ1 ≥ ρ2 / (ρ2 + γ (1 − ρ2))
    return float(rr_epsilon(theta)), rho2 / (rho2 + gamma * (1 - rho2))


def judge_07_3(answer) -> Verdict:
    eps, rho1 = as_numbers(answer, 2, "07.3", "a pair (epsilon, largest rho1 without a breach)")
    r_eps, r_rho = breach_numbers()
    if within(eps, r_eps / math.log(2), 5e-3):
        return Verdict(False, "ε is a natural logarithm, not log2.")
    if not within(eps, r_eps, max(5e-3, P_07_3.tolerance(r_eps))):  # 2 decimals
        return Verdict(False, "ε is not right yet: ε = ln(θ / (1 − θ)).")
    if within(rho1, 1 - r_rho, 5e-3):  # 1 − ρ1, which at θ = 0.7 is also θ itself
        return Verdict(False, "that is 1 − ρ1 (here also θ): solve the breach condition for ρ1 itself, the prior "
                              "at which one answer's amplification γ just reaches ρ2 = 50 %.")
    if within(rho1, 100 * r_rho, 0.5):
        return Verdict(False, "give ρ1 as a fraction (0 to 1), not a percentage.")
    if not within(rho1, r_rho, max(5e-3, P_07_3.tolerance(r_rho))):  # 0.30 = 1 / (1 + γ); admits 2 decimals
        return Verdict(False, "ρ1 is not right yet: solve γ = (ρ2 / (1 − ρ2)) (1 − ρ1) / ρ1 with ρ2 = 0.5.")
    return Verdict(True, "priors below that bound stay below 50 % after one answer.")


def record_epsilon(per_attribute: float = 0.5, attributes: int = 10) -> float:
    """Reference for 07.4: ε of a record of ``attributes`` independent ε-LDP releases
    (sequential composition)."""
    return per_attribute * attributes


def judge_07_4(answer) -> Verdict:
    value = as_number(answer, "07.4", "an epsilon (number)")
    return numeric_verdict(value, record_epsilon(), 1e-9, percent_hint=False,
                           what_to_check="check the composition rule: the ε of independent releases about one "
                                         "record add up.", mistakes=(
        (0.5, "that is one attribute's ε; the record releases ten of them."),
        (0.05, "composition adds the ε of the releases, it does not divide them."),
        (0.5 * math.sqrt(10), "√k composition is an advanced bound with a δ; the plain rule is simpler."),
    ))


@lru_cache(maxsize=None)
def audit_refutes(trials: int, truthful: float = 0.8, claimed_epsilon: float = 0.847) -> bool:
    """Does ``audit_epsilon`` (rng=0) refute ``claimed_epsilon`` for Warner's device answering
    truthfully with probability ``truthful``, with ``trials`` runs per input?"""
    from ..audit import audit_epsilon
    from ..randomized_response import warner_disguise
    result = audit_epsilon(lambda values, rng: warner_disguise(values, truthful, rng=rng), 1, 0,
                           trials=trials, rng=0)
    return bool(result.refutes(claimed_epsilon))


def audit_trials_needed() -> int:
    """Reference for 07.6: the fewest runs per input (of 30, 100, 300, 1,000, 3,000, 10,000) from
    which the audit with rng=0 refutes the claim."""
    return next(t for t in AUDIT_TRIALS if audit_refutes(t))


def judge_07_6(answer) -> Verdict:
    value = as_number(answer, "07.6", "a number of runs per input (one of 30, 100, 300, 1000, 3000, 10000)")
    if value not in AUDIT_TRIALS:
        raise ValueError(f"check('07.6', answer): answer must be one of {', '.join(map(str, AUDIT_TRIALS))}, "
                         f"got {answer!r}")
    ref = audit_trials_needed()
    if int(value) == ref:
        return Verdict(True, "a bug of this size is refuted quickly; smaller bugs need many more runs.")
    if int(value) > ref:
        return Verdict(False, "the claim is already refuted with fewer runs: try the smaller trial counts too.")
    return Verdict(False, "with that many runs result.refutes(0.847) is still False: use rng=0 as asked.")



def composition_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 07.4."""
    return (
        "Section 2's attack pools the attributes of one record: correlated attributes carry a common signal, "
        "and each perturbed value leaks a little of it. Sequential composition says the same in ε: ten "
        f"releases of ε = 0.5 about one record give ε = {record_epsilon():g} for the record, a bound of "
        f"e^{record_epsilon():g} ≈ {math.exp(record_epsilon()):.0f} on the likelihood ratio of any two records.",
    )



# 07.7 (write it yourself): generalized randomized response and its estimator, checked as functions.
FMT_07_7 = "a pair of functions (grr_randomize, grr_estimate)"
NAMES_07_7 = ("grr_randomize", "grr_estimate")
GRR_SOURCE = """\
def grr_randomize(x, k, epsilon, rng):
    \"\"\"GRR: keep the category with probability p = e^eps / (e^eps + k - 1), else report one of the
    other k - 1 categories, uniformly.\"\"\"
    x = np.asarray(x)
    p = np.exp(epsilon) / (np.exp(epsilon) + k - 1)
    keep = rng.random(x.shape) < p
    other = (x + rng.integers(1, k, size=x.shape)) % k    # uniform over the k - 1 other categories
    return np.where(keep, x, other)


def grr_estimate(reports, k, epsilon):
    \"\"\"Unbiased frequencies: E[share of v] = q + (p - q) f_v, solved for f_v.\"\"\"
    p = np.exp(epsilon) / (np.exp(epsilon) + k - 1)
    q = 1 / (np.exp(epsilon) + k - 1)
    shares = np.bincount(np.asarray(reports), minlength=k) / len(reports)
    return (shares - q) / (p - q)


answer = (grr_randomize, grr_estimate)
"""
grr_reference = implementations.register("07.7", GRR_SOURCE, NAMES_07_7)
# Hidden cases: (k, ε, respondents) and a skewed true distribution per case.
GRR_CASES = ((5, 1.0, 30_000), (12, 2.0, 30_000), (3, 0.5, 30_000))
GRR_DATA_SEED = 70_707


def _grr_case(k: int, epsilon: float, n: int, seed: int):
    data_rng, noise_rng = np.random.SeedSequence([GRR_DATA_SEED, seed]).spawn(2)
    weights = np.arange(1, k + 1, dtype=float) ** 2
    x = np.random.default_rng(data_rng).choice(k, size=n, p=weights / weights.sum())
    randomize, _ = grr_reference()
    return x, randomize(x, k, epsilon, np.random.default_rng(noise_rng))


def _grr_p(k: int, epsilon: float) -> float:
    return math.exp(epsilon) / (math.exp(epsilon) + k - 1)


# Small surveys with empty categories (the top one among them, so that counting only up to the
# largest category reported gives too few entries): (k, ε, reports).
GRR_SMALL = ((5, 1.0, (0, 1, 1, 2, 0, 3, 1, 0, 2, 2, 1, 0, 3, 1, 1, 0, 2, 1, 0, 1)),
             (6, 0.5, (0, 2, 3, 3, 0, 2, 2, 0, 3, 0, 2, 3)))


def _grr_randomize_calls(randomize) -> list:
    """The hidden calls of the randomizer: the three surveys, two tiny ones (shape only), and the
    three calls of the rng check (the judge reads them in this order)."""
    call = implementations.Call
    calls = [call(randomize, "grr_randomize", (_grr_case(k, eps, n, case)[0], k, eps, np.random.default_rng(case)))
             for case, (k, eps, n) in enumerate(GRR_CASES)]
    calls += [call(randomize, "grr_randomize", (np.array(x), k, eps, np.random.default_rng(50 + i)))
              for i, (k, eps, x) in enumerate(GRR_SMALL)]
    return calls + implementations.rng_calls(
        randomize, "grr_randomize", lambda rng: (_grr_case(*GRR_CASES[0], 0)[0], GRR_CASES[0][0], GRR_CASES[0][1], rng))


def _grr_reports_hint(out: np.ndarray, x: np.ndarray, k: int) -> str | None:
    if out.shape != x.shape:
        what = "an empty array" if out.size == 0 else "one number" if out.ndim == 0 else f"shape {out.shape}"
        return (f"grr_randomize must return one category 0 .. k − 1 per respondent (an array of the same shape as "
                f"x, {x.shape}); it returned {what}.")
    if out.dtype.kind == "c" or not np.array_equal(out, np.round(out)) or out.min() < 0 or out.max() > k - 1:
        return (f"grr_randomize must return one category 0 .. k − 1 per respondent (k = {k}); it returned values "
                f"from {out.real.min():g} to {out.real.max():g}" + ("" if np.array_equal(out, np.round(out))
                                                                    else ", not all whole numbers") + ".")
    return None


def _judge_grr_randomize(results) -> str | None:
    for case, (k, eps, n) in enumerate(GRR_CASES):
        x, _ = _grr_case(k, eps, n, case)
        returned = results[case]
        if 0 in returned.changed:
            return "grr_randomize changes x in place: return a new array of reports."
        hint = _grr_reports_hint(returned.value, x, k) or _grr_survey_hint(returned.value.astype(int), x, k, eps)
        if hint:
            return hint
    for i, (k, _eps, x) in enumerate(GRR_SMALL):
        hint = _grr_reports_hint(results[len(GRR_CASES) + i].value, np.array(x), k)
        if hint:
            return hint
    first = len(GRR_CASES) + len(GRR_SMALL)
    return implementations.draws_from_rng("grr_randomize", *(results[first + i].value for i in range(3)))


def _grr_survey_hint(out: np.ndarray, x: np.ndarray, k: int, eps: float) -> str | None:
    """The hint for one large hidden survey's reports, or None when they are GRR's."""
    kept = out == x
    p = _grr_p(k, eps)
    se = math.sqrt(p * (1 - p) / x.size)
    if abs(kept.mean() - p) > 5 * se:
        warner = math.exp(eps) / (1 + math.exp(eps))
        if abs(kept.mean() - warner) <= 5 * se:
            return ("the wrong θ: that keeps the truth with binary randomized response's e^ε / (1 + e^ε); with "
                    "k categories GRR keeps it with p = e^ε / (e^ε + k − 1).")
        if abs(kept.mean() - (p + (1 - p) / k)) <= 5 * se:
            return ("when it does not keep the truth, GRR reports one of the OTHER k − 1 categories: drawing "
                    "from all k gives the truth extra weight, so the ε is not the one claimed.")
        return (f"the reports keep the true category in {kept.mean():.1%} of cases: GRR keeps it with "
                "p = e^ε / (e^ε + k − 1).")
    lies = out[~kept]
    truth = x[~kept]
    # a lie moves to each of the other k − 1 categories alike: its offset (out − x) mod k is uniform on 1..k−1
    offsets = np.bincount((lies - truth) % k, minlength=k)[1:]
    expected = lies.size / (k - 1)
    if np.abs(offsets - expected).max() > 5 * math.sqrt(expected):
        return ("the false reports are not spread evenly over the other k − 1 categories: GRR's ε needs every "
                "other category to be equally likely.")
    return None


def _grr_estimate_cases() -> list:
    """Hidden surveys (reports, k, ε): the reference device on :data:`GRR_CASES`, then the small
    surveys of :data:`GRR_SMALL`, whose top categories nobody reported."""
    cases = [(_grr_case(k, eps, n, case)[1], k, eps) for case, (k, eps, n) in enumerate(GRR_CASES)]
    return cases + [(np.array(reports), k, eps) for k, eps, reports in GRR_SMALL]


def _grr_estimate_calls(estimate) -> list:
    return [implementations.Call(estimate, "grr_estimate", case) for case in _grr_estimate_cases()]


def _judge_grr_estimate(results) -> str | None:
    _, reference = grr_reference()
    for i, (reports, k, eps) in enumerate(_grr_estimate_cases()):
        got = results[i].value
        if got.shape != (k,):
            return _grr_estimate_shape_hint(got, reports, k)
        if got.dtype.kind == "c":
            return "grr_estimate returned complex numbers: frequencies are real."
        returned, got = got, got.astype(float)
        if not np.isfinite(got).all():
            return "grr_estimate returned values that are not finite (NaN or infinite)."
        if not implementations.close(got, reference(reports, k, eps)):
            return implementations.low_precision_hint(returned, "grr_estimate") \
                or _grr_estimate_mistake(got, reports, k, eps, reference(reports, k, eps))
    return None


def _grr_estimate_shape_hint(got: np.ndarray, reports: np.ndarray, k: int) -> str:
    what = "an empty array" if got.size == 0 else "one number" if got.ndim == 0 else f"shape {got.shape}"
    if got.ndim == 1 and got.size == reports.max() + 1 < k:
        return (f"grr_estimate returned {got.size} frequencies for k = {k} categories, on a small survey where "
                "nobody reported the top categories: a category nobody reported still gets its frequency. Count "
                "the reports of every category 0 .. k − 1 (a count of length k), not only up to the largest one "
                "reported.")
    return f"grr_estimate must return k = {k} frequencies, one per category; it returned {what}."


def _grr_estimate_mistake(got: np.ndarray, reports: np.ndarray, k: int, eps: float, ref: np.ndarray) -> str:
    """The hint for finite frequencies of the right shape that are not the unbiased ones: a known
    slip (each one recomputed here and compared), else what kind of wrong it is."""
    close = implementations.close
    shares = np.bincount(reports, minlength=k) / len(reports)
    if close(got, shares):
        return ("biased: these are the shares of the reports, pulled towards the uniform 1/k by the device; "
                "solve E[share of v] = q + (p − q) f_v for f_v.")
    clipped = np.clip(ref, 0, None)
    if clipped.sum() > 0 and close(got, clipped / clipped.sum()):
        return ("clipped and renormalised: that makes the estimate biased; the exercise asks for the unbiased "
                "one, whose entries may be negative.")
    warner = math.exp(eps) / (1 + math.exp(eps))
    if close(got, (shares - (1 - warner)) / (2 * warner - 1)):
        return "the wrong θ: p = e^ε / (e^ε + k − 1) and q = 1 / (e^ε + k − 1), not binary RR's θ."
    if abs(got.sum() - 1) > 1e-4:
        return (f"not a distribution: the estimated frequencies sum to {got.sum():.4g}, not 1 (the unbiased "
                "estimate sums to exactly 1, though single entries may be negative).")
    return ("biased: these are not the unbiased frequencies; solve E[share of v] = q + (p − q) f_v with "
            "p = e^ε / (e^ε + k − 1), q = 1 / (e^ε + k − 1).")


def judge_07_7(answer) -> Verdict:
    return implementations.judge_randomizer_and_estimator(
        answer, NAMES_07_7, "07.7", FMT_07_7, (_grr_randomize_calls, _judge_grr_randomize),
        (_grr_estimate_calls, _judge_grr_estimate),
        "both pass on hidden data (three k, three ε, and small surveys with categories nobody reported): "
        "your randomizer is GRR with the claimed ε, and your estimate is unbiased.")


EXERCISES = (
    Exercise("07.1", "Four factors", "numeric", f"{NB}, §2 'Attack 1: spectral filtering'",
             "an RMSE in units of sigma (float)", judge_07_1, four_factor_reference,
             tolerance="4 SDs of the simulated RMSE over 10 seeds + |simulation mean − √0.4| + 0.005 (computed; ≈0.01)",
             precision=P_07_1),
    Exercise("07.2", "Half as wide", "numeric", f"{NB}, §3 'Attack 2: the distribution is a prior'",
             "a privacy level as a fraction of the range (e.g. 1.0 for 100 %)", judge_07_2, half_width_level,
             tolerance="±0.1: one step of a grid of levels; the Monte-Carlo spread (~0.004) is far smaller",
             precision=P_07_2),
    Exercise("07.3", "ε and ρ1 at θ = 0.7", "structured", f"{NB}, §4 'Privacy breaches, ρ1-to-ρ2' and §5",
             "a pair (epsilon, largest rho1 without a breach)", judge_07_3, breach_numbers,
             tolerance="±0.005 on both (closed forms; admit rounding to 2 decimals)", precision=P_07_3),
    Exercise("07.4", "Ten attributes", "numeric", f"{NB}, §5 'ε: local differential privacy'",
             "an epsilon (number)", judge_07_4, record_epsilon, tolerance="exact", precision=EXACT,
             rubric=("I can relate the sum to Section 2: correlated attributes let an attacker pool them.",),
             model_answer=composition_model_answer),
    Exercise("07.5", "The same perturbed value every time", "rubric", f"{NB}, §2-§4 (the three attacks)",
             rubric=("For each attack of this notebook I said whether it needs repeated queries.",
                     "I named what each attack uses instead (correlation, the prior, a single answer).")),
    Exercise("07.6", "Auditing a buggy device", "numeric", f"{NB}, §5 'Auditing ε: does a randomizer give what it claims?'",
             "a number of runs per input (one of 30, 100, 300, 1000, 3000, 10000)", judge_07_6, audit_trials_needed,
             tolerance="exact: the exercise fixes rng=0, so the audit's outcome is deterministic", precision=EXACT),
    Exercise("07.7", "Write GRR yourself", "structured", f"{NB}, §5 'ε: local differential privacy'",
             FMT_07_7, judge_07_7, grr_reference,
             tolerance="the functions are run on hidden data and seeds (and small surveys with empty categories): "
                       "the kept share within 5 standard errors of p, the lies even over the other categories, the "
                       "estimate equal to the unbiased one as float rounding allows (1e-5 relative, 1e-6 absolute: "
                       "float32 passes)",
             precision=EXACT),
)
