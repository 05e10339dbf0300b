"""Adapters: the only place that knows both the conformance protocol and an implementation.

`resolve(spec)` turns an `--adapter` value into an `AdapterSpec` whose `factory()` makes a
fresh adapter (the runner calls it again to restart after a crash):

- `reference` (default): the uno_fsm reference engine, in process
  (`conformance.adapters.reference:ReferenceAdapter`); `reference-oracle` the same declaring
  the observations of `conformance diff`'s oracle (`ReferenceOracle`);
- `stdio:<command line>`: any program speaking `uno-conformance/1` over stdin/stdout;
- `module:package.module:Class`: an in-process Python adapter;
- `rlcard`: RLCard's UNO environment (`conformance.adapters.rlcard:RLCardAdapter`, needs the
  `rlcard` extra).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

REFERENCE = "conformance.adapters.reference:ReferenceAdapter"
REFERENCE_ORACLE = "conformance.adapters.reference:ReferenceOracle"  # `conformance diff`
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


def resolve(spec: str | None, *, timeout: float = 10.0) -> AdapterSpec:
    """Parse an `--adapter` value. Raises AdapterSpecError with a readable message."""
    spec = (spec or "reference").strip()
    if spec == "reference":
        return AdapterSpec(spec, "reference", "reference", _module_factory(REFERENCE))
    if spec == "reference-oracle":
        return AdapterSpec(spec, "reference", "reference", _module_factory(REFERENCE_ORACLE))
    if spec == "rlcard":
        if importlib.util.find_spec("rlcard") is None:
            raise AdapterSpecError(
                "the rlcard adapter needs RLCard: pip install 'uno-fsm[rlcard]'")
        if importlib.util.find_spec("conformance.adapters.rlcard") is None:
            raise AdapterSpecError("the rlcard adapter is not available in this version")
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
        return AdapterSpec(spec, "module", None, _module_factory(target))
    raise AdapterSpecError(
        f"unknown adapter {spec!r}: use reference, rlcard, stdio:'<command>' or "
        "module:package.module:Class")
