"""pytest plugin: every scenario of the corpus as a pytest test item (entry point `pytest11`).

    pytest --uno-adapter 'stdio:./my-uno --conformance' [--uno-ruleset GLOB]
           [--uno-expectations FILE] [--uno-corpus PATH] [--uno-timeout S]
           [--uno-memory-limit MiB]

Each scenario becomes an item named by its id (node id `uno-conformance::<id>`), so `-k`, `-x`,
`--lf` and `--junitxml` work as for any test; `-k` also matches a scenario's features and
ruleset. One `conformance.runner.Runner` serves the whole session, so the adapter (its program)
is started once and restarted only after it broke. A scenario listed in the expectation file is
`xfail(strict=True)` with the file's reason: it passing fails the run, as in `conformance run`.
An unsupported scenario is skipped with what the adapter lacks as the reason. A failure shows
the runner's message, expected against observed, the rule broken (conformance.blame) and the
rules and clauses, quoted.

Without `--uno-adapter` the plugin does nothing, and at start-up it imports nothing but pytest:
the conformance modules load only when a run asks for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conformance.runner import Result, Runner
    from conformance.scenario import Scenario

NAME = "uno-conformance"


def pytest_addoption(parser: pytest.Parser) -> None:
    from conformance.adapters import adapter_names

    group = parser.getgroup(NAME, "UNO conformance scenarios (uno-fsm)")
    group.addoption("--uno-adapter", metavar="ADAPTER", default=None,
                    help="collect the scenario corpus and play it against this adapter: "
                    f"{adapter_names()}")
    group.addoption("--uno-ruleset", action="append", default=[], metavar="GLOB",
                    help="only scenarios of these rulesets (repeatable; a GLOB has at most "
                    "200 characters, all of them together 20000)")
    group.addoption("--uno-expectations", type=_path, metavar="FILE", default=None,
                    help="expectation file: its known failures become xfail (strict)")
    group.addoption("--uno-corpus", action="append", type=_path, default=[], metavar="PATH",
                    help="scenario files or directories (repeatable; default: the bundled "
                    "corpus)")
    group.addoption("--uno-timeout", default="10", metavar="S",
                    help="seconds per scenario (default 10)")
    group.addoption("--uno-memory-limit", default=None, metavar="MiB",
                    help="cap on the data memory of each program the adapter starts, in MiB "
                    "(default: that of `uno-fsm conformance run --memory-limit`; 0: no cap)")


def _path(text: str) -> Path:
    """A path option: an empty value refused (uno_spec.files.path_option, imported only when
    the option is given: the plugin imports nothing at start-up)."""
    from uno_spec.files import path_option

    return path_option(text)


class ScenarioFailed(Exception):
    """A scenario failed (or errored): carries the report's JSON result."""

    def __init__(self, result: dict[str, Any]) -> None:
        super().__init__(result.get("message", ""))
        self.result = result


class _Session:
    """The run's state: the runner (made on first use), expectations, scenario order."""

    def __init__(self, config: pytest.Config) -> None:
        from conformance import expectations as exp
        from conformance.adapters import AdapterSpecError, resolve

        self.config = config
        timeout = _timeout(str(config.getoption("uno_timeout")))
        self.timeout = timeout
        try:
            self.spec = resolve(str(config.getoption("uno_adapter")), timeout=timeout,
                                memory_limit=_memory_limit(config.getoption("uno_memory_limit")))
        except AdapterSpecError as exc:
            raise pytest.UsageError(f"--uno-adapter: {exc}") from None
        from uno_spec.globs import glob_problem, total_problem

        rulesets = list(config.getoption("uno_ruleset"))
        for problem in [*map(glob_problem, rulesets), total_problem(rulesets)]:
            if problem is not None:
                raise pytest.UsageError(f"--uno-ruleset: {problem}")
        path = config.getoption("uno_expectations")
        _check_junitxml(config, path)
        from uno_spec.sitelinks import env_problem

        if (problem := env_problem()) is not None:  # the base of the failures' site links
            raise pytest.UsageError(problem)
        self.expectations = exp.Expectations()
        if path is not None:
            try:
                self.expectations = exp.load(path)
            except (exp.ExpectationsError, OSError) as exc:
                raise pytest.UsageError(f"--uno-expectations: {exc}") from None
        self.runner: Runner | None = None
        self.order: list[Scenario] = []
        self.position: dict[str, int] = {}
        self.collected: list[str] = []  # ids of every scenario collected (before -k)
        self.interrupted = False

    def get_runner(self) -> Runner:
        if self.runner is None:
            from conformance.runner import Runner

            self.runner = Runner(self.spec.factory, adapter_name=self.spec.spec,
                                 timeout=self.timeout)
        return self.runner

    def play(self, sc: Scenario) -> Result:
        from conformance.runner import PIPELINE_WINDOW

        i = self.position.get(sc.id, len(self.order))
        return self.get_runner().run_one(sc, self.order[i + 1:i + 1 + PIPELINE_WINDOW])

    def close(self) -> None:
        if self.runner is not None:
            if self.interrupted:  # Ctrl-C: the programs are killed, not asked to leave
                self.runner._kill()
            self.runner.close()


def _check_junitxml(config: pytest.Config, expectations: Path | None) -> None:
    """pytest's `--junitxml` must not name a scenario file or the expectation file the session
    reads (pytest would write its report over it at the end): a usage error before anything
    runs."""
    xml = getattr(config.option, "xmlpath", None)
    if not xml:
        return
    from conformance.cli import clash, scenario_inputs

    problem = clash([("--junitxml", Path(xml))],
                    [*scenario_inputs(list(config.getoption("uno_corpus")) or None),
                     ("the expectation file (--uno-expectations)", expectations)])
    if problem is not None:
        raise pytest.UsageError(problem)


def _timeout(text: str) -> float:
    """--uno-timeout in seconds, parsed as `conformance run --timeout` parses it."""
    import argparse

    from conformance.cli import MAX_TIMEOUT
    from uno_spec.options import seconds

    try:
        return seconds(MAX_TIMEOUT)(text)
    except argparse.ArgumentTypeError as exc:
        raise pytest.UsageError(f"--uno-timeout: {exc}") from None


def _memory_limit(text: str | None) -> int:
    """--uno-memory-limit in bytes, parsed as `conformance run --memory-limit` parses it."""
    import argparse

    from conformance.cli import MAX_MEMORY_LIMIT
    from conformance.supervisor import MEMORY_LIMIT, MIB
    from uno_spec.options import mebibytes

    if text is None:
        return MEMORY_LIMIT
    try:
        return mebibytes(MAX_MEMORY_LIMIT)(text) * MIB
    except argparse.ArgumentTypeError as exc:
        raise pytest.UsageError(f"--uno-memory-limit: {exc}") from None


_KEY = pytest.StashKey[_Session]()


_SESSIONS: list[_Session] = []  # pytest_keyboard_interrupt is not given the config


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("uno_adapter") is not None:
        config.stash[_KEY] = _Session(config)
        _SESSIONS.append(config.stash[_KEY])


def pytest_keyboard_interrupt(excinfo: pytest.ExceptionInfo[BaseException]) -> None:
    for state in _SESSIONS:
        state.interrupted = True


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_KEY, None)
    if state is not None:
        state.close()
        _SESSIONS.remove(state)


class ScenarioItem(pytest.Item):
    """One scenario; `runtest` plays it through the session's runner."""

    def __init__(self, *, scenario: Scenario, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.extra_keyword_matches.update([*scenario.features, scenario.ruleset])

    def runtest(self) -> None:
        from conformance.reports import result_json

        res = self.config.stash[_KEY].play(self.scenario)
        if res.status == "unsupported":  # the adapter's words: no terminal control characters
            from uno_spec.encoding import terminal_line

            pytest.skip(terminal_line(res.message or "unsupported"))
        if res.status != "passed":
            from conformance.blame import blame_failures

            blame_failures([res], [self.scenario])  # the rule broken, replayed on the reference
            raise ScenarioFailed(result_json(res))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            from conformance.reports import failure_lines
            from uno_spec.encoding import terminal_line  # a title or an adapter's words

            return "\n".join(map(terminal_line, failure_lines(excinfo.value.result)))
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return Path(self.scenario.file), self.scenario.line - 1, self.scenario.id


class ScenarioCorpus(pytest.Collector):
    """The scenario corpus (`--uno-corpus`, or the bundled one), filtered by `--uno-ruleset`."""

    def collect(self) -> list[ScenarioItem]:
        from conformance.scenario import Filters, load_corpus

        paths = list(self.config.getoption("uno_corpus")) or None
        rulesets = tuple(self.config.getoption("uno_ruleset"))
        corpus = load_corpus(paths, select=Filters(rulesets=rulesets))
        if corpus.errors:
            raise self.CollectError("\n".join(str(e) for e in corpus.errors))
        state = self.config.stash[_KEY]
        items = []
        for sc in corpus.scenarios:
            item = ScenarioItem.from_parent(self, name=sc.id, scenario=sc)
            entry = state.expectations.lookup(sc.id)
            if entry is not None:
                item.add_marker(pytest.mark.xfail(reason=entry.reason, strict=True,
                                                  raises=ScenarioFailed))
            items.append(item)
        state.collected = [i.name for i in items]
        return items


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Add the scenarios before -k, -m, --lf and --deselect select among the items."""
    if _KEY not in config.stash:
        return
    corpus = ScenarioCorpus.from_parent(session, name=NAME, nodeid=NAME)
    items.extend(session.genitems(corpus))


def pytest_collection_finish(session: pytest.Session) -> None:
    state = session.config.stash.get(_KEY, None)
    if state is None:
        return
    state.order = [i.scenario for i in session.items if isinstance(i, ScenarioItem)]
    state.position = {sc.id: n for n, sc in enumerate(state.order)}


def pytest_report_header(config: pytest.Config) -> str | None:
    state = config.stash.get(_KEY, None)
    if state is None:
        return None
    exp = f", expectations {state.expectations.file}" if state.expectations.file else ""
    return f"{NAME}: adapter {state.spec.spec}{exp}"


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    state = config.stash.get(_KEY, None)
    if state is None or not state.collected:
        return
    for entry in state.expectations.stale(state.collected):
        terminalreporter.write_line(f"{NAME}: stale expectation {entry.pattern!r} "
                                    f"(line {entry.line}): matches no scenario",
                                    yellow=True)
