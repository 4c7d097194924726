"""numpydoc validation of the public API.

The public API is everything a user reaches without a leading underscore: the names exported by
``ppdm_edu`` and by every public submodule (its ``__all__``), and the public methods and
properties that those classes define. The list is computed, so a new public function is checked
the day it is added.

Checks (numpydoc codes; a small set about *content*, not typography):

- GL08  the object has a docstring
- GL06  no unknown section (catches "Return" for "Returns", "Example" for "Examples")
- SS01  a one-line summary opens the docstring
- PR01  every parameter of the signature is documented
- PR02  no documented parameter that the signature does not have
- PR04  every documented parameter has a type (``name : type``)
- PR07  every documented parameter has a description
- RT01  a function that returns a value has a Returns section
- RT03  every return value has a description
- YD01  a generator has a Yields section

Exclusions (all listed here, each with its reason):

- objects defined outside ``ppdm_edu`` (re-exported numpy/scikit-learn names) and methods
  inherited from scikit-learn, ipywidgets or the standard library: documented upstream;
- a method or property without a docstring of its own that overrides one of a ppdm_edu base
  class: it inherits that documentation (as Sphinx shows it), which is checked at the base
  (e.g. the panel hooks ``build_controls``/``compute``/``draw``/``summary`` on
  ``widgets.panel.Panel``);
- constants and other non-callable module attributes (``__version__``, palettes, tables):
  numpydoc validates callables and classes;
- ``EXCLUDED_CHECKS`` below: per object, the check and the reason.

Every other public object must pass: there is no list of exceptions (the documentation debt that
once was one was paid off in full).
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
import warnings

import pytest

import ppdm_edu

numpydoc_validate = pytest.importorskip("numpydoc.validate")

CHECKS = ("GL06", "GL08", "SS01", "PR01", "PR02", "PR04", "PR07", "RT01", "RT03", "YD01")

# "module.Qualified.name" -> {check: reason}
EXCLUDED_CHECKS: dict[str, dict[str, str]] = {}


def public_modules() -> list[str]:
    """``ppdm_edu`` and every submodule without a leading underscore in its dotted name."""
    names = ["ppdm_edu"]
    for info in pkgutil.walk_packages(ppdm_edu.__path__, prefix="ppdm_edu."):
        parts = info.name.split(".")
        if not any(p.startswith("_") for p in parts):
            names.append(info.name)
    return sorted(names)


def _public_names(module) -> list[str]:
    if hasattr(module, "__all__"):
        return list(module.__all__)
    # a module without __all__: its own public definitions (reported by the test below)
    return [name for name, obj in vars(module).items()
            if not name.startswith("_") and getattr(obj, "__module__", None) == module.__name__]


def _defined_in_ppdm_edu(obj) -> bool:
    return (getattr(obj, "__module__", "") or "").split(".")[0] == "ppdm_edu"


def _dotted(obj) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def public_objects() -> dict[str, object]:
    """Dotted path -> object, for every public function, class, method and property."""
    found: dict[str, object] = {}
    classes = []
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in _public_names(module):
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not (inspect.isclass(obj) or callable(obj)):
                continue
            if not _defined_in_ppdm_edu(obj) or not hasattr(obj, "__qualname__"):
                continue
            found[_dotted(obj)] = obj
            if inspect.isclass(obj):
                classes.append(obj)
    # methods and properties, at the ppdm_edu class that defines them (a base class's method is
    # checked once, even when seven estimators inherit it)
    for cls in classes:
        mro = inspect.getmro(cls)
        for i, owner in enumerate(mro):
            if not _defined_in_ppdm_edu(owner):
                continue
            for name, member in vars(owner).items():
                if name.startswith("_"):
                    continue
                doc = getattr(getattr(member, "__func__", member), "__doc__", None)
                if not doc and any(name in vars(base) for base in mro[i + 1:]
                                   if _defined_in_ppdm_edu(base)):
                    continue  # inherits the documentation of the method it overrides
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if inspect.isfunction(member):
                    found[f"{_dotted(owner)}.{name}"] = member
                elif isinstance(member, property):
                    found[f"{_dotted(owner)}.{name}"] = member
    return dict(sorted(found.items()))


def docstring_errors(path: str, obj) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpydoc warns on unknown sections: GL06 reports them
        result = numpydoc_validate.validate(path)
    excluded = EXCLUDED_CHECKS.get(path, {})
    errors = [f"{code} {msg}" for code, msg in result["errors"]
              if code in CHECKS and code not in excluded]
    if inspect.isclass(obj) and dataclasses.is_dataclass(obj):
        # A result dataclass documents its fields under "Attributes" (as scipy's result objects
        # do); numpydoc's PR01/PR02 read the generated __init__, so check the fields here instead.
        errors = [e for e in errors if not e.startswith(("PR01", "PR02"))]
        doc = inspect.getdoc(obj) or ""
        documented = set(re.findall(r"^(\w+)\s*:", doc, re.M))
        missing = [f.name for f in dataclasses.fields(obj) if f.init and f.name not in documented]
        if missing:
            errors.append(f"PR01 fields {missing} not documented (Attributes or Parameters)")
    return errors


PUBLIC = public_objects()


def test_the_public_api_is_found():
    # the sweep cannot silently check nothing: the core names are in it
    for name in ("ppdm_edu.randomization.perturb", "ppdm_edu.reconstruction.reconstruct",
                 "ppdm_edu.randomized_response.warner_estimate"):
        assert name in PUBLIC, name
    assert len(PUBLIC) > 100, len(PUBLIC)


@pytest.mark.parametrize("module_name", public_modules())
def test_public_module_declares_all(module_name):
    module = importlib.import_module(module_name)
    assert hasattr(module, "__all__"), f"{module_name} has no __all__ (its public API is implicit)"
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert not missing, f"{module_name}.__all__ lists names it does not define: {missing}"


@pytest.mark.parametrize("path", list(PUBLIC))
def test_public_docstring(path):
    errors = docstring_errors(path, PUBLIC[path])
    assert not errors, f"{path}:\n  " + "\n  ".join(errors)
