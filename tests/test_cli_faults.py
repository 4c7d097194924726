"""Faults of ``python -m ppdm_edu reproduce``: one clear line, nothing half-written (issue 27, 4-7).

Every fault ends in exactly one ``error:`` line on stderr, no traceback and a non-zero exit
code. The disk tests mount a small tmpfs (root only; skipped with the reason otherwise).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ppdm_edu.__main__ import main
from ppdm_edu.experiments import du_zhan
from ppdm_edu.experiments.outputs import output_lock
from ppdm_edu.experiments.tasks import Task, run_tasks

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def tiny(monkeypatch):
    """The Du & Zhan reproduction at 2 runs per theta (25 tasks, seconds)."""
    monkeypatch.setattr(du_zhan, "_runs", lambda mode: 2)


def _one_error_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, err
    return lines[0]


def _cli(*args, timeout=120):
    """Run the CLI; a hang fails the test through ``subprocess.TimeoutExpired`` (no wall-clock
    assert: how long a run takes depends on the machine's load)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "ppdm_edu", *args], capture_output=True, text=True,
                         env=env, timeout=timeout)
    return out


# -- 4. a scheduler that does not answer ---------------------------------------------------------
def test_a_listener_that_never_answers_is_one_line_within_the_timeout(tmp_path):
    pytest.importorskip("dask.distributed")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(5)                   # accepts connections, never says a word
        address = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
        out = _cli("reproduce", "du-zhan", "--out", str(tmp_path / "out"), "--backend", "dask",
                            "--scheduler", address, "--timeout", "2", timeout=90)
    assert out.returncode != 0
    line = _one_error_line(out.stderr)
    assert address in line and "2 s" in line, line  # it gave up after its own 2 s timeout


class _TalkingServer:
    """A loopback server that greets every connection with ``greeting`` and then waits (an SSH server
    says its banner first, as a dask scheduler sends its handshake first); stopped by the test."""

    def __init__(self, greeting: bytes):
        import threading

        self.greeting, self.stop, self.conns = greeting, threading.Event(), []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.listener.settimeout(0.1)
        self.address = f"tcp://127.0.0.1:{self.listener.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            self.conns.append(conn)
            with contextlib.suppress(OSError):
                conn.sendall(self.greeting)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=10)
        for conn in self.conns:
            conn.close()
        self.listener.close()


@pytest.mark.parametrize("greeting", [b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n",
                                      b"\x10\x00\x00\x00\x00\x00\x00\x00" + b"\xff" * 16,   # framed, not msgpack
                                      b"HTTP/1.1 400 Bad Request\r\n\r\n"])
def test_a_server_that_speaks_first_but_not_dask_is_one_line(tmp_path, greeting):
    pytest.importorskip("dask.distributed")
    with _TalkingServer(greeting) as server:
        out = _cli("reproduce", "du-zhan", "--out", str(tmp_path / "out"), "--backend", "dask",
                            "--scheduler", server.address, "--timeout", "5", timeout=120)
    assert out.returncode != 0
    line = _one_error_line(out.stderr)
    assert server.address in line and "not a dask scheduler" in line and "handshake" in line, line
    assert "EiB" not in out.stderr
    assert not (tmp_path / "out" / ".checkpoints").exists()


def test_a_real_scheduler_passes_the_handshake_probe():
    distributed = pytest.importorskip("dask.distributed")
    from ppdm_edu.experiments._backends import probe_scheduler

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        probe_scheduler(cluster.scheduler_address, 10.0)      # no exception


def test_a_tls_scheduler_is_one_line(tmp_path):
    pytest.importorskip("dask.distributed")
    out = _cli("reproduce", "du-zhan", "--out", str(tmp_path / "out"), "--backend", "dask",
               "--scheduler", "tls://127.0.0.1:8786", "--timeout", "2", timeout=120)
    assert out.returncode != 0
    line = _one_error_line(out.stderr)
    assert "tls://127.0.0.1:8786" in line and "TLS" in line, line


def test_a_refused_port_is_one_line(tmp_path):
    pytest.importorskip("dask.distributed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]        # nothing listens there once closed
    address = f"tcp://127.0.0.1:{port}"
    out = _cli("reproduce", "du-zhan", "--out", str(tmp_path / "out"), "--backend", "dask",
                        "--scheduler", address, "--timeout", "5", timeout=90)
    assert out.returncode != 0
    assert address in _one_error_line(out.stderr)


@pytest.mark.parametrize("value", ["1000000", str(4 * (os.cpu_count() or 1) + 1), "0", "-2", "many"])
def test_too_many_jobs_is_one_line_naming_the_allowed_range(value, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["reproduce", "du-zhan", "--jobs", value, "--out", "unused"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "Traceback" not in err, err
    top = 4 * (os.cpu_count() or 1)
    assert f"--jobs must be -1 (every core) or a whole number from 1 to {top}" in err and value in err, err
    with pytest.raises(ValueError, match=f"n_jobs must be -1 .* from 1 to {top}"):
        run_tasks([], n_jobs=int(value) if value.lstrip("-").isdigit() else value)


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_a_bad_timeout_is_refused(value, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["reproduce", "du-zhan", "--timeout", value])
    assert stop.value.code == 2 and "--timeout must be a positive number" in capsys.readouterr().err


# -- 7. two runs into one --out -------------------------------------------------------------------
def test_a_second_run_into_the_same_out_says_another_run_holds_it(tmp_path, capsys, tiny):
    out = tmp_path / "out"
    with output_lock(out):                   # as another run would hold it
        code = main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"])
    assert code != 0
    line = _one_error_line(capsys.readouterr().err)
    assert "another run" in line and str(os.getpid()) in line and str(out) in line, line
    assert not (out / ".checkpoints").exists()            # it computed nothing
    assert main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"]) == 0   # free again


@pytest.mark.parametrize("kind", ["link", "dangling link", "folder", "fifo", "hard link"])
def test_a_lock_that_is_not_a_regular_file_is_refused_and_its_target_untouched(tmp_path, capsys, kind):
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "precious.txt"
    if kind in ("link", "hard link"):
        target.write_text("do not truncate me\n")
    if kind == "link":
        (out / ".lock").symlink_to(target)
    elif kind == "hard link":             # O_NOFOLLOW does not see it: the same file, another name
        os.link(target, out / ".lock")
    elif kind == "dangling link":
        (out / ".lock").symlink_to(target)               # the run must not create the target
    elif kind == "folder":
        (out / ".lock").mkdir()
    else:
        os.mkfifo(out / ".lock")                        # opening it must not block
    code = main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"])
    assert code != 0
    line = _one_error_line(capsys.readouterr().err)
    assert str(out / ".lock") in line and "a run never writes through it" in line, line
    assert ("hard link" in line) == (kind == "hard link"), line
    if kind in ("link", "hard link"):
        assert target.read_text() == "do not truncate me\n"
    if kind == "dangling link":
        assert not target.exists()
    assert not (out / ".checkpoints").exists()           # it computed nothing


# -- 5. a full or read-only disk ------------------------------------------------------------------
def _mount_tmpfs(mount: Path, size: str):
    """Mount a tmpfs of ``size`` at ``mount``; root only (skipped otherwise)."""
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root (a full disk or a mount point cannot be made otherwise)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.fixture
def tmpfs(tmp_path):
    """A 1 MB tmpfs mounted in tmp_path."""
    yield from _mount_tmpfs(tmp_path / "mnt", "1m")


@pytest.fixture
def volume(tmp_path):
    """A 64 MB tmpfs mounted in tmp_path: another file system than its parent folder's."""
    yield from _mount_tmpfs(tmp_path / "volume", "64m")


def test_an_out_that_is_a_mount_point_works(volume, tmp_path, capsys, tiny):
    # a Docker volume, a USB stick: nothing may be staged beside --out, on the parent's file system
    assert os.stat(volume).st_dev != os.stat(volume.parent).st_dev
    code = main(["reproduce", "du-zhan", "--out", str(volume), "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 0 and "Traceback" not in err, err
    assert (volume / "du-zhan.csv").is_file() and (volume / "du-zhan.md").is_file()
    assert _leftovers(volume) == [] and _leftovers(volume.parent) == []
    # a re-run (resumed from the checkpoints) replaces the files in place, same bytes
    before = (volume / "du-zhan.csv").read_bytes()
    assert main(["reproduce", "du-zhan", "--out", str(volume), "--jobs", "1"]) == 0
    assert (volume / "du-zhan.csv").read_bytes() == before and _leftovers(volume) == []


def _fill(mount: Path, leave: int) -> None:
    """Fill the file system, then free ``leave`` bytes."""
    filler = mount / "filler"
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
                fh.flush()
        except OSError:
            pass
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - leave))


def _leftovers(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*")
                  if ".tmp" in p.name or ".partial-" in p.name or p.name.startswith(".staging-"))


def test_a_full_disk_while_writing_the_outputs_leaves_out_as_it_was(tmpfs, tmp_path, capsys, tiny):
    warm = tmp_path / "warm"
    assert main(["reproduce", "du-zhan", "--out", str(warm), "--jobs", "1"]) == 0
    out = tmpfs / "out"
    out.mkdir()
    shutil.copytree(warm / ".checkpoints", out / ".checkpoints")   # every task resumes
    (out / "du-zhan.md").write_text("the report of an earlier run\n")
    _fill(tmpfs, leave=16 * 1024)                                  # the figures do not fit
    capsys.readouterr()
    code = main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"])
    assert code != 0
    line = _one_error_line(capsys.readouterr().err)
    assert "Errno 28" in line and str(out) in line, line
    assert sorted(p.name for p in out.iterdir() if p.name != ".lock") == [".checkpoints", "du-zhan.md"]
    assert (out / "du-zhan.md").read_text() == "the report of an earlier run\n"
    assert _leftovers(tmpfs) == []


def test_a_full_disk_while_checkpointing_leaves_no_temporary_file(tmpfs, capsys, tiny):
    out = tmpfs / "out"
    _fill(tmpfs, leave=40 * 1024)                                  # a few checkpoints fit
    code = main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"])
    assert code != 0
    assert "Errno 28" in _one_error_line(capsys.readouterr().err)
    assert _leftovers(tmpfs) == []
    assert not list(out.glob("*.csv"))


def test_a_read_only_out_is_one_line(tmpfs, capsys, tiny):
    out = tmpfs / "out"
    out.mkdir()
    (out / "old.csv").write_text("a\n1\n")
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    code = main(["reproduce", "du-zhan", "--out", str(out), "--jobs", "1"])
    assert code != 0
    line = _one_error_line(capsys.readouterr().err)
    assert "Errno 30" in line and str(out) in line, line
    assert sorted(p.name for p in out.iterdir()) == ["old.csv"]


# -- 6. a killed worker ----------------------------------------------------------------------------
def _die_or_square(i):
    if i == 3:
        os.kill(os.getpid(), signal.SIGKILL)   # as the OOM killer or `kill -9` would
    return i * i


def test_a_killed_worker_says_what_happened_and_that_a_rerun_resumes(tmp_path):
    tasks = [Task(("sq", i), _die_or_square, {"i": i}) for i in range(6)]
    with pytest.raises(Exception, match="worker process died.*run the same command again to resume") as err:
        run_tasks(tasks, n_jobs=2, checkpoint_dir=tmp_path, progress=False)
    assert type(err.value).__name__ == "WorkerDied"


def test_a_killed_worker_is_one_line_in_the_cli(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(du_zhan, "plan", lambda mode, seed: [Task(("sq", i), _die_or_square, {"i": i})
                                                              for i in range(6)])
    code = main(["reproduce", "du-zhan", "--out", str(tmp_path / "out"), "--jobs", "2"])
    assert code != 0
    line = _one_error_line(capsys.readouterr().err)
    assert "worker process died" in line and "resume" in line, line


@pytest.mark.slow
def test_no_worker_lingers_after_the_run_is_killed(tmp_path):
    # loky's workers wait for their idle timeout and then up to 30 s for the dead parent, and its
    # resource tracker for them (40-50 s); ours watch their parent and leave within 10 s
    psutil = pytest.importorskip("psutil")
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.Popen([sys.executable, "-m", "ppdm_edu", "reproduce", "du-zhan", "--out", str(out),
                            "--jobs", "2"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not list((out / ".checkpoints").glob("*")) and time.monotonic() < deadline:
            time.sleep(0.2)
        children = psutil.Process(run.pid).children(recursive=True)
        assert children, "the run started no worker"
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
        assert any("resource_tracker" in " ".join(p.cmdline()) for p in children), "no resource tracker"
        _, alive = psutil.wait_procs(children, timeout=10)   # polls; returns as soon as all are gone
        assert not alive, [p.cmdline()[:3] for p in alive]
    finally:
        if run.poll() is None:
            run.kill()
