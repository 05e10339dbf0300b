"""Where each rule, clause and ruling lives in the generated site, and the base its links are
printed with: the one place of the site's URL scheme (`uno-fsm conformance site` writes the
pages; `rules show`, the game's `why`, the conformance reports and the Markdown pages print
links into them).

Paths, relative to the site's folder:

    rules/<area>.html#<rule id>          one page per rule area (spec/rules/<area>.yaml)
    sources/<source>.html#<clause id>    one page per rulebook text (spec/sources/<source>.yaml)
    rulings.html#<ruling id>             every ruling (spec/rulings/)
    corpus/<file>.html#<scenario id>     one page per scenario file of the corpus
                                         (`#L<n>`: its line n)

The base: the `--site-url URL` of the command that prints (`using`), else the environment
variable UNO_FSM_SITE_URL, else the folder `uno-fsm conformance site` writes by default, `site/`
in the working directory, as a `file://` URL; a Markdown page links that folder relative to
itself (`base(relative_to=...)`), so that the page reads the same wherever it is generated.

A base given (the option or the variable) is written as it is into Markdown, HTML-bound pages
and terminals, so `url_problem` is the one check of it: an http(s) or file URL, or a path,
holding no whitespace, control character or character that ends or escapes a Markdown link
(`()<>"'` and the others of `FORBIDDEN`), no query or fragment, at most `MAX_URL` characters.
"""

from __future__ import annotations

import argparse
import os
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from urllib.parse import quote, urlsplit

DEFAULT_DIR = "site"  # `uno-fsm conformance site` writes here without --output
ENV = "UNO_FSM_SITE_URL"

_chosen: ContextVar[str | None] = ContextVar("uno_fsm_site_url", default=None)

MAX_URL = 2048  # characters of a site base (--site-url, $UNO_FSM_SITE_URL)
SCHEMES = ("http", "https", "file")  # the URLs a base may be; else a path
# Characters a base may not hold (beside whitespace and control characters): each ends a
# Markdown link, opens an HTML tag or attribute, escapes (`\\`, `&#58;` is a colon to a
# Markdown reader) or breaks a table cell (`|`). Percent-encoded, each is fine.
FORBIDDEN = "()<>\"'`\\|&"


class SiteURLError(ValueError):
    """A site base (the option or the environment variable) that `url_problem` refuses."""


def url_problem(text: str) -> str | None:
    """Why `text` cannot be the base of the site links, in one line; None if it can."""
    if not text.strip():
        return ("an empty URL names no site: give the site's base (https://example.org/uno/, "
                "or a file:// URL of the folder `uno-fsm conformance site` wrote), or leave "
                "it out for the default")
    if len(text) > MAX_URL:
        return f"a URL of {len(text)} characters: at most {MAX_URL}"
    shown = repr(text if len(text) <= 80 else text[:80] + "...")
    for ch in text:
        if ch.isspace():
            what = "a line break" if ch in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029" \
                else "whitespace"
        elif unicodedata.category(ch)[0] == "C":
            what = f"a control character (U+{ord(ch):04X})"
        elif ch in FORBIDDEN:
            what = repr(ch)
        else:
            continue
        return f"{shown} holds {what}: percent-encode it (a link's base is written as it is)"
    try:
        parts = urlsplit(text)
    except ValueError as exc:  # a malformed host: `http://[x/`
        return f"{shown} is not a URL ({exc})"
    scheme = parts.scheme.lower()
    if scheme and scheme not in SCHEMES:
        return (f"{shown}: a site's base is an http://, https:// or file:// URL, or a path; "
                f"not a {scheme}: URL")
    if "[" in parts.path or "]" in parts.path:
        return f"{shown} holds a bracket outside its host: percent-encode it"
    if parts.query or parts.fragment or "?" in text or "#" in text:
        return (f"{shown}: a site's base is a folder: no query (?) or fragment (#), the "
                "links add their own")
    if scheme in ("http", "https") and not parts.hostname:
        return f"{shown}: an {scheme}:// URL names its host"
    if not scheme and text.startswith("//"):
        return f"{shown}: a URL without its scheme: give https://... or a path"
    return None


def env_problem() -> str | None:
    """Why $UNO_FSM_SITE_URL cannot be the base (naming the variable); None if it can, or
    when it is not set (an empty one counts as not set, as it always has)."""
    value = os.environ.get(ENV)
    if not value:
        return None
    problem = url_problem(value)
    return None if problem is None else f"${ENV}: {problem}"


@contextmanager
def using(url: str | None) -> Iterator[None]:
    """Links printed inside this block start with `url` (None: the default base)."""
    token = _chosen.set(url)
    try:
        yield
    finally:
        _chosen.reset(token)


def _folder(url: str) -> str:
    return url if url.endswith("/") else url + "/"


def base(relative_to: Path | None = None, site_dir: Path | None = None) -> str:
    """The base of every link, ending in `/`. `relative_to`: the folder of the (Markdown) file
    the links are written in, for a relative default; `site_dir`: the site folder that default
    names (default: `site/` in the working directory)."""
    chosen = _chosen.get()
    if chosen:
        if (problem := url_problem(chosen)) is not None:
            raise SiteURLError(f"--site-url: {problem}")
        return _folder(chosen)
    if (problem := env_problem()) is not None:
        raise SiteURLError(problem)
    chosen = os.environ.get(ENV)
    if chosen:
        return _folder(chosen)
    folder = (site_dir if site_dir is not None else Path.cwd() / DEFAULT_DIR).absolute()
    if relative_to is not None:
        return _folder(Path(os.path.relpath(folder, relative_to.absolute())).as_posix())
    return _folder(folder.as_uri())


def _fragment(anchor: str) -> str:
    return quote(anchor, safe=":.-_~")


def area_path(area: str) -> str:
    return f"rules/{quote(area)}.html"


def rule_path(rule_id: str, area: str) -> str:
    return f"{area_path(area)}#{_fragment(rule_id)}"


def source_path(source: str) -> str:
    return f"sources/{quote(source)}.html"


def clause_path(clause_id: str) -> str:
    """A clause id is `<source>:<section>:<n>`: it lives on its source's page."""
    return f"{source_path(clause_id.split(':', 1)[0])}#{_fragment(clause_id)}"


RULINGS_PATH = "rulings.html"


def ruling_path(ruling_id: str) -> str:
    return f"{RULINGS_PATH}#{_fragment(ruling_id)}"


def corpus_path(relative_file: str) -> str:
    """The page of a scenario file, from its path under the corpus folder (`classic/wd4.yaml`
    -> `corpus/classic/wd4.html`)."""
    stem = relative_file.rsplit(".", 1)[0] if relative_file.endswith((".yaml", ".yml")) \
        else relative_file
    return f"corpus/{quote(stem)}.html"


def scenario_path(relative_file: str, scenario_id: str) -> str:
    return f"{corpus_path(relative_file)}#{_fragment(scenario_id)}"


def line_path(relative_file: str, line: int) -> str:
    return f"{corpus_path(relative_file)}#L{int(line)}"


def _areas() -> dict[str, str]:
    from uno_spec.loader import load_rules  # cached there

    return {r.id: r.area for r in load_rules()}


def _clause_ids() -> set[str]:
    from uno_spec.loader import load_sources  # cached there

    return {c.id for s in load_sources() for c in s.clauses}


def rule_url(rule_id: str, relative_to: Path | None = None) -> str | None:
    """The link to a rule of the bundled spec (None for a rule it does not have)."""
    try:
        area = _areas().get(rule_id)
    except Exception:  # noqa: BLE001 - a broken spec: no link, never a failed report
        return None
    return None if area is None else base(relative_to) + rule_path(rule_id, area)


def clause_url(clause_id: str, relative_to: Path | None = None) -> str | None:
    """The link to a clause of the bundled spec (None for a clause it does not have)."""
    try:
        known = clause_id in _clause_ids()
    except Exception:  # noqa: BLE001
        return None
    return base(relative_to) + clause_path(clause_id) if known else None


def ruling_url(ruling_id: str, relative_to: Path | None = None) -> str:
    return base(relative_to) + ruling_path(ruling_id)


def site_url(text: str) -> str:
    """A --site-url value (`url_problem`): never an empty (or blank) one, which would name no
    site and silently mean the default, nor one that would write more than a link."""
    if (problem := url_problem(text)) is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def add_option(parser: argparse.ArgumentParser,
               default: str = f"the folder `{DEFAULT_DIR}/` in the working directory") -> None:
    """`--site-url URL`: the base of the site links a command prints (uno_cli.main applies it
    around the command's handler)."""
    parser.add_argument(
        "--site-url", metavar="URL", type=site_url,
        help="base of the links into the rulebook site (`uno-fsm conformance site`) this "
        "command prints: an http(s) or file URL, or a path (default: "
        f"${ENV}, else {default})")
