"""The named hooks a house rule plugs into (docs/engine.md, "How to add a house rule").

A house rule is a `Variant` subclass in a module of its own (`uno_fsm/rules/<variant>.py`),
listed once in `uno_fsm.rules.VARIANTS`. `Rules` makes one instance per game for every variant
whose `enabled(params)` is true, and the shared flow calls its hooks at fixed points. Each hook
has a default that changes nothing, and only the hooks a variant overrides are called (the
lists are built once per game, so a hook costs nothing to the games that do not play it).

docs/engine.md ("How to add a house rule") lists them with where the flow calls them.

A hook reads and changes the game through `self.r` (the `Rules`: `self.r.st` the state,
`self.r.p` the parameters, `self.r.give`, `self.r.seat`, `self.r.face`, `self.r.events`...).
A variant that needs a new phase or event adds it to `uno_fsm.phases.TurnPhases` (the one
definition of the phases) and its guards and effects as methods of a mixin listed in the bases
of `uno_fsm.rules.Rules` (the machine's model): the `<Name>Rules` mixins of the variant modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from uno_fsm.actions import Action
from uno_fsm.cards import Card, Face
from uno_fsm.checks import Oracle
from uno_fsm.configs import CheckConfig, FuzzConfig
from uno_fsm.params import Params

if TYPE_CHECKING:
    from uno_fsm.rules.core import Core

# the effect of a card kind: (actor, the face played, the action) -> whether the UNO window
# opens as after any play (CL.UNO.MUST-CALL); False for the effects that forbid a catch
CardEffect = Callable[[int, Face, Action], bool]

HOOKS = ("playable", "check_play", "plays_in", "out_of_turn", "extra_actions",
         "on_challengeable", "settle_penalty", "on_go_out", "swap_rules", "score_hand",
         "on_scored", "target_reached", "end_game", "seats_in_play", "check_action",
         "draw_turn", "from_setup", "restrict_plays")


@dataclass(frozen=True, slots=True)
class SwapRules:
    """The rule IDs of a swap decision: its effect, the owner's (another seat answering), the
    target's (swapping with oneself)."""

    effect: str
    owner: str
    target: str


class Variant:
    """A variant (spec/rulesets/<name>.yaml, `kind: variant`): everything the engine, the
    fuzzer and the model checker know of it. Subclasses set the class attributes and override
    `enabled` and the hooks they need (see the module docstring); every hook here is the
    default, which changes nothing.

    - `name`: the variant's ruleset id; its parameters are declared in that ruleset file
      (`schema`, merged into spec/schema/ruleset.schema.json's `$defs.params` by uno_spec) and
      read by `enabled` and the hooks through `Params.get`; its feature id is the file's
      `feature` (read by the conformance harness through uno_spec, never from here);
    - `fuzz`: the composed rulesets `uno-fsm fuzz` plays it in (uno_fsm.fuzz);
    - `checks`: its model-check configurations (uno_fsm.modelcheck: `uno-fsm check`);
    - `oracle`: its postconditions and invariants for both (uno_fsm.checks.Oracle), written
      from the rule texts, never calling the hooks;
    - `scoring_method`: the `scoring.method` it plays (its hooks score the hands), if any: the
      registry refuses a ruleset asking for a method no variant plays (`check_params`);
    - `bench`: whether `uno-fsm bench` plays it in its `variants/4` configuration (the
      variants that say so composed on classic-official, in the registry's order: the house
      rules whose hooks sit on the hot path; uno_cli/bench_games.py)."""

    name: ClassVar[str] = ""  # the ruleset variant it plays (spec/rulesets/<name>.yaml)
    fuzz: ClassVar[tuple[FuzzConfig, ...]] = ()
    checks: ClassVar[tuple[CheckConfig, ...]] = ()
    oracle: ClassVar[type[Oracle]] = Oracle
    scoring_method: ClassVar[str] = ""
    bench: ClassVar[bool] = False
    # keys of a scenario set-up only this variant gives meaning to (`from_setup` reads them;
    # a set-up naming one of a variant the ruleset does not play is refused)
    setup_fields: ClassVar[tuple[str, ...]] = ()
    # the model checker's symmetry reduction (uno_fsm/modelcheck/encoding.py): whether its
    # rules treat every colour alike (none names a colour); a variant that does not sets it
    # False
    colour_symmetric: ClassVar[bool] = True
    # `State` fields only this variant sets: field -> (the rule that says so, what it holds); a
    # saved game (`Game.from_json`, uno_fsm.state_checks) holding one that none of the
    # ruleset's variants sets is refused with that rule
    state_fields: ClassVar[dict[str, tuple[str, str]]] = {}

    __slots__ = ("r",)

    def __init__(self, rules: Core) -> None:
        self.r = rules

    @staticmethod
    def enabled(p: Params) -> bool:
        """Whether the composed ruleset plays this variant (read from its parameters)."""
        return False

    def playable(self, cards: Iterable[Card]) -> list[Card] | None:
        """Matching (`Rules.playable`): the cards among `cards` playable now, or None (the
        base match decides)."""
        return None

    def restrict_plays(self, cards: list[Card]) -> list[Card]:
        """Matching (`Rules.playable`), after the match (the base's or a `playable` hook's):
        the turn owner's cards among `cards` the variant still lets them play (refuse the
        others in `check_play`, with the variant's rule)."""
        return cards

    def check_play(self, action: Action) -> None:
        """`Rules.validate`, the turn owner's play, before the match: raise an
        `IllegalAction` to refuse it."""
        return None

    def plays_in(self, phase: str) -> bool:
        """`Rules.validate`: whether a play by the turn owner answers the decision `phase`
        (the base: `play` and `play_drawn` only)."""
        return False

    def out_of_turn(self, action: Action) -> str | None:
        """`Rules.validate`, a play by someone else than the turn owner: the machine event it
        sends, or None (`not-your-turn`); raise an `IllegalAction` to refuse it otherwise."""
        return None

    def extra_actions(self, out: list[Action]) -> None:
        """`Rules.legal_actions`, after the turn owner's actions and before the windows:
        append the variant's legal actions to `out`."""
        return None

    def card_effects(self) -> dict[str, CardEffect]:
        """Once per game: `{card kind: effect(actor, face, action) -> bool}` replacing or
        adding the effect `play_effect` runs for a kind (True: the UNO window opens as after
        any play, CL.UNO.MUST-CALL)."""
        return {}

    def on_challengeable(self, actor: int, face: Face, action: Action) -> None:
        """`play_challengeable`, after a Wild Draw card is placed and before the UNO window."""
        return None

    def settle_penalty(self, seat: int, outcome: str) -> bool:
        """The answer to a Wild Draw card (`outcome`: `accept`, `guilty`, `innocent`; `seat`
        draws) and the referee's `wrong-card` (after its own penalty): True if the variant
        drew the penalty itself (the base amount is then not drawn)."""
        return False

    def on_go_out(self, victim: int, kind: str, action: Action) -> bool:
        """`play_out`, before the penalty of a last draw card (`kind`) for `victim`: True if
        the variant settled it itself."""
        return False

    @staticmethod
    def swap_rules(face: Face) -> SwapRules | None:
        """The `swap` decision (`needs_swap`, `validate`, the swap itself): its rule IDs if a
        play of `face` opens it, else None (static: uno_fsm.state_checks asks it of a saved
        game's top card, with no game)."""
        return None

    def score_hand(self, winner: int, held: list[int]) -> tuple[int, str] | None:
        """`play_out`, the scoring method (`held`: each seat's points in hand): add to
        `State.scores` and return the points of the `went-out` event with the rule ID it
        cites, or None (the winner scores the others' cards, CL.SCORE.WINNER)."""
        return None

    def on_scored(self, winner: int) -> None:
        """`play_out`, after the hand is scored and its `went-out` event told (e.g.
        DESAFIO.ELIMINATE: who leaves the game at the end of this hand)."""
        return None

    def target_reached(self) -> bool | None:
        """The eventless `round_over -> game_over` guard: True / False, or None (the ruleset's
        target)."""
        return None

    def end_game(self) -> bool:
        """The `round_over -> game_over` effect: True if the variant named the winners itself
        (else the winner of the last hand wins)."""
        return False


    def seats_in_play(self) -> Sequence[int] | None:
        """The seats still in the game, ascending, or None (every seat): every choice of a
        seat (`Core.seat`, `left`, `seats`, `seated`: turn order, dealing, catches...)
        skips the others (e.g. DESAFIO.ELIMINATED-OUT)."""
        return None

    def check_action(self, action: Action) -> None:
        """`Rules.validate`, after the seat checks, for every action: raise an `IllegalAction`
        to refuse it (e.g. an action by or naming a seat out of the game)."""
        return None

    def draw_turn(self, seat: int, rule: str) -> tuple[Card, ...] | None:
        """`draw_card`, the turn owner's draw instead of a play (`rule`: CL.DRAW.UNABLE or
        CL.DRAW.UNWILLING): the cards drawn (drawn with `Core.give`; the last one is the card
        that may then be played), or None (the ruleset's `draw.count`)."""
        return None

    def from_setup(self, setup: Mapping[str, Any], start: str) -> None:
        """`Game.from_setup`, once the position is built (before the first card, the deal or
        the current player): read the variant's `setup_fields`; raise an `IllegalAction` to
        refuse the set-up."""
        return None


class Hooks:
    """The bound hooks of the variants a game plays, one tuple per hook name (empty when no
    variant overrides it)."""

    __slots__ = HOOKS

    def __init__(self, variants: Iterable[Variant]) -> None:
        variants = tuple(variants)
        for name in HOOKS:
            setattr(self, name, tuple(getattr(v, name) for v in variants
                                      if name in _overridden(type(v))) if variants else ())

    playable: tuple[Callable[[Iterable[Card]], list[Card] | None], ...]
    check_play: tuple[Callable[[Action], None], ...]
    plays_in: tuple[Callable[[str], bool], ...]
    out_of_turn: tuple[Callable[[Action], str | None], ...]
    extra_actions: tuple[Callable[[list[Action]], None], ...]
    on_challengeable: tuple[Callable[[int, Face, Action], None], ...]
    settle_penalty: tuple[Callable[[int, str], bool], ...]
    on_go_out: tuple[Callable[[int, str, Action], bool], ...]
    swap_rules: tuple[Callable[[Face], SwapRules | None], ...]
    score_hand: tuple[Callable[[int, list[int]], tuple[int, str] | None], ...]
    on_scored: tuple[Callable[[int], None], ...]
    target_reached: tuple[Callable[[], bool | None], ...]
    end_game: tuple[Callable[[], bool], ...]
    seats_in_play: tuple[Callable[[], Sequence[int] | None], ...]
    check_action: tuple[Callable[[Action], None], ...]
    draw_turn: tuple[Callable[[int, str], tuple[Card, ...] | None], ...]
    from_setup: tuple[Callable[[Mapping[str, Any], str], None], ...]
    restrict_plays: tuple[Callable[[list[Card]], list[Card]], ...]


_OVERRIDES: dict[type, frozenset[str]] = {}


def _overridden(cls: type) -> frozenset[str]:
    """The hooks (HOOKS) the variant class `cls` overrides, found once per class."""
    got = _OVERRIDES.get(cls)
    if got is None:
        got = _OVERRIDES[cls] = frozenset(name for name in HOOKS
                                          if getattr(cls, name) is not getattr(Variant, name))
    return got
