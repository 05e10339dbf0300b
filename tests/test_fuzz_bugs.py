"""Engine bugs the fuzzer found, each pinned by a strict xfail: when the engine is fixed the
test passes, the xfail turns into an error, and the workaround in uno_fsm/fuzz.py can go.
"""

from __future__ import annotations

import pytest

from uno_fsm import Game, fuzz
from uno_fsm.actions import Action
from uno_fsm.cards import parse
from uno_fsm.errors import IllegalAction


@pytest.mark.xfail(strict=True, reason=(
    "engine bug: a `swap` when no swap is pending is refused with rule V.SEVEN-O.SWAP, which "
    "is not in spec/rules (the catalogue has V.SEVENO.*); fuzz.ILLEGAL_KINDS leaves `swap` out "
    "until fixed"))
def test_swap_refusal_names_a_catalogued_rule() -> None:
    g = Game.new("classic-official", players=3, seed=0)
    pend = g.pending
    assert pend is not None and pend.player is not None
    a = Action.swap(pend.player, (pend.player + 1) % 3)
    assert a not in g.legal_actions()
    before, n = g.state.to_dict(), len(g.log)
    with pytest.raises(IllegalAction) as info:
        g.apply(a)
    fuzz.check_rejected(g, a, before, n, info.value)


@pytest.mark.xfail(strict=True, reason=(
    "engine bug: apply() accepts a last Wild played without a colour (CL.END.LAST-OTHER) but "
    "legal_actions() does not list it, so legal_actions() is not every action the rules "
    "allow; fuzz.illegal_candidate names a colour for a last Wild until fixed"))
def test_legal_actions_list_a_last_wild_without_colour() -> None:
    g = Game.from_setup("classic-official", {
        "players": 3, "current": 0, "hands": {0: ["W"], 1: ["R1", "R2"], 2: ["B1"]},
        "discard": ["R9"], "draw": ["G1", "G2"],
    })
    a = Action.play(0, parse("W"))
    accepted = g.is_legal(a)
    assert accepted  # the rules allow it ...
    assert a in g.legal_actions()  # ... so it is listed
