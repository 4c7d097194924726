"""The package as it was at a git ref, for benchmarks that time "before" against "after" in one run."""
from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def export_package(ref: str, into: Path) -> Path:
    """The ``ppdm_edu`` of git ref ``ref``, exported into the folder ``into`` (put ``into`` first on
    ``PYTHONPATH`` to import it)."""
    data = subprocess.run(["git", "archive", ref, "ppdm_edu"], cwd=REPO, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into
