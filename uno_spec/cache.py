"""An on-disk cache of what was built from spec and scenario files, keyed by content.

Parsing YAML is most of what loading the spec's rules or the scenario corpus costs; files whose
bytes have not changed give the same result. Two caches use this module, each in its own
folder (its *kind*):

- `scenarios`: parsed, validated scenario files (`conformance.corpus_cache`,
  `conformance.scenario.load_corpus`), one entry per file, under the SHA-256 of its bytes;
- `rules`: the rule catalogue of `spec/rules/*.yaml` (`uno_spec.loader.load_rules`), one entry.

Entries live in a directory named for a *version* (`version`): a SHA-256 of this format, the
Python and PyYAML versions, the YAML loader's limits and parser
(`uno_spec.loader.parser_params`), the source of the modules that decide what is built (each
cache lists its own), the names and bytes of the data files those modules read, and any other
parameter a cache names (the rules cache: its spec root). A change to any of them starts a new
version directory (the last `KEEP_VERSIONS` of a kind are kept); an entry is never consulted
across versions. Within a version, the `MAX_ENTRIES` most recently written entries are kept:
the first write of each load removes the older ones (an entry removed is only a miss, written
again the next time its file is loaded).

Where: `$UNO_FSM_CACHE_DIR` when set, else the platform's user cache directory
(platformdirs: `$XDG_CACHE_HOME/uno-fsm` or `~/.cache/uno-fsm` on Linux, `~/Library/Caches/uno-fsm`
on macOS, `%LOCALAPPDATA%\\uno-fsm\\Cache` on Windows), then `<kind>/<version>/<key>.json`.
`UNO_FSM_NO_CACHE=1` (any value but empty or `0`) turns every cache off. Deleting the directory
is safe at any time.

An entry is a header line (JSON: format, version, the entry's key, the SHA-256 of the rest) and
the payload (JSON). Reading is best effort and never trusted blindly: an entry that is not a
regular file, is larger than `MAX_ENTRY_BYTES`, does not parse, names another format, version
or key, or whose payload does not match its digest is a miss, and the files are parsed as if
there were no cache (each user also checks the type of every value it rebuilds: `typed`,
`str_list`). Writing is atomic (a temporary file renamed over the entry), without fsync: a lost
or truncated entry is only a miss. A cache directory that cannot be created or written leaves
loading as it is, uncached. What is cached is only ever a load that succeeded: a file with an
error is parsed again each time, and its error raised as without a cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

FORMAT = 1
ENV_DIR = "UNO_FSM_CACHE_DIR"
ENV_OFF = "UNO_FSM_NO_CACHE"
# The largest entry read back (bytes); the corpus's largest file gives an entry of ~150 KB,
# the rule catalogue one of ~120 KB.
MAX_ENTRY_BYTES = 64 * 1024 * 1024
# Version directories of a kind kept when a new one is made (two checkouts alternating keep
# theirs).
KEEP_VERSIONS = 4
# Entries of one version kept, the most recently written (a corpus edited again and again
# leaves an entry for each state of each file; the bundled corpus needs 70, about 1 MB).
MAX_ENTRIES = 5_000

# The directory holding the packages: the names in a cache's list of code files are relative
# to it (`uno_spec/loader.py`).
PACKAGES_ROOT = Path(__file__).resolve().parent.parent


def enabled() -> bool:
    return os.environ.get(ENV_OFF, "") in ("", "0")


def root() -> Path | None:
    """The cache directory (one folder per kind), or None when there is none."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("uno-fsm", appauthor=False))
    except Exception:  # no home directory, an unknown platform: no cache
        return None


def read_files(named: Iterable[tuple[str, Path]]) -> list[tuple[str, bytes]] | None:
    """(name, bytes) of each file, read as input files are (`uno_spec.files.read_bytes`: a
    regular file within the size limit, never waited on); None when one cannot be read."""
    from uno_spec.files import InputError, read_bytes

    try:
        return [(name, read_bytes(path)) for name, path in named]
    except InputError:
        return None


def version(code: Sequence[str], data: Iterable[tuple[str, bytes]], params: Any,
            ) -> str | None:
    """The version of a cache (see the module docstring): `code`, the modules that decide what
    is built (paths relative to PACKAGES_ROOT); `data`, (name, bytes) of each data file they
    read; `params`, the other parameters (JSON data: at least the YAML loader's,
    `uno_spec.loader.parser_params()`). None when a module cannot be read (then nothing is
    cached)."""
    sources = read_files((name, PACKAGES_ROOT / name) for name in code)
    if sources is None:
        return None
    h = hashlib.sha256()
    h.update(json.dumps([FORMAT, sys.version_info[:2], params]).encode())
    for name, content in (*sources, *data):
        h.update(name.encode() + b"\0" + content + b"\0")
    return h.hexdigest()[:32]


class Cache:
    """The entries of one version of one kind, under `root/<kind>/<version>/`."""

    def __init__(self, root: Path, kind: str, version: str) -> None:
        self.version = version
        self.folder = root / kind / version
        self._trimmed = False  # `_trim` runs at the first write only

    def _entry(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> Any | None:
        """The payload stored under `key`, or None (a miss: no entry, or one that is
        unreadable, stale or corrupt)."""
        from uno_spec.files import InputError, read_bytes

        try:
            data = read_bytes(self._entry(key), MAX_ENTRY_BYTES)
        except InputError:
            return None
        head, sep, body = data.partition(b"\n")
        if not sep:
            return None
        try:
            header = json.loads(head)
            if header != {"format": FORMAT, "version": self.version, "source": key,
                          "digest": hashlib.sha256(body).hexdigest()}:
                return None
            return json.loads(body)
        except Exception:  # not JSON, too deep (RecursionError), not UTF-8...
            return None

    def put(self, key: str, payload: Any) -> None:
        """Store `payload` (JSON data) under `key`; silently nothing when it cannot be."""
        from uno_spec.files import write_text_atomic

        try:
            body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"),
                              allow_nan=False)
            digest = hashlib.sha256(body.encode()).hexdigest()
        except (TypeError, ValueError):  # a value JSON or UTF-8 cannot hold: not cached
            return
        header = json.dumps({"format": FORMAT, "version": self.version, "source": key,
                             "digest": digest})
        try:
            new = not self.folder.is_dir()
            write_text_atomic(self._entry(key), f"{header}\n{body}", sync=False)
            if new:
                self._prune()
            elif not self._trimmed:
                self._trim()
        except OSError:
            return

    def _trim(self) -> None:
        """Remove this version's entries (regular files named `*.json`, never followed
        through a link) but the MAX_ENTRIES most recently written."""
        self._trimmed = True
        entries: list[tuple[int, str]] = []
        try:
            with os.scandir(self.folder) as found:
                for e in found:
                    if e.name.endswith(".json") and e.is_file(follow_symlinks=False):
                        entries.append((e.stat(follow_symlinks=False).st_mtime_ns, e.path))
        except OSError:
            return
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(reverse=True)
        for _, path in entries[MAX_ENTRIES:]:
            try:
                os.unlink(path)
            except OSError:  # gone already, or not ours to remove: only a miss kept
                pass

    def _prune(self) -> None:
        """Remove the version directories of this kind but the KEEP_VERSIONS most recently
        made."""
        import shutil

        try:
            folders = [p for p in self.folder.parent.iterdir()
                       if p.is_dir() and not p.is_symlink() and len(p.name) == 32
                       and all(c in "0123456789abcdef" for c in p.name)]
            folders.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            return
        for old in folders[KEEP_VERSIONS:]:
            if old != self.folder:
                shutil.rmtree(old, ignore_errors=True)


def open_cache(kind: str, make_version: Callable[[], str | None]) -> Cache | None:
    """The cache of one kind for the version `make_version()` gives, or None when caching is
    off, has no directory or the version cannot be made."""
    if not enabled():
        return None
    where = root()
    if where is None:
        return None
    v = make_version()
    return Cache(where, kind, v) if v is not None else None


# --- checking what a payload rebuilds ------------------------------------------------------
# json.loads builds exactly dict, list, str, int, float, bool and None: `type(x) is`, so that
# a bool is never taken for an int. A value of the wrong type raises ValueError (a miss).


def typed(value: Any, kind: type) -> Any:
    """`value`, when its type is exactly `kind`; else ValueError."""
    if type(value) is not kind:
        raise ValueError(f"{value!r} is not a {kind.__name__}")
    return value


def str_list(value: Any) -> tuple[str, ...]:
    """A list of strings as a tuple; anything else: ValueError."""
    if type(value) is not list or not all(type(v) is str for v in value):
        raise ValueError(f"{value!r} is not a list of strings")
    return tuple(value)
