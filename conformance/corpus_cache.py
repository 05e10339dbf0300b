"""The cache of parsed, validated scenario files: what is particular to scenarios.

`conformance.scenario.load_corpus` keeps, for each file that loaded without error, what it
built, under the SHA-256 of the file's bytes, in the `scenarios` folder of the on-disk cache
(`uno_spec.cache`: where it is, how it is turned off, what an entry holds and why a corrupt one
is only a miss). The version of those entries is a SHA-256 of the code that parses and
validates scenarios (the source of the modules in `CODE`), of the data those checks read (the
scenario, match and ruleset schemas, `spec/rulesets/`, whose decks and player counts the checks
use, and `spec/matches/`, whose formats a match scenario names), and of the loader's limits and
parser.
"""

from __future__ import annotations

from uno_spec import cache

KIND = "scenarios"
# The modules whose code decides what a scenario file loads to (or whether it loads).
CODE = ("conformance/scenario.py", "conformance/corpus_cache.py", "conformance/specdata.py",
        "uno_spec/cache.py", "uno_spec/loader.py", "uno_spec/files.py", "uno_spec/schema.py",
        "uno_spec/rulesets.py", "uno_spec/matches.py", "uno_spec/parameters.py")
# The spec data those checks read: the decks and player counts of the rulesets, the match
# formats a match scenario names (their ruleset and players), and the schemas (ruleset: a
# scenario's `params`).
SCHEMAS = ("scenario", "match", "ruleset")
DATA = ("rulesets", "matches")


def version() -> str | None:
    """The version of the scenario entries (see the module docstring); None when a part
    cannot be read (then nothing is cached)."""
    from uno_spec.loader import parser_params, yaml_files
    from uno_spec.paths import spec_root

    spec = spec_root()
    named = [(f"schema/{s}.schema.json", spec / "schema" / f"{s}.schema.json") for s in SCHEMAS]
    named += [(f"{kind}/{path.name}", path) for kind in DATA for path in yaml_files(spec, kind)]
    data = cache.read_files(named)
    return cache.version(CODE, data, parser_params()) if data is not None else None


def open_cache() -> cache.Cache | None:
    """The scenario cache for this code and data, or None when it is off or has no
    directory."""
    return cache.open_cache(KIND, version)
