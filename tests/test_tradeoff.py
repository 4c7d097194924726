"""`reproduce tradeoff` (issue 29): the table's shape and the measured relations it reports."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ppdm_edu.experiments import tradeoff
from ppdm_edu.experiments.tasks import run_tasks
from ppdm_edu.plots.tradeoff import describe_tradeoff
from ppdm_edu.tradeoff import make_mechanism, run_error, task_data


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("tradeoff")
    rep = tradeoff.reproduce("quick", out, seed=0, n_jobs=1, checkpoint=False, progress=False)
    return rep, out, pd.read_csv(out / "tradeoff.csv")


def test_csv_columns_and_values(quick):
    _, out, df = quick
    assert list(df.columns) == tradeoff.COLUMNS
    assert set(df.model) == {"local", "central"}
    assert set(df.task) == set(tradeoff.TASKS)
    assert set(df[df.task == "share"].n) == {1_000, 10_000, 100_000}
    assert (df[df.mechanism.str.startswith("uniform")].epsilon == math.inf).all()
    assert np.isfinite(df[~df.mechanism.str.startswith("uniform")].epsilon).all()
    assert (df.runs >= 2).all() and np.isfinite(df.error_sd).all()
    assert ((df.error >= 0) & (df.error <= 1)).all()
    # the audit never exceeds a true claim (it is a 95 % lower bound; tolerance for the 5 %)
    finite = df.dropna(subset=["audited_epsilon"])
    finite = finite[np.isfinite(finite.epsilon)]
    assert (finite.audited_epsilon <= finite.epsilon * 1.05 + 0.05).mean() >= 0.9
    for name in ("tradeoff_error.png", "tradeoff_audit.png"):
        assert (out / name).stat().st_size > 10_000


def test_central_beats_local_on_the_share(quick):
    _, _, df = quick
    sel = (df.task == "share") & (df.n == 10_000) & np.isclose(df.epsilon, 1.0)
    central = df[sel & (df.model == "central")].error.iloc[0]
    warner = df[sel & (df.mechanism == "warner")].error.iloc[0]
    assert warner > central


def test_error_falls_with_n_for_every_local_mechanism(quick):
    _, _, df = quick
    local = df[(df.model == "local") & (df.task != "classifier") & np.isclose(df.epsilon, 1.0)]
    for (mech, task), rows in local.groupby(["mechanism", "task"]):
        rows = rows.sort_values("n")
        assert rows.error.iloc[-1] < rows.error.iloc[0], (mech, task)


def test_report_section(quick):
    rep, _, _ = quick
    text = rep.to_markdown() if hasattr(rep, "to_markdown") else str(rep)
    assert "Warner RR's error is" in " ".join(rep.remarks)
    assert any("GRR/OUE" in c.item for c in rep.comparisons)
    assert text


def test_same_seed_same_results_whatever_the_order():
    tasks = tradeoff.plan("quick", seed=1)[:6]
    a = run_tasks(tasks, n_jobs=1, progress=False).results
    b = run_tasks(tasks[::-1], n_jobs=1, progress=False).results[::-1]
    assert a == b


def test_alt_text_from_data(quick):
    _, _, df = quick
    text = describe_tradeoff(df, "share")
    assert "central-laplace" in text and "n = 100,000" in text


def test_make_mechanism_refuses_unknown_names():
    with pytest.raises(ValueError, match="mechanism"):
        make_mechanism("rappor", 1.0, "share")
    with pytest.raises(ValueError, match="task"):
        make_mechanism("grr", 1.0, "regression")
    with pytest.raises(ValueError, match="x must"):
        run_error("share", "warner", 1.0, [0, 2])


def test_one_run_in_the_library():
    x = task_data("share", 10_000, rng=0)
    errors = {m: run_error("share", m, 1.0, x, rng=1) for m in ("warner", "oue", "laplace", "central-laplace")}
    assert errors["central-laplace"] < min(errors[m] for m in ("warner", "oue", "laplace"))
