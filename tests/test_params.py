"""Every ruleset parameter is real (issue 14 item 4).

The ruleset schema (spec/schema/ruleset.schema.json, read through uno_spec.parameters) is the one
list of parameters. Here: the engine (`Params.from_mapping`, `build_deck`) reads every parameter
any composed ruleset sets and nothing the schema does not declare; a declared default is what the
engine assumes when the parameter is left out (a parameter without one is required); and every
value other than the default is played, by a corpus scenario or by a unit test below.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import game, hand

from conformance.scenario import load_corpus
from uno_fsm import Action, Game, parse
from uno_fsm.deck import build_deck
from uno_fsm.params import Params, ParamsError, from_mapping
from uno_fsm.rules import VARIANTS
from uno_spec.parameters import Parameter, leaves, parameters
from uno_spec.paths import spec_root
from uno_spec.rulesets import list_rulesets, load_ruleset, ruleset_files
from uno_spec.schema import ruleset_validator, validate

DECLARED = parameters()
LEAVES = {path: p for path, p in DECLARED.items() if p.leaf}
CORPUS = Path(__file__).resolve().parent.parent / "conformance" / "corpus"


class Recorder(Mapping[Any, Any]):
    """A read-only view of a params tree that logs the dotted path of every value fetched."""

    def __init__(self, data: Mapping[Any, Any], log: set[str], prefix: str = "") -> None:
        self._data, self._log, self._prefix = data, log, prefix

    def __getitem__(self, key: Any) -> Any:
        value = self._data[key]  # KeyError before logging: a missing key is not a read
        path = f"{self._prefix}.{key}" if self._prefix else str(key)
        self._log.add(path)
        return Recorder(value, self._log, path) if isinstance(value, Mapping) else value

    def __iter__(self) -> Iterator[Any]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def compositions() -> list[str]:
    """Each base alone and with each variant that applies to it."""
    files = ruleset_files()
    out = []
    for base in list_rulesets("base"):
        out.append(base)
        out += [f"{base}+{v.id}" for v in files.values()
                if v.kind == "variant" and base in v.applies_to]
    return out


def reads(name: str) -> set[str]:
    """The parameter paths the engine fetches to play `name` (its Params, its deck, and each
    variant's `enabled`, which reads the variant's own parameters)."""
    log: set[str] = set()
    params = from_mapping(name, Recorder(load_ruleset(name).params, log))
    build_deck(params)
    for variant in VARIANTS:
        variant.enabled(params)
    return log


@pytest.mark.parametrize("name", compositions())
def test_the_engine_reads_every_parameter_a_ruleset_sets(name: str) -> None:
    log = reads(name)
    unread = [path for path, _ in leaves(load_ruleset(name).params)
              if path not in log and not (path in LEAVES and LEAVES[path].label)]
    assert unread == []


@pytest.mark.parametrize("name", compositions())
def test_the_variants_a_ruleset_plays_are_those_enabled(name: str) -> None:
    """`Params.played` (asked once per Params) is each variant's own `enabled`, whatever was
    asked before: of the registry, of a part of it, of the registry again; and a game of the
    ruleset plays exactly those (its rules' variants, its hooks)."""
    from uno_fsm.rules.hooks import HOOKS, Variant

    params = Params.of(name)
    want = tuple(v for v in VARIANTS if v.enabled(params))
    assert params.played(VARIANTS) == want
    assert params.played(VARIANTS[1:]) == tuple(v for v in VARIANTS[1:] if v.enabled(params))
    assert params.played(VARIANTS) == want
    for players in range(params.min_players, params.max_players + 1):
        if params.players_ok(players):
            break
    rules = Game.new(name, players, seed=1)._rules
    assert tuple(type(v) for v in rules.variants) == want
    for hook in HOOKS:  # a hook for each variant whose class overrides it, in order
        assert list(getattr(rules.hooks, hook)) == [
            getattr(v, hook) for v in rules.variants
            if getattr(type(v), hook) is not getattr(Variant, hook)]


def test_the_engine_reads_only_declared_parameters() -> None:
    fetched = set().union(*(reads(n) for n in compositions()))

    def declared(path: str) -> bool:  # a key inside a declared map (copies per number) is fine
        parts = path.split(".")
        return any(".".join(parts[:i]) in DECLARED for i in range(len(parts), 0, -1))

    assert sorted(p for p in fetched if not declared(p)) == []


def test_every_declared_parameter_is_set_by_some_ruleset() -> None:
    """With the test above: the schema declares nothing the engine does not read."""
    set_somewhere = {path for rs in ruleset_files().values() for path, _ in leaves(rs.params)}
    assert sorted(set(LEAVES) - set_somewhere) == []


@pytest.mark.parametrize("name", compositions())
def test_a_composed_ruleset_still_matches_the_schema(name: str) -> None:
    """Composition (variants override the base key by key) keeps every parameter valid."""
    doc = {"id": "composed", "kind": "base", "title": name,
           "params": thaw(load_ruleset(name).params)}
    assert list(validate(doc, ruleset_validator(spec_root()))) == []


# ---- defaults: what the engine assumes when a ruleset leaves a parameter out -----------------

def thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(v) for v in value]
    return value


def set_path(raw: dict[str, Any], path: str, value: Any) -> None:
    *parents, leaf = path.split(".")
    node = raw
    for key in parents:
        node = node.setdefault(key, {})
    node[leaf] = value


def drop_path(raw: dict[str, Any], path: str) -> None:
    *parents, leaf = path.split(".")
    node = raw
    for key in parents:
        node = node.get(key, {})
    node.pop(leaf, None)


def played(raw: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """What the engine makes of a params tree: every Params field but the raw tree, and the deck."""
    params = Params.of(raw)
    fields = {f.name: getattr(params, f.name) for f in dataclasses.fields(params)
              if f.name not in ("raw", "ruleset")}
    try:
        deck = [c.text for c in build_deck(params)]
    except ValueError as err:  # a Flip deck whose sides no longer pair: refused alike
        deck = [str(err)]
    return fields, deck


def has_group(params: Mapping[str, Any], path: str) -> bool:
    """The ruleset sets the group `path` belongs to (a top-level parameter: always)."""
    node: Any = params
    for key in path.split(".")[:-1]:
        if not isinstance(node, Mapping) or key not in node:
            return False
        node = node[key]
    return True


def default_cases() -> Iterator[tuple[str, Parameter]]:
    """Each base with each parameter of a group it sets (the Wild Draw Two of a classic deck
    has no default there: a ruleset naming the card's group has the card's challenge)."""
    for base in list_rulesets("base"):
        params = load_ruleset(base).params
        for path, p in LEAVES.items():
            if not p.label and has_group(params, path):
                yield base, p


@pytest.mark.parametrize(("base", "param"), list(default_cases()),
                         ids=[f"{b}:{p.path}" for b, p in default_cases()])
def test_a_default_is_what_the_engine_assumes(base: str, param: Parameter) -> None:
    raw = thaw(load_ruleset(base).params)
    drop_path(raw, param.path)
    if not param.has_default:  # required: no number lives in the engine
        with pytest.raises(ParamsError, match=param.path):
            Params.of(raw)
        return
    left_out = played(raw)
    set_path(raw, param.path, thaw(param.default))
    assert played(raw) == left_out


# ---- every value other than the default is played --------------------------------------------

def corpus_values() -> dict[str, set[str]]:
    """path -> repr of each value a ruleset of the corpus (a scenario's, composed) gives it, or
    a scenario's table options (`params`) set."""
    out: dict[str, set[str]] = {}
    scenarios = load_corpus([CORPUS]).scenarios
    for name in sorted({s.ruleset for s in scenarios}):
        for path, value in leaves(load_ruleset(name).params):
            out.setdefault(path, set()).add(repr(thaw(value)))
    for s in scenarios:
        for path, value in leaves(s.params):
            out.setdefault(path, set()).add(repr(thaw(value)))
    return out


def other_values(p: Parameter) -> list[Any]:
    """The allowed values other than the default of an enum or boolean parameter."""
    values = p.node.get("enum") or ([True, False] if p.node.get("type") == "boolean" else [])
    return [v for v in values if not (p.has_default and v == p.default)]


# parameter -> the unit tests below that play its values other than the default (for a number:
# some other number)
UNIT_TESTED = {
    "players.min": ["test_player_counts_outside_the_range_are_refused"],
    "players.max": ["test_player_counts_outside_the_range_are_refused"],
    "hand_size": ["test_hand_size_is_dealt"],
    "draw.count": ["test_draw_count_cards_are_drawn"],
    "draw2.draw": ["test_draw_card_amounts"],
    "draw1.draw": ["test_draw_card_amounts"],
    "draw5.draw": ["test_draw_card_amounts"],
    "wd4.draw": ["test_wild_draw_amounts_when_accepted"],
    "wd2.draw": ["test_wild_draw_amounts_when_accepted"],
    "wd4.challenge.guilty_draw": ["test_challenge_amounts"],
    "wd4.challenge.innocent_draw": ["test_challenge_amounts"],
    "wd2.challenge.guilty_draw": ["test_challenge_amounts"],
    "wd2.challenge.innocent_draw": ["test_challenge_amounts"],
    "wdc.challenge.innocent_extra": ["test_wild_draw_colour_innocent_extra"],
    "wd4.challenge.allowed": ["test_an_unchallengeable_wild_draw_card_draws_at_once"],
    "wd2.challenge.allowed": ["test_an_unchallengeable_wild_draw_card_draws_at_once"],
    "wdc.challenge.allowed": ["test_an_unchallengeable_wild_draw_card_draws_at_once"],
    "uno.penalty": ["test_table_penalty_amounts"],
    "penalties.hint": ["test_table_penalty_amounts"],
    "penalties.wrong_card": ["test_table_penalty_amounts"],
    "uno.call_with_play": ["test_without_call_with_play_uno_is_called_after_the_play"],
    "last_card_draw": ["test_going_out_on_a_draw_card_without_its_draw"],
    "two_player.reverse_acts_as_skip": ["test_two_player_reverse_without_the_skip"],
    "deck.pairing.method": ["test_flip_faces_paired_in_order"],
    "deck.pairing.seed": ["test_flip_faces_paired_in_order"],
    "scoring.target": ["test_another_target_ends_the_game"],
    "scoring.points.skip": ["test_another_points_table"],
    "scoring.points.number": ["test_another_points_table"],
    "scoring.points.light.number": ["test_another_flip_points_table"],
    "scoring.points.dark.number": ["test_another_flip_points_table"],
}


def test_every_value_other_than_the_default_is_played() -> None:
    corpus = corpus_values()
    missing = []
    for path, p in LEAVES.items():
        if p.label or path in UNIT_TESTED:
            continue
        seen = corpus.get(path, set())
        options = other_values(p)
        if "enum" in p.node or p.node.get("type") == "boolean":  # each other value
            # (by a corpus scenario)
            missing += [f"{path}={v!r}" for v in options if repr(v) not in seen]
        elif not seen - {repr(thaw(p.default))}:  # a number, a list, a map: some other value
            missing.append(path)
    assert missing == []


def test_the_unit_tests_named_exist() -> None:
    assert sorted(set(UNIT_TESTED) - set(LEAVES)) == []
    names = {n for tests in UNIT_TESTED.values() for n in tests}
    assert sorted(n for n in names if not callable(globals().get(n))) == []


# ---- the unit tests: one parameter changed from a shipped ruleset ----------------------------

def custom(base: str, **paths: Any) -> Params:
    """`base`'s params with dotted paths set (`custom("flip", **{"draw1.draw": 3})`)."""
    raw = thaw(load_ruleset(base).params)
    for path, value in paths.items():
        set_path(raw, path, value)
    return Params.of(raw)


def test_player_counts_outside_the_range_are_refused() -> None:  # CL.DECK.PLAYERS
    params = custom("classic-official", **{"players.min": 3, "players.max": 5})
    for n in (2, 6):
        with pytest.raises(ValueError) as info:
            Game.new(params, players=n)
        assert getattr(info.value, "code", None) == "wrong-player-count"
    assert len(Game.new(params, players=3).state.hands) == 3
    assert len(Game.new(params, players=5).state.hands) == 5


def test_hand_size_is_dealt() -> None:  # CL.DEAL.SEVEN
    g = Game.new(custom("classic-official", hand_size=4), players=3, seed=1)
    dealer = g.state.dealer  # no first-card effect ever deals to the dealer
    assert len(g.state.hands[dealer]) == 4


def test_draw_count_cards_are_drawn() -> None:  # CL.DRAW.UNABLE with draw.count 3
    g = game({0: ["B1"], 1: ["Y2"]}, ["R5"], ["G1", "G2", "G3", "G4"],
             ruleset=custom("classic-official", **{"draw.count": 3}))
    g.apply(Action.draw(0))
    assert hand(g, 0) == ["B1", "G1", "G2", "G3"] and len(g.state.draw) == 1


@pytest.mark.parametrize(("base", "path", "card", "top"), [
    ("classic-official", "draw2.draw", "RD2", "R5"),  # CL.D2.EFFECT
    ("flip", "draw1.draw", "RD1/T1", "R5/P3"),  # FL.LIGHT.D1.EFFECT
    ("flip", "draw5.draw", "R1/TD5", "Y4/T3"),  # FL.DARK.D5.EFFECT
])
def test_draw_card_amounts(base: str, path: str, card: str, top: str) -> None:
    side = "dark" if "D5" in card else "light"
    filler = ["B9/O9"] if base == "flip" else ["B9"]
    other = ["B8/O8"] if base == "flip" else ["B8"]  # no more copies of a card than the deck
    draw = [f"G{i}/P{i}" if base == "flip" else f"G{i}" for i in range(1, 9)]
    g = game({0: [card, *filler], 1: filler, 2: other}, [top], draw,
             ruleset=custom(base, **{path: 3}), side=side,
             active_color="teal" if side == "dark" else "red")
    g.apply(Action.play(0, parse(card)))
    assert len(g.state.hands[1]) == 4 and g.state.current == 2


@pytest.mark.parametrize(("base", "path", "card", "color"), [
    ("classic-official", "wd4.draw", "W4", "G"),  # CL.WD4.ACCEPT
    ("flip", "wd2.draw", "W2/P1", "G"),  # FL.LIGHT.W2.ACCEPT
])
def test_wild_draw_amounts_when_accepted(base: str, path: str, card: str, color: str) -> None:
    flip = base == "flip"
    filler = ["B9/O9"] if flip else ["B9"]
    other = ["B8/O8"] if flip else ["B8"]  # no more copies of a card than the deck
    draw = [f"Y{i}/P{i}" if flip else f"Y{i}" for i in range(1, 9)]
    g = game({0: [card, *filler], 1: filler, 2: other}, ["R5/P3" if flip else "R5"], draw,
             ruleset=custom(base, **{path: 5}), active_color="red")
    g.apply(Action.play(0, parse(card), color=color))
    g.apply(Action.accept(1))
    assert len(g.state.hands[1]) == 6 and g.state.current == 2


@pytest.mark.parametrize("base", ["classic-official", "flip"])
@pytest.mark.parametrize("guilty", [True, False])
def test_challenge_amounts(base: str, guilty: bool) -> None:
    """CL.WD4.CHALLENGE.GUILTY / INNOCENT, FL.LIGHT.W2.GUILTY / INNOCENT with 1 and 3."""
    flip = base == "flip"
    kind = "wd2" if flip else "wd4"
    card = "W2/P1" if flip else "W4"
    red = "R2/O2" if flip else "R2"  # a card of the active colour makes the play a bluff
    filler, more, other = ("B9/O9", "B7/O7", "B8/O8") if flip else ("B9", "B7", "B8")
    draw = [f"Y{i}/P{i}" if flip else f"Y{i}" for i in range(1, 9)]
    g = game({0: [card, red if guilty else more, filler], 1: [filler], 2: [other]},
             ["R5/P3" if flip else "R5"], draw, active_color="red",
             ruleset=custom(base, **{f"{kind}.challenge.guilty_draw": 1,
                                     f"{kind}.challenge.innocent_draw": 3}))
    g.apply(Action.play(0, parse(card), color="G"))
    g.apply(Action.challenge(1))
    if guilty:
        assert len(g.state.hands[0]) == 3 and len(g.state.hands[1]) == 1
        assert g.state.current == 1
    else:
        assert len(g.state.hands[0]) == 2 and len(g.state.hands[1]) == 4
        assert g.state.current == 2


def test_wild_draw_colour_innocent_extra() -> None:  # FL.DARK.WDC.INNOCENT with 1 extra card
    g = game({0: ["R1/WDC", "B9/O9"], 1: ["B9/O9"], 2: ["B8/O8"]}, ["Y4/T3"],
             ["Y1/P1", "Y2/O2", "Y3/P3", "Y4/P4"], side="dark", active_color="teal",
             ruleset=custom("flip", **{"wdc.challenge.innocent_extra": 1}))
    g.apply(Action.play(0, parse("R1/WDC"), color="O"))
    g.apply(Action.challenge(1))
    # until the named orange (the second card), then 1 more
    assert hand(g, 1) == ["B9/O9", "Y1/P1", "Y2/O2", "Y3/P3"]


@pytest.mark.parametrize(("base", "kind", "card", "top", "side", "active"), [
    ("classic-official", "wd4", "W4", "R5", "light", "red"),  # CL.WD4.EFFECT
    ("flip", "wd2", "W2/P1", "R5/P3", "light", "red"),  # FL.LIGHT.W2.EFFECT
    ("flip", "wdc", "R1/WDC", "Y4/T3", "dark", "teal"),  # FL.DARK.WDC.EFFECT
])
def test_an_unchallengeable_wild_draw_card_draws_at_once(base: str, kind: str, card: str,
                                                         top: str, side: str,
                                                         active: str) -> None:
    flip = base == "flip"
    filler, other = ("B9/O9", "B8/O8") if flip else ("B9", "B8")
    draw = ["Y1/P1", "Y2/O2", "Y3/P3", "Y4/P4", "Y5/P5"] if flip else [f"Y{i}" for i in range(8)]
    g = game({0: [card, filler], 1: [filler], 2: [other]}, [top], draw, side=side,
             active_color=active, ruleset=custom(base, **{f"{kind}.challenge.allowed": False}))
    color = "O" if side == "dark" else "G"
    g.apply(Action.play(0, parse(card), color=color))
    assert g.pending is not None and g.pending.decision == "play" and g.state.current == 2
    drawn = {"wd4": 4, "wd2": 2, "wdc": 2}[kind]  # WDC: until the named orange (the second)
    assert len(g.state.hands[1]) == 1 + drawn


def test_table_penalty_amounts() -> None:  # CL.UNO.CATCH-PENALTY, CL.PEN.HINT, CL.PEN.WRONG-CARD
    params = custom("classic-official", **{"uno.penalty": 1, "penalties.hint": 3,
                                           "penalties.wrong_card": 5})
    draw = [f"Y{i}" for i in range(10)]
    g = game({0: ["R1", "R2"], 1: ["B9", "G3"], 2: ["B8"]}, ["R5"], draw, ruleset=params)
    g.apply(Action.play(0, parse("R1")))  # second-to-last card, no UNO call
    g.apply(Action.catch(2, 0))
    assert len(g.state.hands[0]) == 2
    g.apply(Action.hint(2))
    assert len(g.state.hands[2]) == 4
    g.apply(Action.wrong_card(1, parse("B9")))
    assert len(g.state.hands[1]) == 7


def test_without_call_with_play_uno_is_called_after_the_play() -> None:  # CL.UNO.CALL-LATE
    g = game({0: ["R1", "R2"], 1: ["B9"], 2: ["B8"]}, ["R5"], ["Y1", "Y2"],
             ruleset=custom("classic-official", **{"uno.call_with_play": False}))
    assert Action.play(0, parse("R1"), uno=True) not in g.legal_actions()
    before = g.state.to_dict()
    with pytest.raises(Exception) as info:
        g.apply(Action.play(0, parse("R1"), uno=True))
    assert getattr(info.value, "code", None) == "no-uno-window"
    assert g.state.to_dict() == before
    g.apply(Action.play(0, parse("R1")))
    g.apply(Action.call_uno(0))
    with pytest.raises(Exception) as caught:
        g.apply(Action.catch(1, 0))
    assert getattr(caught.value, "code", None) == "nothing-to-catch"


def test_going_out_on_a_draw_card_without_its_draw() -> None:
    """last_card_draw: no-effect (RUL.END.LAST-DRAW-CARD option): the hand ends at once."""
    g = game({0: ["RD2"], 1: ["B9"], 2: ["B8"]}, ["R5"], ["Y1", "Y2"],
             ruleset=custom("classic-official", last_card_draw="no-effect"))
    g.apply(Action.play(0, parse("RD2")))
    assert hand(g, 1) == ["B9"] and g.state.scores[0] == 17


def test_two_player_reverse_without_the_skip() -> None:
    """two_player.reverse_acts_as_skip: false (RUL.TWO.PLAY-AGAIN option `literal-reverse`)."""
    g = game({0: ["RR", "B1"], 1: ["B9"]}, ["R5"], ["Y1"],
             ruleset=custom("classic-official", **{"two_player.reverse_acts_as_skip": False}))
    g.apply(Action.play(0, parse("RR")))
    assert g.state.current == 1


def test_flip_faces_paired_in_order() -> None:  # FL.DECK.PAIRING, method in-order
    deck = build_deck(custom("flip", **{"deck.pairing.method": "in-order"}))
    shuffled = build_deck(custom("flip", **{"deck.pairing.seed": 7}))
    assert [c.text for c in deck[:3]] == ["R1/P1", "R1/P1", "R2/P2"]
    assert [c.light.text for c in shuffled] == [c.light.text for c in deck]
    assert [c.text for c in shuffled] != [c.text for c in build_deck(Params.of("flip"))]


def test_another_target_ends_the_game() -> None:  # CL.SCORE.TARGET at 20
    g = game({0: ["R1"], 1: ["B9", "G9"], 2: ["B8"]}, ["R5"], ["Y1"],
             ruleset=custom("classic-official", **{"scoring.target": 20}))
    g.apply(Action.play(0, parse("R1")))
    assert g.is_over and g.state.scores[0] == 26


def test_another_points_table() -> None:  # CL.SCORE.NUMBERS, CL.SCORE.ACTIONS with other values
    g = game({0: ["R1"], 1: ["BS", "G9"], 2: ["B8"]}, ["R5"], ["Y1"],
             ruleset=custom("classic-official", **{"scoring.points.skip": 7,
                                                   "scoring.points.number": 1}))
    g.apply(Action.play(0, parse("R1")))
    assert g.state.scores[0] == 7 + 1 + 1


@pytest.mark.parametrize(("side", "card", "top", "active", "points"), [
    ("light", "R7/O2", "R5/T3", "red", 2 + 50),  # FL.SCORE.NUMBER: light numbers score 2
    ("dark", "R7/T2", "Y4/T3", "teal", 3 + 60),  # dark numbers score 3
])
def test_another_flip_points_table(side: str, card: str, top: str, active: str,
                                   points: int) -> None:
    g = game({0: [card], 1: ["Y5/P9", "W2/WDC"]}, [top], ["Y6/P6"], side=side,
             active_color=active, ruleset=custom("flip", **{"scoring.points.light.number": 2,
                                                            "scoring.points.dark.number": 3}))
    g.apply(Action.play(0, parse(card)))
    assert g.state.scores[0] == points


def test_kinds_of_the_points_table_are_card_kinds() -> None:
    """The schema's points tables and first-card kinds name kinds the card notation knows."""
    from uno_spec import notation

    kinds = {k.kind for k in notation.kinds()} | {notation.NUMBER}
    for path in LEAVES:
        if path.startswith("scoring.points."):
            assert path.rsplit(".", 1)[1] in kinds, path
        if path.startswith("first_card.") and path != "first_card.special_wild":
            assert path.rsplit(".", 1)[1] in kinds, path


def test_a_hand_scores_the_points_of_its_faces_on_the_side_scored() -> None:
    """CL.SCORE.NUMBERS, CL.SCORE.ACTIONS, CL.SCORE.WILDS; FL.SCORE.SIDE: `hand_points` (what a
    hand's end scores, kept per face) is the sum of `points_of` each face, side by side, asked
    again and again."""
    from uno_fsm.cards import parse

    classic = Params.of("classic-official")
    hand = [parse(t).light for t in ("R7", "GS", "YR", "BD2", "W", "W4", "R0")]
    for _ in range(2):  # the second time from the kept points
        assert classic.hand_points(hand) == 7 + 20 + 20 + 20 + 50 + 50 + 0
    flip = Params.of("flip")
    cards = [parse(t) for t in ("R5/PD5", "W2/T3", "RF/VF")]
    for side in ("light", "dark"):
        faces = [c.on[side] for c in cards]
        want = sum(flip.points_of(f.kind, f.number, side) for f in faces)
        assert flip.hand_points(faces, side) == flip.hand_points(iter(faces), side) == want
    assert flip.hand_points([parse("R5/PD5").light]) == 5
    assert flip.hand_points([parse("R5/PD5").dark], "dark") == 20  # FL.SCORE.DRAW-FIVE
