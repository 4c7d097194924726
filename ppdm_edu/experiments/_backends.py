"""Where :func:`~ppdm_edu.experiments.tasks.run_tasks` runs: loky processes or a dask cluster.

Both through joblib's public ``parallel_config``; a dask scheduler is probed with
``distributed.comm.connect`` (its handshake) under a deadline before a ``Client`` is made.
joblib and dask are imported inside the functions (nothing here may start under Pyodide).
"""
from __future__ import annotations

import contextlib
import os


class SchedulerUnreachable(ConnectionError):
    """No dask scheduler answered at the given address within the timeout."""


def check_scheduler_address(address: str) -> tuple[str, int] | None:
    """Check a scheduler address before a run touches its output folder.

    Parameters
    ----------
    address : str
        ``tcp://HOST:PORT`` (or ``HOST:PORT``); another scheme is left to dask.

    Returns
    -------
    tuple of (str, int) or None
        ``(host, port)`` of a tcp address; None for a scheme dask connects to itself.

    Raises
    ------
    SchedulerUnreachable
        For an address that can never work (tls:// without certificates, no port).

    Examples
    --------
    >>> check_scheduler_address("tcp://127.0.0.1:8786")
    ('127.0.0.1', 8786)
    """
    scheme, _, rest = address.rpartition("://")
    if scheme in ("tls", "wss"):
        raise SchedulerUnreachable(
            f"--scheduler {address!r}: a {scheme}:// scheduler needs TLS certificates, which this "
            "command does not take; use a tcp:// address (e.g. through an SSH tunnel), or connect a "
            "dask Client with its Security yourself and call run_tasks inside joblib.parallel_config")
    if scheme not in ("", "tcp"):
        return None
    host, _, port = rest.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit():
        raise SchedulerUnreachable(f"--scheduler {address!r} is not an address like tcp://HOST:PORT")
    return host, int(port)


def probe_scheduler(address: str, timeout: float) -> None:
    """Fail within ``timeout``, in one line, unless a dask scheduler completes dask's handshake.

    ``distributed.comm.connect`` bounds only the TCP connection by its timeout, not the handshake
    that follows (a listener that accepts and never answers, e.g. the dashboard's port, would hold
    it for ever), so the whole call runs under ``asyncio.wait_for``, in a thread with its own event
    loop (a notebook's kernel already runs one). What a server that is not a scheduler says (an
    SSH banner read as a message length of exbibytes) is not echoed.
    """
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect

    target = address if "://" in address else f"tcp://{address}"

    async def handshake() -> None:
        comm = await asyncio.wait_for(connect(target, timeout=timeout), timeout)
        await comm.close()

    with ThreadPoolExecutor(1, thread_name_prefix="scheduler-probe") as pool:
        try:
            pool.submit(asyncio.run, handshake()).result()
        except (asyncio.TimeoutError, TimeoutError):
            raise SchedulerUnreachable(
                f"no dask scheduler answered at {address} within {timeout:g} s (something may listen "
                "there, e.g. the dashboard on 8787, but it did not complete dask's handshake; a "
                "scheduler listens on 8786 by default); check the address or raise --timeout") from None
        except OSError as exc:
            if exc.__cause__ is not None and not isinstance(exc.__cause__, OSError):
                # older distributed (2023.1, ci/constraints-oldest.txt) wraps a failed handshake (e.g. the MemoryError of an SSH
                # banner read as a length) in an OSError that says "timed out": it did not.
                raise _not_a_scheduler(address, exc.__cause__) from None
            cause = exc.__cause__ if isinstance(exc.__cause__, OSError) else exc
            raise SchedulerUnreachable(f"cannot reach a dask scheduler at {address} within {timeout:g} s: "
                                       f"{cause.strerror or type(cause).__name__}") from None
        except Exception as exc:  # noqa: BLE001 - whatever the server said, it was not dask's handshake
            raise _not_a_scheduler(address, exc) from None


def _not_a_scheduler(address: str, exc: BaseException) -> SchedulerUnreachable:
    return SchedulerUnreachable(
        f"the server at {address} is not a dask scheduler: it did not answer dask's handshake "
        f"({type(exc).__name__}); check the address (a scheduler listens on port 8786 by default)")


def _exit_with_parent(parent: int, interval: float = 0.25) -> None:
    """Worker initializer: end this worker as soon as the process that started it is gone.

    After its parent is killed (SIGKILL, the OOM killer), a loky worker waits for its idle
    timeout and then up to 30 s for the parent to release it, and loky's resource tracker waits
    for the workers: they lived 40-50 s. An orphan is adopted by another process, so its
    parent's id changes: a daemon thread polls it and exits at once (the tracker follows).
    """
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


@contextlib.contextmanager
def configured(n_jobs: int, backend: str, scheduler: str | None, timeout: float):
    """joblib's configuration for the ``with`` block: loky processes, or a dask cluster."""
    from joblib import parallel_config

    if backend == "loky":
        # idle workers exit after 10 s (loky's default: 300 s), and at once if this process dies
        with parallel_config(backend="loky", n_jobs=int(n_jobs), inner_max_num_threads=1,
                             idle_worker_timeout=10, initializer=_exit_with_parent, initargs=(os.getpid(),)):
            yield
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("backend='dask' needs dask.distributed: pip install -e '.[cluster]' in the ppdm-edu checkout") from None
    with contextlib.ExitStack() as stack:
        if scheduler is None:
            workers = os.cpu_count() if n_jobs == -1 else int(n_jobs)
            cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1,
                                                       processes=True, dashboard_address=None))
            client = stack.enter_context(Client(cluster, set_as_default=False))
        else:
            probe_scheduler(scheduler, timeout)
            try:
                client = stack.enter_context(Client(scheduler, set_as_default=False, timeout=timeout))
            except (OSError, TimeoutError, ValueError) as exc:
                raise SchedulerUnreachable(f"the dask scheduler at {scheduler} answered its handshake, then "
                                           f"the client could not connect within {timeout:g} s "
                                           f"({type(exc).__name__})") from None
        with parallel_config(backend="dask", client=client):
            yield
