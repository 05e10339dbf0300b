"""What `conformance diff` remembers during a run answers as a fresh computation does, and a
changed input is not answered from the memo (conformance.diff)."""

from __future__ import annotations

from typing import Any

from conformance import compare as cmp
from conformance.adapters.reference import ReferenceAdapter, ReferenceOracle
from conformance.diff import Differ


class NoClassicChallenge(ReferenceAdapter):
    """The reference declaring no Wild Draw Four challenge (Flip's challenge kept)."""

    def hello(self) -> dict[str, Any]:
        caps = super().hello()
        caps["features"] = [f for f in caps["features"] if f != "wd4-challenge"]
        return caps


CHALLENGE = [{"player": 1, "challenge": True}, {"player": 1, "challenge": False}]
PLAYS = [{"player": 0, "play": "R5"}, {"player": 0, "draw": True}]


def test_the_listed_actions_compared_are_those_a_fresh_check_allows() -> None:
    differ = Differ(ReferenceOracle, NoClassicChallenge)
    try:
        with cmp.listings_remembered():
            for _ in range(2):  # checked, then remembered
                for listed in (CHALLENGE, PLAYS, [dict(a) for a in CHALLENGE]):
                    for ruleset in ("classic-official", "flip"):
                        fresh = all(differ.allowed(a, ruleset)
                                    for a in cmp._listing(listed).values())
                        got = differ.expected({k: None for k in differ.compared}
                                              | {"legal_actions": listed}, ruleset)
                        assert ("legal_actions" in got) is fresh
    finally:
        differ.close()


def test_the_same_listing_in_another_ruleset_is_checked_again() -> None:
    """A challenge is the classic `wd4-challenge`, which the implementation lacks, and Flip's
    `flip-challenge`, which it has: the same listing is compared in Flip only."""
    differ = Differ(ReferenceOracle, NoClassicChallenge)
    obs = {k: None for k in differ.compared} | {"legal_actions": CHALLENGE}
    try:
        with cmp.listings_remembered():
            assert "legal_actions" not in differ.expected(obs, "classic-official")
            assert "legal_actions" in differ.expected(obs, "flip")
            assert "legal_actions" not in differ.expected(obs, "classic-official")
    finally:
        differ.close()


def test_each_kind_of_action_belongs_to_its_features() -> None:
    """`action_features`, whose sets are made once: each action's own, by ruleset (a swap's
    are the variants' of the ruleset)."""
    from conformance.divergence import action_features

    classic, flip = "classic-official", "flip"
    table = [
        ({"next_round": True}, classic, {"scoring"}),
        ({"player": 0, "referee": "hint"}, classic, {"referee-penalties"}),
        ({"player": 0, "play": "R5"}, classic, {"basic-play"}),
        ({"player": 0, "play": "R5", "uno": True}, classic, {"basic-play", "uno-call"}),
        ({"player": 0, "draw": True}, classic, {"basic-play"}),
        ({"player": 0, "pass": True}, classic, {"draw-then-play"}),
        ({"player": 1, "challenge": False}, classic, {"wd4"}),
        ({"player": 1, "challenge": False}, flip, {"flip"}),
        ({"player": 1, "challenge": True}, classic, {"wd4-challenge"}),
        ({"player": 1, "challenge": True}, "flip+flip-alt-scoring", {"flip-challenge"}),
        ({"player": 1, "catch": 0}, classic, {"uno-catch"}),
        ({"player": 0, "swap": 1}, "classic-official+seven-o", {"seven-o"}),
        ({"player": 0, "swap": 1}, classic, set()),
        ({"player": 0, "color": "red"}, classic, {"first-card"}),
        ({"player": 0, "uno": True}, classic, {"uno-call"}),
    ]
    for act, ruleset, want in table:
        assert action_features(act, ruleset) == want, (act, ruleset)
