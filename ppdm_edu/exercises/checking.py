"""The machinery behind :func:`ppdm_edu.exercises.check`: exercises, results and answer parsing.

An :class:`Exercise` is either *checked* (``kind`` "numeric" or "structured": a ``judge`` that
compares the student's answer with a reference computed by the library) or a *rubric* (open-ended:
``check`` prints the self-assessment criteria and judges nothing). Judges never print the
reference: a wrong answer gets "not yet", a hint about a typical mistake where one is recognised,
and the section to re-read.
"""
from __future__ import annotations

import decimal
import fractions
import html
import math
import numbers
import sys
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

__all__ = ["CheckResult", "Verdict", "Exercise", "AnswerFormatError"]

KINDS = ("numeric", "structured", "rubric")


@dataclass(frozen=True)
class CheckResult:
    """What :func:`ppdm_edu.exercises.check` says about one answer.

    Attributes
    ----------
    exercise_id : str
        E.g. ``"02.1"``: notebook 02, exercise 1.
    correct : bool
        True only when a checked exercise's answer passed its check; always False for a rubric
        (nothing is judged) and for a missing answer.
    kind : str
        "numeric", "structured" or "rubric".
    message : str
        "correct" with a short comment, or "not yet" with a hint and the section to re-read.
    rubric : tuple of str
        The self-assessment criteria (rubric exercises; checked exercises may add a part that
        is not checked automatically, such as a "why").
    """

    exercise_id: str
    correct: bool
    kind: str
    message: str
    rubric: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        """"correct", "not yet" or, for a rubric, "SELF-ASSESSMENT (not checked automatically)"."""
        if self.kind == "rubric":
            return "SELF-ASSESSMENT (not checked automatically)"
        return "correct" if self.correct else "not yet"

    def __str__(self) -> str:
        mark = {"correct": "✔", "not yet": "✘"}.get(self.status, "☐")
        lines = [f"{mark} {self.exercise_id}: {self.status} — {self.message}"]
        lines += [f"  ☐ {item}" for item in self.rubric]
        return "\n".join(lines)

    def _repr_pretty_(self, printer, cycle) -> None:
        # IPython's text/plain (terminals, nbconvert to text): the same words as the HTML
        printer.text(str(self))

    def _repr_html_(self) -> str:
        colour = {"correct": "#1b7f3b", "not yet": "#b03a2e"}.get(self.status, "#555599")
        items = "".join(f"<li>☐ {html.escape(item)}</li>" for item in self.rubric)
        rubric = f"<ul style='list-style:none;padding-left:1em;margin:0.3em 0'>{items}</ul>" if items else ""
        return (f"<div style='border-left:4px solid {colour};padding:0.3em 0.8em;margin:0.3em 0'>"
                f"<b style='color:{colour}'>{html.escape(self.exercise_id)}: {html.escape(self.status)}</b>"
                f" — {html.escape(self.message)}{rubric}</div>")


@dataclass(frozen=True)
class Verdict:
    """A judge's decision on one answer.

    Attributes
    ----------
    correct : bool
        Whether the answer passed.
    message : str
        A comment when correct, a hint (never the reference) when not.
    """

    correct: bool
    message: str = ""


@dataclass(frozen=True)
class Precision:
    """The precision an exercise asks for: ``decimals`` or ``significant`` figures, or exact.

    A checked exercise states its precision (the notebook's check cell prints it with the answer
    format) and accepts every answer rounded to it: the judge's tolerance is at least
    :meth:`tolerance`, half a unit in the last stated place of the reference.

    Attributes
    ----------
    decimals : int or None
        Decimal places (e.g. 3 for 0.951).
    significant : int or None
        Significant figures (e.g. 2 for 4.8). At most one of the two is set; neither means exact.
    what : str
        What the precision applies to (e.g. "accuracies"), used in :attr:`text`.
    ratio_of_counts : bool
        The value is a ratio of counts (an accuracy k/n) that a run can give exactly with fewer
        figures (0.61 of 500 records): a short answer is then not refused for its precision.

    Examples
    --------
    >>> Precision(significant=2).tolerance(4.839) >= abs(4.8 - 4.839)
    True
    >>> Precision(decimals=3, what="θ").text
    'θ to 3 decimals'
    """

    decimals: int | None = None
    significant: int | None = None
    what: str = ""
    ratio_of_counts: bool = False

    def __post_init__(self):
        if self.decimals is not None and self.significant is not None:
            raise ValueError("a Precision has decimals or significant figures, not both")
        for name in ("decimals", "significant"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < (1 if name == "significant" else 0)):
                raise ValueError(f"Precision {name} must be a whole number (significant >= 1), got {value!r}")

    @property
    def text(self) -> str:
        """The precision in words, e.g. "2 significant figures" or "accuracies to 3 decimals"."""
        if self.decimals is not None:
            words = "a whole number" if self.decimals == 0 else f"to {self.decimals} decimal" + "s" * (self.decimals > 1)
        elif self.significant is not None:
            words = f"to {self.significant} significant figure" + "s" * (self.significant > 1)
        else:
            words = "exact"
        return f"{self.what} {words}".strip()

    def unit(self, reference: float) -> float:
        """One unit in the last stated place of ``reference`` (0 when exact).

        Parameters
        ----------
        reference : float
            The reference solution (its magnitude sets the unit of significant figures).

        Returns
        -------
        float
            E.g. 0.1 for 4.839 at 2 significant figures, 0.001 at 3 decimals.
        """
        if self.decimals is not None:
            return 10.0 ** -self.decimals
        if self.significant is not None and reference != 0 and math.isfinite(reference):
            return 10.0 ** (math.floor(math.log10(abs(reference))) - self.significant + 1)
        return 0.0

    def tolerance(self, reference: float) -> float:
        """Half a unit in the last stated place (plus float slack): every rounding of ``reference``.

        Parameters
        ----------
        reference : float
            The reference solution.

        Returns
        -------
        float
            The absolute tolerance that admits ``reference`` rounded to this precision.
        """
        return 0.5 * self.unit(reference) * (1 + 1e-9) + 1e-12

    def round(self, value: float) -> float:
        """``value`` rounded to this precision (as a student writes it down).

        Parameters
        ----------
        value : float
            A number.

        Returns
        -------
        float
            ``value`` rounded (unchanged when exact).
        """
        if self.decimals is not None:
            return round(float(value), self.decimals)
        if self.significant is not None:
            return float(f"{float(value):.{self.significant}g}")
        return value


EXACT = Precision()


@dataclass(frozen=True)
class Exercise:
    """One exercise of a notebook.

    Attributes
    ----------
    id : str
        "NN.k": notebook NN, exercise k.
    title : str
        Short name, as in the notebook.
    kind : str
        "numeric", "structured" or "rubric".
    section : str
        Where to re-read when the answer is not yet right.
    answer_format : str
        What ``answer`` must be (shown in type errors); empty for rubrics.
    judge : callable or None
        ``judge(answer) -> Verdict``; raises TypeError/ValueError for an answer of the wrong
        type or shape. None for rubrics.
    reference : callable or None
        ``reference() -> answer``: the solution, computed with the library. None for rubrics.
    tolerance : str
        How close a numerical answer must be, and why.
    rubric : tuple of str
        Self-assessment criteria (all of a rubric exercise; the unchecked part of others).
    precision : Precision, tuple or None
        The precision the answer must have: one :class:`Precision` for every number of the
        answer, or a tuple with one per component of a tuple answer (None for a name or a
        choice). None for rubrics and for answers that are a name.
    model_answer : callable or None
        ``model_answer() -> tuple of str``: the lecturer's key to the parts ``check`` does not judge
        (the "why" of a checked exercise, or an open-ended one), one paragraph per rubric item.
        Never shown by ``check``; ``make solutions`` writes it into the key.
    """

    id: str
    title: str
    kind: str
    section: str
    answer_format: str = ""
    judge: Callable[[object], Verdict] | None = None
    reference: Callable[[], object] | None = None
    tolerance: str = ""
    rubric: tuple[str, ...] = field(default=())
    precision: Precision | tuple | None = None
    model_answer: Callable[[], tuple[str, ...]] | None = None

    @property
    def precision_text(self) -> str:
        """The stated precision in words ("" when none is stated)."""
        parts = self.precision if isinstance(self.precision, tuple) else (self.precision,)
        texts = [p.text for p in parts if isinstance(p, Precision)]
        return ", ".join(dict.fromkeys(texts))

    @property
    def format_hint(self) -> str:
        """What ``answer`` must be, with the stated precision: shown for a missing or malformed answer."""
        prec = self.precision_text
        return self.answer_format + (f", {prec}" if prec else "")

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if (self.kind == "rubric") != (self.judge is None):
            raise ValueError(f"exercise {self.id}: a rubric has no judge, a checked exercise has one")


class AnswerFormatError(TypeError):
    """``answer`` has the wrong type or shape for its exercise (a TypeError)."""


def _describe(answer) -> str:
    return f"{type(answer).__name__} {answer!r}"[:120]


def as_number(answer, exercise_id: str, answer_format: str, *, name: str = "answer") -> float:
    """``answer`` as a float; a clear TypeError naming the exercise and the format otherwise.

    Parameters
    ----------
    answer : object
        A real number (Python or numpy, not a bool) or a one-element numeric array.
    exercise_id : str
        Named in the error message.
    answer_format : str
        What the exercise expects, named in the error message.
    name : str, default "answer"
        The argument's name in the error message (e.g. "answer[1]").

    Returns
    -------
    float
        The answer as a float (NaN and inf are returned: judges call them "not yet").

    Examples
    --------
    >>> as_number(3, "07.4", "a number")
    3.0
    """
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, (numbers.Real, np.number)):
        if isinstance(answer, np.ndarray) and answer.size == 1 and np.issubdtype(answer.dtype, np.number):
            return float(answer.reshape(()))
        raise AnswerFormatError(f"check({exercise_id!r}, {name}): {name} must be {answer_format}, "
                                f"got {_describe(answer)}")
    return float(answer)


def as_numbers(answer, n: int, exercise_id: str, answer_format: str) -> tuple[float, ...]:
    """``answer`` as a tuple of ``n`` floats (a tuple, list or 1-D array).

    Parameters
    ----------
    answer : sequence of numbers
        A tuple, list or array of ``n`` numbers.
    n : int
        How many values the exercise expects.
    exercise_id : str
        Named in the error message.
    answer_format : str
        What the exercise expects, named in the error message.

    Returns
    -------
    tuple of float
        The ``n`` values.

    Examples
    --------
    >>> as_numbers([0.39, 0.61], 2, "02.1", "a pair")
    (0.39, 0.61)
    """
    if isinstance(answer, (str, bytes, dict)) or not hasattr(answer, "__len__"):
        raise AnswerFormatError(f"check({exercise_id!r}, answer): answer must be {answer_format}, "
                                f"got {_describe(answer)}")
    values = list(np.asarray(answer, dtype=object).ravel()) if isinstance(answer, np.ndarray) else list(answer)
    if len(values) != n:
        raise ValueError(f"check({exercise_id!r}, answer): answer must be {answer_format} "
                         f"({n} values), got {len(values)} values")
    return tuple(as_number(v, exercise_id, answer_format, name=f"answer[{i}]") for i, v in enumerate(values))


def as_choice(answer, allowed, exercise_id: str, answer_format: str, *, name: str = "answer") -> str:
    """``answer`` as one of the strings ``allowed`` (case and spaces/underscores/hyphens ignored).

    Parameters
    ----------
    answer : str
        The student's choice.
    allowed : sequence of str
        The possible choices (listed in the ValueError for any other string).
    exercise_id : str
        Named in the error message.
    answer_format : str
        What the exercise expects, named in the error message.
    name : str, default "answer"
        The argument's name in the error message.

    Returns
    -------
    str
        The matching entry of ``allowed``.

    Examples
    --------
    >>> as_choice("Split_Points", ("split points", "partitions"), "06.2", "a choice")
    'split points'
    """
    if not isinstance(answer, str):
        raise AnswerFormatError(f"check({exercise_id!r}, {name}): {name} must be {answer_format}, "
                                f"got {_describe(answer)}")
    key = normalize(answer)
    for option in allowed:
        if normalize(option) == key:
            return option
    raise ValueError(f"check({exercise_id!r}, {name}): {name} must be one of "
                     f"{', '.join(repr(a) for a in allowed)}, got {answer!r}")


def normalize(text: str) -> str:
    """Lower case, with spaces, hyphens and underscores removed: "Split points" == "split_points".

    Parameters
    ----------
    text : str
        Any string.

    Returns
    -------
    str
        The normalized string.
    """
    return "".join(ch for ch in text.lower() if ch not in " -_")


def within(value: float, reference: float, tol: float) -> bool:
    """``|value - reference| <= tol`` for finite values.

    Parameters
    ----------
    value, reference, tol : float
        The answer, the reference and the absolute tolerance.

    Returns
    -------
    bool
        False for a NaN or infinite ``value``.
    """
    return math.isfinite(value) and abs(value - reference) <= tol


def written_decimals(value: float) -> int:
    """The decimal places ``value`` is written with (its shortest repr): 2 for 4.85, 0 for 3.0.

    Parameters
    ----------
    value : float
        A finite number as the student typed or computed it.

    Returns
    -------
    int
        The number of digits after the decimal point of ``repr(float(value))`` (at most 17).

    Examples
    --------
    >>> written_decimals(4.85), written_decimals(0.0222), written_decimals(3.0)
    (2, 4, 0)
    """
    from decimal import Decimal
    exponent = Decimal(repr(float(value))).normalize().as_tuple().exponent
    return min(17, max(0, -int(exponent))) if isinstance(exponent, int) else 0


def matches_as_written(value: float, target: float) -> bool:
    """``target`` rounded to the decimals ``value`` is written with equals ``value``.

    Two numbers inside one exercise's tolerance (the reference and a typical mistake) are told
    apart by the digits a student wrote: 4.85 is the mistake 4.846 as written, not the reference
    4.839 (which is written 4.84); 4.8 could be either, and is accepted.

    Parameters
    ----------
    value : float
        The answer.
    target : float
        A reference or a typical mistake.

    Returns
    -------
    bool
        Whether ``value`` is ``target`` rounded to ``value``'s own decimals.

    Examples
    --------
    >>> matches_as_written(4.85, 4.8462), matches_as_written(4.85, 4.8387), matches_as_written(4.8, 4.8387)
    (True, False, True)
    """
    if not (math.isfinite(value) and math.isfinite(target)):
        return False
    decimals = written_decimals(value)
    # an unrounded float (15-17 decimals) is compared with a relative float slack
    return abs(round(target, decimals) - value) <= max(10.0 ** -(decimals + 6), 1e-12 * abs(value))


def looks_like_percent(value: float, reference: float, tol: float) -> bool:
    """The answer is the reference × 100 (a percentage where a fraction was asked).

    Parameters
    ----------
    value, reference, tol : float
        The answer, the reference and the absolute tolerance (scaled by 100 too).

    Returns
    -------
    bool
        True when ``value`` is within ``100 * tol`` of ``100 * reference``.
    """
    return within(value, 100 * reference, 100 * tol) and abs(reference) > 1e-12


def numeric_verdict(value: float, reference: float, tol: float, mistakes=(), *, percent_hint: bool = True,
                    comment: str = "", what_to_check: str = "", mistake_tol: float | None = None,
                    close_mistakes=()) -> Verdict:
    """Compare one number; recognise typical mistakes ``(value, hint)`` and percentages.

    Parameters
    ----------
    value : float
        The answer.
    reference : float
        The reference solution.
    tol : float
        Absolute tolerance.
    mistakes : sequence of (float, str)
        Typical wrong values and the hint each gets (the hint must not reveal the reference).
    percent_hint : bool, default True
        Recognise ``100 * reference`` as a percentage given for a fraction.
    comment : str
        Message for a correct answer.
    what_to_check : str
        The hint for a value that matches no known mistake: what to check (never the answer).
    mistake_tol : float or None
        Absolute tolerance for recognising a typical mistake (default ``tol``). A tolerance that
        covers a simulation's spread is too wide for exact wrong values: 0.3 is not "0.5".
    close_mistakes : sequence of (float, str)
        Typical wrong values that lie inside the tolerance of the reference: the answer is refused
        with the hint when it is such a value as written (:func:`matches_as_written`) and not the
        reference as written.

    Returns
    -------
    Verdict
        Correct, or not with a hint.

    Examples
    --------
    >>> numeric_verdict(0.5, 0.5, 0.01).correct
    True
    >>> numeric_verdict(50, 0.5, 0.01).message
    'this looks like a percentage: give a fraction (0 to 1).'
    """
    if not math.isfinite(value):
        return Verdict(False, "the answer is not a finite number.")
    for wrong, hint in close_mistakes:
        if matches_as_written(value, wrong) and not matches_as_written(value, reference):
            return Verdict(False, hint)
    if within(value, reference, tol):
        return Verdict(True, comment or "right.")
    for wrong, hint in mistakes:
        if within(value, wrong, tol if mistake_tol is None else mistake_tol):
            return Verdict(False, hint)
    if percent_hint and looks_like_percent(value, reference, tol):
        return Verdict(False, "this looks like a percentage: give a fraction (0 to 1).")
    if reference != 0 and within(value, -reference, tol):
        return Verdict(False, "the sign is wrong.")
    return Verdict(False, what_to_check or "not within the tolerance: check the formula and the inputs the "
                                           "exercise names.")


def as_seed(answer, exercise_id: str, answer_format: str, *, name: str = "answer[0]") -> int:
    """``answer`` as a seed the student states (a whole number 0 <= seed < 2**32).

    Parameters
    ----------
    answer : int
        The seed the student used (a float with no fractional part is accepted).
    exercise_id : str
        Named in the error message.
    answer_format : str
        What the exercise expects, named in the error message.
    name : str, default "answer[0]"
        The argument's name in the error message.

    Returns
    -------
    int
        The seed.
    """
    value = as_number(answer, exercise_id, answer_format, name=name)
    if not (math.isfinite(value) and value == int(value) and 0 <= value < 2 ** 32):
        raise ValueError(f"check({exercise_id!r}, {name}): {name} must be a seed, a whole number from 0 to "
                         f"2**32 - 1, got {answer!r}")
    return int(value)


def _has_nan(answer, _seen: frozenset = frozenset()) -> bool:
    if isinstance(answer, (float, np.floating)):
        return not math.isfinite(answer)
    if isinstance(answer, (tuple, list)):
        if id(answer) in _seen:  # a list that contains itself: judged (and refused) by its length, not walked forever
            return False
        seen = _seen | {id(answer)}
        return any(_has_nan(a, seen) for a in answer)
    if isinstance(answer, np.ndarray) and np.issubdtype(answer.dtype, np.number):
        return not bool(np.isfinite(answer).all())
    return False


_PLAIN_TYPES = (int, float, bool, str, bytes, complex, type(None), fractions.Fraction, decimal.Decimal)
_CONTAINERS = (tuple, list, set, frozenset)
MAX_VALUES = 100_000  # an answer is a few numbers; a million-item list is not read item by item
MAX_DEPTH = 20


def foreign_object(answer, allow_callables: bool = False) -> str | None:
    """What in ``answer`` is not plain data, in words; None when it is all plain.

    Plain data are Python's and numpy's own numbers, text, None, tuples, lists, sets and dicts of
    them, numpy arrays, pandas tables (refused later with their own message) and, where the answer
    is a function, callables (run under the guard). Anything else (an object of the student's own
    class, even a subclass of float) could run code when it is compared or printed, so it is
    refused before any judge reads it. Only ``type()`` and ``callable()`` are applied to the
    answer's parts here: neither runs the student's code.

    Parameters
    ----------
    answer : object
        The student's answer.
    allow_callables : bool, default False
        Accept callables (a "write it yourself" exercise).

    Returns
    -------
    str or None
        E.g. "an object of type MyFloat", or None.
    """
    pandas = sys.modules.get("pandas")
    tables = (pandas.DataFrame, pandas.Series) if pandas is not None else ()
    stack, seen, count = [(answer, 0)], set(), 0
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            return f"more than {MAX_VALUES:,} values"
        parts = _parts(item, allow_callables, tables)
        if parts is None:
            return f"an object of type {_type_name(type(item))}"
        if parts and depth >= MAX_DEPTH:
            return f"values nested more than {MAX_DEPTH} deep"
        if parts and id(item) not in seen:  # a list that contains itself is read once
            seen.add(id(item))
            stack.extend((part, depth + 1) for part in parts)
    return None


def _parts(item, allow_callables: bool, tables: tuple) -> list | None:
    """The items of a plain container ([] for a plain value), None for anything else."""
    kind = type(item)
    if kind in _PLAIN_TYPES or kind in tables or (allow_callables and callable(item)) \
            or (issubclass(kind, np.generic) and kind.__module__ == "numpy"):
        return []
    if kind is np.ndarray:
        return item.ravel().tolist() if item.dtype.kind == "O" else []
    if kind is dict:
        return list(item.keys()) + list(item.values())
    if kind in _CONTAINERS:
        return list(item)
    return None


def _type_name(kind) -> str:
    """The class's own name, read with ``type``'s descriptor (a metaclass cannot run code here)."""
    name = type.__dict__["__name__"].__get__(kind, type) if isinstance(kind, type) else "object"
    return name if type(name) is str else "object"


def malformed_message(answer, format_hint: str) -> str | None:
    """The uniform "not yet" message for an answer that is not a finite value of the right form.

    Parameters
    ----------
    answer : object
        The student's answer.
    format_hint : str
        What the exercise expects (format and precision).

    Returns
    -------
    str or None
        The message for NaN/infinite values, tables and mappings; None when the answer's form can
        be checked by the exercise's judge.
    """
    if _has_nan(answer):
        what = "NaN or an infinity (did a computation fail?)"
    elif isinstance(answer, dict) or hasattr(answer, "iloc") or hasattr(answer, "to_frame"):
        what = f"a {type(answer).__name__} (take the number(s) out of it)"
    else:
        return None
    return f"the answer must be {format_hint}; got {what}."


def round_answer(answer, precision):
    """``answer`` with every number rounded to ``precision`` (as a student writes it down).

    Parameters
    ----------
    answer : object
        A number, a sequence of numbers, or a tuple mixing numbers and names.
    precision : Precision or tuple
        One precision for every number, or one per component (None leaves a component as it is).

    Returns
    -------
    object
        The rounded answer (same shape; names, seeds and counts unchanged).
    """
    def one(value, prec):
        # numpy registers its floating types as numbers.Real and its integers (and bool, an int)
        # as numbers.Integral, so this rounds every real non-integer number, numpy's included
        if isinstance(prec, Precision) and isinstance(value, numbers.Real) \
                and not isinstance(value, numbers.Integral):
            return prec.round(float(value))
        return value
    if isinstance(precision, tuple):
        return tuple(one(v, p) for v, p in zip(answer, precision))
    if isinstance(answer, (tuple, list, np.ndarray)):
        return type(answer)(one(v, precision) for v in answer) if not isinstance(answer, np.ndarray) \
            else np.array([one(v, precision) for v in answer])
    return one(answer, precision)


def figures_written(value: float, precision: Precision) -> int:
    """How many of ``precision``'s units ``value`` shows as written (its shortest repr): its
    significant figures, or its decimals; 0 when the precision is exact.

    Parameters
    ----------
    value : float
        A finite number as the student typed or computed it.
    precision : Precision
        What the exercise asks for.

    Returns
    -------
    int
        E.g. 1 significant figure for 0.02 (a float cannot keep the zero of "0.020"), 2 for 68.

    Examples
    --------
    >>> figures_written(0.02, Precision(significant=2)), figures_written(0.73, Precision(decimals=3))
    (1, 2)
    """
    from decimal import Decimal
    if precision.decimals is not None:
        return written_decimals(value)
    if precision.significant is not None:
        return len(Decimal(repr(float(value))).normalize().as_tuple().digits) if value != 0 else 1
    return 0


def _figures_asked(precision: Precision) -> int:
    return precision.decimals if precision.decimals is not None else precision.significant or 0


def _numbers_with_precision(answer, precision) -> list[tuple[int, float, Precision]]:
    """(position, value, precision) of each number of ``answer`` that has a stated precision."""
    parts = list(answer) if isinstance(answer, (tuple, list, np.ndarray)) else [answer]
    precisions = list(precision) if isinstance(precision, tuple) else [precision] * len(parts)
    return [(i, float(v), p) for i, (v, p) in enumerate(zip(parts, precisions))
            if isinstance(p, Precision) and (p.decimals is not None or p.significant is not None)
            and not p.ratio_of_counts
            and isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) and math.isfinite(v)]


def precision_shortfall(answer, precision, reference: Callable[[], object], correct: bool) -> str | None:
    """The hint for a number written with fewer figures than the exercise asks for, else None.

    The rule is applied only where it cannot refuse an honest answer: when the reference, rounded
    to the stated precision, shows all its figures (0.022 at 2 significant figures, not 0.020,
    which a float writes 0.02). A short number is then refused when the judge accepted it, or
    when it is the reference rounded to fewer figures (70 for 68): the diagnosis is its
    precision, not its value.

    Parameters
    ----------
    answer : object
        The student's plain answer (a number or a tuple of values).
    precision : Precision or tuple
        The exercise's stated precision (per component for a tuple).
    reference : callable
        The exercise's reference; called only when a number is short.
    correct : bool
        The judge's verdict.

    Returns
    -------
    str or None
        The hint, or None.
    """
    short = [(i, v, p) for i, v, p in _numbers_with_precision(answer, precision)
             if figures_written(v, p) < _figures_asked(p)]
    if not short:
        return None
    ref = reference()
    ref_parts = list(ref) if isinstance(ref, (tuple, list, np.ndarray)) else [ref]
    for i, value, p in short:
        if i >= len(ref_parts) or not isinstance(ref_parts[i], numbers.Real):
            continue
        target = float(np.asarray(ref_parts[i], dtype=float))
        if figures_written(p.round(target), p) < _figures_asked(p):
            continue  # the reference itself ends in a zero there: a short answer may be honest
        shown = figures_written(value, p)
        coarser = Precision(decimals=shown) if p.decimals is not None else Precision(significant=max(1, shown))
        if correct or coarser.round(target) == value:
            unit = "decimal" if p.decimals is not None else "significant figure"
            asked = p.text if p.what else f"the answer {p.text}"
            return (f"the question asks for {asked}; {value:g} shows only {shown} {unit}" + "s" * (shown != 1)
                    + ": write the digits you computed, rounded to that precision.")
    return None
