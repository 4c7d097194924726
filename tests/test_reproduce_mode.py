"""Issue 28 §8: every ``reproduce(mode=...)`` refuses a wrong mode before any task runs."""
from __future__ import annotations

import pytest

from ppdm_edu.experiments import REPRODUCTIONS, load, report


@pytest.mark.parametrize("name", list(REPRODUCTIONS))
@pytest.mark.parametrize("mode", ["paper", "QUICK", None])
def test_a_wrong_mode_is_refused_before_any_task(name, mode, tmp_path, monkeypatch):
    ran = []
    module = load(name)
    monkeypatch.setattr(module, "run_reproduction", lambda *a, **k: ran.append(a), raising=False)
    with pytest.raises(ValueError, match="mode must be 'quick' or 'full'"):
        module.reproduce(mode=mode, out_dir=tmp_path / "out")
    assert not ran and not (tmp_path / "out").exists()
    with pytest.raises(ValueError, match="mode must be"):
        module.plan(mode)


def test_check_mode_accepts_the_two_modes():
    assert [report.check_mode(m) for m in report.MODES] == list(report.MODES)
