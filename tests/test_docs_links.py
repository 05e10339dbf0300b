"""Every relative link of the Markdown docs (README.md, docs/) leads somewhere: the file
exists, and a `#fragment` names a heading of it (GitHub's anchors: lower case, punctuation
but hyphens dropped, spaces as hyphens, `-1`, `-2`... for repeats) or an explicit `id`.
Links into `site/` (the rulebook site, built by `uno-fsm conformance site`, not committed)
are tests/test_site_pages.py's."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)\s]*)\)")
FENCE = re.compile(r"```.*?```", flags=re.S)
SITE = ROOT / "site"  # where `uno-fsm conformance site` writes the pages the docs link


def _slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@cache
def _anchors(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8")
    seen: dict[str, int] = {}
    out = set(re.findall(r'(?:id|name)="([^"]+)"', text))
    for heading in re.findall(r"^#{1,6} (.*)$", FENCE.sub("", text), flags=re.M):
        slug = _slug(heading)
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return frozenset(out)


def _broken(path: Path) -> list[str]:
    out = []
    for target in LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):  # https:, mailto: ...: not ours to check
            continue
        file, _, fragment = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if SITE in dest.parents:  # the rulebook site, built (docs/site.md), not committed
            continue
        if not dest.exists():
            out.append(f"{path.relative_to(ROOT)}: {target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in _anchors(dest):
            out.append(f"{path.relative_to(ROOT)}: {target}: no such heading")
    return out


def test_the_slugs_are_githubs() -> None:
    assert _slug("Model checking (`uno-fsm bench --check`, issue 25)") == \
        "model-checking-uno-fsm-bench---check-issue-25"
    assert _slug("Where the speed targets stand (7 December 2026, main 014ed48)") == \
        "where-the-speed-targets-stand-7-december-2026-main-014ed48"


def test_every_relative_link_of_the_docs_leads_somewhere() -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    assert len(docs) > 20
    assert [b for path in docs for b in _broken(path)] == []
