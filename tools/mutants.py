"""A small mutation check of the core modules: does the test suite catch deliberate bugs?

Each mutant below is one small change to one line of a core module (a sign, a bound, a dropped
factor or guard) with the tests that should catch it. For each, the package and its tests are
copied to a temporary folder, the change is applied there (never in this checkout), and those
tests are run; the mutant is *killed* when they fail. Mutants that cannot change behaviour
(equivalent ones) are listed with the reason and left out of the rate.

Usage: ``python tools/mutants.py [-k SUBSTRING] [--jobs N]``; prints one line per mutant and the
kill rate, and exits 1 when the rate is under ``--goal`` (default 0.95).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str          # the module, relative to the repository
    old: str           # text that occurs exactly once in it
    new: str           # what it becomes
    tests: tuple[str, ...]   # pytest arguments that should fail on the mutant
    equivalent: str = ""     # why it cannot change behaviour (then it is not counted)


RR = "ppdm_edu/randomized_response.py"
MECH = "ppdm_edu/mechanisms.py"
PRIV = "ppdm_edu/privacy.py"
CHECK = "ppdm_edu/exercises/checking.py"
ITER = "ppdm_edu/reconstruction/_iteration.py"
T_RR = ("tests/test_randomized_response.py", "tests/test_mechanism_refusals.py")
T_MECH = ("tests/test_mechanisms.py", "tests/test_mechanism_estimators.py", "tests/test_mechanism_refusals.py",
          "tests/test_ldp.py")
T_PRIV = ("tests/test_privacy.py",)
T_CHECK = ("tests/test_exercises.py", "tests/test_hints.py", "tests/test_exercise_inputs.py")
T_ITER = ("tests/test_reconstruction.py", "tests/test_reconstruction_exact.py",
          "tests/test_reconstruction_convolution.py")

MUTANTS: list[Mutant] = [
    # randomized_response: Warner (1965) Section 3 and Du & Zhan (2003) Section 4
    Mutant("rr: se_disguise without abs()", RR,
           "std_error_disguise=float(np.sqrt(theta * (1.0 - theta) / n) / abs(2.0 * theta - 1.0)),",
           "std_error_disguise=float(np.sqrt(theta * (1.0 - theta) / n) / (2.0 * theta - 1.0)),", T_RR),
    Mutant("rr: estimate's sign of (1 - theta)", RR,
           "est = float((yes - (1.0 - theta) * n) / ((2.0 * theta - 1.0) * n))",
           "est = float((yes + (1.0 - theta) * n) / ((2.0 * theta - 1.0) * n))", T_RR),
    Mutant("rr: clipped estimate not clipped at 1", RR,
           "clipped = min(max(est, 0.0), 1.0)", "clipped = max(est, 0.0)", T_RR),
    Mutant("rr: Warner variance without the device term", RR,
           "var = pi * (1 - pi) / n + theta * (1 - theta) / (n * (2 * theta - 1) ** 2)",
           "var = pi * (1 - pi) / n", T_RR),
    Mutant("rr: MRR solve swaps theta and 1 - theta", RR,
           "out = (theta * a - (1.0 - theta) * b) / (2.0 * theta - 1.0)",
           "out = ((1.0 - theta) * a - theta * b) / (2.0 * theta - 1.0)", T_RR),
    Mutant("rr: epsilon of theta drops the abs", RR,
           "out = np.abs(np.log(t) - np.log1p(-t))", "out = np.log(t) - np.log1p(-t)", T_RR),
    Mutant("rr: CI upper end not clipped", RR,
           "high = min(max(est + z * se, 0.0), 1.0)", "high = est + z * se", T_RR),
    # mechanisms: Wang et al. (2017) Section 4; the simplex projection of the inversion
    Mutant("mech: projection without the clip at 0", MECH,
           "p = np.maximum(v - excess[rho] / (rho + 1), 0.0)", "p = v - excess[rho] / (rho + 1)", T_MECH),
    Mutant("mech: projection sorted ascending", MECH,
           "u = np.sort(v)[::-1]", "u = np.sort(v)", T_MECH),
    Mutant("mech: GRR's p with k instead of k - 1", MECH,
           "return 1.0 / (1.0 + (self.k - 1) * t), t / (1.0 + (self.k - 1) * t)",
           "return 1.0 / (1.0 + self.k * t), t / (1.0 + self.k * t)", T_MECH),
    Mutant("mech: OUE's q = 1/(1 + e^eps) replaced by 1/2", MECH,
           "return 0.5, t / (1.0 + t)", "return 0.5, 0.5 * t", T_MECH),
    Mutant("mech: unbiased inversion without subtracting q", MECH,
           "return (N / n - q) / (p - q)  # Wang et al. 2017, Eq. 1 (GRR) and Eq. 2 (OUE)",
           "return (N / n) / (p - q)", T_MECH),
    Mutant("mech: O(k) response product drops the q term", MECH,
           "return (p - q) * v + q * v.sum()", "return (p - q) * v", T_MECH),
    # reconstruction: Agrawal & Srikant (2000) Section 3, Eq. 3 and Fig. 1
    Mutant("iter: Eq. 3 without the prior factor", ITER,
           "new = pr * (AT @ ratio) / n  # Pr(X in I_p) / n  sum_s A[s, p] N(I_s) / D_s",
           "new = (AT @ ratio) / n", T_ITER),
    Mutant("iter: Eq. 3 with A instead of its transpose", ITER,
           "new = pr * (AT @ ratio) / n  # Pr(X in I_p) / n  sum_s A[s, p] N(I_s) / D_s",
           "new = pr * (A @ ratio) / n", T_ITER),
    Mutant("iter: estimate not renormalised", ITER,
           "    total = new.sum()  # 1 up to rounding: dividing by it keeps the estimate a distribution\n"
           "    return new / total if 0.0 < total < math.inf else None",
           "    total = new.sum()\n    return new if 0.0 < total < math.inf else None", T_ITER,
           equivalent="sum_p pr_p sum_s A[s,p] N_s / D_s = sum_s N_s = n exactly, so the total is 1 "
                      "up to rounding; the division only removes rounding drift"),
    Mutant("iter: guarded Eq. 3 without the prior factor", ITER,
           "new = (pr * (AT @ ratio) + share) / n_eff", "new = ((AT @ ratio) + share) / n_eff", T_ITER),
    Mutant("iter: guarded Eq. 3 keeps n for the bins left out", ITER,
           "        n_eff = float(N[ok].sum())\n", "        n_eff = n\n", T_ITER,
           equivalent="the estimate is renormalised after the update, so dividing by n or by the "
                      "counts kept gives the same distribution"),
    Mutant("iter: chi^2 without dividing by the previous estimate", ITER,
           "return float(((after[pos] - before[pos]) ** 2 / before[pos]).sum())",
           "return float(((after[pos] - before[pos]) ** 2).sum())", T_ITER),
    # privacy: Agrawal & Aggarwal (2001) Pi(X) = 2^h(X), Liu et al. Eq. 2; Kraskov et al. MI
    Mutant("privacy: no Miller-Madow correction", PRIV,
           "h_nats += (np.count_nonzero(keep) - 1) / (2.0 * values.size)  # Miller & Madow (1955)",
           "h_nats += 0.0", T_PRIV),
    Mutant("privacy: Miller-Madow with n bins", PRIV,
           "h_nats += (np.count_nonzero(keep) - 1) / (2.0 * values.size)  # Miller & Madow (1955)",
           "h_nats += np.count_nonzero(keep) / (2.0 * values.size)", T_PRIV),
    Mutant("privacy: plug-in entropy without the bin width", PRIV,
           "h_nats = float(-np.sum(p * np.log(p / widths[keep])))", "h_nats = float(-np.sum(p * np.log(p)))",
           T_PRIV),
    Mutant("privacy: MI in bits not clamped at 0", PRIV,
           "return float(max(i_bits, 0.0) * _LN2 / math.log(base))",
           "return float(i_bits * _LN2 / math.log(base))", T_PRIV),
    Mutant("privacy: MI in nats not clamped at 0", PRIV,
           "return float(max(i_nats, 0.0) / math.log(base))", "return float(i_nats / math.log(base))", T_PRIV),
    # exercises/checking: the judge of every checked answer
    Mutant("checking: numeric verdict without the non-finite guard", CHECK,
           "    if not math.isfinite(value):\n        return Verdict(False, \"the answer is not a finite number.\")",
           "    pass", T_CHECK + ("tests/test_hints.py", "tests/test_exercise_inputs.py")),
    Mutant("checking: within-tolerance accepts NaN", CHECK,
           "return math.isfinite(value) and abs(value - reference) <= tol",
           "return abs(value - reference) <= tol or value != value", T_CHECK),
    Mutant("checking: as-written match ignores the rounding", CHECK,
           "return abs(round(target, decimals) - value) <= max(10.0 ** -(decimals + 6), 1e-12 * abs(value))",
           "return abs(target - value) <= max(10.0 ** -(decimals + 6), 1e-12 * abs(value))",
           T_CHECK + ("tests/test_hints.py",)),
    Mutant("checking: NaN inside a list not found", CHECK,
           "return any(_has_nan(a, seen) for a in answer)", "return False",
           T_CHECK + ("tests/test_exercise_inputs.py",)),
    Mutant("checking: known mistakes never matched", CHECK,
           "if matches_as_written(value, wrong) and not matches_as_written(value, reference):",
           "if False:", T_CHECK + ("tests/test_hints.py",)),
]


def _copy(dest: Path) -> None:
    for name in ("ppdm_edu", "tests", "notebooks", "reports", "site"):
        src = REPO / name
        if src.exists():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns(
                "__pycache__", "_build", "_static", "_generated", ".checkpoints", "quick"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, dest / name)


def run(m: Mutant) -> tuple[Mutant, str]:
    with tempfile.TemporaryDirectory(prefix="ppdm-mutant-") as tmp:
        root = Path(tmp)
        _copy(root)
        target = root / m.path
        text = target.read_text(encoding="utf-8")
        if text.count(m.old) != 1:
            return m, f"not applied: the text occurs {text.count(m.old)} times in {m.path}"
        target.write_text(text.replace(m.old, m.new), encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1")
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                               "-m", "not browser", *m.tests], cwd=root, env=env,
                              capture_output=True, text=True, timeout=1800)
        return m, "killed" if proc.returncode != 0 else "SURVIVED"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only mutants whose name contains this")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--goal", type=float, default=0.95)
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if args.k in m.name]
    counted = [m for m in chosen if not m.equivalent]
    for m in chosen:
        if m.equivalent:
            print(f"equivalent  {m.name}: {m.equivalent}")
    killed = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for m, outcome in pool.map(run, counted):
            print(f"{outcome:<9} {m.name} ({m.path})", flush=True)
            killed += outcome == "killed"
    rate = killed / len(counted) if counted else 1.0
    print(f"killed {killed} of {len(counted)} non-equivalent mutants ({rate:.0%}); "
          f"{len(chosen) - len(counted)} equivalent")
    return 0 if rate >= args.goal else 1


if __name__ == "__main__":
    raise SystemExit(main())
