"""The model checker's states (uno_fsm/modelcheck/encoding.py): compact canonical keys that
decode back, the restore of a state in place, 64-bit fingerprints and the collision
probability a run prints, the resolved shuffles (docs/model-checking.md, "States")."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import fields, replace

import pytest

from tests.test_modelcheck_symmetry import BUGS
from uno_cli.main import main
from uno_fsm import modelcheck as mc
from uno_fsm.cards import parse
from uno_fsm.modelcheck import executors
from uno_fsm.modelcheck.encoding import (
    RESTORED,
    ModelRNG,
    collision_probability,
    fingerprint,
    restore,
)
from uno_fsm.modelcheck.expand import Expander
from uno_fsm.state import State


def states_of(config: mc.Config) -> list[bytes]:
    s = mc.Search(config)
    s.run(executors.InProcess(s.ex), executors.chunk_size_for)
    return list(s.visited)


def test_restore_copies_every_field_of_a_state() -> None:
    assert sorted(RESTORED) == sorted(f.name for f in fields(State))
    ex = Expander(BUGS)
    key = states_of(replace(BUGS, depth=2))[-1]
    src, _ = ex.codec.decode(key, random.Random(1))
    src.shown = {0: (1, ["R1"])}
    dst = State(ruleset="x", players=2, hands=[[], []], draw=[], discard=[], active_color=None)
    restore(dst, src)
    assert dst.same(src)
    dst.hands[0].append(parse("W"))  # the lists are copies
    dst.shown[0][1].append("Y1")
    assert parse("W") not in src.hands[0] and src.shown[0][1] == ["R1"]


def test_every_key_is_compact_and_decodes_to_a_state_with_that_key() -> None:
    ex = Expander(BUGS)
    keys = states_of(BUGS)
    assert len(keys) > 1000 and all(isinstance(k, bytes) for k in keys)
    assert max(map(len, keys)) <= 80
    for k in keys:
        st, record = ex.codec.decode(k, random.Random())
        assert ex.codec.canonical(st, record)[0] == k


def test_a_state_and_its_colour_image_have_one_key() -> None:
    ex = Expander(BUGS)
    codec = ex.codec
    swap = codec.frames[1]  # red <-> yellow
    assert dict(swap.colours) == {"R": "Y", "Y": "R"}
    swapped = 0
    for k in states_of(replace(BUGS, depth=3))[:300]:
        st, record = codec.decode(k, random.Random())
        image, image_record = codec.decode(codec.encode(st, record, swap, 0), random.Random())
        assert image.active_color == {"R": "Y", "Y": "R"}.get(st.active_color, st.active_color)
        assert sorted(c.text for c in image.hands[0]) == sorted(
            c.text.translate(str.maketrans("RY", "YR")) for c in st.hands[0])
        assert codec.canonical(image, image_record)[0] == k
        swapped += codec.encode(image, image_record, codec.identity, 0) != k
    assert swapped > 200  # most images are other states of the orbit


def test_fingerprints_are_64_bits_of_blake2b_and_the_same_everywhere() -> None:
    key = b"\x00\x01\x02uno"
    want = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little")
    assert fingerprint(key) == want < 2 ** 64
    assert collision_probability(0) == collision_probability(1) == 0.0
    assert collision_probability(10_925) == pytest.approx(10_925 * 10_924 / 2 / 2 ** 64)
    assert collision_probability(2 ** 40) == 1.0  # capped


def test_a_run_with_fingerprints_finds_the_same_states_and_prints_the_risk(
        capsys: pytest.CaptureFixture[str]) -> None:
    keys = mc.explore(BUGS)
    fps = mc.explore(BUGS, fingerprints=True)
    assert (fps.states, fps.transitions, fps.complete) == (keys.states, keys.transitions, True)
    assert fps.visited_bytes < keys.visited_bytes
    args = ["check", "--deck", BUGS.deck, "--hand", "1", "--target", "1", "--unbounded"]
    assert main([*args, "--fingerprints"]) == 0
    out = capsys.readouterr().out
    p = collision_probability(keys.states)
    assert "visited set: 64-bit fingerprints, " in out and f"collision probability {p:.1e}" in out
    assert main([*args, "--fingerprints", "--format", "json"]) == 0
    visited = json.loads(capsys.readouterr().out)["visited"]
    assert visited["kind"] == "fingerprints" and visited["collision_probability"] == p
    assert visited["bytes_per_state"] == round(visited["bytes"] / keys.states, 1) > 0


def test_shuffles_resolve_by_the_cards_and_their_rank_in_the_action() -> None:
    cards = [parse(t) for t in ("R1", "Y1", "RS", "YS", "RD2", "YD2")]
    order = {c: i for i, c in enumerate(cards)}

    def shuffled(given: list, rank: int, seed: int = 0) -> list:  # type: ignore[type-arg]
        rng = ModelRNG().salted(seed)
        rng.begin(12345, order)
        for _ in range(rank):
            rng.shuffle(list(cards))
        out = list(given)
        rng.shuffle(out)
        assert not rng.fresh  # a shuffle counts as a draw (a refused action must make none)
        return out

    first = shuffled(cards, 0)
    assert sorted(first, key=order.__getitem__) == cards
    assert shuffled(cards[::-1], 0) == first  # the order they were gathered in does not count
    assert shuffled(cards, 1) != first  # a second shuffle in one action goes another way
    assert shuffled(cards, 0, seed=1) != first  # --seed
