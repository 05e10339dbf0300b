"""The reference adapter's observations: one answer per declared key (its table of
observers), in the order asked, and an undeclared key unsupported."""

from __future__ import annotations

import pytest

from conformance.adapters.reference import ReferenceOracle
from conformance.protocol import Unsupported


def _set_up() -> ReferenceOracle:
    oracle = ReferenceOracle()
    oracle.hello()
    assert oracle.setup({"ruleset": "classic-official", "seed": 3,
                         "setup": {"players": 3, "start": "game"}}) is None
    return oracle


def test_every_declared_observation_is_answered_in_the_order_asked() -> None:
    oracle = _set_up()
    keys = list(oracle.hello()["observations"])
    got = oracle.observe(keys[::-1])
    assert list(got) == keys[::-1]
    assert got["hand_sizes"] == {s: len(h) for s, h in got["hands"].items()}
    assert got["total_cards"] == 108 and sum(got["card_counts"].values()) == 108
    assert got["current"] == got["pending"]["player"]
    assert got["turn_position"] == got["position"]["turn"]


def test_an_observation_not_declared_is_unsupported() -> None:
    with pytest.raises(Unsupported, match="'nope'"):
        _set_up().observe(["hands", "nope"])
