"""Issue 24 item 7: the `events` observation. The reference declares it; an expectation lists
events of some kinds, and exactly those of these kinds must be observed, in order, each on the
sub-keys it gives; the corpus fails on an engine that drops the `caught` event."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.compare import compare
from conformance.scenario import load_corpus
from uno_cli.main import main

ROOT = Path(__file__).resolve().parent.parent
MUTANT = ROOT / "tests" / "fixtures" / "mutant_serve.py"

CAUGHT = [{"kind": "caught", "player": 0, "rule": "CL.UNO.CATCH"},
          {"kind": "drew", "player": 0, "rule": "CL.UNO.CATCH-PENALTY", "count": 2}]


def test_the_reference_declares_events() -> None:
    assert "events" in ReferenceAdapter().hello()["observations"]


def test_events_of_the_kinds_listed_match_one_for_one() -> None:
    want = [{"kind": "caught", "player": 0}]
    assert compare({"events": want}, {"events": CAUGHT}) == []  # drew: another kind
    assert compare({"events": want}, {"events": [CAUGHT[1]]})[0].describe() == \
        "events.kinds: expected ['caught'], observed []"
    twice = compare({"events": want}, {"events": [CAUGHT[0], CAUGHT[0]]})
    assert [m.describe() for m in twice] == [  # a repeated event fails
        "events.kinds: expected ['caught'], observed ['caught', 'caught']"]
    wrong = compare({"events": [{"kind": "caught", "player": 1}]}, {"events": CAUGHT})
    assert [(m.key, m.expected, m.observed) for m in wrong] == [("events[0].player", 1, 0)]
    order = [{"kind": "drew"}, {"kind": "caught"}]
    assert [m.key for m in compare({"events": order}, {"events": CAUGHT})] == ["events.kinds"]
    assert compare({"events": [{"kind": "drew", "count": {"min": 1, "max": 2}}]},
                   {"events": CAUGHT}) == []
    assert compare({"events": [{"kind": "Caught", "rule": "CL.UNO.CATCH"}]},
                   {"events": CAUGHT}) == []
    assert compare({"events": want}, {"events": "garbage"})[0].key == "events"


def test_the_corpus_covers_the_event_kinds() -> None:
    kinds = {e["kind"] for sc in load_corpus().scenarios for st in sc.steps
             for e in (st.expect or {}).get("events", ())}
    assert kinds >= {"dealt", "caught", "flipped", "skipped-everyone", "color", "game-over"}


@pytest.mark.parametrize(("mutant", "feature", "failed", "mismatch"), [
    ("no-caught", "uno-catch", ["classic.events.caught"],
     {"key": "events.kinds", "expected": ["caught", "drew"], "observed": ["drew"]}),
    ("no-dealt", "game-start", ["classic.events.dealt.game-start"],
     {"key": "events.kinds", "expected": ["dealer", "dealt", "first-card"],
      "observed": ["dealer", "first-card"]}),
    ("flipped-wrong-card", "flip", ["flip.events.flipped"],
     {"key": "events[1].card", "expected": "B2/T6", "observed": "RF/O4"}),
    ("game-over-twice", "scoring", ["classic.events.game-over.once"],
     {"key": "events.kinds", "expected": ["went-out", "game-over"],
      "observed": ["went-out", "game-over", "game-over"]}),
])
def test_the_corpus_fails_on_an_engine_with_an_event_bug(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], mutant: str, feature: str,
        failed: list[str], mismatch: dict[str, object]) -> None:
    """The engine with the bug planted (tests/fixtures/mutant_serve.py: the game plays on
    as before, only an event is dropped, misnamed or repeated) fails the corpus's event
    scenario and nothing else of the feature's scenarios."""
    out = tmp_path / "report.json"
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(MUTANT))} {mutant}"
    code = main(["conformance", "run", "--adapter", f"stdio:{command}", "--feature", feature,
                 "--no-expectations", "--format", "json", "-o", str(out), "-q"])
    capsys.readouterr()
    report = json.loads(out.read_text())
    assert code == 1
    assert [r["id"] for r in report["results"] if r["status"] != "passed"] == failed
    bad = next(r for r in report["results"] if r["id"] == failed[0])
    assert bad["mismatches"] == [mismatch]
