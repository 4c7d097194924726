"""Checkpoints are data, never code, never stale, and used only if they fit their task's shape."""
from __future__ import annotations

import json
import math
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

import ppdm_edu
from ppdm_edu.__main__ import main
from ppdm_edu.experiments import du_zhan
from ppdm_edu.experiments import shapes as S
from ppdm_edu.experiments.tasks import Task, run_tasks

ROOT = Path(__file__).resolve().parents[1]


@S.result_shape(lambda kw: S.Record(x=S.Exactly(kw["x"]), twice=S.Int(-10**6, 10**6)))
def double(x):
    """A task for the tests: module-level, so it can be checkpointed."""
    return {"x": x, "twice": 2 * x}


class _Payload:
    """Unpickling this runs code: it creates the file ``marker``."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (Path.touch, (Path(self.marker),))


def _only_file(folder: Path) -> Path:
    files = [p for p in folder.iterdir() if p.is_file()]
    assert len(files) == 1, files
    return files[0]


def test_a_crafted_pickle_never_runs(tmp_path, capsys):
    folder = tmp_path / "ckpt"
    task = Task(("double", 3), double, {"x": 3})
    run_tasks([task], n_jobs=1, checkpoint_dir=folder, progress=False)
    stored = _only_file(folder)
    marker = tmp_path / "the pickle ran"
    # a pickle where a checkpoint is expected: under the .pkl name older versions used and
    # under the name this version reads
    for name in (stored.with_suffix(".pkl"), stored):
        name.write_bytes(pickle.dumps({"key": ["double", 3], "result": _Payload(marker)}))
    done = run_tasks([task], n_jobs=1, checkpoint_dir=folder, progress=False)
    assert not marker.exists()
    assert done.results == [{"x": 3, "twice": 6}] and done.computed == (("double", 3),)
    assert "never opened" in capsys.readouterr().err


@pytest.mark.parametrize("content", [
    b"\x80\x04not json at all",
    b"[1, 2]",
    b'{"format": "ppdm-edu task checkpoint", "version": 1}',
    b'{"format": "ppdm-edu task checkpoint", "version": 2, "key": ["double", 3], "result": {"~": "tag"}}',
    b'{"format": "ppdm-edu task checkpoint", "version": 2, "key": ["double", 3], "result": NaN}',
    b'{"format": "ppdm-edu task checkpoint", "version": 2, "key": ["double", 3], "result": "hello"}',
    b'{"format": "ppdm-edu task checkpoint", "version": 2, "key": ["double", 4], "result": {"x": 3, "twice": 6}}',
])
def test_an_unusable_checkpoint_is_recomputed_with_a_note_naming_the_file(tmp_path, capsys, content):
    folder = tmp_path / "ckpt"
    task = Task(("double", 3), double, {"x": 3})
    run_tasks([task], n_jobs=1, checkpoint_dir=folder, progress=False)
    stored = _only_file(folder)
    stored.write_bytes(content)
    done = run_tasks([task], n_jobs=1, checkpoint_dir=folder, progress=False)
    assert done.computed == (("double", 3),) and done.results == [{"x": 3, "twice": 6}]
    assert any(str(stored) in note for note in done.notes), done.notes
    assert str(stored) in capsys.readouterr().err
    # and it was rewritten: the next run resumes
    again = run_tasks([task], n_jobs=1, checkpoint_dir=folder, progress=False)
    assert again.resumed == (("double", 3),) and not again.notes


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, pd.DataFrame):
        return (a.equals(b) and list(a.dtypes) == list(b.dtypes) and a.index.equals(b.index)
                and a.index.dtype == b.index.dtype and a.index.name == b.index.name
                and a.columns.equals(b.columns) and a.to_csv() == b.to_csv())
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


ROUND_TRIP = [   # (shape, a result of that shape)
    (S.Float(0, 1, nan=True), float("nan")), (S.Float(-1, 1), -0.0), (S.Float(0, math.inf), float("inf")),
    (S.Int(0, 2**80), 2**70),
    (S.Tuple(S.Float(0, 1), S.Float(0, 1e6), S.Int(1, 10**5)), (0.8123456789012345, 0.25, 17)),   # as2000 trees
    (S.Tuple(S.List(S.Float(0, 100), length=2), S.Float(0, 100)), ([50.0, 75.5], 70.0)),      # liu curve
    (S.List(S.Record(table=S.Str(), accuracy=S.Float(0, 100)), length=(1, 9)), [{"table": "t4", "accuracy": 81.25}]),
    (S.Record(theta=S.Exactly(0.6), run=S.Exactly(3), n_nodes=S.Int(1, 99)), {"theta": 0.6, "run": 3, "n_nodes": 7}),
    (S.Table("data", {"noise": S.Str(), "bits": S.Float(0, 1, nan=True)}, length=2),
     pd.DataFrame({"data": ["data1", "data2"], "noise": ["gaussian", "uniform"],
                   "bits": [0.1, float("nan")]}).set_index("data")),                        # liu table 1
    (S.Plain(), {"x": [1, 2.5, None, True, "ü"]}),
]


@pytest.mark.parametrize("shape, value", ROUND_TRIP, ids=[type(s).__name__ + str(i) for i, (s, _) in enumerate(ROUND_TRIP)])
def test_every_result_shape_round_trips_exactly_through_standard_json(shape, value):
    text = json.dumps(shape.dump(value), allow_nan=False)
    assert _same(value, shape.load(json.loads(text))), (value, text)
    if not isinstance(shape, S.Plain):
        with pytest.raises(S.ShapeError):
            shape.load("hello")


def test_a_result_that_does_not_fit_its_shape_is_not_checkpointed(tmp_path, capsys):
    folder = tmp_path / "ckpt"
    done = run_tasks([Task(("set",), frozenset, {})], n_jobs=1, checkpoint_dir=folder, progress=False)
    assert done.results == [frozenset()]
    assert not list(folder.iterdir()) and "not checkpointed" in done.notes[0]


# -- checkpoints that parse but do not fit their task: recomputed, the CSV as a fresh run's ----------
@pytest.fixture
def tiny(monkeypatch):
    """The Du & Zhan reproduction at 2 runs per theta (25 tasks, seconds)."""
    monkeypatch.setattr(du_zhan, "_runs", lambda mode: 2)


def _sweep_checkpoints(out: Path) -> list[Path]:
    found = []
    for path in sorted((out / ".checkpoints").glob("*.json")):
        if json.loads(path.read_text())["key"][:2] == ["du-zhan", "sweep"]:
            found.append(path)
    return found


def _missing_fields(body):
    body["result"] = {"theta": body["result"]["theta"]}          # only theta: "0.900000,,,,"


def _wrong_type(body):
    body["result"] = "hello"


def _other_theta(body):
    body["result"]["theta"] = 0.9 if body["result"]["theta"] != 0.9 else 0.7   # 9 runs at one θ, 11 at another


def _float_for_int(body):
    body["result"]["n_nodes"] = float(body["result"]["n_nodes"])  # integers written as floats


def _out_of_range(body):
    body["result"]["accuracy"] = 1.5


def _huge_int(body):
    body["result"]["n_nodes"] = 10**400      # an int JSON holds, which a float conversion overflows


@pytest.mark.parametrize("tamper", [_missing_fields, _wrong_type, _other_theta, _float_for_int, _out_of_range,
                                    _huge_int, "dir"])
def test_a_checkpoint_that_does_not_fit_its_task_is_recomputed_and_named(tiny, tmp_path, capsys, tamper):
    out = tmp_path / "out"
    assert main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"]) == 0
    before = (out / "du-zhan.csv").read_bytes()
    victim = _sweep_checkpoints(out)[3]
    if tamper == "dir":                    # a directory where the checkpoint file should be
        victim.unlink()
        victim.mkdir()
    else:
        body = json.loads(victim.read_text())
        tamper(body)
        victim.write_text(json.dumps(body))
    capsys.readouterr()
    assert main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    assert f"note: checkpoint {victim} is unusable" in err, err
    assert (out / "du-zhan.csv").read_bytes() == before


def test_a_new_package_version_recomputes(tmp_path, monkeypatch):
    folder = tmp_path / "ckpt"
    task = Task(("double", 3), double, {"x": 3})
    run_tasks([task], n_jobs=1, checkpoint_dir=folder, progress=False)
    assert run_tasks([task], n_jobs=1, checkpoint_dir=folder, progress=False).resumed
    monkeypatch.setattr(ppdm_edu, "__version__", ppdm_edu.__version__ + ".post1")
    assert run_tasks([task], n_jobs=1, checkpoint_dir=folder, progress=False).computed == (("double", 3),)


_RUNNER = """
import sys
from ppdm_edu.experiments.tasks import Task, run_tasks
import mytask
done = run_tasks([Task(("mine",), mytask.compute, {})], n_jobs=1, checkpoint_dir=sys.argv[1], progress=False)
print(len(done.computed), len(done.resumed), done.results[0])
"""


def _run(tmp_path) -> list[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    out = subprocess.run([sys.executable, "-c", _RUNNER, str(tmp_path / "ckpt")], env=env, check=True,
                         capture_output=True, text=True, timeout=120)
    return out.stdout.split()


def test_a_changed_task_is_recomputed(tmp_path):
    # each run in a fresh process, as a re-run of the command would be
    module = tmp_path / "mytask.py"
    module.write_text(textwrap.dedent("""
        def compute():
            return 1
    """))
    assert _run(tmp_path) == ["1", "0", "1"]
    assert _run(tmp_path) == ["0", "1", "1"]          # unchanged: resumed
    module.write_text(module.read_text().replace("return 1", "return 2"))
    assert _run(tmp_path) == ["1", "0", "2"]          # changed: recomputed, the new number


def test_a_task_s_code_is_its_module_and_every_ppdm_edu_module_it_imports():
    from ppdm_edu.experiments._checkpoints import code_modules

    name = "ppdm_edu.experiments.du_zhan"
    found = code_modules(name)
    # relative imports resolved, the packages above each module kept (their __init__ runs too),
    # imports of imports followed, modules outside ppdm_edu and names that are not modules
    # (check_bool) left out
    assert {name, "ppdm_edu", "ppdm_edu.trees", "ppdm_edu.trees.id3", "ppdm_edu._validation",
            "ppdm_edu.experiments.tasks", "ppdm_edu.experiments._checkpoints", "ppdm_edu._imports"} <= set(found)
    assert all(m == "ppdm_edu" or m.startswith("ppdm_edu.") for m in found)
    assert "ppdm_edu._validation.check_bool" not in found and "numpy" not in found
    assert all(path.is_file() and path.suffix == ".py" for path in found.values())


def test_every_reproduction_task_declares_its_result_shape():
    from ppdm_edu.experiments import REPRODUCTIONS, load

    for name in REPRODUCTIONS:
        for mode in ("quick", "full"):
            bare = {t.func.__qualname__ for t in load(name).plan(mode, 0) if not hasattr(t.func, "result_shape")}
            assert not bare, (name, mode, bare)


def test_every_reproduction_result_fits_its_shape_and_resumes_to_the_same_files(tmp_path, monkeypatch, capsys):
    from test_reproduce_parallel import TINY_RECONSTRUCTION_ATTACK, _result_files

    from ppdm_edu.experiments import as2000_reconstruction, as2000_trees, liu, reconstruction_attack, tradeoff

    monkeypatch.setattr(as2000_trees, "_scale", lambda mode, runs: (800, 1))
    monkeypatch.setattr(as2000_reconstruction, "_n_seeds", lambda mode: 1)
    monkeypatch.setattr(du_zhan, "_runs", lambda mode: 2)
    monkeypatch.setattr(liu, "_scale", lambda mode: dict(n_rep=1, n_train=800, n_curve=1, fig1_train=800,
                                                         fig2_train=800))
    monkeypatch.setattr(tradeoff, "_scale", lambda mode: dict(ns=(1_000,), runs=2, epsilons=(1.0,), trials=2_000,
                                                              classifier_runs=2, classifier_n=(1_000,), ratio_runs=2))
    monkeypatch.setattr(reconstruction_attack, "_scale", lambda mode: TINY_RECONSTRUCTION_ATTACK)
    out = tmp_path / "out"
    assert main(["reproduce", "all", "--out", str(out), "--jobs", "1"]) == 0
    first = _result_files(out)
    assert "note:" not in capsys.readouterr().err          # every result was checkpointed
    assert main(["reproduce", "all", "--out", str(out), "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "note:" not in err, err
    assert _result_files(out) == first
