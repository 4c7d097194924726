"""Solution notebooks for lecturers: ``python site/solutions.py`` (what ``make solutions`` runs).

Writes ``solutions/NN_*.ipynb`` (git-ignored, never published: ``make site`` and ``make lite``
read ``notebooks/`` only): each course notebook with every checked exercise's ``answer = None``
replaced by the reference solution of ``ppdm_edu.exercises.reference_answer`` (computed with the
library, as the checker does), and after each quiz cell the right letters. Outputs are kept as
they are: run a solution notebook to see its check cells say *correct*.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # this checkout's ppdm_edu, not another installed copy

from ppdm_edu.exercises import EXERCISES, QUIZZES, reference_answer  # noqa: E402

sys.path.insert(0, str(REPO / "site"))
from _course import course_notebooks  # noqa: E402  (the course = the site's "Notebooks" list, 00 .. 08)

CHECK = re.compile(r'check\("(\d\d\.\d+)"')


def _plain(value):
    """The reference as plain Python literals (numpy scalars and arrays -> float/int/list)."""
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def solve(nb) -> int:
    """Fill the notebook's checked exercises in place; return how many were filled."""
    filled = 0
    for i, cell in enumerate(nb.cells[:-1]):
        nxt = nb.cells[i + 1]
        found = CHECK.findall(nxt.source) if nxt.cell_type == "code" else []
        if cell.cell_type != "code" or not found or not re.search(r"^answer = None", cell.source, re.M):
            continue
        ex = EXERCISES[found[0]]
        if ex.kind == "rubric":
            continue
        value = _plain(reference_answer(ex.id))
        cell.source = re.sub(r"^answer = None.*$", f"answer = {value!r}  # reference solution ({ex.tolerance})",
                             cell.source, count=1, flags=re.M)
        filled += 1
    for i, cell in reversed(list(enumerate(nb.cells))):
        match = re.search(r'quiz\("(\d\d)"\)', cell.source) if cell.cell_type == "code" else None
        if match:
            key = "; ".join(f"{q.id}: {q.answer}" for q in QUIZZES[match.group(1)])
            nb.cells.insert(i + 1, nbformat.v4.new_markdown_cell(f"**Quiz answers (lecturers):** {key}"))
    return filled


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "solutions", help="output folder (git-ignored)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in course_notebooks(REPO / "notebooks", build="make solutions"):
        nb = nbformat.read(path, as_version=4)
        n = solve(nb)
        nbformat.write(nb, args.out / path.name)
        print(f"{args.out.name}/{path.name}: {n} reference solutions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
