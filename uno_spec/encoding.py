"""Output encoding by context: text from a file or an adapter, made safe where it is shown.

Whatever a scenario file, a spec file, a JSON report or an implementation under test puts in a
name, a title, a message or an observation is data, never markup or a terminal command. Each
output context has one encoder here (OWASP's "encode for the context the data lands in"):

- `terminal`: control characters (C0 but tab and newline, DEL, C1), lone surrogates and the
  bidirectional overrides shown as escapes (`\\x1b`, `\\u202e`): a title cannot set the window
  title, clear the screen or reorder what the line shows, and a lone surrogate cannot make the
  console's UTF-8 encoder raise. `terminal_line` escapes newlines too (one line).
- `markdown`: text for one Markdown line or table cell (control characters and lone surrogates
  dropped, line breaks as spaces, every character that CommonMark or GitHub's tables would read
  as markup escaped: no HTML, link, image, emphasis, code span, cell border or block marker);
  `markdown_code`: inline code holding any text.
- `html`: text or an attribute value in HTML (`&`, `<`, `>`, quotes), control characters and
  lone surrogates dropped.
- `xml`: text for XML 1.0 (characters XML cannot hold, escaped or not, become U+FFFD; the XML
  writer escapes the rest).

JSON is written by `uno_spec.files.json_text` (lone surrogates as `\\udXXX` escapes). Any
text can be bounded first (`cut`): a message that quotes what it refuses (a megabyte of keys, a
long value) stays short.
"""

from __future__ import annotations

import html as _html
import re
from typing import Any

# Shown as escapes on a terminal: C0 controls but tab and newline, DEL, C1 controls, lone
# surrogates, and the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
# U+2066-U+2069), which reorder what a line shows ("Trojan source").
_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
_TERMINAL_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def cut(text: Any, limit: int, encode: Any = str) -> str:
    """`text` as a string of at most `limit` characters, marked when cut; `encode` (an output
    context's encoder) applies to the text, not to the mark."""
    out = str(text)
    if len(out) <= limit:
        return str(encode(out))
    return f"{encode(out[:limit])}... [{len(out) - limit} more characters]"


def terminal(text: Any) -> str:
    """`text` for a terminal: tabs and newlines kept, every other control character, lone
    surrogate and bidirectional override shown as an escape (`\\x1b`, `\\ud800`)."""
    return _TERMINAL.sub(_escape, str(text))


def terminal_line(text: Any) -> str:
    """`text` for one line of a terminal: as `terminal`, newlines and tabs escaped too."""
    return _TERMINAL_LINE.sub(_escape, str(text))


# Dropped from Markdown and HTML: control characters (tab and line breaks are handled apart) and
# lone surrogates, which no UTF-8 file can hold.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# Markdown: the characters CommonMark (and GitHub's tables and strikethrough) read as markup
# anywhere in a line, backslash-escaped (CommonMark: any ASCII punctuation may be); `<`, `>` and
# `&` as entities (no raw HTML, no autolink, no entity of the text's own read as one).
_MD_ESCAPES = str.maketrans({
    "\\": "\\\\", "`": "\\`", "*": "\\*", "[": "\\[", "]": "\\]", "|": "\\|",
    "~": "\\~", "<": "&lt;", ">": "&gt;", "&": "&amp;", "\t": " ", "\n": " ", "\r": " "})
# `_` opens or closes emphasis only at a word's edge (`hand_sizes` is text as it stands).
_MD_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
# ... and at the start of a line: a heading (`# x`), a bullet (`- x`, `+ x`), an ordered item
# (`1. x`, `1) x`), a setext underline or a thematic break (`===`, `---`). (`1.2.0` is none.)
_MD_LINE_START = re.compile(r"(#{1,6}|[-+])(?=[ \t]|$)|(\d{1,9})([.)])(?=[ \t]|$)"
                            r"|([=-])(?=[=\- \t]*$)")


def markdown(text: Any) -> str:
    """`text` for one Markdown line or table cell, shown as it is: control characters and lone
    surrogates dropped, line breaks as spaces, markup characters escaped (see above), leading
    spaces dropped (four would open a code block)."""
    out = _MD_UNDERSCORE.sub(r"\\_", _CONTROL.sub("", str(text)).translate(_MD_ESCAPES))
    out = out.lstrip(" ")
    start = _MD_LINE_START.match(out)
    if start is None:
        return out
    if start.group(2) is None:  # `# x`, `- x`, `+ x`, `===`: escape the marker
        return "\\" + out
    return f"{start.group(2)}\\{out[start.end(2):]}"  # `1. x`, `1) x`: escape the dot


def markdown_code(text: Any) -> str:
    """Inline code holding any text: a backtick fence longer than any run of backticks inside,
    control characters and lone surrogates dropped, line breaks as spaces."""
    body = _CONTROL.sub("", str(text)).replace("\t", " ").replace("\n", " ").replace("\r", " ")
    runs = [len(m) for m in re.findall("`+", body)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if body.startswith("`") or body.endswith("`") or not body.strip() else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def html(text: Any) -> str:
    """`text` for HTML text or a quoted attribute value: `&`, `<`, `>`, `"` and `'` escaped,
    control characters (but tab and line breaks) and lone surrogates dropped."""
    return _html.escape(_CONTROL.sub("", str(text)), quote=True)


# Characters XML 1.0 cannot hold, escaped or not: C0 controls but tab, newline and carriage
# return, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml(text: Any) -> str:
    """`text` for XML 1.0: every character XML cannot hold replaced by U+FFFD (the XML writer,
    ElementTree, escapes `<`, `&` and quotes)."""
    return _NOT_XML.sub("\ufffd", str(text))
