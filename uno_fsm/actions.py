"""Actions (what a player or the referee does) and Events (what happened).

Action kinds and the machine events they send (uno_fsm.phases.TurnPhases):

| kind | fields | event |
|---|---|---|
| `play` | player, card, color (Wilds), uno (call UNO with the play) | play_card |
| `draw` | player | draw |
| `pass` | player (keep the drawn card) | keep |
| `color` | player, color (the colour for a Wild played without one) | pick_color |
| `challenge` / `accept` | player (the victim of a Wild Draw Four) | challenge_card / accept |
| `swap` | player, target (Seven-O variant) | choose_swap |
| `uno` | player (holding one card) | call_uno |
| `catch` | player, target (who did not call UNO) | catch |
| `hint` | target (referee: the player who gave a hint) | hint |
| `wrong-card` | target, card (referee: the player who tried a wrong card) | wrong_card |
| `next-round` | (anyone) | next_round |
"""

from __future__ import annotations

from dataclasses import dataclass

from uno_fsm.cards import Card

EVENT_OF: dict[str, str] = {
    "play": "play_card",
    "draw": "draw",
    "pass": "keep",
    "color": "pick_color",
    "challenge": "challenge_card",
    "accept": "accept",
    "swap": "choose_swap",
    "uno": "call_uno",
    "catch": "catch",
    "hint": "hint",
    "wrong-card": "wrong_card",
    "next-round": "next_round",
}
REFEREE_KINDS = frozenset({"hint", "wrong-card"})


@dataclass(frozen=True, slots=True)
class Action:
    """One action. `player` is the actor (None for the referee and for next-round)."""

    kind: str
    player: int | None = None
    card: Card | None = None
    color: str | None = None  # colour letter
    uno: bool = False
    target: int | None = None

    def __str__(self) -> str:
        who = "referee" if self.player is None else f"P{self.player}"
        parts = [who, self.kind]
        if self.card is not None:
            parts.append(self.card.text)
        if self.color is not None:
            parts.append(self.color)
        if self.uno:
            parts.append("UNO!")
        if self.target is not None:
            parts.append(f"-> P{self.target}")
        return " ".join(parts)

    # constructors -------------------------------------------------------------------
    @staticmethod
    def play(player: int, card: Card, color: str | None = None, uno: bool = False) -> Action:
        return Action("play", player, card, color, uno)

    @staticmethod
    def draw(player: int) -> Action:
        return Action("draw", player)

    @staticmethod
    def keep(player: int) -> Action:
        return Action("pass", player)

    @staticmethod
    def choose_color(player: int, color: str) -> Action:
        return Action("color", player, color=color)

    @staticmethod
    def challenge(player: int) -> Action:
        return Action("challenge", player)

    @staticmethod
    def accept(player: int) -> Action:
        return Action("accept", player)

    @staticmethod
    def swap(player: int, target: int) -> Action:
        return Action("swap", player, target=target)

    @staticmethod
    def call_uno(player: int) -> Action:
        return Action("uno", player)

    @staticmethod
    def catch(player: int, target: int) -> Action:
        return Action("catch", player, target=target)

    @staticmethod
    def hint(target: int) -> Action:
        return Action("hint", None, target=target)

    @staticmethod
    def wrong_card(target: int, card: Card | None = None) -> Action:
        return Action("wrong-card", None, card=card, target=target)

    @staticmethod
    def next_round() -> Action:
        return Action("next-round")

    # JSON ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind}
        if self.player is not None:
            d["player"] = self.player
        if self.card is not None:
            d["card"] = self.card.text
        if self.color is not None:
            d["color"] = self.color
        if self.uno:
            d["uno"] = True
        if self.target is not None:
            d["target"] = self.target
        return d

    @staticmethod
    def from_dict(d: dict[str, object]) -> Action:
        from uno_fsm.cards import parse

        card = d.get("card")
        player, target, color = d.get("player"), d.get("target"), d.get("color")
        return Action(
            kind=str(d["kind"]),
            player=None if player is None else int(str(player)),
            card=None if card is None else parse(str(card)),
            color=None if color is None else str(color),
            uno=bool(d.get("uno", False)),
            target=None if target is None else int(str(target)),
        )


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with the rule ID that made it happen."""

    kind: str  # played, drew, color, skipped, reversed, challenged, ... (see docs/engine.md)
    player: int | None = None
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    color: str | None = None
    count: int = 0
    rule: str = ""

    def __str__(self) -> str:
        bits = [self.kind]
        if self.player is not None:
            bits.append(f"P{self.player}")
        if self.card is not None:
            bits.append(self.card.text)
        if self.cards:
            bits.append("[" + " ".join(c.text for c in self.cards) + "]")
        if self.color is not None:
            bits.append(self.color)
        if self.count:
            bits.append(str(self.count))
        if self.rule:
            bits.append(f"({self.rule})")
        return " ".join(bits)


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the game waits for and who owes it (player None: anyone / nobody)."""

    player: int | None
    decision: str  # play | play-drawn | color | challenge | swap | round-over
