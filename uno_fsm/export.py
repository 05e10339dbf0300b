"""The engine's actions and positions in the scenario vocabulary (docs/scenario-format.md):
the one place that writes them. The reference adapter (`conformance.adapters.reference`: its
`position` observation, its legal actions), the fuzzer and the model checker (their
counterexamples, `draft_yaml`) all write scenarios through it.

- `act_dict(action)`: an engine `Action` as a scenario `act`;
- `turn_setup(state, flip)`: a position as a `start: turn` setup, or None when that format
  cannot express it; `round_setup(...)`: a deal as a `start: round` setup;
- `draft_yaml(...)`: a counterexample as a scenario for a human to finish (the expectation
  is left as a TODO: it must come from the rulebook, not from a checker).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from uno_fsm.actions import Action
from uno_fsm.cards import Card, color_name
from uno_fsm.state import State


class NoActForm(ValueError):
    """An engine action the scenario vocabulary has no `act` for."""


def act_dict(a: Action) -> dict[str, Any]:
    """An action in the scenario `act` vocabulary (docs/scenario-format.md "Actions")."""
    if a.kind == "next-round":
        return {"next_round": True}
    if a.kind in ("hint", "wrong-card"):
        d: dict[str, Any] = {"referee": a.kind, "player": a.target}
        if a.card is not None:
            d["card"] = a.card.text
        return d
    d = {"player": a.player}
    if a.kind == "play":
        if a.card is None:
            raise NoActForm("a play without a card")
        d["play"] = a.card.text
        if a.color is not None:
            d["color"] = _color(a.color)
        if a.uno:
            d["uno"] = True
    elif a.kind in ("draw", "pass", "uno"):
        d[a.kind] = True
    elif a.kind == "color":
        d["color"] = _color(a.color)
    elif a.kind in ("challenge", "accept"):
        d["challenge"] = a.kind == "challenge"
    elif a.kind in ("catch", "swap"):
        d[a.kind] = a.target
    else:
        raise NoActForm(f"action {a.kind!r} has no `act` form")
    return d


def _color(letter: str | None) -> str | None:
    """A colour name; a letter that names no colour (an illegal action's) as it is."""
    try:
        return color_name(letter)
    except KeyError:
        return letter


def turn_expressible(st: State) -> bool:
    """Whether `start: turn` can express the position: a play-or-draw decision with no UNO
    window, stacked penalty, drawn card or shown hand open, a top card and a colour."""
    return (st.phase == "play" and st.uno_window is None and not st.stack and bool(st.discard)
            and not st.shown and st.drawn is None and st.active_color is not None)


def turn_setup(st: State, flip: bool) -> dict[str, Any] | None:
    """The position as a `start: turn` setup (seats as strings, the protocol's JSON form),
    or None when `turn_expressible` says it cannot be written."""
    if not turn_expressible(st):
        return None
    setup: dict[str, Any] = {
        "players": st.players, "dealer": st.dealer, "start": "turn", "current": st.current,
        "direction": "clockwise" if st.direction == 1 else "counterclockwise",
    }
    if flip:
        setup["side"] = st.side
    setup["hands"] = {str(s): [c.text for c in h] for s, h in enumerate(st.hands)}
    setup["discard"] = [c.text for c in st.discard]  # bottom ... top
    setup["active_color"] = color_name(st.active_color)
    setup["draw"] = [c.text for c in reversed(st.draw)]  # top first
    if any(st.scores):
        setup["scores"] = {str(s): v for s, v in enumerate(st.scores)}
    return setup


def round_setup(players: int, dealer: int, hands: Sequence[Sequence[Card]],
                draw_top_first: Sequence[Card], scores: Sequence[int] = ()) -> dict[str, Any]:
    """A deal as a `start: round` setup: the hands and the draw pile (top first), nothing
    turned yet (the engine turns the first card from the top of `draw`)."""
    setup: dict[str, Any] = {"players": players, "dealer": dealer, "start": "round",
                             "hands": {str(s): [c.text for c in h] for s, h in enumerate(hands)},
                             "draw": [c.text for c in draw_top_first]}
    if any(scores):
        setup["scores"] = {str(s): v for s, v in enumerate(scores)}
    return setup


# ---- counterexamples for a human to finish ------------------------------------------------
@functools.lru_cache(maxsize=1)
def rule_cites() -> dict[str, tuple[str, ...]]:
    """Rule ID -> the clause IDs it cites (spec/rules/*.yaml)."""
    from uno_spec.loader import load_rules

    return {r.id: tuple(r.cites) for r in load_rules()}


def _seats(value: Any) -> Any:
    """Seat-keyed mappings (`hands`, `scores`) with integer keys, as the corpus writes them."""
    if isinstance(value, Mapping) and all(str(k).isdigit() for k in value):
        return {int(k): v for k, v in value.items()}
    return value


def _flow(obj: Any) -> str:
    text = yaml.safe_dump(obj, default_flow_style=True, sort_keys=False, width=10_000).strip()
    return text.removesuffix("...").strip()


def draft_yaml(ruleset: str, seed: int, setup: Mapping[str, Any] | None, players: int,
               since: Sequence[Action], failing: Action, message: str,
               head: Sequence[str], log: Sequence[Action], tool: str) -> str:
    """A conformance scenario for a human to finish: `setup` (a `turn_setup` or
    `round_setup`; None: only the player count, the header says how to reproduce), the
    actions `since` it, the failing action and, as a TODO comment, what the checker reported
    (never as an `expect`). `head` are comment lines naming the tool and how to reproduce."""
    found = re.match(r"\[([A-Z0-9.-]+)\]", message)
    rid = found.group(1) if found else ""
    cites = rule_cites().get(rid, ())
    lines = [
        *head,
        "#   log: " + json.dumps([a.to_dict() for a in log]),
        f"#   failing action: {json.dumps(failing.to_dict())}",
        f"id: {tool}.{ruleset.replace('+', '.')}.seed{seed}.step{len(log)}  # TODO: a stable id",
        "title: TODO describe the rule at stake",
        f"ruleset: {ruleset}",
        f"cites: {_flow(list(cites))}  # TODO: check" if cites else "cites: []  # TODO",
        f"rules: [{rid}]  # the rule the checker checked" if cites else "rules: []  # TODO",
        "features: []  # TODO: from spec/features.yaml",
    ]
    if setup is None:
        lines += [
            "# No position of this round can be written with `start: turn`; set up the deal",
            "# from the seed and the action log above.",
            f"setup: {{players: {players}}}  # TODO",
        ]
    else:
        lines.append("setup:")
        notes = {"discard": "  # bottom ... top", "draw": "  # top first"}
        lines += [f"  {k}: {_flow(_seats(v))}{notes.get(k, '')}" for k, v in setup.items()]
    lines.append("steps:")
    for a in (*since, failing):
        lines.append(f"  - act: {_flow(act_dict(a))}")
    for i, text in enumerate(message.splitlines()):
        lines.append(("  # TODO(human): the checker reports: " if i == 0 else "  #   ") + text)
    lines.append("  # TODO(human): write the expected behaviour as `expect:` / `error:` from the"
                 " rules, after checking them")
    return "\n".join(lines) + "\n"
