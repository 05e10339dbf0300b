"""Shared by the harness tests: hostile programs, their scenarios, and the process check."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance import processes
from conformance.adapters.stdio import StdioAdapter
from conformance.runner import Runner, RunReport
from conformance.scenario import Scenario, load_corpus

FIX = Path(__file__).parent / "fixtures" / "conformance"
HOSTILE = [sys.executable, str(FIX / "hostile_stdio.py")]
HARNESS = load_corpus([FIX / "scenarios" / "harness.yaml"]).scenarios
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(FIX), os.environ.get("PYTHONPATH", "")])}
if str(FIX) not in sys.path:
    sys.path.insert(0, str(FIX))

linux_only = pytest.mark.skipif(not processes.TREE_TRACKING,
                                reason="process trees are tracked on Linux only")


@pytest.fixture(autouse=True)
def no_process_left() -> Iterator[None]:
    """After each case: this process has no descendant left, not even a zombie."""
    before = set(processes.descendants(os.getpid()))
    yield
    left = {p: s for p, s in processes.descendants(os.getpid()).items() if p not in before}
    assert left == {}, f"processes left running: {left}"


def pids(pidfile: Path) -> list[int]:
    """The pids a hostile program wrote; each one must be gone."""
    if not pidfile.exists():
        return []
    return [int(x) for x in pidfile.read_text(encoding="ascii").split()]


def gone(pidfile: Path) -> list[int]:
    """The pids of `pidfile` still alive (expected: none)."""
    return [p for p in pids(pidfile) if processes.alive(p)]


def hostile(*args: str, timeout: float = 1.0, **kw: object) -> StdioAdapter:
    return StdioAdapter([*HOSTILE, *args], timeout=timeout, **kw)  # type: ignore[arg-type]


def run(factory_args: list[str], scenarios: list[Scenario] | None = None, *,
        timeout: float = 1.0, **kw: object) -> tuple[RunReport, list[StdioAdapter]]:
    """Run `scenarios` (default: the three harness ones) against hostile_stdio.py."""
    made: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        made.append(hostile(*factory_args, timeout=timeout, **kw))
        return made[-1]

    report = Runner(factory, timeout=timeout).run(scenarios or HARNESS)
    return report, made


def verdicts(report: RunReport) -> list[tuple[str, str, str]]:
    return [(r.id, r.status, r.message) for r in report.results]
