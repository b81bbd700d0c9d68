"""BREC runner: pair sets, theoretical verdicts, the RPC protocol, runs and realised-vs-theory reports.

The public API is :func:`evaluate` (a model, yours or a built-in, on BREC pairs, into a resumable
run directory; returns a :class:`Report`), :class:`RunSettings` (its settings, as one object) and
:class:`Protocol` (the RPC constants).

Errors it raises to a caller, all subclasses of :class:`wltools.errors.WLToolsError` (the CLI
prints each as one line, exit 2): :class:`ModelContractError` (the model breaks the contract, a bad
bound or an uncapturable transform), :class:`TooManyFailures` (more units failed than
``max_failures``), :class:`RecordError` (a damaged or foreign run file; a
:class:`wltools.errors.RunDirectoryError`).

These names are loaded on first use (PEP 562), as :mod:`wltools`' own, so that a command reading
run directories (``brec report``, ``brec compare``) imports none of the training modules.
"""

import importlib as _importlib

#: ``{name: module}`` of the public API.
_EXPORTS = {
    "evaluate": "brec_runner.runs.evaluate",
    "RunSettings": "brec_runner.runs.settings",
    "Protocol": "brec_runner.runs.protocol",
    "Report": "brec_runner.reports.report",
    "ModelContractError": "brec_runner.models.source",
    "TooManyFailures": "brec_runner.runs.evaluate",
    "RecordError": "brec_runner.records.record",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(_importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'brec_runner' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public API and the subpackages already loaded."""
    loaded = {k for k, v in globals().items() if getattr(v, "__name__", "").startswith("brec_runner.")}
    return sorted(set(__all__) | loaded)
