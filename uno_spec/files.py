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

import itertools
import json
import math
import os
import re
import signal
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
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


class UnreadableDirectory(Exception):
    """A directory of a `walk` that cannot be listed: `folder`, its `depth` below the root, and
    why (`reason`, the system's words)."""

    def __init__(self, folder: str, depth: int, reason: str) -> None:
        super().__init__(f"{folder}: cannot read the directory: {reason}")
        self.folder, self.depth, self.reason = folder, depth, reason


def walk(root: Path, strict: bool = True) -> Iterator[tuple[str, int, list[str]]]:
    """`(directory, depth below root, names of its entries that are not directories)` for
    `root` and every directory under it, depth first, sub-directories in name order, without
    recursion: a tree thousands of levels deep is walked like a flat one (`os.walk` and 3.11's
    `Path.rglob` recurse, and meet RecursionError about 1 000 levels down). As
    `os.walk(root, followlinks=False)`: a symbolic link to a directory is neither listed nor
    entered (a link loop is never walked); any other entry is listed, whatever it is (a FIFO,
    a dangling link). A directory that cannot be listed (its path longer than PATH_MAX, no
    permission) raises UnreadableDirectory when `strict`, and is skipped otherwise."""
    stack: list[tuple[str, int]] = [(str(root), 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as exc:
            if strict:
                raise UnreadableDirectory(folder, depth, exc.strerror or str(exc)) from None
            continue
        names, below = [], []
        for entry in entries:
            try:
                is_dir = entry.is_dir()  # follows a link, as os.walk does
            except OSError:
                is_dir = False
            if not is_dir:
                names.append(entry.name)
            elif not entry.is_symlink():
                below.append(entry.path)
        yield folder, depth, names
        stack.extend((d, depth + 1) for d in sorted(below, reverse=True))


def path_option(text: str) -> Path:
    """A path given on the command line (argparse `type=`): an empty or blank value (an unset
    variable, `--output "$OUT"`) is refused, never read as `.`, the current directory."""
    if not text.strip():
        import argparse

        raise argparse.ArgumentTypeError("an empty path (an unset variable?); name a file or "
                                         "directory")
    return Path(text)


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


def directory_problem(path: Path, what: str) -> str | None:
    """Why `path` cannot be used as an output directory (`what`: the option naming it, for the
    message), or None: it is a directory or does not exist yet (a FIFO, a file or a device in
    its place is refused, never waited on nor ignored)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{what} {path}: cannot use: {exc.strerror or exc}"
    if not stat.S_ISDIR(st.st_mode):
        return f"{what} {path}: not a directory ({kind_of(st.st_mode)})" \
            if not stat.S_ISREG(st.st_mode) else f"{what} {path}: not a directory (a file)"
    return None


def database_problem(path: Path, what: str) -> str | None:
    """As `directory_problem`, for a folder written throughout a run (Hypothesis' example
    database): it is made now, so that one that cannot be (`/proc/self/db`) is refused before
    the run, not found out by the run saving nothing (Hypothesis ignores a failed save)."""
    problem = directory_problem(path, what)
    if problem is None:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return f"{what} {path}: cannot create the directory: {exc.strerror or exc}"
    return problem


def _identity(path: Path) -> tuple[str, tuple[int, int] | None]:
    """The resolved path of `path` (symbolic links followed) and, when it exists, its device and
    inode (a hard link is the same file under another name)."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return real, None
    return real, (st.st_dev, st.st_ino)


def clash(outputs: Iterable[tuple[str, Path | None]],
          inputs: Iterable[tuple[str, Path | None]]) -> str | None:
    """Why the outputs of a command cannot be written (checked before anything runs), or None:
    an output that is an input of the same run (the same path once links are resolved, or the
    same file under another name: a hard link), or the same file as another output. `outputs`
    and `inputs` are (what, path) pairs; `what` names the option or the input in the message
    (`--output`; `a scenario file of this run`). A file inside an input directory is an input
    only when it is listed itself."""
    seen: dict[str, tuple[str, Path]] = {}
    ids: dict[tuple[int, int], tuple[str, Path]] = {}
    for what, path in inputs:
        if path is None:
            continue
        real, ident = _identity(path)
        seen.setdefault(real, (what, path))
        if ident is not None:
            ids.setdefault(ident, (what, path))
    written: dict[str, tuple[str, Path]] = {}
    for option, path in outputs:
        if path is None:
            continue
        real, ident = _identity(path)
        found = seen.get(real) or (ids.get(ident) if ident is not None else None)
        if found is not None:
            kind, source = found
            same = "" if os.path.normpath(source) == os.path.normpath(path) \
                else f" ({source}, the same file)"
            return f"{path}: {option} would overwrite {kind}{same}; choose another path"
        if real in written:
            return f"{path}: {option} and {written[real][0]} name the same file"
        written[real] = (option, path)
    return None


def write_text_atomic(path: Path, text: str, sync: bool = True) -> None:
    """Write `text` (UTF-8) to `path` atomically: temporary file beside it, fsync, rename.

    The parents are created; an existing file keeps its permission bits. Raises OSError (the
    temporary file is removed). `sync=False` skips the fsync (a cache file, which a reader
    checks and may lose: atomic for readers, not durable across a crash).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with _signals_held():
        _write_atomic(path, text, sync)


def _write_atomic(path: Path, text: str, sync: bool) -> None:
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


# The signals that end a command (uno_spec.signals): held while a file is written and renamed,
# so that a run stopped then leaves the old file or the new one, and no temporary file.
_HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
              if hasattr(signal, name))


@contextmanager
def _signals_held() -> Iterator[None]:
    """Block SIGINT, SIGTERM and SIGHUP while inside (their handlers run when it ends)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


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


# JSON read back (reports, saved games): arrays and objects nested deeper, or integers of more
# digits, are refused in one line with the place (the runner never writes such a document).
MAX_JSON_DEPTH = 100
MAX_JSON_DIGITS = 30


def read_json(text: str, digits: int | None = None) -> Any:
    """The JSON value of `text`, strictly: RFC 8259 JSON only (no NaN or Infinity tokens), no
    number that overflows to infinity (`1e999`), no integer of more than `digits` digits
    (default MAX_JSON_DIGITS), no nesting deeper than MAX_JSON_DEPTH; InputError naming what is
    wrong and its line (never a RecursionError nor Python's "Exceeds the limit (4300
    digits)")."""
    most = MAX_JSON_DIGITS if digits is None else digits

    def constant(name: str) -> Any:
        raise _Refused(name, f"{name} is not JSON (RFC 8259)")

    def number(token: str) -> float:
        value = float(token)
        if not math.isfinite(value):
            raise _Refused(token, f"the number {_short(token)} is not finite (it overflows a "
                           "double)")
        return value

    def integer(token: str) -> int:
        count = len(token.lstrip("-"))
        if count > most:
            raise _Refused(token, f"an integer of {count} digits (at most {most})")
        return int(token)

    # The numbers are read one by one (a Python call each: slow) only when the text holds one
    # that may be refused: a run of more than MAX_JSON_DIGITS digits, an exponent of three.
    # With more `digits` allowed (a saved game: its fields are checked one by one), only an
    # integer Python itself cannot read (4 300 digits) is read again, to be named.
    hooks: dict[str, Any] = {}
    if most <= MAX_JSON_DIGITS and _SUSPECT.search(text):
        hooks = {"parse_float": number, "parse_int": integer}
    try:
        try:
            value = json.loads(text, parse_constant=constant, **hooks)
        except RecursionError:
            value = None  # too deep for the decoder: said below, with the place
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer past Python's own limit: read again to name it
            value = json.loads(text, parse_constant=constant, parse_float=number,
                               parse_int=integer)
    except _Refused as exc:
        raise InputError(exc.message, _line_of_token(text, exc.token)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{exc.msg} (column {exc.colno})", exc.lineno) from None
    except ValueError as exc:  # nothing else is expected from the decoder
        raise InputError(str(exc)) from None
    deep = _too_deep(text)
    if deep:
        raise InputError(f"arrays and objects nested deeper than {MAX_JSON_DEPTH} levels", deep)
    return value


_SUSPECT = re.compile(f"[0-9]{{{MAX_JSON_DIGITS + 1}}}|[eE][+-]?[0-9]{{3}}")


class _Refused(ValueError):
    def __init__(self, token: str, message: str) -> None:
        super().__init__(message)
        self.token = token
        self.message = message


def _short(token: str, limit: int = 40) -> str:
    return token if len(token) <= limit else f"{token[:limit]}... ({len(token)} characters)"


_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|-?[0-9][0-9.eE+-]*|NaN|-?Infinity')


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _line_of_token(text: str, token: str) -> int:
    """The line of the first `token` outside strings (a number or a constant)."""
    for m in _JSON_TOKENS.finditer(text):
        if m.group() == token:
            return text.count("\n", 0, m.start()) + 1
    return 0


def _too_deep(text: str) -> int:
    """The line where arrays and objects first nest deeper than MAX_JSON_DEPTH, 0 if never
    (brackets inside strings are not counted). Cheap when the text holds few brackets."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))  # in C: fast on a large report
    if max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0) <= MAX_JSON_DEPTH:
        return 0
    depth = 0
    for m in _JSON_TOKENS.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return text.count("\n", 0, m.start()) + 1
        elif ch in "]}":
            depth -= 1
    return 0


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
    """Strict JSON text (allow_nan=False, after `finite`), that any UTF-8 file can hold: a lone
    surrogate (a string an adapter sent as `"\\ud800"`, which UTF-8 cannot encode) is written
    as its `\\udXXX` escape, which reads back as the same string. `finite` walks the data only
    when there is a NaN or an infinity to replace (a report of the corpus is ~50 000 values)."""
    try:
        text = json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)
    except ValueError:  # "Out of range float values are not JSON compliant"
        text = json.dumps(finite(value), ensure_ascii=False, indent=indent, allow_nan=False)
    return _SURROGATE.sub(_escaped, text) if _SURROGATE.search(text) else text


# Lone surrogates can stand only inside JSON strings, so escaping each one where it stands keeps
# the document the same.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"
