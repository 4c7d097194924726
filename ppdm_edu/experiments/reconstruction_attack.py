"""Dinur & Nissim (PODS 2003): rebuilding a database of secret bits from noisy subset sums.

The sweep of notebook 09, at scale. For every number of people ``n``, queries per person
(``m = c n`` random subset-sum queries), error level ``E / √n`` (answers uniform on (−E, E)),
decoder (least squares, the L1 program) and run, one secret, one set of queries and one noise
draw are attacked (:func:`ppdm_edu.database_reconstruction.recovered_shares`: every level
rescales the same draw; both decoders see the same release). Beside it, the same attack on
answers from the package's mechanisms (Laplace at ε per answer, a total ε split over the ``m``
answers, the Gaussian at a total (ε, δ) by zCDP), against the bound differential privacy puts on
*any* attacker: ``(e^ε + δ) / (1 + e^ε)`` of the bits (neighbour relation: one person's bit
changing).

What is compared with the paper (which prints no measurement, only theorems):

* the main theorem: errors ``E = o(√n)`` let the attacker rebuild all but ``o(n)`` bits, read
  here as "at E ≤ √n / 4 every run of every n recovers at least 97 % of the bits, on average";
* what changes at ``E ≈ √n``: the share recovered no longer tends to 1 as n grows; at a fixed
  ``E / √n`` it stays put (the √n scaling), above a coin's 1/2;
* the closed form of least squares (:func:`~ppdm_edu.database_reconstruction.least_squares_prediction`)
  beside its simulation, cell by cell;
* differential privacy's promise: no attack here recovers more than the bound, beyond sampling
  error.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ..database_reconstruction import (
    Answering,
    BoundedError,
    GaussianBudget,
    LaplaceBudget,
    LaplacePerQuery,
    least_squares_prediction,
    recovered_shares,
)
from .report import Comparison, Reproduction, check_plan, documented_as, prepare_output, run_reproduction
from .shapes import Float, List, result_shape
from .tasks import Task, task_rng

__all__ = ["plan", "assemble", "reproduce", "threshold_task", "policy_task", "POLICIES", "DECODERS"]

DECODERS = ("least-squares", "l1")
#: the answering policies of the privacy sweep by name: (class, what its parameter is)
POLICIES: dict[str, Callable[[float], Answering]] = {"bounded": BoundedError, "laplace-per-query": LaplacePerQuery, "laplace-budget": LaplaceBudget,
            "gaussian-budget": GaussianBudget}
#: δ of the Gaussian's total (ε, δ)
DELTA = 1e-5
#: the total ε at which the two compositions' errors are compared
COMPOSITION_EPSILON = 10.0
#: the theorem's regime, read at these levels: at most this share wrong on average
SMALL_LEVELS, SMALL_WRONG = (0.125, 0.25), 0.03


def _scale(mode: str) -> dict:
    if mode == "full":
        return dict(ns=(50, 100, 200, 400), per_bit=4, levels=(0.0, 0.125, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 4.0),
                    runs={"least-squares": 50, "l1": 20}, per_bit_sweep=(1, 2, 4, 8), per_bit_n=100,
                    policy_n=100, policy_runs=50)
    return dict(ns=(50, 100, 200), per_bit=4, levels=(0.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0),
                runs={"least-squares": 20, "l1": 8}, per_bit_sweep=(1, 2, 4), per_bit_n=100,
                policy_n=100, policy_runs=20)


def _policy_grid() -> list[tuple[str, float]]:
    # total ε spread so that the errors a user sees span 0.1 √n to 20 √n at n = 100, m = 400
    grid = [("bounded", level) for level in (0.125, 0.25, 0.5, 1.0, 2.0, 4.0)]
    grid += [("laplace-per-query", eps) for eps in (0.1, 0.3, 1.0)]
    grid += [("laplace-budget", eps) for eps in (3.0, 10.0, 30.0, 100.0, 300.0)]
    grid += [("gaussian-budget", eps) for eps in (1.0, 3.0, 10.0, 30.0)]
    return grid


def _policy(kind: str, param: float, n: int) -> Answering:
    if kind == "bounded":  # the parameter is E / √n
        return BoundedError(param * math.sqrt(n))
    if kind == "gaussian-budget":
        return GaussianBudget(param, DELTA)
    return POLICIES[kind](param)


def _rng(seed: int, n: int, per_bit: int, run: int) -> np.random.Generator:
    # one release per (n, m, run): the secret, the queries and the noise are its independent
    # children (spawned inside recovered_shares); both decoders and every level attack it
    return task_rng(seed, "release", n, per_bit, run)


@result_shape(lambda kw: List(Float(0, 1), length=len(kw["levels"])))
def threshold_task(seed: int, n: int, per_bit: int, decoder: str, run: int, levels: tuple) -> list:
    """The share of bits one decoder recovers at each error level ``E / √n`` (one release).

    Parameters
    ----------
    seed : int
        Root seed; the release comes from the stream ``("release", n, per_bit, run)``.
    n : int
        People.
    per_bit : int
        Queries per person (``m = per_bit * n``).
    decoder : {"least-squares", "l1"}
        The decoder.
    run : int
        Which release.
    levels : tuple of float
        Error levels ``E / √n``, answers uniform on (−E, E).

    Returns
    -------
    list of float
        The recovered share at each level.
    """
    policies = [BoundedError(level * math.sqrt(n)) for level in levels]
    return [float(s) for s in recovered_shares(n, per_bit * n, policies, decoder, _rng(seed, n, per_bit, run))]


@result_shape(lambda kw: List(Float(0, 1), length=len(kw["policies"])))
def policy_task(seed: int, n: int, per_bit: int, run: int, policies: tuple) -> list:
    """The share of bits least squares recovers from answers of each policy (one release).

    Parameters
    ----------
    seed : int
        Root seed; the release comes from the stream ``("release", n, per_bit, run)``.
    n : int
        People.
    per_bit : int
        Queries per person.
    run : int
        Which release.
    policies : tuple of (str, float)
        ``(kind, parameter)``: a key of :data:`POLICIES` and ``E / √n`` (bounded) or ε.

    Returns
    -------
    list of float
        The recovered share under each policy.
    """
    answerings = [_policy(kind, param, n) for kind, param in policies]
    return [float(s) for s in recovered_shares(n, per_bit * n, answerings, "least-squares",
                                               _rng(seed, n, per_bit, run))]


@documented_as("plan")
def plan(mode: str = "quick", seed: int = 0) -> list[Task]:
    """One task per (n, queries per person, decoder, run) over every error level, and one per
    run of the privacy sweep (every policy on one release)."""
    mode, seed = check_plan(mode, seed)
    sc = _scale(mode)
    levels = tuple(float(v) for v in sc["levels"])
    cells = {(int(n), sc["per_bit"]) for n in sc["ns"]}
    cells |= {(sc["per_bit_n"], int(c)) for c in sc["per_bit_sweep"]}
    tasks = []
    for n, per_bit in sorted(cells):
        for decoder in DECODERS:
            for run in range(sc["runs"][decoder]):
                cost = 0.01 if decoder == "least-squares" else len(levels) * (n / 200) ** 2 * per_bit / 4 * 0.15
                tasks.append(Task(("reconstruction-attack", "threshold", n, per_bit, decoder, run), threshold_task,
                                  dict(seed=seed, n=n, per_bit=per_bit, decoder=decoder, run=run, levels=levels),
                                  cost=cost))
    policies = tuple(_policy_grid())
    for run in range(sc["policy_runs"]):
        tasks.append(Task(("reconstruction-attack", "policy", sc["policy_n"], sc["per_bit"], run), policy_task,
                          dict(seed=seed, n=sc["policy_n"], per_bit=sc["per_bit"], run=run, policies=policies),
                          cost=0.02))
    return tasks


@documented_as("reproduce")
def reproduce(mode: str = "quick", out_dir=Path("reports/quick"), seed: int = 0, *, n_jobs=None,
              checkpoint: bool = True, fresh: bool = False, progress: bool = True) -> Reproduction:
    """Attack every release of the sweep; files and comparisons in :func:`assemble`."""
    tasks = plan(mode, seed)
    return run_reproduction(tasks, lambda results: assemble(mode, out_dir, seed, tasks, results),
                            out_dir, desc="reconstruction-attack", n_jobs=n_jobs, checkpoint=checkpoint,
                            fresh=fresh, progress=progress)


def _frames(tasks, results) -> tuple[pd.DataFrame, pd.DataFrame]:
    runs, policy_rows = [], []
    for t, r in zip(tasks, results):
        kw = t.kwargs
        if t.func is threshold_task:
            for level, share in zip(kw["levels"], r):
                runs.append(dict(n=kw["n"], m=kw["n"] * kw["per_bit"], per_bit=kw["per_bit"], decoder=kw["decoder"],
                                 level=float(level), run=kw["run"], share=float(share)))
        else:
            n, m = kw["n"], kw["n"] * kw["per_bit"]
            for (kind, param), share in zip(kw["policies"], r):
                policy = _policy(kind, param, n)
                g = policy.guarantee(m)
                policy_rows.append(dict(policy=kind, param=float(param), n=n, m=m, run=kw["run"],
                                        epsilon=g.epsilon, delta=g.delta, per_query_epsilon=g.per_query_epsilon,
                                        rms=policy.rms_error(m) / math.sqrt(n), bound=g.guess_bound(),
                                        share=float(share)))
    return pd.DataFrame(runs), pd.DataFrame(policy_rows)


def _summary(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    g = df.groupby(keys, sort=True)["share"]
    out = g.agg(seeds="size", mean="mean", sd="std", min="min", max="max").reset_index()
    se = out["sd"].fillna(0.0) / np.sqrt(out["seeds"])
    out["se"] = se
    out["low"] = (out["mean"] - 2 * se).clip(lower=0.0)
    out["high"] = (out["mean"] + 2 * se).clip(upper=1.0)
    return out


def _bands(rows: pd.DataFrame, label: str, column: str) -> str:
    """Each row's mean share ± 2 standard errors, labelled by ``label.format(row[column])``."""
    return ", ".join(f"{label.format(int(r[column]))}: {r['mean']:.3f} ± {2 * r['se']:.3f}" for _, r in rows.iterrows())


def _predict(row) -> float:
    if row["m"] <= row["n"] + 1:
        return math.nan
    return least_squares_prediction(int(row["n"]), int(row["m"]), row["level"] * math.sqrt(row["n"]) / math.sqrt(3))


def _comparisons(summary: pd.DataFrame, dp: pd.DataFrame, per_bit: int, per_bit_n: int) -> list[Comparison]:
    """``dp``: the privacy sweep's runs (one row per release and setting)."""
    out = []
    main = summary[summary["per_bit"] == per_bit]
    small = main[main["level"].isin(SMALL_LEVELS)]
    if len(small):
        worst = small.loc[small["mean"].idxmin()]
        out.append(Comparison(
            experiment="Dinur & Nissim 2003, main theorem", item="E = o(√n): all but o(n) bits recovered; here "
            f"E / √n = {', '.join(f'{v:g}' for v in SMALL_LEVELS)}, m = {per_bit}n, both decoders, every n",
            paper="all but o(n) bits", ours=f"at least {worst['mean']:.1%} on average (worst: n = {int(worst['n'])}, "
            f"{worst['decoder']}, E = {worst['level']:g} √n, {int(worst['seeds'])} releases)",
            verdict="reproduced" if worst["mean"] >= 1 - SMALL_WRONG else "not reproduced",
            note=f"criterion (ours): every mean share ≥ {1 - SMALL_WRONG:.0%}"))
    at_one = main[(main["level"] == 1.0)]
    for decoder, rows in at_one.groupby("decoder", sort=False):
        spread = rows["mean"].max() - rows["mean"].min()
        se = float(np.sqrt((rows["se"] ** 2).max() * 2))
        plateau = bool(rows["mean"].min() > 0.55 and rows["mean"].max() < 0.95 and spread <= max(0.05, 3 * se))
        out.append(Comparison(
            experiment="Dinur & Nissim 2003, the √n threshold", item=f"E = √n, m = {per_bit}n, {decoder}: the share "
            "recovered does not tend to 1 as n grows; it stays at one level above a coin's",
            paper="perturbation of order √n stops the attack from recovering all but o(n)",
            ours=_bands(rows, "n = {:d}", "n"),
            verdict="reproduced" if plateau else "not reproduced",
            note=f"criterion (ours): every mean in (55 %, 95 %), spread over n ≤ max(0.05, 3 standard errors); "
                 f"{int(rows['seeds'].min())} releases per n"))
    queries = summary[(summary["n"] == per_bit_n) & (summary["decoder"] == "least-squares")
                      & (summary["level"] == 1.0)].sort_values("per_bit")
    if len(queries) > 1:
        rising = bool((np.diff(queries["mean"].to_numpy()) > 0).all())
        out.append(Comparison(
            experiment="Dinur & Nissim 2003, the number of queries", item=f"E = √n, n = {per_bit_n}, least squares: "
            "more counts per person rebuild more of the bits",
            paper="the attack asks about n log² n subsets, more than n",
            ours=_bands(queries, "m = {:d}n", "per_bit"),
            verdict="reproduced" if rising else "not reproduced",
            note=f"criterion (ours): the mean share rises with m / n; {int(queries['seeds'].min())} releases each"))
    ls = main[(main["decoder"] == "least-squares") & main["prediction"].notna()]
    if len(ls):
        gap = (ls["mean"] - ls["prediction"]).abs()
        ok = gap <= np.maximum(3 * ls["se"], 0.01)
        out.append(Comparison(
            experiment="closed form", item="least squares: simulation within max(3 standard errors, 1 point) of "
                                           "Φ(√(m − n − 1) / 4σ), per (n, E)",
            paper=None, ours=f"{int(ok.sum())} of {len(ls)} cells; largest gap {gap.max():.3f}",
            verdict="no number in the paper",
            note="our approximation (normal errors, the inverse Wishart's mean), not the paper's"))
    if len(dp):
        finite = dp[np.isfinite(dp["epsilon"])]
        tests = []  # (margin, p, kind, param, share, bound) per setting
        for (kind, param), rows in finite.groupby(["policy", "param"], sort=False):
            bound = float(rows["bound"].iloc[0])
            right = int(round((rows["share"] * rows["n"]).sum()))
            total = int(rows["n"].sum())
            p = 1.0 if bound >= 1.0 else float(stats.binomtest(right, total, bound, alternative="greater").pvalue)
            tests.append((bound - right / total, p, kind, param, right / total, bound))
        if tests:
            margin, p_close, kind, param, share, bound = min(t for t in tests if t[5] < 0.999) \
                if any(t[5] < 0.999 for t in tests) else min(tests)
            out.append(Comparison(
                experiment="differential privacy", item="no attack recovers more of the bits than (e^ε + δ) / (1 + e^ε), "
                "the bound of the release's total (ε, δ) for one person's bit changing",
                paper="any attacker, any release with that (ε, δ) (Kairouz, Oh & Viswanath 2015)",
                ours=f"closest to its bound: {kind} at {param:g}: {share:.3f} recovered, bound {bound:.3f}; "
                     f"smallest one-sided binomial p over all settings {min(t[1] for t in tests):.2g}",
                verdict="reproduced" if all(t[1] > 1e-3 for t in tests) else "not reproduced",
                note=f"{len(tests)} settings, {int(finite['run'].nunique())} releases each; criterion: p > 0.001 "
                     "for every setting"))
        at = finite[np.isclose(finite["epsilon"], COMPOSITION_EPSILON)]
        lap = at[at["policy"] == "laplace-budget"]["rms"]
        gau = at[at["policy"] == "gaussian-budget"]["rms"]
        if len(lap) and len(gau):
            out.append(Comparison(
                experiment="composition", item=f"total ε = {COMPOSITION_EPSILON:g} over m answers: RMS error of one "
                "answer / √n, Laplace (basic composition) against Gaussian (zCDP, δ = 1e-5)",
                paper="the Gaussian's noise grows like √m, Laplace's like m",
                ours=f"{lap.iloc[0]:.2f} against {gau.iloc[0]:.2f}",
                verdict="reproduced" if gau.iloc[0] < lap.iloc[0] else "not reproduced"))
    return out


@documented_as("assemble")
def assemble(mode: str, out_dir, seed: int, tasks, results) -> Reproduction:
    """Write ``reconstruction-attack.csv`` (one row per release and level), its summary (mean, sd,
    standard error, band, the closed form), ``reconstruction-attack_dp.csv`` (the privacy sweep)
    and the two figures; compare with the theorem."""
    from matplotlib.figure import Figure

    from ..plots.database_reconstruction import plot_attack_tradeoff, plot_recovery

    out_dir = prepare_output(mode, out_dir)
    sc = _scale(mode)
    runs, dp_runs = _frames(tasks, results)
    summary = _summary(runs, ["n", "m", "per_bit", "decoder", "level"])
    summary["prediction"] = summary.apply(_predict, axis=1)
    dp = _summary(dp_runs, ["policy", "param", "n", "m", "epsilon", "delta", "per_query_epsilon", "rms", "bound"]) \
        if len(dp_runs) else dp_runs
    files = []
    for name, frame in (("reconstruction-attack.csv", runs), ("reconstruction-attack_summary.csv", summary),
                        ("reconstruction-attack_dp.csv", dp)):
        path = out_dir / name
        frame.to_csv(path, index=False, float_format="%.6g")
        files.append(path)
    main = summary[summary["per_bit"] == sc["per_bit"]]
    fig = Figure(figsize=(7.5, 4.6), layout="constrained")
    levels = np.array(sorted(main["level"].unique()))
    n0 = int(main["n"].min())
    pred = [least_squares_prediction(n0, sc["per_bit"] * n0, v * math.sqrt(n0) / math.sqrt(3)) for v in levels]
    plot_recovery(main, ax=fig.add_subplot(), prediction=(levels, pred))
    path = out_dir / "reconstruction-attack_threshold.png"
    fig.savefig(path, dpi=110)
    files.append(path)
    if len(dp):
        fig = Figure(figsize=(7.5, 4.6), layout="constrained")
        plot_attack_tradeoff(dp, ax=fig.add_subplot())
        path = out_dir / "reconstruction-attack_dp.png"
        fig.savefig(path, dpi=110)
        files.append(path)
    n_releases = int(runs.groupby(["n", "per_bit", "decoder"])["run"].nunique().sum()) if len(runs) else 0
    remarks = [
        f"Seed {seed}. Releases: {', '.join(f'{d}: {r}' for d, r in sc['runs'].items())} per (n, m); "
        f"n = {', '.join(map(str, sc['ns']))} at m = {sc['per_bit']}n, and m = "
        f"{', '.join(f'{c}n' if c > 1 else 'n' for c in sc['per_bit_sweep'])} at n = {sc['per_bit_n']}; {n_releases} attacked "
        f"releases in all, each at {len(sc['levels'])} error levels E / √n = "
        f"{', '.join(f'{v:g}' for v in sc['levels'])} (answers uniform on (−E, E); every level rescales one "
        "noise draw, and both decoders attack the same release).",
        "The paper (Dinur & Nissim, PODS 2003) proves its thresholds and prints no measurement: every row "
        "above is a claim of the theorem read at these sizes, or our own number.",
        f"Privacy sweep: n = {sc['policy_n']}, m = {sc['per_bit']}n, least squares, {sc['policy_runs']} releases per "
        "setting; ε and δ are the release's total for one person's bit changing (each count moves by at most 1); "
        "`bound` = (e^ε + δ) / (1 + e^ε), the most any attacker can guess of one bit.",
        "Bands: mean ± 2 standard errors over the releases.",
    ]
    return Reproduction(name="reconstruction-attack",
                        title="Dinur & Nissim (PODS 2003): reconstructing secret bits from noisy subset sums",
                        comparisons=_comparisons(summary, dp_runs, sc["per_bit"], sc["per_bit_n"]), files=files, remarks=remarks,
                        mode=mode)
