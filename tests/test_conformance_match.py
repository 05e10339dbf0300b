"""Match scenarios (feature partners-match, conformance/matches.py): the corpus's match
scenarios pass on the reference engine in process and over stdio, catch every mutant of
tests/fixtures/conformance/match_mutants.py, are `unsupported` (never failed) for an
implementation without the `match` operation; hostile match scenario files are refused in one
line; the cache keeps them exactly."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from conformance import matches, reports
from conformance.adapters.reference import ReferenceAdapter
from conformance.adapters.stdio import StdioAdapter
from conformance.lint import lint
from conformance.protocol import AdapterError, Unsupported
from conformance.runner import Result, Runner
from conformance.scenario import CORPUS_ROOT, Filters, Scenario, load_corpus
from conformance.serve import handle
from uno_cli.main import main
from uno_spec.rulesets import list_rulesets

FIX = Path(__file__).parent / "fixtures" / "conformance"
if str(FIX) not in sys.path:
    sys.path.insert(0, str(FIX))

import match_mutants  # noqa: E402 - the fixtures directory is on the path now

CORPUS_FILE = CORPUS_ROOT / "variants" / "partners-match.yaml"
MATCH = load_corpus([CORPUS_FILE], cache=False).scenarios
P = "variant.partners-match."
NINE = ["PARTNERS.ROTATION.PLAYERS", "PARTNERS.ROTATION.SCHEDULE", "PARTNERS.ROTATION.ROUNDS",
        "PARTNERS.ROTATION.HAND", "PARTNERS.ROTATION.TALLY", "PARTNERS.ROTATION.WINNER",
        "PARTNERS.TOURNAMENT.TABLES", "PARTNERS.TOURNAMENT.SCHEDULE",
        "PARTNERS.TOURNAMENT.SCORE"]


def _run(factory: Any, scenarios: list[Scenario] = MATCH) -> dict[str, Result]:
    runner = Runner(factory, adapter_name="test")
    try:
        return {r.id: r for r in runner.run(scenarios).results}
    finally:
        runner.close()


def test_the_corpus_names_each_of_the_nine_rules_and_their_clauses() -> None:
    from conformance import specdata

    assert len(MATCH) == 7
    assert {r for sc in MATCH for r in sc.rules if r.startswith("PARTNERS.")} == set(NINE)
    cites = specdata.rule_cites()
    for rule in NINE:  # each rule's clauses are cited by the scenarios naming it
        assert set(cites[rule]) <= {c for sc in MATCH if rule in sc.rules for c in sc.cites}
    assert all(sc.features == ("partners", "partners-match") for sc in MATCH)


def test_lint_finds_no_partners_rule_without_a_scenario() -> None:
    res = lint()
    assert res.errors == []
    assert not [r for r in res.uncovered if r.startswith("PARTNERS.")]
    assert res.coverage["partners"][1] == []
    assert not [w for w in res.warnings if "PARTNERS." in w]


def test_the_reference_engine_passes_them_in_process() -> None:
    assert {i: r.status for i, r in _run(ReferenceAdapter).items()} == \
        {sc.id: "passed" for sc in MATCH}


def test_the_reference_engine_passes_them_over_stdio_pipelined() -> None:
    command = [sys.executable, "-m", "uno_cli", "conformance", "serve", "--adapter", "reference"]
    made: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        made.append(StdioAdapter(command, timeout=20))
        return made[-1]

    results = _run(factory)
    assert {i: r.status for i, r in results.items()} == {sc.id: "passed" for sc in MATCH}
    assert len(made) == 1 and made[0].restarts == 0


# Each mutant and exactly the scenarios that catch it (all the others pass), with the first
# mismatch of one of them.
CAUGHT = {
    "RepeatedPartner": ({"rotation.schedule", "rotation.schedule.three-rounds"},
                        "rotation.schedule", "schedule.partner_hands",
                        {"round": 1, "players": [0, 3], "hands": 2, "other_pairs": 3}),
    "FourHands": ({"rotation.schedule", "rotation.schedule.three-rounds",
                   "rotation.hand.no-target"}, "rotation.schedule", "schedule.hands", 4),
    "FourteenHands": ({"tournament.schedule"}, "tournament.schedule", "schedule.hands", 14),
    "FixedTables": ({"tournament.schedule"}, "tournament.schedule", "schedule.partner_hands",
                    {"round": 1, "players": [0, 1], "hands": 9, "other_pairs": 27}),
    "AdjacentTeams": ({"rotation.schedule", "rotation.schedule.three-rounds",
                       "tournament.schedule"}, "rotation.schedule",
                      "schedule.partners_opposite",
                      {"hand": 1, "table": 1, "seats": [0, 1, 3, 2],
                       "teams": [[0, 1], [3, 2]]}),
    "GoingOutOnly": ({"rotation.tally.both-partners", "rotation.winner.shared",
                      "rotation.hand.no-target", "tournament.tally"},
                     "rotation.tally.both-partners", "totals.1", 0),
    "FirstWinnerOnly": ({"rotation.winner.shared"}, "rotation.winner.shared", "winners", [0]),
    "StopsAt500": ({"rotation.hand.no-target"}, "rotation.hand.no-target", "schedule.hands", 2),
}


@pytest.mark.parametrize("name", sorted(CAUGHT))
def test_every_mutant_is_caught_by_exactly_its_scenarios(name: str) -> None:
    failing, example, key, observed = CAUGHT[name]
    results = _run(match_mutants.MUTANTS[name])
    assert {i for i, r in results.items() if r.status != "passed"} == {P + f for f in failing}
    assert {r.status for i, r in results.items() if i.removeprefix(P) in failing} == {"failed"}
    first = results[P + example].mismatches[0]
    assert (first["key"], first["observed"]) == (key, observed)


def test_a_failure_points_at_the_expectation_and_quotes_the_clauses(tmp_path: Path) -> None:
    [sc] = [s for s in MATCH if s.id == P + "tournament.schedule"]
    r = _run(match_mutants.FourteenHands, [sc])[sc.id]
    line = next(i for i, text in enumerate(CORPUS_FILE.read_text("utf-8").splitlines(), 1)
                if "hands: 28 " in text)
    assert (r.step, r.step_line, r.step_kind) == (None, line, None)
    assert r.message == "schedule.hands: expected 28, observed 14; schedule.partner_hands: " \
        "expected 4, observed {'round': 1, 'players': [0, 1], 'hands': 2, 'other_pairs': 27}"
    assert r.observed == {"schedule": {"hands": 14, "rounds": [1]}}
    data = reports.to_json(Runner(match_mutants.FourteenHands).run([sc]))
    again = reports.load_json(reports.dumps(data))  # a valid report, read back
    lines = reports.failure_lines(again["results"][0])
    assert lines[1] == f"  at {sc.file}:{line}"
    assert any(text.startswith("  clause classic-br:partners-variation:5: ")
               for text in lines)
    junit = reports.render(again, "junit")
    assert 'failures="1"' in junit and "schedule.hands: expected 28, observed 14" in junit
    assert "schedule.hands: expected 28, observed 14" in reports.render(again, "markdown")


def test_without_the_operation_they_are_unsupported_never_failed() -> None:
    undeclared = _run(match_mutants.NotDeclared)
    assert {r.status for r in undeclared.values()} == {"unsupported"}
    assert {r.message for r in undeclared.values()} == \
        {"adapter does not declare feature(s) partners-match"}
    missing = _run(match_mutants.NoMatch)
    assert {(r.status, r.message) for r in missing.values()} == \
        {("unsupported", "adapter: the adapter has no `match` operation")}


def test_served_without_the_operation_is_unsupported_over_stdio() -> None:
    command = [sys.executable, "-m", "uno_cli", "conformance", "serve", "--adapter",
               "module:match_mutants:NoMatch"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(FIX), *sys.path])}
    results = _run(lambda: StdioAdapter(command, timeout=20, env=env), MATCH[:2])
    assert {(r.status, r.message) for r in results.values()} == \
        {("unsupported", "adapter: this adapter has no `match` operation")}


def test_serve_answers_match_or_unsupported() -> None:
    params = {"format": "partners-rotation"}
    answer, stop = handle(ReferenceAdapter(), {"id": 4, "method": "match", "params": params})
    assert not stop and answer["id"] == 4 and len(answer["result"]["schedule"]) == 3
    answer, _ = handle(match_mutants.NoMatch(), {"id": 5, "method": "match", "params": params})
    assert answer == {"id": 5, "error": {"code": "unsupported",
                                         "message": "this adapter has no `match` operation"}}


def test_a_malformed_answer_is_errored_as_a_protocol_error() -> None:
    results = _run(match_mutants.Garbage, MATCH[:1])
    [r] = results.values()
    assert (r.status, r.message) == ("errored", "protocol-error: match: schedule[0].tables[0] "
                                     "must be an object with four integer `seats` and two "
                                     "`teams` of two integers")


@pytest.mark.parametrize(("answer", "message"), [
    ([], "match returned list, expected an object"),
    ({}, "match: `schedule` must be a list of at most 100000 hands"),
    ({"schedule": [{"round": "1", "tables": []}]},
     "match: schedule[0] must be an object with an integer `round` and a list of `tables`"),
    ({"schedule": [], "totals": float("nan")},
     "match returned something that is not JSON data (Out of range float values are not JSON "
     "compliant)"),
    ({"schedule": [], "pad": "x" * 300}, "match returned 324 bytes of JSON, over the "
     "300-byte cap"),
])
def test_check_answer_names_what_is_wrong(answer: Any, message: str) -> None:
    with pytest.raises(AdapterError) as exc:
        matches.check_answer(answer, limit=300)
    assert exc.value.message == message


def test_tally_answers_are_compared_by_player_lists_accepted() -> None:
    expect = {"totals": {"0": 5, "2": 5}, "by_partner": {"0": {"2": 5}}, "winners": [0, 2]}
    answer = {"schedule": [], "totals": [5, 0, 5, 0], "by_partner": [[None, 0, 5, 0]],
              "winners": [2, 0]}
    assert matches.judge(expect, answer) == []
    wrong = {"schedule": [], "totals": {"0": "5"}, "winners": [0, 0, 2]}
    assert [(m.key, m.observed) for m in matches.judge(expect, wrong)] == [
        ("totals.0", "5"), ("totals.2", "<not observed>"),
        ("by_partner.0.2", "<not observed>"), ("winners", [0, 0, 2])]
    one = {"totals": {"0": 1}, "by_partner": {"0": {"2": 1}}}  # `true` is not 1, nor 1.0
    typed = {"schedule": [], "totals": {"0": True}, "by_partner": {"0": {"2": 1.0}}}
    assert [(m.key, m.observed) for m in matches.judge(one, typed)] == [
        ("totals.0", True), ("by_partner.0.2", 1.0)]


@pytest.mark.parametrize(("params", "error"), [
    ({"format": "partners-nothing"}, Unsupported),
    ({"format": 3}, AdapterError),
    ({"format": "partners-rotation", "rounds": 0}, AdapterError),
    ({"format": "partners-rotation", "rounds": 101}, AdapterError),
    ({"format": "partners-rotation", "rounds": True}, AdapterError),
    ({"format": "partners-rotation", "results": {}}, AdapterError),
    ({"format": "partners-rotation", "results": [{"seats": [0, 1, 2, 3], "went_out": 7,
                                                  "points": 1}]}, AdapterError),
    ({"format": "partners-rotation", "results": [{"seats": [0, 1, 2, 3], "went_out": 0}]},
     AdapterError),
    ({"format": "partners-rotation", "extra": 1}, AdapterError),
])
def test_the_reference_match_refuses_bad_requests(params: dict[str, Any],
                                                  error: type[Exception]) -> None:
    with pytest.raises(error) as exc:
        ReferenceAdapter().match(params)
    if error is AdapterError:
        assert exc.value.code == "bad-request"  # type: ignore[attr-defined]


def test_the_reference_match_tallies_through_the_engines_tally(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from uno_fsm import match as M

    calls: list[int] = []
    real = M.tally

    def spy(players: int, hands: Any) -> M.Tally:
        calls.append(players)
        return real(players, hands)

    monkeypatch.setattr(M, "tally", spy)
    out = ReferenceAdapter().match({"format": "partners-tournament", "results": [
        {"seats": [0, 1, 2, 3], "went_out": 1, "points": 9}]})
    assert calls == [8]
    assert out["totals"] == {0: 0, 1: 9, 2: 0, 3: 9, 4: 0, 5: 0, 6: 0, 7: 0}
    assert out["by_partner"][1] == {0: 0, 2: 0, 3: 9, 4: 0, 5: 0, 6: 0, 7: 0}
    assert out["winners"] == [1, 3]


def test_filters_select_the_match_scenarios() -> None:
    assert [s.id for s in Filters(features=("partners-match",)).apply(load_corpus().scenarios)] \
        == [s.id for s in MATCH]
    assert [s.id for s in Filters(rules=("PARTNERS.TOURNAMENT.*",)).apply(MATCH)] == \
        [P + "tournament.schedule", P + "tournament.tally"]


def test_run_with_a_feature_filter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--feature", "partners-match", "-q",
                 "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith("OK in ")
    assert main(["conformance", "run", "--feature", "partners-match", "--format", "json",
                 "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["passed"] == data["summary"]["total"] == 7


# --- hostile match scenario files: one line, `file:line: message`, exit 2 --------------------

GOOD = """\
id: hostile.match.ok
title: a valid match scenario to mutate
ruleset: classic-official+partners
cites: [classic-br:partners-variation:3]
rules: [PARTNERS.ROTATION.TALLY]
features: [partners, partners-match]
match:
  format: partners-rotation
  results:
    - {seats: [0, 1, 2, 3], went_out: 0, points: 40}
  expect:
    schedule: {hands: 3, players: 4}
    totals: {0: 40, 2: 40}
    by_partner: {0: {2: 40}}
    winners: [0, 2]
"""
S = "scenario hostile.match.ok: "


def _refused(capsys: pytest.CaptureFixture[str], path: Path, line: int, message: str) -> None:
    assert main(["conformance", "run", str(path), "--no-progress", "--no-expectations"]) == 2
    assert capsys.readouterr().err == f"uno-fsm conformance: {path}:{line}: {message}\n"
    assert main(["conformance", "lint", str(path)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"error: {path}:{line}: {message}"
    assert out[-1].startswith("0 scenarios, 1 error(s)")


def test_the_base_match_scenario_is_valid(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(GOOD, encoding="utf-8")
    assert main(["conformance", "run", str(path), "-q", "--no-progress"]) == 0
    assert main(["conformance", "lint", str(path)]) == 0
    assert " 0 error(s)" in capsys.readouterr().out


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("format: partners-rotation", "format: partners-rotatoin", 8,
     f"{S}match.format: unknown match 'partners-rotatoin'; did you mean partners-rotation, "
     "partners-tournament? (known: partners-rotation, partners-tournament)"),
    ("format: partners-rotation", "format: [partners-rotation]", 8,
     f"{S}match.format: ['partners-rotation'] is not of type 'string'"),
    ("ruleset: classic-official+partners", "ruleset: classic-2022+partners", 3,
     f"{S}ruleset: match partners-rotation deals every hand under classic-official+partners, "
     "not classic-2022+partners"),
    ("ruleset: classic-official+partners", "ruleset: classic-official+nothing", 3,
     f"{S}ruleset: unknown variant 'nothing' (known: {', '.join(list_rulesets('variant'))})"),
    ("went_out: 0, points: 40", "went_out: 0, points: forty", 10,
     f"{S}match.results[0].points: 'forty' is not of type 'integer'"),
    ("went_out: 0, points: 40", "went_out: 0, points: 40.0", 10,
     f"{S}match.results[0].points: 40.0 is not a whole number (write seats, counts and seeds "
     "without a decimal point)"),
    ("went_out: 0, points: 40", "went_out: 0, points: -40", 10,
     f"{S}match.results[0].points: -40 is less than the minimum of 0"),
    ("seats: [0, 1, 2, 3]", "seats: [0, 1, 2, 9]", 10,
     f"{S}match.results[0].seats[3]: player 9 does not exist in match partners-rotation "
     "(4 players, 0 to 3)"),
    ("seats: [0, 1, 2, 3]", "seats: [0, 1, 2, 64]", 10,
     f"{S}match.results[0].seats[3]: 64 is greater than the maximum of 63"),
    ("seats: [0, 1, 2, 3]", "seats: [0, 1, 2, 2]", 10,
     f"{S}match.results[0].seats: [0, 1, 2, 2] has non-unique elements"),
    ("seats: [0, 1, 2, 3]", "seats: [0, 1, 2]", 10,
     f"{S}match.results[0].seats: [0, 1, 2] is too short"),
    ("went_out: 0, points", "went_out: 4, points", 10,
     f"{S}match.results[0].went_out: player 4 does not exist in match partners-rotation "
     "(4 players, 0 to 3)"),
    ("went_out: 0, points: 40}", "went_out: 0}", 10,
     f"{S}match.results[0]: 'points' is a required property"),
    ("schedule: {hands: 3, players: 4}", "schedule: {hands: 3, players: 1000000000}", 12,
     f"{S}match.expect.schedule.players: 1000000000 is greater than the maximum of 64"),
    ("schedule: {hands: 3, players: 4}", "schedule: {hands: three}", 12,
     f"{S}match.expect.schedule.hands: 'three' is not of type 'integer'"),
    ("schedule: {hands: 3, players: 4}", "schedule: {order: [1, 2, 3]}", 12,
     f"{S}match.expect.schedule: Additional properties are not allowed ('order' was "
     "unexpected)"),
    ("schedule: {hands: 3, players: 4}", "schedule: {partner_hands: 1}", 12,
     f"{S}match.expect.schedule: 'players' is a dependency of 'partner_hands'"),
    ("schedule: {hands: 3, players: 4}", "schedule: {partners_opposite: false}", 12,
     f"{S}match.expect.schedule.partners_opposite: True was expected"),
    ("totals: {0: 40, 2: 40}", "totals: {0: 40, 4: 40}", 13,
     f"{S}match.expect.totals.4: player 4 does not exist in match partners-rotation "
     "(4 players, 0 to 3)"),
    ("totals: {0: 40, 2: 40}", "totals: {0: 40, 400: 40}", 13,
     f"{S}match.expect.totals: '400' does not match '^(0|[1-9][0-9]?)$'"),
    ("by_partner: {0: {2: 40}}", "by_partner: {0: {0: 40}}", 14,
     f"{S}match.expect.by_partner.0.0: player 0 is not their own partner"),
    ("winners: [0, 2]", "winners: [0, 7]", 15,
     f"{S}match.expect.winners[1]: player 7 does not exist in match partners-rotation "
     "(4 players, 0 to 3)"),
    ("winners: [0, 2]", "winners: []", 15, f"{S}match.expect.winners: [] should be "
     "non-empty"),
    (GOOD[GOOD.index("  expect:"):], "  expect: {}\n", 11,
     f"{S}match.expect: {{}} should be non-empty"),
    ("  expect:", "  expected:", 8, f"{S}match: 'expect' is a required property"),
    ("features: [partners, partners-match]", "features: [partners, partners-match]\nsetup: "
     "{players: 4}", 7, f"{S}setup: a match scenario has no `setup`: its `match` block is "
     "the whole scenario (docs/scenario-format.md, \"Matches\")"),
    ("features: [partners, partners-match]", "features: [partners, partners-match]\nseed: 3",
     7, f"{S}seed: a match scenario has no `seed`: its `match` block is the whole scenario "
     "(docs/scenario-format.md, \"Matches\")"),
])
def test_a_hostile_match_file_is_one_line(old: str, new: str, line: int, message: str,
                                          tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert old in GOOD
    path = tmp_path / "m.yaml"
    path.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    _refused(capsys, path, line, message)


def test_a_tally_without_results_and_huge_counts(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    no_results = GOOD.replace("  results:\n    - {seats: [0, 1, 2, 3], went_out: 0, points: "
                              "40}\n", "")
    path.write_text(no_results, encoding="utf-8")
    _refused(capsys, path, 10, f"{S}match.expect: a tally (totals, by_partner, winners) needs "
             "the `results` of the hands it counts")
    path.write_text(GOOD.replace("  results:", "  rounds: 1000000000000\n  results:"),
                    encoding="utf-8")
    _refused(capsys, path, 9, f"{S}match.rounds: 1000000000000 is greater than the maximum "
             "of 100")
    many = "".join("    - {seats: [0, 1, 2, 3], went_out: 0, points: 40}\n"
                   for _ in range(1001))
    path.write_text(GOOD.replace("    - {seats: [0, 1, 2, 3], went_out: 0, points: 40}\n",
                                 many), encoding="utf-8")
    assert main(["conformance", "lint", str(path)]) == 2
    [first] = [x for x in capsys.readouterr().out.splitlines() if x.startswith("error: ")]
    assert first.startswith(f"error: {path}:9: {S}match.results: [") and \
        first.endswith("is too long")


def test_the_going_out_player_sits_at_the_table(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(GOOD.replace("partners-rotation", "partners-tournament")
                    .replace("went_out: 0,", "went_out: 5,"), encoding="utf-8")
    _refused(capsys, path, 10, f"{S}match.results[0].went_out: player 5 went out but does "
             "not sit at the table [0, 1, 2, 3]")


@pytest.mark.parametrize("depth", [65, 5000])
def test_deep_nesting_in_a_match_block_is_refused(depth: int, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(GOOD.replace("winners: [0, 2]", "winners: " + "[" * depth + "]" * depth),
                    encoding="utf-8")
    _refused(capsys, path, 15, "YAML error: the document nests deeper than 64 levels")


def test_a_match_scenario_missing_its_feature_is_a_lint_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(GOOD.replace("features: [partners, partners-match]",
                                 "features: [partners]"), encoding="utf-8")
    assert main(["conformance", "lint", str(path)]) == 2
    assert capsys.readouterr().out.splitlines()[0] == (
        f"error: {path}:6: scenario hostile.match.ok: features: uses partners-match but does "
        "not declare it (expected [partners, partners-match])")


# --- the cache -------------------------------------------------------------------------------


def test_match_scenarios_load_the_same_from_the_cache(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from uno_spec import cache as spec_cache

    monkeypatch.setenv(spec_cache.ENV_DIR, str(tmp_path / "cache"))
    monkeypatch.delenv(spec_cache.ENV_OFF, raising=False)
    first = load_corpus([CORPUS_FILE]).scenarios  # fills the cache
    [entry] = (tmp_path / "cache" / "scenarios").glob("*/*.json")
    warm = load_corpus([CORPUS_FILE]).scenarios
    assert [(s, s.raw_lines) for s in warm] == [(s, s.raw_lines) for s in MATCH] == \
        [(s, s.raw_lines) for s in first]
    assert all(s.match is not None for s in warm)
    # an entry whose match is not a mapping is a miss, never believed
    import hashlib

    header, _, body = entry.read_bytes().partition(b"\n")
    payload = json.loads(body)
    payload[0]["match"] = ["not", "a", "match"]
    text = json.dumps(payload).encode()
    entry.write_bytes(json.dumps({**json.loads(header),
                                  "digest": hashlib.sha256(text).hexdigest()}).encode()
                      + b"\n" + text)
    assert [(s, s.raw_lines) for s in load_corpus([CORPUS_FILE]).scenarios] == \
        [(s, s.raw_lines) for s in MATCH]


def test_the_cache_version_follows_the_match_formats(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A match scenario's checks read spec/matches (its players): a changed format is a new
    cache version, and the new players count is applied, not a stale entry."""
    import shutil

    from conformance import corpus_cache, specdata
    from uno_spec import cache as spec_cache
    from uno_spec import loader

    monkeypatch.setenv(spec_cache.ENV_DIR, str(tmp_path / "cache"))
    monkeypatch.delenv(spec_cache.ENV_OFF, raising=False)
    spec = tmp_path / "spec"
    shutil.copytree(Path(loader.__file__).resolve().parent.parent / "spec", spec)
    monkeypatch.setenv("UNO_FSM_SPEC", str(spec))
    specdata.clear_caches()
    try:
        path = tmp_path / "m.yaml"
        path.write_text(GOOD.replace("seats: [0, 1, 2, 3]", "seats: [4, 5, 6, 7]")
                        .replace("went_out: 0", "went_out: 4")
                        .replace("format: partners-rotation", "format: partners-tournament")
                        .replace("{0: 40, 2: 40}", "{4: 40, 6: 40}")
                        .replace("{0: {2: 40}}", "{4: {6: 40}}").replace("[0, 2]", "[4, 6]")
                        .replace("hands: 3, players: 4", "hands: 28"), encoding="utf-8")
        assert not load_corpus([path]).errors
        before = corpus_cache.version()
        fmt = spec / "matches" / "partners-tournament.yaml"
        fmt.write_text(fmt.read_text("utf-8").replace("players: 8", "players: 4")
                       .replace("tables: 2", "tables: 1"), encoding="utf-8")
        specdata.clear_caches()
        assert corpus_cache.version() != before
        [error] = load_corpus([path]).errors
        assert str(error) == (f"{path}:10: {S}match.results[0].seats[0]: player 4 does not "
                              "exist in match partners-tournament (4 players, 0 to 3)")
    finally:
        monkeypatch.delenv("UNO_FSM_SPEC")
        specdata.clear_caches()


def test_the_match_example_in_the_docs_passes() -> None:
    import re

    from conformance.scenario import parse_text

    text = (Path(__file__).resolve().parent.parent / "docs" / "scenario-format.md").read_text()
    [block] = [b for b in re.findall(r"```yaml\n(.*?)```", text, flags=re.S) if "match:" in b]
    [sc] = parse_text("scenarios:\n" + block, "scenario-format.md")
    assert _run(ReferenceAdapter, [sc])[sc.id].status == "passed"
    assert _run(match_mutants.GoingOutOnly, [sc])[sc.id].status == "failed"


def test_partner_hands_counts_only_the_players_expected() -> None:
    """A hostile schedule naming a player 10**9 costs no more than the 64-player pairs: the
    team is reported, never C(10**9, 2) pairs counted."""
    hand = {"round": 1, "tables": [{"seats": [0, 1, 2, 10**9], "teams": [[0, 2], [1, 10**9]]}]}
    seated, m = matches.judge({"schedule": {"players": 4, "partner_hands": 1}},
                              {"schedule": [hand]})
    assert seated.observed == {"hand": 1, "seated": [0, 1, 2, 10**9]}
    assert (m.key, m.observed) == ("schedule.partner_hands", {"hand": 1, "team": [1, 10**9]})
    same = {"round": 1, "tables": [{"seats": [0, 1, 2, 3], "teams": [[0, 0], [1, 3]]}]}
    [m] = matches.judge({"schedule": {"players": 4, "partner_hands": 1}}, {"schedule": [same]})
    assert m.observed == {"hand": 1, "team": [0, 0]}
