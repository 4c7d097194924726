"""Reading the course's prose against its outputs: the helpers of ``test_typed_numbers.py`` and
``test_claims.py`` (a plain module on pytest's ``pythonpath``, not a test file).

A notebook is cut into **sections** by its markdown headings: a heading of level h opens a section
that runs to the next heading of level h or higher, so a section holds its subsections; the title
(``#``) opens the front matter, which ends at the first ``##``. Markdown text belongs to the
innermost section around it.

What a section **prints** is the text of its code cells' outputs: streams, and the text/plain,
text/html (tags removed), text/markdown and text/latex of results, and a panel stand-in's
read-out. Not printed: a figure (an output with an image: its text/plain and HTML are the alt
text and a base64 picture), a widget's repr, an error, and any text that the code cell itself
typed inside a string literal (``print("theory 0.766 sqrt(n)")`` prints a typed number, not a
computed one; the literal parts of an f-string count, its ``{fields}`` do not).

What a section **sets** are the numeric literals of its code cells (``n = 10_000``), outside
strings and comments: the prose may quote a setting exactly.
"""
from __future__ import annotations

import ast
import html
import re
import textwrap
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
GUIDE = ROOT / "notebooks" / "README.md"
README = ROOT / "README.md"

# a number as code prints it: 1,234.5 or 0.25 or 1.5e-05 (not part of a word: F2, data3, x2)
OUTPUT_NUMBER = re.compile(
    r"(?<![\w.])[-+−]?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w.]*\d)(\s?%)?")


# --------------------------------------------------------------------------------------------
# markdown


def blank(match: re.Match) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def strip_markdown(markdown: str) -> str:
    """Blank out what is not prose, keeping offsets: code, link targets, URLs, HTML tags and comments."""
    text = re.sub(r"```.*?```", blank, markdown, flags=re.S)
    text = re.sub(r"<!--.*?-->", blank, text, flags=re.S)
    text = re.sub(r"`[^`\n]*(?:\n[^`\n]+)?`", blank, text)      # inline code may wrap once
    text = re.sub(r"\]\([^)]*\)", blank, text)
    text = re.sub(r"https?://\S+", blank, text)
    text = re.sub(r"<[^>\n]+>", blank, text)
    return text.replace("{,}", ",  ")


ABBREVIATIONS = {"al", "Fig", "Figs", "Eq", "Eqs", "Sec", "pp", "p", "e.g", "i.e", "cf", "vs", "No", "ref", "ch"}


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences, list items and table rows of (stripped) markdown."""
    spans, start = [], 0
    for m in re.finditer(r"[.!?][\"”)]*(?=\s+[A-Z*$(\[_\"“])(?!\s+\([A-Z][^()]*?\b(?:19|20)\d\d[a-z]?,)|\n\s*\n|\n(?=\s*(?:[-*|>]|\d+\.|#)\s)|\n(?=#)", text):
        if m.group(0) == "." and text[:m.start()].split()[-1:] and \
                text[:m.start()].split()[-1].lstrip("(*_") in ABBREVIATIONS:
            continue
        spans.append((start, m.end()))
        start = m.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


HEADING = re.compile(r"^(#{1,6})\s+(.*)$", re.M)


def headings(markdown: str) -> list[tuple[int, int, str]]:
    """(offset, level, title) of the headings of a markdown text, outside code blocks."""
    fenced = strip_markdown(markdown)
    return [(m.start(), len(m.group(1)), markdown[m.start(2):m.end(2)].strip())
            for m in HEADING.finditer(fenced)]


# --------------------------------------------------------------------------------------------
# what code prints and sets


def _source_tree(source: str) -> ast.AST | None:
    try:
        return ast.parse(source)
    except SyntaxError:
        try:
            from IPython.core.inputtransformer2 import TransformerManager
            return ast.parse(TransformerManager().transform_cell(source))
        except (SyntaxError, ImportError):
            return None


def string_literal_parts(source: str) -> list[str]:
    """The text typed inside the string literals of `source` that holds a digit (f-strings: their
    literal parts), longest first."""
    tree = _source_tree(source)
    if tree is None:
        return []
    specs = {id(n) for node in ast.walk(tree) if isinstance(node, ast.FormattedValue) and node.format_spec
             for n in ast.walk(node.format_spec)}                  # ":.1%" formats, it prints nothing
    parts = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and id(node) not in specs
             and isinstance(node.value, str) and re.search(r"\d", node.value)}
    return sorted(parts, key=len, reverse=True)


def without_typed_text(text: str, parts: list[str]) -> str:
    """`text` with every verbatim occurrence of a typed string literal blanked out."""
    for part in parts:
        text = text.replace(part, " " * len(part))
    return text


# literals that lay out a figure or a printout, not the experiment: never quoted as a setting
LAYOUT_CALLS = {"round", "subplots", "figure", "set_size_inches", "tight_layout", "set_yticks", "set_xticks",
                "legend", "text", "annotate", "axvline", "axhline", "to_string", "head", "tail", "format"}
LAYOUT_KEYWORDS = {"figsize", "fontsize", "lw", "linewidth", "dpi", "width_ratios", "height_ratios", "ncol",
                   "loc", "markersize", "zorder", "decimals", "fontweight", "pad", "wrap", "bbox_to_anchor"}


def numeric_literals(source: str) -> list[Decimal]:
    """The numeric literals of `source` (``10_000``, ``0.25``, ``1e-4``): what the code sets --
    not the arguments that lay out a figure or a printout (``figsize=(8, 3)``, ``.round(3)``)."""
    tree = _source_tree(source)
    if tree is None:
        return []
    layout: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            parts = list(node.args) + [k.value for k in node.keywords] if name in LAYOUT_CALLS else \
                [k.value for k in node.keywords if k.arg in LAYOUT_KEYWORDS]
            for part in parts:
                layout.update(id(n) for n in ast.walk(part))
    out = []
    for node in ast.walk(tree):
        if id(node) in layout:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            out.append(Decimal(repr(node.value)) if isinstance(node.value, float) else Decimal(node.value))
    return out


def _number(node) -> Decimal | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return Decimal(repr(node.value)) if isinstance(node.value, float) else Decimal(node.value)
    return None


@lru_cache(maxsize=None)
def panel_settings(class_name: str) -> tuple[frozenset, tuple]:
    """The literals of a panel class's code and the grids of its sliders (``min=``, ``max=``,
    ``step=``): the values an instruction ("move privacy from 25 to 200") may name."""
    import importlib
    import inspect
    import pkgutil

    import ppdm_edu.widgets as package
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        cls = getattr(module, class_name, None)
        if inspect.isclass(cls):
            break
    else:
        return frozenset(), ()
    literals, grids = set(), []
    for klass in cls.__mro__:
        if not klass.__module__.startswith(package.__name__) or klass.__name__ == "Panel":
            continue
        tree = ast.parse(inspect.getsource(klass))
        for node in ast.walk(tree):
            value = _number(node)
            if value is not None:
                literals.add(value)
            if isinstance(node, ast.Call):
                bounds = {k.arg: _number(k.value) for k in node.keywords if k.arg in ("min", "max", "step")}
                if len(bounds) == 3 and None not in bounds.values() and bounds["step"] > 0:
                    grids.append(Grid(bounds["min"], bounds["max"], bounds["step"]))
    return frozenset(literals), tuple(grids)


@lru_cache(maxsize=None)
def exercise_settings(exercise_id: str) -> frozenset:
    """The literals of an exercise's code: its judge, reference and model answer, and the module
    constants they use (``RATIO_01_2 = 1.2``). The statement may quote them: the exercise the
    student solves is the one the checker checks."""
    import inspect

    from ppdm_edu.exercises import exercise_ids, get_exercise
    if exercise_id not in exercise_ids():
        return frozenset()
    exercise = get_exercise(exercise_id)
    literals = set()
    functions = [f for f in (exercise.judge, exercise.reference, exercise.model_answer) if f is not None]
    seen = set()
    while functions:                      # the exercise's functions and the module functions they call
        function = functions.pop()
        if function in seen:
            continue
        seen.add(function)
        source = textwrap.dedent(inspect.getsource(function))
        try:
            tree = ast.parse(source)
        except SyntaxError:                 # a lambda inside a call: its lines are not a statement
            code = re.sub(r"(['\"]).*?\1", " ", source)
            literals.update(Decimal(t.replace("_", "")) for t in re.findall(r"(?<![\w.])\d[\d_]*(?:\.\d+)?(?:e-?\d+)?", code))
            names = set(re.findall(r"[A-Za-z_]\w*", code))
        else:
            names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
            literals.update(v for n in ast.walk(tree) if (v := _number(n)) is not None)
        module = inspect.getmodule(function)
        for name in names:
            value = getattr(module, name, None)
            helper = inspect.unwrap(value) if callable(value) else None     # through lru_cache
            if inspect.isfunction(helper) and helper.__module__ == module.__name__ and function in (
                    exercise.judge, exercise.reference, exercise.model_answer):
                functions.append(helper)      # one level down: the helpers the judge calls
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                literals.add(Decimal(repr(value)) if isinstance(value, float) else Decimal(value))
            elif isinstance(value, tuple) and all(isinstance(v, (int, float)) for v in value):
                literals.update(Decimal(repr(v)) for v in value)
    return frozenset(literals)


def _html_text(markup: str) -> str:
    markup = re.sub(r"<(style|script)\b.*?</\1>", " ", markup, flags=re.S | re.I)
    markup = re.sub(r"<img\b[^>]*>", " ", markup, flags=re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def output_texts(cell) -> list[str]:
    """The text a code cell's outputs show a reader (see the module docstring)."""
    texts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            texts.append(out.get("text", ""))
            continue
        data = out.get("data", {})
        if not data or any(kind.startswith("image/") for kind in data) \
                or "application/vnd.jupyter.widget-view+json" in data:
            continue
        stand_in = data.get("application/vnd.ppdm-edu.panel-stand-in+json")
        if stand_in is not None:
            texts.append(_html_text(stand_in.get("readout", "")))
            continue
        for kind in ("text/markdown", "text/latex", "text/html", "text/plain"):
            if kind in data:
                value = data[kind] if isinstance(data[kind], str) else "".join(data[kind])
                texts.append(_html_text(value) if kind == "text/html" else value)
                break
    return texts


@dataclass(frozen=True)
class Number:
    """A printed number: its value and the quantum it was printed at (0.27 → 0.01; 1.5e5 → 1e4)."""

    value: Decimal
    quantum: Decimal
    percent: bool = False


def parse_number(token: str, percent: bool = False) -> Number | None:
    token = token.replace(",", "").replace("−", "-").lstrip("+-")
    try:
        value = Decimal(token)
    except InvalidOperation:
        return None
    return Number(abs(value), Decimal(1).scaleb(value.as_tuple().exponent), percent)


def printed_numbers(cell) -> list[Number]:
    """The numbers a code cell prints, without the ones its source typed in a string."""
    typed = string_literal_parts(cell.source)
    numbers = []
    for text in output_texts(cell):
        for m in OUTPUT_NUMBER.finditer(without_typed_text(text, typed)):
            number = parse_number(m.group(1), bool(m.group(2)))
            if number is not None and number.value < 10**12:     # seeds and hashes: never quoted
                numbers.append(number)
    return numbers


# --------------------------------------------------------------------------------------------
# matching a written number


@dataclass(frozen=True)
class Grid:
    """The values a slider can take: low, low + step, ..., high."""

    low: Decimal
    high: Decimal
    step: Decimal

    def __contains__(self, value: Decimal) -> bool:
        return self.low <= value <= self.high and ((value - self.low) / self.step) % 1 == 0


@dataclass
class Pool:
    """The numbers a piece of prose may quote: printed (at their precision) and set (exactly)."""

    printed: list[Number] = field(default_factory=list)
    settings: set[Decimal] = field(default_factory=set)
    grids: list[Grid] = field(default_factory=list)

    def __add__(self, other: Pool) -> Pool:
        return Pool(self.printed + other.printed, self.settings | other.settings, self.grids + other.grids)

    def sets(self, value: Decimal) -> bool:
        return value in self.settings or any(value in g for g in self.grids)

    def quotes(self, value: Decimal, quantum: Decimal, percent: bool) -> bool:
        """Does the prose's `value`, written to `quantum` (percent if `percent`), quote this pool?

        Printed: a printed number equal to `value` and printed to the same precision, or finer
        with only zeros beyond it (0.5 quotes a printed 0.5 or 0.500; 0.27 quotes neither a
        printed 0.269 nor 0.2700001); a percentage also quotes a printed fraction (44.2 % ←
        0.442). Set: a literal equal to `value` (or to value / 100 for a percentage).
        """
        if self.sets(value) or (percent and self.sets(value / 100)):
            return True
        for p in self.printed:
            scales = (1, 100) if percent and not p.percent else (1,)
            if any(p.quantum * scale <= quantum and p.value * scale == value for scale in scales):
                return True
        return False


# --------------------------------------------------------------------------------------------
# notebooks cut into sections


@dataclass
class Section:
    title: str
    level: int
    first_cell: int
    end_cell: int = 10**9
    parent: Section | None = None

    def contains(self, cell_index: int) -> bool:
        return self.first_cell <= cell_index < self.end_cell


@dataclass(frozen=True)
class Segment:
    """A piece of one markdown cell that lies in one section."""

    cell: int
    offset: int
    text: str
    section: Section


@dataclass
class Notebook:
    path: Path
    nb: object
    sections: list[Section]
    segments: list[Segment]

    @property
    def prefix(self) -> str:
        return self.path.name[:2]

    def pool(self, section: Section | None = None, before: int | None = None, panels: bool = True) -> Pool:
        """What the code cells of `section` (the whole notebook if None) print and set, up to
        cell `before` (excluded); with `panels`, also the values its panels' controls can take."""
        pool = Pool()
        for i, cell in enumerate(self.nb.cells):
            if before is not None and i >= before:
                break
            if cell.cell_type == "code" and (section is None or section.contains(i)):
                pool.printed += printed_numbers(cell)
                pool.settings.update(numeric_literals(cell.source))
                if panels and any("application/vnd.ppdm-edu.panel-stand-in+json" in o.get("data", {}) for o in cell.get("outputs", [])):
                    for name in re.findall(r"\b(\w+Panel)\(", cell.source):
                        literals, grids = panel_settings(name)
                        pool.settings.update(literals)
                        pool.grids += grids
        return pool

    def pool_for(self, segment: Segment) -> Pool:
        """What a piece of prose may quote: its section's outputs and settings up to the next
        markdown cell after it (prose discusses what was printed above it, or introduces the
        cells right below it)."""
        following = next((i for i in range(segment.cell + 1, len(self.nb.cells))
                          if self.nb.cells[i].cell_type == "markdown"), len(self.nb.cells))
        pool = self.pool(segment.section, before=following)
        exercise = self.exercise_of(segment)
        if exercise:
            pool.settings.update(exercise_settings(exercise))
        return pool

    def exercise_of(self, segment: Segment) -> str | None:
        """"NN.k" for the statement of exercise k (a cell starting "**k.") and what follows it in
        the Exercises section (its model answer), else None."""
        if not segment.section.title.startswith("Exercises"):
            return None
        for i in range(segment.cell, segment.section.first_cell - 1, -1):
            cell = self.nb.cells[i]
            m = re.match(r"\s*\*\*(\d+)\.", cell.source) if cell.cell_type == "markdown" else None
            if m:
                return f"{self.prefix}.{m.group(1)}"
        return None

    def section_numbered(self, number: str) -> Section | None:
        """The section whose heading starts with `number` ("## 3 · Table 1", "## 3. Fig. 2")."""
        for s in self.sections:
            if re.match(rf"{re.escape(number)}\s*[.·:]", s.title):
                return s
        return None


def read_notebook(path: Path) -> Notebook:
    nb = nbformat.read(path, as_version=4)
    sections: list[Section] = []
    stack: list[Section] = []
    segments: list[Segment] = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        marks = headings(cell.source)
        cuts = [0] + [offset for offset, _, _ in marks] + [len(cell.source)]
        if not stack and (not marks or marks[0][0] > 0):
            stack.append(Section("(before the first heading)", 2, i))
            sections.append(stack[-1])
        for j, (start, end) in enumerate(zip(cuts[:-1], cuts[1:])):
            if j > 0:
                _, level, title = marks[j - 1]
                level = max(level, 2)                 # the title opens the front matter only
                while stack and stack[-1].level >= level:
                    stack.pop().end_cell = i if start == 0 else i + 1
                section = Section(title, level, i, parent=stack[-1] if stack else None)
                stack.append(section)
                sections.append(section)
            if cell.source[start:end].strip():
                segments.append(Segment(i, start, cell.source[start:end], stack[-1]))
    return Notebook(path, nb, sections, segments)


@lru_cache(maxsize=None)
def notebook(prefix: str) -> Notebook:
    return read_notebook(next(p for p in NOTEBOOKS if p.name.startswith(prefix + "_")))
