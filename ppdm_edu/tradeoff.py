"""The privacy/accuracy trade-off on one scale: one run of one mechanism on one task.

The building blocks of notebook 08, its panel and ``python -m ppdm_edu reproduce tradeoff``:

* :func:`make_mechanism` builds every local randomizer of :mod:`ppdm_edu.mechanisms` for a task;
* :func:`task_data` draws the records of a task (the share of a binary attribute, or a k = 10
  histogram);
* :func:`central_laplace` is the trusted-curator alternative: Laplace noise on the aggregate
  (Dwork, McSherry, Nissim & Smith 2006), with sensitivity 1 for a count and 2 for a histogram
  (one record replaced moves two counts);
* :func:`run_error` randomizes, estimates with the mechanism's own estimator (matrix inversion for
  Warner/GRR/OUE, as Warner 1965 and Wang et al. 2017 Eq. 2; the iterative Bayes of Agrawal &
  Srikant Sec. 3 for the additive noises) and returns the error (absolute error of the share,
  total variation distance of the histogram).

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.tradeoff import task_data, run_error
>>> x = task_data("share", 10_000, rng=0)
>>> local = run_error("share", "warner", 1.0, x, rng=1)
>>> central = run_error("share", "central-laplace", 1.0, x, rng=1)
>>> bool(central < local)
True
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .mechanisms import (
    GaussianNoiseMechanism,
    GeneralizedRR,
    LaplaceMechanism,
    OptimizedUnaryEncoding,
    UniformNoiseMechanism,
    WarnerRR,
)
from .random_state import check_random_state
from .validation import check_integer, check_positive

__all__ = ["make_mechanism", "task_data", "central_laplace", "run_error", "MECHANISMS",
           "LOCAL_MECHANISMS", "SHARE", "HISTOGRAM", "DATA_TASKS"]

#: the binary attribute's share
SHARE = 0.3
#: the k = 10 distribution of the histogram task (a skewed, Zipf-like shape)
HISTOGRAM = (0.3, 0.2, 0.15, 0.1, 0.08, 0.06, 0.04, 0.03, 0.02, 0.02)
#: the tasks that :func:`task_data` draws (the Adult classifier lives in the reproduction)
DATA_TASKS = ("share", "histogram")
#: the local mechanisms per task; ``uniform`` is set by its privacy level, the others by ε
LOCAL_MECHANISMS = {"share": ("warner", "oue", "laplace", "gaussian", "uniform"),
                    "histogram": ("grr", "oue", "laplace", "gaussian", "uniform")}
#: every name :func:`run_error` accepts
MECHANISMS = ("warner", "grr", "oue", "laplace", "gaussian", "uniform", "central-laplace")
_MAX_N = 10_000_000


def _check_task(task) -> str:
    if task not in DATA_TASKS:
        raise ValueError(f"task must be one of {DATA_TASKS}, got {task!r}")
    return task


def _k(task: str) -> int:
    return 2 if task == "share" else len(HISTOGRAM)


def make_mechanism(name: str, param: float, task: str):
    """The local mechanism ``name`` at ``param`` for a task.

    Parameters
    ----------
    name : {"warner", "grr", "oue", "laplace", "gaussian", "uniform"}
        The mechanism.
    param : float
        Its ε (for ``"uniform"``: Agrawal & Srikant's privacy level, 1.0 = 100 %).
    task : {"share", "histogram"}
        The share has values 0/1, the histogram the codes 0..9 (the additive noises work on that
        grid, so their sensitivity is 9).

    Returns
    -------
    ppdm_edu.mechanisms.Mechanism
        The mechanism.

    Raises
    ------
    ValueError
        If ``name`` or ``task`` is unknown or ``param`` is not positive.

    Examples
    --------
    >>> make_mechanism("grr", 1.0, "histogram").k
    10
    """
    task = _check_task(task)
    param = check_positive(param, "param")
    k = _k(task)
    grid: dict[str, Any] = dict(bounds=(0.0, float(k - 1)), n_bins=k, discrete=True)
    if name == "warner":
        return WarnerRR.for_epsilon(param)
    if name == "grr":
        return GeneralizedRR(k, param)
    if name == "oue":
        return OptimizedUnaryEncoding(k, param)
    if name == "laplace":
        return LaplaceMechanism(param, **grid)
    if name == "gaussian":
        return GaussianNoiseMechanism.for_epsilon(param, **grid)
    if name == "uniform":
        return UniformNoiseMechanism.for_privacy(param, **grid)
    raise ValueError(f"unknown mechanism {name!r}; choose from {MECHANISMS[:-1]}")


def task_data(task: str, n: int, rng=None) -> np.ndarray:
    """The records of a task: 0/1 with share :data:`SHARE`, or codes 0..9 from :data:`HISTOGRAM`.

    Parameters
    ----------
    task : {"share", "histogram"}
        Which task.
    n : int
        Records, 1 to 10,000,000.
    rng : None, int or numpy.random.Generator
        Source of the data (keep it apart from the noise's).

    Returns
    -------
    ndarray of int64, shape (n,)
        The records.

    Raises
    ------
    ValueError
        If ``task`` is unknown or ``n`` is out of range.

    Examples
    --------
    >>> task_data("histogram", 5, rng=0).tolist()
    [2, 0, 0, 0, 4]
    """
    task = _check_task(task)
    n = check_integer(n, "n", minimum=1, maximum=_MAX_N)
    gen = check_random_state(rng)
    if task == "share":
        return (gen.random(n) < SHARE).astype(np.int64)
    return gen.choice(len(HISTOGRAM), size=n, p=np.asarray(HISTOGRAM)).astype(np.int64)


def central_laplace(task: str, x, epsilon: float, rng=None) -> np.ndarray:
    """A trusted curator's estimate: Laplace noise on the counts (Dwork et al. 2006).

    Parameters
    ----------
    task : {"share", "histogram"}
        Which task (``"share"``: one count of 1s with sensitivity 1; ``"histogram"``: ten counts
        with L1 sensitivity 2, as replacing one record moves two counts by one).
    x : array-like of int
        The records (:func:`task_data`).
    epsilon : float
        The privacy level, > 0.
    rng : None, int or numpy.random.Generator
        Source of the noise.

    Returns
    -------
    ndarray
        The estimated distribution (negatives clipped, renormalized; n is public).

    Raises
    ------
    ValueError
        If ``task`` is unknown, ``epsilon`` is not positive or ``x`` is not codes of the task.

    Examples
    --------
    >>> central_laplace("share", [0, 1, 1, 0], 1e6, rng=0).round(3).tolist()
    [0.5, 0.5]
    """
    task = _check_task(task)
    eps = check_positive(epsilon, "epsilon")
    k = _k(task)
    codes = _check_codes(x, k)
    gen = check_random_state(rng)
    counts = np.bincount(codes, minlength=k).astype(float)
    if task == "share":
        share = min(max((counts[1] + gen.laplace(0.0, 1.0 / eps)) / codes.size, 0.0), 1.0)
        return np.array([1.0 - share, share])
    noisy = np.clip(counts + gen.laplace(0.0, 2.0 / eps, size=k), 0.0, None)
    return noisy / noisy.sum() if noisy.sum() > 0 else np.full(k, 1.0 / k)


def _check_codes(x, k: int) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iub" or arr.min() < 0 or arr.max() >= k:
        raise ValueError(f"x must be a non-empty 1-D array of integer codes 0..{k - 1}")
    return arr.astype(np.int64)


def run_error(task: str, mechanism: str, param: float, x, rng=None) -> float:
    """One run: randomize ``x``, estimate its distribution, return the error.

    Parameters
    ----------
    task : {"share", "histogram"}
        Which task.
    mechanism : str
        One of :data:`MECHANISMS` (``"central-laplace"``: :func:`central_laplace`).
    param : float
        ε (the privacy level for ``"uniform"``).
    x : array-like of int
        The records (:func:`task_data`).
    rng : None, int or numpy.random.Generator
        Source of the noise.

    Returns
    -------
    float
        ``|estimated share − sample share|`` or the total variation distance between the estimated
        and the sample's own histogram (the error the mechanism adds to what it was asked to release).

    Raises
    ------
    ValueError
        If an argument is invalid.

    Examples
    --------
    >>> x = task_data("histogram", 20_000, rng=0)
    >>> 0 < run_error("histogram", "oue", 2.0, x, rng=1) < 0.05
    True
    """
    task = _check_task(task)
    codes = _check_codes(x, _k(task))
    if mechanism == "central-laplace":
        p = central_laplace(task, codes, param, rng)
    else:
        mech = make_mechanism(mechanism, param, task)
        method = "inversion" if mechanism in ("warner", "grr", "oue") else "bayes"
        p = mech.estimate(mech.randomize(codes, rng), method=method).probabilities
    empirical = np.bincount(codes, minlength=p.size) / codes.size
    if task == "share":
        return float(abs(p[1] - empirical[1]))
    return float(0.5 * np.abs(p - empirical).sum())
