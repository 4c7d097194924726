"""One BLAS thread for small dense solves (private).

A least-squares solve with a few hundred unknowns gains nothing from BLAS threads, and on a
machine whose cores are busy (a shared JupyterHub, a loaded CI runner) OpenBLAS's spinning
threads make it tens of times slower (``benchmarks/reconstruction_attack.md``). Under Pyodide
there are no BLAS threads to limit.
"""
from __future__ import annotations

import contextlib
import sys

__all__ = ["one_blas_thread"]


def one_blas_thread():
    """A context manager in which BLAS runs on one thread, where that can be set (threadpoolctl).

    Returns
    -------
    contextlib.AbstractContextManager
        ``threadpoolctl.threadpool_limits(1, "blas")``, or a context that does nothing under
        Pyodide or without threadpoolctl.

    Examples
    --------
    >>> import numpy as np
    >>> with one_blas_thread():
    ...     float(np.linalg.lstsq(np.eye(2), np.ones(2), rcond=None)[0].sum())
    2.0
    """
    if sys.platform == "emscripten":
        return contextlib.nullcontext()
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a core dependency; kept for a trimmed install
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")
