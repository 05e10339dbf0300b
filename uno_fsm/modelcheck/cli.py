"""`uno-fsm check`: the command, its report (the verdict first) and its signals."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from dataclasses import replace
from typing import Any

from uno_fsm.modelcheck.bundled import BUNDLED, Config
from uno_fsm.modelcheck.coverage import UNREACHABLE, missing_labels
from uno_fsm.modelcheck.deals import ConfigError
from uno_fsm.modelcheck.encoding import collision_probability
from uno_fsm.modelcheck.run import explore
from uno_fsm.modelcheck.search import Result, WorkerLost
from uno_fsm.params import Params
from uno_spec.signals import Interrupted, interrupts

DECK_SPEC_MAX = 4096  # characters of --deck (a real deck spec is under 200)
CLUSTER_MAX = 1024


def config_of(args: argparse.Namespace) -> Config:
    """The configuration the command line asks for: a bundled one, changed by the options."""
    base = BUNDLED.get(args.ruleset)
    if base is None:
        Params.of(args.ruleset)  # a malformed or unknown name is told as such, before the deck
    if base is None and args.deck is None:
        raise ConfigError(f"no bundled configuration for {args.ruleset}: give --deck "
                          f"(bundled: {', '.join(BUNDLED)})")
    if args.deck is not None and len(args.deck) > DECK_SPEC_MAX:
        raise ConfigError(f"--deck: {len(args.deck)} characters, at most {DECK_SPEC_MAX}")
    if base is None:
        base = Config(args.ruleset, args.players or 2, args.deck)
    out = replace(base, ruleset=args.ruleset)
    if args.referee:
        out = replace(out, referee=True)
    if args.no_symmetry:
        out = replace(out, symmetry=False)
    if args.unbounded:
        out = replace(out, depth=None)
    for name in ("players", "deck", "hand", "target", "depth", "max_states", "seed"):
        value = getattr(args, name)
        if value is not None:
            out = replace(out, **{name: value})
    return out


def register(sub: Any) -> None:
    """Add `uno-fsm check`."""
    from uno_spec.options import count

    p = sub.add_parser("check", help="model-check the engine on reduced decks",
                       description="Explore every state the reference engine reaches from "
                       "every distinct deal of a reduced deck, checking the invariants, the "
                       "rule postconditions and liveness (docs/model-checking.md). Exit "
                       "status 0: no violation; 1: violations; 2: a bad configuration or a "
                       "lost worker; 128 + N: stopped by signal N (130 SIGINT, 143 SIGTERM, "
                       "129 SIGHUP), after saying what was explored.")
    p.add_argument("--ruleset", default="classic-official",
                   help="ruleset (default classic-official; bundled: "
                   f"{', '.join(BUNDLED)})")
    p.add_argument("--players", type=count(2, 10), help="player count (default: bundled)")
    p.add_argument("--deck", help="reduced deck, e.g. 'colors=red,yellow;numbers=1,2;"
                   "actions=skip,reverse,draw2;wilds=wild,wd4' (default: bundled)")
    p.add_argument("--hand", type=count(1, 20), help="cards dealt to each player "
                   "(default: bundled)")
    p.add_argument("--target", type=count(1, 60_000),
                   help="points to win the game (default: bundled)")
    bound = p.add_mutually_exclusive_group()
    bound.add_argument("--depth", type=count(0, 60_000), help="actions from the deal explored "
                       "(default: bundled; most bundled configurations have none)")
    bound.add_argument("--unbounded", action="store_true",
                       help="no depth bound (explore to completion)")
    p.add_argument("--max-states", type=count(1, 2_000_000_000), dest="max_states",
                   help="stop adding states after this many (default: bundled)")
    p.add_argument("--seed", type=count(0, 2 ** 63),
                   help="seed of the shuffles after the deal (default 0)")
    p.add_argument("--jobs", type=count(1, 1024), default=None,
                   help="worker processes sharing one queue and one visited set (default: "
                   "this process, then every core once a level holds 20,000 states)")
    p.add_argument("--cluster", help="run on a Dask cluster: its scheduler's address "
                   "(tcp://host:8786), or local:N for a local cluster of N worker processes "
                   "(needs the `cluster` extra)")
    p.add_argument("--fingerprints", action="store_true",
                   help="keep 64-bit fingerprints of the states instead of their keys (less "
                   "memory; the report gives the probability of a collision)")
    p.add_argument("--no-symmetry", action="store_true", dest="no_symmetry",
                   help="explore every state, not one per orbit of the colour symmetry "
                   "(docs/model-checking.md, Symmetry)")
    p.add_argument("--format", choices=("console", "json"), default="console",
                   help="report format (default console)")
    p.add_argument("--referee", action="store_true",
                   help="also explore the table penalties (hints, wrong cards)")
    p.add_argument("--long", action="store_true",
                   help="the long report: also the phase edges not reached")
    p.set_defaults(handler=_cmd_check)


def _n(x: int) -> str:
    return f"{x:,}"


def render(r: Result, long: bool = False) -> str:
    """The console report: the verdict first, then what was explored, then the details."""
    d = r.to_dict()
    c = r.config
    bound = r.bound()
    if r.interrupted is not None:
        head = (f"INTERRUPTED by {r.interrupted}: {_n(r.violation_count)} violations so far "
                f"after {_n(r.levels)} complete levels ({_n(r.frontier)} states left "
                "unexpanded)")
    elif r.error is not None:
        head = f"STOPPED: {r.error} ({_n(r.violation_count)} violations so far)"
    elif r.violation_count:
        head = f"VIOLATIONS: {_n(r.violation_count)}"
    else:
        head = "OK: no violation"
    scope = ("complete: every reachable state explored" if r.complete else
             f"bounded by {bound}: {_n(r.frontier)} states unexpanded" if bound else
             f"incomplete: {_n(r.frontier)} states unexpanded")
    lines = [
        f"check {c.ruleset}: {head}; {scope}",
        f"  {c.players} players, hand {c.hand}, target "
        f"{d['target'] if d['target'] is not None else 'one hand'}, deck {c.deck}"
        + (", --referee" if c.referee else "")
        + (f", depth bound {c.depth}" if c.depth is not None else ""),
        f"  states {_n(r.states)}, transitions {_n(r.transitions)}, depth {r.depth}, deals "
        f"{_n(r.deals)} ({_n(r.deals_explored)} explored"
        + (", one per orbit" if r.group > 1 else "") + f"; {_n(r.deals_refused)} refused)",
        f"  symmetry: {r.symmetry} (group of {r.group})",
        f"  visited set: {'64-bit fingerprints' if r.fingerprints else 'canonical keys'}, "
        f"{d['visited']['bytes_per_state']} bytes per state"
        + (f", collision probability {collision_probability(r.states):.1e}"
           if r.fingerprints else ""),
        f"  {r.seconds:.1f} s, {r.cpu_seconds:.1f} CPU s ({r.workers} "
        f"{'worker' if r.workers == 1 else 'workers'}, {r.executor}), "
        f"{_n(d['states_per_cpu_second'])} states per CPU second, peak memory "
        f"{r.memory_mb:.0f} MB" + (f" (workers {r.worker_memory_mb:.0f} MB)"
                                   if r.executor != "in-process" else ""),
    ]
    if not r.graph_checked:
        lines.append("  round ends and forced cycles not checked (the run stopped)")
    cov = d["coverage"]
    missing = missing_labels(r.coverage)
    lines.append(f"  phase edges {cov['edges_covered']}/{cov['edges']}, guard outcomes "
                 f"{cov['guard_outcomes_covered']}/{cov['guard_outcomes']}"
                 + (f" ({len(missing)} not reached: --long lists them)"
                    if missing and not long else ""))
    for v in r.violations:
        lines.append(f"\n{v.kind} [{v.rule}] {v.message}\n"
                     f"Counterexample ({len(v.path)} actions from a deal), as a scenario:\n"
                     f"{v.scenario}")
    if long:
        for label in missing:
            lines.append(f"  not reached: {label}"
                         + (f" (unreachable: {UNREACHABLE[label]})"
                            if label in UNREACHABLE else ""))
    return "\n".join(lines)


def _cmd_check(args: argparse.Namespace) -> int:
    if args.cluster is not None and (not args.cluster.strip() or len(args.cluster) > CLUSTER_MAX
                                     or any(ch in args.cluster for ch in "\n\r\0")):
        print("uno-fsm check: --cluster: an address such as tcp://host:8786, or local:N",
              file=sys.stderr)
        return 2
    if args.cluster is not None and args.jobs is not None:
        print("uno-fsm check: --jobs and --cluster do not go together (the cluster has its "
              "workers)", file=sys.stderr)
        return 2
    # uno_spec.signals: SIGINT, SIGTERM and SIGHUP raise `Interrupted` once; the search stops,
    # ends every worker and reports what it explored (a second signal is ignored meanwhile)
    with interrupts():
        try:
            config = config_of(args)
            result = explore(config, args.jobs, args.cluster, args.fingerprints)
        except (ConfigError, ValueError, KeyError, WorkerLost) as exc:
            print(f"uno-fsm check: {_one_line(exc)}", file=sys.stderr)
            return 2
        except Interrupted as exc:  # before the search began (a deal being counted)
            print(f"uno-fsm check: INTERRUPTED by {exc.name}: nothing explored yet",
                  file=sys.stderr)
            return exc.exit_status
        try:
            if args.format == "json":
                print(json.dumps(result.to_dict(), indent=2))
            else:
                print(render(result, args.long))
            sys.stdout.flush()
        except BrokenPipeError:
            pass
    if result.interrupted is not None:
        return 128 + signal.Signals[result.interrupted].value
    if result.error is not None:
        return 2
    return 1 if result.violation_count else 0


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 500 else text[:500] + "..."
