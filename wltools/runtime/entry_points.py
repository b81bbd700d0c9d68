"""Installed packages' entry points of a group (``wltools.tests``, ``wltools.models``), read once
per process while the installation stays as it was.

:func:`importlib.metadata.entry_points` reads every installed distribution's metadata on each call
(20-30 ms here); the CLI asks for them several times while it builds its help texts. The answer is
kept with the modification times of the folders on ``sys.path`` (an install or uninstall changes
its ``site-packages`` folder) and read again when they change.
"""

from __future__ import annotations

import os
import sys

__all__ = ["entry_points_of"]

_HELD: dict[str, tuple[tuple, dict]] = {}


def _path_stamps() -> tuple:
    out = []
    for entry in sys.path:
        try:
            out.append((entry, os.stat(entry or ".").st_mtime_ns))
        except OSError:
            out.append((entry, None))
    return tuple(out)


def entry_points_of(group: str) -> dict:
    """``{name: EntryPoint}`` of the entry point group ``group`` of the installed packages."""
    from importlib.metadata import entry_points

    stamps = _path_stamps()
    held = _HELD.get(group)
    if held is not None and held[0] == stamps:
        return dict(held[1])
    found = {ep.name: ep for ep in entry_points(group=group)}
    _HELD[group] = (stamps, found)
    return dict(found)
