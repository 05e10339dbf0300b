"""The uno-engine Node adapter at the protocol level: hello, set-up, refusals, pipelining, bye."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest
import uno_engine_helpers
import yaml
from uno_engine_helpers import ENGINE_PACKAGE, ROOT, command, exchange, request

HELLO = request(1, "hello", {"protocol": "uno-conformance/1"})
# Seat 0 to play on a red 7: R2 matches, G3 does not; seat 1 next.
POSITION = {"players": 3, "dealer": 2, "current": 0, "direction": "clockwise",
            "hands": {"0": ["R2", "G3", "W", "B5"], "1": ["Y5", "G2"], "2": ["G4", "B6"]},
            "discard": ["B4", "R7"], "active_color": "red", "draw": ["B1", "G6", "R9", "Y2"]}


def setup(position: dict[str, Any] = POSITION, seed: int = 0, rid: int = 2) -> dict[str, Any]:
    return request(rid, "setup", {"ruleset": "classic-official", "seed": seed,
                                  "setup": position})


def act(rid: int, **action: Any) -> dict[str, Any]:
    return request(rid, "act", {"action": action})


def observe(rid: int, keys: list[str]) -> dict[str, Any]:
    return request(rid, "observe", {"keys": keys})


def hello() -> dict[str, Any]:
    [answer] = exchange([HELLO])
    assert answer["id"] == 1
    return dict(answer["result"])


def test_hello_declares_what_uno_engine_has_and_nothing_more() -> None:
    caps = hello()
    installed = json.loads(ENGINE_PACKAGE.read_text(encoding="utf-8"))["version"]
    known = yaml.safe_load((ROOT / "conformance" / "implementations" / "uno-engine.yaml")
                           .read_text(encoding="utf-8"))
    assert caps["protocol"] == "uno-conformance/2"
    assert caps["players"] == {"min": 2, "max": 10}
    assert (caps["name"], caps["version"]) == ("uno-engine", installed)
    assert caps["version"] == known["package"]["version"] == "2.0.3"
    assert caps["pipelining"] is True
    assert caps["rulesets"] == ["classic-official"]
    registry = {f["id"] for f in yaml.safe_load(
        (ROOT / "spec" / "features.yaml").read_text(encoding="utf-8"))["features"]}
    assert set(caps["features"]) <= registry
    # no challenge, no dealt position, no discard pile in uno-engine
    for missing in ("wd4-challenge", "first-card", "deal", "game-start", "flip", "stacking"):
        assert missing not in caps["features"]
    for missing in ("discard_size", "total_cards", "dealer", "side", "views"):
        assert missing not in caps["observations"]


def test_the_position_is_the_engine_state() -> None:
    keys = ["hands", "hand_sizes", "top", "active_color", "current", "pending", "direction",
            "draw_size", "scores", "round_over", "winner"]
    answers = exchange([HELLO, setup(), observe(3, keys)])
    assert answers[1] == {"id": 2, "result": {}}
    assert answers[2]["result"] == {
        "hands": {"0": ["R2", "G3", "W", "B5"], "1": ["Y5", "G2"], "2": ["G4", "B6"]},
        "hand_sizes": {"0": 4, "1": 2, "2": 2}, "top": "R7", "active_color": "red",
        "current": 0, "pending": {"player": 0, "decision": "play"}, "direction": "clockwise",
        "draw_size": 4, "scores": {"0": 0, "1": 0, "2": 0}, "round_over": False,
        "winner": None}


REJECTED = [
    ({"player": 0, "play": "G3"}, "card-does-not-match"),
    ({"player": 0, "play": "Y9"}, "card-not-in-hand"),
    ({"player": 0, "play": "W4", "color": "blue"}, "card-not-in-hand"),
    ({"player": 1, "play": "Y5"}, "not-your-turn"),
    ({"player": 2, "draw": True}, "not-your-turn"),
    ({"player": 0, "play": "W"}, "color-required"),
    ({"player": 0, "play": "W", "color": "purple"}, "invalid-color"),
    ({"player": 0, "pass": True}, "wrong-decision"),
    ({"player": 0, "play": "X9"}, "malformed-action"),
    ({"player": 7, "play": "R2"}, "malformed-action"),
]


@pytest.mark.parametrize(("action", "code"), REJECTED, ids=[c for _, c in REJECTED])
def test_a_rejected_action_leaves_the_state_unchanged(action: dict[str, Any], code: str) -> None:
    keys = hello()["observations"]
    answers = exchange([HELLO, setup(), observe(3, keys), act(4, **action), observe(5, keys),
                        act(6, player=0, play="W", color="green"), observe(7, ["hands", "top"])])
    assert answers[3]["id"] == 4 and answers[3]["error"]["code"] == code
    assert answers[4]["result"] == answers[2]["result"]
    # the Wild left in the hand after the refusal is still playable with a colour
    assert answers[5] == {"id": 6, "result": {}}
    assert answers[6]["result"] == {"hands": {"0": ["R2", "G3", "B5"], "1": ["Y5", "G2"],
                                              "2": ["G4", "B6"]}, "top": "W"}


def test_an_unplayable_drawn_card_passes_the_turn_a_playable_one_waits() -> None:
    keys = ["hands", "current", "pending", "draw_size"]
    stuck = {**POSITION, "hands": {"0": ["G3", "B5"], "1": ["Y5"], "2": ["G4"]}}
    answers = exchange([HELLO, setup(stuck), act(3, player=0, draw=True), observe(4, keys),
                        setup({**stuck, "draw": ["R9", "G6"]}, rid=5),
                        act(6, player=0, draw=True), observe(7, keys)])
    assert answers[3]["result"] == {"hands": {"0": ["G3", "B5", "B1"], "1": ["Y5"], "2": ["G4"]},
                                    "current": 1, "pending": {"player": 1, "decision": "play"},
                                    "draw_size": 3}
    assert answers[6]["result"]["pending"] == {"player": 0, "decision": "play-drawn"}
    assert answers[6]["result"]["hands"]["0"] == ["G3", "B5", "R9"]


UNSUPPORTED = [
    ("ruleset", "classic-2022", POSITION),
    ("start-round", "classic-official", {k: v for k, v in POSITION.items()
                                         if k not in ("current", "discard", "active_color")}
     | {"start": "round"}),
    ("empty-draw-pile", "classic-official", {**POSITION, "draw": []}),
    ("running-scores", "classic-official", {**POSITION, "scores": {"0": 10, "1": 0, "2": 0}}),
    ("active-colour", "classic-official", {**POSITION, "active_color": "blue"}),
]


@pytest.mark.parametrize(("ruleset", "position"), [(r, p) for _, r, p in UNSUPPORTED],
                         ids=[i for i, _, _ in UNSUPPORTED])
def test_a_setup_the_engine_cannot_represent_is_unsupported(ruleset: str,
                                                           position: dict[str, Any]) -> None:
    answers = exchange([HELLO, request(2, "setup", {"ruleset": ruleset, "seed": 0,
                                                    "setup": position})])
    assert answers[1]["id"] == 2 and answers[1]["error"]["code"] == "unsupported"


def test_an_action_without_an_engine_api_is_unsupported() -> None:
    answers = exchange([HELLO, setup(), act(3, player=1, challenge=True),
                        act(4, player=0, color="green")])
    assert [a["error"]["code"] for a in answers[2:]] == ["unsupported", "unsupported"]


def test_the_victims_acceptance_of_a_wild_draw_four_is_the_engines_effect() -> None:
    keys = ["hands", "current", "pending", "top", "active_color"]
    wd4 = {**POSITION, "hands": {"0": ["W4", "B5"], "1": ["Y5"], "2": ["G4", "B6"]}}
    answers = exchange([
        HELLO, setup(wd4), act(3, player=0, play="W4", color="green"), observe(4, keys),
        act(5, player=2, challenge=False), act(6, player=1, challenge=True),
        act(7, player=1, challenge=False), observe(8, keys),
        act(9, player=1, challenge=False)])
    after_play = answers[3]["result"]
    # Game.play already gave seat 1 four cards and skipped them
    assert after_play == {"hands": {"0": ["B5"], "1": ["Y5", "B1", "G6", "R9", "Y2"],
                                    "2": ["G4", "B6"]},
                          "current": 2, "pending": {"player": 2, "decision": "play"},
                          "top": "W4", "active_color": "green"}
    assert [a["error"]["code"] for a in answers[4:6]] == ["unsupported", "unsupported"]
    assert answers[6] == {"id": 7, "result": {}}
    assert answers[7]["result"] == after_play
    assert answers[8]["error"]["code"] == "unsupported"  # nothing left to accept


def test_a_last_wild_without_colour_ends_the_hand_with_no_colour_in_force() -> None:
    last = {**POSITION, "hands": {"0": ["W"], "1": ["Y5"], "2": ["G4", "B6"]}}
    answers = exchange([HELLO, setup(last), act(3, player=0, play="W"),
                        observe(4, ["top", "active_color", "round_over", "winner", "current"])])
    assert answers[2] == {"id": 3, "result": {}}
    assert answers[3]["result"] == {"top": "W", "active_color": None, "round_over": True,
                                    "winner": 0, "current": None}


def test_the_seed_fixes_the_engines_global_random() -> None:
    # Drawing the pile's last card makes uno-engine rebuild and shuffle a full deck with
    # Math.random (Deck.draw): the next card drawn depends on the seed only.
    last = {**POSITION, "hands": {"0": ["G3"], "1": ["G5", "Y5"], "2": ["G4", "B6"]},
            "draw": ["B1"]}

    def next_card(seed: int) -> str:
        answers = exchange([HELLO, setup(last, seed=seed), act(3, player=0, draw=True),
                            act(4, player=1, draw=True), observe(5, ["hands", "draw_size"])])
        assert answers[4]["result"]["draw_size"] == 107
        return str(answers[4]["result"]["hands"]["1"][-1])

    assert next_card(5) == next_card(5)
    assert len({next_card(seed) for seed in range(8)}) > 1


def test_pipelined_requests_are_answered_in_order() -> None:
    requests: list[dict[str, Any]] = [HELLO]
    rid = 1
    for _ in range(40):
        requests.append(setup(rid=rid + 1))
        requests.append(act(rid + 2, player=0, play="R2"))
        requests.append(observe(rid + 3, ["top", "current"]))
        rid += 3
    answers = exchange(requests)
    assert [a["id"] for a in answers] == [r["id"] for r in requests]
    assert all(a["result"] == {"top": "R2", "current": 1} for a in answers[3::3])


def test_a_line_that_is_not_json_is_a_bad_request_and_the_program_goes_on() -> None:
    answers = exchange(["{not json", HELLO])
    assert answers[0]["error"]["code"] == "bad-request"
    assert answers[1]["result"]["name"] == "uno-engine"


def test_bye_answers_and_exits_with_stdin_still_open() -> None:
    proc = subprocess.Popen(command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(HELLO) + "\n" + json.dumps(request(2, "bye")) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        assert json.loads(proc.stdout.readline()) == {"id": 2, "result": {}}
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_skipped_only_without_node_outside_ci(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Any) -> None:
    monkeypatch.setattr(uno_engine_helpers.shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        uno_engine_helpers.node()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI: node is not installed"):
        uno_engine_helpers.node()


@pytest.mark.parametrize("ci", ["true", None])
def test_uno_engine_not_installed_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
                                        ci: str | None) -> None:
    monkeypatch.setattr(uno_engine_helpers, "ENGINE_PACKAGE", tmp_path / "package.json")
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match="npm ci --prefix"):
        uno_engine_helpers.node()
