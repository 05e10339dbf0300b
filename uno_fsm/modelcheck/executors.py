"""Where the chunks of a level are expanded: one interface, three executors
(docs/model-checking.md, "Every core, and past one machine").

An executor has `map(tasks)` (the results in the order of the tasks), `close()`, `workers`,
`name` and `remote` (whether its CPU time is measured elsewhere). The search
(search.py) hands it the chunks of each breadth-first level and merges what comes back; it
does not know where they ran.

- `InProcess`: the search's own process (`--jobs 1`);
- `Processes`: J local worker processes fed from one queue of chunks (a free worker takes
  the next one), each with its expander made once; they are forked from the main process,
  ignore SIGINT (a Ctrl-C at the terminal reaches the whole group: the main process decides),
  and die with it (Linux `PR_SET_PDEATHSIG`); `close` ends them all;
- `DaskExecutor`: the same chunks as Dask tasks (`uno_fsm.modelcheck.expand.run_chunk`) on a
  cluster (`--cluster ADDRESS`) or on a local one of N worker processes (`--cluster local:N`,
  which `close` shuts down). Dask distributed, not Ray: pure Python, installed with pip as one
  optional extra (`.[cluster]`), nothing but its scheduler and workers to run, and a local
  cluster of plain processes that ends cleanly; Ray brings a C++ core, a dashboard and
  several daemons per node for a job that sends lists of bytes and gets lists back.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

from uno_fsm.configs import CheckConfig
from uno_fsm.modelcheck.expand import ChunkResult, Expander, Task, run_chunk
from uno_fsm.modelcheck.search import WorkerLost

AUTO_LEVEL = 20_000  # --jobs by default: every core once a level holds this many states
CONNECT_TIMEOUT = 10  # seconds to reach a Dask scheduler


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def chunk_size_for(frontier: int) -> int:
    """States per task: large enough to pay for sending them, small enough to share a level
    between the workers."""
    return max(32, min(2048, frontier // 16 or 1))


class InProcess:
    """The chunks expanded here, one after the other."""

    name = "in-process"
    workers = 1
    remote = False

    def __init__(self, expander: Expander) -> None:
        self.ex = expander

    def map(self, tasks: Sequence[Task]) -> Iterator[ChunkResult]:
        return (self.ex.chunk(t) for t in tasks)

    def close(self) -> None:
        pass


def _die_with_parent() -> None:
    """Linux: the kernel sends SIGKILL to this process when its parent dies."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _worker(config: CheckConfig, conn: Connection) -> None:
    """A local worker: chunks in, results out, until told to stop (None) or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _die_with_parent()
    ex = Expander(config)
    try:
        while True:
            try:
                task = conn.recv()
            except (EOFError, OSError):
                return
            if task is None:
                return
            conn.send(ex.chunk(task))
    finally:
        ex.close()


class Processes:
    """J local worker processes sharing one queue of chunks."""

    name = "processes"
    remote = True

    def __init__(self, config: CheckConfig, jobs: int) -> None:
        ctx = multiprocessing.get_context("fork")
        self.workers = jobs
        self.procs: list[Any] = []
        self.conns: list[Connection] = []
        try:
            for _ in range(jobs):
                mine, theirs = ctx.Pipe()
                p = ctx.Process(target=_worker, args=(config, theirs), daemon=True)
                p.start()
                theirs.close()
                self.procs.append(p)
                self.conns.append(mine)
        except BaseException:
            self.close()
            raise

    def map(self, tasks: Sequence[Task]) -> Iterator[ChunkResult]:
        results: dict[int, ChunkResult] = {}
        busy: dict[int, int] = {}  # worker -> the task it holds
        todo = iter(enumerate(tasks))
        nxt = 0
        total = len(tasks)

        def feed(w: int) -> None:
            item = next(todo, None)
            if item is not None:
                busy[w] = item[0]
                self.conns[w].send(item[1])

        for w in range(len(self.procs)):
            feed(w)
        while nxt < total:
            while nxt in results:
                yield results.pop(nxt)
                nxt += 1
            if nxt >= total:
                break
            ready = wait([*(self.conns[w] for w in busy), *(p.sentinel for p in self.procs)])
            for obj in ready:
                if isinstance(obj, int):
                    self._lost(obj)
            for w in list(busy):
                conn = self.conns[w]
                if conn in ready:
                    try:
                        res = conn.recv()
                    except (EOFError, OSError):
                        self._lost(self.procs[w].sentinel)
                    results[busy.pop(w)] = res
                    feed(w)

    def _lost(self, sentinel: int) -> None:
        for p in self.procs:
            if p.sentinel == sentinel and not p.is_alive():
                code = p.exitcode
                how = (f"killed by {signal.Signals(-code).name}" if code is not None and code < 0
                       else f"exit status {code}")
                raise WorkerLost(f"worker process {p.pid} died ({how})")

    def close(self) -> None:
        """End every worker: ask, then kill those still running after a moment."""
        for conn in self.conns:
            try:
                conn.send(None)
            except (OSError, ValueError):
                pass
        for p in self.procs:
            p.join(timeout=0.5)
        for p in self.procs:
            if p.is_alive():
                p.kill()
        for p in self.procs:
            p.join(timeout=5)
        for conn in self.conns:
            conn.close()
        self.procs, self.conns = [], []


class DaskExecutor:
    """The chunks as tasks of a Dask cluster (the `cluster` extra)."""

    name = "dask"
    remote = True

    def __init__(self, config: CheckConfig, address: str) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise WorkerLost("--cluster needs Dask distributed: "
                             "python -m pip install '.[cluster]'") from None
        self.config = config
        self.client: Any = None
        self.cluster: Any = None
        self.futures: list[Any] = []
        if address.startswith("local:"):
            count = address.removeprefix("local:")
            if not count.isdigit() or not 1 <= int(count) <= 256:
                raise ValueError(f"--cluster {address}: local:N with N from 1 to 256")
            self.cluster = LocalCluster(n_workers=int(count), threads_per_worker=1,
                                        processes=True, dashboard_address=None,
                                        silence_logs=50)
            address = self.cluster.scheduler_address
        try:
            self.client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise WorkerLost(f"--cluster {address}: no Dask scheduler answered "
                             f"({type(exc).__name__})") from None
        except BaseException:
            self.close()
            raise
        self.workers = len(self.client.scheduler_info().get("workers", {})) or 1

    def map(self, tasks: Sequence[Task]) -> Iterator[ChunkResult]:
        from distributed import KilledWorker

        self.futures = self.client.map(run_chunk, [self.config] * len(tasks), list(tasks),
                                       pure=False)
        try:
            for f in self.futures:
                yield f.result()
        except KilledWorker as exc:
            raise WorkerLost(f"the cluster lost its workers: {exc}") from None
        finally:
            self.futures = []

    def close(self) -> None:
        client = self.client
        if client is not None:
            if self.futures:
                client.cancel(self.futures, force=True)
            client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None
