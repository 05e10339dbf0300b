"""Every in-tree adapter declares exactly the observations it answers (issue 22 item 6).

An observation an adapter can answer but does not declare hides deviations: every scenario
observing it is `unsupported` (uno-game's `draw_size`, from the pile the adapter deals from, once
made 114 scenarios unsupported). For each adapter, after a set-up every key of the protocol's
vocabulary is asked for alone: a declared key must be answered, an undeclared one refused
`unsupported`. The third-party ones run where their implementation is installed (skipped, never
passed, elsewhere).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.adapters.reference import OBSERVATIONS as VOCABULARY
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.stdio import StdioAdapter
from conformance.protocol import Unsupported, check_hello

ROOT = Path(__file__).resolve().parent.parent
SETUP = {"ruleset": "classic-official", "seed": 0, "setup": {
    "players": 2, "dealer": 1, "start": "turn", "current": 0, "direction": "clockwise",
    "hands": {"0": ["R5", "G7", "B2"], "1": ["Y3", "R1", "G9"]}, "discard": ["B5", "R9"],
    "active_color": "red", "draw": ["Y1", "Y2", "Y4", "B8"]}}


def _python(module: str, cls: str, needs: str) -> Callable[[], Any]:
    pytest.importorskip(needs)
    mod = __import__(f"conformance.adapters.{module}", fromlist=[cls])
    return getattr(mod, cls)  # type: ignore[no-any-return]


def _stdio(command: list[str], needs: Path) -> Callable[[], Any]:
    if not needs.exists():
        pytest.skip(f"{needs} is not installed here (.ci/setup-implementations)")
    return lambda: StdioAdapter(command, cwd=str(ROOT))


def _venv(name: str, adapter: str) -> Callable[[], Any]:
    exe = ROOT / f".venv-{name}" / "bin" / "uno-fsm"
    return _stdio([str(exe), "conformance", "serve", "--adapter", adapter], exe)


def _node() -> Callable[[], Any]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = ROOT / "conformance" / "adapters" / "uno-engine" / "adapter.mjs"
    return _stdio([node, str(script)], ROOT / "conformance" / "adapters" / "uno-engine" /
                  "node_modules" / "uno-engine")


ADAPTERS: dict[str, Callable[[], Callable[[], Any]]] = {
    "reference": lambda: ReferenceAdapter,
    "rlcard": lambda: _python("rlcard", "RLCardAdapter", "rlcard"),
    "uno-game": lambda: _stdio([sys.executable, "-m", "uno_cli", "conformance", "serve",
                                "--adapter", "module:conformance.adapters.unogame:UnoGameAdapter"],
                               ROOT),
    "rlcard-uno": lambda: _venv("rlcard-uno", "rlcard-uno"),
    "skilluno": lambda: _venv("skilluno", "skilluno"),
    "uno-engine": _node,
}


@pytest.mark.parametrize("name", list(ADAPTERS))
def test_an_adapter_answers_exactly_the_observations_it_declares(name: str) -> None:
    if name == "uno-game":
        pytest.importorskip("uno")
    adapter = ADAPTERS[name]()()
    try:
        declared = set(check_hello(adapter.hello())["observations"])
        assert adapter.setup(SETUP) is None
        answered = set()
        for key in VOCABULARY:
            try:
                value = adapter.observe([key])
            except Unsupported:
                continue
            assert key in value, (key, value)
            answered.add(key)
        assert sorted(answered - declared) == [], "answered but not declared"
        assert sorted(declared & set(VOCABULARY) - answered) == [], "declared, not answered"
    finally:
        adapter.close()


def test_uno_game_declares_the_draw_pile_it_deals_from() -> None:
    pytest.importorskip("uno")
    from conformance.adapters.unogame import UnoGameAdapter

    a = UnoGameAdapter()
    try:
        assert "draw_size" in a.hello()["observations"]
        a.setup(SETUP)
        assert a.observe(["draw_size"]) == {"draw_size": 4}
        assert a.act({"player": 0, "play": "R5"}) is None
        assert a.act({"player": 1, "play": "R1"}) is None
        # seat 0 holds G7 and B2 on R1: it must draw; the drawn Y1 cannot be played
        assert a.act({"player": 0, "draw": True}) is None
        assert a.observe(["draw_size", "hand_sizes"]) == {"draw_size": 3,
                                                          "hand_sizes": {0: 3, 1: 2}}
    finally:
        a.close()


def test_rlcard_declares_the_actions_its_step_takes() -> None:
    """RLCard's `get_legal_actions()` is what its `step` takes (round.py): the adapter lists
    it as actions, one per colour for a Wild, `draw` when nothing can be played, and the Wild
    Draw Four victim's `challenge: false` that `act` accepts; a listing the fuzzer compares."""
    pytest.importorskip("rlcard")
    from conformance.adapters.rlcard import RLCardAdapter

    a = RLCardAdapter()
    setup = {**SETUP, "setup": {**SETUP["setup"],
                                "hands": {"0": ["W4", "G7"], "1": ["Y3", "R1", "G9"]}}}
    assert "legal_actions" in a.hello()["observations"]
    assert a.setup(setup) is None
    colours = ["red", "green", "blue", "yellow"]
    got = a.observe(["legal_actions"])["legal_actions"]
    assert sorted(got, key=str) == sorted(
        ({"player": 0, "play": "W4", "color": c} for c in colours), key=str)
    assert a.act({"player": 0, "play": "W4", "color": "red"}) is None
    # two players: the victim (seat 1) is skipped; seat 0's G7 does not match the red W4
    assert sorted(a.observe(["legal_actions"])["legal_actions"], key=str) == sorted(
        [{"player": 0, "draw": True}, {"player": 1, "challenge": False}], key=str)
    assert a.act({"player": 1, "challenge": False}) is None
    assert a.observe(["legal_actions"]) == {"legal_actions": [{"player": 0, "draw": True}]}
