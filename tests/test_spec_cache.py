"""The on-disk cache of the rule catalogue (uno_spec/cache.py, kind `rules`, filled by
uno_spec.loader.load_rules): the same rules with or without it, whatever the working
directory and the spec root; a changed rule file is a new version; stale, corrupt and hostile
entries ignored; its switch; a cache that cannot be written; errors never cached."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cache_helpers
import pytest

from uno_spec import cache as spec_cache
from uno_spec import loader
from uno_spec.loader import Rule, SpecError

SPEC = Path(loader.__file__).resolve().parent.parent / "spec"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache"
    monkeypatch.setenv(spec_cache.ENV_DIR, str(folder))
    monkeypatch.delenv(spec_cache.ENV_OFF, raising=False)
    loader.clear_caches()  # nothing in memory: every load below goes to the disk
    yield folder
    loader.clear_caches()


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    """A spec root of our own holding a copy of the rule files (all load_rules reads)."""
    root = (tmp_path / "spec").resolve()  # as load_rules resolves it
    shutil.copytree(SPEC / "rules", root / "rules")
    return root


def _entries(folder: Path) -> list[Path]:
    return sorted((folder / "rules").glob("*/*.json"))


def _fresh(monkeypatch: pytest.MonkeyPatch, root: Path | None = None) -> tuple[Rule, ...]:
    """The rules parsed from the files, the cache off."""
    with monkeypatch.context() as m:
        m.setenv(spec_cache.ENV_OFF, "1")
        loader.clear_caches()
        rules = loader.load_rules(root)
    loader.clear_caches()
    return rules


def _parse_refused(text: str, file: str | Path) -> Any:
    raise AssertionError(f"{file} parsed: the cache was not used")


def _from_cache(monkeypatch: pytest.MonkeyPatch, root: Path | None = None) -> tuple[Rule, ...]:
    """The rules as a hit gives them: no YAML may be parsed."""
    with monkeypatch.context() as m:
        m.setattr(loader, "parse_yaml", _parse_refused)
        loader.clear_caches()
        rules = loader.load_rules(root)
    loader.clear_caches()
    return rules


def _load(root: Path | None = None) -> tuple[Rule, ...]:
    loader.clear_caches()
    rules = loader.load_rules(root)
    loader.clear_caches()
    return rules


def test_the_rules_load_the_same_from_the_cache(cache_dir: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = _fresh(monkeypatch)
    assert not cache_dir.exists()
    first = _load()  # fills the cache
    [entry] = _entries(cache_dir)
    warm = _from_cache(monkeypatch)
    # a dataclass compares every field: id, area, statement, cites, rulesets, rulings, file, line
    assert warm == first == fresh and len(fresh) >= 300
    assert all(type(r.cites) is tuple and type(r.line) is int for r in warm)
    assert {r.file for r in warm} == {f"spec/rules/{p.name}" for p in SPEC.glob("rules/*.yaml")}
    assert not list(cache_dir.rglob(".*.tmp"))  # written atomically, nothing left behind
    assert entry.parent.parent == cache_dir / "rules"


def test_the_rule_ids_of_the_engine_come_from_the_cache(cache_dir: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from uno_fsm import invariants

    expected = {r.id for r in _fresh(monkeypatch)}
    _load()
    with monkeypatch.context() as m:
        m.setattr(loader, "parse_yaml", _parse_refused)
        loader.clear_caches()
        assert set(invariants.rule_ids()) == expected


def test_a_hit_shows_files_as_a_parse_does_from_any_directory_and_root(
        cache_dir: Path, spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _load()
    bundled = _from_cache(monkeypatch)
    _load(spec)  # the same bytes under another root: an entry of its own
    assert len(_entries(cache_dir)) == 2
    mine = _from_cache(monkeypatch, spec)
    assert mine == _fresh(monkeypatch, spec)
    assert {r.file for r in mine} == {str(p) for p in spec.glob("rules/*.yaml")}  # not under cwd
    assert [r.id for r in mine] == [r.id for r in bundled]
    assert mine != bundled
    monkeypatch.chdir(spec)  # the display path follows the working directory, cached or not
    moved = _from_cache(monkeypatch, spec)
    assert moved == _fresh(monkeypatch, spec)
    assert {r.file for r in moved} == {f"rules/{p.name}" for p in spec.glob("rules/*.yaml")}
    assert len(_entries(cache_dir)) == 2
    monkeypatch.chdir(tmp_path)
    assert _from_cache(monkeypatch) == _fresh(monkeypatch)


def test_a_changed_rule_file_is_a_new_version(cache_dir: Path, spec: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    before = _load(spec)
    [old] = _entries(cache_dir)
    path = spec / "rules" / "classic-2018.yaml"
    text = path.read_text(encoding="utf-8")
    assert "the deck has 112 cards" in text
    path.write_text(text.replace("the deck has 112 cards", "the deck has 113 cards"),
                    encoding="utf-8")
    after = _load(spec)  # not the stale entry
    assert after == _fresh(monkeypatch, spec) != before
    assert [r.statement for r in after if "113 cards" in r.statement]
    assert len(_entries(cache_dir)) == 2 and old in _entries(cache_dir)
    assert _from_cache(monkeypatch, spec) == after
    (spec / "rules" / "classic-2018.yaml").rename(spec / "rules" / "renamed.yaml")
    renamed = _load(spec)  # a name is part of the version too (it is the rules' file)
    assert {r.file for r in renamed} == {r.file for r in after} - {str(path)} | {
        str(spec / "rules" / "renamed.yaml")}
    assert len(_entries(cache_dir)) == 3


def test_the_version_follows_the_loaders_limits_and_parser(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _load()
    monkeypatch.setattr(loader, "MAX_DEPTH", 63)
    assert _load() == _fresh(monkeypatch)
    monkeypatch.setattr(loader, "FAST_LOADER", None)  # the pure-Python parser
    assert _load() == _fresh(monkeypatch)
    assert len({p.parent for p in _entries(cache_dir)}) == 3


def test_an_error_is_raised_as_without_the_cache_and_never_cached(
        cache_dir: Path, spec: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = _load(spec)
    path = spec / "rules" / "classic-deck.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n  - id: [unclosed\n", encoding="utf-8")
    with pytest.raises(SpecError) as uncached:
        _fresh(monkeypatch, spec)
    for _ in range(2):
        with pytest.raises(SpecError) as cached:
            _load(spec)
        assert str(cached.value) == str(uncached.value)
        assert str(cached.value).startswith(f"{path}:")
    assert len(_entries(cache_dir)) == 1  # the good version's only
    path.unlink()
    os.mkfifo(path)  # unreadable: no version can be made, the file fails in its turn
    with pytest.raises(SpecError) as fifo:
        _load(spec)
    assert str(fifo.value) == f"{path}: cannot read: a FIFO (named pipe), not a regular file"
    path.unlink()
    shutil.copy(SPEC / "rules" / "classic-deck.yaml", path)
    assert _from_cache(monkeypatch, spec) == good


def _corruptions(entry_bytes: bytes) -> list[tuple[str, Any]]:
    """(name, corruption) for a valid entry (`cache_helpers.corrupt`): those of any entry, and
    payloads of the right digest whose shapes are not a list of rules."""
    good = json.loads(entry_bytes.partition(b"\n")[2])
    assert type(good) is list and len(good[0]) == 8  # what the cases below change

    def forged(payload: Any) -> bytes:
        return cache_helpers.forged(entry_bytes, payload)

    def one(index: int, value: Any) -> bytes:  # the first rule with one field changed
        return forged([[*good[0][:index], value, *good[0][index + 1:]], *good[1:]])

    nan = json.dumps([[*good[0][:7], 12345], *good[1:]]).replace(", 12345]", ", NaN]")
    assert "NaN" in nan
    other = json.dumps([[*good[0][:2], "forged", *good[0][3:]], *good[1:]]).encode()
    return [
        *cache_helpers.corruptions(entry_bytes, digest_mismatch=other),
        ("a rule a mapping", forged([dict(enumerate(good[0]))])),
        ("a rule too short", forged([good[0][:7]])),
        ("a rule too long", forged([[*good[0], "extra"]])),
        ("id not a string", one(0, 7)),
        ("area null", one(1, None)),
        ("statement a list", one(2, ["a"])),
        ("cites a string", one(3, "classic-br:play:1")),
        ("cites not strings", one(3, ["classic-br:play:1", 1])),
        ("rulesets a mapping", one(4, {"classic-official": True})),
        ("rulings nested", one(5, [["RUL.X"]])),
        ("file not a rule file", one(6, "../../etc/passwd")),
        ("file a number", one(6, 3)),
        ("line a string", one(7, "4")),
        ("line a bool", one(7, True)),
        ("line a float", one(7, 4.0)),
        ("line 0", one(7, 0)),
        ("line NaN", forged(nan.encode())),
    ]


def test_a_corrupt_or_hostile_entry_is_a_miss_never_a_crash_nor_a_change(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _fresh(monkeypatch)
    assert _load() == expected
    [entry] = _entries(cache_dir)
    good_bytes = entry.read_bytes()
    for name, corruption in _corruptions(good_bytes):
        cache_helpers.corrupt(entry, corruption, good_bytes, monkeypatch)
        assert _load() == expected, name
        cache_helpers.restore(entry, corruption, good_bytes, name, monkeypatch)
    assert _from_cache(monkeypatch) == expected


def test_a_forged_entry_with_a_matching_digest_and_types_is_believed(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What the digest does not do, said plainly (docs/robustness.md): it catches a truncated
    # or corrupt entry, not one written on purpose by someone who can write the user's files.
    _load()
    [entry] = _entries(cache_dir)
    payload = json.loads(entry.read_bytes().partition(b"\n")[2])
    payload[0][2] = "forged"
    entry.write_bytes(cache_helpers.forged(entry.read_bytes(), payload))
    assert _load()[0].statement == "forged"
    assert _fresh(monkeypatch)[0].statement != "forged"


def test_the_cache_can_be_turned_off(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(spec_cache.ENV_OFF, "1")
    rules = _load()
    assert not cache_dir.exists()
    monkeypatch.setenv(spec_cache.ENV_OFF, "0")
    assert _load() == rules
    assert len(_entries(cache_dir)) == 1


def test_a_cache_that_cannot_be_written_leaves_loading_as_it_is(
        cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _fresh(monkeypatch)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv(spec_cache.ENV_DIR, str(blocker))
    assert _load() == expected
    assert blocker.read_text(encoding="utf-8") == "not a directory"
    monkeypatch.setenv(spec_cache.ENV_DIR, str(tmp_path / "ro"))
    (tmp_path / "ro" / "rules").mkdir(parents=True)
    with monkeypatch.context() as m:  # whoever runs the tests (root too) cannot write there
        m.setattr("uno_spec.files.write_text_atomic", _unwritable)
        assert _load() == expected
    assert not any((tmp_path / "ro" / "rules").iterdir())


def _unwritable(path: Path, text: str, sync: bool = True) -> None:
    raise PermissionError(13, "Permission denied", str(path))


def test_old_rule_versions_are_pruned_and_scenarios_kept(cache_dir: Path) -> None:
    for kind in ("rules", "scenarios"):
        for i in range(6):
            old = cache_dir / kind / f"{i:032x}"
            old.mkdir(parents=True)
            os.utime(old, (1000 + i, 1000 + i))
    (cache_dir / "rules" / "not-a-version").mkdir()
    _load()
    [entry] = _entries(cache_dir)
    kept = sorted(p.name for p in (cache_dir / "rules").iterdir())
    assert kept == sorted([f"{i:032x}" for i in (3, 4, 5)] + [entry.parent.name,
                                                               "not-a-version"])
    assert len(list((cache_dir / "scenarios").iterdir())) == 6  # another kind: untouched


def test_a_second_process_parses_no_rule_file(cache_dir: Path) -> None:
    code = ("from uno_spec import loader\n"
            "calls = []\n"
            "parse = loader.parse_yaml\n"
            "loader.parse_yaml = lambda text, file: calls.append(file) or parse(text, file)\n"
            "from uno_fsm.invariants import rule_ids\n"
            "print(len(rule_ids()), len(calls))")
    env = {**os.environ, spec_cache.ENV_DIR: str(cache_dir)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=env).stdout.split() for _ in range(2)]
    rules = len(list((SPEC / "rules").glob("*.yaml")))
    assert runs[0][1] == str(rules)  # cold: every rule file parsed
    assert runs[1] == [runs[0][0], "0"]  # warm: the same rules, nothing parsed
    assert int(runs[0][0]) >= 300
