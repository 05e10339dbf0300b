"""Hostile scenario files: each is refused in exactly one line, `file:line: message`, exit 2,
by `conformance run` and `conformance lint` alike; nothing blocks, nothing recurses without end.

Limits are lowered through their module constants where the default would make a test slow
(docs/robustness.md lists them)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from deep_tree import deep_tree

from uno_cli.main import main

GOOD = """\
id: hostile.base.ok
title: a valid scenario to mutate
ruleset: classic-official
cites: [classic-br:play:1]
rules: [CL.PLAY.MATCH]
features: [basic-play, two-player]
setup:
  players: 2
  dealer: 1
  current: 0
  hands: {0: [R7, B1], 1: [Y3]}
  discard: [R5]
  draw: [G1]
steps:
  - act: {player: 0, play: R7}
  - expect: {current: 1, top: R7}
"""

FLIP = """\
id: hostile.flip.ok
title: a valid UNO Flip scenario to mutate
ruleset: flip
cites: [flip-pt:setup:5]
rules: [FL.INFO.NO-PEEK]
features: [two-player, flip]
setup:
  players: 2
  dealer: 1
  current: 0
  hands: {0: [R7/P2, B1/T4], 1: [Y3/O7]}
  discard: [R5/P1]
  draw: [G1/V2]
steps:
  - expect: {current: 0}
"""


def _write(tmp_path: Path, text: str | bytes, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _refused(capsys: pytest.CaptureFixture[str], path: Path | str, line: int,
             message: str, target: Path | None = None) -> None:
    """`run` and `lint` of `target` (default `path`) both refuse `path` with exactly this one
    line (exit 2)."""
    where = f"{path}:{line}" if line else str(path)
    arg = str(target or path)
    assert main(["conformance", "run", arg, "--no-progress", "--no-expectations"]) == 2
    assert capsys.readouterr().err == f"uno-fsm conformance: {where}: {message}\n"
    assert main(["conformance", "lint", arg]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"error: {where}: {message}"
    assert "error(s)" in out[-1] and " 1 error(s)" in out[-1]


def _mutated(old: str, new: str, base: str = GOOD) -> str:
    assert old in base
    return base.replace(old, new, 1)


# --- YAML: aliases, depth, characters, sizes ----------------------------------------------------


def test_the_base_scenarios_are_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The two bases the cases below mutate pass (so each refusal is the mutation's)."""
    for text in (GOOD, FLIP):
        path = _write(tmp_path, text)
        assert main(["conformance", "lint", str(path)]) == 0, capsys.readouterr().out


def test_billion_laughs_is_refused_at_the_alias_line(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    path = _write(tmp_path, "\n".join(lines) + "\n" + GOOD)
    _refused(capsys, path, 6,
             "YAML error: the document expands to more than 250000 nodes through its aliases")


def test_too_many_nodes_without_an_alias_is_not_blamed_on_aliases(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """200,000 plain keys were refused as expanding "through its aliases" (there were none)."""
    from uno_spec import loader

    monkeypatch.setattr(loader, "MAX_NODES", 100)
    path = _write(tmp_path, "".join(f"k{i}: {i}\n" for i in range(60)) + GOOD)
    _refused(capsys, path, 50, "YAML error: the document holds more than 100 nodes")


def test_a_hundred_thousand_unknown_keys_make_one_short_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every unknown key was named: 100,000 of them made one error line of about 1 MB."""
    keys = "".join(f"k{i:06d}: 1\n" for i in range(100_000))
    path = _write(tmp_path, GOOD + keys)
    named = ", ".join(f"'k{i:06d}'" for i in range(10))
    _refused(capsys, path, 17, "scenario hostile.base.ok: (scenario): Additional properties "
             f"are not allowed ({named} and 99,990 more were unexpected)")


def test_a_megabyte_key_is_named_cut(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, GOOD + "? " + "x" * 1_000_000 + "\n: 1\n")  # a plain key is short
    _refused(capsys, path, 17, "scenario hostile.base.ok: (scenario): Additional properties "
             f"are not allowed ('{'x' * 59}... [999942 more characters] was unexpected)")


def test_a_huge_value_of_the_wrong_type_is_quoted_cut(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """jsonschema's message quotes the whole value it refuses (here 100,000 list items): the
    value is cut, what is said of it kept."""
    text = _mutated("title: a valid scenario to mutate", "title: [" + "1, " * 100_000 + "1]")
    quoted = str([1] * 100_001)
    _refused(capsys, _write(tmp_path, text), 2, "scenario hostile.base.ok: title: "
             f"{quoted[:200]}... [{len(quoted) - 200} more characters] is not of type "
             "'string'")


def test_too_many_aliases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    from uno_spec import loader

    monkeypatch.setattr(loader, "MAX_ALIASES", 2)
    text = _mutated("  draw: [G1]\n", "  draw: [G1]\n  scores: &s {0: 1}\n", GOOD)
    text = text.replace("steps:\n", "steps:\n  - expect: {scores: *s}\n  - expect: {scores: *s}\n"
                        "  - expect: {scores: *s}\n")
    _refused(capsys, _write(tmp_path, text), 18, "YAML error: the document uses more than 2 "
             "aliases")


def test_a_recursive_alias_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _mutated("  draw: [G1]\n", "  draw: &loop [G1, *loop]\n")
    _refused(capsys, _write(tmp_path, text), 13,
             "YAML error: recursive alias *loop (used inside its own anchor)")


@pytest.mark.parametrize("depth", [65, 999, 5000])
def test_deep_flow_nesting_is_refused_not_a_recursion_error(
        depth: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Past the cap (64), below and beyond libyaml's own limit (1000): the same line."""
    text = GOOD + "description: " + "[" * depth + "]" * depth + "\n"
    _refused(capsys, _write(tmp_path, text), 17,
             "YAML error: the document nests deeper than 64 levels")


def test_deep_block_nesting_names_the_line(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    text = GOOD + "".join(" " * i + "k:\n" for i in range(100))
    _refused(capsys, _write(tmp_path, text), 17 + 64,
             "YAML error: the document nests deeper than 64 levels")


def test_a_nul_byte(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _mutated("title: a valid", "title: a\x00valid")
    _refused(capsys, _write(tmp_path, text), 2, "YAML error: character #x0000 is not allowed "
             "(control characters such as NUL cannot appear in YAML)")


def test_invalid_utf8_names_line_and_column(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = GOOD.encode().replace(b"ruleset: classic", b"ruleset: \xffclassic")
    _refused(capsys, _write(tmp_path, data), 3, "not UTF-8 text: byte 0xff at column 10")


def test_a_byte_order_mark_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "\ufeff".encode() + GOOD.encode())
    assert main(["conformance", "run", str(path), "--no-progress", "--format", "json"]) == 0
    assert '"passed": 1' in capsys.readouterr().out


def test_a_file_over_the_size_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    from uno_spec import files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 200)
    _refused(capsys, _write(tmp_path, GOOD), 0,
             "file larger than 200 bytes (the input size limit)")


def test_an_integer_with_a_thousand_digits(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    text = _mutated("  players: 2\n", "  players: 1" + "0" * 1000 + "\n")
    _refused(capsys, _write(tmp_path, text), 8,
             "YAML error: an integer of 1001 digits (at most 30 allowed)")


def test_a_large_player_count_is_named_as_such(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    text = _mutated("  players: 2\n", "  players: 10000000000000000000000000\n")
    _refused(capsys, _write(tmp_path, text), 8, "scenario hostile.base.ok: setup.players: "
             "10000000000000000000000000 players: UNO is played by 2 to 10 players (seats 0 to 9)")


def test_a_python_tag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _mutated("  draw: [G1]\n", "  draw: !!python/object/apply:os.system [echo]\n")
    _refused(capsys, _write(tmp_path, text), 13, "YAML error: tag "
             "'tag:yaml.org,2002:python/object/apply:os.system' is not allowed: spec files hold "
             "plain data only (no Python objects, no custom tags)")


def test_the_same_seat_as_1_and_as_string_1(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    text = _mutated("hands: {0: [R7, B1], 1: [Y3]}", "hands: {0: [R7, B1], 1: [Y3], '1': [Y4]}")
    _refused(capsys, _write(tmp_path, text), 11, "duplicate key '1' (first at line 11)")


def test_two_documents_in_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, _write(tmp_path, GOOD + "---\n" + GOOD), 17, "YAML error: expected a "
             "single document in the stream (started at line 1): but found another document")


# --- the corpus directory: FIFOs, devices, links, file counts ------------------------------------


def test_a_fifo_in_a_corpus_directory_does_not_block(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, GOOD)
    os.mkfifo(tmp_path / "pipe.yaml")  # no writer: a plain open() for reading would block
    _refused(capsys, tmp_path / "pipe.yaml", 0,
             "cannot read: a FIFO (named pipe), not a regular file", target=tmp_path)


def test_a_fifo_named_on_the_command_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    _refused(capsys, tmp_path / "pipe.yaml", 0,
             "cannot read: a FIFO (named pipe), not a regular file")


def test_a_character_device(capsys: pytest.CaptureFixture[str]) -> None:
    """/dev/zero never ends: it is refused before a byte is read."""
    _refused(capsys, "/dev/zero", 0, "cannot read: a character device, not a regular file")


def test_a_directory_named_like_a_file_is_walked(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "dir.yaml").mkdir()
    _write(tmp_path / "dir.yaml", _mutated("title: a valid", "title: [a valid"))
    _refused(capsys, tmp_path / "dir.yaml" / "s.yaml", 3, "YAML error: while parsing a flow "
             "sequence (started at line 2): expected ',' or ']', but got ':'", target=tmp_path)


def test_a_symlink_loop_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, GOOD)
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    _refused(capsys, tmp_path / "loop.yaml", 0,
             "cannot read: Too many levels of symbolic links", target=tmp_path)


def test_a_dangling_symlink_is_one_line(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    _refused(capsys, tmp_path / "gone.yaml", 0, "cannot read: No such file or directory",
             target=tmp_path)


def test_a_directory_link_loop_is_not_entered(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A link to a parent directory is not followed: the corpus is the one real file."""
    _write(tmp_path, GOOD)
    (tmp_path / "up").symlink_to(tmp_path, target_is_directory=True)
    assert main(["conformance", "lint", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("1 scenario, 0 error(s)")


@pytest.fixture
def deep(tmp_path: Path) -> Iterator[Callable[[int], Path]]:
    """`deep(levels)`: a tree `tree/d/d/.../d/s.yaml`, `levels` directories below `tree`."""
    with ExitStack() as stack:
        yield lambda levels: stack.enter_context(
            deep_tree(tmp_path / "tree", levels, {"s.yaml": GOOD.encode()}))


@pytest.mark.parametrize("command", ["run", "lint", "features", "rulesets"])
def test_a_tree_1500_levels_deep_loads(command: str, deep: Callable[[int], Path],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`os.walk` recursed: `internal error: RecursionError: maximum recursion depth exceeded`,
    exit 2, from every command that walks a corpus directory."""
    tree = deep(1500)
    extra = {"run": ["-q", "--no-expectations"], "lint": [], "features": ["--format", "json"],
             "rulesets": ["--format", "json"]}[command]
    assert main(["conformance", command, str(tree), *extra]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    if command == "run":
        assert out.out.startswith("OK in ") and out.out.endswith(": 1 scenario (1 passed)\n")
    elif command == "lint":
        assert out.out.startswith("1 scenario, 0 error(s)")
    elif command == "features":
        [basic] = [f for f in json.loads(out.out) if f["id"] == "basic-play"]
        assert basic["scenarios"] == 1
    else:
        [classic] = [r for r in json.loads(out.out) if r["id"] == "classic-official"]
        assert classic["scenarios"] == 1


def test_a_tree_deeper_than_a_path_can_be_is_one_line(deep: Callable[[int], Path],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A directory whose path is longer than PATH_MAX cannot be listed, nor its files opened:
    refused in one line naming the tree given and the depth (`os.walk` skipped such a
    directory in silence, when it did not meet RecursionError first)."""
    tree = deep(2100)
    longest = os.pathconf(tree, "PC_PATH_MAX") - 1  # PATH_MAX counts the final NUL
    depth = next(k for k in range(2101) if len(str(tree)) + 2 * k > longest)
    _refused(capsys, f"{tree} (a directory {depth} levels below it)", 0,
             "cannot read the directory: File name too long", target=tree)


def test_too_many_files_is_one_line_before_any_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from conformance import scenario

    monkeypatch.setattr(scenario, "MAX_FILES", 3)
    for i in range(5):
        os.mkfifo(tmp_path / f"f{i}.yaml")  # would block if one were opened
    _refused(capsys, tmp_path, 0,
             "more than 3 scenario files (the limit); name fewer files or directories")


# --- strict validation ------------------------------------------------------------------------

SID = "scenario hostile.base.ok"
FID = "scenario hostile.flip.ok"


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    # a key the set-up's `start` forbids: named, not the whole set-up dumped ("{...} should
    # not be valid under {'required': ['seed']}")
    ("  draw: [G1]\n", "  draw: [G1]\n  seed: 4\n", 8,
     f"{SID}: setup: `seed` may not be given with `start: turn` (docs/scenario-format.md, "
     "`setup`)"),
    ("  players: 2\n", "  players: 2\n  start: game\n", 8,
     f"{SID}: setup: `hands`, `discard`, `current`, `dealer` may not be given with "
     "`start: game` (docs/scenario-format.md, `setup`)"),
    ("  players: 2\n", "  players: 3.0\n", 8,
     f"{SID}: setup.players: 3.0 is not a number of players (a whole number, 2 to 10)"),
    ("  players: 2\n", "  players: true\n", 8,
     f"{SID}: setup.players: true is not a number of players (a whole number, 2 to 10)"),
    ("  players: 2\n", "  players: '2'\n", 8,
     f"{SID}: setup.players: \"2\" is not a number of players (a whole number, 2 to 10)"),
    ("  players: 2\n", "  players: 11\n", 8,
     f"{SID}: setup.players: 11 players: UNO is played by 2 to 10 players (seats 0 to 9)"),
    ("  players: 2\n", "  players: 1\n", 8,
     f"{SID}: setup.players: 1 players: UNO is played by 2 to 10 players (seats 0 to 9)"),
    ("ruleset: classic-official", "ruleset: classic-official+partners", 8,
     f"{SID}: setup.players: 2 players: ruleset classic-official+partners is played by 4 to 10 "
     "players (an even number)"),
    ("  current: 0\n", "  current: 0.0\n", 10,
     f"{SID}: setup.current: 0.0 is not a whole number (write seats, counts and seeds without "
     "a decimal point)"),
    ("{current: 1, top: R7}", "{current: 1, hand_sizes: {0: 1.5}}", 16,
     f"{SID}: steps[1].expect.hand_sizes.0: 1.5 is not of type 'integer'"),
    ("{current: 1, top: R7}", "{current: 1, hand_sizes: {0: 1.0}}", 16,
     f"{SID}: steps[1].expect.hand_sizes.0: 1.0 is not a whole number (write seats, counts "
     "and seeds without a decimal point)"),
    ("ruleset: classic-official", "ruleset: classic-offical", 3,
     f"{SID}: ruleset: unknown ruleset 'classic-offical'; did you mean classic-official, "
     "classic-guide? (known: classic-2022, classic-guide, classic-official, flip)"),
    ("ruleset: classic-official", "ruleset: classic-official+stacking+stacking", 3,
     f"{SID}: ruleset: variant 'stacking' is named twice in "
     "'classic-official+stacking+stacking'"),
    ("  discard: [R5]\n", "  discard: [R7, R7, R5]\n", 12,
     f"{SID}: setup.discard[1]: a 3rd R7 in the set-up, but the deck classic-108 of ruleset "
     "classic-official holds 2"),
    ("  draw: [G1]\n", "  draw: [R0, G1, R0]\n", 13,
     f"{SID}: setup.draw[2]: a 2nd R0 in the set-up, but the deck classic-108 of ruleset "
     "classic-official holds 1"),
    ("  draw: [G1]\n", "  draw: [W4, W4, W4, W4, W4]\n", 13,
     f"{SID}: setup.draw[4]: a 5th W4 in the set-up, but the deck classic-108 of ruleset "
     "classic-official holds 4"),
    ("{0: [R7, B1], 1: [Y3]}", "{0: [R7, RD1], 1: [Y3]}", 11,
     f"{SID}: setup.hands.0[1]: RD1 is a UNO Flip face, not a card of ruleset "
     "classic-official (deck classic-108)"),
    ("{0: [R7, B1], 1: [Y3]}", "{0: [R7, B1], 1: [Y3/O7]}", 11,
     f"{SID}: setup.hands.1[0]: Y3/O7 is a double-faced UNO Flip card, not a card of ruleset "
     "classic-official (deck classic-108)"),
    ("  draw: [G1]\n", "  draw: [WSH]\n", 13,
     f"{SID}: setup.draw[0]: WSH is not a card of ruleset classic-official (deck classic-108)"),
    ("{current: 1, top: R7}", "{current: 1, top: PD5}", 16,
     f"{SID}: steps[1].expect.top: PD5 is a UNO Flip face, not a card of ruleset "
     "classic-official (deck classic-108)"),
    ("{player: 0, play: R7}", "{player: 2, play: R7}", 15,
     f"{SID}: steps[0].act.player: seat 2 does not exist with 2 players"),
    ("{current: 1, top: R7}", "{winner: 4}", 16,
     f"{SID}: steps[1].expect.winner: seat 4 does not exist with 2 players"),
    ("{current: 1, top: R7}", "{winner: [0, 3]}", 16,
     f"{SID}: steps[1].expect.winner[1]: seat 3 does not exist with 2 players"),
    ("{current: 1, top: R7}", "{dealer: [1, 2]}", 16,
     f"{SID}: steps[1].expect.dealer[1]: seat 2 does not exist with 2 players"),
    ("{current: 1, top: R7}", "{pending: {player: 5}}", 16,
     f"{SID}: steps[1].expect.pending.player: seat 5 does not exist with 2 players"),
    ("{current: 1, top: R7}", "{views: {3: {hand: [R7]}}}", 16,
     f"{SID}: steps[1].expect.views.3: seat 3 does not exist with 2 players"),
    ("{current: 1, top: R7}", "{views: {0: {hand_sizes: {2: 1}}}}", 16,
     f"{SID}: steps[1].expect.views.0.hand_sizes.2: seat 2 does not exist with 2 players"),
    ("  dealer: 1\n", "  dealer: 2\n", 9,
     f"{SID}: setup.dealer: seat 2 does not exist with 2 players"),
])
def test_strict_classic_checks(old: str, new: str, line: int, message: str, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, _write(tmp_path, _mutated(old, new)), line, message)


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("1: [Y3/O7]", "1: [Y3]", 11,
     f"{FID}: setup.hands.1[0]: Y3 is a single-faced card; in ruleset flip (deck flip-112) every "
     "card is written light/dark (e.g. R5/PD5)"),
    ("1: [Y3/O7]", "1: [PD5/R5]", 11,
     f"{FID}: setup.hands.1[0]: PD5/R5: PD5 is not a light face of ruleset flip (deck flip-112)"),
    ("1: [Y3/O7]", "1: [Y3/TS]", 11,
     f"{FID}: setup.hands.1[0]: Y3/TS: TS is not a dark face of ruleset flip (deck flip-112)"),
    ("1: [Y3/O7]", "1: [R0/O7]", 11,
     f"{FID}: setup.hands.1[0]: R0/O7: R0 is not a light face of ruleset flip (deck flip-112)"),
    ("  draw: [G1/V2]\n", "  draw: [G1/P2, Y9/P2]\n", 13,
     f"{FID}: setup.draw[1]: a 3rd P2 (dark face) in the set-up, but the deck flip-112 of "
     "ruleset flip holds 2"),
    ("  draw: [G1/V2]\n", "  draw: [W/O1, W/O2, W/O3, W/V4, W/V1]\n", 13,
     f"{FID}: setup.draw[4]: a 5th W (light face) in the set-up, but the deck flip-112 of "
     "ruleset flip holds 4"),
    ("{current: 0}", "{views: {0: {hand: [W4]}}}", 15,
     f"{FID}: steps[0].expect.views.0.hand[0]: W4 is not a face of ruleset flip "
     "(deck flip-112)"),
    ("ruleset: flip", "ruleset: flip+stacking", 3,
     f"{FID}: ruleset: variant 'stacking' does not apply to 'flip' (applies to: "
     "classic-official, classic-2022, classic-guide)"),
])
def test_strict_flip_checks(old: str, new: str, line: int, message: str, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, _write(tmp_path, _mutated(old, new, FLIP)), line, message)


def test_flip_light_and_dark_wilds_are_counted_apart(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Both sides' Wilds are written W: four light and four dark ones are the deck's eight
    (the count was shared, so a Flip set-up of the whole deck was refused)."""
    text = _mutated("  draw: [G1/V2]\n",
                    "  draw: [W/O1, W/O2, W/O3, W/V4, G6/W, B5/W, BF/W, Y1/W]\n", FLIP)
    assert main(["conformance", "run", str(_write(tmp_path, text)), "--no-progress"]) == 0
    capsys.readouterr()


def test_an_absent_card_may_be_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`card_counts` may assert that a card is not in the deck (a count of 0)."""
    text = _mutated("{current: 1, top: R7}", "{current: 1, card_counts: {WSH: 0, R7: 1}}")
    assert main(["conformance", "run", str(_write(tmp_path, text)), "--no-progress"]) == 0
    capsys.readouterr()
