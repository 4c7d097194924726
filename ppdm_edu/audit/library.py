"""Auditing a maintained DP library's claim: OpenDP's discrete Laplace (geometric) mechanism.

The course's own audits check what the package implements. The same black-box audit checks a
library: OpenDP (Gaboardi, Hay, Vadhan et al.) builds a *measurement* whose privacy map states
the ε it spends for a given input distance. :func:`opendp_geometric` wraps OpenDP's
``make_geometric`` (noise on integers with scale ``sensitivity / ε``; the neighbour relation is
"the true value moves by at most ``sensitivity``") as a randomizer for
:func:`~ppdm_edu.audit.audit_epsilon`, together with the ε the caller claims and the ε OpenDP's
own map states. ``scale_factor`` builds a deliberately broken one: the caller still *claims* ε,
but the noise is ``scale_factor`` times what ε needs (the classic bug of a sensitivity or scale
computed wrong, as in diffprivlib #104).

OpenDP is an optional extra (``pip install -e '.[audit-lib]'`` in the checkout); it is imported only when a
function here is called. Its noise comes from the operating system's secure randomness: it
cannot be seeded, so the ``rng`` an audit passes is not used (the audit warns when given one) and
results vary between runs.

Examples
--------
>>> from ppdm_edu.audit import audit_epsilon
>>> lib = opendp_geometric(1.0)                                  # doctest: +SKIP
>>> audit_epsilon(lib.randomizer, 0, 1, trials=20_000).refutes(lib.claimed_epsilon)  # doctest: +SKIP
False
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .._validation import check_positive

__all__ = ["LibraryMechanism", "opendp_geometric", "opendp_available"]


@dataclass(frozen=True)
class LibraryMechanism:
    """A library's mechanism ready for the audit.

    Attributes
    ----------
    name : str
        What it is, in words.
    claimed_epsilon : float
        The ε the caller states for inputs ``sensitivity`` apart.
    library_epsilon : float
        The ε the library's own privacy map states for that input distance.
    sensitivity : float
        The input distance the claims are for (audit inputs 0 and ``sensitivity``).
    randomizer : callable
        ``(values, rng) -> outputs`` for :func:`~ppdm_edu.audit.audit_epsilon`. ``rng`` is not
        used (the library cannot be seeded): two runs with one seed differ, and an audit given
        an ``rng`` warns (the randomizer's ``ignores_rng`` says why).
    """

    name: str
    claimed_epsilon: float
    library_epsilon: float
    sensitivity: float
    randomizer: Callable


def opendp_available() -> bool:
    """Whether OpenDP can be imported (the optional extra ``audit-lib``).

    Returns
    -------
    bool
        True when ``import opendp`` works.
    """
    try:
        import opendp  # noqa: F401
    except ImportError:
        return False
    return True


def _opendp():
    try:
        import opendp.prelude as dp
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("auditing OpenDP needs the optional extra: pip install -e '.[audit-lib]' in the ppdm-edu checkout"
                          ) from err
    dp.enable_features("contrib")
    return dp


def opendp_geometric(epsilon: float, sensitivity: int = 1, scale_factor: float = 1.0) -> LibraryMechanism:
    """OpenDP's geometric (discrete Laplace) mechanism on an integer, claimed ε-DP.

    Parameters
    ----------
    epsilon : float
        The ε the caller claims, > 0.
    sensitivity : int, default 1
        How far neighbouring true values may be apart (≥ 1).
    scale_factor : float, default 1.0
        The noise scale is ``scale_factor * sensitivity / epsilon``: 1 is correct, below 1 is
        the deliberately broken mechanism (its true ε is ``epsilon / scale_factor``).

    Returns
    -------
    LibraryMechanism
        The claim, OpenDP's own ε for that scale and sensitivity, and the randomizer.

    Raises
    ------
    ImportError
        If OpenDP is not installed.
    TypeError, ValueError
        If an argument is not a positive number (``sensitivity``: a positive integer).

    Notes
    -----
    The randomizer draws its noise from OpenDP, which cannot be seeded: its ``rng`` argument is
    not used, two audits with one seed differ, and the audits warn when they are given an
    ``rng``. It takes whole numbers only (0.5 is refused, never truncated to 0).
    """
    epsilon = check_positive(epsilon, "epsilon")
    scale_factor = check_positive(scale_factor, "scale_factor")
    if isinstance(sensitivity, bool) or not isinstance(sensitivity, (int, np.integer)) or sensitivity < 1:
        raise ValueError(f"sensitivity must be a positive integer, got {sensitivity!r}")
    dp = _opendp()
    scale = scale_factor * int(sensitivity) / epsilon
    scalar = dp.m.make_geometric(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=scale)
    # the same noise on a vector: one call randomizes every run (each entry independently)
    vector = dp.m.make_geometric(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=scale)

    def randomizer(values, rng=None):
        v = np.asarray(values)
        if v.dtype.kind not in "biu":  # refuse 0.5 (int() would truncate it to 0) and non-numbers
            whole = np.isfinite(v) & (v == np.round(v)) if v.dtype.kind == "f" else np.zeros(v.shape, bool)
            if not whole.all():
                raise ValueError(f"OpenDP's geometric mechanism takes integer inputs (audit it on whole "
                                 f"numbers x0 and x1), got {v[~whole].ravel()[0].item()!r}")
        return np.asarray(vector([int(x) for x in v.ravel()]), dtype=np.int64)

    randomizer.ignores_rng = "OpenDP draws its noise from the operating system's secure randomness"  # type: ignore[attr-defined]

    return LibraryMechanism(name=f"OpenDP make_geometric, scale {scale:.4g}", claimed_epsilon=epsilon,
                            library_epsilon=float(scalar.map(int(sensitivity))),
                            sensitivity=float(sensitivity), randomizer=randomizer)
