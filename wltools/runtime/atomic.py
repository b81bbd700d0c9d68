"""Writing an output without losing what was there: atomically, to regular files only.

:func:`atomic_path` / :func:`write_atomic` write through a temporary file in the target's folder,
flushed and fsynced, then renamed over the target (POSIX ``rename`` is atomic): an interruption or
a full disk leaves the old file or the new one, never half of one. Every output of the project
(reports, tables, plots, drawings, caches) is written this way; :mod:`brec_runner.records.fileio` uses it
with its run-directory error type.

What is at the target decides what happens (:func:`output_target`):

- nothing, or a regular file: written (replaced) atomically;
- a symbolic link to a regular file (or to nothing yet, in an existing folder): written *through*
  the link: the file it points to is replaced, the link stays a link;
- anything else (a folder, a FIFO, a character or block device such as ``/dev/null`` or
  ``/dev/full``, a socket): refused in one line. Renaming over a device would replace it with a
  regular file (as root, ``--out /dev/null`` would delete the device); to discard an output, leave
  the option out (most commands then print to stdout, which can be sent to ``/dev/null``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Iterator

from wltools.errors import WLToolsError

__all__ = ["kind_of", "output_target", "atomic_path", "write_atomic"]


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words ("a FIFO (named pipe)", "a directory", ...)."""
    for test, words in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISDIR, "a directory"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a regular file"


def output_target(path, *, error=WLToolsError) -> Path:
    """The file an output named ``path`` is written to: ``path`` itself, or the file a symbolic link
    there points to; ``error`` (one line) when something other than a regular file is there.

    Examples
    --------
    >>> output_target("runs/nothing-here.md").name
    'nothing-here.md'
    >>> output_target("/dev/null")
    Traceback (most recent call last):
    ...
    wltools.errors.WLToolsError: cannot write /dev/null: it is a character device, not a regular file; give a file path (to discard an output, leave its option out)
    """
    path = Path(path)
    real = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        st = os.stat(real)
    except FileNotFoundError:
        return real
    except OSError as exc:
        raise error(f"cannot write {path}: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise error(f"cannot write {path}: it is {kind_of(st.st_mode)}, not a regular file; give a file path "
                    "(to discard an output, leave its option out)")
    return real


@contextlib.contextmanager
def atomic_path(path, *, error=WLToolsError) -> Iterator[Path]:
    """A temporary path beside the target (same suffix, so writers that pick a format by the suffix,
    as matplotlib does, write the right one) that replaces the target when the block succeeds.

    The target is :func:`output_target` of ``path`` (a link is written through; a device, FIFO or
    folder refused before anything is written). The temporary file is fsynced before the rename
    and removed when the block fails. An :class:`OSError` (no such folder, no permission, a full
    disk) raises ``error`` in one line.
    """
    target = output_target(path, error=error)
    parent = target.parent if str(target.parent) else Path(".")
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = 0o644
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{target.stem}.", suffix=f".tmp{target.suffix}")
        os.close(fd)
    except OSError as exc:
        raise error(f"cannot write {path}: {exc.strerror}") from None
    tmp = Path(tmp)
    try:
        yield tmp
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        raise error(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def write_atomic(path, data: bytes | str, *, error=WLToolsError) -> Path:
    """Write ``data`` (text is UTF-8 encoded) to ``path`` through :func:`atomic_path`."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_path(path, error=error) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(payload)
            fh.flush()
    return Path(path)
