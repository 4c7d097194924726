"""Interactive panels for the notebooks: controls wired to the package's real algorithms.

One module per notebook topic; every panel is a :class:`~ppdm_edu.widgets.panel.Panel`.
:func:`all_panels` finds them all (the benchmarks drive each control of each panel headlessly).
"""
from __future__ import annotations

import importlib
import pkgutil

try:  # the panels need the [lab] extra; `pip install .` alone is the library
    import ipywidgets  # noqa: F401
except ModuleNotFoundError as err:
    if err.name != "ipywidgets":
        raise
    raise ModuleNotFoundError(
        "ppdm_edu.widgets needs ipywidgets, which comes with the notebooks' extra: "
        "pip install -e '.[lab]' in the ppdm-edu checkout, or make lab (the rest of ppdm_edu works without it)", name="ipywidgets"
    ) from None

from .panel import Panel  # noqa: E402

__all__ = ["Panel", "all_panels"]


def all_panels() -> dict[str, type[Panel]]:
    """Every concrete panel class in ``ppdm_edu.widgets``, keyed ``module.ClassName``.

    Imports every widgets module; private classes (leading underscore) and the base
    :class:`~ppdm_edu.widgets.panel.Panel` are left out.

    Returns
    -------
    dict
        ``{"module.ClassName": panel class}``, e.g. ``"trees.TreesPanel"``.
    """
    found: dict[str, type[Panel]] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name == "panel":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for obj in vars(module).values():
            if (isinstance(obj, type) and issubclass(obj, Panel) and obj is not Panel
                    and obj.__module__ == module.__name__ and not obj.__name__.startswith("_")):
                found[f"{info.name}.{obj.__name__}"] = obj
    return found
