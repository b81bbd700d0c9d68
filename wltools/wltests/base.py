"""One WL test as one object: :class:`WLTest`, the small contract every test keeps.

A test, built-in or from outside, is a frozen :class:`WLTest` (as a scikit-learn estimator or a
PyG convolution is one object): its name and table label, what it colours, its kernel
declaration (:class:`~wltools.refine.kernel.Declaration`), its fast path if any, the labels it
accepts, its cost model, its homomorphism family or why it has none, how it draws, how a
collection is refined under it, and its sources. :mod:`wltools.wltests.registry` holds them;
:func:`wltools.testing.check_test` checks any of them.

Examples
--------
>>> from wltools.wltests import get_test
>>> t = get_test("1wl")
>>> t.label, t.colours, t.labels, t.collection, t.drawable
('1-WL', 'nodes', 'any', 'shared', True)
>>> t.refuses(node_labels=True, edge_labels=False), get_test("n5").refuses(True, False)
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, ClassVar

__all__ = ["WLTest", "COLOURS", "LABELS", "COLLECTIONS", "GROUPS", "READOUTS"]

#: What a test colours.
COLOURS = ("nodes", "pairs", "triples", "marked copies", "subgraphs")

#: How a test's node and edge colours are read for the rooted checks (:attr:`WLTest.level_readout`).
READOUTS = ("node", "pairs", "marked")

#: Which labels a test accepts: node and edge labels, node labels only, none.
LABELS = ("any", "nodes", "none")

#: How a collection is refined under a test: one colour table shared by every graph of the
#: collection (:mod:`wltools.dataset.refine`), or pair by pair (:mod:`wltools.dataset.pairwise`).
COLLECTIONS = ("shared", "pairwise")

#: The default list a built-in test belongs to (:mod:`wltools.refine.names`); tests from outside
#: are ``"plugin"`` and join no default list.
GROUPS = ("default", "extra", "on-request", "subgraph-wl", "baseline", "plugin")


@dataclass(frozen=True)
class WLTest:
    """A colour-refinement test (module docstring).

    Parameters
    ----------
    name : str
        The name commands take (``--test NAME``), lower case.
    label : str
        Its name in tables and reports.
    colours : str
        What it colours, one of :data:`COLOURS`.
    sources : str
        The paper (section, equation) it implements.
    declaration : callable, optional
        ``declaration(G, H, *, labels, **params) -> Declaration`` for a pair of equal order on
        nodes ``0..n-1`` (``labels`` the pair's joint ids or None): the test on the kernel. None
        for a test that is not one refinement (M1 / M2 refine many marked copies).
    fast_path : callable, optional
        ``fast_path(G, H, *, labels, **params) -> RefinementResult``: an exact faster route to the
        same verdict (tested equal to the declaration by :func:`wltools.testing.check_test`).
    reference : callable, optional
        ``reference(G, H, *, labels, **params) -> RefinementResult``: the straightforward slow
        implementation (``refine_pair(..., fast=False)``).
    labels : str
        Labels accepted, one of :data:`LABELS`; ``label_note`` says why others are refused.
    peak_bytes : callable, optional
        ``peak_bytes(n, m, *, rrwp_steps, max_degree, lcm_degrees) -> int``: the peak memory of a
        pair of ``n`` nodes and ``m`` edges each, stated before a run (cost refusals).
    hom_family : str, optional
        The model class whose family of :mod:`wltools.hom.families` it has (``"MPNN"``,
        ``"Subgraph GNN"``, ``"Local 2-GNN"``, ``"Local 2-FGNN"``, ``"2-FGNN"``, ``"3-FGNN"``,
        ``"spectral invariant GNN"``: the model classes of Zhang et al., ICLR 2024, Sec. 2, and
        Gai et al., ICLR 2025), argued in the test's module; None with ``no_hom_family`` the reason.
    level_readout : str, optional
        How its node and edge colours are read for Zhang et al.'s node- and edge-level checks
        (ICLR 2024, Sec. 3.3; :mod:`wltools.hierarchy.levels`), one of :data:`READOUTS`: its own node
        colours (``"node"``), its pair colours χ(u, v), a node's being the pooled row
        (``"pairs"``), or the class of each vertex's marked copy (``"marked"``). None: no node or
        edge colour is taken from the paper's definitions for it.
    srg_equal : str
        Why any two strongly regular graphs with equal parameters get equal colours under it (a
        theorem or a short argument; the suites of such graphs then expect it to separate none of
        their pairs, :mod:`wltools.suites`); empty where it may separate them.
    strictly_above : tuple of (str, str)
        ``(test, citation)`` for each test proved strictly weaker than this one, with the theorem
        that proves it (the cited edges of :func:`wltools.hierarchy.sources.theorem_edges`).
    draw : tuple, optional
        ``(element, node meaning, pooled)`` for drawings (:mod:`wltools.draw.colourings`): what an
        element is (``"node"`` / ``"pair"``), what a node's colour means, and whether the node
        colours are the compared (pooled) ones. None: its rounds cannot be drawn.
    collection : str
        One of :data:`COLLECTIONS`.
    time_power : int
        A pair refinement's time grows as ``n^time_power`` (the time estimate of pairwise
        collections, :func:`wltools.dataset.pairwise.estimate_seconds`).
    round_item_seconds : float, optional
        Seconds of its fast path per item and round, ``n^time_power`` items a round: the time
        estimate ``check`` shows before a long refinement (:meth:`round_seconds`); None: no
        time model.
    max_nodes : int, optional
        The largest order a collection refines under it (``n^3`` or ``n^4`` work per graph).
    group : str
        One of :data:`GROUPS`.
    options : tuple of str
        The run-time options its callables take besides ``labels`` (``("rrwp_steps",)`` for
        GD-WL); others given to :func:`~wltools.refine.refine_pair` do not reach it.
    params : tuple of (str, value)
        Keyword arguments every call of ``declaration`` / ``fast_path`` / ``reference`` gets
        (``rrwp:8`` is RRWP with ``rrwp_steps = 8``).
    aliases : tuple of str
        Other names of the same test.
    beyond_3wl : bool
        Whether 3-WL does not bound it (4-WL, S4, ego networks, M2).
    pair_keys : callable, optional
        ``pair_keys(graphs) -> list`` of one exact int64 ``[n, n]`` key matrix ``d(v, u)`` per graph
        for a test of GD-WL's form (RD, RRWP, EPWL): a collection is then refined on one colour
        table (:mod:`wltools.dataset.keys`); edge labels fold into them where it accepts them.
    node_keys : callable, optional
        ``node_keys(G, cache) -> list`` of one exact hashable key per node when the test is 1-WL
        started from them (S3, S4, N_K): collections and batches read them (``cache``: a dict
        shared across the graphs of one collection).
    batch_path : callable, optional
        ``batch_path(union, pairs) -> list``: an exact faster route over many pairs at once
        (:mod:`wltools.refine.batch`; ``union`` their :class:`~wltools.refine.batch.union.Union`,
        ``pairs`` their graphs): per pair of the union its result, or None for a pair the pair
        path must refine (tested equal to ``refine_pair``). None: pairs are refined one by one.
    classes : callable, optional
        An independent slow reference for :func:`wltools.testing.check_test`:
        ``classes(graphs) -> list`` of one hashable key per graph, equal keys exactly for graphs
        the test does not distinguish.
    """

    __test__: ClassVar[bool] = False  # not a pytest test class

    name: str
    label: str
    colours: str
    sources: str
    declaration: Callable | None = None
    fast_path: Callable | None = None
    reference: Callable | None = None
    labels: str = "any"
    label_note: str = ""
    peak_bytes: Callable | None = None
    hom_family: str | None = None
    no_hom_family: str = ""
    level_readout: str | None = None
    srg_equal: str = ""
    strictly_above: tuple = ()
    draw: tuple | None = None
    collection: str = "shared"
    time_power: int = 3
    round_item_seconds: float | None = None
    max_nodes: int | None = None
    group: str = "plugin"
    options: tuple = ()
    params: tuple = ()
    aliases: tuple = ()
    beyond_3wl: bool = False
    pair_keys: Callable | None = None
    node_keys: Callable | None = None
    batch_path: Callable | None = None
    classes: Callable | None = field(default=None, compare=False)

    def __post_init__(self):
        for what, value, allowed in (("colours", self.colours, COLOURS), ("labels", self.labels, LABELS),
                                     ("collection", self.collection, COLLECTIONS), ("group", self.group, GROUPS)):
            if value not in allowed:
                raise ValueError(f"test {self.name!r}: {what} must be one of {', '.join(allowed)}, got {value!r}")
        if self.declaration is None and self.fast_path is None:
            raise ValueError(f"test {self.name!r} needs a declaration or a fast path")
        if not isinstance(self.strictly_above, tuple) or not all(
                isinstance(e, tuple) and len(e) == 2 and all(isinstance(x, str) and x for x in e)
                for e in self.strictly_above):
            raise ValueError(f"test {self.name!r}: strictly_above must hold (test, citation) pairs of words")
        if self.level_readout not in (None, *READOUTS):
            raise ValueError(f"test {self.name!r}: level_readout must be None or one of {', '.join(READOUTS)}, "
                             f"got {self.level_readout!r}")

    def __repr__(self) -> str:
        return f"WLTest({self.name!r}, label={self.label!r}, colours={self.colours!r})"

    @property
    def drawable(self) -> bool:
        """Whether its rounds can be drawn (it has a declaration and a drawing)."""
        return self.draw is not None and self.declaration is not None

    def refuses(self, node_labels: bool, edge_labels: bool) -> bool:
        """Whether it refuses a pair with these kinds of labels."""
        if self.labels == "none":
            return node_labels or edge_labels
        return edge_labels and self.labels == "nodes"

    def check_labels(self, labels) -> None:
        """Raise :class:`~wltools.errors.UnsupportedGraphError` (one line) for labels it refuses
        (``labels``: the pair's joint ids, :func:`wltools.graphs.labels.pair_labels`, or None)."""
        from ..graphs.labels import refuse_labels

        if self.labels != "any":
            refuse_labels(labels, self.name, self.label_note or "not defined on them",
                          edges_only=self.labels == "nodes")

    def _kwargs(self, labels, rrwp_steps) -> dict:
        kw = dict(self.params)
        if rrwp_steps is not None and "rrwp_steps" in self.options:
            kw["rrwp_steps"] = rrwp_steps
        return {"labels": labels, **kw}

    def kernel_declaration(self, G, H, *, labels=None, rrwp_steps=None):
        """Its :class:`~wltools.refine.kernel.Declaration` on a pair (nodes ``0..n-1``, equal order)."""
        from ..errors import UnknownNameError

        if self.declaration is None:
            raise UnknownNameError(f"test {self.name} has no single kernel declaration ({self.colours})")
        return self.declaration(G, H, **self._kwargs(labels, rrwp_steps))

    def refine(self, G, H, *, labels=None, rrwp_steps=None, fast: bool = True):
        """Refine a pair of equal order and size on nodes ``0..n-1`` (``labels`` as accepted):
        the fast path (``fast``; else the reference), or the kernel when there is none."""
        kw = self._kwargs(labels, rrwp_steps)
        path = self.fast_path if fast else self.reference
        if path is not None:
            return path(G, H, **kw)
        from ..refine.kernel import refine

        return refine(self.declaration(G, H, **kw))

    def round_seconds(self, n: int) -> float | None:
        """Estimated seconds of one round of its fast path on graphs of ``n`` nodes (None: no model)."""
        return None if self.round_item_seconds is None else self.round_item_seconds * float(n) ** self.time_power

    def cost(self, n: int, m: int, **kw) -> int | None:
        """Its estimated peak memory on a pair of ``n`` nodes and ``m`` edges each (None: no model)."""
        return None if self.peak_bytes is None else int(self.peak_bytes(n, m, **kw))
