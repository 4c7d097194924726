"""Claims the prose makes about printed numbers, checked where the numbers are printed.

When a notebook's text says that an error *falls*, one mechanism *beats* another, a bound is
*tight* or an outcome *rare*, the code cell that prints those numbers states the claim once more,
as a computation on the same values::

    claim("02.more-noise-hurts", "at every n the error grows with sigma",
          holds=bool((np.diff(table.to_numpy(), axis=0) > 0).all()),
          evidence=f"{table.iloc[0].min():.3f} ... {table.iloc[-1].max():.3f}")

and prints one line, ``✔ claim 02.more-noise-hurts holds: ...`` (or ``✘ ... does NOT hold``).
The sentence in the markdown carries the marker ``<!-- claim: 02.more-noise-hurts -->`` (an HTML
comment: invisible on the page). ``tests/test_claims.py`` ties the two together: every sentence
with a claim word (falls, beats, tight, rare, converges, ...) has a marker, every marker names a
claim that the committed outputs say holds, and every claim cell is checked by nbval when the
notebook runs again, so a claim cannot go stale silently. CONTRIBUTING.md says how to add one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Claim", "claim"]

NAME = re.compile(r"\d\d\.[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class Claim:
    """One claim of the prose and whether the printed numbers bear it out.

    Attributes
    ----------
    name : str
        ``"NN.short-name"``: the notebook's number and a name in lower-case words joined by
        hyphens; the marker ``<!-- claim: NN.short-name -->`` in the markdown refers to it.
    statement : str
        What the prose says, in words.
    holds : bool
        Whether the numbers printed beside it bear the statement out.
    evidence : str
        The numbers the decision rests on, as printed.
    """

    name: str
    statement: str
    holds: bool
    evidence: str = ""

    def __str__(self) -> str:
        verdict = "holds" if self.holds else "does NOT hold (the prose that makes it must change)"
        evidence = f" [{self.evidence}]" if self.evidence else ""
        return f"{'✔' if self.holds else '✘'} claim {self.name} {verdict}: {self.statement}{evidence}"


def claim(name: str, statement: str, holds, evidence: str = "") -> None:
    """Print whether a claim of the prose holds on the numbers the notebook just printed.

    Parameters
    ----------
    name : str
        ``"NN.short-name"`` (notebook number, a dot, lower-case words joined by hyphens), the
        name the markdown's ``<!-- claim: NN.short-name -->`` marker uses.
    statement : str
        The claim in words, as the prose makes it.
    holds : bool
        The check, computed from the values the cell prints (a numpy bool is accepted).
    evidence : str, optional
        The numbers the check reads, formatted as the cell prints them.

    Raises
    ------
    ValueError
        If `name` is not of the form ``NN.short-name`` or `statement` is empty.
    TypeError
        If `holds` is not a bool (a number or an array is refused: say which comparison holds)
        or `statement` / `evidence` is not a string.

    See Also
    --------
    Claim : the printed line, as a value.

    Examples
    --------
    >>> errors = [0.061, 0.036, 0.019]
    >>> claim("02.error-falls", "the error falls as n grows",
    ...       holds=all(a > b for a, b in zip(errors, errors[1:])), evidence="0.061, 0.036, 0.019")
    ✔ claim 02.error-falls holds: the error falls as n grows [0.061, 0.036, 0.019]
    """
    print(_checked(name, statement, holds, evidence))


def _checked(name, statement, holds, evidence) -> Claim:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ValueError(f"name={name!r}: a claim's name is 'NN.short-name' (the notebook's two-digit "
                         f"number, a dot, lower-case words joined by hyphens), e.g. '08.bias-shrinks'")
    for argument, value in (("statement", statement), ("evidence", evidence)):
        if not isinstance(value, str):
            raise TypeError(f"{argument}={value!r}: expected a string")
    if not statement.strip():
        raise ValueError("statement='': say in words what the prose claims")
    if type(holds).__name__ not in ("bool", "bool_"):
        raise TypeError(f"holds={holds!r} ({type(holds).__name__}): expected a bool, the result of the "
                        f"comparison that checks the claim (e.g. bool((errors[1:] < errors[:-1]).all()))")
    return Claim(name, statement.strip(), bool(holds), evidence)
