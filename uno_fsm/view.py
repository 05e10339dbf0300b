"""What one player may see of a game, as plain data."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from uno_fsm.cards import Face, color_name

if TYPE_CHECKING:
    from uno_fsm.game import Game


def player_view(game: Game, player: int) -> dict[str, Any]:
    """Own hand (sorted), hand sizes, top card, active colour, whose decision, scores.

    Hidden: other hands, the draw pile order, the RNG. `shown` (CL.WD4.CHALLENGE.SHOW,
    FL.LIGHT.W2.SHOW-HAND): to a challenger only, the hand the challenged player showed them at
    their last challenge of this round, `{seat: faces}` (the faces in play at the challenge).

    UNO Flip (RUL.FLIP.VISIBILITY): the own hand shows only its active faces (FL.INFO.NO-PEEK);
    `backs` shows the inactive faces of the other hands (FL.INFO.OPPONENT-BACKS, FL.SETUP.HOLD)
    and `draw_back` the inactive face of the draw pile's top card (FL.SETUP.DRAW-PILE). The
    legal actions name cards by their active faces only.
    """
    st = game.state
    pending = game.pending
    side = st.side
    flip = game.params.game == "flip"
    legal: list[dict[str, object]] = []
    for a in game.legal_actions(player):
        d = a.to_dict()
        if flip and a.card is not None:
            d["card"] = a.card.face(side).text
            if d in legal:  # cards alike on the active side are one move to their holder
                continue
        legal.append(d)
    seen = cards_seen(game, player)
    out: dict[str, Any] = {
        "player": player,
        "hand": seen["hand"],
        "hand_sizes": seen["hand_sizes"],
        "top": seen["top"],
        "active_color": color_name(st.active_color),
        "direction": "clockwise" if st.direction == 1 else "counterclockwise",
        "side": st.side,
        "dealer": st.dealer,
        "current": None if pending is None else pending.player,
        "pending": None if pending is None else {"player": pending.player,
                                                 "decision": pending.decision},
        "drawn": (st.drawn.face(side).text if flip else st.drawn.text)
        if st.drawn is not None and st.current == player and st.phase == "play_drawn" else None,
        "uno_window": st.uno_window,
        "draw_size": len(st.draw),
        "discard_size": len(st.discard),
        "scores": dict(enumerate(st.scores)),
        "round": st.round,
        "round_over": game.round_over,
        "game_over": game.is_over,
        "winner": game.winner,
        "winners": game.winners,  # FLALT.TIE: a shared win lists every tied seat
        "eliminated": list(st.eliminated),  # DESAFIO.ELIMINATE: public, seats out of the game
        "legal_actions": legal,
        "shown": seen["shown"],
    }
    if flip:
        out["backs"] = seen["backs"]
        out["draw_back"] = seen["draw_back"]
    return out


def cards_seen(game: Game, player: int) -> dict[str, Any]:
    """The cards `player` may see (the conformance observation `views`): `hand`, `hand_sizes`,
    `top`, `shown`, and in Flip `backs` and `draw_back` (see `player_view`)."""
    st = game.state
    side = st.side
    flip = game.params.game == "flip"
    other = "light" if side == "dark" else "dark"
    out: dict[str, Any] = {
        # FL.INFO.NO-PEEK: only the active faces of the own hand
        "hand": sorted((c.face(side).text if flip else c.text for c in st.hands[player]),
                       key=face_key),
        "hand_sizes": {seat: len(h) for seat, h in enumerate(st.hands)},
        "top": st.discard[-1].face(side).text if st.discard else None,
        # CL.WD4.CHALLENGE.SHOW, FL.LIGHT.W2.SHOW-HAND: to the challenger only
        "shown": {st.shown[player][0]: sorted(st.shown[player][1], key=face_key)}
        if player in st.shown else {},
    }
    if flip:
        # FL.INFO.OPPONENT-BACKS, FL.SETUP.HOLD: the others' inactive faces
        out["backs"] = {seat: sorted((c.face(other).text for c in h), key=face_key)
                        for seat, h in enumerate(st.hands) if seat != player}
        # FL.SETUP.DRAW-PILE: the draw pile's top shows its inactive face
        out["draw_back"] = st.draw[-1].face(other).text if st.draw else None
    return out


@functools.lru_cache(maxsize=1024)
def face_key(text: str) -> tuple[int, str]:
    """Display order of faces: by colour (Wilds last), then rank (a pure function of the
    text, cached: every `views` observation sorts every hand by it)."""
    from uno_fsm.cards import parse_face

    f: Face = parse_face(text)
    order = "RYGBPTOV".find(f.color) if f.color else 9
    return (order, f.rank.zfill(3) if f.number is not None else "~" + f.rank)
