"""`uno-fsm bench` with tiny sizes: the shape of its output, never its timings."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from uno_cli import bench
from uno_cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SMALL_CORPUS = ROOT / "conformance" / "corpus" / "classic"
TINY = ["--repeat", "1", "--games", "1", "--rlcard-games", "2", "--fuzz-examples", "1"]


def _corpus_file() -> Path:
    files = sorted(SMALL_CORPUS.rglob("*.yaml"))
    assert files, "no scenario file in the bundled corpus"
    return files[0]


@pytest.fixture(scope="module")
def report() -> dict[str, object]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["bench", "--format", "json", *TINY, "--corpus", str(_corpus_file())])
    assert code == 0
    data = json.loads(buf.getvalue())
    assert isinstance(data, dict)
    return data


def test_json_report_has_every_measure(report: dict[str, object]) -> None:
    data: dict[str, object] = report
    assert set(data) >= {"machine", "games", "ratio_actions_per_s_vs_rlcard", "corpus", "fuzz",
                         "memory", "targets", "sizes"}
    machine = data["machine"]
    assert isinstance(machine, dict)
    assert machine["cpu_count"] and machine["python"] and machine["platform"]
    assert "python-statemachine" in machine["packages"]

    games = data["games"]
    assert isinstance(games, dict)
    assert set(games) == {"2", "4"}
    for entry in games.values():
        ours = entry["uno_fsm"]
        assert ours["games"] == 1 and ours["actions"] > 0 and ours["rounds"] >= 1
        assert ours["games_per_s"] > 0 and ours["actions_per_s"] > 0
        assert ours["actions_per_game"] == ours["actions"] / ours["games"]


def test_rlcard_comparison_or_a_clear_note(report: dict[str, object]) -> None:
    games = report["games"]
    assert isinstance(games, dict)
    four = games["4"]
    if bench.rlcard_available():
        assert four["rlcard"]["games"] == 2 and four["rlcard"]["actions_per_s"] > 0
        ratio = report["ratio_actions_per_s_vs_rlcard"]
        assert isinstance(ratio, float) and ratio > 0
        assert ratio == four["ratio_actions_per_s"]
    else:
        assert report["ratio_actions_per_s_vs_rlcard"] is None
        assert four["rlcard"]["available"] is False
        assert "rlcard" in str(report["notes"])


def test_corpus_fuzz_memory_and_targets(report: dict[str, object]) -> None:
    corpus = report["corpus"]
    assert isinstance(corpus, dict)
    assert corpus["scenarios"] >= 1
    for label in ("in_process", "stdio"):
        run = corpus[label]
        assert run["summary"]["total"] == corpus["scenarios"]
        assert run["summary"]["failed"] == run["summary"]["errored"] == 0
        assert run["scenarios_per_s"] > 0
    assert corpus["stdio"]["adapter"].startswith("stdio:")
    assert corpus["stdio_over_in_process"] > 0

    fuzz = report["fuzz"]
    assert isinstance(fuzz, dict)
    assert fuzz["steps"] > 0 and fuzz["steps_per_s"] > 0

    diff = report["diff"]
    assert isinstance(diff, dict)
    assert diff["examples"] == 5  # --fuzz-examples 1
    for label in ("in_process", "stdio"):
        assert diff[label]["steps"] > 0 and diff[label]["steps_per_s"] > 0
        assert diff[label]["divergences"] == 0  # the reference against itself
    assert diff["stdio"]["adapter"].startswith("stdio:")

    memory = report["memory"]
    assert isinstance(memory, dict)
    assert memory["uno_fsm"]["peak_bytes"] > 0 and memory["uno_fsm"]["actions"] > 0

    targets = report["targets"]
    assert isinstance(targets, dict)
    assert set(targets) == {"ratio_actions_per_s_vs_rlcard", "corpus_in_process_s",
                            "stdio_over_in_process"}
    for t in targets.values():
        assert t["met"] in (True, False, None)


def test_text_format(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", *TINY, "--corpus", str(_corpus_file())])
    assert code == 0
    out = capsys.readouterr().out
    for needle in ("machine:", "random legal full games", "conformance corpus",
                   "stateful fuzzing", "differential fuzzing", "peak memory", "targets"):
        assert needle in out


def test_sizes_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--repeat", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_without_rlcard_the_rest_is_measured(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bench, "rlcard_available", lambda: False)
    code = main(["bench", "--format", "json", *TINY, "--corpus", str(_corpus_file())])
    assert code == 0
    captured = capsys.readouterr()
    assert "rlcard" in captured.err and "extra" in captured.err
    data = json.loads(captured.out)
    assert data["ratio_actions_per_s_vs_rlcard"] is None
    assert data["targets"]["ratio_actions_per_s_vs_rlcard"]["met"] is None
    assert data["games"]["4"]["uno_fsm"]["actions"] > 0
    assert "rlcard" not in data["memory"]
