"""wltools: exact WL-family colour refinement, graph transformers and BREC evaluation.

The everyday functions are at the top, as networkx's are (``import wltools as wl``):

==========================  ===========================================================
graphs                      :func:`load_graph`, :func:`load_graphs`, :func:`named_graph`
a pair, every test          :func:`check_pair` (verdicts, witnesses, isomorphism), :class:`CheckResult`
refinement                  :func:`refine_pair`, :func:`refine_pairs`, :class:`RefinementResult`
isomorphism                 :func:`is_isomorphic`, :func:`canonical_form`, :func:`certificate`
datasets                    :func:`open_dataset`, :func:`analyse`
the tests                   :data:`TESTS` (the defaults), :data:`ALL_TESTS`, :data:`TEST_LABELS`
claims                      :func:`list_claims`, :func:`verify_claims`
==========================  ===========================================================

They are loaded on first use (PEP 562), so ``import wltools`` stays cheap; the packages hold the
rest: :mod:`wltools.graphs` (reading, validating, labelling), :mod:`wltools.iso`,
:mod:`wltools.refine` (the engine and the tests), :mod:`wltools.dataset`, :mod:`wltools.claims`,
:mod:`wltools.models`, :mod:`wltools.suites`, :mod:`wltools.draw`, :mod:`wltools.runtime`.

Examples
--------
>>> import wltools as wl
>>> G, H = wl.load_graph("cycle:6"), wl.load_graph("cycle:3+cycle:3")
>>> wl.refine_pair(G, H, "1wl").distinguished, wl.refine_pair(G, H, "spd").distinguished
(False, True)
>>> wl.is_isomorphic(G, H)
False
>>> r = wl.check_pair(G, H, wl.TESTS)
>>> [t.test for t in r.results if t.distinguished]
['spd', 'rd', 'rrwp', '3wl']
"""

import importlib as _importlib

__version__ = "0.1.0"

#: ``{name: "module"}`` or ``{name: "module:attribute"}``: the everyday functions and constants.
_EXPORTS = {
    "load_graph": "wltools.graphs",
    "load_graphs": "wltools.graphs",
    "named_graph": "wltools.graphs",
    "check_pair": "wltools.check",
    "CheckResult": "wltools.check",
    "refine_pair": "wltools.refine",
    "RefinementResult": "wltools.refine",
    "refine_pairs": "wltools.refine.batch",
    "is_isomorphic": "wltools.iso",
    "canonical_form": "wltools.iso",
    "certificate": "wltools.iso",
    "open_dataset": "wltools.dataset",
    "analyse": "wltools.dataset",
    "TESTS": "wltools.refine.names",
    "ALL_TESTS": "wltools.refine.names",
    "TEST_LABELS": "wltools.refine.names",
    "WLTest": "wltools.wltests",
    "get_test": "wltools.wltests",
    "list_tests": "wltools.wltests",
    "register_test": "wltools.wltests",
    "check_test": "wltools.testing",
    "list_claims": "wltools.claims",
    "verify_claims": "wltools.claims:verify",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str):
    if name in _EXPORTS:
        module, _, attr = _EXPORTS[name].partition(":")
        value = getattr(_importlib.import_module(module), attr or name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'wltools' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Only wltools' own names: the everyday exports, the version and the subpackages already loaded
    (never the module's helpers such as ``importlib``)."""
    loaded = {k for k, v in globals().items() if getattr(v, "__name__", "").startswith("wltools.")}
    return sorted(set(__all__) | loaded)
