"""Stateful Hypothesis fuzzing of the engine, under the `ci` profile (docs/fuzzing.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uno_fsm import Game, fuzz
from uno_fsm.invariants import rule_ids
from uno_fsm.oracle import CHALLENGEABLE, Facts, deck_size
from uno_fsm.rules import VARIANTS

SUPPORTED = [r for r in fuzz.ALL_RULESETS if fuzz.unsupported_reason(r) is None]


def _param(ruleset: str, players: int | tuple[int, int]) -> object:
    why = fuzz.unsupported_reason(ruleset)
    marks = [pytest.mark.skip(reason=why)] if why else []
    return pytest.param(ruleset, players, marks=marks, id=f"{ruleset}-{players}")


@pytest.mark.parametrize("ruleset,players", [
    _param("classic-official", (2, 10)),
    _param("classic-2022", (2, 10)),
    _param("classic-2022+cards-2018", (3, 10)),
    _param("classic-guide", (2, 10)),
    _param("classic-official", 2),
    _param("classic-2022", 2),
    _param("classic-2022+jump-in", (2, 10)),
    _param("flip", (2, 10)),
    _param("flip", 2),
    # every variant, in the first ruleset it declares (`Variant.fuzz`, the registry)
    *(_param(v.fuzz[0].ruleset, (2, 10)) for v in VARIANTS if v.fuzz),
])
def test_state_machine(ruleset: str, players: int | tuple[int, int]) -> None:
    fuzz.run(fuzz.make_machine(ruleset, players), "ci")


@pytest.mark.parametrize("ruleset", SUPPORTED)
def test_deck_is_complete(ruleset: str) -> None:
    g = Game.new(ruleset, players=4, seed=1)
    assert len(g.state.all_cards()) == deck_size(Facts.of(ruleset))


def test_deck_sizes_from_the_rules() -> None:
    assert deck_size(Facts.of("classic-official")) == 108
    assert deck_size(Facts.of("classic-2022+cards-2018")) == 112
    assert deck_size(Facts.of("classic-official+swap-hands")) == 109
    assert deck_size(Facts.of("flip")) == 112


_games = st.tuples(
    st.sampled_from([r for r in SUPPORTED]), st.integers(2, 10), st.integers(0, 2**32 - 1),
    st.lists(st.integers(0, 1023), min_size=20, max_size=250),
)


def _seats(ruleset: str, players: int) -> int:
    """`players` if the ruleset is played with that many, else one of the counts it allows
    (partners: an even count from four)."""
    counts = Facts.of(ruleset).seat_counts(2, 10)
    return players if players in counts else counts[players % len(counts)]


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
    players = _seats(ruleset, players)
    g = _play(ruleset, players, seed, picks)
    again = Game.replay(ruleset, players, seed, g.log)
    assert again.state == g.state
    assert again.to_json() == g.to_json()


@fuzz.settings(fuzz.settings.get_profile("ci"), max_examples=25)
@given(_games, st.lists(st.integers(0, 1023), min_size=5, max_size=60))
def test_json_round_trip_plays_on_identically(game: tuple[str, int, int, list[int]],
                                              more: list[int]) -> None:
    ruleset, players, seed, picks = game
    g = _play(ruleset, _seats(ruleset, players), seed, picks)
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
    assert fuzz.compare_paths(ruleset, _seats(ruleset, players), seed, stream, rnd) == len(stream)


def test_every_rule_id_the_fuzzer_checks_exists() -> None:
    """Every rule ID written in the oracle, the invariants, the fuzzer and the variants' own
    postconditions (`Variant.oracle`, in their modules) is in spec/rules."""
    import re
    from pathlib import Path

    from uno_fsm import invariants, oracle

    files = [Path(fuzz.__file__), Path(invariants.__file__),
             *Path(oracle.__file__).parent.glob("*.py"),
             # the variants' modules, by name (a compiled build has no source file to inspect)
             *(Path(__file__).resolve().parents[1] / f"{v.__module__.replace('.', '/')}.py"
               for v in VARIANTS)]
    named = {rid for f in files for rid in re.findall(
        r'"((?:CL|CL18|CL22|V|FL|FLALT|PARTNERS)\.[A-Z0-9.-]+[A-Z0-9])"',
        f.read_text(encoding="utf-8"))}
    assert len(named) > 80 and {"PARTNERS.TARGET", "FLALT.OWN-HAND", "V.STACK.NO-CROSS",
                                 "CL.WD4.CHALLENGE.GUILTY"} <= named
    assert not named - rule_ids()


def test_challenge_rule_ids_exist() -> None:
    for kind, (*_, prefix) in CHALLENGEABLE.items():
        suffixes = ["ACCEPT"] if kind == "wd4" else [
            "ACCEPT", "GUILTY", "INNOCENT", "CHALLENGER", "COLOUR-STANDS"]
        for suffix in suffixes:
            assert prefix + suffix in rule_ids()


def test_what_a_ruleset_plays_is_read_from_its_params() -> None:
    """oracle.Facts reads the composed ruleset's params, not the spelling of its name: the same
    name with other params is another game (the model checker's reduced games rely on it)."""
    from uno_spec.rulesets import deep_merge, load_ruleset

    official = Facts.of("classic-official")
    assert official.variants == frozenset() and not official.flip
    assert (official.hand, official.target, official.first_card["wd4"]) == (
        7, 500, "return-shuffle-and-turn-again")
    assert Facts.of("classic-official+stacking+jump-in").variants == {"stacking", "jump-in"}
    assert Facts.of("classic-2022").target is None  # one hand (CL22.SCORE.ONE-HAND)
    assert Facts.of("classic-2022+play-for-points").target == 500
    partners = Facts.of("classic-2022+partners")
    assert partners.plays("partners") and partners.seat_counts(2, 10) == [4, 6, 8, 10]
    assert Facts.of("classic-official+cards-2018").plays("cards-2018")
    assert Facts.of("classic-2022+swap-hands").plays("swap-hands")
    assert Facts.of("flip+flip-alt-scoring").plays("flip-alt-scoring") and Facts.of("flip").flip
    params = deep_merge(load_ruleset("classic-official").params,
                        {"seven_o": {"enabled": True}, "hand_size": 2,
                         "scoring": {"target": 30}})
    reduced = Facts.of("classic-official", params)
    assert (reduced.name, reduced.plays("seven-o"), reduced.hand, reduced.target) == (
        "classic-official", True, 2, 30)
