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
        # cpu_s is printed to the millisecond: the rate lies within that rounding
        low, high = s["cpu_s"] - 0.0005, s["cpu_s"] + 0.0005
        assert s["states"] / high - 1 <= s["states_per_cpu_s"] <= s["states"] / low + 1
    assert row["this"]["states"] == row["baseline"]["states"]  # the same code both sides
    assert row["ratio_cpu_s"] == round(row["baseline"]["cpu_s"] / row["this"]["cpu_s"], 2)
    assert r["target"]["value"] == row["ratio_states_per_cpu_s"]
    assert r["target"]["met"] == (row["ratio_states_per_cpu_s"] >= bench_check.TARGET_RATIO)


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
