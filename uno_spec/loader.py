"""Safe YAML loading that keeps line numbers, and typed access to sources, rules and rulings.

Every mapping read from a spec file is a `YamlMap`: a plain `dict` that also knows the line it
starts on (`.line`) and the line of each of its keys (`.key_lines`). Any YAML problem (syntax,
a tag that would build a Python object or any other unknown tag, a duplicate key) becomes a
`SpecError(file, line, message)`; nothing is ever constructed beyond plain data.

Parsing uses libyaml (`yaml.CSafeLoader`, about 3x faster) when PyYAML was built with it, and
the pure-Python `yaml.SafeLoader` otherwise. Both share the same safe constructor (ours), so
they build the same data with the same lines. libyaml words its syntax errors differently, so a
text libyaml rejects is parsed again by the pure-Python loader, whose message is the one
reported: an error reads the same whichever parser is installed.

Hostile files are bounded before anything is built (docs/robustness.md): before a document is
composed, its event stream (the parser is not recursive) is checked against `MAX_DEPTH`
(nesting of mappings and sequences), `MAX_ALIASES` (alias uses) and `MAX_NODES` (nodes after
expanding every alias: a "billion laughs" file is refused in milliseconds); a recursive alias
is refused; an integer of more than `MAX_INT_DIGITS` digits is refused. The file itself is read
through `uno_spec.files.read_text` (size cap, no blocking on FIFOs, invalid UTF-8 located).
Each limit is a module constant that tests lower.

The rule catalogue (`load_rules`) is also kept on disk, in the `rules` folder of the cache of
`uno_spec.cache` (content-keyed: the files' names and bytes, this loader's code and limits, the
spec root): a process that finds it there builds the rules without parsing YAML.
`UNO_FSM_NO_CACHE=1` turns it off; a load that fails is never cached.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from uno_spec.files import InputError, decode_utf8, read_text
from uno_spec.paths import spec_root

# Limits of any YAML document read (see the module docstring); module constants, so that tests
# can lower them. The corpus and the spec stay far below: depth 10, a few thousand nodes.
MAX_DEPTH = 64
MAX_ALIASES = 1_000
MAX_NODES = 250_000
MAX_INT_DIGITS = 30


class SpecError(Exception):
    """A problem in a spec file, located at `file:line`."""

    def __init__(self, file: str | Path, line: int, message: str) -> None:
        self.file = str(file)
        self.line = line
        self.message = message
        where = f"{self.file}:{self.line}" if line > 0 else self.file
        super().__init__(f"{where}: {self.message}")


class YamlMap(dict[str, Any]):
    """A mapping from a YAML file, with the (1-based) line it starts on and its keys' lines."""

    line: int = 0
    key_lines: dict[str, int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key_lines = {}

    def line_of(self, key: str) -> int:
        """The line of `key` in this mapping, or the mapping's own line."""
        return self.key_lines.get(key, self.line)


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that builds `YamlMap`s and rejects duplicate keys (pure Python)."""


_CSafeLoader: type | None = getattr(yaml, "CSafeLoader", None)

if _CSafeLoader is not None:
    class _CLineLoader(_CSafeLoader):  # type: ignore[misc, valid-type]
        """The same loader on libyaml's parser (the constructor stays ours, in Python)."""
else:  # pragma: no cover - PyYAML built without libyaml
    _CLineLoader = None  # type: ignore[assignment, misc]

# The loader `parse_yaml` tries first (libyaml when available); tests may set it to None.
FAST_LOADER: type | None = _CLineLoader


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> YamlMap:
    loader.flatten_mapping(node)
    result = YamlMap()
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError as exc:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                "found an unhashable key", key_node.start_mark) from exc
        if key in result or str(key) in result.key_lines:  # `1` and `'1'` are one key
            raise _DuplicateKey(key, result.key_lines.get(str(key), result.line),
                                key_node.start_mark.line + 1)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[str(key)] = key_node.start_mark.line + 1
    return result


class _DuplicateKey(Exception):
    def __init__(self, key: Any, first: int, line: int) -> None:
        self.key, self.first, self.line = key, first, line


class _Limit(Exception):
    """A document beyond one of the limits (depth, aliases, nodes, integer digits)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


def _construct_int(loader: _LineLoader, node: yaml.ScalarNode) -> int:
    text = str(node.value)
    # the digits of any base (`0x` and `0b` integers too: 100 000 hexadecimal digits would
    # build a number no report could print), the base's prefix not counted
    digits = sum(ch.isalnum() for ch in text.lower().lstrip("+-").removeprefix("0x")
                 .removeprefix("0b").removeprefix("0o")) if len(text) > MAX_INT_DIGITS else 0
    if digits > MAX_INT_DIGITS:
        raise _Limit(node.start_mark.line + 1,
                     f"an integer of {digits} digits (at most {MAX_INT_DIGITS} allowed)")
    value: int = yaml.SafeLoader.construct_yaml_int(loader, node)
    return value


for _loader in (_LineLoader, _CLineLoader):
    if _loader is not None:
        _loader.add_constructor(
            yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
            _construct_mapping,  # type: ignore[arg-type]
        )
        _loader.add_constructor("tag:yaml.org,2002:int", _construct_int)  # type: ignore[arg-type]


def _check_bounds(loader: Any) -> None:
    """Walk the document's events (without building it) and raise _Limit past a limit.

    Nodes are counted in document order, aliases counting for every node they stand for (the
    count an anchored node adds is remembered), so the walk is linear in the text however much
    the aliases would expand.
    """
    scalar, alias = yaml.ScalarEvent, yaml.AliasEvent
    starts = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    sizes: dict[str, int] = {}  # anchor -> nodes it stands for
    open_anchors: list[tuple[str, int, int]] = []  # (anchor, depth, count before it)
    depth = total = aliases = 0
    for event in iter(loader.get_event, None):
        kind = type(event)
        if kind is scalar:
            total += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif kind in starts:
            depth += 1
            if depth > MAX_DEPTH:
                raise _Limit(_line(event), f"the document nests deeper than {MAX_DEPTH} levels")
            if event.anchor is not None:
                open_anchors.append((event.anchor, depth, total))
            total += 1
        elif kind in ends:
            if open_anchors and open_anchors[-1][1] == depth:
                name, _, before = open_anchors.pop()
                sizes[name] = total - before
            depth -= 1
            continue
        elif kind is alias:
            aliases += 1
            if aliases > MAX_ALIASES:
                raise _Limit(_line(event), f"the document uses more than {MAX_ALIASES} aliases")
            name = str(event.anchor)
            if any(name == a for a, _, _ in open_anchors):
                raise _Limit(_line(event), f"recursive alias *{name} (used inside its own "
                             "anchor)")
            total += sizes.get(name, 1)  # an undefined alias is the composer's error
        else:
            continue
        if total > MAX_NODES:
            raise _Limit(_line(event), f"the document expands to more than {MAX_NODES} nodes "
                         "through its aliases" if aliases else
                         f"the document holds more than {MAX_NODES} nodes")


def _line(event: Any) -> int:
    mark = event.start_mark
    return mark.line + 1 if mark is not None else 1


# The directory holding the installed packages (site-packages, or a source checkout: the
# same test as uno_spec.paths.spec_root).
PACKAGES_ROOT = Path(__file__).resolve().parent.parent


def display_path(path: Path | str) -> str:
    """A path as shown in messages: a file of an installed package (the bundled corpus, the
    spec data of a wheel) relative to the installation (`uno_spec/data/rules/x.yaml`, never a
    site-packages path); any other file relative to the working directory when it is under it,
    else as given."""
    try:
        full = Path(path).resolve()
    except (OSError, RuntimeError):  # a symbolic link loop
        return str(path)
    installed = not (PACKAGES_ROOT / "spec" / "sources").is_dir()  # not a source checkout
    cwd = Path.cwd().resolve()
    for base in ((PACKAGES_ROOT, cwd) if installed else (cwd,)):
        if full.is_relative_to(base):
            return str(full.relative_to(base))
    return str(path)


def parser_params() -> list[Any]:
    """What decides how a text parses, besides the code: PyYAML's version, the limits, the
    parser tried first (part of the version of every on-disk cache, `uno_spec.cache`)."""
    fast = FAST_LOADER
    return [yaml.__version__, MAX_DEPTH, MAX_ALIASES, MAX_NODES, MAX_INT_DIGITS,
            fast.__name__ if fast is not None else None]


def parse_yaml(text: str, file: str | Path) -> Any:
    """Parse YAML text safely; any problem becomes a SpecError naming file and line."""
    fast = FAST_LOADER
    if fast is not None:
        try:
            return _load(fast, text)
        except (yaml.YAMLError, _DuplicateKey, _Limit, ValueError, RecursionError):
            pass  # report it in the words and lines of the pure-Python loader (below)
    return _parse_pure(text, file)


def _load(loader_class: type, text: str) -> Any:
    """Check the bounds on the event stream, then build the document (two parses)."""
    checker = loader_class(text)
    try:
        _check_bounds(checker)
    finally:
        checker.dispose()
    loader = loader_class(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _parse_pure(text: str, file: str | Path) -> Any:
    try:
        return _load(_LineLoader, text)
    except _Limit as exc:
        raise SpecError(file, exc.line, f"YAML error: {exc.message}") from None
    except _DuplicateKey as dup:
        raise SpecError(file, dup.line,
                        f"duplicate key {dup.key!r} (first at line {dup.first})") from None
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or "cannot construct value"
        if "could not determine a constructor for the tag" in problem:
            tag = problem.split("tag", 1)[1].strip()
            problem = (f"tag {tag} is not allowed: spec files hold plain data only "
                       "(no Python objects, no custom tags)")
        raise SpecError(file, line, f"YAML error: {problem}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        problem = exc.problem or "invalid YAML"
        if exc.context:
            started = exc.context_mark
            where = f" (started at line {started.line + 1})" \
                if started is not None and started.line + 1 != line else ""
            problem = f"{exc.context}{where}: {problem}"
        raise SpecError(file, line, f"YAML error: {problem}") from None
    except yaml.reader.ReaderError as exc:  # a NUL byte or another control character
        line = text.count("\n", 0, max(exc.position, 0)) + 1
        char = exc.character
        code = char if isinstance(char, int) else ord(char) if char else 0
        raise SpecError(file, line, f"YAML error: character #x{code:04x} is not allowed "
                        "(control characters such as NUL cannot appear in YAML)") from None
    except yaml.YAMLError as exc:
        raise SpecError(file, 1, f"YAML error: {exc}") from None
    except (ValueError, RecursionError) as exc:  # after the bounds check: not expected
        raise SpecError(file, 1, f"YAML error: {type(exc).__name__}: {exc}") from None


def load_yaml(path: Path, data: bytes | None = None) -> Any:
    """Read and parse one YAML file (see `parse_yaml`, `uno_spec.files.read_text`); `data`:
    its bytes, when they have been read already (`uno_spec.files.read_bytes`)."""
    shown = display_path(path)
    try:
        text = read_text(path) if data is None else decode_utf8(data)
    except InputError as exc:
        raise SpecError(shown, exc.line, exc.message) from None
    return parse_yaml(text, shown)


def line_of(obj: Any, key: str | None = None) -> int:
    """Line of a mapping (or one of its keys); 1 for anything without line information."""
    if isinstance(obj, YamlMap):
        return obj.line_of(key) if key is not None else obj.line
    return 1


# --- typed access --------------------------------------------------------------------------


@dataclass(frozen=True)
class Clause:
    id: str
    source: str
    section: str
    text: str
    en: str
    kind: str
    uncited: str | None
    file: str
    line: int
    context: str | None = None  # what the sentence belongs to, when the seed lost its heading


@dataclass(frozen=True)
class Source:
    id: str
    seed: str
    language: str
    title: str
    edition: str
    clauses: tuple[Clause, ...]
    file: str
    line: int


@dataclass(frozen=True)
class Rule:
    id: str
    area: str
    statement: str
    cites: tuple[str, ...]
    rulesets: tuple[str, ...]
    rulings: tuple[str, ...]
    file: str
    line: int


@dataclass(frozen=True)
class Option:
    id: str
    text: str


@dataclass(frozen=True)
class Ruling:
    id: str
    clauses: tuple[str, ...]
    question: str
    options: tuple[Option, ...]
    decisions: tuple[tuple[str, str], ...]  # (ruleset, option id), in file order
    reason: str
    params: tuple[str, ...]
    file: str
    line: int


def _root(root: Path | None) -> Path:
    return (root if root is not None else spec_root()).resolve()


def yaml_files(root: Path, kind: str) -> list[Path]:
    """The YAML files of one kind (`sources`, `rules`, `rulings`, `rulesets`), sorted."""
    files: list[Path] = []
    if kind == "rulings" and (root / "rulings.yaml").is_file():
        files.append(root / "rulings.yaml")
    folder = root / kind
    if folder.is_dir():
        files.extend(sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml")))
    return files


def _str(value: Any) -> str:
    return "" if value is None else str(value)


def _strs(value: Any) -> tuple[str, ...]:
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return ()


def _items(doc: Any, key: str) -> Iterator[YamlMap]:
    if isinstance(doc, dict):
        for item in doc.get(key) or []:
            if isinstance(item, YamlMap):
                yield item


def _require(doc: Any, path: Path) -> YamlMap:
    if not isinstance(doc, YamlMap):
        raise SpecError(display_path(path), 1, "expected a mapping at the top level")
    return doc


@functools.lru_cache(maxsize=8)
def _load_sources(root: Path) -> tuple[Source, ...]:
    out: list[Source] = []
    for path in yaml_files(root, "sources"):
        doc = _require(load_yaml(path), path)
        shown = display_path(path)
        sid = _str(doc.get("source")) or path.stem
        clauses = tuple(
            Clause(id=_str(c.get("id")), source=sid, section=_str(c.get("section")),
                   text=_str(c.get("text")), en=_str(c.get("en")), kind=_str(c.get("kind")),
                   uncited=c.get("uncited"), file=shown, line=c.line,
                   context=c.get("context"))
            for c in _items(doc, "clauses")
        )
        out.append(Source(id=sid, seed=_str(doc.get("seed")), language=_str(doc.get("language")),
                          title=_str(doc.get("title")), edition=_str(doc.get("edition")),
                          clauses=clauses, file=shown, line=doc.line))
    return tuple(out)


# The rules cache (uno_spec.cache, kind `rules`): the modules whose code decides what
# spec/rules/ loads to, and the key of its one entry.
RULES_CODE = ("uno_spec/loader.py", "uno_spec/files.py", "uno_spec/cache.py")
_RULES_KEY = "rules"


@functools.lru_cache(maxsize=8)
def _load_rules(root: Path) -> tuple[Rule, ...]:
    """The rules of root/rules/*.yaml: from the rules cache when it holds these files' bytes
    (its version: RULES_CODE, the YAML loader, `root`, the names and bytes of the files), else
    parsed, and stored there. An error is never cached: it is raised as without the cache."""
    from uno_spec import cache

    paths = yaml_files(root, "rules")
    data = cache.read_files((path.name, path) for path in paths)
    store = None if data is None else cache.open_cache(
        "rules", lambda: cache.version(RULES_CODE, data, [parser_params(), str(root)]))
    if store is not None:
        cached = _rules_from_cache(store.get(_RULES_KEY), paths)
        if cached is not None:
            return cached
    # the bytes hashed are the bytes parsed; a file that could not be read is read again,
    # and fails in its turn with its own error
    contents = [content for _, content in data] if data is not None else [None] * len(paths)
    out: list[Rule] = []
    names: list[str] = []  # the file of each rule, as the cache stores it
    for path, content in zip(paths, contents, strict=True):
        doc = _require(load_yaml(path, content), path)
        area = _str(doc.get("area")) or path.stem
        shown = display_path(path)  # once per file (it resolves the path)
        out.extend(
            Rule(id=_str(r.get("id")), area=area, statement=_str(r.get("statement")),
                 cites=_strs(r.get("cites")), rulesets=_strs(r.get("rulesets")),
                 rulings=_strs(r.get("rulings")), file=shown, line=r.line)
            for r in _items(doc, "rules")
        )
        names.extend([path.name] * (len(out) - len(names)))
    if store is not None:
        store.put(_RULES_KEY, [[r.id, r.area, r.statement, list(r.cites), list(r.rulesets),
                                list(r.rulings), name, r.line]
                               for r, name in zip(out, names, strict=True)])
    return tuple(out)


def _rules_from_cache(payload: Any, paths: list[Path]) -> tuple[Rule, ...] | None:
    """The rules of a rules-cache payload, or None when it is not one: every value's type is
    checked (an entry that is not what `_load_rules` writes is a miss, never a crash). A rule's
    file is stored as its name in root/rules/ (one of `paths`) and shown as a parse shows it
    (`display_path`, which depends on the working directory)."""
    from uno_spec.cache import str_list, typed

    if type(payload) is not list:
        return None
    files = {path.name: path for path in paths}
    shown: dict[str, str] = {}
    out: list[Rule] = []
    try:
        for item in payload:
            rid, area, statement, cites, rulesets, rulings, name, line = typed(item, list)
            if typed(name, str) not in files or typed(line, int) < 1:
                return None
            if name not in shown:
                shown[name] = display_path(files[name])
            out.append(Rule(id=typed(rid, str), area=typed(area, str),
                            statement=typed(statement, str), cites=str_list(cites),
                            rulesets=str_list(rulesets), rulings=str_list(rulings),
                            file=shown[name], line=line))
    except ValueError:  # a wrong type, a list of another length
        return None
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _load_rulings(root: Path) -> tuple[Ruling, ...]:
    out: list[Ruling] = []
    for path in yaml_files(root, "rulings"):
        doc = _require(load_yaml(path), path)
        shown = display_path(path)
        for r in _items(doc, "rulings"):
            options = tuple(Option(id=_str(o.get("id")), text=_str(o.get("text")))
                            for o in r.get("options") or [] if isinstance(o, dict))
            decisions = r.get("decisions")
            pairs = tuple((str(k), _str(v)) for k, v in decisions.items()) \
                if isinstance(decisions, dict) else ()
            out.append(Ruling(id=_str(r.get("id")), clauses=_strs(r.get("clauses")),
                              question=_str(r.get("question")), options=options,
                              decisions=pairs, reason=_str(r.get("reason")),
                              params=_strs(r.get("params")), file=shown,
                              line=r.line))
    return tuple(out)


def load_sources(root: Path | None = None) -> tuple[Source, ...]:
    """Every source with its clauses, in file order. Raises SpecError on unreadable YAML."""
    return _load_sources(_root(root))


def load_rules(root: Path | None = None) -> tuple[Rule, ...]:
    """Every rule of spec/rules/*.yaml, in file order. Raises SpecError on unreadable YAML.

    Kept in memory per root, and on disk in the rules cache (`uno_spec.cache`, kind `rules`:
    a second process reads it instead of parsing the files again; `UNO_FSM_NO_CACHE=1` turns
    it off)."""
    return _load_rules(_root(root))


def load_rulings(root: Path | None = None) -> tuple[Ruling, ...]:
    """Every ruling of spec/rulings.yaml and spec/rulings/*.yaml, in file order."""
    return _load_rulings(_root(root))


def clear_caches() -> None:
    """Forget cached loads (after spec files change on disk). The on-disk rules cache needs no
    clearing: it is keyed by the files' bytes, so the next load of a changed file parses it."""
    for fn in (_load_sources, _load_rules, _load_rulings):
        fn.cache_clear()
