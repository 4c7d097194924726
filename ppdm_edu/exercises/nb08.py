"""Exercises of notebook 08 (choosing a mechanism: the privacy/accuracy trade-off)."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from .checking import (
    EXACT,
    AnswerFormatError,
    Exercise,
    Precision,
    Verdict,
    as_choice,
    as_number,
    matches_as_written,
    numeric_verdict,
)

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 08"
FMT_08_1 = "a number of categories k (a whole number)"
FMT_08_2 = "a ratio of standard deviations (local / central)"
FMT_08_4 = "the letters of the refuted claims (str, e.g. 'AC'; '' for none)"
P_08_1 = EXACT
P_08_2 = Precision(significant=2)


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
    if value == 10:  # §5 measures k = 10 (a close call); the hint must not state the bound
        return Verdict(False, "§5's measurement at this k is a close call on one skewed distribution; the question "
                              "asks for Wang et al.'s variances: evaluate (e^ε + k − 2) / (4e^ε) at your k.")
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


def mae_ratio(epsilon: float = 1.0, n: int = 10_000) -> float:
    """The ratio of mean absolute errors that §4 measures, in theory: Warner's estimate is close to
    normal (MAE = sd √(2/π)), the central Laplace(1/ε) share has MAE b = 1/(nε) = sd / √2."""
    return local_central_ratio(epsilon, n) * math.sqrt(2 / math.pi) * math.sqrt(2.0)


@lru_cache(maxsize=None)
def measured_mae_ratio(n: int = 10_000, runs: int = 400) -> float:
    """§4's measured ratio of mean absolute errors, local Warner RR / central Laplace, at ``n``:
    the notebook's own computation (same seeds), so that a student who copies it is told what it is."""
    import numpy as np

    from ..tradeoff import run_error, task_data
    errors: dict[str, list[float]] = {"warner": [], "central-laplace": []}
    for run in range(runs):
        x = task_data("share", n, rng=np.random.default_rng([0, n, run]))
        for name in errors:
            errors[name].append(run_error("share", name, 1.0, x, rng=np.random.default_rng([1, n, run]),
                                          estimator="inversion"))
    return float(np.mean(errors["warner"]) / np.mean(errors["central-laplace"]))


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
    verdict = numeric_verdict(value, ref, tol, percent_hint=False, mistakes=(
        (ref ** 2, "that is the ratio of variances: take the square root."),
        (ref * math.sqrt(2.0), "the Laplace(b) standard deviation is √2 b, not b."),
        (ref * 100, "Warner's variance is for one respondent: divide it by n = 10,000 before the square root."),
        (_ratio_at_theta(2 / 3),  # θ = 2/(1 + 2): 2^ε in place of e^ε
         "θ = e^ε / (1 + e^ε) with the natural exponential: at ε = 1, θ = e / (1 + e)."),
        (local_central_ratio(pi=0.3), "this includes the sampling variance π(1 − π)/n: the exercise asks for the "
                                      "device alone (std_error_disguise, π = 0 or 1 in warner_std_error)."),
    ), what_to_check="check θ = e/(1 + e), Warner's device variance θ(1 − θ)/(n(2θ − 1)²) and the central share's "
                     "sd √2/(nε), both at n = 10,000.")
    # §4 prints a ratio of MEAN ABSOLUTE ERRORS from a finite number of runs (theory: 1.13 × the sd
    # ratio): a student who copies it (as printed or rounded), or computes the MAE ratio on paper,
    # is told so rather than sent to recheck θ. Other values near it are not diagnosed: the
    # measured ratio scatters over the reference too.
    if not verdict.correct and verdict.message.startswith("check θ") and (
            abs(value - mae_ratio()) <= tol * mae_ratio() / ref or matches_as_written(value, measured_mae_ratio())):
        return Verdict(False, "this is a ratio of mean absolute errors, which §4 measures (a normal error's MAE "
                              "is sd·√(2/π), Laplace(b)'s is b): the exercise asks for the ratio of the two "
                              "standard deviations, computed on paper.")
    return verdict


def _band_sd(mechanism: str, epsilon: float, k: int = 10, n: int = 5000) -> float:
    """Standard deviation of one band's estimated frequency (Wang et al. 2017, Eq. 4 and 9, the
    term that does not depend on the true frequency) with ``n`` respondents."""
    e = math.exp(epsilon)
    var = (e + k - 2) / ((e - 1) ** 2 * n) if mechanism == "grr" else 4 * e / ((e - 1) ** 2 * n)
    return math.sqrt(var)


def recommendation_model_answer() -> tuple[str, ...]:
    """The lecturer's key to 08.3: 5,000 respondents, a ten-band age histogram, no raw answers held
    (so no trusted curator: a local mechanism). One paragraph per rubric item; the numbers are
    computed here from Wang et al.'s variances, not typed."""
    grid = (0.5, 1.0, 2.0)
    sds = ", ".join(f"ε = {e:g}: GRR {_band_sd('grr', e):.3f}, OUE {_band_sd('oue', e):.3f}" for e in grid)
    return (
        "Task: a histogram of k = 10 age bands from n = 5,000 respondents; no raw answers are held, so only a "
        "local mechanism fits. Each respondent reports one value (the age band), so the neighbour relation is the "
        f"respondent's record, which here is that one attribute. The sd of one band's share (Wang et al.): {sds}. "
        f"By the rule k > 3e^ε + 2, OUE is better for ε below ln(8/3) ≈ {math.log(8 / 3):.2f} and GRR above it; "
        f"at ε = 1 their variances differ by {abs(1 - _band_sd('grr', 1.0) ** 2 / _band_sd('oue', 1.0) ** 2):.1%}. "
        "A defensible recommendation: GRR (or OUE) at ε between 1 and 2, estimated by inversion projected onto the "
        "simplex or a converged iterative Bayes, because at ε = 0.5 even the better of the two has an sd of "
        f"{min(_band_sd('grr', 0.5), _band_sd('oue', 0.5)) * 10:.0%} of an average band's share (1/k).",
        "The choice rests on the CLAIMED ε of GRR/OUE, which is proved for the value-level neighbour relation (any "
        "two ages) and which the audit of §2 did not refute; an audit only gives a lower bound, so it can refute "
        "a claim but never confirm it. Uniform noise has an audited ε that keeps growing (ε = ∞), and interval "
        "privacy is not a worst-case guarantee, so neither qualifies. Laplace or Gaussian noise on the age is "
        "possible, but the Gaussian also needs a δ, and an early-stopped iterative Bayes is a shrinkage estimator, "
        "not a property of the mechanism.",
        "No trusted curator: the agency will not hold raw answers. If it could, central Laplace noise on the ten "
        "counts would cut the error by a factor that grows like √n (§4); that is what trusting a curator buys.",
    )



def crossover_model_answer() -> tuple[str, ...]:
    """The lecturer's key to the "why" of 08.1."""
    return (
        "Wang et al.'s rule compares approximate variances that keep only the term n·q(1 − q)/(p − q)², which "
        "does not depend on the true frequencies; the exact variance adds n·f_v(1 − p − q)/(p − q), which "
        "differs between GRR and OUE. Near k = 3e^ε + 2 the approximate variances are equal, so that neglected "
        "term (set by the measured distribution's own frequencies) and the spread of a finite number of runs "
        "decide which one §5 measures as better.",
    )


class Suspect(NamedTuple):
    """One claim of 08.4: a mechanism, two neighbouring inputs and the (ε, δ) it claims for them."""

    description: str
    mechanism: object
    x0: object
    x1: object
    epsilon: float
    delta: float


#: runs per input, seed and confidence of the audits that the reference of 08.4 runs (the
#: notebook's, too). Four claims are audited at once: at 99 % each, the chance of calling any of
#: the true ones false stays below 5 % (Bonferroni), where 95 % each would allow up to 20 %.
TRIALS_08_4 = 20_000
SEED_08_4 = 0
CONFIDENCE_08_4 = 0.99


def suspects() -> dict[str, Suspect]:
    """The four claims of 08.4, by letter: two true, two false (the truth is in the comments).

    Returns
    -------
    dict of str to Suspect
        ``"A"`` to ``"D"``.
    """
    from ..audit import laplace_histogram
    from ..mechanisms import GaussianNoiseMechanism, WarnerRR

    gauss = GaussianNoiseMechanism.for_epsilon(1.0)
    return {
        # θ = e^ε / (1 + e^ε) at ε = ln 3: the claim is the truth
        "A": Suspect("Warner's device, theta = 0.75, claims eps = ln 3 for one 0/1 value",
                     WarnerRR(0.75), 1, 0, math.log(3), 0.0),
        # θ = 0.9 tells the truth more often: its true ε is ln 9, twice the claim
        "B": Suspect("Warner's device, theta = 0.9, claims eps = ln 3 for one 0/1 value",
                     WarnerRR(0.9), 1, 0, math.log(3), 0.0),
        # σ calibrated to (1, 1e-5): true, but its worst case hides in the tail (a loose audit)
        "C": Suspect(f"Gaussian noise, sigma = {gauss.noise.sigma:.3f}, claims eps = 1 at delta = 1e-5 for one "
                     "value in [0, 1]", gauss, 0.0, 1.0, 1.0, gauss.delta),
        # Laplace(0.5 / ε): half the noise the claim needs, true ε = 2
        "D": Suspect("a curator's count with Laplace noise, laplace_histogram(1.0, scale_factor=0.5), claims "
                     "eps = 1 for one record added or removed", laplace_histogram(1.0, scale_factor=0.5),
                     0, 1, 1.0, 0.0),
    }


def refuted_claims(trials: int = TRIALS_08_4, seed: int = SEED_08_4, confidence: float = CONFIDENCE_08_4) -> str:
    """Reference for 08.4: the letters whose claim the audit refutes, each audited at its claimed δ.

    Parameters
    ----------
    trials : int
        Runs per input of each audit.
    seed : int
        Seed of every audit.
    confidence : float
        Confidence of each audit.

    Returns
    -------
    str
        The refuted letters in order (``""`` for none).
    """
    from ..audit import audit_epsilon

    return "".join(letter for letter, s in suspects().items()
                   if audit_epsilon(s.mechanism, s.x0, s.x1, trials=trials, delta=s.delta,
                                                confidence=confidence, rng=seed)
                   .refutes(s.epsilon))


def _as_letters(answer) -> frozenset:
    if isinstance(answer, str):
        items = [c for c in answer if not (c.isspace() or c in ",;")]
    elif isinstance(answer, (list, tuple, set, frozenset)):
        items = list(answer)
    else:
        raise AnswerFormatError(f"check('08.4', answer): answer must be {FMT_08_4}, got "
                                f"{type(answer).__name__} {answer!r}"[:160])
    return frozenset(as_choice(c, tuple("ABCD"), "08.4", FMT_08_4) for c in items)


def judge_08_4(answer) -> Verdict:
    chosen = _as_letters(answer)
    ref = frozenset(refuted_claims())
    if chosen == ref:
        return Verdict(True, "each of these lower bounds exceeds its claim: the claim is false (at 99 % confidence). "
                             "The others are not refuted, which does not make them true.")
    truthful = frozenset("ABCD") - ref
    if chosen - ref == {"A"}:
        return Verdict(False, "A's bound sits right at its claim: a tight audit of a true claim lands above it in at most "
                              "one audit in twenty at 95 % confidence. Four claims are audited at once here: use "
                              "confidence=0.99, as the exercise says, before calling a claim false.")
    if chosen & truthful and "C" in chosen:
        return Verdict(False, "a bound *below* the claim refutes nothing, however far below: audit.refutes(eps) is "
                              "True only when the lower bound exceeds the claimed eps. Audit C at its claimed delta "
                              "(delta=1e-5).")
    if chosen & truthful:
        return Verdict(False, "one of your letters has a bound below its claim (check audit.refutes(eps) for each); "
                              "a lower bound refutes only when it exceeds the claim.")
    if not chosen:
        return Verdict(False, "at least one bound exceeds its claim: print each audit's lower_bound beside the "
                              "claimed eps, at the stated trials and seed.")
    return Verdict(False, "audit all four claims: one more of them is refuted (each at its own x0, x1 and delta).")


EXERCISES = (
    Exercise("08.1", "When does OUE win?", "numeric", f"{NB}, §5 'OUE against GRR'",
             FMT_08_1, judge_08_1, oue_crossover_k,
             tolerance="exact (a whole number from a closed form)", precision=P_08_1,
             rubric=("I can say why §5's measurement can disagree with the rule right at the boundary (Wang et al.'s "
                     "variances keep only the term that does not depend on the true frequencies).",),
             model_answer=crossover_model_answer),
    Exercise("08.2", "Local against central, on paper", "numeric", f"{NB}, §4 'Local against central'",
             FMT_08_2, judge_08_2, local_central_ratio,
             tolerance="2 % relative (rounding θ to 0.73 moves the ratio by 0.6 %, both sd to 2 significant figures "
                       "by 1.1 %), at least half a unit of the 2nd significant figure",
             precision=P_08_2,
             rubric=("I can say why §4's measured ratio differs: it compares mean absolute errors, not standard "
                     "deviations (a normal error's MAE is sd·√(2/π), Laplace(b)'s is b = sd/√2, so the MAE ratio "
                     "is about 1.13 × the sd ratio), and it is a mean over a finite number of runs. Both are "
                     "measured against the sample's own share: the sampling of the people is not in either.",),
             model_answer=lambda: (
                 f"On paper the sd ratio is {local_central_ratio():.0f}; the same two errors as mean absolute errors "
                 f"give {mae_ratio():.0f} (× √(2/π) for Warner's near-normal estimate, × √2 for Laplace, whose MAE "
                 "is b while its sd is √2 b). §4's printed ratio is that MAE ratio measured from a finite number of "
                 "runs, so it scatters around the theory; both errors are measured against the sample's share, so "
                 "the sampling of the people plays no part.",)),
    Exercise("08.3", "Your recommendation", "rubric", f"{NB}, §3-§6",
             rubric=("I named the task, n and ε I assumed, and read the error of each mechanism from the panel or table.",
                     "I said which privacy scale my choice rests on (claimed ε, audited ε, or interval privacy) and why.",
                     "I said whether a trusted curator is available, and what it would buy (the measured ratio)."),
             model_answer=recommendation_model_answer),
    Exercise("08.4", "Catch a false claim", "structured", f"{NB}, §2 'Three privacy scales, side by side'",
             FMT_08_4, judge_08_4, refuted_claims, tolerance="exact (a set of letters)",
             rubric=("I can say why the audit does not refute C although its bound is far below the claim, and why "
                     "that does not certify C either (the trade-off curve of §2).",),
             model_answer=lambda: (
                 "B and D tell more than they claim (θ = 0.9 gives ln 9, half the Laplace scale gives ε = 2): their "
                 "bounds exceed the claims. A's bound sits just under ln 3: Warner's worst case is a common event, "
                 "so the audit is tight and agrees. C's bound is far below 1 even at its δ: the Gaussian meets the "
                 "(ε, δ) promise only in its far tail, which 20,000 runs hardly see (§2's curve). Not refuted is "
                 "not proved: a false claim with a rare worst case would look the same.",)),
)
