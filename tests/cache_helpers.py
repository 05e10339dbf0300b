"""Corrupting an entry of the on-disk cache (uno_spec/cache.py), for the tests of its users
(tests/test_corpus_cache.py, tests/test_spec_cache.py): the ways an entry goes wrong whatever
it holds, and entries forged with a matching digest, where only the payload's types can tell."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from uno_spec import cache as spec_cache

# The corruptions that put something else than a regular file in place of the entry (a load
# that misses cannot write a good entry over it).
NOT_A_FILE = ("dir", "fifo", "zero", "dangling")


def forged(entry_bytes: bytes, payload: Any) -> bytes:
    """An entry holding `payload` (JSON data, or the bytes of its text) under the header of
    `entry_bytes` with a digest that matches it."""
    header = json.loads(entry_bytes.partition(b"\n")[0])
    text = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return json.dumps({**header, "digest": hashlib.sha256(text).hexdigest()}).encode() \
        + b"\n" + text


def corruptions(entry_bytes: bytes, digest_mismatch: bytes) -> list[tuple[str, Any]]:
    """(name, corruption) of any entry whose bytes are `entry_bytes`: the bytes to write
    in its place, or the name of what to put there (`corrupt`). `digest_mismatch`: a valid
    payload that is not the one the header's digest names."""
    head, _, body = entry_bytes.partition(b"\n")
    header = json.loads(head)
    return [
        ("empty", b""),
        ("truncated", entry_bytes[:-10]),
        ("header only", head),
        ("garbage", os.urandom(4096)),
        ("not utf-8", b"\xff\xfe\n\xff"),
        ("another version", json.dumps({**header, "version": "0" * 32}).encode() + b"\n" + body),
        ("another format", json.dumps({**header, "format": 0}).encode() + b"\n" + body),
        ("another key", json.dumps({**header, "source": "0" * 64}).encode() + b"\n" + body),
        ("digest mismatch", head + b"\n" + digest_mismatch),
        ("nested deep", forged(entry_bytes, b"[" * 100_000 + b"]" * 100_000)),  # RecursionError
        ("not a list", forged(entry_bytes, {"payload": json.loads(body)})),
        ("a directory", "dir"),
        ("a FIFO", "fifo"),
        ("a link to /dev/zero", "zero"),
        ("a dangling link", "dangling"),
        ("too large", "large"),
    ]


def corrupt(entry: Path, corruption: Any, good_bytes: bytes,
            monkeypatch: pytest.MonkeyPatch) -> None:
    """Put `corruption` (bytes, or a name of `corruptions`) in place of `entry`, whose good
    bytes are `good_bytes`; "large" lowers the size limit below them until `restore`."""
    if entry.is_dir() and not entry.is_symlink():
        entry.rmdir()
    else:
        entry.unlink(missing_ok=True)
    if corruption == "dir":
        entry.mkdir()
    elif corruption == "fifo":
        os.mkfifo(entry)  # opening it for reading would block: it is never waited on
    elif corruption == "zero":
        entry.symlink_to("/dev/zero")
    elif corruption == "dangling":
        entry.symlink_to(entry.parent / "nowhere.json")
    elif corruption == "large":
        monkeypatch.setattr(spec_cache, "MAX_ENTRY_BYTES", len(good_bytes) - 1)
        entry.write_bytes(good_bytes)
    else:
        entry.write_bytes(corruption)


def restore(entry: Path, corruption: Any, good_bytes: bytes, name: str,
            monkeypatch: pytest.MonkeyPatch) -> None:
    """After a load that missed: the size limit back, and a file corrupted in place replaced
    by the good entry again."""
    monkeypatch.setattr(spec_cache, "MAX_ENTRY_BYTES", 64 * 1024 * 1024)
    if not (isinstance(corruption, str) and corruption in NOT_A_FILE):
        assert entry.read_bytes() == good_bytes, name
