"""The bad-input sweep of ``test_api_sweep.py`` over every public callable of ``experiments``
and every option of the command line (issue 27, item 11).

``test_api_sweep.py`` sweeps the library modules; this file enumerates the ``__all__`` of every
module of ``ppdm_edu.experiments`` and needs a baseline in ``BASELINES`` for each callable (a new
one without fails ``test_every_experiments_callable_is_swept``). A baseline is a small valid call;
each parameter with a known kind (``test_api_sweep.KIND``) is then replaced by the bad values of
the catalogue. A reproduction's ``plan``/``assemble``/``reproduce``/``reproduce_all`` have no
cheap valid call (seconds to minutes): their baseline is ``None`` and only their bad values are
swept (they must be refused before any work: a run past ``TIME_LIMIT`` is a hang). The command
line: every option of ``reproduce`` (read from its parser) has bad values in ``CLI_BAD``, each of
which must end in one line on stderr, a non-zero exit code and no traceback.
"""
from __future__ import annotations

import importlib
import inspect
import os

import numpy as np
import pandas as pd
import pytest
from test_api_sweep import CATALOGUE, KIND, _call, _has_nan, _names_argument

from ppdm_edu import GaussianNoise
from ppdm_edu.__main__ import build_parser, main
from ppdm_edu.experiments.shapes import Float


def _experiments_modules() -> list[str]:
    """``experiments`` and every public module in it (a new one is enumerated without a list)."""
    import pkgutil

    import ppdm_edu.experiments as package

    return ["experiments"] + sorted(f"experiments.{m.name}" for m in pkgutil.iter_modules(package.__path__)
                                    if not m.name.startswith("_"))


EXPERIMENTS = _experiments_modules()
NAN = float("nan")


def _callables():
    out, seen = {}, set()
    for mod_name in EXPERIMENTS:
        mod = importlib.import_module(f"ppdm_edu.{mod_name}")
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name)
            if not callable(obj) or id(obj) in seen:
                continue
            seen.add(id(obj))
            if inspect.isclass(obj):
                continue  # exceptions, result records and the Task record: not called with user input
            out[f"{mod_name}.{name}"] = obj
    return out


CALLABLES = _callables()


def _frame_as2000():
    rows = [{"function": f, "noise": kind, "privacy": p, "algorithm": a, "run": r, "accuracy": 0.9,
             "seconds": 0.1, "n_leaves": 3}
            for f in (1, 2) for kind in ("gaussian", "uniform") for p in (0.25, 1.0)
            for a in ("original", "randomized", "global", "byclass", "local") for r in (0, 1)]
    return pd.DataFrame(rows)


def _late(qualname):
    """Baselines built when used (some need a fitted or computed input)."""
    from ppdm_edu.experiments import as2000_trees, liu

    if qualname == "experiments.as2000_trees.check_claims":
        return dict(s=as2000_trees.summarize(_frame_as2000()))
    if qualname == "experiments.as2000_trees.compare_with_reference":
        return dict(s=as2000_trees.summarize(_frame_as2000()))
    if qualname == "experiments.du_zhan.summarize_sweep":
        df = pd.DataFrame({"theta": [0.7, 0.7, 0.9, 0.9], "run": [0, 1, 0, 1], "accuracy": [0.8, 0.82, 0.85, 0.84],
                           "estimated_accuracy": [0.8, 0.8, 0.8, 0.8], "n_nodes": [5, 5, 5, 5]})
        df.attrs.update(original_accuracy=0.85, seed=0, disguised_label=True)
        return dict(df=df)
    if qualname == "experiments.liu.paper_vs_ours":
        records = liu.run_repeat(0, n_train=300, datasets=["data1"], reconstruction=False, weight_candidates=4)
        return dict(summary=liu.summarize(records), table="table4")
    if qualname == "experiments.liu.summarize":
        return dict(records=liu.run_repeat(0, n_train=300, datasets=["data1"], reconstruction=False,
                                           weight_candidates=4))
    raise KeyError(qualname)


X6 = np.random.default_rng(0).uniform(0, 1, (300, 6))
Y6 = (X6[:, 0] > 0.5).astype(int)
NOISES6 = [GaussianNoise(0.1)] * 6
BOUNDS6 = [(0.0, 1.0)] * 6

# qualname -> (kwargs or None (no cheap valid call; bad values only) or "late", overrides {param: kind})
BASELINES = {
    "experiments.load": (dict(name="du-zhan"), {"name": "choice"}),
    "experiments.as2000_accuracy": (dict(functions=(1,), noises=("gaussian",), privacy=(0.25,),
                                         algorithms=("original",), n_train=200, n_test=100, runs=1,
                                         progress=False, n_jobs=1), {}),
    "experiments.rr_theta_sweep": (None, {}),
    "experiments.report.verdict": (dict(paper=1.0, ours=1.1, tolerance=0.2),
                                   {"paper": "positive", "ours": "positive", "tolerance": "positive"}),
    "experiments.report.prepare_output": (dict(mode="quick", out_dir="out"), {}),
    "experiments.report.checkpoint_folder": (dict(out_dir="reports/quick"), {}),
    "experiments.report.with_task_counts": (None, {}),
    "experiments.report.run_reproduction": (None, {"n_jobs": "skip", "fresh": "skip", "progress": "skip"}),
    "experiments.report.documented_as": (dict(step="plan"), {"step": "choice"}),
    "experiments.report.check_plan": (dict(mode="quick", seed=0), {"seed": "int"}),
    "experiments.shapes.result_shape": (dict(shape=Float(0, 1)), {}),
    "experiments.shapes.shape_of": (dict(func=len, kwargs={}), {}),
    "experiments.tasks.run_tasks": (dict(tasks=[], progress=False), {"errors": "choice"}),
    "experiments.tasks.check_jobs": (dict(n_jobs=2), {"name": "skip"}),
    "experiments.tasks.check_scheduler_address": (dict(address="tcp://127.0.0.1:8786"), {}),
    "experiments.tasks.max_jobs": (dict(), {}),
    "experiments.tasks.task_rng": (dict(seed=0), {"seed": "seed"}),
    "experiments.tasks.task_seed_sequence": (dict(seed=0), {"seed": "seed"}),
    "experiments.tasks.root_seed": (dict(rng=3), {}),
    "experiments.tasks.execution": (None, {}),
    "experiments.outputs.output_lock": (None, {}),
    "experiments.outputs.staged_output": (None, {}),
    "experiments.outputs.published_path": (dict(path="reports/quick/REPORT.md"), {}),
    "experiments.outputs.disk_fault": (dict(exc=OSError(28, "No space left on device")), {}),
    "experiments.reproduce_all.reproduce_all": (None, {"seed": "int", "checkpoint": "bool", "echo": "bool",
                                                       "raise_on_error": "bool"}),
    "experiments.reproduce_all.summary_markdown": (dict(outcomes=[]), {}),
    "experiments.reproduce_all.report_markdown": (dict(outcomes=[], mode="quick", seed=0, seconds=1.0),
                                                   {"seed": "int", "seconds": "duration"}),
    "experiments.as2000_reconstruction.fig2_case": (dict(n=500, width=0.1), {"shape": "choice", "noise": "choice"}),
    "experiments.as2000_reconstruction.fig2_distances": (dict(n_seeds=1, n=500, width=0.1, n_jobs=1),
                                                          {"n_seeds": "int"}),
    "experiments.as2000_reconstruction.error_grid": (dict(ns=(500,), sigmas=(0.25,), n_seeds=1, width=0.1),
                                                      {"n_seeds": "int", "shape": "choice"}),
    "experiments.as2000_reconstruction.plan": (None, {"seed": "int"}),
    "experiments.as2000_reconstruction.assemble": (None, {"mode": "skip", "runs": "skip"}),
    "experiments.as2000_reconstruction.reproduce": (None, {"seed": "int"}),
    "experiments.as2000_trees.compare_stop_rules": (dict(functions=(1,), algorithms=("byclass",), n_train=300,
                                                         n_test=100), {"privacy": "positive", "n_test": "int"}),
    "experiments.as2000_trees.summarize": (dict(df=_frame_as2000()), {}),
    "experiments.as2000_trees.accuracy_table": (dict(df=_frame_as2000(), privacy=0.25), {"privacy": "positive"}),
    "experiments.as2000_trees.check_claims": ("late", {}),
    "experiments.as2000_trees.compare_with_reference": ("late", {}),
    "experiments.as2000_trees.plan": (None, {"seed": "int", "runs": "int"}),
    "experiments.as2000_trees.assemble": (None, {"mode": "skip", "runs": "skip"}),
    "experiments.as2000_trees.reproduce": (None, {"seed": "int", "runs": "int"}),
    "experiments.du_zhan.summarize_sweep": ("late", {}),
    "experiments.du_zhan.plan": (None, {"seed": "int"}),
    "experiments.du_zhan.assemble": (None, {"mode": "skip", "runs": "skip"}),
    "experiments.du_zhan.reproduce": (None, {"seed": "int"}),
    # perturb_every_column's and perturb's input checks are the house lane's (issue 27 item 8, issue 28)
    "experiments.liu.perturb_every_column": (dict(X=X6, noises=NOISES6, rng=0), {"X": "skip", "noises": "skip"}),
    "experiments.liu.privacy_loss_table": (dict(X=X6[:200], rng=0), {}),
    "experiments.liu.run_repeat": (dict(rng=0, n_train=300, datasets=["data1"], reconstruction=False,
                                        weight_candidates=4), {"weight_candidates": "int"}),
    "experiments.liu.reconstruct_by_class": (dict(W=X6, y=Y6, noises=NOISES6, bounds=BOUNDS6, n_intervals=10), {}),
    "experiments.tradeoff.task_error": (dict(seed=0, task="share", mechanism="grr", param=1.0, n=200, runs=2),
                                        {"seed": "int", "task": "choice", "mechanism": "choice"}),
    "experiments.tradeoff.audit_task": (dict(seed=0, task="share", mechanism="warner", param=1.0, trials=2000),
                                        {"seed": "int", "task": "choice", "mechanism": "choice"}),
    "experiments.tradeoff.calibration_task": (dict(seed=0, trials=(1000,)), {"seed": "int"}),
    "experiments.tradeoff.ibu_task": (dict(seed=0, iterations=20), {"seed": "int"}),
    "experiments.tradeoff.plan": (None, {"seed": "int"}),
    "experiments.tradeoff.assemble": (None, {"mode": "skip", "runs": "skip"}),
    "experiments.tradeoff.reproduce": (None, {"seed": "int"}),
    "experiments.reconstruction_attack.threshold_task": (dict(seed=0, n=20, per_bit=2, decoder="least-squares", run=0,
                                                              levels=(0.0, 1.0)),
                                                         {"seed": "int", "decoder": "choice", "levels": "skip"}),
    "experiments.reconstruction_attack.policy_task": (dict(seed=0, n=20, per_bit=2, run=0, policies=(("bounded", 0.5),)),
                                                      {"seed": "int", "policies": "skip"}),
    "experiments.reconstruction_attack.plan": (None, {"seed": "int"}),
    "experiments.reconstruction_attack.assemble": (None, {"mode": "skip", "runs": "skip"}),
    "experiments.reconstruction_attack.reproduce": (None, {"seed": "int"}),
    "experiments.liu.plan": (None, {"seed": "int"}),
    "experiments.liu.assemble": (None, {"mode": "skip", "runs": "skip"}),
    "experiments.liu.reproduce": (None, {"seed": "int"}),
    "experiments.liu.summarize": ("late", {}),
    "experiments.liu.threshold_curve": (dict(thresholds=[0.3, 0.6], kind="gaussian", snr=1.7, n_train=300, rng=0),
                                        {"thresholds": "thetas"}),
    "experiments.liu.paper_vs_ours": ("late", {"table": "choice"}),
}
# a NaN in a result is allowed only where it is the documented answer
NAN_DOCUMENTED = {
    "experiments.liu.summarize": "sd is NaN over one repeat; rows without a paper number have paper NaN",
    "experiments.liu.paper_vs_ours": "a row without a paper number is NaN in the paper column",
}
TIME_LIMIT_NOTE = "each case is cut at test_api_sweep.TIME_LIMIT seconds (a hang is a failure)"


def test_every_experiments_callable_is_swept():
    mine = set(CALLABLES)
    missing = sorted(mine - set(BASELINES))
    assert not missing, f"public callables of experiments with no sweep baseline: {missing}"
    stale = sorted(set(BASELINES) - mine)
    assert not stale, f"BASELINES names callables that are no longer public: {stale}"


def _cases():
    for qualname, (kwargs, overrides) in BASELINES.items():
        obj = CALLABLES.get(qualname)
        if obj is None:
            continue
        if kwargs == "late":
            kwargs = _late(qualname)
        base = dict(kwargs) if kwargs is not None else {}
        if kwargs is not None:
            yield qualname, "(baseline)", lambda o=obj, k=base: o(**k), None
        for pname in inspect.signature(obj).parameters:
            kind = overrides.get(pname, KIND.get(pname))
            if kind in (None, "skip"):
                continue
            for bad in CATALOGUE[kind]:
                yield qualname, pname, lambda o=obj, k={**base, pname: bad}: o(**k), bad


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    rows = []
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("sweep"))   # a reproduction that runs writes here, not in reports/
    try:
        for qualname, pname, thunk, bad in _cases():
            status, value = _call(thunk)
            row = {"callable": qualname, "parameter": pname, "value": repr(bad)[:40], "status": status}
            if status == "ok" and _has_nan(value) and qualname not in NAN_DOCUMENTED:
                row["status"] = "nan"
            elif status == "ok" and pname != "(baseline)":
                row["status"] = "accepted"
            if status in ("refused", "other", "memory"):
                row["error"] = f"{type(value).__name__}: {str(value)[:160]}"
                row["named"] = _names_argument(value, pname)
            rows.append(row)
    finally:
        os.chdir(here)
    return rows


def test_every_experiments_baseline_works(sweep):
    broken = [(r["callable"], r["status"], r.get("error")) for r in sweep
              if r["parameter"] == "(baseline)" and r["status"] != "ok"]
    assert not broken, broken


def test_experiments_no_hang_no_nan_no_obscure_exception(sweep):
    bad = [(r["callable"], r["parameter"], r["value"], r["status"], r.get("error")) for r in sweep
           if r["status"] in ("hang", "memory", "nan", "other")]
    assert not bad, f"{len(bad)} cases:\n" + "\n".join(map(str, bad))


# the modules of the command line's own machinery: every bad value is refused (none accepted)
CLI_MODULES = ("experiments.tasks.", "experiments.outputs.", "experiments.reproduce_all.", "experiments.shapes.",
               "experiments.load")


def test_the_cli_machinery_accepts_no_bad_value(sweep):
    accepted = [(r["callable"], r["parameter"], r["value"]) for r in sweep
                if r["status"] == "accepted" and r["callable"].startswith(CLI_MODULES)]
    assert not accepted, f"{len(accepted)} bad values accepted:\n" + "\n".join(map(str, accepted))


def test_experiments_refusals_name_the_argument(sweep):
    refused = [r for r in sweep if r["status"] == "refused"]
    unnamed = [(r["callable"], r["parameter"], r["value"], r["error"]) for r in refused if not r["named"]]
    share = 1 - len(unnamed) / max(len(refused), 1)
    assert share >= 0.99, f"{share:.1%} of {len(refused)} refusals name the argument; not:\n" + \
        "\n".join(map(str, unnamed))


# -- the command line -----------------------------------------------------------------------------
# option -> argument lists that must each be refused in one line (the name is du-zhan unless given)
CLI_BAD = {
    "name": [["reproduce", "nope"], ["reproduce"]],
    "--quick": [["reproduce", "du-zhan", "--quick", "--full"], ["reproduce", "du-zhan", "--quick=yes"]],
    "--full": [["reproduce", "du-zhan", "--full", "--quick"]],
    "--out": [["reproduce", "du-zhan", "--out", "{file}"], ["reproduce", "du-zhan", "--out", "{file}/sub"],
              ["reproduce", "du-zhan", "--out"]],
    "--seed": [["reproduce", "du-zhan", "--seed", v] for v in ("-1", "x", "1.5", "nan", str(2**32))],
    "--jobs": [["reproduce", "du-zhan", "--jobs", v] for v in ("0", "-2", "x", "1.5", "1000000", "1e6")],
    "--backend": [["reproduce", "du-zhan", "--backend", "spark"]],
    "--scheduler": [["reproduce", "du-zhan", "--scheduler", "tcp://127.0.0.1:1"],
                    ["reproduce", "du-zhan", "--backend", "dask", "--scheduler", "not an address"],
                    ["reproduce", "du-zhan", "--backend", "dask", "--scheduler", "tls://127.0.0.1:8786"]],
    "--timeout": [["reproduce", "du-zhan", "--timeout", v] for v in ("0", "-1", "nan", "inf", "x")],
    "--fresh": [["reproduce", "du-zhan", "--fresh=yes"]],
    "--verify": [["reproduce", "du-zhan", "--verify", v] for v in ("-1", "x", "1.5", "1e9", "")],
    "--verify-key": [["reproduce", "du-zhan", "--verify-key", v] for v in ("-1", "x", "1.5", str(2**63))],
    "--help": [],       # prints the help, exit 0
    "--version": [],    # prints the version, exit 0
    "command": [[], ["nope"]],
}


def _options(parser) -> set[str]:
    names = set()
    for action in parser._actions:
        if action.option_strings:
            names.add(max(action.option_strings, key=len))
        elif action.dest != "help":
            names.add(action.dest)
    return names


def test_every_cli_option_has_bad_values():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    options = _options(parser) | _options(sub.choices["reproduce"])
    missing = sorted(options - set(CLI_BAD))
    assert not missing, f"CLI options without bad values in CLI_BAD: {missing}"


@pytest.mark.parametrize("argv", [argv for values in CLI_BAD.values() for argv in values],
                         ids=lambda argv: " ".join(argv) or "(nothing)")
def test_a_bad_cli_option_is_one_line(argv, tmp_path, capsys, monkeypatch):
    pytest.importorskip("dask.distributed")
    monkeypatch.chdir(tmp_path)  # the default --out is relative: nothing may appear anywhere
    afile = tmp_path / "afile"
    afile.write_text("x")
    argv = [a.replace("{file}", str(afile)) for a in argv]
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code not in (0, None), (argv, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in err, err
    assert not (tmp_path / "reports").exists(), f"{argv}: refused after touching the output folder"


def test_help_and_version_exit_0(capsys):
    for argv in (["--help"], ["--version"], ["reproduce", "--help"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 0
    assert "--timeout" in capsys.readouterr().out
