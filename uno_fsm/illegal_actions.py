"""Candidate illegal actions for the fuzzer, the model checker and the dispatch-path
comparison: a random action of a random kind by a random player, with cards from other hands,
cards that do not match, wrong decisions and wrong colours (docs/fuzzing.md "Illegal
actions"). A candidate may happen to be legal: the caller compares with `legal_actions()`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from uno_fsm.actions import Action
from uno_fsm.cards import Card
from uno_fsm.game import Game
from uno_fsm.oracle.base import CLASSIC_COLORS, DARK_COLORS, face_on, playable

Pick = Callable[[Sequence[Any]], Any]
ILLEGAL_KINDS: tuple[str, ...] = (
    "play", "play", "play", "draw", "pass", "color", "challenge", "accept", "uno", "catch",
    "swap", "next-round",
)
_WHO = ("current", "current", "other", "other", "any", "no-seat")
# The candidates made so far, by their fields (each with its class, so that no two fields
# that are merely equal, 1 and True, share an entry): an Action is immutable, so handing out
# the one made before is handing out an equal action, without the frozen dataclass's
# `__init__` (the model checker draws two per state). Not interned actions (`formed`):
# `validate` checks each one's form. Emptied when full.
_MADE: dict[tuple[object, ...], Action] = {}
_MADE_MAX = 1 << 16


def _action(kind: str, player: int | None, card: Card | None = None, color: str | None = None,
            uno: bool = False, target: int | None = None) -> Action:
    key = (kind, player.__class__, player, card, color, uno.__class__, uno, target.__class__,
           target)
    got = _MADE.get(key)
    if got is None:
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        got = _MADE[key] = Action(kind, player, card, color, uno, target)
    return got


def illegal_candidate(game: Game, pick: Pick, deck_cards: Sequence[Card],
                      kinds: Sequence[str] = ILLEGAL_KINDS) -> Action:
    """A candidate drawn with `pick` (a choice from a sequence: Hypothesis' or an RNG's)."""
    s = game.state
    n = s.players
    pend = game.pending
    cur = pend.player if pend is not None and pend.player is not None else 0
    kind = pick(kinds)
    who = pick(_WHO)
    player = cur if who == "current" else (
        (cur + pick(range(1, n))) % n if who == "other" else
        pick(range(n)) if who == "any" else pick((n, n + 3, -1)))  # no such seat: malformed
    colours = CLASSIC_COLORS if s.side == "light" else DARK_COLORS
    wrong_colours = DARK_COLORS if s.side == "light" else CLASSIC_COLORS
    if kind == "play":
        own = s.hands[player] if 0 <= player < n else []  # (read only: no copies)
        others = [c for i, h in enumerate(s.hands) if i != player for c in h]
        top = face_on(s.discard[-1], s.side) if s.discard else None
        nonmatching = [c for c in own if not playable(face_on(c, s.side), s.active_color, top)]
        pools = [p for p in (own, others, nonmatching, s.discard[-1:], deck_cards) if p]
        card = pick(pick(pools))
        color: str | None = pick((None, None, *colours, *wrong_colours[:1]))
        return _action("play", player, card, color, bool(pick((False, False, True))))
    if kind == "color":
        return _action("color", player, color=pick((*colours, *wrong_colours[:1])))
    if kind in ("catch", "swap"):
        return _action(kind, player, target=pick((*range(n), None, n)))
    if kind == "next-round":  # seatless is legal at round over; a named seat is malformed
        return _action("next-round", pick((None, None, player)))
    return _action(kind, player)
