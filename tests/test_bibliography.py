"""Every entry of the site's bibliography is cited by a notebook (checked in `make test`, before
`make site` would stop on it): a notebook's prose that drops a citation must drop the entry too."""
from __future__ import annotations

import sys
from pathlib import Path

SITE = Path(__file__).resolve().parents[1] / "site"


def test_every_bibliography_entry_has_a_pattern_and_a_notebook_citing_it(tmp_path):
    sys.path.insert(0, str(SITE))
    try:
        import build  # site/build.py
    finally:
        sys.path.remove(str(SITE))
    cited = build.cited_by(tmp_path / "cited_by.json")  # exits naming an entry no notebook cites
    assert cited and all(cited.values()), {key: stems for key, stems in cited.items() if not stems}
