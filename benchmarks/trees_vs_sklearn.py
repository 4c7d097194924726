"""Trees against scikit-learn, as ratios in one run (issue 31, goal 4).

1. **Memory**: peak extra memory of fitting the gini :class:`~ppdm_edu.trees.DecisionTree` on
   Agrawal's Function 5 at n = 10^6 records (9 attributes, float64), against scikit-learn's
   ``DecisionTreeClassifier`` (gini) on the same array. Each fit runs in a fresh process that
   loads the data from a ``.npy`` file; the extra memory is the process's peak resident set
   (``ru_maxrss``) minus its resident set just before ``fit``. Ours and sklearn's alternate.
2. **Time**: CPU time of :class:`~ppdm_edu.trees.C45` on the original Adult data (all 32,561
   training records, the six continuous attributes) against ``DecisionTreeClassifier(
   criterion="entropy")``, interleaved, one BLAS thread, median of the repeats.

Writes ``benchmarks/trees_vs_sklearn.json`` and ``.md`` next to this file.

Usage: ``python benchmarks/trees_vs_sklearn.py [--repeats 3] [--n 1000000] [--label after]``
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
X = np.load(sys.argv[2]); y = np.load(sys.argv[3])
if sys.argv[1] == "ours":
    from ppdm_edu.trees import DecisionTree as C
    clf = C()
else:
    from sklearn.tree import DecisionTreeClassifier as C
    clf = C(random_state=0)
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
clf.fit(X, y)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"before": before, "peak": peak, "leaves": int(clf.get_n_leaves() if hasattr(clf, "get_n_leaves") else clf.n_leaves_)}))
"""


def memory(n: int, repeats: int) -> dict:
    from ppdm_edu.datasets import agrawal

    X, y = agrawal(n, 5, rng=0)
    with tempfile.TemporaryDirectory() as tmp:
        xp, yp = Path(tmp) / "X.npy", Path(tmp) / "y.npy"
        np.save(xp, X.to_numpy(float))
        np.save(yp, np.asarray(y))
        data_mb = X.to_numpy(float).nbytes / 2**20
        runs = {"ours": [], "sklearn": []}
        for _ in range(repeats):
            for who in ("ours", "sklearn"):
                out = subprocess.run([sys.executable, "-c", _CHILD, who, str(xp), str(yp)],
                                     capture_output=True, text=True, check=True)
                r = json.loads(out.stdout.strip().splitlines()[-1])
                runs[who].append((r["peak"] - r["before"]) / 2**20)
    ours, skl = float(np.median(runs["ours"])), float(np.median(runs["sklearn"]))
    return {"n": n, "data_mb": data_mb, "ours_extra_mb": ours, "sklearn_extra_mb": skl,
            "ratio": ours / skl, "runs_mb": runs}


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
    parser.add_argument("--label", default="")
    parser.add_argument("--out", default=str(HERE / "trees_vs_sklearn"))
    args = parser.parse_args(argv)
    load = os.getloadavg()
    mem = memory(args.n, args.repeats)
    tim = c45_time(max(args.repeats, 5))
    result = {"label": args.label, "memory": mem, "c45_time": tim, "load_before": load,
              "load_after": os.getloadavg(), "python": platform.python_version(),
              "cpus": os.cpu_count(), "maxrss_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    Path(args.out + ".json").write_text(json.dumps(result, indent=1))
    md = (f"# Trees against scikit-learn {args.label}\n\n"
          f"`python benchmarks/trees_vs_sklearn.py --repeats {args.repeats} --n {args.n}`; "
          f"load average {load[0]:.2f} before, {result['load_after'][0]:.2f} after; {os.cpu_count()} CPUs, "
          f"one BLAS thread.\n\n"
          "| measure | ours | scikit-learn | ratio | target |\n| --- | --- | --- | --- | --- |\n"
          f"| peak extra memory, gini tree, F5, n = {args.n:,} | {mem['ours_extra_mb']:.0f} MB | "
          f"{mem['sklearn_extra_mb']:.0f} MB | {mem['ratio']:.2f} | <= 1.5 |\n"
          f"| CPU time, C4.5 vs entropy tree, Adult ({tim['n']:,} records) | {tim['ours_s']:.2f} s | "
          f"{tim['sklearn_s']:.2f} s | {tim['ratio']:.2f} | <= 1.5 |\n\n"
          f"Data: {mem['data_mb']:.0f} MB (float64). Runs (MB): {mem['runs_mb']}; (s): {tim['runs_s']}\n")
    Path(args.out + ".md").write_text(md)
    print(md)


if __name__ == "__main__":
    main()
