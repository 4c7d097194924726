"""The package uses matplotlib through its public API only: no private attribute of a matplotlib
object is read, set or overridden anywhere in ``ppdm_edu`` (a matplotlib release may rename or
drop any of them without notice)."""
from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
# the animation made to list its attributes is never rendered (matplotlib warns when it goes)
pytestmark = pytest.mark.filterwarnings("ignore:Animation was deleted without rendering")

PACKAGE = Path(__file__).resolve().parents[1] / "ppdm_edu"
# the modules whose classes a figure, a panel or an animation is made of
_MPL_MODULES = ("matplotlib.figure", "matplotlib.axes", "matplotlib.axis", "matplotlib.artist",
                "matplotlib.animation", "matplotlib.text", "matplotlib.lines", "matplotlib.patches",
                "matplotlib.collections", "matplotlib.container", "matplotlib.legend",
                "matplotlib.transforms", "matplotlib.image", "matplotlib.colorbar",
                "matplotlib.backend_bases", "matplotlib.backends.backend_agg", "matplotlib.spines",
                "matplotlib.ticker", "matplotlib.scale")


def matplotlib_private_names() -> set[str]:
    """Every ``_name`` (not ``__dunder__``) a matplotlib class or a matplotlib object has."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names: set[str] = set()
    for module_name in _MPL_MODULES:
        module = importlib.import_module(module_name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__.startswith("matplotlib"):
                names.update(n for n in dir(cls) if n.startswith("_") and not n.startswith("__"))
    # instance attributes, set in __init__ and at draw time
    fig = Figure()
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1])
    ax.errorbar([0, 1], [0, 1], yerr=[0.1, 0.1])
    ax.set_title("t")
    fig.suptitle("s")
    fig.colorbar(ax.imshow([[0, 1]]), ax=ax)
    ax.legend(["a"])
    fig.canvas.draw()
    from matplotlib.animation import FuncAnimation

    animation = FuncAnimation(fig, lambda i: (), frames=[0], cache_frame_data=False)
    objects = [animation, fig, *fig.axes, ax.xaxis, ax.yaxis, ax.title, *ax.lines, *ax.collections, *ax.containers,
               *ax.images, ax.get_legend(), fig.canvas, *ax.spines.values(), *ax.xaxis.get_major_ticks()]
    for obj in objects:
        names.update(n for n in vars(obj) if n.startswith("_") and not n.startswith("__"))
    return names


def _matplotlib_names(tree: ast.Module) -> set[str]:
    """Names a module binds to matplotlib: ``from matplotlib.x import Y`` and ``import matplotlib``."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("matplotlib"):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names if a.name.startswith("matplotlib"))
    return names


def _base_names(cls: ast.ClassDef) -> set[str]:
    out = set()
    for base in cls.bases:
        while isinstance(base, ast.Attribute):
            base = base.value
        if isinstance(base, ast.Name):
            out.add(base.id)
    return out


def own_names(sources: list[str]) -> set[str]:
    """Private names the package defines on its own objects: ``self._x = ...`` and ``def _x``
    or ``_x = ...`` in a class that does not derive from a matplotlib class."""
    own = set()
    for source in sources:
        tree = ast.parse(source)
        mpl = _matplotlib_names(tree)
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            if _base_names(cls) & mpl:
                continue
            for node in ast.walk(cls):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    own.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                        isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}:
                    own.add(node.attr)
                elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    own.update(t.id for t in targets if isinstance(t, ast.Name))
    return own


def private_uses(source: str, private: set[str], own: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """(line, name) of every ``obj._name`` read or set with a matplotlib private name that is not
    one of the package's ``own`` names, and every matplotlib private method overridden in a
    subclass of a matplotlib class (there ``self`` is a matplotlib object: nothing is own)."""
    tree = ast.parse(source)
    mpl = _matplotlib_names(tree)
    found = []
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and _base_names(n) & mpl):
        for node in ast.walk(cls):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in private:
                found.append((node.lineno, f"def {node.name} (override)"))
            elif isinstance(node, ast.Attribute) and node.attr in private:
                found.append((node.lineno, f".{node.attr}"))
    foreign = private - own
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in foreign:
            found.append((node.lineno, f".{node.attr}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in {"getattr", "setattr", "hasattr", "delattr"} and len(node.args) >= 2 and \
                isinstance(node.args[1], ast.Constant) and node.args[1].value in foreign:
            found.append((node.lineno, f"{node.func.id}(..., {node.args[1].value!r})"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in foreign:
            found.append((node.lineno, repr(node.value)))  # vars(axis)["_x"], "_x" in vars(...)
    return sorted(set(found))


@pytest.fixture(scope="module")
def private():
    # IPython's display protocol (_repr_html_, _ipython_display_) is public, not matplotlib's
    return {n for n in matplotlib_private_names() if not n.endswith("_")}


def test_the_list_knows_the_internals_once_used():
    names = matplotlib_private_names()
    for name in ("_get_ticklabel_bboxes", "_get_tick_boxes_siblings", "_align_label_groups",
                 "_get_axis_name", "_draw_frame", "_fig", "_suptitle", "_colorbar", "_autolabelpos"):
        assert name in names, name


def test_the_check_finds_each_kind_of_use(private):
    source = ("from matplotlib.animation import FuncAnimation\n"
              "class A(FuncAnimation):\n    def _draw_frame(self, d):\n        return self._fig\n"
              "axis._get_tick_boxes_siblings = f\n"
              "hasattr(ax, '_colorbar')\n"
              "'_get_ticklabel_bboxes' in vars(axis)\n")
    assert sorted({line for line, _ in private_uses(source, private)}) == [3, 4, 5, 6, 7]


def test_no_private_matplotlib_name_in_the_package(private):
    paths = sorted(PACKAGE.rglob("*.py"))
    own = frozenset(own_names([p.read_text(encoding="utf-8") for p in paths]))
    offenders = []
    for path in paths:
        for line, what in private_uses(path.read_text(encoding="utf-8"), private, own):
            offenders.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {what}")
    assert not offenders, "\n".join(offenders)


def test_the_animation_player_names_each_frame_by_what_it_draws():
    """Each frame's alt text is read off the figure once the frame function has drawn it (a
    wrapped frame function, no matplotlib internals): one per frame, each with its own numbers."""
    import json
    import re

    import numpy as np

    from ppdm_edu.plots.reconstruction import animate_reconstruction
    from ppdm_edu.randomization import GaussianNoise
    from ppdm_edu.reconstruction import reconstruct

    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, 2_000)
    w = x + GaussianNoise(0.25).sample(x.size, rng=rng)
    rec = reconstruct(w, GaussianNoise(0.25), bounds=(0, 1), n_intervals=20, keep_history=True)
    html = animate_reconstruction(rec, x, w, frames=[0, 1]).to_jshtml()
    alts = json.loads(re.search(r"var alts = (\[.*?\]);", html)[1])
    assert [a.split(":")[0] for a in alts] == [f"Animation, frame {k} of 2" for k in (1, 2)]
    assert alts[0].split(":", 1)[1] != alts[1].split(":", 1)[1]  # each frame described apart
