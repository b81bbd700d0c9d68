"""Where wltools keeps its disk caches: ``$WLTOOLS_CACHE``, else ``~/.cache/wltools``.

One light module (no graph or array library), so a command that only reads a cache folder's name
(the verified results files, :mod:`brec_runner.records.verified`) pays nothing for the modules
that fill the caches. :mod:`brec_runner.models.encoding_cache` re-exports both names.
"""

from __future__ import annotations

import os
from pathlib import Path

from wltools.errors import WLToolsError

__all__ = ["CacheUnavailableError", "cache_root"]


class CacheUnavailableError(WLToolsError):
    """No cache folder can be named: ``$WLTOOLS_CACHE`` is unset and there is no home directory."""


def cache_root() -> Path:
    """``$WLTOOLS_CACHE`` or ``~/.cache/wltools``.

    Raises :class:`CacheUnavailableError` (one line) when neither can be named (``HOME`` unset and
    no home directory in the user database). Whether the folder is usable is
    :func:`brec_runner.models.encoding_cache.cache_dir`'s question."""
    env = os.environ.get("WLTOOLS_CACHE")
    try:
        return Path(env).expanduser() if env else Path.home() / ".cache" / "wltools"
    except (RuntimeError, KeyError, OSError):  # Path.home() without HOME and without a passwd entry
        raise CacheUnavailableError("no cache folder: $WLTOOLS_CACHE is not set and the home directory is "
                                    "unknown (HOME unset); set WLTOOLS_CACHE to a writable folder") from None
