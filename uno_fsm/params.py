"""The engine's typed view of a ruleset's parameters (spec/rulesets/*.yaml).

Every number the engine uses comes from here, read from the ruleset's `params`; nothing in
the engine repeats them. `Params.of("classic-official")` loads through `uno_spec.rulesets`.
The fields are the base rules' parameters; a variant (uno_fsm/rules/, `Variant`) reads its own
from the same mapping with `Params.get`, so this module names no variant.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from uno_fsm.cards import COLOR_LETTERS, Face


def _get(params: Mapping[str, Any], path: str, default: Any = None) -> Any:
    node: Any = params
    for key in path.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return default
        node = node[key]
    return node


_REQUIRED = object()


class ParamsError(KeyError):
    """A ruleset lacks a parameter the engine needs."""


def _int(params: Mapping[str, Any], path: str, default: Any = _REQUIRED) -> int:
    """An integer parameter; without a default it is required (no number lives in the code)."""
    value = _get(params, path, default)
    if value is _REQUIRED:
        raise ParamsError(f"ruleset parameter {path!r} is missing")
    return int(value)


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challengeable Wild Draw card: `draw` cards when accepted (-1: until the named colour),
    `guilty` for its player when caught bluffing, `innocent` (+ `extra`) for a wrong challenger."""

    allowed: bool
    draw: int  # -1: draw until a card of the named colour (Wild Draw Colour)
    guilty: int
    innocent: int
    extra: int  # cards drawn after the colour is found (Wild Draw Colour, innocent)


UNTIL_COLOUR = -1


@dataclass(frozen=True)
class Params:
    """Parameters of one composed ruleset, as the engine needs them."""

    ruleset: str
    raw: Mapping[str, Any]
    game: str  # classic | flip
    min_players: int
    max_players: int
    hand_size: int
    dealer: str  # high-card | random
    first_card: Mapping[str, str]  # kind -> policy
    draw_count: int
    uno_penalty: int
    uno_call_with_play: bool
    hint_penalty: int
    wrong_card_penalty: int
    last_card_draw: bool  # going out on a draw card: the next player draws and the cards count
    reverse_as_skip_two: bool
    wild_must_change: bool  # wild.must_change_color (CL.WILD.MUST-CHANGE; else CL.WILD.SAME-COLOUR)
    target: int | None  # None: one round, first out wins
    points: Mapping[str, Any]
    colors: tuple[str, ...]  # letters of the (light side) colours
    dark_colors: tuple[str, ...]  # letters of the dark side's colours (Flip), else ()
    even_players: bool  # players.even: only an even number of players (PARTNERS.EVEN)
    # Flip: penalty draws of the coloured draw cards and the challenge of each Wild Draw card
    draws: Mapping[str, int]  # draw-card kind -> cards the next player draws (draw2/draw1/draw5)
    challenges: Mapping[str, Challenge]  # wd4 / wd2 / wdc -> its challenge parameters
    light_scoring: bool  # FL.SCORE.LIGHT-SIDE (`scoring.side: light`): the light faces score
    method: str  # scoring.method (CL.SCORE.WINNER; a variant's own method: its hooks score)
    # side -> face -> its points (`hand_points`: a hand's end scores every card left in every
    # hand, the same few faces again and again)
    _face_points: dict[str, dict[Face, int]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    # the variant classes offered (Rules.VARIANTS) -> those these parameters play: each
    # `Variant.enabled` reads the parameters alone, and every game set up asks again
    # (`Core.init_core`)
    _played: dict[tuple[type, ...], tuple[type, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    @staticmethod
    def of(ruleset: str | Any) -> Params:
        """Params of a ruleset name (`base+variant`), a uno_spec Ruleset, or a params mapping."""
        if isinstance(ruleset, str):
            return _load(ruleset)
        if isinstance(ruleset, Params):
            return ruleset
        if isinstance(ruleset, Mapping):
            return from_mapping("custom", ruleset)
        return from_mapping(str(ruleset.id), ruleset.params)

    def override(self, values: Mapping[str, Any]) -> Params:
        """These parameters with `values` (nested like a ruleset file's `params`) merged over
        them: a scenario's table options (docs/scenario-format.md `params`)."""
        from uno_spec.rulesets import deep_merge, freeze

        return from_mapping(self.ruleset, freeze(deep_merge(self.raw, values)))

    def get(self, path: str, default: Any = None) -> Any:
        """The parameter at the dotted `path` (`<group>.enabled`), or `default`: how a variant
        reads the parameters its ruleset file declares."""
        return _get(self.raw, path, default)

    def played(self, variants: tuple[Any, ...]) -> tuple[Any, ...]:
        """The variant classes among `variants` whose `enabled` holds of these parameters
        (a pure function of them: asked once per parameters and tuple of variants)."""
        got = self._played.get(variants)
        if got is None:
            got = self._played[variants] = tuple(v for v in variants if v.enabled(self))
        return got

    def players_ok(self, n: int) -> bool:
        """CL.DECK.PLAYERS; PARTNERS.EVEN: an even count when `players.even` says so."""
        return self.min_players <= n <= self.max_players and not (self.even_players and n % 2)

    def colors_of(self, side: str) -> tuple[str, ...]:
        """The colours of `side` (CL.WILD.FOUR-COLOURS); which of them a Wild may name now is
        the engine's `Core.wild_colors` (CL.WILD.MUST-CHANGE)."""
        return self.dark_colors if side == "dark" and self.dark_colors else self.colors

    def points_of(self, kind: str, number: int | None, side: str = "light") -> int:
        """Points of a face of `kind` (CL.SCORE.NUMBERS, CL.SCORE.ACTIONS, CL.SCORE.WILDS);
        a Flip ruleset has one table per side (`scoring.points.light` / `.dark`)."""
        table = self.points.get(side) if isinstance(self.points.get(side), Mapping) else None
        points = table if table is not None else self.points
        if kind == "number":
            value = points.get("number", "face")
            return int(number or 0) if value == "face" else int(value)
        return int(points.get(kind, 0))

    def hand_points(self, faces: Iterable[Face], side: str = "light") -> int:
        """The points of `faces` (a hand read on `side`): `points_of` of each, summed."""
        cache = self._face_points.get(side)
        if cache is None:
            cache = self._face_points[side] = {}
        total = 0
        for f in faces:
            got = cache.get(f)
            if got is None:
                got = cache[f] = self.points_of(f.kind, f.number, side)
            total += got
        return total


@functools.lru_cache(maxsize=64)
def _load(name: str) -> Params:
    from uno_spec.rulesets import load_ruleset

    rs = load_ruleset(name)
    return from_mapping(rs.id, rs.params)


# The base rules' scoring method (CL.SCORE.WINNER); a variant plays its own (`Variant.
# scoring_method`: the registry refuses a method nobody plays, uno_fsm.rules.check_params)
BASE_METHOD = "winner-scores-others"


def from_mapping(name: str, p: Mapping[str, Any]) -> Params:
    method = _get(p, "scoring.method", BASE_METHOD)
    colors = _get(p, "deck.colors") or _get(p, "deck.light.colors") or ()
    return Params(
        ruleset=name,
        raw=p,
        game=str(_get(p, "game", "classic")),
        min_players=_int(p, "players.min"),
        max_players=_int(p, "players.max"),
        hand_size=_int(p, "hand_size"),
        dealer=str(_get(p, "dealer", "random")),
        first_card=_policies(_get(p, "first_card", {}) or {}),
        draw_count=_int(p, "draw.count"),
        uno_penalty=_int(p, "uno.penalty"),
        uno_call_with_play=bool(_get(p, "uno.call_with_play", True)),
        hint_penalty=_int(p, "penalties.hint"),
        wrong_card_penalty=_int(p, "penalties.wrong_card"),
        last_card_draw=_get(p, "last_card_draw", "draw-and-count") == "draw-and-count",
        reverse_as_skip_two=bool(_get(p, "two_player.reverse_acts_as_skip", True)),
        wild_must_change=bool(_get(p, "wild.must_change_color", False)),
        target=None if _get(p, "scoring.target") is None else _int(p, "scoring.target"),
        points=_points(_get(p, "scoring.points", {}) or {}),
        colors=tuple(COLOR_LETTERS[str(c)] for c in colors),
        even_players=bool(_get(p, "players.even", False)),
        dark_colors=tuple(COLOR_LETTERS[str(c)] for c in (_get(p, "deck.dark.colors") or ())),
        # (draw amounts default to 0 only for decks without those cards: Flip has no Draw Two)
        draws={kind: _int(p, f"{kind}.draw", 0) for kind in ("draw2", "draw1", "draw5")},
        challenges=_challenges(p),
        light_scoring=_side(name, p) == "light",
        method=str(method),
    )


def _side(name: str, p: Mapping[str, Any]) -> str:
    """FL.SCORE.SIDE / FL.SCORE.LIGHT-SIDE (RUL.FLIP.SCORING-SIDE): which faces are scored."""
    side = str(_get(p, "scoring.side", "active"))
    if side not in ("active", "light"):
        raise ValueError(f"{name}: scoring.side must be 'active' or 'light', not {side!r}")
    return side


def _policies(first: Mapping[str, Any]) -> dict[str, str]:
    """The first-card policies a ruleset names; `none` is what an unnamed kind does anyway."""
    return {str(k): str(v) for k, v in first.items() if v != "none"}


def _points(table: Mapping[str, Any]) -> dict[str, Any]:
    """A points table (one per side in Flip) without the entries `points_of` assumes anyway: a
    number scores its face, a kind the table does not name scores 0."""
    out: dict[str, Any] = {}
    for kind, value in table.items():
        if isinstance(value, Mapping):
            sub = _points(value)
            if sub:
                out[str(kind)] = sub
        elif value != ("face" if kind == "number" else 0):
            out[str(kind)] = value
    return out


def _challenges(p: Mapping[str, Any]) -> dict[str, Challenge]:
    """CL.WD4.CHALLENGE.*, FL.LIGHT.W2.* and FL.DARK.WDC.*: each Wild Draw card's own params."""
    out: dict[str, Challenge] = {}
    for kind in ("wd4", "wd2"):
        if _get(p, kind) is not None:
            out[kind] = Challenge(
                allowed=bool(_get(p, f"{kind}.challenge.allowed", True)),
                draw=_int(p, f"{kind}.draw", 0),
                guilty=_int(p, f"{kind}.challenge.guilty_draw", 0),
                innocent=_int(p, f"{kind}.challenge.innocent_draw", 0),
                extra=0,
            )
    if _get(p, "wdc") is not None:  # FL.DARK.WDC.*: every draw is "until the named colour"
        out["wdc"] = Challenge(
            allowed=bool(_get(p, "wdc.challenge.allowed", True)),
            draw=UNTIL_COLOUR, guilty=UNTIL_COLOUR, innocent=UNTIL_COLOUR,
            extra=_int(p, "wdc.challenge.innocent_extra", 0),
        )
    return out
