"""One writer at a time: advisory locks on run-directory files (POSIX ``fcntl.flock``).

A lock is a small file ``.lock-NAME`` beside the file it guards. :class:`FileLock` takes it with a
non-blocking exclusive ``flock``: a second process asking for it fails at once with
:class:`~wltools.errors.RunDirectoryError` naming the holder (pid, host, start time, read from the
lock file). The kernel drops a ``flock`` when its process dies, so a lock left by a killed run is
never held: the next run takes it over and says so, naming the dead holder. Locks are advisory:
they stop a second ``wltools brec run`` into the same place, not an editor.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path

from wltools.errors import RunDirectoryError

__all__ = ["FileLock"]


class FileLock:
    """An exclusive advisory lock held while a ``with`` block (or until :meth:`release`) runs.

    Parameters
    ----------
    path : path-like
        The lock file (created if missing, never deleted: deleting would race with a new holder).
    what : str
        What the lock guards, for messages ("run directory runs/x").
    wait : float
        Seconds to keep trying before failing (0: fail at once).
    """

    def __init__(self, path, what: str, wait: float = 0.0) -> None:
        self.path = Path(path)
        self.what = what
        self.wait = wait
        self._fd: int | None = None

    def _holder(self) -> dict:
        try:
            info = json.loads(self.path.read_text(encoding="utf-8") or "{}")
            return info if isinstance(info, dict) else {}
        except (OSError, ValueError):
            return {}

    def acquire(self) -> "FileLock":
        import fcntl

        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise RunDirectoryError(f"cannot create the lock file {self.path}: {exc.strerror}") from None
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    h = self._holder()
                    who = f"process {h.get('pid', '?')} on {h.get('host', '?')} since {h.get('since', '?')}"
                    raise RunDirectoryError(f"{self.what} is in use by another run ({who}); wait for it to "
                                            "finish or use another --out") from None
                time.sleep(0.05)
        stale = self._holder()
        if stale.get("pid"):
            print(f"wltools: taking over the lock of {self.what} left by process {stale.get('pid')} on "
                  f"{stale.get('host', '?')} (no longer running)", file=sys.stderr)
        info = {"pid": os.getpid(), "host": socket.gethostname(),
                "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        import fcntl

        if self._fd is None:
            return
        try:
            os.ftruncate(self._fd, 0)  # a clean release leaves no holder to report
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "FileLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
