"""Trees against scikit-learn, as ratios in one run (issue 31, goal 4).

1. **Memory**: peak extra memory of fitting the gini :class:`~ppdm_edu.trees.DecisionTree` on
   Agrawal's Function 5 at n = 10^6 records (9 attributes, float64), against scikit-learn's
   ``DecisionTreeClassifier`` (gini) on the same array. Each fit runs in a fresh process that
   loads the data from a ``.npy`` file; the extra memory is the process's peak resident set
   (``VmHWM``, reset just before ``fit``) minus its resident set just before ``fit``. Ours and sklearn's alternate.
   The same for :class:`~ppdm_edu.trees.C45` against ``DecisionTreeClassifier(criterion=
   "entropy")`` at each ``--c45-n`` (default 10^5 and 10^6), with the CPU time of that fit and a
   sha256 of our fitted tree's arrays (to check that two versions grow the same trees).
2. **Time**: CPU time of :class:`~ppdm_edu.trees.C45` on the original Adult data (all 32,561
   training records, the six continuous attributes) against ``DecisionTreeClassifier(
   criterion="entropy")``, interleaved, one BLAS thread, median of the repeats.

Writes ``benchmarks/trees_vs_sklearn.json`` and ``.md`` next to this file.

Usage: ``python benchmarks/trees_vs_sklearn.py [--repeats 3] [--n 1000000] [--c45-n 100000 1000000] [--skip-gini] [--label after]``
"""
from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).parent

_CHILD = r"""
import os, resource, sys, json
import numpy as np
import hashlib, time
X = np.load(sys.argv[2]); y = np.load(sys.argv[3])
if sys.argv[1] == "ours":
    from ppdm_edu.trees import DecisionTree as C
    clf = C()
elif sys.argv[1] == "ours_c45":
    from ppdm_edu.trees import C45 as C
    clf = C()
else:
    from sklearn.tree import DecisionTreeClassifier as C
    clf = C(random_state=0, criterion="entropy" if sys.argv[1] == "sklearn_entropy" else "gini")
def rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
clf.fit(X[:1000], y[:1000])          # import-time and first-call allocations out of the way
import gc; gc.collect()
before = rss()
# ru_maxrss is a high-water mark: reset it where the kernel allows (Linux >= 4.0)
try:
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
except OSError:
    pass
start = time.process_time()
clf.fit(X, y)
cpu = time.process_time() - start
def high_water():
    # this process's own peak resident set (VmHWM, reset by clear_refs above); ru_maxrss would
    # also count the parent's resident set at fork time, which Linux carries over to the child
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
peak = high_water()
t = getattr(clf, "tree_", None)
# a fingerprint of the whole fitted tree, to check that two versions grow the same trees
tree_sha = hashlib.sha256(b"".join(np.ascontiguousarray(getattr(t, key)).tobytes() for key in
    ("feature", "threshold", "children_left", "children_right", "value"))).hexdigest()
print(json.dumps({"before": before, "peak": peak, "cpu_s": cpu, "tree_sha256": tree_sha,
                  "leaves": int(clf.get_n_leaves() if hasattr(clf, "get_n_leaves") else clf.n_leaves_)}))
"""


def memory(n: int, repeats: int, pair=("ours", "sklearn")) -> dict:
    """Peak extra memory (and CPU time) of one fit per fresh process, ``pair`` = (ours, theirs)."""
    from ppdm_edu.datasets import agrawal

    X, y = agrawal(n, 5, rng=0)
    with tempfile.TemporaryDirectory() as tmp:
        xp, yp = Path(tmp) / "X.npy", Path(tmp) / "y.npy"
        np.save(xp, X.to_numpy(float))
        np.save(yp, np.asarray(y))
        data_mb = X.to_numpy(float).nbytes / 2**20
        runs: dict = {"ours": [], "sklearn": []}
        cpu: dict = {"ours": [], "sklearn": []}
        shas = set()
        for _ in range(repeats):
            for who, child in zip(("ours", "sklearn"), pair):
                out = subprocess.run([sys.executable, "-c", _CHILD, child, str(xp), str(yp)],
                                     capture_output=True, text=True, check=True)
                r = json.loads(out.stdout.strip().splitlines()[-1])
                runs[who].append((r["peak"] - r["before"]) / 2**20)
                cpu[who].append(r["cpu_s"])
                if who == "ours":
                    shas.add(r["tree_sha256"])
    ours, skl = float(np.median(runs["ours"])), float(np.median(runs["sklearn"]))
    return {"n": n, "pair": list(pair), "data_mb": data_mb, "ours_extra_mb": ours, "sklearn_extra_mb": skl,
            "ratio": ours / skl, "runs_mb": runs, "ours_cpu_s": float(np.median(cpu["ours"])),
            "sklearn_cpu_s": float(np.median(cpu["sklearn"])), "runs_cpu_s": cpu,
            "ours_tree_sha256": sorted(shas)}


def c45_time(repeats: int) -> dict:
    from sklearn.tree import DecisionTreeClassifier

    from ppdm_edu.datasets import ADULT_CONTINUOUS, load_adult
    from ppdm_edu.trees import C45

    frame = load_adult("train").frame
    X = frame[ADULT_CONTINUOUS].to_numpy(float)
    y = frame["income"].to_numpy()
    times = {"ours": [], "sklearn": []}
    for _ in range(repeats):
        for who in ("ours", "sklearn"):
            clf = C45() if who == "ours" else DecisionTreeClassifier(criterion="entropy", random_state=0)
            start = time.process_time()
            clf.fit(X, y)
            times[who].append(time.process_time() - start)
    ours, skl = float(np.median(times["ours"])), float(np.median(times["sklearn"]))
    return {"n": int(X.shape[0]), "ours_s": ours, "sklearn_s": skl, "ratio": ours / skl, "runs_s": times}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--c45-n", type=int, nargs="*", default=[100_000, 1_000_000])
    parser.add_argument("--skip-gini", action="store_true", help="leave out the gini memory row")
    parser.add_argument("--label", default="")
    parser.add_argument("--out", default=str(HERE / "trees_vs_sklearn"))
    args = parser.parse_args(argv)
    load = os.getloadavg()
    mem = None if args.skip_gini else memory(args.n, args.repeats)
    c45_mem = [memory(n, args.repeats, ("ours_c45", "sklearn_entropy")) for n in args.c45_n]
    tim = c45_time(max(args.repeats, 5))
    result = {"label": args.label, "memory": mem, "c45_memory": c45_mem, "c45_time": tim, "load_before": load,
              "load_after": os.getloadavg(), "python": platform.python_version(),
              "cpus": os.cpu_count(), "maxrss_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    Path(args.out + ".json").write_text(json.dumps(result, indent=1))
    rows = []
    if mem is not None:
        rows.append(f"| peak extra memory, gini tree, F5, n = {args.n:,} | {mem['ours_extra_mb']:.0f} MB | "
                    f"{mem['sklearn_extra_mb']:.0f} MB | {mem['ratio']:.2f} | <= 1.5 |")
    for m in c45_mem:
        rows.append(f"| peak extra memory, C4.5 vs entropy tree, F5, n = {m['n']:,} | {m['ours_extra_mb']:.0f} MB | "
                    f"{m['sklearn_extra_mb']:.0f} MB | {m['ratio']:.2f} | <= 2 |")
        rows.append(f"| CPU time of that fit, n = {m['n']:,} | {m['ours_cpu_s']:.2f} s | "
                    f"{m['sklearn_cpu_s']:.2f} s | {m['ours_cpu_s'] / m['sklearn_cpu_s']:.2f} | |")
    rows.append(f"| CPU time, C4.5 vs entropy tree, Adult ({tim['n']:,} records) | {tim['ours_s']:.2f} s | "
                f"{tim['sklearn_s']:.2f} s | {tim['ratio']:.2f} | <= 1.5 |")
    md = (f"# Trees against scikit-learn {args.label}\n\n"
          f"`python benchmarks/trees_vs_sklearn.py {' '.join(argv if argv is not None else sys.argv[1:])}`; "
          f"load average {load[0]:.2f} before, {result['load_after'][0]:.2f} after; {os.cpu_count()} CPUs, "
          f"one BLAS thread.\n\n"
          "| measure | ours | scikit-learn | ratio | target |\n| --- | --- | --- | --- | --- |\n"
          + "\n".join(rows) + "\n\n"
          + (f"Data: {mem['data_mb']:.0f} MB (float64). Gini runs (MB): {mem['runs_mb']}\n\n" if mem else "")
          + "".join(f"C4.5 n = {m['n']:,}: runs (MB) {m['runs_mb']}; tree sha256 {m['ours_tree_sha256']}\n\n"
                    for m in c45_mem)
          + f"Adult runs (s): {tim['runs_s']}\n")
    Path(args.out + ".md").write_text(md)
    print(md)


if __name__ == "__main__":
    main()
