"""Sub-commands of this package for the `uno-fsm` CLI (see uno_cli.main).

    uno-fsm conformance run     [PATHS...] [--adapter A] [filters] [--format F] [--output FILE]
    uno-fsm conformance lint    [PATHS...] [--strict] [--format text|json]
    uno-fsm conformance report  --from results.json [--format F] [--output FILE]
    uno-fsm conformance serve   [--adapter A]
    uno-fsm conformance diff    --adapter A [--minutes M | --examples K] ... (diff_cli.py)

Exit codes of `run`: 0 when nothing unexpected happened (passed, xfailed, unsupported);
1 when a scenario failed, errored or xpassed; 2 for usage errors (bad scenario files, an
unknown adapter, an unreadable expectation file).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

# conformance.reports.FORMATS, spelled out so that building the parser imports neither the
# reports nor rich (`conformance serve` starts fast); a test checks that both agree.
FORMATS = ("console", "json", "junit", "markdown")


def register(sub: Any) -> None:  # sub: argparse._SubParsersAction
    """Add this package's sub-commands to the top-level parser."""
    conf = sub.add_parser("conformance", help="run, lint and report the conformance suite",
                          description="The conformance suite: scenarios citing the rulebooks, "
                          "played against any implementation through an adapter.")
    csub = conf.add_subparsers(dest="conformance_command", metavar="SUBCOMMAND")
    conf.set_defaults(handler=lambda _a: (conf.print_help(), 2)[1])

    run = csub.add_parser("run", help="play scenarios against an implementation",
                          formatter_class=argparse.RawDescriptionHelpFormatter,
                          epilog="exit status: 0 nothing unexpected (passed, xfailed, "
                          "unsupported); 1 failed, errored or xpassed; 2 usage error")
    run.add_argument("paths", nargs="*", type=Path,
                     help="scenario files or directories (default: the bundled corpus)")
    run.add_argument("--adapter", default="reference",
                     help="reference (default) | rlcard | stdio:'<command line>' | "
                     "module:package.module:Class")
    run.add_argument("--id", action="append", default=[], metavar="GLOB",
                     help="scenario id glob (repeatable)")
    run.add_argument("--ruleset", action="append", default=[], metavar="GLOB")
    run.add_argument("--feature", action="append", default=[], metavar="GLOB")
    run.add_argument("--rule", action="append", default=[], metavar="GLOB")
    run.add_argument("--clause", action="append", default=[], metavar="GLOB")
    run.add_argument("--timeout", type=float, default=10.0,
                     help="seconds per scenario (default 10)")
    run.add_argument("--expectations", type=Path, metavar="FILE",
                     help="expectation file (default: conformance/expectations/<impl>.yaml)")
    run.add_argument("--no-expectations", action="store_true",
                     help="ignore expectation files")
    run.add_argument("--implementation", metavar="NAME",
                     help="implementation name used to find its expectation file")
    _output_args(run)
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    run.set_defaults(handler=cmd_run)

    lint = csub.add_parser("lint", help="check the corpus: schema, ids, citations, coverage")
    lint.add_argument("paths", nargs="*", type=Path)
    lint.add_argument("--strict", action="store_true",
                      help="rules without a scenario are errors, not warnings")
    lint.add_argument("--format", choices=("text", "json"), default="text")
    lint.set_defaults(handler=cmd_lint)

    rep = csub.add_parser("report", help="re-render a JSON report")
    rep.add_argument("--from", dest="source", type=Path, required=True, metavar="FILE")
    _output_args(rep)
    rep.set_defaults(handler=cmd_report)

    srv = csub.add_parser("serve", help="expose an adapter over stdin/stdout (uno-conformance/1)")
    srv.add_argument("--adapter", default="reference",
                     help="reference (default) | rlcard | module:package.module:Class")
    srv.set_defaults(handler=cmd_serve)

    from conformance.compliance import register as register_compliance

    register_compliance(csub)  # uno-fsm conformance compliance (conformance/compliance.py)

    from conformance.diff_cli import register as register_diff

    register_diff(csub)  # uno-fsm conformance diff (conformance/diff_cli.py)


def _output_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, default="console")
    p.add_argument("--output", "-o", type=Path, metavar="FILE", help="write the report here")


def _err(message: str) -> None:
    print(f"uno-fsm conformance: {message}", file=sys.stderr)


def write_file(path: Path, text: str) -> str | None:
    """Write `text` to `path` (parents created); the problem in one line if it cannot be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        return f"{path}: cannot write: {exc.strerror or exc}"
    return None


def _emit(data: dict[str, Any], fmt: str, output: Path | None) -> bool:
    """Render the report; False (after saying why) when the output file cannot be written."""
    from rich.console import Console

    from conformance import reports

    if fmt == "console" and output is None:
        reports.render_console(data, Console())
        return True
    text = reports.render(data, fmt)
    if output is None:
        sys.stdout.write(text)
    elif (problem := write_file(output, text)) is not None:
        _err(problem)
        return False
    reports.render_console(data, Console(stderr=True))
    return True


def cmd_run(args: argparse.Namespace) -> int:
    from conformance import expectations as exp
    from conformance import reports
    from conformance.adapters import AdapterSpecError, resolve
    from conformance.runner import Runner
    from conformance.scenario import Filters, load_corpus

    corpus = load_corpus(args.paths or None)
    if corpus.errors:
        for e in corpus.errors:
            _err(str(e))
        _err(f"{len(corpus.errors)} scenario file error(s); fix them (see `conformance lint`)")
        return 2
    filters = Filters(tuple(args.id), tuple(args.ruleset), tuple(args.feature),
                      tuple(args.rule), tuple(args.clause))
    scenarios = filters.apply(corpus.scenarios)
    if not args.timeout > 0:
        _err(f"--timeout must be a positive number of seconds, not {args.timeout:g}")
        return 2
    try:
        spec = resolve(args.adapter, timeout=args.timeout)
    except AdapterSpecError as exc:
        _err(str(exc))
        return 2
    expectations = exp.Expectations()
    if not args.no_expectations:
        path = args.expectations
        name = args.implementation or spec.implementation
        if path is None and name:
            path = exp.default_path(name)
        if path is not None:
            try:
                expectations = exp.load(path)
            except (exp.ExpectationsError, OSError) as exc:
                _err(str(exc))
                return 2
    bar = None
    if not args.no_progress and sys.stderr.isatty():
        bar = reports.ProgressBar()
    runner = Runner(spec.factory, adapter_name=spec.spec, timeout=args.timeout,
                    expectations=expectations, on_start=bar.start if bar else None,
                    on_result=bar.advance if bar else None)
    try:
        report = runner.run(scenarios)
    finally:
        if bar:
            bar.stop()
    data = reports.to_json(report)
    if not _emit(data, args.format, args.output):
        return 2
    return reports.exit_code(data)


def cmd_lint(args: argparse.Namespace) -> int:
    from conformance.lint import lint

    res = lint(args.paths or None)
    if args.format == "json":
        print(json.dumps({"scenarios": res.scenarios, "errors": res.errors,
                          "warnings": res.warnings, "uncovered": res.uncovered,
                          "ok": res.ok(args.strict)}, indent=2))
    else:
        for e in res.errors:
            print(f"error: {e}")
        label = "error" if args.strict else "warning"
        for w in res.warnings:
            print(f"{label}: {w}")
        print(f"{res.scenarios} scenarios, {len(res.errors)} error(s), "
              f"{len(res.uncovered)} rule(s) of the base rulesets without a scenario")
    return 0 if res.ok(args.strict) else 1


def cmd_report(args: argparse.Namespace) -> int:
    from rich.console import Console

    from conformance import reports

    try:
        data = reports.load_json(args.source.read_text(encoding="utf-8"))
    except (OSError, reports.ReportError) as exc:
        _err(f"{args.source}: {exc}")
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
    from conformance.serve import serve_stdio

    try:
        spec = resolve(args.adapter)
        adapter = spec.factory()
    except AdapterSpecError as exc:
        _err(str(exc))
        return 2
    code = serve_stdio(adapter)
    # The adapter's close() has run and every answer is written: leave at once, without the
    # interpreter's teardown (tens of milliseconds that the runner would spend waiting).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
