"""`python -m ppdm_edu reproduce all`: the report's shape, verdicts, failures — with tiny fake
reproductions (the real ones take minutes and are exercised by `make reproduce`)."""
from __future__ import annotations

import inspect
import types

import pandas as pd
import pytest

from ppdm_edu import experiments
from ppdm_edu.experiments import reproduce_all as ra
from ppdm_edu.experiments.report import Comparison, Reproduction
from ppdm_edu.experiments.tasks import Task


def _fake_task(name, mode, seed, fail, calls_id):
    _CALLS[calls_id].append((name, mode, seed))
    if fail:
        raise RuntimeError(f"{name} exploded")
    return {"seed": seed, "mode": mode}


_CALLS: dict[int, list] = {}


def _fake_module(name, comparisons, calls, fail=False):
    _CALLS[id(calls)] = calls

    def plan(mode="quick", seed=0):
        return [Task((name, "only"), _fake_task,
                     dict(name=name, mode=mode, seed=seed, fail=fail, calls_id=id(calls)))]

    def assemble(mode, out_dir, seed, tasks, results):
        csv = out_dir / f"{name}.csv"
        pd.DataFrame([results[0]]).to_csv(csv, index=False)
        return Reproduction(name=name, title=f"Fake paper {name}", comparisons=list(comparisons),
                            files=[csv], remarks=[f"remark of {name}"])

    return types.SimpleNamespace(plan=plan, assemble=assemble)


@pytest.fixture
def fake_registry(monkeypatch):
    calls = []
    modules = {
        "alpha": _fake_module("alpha", [
            Comparison("Table 1", "cell a", 80.0, 80.3, 0.1, 0.5, "reproduced"),
            Comparison("Table 1", "cell b", 70.0, 65.0, 0.2, 1.0),          # no verdict: computed
            Comparison("Fig. 2", "our extra", None, 12.5),                    # no paper number
        ], calls),
        "beta": _fake_module("beta", [
            Comparison("Fig. 5", "F1 ByClass", 95.0, 94.1, None, 2.0, "reproduced"),
        ], calls),
    }
    monkeypatch.setattr(ra, "REPRODUCTIONS", {"alpha": "alpha", "beta": "beta"})
    monkeypatch.setattr(ra, "load", lambda name: modules[name])
    return modules, calls


def test_report_has_every_cell_with_paper_and_verdict(fake_registry, tmp_path):
    _, calls = fake_registry
    outcomes = ra.reproduce_all("quick", tmp_path, seed=7, echo=False)
    assert [o.name for o in outcomes] == ["alpha", "beta"]
    assert calls == [("alpha", "quick", 7), ("beta", "quick", 7)]
    report = (tmp_path / "REPORT.md").read_text()
    # our number beside the paper's, per cell, with verdicts (the missing one computed: |65-70| > 1)
    assert "| Table 1 | cell a | 80.00 | 80.30 ± 0.10 | reproduced |" in report
    assert "| Table 1 | cell b | 70.00 | 65.00 ± 0.20 | not reproduced |" in report
    assert "| Fig. 2 | our extra | — | 12.50 | no number in the paper |" in report
    assert "| Fig. 5 | F1 ByClass | 95.00 | 94.10 | reproduced |" in report
    # summary row and one-line verdicts
    assert "| Fake paper alpha (`alpha`) | 3 | 1 | 1 | 0 | 1 |" in report
    assert "| partly reproduced (1 of 2) |" in report
    assert "| Fake paper beta (`beta`) | 1 | 1 | 0 | 0 | 0 |" in report
    assert "**Verdict:** 1 of 2 cells with a paper number reproduced; not reproduced: Table 1 cell b" in report
    assert "**Verdict:** 1 of 1 cells with a paper number reproduced" in report
    assert "--quick --seed 7" in report and "remark of alpha" in report
    # per-reproduction markdown, their files, and the all-cells CSV
    assert (tmp_path / "alpha.md").exists() and (tmp_path / "beta.md").exists()
    assert "`alpha.csv`" in report
    table = pd.read_csv(tmp_path / "comparisons.csv")
    assert len(table) == 4
    assert list(table["verdict"]) == ["reproduced", "not reproduced", "no number in the paper", "reproduced"]
    assert set(table["reproduction"]) == {"alpha", "beta"}


def test_a_failing_reproduction_does_not_hide_the_others(fake_registry, tmp_path, monkeypatch):
    modules, calls = fake_registry
    modules["alpha"] = _fake_module("alpha", [], calls, fail=True)
    with pytest.raises(ra.ReproductionFailed, match="alpha"):
        ra.reproduce_all("full", tmp_path, seed=1, echo=False)
    assert [c[0] for c in calls] == ["alpha", "beta"]  # beta still ran
    report = (tmp_path / "REPORT.md").read_text()
    assert "## `alpha` failed" in report and "RuntimeError: alpha exploded" in report
    assert "FAILED: RuntimeError: alpha exploded" in report
    assert "| Fig. 5 | F1 ByClass |" in report
    outcomes = ra.reproduce_all("full", tmp_path, seed=1, echo=False, raise_on_error=False)
    assert [o.ok for o in outcomes] == [False, True]


def test_subset_and_bad_arguments(fake_registry, tmp_path):
    _, calls = fake_registry
    ra.reproduce_all("quick", tmp_path, names=["beta"], echo=False)
    assert [c[0] for c in calls] == ["beta"]
    with pytest.raises(ValueError, match="mode must be 'quick' or 'full'"):
        ra.reproduce_all("medium", tmp_path)
    with pytest.raises(ValueError, match="seed must be an int"):
        ra.reproduce_all("quick", tmp_path, seed=1.5)
    with pytest.raises(ValueError, match="unknown reproduction"):
        ra.reproduce_all("quick", tmp_path, names=["gamma"])


def test_same_seed_same_report_cells(fake_registry, tmp_path):
    ra.reproduce_all("quick", tmp_path / "a", seed=3, echo=False)
    ra.reproduce_all("quick", tmp_path / "b", seed=3, echo=False)
    a = pd.read_csv(tmp_path / "a" / "comparisons.csv")
    b = pd.read_csv(tmp_path / "b" / "comparisons.csv")
    pd.testing.assert_frame_equal(a, b)


def test_cli_reproduce_all_writes_the_report(fake_registry, tmp_path, capsys):
    from ppdm_edu.__main__ import main

    assert main(["reproduce", "all", "--quick", "--out", str(tmp_path), "--seed", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "[1/2] alpha:" in out and "REPORT.md" in out
    assert (tmp_path / "REPORT.md").exists()


def test_every_registered_reproduction_has_the_common_signature():
    # the real registry: importable, with plan / assemble / reproduce (only planning is run)
    for name in experiments.REPRODUCTIONS:
        module = experiments.load(name)
        params = inspect.signature(module.reproduce).parameters
        assert {"mode", "out_dir", "seed", "n_jobs", "checkpoint", "fresh", "progress"} <= set(params), name
        assert {"mode", "out_dir", "seed", "tasks", "results"} <= set(inspect.signature(module.assemble).parameters)
        for mode in ("quick", "full"):
            tasks = module.plan(mode=mode, seed=0)
            assert tasks and all(isinstance(t, Task) for t in tasks), name
            # task identities are unique within a reproduction, except for declared duplicates
            # (as2000: Fig. 6's Original trees are Fig. 5's, same key and arguments)
            by_key = {}
            for t in tasks:
                assert by_key.setdefault(tuple(t.key), t.fingerprint()) == t.fingerprint(), (name, t.key)


def test_default_full_is_the_papers_protocol():
    from ppdm_edu.experiments import as2000_trees

    runs = {t.kwargs["run"] for t in as2000_trees.plan("full", seed=0)}
    assert runs == set(range(10))   # the paper's 10 runs
    assert {t.kwargs["n_train"] for t in as2000_trees.plan("full", seed=0)} == {100_000}


def test_a_failing_task_fails_only_its_reproduction(fake_registry, tmp_path):
    modules, calls = fake_registry
    modules["beta"] = _fake_module("beta", [], calls, fail=True)
    outcomes = ra.reproduce_all("quick", tmp_path, seed=1, echo=False, raise_on_error=False)
    assert [o.ok for o in outcomes] == [True, False]
    assert "beta exploded" in outcomes[1].error


def test_reproduction_is_frozen():
    import dataclasses

    rep = Reproduction(name="x", title="X")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rep.seconds = 3.0
    timed = dataclasses.replace(rep, seconds=3.0, mode="full", tasks_computed=4, tasks_resumed=2)
    assert rep.seconds is None and "Mode `full`, 3 s, 6 tasks (2 resumed from checkpoints)." in timed.to_markdown()


def test_a_verdict_over_repeats_needs_enough_runs_to_tell_a_hit_from_a_miss():
    """With repeats the whole 95 % interval of the mean must sit inside the tolerance (reproduced)
    or outside it (not reproduced); straddling its edge is "too few runs to tell", never a hit."""
    from ppdm_edu.experiments.report import THEORY_MISS, Comparison, verdict
    theory = 76.6
    # the committed tradeoff report's 10-run ratio: 104.5 +- 50.1 would have passed "within 2 se"
    assert verdict(theory, 104.5, THEORY_MISS * theory, se=50.1) == "too few runs to tell"
    assert verdict(theory, 71.5, THEORY_MISS * theory, se=4.5) == "reproduced"       # 400 runs
    assert verdict(theory, 110.0, THEORY_MISS * theory, se=4.5) == "not reproduced"
    assert verdict(theory, 110.0, THEORY_MISS * theory) == "not reproduced"          # one exact number
    completed = ra._complete_verdict(Comparison("T", "x", 80.0, 80.3, ours_sd=1.0, tolerance=0.5, runs=4))
    assert completed.verdict == "too few runs to tell"
    completed = ra._complete_verdict(Comparison("T", "x", 80.0, 80.3, ours_sd=1.0, tolerance=0.5, runs=400))
    assert completed.verdict == "reproduced"
    with pytest.raises(ValueError, match="runs"):
        Comparison("T", "x", 80.0, 80.3, runs=0)
