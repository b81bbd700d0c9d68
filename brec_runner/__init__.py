"""BREC runner: pair sets, theoretical verdicts, the RPC protocol, runs and realised-vs-theory reports.

The public API is :func:`evaluate` (a model, yours or a built-in, on BREC pairs, into a resumable
run directory; returns a :class:`Report`), :class:`RunSettings` (its settings, as one object) and
:class:`Protocol` (the RPC constants).

Errors it raises to a caller, all subclasses of :class:`wltools.errors.WLToolsError` (the CLI
prints each as one line, exit 2): :class:`ModelContractError` (the model breaks the contract, a bad
bound or an uncapturable transform), :class:`TooManyFailures` (more units failed than
``max_failures``), :class:`RecordError` (a damaged or foreign run file; a
:class:`wltools.errors.RunDirectoryError`).
"""

from .models.source import ModelContractError
from .records.record import RecordError
from .reports.report import Report
from .runs.evaluate import TooManyFailures, evaluate
from .runs.protocol import Protocol
from .runs.settings import RunSettings

__all__ = ["evaluate", "RunSettings", "Protocol", "Report", "ModelContractError", "TooManyFailures", "RecordError"]
