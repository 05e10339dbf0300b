"""A variant is one object (issue 23): one module under uno_fsm/rules/ per variant ruleset of
spec/rulesets/, listed once in `uno_fsm.rules.VARIANTS`, which everything else iterates; and no
other source file names it (docs/engine.md, "How to add a house rule", says the same).

"Source file" (the files a variant must not be named in, outside its own): every Python or
JavaScript file (`*.py`, `*.mjs`, `*.js`) of the installed packages `uno_spec/`, `uno_fsm/`,
`conformance/` and `uno_cli/` (`node_modules/` and caches excluded), read as text, comments
and docstrings included. Not source files: `spec/` (where a variant is declared: its ruleset,
rules and rulings), the corpus and other YAML data, the docs (generated or not) and the tests.

A file "names" a variant when its text holds the variant id with its words joined by `-`, `_`,
a space or nothing, in any case (`draw-until-playable`, `draw_until_playable`,
`DrawUntilPlayable`), once the ids of other objects are taken out (`foreign_ids`):
- rule IDs (`DESAFIO.WINNER`, `RUL.VARIANTS.BASES`: a rule's ID is its own) and clause IDs
  (`classic-br:partners:2`: a clause's ID is its source's);
- the ids spec/ registers for other objects that hold the variant's words: the feature ids
  (spec/features.yaml and the variants' `feature`) and the match formats (spec/matches/) that
  are no variant's id (`partners-match`, `partners-rotation`, `partners-tournament`);
- in a variant's own module only, the composed ruleset names of its own configurations that
  compose it with other variants (`"classic-official+seven-o+jump-in"` in jump_in.py): the
  interaction it tests, which `load_ruleset` checks against the `applies_to` / `conflicts` of
  spec/ (a test below); no other mention of another variant is allowed there.

Allowed beside the variant's own module (`allowed`):
- the registry (uno_fsm/rules/__init__.py), which must name it;
- for a variant that adds a decision or an event, the one definition of the machine
  (uno_fsm/phases.py) and the table generated from it (uno_fsm/phase_table.py);
- for a variant the match formats are built on (the `ruleset` of a spec/matches/<id>.yaml
  composes it: partners), the modules of the match formats, a concept registered in spec/ of
  its own (`MATCH_MODULES`: its loader, driver, terminal and judge);
- the third-party adapters, those a knowledge file of conformance/implementations/ names
  (`adapter.file`): they declare what another implementation plays and lacks, in positive
  lists (a variant added to the reference touches none of them), and one that bridges a
  variant an implementation plays must say so; the reference adapter and the shared adapter
  code (stdio, module, isolation) are source files like any other.
Nothing else: there is no list of older mentions.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from uno_fsm import fuzz
from uno_fsm import modelcheck as mc
from uno_fsm.rules import SCORING_METHODS, VARIANTS
from uno_spec.rulesets import list_rulesets, load_ruleset, ruleset_files

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("uno_spec", "uno_fsm", "conformance", "uno_cli")
REGISTRY = "uno_fsm/rules/__init__.py"
MACHINE = {"uno_fsm/phases.py", "uno_fsm/phase_table.py"}
MATCH_MODULES = {"uno_spec/matches.py", "uno_fsm/match.py", "uno_fsm/terminal_match.py",
                 "conformance/matches.py"}
RULE_ID = re.compile(r"\b(?:RUL\.)?[A-Z][A-Z0-9]*(?:\.[A-Z0-9][A-Z0-9-]*)+\b")
CLAUSE_ID = re.compile(r"\b[a-z][a-z0-9-]*:[a-z0-9-]+:\d+\b")
COMPOSED = re.compile(r"""["']([a-z0-9-]+(?:\+[a-z0-9-]+)+)["']""")


def source_files() -> list[Path]:
    out: list[Path] = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*")):
            if path.suffix in (".py", ".mjs", ".js") and path.is_file() and not (
                    {"node_modules", "__pycache__"} & set(path.parts)):
                out.append(path)
    return out


def naming(variant: str) -> re.Pattern[str]:
    """The variant id with its words joined by `-`, `_`, a space or nothing, in any case, as a
    word or a part of a compound name (`StackingOracle`, `JUMP_IN`, `seats_of_partners`; not
    `partnership`, `PARTNERSHIP`)."""
    words = r"[-_ ]?".join(map(re.escape, variant.split("-")))
    start = r"(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))"  # a word, or CamelCase's next part
    end = r"(?![a-z0-9])(?!(?<=[A-Z])[A-Z])"  # not inside a lower-case or an upper-case word
    return re.compile(rf"{start}(?i:{words}){end}")


@functools.cache
def registered_ids() -> frozenset[str]:
    """The ids spec/ registers for objects other than the variants: features, match formats."""
    from conformance import specdata
    from uno_spec.matches import list_matches

    return frozenset({*specdata.features(), *list_matches()} - set(list_rulesets("variant")))


def foreign_ids(text: str, own: str | None = None) -> str:
    """`text` without the ids of other objects (the module docstring); `own`: the variant
    whose module `text` is (its configurations' composed ruleset names go too)."""
    text = CLAUSE_ID.sub(" ", RULE_ID.sub(" ", text))
    ids = sorted(registered_ids(), key=len, reverse=True)
    text = re.sub(r"(?<![a-z0-9-])(?:" + "|".join(map(re.escape, ids)) + r")(?![a-z0-9-])",
                  " ", text)
    if own is not None:
        text = COMPOSED.sub(lambda m: " " if own in m.group(1).split("+")[1:] else m.group(0),
                            text)
    return text


@functools.cache
def third_party_adapters() -> frozenset[str]:
    """The adapters the knowledge files of conformance/implementations/ name (`adapter.file`)."""
    from uno_spec.loader import load_yaml

    return frozenset(str(doc["adapter"]["file"])
                     for path in sorted((ROOT / "conformance" / "implementations").glob("*.yaml"))
                     if isinstance(doc := load_yaml(path), dict)
                     and isinstance(doc.get("adapter"), dict) and doc["adapter"].get("file"))


def match_variants() -> set[str]:
    """The variants the match formats of spec/matches/ are built on (their rulesets')."""
    from uno_spec.matches import list_matches, load_match

    return {v for m in list_matches() for v in load_ruleset(load_match(m).ruleset).variants}


def allowed(variant: str) -> set[str]:
    """Where, beside its own module and the registry, `variant` may be named."""
    out = set(MACHINE) | set(third_party_adapters())
    if variant in match_variants():
        out |= MATCH_MODULES
    return out


def mentions(variant: str, files: list[Path]) -> set[str]:
    pattern = naming(variant)
    owners = {own_module(v.name): v.name for v in VARIANTS}
    found = set()
    for p in files:
        rel = str(p.relative_to(ROOT))
        if pattern.search(foreign_ids(p.read_text(encoding="utf-8"), owners.get(rel))):
            found.add(rel)
    return found


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
    """Done when (issue 23): beside its own module, only the registry names a variant (and the
    places `allowed` says why)."""
    found = mentions(variant, source_files()) - {own_module(variant)}
    assert REGISTRY in found
    assert found - {REGISTRY} - allowed(variant) == set(), (
        f"{variant}: named outside its module by {sorted(found - {REGISTRY} - allowed(variant))}")


def test_the_allowances_are_what_the_docstring_says() -> None:
    assert third_party_adapters() == {
        "conformance/adapters/rlcard.py", "conformance/adapters/rlcard_uno.py",
        "conformance/adapters/skilluno.py", "conformance/adapters/unogame.py",
        "conformance/adapters/uno-engine/adapter.mjs"}
    assert "conformance/adapters/reference.py" not in third_party_adapters()
    assert match_variants() == {"partners"}
    assert all((ROOT / m).is_file() for m in MATCH_MODULES | MACHINE)
    assert {"partners-match", "partners-rotation", "partners-tournament"} <= registered_ids()


def test_the_naming_rule_sees_every_spelling(tmp_path: Path) -> None:
    spellings = ["draw-until-playable", "draw_until_playable", "DrawUntilPlayable",
                 "Draw until playable", "DRAW_UNTIL_PLAYABLE"]
    for i, text in enumerate([*spellings, "V.DRAWUNTIL.EXHAUSTED", "drawn until playable"]):
        (tmp_path / f"f{i}.py").write_text(f"# {text}\n")
    pattern = naming("draw-until-playable")
    seen = [i for i in range(7) if pattern.search(
        foreign_ids((tmp_path / f"f{i}.py").read_text()))]
    assert seen == [0, 1, 2, 3, 4]  # a rule ID and another phrase are not the variant


@pytest.mark.parametrize(("text", "own", "named"), [
    # another object's id is not the variant...
    ("feature partners-match, formats partners-rotation and partners-tournament", None, False),
    ("the clause classic-br:partners:2 and the rule PARTNERS.SEATING", None, False),
    # ... but the variant itself still is, however it is written next to them
    ("partners-match needs the partners variant", None, True),
    ('if params.method == "partners":', None, True),
    ('load_ruleset("classic-official+partners")', None, True),
    ("from uno_fsm.rules.partners import partner_of", None, True),
    ("class PartnersOracle: ...", None, True),
    ("def seatPartners(): ...", None, True),
    ("partnership, PARTNERSHIP, partnered", None, False),
    ("a partners-scoring rule", None, True),  # not a registered id: the variant's words
    # a variant's module may compose the others in its own configurations only
    ('CheckConfig("classic-official+seven-o+jump-in", 2)', "jump-in", False),
    ('CheckConfig("classic-official+seven-o+stacking", 2)', "jump-in", True),
    ('if facts.plays("seven-o"):', "jump-in", True),
    ('"classic-official+seven-o+jump-in"', None, True),  # not in jump-in's own module
])
def test_the_naming_rule_catches_a_real_mention(text: str, own: str | None,
                                               named: bool) -> None:
    """What the rule takes out (other objects' ids, a variant module's own compositions)
    hides no mention of the variant itself (`partners`, `seven-o`)."""
    variant = "seven-o" if "seven-o" in text else "partners"
    assert bool(naming(variant).search(foreign_ids(text, own))) is named


def test_a_new_mention_outside_the_allowances_fails(tmp_path: Path) -> None:
    """The allowances are per variant and per file: the match modules may name partners, not
    stacking; a third-party adapter is one a knowledge file names, not any adapter."""
    assert "uno_fsm/match.py" in allowed("partners")
    assert "uno_fsm/match.py" not in allowed("stacking")
    assert "uno_fsm/game.py" not in allowed("partners")
    assert "conformance/adapters/stdio.py" not in allowed("seven-o")
    assert "conformance/adapters/reference.py" not in allowed("cards-2018")
    (tmp_path / "game.py").write_text("# the partners variant scores teams\n")
    assert naming("partners").search(foreign_ids((tmp_path / "game.py").read_text()))


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
    assert len(SCORING_METHODS) == len(used)  # each played by one variant (or the base)


def test_a_house_rule_applies_to_the_bases_its_ruling_opens() -> None:
    """RUL.VARIANTS.BASES decides per base whether house rules apply; a variant that cites it
    (in its ruleset file's `rulings` or a rule's) states its bases once, in `applies_to`, and
    they are exactly the bases the ruling opens."""
    from uno_spec.loader import load_rules, load_rulings

    (ruling,) = [r for r in load_rulings() if r.id == "RUL.VARIANTS.BASES"]
    decisions = dict(ruling.decisions)
    assert set(decisions) == set(list_rulesets("base"))  # decided per base, no variant listed
    opened = {base for base, choice in decisions.items() if choice == "house-rules"}
    files = ruleset_files()
    citing = {vid for vid, rf in files.items() if ruling.id in rf.rulings}
    citing |= {rs for r in load_rules() if ruling.id in r.rulings for rs in r.rulesets
               if files[rs].kind == "variant"}
    assert {"stacking", "draw-until-playable", "no-action-finish"} <= citing
    for vid in citing:
        assert set(files[vid].applies_to) == opened, vid


def test_the_house_rules_no_seed_describes_cite_their_ruling() -> None:
    """RUL.VARIANTS.HOUSE-RULES decides per base how a house rule no seed words is played: a
    variant citing it names no seed words (its rules cite the general house-rules clause) and
    applies to bases that decide `as-stated`; no list of variants to keep by hand."""
    from uno_spec.loader import load_rules, load_rulings

    (ruling,) = [r for r in load_rulings() if r.id == "RUL.VARIANTS.HOUSE-RULES"]
    decided = {base for base, choice in ruling.decisions if choice == "as-stated"}
    assert set(dict(ruling.decisions)) <= set(list_rulesets("base"))
    citing = {vid for vid, rf in ruleset_files().items() if ruling.id in rf.rulings}
    assert {"draw-until-playable", "no-action-finish"} <= citing
    for vid in citing:
        assert set(ruleset_files()[vid].applies_to) <= decided, vid
        assert any("wiki-br:two-player:4" in r.cites for r in load_rules()
                   if vid in r.rulesets), vid
