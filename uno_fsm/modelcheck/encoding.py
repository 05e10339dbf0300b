"""The model checker's states: a compact canonical encoding, symmetry, fingerprints and the
shuffles (docs/model-checking.md, "States", "Symmetry" and "Shuffles").

A visited state is `bytes`: small integers for the phase, the seats, the colour, the pending
fields, the scores, each hand as the sorted ids of its cards (a multiset), the draw pile in
order, the discard pile (its top, then the cards under it sorted: classic never reads their
order; Flip keeps it, a Flip card turns the pile over) and the oracle's record of a pending
challengeable card. No JSON, no dictionaries: 40 to 80 bytes for the bundled configurations.
Left out: the hands shown to a challenger (`State.shown`: read by `view` only, by no rule, no
invariant and no postcondition, so two states that differ only there have the same futures
and the same verdicts) and the round number (`State.round`: read by no rule either).
`Codec.decode` gives the state back, its hands and pile in that canonical order.

**Symmetry** (the soundness argument is in docs/model-checking.md):

- *colours*: every permutation of the deck's colours that maps the deck onto itself (classic:
  any; Flip: the pairs of light and dark permutations its face pairing allows), unless a
  variant played declares its rules colour-specific (`Variant.colour_symmetric`);
- *seats*: the `Codec` can rotate the table (the canonical rotation puts the dealer at the
  last seat), but the model checker does not ask it to (`expand.symmetries`): the resolved
  dealer draw of the next hand is not rotation-equivariant (docs/model-checking.md).

The canonical form of a state is the smallest encoding over the permutations that map its
active colour to the smallest colour of that colour's orbit (an equivariant anchor: a state
and its image under any symmetry get the same set of candidate encodings). With two colours it
is one encoding per state.

**Shuffles** are not enumerated; `ModelRNG` resolves each one from the cards shuffled, seen in
the state's canonical frame: they are sorted in that frame's order, then permuted by a
permutation drawn from BLAKE2b of the run's `--seed`, the shuffle's rank in the action and
those cards' canonical ids (any other draw: a generator seeded with the fingerprint of the
canonical state). So a state and its colour image resolve as images of each other
(equivariant), and the reduced exploration is the quotient of the unreduced one
(tests/test_modelcheck_symmetry.py).

**Fingerprints**: `fingerprint(key)` is the first 64 bits of BLAKE2b (stable across processes,
unlike `hash`); with `--fingerprints` the visited set holds those instead of the keys, and the
run prints the probability that two of its states share one (n(n-1)/2^65, as TLC does).
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from uno_fsm.cards import COLOR_NAMES, Card, Face, parse_face
from uno_fsm.phase_table import PHASES
from uno_fsm.state import State

NONE = 255  # an absent seat, card or colour
_PHASE_ID = {p: i for i, p in enumerate(PHASES)}
_KINDS = ("wd4", "wd2", "wdc")  # the challengeable kinds of the oracle's record
_SIDE = {"light": 0, "dark": 1}
_NO_WINNERS = (0, 0, NONE)  # no winners, none eliminated, no record


def fingerprint(key: bytes) -> int:
    """The 64-bit fingerprint of a canonical key (BLAKE2b: the same in every process)."""
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little")


def collision_probability(n: int) -> float:
    """The probability that two of `n` distinct states share a 64-bit fingerprint, for
    uniformly spread fingerprints: about n(n-1)/2 / 2^64 (TLC's "optimistic" estimate)."""
    return min(1.0, n * (n - 1) / 2 / 2.0 ** 64)


@dataclass(frozen=True)
class Frame:
    """One symmetry: a colour permutation and a seat rotation, as the tables the encoder
    reads (a card's id, a colour's id)."""

    colours: tuple[tuple[str, str], ...]  # (letter, image letter), identity pairs included
    card_id: dict[Card, int]  # card -> the id of its image
    colour_id: dict[str | None, int]  # letter -> the id of its image (None -> NONE)


class ModelRNG(random.Random):
    """The shuffles of the explored games, resolved deterministically. `begin` names the
    state (its seed, from its canonical fingerprint) and its frame (the canonical order of the
    cards). `shuffle` sorts the cards in that order, then permutes them by the permutation
    the run's seed, the shuffle's rank within the action and those cards give (the same
    cards at the same rank are always shuffled the same way, seen in the canonical frame; a
    second shuffle of an action, such as a tied dealer draw drawn again, goes another way);
    any other draw (a dealer chosen at random) comes from a
    generator seeded with the state's seed at the action's first draw. `fresh` says whether
    the action drew at all (a refused action must not); `skip_next` leaves the next shuffle
    out (an enumerated deal is already in the order being explored)."""

    base = 0
    salt = b""
    fresh = True
    skip_next = False
    rank = 0  # shuffles made since `begin`
    order: dict[Card, int] = {}
    _perms: dict[bytes, tuple[int, ...]] = {}

    def begin(self, base: int, order: dict[Card, int]) -> None:
        self.base = base
        self.order = order
        self.fresh = True
        self.rank = 0

    def salted(self, seed: int) -> ModelRNG:
        """The run's `--seed` in every shuffle (the same seed: the same permutations)."""
        self.salt = seed.to_bytes(8, "little")
        self._perms = {}
        return self

    def _start(self) -> None:
        if self.fresh:
            self.fresh = False
            super().seed(self.base)

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        if self.skip_next:
            self.skip_next = False
            return
        self.fresh = False
        place = self.order.__getitem__  # a card's place in the canonical order
        x.sort(key=place)
        ids = self.rank.to_bytes(4, "little") + bytes(map(place, x))
        self.rank += 1
        perm = self._perms.get(ids)
        if perm is None:
            seed = int.from_bytes(hashlib.blake2b(self.salt + ids, digest_size=8).digest(),
                                  "little")
            positions = list(range(len(x)))
            random.Random(seed).shuffle(positions)
            perm = tuple(positions)
            if len(self._perms) < 1 << 16:
                self._perms[ids] = perm
        x[:] = list(map(x.__getitem__, perm))

    def random(self) -> float:
        self._start()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._start()
        return super().getrandbits(k)


class Codec:
    """Encoding, decoding and the canonical form of the states of one configuration."""

    def __init__(self, cards: Sequence[Card], players: int, light: Sequence[str],
                 dark: Sequence[str], colour_symmetry: bool, seat_symmetry: bool,
                 ruleset: str) -> None:
        self.players = players
        self.ruleset = ruleset
        self.cards: tuple[Card, ...] = tuple(sorted({c.text: c for c in cards}.values(),
                                                    key=lambda c: c.text))
        if len(self.cards) >= NONE:
            raise ValueError(f"{len(self.cards)} distinct cards: at most {NONE - 1}")
        self.flip = any(c.dark is not None for c in self.cards)
        # the colours of the game (those a Wild may name), then every other letter, so that
        # any colour the engine sets is encoded exactly (a wrong one is then found)
        self.colours: tuple[str, ...] = (*light, *dark)
        self._letters = (*self.colours, *(c for c in COLOR_NAMES if c not in self.colours))
        self.seat_symmetry = seat_symmetry
        self.frames: tuple[Frame, ...] = tuple(
            self._frame(m) for m in self._symmetries(list(light), list(dark), colour_symmetry))
        self.identity = self.frames[0]
        # anchor: colour -> the frames mapping it to the smallest colour of its orbit
        self.anchored: dict[str | None, tuple[Frame, ...]] = {None: self.frames}
        for c in self.colours:
            low = min(f.colour_id[c] for f in self.frames)
            self.anchored[c] = tuple(f for f in self.frames if f.colour_id[c] == low)
        self._seat = tuple({None: NONE, **{s: (s + k) % players for s in range(players)}}
                           for k in range(players))
        self._unseat = {NONE: None, **{s: s for s in range(players)}}
        # rotated by k, seat t of the key holds the hand of seat (t - k) mod n
        self._order = tuple(tuple((t - k) % players for t in range(players))
                            for k in range(players))
        self._colour_of: dict[int, str | None] = dict(enumerate(self._letters))
        self._colour_of[NONE] = None

    # ---- the symmetry group ------------------------------------------------------------------
    def _symmetries(self, light: list[str], dark: list[str], on: bool
                    ) -> list[dict[str, str]]:
        """The colour permutations that map the deck onto itself (identity first)."""
        ident = {c: c for c in (*light, *dark)}
        if not on:
            return [ident]
        deck = sorted(c.text for c in self.cards)
        out = [ident]
        for pl in itertools.permutations(light):
            for pd in itertools.permutations(dark):
                m = {**dict(zip(light, pl, strict=True)), **dict(zip(dark, pd, strict=True))}
                if m == ident:
                    continue
                if sorted(_map_card(c, m).text for c in self.cards) == deck:
                    out.append(m)
        return out

    def _frame(self, m: dict[str, str]) -> Frame:
        ids = {c: i for i, c in enumerate(self.cards)}
        card_id = {c: ids[_map_card(c, m)] for c in self.cards}
        colour_index = {c: i for i, c in enumerate(self._letters)}
        colour_id: dict[str | None, int] = {c: colour_index[m.get(c, c)] for c in self._letters}
        colour_id[None] = NONE
        return Frame(tuple(sorted(m.items())), card_id, colour_id)

    @property
    def group_size(self) -> int:
        return len(self.frames) * (self.players if self.seat_symmetry else 1)

    def describe(self) -> str:
        """The symmetries in words (the report)."""
        names = [COLOR_NAMES[c] for c in self.colours]
        colours = (f"colours {len(self.frames)} permutations of {', '.join(names)}"
                   if len(self.frames) > 1 else "colours none")
        seats = f"seats {self.players} rotations" if self.seat_symmetry else "seats none"
        return f"{colours}; {seats}"

    # ---- encoding ----------------------------------------------------------------------------
    def rotation(self, st: State) -> int:
        """The canonical rotation: the dealer to the last seat."""
        if not self.seat_symmetry:
            return 0
        return (self.players - 1 - st.dealer) % self.players

    def encode(self, st: State, record: Any, fr: Frame, k: int) -> bytes:
        """The key of `st` (with the oracle's `record`) seen through colour frame `fr` and
        rotated by `k` seats."""
        seat = self._seat[k]
        cid = fr.card_id.__getitem__
        drawn = st.drawn
        stack = st.stack
        winners = st.winners
        eliminated = st.eliminated
        # (one list display, then `+=`: fewer calls than appending field by field)
        out = [_PHASE_ID[st.phase], seat[st.current], st.direction + 1, seat[st.dealer],
               _SIDE[st.side], fr.colour_id[st.active_color],
               NONE if drawn is None else cid(drawn), seat[st.uno_window],
               seat[st.challenge_by], st.challenge_legal, stack >> 8, stack & 255,
               st.first_color, seat[st.round_winner], seat[st.winner]]
        if winners or eliminated:
            out.append(len(winners))
            out += sorted([seat[s] for s in winners])
            out.append(len(eliminated))
            out += sorted([seat[s] for s in eliminated])
            out.append(NONE)
        else:
            out += _NO_WINNERS
        if record is not None:  # in place of the NONE above
            out[-1:] = (seat[record[0]], record[1], _KINDS.index(record[2]),
                        fr.colour_id[record[3]])
        hands = st.hands
        scores = st.scores
        for t in self._order[k]:
            h = hands[t]
            sc = scores[t]
            out += (sc >> 8, sc & 255, len(h))
            out += sorted(map(cid, h))
        draw = st.draw
        out.append(len(draw))
        out += map(cid, draw)
        discard = st.discard
        out.append(len(discard))
        if self.flip:
            out += map(cid, discard)
        elif discard:
            out.append(cid(discard[-1]))
            out += sorted(map(cid, discard[:-1]))
        return bytes(out)  # ValueError: a field out of 0..255 (the caller reports it)

    def canonical(self, st: State, record: Any) -> tuple[bytes, Frame, int]:
        """(the canonical key, the frame that gives it, the rotation): the smallest encoding
        over the frames anchored at the active colour, with the dealer rotated last."""
        k = self.rotation(st)
        frames = self.anchored[st.active_color]
        if len(frames) == 1:
            fr = frames[0]
            return self.encode(st, record, fr, k), fr, k
        best = b""
        best_fr = frames[0]
        for fr in frames:
            e = self.encode(st, record, fr, k)
            if not best or e < best:
                best, best_fr = e, fr
        return best, best_fr, k

    def key(self, st: State, record: Any, reduce: bool) -> bytes:
        """The visited-set key: canonical with symmetry reduction, else the plain encoding."""
        if reduce:
            frames = self.anchored[st.active_color]
            if len(frames) == 1 and not self.seat_symmetry:  # `canonical`'s one encoding
                return self.encode(st, record, frames[0], 0)
            return self.canonical(st, record)[0]
        return self.encode(st, record, self.identity, 0)

    # ---- decoding ----------------------------------------------------------------------------
    def decode(self, key: bytes, rng: random.Random) -> tuple[State, Any]:
        """The state a key encodes (its hands and piles in canonical order) and the record."""
        n = self.players
        cards = self.cards
        unseat = self._unseat
        colour = self._colour_of
        b = key
        stack = (b[10] << 8) | b[11]
        i = 16
        winners = list(b[i:i + b[15]])
        i += b[15]
        m = b[i]
        eliminated = list(b[i + 1:i + 1 + m])
        i += 1 + m
        record: Any = None
        if b[i] == NONE:
            i += 1
        else:
            record = (b[i], bool(b[i + 1]), _KINDS[b[i + 2]], colour.get(b[i + 3]))
            i += 4
        card = self.cards.__getitem__
        hands: list[list[Card]] = []
        scores: list[int] = []
        for _ in range(n):
            scores.append((b[i] << 8) | b[i + 1])
            j = i + 3 + b[i + 2]
            hands.append(list(map(card, b[i + 3:j])))
            i = j
        j = i + 1 + b[i]
        draw = list(map(card, b[i + 1:j]))
        i = j + 1 + b[j]
        rest = list(map(card, b[j + 1:i]))
        if self.flip or not rest:
            discard = rest
        else:
            discard = rest[1:]
            discard.append(rest[0])
        st = State(
            ruleset=self.ruleset, players=n, hands=hands, draw=draw, discard=discard,
            active_color=colour.get(b[5]), direction=b[2] - 1, current=b[1], dealer=b[3],
            side="dark" if b[4] else "light", scores=scores, phase=PHASES[b[0]],
            drawn=None if b[6] == NONE else cards[b[6]], uno_window=unseat[b[7]],
            challenge_by=unseat[b[8]], challenge_legal=bool(b[9]), stack=stack,
            first_color=bool(b[12]), round_winner=unseat[b[13]], winner=unseat[b[14]],
            winners=winners, eliminated=eliminated, rng=rng)
        return st, record

    # ---- mapping a state or an action through a symmetry ------------------------------------
    def colour_map(self, fr: Frame) -> dict[str, str]:
        return dict(fr.colours)


def _map_face(f: Face, m: dict[str, str]) -> Face:
    if f.color is None:
        return f
    return parse_face(m.get(f.color, f.color) + f.rank)


def _map_card(c: Card, m: dict[str, str]) -> Card:
    from uno_fsm.cards import parse

    light = _map_face(c.light, m)
    if c.dark is None:
        return parse(light.text)
    return parse(f"{light.text}/{_map_face(c.dark, m).text}")


def map_card(c: Card, m: dict[str, str]) -> Card:
    """`c` with its colours renamed by `m` (a colour permutation)."""
    return _map_card(c, m)


def restore(st: State, s: State) -> None:
    """Make `st` a copy of `s` in place (the working game's state object stays the one its
    rules hold): the lists copied, everything else shared (cards are immutable values).
    tests/test_modelcheck_encoding.py checks that every field of `State` is here."""
    st.hands = [h[:] for h in s.hands]
    st.draw = s.draw[:]
    st.discard = s.discard[:]
    st.scores = s.scores[:]
    st.winners = s.winners[:]
    st.eliminated = s.eliminated[:]
    st.shown = {k: (v[0], v[1][:]) for k, v in s.shown.items()} if s.shown else {}
    st.active_color = s.active_color
    st.direction = s.direction
    st.current = s.current
    st.dealer = s.dealer
    st.side = s.side
    st.phase = s.phase
    st.drawn = s.drawn
    st.uno_window = s.uno_window
    st.challenge_by = s.challenge_by
    st.challenge_legal = s.challenge_legal
    st.stack = s.stack
    st.first_color = s.first_color
    st.round = s.round
    st.round_winner = s.round_winner
    st.winner = s.winner
    st.ruleset = s.ruleset
    st.players = s.players
    st.rng = s.rng


RESTORED = ("hands", "draw", "discard", "scores", "winners", "eliminated", "shown",
            "active_color", "direction", "current", "dealer", "side", "phase", "drawn",
            "uno_window", "challenge_by", "challenge_legal", "stack", "first_color", "round",
            "round_winner", "winner", "ruleset", "players", "rng")
