"""`uno-fsm check --jobs J` and `--cluster ADDRESS` (uno_fsm/modelcheck/executors.py): one
work queue and one visited set, wherever the states are expanded, so the result is the one of
`--jobs 1`: the same states, transitions, depth and violations (docs/model-checking.md,
"Every core, and past one machine")."""

from __future__ import annotations

import functools
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_modelcheck_symmetry import BUGS, SYM
from uno_cli.main import main
from uno_fsm import modelcheck as mc


def same(r: mc.Result) -> tuple[object, ...]:
    return (r.states, r.transitions, r.depth, r.levels, r.complete, r.violation_count,
            sorted((v.kind, v.rule, len(v.path)) for v in r.violations), r.coverage.edges)


@functools.cache
def one() -> mc.Result:
    return mc.explore(SYM, jobs=1)  # up to three hands, two colours: 7,074 states


def test_two_local_processes_give_the_result_of_one() -> None:
    two = mc.explore(SYM, jobs=2)
    assert two.workers == 2 and two.executor == "processes"
    assert same(two) == same(one()) and two.complete


def test_a_local_dask_cluster_of_two_workers_gives_the_result_of_one() -> None:
    pytest.importorskip("distributed")
    dask = mc.explore(SYM, cluster="local:2")
    assert dask.executor == "dask" and dask.workers == 2
    assert same(dask) == same(one()) and dask.complete


def test_a_planted_bug_found_by_two_processes_is_the_one_found_in_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_modelcheck_symmetry import reshuffle_loses_a_card

    # the workers are forked after the patch: they run the patched engine
    reshuffle_loses_a_card(monkeypatch)
    here = mc.explore(BUGS)
    there = mc.explore(BUGS, jobs=2)
    assert here.violation_count > 0 and same(there) == same(here)
    assert [v.scenario for v in there.violations] == [v.scenario for v in here.violations]


@pytest.mark.parametrize(("argv", "message"), [
    (["--cluster", ""], "uno-fsm check: --cluster: an address such as tcp://host:8786, or "
     "local:N\n"),
    (["--cluster", "local:0"], "uno-fsm check: --cluster local:0: local:N with N from 1 to "
     "256\n"),
    (["--cluster", "tcp://host:8786\nlocal:2"], "uno-fsm check: --cluster: an address such as "
     "tcp://host:8786, or local:N\n"),
    (["--cluster", "x" * 2000], "uno-fsm check: --cluster: an address such as tcp://host:8786, "
     "or local:N\n"),
    (["--cluster", "local:2", "--jobs", "2"], "uno-fsm check: --jobs and --cluster do not go "
     "together (the cluster has its workers)\n"),
])
def test_bad_cluster_options_are_refused(argv: list[str], message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *argv]) == 2
    assert capsys.readouterr().err == message


def test_an_unreachable_scheduler_is_one_line(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    from uno_fsm.modelcheck import executors

    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", 1)  # (10 s by default)
    assert main(["check", "--depth", "1", "--cluster", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("uno-fsm check: --cluster tcp://127.0.0.1:9: no Dask scheduler "
                          "answered") and err.count("\n") == 1


def test_the_json_report_leads_with_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--depth", "1", "--format", "json", "--jobs", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out)[:5] == ["verdict", "violations", "complete", "bound", "interrupted"]
    assert out["verdict"] == "ok" and out["complete"] is False
    assert out["bound"] == "--depth 1" and out["workers"] == 2


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="ascii")
    except OSError:
        return []
    return [int(x) for x in text.split()]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_main_process_ends_every_worker_and_reports(sig: int) -> None:
    # a configuration that takes far longer than the test waits (about 60,000 states)
    argv = [sys.executable, "-m", "uno_cli", "check", "--ruleset", "classic-official",
            "--deck", "colors=red,yellow;numbers=1;actions=skip,reverse;wilds=", "--hand", "1",
            "--target", "3", "--unbounded", "--jobs", "2", "--format", "json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).parent.parent)
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) == 2, "the two workers never started"
        time.sleep(1.0)  # some levels explored
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + sig, err
    report = json.loads(out)
    assert report["verdict"] == "interrupted" and report["interrupted"] == signal.Signals(sig).name
    assert report["complete"] is False and report["states"] > 0 and report["frontier"] > 0
    for pid in workers:  # ended and reaped before the report was written
        assert not Path(f"/proc/{pid}").exists(), pid
