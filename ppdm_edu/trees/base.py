"""What every fitted tree of the package shares: a tree stored as flat arrays, one entry a node.

Node ``i`` tests attribute ``feature[i]`` (``-1`` marks a leaf) and sits at depth ``depth[i]``
(the root has depth 0). The gini/reconstruction trees (:mod:`.gini`) and ID3/RR-ID3
(:mod:`.id3`) store their trees this way and get the size measures from here.
"""
from __future__ import annotations

import numpy as np

__all__ = ["FlatTree"]


class FlatTree:
    """Size measures of a tree stored as flat arrays ``feature`` and ``depth``.

    Examples
    --------
    >>> import numpy as np
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Stump(FlatTree):
    ...     feature: np.ndarray
    ...     depth: np.ndarray
    >>> t = Stump(np.array([0, -1, -1]), np.array([0, 1, 1]))
    >>> t.n_nodes, t.n_leaves, t.max_depth
    (3, 2, 1)
    """

    feature: np.ndarray
    depth: np.ndarray

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
