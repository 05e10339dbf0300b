"""`conformance run` names the rule a failure breaks (issue 24 item 6): for each observation
that differs, the rule that governs it at the failing step (from the reference's events,
conformance.blame), quoted with its clauses before the scenario's other rules; and the console
groups unsupported scenarios by reason, with counts."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import jsonschema
import pytest

from conformance import reports
from uno_cli.main import main

SCHEMA = json.loads((Path(__file__).resolve().parent.parent
                     / "conformance/schema/report.schema.json").read_text())

# A Draw Two written with two expectations wrong: the victim's hand (CL.D2.EFFECT says they
# draw 2: 4 cards, not 2) and the top card (CL.PLAY.DISCARD-FACE-UP: the Draw Two is on top).
# The scenario names four rules; the report must say which two are broken, and by what.
WRONG = """\
scenarios:
- id: mine.draw-two.written-wrong
  title: a Draw Two whose expectations are written wrong
  ruleset: classic-official
  cites: ['wiki-br:official:21', 'guide-br:special-cards:6', 'classic-br:play:10']
  rules: [CL.PLAY.MATCH-COLOUR, CL.D2.NO-STACK, CL.D2.EFFECT, CL.D2.MATCH]
  features: [action-cards, basic-play]
  setup:
    players: 3
    dealer: 2
    current: 0
    direction: clockwise
    hands: {0: [RD2, Y1], 1: [R4, Y1], 2: [R5, G1, B1]}
    discard: [G3, R7]
    active_color: red
    draw: [G1, B1, Y2, G2]
  steps:
  - act: {player: 0, play: RD2}
  - expect:
      hand_sizes: {1: 2}
      top: R7
      current: 2
"""


def run(tmp_path: Path, *extra: str, text: str = WRONG) -> tuple[int, dict]:
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text(text)
    out = tmp_path / "r.json"
    code = main(["conformance", "run", str(scenario), "--format", "json", "-o", str(out),
                 "--no-progress", *extra])
    return code, json.loads(out.read_text())


def test_each_differing_observation_names_the_rule_that_governs_it(tmp_path: Path) -> None:
    code, data = run(tmp_path)
    assert code == 1
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    (r,) = data["results"]
    assert r["broken"]["observations"] == {"hand_sizes.1": "CL.D2.EFFECT",
                                           "top": "CL.PLAY.DISCARD-FACE-UP"}
    assert r["broken"]["rule"] == "CL.PLAY.DISCARD-FACE-UP"  # the first that differs
    broken = r["quotes"]["broken"]
    assert [(b["id"], b["observations"]) for b in broken] == [
        ("CL.D2.EFFECT", ["hand_sizes.1"]), ("CL.PLAY.DISCARD-FACE-UP", ["top"])]
    # each rule broken with the clauses it cites in spec/rules, original words and English
    d2 = broken[0]
    assert [c["id"] for c in d2["clauses"]] == ["wiki-br:official:21", "guide-br:special-cards:6"]
    assert all(c["text"] and c["en"] for c in d2["clauses"])


def test_the_console_shows_the_rule_broken_first_then_the_other_rules(tmp_path: Path,
                                                                       capsys) -> None:
    _, data = run(tmp_path)
    text = reports.console_text(data, width=400)
    broken = text.index("rule broken: CL.D2.EFFECT (it governs hand_sizes.1: expected 2, "
                        "observed 4)")
    assert text.index("rule broken: CL.PLAY.DISCARD-FACE-UP (it governs top: expected "
                      '"R7", observed "RD2")') > broken
    clause = text.index("clause wiki-br:official:21:")  # the broken rule's clause, under it
    others = text.index("the scenario's other rules:")
    assert broken < clause < others
    rest = text[others:]
    for rule in ("CL.PLAY.MATCH-COLOUR", "CL.D2.NO-STACK", "CL.D2.MATCH"):
        assert f"rule {rule}:" in rest
    assert "rule CL.D2.EFFECT:" not in rest  # said once, as broken
    # the scenario's clause no broken rule cites is quoted apart; the quoted ones once
    assert text.index("clause classic-br:play:10:") > text.index("the scenario's other clauses:")
    assert text.count("clause wiki-br:official:21:") == 1
    md = reports.render_markdown(data)
    assert md.index("**rule broken** [`CL.D2.EFFECT`]") < md.index("the scenario's other rules")
    junit = reports.render_junit(data)
    assert "rule broken: CL.D2.EFFECT" in junit


def test_a_refused_action_names_the_rule_that_allows_it(tmp_path: Path) -> None:
    # the same position, the Draw Two said to be refused: the rule broken is the one the
    # reference plays it by (a card matching the pile), which the scenario does not name
    wrong = WRONG.split("  steps:")[0] + ("  steps:\n  - act: {player: 0, play: RD2}\n"
                                           "    error: card-does-not-match\n")
    _, data = run(tmp_path, text=wrong)
    (r,) = data["results"]
    assert r["broken"]["kind"] == "accepted"
    assert r["broken"]["observations"] == {"action": "CL.PLAY.MATCH"}
    text = reports.console_text(data, width=400)
    assert "rule broken: CL.PLAY.MATCH (it governs whether the action is accepted)" in text
    assert text.index("rule broken") < text.index("the scenario's other rules:")


def test_a_report_without_broken_is_rendered_as_before(tmp_path: Path) -> None:
    _, data = run(tmp_path)
    (r,) = data["results"]
    del r["broken"], r["quotes"]["broken"]  # a report written before (or by hand)
    text = reports.console_text(data, width=400)
    assert "rule broken" not in text and "other rules" not in text
    assert "rule CL.D2.EFFECT:" in text


@pytest.mark.parametrize("observations", [
    {},  # a crash: nothing compared
    {"top": ""},  # no rule known
    {"top": "NO.SUCH.RULE", "x" * 10_000: "CL.D2.EFFECT"},  # a hand-edited report
])
def test_hostile_broken_entries_render(tmp_path: Path, observations: dict) -> None:
    _, data = run(tmp_path)
    (r,) = data["results"]
    r["broken"]["observations"] = observations
    r["quotes"]["broken"] = reports.broken_quotes(r["broken"])
    reports.load_json(json.dumps(data))  # still a valid report
    text = reports.console_text(data, width=400)
    if "NO.SUCH.RULE" in observations.values():
        assert "rule broken: NO.SUCH.RULE" in text and "rule not found in spec/rules" in text
    if not any(observations.values()):
        assert "rule broken" not in text
    reports.render_markdown(data)
    reports.render_junit(data)


def test_unsupported_scenarios_are_grouped_by_reason_with_counts() -> None:
    def unsupported(message: str) -> dict:
        return {"id": "x", "title": "", "status": "unsupported", "outcome": "unsupported",
                "message": message}

    results = [
        unsupported("adapter does not declare ruleset flip; feature(s) flip-challenge, flip"),
        unsupported("adapter does not declare ruleset flip; feature(s) flip; "
                    "observation(s) side"),
        unsupported("adapter does not declare feature(s) scoring; observation(s) scores"),
        unsupported("adapter: setup: unsupported"),
        unsupported("adapter: setup: unsupported"),
        {"id": "y", "title": "", "status": "passed", "message": ""},
    ]
    assert reports.unsupported_reasons(results) == [
        ("adapter: setup: unsupported", 2), ("feature flip", 2), ("ruleset flip", 2),
        ("feature flip-challenge", 1), ("feature scoring", 1), ("observation scores", 1),
        ("observation side", 1)]
    lines = reports.unsupported_lines({"results": results}, limit=3)
    assert lines[0].startswith("unsupported: 5 scenario(s)")
    assert lines[1:] == ["  2  adapter: setup: unsupported", "  2  feature flip",
                         "  2  ruleset flip", "  ... and 4 other reason(s) (each scenario's "
                         "is in the JSON report)"]
    assert reports.unsupported_lines({"results": results[-1:]}) == []


def test_the_console_summary_says_why_scenarios_were_unsupported() -> None:
    from conformance.runner import Runner
    from conformance.scenario import load_corpus
    from tests.test_conformance_reports import SCEN, WrongAdapter  # the fixtures' tiny engine

    scs = load_corpus([SCEN / "unsupported.yaml"]).scenarios
    data = reports.to_json(Runner(WrongAdapter, adapter_name="module:x").run(scs))
    for detail in ("full", "summary"):
        out = reports.console_text(data, width=400, detail=detail)
        head = out.index("unsupported: 3 scenario(s); what the adapter does not support")
        assert "  1  ruleset flip\n" in out and "  1  observation scores\n" in out
        assert head < out.index(reports.summary_line(data))
    assert "what the adapter does not support" not in \
        reports.console_text(data, width=400, detail="line")
    assert "| ruleset flip | 1 |" in reports.render_markdown(data)


@pytest.mark.parametrize("tamper", [
    lambda r: r["broken"].__setitem__("observations", {"top": 5}),  # not a rule id
    lambda r: r["broken"].__setitem__("observations", ["top"]),  # not a mapping
    lambda r: r["quotes"]["broken"][0].pop("clauses"),
    lambda r: r["quotes"]["broken"][0].__setitem__("observations", "top"),
    lambda r: r["quotes"].__setitem__("broken", {"id": "x"}),
])
def test_report_from_a_tampered_broken_is_refused_in_one_line(tmp_path: Path, capsys,
                                                              tamper) -> None:
    _, data = run(tmp_path)
    tamper(data["results"][0])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["conformance", "report", "--from", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"uno-fsm conformance: {bad}: not a valid report: results[0]")
    assert "\n" not in err


def test_a_stored_report_re_renders_its_rule_broken(tmp_path: Path, capsys) -> None:
    _, data = run(tmp_path)
    stored = tmp_path / "r.json"
    capsys.readouterr()
    assert main(["conformance", "report", "--from", str(stored), "--format", "markdown"]) == 0
    assert "**rule broken** [`CL.D2.EFFECT`]" in capsys.readouterr().out


def test_the_site_shows_the_rule_broken_before_the_other_rules(tmp_path: Path) -> None:
    run(tmp_path)
    site = tmp_path / "site"
    assert main(["conformance", "site", "--from", str(tmp_path / "r.json"), "--output",
                 str(site), "--no-search"]) == 0
    page = (site / "r.html").read_text()
    broken = page.index('<p class="rule broken">rule broken ')
    assert "(it governs hand_sizes.1)" in page[broken:broken + 400]
    assert broken < page.index("CL.D2.NO-STACK") < page.index('data-clause="classic-br:play:10"')
    # the broken rule's clause right under the rules, the scenario's own after it, once each
    assert page.index('data-clause="wiki-br:official:21"') < \
        page.index('data-clause="classic-br:play:10"')
    assert page.count('data-clause="wiki-br:official:21"') == 1


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_naming_the_rules_broken_still_writes_the_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        signum: int) -> None:
    """A signal during the blame phase (after every scenario was judged) used to end the
    command without the report it was asked for: the report is written with every result, the
    failures blamed so far keep their rule, it says it was interrupted, exit 128 + signal."""
    import conformance.blame

    def blame_then_signal(results: list, scenarios: list) -> int:
        results[0].broken = {"kind": "observation", "what": "hand_sizes", "decision": "play",
                             "rule": "CL.D2.EFFECT", "observations": {}}
        os.kill(os.getpid(), signum)
        time.sleep(10)  # the signal arrives here
        raise AssertionError("the signal was not delivered")

    monkeypatch.setattr(conformance.blame, "blame_failures", blame_then_signal)
    started = time.monotonic()
    code, data = run(tmp_path)
    assert time.monotonic() - started < 8
    name = signal.Signals(signum).name
    assert code == 128 + signum
    assert data["interrupted"] is True and data["signal"] == name and data["ok"] is False
    assert data["not_run"] == 0 and data["summary"]["failed"] == 1
    (r,) = data["results"]
    assert r["broken"]["rule"] == "CL.D2.EFFECT"
    assert data["warnings"][0] == (f"interrupted by {name} while naming the rules broken: "
                                   "every scenario judged, 1 of 1 failure(s) given the rule "
                                   "broken")
    jsonschema.validate(data, SCHEMA)
    err = capsys.readouterr().err
    assert f"interrupted by {name} while naming the rules broken" in err


NO_CROSS = """\
scenarios:
- id: mine.stack.no-cross-listed
  title: after a Wild Draw Four, with stacking, a Draw Two is not listed
  ruleset: classic-official+stacking
  cites: ['wiki-br:two-player:5', 'guide-br:stacking:3']
  rules: [V.STACK.NO-CROSS]
  features: [basic-play, wd4, action-cards, stacking]
  setup:
    players: 2
    dealer: 1
    current: 0
    direction: clockwise
    hands: {0: [W4, Y3], 1: [RD2, B9]}
    discard: [B6]
    active_color: blue
    draw: [G1, G2, G3, G4]
  steps:
  - act: {player: 0, play: W4, color: green}
  - expect:
      legal_actions: [{player: 1, challenge: true}, {player: 1, challenge: false}]
"""


def test_a_card_only_the_implementation_lists_is_named_by_the_references_refusal(
        tmp_path: Path) -> None:
    """An implementation that lists a Draw Two on a Wild Draw Four with stacking on (the
    planted bug `stack-cross`) breaks V.STACK.NO-CROSS, the rule the reference refuses that
    play by there, not the base matching rule: in the signature and in the rule of the
    `legal_actions` observation alike."""
    import shlex
    import sys

    mutant = Path(__file__).resolve().parent / "fixtures" / "mutant_serve.py"
    adapter = f"stdio:{shlex.quote(sys.executable)} {shlex.quote(str(mutant))} stack-cross"
    code, report = run(tmp_path, "--adapter", adapter, text=NO_CROSS)
    assert code == 1
    (result,) = report["results"]
    assert result["outcome"] == "failed"
    assert result["mismatches"][0]["observed"] == {"listed": [{"player": 1, "play": "RD2"}]}
    broken = result["broken"]
    assert (broken["what"], broken["rule"]) == ("legal_actions", "V.STACK.NO-CROSS")
    assert broken["observations"] == {"legal_actions": "V.STACK.NO-CROSS"}
    # and the reference passes it
    code, report = run(tmp_path, text=NO_CROSS)
    assert code == 0 and report["results"][0]["outcome"] == "passed"
