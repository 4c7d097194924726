"""The README's `make bench` sentence is the one benchmarks/run.py writes from the committed
results.json: a number changed by hand, or a run that did not update the README, fails here."""
from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
import run  # noqa: E402  (benchmarks/run.py)


def test_the_readme_quotes_the_committed_bench_run():
    res = json.loads((REPO / "benchmarks" / "results.json").read_text(encoding="utf-8"))
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme.count(run.README_START) == 1
    assert run.readme_sentence(res) in readme, "run `make bench` (it rewrites the README's sentence)"


def test_the_sentence_reports_a_missed_target_and_the_slowest_panel(tmp_path):
    res = json.loads((REPO / "benchmarks" / "results.json").read_text(encoding="utf-8"))
    res["missed_targets"] = ["slider update `x.Panel` < 100 ms (p95)"]
    res["latency"]["panels"][0] = dict(res["latency"]["panels"][0], p95_ms=987.0, target_ms=100.0)
    sentence = run.readme_sentence(res)
    assert "1 target(s) missed" in sentence and "-987 ms" in sentence
    readme = tmp_path / "README.md"
    readme.write_text(f"before {run.README_START}old{run.README_END} after", encoding="utf-8")
    run.write_readme(res, readme)
    assert readme.read_text(encoding="utf-8") == f"before {sentence} after"
