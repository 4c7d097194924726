"""No number typed by hand: every number in the prose of notebooks 00-08 comes from the notebook's
own outputs, or is a paper's figure marked with its citation.

A number in a markdown cell passes when it is one of these (and only these):

1. **In the notebook's own outputs.** Printed text, a displayed table, a figure's text description
   (its alt text), or a glued value. It matches when an output number rounded to the prose's
   decimals equals it (``0.156`` quotes a printed ``0.1555``; ``0.15`` does not); a percentage
   ``44.2 %`` also matches a printed fraction ``0.4421``. Thousands separators and a minus sign
   are ignored.
   A setting quoted from the notebook's code also passes, but only exactly: "10,000 people"
   beside ``n = 10_000`` in a code cell (the code is what ran; change it and the prose fails).
2. **A paper's figure, cited.** The sentence (or table row) holds a citation of the form
   ``(Author YEAR, LOCATOR)``: authors as ``Name``, ``Name & Name`` or ``Name et al.``, a year,
   and where in the paper: ``§5.2``, ``Section 5.2``, ``Table 1``, ``Fig. 3``, ``Eq. 4``,
   ``p. 7``. Example: "within 5 points on F1 (Agrawal & Srikant 2000, §5.2)". Every number in
   that sentence is then read as the paper's.
3. **Structural, not a measurement:**
   - an integer from 0 to 10 (a count, a constant of a formula: "two coins", "1/(2θ − 1)");
   - a notebook or exercise number, written with its leading zero ("notebook 02", "02.3");
   - the number of a section, table, figure, equation, algorithm, function, page or reference
     after its name ("Section 4.1", "§4.2-5", "Table 1", "Fig. 5-6", "Eq. 13-23",
     "Functions 1-5", "pp. 439-450"), and a heading's or a list item's own number ("## 3.");
   - a year in a citation (after an author, a venue or an opening parenthesis: "Warner 1965",
     "SIGMOD 2000", "(2001)") or naming an era ("2000-era", "2000's");
   - anything inside inline code or a code block (what a student types, not a claim) and the
     targets of links.

Anything else is a typed number: print it in a code cell, or cite where it comes from.

The lecturer's guide (``notebooks/README.md``) follows the same rule: a number in a notebook's
section quotes that notebook's outputs; the session plan quotes the notebooks it schedules; any
other section quotes the generated measurement files it names (``benchmarks/*.md``).
Planned time (in the guide: "(60 min)", "90-minute", the plan's "minutes" column; in a notebook:
"Self-study time: about 60 minutes") is a plan, not a measurement, and is allowed there only.
"""
from __future__ import annotations

import re
from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal
from functools import lru_cache
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[0-8]_*.ipynb"))
GUIDE = ROOT / "notebooks" / "README.md"

# a number in prose: optional sign, digits with optional thousands separators and decimals,
# not part of a word (F2, data3, x2), a version (3.9.0) or a longer number
PROSE_NUMBER = re.compile(
    r"(?<![\w.\-/^_{])(?<!\d,)([-−]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?=K\b|M\b|px\b|ms\b|×|\W|$)(?!\.\d)(\s?%)?")
OUTPUT_NUMBER = re.compile(r"(?<![\w.])[-+−]?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")
LOCATOR = (r"§\s?|Sections?\s|Sec\.\s?|Tables?\s|Figs?\.\s?|Figures?\s|Eqs?\.\s?|Equations?\s|"
           r"Algorithms?\s|Functions?\s|Theorem\s|Lemma\s|Definition\s|pp?\.\s?|ref\.\s|"
           r"Chapter\s|Step\s|Panel\s")
AUTHOR = r"[A-Z][\w'’-]+"
CITATION = re.compile(
    rf"\({AUTHOR}(?:(?:,| &| and) {AUTHOR})*(?: et al\.)?,? (?:19|20)\d\d[a-z]?, (?:{LOCATOR})[^)]*\)")
ABBREVIATIONS = {"al", "Fig", "Figs", "Eq", "Eqs", "Sec", "pp", "p", "e.g", "i.e", "cf", "vs", "No", "ref"}


def _number_list_after_locator(text: str) -> list[tuple[int, int]]:
    """Spans of "Section 4.1", "Tables 1, 4, 5, 7", "§4.2-5", "Sections 3 and 4.1"."""
    item = r"\d+(?:\.\d+)*(?:\([a-z]\))?"
    pattern = rf"(?:{LOCATOR}){item}(?:\s?(?:[-–,]|and|or|&)\s?{item})*"
    return [m.span() for m in re.finditer(pattern, text)]


def _strip(markdown: str) -> str:
    """Blank out what is not prose: code, link targets, HTML tags (keeping the offsets)."""
    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r"```.*?```", blank, markdown, flags=re.S)
    text = re.sub(r"`[^`\n]*`", blank, text)
    text = re.sub(r"\]\([^)]*\)", blank, text)
    text = re.sub(r"https?://\S+", blank, text)
    text = re.sub(r"<[^>\n]+>", blank, text)
    return text.replace("{,}", ",")


def _sentences(text: str) -> list[tuple[int, int]]:
    """Spans of sentences, list items and table rows."""
    spans, start = [], 0
    for m in re.finditer(r"[.!?](?=\s+[A-Z*$(\[_])|\n\s*\n|\n(?=\s*(?:[-*|]|\d+\.)\s)", text):
        if m.group(0) == "." and text[:m.start()].split()[-1:] and \
                text[:m.start()].split()[-1].lstrip("(*_") in ABBREVIATIONS:
            continue
        spans.append((start, m.end()))
        start = m.end()
    spans.append((start, len(text)))
    return spans


def _is_year(text: str, start: int, end: int) -> bool:
    token = text[start:end]
    if not re.fullmatch(r"(19\d\d|20[0-2]\d)[a-z]?", token):  # Clopper & Pearson 1934 to now
        return False
    before, after = text[max(0, start - 12):start], text[end:end + 5]
    return bool(re.search(r"(?:[A-Z][\w.’'-]*[,]?\s|\(|et al\.,?\s|year\s)$", before)
                or re.match(r"(?:-era|'s|’s)", after))


def numbers_in_outputs(nb) -> list[Decimal]:
    """Every number the notebook's code cells print or display (text, tables, alt texts)."""
    parts = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if "text" in out:
                parts.append(out["text"])
            for kind in ("text/plain", "text/html", "text/markdown", "text/latex"):
                data = out.get("data", {}).get(kind)
                if data:
                    parts.append(data if isinstance(data, str) else "".join(data))
    return [Decimal(m.group(1).replace(",", "")) for m in OUTPUT_NUMBER.finditer("\n".join(parts))]


def code_literals(nb) -> set[Decimal]:
    """The numeric literals of the notebook's code cells (``10_000``, ``0.25``): its settings."""
    source = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    return {Decimal(m.group(0).replace("_", ""))
            for m in re.finditer(r"(?<![\w.])\d[\d_]*(?:\.\d+)?(?![\w.])", source)}


class Printed:
    """The numbers a notebook shows, rounded on demand to the decimals a sentence uses."""

    def __init__(self, values, literals=()):
        self.values = [v for v in values if abs(v) < 10**12]   # seeds, hashes: not quoted in prose
        self.literals = set(literals)
        self._rounded: dict[tuple[int, int], set[Decimal]] = {}

    def rounded(self, decimals: int, scale: int) -> set[Decimal]:
        if (decimals, scale) not in self._rounded:
            step = Decimal(1).scaleb(-decimals)
            self._rounded[decimals, scale] = {
                (scale * v).quantize(step, rounding=mode)
                for v in self.values
                for mode in (ROUND_HALF_UP, ROUND_HALF_DOWN)}   # a printed 0.1555 may be 0.15549...
        return self._rounded[decimals, scale]

    def quotes(self, token: str, percent: bool = False) -> bool:
        value = Decimal(token)
        decimals = max(0, -value.as_tuple().exponent)
        return (value in self.literals or value in self.rounded(decimals, 1)
                or (percent and value in self.rounded(decimals, 100)))   # 44.2 % quotes 0.4421


def typed_numbers(markdown: str, printed, *, plan_minutes: bool = False) -> list[str]:
    """The numbers of `markdown` that pass none of the module docstring's rules, with context."""
    if not isinstance(printed, Printed):
        printed = Printed(Decimal(str(v)) for v in printed)
    text = _strip(markdown)
    sentences = _sentences(text)
    cited = [span for span in sentences if CITATION.search(text[span[0]:span[1]])]
    structural = _number_list_after_locator(text)
    bad = []
    for m in PROSE_NUMBER.finditer(text):
        start, end = m.start(2), m.end(2)
        token = m.group(2).replace(",", "")
        value = float(token)
        decimals = len(token.split(".")[1]) if "." in token else 0
        line_start = text.rfind("\n", 0, start) + 1
        if decimals == 0 and value <= 10:
            continue
        if re.match(r"0\d", token):
            continue                                     # notebook / exercise number
        if any(a <= start < b for a, b in structural + cited):
            continue
        if re.fullmatch(r"\s*(?:#+\s*)?(?:\*\*)?", text[line_start:start]) and \
                re.match(r"[.)]", text[end:end + 1]):
            continue                                     # a heading's or a list item's number
        if _is_year(text, start, end):
            continue
        planned = plan_minutes or any(a <= start < b and "Self-study time" in text[a:b] for a, b in sentences)
        if planned and re.match(r"(?:\s?[-–]\s?\d+)*\s?(?:min\b|minutes?\b|-minute)", text[end:end + 20]):
            continue
        if printed.quotes(token, percent=bool(m.group(3))):
            continue
        bad.append(f"{m.group(0).strip()!r} in …{' '.join(text[max(0, start - 50):end + 20].split())}…")
    return bad


@lru_cache(maxsize=None)
def _notebook(stem_prefix: str):
    path = next(p for p in NOTEBOOKS if p.name.startswith(stem_prefix + "_"))
    return nbformat.read(path, as_version=4)


def _violations(stem_prefix: str) -> list[str]:
    nb = _notebook(stem_prefix)
    printed = Printed(numbers_in_outputs(nb), code_literals(nb))
    bad = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            bad += [f"cell {i}: {b}" for b in typed_numbers(cell.source, printed)]
    return bad


@pytest.mark.parametrize("prefix", [p.name[:2] for p in NOTEBOOKS])
def test_every_number_in_the_prose_is_printed_or_cited(prefix):
    bad = _violations(prefix)
    assert not bad, f"notebook {prefix}: {len(bad)} typed numbers\n" + "\n".join(bad)


def _guide_sections() -> list[tuple[str | None, str]]:
    text = GUIDE.read_text(encoding="utf-8")
    parts = re.split(r"(?m)^(?=## )", text)
    out = []
    for part in parts:
        m = re.match(r"## (\d\d) ·", part)
        out.append((m.group(1) if m else None, part))
    return out


def _without_minutes_column(text: str) -> str:
    """Blank the cells of a table column headed "minutes": the session plan, not a measurement."""
    out, column = [], None
    for line in text.split("\n"):
        cells = line.split("|")
        if line.startswith("|") and any(c.strip() == "minutes" for c in cells):
            column = next(i for i, c in enumerate(cells) if c.strip() == "minutes")
        elif not line.startswith("|"):
            column = None
        elif column is not None and len(cells) > column and not set(cells[column].strip()) <= set("-: "):
            cells[column] = " " * len(cells[column])
        out.append("|".join(cells))
    return "\n".join(out)


def _cited_files(text: str) -> Printed:
    """The numbers of the generated files a section names (`benchmarks/browser_panel_latency.md`)."""
    values = []
    for name in re.findall(r"`((?:benchmarks|reports)/[\w./-]+\.md)`", text):
        path = ROOT / name
        if path.is_file():
            values += [Decimal(m.group(1).replace(",", ""))
                       for m in OUTPUT_NUMBER.finditer(path.read_text(encoding="utf-8"))]
    return Printed(values)


def test_the_lecturers_guide_quotes_the_notebooks():
    """A notebook's section quotes that notebook; the session plan quotes the notebooks it
    schedules; any other section quotes the generated files it names. Minutes are the plan."""
    everything = Printed(v for p in NOTEBOOKS for v in numbers_in_outputs(_notebook(p.name[:2])))
    bad = []
    for prefix, part in _guide_sections():
        if prefix:
            printed = Printed(numbers_in_outputs(_notebook(prefix)))
        elif part.startswith("## A two-week plan"):
            printed, part = everything, _without_minutes_column(part)
        else:
            printed = _cited_files(part)
        heading = part.partition("\n")[0]
        bad += [f"{heading}: {b}" for b in typed_numbers(part, printed, plan_minutes=True)]
    assert not bad, f"the lecturer's guide: {len(bad)} typed numbers\n" + "\n".join(bad)


def test_the_session_plans_minutes_column_is_the_only_one_exempt():
    table = "| session | minutes | homework |\n|---|---|---|\n| 1 | 15 + 60-75 | 12 of 30 |"
    assert "15" not in _without_minutes_column(table) and "12 of 30" in _without_minutes_column(table)


# The rules themselves, on small examples (each fails if its rule is dropped or loosened).

def test_a_number_is_quoted_only_at_its_printed_rounding():
    assert typed_numbers("the loss is 0.156", [0.1555]) == []
    assert typed_numbers("the loss is 0.15", [0.1555]) != []
    assert typed_numbers("accuracy 44.2 %", [0.4421]) == []
    assert typed_numbers("10,000 records", [10000.0]) == []
    assert typed_numbers("12,000 records", [10000.0]) != []


def test_a_cited_paper_figure_passes_only_with_its_locator():
    cited = "The paper reports 83.4 % (Liu et al. 2009, Table 4). We get more."
    assert typed_numbers(cited, []) == []
    assert typed_numbers("The paper reports 83.4 % (Liu et al. 2009).", []) != []
    assert typed_numbers("The paper reports 83.4 %. Elsewhere (Liu et al. 2009, Table 4).", []) != []


def test_structural_numbers_pass_and_measurements_do_not():
    assert typed_numbers("Section 4.2 and Tables 1, 4, 5, 7; Eq. 13-23; notebook 02, exercise 02.3", []) == []
    assert typed_numbers("Warner (1965) and SIGMOD 2000, the 2000-era schemes", []) == []
    assert typed_numbers("## 3. Fig. 2 reproduced\n\n1. first item", []) == []
    assert typed_numbers("call `reconstruct(w, max_iter=1000)`", []) == []
    assert typed_numbers("two coins, 1/(2θ − 1), 10 attributes", []) == []
    assert typed_numbers("it takes 2000 iterations", []) != []
    assert typed_numbers("the error is 0.07", []) != []
    assert typed_numbers("about 30 minutes", []) != []
    assert typed_numbers("about 30 minutes", [], plan_minutes=True) == []
    assert typed_numbers("*Self-study time:* about 45 minutes (an estimate).", []) == []
    assert typed_numbers("The run took about 45 minutes.", []) != []
