"""Reduced games and their deals (docs/model-checking.md, "What is explored").

A reduced deck is a set of parameters of the ruleset's own `deck` (`--deck`), never a second
deck definition (`reduced_params`). `deals` enumerates every distinct deal of it: each seat's
hand as a multiset and the draw pile in every order, the dealer at the last seat (every other
dealer is a rotation: seat symmetry). `deal_game` has the engine deal one itself:
`Rules.start_round` runs on a deck already in the order of the deal (its one shuffle is left
out), so the first-card rules run as in a game.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from uno_fsm.cards import Card
from uno_fsm.game import Game
from uno_fsm.modelcheck.encoding import ModelRNG
from uno_fsm.params import Params, from_mapping
from uno_fsm.state import State

Deal = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]  # (hand of each seat, draw top first)


class ConfigError(ValueError):
    """A configuration the checker cannot run (bad deck spec, too many deals...)."""


def parse_deck_spec(spec: str) -> dict[str, Any]:
    """`key=item,item;key=...`: each key a path under the ruleset's `deck` (`colors`,
    `numbers`, `light.actions`...), each item a name optionally with `:copies` (default 1).
    Keys not named keep the ruleset's values; a key with no item (`wilds=`) has none of that
    kind. Refused (`ConfigError`, one line): a spec naming no key (an empty one would mean the
    whole deck), a part that is not key=items, a key or an item given twice, an item naming
    nothing, copies that are not a whole number of at least 1."""
    out: dict[str, Any] = {}
    parts = [p.strip() for p in spec.split(";")]
    if not any(parts):
        raise ConfigError("--deck: names no part of the deck: give key=items, such as "
                          "'colors=red,yellow;numbers=1', or leave --deck out for the bundled "
                          "deck")
    for part in parts:
        if not part:
            continue
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ConfigError(f"--deck: {part!r} is not key=items")
        if key in out:
            raise ConfigError(f"--deck: {key!r} is given twice")
        items: dict[str, int] = {}
        for item in (i.strip() for i in value.split(",")):
            if not item:
                continue
            name, colon, copies = item.partition(":")
            name = name.strip()
            if not name:
                raise ConfigError(f"--deck: {key}: {item!r} names no card")
            try:
                n = int(copies) if colon else 1
            except ValueError:
                raise ConfigError(f"--deck: {item!r}: copies must be a whole number") from None
            if n < 1:
                raise ConfigError(f"--deck: {item!r}: copies must be at least 1")
            if name in items:
                raise ConfigError(f"--deck: {key}: {name!r} is named twice")
            items[name] = n
        out[key] = items
    return out


def _same_key(options: Mapping[Any, Any], name: str) -> Any:
    for k in options:
        if str(k) == name:
            return k
    return None


def _plain(node: Any) -> Any:
    """A mutable deep copy of a (read-only) parameters tree."""
    if isinstance(node, Mapping):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [_plain(v) for v in node]
    return node


def _is_part(node: Any) -> bool:
    """A part of a deck a --deck key cuts down: its colours (a list) or cards with their copies
    (a mapping of whole numbers)."""
    return isinstance(node, list) or (isinstance(node, dict) and all(
        type(v) is int for v in node.values()))


def _deck_parts(deck: Mapping[str, Any], prefix: str = "") -> list[str]:
    """The --deck keys of a ruleset's deck (`colors`, `numbers`... or `light.colors`...)."""
    out: list[str] = []
    for k, v in deck.items():
        if _is_part(v):
            out.append(f"{prefix}{k}")
        elif isinstance(v, dict):
            out += _deck_parts(v, f"{prefix}{k}.")
    return out


def _sides(deck: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Each set of faces of a deck (one for a classic deck, `light.` and `dark.` for Flip):
    the mappings holding `colors`."""
    if "colors" in deck:
        yield prefix, deck
    for k, v in deck.items():
        if isinstance(v, dict) and not _is_part(v):
            yield from _sides(v, f"{prefix}{k}.")


def reduced_params(ruleset: str, deck_spec: str, hand: int, target: int | None) -> Params:
    """The ruleset's parameters with its deck cut down to `deck_spec` (a sub-deck of its own:
    only names and at most the copies the ruleset's deck has), `hand` cards dealt and
    `target` points to win (CL.SCORE.TARGET; None keeps the ruleset's). Refused
    (`ConfigError`), before anything is dealt: a key that is not a part of the deck (its
    colours or cards with their copies), a name the deck lacks, more copies than it has,
    copies of a colour, and a deck left with no colour, or with neither numbers nor actions
    (no coloured card), on any of its sides."""
    base = Params.of(ruleset)
    raw = _plain(base.raw)
    deck = raw.setdefault("deck", {})
    parts = ", ".join(_deck_parts(deck))
    for path, items in parse_deck_spec(deck_spec).items():
        node = deck
        *parents, leaf = path.split(".")
        for p in parents:
            node = node.get(p) if isinstance(node, dict) else None
            if not isinstance(node, dict):
                raise ConfigError(f"--deck: {path!r}: the {ruleset} deck has no {p!r} "
                                  f"(its parts: {parts})")
        own = node.get(leaf)
        if own is None:
            raise ConfigError(f"--deck: {path!r}: the {ruleset} deck has no {leaf!r} "
                              f"(its parts: {parts})")
        if not _is_part(own):
            raise ConfigError(f"--deck: {path!r} is not a part of the {ruleset} deck to cut "
                              f"down (its parts: {parts})")
        if isinstance(own, list):  # colours: a subset, in the ruleset's order
            unknown = [n for n in items if n not in own]
            if unknown:
                raise ConfigError(f"--deck: {path}: {', '.join(unknown)} not in {own}")
            counted = [f"{n}:{c}" for n, c in items.items() if c != 1]
            if counted:
                raise ConfigError(f"--deck: {path}: {', '.join(counted)}: a colour has no "
                                  "copies")
            node[leaf] = [c for c in own if c in items]
            continue
        cut: dict[Any, int] = {}
        for name, n in items.items():
            k = _same_key(own, name)
            if k is None:
                raise ConfigError(f"--deck: {path}: {name!r} is not one of "
                                  f"{', '.join(str(x) for x in own)}")
            if n > int(own[k]):
                raise ConfigError(f"--deck: {path}: {n} copies of {name}, the {ruleset} deck "
                                  f"has {own[k]}")
            cut[k] = n
        node[leaf] = cut
    for side, faces in _sides(deck):
        if not faces.get("colors"):
            raise ConfigError(f"--deck: {side}colors: no colour left: a deck needs at least "
                              "one")
        if not faces.get("numbers") and not faces.get("actions"):
            raise ConfigError(f"--deck: {side}numbers and {side}actions: neither left: a deck "
                              "needs a coloured card (a number or an action)")
    raw["hand_size"] = hand
    if target is not None and (raw.get("scoring") or {}).get("target") is not None:
        raw["scoring"] = {**raw["scoring"], "target": target}
    return from_mapping(base.ruleset, raw)


# ---- initial deals --------------------------------------------------------------------------
def _combos(pool: Counter[Card], k: int) -> Iterator[tuple[Card, ...]]:
    """Distinct sub-multisets of `pool` of size k."""
    kinds = sorted(pool, key=lambda c: c.text)

    def rec(i: int, left: int) -> Iterator[tuple[Card, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(kinds):
            return
        c = kinds[i]
        for take in range(min(pool[c], left), -1, -1):
            for rest in rec(i + 1, left - take):
                yield (c,) * take + rest

    yield from rec(0, k)


def _perms(pool: Counter[Card]) -> Iterator[tuple[Card, ...]]:
    """Distinct orderings of the multiset `pool`."""
    if not +pool:
        yield ()
        return
    for c in sorted(+pool, key=lambda c: c.text):
        pool[c] -= 1
        for rest in _perms(pool):
            yield (c, *rest)
        pool[c] += 1


def count_deals(cards: Sequence[Card], players: int, hand: int, limit: int) -> int:
    """How many distinct deals `deals` yields, counted up to `limit` + 1 (their number grows
    like a factorial: a full deck has far more than can be counted one by one)."""
    return sum(1 for _ in itertools.islice(deals(cards, players, hand), limit + 1))


def deals(cards: Sequence[Card], players: int, hand: int
          ) -> Iterator[Deal]:
    """Every distinct deal: (hand of each seat, draw pile top first)."""
    def rec(seat: int, pool: Counter[Card], hands: tuple[tuple[Card, ...], ...]
            ) -> Iterator[tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]]:
        if seat == players:
            for order in _perms(Counter(pool)):
                yield hands, order
            return
        for h in _combos(pool, hand):
            left = pool - Counter(h)
            yield from rec(seat + 1, left, (*hands, h))

    yield from rec(0, Counter(cards), ())


def deal_game(params: Params, players: int, hands: Sequence[Sequence[Card]],
              draw: Sequence[Card], rng: ModelRNG) -> Game:
    """The game the engine starts from this deal: the dealer at the last seat, the deck in the
    order that deals `hands` one card at a time from the dealer's left, then `draw` (top
    first; its first card is turned first). The engine's own `start_round` deals it; `rng`
    (begun for this deal) resolves any later shuffle (a Wild Draw Four turned first)."""
    dealer = players - 1
    top_first: list[Card] = []
    for r in range(params.hand_size):
        for i in range(1, players + 1):
            top_first.append(hands[(dealer + i) % players][r])
    top_first.extend(draw)
    rng.skip_next = True  # CL.DEALER.RETURN: this deck is already in the deal's order
    st = State(ruleset=params.ruleset, players=players, hands=[[] for _ in range(players)],
               draw=top_first[::-1], discard=[], active_color=None, scores=[0] * players,
               rng=rng)
    g = Game(st, params, {"deal": True})
    try:
        g._rules.start_round(dealer)
        g._settle()
    finally:
        rng.skip_next = False
    g.setup_events, g._rules.events = g._rules.events, []  # the deal's, as `Game.new` keeps
    return g
