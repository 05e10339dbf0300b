"""Typed errors of the engine.

Every refusal of an action is an `IllegalAction` subclass carrying a stable kebab-case `code`
(the contract with spec/errors.yaml and the conformance corpus) and the `rule` ID it enforces.
The engine validates an action completely before it changes anything, so a refused action
leaves the game state exactly as it was. A set-up the rules refuse raises the same way
(`UnresolvableSetup`, `WrongPlayerCount`).
"""

from __future__ import annotations

from uno_spec.notation import card_notation


class CardNotationError(ValueError):
    """A card written in a notation docs/contracts.md does not define: the message names it,
    says what is wrong and explains the notation (`uno_spec.notation.card_notation`, the
    variants' cards included; spec/schema/scenario.schema.json's `card` says the same)."""

    code = "malformed-action"

    def __init__(self, text: object, why: str = "") -> None:
        self.text = text
        self.why = why
        detail = f" ({why})" if why else ""
        super().__init__(f"{text!r} is not a card{detail}: {card_notation()}")


class IllegalAction(Exception):
    """An action (or a set-up) the rules refuse. `code` is stable; `rule` names the rule ID
    broken."""

    code = "illegal-action"
    default_rule = "CL.PLAY.OUT-OF-TURN"

    def __init__(self, message: str = "", rule: str | None = None) -> None:
        self.rule = rule or self.default_rule
        self.message = message or self.code
        super().__init__(f"{self.code} [{self.rule}]: {self.message}")


class MalformedAction(IllegalAction):
    code = "malformed-action"
    default_rule = "CL.PLAY.TURN-OPTIONS"


class InvalidState(MalformedAction, ValueError):
    """A saved game or a set-up the ruleset cannot hold (uno_fsm.state_checks): `field` names
    where (`state.hands[2][5]`, `setup.dealer`, `json`), `rule` the rule the value breaks. The
    code is `malformed-action`'s: a set-up refused this way is answered as a malformed one.
    Also a ValueError, as `Game.from_json` raised for a broken document before."""

    def __init__(self, field: str, message: str, rule: str | None = None) -> None:
        self.field = field
        super().__init__(f"{field}: {message}", rule)


class UnresolvableSetup(IllegalAction):
    """A set-up the rules cannot start from (RUL.SETUP.UNRESOLVABLE): no card is left to turn
    first, or every card left is one the first-card rule sends back (possibly after cards it
    ignores); a dealer draw from fewer cards than players or from cards that all count the
    same. Raised by `Game.new`, `Game.from_setup` and by `next-round` (whose deal is then
    undone)."""

    code = "unresolvable-setup"
    default_rule = "CL.FIRST.UNRESOLVABLE"


class WrongPlayerCount(IllegalAction, ValueError):
    """A table the ruleset is not played at: fewer or more players than it allows, or an odd
    number where the ruleset asks for an even one (`players.even`: CL.DECK.PLAYERS,
    PARTNERS.EVEN). Also a ValueError, as `Game.new` raised before the code existed."""

    code = "wrong-player-count"
    default_rule = "CL.DECK.PLAYERS"


class NotYourTurn(IllegalAction):
    code = "not-your-turn"
    default_rule = "CL.PLAY.OUT-OF-TURN"


class WrongDecision(IllegalAction):
    code = "wrong-decision"
    default_rule = "CL.PLAY.TURN-OPTIONS"


class CardNotInHand(IllegalAction):
    code = "card-not-in-hand"
    default_rule = "CL.PLAY.TURN-OPTIONS"


class CardDoesNotMatch(IllegalAction):
    code = "card-does-not-match"
    default_rule = "CL.PLAY.MATCH"


class OnlyDrawnCard(IllegalAction):
    code = "only-drawn-card"
    default_rule = "CL.DRAW.ONLY-DRAWN"


class ColorRequired(IllegalAction):
    code = "color-required"
    default_rule = "CL.WILD.COLOUR"


class InvalidColor(IllegalAction):
    code = "invalid-color"
    default_rule = "CL.WILD.FOUR-COLOURS"


class NoUnoWindow(IllegalAction):
    code = "no-uno-window"
    default_rule = "CL.UNO.CALL-INVALID"


class NothingToCatch(IllegalAction):
    code = "nothing-to-catch"
    default_rule = "CL.UNO.FALSE-CATCH"


class NotChallengeable(IllegalAction):
    code = "not-challengeable"
    default_rule = "CL.WD4.CHALLENGE.WHO"


class NoSwapPending(IllegalAction):
    code = "no-swap-pending"
    default_rule = "V.SEVENO.SEVEN-PENDING"


class RoundOver(IllegalAction):
    code = "round-over"
    default_rule = "CL.END.NO-PENDING"


class GameOver(IllegalAction):
    code = "game-over"
    default_rule = "CL.END.NO-PENDING"


class Eliminated(IllegalAction):
    """DESAFIO.ELIMINATED-OUT (RUL.DESAFIO.ELIMINATED): an action by or naming a seat out of
    the game (the error code `eliminated` of spec/errors.yaml)."""

    code = "eliminated"
    default_rule = "DESAFIO.ELIMINATED-OUT"


ERROR_TYPES: tuple[type[IllegalAction], ...] = (
    MalformedAction, NotYourTurn, WrongDecision, CardNotInHand, CardDoesNotMatch, OnlyDrawnCard,
    ColorRequired, InvalidColor, NoUnoWindow, NothingToCatch, NotChallengeable, NoSwapPending,
    RoundOver, GameOver, UnresolvableSetup, WrongPlayerCount, Eliminated,
)
"""Every concrete error type, one per code."""

ERROR_CODES: dict[str, type[IllegalAction]] = {e.code: e for e in ERROR_TYPES}
