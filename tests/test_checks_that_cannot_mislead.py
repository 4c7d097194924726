"""Checks that cannot mislead: the write-it-yourself judges see small surveys with empty
categories, test that Warner's coins are independent, judge float32 as float rounding allows, and
refuse a rounding of the reference past its tolerance; the stated precision is enforced; range
answers are taken as text as the site's quiz takes them; and each diagnosis is the right one.
Also the judges' and quizzes' mutants that survived the old tests."""
from __future__ import annotations

import numpy as np
import pytest

from ppdm_edu.exercises import QUIZZES, check, nb02, nb03, nb07, nb08, reference_answer
from ppdm_edu.exercises.quizzes import RangeQuestion

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")

RANGES = [q for qs in QUIZZES.values() for q in qs if isinstance(q, RangeQuestion)]


# --- 07.7: small surveys, empty categories --------------------------------------------------------------
def _grr_estimate_without_minlength(reports, k, epsilon):
    p = np.exp(epsilon) / (np.exp(epsilon) + k - 1)
    q = 1 / (np.exp(epsilon) + k - 1)
    shares = np.bincount(np.asarray(reports)) / len(reports)   # no minlength=k
    return (shares - q) / (p - q)


def test_07_7_an_estimator_that_drops_empty_categories_is_refused_with_the_reason():
    randomize, _ = reference_answer("07.7")
    result = check("07.7", (randomize, _grr_estimate_without_minlength))
    assert not result.correct
    assert "nobody reported" in result.message and "count of length k" in result.message, result.message
    assert "np." not in result.message


def test_07_7_the_hidden_cases_include_small_surveys_whose_top_category_is_empty():
    small = [(reports, k) for reports, k, _ in nb07._grr_estimate_cases() if len(reports) <= 100]
    assert small and all(np.asarray(reports).max() < k - 1 for reports, k in small)


def test_07_7_a_randomizer_that_fails_on_a_tiny_survey_is_refused():
    randomize, estimate = reference_answer("07.7")

    def only_large(x, k, epsilon, rng):  # works on 30,000 respondents, returns nothing useful on 20
        return randomize(x, k, epsilon, rng) if len(x) > 100 else np.zeros(0, dtype=int)
    result = check("07.7", (only_large, estimate))
    assert not result.correct and "it returned an empty array" in result.message, result.message


# --- 03.5: independent coins ---------------------------------------------------------------------------------
def _exactly_theta_n_truthful(x, theta, rng):
    """Exactly round(θn) respondents answer truthfully: each one does with probability θ, but the
    coins are not independent."""
    x = np.asarray(x)
    truthful = np.zeros(x.shape, dtype=bool)
    truthful[rng.permutation(x.size)[:round(theta * x.size)]] = True
    return np.where(truthful, x, 1 - x)


def _pairs_share_a_coin(x, theta, rng):
    x = np.asarray(x)
    coins = rng.random((x.size + 1) // 2) < theta
    return np.where(np.repeat(coins, 2)[:x.size], x, 1 - x)


@pytest.mark.parametrize("device, words", [(_exactly_theta_n_truthful, "the coins are not independent"),
                                           (_pairs_share_a_coin, "do respondents share a coin")])
def test_03_5_a_device_with_dependent_coins_is_refused(device, words):
    _, estimate = reference_answer("03.5")
    result = check("03.5", (device, estimate))
    assert not result.correct and words in result.message, result.message


def test_03_5_the_reference_device_passes_the_independence_test_on_other_seeds():
    randomize, _ = reference_answer("03.5")
    x = nb03._warner_case(*nb03.WARNER_CASES[0], 0)[0][:nb03.INDEPENDENCE_N]
    for first in (0, 1000, 2000):
        counts = np.array([np.sum(randomize(x, nb03.INDEPENDENCE_THETA, np.random.default_rng(first + r)) == x)
                           for r in range(nb03.INDEPENDENCE_RUNS)])
        assert nb03._independence_hint(counts, nb03.INDEPENDENCE_N, nb03.INDEPENDENCE_THETA) is None


# --- float32 is judged as float rounding allows ----------------------------------------------------------------------
def _bayes_step_float32(w, midpoints, prior, noise_pdf):
    w, midpoints, prior = (np.asarray(a, dtype=np.float32) for a in (w, midpoints, prior))
    likelihood = noise_pdf(w[:, None] - midpoints[None, :]).astype(np.float32)
    posterior = likelihood * prior
    return (posterior / posterior.sum(axis=1, keepdims=True)).mean(axis=0)


def _warner_float32():
    def randomize(x, theta, rng):
        x = np.asarray(x)
        return np.where(rng.random(x.shape, dtype=np.float32) < np.float32(theta), x, 1 - x)

    def estimate(reports, theta):
        share = np.mean(np.asarray(reports, dtype=np.float32), dtype=np.float32)
        return (share - np.float32(1 - theta)) / np.float32(2 * theta - 1)
    return randomize, estimate


def _grr_float32():
    randomize, _ = reference_answer("07.7")

    def estimate(reports, k, epsilon):
        e = np.float32(np.exp(epsilon))
        p, q = e / (e + np.float32(k - 1)), np.float32(1) / (e + np.float32(k - 1))
        shares = np.bincount(np.asarray(reports), minlength=k).astype(np.float32) / np.float32(len(reports))
        return (shares - q) / (p - q)
    return randomize, estimate


@pytest.mark.parametrize("exercise_id, answer", [("02.5", lambda: _bayes_step_float32), ("03.5", _warner_float32),
                                                 ("07.7", _grr_float32)])
def test_a_float32_implementation_passes(exercise_id, answer):
    result = check(exercise_id, answer())
    assert result.correct, result.message


def test_a_float16_result_is_named_as_such():
    def step16(w, midpoints, prior, noise_pdf):
        return nb02.bayes_step_reference()(w, midpoints, prior, noise_pdf).astype(np.float16)
    result = check("02.5", step16)
    assert not result.correct and "float16" in result.message, result.message


def test_02_5_an_update_off_by_a_thousandth_is_refused():
    """Kills the mutant "tolerance 1e-9 -> 1e-2": a distribution 1e-3 away from the update is wrong."""
    reference = nb02.bayes_step_reference()

    def nearly(w, midpoints, prior, noise_pdf):
        return 0.99 * reference(w, midpoints, prior, noise_pdf) + 0.01 * prior
    result = check("02.5", nearly)
    assert not result.correct and "not one step of the update" in result.message, result.message


# --- a randomizer must draw from its rng -------------------------------------------------------------------------------
def test_a_randomizer_with_its_own_fixed_seed_is_refused():
    """Kills the mutant that drops the "same reports for two seeds" check."""
    warner, warner_estimate = reference_answer("03.5")
    grr, grr_estimate = reference_answer("07.7")

    def warner_own_seed(x, theta, rng):
        return warner(x, theta, np.random.default_rng(12345))

    def grr_own_seed(x, k, epsilon, rng):
        return grr(x, k, epsilon, np.random.default_rng(12345))
    for exercise_id, answer in (("03.5", (warner_own_seed, warner_estimate)), ("07.7", (grr_own_seed, grr_estimate))):
        result = check(exercise_id, answer)
        assert not result.correct and "the same reports for two different rng seeds" in result.message, result.message


# --- the stated precision is enforced -------------------------------------------------------------------------------------
def test_03_3_one_significant_figure_is_refused_for_a_two_figure_question():
    assert round(reference_answer("03.3"), 2) == 0.02   # 0.02 is the reference to 1 significant figure
    result = check("03.3", 0.02)
    assert not result.correct and "2 significant figures" in result.message, result.message
    assert check("03.3", float(f"{reference_answer('03.3'):.2g}")).correct


def test_a_short_answer_is_accepted_where_the_reference_itself_ends_in_zero():
    # 07.3's rho1 is 0.30 at 2 decimals: a float writes it 0.3, so 0.3 cannot be refused
    eps, rho = reference_answer("07.3")
    assert f"{rho:.2f}".endswith("0") and check("07.3", (round(eps, 2), 0.3)).correct


def test_03_1_theta_to_two_decimals_is_refused():
    theta, n_rr, n_direct = reference_answer("03.1")
    result = check("03.1", (round(theta, 2), round(n_rr), round(n_direct)))
    assert not result.correct and "θ to 3 decimals" in result.message, result.message


# --- 08.2: the right diagnosis ------------------------------------------------------------------------------------------------
def test_08_2_seventy_is_not_called_a_ratio_of_mean_absolute_errors():
    assert round(nb08.local_central_ratio(), -1) == 70
    message = check("08.2", 70).message
    assert "mean absolute errors" not in message and "significant figure" in message, message
    # a value between the two that is neither is told to recheck, not given a false diagnosis
    message = check("08.2", 73).message
    assert "mean absolute errors" not in message and "check θ" in message, message


# --- range answers as text, as on the site ------------------------------------------------------------------------------------
@pytest.mark.parametrize("q", RANGES, ids=lambda q: q.id)
def test_a_range_answer_is_taken_as_text_as_the_site_takes_it(q):
    for value in (q.low, q.high):
        text = f"{value:.{q.decimals}f}"
        for typed in (text, text.replace(".", ","), f"  {text} "):
            assert check(q.id, typed).correct, typed
    wrong = f"{q.high + 3 * 10.0 ** -q.decimals:.{q.decimals}f}"
    assert check(q.id, wrong).message == q.hint
    # not numbers: text that is not one, a bool (not the number 1), NaN (kills the mutants that
    # take True as 1 or give NaN the hint)
    for bad in ("two thirds", "1/2", "0.6.7", "", "nan", True, np.True_, float("nan")):
        result = check(q.id, bad)
        assert not result.correct and result.message.startswith("the answer must be a number"), (bad, result)


def test_00_q4_a_huge_number_is_not_yet_not_an_overflow():
    result = check("00.q4", 10 ** 400)
    assert not result.correct and result.message == RANGES[0].hint


# --- the quiz mutants ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("q", RANGES, ids=lambda q: q.id)
def test_a_range_answer_is_rounded_to_the_stated_decimals_first(q):
    """Kills "a range answer not rounded": just inside half a unit beyond each end rounds into the range."""
    unit = 10.0 ** -q.decimals
    assert check(q.id, q.high + 0.49 * unit).correct and check(q.id, q.low - 0.49 * unit).correct
    assert not check(q.id, q.high + 0.51 * unit).correct and not check(q.id, q.low - 0.51 * unit).correct


def test_several_letters_for_a_one_answer_question_get_the_format_message():
    """Kills the mutant that judges "ab" against a one-answer question (it would get the hint)."""
    for q in (q for qs in QUIZZES.values() for q in qs if not isinstance(q, RangeQuestion) and not q.multiple):
        wrong = next(x for x in q.letters if x not in q.answer)
        for answer in (q.answer + wrong, f"{q.answer}, {wrong}", [q.answer, wrong]):  # "ab", "a, b", ["a", "b"]
            result = check(q.id, answer)
            assert not result.correct and result.message.startswith("the answer must be one of the letters"), result


@pytest.mark.parametrize("q", RANGES, ids=lambda q: q.id)
def test_accepted_texts_are_exactly_the_accepted_roundings(q):
    """Kills the off-by-one in ``accepted_texts`` (what the site hashes) without node: every text of
    the stated decimals from well below to well above the range is listed iff it is accepted."""
    step = 10 ** q.decimals
    texts = [f"{k / step:.{q.decimals}f}" for k in range(round(q.low * step) - 5, round(q.high * step) + 6)]
    assert q.accepted_texts() == [t for t in texts if q.accepts(float(t))]
    assert q.accepted_texts()[0] == f"{q.low:.{q.decimals}f}" and q.accepted_texts()[-1] == f"{q.high:.{q.decimals}f}"


# --- the judges' other mutants (tools/mutation/mutants.toml): each answer is just outside what the
# --- judge states, and inside what its mutant would accept ----------------------------------------
def test_02_1_half_a_hundredth_off_is_refused():
    """Kills "judge-02.1-tolerance-1e-2": the exercise asks for 3 decimals."""
    p1, p2 = reference_answer("02.1")
    assert not check("02.1", (round(p1, 3) + 0.005, round(p2, 3) - 0.005)).correct


def test_01_4_two_tenths_off_is_refused():
    """Kills "judge-01.4-five-percent": the interval privacy is stated to 2 significant figures."""
    interval, alpha = reference_answer("01.4")
    assert not check("01.4", (interval + 0.2, alpha)).correct


def test_05_4_five_percent_off_is_refused():
    """Kills "judge-05.4-ten-percent": 1 % relative (or half a unit of the 2nd figure) is the tolerance."""
    assert not check("05.4", [1.05 * f for f in reference_answer("05.4")]).correct


def test_03_5_a_device_that_favours_one_truth_slightly_is_refused():
    """Kills "judge-03.5-device-may-favour-a-truth": 5 points off θ for the 0s is many standard errors."""
    _, estimate = reference_answer("03.5")

    def favours_ones(x, theta, rng):
        x = np.asarray(x)
        truthful = rng.random(x.shape) < np.where(x == 1, theta, theta - 0.05)
        return np.where(truthful, x, 1 - x)
    result = check("03.5", (favours_ones, estimate))
    assert not result.correct and "whatever the truth" in result.message, result.message


def test_03_5_an_estimate_a_little_off_the_unbiased_one_is_refused():
    """Kills "judge-03.5-estimate-to-1e-2": 0.002 off is far beyond float rounding (the promise)."""
    randomize, estimate = reference_answer("03.5")
    result = check("03.5", (randomize, lambda reports, theta: estimate(reports, theta) + 0.002))
    assert not result.correct, str(result)


def test_03_5_a_device_that_overwrites_the_true_answers_is_refused():
    """Kills "judge-03.5-in-place-change-accepted" (under the guard the change stays in the child;
    the judge is still told)."""
    randomize, estimate = reference_answer("03.5")

    def in_place(x, theta, rng):
        x[:] = randomize(x, theta, rng)
        return x
    result = check("03.5", (in_place, estimate))
    assert not result.correct and "changes x in place" in result.message, result.message
