"""ID3, RR-ID3 and the disguised-test accuracy estimate (Du & Zhan, Sections 4.2-4.3)."""
import math

import numpy as np
import pandas as pd
import pytest

from ppdm_edu.trees import ID3, RRID3, estimate_accuracy
from ppdm_edu.trees.id3 import EMPTY, NO_ATTRIBUTES, PURE


def correlated_data(n=3000, k=6, rng=0):
    """0/1 attributes with a class that depends on several of them (plus label noise)."""
    rng = np.random.default_rng(rng)
    z = rng.normal(size=(n, 1))
    X = (rng.normal(size=(n, k)) + 0.8 * z > 0.2).astype(np.uint8)
    score = X[:, 0] + X[:, 1] * X[:, 2] - X[:, 3] + 0.5 * rng.normal(size=n)
    y = (score > 0.5).astype(np.uint8)
    return X, y


def mrr(X, y, theta, rng, disguised_label=True):
    keep = np.random.default_rng(rng).random(X.shape[0]) <= theta
    Xd = np.where(keep[:, None], X, 1 - X)
    yd = np.where(keep, y, 1 - y) if disguised_label else y
    return Xd, yd


# ---------------------------------------------------------------------------------------------
# a naive, record-by-record ID3 used only as a reference (loops are fine in a test)
# ---------------------------------------------------------------------------------------------
def _h(labels):
    if len(labels) == 0:
        return 0.0
    q = sum(labels) / len(labels)
    return -sum(p * math.log2(p) for p in (q, 1 - q) if p > 0)


def reference_id3(rows, labels, attrs, parent_majority=None):
    """Returns nested tuples: ('leaf', class) or ('split', attr, child0, child1)."""
    if not rows:
        return ("leaf", parent_majority)
    ones = sum(labels)
    majority = 1 if ones > len(labels) - ones else 0
    if ones in (0, len(labels)):
        return ("leaf", labels[0])
    if not attrs:
        return ("leaf", majority)
    base = _h(labels)
    best, best_gain = None, -1.0
    for a in attrs:  # ties -> first attribute, like np.argmax
        parts = [[lab for r, lab in zip(rows, labels) if r[a] == v] for v in (0, 1)]
        gain = base - sum(len(p) / len(labels) * _h(p) for p in parts)
        if gain > best_gain + 1e-12:
            best, best_gain = a, gain
    children = []
    for v in (0, 1):
        sub = [(r, lab) for r, lab in zip(rows, labels) if r[best] == v]
        children.append(reference_id3([r for r, _ in sub], [lab for _, lab in sub],
                                      [a for a in attrs if a != best], majority))
    return ("split", best, children[0], children[1])


def as_nested(tree, i=0):
    t = tree.tree_
    if t.feature[i] < 0:
        return ("leaf", int(t.label[i]))
    return ("split", int(t.feature[i]), as_nested(tree, t.children_left[i]), as_nested(tree, t.children_right[i]))


def assert_same_tree(a, b):
    ta, tb = a.tree_, b.tree_
    np.testing.assert_array_equal(ta.feature, tb.feature)
    np.testing.assert_array_equal(ta.children_left, tb.children_left)
    np.testing.assert_array_equal(ta.children_right, tb.children_right)
    np.testing.assert_array_equal(ta.label, tb.label)
    np.testing.assert_array_equal(ta.reason, tb.reason)
    np.testing.assert_array_equal(ta.class_counts, tb.class_counts)  # bit for bit
    assert a.export_text(show_counts=True) == b.export_text(show_counts=True).replace("~", "")


# ---------------------------------------------------------------------------------------------
# plain ID3
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_id3_matches_a_naive_reference_implementation(seed):
    X, y = correlated_data(n=300, k=5, rng=seed)
    tree = ID3().fit(X, y)
    ref = reference_id3([tuple(r) for r in X.tolist()], y.tolist(), list(range(5)))
    assert as_nested(tree) == ref


def test_id3_stopping_rules_pure_empty_branch_and_no_attributes():
    # root splits on a; under a = 1 every record has b = 0, so the branch b = 1 is empty
    X = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [0, 0]])
    y = np.array([1, 0, 1, 0, 0])
    tree = ID3().fit(X, y)
    t = tree.tree_
    assert t.feature[0] == 0
    left, right = t.children_left[0], t.children_right[0]
    assert t.reason[left] == PURE and t.label[left] == 0
    assert t.feature[right] == 1
    b0, b1 = t.children_left[right], t.children_right[right]
    assert t.reason[b1] == EMPTY and t.label[b1] == 1  # parent's majority (2 of 3 are class 1)
    assert t.reason[b0] == NO_ATTRIBUTES and t.label[b0] == 1
    assert tree.predict([[1, 1], [0, 1], [1, 0]]).tolist() == [1, 0, 1]
    np.testing.assert_array_equal(t.class_counts[right], [1.0, 2.0])
    assert "(empty branch)" in tree.export_text()


def test_id3_dataframe_names_predict_score_and_export():
    X, y = correlated_data(n=500, k=4)
    frame = pd.DataFrame(X, columns=["age", "sex", "race", "hours"])
    tree = ID3().fit(frame, y)
    assert list(tree.feature_names_in_) == ["age", "sex", "race", "hours"]
    text = tree.export_text(max_depth=1)
    assert text.splitlines()[0].startswith("|--- ") and "= 0" in text.splitlines()[0]
    assert "nodes, majority class" in text or tree.tree_.max_depth <= 1
    # training accuracy equals the share of records agreeing with their leaf's majority
    assert tree.score(frame, y) == pytest.approx(np.mean(tree.predict(frame) == y))
    assert tree.score(X, y) > 0.8


def test_id3_errors_at_the_boundary():
    with pytest.raises(ValueError, match="0/1"):
        ID3().fit([[0, 2], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match=r"y must have one label per row of X \(2\), got 3"):
        ID3().fit([[0, 1], [1, 0]], [0, 1, 1])
    with pytest.raises(ValueError, match="Expected 2D array, got 1D array"):
        ID3().fit([0, 1, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="not fitted"):
        ID3().predict([[0, 1]])
    tree = ID3().fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="X has 3 features, but ID3 is expecting 2"):
        tree.predict([[0, 1, 1]])


# ---------------------------------------------------------------------------------------------
# RR-ID3
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("disguised_label", [True, False])
def test_theta_one_and_zero_give_exactly_the_id3_tree(disguised_label):
    X, y = correlated_data(n=4000, k=7, rng=3)
    reference = ID3().fit(X, y)
    assert reference.tree_.n_nodes > 20  # a real tree, not a stump
    one = RRID3(theta=1.0, disguised_label=disguised_label).fit(X, y)
    assert_same_tree(reference, one)
    # theta = 0: every record (and the label, if disguised) arrives complemented
    zero = RRID3(theta=0.0, disguised_label=disguised_label).fit(1 - X, 1 - y if disguised_label else y)
    assert_same_tree(reference, zero)


def test_theta_half_and_out_of_range_are_clear_errors():
    X, y = correlated_data(n=100, k=4)
    with pytest.raises(ValueError, match="theta = 0.5 makes the randomized-response system singular"):
        RRID3(theta=0.5).fit(X, y)
    with pytest.raises(ValueError, match="between 0 and 1"):
        RRID3(theta=1.2).fit(X, y)
    tree = ID3().fit(X, y)
    with pytest.raises(ValueError, match="singular"):
        estimate_accuracy(tree, (X, y), 0.5)
    with pytest.raises(ValueError, match="pair"):
        estimate_accuracy(tree, X, 0.7)


@pytest.mark.parametrize("disguised_label", [True, False])
def test_counts_are_exact_on_the_expected_disguised_data(disguised_label):
    """Hand-checkable: theta = 3/4 and every record sent 4 times, 3 times as is and once
    complemented. That disguised data set is exactly its own expectation, so every estimated
    count of every node must equal 4 x the true count and the tree must be the ID3 tree."""
    X, y = correlated_data(n=400, k=5, rng=7)
    Xd = np.concatenate([X, X, X, 1 - X])
    yd = np.concatenate([y, y, y, 1 - y if disguised_label else y])
    reference = ID3().fit(X, y)
    tree = RRID3(theta=0.75, disguised_label=disguised_label).fit(Xd, yd)
    np.testing.assert_array_equal(tree.tree_.feature, reference.tree_.feature)
    np.testing.assert_array_equal(tree.tree_.label, reference.tree_.label)
    np.testing.assert_allclose(tree.tree_.class_counts, 4 * reference.tree_.class_counts, atol=1e-8)


def test_paper_fig1_node_counts_by_hand():
    """The node A_i = 1, A_j = 0 of Fig. 1: |S| from P*(E) and P*(Ebar), E = (1, 0), Ebar = (0, 1)."""
    # 10 disguised records over (A_i, A_j); the root splits on A_i, the node A_i = 1 on A_j
    Xd = np.array([[1, 0]] * 4 + [[0, 1]] * 3 + [[1, 1]] * 2 + [[0, 0]] * 1)
    yd = np.array([1, 1, 1, 0] + [0, 0, 1] + [1, 0] + [0])
    theta = 0.8
    # by hand: P*(E) = 4/10, P*(Ebar) = 3/10 -> P(E) = (0.8 * 0.4 - 0.2 * 0.3) / 0.6 = 0.4333...
    p_e = (0.8 * 0.4 - 0.2 * 0.3) / 0.6
    # class 0 in the node (label disguised): E = (1, 0, C=0) 1 record, Ebar = (0, 1, C=1) 1 record
    p_e0 = (0.8 * 0.1 - 0.2 * 0.1) / 0.6
    tree = RRID3(theta=theta).fit(Xd, yd)
    t = tree.tree_
    assert t.feature[0] == 0  # A_i at the root
    node = t.children_right[0]
    assert t.feature[node] == 1  # A_j below A_i = 1
    leaf = t.children_left[node]  # the node A_i = 1 and A_j = 0
    assert t.class_counts[leaf].sum() == pytest.approx(p_e * 10)
    assert t.class_counts[leaf, 0] == pytest.approx(p_e0 * 10)


def test_rrid3_recovers_a_clear_rule_from_disguised_data():
    rng = np.random.default_rng(11)
    X = rng.integers(0, 2, size=(20_000, 4)).astype(np.uint8)
    y = (X[:, 0] & X[:, 1]).astype(np.uint8)
    for theta in (0.2, 0.8):
        Xd, yd = mrr(X, y, theta, rng)
        tree = RRID3(theta=theta).fit(Xd, yd)
        assert tree.score(X, y) == 1.0
        assert tree.tree_.feature[0] in (0, 1)


def test_estimated_root_counts_are_unbiased():
    X, y = correlated_data(n=2000, k=4, rng=5)
    true = np.bincount(y, minlength=2)
    est = []
    rng = np.random.default_rng(0)
    for _ in range(200):
        Xd, yd = mrr(X, y, 0.7, rng)
        est.append(RRID3(theta=0.7).fit(Xd, yd).tree_.class_counts[0])
    est = np.array(est)
    se = est.std(axis=0, ddof=1) / np.sqrt(len(est))
    assert np.all(np.abs(est.mean(axis=0) - true) < 3 * se + 1e-9)
    # the root size is exact: P*(E) = P*(Ebar) = 1 for the empty conjunction
    np.testing.assert_allclose(est.sum(axis=1), 2000)


# ---------------------------------------------------------------------------------------------
# Section 4.3: accuracy from a disguised test set
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("disguised_label", [True, False])
def test_accuracy_estimate_is_unbiased(disguised_label):
    X, y = correlated_data(n=6000, k=6, rng=9)
    tree = ID3().fit(X[:4000], y[:4000])
    U, yU = X[4000:], y[4000:]
    truth = tree.score(U, yU)
    rng = np.random.default_rng(1)
    est = np.array([
        estimate_accuracy(tree, mrr(U, yU, 0.7, rng, disguised_label), 0.7,
                          disguised_label=disguised_label).accuracy
        for _ in range(300)
    ])
    se = est.std(ddof=1) / np.sqrt(est.size)
    assert abs(est.mean() - truth) < 3 * se
    # scoring the disguised test set naively, P*(correct), is biased far away from the truth
    Xs, ys = mrr(U, yU, 0.7, 2, disguised_label)
    assert abs(tree.score(Xs, ys) - truth) > 0.02


def test_accuracy_estimate_exact_at_theta_one_and_zero():
    X, y = correlated_data(n=1000, k=4)
    tree = ID3().fit(X, y)
    truth = tree.score(X, y)
    assert estimate_accuracy(tree, (X, y), 1.0).accuracy == truth
    assert estimate_accuracy(tree, (1 - X, 1 - y), 0.0).accuracy == truth
    est = estimate_accuracy(tree, (1 - X, y), 0.0, disguised_label=False)
    assert est.accuracy == truth and 0.0 <= est.clipped <= 1.0
