"""C4.5 and PPDTC4.5 (Liu, Kantarcioglu & Thuraisingham, Sections 4 and 6).

:class:`C45` is C4.5 for numeric attributes, built the way WEKA's J48 does it with its defaults
(so that the paper's "Original" number, measured with WEKA, is comparable):

- binary splits ``x <= t`` (Section 4.2); at each node and for each attribute the cut with the
  largest information gain (Eq. 3-5) is taken among cuts leaving at least
  ``min_split = clip(0.1 * n / n_classes, min_instances, 25)`` records on each side; its gain is
  reduced by the MDL penalty ``log2(n_cuts) / n`` (J48's ``useMDLcorrection``); the attribute with
  the largest gain ratio (Eq. 6-7) is chosen among those whose corrected gain is at least the
  average (J48's ``C45ModelSelection``);
- stopping rules of Section 4.3: a node is a leaf when it is pure, holds fewer than
  ``2 * min_instances`` records, or no cut has positive corrected gain;
- pessimistic-error pruning with confidence 0.25 (J48's ``addErrs``): first "collapse" subtrees
  that do not lower the training error, then replace a subtree by a leaf when the leaf's upper
  confidence bound on the error is not larger than the subtree's + 0.1. J48's *subtree raising*
  is not implemented (this is J48 with ``-S``).

:class:`PPDTC45` builds the same kind of tree from perturbed values ``w = x + r`` whose noise
distribution is public (Section 6). For a split point ``t`` the probability that a perturbed
record belongs to the left set is

    p_S1(w | t) = P(x <= t) = P(w - R <= t) = P(R >= w - t)       (Section 6)

computed from the noise CDF. Two ways to choose the split (``split``):

- ``"threshold"`` (Eq. 10-12): a record counts for S1 when ``p_S1(w|t) > threshold``. Because
  ``p_S1`` decreases in ``w``, that set is ``{w < t + c}`` with ``c = F_R^-1(1 - threshold)``: the
  threshold method searches exactly C4.5's partitions of the sorted ``w`` values and reports the
  split point *shifted by the noise quantile*, ``t = (cut on w) - c``. With symmetric noise and
  threshold 0.5, ``c = 0`` and the tree is C4.5 on the perturbed values.
  (We read Eq. 10 with S1, S2 given by the partition of Eq. 12, so that the counts add up to |S|.)
- ``"weight"`` (Eq. 13-22): every record counts for S1 with weight ``p_S1(w|t)`` and for S2 with
  ``1 - p_S1``; gain, split info and gain ratio use these weighted class counts. Candidate split
  points are the midpoints of the node's sorted distinct ``w`` (at most ``max_candidates`` of them,
  evenly spaced in rank). At nodes with more than 4,096 records the records are grouped in 2,048
  equal-width bins of ``w`` (each at its bin's mean) before the weights are summed, for speed.

and two ways to send the training records down (``partition``): ``"threshold"`` (Eq. 12,
Algorithm 1) or ``"random"`` (Eq. 23, Algorithm 3: left with probability ``p_S1``).
:meth:`PPDTC45.predict` classifies *original* records (Algorithm 2: ``x <= t``);
:meth:`PPDTC45.predict_perturbed` classifies *perturbed* records by random path (Algorithm 4).

Examples
--------
>>> import numpy as np
>>> from ppdm_edu.trees import C45
>>> X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]])
>>> y = np.array([0, 0, 0, 1, 1, 1])
>>> tree = C45().fit(X, y)
>>> tree.predict([[2.5], [5.5]]).tolist()
[0, 1]
"""
from __future__ import annotations

import math
import numbers

import numpy as np
from scipy import special
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from ..random_state import check_random_state
from ..randomization import Noise, check_noise_mapping
from ..validation import check_class_counts, check_fit_data, check_predict_data, check_probability, check_real
from ..validation import feature_names as fitted_feature_names

__all__ = ["C45", "PPDTC45", "entropy", "gain_ratio", "add_errors"]


# ---------------------------------------------------------------------------------------------
# the formulas of Section 4.1 (also used by the tests on hand-computed examples)
def _xlog2x(c):
    """c * log2(c) with 0 log 0 = 0 (elementwise)."""
    c = np.asarray(c, dtype=float)
    out = np.zeros_like(c)
    pos = c > 0
    out[pos] = c[pos] * np.log2(c[pos])
    return out


def entropy(counts) -> float:
    """Info(S) of Eq. 3: the class entropy in bits of (possibly weighted) class counts.

    Parameters
    ----------
    counts : array-like of float, shape (k,)
        Class counts or weights: finite, >= 0, with a positive sum.

    Returns
    -------
    float
        ``-sum_j p_j log2 p_j`` with ``p_j = counts[j] / sum(counts)``, in [0, log2 k].

    Raises
    ------
    ValueError
        If ``counts`` is not a non-empty 1-d array of finite non-negative numbers with a
        positive sum.

    Examples
    --------
    >>> round(entropy([9, 5]), 4)
    0.9403
    """
    counts = check_class_counts(counts, "counts", one_dimensional=True, positive_sum=True)
    n = counts.sum()
    return float((_xlog2x(n) - _xlog2x(counts).sum()) / n)


def gain_ratio(left_counts, right_counts) -> tuple[float, float]:
    """(gain, gain ratio) of a binary split, Eq. 4-7 (no MDL penalty), from class counts.

    Parameters
    ----------
    left_counts : array-like of float, shape (k,)
        Class counts (or weights) of the records that go left.
    right_counts : array-like of float, shape (k,)
        Class counts (or weights) of the records that go right.

    Returns
    -------
    gain : float
        Information gain ``Info(S) - Info_test(S)`` (Eq. 5), in bits.
    gain_ratio : float
        ``gain / SplitInfo`` (Eq. 6-7); 0 when one side is empty (SplitInfo = 0).

    Raises
    ------
    ValueError
        If the two arrays have different shapes, or a count is negative or not finite, or
        there are no records at all.

    Examples
    --------
    >>> g, r = gain_ratio([2, 0], [1, 3])
    >>> round(g, 4), round(r, 4)
    (0.4591, 0.5)
    """
    left = check_class_counts(left_counts, "left_counts", one_dimensional=True)
    right = check_class_counts(right_counts, "right_counts", one_dimensional=True)
    if left.shape != right.shape:
        raise ValueError("left_counts and right_counts must have one count per class, got shapes "
                         f"{left.shape} and {right.shape}")
    if left.sum() + right.sum() <= 0:
        raise ValueError("left_counts and right_counts hold no records (both sum to 0)")
    total = left + right
    n, n_left, n_right = total.sum(), left.sum(), right.sum()
    info_test = (n_left * entropy(left) if n_left > 0 else 0.0) + (
        n_right * entropy(right) if n_right > 0 else 0.0)
    gain = entropy(total) - info_test / n  # Eq. 5
    p = np.array([n_left, n_right]) / n
    split_info = -float(_xlog2x(p).sum())  # Eq. 6
    return float(gain), (float(gain / split_info) if split_info > 0 else 0.0)  # Eq. 7


def add_errors(n: float, e: float, confidence: float = 0.25) -> float:
    """Extra errors of a leaf with ``n`` records and ``e`` training errors at this confidence.

    The upper confidence limit of the binomial error rate minus the observed one (C4.5's
    pessimistic estimate; a transcription of WEKA's ``Stats.addErrs``).

    Parameters
    ----------
    n : float
        Number (or total weight) of records in the leaf; finite, >= 0. ``n = 0`` gives 0.
    e : float
        Training errors (or their weight) in the leaf; finite, ``0 <= e <= n``.
    confidence : float, default 0.25
        J48's confidence factor, in (0, 0.5] (smaller is more pessimistic).

    Returns
    -------
    float
        The extra errors to add to ``e`` for the pessimistic error estimate (>= 0).

    Raises
    ------
    ValueError
        If ``confidence`` is not in (0, 0.5], ``n`` is negative or not finite, or ``e`` is not
        between 0 and ``n``.

    Examples
    --------
    >>> round(add_errors(6, 0), 4)
    1.2378
    """
    if not isinstance(confidence, float):
        confidence = check_real(confidence, "confidence")
    if confidence > 0.5:
        raise ValueError(f"confidence must be at most 0.5, got {confidence}")
    if not confidence > 0.0:  # (NaN fails too)
        raise ValueError(f"confidence must be in (0, 0.5], got {confidence}")
    n = check_real(n, "n")
    e = check_real(e, "e")
    if n < 0:
        raise ValueError(f"n must be a record count >= 0, got {n}")
    if not 0 <= e <= n * (1 + 1e-9) + 1e-9:
        raise ValueError(f"e must be an error count between 0 and n = {n}, got {e}")
    if n <= 0:
        return 0.0
    if e < 1:
        base = n * (1.0 - confidence ** (1.0 / n))
        if e == 0:
            return base
        return base + e * (add_errors(n, 1.0, confidence) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    z = float(special.ndtri(1.0 - confidence))
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n)
    return r * n - e


# ---------------------------------------------------------------------------------------------
def _p_left(noise: Noise, w, t):
    """p_S1(w | t) = P(R >= w - t) (Section 6); for continuous noise P(R >= x) = sf(x)."""
    return noise.sf(np.asarray(w, dtype=float) - t)


class _Tree:
    """Flat arrays of a binary tree; node 0 is the root, ``feature == -1`` marks a leaf."""

    def __init__(self, n_classes):
        self.feature, self.threshold, self.left, self.right = [], [], [], []
        self.counts, self.label = [], []
        self.n_classes = n_classes

    def add(self, counts, label) -> int:
        self.feature.append(-1)
        self.threshold.append(np.nan)
        self.left.append(-1)
        self.right.append(-1)
        self.counts.append(np.asarray(counts, dtype=float))
        self.label.append(int(label))
        return len(self.feature) - 1

    def freeze(self):
        self.feature = np.asarray(self.feature, dtype=int)
        self.threshold = np.asarray(self.threshold, dtype=float)
        self.left = np.asarray(self.left, dtype=int)
        self.right = np.asarray(self.right, dtype=int)
        self.counts = np.asarray(self.counts, dtype=float).reshape(-1, self.n_classes)
        self.label = np.asarray(self.label, dtype=int)


class _BaseC45(ClassifierMixin, BaseEstimator):
    """Shared tree growing, pruning, prediction and printing."""

    def _check_common(self):
        if isinstance(self.min_instances, bool) or not isinstance(self.min_instances, numbers.Integral) \
                or self.min_instances < 1:
            raise ValueError(f"min_instances must be an integer >= 1, got {self.min_instances!r}")
        conf = check_probability(self.confidence, "confidence", open_interval=True)
        if conf > 0.5:
            raise ValueError(f"confidence must be in (0, 0.5] (J48 default 0.25), got {conf}")
        if self.max_depth is not None and (not isinstance(self.max_depth, numbers.Integral)
                                           or self.max_depth < 0):
            raise ValueError(f"max_depth must be None or an integer >= 0, got {self.max_depth!r}")

    def _prepare(self, X, y, name="X"):
        X, self.classes_, y_index = check_fit_data(self, X, y, input_name=name)
        return X, y_index

    def _check_X(self, X, name="X"):
        return check_predict_data(self, X, input_name=name)

    # -- growing --------------------------------------------------------------------------
    def _grow(self, V, y, rng):
        """Grow the full tree on the split-search values V (x for C4.5, w for PPDTC4.5)."""
        n, d = V.shape
        k = self.classes_.size
        Y = np.zeros((n, k))
        Y[np.arange(n), y] = 1.0
        tree = _Tree(k)
        counts = Y.sum(0)
        root = tree.add(counts, int(np.argmax(counts)))
        stack = [(root, np.arange(n), 0)]
        while stack:
            node, idx, depth = stack.pop()
            counts = tree.counts[node]
            m = idx.size
            if (m < 2 * self.min_instances or counts.max() == m
                    or (self.max_depth is not None and depth >= self.max_depth)):
                continue  # Section 4.3 stopping rules
            best = self._best_split(V[idx], Y[idx], counts)
            if best is None:
                continue
            a, t = best
            go_left = self._partition(V[idx, a], a, t, rng)
            li, ri = idx[go_left], idx[~go_left]
            tree.feature[node], tree.threshold[node] = a, t
            parent_label = tree.label[node]
            for side, sub in (("left", li), ("right", ri)):
                c = Y[sub].sum(0)
                label = int(np.argmax(c)) if sub.size else parent_label
                child = tree.add(c, label)
                getattr(tree, side)[node] = child
                stack.append((child, sub, depth + 1))
        tree.freeze()
        return tree

    def _min_split(self, n):
        k = self.classes_.size
        return float(min(max(0.1 * n / k, self.min_instances), 25.0))

    def _sorted_cuts(self, V, Y, counts):
        """C4.5's cut search, all attributes at once from sorted cumulative class counts.

        Returns (corrected gain, gain ratio, cut value in V) per attribute; gain -inf if none.
        """
        n, d = V.shape
        order = np.argsort(V, axis=0, kind="stable")
        Vs = np.take_along_axis(V, order, axis=0)
        left = np.cumsum(Y[order], axis=0)[:-1]  # (n-1, d, k): class counts of {first i+1}
        right = counts - left
        n_left = np.arange(1, n, dtype=float)[:, None]
        n_right = n - n_left
        min_split = self._min_split(n)
        valid = (Vs[1:] > Vs[:-1]) & (n_left >= min_split) & (n_right >= min_split)
        # n * Info_Test(S) (Eq. 4) and n * Info(S) (Eq. 3) in "sum of c log c" form
        children = (_xlog2x(n_left) - _xlog2x(left).sum(-1)) + (_xlog2x(n_right) - _xlog2x(right).sum(-1))
        parent = _xlog2x(float(n)) - _xlog2x(counts).sum()
        gain = np.where(valid, (parent - children) / n, -np.inf)  # Eq. 5
        pos = np.argmax(gain, axis=0)
        cols = np.arange(d)
        n_cuts = valid.sum(0)
        best_gain = gain[pos, cols] - np.log2(np.maximum(n_cuts, 1)) / n  # J48 MDL correction
        best_gain[n_cuts == 0] = -np.inf
        p = n_left[pos, 0] / n
        split_info = -(_xlog2x(p) + _xlog2x(1.0 - p))  # Eq. 6
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(split_info > 0, best_gain / split_info, 0.0)  # Eq. 7
        cut = 0.5 * (Vs[pos, cols] + Vs[np.minimum(pos + 1, n - 1), cols])
        return best_gain, ratio, cut

    @staticmethod
    def _choose(best_gain, ratio):
        """J48's attribute choice: best gain ratio among attributes with gain >= average gain."""
        ok = np.isfinite(best_gain) & (best_gain > 0)
        if not ok.any():
            return None
        average = best_gain[ok].mean()
        eligible = ok & (best_gain >= average - 1e-3) & (ratio >= 0)
        if not eligible.any():
            return None
        return int(np.argmax(np.where(eligible, ratio, -np.inf)))

    # -- pruning (J48: collapse, then pessimistic subtree replacement) --------------------
    def _prune(self, tree):
        n_nodes = tree.feature.size
        errors_as_leaf = tree.counts.sum(1) - tree.counts.max(1)
        # collapse: bottom-up (children have larger ids than parents)
        train_err = errors_as_leaf.copy()
        for node in range(n_nodes - 1, -1, -1):
            if tree.feature[node] >= 0:
                sub = train_err[tree.left[node]] + train_err[tree.right[node]]
                if sub >= errors_as_leaf[node] - 1e-3:
                    tree.feature[node] = -1
                else:
                    train_err[node] = sub
        if not self.pruning:
            return
        n_rec = tree.counts.sum(1)
        leaf_est = np.array([e + add_errors(nr, e, self.confidence) if nr > 0 else 0.0
                             for nr, e in zip(n_rec, errors_as_leaf)])
        est = leaf_est.copy()
        for node in range(n_nodes - 1, -1, -1):
            if tree.feature[node] >= 0:
                subtree = est[tree.left[node]] + est[tree.right[node]]
                if leaf_est[node] <= subtree + 0.1:
                    tree.feature[node] = -1
                else:
                    est[node] = subtree

    @staticmethod
    def _compact(tree):
        """Drop nodes below new leaves; renumber breadth-first."""
        keep, queue = [], [0]
        while queue:
            node = queue.pop(0)
            keep.append(node)
            if tree.feature[node] >= 0:
                queue += [tree.left[node], tree.right[node]]
        keep = np.asarray(keep)
        new_id = -np.ones(tree.feature.size, dtype=int)
        new_id[keep] = np.arange(keep.size)
        tree.feature = tree.feature[keep]
        tree.threshold = np.where(tree.feature >= 0, tree.threshold[keep], np.nan)
        internal = tree.feature >= 0
        tree.left = np.where(internal, new_id[tree.left[keep]], -1)
        tree.right = np.where(internal, new_id[tree.right[keep]], -1)
        tree.counts = tree.counts[keep]
        tree.label = tree.label[keep]
        return tree

    def _finish(self, tree):
        self._prune(tree)
        self.tree_ = self._compact(tree)
        return self

    # -- using the tree -------------------------------------------------------------------
    def _leaves(self, X, go_left_fn):
        t = self.tree_
        node = np.zeros(X.shape[0], dtype=int)
        while True:
            active = np.flatnonzero(t.feature[node] >= 0)
            if active.size == 0:
                return node
            nd = node[active]
            left = go_left_fn(active, t.feature[nd], t.threshold[nd])
            node[active] = np.where(left, t.left[nd], t.right[nd])

    def apply(self, X):
        """Leaf index of each record, by Algorithm 2 (``x <= t`` goes left).

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Original (unperturbed) records, same columns as in ``fit``.

        Returns
        -------
        ndarray of int, shape (n_samples,)
            Node index (in ``tree_``) of each record's leaf.
        """
        X = self._check_X(X)
        return self._leaves(X, lambda rows, f, thr: X[rows, f] <= thr)

    def predict(self, X):
        """Class of each (original) record: Algorithm 2.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Original (unperturbed) records, same columns as in ``fit``.

        Returns
        -------
        ndarray, shape (n_samples,)
            The label of each record's leaf (an element of ``classes_``).
        """
        leaf = self.apply(X)
        return self.classes_[self.tree_.label[leaf]]

    def predict_proba(self, X):
        """Class frequencies of the training records in the leaf each record reaches.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Original (unperturbed) records, same columns as in ``fit``.

        Returns
        -------
        ndarray, shape (n_samples, n_classes)
            Class shares (weighted for PPDTC4.5) of the leaf, columns in the order of
            ``classes_``; a leaf without training records gets probability 1 for its label.
        """
        leaf = self.apply(X)
        counts = self.tree_.counts[leaf]
        total = counts.sum(1, keepdims=True)
        parent = np.eye(self.classes_.size)[self.tree_.label[leaf]]
        return np.where(total > 0, counts / np.maximum(total, 1e-300), parent)

    @property
    def n_leaves_(self) -> int:
        """Number of leaves of the fitted (pruned) tree."""
        check_is_fitted(self)
        return int((self.tree_.feature < 0).sum())

    @property
    def depth_(self) -> int:
        """Depth of the fitted (pruned) tree (0 for a single leaf)."""
        check_is_fitted(self)
        t = self.tree_
        depth = np.zeros(t.feature.size, dtype=int)
        for node in range(t.feature.size):  # breadth-first ids: parents first
            if t.feature[node] >= 0:
                depth[t.left[node]] = depth[t.right[node]] = depth[node] + 1
        return int(depth.max())

    def export_text(self, max_depth: int = 10, feature_names=None) -> str:
        """The tree in J48's text form (``attribute <= t: class (n/errors)``).

        Parameters
        ----------
        max_depth : int, default 10
            Tests deeper than this are replaced by ``...``.
        feature_names : sequence of str, optional
            Names of the columns, one per feature (default: the DataFrame's, else x0, x1, ...).

        Returns
        -------
        str
            One line per test, indented by depth; a test whose child is a leaf ends with
            ``: label (records/errors)``. A tree that is a single leaf gives one line.

        Raises
        ------
        ValueError
            If ``feature_names`` does not have one name per column.
        """
        check_is_fitted(self)
        t = self.tree_
        names = list(feature_names) if feature_names is not None else (
            fitted_feature_names(self) or [f"x{j}" for j in range(self.n_features_in_)])
        if len(names) != self.n_features_in_:
            raise ValueError(f"feature_names has {len(names)} names for {self.n_features_in_} columns")
        lines = []

        def leaf_text(node):
            c = t.counts[node]
            return f"{self.classes_[t.label[node]]} ({c.sum():.0f}/{c.sum() - c.max():.0f})"

        def walk(node, depth):
            if depth > max_depth:
                lines.append("|   " * depth + "...")
                return
            a, thr = t.feature[node], t.threshold[node]
            for op, child in (("<=", t.left[node]), (">", t.right[node])):
                head = "|   " * depth + f"{names[a]} {op} {thr:.4g}"
                if t.feature[child] < 0:
                    lines.append(f"{head}: {leaf_text(child)}")
                else:
                    lines.append(head)
                    walk(child, depth + 1)

        if t.feature[0] < 0:
            return f": {leaf_text(0)}"
        walk(0, 0)
        return "\n".join(lines)


class C45(_BaseC45):
    """C4.5 decision tree for numeric attributes, J48-like (Section 4).

    Parameters
    ----------
    min_instances : int, default 2
        J48's ``minNumObj``: every cut leaves at least this many records (more at big nodes,
        see the module docstring) on each side; nodes with fewer than twice this are leaves.
    pruning : bool, default True
        Pessimistic-error pruning (subtree replacement) at ``confidence``.
    confidence : float, default 0.25
        J48's confidence factor (smaller prunes more), in (0, 0.5].
    max_depth : int or None
        Optional cap on the depth (None: grow until the stopping rules hold).

    Attributes
    ----------
    classes_ : ndarray, shape (n_classes,)
        The class labels, sorted.
    n_features_in_ : int
        Number of columns seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names, when fitted on a DataFrame with string column names.
    tree_ : object
        The fitted tree as flat arrays ``feature`` (-1 at leaves), ``threshold``, ``left``,
        ``right``, ``counts`` (class counts per node) and ``label`` (class index per node).
    n_leaves_ : int
        Number of leaves.
    depth_ : int
        Depth of the tree.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2)); y = (X[:, 0] > 0.3).astype(int)
    >>> C45().fit(X, y).score(X, y)
    1.0
    """

    def __init__(self, min_instances=2, pruning=True, confidence=0.25, max_depth=None):
        self.min_instances = min_instances
        self.pruning = pruning
        self.confidence = confidence
        self.max_depth = max_depth

    def fit(self, X, y):
        """Grow and prune the tree on original (or any) numeric data.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Training records, numeric and finite.
        y : array-like, shape (n_samples,)
            Class labels.

        Returns
        -------
        C45
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            If a parameter is out of range or ``X``/``y`` are invalid.
        """
        self._check_common()
        X, y = self._prepare(X, y)
        return self._finish(self._grow(X, y, None))

    def _best_split(self, V, Y, counts):
        best_gain, ratio, cut = self._sorted_cuts(V, Y, counts)
        a = self._choose(best_gain, ratio)
        return None if a is None else (a, float(cut[a]))

    def _partition(self, v, a, t, rng):
        return v <= t  # Eq. 9


class PPDTC45(_BaseC45):
    """Privacy-preserving C4.5 built from perturbed training data (Section 6).

    Parameters
    ----------
    noise : Noise or dict
        The public noise distribution: one :class:`~ppdm_edu.UniformNoise` /
        :class:`~ppdm_edu.GaussianNoise` for every attribute, or a dict giving one per attribute
        (keys: column index for arrays, column name for DataFrames; every column needs one).
    split : {"threshold", "weight"}
        Threshold counting (Eq. 10-12) or probability-as-weight gain ratio (Eq. 13-22).
    partition : {"threshold", "random"}
        Send training records left when ``p_S1 > threshold`` (Eq. 12, Algorithm 1) or with
        probability ``p_S1`` (Eq. 23, Algorithm 3).
    threshold : float in (0, 1), default 0.5
        The threshold of Eq. 10 and 12 (the paper: 0.3 for Gaussian, 0.5 for uniform noise).
    min_instances : int, default 2
        As in :class:`C45` (weights are used where the counts are weighted).
    pruning : bool, default True
        As in :class:`C45`.
    confidence : float, default 0.25
        As in :class:`C45`, in (0, 0.5].
    max_depth : int or None, default None
        As in :class:`C45`.
    max_candidates : int, default 64
        Split points tried per attribute and node by the ``"weight"`` criterion.
    random_state : None, int or Generator
        Randomness of the random-path partition.

    Attributes
    ----------
    classes_ : ndarray, shape (n_classes,)
        The class labels, sorted.
    n_features_in_ : int
        Number of columns seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names, when fitted on a DataFrame with string column names.
    noises_ : list of Noise
        The noise of each column, in column order.
    shift_ : ndarray, shape (n_features,)
        ``c = F_R^-1(1 - threshold)`` per column: the threshold partition ``p_S1 > threshold``
        is ``w < t + c``.
    tree_ : object
        The fitted tree as flat arrays (see :class:`C45`); thresholds are on the original
        scale.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import GaussianNoise, perturb
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(400, 1)); y = (X[:, 0] > 0).astype(int)
    >>> W = perturb(X, GaussianNoise(0.3), rng=1)
    >>> tree = PPDTC45(GaussianNoise(0.3)).fit(W, y)
    >>> tree.score(X, y) > 0.9
    True
    """

    SPLITS = ("threshold", "weight")
    _N_BINS = 2048
    PARTITIONS = ("threshold", "random")

    def __init__(self, noise, split="threshold", partition="threshold", threshold=0.5,
                 min_instances=2, pruning=True, confidence=0.25, max_depth=None,
                 max_candidates=64, random_state=None):
        self.noise = noise
        self.split = split
        self.partition = partition
        self.threshold = threshold
        self.min_instances = min_instances
        self.pruning = pruning
        self.confidence = confidence
        self.max_depth = max_depth
        self.max_candidates = max_candidates
        self.random_state = random_state

    def _resolve_noise(self):
        d = self.n_features_in_
        by_column = check_noise_mapping(self.noise, d, fitted_feature_names(self))
        return [by_column[j] for j in range(d)]

    def fit(self, W, y):
        """Grow and prune the tree from perturbed training values ``W`` and their labels.

        Parameters
        ----------
        W : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Perturbed training records ``x + r``, numeric and finite.
        y : array-like, shape (n_samples,)
            Class labels (not perturbed).

        Returns
        -------
        PPDTC45
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            If a parameter is out of range, ``noise`` does not give one Noise per column, or
            ``W``/``y`` are invalid.
        """
        self._check_common()
        if self.split not in self.SPLITS:
            raise ValueError(f"split must be one of {self.SPLITS}, got {self.split!r}")
        if self.partition not in self.PARTITIONS:
            raise ValueError(f"partition must be one of {self.PARTITIONS}, got {self.partition!r}")
        self._theta = check_probability(self.threshold, "threshold", open_interval=True)
        if isinstance(self.max_candidates, bool) or not isinstance(self.max_candidates, numbers.Integral) \
                or self.max_candidates < 1:
            raise ValueError(f"max_candidates must be an integer >= 1, got {self.max_candidates!r}")
        W, y = self._prepare(W, y, "W")
        self.noises_ = self._resolve_noise()
        # w - t < c  <=>  p_S1(w|t) > threshold  (c = F_R^-1(1 - threshold))
        self.shift_ = np.array([nz.ppf(1.0 - self._theta) for nz in self.noises_])
        rng = check_random_state(self.random_state, "random_state")
        return self._finish(self._grow(W, y, rng))

    def _best_split(self, V, Y, counts):
        if self.split == "threshold":
            best_gain, ratio, cut = self._sorted_cuts(V, Y, counts)
            a = self._choose(best_gain, ratio)
            # Eq. 10-12: the threshold partition {p_S1 > threshold} is {w < t + c}
            return None if a is None else (a, float(cut[a] - self.shift_[a]))
        return self._weighted_cuts(V, Y, counts)

    def _weighted_cuts(self, V, Y, counts):
        """Eq. 13-22 for every attribute: weighted class counts sum_j I(c_j) p_S1(w_j | t)."""
        n, d = V.shape
        min_split = self._min_split(n)
        parent = _xlog2x(float(n)) - _xlog2x(counts).sum()
        best_gain = np.full(d, -np.inf)
        ratio = np.zeros(d)
        cut = np.zeros(d)
        for a in range(d):
            u = np.unique(V[:, a])
            if u.size < 2:
                continue
            t = 0.5 * (u[1:] + u[:-1])
            if t.size > self.max_candidates:
                t = t[np.unique(np.linspace(0, t.size - 1, self.max_candidates).round().astype(int))]
            w, Yw = V[:, a], Y
            if n > 2 * self._N_BINS:
                # speed-up at big nodes: records of one of 2048 equal-width bins of w share the
                # bin's mean w (|error in w| <= bin width = range / 2048, far below the noise scale)
                lo, hi = u[0], u[-1]
                b = np.minimum(((w - lo) / (hi - lo) * self._N_BINS).astype(int), self._N_BINS - 1)
                size = np.bincount(b, minlength=self._N_BINS)
                used = size > 0
                w = (np.bincount(b, weights=V[:, a], minlength=self._N_BINS)[used] / size[used])
                Yw = np.stack([np.bincount(b, weights=Y[:, c], minlength=self._N_BINS)[used]
                               for c in range(Y.shape[1])], axis=1)
            P = _p_left(self.noises_[a], w[:, None], t[None, :])  # (n, m): p_S1(w_j | t)
            left = np.einsum("nk,nm->km", Yw, P)  # Eq. 13, (k, m) (einsum: no BLAS threads)
            w_left = left.sum(0)  # Eq. 14
            w_right = n - w_left
            right = counts[:, None] - left
            valid = (w_left >= min_split) & (w_right >= min_split)
            if not valid.any():
                continue
            children = (_xlog2x(w_left) - _xlog2x(left).sum(0)) + (_xlog2x(w_right) - _xlog2x(np.maximum(right, 0)).sum(0))
            gain = np.where(valid, (parent - children) / n, -np.inf)  # Eq. 19, 21
            j = int(np.argmax(gain))
            g = gain[j] - math.log2(int(valid.sum())) / n  # J48 MDL correction
            p = w_left[j] / n
            si = -float(_xlog2x(p) + _xlog2x(1.0 - p))  # Eq. 20
            best_gain[a], ratio[a], cut[a] = g, (g / si if si > 0 else 0.0), t[j]  # Eq. 22
        a = self._choose(best_gain, ratio)
        return None if a is None else (a, float(cut[a]))

    def _partition(self, w, a, t, rng):
        p = _p_left(self.noises_[a], w, t)
        if self.partition == "threshold":
            return p > self._theta  # Eq. 12
        return rng.random(w.size) <= p  # Eq. 23

    def predict_perturbed(self, W, rng=None):
        """Classify perturbed records by random path (Algorithm 4): left with prob. p_S1(w|t).

        Parameters
        ----------
        W : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Perturbed records, same columns as in ``fit``.
        rng : None, int or numpy.random.Generator
            Randomness of the paths (same seed, same predictions).

        Returns
        -------
        ndarray, shape (n_samples,)
            The label of the leaf each record's random path ends in.
        """
        W = self._check_X(W, "W")
        rng = check_random_state(rng)
        noises = self.noises_

        def go_left(rows, f, thr):
            p = np.empty(rows.size)
            for a in np.unique(f):
                sel = f == a
                p[sel] = _p_left(noises[a], W[rows[sel], a], thr[sel])
            return rng.random(rows.size) <= p

        return self.classes_[self.tree_.label[self._leaves(W, go_left)]]

    def score_perturbed(self, W, y, rng=None):
        """Accuracy of :meth:`predict_perturbed` on perturbed test records.

        Parameters
        ----------
        W : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Perturbed test records.
        y : array-like, shape (n_samples,)
            Their true labels.
        rng : None, int or numpy.random.Generator
            Randomness of the paths.

        Returns
        -------
        float
            Share of the records whose random-path prediction equals ``y``.
        """
        pred = self.predict_perturbed(W, rng)
        y = np.asarray(y)
        if y.shape != pred.shape:
            raise ValueError(f"y must have one label per row of W ({pred.size}), got shape {y.shape}")
        return float(np.mean(pred == y))
