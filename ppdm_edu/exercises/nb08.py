"""Exercises of notebook 08 (choosing a mechanism: the privacy/accuracy trade-off on one scale)."""
from __future__ import annotations

import math

from .checking import EXACT, Exercise, Precision, Verdict, as_number, numeric_verdict

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 08"
FMT_08_1 = "a number of categories k (a whole number)"
FMT_08_2 = "a ratio of standard deviations (local / central)"
P_08_1 = EXACT
P_08_2 = Precision(significant=2)
# The ratio of mean absolute errors that §4 of the notebook measures and prints at n = 10,000 (98×):
# a student who copies it instead of computing the two standard deviations gets a hint, not "correct".
MEASURED_RATIO_08_2 = 98.0


def oue_crossover_k(epsilon: float = 1.0) -> int:
    """Reference for 08.1: the smallest k with Var_OUE < Var_GRR at ``epsilon``.

    Wang et al. (USENIX Security 2017), Eq. 4 and 9: Var_GRR / Var_OUE = (e^ε + k − 2) / (4 e^ε),
    above 1 exactly when k > 3 e^ε + 2.
    """
    return int(math.floor(3 * math.exp(epsilon) + 2)) + 1


def judge_08_1(answer) -> Verdict:
    value = as_number(answer, "08.1", FMT_08_1)
    ref = oue_crossover_k()
    if value == ref:
        return Verdict(True, "the first whole k above 3e^ε + 2; §5's measurement at k = 10 is the close call "
                             "where the data's own frequencies decide.")
    bound = 3 * math.e + 2
    if abs(value - bound) < 0.05:  # 10.15 or its rounding 10.2
        return Verdict(False, "that is the bound 3e^ε + 2 itself: k counts categories, give the first whole "
                              "number above it.")
    if value != int(value):
        return Verdict(False, "k counts categories: give a whole number.")
    if value == 10:
        return Verdict(False, "at k = 10 and ε = 1, 3e^ε + 2 = 10.2 is still above k: by Wang et al.'s variances "
                              "GRR is (just) better there, even if §5's measurement on a skewed distribution "
                              "tips the close call to OUE.")
    if value in (5, 6):  # k > 3ε + 2: the exponential forgotten
        return Verdict(False, "ε enters the rule through e^ε: k > 3e^ε + 2, not 3ε + 2.")
    if value in (8, 9):  # k > 3·2^ε + 2: a base-2 exponential
        return Verdict(False, "ε is a natural logarithm: the rule has e^ε, not 2^ε.")
    if value < ref:
        return Verdict(False, "at that k GRR still has the smaller variance: solve (e^ε + k − 2) / (4e^ε) > 1 "
                              "for k at ε = 1.")
    return Verdict(False, "OUE already wins at a smaller k: look for the FIRST k with (e^ε + k − 2) / (4e^ε) > 1.")


def local_central_ratio(epsilon: float = 1.0, n: int = 10_000, pi: float | None = None) -> float:
    """Reference for 08.2: sd of Warner's estimate from the device alone over the sd of the
    central Laplace share, both at ``epsilon`` with ``n`` records (``pi``: add the sampling part
    of a population share ``pi``, the typical mistake).

    Warner (Du & Zhan Sec. 3): Var = θ(1 − θ) / (n (2θ − 1)²) with θ = e^ε / (1 + e^ε);
    central: count + Laplace(1/ε), the share's sd is √2 / (n ε).
    """
    from ..randomized_response import theta_for_epsilon, warner_std_error
    theta = float(theta_for_epsilon(epsilon))
    # warner_std_error at pi = 0 or 1 has no sampling part: the device's part alone
    local = float(warner_std_error(0.0 if pi is None else pi, theta, n))
    central = math.sqrt(2.0) / (n * epsilon)
    return local / central


def _ratio_at_theta(theta: float, epsilon: float = 1.0, n: int = 10_000) -> float:
    """The 08.2 ratio with Warner's device at ``theta`` (a typical mistake when θ ≠ e^ε / (1 + e^ε))."""
    from ..randomized_response import warner_std_error
    return float(warner_std_error(0.0, theta, n)) / (math.sqrt(2.0) / (n * epsilon))


def judge_08_2(answer) -> Verdict:
    value = as_number(answer, "08.2", FMT_08_2)
    ref = local_central_ratio()
    # 2 % relative: rounding θ to 0.73 moves the ratio by 0.6 %, the two sd to 2 significant
    # figures (0.0096 / 0.00014) by 1.1 %; and at least half a unit of the 2nd figure (68).
    tol = max(0.02 * ref, P_08_2.tolerance(ref))
    # mistakes far below 1 are told apart with the same 2 % relative tolerance (the absolute one
    # of the reference would lump them together)
    for wrong, hint in ((1 / ref, "the exercise asks for local / central (the local sd is the larger one)."),
                        (ref / 1e4, "the Laplace noise is added to the count: the share's noise is that divided by n.")):
        if math.isfinite(value) and abs(value - wrong) <= 0.02 * wrong:
            return Verdict(False, hint)
    return numeric_verdict(value, ref, tol, percent_hint=False, mistakes=(
        (ref ** 2, "that is the ratio of variances: take the square root."),
        (ref * math.sqrt(2.0), "the Laplace(b) standard deviation is √2 b, not b."),
        (ref * 100, "Warner's variance is for one respondent: divide it by n = 10,000 before the square root."),
        (_ratio_at_theta(2 / 3),  # θ = 2/(1 + 2): 2^ε in place of e^ε
         "θ = e^ε / (1 + e^ε) with the natural exponential: at ε = 1, θ = e / (1 + e)."),
        (local_central_ratio(pi=0.3), "this includes the sampling variance π(1 − π)/n: the exercise asks for the "
                                      "device alone (std_error_disguise, π = 0 or 1 in warner_std_error)."),
        (MEASURED_RATIO_08_2, "that is §4's measured ratio of mean absolute errors: compute the two standard "
                              "deviations on paper, then compare."),
    ), what_to_check="check θ = e/(1 + e), Warner's device variance θ(1 − θ)/(n(2θ − 1)²) and the central share's "
                     "sd √2/(nε), both at n = 10,000.")


EXERCISES = (
    Exercise("08.1", "When does OUE win?", "numeric", f"{NB}, §5 'OUE against GRR'",
             FMT_08_1, judge_08_1, oue_crossover_k,
             tolerance="exact (a whole number from a closed form)", precision=P_08_1,
             rubric=("I can say why §5's measurement can disagree with the rule right at the boundary (Wang et al.'s "
                     "variances keep only the term that does not depend on the true frequencies).",)),
    Exercise("08.2", "Local against central, on paper", "numeric", f"{NB}, §4 'Local against central'",
             FMT_08_2, judge_08_2, local_central_ratio,
             tolerance="2 % relative (rounding θ to 0.73 moves the ratio by 0.6 %, both sd to 2 significant figures "
                       "by 1.1 %), at least half a unit of the 2nd significant figure",
             precision=P_08_2,
             rubric=("I can say why §4's measured ratio is larger: it compares mean absolute errors, includes the "
                     "sampling of the 10,000 people (π(1 − π)/n), and its central error is a mean of 50 runs.",)),
    Exercise("08.3", "Your recommendation", "rubric", f"{NB}, §3-§6",
             rubric=("I named the task, n and ε I assumed, and read the error of each mechanism from the panel or table.",
                     "I said which privacy scale my choice rests on (claimed ε, audited ε, or interval privacy) and why.",
                     "I said whether a trusted curator is available, and what it would buy (the measured ratio).")),
)
