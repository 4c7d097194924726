"""Layers only point down (CONTRIBUTING: algorithms know nothing of widgets; widgets and exercises
never import ``experiments``), and the package's import graph has no cycle.

Both read the source (``ast``), not ``sys.modules``: an import inside a function counts as much as
one at the top, since it runs as soon as that function is called.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ppdm_edu._imports import imported_from, imports_in

PACKAGE = Path(__file__).resolve().parents[1] / "ppdm_edu"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str) -> set[str]:
    """Every ppdm_edu module ``name`` imports, anywhere in its body (``from . import x`` names x)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = imports_in(path.read_text(encoding="utf-8"), package)
    return {target for target in found if target in MODULES} - {name}


GRAPH = {name: _imports(name) for name in MODULES}


def _layer(name: str) -> str:
    return name.split(".")[1] if name.count(".") else ""


@pytest.mark.parametrize("lower", ["widgets", "exercises", "plots", "datasets", "trees"])
def test_nothing_below_the_reproductions_imports_experiments(lower):
    offenders = [f"{m} imports {t}" for m in GRAPH if _layer(m) == lower
                 for t in GRAPH[m] if _layer(t) == "experiments"]
    assert not offenders, "\n".join(offenders)


def test_only_the_cli_and_the_reproductions_import_experiments():
    allowed = {"experiments", "__main__"}
    offenders = [f"{m} imports {t}" for m in GRAPH if _layer(m) not in allowed and m != "ppdm_edu"
                 for t in GRAPH[m] if _layer(t) == "experiments"]
    assert not offenders, "\n".join(offenders)


def test_algorithms_know_nothing_of_widgets_plots_or_exercises():
    """The library (algorithms, data, trees) is the bottom layer: it imports no presentation layer."""
    # lecture is presentation too: matplotlib styles and the notebooks' display hooks (the alt
    # text of every inline figure comes from plots.alt_text)
    upper = {"widgets", "plots", "exercises", "experiments", "__main__", "lecture"}
    offenders = [f"{m} imports {t}" for m in GRAPH if _layer(m) not in upper and m != "ppdm_edu"
                 for t in GRAPH[m] if _layer(t) in upper]
    assert not offenders, "\n".join(offenders)


def test_the_checker_finds_an_import_of_experiments(tmp_path):
    """The walk sees an import inside a function, relative or absolute (else the tests above pass vacuously)."""
    assert "ppdm_edu.experiments.report" in _imports("ppdm_edu.__main__")
    assert any(_layer(t) == "experiments" for t in GRAPH["ppdm_edu.experiments.liu"])


def test_the_walker_resolves_relative_imports_and_leaves_out_what_it_cannot():
    source = "import a.b\ndef f():\n    from .. import c\n    from .d import e\nfrom .... import g\n"
    # in package p.q.r: ".." is p.q, ".d" is p.q.r.d; "...." climbs above p (Python refuses it)
    assert imports_in(source, "p.q.r") == {"a.b", "p.q", "p.q.c", "p.q.r.d", "p.q.r.d.e"}
    assert imports_in(source) == {"a.b"}  # no package: relative imports cannot be resolved
    statement = ast.parse("from .d import e").body[0]
    assert isinstance(statement, ast.ImportFrom)
    assert imported_from(statement, "p.q.r") == "p.q.r.d" and imported_from(statement) is None


def test_the_walker_can_keep_only_the_imports_that_run_on_import():
    """A function's body runs when it is called, an ``if TYPE_CHECKING:`` body never; the rest
    of the module (branches, ``try``, loops, class bodies) runs when it is imported."""
    source = ("import a\n"
              "if TYPE_CHECKING:\n    import b\nelse:\n    import c\n"
              "try:\n    import d\nexcept ImportError:\n    from e import f\n"
              "for _ in ():\n    import g\n"
              "class K:\n    import h\n    def m(self):\n        import i\n"
              "async def j():\n    from . import k\n")
    assert imports_in(source, "p", top_level_only=True) == {"a", "c", "d", "e", "e.f", "g", "h"}
    assert imports_in(source, "p") == {"a", "b", "c", "d", "e", "e.f", "g", "h", "i", "p", "p.k"}


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_import_graph_has_no_cycle():
    """No module imports one that imports it back, even through others or inside a function.

    A package's ``__init__`` is left out as a target when the importer is inside that package
    (``from . import x`` of a sibling goes through it, and every ``__init__`` here loads its
    submodules lazily, by name, not by import statement)."""
    graph = {m: {t for t in ts if not (MODULES[t].name == "__init__.py" and m.startswith(t + "."))}
             for m, ts in GRAPH.items()}
    assert not _cycles(graph), f"import cycles: {_cycles(graph)}"


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]

