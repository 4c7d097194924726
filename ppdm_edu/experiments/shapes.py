"""The shape of a task's result: what a checkpoint must hold before a resumed run uses it.

A task declares it with :func:`result_shape`: field names, types, lengths and a range for every
number (``Int(low, high)``, ``Float(low, high)``: no default range, so a count of ``10**400`` is
refused with the file's name, not overflowed later). ``dump(value)`` gives a result's JSON data,
``load(data)`` the result back, each raising :class:`ShapeError` if it does not fit (the task is
then recomputed). Why not a library: a JSON Schema validator hands back JSON (lists for tuples,
text for a NaN, rows for a table) and a model library would outweigh this module; a shape gives
back exactly the types the task returned (a resumed run writes the same CSV bytes) and builds only
numbers, strings, tuples, lists, dicts and DataFrames: nothing a checkpoint holds can run code.

Examples
--------
>>> shape = Record(theta=Exactly(0.6), run=Int(0, 99), accuracy=Float(0, 1))
>>> shape.load(shape.dump({"theta": 0.6, "run": 3, "accuracy": 0.8}))
{'theta': 0.6, 'run': 3, 'accuracy': 0.8}
>>> shape.load({"theta": 0.6, "run": 10**400, "accuracy": 0.8})
Traceback (most recent call last):
    ...
ppdm_edu.experiments.shapes.ShapeError: field 'run': expected an int in [0, 99], got an int of 1329 bits
"""
from __future__ import annotations

import json
import math
import numbers
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["ShapeError", "Shape", "Float", "Int", "Str", "Exactly", "Tuple", "List", "Record", "Table",
           "Plain", "result_shape", "shape_of"]


class ShapeError(ValueError):
    """A value or JSON data that does not have the declared shape."""


def _short(data) -> str:
    """``data`` for a message: at most 40 characters (a huge int by its size)."""
    if type(data) is int and data.bit_length() > 128:
        return f"an int of {data.bit_length()} bits"
    return repr(str(data)[:40])


class Shape(ABC):
    """Base class: ``dump`` a result to JSON data and ``load`` it back, both checking the shape."""

    @abstractmethod
    def dump(self, value):
        """The result ``value`` as JSON data.

        Parameters
        ----------
        value : object
            A task's result.

        Returns
        -------
        object
            JSON data (None, bool, int, finite float, str, list, dict).
        """

    @abstractmethod
    def load(self, data):
        """The result back from JSON ``data``, of the types :meth:`dump` was given.

        Parameters
        ----------
        data : object
            JSON data, as read from a checkpoint.

        Returns
        -------
        object
            The result.
        """

    def difference(self, a, b) -> str | None:
        """Where two JSON data of this shape differ: a checkpoint and its task recomputed now.

        Parameters
        ----------
        a, b : object
            JSON data of this shape (from :meth:`dump` or a checkpoint).

        Returns
        -------
        str or None
            The first difference, e.g. ``"field 'accuracy': 0.85 != 0.8"``; None if they agree
            (floats within a relative 1e-9: the last bits of a sum may depend on the machine).
        """
        text_a, text_b = _json_text(a), _json_text(b)
        return None if text_a == text_b else f"{text_a[:40]} != {text_b[:40]}"


def _range(low, high, finite: bool) -> None:
    real = all(isinstance(b, numbers.Real) and not isinstance(b, bool) for b in (low, high))
    if not real or not low <= high or finite and not math.isfinite(high - low):
        raise ValueError(f"low and high must be {'finite ' if finite else ''}numbers, low <= high; "
                         f"got [{low!r}, {high!r}]")


@dataclass(frozen=True)
class Float(Shape):
    """A float in ``[low, high]`` (NaN only if ``nan``); ±inf only where a bound is infinite.

    Non-finite floats are stored as the text ``"nan"``, ``"inf"``, ``"-inf"`` (strict JSON has no
    such numbers).

    Parameters
    ----------
    low : float
        The smallest allowed value.
    high : float
        The largest allowed value.
    nan : bool, default False
        Whether NaN is allowed.
    compared : bool, default True
        False for a wall-clock time: :meth:`difference` ignores it (a recomputation takes its own).
    """

    low: float
    high: float
    nan: bool = False
    compared: bool = True

    def __post_init__(self):
        _range(self.low, self.high, finite=False)

    def _check(self, x: float) -> float:
        if math.isnan(x) and not self.nan or not math.isnan(x) and not self.low <= x <= self.high:
            raise ShapeError(f"{x!r} is not a number in [{self.low}, {self.high}]")
        return x

    def dump(self, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ShapeError(f"expected a float, got {type(value).__name__}")
        try:
            x = self._check(float(value))
        except OverflowError:
            raise ShapeError(f"{_short(value)} is not a number in [{self.low}, {self.high}]") from None
        return x if math.isfinite(x) else repr(x)

    def load(self, data):
        if data in ("nan", "inf", "-inf"):
            return self._check(float(data))
        if type(data) is not float:
            raise ShapeError(f"expected a float, got {type(data).__name__} {_short(data)}")
        return self._check(data)

    def difference(self, a, b):
        if not self.compared or a == b or (type(a) is type(b) is float
                                           and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)):
            return None
        return f"{a!r} != {b!r}"


@dataclass(frozen=True)
class Int(Shape):
    """An int in ``[low, high]`` (both finite).

    Parameters
    ----------
    low : int
        The smallest allowed value.
    high : int
        The largest allowed value.
    """

    low: int
    high: int

    def __post_init__(self):
        _range(self.low, self.high, finite=True)

    def dump(self, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise ShapeError(f"expected an int, got {type(value).__name__}")
        return self.load(int(value))

    def load(self, data):
        if type(data) is not int or not self.low <= data <= self.high:
            raise ShapeError(f"expected an int in [{self.low}, {self.high}], got {_short(data)}")
        return data


class Str(Shape):
    """A string."""

    def dump(self, value):
        return self.load(value)

    def load(self, data):
        if not isinstance(data, str):
            raise ShapeError(f"expected a string, got {type(data).__name__}")
        return str(data)


def _json_text(value) -> str:
    try:
        return json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        raise ShapeError(f"{_short(value)} is not JSON") from None


@dataclass(frozen=True)
class Exactly(Shape):
    """This one value (e.g. the θ or run of the task, echoed in its result).

    Equal as JSON text, so types count: ``1``, ``1.0`` and ``True`` are three different values.

    Parameters
    ----------
    value : None, bool, int, float, str, list or dict
        The value.
    """

    value: object

    def __post_init__(self):
        _json_text(self.value)

    def dump(self, value):
        return self.load(value)

    def load(self, data):
        if _json_text(data) != _json_text(self.value):
            raise ShapeError(f"expected {self.value!r}, got {_short(data)}")
        return data


class Tuple(Shape):
    """A tuple of fixed length, one shape per item (stored as a JSON list).

    Parameters
    ----------
    *items : Shape
        The shape of each item.
    """

    def __init__(self, *items: Shape):
        self.items = items

    def _each(self, values, method: str) -> tuple:
        if len(values) != len(self.items):
            raise ShapeError(f"{len(values)} items, expected {len(self.items)}")
        return tuple(getattr(shape, method)(v) for shape, v in zip(self.items, values))

    def dump(self, value):
        if not isinstance(value, tuple):
            raise ShapeError(f"expected a tuple, got {type(value).__name__}")
        return list(self._each(value, "dump"))

    def load(self, data):
        if type(data) is not list:
            raise ShapeError(f"expected a list, got {type(data).__name__}")
        return self._each(data, "load")

    def difference(self, a, b):
        return _first(f"item {i}: {shape.difference(x, y)}" for i, (shape, x, y) in enumerate(zip(self.items, a, b))
                      if shape.difference(x, y))


@dataclass(frozen=True)
class List(Shape):
    """A list of items of one shape: ``length`` items, or from ``low`` to ``high`` if a pair.

    Parameters
    ----------
    item : Shape
        The shape of every item.
    length : int or tuple of (int, int)
        The number of items, or its range.
    """

    item: Shape
    length: int | tuple[int, int]

    def __post_init__(self):
        _range(*self._bounds(), finite=True)

    def _bounds(self) -> tuple[int, int]:
        return self.length if isinstance(self.length, tuple) else (self.length, self.length)

    def _each(self, values, method: str) -> list:
        if type(values) is not list:
            raise ShapeError(f"expected a list, got {type(values).__name__}")
        low, high = self._bounds()
        if not low <= len(values) <= high:
            want = low if low == high else f"{low} to {high}"
            raise ShapeError(f"a list of {len(values)} items, expected {want}")
        return [getattr(self.item, method)(v) for v in values]

    def dump(self, value):
        return self._each(value, "dump")

    def load(self, data):
        return self._each(data, "load")

    def difference(self, a, b):
        if len(a) != len(b):
            return f"{len(a)} items != {len(b)}"
        return _first(f"item {i}: {self.item.difference(x, y)}" for i, (x, y) in enumerate(zip(a, b))
                      if self.item.difference(x, y))


class Record(Shape):
    """A dict with exactly these string keys, in this order (a row of a table).

    Parameters
    ----------
    **fields : Shape
        The shape of each field, in order.
    """

    def __init__(self, **fields: Shape):
        self.fields = fields

    def _each(self, values, method: str) -> dict:
        if type(values) is not dict:
            raise ShapeError(f"expected a dict, got {type(values).__name__}")
        if list(values) != list(self.fields):
            raise ShapeError(f"fields {list(values)[:20]}, expected {list(self.fields)}")
        out = {}
        for name, shape in self.fields.items():
            try:
                out[name] = getattr(shape, method)(values[name])
            except ShapeError as exc:
                raise ShapeError(f"field {name!r}: {exc}") from None
        return out

    def dump(self, value):
        return self._each(value, "dump")

    def load(self, data):
        return self._each(data, "load")

    def difference(self, a, b):
        return _first(f"field {name!r}: {shape.difference(a[name], b[name])}" for name, shape in self.fields.items()
                      if shape.difference(a[name], b[name]))


def _first(differences) -> str | None:
    return next(iter(differences), None)


@dataclass(frozen=True)
class Table(Shape):
    """A pandas DataFrame built as ``DataFrame(rows).set_index(index)`` (stored as its rows).

    Parameters
    ----------
    index : str
        The name of the (string) index.
    columns : mapping of str to Shape
        The shape of each column, in order.
    length : int
        The number of rows.
    """

    index: str
    columns: Mapping[str, Shape]
    length: int

    def _rows(self) -> List:
        return List(Record(**{self.index: Str()}, **self.columns), length=self.length)

    def dump(self, value):
        import pandas as pd

        if type(value) is not pd.DataFrame or value.index.name != self.index:
            raise ShapeError(f"expected a table indexed by {self.index!r}, got {type(value).__name__}")
        return self._rows().dump(value.reset_index().to_dict("records"))

    def load(self, data):
        import pandas as pd

        return pd.DataFrame(self._rows().load(data), columns=[self.index, *self.columns]).set_index(self.index)

    def difference(self, a, b):
        return self._rows().difference(a, b)


class Plain(Shape):
    """The default of a task that declares no shape: JSON's own values only (None, bool, int,
    finite float, str, list, dict with string keys), which read back as they were written."""

    def dump(self, value):
        return self.load(value)

    def load(self, data, depth: int = 0):
        if depth > 50:
            raise ShapeError("nested deeper than 50 levels")
        if data is None or type(data) in (bool, int, str) or type(data) is float and math.isfinite(data):
            return data
        if type(data) is list:
            return [self.load(v, depth + 1) for v in data]
        if type(data) is dict and all(type(k) is str for k in data):
            return {k: self.load(v, depth + 1) for k, v in data.items()}
        raise ShapeError(f"{_short(data)} ({type(data).__name__}) is not plain JSON (declare the task's "
                         "result_shape)")


ShapeSpec = Shape | Callable[[dict], Shape]


def result_shape(shape: ShapeSpec):
    """Declare the shape of a task function's result (a decorator; the function is unchanged).

    Parameters
    ----------
    shape : Shape or callable
        The shape, or a function of the task's keyword arguments (a dict) returning it (e.g. a
        list of ``runs`` items, or a field that echoes the task's θ).

    Returns
    -------
    callable
        The decorator: it sets the function's ``result_shape`` attribute.

    Examples
    --------
    >>> @result_shape(lambda kw: List(Float(0, 1), length=kw["runs"]))
    ... def errors(runs):
    ...     return [0.5] * runs
    >>> shape_of(errors, {"runs": 2}).dump(errors(2))
    [0.5, 0.5]
    """
    if not isinstance(shape, Shape) and not callable(shape):
        raise TypeError(f"shape must be a Shape or a function of the task's arguments, got {type(shape).__name__}")

    def declare(func):
        func.result_shape = shape
        return func
    return declare


def shape_of(func, kwargs: Mapping) -> Shape:
    """The shape ``func`` declared for a call with ``kwargs`` (:class:`Plain` if none).

    Parameters
    ----------
    func : callable
        A task function.
    kwargs : mapping
        The task's keyword arguments.

    Returns
    -------
    Shape
        What its checkpoint must hold.
    """
    shape = getattr(func, "result_shape", None)
    if shape is None:
        return Plain()
    return shape if isinstance(shape, Shape) else shape(dict(kwargs))
