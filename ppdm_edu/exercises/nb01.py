"""Exercises of notebook 01 (randomization and privacy)."""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .checking import Exercise, Precision, Verdict, as_number, as_numbers, numeric_verdict, within

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 01"
P_01_1 = Precision(significant=2)
P_01_2 = Precision(decimals=3)
P_01_3 = Precision(decimals=1)
P_01_4 = Precision(significant=2)
RATIO_01_2 = 1.2  # 01.2 asks where Gaussian noise's Π is 20 % above uniform noise's (not printed in §5)


def sigma_equal_entropy(alpha: float = 10.0) -> float:
    """Reference for 01.1: the Gaussian σ with the entropy privacy Π of uniform noise ``alpha``."""
    from ..randomization import GaussianNoise, UniformNoise
    return UniformNoise(alpha).privacy() / GaussianNoise(1.0).privacy()  # Π_G is linear in σ


def sigma_equal_width(alpha: float = 10.0, confidence: float = 0.95) -> float:
    """The typical mistake of 01.1: the Gaussian σ with the same ``confidence`` interval WIDTH as
    uniform noise ``alpha`` (Table 1's interval privacy), not the same entropy privacy Π."""
    from ..randomization import GaussianNoise, UniformNoise
    return GaussianNoise.from_interval_width(UniformNoise(alpha).interval_width(confidence), confidence).sigma


def judge_01_1(answer) -> Verdict:
    value = as_number(answer, "01.1", "a number (the Gaussian sigma)")
    ref = sigma_equal_entropy()
    # σ from equal 95 % widths (4.846) lies within the 2-figure tolerance of the reference (4.839):
    # both are "4.8", but 4.85 or 4.846 as written is the interval width, not Π.
    return numeric_verdict(value, ref, P_01_1.tolerance(ref), percent_hint=False, close_mistakes=(
        (sigma_equal_width(), "this σ gives the Gaussian the same 95 % interval WIDTH as the uniform noise "
                              "(Table 1's interval privacy); the question asks for the same ENTROPY privacy Π."),
    ),
                           what_to_check="check Π_U = 2α for α = 10, and Π_G = √(2πe) σ ≈ 4.13 σ; solve for σ.",
                           mistakes=(
        (sigma_equal_entropy(5.0), "the uniform noise on [−α, α] has width 2α: check Π_U."),
        (ref ** 2, "this is a variance: the question asks for σ."),
        (2 * 10.0, "this is Π_U itself: now find the σ whose Π_G equals it."),
    ))


def equal_privacy_confidence(ratio: float = RATIO_01_2) -> float:
    """Reference for 01.2: the confidence c at which, for equal c-interval widths, Gaussian noise's
    Π is ``ratio`` × uniform noise's (``ratio=1``: where they are equal, the 95.05 % of §5)."""
    from scipy.optimize import brentq

    from ..randomization import GaussianNoise, UniformNoise
    return brentq(lambda c: GaussianNoise.from_interval_width(1, c).privacy()
                  - ratio * UniformNoise.from_interval_width(1, c).privacy(), 0.3, 0.99, xtol=1e-10)


def judge_01_2(answer) -> Verdict:
    value = as_number(answer, "01.2", "a confidence level (float between 0 and 1)")
    ref = equal_privacy_confidence()
    return numeric_verdict(value, ref, P_01_2.tolerance(ref),
                           what_to_check="check that both noises get the same width at c "
                                         "(from_interval_width(1, c)) and that the root solves Π_G = 1.2 Π_U.",
                           mistakes=(
        (equal_privacy_confidence(1.0), "that is where the two Π are EQUAL: the question asks where Π_G is "
                                        "20 % larger than Π_U."),
        (equal_privacy_confidence(1 / RATIO_01_2), "the ratio is the wrong way round: Gaussian's Π must be the "
                                                   "larger one (Π_G = 1.2 Π_U)."),
    ))


def half_loss_snr() -> float:
    """Reference for 01.3: the SNR at which a Gaussian attribute with Gaussian noise loses half its
    privacy. Loss = 1 − 2^{−I(X;W)} with I = ½ log2(1 + SNR), i.e. 1 − (1 + SNR)^{−1/2}."""
    from scipy.optimize import brentq
    return brentq(lambda s: 1 - (1 + s) ** -0.5 - 0.5, 1e-6, 100, xtol=1e-12)


@lru_cache(maxsize=None)
def half_loss_snr_tolerance(n: int = 50_000, repeats: int = 10) -> float:
    """Tolerance of 01.3: 4 standard deviations of an SNR read off a simulated privacy loss.

    The simulated ``privacy_loss`` at SNR 3 with ``n`` records has a spread s over seeds; near
    SNR 3 the loss changes by d(loss)/d(SNR) = ½ (1 + SNR)^{−3/2} = 1/16 per unit of SNR, so an
    SNR found by simulation has a spread of s × 16. Measured, not guessed.
    """
    from ..privacy import privacy_loss
    from ..randomization import noise_for_snr, perturb
    snr = half_loss_snr()
    losses = []
    for seed in range(repeats):
        data_rng, noise_rng = np.random.SeedSequence(seed).spawn(2)
        x = np.random.default_rng(data_rng).normal(size=n)
        losses.append(privacy_loss(x, perturb(x, noise_for_snr(x, snr), rng=np.random.default_rng(noise_rng))))
    slope = 0.5 * (1 + snr) ** -1.5
    return 4 * float(np.std(losses, ddof=1)) / slope


def judge_01_3(answer) -> Verdict:
    value = as_number(answer, "01.3", "a signal-to-noise ratio (number, var(X)/var(R))")
    ref = half_loss_snr()
    # the simulation's spread widens the window around the reference only: the typical wrong
    # values are exact, so they are recognised at the stated precision (0.3 is not "0.5")
    return numeric_verdict(value, ref, half_loss_snr_tolerance() + P_01_3.tolerance(ref), percent_hint=False,
                           mistake_tol=P_01_3.tolerance(ref),
                           what_to_check="check the loss formula 1 − (1 + SNR)^(−1/2) for Gaussians and solve "
                                         "loss = 0.5 (or read the SNR where the simulated loss crosses 0.5).",
                           mistakes=(
        (1.0, "at SNR 1 the loss is larger than 0 but not yet 1/2: use the loss formula of §5 for Gaussians."),
        (0.5, "0.5 is the privacy loss asked for, not the SNR that produces it."),
        (math.sqrt(half_loss_snr()), "SNR is a ratio of variances, not of standard deviations."),
    ))


def discretization_equivalent(width: float = 10.0, confidence: float = 0.95) -> tuple[float, float]:
    """Reference for 01.4: interval privacy of value-class membership with intervals of ``width``,
    and the uniform α with the same interval privacy (Table 1 of Agrawal & Srikant)."""
    from ..randomization import UniformNoise
    interval = confidence * width  # the c-interval of a uniform position inside a class
    return interval, UniformNoise.from_interval_width(interval, confidence).alpha


def judge_01_4(answer) -> Verdict:
    fmt = "a pair (interval privacy in years, uniform alpha in years)"
    interval, alpha = as_numbers(answer, 2, "01.4", fmt)
    ref_i, ref_a = discretization_equivalent()
    tol = max(P_01_4.tolerance(ref_i), 0.005 * ref_i)  # exact values; admits rounding to 2 figures
    if not within(interval, ref_i, tol):
        if within(interval, 10.0, tol):
            return Verdict(False, "the interval privacy is taken at 95 % confidence, not 100 %.")
        return Verdict(False, "the interval privacy is not right yet: a value is known to lie in a class of "
                              "width 10; how wide is the interval that holds it with 95 % confidence?")
    tol = max(P_01_4.tolerance(ref_a), 0.005 * ref_a)
    if not within(alpha, ref_a, tol):
        if within(alpha, 2 * ref_a, 2 * tol) or within(alpha, ref_i, tol):
            return Verdict(False, "uniform noise on [−α, α] has width 2α: α is not the width.")
        return Verdict(False, "α is not right yet (Table 1: uniform interval width = 2α × confidence).")
    return Verdict(True, "both numbers are right; now the 'why' (rubric below).")



def discretization_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 01.4 (one paragraph per rubric item)."""
    return (
        "Interval privacy of discretization is confidence × class width. To reach 100 % of the attribute's "
        "range at 95 % confidence a class must be wider than the whole range (width ≥ range / 0.95): one class "
        "holds every record, every value is reported as that class, and nothing is left to learn. Uniform noise "
        "with the same interval privacy keeps each value and only blurs it, so the distribution stays learnable.",
        "The noise is independent of the data, drawn record by record from a public distribution: the perturbed "
        "values follow f_X convolved with the noise density, and over many records that convolution can be "
        "undone (notebook 02's reconstruction) although no single value can. A class label is a deterministic "
        "coarsening: what lies inside a class is gone for good.",
    )


EXERCISES = (
    Exercise("01.1", "Equal entropy privacy", "numeric",
             f"{NB}, §5 'Entropy privacy Π(A), conditional privacy and privacy loss'",
             "a number (the Gaussian sigma)", judge_01_1, sigma_equal_entropy,
             tolerance="half a unit of the 2nd significant figure (±0.05): a closed form", precision=P_01_1),
    Exercise("01.2", "Equal width, 20 % more Π", "numeric", f"{NB}, §3 'Table 1: interval privacy' and §5",
             "a confidence level (float between 0 and 1)", judge_01_2, equal_privacy_confidence,
             tolerance="±0.0005: deterministic root; admits rounding to 3 decimals", precision=P_01_2),
    Exercise("01.3", "Half the privacy lost", "numeric", f"{NB}, §5 'Privacy loss against SNR'",
             "a signal-to-noise ratio (number, var(X)/var(R))", judge_01_3, half_loss_snr,
             tolerance="4 standard deviations of an SNR read off a simulation with n = 50,000 (loss spread "
                       "measured over 10 seeds, divided by the slope 1/16 of the loss at SNR 3): about ±0.16, "
                       "+0.05 for rounding to 1 decimal", precision=P_01_3),
    Exercise("01.4", "Discretization vs value distortion", "structured",
             f"{NB}, §3 'Table 1: interval privacy' (and Section 2.1 of the paper)",
             "a pair (interval privacy in years, uniform alpha in years)", judge_01_4, discretization_equivalent,
             tolerance="half a unit of the 2nd significant figure on both numbers (exact values)",
             precision=P_01_4,
             rubric=("Why the paper still prefers value distortion: I can say what discretization must do "
                     "to reach 100 % privacy, and what is then left to learn.",
                     "I can say why noise of the same size can still be 'reconstructed away' in aggregate (notebook 02)."),
             model_answer=discretization_model_answer),
)
