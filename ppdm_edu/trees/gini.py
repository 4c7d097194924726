"""A binary gini decision tree with MDL pruning (Agrawal & Srikant 2000, Section 4.1).

This is the classifier the paper calls **Original** when it is trained on the original records
and **Randomized** when it is trained on the perturbed records without any correction (Section
5.1). It follows the two phases of Section 4.1:

* growth (Fig. 4): recursively split a node on the (attribute, threshold) pair with the lowest
  ``gini_split``; the candidate thresholds are the mid-points between consecutive distinct
  values of the attribute in the node;
* pruning by the Minimum Description Length principle, in the spirit of SLIQ [MAR96] (the paper
  says this phase "needs no modification" for perturbed data). We use the encoding of Mehta,
  Rissanen & Agrawal as restated by Rastogi & Shim (PUBLIC, VLDB 1998): a leaf with class counts
  ``n_1..n_k`` (total ``n``) costs ``1 + sum n_i log2(n / n_i) + (k-1)/2 log2(n/2) +
  log2(pi^(k/2) / Gamma(k/2))`` bits, a split node costs ``1 + log2(#attributes) +
  log2(#candidate thresholds)`` bits plus its two subtrees; a subtree is replaced by a leaf when
  the leaf is not more expensive.

Split search is vectorized as in SLIQ's attribute lists: every attribute is sorted once at the
root; a node holds, for each attribute, its records in sorted order (a ``(d, m)`` index matrix);
cumulative class counts along each row give the class distribution on each side of every
candidate threshold at once. Partitioning a node keeps each row sorted (a stable boolean
filter), so nothing is sorted again. There is no Python loop over records, only over nodes.

Categorical codes (e.g. ``elevel``, ``car``, ``zipcode`` of the synthetic data) are treated as
ordered numbers: splits are ``code <= t``.

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.trees import DecisionTree
>>> X = np.array([[23, 50], [17, 30], [43, 40], [68, 50], [32, 70], [20, 20]])  # Fig. 3(a)
>>> y = np.array(["High", "High", "High", "Low", "Low", "High"])
>>> tree = DecisionTree(pruning=None).fit(X, y)
>>> tree.predict([[30, 60]]).tolist()
['Low']
"""
from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from ..validation import (
    check_class_counts,
    check_finite_1d,
    check_finite_2d,
    check_fit_data,
    check_predict_data,
    feature_names,
)
from .base import FlatTree

__all__ = ["DecisionTree", "gini", "gini_split", "split_table", "mdl_leaf_cost", "TreeStructure"]

_PRUNING = (None, "mdl")


# --------------------------------------------------------------------------------------------
# The gini index (Section 4.1)
# --------------------------------------------------------------------------------------------

def gini(counts) -> float | np.ndarray:
    """gini(S) = 1 - sum_j p_j^2 from class counts (Section 4.1); the last axis holds the classes.

    Parameters
    ----------
    counts : array-like of float, shape (..., k)
        Class counts (>= 0) of one set of records, or of many along the leading axes.

    Returns
    -------
    float or ndarray, shape (...)
        The gini index in [0, 1 - 1/k]; 0 for an empty set.

    Raises
    ------
    ValueError
        If ``counts`` is a scalar or has an empty last axis, or a count is negative, NaN or
        infinite.

    Examples
    --------
    >>> gini([4, 2])            # 4 High, 2 Low
    0.4444444444444444
    >>> gini([3, 0])
    0.0
    """
    c = check_class_counts(counts, "counts")
    n = c.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        g = 1.0 - ((c / n[..., None]) ** 2).sum(axis=-1)
    g = np.where(n > 0, g, 0.0)
    return float(g) if g.ndim == 0 else g


def gini_split(left_counts, right_counts) -> float | np.ndarray:
    """gini_split(S) = n1/n gini(S1) + n2/n gini(S2) (Section 4.1).

    Parameters
    ----------
    left_counts : array-like of float, shape (..., k)
        Class counts of the records that go left (``x <= t``).
    right_counts : array-like of float, shape (..., k)
        Class counts of the records that go right, same shape.

    Returns
    -------
    float or ndarray, shape (...)
        The weighted gini index of the split (lower is better); 0 when both sides are empty.

    Raises
    ------
    ValueError
        If the shapes differ or a count is negative, NaN or infinite.

    Examples
    --------
    >>> round(gini_split([3, 0], [1, 2]), 4)   # Fig. 3: Age < 25 splits 3 High | 1 High, 2 Low
    0.2222
    """
    left = check_class_counts(left_counts, "left_counts")
    right = check_class_counts(right_counts, "right_counts")
    if left.shape != right.shape:
        raise ValueError(f"left and right counts must have the same shape, got {left.shape} and {right.shape}")
    n1, n2 = left.sum(axis=-1), right.sum(axis=-1)
    n = n1 + n2
    with np.errstate(invalid="ignore", divide="ignore"):
        g = (n1 * gini(left) + n2 * gini(right)) / n
    g = np.where(n > 0, g, 0.0)
    return float(g) if g.ndim == 0 else g


def split_table(x, y) -> pd.DataFrame:
    """Every candidate split ``x <= t`` of one attribute with its class counts and gini_split.

    The candidates are the mid-points between consecutive distinct values (Section 4.2, "in the
    standard algorithm, every mid-point between any two consecutive attribute values is a
    candidate split point"). Handy to grow a tree by hand.

    Parameters
    ----------
    x : array-like of float, shape (n,)
        Values of one attribute (finite).
    y : array-like, shape (n,)
        Class labels.

    Returns
    -------
    pandas.DataFrame
        One row per candidate threshold, in increasing order: ``threshold``, the class counts
        ``left_<class>`` and ``right_<class>`` of each side, and ``gini_split``.

    Raises
    ------
    ValueError
        If ``x`` is not finite and 1-d or ``y`` has another length.

    Examples
    --------
    >>> t = split_table([23, 17, 43, 68, 32, 20], ["H", "H", "H", "L", "L", "H"])
    >>> float(t.loc[t.gini_split.idxmin(), "threshold"])
    27.5
    """
    x = check_finite_1d(x, "x")
    y = np.asarray(y)
    if y.shape != x.shape:
        raise ValueError(f"x and y must have the same length, got {x.size} and {y.size}")
    classes, codes = np.unique(y, return_inverse=True)
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], codes[order]
    cum = np.cumsum(np.eye(classes.size, dtype=np.int64)[ys], axis=0)
    total = cum[-1]
    cut = np.flatnonzero(xs[1:] > xs[:-1])
    left = cum[cut]
    right = total - left
    out = pd.DataFrame({"threshold": 0.5 * (xs[cut] + xs[cut + 1])})
    for j, c in enumerate(classes):
        out[f"left_{c}"] = left[:, j]
    for j, c in enumerate(classes):
        out[f"right_{c}"] = right[:, j]
    out["gini_split"] = gini_split(left, right) if cut.size else []
    return out


def mdl_leaf_cost(counts) -> np.ndarray:
    """Bits to encode the classes of the records of a leaf (the SLIQ / PUBLIC MDL cost).

    ``sum_i n_i log2(n / n_i) + (k-1)/2 log2(n / 2) + log2(pi^(k/2) / Gamma(k/2))`` for class
    counts ``n_1..n_k`` (last axis). It grows with the impurity of the leaf and, slowly, with its
    size; a subtree survives pruning only if it saves more bits than its splits cost.

    Parameters
    ----------
    counts : array-like of float, shape (..., k)
        Class counts of one leaf, or of many along the leading axes (finite, >= 0).

    Returns
    -------
    ndarray, shape (...)
        The cost in bits (a 0-d array for one leaf).

    Raises
    ------
    ValueError
        If ``counts`` is a scalar, has an empty last axis, or holds a negative, NaN or
        infinite count.

    Examples
    --------
    >>> round(float(mdl_leaf_cost([50, 50])), 1), round(float(mdl_leaf_cost([100, 0])), 1)
    (104.5, 4.5)
    """
    c = check_class_counts(counts, "counts")
    k = c.shape[-1]
    n = c.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(c > 0, c * np.log2(np.where(c > 0, n[..., None] / c, 1.0)), 0.0)
        param = np.where(n > 1, 0.5 * (k - 1) * np.log2(np.maximum(n, 2) / 2.0), 0.0)
    const = (0.5 * k * math.log(math.pi) - special.gammaln(0.5 * k)) / math.log(2.0)
    return terms.sum(axis=-1) + param + const


# --------------------------------------------------------------------------------------------
# Tree storage shared by DecisionTree and ReconstructionTree
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TreeStructure(FlatTree):
    """A fitted binary tree as flat arrays (node 0 is the root; ``feature == -1`` at leaves).

    A record goes to ``left[node]`` when ``X[:, feature[node]] <= threshold[node]``.
    ``counts[node]`` holds the training class counts of the node (estimated counts for the
    reconstruction trees).

    Attributes
    ----------
    feature : ndarray of int, shape (n_nodes,)
        Attribute tested at each node; -1 at leaves.
    threshold : ndarray of float, shape (n_nodes,)
        Threshold of the test ``x <= threshold`` (unused at leaves).
    left : ndarray of int, shape (n_nodes,)
        Index of the left child (records with ``x <= threshold``); unused at leaves.
    right : ndarray of int, shape (n_nodes,)
        Index of the right child; unused at leaves.
    counts : ndarray of float, shape (n_nodes, n_classes)
        Training class counts of each node.
    depth : ndarray of int, shape (n_nodes,)
        Depth of each node (the root has depth 0).
    """

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    counts: np.ndarray
    depth: np.ndarray

    def apply(self, X: np.ndarray) -> np.ndarray:
        """Leaf index of every row of X (vectorized: one step per tree level, not per record).

        Parameters
        ----------
        X : ndarray of float, shape (n, n_features)
            Records, already validated (the estimators' :meth:`apply` checks them).

        Returns
        -------
        ndarray of int, shape (n,)
            Index of the leaf (node) each record reaches.
        """
        node = np.zeros(X.shape[0], dtype=np.int64)
        rows = np.arange(X.shape[0])
        active = self.feature[node] >= 0
        while active.any():
            idx = rows[active]
            nd = node[idx]
            go_left = X[idx, self.feature[nd]] <= self.threshold[nd]
            node[idx] = np.where(go_left, self.left[nd], self.right[nd])
            active[idx] = self.feature[node[idx]] >= 0
        return node


class Builder:
    """Collects nodes during growth (preorder), then prunes and compacts them."""

    def __init__(self, n_classes: int):
        self.feature: list[int] = []
        self.threshold: list[float] = []
        self.left: list[int] = []
        self.right: list[int] = []
        self.counts: list[np.ndarray] = []
        self.depth: list[int] = []
        self.split_bits: list[float] = []
        self.n_classes = n_classes

    def add(self, counts, depth: int) -> int:
        self.feature.append(-1)
        self.threshold.append(np.nan)
        self.left.append(-1)
        self.right.append(-1)
        self.counts.append(np.asarray(counts, dtype=float))
        self.depth.append(depth)
        self.split_bits.append(0.0)
        return len(self.feature) - 1

    def set_split(self, node: int, feature: int, threshold: float, n_candidates: int, n_features: int):
        self.feature[node] = int(feature)
        self.threshold[node] = float(threshold)
        # SLIQ/PUBLIC: encoding a numeric test costs the attribute plus the chosen value
        self.split_bits[node] = math.log2(max(n_features, 1)) + math.log2(max(n_candidates, 1))

    def link(self, node: int, left: int, right: int):
        self.left[node] = left
        self.right[node] = right

    def finish(self, pruning) -> TreeStructure:
        feature = np.asarray(self.feature, dtype=np.int64)
        left = np.asarray(self.left, dtype=np.int64)
        right = np.asarray(self.right, dtype=np.int64)
        counts = np.vstack(self.counts) if self.counts else np.zeros((0, self.n_classes))
        if pruning == "mdl":
            feature = _mdl_prune(feature, left, right, counts, np.asarray(self.split_bits))
        return _compact(feature, np.asarray(self.threshold, dtype=float), left, right, counts,
                        np.asarray(self.depth, dtype=np.int64))


def _mdl_prune(feature, left, right, counts, split_bits) -> np.ndarray:
    """MDL pruning (SLIQ's 'full' option): a node becomes a leaf when that costs no more bits.

    Nodes are stored in preorder, so children have larger ids than parents: one backward pass
    computes every subtree's cost (a loop over nodes, not records).
    """
    leaf_cost = 1.0 + mdl_leaf_cost(counts)  # 1 bit says "leaf"
    cost = leaf_cost.copy()
    feature = feature.copy()
    for node in range(feature.size - 1, -1, -1):
        if feature[node] < 0:
            continue
        split_cost = 1.0 + split_bits[node] + cost[left[node]] + cost[right[node]]
        if split_cost < leaf_cost[node]:
            cost[node] = split_cost
        else:
            feature[node] = -1  # prune: the children become unreachable
    return feature


def _leaf_bits(counts) -> float:
    """Scalar :func:`mdl_leaf_cost` + 1 bit (plain Python: called once per node)."""
    k = len(counts)
    if k == 2:  # the common case, without the generator (same operations, same value)
        a, b = counts
        n = float(a + b)
        bits = (a * math.log2(n / a) if a > 0 else 0) + (b * math.log2(n / b) if b > 0 else 0)
    else:
        n = float(sum(counts))
        bits = sum(c * math.log2(n / c) for c in counts if c > 0)
    if n > 1:
        bits += 0.5 * (k - 1) * math.log2(n / 2.0)
    return 1.0 + bits + _leaf_const(k)


@functools.lru_cache(maxsize=16)
def _leaf_const(k: int) -> float:
    return (0.5 * k * math.log(math.pi) - math.lgamma(0.5 * k)) / math.log(2.0)


def _min_subtree_bits(counts, n_features: int) -> float:
    """A lower bound on the MDL cost of the best subtree at a node with these class counts.

    Either the node stays a leaf, or it splits: then it pays at least 1 bit + log2(#attributes)
    + two leaves of at least 1 bit + the constant of :func:`mdl_leaf_cost` each.
    """
    k = len(counts)
    return min(_leaf_bits(counts), 1.0 + math.log2(max(n_features, 1)) + 2 * (1.0 + _leaf_const(k)))


def leaf_is_final(counts, n_features: int) -> bool:
    """True when MDL pruning keeps this node a leaf whatever split it gets (checked before the
    split search): even the cheapest subtree (one split, two pure leaves) costs more bits."""
    k = len(counts)
    return _leaf_bits(counts) <= 1.0 + math.log2(max(n_features, 1)) + 2 * (1.0 + _leaf_const(k))


def surely_pruned(counts, left_counts, right_counts, n_candidates: int, n_features: int) -> bool:
    """True when MDL pruning would turn this node into a leaf whatever grows below it.

    The idea of PUBLIC (Rastogi & Shim 1998): compare the cost of the node as a leaf with a lower
    bound on the cost of any subtree rooted at it; if the leaf is not more expensive, do not grow
    the subtree at all. The pruned tree is exactly the same, only cheaper to build.
    """
    leaf = _leaf_bits(counts)
    split = (1.0 + math.log2(max(n_features, 1)) + math.log2(max(n_candidates, 1))
             + _min_subtree_bits(left_counts, n_features) + _min_subtree_bits(right_counts, n_features))
    return leaf <= split


def _compact(feature, threshold, left, right, counts, depth) -> TreeStructure:
    """Keep the nodes reachable from the root, renumbered in preorder."""
    keep = []
    stack = [0]
    while stack:
        node = stack.pop()
        keep.append(node)
        if feature[node] >= 0:
            stack.append(right[node])
            stack.append(left[node])
    kept = np.asarray(keep, dtype=np.int64)
    new_id = np.full(feature.size, -1, dtype=np.int64)
    new_id[kept] = np.arange(kept.size)
    f = feature[kept]
    internal = f >= 0
    new_left = np.where(internal, new_id[left[keep]], -1)
    new_right = np.where(internal, new_id[right[keep]], -1)
    thr = np.where(internal, threshold[keep], np.nan)
    return TreeStructure(feature=f, threshold=thr, left=new_left, right=new_right,
                         counts=counts[keep], depth=depth[keep])


# --------------------------------------------------------------------------------------------
# Input handling shared by both trees
# --------------------------------------------------------------------------------------------

def check_X(X, name="X"):
    """(array, feature names or None) from a DataFrame or an array; NaN/inf raise ValueError."""
    names = None
    if isinstance(X, pd.DataFrame):
        names = [str(c) for c in X.columns]
        non_numeric = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]
        if non_numeric:
            raise ValueError(
                f"{name} columns must be numeric (encode categories as integer codes first); "
                f"non-numeric: {non_numeric}"
            )
    return check_finite_2d(X, name), names


def check_int(value, name, minimum, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        allowed = f"an integer >= {minimum}" + (" or None" if allow_none else "")
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return int(value)


class TreeClassifierMixin(ClassifierMixin, BaseEstimator):
    """predict / score / export_text over ``self.tree_`` (a :class:`TreeStructure`)."""

    def _check_fitted(self):
        check_is_fitted(self)

    def apply(self, X) -> np.ndarray:
        """Index of the leaf each record reaches.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Records (same columns as in ``fit``), numeric and finite.

        Returns
        -------
        ndarray of int, shape (n_samples,)
            Node index (in ``tree_``) of each record's leaf.
        """
        X = check_predict_data(self, X)
        return self.tree_.apply(X)

    def predict_proba(self, X) -> np.ndarray:
        """Class frequencies of the training records in the leaf each record reaches.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Records (same columns as in ``fit``), numeric and finite.

        Returns
        -------
        ndarray, shape (n_samples, n_classes)
            Class shares of the leaf, columns in the order of ``classes_`` (uniform for a leaf
            with no training records).
        """
        leaves = self.apply(X)  # checks fitted and X first
        counts = self.tree_.counts[leaves]
        total = counts.sum(axis=1, keepdims=True)
        return np.divide(counts, total, out=np.full_like(counts, 1.0 / counts.shape[1]), where=total > 0)

    def predict(self, X) -> np.ndarray:
        """Majority class of the leaf each record reaches.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Records (same columns as in ``fit``), numeric and finite.

        Returns
        -------
        ndarray, shape (n_samples,)
            The predicted label of each record (an element of ``classes_``).
        """
        leaves = self.apply(X)
        return self.classes_[np.argmax(self.tree_.counts[leaves], axis=1)]

    def _feature_name(self, j: int) -> str:
        names = feature_names(self)
        return f"x{j}" if names is None else names[j]

    def export_text(self, decimals: int = 2, max_depth: int | None = None) -> str:
        """The tree as indented text, one line per test or leaf (like scikit-learn's).

        Parameters
        ----------
        decimals : int, default 2
            Decimals of the thresholds.
        max_depth : int or None, default None
            Show nodes down to this depth; deeper subtrees are summarized as one line.

        Returns
        -------
        str
            One line per test (``name <= t`` / ``name >  t``) or leaf (``class: label (n=...,
            share of the majority class)``), indented by depth.
        """
        self._check_fitted()
        t = self.tree_
        lines: list[str] = []

        def leaf(node, indent):
            c = t.counts[node]
            label = self.classes_[int(np.argmax(c))]
            share = c.max() / c.sum() if c.sum() > 0 else 0.0
            lines.append(f"{indent}|--- class: {label} (n={c.sum():.0f}, {share:.0%})")

        stack: list[tuple] = [(0, "")]
        while stack:
            node, indent = stack.pop()
            if isinstance(node, str):  # a pre-formatted line
                lines.append(node)
                continue
            if t.feature[node] < 0:
                leaf(node, indent)
                continue
            if max_depth is not None and t.depth[node] >= max_depth:
                lines.append(f"{indent}|--- ... ({int(t.counts[node].sum())} records below)")
                continue
            name = self._feature_name(int(t.feature[node]))
            thr = f"{t.threshold[node]:.{decimals}f}"
            child = indent + "|   "
            stack.append((t.right[node], child))
            stack.append((f"{indent}|--- {name} >  {thr}", None))
            stack.append((t.left[node], child))
            lines.append(f"{indent}|--- {name} <= {thr}")
        return "\n".join(lines)

    @property
    def n_leaves_(self) -> int:
        """Number of leaves of the fitted tree."""
        self._check_fitted()
        return self.tree_.n_leaves

    @property
    def depth_(self) -> int:
        """Depth of the fitted tree (0 for a single leaf)."""
        self._check_fitted()
        return self.tree_.max_depth


# --------------------------------------------------------------------------------------------
# The estimator
# --------------------------------------------------------------------------------------------

class DecisionTree(TreeClassifierMixin):
    """Binary gini decision tree with MDL pruning (Agrawal & Srikant 2000, Section 4.1).

    Trained on the original records it is the paper's **Original**; trained on perturbed
    records as they are, it is **Randomized** (Section 5.1).

    Parameters
    ----------
    min_samples : int, default 2
        A node with fewer records is a leaf.
    pruning : {"mdl", None}, default "mdl"
        MDL pruning in the spirit of SLIQ (see the module docstring), or no pruning.
    max_depth : int or None, default None
        Depth limit (the root has depth 0).

    Attributes
    ----------
    tree_ : TreeStructure
        The fitted tree (flat arrays).
    classes_ : ndarray
        The class labels, sorted.
    n_features_in_ : int
        Number of columns seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names seen in ``fit``; only set when ``X`` was a DataFrame with string column
        names (as in scikit-learn). ``predict`` then requires the same names in the same order.

    Examples
    --------
    >>> from ppdm_edu.datasets import agrawal
    >>> X, y = agrawal(2000, function=1, rng=0)
    >>> tree = DecisionTree().fit(X, y)
    >>> tree.n_leaves_, round(tree.score(X, y), 3)
    (3, 1.0)
    """

    def __init__(self, min_samples: int = 2, pruning: str | None = "mdl", max_depth: int | None = None):
        self.min_samples = min_samples
        self.pruning = pruning
        self.max_depth = max_depth

    def _check_params(self):
        min_samples = check_int(self.min_samples, "min_samples", 2)
        max_depth = check_int(self.max_depth, "max_depth", 0, allow_none=True)
        if self.pruning not in _PRUNING:
            raise ValueError(f"pruning must be 'mdl' or None, got {self.pruning!r}")
        return min_samples, max_depth

    def fit(self, X, y) -> "DecisionTree":
        """Grow the tree on (X, y) (Fig. 4), then prune it (MDL).

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Training records, numeric (categories as integer codes) and finite.
        y : array-like, shape (n_samples,)
            Class labels.

        Returns
        -------
        DecisionTree
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            If a parameter is out of range or ``X``/``y`` are invalid.
        """
        min_samples, max_depth = self._check_params()
        Xa, classes, codes = check_fit_data(self, X, y)
        self.classes_ = classes
        self.tree_ = _grow_sorted(Xa, codes, classes.size, min_samples, max_depth, self.pruning)
        return self


def _grow_sorted(X: np.ndarray, y: np.ndarray, k: int, min_samples: int, max_depth, pruning,
                 early_stop: bool = True) -> TreeStructure:
    """Tree growth of Fig. 4 on presorted attribute lists (SLIQ style), vectorized per node.

    Per node the work is a handful of passes over its (d, m) attribute lists; they use 1-D
    ``take``/``compress`` on flat arrays and int32 cumulative counts (several times faster than
    2-D fancy/boolean indexing and int64 cumsum; same numbers).
    """
    n, d = X.shape
    XT = np.ascontiguousarray(X.T)
    flat_values = XT.ravel()
    row_offset = (np.arange(d, dtype=np.intp) * n)[:, None]    # S + row_offset: index into flat_values
    builder = Builder(k)
    onehot = np.eye(k, dtype=np.int64)
    y_small = y.astype(np.int8) if k <= 127 else y
    count_dtype = np.int32 if n < 2**31 else np.int64
    root_sorted = np.argsort(XT, axis=1, kind="stable").astype(np.intp)
    is_left = np.zeros(n, dtype=bool)
    root = builder.add(np.bincount(y, minlength=k), 0)
    stack = [(root, root_sorted, 0)]
    while stack:
        node, S, depth = stack.pop()
        counts = builder.counts[node]
        m = S.shape[1]
        # Fig. 4 step (1): stop on a pure node (and on size/depth limits)
        if m < min_samples or (counts > 0).sum() <= 1 or (max_depth is not None and depth >= max_depth):
            continue
        if early_stop and pruning == "mdl" and leaf_is_final(counts.tolist(), d):
            continue
        Xs = flat_values.take(S + row_offset)         # (d, m) values in sorted order
        ys = y_small.take(S)                          # (d, m) classes in the same order
        valid = Xs[:, 1:] > Xs[:, :-1]                # a threshold between distinct values only
        if not valid.any():
            continue
        n_left = np.arange(1, m, dtype=float)         # records left of each candidate
        n_right = m - n_left
        if k == 2:
            c1 = np.cumsum(ys[:, :-1], axis=1, dtype=count_dtype).astype(float)
            r1 = counts[1] - c1
            r0 = n_right - r1
            c0 = n_left - c1
            # minimizing gini_split = maximizing sum_j cL_j^2/nL + sum_j cR_j^2/nR; in place,
            # in the order of (c0 * c0 + c1 * c1) / n_left + (r0 * r0 + r1 * r1) / n_right
            score = np.multiply(c0, c0, out=c0)
            score += np.multiply(c1, c1, out=c1)
            score /= n_left
            r0 *= r0
            r0 += np.multiply(r1, r1, out=r1)
            r0 /= n_right
            score += r0
        else:
            cum = np.cumsum(onehot[ys[:, :-1]], axis=1).astype(float)   # (d, m-1, k)
            rest = counts - cum
            score = (cum ** 2).sum(-1) / n_left + (rest ** 2).sum(-1) / n_right
        np.copyto(score, -np.inf, where=~valid)
        best = int(np.argmax(score))
        a, i = divmod(best, m - 1)
        # no gain: gini_split would not be below gini(S); Section 5.2 (the "buried XOR")
        if score[a, i] <= (counts ** 2).sum() / m * (1 + 1e-12):
            continue
        left_counts = np.bincount(ys[a, : i + 1], minlength=k)
        right_counts = counts - left_counts
        n_candidates = int(valid[a].sum())
        if early_stop and pruning == "mdl" and surely_pruned(
                counts.tolist(), left_counts.tolist(), right_counts.tolist(), n_candidates, d):
            continue
        lo, hi = Xs[a, i], Xs[a, i + 1]
        thr = 0.5 * (lo + hi)
        if not lo <= thr < hi:  # adjacent floats
            thr = lo
        builder.set_split(node, a, thr, n_candidates, d)
        is_left[S[a, : i + 1]] = True
        is_left[S[a, i + 1:]] = False
        mask = is_left.take(S).ravel()
        flat_S = S.ravel()
        SL = flat_S.compress(mask).reshape(d, i + 1)     # stable: each row stays sorted
        SR = flat_S.compress(~mask).reshape(d, m - i - 1)
        lnode = builder.add(left_counts, depth + 1)
        rnode = builder.add(right_counts, depth + 1)  # children get larger ids than parents
        builder.link(node, lnode, rnode)
        stack.append((rnode, SR, depth + 1))
        stack.append((lnode, SL, depth + 1))
    return builder.finish(pruning)
