"""The theta sweep of Du & Zhan Section 5 (Fig. 2), its report, figures and the notebook-05 panel."""
import numpy as np
import pandas as pd
import pytest

from ppdm_edu.experiments import rr_theta_sweep
from ppdm_edu.experiments.du_zhan import reproduce, summarize_sweep


@pytest.fixture(scope="module")
def small_sweep():
    return rr_theta_sweep(thetas=(0.2, 0.55, 1.0), runs=3, rng=4, progress=False)


def test_sweep_shape_and_theta_one_is_the_original(small_sweep):
    df = small_sweep
    assert list(df.columns) == ["theta", "run", "accuracy", "estimated_accuracy", "n_nodes"]
    assert len(df) == 9 and sorted(df["theta"].unique()) == [0.2, 0.55, 1.0]
    original = df.attrs["original_accuracy"]
    assert 0.75 < original < 0.88
    at_one = df[df["theta"] == 1.0]
    # theta = 1: the disguised data are the original data -> exactly the ID3 accuracy, estimated exactly
    assert (at_one["accuracy"] == original).all()
    assert (at_one["estimated_accuracy"] == original).all()
    assert df["accuracy"].between(0, 1).all()


def test_sweep_is_reproducible_with_a_seed(small_sweep):
    again = rr_theta_sweep(thetas=(0.2, 0.55, 1.0), runs=3, rng=4, progress=False)
    pd.testing.assert_frame_equal(small_sweep, again)
    other = rr_theta_sweep(thetas=(0.2, 0.55), runs=3, rng=5, progress=False)
    assert not np.array_equal(other["accuracy"], small_sweep["accuracy"][:6])
    # a row depends on (seed, theta, run) only: a smaller sweep is a subset of a larger one
    part = rr_theta_sweep(thetas=(0.55,), runs=2, rng=4, progress=False)
    full = small_sweep[small_sweep["theta"] == 0.55].head(2).reset_index(drop=True)
    pd.testing.assert_frame_equal(part, full, check_like=True)


def test_sweep_with_true_labels_is_valid():
    df = rr_theta_sweep(thetas=(0.3,), runs=2, rng=0, disguised_label=False, progress=False)
    assert df.attrs["disguised_label"] is False
    assert df["accuracy"].between(0.7, 0.85).all()


def test_sweep_rejects_bad_input():
    with pytest.raises(ValueError, match="singular"):
        rr_theta_sweep(thetas=(0.3, 0.5), runs=1, progress=False)
    with pytest.raises(ValueError, match="runs must be"):
        rr_theta_sweep(thetas=(0.3,), runs=0, progress=False)
    with pytest.raises(ValueError, match="empty"):
        rr_theta_sweep(thetas=(), runs=1, progress=False)


def test_summarize_sweep_by_hand():
    df = pd.DataFrame({"theta": [0.8, 0.8, 0.8, 0.3], "run": [0, 1, 2, 0],
                       "accuracy": [0.80, 0.82, 0.78, 0.70],
                       "estimated_accuracy": [0.81, 0.80, 0.78, 0.75], "n_nodes": [5, 7, 9, 3]})
    df.attrs["original_accuracy"] = 0.815
    s = summarize_sweep(df)
    row = s.loc[0.8]
    assert row["mean_accuracy"] == pytest.approx(0.80)
    assert row["variance"] == pytest.approx(0.0004)  # ddof = 1: (0 + 4e-4 + 4e-4) / 2
    assert row["drop_points"] == pytest.approx(1.5)
    assert row["mean_abs_estimate_error"] == pytest.approx((0.01 + 0.02 + 0.0) / 3)
    assert s.loc[0.3, "epsilon"] == pytest.approx(abs(np.log(0.3 / 0.7)))


@pytest.mark.slow
def test_reproduce_quick_writes_csv_and_both_figures(tmp_path):
    result = reproduce(mode="quick", out_dir=tmp_path, seed=0)
    names = {p.name for p in result.files}
    assert {"du-zhan.csv", "du-zhan_summary.csv", "du-zhan_fig2a.png", "du-zhan_fig2b.png"} <= names
    for p in result.files:
        assert p.exists() and p.stat().st_size > 0
    df = pd.read_csv(tmp_path / "du-zhan.csv")
    assert len(df) == 12 * 10
    items = {c.item: c for c in result.comparisons}
    assert any("0.51" in k for k in items)
    assert "| experiment |" in result.to_markdown()
    with pytest.raises(ValueError, match="mode"):
        reproduce(mode="huge", out_dir=tmp_path)


def test_panel_updates_and_theta_half_is_a_message():
    from ppdm_edu.widgets.rr_trees import RRTreePanel

    panel = RRTreePanel(theta=1.0)
    assert panel.error is None
    assert panel.result.accuracy == panel.result.original_accuracy
    assert panel.result.n_nodes == panel.result.original_nodes
    assert "|---" in panel.readout.value and panel.image.value
    panel.controls["theta"].value = 0.5
    assert panel.error is not None and "singular" in panel.message.value
    assert panel.result.theta == 1.0  # the previous result stays
    panel.controls["theta"].value = 0.3
    assert panel.error is None and panel.message.value == ""
    assert 0.7 < panel.result.accuracy < 0.85
