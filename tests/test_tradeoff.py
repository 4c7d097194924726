"""`reproduce tradeoff`: the table's shape, its units and estimators, and theory beside simulation."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ppdm_edu.experiments import tradeoff
from ppdm_edu.experiments.tasks import run_tasks, task_rng
from ppdm_edu.mechanisms import CentralLaplace, Mechanism
from ppdm_edu.plots.tradeoff import describe_tradeoff
from ppdm_edu.tradeoff import (
    MECHANISMS,
    audit_claim,
    audit_mechanism,
    make_mechanism,
    mechanism_row,
    run_error,
    task_data,
    theory_error,
)


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
    noisy = df[~df.mechanism.str.startswith(("uniform", "no noise", "majority"))]
    assert np.isfinite(noisy.epsilon).all()
    multi = df[df.runs > 1]
    assert np.isfinite(multi.error_sd).all()
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


def test_units_and_deltas(quick):
    _, _, df = quick
    assert set(df.unit) == {"value", "record", "attribute"}
    assert (df[df.model == "central"].unit == "record").all()
    assert (df[df.task == "classifier"].unit == "attribute").all()
    gauss = df[df.mechanism.str.startswith("gaussian")]
    assert np.allclose(gauss.delta, 1e-5)
    assert (df[df.mechanism.isin(["warner", "grr", "oue", "laplace"])].delta == 0).all()
    # no one-coin record-level mechanism is placed at a finite ε any more
    assert not df.mechanism.str.contains("RR-ID3").any()


def test_every_row_names_its_estimator(quick):
    _, _, df = quick
    assert set(df.estimator) <= {"inversion", "projected", "ibu", "ibu-early", "naive-bayes"}
    early = df[df.estimator == "ibu-early"]
    assert len(early) and early.theory.isna().all()


def test_inversion_rows_agree_with_theory(quick):
    """Each unbiased row's mean error lies within 4 standard errors of its closed form.

    The standard error is the theory's own on the share (|Z| of a normal Z has sd
    E|Z| sqrt(pi/2 - 1); |Laplace(b)| has sd b), the runs' on the histogram (a sum of ten terms).
    """
    _, _, df = quick
    rows = df[(df.estimator == "inversion") & df.theory.notna()]
    assert len(rows) >= 30
    share = rows[rows.task == "share"]
    sd = np.where(share.model == "central", share.theory, share.theory * math.sqrt(math.pi / 2 - 1))
    z_share = (share.error - share.theory) / (sd / np.sqrt(share.runs))
    hist = rows[rows.task == "histogram"]
    z_hist = (hist.error - hist.theory) / (hist.error_sd / np.sqrt(hist.runs))
    # uniform noise at 50 % privacy never overlaps 0 and 1 on the share: theory 0, error 0
    exact = share.theory == 0
    assert (share.error[exact] == 0).all()
    z = pd.concat([z_share[~exact], z_hist])
    assert (z.abs() < 4).all(), rows.assign(z=z)[z.abs() >= 4]


def test_classifier_curve_moves_and_has_its_baseline(quick):
    _, _, df = quick
    clf = df[df.task == "classifier"]
    majority = clf[clf.mechanism == "majority class"].error.iloc[0]
    assert 0.2 < majority < 0.3
    rr = clf[clf.mechanism.str.startswith("warner")].sort_values("epsilon")
    # the most private setting is no better than the majority rate, the least private clearly is
    assert rr.error.iloc[-1] < majority - 0.01
    assert rr.error.iloc[0] > rr.error.iloc[-1]


def test_report_section(quick):
    rep, _, _ = quick
    text = rep.to_markdown() if hasattr(rep, "to_markdown") else str(rep)
    assert "record-level ε is 15 ε" in " ".join(rep.remarks)
    assert any("GRR/OUE" in c.item for c in rep.comparisons)
    ratio = [c for c in rep.comparisons if c.experiment == "local vs central"][0]
    assert "0.766" in ratio.paper
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


def test_registry_not_if_chain():
    assert set(MECHANISMS) == {"warner", "grr", "oue", "laplace", "gaussian", "uniform", "central-laplace"}
    central = make_mechanism("central-laplace", 1.0, "histogram")
    assert isinstance(central, CentralLaplace) and isinstance(central, Mechanism)
    assert central.sensitivity == 2.0 and central.epsilon == 1.0
    # the same object for the same arguments: the slider builds each mechanism once
    assert make_mechanism("gaussian", 0.5, "share") is make_mechanism("gaussian", 0.5, "share")


ONE_STACK = [("share", "laplace", 0.5, "inversion"), ("share", "gaussian", 0.5, "inversion"),
             ("share", "oue", 0.5, "inversion"), ("share", "uniform", 1.0, "projected"),
             ("share", "central-laplace", 1.0, "inversion"), ("histogram", "laplace", 1.0, "ibu"),
             ("histogram", "gaussian", 1.0, "ibu-early"), ("histogram", "grr", 1.0, "projected"),
             ("histogram", "central-laplace", 2.0, "projected")]


def _error_of(task, p, x):
    f = np.bincount(x, minlength=p.size) / x.size
    return abs(p[1] - f[1]) if task == "share" else 0.5 * np.abs(p - f).sum()


@pytest.mark.parametrize("task, name, param, estimator", ONE_STACK)
def test_every_row_is_mechanism_estimate_on_the_same_reports(task, name, param, estimator):
    """One estimator stack: the library's run, the row of the panel and of the reproduction are
    Mechanism.estimate with the method the row names, on the same reports."""
    from ppdm_edu.widgets.tradeoff import _row

    mech = make_mechanism(name, param, task)
    records = [task_data(task, 2_000, rng=run) for run in range(2)]
    row = mechanism_row(task, name, param, records, [10, 11], estimator=estimator)
    assert row.estimator == estimator and row.runs == 2
    for x, seed, error in zip(records, (10, 11), row.errors):
        expected = _error_of(task, mech.estimate(mech.randomize(x, rng=seed), method=estimator).probabilities, x)
        assert error == expected
        assert run_error(task, name, param, x, rng=seed, estimator=estimator) == expected
    # the reproduction's task: its own streams, the same row function
    reproduced = tradeoff.task_error(seed=3, task=task, mechanism=name, param=param, n=2_000, runs=2,
                                     estimator=estimator)
    for run, error in enumerate(reproduced):
        x = task_data(task, 2_000, task_rng(3, "data", task, 2_000, run))
        reports = mech.randomize(x, task_rng(3, "noise", task, name, param, 2_000, run))
        assert error == _error_of(task, mech.estimate(reports, method=estimator).probabilities, x)
    # the panel's: its own streams, the same row function
    shown = _row(task, name, param, estimator, 2_000, 2, None, 7)
    for run, error in enumerate(shown.errors):
        x = task_data(task, 2_000, rng=np.random.default_rng([7, 1, run]))
        reports = mech.randomize(x, np.random.default_rng([7, 2, run]))
        assert error == _error_of(task, mech.estimate(reports, method=estimator).probabilities, x)


def test_the_two_inversions_that_differed_are_one():
    # before, the trade-off's own "inversion" (the mean report; OUE's closed form without the
    # projection) and Mechanism.estimate()'s (least squares on the binned reports, projected)
    # gave different shares on the same reports; there is one unbiased inversion now
    x = task_data("share", 10_000, rng=0)
    for name in ("laplace", "gaussian", "oue"):
        mech = make_mechanism(name, 0.5, "share")
        reports = mech.randomize(x, rng=1)
        raw = mech.estimate(reports, method="inversion").probabilities
        assert run_error("share", mech, 0.5, x, rng=1) == abs(raw[1] - x.mean())
        if raw.min() >= 0 and math.isclose(raw.sum(), 1.0):
            assert np.allclose(mech.estimate(reports).probabilities, raw)  # projecting a distribution


def test_a_row_audits_as_the_reproduction_does():
    records = [task_data("histogram", 1_000, rng=0)]
    row = mechanism_row("histogram", "grr", 1.0, records, [1], trials=5_000, audit_rng=4)
    assert row.audit == audit_mechanism("histogram", "grr", 1.0, trials=5_000, rng=4)
    assert row.audit == audit_claim(make_mechanism("grr", 1.0, "histogram"), 0, 9, trials=5_000, rng=4)
    assert (row.epsilon, row.delta, row.unit, row.converged) == (1.0, 0.0, "value", True)
    central = mechanism_row("share", "central-laplace", 1.0, [task_data("share", 1_000, rng=0)], [1])
    assert central.unit == "record" and central.audit is None and central.theory == theory_error(
        "share", "central-laplace", 1.0, 1_000)


def test_a_row_refuses_runs_it_cannot_pair():
    x = task_data("share", 100, rng=0)
    with pytest.raises(ValueError, match="records and rngs"):
        mechanism_row("share", "warner", 1.0, [x, x], [1])
    with pytest.raises(ValueError, match="records and rngs"):
        mechanism_row("share", "warner", 1.0, [x, x[:50]], [1, 2])
    with pytest.raises(ValueError, match="records and rngs"):
        mechanism_row("share", "warner", 1.0, [], [])


def test_local_over_central_matches_theory():
    """Warner / central Laplace on the share at ε = 1, n = 10,000: 0.766 √n within sampling error."""
    n, runs = 10_000, 300
    errs = {m: [] for m in ("warner", "central-laplace")}
    for run in range(runs):
        x = task_data("share", n, rng=np.random.default_rng([5, run]))
        for m in errs:
            errs[m].append(run_error("share", m, 1.0, x, rng=np.random.default_rng([6, run])))
    local, central = (np.asarray(errs[m]) for m in errs)
    ratio = local.mean() / central.mean()
    rel = math.hypot(local.std() / local.mean(), central.std() / central.mean()) / math.sqrt(runs)
    theory = theory_error("share", "warner", 1.0, n) / theory_error("share", "central-laplace", 1.0, n)
    assert math.isclose(theory, 0.766 * math.sqrt(n), rel_tol=1e-3)
    assert abs(ratio - theory) < 3 * rel * ratio


def test_named_estimator_is_refused_when_unknown():
    with pytest.raises(ValueError, match="estimator"):
        run_error("share", "warner", 1.0, [0, 1, 1], estimator="bayes")


def test_panel_readout_states_theory_and_an_interval():
    """The read-out's ratio is the theory's, not a ratio of five runs' means."""
    import re

    from ppdm_edu.widgets.tradeoff import TradeoffPanel

    panel = TradeoffPanel(epsilon=1.0, task="share")
    text = panel.summary(panel.result)
    expected = theory_error("share", "warner", 1.0, 10_000) / theory_error("share", "central-laplace", 1.0, 10_000)
    ratio = float(re.search(r"local / central = <b>(\d+)×", text).group(1))
    assert ratio == round(expected)
    assert "2 standard errors" in text and "theory" in text
    assert "best local mechanism" not in text


def test_audited_delta_per_mechanism(quick):
    """Every audited configuration records δ beside ε: near 0 for a true claim at its own ε, and
    for uniform noise (no finite ε) the stable δ at ε = 1, below the share it discloses exactly."""
    _, _, df = quick
    audited = df.dropna(subset=["audited_epsilon"])
    assert audited.audited_delta.notna().all()
    finite = audited[np.isfinite(audited.epsilon)]
    assert (finite.audited_delta <= finite.delta + 0.01).mean() >= 0.9
    uniform = audited[audited.mechanism == "uniform (100% privacy)"]
    disclosed = min(1.0, 1 / (2 * make_mechanism("uniform", 1.0, "share").noise.alpha))
    assert len(uniform) and ((uniform.audited_delta > disclosed - 0.1)
                             & (uniform.audited_delta <= disclosed + 0.01)).all()


def test_audit_claim_refutes_a_false_claim_only():
    from ppdm_edu.mechanisms import WarnerRR

    broken = audit_claim(WarnerRR(0.9), 1, 0, trials=20_000, rng=0)   # true ε = ln 9
    assert broken.epsilon_at_delta == 0.0 and broken.delta_at_epsilon == pytest.approx(math.log(9))
    assert broken.refutes(math.log(3)) and not broken.refutes(math.log(9) + 0.1)
    gauss = make_mechanism("gaussian", 1.0, "share")
    g = audit_claim(gauss, 0, 1, trials=20_000, rng=0)
    assert g.epsilon_at_delta == gauss.delta and not g.refutes(gauss.epsilon, gauss.delta)
