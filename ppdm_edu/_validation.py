"""Generic input checks shared by every module (numbers, arrays, tables, estimator data).

A private module: the package's modules import its checks, a user meets them through the errors
the public functions raise (each names the argument, its value and what is allowed).

Random-state helpers live in :mod:`ppdm_edu.random_state`; domain checks live with their concept
(``check_theta`` in :mod:`ppdm_edu.randomized_response`, ``check_noise`` and
``check_noise_mapping`` in :mod:`ppdm_edu.randomization`).

Errors are raised at the boundary, before any numpy work, with a message that says what was
wrong and what is allowed (the project's standard: never a NaN plot or a traceback deep in numpy).
"""
from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported by the callers that need a table
    import pandas as pd

#: The most values one call may allocate (10^9 float64 values = 8 GB, a third of this course's
#: 24 GB reference machine): a larger request is refused with a ValueError that names the
#: argument, instead of numpy's MemoryError "Unable to allocate 7.28 TiB".
MAX_ELEMENTS = 1_000_000_000


def check_positive(value, name: str, *, allow_zero: bool = False) -> float:
    """A finite real number > 0 (or >= 0 with ``allow_zero``).

    Parameters
    ----------
    value : float
        The number to check (a bool is refused).
    name : str
        Argument name used in the error message.
    allow_zero : bool, default False
        Accept 0 as well.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number (or is a bool).
    ValueError
        If ``value`` is not finite, negative, or 0 without ``allow_zero``.

    Examples
    --------
    >>> check_positive(2, "width")
    2.0
    >>> check_positive(0.0, "width")
    Traceback (most recent call last):
    ...
    ValueError: width must be > 0, got 0.0
    """
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
    """A number in [0, 1] (or in (0, 1) with ``open_interval``).

    Parameters
    ----------
    value : float
        The number to check (a bool is refused).
    name : str
        Argument name used in the error message.
    open_interval : bool, default False
        Require ``0 < value < 1`` instead of ``0 <= value <= 1``.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number (or is a bool).
    ValueError
        If ``value`` is outside the interval (NaN included).

    Examples
    --------
    >>> check_probability(1, "confidence")
    1.0
    >>> check_probability(1, "confidence", open_interval=True)
    Traceback (most recent call last):
    ...
    ValueError: confidence must be strictly between 0 and 1, got 1.0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if open_interval:
        if not 0.0 < value < 1.0:
            raise ValueError(f"{name} must be strictly between 0 and 1, got {value}")
    elif not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be between 0 and 1, got {value}")
    return value


def check_real(value, name: str) -> float:
    """One finite real number (not a bool, a string or an array).

    Parameters
    ----------
    value : float
        The number.
    name : str
        The argument's name, for the message.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    TypeError
        If ``value`` is not one real number (a bool, text or an array is refused).
    ValueError
        If ``value`` is NaN or infinite.

    Examples
    --------
    >>> check_real(2, "x1")
    2.0
    >>> check_real([1.0], "x1")
    Traceback (most recent call last):
    ...
    TypeError: x1 must be one real number, got [1.0]
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be one real number, got {value!r}"[:200])
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def check_bool(value, name: str) -> bool:
    """True or False (numpy bools too); ``"yes"``, 2 or None are refused.

    Parameters
    ----------
    value : bool
        The flag.
    name : str
        The argument's name, for the message.

    Returns
    -------
    bool
        ``value`` as a Python bool.

    Raises
    ------
    TypeError
        If ``value`` is not a Python or numpy bool.

    Examples
    --------
    >>> check_bool(np.True_, "balanced")
    True
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _reject_text(x, name: str) -> None:
    """Text that happens to parse as numbers ("0.7") is refused, as everywhere in the package."""
    try:
        kind = np.asarray(x).dtype.kind
    except (TypeError, ValueError):
        return  # ragged input: the float conversion that follows reports it
    if isinstance(x, (str, bytes)) or kind in "US":
        raise TypeError(f"{name} must be numeric, got text {str(x)[:60]!r}")


def _float_array(x, name: str) -> np.ndarray:
    """``x`` as a float64 array: text is refused (TypeError), anything else not numeric is a ValueError."""
    _reject_text(x, name)
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be numeric: {err}") from None


def check_finite_array(x, name: str = "x", *, allow_empty: bool = False) -> np.ndarray:
    """A float array of any shape with no NaN or infinity (and, by default, not empty).

    Parameters
    ----------
    x : array_like of float
        The values.
    name : str, default "x"
        The argument's name, for the message.
    allow_empty : bool, default False
        Accept an empty array.

    Returns
    -------
    numpy.ndarray
        ``x`` as float64, same shape.

    Raises
    ------
    TypeError
        If ``x`` is text.
    ValueError
        If ``x`` is not numeric, empty (unless ``allow_empty``) or holds NaN or infinity.

    Examples
    --------
    >>> check_finite_array([[1, 2], [3, 4]]).dtype
    dtype('float64')
    >>> check_finite_array([1.0, float("nan")], "w")
    Traceback (most recent call last):
    ...
    ValueError: w contains 1 NaN or infinite value(s) (first at position 1); drop or impute them first
    """
    arr = _float_array(x, name)
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty: at least one value is needed")
    bad = ~np.isfinite(arr)
    if bad.any():
        raise ValueError(
            f"{name} contains {int(bad.sum())} NaN or infinite value(s) "
            f"(first at position {int(np.flatnonzero(bad.ravel())[0])}); drop or impute them first"
        )
    return arr


def check_finite_1d(x, name: str = "x", *, allow_empty: bool = False) -> np.ndarray:
    """A 1-D float array with no NaN or infinity (a scalar becomes one value).

    Parameters
    ----------
    x : float or array-like of float
        The values; a scalar becomes an array of length 1.
    name : str, default "x"
        Argument name used in the error message.
    allow_empty : bool, default False
        Accept an empty array.

    Returns
    -------
    ndarray of float, shape (n,)
        ``x`` as a float array.

    Raises
    ------
    TypeError
        If ``x`` is text.
    ValueError
        If ``x`` is not numeric, not 1-d, empty (unless ``allow_empty``) or holds NaN or
        infinity.

    Examples
    --------
    >>> check_finite_1d([1, 2]).tolist()
    [1.0, 2.0]
    >>> check_finite_1d(3.0).tolist()
    [3.0]
    """
    arr = check_finite_array(x, name, allow_empty=allow_empty)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    return arr


def finite_1d_with_range(x, name: str = "x") -> tuple[np.ndarray, float, float]:
    """:func:`check_finite_1d` (not empty) and the values' minimum and maximum.

    The same array and the same errors, but the finiteness is read from the two extremes (NaN
    shows in both, an infinity in one): two reductions that the caller wanted anyway instead of
    a mask of the size of the data.

    Examples
    --------
    >>> arr, lo, hi = finite_1d_with_range([3, 1, 2], "w")
    >>> arr.tolist(), lo, hi
    ([3.0, 1.0, 2.0], 1.0, 3.0)
    """
    arr = _float_array(x, name)
    if arr.size == 0:
        return check_finite_1d(arr, name), math.nan, math.nan  # raises: empty
    lo, hi = float(arr.min()), float(arr.max())
    if not (math.isfinite(lo) and math.isfinite(hi)):
        check_finite_1d(arr, name)  # raises, with the count and the first position
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    return arr, lo, hi


def check_finite_2d(X, name: str = "X") -> np.ndarray:
    """A 2-D float array (n_samples, n_features) with no NaN or infinity.

    Parameters
    ----------
    X : array-like of float, shape (n_samples, n_features)
        The values.
    name : str, default "X"
        Argument name used in the error message.

    Returns
    -------
    ndarray of float, shape (n_samples, n_features)
        ``X`` as a float array.

    Raises
    ------
    TypeError
        If ``X`` is text.
    ValueError
        If ``X`` is not numeric, not 2-d (a 1-d array gets a hint to reshape), empty, or holds
        NaN or infinity.

    Examples
    --------
    >>> check_finite_2d([[1, 2], [3, 4]]).shape
    (2, 2)
    """
    arr = _float_array(X, name)
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
    """An array of 0/1 values (bool or integer), returned as uint8; NaN or other values raise.

    Parameters
    ----------
    X : array-like of 0/1 or bool
        The values, any shape.
    name : str, default "X"
        Argument name used in the error message.

    Returns
    -------
    ndarray of uint8
        ``X`` as 0/1, same shape.

    Raises
    ------
    ValueError
        If ``X`` is empty, not numeric, or holds a value other than 0 and 1 (NaN included).

    Examples
    --------
    >>> check_binary([True, False, True]).tolist()
    [1, 0, 1]
    """
    arr = np.asarray(X)
    if arr.size == 0:
        raise ValueError(f"{name} is empty: at least one record is needed")
    if arr.dtype == bool:
        return arr.astype(np.uint8)
    try:
        num = arr.astype(float)
    except (TypeError, ValueError):
        import pandas as pd

        missing = pd.isna(arr) if arr.dtype == object else np.zeros(arr.shape, dtype=bool)
        if missing.any():  # e.g. a pandas "boolean" column with <NA>
            raise ValueError(f"{name} has {int(missing.sum())} missing value(s) (NA/None) of "
                             f"{arr.size}: it must hold only 0/1 values; fill or drop the missing "
                             "records first") from None
        raise ValueError(f"{name} must hold only 0/1 values, got dtype {arr.dtype}") from None
    ok = (num == 0) | (num == 1)
    if not ok.all():
        bad = num[~ok].ravel()[0]
        raise ValueError(
            f"{name} must hold only 0/1 values (binarize first); found {bad!r}"
        )
    return num.astype(np.uint8)


# ---------------------------------------------------------------------------------------------
# integers, bounds, theta, distributions
# ---------------------------------------------------------------------------------------------
def check_integer(value, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer in ``[minimum, maximum]`` (either end may be open-ended with ``None``).

    Floats with no fractional part (``3.0``) are accepted; bools, strings and ``2.5`` are not.

    Parameters
    ----------
    value : int
        The value to check.
    name : str
        Argument name used in the error message.
    minimum, maximum : int or None, optional
        Inclusive bounds; ``None`` means unbounded.

    Returns
    -------
    int
        ``value`` as a Python int.

    Raises
    ------
    TypeError
        If ``value`` is not a number (bool, str, None, ...).
    ValueError
        If ``value`` is a number but not a whole one (2.5, NaN, inf) or is outside
        ``[minimum, maximum]``.

    Examples
    --------
    >>> check_integer(3.0, "runs", minimum=1)
    3
    >>> check_integer(0, "runs", minimum=1)
    Traceback (most recent call last):
    ...
    ValueError: runs must be an integer >= 1, got 0
    """
    allowed = _integer_range(minimum, maximum)
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer{allowed}, got the bool {value!r}")
    if isinstance(value, numbers.Integral):
        out = int(value)
    elif not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be an integer{allowed}, got {value!r}")
    elif math.isfinite(float(value)) and float(value).is_integer():
        out = int(float(value))
    else:  # a number, but not a whole one (2.5, NaN, inf): a wrong value, not a wrong type
        raise ValueError(f"{name} must be an integer{allowed}, got {value!r}")
    if (minimum is not None and out < minimum) or (maximum is not None and out > maximum):
        raise ValueError(f"{name} must be an integer{allowed}, got {out}")
    return out


def _integer_range(minimum, maximum) -> str:
    if minimum is not None and maximum is not None:
        return f" between {minimum} and {maximum}"
    if minimum is not None:
        return f" >= {minimum}"
    if maximum is not None:
        return f" <= {maximum}"
    return ""


def check_bounds(bounds, name: str = "bounds") -> tuple[float, float]:
    """A pair ``(low, high)`` of finite numbers with ``low < high``.

    Parameters
    ----------
    bounds : tuple of float
        The pair to check.
    name : str, default "bounds"
        Argument name used in the error message.

    Returns
    -------
    tuple of float
        ``(low, high)``.

    Raises
    ------
    TypeError
        If ``bounds`` is text.
    ValueError
        If it is not two numbers, they are not finite, or ``low >= high``.

    Examples
    --------
    >>> check_bounds((0, 10))
    (0.0, 10.0)
    """
    if isinstance(bounds, (str, bytes)):
        raise TypeError(f"{name} must be a pair (low, high) of numbers, got {bounds!r}")
    try:
        lo, hi = (float(b) for b in bounds)
    except (TypeError, ValueError):  # not a pair (wrong length, a scalar, non-numbers)
        raise ValueError(f"{name} must be a pair (low, high) of numbers, got {bounds!r}") from None
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError(f"{name} must be finite, got ({lo}, {hi})")
    if hi <= lo:
        raise ValueError(f"{name} must satisfy low < high, got ({lo}, {hi})")
    return lo, hi




def check_probabilities(p, name: str = "p", *, atol: float = 1e-6) -> np.ndarray:
    """A probability distribution: a 1-D array of finite values >= 0 that sum to 1 (within atol).

    Parameters
    ----------
    p : array-like of float
        The distribution.
    name : str, default "p"
        Argument name used in the message.
    atol : float, default 1e-6
        Allowed deviation of the sum from 1.

    Returns
    -------
    numpy.ndarray
        ``p`` as a float array.

    Raises
    ------
    TypeError
        If ``p`` is text.
    ValueError
        If ``p`` is not a finite 1-d array, has a negative entry, or does not sum to 1 within
        ``atol``.

    Examples
    --------
    >>> check_probabilities([0.25, 0.75]).tolist()
    [0.25, 0.75]
    """
    arr = check_finite_1d(p, name)
    if np.any(arr < 0):
        raise ValueError(f"{name} must be non-negative probabilities, found {float(arr[arr < 0][0])}")
    total = float(arr.sum())
    if abs(total - 1.0) > atol:
        raise ValueError(f"{name} must sum to 1 (a probability distribution), sums to {total:g}")
    return arr


def check_fit_data(estimator, X, y, *, input_name: str = "X", binary: bool = False):
    """Check training data as scikit-learn does and record ``n_features_in_``/``feature_names_in_``.

    The one place where the package's estimators read ``fit(X, y)``: scikit-learn's
    ``validate_data`` (array, DataFrame or list; sparse, object, 1-D, empty, NaN/inf and a
    missing ``y`` refused with scikit-learn's messages; a column-vector ``y`` raveled with a
    warning), then the class labels (:func:`check_class_labels`).

    Parameters
    ----------
    estimator : sklearn.base.BaseEstimator
        The estimator being fitted; gets ``n_features_in_`` and, when ``X`` has string column
        names, ``feature_names_in_``.
    X : array_like or pandas.DataFrame, shape (n_samples, n_features)
        Training records.
    y : array_like, shape (n_samples,)
        Class labels.
    input_name : str, default "X"
        The argument's name in messages (PPDTC4.5 calls its perturbed records ``W``).
    binary : bool, default False
        Require 0/1 attributes (ID3 and RR-ID3 take binary attributes only).

    Returns
    -------
    X : numpy.ndarray
        float64, or uint8 when ``binary``.
    classes : numpy.ndarray
        The sorted distinct labels (``classes_``).
    codes : numpy.ndarray of int64
        Each record's label as an index into ``classes``.

    Raises
    ------
    ValueError
        If ``X`` is empty, not numeric or not finite, ``y`` does not have one finite label per
        row or has missing labels, ``y`` is continuous, or (with ``binary``) ``X`` is not 0/1.

    Examples
    --------
    >>> from sklearn.base import BaseEstimator
    >>> est = BaseEstimator()
    >>> X, classes, codes = check_fit_data(est, [[0.0, 1.0], [2.0, 3.0]], ["no", "yes"])
    >>> est.n_features_in_, classes.tolist(), codes.tolist()
    (2, ['no', 'yes'], [0, 1])
    """
    from sklearn.utils.validation import (
        column_or_1d,
        validate_data,
    )

    # names and column count first (scikit-learn's own checks, messages and y=None refusal),
    # then the values under the argument's own name
    try:
        validate_data(estimator, X, y, skip_check_array=True)
    except IndexError:  # scikit-learn counting the columns of an empty list
        raise ValueError(f"{input_name} is empty: fit needs at least one record") from None
    X = _numeric_array(X, input_name, estimator)
    y = column_or_1d(y, warn=True)
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"y must have one label per row of {input_name} ({X.shape[0]}), "
                         f"got {y.shape[0]} labels")
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        raise ValueError("y contains NaN or infinite labels")
    if y.dtype == object and any(v is None or (isinstance(v, float) and math.isnan(v)) for v in y):
        raise ValueError("y contains missing labels (None or NaN): drop those records first")
    check_class_labels(y)
    classes, codes = np.unique(y, return_inverse=True)
    if binary:
        X = check_binary(X, "X")
    return X, classes, codes.astype(np.int64)


def check_predict_data(estimator, X, *, input_name: str = "X", binary: bool = False) -> np.ndarray:
    """Check the records given to a fitted estimator (predict, predict_proba, apply, score).

    Refuses an unfitted estimator (scikit-learn's ``NotFittedError``), a different number of
    columns, and a DataFrame whose column names differ from (or are ordered differently than)
    the ones seen in ``fit``; then checks the values as :func:`check_fit_data` does.

    Parameters
    ----------
    estimator : sklearn.base.BaseEstimator
        A fitted estimator.
    X : array_like or pandas.DataFrame, shape (n_samples, n_features_in_)
        Records to classify.
    input_name : str, default "X"
        The argument's name in messages (PPDTC4.5 calls its perturbed records ``W``).
    binary : bool, default False
        Require 0/1 attributes.

    Returns
    -------
    numpy.ndarray
        float64, or uint8 when ``binary``.

    Raises
    ------
    sklearn.exceptions.NotFittedError
        If ``estimator`` has not been fitted.
    ValueError
        If ``X`` is invalid, has the wrong number of columns or other feature names than in
        ``fit``, or (with ``binary``) is not 0/1.

    Examples
    --------
    >>> from ppdm_edu.trees import DecisionTree
    >>> check_predict_data(DecisionTree(), [[0.0, 1.0]])
    Traceback (most recent call last):
    ...
    sklearn.exceptions.NotFittedError: This DecisionTree instance is not fitted yet. ...
    """
    from sklearn.utils.validation import check_is_fitted, validate_data

    check_is_fitted(estimator)
    arr = _numeric_array(X, input_name, estimator)
    # column names (a DataFrame's) and count, with scikit-learn's messages
    validate_data(estimator, X if hasattr(X, "columns") else arr, reset=False, skip_check_array=True)
    X = arr
    return check_binary(X, input_name) if binary else X


def _numeric_array(X, input_name: str, estimator) -> np.ndarray:
    """scikit-learn's check_array to float64, with text columns named in the message."""
    from sklearn.utils.validation import check_array

    if hasattr(X, "columns") and hasattr(X, "dtypes"):
        import pandas as pd

        text = [c for c in X.columns if not (pd.api.types.is_numeric_dtype(X[c])
                                             or pd.api.types.is_bool_dtype(X[c]))]
        if text:
            raise ValueError(f"{input_name} columns must be numeric (encode categories as integer "
                             f"codes first); non-numeric: {text}")
    try:
        return check_array(X, dtype=np.float64, ensure_all_finite=True, input_name=input_name,
                           estimator=estimator)
    except ValueError as err:
        if "could not convert" in str(err):
            raise ValueError(f"{input_name} must be numeric (encode categories as integer codes "
                             f"first): {err}") from err
        if "Expected 2D array" in str(err):
            raise ValueError(f"{input_name}: {err}") from err
        raise


def feature_names(estimator) -> list[str] | None:
    """The column names seen in ``fit`` (``feature_names_in_``) as a list, or None.

    Parameters
    ----------
    estimator : sklearn.base.BaseEstimator
        A fitted estimator.

    Returns
    -------
    list of str or None
        None when ``fit`` got an array or a DataFrame with non-string column labels.

    Examples
    --------
    >>> import pandas as pd
    >>> from ppdm_edu.trees import DecisionTree
    >>> tree = DecisionTree().fit(pd.DataFrame({"age": [20, 60], "salary": [1, 2]}), [0, 1])
    >>> feature_names(tree)
    ['age', 'salary']
    """
    names = getattr(estimator, "feature_names_in_", None)
    return None if names is None else [str(c) for c in names]


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


def check_frame(frame, name: str, columns) -> pd.DataFrame:
    """A non-empty table (DataFrame, or records a DataFrame accepts) holding ``columns``.

    Parameters
    ----------
    frame : pandas.DataFrame, list of dict or dict of lists
        The table, e.g. the records of an experiment's runs.
    name : str
        The argument's name, for the message.
    columns : sequence of str
        The columns the caller needs.

    Returns
    -------
    pandas.DataFrame
        ``frame`` itself if it is a DataFrame, else ``pandas.DataFrame(frame)``.

    Raises
    ------
    TypeError
        If ``frame`` cannot be made a table.
    ValueError
        If it has no rows or lacks one of ``columns``.

    Examples
    --------
    >>> check_frame([{"a": 1, "b": 2}], "records", ["a", "b"]).shape
    (1, 2)
    >>> check_frame([], "records", ["a"])
    Traceback (most recent call last):
    ...
    ValueError: records is empty: at least one row with columns ['a'] is needed
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        if isinstance(frame, (str, bytes)) or frame is None:
            raise TypeError(f"{name} must be a pandas.DataFrame or a list of records, got {frame!r}"[:200])
        try:
            frame = pd.DataFrame(frame)
        except (TypeError, ValueError) as err:
            raise TypeError(f"{name} must be a pandas.DataFrame or a list of records: {err}") from None
    columns = list(columns)
    if frame.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one row with columns {columns} is needed")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} lacks the column(s) {missing}; it has {list(frame.columns)[:20]}")
    return frame


def check_class_counts(counts, name: str = "counts", *, one_dimensional: bool = False,
                       positive_sum: bool = False) -> np.ndarray:
    """Class counts (or weights) of a set of records: finite numbers >= 0, one per class.

    The split criteria of the trees (gini of AS2000 Section 4.1, C4.5's entropy and gain ratio,
    the MDL leaf cost) take such counts; a NaN or a negative count would give a number that
    means nothing instead of an error.

    Parameters
    ----------
    counts : array-like of float
        The counts, classes along the last axis.
    name : str, default "counts"
        The argument's name, for the message.
    one_dimensional : bool, default False
        Require exactly one set of counts, shape ``(k,)`` and non-empty; otherwise any leading
        axes are allowed, shape ``(..., k)`` with ``k >= 1``.
    positive_sum : bool, default False
        Require at least one record (a sum > 0).

    Returns
    -------
    numpy.ndarray
        The counts as a float array.

    Raises
    ------
    TypeError
        If ``counts`` holds text.
    ValueError
        If it holds NaN/inf or a negative count, has the wrong shape, or (with
        ``positive_sum``) sums to 0.

    Examples
    --------
    >>> check_class_counts([3, 1]).tolist()
    [3.0, 1.0]
    >>> check_class_counts([-1, 3])
    Traceback (most recent call last):
    ...
    ValueError: counts must be class counts >= 0, got -1.0
    """
    c = check_finite_array(counts, name, allow_empty=not one_dimensional)
    if one_dimensional and c.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of class counts, got shape {c.shape}")
    if not one_dimensional and (c.ndim == 0 or c.shape[-1] < 1):
        raise ValueError(f"{name} must hold one count per class (last axis), got shape {c.shape}")
    if (c < 0).any():
        raise ValueError(f"{name} must be class counts >= 0, got {float(c.min())!r}")
    if positive_sum and c.sum() <= 0:
        raise ValueError(f"{name} must have a positive sum (at least one record), got {c.tolist()!r}")
    return c


def check_real_values(x, name: str = "x") -> np.ndarray:
    """``x`` as a finite float array, refusing what ``np.asarray(x, float)`` would silently coerce.

    A masked array would lose its mask (the masked values perturbed as data), complex input its
    imaginary part, datetimes would become nanoseconds and an object array of strings numbers:
    each is refused with what to do instead.
    """
    if isinstance(x, np.ma.MaskedArray):
        raise TypeError(f"{name} is a masked array: its mask would be ignored and the masked values "
                        f"perturbed as data; pass {name}.compressed() or fill the masked values first")
    # text ("U"/"S") is left to check_finite_array, whose message every module shares
    kinds = ({np.asarray(x[c]).dtype.kind for c in x.columns} if hasattr(x, "columns")
             else {np.asarray(x).dtype.kind} if not isinstance(x, (str, bytes)) else set())
    for kind, what in (("c", "complex numbers (the imaginary part would be dropped)"),
                       ("mM", "datetimes or durations (they would become nanoseconds)"),
                       ("O", "Python objects (e.g. strings or None), not numbers")):
        if kinds & set(kind):
            raise TypeError(f"{name} must hold real numbers, got {what}; convert it to float first")
    return check_finite_array(x, name)
