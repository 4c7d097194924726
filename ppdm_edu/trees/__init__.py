"""Decision trees: plain and on perturbed / disguised data.

- ``gini``: :class:`DecisionTree`, a binary gini tree (Agrawal & Srikant's Original / Randomized)
- ``reconstruction_tree``: :class:`ReconstructionTree` (Global, ByClass, Local)
- ``id3``: :class:`ID3`, :class:`RRID3`, :func:`estimate_accuracy` (Du & Zhan)
- ``c45``: :class:`C45`, :class:`PPDTC45` (Liu, Kantarcioglu & Thuraisingham)
- ``as2000``: :func:`make_classifier`, Agrawal & Srikant's five algorithms by name
- ``base``: the one flat storage ``Tree`` and the one base ``TreeClassifier`` (apply, predict,
  predict_proba, export_text, n_leaves_, depth_, parameter checks) they all share
"""
from __future__ import annotations

from .._lazy import load_export as _load_export

_EXPORTS = {
    "DecisionTree": "gini",
    "ReconstructionTree": "reconstruction_tree",
    "ID3": "id3",
    "RRID3": "id3",
    "estimate_accuracy": "id3",
    "C45": "c45",
    "PPDTC45": "c45",
    "make_classifier": "as2000",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    return _load_export(globals(), __name__, _EXPORTS, name)


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
