"""Killing a run mid-way with SIGKILL, for the resume tests (tests/brec_runner/test_trust.py,
tests/brec_runner/test_ray.py)."""

from __future__ import annotations

import signal
import subprocess
import time
from typing import Callable

#: A hang guard only (no verdict depends on it): far above the seconds it takes, since a loaded
#: 2-core machine once needed over 120 s for torch's or Ray's start-up and the first units.
HANG_GUARD_S = 600


def kill_when(proc: subprocess.Popen, ready: Callable[[], bool], what: str) -> None:
    """SIGKILL ``proc`` as soon as ``ready()`` holds; fail at once if it ends first (with its
    stderr where piped), or after :data:`HANG_GUARD_S` seconds (``what``: what it had to do). The
    process is killed and reaped whatever happens."""
    deadline = time.monotonic() + HANG_GUARD_S
    try:
        while not ready():
            if proc.poll() is not None:
                err = proc.stderr.read().decode()[-2000:] if proc.stderr else ""
                raise AssertionError(f"the run ended (exit {proc.returncode}) before it was killed {err}")
            assert time.monotonic() < deadline, f"the run did not {what} in {HANG_GUARD_S} s"
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
        if proc.stderr:
            proc.stderr.close()
