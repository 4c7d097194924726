"""A quiz answer in the wrong format gets the format message, never the hint (which would say
the reasoning is wrong): several letters ("a, b", ["a", "b"]) to a question with one right option,
and True or NaN where a number is asked for."""
from __future__ import annotations

import pytest

from ppdm_edu.exercises import QUIZZES, check
from ppdm_edu.exercises.quizzes import Question, RangeQuestion

ONE_ANSWER = [q for qs in QUIZZES.values() for q in qs if isinstance(q, Question) and not q.multiple]
RANGE = [q for qs in QUIZZES.values() for q in qs if isinstance(q, RangeQuestion)]


@pytest.mark.parametrize("shape", ["list", "commas", "spaces", "run"])
def test_several_letters_to_a_one_answer_question_get_the_format_message(shape):
    q = ONE_ANSWER[0]
    right, other = q.answer, next(x for x in q.letters if x != q.answer)
    pair = sorted((right, other))
    answer = {"list": pair, "commas": ", ".join(pair), "spaces": " ".join(pair), "run": "".join(pair)}[shape]
    result = check(q.id, answer)
    assert not result.correct
    assert "the answer must be one of the letters" in result.message, result.message
    assert q.hint not in result.message


def test_one_letter_to_a_one_answer_question_is_judged():
    q = ONE_ANSWER[0]
    assert check(q.id, q.answer).correct
    wrong = check(q.id, next(x for x in q.letters if x != q.answer))
    assert not wrong.correct and q.hint in wrong.message


@pytest.mark.parametrize("answer", [True, False, float("nan")], ids=["True", "False", "nan"])
def test_a_bool_or_nan_to_a_range_question_gets_the_format_message(answer):
    q = RANGE[0]
    result = check(q.id, answer)
    assert not result.correct
    assert "the answer must be a number" in result.message, result.message
    assert q.hint not in result.message
