"""Reading input files without blocking or exhausting memory; writing outputs atomically.

Every YAML file the project reads (spec files, scenario files, expectation files) goes through
`read_text`: a file that is not a regular file (a FIFO, a device, a directory, a socket) is
refused without being waited on (it is opened with O_NONBLOCK and checked with fstat), a file
larger than `MAX_FILE_BYTES` is refused after reading at most that many bytes plus one, and
bytes that are not UTF-8 are named with their line and column.

Every report, page or expectation file the project writes goes through `write_text_atomic`:
the text goes to a temporary file in the same directory, is flushed to disk (fsync) and then
renamed over the target (`os.replace`), so a reader, or a second run writing the same file,
sees the old file or the new one, never half of one. `output_problem` checks an output path
before any work starts, so a run that cannot save its report does not run. JSON output is
strict (`json_text`): a NaN or an infinity is written as the string "NaN", "Infinity" or
"-Infinity", never as the bare tokens that JSON does not have.
"""

from __future__ import annotations

import json
import math
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

# The largest input file read (bytes). Scenario and spec files are tens of KiB; tests lower it.
MAX_FILE_BYTES = 4 * 1024 * 1024


class InputError(Exception):
    """An input file that cannot be read; `line` is 0 when no line applies."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str:
    """What a file of this st_mode is, in words (for messages)."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def read_bytes(path: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (default MAX_FILE_BYTES).

    Never blocks: the file is opened with O_NONBLOCK (a FIFO opens at once, without a writer)
    and anything but a regular file is refused before a byte is read. Raises InputError.
    """
    cap = MAX_FILE_BYTES if limit is None else limit
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(f"cannot read: {kind_of(mode)}, not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > cap:
        raise InputError(f"file larger than {cap} bytes (the input size limit)")
    return b"".join(chunks)


def decode_utf8(data: bytes) -> str:
    """`data` as text; InputError naming the line and column of the first byte that is not
    UTF-8. A leading byte-order mark is dropped."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[:exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise InputError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} at column {column}",
                         line) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_text(path: Path, limit: int | None = None) -> str:
    """A regular UTF-8 text file of at most `limit` bytes (see read_bytes, decode_utf8)."""
    return decode_utf8(read_bytes(path, limit))


def output_problem(path: Path) -> str | None:
    """Why `path` cannot be written as an output file (in words), or None when it can.

    Checked before a run starts: the path is not a directory nor a special file, and its
    directory exists (or can be created) and is writable. Creates the missing parents.
    """
    try:
        st = path.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        return f"{path}: cannot write: {exc.strerror or exc}"
    if st is not None and not stat.S_ISREG(st.st_mode):
        return f"{path}: cannot write: {kind_of(st.st_mode)}, not a regular file"
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"{path}: cannot write: {exc.strerror or exc}"
    if not parent.is_dir():
        return f"{path}: cannot write: {parent} is not a directory"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{path}: cannot write: directory {parent} is not writable"
    return None


def write_text_atomic(path: Path, text: str, sync: bool = True) -> None:
    """Write `text` (UTF-8) to `path` atomically: temporary file beside it, fsync, rename.

    The parents are created; an existing file keeps its permission bits. Raises OSError (the
    temporary file is removed). `sync=False` skips the fsync (a cache file, which a reader
    checks and may lose: atomic for readers, not durable across a crash).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        try:
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        except FileNotFoundError:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_file(path: Path, text: str) -> str | None:
    """`write_text_atomic`; the problem in one line (None when written)."""
    problem = output_problem(path)
    if problem is not None:
        return problem
    try:
        write_text_atomic(path, text)
    except OSError as exc:
        return f"{path}: cannot write: {exc.strerror or exc}"
    return None


def finite(value: Any) -> Any:
    """JSON data with every NaN or infinite float replaced by its name as a string."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def json_text(value: Any, indent: int | None = 2) -> str:
    """Strict JSON text (allow_nan=False, after `finite`). `finite` walks the data only when
    there is a NaN or an infinity to replace (a report of the corpus is ~50 000 values)."""
    try:
        return json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)
    except ValueError:  # "Out of range float values are not JSON compliant"
        return json.dumps(finite(value), ensure_ascii=False, indent=indent, allow_nan=False)
