"""Every in-tree adapter declares exactly the observations it answers (issue 22 item 6).

An observation an adapter can answer but does not declare hides deviations: every scenario
observing it is `unsupported` (uno-game's `draw_size`, from the pile the adapter deals from, once
made 114 scenarios unsupported). For each adapter, after a set-up every key of the protocol's
vocabulary is asked for alone: a declared key must be answered, an undeclared one refused
`unsupported`. The third-party ones run where their implementation is installed (skipped, never
passed, elsewhere).
"""

from __future__ import annotations

import json
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


@pytest.mark.parametrize("name", [n for n in ADAPTERS if n != "reference"])
def test_a_start_no_implementation_can_make_is_unsupported_not_a_bad_request(name: str) -> None:
    """None of the implementations judged deals with a dealer draw (`start: game`): each
    adapter answers such a set-up `unsupported`, which the differential fuzzer takes as a start
    not to fuzz. uno-game's answered `bad-request`, which `conformance diff` reported as the
    implementation failing to set it up (internal-error), in a warning on every run."""
    if name == "uno-game":
        pytest.importorskip("uno")
    adapter = ADAPTERS[name]()()
    try:
        adapter.hello()
        with pytest.raises(Unsupported, match="start: game"):
            adapter.setup({"ruleset": "classic-official", "seed": 0,
                           "setup": {"players": 2, "start": "game"}})
    finally:
        adapter.close()


def test_the_reference_lists_actions_afresh_at_each_observation() -> None:
    """The reference's listed actions are each a new object (the `act`s of its interned
    actions are remembered): one changed by its caller does not change the next listing."""
    ref = ReferenceAdapter()
    ref.setup({"ruleset": "classic-official", "seed": 3,
               "setup": {"players": 2, "hands": {"0": ["R5", "W", "G2"], "1": ["B7", "Y1"]},
                         "discard": ["R9"], "draw": ["B1", "B2", "B3"]}})
    want = ref.observe(["legal_actions"])["legal_actions"]  # made, then remembered
    assert {"player": 0, "play": "W", "color": "green"} in want
    for _ in range(2):
        listed = ref.observe(["legal_actions"])["legal_actions"]
        assert listed == want
        for a in listed:
            a["player"] = 9
            a.pop("play", None)


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
    # a last Wild Draw Four ends the hand: nothing is listed, and the victim's acceptance is
    # refused game-over as every action is
    last = {**SETUP, "setup": {**SETUP["setup"], "hands": {"0": ["W4"], "1": ["Y3", "R1"]}}}
    assert a.setup(last) is None
    assert a.act({"player": 0, "play": "W4", "color": "red"}) is None
    assert a.observe(["legal_actions", "game_over"]) == {"legal_actions": [], "game_over": True}
    refused = a.act({"player": 1, "challenge": False})
    assert refused is not None and refused["code"] == "game-over"


# --- the listed actions are exactly the accepted ones ---------------------------------------

DECK = [f"{c}{v}" for c in "RGBY" for v in [*"0123456789", "S", "R", "D2"]] + ["W", "W4"]
COLOURS = ["red", "green", "blue", "yellow"]


def _candidates(players: int, extra: Callable[[int], list[dict[str, Any]]] | None = None
                ) -> list[dict[str, Any]]:
    """Every action of the listed vocabulary a seat could try in a classic game: each card of
    the deck played (a Wild also once per colour), a draw, a pass, a challenge or not, and
    what `extra` adds for the seat."""
    out: list[dict[str, Any]] = []
    for p in range(players):
        for card in DECK:
            out.append({"player": p, "play": card})
            if card.startswith("W"):
                out += [{"player": p, "play": card, "color": c} for c in COLOURS]
        out += [{"player": p, "draw": True}, {"player": p, "pass": True},
                {"player": p, "challenge": True}, {"player": p, "challenge": False}]
        out += extra(p) if extra else []
    return out


def _key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def _listing_is_what_act_accepts(adapter: Any, setup: dict[str, Any],
                                 before: list[dict[str, Any]],
                                 candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """From the position `before` leads to after `setup`, set up afresh for each candidate:
    every listed action is accepted by `act` and every candidate not listed is refused (a
    rejection or `unsupported`). Returns the listing."""
    def position() -> list[dict[str, Any]]:
        assert adapter.setup(setup) is None
        for action in before:
            assert adapter.act(action) is None, action
        listed = adapter.observe(["legal_actions"])["legal_actions"]
        assert isinstance(listed, list)
        return listed  # type: ignore[no-any-return]

    listed = position()
    wanted = {_key(a): a for a in listed}
    assert len(wanted) == len(listed), "an action listed twice"
    accepted = set()
    for action in {**{_key(a): a for a in candidates}, **wanted}.values():
        assert position() == listed  # the same position each time
        try:
            answer = adapter.act(action)
        except Unsupported:
            continue
        if answer is None:
            accepted.add(_key(action))
    assert sorted(accepted - wanted.keys()) == [], "accepted but not listed"
    assert sorted(wanted.keys() - accepted) == [], "listed but refused"
    return listed


def _turn(hands: dict[str, list[str]], draw: list[str], top: str = "R9",
          color: str = "red", players: int = 2) -> dict[str, Any]:
    return {**SETUP, "setup": {**SETUP["setup"], "players": players, "hands": hands,
                               "discard": ["B5", top], "active_color": color, "draw": draw}}


def _plays(seat: int, *cards: str, last: bool = False) -> list[dict[str, Any]]:
    """The listing of `cards` played by `seat`, a Wild once per colour (and without one when
    it is the `last` card)."""
    out: list[dict[str, Any]] = []
    for card in cards:
        if not card.startswith("W") or last:
            out.append({"player": seat, "play": card})
        if card.startswith("W"):
            out += [{"player": seat, "play": card, "color": c} for c in COLOURS]
    return out


def _same(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> bool:
    return sorted(map(_key, got)) == sorted(map(_key, want))


def test_uno_game_lists_what_its_player_callbacks_take() -> None:
    """uno-game's `Player.can_play_card` judges the cards, `Player.play` draws only for one who
    cannot play and then asks for a card (no pass), `WildDraw4.played` asks the victim: the
    listing is exactly what `act` takes at each of those questions, nothing once it is over."""
    pytest.importorskip("uno")
    from conformance.adapters.unogame import UnoGameAdapter

    a = UnoGameAdapter()
    try:
        assert "legal_actions" in a.hello()["observations"]
        every = _candidates(2)
        mixed = _turn({"0": ["R5", "G7", "W", "W4", "B2"], "1": ["Y3", "R1"]}, ["Y1"] * 6)
        assert _same(_listing_is_what_act_accepts(a, mixed, [], every),
                     _plays(0, "R5", "W", "W4"))
        stuck = _turn({"0": ["G7", "B2"], "1": ["Y3", "R1"]}, ["R1", "Y1"])
        assert _same(_listing_is_what_act_accepts(a, stuck, [], every),
                     [{"player": 0, "draw": True}])
        # the drawn R1 is playable: uno-game asks for a card (no pass, no second draw)
        drew = [{"player": 0, "draw": True}]
        assert _same(_listing_is_what_act_accepts(a, stuck, drew, every), _plays(0, "R1"))
        wd4 = [{"player": 0, "play": "W4", "color": "green"}]
        assert _same(_listing_is_what_act_accepts(a, mixed, wd4, every),
                     [{"player": 1, "challenge": True}, {"player": 1, "challenge": False}])
        last = _turn({"0": ["W"], "1": ["Y3", "R1"]}, ["Y1"])
        assert _same(_listing_is_what_act_accepts(a, last, [], every),
                     _plays(0, "W", last=True))
        assert _listing_is_what_act_accepts(a, last, [{"player": 0, "play": "W"}], every) == []
    finally:
        a.close()


@pytest.mark.parametrize("odd", ["R11", "object"])
def test_a_hand_card_uno_game_holds_and_we_cannot_name_is_an_adapter_error(odd: str) -> None:
    """An odd card in the hand of the seat to play (a card our notation lacks, an object that
    is no card) is the adapter error `uno-game-bad-card`, not a listing that hides it nor a
    crash; what else the adapter observes is still answered."""
    pytest.importorskip("uno")
    import uno._card
    import uno._colors

    from conformance.adapters.unogame import UnoGameAdapter
    from conformance.protocol import AdapterError

    a = UnoGameAdapter()
    try:
        a.setup(_turn({"0": ["R5", "G7"], "1": ["Y3", "R1"]}, ["Y1"]))
        card = object() if odd == "object" else \
            uno._card.Card("Red 11", "11", uno._colors.RED, 11, 1, 11)
        a.seats[0].hand.insert(0, card)
        with pytest.raises(AdapterError) as err:
            a.observe(["legal_actions"])
        assert err.value.code == "uno-game-bad-card"
        assert a.observe(["hand_sizes"]) == {"hand_sizes": {0: 3, 1: 2}}
    finally:
        a.close()


def test_skilluno_lists_what_its_play_turn_takes() -> None:
    """skilluno's `Card.is_playable_on` judges the cards, `play_turn` always takes a draw and
    asks whether to play a playable drawn card; its Wild Draw Four victim's `challenge: false`
    is the adapter's no-op: the listing is exactly what `act` takes, nothing once it is over
    (after a last Wild Draw Four, its victim's acceptance is `game-over` too)."""
    a = _venv("skilluno", "skilluno")()
    try:
        assert "legal_actions" in check_hello(a.hello())["observations"]
        every = _candidates(2)
        draw = [{"player": 0, "draw": True}]
        mixed = _turn({"0": ["R5", "G7", "W", "W4", "B2"], "1": ["Y3", "R1"]}, ["Y1"] * 6)
        assert _same(_listing_is_what_act_accepts(a, mixed, [], every),
                     _plays(0, "R5", "W", "W4") + draw)
        # two players: the victim (seat 1) is skipped; on the green W4, G7 and the Wild play
        wd4 = [{"player": 0, "play": "W4", "color": "green"}]
        assert _same(_listing_is_what_act_accepts(a, mixed, wd4, every),
                     [{"player": 1, "challenge": False}, *_plays(0, "G7", "W"), *draw])
        stuck = _turn({"0": ["G7", "B2"], "1": ["Y3", "R1"]}, ["R1", "Y1"])
        assert _same(_listing_is_what_act_accepts(a, stuck, draw, every),
                     [{"player": 0, "pass": True}, *_plays(0, "R1")])
        last = _turn({"0": ["W4"], "1": ["Y3", "R1"]}, ["Y1"] * 4)
        assert _same(_listing_is_what_act_accepts(a, last, [], every),
                     _plays(0, "W4", last=True) + draw)
        assert _listing_is_what_act_accepts(a, last, [{"player": 0, "play": "W4"}], every) == []
    finally:
        a.close()


def test_skilluno_lists_no_turn_once_its_discard_pile_is_empty() -> None:
    """A draw from an empty deck with only the top discarded moves that card into the deck
    (`Deck.reshuffle_from_discard`) and into the hand: skilluno's next `play_turn` reads
    `discard_pile[-1]` and raises. The listing says so without crashing: nothing for the turn,
    and `act` answers a play there as skilluno's crash, not as the adapter's IndexError."""
    from conformance.protocol import AdapterError

    a = _venv("skilluno", "skilluno")()
    try:
        a.setup({**SETUP, "setup": {**SETUP["setup"], "discard": ["R9"], "draw": [],
                                    "hands": {"0": ["G7", "B2"], "1": ["Y3", "R1"]}}})
        assert a.act({"player": 0, "draw": True}) is None  # draws the R9 itself: playable
        assert a.observe(["discard_size", "legal_actions"]) == {
            "discard_size": 0,
            "legal_actions": [{"player": 0, "pass": True}, {"player": 0, "play": "R9"}]}
        assert a.act({"player": 0, "pass": True}) is None
        assert a.observe(["current", "legal_actions"]) == {"current": 1, "legal_actions": []}
        with pytest.raises(AdapterError, match="skilluno-crashed"):
            a.act({"player": 1, "play": "R1"})
    finally:
        a.close()


def _calls(players: int) -> Callable[[int], list[dict[str, Any]]]:
    """A seat's UNO call and its catch of every seat (uno-engine's `Game.uno` takes them all)."""
    return lambda p: [{"player": p, "uno": True},
                      *({"player": p, "catch": t} for t in range(players))]


def test_uno_engine_lists_what_its_game_takes() -> None:
    """uno-engine has no list of legal moves: the adapter lists what `act` takes, judged by the
    engine (`Card.matches` for any card of the hand, after a draw too; `Game.draw` always;
    `Game.pass` after a draw; `Game.uno` from anyone), with the Wild Draw Four victim's no-op
    acceptance. After the engine's `end` event nothing is listed, though the engine still
    takes a draw (decision end-event): the one position not compared with `act`."""
    a = _node()()
    try:
        assert "legal_actions" in check_hello(a.hello())["observations"]
        every = _candidates(2, _calls(2))
        calls = [x for p in range(2) for x in _calls(2)(p)]
        draw = [{"player": 0, "draw": True}]
        mixed = _turn({"0": ["R5", "G7", "W", "W4", "B2"], "1": ["Y3", "R1"]}, ["Y1"] * 6)
        assert _same(_listing_is_what_act_accepts(a, mixed, [], every),
                     _plays(0, "R5", "W", "W4") + draw + calls)
        # the drawn R1 matches: the turn waits, and any matching card may still be played
        holds = _turn({"0": ["R5", "G7"], "1": ["Y3", "R1"]}, ["R1", "Y1"])
        assert _same(_listing_is_what_act_accepts(a, holds, draw, every),
                     _plays(0, "R1", "R5") + draw + [{"player": 0, "pass": True}] + calls)
        # two players: the victim (seat 1) is skipped; on the green W4, G7 and the Wild play
        wd4 = [{"player": 0, "play": "W4", "color": "green"}]
        assert _same(_listing_is_what_act_accepts(a, mixed, wd4, every),
                     [{"player": 1, "challenge": False}, *_plays(0, "G7", "W"), *draw, *calls])
        last = _turn({"0": ["W"], "1": ["Y3", "R1"]}, ["Y1"])
        assert _same(_listing_is_what_act_accepts(a, last, [], every),
                     _plays(0, "W", last=True) + draw + calls)
        a.setup(last)
        assert a.act({"player": 0, "play": "W"}) is None
        assert a.observe(["game_over", "legal_actions"]) == {"game_over": True,
                                                             "legal_actions": []}
        assert a.act({"player": 0, "draw": True}) is None  # the engine plays on (end-event)
    finally:
        a.close()


def test_a_hand_entry_uno_engine_holds_and_we_cannot_name_is_an_adapter_error() -> None:
    """`Deck.draw` can hand out `undefined` (from an empty pile, which no set-up gives it): a
    hand holding it is the adapter error `uno-engine-bad-card`, not a listing that hides it nor
    an `internal-error`; the adapter's module, imported, is driven directly for that."""
    import subprocess

    _node()  # skips where node or uno-engine is missing
    script = ROOT / "conformance" / "adapters" / "uno-engine" / "adapter.mjs"
    program = (f"import {{ UnoEngineAdapter }} from {json.dumps(script.as_uri())};\n"
               "const a = new UnoEngineAdapter();\n"
               f"a.setup({json.dumps(_turn({'0': ['R5', 'G7'], '1': ['Y3']}, ['Y1']))});\n"
               "a.player(0).hand.push(undefined);\n"
               "let code = null;\n"
               "try { a.observe(['legal_actions']); } catch (exc) { code = exc.code; }\n"
               "console.log(JSON.stringify({ code, sizes: a.observe(['hand_sizes']) }));\n")
    out = subprocess.run([str(shutil.which("node")), "--input-type=module", "-e", program],
                         capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == {"code": "uno-engine-bad-card",
                                      "sizes": {"hand_sizes": {"0": 3, "1": 1}}}


def test_skilluno_adapter_leaves_no_mods_folder_behind(tmp_path: Path) -> None:
    """The empty mods folder the adapter points skilluno's constructor at (so that no mod is
    loaded) is gone once the game is made: `conformance serve` leaves with `os._exit`, so a
    folder kept for the adapter's life stayed behind, one per served run, in the temporary
    directory. Driven in skilluno's own environment, with the temporary directory a fresh one."""
    out = _in_skilluno("import os\n"
                       "from conformance.adapters.skilluno import SkillUnoAdapter\n"
                       "a = SkillUnoAdapter()\n"
                       f"a.setup({_turn({'0': ['R5', 'G7'], '1': ['Y3']}, ['Y1'])!r})\n"
                       "print(a.observe(['hand_sizes']))\n"
                       "a.close()\n"
                       "os._exit(0)\n", tmp=tmp_path)
    assert out.strip() == "{'hand_sizes': {0: 2, 1: 1}}"
    assert list(tmp_path.iterdir()) == []


def test_a_hand_card_skilluno_holds_and_we_cannot_name_is_an_adapter_error() -> None:
    """A card of skilluno's that our notation lacks (a black number card), in the hand to play:
    the adapter error `skilluno-bad-card`, not a listing that hides it nor a crash; the adapter
    is driven in skilluno's own environment for that (it cannot be reached over stdio)."""
    program = ("import json\n"
               "from conformance.adapters.skilluno import SkillUnoAdapter, _core\n"
               "from conformance.protocol import AdapterError\n"
               "a = SkillUnoAdapter()\n"
               f"a.setup({_turn({'0': ['R5', 'G7'], '1': ['Y3']}, ['Y1'])!r})\n"
               "a.game.players[0].hand.append(_core().Card('黑', '数字', 5))\n"
               "try:\n"
               "    a.observe(['legal_actions'])\n"
               "    code = None\n"
               "except AdapterError as exc:\n"
               "    code = exc.code\n"
               "print(json.dumps({'code': code, **a.observe(['hand_sizes'])}))\n")
    assert json.loads(_in_skilluno(program)) == {"code": "skilluno-bad-card",
                                                 "hand_sizes": {"0": 3, "1": 1}}


def test_skillunos_first_card_loop_is_stopped_by_its_count_of_calls() -> None:
    """skilluno turns first cards until a number card: with a pile that holds none it loops
    forever, and only the runner's timeout found it (10 s a set-up, and a new worker: 50 of the
    68 s of a 60-example `conformance diff`). Its calls are counted now: the set-up answers
    `skilluno-hung` at once, the adapter is usable again, and a pile with a number card under
    an action card still starts (skilluno puts the Draw Two back)."""
    program = ("import json, time\n"
               "from conformance.adapters.skilluno import SkillUnoAdapter\n"
               "from conformance.protocol import AdapterError\n"
               "a = SkillUnoAdapter()\n"
               "out = []\n"
               "for draw in (['RS'], ['RD2', 'GD2', 'RR'], ['RD2', 'R5']):\n"
               "    setup = {'players': 2, 'dealer': 1, 'start': 'round',\n"
               "             'hands': {'0': ['G1'], '1': ['Y7']}, 'draw': draw}\n"
               "    started = time.monotonic()\n"
               "    try:\n"
               "        a.setup({'ruleset': 'classic-official', 'seed': 988, 'setup': setup})\n"
               "        got = a.observe(['top'])\n"
               "    except AdapterError as exc:\n"
               "        got = str(exc)\n"
               "    out.append([got, time.monotonic() - started < 5])\n"
               "print(json.dumps(out))\n")
    hung = ("skilluno-hung: skilluno's UNOGame.setup made 200000 calls without ending: it loops "
            "(it turns cards until a number card, and the pile holds none)")
    assert json.loads(_in_skilluno(program)) == [[hung, True], [hung, True],
                                                 [{"top": "R5"}, True]]


def _in_skilluno(program: str, tmp: Path | None = None) -> str:
    """The standard output of `program` run by skilluno's own environment's Python (skipped
    where it is not installed), with `tmp` as its temporary directory."""
    import os
    import subprocess

    python = ROOT / ".venv-skilluno" / "bin" / "python"
    if not python.exists():
        pytest.skip(f"{python} is not installed here (.ci/setup-implementations)")
    env = {**os.environ, "TMPDIR": str(tmp)} if tmp is not None else None
    return subprocess.run([str(python), "-c", program], capture_output=True, text=True,
                          timeout=60, check=True, cwd=str(ROOT), env=env).stdout
