"""Every shell and Python example in README.md and docs/ is run here, or marked as not run with a reason.

The blocks run in a fresh directory (with ``examples/`` linked in, so ``--model examples/gin.py:gin``
works as it does from the repository root), under the session's fresh ``WLTOOLS_CACHE``; a block
fails the test when any of its commands exits non-zero (``bash -e -o pipefail``). A block whose
text appears twice (``docs/index.md`` is generated from README.md) runs once.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("doc_blocks", Path(__file__).with_name("doc_blocks.py"))
doc_blocks = importlib.util.module_from_spec(_spec)
sys.modules["doc_blocks"] = doc_blocks
_spec.loader.exec_module(doc_blocks)

ROOT = doc_blocks.ROOT
BLOCKS = doc_blocks.all_blocks()
#: Runnable, unmarked blocks, each distinct text once (docs/index.md repeats README.md's).
TO_RUN = list({(b.lang, b.text): b for b in reversed(BLOCKS) if b.runnable and b.not_run is None}.values())[::-1]


def test_every_fence_names_its_language():
    """A bare fence could hide a shell command from the runner: every block says what it is
    (``text`` for output and diagrams)."""
    bare = [b.where for b in BLOCKS if not b.lang]
    assert not bare, f"fenced blocks without a language: {bare}"


def test_every_not_run_marker_gives_a_reason_and_sits_on_a_runnable_block():
    bad = [b.where for b in BLOCKS if b.not_run is not None and (not b.not_run or not b.runnable)]
    assert not bad, f"'not run' markers without a reason or on a block that would not run: {bad}"


def test_the_docs_run_some_examples_of_each_kind():
    """The first screen's tour is executed, not only marked: some shell and some Python blocks run."""
    langs = {b.lang for b in TO_RUN}
    assert langs & doc_blocks.SHELL and langs & doc_blocks.PYTHON, langs
    assert any(b.path.name == "README.md" for b in TO_RUN)


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    return tmp_path


@pytest.fixture(scope="session")
def compiled():
    """The packages the blocks import, byte-compiled once for the session, as installing a package
    byte-compiles it: a user's commands load bytecode. Without this, where PYTHONDONTWRITEBYTECODE
    is set (as in the CI machine's environment), every command of every block compiled each module
    it imports once more (``wltools check decalin bicyclopentyl``: 0.15 of its 0.83 CPU-s, measured
    2026-11-29). Writes nothing but ``__pycache__`` folders (git-ignored), as any Python run
    without that variable does; up-to-date ones are kept."""
    import compileall

    for package in ("cli", "wltools", "brec_runner"):
        compileall.compile_dir(str(ROOT / package), quiet=1)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["MPLBACKEND"] = "Agg"
    return env


@pytest.mark.parametrize("block", TO_RUN, ids=[b.where for b in TO_RUN])
def test_example_runs(block, workdir, compiled):
    if block.lang in doc_blocks.PYTHON:
        cmd = [sys.executable, "-c", block.text]
    else:
        cmd = ["bash", "-e", "-o", "pipefail", "-c", block.text]
    proc = subprocess.run(cmd, cwd=workdir, env=_env(), capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, (f"{block.where} exited {proc.returncode}\n--- block\n{block.text}"
                                  f"--- stdout\n{proc.stdout[-3000:]}\n--- stderr\n{proc.stderr[-3000:]}")
