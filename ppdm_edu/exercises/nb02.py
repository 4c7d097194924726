"""Exercises of notebook 02 (reconstructing the original distribution)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import _implementations as implementations
from .checking import EXACT, Exercise, Precision, Verdict, as_choice, as_number, as_numbers, within

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



# 02.5 (write it yourself): one step of Agrawal & Srikant's reconstruction, checked as a function.
FMT_02_5 = "a function bayes_step(w, midpoints, prior, noise_pdf)"
NAMES_02_5 = ("bayes_step",)
BAYES_STEP_SOURCE = """\
def bayes_step(w, midpoints, prior, noise_pdf):
    \"\"\"One update of Agrawal & Srikant's reconstruction (Section 2) on intervals: each record's
    posterior over the intervals, f_Y(w_i - a) Pr(a) / sum_b f_Y(w_i - b) Pr(b), averaged over
    the records.\"\"\"
    likelihood = noise_pdf(w[:, None] - midpoints[None, :])   # f_Y(w_i - a): one row per record
    posterior = likelihood * prior
    posterior = posterior / posterior.sum(axis=1, keepdims=True)   # Bayes' rule, record by record
    return posterior.mean(axis=0)


answer = bayes_step
"""
bayes_step_reference = implementations.register("02.5", BAYES_STEP_SOURCE, NAMES_02_5)
BAYES_STEP_SEED = 2000


def _skewed_pdf(y):
    """A hidden noise density that is NOT symmetric (a two-piece normal: sd 0.3 left of 0, 0.1 right),
    so f_Y(w − a) and f_Y(a − w) differ."""
    y = np.asarray(y, dtype=float)
    scale = np.where(y < 0, 0.3, 0.1)
    return np.exp(-0.5 * (y / scale) ** 2) * 2 / (np.sqrt(2 * np.pi) * 0.4)


def _gauss_pdf(y):
    return np.exp(-0.5 * (np.asarray(y, dtype=float) / 0.25) ** 2) / (0.25 * np.sqrt(2 * np.pi))


def _bayes_step_cases():
    """Hidden inputs: (w, midpoints, prior, noise density) with a skewed and a Gaussian noise."""
    rng = np.random.default_rng(BAYES_STEP_SEED)
    cases = []
    for m, n, pdf in ((8, 500, _skewed_pdf), (20, 3000, _gauss_pdf), (5, 200, _skewed_pdf)):
        midpoints = (np.arange(m) + 0.5) / m
        prior = rng.random(m) + 0.2
        prior /= prior.sum()
        x = rng.beta(2, 5, size=n)
        w = x + np.where(rng.random(n) < 0.5, -np.abs(rng.normal(0, 0.3, n)), np.abs(rng.normal(0, 0.1, n))) \
            if pdf is _skewed_pdf else x + rng.normal(0, 0.25, n)
        cases.append((w, midpoints, prior, pdf))
    return cases


def judge_02_5(answer) -> Verdict:
    (step,) = implementations.as_functions(answer, NAMES_02_5, "02.5", FMT_02_5)
    reference = bayes_step_reference()
    cases = _bayes_step_cases()
    results = implementations.run_calls([implementations.Call(step, "bayes_step", case) for case in cases], "02.5")
    try:
        for i, (w, midpoints, prior, pdf) in enumerate(cases):
            returned = results[i]
            if 2 in returned.changed:
                return Verdict(False, implementations.with_note(
                    "bayes_step changes the prior in place: return a new array.", results))
            hint = _bayes_step_hint(returned.value, reference(w, midpoints, prior, pdf), w, midpoints, prior, pdf)
            if hint is not None:
                return Verdict(False, implementations.with_note(hint, results))
    except implementations.StudentError as error:
        return Verdict(False, implementations.with_note(str(error), results))
    return Verdict(True, implementations.with_note(
        "it matches the reference update on hidden data, with a noise that is not symmetric; repeating it is "
        "notebook 02's reconstruction.", results))


def _bayes_step_hint(got: np.ndarray, expected: np.ndarray, w, midpoints, prior, pdf) -> str | None:
    """None when ``got`` (what bayes_step returned, as numbers) is the reference update
    ``expected`` on this hidden case; else the hint, which describes what came back."""
    if got.shape != prior.shape:
        what = "an empty array" if got.size == 0 else "one number" if got.ndim == 0 else f"shape {got.shape}"
        return f"bayes_step must return one probability per interval (shape {prior.shape}); it returned {what}."
    if got.dtype.kind == "c":
        return "bayes_step returned complex numbers: the update is real (probabilities)."
    returned, got = got, got.astype(float)
    if not np.isfinite(got).all():
        return "bayes_step returned values that are not finite (NaN or infinite): is a denominator zero?"
    if implementations.close(got, expected):
        return None
    return implementations.low_precision_hint(returned, "bayes_step") \
        or _bayes_step_mistake(got, w, midpoints, prior, pdf)


def _bayes_step_mistake(got, w, midpoints, prior, pdf) -> str:
    """The hint for a finite update of the right shape that is not the reference: a known slip
    (each one recomputed here and compared), else what kind of wrong it is."""
    close = implementations.close
    like = pdf(w[:, None] - midpoints[None, :])
    flipped = pdf(midpoints[None, :] - w[:, None])
    post = flipped * prior
    if close(got, (post / post.sum(axis=1, keepdims=True)).mean(axis=0)):
        return ("the noise is y = w − x: evaluate its density at w_i − a, not at a − w_i (the two "
                "differ when the noise is not symmetric).")
    if close(got, (like / like.sum(axis=1, keepdims=True)).mean(axis=0)):
        return ("Bayes' rule weights each interval by the current estimate (the prior): the "
                "update leaves it out.")
    joint = (like * prior).sum(axis=0)
    if close(got, joint / joint.sum()):
        return ("each record's posterior must be normalised over the intervals (Bayes' rule's "
                "denominator, one per record) before the average; normalising the sum once is "
                "not the same.")
    if abs(got.sum() - 1) > 1e-4 or (got < -1e-12).any():
        return (f"not a distribution: the result sums to {got.sum():.4g}"
                + (" and has negative entries" if (got < -1e-12).any() else "")
                + "; average the records' posteriors (each sums to 1) instead of adding them.")
    return ("a distribution, but not one step of the update: check the per-record posterior "
            "f_Y(w_i − a) Pr(a) / Σ_b f_Y(w_i − b) Pr(b) and the average over the records.")


# 02.6 (transfer): Section 2-3's reconstruction on data notebook 02 never used, the ages of the
# Adult census (bundled with the package); checked on the census's held-out test split.
FMT_02_6 = "a function share_at_least(w, noise, bounds, threshold)"
NAMES_02_6 = ("share_at_least",)
SHARE_SOURCE = """\
def share_at_least(w, noise, bounds, threshold):
    \"\"\"The share of ORIGINAL values >= threshold, estimated from the perturbed w alone (Agrawal &
    Srikant 2000, Section 2-3): reconstruct the distribution on intervals of width 1, then add up
    what lies at or above the threshold.\"\"\"
    from ppdm_edu.reconstruction import reconstruct
    r = reconstruct(w, noise, bounds=bounds, width=1.0)
    lower, upper = r.edges[:-1], r.edges[1:]
    above = np.clip((upper - threshold) / (upper - lower), 0, 1)   # the part of each interval at or above
    return float(np.sum(r.probabilities * above))


answer = share_at_least
"""
share_reference = implementations.register("02.6", SHARE_SOURCE, NAMES_02_6)
#: the notebook's example: Adult's training ages with uniform noise of half-width 15 (years), the
#: share of people 60 or older
SHARE_EXAMPLE = ("uniform", 15.0, 60)
#: hidden cases on the census's TEST split (the notebook uses the training split): noise kind, its
#: scale (α or σ, years), threshold, noise seed
SHARE_CASES = (("uniform", 30.0, 60, 1), ("uniform", 30.0, 70, 2), ("gaussian", 15.0, 60, 3), ("gaussian", 15.0, 65, 4))
#: how far a share may sit from the TRUE share of the held-out ages. On these cases the
#: reconstruction misses the truth by at most 0.010 whatever its settings (intervals of 0.5, 1 or
#: 2 years, Bayes or EM, the paper's stopping rule, cross-validation or 1,000 iterations, bounds
#: 17-91 or 0-120; measured), while the share of the perturbed values misses by 0.060 to 0.093.
SHARE_TOLERANCE = 0.02


def _noise(kind: str, scale: float):
    from ..randomization import GaussianNoise, UniformNoise
    return UniformNoise(scale) if kind == "uniform" else GaussianNoise(scale)


@lru_cache(maxsize=None)
def _share_case(case: int):
    """(original ages, perturbed ages, noise, bounds, threshold) of hidden case ``case``."""
    from ..datasets import load_adult
    from ..randomization import perturb
    kind, scale, threshold, seed = SHARE_CASES[case]
    ages = load_adult("test").frame["age"].to_numpy(float)
    noise = _noise(kind, scale)
    return ages, perturb(ages, noise, rng=np.random.default_rng([20_602, seed])), noise, (17.0, 91.0), threshold


def judge_02_6(answer) -> Verdict:
    (share,) = implementations.as_functions(answer, NAMES_02_6, "02.6", FMT_02_6)
    cases = [_share_case(case) for case in range(len(SHARE_CASES))]
    results = implementations.run_calls(
        [implementations.Call(share, "share_at_least", (w, noise, bounds, threshold))
         for _, w, noise, bounds, threshold in cases], "02.6")
    try:
        for i, (ages, w, _, _, threshold) in enumerate(cases):
            hint = _share_hint(results[i], float(np.mean(ages >= threshold)), w, threshold)
            if hint:
                return Verdict(False, implementations.with_note(hint, results))
    except implementations.StudentError as error:
        return Verdict(False, implementations.with_note(str(error), results))
    return Verdict(True, implementations.with_note(
        "on the census's held-out ages, with uniform and Gaussian noise and four thresholds, your shares are within "
        f"{SHARE_TOLERANCE} of the true ones, where the perturbed values' own shares miss by 0.06 or more.", results))


def _share_hint(returned, truth: float, w, threshold) -> str | None:
    """None when ``returned`` is within :data:`SHARE_TOLERANCE` of the true share on this case; else the hint."""
    value = implementations.one_number(returned.value, "share_at_least", "a share from 0 to 1")
    if within(value, truth, SHARE_TOLERANCE):
        return None
    if within(value, 100 * truth, 100 * SHARE_TOLERANCE):
        return "give the share as a fraction (0 to 1), not a percentage."
    if within(value, float(np.mean(w >= threshold)), 1e-9):
        return ("that is the share of the PERTURBED values at or above the threshold: the noise spreads the ages, "
                "so reconstruct their distribution first (Section 2) and add up its part at or above the threshold.")
    if within(value, 1 - truth, SHARE_TOLERANCE):
        return "that is the share BELOW the threshold: the question asks for the values at or above it."
    return (f"more than {SHARE_TOLERANCE} from the true share on a hidden case: reconstruct with the given noise on "
            "the given bounds, on intervals one year wide (Section 2-3), then add up the estimated probability at "
            "or above the threshold.")


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
    Exercise("02.5", "Write one step of the reconstruction", "structured",
             f"{NB}, §2 'Bayes' rule, step by step (Eq. 1 → Eq. 3)'",
             FMT_02_5, judge_02_5, bayes_step_reference,
             tolerance="the function is run on hidden data and noise densities (one not symmetric): equal to the "
                       "reference update as float rounding allows (1e-5 relative, 1e-6 absolute: float32 passes)",
             precision=EXACT),
    Exercise("02.6", "Transfer: the ages of a census", "structured",
             f"{NB}, §2 'Bayes' rule, step by step (Eq. 1 → Eq. 3)' and §3 'Fig. 2 reproduced'",
             FMT_02_6, judge_02_6, share_reference,
             tolerance=f"the function is run on the census's held-out ages with four noises and thresholds: each share "
                       f"within {SHARE_TOLERANCE} of the true share (the reconstruction misses by at most 0.010 "
                       "whatever its settings, the perturbed values' share by 0.060 or more)",
             precision=Precision(decimals=2, what="each share")),
)
