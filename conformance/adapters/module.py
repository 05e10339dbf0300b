"""Load an in-process Python adapter named `package.module:Class` (or a factory function)."""

from __future__ import annotations

import importlib
from typing import Any


def load_class(target: str) -> Any:
    """The object named by `package.module:Attr` (imported now)."""
    mod_name, sep, attr = target.partition(":")
    if not sep or not mod_name or not attr:
        raise ValueError(f"expected `package.module:Class`, got {target!r}")
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
