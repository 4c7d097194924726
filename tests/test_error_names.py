"""Every ValueError/TypeError message names the parameter the caller wrote: the word before
"must" in ``raise ValueError("X must ...")``, and the name given to a ``check_*(value, "X")``
helper, is a parameter of the enclosing function (or of its class's ``__init__``).

Read from the source (AST), so every raise is checked, not only those a sweep reaches. The
modules of the command line's machinery are held to it here; ``mismatches()`` over the whole
package is what the report lists for the other modules.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "ppdm_edu"
OWNED = ["__main__.py", "experiments/__init__.py", "experiments/tasks.py", "experiments/outputs.py",
         "experiments/_checkpoints.py", "experiments/_backends.py",
         "experiments/reproduce_all.py", "experiments/shapes.py"]
_MUST = re.compile(r"^`?(-{0,2}[A-Za-z_][A-Za-z0-9_-]*)`? must\b")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _params(fn) -> set[str]:
    a = fn.args
    out = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    out.update(x.arg for x in (a.vararg, a.kwarg) if x is not None)
    return out - {"self", "cls"}


def _leading_text(node) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    return ""   # starts with a placeholder ("{name} must ..."): the caller's name, checked there


class _Scan(ast.NodeVisitor):
    def __init__(self, where: str):
        self.where, self.scopes, self.found = where, [], []

    def visit_ClassDef(self, node):
        init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        self.scopes.append((None, _params(init) if init else set()))
        self.generic_visit(node)
        self.scopes.pop()

    def visit_FunctionDef(self, node):
        self.scopes.append((node.name, _params(node)))
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def _known(self) -> set[str]:
        return set().union(*(names for _, names in self.scopes)) if self.scopes else set()

    def _function(self):
        return next((name for name, _ in reversed(self.scopes) if name is not None), None)

    def visit_Raise(self, node):
        exc = node.exc
        if (isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name) and exc.func.id in ("ValueError", "TypeError")
                and exc.args and self._function() not in (None, "__post_init__")):
            m = _MUST.match(_leading_text(exc.args[0]))
            if m and m.group(1).lstrip("-").replace("-", "_") not in self._known():
                self.found.append(f"{self.where}:{node.lineno} {self._function()}: message names "
                                  f"{m.group(1)!r}, parameters {sorted(self.scopes[-1][1])}")
        self.generic_visit(node)

    def visit_Call(self, node):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if (name.lstrip("_").startswith("check") and node.args and isinstance(node.args[0], ast.Name)
                and self._function() is not None):
            var = node.args[0].id
            labels = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)]
            labels += [k.value.value for k in node.keywords if k.arg == "name" and isinstance(k.value, ast.Constant)]
            for label in labels:
                if (isinstance(label, str) and _IDENT.fullmatch(label) and label != var
                        and var in self.scopes[-1][1]):
                    self.found.append(f"{self.where}:{node.lineno} {self._function()}: parameter {var!r} "
                                      f"is checked under the name {label!r}")
        self.generic_visit(node)


def mismatches(paths=None) -> list[str]:
    """Every message or check_* label that names another word than the parameter, per file."""
    out = []
    for path in sorted(paths or PACKAGE.rglob("*.py")):
        scan = _Scan(str(path.relative_to(PACKAGE.parent)))
        scan.visit(ast.parse(path.read_text(encoding="utf-8")))
        out += scan.found
    return out


@pytest.mark.parametrize("module", OWNED)
def test_messages_name_the_parameter_of_the_signature(module):
    assert mismatches([PACKAGE / module]) == []


def test_the_scan_finds_a_mismatch():
    source = ("def f(snr):\n    raise ValueError(f'snr_value must be positive, got {snr}')\n"
              "def g(X):\n    check_array(X, 'W')\n"
              "def h(n_jobs, name='n_jobs'):\n    raise ValueError(f'{name} must be an int')\n")
    scan = _Scan("example.py")
    scan.visit(ast.parse(source))
    assert len(scan.found) == 2 and "'snr_value'" in scan.found[0] and "'W'" in scan.found[1], scan.found


if __name__ == "__main__":   # the list for the report: python tests/test_error_names.py
    print("\n".join(mismatches()))
