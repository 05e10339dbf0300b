"""`hello` declares the player counts an implementation plays (uno-conformance/2,
docs/adapter-protocol.md "Versions"): scenarios outside the range are unsupported, not errors."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.protocol import PROTOCOL, ProtocolError, check_hello
from conformance.runner import Runner
from conformance.scenario import load_corpus


class TwoPlayers(ReferenceAdapter):
    """The reference engine declaring two players only; records the set-ups it is sent."""

    setups: list[int] = []

    def hello(self) -> dict[str, Any]:
        return {**super().hello(), "players": {"min": 2, "max": 2}}

    def setup(self, params: dict[str, Any]) -> Any:
        TwoPlayers.setups.append(int(params["setup"]["players"]))
        return super().setup(params)


def test_scenarios_outside_the_declared_range_are_unsupported_and_never_set_up() -> None:
    corpus = load_corpus(None)
    picked = [s for s in corpus.scenarios if s.ruleset == "classic-official"
              and s.match is None][:120]
    TwoPlayers.setups = []
    report = Runner(TwoPlayers).run(picked)
    by_id = {r.id: r for r in report.results}
    for sc in picked:
        res = by_id[sc.id]
        n = sc.setup["players"]
        if n != 2 and sc.expect_setup_error is None:
            assert res.status == "unsupported", (sc.id, res.message)
            assert f"{n} players (plays 2 to 2)" in res.message
        elif n == 2:
            assert res.status == "passed", (sc.id, res.message)
    assert set(TwoPlayers.setups) <= {2} | {s.setup["players"] for s in picked
                                            if s.expect_setup_error is not None}
    assert report.implementation["players"] == {"min": 2, "max": 2}


def test_a_refused_set_up_is_judged_whatever_the_range() -> None:
    refusals = [s for s in load_corpus(None).scenarios
                if s.expect_setup_error == "wrong-player-count"]
    assert refusals
    report = Runner(TwoPlayers).run(refusals)
    assert {r.status for r in report.results} == {"passed"}


@pytest.mark.parametrize("players", [None, [2, 4], {"min": 2}, {"min": 3, "max": 2},
                                     {"min": 0, "max": 4}, {"min": 2, "max": 100},
                                     {"min": True, "max": 4}, {"min": 2, "max": 4, "x": 1}])
def test_a_malformed_player_range_is_a_protocol_error(players: Any) -> None:
    with pytest.raises(ProtocolError, match="'players' must be"):
        check_hello({"protocol": PROTOCOL, "players": players})


def test_a_hello_without_players_plays_two_to_ten() -> None:
    assert check_hello({"protocol": PROTOCOL})["players"] == {"min": 2, "max": 10}
    assert check_hello({"protocol": "uno-conformance/1"})["players"] == {"min": 2, "max": 10}


def test_every_in_tree_python_adapter_declares_its_player_counts() -> None:
    from conformance.adapters import rlcard, unogame

    assert ReferenceAdapter().hello()["players"] == {"min": 2, "max": 10}
    for module, cls in ((rlcard, "RLCardAdapter"), (unogame, "UnoGameAdapter")):
        adapter = getattr(module, cls)()
        try:
            caps = adapter.hello()
        except ImportError:
            continue  # the implementation is not installed here
        assert check_hello(caps)["players"] == caps["players"]


def test_rlcard_answers_unsupported_for_a_start_it_cannot_make() -> None:
    pytest.importorskip("rlcard")
    from conformance.adapters.rlcard import RLCardAdapter
    from conformance.protocol import Unsupported

    with pytest.raises(Unsupported, match="start: game"):
        RLCardAdapter().setup({"ruleset": "classic-official", "seed": 0,
                               "setup": {"players": 3, "start": "game"}})
