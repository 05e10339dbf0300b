"""Ruleset composition: base + variants, deep-merged params, and the errors a user can hit."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_spec.loader import SpecError
from uno_spec.rulesets import list_rulesets, load_ruleset

GOOD = Path(__file__).parent / "fixtures" / "spec" / "good"


def test_base_alone() -> None:
    rs = load_ruleset("base-a", GOOD)
    assert rs.id == "base-a" and rs.base == "base-a" and rs.variants == ()
    assert rs.params["hand_size"] == 7
    assert rs.params["deck"]["numbers"][0] == 1  # integer keys survive


def test_variant_deep_merges_over_base() -> None:
    rs = load_ruleset("base-a+stacking", GOOD)
    assert rs.id == "base-a+stacking" and rs.variants == ("stacking",)
    assert rs.params["stacking"] == {"enabled": True} and rs.params["draw"] == {"count": 1}
    assert rs.params["deck"]["colors"] == ("red", "blue")


def test_variants_apply_in_order() -> None:
    rs = load_ruleset("base-b+stacking+big-hand", GOOD)
    assert rs.params["hand_size"] == 12 and rs.params["stacking"]["enabled"] is True


def test_params_are_read_only() -> None:
    rs = load_ruleset("base-a", GOOD)
    with pytest.raises(TypeError):
        rs.params["hand_size"] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        rs.params["draw"]["count"] = 3  # type: ignore[index]


def test_list_rulesets() -> None:
    assert list_rulesets(root=GOOD) == ["base-a", "base-b", "big-hand", "no-stacking", "stacking"]
    assert list_rulesets("base", GOOD) == ["base-a", "base-b"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("base-z", "unknown ruleset 'base-z'"),
        ("base-a+stackin", "unknown variant 'stackin'; did you mean stacking"),
        ("base-a+big-hand", "variant 'big-hand' does not apply to 'base-a'"),
        ("base-a+stacking+no-stacking", "variants 'stacking' and 'no-stacking' conflict"),
        ("base-a+no-stacking+stacking", "variants 'no-stacking' and 'stacking' conflict"),
        ("stacking", "'stacking' is a variant"),
        ("base-a+base-b", "'base-b' is a base ruleset, not a variant"),
        ("base-a+stacking+stacking", "named twice"),
        ("base-a+", "malformed ruleset name"),
    ],
)
def test_composition_errors(name: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        load_ruleset(name, GOOD)
    assert message in str(info.value)


def test_real_base_rulesets_load() -> None:
    for base in list_rulesets("base"):
        assert load_ruleset(base).params
