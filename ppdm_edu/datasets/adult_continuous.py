"""The continuous Adult attributes and the five perturbed data sets of Liu, Kantarcioglu &
Thuraisingham (Section 7, Table 1): data1-data4 Gaussian noise at SNR 1.7, 1.3, 1.0 and 0.5 per
attribute, data5 uniform noise with an SNR per attribute.
"""
from __future__ import annotations

import numbers

import numpy as np

from .._validation import check_finite_2d, check_finite_array, check_integer
from ..random_state import check_random_state
from ..randomization import noise_for_snr
from .adult import ADULT_CONTINUOUS, load_adult

__all__ = ["LIU_DATASETS", "adult_xy", "make_noises"]

#: name -> (noise kind, SNR per attribute) (Section 7 and Table 1)
LIU_DATASETS = {
    "data1": ("gaussian", (1.7,) * 6),
    "data2": ("gaussian", (1.3,) * 6),
    "data3": ("gaussian", (1.0,) * 6),
    "data4": ("gaussian", (0.5,) * 6),
    "data5": ("uniform", (1.3, 2.7, 1.2, 53.6, 1.9, 1.1)),
}


def adult_xy(n_train: int | None = 10_000, rng=None):
    """The six continuous Adult attributes: (X_train, y_train, X_test, y_test) as float arrays.

    ``n_train`` records are drawn without replacement from adult.data (None: all 32,561);
    the test set is all of adult.test (Section 7 of Liu, Kantarcioglu & Thuraisingham: 10,000
    training records drawn anew in every repeat, all 16,281 test records).

    Parameters
    ----------
    n_train : int or None, default 10_000
        Training records to draw, from 1 to 32,561; None keeps all of adult.data in file order.
    rng : None, int or numpy.random.Generator, default None
        Seed of the draw; None gives fresh entropy.

    Returns
    -------
    X_train : ndarray of float, shape (n_train, 6)
        The attributes age, fnlwgt, education_num, capital_gain, capital_loss,
        hours_per_week (in that order) of the drawn training records.
    y_train : ndarray, shape (n_train,)
        Their income class labels.
    X_test : ndarray of float, shape (16281, 6)
        The same attributes of every adult.test record.
    y_test : ndarray, shape (16281,)
        Their income class labels.

    Raises
    ------
    ValueError
        If `n_train` is outside 1 .. 32,561.

    Examples
    --------
    >>> X, y, Xt, yt = adult_xy(1000, rng=0)
    >>> X.shape, Xt.shape
    ((1000, 6), (16281, 6))
    """
    rng = check_random_state(rng)
    train, test = load_adult("train").frame, load_adult("test").frame
    X = train[ADULT_CONTINUOUS].to_numpy(float)
    y = train["income"].to_numpy()
    if n_train is not None:
        n_train = check_integer(n_train, "n_train", minimum=1, maximum=len(X))
        idx = rng.choice(len(X), n_train, replace=False)
        X, y = X[idx], y[idx]
    return X, y, test[ADULT_CONTINUOUS].to_numpy(float), test["income"].to_numpy()


def make_noises(X, dataset="data1", snr=None, kind=None) -> list:
    """One noise model per column of ``X`` giving the data set's SNR (or ``snr``/``kind`` given).

    Section 7 of Liu et al. sets the noise of each attribute by its signal-to-noise ratio
    ``SNR = var(x) / var(noise)`` (:func:`~ppdm_edu.noise_for_snr`, with the variance of the
    given sample): data1-data4 use Gaussian noise with SNR 1.7, 1.3, 1.0 and 0.5, data5 uniform
    noise with a different SNR per attribute (:data:`LIU_DATASETS`).

    Parameters
    ----------
    X : array-like of float, shape (n, n_columns)
        The original records whose columns' variances set the noise (with the data sets'
        SNRs: Adult's six continuous attributes, as :func:`adult_xy` returns them).
    dataset : {"data1", "data2", "data3", "data4", "data5"}, default "data1"
        The paper's perturbed data set giving the noise kind and SNRs not passed explicitly.
    snr : float or sequence of float, optional
        SNR (> 0) for every column, or one per column; overrides the data set's.
    kind : {"gaussian", "uniform", "laplace"}, optional
        Noise family; overrides the data set's.

    Returns
    -------
    list of Noise
        One noise model per column of `X`, with variance ``var(X[:, j]) / snr[j]``.

    Raises
    ------
    ValueError
        If `dataset` is unknown (and `snr` or `kind` is missing), `X` is not a finite 2-d
        array, the number of SNRs is neither 1 nor the number of columns, or an SNR is not
        > 0.

    Examples
    --------
    >>> X, *_ = adult_xy(2000, rng=0)
    >>> [n.kind for n in make_noises(X, "data5")][:2]
    ['uniform', 'uniform']
    """
    if snr is None or kind is None:
        if dataset not in LIU_DATASETS:
            raise ValueError(f"unknown data set {dataset!r}: dataset must be one of {', '.join(LIU_DATASETS)}")
        kind0, snr0 = LIU_DATASETS[dataset]
        kind = kind or kind0
        snr = snr0 if snr is None else snr
    X = check_finite_2d(X, "X")
    if not isinstance(snr, (numbers.Real, list, tuple, np.ndarray)) or isinstance(snr, bool):
        raise TypeError(f"snr must be one number or one per column of X, got {snr!r}")
    snrs = np.atleast_1d(check_finite_array(snr, "snr"))
    if snrs.ndim != 1 or snrs.size not in (1, X.shape[1]):
        where = (f" (the SNRs of data set {dataset!r}, for Adult's six continuous attributes; "
                 "for another X pass snr= and kind=)"
                 if snr is LIU_DATASETS.get(dataset, (None, None))[1] else "")
        raise ValueError(f"snr must be one number or one per column of X ({X.shape[1]} columns), got "
                         f"{snrs.size} values {snr!r}{where}")
    snrs = np.broadcast_to(snrs, (X.shape[1],))
    constant = np.flatnonzero(X.var(axis=0) == 0)
    if constant.size:
        raise ValueError(f"X column {int(constant[0])} is constant (variance 0): no noise level gives it a "
                         f"finite SNR")
    return [noise_for_snr(X[:, j], float(snrs[j]), kind) for j in range(X.shape[1])]
