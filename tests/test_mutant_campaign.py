"""The planted-bug catalogue (tests/fixtures/mutant_serve.py) cannot rot: every semantic mutant
names a rule of spec/, planting is undone, and a few cheap mutants are caught by the model
checker with the bundled configuration that should catch each (the whole campaign:
`python -m tests.fixtures.mutant_campaign --tool check|diff`, docs/model-checking.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.fixtures import mutant_campaign as campaign
from tests.fixtures import mutant_serve as ms
from uno_fsm import game as game_module
from uno_fsm import modelcheck as mc
from uno_fsm.invariants import rule_ids
from uno_fsm.rules import Rules
from uno_spec.rulesets import load_ruleset


def test_the_catalogue_has_46_semantic_bugs_each_naming_a_rule_of_spec() -> None:
    assert len(ms.SEMANTIC) >= 46
    assert len(ms.BY_NAME) == len(ms.CATALOGUE)
    known = rule_ids()
    assert [m.name for m in ms.SEMANTIC if m.rule not in known] == []
    for m in ms.CATALOGUE:
        assert m.description and load_ruleset(m.ruleset).id == m.ruleset


def test_planting_is_undone() -> None:
    table = {phase: dict(events) for phase, events in game_module._TABLE.items()}
    eventless = dict(game_module._EVENTLESS)
    own = dict(vars(Rules))
    for m in ms.CATALOGUE:
        with ms.planted(m.name):
            pass
    assert {phase: dict(events) for phase, events in game_module._TABLE.items()} == table
    assert dict(game_module._EVENTLESS) == eventless and dict(vars(Rules)) == own


@pytest.mark.parametrize("name", ["drawn-not-playable", "target-ignored"])
def test_a_guard_of_an_eventless_edge_is_planted_too(name: str) -> None:
    """`Game.apply` follows eventless edges from a table of their own (`_EVENTLESS`)."""
    guard = {"drawn-not-playable": "drawn_unplayable", "target-ignored": "target_reached"}[name]
    with ms.planted(name):
        planted = getattr(Rules, guard)
        assert any(planted in gs for edges in game_module._EVENTLESS.values()
                   for gs, _t, _fx in edges)


def bundled(ruleset: str, players: int, referee: bool = False) -> mc.Config:
    """The bundled configuration of `ruleset` with `players` (the first, as CI runs it)."""
    return next(c for c in mc.CI_CONFIGS
                if (c.ruleset, c.players, c.referee) == (ruleset, players, referee))


# a few mutants, each with the cheapest bundled configuration that catches it, and the rule the
# checker names (the violation's, which can be a consequence of the planted one)
CHEAP = [
    ("partners-alone", bundled("classic-official+partners", 4), "PARTNERS.SCORE"),
    ("skip-everyone-one", bundled("flip", 3), "FL.DARK.SE.EFFECT"),
    ("stack-replaces", bundled("classic-official+stacking", 2), "V.STACK.ACCUMULATE"),
    ("zero-two-players", bundled("classic-official+seven-o", 2), "V.SEVENO.TWO-PLAYERS"),
]


@pytest.mark.parametrize(("name", "config", "rule"), CHEAP, ids=[c[0] for c in CHEAP])
def test_a_cheap_mutant_is_caught_by_its_bundled_configuration(name: str, config: mc.Config,
                                                               rule: str) -> None:
    with ms.planted(name):
        result = mc.explore(config, jobs=1)
    # (without the bug the configuration has no violation: tests/test_modelcheck.py)
    assert rule in {v.rule for v in result.violations}, [v.message for v in result.violations]


def test_the_server_and_the_campaign_refuse_an_unknown_mutant() -> None:
    serve = subprocess.run([sys.executable, str(campaign.SERVE), "no-such-bug"],
                           capture_output=True, text=True, check=False)
    assert serve.returncode == 2 and "usage: mutant_serve.py NAME" in serve.stderr
    with pytest.raises(SystemExit) as stop:
        campaign.main(["--tool", "check", "--only", "no-such-bug"])
    assert stop.value.code == 2


def test_the_diff_command_serves_the_mutant_on_its_own_ruleset() -> None:
    cmd = campaign.diff_command(ms.BY_NAME["draw-five-four"])
    assert cmd[:3] == ["nice", "-n", "10"] and cmd[-2:] == ["--ruleset", "flip"]
    assert "--seed" in cmd and "--no-database" in cmd and "--examples" not in cmd
    assert campaign.diff_command(ms.BY_NAME["skip"])[-1] == "json"  # the default ruleset
