"""Exercises of notebook 06 (mining perturbed data directly: Liu, Kantarcioglu & Thuraisingham)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .checking import Exercise, Precision, Verdict, as_choice, as_number, within

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 06"
P_06_1 = (None, Precision(decimals=2, what="accuracies", ratio_of_counts=True),
          Precision(decimals=2, what="accuracies", ratio_of_counts=True))
NOISE_SEEDS = tuple(range(3, 13))  # the exercise uses rng=3; ten seeds measure the spread


@lru_cache(maxsize=None)
def low_snr_naive_bayes(noise_rng: int = 3) -> tuple[tuple[str, ...], float, float]:
    """(attributes whose variance hits the floor in some class, accuracy corrected, accuracy
    uncorrected) of PerturbedGaussianNB with Gaussian noise at SNR 0.1 on the notebook's data."""
    from ..datasets import ADULT_CONTINUOUS
    from ..datasets.adult_continuous import adult_xy, make_noises
    from ..naive_bayes import PerturbedGaussianNB
    from ..randomization import perturb
    X, y, X_test, y_test = adult_xy(n_train=10_000, rng=0)
    noises = make_noises(X, snr=0.1, kind="gaussian")
    W = perturb(X, dict(enumerate(noises)), rng=noise_rng)
    fitted = PerturbedGaussianNB(noise=dict(enumerate(noises))).fit(W, y)
    raw = PerturbedGaussianNB(noise=dict(enumerate(noises)), correct_variance=False).fit(W, y)
    floored = tuple(ADULT_CONTINUOUS[j] for j in np.flatnonzero(np.asarray(fitted.floored_).any(axis=0)))
    return floored, float(fitted.score(X_test, y_test)), float(raw.score(X_test, y_test))


def low_snr_reference() -> tuple[str, float, float]:
    """Reference for 06.1: (the floored attribute, accuracy corrected, accuracy uncorrected)."""
    floored, corrected, raw = low_snr_naive_bayes()
    return floored[0], corrected, raw


def low_snr_tolerance() -> tuple[set, float, float, float, float]:
    """Accepted floored attributes (union over 10 noise seeds), the centre and tolerance of each
    accuracy: 4 SDs over the seeds plus 0.005 for rounding to 0.5 %."""
    runs = [low_snr_naive_bayes(s) for s in NOISE_SEEDS]
    names = set().union(*(r[0] for r in runs))
    corrected, raw = np.array([r[1] for r in runs]), np.array([r[2] for r in runs])
    return (names, corrected.mean(), 4 * corrected.std(ddof=1) + 0.005, raw.mean(), 4 * raw.std(ddof=1) + 0.005)


def judge_06_1(answer) -> Verdict:
    from ..datasets import ADULT_CONTINUOUS
    fmt = "a triple (floored attribute name, test accuracy corrected, test accuracy uncorrected)"
    if not isinstance(answer, (tuple, list)) or len(answer) != 3:
        raise TypeError(f"check('06.1', answer): answer must be {fmt}, got {type(answer).__name__} {answer!r}"[:200])
    name = as_choice(answer[0], ADULT_CONTINUOUS, "06.1", fmt, name="answer[0]")
    corrected = as_number(answer[1], "06.1", fmt, name="answer[1]")
    raw = as_number(answer[2], "06.1", fmt, name="answer[2]")
    names, c_mid, c_tol, r_mid, r_tol = low_snr_tolerance()
    if name not in names:
        return Verdict(False, "look at nb.floored_ (rows: classes, columns: attributes): which column has a True?")
    def plausible(value: float) -> bool:  # an accuracy one of the two models gets (over the noise seeds)
        return within(value, c_mid, c_tol) or within(value, r_mid, r_tol)
    # a hint about units or about the order of the two models only where it is the fix: 1.5 is not
    # a percentage of either accuracy, and (0.5, 0.6) is no model's pair at all
    if max(corrected, raw) > 1:
        if plausible(corrected / 100) and plausible(raw / 100):
            return Verdict(False, "give accuracies as fractions (0 to 1), not percentages.")
        return Verdict(False, "an accuracy is a share of correct predictions, between 0 and 1.")
    if within(corrected, r_mid, r_tol) and within(raw, c_mid, c_tol):
        return Verdict(False, "the two accuracies look swapped: which model has correct_variance=False?")
    if corrected <= raw and plausible(corrected) and plausible(raw):
        return Verdict(False, "compare the two models again: which one's Gaussians are too wide?")
    if not (within(corrected, c_mid, c_tol) and within(raw, r_mid, r_tol)):
        return Verdict(False, "the accuracies are not right yet: fit both models on W perturbed at SNR 0.1 with "
                              "rng=3, and score both on the ORIGINAL X_test, y_test.")
    return Verdict(True, "the rubric asks why that attribute, and why the uncorrected model falls.")


@lru_cache(maxsize=None)
def threshold_changes(threshold: float = 0.3, n_train: int = 2000) -> str:
    """Reference for 06.2: what a threshold other than 0.5 changes in PPDTC4.5's tree (Eq. 10-12),
    found by building both trees on perturbed Adult records: "split points" when the features
    (hence the partitions) are C4.5's and only the thresholds move, "partitions" otherwise."""
    from ..datasets.adult_continuous import adult_xy, make_noises
    from ..randomization import perturb
    from ..trees import C45, PPDTC45
    X, y, _, _ = adult_xy(n_train=n_train, rng=0)
    noises = make_noises(X, "data1")
    W = perturb(X, dict(enumerate(noises)), rng=1)
    ppdt = PPDTC45(dict(enumerate(noises)), split="threshold", threshold=threshold).fit(W, y).tree_
    c45 = C45().fit(W, y).tree_
    same_partitions = np.array_equal(ppdt.feature, c45.feature)
    moved = not np.allclose(ppdt.threshold, c45.threshold)
    return "split points" if same_partitions and moved else "partitions"


def judge_06_2(answer) -> Verdict:
    choice = as_choice(answer, ("split points", "partitions"), "06.2", "'split points' or 'partitions' (str)")
    if choice == threshold_changes():
        return Verdict(True, "compare tree_.feature (identical) and tree_.threshold (shifted by shift_).")
    return Verdict(False, "p_S1(w|t) > θ ⇔ w < t + F_R^(-1)(1 − θ): which sets of records can be sent left?")



def floor_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 06.1."""
    return (
        "capital_gain is 0 for most people, so within a class its variance is small next to the noise, whose "
        "variance at SNR 0.1 is ten times the attribute's variance over all records. S²_W − σ²_R is then a "
        "small difference of two large numbers, and sampling makes it ≤ 0 in a class: the estimate is floored.",
        "Without the correction every class's variance is S²_W ≈ var(X) + σ²_R, about 11 × var(X) at SNR 0.1: "
        "Gaussians that wide overlap, the class likelihoods become nearly equal, the class prior decides, and "
        "the model falls towards predicting the majority class, whose share of the test set is the baseline.",
    )



def threshold_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 06.2."""
    return (
        "p_S1(w | t) = P(x ≤ t | w) = P(R ≥ w − t) = 1 − F_R(w − t), so p_S1(w | t) > θ ⇔ F_R(w − t) < 1 − θ "
        "⇔ w < t + F_R⁻¹(1 − θ). For symmetric noise F_R⁻¹(0.5) = 0: at θ = 0.5 the rule is w < t, C4.5's own "
        "test on the perturbed values, so PPDTC4.5 builds C4.5's tree.",
        "At threshold 0.3 every test is still a threshold on w, shifted by the same F_R⁻¹(0.7) of that "
        "attribute's noise, so the achievable partitions, and the best one, are C4.5's: PPDTC45(..., "
        "threshold=0.3).tree_ has C4.5's feature at every node, and its thresholds t are C4.5's minus that "
        "shift. The split points move; the partitions do not.",
    )


EXERCISES = (
    Exercise("06.1", "Variances on the floor", "structured", f"{NB}, 'Naive Bayes on perturbed data (Section 5)'",
             "a triple (floored attribute name, test accuracy corrected, test accuracy uncorrected)",
             judge_06_1, low_snr_reference,
             tolerance="attribute: any floored under noise seeds 3-12; accuracies: 4 SDs over those seeds + 0.005 (rounding), and corrected > uncorrected",
             precision=P_06_1,
             rubric=("I can say why that class's variance hits the floor (S² − σ² of two large numbers).",
                     "I can say why the uncorrected model falls towards the 76.4 % baseline (variance × 11)."),
             model_answer=floor_model_answer),
    Exercise("06.2", "Threshold 0.5 is C4.5", "structured", f"{NB}, 'PPDTC4.5: asking how likely is x ≤ t' (Section 6)",
             "'split points' or 'partitions' (str)", judge_06_2, threshold_changes, tolerance="exact (a choice)",
             rubric=("I wrote the proof: p_S1(w|t) > θ ⇔ w < t + F_R⁻¹(1 − θ), and F_R⁻¹(0.5) = 0 for symmetric noise.",
                     "I checked PPDTC45(..., threshold=0.3).tree_ against C45().fit(W, y).tree_ (feature and threshold)."),
             model_answer=threshold_model_answer),
    Exercise("06.3", "How can accuracy fall below the baseline?", "rubric", f"{NB}, 'What did and did not reproduce'",
             rubric=("I built a pipeline (e.g. reconstruction by class with different numbers of intervals) and "
                     "measured its training accuracy and its accuracy on original records.",
                     "I can explain how the reconstructed values can encode the class.",
                     "I said honestly which part of the paper's Table 5 my pipeline does and does not reproduce.")),
    Exercise("06.4", "The best threshold", "rubric", f"{NB}, 'Try it: threshold and SNR' and Figures 1-2",
             rubric=("I recorded the accuracy on original records for several thresholds, Gaussian and uniform.",
                     "I compared the best threshold with the paper's 0.3 and with Figures 1-2.",
                     "I can explain what a low threshold does to the split points with uniform noise (the shift α(1 − 2θ)).",
                     "I said how much one sample and one noise draw decide (the figures' error bars).")),
)
