"""The panel of notebook 09: Dinur & Nissim's reconstruction attack, re-run at every move."""
from __future__ import annotations

import functools
import math
import weakref
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np

from ..database_reconstruction import (
    guess_bound,
    l1_program,
    least_squares,
    least_squares_prediction,
    random_queries,
    secret_bits,
)
from ..plots.database_reconstruction import DECODER_STYLE, BitsDrawing, RecoveryCurveDrawing
from ..random_state import spawn_rngs
from ..randomization import UniformNoise
from .panel import Panel, choice, figure_margins, measure_tick_labels_once, slider
from .precompute import AheadCache, slider_neighbours

__all__ = ["ReconstructionAttackPanel"]

#: the error levels E / √n of the least-squares curve (the slider's positions are among them)
CURVE_LEVELS = tuple(k / 8 for k in range(17))
#: the choices of people and of queries per person (m = n, 2n, 4n)
PEOPLE = (50, 100, 200)
QUERIES_PER_PERSON = (1, 2, 4)


@functools.lru_cache(maxsize=16)
def _instance(n: int, per_bit: int, seed: int) -> tuple:
    """The secret, the queries and one draw of unit noise (uniform on (−1, 1)), from three
    independent streams: every error level rescales the same draw, so moving the error slider
    changes the level, not the luck."""
    data_rng, query_rng, noise_rng = spawn_rngs(seed, 3)
    secret = secret_bits(n, data_rng)
    A = random_queries(n, per_bit * n, query_rng)
    unit = UniformNoise.unit_sample(A.shape[0], noise_rng)
    truth = A @ secret.astype(float)
    for arr in (secret, A, unit, truth):
        arr.flags.writeable = False  # shared by every result
    return secret, A, unit, truth


def _answers(n: int, per_bit: int, seed: int, level: float) -> np.ndarray:
    _, _, unit, truth = _instance(n, per_bit, seed)
    return truth + level * math.sqrt(n) * unit


@functools.lru_cache(maxsize=16)
def _least_squares_curve(n: int, per_bit: int, seed: int) -> np.ndarray:
    """Least squares' estimate at every level of :data:`CURVE_LEVELS` (one factorization)."""
    _, A, _, _ = _instance(n, per_bit, seed)
    answers = np.column_stack([_answers(n, per_bit, seed, level) for level in CURVE_LEVELS])
    estimates = least_squares(A, answers)
    estimates.flags.writeable = False
    return estimates


def _estimate(n: int, per_bit: int, seed: int, level: float, decoder: str) -> np.ndarray:
    if decoder == "least-squares" and level in CURVE_LEVELS:
        return _least_squares_curve(n, per_bit, seed)[:, CURVE_LEVELS.index(level)]
    _, A, _, _ = _instance(n, per_bit, seed)
    solve = least_squares if decoder == "least-squares" else l1_program
    return solve(A, _answers(n, per_bit, seed, level))


@dataclass(frozen=True)
class _AttackView:
    n: int
    m: int
    level: float
    decoder: str
    secret: np.ndarray
    guess: np.ndarray
    curve: np.ndarray                  # least squares' share at CURVE_LEVELS
    prediction: np.ndarray | None      # its closed form (None when m <= n + 1)

    @property
    def share(self) -> float:
        return float(np.mean(self.guess == self.secret))

    @property
    def wrong(self) -> int:
        return int(np.count_nonzero(self.guess != self.secret))

    @property
    def bound(self) -> float:
        return self.level * math.sqrt(self.n)


class ReconstructionAttackPanel(Panel):
    """Rebuild a database from noisy counts: n people, m random subset sums, error E, a decoder.

    Every update draws (from the panel's seed: the same at every move) ``n`` secret bits and
    ``m`` random subset-sum queries, answers them with an error uniform on (−E, E)
    (:func:`~ppdm_edu.database_reconstruction.publish` with
    :class:`~ppdm_edu.database_reconstruction.BoundedError`, Dinur & Nissim's model; every error
    level rescales the same draw) and decodes them with least squares or the L1 linear program
    (:func:`~ppdm_edu.database_reconstruction.decode`). Left: every person's bit, crossed where
    the guess is wrong. Right: least squares' recovered share at every E (one factorization for
    all levels), its closed form, and the attack now shown. The read-out gives the ε of the
    Laplace mechanism whose answers have the same root-mean-square error, and what that ε
    promises against any attacker.

    Least squares answers at once. The L1 program (HiGHS) takes up to a few tenths of a second
    at n = 200, m = 800 (``benchmarks/``); while the room looks at it, the error one step right
    and left is solved ahead on a background thread
    (:class:`~ppdm_edu.widgets.precompute.AheadCache`; nothing ahead under Pyodide).

    Parameters
    ----------
    seed : int, default 0
        Root of the secret's, the queries' and the noise's streams.
    **initial
        Initial control values: ``n`` (50, 100 or 200 people), ``queries`` (queries per person:
        1, 2 or 4, so m = n, 2n or 4n), ``error`` (E / √n, 0 to 2) and ``decoder``
        (``"least-squares"`` or ``"l1"``).

    Examples
    --------
    >>> panel = ReconstructionAttackPanel(n=100, queries=4, error=0.25)
    >>> panel.result.share
    1.0
    """

    title = "Reconstruction attack (Dinur & Nissim 2003): rebuild the secret bits from noisy counts"
    figsize = (9.0, 3.8)
    #: the slowest update, the L1 program at n = 200, m = 800, must finish within 2 s; least
    #: squares moves are timed apart (benchmarks/reconstruction_attack.py: 50 ms of CPU, p50)
    latency_target_seconds = 2.0

    def __init__(self, seed: int = 0, **initial):
        self.seed = seed
        self._results = AheadCache(maxsize=128)
        self._drawings: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # figure -> its drawings
        super().__init__(**initial)

    def build_controls(self) -> dict:
        return {
            "n": choice(widgets.Dropdown, options=[(str(n), n) for n in PEOPLE], value=100,
                                  description="n (people)", style={"description_width": "initial"}),
            "queries": choice(widgets.Dropdown, options=[(f"m = {k}n" if k > 1 else "m = n", k) for k in QUERIES_PER_PERSON],
                                        value=4,
                                        description="queries m", style={"description_width": "initial"}),
            "error": slider(widgets.FloatSlider, value=0.5, min=0.0, max=2.0, step=0.25,
                            description="error E / √n", readout_format=".2f"),
            "decoder": choice(widgets.Dropdown, options=[("least squares", "least-squares"), ("L1 linear program", "l1")],
                                        value="least-squares", description="decoder",
                                        style={"description_width": "initial"}),
        }

    def _key(self, n, queries, error, decoder) -> tuple:
        return (int(n), int(queries), round(float(error), 6), decoder, self.seed)

    def compute(self, n, queries, error, decoder):
        if n not in PEOPLE or queries not in QUERIES_PER_PERSON:
            raise ValueError(f"n must be one of 50, 100, 200 and queries 1, 2 or 4 per person; got {n!r}, {queries!r}")
        if decoder not in DECODER_STYLE:
            raise ValueError(f"decoder must be 'least-squares' or 'l1', got {decoder!r}")
        level = float(error)
        if not (math.isfinite(level) and level >= 0):
            raise ValueError(f"the error E / √n must be a number >= 0, got {error!r}")
        return self._results.get(self._key(n, queries, level, decoder),
                                 functools.partial(self._compute, int(n), int(queries), round(level, 6), decoder))

    def _compute(self, n: int, per_bit: int, level: float, decoder: str) -> _AttackView:
        secret, A, _, _ = _instance(n, per_bit, self.seed)
        m = A.shape[0]
        try:
            estimate = _estimate(n, per_bit, self.seed, level, decoder)
        except ImportError as err:  # a Python whose SciPy lacks HiGHS: say so, not a traceback
            raise ValueError(f"the L1 program needs SciPy's HiGHS solver, which this Python lacks ({err}); "
                             "choose least squares") from None
        curve = np.mean((_least_squares_curve(n, per_bit, self.seed) > 0.5) == secret[:, None].astype(bool), axis=0)
        prediction = None
        if m > n + 1:
            prediction = np.array([least_squares_prediction(n, m, lv * math.sqrt(n) / math.sqrt(3))
                                   for lv in CURVE_LEVELS])
        return _AttackView(n, m, level, decoder, secret, (estimate > 0.5).astype(np.uint8), curve, prediction)

    def after_update(self, result) -> None:
        """Solve the L1 program one error step right and left ahead (nothing under Pyodide).

        Parameters
        ----------
        result : _AttackView
            The result now shown.
        """
        if result.decoder != "l1":
            return
        per_bit = result.m // result.n
        ahead = slider_neighbours(self.controls["error"], result.level)
        self._results.prefetch([(self._key(result.n, per_bit, lv, "l1"),
                                 functools.partial(self._compute, result.n, per_bit, round(lv, 6), "l1"))
                                for lv in ahead])

    def draw(self, figure, result) -> None:
        m = figure_margins(figure, left=0.6, bottom=3.2, top=1.8, right=0.8)
        split = 0.44
        left = figure.add_axes((m["left"], m["bottom"], split - m["left"] - 0.02, m["top"] - m["bottom"]))
        right = figure.add_axes((split + 0.08, m["bottom"], m["right"] - split - 0.08, m["top"] - m["bottom"]))
        self._drawings[figure] = (
            BitsDrawing(left, result.secret, result.guess),
            RecoveryCurveDrawing(right, CURVE_LEVELS, result.curve, result.prediction, result.level,
                                 result.share, result.decoder))
        measure_tick_labels_once(figure)

    def figure_key(self, result):
        return result.n   # the rows of the bits grid

    def redraw(self, figure, result) -> bool:
        drawings = self._drawings.get(figure)
        if drawings is None:
            return False
        bits, curve = drawings
        bits.update(result.secret, result.guess)
        curve.update(CURVE_LEVELS, result.curve, result.prediction, result.level, result.share, result.decoder)
        return True

    def describe(self, result) -> str:
        """The figure's text alternative, with the attack's numbers.

        Parameters
        ----------
        result : _AttackView
            What :meth:`compute` returned.

        Returns
        -------
        str
            The title, the attack's result and the figure's description.
        """
        text = super().describe(result)
        return (f"{text} The attack shown: n = {result.n}, m = {result.m}, E = {result.level:.2f} √n, "
                f"{DECODER_STYLE[result.decoder][2]}: {result.share:.0%} of the bits recovered.")

    def summary(self, result) -> str:
        name = DECODER_STYLE[result.decoder][2]
        if result.prediction is not None:
            predicted = least_squares_prediction(result.n, result.m, result.bound / math.sqrt(3))
            predicted_text = f"least squares predicted {predicted:.1%}"
        else:
            predicted_text = "no prediction for m ≤ n + 1"
        key = ('<span style="color:#0072B2" aria-hidden="true">&#9632;</span> secret 1 · '
               '<span style="color:#0072B2" aria-hidden="true">&#9633;</span> secret 0 (both guessed right) · '
               '<span style="color:#D55E00" aria-hidden="true">&#10006;</span> guessed wrong<br>')
        if result.level > 0:
            # the Laplace mechanism with the same root-mean-square error, E/√3 = √2 b; its ε per
            # count for one person's bit changing (sensitivity 1), m of them by basic composition
            eps_query = math.sqrt(6.0) / result.bound
            total = result.m * eps_query
            bound = guess_bound(total)
            promise = "no protection" if bound > 0.999 else f"no attacker gets more than {bound:.1%} of a bit right"
            dp = (f"Laplace noise of this RMS error: ε = {eps_query:.3g} per count, {total:.3g} for all {result.m} "
                  f"(one person's bit; δ = 0): {promise}")
        else:
            dp = "exact counts: ε = ∞"
        return key + (
            f"n = {result.n}, m = {result.m} counts, E = {result.level:.2f} √n = {result.bound:.1f} · "
            f"<b>{name}: {result.share:.0%}</b> of the bits ({result.wrong} wrong; {predicted_text}) · {dp}")
