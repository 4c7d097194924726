"""Exercises of notebook 05 (decision trees from randomized-response data)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .checking import Exercise, Precision, Verdict, as_number, as_numbers, as_seed, numeric_verdict, within

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 05"
P_ACC = Precision(decimals=3, what="accuracies", ratio_of_counts=True)
P_05_1 = (None, P_ACC, P_ACC)  # the disguise seed is exact
P_05_2 = Precision(decimals=3, ratio_of_counts=True)  # a median of accuracies
P_05_4 = Precision(significant=2)


@lru_cache(maxsize=64)
def disguised_accuracies(seed: int, theta: float) -> tuple[float, float]:
    """(RR-ID3, plain ID3) test accuracy on the binarized Adult data disguised with ``theta`` and
    ``seed``: the right method, and the mistake the judge of 05.1 recognises."""
    from ..datasets import adult_binary
    from ..randomized_response import mrr_disguise
    from ..trees import ID3, RRID3
    data = adult_binary()
    features = list(data.feature_names)
    G = mrr_disguise(data.train, theta, rng=seed)
    rr = RRID3(theta=theta).fit(G[features], G["income"]).score(data.X_test, data.y_test)
    plain = ID3().fit(G[features], G["income"]).score(data.X_test, data.y_test)
    return float(rr), float(plain)


def symmetric_thetas(seed: int = 0) -> tuple[int, float, float]:
    """Reference for 05.1: (disguise seed, RR-ID3 accuracy at θ = 0.2, at θ = 0.8)."""
    return seed, disguised_accuracies(seed, 0.2)[0], disguised_accuracies(seed, 0.8)[0]


def judge_05_1(answer) -> Verdict:
    fmt = "a triple (disguise seed, test accuracy at theta=0.2, at theta=0.8)"
    as_numbers(answer, 3, "05.1", fmt)
    seed = as_seed(answer[0], "05.1", fmt)
    _, acc2, acc8 = as_numbers(answer, 3, "05.1", fmt)
    # Recomputed from the stated seed (mrr_disguise(data.train, θ, rng=seed)): 3 decimals.
    (rr2, id2), (rr8, id8) = disguised_accuracies(seed, 0.2), disguised_accuracies(seed, 0.8)
    ok2, ok8 = within(acc2, rr2, P_ACC.tolerance(rr2)), within(acc8, rr8, P_ACC.tolerance(rr8))

    def matches(a2: float, a8: float) -> bool:  # RR-ID3's or plain ID3's accuracies, both θ, 3 decimals
        return (any(within(a2, r, P_ACC.tolerance(r)) for r in (rr2, id2))
                and any(within(a8, r, P_ACC.tolerance(r)) for r in (rr8, id8)))
    # a unit or complement hint only where the transformed answer IS the accuracies: 1.5 is not a
    # percentage of anything here, and 0.3 is not an error rate of an 81 % tree
    if max(acc2, acc8) > 1:
        if matches(acc2 / 100, acc8 / 100):
            return Verdict(False, "give accuracies as fractions (0 to 1), not percentages.")
        return Verdict(False, "an accuracy is a share of correct predictions, between 0 and 1.")
    if matches(1 - acc2, 1 - acc8):
        return Verdict(False, "these look like error rates: give accuracies (share of correct predictions).")
    if ok2 and ok8:
        return Verdict(True, "the same up to the luck of the coin; the rubric asks why.")
    if (ok2 or within(acc2, id2, P_ACC.tolerance(id2))) and (ok8 or within(acc8, id8, P_ACC.tolerance(id8))):
        return Verdict(False, "this is plain ID3 on the disguised data: it takes the disguised counts at face "
                              "value. Build RRID3(theta=θ), which estimates the true counts (Eq. 3).")
    if within(acc2, rr8, P_ACC.tolerance(rr8)) and within(acc8, rr2, P_ACC.tolerance(rr2)):
        return Verdict(False, "the two accuracies look swapped.")
    return Verdict(False, f"the accuracies do not match RR-ID3 with disguise seed {seed}: disguise with "
                          f"mrr_disguise(data.train, θ, rng={seed}), fit RRID3(theta=θ) with the same θ, and score "
                          "on the original test set, to 3 decimals.")


@lru_cache(maxsize=None)
def median_original_accuracy(threshold: str = "median") -> float:
    """Reference for 05.2: test accuracy of ID3 on the original (undisguised) binarized Adult data."""
    from ..datasets import adult_binary
    from ..trees import ID3
    med = adult_binary(threshold=threshold)
    return float(ID3().fit(med.X_train, med.y_train).score(med.X_test, med.y_test))


def judge_05_2(answer) -> Verdict:
    value = as_number(answer, "05.2", "a test accuracy (fraction) of ID3 on adult_binary(threshold='median')")
    # ID3 on fixed data is deterministic: ±0.001 admits rounding to 3 decimals.
    ref = median_original_accuracy()
    return numeric_verdict(value, ref, max(1e-3, P_05_2.tolerance(ref)),
                           what_to_check="check that ID3 is trained on adult_binary(threshold='median')'s "
                                         "original X_train, y_train and scored on its X_test, y_test.",
                           mistakes=(
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
    # 1 % relative or half a unit of the 2nd significant figure, whichever is larger
    tol = np.maximum(0.01 * ref, [P_05_4.tolerance(r) for r in ref])
    if np.all(np.abs(values - ref) <= tol):
        return Verdict(True, "the factor explodes near θ = 0.5, like the variance panel.")
    if np.all(np.abs(np.abs(values) - ref) <= tol):
        return Verdict(False, "a factor is an absolute value: |2θ − 1|.")
    if np.all(np.abs(values - ref ** 2) <= np.maximum(tol, 0.01 * ref ** 2)):
        return Verdict(False, "that is the factor on the variance; the question asks for the standard deviation's.")
    if np.all(np.abs(np.sort(values) - np.sort(ref)) <= np.sort(tol)):
        return Verdict(False, "right values in the wrong order: follow θ = 0.1, 0.2, ..., 1.0.")
    wrong = [f"θ = {t}" for t, v, r, d in zip(_thetas(), values, ref, tol) if abs(v - r) > d]
    return Verdict(False, f"check 1 / |2θ − 1| at {', '.join(wrong[:3])}" + (" ..." if len(wrong) > 3 else "") + ".")


def _thetas():
    from ..datasets.adult_binary import DU_ZHAN_THETAS as PAPER_THETAS
    return PAPER_THETAS



def symmetric_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 05.1."""
    return (
        "Disguising with 1 − θ keeps a record with probability 1 − θ and flips it with probability θ: that is "
        "the θ-disguise followed by flipping every record. RR-ID3 knows θ, and Eq. 3's matrix for 1 − θ is the "
        "one for θ with its columns swapped, so it estimates the same true counts from the flipped data: the "
        "splits and the accuracy have the same distribution at θ and 1 − θ, and a run at each differs only by "
        "the luck of the coin.",
    )



def factor_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 05.4."""
    return (
        "The factor 1/|2θ − 1| multiplies the sampling noise of every estimated count, so the variance of an "
        "estimate grows with its square, 1/(2θ − 1)²: Fig. 2's variance panel has the same order, is symmetric "
        "around θ = 0.5, smallest at θ = 0 and 1, and steep near 0.5, where the matrix of Eq. 3 is singular "
        "and the factor is infinite.",
    )


EXERCISES = (
    Exercise("05.1", "θ = 0.2 against θ = 0.8", "structured", f"{NB}, 'Fig. 2 reproduced' and 'Privacy: θ and ε'",
             "a triple (disguise seed, test accuracy at theta=0.2, at theta=0.8)", judge_05_1, symmetric_thetas,
             tolerance="recomputed from the stated disguise seed: ±0.0005 (3 decimals) on each accuracy",
             precision=P_05_1,
             rubric=("I can explain why disguising with θ equals disguising with 1 − θ and flipping every record.",),
             model_answer=symmetric_model_answer),
    Exercise("05.2", "The median binarization", "numeric", f"{NB}, 'The data: Adult, made binary as in Section 5.1'",
             "a test accuracy (fraction) of ID3 on adult_binary(threshold='median')",
             judge_05_2, median_original_accuracy, tolerance="±0.001 (deterministic; admits 3 decimals)",
             precision=P_05_2,
             rubric=("I listed the attributes used in the first three levels and what changed from the default version.",
                     "I ran one RR-ID3 tree at θ = 0.7 on this version and compared it with the default one.")),
    Exercise("05.3", "A truthful class label", "rubric", f"{NB}, 'Testing on disguised data' and notebook 03 exercise 3",
             rubric=("I ran both variants with the same runs and seed and wrote down the mean accuracies.",
                     "I compared the difference with the run-to-run standard deviation before naming a winner.",
                     "I can say why the label is only a small part of the noise in a path conjunction.")),
    Exercise("05.4", "The factor 1/|2θ − 1|", "structured", f"{NB}, 'How one node's counts are estimated' and Fig. 2",
             "a sequence of 12 factors, one per theta of Fig. 2 (0.1, 0.2, ..., 1.0)",
             judge_05_4, inverse_determinant_factors,
             tolerance="1 % relative or half a unit of the 2nd significant figure (exact; admits 2 figures)",
             precision=P_05_4,
             rubric=("I related the factors to the variance panel of Fig. 2 (same order, steep near 0.5).",),
             model_answer=factor_model_answer),
)
