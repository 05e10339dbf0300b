"""The turn-phase machine: the single definition of phases, events, guards and targets.

`TurnPhases` is a python-statemachine 3 `StateChart`. Its states are the decisions a game can
be waiting for; its events are the actions; `cond` names a guard and `on` names the effect, both
methods of `uno_fsm.rules.Rules` (the machine's model). Transitions without an event are
SCXML *eventless* transitions, taken automatically as soon as their guard holds (dealing ends
in a play or a colour choice; an unplayable drawn card passes the turn; a round ending at the
target score ends the game).

The hot path does not run the library (an event costs ~80 us, an instance ~190 us), nor does it
import it (~30 ms of start-up with asyncio): the machine's edges are read from the class once,
by `uno-fsm diagram --table --write uno_fsm/phase_table.py`, and kept in that generated module;
`uno_fsm.dispatch` groups them into the table `uno_fsm.game.Game.apply` walks. This module is
imported only for the diagram, the regeneration and the agreement tests:
tests/test_engine_machine.py fails while the checked-in edges differ from `machine_edges()`, and
plays random games both ways requiring identical states.
"""

from __future__ import annotations

from statemachine import State, StateChart

from uno_fsm.dispatch import EdgeRow, Eventless, Table, build


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

    # V.SEVENO.SEVEN-SWAP (variant seven-o), V.SWAP.EFFECT (variant swap-hands): the player of
    # the card that opened the swap names the hand to exchange theirs with (rules/swap.py)
    choose_swap = swap.to(play, on="exchange_hands")

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


def machine_edges() -> tuple[EdgeRow, ...]:
    """Every transition of TurnPhases as a row of plain data, in document order (states in
    order, each state's transitions in order): what uno_fsm/phase_table.py holds."""
    rows: list[EdgeRow] = []
    for state in TurnPhases.states:
        for t in state.transitions:
            conds: list[str] = []
            for spec in t.cond:
                if spec.expected_value is not True or not isinstance(spec.func, str):
                    raise TypeError(f"{t}: only named `cond` guards are supported by the table")
                conds.append(spec.func)
            effects = tuple(str(s.func) for s in t.on if not s.is_convention)
            target = t.target.id if t.target is not None else state.id
            for name in [str(e) for e in t.events] or [""]:
                rows.append((state.id, name, tuple(conds), target, effects, bool(t.internal)))
    return tuple(rows)


def machine_phases() -> tuple[tuple[str, ...], str]:
    """(the state ids of TurnPhases in order, the initial one)."""
    return (tuple(s.id for s in TurnPhases.states),
            next(s.id for s in TurnPhases.states if s.initial))


# The decision each phase waits for: `Game.pending.decision`, the observation vocabulary of
# docs/contracts.md (the scenario `pending.decision`); generated into uno_fsm/phase_table.py.
DECISIONS: dict[str, str] = {
    "dealing": "dealing",  # transient: never pending once `Game.new` / `apply` returns
    "play": "play",
    "play_drawn": "play-drawn",
    "choose_color": "color",
    "challenge": "challenge",
    "swap": "swap",
    "round_over": "round-over",
    "game_over": "none",
}


def machine_events() -> tuple[str, ...]:
    """The events of TurnPhases, in document order (eventless transitions have none)."""
    return tuple(dict.fromkeys(row[1] for row in machine_edges() if row[1]))


def derive_table() -> tuple[Table, Eventless]:
    """(event table, eventless table) read from TurnPhases now, transitions in document order:
    what `uno_fsm.dispatch.TABLE` and `EVENTLESS` (from the checked-in edges) must equal."""
    return build(machine_phases()[0], machine_edges())


def table_module() -> str:
    """The text of uno_fsm/phase_table.py: the machine's phases and edges as Python literals
    (`uno-fsm diagram --table --write uno_fsm/phase_table.py`)."""
    phases, initial = machine_phases()
    return "\n".join([
        '"""The edges of `uno_fsm.phases.TurnPhases` as plain data. GENERATED: do not edit.',
        "",
        "Written by `uno-fsm diagram --table --write uno_fsm/phase_table.py` from the machine",
        "class; tests/test_engine_machine.py fails while it differs from a fresh reading of the",
        "machine. `uno_fsm.dispatch` groups the edges into the table `Game.apply` walks.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "PHASES: tuple[str, ...] = (",
        *(f"    {p!r}," for p in phases),
        ")",
        f"INITIAL = {initial!r}",
        "# the phases and the events by name (rule code compares with these, never with a",
        "# string of its own)",
        *(f"{p.upper()}: Final = {p!r}" for p in phases),
        *(f"{e.upper()}: Final = {e!r}" for e in machine_events()),
        "# the decision each phase waits for (`Game.pending.decision`; uno_fsm.phases.DECISIONS)",
        "DECISIONS: dict[str, str] = {",
        *(f"    {p!r}: {DECISIONS[p]!r}," for p in phases),
        "}",
        "# (source, event, conds, target, effects, internal), in document order; event \"\" is",
        "# an eventless transition",
        "EDGES: tuple[tuple[str, str, tuple[str, ...], str, tuple[str, ...], bool], ...] = (",
        *(f"    {row!r}," for row in machine_edges()),
        ")",
        "",
    ])


def mermaid() -> str:
    """A Mermaid state diagram of TurnPhases: every transition, with `event [guard] / effect`.

    Generated from the machine class through `derive_table` (python-statemachine's own Mermaid
    renderer merges parallel transitions, hiding e.g. the unguarded fallbacks).
    """
    table, eventless = derive_table()
    lines = ["stateDiagram-v2"]
    for state in TurnPhases.states:
        lines.append(f'    state "{state.name}" as {state.id}')
    initial = next(s.id for s in TurnPhases.states if s.initial)
    lines.append(f"    [*] --> {initial}")
    for state in TurnPhases.states:
        edges = [e for evs in table[state.id].values() for e in evs]
        edges += list(eventless.get(state.id, ()))
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
