"""The optional compiled engine. `UNO_FSM_MYPYC=1` compiles the engine's hot path with mypyc
(docs/performance.md, "The compiled build"); without it the package is pure Python, the same
code unchanged. Everything else (pyproject.toml) is shared by both builds.

    python -m pip install 'mypy>=1.10' 'setuptools>=68' wheel
    UNO_FSM_MYPYC=1 python -m pip install --no-build-isolation .

Not editable (`-e`): the compiled modules would land in the checkout and shadow its sources.
"""

import os

from setuptools import setup

# The engine's hot path. The rest stays Python: the CLI, the conformance harness, the fuzzer,
# the terminal and `uno_fsm/actions.py` (an `Action` is built by anyone with any values, and
# `check_form` refuses a malformed one with a typed error, which a compiled class's
# constructor would pre-empt with a TypeError).
COMPILED = [
    "uno_fsm/cards.py",
    "uno_fsm/state.py",
    "uno_fsm/dispatch.py",
    "uno_fsm/game.py",
    *sorted(f"uno_fsm/rules/{name}" for name in os.listdir("uno_fsm/rules")
            if name.endswith(".py")),
]

ext_modules = []
if os.environ.get("UNO_FSM_MYPYC") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
