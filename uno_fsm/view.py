"""What one player may see of a game, as plain data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from uno_fsm.cards import color_name, sort_key

if TYPE_CHECKING:
    from uno_fsm.game import Game


def player_view(game: Game, player: int) -> dict[str, Any]:
    """Own hand (sorted), hand sizes, top card, active colour, whose decision, scores.

    Hidden: other hands, the draw pile order, the RNG. Shown to a challenger only, for the
    challenge just resolved, is nothing extra here: the `shown` event carries the hand
    (CL.WD4.CHALLENGE.SHOW) and callers route it to the challenger.
    """
    st = game.state
    pending = game.pending
    own = st.hands[player]
    return {
        "player": player,
        "hand": [c.text for c in sorted(own, key=sort_key)],
        "hand_sizes": {seat: len(h) for seat, h in enumerate(st.hands)},
        "top": st.discard[-1].face(st.side).text if st.discard else None,
        "active_color": color_name(st.active_color),
        "direction": "clockwise" if st.direction == 1 else "counterclockwise",
        "side": st.side,
        "dealer": st.dealer,
        "current": None if pending is None else pending.player,
        "pending": None if pending is None else {"player": pending.player,
                                                 "decision": pending.decision},
        "drawn": st.drawn.text if st.drawn is not None and st.current == player
        and st.phase == "play_drawn" else None,
        "uno_window": st.uno_window,
        "draw_size": len(st.draw),
        "discard_size": len(st.discard),
        "scores": dict(enumerate(st.scores)),
        "round": st.round,
        "round_over": game.round_over,
        "game_over": game.is_over,
        "winner": game.winner,
        "legal_actions": [a.to_dict() for a in game.legal_actions(player)],
    }
