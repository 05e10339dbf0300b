"""`uno-fsm fuzz`: runs for a time, reports steps/second, exits 1 on a failure with a
conformance scenario, and replays a stored failure first."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import Phase, settings

from uno_cli import fuzz as fuzz_cli
from uno_cli.main import main
from uno_fsm import fuzz
from uno_fsm.rules import Rules

settings.register_profile("fuzz-cli-test", settings.get_profile(fuzz.LONG_PROFILE),
                          max_examples=20, stateful_step_count=40)
# only the examples stored in the database, none generated
settings.register_profile("fuzz-cli-replay", settings.get_profile("fuzz-cli-test"),
                          phases=[Phase.reuse, Phase.shrink])


def _fake_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fuzzer's clock: each batch moves it on by 1 s (counts of batches are exact; no
    test here asserts a wall-clock duration)."""
    now = [1000.0]
    real_run = fuzz.run

    def one_batch(*args: Any, **kwargs: Any) -> None:
        now[0] += 1.0
        real_run(*args, **kwargs)

    monkeypatch.setattr(fuzz_cli, "time", SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(fuzz, "run", one_batch)


def test_fuzz_runs_for_the_time_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Batches run until the clock passes `--minutes`."""
    monkeypatch.setattr(fuzz, "LONG_PROFILE", "fuzz-cli-test")
    _fake_clock(monkeypatch)
    code = main(["fuzz", "--minutes", "0.04", "--ruleset", "classic-official", "--players", "3",
                 "--seed", "1", "--database", str(tmp_path / "db")])
    assert code == 0
    err = capsys.readouterr().err
    # 0.04 min = 2.4 s: batches start at 0, 1 and 2 s; at 3 s the time is up
    assert "3 batches" in err and "steps/second" in err and "skipped" not in err


def test_fuzz_refuses_a_ruleset_it_cannot_fuzz(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["fuzz", "--minutes", "0.01", "--ruleset", "no-such-ruleset",
                 "--database", str(tmp_path / "db")])
    assert code == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("uno-fsm fuzz: cannot fuzz no-such-ruleset: engine cannot deal "
                           "'no-such-ruleset': SpecError: ")
    assert "unknown ruleset 'no-such-ruleset'" in line


def test_fuzz_failure_is_reported_stored_and_replayed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    original = Rules.give

    def give(self: Rules, seat: int, n: int, rule: str) -> Any:
        return original(self, seat, 1 if rule == "CL.D2.EFFECT" else n, rule)  # BUG

    monkeypatch.setattr(Rules, "give", give)
    monkeypatch.setattr(fuzz, "LONG_PROFILE", "fuzz-cli-test")  # small examples shrink fast
    db = tmp_path / "db"
    argv = ["fuzz", "--minutes", "1", "--ruleset", "classic-official", "--players", "3",
            "--seed", "2", "--database", str(db)]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "[CL.D2.EFFECT]" in out
    assert "ruleset: classic-official" in out and "steps:" in out and "TODO(human)" in out
    assert any(p.is_file() for p in db.rglob("*"))
    # another seed, no example generated: the stored failure is replayed first
    monkeypatch.setattr(fuzz, "LONG_PROFILE", "fuzz-cli-replay")
    _fake_clock(monkeypatch)
    assert main([*argv[:-4], "--seed", "99", "--database", str(db)]) == 1
    out = capsys.readouterr().out
    assert "[CL.D2.EFFECT]" in out and "(seed 99, batch 0)" in out
    # the same with an empty database has nothing to replay and generates nothing
    assert main([*argv[:-4], "--seed", "99", "--database", str(tmp_path / "empty")]) == 1
    out = capsys.readouterr().out
    assert "run no test cases" in out and "[CL.D2.EFFECT]" not in out
