"""Exercises of notebook 05 (decision trees from randomized-response data)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .checking import Exercise, Verdict, as_number, as_numbers, numeric_verdict, within

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 05"


@lru_cache(maxsize=None)
def rr_id3_accuracies(theta: float, runs: int = 10) -> tuple[float, ...]:
    """RR-ID3 test accuracies on the binarized Adult data for disguise seeds 0 .. runs-1."""
    from ..datasets import adult_binary
    from ..randomized_response import mrr_disguise
    from ..trees import RRID3
    data = adult_binary()
    features = list(data.feature_names)
    out = []
    for seed in range(runs):
        G = mrr_disguise(data.train, theta, rng=seed)
        out.append(RRID3(theta=theta).fit(G[features], G["income"]).score(data.X_test, data.y_test))
    return tuple(float(a) for a in out)


def symmetric_thetas() -> tuple[float, float]:
    """Reference for 05.1: RR-ID3 accuracy at θ = 0.2 and θ = 0.8 (disguise seed 0)."""
    return rr_id3_accuracies(0.2)[0], rr_id3_accuracies(0.8)[0]


def symmetric_thetas_tolerance() -> float:
    """Tolerance of 05.1: 4 pooled standard deviations of one run's accuracy over disguise seeds
    (10 seeds per θ), so that any seed's honest answer passes."""
    a, b = np.array(rr_id3_accuracies(0.2)), np.array(rr_id3_accuracies(0.8))
    return 4 * float(np.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2))


def judge_05_1(answer) -> Verdict:
    acc2, acc8 = as_numbers(answer, 2, "05.1", "a pair (test accuracy at theta=0.2, at theta=0.8)")
    if max(acc2, acc8) > 1:
        return Verdict(False, "give accuracies as fractions (0 to 1), not percentages.")
    if max(acc2, acc8) < 0.5:
        return Verdict(False, "these look like error rates: give accuracies (share of correct predictions).")
    tol = symmetric_thetas_tolerance()
    centre = float(np.mean(rr_id3_accuracies(0.2) + rr_id3_accuracies(0.8)))
    if not (within(acc2, centre, tol) and within(acc8, centre, tol)):
        return Verdict(False, "the accuracies are outside the spread of honest runs: build RRID3(theta=t) on data "
                              "disguised with the same θ t, and score on the original test set.")
    if abs(acc2 - acc8) > tol * np.sqrt(2):
        return Verdict(False, "the two accuracies differ more than the coin flips explain.")
    return Verdict(True, "the same up to the luck of the coin; the rubric asks why.")


@lru_cache(maxsize=None)
def median_original_accuracy(threshold: str = "median") -> float:
    """Reference for 05.2: test accuracy of ID3 on the original (undisguised) binarized Adult data."""
    from ..datasets import adult_binary
    from ..trees import ID3
    med = adult_binary(threshold=threshold)
    return float(ID3().fit(med.X_train, med.y_train).score(med.X_test, med.y_test))


def judge_05_2(answer) -> Verdict:
    value = as_number(answer, "05.2", "a test accuracy (fraction) of ID3 on adult_binary(threshold='median')")
    # ID3 on fixed data is deterministic: ±0.001 admits rounding to 0.1 %.
    return numeric_verdict(value, median_original_accuracy(), 1e-3, mistakes=(
        (median_original_accuracy("range_midpoint"), "this is the accuracy with the default binarization: "
                                            "pass threshold='median' to adult_binary."),
    ))


def inverse_determinant_factors() -> tuple[float, ...]:
    """Reference for 05.4: 1/|2θ − 1| for the twelve θ of Du & Zhan's Fig. 2 (in that order)."""
    from ..datasets.adult_binary import DU_ZHAN_THETAS
    return tuple(float(1 / abs(2 * t - 1)) for t in DU_ZHAN_THETAS)


def judge_05_4(answer) -> Verdict:
    ref = np.array(inverse_determinant_factors())
    values = np.array(as_numbers(answer, ref.size, "05.4",
                                 "a sequence of 12 factors, one per theta of Fig. 2 (0.1, 0.2, ..., 1.0)"))
    if np.allclose(values, ref, rtol=0.01):  # admits 3 significant figures
        return Verdict(True, "the factor explodes near θ = 0.5, like the variance panel.")
    if np.allclose(np.abs(values), ref, rtol=0.01):
        return Verdict(False, "a factor is an absolute value: |2θ − 1|.")
    if np.allclose(values, ref ** 2, rtol=0.01):
        return Verdict(False, "that is the factor on the variance; the question asks for the standard deviation's.")
    if np.allclose(np.sort(values), np.sort(ref), rtol=0.01):
        return Verdict(False, "right values in the wrong order: follow θ = 0.1, 0.2, ..., 1.0.")
    return Verdict(False, "not yet: 1 / |2θ − 1| for each θ.")


EXERCISES = (
    Exercise("05.1", "θ = 0.2 against θ = 0.8", "structured", f"{NB}, 'Fig. 2 reproduced' and 'Privacy: θ and ε'",
             "a pair (test accuracy at theta=0.2, at theta=0.8)", judge_05_1, symmetric_thetas,
             tolerance="4 pooled SDs of one run's accuracy over 10 disguise seeds per θ (computed); the two "
                       "answers may differ by √2 × that",
             rubric=("I can explain why disguising with θ equals disguising with 1 − θ and flipping every record.",)),
    Exercise("05.2", "The median binarization", "numeric", f"{NB}, 'The data: Adult, made binary as in Section 5.1'",
             "a test accuracy (fraction) of ID3 on adult_binary(threshold='median')",
             judge_05_2, median_original_accuracy, tolerance="±0.001 (deterministic; admits 0.1 % rounding)",
             rubric=("I listed the attributes used in the first three levels and what changed from the default version.",
                     "I ran one RR-ID3 tree at θ = 0.7 on this version and compared it with the default one.")),
    Exercise("05.3", "A truthful class label", "rubric", f"{NB}, 'Testing on disguised data' and notebook 03 exercise 3",
             rubric=("I ran both variants with the same runs and seed and wrote down the mean accuracies.",
                     "I compared the difference with the run-to-run standard deviation before naming a winner.",
                     "I can say why the label is only a small part of the noise in a path conjunction.")),
    Exercise("05.4", "The factor 1/|2θ − 1|", "structured", f"{NB}, 'How one node's counts are estimated' and Fig. 2",
             "a sequence of 12 factors, one per theta of Fig. 2 (0.1, 0.2, ..., 1.0)",
             judge_05_4, inverse_determinant_factors, tolerance="1 % relative (exact; admits 3 significant figures)",
             rubric=("I related the factors to the variance panel of Fig. 2 (same order, steep near 0.5).",)),
)
