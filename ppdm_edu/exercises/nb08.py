"""Exercises of notebook 08 (choosing a mechanism: the privacy/accuracy trade-off on one scale)."""
from __future__ import annotations

import math

from .checking import Exercise, Verdict, as_number, numeric_verdict

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 08"


def oue_crossover_k(epsilon: float = 1.0) -> int:
    """Reference for 08.1: the smallest k with Var_OUE < Var_GRR at ``epsilon``.

    Wang et al. (USENIX Security 2017), Eq. 4 and 9: Var_GRR / Var_OUE = (e^ε + k − 2) / (4 e^ε),
    above 1 exactly when k > 3 e^ε + 2.
    """
    return int(math.floor(3 * math.exp(epsilon) + 2)) + 1


def judge_08_1(answer) -> Verdict:
    value = as_number(answer, "08.1", "a number of categories k (integer)")
    return numeric_verdict(value, oue_crossover_k(), 0.0, percent_hint=False, mistakes=(
        (10.0, "at k = 10 and ε = 1, 3e^ε + 2 is still a little above k: GRR is (just) better."),
        (3 * math.e + 2, "k counts categories: give the first whole number above the bound."),
    ))


def local_central_ratio(epsilon: float = 1.0, n: int = 10_000) -> float:
    """Reference for 08.2: sd of Warner's estimate from the device alone over the sd of the
    central Laplace share, both at ``epsilon`` with ``n`` records.

    Warner (Du & Zhan Sec. 3): Var = θ(1 − θ) / (n (2θ − 1)²) with θ = e^ε / (1 + e^ε);
    central: count + Laplace(1/ε), the share's sd is √2 / (n ε).
    """
    from ..randomized_response import theta_for_epsilon, warner_std_error
    theta = float(theta_for_epsilon(epsilon))
    # warner_std_error at pi = 0 or 1 has no sampling part: the device's part alone
    local = float(warner_std_error(0.0, theta, n))
    central = math.sqrt(2.0) / (n * epsilon)
    return local / central


def judge_08_2(answer) -> Verdict:
    value = as_number(answer, "08.2", "a ratio of standard deviations (local / central)")
    ref = local_central_ratio()
    return numeric_verdict(value, ref, 0.02 * ref, percent_hint=False, mistakes=(
        (ref ** 2, "that is the ratio of variances: take the square root."),
        (ref * math.sqrt(2.0), "the Laplace(b) standard deviation is √2 b, not b."),
        (ref / 100.0, "both standard deviations must be for the same n."),
    ))


EXERCISES = (
    Exercise("08.1", "When does OUE win?", "numeric", f"{NB}, §5 'OUE against GRR'",
             "a number of categories k (integer)", judge_08_1, oue_crossover_k,
             tolerance="exact (a whole number from a closed form)"),
    Exercise("08.2", "Local against central, on paper", "numeric", f"{NB}, §4 'Local against central'",
             "a ratio of standard deviations (local / central)", judge_08_2, local_central_ratio,
             tolerance="±2 % (closed forms; admit rounding)"),
    Exercise("08.3", "Your recommendation", "rubric", f"{NB}, §3-§6",
             rubric=("I named the task, n and ε I assumed, and read the error of each mechanism from the panel or table.",
                     "I said which privacy scale my choice rests on (claimed ε, audited ε, or interval privacy) and why.",
                     "I said whether a trusted curator is available, and what it would buy (the measured ratio).")),
)
