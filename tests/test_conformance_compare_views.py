"""compare.py: the observations of `start: game` and views (docs/contracts.md)."""

from __future__ import annotations

from conformance.compare import compare, diff_states, restrict


def keys(expected: dict, observed: dict) -> list[str]:
    return [m.key for m in compare(expected, observed)]


def test_winner_list_is_a_set_of_seats() -> None:
    assert keys({"winner": [2, 0]}, {"winner": [0, 2]}) == []
    assert keys({"winner": [0, 2]}, {"winner": [0, 1]}) == ["winner"]
    assert keys({"winner": [0, 2]}, {"winner": 0}) == ["winner"]
    assert keys({"winner": 1}, {"winner": 1}) == []


def test_dealer_seat_or_any_of() -> None:
    assert keys({"dealer": 2}, {"dealer": 2}) == []
    assert keys({"dealer": 2}, {"dealer": 1}) == ["dealer"]
    assert keys({"dealer": [0, 1, 2]}, {"dealer": 1}) == []
    assert keys({"dealer": [0, 1]}, {"dealer": 2}) == ["dealer"]


def test_card_counts_are_partial_and_missing_cards_count_zero() -> None:
    obs = {"card_counts": {"R1": 2, "W4": 4}}
    assert keys({"card_counts": {"r1": 2}}, obs) == []
    assert keys({"card_counts": {"R0": 0}}, obs) == []
    assert keys({"card_counts": {"W4": 3}}, obs) == ["card_counts.W4"]
    flip = {"card_counts": {"light": {"R1": 2, "W2": 4}, "dark": {"P1": 2}}}
    assert keys({"card_counts": {"light": {"W2": 4}, "dark": {"R1": 0}}}, flip) == []
    assert keys({"card_counts": {"dark": {"P1": 1}}}, flip) == ["card_counts.dark.P1"]


def test_views_partial_per_seat_and_sub_key_hands_as_multisets() -> None:
    obs = {"views": {0: {"hand": ["R5", "B2"], "hand_sizes": {0: 2, 1: 1}, "top": "R9",
                         "backs": {1: ["O7"]}, "draw_back": "V2", "shown": {}},
                     1: {"hand": ["Y3"], "hand_sizes": {0: 2, 1: 1}, "top": "R9",
                         "backs": {0: ["PD5", "TS"]}, "draw_back": "V2",
                         "shown": {0: ["R5", "B2"]}}}}
    assert keys({"views": {0: {"hand": ["b2", "R5"], "top": "R9"}}}, obs) == []
    assert keys({"views": {1: {"backs": {0: ["TS", "PD5"]}, "shown": {0: ["B2", "R5"]}}}},
                obs) == []
    assert keys({"views": {0: {"hand": ["R5"]}}}, obs) == ["views.0.hand"]
    assert keys({"views": {0: {"backs": {1: ["O6"]}}}}, obs) == ["views.0.backs.1"]
    assert keys({"views": {0: {"draw_back": "V3"}}}, obs) == ["views.0.draw_back"]
    assert keys({"views": {0: {"hand_sizes": {1: 2}}}}, obs) == ["views.0.hand_sizes.1"]
    # `shown: {}` asserts that nothing was shown
    assert keys({"views": {0: {"shown": {}}}}, obs) == []
    assert keys({"views": {1: {"shown": {}}}}, obs) == ["views.1.shown"]
    assert keys({"views": {2: {"hand": []}}}, obs) == ["views.2"]


def test_views_state_unchanged_and_restrict() -> None:
    a = {"views": {0: {"hand": ["R5", "B2"]}}, "card_counts": {"R1": 2}}
    b = {"views": {"0": {"hand": ["B2", "R5"]}}, "card_counts": {"r1": 2}}
    assert diff_states(a, b) == []
    assert diff_states(a, {"views": {0: {"hand": ["R5"]}}, "card_counts": {"R1": 2}})
    cut = restrict({"views": {1: {"hand": []}}, "card_counts": {"R1": 2}},
                   {"views": {0: {}, 1: {"hand": []}}, "card_counts": {"R1": 2, "W": 4}})
    assert cut == {"views": {"1": {"hand": []}}, "card_counts": {"R1": 2}}


def test_a_boolean_or_a_float_is_not_the_integer_it_equals_in_python() -> None:
    """JSON `true` is not `1`, nor is `1.0` (docs/adapter-protocol.md): an answer of the wrong
    type fails its expectation wherever Python's `==` would have let it pass, and a change of
    type is a change of state."""
    assert keys({"current": 1}, {"current": True}) == ["current"]
    assert keys({"current": 1}, {"current": 1.0}) == ["current"]
    assert keys({"current": 1}, {"current": 1}) == []
    assert keys({"round_over": True}, {"round_over": 1}) == ["round_over"]
    assert keys({"round_over": False}, {"round_over": 0}) == ["round_over"]
    assert keys({"hand_sizes": {0: 1, 1: 1}}, {"hand_sizes": {"0": True, "1": True}}) == \
        ["hand_sizes.0", "hand_sizes.1"]
    assert keys({"hand_sizes": {"0": 1}}, {"hand_sizes": {"0": True}}) == ["hand_sizes.0"]
    assert keys({"scores": [0, 5]}, {"scores": [False, 5]}) == ["scores.0"]
    assert keys({"dealer": 0}, {"dealer": False}) == ["dealer"]
    assert keys({"dealer": [0, 1]}, {"dealer": True}) == ["dealer"]
    assert keys({"pending": {"player": 1, "decision": "play"}},
                {"pending": {"player": True, "decision": "play"}}) == ["pending.player"]
    assert keys({"card_counts": {"R1": 1}}, {"card_counts": {"R1": True}}) == \
        ["card_counts.R1"]
    assert keys({"views": {0: {"hand_sizes": {1: 2}}}},
                {"views": {"0": {"hand_sizes": {"1": 2.0}}}}) == ["views.0.hand_sizes.1"]
    assert keys({"events": [{"kind": "draw", "player": 1}]},
                {"events": [{"kind": "draw", "player": True}]}) == ["events[0].player"]
    assert keys({"winner": 1}, {"winner": True}) == ["winner"]
    assert keys({"hand_sizes": {0: {"min": 1}}}, {"hand_sizes": {"0": True}}) == ["hand_sizes.0"]
    assert [m.key for m in diff_states({"current": 1}, {"current": True})] == ["current"]
    assert diff_states({"current": 1, "hands": {"0": ["R1"]}},
                       {"current": 1, "hands": {0: ["r1"]}}) == []
