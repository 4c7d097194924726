"""Solution notebooks for lecturers: ``python site/solutions.py`` (what ``make solutions`` runs).

Writes ``solutions/NN_*.ipynb`` (git-ignored, never published: ``make site`` and ``make lite``
read ``notebooks/`` only): each course notebook with

* every checked exercise's ``answer = None`` replaced by the reference solution of
  ``ppdm_edu.exercises.reference_answer``, rounded to the exercise's stated precision (as a
  student writes it down: 4.8, not 4.839414490382867; 2181 leaves, not 2181.0);
* every "write it yourself" exercise's function skeleton replaced by the reference
  implementation (``ppdm_edu.exercises._implementations``);
* after each check cell of an exercise with a "why" part or an open-ended one, the model answer
  (``Exercise.model_answer``), one paragraph per rubric item;
* after each quiz cell, the right answers;

and then EXECUTES each solution notebook (nbclient, the ``python3`` kernel of this environment, in
``notebooks/`` so relative paths hold), so every check cell shows its verdict (✔) instead of the
course notebook's stored "✘ not yet". A check cell that still says "not yet" is reported and
makes the run fail. ``--no-execute`` writes the filled notebooks without running them;
``--only 04`` (repeatable) limits the run to some notebooks.
"""
from __future__ import annotations

import argparse
import math
import numbers
import os
import re
import sys
import time
from pathlib import Path

import nbformat
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # this checkout's ppdm_edu, not another installed copy

from ppdm_edu.exercises import EXERCISES, QUIZZES, reference_answer  # noqa: E402
from ppdm_edu.exercises.checking import Precision, round_answer  # noqa: E402
from ppdm_edu.exercises.quizzes import RangeQuestion  # noqa: E402

sys.path.insert(0, str(REPO / "site"))
from _course import course_notebooks  # noqa: E402  (the course = the site's "Notebooks" list, 00 .. 08)

CHECK = re.compile(r'check\("(\d\d\.\d+)"')
IMPLEMENT = re.compile(r"^# (?:YOUR CODE|write it yourself).*$", re.M)


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


def _tidy(value, precision):
    """One rounded number as a student writes it: a whole number as an int unless the precision
    asks for decimals (5, 68, 2830; but 3.0 at 1 decimal), float noise removed."""
    if isinstance(value, (bool, str)) or not isinstance(value, numbers.Real) or isinstance(value, numbers.Integral):
        return value
    value = float(f"{value:.12g}")
    wants_decimals = isinstance(precision, Precision) and bool(precision.decimals)
    if math.isfinite(value) and value == int(value) and not wants_decimals:
        return int(value)
    return value


def written_answer(exercise_id: str):
    """The reference of a checked exercise rounded to its stated precision, as plain literals."""
    ex = EXERCISES[exercise_id]
    value = _plain(round_answer(_plain(reference_answer(exercise_id)), ex.precision))
    if isinstance(ex.precision, tuple) and isinstance(value, tuple):
        return tuple(_tidy(v, p) for v, p in zip(value, ex.precision))
    if isinstance(value, (tuple, list)):
        return type(value)(_tidy(v, ex.precision) for v in value)
    return _tidy(value, ex.precision)


def model_answer_markdown(exercise_id: str) -> str | None:
    """The lecturer's key to an exercise's unchecked part: each rubric item with its model answer."""
    ex = EXERCISES[exercise_id]
    if ex.model_answer is None:
        return None
    paragraphs = ex.model_answer()
    items = ex.rubric if len(ex.rubric) == len(paragraphs) else ("",) * len(paragraphs)
    lines = [f"**Model answer {ex.id} (lecturers).**", ""]
    for item, text in zip(items, paragraphs):
        lines += ([f"*{item}*", ""] if item else []) + [text, ""]
    return "\n".join(lines).rstrip()


def implementations_ids() -> list[str]:
    """The "write it yourself" exercises: their answer is a function, filled from its reference source."""
    from ppdm_edu.exercises import _implementations as implementations
    return sorted(implementations.REFERENCE_SOURCES)


def quiz_key(notebook: str) -> str:
    """The right answers of one notebook's quiz: letters, or the accepted range of a number."""
    parts = []
    for q in QUIZZES[notebook]:
        if isinstance(q, RangeQuestion):
            parts.append(f"{q.id}: {q.low:.{q.decimals}f}" + (f"–{q.high:.{q.decimals}f}" if q.high != q.low else ""))
        else:
            parts.append(f"{q.id}: {', '.join(q.answer)}")
    return "; ".join(parts)


def solve(nb) -> int:
    """Fill the notebook's exercises and keys in place; return how many answers were filled."""
    from ppdm_edu.exercises import _implementations as implementations
    filled = 0
    for i, cell in enumerate(nb.cells[:-1]):
        nxt = nb.cells[i + 1]
        found = CHECK.findall(nxt.source) if nxt.cell_type == "code" else []
        if cell.cell_type != "code" or not found:
            continue
        ex = EXERCISES[found[0]]
        if ex.kind == "rubric":
            continue
        if re.search(r"^answer = None", cell.source, re.M):
            value = written_answer(ex.id)
            cell.source = re.sub(r"^answer = None.*$", f"answer = {value!r}  # reference solution, {ex.precision_text or 'exact'}",
                                 cell.source, count=1, flags=re.M)
            filled += 1
        elif ex.id in implementations.REFERENCE_SOURCES:  # "write it yourself": the reference function
            cell.source = implementations.REFERENCE_SOURCES[ex.id]
            filled += 1
    # keys after their cells, from the end so the indices stay valid
    for i in reversed(range(len(nb.cells))):
        cell = nb.cells[i]
        if cell.cell_type != "code":
            continue
        match = re.search(r'quiz\("(\d\d)"\)', cell.source)
        if match and match.group(1) in QUIZZES:
            nb.cells.insert(i + 1, nbformat.v4.new_markdown_cell(
                f"**Quiz answers (lecturers):** {quiz_key(match.group(1))}"))
        found = CHECK.findall(cell.source)
        key = model_answer_markdown(found[0]) if found and found[0] in EXERCISES else None
        if key:
            nb.cells.insert(i + 1, nbformat.v4.new_markdown_cell(key))
    return filled


def verdicts(nb) -> dict[str, str]:
    """Each executed check cell's verdict: exercise id -> "correct", "not yet" or "rubric"."""
    out = {}
    for cell in nb.cells:
        found = CHECK.findall(cell.source) if cell.cell_type == "code" else []
        if not found:
            continue
        text = "".join(o.get("text", "") + "".join(str(v) for v in o.get("data", {}).values())
                       for o in cell.get("outputs", []))
        if "SELF-ASSESSMENT" in text:
            out[found[0]] = "rubric"
        elif "✔" in text or ": correct" in text:
            out[found[0]] = "correct"
        else:
            out[found[0]] = "not yet"
    return out


def execute(nb, timeout: int = 1800):
    """Run the notebook in place in notebooks/ with this checkout's ppdm_edu on the kernel's path."""
    from nbclient import NotebookClient
    os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(REPO / "notebooks")}}).execute()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "solutions", help="output folder (git-ignored)")
    parser.add_argument("--only", action="append", default=[], metavar="NN",
                        help="only this notebook (e.g. 04); repeat for several")
    parser.add_argument("--no-execute", action="store_true", help="fill in the answers, do not run the notebooks")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    paths = [p for p in course_notebooks(REPO / "notebooks", build="make solutions")
             if not args.only or p.name[:2] in args.only]
    if not paths:
        parser.error(f"--only {args.only}: no course notebook has that number")
    failed = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        n = solve(nb)
        line = f"{args.out.name}/{path.name}: {n} reference solutions"
        if not args.no_execute:
            start = time.monotonic()
            print(f"{line}; executing ...", flush=True)
            execute(nb)
            found = verdicts(nb)
            bad = sorted(i for i, v in found.items() if v == "not yet")
            failed += bad
            line = (f"{args.out.name}/{path.name}: {sum(v == 'correct' for v in found.values())} check cells ✔, "
                    f"{sum(v == 'rubric' for v in found.values())} self-assessment"
                    + (f", NOT YET: {', '.join(bad)}" if bad else "") + f" ({time.monotonic() - start:.0f} s)")
        nbformat.write(nb, args.out / path.name)
        print(line, flush=True)
    if failed:
        print(f"check cells that do not show ✔: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
