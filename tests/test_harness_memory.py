"""The memory cap on every program an adapter starts (docs/robustness.md, "Processes").

The supervisor caps the data memory (RLIMIT_DATA) of the program before exec; whatever the
program forks inherits the cap. A program that allocates without bound fails to allocate and
crashes: its scenario is errored with the reason, the run goes on with a fresh program, no
process is left. The cases use a 64 MiB cap (each about a tenth of a second); the fixtures stop
at 1 GiB should a cap fail (the scenario would then time out, and the case fail).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from harness_helpers import (  # noqa: F401 - no_process_left is an autouse fixture
    FIX,
    HARNESS,
    HOSTILE,
    gone,
    hostile,
    linux_only,
    no_process_left,
    pids,
    run,
    verdicts,
)

from conformance import processes, supervisor
from conformance.adapters import resolve
from conformance.adapters.stdio import StdioAdapter
from conformance.runner import Runner
from uno_cli.main import main

pytestmark = linux_only

MIB = 1 << 20
CAP = 64 * MIB
NOTE = ("the program ran with its data memory capped at 64 MiB per process (RLIMIT_DATA; "
        "--memory-limit)")
PASSED_2_3 = [("harness.2", "passed", ""), ("harness.3", "passed", "")]


def own_data_limit() -> tuple[int | None, int | None]:
    """This process's RLIMIT_DATA (None: unlimited), what a program without a cap inherits."""
    import resource

    return tuple(None if v == resource.RLIM_INFINITY else v  # type: ignore[return-value]
                 for v in resource.getrlimit(resource.RLIMIT_DATA))


def expected_limit(cap: int) -> str:
    """`SOFT HARD` as /proc/<pid>/limits prints them for a program capped at `cap` bytes
    (0: no cap; a lower limit in force stays)."""
    soft, hard = own_data_limit()
    if cap:
        hard = cap if hard is None else min(cap, hard)
        soft = min(cap, hard) if soft is None else min(cap, soft, hard)
    return " ".join("unlimited" if v is None else str(v) for v in (soft, hard))


def data_limit(pid: int) -> str:
    with open(f"/proc/{pid}/limits", encoding="ascii") as f:
        line = next(x for x in f if x.startswith("Max data size"))
    return " ".join(line.split()[3:5])


def test_a_program_allocating_without_bound_is_errored_and_the_run_goes_on(
        tmp_path: Path) -> None:
    f = tmp_path / "pids"
    report, made = run(["--mode", "alloc", "--seed", "1", "--pidfile", str(f)],
                       memory_limit=CAP)
    assert verdicts(report) == [
        ("harness.1", "errored",
         "crashed: setup: adapter exited with status 1 before answering (stderr: MemoryError)"),
        *PASSED_2_3]
    detail = report.results[0].detail
    assert detail.startswith(NOTE + "\nstderr: ") and detail.endswith("\nMemoryError")
    assert len(made) == 2  # a fresh program for the next scenario
    assert len(pids(f)) == 2 and gone(f) == []


def test_a_child_the_program_forks_inherits_the_cap(tmp_path: Path) -> None:
    f = tmp_path / "pids"
    report, made = run(["--mode", "fork-alloc", "--seed", "1", "--pidfile", str(f)],
                       memory_limit=CAP)
    assert verdicts(report) == [
        ("harness.1", "errored", "crashed: setup: adapter exited with status 4 before "
         "answering (stderr: child exited with status 1)"), *PASSED_2_3]
    assert "MemoryError\nchild exited with status 1" in report.results[0].detail
    assert len(pids(f)) == 3 and gone(f) == []  # the program, its child, the next program


def test_the_cap_is_on_the_program_and_its_children_not_on_the_supervisor(
        tmp_path: Path) -> None:
    """Read from /proc/<pid>/limits of the live processes: the default cap when none is
    given (StdioAdapter's default is the one definition, supervisor.MEMORY_LIMIT)."""
    f = tmp_path / "pids"
    a = hostile("--mode", "child", "--when", "hello", "--pidfile", str(f))
    assert a.memory_limit == supervisor.MEMORY_LIMIT == 4096 * MIB
    a.hello()
    try:
        program, child = pids(f)
        assert data_limit(program) == data_limit(child) == expected_limit(4096 * MIB)
        assert a.pid is not None and data_limit(a.pid) == expected_limit(0)  # the supervisor
    finally:
        a.close()
    assert gone(f) == []


def test_no_cap_with_0(tmp_path: Path) -> None:
    f = tmp_path / "pids"
    a = hostile("--mode", "child", "--when", "hello", "--pidfile", str(f), memory_limit=0)
    a.hello()
    try:
        assert [data_limit(p) for p in pids(f)] == 2 * [expected_limit(0)]
    finally:
        a.close()


def test_a_worker_allocating_without_bound_answers_memory_error_and_is_replaced() -> None:
    """A `module:` adapter (as rlcard, uno-game) in its worker: the worker answers the
    MemoryError (internal-error), the runner throws the worker away, a fresh one plays on."""
    spec = resolve("module:hanging_adapter:AllocatingAdapter", timeout=2, memory_limit=CAP)
    made: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        made.append(spec.factory())
        return made[-1]

    assert verdicts(Runner(factory, timeout=2).run(HARNESS)) == [
        ("harness.1", "errored", "internal-error: setup: MemoryError"), *PASSED_2_3]
    assert [m.memory_limit for m in made] == [CAP, CAP]


def test_resolve_passes_the_cap_to_every_program_it_starts() -> None:
    made = [resolve(s, memory_limit=CAP).factory() for s in
            ("stdio:true", "module:hanging_adapter:AllocatingAdapter")]
    assert [m.memory_limit for m in made] == [CAP, CAP]
    assert resolve("stdio:true").factory().memory_limit == supervisor.MEMORY_LIMIT


def test_the_cli_run_reports_the_crash_writes_the_report_and_exits_1(tmp_path: Path) -> None:
    f = tmp_path / "pids"
    program = shlex.join([*HOSTILE, "--mode", "alloc", "--seed", "2", "--pidfile", str(f)])
    proc = subprocess.run(
        [sys.executable, "-m", "uno_cli", "conformance", "run",
         str(FIX / "scenarios" / "harness.yaml"), "--adapter", f"stdio:{program}",
         "--memory-limit", "64", "--timeout", "5", "--no-expectations", "--format", "json",
         "--output", str(tmp_path / "report.json")], capture_output=True, text=True,
        timeout=60)
    assert proc.returncode == 1, proc.stderr
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert [(r["id"], r["status"], r["message"]) for r in data["results"]] == [
        ("harness.1", "passed", ""),
        ("harness.2", "errored", "crashed: setup: adapter exited with status 1 before "
         "answering (stderr: MemoryError)"),
        ("harness.3", "passed", "")]
    assert data["results"][1]["detail"].startswith(NOTE)
    assert len(pids(f)) == 2 and gone(f) == []  # the program, the next one


@pytest.mark.parametrize(("option", "cap"), [
    ([], 4096 * MIB), (["--memory-limit", "64"], CAP), (["--memory-limit", "0"], 0)])
def test_the_cli_option_and_its_default(tmp_path: Path, option: list[str], cap: int) -> None:
    """The program prints its own limit (from /proc/self/limits) and exits: without the
    option the default cap, with it the value given, with 0 none."""
    program = shlex.join([*HOSTILE, "--mode", "limits", "--seed", "1"])
    out = tmp_path / "report.json"
    assert main(["conformance", "run", str(FIX / "scenarios" / "harness.yaml"),
                 "--adapter", f"stdio:{program}", *option, "--timeout", "5",
                 "--no-expectations", "--format", "json", "--output", str(out)]) == 1
    first = json.loads(out.read_text(encoding="utf-8"))["results"][0]
    assert first["message"] == ("crashed: setup: adapter exited with status 4 before "
                                f"answering (stderr: data limit: {expected_limit(cap)})")


def test_limit_memory_keeps_a_lower_limit_in_force() -> None:
    code = ("import resource, sys; sys.path.insert(0, sys.argv[1]); "
            "from conformance import supervisor; "
            "resource.setrlimit(resource.RLIMIT_DATA, (32 << 20, resource.RLIM_INFINITY)); "
            "print(supervisor.limit_memory(64 << 20), "
            "resource.getrlimit(resource.RLIMIT_DATA))")
    out = subprocess.run([sys.executable, "-c", code, str(Path(supervisor.__file__).parents[1])],
                         capture_output=True, text=True, timeout=30, check=True).stdout
    assert out.strip() == f"True ({32 << 20}, {64 << 20})"


def test_without_the_resource_module_the_program_runs_uncapped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supervisor, "resource", None)
    assert supervisor.limit_memory(CAP) is False


def test_off_linux_no_supervisor_and_no_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without /proc the program runs directly (no supervisor): the cap is not applied, and
    a crash's detail does not claim it."""
    monkeypatch.setattr(supervisor, "TREE_TRACKING", False)
    monkeypatch.setattr(processes, "TREE_TRACKING", False)
    assert supervisor.supervisor_argv(["prog", "x"], CAP) == ["prog", "x"]
    assert StdioAdapter(["prog"], memory_limit=CAP).limits() == ""


def test_the_supervisor_command_line() -> None:
    argv = supervisor.supervisor_argv(["prog", "x"], CAP)
    assert argv[1:3] == ["-I", "-S"] and argv[4:] == ["--memory-limit", str(CAP), "--",
                                                      "prog", "x"]
    assert supervisor.supervisor_argv(["prog"], 0)[4:] == ["--", "prog"]


@pytest.mark.parametrize("value", [-1, 2.5, True, "64"])
def test_stdio_adapter_refuses_a_bad_memory_limit(value: object) -> None:
    with pytest.raises(ValueError, match="memory_limit must be a whole number of bytes"):
        StdioAdapter(["prog"], memory_limit=value)  # type: ignore[arg-type]
