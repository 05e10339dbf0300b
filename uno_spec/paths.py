"""Where the specification data lives, in a checkout and in an installed wheel."""

from __future__ import annotations

import os
from pathlib import Path


def spec_root() -> Path:
    """The directory holding spec/ data.

    Order: the UNO_FSM_SPEC environment variable; the `spec/` directory next to the package in
    a source checkout; the copy shipped inside the wheel as the `uno_spec.data` package.
    """
    env = os.environ.get("UNO_FSM_SPEC")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parent.parent / "spec"
    if (checkout / "sources").is_dir():
        return checkout
    # Installed from a wheel: spec/ is shipped as uno_spec/data (a data directory without an
    # __init__.py, so importlib.resources would hand back a MultiplexedPath, not a directory).
    return Path(__file__).resolve().parent / "data"
