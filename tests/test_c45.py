"""C4.5 and PPDTC4.5 (Liu, Kantarcioglu & Thuraisingham, Sections 4 and 6; issue 8)."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import special

from ppdm_edu import GaussianNoise, UniformNoise, noise_for_snr, perturb
from ppdm_edu.trees import C45, PPDTC45
from ppdm_edu.trees.c45 import add_errors, entropy, gain_ratio


# --- the formulas, on hand-computed examples ------------------------------------------------
def test_entropy_hand_computed():
    # Quinlan's play-tennis root: 9 yes, 5 no -> 0.940 bits
    assert entropy([9, 5]) == pytest.approx(-(9 / 14) * math.log2(9 / 14) - (5 / 14) * math.log2(5 / 14))
    assert entropy([4, 4]) == pytest.approx(1.0)
    assert entropy([7, 0]) == 0.0
    assert entropy([1, 1, 1, 1]) == pytest.approx(2.0)


def test_gain_ratio_hand_computed():
    # S = 3+3 (Info 1 bit); S1 = {2, 0}, S2 = {1, 3}: Info_test = 4/6 * H(1/4) = 0.540852
    gain, ratio = gain_ratio([2, 0], [1, 3])
    h14 = -(0.25 * math.log2(0.25) + 0.75 * math.log2(0.75))
    assert gain == pytest.approx(1.0 - 4 / 6 * h14)
    split_info = -(1 / 3 * math.log2(1 / 3) + 2 / 3 * math.log2(2 / 3))
    assert ratio == pytest.approx(gain / split_info)
    assert ratio == pytest.approx(0.5, abs=1e-9)  # happens to be exactly 1/2 here
    # a useless split has gain 0
    assert gain_ratio([1, 1], [2, 2])[0] == pytest.approx(0.0, abs=1e-12)


def test_add_errors_matches_j48_formula():
    # e = 0: N (1 - CF^(1/N)); e >= 1: normal approximation of the upper limit (z = 0.6745)
    assert add_errors(6, 0) == pytest.approx(6 * (1 - 0.25 ** (1 / 6)))
    z = special.ndtri(0.75)
    f = 2.5 / 10
    r = (f + z * z / 20 + z * math.sqrt(f / 10 - f * f / 10 + z * z / 400)) / (1 + z * z / 10)
    assert add_errors(10, 2) == pytest.approx(10 * r - 2)
    assert add_errors(4, 3.6) == pytest.approx(0.4)  # e + 0.5 >= N
    with pytest.raises(ValueError, match="at most 0.5"):
        add_errors(10, 1, 0.6)


# --- C4.5 -----------------------------------------------------------------------------------
def _grid_data():
    x0 = np.repeat(np.arange(10.0), 6)
    x1 = np.tile(np.arange(6.0), 10)
    return np.column_stack([x0, x1]), (x0 >= 5).astype(int)


def test_c45_separable_toy_set_is_exact():
    X, y = _grid_data()
    tree = C45().fit(X, y)
    assert tree.score(X, y) == 1.0
    assert tree.n_leaves_ == 2
    assert tree.tree_.feature[0] == 0 and tree.tree_.threshold[0] == pytest.approx(4.5)
    assert tree.predict([[4.4, 100.0], [4.6, -3.0]]).tolist() == [0, 1]
    assert "x0 <= 4.5" in tree.export_text()


def test_c45_two_attribute_rule_and_labels_kept():
    rng = np.random.default_rng(1)
    X = rng.uniform(0, 1, size=(600, 3))
    y = np.where((X[:, 0] > 0.5) & (X[:, 2] < 0.3), "yes", "no")
    tree = C45().fit(X, y)
    assert tree.score(X, y) == 1.0
    assert set(tree.predict(X)) == {"yes", "no"}
    assert set(tree.tree_.feature[tree.tree_.feature >= 0]) == {0, 2}


def test_pruning_shrinks_a_noisy_tree():
    rng = np.random.default_rng(2)
    X = rng.uniform(0, 1, size=(1000, 4))
    p = 1 / (1 + np.exp(-4 * (X[:, 0] + X[:, 1] - 1)))  # a soft boundary: noisy labels
    y = (rng.random(1000) < p).astype(int)
    full = C45(pruning=False).fit(X, y)
    pruned = C45().fit(X, y)
    assert pruned.n_leaves_ < full.n_leaves_
    # pruning never removes what the tree needs: still near the Bayes boundary x0 + x1 = 1
    X_test = rng.uniform(0, 1, size=(4000, 4))
    assert pruned.score(X_test, (X_test[:, 0] + X_test[:, 1] > 1).astype(int)) > 0.85


def test_c45_min_instances_respected():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 2))
    y = (rng.random(300) < 0.5).astype(int)
    tree = C45(min_instances=10, pruning=False).fit(X, y)
    leaves = tree.tree_.counts[tree.tree_.feature < 0].sum(1)
    assert leaves.min() >= 10


def test_c45_on_adult_original_is_near_weka():
    """Paper (WEKA J48): 83.40 %; an independent implementation 83.35 +- 0.1 %."""
    from ppdm_edu.experiments.liu import adult_xy

    X, y, X_test, y_test = adult_xy(n_train=10_000, rng=0)
    pruned = C45().fit(X, y)
    full = C45(pruning=False).fit(X, y)
    assert 0.825 < pruned.score(X_test, y_test) < 0.845
    assert pruned.n_leaves_ < full.n_leaves_


# --- PPDTC4.5 -------------------------------------------------------------------------------
def _noisy_problem(n=3000, seed=4):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(0, 1, n), rng.normal(5, 2, n), rng.uniform(0, 10, n)])
    y = ((X[:, 0] + 0.3 * X[:, 1] > 1.5) | (X[:, 2] > 8.5)).astype(int)
    noises = {j: noise_for_snr(X[:, j], 2.0, "gaussian") for j in range(3)}
    W = X + np.column_stack([noises[j].sample(n, rng) for j in range(3)])
    return X, W, y, noises


@pytest.mark.parametrize("noise", [GaussianNoise(0.5), UniformNoise(0.8)])
def test_threshold_half_with_symmetric_noise_is_c45_on_perturbed_values(noise):
    X, _, y, _ = _noisy_problem()
    W = perturb(X, noise, rng=5)
    plain = C45().fit(W, y)
    pp = PPDTC45(noise, split="threshold", partition="threshold", threshold=0.5).fit(W, y)
    np.testing.assert_array_equal(pp.tree_.feature, plain.tree_.feature)
    np.testing.assert_allclose(pp.tree_.threshold, plain.tree_.threshold, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(pp.predict(X), plain.predict(X))
    assert plain.n_leaves_ > 3


def test_threshold_shifts_split_points_by_noise_quantile():
    X, W, y, noises = _noisy_problem()
    base = PPDTC45(noises, threshold=0.5).fit(W, y)
    low = PPDTC45(noises, threshold=0.3).fit(W, y)
    # same partitions (p_S1 > 0.3 <=> w < t + sigma * Phi^-1(0.7)), thresholds moved down
    np.testing.assert_array_equal(low.tree_.feature, base.tree_.feature)
    internal = base.tree_.feature >= 0
    sig = np.array([noises[j].sigma for j in range(3)])[base.tree_.feature[internal]]
    np.testing.assert_allclose(base.tree_.threshold[internal] - low.tree_.threshold[internal],
                               sig * special.ndtri(0.7), rtol=1e-9)


@pytest.mark.parametrize("split,partition", [("threshold", "threshold"), ("weight", "threshold"),
                                             ("weight", "random"), ("threshold", "random")])
def test_near_zero_noise_equals_c45(split, partition):
    rng = np.random.default_rng(6)
    X = rng.uniform(0, 10, size=(60, 2))  # 59 cuts < max_candidates: every cut is tried
    y = ((X[:, 0] > 4) & (X[:, 1] < 7)).astype(int)
    y[rng.choice(60, 4, replace=False)] ^= 1
    plain = C45(pruning=False).fit(X, y)
    pp = PPDTC45(GaussianNoise(1e-9), split=split, partition=partition, pruning=False,
                 random_state=0).fit(X, y)
    np.testing.assert_array_equal(pp.tree_.feature, plain.tree_.feature)
    np.testing.assert_allclose(pp.tree_.threshold, plain.tree_.threshold, atol=1e-6)
    X_test = rng.uniform(0, 10, size=(500, 2))
    np.testing.assert_array_equal(pp.predict(X_test), plain.predict(X_test))


def test_weight_and_random_path_learn_something_and_are_seeded():
    X, W, y, noises = _noisy_problem()
    tree = PPDTC45(noises, split="weight", partition="random", random_state=7).fit(W, y)
    again = PPDTC45(noises, split="weight", partition="random", random_state=7).fit(W, y)
    np.testing.assert_array_equal(tree.tree_.threshold, again.tree_.threshold)
    majority = max(y.mean(), 1 - y.mean())
    assert tree.score(X, y) > majority + 0.05
    a = tree.predict_perturbed(W, rng=1)
    np.testing.assert_array_equal(a, tree.predict_perturbed(W, rng=1))
    assert tree.score_perturbed(W, y, rng=1) > majority


def test_dataframe_with_noise_by_column_name():
    X, W, y, noises = _noisy_problem(n=800)
    cols = ["a", "b", "c"]
    frame = pd.DataFrame(W, columns=cols)
    tree = PPDTC45({c: noises[j] for j, c in enumerate(cols)}).fit(frame, y)
    by_index = PPDTC45(noises).fit(W, y)
    np.testing.assert_array_equal(tree.predict(X), by_index.predict(X))
    assert tree.export_text().split()[0] in cols


# --- bad input ------------------------------------------------------------------------------
def test_bad_inputs_raise_clear_errors():
    X, W, y, noises = _noisy_problem(n=200)
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        C45().fit(bad, y)
    with pytest.raises(ValueError, match="NaN"):
        PPDTC45(noises).fit(bad, y)
    with pytest.raises(ValueError, match="snr must be > 0"):
        noise_for_snr(X[:, 0], -1.0)
    with pytest.raises(ValueError, match="threshold"):
        PPDTC45(noises, threshold=1.0).fit(W, y)
    with pytest.raises(ValueError, match="split must be one of"):
        PPDTC45(noises, split="gini").fit(W, y)
    with pytest.raises(ValueError, match="partition must be one of"):
        PPDTC45(noises, partition="left").fit(W, y)
    with pytest.raises(ValueError, match=r"no entry for column\(s\) \[2\]"):
        PPDTC45({0: noises[0], 1: noises[1]}).fit(W, y)
    with pytest.raises(ValueError, match="not fitted"):
        C45().predict(X)
    with pytest.raises(ValueError, match="min_instances"):
        C45(min_instances=0).fit(X, y)
    with pytest.raises(ValueError, match="one label per row"):
        C45().fit(X, y[:-1])
    with pytest.raises(ValueError, match="X has 2 features, but C45 is expecting 3"):
        C45().fit(X, y).predict(X[:, :2])


# --- J48's corrections, on examples small enough to compute by hand --------------------------
def _info(*counts):
    """Info of Eq. 3 (bits), written out again here as the reference."""
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def _split_info(n_left, n):
    return _info(n_left, n - n_left)   # Eq. 6 for a binary split: the entropy of the sizes


def test_the_root_is_chosen_by_gain_ratio_with_split_info_from_the_cut_sizes():
    # ten records; y in the order of x0 = 0..9. The best cut of x0 is x0 <= 5.5 (6 | 4 records,
    # classes {6, 0} | {1, 3}), of x2 its first two records (2 | 8, classes {0, 2} | {7, 1});
    # x1 carries almost nothing (it lowers the average gain, so x0 and x2 both qualify).
    # Each attribute has 7 allowed cuts (at least 2 records a side): MDL penalty log2(7) / 10.
    y = np.array([0, 0, 0, 0, 0, 0, 1, 1, 0, 1])
    x0 = np.arange(10.0)
    x1 = np.array([2, 3, 9, 6, 1, 8, 4, 5, 0, 7], dtype=float)
    x2 = np.array([8, 6, 7, 9, 2, 5, 0, 4, 3, 1], dtype=float)
    X = np.column_stack([x0, x1, x2])
    mdl = math.log2(7) / 10
    gain_x0 = _info(7, 3) - 0.6 * _info(6, 0) - 0.4 * _info(1, 3) - mdl
    gain_x2 = _info(7, 3) - 0.2 * _info(0, 2) - 0.8 * _info(7, 1) - mdl
    ratio_x0, ratio_x2 = gain_x0 / _split_info(6, 10), gain_x2 / _split_info(2, 10)
    assert ratio_x0 == pytest.approx(0.2843, abs=1e-4) and ratio_x2 == pytest.approx(0.2295, abs=1e-4)
    # split info from one record too few on the left (5/10 and 1/10) would rank them the other way
    assert gain_x2 / _split_info(1, 10) > gain_x0 / _split_info(5, 10)
    tree = C45(pruning=False).fit(X, y)
    assert tree.tree_.feature[0] == 0 and tree.tree_.threshold[0] == pytest.approx(5.5)
    # PPDTC4.5's threshold split with symmetric noise and threshold 0.5 searches the same cuts
    pp = PPDTC45(GaussianNoise(1e-6), pruning=False).fit(X, y)
    assert pp.tree_.feature[0] == 0 and pp.tree_.threshold[0] == pytest.approx(5.5, abs=1e-4)


@pytest.mark.parametrize("estimator", [lambda: C45(), lambda: PPDTC45(GaussianNoise(1e-6)),
                                       lambda: PPDTC45(GaussianNoise(1e-6), split="weight")],
                         ids=["C45", "PPDTC45-threshold", "PPDTC45-weight"])
def test_a_cut_whose_gain_is_below_the_mdl_penalty_is_not_made(estimator):
    # x = 0..9 and 7 allowed cuts (at least 2 records a side): J48 takes log2(7) / 10 = 0.281
    # bits off the best cut's gain. Alternating classes: the best cut (3 | 7 records, classes
    # {2, 1} | {3, 4}) gains 0.035 bits, below the penalty: the root stays a leaf. One class
    # moved (y below): the best cut (2 | 8, {2, 0} | {3, 5}) gains 0.322 bits, above it: a split
    x = np.arange(10.0)[:, None]
    mdl = math.log2(7) / 10
    alternating = np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
    assert 0 < _info(5, 5) - 0.3 * _info(2, 1) - 0.7 * _info(3, 4) < mdl
    assert estimator().fit(x, alternating).n_leaves_ == 1
    y = np.array([0, 0, 1, 0, 1, 1, 0, 1, 1, 1])
    assert _info(4, 6) - 0.2 * _info(2, 0) - 0.8 * _info(2, 6) > mdl
    tree = estimator().fit(x, y)
    assert tree.n_leaves_ == 2 and tree.tree_.threshold[0] == pytest.approx(1.5, abs=1e-4)


@pytest.mark.parametrize("estimator", [lambda: C45(), lambda: PPDTC45(GaussianNoise(1e-6), split="weight")],
                         ids=["C45", "PPDTC45-weight"])
def test_a_cut_leaves_at_least_min_split_records_on_each_side(estimator):
    # x = 0..9, one record of class 1 at the right end. The cut that isolates it (9 | 1) would
    # gain Info(9, 1) = 0.469 bits, but it leaves 1 record on the right, fewer than min_split = 2
    # (J48's minNumObj): of the 7 allowed cuts the best (8 | 2) gains 0.269 bits, below the MDL
    # penalty log2(7) / 10 = 0.281: the root stays a leaf
    x = np.arange(10.0)[:, None]
    y = np.array([0] * 9 + [1])
    assert _info(9, 1) - 0.2 * _info(1, 1) < math.log2(7) / 10
    assert estimator().fit(x, y).n_leaves_ == 1
