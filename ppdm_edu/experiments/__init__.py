"""Paper reproductions, also available as ``python -m ppdm_edu reproduce NAME [--quick|--full]``.

Each module reproduces one paper's results and exposes
``reproduce(mode, out_dir, seed) -> report.Reproduction``.
"""
from __future__ import annotations

import importlib

# CLI name -> module (kept in the order `reproduce all` runs them)
REPRODUCTIONS = {
    "as2000-reconstruction": "as2000_reconstruction",  # Agrawal & Srikant Fig. 2
    "as2000": "as2000_trees",  # Agrawal & Srikant Fig. 5, 6
    "du-zhan": "du_zhan",  # Du & Zhan Fig. 2
    "liu": "liu",  # Liu, Kantarcioglu & Thuraisingham Tables 1, 4, 5, 7, Fig. 1-2
}

_EXPORTS = {
    "as2000_accuracy": "as2000_trees",
    "rr_theta_sweep": "du_zhan",
}

__all__ = ["REPRODUCTIONS", "load", *_EXPORTS]


def load(name: str):
    """The module behind a CLI name."""
    if name not in REPRODUCTIONS:
        raise ValueError(f"unknown reproduction {name!r}; choose from: all, {', '.join(REPRODUCTIONS)}")
    return importlib.import_module(f".{REPRODUCTIONS[name]}", __name__)


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ppdm_edu.experiments' has no attribute {name!r}")
