"""The cache of parsed, validated scenario files (conformance/corpus_cache.py): the same
scenarios with or without it; stale, corrupt and hostile entries ignored; its place, its
switch; and filters that skip what they do not select before validating it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import cache_helpers
import pytest

from conformance import corpus_cache
from conformance.scenario import CORPUS_ROOT, Filters, Scenario, load_corpus
from uno_cli.main import main
from uno_spec import cache as spec_cache
from uno_spec import loader

GOOD = """\
id: cache.demo.{n}
title: a valid scenario
ruleset: classic-official
cites: [classic-br:play:1]
rules: [CL.PLAY.MATCH]
features: [basic-play, two-player]
setup:
  players: 2
  dealer: 1
  current: 0
  hands: {{0: [R7, B1], 1: [Y3]}}
  discard: [R5]
  draw: [G1]
steps:
  - act: {{player: 0, play: R7}}
  - expect: {{current: 1, top: R7}}
"""


def _scenarios_file(tmp_path: Path, *bodies: str, name: str = "s.yaml") -> Path:
    """A file of several scenarios (`scenarios:` list) from scenario texts."""
    items = ["  - " + "\n    ".join(body.rstrip("\n").split("\n")) for body in bodies]
    path = tmp_path / name
    path.write_text("scenarios:\n" + "\n".join(items) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(spec_cache.ENV_DIR, str(folder))
    monkeypatch.delenv(spec_cache.ENV_OFF, raising=False)
    return folder


def _entries(folder: Path) -> list[Path]:
    return sorted((folder / "scenarios").glob("*/*.json"))


def _everything(scenarios: list[Scenario]) -> list[tuple[Any, ...]]:
    """Every field, those left out of `==` included."""
    return [(sc, sc.file, sc.raw_lines, [(st, st.line) for st in sc.steps]) for sc in scenarios]


def test_the_bundled_corpus_loads_the_same_from_the_cache(cache_dir: Path) -> None:
    cold = load_corpus(cache=False)
    assert not _entries(cache_dir)
    first = load_corpus()  # fills the cache
    files = sorted(CORPUS_ROOT.rglob("*.yaml"))
    assert len(_entries(cache_dir)) == len(files)
    warm = load_corpus()  # reads it
    assert not cold.errors and not first.errors and not warm.errors
    assert _everything(warm.scenarios) == _everything(first.scenarios) == \
        _everything(cold.scenarios)
    assert warm.total == cold.total == len(cold.scenarios) >= 700
    assert not list(cache_dir.rglob(".*.tmp"))  # written atomically, nothing left behind


def test_an_entry_is_keyed_by_the_files_bytes(cache_dir: Path, tmp_path: Path) -> None:
    path = _scenarios_file(tmp_path, GOOD.format(n=1))
    assert [s.title for s in load_corpus([path]).scenarios] == ["a valid scenario"]
    [entry] = _entries(cache_dir)
    assert entry.stem == hashlib.sha256(path.read_bytes()).hexdigest()
    path.write_text(path.read_text().replace("a valid scenario", "edited"), encoding="utf-8")
    assert [s.title for s in load_corpus([path]).scenarios] == ["edited"]
    path.write_text(path.read_text().replace("[R7, B1]", "[ZZ, B1]"), encoding="utf-8")
    [error] = load_corpus([path]).errors  # an invalid file is parsed, never cached
    assert "'ZZ' is not a card" in str(error)
    assert len(_entries(cache_dir)) == 2


def test_the_version_follows_the_loaders_limits_and_parser(
        cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(GOOD.format(n=1), encoding="utf-8")
    assert not load_corpus([path]).errors
    before = corpus_cache.version()
    monkeypatch.setattr(loader, "MAX_DEPTH", 3)  # the file nests 4 deep: now too deep
    assert corpus_cache.version() != before
    [error] = load_corpus([path]).errors
    assert str(error) == f"{path}:11: YAML error: the document nests deeper than 3 levels"
    monkeypatch.setattr(loader, "MAX_DEPTH", 64)
    monkeypatch.setattr(loader, "FAST_LOADER", None)  # the pure-Python parser: its own entries
    assert corpus_cache.version() not in (before, None)


def test_the_version_follows_the_rulesets_the_checks_read(
        cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from conformance import specdata

    spec = tmp_path / "spec"
    shutil.copytree(Path(loader.__file__).resolve().parent.parent / "spec", spec)
    monkeypatch.setenv("UNO_FSM_SPEC", str(spec))
    specdata.clear_caches()
    try:
        path = _scenarios_file(tmp_path, GOOD.format(n=1))
        assert not load_corpus([path]).errors
        ruleset = spec / "rulesets" / "classic-official.yaml"
        text = ruleset.read_text(encoding="utf-8")
        assert "min: 2" in text
        ruleset.write_text(text.replace("min: 2", "min: 3", 1), encoding="utf-8")
        specdata.clear_caches()
        [error] = load_corpus([path]).errors  # not the stale entry: the new rule is applied
        assert "2 players: ruleset classic-official is played by 3 to 10 players" in str(error)
    finally:
        monkeypatch.delenv("UNO_FSM_SPEC")
        specdata.clear_caches()


def _corruptions(entry_bytes: bytes) -> list[tuple[str, Any]]:
    """(name, corruption) for a valid entry (`cache_helpers.corrupt`): those of any entry, and
    payloads of the right digest whose types are not a scenario's."""
    good = json.loads(entry_bytes.partition(b"\n")[2])

    def forged(payload: Any) -> bytes:
        return cache_helpers.forged(entry_bytes, payload)

    wrong_id = [{**good[0], "id": 7}]
    wrong_step = [{**good[0], "steps": [[1, 2, {"player": 0}, None, False, {"x": 1}, None]]}]
    extra_key = [{**good[0], "evil": True}]
    other = json.dumps([{**good[0], "title": "a forged scenario"}, *good[1:]]).encode()
    return [
        *cache_helpers.corruptions(entry_bytes, digest_mismatch=other),
        ("id not a string", forged(wrong_id)),
        ("a step both act and expect", forged(wrong_step)),
        ("an unknown field", forged(extra_key)),
        ("empty list", forged([])),
        ("NaN", forged(json.dumps(good).replace('"seed": 0', '"seed": NaN').encode())),
        ("a float seed", forged(json.dumps(good).replace('"seed": 0', '"seed": 0.5').encode())),
    ]


def test_a_corrupt_or_hostile_entry_is_a_miss_never_a_crash_nor_a_change(
        cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _scenarios_file(tmp_path, GOOD.format(n=1), GOOD.format(n=2))
    expected = _everything(load_corpus([path], cache=False).scenarios)
    assert _everything(load_corpus([path]).scenarios) == expected
    [entry] = _entries(cache_dir)
    good_bytes = entry.read_bytes()
    for name, corruption in _corruptions(good_bytes):
        cache_helpers.corrupt(entry, corruption, good_bytes, monkeypatch)
        loaded = load_corpus([path])
        assert not loaded.errors, name
        assert _everything(loaded.scenarios) == expected, name
        cache_helpers.restore(entry, corruption, good_bytes, name, monkeypatch)


def test_a_forged_entry_with_a_matching_digest_is_believed(cache_dir: Path,
                                                          tmp_path: Path) -> None:
    # What the digest does not do, said plainly (docs/robustness.md): it catches a truncated
    # or corrupt entry, not one written on purpose by someone who can write the user's files.
    path = _scenarios_file(tmp_path, GOOD.format(n=1))
    load_corpus([path])
    [entry] = _entries(cache_dir)
    payload = json.loads(entry.read_bytes().partition(b"\n")[2])
    payload[0]["title"] = "forged"
    entry.write_bytes(cache_helpers.forged(entry.read_bytes(), payload))
    assert [s.title for s in load_corpus([path]).scenarios] == ["forged"]
    assert [s.title for s in load_corpus([path], cache=False).scenarios] == ["a valid scenario"]


def test_the_cache_can_be_turned_off(cache_dir: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = _scenarios_file(tmp_path, GOOD.format(n=1))
    load_corpus([path], cache=False)
    monkeypatch.setenv(spec_cache.ENV_OFF, "1")
    load_corpus([path])
    assert not cache_dir.exists()
    monkeypatch.setenv(spec_cache.ENV_OFF, "0")
    load_corpus([path])
    assert len(_entries(cache_dir)) == 1


def test_the_default_place_is_the_users_cache_directory(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    monkeypatch.delenv(spec_cache.ENV_DIR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert spec_cache.root() == tmp_path / "xdg" / "uno-fsm"
    monkeypatch.setenv(spec_cache.ENV_DIR, str(tmp_path / "mine"))
    assert spec_cache.root() == tmp_path / "mine"


def test_a_cache_that_cannot_be_written_leaves_loading_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv(spec_cache.ENV_DIR, str(blocker))
    path = _scenarios_file(tmp_path, GOOD.format(n=1))
    loaded = load_corpus([path])
    assert [s.id for s in loaded.scenarios] == ["cache.demo.1"] and not loaded.errors
    assert blocker.read_text(encoding="utf-8") == "not a directory"


def test_old_versions_are_pruned(cache_dir: Path, tmp_path: Path) -> None:
    for i in range(6):
        old = cache_dir / "scenarios" / f"{i:032x}"
        old.mkdir(parents=True)
        os.utime(old, (1000 + i, 1000 + i))
    (cache_dir / "scenarios" / "not-a-version").mkdir()
    load_corpus([_scenarios_file(tmp_path, GOOD.format(n=1))])
    kept = sorted(p.name for p in (cache_dir / "scenarios").iterdir())
    assert kept == sorted([f"{i:032x}" for i in (3, 4, 5)] + [corpus_cache.version() or "",
                                                               "not-a-version"])


# --- filters skip what they do not select, before validating it ------------------------------

BAD = GOOD.format(n="bad").replace("R7, B1]", "ZZ, B1]")


def test_an_unselected_malformed_scenario_is_not_validated(cache_dir: Path,
                                                          tmp_path: Path) -> None:
    path = _scenarios_file(tmp_path, GOOD.format(n=1), BAD)
    good = load_corpus([path], select=Filters(ids=("cache.demo.1",)))
    assert [s.id for s in good.scenarios] == ["cache.demo.1"] and not good.errors
    assert good.total == 2
    assert not _entries(cache_dir)  # a file validated in part is not cached
    [error] = load_corpus([path], select=Filters(ids=("cache.demo.b*",))).errors
    assert str(error).startswith(f"{path}:")
    assert ": scenario cache.demo.bad: setup.hands.0[0]: 'ZZ' is not a card" in str(error)
    [error] = load_corpus([path]).errors  # without a filter, as ever
    assert "cache.demo.bad" in str(error)


def test_a_file_that_is_not_yaml_is_an_error_whatever_the_filter(tmp_path: Path,
                                                                 cache_dir: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("id: [unclosed\n", encoding="utf-8")
    [error] = load_corpus([path], select=Filters(ids=("nothing.*",))).errors
    assert str(error).startswith(f"{path}:")


@pytest.mark.parametrize(("raw", "selected"), [
    ({"id": "cache.demo.1"}, True),
    ({"id": "other.x"}, False),
    ({"id": 7}, True),  # a malformed id never makes it skipped: it is validated, and refused
    ({"id": 7, "ruleset": "flip"}, False),  # but a well-formed field that does not match does
    ({"id": "cache.demo.1", "ruleset": ["classic-official"]}, True),
    ({"id": "cache.demo.1", "features": "basic-play"}, True),
    ({"id": "cache.demo.1", "features": ["stacking", 3]}, True),
    ({}, True),
])
def test_a_filter_skips_only_what_well_formed_fields_exclude(raw: dict[str, Any],
                                                             selected: bool) -> None:
    filters = Filters(ids=("cache.*",), rulesets=("classic-*",), features=("basic-play",))
    assert filters.may_match(raw) is selected


def test_run_with_a_filter_ignores_an_unselected_malformed_scenario(
        cache_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _scenarios_file(tmp_path, GOOD.format(n=1), BAD)
    out = tmp_path / "r.json"
    assert main(["conformance", "run", str(path), "--id", "cache.demo.1", "--format", "json",
                 "--output", str(out), "--no-progress"]) == 0
    assert [r["id"] for r in json.loads(out.read_text())["results"]] == ["cache.demo.1"]
    capsys.readouterr()
    assert main(["conformance", "run", str(path), "--id", "cache.demo.bad", "--no-progress"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"uno-fsm conformance: {path}:28: scenario cache.demo.bad: "
                           "setup.hands.0[0]: 'ZZ' is not a card: a card is a colour letter")


def test_two_runs_give_the_same_report_cold_and_warm(cache_dir: Path, tmp_path: Path) -> None:
    reports = []
    for name in ("cold", "warm"):
        out = tmp_path / f"{name}.json"
        assert main(["conformance", "run", "--ruleset", "flip*", "--format", "json", "--output",
                     str(out), "--no-progress"]) == 0
        data = json.loads(out.read_text())
        reports.append([(r["id"], r["status"]) for r in data["results"]])
        if name == "cold":
            assert _entries(cache_dir)
    assert reports[0] == reports[1] and len(reports[0]) > 20


def test_a_corpus_read_from_the_cache_imports_no_validator(cache_dir: Path) -> None:
    code = ("import sys\nfrom conformance.scenario import load_corpus\n"
            "c = load_corpus()\n"
            "print(len(c.scenarios), len(c.errors), "
            "sorted(m for m in ('jsonschema', 'jsonschema_rs') if m in sys.modules))")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, spec_cache.ENV_DIR: str(cache_dir)})
            .stdout.split(maxsplit=2) for _ in range(2)]
    assert runs[0][:2] == runs[1][:2] and int(runs[0][0]) >= 700 and runs[0][1] == "0"
    assert runs[0][2].strip() == "['jsonschema_rs']"  # cold: validated
    assert runs[1][2].strip() == "[]"  # warm: read back, nothing to validate


def test_the_test_session_never_uses_the_users_cache() -> None:
    import tempfile

    import platformdirs

    users = Path(platformdirs.user_cache_dir("uno-fsm", appauthor=False))
    session = spec_cache.root()  # tests/conftest.py, for this process and its children
    assert session is not None and session != users
    assert session.is_relative_to(Path(tempfile.gettempdir()))


def test_a_version_keeps_its_most_recently_written_entries(
        cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A corpus edited again and again leaves an entry per state of each file: the first write
    of a load keeps the MAX_ENTRIES most recently written and removes the rest; anything else
    in the folder (a link, a folder, a FIFO, another name) is neither followed nor removed."""
    monkeypatch.setattr(spec_cache, "MAX_ENTRIES", 5)
    folder = cache_dir / "scenarios" / (corpus_cache.version() or "")
    folder.mkdir(parents=True)
    for i in range(8):
        old = folder / f"{i:064x}.json"
        old.write_text("stale", encoding="utf-8")
        os.utime(old, (1000 + i, 1000 + i))
    outside = tmp_path / "outside.json"
    outside.write_text("not the cache's", encoding="utf-8")
    (folder / "link.json").symlink_to(outside)
    os.utime(folder / "link.json", (1, 1), follow_symlinks=False)
    (folder / "folder.json").mkdir()
    os.mkfifo(folder / "fifo.json")  # never opened: a reader would wait on it
    (folder / "notes.txt").write_text("kept", encoding="utf-8")
    os.utime(folder / "notes.txt", (1, 1))
    path = _scenarios_file(tmp_path, GOOD.format(n=1))
    loaded = load_corpus([path])
    assert [s.id for s in loaded.scenarios] == ["cache.demo.1"] and not loaded.errors
    new = folder / f"{hashlib.sha256(path.read_bytes()).hexdigest()}.json"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [new.name, *(f"{i:064x}.json" for i in (4, 5, 6, 7)), "link.json", "folder.json",
         "fifo.json", "notes.txt"])
    assert outside.read_text(encoding="utf-8") == "not the cache's"
    # what was removed is only a miss: loaded again, the same scenarios
    os.utime(new, (1, 1))  # now the oldest: removed at the next write
    second = _scenarios_file(tmp_path, GOOD.format(n=2), name="t.yaml")
    again = load_corpus([path, second])
    assert [s.id for s in again.scenarios] == ["cache.demo.1", "cache.demo.2"]
    assert not again.errors and not new.exists()
    third = load_corpus([path])  # a miss, parsed again and written again
    assert [s.id for s in third.scenarios] == ["cache.demo.1"] and not third.errors
    # (five entries again, and the link, the folder and the FIFO)
    assert new.is_file() and len(list(folder.glob("*.json"))) == 5 + 3
