"""Agrawal & Srikant (SIGMOD 2000), Fig. 2: reconstructing the original distribution.

Setting of the paper (Sec. 3, "Empirical Evaluation"): the "plateau" and "triangles"
distributions on [0, 1], n = 10,000 points, Gaussian noise sigma = 0.25 or uniform noise on
[-0.5, 0.5], reconstruction with partition width 0.05.

The paper shows the curves only; it gives no distance. We measure the total-variation (TV)
distance to the original values' interval distribution of

* the randomized values (:func:`~ppdm_edu.reconstruction.sample_total_variation`: both samples
  counted on the 0.05 grid extended to cover them, so randomized mass outside [0, 1] counts), and
* the reconstructed distribution (iterative Bayes of the paper and EM of Agrawal & Aggarwal 2001),

and check the paper's qualitative claim: the reconstruction is much closer to the original
than the randomized data (our bar: at most half the randomized TV).

``python -m ppdm_edu reproduce as2000-reconstruction [--quick|--full]``
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_integer
from ..datasets import plateau, triangles
from ..random_state import spawn_rngs
from ..randomization import GaussianNoise, Noise, UniformNoise, perturb
from ..reconstruction import (
    DEFAULT_TOL,
    MAX_ITER,
    Reconstruction,
    interval_distribution,
    reconstruct,
    sample_total_variation,
    total_variation,
)
from .report import Comparison, Reproduction, check_plan, documented_as, prepare_output, run_reproduction
from .shapes import Exactly, Float, Int, Record, result_shape
from .tasks import Task, root_seed, run_tasks

__all__ = [
    "FIG2_NOISES",
    "FIG2_SHAPES",
    "Fig2Case",
    "fig2_case",
    "fig2_distances",
    "error_grid",
    "plan",
    "assemble",
    "reproduce",
]

FIG2_SHAPES = {"plateau": plateau, "triangles": triangles}
FIG2_NOISES = {"gaussian": GaussianNoise(0.25), "uniform": UniformNoise(0.5)}
FIG2_N = 10_000
FIG2_WIDTH = 0.05
FIG2_BOUNDS = (0.0, 1.0)


def _shape(name: str):
    try:
        return FIG2_SHAPES[name]
    except KeyError:
        raise ValueError(f"unknown shape {name!r}; allowed: {', '.join(FIG2_SHAPES)}") from None


def _noise(noise) -> Noise:
    if isinstance(noise, Noise):
        return noise
    try:
        return FIG2_NOISES[noise]
    except KeyError:
        raise ValueError(
            f"unknown noise {noise!r}; allowed: {', '.join(FIG2_NOISES)} or a Noise object"
        ) from None


@dataclass(frozen=True, eq=False)
class Fig2Case:
    """One panel of Fig. 2: the data, both reconstructions and their TV distances.

    Returned by :func:`fig2_case`. All distances are total-variation (TV) distances, from 0
    (same distribution) to 1 (disjoint), on the intervals of width 0.05 on [0, 1] that the
    reconstruction uses (Sec. 3 of Agrawal & Srikant 2000).

    Attributes
    ----------
    shape : {"plateau", "triangles"}
        The original distribution (the two shapes of Fig. 2).
    noise : Noise
        The randomizing noise: ``GaussianNoise(0.25)``, ``UniformNoise(0.5)`` (the paper's
        settings) or the Noise object given.
    x : ndarray of float, shape (n,)
        The original values, in [0, 1].
    w : ndarray of float, shape (n,)
        The randomized values ``w = x + y`` (Sec. 2 of the paper); they may leave [0, 1].
    bayes : Reconstruction
        The paper's iterative Bayes reconstruction (Sec. 3, Eq. 3) from `w`.
    em : Reconstruction
        The EM reconstruction of Agrawal & Aggarwal (2001) from `w`, on the same intervals.
    truth : ndarray of float, shape (m,)
        The interval distribution of the original values `x`: the "Original" curve of Fig. 2.
    tv_randomized : float
        TV distance between the randomized and the original values (the "Randomized" curve
        against "Original"), counted on the grid extended to cover `w`.
    tv_bayes : float
        TV distance between the Bayes reconstruction and `truth`.
    tv_em : float
        TV distance between the EM reconstruction and `truth`.
    tv_bayes_em : float
        TV distance between the two reconstructions.

    Examples
    --------
    >>> case = fig2_case("plateau", "gaussian", n=2_000, rng=1)
    >>> case.x.shape == case.w.shape, len(case.truth) == len(case.edges) - 1
    (True, True)
    """

    shape: str
    noise: Noise
    x: np.ndarray
    w: np.ndarray
    bayes: Reconstruction
    em: Reconstruction
    truth: np.ndarray  # interval distribution of the original values
    tv_randomized: float
    tv_bayes: float
    tv_em: float
    tv_bayes_em: float

    @property
    def edges(self) -> np.ndarray:
        """Interval boundaries of the reconstructions and of `truth`.

        Returns
        -------
        ndarray of float, shape (m + 1,)
            ``0, width, 2 width, ..., 1``: interval ``p`` is ``[edges[p], edges[p+1])``
            (the edges of the Bayes reconstruction; the EM one uses the same grid).
        """
        return self.bayes.edges


def fig2_case(shape: str = "plateau", noise="gaussian", n: int = FIG2_N,
              width: float = FIG2_WIDTH, rng=0, tol: float = DEFAULT_TOL,
              keep_history: bool = False) -> Fig2Case:
    """Generate, randomize and reconstruct one Fig. 2 panel.

    Draws ``n`` original values from `shape` on [0, 1], adds `noise` (Sec. 2 of Agrawal &
    Srikant 2000), reconstructs the original distribution with the paper's iterative Bayes
    (Sec. 3, Eq. 3) and with EM (Agrawal & Aggarwal 2001) on intervals of width `width`, and
    measures the TV distances of Fig. 2's curves to the original one.

    ``rng`` (int, None, SeedSequence or Generator) is split into two independent streams
    (:func:`~ppdm_edu.random_state.spawn_rngs`): one for the data, one for the noise; the same
    seed gives the same numbers.

    Parameters
    ----------
    shape : {"plateau", "triangles"}, default "plateau"
        The original distribution (the two shapes of Fig. 2).
    noise : {"gaussian", "uniform"} or Noise, default "gaussian"
        ``"gaussian"``: ``GaussianNoise(0.25)``; ``"uniform"``: ``UniformNoise(0.5)``, i.e.
        uniform on [-0.5, 0.5] (the paper's two settings); or any Noise object.
    n : int, default 10_000
        Number of records (the paper: 10,000).
    width : float, default 0.05
        Width of the reconstruction's intervals on [0, 1] (the paper: 0.05, i.e. 20 intervals).
    rng : int, None, numpy.random.SeedSequence or numpy.random.Generator, default 0
        Seed of the data and noise streams; None gives fresh entropy.
    tol : float, default 0.01
        Stopping threshold of both reconstructions: the chi^2 statistic between successive
        estimates at most ``tol`` times the 95 % critical value (the paper: 1 %).
    keep_history : bool, default False
        Keep the estimate after every iteration in ``bayes.history`` and ``em.history`` (for
        animations; costs memory).

    Returns
    -------
    Fig2Case
        The data, both reconstructions, the original interval distribution and the TV
        distances.

    Raises
    ------
    ValueError
        If `shape` or `noise` is not one of the names above, or an argument is out of the
        range :func:`~ppdm_edu.reconstruction.reconstruct` accepts.

    Examples
    --------
    >>> case = fig2_case("triangles", "uniform", n=2_000, rng=0)
    >>> bool(case.tv_bayes < case.tv_randomized)
    True
    """
    noise = _noise(noise)
    data_rng, noise_rng = spawn_rngs(rng)
    x = _shape(shape)(n, rng=data_rng)
    w = perturb(x, noise, rng=noise_rng)
    kwargs: dict[str, Any] = dict(bounds=FIG2_BOUNDS, width=width, tol=tol, keep_history=keep_history)
    bayes = reconstruct(w, noise, method="bayes", **kwargs)
    em = reconstruct(w, noise, method="em", **kwargs)
    truth = interval_distribution(x, bayes.edges)
    return Fig2Case(
        shape=shape, noise=noise, x=x, w=w, bayes=bayes, em=em, truth=truth,
        tv_randomized=sample_total_variation(x, w, bayes.edges),
        tv_bayes=total_variation(bayes.probabilities, truth),
        tv_em=total_variation(em.probabilities, truth),
        tv_bayes_em=total_variation(bayes.probabilities, em.probabilities),
    )


@result_shape(lambda kw: Record(
    shape=Exactly(kw["shape"]), noise=Exactly(kw["noise"]), seed=Exactly(kw["run_seed"]),
    tv_randomized=Float(0, 1), tv_bayes=Float(0, 1), tv_em=Float(0, 1), tv_bayes_em=Float(0, 1),
    iter_bayes=Int(0, MAX_ITER), iter_em=Int(0, MAX_ITER),
    **(dict(tv_cv=Float(0, 1), iter_cv=Int(0, MAX_ITER)) if kw.get("cross_validation") else {})))
def fig2_row(shape: str, noise: str, run_seed: int, n: int = FIG2_N, width: float = FIG2_WIDTH,
             tol: float = DEFAULT_TOL, cross_validation: bool = False) -> dict:
    """One run of one Fig. 2 panel (a task): TV distances and iterations, as a row."""
    case = fig2_case(shape, noise, n=n, width=width, rng=run_seed, tol=tol)
    row = {
        "shape": shape, "noise": noise, "seed": run_seed,
        "tv_randomized": case.tv_randomized, "tv_bayes": case.tv_bayes,
        "tv_em": case.tv_em, "tv_bayes_em": case.tv_bayes_em,
        "iter_bayes": case.bayes.n_iter, "iter_em": case.em.n_iter,
    }
    if cross_validation:
        cv = reconstruct(case.w, case.noise, bounds=FIG2_BOUNDS, width=width,
                         stop="cross-validation", rng=run_seed, keep_history=False)
        row["tv_cv"] = total_variation(cv.probabilities, case.truth)
        row["iter_cv"] = cv.n_iter
    return row


def _fig2_tasks(n_seeds: int = 5, seed: int = 0, n: int = FIG2_N, width: float = FIG2_WIDTH,
               tol: float = DEFAULT_TOL, cross_validation: bool = False) -> list[Task]:
    """One task per (shape, noise, run); run r uses the seed ``seed + r`` for data and noise.

    (The Fig. 2 runs are keyed by that integer, as in notebook 02's loops over
    ``fig2_case(..., rng=s)``: the same panel and seed is the same run everywhere.)
    """
    n_seeds = check_integer(n_seeds, "n_seeds", minimum=1, maximum=MAX_GRID_RUNS)   # bounded work
    return [Task(("fig2", shape, noise_name, s, float(tol)), fig2_row,
                 dict(shape=shape, noise=noise_name, run_seed=s, n=int(n), width=float(width),
                      tol=float(tol), cross_validation=bool(cross_validation)), cost=0.2)
            for shape in FIG2_SHAPES for noise_name in FIG2_NOISES
            for s in range(seed, seed + n_seeds)]


def fig2_distances(n_seeds: int = 5, rng=0, n: int = FIG2_N, width: float = FIG2_WIDTH,
                   tol: float = DEFAULT_TOL, cross_validation: bool = False, n_jobs=None,
                   progress: bool = False) -> pd.DataFrame:
    """TV distances for the four Fig. 2 panels over ``n_seeds`` seeds (one row per run).

    The paper draws Fig. 2 once; repeating each panel (plateau and triangles, Gaussian and
    uniform noise) over several seeds shows how much its TV distances vary from run to run.

    ``rng`` (int, None or Generator) gives the first run's seed ``s``; the runs use
    ``s, s + 1, ...``. With ``cross_validation=True`` two more columns, ``tv_cv`` and
    ``iter_cv``: the Bayes reconstruction with
    ``stop="cross-validation"`` (held-out likelihood, 5 folds; beyond the paper) beside the
    paper's rule. ``n_jobs``: parallel workers (see
    :func:`~ppdm_edu.experiments.tasks.run_tasks`).

    Parameters
    ----------
    n_seeds : int, default 5
        Runs per panel (>= 1).
    rng : int, None or numpy.random.Generator, default 0
        Gives the first run's seed (a non-negative int is used as is).
    n : int, default 10_000
        Records per run (the paper: 10,000).
    width : float, default 0.05
        Width of the reconstruction's intervals on [0, 1] (the paper: 0.05).
    tol : float, default 0.01
        Stopping threshold of the paper's rule, a fraction of the chi^2 critical value
        (the paper: 1 %).
    cross_validation : bool, default False
        Also run the Bayes reconstruction stopped by held-out likelihood.
    n_jobs : int or None, default None
        Parallel workers (-1: every core; None: 1 unless inside
        :func:`~ppdm_edu.experiments.tasks.execution`); the numbers do not depend on it.
    progress : bool, default False
        Show a tqdm progress bar.

    Returns
    -------
    pandas.DataFrame
        One row per (shape, noise, run), ``4 * n_seeds`` rows: ``shape``, ``noise``, ``seed``,
        the TV distances ``tv_randomized``, ``tv_bayes``, ``tv_em``, ``tv_bayes_em`` (as in
        :class:`Fig2Case`), the iterations ``iter_bayes`` and ``iter_em``, and with
        `cross_validation` ``tv_cv`` and ``iter_cv``.

    Raises
    ------
    ValueError
        If `n_seeds` is not an integer >= 1 or `rng` is a negative int.

    Examples
    --------
    >>> df = fig2_distances(n_seeds=1, n=1_000, rng=0)
    >>> df[["shape", "noise"]].values.tolist()
    [['plateau', 'gaussian'], ['plateau', 'uniform'], ['triangles', 'gaussian'], ['triangles', 'uniform']]
    >>> bool((df["tv_bayes"] < df["tv_randomized"]).all())
    True
    """
    tasks = _fig2_tasks(n_seeds, root_seed(rng), n, width, tol, cross_validation)
    done = run_tasks(tasks, n_jobs=n_jobs, progress=progress, desc="Fig. 2")
    return pd.DataFrame(done.results)


#: the most reconstructions one :func:`error_grid` call runs
MAX_GRID_RUNS = 10_000


def error_grid(ns=(1_000, 3_000, 10_000, 30_000), sigmas=(0.1, 0.25, 0.5, 1.0),
               shape: str = "plateau", n_seeds: int = 2, rng=0,
               width: float = FIG2_WIDTH, method: str = "bayes") -> pd.DataFrame:
    """Mean TV of the reconstruction (Gaussian noise) over a grid of n and sigma.

    Each (n, sigma) cell averages ``n_seeds`` runs (seeds ``s, s + 1, ...`` from ``rng``); a
    row per cell with the randomized TV too. At most :data:`MAX_GRID_RUNS` reconstructions
    (``len(ns) * len(sigmas) * n_seeds``) per call. Beyond the paper, which fixes n = 10,000
    and sigma = 0.25: it shows that the reconstruction improves with more records and degrades
    with more noise.

    Parameters
    ----------
    ns : sequence of int, default (1_000, 3_000, 10_000, 30_000)
        Numbers of records (each >= 1).
    sigmas : sequence of float, default (0.1, 0.25, 0.5, 1.0)
        Standard deviations of the Gaussian noise, in the units of the data (the domain is
        [0, 1]; the paper: 0.25).
    shape : {"plateau", "triangles"}, default "plateau"
        The original distribution.
    n_seeds : int, default 2
        Runs averaged per cell (>= 1).
    rng : int, None or numpy.random.Generator, default 0
        Gives the first run's seed (a non-negative int is used as is).
    width : float, default 0.05
        Width of the reconstruction's intervals on [0, 1].
    method : {"bayes", "em"}, default "bayes"
        The paper's iterative Bayes (Sec. 3) or EM (Agrawal & Aggarwal 2001).

    Returns
    -------
    pandas.DataFrame
        One row per (sigma, n), sigma-major: ``sigma``, ``n``, ``tv_reconstructed`` (mean TV
        between the reconstruction and the original interval distribution) and
        ``tv_randomized`` (mean TV between the randomized and the original values).

    Raises
    ------
    ValueError
        If `ns` or `sigmas` is empty, `n_seeds` or an n is not a positive integer, the grid
        needs more than :data:`MAX_GRID_RUNS` reconstructions, or `shape` is unknown.

    Examples
    --------
    >>> grid = error_grid(ns=(1_000,), sigmas=(0.1, 0.5), n_seeds=1, rng=0)
    >>> grid[["sigma", "n"]].values.tolist()
    [[0.1, 1000.0], [0.5, 1000.0]]
    >>> bool(grid["tv_reconstructed"].iloc[0] < grid["tv_reconstructed"].iloc[1])
    True
    """
    n_seeds = check_integer(n_seeds, "n_seeds", minimum=1, maximum=MAX_GRID_RUNS)
    ns = [check_integer(n, "ns (each n)", minimum=1) for n in np.atleast_1d(np.asarray(ns, dtype=object))]
    sigmas = list(np.atleast_1d(np.asarray(sigmas, dtype=object)))
    if not ns or not sigmas:
        raise ValueError(f"ns and sigmas must each hold at least one value, got ns={ns!r}, sigmas={sigmas!r}")
    runs = len(ns) * len(sigmas) * n_seeds
    if runs > MAX_GRID_RUNS:
        raise ValueError(f"len(ns) x len(sigmas) x n_seeds = {runs:,} reconstructions; at most "
                         f"{MAX_GRID_RUNS:,} are allowed per call: lower n_seeds or the grid")
    seed = root_seed(rng)
    rows = []
    for sigma in sigmas:
        noise = GaussianNoise(float(sigma))
        for n in ns:
            rec_tv, rand_tv = [], []
            for s in range(seed, seed + n_seeds):
                data_rng, noise_rng = spawn_rngs(s)
                x = _shape(shape)(int(n), rng=data_rng)
                w = perturb(x, noise, rng=noise_rng)
                rec = reconstruct(w, noise, bounds=FIG2_BOUNDS, width=width, method=method,
                                  keep_history=False)
                truth = interval_distribution(x, rec.edges)
                rec_tv.append(total_variation(rec.probabilities, truth))
                rand_tv.append(sample_total_variation(x, w, rec.edges))
            rows.append({"sigma": float(sigma), "n": int(n), "tv_reconstructed": np.mean(rec_tv),
                         "tv_randomized": np.mean(rand_tv)})
    return pd.DataFrame(rows)


def _summary(frame: pd.DataFrame) -> pd.DataFrame:
    cols = ["tv_randomized", "tv_bayes", "tv_em", "tv_bayes_em", "iter_bayes", "iter_em"]
    return frame.groupby(["shape", "noise"], sort=False)[cols].agg(["mean", "std"])


def _n_seeds(mode: str) -> int:
    return 5 if mode == "quick" else 20


@documented_as("plan")
def plan(mode: str = "quick", seed: int = 0) -> list[Task]:
    """Fig. 2 runs with the held-out stop too; in ``full`` also the runs with ``tol = 1e-4``."""
    mode, seed = check_plan(mode, seed)
    tasks = _fig2_tasks(_n_seeds(mode), seed, cross_validation=True)
    if mode == "full":
        tasks += _fig2_tasks(_n_seeds(mode), seed, tol=1e-4)
    return tasks


@documented_as("reproduce")
def reproduce(mode: str = "quick", out_dir=Path("reports/quick"), seed: int = 0, *, n_jobs=None,
              checkpoint: bool = True, fresh: bool = False, progress: bool = True) -> Reproduction:
    """Reproduce Fig. 2: PNG of the four panels, CSV of TV distances, comparisons.

    ``quick``: 5 seeds per panel; ``full``: 20 seeds per panel plus a stricter stop
    (``tol = 1e-4``) for comparison. Both at the paper's n = 10,000 and width 0.05.
    """
    tasks = plan(mode, seed)
    return run_reproduction(tasks, lambda results: assemble(mode, out_dir, seed, tasks, results),
                            out_dir, desc="as2000-reconstruction", n_jobs=n_jobs, checkpoint=checkpoint,
                            fresh=fresh, progress=progress)


@documented_as("assemble")
def assemble(mode: str, out_dir, seed: int, tasks, results) -> Reproduction:
    """Files (``as2000_reconstruction_tv.csv``, ``as2000_fig2.png``, in ``full`` also
    ``as2000_reconstruction_tv_tol1e-4.csv``) and comparisons from :func:`plan`'s results.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from ..plots.reconstruction import plot_fig2

    out_dir = prepare_output(mode, out_dir)
    n_seeds = _n_seeds(mode)
    files, comparisons, remarks = [], [], []
    n_main = len(FIG2_SHAPES) * len(FIG2_NOISES) * n_seeds
    frame = pd.DataFrame(results[:n_main])
    csv = out_dir / "as2000_reconstruction_tv.csv"
    frame.to_csv(csv, index=False)
    files.append(csv)

    cases = [fig2_case(s, k, rng=seed) for s in FIG2_SHAPES for k in FIG2_NOISES]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7), layout="constrained")
    plot_fig2(cases, axes=axes.T.ravel())
    png = out_dir / "as2000_fig2.png"
    fig.savefig(png, dpi=110)
    plt.close(fig)
    files.append(png)

    means = frame.groupby(["shape", "noise"], sort=False).mean(numeric_only=True)
    sds = frame.groupby(["shape", "noise"], sort=False).std(numeric_only=True)
    for (shape, noise), row in means.iterrows():
        sd = sds.loc[(shape, noise)]
        label = f"{shape}, {noise} noise"
        for col, what in [("tv_randomized", "TV randomized vs original"),
                          ("tv_bayes", "TV reconstructed (Bayes) vs original"),
                          ("tv_em", "TV reconstructed (EM) vs original"),
                          ("tv_bayes_em", "TV Bayes vs EM")]:
            comparisons.append(Comparison(
                experiment=f"Fig. 2 {label}", item=what, paper=None, ours=float(row[col]),
                ours_sd=float(sd[col]), verdict="no number in the paper",
                note=f"mean over {n_seeds} seeds",
            ))
        ratio = row["tv_bayes"] / row["tv_randomized"]
        ok = ratio <= 0.5
        comparisons.append(Comparison(
            experiment=f"Fig. 2 {label}",
            item="claim: reconstructed much closer to the original than randomized",
            paper="shape picked out", ours=f"TV ratio {ratio:.2f}",
            verdict="reproduced" if ok else "not reproduced",
            note=("bar: ratio <= 0.5; paper's stopping rule, "
                  f"{row['iter_bayes']:.0f} iterations on average"),
        ))
        cv_ratio = row["tv_cv"] / row["tv_randomized"]
        comparisons.append(Comparison(
            experiment=f"Fig. 2 {label}",
            item="TV reconstructed (Bayes) vs original, held-out-likelihood stop (beyond the paper)",
            paper=None, ours=float(row["tv_cv"]), ours_sd=float(sd["tv_cv"]),
            verdict="no number in the paper",
            note=(f"TV ratio {cv_ratio:.2f} ({'meets' if cv_ratio <= 0.45 else 'misses'} our "
                  f"0.45 target); {row['iter_cv']:.0f} iterations on average, mean over "
                  f"{n_seeds} seeds"),
        ))
    remarks.append(
        "The paper gives curves only; the TV numbers are ours. Randomized TV counts the mass the "
        "noise pushes outside [0, 1]. Stopping rule: chi^2 between successive count estimates "
        "<= 1 % of the 95 % chi^2 critical value (m - 1 df)."
    )
    remarks.append(
        "Triangles with Gaussian noise stop after about 10 iterations under that rule and stay a "
        "single hump (not the two peaks of the paper's Fig. 2b); a 100x stricter rule "
        "(tol = 1e-4, see the full mode) recovers the peaks but over-fits the uniform-noise panels."
    )
    if mode == "full":
        strict = pd.DataFrame(results[n_main:])
        strict_csv = out_dir / "as2000_reconstruction_tv_tol1e-4.csv"
        strict.to_csv(strict_csv, index=False)
        files.append(strict_csv)
        sm = strict.groupby(["shape", "noise"], sort=False).mean(numeric_only=True)
        for (shape, noise), row in sm.iterrows():
            comparisons.append(Comparison(
                experiment=f"Fig. 2 {shape}, {noise} noise (tol = 1e-4)",
                item="TV reconstructed (Bayes) vs original", paper=None,
                ours=float(row["tv_bayes"]), verdict="no number in the paper",
                note=f"100x stricter stop, {row['iter_bayes']:.0f} iterations on average",
            ))
    return Reproduction(name="as2000-reconstruction",
                        title="Agrawal & Srikant 2000, Fig. 2: reconstructing the distribution",
                        comparisons=comparisons, files=files, remarks=remarks, mode=mode)
