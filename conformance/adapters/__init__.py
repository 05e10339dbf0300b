"""Adapters: the only place that knows both the conformance protocol and an implementation.

`resolve(spec)` turns an `--adapter` value into an `AdapterSpec` whose `factory()` makes a
fresh adapter (the runner calls it again to restart after a crash):

- `reference` (default): the uno_fsm reference engine, in process under a deadline alarm
  (`conformance.adapters.reference:ReferenceAdapter`; in a worker process off the main thread);
- `stdio:<command line>`: any program speaking `uno-conformance/1` over stdin/stdout;
- `module:package.module:Class`: a Python adapter, run in a worker process;
- `rlcard`: RLCard's UNO environment (`conformance.adapters.rlcard:RLCardAdapter`, needs the
  `rlcard` extra), run in a worker process.

`isolate=False` gives the plain in-process adapter instead (what `conformance serve` serves, in
the worker itself). Why each kind is isolated the way it is: conformance/adapters/isolation.py.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

REFERENCE = "conformance.adapters.reference:ReferenceAdapter"
RLCARD = "conformance.adapters.rlcard:RLCardAdapter"


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


def _reference_factory(timeout: float) -> Callable[[], Any]:
    from conformance.adapters import isolation

    engine = _module_factory(REFERENCE)
    worker = isolation.worker_factory("reference", timeout)

    def make() -> Any:
        if isolation.alarms_usable():
            return isolation.DeadlineGuard(engine(), timeout)
        return worker()

    return make


def resolve(spec: str | None, *, timeout: float = 10.0, isolate: bool = True) -> AdapterSpec:
    """Parse an `--adapter` value. Raises AdapterSpecError with a readable message."""
    from conformance.adapters.isolation import worker_factory

    spec = (spec or "reference").strip()
    if spec == "reference":
        return AdapterSpec(spec, "reference", "reference",
                           _reference_factory(timeout) if isolate else _module_factory(REFERENCE))
    if spec == "rlcard":
        if importlib.util.find_spec("rlcard") is None:
            raise AdapterSpecError(
                "the rlcard adapter needs RLCard: pip install 'uno-fsm[rlcard]'")
        if importlib.util.find_spec("conformance.adapters.rlcard") is None:
            raise AdapterSpecError("the rlcard adapter is not available in this version")
        if isolate:
            return AdapterSpec(spec, "rlcard", "rlcard", worker_factory(spec, timeout),
                               out_of_process=True)
        return AdapterSpec(spec, "rlcard", "rlcard", _module_factory(RLCARD))
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
                           lambda: StdioAdapter(command, timeout=timeout), out_of_process=True)
    if spec.startswith("module:"):
        target = spec[len("module:"):].strip()
        if isolate:
            _check_module(target)
            return AdapterSpec(spec, "module", None, worker_factory(spec, timeout),
                               out_of_process=True)
        return AdapterSpec(spec, "module", None, _module_factory(target))
    raise AdapterSpecError(
        f"unknown adapter {spec!r}: use reference, rlcard, stdio:'<command>' or "
        "module:package.module:Class")
