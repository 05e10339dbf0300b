"""The pytest plugin (conformance/pytest_plugin.py, entry point `pytest11`): scenarios as items.

Runs pytest inside pytest (pytester) against the reference engine and against
`tests/fixtures/conformance/broken_reference.py`, which refuses every challenge answer and does
not declare `uno-catch`: which items fail and which are skipped is derived from the corpus.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

# Imported here, not first inside a pytester run: pytester drops the modules a run imported when
# it ends, and importing them again (libyaml's extension included) is slow. The engine too: the
# reference adapter (kept) remembers the engine's actions across runs, and a later run's engine,
# imported afresh, refused them as "not an action" (another class `Action`; the jump-in
# scenarios of test_k_selects_by_id_and_feature failed after test_reference_passes_the_whole_
# corpus in one process)
import conformance.adapters.reference  # noqa: F401
import conformance.reports  # noqa: F401
import conformance.runner  # noqa: F401
import uno_fsm.game  # noqa: F401
import uno_spec.loader  # noqa: F401
from conformance.scenario import Scenario, load_corpus

pytest_plugins = ["pytester"]

FIXTURES = Path(__file__).parent / "fixtures" / "conformance"
BROKEN = "module:broken_reference:NoChallengeAdapter"
ROOT = Path(__file__).resolve().parent.parent
WD4_CHALLENGE = ROOT / "conformance" / "corpus" / "classic" / "wd4-challenge.yaml"


@pytest.fixture
def broken(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """Makes the broken adapter importable, in this process and in a worker process."""
    pytester.syspathinsert(FIXTURES)
    monkeypatch.setenv("PYTHONPATH", str(FIXTURES))
    return pytester


@functools.cache
def corpus() -> list[Scenario]:
    c = load_corpus()
    assert not c.errors
    return c.scenarios


def broken_fails(sc: Scenario) -> bool:
    """Scenario fails against the broken adapter: a challenge answer expected other than
    refused as not-challengeable (the reference engine passes every scenario)."""
    return any(s.act is not None and "challenge" in s.act and s.error != "not-challengeable"
               for s in sc.steps)


def ids(reports: list[pytest.TestReport]) -> set[str]:
    return {r.nodeid.removeprefix("uno-conformance::") for r in reports}


def test_inert_without_adapter(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one="""
        def test_loaded(pytestconfig):
            assert pytestconfig.pluginmanager.has_plugin("uno-conformance")
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_start_up_imports_nothing_heavy() -> None:
    code = ("import sys, conformance.pytest_plugin as p; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('conformance', 'uno_fsm', 'uno_spec', 'rich', 'yaml', 'jsonschema', "
            "'statemachine')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['conformance', 'conformance.pytest_plugin']"


def test_reference_passes_the_whole_corpus(pytester: pytest.Pytester) -> None:
    rec = pytester.inline_run("--uno-adapter", "reference", "-p", "no:cacheprovider")
    passed, skipped, failed = rec.listoutcomes()
    assert (len(skipped), len(failed)) == (0, 0)
    assert ids(passed) == {sc.id for sc in corpus()}


def test_broken_adapter_fails_exactly_the_broken_scenarios(broken: pytest.Pytester) -> None:
    rec = broken.inline_run("--uno-adapter", BROKEN, "-p", "no:cacheprovider")
    passed, skipped, failed = rec.listoutcomes()
    scenarios = corpus()
    unsupported = {sc.id for sc in scenarios if "uno-catch" in sc.features}
    expected_failures = {sc.id for sc in scenarios if broken_fails(sc)} - unsupported
    assert len(expected_failures) > 20 and unsupported
    assert ids(failed) == expected_failures
    assert ids(skipped) == unsupported
    assert len(passed) == len(scenarios) - len(expected_failures) - len(unsupported)
    for rep in skipped:
        assert isinstance(rep.longrepr, tuple)
        assert "adapter does not declare feature(s) uno-catch" in rep.longrepr[2]
    rep = next(r for r in failed
               if r.nodeid == "uno-conformance::classic.wd4-challenge.guilty.full-turn")
    text = str(rep.longrepr)
    assert text.startswith("classic.wd4-challenge.guilty.full-turn: ")
    assert "  failed: action rejected with not-challengeable: broken on purpose" in text
    assert '  expected: "accepted"' in text
    # the rule broken first (the victim's right to challenge), with its clauses; the others
    assert "\n  rule broken: CL.WD4.CHALLENGE.DECISION (it governs whether the action is " \
        "accepted)\n" in text
    assert "\n      clause wiki-br:penalties:4: \u201c" in text and "\n          (" in text
    assert text.index("rule broken") < text.index("\n    rule CL.WD4.CHALLENGE.GUILTY: ")
    assert "\n    clause classic-br:" in text and "\n        (" in text  # original, English


def test_k_selects_by_id_and_feature(pytester: pytest.Pytester) -> None:
    rec = pytester.inline_run("--uno-adapter", "reference", "-p", "no:cacheprovider",
                              "-k", "wd4.challenge and not innocent")
    passed, skipped, failed = rec.listoutcomes()
    assert not skipped and not failed
    assert ids(passed) == {sc.id for sc in corpus()
                           if "wd4.challenge" in sc.id and "innocent" not in sc.id}
    rec = pytester.inline_run("--uno-adapter", "reference", "-p", "no:cacheprovider",
                              "-k", "jump-in", "--uno-ruleset", "classic-official*")
    passed = rec.listoutcomes()[0]
    assert ids(passed) == {sc.id for sc in corpus()
                           if sc.ruleset.startswith("classic-official")
                           and ("jump-in" in sc.features or "jump-in" in sc.ruleset
                                or "jump-in" in sc.id)}
    assert passed


def test_expectations_xfail_strict_and_stale(broken: pytest.Pytester) -> None:
    exp = broken.makefile(".yaml", expectations="""
        implementation: broken
        failures:
          - id: classic.wd4-challenge.guilty.full-turn
            reason: challenges refused on purpose
          - id: classic.wd4-challenge.wrong-player.own-*
            reason: listed but it passes
          - id: no.such.scenario
            reason: stale
    """)
    result = broken.runpytest("--uno-adapter", BROKEN, f"--uno-expectations={exp}",
                              f"--uno-corpus={WD4_CHALLENGE}", "-p", "no:cacheprovider",
                              "-rfxX", "-k", "guilty.full-turn or wrong-player.own-card")
    result.assert_outcomes(xfailed=1, failed=1)
    result.stdout.fnmatch_lines([
        "uno-conformance: stale expectation 'no.such.scenario' (line 7): matches no scenario",
        "*short test summary info*",
        "FAILED uno-conformance::classic.wd4-challenge.wrong-player.own-card*",
        "XFAIL uno-conformance::classic.wd4-challenge.guilty.full-turn - challenges refused on "
        "purpose",
    ])
    assert "[XPASS(strict)] listed but it passes" in result.stdout.str()
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_x_lf_and_junitxml(broken: pytest.Pytester) -> None:
    args = ["--uno-adapter", BROKEN, f"--uno-corpus={WD4_CHALLENGE}"]
    in_file = [sc for sc in load_corpus([WD4_CHALLENGE]).scenarios]
    failing = [sc.id for sc in in_file if broken_fails(sc)]
    assert len(failing) >= 2
    result = broken.runpytest(*args, "-x")
    result.assert_outcomes(failed=1, passed=[sc.id for sc in in_file].index(failing[0]))
    result = broken.runpytest(*args, "--lf", "--junitxml=out.xml")
    result.assert_outcomes(failed=1)  # -x stopped at the first: that one alone reruns
    cases = ET.parse(broken.path / "out.xml").getroot().iter("testcase")
    [case] = list(cases)
    assert (case.get("classname"), case.get("name")) == ("uno-conformance", failing[0])
    failure = case.find("failure")
    assert failure is not None and "not-challengeable" in (failure.text or "")


def _marked_processes(mark: str) -> list[int]:
    """Processes whose environment holds `mark` (they inherited it from this test)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            env = (proc / "environ").read_bytes()
        except OSError:
            continue
        if proc.name.isdigit() and mark.encode() in env and int(proc.name) != os.getpid():
            found.append(int(proc.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_stdio_adapter_stopped_after_x(broken: pytest.Pytester,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """`-x` ends the session early: the adapter's program is stopped all the same."""
    mark = f"UNO_PLUGIN_TEST={uuid.uuid4().hex}"
    monkeypatch.setenv("UNO_PLUGIN_TEST", mark.split("=")[1])
    serve = f"{sys.executable} -m uno_cli conformance serve --adapter {BROKEN}"
    result = broken.runpytest(f"--uno-adapter=stdio:{serve}", f"--uno-corpus={WD4_CHALLENGE}",
                              "-x", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    assert _marked_processes(mark) == []


@pytest.mark.parametrize("args, message", [
    (["--uno-adapter", "nope"], "ERROR: --uno-adapter: unknown adapter 'nope'"),
    (["--uno-adapter", "reference", "--uno-timeout", "0"],
     "ERROR: --uno-timeout: '0' is not greater than 0"),
    (["--uno-adapter", "reference", "--uno-timeout", "inf"],
     "ERROR: --uno-timeout: 'inf' is not a finite number"),
    (["--uno-adapter", "reference", "--uno-timeout", "1e300"],
     "ERROR: --uno-timeout: '1e300' is more than 86400 seconds"),
    (["--uno-adapter", "reference", "--uno-expectations", "missing.yaml"],
     "ERROR: --uno-expectations: *missing.yaml*"),
    (["--uno-adapter", "reference", "--uno-memory-limit", "-1"],
     "ERROR: --uno-memory-limit: -1 is negative (0 means no cap)"),
    (["--uno-adapter", "reference", "--uno-memory-limit", "lots"],
     "ERROR: --uno-memory-limit: not a whole number of MiB: 'lots'"),
    (["--uno-adapter", "reference", "--uno-ruleset", "classic*", "--uno-ruleset", "[" * 201],
     "ERROR: --uno-ruleset: a glob of 201 characters, more than 200"),
    (["--uno-adapter", "reference",
      *[arg for i in range(101) for arg in ("--uno-ruleset", "[" * 194 + f"{i:06d}")]],
     "ERROR: --uno-ruleset: 20200 characters of globs in all, more than 20000"),
])
def test_usage_errors(pytester: pytest.Pytester, args: list[str], message: str) -> None:
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message + "*"])


def test_a_hostile_site_url_in_the_environment_is_a_usage_error(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure quotes its rules with their links into the site: a $UNO_FSM_SITE_URL that
    would write more than a link is refused before any scenario runs."""
    monkeypatch.setenv("UNO_FSM_SITE_URL", "javascript:alert%281%29//")
    result = pytester.runpytest("--uno-adapter", "reference", "-p", "no:cacheprovider",
                                f"--uno-corpus={FIXTURES / 'scenarios' / 'harness.yaml'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "ERROR: $UNO_FSM_SITE_URL: 'javascript:alert%281%29//': a site's base is an http://, "
        "https:// or file:// URL, or a path; not a javascript: URL"])


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="needs /proc")
def test_memory_limit_reaches_the_program(pytester: pytest.Pytester) -> None:
    """The program (tests/fixtures/conformance/hostile_stdio.py --mode limits) writes its own
    data limit and exits: the failure quotes it."""
    program = f"{sys.executable} {FIXTURES / 'hostile_stdio.py'} --mode limits --seed 1"
    result = pytester.runpytest(f"--uno-adapter=stdio:{program}", "--uno-memory-limit=64",
                                f"--uno-corpus={FIXTURES / 'scenarios' / 'harness.yaml'}",
                                "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*(stderr: data limit: 67108864 *"])


def test_bad_scenario_file_is_a_collection_error(pytester: pytest.Pytester) -> None:
    bad = pytester.makefile(".yaml", bad="id: [unclosed\n")
    result = pytester.runpytest("--uno-adapter", "reference", f"--uno-corpus={bad}")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*ERROR collecting uno-conformance*", "*bad.yaml:*"])
