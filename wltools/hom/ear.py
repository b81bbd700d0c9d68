"""Nested ear decompositions (NED), decided exactly by a search on the definition.

Source: B. Zhang, J. Gai, Y. Du, Q. Ye, D. He, L. Wang, "Beyond Weisfeiler-Lehman: A Quantitative
Framework for GNN Expressiveness", ICLR 2024 (arXiv 2401.08514), Sec. 3.2, Definition 3.3 and the
three variants below it. For a connected graph F, a NED is a partition of E(F) into simple paths
(ears) ``P_1, ..., P_m`` such that

* every ear ``P_j`` (``j > 1``) is *nested on* an earlier ear ``P_i``: one or two endpoints of
  ``P_j`` lie in ``P_i`` and no other vertex of ``P_j`` lies in any earlier ear (so a one-endpoint
  ear ends at a new vertex); with both endpoints in ``P_i`` its *nested interval* ``I(P_j)`` is the
  subpath of ``P_i`` between them (a set of edges), with one endpoint ``I(P_j)`` is empty;
* for ``1 < j < k``, ``I(P_j)`` and ``I(P_k)`` are edge-disjoint or ``I(P_j)`` is contained in
  ``I(P_k)`` (intervals in different parent ears share no edge, so only siblings can clash).

Variants (Sec. 3.2, list after Definition 3.3):

* ``endpoint-shared``: all ears with a non-empty nested interval share a common endpoint;
* ``strong``: for siblings ``P_j, P_k`` (``j < k``, same parent), ``I(P_j)`` is contained in
  ``I(P_k)`` (read literally: a later sibling with an empty interval forces every earlier sibling's
  interval to be empty);
* ``almost-strong``: the same, but only for siblings with ``|I(P_j)| > 1`` (intervals of at most
  one edge are exempt as the earlier sibling).

Rooted versions (Sec. 3.3, Theorem 3.7): at node level the root ``w`` is an endpoint of the first
ear; at edge level ``w`` and ``x`` are the two endpoints of the first ear; the Subgraph-GNN rooted
families ask for an endpoint-shared NED whose shared endpoint is ``w``.

The search (:func:`find_ned`) is a depth-first search over the next ear (parent ear, start vertex,
path through new vertices, end on the parent or at a new vertex), checking every condition as the
ear is added, with a memo of the states proven to fail. A state is order-free (the set of ears,
each with its vertex sequence and the intervals of its children so far, the used edges, the
candidate shared endpoints), which is all the future depends on. Pruning, exact: an unused edge
between two vertices already covered can only be a one-edge ear whose endpoints lie in one
common ear, so a state with an unused covered-covered edge and no common ear is dead. Exponential
in the worst case; meant for patterns of up to about 9 vertices (the families prefilter by
treewidth first: a graph with a NED has treewidth at most 2, Theorems 3.4 and 3.10).
"""

from __future__ import annotations

import networkx as nx

__all__ = ["KINDS", "find_ned", "has_ned"]

#: The NED variants :func:`find_ned` decides.
KINDS = ("ned", "strong", "almost-strong", "endpoint-shared")


def _interval_ok(kind: str, new: tuple | None, siblings: frozenset) -> bool:
    """Whether a child with interval ``new`` (``(s, t)`` edge positions ``s..t`` on the parent, or
    None when empty) may follow the non-empty sibling intervals ``siblings``."""
    if new is None:
        if kind == "strong":
            return not siblings
        if kind == "almost-strong":
            return all(t - s <= 1 for s, t in siblings)
        return True
    s, t = new
    for js, jt in siblings:
        inside = s <= js and jt <= t
        if kind == "strong" or (kind == "almost-strong" and jt - js > 1):
            if not inside:
                return False
        elif not (inside or jt <= s or t <= js):
            return False
    return True


def _span(verts: tuple, u: int, v: int) -> tuple:
    a, b = verts.index(u), verts.index(v)
    return (a, b) if a < b else (b, a)


def _canonical_ear(verts: tuple, ivs: frozenset) -> tuple:
    """The ear read from its smaller endpoint (an ear is a path with two distinct endpoints, so
    this is the smaller of the two readings), its intervals with it."""
    if verts[0] < verts[-1]:
        return verts, ivs
    last = len(verts) - 1
    return verts[::-1], frozenset((last - t, last - s) for s, t in ivs)


class _Search:
    """One exact search; ``adj[v]`` lists ``(neighbour, edge bit)``."""

    def __init__(self, n: int, edges: list, kind: str):
        self.n, self.kind = n, kind
        self.adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.edge_list = edges
        for i, (u, v) in enumerate(edges):
            self.adj[u].append((v, 1 << i))
            self.adj[v].append((u, 1 << i))
        self.full = (1 << len(edges)) - 1
        self.failed: set = set()  # states proven to have no completion
        self.solved: dict = {}  # states with a completion: the ears that complete them
        self.outgoing: dict = {}  # (vertex, covered vertices) -> paths (paths_out)
        self.within: dict = {}  # covered vertices (bits) -> edges between them (bits)

    def paths_from(self, start: int, allowed_end, new_ok) -> list[tuple[tuple, int]]:
        """Simple paths from ``start`` through vertices with ``new_ok(v)``; each yielded path ends
        at a new vertex (``allowed_end`` is None: any) or at a vertex with ``allowed_end(v)``."""
        out = []
        stack = [((start,), 0)]
        while stack:
            path, used = stack.pop()
            x = path[-1]
            for y, bit in self.adj[x]:
                if y in path:
                    continue
                if new_ok(y):
                    out.append((path + (y,), used | bit))
                    stack.append((path + (y,), used | bit))
                elif allowed_end is not None and allowed_end(y):
                    out.append((path + (y,), used | bit))
        return out

    def dead(self, used: int, covered: set, ears: list) -> bool:
        """An unused edge between covered vertices can only become a one-edge ear nested on an
        ear holding both ends, with an interval the ear's present children allow (later
        siblings only add constraints): no such ear means no completion."""
        mask = 0
        for v in covered:
            mask |= 1 << v
        if mask not in self.within:  # the edges with both ends in ``mask``, as bits
            self.within[mask] = sum(1 << i for i, (u, v) in enumerate(self.edge_list)
                                    if mask >> u & 1 and mask >> v & 1)
        chords = self.within[mask] & ~used
        while chords:
            low = chords & -chords
            chords ^= low
            u, v = self.edge_list[low.bit_length() - 1]
            if not any(_interval_ok(self.kind, _span(verts, u, v), ivs)
                       for verts, ivs in ears if u in verts and v in verts):
                return True
        return False

    def key(self, used: int, ears: list, shared) -> tuple:
        return used, frozenset(_canonical_ear(v, i) for v, i in ears), shared

    def paths_out(self, a: int, covered: set) -> list[tuple[tuple, int]]:
        """:meth:`paths_from` ``a`` through uncovered vertices, ending at a new vertex or at any
        covered one (in the same order), kept per (a, covered vertices): each parent ear keeps
        those ending on it."""
        key = (a, frozenset(covered))
        if key not in self.outgoing:
            self.outgoing[key] = self.paths_from(a, lambda y: True, lambda y: y not in covered)
        return self.outgoing[key]

    def children(self, used: int, ears: list, covered: set):
        """Every admissible next ear: ``(parent index, vertex tuple, edge bits, interval)``."""
        for pi, (pverts, _) in enumerate(ears):
            pos = {v: k for k, v in enumerate(pverts)}
            for a in pverts:
                for path, bits in self.paths_out(a, covered):
                    if bits & used:
                        continue
                    end = path[-1]
                    if end in covered and end not in pos:
                        continue  # it ends on another ear
                    if end in covered:
                        if pos[a] > pos[end]:
                            continue  # the same ear is found from its other end
                        yield pi, path, bits, (pos[a], pos[end])
                    else:
                        yield pi, path, bits, None

    def solve(self, used: int, ears: list, shared) -> list | None:
        if used == self.full:
            return [e[0] for e in ears]
        covered = {v for e in ears for v in e[0]}
        if self.dead(used, covered, ears):
            return None
        key = self.key(used, ears, shared)
        if key in self.failed:
            return None
        if key in self.solved:  # the state is order-free, so its completion fits any way to it
            return [e[0] for e in ears] + list(self.solved[key])
        for pi, path, bits, iv in self.children(used, ears, covered):
            if not _interval_ok(self.kind, iv, ears[pi][1]):
                continue
            new_shared = shared
            if self.kind == "endpoint-shared" and iv is not None:
                new_shared = shared & {path[0], path[-1]} if shared is not None else frozenset(
                    (path[0], path[-1]))
                if not new_shared:
                    continue
            nxt = list(ears)
            if iv is not None:
                nxt[pi] = (ears[pi][0], ears[pi][1] | {iv})
            nxt.append((path, frozenset()))
            found = self.solve(used | bits, nxt, new_shared)
            if found is not None:
                self.solved[key] = tuple(found[len(ears):])
                return found
        self.failed.add(key)
        return None


def find_ned(F: nx.Graph, kind: str = "ned", *, first_ends: tuple = (), shared: object = None
             ) -> list[tuple] | None:
    """A NED of the connected graph F of the given ``kind`` (:data:`KINDS`), as a list of ears
    (vertex sequences, first ear first), or None if F has none.

    ``first_ends``: ``(w,)`` asks ``w`` to be an endpoint of the first ear (node level), ``(w, x)``
    asks ``w`` and ``x`` to be its two endpoints (edge level; Theorem 3.7). ``shared`` (with
    ``kind="endpoint-shared"``): the common endpoint must be this vertex (Theorem 3.7, Subgraph GNN).
    A graph with one vertex has the empty decomposition. One fresh search per call (the reference
    for :func:`has_ned`, which shares its searches).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown NED kind {kind!r}; known: {', '.join(KINDS)}")
    nodes = list(F.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    edges = [(index[u], index[v]) for u, v in F.edges if u != v]
    if not edges:
        return []
    found = _first_ears(_Search(len(nodes), edges, kind), tuple(index[r] for r in first_ends),
                        None if shared is None else frozenset([index[shared]]))
    return None if found is None else [tuple(nodes[i] for i in ear) for ear in found]


def _first_ears(search: _Search, ends: tuple, start) -> list | None:
    """Try every admissible first ear (from ``ends[0]``, to ``ends[1]``; unrooted: each path once)."""
    for v0 in (ends[:1] if ends else range(search.n)):
        for path, bits in search.paths_from(v0, None, lambda y: True):
            a, b = path[0], path[-1]
            if (not ends and a > b) or (len(ends) == 2 and b != ends[1]):
                continue  # unrooted: each path once; rooted: the first ear starts at w (ends at x)
            found = search.solve(bits, [(path, frozenset())], start)
            if found is not None:
                return found
    return None


#: Searches kept between calls of :func:`has_ned`, by (kind, F canonically labelled): the states
#: they proved to fail or to complete hold for every root (a state is order-free and the roots
#: only choose the first ear), so the rooted questions about one graph share their work.
_SEARCHES: dict = {}
_SEARCHES_MAX = 4096


def _shared_search(F: nx.Graph, kind: str) -> tuple[_Search | None, dict]:
    """The kept search of ``kind`` on F relabelled canonically (pynauty), and F's vertex -> its
    canonical index; None for a graph without edges."""
    from .patterns import canonical_labelling

    position = canonical_labelling(F)
    edges = tuple(sorted(tuple(sorted((position[u], position[v]))) for u, v in F.edges if u != v))
    if not edges:
        return None, position
    key = (kind, F.number_of_nodes(), edges)
    if key not in _SEARCHES:
        if len(_SEARCHES) >= _SEARCHES_MAX:
            _SEARCHES.clear()
        _SEARCHES[key] = _Search(F.number_of_nodes(), list(edges), kind)
    return _SEARCHES[key], position


def has_ned(F: nx.Graph, kind: str = "ned", *, first_ends: tuple = (), shared: object = None) -> bool:
    """Whether the connected graph F has a NED of ``kind`` (see :func:`find_ned`). Searches are
    shared between calls on isomorphic graphs (F relabelled canonically, the roots with it); the
    answer equals ``find_ned(...) is not None`` (tested on every rooted pattern up to 6 vertices)."""
    if kind not in KINDS:
        raise ValueError(f"unknown NED kind {kind!r}; known: {', '.join(KINDS)}")
    search, position = _shared_search(F, kind)
    if search is None:
        return True
    start = None if shared is None else frozenset([position[shared]])
    return _first_ears(search, tuple(position[r] for r in first_ends), start) is not None
