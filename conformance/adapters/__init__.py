"""Adapters: the only place that knows both the conformance protocol and an implementation.

`resolve(spec)` turns an `--adapter` value into an `AdapterSpec` whose `factory()` makes a
fresh adapter (the runner calls it again to restart after a crash):

- `reference` (default): the uno_fsm reference engine, in process under a deadline alarm
  (`conformance.adapters.reference:ReferenceAdapter`; in a worker process off the main thread);
  `reference-oracle` the same declaring the observations of `conformance diff`'s oracle
  (`ReferenceOracle`);
- `stdio:<command line>`: any program speaking `uno-conformance/2` over stdin/stdout;
- `module:package.module:Class`: a Python adapter, run in a worker process;
- `rlcard`: RLCard's UNO environment (`conformance.adapters.rlcard:RLCardAdapter`, needs the
  `rlcard` extra), run in a worker process;
- `rlcard-uno`: the rlcard-uno fork (`conformance.adapters.rlcard_uno:RLCardUnoAdapter`), in
  a worker process where it is installed: in its own virtual environment, since it installs
  under the import name `rlcard` too (`.ci/setup-implementations`; then
  `stdio:'.venv-rlcard-uno/bin/uno-fsm conformance serve --adapter rlcard-uno'`);
- `skilluno`: skilluno's `UNOGame` (`conformance.adapters.skilluno:SkillUnoAdapter`), in a worker
  process where it is installed: in its own virtual environment, since it installs under the
  import name `uno`, as uno-game does (`.ci/setup-implementations`; then
  `stdio:'.venv-skilluno/bin/uno-fsm conformance serve --adapter skilluno'`);
- `uno-game`: uno-game's `Game` driven through its player callbacks
  (`conformance.adapters.unogame:UnoGameAdapter`, needs the `uno-game` extra), run in a worker
  process (it can loop forever: the worker's timeout kills it).

Every program these adapters start (a `stdio:` program, a worker), and whatever it starts, has
its data memory capped at `memory_limit` bytes (`conformance.supervisor.MEMORY_LIMIT` by
default, 0: no cap; docs/robustness.md, "Processes"); the in-process reference engine has none.

`isolate=False` gives the plain in-process adapter instead (what `conformance serve` serves, in
the worker itself). Why each kind is isolated the way it is: conformance/adapters/isolation.py.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.supervisor import MEMORY_LIMIT

REFERENCE = "conformance.adapters.reference:ReferenceAdapter"
REFERENCE_ORACLE = "conformance.adapters.reference:ReferenceOracle"  # `conformance diff`
RLCARD = "conformance.adapters.rlcard:RLCardAdapter"
RLCARD_UNO = "conformance.adapters.rlcard_uno:RLCardUnoAdapter"
RLCARD_UNO_VENV = ".venv-rlcard-uno"
UNO_GAME = "conformance.adapters.unogame:UnoGameAdapter"
SKILLUNO = "conformance.adapters.skilluno:SkillUnoAdapter"
SKILLUNO_VENV = ".venv-skilluno"
# the `--adapter` names, in the order every help text and error message gives them
BUILT_IN = ("reference", "rlcard", "rlcard-uno", "uno-game", "skilluno")
PROGRAM = "stdio:'<command line>'"
MODULE = "module:package.module:Class"


def adapter_names(*, default: str | None = None, programs: bool = True) -> str:
    """The `--adapter` values, for a help text: the built-in adapters (`default` marked), then
    `stdio:` (unless `programs` is False: `conformance serve` serves an adapter of its own
    process) and `module:`."""
    names = [f"{n} (default)" if n == default else n for n in BUILT_IN]
    return " | ".join([*names, *([PROGRAM] if programs else []), MODULE])


class AdapterSpecError(ValueError):
    """An `--adapter` value that cannot be used (clear message for the user)."""


@dataclass(frozen=True)
class AdapterSpec:
    spec: str
    kind: str  # reference | stdio | module | rlcard
    implementation: str | None  # default name for expectation files (None: from hello)
    factory: Callable[[], Any]
    out_of_process: bool = False


def _module_factory(target: str) -> Callable[[], Any]:
    from conformance.adapters.module import load_class

    try:
        cls = load_class(target)
    except ImportError as exc:
        raise AdapterSpecError(f"cannot import adapter {target!r}: {exc}") from None
    except ValueError as exc:
        raise AdapterSpecError(str(exc)) from None
    return cls  # type: ignore[no-any-return]


def _installed(distribution: str) -> bool:
    from importlib.metadata import PackageNotFoundError, version

    try:
        version(distribution)
    except PackageNotFoundError:
        return False
    return True


def _check_module(target: str) -> None:
    """The `module:` target names a module that exists (it is not imported here: its code runs
    in the worker)."""
    from conformance.adapters.module import find_module

    try:
        find_module(target)
    except ImportError as exc:
        raise AdapterSpecError(f"cannot import adapter {target!r}: {exc}") from None
    except ValueError as exc:
        raise AdapterSpecError(str(exc)) from None


def _reference_factory(target: str, spec: str, timeout: float,
                       memory_limit: int) -> Callable[[], Any]:
    from conformance.adapters import isolation

    engine = _module_factory(target)
    worker = isolation.worker_factory(spec, timeout, memory_limit)

    def make() -> Any:
        if isolation.alarms_usable():
            return isolation.DeadlineGuard(engine(), timeout)
        return worker()

    return make


def resolve(spec: str | None, *, timeout: float = 10.0, isolate: bool = True,
            memory_limit: int = MEMORY_LIMIT) -> AdapterSpec:
    """Parse an `--adapter` value. Raises AdapterSpecError with a readable message.
    `memory_limit`: bytes of data memory for each program started (0: no cap)."""
    from conformance.adapters.isolation import worker_factory as workers

    def worker_factory(spec: str, timeout: float) -> Callable[[], Any]:
        return workers(spec, timeout, memory_limit)

    spec = "reference" if spec is None else spec.strip()
    if not spec:  # an unset variable (`--adapter "$ADAPTER"`) must not run the reference engine
        raise AdapterSpecError(f"the adapter is empty: name one ({', '.join(BUILT_IN)}, "
                               f"{PROGRAM} or {MODULE})")
    if spec == "reference":
        return AdapterSpec(spec, "reference", "reference",
                           _reference_factory(REFERENCE, spec, timeout, memory_limit) if isolate
                           else _module_factory(REFERENCE))
    if spec == "reference-oracle":
        return AdapterSpec(spec, "reference", "reference",
                           _reference_factory(REFERENCE_ORACLE, spec, timeout, memory_limit)
                           if isolate
                           else _module_factory(REFERENCE_ORACLE))
    if spec == "rlcard":
        if importlib.util.find_spec("rlcard") is None or not _installed("rlcard"):
            raise AdapterSpecError(
                "the rlcard adapter needs RLCard: pip install 'uno-fsm[rlcard]'")
        if importlib.util.find_spec("conformance.adapters.rlcard") is None:
            raise AdapterSpecError("the rlcard adapter is not available in this version")
        if isolate:
            return AdapterSpec(spec, "rlcard", "rlcard", worker_factory(spec, timeout),
                               out_of_process=True)
        return AdapterSpec(spec, "rlcard", "rlcard", _module_factory(RLCARD))
    if spec == "rlcard-uno":
        if not _installed("rlcard-uno"):
            raise AdapterSpecError(
                "the rlcard-uno adapter runs where rlcard-uno is installed, which cannot be "
                "beside RLCard (both install `rlcard`): run .ci/setup-implementations, then use "
                f"--adapter stdio:'{RLCARD_UNO_VENV}/bin/uno-fsm conformance serve --adapter "
                "rlcard-uno'")
        if isolate:
            return AdapterSpec(spec, "rlcard", "rlcard-uno", worker_factory(spec, timeout),
                               out_of_process=True)
        return AdapterSpec(spec, "rlcard", "rlcard-uno", _module_factory(RLCARD_UNO))
    if spec == "skilluno":
        if not _installed("skilluno"):
            raise AdapterSpecError(
                "the skilluno adapter runs where skilluno is installed, which cannot be beside "
                "uno-game (both install `uno`): run .ci/setup-implementations, then use "
                f"--adapter stdio:'{SKILLUNO_VENV}/bin/uno-fsm conformance serve --adapter "
                "skilluno'")
        if isolate:
            return AdapterSpec(spec, "module", "skilluno", worker_factory(spec, timeout),
                               out_of_process=True)
        return AdapterSpec(spec, "module", "skilluno", _module_factory(SKILLUNO))
    if spec == "uno-game":
        if importlib.util.find_spec("uno") is None or not _installed("uno-game"):
            raise AdapterSpecError(
                "the uno-game adapter needs uno-game: pip install 'uno-fsm[uno-game]'")
        if isolate:
            return AdapterSpec(spec, "module", "uno-game", worker_factory(spec, timeout),
                               out_of_process=True)
        return AdapterSpec(spec, "module", "uno-game", _module_factory(UNO_GAME))
    if spec.startswith("stdio:"):
        command = spec[len("stdio:"):].strip()
        if not command:
            raise AdapterSpecError("stdio: needs a command line, e.g. stdio:'./my-uno --serve'")
        from conformance.adapters.stdio import StdioAdapter

        try:
            StdioAdapter(command)  # validates the command line syntax only
        except ValueError as exc:
            raise AdapterSpecError(f"bad command line {command!r}: {exc}") from None
        return AdapterSpec(spec, "stdio", None,
                           lambda: StdioAdapter(command, timeout=timeout,
                                                memory_limit=memory_limit),
                           out_of_process=True)
    if spec.startswith("module:"):
        target = spec[len("module:"):].strip()
        if isolate:
            _check_module(target)
            return AdapterSpec(spec, "module", None, worker_factory(spec, timeout),
                               out_of_process=True)
        return AdapterSpec(spec, "module", None, _module_factory(target))
    raise AdapterSpecError(
        f"unknown adapter {spec!r}: use {', '.join(BUILT_IN)}, {PROGRAM} or {MODULE}")


def program_files(spec: str) -> list[Path]:
    """The files an `--adapter` value runs, which a command's outputs must not overwrite: each
    word of a `stdio:` command line that names an existing file (the program, its script), the
    source of a `module:` adapter's module. Nothing for the built-in adapters."""
    spec = spec.strip()
    if spec.startswith("stdio:"):
        import shlex

        try:
            words = shlex.split(spec[len("stdio:"):])
        except ValueError:
            return []
        return [Path(w) for w in words if os.path.isfile(w)]
    if spec.startswith("module:"):
        from conformance.adapters.module import _split

        try:
            found = importlib.util.find_spec(_split(spec[len("module:"):].strip())[0])
        except (ImportError, ValueError):
            return []
        origin = getattr(found, "origin", None)
        return [Path(origin)] if origin and os.path.isfile(origin) else []
    return []
