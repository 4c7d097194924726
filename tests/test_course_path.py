"""One path to the end of the course: every place that lists or counts the notebooks agrees with
the site's "Notebooks" toctree (``site/index.md``, read by ``site/_course.py``), the one list both
``make site`` and ``make lite`` publish.

The places a learner or a lecturer meets the path: notebook 00 (its goals and its learning-path
table), notebook 07's map of the course, the README, the site's start page and the lecturer's
guide (one section per notebook, all before the answer key).
"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
         10: "ten", 11: "eleven", 12: "twelve"}
NUMBER = {w: n for n, w in WORDS.items()}


def _stems() -> list[str]:
    spec = importlib.util.spec_from_file_location("_course", ROOT / "site" / "_course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.course_stems()


STEMS = _stems()
IDS = [stem[:2] for stem in STEMS]          # "00", "01", ...


def _markdown(stem_prefix: str) -> list[str]:
    path = next((ROOT / "notebooks").glob(f"{stem_prefix}_*.ipynb"))
    return [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"]


def _texts() -> dict[str, str]:
    return {
        "README.md": (ROOT / "README.md").read_text(encoding="utf-8"),
        "notebooks/README.md (the lecturer's guide)": (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8"),
        "site/index.md": (ROOT / "site" / "index.md").read_text(encoding="utf-8"),
        "notebook 00": "\n\n".join(_markdown("00")),
        "notebook 07": "\n\n".join(_markdown("07")),
    }


def _table_ids(text: str, heading: str) -> list[str]:
    """The notebook numbers that open the rows of the first table after `heading`."""
    start = text.index(heading)
    rows = re.findall(r"^\|\s*(?:\*\*|\[)?(\d\d)\b", text[start:].split("\n\n#", 1)[0], flags=re.M)
    return rows


def test_the_toctree_lists_the_numbered_notebooks():
    committed = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert STEMS == committed
    assert IDS == [f"{i:02d}" for i in range(len(STEMS))]


@pytest.mark.parametrize("name", list(_texts()))
def test_every_count_of_the_notebooks_is_the_toctrees(name):
    text = _texts()[name]
    wrong = []
    for m in re.finditer(r"\b(\w+) (?:Jupyter )?notebooks\b", text, flags=re.I):
        word = m.group(1).lower()
        count = int(word) if word.isdigit() else NUMBER.get(word)
        if count is not None and count != len(STEMS):
            wrong.append(m.group(0))
    assert not wrong, f"{name} counts the notebooks as {wrong}; the site's toctree lists {len(STEMS)}"


@pytest.mark.parametrize("name", list(_texts()))
def test_every_range_of_notebooks_runs_to_the_last(name):
    text = _texts()[name]
    for m in re.finditer(r"notebooks\s+\(?(\d\d)[-–](\d\d)\b|\((\d\d)[-–](\d\d)\)", text):
        if "Prerequisites" in text[max(0, m.start() - 40):m.start()]:
            continue    # "Prerequisites: notebooks 01-03" names a part of the path, not all of it
        a, b, c, d = m.groups()
        first, last = (a, b) if a else (c, d)
        assert last == IDS[-1] and first in IDS[:2], \
            f"{name} names the notebooks {first}-{last}; the course runs {IDS[0]}-{IDS[-1]}"


def test_notebook_00_leads_through_every_notebook():
    text = "\n\n".join(_markdown("00"))
    assert f"the path through notebooks {IDS[1]}-{IDS[-1]}" in text
    assert _table_ids(text, "## The learning path") == IDS


def test_notebook_07s_map_of_the_course_lists_every_notebook():
    text = "\n\n".join(_markdown("07"))
    assert _table_ids(text, "A map of the course") == IDS


def test_the_sites_learning_path_lists_every_notebook():
    text = (ROOT / "site" / "index.md").read_text(encoding="utf-8")
    assert _table_ids(text, "## The learning path") == IDS


def test_the_guide_has_one_section_per_notebook_in_order_before_the_answer_key():
    text = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    sections = [h[:2] for h in headings if re.match(r"\d\d ·", h)]
    assert sections == IDS
    key = next(i for i, h in enumerate(headings) if h.startswith("Answer key"))
    last = max(i for i, h in enumerate(headings) if re.match(r"\d\d ·", h))
    assert last < key, "a notebook's section of the lecturer's guide sits after the answer key"


def test_the_readmes_table_lists_every_notebook():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert _table_ids(text, "## The notebooks") == IDS
