"""The course's notebooks: ONE list, read by both ``make site`` and ``make lite`` (issue 30).

The list is the "Notebooks" toctree of ``site/index.md`` (the site's navigation, so a notebook
added there, e.g. 08, is published by both builds). Any other ``*.ipynb`` in ``notebooks/`` — a
``03_randomized_response-Copy1.ipynb`` from *File → Duplicate*, a lecturer's copy — is left out
of both builds with a printed note, instead of failing Sphinx (``toc.not_included`` under ``-W``)
or being published by JupyterLite.
"""
from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
INDEX = HERE / "index.md"


def course_stems(index: Path = INDEX) -> list[str]:
    """The notebook stems of the "Notebooks" toctree of ``index.md``, in order."""
    text = index.read_text(encoding="utf-8")
    block = re.search(r"```\{toctree\}\n(?:.*\n)*?:caption: Notebooks\n(?P<body>(?:.*\n)*?)```", text)
    if block is None:
        raise SystemExit(f"{index}: no toctree with ':caption: Notebooks' (the list of the course's notebooks)")
    return re.findall(r"^notebooks/([\w-]+)\s*$", block.group("body"), flags=re.M)


def course_notebooks(folder: Path, *, build: str, index: Path = INDEX) -> list[Path]:
    """The course's notebooks in ``folder``; a printed note names every other notebook left out.

    Parameters
    ----------
    folder : Path
        ``notebooks/``.
    build : str
        The build asking ("make site", "make lite"), named in the note.
    index : Path
        The page whose "Notebooks" toctree lists the course.

    Returns
    -------
    list of Path
        The listed notebooks that exist, in the toctree's order.
    """
    stems = course_stems(index)
    present = {p.stem: p for p in folder.glob("*.ipynb")}
    others = sorted(set(present) - set(stems))
    if others:
        print(f"{build}: not part of the course, left out: {', '.join(o + '.ipynb' for o in others)} "
              f"(the course is the 'Notebooks' list of site/index.md)")
    missing = [s for s in stems if s not in present]
    if missing:
        raise SystemExit(f"{build}: notebooks listed in site/index.md but missing from {folder}: {missing}")
    return [present[s] for s in stems]
