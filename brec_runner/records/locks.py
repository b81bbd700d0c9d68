"""One writer at a time: advisory locks on run-directory files (POSIX ``fcntl.flock``).

A lock is a small file ``.lock-NAME`` beside the file it guards. :class:`FileLock` takes it with a
non-blocking exclusive ``flock``: a second process asking for it fails at once with
:class:`~wltools.errors.RunDirectoryError` naming the holder (pid, host, start time, read from the
lock file). The kernel drops a ``flock`` when its process dies, so a lock left by a killed run is
never held: the next run takes it over and says so, naming the dead holder. Locks are advisory:
they stop a second ``wltools brec run`` into the same place, not an editor. A FIFO, device or
directory where a lock file should be is an error (one line), never a read that blocks.
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
        self._opened: int | None = None

    def _holder(self) -> dict:
        """The holder written in the lock file (pid, host, since), ``{}`` when unreadable."""
        if self._opened is None:
            return {}
        try:
            size = os.fstat(self._opened).st_size
            info = json.loads(os.pread(self._opened, min(size, 1 << 16), 0).decode("utf-8") or "{}")
            return info if isinstance(info, dict) else {}
        except (OSError, ValueError, RecursionError):
            return {}

    def acquire(self) -> "FileLock":
        import fcntl
        import stat

        from .fileio import kind_of

        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), 0o644)
        except IsADirectoryError:
            raise RunDirectoryError(f"the lock file {self.path} is a directory, not a regular file; move it "
                                    "away") from None
        except OSError as exc:
            raise RunDirectoryError(f"cannot create the lock file {self.path}: {exc.strerror}") from None
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            raise RunDirectoryError(f"the lock file {self.path} is {kind_of(mode)}, not a regular file; move it "
                                    "away")
        self._opened = fd
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    h = self._holder()
                    os.close(fd)
                    self._opened = None
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
            self._fd = self._opened = None

    def __enter__(self) -> "FileLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
