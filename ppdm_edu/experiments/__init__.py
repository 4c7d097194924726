"""Paper reproductions, also available as ``python -m ppdm_edu reproduce NAME [--quick|--full]``.

Each module reproduces one paper's results and exposes
``reproduce(mode, out_dir, seed) -> report.Reproduction``.
"""
from __future__ import annotations

import importlib

from .._lazy import load_export as _load_export

# CLI name -> module (kept in the order `reproduce all` runs them)
REPRODUCTIONS = {
    "as2000-reconstruction": "as2000_reconstruction",  # Agrawal & Srikant Fig. 2
    "as2000": "as2000_trees",  # Agrawal & Srikant Fig. 5, 6
    "du-zhan": "du_zhan",  # Du & Zhan Fig. 2
    "liu": "liu",  # Liu, Kantarcioglu & Thuraisingham Tables 1, 4, 5, 7, Fig. 1-2
    "tradeoff": "tradeoff",  # every local randomizer vs central Laplace, error against epsilon
    "reconstruction-attack": "reconstruction_attack",  # Dinur & Nissim 2003: bits from noisy subset sums
}

_EXPORTS = {
    "as2000_accuracy": "as2000_trees",
    "rr_theta_sweep": "du_zhan",
}

__all__ = ["REPRODUCTIONS", "load", *_EXPORTS]


def load(name: str):
    """The reproduction module behind a CLI name of ``python -m ppdm_edu reproduce``.

    Parameters
    ----------
    name : str
        A key of ``REPRODUCTIONS``: ``"as2000-reconstruction"`` (Agrawal & Srikant 2000,
        Fig. 2), ``"as2000"`` (Fig. 5, 6), ``"du-zhan"`` (Du & Zhan 2003, Fig. 2) or ``"liu"``
        (Liu, Kantarcioglu & Thuraisingham 2008). ``"all"`` is handled by the CLI, not here.

    Returns
    -------
    module
        The imported module; its ``reproduce(mode, out_dir, seed)`` returns a
        :class:`~ppdm_edu.experiments.report.Reproduction`.

    Raises
    ------
    ValueError
        If `name` is not a known reproduction.

    Examples
    --------
    >>> load("du-zhan").__name__
    'ppdm_edu.experiments.du_zhan'
    """
    if not isinstance(name, str) or name not in REPRODUCTIONS:
        raise ValueError(f"name must be a reproduction, got {name!r}; choose from: {', '.join(REPRODUCTIONS)} "
                         "('all' is the command line's)")
    return importlib.import_module(f".{REPRODUCTIONS[name]}", __name__)


def __getattr__(name: str):
    return _load_export(globals(), __name__, _EXPORTS, name)
