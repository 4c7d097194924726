"""Exercises that answer back: ``check("02.1", answer)`` says *correct* or *not yet*.

Every exercise of notebooks 00-09 has an id "NN.k" (notebook NN, exercise k). A checked exercise
(kind "numeric" or "structured") compares ``answer`` with a reference solution computed here with
the library, within a stated tolerance, and on a wrong answer gives a hint and the section to
re-read — never the answer. An open-ended exercise (kind "rubric") prints a self-assessment rubric.

One module per notebook (``nb00`` .. ``nb09``: the reference solutions and their judges) and
``checking`` (results, exercises, answer parsing). No widgets are imported here.
"""
from __future__ import annotations

import sys

from . import (
    _guard,
    _implementations,
    checking,
    nb00,
    nb01,
    nb02,
    nb03,
    nb04,
    nb05,
    nb06,
    nb07,
    nb08,
    nb09,
    quizzes,
)
from .checking import CheckResult, Exercise, Verdict, foreign_object, malformed_message, precision_shortfall
from .quizzes import QUIZZES, check_quiz, is_quiz_id, quiz

__all__ = ["check", "exercise_ids", "get_exercise", "reference_answer", "CheckResult", "Exercise", "EXERCISES",
           "quiz", "QUIZZES"]

EXERCISES: dict[str, Exercise] = {
    ex.id: ex for module in (nb00, nb01, nb02, nb03, nb04, nb05, nb06, nb07, nb08, nb09) for ex in module.EXERCISES
}


def exercise_ids(kind: str | None = None) -> list[str]:
    """The exercise ids, in notebook order.

    Parameters
    ----------
    kind : {None, "numeric", "structured", "rubric"}
        Only the exercises of this kind (default: all).

    Returns
    -------
    list of str
        Ids "NN.k" (notebook NN, exercise k).

    Examples
    --------
    >>> exercise_ids()[:3]
    ['00.1', '00.2', '00.3']
    """
    if kind is not None and kind not in ("numeric", "structured", "rubric"):
        raise ValueError(f"kind must be None, 'numeric', 'structured' or 'rubric', got {kind!r}")
    return [i for i, ex in EXERCISES.items() if kind is None or ex.kind == kind]


def get_exercise(exercise_id: str) -> Exercise:
    """The :class:`Exercise` with this id.

    Parameters
    ----------
    exercise_id : str
        "NN.k"; a ValueError listing the ids for any other string, a TypeError for a non-string.

    Returns
    -------
    Exercise
        Its title, kind, section to re-read, answer format, tolerance and rubric.
    """
    if not isinstance(exercise_id, str):
        raise TypeError(f"exercise_id must be a string such as '02.1', got {type(exercise_id).__name__} "
                        f"{exercise_id!r}; allowed: {', '.join(EXERCISES)}")
    key = exercise_id.strip()
    if key not in EXERCISES:
        raise ValueError(f"exercise_id {exercise_id!r} is not an exercise; allowed: {', '.join(EXERCISES)}")
    return EXERCISES[key]


def reference_answer(exercise_id: str):
    """The reference solution of a checked exercise, computed with the library.

    For teachers and tests; the notebooks never show it.

    Parameters
    ----------
    exercise_id : str
        A checked exercise's id (a ValueError for a rubric exercise).

    Returns
    -------
    object
        The answer in the exercise's format (a number, a tuple, a name ...).
    """
    ex = get_exercise(exercise_id)
    if ex.reference is None:
        raise ValueError(f"exercise {ex.id} is open-ended (a rubric): it has no reference answer")
    return ex.reference()


def check(exercise_id: str, answer=None) -> CheckResult:
    """Check an answer to an exercise of the notebooks.

    Parameters
    ----------
    exercise_id : str
        "NN.k": notebook NN, exercise k (see :func:`exercise_ids`); or "NN.qk", question k of
        notebook NN's quiz (``answer`` = a letter, the letters of a "choose all that apply"
        question, or a number for a wrap-up question; see :func:`quiz`).
    answer : object, optional
        Your answer, in the format the exercise asks for (a number, a tuple, a name ...). None
        (the notebooks' placeholder) gives "not yet: write your answer ...". Ignored for
        rubric exercises.

    Returns
    -------
    CheckResult
        ``correct`` is True when the answer passed; ``message`` says why not (a hint and the
        section to re-read, never the answer); ``rubric`` lists self-assessment criteria. In a
        notebook the result displays itself.

    Raises
    ------
    ValueError
        An unknown ``exercise_id`` (the message lists the ids).
    TypeError
        ``exercise_id`` is not a string. A malformed ``answer`` (a string, a list, NaN, a dict,
        a DataFrame, the wrong number of values, a choice that is not offered) raises nothing:
        it is *not yet* with the expected format and precision.

    Examples
    --------
    >>> from ppdm_edu.exercises import check
    >>> check("07.4", None).message
    'write your answer in `answer` above: an epsilon (number), exact.'
    >>> check("07.4", 0.5).correct
    False
    >>> print(check("02.2"))  # doctest: +ELLIPSIS
    ☐ 02.2: SELF-ASSESSMENT (not checked automatically) — ...
    """
    # the judges' own functions and tables as imported, whatever code in this kernel rebound
    restored = _guard.restore_checker()
    if is_quiz_id(exercise_id):  # a quiz question "NN.qk": answer = letter(s) or a number
        return check_quiz(exercise_id, answer)
    ex = get_exercise(exercise_id)
    if ex.kind == "rubric":
        return CheckResult(ex.id, False, ex.kind, f"open-ended: tick what your answer does ({ex.section}).",
                           ex.rubric)
    if answer is None:
        return CheckResult(ex.id, False, ex.kind, f"write your answer in `answer` above: {ex.format_hint}.")
    result = _judged(ex, answer)
    if restored:
        result = CheckResult(result.exercise_id, result.correct, result.kind,
                             f"{result.message} (The checker's own code had been changed in this kernel "
                             f"({', '.join(restored[:3])}); it was put back before judging.)", result.rubric)
    return result


def _judged(ex: Exercise, answer) -> CheckResult:
    """The verdict on a non-empty answer to a checked exercise."""
    # An object of the student's own type could run code when read: refused before any judge sees it.
    what = foreign_object(answer, allow_callables=ex.id in _implementations.REFERENCE_SOURCES)
    if what is not None:
        return CheckResult(ex.id, False, ex.kind, f"the answer must be {ex.format_hint}; got {what} (give plain "
                                                  "numbers, text or tuples: float(x), int(x), str(x)).")
    # A malformed answer (NaN, a table, a dict, a string or a list where a number is expected, a
    # value outside the allowed choices) gets the same "not yet" with the format in every exercise.
    message = malformed_message(answer, ex.format_hint)
    if message is not None:
        return CheckResult(ex.id, False, ex.kind, message)
    assert ex.judge is not None  # Exercise.__post_init__: only a rubric has no judge
    try:
        verdict = ex.judge(answer)
    except (TypeError, ValueError, ArithmeticError, LookupError, AttributeError) as error:
        detail = str(error).split("): ", 1)[-1]
        if "one of" in detail:  # a choice or a value that is not offered: list what is
            message = f"the {detail}."
        else:
            message = f"the answer must be {ex.format_hint}; got {detail.rsplit(', got ', 1)[-1]}."
            if isinstance(answer, str) and not any(w in ex.answer_format for w in ("name", "function")):
                message += " Write a number without quotes."
        return CheckResult(ex.id, False, ex.kind, message[:400])
    if ex.precision is not None and ex.reference is not None and ex.id not in _implementations.REFERENCE_SOURCES:
        # the stated precision is part of the answer: fewer figures than asked is not yet
        short = precision_shortfall(answer, ex.precision, ex.reference, verdict.correct)
        if short is not None:
            verdict = Verdict(False, short)
    if verdict.correct:
        return CheckResult(ex.id, True, ex.kind, verdict.message or "correct.", ex.rubric)
    hint = verdict.message.strip()
    if hint.lower().startswith("not yet"):  # the status already says it
        hint = hint[len("not yet"):].lstrip(":,— ").capitalize()
    hint = hint if hint.endswith(("?", ".", "!")) else hint + "."
    return CheckResult(ex.id, False, ex.kind, f"{hint} Re-read {ex.section}.")


# what the judges are, as imported: check() puts back anything rebound since
_guard.snapshot_checker([_guard, _implementations, checking, quizzes, nb00, nb01, nb02, nb03, nb04, nb05, nb06,
                         nb07, nb08, nb09, sys.modules[__name__]])
