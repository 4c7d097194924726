"""The modules a piece of Python source imports, read from its syntax tree (nothing is imported).

One walker for the three places that need the import graph without running the code: the
layer and cycle tests (``tests/test_layers.py``), the list of packages the JupyterLite site must
provide (``site/_lite_deps.py``) and the fingerprint of the code a reproduction task runs
(:mod:`ppdm_edu.experiments.tasks`). Every import statement counts, wherever it is: one inside a
function runs as soon as that function is called.
"""
from __future__ import annotations

import ast

__all__ = ["imports_in"]


def imports_in(source: str | bytes, package: str | None = None) -> set[str]:
    """Every module name an import statement of ``source`` may load, relative imports made absolute.

    ``import a.b`` gives ``a.b``; ``from a import b`` gives ``a`` and ``a.b`` (``b`` may be a
    submodule or only a name defined in ``a``: a caller that knows the modules keeps the ones
    that exist). The packages above a module (``a`` for ``a.b``), which Python imports first,
    are not added.

    Parameters
    ----------
    source : str or bytes
        Python source code (a module's file, a notebook cell without its IPython magics).
    package : str, optional
        The package the source belongs to, against which relative imports are resolved (the
        importing module's ``__spec__.parent``: ``a.b`` for the module ``a.b.c`` and for the
        package ``a.b`` itself, whose source is ``a/b/__init__.py``). Without it, relative
        imports are left out; so is one that climbs above the top-level package (Python refuses
        it with an ImportError).

    Returns
    -------
    set of str
        Absolute dotted module names.

    Raises
    ------
    SyntaxError
        If ``source`` is not valid Python.

    Examples
    --------
    >>> sorted(imports_in("import numpy.linalg\\ndef f():\\n    from . import plots", "ppdm_edu"))
    ['numpy.linalg', 'ppdm_edu', 'ppdm_edu.plots']
    >>> sorted(imports_in("from ..randomization import Noise", "ppdm_edu.trees"))
    ['ppdm_edu.randomization', 'ppdm_edu.randomization.Noise']
    """
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            origin = _absolute(node, package)
            if origin:
                found.add(origin)
                found.update(f"{origin}.{alias.name}" for alias in node.names)
    return found


def _absolute(node: ast.ImportFrom, package: str | None) -> str | None:
    """The absolute name of the module ``node`` imports from (None: it cannot be resolved).

    A relative import of level k drops k - 1 trailing parts of ``package`` (the Python language
    reference, "The import statement": one leading dot is the current package, each further
    dot one package up).
    """
    if node.level == 0:
        return node.module
    parts = package.split(".") if package else []
    if node.level > len(parts):
        return None
    base = ".".join(parts[:len(parts) - (node.level - 1)])
    return f"{base}.{node.module}" if node.module else base
