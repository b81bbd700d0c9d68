"""python-igraph without its matplotlib backend, for the command line.

``import igraph`` imports ``matplotlib.pyplot`` whenever matplotlib is installed (its
``igraph.drawing`` package looks for a plotting backend at import time): 1.5 of the 1.7 CPU seconds
the import takes (``python -c "import igraph"`` against the same with matplotlib hidden, best of 5,
measured 2026-11-29). wltools imports igraph only to label graphs with bliss
(:mod:`wltools.iso` above 256 nodes, :mod:`wltools.dataset.iso_labelled` for the isomorphism classes
of a labelled dataset, :mod:`wltools.counting.verify`), never to draw, so every ``wltools dataset``
that computes isomorphism classes paid for pyplot. :func:`install` makes the command line's
``import igraph`` run with matplotlib hidden, which igraph takes as "matplotlib is not installed";
igraph's own drawing through matplotlib is then off in that process, and matplotlib itself (the
figures wltools draws) imports as usual, before or after. A library user's process is left alone:
only :func:`cli.main` installs it.
"""

from __future__ import annotations

import sys

__all__ = ["install"]


class _MatplotlibHidden:
    """A loader that runs ``loader`` with ``matplotlib`` hidden (``None`` in ``sys.modules``: its
    import raises ImportError) when it is not imported yet."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        hide = "matplotlib" not in sys.modules
        if hide:
            sys.modules["matplotlib"] = None
        try:
            self._loader.exec_module(module)
        finally:
            if hide and "matplotlib" in sys.modules and sys.modules["matplotlib"] is None:
                del sys.modules["matplotlib"]

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _IgraphFinder:
    """A :data:`sys.meta_path` finder that answers for the package ``igraph`` only: the spec the
    path finder gives, loaded by :class:`_MatplotlibHidden`; None (the other finders decide) for
    every other name, or when matplotlib is already imported."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "igraph" or "matplotlib" in sys.modules:
            return None
        from importlib.machinery import PathFinder

        spec = PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        spec.loader = _MatplotlibHidden(spec.loader)
        return spec


def install() -> None:
    """Make this process's first ``import igraph`` hide matplotlib (module docstring); once."""
    if _IgraphFinder not in sys.meta_path:
        sys.meta_path.insert(0, _IgraphFinder)
