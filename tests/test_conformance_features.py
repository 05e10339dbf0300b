"""What a scenario uses decides the features it requires (conformance/features.py), and
`conformance lint` holds every scenario to exactly those."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance import specdata
from conformance.adapters.reference import reference_run
from conformance.features import NEEDS, required
from conformance.lint import lint
from conformance.scenario import parse_text

HANDS = {0: ["R7", "W4", "B2"], 1: ["Y3", "Y7"], 2: ["G2", "G5"]}


def scenario(steps: list[dict[str, Any]], ruleset: str = "classic-official",
             features: list[str] | None = None, **setup: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"players": 3, "dealer": 2, "current": 0, "hands": HANDS,
                            "discard": ["R9"], "draw": ["B1", "B3", "B4", "B5", "B6", "B7"]}
    if setup.get("start") in ("round", "game"):
        base = {"players": 3, "dealer": 2, "hands": HANDS, "discard": [],
                "draw": ["R5", "B1", "B3"]}
        if setup["start"] == "game":
            base = {"players": 3}
    base.update(setup)
    return {"id": "t.features.case", "title": "t", "ruleset": ruleset,
            "cites": ["classic-br:play:3"], "rules": [], "features": features or [],
            "setup": base, "steps": steps}


def needs(steps: list[dict[str, Any]], **kw: Any) -> list[str]:
    """The features of the scenario, with what the reference engine did with it (as `conformance
    lint` runs it)."""
    (sc,) = parse_text(yaml.safe_dump(scenario(steps, **kw)), "t.yaml")
    return required(sc, reference_run([sc])[1][sc.id])


PLAY = {"act": {"player": 0, "play": "R7"}}
CASES = [
    ("a number played", [PLAY], {}, ["basic-play"]),
    ("an observation only", [{"expect": {"current": 0}}], {}, []),
    ("start: round deals nothing", [{"expect": {"top": "R5"}}], {"start": "round"},
     ["first-card"]),
    ("a Skip turned first", [{"expect": {"current": 1}}],
     {"start": "round", "draw": ["RS", "B1"]}, ["action-cards", "first-card"]),
    ("start: game", [{"expect": {"dealer": 0}}], {"start": "game"}, ["deal", "game-start"]),
    ("a Wild Draw Four accepted", [{"act": {"player": 0, "play": "W4", "color": "blue"}},
                                   {"act": {"player": 1, "challenge": False}}], {},
     ["basic-play", "wild", "wd4"]),
    ("a challenge", [{"act": {"player": 0, "play": "W4", "color": "blue"}},
                     {"act": {"player": 1, "challenge": True}}], {},
     ["basic-play", "wild", "wd4", "wd4-challenge"]),
    ("the challenge decision observed", [{"act": {"player": 0, "play": "W4", "color": "blue"}},
                                         {"expect": {"pending": {"decision": "challenge"}}}],
     {}, ["basic-play", "wild", "wd4", "wd4-challenge"]),
    ("a refused answer to no challenge", [{"act": {"player": 0, "challenge": False},
                                           "error": "not-challengeable"}], {},
     ["wd4-challenge"]),
    ("a play refused while the challenge is owed",
     [{"act": {"player": 0, "play": "W4", "color": "blue"}},
      {"act": {"player": 2, "play": "G2"}, "error": "not-your-turn"},
      {"act": {"player": 1, "challenge": False}}], {},
     ["basic-play", "wild", "wd4", "wd4-challenge"]),
    ("a refused Wild Draw Four still needs wd4",
     [{"act": {"player": 1, "play": "W4", "color": "red"}, "error": "card-not-in-hand"}], {},
     ["basic-play", "wild", "wd4"]),
    ("a play calling UNO", [{"act": {"player": 0, "play": "R7", "uno": True}}], {},
     ["basic-play", "uno-call"]),
    ("a catch without a call", [PLAY, {"act": {"player": 1, "catch": 0},
                                       "error": "nothing-to-catch"}], {},
     ["basic-play", "uno-catch"]),
    ("draw and keep", [{"act": {"player": 0, "draw": True}}, {"act": {"player": 0, "pass": True}}],
     {}, ["basic-play", "draw-then-play"]),
    ("a draw alone", [{"act": {"player": 0, "draw": True}}], {}, ["basic-play"]),
    ("a draw from an empty pile", [{"act": {"player": 0, "draw": True}}], {"draw": []},
     ["basic-play", "reshuffle"]),
    ("a Draw Two taking the last card", [{"act": {"player": 0, "play": "RD2"}}],
     {"hands": {0: ["RD2", "B2"], 1: ["Y3"], 2: ["G2"]}, "draw": ["B1"]},
     ["basic-play", "action-cards", "reshuffle"]),
    ("a Wild Draw Four before its answer draws nothing",
     [{"act": {"player": 0, "play": "W4", "color": "blue"}}], {"draw": ["B1"]},
     ["basic-play", "wild", "wd4"]),
    ("scores observed", [PLAY, {"expect": {"scores": {0: 0}}}], {}, ["basic-play", "scoring"]),
    ("game over after one hand of classic-2022",
     [PLAY, {"expect": {"game_over": False}}], {"ruleset": "classic-2022"}, ["basic-play"]),
    ("game over in a game to 500", [PLAY, {"expect": {"game_over": False}}], {},
     ["basic-play", "scoring"]),
    ("a round-over error in a game to 500",
     [{"act": {"player": 0, "play": "R7"}, "error": "round-over"}], {},
     ["basic-play", "scoring"]),
    ("the next hand", [{"act": {"next_round": True}}], {},
     ["first-card", "deal", "scoring"]),
    ("a play in the next hand counts, its pile is unknown",
     [{"act": {"next_round": True}}, {"act": {"player": 1, "play": "YS"}},
      {"act": {"player": 2, "draw": True}}], {"draw": []},
     ["basic-play", "action-cards", "first-card", "deal", "scoring"]),
    ("two players", [PLAY], {"players": 2, "hands": {0: ["R7"], 1: ["Y3"]}, "dealer": 1},
     ["basic-play", "two-player"]),
    ("a referee", [{"act": {"referee": "hint", "player": 1}}], {}, ["referee-penalties"]),
    ("a view", [{"expect": {"views": {0: {"hand": ["R7", "W4", "B2"]}}}}], {}, ["views"]),
    ("a Wild on top of the set-up", [{"act": {"player": 0, "play": "B2"}}],
     {"discard": ["R9", "W"], "active_color": "blue"}, ["basic-play", "wild"]),
    ("a variant", [PLAY], {"ruleset": "classic-official+stacking"}, ["basic-play", "stacking"]),
]


@pytest.mark.parametrize(("steps", "setup", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_required_features(steps: list[dict[str, Any]], setup: dict[str, Any],
                           expected: list[str]) -> None:
    ruleset = setup.pop("ruleset", "classic-official")
    assert needs(steps, ruleset=ruleset, **setup) == expected


def test_flip_follows_the_side() -> None:
    hands = {0: ["RF/W", "B2/V4"], 1: ["Y3/T3"], 2: ["G2/O2"]}
    common = {"hands": hands, "discard": ["R9/T9"], "draw": ["B1/P1"]}
    got = needs([{"act": {"player": 0, "play": "RF/W"}}], ruleset="flip", **common)
    # the Flip card is an action card; FL.FLIP.DISCARD-TURNED: the pile is turned over, the
    # Flip card at the bottom, so the new top is R9/T9's dark face T9, a number (its own dark
    # face, a Wild, is not in play)
    assert got == ["basic-play", "action-cards", "flip"]
    onto = needs([{"act": {"player": 0, "play": "RF/W"}}], ruleset="flip",
                 **{**common, "discard": ["W/W", "R9/T9"]})
    # ... and a Wild face turned up is a Wild in play (FL.FLIP.NEW-TOP-WILD)
    assert onto == ["basic-play", "action-cards", "wild", "flip"]
    dark = needs([{"act": {"player": 0, "play": "B2/V4"}}], ruleset="flip", side="dark",
                 **common)
    assert dark == ["basic-play", "flip"]
    chall = needs([{"act": {"player": 0, "play": "W2/O2", "color": "blue"}},
                   {"act": {"player": 1, "challenge": True}}], ruleset="flip",
                  hands={0: ["W2/O2", "B2/V4"], 1: ["Y3/T3"], 2: ["G2/O2"]},
                  discard=["R9/T9"], draw=["B1/P1", "B3/P3"])
    # FL.LIGHT.W2.INNOCENT: a legal Wild Draw Two (no red card held) challenged: the
    # challenger draws 2 + 2 from a pile of 2, so the discards are reshuffled
    assert chall == ["basic-play", "wild", "flip-challenge", "reshuffle", "flip"]


def test_every_feature_has_one_definition() -> None:
    assert sorted(NEEDS) == sorted(specdata.features())


def _write(tmp_path: Path, features: list[str], steps: list[dict[str, Any]]) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(scenario(steps, features=features), sort_keys=False))
    return path


def test_lint_reports_a_feature_declared_but_never_used(tmp_path: Path) -> None:
    path = _write(tmp_path, ["basic-play", "deal"], [PLAY])
    res = lint([path])
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1)
                if t.startswith("features:"))
    assert res.errors == [f"{path}:{line}: scenario t.features.case: features: declares deal "
                          "but never uses it (expected [basic-play])"]


def test_lint_reports_a_feature_used_but_not_declared(tmp_path: Path) -> None:
    path = _write(tmp_path, ["basic-play"], [{"act": {"player": 0, "play": "R7", "uno": True}}])
    (error,) = lint([path]).errors
    assert error.endswith("features: uses uno-call but does not declare it "
                          "(expected [basic-play, uno-call])")


def test_lint_reports_a_dealer_list_of_every_seat(tmp_path: Path) -> None:
    path = tmp_path / "d.yaml"
    data = scenario([{"expect": {"dealer": [0, 1, 2]}}], features=["deal", "game-start"],
                    start="game")
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    (error,) = lint([path]).errors
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "dealer" in t)
    assert error.startswith(f"{path}:{line - 1}: scenario t.features.case: step 1: `dealer` "
                            "lists every seat, so it cannot fail")
    data["steps"] = [{"expect": {"dealer": [0, 1]}}]
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert lint([path]).errors == []


def test_coverage_is_counted_for_every_ruleset_variants_included() -> None:
    res = lint()
    assert set(res.coverage) >= specdata.rulesets()
    rules, missing = res.coverage["desafio"]
    assert (rules, missing) == (7, [])  # corpus/variants/desafio.yaml
    assert "CL18.DEALER-ZERO" not in res.coverage["cards-2018"][1]
    assert all(f"rule {rid} " in "\n".join(res.warnings) for rid in res.uncovered)
