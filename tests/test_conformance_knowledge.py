"""Implementation knowledge as data: conformance/implementations/*.yaml, its schema, the
declarative deviation matchers, and the pages and expectation files generated from it."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from conformance import compliance, knowledge, reports
from conformance import expectations as exp
from conformance.site import markdown_site_base

ROOT = Path(__file__).resolve().parent.parent
ALL = knowledge.load_all()
VERIFIED = [i for i in ALL if not i.no_engine]


def test_every_implementation_file_loads_and_names_existing_files() -> None:
    assert {i.name for i in VERIFIED} >= {"rlcard", "rlcard-uno", "uno-game"}
    assert {i.name for i in ALL if i.no_engine} == {"unointerface", "unoaiinterface",
                                                   "pyuno-game", "uno-eldar-matrix",
                                                   "uno-game-forge"}
    for impl in VERIFIED:
        for rel in (impl.adapter["file"], impl.expectations, impl.page, impl.report):
            assert (ROOT / rel).is_file(), (impl.name, rel)
        assert exp.load(ROOT / impl.expectations).implementation == impl.name
        assert impl.deviations and impl.decisions and impl.driven and impl.lacks


@pytest.mark.parametrize("impl", VERIFIED, ids=[i.name for i in VERIFIED])
def test_commands_agree_with_the_data(impl: knowledge.Implementation) -> None:
    run = shlex.split(impl.commands["run"])
    assert run[:3] == ["uno-fsm", "conformance", "run"]
    assert run[run.index("--adapter") + 1] == impl.adapter["spec"]
    assert run[run.index("--output") + 1] == impl.report
    assert "--no-expectations" in run and run[run.index("--format") + 1] == "json"
    comp = shlex.split(impl.commands["compliance"])
    assert comp[comp.index("--implementation") + 1] == impl.name
    assert comp[comp.index("--from") + 1] == impl.report


@pytest.mark.parametrize("impl", VERIFIED, ids=[i.name for i in VERIFIED])
def test_committed_page_and_expectations_are_what_the_committed_report_renders(
        impl: knowledge.Implementation) -> None:
    data = reports.load_json((ROOT / impl.report).read_text(encoding="utf-8"))
    assert data["adapter"] == impl.adapter["spec"]
    site = markdown_site_base(ROOT / impl.page)  # what `compliance` links the page with
    assert compliance.render_markdown(data, impl, site) == (ROOT / impl.page).read_text(
        encoding="utf-8")
    written = ROOT / impl.expectations
    previous = compliance._previous_reasons(written)
    assert compliance.expectations_text(data, impl, previous) == written.read_text(
        encoding="utf-8")
    # a failure no deviation's signature explains is listed as unclassified, with its
    # signature, and counted so on the page (it is never hidden under a deviation)
    failing = [r for r in data["results"] if compliance.outcome(r) in compliance.FAIL]
    page = (ROOT / impl.page).read_text(encoding="utf-8")
    unclassified = [r["id"] for r in failing if compliance.attribute(r, impl) is None]
    assert f", {len(unclassified)} unclassified." in page
    section = page.split("### Unclassified failures", 1)[-1] if unclassified else ""
    for sid in unclassified:
        assert f"`{sid}`" in section


@pytest.mark.parametrize("impl", VERIFIED, ids=[i.name for i in VERIFIED])
def test_every_cited_rule_is_broken_by_a_failure_of_its_deviation(
        impl: knowledge.Implementation) -> None:
    """A deviation cites the rules its failures break: each cited rule is the rule broken
    (the signature's) of one of its failing scenarios, differing in an observation or error
    code the deviation records, and what the signature says differs is what the run
    observed differing (the result's mismatched keys, or its expected error code)."""
    from conformance.knowledge import _globs

    data = reports.load_json((ROOT / impl.report).read_text(encoding="utf-8"))
    by_dev: dict[str, list[tuple[dict, object]]] = {}
    for r in data["results"]:
        if compliance.outcome(r) not in compliance.FAIL:
            continue
        dev = compliance.attribute(r, impl)
        if dev is not None:
            by_dev.setdefault(dev.key, []).append((r, compliance.broken(r)))
    for dev in impl.deviations:
        items = by_dev.get(dev.key, [])
        cited = compliance.cited_rules([r for r, _ in items],
                                       {r["id"]: sig for r, sig in items if sig.kind
                                        not in ("crash", "hang")})
        for rule in cited:
            evidence = [(r, sig) for r, sig in items if sig.rule == rule]
            assert evidence and dev.blames(rule), (dev.key, rule)
            assert all(_globs([sig.what], list(dev.signature["what"])) for _, sig in evidence)
        for r, sig in items:  # what the signature says differs is what the run observed
            if sig.kind in ("observation", "state-changed"):
                keys = {str(m["key"]).split(".")[0] for m in r.get("mismatches") or []}
                assert sig.what.split(".")[0] in keys, (r["id"], sig, keys)
            elif sig.kind in ("accepted", "error-code"):
                assert (r.get("expected") or {}).get("error") == sig.what.split("/")[0]


def test_rlcard_uno_extends_rlcard() -> None:
    fork, rl = knowledge.get("rlcard-uno"), knowledge.get("rlcard")
    assert [d.key for d in fork.deviations][:len(rl.deviations)] == [d.key
                                                                    for d in rl.deviations]
    assert fork.deviations[-1].key == "wild-colour-not-kept"
    assert [d.key for d in fork.decisions][:len(rl.decisions)] == [d.key for d in rl.decisions]


# --- the file format ---------------------------------------------------------------------------

MINIMAL = """\
name: {name}
title: T
label: T
package: {{registry: pypi, name: t, version: "1"}}
no_engine: nothing to drive
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_minimal_no_engine_file_loads(tmp_path: Path) -> None:
    impl = knowledge.load(_write(tmp_path, "t", MINIMAL.format(name="t")))
    assert impl.no_engine == "nothing to drive" and impl.deviations == ()


@pytest.mark.parametrize("extra, line, message", [
    ("colour: red\n", 6, "Additional properties are not allowed ('colour' was unexpected)"),
    ("adapter: {spec: x, file: y}\n", 1,
     "(top): an implementation with no_engine has no adapter, commands or deviations"),
    # 100,000 unknown keys were all named: one line of about 1 MB
    ("".join(f"k{i:06d}: 1\n" for i in range(100_000)), 6, "(top): Additional properties are "
     "not allowed ('k000000', 'k000001', 'k000002', 'k000003', 'k000004', 'k000005', "
     "'k000006', 'k000007', 'k000008', 'k000009' and 99,990 more were unexpected)\n"),
])
def test_schema_errors_name_file_and_line(tmp_path: Path, extra: str, line: int,
                                          message: str) -> None:
    path = _write(tmp_path, "t", MINIMAL.format(name="t") + extra)
    with pytest.raises(knowledge.ImplementationError) as err:
        knowledge.load(path)
    assert str(err.value).startswith(f"{path}:{line}: ")
    assert message in str(err.value) + "\n"
    assert len(str(err.value)) < 1_000


def test_a_bad_matcher_key_is_refused_with_its_line(tmp_path: Path) -> None:
    src = (ROOT / "conformance/implementations/rlcard.yaml").read_text(encoding="utf-8")
    good = "    match: {expected_decision: [challenge]}"
    bad = src.replace(good, "    match: {rule: [CL.FIRST.D2]}")
    assert bad != src
    path = _write(tmp_path, "rlcard", bad)
    line = bad.splitlines().index("    match: {rule: [CL.FIRST.D2]}") + 1
    with pytest.raises(knowledge.ImplementationError) as err:
        knowledge.load(path)
    assert str(err.value).startswith(f"{path}:{line}: deviations/")
    assert "'rule' was unexpected" in str(err.value)


def test_the_name_must_be_the_file_stem(tmp_path: Path) -> None:
    path = _write(tmp_path, "other", MINIMAL.format(name="t"))
    with pytest.raises(knowledge.ImplementationError, match=r"other.yaml:1: name 't' is not"):
        knowledge.load(path)


def test_an_extends_cycle_is_refused(tmp_path: Path) -> None:
    body = MINIMAL.replace("no_engine: nothing to drive\n", "no_engine: x\nextends: {other}\n")
    _write(tmp_path, "a", body.format(name="a", other="b"))
    _write(tmp_path, "b", body.format(name="b", other="a"))
    with pytest.raises(knowledge.ImplementationError, match="which extends it back"):
        knowledge.load(tmp_path / "a.yaml")


def test_unknown_implementation() -> None:
    with pytest.raises(knowledge.ImplementationError, match="unknown implementation 'nope': "
                       "known are pyuno-game, rlcard, rlcard-uno, skilluno, uno-eldar-matrix, "
                       "uno-engine, "
                       "uno-game, uno-game-forge, unoaiinterface, unointerface$"):
        knowledge.get("nope")


# --- matchers ----------------------------------------------------------------------------------


def _result(**kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": "classic.x.y", "status": "failed", "rules": ["CL.A.B"],
                           "message": "m", "step": 2, "mismatches": []}
    out.update(kw)
    return out


def _scenario(*acts: dict[str, Any]) -> Any:
    return SimpleNamespace(steps=[SimpleNamespace(index=i + 1, act=a)
                                  for i, a in enumerate(acts)])


@pytest.mark.parametrize("spec, result, expected", [
    ({"message_contains": ["xx", "bc"]}, _result(message="abcd"), True),
    ({"message_contains": ["xx"]}, _result(message="abcd"), False),
    ({"message_starts": ["ab"]}, _result(message="abcd"), True),
    ({"message_starts": ["bc"]}, _result(message="abcd"), False),
    ({"rules": ["CL.A.*"]}, _result(), True),
    ({"rules": ["CL.B.*"]}, _result(), False),
    ({"scenario": ["classic.x.*"]}, _result(), True),
    ({"mismatch_keys": ["hands"]}, _result(mismatches=[{"key": "hands.0"}]), True),
    ({"mismatch_keys": ["current"]}, _result(mismatches=[{"key": "hands.0"}]), False),
    ({"expected_decision": ["challenge"]},
     _result(expected={"pending": {"decision": "challenge"}}), True),
    ({"expected_decision": ["challenge"]}, _result(expected={"pending": {"player": 1}}), False),
    ({"expected_decision": ["challenge"]}, _result(expected="accepted"), False),
    ({"error_code": ["not-your-turn"]}, _result(expected={"error": "not-your-turn"}), True),
    ({"outcome": ["errored"]}, _result(status="errored"), True),
    ({"outcome": ["errored"]}, _result(status="xfailed", outcome="failed"), False),
    ({"rules": ["CL.A.*"], "message_contains": ["zz"]}, _result(), False),  # and
    ({"any": [{"message_contains": ["zz"]}, {"rules": ["CL.A.B"]}]}, _result(), True),
    ({"all": [{"message_contains": ["m"]}, {"rules": ["CL.Z"]}]}, _result(), False),
    ({"not": {"rules": ["CL.Z"]}}, _result(), True),
])
def test_matcher_leaves_and_combinators(spec: dict[str, Any], result: dict[str, Any],
                                        expected: bool) -> None:
    assert knowledge.compile_matcher(spec)(result, None) is expected


def test_drawn_before_looks_at_the_steps_before_the_failing_one() -> None:
    pred = knowledge.compile_matcher({"drawn_before": True})
    drew = _scenario({"player": 0, "draw": True}, {"player": 0, "pass": True})
    assert pred(_result(step=2), drew)
    assert not pred(_result(step=1), drew)  # the failing step itself does not count
    assert not pred(_result(step=2), _scenario({"player": 0, "play": "R5"}, {}))
    assert not pred(_result(step=2), None)
    assert knowledge.compile_matcher({"drawn_before": False})(_result(step=1), drew)


def _broken(what: str, decision: str, rule: str, kind: str = "observation") -> dict[str, str]:
    return {"kind": kind, "what": what, "decision": decision, "rule": rule}


def test_a_failure_is_a_deviations_only_when_its_signature_is() -> None:
    rl = knowledge.get("rlcard")
    first_d2 = _result(rules=["CL.FIRST.D2"], broken=_broken("pending.player", "setup",
                                                             "CL.FIRST.D2"))
    assert compliance.attribute(first_d2, rl).key == \
        "first-draw-two-no-skip"  # type: ignore[union-attr]
    # the scenario's rules alone do not classify: what differs and the rule broken decide
    for sig in (_broken("hand_sizes", "setup", "CL.FIRST.D2"),  # another observation
                _broken("pending.player", "setup", "CL.FIRST.SKIP"),  # another rule
                _broken("pending.player", "play", "CL.FIRST.D2")):  # another decision
        assert compliance.attribute(_result(rules=["CL.FIRST.D2"], broken=sig), rl) is None
    assert compliance.attribute(_result(broken=_broken("top", "play", "CL.A.B")), rl) is None


# --- the command -------------------------------------------------------------------------------


def _one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.fixture
def rlcard_report(tmp_path: Path) -> Path:
    path = tmp_path / "rlcard.json"
    path.write_text((ROOT / "docs/compliance/data/rlcard.json").read_text(encoding="utf-8"),
                    encoding="utf-8")
    return path


def test_compliance_finds_the_implementation_by_its_adapter(
        rlcard_report: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from uno_cli.main import main

    page = tmp_path / "page.md"
    assert main(["conformance", "compliance", "--from", str(rlcard_report),
                 "--output", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == (ROOT / "docs/compliance/rlcard.md").read_text(
        encoding="utf-8")
    assert not (tmp_path / "rlcard.yaml").exists()  # only what was asked is written


def test_compliance_page_to_stdout(rlcard_report: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    from uno_cli.main import main

    assert main(["conformance", "compliance", "--implementation", "rlcard", "--from",
                 str(rlcard_report), "--output", "-"]) == 0
    assert capsys.readouterr().out.startswith("# Compliance report: RLCard UNO 1.2.0\n")


@pytest.mark.parametrize("argv, message", [
    (["--implementation", "nope", "--from", "x.json"], "unknown implementation 'nope'"),
    (["--implementation", "unointerface"], "unointerface: no rules engine to verify"),
    ([], "--from FILE or --implementation NAME is required"),
    (["--run", "--implementation", "rlcard", "--timeout", "0"],
     "argument --timeout: '0' is not greater than 0"),
])
def test_compliance_usage_errors(argv: list[str], message: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    from uno_cli.main import main

    assert main(["conformance", "compliance", *argv]) == 2
    line = _one_error(capsys)
    assert line.startswith("uno-fsm conformance compliance: ") and message in line


def test_compliance_of_a_report_no_implementation_file_knows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from uno_cli.main import main

    data = json.loads((ROOT / "docs/compliance/data/rlcard.json").read_text(encoding="utf-8"))
    data["adapter"] = "stdio:./my-engine"
    source = tmp_path / "mine.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    assert main(["conformance", "compliance", "--from", str(source)]) == 2
    assert "no implementation file has adapter 'stdio:./my-engine': name one with " \
        "--implementation" in _one_error(capsys)


# --- the reference adapter's capabilities come from spec/ --------------------------------------


def test_reference_declares_what_spec_lists_but_what_the_engine_refuses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance import specdata
    from conformance.adapters import reference
    from uno_fsm import rules
    from uno_fsm.params import Params

    hello = reference.ReferenceAdapter().hello()
    assert set(hello["rulesets"]) == specdata.rulesets()
    assert set(hello["features"]) == set(specdata.features())
    # a scoring method the engine does not play: its ruleset and feature are not declared
    monkeypatch.setattr(rules, "SCORING_METHODS", ("winner-scores-others", "partners",
                                                   "own-hand-lowest-wins"))
    reference.capabilities.cache_clear()
    try:
        with pytest.raises(ValueError, match="elimination"):
            rules.check_params(Params.of("classic-official+desafio"))
        hello = reference.ReferenceAdapter().hello()
        assert set(hello["rulesets"]) == specdata.rulesets() - {"desafio"}
        assert set(hello["features"]) == set(specdata.features()) - {"desafio"}
    finally:
        reference.capabilities.cache_clear()


@pytest.mark.parametrize("spec, name", [
    ("rlcard", "rlcard"),
    ("uno-game", "uno-game"),
    ("stdio:.venv-rlcard-uno/bin/uno-fsm conformance serve --adapter rlcard-uno", "rlcard-uno"),
    ("stdio:'.venv-rlcard-uno/bin/uno-fsm'  conformance serve --adapter 'rlcard-uno'",
     "rlcard-uno"),
    ("stdio:./other", None),
    ("stdio:'unbalanced", None),
    (None, None),
])
def test_an_implementation_is_found_by_its_adapter_value(spec: str | None,
                                                         name: str | None) -> None:
    found = knowledge.by_adapter(spec)
    assert (found.name if found else None) == name


def test_rlcard_uno_beside_rlcard_says_how_to_run_it(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import PackageNotFoundError, version

    from uno_cli.main import main

    try:
        version("rlcard-uno")
        pytest.skip("this environment is rlcard-uno's own")
    except PackageNotFoundError:
        pass
    assert main(["conformance", "run", "--adapter", "rlcard-uno", "--no-progress"]) == 2
    line = _one_error(capsys)
    assert line == ("uno-fsm conformance: the rlcard-uno adapter runs where rlcard-uno is "
                    "installed, which cannot be beside RLCard (both install `rlcard`): run "
                    ".ci/setup-implementations, then use --adapter "
                    "stdio:'.venv-rlcard-uno/bin/uno-fsm conformance serve --adapter rlcard-uno'")
