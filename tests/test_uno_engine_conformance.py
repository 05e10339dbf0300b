"""uno-engine (npm): what its expectation file must say.

The corpus run against it (matching conformance/expectations/uno-engine.yaml and the published
docs/compliance/data/uno-engine.json exactly) is tests/test_implementations_conformance.py, the
same test for every implementation. After the corpus or the adapter changed, regenerate with
`uno-fsm conformance compliance --implementation uno-engine --run` and check every new failure
against uno-engine's code.
"""

from __future__ import annotations

from conformance import expectations as exp

EXPECTATIONS = exp.EXPECTATIONS_DIR / "uno-engine.yaml"
BUNDLE = "dist/uno-engine.cjs.js"


def test_every_known_failure_names_uno_engines_code() -> None:
    entries = exp.load(EXPECTATIONS).entries
    assert entries, "uno-engine is known to deviate: the expectation file cannot be empty"
    for e in entries:
        assert e.reason.startswith(f"{BUNDLE} "), e
        assert "adapter artefact" not in e.reason and "not yet checked" not in e.reason, e
