"""Engine bugs the fuzzer found, kept as regression tests.

While a bug is open its test is marked `xfail(strict=True, reason=...)`: when the engine is
fixed the test passes, strict xfail turns that into a failure, and the mark (and any workaround
in uno_fsm/oracle/ or uno_fsm/invariants.py) is removed. The first two were found by
`uno-fsm fuzz` and fixed in the engine (V.SEVENO.* rule IDs; the colourless last Wild
listed); the third (a `next-round` naming a seat was accepted but never listed) is fixed:
apply() refuses it as malformed-action.
"""

from __future__ import annotations

import pytest

from uno_fsm import Game
from uno_fsm.actions import Action
from uno_fsm.cards import parse
from uno_fsm.errors import IllegalAction
from uno_fsm.invariants import check_rejected


def test_swap_refusal_names_a_catalogued_rule() -> None:
    """Found: a `swap` with no swap pending was refused with rule V.SEVEN-O.SWAP, which is not
    in spec/rules (the catalogue has V.SEVENO.*)."""
    g = Game.new("classic-official", players=3, seed=0)
    pend = g.pending
    assert pend is not None and pend.player is not None
    a = Action.swap(pend.player, (pend.player + 1) % 3)
    assert a not in g.legal_actions()
    before, n = g.state.copy(), len(g.log)
    with pytest.raises(IllegalAction) as info:
        g.apply(a)
    check_rejected(g, a, before, n, info.value)


def test_legal_actions_list_a_last_wild_without_colour() -> None:
    """Found: apply() accepted a last Wild played without a colour (CL.END.LAST-OTHER) but
    legal_actions() did not list it."""
    g = Game.from_setup("classic-official", {
        "players": 3, "current": 0, "hands": {0: ["W"], 1: ["R1", "R2"], 2: ["B1"]},
        "discard": ["R9"], "draw": ["G1", "G2"],
    })
    a = Action.play(0, parse("W"))
    assert g.is_legal(a)
    assert a in g.legal_actions()


def test_next_round_with_a_seat_is_listed_or_refused() -> None:
    g = Game.from_setup("classic-official", {
        "players": 3, "current": 0, "hands": {0: ["R1"], 1: ["R2", "R3"], 2: ["B1"]},
        "discard": ["R9"], "draw": ["G1", "G2", "G3", "G4", "G5", "G6"] * 2  # 22 cards: 3 x 7
        + ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"],  # and a first card
    })
    g.apply(Action.play(0, parse("R1")))
    a = Action("next-round", 1)
    assert (a in g.legal_actions()) == g.is_legal(a)
    # fixed: a next-round naming a seat is refused (malformed-action), state unchanged
    before = g.to_json()
    with pytest.raises(IllegalAction) as exc:
        g.apply(a)
    assert exc.value.code == "malformed-action"
    assert g.to_json() == before
    assert Action.next_round() in g.legal_actions()
    g.apply(Action.next_round())
    assert not g.round_over
