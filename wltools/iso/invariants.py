"""Cheap exact isomorphism invariants, compared before any canonical labelling.

A canonical labelling (:mod:`wltools.iso`) of a random 3-regular graph of 100,000 nodes takes
bliss about 95 s; most non-isomorphic pairs differ already in a number that costs milliseconds.
:func:`first_difference` compares, in order of cost,

1. the order ``n`` and the size ``m``;
2. the sorted degree sequence;
3. the sorted sizes of the connected components;
4. the number of triangles, then the sorted per-node triangle counts (``diag(A^3) / 2``);
5. the number of 4-cycles: ``(1/4) * sum_{u != w} C(c(u, w), 2)`` with ``c(u, w) = (A^2)[u, w]``
   the number of common neighbours (each 4-cycle has two diagonals, each counted as two ordered
   pairs);
6. the sorted per-node vectors of closed-walk counts ``((A^5)_vv, ..., (A^8)_vv)``, from
   ``(A^(i+j))_vv = sum_u (A^i)_vu (A^j)_uv`` with ``A^3`` and ``A^4`` (``A`` is symmetric). They
   see every cycle of length at most 8 and how it sits among its neighbours, and settle most
   regular pairs whose short cycle counts agree (two random 3-regular graphs have about 37
   cycles of length 3 to 8 each).

Each is a function of the isomorphism class alone, and computed exactly: integer sparse matrix
products (``int64``; no float anywhere); graphs of at most :data:`DENSE_MAX_NODES` nodes use dense
``int64`` numpy arrays instead (the same integers, and no import of scipy for a small ``check``). Steps 4 and 5 form ``A^2``, whose work and number of
non-zeros are at most ``sum_v d_v^2``; above :data:`MAX_WORK` they are skipped (a dense graph),
never approximated. Step 6 forms ``A^4 = A^2 A^2`` only when its work, the sum of the squared
row sizes of ``A^2``, is below :data:`MAX_WORK` too, and only when no count can overflow
``int64`` (maximum degree ``d`` with ``d^8 < 2^62``). Equal invariants prove nothing: the canonical labelling must still decide.

The colour histograms of the refinement tests are compared by ``wltools check`` itself and are
not repeated here.

Examples
--------
>>> import networkx as nx
>>> first_difference(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)))
'component sizes: 0 components of 3 nodes in G, 2 in H'
>>> first_difference(nx.petersen_graph(), nx.relabel_nodes(nx.petersen_graph(), {0: 9, 9: 0})) is None
True
"""

from __future__ import annotations

from collections import Counter
from itertools import chain

import networkx as nx

from wltools.errors import UnsupportedGraphError

__all__ = ["MAX_WORK", "DENSE_MAX_NODES", "INVARIANTS", "WALK_LENGTHS", "invariants", "first_difference"]

#: Graphs up to this many nodes are counted with dense arrays (64^3 products: well under a
#: millisecond), larger ones with scipy.sparse; both give the same integers (tested).
DENSE_MAX_NODES = 64

#: Largest ``sum_v d_v^2`` (the work and non-zeros of ``A^2``) for which triangles and 4-cycles
#: are counted; denser graphs skip them (a random 3-regular graph of 100,000 nodes: 900,000).
MAX_WORK = 20_000_000

#: The invariants in the order compared (cheapest first).
INVARIANTS = ("nodes", "edges", "degree sequence", "component sizes", "triangles",
              "triangles per node", "4-cycles", "closed walks per node")

#: Lengths of the closed walks counted per node by the last invariant.
WALK_LENGTHS = (5, 6, 7, 8)


def _name(G: nx.Graph) -> str:
    name = G.graph.get("name")
    return f"graph {name!r}" if name else "the graph"


class _Stats:
    """Lazily computed invariants of one graph (each computed at most once)."""

    def __init__(self, G: nx.Graph, max_work: int):
        if G.is_directed() or G.is_multigraph() or nx.number_of_selfloops(G):
            raise UnsupportedGraphError(
                f"isomorphism invariants need a simple undirected graph; {_name(G)} is "
                + ("directed" if G.is_directed() else
                   "a multigraph" if G.is_multigraph() else "with a self-loop")
            )
        self.G = G
        self.max_work = max_work
        self.dense = G.number_of_nodes() <= DENSE_MAX_NODES
        self._cache: dict[str, object] = {}

    def _nonzeros_per_row(self, X):
        import numpy as np

        return np.count_nonzero(X, axis=1) if self.dense else np.diff(X.indptr)

    def _diag_of_product(self, X, Y):
        """``diag(X Y)`` for symmetric ``Y``: ``sum_u X_vu Y_vu`` per row ``v``."""
        import numpy as np

        return (X * Y).sum(axis=1) if self.dense else np.asarray(X.multiply(Y).sum(axis=1)).ravel()

    def _adjacency(self):
        if "A" not in self._cache and self.dense:
            import numpy as np

            nodes = {v: i for i, v in enumerate(self.G)}
            A = np.zeros((len(nodes), len(nodes)), dtype=np.int64)
            for u, v in self.G.edges():
                A[nodes[u], nodes[v]] = A[nodes[v], nodes[u]] = 1
            self._cache["A"] = A
        if "A" not in self._cache:
            import numpy as np
            from scipy.sparse import csr_array

            adj = dict(self.G.adjacency())  # node -> {neighbour: data} (networkx's own dicts; read only)
            n = len(adj)
            rows = adj.values()
            degrees = np.fromiter(map(len, rows), dtype=np.int64, count=n)
            neighbours = chain.from_iterable(rows)
            if list(adj) != list(range(n)):  # not yet on 0..n-1 (validated graphs are)
                neighbours = map({v: i for i, v in enumerate(adj)}.__getitem__, neighbours)
            cols = np.fromiter(neighbours, dtype=np.int64, count=int(degrees.sum()))
            indptr = np.concatenate([[0], np.cumsum(degrees)])
            data = np.ones(len(cols), dtype=np.int64)
            A = csr_array((data, cols, indptr), shape=(n, n))
            A.sort_indices()
            self._cache["A"] = A
        return self._cache["A"]

    def _degrees(self):
        """Degrees in node order (int64 array), from the adjacency rows."""
        return self._nonzeros_per_row(self._adjacency())

    def _square(self):
        """``A @ A`` (int64), or None when ``sum d^2`` is above the work limit."""
        if "A2" not in self._cache:
            degrees = self._degrees()
            work = int((degrees * degrees).sum())
            self._cache["A2"] = self._adjacency() @ self._adjacency() if work <= self.max_work else None
        return self._cache["A2"]

    def _per_node_triangles(self):
        A2 = self._square()
        if A2 is None:
            return None
        return self._diag_of_product(A2, self._adjacency()) // 2  # diag(A^3) / 2

    def _closed_walks(self):
        """Sorted per-node tuples ``((A^5)_vv, ..., (A^8)_vv)``, or None when too costly or when a
        count could overflow int64."""
        A2 = self._square()
        degrees = self._degrees()
        if A2 is None or (len(degrees) and int(degrees.max()) ** 8 >= 2 ** 62):
            return None
        import numpy as np

        rows = self._nonzeros_per_row(A2)
        if int((rows * rows).sum()) > self.max_work:
            return None
        A = self._adjacency()
        A3, A4 = A2 @ A, A2 @ A2
        diag = self._diag_of_product  # (X Y)_vv = sum_u X_vu Y_uv = sum_u X_vu Y_vu (Y symmetric)
        walks = np.stack([diag(A2, A3), diag(A3, A3), diag(A3, A4), diag(A4, A4)], axis=1)
        return tuple(sorted(map(tuple, walks.tolist())))

    def value(self, name: str):
        if name in self._cache:
            return self._cache[name]
        G = self.G
        if name == "nodes":
            v = G.number_of_nodes()
        elif name == "edges":
            v = int(self._nonzeros_per_row(self._adjacency()).sum()) // 2  # each edge stored twice, no self-loops
        elif name == "degree sequence":
            v = tuple(sorted(self._degrees().tolist()))
        elif name == "component sizes":
            if G.number_of_nodes() == 0:
                v = ()
            elif self.dense:
                v = tuple(sorted(len(c) for c in nx.connected_components(G)))
            else:
                from scipy.sparse.csgraph import connected_components

                _, labels = connected_components(self._adjacency(), directed=False)
                v = tuple(sorted(Counter(labels.tolist()).values()))
        elif name == "triangles per node":
            t = self._per_node_triangles()
            v = None if t is None else tuple(sorted(t.tolist()))
        elif name == "triangles":
            t = self.value("triangles per node")
            v = None if t is None else sum(t) // 3
        elif name == "4-cycles":
            A2 = self._square()
            if A2 is None:
                v = None
            else:
                import numpy as np

                if self.dense:  # zeros add nothing to the sum below
                    off = A2[~np.eye(len(A2), dtype=bool)]
                else:
                    A2 = A2.tocoo()
                    off = A2.data[A2.row != A2.col].astype(np.int64)
                v = int((off * (off - 1) // 2).sum()) // 4
        elif name == "closed walks per node":
            v = self._closed_walks()
        else:
            raise KeyError(name)
        self._cache[name] = v
        return v


def invariants(G: nx.Graph, max_work: int = MAX_WORK) -> dict[str, object]:
    """All invariants of ``G`` by name (:data:`INVARIANTS`); ``None`` where skipped for cost.

    Sequences are sorted tuples, counts Python ints.

    Raises
    ------
    UnsupportedGraphError
        A directed graph, a multigraph or a self-loop.

    Examples
    --------
    >>> inv = invariants(nx.complete_graph(4))
    >>> inv["triangles"], inv["4-cycles"], inv["component sizes"]
    (4, 3, (4,))
    """
    s = _Stats(G, max_work)
    return {name: s.value(name) for name in INVARIANTS}


def _multiset_difference(name: str, what: str, a, b) -> str:
    """The smallest value whose multiplicity differs between sorted tuples ``a`` and ``b``."""
    ca, cb = Counter(a), Counter(b)
    x = min(k for k in set(ca) | set(cb) if ca[k] != cb[k])
    return f"{name}: {ca[x]} {what(x, ca[x])} in G, {cb[x]} in H"


def _plural(word: str, k: int) -> str:
    return word if k == 1 else word + "s"


_DESCRIBE = {
    "degree sequence": lambda x, k: f"{_plural('node', k)} of degree {x}",
    "component sizes": lambda x, k: f"{_plural('component', k)} of {x} {_plural('node', x)}",
    "triangles per node": lambda x, k: f"{_plural('node', k)} in {x} {_plural('triangle', x)}",
    "closed walks per node": lambda x, k: (f"{_plural('node', k)} with closed walks of lengths "
                                           f"{'/'.join(map(str, WALK_LENGTHS))} numbering {'/'.join(map(str, x))}"),
}


def first_difference(G: nx.Graph, H: nx.Graph, max_work: int = MAX_WORK) -> str | None:
    """A short witness that ``G`` and ``H`` are not isomorphic, or None if every invariant agrees.

    The invariants are compared in the order of :data:`INVARIANTS` and each is computed only when
    all before it agree. The witness names the invariant and both values, e.g.
    ``"triangles: 1 in G, 3 in H"``; for sorted sequences it names the smallest value whose
    multiplicity differs, e.g. ``"degree sequence: 2 nodes of degree 1 in G, 3 in H"``.
    Triangles and 4-cycles are skipped on either graph with ``sum d^2 > max_work``.

    Raises
    ------
    UnsupportedGraphError
        Either graph directed, a multigraph or with a self-loop.

    Examples
    --------
    >>> first_difference(nx.path_graph(4), nx.star_graph(3))
    'degree sequence: 2 nodes of degree 1 in G, 3 in H'
    >>> first_difference(nx.cycle_graph(4), nx.cycle_graph(4)) is None
    True
    """
    sg, sh = _Stats(G, max_work), _Stats(H, max_work)
    for name in INVARIANTS:
        a, b = sg.value(name), sh.value(name)
        if a is None or b is None:
            continue
        if a != b:
            if name in _DESCRIBE:
                return _multiset_difference(name, _DESCRIBE[name], a, b)
            return f"{name}: {a} in G, {b} in H"
    return None
