"""Exception types of wltools.

Library functions raise these; the CLI catches :class:`WLToolsError` at its boundary and prints
one line (``error: <message>``) with exit code 2.
"""

__all__ = [
    "WLToolsError",
    "GraphFormatError",
    "UnsupportedGraphError",
    "UnknownNameError",
    "DataIntegrityError",
    "RunDirectoryError",
    "ResourceLimitError",
]


class WLToolsError(Exception):
    """Base class of every error wltools reports to a person."""


class GraphFormatError(WLToolsError):
    """Input text or file cannot be read as a graph (malformed graph6, empty file, ...)."""


class UnsupportedGraphError(WLToolsError):
    """A readable graph outside the supported class: directed, self-loops, multi-edges, empty."""


class UnknownNameError(WLToolsError):
    """An unknown name: test, model, preset, named graph, BREC category, claim id."""


class DataIntegrityError(WLToolsError):
    """Committed data failed an integrity check (BREC pairs, relabelings)."""


class RunDirectoryError(WLToolsError):
    """A BREC run directory is unusable (config mismatch on resume, missing results)."""


class ResourceLimitError(WLToolsError):
    """Work refused before it starts: its estimated memory is over the budget (``--max-memory``),
    or its size is beyond a tested limit (e.g. of the canonical labellers)."""
