"""The stdio adapter against programs that crash, hang, flood or answer garbage; `serve`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.adapters import AdapterSpecError, resolve
from conformance.adapters.stdio import StdioAdapter
from conformance.protocol import PROTOCOL, PROTOCOLS, AdapterError, ProtocolError
from conformance.runner import Runner
from conformance.scenario import load_corpus

FIX = Path(__file__).parent / "fixtures" / "conformance"
FAKE = [sys.executable, str(FIX / "fake_stdio.py")]
MISBEHAVE = load_corpus([FIX / "scenarios" / "misbehave.yaml"]).scenarios
TINY = load_corpus([FIX / "scenarios" / "tiny.yaml"]).scenarios
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(FIX), os.environ.get("PYTHONPATH", "")])}


PIPELINING = [sys.executable, str(FIX / "fake_stdio_pipelining.py")]


@pytest.mark.parametrize("program", [FAKE, PIPELINING], ids=["one-at-a-time", "pipelined"])
def test_run_survives_every_kind_of_misbehaviour(program: list[str]) -> None:
    made: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        made.append(StdioAdapter(program, timeout=1.5))
        return made[-1]

    report = Runner(factory, timeout=1.5).run(MISBEHAVE)
    assert report.implementation.get("name") == "fake-right"
    st = {r.id: r for r in report.results}
    assert st["bad.1-crash-on-setup"].status == "errored"
    assert "crashed" in st["bad.1-crash-on-setup"].message
    assert "status 3" in st["bad.1-crash-on-setup"].message
    assert "timeout" in st["bad.2-hang"].message
    assert "not JSON" in st["bad.3-garbage"].message
    assert "longer than" in st["bad.4-huge-line"].message
    assert "does not match request id" in st["bad.5-wrong-id"].message
    assert "crashed" in st["bad.6-crash-on-act"].message
    assert st["bad.6-crash-on-act"].step == 1
    assert "does not match request id" in st["bad.8-extra-line"].message
    assert st["bad.9-fine"].status == "passed"  # the run carried on with a fresh process
    s = report.summary()
    assert (s["total"], s["errored"], s["passed"]) == (8, 7, 1)
    assert len(made) == 8  # one fresh adapter after each failure
    assert all(a._proc is None for a in made)  # every process was reaped


def test_stdio_fake_passes_tiny_set_in_one_process() -> None:
    adapters: list[StdioAdapter] = []

    def factory() -> StdioAdapter:
        adapters.append(StdioAdapter(FAKE, timeout=5))
        return adapters[-1]

    report = Runner(factory).run(TINY)
    assert report.summary()["passed"] == 5
    assert len(adapters) == 1 and adapters[0].restarts == 0


def test_stderr_tail_is_quoted_on_crash() -> None:
    a = StdioAdapter([*FAKE, "--noisy"], timeout=5)
    a.hello()
    with pytest.raises(AdapterError) as info:
        a.setup({"ruleset": "classic-official", "setup": {}, "seed": 1})
    assert info.value.code == "crashed"
    assert "debug: setup" in info.value.detail
    a.close()


def test_bad_protocol_version_in_hello() -> None:
    a = StdioAdapter([*FAKE, "--bad-hello"], timeout=5)
    with pytest.raises(ProtocolError, match="uno-conformance/0"):
        a.hello()
    a.close()


def test_missing_program_is_an_adapter_error() -> None:
    a = StdioAdapter(["/nonexistent/uno-program"], timeout=1)
    with pytest.raises(AdapterError) as info:
        a.hello()
    assert info.value.code == "spawn-failed"


def test_serve_speaks_the_wire_protocol() -> None:
    lines = [
        {"id": 1, "method": "hello", "params": {"protocol": PROTOCOL}},
        {"id": 2, "method": "setup", "params": TINY[0].setup_params()},
        {"id": 3, "method": "act", "params": {"action": {"player": 1, "play": "Y3"}}},
        {"id": 4, "method": "act", "params": {"action": {"player": 0, "play": "R7"}}},
        {"id": 5, "method": "observe", "params": {"keys": ["current", "top"]}},
        {"id": 6, "method": "act", "params": {"action": {"player": 1, "swap": 0}}},
        {"id": 7, "method": "nope"},
        {"id": 8, "method": "bye"},
    ]
    data = "\n".join(json.dumps(x) for x in lines) + "\nnot json\n"
    proc = subprocess.run(
        [sys.executable, "-m", "uno_cli", "conformance", "serve",
         "--adapter", "module:tiny_engine:FakeAdapter"],
        input=data, capture_output=True, text=True, env=ENV, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [m["id"] for m in out] == [1, 2, 3, 4, 5, 6, 7, 8]  # stops at bye
    assert out[0]["result"]["protocol"] in PROTOCOLS and out[0]["result"]["name"] == "fake-right"
    assert out[1] == {"id": 2, "result": {}}
    assert out[2]["error"]["code"] == "not-your-turn"
    assert out[3] == {"id": 4, "result": {}}
    assert out[4]["result"] == {"current": 1, "top": "R7"}
    assert out[5]["error"]["code"] == "unsupported"
    assert out[6]["error"]["code"] == "bad-request"


def test_stdio_adapter_against_serve_round_trip() -> None:
    spec = resolve(f"stdio:{sys.executable} -m uno_cli conformance serve "
                   "--adapter module:tiny_engine:FakeAdapter")
    assert spec.kind == "stdio" and spec.out_of_process

    def factory() -> StdioAdapter:
        a = spec.factory()
        a.env = ENV
        return a

    report = Runner(factory).run(TINY)
    assert report.summary()["passed"] == 5, [r.message for r in report.results]


@pytest.mark.parametrize(("value", "needle"), [
    ("stdio:", "needs a command line"),
    ("stdio:'unclosed", "bad command line"),
    ("module:nowhere.at.all:Thing", "cannot import"),
    ("module:json", "package.module:Class"),
    ("carrier-pigeon", "unknown adapter"),
])
def test_bad_adapter_specs(value: str, needle: str) -> None:
    with pytest.raises(AdapterSpecError, match=needle):
        resolve(value)


def test_rlcard_gives_a_clear_error_when_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    # RLCard made unimportable whether or not it is installed (CI installs it): a None entry in
    # sys.modules is what `importlib.util.find_spec` reports as "not found".
    monkeypatch.setitem(sys.modules, "rlcard", None)
    with pytest.raises(AdapterSpecError, match=r"pip install 'uno-fsm\[rlcard\]'"):
        resolve("rlcard")
