"""`uno-fsm bench` with tiny sizes: the shape of its output, never its timings."""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from uno_cli import bench, bench_games
from uno_cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SMALL_CORPUS = ROOT / "conformance" / "corpus" / "classic"
TINY = ["--repeat", "1", "--actions", "1", "--fuzz-examples", "1"]  # one game a side


def _corpus_file() -> Path:
    files = sorted(SMALL_CORPUS.rglob("*.yaml"))
    assert files, "no scenario file in the bundled corpus"
    return files[0]


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["bench", "--format", "json", *TINY, "--corpus", str(_corpus_file())])
    assert code == 0
    data = json.loads(buf.getvalue())
    assert isinstance(data, dict)
    return data


CONFIGS = {"classic-official/2", "classic-official/4", "classic-official/10", "flip/4",
           "variants/4"}
ENGINE_SIDES = {"uno_fsm_rlcard_policy", "uno_fsm_random"}
RLCARD_SIDES = {"rlcard_step", "rlcard_round_loop"}


def _check_side(side: dict[str, Any], games: int) -> None:
    assert side["games"] == games and side["actions"] > 0 and side["repetitions"] == 1
    assert side["hands"] >= games
    assert side["actions_per_game"] == round(side["actions"] / games, 1)
    assert side["hands_per_game"] == round(side["hands"] / games, 2)
    assert side["actions_per_hand"] == round(side["actions"] / side["hands"], 1)
    assert side["legal_per_decision"] >= 1  # a decision lists at least the action taken
    for key in ("actions_per_s", "us_per_action", "setup_us_per_game", "setup_us_per_hand",
                "decide_us_per_action", "actions_per_s_with_setup"):
        spread = side[key]
        assert set(spread) == {"median", "min", "max"}
        assert 0 < spread["min"] <= spread["median"] <= spread["max"]


def test_json_report_has_every_measure(report: dict[str, Any]) -> None:
    assert set(report) >= {"machine", "games", "ratio_step_like_for_like",
                           "ratio_round_loop_like_for_like", "corpus", "fuzz", "diff", "memory",
                           "targets", "sizes"}
    machine = report["machine"]
    assert machine["cpu_count"] and machine["python"] and machine["platform"]
    assert "python-statemachine" in machine["packages"]
    # the build of the engine measured: the checkout is pure Python (tests/test_packaging.py
    # checks the compiled build's "mypyc")
    assert machine["engine_build"] == "python"

    games = report["games"]
    assert set(games) == CONFIGS
    expected = {"classic-official/2": ("classic-official", 2),
                "classic-official/4": ("classic-official", 4),
                "classic-official/10": ("classic-official", 10),
                "flip/4": ("flip", 4)}
    for name, entry in games.items():
        if name in expected:
            assert (entry["ruleset"], entry["players"]) == expected[name]
        for side in ENGINE_SIDES:
            _check_side(entry["sides"][side], games=1)
    variants = games["variants/4"]["ruleset"].split("+")
    assert variants[0] == "classic-official" and len(variants) > 2


def test_rlcard_sides_and_ratios_or_a_clear_note(report: dict[str, Any]) -> None:
    games = report["games"]
    for name in ("flip/4", "variants/4"):  # RLCard plays neither: said, never a ratio
        entry = games[name]
        assert set(entry["sides"]) == ENGINE_SIDES
        assert entry["ratio_step_like_for_like"] is None
        assert entry["ratio_round_loop_like_for_like"] is None
        assert entry["rlcard"]["compared"] is False
        assert "RLCard has no" in entry["rlcard"]["reason"]
    classic = [n for n in CONFIGS if n.startswith("classic-official/")]
    if not bench.rlcard_available():
        assert report["ratio_step_like_for_like"] is None
        assert "rlcard" in str(report["notes"])
        for name in classic:
            assert set(games[name]["sides"]) == ENGINE_SIDES
            assert "extra" in games[name]["rlcard"]["reason"]
        return
    for name in classic:
        entry = games[name]
        assert set(entry["sides"]) == ENGINE_SIDES | RLCARD_SIDES
        for side in RLCARD_SIDES:
            _check_side(entry["sides"][side], games=1)
            assert entry["sides"][side]["hands"] == 1  # an RLCard game is one hand
        # both RLCard loops play the very same games (same seeds, same choices)
        step, loop = entry["sides"]["rlcard_step"], entry["sides"]["rlcard_round_loop"]
        assert step["actions"] == loop["actions"]
        assert step["legal_per_decision"] == loop["legal_per_decision"]
        ratios = entry["ratios"]
        assert set(ratios) == {"step_like_for_like", "round_loop_like_for_like",
                               "step_random_policy", "round_loop_random_policy",
                               "step_with_setup_random_policy"}
        for spread in ratios.values():
            assert 0 < spread["min"] <= spread["median"] <= spread["max"]
        assert entry["ratio_step_like_for_like"] == ratios["step_like_for_like"]["median"]
        assert entry["ratio_round_loop_like_for_like"] == \
            ratios["round_loop_like_for_like"]["median"]
    four = games["classic-official/4"]
    assert report["ratio_step_like_for_like"] == four["ratio_step_like_for_like"]
    assert report["ratio_round_loop_like_for_like"] == four["ratio_round_loop_like_for_like"]


def test_corpus_fuzz_memory_and_targets(report: dict[str, Any]) -> None:
    corpus = report["corpus"]
    assert isinstance(corpus, dict)
    assert corpus["scenarios"] >= 1
    for key in ("load_s", "load_cold_s"):  # from the cache; without it
        assert isinstance(corpus[key], float) and corpus[key] >= 0
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
        assert diff[label]["steps_per_cpu_s"] > 0
        assert diff[label]["divergences"] == 0  # the reference against itself
    assert diff["stdio"]["adapter"].startswith("stdio:")

    memory = report["memory"]
    assert isinstance(memory, dict)
    assert memory["uno_fsm"]["peak_bytes"] > 0 and memory["uno_fsm"]["actions"] > 0

    targets = report["targets"]
    assert isinstance(targets, dict)
    assert set(targets) == {"ratio_step_like_for_like", "ratio_round_loop_like_for_like",
                            "corpus_load_s", "fuzz_steps_per_s",
                            "diff_rlcard_in_process_steps_per_s", "diff_rlcard_stdio_steps_per_s"}
    for t in targets.values():
        assert t["met"] in (True, False, None)
    # the diff targets read the diff's own figures (RLCard measured: the tests install it)
    for label in ("rlcard_in_process", "rlcard_stdio"):
        t = targets[f"diff_{label}_steps_per_s"]
        assert t["value"] == diff[label]["steps_per_s"] and t["met"] is (t["value"] >= float(
            t["target"].removeprefix(">= ")))


def test_text_format(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", *TINY, "--corpus", str(_corpus_file())])
    assert code == 0
    out = capsys.readouterr().out
    for needle in ("machine:", "engine: pure Python", "like-for-like stepping",
                   "classic-official/10", "flip/4", "RLCard has no UNO Flip", "conformance corpus",
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
    assert data["ratio_step_like_for_like"] is None
    assert data["ratio_round_loop_like_for_like"] is None
    assert data["targets"]["ratio_step_like_for_like"]["met"] is None
    assert data["targets"]["diff_rlcard_in_process_steps_per_s"] == {
        "target": ">= 2000.0", "value": None, "met": None}
    assert data["targets"]["diff_rlcard_stdio_steps_per_s"]["met"] is None
    four = data["games"]["classic-official/4"]
    assert set(four["sides"]) == ENGINE_SIDES and four["rlcard"]["compared"] is False
    assert "not installed" in four["rlcard"]["reason"]
    assert "rlcard" not in data["memory"]


# ---- the same work on every side, in turns --------------------------------------------------
def test_every_side_steps_the_same_actions_in_whole_games_and_in_turns() -> None:
    calls: list[tuple[str, int]] = []

    def side(name: str, length: int) -> Any:
        def play(j: int) -> bench_games.Tally:  # game j: `length` actions
            calls.append((name, j))
            t = bench_games.Tally()
            t.add_game(1, length, length, 0.0, 1.0, 0.0)
            return t
        return play

    sides = {"short": side("short", 300), "long": side("long", 1_700)}
    actions = 3 * bench_games.TURN + 1
    done = bench_games._repetition(sides, list(sides), actions, first=0)
    for name, length in (("short", 300), ("long", 1_700)):
        t = done[name]
        # at least `actions`, in whole games, and no game more than needed
        assert actions <= t.actions < actions + length and t.actions == t.games * length
        # game j of a side is game j: the same games in every repetition
        assert [j for n, j in calls if n == name] == list(range(t.games))
    # in turns: at no moment is one side more than a turn (and a game) ahead of the other
    stepped = {"short": 0, "long": 0}
    ahead = 0
    for name, _ in calls:
        stepped[name] += 300 if name == "short" else 1_700
        ahead = max(ahead, abs(stepped["short"] - stepped["long"]))
    assert ahead <= bench_games.TURN + 1_700 < actions
    # another repetition starts its turns with another side
    calls.clear()
    bench_games._repetition(sides, list(sides), bench_games.TURN, first=1)
    assert calls[0][0] == "short"


# ---- RLCard's policy on the engine (the like-for-like side) --------------------------------
def _choices(setup: dict[str, Any], n: int = 40) -> set[str]:
    from uno_fsm.game import Game

    game = Game.from_setup("classic-official", setup)
    rng = random.Random(0)
    return {str(bench_games._rlcard_policy(game, game.legal_actions(), rng)) for _ in range(n)}


def test_rlcard_policy_plays_when_it_can_and_a_wild_draw_four_last() -> None:
    base = {"players": 2, "hands": {1: ["G1", "G2"]}, "discard": ["R3"], "draw": ["R9", "G5"]}
    # R5 is playable: never the Wild Draw Four, never a draw
    assert _choices({**base, "hands": {0: ["R5", "W4", "B7"], **base["hands"]}}) == \
        {"P0 play R5"}
    # nothing but the Wild Draw Four: it, in any colour
    four = _choices({**base, "hands": {0: ["G5", "W4", "B7"], **base["hands"]}})
    assert four == {f"P0 play W4 {c}" for c in "RYGB"}
    # two cards left: UNO is called with the play
    assert _choices({**base, "hands": {0: ["R5", "B7"], **base["hands"]}}) == {"P0 play R5 UNO!"}


def test_rlcard_policy_draws_only_when_unable_and_plays_the_drawn_card() -> None:
    from uno_fsm.game import Game

    game = Game.from_setup("classic-official", {
        "players": 2, "hands": {0: ["G5", "B7"], 1: ["G1", "G2"]}, "discard": ["R3"],
        "draw": ["R9", "G5"]})
    rng = random.Random(0)
    action = bench_games._rlcard_policy(game, game.legal_actions(), rng)
    assert action.kind == "draw"
    game.apply(action)
    assert game.state.phase == "play_drawn"
    assert str(bench_games._rlcard_policy(game, game.legal_actions(), rng)) == "P0 play R9"
