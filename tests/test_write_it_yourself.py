""""Write it yourself" exercises (issue 41 §5): the student writes a randomizer, an estimator or one
reconstruction step in numpy, and ``check`` tests the FUNCTION on hidden inputs and seeds. The
reference passes; each kind of wrong implementation gets the hint that names its mistake; no hint
contains code."""
from __future__ import annotations

import numpy as np
import pytest

from ppdm_edu.exercises import EXERCISES, check, reference_answer
from ppdm_edu.exercises._implementations import REFERENCE_SOURCES

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")

IDS = ("02.5", "03.5", "07.7", "09.2", "02.6", "03.6", "06.5")  # write it yourself, then the transfer wrap-ups


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_reference_passes_and_is_the_solution_source(exercise_id):
    result = check(exercise_id, reference_answer(exercise_id))
    assert result.correct, str(result)
    assert "answer = " in REFERENCE_SOURCES[exercise_id]
    namespace = {"np": np}
    exec(REFERENCE_SOURCES[exercise_id], namespace)  # what make solutions writes into the notebook
    assert check(exercise_id, namespace["answer"]).correct


def _skeleton(*names):
    def raises(*args):
        raise NotImplementedError
    return raises if len(names) == 1 else tuple(raises for _ in names)


@pytest.mark.parametrize("exercise_id, names", [("02.5", ("bayes_step",)),
                                                ("03.5", ("warner_randomize", "warner_estimate")),
                                                ("07.7", ("grr_randomize", "grr_estimate")),
                                                ("09.2", ("decode_bits",)),
                                                ("02.6", ("share_at_least",)), ("03.6", ("all_yes_share",)),
                                                ("06.5", ("classify_original",))])
def test_the_notebook_skeleton_is_not_yet_with_a_plain_message(exercise_id, names):
    result = check(exercise_id, _skeleton(*names))
    assert not result.correct and f"{names[0]} raises NotImplementedError: write its body" in result.message
    result = check(exercise_id, (lambda *a: None) if len(names) == 1 else tuple(lambda *a: None for _ in names))
    assert not result.correct and "returned None" in result.message


# --- 03.5: Warner ---------------------------------------------------------------------------------
def _good_warner():
    return reference_answer("03.5")


def _warner_with(randomize=None, estimate=None):
    ref_r, ref_e = _good_warner()
    return (randomize or ref_r, estimate or ref_e)


def _flip_wrong_theta(x, theta, rng):  # keeps the truth with probability 1 − θ
    return np.where(rng.random(np.shape(x)) < 1 - theta, x, 1 - np.asarray(x))


def _one_coin(x, theta, rng):  # one coin for the whole survey
    return np.asarray(x) if rng.random() < theta else 1 - np.asarray(x)


def _says_yes_with_theta(x, theta, rng):  # the report ignores the truth
    return (rng.random(np.shape(x)) < theta).astype(int)


def _global_random(x, theta, rng):  # np.random's global state, not rng
    return np.where(np.random.random(np.shape(x)) < theta, x, 1 - np.asarray(x))


@pytest.mark.parametrize("answer, hint", [
    (lambda: _warner_with(randomize=_flip_wrong_theta), "the wrong θ"),
    (lambda: _warner_with(randomize=_one_coin), "each respondent tosses their own"),
    (lambda: _warner_with(randomize=_says_yes_with_theta), "whatever the truth"),
    (lambda: _warner_with(randomize=_global_random), "draw every random number from the `rng`"),
    (lambda: _warner_with(estimate=lambda r, t: float(np.mean(r))), "biased"),
    (lambda: _warner_with(estimate=lambda r, t: (np.mean(r) - t) / (1 - 2 * t)), "the wrong θ"),
    (lambda: _warner_with(estimate=lambda r, t: float(np.clip((np.mean(r) - (1 - t)) / (2 * t - 1), 0, 1))),
     "clipped"),
    (lambda: _warner_with(estimate=lambda r, t: (np.mean(r) - (1 - t)) / abs(2 * t - 1)), "absolute value"),
    (lambda: _warner_with(estimate=lambda r, t: np.array([np.mean(r), 0.0])), "one number"),
])
def test_warner_mistakes_get_their_hint(answer, hint):
    result = check("03.5", answer())
    assert not result.correct
    assert hint in result.message, result.message
    assert "def " not in result.message and "np." not in result.message


# --- 07.7: GRR ------------------------------------------------------------------------------------
def _grr_with(randomize=None, estimate=None):
    ref_r, ref_e = reference_answer("07.7")
    return (randomize or ref_r, estimate or ref_e)


def _grr_binary_theta(x, k, eps, rng):  # keeps with Warner's θ
    p = np.exp(eps) / (1 + np.exp(eps))
    return np.where(rng.random(x.shape) < p, x, (x + rng.integers(1, k, x.shape)) % k)


def _grr_lies_over_all_k(x, k, eps, rng):  # a "lie" may be the truth again
    p = np.exp(eps) / (np.exp(eps) + k - 1)
    return np.where(rng.random(x.shape) < p, x, rng.integers(0, k, x.shape))


def _grr_lies_to_next(x, k, eps, rng):  # every lie goes to the next category
    p = np.exp(eps) / (np.exp(eps) + k - 1)
    return np.where(rng.random(x.shape) < p, x, (x + 1) % k)


def _pq(k, eps):
    e = np.exp(eps)
    return e / (e + k - 1), 1 / (e + k - 1)


def _grr_counts_estimate(r, k, eps):  # forgets to divide by n
    p, q = _pq(k, eps)
    return (np.bincount(r, minlength=k) - q) / (p - q)


def _grr_clipped(r, k, eps):
    p, q = _pq(k, eps)
    f = np.clip((np.bincount(r, minlength=k) / len(r) - q) / (p - q), 0, None)
    return f / f.sum()


@pytest.mark.parametrize("answer, hint", [
    (lambda: _grr_with(randomize=_grr_binary_theta), "the wrong θ"),
    (lambda: _grr_with(randomize=_grr_lies_over_all_k), "OTHER k − 1"),
    (lambda: _grr_with(randomize=_grr_lies_to_next), "not spread evenly"),
    (lambda: _grr_with(estimate=lambda r, k, e: np.bincount(r, minlength=k) / len(r)), "biased"),
    (lambda: _grr_with(estimate=_grr_counts_estimate), "not a distribution"),
    (lambda: _grr_with(estimate=_grr_clipped), "clipped and renormalised"),
    (lambda: _grr_with(estimate=lambda r, k, e: np.zeros(k + 1)), "k = "),
])
def test_grr_mistakes_get_their_hint(answer, hint):
    result = check("07.7", answer())
    assert not result.correct
    assert hint in result.message, result.message
    assert "def " not in result.message and "np." not in result.message


# --- 02.5: one reconstruction step ----------------------------------------------------------------
def _step_flipped(w, m, prior, pdf):  # f_Y(a − w) instead of f_Y(w − a)
    post = pdf(m[None, :] - w[:, None]) * prior
    return (post / post.sum(axis=1, keepdims=True)).mean(axis=0)


def _step_no_prior(w, m, prior, pdf):
    like = pdf(w[:, None] - m[None, :])
    return (like / like.sum(axis=1, keepdims=True)).mean(axis=0)


def _step_global_normalisation(w, m, prior, pdf):
    joint = (pdf(w[:, None] - m[None, :]) * prior).sum(axis=0)
    return joint / joint.sum()


def _step_sum_not_mean(w, m, prior, pdf):
    post = pdf(w[:, None] - m[None, :]) * prior
    return (post / post.sum(axis=1, keepdims=True)).sum(axis=0)


def _step_in_place(w, m, prior, pdf):
    post = pdf(w[:, None] - m[None, :]) * prior
    prior[:] = (post / post.sum(axis=1, keepdims=True)).mean(axis=0)
    return prior


@pytest.mark.parametrize("answer, hint", [
    (_step_flipped, "w_i − a, not at a − w_i"),
    (_step_no_prior, "weights each interval by the current estimate"),
    (_step_global_normalisation, "normalised over the intervals"),
    (_step_sum_not_mean, "not a distribution"),
    (_step_in_place, "in place"),
    (lambda w, m, prior, pdf: prior[:-1], "one probability per interval"),
])
def test_reconstruction_step_mistakes_get_their_hint(answer, hint):
    result = check("02.5", answer)
    assert not result.correct
    assert hint in result.message, result.message
    assert "def " not in result.message and "np." not in result.message


def test_hidden_inputs_are_not_in_the_notebook_statement():
    # the statement names what to write; the checker's inputs and seeds are its own
    for exercise_id in IDS:
        ex = EXERCISES[exercise_id]
        assert ex.kind == "structured" and "function" in ex.answer_format


# --- 09.2: the decoder ----------------------------------------------------------------------------
def _lstsq(A, a):
    return np.linalg.lstsq(np.asarray(A, dtype=float), np.asarray(a, dtype=float), rcond=None)[0]


def _correlation(A, a):  # Aᵀa, thresholded at its median: people in big queries look like 1s
    c = np.asarray(A, dtype=float).T @ np.asarray(a, dtype=float)
    return (c > np.median(c)).astype(int)


def _in_place(A, a):
    a[:] = 0
    return (_lstsq(A, a) > 0.5).astype(int)


def _five_flipped(A, a):  # right but for five people
    guess = (_lstsq(A, a) > 0.5).astype(int)
    guess[:5] = 1 - guess[:5]
    return guess


def _l1(A, a):  # the L1 program passes too: either decoder of §2 is an answer
    from ppdm_edu.database_reconstruction import l1_program
    return (l1_program(A, a) > 0.5).astype(int)


def test_the_l1_program_passes_too():
    assert check("09.2", _l1).correct


@pytest.mark.parametrize("answer, hint", [
    (lambda A, a: (_lstsq(A, a) < 0.5).astype(int), "mostly the opposite"),
    (lambda A, a: _lstsq(A, a), "not the continuous estimate"),
    (_correlation, "correlates each person's column"),
    (lambda A, a: np.zeros(np.shape(A)[1], dtype=int), "no better than a coin"),
    (lambda A, a: (_lstsq(A, a) > 0.9).astype(int), "too many bits wrong"),
    (_five_flipped, "every bit must come back"),
    (_in_place, "in place"),
    (lambda A, a: np.ones(3, dtype=int), "one guess per person"),
])
def test_decoder_mistakes_get_their_hint(answer, hint):
    result = check("09.2", answer)
    assert not result.correct
    assert hint in result.message, result.message
    assert "def " not in result.message and "np." not in result.message


# --- the transfer wrap-ups: the same method on data the notebook never used -------------------------------
def test_the_wrap_ups_hidden_data_is_not_the_notebooks():
    from ppdm_edu.datasets import load_adult
    from ppdm_edu.exercises import nb02, nb03, nb06
    # 02.6: the census's test split (the notebook perturbs the training split's ages)
    assert len(nb02._share_case(0)[0]) == len(load_adult("test").frame) != len(load_adult().frame)
    # 03.6 and 06.5: other data seeds (and thetas, functions, SNRs) than the notebook's example
    assert all(case[3] != nb03.BANK_EXAMPLE[3] for case in nb03.BANK_CASES)
    assert all(case[2] != nb06.CUSTOMER_EXAMPLE[4] for case in nb06.CUSTOMER_CASES)


def _uncorrected_nb(W, y, sd, X):
    from ppdm_edu.exercises import nb06
    return nb06._uncorrected(W, y, X)


@pytest.mark.parametrize("exercise_id, answer, hint", [
    ("02.6", lambda w, noise, bounds, t: float(np.mean(w >= t)), "share of the PERTURBED values"),
    ("02.6", lambda w, noise, bounds, t: 100 * reference_answer("02.6")(w, noise, bounds, t), "not a percentage"),
    ("02.6", lambda w, noise, bounds, t: 1 - reference_answer("02.6")(w, noise, bounds, t), "BELOW the threshold"),
    ("03.6", lambda d, t: float(np.mean(np.all(d == 1, axis=1))), "biased"),
    ("03.6", lambda d, t: (np.mean(np.all(d == 1, axis=1)) - (1 - t)) / (2 * t - 1), "no to all as well"),
    ("03.6", lambda d, t: np.prod((np.mean(d, axis=0) - (1 - t)) / (2 * t - 1)), "as if the answers were independent"),
    ("06.5", _uncorrected_nb, "still include the noise"),
    ("06.5", lambda W, y, sd, X: np.zeros(len(X) - 1, dtype=int), "one class per new customer"),
])
def test_wrap_up_mistakes_get_their_hint(exercise_id, answer, hint):
    result = check(exercise_id, answer)
    assert not result.correct and hint in result.message, result.message
    assert "def " not in result.message and "np." not in result.message
