"""Which letters a quiz answer names, and the format message for an answer that names several
letters where the question has one right option: "a, b" or ["a", "b"] to a one-answer question is
a malformed answer (the format is said), never a wrong one (the hint would mislead)."""
from __future__ import annotations

import pytest

from ppdm_edu.exercises import QUIZZES, check
from ppdm_edu.exercises.quizzes import Question

ONE_ANSWER = [q for qs in QUIZZES.values() for q in qs if isinstance(q, Question) and not q.multiple]


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
