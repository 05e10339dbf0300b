"""A directory tree thousands of levels deep, made and removed through directory descriptors:
a path that long cannot be named whole (past PATH_MAX), and shutil.rmtree (Python 3.11)
recurses, so pytest could not clean it up."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def deep_tree(root: Path, levels: int, files: dict[str, bytes]) -> Iterator[Path]:
    """`root/d/d/.../d` (`levels` directories below `root`, which is made), `files` written in
    the deepest one; everything removed after."""
    root.mkdir()
    made = [os.open(root, os.O_RDONLY)]  # the descriptor of each level, the deepest last
    try:
        for _ in range(levels):
            os.mkdir("d", dir_fd=made[-1])
            made.append(os.open("d", os.O_RDONLY, dir_fd=made[-1]))
        for name, data in files.items():
            out = os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=made[-1])
            os.write(out, data)
            os.close(out)
        yield root
    finally:
        for name in os.listdir(made[-1]):  # what the deepest level holds now
            os.unlink(name, dir_fd=made[-1])
        while len(made) > 1:
            os.close(made.pop())
            os.rmdir("d", dir_fd=made[-1])
        os.close(made[0])
