"""Memory budgets: refuse work that would not fit, before allocating it.

Every command that may allocate a lot (reading a graph whose header claims many nodes, a
refinement test, a canonical labelling) first estimates its peak memory from the sizes it knows
(``n``, ``m``, the test) and calls :func:`require`. Over the budget it raises
:class:`~wltools.errors.ResourceLimitError` with one line a person can act on, e.g.::

    3-WL on 1,000 nodes needs about 24 GiB; this machine has 23 GiB free and the default limit is
    80% of that; --max-memory to change

The budget is ``--max-memory`` when given (:func:`parse_size`: ``4G``, ``512M``, ``1.5GiB``),
otherwise :data:`DEFAULT_SHARE` of the memory available now (:func:`available_bytes`: the
smallest of ``MemAvailable`` in ``/proc/meminfo``, the cgroup's ``memory.max`` headroom, and the
address-space limit of ``ulimit -v``). Estimates below :data:`SMALL` are accepted without looking
at the machine, so small inputs cost nothing.

The estimates themselves live beside the code they describe: graph loading in
:func:`wltools.graphs.load_bytes`, refinement in :func:`wltools.refine.cost.peak_bytes`, canonical
labelling in :func:`wltools.iso.peak_bytes`.

Examples
--------
>>> parse_size("4G") == 4 * 2**30
True
>>> format_bytes(3 * 2**30 // 2)
'1.5 GiB'
>>> require(10 * 2**20, "a small job")  # below SMALL: accepted without reading /proc
>>> require(8 * 2**30, "3-WL on 1,000 nodes", max_memory=parse_size("4G"))
Traceback (most recent call last):
...
wltools.errors.ResourceLimitError: 3-WL on 1,000 nodes needs about 8 GiB; --max-memory is 4 GiB
"""

from __future__ import annotations

import os
import re

from ..errors import ResourceLimitError

__all__ = [
    "DEFAULT_SHARE",
    "SMALL",
    "available_bytes",
    "default_budget",
    "parse_size",
    "format_bytes",
    "require",
]

#: Share of the available memory a command may plan to use when no ``--max-memory`` is given.
DEFAULT_SHARE = 0.8

#: Estimates up to this many bytes are accepted without reading the machine's state.
SMALL = 256 * 2**20

_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40, "p": 2**50}
_SIZE_RE = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([kmgtp]?)(?:i?b)?\s*", re.IGNORECASE)


def _meminfo_available() -> int | None:
    """``MemAvailable`` of ``/proc/meminfo`` in bytes (None where there is none)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _cgroup_headroom() -> int | None:
    """``memory.max - memory.current`` of this process's cgroup (v2), None when unlimited."""
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            limit = fh.read().strip()
        if limit == "max":
            return None
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as fh:
            current = int(fh.read().strip())
        return max(int(limit) - current, 0)
    except (OSError, ValueError):
        return None


def _address_space_headroom() -> int | None:
    """What ``ulimit -v`` (RLIMIT_AS) still allows this process, None when unlimited."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY or soft < 0:
            return None
        with open("/proc/self/statm", encoding="ascii") as fh:
            size_pages = int(fh.read().split()[0])
        return max(soft - size_pages * os.sysconf("SC_PAGE_SIZE"), 0)
    except (ImportError, OSError, ValueError, IndexError):
        return None


def available_bytes() -> int | None:
    """Memory this process can still allocate, in bytes: the smallest of the machine's available
    memory, the cgroup headroom and the ``ulimit -v`` headroom (None when none is known)."""
    known = [x for x in (_meminfo_available(), _cgroup_headroom(), _address_space_headroom())
             if x is not None]
    return min(known) if known else None


def default_budget() -> int | None:
    """:data:`DEFAULT_SHARE` of :func:`available_bytes` (None when the machine does not say)."""
    avail = available_bytes()
    return None if avail is None else int(DEFAULT_SHARE * avail)


def parse_size(text: str | int) -> int:
    """Bytes in a size such as ``4G``, ``512M``, ``1.5GiB``, ``2TB`` or ``1000000`` (binary units:
    ``K = 1024``).

    Raises
    ------
    ValueError
        Not a size, or not positive.

    Examples
    --------
    >>> parse_size("512M"), parse_size("1.5GiB"), parse_size(1000)
    (536870912, 1610612736, 1000)
    """
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        m = _SIZE_RE.fullmatch(str(text))
        if not m:
            raise ValueError(f"expected a size such as 4G, 512M or 1.5GiB, got {text!r}")
        value = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if value <= 0:
        raise ValueError(f"a memory size must be positive, got {text!r}")
    return value


def format_bytes(n: int | float) -> str:
    """``n`` bytes in binary units with at most one decimal: ``'24 GiB'``, ``'1.5 MiB'``.

    Examples
    --------
    >>> format_bytes(24 * 2**30), format_bytes(1536), format_bytes(100)
    ('24 GiB', '1.5 KiB', '100 B')
    """
    for unit, size in (("PiB", 2**50), ("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            value = n / size
            text = f"{value:.1f}" if value < 10 else f"{value:.0f}"
            return f"{text.removesuffix('.0')} {unit}"
    return f"{int(n)} B"


def require(need: int, what: str, *, max_memory: int | None = None) -> None:
    """Refuse ``what`` unless its estimated peak ``need`` (bytes) fits the budget.

    Parameters
    ----------
    need : int
        Estimated peak memory in bytes.
    what : str
        The work, as the message names it: ``"3-WL on 1,000 nodes"``.
    max_memory : int, optional
        The budget (``--max-memory``); default :func:`default_budget`, and no check at all for
        estimates up to :data:`SMALL` or when the machine does not say what it has.

    Raises
    ------
    ResourceLimitError
        One line: what, how much it needs, what there is, and ``--max-memory`` to change it.
    """
    if max_memory is not None:
        if need > max_memory:
            raise ResourceLimitError(
                f"{what} needs about {format_bytes(need)}; --max-memory is {format_bytes(max_memory)}"
            )
        return
    if need <= SMALL:
        return
    avail = available_bytes()
    if avail is None or need <= DEFAULT_SHARE * avail:
        return
    raise ResourceLimitError(
        f"{what} needs about {format_bytes(need)}; this machine has {format_bytes(avail)} free and "
        f"the default limit is {DEFAULT_SHARE:.0%} of that; --max-memory to change"
    )
