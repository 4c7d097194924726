"""The shape of a task's result: what a checkpoint must hold before it is used.

A checkpoint (:mod:`ppdm_edu.experiments.tasks`) is plain JSON checked against the shape its task
declares with :func:`result_shape`: field names, types, ranges and lengths. A file that does not
match (missing fields, a string where a number belongs, a value outside its range, a list of the
wrong length, the wrong θ or run) is not used: the task is recomputed. JSON never runs code, and
a shape builds only numbers, strings, lists, tuples, dicts and tables, so nothing loaded can.

A shape has two methods: ``dump(value)`` (the result as JSON data; :class:`ShapeError` if it does
not fit) and ``load(data)`` (the result back, of the same types; :class:`ShapeError` if ``data``
does not fit).

Examples
--------
>>> shape = Record(theta=Exactly(0.6), run=Int(0), accuracy=Float(0, 1))
>>> shape.load(shape.dump({"theta": 0.6, "run": 3, "accuracy": 0.8}))
{'theta': 0.6, 'run': 3, 'accuracy': 0.8}
>>> shape.load({"theta": 0.6, "run": 3})
Traceback (most recent call last):
    ...
ppdm_edu.experiments.shapes.ShapeError: fields ['theta', 'run'], expected ['theta', 'run', 'accuracy']
"""
from __future__ import annotations

import math
import numbers
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping

__all__ = ["ShapeError", "Shape", "Float", "Int", "Str", "Exactly", "Tuple", "List", "Record", "Table",
           "Plain", "result_shape", "shape_of"]


class ShapeError(ValueError):
    """A value or JSON data that does not have the declared shape."""


class Shape(ABC):
    """Base class: ``dump`` a result to JSON data, ``load`` it back; both check the shape."""

    @abstractmethod
    def dump(self, value):
        """The result as JSON data.

        Parameters
        ----------
        value : object
            A task's result.

        Returns
        -------
        object
            JSON data (None, bool, int, finite float, str, list, dict).

        Raises
        ------
        ShapeError
            If `value` does not have this shape.
        """

    @abstractmethod
    def load(self, data):
        """The result back from JSON data, of the types :meth:`dump` was given.

        Parameters
        ----------
        data : object
            JSON data, as read from a checkpoint.

        Returns
        -------
        object
            The result.

        Raises
        ------
        ShapeError
            If `data` does not have this shape.
        """


def _real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


class Float(Shape):
    """A float in ``[low, high]`` (NaN only if ``nan``); non-finite floats are stored as text.

    Parameters
    ----------
    low, high : float, default -inf, inf
        The allowed range (inclusive).
    nan : bool, default False
        Whether NaN is allowed.
    """

    _TEXT = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}

    def __init__(self, low: float = -math.inf, high: float = math.inf, nan: bool = False):
        self.low, self.high, self.nan = low, high, nan

    def _check(self, x: float) -> float:
        if math.isnan(x) and not self.nan or not math.isnan(x) and not self.low <= x <= self.high:
            raise ShapeError(f"{x!r} is not a number in [{self.low}, {self.high}]")
        return x

    def dump(self, value):
        if not _real(value):
            raise ShapeError(f"expected a float, got {type(value).__name__}")
        x = self._check(float(value))
        return x if math.isfinite(x) else repr(x)

    def load(self, data):
        if isinstance(data, str) and data in self._TEXT:
            return self._check(self._TEXT[data])
        if type(data) is not float:
            raise ShapeError(f"expected a float, got {type(data).__name__} {str(data)[:40]!r}")
        return self._check(data)


class Int(Shape):
    """An int in ``[low, high]``.

    Parameters
    ----------
    low, high : float, default -inf, inf
        The allowed range (inclusive).
    """

    def __init__(self, low: float = -math.inf, high: float = math.inf):
        self.low, self.high = low, high

    def dump(self, value):
        if not isinstance(value, numbers.Integral) or isinstance(value, bool):
            raise ShapeError(f"expected an int, got {type(value).__name__}")
        return self.load(int(value))

    def load(self, data):
        if type(data) is not int or not self.low <= data <= self.high:
            raise ShapeError(f"expected an int in [{self.low}, {self.high}], got {str(data)[:40]!r}")
        return data


class Str(Shape):
    """A string."""

    def dump(self, value):
        return self.load(str(value) if isinstance(value, str) else value)

    def load(self, data):
        if not isinstance(data, str):
            raise ShapeError(f"expected a string, got {type(data).__name__}")
        return data


class Exactly(Shape):
    """This one value (e.g. the θ or run of the task, echoed in its result).

    Parameters
    ----------
    value : object
        The value (same type and equal).
    """

    def __init__(self, value):
        self.value = value

    def dump(self, value):
        return self.load(value)

    def load(self, data):
        if type(data) is not type(self.value) or data != self.value:
            raise ShapeError(f"expected {self.value!r}, got {str(data)[:40]!r}")
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

    def _pairs(self, values):
        if len(values) != len(self.items):
            raise ShapeError(f"{len(values)} items, expected {len(self.items)}")
        return zip(self.items, values)

    def dump(self, value):
        if not isinstance(value, tuple):
            raise ShapeError(f"expected a tuple, got {type(value).__name__}")
        return [s.dump(v) for s, v in self._pairs(value)]

    def load(self, data):
        if not isinstance(data, list):
            raise ShapeError(f"expected a list, got {type(data).__name__}")
        return tuple(s.load(v) for s, v in self._pairs(data))


class List(Shape):
    """A list of items of one shape; ``length`` items if given, else at least ``min_length``.

    Parameters
    ----------
    item : Shape
        The shape of every item.
    length : int, optional
        The exact number of items.
    min_length : int, default 0
        The least number of items when `length` is not given.
    """

    def __init__(self, item: Shape, length: int | None = None, min_length: int = 0):
        self.item, self.length, self.min_length = item, length, min_length

    def _each(self, values, method):
        if not isinstance(values, list):
            raise ShapeError(f"expected a list, got {type(values).__name__}")
        n = len(values)
        if (n != self.length) if self.length is not None else n < self.min_length:
            want = self.length if self.length is not None else f"at least {self.min_length}"
            raise ShapeError(f"a list of {n} items, expected {want}")
        return [method(v) for v in values]

    def dump(self, value):
        return self._each(value, self.item.dump)

    def load(self, data):
        return self._each(data, self.item.load)


class Record(Shape):
    """A dict with exactly these string keys, in this order (a row of a table).

    Parameters
    ----------
    **fields : Shape
        The shape of each field, in order.
    """

    def __init__(self, **fields: Shape):
        self.fields = fields

    def _each(self, values, method):
        if not isinstance(values, dict):
            raise ShapeError(f"expected a dict, got {type(values).__name__}")
        if list(values) != list(self.fields):
            raise ShapeError(f"fields {list(values)}, expected {list(self.fields)}")
        out = {}
        for name, shape in self.fields.items():
            try:
                out[name] = method(shape, values[name])
            except ShapeError as exc:
                raise ShapeError(f"field {name!r}: {exc}") from None
        return out

    def dump(self, value):
        return self._each(value, lambda shape, v: shape.dump(v))

    def load(self, data):
        return self._each(data, lambda shape, v: shape.load(v))


class Table(Shape):
    """A pandas DataFrame built as ``DataFrame(rows).set_index(index)`` (stored as rows).

    Parameters
    ----------
    index : str
        The name of the (string) index.
    columns : mapping of str to Shape
        The shape of each column, in order.
    length : int
        The number of rows.
    """

    def __init__(self, index: str, columns: Mapping[str, Shape], length: int):
        self.index, self.length = index, length
        self.record = Record(**{index: Str()}, **columns)

    def dump(self, value):
        import pandas as pd

        if type(value) is not pd.DataFrame or value.index.name != self.index:
            raise ShapeError(f"expected a table indexed by {self.index!r}, got {type(value).__name__}")
        rows = value.reset_index().to_dict("records")
        return List(self.record, self.length).dump(rows)

    def load(self, data):
        import pandas as pd

        rows = List(self.record, self.length).load(data)
        return pd.DataFrame(rows, columns=list(self.record.fields)).set_index(self.index)


class Plain(Shape):
    """The default of a task that declares no shape: JSON's own values only (None, bool, int,
    finite float, str, list, dict with string keys), which read back as they were written."""

    def dump(self, value):
        return self.load(value)

    def load(self, data, depth: int = 0):
        if depth > 50:
            raise ShapeError("nested deeper than 50 levels")
        if data is None or type(data) in (bool, int, str):
            return data
        if type(data) is float:
            if not math.isfinite(data):
                raise ShapeError(f"{data!r} is not a JSON number")
            return data
        if type(data) is list:
            return [self.load(v, depth + 1) for v in data]
        if type(data) is dict and all(type(k) is str for k in data):
            return {k: self.load(v, depth + 1) for k, v in data.items()}
        raise ShapeError(f"a {type(data).__name__} is not plain JSON (declare the task's result_shape)")


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
    >>> @result_shape(lambda kw: List(Float(), length=kw["runs"]))
    ... def errors(runs):
    ...     return [0.5] * runs
    >>> shape_of(errors, {"runs": 2}).dump(errors(2))
    [0.5, 0.5]
    """
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
