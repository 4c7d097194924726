"""The notebooks' setup (``ppdm_edu.lecture``: styles, lecture mode, the inline figures' alt
text) sits above the plots: it imports ``ppdm_edu.plots`` (the palette, ``plots.alt_text``) and
nothing in ``plots`` imports it, so the arrow between them points down."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ppdm_edu"


def _imports_lecture(path: Path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [a.name for a in node.names]
            if (node.level and (module == "lecture" or (not module and "lecture" in names))) or \
                    module == "ppdm_edu.lecture" or (module == "ppdm_edu" and "lecture" in names):
                lines.append(node.lineno)
        elif isinstance(node, ast.Import) and any(a.name == "ppdm_edu.lecture" for a in node.names):
            lines.append(node.lineno)
    return lines


def test_no_plot_module_imports_the_lecture_setup():
    offenders = [f"{p.relative_to(PACKAGE.parent)}:{line}" for p in sorted((PACKAGE / "plots").rglob("*.py"))
                 for line in _imports_lecture(p)]
    assert not offenders, offenders


def test_the_check_sees_an_import_of_lecture(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def f():\n    from ..lecture import OKABE_ITO\n", encoding="utf-8")
    assert _imports_lecture(path) == [2]


def test_the_palette_is_the_styles_colour_cycle():
    from ppdm_edu.lecture import OKABE_ITO as from_lecture
    from ppdm_edu.plots.palette import OKABE_ITO

    assert from_lecture is OKABE_ITO
