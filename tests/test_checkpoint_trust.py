"""What a resumed run trusts, and what it checks: a forged checkpoint of the right type is caught by
recomputing resumed tasks (``--verify K``) before anything is published; the choice is random,
reproducible from its key, and catches one forged task among N with probability K / N."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ppdm_edu.__main__ import main
from ppdm_edu.experiments import du_zhan
from ppdm_edu.experiments.tasks import CheckpointMismatch, Task, execution, run_tasks


@pytest.fixture
def tiny(monkeypatch):
    """The Du & Zhan reproduction at 2 runs per theta (25 tasks, seconds)."""
    monkeypatch.setattr(du_zhan, "_runs", lambda mode: 2)


def _sweep(out: Path) -> list[Path]:
    return sorted(p for p in (out / ".checkpoints").glob("*.json")
                  if json.loads(p.read_text())["key"][:2] == ["du-zhan", "sweep"])


def _one_error_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, err
    return lines[0]


def _published(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in out.iterdir() if p.is_file() and not p.name.startswith(".")}


def _shift_accuracy(body):          # +0.05 on a sweep accuracy: still a number in [0, 1]
    body["result"]["accuracy"] = round(body["result"]["accuracy"] + 0.05, 6)


def _other_task_numbers(body, donor):   # another task's numbers under this task's own key
    for field in ("accuracy", "estimated_accuracy", "n_nodes"):
        body["result"][field] = donor["result"][field]


@pytest.mark.parametrize("forge", ["shift", "other task"])
def test_a_forged_checkpoint_of_the_right_type_stops_the_run_naming_the_file(tiny, tmp_path, capsys, forge):
    out = tmp_path / "out"
    assert main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"]) == 0
    before = _published(out)
    victim, donor = _sweep(out)[3], _sweep(out)[10]
    body = json.loads(victim.read_text())
    if forge == "shift":
        _shift_accuracy(body)
    else:
        _other_task_numbers(body, json.loads(donor.read_text()))
    victim.write_text(json.dumps(body))
    capsys.readouterr()
    code = main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1", "--verify", "25"])
    assert code != 0
    line = _one_error_line(capsys.readouterr().err)
    assert str(victim) in line and "does not hold what the task computes now" in line, line
    assert _published(out) == before                 # nothing published: the old report stays


def test_without_verification_a_forged_checkpoint_is_trusted(tiny, tmp_path, capsys):
    # the limit the README states: --verify 0 trusts every checkpoint that fits its shape
    out = tmp_path / "out"
    assert main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"]) == 0
    computed = (out / "du-zhan.csv").read_bytes()
    victim = _sweep(out)[3]
    body = json.loads(victim.read_text())
    _shift_accuracy(body)
    victim.write_text(json.dumps(body))
    assert main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1", "--verify", "0"]) == 0
    assert (out / "du-zhan.csv").read_bytes() != computed      # the forged number is in the table


def test_a_clean_resume_is_checked_and_says_so(tiny, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"]) == 0
    first = (out / "du-zhan.csv").read_bytes()
    capsys.readouterr()
    assert main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1", "--verify-key", "7"]) == 0
    captured = capsys.readouterr()
    assert "checked 3 of 25 resumed tasks by recomputing them" in captured.err and "verify key 7" in captured.err
    assert "25 resumed from checkpoints, 3 of them recomputed and equal" in (out / "du-zhan.md").read_text()
    assert (out / "du-zhan.csv").read_bytes() == first


def _double(x):
    return 2 * x


def _tasks(n=10):
    return [Task(("double", i), _double, {"x": i}) for i in range(n)]


def test_the_choice_is_reproducible_from_its_key_and_uniform(tmp_path):
    run_tasks(_tasks(), n_jobs=1, checkpoint_dir=tmp_path, progress=False)
    a = run_tasks(_tasks(), n_jobs=1, checkpoint_dir=tmp_path, progress=False, verify=3, verify_key=11)
    b = run_tasks(_tasks(), n_jobs=1, checkpoint_dir=tmp_path, progress=False, verify=3, verify_key=11)
    assert a.verified == b.verified and len(set(a.verified)) == 3 and a.verify_key == 11
    assert set(a.verified) <= set(a.resumed) and a.computed == ()
    fresh = run_tasks(_tasks(), n_jobs=1, checkpoint_dir=tmp_path, progress=False, verify=3)
    assert fresh.verify_key is not None and len(fresh.verified) == 3
    with execution(n_jobs=1, verify=10, verify_key=5):
        everything = run_tasks(_tasks(), checkpoint_dir=tmp_path, progress=False)
    assert len(everything.verified) == 10 and everything.verify_key == 5
    # each of N = 10 resumed tasks is chosen in about K / N = 3 / 10 of the choices: one forged
    # task is caught with probability K / N (here over the 2,000 keys 0..1999; binomial sd 20)
    from ppdm_edu.experiments.tasks import _choose

    counts = Counter(i for key in range(2000) for i in _choose(list(range(10)), 3, key)[0])
    assert sorted(counts) == list(range(10)) and all(540 <= c <= 660 for c in counts.values()), counts


def test_a_difference_names_the_file_and_the_field(tmp_path):
    run_tasks(_tasks(3), n_jobs=1, checkpoint_dir=tmp_path, progress=False)
    path = sorted(tmp_path.glob("*.json"))[0]
    body = json.loads(path.read_text())
    body["result"] += 1
    path.write_text(json.dumps(body))
    with pytest.raises(CheckpointMismatch) as err:
        run_tasks(_tasks(3), n_jobs=1, checkpoint_dir=tmp_path, progress=False, verify=3)
    assert str(path) in str(err.value) and f"{body['result']} != {body['result'] - 1}" in str(err.value)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3", 10**7])
def test_bad_verify_values_are_refused(bad):
    with pytest.raises(ValueError, match="verify must be a whole number"):
        run_tasks([], verify=bad)
    with pytest.raises(ValueError, match="verify must be a whole number"):
        execution(n_jobs=1, verify=bad)
