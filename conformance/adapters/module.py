"""Load an in-process Python adapter named `package.module:Class` (or a factory function)."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any


def _split(target: str) -> tuple[str, str]:
    mod_name, sep, attr = target.partition(":")
    if not sep or not mod_name or not attr:
        raise ValueError(f"expected `package.module:Class`, got {target!r}")
    return mod_name, attr


def find_module(target: str) -> None:
    """Check `package.module:Attr` names a module that can be found, without running it
    (its parent packages are imported). ImportError or ValueError when not."""
    mod_name, _attr = _split(target)
    try:
        found = importlib.util.find_spec(mod_name)
    except (ImportError, ValueError) as exc:
        raise ImportError(str(exc)) from None
    if found is None:
        raise ImportError(f"No module named {mod_name!r}")


def load_class(target: str) -> Any:
    """The object named by `package.module:Attr` (imported now)."""
    mod_name, attr = _split(target)
    module = importlib.import_module(mod_name)
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"module {mod_name!r} has no attribute {attr!r}") from None
    if not callable(obj):
        raise ValueError(f"{target!r} is not a class or factory")
    return obj


def load_adapter(target: str, **kwargs: Any) -> Any:
    """Instantiate the adapter named by `package.module:Class`."""
    return load_class(target)(**kwargs)
