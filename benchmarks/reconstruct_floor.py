"""`reconstruct` against its floor and its peers, as ratios of CPU time in one interleaved run.

    python benchmarks/reconstruct_floor.py [--baseline /path/to/old/checkout] [--max-n 10000000]

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
  pyunfold's ``iterative_unfold`` runs the same number of iterations on the same counts and
  matrix (m = 20, and m = 100 at n = 1e4 only: it propagates a covariance each iteration,
  O(m_w m^2), 30-50 s a call at m = 100); "agree" is the
  largest absolute difference of the estimated probabilities.
* **from counts, per iteration** (square m x m matrix, symmetric, columns summing to 1, a fixed
  number of iterations): ``reconstruct_counts`` against the two-mat-vec floor and
  multi-freq-ldpy's ``IBU`` (numba-compiled; the same update).
* **matrix build** at m = 2000 (m_w ~ 9,100 observed bins): ``response_matrix`` against the
  same one-pass floor; peak memory in copies of the matrix.

Writes ``benchmarks/reconstruct_floor.json`` and ``benchmarks/reconstruct_floor.png`` (time
against n per m, log-log: linear in n is slope 1). ``RESULTS.md``'s section is written from the
JSON by hand (the load of the machine goes with it).
"""
from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import ppdm_edu  # noqa: E402
from ppdm_edu import GaussianNoise, perturb, plateau  # noqa: E402
from ppdm_edu.reconstruction import reconstruct, reconstruct_counts, response_matrix  # noqa: E402

SIGMA = 0.25


def load_baseline(path):
    """Import the package of another checkout as ``ppdm_edu_baseline`` (side by side)."""
    init = Path(path) / "ppdm_edu" / "__init__.py"
    spec = importlib.util.spec_from_file_location("ppdm_edu_baseline", init,
                                                  submodule_search_locations=[str(init.parent)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["ppdm_edu_baseline"] = mod
    spec.loader.exec_module(mod)
    return mod


def cpu(fn, *args, **kw):
    """CPU seconds of one call; a short call is repeated (to ~20 ms) and averaged."""
    gc.collect()
    t0 = time.process_time()
    out = fn(*args, **kw)
    t = time.process_time() - t0
    if t < 0.02:
        reps = min(200, int(0.02 / max(t, 1e-6)) + 1)
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


def matvec_time(A, reps):
    """CPU seconds of one iteration's two mat-vecs (best of a few batches)."""
    AT = np.ascontiguousarray(A.T)
    pr = np.full(A.shape[1], 1.0 / A.shape[1])
    ratio = np.ones(A.shape[0])
    best = np.inf
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(reps):
            A @ pr
            AT @ ratio
        best = min(best, (time.process_time() - t0) / reps)
    return best


def pyunfold_run(N, A, n_iter):
    import pyunfold
    z = np.zeros_like(A)
    out = pyunfold.iterative_unfold(data=N, data_err=np.sqrt(N), response=A, response_err=z,
                                    efficiencies=np.ones(A.shape[1]),
                                    efficiencies_err=np.zeros(A.shape[1]),
                                    ts_stopping=0.0, max_iter=n_iter)
    u = out["unfolded"]
    return u / u.sum(), int(out["num_iterations"])


def end_to_end(ns, ms, base, repeats_for):
    rows = []
    for m in ms:
        for n in ns:
            x = plateau(n, rng=0)
            noise = GaussianNoise(SIGMA)
            w = perturb(x, noise, rng=1)
            del x
            lo, L = 0.0, 1.0 / m
            variants = {"ours": lambda: reconstruct(w, noise, bounds=(0, 1), n_intervals=m,
                                                    keep_history=False)}
            if base is not None:
                bnoise = base.GaussianNoise(SIGMA)
                variants["before"] = lambda: base.reconstruct(w, bnoise, bounds=(0, 1),
                                                              n_intervals=m, keep_history=False)
            best = {k: np.inf for k in ["floor_bin", "floor_matrix", *variants]}
            res = {}
            for _ in range(repeats_for(n)):
                t, (counts, kmin) = cpu(floor_binning, w, lo, L)
                best["floor_bin"] = min(best["floor_bin"], t)
                nz = np.flatnonzero(counts)
                mw = lo + (nz + kmin + 0.5) * L
                mx = (np.arange(m) + 0.5) * L
                t, A = cpu(floor_matrix, mw, mx, SIGMA)
                best["floor_matrix"] = min(best["floor_matrix"], t)
                for k, fn in variants.items():
                    t, res[k] = cpu(fn)
                    best[k] = min(best[k], t)
            n_iter = res["ours"].n_iter
            t_mv = matvec_time(A, max(3, int(2e6 // A.size)))
            floor = best["floor_bin"] + best["floor_matrix"] + n_iter * t_mv
            row = dict(n=n, m=m, m_w=int(A.shape[0]), n_iter=n_iter, ours=best["ours"],
                       floor=floor, floor_bin=best["floor_bin"], floor_matrix=best["floor_matrix"],
                       floor_iter=n_iter * t_mv, peak_per_value=peak_bytes(variants["ours"]) / n)
            if "before" in res:
                row["before"] = best["before"]
                row["before_peak_per_value"] = peak_bytes(variants["before"]) / n
                row["agree_before"] = float(np.max(np.abs(res["before"].probabilities
                                                          - res["ours"].probabilities)))
                assert res["before"].n_iter == n_iter
            if m == 20 or (m == 100 and n == 10**4):  # the same counts, matrix and iterations
                Nw = counts[nz].astype(float)
                Aw = response_matrix(np.linspace(0, 1, m + 1), noise,
                                     np.concatenate([mw - 0.5 * L, [mw[-1] + 0.5 * L]]))
                t, (u, k_run) = cpu(pyunfold_run, Nw, Aw / Aw.max(), n_iter)
                mine = reconstruct_counts(Nw, Aw, max_iter=n_iter, tol=0.0).probabilities
                row.update(pyunfold=t, pyunfold_iter=k_run,
                           agree_pyunfold=float(np.max(np.abs(u - mine))))
            rows.append(row)
            print(json.dumps(row), flush=True)
            w = A = res = variants = None  # free the data before the next cell
    return rows


def from_counts(ms, iters, base):
    from multi_freq_ldpy.estimators.Histogram_estimator import IBU

    rows = []
    noise = GaussianNoise(0.1)
    for m in ms:
        edges = np.linspace(0, 1, m + 1)
        A = response_matrix(edges, noise)  # m x m, mid-point
        A = 0.5 * (A + A.T)
        A /= A.sum(axis=0, keepdims=True)  # symmetric IBU input needs A == A.T
        A = 0.5 * (A + A.T)
        x = plateau(100_000, rng=2)
        N = np.histogram(np.clip(perturb(x, noise, rng=3), 0, 1 - 1e-12), edges)[0].astype(float)
        freq = N / N.sum()
        K = iters if m <= 500 else max(20, iters // 5)
        IBU(m, A, freq, 2, 0.0, "max_abs")  # compile first
        variants = {
            "ours": lambda: reconstruct_counts(N, A, max_iter=K, tol=0.0).probabilities,
            "ldpy": lambda: IBU(m, A, freq, K, 0.0, "max_abs"),
        }
        if base is not None:
            variants["before"] = lambda: base.reconstruction.reconstruct_counts(N, A, max_iter=K,
                                                                 tol=0.0).probabilities
        best, res = {k: np.inf for k in variants}, {}
        for _ in range(5):
            for k, fn in variants.items():
                t, res[k] = cpu(fn)
                best[k] = min(best[k], t)
        t_mv = matvec_time(A, max(20, int(2e6 // A.size)))
        ldpy = res["ldpy"] / res["ldpy"].sum()
        row = dict(m=m, iters=K, ours_us=1e6 * best["ours"] / K, floor_us=1e6 * t_mv,
                   ldpy_us=1e6 * best["ldpy"] / K,
                   agree_ldpy=float(np.max(np.abs(ldpy - res["ours"]))))
        if "before" in best:
            row["before_us"] = 1e6 * best["before"] / K
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


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    colors = ["#0072B2", "#E69F00", "#009E73", "#CC79A7"]  # Okabe-Ito: colour-vision safe
    for color, m in zip(colors, sorted({r["m"] for r in rows})):
        sub = sorted((r for r in rows if r["m"] == m), key=lambda r: r["n"])
        n = [r["n"] for r in sub]
        ax.loglog(n, [r["ours"] for r in sub], "o-", color=color, label=f"ours, m={m}")
        ax.loglog(n, [r["floor"] for r in sub], "--", color=color, label=f"floor, m={m}")
        if "before" in sub[0]:
            ax.loglog(n, [r["before"] for r in sub], "x:", color=color, label=f"before, m={m}")
    ax.set_xlabel("n (perturbed values)")
    ax.set_ylabel("CPU seconds, one BLAS thread")
    ax.set_title("reconstruct end to end against its floor (log-log; slope 1 = linear in n)")
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


START, END = "<!-- reconstruct_floor:start -->", "<!-- reconstruct_floor:end -->"


def render(result) -> str:
    """The RESULTS.md section for one run (JSON written by this script)."""
    def f(x, digits=3):
        return "—" if x is None else f"{x:.{digits}g}"

    lines = [START, "## Reconstruction against its floor and its peers (issue 31)", "",
             "`python benchmarks/reconstruct_floor.py --baseline <main checkout> --write-results`"
             " — one process, one BLAS thread, CPU time, the variants of a cell interleaved, "
             "best repeat. *before* = the package before issue 31 (imported side by side), "
             "*ours* = this checkout. Load: `" + result["uptime"] + "` (start), `"
             + result["uptime_after"] + "` (end), 2 cores shared with other jobs: read the ratios,"
             " not the seconds.", "",
             "### End to end: `reconstruct(w, GaussianNoise(0.25), bounds=(0, 1), n_intervals=m)`",
             "",
             "floor = floor + bincount binning of w (one shot) + one blocked pass writing every "
             "matrix entry + iterations x two numpy mat-vecs. Peak = tracemalloc peak above the "
             "data, bytes per value. agree = max |difference| of the probabilities.", "",
             "| n | m | m_w | iter | before s | ours s | floor s | before / floor | ours / floor "
             "| peak B/value before | peak B/value ours | pyunfold s | agree pyunfold | agree before |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in result["end_to_end"]:
        lines.append(
            f"| {r['n']:.0e} | {r['m']} | {r['m_w']} | {r['n_iter']} | {f(r.get('before'))} | "
            f"{f(r['ours'])} | {f(r['floor'])} | "
            f"{f(r['before'] / r['floor'] if 'before' in r else None)} | {f(r['ours'] / r['floor'])} | "
            f"{f(r.get('before_peak_per_value'))} | {f(r['peak_per_value'])} | {f(r.get('pyunfold'))} | "
            f"{f(r.get('agree_pyunfold'), 2)} | {f(r.get('agree_before'), 2)} |")
    lines += ["", "### One iteration from counts (square m x m matrix, fixed iterations)", "",
              "| m | iterations | before µs | ours µs | two mat-vecs µs | ours / mat-vecs | "
              "multi-freq-ldpy IBU µs (numba) | ours / ldpy | agree ldpy |",
              "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in result["from_counts"]:
        lines.append(f"| {r['m']} | {r['iters']} | {f(r.get('before_us'))} | {f(r['ours_us'])} | "
                     f"{f(r['floor_us'])} | {f(r['ours_us'] / r['floor_us'])} | {f(r['ldpy_us'])} | "
                     f"{f(r['ours_us'] / r['ldpy_us'])} | {f(r['agree_ldpy'], 2)} |")
    b = result["matrix_build"]
    lines += ["", "### Matrix build, m = 2000", "",
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
    for m in sorted({r["m"] for r in rows}):
        sub = {r["n"]: r for r in rows if r["m"] == m}
        if 10**6 in sub and 10**7 in sub:
            def slope(key):
                return np.log10(sub[10**7][key] / sub[10**6][key])
            text = f"m = {m}: ours {slope('ours'):.2f}"
            if "before" in sub[10**6]:
                text += f", before {slope('before'):.2f}"
            parts.append(text)
    return ("Growth exponent of the time from n = 1e6 to 1e7 (1 = linear; the iterations the "
            "paper's rule runs grow with n too): " + "; ".join(parts) + ". Plot (log-log time "
            "against n per m, ours, before and the floor): `benchmarks/reconstruct_floor.png`.")


def goals_text(result) -> str:
    """Issue 31's goals, each checked against this run's numbers (met or not, with the misses)."""
    e2e, fc, b = result["end_to_end"], result["from_counts"], result["matrix_build"]

    def misses(rows, ok, label):
        bad = [label(r) for r in rows if not ok(r)]
        return f"met in {len(rows) - len(bad)} of {len(rows)}" + (f" (not: {', '.join(bad)})" if bad else "")

    cell = lambda r: f"n={r['n']:.0e} m={r['m']} {r['ours'] / r['floor']:.2f}x"  # noqa: E731
    lines = [
        "Goals of issue 31 against this run:",
        "- end to end <= 1.5x the floor: " + misses(e2e, lambda r: r["ours"] <= 1.5 * r["floor"], cell)
        + ". Where n is small the fixed Python cost of one call (argument checks, the grid, the "
        "block bookkeeping: ~0.1-0.2 ms) is several floors; at n >= 1e6 the blocked binning is "
        "faster than the one-shot floor + bincount, so the ratio drops below 1.",
        "- peak memory <= 16 bytes per value above the data at n >= 1e6: " + misses(
            [r for r in e2e if r["n"] >= 10**6], lambda r: r["peak_per_value"] <= 16,
            lambda r: f"n={r['n']:.0e} m={r['m']} {r['peak_per_value']:.1f} B (the m_w x m matrix "
                      "and its transpose)")
        + "; below 1e6 the matrices (m_w x m, twice) dominate, not the values.",
        "- one iteration <= 3x the two mat-vecs: " + misses(
            fc, lambda r: r["ours_us"] <= 3 * r["floor_us"],
            lambda r: f"m={r['m']} {r['ours_us'] / r['floor_us']:.2f}x"),
        "- from counts no slower than multi-freq-ldpy at m >= 500: " + misses(
            [r for r in fc if r["m"] >= 500], lambda r: r["ours_us"] <= r["ldpy_us"],
            lambda r: f"m={r['m']} {r['ours_us'] / r['ldpy_us']:.2f}x")
        + "; within 3x at m = 20-100: " + misses(
            [r for r in fc if r["m"] <= 100], lambda r: r["ours_us"] <= 3 * r["ldpy_us"],
            lambda r: f"m={r['m']} {r['ours_us'] / r['ldpy_us']:.1f}x")
        + ". ldpy's IBU is numba-compiled (one Python call per run); ours is numpy only "
        "(Pyodide), one call per operation, and keeps two orientations of the matrix (A and a "
        "C-contiguous A.T) because `ratio @ A` sums in another order than `A.T @ ratio` "
        "(last-bit differences, which the byte-identical reproductions forbid); at m = 500 two "
        "matrices no longer fit the cache where ldpy's one symmetric matrix does. At m >= 1000 the "
        "iterations run at the mat-vec floor; the difference is the one-off preparation of the "
        "caller's matrix (two validation passes, the scaled copy, the transposed copy) spread "
        "over this test's 40 iterations.",
        f"- matrix build at m = 2000 <= 2x one pass: {b['ours'] / b['floor']:.2f}x; peak "
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
    p.add_argument("--max-n", type=int, default=10**7)
    p.add_argument("--out", default=str(HERE / "reconstruct_floor.json"))
    p.add_argument("--write-results", action="store_true",
                   help="also write this run's section of benchmarks/RESULTS.md")
    p.add_argument("--render", metavar="JSON", help="only write RESULTS.md from a saved run")
    args = p.parse_args(argv)
    if args.render:
        write_results(json.loads(Path(args.render).read_text()))
        return
    base = load_baseline(args.baseline) if args.baseline else None
    ns = [n for n in (10**4, 10**5, 10**6, 10**7) if n <= args.max_n]
    ms = [20, 100, 500, 2000]
    with threadpool_limits(1):
        result = dict(
            uptime=os.popen("uptime").read().strip(), numpy=np.__version__,
            package=ppdm_edu.__file__, baseline=args.baseline,
            from_counts=from_counts([20, 50, 100, 500, 1000, 2000], 200, base),
            matrix_build=matrix_build(2000, base),
            end_to_end=end_to_end(ns, ms, base, lambda n: 5 if n <= 10**5 else (2 if n <= 10**6 else 1)),
        )
        result["uptime_after"] = os.popen("uptime").read().strip()
    Path(args.out).write_text(json.dumps(result, indent=1))
    plot(result["end_to_end"], Path(args.out).with_suffix(".png"))
    if args.write_results:
        write_results(result)


if __name__ == "__main__":
    main()
