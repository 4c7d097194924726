"""Reconstruction attacks on published counts: too many accurate answers rebuild the database.

Dinur & Nissim (PODS 2003) model a database as one secret bit per person, ``d ∈ {0, 1}^n``
("has the disease"), and a statistic as a *subset sum*: for a set ``q`` of people, the count
``Σ_{i ∈ q} d_i``. A curator answers each query with an error. Their main theorem (the
polynomial-time attack): if every answer is within ``E = o(√n)`` of the true count, an attacker
who asks ``n log² n`` random queries and solves one linear program rebuilds a database that
agrees with the secret on all but ``o(n)`` bits. Errors of magnitude about ``√n`` are where that
attack stops working; the noise of differential privacy (Dwork, McSherry, Nissim & Smith 2006)
is calibrated to do exactly that, and its guarantee bounds *every* attacker.

The experiment in three steps, as a student would run it:

1. the secret and the questions: :func:`secret_bits`, :func:`random_queries` (``m`` queries,
   each person in each query with probability 1/2; the rows of a 0/1 matrix ``A``);
2. the curator's answers ``a = A d + e``: :func:`publish`, with the error ``e`` of an
   *answering policy*: :class:`BoundedError` (uniform on (−E, E), Dinur & Nissim's model) or one
   of the package's own mechanisms: :class:`LaplacePerQuery` (Laplace noise at ε per answer),
   :class:`LaplaceBudget` (a total ε split over the ``m`` answers by basic composition) and
   :class:`GaussianBudget` (Gaussian noise at a total (ε, δ) by zero-concentrated DP);
3. the attack: :func:`decode` with one of two decoders (:data:`DECODERS`), each a few lines
   beside the paper:

   - ``"least-squares"``: ``x̂ = argmin ‖A x − a‖₂``, rounded at 1/2;
   - ``"l1"``: the linear program ``min ‖A x − a‖₁`` over ``0 ≤ x ≤ 1``, rounded at 1/2.
     Dinur & Nissim's own program asks for any ``x`` with ``‖A x − a‖∞ ≤ E`` and so needs
     ``E``; the L1 program needs no ``E`` (Dwork, McSherry & Talwar 2007).

:func:`attack` runs the three steps and returns an :class:`AttackResult`;
:func:`recovered_shares` runs one secret and one set of queries at many error levels (the same
noise draw, rescaled) for the curves of notebook 09.

The neighbour relation of every privacy statement here is **one person's bit changing**: each
count then moves by at most 1 (sensitivity 1 per query), and ``m`` answers spend the sum of their
ε (basic composition) or of their ρ (zero-concentrated DP, Bun & Steinke 2016). Bounded error has
no ε at all: an answer more than ``E`` away from one database's count can only come from another.

Examples
--------
>>> result = attack(100, 400, BoundedError(2.5), rng=0)      # E = √n / 4
>>> result.recovered
1.0
>>> attack(100, 400, BoundedError(20.0), rng=0).recovered < 0.9   # E = 2 √n
True
"""
from __future__ import annotations

import abc
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy import special

from ._blas import one_blas_thread
from ._validation import check_binary, check_finite_1d, check_integer, check_positive, check_probability
from .random_state import check_random_state, spawn_rngs
from .randomization import GaussianNoise, LaplaceNoise, Noise, UniformNoise

__all__ = ["secret_bits", "random_queries", "publish", "decode", "attack", "recovered_shares",
           "least_squares", "l1_program", "least_squares_prediction", "guess_bound", "zcdp_epsilon",
           "Answering", "BoundedError", "LaplacePerQuery", "LaplaceBudget", "GaussianBudget",
           "Guarantee", "SubsetSumRelease", "Decoding", "AttackResult",
           "DECODERS", "NEIGHBOURS", "MAX_BITS", "MAX_QUERIES"]

#: the most secret bits an attack is run on (bounded work: the L1 program grows with n·m)
MAX_BITS = 1_000
#: the most queries (8 per bit at MAX_BITS)
MAX_QUERIES = 8_000
#: the neighbour relation of every ε and δ in this module
NEIGHBOURS = "one person's bit changes (each count moves by at most 1)"


# ---------------------------------------------------------------------------------------------
# 1. the secret and the questions
# ---------------------------------------------------------------------------------------------
def secret_bits(n: int, rng=None) -> np.ndarray:
    """``n`` secret bits, each 1 with probability 1/2: the database of Dinur & Nissim.

    Parameters
    ----------
    n : int
        People, 1 to :data:`MAX_BITS`.
    rng : None, int or numpy.random.Generator
        Source of the bits (give the data its own stream: :func:`~ppdm_edu.random_state.spawn_rngs`).

    Returns
    -------
    ndarray of uint8, shape (n,)
        The bits.

    Examples
    --------
    >>> secret_bits(8, rng=0).tolist()
    [0, 1, 1, 1, 1, 1, 0, 1]
    """
    n = check_integer(n, "n", minimum=1, maximum=MAX_BITS)
    return check_random_state(rng).integers(0, 2, n, dtype=np.uint8)


def random_queries(n: int, m: int, rng=None) -> np.ndarray:
    """``m`` random subset-sum queries on ``n`` people: each person in each query with probability 1/2.

    Parameters
    ----------
    n : int
        People, 1 to :data:`MAX_BITS`.
    m : int
        Queries, 1 to :data:`MAX_QUERIES`.
    rng : None, int or numpy.random.Generator
        Source of the queries (the attacker's own choice: a stream of its own).

    Returns
    -------
    ndarray of uint8, shape (m, n)
        Row ``j`` marks the people counted by query ``j``.

    Examples
    --------
    >>> random_queries(4, 2, rng=0).tolist()
    [[0, 1, 1, 1], [1, 1, 0, 1]]
    """
    n = check_integer(n, "n", minimum=1, maximum=MAX_BITS)
    m = check_integer(m, "m", minimum=1, maximum=MAX_QUERIES)
    return check_random_state(rng).integers(0, 2, (m, n), dtype=np.uint8)


# ---------------------------------------------------------------------------------------------
# 2. the curator's answers: an answering policy (a registry of small objects, not an if-chain)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Guarantee:
    """The privacy an answering policy gives to ``m`` answers, for :data:`NEIGHBOURS`.

    Attributes
    ----------
    epsilon : float
        ε of all ``m`` answers together (``inf``: no differential privacy).
    delta : float
        δ of the same statement (0 for pure ε).
    per_query_epsilon : float
        ε of one answer (``inf`` when there is none; for the Gaussian, the ε one answer would
        have alone at the same δ).
    neighbours : str
        The neighbour relation: one person's bit changes.
    """

    epsilon: float
    delta: float
    per_query_epsilon: float
    neighbours: str = NEIGHBOURS

    def guess_bound(self) -> float:
        """The most any attacker can get right of one bit: :func:`guess_bound` of (ε, δ).

        Returns
        -------
        float
            ``(e^ε + δ) / (1 + e^ε)`` (1 without a finite ε).
        """
        return guess_bound(self.epsilon, self.delta)


class Answering(abc.ABC):
    """How a curator answers ``m`` subset-sum queries: the error of each answer and what it buys.

    A policy gives the law of the error added to each count (a kind of
    :class:`~ppdm_edu.randomization.Noise` and its scale for ``m`` answers, 0 for exact answers)
    and the :class:`Guarantee` of the ``m`` answers. Callers never branch on its type.
    """

    #: the kind of noise (a scale family: the error is ``scale * noise_kind.unit_sample``)
    noise_kind: ClassVar[type[Noise]]

    @abc.abstractmethod
    def scale(self, m: int) -> float:
        """The noise's scale (α, b or σ) when ``m`` queries are answered; 0 for exact answers.

        Parameters
        ----------
        m : int
            Queries answered.

        Returns
        -------
        float
            The scale, >= 0.
        """

    @abc.abstractmethod
    def guarantee(self, m: int) -> Guarantee:
        """The privacy of ``m`` answers, for :data:`NEIGHBOURS`.

        Parameters
        ----------
        m : int
            Queries answered.

        Returns
        -------
        Guarantee
            ε, δ and the per-query ε.
        """

    @property
    @abc.abstractmethod
    def label(self) -> str:
        """A short name with the parameter, e.g. ``"Laplace, ε = 1 per query"``."""

    def noise(self, m: int) -> Noise | None:
        """The error's law for ``m`` answers (None: exact answers).

        Parameters
        ----------
        m : int
            Queries answered.

        Returns
        -------
        Noise or None
            A noise object of :attr:`noise_kind` at :meth:`scale`.
        """
        scale = self.scale(_check_m(m))
        kind = self.noise_kind
        return kind(**{kind.scale_name: scale}) if scale > 0 else None

    def rms_error(self, m: int) -> float:
        """The root-mean-square error of one answer: the noise's standard deviation.

        Parameters
        ----------
        m : int
            Queries answered.

        Returns
        -------
        float
            The error a user of one count sees, in counts.
        """
        noise = self.noise(m)
        return 0.0 if noise is None else math.sqrt(noise.var)

    def errors(self, m: int, rng=None) -> np.ndarray:
        """The errors of ``m`` answers: ``scale(m)`` times one draw of the unit noise.

        Parameters
        ----------
        m : int
            Queries answered.
        rng : None, int or numpy.random.Generator
            Source of the noise.

        Returns
        -------
        ndarray of float, shape (m,)
            The error added to each count.
        """
        m = _check_m(m)
        return self.scale(m) * self.noise_kind.unit_sample(m, rng)


@dataclass(frozen=True)
class BoundedError(Answering):
    """Dinur & Nissim's curator: every answer within ``bound`` of the truth, here uniform on (−E, E).

    No ε: a count more than ``bound`` away from one database's answer can only come from another.

    Parameters
    ----------
    bound : float
        E >= 0 (0: exact answers).

    Examples
    --------
    >>> BoundedError(5.0).guarantee(400).epsilon
    inf
    """

    bound: float
    noise_kind: ClassVar[type[Noise]] = UniformNoise

    def __post_init__(self):
        object.__setattr__(self, "bound", check_positive(self.bound, "bound", allow_zero=True))

    def scale(self, m: int) -> float:  # noqa: D102 (documented on the base)
        return self.bound

    def guarantee(self, m: int) -> Guarantee:  # noqa: D102
        return Guarantee(math.inf, 0.0, math.inf)

    @property
    def label(self) -> str:  # noqa: D102
        return f"error uniform on (−E, E), E = {self.bound:g}"


@dataclass(frozen=True)
class LaplacePerQuery(Answering):
    """The Laplace mechanism on every count: noise Laplace(1/ε), ε per answer, m ε in total.

    Sensitivity 1 per count (:data:`NEIGHBOURS`); ``m`` answers compose to ``m ε`` (basic
    composition; Dwork, McSherry, Nissim & Smith 2006), δ = 0.

    Parameters
    ----------
    epsilon : float
        ε of one answer, > 0.

    Examples
    --------
    >>> LaplacePerQuery(0.5).guarantee(400).epsilon
    200.0
    """

    epsilon: float
    noise_kind: ClassVar[type[Noise]] = LaplaceNoise

    def __post_init__(self):
        object.__setattr__(self, "epsilon", check_positive(self.epsilon, "epsilon"))

    def scale(self, m: int) -> float:  # noqa: D102
        return 1.0 / self.epsilon

    def guarantee(self, m: int) -> Guarantee:  # noqa: D102
        return Guarantee(_check_m(m) * self.epsilon, 0.0, self.epsilon)

    @property
    def label(self) -> str:  # noqa: D102
        return f"Laplace, ε = {self.epsilon:g} per query"


@dataclass(frozen=True)
class LaplaceBudget(Answering):
    """A total ε split evenly over the ``m`` answers (basic composition): Laplace(m/ε) on each count.

    Parameters
    ----------
    epsilon : float
        ε of all the answers together, > 0.

    Examples
    --------
    >>> LaplaceBudget(1.0).scale(400)
    400.0
    """

    epsilon: float
    noise_kind: ClassVar[type[Noise]] = LaplaceNoise

    def __post_init__(self):
        object.__setattr__(self, "epsilon", check_positive(self.epsilon, "epsilon"))

    def scale(self, m: int) -> float:  # noqa: D102
        return _check_m(m) / self.epsilon

    def guarantee(self, m: int) -> Guarantee:  # noqa: D102
        return Guarantee(self.epsilon, 0.0, self.epsilon / _check_m(m))

    @property
    def label(self) -> str:  # noqa: D102
        return f"Laplace, ε = {self.epsilon:g} in total"


@dataclass(frozen=True)
class GaussianBudget(Answering):
    """A total (ε, δ) for the ``m`` answers by zero-concentrated DP: Gaussian noise N(0, σ²) on each count.

    One Gaussian answer of sensitivity 1 is ``1 / (2σ²)``-zCDP, ``m`` of them ``m / (2σ²)``
    (zCDP adds up), and ρ-zCDP implies ``(ρ + 2 √(ρ ln(1/δ)), δ)``-DP (Bun & Steinke 2016,
    Prop. 1.3 and 1.6, Lemma 2.3). Solved for the ρ that reaches ``epsilon`` at ``delta``:
    ``ρ = (√(ε + ln(1/δ)) − √ln(1/δ))²`` and ``σ = √(m / (2ρ))``: the noise grows like √m, not
    like m as with :class:`LaplaceBudget`.

    Parameters
    ----------
    epsilon : float
        ε of all the answers together, > 0.
    delta : float, default 1e-5
        δ of the statement, in (0, 1).

    Examples
    --------
    >>> round(GaussianBudget(1.0, 1e-5).scale(400), 1)
    98.0
    """

    epsilon: float
    delta: float = 1e-5
    noise_kind: ClassVar[type[Noise]] = GaussianNoise

    def __post_init__(self):
        object.__setattr__(self, "epsilon", check_positive(self.epsilon, "epsilon"))
        object.__setattr__(self, "delta", check_probability(self.delta, "delta", open_interval=True))

    @property
    def rho(self) -> float:
        """The total ρ (zCDP) that gives ``epsilon`` at ``delta``."""
        log_term = math.log(1.0 / self.delta)
        return (math.sqrt(self.epsilon + log_term) - math.sqrt(log_term)) ** 2

    def scale(self, m: int) -> float:  # noqa: D102
        return math.sqrt(_check_m(m) / (2.0 * self.rho))

    def guarantee(self, m: int) -> Guarantee:  # noqa: D102
        return Guarantee(self.epsilon, self.delta, zcdp_epsilon(self.rho / _check_m(m), self.delta))

    @property
    def label(self) -> str:  # noqa: D102
        return f"Gaussian (zCDP), ε = {self.epsilon:g} in total, δ = {self.delta:.0e}"


def zcdp_epsilon(rho: float, delta: float) -> float:
    """The ε of a ρ-zCDP release at ``delta``: ``ρ + 2 √(ρ ln(1/δ))`` (Bun & Steinke 2016, Prop. 1.3).

    Parameters
    ----------
    rho : float
        ρ, > 0.
    delta : float
        δ, in (0, 1).

    Returns
    -------
    float
        ε.

    Examples
    --------
    >>> rho = GaussianBudget(1.0, 1e-5).rho
    >>> round(zcdp_epsilon(rho, 1e-5), 9)
    1.0
    """
    rho = check_positive(rho, "rho")
    delta = check_probability(delta, "delta", open_interval=True)
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def guess_bound(epsilon: float, delta: float = 0.0) -> float:
    """The most often any attacker can guess one secret bit right under an (ε, δ) guarantee.

    A bit equally likely 0 or 1, the other bits known: telling the two neighbouring databases
    apart from the release is a test whose errors α, β satisfy ``α + e^ε β ≥ 1 − δ`` and
    ``e^ε α + β ≥ 1 − δ``, so the share of right guesses ``1 − (α + β)/2`` is at most
    ``(e^ε + δ) / (1 + e^ε)`` (Kairouz, Oh & Viswanath 2015). Randomized response on the bit
    itself with θ = e^ε / (1 + e^ε) meets it exactly.

    Parameters
    ----------
    epsilon : float
        ε >= 0 (``inf``: no bound).
    delta : float, default 0
        δ in [0, 1].

    Returns
    -------
    float
        The bound, in [1/2, 1].

    Examples
    --------
    >>> round(guess_bound(1.0), 4)
    0.7311
    >>> guess_bound(float("inf"))
    1.0
    """
    delta = check_probability(delta, "delta")
    if isinstance(epsilon, (int, float)) and not isinstance(epsilon, bool) and epsilon == math.inf:
        return 1.0
    epsilon = check_positive(epsilon, "epsilon", allow_zero=True)
    return min(1.0, (1.0 + delta * math.exp(-epsilon)) / (1.0 + math.exp(-epsilon)))


@dataclass(frozen=True)
class SubsetSumRelease:
    """What the curator publishes: the queries and their noisy answers, and how they were answered.

    Attributes
    ----------
    queries : ndarray of uint8, shape (m, n)
        The queries (0/1 rows).
    answers : ndarray of float, shape (m,)
        The noisy counts.
    answering : Answering
        The policy that answered them (public, as a DP mechanism's noise is).
    """

    queries: np.ndarray
    answers: np.ndarray
    answering: Answering

    @property
    def n(self) -> int:
        """People."""
        return int(self.queries.shape[1])

    @property
    def m(self) -> int:
        """Queries."""
        return int(self.queries.shape[0])

    @property
    def guarantee(self) -> Guarantee:
        """The privacy of the release (:meth:`Answering.guarantee` of its ``m``)."""
        return self.answering.guarantee(self.m)


def publish(bits, queries, answering: Answering, rng=None) -> SubsetSumRelease:
    """Answer every query: the true count ``A d`` plus the policy's error.

    Parameters
    ----------
    bits : array-like of 0/1, shape (n,)
        The secret.
    queries : array-like of 0/1, shape (m, n)
        The queries (:func:`random_queries`).
    answering : Answering
        How the counts are answered.
    rng : None, int or numpy.random.Generator
        Source of the noise (a stream of its own, never the data's).

    Returns
    -------
    SubsetSumRelease
        The queries and their answers.

    Raises
    ------
    TypeError
        If ``answering`` is not an :class:`Answering`.
    ValueError
        If the bits or the queries are not 0/1, or their sizes disagree.

    Examples
    --------
    >>> release = publish([1, 0, 1], [[1, 1, 0], [1, 1, 1]], BoundedError(0.0))
    >>> release.answers.tolist()
    [1.0, 2.0]
    """
    d = _check_bits(bits)
    A = _check_queries(queries, d.size)
    answering = _check_answering(answering)
    answers = A @ d.astype(float) + answering.errors(A.shape[0], rng)
    return SubsetSumRelease(A, answers, answering)


# ---------------------------------------------------------------------------------------------
# 3. the attack: two decoders, each beside the paper
# ---------------------------------------------------------------------------------------------
def least_squares(queries, answers) -> np.ndarray:
    """The database that explains the answers best in squares: ``argmin_x ‖A x − a‖₂`` (numpy's lstsq).

    With several columns of answers (one per error level), each column is solved: one
    factorization of ``A`` serves all.

    Parameters
    ----------
    queries : array-like of 0/1, shape (m, n)
        ``A``.
    answers : array-like of float, shape (m,) or (m, k)
        ``a`` (or ``k`` answer vectors side by side).

    Returns
    -------
    ndarray of float, shape (n,) or (n, k)
        The continuous estimate (round it at 1/2 to guess the bits).

    Examples
    --------
    >>> least_squares([[1, 0], [1, 1], [0, 1]], [1.0, 1.0, 0.0]).round(6).tolist()
    [1.0, 0.0]
    """
    A = _check_queries(queries)
    a = _check_answers(answers, A.shape[0])
    with one_blas_thread():  # a small solve: BLAS threads only cost (ppdm_edu._blas)
        estimate, *_ = np.linalg.lstsq(A.astype(float), a, rcond=None)
    return estimate


def l1_program(queries, answers) -> np.ndarray:
    """The database in [0, 1]^n that explains the answers best in absolute errors: a linear program.

    ``min Σ_j |(A x)_j − a_j|`` over ``0 ≤ x ≤ 1``, written with the residual split in its
    positive and negative parts ``A x − u + v = a``, ``u, v ≥ 0``, ``min Σ (u + v)``, and
    solved by HiGHS (``scipy.optimize.linprog(method="highs")``). Dinur & Nissim's program is the
    same with ``|(A x)_j − a_j| ≤ E`` for every ``j`` as constraints instead of an objective.

    Parameters
    ----------
    queries : array-like of 0/1, shape (m, n)
        ``A``.
    answers : array-like of float, shape (m,)
        ``a``.

    Returns
    -------
    ndarray of float, shape (n,)
        The continuous estimate in [0, 1] (round it at 1/2 to guess the bits).

    Raises
    ------
    RuntimeError
        If HiGHS reports no optimum (it always has one: the program is feasible and bounded).

    Examples
    --------
    >>> l1_program([[1, 0], [1, 1], [0, 1]], [1.0, 1.0, 0.0]).round(6).tolist()
    [1.0, 0.0]
    """
    from scipy import sparse
    from scipy.optimize import linprog

    A = _check_queries(queries)
    a = _check_answers(answers, A.shape[0], one_column=True)
    m, n = A.shape
    I = sparse.identity(m, format="csr")  # noqa: E741 (the identity, as in the equation)
    constraints = sparse.hstack([sparse.csr_matrix(A, dtype=float), -I, I], format="csc")
    cost = np.concatenate([np.zeros(n), np.ones(2 * m)])
    bounds = [(0.0, 1.0)] * n + [(0.0, None)] * (2 * m)
    result = linprog(cost, A_eq=constraints, b_eq=a, bounds=bounds, method="highs")
    if result.status != 0:
        raise RuntimeError(f"HiGHS found no optimum of the L1 program ({result.message})")
    return np.clip(result.x[:n], 0.0, 1.0)


#: the decoders by name: ``(queries, answers) -> continuous estimate``
DECODERS: dict[str, Callable[..., np.ndarray]] = {"least-squares": least_squares, "l1": l1_program}


@dataclass(frozen=True)
class Decoding:
    """A decoder's guess of the secret.

    Attributes
    ----------
    decoder : str
        Its name (a key of :data:`DECODERS`).
    estimate : ndarray of float, shape (n,)
        The continuous estimate.
    bits : ndarray of uint8, shape (n,)
        The guess: the estimate rounded at 1/2.
    """

    decoder: str
    estimate: np.ndarray
    bits: np.ndarray


def decode(queries, answers, decoder: str = "least-squares") -> Decoding:
    """The attacker's guess: a decoder's estimate, rounded at 1/2 (as Dinur & Nissim round).

    Parameters
    ----------
    queries : array-like of 0/1, shape (m, n)
        The published queries.
    answers : array-like of float, shape (m,)
        Their published answers.
    decoder : {"least-squares", "l1"}
        :data:`DECODERS`.

    Returns
    -------
    Decoding
        The estimate and the guessed bits.

    Raises
    ------
    ValueError
        If ``decoder`` is unknown, or the queries or answers are malformed.

    Examples
    --------
    >>> decode([[1, 0], [1, 1], [0, 1]], [1.2, 0.9, 0.1], "l1").bits.tolist()
    [1, 0]
    """
    solve = _check_decoder(decoder)
    estimate = solve(queries, answers)
    return Decoding(decoder, estimate, (estimate > 0.5).astype(np.uint8))


@dataclass(frozen=True)
class AttackResult:
    """One attack: the secret, the release, the guess and how much of the secret it recovered.

    Attributes
    ----------
    secret : ndarray of uint8, shape (n,)
        The true bits.
    release : SubsetSumRelease
        What the curator published.
    decoding : Decoding
        The attacker's guess.
    """

    secret: np.ndarray
    release: SubsetSumRelease
    decoding: Decoding

    @property
    def recovered(self) -> float:
        """The share of bits guessed right (1/2 is a coin's)."""
        return float(np.mean(self.decoding.bits == self.secret))

    @property
    def wrong(self) -> int:
        """How many bits are guessed wrong."""
        return int(np.count_nonzero(self.decoding.bits != self.secret))

    @property
    def rms_error(self) -> float:
        """The measured root-mean-square error of the published answers."""
        truth = self.release.queries @ self.secret.astype(float)
        return float(np.sqrt(np.mean((self.release.answers - truth) ** 2)))


def attack(n: int, m: int, answering: Answering, decoder: str = "least-squares", rng=None) -> AttackResult:
    """The whole experiment: a secret, ``m`` random queries, the curator's answers, the guess.

    The secret, the queries and the noise come from three independent streams of ``rng``
    (:func:`~ppdm_edu.random_state.spawn_rngs`): the noise is never a function of the data.

    Parameters
    ----------
    n : int
        People (secret bits), 1 to :data:`MAX_BITS`.
    m : int
        Queries, 1 to :data:`MAX_QUERIES` (Dinur & Nissim: about ``n log² n``; here a few per bit).
    answering : Answering
        How the curator answers.
    decoder : {"least-squares", "l1"}
        :data:`DECODERS`.
    rng : None, int or numpy.random.Generator
        Root of the three streams.

    Returns
    -------
    AttackResult
        The secret, the release and the guess (``.recovered``: the share right).

    Examples
    --------
    >>> attack(50, 200, LaplacePerQuery(1.0), "l1", rng=1).recovered
    1.0
    """
    n = check_integer(n, "n", minimum=1, maximum=MAX_BITS)
    m = check_integer(m, "m", minimum=1, maximum=MAX_QUERIES)
    answering = _check_answering(answering)
    _check_decoder(decoder)
    data_rng, query_rng, noise_rng = spawn_rngs(rng, 3)
    secret = secret_bits(n, data_rng)
    release = publish(secret, random_queries(n, m, query_rng), answering, noise_rng)
    return AttackResult(secret, release, decode(release.queries, release.answers, decoder))


def recovered_shares(n: int, m: int, answerings: Sequence[Answering], decoder: str = "least-squares",
                     rng=None) -> np.ndarray:
    """The share of bits recovered under each policy, on one secret and one set of queries.

    Every policy of one noise kind rescales the *same* unit noise draw (common random numbers:
    a curve over error levels shows the levels, not the luck of each draw); least squares solves
    all of them with one factorization. For one release and its details use :func:`attack`.

    Parameters
    ----------
    n : int
        People, 1 to :data:`MAX_BITS`.
    m : int
        Queries, 1 to :data:`MAX_QUERIES`.
    answerings : sequence of Answering
        The policies (e.g. ``[BoundedError(t * √n) for t in levels]``), at most 1,000.
    decoder : {"least-squares", "l1"}
        :data:`DECODERS`.
    rng : None, int or numpy.random.Generator
        Root of the secret's, the queries' and the noise's streams.

    Returns
    -------
    ndarray of float, shape (len(answerings),)
        The share of the ``n`` bits each policy's answers give away to the decoder.

    Examples
    --------
    >>> exact, noisy = recovered_shares(100, 400, [BoundedError(0.0), BoundedError(100.0)], rng=0)
    >>> float(exact), bool(noisy < 0.7)       # E = 0, and E = 10 √n: about a coin's
    (1.0, True)
    """
    n = check_integer(n, "n", minimum=1, maximum=MAX_BITS)
    m = check_integer(m, "m", minimum=1, maximum=MAX_QUERIES)
    if isinstance(answerings, Answering) or not isinstance(answerings, Sequence) or not answerings:
        raise TypeError(f"answerings must be a non-empty list of Answering policies, got {answerings!r}"[:300])
    policies = [_check_answering(a, "answerings[]") for a in answerings]
    if len(policies) > 1_000:
        raise ValueError(f"answerings holds {len(policies)} policies; at most 1,000 in one call")
    solve = _check_decoder(decoder)
    data_rng, query_rng, noise_rng = spawn_rngs(rng, 3)
    secret = secret_bits(n, data_rng)
    A = random_queries(n, m, query_rng)
    truth = A @ secret.astype(float)
    # one unit draw per kind of noise, in a fixed order of kinds (independent of the list's order)
    kinds = sorted({type(p).noise_kind for p in policies}, key=lambda k: k.kind)
    streams = dict(zip(kinds, spawn_rngs(noise_rng, len(kinds))))
    units = {kind: kind.unit_sample(m, streams[kind]) for kind in kinds}
    answers = np.stack([truth + p.scale(m) * units[p.noise_kind] for p in policies], axis=1)
    if solve is least_squares:
        estimates = least_squares(A, answers)            # one factorization for every column
    else:
        estimates = np.stack([solve(A, answers[:, k]) for k in range(len(policies))], axis=1)
    return np.mean((estimates > 0.5) == secret[:, None].astype(bool), axis=0)


# ---------------------------------------------------------------------------------------------
# the closed form beside the simulation
# ---------------------------------------------------------------------------------------------
def least_squares_prediction(n: int, m: int, sigma: float) -> float:
    """The share of bits least squares recovers, predicted: ``Φ(√(m − n − 1) / (4σ))``.

    Least squares errs by ``(AᵀA)⁻¹Aᵀe``. Away from the all-ones direction (which the answers
    pin down), ``A`` is a ±1/2 matrix, whose Gram matrix has an inverse of mean
    ``4 I / (m − n − 1)`` (the inverse Wishart, for Gaussian entries of variance 1/4); so each
    bit's estimate is off by about ``N(0, 4σ² / (m − n − 1))``, and rounding at 1/2 is right with
    probability ``Φ(1 / (2 s))``. An approximation (normal errors, Gaussian design), checked
    against the simulation in notebook 09 and the reproduction. With ``m = c n`` queries the
    error per bit is about ``σ / √n``: it vanishes when ``σ = o(√n)``, and is a constant at
    ``σ ≈ √n``, which leaves a constant share of the bits wrong.

    Parameters
    ----------
    n : int
        People, >= 1.
    m : int
        Queries, > n + 1.
    sigma : float
        Standard deviation of each answer's error, >= 0.

    Returns
    -------
    float
        The predicted share, in [1/2, 1].

    Raises
    ------
    ValueError
        If ``m <= n + 1`` (least squares then has no unique, stable solution) or ``sigma < 0``.

    Examples
    --------
    >>> round(least_squares_prediction(200, 800, 200 ** 0.5 / 3 ** 0.5), 3)   # E = √n, uniform
    0.773
    """
    n = check_integer(n, "n", minimum=1, maximum=MAX_BITS)
    m = check_integer(m, "m", minimum=1, maximum=MAX_QUERIES)
    if m <= n + 1:
        raise ValueError(f"m must be larger than n + 1 = {n + 1} for the prediction, got m = {m}")
    sigma = check_positive(sigma, "sigma", allow_zero=True)
    if sigma == 0.0:
        return 1.0
    s = 2.0 * sigma / math.sqrt(m - n - 1)
    return float(special.ndtr(1.0 / (2.0 * s)))


# ---------------------------------------------------------------------------------------------
# checks
# ---------------------------------------------------------------------------------------------
def _check_m(m) -> int:
    return check_integer(m, "m", minimum=1, maximum=MAX_QUERIES)


def _check_bits(bits) -> np.ndarray:
    d = check_binary(bits, "bits")
    if d.ndim != 1:
        raise ValueError(f"bits must be one 0/1 value per person (a 1-D array), got shape {d.shape}")
    check_integer(d.size, "n (the number of bits)", maximum=MAX_BITS)
    return d


def _check_queries(queries, n: int | None = None) -> np.ndarray:
    A = check_binary(queries, "queries")
    if A.ndim != 2:
        raise ValueError(f"queries must be a 0/1 matrix (one row per query), got shape {A.shape}")
    m, cols = A.shape
    check_integer(m, "m (the number of queries)", maximum=MAX_QUERIES)
    check_integer(cols, "n (the columns of queries)", maximum=MAX_BITS)
    if n is not None and cols != n:
        raise ValueError(f"queries has {cols} columns but there are {n} bits: one column per person")
    return A


def _check_answers(answers, m: int, one_column: bool = False) -> np.ndarray:
    arr = np.asarray(answers)
    if arr.ndim == 2 and not one_column:
        if arr.shape[0] != m or arr.shape[1] == 0:
            raise ValueError(f"answers must have one row per query ({m}), got shape {arr.shape}")
        return np.column_stack([check_finite_1d(arr[:, k], "answers") for k in range(arr.shape[1])])
    a = check_finite_1d(answers, "answers")
    if a.size != m:
        raise ValueError(f"answers must hold one count per query ({m}), got {a.size}")
    return a


def _check_answering(answering, name: str = "answering") -> Answering:
    if not isinstance(answering, Answering):
        raise TypeError(f"{name} must be an answering policy (BoundedError, LaplacePerQuery, LaplaceBudget, "
                        f"GaussianBudget), got {type(answering).__name__} {answering!r}"[:300])
    return answering


def _check_decoder(decoder) -> Callable[..., np.ndarray]:
    if not isinstance(decoder, str) or decoder not in DECODERS:
        raise ValueError(f"decoder must be one of {', '.join(map(repr, DECODERS))}, got {decoder!r}")
    return DECODERS[decoder]
