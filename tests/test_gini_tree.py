"""The plain gini tree (Original / Randomized of Agrawal & Srikant 2000, Section 4.1)."""
import numpy as np
import pandas as pd
import pytest

from ppdm_edu.datasets import agrawal
from ppdm_edu.trees import DecisionTree
from ppdm_edu.trees import gini as gini_module
from ppdm_edu.trees.gini import gini, gini_split, mdl_leaf_cost, split_table

# Fig. 3(a) of the paper: age, salary (K) -> credit risk
FIG3_X = pd.DataFrame({"age": [23, 17, 43, 68, 32, 20], "salary": [50, 30, 40, 50, 70, 20]})
FIG3_Y = np.array(["High", "High", "High", "Low", "Low", "High"])


def test_gini_hand_computed():
    assert gini([4, 2]) == pytest.approx(1 - (4 / 6) ** 2 - (2 / 6) ** 2)
    assert gini([5, 0]) == 0.0
    assert gini([1, 1, 1, 1]) == pytest.approx(0.75)
    # Age < 25 on Fig. 3: {3 High} | {1 High, 2 Low}
    assert gini_split([3, 0], [1, 2]) == pytest.approx(0.5 * 0 + 0.5 * (1 - 1 / 9 - 4 / 9))
    np.testing.assert_allclose(gini([[1, 1], [2, 0]]), [0.5, 0.0])


def test_split_table_fig3_age():
    table = split_table(FIG3_X["age"], FIG3_Y)
    # distinct ages 17 20 23 32 43 68 -> 5 mid-points
    np.testing.assert_allclose(table["threshold"], [18.5, 21.5, 27.5, 37.5, 55.5])
    best = table.loc[table["gini_split"].idxmin()]
    assert best["threshold"] == 27.5
    assert best["gini_split"] == pytest.approx(2 / 9)
    assert (best["left_High"], best["left_Low"], best["right_High"], best["right_Low"]) == (3, 0, 1, 2)


def test_fig3_tree_grown_by_the_code():
    tree = DecisionTree(pruning=None).fit(FIG3_X, FIG3_Y)
    text = tree.export_text(decimals=1)
    assert text.splitlines()[0] == "|--- age <= 27.5"
    assert "salary <= 45.0" in text
    assert tree.score(FIG3_X, FIG3_Y) == 1.0
    assert tree.n_leaves_ == 3
    assert tree.predict(pd.DataFrame({"age": [24, 30, 30], "salary": [90, 40, 60]})).tolist() == [
        "High", "High", "Low"]


def _brute_force_root(X, y):
    best = (np.inf, None, None)
    for a in range(X.shape[1]):
        values = np.unique(X[:, a])
        for lo, hi in zip(values[:-1], values[1:]):
            t = 0.5 * (lo + hi)
            left = X[:, a] <= t
            g = gini_split(np.bincount(y[left], minlength=2), np.bincount(y[~left], minlength=2))
            if g < best[0] - 1e-12:
                best = (g, a, t)
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_vectorized_split_search_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 12, size=(60, 3)).astype(float)  # ties on purpose
    y = (X[:, 1] + rng.normal(0, 3, 60) > 6).astype(int)
    g, a, t = _brute_force_root(X, y)
    tree = DecisionTree(pruning=None, max_depth=1).fit(X, y)
    assert tree.tree_.feature[0] == a
    assert tree.tree_.threshold[0] == pytest.approx(t)


def test_separable_data_gives_pure_tree():
    rng = np.random.default_rng(3)
    X = rng.uniform(0, 1, size=(2000, 4))
    y = ((X[:, 0] > 0.3) & (X[:, 2] < 0.6)).astype(int)
    tree = DecisionTree().fit(X, y)
    leaves = tree.tree_.feature < 0
    counts = tree.tree_.counts[leaves]
    assert (counts.min(axis=1) == 0).all()  # every leaf is pure
    assert tree.score(X, y) == 1.0
    assert set(tree.tree_.feature[~leaves]) == {0, 2}


def test_mdl_pruning_removes_noise_splits():
    rng = np.random.default_rng(4)
    X = rng.uniform(0, 1, size=(3000, 3))
    y = rng.integers(0, 2, 3000)  # labels independent of X
    full = DecisionTree(pruning=None).fit(X, y)
    pruned = DecisionTree(pruning="mdl").fit(X, y)
    assert full.n_leaves_ > 300
    assert pruned.n_leaves_ <= 3


def test_mdl_keeps_real_structure_on_agrawal():
    X, y = agrawal(5000, function=1, rng=0, balanced=True)
    Xt, yt = agrawal(2000, function=1, rng=1, balanced=True)
    tree = DecisionTree().fit(X, y)
    assert tree.score(Xt, yt) > 0.99
    assert tree.n_leaves_ == 3  # age < 40 | 40 <= age < 60 | age >= 60


def test_early_stop_gives_the_same_tree_as_grow_then_prune():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(3000, 4))
    y = (X[:, 0] + X[:, 1] + rng.normal(0, 1, 3000) > 0).astype(np.int64)
    a = gini_module._grow_sorted(X, y, 2, 2, None, "mdl", early_stop=True)
    b = gini_module._grow_sorted(X, y, 2, 2, None, "mdl", early_stop=False)
    for name in ("feature", "threshold", "children_left", "children_right", "value"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


@pytest.mark.parametrize("order", ["C", "F"])
def test_split_search_in_blocks_gives_the_same_tree(monkeypatch, order):
    # big nodes are scanned a few attributes at a time (memory, issue 31): the first maximum
    # in (attribute, position) order must be the one a single argmax over all attributes finds,
    # ties included (rounded values make many equal scores), for both layouts of X
    rng = np.random.default_rng(8)
    X = np.asarray(np.round(rng.normal(size=(2000, 5)), 1), order=order)
    y = (X[:, 0] + X[:, 3] + rng.normal(0, 1, 2000) > 0).astype(np.int64)
    whole = gini_module._grow_sorted(X, y, 2, 2, None, None)
    monkeypatch.setattr(gini_module, "_BLOCK", 1)   # one attribute per pass at every node
    monkeypatch.setattr(gini_module, "_INT32_FROM", 0)   # and int32 attribute lists, as at 10^6
    blocks = gini_module._grow_sorted(X, y, 2, 2, None, None)
    assert whole.n_nodes > 50
    for name in ("feature", "threshold", "children_left", "children_right", "value"):
        np.testing.assert_array_equal(getattr(whole, name), getattr(blocks, name))


def test_mdl_leaf_cost_hand_computed():
    # 50/50: 100 log2(2) + 1/2 log2(50) + log2(pi / Gamma(1))
    assert float(mdl_leaf_cost([50, 50])) == pytest.approx(100 + 0.5 * np.log2(50) + np.log2(np.pi))
    assert float(mdl_leaf_cost([100, 0])) == pytest.approx(0.5 * np.log2(50) + np.log2(np.pi))


def test_multiclass_and_max_depth():
    rng = np.random.default_rng(6)
    X = rng.uniform(0, 3, size=(900, 2))
    y = np.floor(X[:, 0]).astype(int)  # three classes
    tree = DecisionTree().fit(X, y)
    assert tree.classes_.tolist() == [0, 1, 2]
    assert tree.score(X, y) == 1.0
    stump = DecisionTree(max_depth=1).fit(X, y)
    assert stump.depth_ == 1 and stump.n_leaves_ == 2


def test_deterministic():
    X, y = agrawal(3000, function=2, rng=7)
    a = DecisionTree().fit(X, y).export_text()
    b = DecisionTree().fit(X, y).export_text()
    assert a == b


def test_predict_proba_rows_sum_to_one():
    X, y = agrawal(1000, function=4, rng=8)
    proba = DecisionTree().fit(X, y).predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("kwargs, match", [
    ({"min_samples": 1}, "min_samples"),
    ({"max_depth": -1}, "max_depth"),
    ({"pruning": "cost-complexity"}, "pruning"),
])
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        DecisionTree(**kwargs).fit(FIG3_X, FIG3_Y)


def test_bad_inputs():
    X = FIG3_X.astype(float).copy()
    X.iloc[2, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        DecisionTree().fit(X, FIG3_Y)
    with pytest.raises(ValueError, match="labels"):
        DecisionTree().fit(FIG3_X, FIG3_Y[:4])
    with pytest.raises(ValueError, match="not fitted"):
        DecisionTree().predict(FIG3_X)
    tree = DecisionTree().fit(FIG3_X, FIG3_Y)
    with pytest.raises(ValueError, match="features"):
        tree.predict(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="feature names should match"):
        tree.predict(pd.DataFrame({"age": [1.0]}))
    with pytest.raises(ValueError, match="numeric"):
        DecisionTree().fit(pd.DataFrame({"a": ["x", "y"]}), [0, 1])
