"""The privacy/accuracy trade-off: one run of one mechanism, with one named estimator, on one task.

The building blocks of notebook 08, its panel and ``python -m ppdm_edu reproduce tradeoff``:

* :func:`make_mechanism` builds a mechanism by name from a registry (:data:`MECHANISMS`): every
  local randomizer of :mod:`ppdm_edu.mechanisms`, and :class:`CentralLaplace`, the trusted
  curator who adds Laplace noise to the counts (Dwork, McSherry, Nissim & Smith 2006);
* :func:`task_data` draws the records of a task (the share of a binary attribute, or a k = 10
  histogram);
* :func:`estimate` turns reports into a distribution with an estimator named by the caller
  (:data:`ESTIMATORS`), so that a comparison of mechanisms never hides a comparison of
  estimators;
* :func:`run_error` randomizes, estimates and returns the error against the *sample's own*
  share or histogram (the error the mechanism adds to what it was asked to release);
* :func:`theory_error` is that error's closed form for the unbiased estimator (normal
  approximation; Warner 1965, Wang et al. 2017 Sec. 4, Dwork et al. 2006);
* :func:`audit_claim` puts a mechanism's claimed (ε, δ) to the test: a lower bound on ε at its
  δ, and on δ at its ε (Jagielski, Ullman & Oprea 2020).

Every mechanism here protects one person's one value (neighbour relation: two values of one
person, :data:`UNIT` ``"value"``); the central mechanism protects one record of the data set
against its replacement (``"record"``).

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

import functools
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ._validation import check_finite_array, check_integer, check_positive
from .audit import audit_delta, audit_epsilon
from .mechanisms import (
    AdditiveNoiseMechanism,
    GaussianNoiseMechanism,
    GeneralizedRR,
    LaplaceMechanism,
    Mechanism,
    OptimizedUnaryEncoding,
    UniformNoiseMechanism,
    WarnerRR,
)
from .random_state import check_random_state

__all__ = ["make_mechanism", "register_mechanism", "task_data", "central_laplace", "run_error",
           "estimate", "theory_error", "project_simplex", "CentralLaplace", "MECHANISMS",
           "LOCAL_MECHANISMS", "ESTIMATORS", "UNIT", "SHARE", "HISTOGRAM", "DATA_TASKS",
           "EARLY_TOL", "CONVERGED_TOL", "CONVERGED_ITER", "audit_claim", "AuditedClaim",
           "DELTA_AUDIT_EPSILON"]

#: the binary attribute's share
SHARE = 0.3
#: the k = 10 distribution of the histogram task (a skewed, Zipf-like shape)
HISTOGRAM = (0.3, 0.2, 0.15, 0.1, 0.08, 0.06, 0.04, 0.03, 0.02, 0.02)
#: the tasks that :func:`task_data` draws (the Adult classifier lives in the reproduction)
DATA_TASKS = ("share", "histogram")
#: the local mechanisms per task; ``uniform`` is set by its privacy level, the others by ε
LOCAL_MECHANISMS = {"share": ("warner", "oue", "laplace", "gaussian", "uniform"),
                    "histogram": ("grr", "oue", "laplace", "gaussian", "uniform")}
#: the estimators :func:`estimate` runs:
#:
#: * ``"inversion"``: the unbiased estimator (Warner 1965; Wang et al. 2017 Eq. 2 for OUE; the
#:   mean report for an additive noise on the share; least squares on the response matrix
#:   otherwise), *not* projected: its error has a closed form (:func:`theory_error`);
#: * ``"projected"``: the same, projected onto the probability simplex (a distribution);
#: * ``"ibu"``: Agrawal & Srikant's iterative Bayes run to convergence (:data:`CONVERGED_TOL`,
#:   at most :data:`CONVERGED_ITER` iterations): the maximum-likelihood fit;
#: * ``"ibu-early"``: the same iteration stopped at ``tol`` = :data:`EARLY_TOL` after a few
#:   steps from the uniform start: a *shrinkage* estimator, pulled towards the uniform
#:   distribution (less variance, a bias that does not fall with n).
ESTIMATORS = ("inversion", "projected", "ibu", "ibu-early")
#: tolerance of the early-stopped iteration (fraction of the χ² threshold, as in notebook 02)
EARLY_TOL = 0.01
#: tolerance and iteration limit of the converged iteration
CONVERGED_TOL = 1e-7
CONVERGED_ITER = 5_000
#: the neighbour relation each guarantee is stated for
UNIT = {"local": "value", "central": "record"}
_MAX_N = 10_000_000
#: the ε at which δ is audited for a mechanism that claims no finite ε (uniform noise)
DELTA_AUDIT_EPSILON = 1.0


def _check_task(task) -> str:
    if task not in DATA_TASKS:
        raise ValueError(f"task must be one of {DATA_TASKS}, got {task!r}")
    return task


def _k(task: str) -> int:
    return 2 if task == "share" else len(HISTOGRAM)


def _grid(task: str) -> dict:
    # the additive noises work on the grid of codes 0..k-1, so their sensitivity is k - 1
    k = _k(task)
    return dict(bounds=(0.0, float(k - 1)), n_bins=k, discrete=True)


# ---------------------------------------------------------------------------------------------
# the central alternative: one trusted curator, Laplace noise on the counts
# ---------------------------------------------------------------------------------------------
class CentralLaplace(Mechanism):
    """A trusted curator's release: the counts plus Laplace(Δ/ε) each (Dwork et al. 2006).

    Not a local randomizer: :meth:`randomize` takes the whole data set and returns its noisy
    counts (the only "report"). For k = 2 only the count of 1s is released (sensitivity Δ = 1;
    n is public); for k > 2 every count gets noise, with L1 sensitivity Δ = 2 (replacing one
    record moves two counts by one). Neighbour relation: one record replaced.

    Parameters
    ----------
    k : int
        Categories, 2 to 1,000.
    epsilon : float
        The privacy level, > 0.

    Examples
    --------
    >>> m = CentralLaplace(2, 1.0)
    >>> m.epsilon, m.sensitivity
    (1.0, 1.0)
    >>> m.randomize([0, 1, 1, 0], rng=0).shape
    (2,)
    """

    name = "central-laplace"

    def __init__(self, k: int, epsilon: float):
        self.k = check_integer(k, "k", minimum=2, maximum=1000)
        self._epsilon = check_positive(epsilon, "epsilon")
        self.sensitivity = 1.0 if self.k == 2 else 2.0

    @property
    def epsilon(self) -> float:
        """The claimed ε (for one record of the data set)."""
        return self._epsilon

    @property
    def scale(self) -> float:
        """The Laplace scale b = Δ / ε of the noise on each released count."""
        return self.sensitivity / self._epsilon

    def randomize(self, values, rng=None) -> np.ndarray:
        """The noisy counts of the whole data set.

        Parameters
        ----------
        values : array-like of int
            Every record's category, ``0..k-1``.
        rng : None, int or numpy.random.Generator
            Source of the noise.

        Returns
        -------
        ndarray of float, shape (k,)
            The counts plus noise (for k = 2: ``[n − c, c]`` with ``c`` the noisy count of 1s).
        """
        codes = _check_codes(values, self.k)
        gen = check_random_state(rng)
        counts = np.bincount(codes, minlength=self.k).astype(float)
        if self.k == 2:
            c1 = counts[1] + gen.laplace(0.0, self.scale)
            return np.array([codes.size - c1, c1])
        return counts + gen.laplace(0.0, self.scale, size=self.k)

    def response_matrix(self) -> np.ndarray:  # noqa: D102 (the counts are released as they are)
        return np.eye(self.k)

    def counts(self, reports) -> np.ndarray:  # noqa: D102
        return np.asarray(reports, dtype=float)

    def _n(self, reports) -> int:
        return int(round(float(np.sum(reports))))  # n is public; for k = 2 it is exact


def central_laplace(task: str, x, epsilon: float, rng=None) -> np.ndarray:
    """A trusted curator's estimate: :class:`CentralLaplace`'s counts, projected onto the simplex.

    Parameters
    ----------
    task : {"share", "histogram"}
        Which task.
    x : array-like of int
        The records (:func:`task_data`).
    epsilon : float
        The privacy level, > 0.
    rng : None, int or numpy.random.Generator
        Source of the noise.

    Returns
    -------
    ndarray
        The estimated distribution.

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
    codes = _check_codes(x, _k(task))
    mech = make_mechanism("central-laplace", check_positive(epsilon, "epsilon"), task)
    return estimate(task, mech, mech.randomize(codes, rng), "projected", n=codes.size)


# ---------------------------------------------------------------------------------------------
# the registry: name -> how to build the mechanism for a task
# ---------------------------------------------------------------------------------------------
#: name -> factory ``(param, task) -> Mechanism``; :func:`register_mechanism` adds one
MECHANISMS: dict[str, Callable[[float, str], Mechanism]] = {}


def register_mechanism(name: str):
    """Register a factory ``(param, task) -> Mechanism`` under ``name`` (a decorator).

    Parameters
    ----------
    name : str
        The name :func:`make_mechanism` and :func:`run_error` accept.

    Returns
    -------
    callable
        The decorator (returns the factory unchanged).

    Raises
    ------
    TypeError
        If ``name`` is not a non-empty string.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string, got {name!r}")

    def add(factory):
        if not callable(factory):
            raise TypeError(f"the factory of {name!r} must be callable, got {type(factory).__name__}")
        MECHANISMS[name] = factory
        return factory
    return add


register_mechanism("warner")(lambda eps, task: WarnerRR.for_epsilon(eps))
register_mechanism("grr")(lambda eps, task: GeneralizedRR(_k(task), eps))
register_mechanism("oue")(lambda eps, task: OptimizedUnaryEncoding(_k(task), eps))
register_mechanism("laplace")(lambda eps, task: LaplaceMechanism(eps, **_grid(task)))
register_mechanism("gaussian")(lambda eps, task: GaussianNoiseMechanism.for_epsilon(eps, **_grid(task)))
# uniform noise has no ε to set: its parameter is Agrawal & Srikant's privacy level
register_mechanism("uniform")(lambda level, task: UniformNoiseMechanism.for_privacy(level, **_grid(task)))
register_mechanism("central-laplace")(lambda eps, task: CentralLaplace(_k(task), eps))


@functools.lru_cache(maxsize=512)
def _build(name: str, param: float, task: str) -> Mechanism:
    # a mechanism is immutable once built; the Gaussian's σ (a root search) and the additive
    # noises' response matrices are computed once per (name, param, task)
    return MECHANISMS[name](param, task)


def make_mechanism(name: str, param: float, task: str) -> Mechanism:
    """The mechanism ``name`` at ``param`` for a task, from the registry :data:`MECHANISMS`.

    Parameters
    ----------
    name : str
        A key of :data:`MECHANISMS`: ``"warner"``, ``"grr"``, ``"oue"``, ``"laplace"``,
        ``"gaussian"``, ``"uniform"`` or ``"central-laplace"``.
    param : float
        Its ε (for ``"uniform"``: Agrawal & Srikant's privacy level, 1.0 = 100 %).
    task : {"share", "histogram"}
        The share has values 0/1, the histogram the codes 0..9 (the additive noises work on that
        grid, so their sensitivity is 9).

    Returns
    -------
    ppdm_edu.mechanisms.Mechanism
        The mechanism (the same object for the same arguments: mechanisms are immutable).

    Raises
    ------
    ValueError
        If ``name`` or ``task`` is unknown or ``param`` is not positive.

    Examples
    --------
    >>> make_mechanism("grr", 1.0, "histogram").k
    10
    >>> type(make_mechanism("central-laplace", 1.0, "share")).__name__
    'CentralLaplace'
    """
    task = _check_task(task)
    param = check_positive(param, "param")
    if not isinstance(name, str) or name not in MECHANISMS:
        raise ValueError(f"unknown mechanism name {name!r}; choose from {tuple(MECHANISMS)}")
    return _build(name, float(param), task)


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


def _check_codes(x, k: int) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iub" or arr.min() < 0 or arr.max() >= k:
        raise ValueError(f"x must be a non-empty 1-D array of integer codes 0..{k - 1}")
    return arr.astype(np.int64)


# ---------------------------------------------------------------------------------------------
# estimators, named by the caller
# ---------------------------------------------------------------------------------------------
def project_simplex(v) -> np.ndarray:
    """The closest probability vector to ``v`` in Euclidean distance (Duchi et al. 2008, Fig. 1).

    Parameters
    ----------
    v : array-like of float, shape (k,)
        Any real vector, e.g. an unbiased estimate with negative entries.

    Returns
    -------
    ndarray, shape (k,)
        ``argmin_p ||p − v||`` over ``p ≥ 0``, ``sum(p) = 1``: subtract one threshold, clip at 0.

    Raises
    ------
    ValueError
        If ``v`` is not a non-empty 1-D array of finite numbers.

    Examples
    --------
    >>> project_simplex([0.6, 0.6, -0.2]).tolist()
    [0.5, 0.5, 0.0]
    """
    v = check_finite_array(v, "v")
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"v must be a non-empty 1-D array of finite numbers, got shape {v.shape}")
    u = np.sort(v)[::-1]
    cumulative = np.cumsum(u) - 1.0
    rho = np.nonzero(u - cumulative / np.arange(1, v.size + 1) > 0)[0][-1]
    return np.maximum(v - cumulative[rho] / (rho + 1.0), 0.0)


def _unbiased(mech: Mechanism, reports, n: int) -> np.ndarray:
    if isinstance(mech, AdditiveNoiseMechanism) and mech.n_bins == 2:
        # two values: the mean determines the distribution, and E[x + r] = x, so the share is
        # the mean report rescaled (the moment inversion; no binning of the reports needed)
        lo, hi = mech.bounds
        share = (float(np.mean(reports)) - lo) / (hi - lo)
        return np.array([1.0 - share, share])
    counts = mech.counts(reports)
    if isinstance(mech, OptimizedUnaryEncoding):
        p, q = mech._pq()
        return (counts / n - q) / (p - q)  # Wang et al. 2017, Eq. 2 (one bit per category)
    # E[counts / n] = A f, so least squares on A is unbiased (Warner 1965 for k = 2; for a
    # square A, Wang et al.'s Eq. 2 for GRR; for the binned additive noises, A is tall)
    return np.linalg.lstsq(mech.response_matrix(), counts / n, rcond=None)[0]


def estimate(task: str, mech: Mechanism, reports, estimator: str, n: int | None = None) -> np.ndarray:
    """The task's distribution from the reports, by the estimator named.

    Parameters
    ----------
    task : {"share", "histogram"}
        Which task.
    mech : ppdm_edu.mechanisms.Mechanism
        The mechanism that made the reports.
    reports : array-like
        Its output.
    estimator : {"inversion", "projected", "ibu", "ibu-early"}
        See :data:`ESTIMATORS`.
    n : int, optional
        Records (default: the number of reports; needed for :class:`CentralLaplace`, whose
        report is the noisy counts).

    Returns
    -------
    ndarray, shape (k,)
        The estimate (``"inversion"``: may leave the simplex; the others are distributions).

    Raises
    ------
    TypeError
        If ``mech`` is not a mechanism.
    ValueError
        If ``task`` or ``estimator`` is unknown.
    """
    _check_task(task)
    if not isinstance(mech, Mechanism):
        raise TypeError(f"mech must be a ppdm_edu Mechanism, got {type(mech).__name__}")
    if estimator not in ESTIMATORS:
        raise ValueError(f"estimator must be one of {ESTIMATORS}, got {estimator!r}")
    if np.ndim(reports) == 0:
        raise ValueError(f"reports must be the mechanism's output (one report per record), got {reports!r}")
    n = int(np.shape(reports)[0]) if n is None else check_integer(n, "n", minimum=1)
    if estimator in ("inversion", "projected"):
        p = _unbiased(mech, reports, n)
        return p if estimator == "inversion" else project_simplex(p)
    tol, max_iter = (EARLY_TOL, 1000) if estimator == "ibu-early" else (CONVERGED_TOL, CONVERGED_ITER)
    return np.asarray(mech.estimate(reports, method="bayes", tol=tol, max_iter=max_iter).probabilities)


def run_error(task: str, mechanism, param: float, x, rng=None, estimator: str = "inversion") -> float:
    """One run: randomize ``x``, estimate its distribution, return the error.

    Parameters
    ----------
    task : {"share", "histogram"}
        Which task.
    mechanism : str or ppdm_edu.mechanisms.Mechanism
        A key of :data:`MECHANISMS`, or a mechanism already built for the task.
    param : float
        ε (the privacy level for ``"uniform"``); ignored when ``mechanism`` is an object.
    x : array-like of int
        The records (:func:`task_data`).
    rng : None, int or numpy.random.Generator
        Source of the noise.
    estimator : str, default "inversion"
        One of :data:`ESTIMATORS`.

    Returns
    -------
    float
        ``|estimated share − sample share|`` or the total variation distance
        ``½ Σ |p̂_v − f_v|`` to the sample's own histogram.

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
    mech = mechanism if isinstance(mechanism, Mechanism) else make_mechanism(mechanism, param, task)
    p = estimate(task, mech, mech.randomize(codes, rng), estimator, n=codes.size)
    empirical = np.bincount(codes, minlength=p.size) / codes.size
    if task == "share":
        return float(abs(p[1] - empirical[1]))
    return float(0.5 * np.abs(p - empirical).sum())


def _covariance(mech: Mechanism, f: np.ndarray, n: int) -> np.ndarray:
    """Covariance of the unbiased estimate given the sample's frequencies ``f``."""
    if isinstance(mech, CentralLaplace):
        var = 2.0 * mech.scale ** 2 / n ** 2  # Laplace(b) has variance 2 b²
        return np.diag(np.full(mech.k, var)) if mech.k > 2 else np.array([[var, -var], [-var, var]])
    if isinstance(mech, AdditiveNoiseMechanism) and mech.n_bins == 2:
        var = mech.noise.var / (mech.value_range ** 2 * n)  # the mean of n noisy reports
        return np.array([[var, -var], [-var, var]])
    if isinstance(mech, OptimizedUnaryEncoding):
        p, q = mech._pq()
        # each bit is its own coin: Var c_v = n f_v p(1−p) + n (1 − f_v) q(1−q) (Wang et al. Sec. 4)
        return np.diag((f * p * (1 - p) + (1 - f) * q * (1 - q)) / (n * (p - q) ** 2))
    # one report per person, drawn from column A[:, x]: Cov(counts / n) = (diag(A f) − A diag(f) Aᵀ) / n
    A = mech.response_matrix()
    sigma = (np.diag(A @ f) - (A * f) @ A.T) / n
    pinv = np.linalg.pinv(A)
    return pinv @ sigma @ pinv.T


def theory_error(task: str, mechanism: str, param: float, n: int) -> float:
    """The expected error of the unbiased estimator (``"inversion"``) in closed form.

    ``E|Z| = σ √(2/π)`` for a normal Z: the share's error is ``√(2/π) sd(p̂₁)``, the
    histogram's ``½ Σ_v √(2/π) sd(p̂_v)``, with the sds from the estimator's covariance
    given the sample (Warner 1965; Wang et al. 2017 Sec. 4 for GRR and OUE; the noise's variance
    over n for the mean report of an additive noise on the share; least squares on the response
    matrix for the additive noises on the histogram). The central mechanism's error is exact:
    ``E|Laplace(b)| / n = b / n`` per count.

    Parameters
    ----------
    task : {"share", "histogram"}
        Which task (its distribution :data:`SHARE` or :data:`HISTOGRAM` stands for the sample's).
    mechanism : str
        A key of :data:`MECHANISMS`.
    param : float
        ε (privacy level for ``"uniform"``).
    n : int
        Records.

    Returns
    -------
    float
        The expected absolute error (share) or total variation (histogram).

    Examples
    --------
    >>> round(theory_error("share", "warner", 1.0, 10_000) * 100, 4)  # 0.766 / √n
    0.7656
    >>> round(theory_error("share", "central-laplace", 1.0, 10_000) * 10_000, 6)  # 1 / (n ε)
    1.0
    """
    task = _check_task(task)
    n = check_integer(n, "n", minimum=1, maximum=_MAX_N)
    mech = make_mechanism(mechanism, param, task)
    f = np.array([1 - SHARE, SHARE]) if task == "share" else np.asarray(HISTOGRAM)
    if isinstance(mech, CentralLaplace):
        # exact, no normal approximation: E|Laplace(b)| = b
        return mech.scale / n if task == "share" else 0.5 * mech.k * mech.scale / n
    sd = np.sqrt(np.clip(np.diag(_covariance(mech, f, n)), 0.0, None))
    scale = math.sqrt(2.0 / math.pi)
    return float(scale * sd[1]) if task == "share" else float(0.5 * scale * sd.sum())


# ---------------------------------------------------------------------------------------------
# the audit of a claim: ε at the claimed δ, δ at the claimed ε
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AuditedClaim:
    """What the audit of one mechanism's claim measured (both 95 % lower bounds).

    Attributes
    ----------
    epsilon : float
        Lower bound on ε at δ = ``epsilon_at_delta``.
    epsilon_at_delta : float
        The claimed δ (0 for pure ε and for a mechanism with no finite ε).
    delta : float
        Lower bound on δ at ε = ``delta_at_epsilon``.
    delta_at_epsilon : float
        The claimed ε, or :data:`DELTA_AUDIT_EPSILON` when there is no finite one.
    """

    epsilon: float
    epsilon_at_delta: float
    delta: float
    delta_at_epsilon: float

    def refutes(self, epsilon: float, delta: float = 0.0) -> bool:
        """Whether the measurement contradicts an (ε, δ) claim (at either of its two points).

        Parameters
        ----------
        epsilon : float
            The claimed ε.
        delta : float, default 0.0
            The claimed δ.

        Returns
        -------
        bool
            True if the ε bound exceeds ``epsilon`` at a δ no smaller than ``delta``, or the δ
            bound exceeds ``delta`` at an ε no smaller than ``epsilon``.
        """
        return bool(self.epsilon > epsilon and self.epsilon_at_delta >= delta) or \
            bool(self.delta > delta and self.delta_at_epsilon >= epsilon)


def audit_claim(mech: Mechanism, x0, x1, *, trials: int, rng=None) -> AuditedClaim:
    """Audit a mechanism's claimed (ε, δ) from its outputs on two neighbouring inputs.

    Two audits of :mod:`ppdm_edu.audit`: a lower bound on ε at the claimed δ
    (:func:`~ppdm_edu.audit.audit_epsilon`), and on δ at the claimed ε
    (:func:`~ppdm_edu.audit.audit_delta`). A mechanism with no finite ε (uniform noise) is
    bounded at δ = 0 (a bound that grows with the runs) and its δ at ε =
    :data:`DELTA_AUDIT_EPSILON` (a stable number). Both are lower bounds: they can refute a
    claim, never certify it.

    Parameters
    ----------
    mech : Mechanism
        The mechanism (its ``epsilon`` and ``delta`` are the claim).
    x0, x1 : scalar
        Two neighbouring inputs (two values of one person for a local randomizer).
    trials : int
        Runs per input of each audit.
    rng : None, int or numpy.random.Generator
        Seed of both audits (they draw consecutively from one stream).

    Returns
    -------
    AuditedClaim
        The two bounds and where each was measured.

    Raises
    ------
    TypeError, ValueError
        As :func:`~ppdm_edu.audit.audit_epsilon`.

    Examples
    --------
    >>> a = audit_claim(make_mechanism("uniform", 1.0, "share"), 0, 1, trials=20_000, rng=0)
    >>> a.delta_at_epsilon, bool(a.delta > 0.9)
    (1.0, True)
    """
    if not isinstance(mech, Mechanism):
        raise TypeError(f"mech must be a ppdm_edu Mechanism, got {type(mech).__name__}")
    gen = check_random_state(rng)
    finite = math.isfinite(mech.epsilon)
    at_delta = float(mech.delta) if finite else 0.0
    at_eps = float(mech.epsilon) if finite else DELTA_AUDIT_EPSILON
    eps = audit_epsilon(mech, x0, x1, trials=trials, delta=at_delta, rng=gen).lower_bound
    delta = audit_delta(mech, x0, x1, epsilon=at_eps, trials=trials, rng=gen).lower_bound
    return AuditedClaim(float(eps), at_delta, float(delta), at_eps)
