"""`uno-fsm fuzz`: runs for a time, reports steps/second, exits 1 on a failure with a
conformance scenario, and replays a stored failure first."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from uno_cli.main import main
from uno_fsm import fuzz
from uno_fsm.rules import Rules

settings.register_profile("fuzz-cli-test", settings.get_profile(fuzz.LONG_PROFILE),
                          max_examples=20, stateful_step_count=40)


def test_fuzz_runs_for_the_time_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(fuzz, "LONG_PROFILE", "fuzz-cli-test")
    t = time.monotonic()
    code = main(["fuzz", "--minutes", "0.04", "--ruleset", "classic-official", "--players", "3",
                 "--seed", "1", "--database", str(tmp_path / "db")])
    assert code == 0
    assert 2.4 <= time.monotonic() - t < 30
    err = capsys.readouterr().err
    assert "steps/second" in err and "skipped" not in err


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
    t = time.monotonic()
    assert main([*argv[:-4], "--seed", "99", "--database", str(db)]) == 1  # replayed first
    assert time.monotonic() - t < 10
    assert "[CL.D2.EFFECT]" in capsys.readouterr().out
