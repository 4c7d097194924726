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

import numpy as np
from scipy import special

from .._validation import check_class_counts, check_fit_data, check_real
from .._validation import feature_names as fitted_feature_names
from ..random_state import check_random_state
from ..randomization import Noise, check_noise_mapping
from ._params import Boolean, CheckedInFit, Integer, OneOf, Probability, RandomState, checked_params
from .base import TreeBuilder, TreeClassifier

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
def _stable_partition(rows, go_left) -> int:
    """Reorder every row of ``rows`` in place: entries with ``go_left`` first, order kept.

    ``rows`` is 1-d or 2-d (then every row has the same number of entries going left, as the
    attribute lists of one node do). Returns that number.
    """
    n_rows = 1 if rows.ndim == 1 else rows.shape[0]
    n_left = int(np.count_nonzero(go_left)) // n_rows
    left, right = rows[go_left], rows[~go_left]           # copies, row by row in order
    rows[..., :n_left] = left.reshape(rows.shape[:-1] + (n_left,))
    rows[..., n_left:] = right.reshape(rows.shape[:-1] + (-1,))
    return n_left


def _p_left(noise: Noise, w, t):
    """p_S1(w | t) = P(R >= w - t) (Section 6); for continuous noise P(R >= x) = sf(x)."""
    return noise.sf(np.asarray(w, dtype=float) - t)


class _BaseC45(TreeClassifier):
    """C4.5's growing and pruning (J48); prediction and printing come from the base."""

    _export_depth = 10  # J48 prints ten levels
    _export_j48 = True

    def _prepare(self, X, y, name="X"):
        self._p = checked_params(self)
        X, self.classes_, y_index = check_fit_data(self, X, y, input_name=name)
        return X, y_index

    # -- growing --------------------------------------------------------------------------
    # at most this many (attribute, record) cells per step of the cut search: small nodes
    # search all attributes in one step, big nodes one attribute at a time
    _BLOCK_CELLS = 1 << 16

    def _grow(self, V, y, rng) -> TreeBuilder:
        """Grow the full tree on the split-search values V (x for C4.5, w for PPDTC4.5).

        C4.5 sorts the values of every continuous attribute at every node (Quinlan 1993,
        Section 2.4). Here each attribute is sorted once, at the root, into an *attribute list*
        (SLIQ's idea): row ``a`` of ``lists`` holds the record numbers in increasing order of
        attribute ``a`` (ties by record number; their order never changes a tree, as cuts lie
        only between distinct values).
        A node owns the same slice ``lo:hi`` of every row, and of ``records`` (its record
        numbers in increasing order). Splitting a node reorders each of its slices in place,
        left records first: both halves stay sorted, so no node sorts again, and the lists take
        d * n integers for the whole tree.
        """
        n, d = V.shape
        k = self.classes_.size
        min_instances, max_depth = self._p["min_instances"], self._p["max_depth"]
        # c log2 c of every count 0..n, computed once: the cut search looks its counts up
        self._xlog_table = _xlog2x(np.arange(n + 1, dtype=float))
        self._is_class = np.arange(k)[:, None] == y      # (k, n): record j is of class c
        index = np.int32 if n < 2**31 else np.int64
        lists = np.empty((d, n), dtype=index)
        for a in range(d):
            lists[a] = np.argsort(V[:, a], kind="stable")
        records = np.arange(n, dtype=index)
        is_left = np.zeros(n, dtype=bool)
        tree = TreeBuilder(k)
        root = tree.add(np.bincount(y, minlength=k), 0)
        stack = [(root, 0, n, 0)]
        while stack:
            node, lo, hi, depth = stack.pop()
            counts = tree.counts[node]
            m = hi - lo
            if (m < 2 * min_instances or counts.max() == m
                    or (max_depth is not None and depth >= max_depth)):
                continue  # Section 4.3 stopping rules
            idx = records[lo:hi]
            best = self._best_split(V, y, idx, lists[:, lo:hi], counts)
            if best is None:
                continue
            a, t = best
            go_left = self._partition(V[idx, a], a, t, rng)
            is_left[idx] = go_left
            mid = lo + _stable_partition(records[lo:hi], go_left)
            for rows in self._attribute_blocks(d, m):
                _stable_partition(lists[rows, lo:hi], is_left[lists[rows, lo:hi]])
            parent_label = tree.label[node]
            # an empty child predicts its parent's majority class
            children = [tree.add(np.bincount(y[sub], minlength=k), depth + 1, None if sub.size else parent_label)
                        for sub in (records[lo:mid], records[mid:hi])]
            tree.split(node, a, t, *children)
            stack += [(children[0], lo, mid, depth + 1), (children[1], mid, hi, depth + 1)]
        del self._xlog_table, self._is_class
        return tree

    def _attribute_blocks(self, d, m):
        """Slices of attributes with at most ``_BLOCK_CELLS`` (attribute, record) cells each."""
        step = max(1, self._BLOCK_CELLS // max(m, 1))
        return [slice(a, min(a + step, d)) for a in range(0, d, step)]

    def _min_split(self, n):
        k = self.classes_.size
        return float(min(max(0.1 * n / k, self._p["min_instances"]), 25.0))

    def _best_cuts(self, V, S, counts):
        """The best cut of every attribute at a node: (corrected gain, gain ratio, cut value).

        ``S`` holds the node's attribute lists (shape (d, n)); the attributes are searched in
        blocks of at most ``_BLOCK_CELLS`` cells.
        """
        d, n = S.shape
        parts = [self._sorted_cuts(V, S[rows], np.arange(d)[rows], counts)
                 for rows in self._attribute_blocks(d, n)]
        best_gain, ratio, cut = (np.concatenate(p) for p in zip(*parts))
        return best_gain, ratio, cut

    def _sorted_cuts(self, V, S, attributes, counts):
        """C4.5's cut search for some attributes, from sorted cumulative class counts.

        For a continuous attribute C4.5 sorts the node's records by its value ``v_1 <= ... <=
        v_n`` and tries every cut between two distinct neighbours (Quinlan 1993, Section 2.4;
        Liu et al. Section 4.2): the records left of cut ``i`` are the first ``i + 1`` of the
        sorted list, so the class counts on the left are cumulative sums along it and one pass
        scores all cuts. The cut value is the midpoint of the two neighbours (J48).

        ``V`` holds the values (one column per attribute), ``S`` the node's records sorted by
        each of the given ``attributes`` (shape (b, n)). The counts are integers, so every
        c log2 c is looked up in the table made in :meth:`_grow`. Returns (corrected gain, gain
        ratio, cut value) per attribute; gain -inf if no cut is allowed.
        """
        b, n = S.shape
        Vs = V[S, attributes[:, None]]                  # (b, n): values in sorted order
        xlog = self._xlog_table
        # cut i leaves n_left = i + 1 records on the left, n - n_left on the right; it is a cut
        # between distinct values, with at least min_split records on each side (J48)
        valid = Vs[:, 1:] > Vs[:, :-1]
        least = math.ceil(self._min_split(n))           # n_left >= min_split <=> n_left >= least
        valid[:, :least - 1] = False
        valid[:, max(n - least, 0):] = False
        # n * Info_Test(S) (Eq. 4) and n * Info(S) (Eq. 3) in "sum of c log c" form; the class
        # terms are added in class order (as a sum over the class axis adds them)
        k = counts.size
        n_left = np.arange(1, n, dtype=np.int32)
        # class c among the first i+1 records (class 0: the rest of them)
        lefts = [np.cumsum(self._is_class[c].take(S[:, :-1]), axis=1, dtype=np.int32) for c in range(1, k)]
        rest = np.broadcast_to(n_left, (b, n - 1))
        for left in lefts:
            rest = rest - left
        lefts.insert(0, rest)
        children = self._sum_xlog(lefts)                       # sum_c c_left log c_left
        np.subtract(xlog[1:n], children, out=children)         # xlog[n_left]
        right = self._sum_xlog([int(counts[c]) - left for c, left in enumerate(lefts)])
        children += np.subtract(xlog[n - 1:0:-1], right, out=right)  # xlog[n - n_left]
        del lefts, right
        parent = _xlog2x(float(n)) - _xlog2x(counts).sum()
        gain = np.subtract(parent, children, out=children)
        gain /= n                                                  # Eq. 5
        np.copyto(gain, -np.inf, where=~valid)
        pos = np.argmax(gain, axis=1)
        cols = np.arange(b)
        n_cuts = valid.sum(1)
        best_gain = gain[cols, pos] - np.log2(np.maximum(n_cuts, 1)) / n  # J48 MDL correction
        best_gain[n_cuts == 0] = -np.inf
        p = (pos + 1) / n                                          # n_left / n at the best cut
        split_info = -(_xlog2x(p) + _xlog2x(1.0 - p))  # Eq. 6
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(split_info > 0, best_gain / split_info, 0.0)  # Eq. 7
        cut = 0.5 * (Vs[cols, pos] + Vs[cols, np.minimum(pos + 1, n - 1)])
        return best_gain, ratio, cut

    def _sum_xlog(self, class_counts):
        """sum_c c log2 c over the classes, added in class order, from the lookup table."""
        total = self._xlog_table.take(class_counts[0])
        for c in class_counts[1:]:
            total += self._xlog_table.take(c)
        return total

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
    def _finish(self, builder: TreeBuilder):
        """Prune (J48) and keep the reachable nodes, numbered breadth-first."""
        feature, _, left, right, counts, _, _ = builder.arrays()
        n_nodes = feature.size
        errors_as_leaf = counts.sum(1) - counts.max(1)
        # collapse: bottom-up (children have larger ids than parents)
        train_err = errors_as_leaf.copy()
        for node in range(n_nodes - 1, -1, -1):
            if feature[node] >= 0:
                sub = train_err[left[node]] + train_err[right[node]]
                if sub >= errors_as_leaf[node] - 1e-3:
                    feature[node] = -1
                else:
                    train_err[node] = sub
        if self._p["pruning"]:
            confidence = self._p["confidence"]
            n_rec = counts.sum(1)
            leaf_est = np.array([e + add_errors(nr, e, confidence) if nr > 0 else 0.0
                                 for nr, e in zip(n_rec, errors_as_leaf)])
            est = leaf_est.copy()
            for node in range(n_nodes - 1, -1, -1):
                if feature[node] >= 0:
                    subtree = est[left[node]] + est[right[node]]
                    if leaf_est[node] <= subtree + 0.1:
                        feature[node] = -1
                    else:
                        est[node] = subtree
        self.tree_ = builder.finish(feature, breadth_first=True)
        return self

    # -- printing (J48's form: ``attribute <= t: class (n/errors)``) ------------------------
    def _branch_texts(self, node, names, decimals):
        name, thr = names[self.tree_.feature[node]], self.tree_.threshold[node]
        return f"{name} <= {thr:.4g}", f"{name} > {thr:.4g}"

    def _leaf_text(self, node, show_counts, decimals):
        c = self.tree_.value[node]
        return f"{self.classes_[self.tree_.label[node]]} ({c.sum():.0f}/{c.sum() - c.max():.0f})"


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
    tree_ : Tree
        The fitted tree as flat arrays (:class:`~ppdm_edu.trees.base.Tree`): ``feature`` (-1
        at leaves), ``threshold``, ``children_left``, ``children_right``, ``value`` (class
        counts per node) and ``label`` (class index per node).
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

    _param_checks = {
        "min_instances": Integer(1),
        "pruning": Boolean(),
        "confidence": Probability(0.5, open_interval=True, hint=" (J48 default 0.25)"),
        "max_depth": Integer(0, none=True),
    }

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
        X, y = self._prepare(X, y)
        return self._finish(self._grow(X, y, None))

    def _best_split(self, V, y, idx, S, counts):
        best_gain, ratio, cut = self._best_cuts(V, S, counts)
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
    classes_, n_features_in_, feature_names_in_, n_leaves_, depth_
        As in :class:`C45`.
    noises_ : list of Noise
        The noise of each column, in column order.
    shift_ : ndarray, shape (n_features,)
        ``c = F_R^-1(1 - threshold)`` per column: the threshold partition ``p_S1 > threshold``
        is ``w < t + c``.
    tree_ : Tree
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
    _param_checks = {
        "noise": CheckedInFit("one Noise per column: checked in fit, where the columns are known"),
        "split": OneOf(*SPLITS),
        "partition": OneOf(*PARTITIONS),
        "threshold": Probability(open_interval=True),
        **C45._param_checks,
        "max_candidates": Integer(1),
        "random_state": RandomState(),
    }

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
        W, y = self._prepare(W, y, "W")
        self._theta = self._p["threshold"]
        self.noises_ = self._resolve_noise()
        # w - t < c  <=>  p_S1(w|t) > threshold  (c = F_R^-1(1 - threshold))
        self.shift_ = np.array([nz.ppf(1.0 - self._theta) for nz in self.noises_])
        rng = check_random_state(self.random_state, "random_state")
        return self._finish(self._grow(W, y, rng))

    def _best_split(self, V, y, idx, S, counts):
        if self.split == "threshold":
            best_gain, ratio, cut = self._best_cuts(V, S, counts)
            a = self._choose(best_gain, ratio)
            # Eq. 10-12: the threshold partition {p_S1 > threshold} is {w < t + c}
            return None if a is None else (a, float(cut[a] - self.shift_[a]))
        return self._weighted_cuts(V[idx], np.eye(counts.size)[y[idx]], counts)

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
            max_candidates = self._p["max_candidates"]
            if t.size > max_candidates:
                t = t[np.unique(np.linspace(0, t.size - 1, max_candidates).round().astype(int))]
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
            left = np.einsum("nk,nm->km", Yw, P)  # Eq. 13, (k, m)
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

        return self.classes_[self.tree_.label[self.tree_.apply(W, go_left)]]

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
