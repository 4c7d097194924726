"""The "write it yourself" exercises: the student writes a function in numpy, and ``check`` tests
the FUNCTION on hidden inputs and seeds (not a number it printed).

An exercise of this kind (02.5, 03.5, 07.7) has a judge that lists the calls of the student's
functions on inputs and seeds the notebook never shows, runs them under the guard (``_guard``: a
time limit, exits and exceptions caught, only numbers come back), compares what came back with a
reference implementation, and on a mismatch names what is wrong (biased, the wrong θ, not a
distribution, ignores its ``rng`` ...) without giving the code. The reference implementations
are kept as source text, registered here with :func:`register` (:data:`REFERENCE_SOURCES`): the
judge runs that very text, and ``make solutions`` puts it in place of the notebook's skeleton.

Results are compared as float rounding allows: float32 arithmetic (about 1e-7 relative per
operation) passes, float16 (about 1e-3) is named as such.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ._guard import Call, StudentError, run_calls
from .checking import AnswerFormatError, Verdict

#: How far a result may sit from the reference: float32 rounding of the hidden cases measured
#: 1e-7 absolute and 2e-6 relative (float64: 1e-16); these admit it with room, and refuse any
#: other formula (the nearest wrong one differs by more than 1e-3).
FLOAT_RTOL, FLOAT_ATOL = 1e-5, 1e-6

__all__ = ["REFERENCE_SOURCES", "register", "reference_functions", "as_functions", "StudentError", "Call",
           "run_calls", "close", "same_number", "one_number"]

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
    if not (type(functions) is tuple and len(functions) == len(names) and all(map(callable, functions))):
        got = f"a tuple of {len(functions)}" if type(functions) is tuple else f"a {type(answer).__name__}"
        raise AnswerFormatError(f"check({exercise_id!r}, answer): answer must be {answer_format}, got {got}"[:200])
    return functions


def close(got: np.ndarray, expected) -> bool:
    """``got`` equals ``expected`` (same shape) as float rounding allows (:data:`FLOAT_RTOL`, :data:`FLOAT_ATOL`).

    Parameters
    ----------
    got : numpy.ndarray
        What the student's function returned (numbers).
    expected : array_like
        The value to compare with.

    Returns
    -------
    bool
        Whether the shapes agree and every entry is within the tolerance.
    """
    expected = np.asarray(expected, dtype=float)
    return got.shape == expected.shape and bool(np.allclose(got, expected, rtol=FLOAT_RTOL, atol=FLOAT_ATOL))


def same_number(got: float, value: float) -> bool:
    """One number equal to ``value`` as float rounding allows (as :func:`close`).

    Parameters
    ----------
    got, value : float
        The student's number and the value to compare with.

    Returns
    -------
    bool
        Whether they agree within the tolerance.
    """
    return abs(got - value) <= FLOAT_ATOL + FLOAT_RTOL * abs(value)


def one_number(got: np.ndarray, name: str, what: str) -> float:
    """The one real, finite number a function returned.

    Parameters
    ----------
    got : numpy.ndarray
        What it returned, as numbers (a 0-d or one-element array).
    name : str
        The function's name in the exercise.
    what : str
        What the number is, for the message (e.g. "the estimated share").

    Returns
    -------
    float
        The number.

    Raises
    ------
    StudentError
        With a message that says what came back instead (an empty array, several values, a
        complex number, NaN).
    """
    if got.size != 1:
        shown = "an empty array" if got.size == 0 else f"an array of shape {got.shape}"
        raise StudentError(f"{name} must return one number ({what}); it returned {shown}.")
    if got.dtype.kind == "c":
        raise StudentError(f"{name} returned a complex number: {what} is real.")
    value = float(got.reshape(()))
    if not np.isfinite(value):
        raise StudentError(f"{name} returned a value that is not finite (NaN or infinite).")
    return value


def low_precision_hint(got: np.ndarray, name: str) -> str | None:
    """The hint for a result in a float type coarser than float32 (float16), else None."""
    if got.dtype.kind == "f" and got.dtype.itemsize < 4:
        return (f"{name} returns {got.dtype.name}, whose rounding (about 1e-3) is coarser than the check "
                "allows: compute in float64 (or float32).")
    return None


def draws_from_rng(name: str, first: np.ndarray, again: np.ndarray, other: np.ndarray) -> str | None:
    """None when a randomizer is reproducible with one seed and varies with the seed; else a hint.

    Parameters
    ----------
    name : str
        The randomizer's name in the message.
    first, again, other : numpy.ndarray
        Its reports with ``rng`` seeded 2024, again 2024, and 7 (the calls of :func:`rng_calls`,
        made in that order in one process, so that numpy's global random state moves between them).

    Returns
    -------
    str or None
        The hint, or None when the randomizer uses its ``rng`` argument.
    """
    if first.shape != again.shape or not np.array_equal(first, again):
        return (f"{name} gives different reports for the same rng seed: draw every random number from the "
                "`rng` argument, not from numpy's global random functions.")
    if first.shape == other.shape and np.array_equal(first, other):
        return (f"{name} gives the same reports for two different rng seeds: draw the coins from the `rng` "
                "argument (not from a generator of your own with a fixed seed).")
    return None


def rng_calls(randomize, name: str, make_args) -> list[Call]:
    """The three calls :func:`draws_from_rng` reads: ``randomize(*make_args(rng))`` with seeds 2024, 2024, 7."""
    return [Call(randomize, name, make_args(np.random.default_rng(seed))) for seed in (2024, 2024, 7)]


def judge_randomizer_and_estimator(answer, names: tuple[str, str], exercise_id: str, answer_format: str,
                                   randomizer: tuple[Callable, Callable], estimator: tuple[Callable, Callable],
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
    randomizer, estimator : (callable, callable)
        For each function: ``calls(function) -> list of Call`` (its hidden cases) and
        ``judge(results) -> hint or None``, reading the outcomes of those calls in order.
    success : str
        The message when both pass.

    Returns
    -------
    Verdict
        Correct with ``success``, or not with the hint or what the student's code did wrong.
    """
    randomize, estimate = as_functions(answer, names, exercise_id, answer_format)
    first = randomizer[0](randomize)
    results = run_calls(first + estimator[0](estimate), exercise_id)
    try:
        hint = randomizer[1](results) or estimator[1](results.part(len(first)))
    except StudentError as error:
        return Verdict(False, with_note(str(error), results))
    if hint:
        return Verdict(False, with_note(hint, results))
    return Verdict(True, with_note(success, results))


def with_note(message: str, results) -> str:
    """``message`` with the guard's note (checked without a time limit), if any."""
    return f"{message} ({results.note})" if results.note else message
