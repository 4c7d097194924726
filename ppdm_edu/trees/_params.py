"""The trees' parameter checks: one declarative table per estimator.

A tree class declares ``_param_checks = {parameter: check}`` with one entry per constructor
parameter (``tests/test_estimator_contract.py`` keeps the two in step), and its ``fit`` calls
:func:`checked_params`. The constructor stores its arguments untouched (scikit-learn's contract:
``get_params``, ``clone`` and grid search see what the user gave); ``fit`` checks them. A check
is a callable ``check(value, name) -> value`` that returns the checked value or raises an error
naming the parameter, the value and what is allowed.
"""
from __future__ import annotations

from typing import Callable

from .._validation import check_bool, check_integer, check_probability
from ..random_state import check_random_state

#: what a check is: ``check(value, name) -> the checked value``
ParamCheck = Callable[[object, str], object]


class Integer:
    """An integer >= ``minimum`` (``3.0`` accepted, as by every integer argument of the package),
    or None when ``none`` is True.

    Parameters
    ----------
    minimum : int
        Smallest allowed value.
    none : bool, default False
        Also accept None.
    """

    def __init__(self, minimum: int, none: bool = False):
        self.minimum, self.none = minimum, none

    def __call__(self, value, name):
        if value is None and self.none:
            return None
        if value is None:
            raise TypeError(f"{name} must be an integer >= {self.minimum}, got None")
        return check_integer(value, name, minimum=self.minimum)


class OneOf:
    """One of a fixed set of values (strings compared by value, the others by identity).

    Parameters
    ----------
    *values : object
        The allowed values.
    """

    def __init__(self, *values):
        self.values = values

    def __call__(self, value, name):
        if not any(value is v or (isinstance(value, str) and value == v) for v in self.values):
            raise ValueError(f"{name} must be one of {self.values}, got {value!r}")
        return value


class Probability:
    """A number in [0, ``high``] (``open_interval``: in (0, ``high``], and below 1).

    Parameters
    ----------
    high : float, default 1.0
        Largest allowed value.
    open_interval : bool, default False
        Refuse 0 and 1.
    hint : str, default ""
        Added to the message of a value above ``high``.
    """

    def __init__(self, high: float = 1.0, open_interval: bool = False, hint: str = ""):
        self.high, self.open_interval, self.hint = high, open_interval, hint

    def __call__(self, value, name):
        value = check_probability(value, name, open_interval=self.open_interval)
        if value > self.high:
            raise ValueError(f"{name} must be in (0, {self.high}]{self.hint}, got {value}")
        return value


class Boolean:
    """True or False (numpy bools too)."""

    def __call__(self, value, name):
        return check_bool(value, name)


class RandomState:
    """None, an int seed or a numpy Generator (kept as given: ``fit`` draws from it)."""

    def __call__(self, value, name):
        check_random_state(value, name)
        return value


class CheckedInFit:
    """A parameter ``fit`` checks itself, where what it needs is known (e.g. the columns).

    Parameters
    ----------
    where : str
        Where and why, in words.
    """

    def __init__(self, where: str):
        self.where = where

    def __call__(self, value, name):
        return value


def checked_params(estimator) -> dict:
    """Every parameter of ``estimator`` checked by its entry of ``_param_checks``, by name.

    Parameters
    ----------
    estimator : TreeClassifier
        The estimator whose parameters to check.

    Returns
    -------
    dict
        The checked values (ints as int, probabilities as float, ...).
    """
    return {name: check(getattr(estimator, name), name) for name, check in estimator._param_checks.items()}
