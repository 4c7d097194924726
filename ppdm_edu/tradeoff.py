"""The privacy/accuracy trade-off: one run of one mechanism, with one named estimator, on one task.

The building blocks of notebook 08, its panel and ``python -m ppdm_edu reproduce tradeoff``:

* :func:`make_mechanism` builds a mechanism by name from a registry (:data:`MECHANISMS`): every
  local randomizer of :mod:`ppdm_edu.mechanisms`, and
  :class:`~ppdm_edu.mechanisms.CentralLaplace`, the trusted curator who adds Laplace noise to the
  counts (Dwork, McSherry, Nissim & Smith 2006);
* :func:`task_data` draws the records of a task (the share of a binary attribute, or a k = 10
  histogram);
* :func:`run_error` randomizes, estimates with an estimator named by the caller (one of
  :data:`ppdm_edu.mechanisms.ESTIMATION_METHODS`, run by
  :meth:`~ppdm_edu.mechanisms.Mechanism.estimate`), and returns the error against the
  *sample's own* share or histogram (the error the mechanism adds to what it was asked to
  release), so that a comparison of mechanisms never hides a comparison of estimators;
* :func:`theory_error` is that error's closed form for the unbiased estimator (normal
  approximation; Warner 1965, Wang et al. 2017 Sec. 4, Dwork et al. 2006);
* :func:`audit_claim` puts a mechanism's claimed (ε, δ) to the test: a lower bound on ε at its
  δ, and on δ at its ε (Jagielski, Ullman & Oprea 2020);
* :func:`mechanism_row` is one row of the trade-off table, all of the above for one mechanism
  at one parameter over several runs: the notebook-08 panel and the reproduction both call it.

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

from ._validation import check_integer, check_positive
from .audit import audit_delta, audit_epsilon
from .mechanisms import (
    ESTIMATION_METHODS,
    CentralLaplace,
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
           "theory_error", "mechanism_row", "MechanismRow", "audit_mechanism", "MECHANISMS",
           "LOCAL_MECHANISMS", "UNIT", "SHARE", "HISTOGRAM", "DATA_TASKS", "audit_claim",
           "AuditedClaim", "DELTA_AUDIT_EPSILON"]

#: the binary attribute's share
SHARE = 0.3
#: the k = 10 distribution of the histogram task (a skewed, Zipf-like shape)
HISTOGRAM = (0.3, 0.2, 0.15, 0.1, 0.08, 0.06, 0.04, 0.03, 0.02, 0.02)
#: the tasks that :func:`task_data` draws (the Adult classifier lives in the reproduction)
DATA_TASKS = ("share", "histogram")
#: the local mechanisms per task; ``uniform`` is set by its privacy level, the others by ε
LOCAL_MECHANISMS = {"share": ("warner", "oue", "laplace", "gaussian", "uniform"),
                    "histogram": ("grr", "oue", "laplace", "gaussian", "uniform")}
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


def central_laplace(task: str, x, epsilon: float, rng=None) -> np.ndarray:
    """A trusted curator's estimate: :class:`~ppdm_edu.mechanisms.CentralLaplace`'s counts, projected.

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
    return mech.estimate(mech.randomize(codes, rng), method="projected").probabilities


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
# one run, its theory
# ---------------------------------------------------------------------------------------------
def _check_estimator(estimator) -> str:
    if not isinstance(estimator, str) or estimator not in ESTIMATION_METHODS:
        raise ValueError(f"estimator must be one of {ESTIMATION_METHODS}, got {estimator!r}")
    return estimator


def _error(task: str, mech: Mechanism, codes: np.ndarray, rng, estimator: str) -> tuple[float, bool]:
    """(the error of one run, whether its estimate converged)."""
    est = mech.estimate(mech.randomize(codes, rng), method=estimator)
    p = est.probabilities
    empirical = np.bincount(codes, minlength=p.size) / codes.size
    if task == "share":
        return float(abs(p[1] - empirical[1])), est.converged
    return float(0.5 * np.abs(p - empirical).sum()), est.converged


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
        One of :data:`ppdm_edu.mechanisms.ESTIMATION_METHODS` (the unbiased ``"inversion"``,
        ``"projected"``, ``"ibu"`` or ``"ibu-early"``), run by
        :meth:`~ppdm_edu.mechanisms.Mechanism.estimate`.

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
    estimator = _check_estimator(estimator)
    mech = mechanism if isinstance(mechanism, Mechanism) else make_mechanism(mechanism, param, task)
    return _error(task, mech, codes, rng, estimator)[0]


def _theory(mech: Mechanism, task: str, n: int) -> float:
    f = np.array([1 - SHARE, SHARE]) if task == "share" else np.asarray(HISTOGRAM)
    if isinstance(mech, CentralLaplace):
        # exact, no normal approximation: E|Laplace(b)| = b
        return mech.scale / n if task == "share" else 0.5 * mech.k * mech.scale / n
    sd = np.sqrt(np.clip(np.diag(mech.inversion_covariance(f, n)), 0.0, None))
    scale = math.sqrt(2.0 / math.pi)
    return float(scale * sd[1]) if task == "share" else float(0.5 * scale * sd.sum())


def theory_error(task: str, mechanism: str, param: float, n: int) -> float:
    """The expected error of the unbiased estimator (``"inversion"``) in closed form.

    ``E|Z| = σ √(2/π)`` for a normal Z: the share's error is ``√(2/π) sd(p̂₁)``, the
    histogram's ``½ Σ_v √(2/π) sd(p̂_v)``, with the sds from the estimator's covariance
    given the sample (:meth:`~ppdm_edu.mechanisms.Mechanism.inversion_covariance`: Warner 1965;
    Wang et al. 2017 Sec. 4 for GRR and OUE; least squares on the response matrix for the
    additive noises). The central mechanism's error is exact: ``E|Laplace(b)| / n = b / n`` per
    count.

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
    return _theory(make_mechanism(mechanism, param, task), task, n)


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
        return (bool(self.epsilon > epsilon and self.epsilon_at_delta >= delta)
                or bool(self.delta > delta and self.delta_at_epsilon >= epsilon))


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


def _audit(mech: Mechanism, task: str, trials: int, rng) -> AuditedClaim:
    if isinstance(mech, CentralLaplace):
        # the curator's release, audited on what one record changes: one count moved by Δ
        count = LaplaceMechanism(mech.epsilon, bounds=(0.0, mech.sensitivity))
        return audit_claim(count, 0.0, mech.sensitivity, trials=trials, rng=rng)
    # a local randomizer: one person's value, the two ends of the task's range
    return audit_claim(mech, 0, _k(task) - 1, trials=trials, rng=rng)


def audit_mechanism(task: str, mechanism: str, param: float, *, trials: int, rng=None) -> AuditedClaim:
    """:func:`audit_claim` of the mechanism ``mechanism`` at ``param`` on the task's two extreme
    inputs.

    A local randomizer is audited on one person's value, 0 against ``k − 1`` (0 and 1 on the
    share, 0 and 9 on the histogram); the central curator on the one count that a replaced
    record moves (Laplace(Δ/ε) on 0 against Δ).

    Parameters
    ----------
    task : {"share", "histogram"}
        Which task.
    mechanism : str
        A key of :data:`MECHANISMS`.
    param : float
        ε (privacy level for ``"uniform"``).
    trials : int
        Runs per input of each of the two audits.
    rng : None, int or numpy.random.Generator
        Seed of the audits.

    Returns
    -------
    AuditedClaim
        The two 95 % lower bounds.

    Raises
    ------
    TypeError, ValueError
        If an argument is invalid.

    Examples
    --------
    >>> a = audit_mechanism("share", "warner", 1.0, trials=20_000, rng=0)
    >>> bool(a.refutes(1.0)), bool(a.refutes(0.5))
    (False, True)
    """
    task = _check_task(task)
    return _audit(make_mechanism(mechanism, param, task), task, trials, rng)


# ---------------------------------------------------------------------------------------------
# one row of the trade-off table (the panel's bars, the reproduction's rows)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MechanismRow:
    """One mechanism at one parameter on one task: its claim, its errors over the runs, its theory
    and (when asked for) its audit.

    Attributes
    ----------
    task : str
        ``"share"`` or ``"histogram"``.
    mechanism : str
        The key of :data:`MECHANISMS`.
    param : float
        ε (the privacy level for ``"uniform"``).
    estimator : str
        The estimator of every run (:data:`ppdm_edu.mechanisms.ESTIMATION_METHODS`).
    epsilon : float
        The claimed ε.
    delta : float
        The claimed δ.
    unit : str
        The neighbour relation of the claim (:data:`UNIT`).
    errors : tuple of float
        The error of each run (:func:`run_error`'s measure).
    theory : float
        The expected error in closed form (:func:`theory_error`) for the ``"inversion"``
        estimator, NaN for the others.
    converged : bool
        Whether every run's estimate converged
        (:attr:`ppdm_edu.mechanisms.DistributionEstimate.converged`: always for the closed forms,
        never for ``"ibu-early"``).
    audit : AuditedClaim or None
        The audited claim (:func:`audit_mechanism`), None when not asked for.
    """

    task: str
    mechanism: str
    param: float
    estimator: str
    epsilon: float
    delta: float
    unit: str
    errors: tuple
    theory: float
    converged: bool
    audit: AuditedClaim | None = None

    @property
    def error(self) -> float:
        """The mean error over the runs."""
        return float(np.mean(self.errors))

    @property
    def error_sd(self) -> float:
        """The standard deviation of the errors over the runs (NaN for one run)."""
        return float(np.std(self.errors, ddof=1)) if len(self.errors) > 1 else math.nan

    @property
    def runs(self) -> int:
        """The number of runs."""
        return len(self.errors)


def mechanism_row(task: str, mechanism: str, param: float, records, rngs, estimator: str = "inversion",
                  trials: int | None = None, audit_rng=None) -> MechanismRow:
    """Run one mechanism on each run's records with the named estimator, and audit its claim.

    Parameters
    ----------
    task : {"share", "histogram"}
        Which task.
    mechanism : str
        A key of :data:`MECHANISMS`.
    param : float
        ε (privacy level for ``"uniform"``).
    records : sequence of array-like of int
        One run's records each (:func:`task_data`), all of one size ``n``.
    rngs : sequence of (None, int or numpy.random.Generator)
        The source of each run's noise, one per entry of ``records`` (keep them apart from the
        records' own).
    estimator : str, default "inversion"
        One of :data:`ppdm_edu.mechanisms.ESTIMATION_METHODS`.
    trials : int, optional
        Runs per input of each audit (:func:`audit_mechanism`); None: no audit.
    audit_rng : None, int or numpy.random.Generator
        Seed of the audits.

    Returns
    -------
    MechanismRow
        The claim, the errors, the theory and the audit.

    Raises
    ------
    ValueError
        If an argument is invalid, or ``records`` and ``rngs`` differ in length or the runs in
        size.

    Examples
    --------
    >>> records = [task_data("share", 10_000, rng=run) for run in range(3)]
    >>> row = mechanism_row("share", "warner", 1.0, records, [10, 11, 12])
    >>> row.runs, round(row.theory, 4), bool(row.error < 3 * row.theory)
    (3, 0.0077, True)
    """
    task = _check_task(task)
    estimator = _check_estimator(estimator)
    mech = make_mechanism(mechanism, param, task)
    codes = [_check_codes(x, _k(task)) for x in records]
    if not codes or len(codes) != len(rngs) or len({c.size for c in codes}) != 1:
        raise ValueError(f"records and rngs must be equally long (one per run, at least one) and the runs of "
                         f"one size, got {len(codes)} runs of sizes {sorted({c.size for c in codes})} and "
                         f"{len(rngs)} rngs")
    runs = [_error(task, mech, x, rng, estimator) for x, rng in zip(codes, rngs)]
    central = isinstance(mech, CentralLaplace)
    return MechanismRow(
        task=task, mechanism=mechanism, param=float(param), estimator=estimator, epsilon=float(mech.epsilon),
        delta=float(mech.delta), unit=UNIT["central" if central else "local"],
        errors=tuple(error for error, _ in runs),
        theory=_theory(mech, task, codes[0].size) if estimator == "inversion" else math.nan,
        converged=all(converged for _, converged in runs),
        audit=None if trials is None else _audit(mech, task, trials, audit_rng))
