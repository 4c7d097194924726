"""No claim unchecked: every qualitative claim the prose makes about numbers (an error falls, one
mechanism beats another, a bound is tight, an outcome rare, a reproduction holds) is checked by
code that fails when the outputs say otherwise.

The one mechanism (``ppdm_edu.claims``; CONTRIBUTING.md, "Claims"):

* the code cell that prints the numbers calls ``claim("NN.short-name", "statement", holds=...,
  evidence=...)``, which prints ``✔ claim NN.short-name holds: ...`` (or ``✘ ... does NOT
  hold``); the cell starts with ``# NBVAL_CHECK_OUTPUT``, so running the notebook again under
  nbval fails when the verdict (or its evidence) changes;
* the sentence that makes the claim carries ``<!-- claim: NN.short-name -->`` (invisible on the
  page). A sentence of the guide or the README cites a notebook's claim the same way.

This file scans every sentence of the notebooks, the lecturer's guide and the README for the claim
vocabulary (``CLAIM_WORDS``). A sentence that uses it carries a marker: the name of a checked
claim, or, when the words make no claim about our numbers, a kind and a reason:

* ``<!-- claim: theory — … -->``: follows from a formula or a proof stated beside it;
* ``<!-- claim: paper — … -->``: the paper's claim, reported (with its citation), not ours;
* ``<!-- claim: definition — … -->``: the word defines or names something ("within the interval");
* ``<!-- claim: instruction — … -->`` / ``question``: tells the reader what to try, or asks;
* ``<!-- claim: measured — FILE … -->``: a verdict printed in a generated file the reason names
  (``benchmarks/….md``, ``reports/….md``), which must exist;
* ``<!-- claim: tested — FILE … -->``: a behaviour of the software (the README's engineering
  claims), checked by the test file the reason names (``tests/…``, ``ci/…``), which must exist.

The test fails on a sentence with claim words and no marker, on a marker without a reason, on a
marker naming a claim no code checks (or one whose committed output does not say it holds), on a
check that no sentence refers to, and on a claim cell that nbval would not check.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache

import pytest
from notebook_prose import GUIDE, NOTEBOOKS, README, ROOT, notebook, sentences, strip_markdown

from ppdm_edu.claims import NAME

CLAIM_WORDS = re.compile(r"\b(?:" + "|".join([
    # trends
    r"fall(?:s|ing)?(?! in)|fell|rise[sn]?|rising|grows?|growing|grew|shrinks?|shrinking|shrank|drops?|dropping",
    r"collapses?|explodes?|increases?|decreases?|flattens?|vanish(?:es)?",
    # comparisons
    r"beats?|outperforms?|better|worse|exceeds?|exceeding",
    r"(?:above|below)(?= (?:[-−+]?\d|the |its |their |that |what |zero|chance|half|one |a |\$))",
    r"(?:larger|smaller|higher|lower|wider|narrower|more|less|further) than|far (?:more|less|higher|lower|better|worse|below|above)",
    r"close to|closer|within|matche?s|agrees?|agreement|same as|about the same",
    # qualities
    r"tight(?:er|ly)?|loose(?:r|ly)?|rare(?:ly)?|common(?:ly)?|seldom",
    # verdicts
    r"refutes?|refuted|converge[sd]?|converging|reproduces?|reproduced|clears?|miss(?:es)?|fails?",
    r"unbiased|biased|consistent",
]) + r")\b", re.I)
MARKER = re.compile(r"<!--\s*claim:\s*(.*?)\s*-->", re.S)
KINDS = ("theory", "paper", "definition", "instruction", "question", "measured", "tested")
VERDICT = re.compile(r"^(✔|✘) claim (\S+) (holds|does NOT hold)", re.M)


def parse_marker(content: str) -> tuple[str, str]:
    """("claim", name) or (kind, reason); raises ValueError on a marker that is neither."""
    if NAME.fullmatch(content):
        return "claim", content
    m = re.fullmatch(rf"({'|'.join(KINDS)})\s*[—–:-]\s*(.+)", content, flags=re.S)
    if not m or (len(m.group(2).split()) < 3 and m.group(1) not in ("measured", "tested")):
        raise ValueError(f"marker {content!r}: name a checked claim (NN.short-name) or give a kind "
                         f"({', '.join(KINDS)}) and a reason of a few words")
    if m.group(1) == "measured":
        files = re.findall(r"((?:benchmarks|reports)/[\w./-]+\.md)", m.group(2))
        if not files or not all((ROOT / f).is_file() for f in files):
            raise ValueError(f"marker {content!r}: a 'measured' marker names the generated file it quotes")
    if m.group(1) == "tested":
        files = re.findall(r"((?:tests|ci|\.ci)/[\w./-]+)", m.group(2))
        if not files or not all((ROOT / f).is_file() for f in files):
            raise ValueError(f"marker {content!r}: a 'tested' marker names the test file that checks the claim")
    return m.group(1), m.group(2)


def claim_sentences(markdown: str) -> list[tuple[str, list[str]]]:
    """(sentence, marker contents) for every sentence with claim words (headings excluded)."""
    text = strip_markdown(markdown)
    spans = sentences(text)
    markers: dict[int, list[str]] = {}
    for m in MARKER.finditer(markdown):
        inside = [i for i, (a, b) in enumerate(spans) if a <= m.start() < b]
        if inside:
            index = inside[0]
            if index > 0 and not text[spans[index][0]:m.start()].strip():
                index -= 1                      # a marker right after a sentence's full stop
        else:                                   # alone between two sentences: the one before it
            index = max([i for i, (a, b) in enumerate(spans) if b <= m.start()], default=0)
        markers.setdefault(index, []).append(m.group(1))
    out = []
    for i, (a, b) in enumerate(spans):
        sentence = " ".join(text[a:b].replace("*", "").split())
        heading = text[text.rfind("\n", 0, a) + 1:].lstrip().startswith("#")
        if heading or not CLAIM_WORDS.search(sentence):
            if i in markers and not CLAIM_WORDS.search(sentence):
                out.append((sentence, markers[i]))      # a marker where no claim word is: still checked
            continue
        out.append((sentence, markers.get(i, [])))
    return out


def claims_checked(nb) -> dict[str, tuple[int, str | None]]:
    """{name: (cell, "holds" / "does NOT hold" / None if not printed)} of a notebook's claim() calls."""
    found = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "claim(" not in cell.source:
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        names = [node.args[0].value for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "claim"
                 and node.args and isinstance(node.args[0], ast.Constant)]
        printed = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
        verdicts = {m.group(2): m.group(3) for m in VERDICT.finditer(printed)}
        for name in names:
            found[name] = (i, verdicts.get(name))
    return found


def _problems(where: str, markdown: str, checked: dict[str, tuple[int, str | None]]) -> tuple[list[str], set[str]]:
    bad, used = [], set()
    for sentence, markers in claim_sentences(markdown):
        if not markers:
            bad.append(f"{where}: claim words and no marker: “{sentence[:160]}”")
        for content in markers:
            try:
                kind, value = parse_marker(content)
            except ValueError as err:
                bad.append(f"{where}: {err}")
                continue
            if kind != "claim":
                continue
            used.add(value)
            if value not in checked:
                bad.append(f"{where}: marker names {value!r}, which no claim() call checks")
            elif checked[value][1] is None:
                bad.append(f"{where}: claim {value!r} has no printed verdict (execute the notebook)")
            elif checked[value][1] != "holds":
                bad.append(f"{where}: claim {value!r} does NOT hold on the committed outputs: “{sentence[:120]}”")
    return bad, used


def notebook_claim_problems(prefix: str) -> list[str]:
    """A notebook's sentences against every notebook's checks (a sentence may repeat another
    notebook's claim), and its own checks against every notebook's, the guide's and the README's
    sentences (a check nobody refers to is dead)."""
    nb = notebook(prefix)
    checked = _all_checked()
    bad = []
    for segment in nb.segments:
        bad += _problems(f"notebook {prefix} cell {segment.cell}", segment.text, checked)[0]
    used = _all_used()
    for name, (cell, _) in claims_checked(nb.nb).items():
        if not name.startswith(prefix + "."):
            bad.append(f"notebook {prefix} cell {cell}: claim {name!r} belongs to notebook {name[:2]}")
        if name not in used:
            bad.append(f"notebook {prefix} cell {cell}: claim {name!r} is checked but no sentence refers to it")
        if not nb.nb.cells[cell].source.startswith("# NBVAL_CHECK_OUTPUT"):
            bad.append(f"notebook {prefix} cell {cell}: a claim cell starts with # NBVAL_CHECK_OUTPUT "
                       f"(nbval then fails when its verdict changes)")
    return bad


def _all_used() -> set[str]:
    texts = [s.text for p in NOTEBOOKS for s in notebook(p.name[:2]).segments]
    texts += [GUIDE.read_text(encoding="utf-8"), README.read_text(encoding="utf-8")]
    return {m.group(1) for text in texts for m in MARKER.finditer(text) if NAME.fullmatch(m.group(1))}


# Notebooks whose prose is being converted to checked claims; each leaves this set when it passes
# (strict: a notebook that passes while listed fails).
NOT_YET_CONVERTED: set[str] = set()


@pytest.mark.parametrize("prefix", [
    pytest.param(p.name[:2], marks=pytest.mark.xfail(strict=True, reason="prose not yet converted to checked claims"))
    if p.name[:2] in NOT_YET_CONVERTED else p.name[:2] for p in NOTEBOOKS])
def test_every_claim_of_a_notebook_is_checked(prefix):
    bad = notebook_claim_problems(prefix)
    assert not bad, f"{len(bad)} problems\n" + "\n".join(bad)


@lru_cache(maxsize=None)
def _all_checked() -> dict[str, tuple[int, str | None]]:
    out = {}
    for p in NOTEBOOKS:
        out.update(claims_checked(notebook(p.name[:2]).nb))
    return out


@pytest.mark.parametrize("path", [
    pytest.param(path, id=name, marks=pytest.mark.xfail(name in NOT_YET_CONVERTED, strict=True,
                                                        reason="prose not yet converted to checked claims"))
    for path, name in ((GUIDE, "guide"), (README, "README"))])
def test_every_claim_of_the_guide_and_the_readme_is_checked(path):
    bad, _ = _problems(path.name, path.read_text(encoding="utf-8"), _all_checked())
    assert not bad, f"{len(bad)} problems\n" + "\n".join(bad)


# --------------------------------------------------------------------------------------------
# the rules on small examples

def test_a_claim_word_needs_a_marker_and_an_exemption_a_reason():
    assert [m for _, m in claim_sentences("The error falls with n.")] == [[]]
    assert [m for _, m in claim_sentences("The error falls with n. <!-- claim: 02.error-falls -->")] == \
        [["02.error-falls"]]
    assert claim_sentences("## Why a bound is tight\n\nWe draw 10 records.") == []
    listed = "* The error falls. <!-- claim: 02.a -->\n* It rises. <!-- claim: 02.b -->\n\nLast."
    assert [m for _, m in claim_sentences(listed)] == [["02.a"], ["02.b"]]
    with pytest.raises(ValueError, match="reason"):
        parse_marker("theory")
    with pytest.raises(ValueError, match="reason"):
        parse_marker("because")
    assert parse_marker("theory — the variance formula above") == ("theory", "the variance formula above")
    with pytest.raises(ValueError, match="generated file"):
        parse_marker("measured — benchmarks/no_such_file.md says so")
    with pytest.raises(ValueError, match="test file"):
        parse_marker("tested — tests/test_no_such_thing.py checks it")
    assert parse_marker("tested — tests/test_claims.py checks it")[0] == "tested"


def test_a_marker_must_name_a_claim_that_holds():
    checked = {"02.error-falls": (5, "holds"), "02.bias-shrinks": (6, "does NOT hold"), "02.unrun": (7, None)}
    ok, used = _problems("x", "The error falls. <!-- claim: 02.error-falls -->", checked)
    assert ok == [] and used == {"02.error-falls"}
    assert "does NOT hold" in _problems("x", "It shrinks. <!-- claim: 02.bias-shrinks -->", checked)[0][0]
    assert "no printed verdict" in _problems("x", "It falls. <!-- claim: 02.unrun -->", checked)[0][0]
    assert "no claim() call" in _problems("x", "It falls. <!-- claim: 02.other -->", checked)[0][0]


def test_claim_calls_and_their_verdicts_are_read_from_the_cells():
    from nbformat.v4 import new_code_cell, new_notebook, new_output
    nb = new_notebook(cells=[new_code_cell(
        '# NBVAL_CHECK_OUTPUT\nclaim("02.a", "x", holds=True)\nclaim("02.b", "y", holds=False)',
        outputs=[new_output("stream", name="stdout",
                            text="✔ claim 02.a holds: x\n✘ claim 02.b does NOT hold (…): y\n")])])
    assert claims_checked(nb) == {"02.a": (0, "holds"), "02.b": (0, "does NOT hold")}
