"""Input checks shared by every module.

Errors are raised at the boundary, before any numpy work, with a message that says what was
wrong and what is allowed (the project's standard: never a NaN plot or a traceback deep in numpy).
"""
from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "check_random_state",
    "check_positive",
    "check_probability",
    "check_finite_1d",
    "check_finite_2d",
    "check_binary",
    "check_class_labels",
    "spawn_rngs",
    "check_size",
    "MAX_ELEMENTS",
]

#: The most values one call may allocate (10^9 float64 values = 8 GB, a third of this course's
#: 24 GB reference machine): a larger request is refused with a ValueError that names the
#: argument, instead of numpy's MemoryError "Unable to allocate 7.28 TiB".
MAX_ELEMENTS = 1_000_000_000


def check_random_state(rng) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` from ``None``, an int seed or a Generator.

    ``None`` gives fresh entropy; an int gives the same stream every time; a Generator is used
    as it is (its state advances).
    """
    if rng is None or isinstance(rng, (numbers.Integral, np.random.SeedSequence)):
        if isinstance(rng, numbers.Integral) and int(rng) < 0:
            raise ValueError(f"seed must be a non-negative integer, got {rng}")
        return np.random.default_rng(rng)
    if isinstance(rng, np.random.Generator):
        return rng
    raise TypeError(
        "rng must be None, a non-negative int seed or a numpy.random.Generator, "
        f"got {type(rng).__name__}"
    )


def spawn_rngs(rng, n: int = 2) -> list[np.random.Generator]:
    """``n`` independent random streams from one seed: data, noise, ... never share a stream.

    A noise drawn from the same seed as the data is a deterministic function of the data (the
    bug that made notebook 01's "perturbed" salaries a stretched copy of the originals). Spawned
    children of one :class:`numpy.random.SeedSequence` are independent by construction, and the
    same seed still gives the same numbers.

    Parameters
    ----------
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The seed (or generator, whose ``spawn`` is used; its state advances).
    n : int, default 2
        How many streams.

    Returns
    -------
    list of numpy.random.Generator
        ``n`` independent generators (e.g. ``data_rng, noise_rng = spawn_rngs(seed)``).

    Examples
    --------
    >>> data_rng, noise_rng = spawn_rngs(0)
    >>> x, r = data_rng.random(5), noise_rng.random(5)
    >>> bool((x != r).all())
    True
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 1 <= n <= 1_000_000:
        raise ValueError(f"n must be an integer from 1 to 1,000,000, got {n!r}")
    if isinstance(rng, np.random.Generator):
        return list(rng.spawn(int(n)))
    if isinstance(rng, np.random.SeedSequence):
        seq = rng
    else:
        check_random_state(rng)  # same checks and messages as everywhere (type, negative seed)
        seq = np.random.SeedSequence(None if rng is None else int(rng))
    return [np.random.default_rng(child) for child in seq.spawn(int(n))]


def check_positive(value, name: str, *, allow_zero: bool = False) -> float:
    """A finite real number > 0 (or >= 0 with ``allow_zero``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be {bound}, got {value}")
    return value


def check_probability(value, name: str, *, open_interval: bool = False) -> float:
    """A number in [0, 1] (or in (0, 1) with ``open_interval``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if open_interval:
        if not 0.0 < value < 1.0:
            raise ValueError(f"{name} must be strictly between 0 and 1, got {value}")
    elif not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be between 0 and 1, got {value}")
    return value


def check_finite_1d(x, name: str = "x", *, allow_empty: bool = False) -> np.ndarray:
    """A 1-D float array with no NaN or infinity."""
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be numeric: {err}") from None
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty: at least one value is needed")
    bad = ~np.isfinite(arr)
    if bad.any():
        raise ValueError(
            f"{name} contains {int(bad.sum())} NaN or infinite value(s) "
            f"(first at position {int(np.flatnonzero(bad)[0])}); drop or impute them first"
        )
    return arr


def check_finite_2d(X, name: str = "X") -> np.ndarray:
    """A 2-D float array (n_samples, n_features) with no NaN or infinity."""
    try:
        arr = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be numeric: {err}") from None
    if arr.ndim == 1:
        raise ValueError(
            f"{name} must be two-dimensional (n_samples, n_features), got a 1-D array of "
            f"length {arr.shape[0]}; use X.reshape(-1, 1) for a single feature"
        )
    if arr.ndim != 2:
        raise ValueError(f"{name} must be two-dimensional, got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape})")
    bad = ~np.isfinite(arr)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise ValueError(
            f"{name} contains {int(bad.sum())} NaN or infinite value(s) "
            f"(first at row {row}, column {col}); drop or impute them first"
        )
    return arr


def check_binary(X, name: str = "X") -> np.ndarray:
    """An array of 0/1 values (bool or integer), returned as uint8; NaN or other values raise."""
    arr = np.asarray(X)
    if arr.size == 0:
        raise ValueError(f"{name} is empty: at least one record is needed")
    if arr.dtype == bool:
        return arr.astype(np.uint8)
    try:
        num = arr.astype(float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must hold only 0/1 values, got dtype {arr.dtype}") from None
    ok = (num == 0) | (num == 1)
    if not ok.all():
        bad = num[~ok].ravel()[0]
        raise ValueError(
            f"{name} must hold only 0/1 values (binarize first); found {bad!r}"
        )
    return num.astype(np.uint8)


def check_class_labels(y, name: str = "y") -> None:
    """Refuse a continuous target: the estimators of this package are classifiers.

    Parameters
    ----------
    y : array_like
        Class labels, one per record.
    name : str, default "y"
        The argument's name, for the message.

    Raises
    ------
    ValueError
        When ``y`` looks continuous (float values that are not whole numbers): scikit-learn's
        "Unknown label type" message, with the argument named.

    Examples
    --------
    >>> check_class_labels([0, 1, 1])
    >>> check_class_labels([0.5, 1.7])
    Traceback (most recent call last):
    ...
    ValueError: y must hold class labels (a classifier's target), got continuous values ...
    """
    from sklearn.utils.multiclass import type_of_target

    kind = type_of_target(y, input_name=name)
    if kind not in ("binary", "multiclass"):
        raise ValueError(
            f"{name} must hold class labels (a classifier's target), got {kind} values "
            f"(Unknown label type: {kind!r}); bin a continuous target first")


def check_size(size, name: str = "size", *, per_item: int = 1) -> None:
    """Refuse a request for more than :data:`MAX_ELEMENTS` values before numpy allocates it.

    Parameters
    ----------
    size : int or tuple of int
        The shape (or number of values) about to be allocated.
    name : str, default "size"
        The argument's name, for the message.
    per_item : int, default 1
        Values allocated per item (e.g. the columns of a generated record).

    Raises
    ------
    ValueError
        When the request is negative or above the limit.

    Examples
    --------
    >>> check_size((1000, 3))
    >>> check_size(10**12, "n")
    Traceback (most recent call last):
    ...
    ValueError: n = 1000000000000 asks for 1,000,000,000,000 values; at most 1,000,000,000 ...
    """
    dims = size if isinstance(size, tuple) else (size,)
    total = per_item
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, numbers.Integral) or d < 0:
            raise ValueError(f"{name} must be a non-negative integer or a tuple of them, got {size!r}")
        total *= int(d)
    if total > MAX_ELEMENTS:
        raise ValueError(f"{name} = {size!r} asks for {total:,} values; at most {MAX_ELEMENTS:,} "
                         "are allowed in one call (about 8 GB of float64): draw in batches")
