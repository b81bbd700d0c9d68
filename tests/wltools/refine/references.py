"""Independent slow references for the kernel's tests: each WL test written here from its paper's
definition in plain Python (dicts, sorted tuples, exact Fractions and Python integers), sharing no
code with :mod:`wltools.refine` (distances from networkx or computed here, ids from sorted keys).

:func:`reference(G, H, test)` gives ``(distinguished, iteration, iterations, class_sizes)`` of a
pair on nodes ``0..n-1`` of equal order, refined with one table for both graphs: the round loop
stops at the first round that does not increase the number of colour classes (each key holds the
old colour, so that round leaves the partition unchanged), the pair is distinguished at the first
round ``t`` whose compared histograms differ.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import networkx as nx

from wltools.testing.references import fraction_inverse  # Gauss-Jordan over Fractions (no engine code)


def _loop(graphs, elements, init, signature, readout=None):
    """The round loop (module docstring) over ``elements(X)``; ``init(X, e)`` and
    ``signature(X, e, colour)`` are hashable, ``readout(X, colour)`` lists the compared colours."""
    cols = _number([{e: init(X, e) for e in elements(X)} for X in graphs])
    first = None
    t = 0
    while True:
        if first is None and _compared(graphs, cols, readout)[0] != _compared(graphs, cols, readout)[1]:
            first = t
        new = _number([{e: signature(X, e, c) for e in c} for X, c in zip(graphs, cols)])
        if _classes(new) == _classes(cols):
            break
        cols, t = new, t + 1
    iterations = t
    sizes = tuple(tuple(sorted(Counter(c.values()).values(), reverse=True)) for c in cols)
    return first is not None, first, iterations, sizes


def _number(keyed):
    """One table for both graphs: a key's id is its rank among all keys (sorted by ``repr``)."""
    table = {key: i for i, key in enumerate(sorted({k for c in keyed for k in c.values()}, key=repr))}
    return [{e: table[k] for e, k in c.items()} for c in keyed]


def _classes(cols):
    return len({x for c in cols for x in c.values()})


def _compared(graphs, cols, readout):
    if readout is None:
        return [Counter(c.values()) for c in cols]
    return [Counter(readout(X, c)) for X, c in zip(graphs, cols)]


# ---- 1-WL and 1-WL from initial node keys (S3, S4, N_K) ------------------------------------------

def wl1(G, H, init=lambda X, v: 0):
    """Colour refinement: ``chi(v) <- (chi(v), {{chi(u) : u in N(v)}})``."""
    return _loop((G, H), lambda X: list(X), init,
                 lambda X, v, c: (c[v], tuple(sorted(c[u] for u in X[v]))))


def labelled_wl1(G, H, attribute="label"):
    """Colour refinement of vertex- and edge-coloured graphs (Grohe et al. 2017, Sec. 2):
    ``chi^0(v) = l(v)``, ``chi(v) <- (chi(v), {{(l(v, u), chi(u)) : u in N(v)}})``."""
    return _loop((G, H), lambda X: list(X), lambda X, v: X.nodes[v].get(attribute),
                 lambda X, v, c: (c[v], tuple(sorted((repr(X.edges[v, u].get(attribute)), c[u]) for u in X[v]))))


def _connected_types(k):
    return [T for T in nx.graph_atlas_g() if T.number_of_nodes() == k and nx.is_connected(T)]


def substructure(G, H, k):
    """BREC's S3 / S4: 1-WL from the counts, per isomorphism type of connected ``k``-node graph,
    of the ``k``-subsets holding ``v`` that induce that type."""
    types = _connected_types(k)

    def counts(X):
        out = {v: [0] * len(types) for v in X}
        for S in combinations(X, k):
            sub = X.subgraph(S)
            if nx.is_connected(sub):
                i = next(i for i, T in enumerate(types) if nx.is_isomorphic(sub, T))
                for v in S:
                    out[v][i] += 1
        return {v: tuple(c) for v, c in out.items()}

    keys = {id(X): counts(X) for X in (G, H)}
    return wl1(G, H, init=lambda X, v: keys[id(X)][v])


def ego(G, H, radius):
    """BREC's N_K: 1-WL from the isomorphism class of the (unrooted) radius-K ego network."""
    where = [(g, v) for g, X in enumerate((G, H)) for v in X]
    balls = [nx.ego_graph((G, H)[g], v, radius) for g, v in where]
    cls: dict = {}
    for i, B in enumerate(balls):
        cls[where[i]] = next((cls[where[j]] for j in range(i) if nx.is_isomorphic(B, balls[j])), i)
    return wl1(G, H, init=lambda X, v: cls[0 if X is G else 1, v])


# ---- GD-WL over SPD / RD / RRWP; EPWL over walk counts --------------------------------------------

def _spd(X):
    d = dict(nx.all_pairs_shortest_path_length(X))
    return {(u, v): d[u].get(v, "inf") for u in X for v in X}


def _rd(X):
    """Effective resistance: per component, ground one node and invert the reduced Laplacian
    ``R(u, v) = X_uu + X_vv - 2 X_uv``; infinite between components."""
    out = {(u, v): "inf" for u in X for v in X}
    for comp in nx.connected_components(X):
        nodes = sorted(comp)
        rest = nodes[1:]
        L = [[Fraction(X.degree(a) if a == b else -int(X.has_edge(a, b))) for b in rest] for a in rest]
        inv = fraction_inverse(L) if rest else []
        Y = {(a, b): inv[i][j] for i, a in enumerate(rest) for j, b in enumerate(rest)}
        for u in nodes:
            for v in nodes:
                out[u, v] = Y.get((u, u), 0) + Y.get((v, v), 0) - 2 * Y.get((u, v), 0)
    return out


def _matrix_powers(M, K):
    n = len(M)
    P = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    out = [P]
    for _ in range(K - 1):
        P = [[sum(P[i][m] * M[m][j] for m in range(n)) for j in range(n)] for i in range(n)]
        out.append(P)
    return out


def _rrwp(X, K):
    """GRIT Eq. 1: ``(I, M, ..., M^(K-1))_{uv}`` with ``M = D^-1 A`` (a zero row at an isolated node)."""
    n = X.number_of_nodes()
    M = [[Fraction(int(X.has_edge(i, j)), X.degree(i)) if X.degree(i) else Fraction(0) for j in range(n)]
         for i in range(n)]
    powers = _matrix_powers(M, K)
    return {(u, v): tuple(P[u][v] for P in powers) for u in range(n) for v in range(n)}


def _walks(X, laplacian):
    """EPWL's walk vectors ``((B^0)_uv, ..., (B^n)_uv)``, ``B`` = A or L = D - A (integers)."""
    n = X.number_of_nodes()
    B = [[(X.degree(i) if i == j else 0) * laplacian - (1 if laplacian else -1) * int(X.has_edge(i, j))
          for j in range(n)] for i in range(n)]
    powers = _matrix_powers(B, n + 1)
    return {(u, v): tuple(P[u][v] for P in powers) for u in range(n) for v in range(n)}


def distance_wl(G, H, distance):
    """GD-WL (PPGT App. E Eq. 13): ``chi(v) <- (chi(v), {{(d(v, u), chi(u)) : u in V}})``."""
    d = {id(X): distance(X) for X in (G, H)}
    return _loop((G, H), lambda X: list(X), lambda X, v: 0,
                 lambda X, v, c: (c[v], tuple(sorted(((d[id(X)][v, u], c[u]) for u in X), key=repr))))


# ---- 2-FWL (3-WL), 3-FWL (4-WL) ---------------------------------------------------------------------

def _type(X, u, v):
    return (u == v, X.has_edge(u, v))


def fwl2(G, H):
    """2-FWL: ``chi(u, v) <- (chi(u, v), {{(chi(u, w), chi(w, v)) : w in V}})`` from atomic types."""
    return _loop((G, H), lambda X: list(product(X, X)), lambda X, e: _type(X, *e),
                 lambda X, e, c: (c[e], tuple(sorted((c[e[0], w], c[w, e[1]]) for w in X))))


def fwl3(G, H):
    """3-FWL: triples, ``(chi(w, v, x), chi(u, w, x), chi(u, v, w))`` over ``w``, from iso types."""
    def sig(X, e, c):
        u, v, x = e
        return c[e], tuple(sorted((c[w, v, x], c[u, w, x], c[u, v, w]) for w in X))

    return _loop((G, H), lambda X: list(product(X, X, X)),
                 lambda X, e: (_type(X, e[0], e[1]), _type(X, e[0], e[2]), _type(X, e[1], e[2])), sig)


# ---- the subgraph WL hierarchy (Zhang et al., ICML 2023) -----------------------------------------

_SWL = {"swl-vs": ("uL", "VS"), "swl-sv": ("uL", "SV"), "pswl-vs": ("uL vv", "VS"), "pswl-sv": ("uL vv", "SV"),
        "gswl": ("uL vG", "VS"), "sswl": ("uL vL", "VS")}


def subgraph_wl(G, H, test):
    """SWL with node marking, ``chi(u, v) <- (chi(u, v), agg...)`` over the class's aggregations,
    pooled VS (``{{ {{chi(u, v) : v}} : u }}``) or SV (``{{ {{chi(u, v) : u}} : v }}``)."""
    aggs, pool = _SWL[test]

    def sig(X, e, c):
        u, v = e
        key = [c[e]]
        for a in aggs.split():
            if a == "uL":
                key.append(tuple(sorted(c[u, w] for w in X[v])))
            elif a == "vL":
                key.append(tuple(sorted(c[w, v] for w in X[u])))
            elif a == "vv":
                key.append(c[v, v])
            else:
                key.append(tuple(sorted(c[w, v] for w in X)))
        return tuple(key)

    def readout(X, c):
        if pool == "VS":
            return [tuple(sorted(c[u, v] for v in X)) for u in X]
        return [tuple(sorted(c[u, v] for u in X)) for v in X]

    return _loop((G, H), lambda X: list(product(X, X)), lambda X, e: e[0] == e[1], sig, readout)


def local_fwl(G, H, test):
    """LFWL(2) (``w`` in ``N(v) + {v}``) and SLFWL(2) (``w`` in ``N^1(u) | N^1(v)``): 2-FWL's item
    ``(chi(u, w), chi(w, v))`` over a local set of ``w``, from atomic types."""
    def around(X, u, v):
        near = set(X[v]) | {v}
        return near | set(X[u]) | {u} if test == "slfwl2" else near

    return _loop((G, H), lambda X: list(product(X, X)), lambda X, e: _type(X, *e),
                 lambda X, e, c: (c[e], tuple(sorted((c[e[0], w], c[w, e[1]]) for w in around(X, *e)))))


def reference(G, H, test):
    """``(distinguished, iteration, iterations, class_sizes)`` of ``test`` on ``(G, H)``."""
    n = max(G.number_of_nodes(), H.number_of_nodes())
    refs = {
        "1wl": wl1, "3wl": fwl2, "3fwl": fwl3,
        "spd": lambda G, H: distance_wl(G, H, _spd), "rd": lambda G, H: distance_wl(G, H, _rd),
        "rrwp": lambda G, H: distance_wl(G, H, lambda X: _rrwp(X, n)),
        "epwl": lambda G, H: distance_wl(G, H, lambda X: _walks(X, False)),
        "epwl-lap": lambda G, H: distance_wl(G, H, lambda X: _walks(X, True)),
        "s3": lambda G, H: substructure(G, H, 3), "s4": lambda G, H: substructure(G, H, 4),
        "n1": lambda G, H: ego(G, H, 1), "n2": lambda G, H: ego(G, H, 2),
        "lfwl2": lambda G, H: local_fwl(G, H, "lfwl2"), "slfwl2": lambda G, H: local_fwl(G, H, "slfwl2"),
    }
    if test in _SWL:
        return subgraph_wl(G, H, test)
    return refs[test](G, H)
