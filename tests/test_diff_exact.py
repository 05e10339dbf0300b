"""The shortcuts `conformance diff` takes for speed give what the long way gives
(docs/performance.md "Differential fuzzing"):

- a resync sets up the implementation only: the oracle after a step observes exactly what the
  oracle set up from its exported `turn_position` observes;
- `shuffled` is counted from the draws on the engine's random source: the same answer as
  comparing the generator's state before and after;
- `act_observe` is `act` then `observe`; `turn_position` is `position`'s `turn`;
- a scenario built from data is the scenario its YAML text loads as;
- the RLCard adapter's set-up leaves RLCard's random state where RLCard's own constructors do;
- `legal_actions`' normal form remembered during a run is the one made afresh (`true` is not
  `1`, a key `1` not a key `"1"`), and `hands` compared without sorting find what their normal
  forms' comparison finds; a shuffle's replays, remembered, answer what they answer afresh.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from conformance.adapters.reference import OBSERVATIONS, ReferenceOracle
from conformance.diff import Differ
from conformance.diff_scenarios import scenario, to_yaml
from conformance.scenario import parse_data, parse_text

# the position's observations: `events` are the last step's, which a set-up has none of
STATE = [k for k in OBSERVATIONS if k != "events"]

RULESETS = ["classic-official", "classic-2022", "flip", "classic-official+stacking",
            "classic-official+seven-o", "classic-official+desafio",
            "classic-official+partners"]


def _walk(ruleset: str, seed: int, players: int) -> list[tuple[ReferenceOracle, Any]]:
    """Random play on the oracle; after each action, the oracle and its observations."""
    rng = random.Random(seed)
    o = ReferenceOracle()
    assert o.setup({"ruleset": ruleset, "seed": seed,
                    "setup": {"players": players, "start": "game"}}) is None
    out = []
    for _ in range(120):
        legal = o.observe(["legal_actions"])["legal_actions"]
        if not legal:
            break
        assert o.act(rng.choice(legal)) is None
        out.append((o, o.observe(OBSERVATIONS + ["legal_actions", "turn_position"])))
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_oracle_after_a_step_is_the_oracle_set_up_from_its_position(ruleset: str) -> None:
    players = 4
    checked = 0
    for seed in range(10):
        for _, obs in _walk(ruleset, seed, players):
            pos = obs["turn_position"]
            if pos is None:
                continue
            fresh = ReferenceOracle()
            assert fresh.setup({"ruleset": ruleset, "setup": pos, "seed": seed}) is None
            again = fresh.observe(STATE + ["legal_actions", "rules_applied", "events",
                                                  "shuffled"])
            # what the fuzzer substitutes for the set-up's own rules, events and shuffle
            assert (again["rules_applied"], again["events"], again["shuffled"]) == ([], [], False)
            assert {k: again[k] for k in STATE + ["legal_actions"]} == \
                {k: obs[k] for k in STATE + ["legal_actions"]}
            checked += 1
    assert checked > 15


@pytest.mark.parametrize("ruleset", RULESETS)
def test_shuffled_is_what_the_generator_state_says(ruleset: str) -> None:
    seen = {True: 0, False: 0}
    for seed in range(4):
        rng = random.Random(seed)
        o = ReferenceOracle()
        assert o.setup({"ruleset": ruleset, "seed": seed,
                        "setup": {"players": 4, "start": "game"}}) is None
        for _ in range(200):
            legal = o.observe(["legal_actions"])["legal_actions"]
            if not legal:
                break
            before = o.game.state.rng.getstate()
            assert o.act(rng.choice(legal)) is None
            truth = o.game.state.rng.getstate() != before
            assert o.observe(["shuffled"])["shuffled"] is truth
            seen[truth] += 1
    assert seen[True] and seen[False]  # both answers were checked


def test_act_observe_is_act_then_observe_and_turn_position_is_positions_turn() -> None:
    a, b = ReferenceOracle(), ReferenceOracle()
    for o in (a, b):
        o.setup({"ruleset": "classic-official", "seed": 5,
                 "setup": {"players": 3, "start": "game"}})
    rng = random.Random(5)
    keys = [*STATE, "legal_actions", "events", "position", "turn_position"]
    for _ in range(60):
        legal = a.observe(["legal_actions"])["legal_actions"]
        act = rng.choice(legal + [{"player": 0, "play": "R9"}])  # a refusal now and then
        one = a.act_observe(act, keys)
        two = (b.act(act), b.observe(keys))
        assert one == two
        assert one[1]["turn_position"] == one[1]["position"]["turn"]


def test_a_scenario_built_from_data_is_the_one_its_yaml_loads_as() -> None:
    from conformance.adapters.reference import ReferenceAdapter

    class Off(ReferenceAdapter):  # a Skip that does not skip, declared as the reference
        def act(self, action: dict[str, Any]) -> dict[str, Any] | None:
            out = super().act(action)
            if out is None and str(action.get("play", ""))[1:] == "S":
                self.game.state.current = action["player"]
            return out

    report = Differ(ReferenceOracle, Off, players=(3, 3), shrink_seconds=0, confirm_runs=0
                    ).run(examples=200, seed=2, until=lambda found: len(found) >= 2)
    assert report.groups
    for div, _ in report.groups:
        doc = scenario(div, "off", 1)
        built = dataclasses.asdict(parse_data(doc, "f.yaml"))
        [loaded] = parse_text(to_yaml(doc), "f.yaml")
        read = dataclasses.asdict(loaded)
        for d in (built, read):  # lines: only the text has them
            del d["line"], d["raw_lines"]
            for s in d["steps"]:
                del s["line"]
        assert built == read


def test_the_rlcard_setup_leaves_rlcards_random_state_where_its_constructors_do() -> None:
    pytest.importorskip("rlcard")
    import numpy as np
    from rlcard.games.uno.dealer import UnoDealer

    from conformance.adapters.rlcard import RLCardAdapter

    a = RLCardAdapter()
    a.hello()
    for seed in (0, 7, 12345):
        for start, extra in (("turn", {"current": 0, "discard": ["R5"], "active_color": "red"}),
                             ("round", {"dealer": 1})):
            a.setup({"ruleset": "classic-official", "seed": seed,
                     "setup": {"players": 2, "start": start, "hands": {"0": ["B1"], "1": ["G2"]},
                               "draw": ["Y3", "W", "R7", "G9"], **extra}})
            want = np.random.RandomState(seed)
            UnoDealer(want)  # what RLCard's dealer draws building its deck (Y3 first: none)
            got = a.game.np_random.get_state()
            assert got[0] == want.get_state()[0]
            assert (got[1] == want.get_state()[1]).all() and got[2:] == want.get_state()[2:]


def _fresh_listing(actions: Any) -> Any:
    """The normal form made afresh, each action's own (`compare._form`), nothing remembered."""
    from conformance import compare as cmp

    out = {}
    for a in actions:
        form = cmp._form(a)
        if form is not None:
            out[form[0]] = form[1]
    return {k: out[k] for k in sorted(out)}


LISTS: list[Any] = [
    [{"player": 0, "play": "r5"}, {"player": 0, "draw": True}],
    [{"player": 0, "play": "R5"}, {"player": 0, "draw": 1}],  # `1` is not `true`
    [{"player": 0, "play": "R5"}, {"player": 0, "draw": 1.0}],
    [{"player": 0, "play": "W", "color": "Red"}, {"player": 1, "catch": 0}],
    [{1: "x"}],  # a key `1` is not a key `"1"`
    [{"1": "x"}],
    [{"player": 0, "play": "R5", "uno": True}, {"player": 0, "uno": True}],
    [{"player": 0, "draw": float("nan")}],
    [("player", 0)],
    [["player", 0]],  # a list is not a tuple
    [{"player": 0, "draw": 0.0}],
    [{"player": 0, "draw": -0.0}],  # `-0.0` is not `0.0`: its normal form's key differs
    [{"player": 0, "play": type("Card", (str,), {})("r5")}],  # not plain data: not remembered
]


def _holding_itself() -> list[Any]:
    """A list of actions holding itself (an in-process adapter may answer anything)."""
    actions: list[Any] = [{"player": 0, "draw": True}]
    actions.append(actions)
    return actions


def test_a_remembered_listing_is_the_listing_made_afresh() -> None:
    from conformance import compare as cmp

    with cmp.listings_remembered():
        for _ in range(2):  # made, then remembered
            for actions in LISTS + LISTS[::-1]:
                got = cmp.listing(actions)
                want = _fresh_listing(actions)
                assert got == want and [type(v) for a in got.values() for v in a.values()] \
                    == [type(v) for a in want.values() for v in a.values()]
                assert list(got) == list(want)
                assert [list(a) for a in got.values()] == [list(a) for a in want.values()]
    assert cmp._listings is None and cmp._forms == {}  # nothing kept after the run


def test_a_list_holding_itself_is_listed_and_not_remembered() -> None:
    """Its normal form is made afresh each time (the memo's key cannot be written: a key
    that referred back to the list would remember it, and comparing it with its copy then
    never ends)."""
    from conformance import compare as cmp

    actions = _holding_itself()
    with cmp.listings_remembered():
        for _ in range(2):
            assert list(cmp.listing(actions)) == list(_fresh_listing(actions))
        assert cmp._listings == {} and cmp._seen == {}


def test_a_listing_asked_again_of_a_list_changed_since_is_made_afresh() -> None:
    """The same list object asked again is answered from what it was (`compare._seen`) only
    while it is still equal to it: an action added, removed or changed in place is seen."""
    from conformance import compare as cmp

    actions: list[Any] = [{"player": 0, "play": "R5"}, {"player": 0, "draw": True}]
    with cmp.listings_remembered():
        assert list(cmp.listing(actions)) == list(_fresh_listing(actions))
        actions.append({"player": 0, "play": "g7"})
        assert list(cmp.listing(actions)) == list(_fresh_listing(actions))
        actions[0]["play"] = "B1"
        assert list(cmp.listing(actions)) == list(_fresh_listing(actions))
        del actions[1]
        got = cmp.listing(actions)
        assert got == _fresh_listing(actions) and list(got) == list(_fresh_listing(actions))
    assert cmp._seen == {}  # nothing kept after the run


HANDS: list[tuple[Any, Any]] = [
    ({"0": ["R5", "g2"], "1": ["W"]}, {0: ["G2", "r5"], 1: ["W"]}),
    ({"0": ["R5", "R5"]}, {"0": ["R5"]}),
    ({"0": ["R5"]}, {"1": ["R5"]}),
    ({"0": ["R5"]}, {"0": "R5"}),
    ([["R5"], ["W4"]], {"0": ["R5"], "1": ["w4"]}),
    ({"0": ["R5"]}, None),
    ({"0": None}, {"0": None}),
    # equal lists of a seat (unsorted, any case) beside another seat's that differ
    ({"0": ["r5", "G2"], "1": ["W"]}, {0: ["r5", "G2"], 1: ["W4"]}),
    ({"0": ["R5"], "1": ["B1"]}, {0: ["R6"], 1: ["B1"]}),  # as long, another card
    ({"0": [1, "R5"]}, {0: [True, "R5"]}),
]


def test_hands_compared_without_sorting_find_what_their_normal_forms_do() -> None:
    from collections import Counter

    from conformance import compare as cmp

    for exp, obs in HANDS:
        want = cmp.normalize("hands", exp)
        got = cmp.normalize("hands", obs)
        slow = [f"hands.{seat}" for seat, hand in want.items()
                if not isinstance(g := (got.get(seat, cmp.MISSING) if isinstance(got, dict)
                                        else cmp.MISSING), list)
                or Counter(g) != Counter(hand)]
        assert [m.key for m in cmp.compare({"hands": exp}, {"hands": obs})
                if exp != obs] == (slow if exp != obs else [])


class _Forgetful(dict):  # type: ignore[type-arg]
    def __setitem__(self, key: Any, value: Any) -> None:
        pass  # nothing remembered: every shuffle's replays run


def test_remembered_shuffle_replays_answer_what_they_answer_afresh() -> None:
    from conformance.adapters import resolve

    def report(remember: bool) -> Any:
        d = Differ(resolve("reference-oracle").factory, resolve("rlcard", isolate=False).factory,
                   shrink_seconds=0, confirm_runs=0)
        if not remember:
            d._fixed_seen = _Forgetful()
        r = d.run(examples=30, seed=12345)
        return (dataclasses.replace(r.stats, started=0), [(g.to_json(), n) for g, n in r.groups],
                r.coverage)

    pytest.importorskip("rlcard")
    assert report(True) == report(False)
