"""ID3 on binary data, and ID3 on randomized-response data (Du & Zhan, KDD 2003, Section 4).

:class:`ID3` is the textbook algorithm the paper lists in Section 4.2 (information gain, Eq. 1-2)
with its three stopping rules: a pure node is a leaf (step 2), a node with no attributes left is a
majority leaf (step 3), and an empty branch becomes a leaf labelled with the *parent's* majority
class (step 6c).

:class:`RRID3` is the same algorithm run on data disguised with multivariate randomized response
(MRR: each record is sent unchanged with probability theta, or with every value flipped with
probability 1 - theta). It cannot count the records of a node, so every count it needs -- the
node size |S|, the class frequencies Q_j and the branch sizes |S_v| -- is *estimated* for the
node's full path conjunction E from the proportions P*(E) and P*(Ebar) in the disguised data,
by solving the 2 x 2 system of Eq. 3:

    P*(E)    = theta P(E)    + (1 - theta) P(Ebar)
    P*(Ebar) = theta P(Ebar) + (1 - theta) P(E)

where Ebar is E with every attribute value flipped (and the class value flipped too when the
class label was disguised with the record; kept when it was sent truthfully).

How the counting is vectorized (no loop over records): the records that satisfy a node's path
conjunction E are exactly the records whose route down the (partial) tree reaches that node; the
records that satisfy Ebar are exactly those whose *complement* reaches it. So the fit keeps two
routes, one for the disguised records and one for their complements, and at each depth counts
every (node, attribute, value, class) cell of the whole frontier at once with ``np.bincount``.
The loops are over tree levels and attributes only.

:func:`estimate_accuracy` is Section 4.3: the accuracy of a tree on the *undisguised* test set,
estimated from a disguised test set S and its complement Sbar through the same 2 x 2 system.

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.trees import ID3, RRID3
>>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
>>> y = X[:, 0] & X[:, 1]
>>> print(ID3().fit(X, y).export_text(feature_names=["a", "b"]))
|--- a = 0
|   |--- class: 0
|--- a = 1
|   |--- b = 0
|   |   |--- class: 0
|   |--- b = 1
|   |   |--- class: 1
>>> RRID3(theta=1.0).fit(X, y).export_text() == ID3().fit(X, y).export_text()
True
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._validation import check_binary, check_bool, check_fit_data, check_predict_data, check_probability
from ..randomized_response import mrr_solve
from ._params import Boolean, checked_params
from .base import Tree, TreeBuilder, TreeClassifier

__all__ = ["ID3", "RRID3", "estimate_accuracy", "AccuracyEstimate", "describe_reason"]

# Why a node became a leaf (stored per node in ``tree_.reason``).
SPLIT, PURE, NO_ATTRIBUTES, EMPTY = 0, 1, 2, 3
# Round-off guard for estimated quantities: a proportion (of n) or a class frequency within
# _EPS of 0, 1/2 or 1 is treated as exactly that value, and gains within _EPS as a tie (first
# attribute wins). Real proportions differ by at least 1/n >> _EPS, so for plain ID3 this only
# breaks float round-off ties (the test suite checks ID3 against a naive reference).
_EPS = 1e-9
_REASONS = {SPLIT: "split", PURE: "pure", NO_ATTRIBUTES: "no attributes left", EMPTY: "empty branch"}


# --------------------------------------------------------------------------------------------
# Eq. 3: the 2 x 2 system
# --------------------------------------------------------------------------------------------
def check_rr_theta(theta) -> float:
    """theta in [0, 1] and not 0.5; the singular case gets randomized_response's message."""
    if isinstance(theta, bool) or not isinstance(theta, numbers.Real):
        raise TypeError(f"theta must be a real number in [0, 1], got {theta!r}")
    theta = check_probability(theta, "theta")
    mrr_solve(0.0, 0.0, theta)  # raises ValueError at theta = 0.5 (determinant 2 theta - 1 = 0)
    return theta


def _solve(p_star_e, p_star_ebar, theta):
    """Eq. 3 solved for P(E) by :func:`ppdm_edu.randomized_response.mrr_solve`.

    mrr_solve computes (theta P*(E) - (1 - theta) P*(Ebar)) / (2 theta - 1): theta = 1 returns
    P*(E) and theta = 0 returns P*(Ebar) bit for bit, which is what makes RR-ID3 at theta = 0 or
    1 build exactly the ID3 tree of the original data. ``+ 0.0`` turns the -0.0 that theta = 0
    gives for an empty cell into 0.0 (so the printed tree shows "0", not "-0").
    """
    return mrr_solve(p_star_e, p_star_ebar, theta) + 0.0


def describe_reason(code: int) -> str:
    """Why an ID3 node is what it is, in words, from its ``tree_.reason`` code.

    Parameters
    ----------
    code : int
        A value of ``reason``: 0, 1, 2 or 3.

    Returns
    -------
    str
        ``"split"``, ``"pure"``, ``"no attributes left"`` or ``"empty branch"``.

    Raises
    ------
    KeyError
        If ``code`` is not one of the four codes.

    Examples
    --------
    >>> describe_reason(3)
    'empty branch'
    """
    return _REASONS[int(code)]


def _entropy2(q0):
    """Eq. 1 for two classes, in bits, with 0 log 0 = 0 (q0 already in [0, 1])."""
    q0 = np.asarray(q0, dtype=float)
    q1 = 1.0 - q0
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(np.where(q0 > 0, q0 * np.log2(q0), 0.0) + np.where(q1 > 0, q1 * np.log2(q1), 0.0))
    return h


def _fraction(part, whole):
    """part / whole clipped to [0, 1]; 0 where whole <= 0 (the clipping rule of RR-ID3)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(whole > 0, part / np.where(whole > 0, whole, 1.0), 0.0)
    f = np.clip(f, 0.0, 1.0)
    f = np.where(f < _EPS, 0.0, np.where(f > 1.0 - _EPS, 1.0, f))
    return f


def _frontier_counts(pos, X, y, n_front):
    """Counts of records per (frontier node, attribute, value, class), by bincount.

    ``pos[r]`` is the frontier node record r has reached (-1: stopped in a leaf). Returns
    ``cells`` of shape (n_front, K, 2, 2) and ``node`` of shape (n_front, 2) (per class).
    """
    keep = pos >= 0
    key = pos[keep] * 2 + y[keep]
    m = 2 * n_front
    node = np.bincount(key, minlength=m).astype(float)
    Xk = X[keep]
    K = X.shape[1]
    ones = np.empty((m, K))
    for k in range(K):  # loop over attributes, not records
        ones[:, k] = np.bincount(key, weights=Xk[:, k], minlength=m)
    node = node.reshape(n_front, 2)
    ones = ones.reshape(n_front, 2, K).transpose(0, 2, 1)  # (front, K, class)
    cells = np.empty((n_front, K, 2, 2))
    cells[:, :, 1, :] = ones
    cells[:, :, 0, :] = node[:, None, :] - ones
    return cells, node


@dataclass
class _Frontier:
    """The nodes of one level, still to be decided: their ids, their estimated proportions
    P(E and class) (one row of two per node) and the attributes split on along their path."""

    ids: np.ndarray
    counts: np.ndarray
    used: np.ndarray


class _GrowingTree:
    """The tree while ID3 grows it breadth-first: nodes are numbered level by level, children in
    the order of their parents. Next to the builder's arrays it keeps each node's information
    gain (Eq. 2; 0 at a leaf) and why the node is what it is (``reason``)."""

    def __init__(self, n: int):
        self.n = n
        self.builder = TreeBuilder(2)
        self.label = self.builder.label
        self.gain: list[float] = []
        self.reason: list[int] = []

    def add(self, proportions: np.ndarray, depth: int) -> np.ndarray:
        """New nodes at ``depth``, one per row of estimated proportions P(E and class); their ids."""
        m = proportions.shape[0]
        self.gain.extend([0.0] * m)
        self.reason.extend([SPLIT] * m)
        return np.array([self.builder.add(row, depth, 0) for row in proportions * self.n], dtype=np.int64)

    def finish(self) -> Tree:
        return self.builder.finish(breadth_first=True, gain=np.asarray(self.gain, dtype=float),
                                   reason=np.asarray(self.reason, dtype=np.int64))


def _grow(X, y, estimate, Xbar=None, ybar=None) -> Tree:
    """The ID3 recursion of Section 4.2, grown level by level over the whole frontier.

    ``estimate(A, B)`` turns disguised proportions P*(E) (A) and P*(Ebar) (B) into the
    proportions P(E) the algorithm uses; for plain ID3 it returns A (B is None).
    """
    n, K = X.shape
    # root: E = "true", so P*(E) = P*(Ebar) = 1 and every estimate below is the same formula
    pos = np.zeros(n, dtype=np.int64)
    pos_bar = None if Xbar is None else np.zeros(n, dtype=np.int64)

    A_root = np.bincount(y, minlength=2).astype(float) / n
    B_root = None if ybar is None else np.bincount(ybar, minlength=2).astype(float) / n
    root_counts = estimate(A_root, B_root)[None, :]  # (1, 2) estimated P(E and class)
    tree = _GrowingTree(n)
    front = _Frontier(tree.add(root_counts, 0), root_counts, np.zeros((1, K), dtype=bool))
    level = 0
    while front.ids.size:
        size = front.counts.sum(axis=1)  # estimated |S| / n
        q0 = _fraction(front.counts[:, 0], size)  # Q_0, clipped; Q_1 = 1 - Q_0 (Section 4.2)
        majority = (q0 < 0.5 - _EPS).astype(int)  # ties -> class 0
        for i, node_id in enumerate(front.ids):
            tree.label[node_id] = int(majority[i])

        # step 2: a pure node is a leaf of its class; step 3: a node with no attribute left is a
        # leaf of its majority class
        pure = (q0 == 0.0) | (q0 == 1.0)
        leaf = pure | front.used.all(axis=1)
        for i in np.flatnonzero(leaf).tolist():
            tree.reason[front.ids[i]] = PURE if pure[i] else NO_ATTRIBUTES
            if pure[i]:
                tree.label[front.ids[i]] = 0 if q0[i] == 1.0 else 1

        # the other nodes split on the attribute of highest information gain (Eq. 2)
        cells = _estimated_cells(estimate, front.ids.size, pos, X, y, pos_bar, Xbar, ybar)
        gains = _information_gains(cells, size, q0, front.used)
        front, feat_front, child_front = _split_frontier(tree, front, np.flatnonzero(~leaf), cells, gains,
                                                         majority, level + 1)

        # route records (and complements) one level down; -1 once they stop in a leaf
        pos = _route(pos, X, feat_front, child_front)
        if pos_bar is not None:
            pos_bar = _route(pos_bar, Xbar, feat_front, child_front)
        level += 1
    return tree.finish()


def _estimated_cells(estimate, n_front, pos, X, y, pos_bar=None, Xbar=None, ybar=None):
    """Estimated P(E and A_k = v and C = c) of every (frontier node, attribute k, value v,
    class c) cell, shape (n_front, K, 2, 2): P*(E ...) counted on the disguised records
    (``X``, ``y``, at frontier nodes ``pos``), P*(Ebar ...) on their complements (``Xbar``,
    ``ybar``, at ``pos_bar``; None for plain ID3), solved for P(E ...) by ``estimate`` (Eq. 3).
    """
    n = X.shape[0]
    A, _ = _frontier_counts(pos, X, y, n_front)
    B = None
    if Xbar is not None:
        B, _ = _frontier_counts(pos_bar, Xbar, ybar, n_front)
        B = B / n
    return estimate(A / n, B)


def _information_gains(cells, size, q0, used):
    """Eq. 2 for every (frontier node, attribute): Ent(S) - sum_v |S_v| / |S| Ent(S_v), from the
    estimated cells; -inf for an attribute already split on along the node's path."""
    branch = cells.sum(axis=3)  # estimated |S_v| / n
    w = _fraction(branch, size[:, None, None])  # |S_v| / |S| in [0, 1]
    h_child = _entropy2(_fraction(cells[:, :, :, 0], branch))
    h_node = _entropy2(q0)
    gains = h_node[:, None] - (w * h_child).sum(axis=2)  # Eq. 2
    return np.where(used, -np.inf, gains)


def _split_frontier(tree, front, split_idx, cells, gains, majority, depth):
    """Split the frontier nodes ``split_idx`` on their attribute of highest information gain
    (ties: the first); a branch with no records becomes a leaf of its parent's majority class
    (step 6c).

    Returns the next frontier (the other children) and the routing tables of this level: the
    attribute each frontier node splits on and the next-frontier position of each of its two
    children (-1: a leaf).
    """
    n_front, K = front.used.shape
    feat_front = np.full(n_front, -1, dtype=np.int64)
    child_front = np.full((n_front, 2), -1, dtype=np.int64)
    next_ids: list = []
    next_counts: list = []
    next_used: list = []
    best = np.argmax(gains >= gains.max(axis=1, keepdims=True) - _EPS, axis=1)  # ties -> first
    if split_idx.size:
        k = best[split_idx]
        child_c = cells[split_idx, k]  # (s, value, class)
        ids = tree.add(child_c.reshape(-1, 2), depth).reshape(-1, 2)
        empty = child_c.sum(axis=2) <= _EPS  # estimated size <= 0: empty branch (step 6c)
        for j, i in enumerate(split_idx.tolist()):
            nid = front.ids[i]
            # the value-0 branch is x <= 0.5, the value-1 branch x > 0.5 (0/1 attributes)
            tree.builder.split(nid, int(k[j]), 0.5, int(ids[j, 0]), int(ids[j, 1]))
            tree.gain[nid] = float(gains[i, k[j]])
            feat_front[i] = k[j]
            for v in (0, 1):
                cid = ids[j, v]
                if empty[j, v]:
                    tree.reason[cid] = EMPTY
                    tree.label[cid] = int(majority[i])
                else:
                    child_front[i, v] = len(next_ids)
                    next_ids.append(cid)
                    next_counts.append(child_c[j, v])
                    u = front.used[i].copy()
                    u[k[j]] = True
                    next_used.append(u)
    following = _Frontier(np.array(next_ids, dtype=np.int64), np.array(next_counts).reshape(-1, 2),
                          np.array(next_used, dtype=bool).reshape(-1, K))
    return following, feat_front, child_front


def _route(pos, X, feat_front, child_front):
    out = np.full_like(pos, -1)
    live = pos >= 0
    if not live.any():
        return out
    p = pos[live]
    f = feat_front[p]
    ok = f >= 0
    rows = np.flatnonzero(live)[ok]
    out[rows] = child_front[p[ok], X[rows, f[ok]]]
    return out


# --------------------------------------------------------------------------------------------
# estimators
# --------------------------------------------------------------------------------------------
def _check_fit_binary(estimator, X, y):
    """0/1 attributes and 0/1 labels (Du & Zhan's setting), with scikit-learn's checks."""
    Xa, classes, codes = check_fit_data(estimator, X, y, binary=True)
    if not set(classes.tolist()) <= {0, 1}:
        raise ValueError(f"y must hold 0/1 class labels (ID3 and RR-ID3 disguise the label by "
                         f"flipping it), got the classes {classes.tolist()}")
    return Xa, classes[codes].astype(np.uint8)


class _BinaryTree(TreeClassifier):
    """ID3's and RR-ID3's input (0/1 attributes) and printing (one branch per value)."""

    _binary_input = True
    _default_name = "A"
    _export_decimals = 0

    def _branch_texts(self, node, names, decimals):
        name = names[self.tree_.feature[node]]
        return f"{name} = 0", f"{name} = 1"

    def _leaf_text(self, node, show_counts, decimals):
        t = self.tree_
        text = f"class: {t.label[node]}"
        if show_counts:
            approx = "~" if isinstance(self, RRID3) else ""
            c0, c1 = t.value[node]
            text += f" [{approx}{c0:.{decimals}f}, {approx}{c1:.{decimals}f}]"
        if t.reason[node] == EMPTY:
            text += " (empty branch)"
        return text

    def _truncated_text(self, node):
        return f"{self.tree_.subtree_size(node)} nodes, majority class {self.tree_.label[node]}"


class ID3(_BinaryTree):
    """ID3 on 0/1 attributes and a 0/1 class (Du & Zhan, Section 4.2; Quinlan's algorithm).

    Splits on the attribute of largest information gain (Eq. 1-2, entropy in bits; ties go to the
    first attribute) and stops as the paper's listing does: a pure node is a leaf; a node with no
    attributes left is a leaf of its majority class; a branch with no records is a leaf of the
    parent's majority class. There is no pruning and no minimum gain, as in the paper.

    Attributes
    ----------
    tree_ : Tree
        The fitted tree (flat arrays, :class:`~ppdm_edu.trees.base.Tree`; a test on attribute
        ``a`` sends value 0 left, ``x[a] <= 0.5``, and value 1 right).
    n_features_in_ : int
        Number of attributes seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names seen in ``fit`` (only when ``X`` was a DataFrame with string column names).
    classes_ : ndarray
        ``array([0, 1])``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]])
    >>> ID3().fit(X, [1, 1, 0, 0]).predict([[1, 0], [0, 1]]).tolist()
    [1, 0]
    """

    def __init__(self):
        pass

    def fit(self, X, y):
        """Build the tree from 0/1 attributes ``X`` (array or DataFrame) and 0/1 labels ``y``.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of 0/1, shape (n_samples, n_features)
            Training records with binary attributes.
        y : array-like of 0/1, shape (n_samples,)
            Class labels.

        Returns
        -------
        ID3
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            If ``X`` or ``y`` holds values other than 0 and 1, or they are otherwise invalid.
        """
        Xa, ya = _check_fit_binary(self, X, y)
        self.tree_ = _grow(Xa, ya, lambda A, B: A)
        self.classes_ = np.array([0, 1])
        return self


class RRID3(_BinaryTree):
    """ID3 built from data disguised by multivariate randomized response (Du & Zhan, Section 4.2).

    ``fit`` receives the *disguised* records (each one the original with probability ``theta``,
    or its complement). Every quantity ID3 needs -- |S|, the class frequencies Q_j of Eq. 1 and
    the branch sizes |S_v| of Eq. 2 -- is estimated for the node's full path conjunction E by
    solving Eq. 3 with P*(E) and P*(Ebar) counted in the disguised data.

    Estimates outside [0, n] (they are unbiased, not bounded) are handled like this:

    * the estimated class frequency Q_0 = P(E and C = 0) / P(E) is clipped to [0, 1] and
      Q_1 = 1 - Q_0, as in the paper; a node whose clipped Q_0 is 0 or 1 is pure (a leaf);
    * a branch weight |S_v| / |S| is clipped to [0, 1];
    * a branch whose estimated size |S_v| is <= 0 is an *empty branch*: it is not split further
      and becomes a leaf of the parent's (estimated) majority class (step 6c of the listing).

    With ``theta`` = 1 the disguised data are the original data, with ``theta`` = 0 they are
    its complement; in both cases Eq. 3 gives the exact counts and the tree is *exactly* the
    :class:`ID3` tree of the original data (same splits, same counts). ``theta`` = 0.5 raises a
    ValueError (Eq. 3 is singular).

    Parameters
    ----------
    theta : float in [0, 1], not 0.5
        Probability that a record was sent unchanged.
    disguised_label : bool, default True
        True: the class label was flipped together with the record (Ebar uses the opposite
        class value). False: the label was sent truthfully (Ebar keeps the class value).

    Attributes
    ----------
    tree_ : Tree
        ``tree_.value`` holds the estimated (unclipped) class counts of each node.
    n_features_in_, feature_names_in_, classes_
        As in :class:`ID3`.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu.trees import ID3, RRID3
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 2, size=(4000, 3))
    >>> y = X[:, 0] | X[:, 1]
    >>> keep = rng.random(4000) <= 0.8                 # MRR with theta = 0.8
    >>> Xd, yd = np.where(keep[:, None], X, 1 - X), np.where(keep, y, 1 - y)
    >>> tree = RRID3(theta=0.8).fit(Xd, yd)
    >>> tree.score(X, y)
    1.0
    """

    _param_checks = {"theta": lambda value, name: check_rr_theta(value), "disguised_label": Boolean()}

    def __init__(self, theta, disguised_label=True):
        self.theta = theta
        self.disguised_label = disguised_label

    def fit(self, X, y):
        """Build the tree from disguised 0/1 records ``X`` and (disguised or true) labels ``y``.

        Parameters
        ----------
        X : array-like or pandas.DataFrame of 0/1, shape (n_samples, n_features)
            Records disguised by MRR with ``theta``.
        y : array-like of 0/1, shape (n_samples,)
            Labels, disguised with their records (``disguised_label=True``) or true.

        Returns
        -------
        RRID3
            The fitted estimator (``self``).

        Raises
        ------
        TypeError
            If ``theta`` is not a real number.
        ValueError
            If ``theta`` is 0.5 or outside [0, 1], ``disguised_label`` is not a bool, or
            ``X``/``y`` hold values other than 0 and 1.
        """
        theta = checked_params(self)["theta"]
        Xa, ya = _check_fit_binary(self, X, y)
        Xbar = 1 - Xa  # the complement of every record: counts P*(Ebar)
        ybar = 1 - ya if self.disguised_label else ya
        self.tree_ = _grow(Xa, ya, lambda A, B: _solve(A, B, theta), Xbar, ybar)
        self.classes_ = np.array([0, 1])
        return self


# --------------------------------------------------------------------------------------------
# Section 4.3: accuracy from a disguised test set
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AccuracyEstimate:
    """Result of :func:`estimate_accuracy` (Section 4.3).

    Attributes
    ----------
    accuracy : float
        Estimated P(correct) on the undisguised test set (unbiased, *not* clipped).
    p_star : float
        P*(correct): fraction of correct predictions on the disguised test set S.
    p_star_bar : float
        Pbar*(correct): fraction of correct predictions on its complement Sbar.
    theta : float
        The theta the test set was disguised with.
    n : int
        Number of test records.
    """

    accuracy: float
    p_star: float
    p_star_bar: float
    theta: float
    n: int

    @property
    def clipped(self) -> float:
        """The estimate clipped to [0, 1] (biased near the ends; for display)."""
        return float(min(1.0, max(0.0, self.accuracy)))


def estimate_accuracy(tree, disguised_test, theta, disguised_label=None) -> AccuracyEstimate:
    """Accuracy of ``tree`` on the original test data, estimated from a disguised test set (§4.3).

    Predict on the disguised test set S and on its complement Sbar; then
    P*(correct) = theta P(correct) + (1 - theta) Pbar(correct) and
    Pbar*(correct) = theta Pbar(correct) + (1 - theta) P(correct); solve for P(correct).

    Parameters
    ----------
    tree : ID3 or RRID3
        A fitted tree.
    disguised_test : tuple (X, y)
        Disguised 0/1 test records and their labels (disguised with the record or true).
    theta : float in [0, 1], not 0.5
        The theta the test set was disguised with.
    disguised_label : bool, optional
        Whether the labels were flipped with the records; default: the tree's own
        ``disguised_label`` (True for :class:`ID3`).

    Returns
    -------
    AccuracyEstimate
        The unbiased accuracy estimate and the two observed accuracies it is solved from.

    Raises
    ------
    TypeError
        If ``tree`` is not an ID3 or RRID3 tree (or ``theta`` is not a number).
    ValueError
        If ``theta`` is 0.5 or outside [0, 1], ``disguised_test`` is not a pair, or the test
        records or labels are not 0/1 with one label per record.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0], [1]] * 50); y = X[:, 0]
    >>> tree = ID3().fit(X, y)
    >>> estimate_accuracy(tree, (X, y), theta=1.0).accuracy
    1.0
    """
    theta = check_rr_theta(theta)
    if not (isinstance(disguised_test, (tuple, list)) and len(disguised_test) == 2):
        raise ValueError("disguised_test must be a pair (X, y) of disguised test records and labels")
    if disguised_label is None:
        disguised_label = getattr(tree, "disguised_label", True)
    disguised_label = check_bool(disguised_label, "disguised_label")
    Xs, ys = disguised_test
    if not isinstance(tree, _BinaryTree):
        raise TypeError(f"tree must be a fitted ID3 or RRID3, got {type(tree).__name__}")
    Xa = check_predict_data(tree, Xs, binary=True, input_name="disguised_test's X")
    ya = check_binary(ys, "disguised_test's y")
    if ya.ndim != 1 or ya.size != Xa.shape[0]:
        raise ValueError(f"disguised_test's labels y must be one 0/1 label per record "
                         f"({Xa.shape[0]}), got shape {ya.shape}")
    ybar = 1 - ya if disguised_label else ya
    t = tree.tree_
    p_star = float(np.mean(t.label[t.apply(Xa)] == ya))
    p_star_bar = float(np.mean(t.label[t.apply(1 - Xa)] == ybar))
    return AccuracyEstimate(
        accuracy=_solve(p_star, p_star_bar, theta),
        p_star=p_star,
        p_star_bar=p_star_bar,
        theta=theta,
        n=int(ya.size),
    )
