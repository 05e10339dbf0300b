"""The game state: plain data, a snapshot, and a JSON form that round-trips exactly.

Piles are Python lists with the *top at the end* (`draw[-1]` is drawn next, `discard[-1]` is the
top discard); the JSON form lists the draw pile top first, like a scenario's `setup`, and the
discard pile bottom first. The RNG is a `random.Random` whose full state is serialized, so a
state restored from JSON shuffles exactly as the original would: its Mersenne Twister state (624
32-bit words and the position in them) packed little-endian and written in base64, 3,336
characters where the 625 integers of `getstate()` took about 6,900 (format 2; format 1, the
integers, is still read).
"""

from __future__ import annotations

import base64
import binascii
import random
import struct
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from uno_fsm.cards import Card, parse

CLOCKWISE = 1
COUNTERCLOCKWISE = -1
FORMAT = "uno-fsm/state/2"
FORMAT_1 = "uno-fsm/state/1"  # the RNG as [version, [625 integers], gauss_next]: still read
_MT = struct.Struct("<625I")  # random.Random.getstate()[1]: 624 state words and the index


def rng_to_json(rng: random.Random) -> dict[str, Any]:
    """The exact state of `rng`, compact: {"version": 3, "mt19937": base64 of the 625 words
    (little-endian uint32), "gauss_next": null or a float}."""
    version, internal, gauss = rng.getstate()
    return {"version": version, "mt19937": base64.b64encode(_MT.pack(*internal)).decode("ascii"),
            "gauss_next": gauss}


def rng_from_json(value: Any, fmt: str = FORMAT) -> random.Random:
    """The `random.Random` that `rng_to_json` wrote (or format 1's list); ValueError if the
    value is not one."""
    try:
        if fmt == FORMAT_1:
            version, internal, gauss = value
            state = (version, tuple(internal), gauss)
        else:
            words = binascii.a2b_base64(value["mt19937"], strict_mode=True)
            if len(words) != _MT.size:
                raise ValueError(f"{len(words)} bytes, not {_MT.size}")
            state = (value["version"], _MT.unpack(words), value["gauss_next"])
        rng = random.Random.__new__(random.Random)  # not seeded: setstate sets all of it
        rng.setstate(state)
    except (TypeError, ValueError, KeyError, binascii.Error) as exc:
        raise ValueError(f"not the state of a random.Random: {exc}") from None
    return rng


@dataclass(eq=False, slots=True)
class State:
    """Everything a game is: one instance, mutated in place by the rules."""

    ruleset: str
    players: int
    hands: list[list[Card]]
    draw: list[Card]  # top at the end
    discard: list[Card]  # top at the end
    active_color: str | None
    direction: int = CLOCKWISE
    current: int = 0  # the seat that owes the pending decision
    dealer: int = 0
    side: str = "light"
    scores: list[int] = field(default_factory=list)
    phase: str = "play"  # a state id of uno_fsm.phases.TurnPhases
    drawn: Card | None = None  # the card just drawn: the only card that may be played now
    uno_window: int | None = None  # a seat holding one card that has not called UNO: catchable
    challenge_by: int | None = None  # who played the challengeable card (WD4)
    challenge_legal: bool = True  # whether that card was played legally
    # V.STACK.ACCUMULATE: the accumulated draw penalty the turn owner faces (0: none pending)
    stack: int = 0
    first_color: bool = False  # the pending colour choice is for the first card turned
    round: int = 1
    round_winner: int | None = None
    winner: int | None = None
    winners: list[int] = field(default_factory=list)  # FLALT.TIE: the game's shared winners
    # DESAFIO.ELIMINATE, DESAFIO.ELIMINATED-OUT: the seats out of the game, ascending
    eliminated: list[int] = field(default_factory=list)
    # CL.WD4.CHALLENGE.SHOW, FL.LIGHT.W2.SHOW-HAND: challenger -> (challenged seat, the hand
    # shown to them by their last challenge of this round, as the faces then in play)
    shown: dict[int, tuple[int, list[str]]] = field(default_factory=dict)
    rng: random.Random = field(default_factory=random.Random)

    # ---- snapshot, equality, JSON ------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A plain-data copy (JSON-ready) of everything, RNG state included."""
        return {
            "format": FORMAT,
            "ruleset": self.ruleset,
            "players": self.players,
            "hands": [[c.text for c in h] for h in self.hands],
            "draw": [c.text for c in reversed(self.draw)],
            "discard": [c.text for c in self.discard],
            "active_color": self.active_color,
            "direction": self.direction,
            "current": self.current,
            "dealer": self.dealer,
            "side": self.side,
            "scores": list(self.scores),
            "phase": self.phase,
            "drawn": None if self.drawn is None else self.drawn.text,
            "uno_window": self.uno_window,
            "challenge_by": self.challenge_by,
            "challenge_legal": self.challenge_legal,
            "first_color": self.first_color,
            "stack": self.stack,
            "round": self.round,
            "round_winner": self.round_winner,
            "winner": self.winner,
            "winners": list(self.winners),
            "eliminated": list(self.eliminated),
            "shown": {str(k): [seat, list(cards)]
                      for k, (seat, cards) in sorted(self.shown.items())},
            "rng": rng_to_json(self.rng),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> State:
        fmt = d.get("format")
        if fmt != FORMAT and fmt != FORMAT_1:
            raise ValueError(f"not a {FORMAT} document")
        rng = rng_from_json(d["rng"], fmt)
        return cls(
            ruleset=d["ruleset"],
            players=d["players"],
            hands=[[parse(t) for t in h] for h in d["hands"]],
            draw=[parse(t) for t in reversed(d["draw"])],
            discard=[parse(t) for t in d["discard"]],
            active_color=d["active_color"],
            direction=d["direction"],
            current=d["current"],
            dealer=d["dealer"],
            side=d["side"],
            scores=list(d["scores"]),
            phase=d["phase"],
            drawn=None if d["drawn"] is None else parse(d["drawn"]),
            uno_window=d["uno_window"],
            challenge_by=d["challenge_by"],
            challenge_legal=d["challenge_legal"],
            first_color=d["first_color"],
            stack=int(d.get("stack", 0)),
            round=d["round"],
            round_winner=d["round_winner"],
            winner=d["winner"],
            winners=list(d.get("winners", [] if d["winner"] is None else [d["winner"]])),
            eliminated=[int(s) for s in d.get("eliminated", ())],
            shown={int(k): (int(v[0]), [str(t) for t in v[1]])
                   for k, v in (d.get("shown") or {}).items()},
            rng=rng,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def copy(self, rng: bool = True) -> State:
        """An independent copy, equal to this state (RNG state included), built field by field
        rather than through the JSON form (cards are immutable values, shared). With
        `rng=False` the copy shares this state's RNG object instead of copying it: a read-only
        snapshot of everything else (the fuzzer's position before an action)."""
        if rng:
            own = random.Random.__new__(random.Random)  # no OS-entropy seeding: set below
            own.setstate(self.rng.getstate())
        else:
            own = self.rng
        # every field as it is (cards are immutable values, shared), through the constructor
        # (all fields are its arguments, in order); then the mutable ones are copied
        out = State(*_ALL_VALUES(self))
        out.hands = [list(h) for h in self.hands]
        out.draw = list(self.draw)
        out.discard = list(self.discard)
        out.scores = list(self.scores)
        out.winners = list(self.winners)
        out.eliminated = list(self.eliminated)
        out.shown = {k: (seat, list(cards)) for k, (seat, cards) in self.shown.items()}
        out.rng = own
        return out

    def assign(self, other: State) -> None:
        """Become `other`, field by field, in place (objects holding this state see it)."""
        for f in _FIELDS:
            setattr(self, f, getattr(other, f))

    def same(self, other: State) -> bool:
        """Equality field by field (RNG state included) without building the JSON form: the
        same answer as `==` (cards are interned values), faster."""
        return _PLAIN_VALUES(self) == _PLAIN_VALUES(other) and (
            self.rng is other.rng or self.rng.getstate() == other.rng.getstate())

    def all_cards(self) -> list[Card]:
        """Every card in play: hands, draw pile and discard pile."""
        out: list[Card] = []
        for h in self.hands:
            out.extend(h)
        out.extend(self.draw)
        out.extend(self.discard)
        return out


_PLAIN = tuple(f for f in fields(State) if f.name != "rng")
_PLAIN_VALUES = attrgetter(*(f.name for f in _PLAIN))  # every field but the RNG, as one tuple
_FIELDS = tuple(f.name for f in fields(State))
_ALL_VALUES = attrgetter(*_FIELDS)  # every field, in the constructor's order (`State.copy`)
