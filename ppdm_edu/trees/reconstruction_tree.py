"""Decision trees trained on perturbed data with reconstruction (Agrawal & Srikant 2000, Sec. 4.2).

The server holds perturbed records ``w = x + r`` (with a public noise model per attribute) and
the true class labels. Two steps of tree growth (Fig. 4) change:

* **Split points** (step 4). Reconstructing an attribute's distribution partitions its domain
  into intervals ``I_1..I_m``; the candidate split points are the interval boundaries. Gini is
  computed from the class counts per interval.
* **Partitioning** (step 5). Reconstruction estimates ``N(I_p)``, the number of original values
  in each interval. The records are sorted by perturbed value and the ``N(I_1)`` lowest are
  associated with ``I_1``, the next ``N(I_2)`` with ``I_2``, and so on. A split at the boundary
  between ``I_{p-1}`` and ``I_p`` sends the records associated with ``I_1..I_{p-1}`` left. The
  association is kept for splits on the same attribute lower down. (Footnote 3: the interval a
  record is associated with is *not* an estimate of its original value.)

When to reconstruct (the three algorithms of Sec. 4.2):

* ``mode="global"``: once at the root, from all records together;
* ``mode="byclass"``: once at the root, separately for the records of each class;
* ``mode="local"``: as ByClass, and again (per class) at every node that still holds at least
  ``local_min_records`` records (below that the parent's association is reused, to avoid
  over-fitting). Only attributes **not already split on along the path** are reconstructed
  again: the records reach a node *through their own noise* on a split attribute (a record
  whose noise pushed it low went left), so at that node the perturbed values of that attribute
  are no longer "original value + independent noise" and the reconstruction's noise model no
  longer holds. The association made higher up is kept for such attributes.

The number of intervals follows the paper's heuristic: ``n / 100`` intervals, bounded to
10..100 (``n`` = training records). Unperturbed attributes (e.g. ``elevel``, ``car`` and
``zipcode`` of the synthetic data, which the paper leaves as they are) are split as in the
standard algorithm, at mid-points between distinct values (cut at quantiles if there are more
than ``max_unperturbed_values`` of them).

The fitted tree tests *original* values, e.g. ``salary <= 57,800``: the model is shipped to the
client and applied there to the unperturbed record (Sec. 4.3). So :meth:`predict` takes
original records.

Examples
--------
>>> from ppdm_edu import noise_for_privacy
>>> from ppdm_edu.datasets import agrawal
>>> from ppdm_edu.trees import ReconstructionTree
>>> from ppdm_edu.trees.reconstruction_tree import perturb_columns
>>> X, y = agrawal(4000, function=1, rng=0, balanced=True)
>>> noise = {"age": noise_for_privacy("gaussian", 0.5, 60)}
>>> W = perturb_columns(X, noise, rng=1)          # what the server sees
>>> tree = ReconstructionTree(noise, mode="byclass", bounds={"age": (20, 80)}).fit(W, y)
>>> Xt, yt = agrawal(2000, function=1, rng=2, balanced=True)
>>> tree.score(Xt, yt) > 0.9                      # tested on original records (Sec. 4.3)
True
"""
from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from .._validation import (
    check_finite_2d,
    check_finite_array,
    check_fit_data,
    feature_names,
)
from ..random_state import check_random_state
from ..randomization import Noise, check_noise_mapping, perturb
from ..reconstruction import Reconstructor, default_n_intervals, make_edges
from ._params import Boolean, CheckedInFit, Integer, OneOf, RandomState, checked_params
from .base import TreeClassifier
from .gini import MDLBuilder, leaf_is_final, surely_pruned

__all__ = ["ReconstructionTree", "assign_intervals", "perturb_columns", "MODES"]

MODES = ("global", "byclass", "local")


def assign_intervals(w, counts) -> np.ndarray:
    """Associate perturbed values with intervals from estimated counts (Sec. 4.2).

    Sort the values, give the ``N(I_1)`` lowest to interval 0, the next ``N(I_2)`` to interval
    1, and so on. The estimated counts are rounded cumulatively, so every interval gets its
    estimate to within one record and all values are assigned.

    Parameters
    ----------
    w : array-like of float, shape (n,)
        Perturbed values.
    counts : array-like of float, shape (m,)
        Estimated number of original values per interval (e.g. ``Reconstruction.counts``);
        rescaled to sum to ``n``.

    Returns
    -------
    ndarray of int, shape (n,)
        The interval (0..m-1) associated with each value.

    Raises
    ------
    ValueError
        If ``w`` is not 1-d and finite, or ``counts`` is not a non-empty 1-d array of finite
        non-negative numbers with a positive sum.

    Examples
    --------
    >>> assign_intervals([5.0, 1.0, 3.0, 2.0], [1.0, 2.4, 0.6]).tolist()
    [2, 0, 1, 1]
    """
    values = check_finite_array(w, "w", allow_empty=True)
    if values.ndim != 1:
        raise ValueError(f"w must be one-dimensional, got shape {values.shape}")
    est = check_finite_array(counts, "counts")
    if est.ndim != 1 or est.size == 0 or not np.isfinite(est).all() or (est < 0).any() or est.sum() <= 0:
        raise ValueError("counts must be a non-empty 1-D array of finite, non-negative numbers with a positive sum")
    n = values.size
    order = np.argsort(values, kind="stable")
    codes = np.empty(n, dtype=np.int64)
    codes[order] = _codes_by_rank(est, n)
    return codes


def _codes_by_rank(est: np.ndarray, n: int) -> np.ndarray:
    """Interval of the record of rank 0..n-1 when interval p receives about est[p] records."""
    cum = np.cumsum(est)
    bounds = np.rint(cum * (n / cum[-1])).astype(np.int64)
    bounds[-1] = n
    return np.searchsorted(bounds, np.arange(n), side="right")


def perturb_columns(X, noise, rng=None):
    """Perturb the columns named in ``noise`` (value distortion, Sec. 2); the others stay as they are.

    Parameters
    ----------
    X : pandas.DataFrame or 2-D array
        Original records.
    noise : Noise or dict
        ``{column: Noise}`` (column names for a DataFrame, integer positions for an array), or
        one Noise for every column.
    rng : None, int or numpy.random.Generator
        Same seed, same perturbed values.

    Returns
    -------
    pandas.DataFrame or ndarray of float
        The records with ``x + r`` in the perturbed columns, of the same kind as ``X`` (a
        DataFrame keeps its columns and index).

    Raises
    ------
    ValueError
        If ``X`` is not a finite numeric 2-D table, or ``noise`` names an unknown column or
        holds something other than a Noise.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import UniformNoise
    >>> W = perturb_columns(np.zeros((3, 2)), {1: UniformNoise(1.0)}, rng=0)
    >>> W[:, 0].tolist()
    [0.0, 0.0, 0.0]
    """
    if isinstance(X, pd.DataFrame):
        non_numeric = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]
        if non_numeric:
            raise ValueError("X columns must be numeric (encode categories as integer codes first); "
                             f"non-numeric: {non_numeric}")
    arr = check_finite_2d(X, "X")  # the tree's own refusals, naming X
    # one Noise: every column, each drawing from rng in turn (perturb's per-column stream layout)
    return perturb(X, noise if isinstance(noise, dict) else dict.fromkeys(range(arr.shape[1]), noise), rng)


def _resolve_noise(noise, d: int, names) -> dict[int, Noise]:
    """{column position: Noise} from one Noise (every column) or a dict keyed by name/position."""
    return check_noise_mapping(noise, d, names, require_all=False)


def _resolve_column(key, d: int, names, what: str) -> int:
    if names is not None and isinstance(key, str):
        if key not in names:
            raise ValueError(f"{what} given for unknown attribute {key!r}; the columns are {names}")
        return names.index(key)
    if isinstance(key, numbers.Integral) and not isinstance(key, bool) and 0 <= int(key) < d:
        return int(key)
    allowed = f"the column names {names}" if names is not None else f"column positions 0..{d - 1}"
    raise ValueError(f"{what} given for unknown attribute {key!r}; allowed: {allowed}")


class ReconstructionTree(TreeClassifier):
    """Gini tree grown on perturbed records with reconstructed distributions (Sec. 4.2).

    Parameters
    ----------
    noise : Noise or dict
        The public noise model: one :class:`~ppdm_edu.UniformNoise` /
        :class:`~ppdm_edu.GaussianNoise` for every attribute, or ``{attribute: noise}`` for the
        perturbed ones (attributes not in the dict were not perturbed).
    mode : {"global", "byclass", "local"}, default "byclass"
        When and how to reconstruct (see the module docstring).
    bounds : dict or None
        ``{attribute: (low, high)}``, the public domain of perturbed attributes, split into the
        intervals. Missing: the range of the perturbed values (wider than the domain, so
        fewer intervals fall on it).
    n_intervals : int or None
        Intervals per perturbed attribute; None: the paper's heuristic (n / 100 within 10..100).
    local_min_records : int, default 1000
        Local only: reconstruct again at nodes with at least this many records.
    method : {"bayes", "em"}, default "bayes"
        Reconstruction algorithm (:func:`~ppdm_edu.reconstruct`).
    min_samples : int, default 2
        A node with fewer records is a leaf (as in :class:`~ppdm_edu.trees.DecisionTree`).
    pruning : {"mdl", None}, default "mdl"
        MDL pruning as in :class:`~ppdm_edu.trees.DecisionTree` (it needs no modification for
        perturbed data, Sec. 4.2), or none.
    max_depth : int or None, default None
        Depth limit (the root has depth 0).
    max_unperturbed_values : int, default 256
        Unperturbed attributes with more distinct values are cut at this many quantiles.
    local_path_attributes : bool, default False
        For teaching only: True makes Local also re-reconstruct attributes already split on
        along the path, which breaks the noise model (see the module docstring) -- compare the
        accuracy to see why the rule matters.
    stop : {"paper", "cross-validation"}, default "paper"
        Stopping rule of every reconstruction (see :func:`ppdm_edu.reconstruct`): the paper's
        chi^2 rule, or iterations chosen by held-out likelihood (beyond the paper).
    random_state : None, int or numpy.random.Generator
        Seed of the fold assignments when ``stop="cross-validation"``.

    Attributes
    ----------
    tree_ : Tree
        Its ``value`` holds the class counts of the records associated with each node.
    edges_ : dict
        ``{attribute position: interval boundaries}`` of the perturbed attributes.
    reconstructions_ : dict
        ``{(attribute position, class label or None): Reconstruction}`` made at the root.
    intervals_ : ndarray of int, shape (n, d)
        The interval each training record is associated with, per attribute (for Local, the
        association made deepest in the tree); for unperturbed attributes, the rank of its
        distinct value.
    local_log_ : list of (frozenset, int, label, int)
        Local only: one entry per reconstruction below the root: (attributes split on along
        the path, attribute reconstructed, class, number of records).
    n_local_reconstructions_ : int
        ``len(local_log_)``.
    classes_ : ndarray
        The class labels, sorted.
    n_features_in_ : int
        Number of columns seen in ``fit``.
    feature_names_in_ : ndarray of str
        Column names, when fitted on a DataFrame with string column names (as in
        DecisionTree).

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu import GaussianNoise
    >>> rng = np.random.default_rng(0)
    >>> x = rng.uniform(0, 10, (3000, 1)); y = (x[:, 0] > 4).astype(int)
    >>> noise = GaussianNoise(1.0)
    >>> w = x + noise.sample(x.shape, rng)
    >>> tree = ReconstructionTree(noise, bounds={0: (0, 10)}).fit(w, y)
    >>> round(tree.score(x, y), 2) >= 0.95
    True
    """

    _param_checks = {
        "noise": CheckedInFit("a Noise or {column: Noise}: checked against the columns in fit"),
        "mode": OneOf(*MODES),
        "bounds": CheckedInFit("{column: (low, high)}: checked against the columns in fit"),
        "n_intervals": Integer(2, none=True),
        "local_min_records": Integer(2),
        "method": OneOf("bayes", "em"),
        "min_samples": Integer(2),
        "pruning": OneOf("mdl", None),
        "max_depth": Integer(0, none=True),
        "max_unperturbed_values": Integer(2),
        "local_path_attributes": Boolean(),
        "stop": CheckedInFit("a stopping rule: the reconstruction's own check names it"),
        "random_state": RandomState(),
    }

    def __init__(self, noise, mode: str = "byclass", bounds=None, n_intervals=None,
                 local_min_records: int = 1000, method: str = "bayes", min_samples: int = 2,
                 pruning: str | None = "mdl", max_depth: int | None = None,
                 max_unperturbed_values: int = 256, local_path_attributes: bool = False,
                 stop: str = "paper", random_state=None):
        self.noise = noise
        self.mode = mode
        self.bounds = bounds
        self.n_intervals = n_intervals
        self.local_min_records = local_min_records
        self.method = method
        self.min_samples = min_samples
        self.pruning = pruning
        self.max_depth = max_depth
        self.max_unperturbed_values = max_unperturbed_values
        self.local_path_attributes = local_path_attributes
        self.stop = stop
        self.random_state = random_state

    # ------------------------------------------------------------------------------------
    def _resolve_bounds(self, noisy: dict, d: int, names) -> dict[int, tuple[float, float] | None]:
        out: dict[int, tuple[float, float] | None] = dict.fromkeys(noisy)
        if self.bounds is None:
            return out
        if not isinstance(self.bounds, dict):
            raise ValueError("bounds must be None or a dict {attribute: (low, high)}")
        for key, pair in self.bounds.items():
            j = _resolve_column(key, d, names, "bounds")
            if j not in noisy:
                continue  # a domain for an unperturbed attribute is harmless
            try:
                lo, hi = (float(b) for b in pair)
            except (TypeError, ValueError):
                raise ValueError(f"bounds for {key!r} must be a pair (low, high), got {pair!r}") from None
            if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
                raise ValueError(f"bounds for {key!r} must be finite with low < high, got {pair!r}")
            out[j] = (lo, hi)
        return out

    # ------------------------------------------------------------------------------------
    def fit(self, X, y) -> "ReconstructionTree":
        """Grow the tree on perturbed records ``X`` (labels ``y`` are true), then prune (MDL).

        Parameters
        ----------
        X : array-like or pandas.DataFrame, shape (n_samples, n_features)
            Training records, perturbed in the columns that ``noise`` covers (the others as
            they are), numeric and finite.
        y : array-like, shape (n_samples,)
            True class labels.

        Returns
        -------
        ReconstructionTree
            The fitted estimator (``self``).

        Raises
        ------
        ValueError
            If a parameter is out of range, ``noise`` or ``bounds`` names an unknown column,
            or ``X``/``y`` are invalid.
        """
        params = checked_params(self)
        W, classes, yc = check_fit_data(self, X, y)
        names = feature_names(self)
        n, d = W.shape
        k = classes.size
        noisy = _resolve_noise(self.noise, d, names)
        bounds = self._resolve_bounds(noisy, d, names)
        # fold assignments of the held-out-likelihood stop (stop="cross-validation" only)
        stop_rng = check_random_state(self.random_state, "random_state")
        self.classes_ = classes
        m_default = params["n_intervals"] or default_n_intervals(n)

        codes = np.empty((n, d), dtype=np.int64)
        thresholds: list[np.ndarray] = []
        reconstructors: dict[int, Reconstructor] = {}
        wbins: dict[int, np.ndarray] = {}
        self.edges_ = {}
        self.reconstructions_ = {}
        class_rows = [np.flatnonzero(yc == c) for c in range(k)]
        for j in range(d):
            if j not in noisy:
                codes[:, j], cut = _unperturbed_codes(W[:, j], params["max_unperturbed_values"])
                thresholds.append(cut)
                continue
            bound = bounds[j]
            lo_hi = bound if bound is not None else (float(W[:, j].min()), float(W[:, j].max()))
            if not lo_hi[1] > lo_hi[0]:
                lo_hi = (lo_hi[0] - 0.5, lo_hi[0] + 0.5)
            edges = make_edges(lo_hi, n_intervals=m_default)
            rc = Reconstructor(noisy[j], edges, method=self.method, stop=self.stop,
                               rng=stop_rng)
            reconstructors[j] = rc
            wb = np.clip(np.searchsorted(rc.w_edges, W[:, j], side="right") - 1, 0, rc.w_edges.size - 2)
            wbins[j] = wb
            self.edges_[j] = edges
            thresholds.append(edges[1:-1])  # boundary after interval p is edges[p + 1]
            groups = [np.arange(n)] if self.mode == "global" else class_rows
            possible = rc.matrix.sum(axis=1) > 0.0
            for c, rows in enumerate(groups):
                if rows.size == 0:
                    continue
                counts_w = np.bincount(wb[rows], minlength=rc.w_edges.size - 1)
                if not counts_w[possible].any():
                    # checked here, where the column and the class are known
                    who = "the records" if self.mode == "global" else f"the records of class {classes[c].tolist()!r}"
                    raise ValueError(
                        f"column {names[j] if names is not None else j}: {who} (e.g. "
                        f"{W[rows[0], j]:g}) all fall where no interval of [{edges[0]:g}, {edges[-1]:g}] "
                        f"gets any probability under {noisy[j]!r}: each of the {edges.size - 1} "
                        f"intervals (width {edges[1] - edges[0]:g}) stands for its midpoint "
                        f"(AS2000 Sec. 3), far wider than the noise; use more intervals "
                        f"(n_intervals) or noise that matches the data's scale")
                rec = rc.from_counts(counts_w)
                key = (j, None) if self.mode == "global" else (j, classes[c])
                self.reconstructions_[key] = rec
                codes[rows, j] = _assign_rows(W[rows, j], rec.counts)

        self.local_log_: list = []
        self.tree_ = self._grow(W, yc, k, codes, thresholds, reconstructors, wbins, params)
        self.n_local_reconstructions_ = len(self.local_log_)
        self.intervals_ = codes.astype(np.int32)
        return self

    # ------------------------------------------------------------------------------------
    def _grow(self, W, y, k, codes, thresholds, reconstructors, wbins, params):
        """Fig. 4 on the intervals: split points are interval boundaries (step 4), and a split
        sends left the records associated with the intervals below it (step 5).

        A stack of the nodes still to partition, the left child on top, visits them in the order
        of Fig. 4's recursion. ``codes`` (the association of the records with the intervals) is
        updated in place where Local reconstructs again.
        """
        n, d = codes.shape
        intervals = _IntervalCounts(W, y, k, codes, thresholds)
        limits = _Limits(params["min_samples"], params["max_depth"], self.pruning == "mdl", d,
                         params["local_min_records"] if self.mode == "local" else None)
        builder = MDLBuilder(k, d)
        root = builder.add(np.bincount(y, minlength=k), 0)
        # (node, its records, depth, attributes split on above, class histogram, search it?)
        stack: list[tuple] = [(root, np.arange(n), 0, frozenset(), None, None)]
        while stack:
            node, idx, depth, path, hist, search = stack.pop()
            counts = builder.counts[node]
            m = idx.size
            # Fig. 4 step (1) (the parent has decided it when it counted this node's histogram)
            if not (limits.searchable(counts, m, depth) if search is None else search):
                continue
            if limits.relocalizes(m, depth):
                self._reconstruct_again(idx, path, k, intervals, reconstructors, wbins)
                hist = None  # the association changed: count again
            if hist is None:
                hist = intervals.histogram(idx)
            # step (4): the best boundary between intervals
            found = _best_boundary(hist, counts, m, intervals.valid_pos)
            if found is None:
                continue
            a, p, left_counts, right_counts, n_candidates = found
            if self.pruning == "mdl" and surely_pruned(counts.tolist(), left_counts.tolist(),
                                                        right_counts.tolist(), n_candidates, d):
                continue
            # step (5): the records associated with intervals up to p go left
            go_left = codes[idx, a] <= p
            lidx, ridx = idx[go_left], idx[~go_left]
            lnode = builder.add(left_counts, depth + 1)
            rnode = builder.add(right_counts, depth + 1)
            builder.split_at(node, a, thresholds[a][p], n_candidates, lnode, rnode)
            search = [limits.searchable(left_counts, lidx.size, depth + 1),
                      limits.searchable(right_counts, ridx.size, depth + 1)]
            # a child that will reconstruct again (Local) counts its own histogram after that
            need = [search[0] and not limits.relocalizes(lidx.size, depth + 1),
                    search[1] and not limits.relocalizes(ridx.size, depth + 1)]
            child_hist = intervals.children_histograms(hist, lidx, ridx, need)
            child_path = path | {a}
            stack.append((rnode, ridx, depth + 1, child_path, child_hist[1], search[1]))
            stack.append((lnode, lidx, depth + 1, child_path, child_hist[0], search[0]))
        return builder.finish_pruned(self.pruning)

    def _reconstruct_again(self, idx, path, k, intervals, reconstructors, wbins) -> None:
        """Local: reconstruct again, per class, from the records ``idx`` of a node, each
        perturbed attribute not split on along its ``path``, and associate the records with that
        attribute's intervals anew."""
        yi = intervals.y[idx]
        for j, rc in reconstructors.items():
            if j in path and not self.local_path_attributes:
                continue  # the records got here through their own noise on j
            for c in range(k):
                rows = idx[yi == c]
                if rows.size < 2:
                    continue
                rec = rc.from_counts(np.bincount(wbins[j][rows], minlength=rc.w_edges.size - 1))
                intervals.associate(j, rows, rec.counts)
                self.local_log_.append((path, j, self.classes_[c], int(rows.size)))


class _Limits:
    """When a node is searched for a split, and when it reconstructs again (Local)."""

    def __init__(self, min_samples: int, max_depth, mdl: bool, n_features: int, local_min):
        self.min_samples = min_samples
        self.max_depth = max_depth
        self.mdl = mdl
        self.n_features = n_features
        self.local_min = local_min  # None unless mode="local"

    def searchable(self, counts, m: int, depth: int) -> bool:
        """Fig. 4 step (1) and the MDL shortcut: False when the node stays a leaf."""
        if m < self.min_samples or (counts > 0).sum() <= 1 or (self.max_depth is not None and depth >= self.max_depth):
            return False
        return not (self.mdl and leaf_is_final(counts.tolist(), self.n_features))

    def relocalizes(self, m: int, depth: int) -> bool:
        """Local: a node below the root with at least ``local_min_records`` records."""
        return self.local_min is not None and depth > 0 and m >= self.local_min


class _IntervalCounts:
    """Class counts per (attribute, interval) of a node's records, from the records'
    association with the intervals (``codes``, updated in place by :meth:`associate`)."""

    def __init__(self, W, y, k: int, codes, thresholds):
        n, d = codes.shape
        self.W, self.y, self.k, self.codes = W, y, k, codes
        n_int = np.array([t.size + 1 for t in thresholds])
        self.M = M = int(n_int.max())
        # bin of (attribute, interval) per record; the class adds c * d * M (class-major
        # histograms: the per-class slices hist[c] are contiguous, see _best_boundary)
        self.flat_codes = codes + (np.arange(d) * M)[None, :]
        self.shape = (k, d, M)
        self.valid_pos = np.arange(M - 1)[None, :] < (n_int - 1)[:, None]   # (d, M-1) real boundaries
        self.sorted_rows: dict[int, np.ndarray] = {}   # Local: each attribute's records in order of perturbed value

    def histogram(self, idx):
        """Class counts per (attribute, interval) of the records idx: shape (k, d, M)."""
        k, d, M = self.shape
        flat = self.flat_codes[idx] + (self.y[idx] * (d * M))[:, None]
        return np.bincount(flat.ravel(), minlength=k * d * M).reshape(k, d, M)

    def children_histograms(self, hist, lidx, ridx, need):
        """The histograms of the two children (None where ``need`` is False).

        Histogram subtraction: the children's counts sum to the parent's ``hist``, so count the
        smaller child and subtract (integer counts: exact).
        """
        child_hist = [None, None]
        if any(need):
            small = 0 if lidx.size <= ridx.size else 1
            h_small = self.histogram((lidx, ridx)[small])
            child_hist[small] = h_small
            if need[1 - small]:
                child_hist[1 - small] = hist - h_small
        return child_hist

    def associate(self, j: int, rows, est) -> None:
        """Associate the records ``rows`` with attribute j's intervals anew, from the estimated
        counts per interval ``est`` (Sec. 4.2: by rank of perturbed value)."""
        if j not in self.sorted_rows:
            self.sorted_rows[j] = np.argsort(self.W[:, j], kind="stable")
        self.codes[rows, j] = _assign_subset(self.W[:, j], rows, self.sorted_rows[j], est)
        self.flat_codes[rows, j] = self.codes[rows, j] + j * self.M


def _best_boundary(hist, counts, m, valid_pos):
    """The best split boundary from class counts per interval (Sec. 4.1/4.2), or None.

    ``hist[c, j, p]``: records of class c associated with interval p of attribute j. Returns
    (attribute, boundary index p, left class counts, right class counts, number of candidates).
    Called once per node on small (k, d, M) arrays: few numpy calls, no reduction over the
    short class axis (the classes are summed in order, as such a reduction would).
    """
    k, d, M = hist.shape
    left = np.cumsum(hist, axis=2, dtype=float)[:, :, :-1]    # (k, d, M-1) records <= boundary
    right = counts[:, None, None] - left
    sq = left * left
    sq_right = right * right
    n_left = left[0] + left[1] if k > 1 else left[0].copy()
    sq_left = sq[0] + sq[1] if k > 1 else sq[0].copy()
    sq_r = sq_right[0] + sq_right[1] if k > 1 else sq_right[0].copy()
    for c in range(2, k):
        n_left += left[c]
        sq_left += sq[c]
        sq_r += sq_right[c]
    n_right = m - n_left
    ok = valid_pos & (n_left > 0) & (n_right > 0)
    # min gini_split <=> max sum_c L_c^2 / n_L + sum_c R_c^2 / n_R (Sec. 4.1)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = sq_left / n_left + sq_r / n_right
    score[~ok] = -np.inf
    best = int(np.argmax(score))
    a, p = divmod(best, M - 1)
    if not score[a, p] > (counts ** 2).sum() / m * (1 + 1e-12):  # also: no valid boundary
        return None
    left_counts = left[:, a, p]
    return a, p, left_counts, counts - left_counts, int(ok[a].sum())


def _assign_subset(w_all: np.ndarray, rows: np.ndarray, order: np.ndarray, est) -> np.ndarray:
    """:func:`_assign_rows` of ``w_all[rows]`` (``rows`` ascending, ``order`` the stable argsort
    of ``w_all``): for large subsets, filtering the presorted order (O(n)) beats sorting."""
    m = rows.size
    if m * max(math.log2(m), 1.0) < 0.5 * order.size:
        return _assign_rows(w_all[rows], est)
    member = np.zeros(order.size, dtype=bool)
    member[rows] = True
    ranked = order[member[order]]          # the rows in stable order of w (ties: by position)
    out_all = np.empty(order.size, dtype=np.int64)
    out_all[ranked] = _codes_by_rank(np.asarray(est, dtype=float), m)
    return out_all[rows]


def _assign_rows(w_rows: np.ndarray, est: np.ndarray) -> np.ndarray:
    order = np.argsort(w_rows, kind="stable")
    out = np.empty(w_rows.size, dtype=np.int64)
    out[order] = _codes_by_rank(np.asarray(est, dtype=float), w_rows.size)
    return out


def _unperturbed_codes(x: np.ndarray, max_values: int):
    """Codes and thresholds of an attribute that was not perturbed (split as usual)."""
    values = np.unique(x)
    if values.size > max_values:
        values = np.unique(np.quantile(x, np.linspace(0, 1, max_values)))
    code = np.clip(np.searchsorted(values, x, side="left"), 0, values.size - 1)
    # with quantile cuts, x in (values[p-1], values[p]] gets code p: a split "code <= p" is
    # "x <= values[p]"; with distinct values it is the usual mid-point
    if values.size == np.unique(x).size:
        cut = 0.5 * (values[:-1] + values[1:])
    else:
        cut = values[:-1]
    return code, cut
