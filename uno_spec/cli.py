"""Sub-commands of this package for the `uno-fsm` CLI (see uno_cli.main).

`spec lint`, `spec stats`, `spec docs`, `rules show`, `rules search`. Every handler returns an
exit code and turns a SpecError into one `file:line: message` line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from uno_spec import sitelinks
from uno_spec.files import path_option
from uno_spec.loader import SpecError, clear_caches, display_path
from uno_spec.paths import spec_root


def _root(args: argparse.Namespace) -> Path:
    return Path(args.spec) if getattr(args, "spec", None) else spec_root()


def _lookup_root(args: argparse.Namespace) -> Path:
    """The spec directory to look rules up in; a SpecError when it is not one."""
    root = _root(args)
    if not (root / "sources").is_dir() or not (root / "rules").is_dir():
        raise SpecError(display_path(root), 0,
                        "not a spec directory (no sources/ and rules/ in it)")
    return root


def _say(text: object, stream: TextIO | None = None) -> None:
    """Print text read from the spec's files (or naming them) with its control characters
    escaped (uno_spec.encoding.terminal: a clause of a hostile `--spec` sends no terminal
    command)."""
    from uno_spec.encoding import terminal

    print(terminal(text), file=stream or sys.stdout)


def _choose(parser: argparse.ArgumentParser) -> int:
    """A command group named without its sub-command: one line, exit 2."""
    print(f"{parser.prog}: name a sub-command (see `{parser.prog} --help`)", file=sys.stderr)
    return 2


def _safe(fn: Callable[[argparse.Namespace], int], prog: str
          ) -> Callable[[argparse.Namespace], int]:
    """`fn` with a SpecError turned into one line on stderr, `PROG: file:line: message`,
    exit 2 (`prog`: the command's name, `uno-fsm spec lint`, as every command's errors)."""
    def run(args: argparse.Namespace) -> int:
        args.prog = prog
        try:
            return fn(args)
        except SpecError as err:  # bad input: one line, exit 2
            hint = " (run `uno-fsm spec lint` for every problem)" if err.line > 0 else ""
            _say(f"{prog}: {err}{hint}", sys.stderr)
            return 2

    run.__doc__ = fn.__doc__
    return run


def cmd_lint(args: argparse.Namespace) -> int:
    from uno_spec.lint import lint

    report = lint(_lookup_root(args))
    for problem in report.problems:
        _say(problem)
    if report.ok:
        print(report.summary())
        return 0
    print(f"{args.prog}: {len(report.problems)} problem(s)", file=sys.stderr)
    return 1


def cmd_stats(args: argparse.Namespace) -> int:
    from uno_spec.lookup import stats

    _say(stats(_lookup_root(args)))
    return 0


def _default_docs_dir(root: Path) -> Path:
    """docs/rules of the checkout holding `root`, else of the working directory."""
    checkout = root.resolve().parent
    if (checkout / "pyproject.toml").is_file():
        return checkout / "docs" / "rules"
    return Path.cwd() / "docs" / "rules"


def cmd_docs(args: argparse.Namespace) -> int:
    from uno_spec.docs import check_docs, write_docs

    root = _lookup_root(args)
    out = Path(args.out) if args.out else _default_docs_dir(root)
    if out.exists() and not out.is_dir():
        raise SpecError(display_path(out), 0, "not a directory (--out names the folder of the "
                        "generated pages)")
    if args.check:
        stale = check_docs(root, out)
        for name in stale:
            print(f"{name}: stale (run `uno-fsm spec docs` to regenerate)")
        if stale:
            return 1
        print(f"docs up to date: {display_path(out)}")
        return 0
    written = write_docs(root, out)
    print(f"wrote {len(written)} file(s) to {display_path(out)}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from uno_spec.lookup import UnknownRule, show_rule

    try:
        _say(show_rule(args.rule_id, _lookup_root(args)))
    except UnknownRule as err:  # bad input: exit 2
        _say(f"{args.prog}: {err}", sys.stderr)
        return 2
    return 0


# The longest query `rules search` takes (characters of its words and phrases together): no
# clause is longer than a few hundred, so a longer query can find nothing
MAX_QUERY = 10_000


def cmd_search(args: argparse.Namespace) -> int:
    from uno_spec.lookup import QUOTES, format_hits, search

    def refuse(why: str) -> int:
        print(f"{args.prog}: {why}", file=sys.stderr)
        return 2

    phrases = args.phrase or []
    # an empty word (or one of quotation marks only) would match every rule
    if not all(word.strip(QUOTES + " \t\n\r\f\v") for word in args.words):
        return refuse("an empty word; name what to look for")
    if not all(p.strip(QUOTES + " \t\n\r\f\v") for p in phrases):
        return refuse("an empty --phrase; name the words to find in that order")
    if not args.words and not phrases:
        return refuse("name a word to look for, or a --phrase (see `uno-fsm rules search "
                      "--help`)")
    if sum(map(len, [*args.words, *phrases])) > MAX_QUERY:
        return refuse(f"the query is longer than {MAX_QUERY} characters; no clause is")
    hits = search(args.words, _lookup_root(args), phrases)
    _say(format_hits(hits, args.words, phrases))
    return 0 if hits else 1


def _spec_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spec", metavar="DIR", type=path_option,
                        help="spec directory (default: the bundled spec/)")


def register(sub: Any) -> None:  # sub: argparse._SubParsersAction
    """Add this package's sub-commands to the top-level parser."""
    clear_caches()
    spec = sub.add_parser("spec", help="check and document the specification (spec/)")
    spec_sub = spec.add_subparsers(dest="spec_command", metavar="SUBCOMMAND")
    spec.set_defaults(handler=lambda _args: _choose(spec))

    p = spec_sub.add_parser("lint", help="validate every spec file; print file:line: problems")
    _spec_option(p)
    p.set_defaults(handler=_safe(cmd_lint, p.prog))

    p = spec_sub.add_parser("stats", help="counts of clauses, rules, rulings and rulesets")
    _spec_option(p)
    p.set_defaults(handler=_safe(cmd_stats, p.prog))

    p = spec_sub.add_parser("docs", help="generate docs/rules/*.md from the spec")
    _spec_option(p)
    p.add_argument("--out", metavar="DIR", type=path_option,
                   help="output directory (default: docs/rules)")
    sitelinks.add_option(p, "the `site/` folder beside `docs/`, relative to the pages")
    p.add_argument("--check", action="store_true", help="exit 1 if the generated files are stale")
    p.set_defaults(handler=_safe(cmd_docs, p.prog))

    rules = sub.add_parser("rules", help="look up rules and the clauses they cite")
    rules_sub = rules.add_subparsers(dest="rules_command", metavar="SUBCOMMAND")
    rules.set_defaults(handler=lambda _args: _choose(rules))

    p = rules_sub.add_parser("show", help="a rule with its quoted clauses and rulings")
    p.add_argument("rule_id", metavar="RULE-ID",
                   help="the rule's id, any case (CL.PLAY.MATCH); `uno-fsm rules search` "
                   "finds one")
    _spec_option(p)
    sitelinks.add_option(p)
    p.set_defaults(handler=_safe(cmd_show, p.prog))

    p = rules_sub.add_parser("search", help="rules and clauses containing all the words "
                                            "(accent- and case-insensitive), each clause with "
                                            "the rules citing it",
                             description="Rules and clauses containing all the words, in any "
                             "order, ignoring accents and case: `penalidade` finds "
                             "`Penalidade`, `pontuacao` finds `Pontuação`, and part of a word "
                             "counts (`penal` finds both). Each clause found is "
                             "listed with the rules that cite it (the rule ids to name, the "
                             "clauses to cite).",
                             epilog="Quotation marks do not make a phrase: `\"wild draw four\"` "
                             "and `wild draw four` both look for the three words; ask for "
                             "words in that order with --phrase. Exit status: 0 found, 1 "
                             "nothing found, 2 an empty word or phrase, no query, or a query "
                             f"over {MAX_QUERY} characters.")
    p.add_argument("words", nargs="*", metavar="WORD",
                   help="words that must all appear, anywhere in the text (an argument "
                   "holding spaces is its words)")
    p.add_argument("--phrase", action="append", metavar="TEXT",
                   help="these words, in this order, next to each other (repeatable; with "
                   "WORDs, everything must match)")
    _spec_option(p)
    sitelinks.add_option(p)
    p.set_defaults(handler=_safe(cmd_search, p.prog))
