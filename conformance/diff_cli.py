"""`uno-fsm conformance diff`: differential fuzzing against the reference (docs/differential.md).

    uno-fsm conformance diff --adapter ADAPTER [--ruleset R] [--players N] [--start KIND]
        [--minutes M | --examples K] [--groups N] [--shrink-seconds S] [--reduce-seconds S]
        [--seed S] [--format console|json|markdown]
        [--output FILE] [--write-scenarios DIR] [--timeout S] [--memory-limit MiB]
        [--database DIR | --no-database]

Exit status: 0 no divergence, 1 divergences found, 2 usage error or a failing oracle; 130, 143,
129 when stopped by SIGINT, SIGTERM, SIGHUP (the report of what was found so far is written).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from conformance.adapters import adapter_names
from conformance.cli import memory_limit_bytes, memory_limit_option, timeout_option
from conformance.divergence import BATCH, REDUCE_SECONDS, SHRINK_SECONDS, STARTS
from uno_spec.files import path_option
from uno_spec.options import RULESETS, non_negative_number, positive_number

FORMATS = ("console", "json", "markdown")
DEFAULT_EXAMPLES = 200
REPORT_FORMAT = "uno-conformance-diff/1"


def register(csub: Any) -> None:  # csub: the `conformance` sub-parsers
    p = csub.add_parser(
        "diff", help="differential fuzzing: an implementation against the reference engine",
        description="Play the implementation and the reference engine through the same random "
        "positions and actions (Hypothesis), compare what both observe, and shrink every "
        "divergence to a scenario citing the broken rule.",
        epilog="exit status: 0 no divergence; 1 divergences found; 2 usage error; 130/143/129 "
        "interrupted by SIGINT/SIGTERM/SIGHUP (the report of what was found so far is "
        "written)")
    p.add_argument("--adapter", required=True,
                   help=f"the implementation: {adapter_names()}")
    p.add_argument("--oracle", default="reference-oracle",
                   help="the adapter used as the oracle (default: reference-oracle, the "
                   "reference engine)")
    p.add_argument("--ruleset", action="append", default=[],
                   help="ruleset to fuzz (repeatable; default classic-official, else the "
                   f"implementation's first): {RULESETS}")
    p.add_argument("--players", type=int, help="player count (default: 2..8 at random)")
    p.add_argument("--start", action="append", default=[], choices=STARTS, metavar="START",
                   help="fuzz only this kind of start position (repeatable; default every "
                   f"one the implementation takes): {', '.join(STARTS)}")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=positive_number, help="fuzz for this long")
    budget.add_argument("--examples", type=int,
                        help=f"fuzz this many examples (default {DEFAULT_EXAMPLES})")
    p.add_argument("--groups", type=int, metavar="N",
                   help="stop fuzzing once N groups are found (within the budget)")
    p.add_argument("--shrink-seconds", type=non_negative_number, metavar="S",
                   default=SHRINK_SECONDS, help="Hypothesis' shrinking, at most this long per "
                   f"run of {BATCH} examples (default {SHRINK_SECONDS:g}; 0: none)")
    p.add_argument("--reduce-seconds", type=positive_number, metavar="S",
                   default=REDUCE_SECONDS, help="each reduction (of up to two examples a "
                   f"group), at most this long (default {REDUCE_SECONDS:g})")
    p.add_argument("--seed", type=int, help="seed of the first run (default: random)")
    p.add_argument("--format", choices=FORMATS, default="console",
                   help="the report: console (default), json or markdown")
    p.add_argument("--output", "-o", type=path_option, metavar="FILE", help="write the report here")
    p.add_argument("--write-scenarios", type=path_option, metavar="DIR",
                   help="write one scenario per divergence group into DIR")
    timeout_option(p, "request to the implementation")
    memory_limit_option(p)
    db = p.add_mutually_exclusive_group()
    db.add_argument("--database", type=path_option, metavar="DIR",
                    help="Hypothesis example database (default .hypothesis/diff/<name>)")
    db.add_argument("--no-database", action="store_true", help="no example database")
    p.add_argument("--no-progress", action="store_true", help="no progress display on stderr")
    p.set_defaults(handler=cmd_diff)


def _err(message: str) -> int:
    from uno_spec.encoding import terminal_line

    print(f"uno-fsm conformance diff: {terminal_line(message)}", file=sys.stderr)
    return 2


def _check(args: argparse.Namespace) -> str | None:
    """What is wrong with the options, checked before any adapter starts: the numbers, and the
    paths (the report, the scenario folder and the example database usable, and none of them
    over another: uno_spec.files)."""
    from conformance.cli import clash, output_problem
    from uno_spec.files import directory_problem

    if args.players is not None and not 2 <= args.players <= 10:
        return f"--players must be 2..10, not {args.players}"
    if args.examples is not None and args.examples < 1:
        return f"--examples must be at least 1, not {args.examples}"
    if args.groups is not None and args.groups < 1:
        return f"--groups must be at least 1, not {args.groups}"
    if args.write_scenarios is not None and \
            (problem := directory_problem(args.write_scenarios, "--write-scenarios")):
        return problem
    if args.database is not None and (problem := directory_problem(args.database,
                                                                   "--database")):
        return problem
    if (problem := output_problem(args.output)) is not None:
        return problem
    inside = [("--output", args.output)] if args.output is not None else []
    for folder, what in ((args.database, "the example database (--database)"),
                         (args.write_scenarios, "the scenario folder (--write-scenarios)")):
        if folder is not None and args.output is not None and \
                Path(args.output).resolve().is_relative_to(Path(folder).resolve()):
            return f"{args.output}: --output is inside {what}; write the report elsewhere"
    return clash(inside + [("--write-scenarios", args.write_scenarios)],
                 [("the example database (--database)", args.database)])


def cmd_diff(args: argparse.Namespace) -> int:
    from conformance.adapters import AdapterSpecError, resolve
    from conformance.diff import Differ, DiffError
    from conformance.diff_scenarios import slug, write_all

    problem = _check(args)
    if not problem and args.database is not None:  # the options are good: made now
        from uno_spec.files import database_problem

        problem = database_problem(args.database, "--database")
    if problem:
        return _err(problem)
    try:
        impl = resolve(args.adapter, timeout=args.timeout,
                       memory_limit=memory_limit_bytes(args))
    except AdapterSpecError as exc:
        return _err(f"--adapter: {exc}")
    try:
        oracle = resolve(args.oracle, timeout=args.timeout,
                         memory_limit=memory_limit_bytes(args))
    except AdapterSpecError as exc:
        return _err(f"--oracle: {exc}")
    players = (args.players, args.players) if args.players else (2, 8)
    progress = _Progress() if not args.no_progress and sys.stderr.isatty() else None
    try:
        differ = Differ(oracle.factory, impl.factory, adapter_name=impl.spec,
                        rulesets=args.ruleset, players=players, timeout=args.timeout,
                        starts=args.start, shrink_seconds=args.shrink_seconds,
                        reduce_seconds=args.reduce_seconds,
                        on_progress=progress.update if progress else None)
        name = impl.implementation or str(differ.implementation.get("name", "impl"))
        database = None if args.no_database else str(
            args.database or Path(".hypothesis") / "diff" / slug(name))
        seed = args.seed if args.seed is not None else random.randrange(2**32)
        examples = None if args.minutes is not None else (args.examples or DEFAULT_EXAMPLES)
        try:
            wanted = args.groups
            report = differ.run(examples=examples, minutes=args.minutes, seed=seed,
                                database=database,
                                until=None if wanted is None else
                                lambda found: len(found) >= wanted)
        finally:
            if progress:
                progress.stop()
    except DiffError as exc:
        return _err(str(exc))
    data = to_json(report, seed)
    written: list[Path] = []
    if args.write_scenarios is not None:
        try:
            written = write_all(report.groups, name, args.write_scenarios)
        except OSError as exc:
            return _err(f"{args.write_scenarios}: cannot write: {exc.strerror or exc}")
        data["scenarios_written"] = [str(p) for p in written]
        if len(written) < len(report.groups):
            data["warnings"].append(f"{len(report.groups) - len(written)} group(s) without a "
                                    "rule that cites a clause: no scenario written for them")
    text = render(data, args.format)
    if args.output is not None:
        from conformance.cli import write_file

        if (problem := write_file(args.output, text)) is not None:  # atomic (uno_spec.files)
            return _err(problem)
        if args.format != "console":
            sys.stderr.write(render(data, "console"))
    else:
        sys.stdout.write(text)
    if report.interrupted:  # the programs are ended; the report holds what was found
        import signal

        _err(f"{interruption(data)}; exit status 128 + signal number")
        return 128 + int(signal.Signals[report.interrupted])
    return 0 if report.ok else 1


def interruption(data: dict[str, Any]) -> str:
    """`interrupted by SIGTERM during reduction: 2 group(s) confirmed, 3 not confirmed`."""
    cut = data["interrupted"]
    return (f"interrupted by {cut['signal']} during {cut['during']}: {len(data['groups'])} "
            f"group(s) confirmed, {len(data['unconfirmed'])} found but not confirmed")


def to_json(report: Any, seed: int) -> dict[str, Any]:
    from conformance import specdata

    s = report.stats
    statements = specdata.rules()
    exercised = sorted(r for r in report.coverage if r in set(report.rules_in_scope))
    fuzz = max(report.fuzz_seconds, 1e-9)
    return {
        "format": REPORT_FORMAT,
        "summary": {"divergences": sum(c for _d, c in report.groups + report.unconfirmed),
                    "groups": len(report.groups), "dropped": len(report.dropped),
                    "unconfirmed": len(report.unconfirmed),
                    "examples": s.examples, "steps": s.steps,
                    "illegal_steps": s.illegal, "unsupported": s.unsupported,
                    "out_of_scope": s.out_of_scope, "resyncs": s.resyncs,
                    "shuffles": s.shuffles, "resumed": s.resumed, "stalled": s.stalled,
                    "seconds": round(report.duration, 3),
                    "fuzz_seconds": round(report.fuzz_seconds, 3),
                    "steps_per_second": round(s.steps / fuzz, 1)},
        "implementation": report.implementation, "adapter": report.adapter, "seed": seed,
        "rulesets": report.rulesets, "starts": report.starts, "compared": report.compared,
        "players": list(report.players),
        "coverage": {"rules_in_scope": len(report.rules_in_scope),
                     "exercised": len(exercised),
                     "steps_per_rule": {r: report.coverage[r] for r in exercised},
                     "not_exercised": [r for r in report.rules_in_scope
                                       if r not in report.coverage]},
        "warnings": report.warnings,
        "groups": [_group(d, c, report, statements) for d, c in report.groups],
        "dropped": [{"signature": x.signature.to_json(), "count": x.count, "reason": x.reason}
                    for x in report.dropped],
        "unconfirmed": [{"kind": d.kind, "signature": d.signature.to_json(),
                         "group": d.key.to_json(), "count": c, "size": _size(d),
                         "why": "found, not reduced nor confirmed: the run was interrupted",
                         "example": d.to_json()} for d, c in report.unconfirmed],
        **({"interrupted": {"signal": report.interrupted, "during": report.interrupted_during}}
           if report.interrupted else {}),
    }


def _size(d: Any) -> dict[str, int]:
    return {"players": d.players, "cards_in_hands": d.cards_in_hands, "steps": len(d.steps),
            "draw_pile": len(d.setup.get("draw") or [])}


def _group(d: Any, count: int, report: Any, statements: dict[str, Any]) -> dict[str, Any]:
    from conformance.diff_scenarios import rules_of
    from conformance.reduce import above_target

    how = report.reductions.get(d.key)
    out = {"kind": d.kind, "signature": d.signature.to_json(), "group": d.key.to_json(),
           "rule_statement": getattr(statements.get(d.signature.rule), "statement", ""),
           "rules": list(d.rules), "count": count, "size": _size(d),
           "reduction": how.to_json() if how is not None else None,
           "shown_as": [{"decision": dec, "rule": rule, "count": n} for (dec, rule), n
                        in report.shown.get(d.key, Counter()).most_common()],
           "first_found_seconds": round(report.first_found[d.key], 3),
           "scenario_rules": rules_of(d), "example": d.to_json()}
    if (why := above_target(d, how)) is not None:
        out["above_target"] = why
    return out


def render(data: dict[str, Any], fmt: str) -> str:
    """The report in `fmt`; every text an implementation sent (its name, a divergence's message)
    encoded for the context (uno_spec.encoding: Markdown escaped, terminal controls escaped;
    JSON strict, uno_spec.files.json_text)."""
    from uno_spec.encoding import markdown, markdown_code, terminal_line
    from uno_spec.files import json_text

    if fmt == "json":
        return json_text(data) + "\n"
    s = data["summary"]
    impl = data["implementation"]
    title = f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
    cov = data["coverage"]
    head = (f"{s['examples']} examples, {s['steps']} steps ({s['illegal_steps']} illegal) in "
            f"{s['fuzz_seconds']:.1f}s: {s['steps_per_second']:.0f} steps/s; "
            f"{s['divergences']} divergence(s) in {s['groups']} group(s), each reduced and "
            f"confirmed ({s['seconds']:.1f}s in all); {s['dropped']} group(s) dropped as not "
            f"reproducible; {cov['exercised']} of {cov['rules_in_scope']} rules exercised")
    if fmt == "markdown":
        out = [f"# Differential fuzzing: {markdown(title)}", "",
               f"Adapter {markdown_code(data['adapter'])}, seed {data['seed']}, rulesets "
               f"{markdown(', '.join(data['rulesets']))}, starts "
               f"{markdown(', '.join(data['starts']))}.", "", markdown(head) + ".", ""]
        if data["groups"]:
            out += ["| kind | what differs | decision | rule broken | count | players / cards "
                    "in hands / steps | first found (s) | what |",
                    "|---|---|---|---|---:|---|---:|---|"]
            for g in data["groups"]:
                sig, size = g["signature"], g["size"]
                out.append(f"| {markdown(g['kind'])} | {markdown(sig['what'] or '-')} | "
                           f"{markdown(sig['decision'])} | {markdown(sig['rule'] or '-')} | "
                           f"{g['count']} | {size['players']} / "
                           f"{size['cards_in_hands']} / {size['steps']} | "
                           f"{g['first_found_seconds']:.1f} | "
                           f"{markdown(g['example']['message'])} |")
            out.append("")
        if data.get("interrupted"):
            out += [f"**{markdown(interruption(data))}**: the groups above are confirmed; "
                    "those below were found and not confirmed.", ""]
        out += [f"- {markdown(g['signature']['what'] or '-')} "
                f"({markdown(g['group']['rule'] or '-')}), one deviation shown as: "
                f"{markdown(_shown(g))}" for g in data["groups"]
                if len(g.get("shown_as") or []) > 1]
        out += [f"- above the target: {markdown(g['signature']['what'] or '-')} "
                f"({markdown(g['signature']['rule'] or '-')}): {markdown(g['above_target'])}"
                for g in data["groups"] if g.get("above_target")]
        out += [f"- not confirmed ({u['count']} example(s)): "
                f"{markdown(_describe(u['signature']))}: {markdown(u['why'])}"
                for u in data.get("unconfirmed") or []]
        out += [f"- dropped ({d['count']} example(s)): {markdown(_dropped(d))}"
                f"{markdown(d['reason'])}"
                for d in data["dropped"]]
        out += [f"- warning: {markdown(w)}" for w in data["warnings"]]
        return "\n".join(out).rstrip() + "\n"
    out = [terminal_line(f"diff {title} ({data['adapter']}): {head}")]
    if data.get("interrupted"):
        out.append(terminal_line(f"  INTERRUPTED: {interruption(data)}"))
    for g in data["groups"]:
        sig, size = g["signature"], g["size"]
        out.append(terminal_line(
            f"  {g['count']:>5}  {g['kind']:<13} {sig['what'] or '-'} at a "
            f"{sig['decision']} decision, breaking {sig['rule'] or '-'} "
            f"({size['players']} players, {size['cards_in_hands']} cards in hands, "
            f"{size['steps']} step(s); first after {g['first_found_seconds']:.1f}s): "
            f"{g['example']['message']}"))
        if len(g.get("shown_as") or []) > 1:
            out.append(terminal_line(f"         shown as: {_shown(g)}"))
        if g.get("above_target"):
            out.append(terminal_line(f"         above the target: {g['above_target']}"))
    out += [terminal_line(f"  not confirmed ({u['count']}): {_describe(u['signature'])}: "
                          f"{u['why']}") for u in data.get("unconfirmed") or []]
    out += [terminal_line(f"  dropped ({d['count']}): {_dropped(d)}{d['reason']}")
            for d in data["dropped"]]
    out += [terminal_line(f"  warning: {w}") for w in data["warnings"]]
    out += [terminal_line(f"  wrote {p}") for p in data.get("scenarios_written", [])]
    return "\n".join(out) + "\n"


def _shown(group: dict[str, Any]) -> str:
    """`play (CL.SKIP.EFFECT) 12, play (CL.TWO.SKIP-AGAIN) 8`: how a group's divergences
    showed, by decision and rule."""
    return ", ".join(f"{s['decision']} ({s['rule'] or '-'}) {s['count']}"
                     for s in group["shown_as"])


def _dropped(d: dict[str, Any]) -> str:
    """`observation: top at a play decision (CL.X): ` of a dropped group, '' without one."""
    return f"{_describe(d['signature'])}: " if isinstance(d.get("signature"), dict) else ""


def _describe(sig: dict[str, str]) -> str:
    return (f"{sig['kind']}: {sig['what'] or '-'} at a {sig['decision']} decision"
            + (f" ({sig['rule']})" if sig["rule"] else ""))


class _Progress:
    """One status line on stderr, rewritten in place (steps, divergences, steps/s)."""

    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.shown = False

    def update(self, differ: Any) -> None:
        s = differ.stats
        line = (f"diff: {time.monotonic() - self.t0:6.1f}s  examples {s.examples}  steps "
                f"{s.steps}  divergences {differ.divergences}  "
                f"{s.rate():6.0f} steps/s")
        sys.stderr.write("\r" + line)
        sys.stderr.flush()
        self.shown = True

    def stop(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
