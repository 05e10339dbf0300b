"""The card notation of docs/contracts.md ("Card notation"): the colour letters, the ranks and
the card kinds they stand for, the names of the kinds. One copy, read by the engine
(`uno_fsm.cards`) and by the harness (`conformance.specdata`).

The notation of the bases (classic UNO and UNO Flip) is here, as plain data (importing this
module reads no file: the engine's start-up stays small). A variant that adds a card declares
it in its own ruleset file, `cards:` in spec/rulesets/<id>.yaml (kind -> `letter`, `name`,
`wild`, `first_card`: the `first_card` policy key it is turned first by); `declared()` reads
those on first use. A declared card is a classic card (one face, never on UNO Flip).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

# colour letter -> name: the four classic (and Flip light) colours, then Flip's dark ones
COLOR_NAMES: dict[str, str] = {
    "R": "red", "Y": "yellow", "G": "green", "B": "blue",
    "P": "pink", "T": "teal", "O": "orange", "V": "purple",
}
LIGHT_COLORS = ("R", "Y", "G", "B")
DARK_COLORS = ("P", "T", "O", "V")
COLOR_ALIASES = {"violet": "V"}  # another name a ruleset may give a colour
NUMBER = "number"  # the kind of the ranks 0..9


class Kind:
    """A card kind of the notation: its rank letters, its name, whether it is a Wild (no
    colour letter), where it is printed (`classic`: a classic card; `light`, `dark`: a side of
    an UNO Flip card), and the `first_card` policy key it is turned first by (None: its own).
    (A plain class: this module is imported at the engine's start-up.)"""

    __slots__ = ("classic", "dark", "first_card", "kind", "light", "name", "rank", "wild")

    def __init__(self, kind: str, rank: str, name: str, wild: bool = False,
                 classic: bool = True, light: bool = True, dark: bool = False,
                 first_card: str | None = None) -> None:
        self.kind, self.rank, self.name, self.wild = kind, rank, name, wild
        self.classic, self.light, self.dark, self.first_card = classic, light, dark, first_card

    def __repr__(self) -> str:
        return f"Kind({self.kind!r}, {self.rank!r}, {self.name!r})"


_k = Kind


# the kinds of the bases, in the order the notation lists them (docs/contracts.md)
BASE_KINDS: tuple[Kind, ...] = (
    _k("skip", "S", "Skip", dark=True),
    _k("reverse", "R", "Reverse", dark=True),
    _k("draw2", "D2", "Draw Two"),
    _k("draw1", "D1", "Draw One", classic=False),
    _k("flip", "F", "Flip", classic=False, dark=True),
    _k("draw5", "D5", "Draw Five", classic=False, light=False, dark=True),
    _k("skip_everyone", "SE", "Skip Everyone", classic=False, light=False, dark=True),
    _k("wild", "W", "Wild", wild=True, dark=True),
    _k("wd4", "W4", "Wild Draw Four", wild=True),
    _k("wd2", "W2", "Wild Draw Two", wild=True, classic=False),
    _k("wdc", "WDC", "Wild Draw Colour", wild=True, classic=False, light=False, dark=True),
)


@functools.lru_cache(maxsize=1)
def declared() -> tuple[Kind, ...]:
    """The card kinds the variants add (`cards:` of spec/rulesets/<id>.yaml), by ruleset id;
    SpecError for a malformed one or one whose kind or letters the notation already has."""
    from uno_spec.loader import SpecError
    from uno_spec.rulesets import ruleset_files

    out: list[Kind] = []
    kinds = {k.kind for k in BASE_KINDS} | {NUMBER}
    ranks = {k.rank for k in BASE_KINDS} | {str(n) for n in range(10)}
    for rf in sorted(ruleset_files().values(), key=lambda r: r.id):
        for kind, card in rf.cards.items():
            where = f"ruleset {rf.id!r}: card {kind!r}"
            if not isinstance(card, Mapping) or not isinstance(kind, str) \
                    or not re.fullmatch(r"[a-z][a-z0-9_]*", kind):
                raise SpecError(rf.file, rf.line, f"{where}: a card kind (lower case) maps "
                                "to its letter, name, wild and first_card")
            letter, name = card.get("letter"), card.get("name")
            wild, first = card.get("wild", True), card.get("first_card")
            if not isinstance(letter, str) or not re.fullmatch(r"[A-Z][A-Z0-9]*", letter) \
                    or not isinstance(name, str) or not name or not isinstance(wild, bool) \
                    or not (first is None or isinstance(first, str)):
                raise SpecError(rf.file, rf.line, f"{where}: `letter` (upper case), `name`, "
                                "`wild` (true or false) and `first_card` (a policy key)")
            if kind in kinds or letter in ranks:
                raise SpecError(rf.file, rf.line, f"{where}: the notation already has the "
                                f"kind {kind!r} or the letters {letter!r}")
            kinds.add(kind)
            ranks.add(letter)
            out.append(Kind(kind, letter, name, wild, first_card=first))
    return tuple(out)


def kinds() -> tuple[Kind, ...]:
    """Every card kind but the numbers: the bases' and the variants'."""
    return (*BASE_KINDS, *declared())


def rank_letters() -> Mapping[str, str]:
    """Card kind -> its rank letters (`skip` -> `S`, `wd4` -> `W4`), every kind."""
    return {k.kind: k.rank for k in kinds()}


def card_notation() -> str:
    """The notation in words, said with every card that does not parse (the description of
    `card` in spec/schema/scenario.schema.json says the same: a test checks it)."""
    colours = ", ".join(f"{letter} {COLOR_NAMES[letter]}" for letter in LIGHT_COLORS)
    dark = ", ".join(f"{letter} {COLOR_NAMES[letter]}" for letter in DARK_COLORS)

    def listed(ks: list[Kind]) -> str:
        return ", ".join(k.rank if k.kind == "wild" else f"{k.rank} {k.name}" for k in ks)

    every = kinds()
    ranks = listed([k for k in every if not k.wild and k.classic])
    flip_ranks = listed([k for k in every if not k.wild and not k.classic])
    wilds = listed([k for k in every if k.wild and k.classic])
    flip_wilds = listed([k for k in every if k.wild and not k.classic])
    return (f"a card is a colour letter ({colours}; on the dark side of UNO Flip {dark}) "
            f"followed by a rank (0 to 9, {ranks}; UNO Flip: {flip_ranks}), or a Wild "
            f"({wilds}; UNO Flip: {flip_wilds}); an UNO Flip card is written light/dark, e.g. "
            "R5/PD5 (docs/contracts.md#card-notation)")
