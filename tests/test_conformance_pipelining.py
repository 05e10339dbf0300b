"""Pipelined stdio (an adapter declaring `"pipelining": true`): same verdicts, same robustness."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from conformance.adapters.stdio import StdioAdapter
from conformance.runner import Result, Runner
from conformance.scenario import load_corpus

FIX = Path(__file__).parent / "fixtures" / "conformance"
PIPE = [sys.executable, str(FIX / "fake_stdio_pipelining.py")]
TINY = load_corpus([FIX / "scenarios" / "tiny.yaml"]).scenarios
sys.path.insert(0, str(FIX))

from tiny_engine import WrongAdapter  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(FIX), os.environ.get("PYTHONPATH", "")])}


def _verdicts(results: list[Result]) -> list[tuple[str, str, int | None, str]]:
    return [(r.id, r.status, r.step, r.message) for r in results]


# The crash / hang / garbage / huge-line / wrong-id cases run pipelined too: see
# tests/test_conformance_stdio.py::test_run_survives_every_kind_of_misbehaviour.


def test_pipelined_verdicts_equal_sequential_and_in_process_ones() -> None:
    """A wrong implementation fails the same steps with the same messages whichever way it is
    driven; after a failed step the rest of the pipeline is dropped, not the process."""
    in_process = Runner(WrongAdapter).run(TINY).results
    sequential = Runner(lambda: StdioAdapter([sys.executable, str(FIX / "fake_stdio.py"),
                                              "--wrong"], timeout=5)).run(TINY).results
    adapters: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        adapters.append(StdioAdapter([*PIPE, "--wrong"], timeout=5))
        return adapters[-1]

    pipelined = Runner(factory).run(TINY).results
    assert any(r.status == "failed" for r in in_process)
    assert _verdicts(pipelined) == _verdicts(sequential) == _verdicts(in_process)
    assert len(adapters) == 1 and adapters[0].restarts == 0


def test_conformance_serve_declares_pipelining_and_passes_through_it() -> None:
    spec_cmd = [sys.executable, "-m", "uno_cli", "conformance", "serve",
                "--adapter", "module:tiny_engine:FakeAdapter"]
    adapters: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        adapters.append(StdioAdapter(spec_cmd, timeout=10, env=ENV))
        return adapters[-1]

    runner = Runner(factory)
    report = runner.run(TINY)
    assert runner.caps.get("pipelining") is True
    assert report.summary()["passed"] == 5
    assert len(adapters) == 1 and adapters[0].restarts == 0


def test_send_receive_keep_order_and_drain_drops_answers() -> None:
    a = StdioAdapter(PIPE, timeout=5)
    try:
        assert a.hello()["pipelining"] is True
        first = a.send("setup", TINY[0].setup_params())
        a.send("observe", {"keys": ["current"]})
        last = a.send("observe", {"keys": ["top"]})
        assert a.pending == 3 and last == first + 2
        assert a.receive() == {"id": first, "result": {}}
        a.drain(upto=first + 1)
        assert a.pending == 1
        assert a.receive()["result"] == {"top": TINY[0].setup["discard"][-1]}
        assert a.observe(["current"]) == {"current": TINY[0].setup["current"]}
    finally:
        a.close()


def test_a_pipeline_bigger_than_both_pipes_does_not_deadlock() -> None:
    """Requests and answers each far beyond a pipe's 64 KiB: writing reads answers meanwhile."""
    a = StdioAdapter(PIPE, timeout=20)
    try:
        a.hello()
        a.setup(TINY[0].setup_params())
        keys = ["hands", "hand_sizes", "top", "active_color", "current", "direction",
                "draw_size", "discard_size"]
        calls: list[tuple[str, dict[str, object] | None]] = \
            [("observe", {"keys": keys, "padding": "x" * 100})] * 3000
        last = a.pipeline(calls)
        answers = [a.receive() for _ in range(3000)]
        assert answers[-1]["id"] == last and a.pending == 0
        assert all(m["result"]["current"] == TINY[0].setup["current"] for m in answers)
    finally:
        a.close()


def test_a_crash_after_the_deciding_step_keeps_the_verdict(tmp_path: Path) -> None:
    """The program crashes on a request sent ahead, after the step that failed the scenario:
    the scenario stays `failed` at that step, and the next one runs on a fresh process."""
    setup = ("{players: 2, dealer: 1, current: 0, hands: {0: [R7, G3], 1: [Y3, Y7]}, "
             "discard: [R5], draw: [B2]}")
    common = ("ruleset: classic-official, cites: [classic-br:play:1], rules: [], "
              "features: [basic-play]")
    (tmp_path / "s.yaml").write_text(
        "scenarios:\n"
        f"  - {{id: p.1-fails-then-crashes, title: t, seed: 6, {common}, setup: {setup},\n"
        "     steps: [{expect: {current: 1}}, {act: {player: 0, play: R7}}]}\n"
        f"  - {{id: p.2-fine, title: t, seed: 0, {common}, setup: {setup},\n"
        "     steps: [{act: {player: 0, play: R7}}, {expect: {current: 1, top: R7}}]}\n",
        encoding="utf-8")
    scenarios = load_corpus([tmp_path / "s.yaml"]).scenarios
    made: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        made.append(StdioAdapter(PIPE, timeout=5))
        return made[-1]

    results = Runner(factory).run(scenarios).results
    assert [(r.id, r.status, r.step) for r in results] == [
        ("p.1-fails-then-crashes", "failed", 1), ("p.2-fine", "passed", None)]
    assert "current" in results[0].message
    assert len(made) == 2 and all(a._proc is None for a in made)
