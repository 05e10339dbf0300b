"""`uno-fsm check` (uno_fsm/modelcheck/): exploration of the engine.

The bundled configurations run with no violation; rule bugs injected with monkeypatch are found
with a shortest counterexample written as a scenario; the command's reports and refusals.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from tests.test_modelcheck_symmetry import reshuffle_loses_a_card, skip_does_not_skip
from uno_cli.main import main
from uno_fsm import modelcheck as mc
from uno_fsm.actions import Action
from uno_fsm.cards import Face, parse
from uno_fsm.deck import build_deck
from uno_fsm.rules import Rules

SMALL = replace(mc.BUNDLED["classic-official"], depth=4)
SKIPS = replace(mc.BASE_CONFIGS[1], depth=4)  # Skip and Reverse of both colours


def test_reduced_deck_is_a_sub_deck_of_the_ruleset() -> None:
    p = mc.reduced_params("classic-official", SMALL.deck, 2, 100)
    assert sorted(c.text for c in build_deck(p)) == ["R1", "RD2", "W", "W4", "Y1", "YD2"]
    assert p.hand_size == 2 and p.target == 100
    # an empty key: none of that kind
    p = mc.reduced_params("classic-official", "colors=red,yellow;numbers=1;actions=skip;"
                          "wilds=", 1, None)
    assert sorted(c.text for c in build_deck(p)) == ["R1", "RS", "Y1", "YS"]
    with pytest.raises(mc.ConfigError, match=r"colors: purple not in \['red', "):
        mc.reduced_params("classic-official", "colors=purple", 2, None)
    with pytest.raises(mc.ConfigError, match="5 copies of wild, the classic-official deck has 4"):
        mc.reduced_params("classic-official", "wilds=wild:5", 2, None)


def test_every_distinct_deal_once() -> None:
    cards = [parse(t) for t in ("R1", "R1", "RS", "W")]
    got = list(mc.deals(cards, 2, 1))
    # hands of one card each and the two left in both orders, copies not told apart
    assert len(got) == len(set(got)) == mc.count_deals(cards, 2, 1, 100) == 12
    assert mc.count_deals(cards, 2, 1, 5) == 6  # counted up to the limit + 1
    distinct = [parse(t) for t in ("R1", "RS", "RR", "W", "W4")]
    assert mc.count_deals(distinct, 2, 2, 100) == 5 * 4 * 3 * 2 // 4


def test_bundled_classic_official_has_no_violation() -> None:
    r = mc.explore(SMALL)
    assert r.violation_count == 0, [v.message for v in r.violations]
    # 6 distinct cards: a card for each of the two hands, the 4 others in every order
    assert r.deals == 6 * 5 * 4 * 3 * 2 and r.states > 1000 and r.transitions > r.states
    assert r.depth == 4 and not r.complete and r.bound() == "--depth 4"
    assert r.coverage.edges["play --draw--> play_drawn"] > 0


def test_a_skip_that_does_not_skip_is_found_with_a_shortest_counterexample(
        monkeypatch: pytest.MonkeyPatch) -> None:
    skip_does_not_skip(monkeypatch)
    r = mc.explore(SKIPS)
    found = [v for v in r.violations if v.rule == "CL.TWO.SKIP-AGAIN"]
    assert found, [v.message for v in r.violations]
    v = found[0]
    # one card each: a Skip played as the last card ends the hand, so the shortest path draws
    # a second card first, then plays the Skip
    assert v.kind == "transition" and [a.kind for a in v.path] == ["draw"]
    assert v.action is not None and v.action.card in (parse("RS"), parse("YS"))
    assert v.action.player == v.path[0].player and v.reproduced
    doc = yaml.safe_load(v.scenario)
    assert doc["ruleset"] == "classic-official" and doc["rules"] == ["CL.TWO.SKIP-AGAIN"]
    assert doc["setup"]["start"] == "turn" and doc["setup"]["players"] == 2
    assert doc["steps"][-1]["act"] == {"player": v.action.player, "play": v.action.card.text}


def test_a_reshuffle_that_loses_a_card_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    reshuffle_loses_a_card(monkeypatch)
    r = mc.explore(replace(SKIPS, depth=5))
    found = [v for v in r.violations if v.rule == "CL.DECK.TOTAL"]
    assert found, [v.message for v in r.violations]
    v = found[0]
    assert v.kind == "invariant" and v.action is None and v.reproduced
    # breadth first, the shortest path: a card is lost only when two go back (a discard pile
    # of three: two plays after the first card), a play from a hand of one card ends the
    # hand, so each play follows a draw; the two draws leave one card of the three in the
    # pile, and the fifth action must take two (a penalty)
    assert len(v.path) == 5 and [a.kind for a in v.path[:4]] == ["draw", "play"] * 2
    doc = yaml.safe_load(v.scenario)
    assert doc["setup"]["players"] == 2 and "steps" in doc


def test_a_zero_that_passes_the_hands_backwards_is_found_with_three_players(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from uno_fsm.rules import seven_o

    original = seven_o.SevenO.number

    def number(self: seven_o.SevenO, actor: int, f: Face, a: Action) -> bool:
        if f.rank != "0":
            return original(self, actor, f, a)
        r = self.r
        r.st.current = r.seat(actor)
        old = r.st.hands
        # BUG: each hand goes to the previous player (V.SEVENO.ZERO-ROTATE: to the next)
        r.st.hands = [old[r.seat(seat)] for seat in range(r.st.players)]
        return False

    monkeypatch.setattr(seven_o.SevenO, "number", number)
    config = next(c for c in mc.CI_CONFIGS if c.ruleset == "classic-official+seven-o")
    assert config.players == 3  # with two, a rotation either way is a swap
    r = mc.explore(config)
    assert {v.rule for v in r.violations} == {"V.SEVENO.ZERO-ROTATE"}
    assert all(v.reproduced for v in r.violations)


def test_a_round_that_cannot_end_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # BUG: no card is ever playable, so nobody can go out; drawing goes on for ever
    monkeypatch.setattr(Rules, "playable", lambda self, cards: [])
    r = mc.explore(replace(SKIPS, depth=None, max_states=50_000))
    kinds = {v.kind for v in r.violations}
    assert "no-round-end" in kinds, [v.message for v in r.violations]


def test_cli_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--depth", "2", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["ruleset"] == "classic-official" and out["violations"] == 0
    assert out["deals"] == 720 and out["depth"] == 2 and out["states"] > out["deals"]
    assert set(out["coverage"]) == {"edges", "edges_covered", "guard_outcomes",
                                    "guard_outcomes_covered"}


@pytest.mark.parametrize(("argv", "message"), [
    (["--deck", "colors=purple"], "uno-fsm check: --deck: colors: purple not in "
     "['red', 'yellow', 'green', 'blue']\n"),
    (["--deck", "numbers"], "uno-fsm check: --deck: 'numbers' is not key=items\n"),
    (["--ruleset", "classic-official+seven-o+stacking"],
     "uno-fsm check: no bundled configuration for classic-official+seven-o+stacking: give "
     "--deck"),
    (["--ruleset", ""], "uno-fsm check: "),
    (["--ruleset", "nosuch"], "uno-fsm check: "),
    (["--deck", "x" * 5000], "uno-fsm check: --deck: 5000 characters, at most 4096\n"),
    (["--jobs", "0"], "uno-fsm check: argument --jobs: 0 is not from 1 to 1024"),
    (["--deck", "colors=red,yellow", "--max-states", "10"],
     "uno-fsm check: the deck has more distinct deals than --max-states 10: use a smaller "
     "deck or hand\n"),
])
def test_cli_refuses_bad_configurations(argv: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1
    if argv[0] == "--ruleset" and "+" not in argv[1]:  # the name itself refused, not the deck
        assert ("malformed ruleset name" in err or "unknown ruleset" in err) \
            and "--deck" not in err


CLASSIC_PARTS = "(its parts: colors, numbers, actions, wilds)"
FLIP_PARTS = ("(its parts: light.colors, light.numbers, light.actions, light.wilds, "
              "dark.colors, dark.numbers, dark.actions, dark.wilds)")
NO_COLOURED_CARD = "neither left: a deck needs a coloured card (a number or an action)"
EMPTY_DECK = ("--deck: names no part of the deck: give key=items, such as "
              "'colors=red,yellow;numbers=1', or leave --deck out for the bundled deck")


@pytest.mark.parametrize(("ruleset", "deck", "line"), [
    # a deck of Wilds with no colour: once explored, `VIOLATIONS: 35` and exit 1
    ("classic-official", "colors=;numbers=",
     "--deck: colors: no colour left: a deck needs at least one"),
    # an empty spec meant the whole deck, refused after 17 s of CPU counting its deals
    ("classic-official", "", EMPTY_DECK),
    ("classic-official", " ; ", EMPTY_DECK),
    # Wilds only: explored, `OK` and exit 0
    ("classic-official", "colors=red;numbers=;actions=", f"--deck: numbers and actions: "
     f"{NO_COLOURED_CARD}"),
    # the last of a key given twice, or of a card named twice, was taken silently
    ("classic-official", "numbers=1;colors=red;numbers=2", "--deck: 'numbers' is given twice"),
    ("classic-official", "colors=red,red", "--deck: colors: 'red' is named twice"),
    ("classic-official", "numbers=1,1:2", "--deck: numbers: '1' is named twice"),
    # copies of a colour were dropped, an item naming nothing was a card named ''
    ("classic-official", "colors=red:2", "--deck: colors: red:2: a colour has no copies"),
    ("classic-official", "numbers=:2", "--deck: numbers: ':2' names no card"),
    # a key that is not a part of the deck: its name's letters as cards; a TypeError
    ("classic-official", "name=c", f"--deck: 'name' is not a part of the classic-official "
     f"deck to cut down {CLASSIC_PARTS}"),
    ("flip", "pairing.seed=1", f"--deck: 'pairing.seed' is not a part of the flip deck to cut "
     f"down {FLIP_PARTS}"),
    ("classic-official", "bogus=1", f"--deck: 'bogus': the classic-official deck has no "
     f"'bogus' {CLASSIC_PARTS}"),
    # each side of a Flip deck: no colour on the dark side was only a face count mismatch
    ("flip", "dark.colors=;light.numbers=1",
     "--deck: dark.colors: no colour left: a deck needs at least one"),
    ("flip", "light.numbers=;light.actions=",
     f"--deck: light.numbers and light.actions: {NO_COLOURED_CARD}"),
], ids=["no-colour", "empty", "blank", "wilds-only", "key-twice", "colour-twice", "card-twice",
        "colour-copies", "no-name", "not-a-part", "flip-not-a-part", "unknown-key",
        "flip-dark-no-colour", "flip-light-no-coloured-card"])
def test_cli_refuses_a_degenerate_deck_before_exploring(
        ruleset: str, deck: str, line: str, capsys: pytest.CaptureFixture[str]) -> None:
    started = time.process_time()
    assert main(["check", "--ruleset", ruleset, "--deck", deck]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"uno-fsm check: {line}\n")
    assert time.process_time() - started < 5


def test_every_ruleset_and_variant_has_a_bundled_configuration() -> None:
    names = {c.ruleset.split("+")[-1] for c in mc.BUNDLED.values()}
    spec = Path(__file__).parent.parent / "spec" / "rulesets"
    wanted = {p.stem for p in spec.glob("*.yaml")}
    assert wanted - names == set()


@functools.cache
def explored(config: mc.Config) -> mc.Result:
    return mc.explore(config)


@pytest.mark.parametrize("config", mc.CI_CONFIGS,
                         ids=[c.ruleset + ("/referee" if c.referee else "")
                              for c in mc.CI_CONFIGS])
def test_bundled_configuration_has_no_violation(config: mc.Config) -> None:
    r = explored(config)
    assert r.violation_count == 0, [v.message for v in r.violations][:3]
    assert r.deals > 0 and r.states > r.deals and r.deals_refused < r.deals


def test_the_configurations_reach_every_reachable_phase_edge_and_guard_outcome() -> None:
    cov = mc.Coverage()
    for config in mc.CI_CONFIGS:
        cov.merge(explored(config).coverage)
    assert sorted(mc.missing_labels(cov)) == sorted(mc.UNREACHABLE)


def test_cli_reports_a_violation_with_exit_1(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    reshuffle_loses_a_card(monkeypatch)
    assert main(["check", "--depth", "3"]) == 1
    out = capsys.readouterr().out
    # the verdict first; a Draw Two drawn from a pile that lost a card gives one card short
    assert out.startswith("check classic-official: VIOLATIONS: ")
    assert "bounded by --depth 3" in out.splitlines()[0]
    assert "transition [CL.D2.EFFECT]" in out and "as a scenario:" in out
    assert "  start: round" in out or "  start: turn" in out
