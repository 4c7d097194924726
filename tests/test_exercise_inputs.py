"""Hostile inputs to the checker (issue 40 §7): a clear "not yet" or one clear error, never a
RecursionError, a bare KeyError or an AttributeError."""
from __future__ import annotations

import numpy as np
import pytest

from ppdm_edu.exercises import CheckResult, check, check_quiz, exercise_ids
from ppdm_edu.exercises.quizzes import quiz_ids

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")


def _self_containing(n: int) -> list:
    answer: list = list(range(n - 1))
    answer.append(answer)
    return answer


@pytest.mark.parametrize("exercise_id", exercise_ids() + quiz_ids()[:3])
def test_a_self_containing_list_is_not_yet(exercise_id):
    for n in (1, 2, 3, 5):
        result = check(exercise_id, _self_containing(n))
        assert isinstance(result, CheckResult) and not result.correct
        assert len(result.message) < 600


def test_check_quiz_names_a_bad_question_id():
    with pytest.raises(ValueError, match=r"'99\.q9' is not a quiz question; allowed: 00\.q1"):
        check_quiz("99.q9", "a")
    for bad in (5, None, ["03.q1"], b"03.q1"):
        with pytest.raises(TypeError, match="question_id must be a string"):
            check_quiz(bad, "a")
    assert check_quiz(" 03.q1 ", None).message.startswith("choose")


# ---- a NaN or an infinity anywhere in an answer is named as such, never judged --------------
@pytest.mark.parametrize("answer", [[1.0, float("nan")], (0.5, (2.0, float("inf"))),
                                    [np.array([1.0, np.nan])]])
def test_a_nan_inside_a_list_or_tuple_is_named(answer):
    from ppdm_edu.exercises.checking import malformed_message

    message = malformed_message(answer, "a pair of numbers")
    assert message is not None and "NaN or an infinity" in message, message


def test_within_tolerance_refuses_nan_and_infinity():
    from ppdm_edu.exercises.checking import within

    assert within(1.0, 1.0, 0.0)
    assert not within(float("nan"), 1.0, 1.0)
    assert not within(float("inf"), 1.0, float("inf"))
