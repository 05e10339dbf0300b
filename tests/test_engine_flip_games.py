"""Random UNO Flip games: invariants, JSON round trip, replay, machine/table agreement."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from uno_fsm import Game
from uno_fsm.deck import build_deck
from uno_fsm.params import Params

DECK = Counter(build_deck(Params.of("flip")))


def check(g: Game, views: bool = True) -> None:
    st = g.state
    cards = st.all_cards()
    # FL.DECK.SIZE: 112 cards always, each in exactly one place
    assert len(cards) == 112 and Counter(cards) == DECK
    assert st.side in ("light", "dark")
    faces = {c.face(st.side).text for c in cards}
    # every hand shows the active side: the views list active faces only (FL.FLIP.HANDS-TURNED)
    for seat in range(st.players if views else 0):
        v = g.view(seat)
        assert sorted(v["hand"]) == sorted(c.face(st.side).text for c in st.hands[seat])
        assert set(v["hand"]) <= faces and v["side"] == st.side
    colors = Params.of(st.ruleset).colors_of(st.side)
    if st.active_color is not None:
        assert st.active_color in colors
    elif g.pending is not None and g.pending.decision not in ("color", "round-over"):
        assert g._rules.face(st.discard[-1]).is_wild  # FL.FLIP.NEW-TOP-WILD


@pytest.mark.parametrize("ruleset,players,seed", [
    ("flip", 2, 1), ("flip", 3, 2), ("flip", 4, 3), ("flip", 6, 4), ("flip", 10, 5),
    ("flip+flip-alt-scoring", 3, 6), ("flip+flip-alt-scoring", 5, 7),
])
def test_random_games_hold_the_invariants(ruleset: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    g = Game.new(ruleset, players, seed)
    flips = 0
    for step in range(2500):
        if g.is_over:
            break
        before = g.state.side
        g.apply(rng.choice(g.legal_actions()))
        flips += g.state.side != before
        check(g, views=step % 7 == 0)
    assert flips > 0


@pytest.mark.parametrize("ruleset", ["flip", "flip+flip-alt-scoring"])
def test_json_round_trip_and_replay(ruleset: str) -> None:
    rng = random.Random(11)
    g = Game.new(ruleset, 4, seed=11)
    for step in range(1500):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
        if step % 250 == 0:
            h = Game.from_json(g.to_json())
            assert h.state == g.state and h.to_json() == g.to_json()
    again = Game.replay(ruleset, 4, 11, g.log)
    assert again.state == g.state


def test_games_end() -> None:
    """Random Flip games reach 500 (FL.GAME.TARGET-500 / FLALT.END-500)."""
    for ruleset in ("flip", "flip+flip-alt-scoring"):
        rng = random.Random(3)
        g = Game.new(ruleset, 3, seed=3)
        for _ in range(200_000):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        assert g.is_over and g.winners and max(g.scores) >= 500
