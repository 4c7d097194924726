"""Each judge refuses an answer just outside the tolerance it states (an answer twice that far off
is "not yet"), and the write-it-yourself judges refuse the implementations they promise to refuse:
a Warner device that keeps one truth more often than θ, an estimate that is not the unbiased one to
float rounding, a randomizer that overwrites the true answers."""
from __future__ import annotations

import numpy as np
import pytest

from ppdm_edu.exercises import EXERCISES, check, reference_answer

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_02_1_refuses_half_a_hundredth_off():
    r1, r2 = reference_answer("02.1")
    assert check("02.1", (round(r1, 3), round(r2, 3))).correct        # 3 decimals, as stated
    result = check("02.1", (r1 + 0.005, r2 - 0.005))
    assert not result.correct, str(result)


def test_01_4_refuses_an_interval_past_its_two_significant_figures():
    interval, alpha = reference_answer("01.4")
    tol = max(EXERCISES["01.4"].precision.tolerance(interval), 0.005 * interval)
    assert check("01.4", (interval + 0.9 * tol, alpha)).correct
    assert 4 * tol < 0.05 * interval    # the answer below is wrong at the stated precision, not at 5 %
    assert not check("01.4", (interval + 4 * tol, alpha)).correct


def test_05_4_refuses_one_factor_past_one_percent_or_its_precision():
    ref = np.array(reference_answer("05.4"))
    precision = EXERCISES["05.4"].precision
    tol = max(0.01 * ref[0], precision.tolerance(ref[0]))
    off = 2 * tol
    assert off < 0.1 * ref[0]           # wrong at the stated tolerance, right at 10 %
    values = ref.copy()
    values[0] += off
    assert not check("05.4", tuple(values)).correct
    values[0] = ref[0] + 0.9 * tol
    assert check("05.4", tuple(values)).correct


# -- 03.5: Warner's device and estimate, written by the student ---------------------------------
def _warner_with(randomize=None, estimate=None):
    ref_randomize, ref_estimate = reference_answer("03.5")
    return (randomize or ref_randomize, estimate or ref_estimate)


def _favours_the_truth_one(x, theta, rng):
    """Keeps a true 1 with probability θ + 0.1 (a true 0 with θ): its coins are independent, its
    overall share of truthful answers near θ, but the two truths are not treated alike."""
    x = np.asarray(x)
    keep = rng.random(x.shape) < np.where(x == 1, min(theta + 0.1, 1.0), theta)
    return np.where(keep, x, 1 - x)


def test_03_5_refuses_a_device_that_keeps_one_truth_more_often():
    result = check("03.5", _warner_with(randomize=_favours_the_truth_one))
    assert not result.correct
    assert "respondents whose truth is 1 keep it" in result.message, result.message


def test_03_5_refuses_an_estimate_a_little_off_the_unbiased_one():
    _, ref_estimate = reference_answer("03.5")
    result = check("03.5", _warner_with(estimate=lambda reports, theta: ref_estimate(reports, theta) + 0.002))
    assert not result.correct, str(result)


def _overwrites_x(x, theta, rng):
    flip = rng.random(np.shape(x)) >= theta
    x[flip] = 1 - x[flip]
    return x


def test_03_5_refuses_a_randomizer_that_overwrites_the_true_answers():
    result = check("03.5", _warner_with(randomize=_overwrites_x))
    assert not result.correct
    assert "changes x in place" in result.message, result.message
