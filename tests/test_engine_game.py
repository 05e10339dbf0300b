"""Game API: illegal actions leave the state unchanged, JSON round trip, seed + log replay,
random games holding invariants, views hide what a player may not see."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from uno_fsm import Action, Game, IllegalAction
from uno_fsm.cards import parse
from uno_fsm.deck import build_deck
from uno_fsm.errors import ERROR_CODES
from uno_fsm.invariants import check_invariants, check_rejected
from uno_fsm.oracle import Facts
from uno_fsm.params import Params

RULESETS = ["classic-official", "classic-2022", "classic-official+cards-2018",
            "classic-2022+seven-o"]


def random_action(game: Game, rng: random.Random) -> Action:
    """A random action, legal or not (cards from anywhere, any seat, any kind)."""
    st = game.state
    n = st.players
    seat = rng.randrange(n)
    cards = st.all_cards()
    kind = rng.choice(["play", "play", "draw", "pass", "color", "challenge", "accept", "swap",
                       "uno", "catch", "hint", "wrong-card", "next-round"])
    if kind == "play":
        card = rng.choice(cards)
        color = rng.choice([None, "R", "G", "P", "X"]) if card.light.is_wild else None
        return Action("play", seat, card, color, rng.random() < 0.2)
    if kind in ("catch", "swap"):
        return Action(kind, seat, target=rng.randrange(n))
    if kind == "hint":
        return Action.hint(rng.randrange(n))
    if kind == "wrong-card":
        return Action.wrong_card(seat, rng.choice(cards))
    if kind == "color":
        return Action.choose_color(seat, rng.choice("RYGBP"))
    if kind == "next-round":
        return Action.next_round()
    return Action(kind, seat)


def test_illegal_actions_leave_the_state_unchanged() -> None:
    """Every refusal raises a typed error with a registered code and a rule, and the state
    (snapshot, RNG included) is exactly as it was."""
    rng = random.Random(11)
    refusals: Counter[str] = Counter()
    for seed in range(40):
        game = Game.new(RULESETS[seed % len(RULESETS)], 2 + seed % 5, seed)
        for _ in range(150):
            if game.is_over:
                break
            action = random_action(game, rng)
            before = game.state.copy()
            log_len = len(game.log)
            try:
                game.apply(action)
            except IllegalAction as exc:
                # the fuzzer's check (one copy): a code of spec/errors.yaml, a rule of
                # spec/rules, the state (RNG included) and the log unchanged
                check_rejected(game, action, before, log_len, exc)
                assert exc.code in ERROR_CODES and game.state == before
                assert not game.is_legal(action)
                refusals[exc.code] += 1
            else:
                legal = game.legal_actions()
                if legal:
                    game.apply(rng.choice(legal))
    assert len(refusals) >= 8, refusals


def test_legal_actions_are_accepted() -> None:
    rng = random.Random(3)
    for seed in range(30):
        game = Game.new("classic-official", 3, seed)
        for _ in range(100):
            for action in game.legal_actions():
                assert game.is_legal(action), action
            game.apply(rng.choice(game.legal_actions()))


def test_json_round_trip_is_exact() -> None:
    rng = random.Random(5)
    game = Game.new("classic-official+cards-2018", 4, 9)
    for _ in range(400):
        text = game.to_json()
        again = Game.from_json(text)
        assert again.state == game.state and again.to_json() == text
        assert json.loads(text)["state"]["draw"] == [c.text for c in reversed(game.state.draw)]
        action = rng.choice(game.legal_actions())
        # the restored game continues exactly like the original (RNG state included)
        assert again.apply(action) == game.apply(action)
        assert again.state == game.state
        if game.is_over:
            break


def test_seed_and_log_replay_exactly() -> None:
    rng = random.Random(8)
    game = Game.new("classic-official", 4, 1234)
    while not game.is_over and len(game.log) < 3000:
        game.apply(rng.choice(game.legal_actions()))
    again = Game.replay("classic-official", 4, 1234, game.log)
    assert again.state == game.state
    assert Game.new("classic-official", 4, 1234).state == Game.new("classic-official", 4,
                                                                   1234).state
    assert Game.new("classic-official", 4, 1).state != Game.new("classic-official", 4, 2).state


def test_thousands_of_random_games_hold_the_invariants() -> None:
    """1000 game openings (100 actions each, the invariants checked every ten) and 20 whole
    games, 2 to 10 players."""
    rng = random.Random(2026)
    decks = {r: Counter(c.text for c in build_deck(Params.of(r))) for r in RULESETS}
    for i in range(1000):
        ruleset = RULESETS[i % len(RULESETS)]
        game = Game.new(ruleset, 2 + i % 9, i)
        facts = Facts.of(ruleset)
        for step in range(100):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
            if step % 10 == 9:  # the fuzzer's invariants (one copy), every tenth position
                check_invariants(game, facts, decks[ruleset])
        check_invariants(game, facts, decks[ruleset])
    for i in range(20):
        game = Game.new("classic-2022", 2 + i % 4, i)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        check_invariants(game, Facts.of("classic-2022"), decks["classic-2022"])
        assert game.winner is not None and game.state.round_winner == game.winner
        assert len(game.state.hands[game.winner]) == 0


def test_view_shows_only_what_the_player_may_see() -> None:
    game = Game.new("classic-official", 4, 3)
    view = game.view(2)
    assert sorted(view["hand"]) == sorted(c.text for c in game.state.hands[2])
    text = json.dumps(view)
    for seat in (0, 1, 3):
        assert "hands" not in view and str(game.state.hands[seat]) not in text
    assert view["hand_sizes"] == {s: len(h) for s, h in enumerate(game.state.hands)}
    assert "draw" not in view and "rng" not in text
    assert all(a["player"] == 2 for a in view["legal_actions"])


def test_new_game_player_count_and_unknown_ruleset() -> None:
    with pytest.raises(ValueError):
        Game.new("classic-official", 11, 0)  # CL.DECK.PLAYERS
    with pytest.raises(Exception):  # noqa: B017 - the spec loader's error type
        Game.new("no-such-ruleset", 4, 0)


def test_action_json_round_trip() -> None:
    for a in [Action.play(1, parse("W4"), "G", True), Action.catch(2, 0), Action.hint(3),
              Action.wrong_card(1, parse("R7")), Action.next_round(), Action.swap(0, 2)]:
        assert Action.from_dict(a.to_dict()) == a


def test_state_fields_are_slots() -> None:
    """`State` has a fixed set of fields (slots): a misspelled field is refused, not added
    beside the real one; and every attribute read is the same fast slot read, whether the state
    was built by `Game.new` or copied (docs/performance.md)."""
    st = Game.new("classic-official", 4, 1).state
    with pytest.raises(AttributeError):
        st.curent = 2  # type: ignore[attr-defined]
    assert not hasattr(st, "__dict__") and not hasattr(st.copy(), "__dict__")


def test_state_copy_is_structural_equal_and_independent() -> None:
    """`State.copy()` (the fuzzer's snapshot) equals the state, RNG included, shares no
    mutable field, and `State.same` agrees with `==` and sees each change."""
    from dataclasses import fields

    rng = random.Random(4)
    game = Game.new("classic-official+seven-o", 4, 21)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    st = game.state
    st.shown = {1: (2, ["R1", "G2"])}
    st.winners = [3]
    before = st.to_dict()
    copy = st.copy()
    assert copy == st and copy.same(st) and st.same(copy)
    for f in fields(st):
        value = getattr(st, f.name)
        if isinstance(value, list | dict | random.Random):
            assert getattr(copy, f.name) is not value, f.name
    changes = [
        lambda s: s.hands[0].append(s.draw[-1]), lambda s: s.draw.pop(),
        lambda s: s.discard.append(s.discard[0]), lambda s: s.scores.__setitem__(0, 9),
        lambda s: s.winners.append(0), lambda s: s.shown[1][1].append("B3"),
        lambda s: s.rng.random(), lambda s: setattr(s, "current", (s.current + 1) % 4),
    ]
    snapshot = st.copy(rng=False)  # everything but the RNG copied: the RNG object shared
    assert snapshot.rng is st.rng and snapshot.hands is not st.hands and snapshot.same(st)
    for change in changes:
        other = st.copy()
        change(other)
        assert not other.same(st) and other != st
        assert st.to_dict() == before  # the original never moved
