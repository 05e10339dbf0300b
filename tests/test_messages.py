"""Messages a user reads (issue 17 item 4): an unknown card named with the notation explained,
paths shown relative to the installation or the working directory, --ruleset help listing
the rulesets, `uno-fsm rulesets`, defaults in --help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.scenario import load_corpus
from uno_fsm import Action, CardNotationError
from uno_fsm.cards import parse
from uno_fsm.errors import CARD_NOTATION
from uno_spec import loader
from uno_spec.paths import spec_root

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = """\
scenarios:
  - id: msg.bad.card
    title: a card that does not exist
    ruleset: classic-official
    cites: [classic-br:play:1]
    rules: [CL.PLAY.MATCH]
    features: [basic-play, two-player]
    setup:
      players: 2
      dealer: 1
      current: 0
      hands: {0: [R7, X9], 1: [Y3]}
      discard: [R5]
      draw: []
    steps:
      - act: {player: 0, play: R7}
"""


def test_the_schema_explains_cards_as_the_engine_does() -> None:
    schema = json.loads((spec_root() / "schema" / "scenario.schema.json").read_text())
    card = schema["$defs"]["card"]
    assert (card["title"], card["description"]) == ("card", CARD_NOTATION)
    face = schema["$defs"]["cardCounts"]["propertyNames"]
    assert face["title"] == "card face"
    assert face["description"] == CARD_NOTATION.replace(
        "; an UNO Flip card is written light/dark, e.g. R5/PD5", "")


def test_a_scenario_with_an_unknown_card_names_it_in_words(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SCENARIO)
    corpus = load_corpus([path])
    assert [str(e) for e in corpus.errors] == [
        f"{loader.display_path(path)}:12: scenario msg.bad.card: setup.hands.0[1]: 'X9' is not "
        f"a card: {CARD_NOTATION}"]
    assert "^(?:" not in str(corpus.errors[0])  # no regular expression


@pytest.mark.parametrize(("text", "why"), [
    ("X9", "unknown colour letter 'X'"),
    ("R13", "unknown rank '13'"),
    ("R5/R6", "the dark face must be pink, teal, orange or purple"),
])
def test_the_engine_names_a_bad_card_and_explains_the_notation(text: str, why: str) -> None:
    with pytest.raises(CardNotationError) as info:
        parse(text)
    assert str(info.value) == f"{text!r} is not a card ({why}): {CARD_NOTATION}"
    with pytest.raises(Exception) as refused:
        Action.from_dict({"kind": "play", "player": 0, "card": text})
    assert getattr(refused.value, "message", "") == f"play: {info.value}"


def test_display_path_of_an_installed_file_is_package_relative(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site-packages"
    corpus = site / "conformance" / "corpus" / "classic"
    corpus.mkdir(parents=True)
    (corpus / "x.yaml").write_text("")
    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    (elsewhere / "mine.yaml").write_text("")
    monkeypatch.chdir(elsewhere)
    monkeypatch.setattr(loader, "PACKAGES_ROOT", site)  # no spec/sources: an installation
    assert loader.display_path(corpus / "x.yaml") == "conformance/corpus/classic/x.yaml"
    assert loader.display_path(elsewhere / "mine.yaml") == "mine.yaml"
    assert loader.display_path(tmp_path / "other.yaml") == str(tmp_path / "other.yaml")
    monkeypatch.setattr(loader, "PACKAGES_ROOT", ROOT)  # a checkout: relative to the cwd only
    monkeypatch.chdir(ROOT)
    assert loader.display_path(ROOT / "conformance" / "corpus") == "conformance/corpus"
    monkeypatch.chdir(elsewhere)
    assert loader.display_path(ROOT / "conformance") == str(ROOT / "conformance")
