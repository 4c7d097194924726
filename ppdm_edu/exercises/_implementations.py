"""The "write it yourself" exercises: the student writes a function in numpy, and ``check`` tests
the FUNCTION on hidden inputs and seeds (not a number it printed).

An exercise of this kind (02.5, 03.5, 07.7) has a judge that calls the student's function on
inputs and seeds the notebook never shows, compares it with a reference implementation, and on a
mismatch names what is wrong (biased, the wrong θ, not a distribution, ignores its ``rng`` ...)
without giving the code. The reference implementations are kept as source text, registered here
with :func:`register` (:data:`REFERENCE_SOURCES`): the judge runs that very text, and
``make solutions`` puts it in place of the notebook's skeleton.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .checking import AnswerFormatError, Verdict

__all__ = ["REFERENCE_SOURCES", "register", "reference_functions", "as_functions", "call", "StudentError"]

REFERENCE_SOURCES: dict[str, str] = {}


def register(exercise_id: str, source: str, names: tuple[str, ...]) -> Callable[[], Any]:
    """Keep the reference source of an exercise; return a function giving its reference functions.

    Parameters
    ----------
    exercise_id : str
        "NN.k".
    source : str
        The solution cell as a student would write it (functions, then ``answer = ...``).
    names : tuple of str
        The functions the answer holds, in order.

    Returns
    -------
    callable
        ``() -> tuple of functions`` (one function: the function itself), run from ``source``.
    """
    REFERENCE_SOURCES[exercise_id] = source

    def functions():
        return reference_functions(source, names)
    return functions


def reference_functions(source: str, names: tuple[str, ...]):
    """The functions ``names`` defined by ``source`` (run with numpy as ``np``).

    Parameters
    ----------
    source : str
        Python source defining the functions.
    names : tuple of str
        Their names.

    Returns
    -------
    callable or tuple of callable
        One function, or a tuple of them in the order of ``names``.
    """
    namespace: dict = {"np": np}
    exec(compile(source, "<reference solution>", "exec"), namespace)  # trusted: this package's own text
    found = tuple(namespace[name] for name in names)
    return found[0] if len(found) == 1 else found


def as_functions(answer, names: tuple[str, ...], exercise_id: str, answer_format: str) -> tuple:
    """``answer`` as the tuple of ``len(names)`` callables the exercise asks for.

    Parameters
    ----------
    answer : callable or tuple of callables
        One function (when ``names`` has one name) or a tuple of them.
    names : tuple of str
        The expected functions' names (for the message).
    exercise_id : str
        Named in the error message.
    answer_format : str
        What the exercise expects, named in the error message.

    Returns
    -------
    tuple of callable
        The functions, in order.

    Raises
    ------
    AnswerFormatError
        ``answer`` is not that many callables.
    """
    functions = (answer,) if len(names) == 1 and callable(answer) else answer
    if not (isinstance(functions, tuple) and len(functions) == len(names) and all(map(callable, functions))):
        raise AnswerFormatError(f"check({exercise_id!r}, answer): answer must be {answer_format}, "
                                f"got {type(answer).__name__} {answer!r}"[:200])
    return functions


class StudentError(Exception):
    """The student's function raised or returned nothing: the message says which and how."""


def call(function, name: str, *args):
    """Call the student's ``function``; a :class:`StudentError` with a plain message if it fails.

    Parameters
    ----------
    function : callable
        The student's function.
    name : str
        Its name in the exercise (for the message).
    *args
        Its arguments (copies: the caller keeps the originals to detect changes in place).

    Returns
    -------
    object
        What the function returned (never None).

    Raises
    ------
    StudentError
        It raised (NotImplementedError: "write its body") or returned None.
    """
    try:
        result = function(*args)
    except NotImplementedError:
        raise StudentError(f"{name} raises NotImplementedError: write its body.") from None
    except Exception as error:  # any bug of the student's code is a hint, not a traceback
        raise StudentError(f"{name} raised {type(error).__name__}: {str(error)[:160]}") from None
    if result is None:
        raise StudentError(f"{name} returned None: return the result (is the `return` missing?).")
    return result


def draws_from_rng(randomize, name: str, make_args) -> str | None:
    """None when ``randomize`` is reproducible with one seed and varies with the seed; else a hint.

    Parameters
    ----------
    randomize : callable
        The student's randomizer, called as ``randomize(*make_args(rng))``.
    name : str
        Its name in the message.
    make_args : callable
        ``rng -> tuple of arguments``.

    Returns
    -------
    str or None
        The hint, or None when the randomizer uses its ``rng`` argument.
    """
    first = np.asarray(call(randomize, name, *make_args(np.random.default_rng(2024))))
    again = np.asarray(call(randomize, name, *make_args(np.random.default_rng(2024))))
    other = np.asarray(call(randomize, name, *make_args(np.random.default_rng(7))))
    if first.shape != again.shape or not np.array_equal(first, again):
        return (f"{name} gives different reports for the same rng seed: draw every random number from the "
                "`rng` argument, not from numpy's global random functions.")
    if np.array_equal(first, other):
        return f"{name} gives the same reports for two different rng seeds: draw the coins from `rng`."
    return None


def judge_randomizer_and_estimator(answer, names: tuple[str, str], exercise_id: str, answer_format: str,
                                   judge_randomize: Callable, judge_estimate: Callable,
                                   success: str) -> Verdict:
    """The verdict on a (randomizer, estimator) pair the student wrote: the first hint either
    judge gives (the randomizer first), or ``success``.

    Parameters
    ----------
    answer : tuple of callables
        The student's two functions.
    names : tuple of str
        Their expected names (for the message).
    exercise_id : str
        Named in the error message.
    answer_format : str
        What the exercise expects, named in the error message.
    judge_randomize, judge_estimate : callable
        Each takes one function and returns a hint, or None when it passes.
    success : str
        The message when both pass.

    Returns
    -------
    Verdict
        Correct with ``success``, or not with the hint or the error the student's code raised.
    """
    randomize, estimate = as_functions(answer, names, exercise_id, answer_format)
    try:
        hint = judge_randomize(randomize) or judge_estimate(estimate)
    except StudentError as error:
        return Verdict(False, str(error))
    if hint:
        return Verdict(False, hint)
    return Verdict(True, success)
