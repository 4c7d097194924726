"""Liu, Kantarcioglu & Thuraisingham reproduction helpers (issue 8)."""

import numpy as np
import pytest

from ppdm_edu import GaussianNoise, UniformNoise
from ppdm_edu.experiments import liu
from ppdm_edu.experiments.report import Comparison


def test_adult_xy_and_noise_per_attribute():
    X, y, Xt, yt = liu.adult_xy(2000, rng=0)
    assert X.shape == (2000, 6) and Xt.shape == (16_281, 6)
    assert set(np.unique(y)) == {0, 1}
    X2, *_ = liu.adult_xy(2000, rng=0)
    np.testing.assert_array_equal(X, X2)  # same seed, same records
    noises = liu.make_noises(X, "data5")
    assert all(isinstance(n, UniformNoise) for n in noises)
    snr = X.var(0) / np.array([n.var for n in noises])
    np.testing.assert_allclose(snr, liu.DATASETS["data5"][1])
    g = liu.make_noises(X, "data4")
    assert all(isinstance(n, GaussianNoise) for n in g)
    np.testing.assert_allclose(X.var(0) / np.array([n.var for n in g]), 0.5)
    W = liu.perturb_every_column(X, g, rng=1)
    assert W.shape == X.shape and not np.allclose(W, X)
    with pytest.raises(ValueError, match="unknown data set"):
        liu.make_noises(X, "data9")
    with pytest.raises(ValueError, match="snr must be > 0"):
        liu.make_noises(X, snr=-1.0, kind="gaussian")
    with pytest.raises(ValueError, match="n_train"):
        liu.adult_xy(0)


def test_reconstruct_by_class_assigns_grid_midpoints_by_rank():
    rng = np.random.default_rng(0)
    x = np.r_[rng.uniform(0, 4, 3000), rng.uniform(6, 10, 3000)]
    y = np.r_[np.zeros(3000, int), np.ones(3000, int)]
    noise = GaussianNoise(1.0)
    w = x + noise.sample(x.size, rng)
    R = liu.reconstruct_by_class(w[:, None], y, [noise], [(0.0, 10.0)], classes=[0, 1], n_intervals=20)
    mids = 0.25 + 0.5 * np.arange(20)
    assert np.isin(R[:, 0], mids).all()  # every value is a midpoint of the common grid
    # order within a class is kept (rank assignment) and the classes are de-noised
    order = np.argsort(w[y == 0])
    assert np.all(np.diff(R[y == 0, 0][order]) >= 0)
    for c, (lo, hi) in ((0, (0, 4)), (1, (6, 10))):
        outside_w = np.mean((w[y == c] < lo) | (w[y == c] > hi))  # about 20 %
        outside_r = np.mean((R[y == c, 0] < lo) | (R[y == c, 0] > hi))
        assert outside_w > 0.15 and outside_r < 0.5 * outside_w


def test_run_repeat_records_and_summary_on_a_small_draw():
    recs = liu.run_repeat(np.random.default_rng(1), n_train=1500, datasets=["data5"],
                          reconstruction=False, weight_candidates=16)
    tables = {(r["table"], r["row"]) for r in recs}
    assert ("table4", "C4.5 test on original") in tables
    assert ("table7", "random path test on perturbed") in tables
    acc = {(r["table"], r["row"]): r["accuracy"] for r in recs}
    assert all(0 <= a <= 100 for a in acc.values())
    # uniform noise is symmetric: threshold 0.5 gives the same tree as C4.5 on w
    assert acc[("check", "threshold 0.5 predicts like C4.5 on w (% same)")] == 100.0
    assert acc[("table7", "threshold test on original")] == acc[("table4", "C4.5 test on original")]
    assert acc[("original", "C4.5")] > 76.0  # better than always saying '<=50K'
    s = liu.summarize(recs)
    row = s[(s.table == "table4") & (s.row == "C4.5 test on original")].iloc[0]
    assert row["paper"] == 80.29
    comps = liu._comparisons(s, liu.privacy_loss_table(liu.adult_xy(1000, rng=2)[0], rng=3))
    assert all(isinstance(c, Comparison) for c in comps)
    assert {c.verdict for c in comps} <= {"reproduced", "not reproduced", "no number in the paper"}


def test_privacy_loss_table_bits_exceed_nats_version():
    X, *_ = liu.adult_xy(3000, rng=4)
    t = liu.privacy_loss_table(X, rng=5)
    assert list(t.index) == list(liu.DATASETS)
    # 1 - 2^-I_bits > 1 - 2^-I_nats since I_bits = I_nats / ln 2 > I_nats
    assert (t["bits"] > t["nats"]).all()
    # more noise, less loss (data1 SNR 1.7 ... data4 SNR 0.5)
    assert t.loc["data1", "bits"] > t.loc["data4", "bits"]
    np.testing.assert_allclose(t["paper"], liu.PAPER[("table1", "privacy loss")])


def test_reproduce_rejects_unknown_mode(tmp_path):
    with pytest.raises(ValueError, match="'quick' or 'full'"):
        liu.reproduce(mode="paper", out_dir=tmp_path)


def test_perturbed_tree_panel_updates_and_reports_bad_values():
    from ppdm_edu.widgets.perturbed_mining import PerturbedTreePanel

    panel = PerturbedTreePanel()
    assert panel.error is None and panel.image.value  # a figure was drawn
    panel.controls["threshold"].value = 0.5
    r = panel.result
    # threshold 0.5 with Gaussian noise: the PPDTC4.5 tree is C4.5 on w
    assert r.threshold_original == pytest.approx(r.c45_on_w_original)
    assert r.shift == pytest.approx(0.0, abs=1e-9)
    panel.controls["kind"].value = "uniform"
    assert panel.result.kind == "uniform" and panel.error is None
    with pytest.raises(ValueError, match="snr must be > 0"):
        panel.compute(threshold=0.3, snr=0.0, kind="gaussian")
    with pytest.raises(ValueError, match="threshold"):
        panel.compute(threshold=1.0, snr=1.0, kind="gaussian")


def test_reconstruct_by_class_uses_the_trees_rank_to_interval_assignment(monkeypatch):
    # one AS2000 §4 rank-to-interval rule for the package: the reconstruction tree's
    from ppdm_edu.trees.reconstruction_tree import assign_intervals

    calls = []

    def spy(w, counts):
        calls.append(len(w))
        return assign_intervals(w, counts)

    monkeypatch.setattr(liu, "assign_intervals", spy)
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 10, 800)
    y = (x > 5).astype(int)
    noise = GaussianNoise(1.0)
    w = x + noise.sample(x.size, rng)
    R = liu.reconstruct_by_class(w[:, None], y, [noise], [(0.0, 10.0)], classes=[0, 1], n_intervals=20)
    assert sorted(calls) == sorted([int((y == 0).sum()), int((y == 1).sum())])
    mids = 0.25 + 0.5 * np.arange(20)
    for c in (0, 1):
        rows = y == c
        codes = np.searchsorted(mids, R[rows, 0])
        # values keep their order: the codes are non-decreasing in w
        assert np.all(np.diff(codes[np.argsort(w[rows], kind="stable")]) >= 0)
