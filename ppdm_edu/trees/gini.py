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

import numpy as np
import pandas as pd
from scipy import special

from .._validation import check_class_counts, check_finite_1d, check_fit_data
from ._params import Integer, OneOf, checked_params
from .base import Tree, TreeBuilder, TreeClassifier

__all__ = ["DecisionTree", "gini", "gini_split", "split_table", "mdl_leaf_cost"]


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
        raise ValueError(f"left_counts and right_counts must have the same shape, got {left.shape} and {right.shape}")
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
# Growth bookkeeping shared by DecisionTree and ReconstructionTree
# --------------------------------------------------------------------------------------------

class MDLBuilder(TreeBuilder):
    """A :class:`~ppdm_edu.trees.base.TreeBuilder` that also records each test's MDL cost and
    prunes by MDL when it finishes (nodes in preorder, as grown).

    Parameters
    ----------
    n_classes : int
        Number of classes.
    n_features : int
        Number of attributes (the cost of naming one is log2 of it).
    """

    def __init__(self, n_classes: int, n_features: int):
        super().__init__(n_classes)
        self.n_features = n_features
        self.split_bits: dict[int, float] = {}

    def split_at(self, node: int, feature: int, threshold: float, n_candidates: int, left: int, right: int):
        """:meth:`split`, with the test's cost: SLIQ/PUBLIC encode a numeric test as the
        attribute plus the chosen value."""
        self.split(node, feature, threshold, left, right)
        self.split_bits[node] = math.log2(max(self.n_features, 1)) + math.log2(max(n_candidates, 1))

    def finish_pruned(self, pruning) -> Tree:
        """The compact tree in preorder, MDL-pruned when ``pruning == "mdl"``."""
        if pruning != "mdl":
            return self.finish()
        feature, _, left, right, counts, _, _ = self.arrays()
        bits = np.zeros(feature.size)
        bits[list(self.split_bits)] = list(self.split_bits.values())
        return self.finish(_mdl_prune(feature, left, right, counts, bits))


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


# --------------------------------------------------------------------------------------------
# The estimator
# --------------------------------------------------------------------------------------------

class DecisionTree(TreeClassifier):
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
    tree_ : Tree
        The fitted tree (flat arrays, :class:`~ppdm_edu.trees.base.Tree`).
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

    _param_checks = {"min_samples": Integer(2), "pruning": OneOf("mdl", None), "max_depth": Integer(0, none=True)}

    def __init__(self, min_samples: int = 2, pruning: str | None = "mdl", max_depth: int | None = None):
        self.min_samples = min_samples
        self.pruning = pruning
        self.max_depth = max_depth

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
        p = checked_params(self)
        Xa, classes, codes = check_fit_data(self, X, y)
        self.classes_ = classes
        self.tree_ = _grow_sorted(Xa, codes, classes.size, p["min_samples"], p["max_depth"], p["pruning"])
        return self


#: elements per pass of the split search: a big node is scanned a few attributes at a time
#: (the sizes of this block and the next: benchmarks/engineering_notes.md)
_BLOCK = 2**18
#: attribute lists with at least this many entries are int32, smaller ones intp
_INT32_FROM = 2**22


def _grow_sorted(X: np.ndarray, y: np.ndarray, k: int, min_samples: int, max_depth, pruning,
                 early_stop: bool = True) -> Tree:
    """Tree growth of Fig. 4 on presorted attribute lists (SLIQ style), vectorized per node.

    A node holds, for each attribute, its records in sorted order: a ``(d, m)`` index matrix
    ``S`` (int32 when it can). The split search reads the values through ``S`` straight from
    ``X`` and scans the attributes in blocks of about ``_BLOCK`` entries. The best split is the
    first maximum in (attribute, position) order, as one argmax over all attributes would give.

    Fig. 4 is a recursion, Partition(S); here a stack of the nodes still to partition, the left
    child on top, visits them in the same order.
    """
    n, d = X.shape
    # int32 attribute lists for big trees (every flat index of X must fit), intp for small ones
    idx_dtype = np.int32 if _INT32_FROM <= n * d < 2**31 else np.intp
    search = _SplitSearch(X, y, k, idx_dtype)
    builder = MDLBuilder(k, d)
    # the MDL shortcuts: a node whose leaf no subtree can beat, a split that pruning would undo
    mdl_shortcuts = early_stop and pruning == "mdl"
    root_sorted = np.empty((d, n), dtype=idx_dtype)
    for j in range(d):  # a loop over attributes
        root_sorted[j] = np.argsort(X[:, j], kind="stable")
    is_left = np.zeros(n, dtype=bool)
    root = builder.add(np.bincount(y, minlength=k), 0)
    stack = [(root, root_sorted, 0)]
    del root_sorted  # the stack holds the only reference: freed once the root is split
    while stack:
        node, S, depth = stack.pop()
        counts = builder.counts[node]
        count_list = counts.tolist()
        m = S.shape[1]
        # Fig. 4 step (1): stop on a pure node (and on size/depth limits)
        if _stays_leaf(count_list, m, depth, min_samples, max_depth):
            continue
        if mdl_shortcuts and leaf_is_final(count_list, d):
            continue
        # Fig. 4 step (4): evaluate the splits on every attribute, keep the best
        best = search.best(S, counts)
        if best is None:
            continue
        top, a, i, lo, hi, left_counts, n_candidates = best
        # no gain: gini_split would not be below gini(S); Section 5.2 (the "buried XOR")
        # (the counts are whole numbers: the sum of their squares is exact in any order)
        if top <= sum(c * c for c in count_list) / m * (1 + 1e-12):
            continue
        right_counts = counts - left_counts
        if mdl_shortcuts and surely_pruned(
                count_list, left_counts.tolist(), right_counts.tolist(), n_candidates, d):
            continue
        # Fig. 4 step (5): partition S into S1 and S2 with the best split
        SL, SR = _partition(S, a, i, is_left)
        del S                                         # the parent's lists go before the children's search
        lnode = builder.add(left_counts, depth + 1)
        rnode = builder.add(right_counts, depth + 1)  # children get larger ids than parents
        builder.split_at(node, a, _midpoint(lo, hi), n_candidates, lnode, rnode)
        # Fig. 4: then Partition(S1) and Partition(S2)
        stack.append((rnode, SR, depth + 1))
        stack.append((lnode, SL, depth + 1))
    return builder.finish_pruned(pruning)


def _stays_leaf(count_list, m: int, depth: int, min_samples: int, max_depth) -> bool:
    """Fig. 4 step (1): a pure node is a leaf; so is a node of fewer than ``min_samples``
    records or at ``max_depth``."""
    pure = sum(c > 0 for c in count_list) <= 1
    return m < min_samples or pure or (max_depth is not None and depth >= max_depth)


class _SplitSearch:
    """Fig. 4's split evaluation, for every attribute of a node at once.

    A node is given by its attribute lists ``S`` (row a: the node's records in order of
    attribute a). What stays the same from node to node is kept here: X's values as one flat
    array in X's own layout (a DataFrame's values are column-major: no copy of the data), the
    classes, and the arrays :func:`_gini_scores` reuses.
    """

    def __init__(self, X: np.ndarray, y: np.ndarray, k: int, idx_dtype):
        n, d = X.shape
        if X.flags.f_contiguous:
            self.flat_values, self.row_step, col_step = X.T.ravel(), 1, n
        else:
            self.flat_values, self.row_step, col_step = np.ascontiguousarray(X).ravel(), d, 1
        self.columns = (np.arange(d, dtype=idx_dtype) * col_step)[:, None]   # S * row_step + columns
        self.y_small = y.astype(np.int8) if k <= 127 else y
        self.k = k
        self.onehot = np.eye(k, dtype=np.int64)
        self.count_dtype = np.int32 if n < 2**31 else np.int64
        # records left of each candidate of a node of m records: the first m - 1 of these (a view
        # per node instead of a new arange; nothing writes into it)
        self.n_left_all = np.arange(1, max(n, 2), dtype=float)

    def sorted_block(self, S: np.ndarray, a0: int, a1: int):
        """Values and classes of attributes a0 .. a1 - 1 of a node, each row in its sorted order."""
        Sb = S[a0:a1]
        if self.row_step != 1:
            flat_index = Sb * self.row_step
            flat_index += self.columns[a0:a1]
        else:
            flat_index = np.add(Sb, self.columns[a0:a1])
        Xs = self.flat_values.take(flat_index)
        del flat_index
        return Xs, self.y_small.take(Sb)

    def best(self, S: np.ndarray, counts: np.ndarray):
        """The best boundary of the node with attribute lists ``S`` and class counts ``counts``:
        (score, attribute, position, value left of it, value right of it, left class counts,
        number of candidates), or None if all of its values are equal on every attribute."""
        d, m = S.shape
        n_left = self.n_left_all[: m - 1]             # records left of each candidate
        n_right = m - n_left
        block = max(1, _BLOCK // m)
        best = None                                   # (score, attribute, position, ...)
        for a0 in range(0, d, block):
            Xs, ys = self.sorted_block(S, a0, a0 + block)
            # a threshold between distinct values only: the rows are sorted, so a candidate
            # between equal values is the one to skip
            tied = Xs[:, 1:] == Xs[:, :-1]
            score = _gini_scores(ys, counts, self.k, n_left, n_right, self.onehot, self.count_dtype)
            np.copyto(score, -np.inf, where=tied)
            r, i = divmod(int(score.argmax()), m - 1)
            top = score[r, i]
            if top == -np.inf:                        # no candidate in this block (scores >= 0)
                continue
            if best is None or top > best[0]:
                best = (top, a0 + r, i, Xs[r, i], Xs[r, i + 1],
                        np.bincount(ys[r, : i + 1], minlength=self.k), m - 1 - int(np.count_nonzero(tied[r])))
            del Xs, ys, tied, score
        return best


def _midpoint(lo, hi):
    """The threshold between two consecutive distinct values: their mid-point (Section 4.1), or
    ``lo`` when they are adjacent floats and the mid-point rounds to ``hi``."""
    thr = 0.5 * (lo + hi)
    if not lo <= thr < hi:
        thr = lo
    return thr


def _partition(S: np.ndarray, a: int, i: int, is_left: np.ndarray):
    """Fig. 4's partition of S: the attribute lists (S1, S2) of the records up to and after position
    ``i`` of attribute ``a``'s order; a stable filter keeps each row sorted. ``is_left`` is
    scratch space, one flag per record of the whole data."""
    d, m = S.shape
    is_left[S[a, : i + 1]] = True
    is_left[S[a, i + 1:]] = False
    mask = is_left.take(S).ravel()
    flat_S = S.ravel()
    SL = flat_S.compress(mask).reshape(d, i + 1)     # stable: each row stays sorted
    SR = flat_S.compress(np.logical_not(mask, out=mask)).reshape(d, m - i - 1)
    return SL, SR


def _gini_scores(ys, counts, k, n_left, n_right, onehot, count_dtype):
    """sum_j cL_j^2 / nL + sum_j cR_j^2 / nR at every candidate of every row of ``ys``.

    Minimizing gini_split (Section 4.1) is maximizing this score.
    """
    if k == 2:
        c1 = np.cumsum(ys[:, :-1], axis=1, dtype=count_dtype).astype(float)
        r1 = counts[1] - c1
        r0 = n_right - r1
        c0 = n_left - c1
        # (c0 * c0 + c1 * c1) / n_left + (r0 * r0 + r1 * r1) / n_right, in that order
        score = np.multiply(c0, c0, out=c0)
        score += np.multiply(c1, c1, out=c1)
        score /= n_left
        r0 *= r0
        r0 += np.multiply(r1, r1, out=r1)
        r0 /= n_right
        score += r0
        return score
    cum = np.cumsum(onehot[ys[:, :-1]], axis=1).astype(float)   # (rows, m-1, k)
    rest = counts - cum
    return (cum ** 2).sum(-1) / n_left + (rest ** 2).sum(-1) / n_right
