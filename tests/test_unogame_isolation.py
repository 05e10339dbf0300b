"""uno-game runs out of process (`--adapter uno-game`): a Wild turned first makes uno-game loop
forever; the adapter's watchdog stops the loop, and where it cannot, the stdio timeout kills the
child. Either way the scenario is errored, the next one runs, and no process is left."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("uno", reason="uno-game is not installed (pip install '.[uno-game]')")

from uno_cli.main import main  # noqa: E402

SCENARIOS = """\
scenarios:
  - id: test.uno-game.first-wild
    title: A Wild turned first
    ruleset: classic-official
    cites: ['wiki-br:official:24']
    rules: [CL.FIRST.WILD]
    features: [first-card]
    setup:
      players: 2
      dealer: 1
      start: round
      hands: {0: [R1], 1: [R2]}
      draw: [W, R5]
    steps:
      - expect: {pending: {player: 0, decision: color}}
  - id: test.uno-game.next
    title: The next scenario still runs
    ruleset: classic-official
    cites: ['classic-br:play:5']
    rules: [CL.PLAY.MATCH-COLOUR]
    features: [basic-play]
    setup:
      players: 2
      dealer: 1
      current: 0
      hands: {0: [R1, G2], 1: [R2]}
      discard: [R5]
      draw: [R7]
    steps:
      - act: {player: 0, play: R1}
      - expect: {current: 1, top: R1}
"""


def _children() -> set[int]:
    import os

    me = os.getpid()
    out: set[int] = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:
            out.add(int(stat.parent.name))
    return out


@pytest.mark.parametrize("calls, hang, timeout, message", [
    ("", "100", "10", "uno-game-hung: uno-game's game thread made 20000 calls without asking "
                      "a player or ending: it loops"),
    ("0", "0.3", "10", "uno-game-hung: uno-game's game thread neither asked a player nor "
                       "ended within 0.3 s: it loops"),
    ("0", "100", "1", "timeout"),
])
def test_a_looping_uno_game_is_stopped_and_the_run_goes_on(
        calls: str, hang: str, timeout: str, message: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_GAME_HANG_CALLS", calls)
    monkeypatch.setenv("UNO_GAME_HANG_SECONDS", hang)
    corpus, out = tmp_path / "hang.yaml", tmp_path / "report.json"
    corpus.write_text(SCENARIOS, encoding="utf-8")
    before = _children()
    code = main(["conformance", "run", str(corpus), "--adapter", "uno-game", "--timeout",
                 timeout, "--no-expectations", "--format", "json", "--output", str(out),
                 "--no-progress"])
    assert code == 1
    results = {r["id"]: r for r in json.loads(out.read_text(encoding="utf-8"))["results"]}
    assert results["test.uno-game.first-wild"]["status"] == "errored"
    assert message in results["test.uno-game.first-wild"]["message"]
    assert results["test.uno-game.next"]["status"] == "passed"
    assert _children() <= before
