"""The built wheel carries spec/ and the corpus, and the installed CLI finds them anywhere.

Builds the wheel the way `pip install .` does (not editable), unpacks it into a temporary
directory and runs `uno-fsm` from that copy, in another working directory.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from ci_helpers import unavailable

ROOT = Path(__file__).resolve().parent.parent


def _build_and_unpack(src: Path, out: Path, *pip_options: str,
                      env: dict[str, str] | None = None) -> Path:
    """`pip wheel` of `src` into `out`, unpacked into `out/site`."""
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *pip_options, "-q", "-w", str(out),
         str(src)],
        capture_output=True, text=True, timeout=600, env=env,
    )
    if proc.returncode != 0:
        pytest.fail(f"building the wheel of {src} failed:\n{proc.stdout}\n{proc.stderr}")
    wheels = list(out.glob("uno_fsm-*.whl"))
    assert len(wheels) == 1, wheels
    target = out / "site"
    with zipfile.ZipFile(wheels[0]) as zf:
        zf.extractall(target)
    return target


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build_and_unpack(ROOT, tmp_path_factory.mktemp("wheel"))


def _run(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("UNO_FSM_SPEC", None)
    return subprocess.run([sys.executable, "-m", "uno_cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_wheel_ships_spec_and_corpus(unpacked_wheel: Path) -> None:
    data = unpacked_wheel / "uno_spec" / "data"
    for sub in ("sources", "rules", "rulings", "rulesets", "matches", "schema", "seeds"):
        assert any((data / sub).iterdir()), f"wheel lacks spec/{sub}"
    assert len(list((data / "seeds").glob("*.txt"))) == 5
    assert (data / "schema" / "scenario.schema.json").is_file()
    corpus = unpacked_wheel / "conformance" / "corpus"
    assert len(list(corpus.rglob("*.yaml"))) >= 20


def test_installed_cli_finds_its_data_from_another_directory(
    unpacked_wheel: Path, tmp_path: Path
) -> None:
    where = _run(unpacked_wheel, tmp_path, "--help")
    assert where.returncode == 0, where.stderr
    probe = subprocess.run(
        [sys.executable, "-c", "import uno_spec, conformance; print(uno_spec.__file__); "
         "print(conformance.__file__)"],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(unpacked_wheel)),
        capture_output=True, text=True, timeout=60,
    )
    # the copy under test is the unpacked wheel, not the checkout
    assert all(line.startswith(str(unpacked_wheel)) for line in probe.stdout.split()), probe.stdout

    lint = _run(unpacked_wheel, tmp_path, "spec", "lint")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "spec lint OK" in lint.stdout

    show = _run(unpacked_wheel, tmp_path, "rules", "show", "CL.PLAY.MATCH")
    assert show.returncode == 0, show.stderr
    assert "classic-br" in show.stdout

    run = _run(unpacked_wheel, tmp_path, "conformance", "run", "--no-progress", "--id",
               "classic.skip.*", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert '"passed"' in run.stdout


def test_installed_messages_show_package_paths_not_site_packages(
    unpacked_wheel: Path, tmp_path: Path
) -> None:
    """Issue 17 item 4: a file of the installed packages is named relative to the installation
    (the package path), from any working directory."""
    show = _run(unpacked_wheel, tmp_path, "rules", "show", "CL.PLAY.MATCH")
    assert show.stdout.splitlines()[0] == \
        "CL.PLAY.MATCH  [classic-play]  uno_spec/data/rules/classic-play.yaml:9"
    run = _run(unpacked_wheel, tmp_path, "conformance", "run", "--no-progress", "--id",
               "classic.skip.*", "--adapter", f"stdio:{sys.executable} -c pass", "--format",
               "json", "--no-expectations")
    assert run.returncode == 2, run.stderr
    files = {r["file"].rsplit("/", 1)[0] for r in json.loads(run.stdout)["results"]}
    assert files == {"conformance/corpus/classic"}
    assert str(unpacked_wheel) not in run.stdout + run.stderr + show.stdout


def test_wheel_carries_every_package_of_the_checkout(unpacked_wheel: Path) -> None:
    """Every directory with an `__init__.py` is in the wheel (pyproject lists packages by
    hand; `uno_fsm.oracle` was once missing, so `uno-fsm fuzz` failed when installed)."""
    checkout = {p.parent.relative_to(ROOT).as_posix()
                for top in ("uno_spec", "uno_fsm", "conformance", "uno_cli")
                for p in (ROOT / top).rglob("__init__.py")}
    shipped = {p.parent.relative_to(unpacked_wheel).as_posix()
               for p in unpacked_wheel.rglob("__init__.py")}
    assert checkout - shipped == set()


def test_installed_fuzz_runs(unpacked_wheel: Path, tmp_path: Path) -> None:
    fuzz = _run(unpacked_wheel, tmp_path, "fuzz", "--minutes", "0.005", "--ruleset",
                "classic-official", "--players", "2", "--seed", "1")
    assert fuzz.returncode == 0, fuzz.stdout + fuzz.stderr
    assert "rule IDs checked" in fuzz.stderr


# ---- the optional compiled build (setup.py, UNO_FSM_MYPYC=1) --------------------------------
# The engine tests that hold for the compiled engine too: all but those that patch the
# engine's methods at run time (mutants: a compiled class cannot be patched) and the
# machine-agreement tests (python-statemachine inspects the guards' Python code objects).
COMPILED_SUITE = [*sorted(str(p.relative_to(ROOT))
                          for p in (ROOT / "tests").glob("test_engine_*.py")
                          if p.name != "test_engine_machine.py"),
                  "tests/test_fuzz_machine.py", "tests/test_match.py", "tests/test_params.py"]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "uno_spec", "uno_fsm", "conformance",
           "uno_cli", "spec")


def _c_toolchain() -> None:
    """A C compiler and Python's headers, which mypyc needs: skipped without them, except in
    CI (where .ci/run installs Debian's gcc and python3-dev)."""
    missing = [what for what, there in (
        ("a C compiler (cc)", shutil.which("cc") or shutil.which("gcc")),
        ("Python's headers (Python.h)",
         (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file()))
        if not there]
    if not missing:
        return
    unavailable(f"the compiled build needs {' and '.join(missing)}",
                "apt-get install gcc python3-dev (.ci/run does)")


def test_no_c_toolchain_fails_in_ci_and_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="needs a C compiler"):
        _c_toolchain()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="needs a C compiler"):
        _c_toolchain()


@pytest.fixture(scope="module")
def compiled_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of `UNO_FSM_MYPYC=1 pip wheel --no-build-isolation`, built from a copy of
    the sources (so no compiled file lands in the checkout's build/), unpacked."""
    _c_toolchain()
    out = tmp_path_factory.mktemp("compiled")
    src = out / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        else:
            shutil.copy2(ROOT / name, src / name)
    return _build_and_unpack(src, out, "--no-build-isolation",
                             env=dict(os.environ, UNO_FSM_MYPYC="1"))


def test_the_compiled_build_is_compiled_and_the_default_is_not(
    compiled_site: Path, unpacked_wheel: Path, tmp_path: Path
) -> None:
    probe = "import uno_fsm, uno_fsm.game; print(uno_fsm.compiled(), uno_fsm.game.__file__)"
    got = {}
    for name, site in (("compiled", compiled_site), ("default", unpacked_wheel)):
        proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(site)))
        assert proc.returncode == 0, proc.stderr
        got[name] = proc.stdout.split()
    assert got["compiled"][0] == "True" and got["compiled"][1].endswith(".so")
    assert got["compiled"][1].startswith(str(compiled_site))
    assert got["default"] == ["False", str(unpacked_wheel / "uno_fsm" / "game.py")]


def test_the_compiled_engine_passes_the_whole_corpus(compiled_site: Path, tmp_path: Path) -> None:
    run = _run(compiled_site, tmp_path, "conformance", "run", "--no-progress", "--format",
               "json")
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
    summary = json.loads(run.stdout)["summary"]
    assert summary["passed"] == summary["total"] > 700, summary


def test_the_compiled_engine_passes_the_engine_tests(compiled_site: Path) -> None:
    """The engine's own tests, run from the checkout against the compiled package (`-P`: the
    working directory is not put first on the path, so `uno_fsm` is the compiled copy)."""
    env = dict(os.environ, PYTHONPATH=str(compiled_site))
    probe = subprocess.run([sys.executable, "-P", "-c",
                            "import uno_fsm; print(uno_fsm.compiled())"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60, env=env)
    assert probe.stdout.strip() == "True", probe.stderr
    proc = subprocess.run(
        [sys.executable, "-P", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
         *COMPILED_SUITE, "-k", "not machine_agree"],
        cwd=ROOT, capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_the_compiled_engine_fuzzes(compiled_site: Path, tmp_path: Path) -> None:
    for ruleset in ("classic-official", "flip", "classic-official+stacking+jump-in"):
        fuzz = _run(compiled_site, tmp_path, "fuzz", "--minutes", "0.005", "--ruleset", ruleset,
                    "--seed", "2")
        assert fuzz.returncode == 0, fuzz.stdout + fuzz.stderr
        assert "rule IDs checked" in fuzz.stderr


def test_the_bench_says_it_measured_the_compiled_engine(compiled_site: Path,
                                                        tmp_path: Path) -> None:
    corpus = ROOT / "conformance" / "corpus" / "classic" / "skip.yaml"
    bench = _run(compiled_site, tmp_path, "bench", "--format", "json", "--repeat", "1",
                 "--actions", "1", "--fuzz-examples", "1",
                 "--corpus", str(corpus))
    assert bench.returncode == 0, bench.stderr
    assert json.loads(bench.stdout)["machine"]["engine_build"] == "mypyc"
