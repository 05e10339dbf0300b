"""The edges of `uno_fsm.phases.TurnPhases` as plain data. GENERATED: do not edit.

Written by `uno-fsm diagram --table --write uno_fsm/phase_table.py` from the machine
class; tests/test_engine_machine.py fails while it differs from a fresh reading of the
machine. `uno_fsm.dispatch` groups the edges into the table `Game.apply` walks.
"""

from __future__ import annotations

from typing import Final

PHASES: tuple[str, ...] = (
    'dealing',
    'play',
    'play_drawn',
    'choose_color',
    'challenge',
    'swap',
    'round_over',
    'game_over',
)
INITIAL = 'dealing'
# the phases and the events by name (rule code compares with these, never with a
# string of its own)
DEALING: Final = 'dealing'
PLAY: Final = 'play'
PLAY_DRAWN: Final = 'play_drawn'
CHOOSE_COLOR: Final = 'choose_color'
CHALLENGE: Final = 'challenge'
SWAP: Final = 'swap'
ROUND_OVER: Final = 'round_over'
GAME_OVER: Final = 'game_over'
PLAY_CARD: Final = 'play_card'
JUMP_IN: Final = 'jump_in'
DRAW: Final = 'draw'
CALL_UNO: Final = 'call_uno'
CATCH: Final = 'catch'
HINT: Final = 'hint'
WRONG_CARD: Final = 'wrong_card'
KEEP: Final = 'keep'
PICK_COLOR: Final = 'pick_color'
CHALLENGE_CARD: Final = 'challenge_card'
ACCEPT: Final = 'accept'
CHOOSE_SWAP: Final = 'choose_swap'
NEXT_ROUND: Final = 'next_round'
# the decision each phase waits for (`Game.pending.decision`; uno_fsm.phases.DECISIONS)
DECISIONS: dict[str, str] = {
    'dealing': 'dealing',
    'play': 'play',
    'play_drawn': 'play-drawn',
    'choose_color': 'color',
    'challenge': 'challenge',
    'swap': 'swap',
    'round_over': 'round-over',
    'game_over': 'none',
}
# (source, event, conds, target, effects, internal), in document order; event "" is
# an eventless transition
EDGES: tuple[tuple[str, str, tuple[str, ...], str, tuple[str, ...], bool], ...] = (
    ('dealing', '', ('first_card_color',), 'choose_color', (), False),
    ('dealing', '', (), 'play', (), False),
    ('play', 'play_card', ('goes_out',), 'round_over', ('play_out',), False),
    ('play', 'play_card', ('needs_swap',), 'swap', ('play_swap',), False),
    ('play', 'play_card', ('challengeable',), 'challenge', ('play_challengeable',), False),
    ('play', 'play_card', (), 'play', ('play_effect',), True),
    ('play', 'jump_in', ('jumper_goes_out',), 'round_over', ('jump_seat', 'play_out'), False),
    ('play', 'jump_in', ('needs_swap',), 'swap', ('jump_seat', 'play_swap'), False),
    ('play', 'jump_in', (), 'play', ('jump_seat', 'play_effect'), True),
    ('play', 'draw', ('stack_pending',), 'play', ('take_stack',), True),
    ('play', 'draw', (), 'play_drawn', ('draw_card',), False),
    ('play', 'call_uno', (), 'play', ('uno_called',), True),
    ('play', 'catch', (), 'play', ('catch_player',), True),
    ('play', 'hint', (), 'play', ('hint_penalty',), True),
    ('play', 'wrong_card', (), 'play', ('wrong_card_penalty',), True),
    ('play_drawn', 'play_card', ('goes_out',), 'round_over', ('play_out',), False),
    ('play_drawn', 'play_card', ('needs_swap',), 'swap', ('play_swap',), False),
    ('play_drawn', 'play_card', ('challengeable',), 'challenge', ('play_challengeable',), False),
    ('play_drawn', 'play_card', (), 'play', ('play_effect',), False),
    ('play_drawn', '', ('drawn_unplayable',), 'play', ('pass_turn',), False),
    ('play_drawn', 'keep', (), 'play', ('pass_turn',), False),
    ('play_drawn', 'call_uno', (), 'play_drawn', ('uno_called',), True),
    ('play_drawn', 'catch', (), 'play_drawn', ('catch_player',), True),
    ('play_drawn', 'hint', (), 'play_drawn', ('hint_penalty',), True),
    ('play_drawn', 'wrong_card', (), 'play', ('wrong_card_penalty',), False),
    ('choose_color', 'pick_color', (), 'play', ('color_first',), False),
    ('choose_color', 'call_uno', (), 'choose_color', ('uno_called',), True),
    ('choose_color', 'catch', (), 'choose_color', ('catch_player',), True),
    ('choose_color', 'hint', (), 'choose_color', ('hint_penalty',), True),
    ('challenge', 'play_card', ('goes_out',), 'round_over', ('play_out',), False),
    ('challenge', 'play_card', (), 'challenge', ('play_challengeable',), True),
    ('challenge', 'challenge_card', ('guilty',), 'play', ('challenge_guilty',), False),
    ('challenge', 'challenge_card', (), 'play', ('challenge_innocent',), False),
    ('challenge', 'accept', (), 'play', ('accept_penalty',), False),
    ('challenge', 'call_uno', (), 'challenge', ('uno_called',), True),
    ('challenge', 'catch', (), 'challenge', ('catch_player',), True),
    ('challenge', 'hint', (), 'challenge', ('hint_penalty',), True),
    ('swap', 'choose_swap', (), 'play', ('exchange_hands',), False),
    ('swap', 'call_uno', (), 'swap', ('uno_called',), True),
    ('swap', 'catch', (), 'swap', ('catch_player',), True),
    ('swap', 'hint', (), 'swap', ('hint_penalty',), True),
    ('round_over', 'next_round', (), 'dealing', ('deal_round',), False),
    ('round_over', '', ('target_reached',), 'game_over', ('end_game',), False),
)
