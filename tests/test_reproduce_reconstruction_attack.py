"""``python -m ppdm_edu reproduce reconstruction-attack``: the same CSVs on one worker, two and a
dask cluster; a resumed run reuses every checkpoint; the report puts the theorem's claims and
DP's promise beside the measurement, with the number of releases."""
from __future__ import annotations

import pytest
from test_reproduce_parallel import TINY_RECONSTRUCTION_ATTACK

from ppdm_edu.__main__ import main
from ppdm_edu.experiments import reconstruction_attack


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(reconstruction_attack, "_scale", lambda mode: TINY_RECONSTRUCTION_ATTACK)


def _csvs(folder) -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in folder.glob("reconstruction-attack*.csv")}
    assert sorted(files) == ["reconstruction-attack.csv", "reconstruction-attack_dp.csv",
                             "reconstruction-attack_summary.csv"]
    return files


def test_jobs_1_jobs_2_and_dask_write_identical_csvs(tiny, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    args = ["reproduce", "reconstruction-attack", "--quick", "--seed", "4"]
    assert main([*args, "--out", str(tmp_path / "j1"), "--jobs", "1"]) == 0
    assert main([*args, "--out", str(tmp_path / "j2"), "--jobs", "2"]) == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        assert main([*args, "--out", str(tmp_path / "dask"), "--backend", "dask",
                     "--scheduler", cluster.scheduler_address]) == 0
    one = _csvs(tmp_path / "j1")
    assert _csvs(tmp_path / "j2") == one and _csvs(tmp_path / "dask") == one


def test_a_resumed_run_reuses_every_checkpoint_and_the_report_states_the_runs(tiny, tmp_path):
    first = reconstruction_attack.reproduce("quick", tmp_path, seed=0, n_jobs=1, progress=False)
    again = reconstruction_attack.reproduce("quick", tmp_path, seed=0, n_jobs=1, progress=False)
    assert again.tasks_resumed == first.tasks_computed and again.tasks_computed == 0
    experiments = [c.experiment for c in first.comparisons]
    assert "Dinur & Nissim 2003, main theorem" in experiments and "differential privacy" in experiments
    assert all(c.verdict for c in first.comparisons)
    text = first.to_markdown()
    assert "attacked releases in all" in text and "one person's bit changing" in text
    # every release of the tiny plan, at every level: (n = 20, 40 at m = 4n; n = 20 at m = 2n) x runs per decoder
    table = (tmp_path / "reconstruction-attack.csv").read_text().splitlines()
    runs = TINY_RECONSTRUCTION_ATTACK["runs"]
    cells = len({(n, 4) for n in TINY_RECONSTRUCTION_ATTACK["ns"]} | {(20, 2)})
    assert len(table) - 1 == cells * sum(runs.values()) * len(TINY_RECONSTRUCTION_ATTACK["levels"])
