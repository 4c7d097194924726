"""Publishing a run's files into ``--out``: a reader sees the old set or the new set, never a mix.

A small run (a few files, a subfolder, checkpoints, a file it does not replace) is killed with
SIGKILL after each step of the publication in turn (every rename, link, exchange, journal write),
and before it. After each kill, ``--out`` holds the old set or the new set; where the portable way
(a journal, then one rename per file) was cut between two moves, the journal is there to say so,
and honouring it (what the next run does first) gives the new set. Then the next run completes,
and nothing is left behind.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ppdm_edu.experiments import outputs

ROOT = Path(__file__).resolve().parents[1]

OLD = {"a.csv": "old a\n", "b.csv": "old b\n", "sub/c.csv": "old c\n", "keep.txt": "not ours\n"}
WRITTEN = {"a.csv": "new a\n", "b.csv": "new b\n", "sub/c.csv": "new c\n", "n.csv": "new n\n"}
NEW = {**OLD, **WRITTEN}

# the run: writes WRITTEN into its staged folder; SIGKILL after publication step KILL_AT (-1: in
# the with block, before publishing; 0: never); prints the steps it went through
_RUN = """
import os, signal, sys
from pathlib import Path
from ppdm_edu.experiments import outputs
out, kill_at, mode = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
written = {written!r}
steps = []
def step(done):
    steps.append(done)
    if len(steps) == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)
outputs._step = step
if mode == "journal":          # no one-step publication here (another system, a mount point)
    outputs._swap_in = lambda stage, beside, out: False
elif mode == "late-journal":   # the file system refuses the exchange, after the links are made
    outputs._exchange = lambda a, b: False
with outputs.output_lock(out), outputs.staged_output(out) as stage:
    for name, text in written.items():
        (stage / name).parent.mkdir(parents=True, exist_ok=True)
        (stage / name).write_text(text)
    if kill_at == -1:
        os.kill(os.getpid(), signal.SIGKILL)
print("|".join(steps))
""".format(written=WRITTEN)


def _run(out: Path, kill_at: int, mode: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", _RUN, str(out), str(kill_at), mode], env=env,
                          capture_output=True, text=True, timeout=120)


def _visible(out: Path) -> dict[str, str]:
    """What a reader of the folder sees: every file whose path has no part starting with a dot."""
    return {p.relative_to(out).as_posix(): p.read_text() for p in sorted(out.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(out).parts)}


def _leftovers(out: Path) -> list[str]:
    inside = [p.name for p in out.iterdir() if p.name.startswith((".staging-", ".publishing"))]
    beside = [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.publish-")]
    return inside + beside


def _old_folder(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    for name, text in OLD.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    (out / ".checkpoints").mkdir()
    (out / ".checkpoints" / "t.json").write_text("{}")
    return out


@pytest.mark.parametrize("mode", ["swap", "journal", "late-journal"])
def test_a_kill_at_any_step_of_publishing_leaves_the_old_set_or_the_new(tmp_path, mode):
    finished = _run(_old_folder(tmp_path / "complete"), 0, mode)
    assert finished.returncode == 0, finished.stderr
    steps = finished.stdout.strip().split("|")
    assert ("exchanged" in steps) == (mode == "swap"), steps
    assert ("journal written" in steps) == (mode != "swap"), steps
    assert _visible(tmp_path / "complete" / "out") == NEW
    seen = set()
    for kill_at in [-1, *range(1, len(steps) + 1)]:
        out = _old_folder(tmp_path / f"kill{kill_at}")
        killed = _run(out, kill_at, mode)
        assert killed.returncode == -9, (kill_at, killed.stdout, killed.stderr)
        if (out / ".publishing").exists():
            # cut between two moves of the portable way: the journal says so; honouring it is
            # what every next run does first
            assert mode != "swap"
            outputs.recover(out)
            assert not (out / ".publishing").exists()
        state = _visible(out)
        assert state in (OLD, NEW), (mode, kill_at, steps[kill_at - 1] if kill_at > 0 else "before", state)
        seen.add("old" if state == OLD else "new")
        assert (out / ".checkpoints" / "t.json").read_text() == "{}", kill_at
        # the next run finishes, and leaves nothing behind
        again = _run(out, 0, mode)
        assert again.returncode == 0, again.stderr
        assert _visible(out) == NEW and not _leftovers(out), (kill_at, _leftovers(out))
        assert (out / ".checkpoints" / "t.json").is_file()
    assert seen == {"old", "new"}          # both sides of the commit point were killed


def test_a_journal_moves_files_only_from_a_staging_folder_of_its_output(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    secret = tmp_path / "elsewhere"
    secret.mkdir()
    (secret / "id_rsa").write_text("private\n")
    (out / ".publishing").write_text('{"source": "%s", "files": ["id_rsa"]}' % secret)
    with pytest.raises(OSError, match="outside a staging folder"):
        outputs.recover(out)
    (out / ".publishing").write_text('{"source": "%s", "files": ["../../elsewhere/id_rsa"]}'
                                     % (out / ".staging-1"))
    with pytest.raises(OSError, match="outside a staging folder"):
        outputs.recover(out)
    assert (secret / "id_rsa").read_text() == "private\n" and not (out / "id_rsa").exists()


def test_an_out_that_is_a_symbolic_link_stays_one(tmp_path):
    real = _old_folder(tmp_path / "real")
    link = tmp_path / "link"
    link.symlink_to(real)
    assert _run(link, 0, "swap").returncode == 0
    assert link.is_symlink() and _visible(link) == NEW and _visible(real) == NEW
    assert not _leftovers(real)


def test_the_readme_says_where_the_staging_folder_is_and_what_a_reader_sees():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "temporary folder beside `--out`" not in readme          # it is inside
    assert f"staging folder inside `--out` (`OUT/{outputs.STAGE_PREFIX}PID`" in readme
    assert "RENAME_EXCHANGE" in readme and f"`OUT/{outputs.JOURNAL}`" in readme
