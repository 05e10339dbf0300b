"""`uno-fsm bench --check`: the model checker's speed, side by side with another checkout
(docs/performance.md, "Model checking").

    uno-fsm bench --check [--baseline DIR] [--repeat N] [--format text|json]

Each side is the same command, `python -m uno_cli check ... --format json`, run as a child
process from that side's source directory (this checkout, and `--baseline DIR`: for instance
`git archive 4ed0762 | tar -x -C DIR`, the release before issue 25), on the same
configurations (the same deck, hand, target, depth bound and checks). A side's CPU time is
the child's user + system time (`os.wait4`) less the median CPU time of
`python -m uno_cli check --help` from the same directory (interpreter start and imports: the
set-up, timed apart); medians of `--repeat` runs, the sides alternating. Reported: states,
transitions, CPU seconds, states per CPU second, and the ratios of this side over the
baseline. The states a side counts are its own: a state key that merges more (this checker's
canonical key, its colour symmetry) counts fewer states for the same exploration, so the
ratio of CPU seconds for the same configuration is given beside the ratio of states per CPU
second.

Compiling the sources is set-up too: each side's children share a bytecode cache in a
temporary directory (`PYTHONPYCACHEPREFIX`, writing allowed even where the environment sets
`PYTHONDONTWRITEBYTECODE`, which would have every run compile every module it imports, as no
installed package does), and one untimed run of each configuration per side fills it before
the timed ones.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

# (name, arguments of `uno-fsm check`): the release's default configuration (one colour, two
# cards each, depth 5: "10,468 states to depth 5", issue 25) and this checkout's default
# (two colours, one card each, target 3), bounded at a depth both sides finish
CONFIGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("release default (one colour, depth 5)",
     ("--ruleset", "classic-official", "--players", "2", "--deck",
      "colors=red;numbers=1;actions=skip,reverse,draw2;wilds=wild,wd4", "--hand", "2",
      "--target", "100", "--depth", "5")),
    ("two colours, depth 8",
     ("--ruleset", "classic-official", "--players", "2", "--deck",
      "colors=red,yellow;numbers=1;actions=draw2;wilds=wild,wd4", "--hand", "1",
      "--target", "3", "--depth", "8")),
)
TARGET_RATIO = 10.0  # issue 25: states per CPU second, over the release before it
# Below this many CPU seconds beyond the set-up a side's exploration has no rate: the set-up's
# own runs spread by about this much (a loaded machine, the interpreter's start).
MEASURABLE_CPU_S = 0.02
UNMEASURABLE = "CPU time not measurable (within the set-up's)"


def this_checkout() -> Path:
    import uno_cli

    return Path(uno_cli.__file__).resolve().parent.parent


def _timed(where: Path, args: list[str], pycache: Path) -> tuple[float, str]:
    """(the child's CPU seconds, user + system, from `os.wait4`; its standard output), the
    child's bytecode cached under `pycache`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # that side's own packages first; the cache mirrors each source's absolute path
    env.update(PYTHONPATH=str(where), PYTHONPYCACHEPREFIX=str(pycache))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "uno_cli", *args], cwd=where, env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(), err.read().decode(errors="replace")
    if proc.returncode not in (0, 1):  # 1: violations (a side's own finding, reported)
        raise RuntimeError(f"{where}: uno-fsm {' '.join(args)} exited {proc.returncode}: "
                           f"{errors.strip()[-400:]}")
    return usage.ru_utime + usage.ru_stime, text


def bench_check(repeat: int, baseline: Path | None) -> dict[str, Any]:
    """Each configuration `repeat` times on each side, the sides alternating run by run."""
    with tempfile.TemporaryDirectory(prefix="uno-fsm-bench-pyc-") as pycache:
        return _bench_check(repeat, baseline, Path(pycache))


def _bench_check(repeat: int, baseline: Path | None, pycache: Path) -> dict[str, Any]:
    sides = {"this": this_checkout(), **({"baseline": baseline} if baseline else {})}
    setup = {}
    for name, where in sides.items():
        _timed(where, ["check", "--help"], pycache)  # compiles the command line's modules
        setup[name] = statistics.median(_timed(where, ["check", "--help"], pycache)[0]
                                        for _ in range(max(3, repeat)))
    out: dict[str, Any] = {"sides": {k: str(v) for k, v in sides.items()},
                           "setup_cpu_s": {k: round(v, 3) for k, v in setup.items()},
                           "repeat": repeat, "configurations": []}
    for label, check in CONFIGS:
        cpus: dict[str, list[float]] = {name: [] for name in sides}
        reports: dict[str, dict[str, Any]] = {}
        for where in sides.values():  # untimed: compiles the modules the exploration imports
            _timed(where, ["check", *check, "--format", "json"], pycache)
        for _ in range(repeat):
            for name, where in sides.items():
                cpu, text = _timed(where, ["check", *check, "--format", "json"], pycache)
                cpus[name].append(cpu)
                reports[name] = json.loads(text)
        row: dict[str, Any] = {"name": label, "args": list(check)}
        for name in sides:
            rep = reports[name]
            spent = exploration_cpu(cpus[name], setup[name])
            row[name] = {"states": int(rep["states"]), "transitions": int(rep["transitions"]),
                         "depth": int(rep["depth"]), "violations": int(rep["violations"]),
                         "cpu_s": None if spent is None else round(spent, 3),
                         "cpu_s_runs": [round(c, 3) for c in cpus[name]],
                         "states_per_cpu_s": None if spent is None
                         else round(int(rep["states"]) / spent)}
        if baseline is not None:
            a, b = row["this"], row["baseline"]
            measured = a["cpu_s"] is not None and b["cpu_s"] is not None
            row["ratio_states_per_cpu_s"] = (round(a["states_per_cpu_s"] / b["states_per_cpu_s"],
                                                   2) if measured else None)
            row["ratio_cpu_s"] = round(b["cpu_s"] / a["cpu_s"], 2) if measured else None
        out["configurations"].append(row)
    if baseline is not None:
        value = out["configurations"][0]["ratio_states_per_cpu_s"]
        out["target"] = {"target": f">= {TARGET_RATIO}x the baseline's states per CPU second "
                         "(the release's default configuration)",
                         "value": value, "met": value is not None and value >= TARGET_RATIO}
    return out


def exploration_cpu(runs: list[float], setup: float) -> float | None:
    """A side's CPU seconds for the exploration: the median of its runs less the set-up's; None
    when that is below MEASURABLE_CPU_S (an exploration that costs no more than starting the
    interpreter has no rate to report: a ratio of two such differences would be noise)."""
    cpu = statistics.median(runs) - setup
    return cpu if cpu >= MEASURABLE_CPU_S else None


def render_text(r: dict[str, Any]) -> str:
    lines = [f"model checking (uno-fsm check, child processes, medians of {r['repeat']} runs, "
             f"set-up of {', '.join(f'{k} {v} s' for k, v in r['setup_cpu_s'].items())} CPU "
             "taken off)"]
    for k, v in r["sides"].items():
        lines.append(f"  {k}: {v}")
    for row in r["configurations"]:
        lines.append(f"  {row['name']}: {' '.join(row['args'])}")
        for name in r["sides"]:
            s = row[name]
            rate = (f"{s['cpu_s']:8.2f} CPU s  {s['states_per_cpu_s']:>8,} states/CPU s"
                    if s["cpu_s"] is not None else UNMEASURABLE)
            lines.append(f"    {name:8} {s['states']:>9,} states {s['transitions']:>10,} "
                         f"transitions  depth {s['depth']:>3}  {rate}  {s['violations']} "
                         "violations")
        if row.get("ratio_cpu_s") is not None:
            lines.append(f"    this over baseline: {row['ratio_states_per_cpu_s']}x states per "
                         f"CPU second, {row['ratio_cpu_s']}x less CPU time")
        elif "ratio_cpu_s" in row:
            lines.append("    this over baseline: no ratio (a side's CPU time is not measurable)")
    if "target" in r:
        t = r["target"]
        value = "not measurable" if t["value"] is None else f"{t['value']}x"
        lines.append(f"  target: {t['target']}: {value}: {'met' if t['met'] else 'MISSED'}")
    return "\n".join(lines) + "\n"
