"""Cards: immutable, interned values and the text notation of docs/contracts.md.

A `Face` is one printed side (a colour letter or None for a Wild, and a rank). A `Card` is a
light face and, for UNO Flip, a dark face. Classic cards have no dark face. Faces and cards are
interned: `parse("R5") is parse("R5")`, so hands compare by identity and hashing is cheap.

Notation (docs/contracts.md "Card notation", one copy in `uno_spec.notation`): `R0`..`B9`, `GS`
(Skip), `YR` (Reverse), `RD2` (Draw Two), `W`, `W4`; Flip light `BD1`, `RF`, `W2`; Flip dark
`PD5`, `TSE`, `PF`, `WDC`; a double-faced card is `light/dark` (`R5/PD5`); and the cards the
variants declare in their ruleset files (`cards:`), read the first time a card is not one of
the bases' (`declared`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from uno_fsm.errors import CardNotationError
from uno_spec import notation as N

LIGHT_COLORS = N.LIGHT_COLORS
DARK_COLORS = N.DARK_COLORS
COLOR_NAMES: dict[str, str] = dict(N.COLOR_NAMES)
COLOR_LETTERS: dict[str, str] = {name: letter for letter, name in COLOR_NAMES.items()}
COLOR_LETTERS.update(N.COLOR_ALIASES)

# rank -> kind. Kinds are the keys the rulesets use (scoring points, first-card effects, deck);
# the bases' here, the variants' cards added by `declared()`
COLORED_RANKS: dict[str, str] = {
    **{str(d): N.NUMBER for d in range(10)},
    **{k.rank: k.kind for k in N.BASE_KINDS if not k.wild},
}
WILD_RANKS: dict[str, str] = {k.rank: k.kind for k in N.BASE_KINDS if k.wild}
# kinds printed only on UNO Flip cards (FL.DECK.*): never a card of classic UNO
FLIP_ONLY_KINDS = frozenset(k.kind for k in N.BASE_KINDS if not k.classic)
KIND_RANKS: dict[str, str] = {kind: rank for rank, kind in {**COLORED_RANKS, **WILD_RANKS}.items()
                              if kind != N.NUMBER}
# ranks never printed on a dark face, never on a light face (of an UNO Flip card)
_LIGHT_ONLY = {k.rank for k in N.BASE_KINDS if not k.dark}
_DARK_ONLY = {k.rank for k in N.BASE_KINDS if not k.light}
_DECLARED: list[bool] = []  # whether the variants' cards are read


def declared() -> None:
    """Add the cards the variants declare (uno_spec.notation.declared: spec/rulesets) to the
    tables above, once (a classic card: one light face)."""
    if _DECLARED:
        return
    _DECLARED.append(True)
    for k in N.declared():
        (WILD_RANKS if k.wild else COLORED_RANKS)[k.rank] = k.kind
        KIND_RANKS[k.kind] = k.rank
        _LIGHT_ONLY.add(k.rank)


def rank_of(kind: str) -> str | None:
    """The rank letters of a card kind (`skip` -> `S`), a variant's card included; None for
    a kind the notation lacks."""
    rank = KIND_RANKS.get(kind)
    if rank is None and not _DECLARED:
        declared()
        rank = KIND_RANKS.get(kind)
    return rank


@functools.cache
def kind_names() -> dict[str, str]:
    """Card kind -> its name in full (`wd4` -> `Wild Draw Four`): the notation's, the variants'
    cards included."""
    return {k.kind: k.name for k in N.kinds()}


def full_name(f: Face) -> str:
    """`red 5`, `green Skip`, `Wild Draw Four`: a face in words."""
    what = str(f.number) if f.number is not None else kind_names().get(f.kind, f.rank)
    return what if f.color is None else f"{COLOR_NAMES[f.color]} {what}"


def a_or_an(name: str) -> str:
    """`a Skip`, `an 8`, `an orange card`."""
    return f"{'an' if name[:1].lower() in 'aeio8' or name.startswith('11') else 'a'} {name}"


@functools.cache  # (the declared kinds are read once: a deal asks it of every card turned)
def first_card_key(kind: str) -> str | None:
    """The `first_card` policy key a card kind is turned first by when the ruleset names no
    policy for the kind itself (a variant's card: its declaration), or None."""
    return next((k.first_card for k in N.declared() if k.kind == kind), None)


def color_letter(name_or_letter: str) -> str:
    """`red` or `R` -> `R`; raises CardNotationError for anything else."""
    if name_or_letter in COLOR_NAMES:
        return name_or_letter
    letter = COLOR_LETTERS.get(str(name_or_letter).lower())
    if letter is None:
        raise CardNotationError(name_or_letter, "not a colour")
    return letter


def color_name(letter: str | None) -> str | None:
    return None if letter is None else COLOR_NAMES[letter]


@dataclass(frozen=True, slots=True, eq=False)
class Face:
    """One printed side of a card. Interned: build with `face()` or `parse_face()`."""

    color: str | None  # colour letter, None for a Wild
    rank: str  # "0".."9", "S", "R", "D2", "W", "W4", ...
    kind: str = field(compare=False)  # number | skip | reverse | draw2 | wild | wd4 | ...
    number: int | None = field(compare=False)  # face value of a number card
    is_wild: bool = field(compare=False)
    text: str = field(compare=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Face({self.text})"

    def __copy__(self) -> Face:
        return self

    def __deepcopy__(self, memo: object) -> Face:
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_face, (self.text,))


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A physical card: a light face and, for Flip, a dark face. Interned: build with `parse()`."""

    light: Face
    dark: Face | None = None
    text: str = field(default="", compare=False)
    # side in play ("light", "dark") -> the face showing (`__post_init__`), read by `face`,
    # `Core.face` and the engine's hot paths (a subscript costs less than a call)
    on: dict[str, Face] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        # FL.PLAY.ACTIVE-SIDE: a card shows its face of the side in play; a classic card has
        # one face, which shows on either side
        self.on.update(light=self.light, dark=self.light if self.dark is None else self.dark)

    def face(self, side: str = "light") -> Face:
        """The face showing when `side` ("light" or "dark") is in play (a classic card has
        only its light face): `on[side]`."""
        return self.on[side]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text})"

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse, (self.text,))


_FACES: dict[str, Face] = {}
_CARDS: dict[str, Card] = {}


def face(color: str | None, rank: str) -> Face:
    """The interned face of `color` (letter or None) and `rank`."""
    text = rank if color is None else color + rank
    got = _FACES.get(text)
    if got is not None:
        return got
    return parse_face(text)


def parse_face(text: str) -> Face:
    """Parse one face (`R5`, `GS`, `W4`, `PD5`, `WDC`...)."""
    got = _FACES.get(text)
    if got is not None:
        return got
    if not isinstance(text, str) or not text:
        raise CardNotationError(text, "empty")
    if text not in WILD_RANKS and text[1:] not in COLORED_RANKS and not _DECLARED:
        declared()  # not a card of the bases: perhaps a variant's
    if text in WILD_RANKS:
        made = Face(None, text, WILD_RANKS[text], None, True, text)
    else:
        color, rank = text[0], text[1:]
        if color not in COLOR_NAMES:
            raise CardNotationError(text, f"unknown colour letter {color!r}")
        kind = COLORED_RANKS.get(rank)
        if kind is None:
            raise CardNotationError(text, f"unknown rank {rank!r}")
        number = int(rank) if kind == "number" else None
        made = Face(color, rank, kind, number, False, text)
    _FACES[text] = made
    return made


def parse(text: str) -> Card:
    """Parse a card: one face (classic) or `light/dark` (Flip). Raises CardNotationError."""
    got = _CARDS.get(text)
    if got is not None:
        return got
    if not isinstance(text, str):
        raise CardNotationError(text, "a card is written as a string")
    if "/" in text:
        parts = text.split("/")
        if len(parts) != 2:
            raise CardNotationError(text, "a double-faced card is light/dark")
        light, dark = parse_face(parts[0]), parse_face(parts[1])
        if light.color is not None and light.color not in LIGHT_COLORS:
            raise CardNotationError(text, "the light face must be red, yellow, green or blue")
        if dark.color is not None and dark.color not in DARK_COLORS:
            raise CardNotationError(text, "the dark face must be pink, teal, orange or purple")
        if light.rank in _DARK_ONLY or dark.rank in _LIGHT_ONLY:
            raise CardNotationError(text, "a face printed on the wrong side")
        card = Card(light, dark, text)
    else:
        card = Card(parse_face(text), None, text)
    _CARDS[text] = card
    return card


def of_game(card: Card, flip: bool) -> bool:
    """Whether `card` is a card of UNO Flip (`flip`: double-faced) or of classic UNO
    (single-faced, no face printed only on Flip cards)."""
    if flip:
        return card.dark is not None
    return card.dark is None and card.light.kind not in FLIP_ONLY_KINDS


def fmt(card: Card) -> str:
    """The notation of a card (inverse of `parse`)."""
    return card.text


def parse_many(texts: object) -> list[Card]:
    """Parse a list of notations (a scenario's hand or pile)."""
    if texts is None:
        return []
    if isinstance(texts, str) or not isinstance(texts, list | tuple):
        raise CardNotationError(texts, "expected a list of cards")
    return [parse(str(t)) if not isinstance(t, str) else parse(t) for t in texts]


def sort_key(card: Card) -> tuple[int, str]:
    """Display order: by colour (wilds last), then rank."""
    f = card.light
    order = "RYGBPTOV".find(f.color) if f.color else 9
    rank = f.rank.zfill(3) if f.number is not None else "~" + f.rank
    return (order, rank)
