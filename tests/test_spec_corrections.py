"""Issue 24 item 10: the spec corrections an independent audit found, each held by a test that
failed before its fix."""

from __future__ import annotations

from typing import Any

import pytest

from conformance import specdata
from conformance.scenario import load_corpus
from uno_fsm import Game
from uno_fsm.params import Params
from uno_fsm.rules import VARIANTS
from uno_spec.loader import load_rules, load_rulings
from uno_spec.parameters import parameters
from uno_spec.rulesets import list_rulesets, load_ruleset, ruleset_files


def test_the_start_direction_names_no_exception_a_ruleset_does_not_play() -> None:
    """CL.PLAY.DIRECTION-START said "clockwise unless the first card is a Reverse" for
    classic-2022 and classic-guide too, where a first Reverse leaves play clockwise."""
    rule = specdata.rules()["CL.PLAY.DIRECTION-START"]
    for ruleset in rule.rulesets:
        policy = load_ruleset(ruleset).params["first_card"]["reverse"]
        if policy != "dealer-starts-reversed":
            assert "unless the first card is a Reverse" not in rule.statement, ruleset
            assert ruleset in rule.statement  # it says what that ruleset does


def test_scoring_target_says_what_desafio_reads_it_as() -> None:
    """`scoring.target` was documented as the points that end the game; under Desafio it is
    the amount that eliminates a player (DESAFIO.ELIMINATE reads it)."""
    target = parameters()["scoring.target"]
    assert "DESAFIO.ELIMINATE" in target.rules
    assert "eliminates" in target.description
    assert load_ruleset("classic-official+desafio").params["scoring"]["method"] == "elimination"


def elsewhere(variant: Any) -> Params:
    """The variant's own params over a base of a game it does not apply to."""
    files = ruleset_files()
    own = files[variant.name]
    games = {files[b].params.get("game", "classic") for b in own.applies_to}
    others = [b for b in list_rulesets("base") if files[b].params.get("game", "classic")
              not in games]
    assert others, f"{variant.name} applies to every game"
    return Params.of(others[0]).override(own.params)


NAMED = [v for v in VARIANTS if v.name]
ENABLED_ELSEWHERE = [v for v in NAMED if v.enabled(elsewhere(v))]


@pytest.mark.parametrize("variant", ENABLED_ELSEWHERE, ids=lambda v: v.name)
def test_a_variant_enabled_on_a_game_it_does_not_apply_to_is_refused(variant: Any) -> None:
    """Params.of accepted `stacking.enabled` with `game: flip`, and the game then failed with
    `KeyError: 'number'` in rules/wild_draw.py: a variant's own parameters over a base of a
    game it does not apply to are refused when the game is made."""
    with pytest.raises(ValueError, match=f"the variant '{variant.name}' is played with"):
        Game.new(elsewhere(variant), players=4)


@pytest.mark.parametrize("variant", [v for v in NAMED if v not in ENABLED_ELSEWHERE],
                         ids=lambda v: v.name)
def test_a_variant_that_is_only_base_parameters_is_not_played_elsewhere(variant: Any) -> None:
    """A variant none of whose own parameters enables it on another game (play-for-points: its
    one parameter is the base's `scoring.target`) sets only parameters every base declares, so
    over another game there is nothing to refuse: the game is that base, played with them."""
    base_groups = set(load_ruleset("classic-official").params) & set(load_ruleset("flip").params)
    own = ruleset_files()[variant.name].params
    assert set(own) <= base_groups, variant.name
    params = elsewhere(variant)
    assert not variant.enabled(params)
    game = Game.new(params, players=4)  # not refused: nothing of another game in it
    assert game.params.raw["scoring"]["target"] == own["scoring"]["target"]


def test_flip_with_stacking_is_refused_before_play() -> None:
    with pytest.raises(ValueError, match="'stacking' is played with classic cards, not 'flip'"):
        Game.new(Params.of("flip").override({"stacking": {"enabled": True}}), players=3)


def test_every_same_colour_read_as_the_active_colour_has_its_ruling() -> None:
    """FL.LIGHT.REVERSE.MATCH, FL.LIGHT.SKIP.MATCH (and the other action cards') read the
    texts' "da mesma cor" as the active colour with no ruling behind it."""
    readers = [r for r in specdata.rules().values() if "(active) colour" in r.statement]
    assert {"FL.LIGHT.REVERSE.MATCH", "FL.LIGHT.SKIP.MATCH"} <= {r.id for r in readers}
    written = {r.id: r for r in load_rules()}  # the catalogue as written, with its rulings
    ruling = {r.id: r for r in load_rulings()}["RUL.FLIP.ACTION-SAME-COLOUR"]
    assert dict(ruling.decisions)["flip"] == "active-colour"
    for rule in readers:
        assert ruling.id in written[rule.id].rulings, rule.id


@pytest.mark.parametrize(("code", "ruleset", "word"), [
    ("card-does-not-match", "classic-official+stacking", "stacked"),
    ("malformed-action", "flip", "one face"),
    ("malformed-action", "classic-official+seven-o", "seat that is not at the table"),
])
def test_error_descriptions_cover_what_the_corpus_expects_them_for(code: str, ruleset: str,
                                                                   word: str) -> None:
    """`card-does-not-match` was described as a card matching "in neither colour, number nor
    symbol", yet it also answers R5 on a pending stacked Draw Two (and malformed-action a
    seat not at the table or a Flip card by one face)."""
    assert any(st.error == code for sc in load_corpus().scenarios if sc.ruleset == ruleset
               for st in sc.steps)
    assert word in specdata.error_codes()[code]
