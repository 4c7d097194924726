"""Exercises of notebook 02 (reconstructing the original distribution)."""
from __future__ import annotations

import numpy as np

from .checking import Exercise, Precision, Verdict, as_choice, as_number, as_numbers, within

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 02"
P_02_1 = Precision(decimals=3)
P_02_4 = (Precision(significant=1, what="the difference"), None)
TINY_W = (-0.5, 0.2, 0.5, 0.8, 1.1, 1.3, 1.6, 1.9, 2.2, 2.7)  # Section 2's tiny example


def tiny_third_iteration() -> tuple[float, float]:
    """Reference for 02.1: (Pr(I1), Pr(I2)) after the third iteration of the tiny example."""
    from ..randomization import UniformNoise
    from ..reconstruction import reconstruct
    r = reconstruct(np.array(TINY_W), UniformNoise(1.5), bounds=(0, 2), n_intervals=2, max_iter=3, tol=0)
    history = r.history
    assert history is not None  # keep_history defaults to True
    return float(history[-1][0]), float(history[-1][1])


def judge_02_1(answer) -> Verdict:
    p1, p2 = as_numbers(answer, 2, "02.1", "a pair (Pr(I1), Pr(I2))")
    r1, r2 = tiny_third_iteration()
    tol = max(1e-3, P_02_1.tolerance(r1))  # exact arithmetic; admits rounding to 3 decimals
    if within(p1, r1, tol) and within(p2, r2, tol):
        return Verdict(True, "the estimate keeps drifting towards I2.")
    if within(p1, r2, tol) and within(p2, r1, tol):
        return Verdict(False, "the two intervals are swapped: I1 is [0, 1].")
    if within(p1, 0.415, tol):
        return Verdict(False, "that is the starting point (iteration 2): apply Bayes' rule once more.")
    if within(p1, 100 * r1, 100 * tol):
        return Verdict(False, "give probabilities (0 to 1), not percentages.")
    if not within(p1 + p2, 1, 2 * tol):
        return Verdict(False, "the two probabilities must add up to 1.")
    return Verdict(False, "redo the middle bins' share with the new Pr(I1): for each w, Bayes' rule splits "
                          "it between I1 and I2 in proportion to f_Y(w − a) Pr(I).")


def bayes_em_difference(alpha: float = 0.52, width: float = 0.05) -> tuple[float, str]:
    """Reference for 02.4: the largest |difference| between the Bayes (mid-point) and EM (exact)
    response matrices for uniform noise ``alpha`` on a ``width`` grid over [0, 1], and the method
    whose matrix is the exact one."""
    from ..randomization import UniformNoise
    from ..reconstruction import make_edges, response_matrix
    edges = make_edges((0, 1), width=width)
    noise = UniformNoise(alpha)
    diff = np.abs(response_matrix(edges, noise, method="bayes") - response_matrix(edges, noise, method="em"))
    return float(diff.max()), "em"


def judge_02_4(answer) -> Verdict:
    fmt = "a pair (largest absolute difference between the two matrices, 'bayes' or 'em')"
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        raise TypeError(f"check('02.4', answer): answer must be {fmt}, got {type(answer).__name__} {answer!r}"[:200])
    value = as_number(answer[0], "02.4", fmt, name="answer[0]")
    method = as_choice(answer[1], ("bayes", "em"), "02.4", fmt, name="answer[1]")
    ref, right = bayes_em_difference()
    # Deterministic; 10 % relative admits rounding to one significant figure (0.0086 -> 0.009).
    if not within(value, ref, max(0.1 * ref, P_02_4[0].tolerance(ref))):
        if value > 0.1:
            return Verdict(False, "the difference is small compared with the entries (~1/20): compare the two "
                                  "matrices entry by entry with np.abs(A - B).max().")
        return Verdict(False, "the largest difference is not right yet: same edges (width 0.05 on [0, 1]) for both.")
    if method != right:
        return Verdict(False, "which matrix is exact, and which one evaluates the density at a mid-point?")
    return Verdict(True, "EM's matrix is the exact one, so its answer is the maximum-likelihood estimate.")


EXERCISES = (
    Exercise("02.1", "One more iteration by hand", "structured",
             f"{NB}, §2 'A tiny example you can check by hand'",
             "a pair (Pr(I1), Pr(I2))", judge_02_1, tiny_third_iteration,
             tolerance="±0.001 on each: exact arithmetic, admits rounding to 3 decimals", precision=P_02_1),
    Exercise("02.2", "Privacy against accuracy", "rubric", f"{NB}, §8 'Try it yourself' and §6",
             rubric=("With uniform noise I saw the valley between the peaks rise from 50 % to 200 % privacy, "
                     "and I can say whether the two peaks survive.",
                     "With n = 50,000 I saw the valley deepen again and can say why more data helps.",
                     "With Gaussian noise at 100 % I saw what is left of the peaks, and can explain the "
                     "difference from uniform noise of the same 95 % width.")),
    Exercise("02.3", "The stopping rule", "rubric", f"{NB}, §2 'When to stop' and §3 'held-out likelihood'",
             rubric=("I recorded n_iter and the TV distance for tol = 1e-3, 1e-4 and 1e-5.",
                     "I can say how the error changes with more iterations, including that very long runs overfit.",
                     "I chose a tol without using the original data and can justify it (e.g. held-out likelihood).")),
    Exercise("02.4", "When Bayes and EM differ", "structured", f"{NB}, §4 'Iterative Bayes and EM: why they agree'",
             "a pair (largest absolute difference between the two matrices, 'bayes' or 'em')",
             judge_02_4, bayes_em_difference,
             tolerance="10 % relative on the difference (deterministic; admits one significant figure)",
             precision=P_02_4),
)
