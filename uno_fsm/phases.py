"""The turn-phase machine: the single definition of phases, events, guards and targets.

`TurnPhases` is a python-statemachine 3 `StateChart`. Its states are the decisions a game can
be waiting for; its events are the actions; `cond` names a guard and `on` names the effect, both
methods of `uno_fsm.rules.Rules` (the machine's model). Transitions without an event are
SCXML *eventless* transitions, taken automatically as soon as their guard holds (dealing ends
in a play or a colour choice; an unplayable drawn card passes the turn; a round ending at the
target score ends the game).

The hot path does not run the library (an event costs ~80 us, an instance ~190 us): `TABLE` and
`EVENTLESS` are derived from the class once, at import, and `uno_fsm.game.Game.apply` walks them.
tests/test_engine_machine.py plays random games both ways and requires identical states.
"""

from __future__ import annotations

from dataclasses import dataclass

from statemachine import State, StateChart


class TurnPhases(StateChart):  # type: ignore[misc]
    """Turn phases of a round of UNO (classic; Flip adds rules, not phases: a Flip card is a
    play effect, FL.FLIP.SIDE-CHANGE)."""

    catch_errors_as_events = False  # an exception in a rule must reach the caller

    dealing = State("Dealing", initial=True)
    play = State("Play or draw")
    play_drawn = State("Play or keep the drawn card")
    choose_color = State("Choose a colour")
    challenge = State("Challenge or accept")
    swap = State("Choose a swap target")
    round_over = State("Round over")
    game_over = State("Game over", final=True)

    # CL.DEAL.FIRST-DISCARD, CL.FIRST.WILD: dealing ends in play, or in the first player
    # choosing the colour of a Wild turned first
    dealing.to(choose_color, cond="first_card_color")
    dealing.to(play)

    # CL.PLAY.MATCH, CL.END.OUT: playing a card (from the hand, or the card just drawn)
    play_card = (
        play.to(round_over, cond="goes_out", on="play_out")
        | play.to(swap, cond="needs_swap", on="play_swap")
        | play.to(challenge, cond="challengeable", on="play_challengeable")
        | play.to.itself(internal=True, on="play_effect")
        | play_drawn.to(round_over, cond="goes_out", on="play_out")
        | play_drawn.to(swap, cond="needs_swap", on="play_swap")
        | play_drawn.to(challenge, cond="challengeable", on="play_challengeable")
        | play_drawn.to(play, on="play_effect")
        # V.STACK.W4-ON-W4 (variant stacking): the victim of a Wild Draw Four stacks one
        # instead of answering the challenge (V.STACK.W4-CHALLENGE: stacking gives it up);
        # V.STACK.GO-OUT: going out on it ends the hand
        | challenge.to(round_over, cond="goes_out", on="play_out")
        | challenge.to.itself(internal=True, on="play_challengeable")
    )
    # V.JUMPIN.IDENTICAL, V.JUMPIN.CONTINUES (variant jump-in): another player plays a card
    # identical to the top discard out of turn and takes the turn as their own
    # (V.JUMPIN.TIMING: only while the turn owner's play-or-draw decision is pending)
    jump_in = (
        play.to(round_over, cond="jumper_goes_out", on=["jump_seat", "play_out"])
        | play.to(swap, cond="needs_swap", on=["jump_seat", "play_swap"])
        | play.to.itself(internal=True, on=["jump_seat", "play_effect"])
    )
    # CL.DRAW.UNABLE, CL.DRAW.UNWILLING: draw; CL.DRAW.PLAY-DRAWN, CL.DRAW.KEEP: play it or keep it
    # CL.DRAW.UNPLAYABLE-PASSES: an unplayable drawn card passes the turn at once
    # V.STACK.TAKE-ALL (variant stacking): facing a penalty, drawing takes all of it; the turn
    # passes and no drawn card may be played
    draw = play.to.itself(internal=True, cond="stack_pending", on="take_stack") | play.to(
        play_drawn, on="draw_card"
    )
    play_drawn.to(play, cond="drawn_unplayable", on="pass_turn")
    keep = play_drawn.to(play, on="pass_turn")

    # CL.FIRST.WILD: the player left of the dealer names the colour of a Wild turned first.
    # (A Wild played from the hand names its colour in the play itself: CL.WILD.COLOUR.)
    pick_color = choose_color.to(play, on="color_first")

    # CL.WD4.CHALLENGE.DECISION: only the victim answers (CL.WD4.CHALLENGE.WHO); the same phase
    # serves Flip's Wild Draw Two and Wild Draw Colour (FL.LIGHT.W2.*, FL.DARK.WDC.*)
    challenge_card = challenge.to(play, cond="guilty", on="challenge_guilty") | challenge.to(
        play, on="challenge_innocent"
    )
    accept = challenge.to(play, on="accept_penalty")

    # V.SEVENO.SEVEN-SWAP (variant seven-o): the player of a 7 names the hand to swap with
    choose_swap = swap.to(play, on="swap_hands")

    # CL.END.NEW-HAND: rounds until the target score; CL.SCORE.TARGET, CL22.SCORE.ONE-HAND
    next_round = round_over.to(dealing, on="deal_round")
    round_over.to(game_over, cond="target_reached", on="end_game")

    # Windows: out-of-turn actions that leave the phase as it is.
    # CL.UNO.CALL-LATE, CL.UNO.CATCH, CL.PEN.HINT-ANYTIME
    call_uno = (
        play.to.itself(internal=True, on="uno_called")
        | play_drawn.to.itself(internal=True, on="uno_called")
        | choose_color.to.itself(internal=True, on="uno_called")
        | challenge.to.itself(internal=True, on="uno_called")
        | swap.to.itself(internal=True, on="uno_called")
    )
    catch = (
        play.to.itself(internal=True, on="catch_player")
        | play_drawn.to.itself(internal=True, on="catch_player")
        | choose_color.to.itself(internal=True, on="catch_player")
        | challenge.to.itself(internal=True, on="catch_player")
        | swap.to.itself(internal=True, on="catch_player")
    )
    hint = (
        play.to.itself(internal=True, on="hint_penalty")
        | play_drawn.to.itself(internal=True, on="hint_penalty")
        | choose_color.to.itself(internal=True, on="hint_penalty")
        | challenge.to.itself(internal=True, on="hint_penalty")
        | swap.to.itself(internal=True, on="hint_penalty")
    )
    # CL.PEN.WRONG-CARD: the card is taken back, the player draws, the turn passes
    wrong_card = play.to.itself(internal=True, on="wrong_card_penalty") | play_drawn.to(
        play, on="wrong_card_penalty"
    )


@dataclass(frozen=True, slots=True)
class Edge:
    """One transition of the machine, as plain data."""

    source: str
    event: str  # "" for an eventless transition
    conds: tuple[str, ...]  # guard method names; all must hold
    target: str
    effects: tuple[str, ...]  # effect method names, in order
    internal: bool


def derive_table() -> tuple[dict[str, dict[str, tuple[Edge, ...]]], dict[str, tuple[Edge, ...]]]:
    """(event table, eventless table) read from TurnPhases, transitions in document order."""
    table: dict[str, dict[str, list[Edge]]] = {}
    eventless: dict[str, list[Edge]] = {}
    for state in TurnPhases.states:
        table.setdefault(state.id, {})
        for t in state.transitions:
            conds: list[str] = []
            for spec in t.cond:
                if spec.expected_value is not True or not isinstance(spec.func, str):
                    raise TypeError(f"{t}: only named `cond` guards are supported by the table")
                conds.append(spec.func)
            effects = tuple(str(s.func) for s in t.on if not s.is_convention)
            target = t.target.id if t.target is not None else state.id
            names = [str(e) for e in t.events] or [""]
            for name in names:
                edge = Edge(state.id, name, tuple(conds), target, effects, bool(t.internal))
                if name:
                    table[state.id].setdefault(name, []).append(edge)
                else:
                    eventless.setdefault(state.id, []).append(edge)
    events = {e for evs in table.values() for e in evs}
    for edges in [*(e for evs in table.values() for e in evs.values()), *eventless.values()]:
        for edge in edges:
            for name in (*edge.conds, *edge.effects):
                if name in events:  # the library would call the event trigger, not the model
                    raise TypeError(f"callback {name!r} has the name of an event")
    return (
        {s: {e: tuple(v) for e, v in evs.items()} for s, evs in table.items()},
        {s: tuple(v) for s, v in eventless.items()},
    )


def eventless_depth(eventless: dict[str, tuple[Edge, ...]]) -> int:
    """The longest chain of eventless transitions; TypeError if they form a cycle (a phase
    that could follow eventless transitions forever). `Game._settle` takes at most this many
    transitions per action (docs/robustness.md, "Engine")."""
    depth: dict[str, int] = {}

    def walk(phase: str, path: tuple[str, ...]) -> int:
        if phase in path:
            raise TypeError("eventless transitions form a cycle: " + " -> ".join((*path, phase)))
        if phase not in depth:
            depth[phase] = max((1 + walk(e.target, (*path, phase))
                                for e in eventless.get(phase, ())), default=0)
        return depth[phase]

    return max((walk(p, ()) for p in eventless), default=0)


TABLE, EVENTLESS = derive_table()
EVENTLESS_DEPTH = eventless_depth(EVENTLESS)
PHASES: tuple[str, ...] = tuple(s.id for s in TurnPhases.states)
EVENTS: tuple[str, ...] = tuple(sorted({e for evs in TABLE.values() for e in evs}))


def mermaid() -> str:
    """A Mermaid state diagram of TurnPhases: every transition, with `event [guard] / effect`.

    Generated from the machine class through `derive_table` (python-statemachine's own Mermaid
    renderer merges parallel transitions, hiding e.g. the unguarded fallbacks).
    """
    lines = ["stateDiagram-v2"]
    for state in TurnPhases.states:
        lines.append(f'    state "{state.name}" as {state.id}')
    initial = next(s.id for s in TurnPhases.states if s.initial)
    lines.append(f"    [*] --> {initial}")
    for state in TurnPhases.states:
        edges = [e for evs in TABLE[state.id].values() for e in evs]
        edges += list(EVENTLESS.get(state.id, ()))
        for e in edges:
            label = e.event or "(auto)"
            if e.conds:
                label += " [" + " and ".join(e.conds) + "]"
            if e.effects:
                label += " / " + ", ".join(e.effects)
            lines.append(f"    {e.source} --> {e.target} : {label}")
        if state.final:
            lines.append(f"    {state.id} --> [*]")
    return "\n".join(lines) + "\n"


def diagram_markdown() -> str:
    """docs/diagrams/phases.md: the generated diagram with a short legend."""
    return (
        "# Turn phases of the reference engine\n\n"
        "Generated by `uno-fsm diagram` from `uno_fsm.phases.TurnPhases`; do not edit by hand\n"
        "(tests/test_engine_machine.py fails when this file is stale).\n\n"
        "Labels read `event [guard] / effect`; `(auto)` marks an eventless transition, taken\n"
        "as soon as its guard holds. Guards and effects are methods of `uno_fsm.rules.Rules`.\n"
        "Self-transitions are the out-of-turn windows (UNO call, catch, referee hint).\n\n"
        "```mermaid\n" + mermaid() + "```\n"
    )
