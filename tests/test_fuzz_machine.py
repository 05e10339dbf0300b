"""Stateful Hypothesis fuzzing of the engine, under the `ci` profile (docs/fuzzing.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uno_fsm import Game, fuzz

SUPPORTED = [r for r in fuzz.ALL_RULESETS if fuzz.unsupported_reason(r) is None]


def _param(ruleset: str, players: int | tuple[int, int]) -> object:
    why = fuzz.unsupported_reason(ruleset)
    marks = [pytest.mark.skip(reason=why)] if why else []
    return pytest.param(ruleset, players, marks=marks, id=f"{ruleset}-{players}")


@pytest.mark.parametrize("ruleset,players", [
    _param("classic-official", (2, 10)),
    _param("classic-2022", (2, 10)),
    _param("classic-official+cards-2018", (2, 10)),
    _param("classic-2022+cards-2018", (3, 10)),
    _param("classic-guide", (2, 10)),
    _param("classic-official", 2),
    _param("classic-2022", 2),
    _param("classic-official+seven-o", (2, 10)),
    _param("classic-official+stacking", (2, 10)),
    _param("classic-2022+jump-in", (2, 10)),
    _param("classic-official+swap-hands", (2, 10)),
    _param("flip", (2, 10)),
    _param("flip", 2),
])
def test_state_machine(ruleset: str, players: int | tuple[int, int]) -> None:
    fuzz.run(fuzz.make_machine(ruleset, players), "ci")


@pytest.mark.parametrize("ruleset", SUPPORTED)
def test_deck_is_complete(ruleset: str) -> None:
    g = Game.new(ruleset, players=4, seed=1)
    assert len(g.state.all_cards()) == fuzz.deck_size(ruleset)


def test_deck_sizes_from_the_rules() -> None:
    assert fuzz.deck_size("classic-official") == 108
    assert fuzz.deck_size("classic-2022+cards-2018") == 112
    assert fuzz.deck_size("flip") == 112


_games = st.tuples(
    st.sampled_from([r for r in SUPPORTED]), st.integers(2, 10), st.integers(0, 2**32 - 1),
    st.lists(st.integers(0, 1023), min_size=20, max_size=250),
)


def _play(ruleset: str, players: int, seed: int, picks: list[int]) -> Game:
    g = Game.new(ruleset, players=players, seed=seed)
    for i in picks:
        legal = g.legal_actions()
        if not legal:
            break
        g.apply(legal[i % len(legal)])
    return g


@fuzz.settings(fuzz.settings.get_profile("ci"), max_examples=25)
@given(_games)
def test_replay_is_deterministic(game: tuple[str, int, int, list[int]]) -> None:
    ruleset, players, seed, picks = game
    g = _play(ruleset, players, seed, picks)
    again = Game.replay(ruleset, players, seed, g.log)
    assert again.state == g.state
    assert again.to_json() == g.to_json()


@fuzz.settings(fuzz.settings.get_profile("ci"), max_examples=25)
@given(_games, st.lists(st.integers(0, 1023), min_size=5, max_size=60))
def test_json_round_trip_plays_on_identically(game: tuple[str, int, int, list[int]],
                                              more: list[int]) -> None:
    ruleset, players, seed, picks = game
    g = _play(ruleset, players, seed, picks)
    h = Game.from_json(g.to_json())
    assert h.state == g.state and h.to_json() == g.to_json() and h.log == g.log
    for i in more:
        legal = g.legal_actions()
        assert legal == h.legal_actions()
        if not legal:
            break
        a = legal[i % len(legal)]
        assert g.apply(a) == h.apply(a)
        assert g.state == h.state


@fuzz.settings(fuzz.settings.get_profile("ci"), max_examples=30)
@given(
    st.sampled_from(SUPPORTED), st.one_of(st.integers(2, 4), st.integers(2, 10)),
    st.integers(0, 2**32 - 1),
    st.lists(st.tuples(st.integers(0, 3).map(bool), st.integers(0, 1023)), min_size=60,
             max_size=300),
    st.randoms(use_true_random=False),
)
def test_fast_path_and_machine_agree(ruleset: str, players: int, seed: int,
                                     stream: list[tuple[bool, int]], rnd: random.Random) -> None:
    """Same events, errors and states through Game.apply and Game.apply_via_machine (few
    players and long streams, so that rounds end and UNO windows open)."""
    assert fuzz.compare_paths(ruleset, players, seed, stream, rnd) == len(stream)


def test_every_rule_id_the_fuzzer_checks_exists() -> None:
    import re
    from pathlib import Path

    src = Path(fuzz.__file__).read_text(encoding="utf-8")
    named = set(re.findall(r'"((?:CL|CL18|CL22|V|FL|P)\.[A-Z0-9.-]+[A-Z0-9])"', src))
    assert named and not named - fuzz.rule_ids()


def test_challenge_rule_ids_exist() -> None:
    for kind, (*_, prefix) in fuzz.CHALLENGEABLE.items():
        suffixes = ["ACCEPT"] if kind == "wd4" else [
            "ACCEPT", "GUILTY", "INNOCENT", "CHALLENGER", "COLOUR-STANDS"]
        for suffix in suffixes:
            assert prefix + suffix in fuzz.rule_ids()
