"""A cache of parsed, validated scenario files, in the user's cache directory.

Loading the corpus is mostly YAML parsing and validation; a file whose bytes have not changed
gives the same scenarios. So `conformance.scenario.load_corpus` keeps, for each file that loaded
without error, what it built, under the SHA-256 of the file's bytes, in a directory named for
the *version*: a SHA-256 of the code that parses and validates scenarios (the source of the
modules in `CODE`), of the data those checks read (the scenario and match schemas,
`spec/rulesets/`, whose decks and player counts the checks use, and `spec/matches/`, whose
formats a match scenario names), and of the loader's limits and parser. A change
to any of them starts a new version directory (the last `KEEP_VERSIONS` are kept); an entry is
never consulted across versions.

Where: `$UNO_FSM_CACHE_DIR` when set, else the platform's user cache directory
(platformdirs: `$XDG_CACHE_HOME/uno-fsm` or `~/.cache/uno-fsm` on Linux, `~/Library/Caches/uno-fsm`
on macOS, `%LOCALAPPDATA%\\uno-fsm\\Cache` on Windows), then `scenarios/<version>/<sha256>.json`.
`UNO_FSM_NO_CACHE=1` (any value but empty or `0`) turns it off. Deleting the directory is safe
at any time.

An entry is a header line (JSON: format, version, the source file's SHA-256, the SHA-256 of the
rest) and the payload (JSON). Reading is best effort and never trusted blindly: an entry that
is not a regular file, is larger than `MAX_ENTRY_BYTES`, does not parse, names another format,
version or source, or whose payload does not match its digest is a miss, and the file is parsed
as if there were no cache (`conformance.scenario` also checks the shape of every value it
rebuilds). Writing is atomic (a temporary file renamed over the entry), without fsync: a lost
or truncated entry is only a miss. A cache directory that cannot be created or written leaves
loading as it is, uncached.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

FORMAT = 1
ENV_DIR = "UNO_FSM_CACHE_DIR"
ENV_OFF = "UNO_FSM_NO_CACHE"
# The largest entry read back (bytes); the corpus's largest file gives an entry of ~150 KB.
MAX_ENTRY_BYTES = 64 * 1024 * 1024
# Version directories kept when a new one is made (two checkouts alternating keep theirs).
KEEP_VERSIONS = 4

_PACKAGES = Path(__file__).resolve().parent.parent
# The modules whose code decides what a scenario file loads to (or whether it loads).
CODE = ("conformance/scenario.py", "conformance/corpus_cache.py", "conformance/specdata.py",
        "uno_spec/loader.py", "uno_spec/files.py", "uno_spec/schema.py",
        "uno_spec/rulesets.py", "uno_spec/matches.py", "uno_spec/parameters.py")
# The spec data those checks read: the decks and player counts of the rulesets, the match
# formats a match scenario names (their ruleset and players), and the schemas.
DATA = ("rulesets", "matches")


def enabled() -> bool:
    return os.environ.get(ENV_OFF, "") in ("", "0")


def root() -> Path | None:
    """The cache directory (`scenarios/` holds the entries), or None when there is none."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("uno-fsm", appauthor=False))
    except Exception:  # no home directory, an unknown platform: no cache
        return None


def version() -> str | None:
    """The version of the loading code and of the data it checks against (see the module
    docstring); None when a part cannot be read (then nothing is cached)."""
    import yaml

    from uno_spec import loader
    from uno_spec.paths import spec_root

    h = hashlib.sha256()
    fast = loader.FAST_LOADER
    h.update(json.dumps([FORMAT, sys.version_info[:2], yaml.__version__, loader.MAX_DEPTH,
                         loader.MAX_ALIASES, loader.MAX_NODES, loader.MAX_INT_DIGITS,
                         fast.__name__ if fast is not None else None]).encode())
    try:
        for name in CODE:
            h.update(name.encode() + b"\0" + (_PACKAGES / name).read_bytes() + b"\0")
        spec = spec_root()
        for schema in ("scenario", "match", "ruleset"):  # ruleset: a scenario's `params`
            h.update((spec / "schema" / f"{schema}.schema.json").read_bytes() + b"\0")
        for kind in DATA:
            folder = spec / kind
            for path in sorted(folder.iterdir()) if folder.is_dir() else ():
                if path.suffix in (".yaml", ".yml"):
                    h.update(f"{kind}/{path.name}".encode() + b"\0" + path.read_bytes()
                             + b"\0")
    except OSError:
        return None
    return h.hexdigest()[:32]


class Cache:
    """The entries of one version under `root/scenarios/<version>/`."""

    def __init__(self, root: Path, version: str) -> None:
        self.version = version
        self.folder = root / "scenarios" / version

    def _entry(self, source: str) -> Path:
        return self.folder / f"{source}.json"

    def get(self, source: str) -> Any | None:
        """The payload stored for a file whose bytes hash to `source`, or None (a miss: no
        entry, or one that is unreadable, stale or corrupt)."""
        from uno_spec.files import InputError, read_bytes

        try:
            data = read_bytes(self._entry(source), MAX_ENTRY_BYTES)
        except InputError:
            return None
        head, sep, body = data.partition(b"\n")
        if not sep:
            return None
        try:
            header = json.loads(head)
            if header != {"format": FORMAT, "version": self.version, "source": source,
                          "digest": hashlib.sha256(body).hexdigest()}:
                return None
            return json.loads(body)
        except Exception:  # not JSON, too deep (RecursionError), not UTF-8...
            return None

    def put(self, source: str, payload: Any) -> None:
        """Store `payload` (JSON data) for `source`; silently nothing when it cannot be."""
        from uno_spec.files import write_text_atomic

        try:
            body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"),
                              allow_nan=False)
        except (TypeError, ValueError):  # a value JSON cannot hold: not cached
            return
        header = json.dumps({"format": FORMAT, "version": self.version, "source": source,
                             "digest": hashlib.sha256(body.encode()).hexdigest()})
        try:
            new = not self.folder.is_dir()
            write_text_atomic(self._entry(source), f"{header}\n{body}", sync=False)
            if new:
                self._prune()
        except OSError:
            return

    def _prune(self) -> None:
        """Remove the version directories but the KEEP_VERSIONS most recently made."""
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


def open_cache() -> Cache | None:
    """The cache for this code and data, or None when it is off or has no directory."""
    if not enabled():
        return None
    where = root()
    if where is None:
        return None
    v = version()
    return Cache(where, v) if v is not None else None
