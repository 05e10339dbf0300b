"""`uno-fsm bench`: engine, conformance runner and fuzzer speed (docs/performance.md).

    uno-fsm bench [--format text|json] [--repeat N] [--quick]
    uno-fsm bench --check [--baseline DIR] [--repeat N]   (uno_cli/bench_check.py)

One run measures, after a warm-up, `--repeat` repetitions of each workload and reports medians
(and, for game stepping, the spread):

- like-for-like game stepping (uno_cli/bench_games.py): the reference engine against RLCard's
  `UnoGame.step` and its bare round loop, set-up per game timed apart on both sides, the engine
  driven both by RLCard's policy (the like-for-like side) and at random, for classic-official
  with 2, 4 and 10 players, UNO Flip and a variants configuration (the engine alone);
- the conformance corpus through the reference adapter in process and over stdio
  (`conformance serve` in a subprocess), with the runner of `conformance run`;
- stateful fuzzing (`uno_fsm.fuzz`) for a fixed budget of examples and steps;
- differential fuzzing (`conformance diff`, the reference against itself) in process and over
  stdio, for a fixed number of examples (5 per fuzzing example) and seed;
- the peak memory (tracemalloc) of one full game.

The workloads are fixed (seeds, action and example counts), so two runs measure the same work.
A benchmark is a benchmark: nothing here is timed by the test suite (tests/test_bench.py checks
the output).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import os
import platform
import shlex
import signal
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uno_fsm
from uno_cli.bench_games import (
    HEADLINE,
    POLICIES,
    RLCARD_MISSING,
    Tally,
    bench_like_for_like,
    engine_games,
    rlcard_available,
    rlcard_step_games,
)
from uno_cli.bench_games import render_text as render_games
from uno_spec.files import path_option
from uno_spec.signals import Interrupted, raise_pending

RULESET = "classic-official"
FUZZ_RULESET = "classic-official"
FUZZ_PLAYERS = 4
FUZZ_STEPS_PER_EXAMPLE = 300  # the `long` profile's stateful_step_count
PACKAGES = ("uno-fsm", "python-statemachine", "PyYAML", "jsonschema", "hypothesis", "rich",
            "rlcard", "numpy")

# The figures of issue 16 (docs/performance.md): (done at, aimed at).
TARGET_STEP = (1.5, 2.0)  # engine actions/s over RLCard's `step`, like for like, 4 players
TARGET_ROUND_LOOP = (0.5, 1.0)  # over RLCard's bare round loop
TARGET_LOAD_S = 0.3  # load and validate the whole corpus
TARGET_FUZZ_STEPS_PER_S = 3000.0
# issue 22 item 5: `conformance diff` against RLCard, steps/s (shrinking excluded)
TARGET_DIFF_IN_PROCESS = 2000.0
TARGET_DIFF_STDIO = 1000.0


@dataclass(frozen=True)
class Sizes:
    repeat: int
    actions: int  # actions each side steps per repetition and configuration (whole games)
    fuzz_examples: int  # Hypothesis examples per fuzzing repetition


DEFAULT = Sizes(repeat=7, actions=20_000, fuzz_examples=6)
QUICK = Sizes(repeat=3, actions=4_000, fuzz_examples=2)
CHECK_REPEAT = 3  # `--check`: runs per side and configuration (each a child process)


ENGINE_BUILDS = {"python": "pure Python", "mypyc": "compiled by mypyc (the optional build)"}


# ---- machine -----------------------------------------------------------------------------
def machine_info() -> dict[str, Any]:
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": _cpu_model() or platform.processor(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "engine_build": "mypyc" if uno_fsm.compiled() else "python",
        "packages": versions,
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


# ---- timing helpers ----------------------------------------------------------------------
def _median(values: Sequence[float]) -> float:
    return float(statistics.median(values)) if values else 0.0


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    raise_pending()  # each measurement a safe point (uno_spec.signals): a signal whose
    # exception vanished (in the collection's callbacks: Hypothesis times collections) ends it
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _uninterrupted(report: Any) -> Any:
    """The report of a run (`Runner.run`, `Differ.run`), unless a signal stopped it: those
    runs end on a signal and return what they did, marked `interrupted`; the benchmark ends
    then (`Interrupted`: exit 128 + n), its figures not measured."""
    if report.interrupted:
        raise Interrupted(signal.Signals[report.interrupted])
    return report


# ---- like-for-like game stepping (uno_cli/bench_games.py) --------------------------------
def bench_games(sizes: Sizes, with_rlcard: bool) -> dict[str, Any]:
    return bench_like_for_like(sizes.repeat, sizes.actions, with_rlcard)


# ---- the conformance corpus --------------------------------------------------------------
def stdio_command() -> str:
    return f"{shlex.quote(sys.executable)} -m uno_cli conformance serve --adapter reference"


def bench_corpus(sizes: Sizes, paths: Sequence[Path] | None) -> dict[str, Any]:
    from conformance.adapters import resolve
    from conformance.runner import Runner
    from conformance.scenario import load_corpus

    files = list(paths) if paths else None
    # cold: parsed and validated, the cache neither read nor written (a first run, a change);
    # then as `conformance run` loads it from its second run on: from the cache, filled here
    load_cold_s, corpus = _timed(lambda: load_corpus(files, cache=False))
    if corpus.errors:
        raise RuntimeError(f"{len(corpus.errors)} scenario file error(s): {corpus.errors[0]}")
    load_corpus(files)
    load_s, corpus = _timed(lambda: load_corpus(files))
    scenarios = corpus.scenarios
    out: dict[str, Any] = {"scenarios": len(scenarios), "load_s": round(load_s, 3),
                           "load_cold_s": round(load_cold_s, 3), "bundled": not paths}
    for label, spec in (("in_process", "reference"), ("stdio", f"stdio:{stdio_command()}")):
        adapter = resolve(spec)

        def once(factory: Callable[[], Any] = adapter.factory, name: str = spec) -> Any:
            return _uninterrupted(Runner(factory, adapter_name=name).run(scenarios))

        once()  # warm-up (for stdio: also the first start of the server)
        runs = [_timed(once) for _ in range(sizes.repeat)]
        seconds = [t for t, _ in runs]
        summary = runs[-1][1].summary()
        out[label] = {
            "adapter": spec,
            "seconds_median": round(_median(seconds), 4),
            "scenarios_per_s": round(_median([len(scenarios) / t for t in seconds]), 1),
            "summary": summary,
            "repetitions": len(seconds),
        }
        if label == "stdio":  # of which: starting the server and its first answer
            def start(factory: Callable[[], Any] = adapter.factory) -> None:
                server = factory()
                try:
                    server.hello()
                finally:
                    server.close()

            out[label]["startup_s_median"] = round(
                _median([_timed(start)[0] for _ in range(sizes.repeat)]), 4)

            # The in-process figure excludes start-up (imports, first load: the warm-up run
            # pays them). The like-for-like stdio figure therefore times the run against a
            # program that is already started and has answered hello.
            def warm(factory: Callable[[], Any] = adapter.factory, name: str = spec) -> float:
                server = factory()
                server.hello()
                return _timed(lambda: _uninterrupted(
                    Runner(lambda: server, adapter_name=name).run(scenarios)))[0]

            out[label]["server_running_seconds_median"] = round(
                _median([warm() for _ in range(sizes.repeat)]), 4)
    inp, std = out["in_process"]["seconds_median"], out["stdio"]["seconds_median"]
    warm_s = out["stdio"]["server_running_seconds_median"]
    out["stdio_over_in_process"] = round(std / inp, 2) if inp else None
    out["stdio_over_in_process_server_running"] = round(warm_s / inp, 2) if inp else None
    return out


# ---- stateful fuzzing --------------------------------------------------------------------
def bench_fuzz(sizes: Sizes, seed: int = 12345) -> dict[str, Any]:
    from hypothesis import settings

    from uno_fsm import fuzz

    machine = fuzz.make_machine(FUZZ_RULESET, FUZZ_PLAYERS)
    budget = settings(settings.get_profile(fuzz.LONG_PROFILE), database=None,
                      max_examples=sizes.fuzz_examples,
                      stateful_step_count=FUZZ_STEPS_PER_EXAMPLE)

    def once() -> int:
        fuzz.STATS.reset()
        fuzz.run(machine, budget, seed=seed)
        return fuzz.STATS.steps

    once()  # warm-up
    runs = [_timed(once) for _ in range(sizes.repeat)]
    seconds = [t for t, _ in runs]
    return {
        "ruleset": FUZZ_RULESET,
        "players": FUZZ_PLAYERS,
        "examples": sizes.fuzz_examples,
        "stateful_step_count": FUZZ_STEPS_PER_EXAMPLE,
        "steps": runs[-1][1],
        "seconds_median": round(_median(seconds), 4),
        "steps_per_s": round(_median([n / t for t, n in runs]), 0),
        "repetitions": len(seconds),
    }


# ---- differential fuzzing ----------------------------------------------------------------
DIFF_EXAMPLES_PER_FUZZ_EXAMPLE = 5  # `conformance diff` examples are short: 5 per fuzz example
DIFF_SEED = 12345


def _cpu_seconds() -> float:
    """CPU time of this process and of the child processes it has reaped (a worker)."""
    import resource

    me, children = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                    resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def bench_diff(sizes: Sizes, with_rlcard: bool = False) -> dict[str, Any]:
    """`conformance diff` steps per second: the reference against itself (no divergence: the
    same work each time) and, where it is installed, RLCard (divergences: examples end and
    resynchronise where they diverge), each in process and over stdio (`conformance serve`,
    pipelined); the oracle in process every time. Shrinking, reduction and confirmation are
    left out (`shrink_seconds=0`, `confirm_runs=0`): steps are actions played on both sides and
    compared, over the generation and targeting phases' time."""
    from conformance.adapters import resolve
    from conformance.diff import Differ

    examples = sizes.fuzz_examples * DIFF_EXAMPLES_PER_FUZZ_EXAMPLE
    oracle = resolve("reference-oracle").factory
    out: dict[str, Any] = {"examples": examples, "oracle": "reference-oracle"}
    serve = f"{shlex.quote(sys.executable)} -m uno_cli conformance serve --adapter"
    cases = [("in_process", resolve("reference", isolate=False).factory, "reference"),
             ("stdio", None, f"stdio:{stdio_command()}")]
    if with_rlcard:
        cases += [("rlcard_in_process", resolve("rlcard", isolate=False).factory, "rlcard"),
                  ("rlcard_stdio", None, f"stdio:{serve} rlcard")]
    for label, factory, spec in cases:
        impl = factory or resolve(spec).factory

        def once(make: Callable[[], Any] = impl) -> tuple[Any, float]:
            cpu = _cpu_seconds()
            report = _uninterrupted(Differ(oracle, make, shrink_seconds=0, confirm_runs=0
                                           ).run(examples=examples, seed=DIFF_SEED))
            return report, _cpu_seconds() - cpu

        once()  # warm-up
        runs = [once() for _ in range(sizes.repeat)]
        out[label] = {
            "adapter": spec,
            "steps": runs[-1][0].stats.steps,
            "divergences": len(runs[-1][0].groups),
            "seconds_median": round(_median([r.fuzz_seconds for r, _ in runs]), 4),
            "steps_per_s": round(_median([r.stats.steps / r.fuzz_seconds for r, _ in runs]), 0),
            # per CPU second of this process and the worker (its time counted once it exited:
            # the whole run, set-up and the worker's start included)
            "steps_per_cpu_s": round(_median([r.stats.steps / max(c, 1e-9)
                                              for r, c in runs]), 0),
            "repetitions": len(runs),
        }
    return out


# ---- memory ------------------------------------------------------------------------------
def _peak(fn: Callable[[], Tally]) -> tuple[int, int]:
    gc.collect()
    tracemalloc.start()
    try:
        actions = fn().actions
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, actions


def bench_memory(with_rlcard: bool, players: int = 4, seed: int = 1) -> dict[str, Any]:
    policy = POLICIES["uno_fsm_random"]

    def ours() -> Tally:
        return engine_games(RULESET, players, 1, seed, policy)

    ours()  # imports and caches (interned cards, actions) first
    peak, actions = _peak(ours)
    out: dict[str, Any] = {"players": players,
                           "uno_fsm": {"peak_bytes": peak, "actions": actions}}
    if with_rlcard:
        rlcard_step_games(players, 1, seed)
        peak, actions = _peak(lambda: rlcard_step_games(players, 1, seed))
        out["rlcard"] = {"peak_bytes": peak, "actions": actions}
    return out


# ---- the whole run -----------------------------------------------------------------------
def run_all(sizes: Sizes, corpus_paths: Sequence[Path] | None = None,
            progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    def say(what: str) -> None:  # each stage a safe point too (uno_spec.signals)
        raise_pending()
        if progress is not None:
            progress(what)

    with_rlcard = rlcard_available()
    result: dict[str, Any] = {"machine": machine_info(), "argv": sys.argv[1:],
                              "sizes": sizes.__dict__, "notes": []}
    if not with_rlcard:
        result["notes"].append(RLCARD_MISSING)
    say("like-for-like game stepping")
    result["games"] = bench_games(sizes, with_rlcard)
    result["ratio_step_like_for_like"] = result["games"][HEADLINE]["ratio_step_like_for_like"]
    result["ratio_round_loop_like_for_like"] = \
        result["games"][HEADLINE]["ratio_round_loop_like_for_like"]
    say("conformance corpus")
    result["corpus"] = bench_corpus(sizes, corpus_paths)
    say("fuzzing")
    result["fuzz"] = bench_fuzz(sizes)
    say("differential fuzzing")
    result["diff"] = bench_diff(sizes, with_rlcard)
    say("memory")
    result["memory"] = bench_memory(with_rlcard)
    result["targets"] = targets(result)
    return result


def targets(r: dict[str, Any]) -> dict[str, Any]:
    """Issue 16's figures that this command measures, and issue 22's diff against RLCard;
    `met` is None when not measured (RLCard not installed)."""
    def at_least(value: float | None, done: float, aim: float | None = None) -> dict[str, Any]:
        return {"target": f">= {done}" + (f" (aimed at >= {aim})" if aim else ""),
                "value": value, "met": None if value is None else value >= done,
                **({"aim_met": None if value is None else value >= aim} if aim else {})}

    load_s = r["corpus"]["load_s"]
    return {
        "ratio_step_like_for_like": at_least(r["ratio_step_like_for_like"], *TARGET_STEP),
        "ratio_round_loop_like_for_like": at_least(r["ratio_round_loop_like_for_like"],
                                                   *TARGET_ROUND_LOOP),
        "corpus_load_s": {"target": f"<= {TARGET_LOAD_S} s (the bundled corpus)",
                          "value": load_s, "cold": r["corpus"]["load_cold_s"],
                          "scenarios": r["corpus"]["scenarios"],
                          "met": load_s <= TARGET_LOAD_S if r["corpus"]["bundled"] else None},
        "fuzz_steps_per_s": at_least(r["fuzz"]["steps_per_s"], TARGET_FUZZ_STEPS_PER_S),
        "diff_rlcard_in_process_steps_per_s": at_least(
            (r["diff"].get("rlcard_in_process") or {}).get("steps_per_s"),
            TARGET_DIFF_IN_PROCESS),
        "diff_rlcard_stdio_steps_per_s": at_least(
            (r["diff"].get("rlcard_stdio") or {}).get("steps_per_s"), TARGET_DIFF_STDIO),
    }


def render_text(r: dict[str, Any]) -> str:
    m = r["machine"]
    lines = [
        f"machine: {m['platform']}, {m['processor']}, {m['cpu_count']} CPUs, "
        f"Python {m['python']}",
        f"engine: {ENGINE_BUILDS[m['engine_build']]}",
        "packages: " + ", ".join(f"{k} {v}" for k, v in m["packages"].items() if v),
        f"medians of {r['sizes']['repeat']} repetitions after a warm-up",
        *[f"note: {n}" for n in r["notes"]],
        "",
    ]
    lines += render_games(r["games"])
    c = r["corpus"]
    lines += ["", f"conformance corpus: {c['scenarios']} scenarios (loading {c['load_s']} s from "
              f"the cache, {c['load_cold_s']} s without)"]
    for label in ("in_process", "stdio"):
        s = c[label]
        summ = s["summary"]
        lines.append(f"  {label:10} {s['seconds_median']:8.3f} s  {s['scenarios_per_s']:9.1f} "
                     f"scenarios/s  ({summ['passed']} passed, {summ['unsupported']} unsupported,"
                     f" {summ['failed'] + summ['errored']} failed or errored)")
    lines.append(f"  stdio / in process, program already started: "
                 f"{c['stdio_over_in_process_server_running']}x")
    lines.append(f"  stdio / in process: {c['stdio_over_in_process']}x "
                 f"(starting the server and its hello: {c['stdio']['startup_s_median']:.3f} s)")
    f = r["fuzz"]
    lines += ["", f"stateful fuzzing ({f['ruleset']}, {f['players']} players, {f['examples']} "
              f"examples x {f['stateful_step_count']} steps): {f['steps']} steps, "
              f"{f['seconds_median']:.2f} s, {f['steps_per_s']:.0f} steps/s"]
    d = r["diff"]
    lines += ["", f"differential fuzzing (conformance diff, {d['examples']} examples, "
              "shrinking excluded; the reference against itself, and RLCard)"]
    for label in [k for k in ("in_process", "stdio", "rlcard_in_process", "rlcard_stdio")
                  if k in d]:
        s = d[label]
        lines.append(f"  {label:17} {s['steps']:>6} steps  {s['seconds_median']:8.3f} s  "
                     f"{s['steps_per_s']:7.0f} steps/s  {s['steps_per_cpu_s']:7.0f} per CPU s  "
                     f"({s['divergences']} divergences)")
    mem = r["memory"]
    lines += ["", f"peak memory of one full game ({mem['players']} players, tracemalloc): "
              f"uno_fsm {mem['uno_fsm']['peak_bytes'] / 1024:.0f} KiB "
              f"({mem['uno_fsm']['actions']} actions)"
              + (f", rlcard {mem['rlcard']['peak_bytes'] / 1024:.0f} KiB "
                 f"({mem['rlcard']['actions']} actions)" if "rlcard" in mem else "")]
    lines += ["", "targets (issue 16; the diff against RLCard: issue 22)"]
    for name, t in r["targets"].items():
        met = {True: "met", False: "MISSED", None: "not measured"}[t["met"]]
        if t.get("aim_met") is False and t["met"]:
            met += ", aim missed"
        lines.append(f"  {name}: {t['value']} (target {t['target']}): {met}")
    return "\n".join(lines) + "\n"


# ---- CLI ---------------------------------------------------------------------------------
def register(sub: Any) -> None:
    """Add `uno-fsm bench`."""
    from uno_spec.options import count

    p = sub.add_parser("bench", help="benchmark the engine, the conformance runner, the fuzzer",
                       description="Measure game stepping like for like (against RLCard "
                       "when the `rlcard` extra is installed), the conformance corpus in "
                       "process and over stdio, stateful fuzzing and the memory of one game; "
                       "medians of several repetitions after a warm-up (docs/performance.md).")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default) or json (the figures and the machine, for a file)")
    p.add_argument("--repeat", type=count(1), metavar="N",
                   help=f"repetitions per workload (default {DEFAULT.repeat}; "
                   f"--quick {QUICK.repeat}; --check {CHECK_REPEAT})")
    p.add_argument("--quick", action="store_true", help="smaller workloads (a rough figure)")
    p.add_argument("--actions", type=count(1), metavar="N",
                   help="game stepping: the actions every side (the engine, RLCard) steps per "
                   "repetition and configuration, in whole games and in turns "
                   f"(default {DEFAULT.actions}; --quick {QUICK.actions})")
    p.add_argument("--fuzz-examples", type=count(1), metavar="N",
                   help=f"Hypothesis examples per fuzzing repetition "
                   f"(default {DEFAULT.fuzz_examples}; --quick {QUICK.fuzz_examples})")
    p.add_argument("--corpus", action="append", type=path_option, metavar="PATH",
                   help="scenario files or directories (default: the bundled corpus)")
    p.add_argument("--check", action="store_true",
                   help="measure the model checker instead (uno-fsm check, child processes; "
                   "uno_cli/bench_check.py)")
    p.add_argument("--baseline", type=path_option, metavar="DIR",
                   help="with --check: also another checkout's source directory, side by "
                   "side (e.g. a `git archive` of a release)")
    p.set_defaults(handler=_cmd_bench)


def _cmd_check(args: argparse.Namespace) -> int:
    from uno_cli import bench_check

    base = args.baseline
    if base is not None and not (Path(base) / "uno_cli" / "__main__.py").is_file():
        print(f"uno-fsm bench: --baseline {base}: not a source directory of uno-fsm (no "
              "uno_cli/__main__.py)", file=sys.stderr)
        return 2
    repeat = args.repeat if args.repeat is not None else CHECK_REPEAT
    print("bench: model checking...", file=sys.stderr, flush=True)
    try:
        result: dict[str, Any] = {
            "machine": machine_info(), "argv": sys.argv[1:],
            "check": bench_check.bench_check(repeat, Path(base) if base else None)}
    except RuntimeError as exc:
        print(f"uno-fsm bench: {exc}", file=sys.stderr)
        return 2
    if args.format == "json":
        from uno_spec.files import json_text

        print(json_text(result))
    else:
        m = result["machine"]
        sys.stdout.write(f"machine: {m['platform']}, {m['processor']}, {m['cpu_count']} CPUs, "
                         f"Python {m['python']}\n" + bench_check.render_text(result["check"]))
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.check:
        return _cmd_check(args)
    if args.baseline is not None:
        print("uno-fsm bench: --baseline goes with --check", file=sys.stderr)
        return 2
    base = QUICK if args.quick else DEFAULT
    sizes = Sizes(
        repeat=args.repeat if args.repeat is not None else base.repeat,
        actions=args.actions if args.actions is not None else base.actions,
        fuzz_examples=args.fuzz_examples if args.fuzz_examples is not None
        else base.fuzz_examples,
    )
    if min(sizes.__dict__.values()) < 1:
        print("uno-fsm bench: sizes must be at least 1", file=sys.stderr)
        return 2
    if args.corpus:  # a bad path or scenario file is a usage error, before any measuring
        from conformance.scenario import load_corpus

        errors = load_corpus(args.corpus).errors
        if errors:
            for e in errors:
                print(f"uno-fsm bench: {e}", file=sys.stderr)
            return 2
    if not rlcard_available():
        print(f"uno-fsm bench: {RLCARD_MISSING}", file=sys.stderr)

    def progress(what: str) -> None:
        print(f"bench: {what}...", file=sys.stderr, flush=True)

    result = run_all(sizes, args.corpus, progress)
    if args.format == "json":
        from uno_spec.files import json_text

        print(json_text(result))
    else:
        sys.stdout.write(render_text(result))
    return 0
