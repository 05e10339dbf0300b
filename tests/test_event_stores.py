"""The engine's kept events (uno_fsm.actions.kept_event): the events of a card played, cards
drawn and a turn passed are made once and handed out again. Shared between games, so they must
be immutable, equal to the events made afresh, and their stores bounded however many distinct
events a long run makes."""

from __future__ import annotations

import pytest

from uno_fsm.actions import KEPT_MAX, Event, EventStore, kept_event, seat_event
from uno_fsm.game import Game
from uno_fsm.rules import core, turn


def test_a_store_is_bounded_however_many_distinct_events_it_sees() -> None:
    store: EventStore = {}
    for i in range(3 * KEPT_MAX + 7):
        got = kept_event(store, (i,), ("passed", i, None, (), None, 0, "CL.DRAW.KEEP"))
        assert got == Event("passed", i, rule="CL.DRAW.KEEP")
        assert 1 <= len(store) <= KEPT_MAX
    assert len(store) == 7  # emptied when full, at 3 * KEPT_MAX: the 7 made after it


def test_a_kept_event_cannot_be_changed_by_whoever_it_was_handed_to() -> None:
    ev = seat_event("skipped", 1, "CL.SKIP.EFFECT")
    assert ev is seat_event("skipped", 1, "CL.SKIP.EFFECT")
    with pytest.raises(AttributeError):
        ev.player = 2  # type: ignore[misc]
    assert ev == Event("skipped", 1, rule="CL.SKIP.EFFECT")


def test_events_handed_out_by_games_equal_events_made_afresh() -> None:
    # two games of the same seed give equal events whether the second finds them kept or not;
    # the stores emptied in between (made afresh) and kept (handed out again) alike
    def play(seed: int) -> list[list[Event]]:
        g = Game.new("classic-official", players=3, seed=seed)
        out = []
        for _ in range(300):
            if g.is_over:
                break
            legal = g.legal_actions()
            out.append(g.apply(legal[(len(out) * 7) % len(legal)]))
        return out

    turn.PLAYED.clear()
    core.DREW.clear()
    fresh = play(5)
    kept = play(5)
    assert kept == fresh
    assert any(e.kind == "played" for evs in kept for e in evs)
    assert any(e.kind == "drew" for evs in kept for e in evs)
    # the lists a game returns are its caller's: changing one changes no later answer
    fresh[0].clear()
    assert play(5) == kept
