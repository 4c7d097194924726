"""Reproductions in parallel (issue 17): same files whatever the parallelism, checkpoints, resume.

The real reproductions are shrunk (fewer runs, fewer records) by patching their scale helpers,
which only ``plan``/``assemble`` call in this process; the tasks carry their sizes in their
arguments, so loky and dask workers compute exactly what was planned.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ppdm_edu.__main__ import main
from ppdm_edu.experiments import (
    as2000_reconstruction,
    as2000_trees,
    du_zhan,
    liu,
    reconstruction_attack,
    tradeoff,
)
from ppdm_edu.experiments.report import checkpoint_folder
from ppdm_edu.experiments.tasks import Task, execution, run_tasks, task_rng


@pytest.fixture
def tiny(monkeypatch):
    """Every reproduction at a size that runs in seconds."""
    monkeypatch.setattr(as2000_trees, "_scale", lambda mode, runs: (800, 1))
    monkeypatch.setattr(as2000_reconstruction, "_n_seeds", lambda mode: 1)
    monkeypatch.setattr(du_zhan, "_runs", lambda mode: 2)
    monkeypatch.setattr(liu, "_scale", lambda mode: dict(n_rep=1, n_train=800, n_curve=1,
                                                         fig1_train=800, fig2_train=800))
    monkeypatch.setattr(tradeoff, "_scale", lambda mode: dict(ns=(1_000, 10_000), runs=2, epsilons=(1.0,), trials=2_000,
                                                              classifier_runs=2, classifier_n=(1_000,), ratio_runs=2))
    monkeypatch.setattr(reconstruction_attack, "_scale", lambda mode: TINY_RECONSTRUCTION_ATTACK)


#: the reconstruction-attack sweep at a size that runs in a second (both decoders, the DP policies)
TINY_RECONSTRUCTION_ATTACK = dict(ns=(20, 40), per_bit=4, levels=(0.0, 0.25, 1.0), runs={"least-squares": 2, "l1": 1},
                                  per_bit_sweep=(2,), per_bit_n=20, policy_n=20, policy_runs=2)


def _result_files(folder: Path) -> dict[str, bytes]:
    """Every CSV except the timings: the result files that must not depend on the parallelism."""
    files = {p.name: p.read_bytes() for p in folder.glob("*.csv") if not p.name.endswith("_timing.csv")}
    assert len(files) >= 10, sorted(files)
    return files


def test_jobs_1_jobs_2_and_dask_give_identical_files(tiny, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    args = ["reproduce", "all", "--quick", "--seed", "3"]
    assert main([*args, "--out", str(tmp_path / "j1"), "--jobs", "1"]) == 0
    assert main([*args, "--out", str(tmp_path / "j2"), "--jobs", "2"]) == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        assert main([*args, "--out", str(tmp_path / "dask"), "--backend", "dask",
                     "--scheduler", cluster.scheduler_address]) == 0
    one = _result_files(tmp_path / "j1")
    assert _result_files(tmp_path / "j2") == one
    assert _result_files(tmp_path / "dask") == one


def test_resume_recomputes_only_the_missing_task(tiny, tmp_path):
    first = du_zhan.reproduce("quick", tmp_path, seed=0, n_jobs=1, progress=False)
    n_tasks = first.tasks_computed
    assert n_tasks == 1 + 12 * 2 and first.tasks_resumed == 0
    before = (tmp_path / "du-zhan.csv").read_bytes()
    saved = sorted(checkpoint_folder(tmp_path).glob("*.json"))
    assert len(saved) == n_tasks
    saved[5].unlink()                                  # as if stopped before that task finished
    again = du_zhan.reproduce("quick", tmp_path, seed=0, n_jobs=1, progress=False)
    assert (again.tasks_computed, again.tasks_resumed) == (1, n_tasks - 1)
    assert (tmp_path / "du-zhan.csv").read_bytes() == before
    fresh = du_zhan.reproduce("quick", tmp_path, seed=0, n_jobs=1, progress=False, fresh=True)
    assert (fresh.tasks_computed, fresh.tasks_resumed) == (n_tasks, 0)
    assert (tmp_path / "du-zhan.csv").read_bytes() == before
    # another seed: other tasks (only the benchmark, which draws nothing, is the same) and numbers
    other = du_zhan.reproduce("quick", tmp_path, seed=1, n_jobs=1, progress=False)
    assert (other.tasks_computed, other.tasks_resumed) == (n_tasks - 1, 1)
    assert (tmp_path / "du-zhan.csv").read_bytes() != before


def _square_or_stop(i, stop_at):
    if i == stop_at:
        raise KeyboardInterrupt  # what Ctrl-C raises
    return i * i


def test_interrupt_keeps_the_finished_tasks(tmp_path):
    tasks = [Task(("sq", i), _square_or_stop, {"i": i, "stop_at": 3}) for i in range(6)]
    with pytest.raises(KeyboardInterrupt):
        run_tasks(tasks, n_jobs=1, checkpoint_dir=tmp_path, progress=False)
    assert len(list(tmp_path.glob("*.json"))) == 3     # tasks 0, 1, 2 finished and were kept
    resumed = [Task(("sq", i), _square_or_stop, {"i": i, "stop_at": 3}) for i in range(3)]
    done = run_tasks(resumed, n_jobs=1, checkpoint_dir=tmp_path, progress=False)
    assert done.computed == () and len(done.resumed) == 3 and done.results == [0, 1, 4]


def _draw(seed, key):
    return task_rng(seed, "data", *key).random(3).tolist()


def test_streams_are_keyed_by_the_task_not_its_position():
    tasks = [Task(("d", i), _draw, {"seed": 0, "key": (i, "x")}) for i in range(5)]
    forward = run_tasks(tasks, n_jobs=1, progress=False).results
    backward = run_tasks(tasks[::-1], n_jobs=2, progress=False).results[::-1]
    assert forward == backward
    assert len({tuple(r) for r in forward}) == 5          # independent streams
    assert task_rng(0, "data", 1).random() != task_rng(0, "noise", 1).random()
    assert task_rng(0, "data", 1).random() != task_rng(1, "data", 1).random()


def test_duplicate_tasks_run_once_and_bad_arguments():
    calls = run_tasks([Task(("d", 1), _draw, {"seed": 0, "key": (1,)})] * 3, n_jobs=1, progress=False)
    assert len(calls.computed) == 1 and calls.results[0] == calls.results[2]
    with pytest.raises(TypeError, match="Task"):
        run_tasks([lambda: 1], n_jobs=1)
    with pytest.raises(ValueError, match="errors"):
        run_tasks([], errors="ignore")
    with pytest.raises(ValueError, match="backend"):
        with execution(backend="spark"):
            pass
    with pytest.raises(ValueError, match="n_jobs"):
        with execution(n_jobs=0):
            pass
    with pytest.raises(SystemExit):
        main(["reproduce", "du-zhan", "--scheduler", "tcp://localhost:1"])   # needs --backend dask


def test_as2000_rows_do_not_depend_on_the_grid_or_its_order():
    kw = dict(functions=(2,), privacy=(1.0,), algorithms=("randomized", "byclass"), n_train=1_500,
              n_test=300, runs=1, rng=5, progress=False)
    both = as2000_trees.as2000_accuracy(noises=("gaussian", "uniform"), **kw)
    uniform = as2000_trees.as2000_accuracy(noises=("uniform",), **kw)
    mine = both[both.noise == "uniform"].reset_index(drop=True)
    np.testing.assert_array_equal(mine["accuracy"], uniform["accuracy"])
