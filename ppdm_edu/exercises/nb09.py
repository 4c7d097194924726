"""Exercises of notebook 09 (reconstruction attacks on published counts, Dinur & Nissim 2003)."""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special

from . import _implementations as implementations
from .checking import EXACT, Exercise, Precision, Verdict, as_number, numeric_verdict

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 09"
P_09_1 = Precision(decimals=2, what="E / √n")
#: 09.1: the release and the share least squares must keep
N_09_1, M_09_1, TARGET_09_1 = 100, 400, 0.99


def largest_safe_error(n: int = N_09_1, m: int = M_09_1, target: float = TARGET_09_1) -> float:
    """Reference for 09.1: the largest E / √n at which least squares still recovers ``target`` of
    the bits by the closed form Φ(√(m − n − 1) / (4σ)), answers uniform on (−E, E) (σ = E / √3)."""
    z = float(special.ndtri(target))
    sigma = math.sqrt(m - n - 1) / (4 * z)
    return math.sqrt(3) * sigma / math.sqrt(n)


def judge_09_1(answer) -> Verdict:
    value = as_number(answer, "09.1", "an error bound in units of sqrt(n) (float)")
    ref = largest_safe_error()
    z = float(special.ndtri(TARGET_09_1))
    root_n = math.sqrt(N_09_1)
    return numeric_verdict(value, ref, P_09_1.tolerance(ref), percent_hint=False,
                           what_to_check="solve Φ(√(m − n − 1) / (4σ)) = 0.99 for σ, then E = √3 σ, then divide by √n.",
                           mistakes=(
        (ref / math.sqrt(3), "that is σ / √n: the error uniform on (−E, E) has σ = E / √3, so E = √3 σ."),
        (ref * root_n, "that is E itself: the exercise asks for E in units of √n."),
        (math.sqrt(3) * math.sqrt(M_09_1) / (4 * z) / root_n,
         "the spread of least squares comes from m − n − 1, not m: the n unknowns use up n of the m answers."),
        (math.sqrt(3) * math.sqrt(M_09_1 - N_09_1 - 1) / (4 * float(special.ndtri(0.995))) / root_n,
         "one-sided: a bit is wrong only when its error crosses 1/2 on one side, so use Φ⁻¹(0.99), not Φ⁻¹(0.995)."),
    ), mistake_tol=0.006)


# 09.2 (write it yourself): a decoder, judged on hidden releases
FMT_09_2 = "a function decode_bits(queries, answers) returning one 0/1 guess per person"
NAMES_09_2 = ("decode_bits",)
DECODER_SOURCE = """\
def decode_bits(queries, answers):
    \"\"\"Least squares, rounded at 1/2: the bits whose counts are closest to the answers.\"\"\"
    A = np.asarray(queries, dtype=float)
    x, *_ = np.linalg.lstsq(A, np.asarray(answers, dtype=float), rcond=None)
    return (x > 0.5).astype(int)


answer = decode_bits
"""
decoder_reference = implementations.register("09.2", DECODER_SOURCE, NAMES_09_2)
#: hidden releases: (people, queries per person, E / √n); the secret, queries and noise from
#: independent streams of a seed the notebook never shows
DECODER_CASES = ((40, 4, 0.0), (60, 4, 0.25), (80, 4, 0.5), (50, 3, 1.0))
DECODER_SEED = 90_902
#: bits a decoder may lose against the worse of the two reference decoders on a case
DECODER_SLACK = 2


@lru_cache(maxsize=None)
def _decoder_case(case: int):
    from ..database_reconstruction import BoundedError, publish, random_queries, secret_bits
    from ..random_state import spawn_rngs

    n, per_bit, level = DECODER_CASES[case]
    data_rng, query_rng, noise_rng = spawn_rngs(np.random.SeedSequence([DECODER_SEED, case]), 3)
    secret = secret_bits(n, data_rng)
    release = publish(secret, random_queries(n, per_bit * n, query_rng), BoundedError(level * math.sqrt(n)), noise_rng)
    return secret, release.queries, release.answers


@lru_cache(maxsize=None)
def _bar(case: int) -> int:
    """Right guesses the student's decoder must reach: the worse of least squares and the L1 program,
    less :data:`DECODER_SLACK` bits."""
    from ..database_reconstruction import decode

    secret, A, a = _decoder_case(case)
    right = [int(np.sum(decode(A, a, name).bits == secret)) for name in ("least-squares", "l1")]
    return min(right) - DECODER_SLACK


def _decoder_mistake(guess: np.ndarray, secret: np.ndarray, A, a) -> str | None:
    """The hint for a guess that recovers too few bits when it looks like a known slip, else None."""
    right = np.mean(guess == secret)
    if right <= 0.2:
        return "your guesses are mostly the opposite of the secret: a bit is 1 when its estimate is ABOVE 1/2."
    correlation = A.T.astype(float) @ a
    if np.array_equal(guess, (correlation > np.median(correlation)).astype(guess.dtype)):
        return ("that correlates each person's column with the answers (Aᵀa): people in many large queries look "
                "like 1s. Solve for the bits instead: the x that makes A x closest to the answers.")
    if right <= 0.6:
        return "no better than a coin: the guess must come from the answers (solve A x ≈ a for x)."
    return None


def _judge_decoder(results) -> str | None:
    """None when the decoder's guesses (``results`` of one call per hidden release, in order) recover
    enough bits on every release; else the hint."""
    for case in range(len(DECODER_CASES)):
        secret, A, a = _decoder_case(case)
        returned = results[case]
        if returned.changed:
            return "decode_bits changes the queries or the answers in place: work on copies."
        guess = returned.value
        if guess.shape != secret.shape:
            what = "an empty array" if guess.size == 0 else "one number" if guess.ndim == 0 else f"shape {guess.shape}"
            return (f"decode_bits must return one guess per person ({secret.size} here, the columns of the "
                    f"queries); it returned {what}.")
        if guess.dtype.kind not in "biuf" or not np.isin(guess, (0, 1)).all():
            return ("decode_bits must return 0/1 guesses, not the continuous estimate: round each estimate at 1/2 "
                    "(1 above, 0 below).")
        guess = guess.astype(int)
        exact = DECODER_CASES[case][2] == 0.0
        if (exact and not np.array_equal(guess, secret)) or int(np.sum(guess == secret)) < _bar(case):
            return _decoder_mistake(guess, secret, A, a) or (
                "with exact answers (E = 0) every bit must come back: solve A x = a exactly, then round." if exact else
                "too many bits wrong on a hidden release: solve A x ≈ a in least squares (or the L1 sense), then "
                "round at 1/2.")
    return None


def judge_09_2(answer) -> Verdict:
    (decode_bits,) = implementations.as_functions(answer, NAMES_09_2, "09.2", FMT_09_2)
    calls = [implementations.Call(decode_bits, "decode_bits", _decoder_case(case)[1:])
             for case in range(len(DECODER_CASES))]
    results = implementations.run_calls(calls, "09.2")
    try:
        hint = _judge_decoder(results)
    except implementations.StudentError as error:
        return Verdict(False, implementations.with_note(str(error), results))
    if hint:
        return Verdict(False, implementations.with_note(hint, results))
    return Verdict(True, implementations.with_note(
        f"on {len(DECODER_CASES)} hidden releases (E from 0 to √n) your decoder rebuilds every secret at E = 0 and "
        "as many bits as least squares or the L1 program elsewhere.", results))


# 09.3 (open question): 1,000 counts about a class of 300
COUNTS_09_3, CLASS_09_3, EPSILON_09_3, DELTA_09_3 = 1_000, 300, 1.0, 1e-5


def class_release_numbers(counts: int = COUNTS_09_3, people: int = CLASS_09_3, epsilon: float = EPSILON_09_3,
                          delta: float = DELTA_09_3) -> dict:
    """The numbers of 09.3's model answer: what an attacker gets from exact-ish counts, and what
    DP noise at a total (ε, δ) costs each count (library closed forms, no seed)."""
    from ..database_reconstruction import GaussianBudget, LaplaceBudget, guess_bound, least_squares_prediction

    sqrt_n = math.sqrt(people)
    return {
        "sqrt_n": sqrt_n,
        "rounding": least_squares_prediction(people, counts, 0.5 / math.sqrt(3)),
        "at_sqrt_n": least_squares_prediction(people, counts, sqrt_n / math.sqrt(3)),
        "laplace_rms": LaplaceBudget(epsilon).rms_error(counts),
        "gaussian_rms": GaussianBudget(epsilon, delta).rms_error(counts),
        "gaussian_rms_10": GaussianBudget(epsilon, delta).rms_error(10),
        "bound": guess_bound(epsilon, delta),
    }


def class_release_model_answer() -> tuple[str, ...]:
    """The lecturer's key to 09.3, one paragraph per rubric item; numbers from the closed forms."""
    v = class_release_numbers()
    return (
        f"1,000 counts about 300 people is m ≈ {COUNTS_09_3 / CLASS_09_3:.1f} n subset sums: the regime of §2-§3. "
        f"Counts rounded to whole numbers (error at most 1/2) let least squares rebuild {v['rounding']:.1%} of every "
        f"student's answers (closed form); errors of √n ≈ {v['sqrt_n']:.0f} still leave {v['at_sqrt_n']:.0%}. "
        "Rounding, or any error small against √n, is no protection.",
        f"As a DP release with neighbour relation one student's answer changing (each count moves by at most 1): a "
        f"total ε = {EPSILON_09_3:g} split by basic composition puts Laplace noise with an RMS error of "
        f"{v['laplace_rms']:.0f} on each count; the Gaussian by zCDP at δ = {DELTA_09_3:.0e} (far below 1/300) "
        f"{v['gaussian_rms']:.0f}. Both protect: no attacker gets more than {v['bound']:.1%} of any bit right. "
        "Both are useless for counts of at most 300.",
        f"So publish far fewer counts: the same (ε, δ) over 10 counts gives each an RMS error of "
        f"{v['gaussian_rms_10']:.0f}; or let each student randomize their own answers (notebook 03) and accept the "
        "local error; or state a much larger ε and say what it permits. What cannot be defended is many accurate "
        "counts with no stated ε.",
    )


EXERCISES = (
    Exercise("09.1", "How much error still gives everything away?", "numeric",
             f"{NB}, §3 'The √n threshold'", "an error bound in units of sqrt(n) (float)", judge_09_1, largest_safe_error,
             tolerance="half a unit in the second decimal (a closed form: no seed)", precision=P_09_1),
    Exercise("09.2", "Write the decoder yourself", "structured", f"{NB}, §2 'Two decoders'",
             FMT_09_2, judge_09_2, decoder_reference,
             tolerance=f"every bit at E = 0; elsewhere at most {DECODER_SLACK} bits fewer than the worse of least "
                       f"squares and the L1 program, on {len(DECODER_CASES)} hidden releases",
             precision=EXACT),
    Exercise("09.3", "1,000 counts about a class of 300", "rubric", f"{NB}, §3-§5",
             rubric=("I said what an attacker can rebuild from many accurate counts about few people (§2-§3), with numbers.",
                     "I chose a noise and stated its ε, δ and neighbour relation, and the error it puts on each count.",
                     "I said what I would publish instead of 1,000 counts, and why."),
             model_answer=class_release_model_answer),
)
