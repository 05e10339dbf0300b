"""Issue 24 item 2: looser expectations where the rules leave a choice: numeric ranges,
`one_of`, card predicates (kind, colour, face, side), compared as docs/scenario-format.md
"Looser expectations" says, and checked by the loader like the values they stand for."""

from __future__ import annotations

import pytest

from conformance.compare import card_holds, compare
from conformance.scenario import ScenarioError, parse_text


@pytest.mark.parametrize(("expect", "observed", "ok"), [
    ({"draw_size": {"min": 3, "max": 6}}, {"draw_size": 3}, True),
    ({"draw_size": {"min": 3, "max": 6}}, {"draw_size": 6}, True),
    ({"draw_size": {"min": 3, "max": 6}}, {"draw_size": 7}, False),
    ({"draw_size": {"min": 3}}, {"draw_size": 2}, False),
    ({"draw_size": {"max": 3}}, {"draw_size": 0}, True),
    ({"draw_size": {"min": 0}}, {"draw_size": True}, False),  # a boolean is not a count
    ({"draw_size": {"min": 0}}, {"draw_size": "3"}, False),
    ({"hand_sizes": {1: {"min": 5, "max": 8}}}, {"hand_sizes": {"1": 8}}, True),
    ({"hand_sizes": {1: {"min": 5, "max": 8}}}, {"hand_sizes": [2, 9]}, False),
    ({"scores": {0: {"one_of": [0, 50]}}}, {"scores": {"0": 50}}, True),
    ({"top": {"one_of": ["R1", "G6"]}}, {"top": "g6"}, True),
    ({"top": {"one_of": ["R1", "G6"]}}, {"top": "G7"}, False),
    ({"top": {"kind": "number"}}, {"top": "R5"}, True),
    ({"top": {"kind": "number"}}, {"top": "RS"}, False),
    ({"top": {"kind": "number"}}, {"top": "W4"}, False),
    ({"top": {"kind": "wild"}}, {"top": "W4"}, True),
    ({"top": {"kind": "action", "color": "red"}}, {"top": "RD2"}, True),
    ({"top": {"kind": "action", "color": "red"}}, {"top": "YD2"}, False),
    ({"top": {"face": "D2"}}, {"top": "BD2"}, True),
    ({"top": {"color": "red"}}, {"top": "W"}, False),  # a Wild has no colour
    ({"top": {"color": "purple", "side": "dark"}}, {"top": "R5/V3"}, True),
    ({"top": {"color": "purple"}}, {"top": "R5/V3"}, False),  # the light face is red
    ({"top": {"kind": "number"}}, {"top": None}, False),
    ({"active_color": {"one_of": ["red", "blue"]}}, {"active_color": "Blue"}, True),
    ({"current": {"one_of": [1, 2]}}, {"current": 0}, False),
])
def test_looser_expectations(expect: dict[str, object], observed: dict[str, object],
                             ok: bool) -> None:
    assert (compare(expect, observed) == []) is ok


def test_a_failure_shows_the_expectation_as_written() -> None:
    [m] = compare({"hand_sizes": {1: {"min": 3, "max": 6}}}, {"hand_sizes": {"1": 7}})
    assert m.describe() == "hand_sizes.1: expected {'min': 3, 'max': 6}, observed 7"


def test_card_predicates_read_the_faces() -> None:
    assert card_holds({"face": "SE", "side": "dark"}, "G9/TSE")
    assert card_holds({"kind": "action", "side": "dark"}, "G9/TSE")
    assert card_holds({"kind": "number"}, "G9/TSE")
    assert not card_holds({"face": "5"}, "")


SCENARIO = """\
id: mine.looser
title: t
ruleset: classic-official
cites: [classic-br:play:1]
rules: []
features: [basic-play]
setup:
  players: 3
  dealer: 2
  current: 0
  hands: {0: [R7], 1: [Y3], 2: [B1]}
  discard: [R5]
  draw: [B2]
steps:
  - expect: EXPECT
"""


@pytest.mark.parametrize(("expect", "message"), [
    ("{top: {one_of: [R1, X9]}}", "steps[0].expect.top"),
    ("{top: {one_of: [R1/PD5]}}", "R1/PD5 is a double-faced UNO Flip card"),
    ("{current: {one_of: [1, 5]}}", "seat 5 does not exist with 3 players"),
    ("{top: {kind: numbr}}", "steps[0].expect.top"),
    ("{draw_size: {min: 1, most: 3}}", "steps[0].expect.draw_size"),
    ("{draw_size: {one_of: []}}", "steps[0].expect.draw_size"),
    ("{events: [{kind: caught, player: 7}]}", "seat 7 does not exist with 3 players"),
    ("{events: [{player: 1}]}", "steps[0].expect.events[0]"),
    ("{events: []}", "steps[0].expect.events"),
])
def test_the_loader_checks_looser_expectations(expect: str, message: str) -> None:
    with pytest.raises(ScenarioError) as exc:
        parse_text(SCENARIO.replace("EXPECT", expect), "s.yaml")
    assert exc.value.line == 15
    assert message in exc.value.message, exc.value.message


def test_well_formed_looser_expectations_load() -> None:
    text = SCENARIO.replace("EXPECT", "{top: {kind: number, color: red}, draw_size: {max: 1}, "
                            "current: {one_of: [0, 1]}, hand_sizes: {0: {min: 1}}}")
    assert parse_text(text, "s.yaml")[0].steps[0].expect is not None
