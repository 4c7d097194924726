"""Checkpoints are data, never code, and never stale (issue 27, items 1 and 2)."""
from __future__ import annotations

import json
import math
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ppdm_edu
from ppdm_edu.experiments import tasks as tasks_module
from ppdm_edu.experiments.tasks import Task, run_tasks

ROOT = Path(__file__).resolve().parents[1]


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
    b'{"format": "ppdm-edu task checkpoint", "version": 1, "key": {"~": "tuple", "items": ["double", 3]},'
    b' "result": {"~": "no such tag"}}',
    b'{"format": "ppdm-edu task checkpoint", "version": 1, "key": {"~": "tuple", "items": ["double", 3]},'
    b' "result": NaN}',
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
    if isinstance(a, pd.Series):
        return a.equals(b) and a.dtype == b.dtype and a.name == b.name and a.index.equals(b.index)
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and (a == b or (a != a and b != b))
    return a == b


ROUND_TRIP = [
    None, True, 0, -(2**70), 0.1, 1e-310, float("nan"), float("inf"), -0.0, "ü",
    (0.8123456789012345, 0.25, 17),                    # as2000 trees: (accuracy, seconds, leaves)
    ([0.5, 0.75], 0.7),                                 # liu curve
    [{"table": "t4", "row": "C4.5", "data": "data1", "accuracy": 81.25}],   # liu repeat
    {"theta": 0.6, "run": 3, "accuracy": 0.9, "n_nodes": 7},                # du-zhan sweep
    {1: "int key", (2, "a"): "tuple key", 2.5: None},
    np.float64(0.1), np.int32(-7), np.bool_(True), np.str_("abc"),
    np.arange(6, dtype=np.int16).reshape(2, 3), np.array([0.1, np.nan, -np.inf]),
    np.array([True, False]), np.array(["a", "bcd"]), np.array([1, "x", None], dtype=object),
    np.zeros((0, 3)), np.array([1 + 2j]), np.array(["2020-01-01"], dtype="datetime64[D]"),
    pd.DataFrame({"noise": ["gaussian", "uniform"], "bits": [0.1, float("nan")], "n": [1, 2]},
                 index=pd.Index(["data1", "data2"], name="data")),                 # liu table 1
    pd.DataFrame({"a": [1.5, 2.5]}),
    pd.DataFrame({"o": np.array(["x", None], dtype=object), "b": [True, False]}),
    pd.Series([1.0, 2.0], index=["p", "q"], name="s"),
]


@pytest.mark.parametrize("value", ROUND_TRIP, ids=[type(v).__name__ + str(i) for i, v in enumerate(ROUND_TRIP)])
def test_every_result_type_round_trips_exactly(value):
    encode_result, decode_result = tasks_module.encode_result, tasks_module.decode_result
    text = encode_result(value)
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))
    assert _same(value, decode_result(text)), (value, decode_result(text))


def test_an_unknown_type_is_refused_and_such_a_result_not_checkpointed(tmp_path, capsys):
    with pytest.raises(TypeError, match="cannot hold"):
        tasks_module.encode_result(object())
    folder = tmp_path / "ckpt"
    done = run_tasks([Task(("set",), frozenset, {})], n_jobs=1, checkpoint_dir=folder, progress=False)
    assert done.results == [frozenset()]
    assert not list(folder.iterdir()) and "not checkpointed" in done.notes[0]


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
