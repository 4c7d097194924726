"""Lazy exports of a package (PEP 562): a name is imported from its module on first use.

``ppdm_edu``, ``ppdm_edu.trees`` and ``ppdm_edu.experiments`` keep ``import`` cheap this way (a
module's heavy imports are paid only when one of its names is used); their ``__getattr__`` calls
:func:`load_export`.
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping, MutableMapping
from typing import Any


def load_export(namespace: MutableMapping[str, Any], package: str, exports: Mapping[str, str],
                name: str) -> Any:
    """The object ``name`` from the module ``exports[name]`` of ``package``, cached in ``namespace``.

    Parameters
    ----------
    namespace : dict
        The package's ``globals()``: the object is stored there, so the next access does not
        come back here.
    package : str
        The package's ``__name__`` (the modules in ``exports`` are relative to it).
    exports : mapping of str to str
        ``{name: module}``: the package's lazily imported names.
    name : str
        The attribute asked for.

    Returns
    -------
    object
        The named object.

    Raises
    ------
    AttributeError
        If ``name`` is not in ``exports`` (the message is Python's own for a missing attribute).
    """
    if name not in exports:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{exports[name]}", package), name)
    namespace[name] = value
    return value
