"""The five tree algorithms of Agrawal & Srikant (2000), Section 5, by name.

Original and Randomized are the plain gini tree (:class:`~ppdm_edu.trees.DecisionTree`, trained
on the original or the perturbed records); Global, ByClass and Local are the reconstruction
trees (:class:`~ppdm_edu.trees.ReconstructionTree`, Sec. 4.2) on the Table 2 domains.
"""
from __future__ import annotations

import time

from ..datasets.synthetic import agrawal_bounds, agrawal_noise  # noqa: F401 (agrawal_noise: doctest)
from .gini import DecisionTree
from .reconstruction_tree import ReconstructionTree

__all__ = ["ALGORITHMS", "make_classifier", "train_and_score"]

#: The algorithm names of Sec. 5, in the order of the paper's figures.
ALGORITHMS = ("original", "randomized", "global", "byclass", "local")


def make_classifier(algorithm: str, noise: dict | None = None, local_min_records: int = 1000,
                    stop: str = "paper", random_state=None):
    """The estimator behind an algorithm name (``original`` and ``randomized`` are the same tree).

    ``stop`` and ``random_state`` go to the reconstruction trees (``stop="cross-validation"``:
    every reconstruction stops by held-out likelihood, beyond the paper).

    Parameters
    ----------
    algorithm : {"original", "randomized", "global", "byclass", "local"}
        One of the five algorithms of Sec. 5: Original and Randomized are the plain gini tree
        (trained on the original or the perturbed records); Global, ByClass and Local
        reconstruct the distributions once, per class, or per class at every large node
        (Sec. 4.2).
    noise : dict of str to Noise or None, default None
        The public noise of each perturbed attribute (e.g. :func:`agrawal_noise`); needed by
        the reconstruction trees, unused by Original and Randomized.
    local_min_records : int, default 1000
        Local only: reconstruct again at nodes with at least this many records.
    stop : {"paper", "cross-validation"}, default "paper"
        Stopping rule of every reconstruction: the paper's chi^2 rule (Sec. 3) or iterations
        chosen by held-out likelihood.
    random_state : None, int or numpy.random.Generator, default None
        Seed of the fold assignments when ``stop="cross-validation"``.

    Returns
    -------
    DecisionTree or ReconstructionTree
        An unfitted scikit-learn-style classifier; reconstruction trees use the Table 2
        domains (:func:`agrawal_bounds`) as bounds.

    Raises
    ------
    ValueError
        If `algorithm` is not one of the five names.

    Examples
    --------
    >>> type(make_classifier("randomized")).__name__
    'DecisionTree'
    >>> clf = make_classifier("byclass", agrawal_noise("uniform", 1.0))
    >>> type(clf).__name__, clf.mode
    ('ReconstructionTree', 'byclass')
    """
    if algorithm in ("original", "randomized"):
        return DecisionTree()
    if algorithm in ("global", "byclass", "local"):
        return ReconstructionTree(noise, mode=algorithm, bounds=agrawal_bounds(),
                                  local_min_records=local_min_records, stop=stop,
                                  random_state=random_state)
    raise ValueError(f"unknown algorithm {algorithm!r}; allowed: {', '.join(ALGORITHMS)}")


def train_and_score(clf, X, y, X_test, y_test) -> tuple[float, float, int]:
    """Train ``clf`` on ``(X, y)`` and score it on the test records: one point of Fig. 5 / 6.

    Sec. 5.1: every algorithm is trained on (perturbed) training records and tested on original
    test records. The reproduction (:func:`ppdm_edu.experiments.as2000_accuracy`) and notebook
    04's trees panel both run this step.

    Parameters
    ----------
    clf : estimator
        A tree of :func:`make_classifier` (``fit``, ``score`` and ``n_leaves_``).
    X, y : array-like
        Training records (original or perturbed) and their classes.
    X_test, y_test : array-like
        Test records and their classes.

    Returns
    -------
    accuracy : float
        Share of test records classified correctly.
    seconds : float
        Wall time of the training.
    n_leaves : int
        Leaves of the trained tree.

    Examples
    --------
    >>> import numpy as np
    >>> from ppdm_edu.datasets import agrawal
    >>> X, y = agrawal(2_000, 1, rng=np.random.default_rng(0))
    >>> Xt, yt = agrawal(500, 1, rng=np.random.default_rng(1))
    >>> accuracy, seconds, leaves = train_and_score(make_classifier("original"), X, y, Xt, yt)
    >>> accuracy > 0.95 and leaves >= 2
    True
    """
    start = time.perf_counter()
    clf.fit(X, y)
    seconds = time.perf_counter() - start
    return float(clf.score(X_test, y_test)), float(seconds), int(clf.n_leaves_)
