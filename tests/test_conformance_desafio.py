"""The Desafio set-up field `eliminated` and observation `eliminated` in the conformance layer:
the loader's errors with file:line, the feature lint, the reference adapter honouring both, and
hostile set-ups refused in one answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.adapters.reference import ReferenceAdapter, ReferenceOracle
from conformance.lint import lint
from conformance.protocol import AdapterError
from conformance.scenario import ScenarioError, parse_text

GOOD = """\
id: demo.desafio.one
title: demo
ruleset: classic-official+desafio
cites: [classic-br:desafio:3]
rules: [DESAFIO.ELIMINATED-OUT]
features: [basic-play, scoring, desafio]
setup:
  players: 3
  dealer: 2
  current: 0
  hands: {0: [R7, R8], 1: [], 2: [Y3, Y4]}
  discard: [R5]
  draw: [B1, B2]
  scores: {1: 500}
  eliminated: [1]
steps:
  - act: {player: 0, play: R7}
  - expect: {current: 2, eliminated: [1]}
"""


def test_the_good_scenario_loads_lints_and_passes(tmp_path: Path) -> None:
    [sc] = parse_text(GOOD, "good.yaml")
    assert sc.setup["eliminated"] == [1]
    path = tmp_path / "good.yaml"
    path.write_text(GOOD)
    assert lint([path], coverage=False).errors == []
    adapter = ReferenceAdapter()
    assert adapter.setup({"ruleset": sc.ruleset, "setup": sc.setup, "seed": 0}) is None
    assert adapter.act({"player": 0, "play": "R7"}) is None
    assert adapter.observe(["current", "eliminated", "hand_sizes"]) == {
        "current": 2, "eliminated": [1], "hand_sizes": {0: 1, 1: 0, 2: 2}}
    assert adapter.act({"player": 1, "catch": 0})["code"] == "eliminated"


@pytest.mark.parametrize(("old", "new", "error"), [
    ("eliminated: [1]", "eliminated: '1'", "15: scenario demo.desafio.one: setup.eliminated: "
     "'1' is not of type 'array'"),
    ("eliminated: [1]", "eliminated: {1: true}", "15: scenario demo.desafio.one: "
     "setup.eliminated: {'1': True} is not of type 'array'"),
    ("eliminated: [1]", "eliminated: [1, 1]", "15: scenario demo.desafio.one: "
     "setup.eliminated: [1, 1] has non-unique elements"),
    ("eliminated: [1]", "eliminated: [true]", "15: scenario demo.desafio.one: "
     "setup.eliminated[0]: True is not of type 'integer'"),
    ("eliminated: [1]", "eliminated: [-1]", "15: scenario demo.desafio.one: "
     "setup.eliminated[0]: -1 is less than the minimum of 0"),
    ("eliminated: [1]", "eliminated: [1.0]", "15: scenario demo.desafio.one: "
     "setup.eliminated[0]: 1.0 is not a whole number (write seats, counts and seeds without a "
     "decimal point)"),
    ("eliminated: [1]", "eliminated: [5]", "15: scenario demo.desafio.one: "
     "setup.eliminated[0]: seat 5 does not exist with 3 players"),
    ("{current: 2, eliminated: [1]}", "{current: 2, eliminated: [3]}",
     "18: scenario demo.desafio.one: steps[1].expect.eliminated[0]: seat 3 does not exist "
     "with 3 players"),
    ("{current: 2, eliminated: [1]}", "{current: 2, eliminated: 1}",
     "18: scenario demo.desafio.one: steps[1].expect.eliminated: 1 is not of type 'array'"),
])
def test_bad_eliminated_is_named_with_file_and_line(old: str, new: str, error: str) -> None:
    text = GOOD.replace(old, new)
    assert text != GOOD
    with pytest.raises(ScenarioError) as info:
        parse_text(text, "bad.yaml")
    assert str(info.value) == f"bad.yaml:{error}"


def test_eliminated_outside_desafio_is_refused_and_needs_the_feature(tmp_path: Path) -> None:
    """The loader refuses `eliminated` outside a Desafio ruleset; conformance/features.py:
    an `eliminated` expectation needs the `desafio` feature."""
    with pytest.raises(ScenarioError) as info:
        parse_text(GOOD.replace("classic-official+desafio", "classic-official"), "plain.yaml")
    assert str(info.value) == ("plain.yaml:15: scenario demo.desafio.one: setup.eliminated: "
                               "the set-up field 'eliminated' exists only in a ruleset with "
                               "the desafio variant")
    path = tmp_path / "plain.yaml"
    path.write_text(GOOD.replace("classic-official+desafio", "classic-official")
                    .replace("  scores: {1: 500}\n  eliminated: [1]\n", "")
                    .replace("hands: {0: [R7, R8], 1: [], 2: [Y3, Y4]}",
                             "hands: {0: [R7, R8], 1: [G1], 2: [Y3, Y4]}")
                    .replace("{current: 2, eliminated: [1]}", "{current: 1, eliminated: []}")
                    .replace("features: [basic-play, scoring, desafio]", "features: [basic-play]"))
    [error] = lint([path], coverage=False).errors
    assert error == (f"{path}:6: scenario demo.desafio.one: features: uses desafio but does not "
                     "declare it (expected [basic-play, desafio])")


def _setup(**change: Any) -> dict[str, Any]:
    [sc] = parse_text(GOOD, "good.yaml")
    return {**sc.setup, **change}


@pytest.mark.parametrize(("change", "message"), [
    ({"eliminated": [0, 1, 2], "hands": {0: [], 1: [], 2: []}},
     "eliminated: 0 player(s) left of 3"),
    ({"eliminated": [1, 2], "hands": {0: ["R7"], 1: [], 2: []}, "scores": {1: 500, 2: 600}},
     "eliminated: 1 player(s) left of 3"),
    ({"eliminated": [1], "scores": {}}, "eliminated seat 1 has 0 points"),
    ({"eliminated": [1], "hands": {0: ["R7"], 1: ["G1"], 2: ["Y3"]}},
     "eliminated seat 1 holds cards"),
    ({"eliminated": ["1"]}, "eliminated: '1' is not a seat of 3 players"),
    ({"current": 1}, "current 1 is eliminated (has no turn)"),
    ({"dealer": 1}, "dealer 1 is eliminated (cannot deal)"),
])
def test_the_reference_adapter_refuses_hostile_setups_in_one_answer(
        change: dict[str, Any], message: str) -> None:
    adapter = ReferenceAdapter()
    with pytest.raises(AdapterError) as info:
        adapter.setup({"ruleset": "classic-official+desafio", "setup": _setup(**change)})
    assert info.value.code == "bad-request"
    assert message in info.value.message and "\n" not in info.value.message
    assert adapter.game is None


def test_positions_carry_the_eliminated_seats() -> None:
    """The oracle's `position` (conformance diff) writes `eliminated` into both set-ups, so a
    position of a Desafio game is replayed with the same seats out."""
    oracle = ReferenceOracle()
    oracle.setup({"ruleset": "classic-official+desafio", "setup": _setup(), "seed": 0})
    position = oracle.observe(["position"])["position"]
    assert position["turn"]["eliminated"] == [1] and position["deal"]["eliminated"] == [1]
    assert position["deal"]["hands"]["1"] == []
    again = ReferenceAdapter()
    assert again.setup({"ruleset": "classic-official+desafio", "setup": position["turn"]}) is None
    assert again.observe(["eliminated", "current"]) == {"eliminated": [1], "current": 0}
