"""BREC runner: pair sets, theoretical verdicts, the RPC protocol, runs and realised-vs-theory reports.

The public API is :func:`evaluate` (a model, yours or a built-in, on BREC pairs, into a resumable
run directory; returns a :class:`Report`) and :class:`Protocol` (the RPC constants).
"""

from .evaluate import evaluate
from .protocol import Protocol
from .report import Report

__all__ = ["evaluate", "Protocol", "Report"]
