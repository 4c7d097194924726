"""`reconstruct` against its floor and its peers, as ratios of CPU time in one interleaved run.

    python benchmarks/reconstruct_floor.py [--baseline /path/to/old/checkout] [--max-n 10000000]
    python benchmarks/reconstruct_floor.py --quick          # smoke run: small n and m, ~30 s

Everything is timed in this one process with one BLAS thread (threadpoolctl), as CPU time
(``time.process_time``), the variants of a cell interleaved repeat by repeat and the best repeat
kept, so the ratios hold on a shared machine even when the absolute times do not.

* **end to end** over n x m (plateau data, Gaussian noise sigma = 0.25, bounds (0, 1), the
  paper's stop): ``reconstruct`` (this checkout, and with ``--baseline`` an older checkout of
  the package imported side by side as ``ppdm_edu_baseline``) against **the floor**: floor +
  ``bincount`` binning of the values, one blocked pass over the response matrix's entries
  (``exp(-z^2 / 2)`` of the mid-point distance, i.e. the density's transcendental written once
  per entry), and, per iteration run, the two numpy mat-vecs ``A @ Pr`` and ``A.T @ r``.
  Peak memory above the data (tracemalloc, in a separate untimed call) in bytes per value.
  **The peers, from counts, in every cell**: the same non-empty bin counts and the same
  ``m_w x m`` response matrix (``response_matrix`` on the observed bins), the same number of
  iterations as ``reconstruct`` ran, no stopping test (``tol=0``):

  - ours from counts: ``reconstruct_counts(N, A, max_iter=k, tol=0)`` (the like-for-like
    reference of the peers; "agree" is the largest absolute difference of the probabilities
    from it);
  - multi-freq-ldpy: its ``IBU`` takes one square matrix and uses it for both products
    (``est * A @ (obs / A @ est)``, right for its symmetric LDP matrices), so it cannot take the
    rectangular ``m_w x m`` matrix. The column times **ldpy's IBU loop, numba-compiled the same
    way (``@jit(nopython=True)``), with ``A.T`` (a C-contiguous copy, made outside the timing)
    in the second product** (:func:`ibu_rect`). On a symmetric square matrix it returns exactly
    ldpy's own ``IBU`` (checked every run, ``ibu_rect_identical`` in the JSON). Compilation
    happens in an untimed warm-up;
  - pyunfold: ``pyunfold.mix.Mixer.smear`` (its Bayes update, D'Agostini's unfolding matrix
    ``M_ij`` formed each iteration) called k times from ``iterative_unfold``'s uniform prior,
    with its covariance bookkeeping (``CovarianceMatrix``, O(m^3 m_w) per iteration and an
    ``m x m m_w`` derivative matrix: 172 GB at m = 2000) replaced by a no-op, in every cell;
    and the whole ``iterative_unfold`` (with the covariance) where m^2 m_w k <= 3e7
    (m = 20, and m = 100 at n = 1e4: 30-50 s a call there).
* **from counts, per iteration** (square m x m matrix, symmetric, columns summing to 1, a fixed
  number of iterations, ``tol=0``): ``reconstruct_counts`` against the two-mat-vec floor and
  multi-freq-ldpy's own ``IBU`` (numba-compiled; the same update), each timed at K1 and K2
  iterations: *per call* = time(K2) / K2 (includes the fixed cost of a call), *marginal* =
  (time(K2) - time(K1)) / (K2 - K1) (one more iteration), *fixed* = time(K1) - K1 x marginal
  (validation, preparation). Ours is also timed with its stopping test running (``tol=1e-300``:
  the paper's chi^2 test is evaluated but never met, checked).
* **matrix build** at m = 2000 (m_w ~ 9,100 observed bins): ``response_matrix`` against the
  same one-pass floor; peak memory in copies of the matrix.

Writes ``benchmarks/reconstruct_floor.json`` and ``benchmarks/reconstruct_floor.png`` (time
against n per m, log-log: linear in n is slope 1); ``--write-results`` also replaces this
benchmark's section of ``RESULTS.md`` (between its markers), ``--render JSON`` does only that
from a saved run. ``--quick`` (n <= 1e5, m in {20, 100}, matrix build at m = 500, two repeats)
writes to a temporary directory unless ``--out`` is given and never writes ``RESULTS.md``.
"""
from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import sys
import tempfile
import time
import tracemalloc
import warnings
from pathlib import Path
from unittest import mock

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import ppdm_edu  # noqa: E402
from ppdm_edu import GaussianNoise, perturb, plateau  # noqa: E402
from ppdm_edu._validation import finite_1d_with_range  # noqa: E402
from ppdm_edu.reconstruction import reconstruct, reconstruct_counts, response_matrix  # noqa: E402
from ppdm_edu.reconstruction._convolution import CONVOLUTION_MIN_ENTRIES  # noqa: E402
from ppdm_edu.reconstruction._matrix import response_pairs  # noqa: E402

SIGMA = 0.25
# run pyunfold's full iterative_unfold where m^2 m_w iterations stays below this (its
# covariance propagation is O(m^3 m_w) per iteration, with Python loops over m_w x m cells)
ITERATIVE_UNFOLD_MAX = 3e7
# ours with its stopping test evaluated but never met (a chi^2 below 1e-300 x the critical value)
TOL_NEVER = 1e-300


def load_baseline(path):
    """Import the package of another checkout as ``ppdm_edu_baseline`` (side by side)."""
    init = Path(path) / "ppdm_edu" / "__init__.py"
    spec = importlib.util.spec_from_file_location("ppdm_edu_baseline", init,
                                                  submodule_search_locations=[str(init.parent)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["ppdm_edu_baseline"] = mod
    spec.loader.exec_module(mod)
    return mod


def cpu(fn, *args, target=0.02, **kw):
    """CPU seconds of one call; a short call is repeated (to ~``target`` s) and averaged."""
    gc.collect()
    t0 = time.process_time()
    out = fn(*args, **kw)
    t = time.process_time() - t0
    if t < target:
        reps = min(int(1e4 * target), int(target / max(t, 1e-6)) + 1)
        t0 = time.process_time()
        for _ in range(reps):
            fn(*args, **kw)
        t = (time.process_time() - t0) / reps
    return t, out


def peak_bytes(fn, *args, **kw):
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    out = fn(*args, **kw)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    del out
    return peak


def floor_binning(w, lo, L):
    k = np.floor((w - lo) / L).astype(np.intp)
    kmin = int(k.min())
    return np.bincount(k - kmin), kmin


def floor_matrix(mw, mx, sigma):
    """One blocked pass writing every entry: exp(-z^2/2) of the mid-point distance."""
    A = np.empty((mw.size, mx.size))
    rows = max(1, (1 << 15) // mx.size)
    for s in range(0, mw.size, rows):
        z = (mw[s:s + rows, None] - mx[None, :]) / sigma
        np.exp(-0.5 * z * z, out=A[s:s + rows])
    return A


def matvecs(A, AT, K):
    """The floor of K iterations: K times the two numpy mat-vecs, nothing else."""
    pr = np.full(A.shape[1], 1.0 / A.shape[1])
    ratio = np.ones(A.shape[0])
    for _ in range(K):
        A @ pr
        AT @ ratio
    return pr


def matvec_time(A, reps):
    """CPU seconds of one iteration's two mat-vecs (best of a few batches)."""
    AT = np.ascontiguousarray(A.T)
    best = np.inf
    for _ in range(3):
        t0 = time.process_time()
        matvecs(A, AT, reps)
        best = min(best, (time.process_time() - t0) / reps)
    return best


def same_bits_iterations(A, AT, N, K):
    """K updates of Eq. 3 with exactly the numpy calls ``iterate`` makes per iteration, in
    place, and nothing else (no stopping test, no guard, no set-up): ``A @ Pr``, ``N / D``,
    ``A.T @ ratio``, ``Pr * T``, ``/ n``, the sum, ``/ total``. The arithmetic any
    implementation that keeps the reproductions' bits must do."""
    m_w, m = A.shape
    n_arr, total = np.array(float(N.sum())), np.empty(())
    pr, new = np.full(m, 1.0 / m), np.empty(m)
    D, ratio, T = np.empty(m_w), np.empty(m_w), np.empty(m)
    divide, multiply, add = np.divide, np.multiply, np.add.reduce
    for _ in range(K):
        A.dot(pr, D)
        divide(N, D, ratio)
        AT.dot(ratio, T)
        multiply(pr, T, new)
        divide(new, n_arr, new)
        add(new, None, None, total)
        divide(new, total, new)
        pr, new = new, pr
    return pr


def same_bits_iteration_time(A, N, reps):
    """CPU seconds of one :func:`same_bits_iterations` update (best of a few batches)."""
    AT = np.ascontiguousarray(A.T)
    best = np.inf
    for _ in range(3):
        t0 = time.process_time()
        same_bits_iterations(A, AT, N, reps)
        best = min(best, (time.process_time() - t0) / reps)
    return best


# -- multi-freq-ldpy -------------------------------------------------------------------------

def ldpy_ibu():
    from multi_freq_ldpy.estimators.Histogram_estimator import IBU
    return IBU


_IBU_RECT = []


def ibu_rect():
    """multi-freq-ldpy's IBU loop (its ``max_abs`` branch, line for line), numba-compiled with
    the same ``jit(nopython=True)``, but with the second product on ``AT`` (= A.T, C-contiguous)
    so that it runs on a rectangular m_w x m response matrix; compiled once, here, untimed."""
    if not _IBU_RECT:
        from numba import jit

        @jit(nopython=True)
        def ibu_rect_(k, A, AT, obs_freq, nb_iter, tol):
            est_freq = np.ones(k) / k
            est_freq_t = est_freq
            for _ in range(nb_iter):
                est_freq_t = est_freq * np.dot(AT, obs_freq / np.dot(A, est_freq))
                if np.abs(est_freq - est_freq_t).max() < tol:
                    return est_freq_t
                else:
                    est_freq = est_freq_t
            return est_freq_t

        A = np.array([[0.5, 0.25], [0.3, 0.5], [0.2, 0.25]])
        ibu_rect_(2, A, np.ascontiguousarray(A.T), np.array([0.3, 0.4, 0.3]), 2, 0.0)  # compile
        _IBU_RECT.append(ibu_rect_)
    return _IBU_RECT[0]


# -- pyunfold --------------------------------------------------------------------------------

def pyunfold_run(N, A, Z, n_iter):
    """pyunfold's whole iterative_unfold (with its covariance propagation), n_iter iterations."""
    import pyunfold
    m = A.shape[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = pyunfold.iterative_unfold(data=N, data_err=np.sqrt(N), response=A, response_err=Z,
                                        efficiencies=np.ones(m), efficiencies_err=np.zeros(m),
                                        ts_stopping=0.0, max_iter=n_iter)
    u = out["unfolded"]
    return u / u.sum(), int(out["num_iterations"])


class _NoCovariance:
    """Stands in for pyunfold.mix.CovarianceMatrix: Mixer.smear's update without the
    covariance bookkeeping (set_current_state), which alone is infeasible at large m."""

    def __init__(self, **kwargs):
        pass

    def set_current_state(self, *args):
        pass


def pyunfold_smear(N, A, Z, n_iter):
    """pyunfold's Bayes update (``Mixer.smear``) run n_iter times from iterative_unfold's start
    (uniform prior times the total count), its covariance bookkeeping replaced by a no-op."""
    from pyunfold import mix
    from pyunfold.priors import setup_prior
    m = A.shape[1]
    with mock.patch.object(mix, "CovarianceMatrix", _NoCovariance):
        mixer = mix.Mixer(data=N, data_err=np.sqrt(N), efficiencies=np.ones(m),
                          efficiencies_err=np.zeros(m), response=A, response_err=Z)
    n_c = np.sum(N) * setup_prior(None, num_causes=m)
    for _ in range(n_iter):
        n_c = mixer.smear(n_c)
    return n_c / n_c.sum()


def iterative_unfold_feasible(m, m_w, n_iter, cap=ITERATIVE_UNFOLD_MAX):
    return m * m * m_w * n_iter <= cap


# -- the tables ------------------------------------------------------------------------------

def end_to_end(ns, ms, base, repeats_for, iu_cap=ITERATIVE_UNFOLD_MAX):
    rows = []
    rect = ibu_rect()
    for m in ms:
        for n in ns:
            x = plateau(n, rng=0)
            noise = GaussianNoise(SIGMA)
            w = perturb(x, noise, rng=1)
            del x
            lo, L = 0.0, 1.0 / m
            ours = reconstruct(w, noise, bounds=(0, 1), n_intervals=m, keep_history=False)
            n_iter = ours.n_iter
            # the peers' input: the non-empty bins' counts (floor binning gives reconstruct's
            # bins: the same floor((w - lo) / L)) and the response matrix on those bins
            counts, kmin = floor_binning(w, lo, L)
            nz = np.flatnonzero(counts)
            Nw = counts[nz].astype(float)
            w_edges = lo + np.arange(kmin, kmin + counts.size + 1) * L
            Aw = np.ascontiguousarray(response_matrix(np.linspace(0, 1, m + 1), noise,
                                                      w_edges)[nz])
            AwT = np.ascontiguousarray(Aw.T)
            Zw = np.zeros_like(Aw)
            Ap = Aw / Aw.max()  # pyunfold's response (the update does not depend on the scale)
            freq = Nw / Nw.sum()
            del counts
            mw = lo + (nz + kmin + 0.5) * L
            mx = (np.arange(m) + 0.5) * L
            # the same-bits bound (dense cells only: from 2^17 entries reconstruct correlates
            # the diagonals instead): reconstruct's own check of w, the floor's binning, the
            # matrix by response_pairs on reconstruct's bins (its 8 element-wise operations,
            # one block), and per iteration the update's 7 numpy calls (same_bits_iterations)
            dense = nz.size * m < CONVOLUTION_MIN_ENTRIES
            edges = np.linspace(0.0, 1.0, m + 1)
            ks = (nz + kmin).astype(float)
            wl, wu = lo + ks * L, lo + (ks + 1.0) * L
            bound_parts = {
                "check": lambda: finite_1d_with_range(w, "w"),
                "pairs": lambda: response_pairs(edges, wl, wu, noise, "bayes",
                                                row_max=np.empty(wl.size)),
            } if dense else {}
            variants = {
                "ours": lambda: reconstruct(w, noise, bounds=(0, 1), n_intervals=m,
                                            keep_history=False),
                "counts": lambda: reconstruct_counts(Nw, Aw, max_iter=n_iter, tol=0.0),
                "ldpy": lambda: rect(m, Aw, AwT, freq, n_iter, 0.0),
                "smear": lambda: pyunfold_smear(Nw, Ap, Zw, n_iter),
            }
            if base is not None:
                bnoise = base.GaussianNoise(SIGMA)
                variants["before"] = lambda: base.reconstruct(w, bnoise, bounds=(0, 1),
                                                              n_intervals=m, keep_history=False)
            best = {k: np.inf for k in ["floor_bin", "floor_matrix", *bound_parts, *variants]}
            res = {}
            for _ in range(repeats_for(n)):
                t, _ = cpu(floor_binning, w, lo, L)
                best["floor_bin"] = min(best["floor_bin"], t)
                t, A = cpu(floor_matrix, mw, mx, SIGMA)
                best["floor_matrix"] = min(best["floor_matrix"], t)
                for k, fn in bound_parts.items():
                    best[k] = min(best[k], cpu(fn)[0])
                for k, fn in variants.items():
                    t, res[k] = cpu(fn)
                    best[k] = min(best[k], t)
            assert res["ours"].n_iter == n_iter
            assert res["counts"].n_iter == n_iter, (res["counts"].n_iter, n_iter)
            mine = res["counts"].probabilities
            t_mv = matvec_time(A, max(3, int(2e6 // A.size)))
            floor = best["floor_bin"] + best["floor_matrix"] + n_iter * t_mv
            row = dict(n=n, m=m, m_w=int(A.shape[0]), n_iter=n_iter, ours=best["ours"],
                       floor=floor, floor_bin=best["floor_bin"], floor_matrix=best["floor_matrix"],
                       floor_iter=n_iter * t_mv, peak_per_value=peak_bytes(variants["ours"]) / n,
                       ours_counts=best["counts"],
                       agree_counts=float(np.max(np.abs(res["ours"].probabilities - mine))),
                       ldpy=best["ldpy"],
                       agree_ldpy=float(np.max(np.abs(res["ldpy"] / res["ldpy"].sum() - mine))),
                       pyunfold_smear=best["smear"],
                       agree_pyunfold_smear=float(np.max(np.abs(res["smear"] - mine))))
            if dense:
                t_same = same_bits_iteration_time(A, Nw, max(3, int(2e6 // A.size)))
                row.update(same_bits=best["check"] + best["floor_bin"] + best["pairs"]
                           + n_iter * t_same, same_bits_iter=t_same, floor_matvecs=t_mv,
                           same_bits_check=best["check"], same_bits_matrix=best["pairs"])
            if "before" in res:
                row["before"] = best["before"]
                row["before_peak_per_value"] = peak_bytes(variants["before"]) / n
                row["agree_before"] = float(np.max(np.abs(res["before"].probabilities
                                                          - res["ours"].probabilities)))
                assert res["before"].n_iter == n_iter
            if iterative_unfold_feasible(m, Aw.shape[0], n_iter, iu_cap):
                t, (u, k_run) = cpu(pyunfold_run, Nw, Ap, Zw, n_iter)
                row.update(pyunfold=t, pyunfold_iter=k_run,
                           agree_pyunfold=float(np.max(np.abs(u - mine))))
            rows.append(row)
            print(json.dumps(row), flush=True)
            # free the data before the next cell
            w = A = Aw = AwT = Ap = Zw = ours = res = variants = None  # noqa: F841
    return rows


def from_counts(ms, K2_for, base, repeats=5):
    """Per call and marginal cost of one iteration from counts (square symmetric matrix)."""
    IBU = ldpy_ibu()
    rect = ibu_rect()
    rows = []
    noise = GaussianNoise(0.1)
    for m in ms:
        edges = np.linspace(0, 1, m + 1)
        A = response_matrix(edges, noise)  # m x m, mid-point
        A = 0.5 * (A + A.T)
        A /= A.sum(axis=0, keepdims=True)  # symmetric IBU input needs A == A.T
        A = 0.5 * (A + A.T)
        AT = np.ascontiguousarray(A.T)
        x = plateau(100_000, rng=2)
        N = np.histogram(np.clip(perturb(x, noise, rng=3), 0, 1 - 1e-12), edges)[0].astype(float)
        freq = N / N.sum()
        K2 = K2_for(m)
        K1 = max(1, K2 // 10)
        IBU(m, A, freq, 2, 0.0, "max_abs")  # compile first
        variants = {
            "ours": lambda K: reconstruct_counts(N, A, max_iter=K, tol=0.0),
            "stop": lambda K: reconstruct_counts(N, A, max_iter=K, tol=TOL_NEVER),
            "floor": lambda K: matvecs(A, AT, K),
            "ldpy": lambda K: IBU(m, A, freq, K, 0.0, "max_abs"),
        }
        if base is not None:
            variants["before"] = lambda K: base.reconstruction.reconstruct_counts(
                N, A, max_iter=K, tol=0.0)
        best, res = {(k, K): np.inf for k in variants for K in (K1, K2)}, {}
        for fn in variants.values():  # untimed: the first call at this size pays page faults
            fn(K1)
        for _ in range(repeats):
            for K in (K1, K2):
                for k, fn in variants.items():
                    t, res[k, K] = cpu(fn, K, target=0.05)  # differences need precision
                    best[k, K] = min(best[k, K], t)
        for k in ("ours", "before"):
            for K in (K1, K2):
                if (k, K) in res:
                    assert res[k, K].n_iter == K, (k, K, res[k, K].n_iter)
        # the stop test is never met unless successive estimates are equal to the last bit
        stop_ran = all(res["stop", K].n_iter == K for K in (K1, K2))
        ours = res["ours", K2].probabilities
        ldpy = res["ldpy", K2] / res["ldpy", K2].sum()
        row = dict(m=m, iters=K2, iters_k1=K1,
                   agree_ldpy=float(np.max(np.abs(ldpy - ours))),
                   ibu_rect_identical=bool(np.array_equal(
                       rect(m, A, AT, freq, K2, 0.0), res["ldpy", K2])))
        for k in variants:
            key = {"ours": "ours", "stop": "ours_stop", "floor": "floor", "ldpy": "ldpy",
                   "before": "before"}[k]
            marginal = (best[k, K2] - best[k, K1]) / (K2 - K1)
            row[f"{key}_us"] = 1e6 * best[k, K2] / K2  # per call: total / iterations
            row[f"{key}_marginal_us"] = 1e6 * marginal
            row[f"{key}_fixed_us"] = 1e6 * (best[k, K1] - K1 * marginal)
        if not stop_ran:  # it stopped early: not K iterations, no per-iteration cost
            row.update(ours_stop_us=None, ours_stop_marginal_us=None, ours_stop_fixed_us=None)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def matrix_build(m, base):
    noise = GaussianNoise(SIGMA)
    edges = np.linspace(0, 1, m + 1)
    L = 1.0 / m
    k_out = int(np.ceil(noise.support(1 - 1e-12)[1] / L)) + 2
    w_edges = np.arange(-k_out, m + k_out + 1) * L
    mw, mx = 0.5 * (w_edges[:-1] + w_edges[1:]), 0.5 * (edges[:-1] + edges[1:])
    variants = {"ours": lambda: response_matrix(edges, noise, w_edges),
                "floor": lambda: floor_matrix(mw, mx, SIGMA)}
    if base is not None:
        bn = base.GaussianNoise(SIGMA)
        variants["before"] = lambda: base.reconstruction.response_matrix(edges, bn, w_edges)
    best = {k: np.inf for k in variants}
    for _ in range(3):
        for k, fn in variants.items():
            t, A = cpu(fn)
            best[k] = min(best[k], t)
    size = A.nbytes
    row = dict(m=m, m_w=int(mw.size), entries=int(A.size), **best,
               ours_peak_copies=peak_bytes(variants["ours"]) / size)
    if base is not None:
        row["before_peak_copies"] = peak_bytes(variants["before"]) / size
    print(json.dumps(row), flush=True)
    return row


# -- the plot and the RESULTS.md section -----------------------------------------------------

# (key, label, colour (Okabe-Ito), marker, line style): each series differs in marker and line
# style too, so the plot reads without colour (and in grey scale)
SERIES = [
    ("ours", "ours (reconstruct, end to end)", "#0072B2", "o", "-"),
    ("floor", "floor (bincount + one matrix pass + 2 mat-vecs/iteration)", "#000000", "s", "--"),
    ("ours_counts", "ours from counts (reconstruct_counts, the same iterations)", "#56B4E9", "v",
     (0, (9, 3))),
    ("ldpy", "multi-freq-ldpy IBU loop (numba; iterations from counts)", "#E69F00", "^", "-."),
    ("pyunfold_smear", "pyunfold Mixer.smear (iterations from counts)", "#009E73", "D", ":"),
    ("before", "before (baseline checkout, end to end)", "#CC79A7", "x", (0, (5, 1, 1, 1, 1, 1))),
]


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ms = sorted({r["m"] for r in rows})
    cols = 2 if len(ms) > 1 else 1
    nrows = (len(ms) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 3.6 * nrows + 1.1), squeeze=False)
    handles = {}
    for ax, m in zip(axes.flat, ms):
        sub = sorted((r for r in rows if r["m"] == m), key=lambda r: r["n"])
        n = [r["n"] for r in sub]
        for key, label, color, marker, style in SERIES:
            if key not in sub[0]:
                continue
            (line,) = ax.loglog(n, [r[key] for r in sub], color=color, marker=marker,
                                linestyle=style, markersize=6, linewidth=1.5,
                                markerfacecolor="white" if key == "floor" else color)
            handles[label] = line
        ax.set_title(f"m = {m} intervals")
        ax.set_xlabel("n (perturbed values)")
        ax.xaxis.set_tick_params(labelbottom=True)
        ax.set_ylabel("CPU seconds (1 BLAS thread)")
        ax.grid(True, which="major", linewidth=0.4, alpha=0.5)
    for ax in list(axes.flat)[len(ms):]:
        ax.set_visible(False)
    fig.suptitle("reconstruct against its floor and its peers: time against n, log-log "
                 "(slope 1 = linear in n)", fontsize=11)
    fig.legend(list(handles.values()), list(handles.keys()), loc="lower center", ncol=2,
               fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 1.0 / (3.6 * nrows + 1.1), 1, 1 - 0.35 / (3.6 * nrows + 1.1)))
    fig.savefig(path, dpi=110)
    plt.close(fig)


START, END = "<!-- reconstruct_floor:start -->", "<!-- reconstruct_floor:end -->"


def _ratio(a, b):
    return None if a is None or b is None else a / b


def render(result) -> str:
    """The RESULTS.md section for one run (JSON written by this script)."""
    def f(x, digits=3):
        return "—" if x is None else f"{x:.{digits}g}"

    base = result.get("baseline") is not None
    command = ("python benchmarks/reconstruct_floor.py"
               + (" --baseline <checkout before issue 31>" if base else "")
               + (" --quick" if result.get("quick") else "") + " --write-results")
    lines = [START, "## Reconstruction against its floor and its peers (issue 31)", "",
             f"`{command}` — one process, one BLAS thread, CPU time, the variants of a cell "
             "interleaved, best repeat. "
             + ("*before* = the package before issue 31 (imported side by side), " if base else "")
             + "*ours* = this checkout. Load: `" + result["uptime"] + "` (start), `"
             + result["uptime_after"] + "` (end), 2 cores shared with other jobs: read the ratios,"
             " not the seconds.", "",
             "### End to end: `reconstruct(w, GaussianNoise(0.25), bounds=(0, 1), n_intervals=m)`",
             "",
             "floor = floor + bincount binning of w (one shot) + one blocked pass writing every "
             "matrix entry + iterations x two numpy mat-vecs. Peak = tracemalloc peak above the "
             "data, bytes per value. The peers start from counts: the same non-empty bin counts "
             "and the same m_w x m response matrix, the iterations `reconstruct` ran, no "
             "stopping test; *ours from counts* is `reconstruct_counts` on them (so *ours from "
             "counts / ldpy* compares the same work), and *agree* = max |difference| of the "
             "probabilities from it. *ldpy* = multi-freq-ldpy's `IBU` loop, numba-compiled "
             "(compilation untimed), with `A.T` in its second product: ldpy's `IBU` uses its one "
             "square matrix for both products, so it cannot take a rectangular matrix; on a "
             "symmetric one the loop returns exactly ldpy's `IBU` (checked in this run: "
             + ("yes" if all(r.get("ibu_rect_identical") for r in result["from_counts"]) else "NO")
             + "). *pyunfold smear* = pyunfold's update `pyunfold.mix.Mixer.smear` called once "
             "per iteration from `iterative_unfold`'s uniform start, with its covariance "
             "bookkeeping (`CovarianceMatrix.set_current_state`, O(m³ m_w) per iteration, an "
             "m x m·m_w derivative matrix) replaced by a no-op, in every cell; *pyunfold "
             "iterative_unfold* = the whole call (with the covariance), only where m² m_w x "
             f"iterations <= {result.get('iterative_unfold_cap', ITERATIVE_UNFOLD_MAX):.0e} (— elsewhere: minutes to hours, or "
             "more memory than the machine has). From 2^17 matrix entries on (here every cell "
             "with m >= 500) `reconstruct` does not store the matrix: on the equal-width grid it "
             "depends only on the shift between bin and interval, and both products are "
             "correlations of its m_w + m - 1 diagonals (`reconstruction._convolution`), so it "
             "can run below this floor, which counts a stored matrix; *ours from counts* and "
             "the peers still take the stored matrix. *same-bits bound* (stored-matrix cells): "
             "what any implementation that keeps the reproductions' bits must spend at least: "
             "`reconstruct`'s check of w (finite, min, max), the floor's binning, the matrix by "
             "`response_pairs` (the mid-point formula's 8 element-wise operations, one block) and, "
             "per iteration, the 7 numpy calls of the update in place (two mat-vecs, N / D, "
             "Pr x T, / n, the sum, / total) with no stopping test, guard or set-up; "
             "*ours / same-bits bound* is then the cost of the rest (argument checks, set-up, "
             "the paper's stopping test).", ""]
    head = ["n", "m", "m_w", "iter"] + (["before s"] if base else []) + [
        "ours s", "floor s"] + (["before / floor"] if base else []) + [
        "ours / floor", "same-bits bound / floor", "ours / same-bits bound",
        "ours from counts s", "ldpy s", "ours from counts / ldpy", "agree ldpy",
        "pyunfold smear s", "agree smear", "pyunfold iterative_unfold s", "agree iterative_unfold"
    ] + (["peak B/value before"] if base else []) + ["peak B/value ours"] + (
        ["agree before"] if base else [])
    lines += ["| " + " | ".join(head) + " |", "|" + " ---: |" * len(head)]
    for r in result["end_to_end"]:
        cells = [f"{r['n']:.0e}", str(r["m"]), str(r["m_w"]), str(r["n_iter"])]
        cells += [f(r.get("before"))] if base else []
        cells += [f(r["ours"]), f(r["floor"])]
        cells += [f(_ratio(r.get("before"), r["floor"]))] if base else []
        cells += [f(r["ours"] / r["floor"]), f(_ratio(r.get("same_bits"), r["floor"])),
                  f(_ratio(r["ours"], r.get("same_bits"))), f(r.get("ours_counts")), f(r.get("ldpy")),
                  f(_ratio(r.get("ours_counts"), r.get("ldpy"))), f(r.get("agree_ldpy"), 2),
                  f(r.get("pyunfold_smear")), f(r.get("agree_pyunfold_smear"), 2),
                  f(r.get("pyunfold")), f(r.get("agree_pyunfold"), 2)]
        cells += [f(r.get("before_peak_per_value"))] if base else []
        cells += [f(r["peak_per_value"])]
        cells += [f(r.get("agree_before"), 2)] if base else []
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "### One iteration from counts (square m x m matrix, fixed iterations, tol=0)", "",
              "Each variant timed at K1 and K2 iterations. *per call* = time(K2) / K2 (the "
              "fixed cost of a call spread over K2 iterations, as in earlier tables); *marginal* "
              "= (time(K2) - time(K1)) / (K2 - K1), the cost of one more iteration; *fixed* = "
              "time(K1) - K1 x marginal (argument checks, preparation of the matrix). The ratios "
              "are on the marginal cost. *ours, stop test on* = `tol=1e-300`: the paper's χ² "
              "test is evaluated but never met (the same K iterations, checked). ldpy = "
              "multi-freq-ldpy's own `IBU` (numba), compilation untimed.", ""]
    head = ["m", "K1 → K2", "ours µs per call", "ours µs marginal", "ours fixed µs",
            "ours µs marginal, stop test on", "two mat-vecs µs marginal", "ours / mat-vecs",
            "ldpy µs per call", "ldpy µs marginal", "ours / ldpy", "agree ldpy"] + (
        ["before µs per call", "before µs marginal"] if base else [])
    lines += ["| " + " | ".join(head) + " |", "|" + " ---: |" * len(head)]
    for r in result["from_counts"]:
        cells = [str(r["m"]), f"{r['iters_k1']} → {r['iters']}", f(r["ours_us"]),
                 f(r["ours_marginal_us"]), f(r["ours_fixed_us"]), f(r["ours_stop_marginal_us"]),
                 f(r["floor_marginal_us"]), f(r["ours_marginal_us"] / r["floor_marginal_us"]),
                 f(r["ldpy_us"]), f(r["ldpy_marginal_us"]),
                 f(r["ours_marginal_us"] / r["ldpy_marginal_us"]), f(r["agree_ldpy"], 2)]
        cells += [f(r.get("before_us")), f(r.get("before_marginal_us"))] if base else []
        lines.append("| " + " | ".join(cells) + " |")
    b = result["matrix_build"]
    lines += ["", f"### Matrix build, m = {b['m']}", "",
              "`response_matrix` (the stored matrix, as `Reconstructor`, `reconstruct_counts`'s "
              "callers and the peers above use it; `reconstruct` itself no longer builds one "
              "this large).", "",
              "| m_w | entries | before s | ours s | one-pass floor s | ours / floor | "
              "peak before (matrices) | peak ours (matrices) |",
              "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
              f"| {b['m_w']} | {b['entries']:,} | {f(b.get('before'))} | {f(b['ours'])} | "
              f"{f(b['floor'])} | {f(b['ours'] / b['floor'])} | {f(b.get('before_peak_copies'))} | "
              f"{f(b['ours_peak_copies'])} |", "",
              scaling_text(result["end_to_end"]), "", goals_text(result), "", END]
    return "\n".join(lines)


def scaling_text(rows) -> str:
    """How time grows with n, per m (the plot's content in words, generated from the data)."""
    parts = []
    ns = sorted({r["n"] for r in rows})
    lo_n, hi_n = (10**6, 10**7) if {10**6, 10**7} <= set(ns) else (ns[-2:] if len(ns) > 1
                                                                    else (None, None))
    for m in sorted({r["m"] for r in rows}):
        sub = {r["n"]: r for r in rows if r["m"] == m}
        if lo_n in sub and hi_n in sub:
            def slope(key):
                return np.log10(sub[hi_n][key] / sub[lo_n][key]) / np.log10(hi_n / lo_n)
            text = f"m = {m}: ours {slope('ours'):.2f}, floor {slope('floor'):.2f}"
            if "before" in sub[lo_n]:
                text += f", before {slope('before'):.2f}"
            parts.append(text)
    if not parts:
        return "Plot: `benchmarks/reconstruct_floor.png`."
    return (f"Growth exponent of the time from n = {lo_n:.0e} to {hi_n:.0e} (1 = linear; the "
            "iterations the paper's rule runs grow with n too): " + "; ".join(parts) + ". Plot "
            "(log-log time against n, one panel per m: ours, the floor, ldpy and pyunfold's "
            "update from counts, and before): `benchmarks/reconstruct_floor.png`.")


def goals_text(result) -> str:
    """Issue 31's goals, each checked against this run's numbers (met or not, with the misses)."""
    e2e, fc, b = result["end_to_end"], result["from_counts"], result["matrix_build"]

    def misses(rows, ok, label):
        bad = [label(r) for r in rows if not ok(r)]
        return f"met in {len(rows) - len(bad)} of {len(rows)}" + (f" (not: {', '.join(bad)})" if bad else "")

    cell = lambda r: f"n={r['n']:.0e} m={r['m']} {r['ours'] / r['floor']:.2f}x"  # noqa: E731
    big = [r for r in e2e if r["n"] >= 10**6]
    lines = [
        "Goals of issue 31 against this run:",
        "- end to end <= 1.5x the floor: " + misses(e2e, lambda r: r["ours"] <= 1.5 * r["floor"], cell)
        + ".",
        "- peak memory <= 16 bytes per value above the data at n >= 1e6: " + (misses(
            big, lambda r: r["peak_per_value"] <= 16,
            lambda r: f"n={r['n']:.0e} m={r['m']} {r['peak_per_value']:.1f} B") if big
            else "no cell with n >= 1e6 in this run") + ".",
        "- one iteration <= 3x the two mat-vecs (marginal cost): " + misses(
            fc, lambda r: r["ours_marginal_us"] <= 3 * r["floor_marginal_us"],
            lambda r: f"m={r['m']} {r['ours_marginal_us'] / r['floor_marginal_us']:.2f}x")
        + "; with the stop test on: " + misses(
            [r for r in fc if r["ours_stop_marginal_us"] is not None],
            lambda r: r["ours_stop_marginal_us"] <= 3 * r["floor_marginal_us"],
            lambda r: f"m={r['m']} {r['ours_stop_marginal_us'] / r['floor_marginal_us']:.2f}x")
        + ".",
        "- from counts (marginal) no slower than multi-freq-ldpy at m >= 500: " + misses(
            [r for r in fc if r["m"] >= 500], lambda r: r["ours_marginal_us"] <= r["ldpy_marginal_us"],
            lambda r: f"m={r['m']} {r['ours_marginal_us'] / r['ldpy_marginal_us']:.2f}x")
        + "; within 3x at m = 20-100: " + misses(
            [r for r in fc if r["m"] <= 100],
            lambda r: r["ours_marginal_us"] <= 3 * r["ldpy_marginal_us"],
            lambda r: f"m={r['m']} {r['ours_marginal_us'] / r['ldpy_marginal_us']:.1f}x")
        + ". ldpy's IBU is numba-compiled (one Python call per run); ours is numpy only "
        "(Pyodide), one call per operation.",
        f"- matrix build at m = {b['m']} <= 2x one pass: {b['ours'] / b['floor']:.2f}x; peak "
        f"{b['ours_peak_copies']:.2f} matrices (before: {b.get('before_peak_copies', float('nan')):.2f}).",
    ]
    return "\n".join(lines)


def write_results(result, path=HERE / "RESULTS.md"):
    """Replace (or append) this benchmark's section of RESULTS.md; other sections untouched."""
    text = path.read_text(encoding="utf-8")
    section = render(result)
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", help="checkout of an older ppdm-edu to time side by side")
    p.add_argument("--max-n", type=int, default=None,
                   help="largest n of the end-to-end grid (default 1e7; 1e5 with --quick)")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: n <= 1e5, m in {20, 100}, matrix build at m = 500, "
                        "2 repeats; output to a temporary directory unless --out")
    p.add_argument("--ms", type=lambda text: [int(v) for v in text.split(",")], default=None,
                   help="intervals m of the end-to-end grid, comma-separated (default "
                        "20,100,500,2000; 20,100 with --quick)")
    p.add_argument("--out", default=None,
                   help="JSON path (the plot goes next to it, .png); default "
                        "benchmarks/reconstruct_floor.json")
    p.add_argument("--write-results", action="store_true",
                   help="also write this run's section of benchmarks/RESULTS.md")
    p.add_argument("--render", metavar="JSON", help="only write RESULTS.md from a saved run")
    args = p.parse_args(argv)
    if args.render:
        write_results(json.loads(Path(args.render).read_text()))
        return
    if args.quick and args.write_results:
        p.error("--quick does not write RESULTS.md (a smoke run is not a result)")
    if args.out is None:
        args.out = (os.path.join(tempfile.mkdtemp(prefix="reconstruct_floor_"),
                                 "reconstruct_floor.json") if args.quick
                    else str(HERE / "reconstruct_floor.json"))
    max_n = args.max_n if args.max_n is not None else (10**5 if args.quick else 10**7)
    base = load_baseline(args.baseline) if args.baseline else None
    ns = [n for n in (10**4, 10**5, 10**6, 10**7) if n <= max_n]
    ms = args.ms or ([20, 100] if args.quick else [20, 100, 500, 2000])
    fc_ms = [20, 100] if args.quick else [20, 50, 100, 500, 1000, 2000]
    # load numba, the BLAS it calls and every peer before limiting the threads (threadpoolctl
    # limits the libraries loaded at that moment); compile ldpy's loops, untimed
    ibu_rect()
    ldpy_ibu()
    import pyunfold  # noqa: F401
    iu_cap = 1e7 if args.quick else ITERATIVE_UNFOLD_MAX
    with threadpool_limits(1):
        result = dict(iterative_unfold_cap=iu_cap,
            uptime=os.popen("uptime").read().strip(), numpy=np.__version__,
            package=ppdm_edu.__file__, baseline=args.baseline, quick=args.quick,
            threadpools=[{k: d.get(k) for k in ("internal_api", "num_threads", "filepath")}
                         for d in threadpool_info()],
            from_counts=from_counts(fc_ms, lambda m: 200 if m <= 500 else 40, base,
                                    repeats=2 if args.quick else 5),
            matrix_build=matrix_build(500 if args.quick else 2000, base),
            end_to_end=end_to_end(ns, ms, base,
                                  (lambda n: 2) if args.quick else
                                  (lambda n: 5 if n <= 10**5 else (2 if n <= 10**6 else 1)),
                                  iu_cap=iu_cap),
        )
        result["uptime_after"] = os.popen("uptime").read().strip()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1))
    plot(result["end_to_end"], Path(args.out).with_suffix(".png"))
    print(f"wrote {args.out} and {Path(args.out).with_suffix('.png')}", flush=True)
    if args.write_results:
        write_results(result)


if __name__ == "__main__":
    main()
