"""The binarized Adult data of Du & Zhan (KDD 2003), Section 5.1.

The paper: "We used first 10,000 instances [...] we first transformed the original non-binary
data to the binary. We split the value of each attribute from the median point of the range of
the attribute. After preprocessing, we divided the data set into a training data set D and a
testing data set B."

What :func:`adult_binary` does, precisely (the paper leaves details open; these are our choices):

* records: the first ``n`` rows of ``adult.data`` (the bundled UCI training file), in file order;
* continuous attributes (age, fnlwgt, education_num, capital_gain, capital_loss,
  hours_per_week): 1 if the value is **strictly greater** than the split point, else 0. The split
  point is ``(min + max) / 2`` over the ``n`` records (``threshold="range_midpoint"``, the paper
  read literally) or the median of the ``n`` records (``threshold="median"``, an alternative that
  keeps the attributes informative). Read literally, the midpoint leaves capital_gain,
  capital_loss and fnlwgt almost constant (well under 1 % of ones in the first 10,000 records);
* categorical attributes: 1 if the value is the most frequent category among the ``n`` records
  (e.g. workclass = Private, native_country = United-States), else 0. A missing value ("?" in the
  file; workclass, occupation, native_country) is "not the most frequent category", i.e. 0;
* class: ``income`` (1 = ">50K", 0 = "<=50K"), already 0/1;
* split points are computed on all ``n`` records before the train/test split, as in the paper
  (preprocessing, then division); train = the first ``n_train`` records (8,000 by default for
  n = 10,000), test = the remaining ones (the last 2,000). Deterministic: no randomness at all.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import pandas as pd

from .adult import ADULT_COLUMNS, ADULT_CONTINUOUS, load_adult

__all__ = ["adult_binary", "BinaryAdult", "DU_ZHAN_THETAS"]

#: the thetas of Du & Zhan's Section 5.1, step 3 (Fig. 2): how these data are disguised
DU_ZHAN_THETAS = (0.1, 0.2, 0.3, 0.4, 0.45, 0.51, 0.55, 0.6, 0.7, 0.8, 0.9, 1.0)

THRESHOLDS = ("range_midpoint", "median")
_N_ADULT_TRAIN = 32_561


@dataclass(frozen=True)
class BinaryAdult:
    """The binarized Adult data, split into train and test (returned by :func:`adult_binary`).

    Attributes
    ----------
    train : pandas.DataFrame
        The first ``n_train`` records: 0/1 (uint8) frame with the 14 attribute columns followed
        by the class column ``income``; the index is the row number in adult.data
        (0..n_train-1).
    test : pandas.DataFrame
        The remaining records, same columns; index n_train..n-1.
    feature_names : tuple of str
        The 14 attribute columns, in the order of adult.names.
    target : str
        ``"income"`` (1 = ">50K").
    threshold : str
        ``"range_midpoint"`` or ``"median"``.
    rules : pandas.DataFrame
        One row per attribute: ``kind`` (continuous/categorical), ``split`` (the split point or
        the most frequent category), ``rule`` (what a 1 means, e.g. ``"age > 53.5"``) and
        ``share_of_ones`` over all ``n`` records.
    """

    train: pd.DataFrame
    test: pd.DataFrame
    feature_names: tuple
    target: str
    threshold: str
    rules: pd.DataFrame

    @property
    def data(self) -> pd.DataFrame:
        """All ``n`` records (train then test)."""
        return pd.concat([self.train, self.test])

    @property
    def X_train(self) -> pd.DataFrame:
        """The training attributes: ``train`` without the class column, shape (n_train, 14)."""
        return self.train[list(self.feature_names)]

    @property
    def y_train(self) -> pd.Series:
        """The training class labels (``income``, 0/1), length n_train."""
        return self.train[self.target]

    @property
    def X_test(self) -> pd.DataFrame:
        """The test attributes: ``test`` without the class column, shape (n - n_train, 14)."""
        return self.test[list(self.feature_names)]

    @property
    def y_test(self) -> pd.Series:
        """The test class labels (``income``, 0/1), length n - n_train."""
        return self.test[self.target]


def adult_binary(n: int = 10_000, threshold: str = "range_midpoint", n_train: int | None = None) -> BinaryAdult:
    """Du & Zhan's preprocessing of Adult: first ``n`` records, every attribute made 0/1.

    See the module docstring for the exact rules (continuous: 1 if value > split point, split
    at (min + max) / 2 or at the median; categorical: 1 if the most frequent category, missing
    counts as 0; class: income > 50K).

    Parameters
    ----------
    n : int, default 10_000
        Number of leading records of adult.data to use (2 .. 32,561).
    threshold : {"range_midpoint", "median"}
        Split point for continuous attributes: the midpoint of the range, as the paper says, or
        the median of the data.
    n_train : int, optional
        Size of the training part (the first records). Default ``round(0.8 * n)``: 8,000 of
        10,000, leaving the last 2,000 for testing.

    Returns
    -------
    BinaryAdult
        The 0/1 train and test frames, the feature names, the class column and the rule
        used for each attribute.

    Raises
    ------
    ValueError
        If ``n`` or ``n_train`` is not an integer in its range or ``threshold`` is unknown.

    Examples
    --------
    >>> data = adult_binary()
    >>> data.train.shape, data.test.shape
    ((8000, 15), (2000, 15))
    >>> data.rules.loc["age", "rule"]
    'age > 53.5'
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 2 <= n <= _N_ADULT_TRAIN:
        raise ValueError(f"n must be an integer between 2 and {_N_ADULT_TRAIN:,} (rows of adult.data), got {n!r}")
    if threshold not in THRESHOLDS:
        raise ValueError(f"threshold must be one of {THRESHOLDS}, got {threshold!r}")
    n = int(n)
    if n_train is None:
        n_train = int(round(0.8 * n))
    if isinstance(n_train, bool) or not isinstance(n_train, numbers.Integral) or not 1 <= n_train < n:
        raise ValueError(f"n_train must be an integer between 1 and n - 1 = {n - 1}, got {n_train!r}")

    raw = load_adult("train").frame.iloc[:n]
    binary = pd.DataFrame(index=raw.index)
    rows = []
    for col in ADULT_COLUMNS:
        values = raw[col]
        if col in ADULT_CONTINUOUS:
            if threshold == "range_midpoint":
                split = (float(values.min()) + float(values.max())) / 2.0  # "median point of the range"
            else:
                split = float(values.median())
            ones = values > split
            rule = f"{col} > {split:.10g}"
            kind = "continuous"
        else:
            counts = values.value_counts(dropna=True)
            # most frequent category; ties broken alphabetically so the result is deterministic
            top = sorted(counts.index[counts == counts.max()])[0]
            split = top
            ones = values == top  # NaN ("?") compares False -> 0
            rule = f"{col} == {top}"
            kind = "categorical"
        binary[col] = ones.fillna(False).astype("uint8")
        rows.append({"attribute": col, "kind": kind, "split": split, "rule": rule,
                     "share_of_ones": float(binary[col].mean())})
    binary["income"] = raw["income"].astype("uint8")
    rules = pd.DataFrame(rows).set_index("attribute")
    return BinaryAdult(
        train=binary.iloc[:n_train].copy(),
        test=binary.iloc[n_train:].copy(),
        feature_names=tuple(ADULT_COLUMNS),
        target="income",
        threshold=threshold,
        rules=rules,
    )

