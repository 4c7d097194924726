"""The "write it yourself" exercises: the student writes a function in numpy, and ``check`` tests
the FUNCTION on hidden inputs and seeds (not a number it printed).

Each exercise here has a judge that calls the student's function on inputs the notebook never
shows, with seeds drawn by the checker, and names what is wrong (biased, the wrong θ, not a
distribution ...) without giving the code. The reference implementations are kept as source text
(:data:`REFERENCE_SOURCES`) for ``make solutions``, which puts them in place of the skeleton.
"""
from __future__ import annotations

__all__ = ["REFERENCE_SOURCES"]

REFERENCE_SOURCES: dict[str, str] = {}
