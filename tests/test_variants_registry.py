"""A variant is one object (issue 23): one module under uno_fsm/rules/ per variant ruleset of
spec/rulesets/, listed once in `uno_fsm.rules.VARIANTS`, which everything else iterates; and no
other source file names it.

"Source file" (the files a variant must not be named in, outside its own): every Python or
JavaScript file (`*.py`, `*.mjs`, `*.js`) of the installed packages `uno_spec/`, `uno_fsm/`,
`conformance/` and `uno_cli/` (third-party adapters included; `node_modules/` and caches
excluded), read as text, comments and docstrings included. Not source files: `spec/` (where a
variant is declared: its ruleset, rules and rulings), the corpus and other YAML data, the docs
(generated or not) and the tests. A file "names" a variant when its text, once rule IDs are
removed (`DESAFIO.WINNER`, `RUL.VARIANTS.BASES`: a rule's ID is its own, not the variant's),
holds the variant id with its words joined by `-`, `_`, a space or nothing, in any case
(`draw-until-playable`, `draw_until_playable`, `DrawUntilPlayable`). Allowed beside the
variant's own module: the registry (uno_fsm/rules/__init__.py) and, for a variant that adds a
decision or an event, the one definition of the machine (uno_fsm/phases.py) and the table
generated from it (uno_fsm/phase_table.py). The variants written before the registry still
have the mentions `LEGACY` lists (each with why); that list may only shrink.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from uno_fsm import fuzz
from uno_fsm import modelcheck as mc
from uno_fsm.params import SCORING_METHODS, TARGETED_METHODS
from uno_fsm.rules import VARIANTS
from uno_spec.rulesets import list_rulesets, load_ruleset, ruleset_files

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("uno_spec", "uno_fsm", "conformance", "uno_cli")
REGISTRY = "uno_fsm/rules/__init__.py"
MACHINE = {"uno_fsm/phases.py", "uno_fsm/phase_table.py"}
RULE_ID = re.compile(r"\b(?:RUL\.)?[A-Z][A-Z0-9]*(?:\.[A-Z0-9][A-Z0-9-]*)+\b")

_ADAPTERS = "third-party adapters declare what the implementation they bridge lacks"
_MATCH = "partner matches (spec/matches/) are a format over the partners variant"
# variant -> {file: why it still names the variant}; new variants have no entry
LEGACY: dict[str, dict[str, str]] = {
    "cards-2018": {
        "conformance/adapters/rlcard.py": _ADAPTERS,
        "conformance/adapters/uno-engine/adapter.mjs": _ADAPTERS,
    },
    "jump-in": {
        "uno_cli/bench_games.py": "the benchmark's variants configuration",
    },
    "partners": {
        "conformance/adapters/reference.py": _MATCH, "conformance/adapters/stdio.py": _MATCH,
        "conformance/features.py": _MATCH,
        "conformance/matches.py": _MATCH, "conformance/protocol.py": _MATCH,
        "conformance/scenario.py": _MATCH, "conformance/serve.py": _MATCH,
        "uno_fsm/cli.py": _MATCH,
        "uno_fsm/errors.py": "WrongPlayerCount's docstring (an even count)",
        "uno_fsm/game.py": "the even-count refusal (players.even)",
        "uno_fsm/match.py": _MATCH, "uno_fsm/params.py": "a scoring method's name",
        "uno_spec/lint.py": _MATCH, "uno_spec/matches.py": _MATCH,
    },
    "seven-o": {
        "conformance/adapters/rlcard.py": _ADAPTERS, "conformance/adapters/unogame.py": _ADAPTERS,
        "conformance/adapters/skilluno.py": _ADAPTERS,
        "uno_cli/bench_games.py": "the benchmark's variants configuration",
        "uno_fsm/bots.py": "the basic bot's swap choice",
        "uno_fsm/rules/jump_in.py": "Jump-In's model-check configuration composed with it",
    },
    "stacking": {
        "uno_cli/bench_games.py": "the benchmark's variants configuration",
        "uno_fsm/bots.py": "the basic bot's strategy facing a stack",
    },
}


def source_files() -> list[Path]:
    out: list[Path] = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*")):
            if path.suffix in (".py", ".mjs", ".js") and path.is_file() and not (
                    {"node_modules", "__pycache__"} & set(path.parts)):
                out.append(path)
    return out


def naming(variant: str) -> re.Pattern[str]:
    """The variant id with its words joined by `-`, `_`, a space or nothing, in any case."""
    words = r"[-_ ]?".join(map(re.escape, variant.split("-")))
    return re.compile(rf"(?<![a-z0-9]){words}(?![a-z0-9])", re.IGNORECASE)


def mentions(variant: str, files: list[Path]) -> set[str]:
    pattern = naming(variant)
    return {str(p.relative_to(ROOT)) for p in files
            if pattern.search(RULE_ID.sub(" ", p.read_text(encoding="utf-8")))}


def own_module(variant: str) -> str:
    """The module defining the variant's class, by name (a compiled build has no source)."""
    cls = next(v for v in VARIANTS if v.name == variant)
    return f"{cls.__module__.replace('.', '/')}.py"


def test_the_registry_is_the_variants_of_spec() -> None:
    names = [v.name for v in VARIANTS]
    assert len(names) == len(set(names))
    assert sorted(names) == list_rulesets("variant")
    modules = [own_module(n) for n in names]
    assert len(set(modules)) == len(modules)  # one module per variant
    assert all(m.startswith("uno_fsm/rules/") for m in modules)


@pytest.mark.parametrize("variant", list_rulesets("variant"))
def test_no_other_source_file_names_a_variant(variant: str) -> None:
    """Done when (issue 23): beside its own module, only the registry (and, for a variant with
    its own decisions, the machine) names a variant; the older ones' remaining mentions are
    the recorded `LEGACY` (a file that stops naming one must leave the list)."""
    found = mentions(variant, source_files()) - {own_module(variant)} - MACHINE
    assert REGISTRY in found
    assert found - {REGISTRY} == set(LEGACY.get(variant, {})), (
        f"{variant}: named outside its module by {sorted(found - {REGISTRY})}")


def test_the_naming_rule_sees_every_spelling(tmp_path: Path) -> None:
    spellings = ["draw-until-playable", "draw_until_playable", "DrawUntilPlayable",
                 "Draw until playable", "DRAW_UNTIL_PLAYABLE"]
    for i, text in enumerate([*spellings, "V.DRAWUNTIL.EXHAUSTED", "drawn until playable"]):
        (tmp_path / f"f{i}.py").write_text(f"# {text}\n")
    pattern = naming("draw-until-playable")
    seen = [i for i in range(7) if pattern.search(
        RULE_ID.sub(" ", (tmp_path / f"f{i}.py").read_text()))]
    assert seen == [0, 1, 2, 3, 4]  # a rule ID and another phrase are not the variant


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_a_variant_brings_its_fuzzing_and_model_checking(variant: str) -> None:
    cls = next(v for v in VARIANTS if v.name == variant)
    assert cls.fuzz and cls.checks
    assert {c.ruleset for c in cls.fuzz} <= set(fuzz.ALL_RULESETS)
    assert set(cls.checks) <= set(mc.CI_CONFIGS)
    for config in (*cls.fuzz, *cls.checks):
        parts = config.ruleset.split("+")
        assert variant in parts[1:]
        load_ruleset(config.ruleset)  # it composes (applies_to, conflicts)


def test_a_variant_is_enabled_by_its_own_parameters() -> None:
    """Each variant plays exactly in the rulesets that include it (read from the composed
    params, never from the name): a base alone plays none."""
    from uno_fsm.params import Params

    files = ruleset_files()
    for base in list_rulesets("base"):
        assert [v.name for v in VARIANTS if v.enabled(Params.of(base))] == []
        for vid, rf in files.items():
            if rf.kind == "variant" and base in rf.applies_to and vid != "play-for-points":
                played = [v.name for v in VARIANTS if v.enabled(Params.of(f"{base}+{vid}"))]
                assert played == [vid]


def test_the_scoring_methods_are_those_of_the_rulesets() -> None:
    used = {str((load_ruleset(name).params.get("scoring") or {}).get("method",
                                                                   "winner-scores-others"))
            for name in [*list_rulesets("base"),
                         *(f"{rf.applies_to[0]}+{vid}" for vid, rf in ruleset_files().items()
                           if rf.kind == "variant")]}
    assert used == set(SCORING_METHODS)
    assert set(TARGETED_METHODS) <= used
