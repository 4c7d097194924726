"""The modules a piece of Python source imports, read from its syntax tree (nothing is imported).

One walker for every place that needs the import graph without running the code: the tests of
who may import what (``tests/test_layers.py`` and its cycle test, ``tests/test_package.py``,
``tests/test_site.py``, ``tests/test_lecture_layers.py``, ``tests/test_reconstruction_exact.py``),
the list of packages the JupyterLite site must provide (``site/_lite_deps.py``) and the
fingerprint of the code a reproduction task runs (:mod:`ppdm_edu.experiments.tasks`). Every
import statement counts, wherever it is: one inside a function runs as soon as that function is
called. ``top_level_only=True`` asks for the exception ``tests/test_site.py`` needs: only the
imports that run when the module itself is imported (parallel and notebook-server machinery
must wait inside the function that needs it).
"""
from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = ["imported_from", "imports_in"]


def imports_in(source: str | bytes, package: str | None = None, *,
               top_level_only: bool = False) -> set[str]:
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
    top_level_only : bool, default False
        Keep only the imports that run when the module is imported: those at its top level,
        inside ``if``, ``try``, ``with``, loops and class bodies included, but not those inside
        a function (they run when it is called) nor under ``if TYPE_CHECKING:`` (it is False at
        run time: that block is read by type checkers only).

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
    >>> sorted(imports_in("import numpy\\ndef f():\\n    import joblib", top_level_only=True))
    ['numpy']
    """
    tree = ast.parse(source)
    found: set[str] = set()
    for node in _run_on_import(tree) if top_level_only else ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            origin = imported_from(node, package)
            if origin:
                found.add(origin)
                found.update(f"{origin}.{alias.name}" for alias in node.names)
    return found


def imported_from(node: ast.ImportFrom, package: str | None = None) -> str | None:
    """The absolute name of the module a ``from ... import ...`` statement imports from.

    A relative import of level k drops k - 1 trailing parts of ``package`` (the Python language
    reference, "The import statement": one leading dot is the current package, each further
    dot one package up).

    Parameters
    ----------
    node : ast.ImportFrom
        The statement, from a syntax tree (:func:`ast.parse`).
    package : str, optional
        The package of the module the statement is in, as for :func:`imports_in`.

    Returns
    -------
    str or None
        The dotted module name; None if the import is relative and ``package`` is not given or
        is too shallow for it.

    Examples
    --------
    >>> node = ast.parse("from .._validation import check_real").body[0]
    >>> imported_from(node, "ppdm_edu.trees")
    'ppdm_edu._validation'
    >>> imported_from(node) is None
    True
    """
    if node.level == 0:
        return node.module
    parts = package.split(".") if package else []
    if node.level > len(parts):
        return None
    base = ".".join(parts[:len(parts) - (node.level - 1)])
    return f"{base}.{node.module}" if node.module else base


def _run_on_import(tree: ast.Module) -> Iterator[ast.AST]:
    """The nodes of ``tree`` that run when the module is imported (see ``top_level_only``).

    A function's body is skipped (its decorators and default values do run, but they are
    expressions: no import statement can hide in them); so is the body of ``if TYPE_CHECKING:``,
    whose ``else`` branch is the one that runs.
    """
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
