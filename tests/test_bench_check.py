"""`uno-fsm bench --check` (uno_cli/bench_check.py): the shape of its report, never a timing (a
benchmark is not a timed test); both sides are this checkout here, on a tiny configuration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from uno_cli import bench_check
from uno_cli.main import main

ROOT = Path(__file__).parent.parent
TINY = (("tiny", ("--ruleset", "classic-official", "--deck",
                  "colors=red,yellow;numbers=1;actions=skip;wilds=", "--hand", "1",
                  "--depth", "1")),)


def test_side_by_side_report(monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bench_check, "CONFIGS", TINY)
    assert main(["bench", "--check", "--baseline", str(ROOT), "--repeat", "1",
                 "--format", "json"]) == 0
    r = json.loads(capsys.readouterr().out)["check"]
    assert set(r["sides"]) == {"this", "baseline"} and r["repeat"] == 1
    row = r["configurations"][0]
    assert row["name"] == "tiny" and row["args"] == list(TINY[0][1])
    for side in ("this", "baseline"):
        s = row[side]
        assert s["states"] > 0 and s["depth"] == 1 and s["violations"] == 0
        assert len(s["cpu_s_runs"]) == 1
        # the exploration's CPU time is the run less the set-up, or none below the threshold
        cpu = bench_check.exploration_cpu(s["cpu_s_runs"], r["setup_cpu_s"][side])
        if s["cpu_s"] is None:
            assert s["states_per_cpu_s"] is None
        else:
            # cpu_s is printed to the millisecond: the rate lies within that rounding
            low, high = s["cpu_s"] - 0.0005, s["cpu_s"] + 0.0005
            assert low >= bench_check.MEASURABLE_CPU_S - 0.0015 and cpu is not None
            assert s["states"] / high - 1 <= s["states_per_cpu_s"] <= s["states"] / low + 1
    assert row["this"]["states"] == row["baseline"]["states"]  # the same code both sides
    measured = row["this"]["cpu_s"] is not None and row["baseline"]["cpu_s"] is not None
    if measured:
        assert row["ratio_cpu_s"] == round(row["baseline"]["cpu_s"] / row["this"]["cpu_s"], 2)
    else:
        assert row["ratio_cpu_s"] is None and row["ratio_states_per_cpu_s"] is None
    assert r["target"]["value"] == row["ratio_states_per_cpu_s"]
    assert r["target"]["met"] == (measured and
                                  row["ratio_states_per_cpu_s"] >= bench_check.TARGET_RATIO)


def test_an_exploration_no_dearer_than_the_set_up_has_no_rate() -> None:
    """Issue 25's bench: a side whose runs cost about what the interpreter's start costs gets no
    rate (a CPU time clamped near zero gave rates of hundreds of thousands of states per
    second and a ratio of noise)."""
    setup = 0.30
    assert bench_check.exploration_cpu([0.30, 0.29, 0.31], setup) is None
    assert bench_check.exploration_cpu([0.28], setup) is None  # below the set-up
    assert bench_check.exploration_cpu([0.30 + bench_check.MEASURABLE_CPU_S / 2], setup) is None
    assert bench_check.exploration_cpu([1.30, 1.50, 1.40], setup) == pytest.approx(1.10)


def test_the_text_says_when_a_rate_is_not_measurable() -> None:
    side = {"states": 32, "transitions": 40, "depth": 1, "violations": 0, "cpu_s": None,
            "cpu_s_runs": [0.3], "states_per_cpu_s": None}
    report = {"repeat": 1, "setup_cpu_s": {"this": 0.3, "baseline": 0.3},
              "sides": {"this": "a", "baseline": "b"},
              "configurations": [{"name": "tiny", "args": ["--depth", "1"], "this": side,
                                  "baseline": side, "ratio_states_per_cpu_s": None,
                                  "ratio_cpu_s": None}],
              "target": {"target": ">= 10.0x", "value": None, "met": False}}
    text = bench_check.render_text(report)
    assert text.count(bench_check.UNMEASURABLE) == 2
    assert "no ratio (a side's CPU time is not measurable)" in text
    assert text.rstrip().endswith("target: >= 10.0x: not measurable: MISSED")


@pytest.mark.parametrize(("argv", "message"), [
    (["--check", "--baseline", "/nonexistent"], "uno-fsm bench: --baseline /nonexistent: not a "
     "source directory of uno-fsm (no uno_cli/__main__.py)\n"),
    (["--baseline", str(ROOT)], "uno-fsm bench: --baseline goes with --check\n"),
    (["--check", "--baseline", ""], None),
])
def test_bad_baselines_are_refused(argv: list[str], message: str | None,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", *argv]) == 2
    err = capsys.readouterr().err
    if message is not None:
        assert err == message
    else:
        assert "an empty path" in err and err.count("\n") == 1
