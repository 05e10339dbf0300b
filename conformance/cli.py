"""Sub-commands of this package for the `uno-fsm` CLI (see uno_cli.main).

    uno-fsm conformance run     [PATHS...] [--adapter A] [filters] [--format F] [--output FILE]
    uno-fsm conformance lint    [PATHS...] [--coverage] [--strict] [--format text|json]
    uno-fsm conformance report  --from results.json [--format F] [--output FILE]
    uno-fsm conformance serve   [--adapter A]
    uno-fsm conformance features | errors | rulesets [--format text|json|markdown]
    uno-fsm conformance site    [--from FILE_OR_DIR...] [--output DIR] [--no-search] [--markdown F]
    uno-fsm conformance diff    --adapter A [--minutes M | --examples K] ... (diff_cli.py)

Exit codes of `run`: 0 when nothing unexpected happened (passed, xfailed, unsupported);
1 when a scenario failed, errored or xpassed; 2 for bad input or usage (bad scenario files, a
filter that selects no scenario, an unknown adapter, an unreadable expectation file, an output
path that cannot be written), always in one line on stderr; 130 / 143 when stopped by SIGINT /
SIGTERM (the report of the scenarios judged so far is still written). Options and output paths
are checked before the corpus is loaded or any program started; reports are written atomically
(uno_spec.files).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from conformance.adapters import adapter_names
from conformance.supervisor import MEMORY_LIMIT, MIB
from uno_spec import sitelinks
from uno_spec.commands import Command, add_subcommands, process_started
from uno_spec.files import path_option
from uno_spec.globs import MAX_GLOB, MAX_GLOBS_TOTAL, glob_option
from uno_spec.options import RULESETS, mebibytes, seconds

# The longest --timeout (seconds): a day per scenario.
MAX_TIMEOUT = 86_400.0
# The largest --memory-limit (MiB): 1 TiB per process; more is no cap at all (0).
MAX_MEMORY_LIMIT = 1 << 20

# conformance.reports.FORMATS, spelled out so that building the parser imports neither the
# reports nor rich (`conformance serve` starts fast); a test checks that both agree.
FORMATS = ("console", "json", "junit", "markdown")


def register(sub: Any) -> None:  # sub: argparse._SubParsersAction
    """Add this package's sub-commands to the top-level parser."""
    conf = sub.add_parser("conformance", help="run, lint and report the conformance suite",
                          description="The conformance suite: scenarios citing the rulebooks, "
                          "played against any implementation through an adapter.")
    csub = conf.add_subparsers(dest="conformance_command", metavar="SUBCOMMAND")
    conf.set_defaults(handler=lambda _a: _choose(conf))

    run = csub.add_parser("run", help="play scenarios against an implementation",
                          epilog="With --output or a --format other than console, the "
                          "terminal gets only the summary (on stderr). After 3 failed starts "
                          "of the adapter in a row the run stops, with one line on stderr; "
                          "the scenarios not judged are errored in the report. A GLOB "
                          f"(--id, --ruleset, --feature, --rule, --clause) has at most {MAX_GLOB} "
                          f"characters, all of them together {MAX_GLOBS_TOTAL}. "
                          "Exit status: 0 nothing unexpected (passed, xfailed, "
                          "unsupported); 1 failed, errored or xpassed, or stopped after the "
                          "adapter had started; 2 bad input or usage (also: no scenario "
                          "selected, an adapter that never started)")
    run.add_argument("paths", nargs="*", type=path_option,
                     help="scenario files or directories (default: the bundled corpus)")
    run.add_argument("--adapter", default="reference",
                     help=adapter_names(default="reference"))
    run.add_argument("--id", action="append", default=[], metavar="GLOB", type=glob_option,
                     help="scenario id glob (repeatable)")
    run.add_argument("--ruleset", action="append", default=[], metavar="GLOB", type=glob_option,
                     help=f"scenarios of these rulesets (repeatable): {RULESETS}")
    run.add_argument("--feature", action="append", default=[], metavar="GLOB", type=glob_option,
                     help="scenarios needing a feature matching GLOB (repeatable; `conformance "
                     "features` lists them: wd4-challenge, 'flip*')")
    run.add_argument("--rule", action="append", default=[], metavar="GLOB", type=glob_option,
                     help="scenarios naming a rule matching GLOB (repeatable: 'CL.WD4.*'; "
                     "`uno-fsm rules search WORDS` finds rule ids)")
    run.add_argument("--clause", action="append", default=[], metavar="GLOB", type=glob_option,
                     help="scenarios citing a clause matching GLOB (repeatable: "
                     "'wiki-br:official:3*'; `uno-fsm rules show RULE` lists a rule's)")
    timeout_option(run, "scenario")
    memory_limit_option(run)
    run.add_argument("--expectations", type=path_option, metavar="FILE",
                     help="expectation file (default: conformance/expectations/<impl>.yaml)")
    run.add_argument("--no-expectations", action="store_true",
                     help="ignore expectation files")
    run.add_argument("--implementation", metavar="NAME",
                     help="implementation name used to find its expectation file")
    _output_args(run)
    run.add_argument("--quiet", "-q", action="store_true",
                     help="print only the one-line verdict (the bundled corpus on the reference: "
                     "`OK in 2.10s: N scenarios (N passed)`, N the scenarios run), no progress "
                     "bar; a --format document is still written")
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    run.set_defaults(handler=cmd_run)

    lint = csub.add_parser("lint", help="check the corpus: schema, ids, citations, coverage",
                           epilog="Errors are listed first, then the coverage warnings. "
                           "exit status: 0 clean; 1 rules without a scenario or phase edges no "
                           "scenario traverses (--strict); "
                           "2 scenario file errors")
    lint.add_argument("paths", nargs="*", type=path_option,
                      help="scenario files or directories (default: the bundled corpus)")
    lint.add_argument("--coverage", action="store_true",
                      help="list the rules of spec/ that no scenario names (the default for "
                      "the bundled corpus; with PATHS only when asked)")
    lint.add_argument("--strict", action="store_true",
                      help="rules without a scenario and phase edges no scenario traverses "
                      "are errors, not warnings (implies --coverage)")
    lint.add_argument("--format", choices=("text", "json"), default="text",
                      help="text (default: one line per problem, then the counts) or json")
    lint.set_defaults(handler=cmd_lint)

    rep = csub.add_parser("report", help="re-render a JSON report")
    rep.add_argument("--from", dest="source", type=path_option, required=True, metavar="FILE",
                     help="a JSON report written by `conformance run --format json`")
    _output_args(rep)
    rep.set_defaults(handler=cmd_report)

    srv = csub.add_parser("serve", help="expose an adapter over stdin/stdout (uno-conformance/2)")
    srv.add_argument("--adapter", default="reference",
                     help=adapter_names(default="reference", programs=False))
    srv.set_defaults(handler=cmd_serve)

    add_subcommands(csub, SUBCOMMANDS)


# The sub-commands other modules register, imported only when named (uno_cli.main.Command;
# tests/test_conformance_cli_startup.py checks each help line against its module's).
SUBCOMMANDS: tuple[Command, ...] = (
    Command("compliance", "conformance.compliance", "compliance page (Markdown) and expectation "
            "file of an implementation, from a JSON run report"),
    Command("features", "conformance.registries", "list every feature id: its meaning, what "
            "needs it, how many scenarios need it"),
    Command("errors", "conformance.registries", "list every error code and when it applies"),
    Command("rulesets", "conformance.registries", "list every ruleset and variant: what it is, "
            "what it applies to and conflicts with, its rules and scenarios"),
    Command("site", "conformance.site", "the rulebook site: rules, sources, rulings, scenarios, "
            "the compliance matrix and search, from spec/ and JSON run reports"),
    Command("diff", "conformance.diff_cli", "differential fuzzing: an implementation against "
            "the reference engine"),
)


def _choose(parser: argparse.ArgumentParser) -> int:
    """A command group named without its sub-command: one line, exit 2."""
    print(f"{parser.prog}: name a sub-command (see `{parser.prog} --help`)", file=sys.stderr)
    return 2


def timeout_option(p: argparse.ArgumentParser, what: str) -> None:
    """`--timeout SECONDS` (default 10), for every command that waits on an adapter: a
    positive finite number of at most MAX_TIMEOUT (`inf` or `1e300` would overflow the
    timers)."""
    p.add_argument("--timeout", type=seconds(MAX_TIMEOUT), default=10.0,
                   help=f"seconds per {what} (default 10; at most {MAX_TIMEOUT:g})")


def memory_limit_option(p: argparse.ArgumentParser) -> None:
    """`--memory-limit MiB`, for every command that starts adapter programs (`run`, `diff`,
    `compliance`); `args.memory_limit` is in MiB (bytes: `memory_limit_bytes(args)`)."""
    p.add_argument("--memory-limit", type=mebibytes(MAX_MEMORY_LIMIT),
                   default=MEMORY_LIMIT // MIB, metavar="MiB",
                   help="cap on the data memory (RLIMIT_DATA) of each program the adapter "
                   "starts and of each process it starts, in MiB; a program that allocates "
                   "past it crashes and its scenario is errored (Linux only; default "
                   f"{MEMORY_LIMIT // MIB}; 0: no cap)")


def memory_limit_bytes(args: argparse.Namespace) -> int:
    """The --memory-limit of these arguments in bytes (0: no cap)."""
    return int(args.memory_limit) * MIB


def _output_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, default="console",
                   help="console (default: the failures, then the summary), json (the source "
                   "of truth, re-rendered by `conformance report`), junit (for CI) or markdown")
    p.add_argument("--output", "-o", type=path_option, metavar="FILE", help="write the report here")
    sitelinks.add_option(p)  # the links of the failures' rules and clauses


def _err(message: str) -> None:
    """One line on stderr, its control characters escaped (it may quote a file or an
    adapter: uno_spec.encoding.terminal_line)."""
    from uno_spec.encoding import terminal_line

    print(f"uno-fsm conformance: {terminal_line(message)}", file=sys.stderr)


def clash(outputs: list[tuple[str, Path | None]],
          inputs: list[tuple[str, Path | None]]) -> str | None:
    """Why the outputs would overwrite an input of the command or each other (checked before
    anything runs: uno_spec.files.clash), or None."""
    from uno_spec.files import clash as check

    return check(outputs, inputs)


def scenario_inputs(paths: list[Path] | None) -> list[tuple[str, Path | None]]:
    """The scenario files (and directories) a run reads, as `clash` inputs: each path given,
    and every scenario file under the directories (the bundled corpus without paths)."""
    from conformance.scenario import ScenarioError, scenario_files

    given: list[tuple[str, Path | None]] = [("a scenario file of this run", p)
                                            for p in paths or ()]
    try:
        files = scenario_files(paths or None)
    except ScenarioError:  # too many files: loading says so in one line
        files = []
    return given + [("a scenario file of this run", p) for p in files]


def write_file(path: Path, text: str) -> str | None:
    """Write `text` to `path` atomically (parents created); the problem in one line if it
    cannot be (uno_spec.files.write_file)."""
    from uno_spec.files import write_file as write

    return write(path, text)


def output_problem(path: Path | None) -> str | None:
    """Why an output path cannot be written (checked before any work), or None."""
    from uno_spec.files import output_problem as problem

    return None if path is None else problem(path)


# The largest JSON report `report` and `compliance` read back (bytes).
MAX_REPORT_BYTES = 256 * 1024 * 1024


def read_report(path: Path) -> dict[str, Any]:
    """A JSON run report read back; ReportError (with the path) when it is not one."""
    from conformance import reports
    from uno_spec.files import InputError, read_text

    try:
        return reports.load_json(read_text(path, MAX_REPORT_BYTES))
    except InputError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise reports.ReportError(f"{where}: {exc.message}") from None
    except reports.ReportError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise reports.ReportError(f"{where}: {exc}") from None


def _emit(data: dict[str, Any], fmt: str, output: Path | None, quiet: bool) -> bool:
    """Render the report: the console report on stdout, or the document in `fmt` on stdout or
    in `output` and then only the summary (table and verdict) on stderr; with `quiet`, the
    one-line verdict instead of the console report or the summary. False (after saying why)
    when the output file cannot be written."""
    from conformance import reports

    to_stdout = fmt == "console" and output is None
    if not to_stdout:
        text = reports.render(data, fmt)
        if output is None:
            sys.stdout.write(text)
        elif (problem := write_file(output, text)) is not None:
            _err(problem)
            return False
    stream = sys.stdout if to_stdout else sys.stderr
    if quiet and not stream.isatty():  # the verdict for a log or a script: plain text, no rich
        print(reports.summary_line(data), file=stream)
        return True
    from rich.console import Console

    reports.render_console(data, Console(stderr=not to_stdout),
                           "line" if quiet else "full" if to_stdout else "summary",
                           show_stop=False)
    return True


def cmd_run(args: argparse.Namespace) -> int:
    from conformance import expectations as exp
    from conformance import reports
    from conformance.adapters import AdapterSpecError, resolve
    from conformance.runner import Runner
    from conformance.scenario import Filters, load_corpus
    from uno_spec.globs import total_problem

    if (problem := output_problem(args.output)) is not None:  # before anything runs
        _err(problem)
        return 2
    if (problem := total_problem([*args.id, *args.ruleset, *args.feature, *args.rule,
                                  *args.clause])) is not None:
        _err(f"--id, --ruleset, --feature, --rule, --clause: {problem}")
        return 2
    if args.implementation is not None and not args.implementation.strip():
        _err("--implementation is empty: name the implementation, or leave the option out")
        return 2
    try:
        spec = resolve(args.adapter, timeout=args.timeout,
                       memory_limit=memory_limit_bytes(args))
    except AdapterSpecError as exc:
        _err(str(exc))
        return 2
    expectations = exp.Expectations()
    path = None
    if not args.no_expectations:
        path = args.expectations
        name = args.implementation or spec.implementation
        if name is None:  # an adapter a knowledge file names (conformance/implementations/)
            from conformance.knowledge import by_adapter

            known = by_adapter(spec.spec)
            name = known.name if known else None
        if path is None and name:
            path = exp.default_path(name)
    from conformance.adapters import program_files

    problem = clash([("--output", args.output)],  # a report never replaces what the run reads
                    [*scenario_inputs(args.paths), ("the expectation file of this run", path),
                     *(("the adapter's program", p) for p in program_files(spec.spec))])
    if problem is not None:
        _err(problem)
        return 2
    if path is not None:
        try:
            expectations = exp.load(path)
        except (exp.ExpectationsError, OSError) as exc:
            _err(str(exc))
            return 2
    filters = Filters(tuple(args.id), tuple(args.ruleset), tuple(args.feature),
                      tuple(args.rule), tuple(args.clause))
    corpus = load_corpus(args.paths or None, select=filters)  # the others are not validated
    if corpus.errors:
        for e in corpus.errors:  # one line each; a count when there are several
            _err(str(e))
        if len(corpus.errors) > 1:
            _err(f"{len(corpus.errors)} scenario file errors; fix them (see `conformance lint`)")
        return 2
    scenarios = corpus.scenarios
    if not scenarios:
        _err(_nothing_selected(args, corpus.total))
        return 2
    from conformance.lint import duplicate_problems, registry_problems

    # a misspelt feature, rule, clause or error code would make a scenario `unsupported` or
    # wrong without a word: refused as lint refuses it (the ruleset and its parameters are
    # the loader's), and so is an id the bundled corpus already has
    problems = [p for sc in scenarios for p in registry_problems(sc)]
    problems += duplicate_problems(scenarios)
    if problems:
        for line in problems:
            _err(line)
        if len(problems) > 1:
            _err(f"{len(problems)} scenario errors; fix them (see `conformance lint`)")
        return 2
    bar = None
    if not args.no_progress and not args.quiet and sys.stderr.isatty():
        bar = reports.ProgressBar()
    runner = Runner(spec.factory, adapter_name=spec.spec, timeout=args.timeout,
                    expectations=expectations, on_start=bar.start if bar else None,
                    on_result=bar.advance if bar else None, adopt_orphans=True)
    try:
        report = runner.run(scenarios)
    finally:
        if bar:
            bar.stop()
    if report.interrupted is None:  # what each failure breaks, from the reference's replay
        _blame(report, scenarios)
    data = reports.to_json(report)
    data["duration"] = round(time.monotonic() - process_started(), 3)  # start-up included
    if not _emit(data, args.format, args.output, args.quiet):
        return 2
    if (stop := reports.stop_line(data)) is not None:  # the one line for a program that
        _err(stop)  # cannot be started (exit 2) or stopped starting (exit 1)
    if report.interrupted:  # the adapters are killed; the report holds what was judged
        _err(f"{report.warnings[0]}; exit status 128 + signal number")
        return 128 + int(signal.Signals[report.interrupted])
    return reports.exit_code(data)


def _blame(report: Any, scenarios: Any) -> None:
    """Name the rule each failure breaks (conformance.blame). A signal (SIGINT, SIGTERM,
    SIGHUP) stops it where it is: the report keeps every result, those blamed so far with
    their rule, and is marked interrupted like a run stopped early (exit 128 + the signal)."""
    from conformance import processes
    from conformance.blame import blame_failures

    try:
        with processes.interrupts():
            blame_failures(report.results, scenarios)
    except processes.Interrupted as sig:
        failing = [r for r in report.results if (r.outcome or r.status) in ("failed", "errored")]
        blamed = sum(1 for r in failing if r.broken is not None)
        report.interrupted = sig.name
        report.warnings.insert(0, f"interrupted by {sig.name} while naming the rules broken: "
                               f"every scenario judged, {blamed} of {len(failing)} failure(s) "
                               "given the rule broken")


def _nothing_selected(args: argparse.Namespace, loaded: int) -> str:
    """The one line for a filter that selects no scenario (a typo must not pass in CI)."""
    used = [f"--{name} {pattern}" for name in ("id", "ruleset", "feature", "rule", "clause")
            for pattern in getattr(args, name)]
    if not used:
        return f"no scenario to run ({loaded} loaded)"
    # the first few named (each glob is up to 200 characters: a hundred made a 20 kB line)
    more = f" and {len(used) - NAMED_FILTERS} more" if len(used) > NAMED_FILTERS else ""
    return f"no scenario matches {' '.join(used[:NAMED_FILTERS])}{more} (of {loaded} loaded)"


NAMED_FILTERS = 4  # filters named in the line of a run that selects nothing


def cmd_lint(args: argparse.Namespace) -> int:
    from conformance.lint import lint

    res = lint(args.paths or None, coverage=args.coverage or args.strict or not args.paths)
    if args.format == "json":
        checked = res.coverage_checked
        print(json.dumps({"scenarios": res.scenarios, "errors": res.errors,
                          "warnings": res.warnings,
                          "uncovered": res.uncovered if checked else None,
                          "coverage": {rs: {"rules": n, "uncovered": missing}
                                       for rs, (n, missing) in res.coverage.items()}
                          if checked else None,
                          "edges": {"reachable": res.edges_reachable,
                                    "exercised": res.edges_reachable - len(res.edges_missing),
                                    "missing": res.edges_missing,
                                    "unreachable": res.edges_unreachable}
                          if checked else None,
                          "ok": res.ok(args.strict)}, indent=2))
    else:
        from conformance import reports
        from uno_spec.encoding import terminal_line  # a file's name or text: no raw controls

        for e in res.errors:
            print(f"error: {terminal_line(e)}")
        label = "error" if args.strict else "warning"
        for w in res.warnings:
            print(f"{label}: {terminal_line(w)}")
        per = ", ".join(f"{rs} {len(missing)}/{n}" for rs, (n, missing) in res.coverage.items())
        coverage = (f"{len(res.uncovered)} rule(s) without a scenario"
                    + (f" (per ruleset, uncovered/rules: {per})" if per else "")) \
            if res.coverage_checked else "rule coverage not checked (--coverage)"
        if res.coverage_checked:
            coverage += (f"; phase edges exercised on the reference engine: "
                         f"{res.edges_reachable - len(res.edges_missing)}/{res.edges_reachable} "
                         f"reachable (not counted: {len(res.edges_unreachable)} that no shipped "
                         f"ruleset reaches, uno-fsm check)")
        print(f"{reports.scenarios(res.scenarios)}, {len(res.errors)} error(s), {coverage}")
    if res.errors:
        return 2
    return 0 if res.ok(args.strict) else 1


def cmd_report(args: argparse.Namespace) -> int:
    from rich.console import Console

    from conformance import reports

    if (problem := output_problem(args.output)
            or clash([("--output", args.output)], [("the report read with --from", args.source)])):
        _err(problem)
        return 2
    try:
        data = read_report(args.source)
    except reports.ReportError as exc:
        _err(str(exc))
        return 2
    if args.format == "console" and args.output is None:
        reports.render_console(data, Console())
        return 0
    text = reports.render(data, args.format)
    if args.output is None:
        sys.stdout.write(text)
    elif (problem := write_file(args.output, text)) is not None:
        _err(problem)
        return 2
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from conformance.adapters import AdapterSpecError, resolve
    from conformance.serve import RequestTooLong, protocol_stdout, serve_stdio

    out = protocol_stdout()  # before the adapter's module is imported: its prints go to stderr
    try:
        spec = resolve(args.adapter, isolate=False)  # this process is the worker
        adapter = spec.factory()
    except AdapterSpecError as exc:
        _err(str(exc))
        return 2
    except Exception as exc:  # noqa: BLE001 - the adapter's constructor: one line, no traceback
        _err(f"cannot start adapter {args.adapter}: {type(exc).__name__}: {exc}")
        return 2
    try:
        code = serve_stdio(adapter, out)
    except RequestTooLong as exc:  # answered `bad-request`; the rest of the input is not read
        print(f"uno-fsm conformance serve: {exc}", file=sys.stderr)
        code = 2
    # The adapter's close() has run and every answer is written: leave at once, without the
    # interpreter's teardown (tens of milliseconds that the runner would spend waiting).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
