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
from uno_spec import loader, notation
from uno_spec.paths import spec_root

ROOT = Path(__file__).resolve().parent.parent
CARD_NOTATION = notation.card_notation()  # the variants' cards included

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


def test_the_schema_accepts_every_card_of_the_notation() -> None:
    """Every kind of the notation, a variant's declared card included (`cards:` of its ruleset
    file), is a card of the scenario schema and of the engine, and is named in the words."""
    schema = json.loads((spec_root() / "schema" / "scenario.schema.json").read_text())
    import re

    pattern = re.compile(schema["$defs"]["card"]["pattern"])
    declared = {k.kind for k in notation.declared()}
    assert {"wild_swap_hands", "wild_shuffle_hands", "custom_wild"} <= declared
    for k in notation.kinds():
        text = k.rank if k.wild else ("R" if k.light else "P") + k.rank
        assert pattern.fullmatch(text), text
        assert parse(text).light.kind == k.kind and parse(text).light.is_wild == k.wild
        assert (f"{k.rank} {k.name}" if k.kind != "wild" else k.rank) in CARD_NOTATION


def test_a_scenario_with_an_unknown_card_names_it_in_words(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SCENARIO)
    corpus = load_corpus([path])
    assert [str(e) for e in corpus.errors] == [
        f"{loader.display_path(path)}:12: scenario msg.bad.card: setup.hands.0[1]: 'X9' is not "
        f"a card: {CARD_NOTATION}"]
    assert "^(?:" not in str(corpus.errors[0])  # no regular expression


def test_an_unknown_face_in_card_counts_is_named_too(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SCENARIO.replace("X9", "R9") + "      - expect: {card_counts: {Q1: 2}}\n")
    (error,) = load_corpus([path]).errors
    assert str(error) == (
        f"{loader.display_path(path)}:17: scenario msg.bad.card: steps[1].expect.card_counts: "
        "'Q1' is not a card face: " + CARD_NOTATION.replace(
            "; an UNO Flip card is written light/dark, e.g. R5/PD5", ""))


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


def help_of(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    from uno_cli.main import main

    assert main([*words, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


RULESET_HELPS = [("conformance", "run"), ("conformance", "diff"), ("simulate",)]


@pytest.mark.parametrize("words", RULESET_HELPS)
def test_every_ruleset_help_lists_the_rulesets_of_spec(
        words: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    monkeypatch.setenv("COLUMNS", "2000")  # no wrapping inside a ruleset id
    spec = tmp_path / "spec"
    shutil.copytree(spec_root() / "rulesets", spec / "rulesets")
    text = (spec / "rulesets" / "jump-in.yaml").read_text()
    (spec / "rulesets" / "zz-house.yaml").write_text(text.replace("id: jump-in", "id: zz-house"))
    monkeypatch.setenv("UNO_FSM_SPEC", str(spec))  # read when the help is shown
    from uno_spec.rulesets import list_rulesets

    variants = list_rulesets("variant")
    assert variants[-1] == "zz-house" and "jump-in" in variants
    assert (f"bases classic-2022, classic-guide, classic-official, flip; variants, composed as "
            f"BASE+VARIANT+...: {', '.join(variants)} (`uno-fsm rulesets` describes each)"
            in help_of(capsys, *words))


def test_rulesets_lists_what_each_applies_to_and_conflicts_with(
        capsys: pytest.CaptureFixture[str]) -> None:
    from uno_cli.main import main

    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    assert main(["conformance", "rulesets"]) == 0
    assert capsys.readouterr().out == out  # one command under two names
    from uno_spec.rulesets import list_rulesets

    blocks = {chunk[0]: "\n".join(chunk) for chunk in _blocks(out)}
    assert set(blocks) == set(list_rulesets())
    lines = blocks["desafio"].splitlines()
    assert lines[:5] == ["desafio", "    kind: variant", "    title: Desafio (elimination)",
                         "    applies to: classic-official, classic-2022",
                         "    conflicts with: partners, play-for-points"]
    # play-for-points writes its conflict with partners in its own file only: listed on both
    assert "    conflicts with: desafio, play-for-points" in blocks["partners"].splitlines()
    assert "    conflicts with: desafio, partners" in blocks["play-for-points"].splitlines()
    assert "    applies to: -" in blocks["flip"].splitlines()
    assert "    applies to: classic-2022, classic-guide" in blocks["play-for-points"].splitlines()


def _blocks(out: str) -> list[list[str]]:
    chunks: list[list[str]] = []
    for line in out.splitlines():
        if not line.startswith(" "):
            chunks.append([])
        chunks[-1].append(line)
    return chunks


def test_simulate_help_shows_every_default(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "2000")
    text = help_of(capsys, "simulate")
    for option, default in (("--games GAMES how many games", "100"),
                            ("(`uno-fsm rulesets` describes each)", "classic-official"),
                            ("--players PLAYERS players at the table", "4"),
                            ("--seed SEED random seed: the same seed plays the same games", "0"),
                            ("--max-actions MAX_ACTIONS give up a game after this many actions",
                             "100000")):
        assert f"{option} (default: {default})" in text
