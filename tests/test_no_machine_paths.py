"""No tracked file names a place on one particular machine.

A path such as a developer's checkout, home or temporary folder, or a local copy of another
repository means nothing on another machine: a default built on it fails there, and a result file
recording it tells the reader about the machine, not the result. Every text file git tracks is
searched for absolute paths under the usual machine-specific roots; a hit fails naming
``file:line``. Benchmarks write such paths relative to the repository, ``<tmp>`` or ``~``
(``benchmarks/portable_paths.py``). Exceptions are listed in :data:`ALLOWED` with their reason.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: An absolute path under a machine-specific root (not part of a URL or a longer path: the
#: character before the slash is none of a word character, ``.``, ``<``, ``~``, ``$`` or ``-``), a
#: local snapshot of a repository (``/.mirror``), or a Windows user folder.
PATTERN = re.compile(
    r"(?<![\w.<~$/-])/(?:work|tmp|root|home|Users|mnt|scratch|private/var|var/folders)/"
    r"|/\.mirror\b"
    r"|\b[A-Za-z]:\\{1,2}Users\\",
)

#: ``{tracked path: why its hits are not machine-specific}``.
ALLOWED: dict[str, str] = {
    "tests/test_no_machine_paths.py": "this file: its examples of what is refused",
}


def _tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [p for p in out.decode().split("\0") if p]


def _hits(text: str) -> list[tuple[int, str]]:
    return [(i, line.strip()[:160]) for i, line in enumerate(text.splitlines(), 1) if PATTERN.search(line)]


@pytest.mark.parametrize("line, hit", [
    # made-up paths only: an example must not itself record a real machine's layout
    ('DEFAULT = Path("/scratch/alice/.mirror/some-org+some-repo/repo")', True),
    ('ap.add_argument("--old-path", default="/tmp/example_old")', True),
    ('"wltools_file": "/home/me/wltools/__init__.py"', True),
    ("cd C:\\Users\\me", True),
    ("see ``/root/papers``", True),
    ('"out": "benchmarks/results/models_bench.json"', False),
    ("--out <tmp>/rpc.json and ~/cache", False),
    ("https://example.org/home/page and ../shared/papers/x.txt", False),
    ("args.mirror and self.mirror_path", False),
])
def test_the_pattern(line, hit):
    assert bool(_hits(line)) is hit


def test_no_tracked_file_names_a_machine_specific_path():
    found = []
    for rel in _tracked():
        if rel in ALLOWED:
            continue
        path = ROOT / rel
        try:
            data = path.read_bytes()
        except (FileNotFoundError, IsADirectoryError):  # deleted in the work tree, or a submodule
            continue
        if b"\0" in data[:8192]:
            continue  # binary
        found += [f"{rel}:{i}: {line}" for i, line in _hits(data.decode("utf-8", "replace"))]
    assert not found, "machine-specific paths (write them relative, <tmp> or ~):\n" + "\n".join(found)
