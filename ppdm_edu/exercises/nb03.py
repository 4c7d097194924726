"""Exercises of notebook 03 (randomized response)."""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from . import _implementations as implementations
from .checking import (
    EXACT,
    Exercise,
    Precision,
    Verdict,
    as_number,
    as_numbers,
    matches_as_written,
    numeric_verdict,
    within,
)

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 03"
P_03_1 = (Precision(decimals=3, what="θ"), Precision(significant=3, what="respondents"),
          Precision(significant=3, what="respondents"))
P_03_2 = Precision(significant=2)
P_03_3 = Precision(significant=2)
ADULT_E = {"sex": 1, "marital_status": 1, "income": 1}  # the conjunction of Section 6


def privacy_budget_design(eps: float = 1.0, pi: float = 0.3, se: float = 0.02) -> tuple[float, float, float]:
    """Reference for 03.1: (θ > 0.5 with ε = ``eps``, respondents for standard error ``se`` with
    Warner's device, respondents for a direct question)."""
    from ..randomized_response import theta_for_epsilon, warner_std_error
    theta = float(theta_for_epsilon(eps))
    n_rr = float(warner_std_error(pi, theta, 1)) ** 2 / se ** 2   # Var = v(π, θ)/n
    n_direct = pi * (1 - pi) / se ** 2
    return theta, n_rr, n_direct


def judge_03_1(answer) -> Verdict:
    theta, n_rr, n_direct = as_numbers(answer, 3, "03.1", "a triple (theta, respondents with RR, respondents direct)")
    r_theta, r_rr, r_direct = privacy_budget_design()
    if within(theta, 1 - r_theta, 2e-3):
        return Verdict(False, "the question asks for the θ above 0.5 (θ and 1 − θ give the same ε).")
    if not within(theta, r_theta, 2e-3):
        if within(theta, 2 / 3, 2e-3):
            return Verdict(False, "ε is a natural logarithm, not log2.")
        return Verdict(False, "θ is not right yet: ε = ln(θ / (1 − θ)).")
    for n, ref, what in ((n_rr, r_rr, "with randomized response"), (n_direct, r_direct, "for a direct question")):
        # 2 %: rounding θ to 0.73 moves n_rr by 0.9 %, rounding n up to an integer by < 0.1 %.
        if not within(n, ref, max(0.02 * ref, P_03_1[1].tolerance(ref))):
            if within(n, ref * 0.02, 0.02 * ref * 0.02):
                return Verdict(False, f"the number {what}: the standard error is a square root, divide the "
                                      "variance by se², not se.")
            return Verdict(False, f"the number of respondents {what} is not right yet: solve Var / n = se².")
    return Verdict(True, "randomized response needs several times more respondents for the same precision.")


def mostly_lying_device(pi: float = 0.3, n: int = 200) -> tuple[float, float, float, float]:
    """Reference for 03.2: (SE at θ = 0.2, SE at θ = 0.8, ε at 0.2, ε at 0.8) for ``n`` respondents."""
    from ..randomized_response import rr_epsilon, warner_std_error
    return (float(warner_std_error(pi, 0.2, n)), float(warner_std_error(pi, 0.8, n)),
            float(rr_epsilon(0.2)), float(rr_epsilon(0.8)))


def judge_03_2(answer) -> Verdict:
    fmt = "a 4-tuple (SE at theta=0.2, SE at theta=0.8, epsilon at 0.2, epsilon at 0.8) for 200 respondents"
    se2, se8, e2, e8 = as_numbers(answer, 4, "03.2", fmt)
    r_se2, r_se8, r_e2, r_e8 = mostly_lying_device()
    # The empirical SD of 1,000 simulated surveys (simulate_warner_surveys' default) has a relative
    # spread of 1/sqrt(2 × 999) = 2.2 %; 10 % is 4.5 of those and also accepts Warner's formula.
    rel = 0.10
    if within(e2, -r_e2, 1e-3) or within(e8, -r_e8, 1e-3):
        return Verdict(False, "ε is |ln(θ / (1 − θ))|: a privacy loss is never negative.")
    e_tol = max(5e-3, P_03_2.tolerance(r_e2))  # 2 significant figures: ln 4 = 1.386 -> 1.4
    if not (within(e2, r_e2, e_tol) and within(e8, r_e8, e_tol)):
        if within(e2, r_e2 / math.log(2), e_tol):
            return Verdict(False, "ε is a natural logarithm, not log2.")
        return Verdict(False, "the two ε are not right yet: ε = |ln(θ / (1 − θ))| at θ = 0.2 and at θ = 0.8.")
    if not (within(se2, r_se2, rel * r_se2 + P_03_2.tolerance(r_se2))
            and within(se8, r_se8, rel * r_se8 + P_03_2.tolerance(r_se8))):
        return Verdict(False, "the standard errors are not right yet: Warner's variance at π = 0.3 divided by "
                              "n = 200, then the square root (or the SD of simulated surveys).")
    return Verdict(True, "θ and 1 − θ are equally private and equally precise; the rubric asks why.")


@lru_cache(maxsize=None)
def kept_class_std_error(theta: float = 0.45, keep: str | None = "income") -> float:
    """Reference for 03.3: the standard error of repeated disguises (``std_error_disguise``) of
    P(E) on the binarized Adult data at ``theta``, with the class sent undisguised."""
    from ..datasets import adult_binary
    from ..rr_simulation import mrr_theta_sweep
    sweep = mrr_theta_sweep(adult_binary().data, ADULT_E, thetas=(theta,), runs=2, rng=0, keep=keep)
    return float(sweep["std_error_disguise"].mean())


@lru_cache(maxsize=None)
def kept_class_sweep(theta: float = 0.45) -> tuple[tuple[float, ...], float]:
    """The exercise's sweep of 03.3 (``runs=50, rng=0, keep="income"``) at ``theta``: the
    ``std_error`` column (sampling of the records AND the disguise, the typical mistake) and the
    standard deviation of the 50 estimates (an accepted answer)."""
    from ..datasets import adult_binary
    from ..rr_simulation import mrr_theta_sweep
    sweep = mrr_theta_sweep(adult_binary().data, ADULT_E, thetas=(theta,), runs=50, rng=0, keep="income")
    return tuple(float(v) for v in sweep["std_error"]), float(sweep["estimate"].std())


def judge_03_3(answer) -> Verdict:
    value = as_number(answer, "03.3", "a standard error (float) at theta = 0.45 with keep='income'")
    ref = kept_class_std_error()
    # The std_error column adds the sampling of the records to the disguise's part; at θ = 0.45
    # both round to the same 2 figures, so the two are told apart by the digits written: a value
    # that is a std_error entry as written, and neither the disguise's part nor the sd of the 50
    # estimates as written, is that column.
    with_sampling, sweep_sd = kept_class_sweep()
    if (any(matches_as_written(value, v) for v in with_sampling)
            and not (matches_as_written(value, ref) or matches_as_written(value, sweep_sd))):
        return Verdict(False, "this is the std_error column, which adds the sampling of the records to the "
                              "disguise: the question asks for the disguise's part (std_error_disguise, or the sd "
                              "of the 50 estimates).")
    # The formula is deterministic; the SD over 50 runs (the sweep of the solution) has a relative
    # spread of 1/sqrt(2 × 49) = 10 %: 30 % (3 of those) accepts both, and still rejects the value
    # without keep= (+52 %).
    return numeric_verdict(value, ref, 0.3 * ref + P_03_3.tolerance(ref),
                           what_to_check="check that the sweep runs at θ = 0.45 on adult_binary() with the "
                                         "conjunction of §6 and keep='income', and read std_error_disguise.",
                           mistakes=(
        (kept_class_std_error(keep=None), "this is the precision WITHOUT keep='income' (pass keep= to the "
                                          "sweep, which passes it to both mrr_disguise and mrr_estimate)."),
    ))


def independent_coins_unknowns(k: int = 3) -> int:
    """Reference for 03.4: unknowns of the system linking observed and true pattern frequencies
    of a conjunction of ``k`` attributes when every attribute has its own coin."""
    return 2 ** k


def judge_03_4(answer) -> Verdict:
    value = as_number(answer, "03.4", "a whole number (of unknowns)")
    if value == independent_coins_unknowns():
        return Verdict(True, "every true pattern can become any pattern; the rubric asks why one coin keeps it 2 × 2.")
    if value in (2, 3, 6):
        return Verdict(False, "count the patterns of three 0/1 attributes, each of which can turn into any other.")
    return Verdict(False, "how many different patterns do three 0/1 attributes have?")



def lying_device_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 03.2."""
    return (
        "E[λ̂] = θπ + (1 − θ)(1 − π) = (2θ − 1)π + (1 − θ), so π̂ = (λ̂ − (1 − θ)) / (2θ − 1) is linear in λ̂ and "
        "E[π̂] = π for every θ ≠ 0.5, whatever the sign of 2θ − 1: at θ < 0.5 numerator and denominator are both "
        "negative on average. Its variance has (2θ − 1)² in the denominator, the same at θ and 1 − θ.",
        "A device that always lies (θ = 0) answers 1 − x: the server flips every answer back and knows every x, "
        "exactly as with θ = 1. Protection comes from θ near 0.5, not from lying often: ε = |ln(θ / (1 − θ))| "
        "is the same at θ and 1 − θ and infinite at both 0 and 1.",
    )



def kept_class_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 03.3."""
    return (
        "With one coin per record, a record is either sent as it is or with every disguised value flipped. With "
        "the class kept, E = (sex = 1, marital_status = 1, income = 1) can only be confused with "
        "Ē = (sex = 0, marital_status = 0, income = 1): the other two values flipped, the income unchanged.",
        "Only records of the same income class can now move between E and Ē. Without keep=, Ē has income = 0, "
        "the majority class, so many records disguise into E; with the class kept Ē is a pattern of the "
        "minority class and far rarer. The disguised share P*(E) = θP(E) + (1 − θ)P(Ē) moves away from 1/2, its "
        "sampling variance P*(1 − P*)/n shrinks, and so does the estimate's, which is that divided by (2θ − 1)².",
    )



def one_coin_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 03.4."""
    return (
        "With one coin per record the record is kept or every attribute is flipped, so a pattern can only turn "
        "into itself or its complement. The patterns split into pairs (E, Ē) and each pair gives its own 2 × 2 "
        "system P*(E) = θP(E) + (1 − θ)P(Ē), P*(Ē) = θP(Ē) + (1 − θ)P(E). With a coin per attribute any pattern "
        "can turn into any other, and all 2^k pattern frequencies are unknowns of one system.",
    )



# 03.5 (write it yourself): Warner's randomizer and its unbiased estimator, checked as functions.
FMT_03_5 = "a pair of functions (warner_randomize, warner_estimate)"
NAMES_03_5 = ("warner_randomize", "warner_estimate")
WARNER_SOURCE = """\
def warner_randomize(x, theta, rng):
    \"\"\"Each respondent answers truthfully with probability theta, else the opposite.\"\"\"
    x = np.asarray(x)
    truthful = rng.random(x.shape) < theta           # one coin per respondent
    return np.where(truthful, x, 1 - x)


def warner_estimate(reports, theta):
    \"\"\"Unbiased estimate of the share of 1s: solve E[share] = theta*pi + (1 - theta)*(1 - pi).\"\"\"
    share = np.mean(reports)
    return (share - (1 - theta)) / (2 * theta - 1)


answer = (warner_randomize, warner_estimate)
"""
warner_reference = implementations.register("03.5", WARNER_SOURCE, NAMES_03_5)
# Hidden cases: (true share π, θ, respondents) with θ on both sides of 1/2, and the data seed.
WARNER_CASES = ((0.3, 0.7, 20_000), (0.8, 0.25, 20_000), (0.05, 0.85, 20_000))
WARNER_DATA_SEED = 20_251_127


def _warner_case(pi: float, theta: float, n: int, seed: int):
    data_rng, noise_rng = np.random.SeedSequence([WARNER_DATA_SEED, seed]).spawn(2)
    x = (np.random.default_rng(data_rng).random(n) < pi).astype(int)
    randomize, _ = warner_reference()
    return x, randomize(x, theta, np.random.default_rng(noise_rng))


# Independent coins: the device runs INDEPENDENCE_RUNS times on one survey of INDEPENDENCE_N; with a
# coin per respondent the number of truthful answers is Binomial(n, θ) from run to run, so its
# spread is χ² with runs − 1 degrees of freedom once scaled by nθ(1 − θ). A device that makes a
# fixed number of respondents truthful has no spread; one coin shared by a group, too much.
INDEPENDENCE_RUNS, INDEPENDENCE_N, INDEPENDENCE_THETA = 200, 1000, 0.7
INDEPENDENCE_ALPHA = 1e-6  # a device with independent coins is refused once in a million seeds


def _warner_randomize_calls(randomize) -> list:
    """The hidden calls of the randomizer: the three surveys, the repeated survey of the
    independence check, and the three calls of the rng check (the judge reads them in this order)."""
    call = implementations.Call
    calls = []
    for k, (pi, theta, n) in enumerate(WARNER_CASES):
        x, _ = _warner_case(pi, theta, n, k)
        calls.append(call(randomize, "warner_randomize", (x, theta, np.random.default_rng(k))))
    x = _warner_case(*WARNER_CASES[0], 0)[0][:INDEPENDENCE_N]
    calls += [call(randomize, "warner_randomize", (x, INDEPENDENCE_THETA, np.random.default_rng(100 + run)))
              for run in range(INDEPENDENCE_RUNS)]
    return calls + implementations.rng_calls(
        randomize, "warner_randomize", lambda rng: (_warner_case(*WARNER_CASES[0], 0)[0], WARNER_CASES[0][1], rng))


def _judge_warner_randomize(results) -> str | None:
    """None when the randomizer's reports (``results`` of :func:`_warner_randomize_calls`) are
    Warner's device on every hidden case; else the hint."""
    for k, (pi, theta, n) in enumerate(WARNER_CASES):
        x, _ = _warner_case(pi, theta, n, k)
        hint = _warner_survey_hint(results[k], x, theta)
        if hint:
            return hint
    x = _warner_case(*WARNER_CASES[0], 0)[0][:INDEPENDENCE_N]
    runs = [results[len(WARNER_CASES) + r] for r in range(INDEPENDENCE_RUNS)]
    for returned in runs:
        hint = _reports_shape_hint(returned.value, x)
        if hint:
            return hint
    first = len(WARNER_CASES) + INDEPENDENCE_RUNS
    hint = implementations.draws_from_rng("warner_randomize", *(results[first + i].value for i in range(3)))
    if hint:  # a generator of its own with a fixed seed also makes every survey alike: say why
        return hint
    return _independence_hint(np.array([np.sum(r.value == x) for r in runs]), INDEPENDENCE_N, INDEPENDENCE_THETA)


def _reports_shape_hint(out: np.ndarray, x: np.ndarray) -> str | None:
    if out.shape != x.shape:
        what = "an empty array" if out.size == 0 else "one number" if out.ndim == 0 else f"shape {out.shape}"
        return ("warner_randomize must return one 0/1 report per respondent (an array of the same shape as x, "
                f"{x.shape}); it returned {what}.")
    if not np.isin(out, (0, 1)).all():
        return ("warner_randomize must return one 0/1 report per respondent; it returned values other than 0 "
                "and 1.")
    return None


def _warner_survey_hint(returned, x: np.ndarray, theta: float) -> str | None:
    """The hint for one hidden survey's reports, or None when they are Warner's device."""
    if 0 in returned.changed:
        return "warner_randomize changes x in place: return a new array of reports."
    out = returned.value
    hint = _reports_shape_hint(out, x)
    if hint:
        return hint
    kept = out == x
    se = np.sqrt(theta * (1 - theta) / x.size)
    if kept.all() or not kept.any():
        return ("every respondent got the same coin: each respondent tosses their own (one random number per "
                "respondent).")
    if abs(kept.mean() - (1 - theta)) <= 5 * se and abs(theta - 0.5) > 0.1:
        return ("the reports keep the truth with probability 1 − θ: the wrong θ (θ is the probability of "
                "answering TRUTHFULLY).")
    for value in (0, 1):  # the device must treat both truths alike
        group = kept[x == value]
        if abs(group.mean() - theta) > 5 * np.sqrt(theta * (1 - theta) / group.size):
            return (f"respondents whose truth is {value} keep it in {group.mean():.0%} of the reports: each "
                    "respondent, whatever the truth, must answer truthfully with probability θ and give the "
                    "opposite answer otherwise.")
    return None


def _independence_hint(truthful: np.ndarray, n: int, theta: float) -> str | None:
    """None when the numbers of truthful answers in repeated surveys spread as independent coins
    do (Binomial(n, θ)); else the hint."""
    from scipy.stats import chi2
    statistic = float(np.sum((truthful - truthful.mean()) ** 2) / (n * theta * (1 - theta)))
    dof = truthful.size - 1
    if statistic < chi2.ppf(INDEPENDENCE_ALPHA, dof):
        return ("the number of truthful answers is (nearly) the same in every survey: the coins are not "
                "independent. Each respondent tosses their own coin, whatever the others' coins say; making a "
                "fixed share of the respondents truthful is not Warner's device (its ε and its variance are not "
                "the ones claimed).")
    if statistic > chi2.ppf(1 - INDEPENDENCE_ALPHA, dof):
        return ("the number of truthful answers varies more from survey to survey than independent coins allow: "
                "do respondents share a coin? Each respondent tosses their own.")
    return None


def _warner_estimate_calls(estimate) -> list:
    return [implementations.Call(estimate, "warner_estimate", (reports, theta))
            for reports, theta in _warner_estimate_cases()]


def _judge_warner_estimate(results) -> str | None:
    """None when the estimator is Warner's unbiased estimate on every hidden case; else the hint."""
    _, reference = warner_reference()
    for i, (reports, theta) in enumerate(_warner_estimate_cases()):
        got = results[i].value
        value = implementations.one_number(got, "warner_estimate", "the estimated share")
        ref = float(reference(reports, theta))
        if not _same(value, ref):
            return implementations.low_precision_hint(got, "warner_estimate") \
                or _warner_estimate_mistake(value, reports, theta, ref)
    return None


def _warner_estimate_cases() -> list:
    """Hidden surveys (reports, θ): the reference device on :data:`WARNER_CASES`, and one survey
    whose unbiased estimate is negative."""
    cases = [(_warner_case(pi, theta, n, k)[1], theta) for k, (pi, theta, n) in enumerate(WARNER_CASES)]
    low = np.zeros(2000, dtype=int)
    low[:500] = 1  # a share of 0.25 at θ = 0.7: the unbiased estimate is negative
    cases.append((low, 0.7))
    return cases


def _same(got: float, value: float) -> bool:
    """Equal as float rounding allows (float32 passes)."""
    return implementations.same_number(got, value)


def _warner_estimate_mistake(got: float, reports, theta: float, ref: float) -> str:
    """The hint for an estimate that is not the unbiased one (``ref``): a known slip (each one
    recomputed here and compared), else "biased"."""
    share = float(np.mean(reports))
    if _same(got, share):
        return ("biased: that is the share of 'yes' reports, pulled towards 1/2 by the device; undo the device "
                "by solving E[share] = θπ + (1 − θ)(1 − π) for π.")
    if _same(got, (share - theta) / (1 - 2 * theta)):
        return "the wrong θ: the estimate uses θ and 1 − θ swapped (θ is the probability of a truthful answer)."
    if _same(got, min(1.0, max(0.0, ref))):
        return ("clipped to [0, 1]: clipping makes the estimate biased near 0 and 1; the exercise asks for the "
                "unbiased estimate, which may fall outside [0, 1] in a small survey.")
    if _same(got, (share - (1 - theta)) / abs(2 * theta - 1)):
        return ("biased for θ < 1/2: divide by 2θ − 1 itself (negative there), not by its absolute value.")
    if _same(got, ref * len(reports)) or _same(got, (np.sum(reports) - (1 - theta)) / (2 * theta - 1)):
        return "that is on the scale of counts: the estimate is a share, from the share of 'yes' reports."
    return ("biased: averaged over many surveys this estimate is not the true share; solve "
            "E[share] = θπ + (1 − θ)(1 − π) for π.")


def judge_03_5(answer) -> Verdict:
    return implementations.judge_randomizer_and_estimator(
        answer, NAMES_03_5, "03.5", FMT_03_5, (_warner_randomize_calls, _judge_warner_randomize),
        (_warner_estimate_calls, _judge_warner_estimate),
        "both pass on hidden surveys (θ on both sides of 1/2, independent coins, and a survey whose estimate "
        "is negative): your device is Warner's, and your estimate is unbiased.")


# 03.6 (transfer): Section 4.1's estimate of a conjunction on data notebook 03 never used, yes/no
# questions about the people of Agrawal & Srikant's synthetic bank customers (generated).
FMT_03_6 = "a function all_yes_share(disguised, theta)"
NAMES_03_6 = ("all_yes_share",)
ALL_YES_SOURCE = """\
def all_yes_share(disguised, theta):
    \"\"\"The share of respondents whose TRUE answers are all yes (Du & Zhan 2003, Section 4.1). Each
    record was sent unchanged with probability theta, or with every answer flipped, so with
    E = yes to all and Ebar = no to all:  P*(E) = theta P(E) + (1 - theta) P(Ebar)  and
    P*(Ebar) = theta P(Ebar) + (1 - theta) P(E). Solve for P(E).\"\"\"
    d = np.asarray(disguised)
    p_e = np.mean(np.all(d == 1, axis=1))      # P*(E): disguised records saying yes to every question
    p_ebar = np.mean(np.all(d == 0, axis=1))   # P*(Ebar): saying no to every question
    return (theta * p_e - (1 - theta) * p_ebar) / (2 * theta - 1)


answer = all_yes_share
"""
all_yes_reference = implementations.register("03.6", ALL_YES_SOURCE, NAMES_03_6)
#: the yes/no questions, each a column of Agrawal's generator and the value from which it is "yes"
BANK_QUESTIONS = (("salary", 75_000), ("age", 40), ("loan", 250_000), ("hvalue", 500_000))
#: the notebook's example: the first three questions for 10,000 customers of Function 1
#: (data seed 3), disguised with θ = 0.7 (seed 4)
BANK_EXAMPLE = (10_000, 3, 0.7, 3, 4)
#: hidden surveys: (questions, θ, customers, data seed); θ on both sides of 1/2
BANK_CASES = ((2, 0.8, 20_000, 11), (3, 0.25, 20_000, 12), (4, 0.65, 20_000, 13), (3, 0.9, 5_000, 14))
BANK_SEED = 30_603


def bank_survey(n: int, questions: int, rng) -> np.ndarray:
    """True yes/no answers (n × ``questions``, 0/1) of ``n`` customers drawn by Agrawal's generator
    (Function 1): the first ``questions`` of :data:`BANK_QUESTIONS`.

    Parameters
    ----------
    n : int
        Customers.
    questions : int
        How many of the questions (1 to 4).
    rng : None, int or numpy.random.Generator
        The data's randomness.

    Returns
    -------
    numpy.ndarray of int, shape (n, questions)
        1 for yes.
    """
    from ..datasets import agrawal
    X, _ = agrawal(n, 1, rng=rng)
    return np.column_stack([(X[column].to_numpy() >= value).astype(int)
                            for column, value in BANK_QUESTIONS[:questions]])


@lru_cache(maxsize=None)
def _bank_case(case: int):
    """(true answers, disguised answers, θ) of hidden survey ``case``."""
    from ..randomized_response import mrr_disguise
    k, theta, n, seed = BANK_CASES[case]
    data_rng, noise_rng = np.random.SeedSequence([BANK_SEED, seed]).spawn(2)
    truth = bank_survey(n, k, np.random.default_rng(data_rng))
    return truth, mrr_disguise(truth, theta, rng=np.random.default_rng(noise_rng)).astype(int), theta


def judge_03_6(answer) -> Verdict:
    (share,) = implementations.as_functions(answer, NAMES_03_6, "03.6", FMT_03_6)
    cases = [_bank_case(case) for case in range(len(BANK_CASES))]
    results = implementations.run_calls(
        [implementations.Call(share, "all_yes_share", (disguised, theta)) for _, disguised, theta in cases], "03.6")
    reference = all_yes_reference()
    try:
        for i, (_, disguised, theta) in enumerate(cases):
            hint = _all_yes_hint(results[i], disguised, theta, float(reference(disguised, theta)))
            if hint:
                return Verdict(False, implementations.with_note(hint, results))
    except implementations.StudentError as error:
        return Verdict(False, implementations.with_note(str(error), results))
    return Verdict(True, implementations.with_note(
        "on hidden surveys of two to four questions, with θ on both sides of 1/2, your estimates are Du & Zhan's.",
        results))


def _all_yes_hint(returned, disguised: np.ndarray, theta: float, expected: float) -> str | None:
    """None when ``returned`` is Section 4.1's estimate on this survey; else the hint."""
    value = implementations.one_number(returned.value, "all_yes_share", "the estimated share")
    if _same(value, expected):
        return None
    p_e = float(np.mean(np.all(disguised == 1, axis=1)))
    p_ebar = float(np.mean(np.all(disguised == 0, axis=1)))
    if _same(value, p_e):
        return ("biased: that is the share of disguised records saying yes to every question; a record that was "
                "all no and got flipped says yes to every question too.")
    if _same(value, (p_e - (1 - theta)) / (2 * theta - 1)):
        return ("that treats 'yes to all' as one question under Warner's device, but a disguised record says yes to "
                "all only when it was all yes and sent unchanged, or all NO and flipped: use the share saying no "
                "to all as well (the 2 × 2 system of Section 4.1).")
    if _same(value, ((1 - theta) * p_e - theta * p_ebar) / (1 - 2 * theta)):
        return "θ and 1 − θ are swapped: θ is the probability that a record was sent unchanged."
    per_question = (np.mean(disguised, axis=0) - (1 - theta)) / (2 * theta - 1)
    if _same(value, float(np.prod(per_question))):
        return ("that multiplies the questions' estimated shares, as if the answers were independent: estimate the "
                "conjunction itself from the records that say yes (and no) to every question.")
    if _same(value, min(1.0, max(0.0, expected))):
        return "clipped to [0, 1]: the question asks for the unbiased estimate, which may leave [0, 1]."
    return ("not Section 4.1's estimate: solve P*(E) = θP(E) + (1 − θ)P(Ē), P*(Ē) = θP(Ē) + (1 − θ)P(E) for "
            "P(E), with E yes to every question and Ē no to every question.")


EXERCISES = (
    Exercise("03.1", "A privacy budget", "structured", f"{NB}, §4 'θ and ε' and §2 (Warner's variance)",
             "a triple (theta, respondents with RR, respondents direct)", judge_03_1, privacy_budget_design,
             tolerance="θ ±0.002 (3 decimals); respondents 2 % relative (rounding θ to 0.73 moves n by 0.9 %)",
             precision=P_03_1),
    Exercise("03.2", "A device that mostly lies", "structured", f"{NB}, §4 and §5 'The extremes'",
             "a 4-tuple (SE at theta=0.2, SE at theta=0.8, epsilon at 0.2, epsilon at 0.8) for 200 respondents",
             judge_03_2, mostly_lying_device,
             tolerance="ε: half a unit of the 2nd significant figure (±0.05); SE 10 % relative = 4.5 × the 2.2 % "
                       "spread of an SD from 1,000 simulated surveys, + half a unit of the 2nd figure",
             precision=P_03_2,
             rubric=("I can explain why dividing by 2θ − 1 < 0 still gives an unbiased estimate.",
                     "I can say why a device that always lies would reveal as much as one that never lies."),
             model_answer=lying_device_model_answer),
    Exercise("03.3", "Keeping the class undisguised", "numeric", f"{NB}, §6 'Many questions at once' and 'As θ varies'",
             "a standard error (float) at theta = 0.45 with keep='income'", judge_03_3, kept_class_std_error,
             tolerance="30 % relative: 3 × the 10 % spread of an SD over 50 runs (the formula column is exact), "
                       "+ half a unit of the 2nd significant figure", precision=P_03_3,
             rubric=("I wrote down what Ē is when the class is kept.",
                     "I can say why the estimate is more precise: how many records can move between E and Ē?"),
             model_answer=kept_class_model_answer),
    Exercise("03.4", "One coin or many?", "numeric", f"{NB}, §6 'Many questions at once' (Section 4.1)",
             "a whole number (of unknowns)", judge_03_4, independent_coins_unknowns,
             tolerance="exact (an integer)", precision=EXACT,
             rubric=("I can explain why one coin per record pairs every pattern with its complement only.",),
             model_answer=one_coin_model_answer),
    Exercise("03.5", "Write Warner's device yourself", "structured",
             f"{NB}, §1 'The survey problem and Warner's device' and §2 'Estimating the share'",
             FMT_03_5, judge_03_5, warner_reference,
             tolerance="the functions are run on hidden surveys and seeds: the device's truthful share within 5 "
                       "standard errors of θ for each truth, its coins independent (the spread of the truthful count "
                       "over 200 surveys within the χ² test's 1e-6 tails), the estimate equal to the unbiased one as "
                       "float rounding allows (1e-5 relative, 1e-6 absolute: float32 passes)",
             precision=EXACT),
    Exercise("03.6", "Transfer: a bank's survey", "structured",
             f"{NB}, §6 'Many questions at once: multivariate randomized response (Section 4.1)'",
             FMT_03_6, judge_03_6, all_yes_reference,
             tolerance="the function is run on hidden surveys (two to four questions, θ on both sides of 1/2): equal to "
                       "Section 4.1's estimate as float rounding allows (1e-5 relative, 1e-6 absolute)",
             precision=EXACT),
)
