"""What every tree of the package shares: one flat storage (:class:`Tree`) and one base estimator.

The storage follows scikit-learn's ``sklearn.tree._tree.Tree``: a fitted tree is a set of
parallel arrays with one entry per node, node 0 the root. Every test of the package is binary,
``x[feature] <= threshold`` goes to ``children_left``, the rest to ``children_right``:

- the gini / reconstruction trees (Agrawal & Srikant Sec. 4) and C4.5 / PPDTC4.5 (Liu et al.
  Sec. 4.2) split numeric attributes at a threshold;
- ID3 / RR-ID3 (Du & Zhan Sec. 4.2) split *categorical* attributes, one branch per value. Their
  attributes are 0/1, so the branch of value 0 is ``x <= 0.5`` and the branch of value 1 is
  ``x > 0.5``: the multiway split of a two-valued attribute is this binary test (a k-valued
  attribute would enter one-hot coded, as scikit-learn's trees take categories).

Each node also keeps its class counts ``value`` (estimated counts for the reconstruction trees
and RR-ID3, weighted counts for PPDTC4.5), the class it predicts ``label`` (the majority of
``value``; an empty node predicts its parent's majority, C4.5's and ID3's rule) and its depth.

:class:`TreeClassifier` (``ClassifierMixin, BaseEstimator, ABC``) owns everything that uses a
fitted tree -- ``apply``, ``predict``, ``predict_proba``, ``export_text``, ``n_leaves_``,
``depth_``. A tree family gives only its parameter checks (the table ``_param_checks``,
:mod:`ppdm_edu.trees._params`), how it splits, partitions and prunes (its ``fit``), and how its
lines read in ``export_text``.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import check_predict_data
from .._validation import feature_names as fitted_feature_names
from ._params import ParamCheck

__all__ = ["Tree", "TreeBuilder", "TreeClassifier"]


# --------------------------------------------------------------------------------------------
# the storage
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tree:
    """A fitted tree as parallel arrays, one entry per node (node 0 is the root).

    Attributes
    ----------
    feature : ndarray of int, shape (n_nodes,)
        Attribute tested at the node; -1 at a leaf.
    threshold : ndarray of float, shape (n_nodes,)
        The test ``x[feature] <= threshold`` (0.5 for a 0/1 attribute); NaN at a leaf.
    children_left : ndarray of int, shape (n_nodes,)
        Child of the records that pass the test; -1 at a leaf.
    children_right : ndarray of int, shape (n_nodes,)
        Child of the other records; -1 at a leaf.
    value : ndarray of float, shape (n_nodes, n_classes)
        Class counts of the training records of the node (estimated or weighted by some
        families; RR-ID3's unbiased estimates can be negative).
    label : ndarray of int, shape (n_nodes,)
        Index (into ``classes_``) of the class the node predicts.
    depth : ndarray of int, shape (n_nodes,)
        Depth of the node (the root has depth 0).
    gain : ndarray of float or None
        Score of the chosen split (ID3: information gain, Eq. 2 of Du & Zhan); 0 at leaves.
    reason : ndarray of int or None
        Why a node is what it is (ID3: 0 split, 1 pure, 2 no attributes left, 3 empty branch).

    Examples
    --------
    >>> import numpy as np
    >>> t = Tree(feature=np.array([0, -1, -1]), threshold=np.array([0.5, np.nan, np.nan]),
    ...          children_left=np.array([1, -1, -1]), children_right=np.array([2, -1, -1]),
    ...          value=np.array([[3.0, 2.0], [3.0, 0.0], [0.0, 2.0]]), label=np.array([0, 0, 1]),
    ...          depth=np.array([0, 1, 1]))
    >>> t.apply(np.array([[0.0], [1.0]])).tolist(), t.n_leaves, t.max_depth
    ([1, 2], 2, 1)
    """

    feature: np.ndarray
    threshold: np.ndarray
    children_left: np.ndarray
    children_right: np.ndarray
    value: np.ndarray
    label: np.ndarray
    depth: np.ndarray
    gain: np.ndarray | None = None
    reason: np.ndarray | None = None

    @property
    def n_nodes(self) -> int:
        """Number of nodes (tests and leaves)."""
        return int(self.feature.size)

    @property
    def n_leaves(self) -> int:
        """Number of leaves (nodes with ``feature == -1``)."""
        return int((self.feature < 0).sum())

    @property
    def max_depth(self) -> int:
        """Depth of the deepest node (0 for a single leaf)."""
        return int(self.depth.max())

    @property
    def n_node_samples(self) -> np.ndarray:
        """Training records (estimated or weighted) per node: ``value.sum(axis=1)``."""
        return self.value.sum(axis=1)

    # the names the families used before the one storage (kept for notebooks and tests)
    @property
    def counts(self) -> np.ndarray:
        """``value`` (the gini and C4.5 trees' former name)."""
        return self.value

    @property
    def class_counts(self) -> np.ndarray:
        """``value`` (ID3's former name)."""
        return self.value

    def apply(self, X: np.ndarray, go_left=None) -> np.ndarray:
        """Leaf index of every row of X (one vectorized step per tree level, not per record).

        Parameters
        ----------
        X : ndarray, shape (n, n_features)
            Records, already validated.
        go_left : callable or None
            ``go_left(rows, feature, threshold) -> bool array``: the routing rule (e.g. a random
            path, Algorithm 4 of Liu et al.). None: the test ``X[rows, feature] <= threshold``.

        Returns
        -------
        ndarray of int, shape (n,)
            Index of the leaf (node) each record reaches.
        """
        node = np.zeros(X.shape[0], dtype=np.int64)
        active = np.flatnonzero(self.feature[node] >= 0)
        while active.size:
            nd = node[active]
            f, t = self.feature[nd], self.threshold[nd]
            left = X[active, f] <= t if go_left is None else go_left(active, f, t)
            nd = np.where(left, self.children_left[nd], self.children_right[nd])
            node[active] = nd
            active = active[self.feature[nd] >= 0]
        return node

    def subtree_size(self, node: int) -> int:
        """Number of nodes in the subtree rooted at ``node`` (itself included).

        Parameters
        ----------
        node : int
            A node index.

        Returns
        -------
        int
            Nodes below and including ``node``.
        """
        stack, m = [node], 0
        while stack:
            j = stack.pop()
            m += 1
            if self.feature[j] >= 0:
                stack += [self.children_right[j], self.children_left[j]]
        return m


class TreeBuilder:
    """Collects nodes while a tree grows, then freezes (and optionally prunes and compacts) them.

    Parameters
    ----------
    n_classes : int
        Number of classes (the width of ``value``).
    """

    def __init__(self, n_classes: int):
        self.n_classes = n_classes
        self.feature: list[int] = []
        self.threshold: list[float] = []
        self.left: list[int] = []
        self.right: list[int] = []
        self.counts: list[np.ndarray] = []
        self.label: list[int] = []
        self.depth: list[int] = []

    def add(self, counts, depth: int, label: int | None = None) -> int:
        """Append a leaf (a later :meth:`split` makes it a test).

        Parameters
        ----------
        counts : array-like of float, shape (n_classes,)
            Class counts of the node's training records.
        depth : int
            Depth of the node.
        label : int or None
            Class index the node predicts; None: the majority of ``counts``.

        Returns
        -------
        int
            The node's id (ids grow in the order of the calls).
        """
        counts = np.asarray(counts, dtype=float)
        self.feature.append(-1)
        self.threshold.append(np.nan)
        self.left.append(-1)
        self.right.append(-1)
        self.counts.append(counts)
        self.label.append(int(np.argmax(counts)) if label is None else int(label))
        self.depth.append(depth)
        return len(self.feature) - 1

    def split(self, node: int, feature: int, threshold: float, left: int, right: int) -> None:
        """Make ``node`` a test ``x[feature] <= threshold`` with these children.

        Parameters
        ----------
        node : int
            The node to turn into a test.
        feature : int
            Attribute tested.
        threshold : float
            Records with ``x[feature] <= threshold`` go to ``left``.
        left, right : int
            Ids of the two children (already added).
        """
        self.feature[node] = int(feature)
        self.threshold[node] = float(threshold)
        self.left[node] = int(left)
        self.right[node] = int(right)

    def arrays(self):
        """The nodes as grown, before compaction.

        Returns
        -------
        tuple of ndarray
            ``(feature, threshold, left, right, value, label, depth)``, one entry per node in
            the order of :meth:`add` (fresh arrays: a pruning pass may edit ``feature``).
        """
        return (np.asarray(self.feature, dtype=np.int64), np.asarray(self.threshold, dtype=float),
                np.asarray(self.left, dtype=np.int64), np.asarray(self.right, dtype=np.int64),
                np.asarray(self.counts, dtype=float).reshape(-1, self.n_classes),
                np.asarray(self.label, dtype=np.int64), np.asarray(self.depth, dtype=np.int64))

    def finish(self, feature=None, breadth_first: bool = False, **extra) -> Tree:
        """The tree of the nodes reachable from the root through ``feature`` (default: as grown;
        a pruned copy turns pruned tests into leaves), renumbered in preorder or breadth-first.

        Parameters
        ----------
        feature : ndarray of int or None
            The tested attribute per node after pruning (-1: a leaf).
        breadth_first : bool
            Number the kept nodes breadth-first (C4.5's order) instead of in preorder.
        **extra : ndarray
            Further per-node arrays of :class:`Tree` (``gain``, ``reason``), in growth order.

        Returns
        -------
        Tree
            The compact tree.
        """
        f0, threshold, left, right, value, label, depth = self.arrays()
        feature = f0 if feature is None else np.asarray(feature, dtype=np.int64)
        order, frontier = [], [0]
        while frontier:  # a loop over nodes
            node = frontier.pop(0) if breadth_first else frontier.pop()
            order.append(node)
            if feature[node] >= 0:
                frontier += [left[node], right[node]] if breadth_first else [right[node], left[node]]
        keep = np.asarray(order, dtype=np.int64)
        new_id = np.full(feature.size, -1, dtype=np.int64)
        new_id[keep] = np.arange(keep.size)
        f = feature[keep]
        internal = f >= 0
        return Tree(feature=f, threshold=np.where(internal, threshold[keep], np.nan),
                    children_left=np.where(internal, new_id[left[keep]], -1),
                    children_right=np.where(internal, new_id[right[keep]], -1),
                    value=value[keep], label=label[keep], depth=depth[keep],
                    **{k: np.asarray(v)[keep] for k, v in extra.items()})


# --------------------------------------------------------------------------------------------
# the base estimator
# --------------------------------------------------------------------------------------------
class TreeClassifier(ClassifierMixin, BaseEstimator, ABC):
    """Base of every tree: prediction, printing and size from ``tree_`` (a :class:`Tree`).

    A subclass declares ``_param_checks`` (``{parameter: check}``, one per constructor parameter;
    ``fit`` checks them with :func:`ppdm_edu.trees._params.checked_params`), implements ``fit``
    (which sets ``classes_`` and ``tree_``) and the three line formats of :meth:`export_text`.
    """

    _param_checks: dict[str, ParamCheck] = {}
    #: does :meth:`apply` take 0/1 attributes only (ID3)?
    _binary_input = False
    #: ``export_text`` defaults: decimals, depth shown when max_depth is None, J48 layout
    _export_decimals = 2
    _export_depth: int | None = None
    _export_j48 = False

    @abstractmethod
    def fit(self, X, y):
        """Grow (and prune) the tree; set ``classes_`` and ``tree_``.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Training records.
        y : array-like, shape (n_samples,)
            Class labels.

        Returns
        -------
        TreeClassifier
            The fitted estimator (``self``).
        """

    # -- using the tree -----------------------------------------------------------------
    def _check_X(self, X, name="X"):
        return check_predict_data(self, X, binary=self._binary_input, input_name=name)

    def apply(self, X) -> np.ndarray:
        """Index of the leaf each record reaches.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Records (same columns as in ``fit``), numeric and finite (0/1 for ID3 / RR-ID3;
            original, unperturbed records for the trees trained on perturbed data).

        Returns
        -------
        ndarray of int, shape (n_samples,)
            Node index (in ``tree_``) of each record's leaf.
        """
        X = self._check_X(X)  # NotFittedError first, as scikit-learn
        return self.tree_.apply(X)

    def predict(self, X) -> np.ndarray:
        """The class of the leaf each record reaches.

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Records, as for :meth:`apply`.

        Returns
        -------
        ndarray, shape (n_samples,)
            The predicted label of each record (an element of ``classes_``).
        """
        leaf = self.apply(X)  # checks fitted and X first
        return self.classes_[self.tree_.label[leaf]]

    def predict_proba(self, X) -> np.ndarray:
        """Class shares of the training records in the leaf each record reaches.

        Parameters
        ----------
        X : array-like or pandas.DataFrame
            Records, shape (n_samples, n_features), as for :meth:`apply`.

        Returns
        -------
        ndarray, shape (n_samples, n_classes)
            Class shares of the leaf (estimated counts below 0 count as 0), columns in the
            order of ``classes_``; a leaf with no training records gives probability 1 to the
            class it predicts.
        """
        leaf = self.apply(X)
        counts = np.maximum(self.tree_.value[leaf], 0.0)
        total = counts.sum(axis=1, keepdims=True)
        own = np.eye(self.classes_.size)[self.tree_.label[leaf]]
        return np.where(total > 0, counts / np.maximum(total, 1e-300), own)

    @property
    def n_leaves_(self) -> int:
        """Number of leaves of the fitted tree."""
        check_is_fitted(self)
        return self.tree_.n_leaves

    @property
    def depth_(self) -> int:
        """Depth of the fitted tree (0 for a single leaf)."""
        check_is_fitted(self)
        return self.tree_.max_depth

    # -- printing -------------------------------------------------------------------------
    def export_text(self, feature_names=None, max_depth=None, decimals=None, show_counts=False) -> str:
        """The tree as indented text, one line per test or leaf (like scikit-learn's).

        Parameters
        ----------
        feature_names : sequence of str, optional
            One name per column; default the DataFrame's columns seen in ``fit``, else the
            family's ``x0, x1, ...`` / ``A0, A1, ...``.
        max_depth : int, optional
            Show tests down to this depth; deeper subtrees are summarized in one line. None:
            the whole tree (C4.5: 10 levels, as J48 prints).
        decimals : int, optional
            Decimals of the thresholds (gini trees, default 2) or of the counts (ID3, default 0).
        show_counts : bool, default False
            ID3 / RR-ID3: append the (estimated, ``~``) class counts of each leaf.

        Returns
        -------
        str
            The printed tree.

        Raises
        ------
        ValueError
            If ``feature_names`` does not have one name per column.
        """
        check_is_fitted(self)
        names = self._export_names(feature_names)
        decimals = self._export_decimals if decimals is None else decimals
        max_depth = self._export_depth if max_depth is None else max_depth
        if self._export_j48:
            return self._j48_text(names, max_depth, decimals, show_counts)
        return self._indented_text(names, max_depth, decimals, show_counts)

    def _export_names(self, feature_names) -> list:
        """One name per column: the ones given, else the DataFrame's seen in ``fit``, else the
        family's ``x0, x1, ...`` / ``A0, A1, ...``."""
        names = (list(feature_names) if feature_names is not None else None) or fitted_feature_names(self) \
            or [f"{self._default_name}{j}" for j in range(self.n_features_in_)]
        if len(names) != self.n_features_in_:
            raise ValueError(f"feature_names has {len(names)} names, the tree has {self.n_features_in_} columns")
        return names

    def _indented_text(self, names, max_depth, decimals: int, show_counts: bool) -> str:
        """scikit-learn's layout: every test and every leaf on a line of its own, ``|---``."""
        t = self.tree_
        lines: list[str] = []
        stack: list[tuple[int | str, int]] = [(0, 0)]
        while stack:  # preorder over nodes; a str entry is a line already formatted
            node, depth = stack.pop()
            bar = "|   " * depth
            if isinstance(node, str):
                lines.append(node)
            elif t.feature[node] < 0:
                lines.append(f"{bar}|--- {self._leaf_text(node, show_counts, decimals)}")
            elif max_depth is not None and depth >= max_depth:
                lines.append(f"{bar}|--- ... ({self._truncated_text(node)})")
            else:
                left_text, right_text = self._branch_texts(node, names, decimals)
                stack += [(t.children_right[node], depth + 1), (f"{bar}|--- {right_text}", 0),
                          (t.children_left[node], depth + 1), (f"{bar}|--- {left_text}", 0)]
        return "\n".join(lines)

    def _j48_text(self, names, max_depth, decimals: int, show_counts: bool) -> str:
        """J48's layout: a leaf on the line of the test that leads to it (``test: leaf``)."""
        t = self.tree_
        if t.feature[0] < 0:
            return f": {self._leaf_text(0, show_counts, decimals)}"
        lines: list[str] = []
        stack: list[tuple[int | str, int]] = [(0, 0)]
        while stack:  # preorder over nodes; a str entry is a line already formatted
            node, depth = stack.pop()
            bar = "|   " * depth
            if isinstance(node, str):
                lines.append(node)
                continue
            if depth > max_depth:
                lines.append(bar + "...")
                continue
            branches = self._branch_texts(node, names, decimals)
            for child, text in reversed(list(zip((t.children_left[node], t.children_right[node]), branches))):
                if t.feature[child] < 0:
                    stack.append((f"{bar}{text}: {self._leaf_text(child, show_counts, decimals)}", 0))
                else:
                    stack.append((child, depth + 1))
                    stack.append((bar + text, 0))
        return "\n".join(lines)

    _default_name = "x"

    def _branch_texts(self, node: int, names, decimals: int) -> tuple[str, str]:
        """The two branch lines of a numeric test (``name <= t`` / ``name >  t``)."""
        name, thr = names[self.tree_.feature[node]], f"{self.tree_.threshold[node]:.{decimals}f}"
        return f"{name} <= {thr}", f"{name} >  {thr}"

    def _leaf_text(self, node: int, show_counts: bool, decimals: int) -> str:
        c = self.tree_.value[node]
        share = c.max() / c.sum() if c.sum() > 0 else 0.0
        return f"class: {self.classes_[self.tree_.label[node]]} (n={c.sum():.0f}, {share:.0%})"

    def _truncated_text(self, node: int) -> str:
        return f"{int(self.tree_.value[node].sum())} records below"
