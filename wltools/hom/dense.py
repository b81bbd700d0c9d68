"""The dense dynamic programme for homomorphism counts hom(F, G), plain and rooted, over an
optimal tree decomposition of the pattern F (:mod:`wltools.hom.count` holds the public functions
and picks between this and elimination over sparse tables, :mod:`wltools.hom.sparse`).

hom(F, G) is the number of maps h: V(F) -> V(G) with h(u)h(v) in E(G) for every edge uv of F.
Zhang, Gai, Du, Ye, He, Wang (ICLR 2024, "Beyond Weisfeiler-Lehman: A Quantitative Framework for
GNN Expressiveness", arXiv 2401.08514, Sec. 2 and Definition 3.1) characterise a model class by
the patterns F whose counts it determines; rooted counts (F with one or two marked vertices sent
to given vertices of G) are their node- and edge-level versions (Sec. 3.3).

Method (the classical tree-decomposition dynamic programme, e.g. Díaz, Serna, Thilikos,
"Counting H-colorings of partial k-trees", TCS 2002; Dell, Grohe, Rattan, ICALP 2018, Sec. 2):
with hom(F, G) = sum over x in V(G)^V(F) of prod over uv in E(F) of A[x_u, x_v], the
decomposition (:func:`wltools.hom.decompose.tree_decomposition`, optimal width t) is rooted, every
edge of F is assigned to one bag holding both ends, and each bag sends its parent the tensor over
V(G)^(bag ∩ parent) obtained by multiplying its edges' adjacency matrices with its children's
tensors and summing out the vertices it forgets (``numpy.einsum``, two operands at a time in an
order found once per pattern). Every bag costs at most n^(t+1) operations and n^t memory,
n = |V(G)|.

Exactness: all entries are non-negative integers, and every entry, partial product and partial
sum is at most n * max(Δ(G), 1)^|V(F)| for a connected F (each summed-out vertex has a neighbour
still fixed, so at most Δ(G) choices; only the last one has n). When that bound is below 2^53
the arithmetic is float64 (BLAS: every intermediate an integer below 2^53, hence exact), below
2^62 int64, and above it Python integers (object arrays). Disconnected patterns are the product
of their components' counts.

Scope: simple undirected graphs only; loops and multi-edges are refused, and so are labelled
graphs (node or edge labels): what a pattern family means on labelled graphs is not settled here.
"""


from __future__ import annotations

import string
from functools import lru_cache

import networkx as nx
import numpy as np

from wltools.errors import ResourceLimitError, UnsupportedGraphError

from .decompose import tree_decomposition

__all__ = ["MAX_WORK", "SECONDS_PER_OP", "check_unlabelled", "dp_batched", "estimated_seconds", "peak_bytes"]

#: Refuse a count whose dynamic programme needs more than this many multiply-adds (about n^(t+1)
#: per bag): a few tens of seconds on one core.
MAX_WORK = 2e11

_FLOAT_EXACT = 2 ** 53
_INT64_SAFE = 2 ** 62
#: A pairwise contraction that sums a vertex out goes through BLAS (``optimize=True``) from this
#: many multiply-adds on (about n = 40 for a matrix product); smaller ones, and products without a
#: sum, cost less in numpy's own loop than BLAS's set-up (measured by the tests' author). Exact
#: either way (module docstring).
_BLAS_WORK = 1 << 16


def check_unlabelled(G: nx.Graph, what: str) -> None:
    """Refuse (:class:`~wltools.errors.UnsupportedGraphError`, one line) a directed graph, a
    multigraph, self-loops, or node / edge labels."""
    from wltools.graphs.labels import EDGE_LABEL, NODE_LABEL, has_attribute

    if G.is_directed() or G.is_multigraph():
        raise UnsupportedGraphError(f"{what} is {'directed' if G.is_directed() else 'a multigraph'}: "
                                    "homomorphisms are counted between simple undirected graphs")
    loops = nx.number_of_selfloops(G)
    if loops:
        raise UnsupportedGraphError(f"{what} has {loops} self-loop(s): homomorphisms are counted "
                                    "between simple undirected graphs")
    for kind, attr in (("node", NODE_LABEL), ("edge", EDGE_LABEL)):
        if has_attribute(G, attr, kind):
            raise UnsupportedGraphError(f"{what} carries {kind} labels: homomorphism counts (and the pattern "
                                        "families) are defined here for unlabelled graphs only")


def _dtype(G: nx.Graph, k: int):
    """The narrowest exact arithmetic for a connected k-vertex pattern into G (module docstring)."""
    return _dtype_of(G.number_of_nodes(), max((d for _, d in G.degree()), default=0), k)


def _adjacency(G: nx.Graph, dtype) -> np.ndarray:
    if dtype is not object:  # built in its dtype: one n x n array at the peak, not two
        return nx.to_numpy_array(G, nodelist=list(G.nodes), weight=None, dtype=dtype)
    A = nx.to_numpy_array(G, nodelist=list(G.nodes), weight=None, dtype=np.float64)
    return np.array([[int(x) for x in row] for row in A], dtype=object).reshape(A.shape)


def _plan(F: nx.Graph, roots: tuple) -> tuple[tuple, tuple]:
    """The dynamic programme for the connected F with ``roots``: ``(steps, bag sizes)``, one step
    per bag in post-order, each ``(contraction order, operands)`` (:func:`_pairwise`) where an
    operand is ``"A"`` (an edge's adjacency matrix), ``"1"`` (a vertex without edges there: a ones
    vector) or the index of an earlier step (a child's message). Cached per pattern (vertices, edges, roots): the witness
    search and the benchmark count one pattern into many graphs."""
    return _plan_of(tuple(F.nodes), frozenset(frozenset(e) for e in F.edges), tuple(roots))


@lru_cache(maxsize=4096)
def _plan_of(nodes: tuple, edges: frozenset, roots: tuple) -> tuple[tuple, tuple]:
    F = nx.Graph()
    F.add_nodes_from(nodes)
    F.add_edges_from(tuple(e) for e in edges)
    F2 = nx.Graph(F)
    if len(roots) == 2:  # a bag holding both roots
        F2.add_edge(*roots)
    _, T = tree_decomposition(F2)
    top = next(b for b in T if set(roots) <= b)
    order = list(nx.dfs_postorder_nodes(T, top))
    parent = dict(nx.dfs_predecessors(T, top))
    letter = {v: string.ascii_letters[i] for i, v in enumerate(nodes)}
    edges_at: dict = {b: [] for b in order}
    for u, v in F.edges:
        edges_at[next(b for b in order if u in b and v in b)].append((u, v))
    steps, scopes = [], []
    for i, b in enumerate(order):
        up = parent.get(b)
        scope = tuple(roots) if up is None else tuple(sorted(b & up, key=letter.get))
        ops, subs = [], []
        for u, v in edges_at[b]:
            ops.append("A")
            subs.append(letter[u] + letter[v])
        for j, child in enumerate(order[:i]):
            if parent.get(child) == b:
                ops.append(j)
                subs.append("".join(letter[x] for x in scopes[j]))
        seen = set("".join(subs))
        for x in sorted(b, key=letter.get):
            if letter[x] not in seen:  # a vertex without edges in this bag: n choices (a ones vector)
                ops.append("1")
                subs.append(letter[x])
        scopes.append(scope)
        steps.append((_pairwise(",".join(subs) + "->" + "".join(letter[x] for x in scope)), tuple(ops)))
    return tuple(steps), tuple(len(b) for b in order)


#: Bytes per entry of an object array of counts: the pointer and a Python int of up to 60 bits.
_OBJECT_ENTRY = 8 + 32


def _adjacency_bytes(n: int, dtype) -> int:
    """Peak bytes of :func:`_adjacency`: the n x n array in its dtype; for object arithmetic the
    float64 array, the nested lists of Python ints (a pointer each; 0 and 1 are shared) and the
    object array at once."""
    return 8 * n * n if dtype is not object else 3 * 8 * n * n + 64 * n


def _steps_bytes(steps: tuple, n: int, item: int) -> int:
    """Peak bytes of :func:`_dp` besides the adjacency matrix, ``item`` bytes an entry: every
    message kept until the end, and at each pairwise contraction the step's intermediates alive,
    its operands once more (BLAS may copy a transposed operand, even the adjacency matrix) and
    its result twice (einsum's output and a reshaped copy). A tensor over ``j`` pattern vertices
    has ``n^j`` entries, ``j`` read from the plan's einsum specs."""
    peak = kept = 0.0
    for order, _ in steps:
        if order[0][0] is None:  # one einsum over all the step's operands
            operands = [0.0] * len(order[0][1].split("->")[0].split(","))
            specs = ((tuple(range(len(operands) - 1, -1, -1)), order[0][1]),)
        else:
            operands, specs = [0.0] * (1 + sum(len(idx) - 1 for idx, _ in order)), order
        for idx, spec in specs:  # 0.0: a shared operand (the adjacency, ones, a message)
            inputs, out = spec.split("->")
            taken = [operands.pop(i) for i in idx]
            result = float(n) ** len(out)
            copies = sum(float(n) ** len(x) for x in inputs.split(","))
            peak = max(peak, kept + sum(operands) + sum(taken) + copies + 2 * result)
            operands.append(result)
        kept += operands[-1]
    return int(item * peak)


def peak_bytes(F: nx.Graph, n: int, roots: tuple = (), max_degree: int | None = None) -> int:
    """An upper estimate of the peak memory (bytes, as :mod:`tracemalloc` counts numpy's and
    Python's allocations) of counting the pattern F into a graph of ``n`` vertices, plain or
    rooted (:func:`hom_count`, :func:`hom_counts_at`), from F's plan alone: nothing of size n is
    built. Per connected component (counted one after another): G's adjacency matrix in the
    arithmetic's dtype (:func:`_dtype`, from ``max_degree``, default ``n - 1``), the dynamic
    programme's tensors (:func:`_steps_bytes`) and the object array of rooted counts
    (``n^roots`` entries), plus 256 KiB for the Python objects of a count. Against tracemalloc
    peaks (paths, cycles, K4, a disconnected pattern; plain, one and two roots; float64, int64 and
    object arithmetic; n = 60-600; ``benchmarks/hom_memory_bench.py``) it was 1.5 to 6.4 times the
    measured peak, about 2x for plain counts; the tests check that it stays above.

    Examples
    --------
    >>> peak_bytes(nx.path_graph(3), 100_000) > 70 * 2**30  # the 100,000 x 100,000 adjacency matrix
    True
    """
    n = max(int(n), 1)
    delta = n - 1 if max_degree is None else max_degree
    peak = 0
    for comp in nx.connected_components(F):
        C = F.subgraph(comp)
        mine = tuple(r for r in roots if r in comp)
        dtype = _dtype_of(n, delta, C.number_of_nodes())
        steps, _ = _plan(nx.Graph(C), mine)
        out = _OBJECT_ENTRY * n ** len(mine)
        item = _OBJECT_ENTRY if dtype is object else 8
        peak = max(peak, _adjacency_bytes(n, dtype) + _steps_bytes(steps, n, item) + 2 * out)
    return 256 * 1024 + peak + (_OBJECT_ENTRY * n ** len(roots) if len(roots) == 2 else 0)


#: Seconds per multiply-add of the dynamic programme: measured 0.4-1.1e-9 on BLAS-sized
#: contractions (cycle:4 into 3-regular graphs of 1,500-2,500 vertices: 7.7 s and 34 s; K4 into
#: 150-250 vertices) on a loaded 2-core machine; a guide for the estimate shown before a long count.
SECONDS_PER_OP = 1.2e-9


def estimated_seconds(F: nx.Graph, n: int, roots: tuple = ()) -> float:
    """About how long counting F into a graph of ``n`` vertices takes: the multiply-adds of its
    plan (``n^|bag|`` per bag, the number :data:`MAX_WORK` limits) times :data:`SECONDS_PER_OP`.

    Examples
    --------
    >>> round(estimated_seconds(nx.cycle_graph(4), 2500))  # measured: 34 s
    38
    """
    work = 0.0
    for comp in nx.connected_components(F):
        mine = tuple(r for r in roots if r in comp)
        work += sum(float(n) ** k for k in _plan(nx.Graph(F.subgraph(comp)), mine)[1])
    return work * SECONDS_PER_OP


def _dtype_of(n: int, max_degree: int, k: int):
    """:func:`_dtype` from the sizes alone."""
    bound = max(n, 1) * max(max_degree, 1) ** k
    if bound < _FLOAT_EXACT:
        return np.float64
    return np.int64 if bound < _INT64_SAFE else object


def _require_dense(F: nx.Graph, G: nx.Graph, roots: tuple, max_memory: int | None, max_work: float) -> None:
    """:func:`require_count` of the dense programme for the connected F."""
    from wltools.graphs import edge_count
    from wltools.runtime.memory import require

    n = G.number_of_nodes()
    delta = max((d for _, d in G.degree()), default=0)
    _check_work(_plan(F, roots)[1], n, max_work)
    require(peak_bytes(F, n, tuple(roots), delta),
            f"counting homomorphisms of a {F.number_of_nodes()}-vertex pattern into a graph of {n:,} vertices "
            f"and {edge_count(G):,} edges (a dense {n:,} x {n:,} matrix)", max_memory=max_memory)


def _check_work(sizes: tuple, n: int, max_work: float) -> None:
    work = sum(float(n) ** k for k in sizes)
    if work > max_work:
        raise ResourceLimitError(f"counting this pattern (treewidth {max(sizes) - 1}) into a graph of {n:,} "
                                 f"vertices needs about {work:.2g} operations (n^(t+1)), above the limit of "
                                 f"{max_work:.2g}")


def _pairwise(spec: str) -> tuple:
    """A contraction order for ``spec``: ``((indices, spec), ...)``, each contracting the operands at
    ``indices`` (usually two; removed, the result appended) and summing out the letters no other
    operand nor the output holds; numpy's greedy order (all dimensions equal), found once per
    pattern, so no path search runs per count."""
    inputs, out = spec.split("->")
    subs = inputs.split(",")
    if len(subs) < 3:
        return ((None, spec),)
    path = np.einsum_path(spec, *[np.ones((3,) * len(x)) for x in subs], optimize="greedy")[0][1:]
    order = []
    for group in path:
        idx = tuple(sorted(group, reverse=True))
        taken = [subs.pop(i) for i in idx]
        keep = set("".join(subs)) | set(out)
        res = out if not subs else "".join(dict.fromkeys(c for c in "".join(taken) if c in keep))
        order.append((idx, ",".join(taken) + "->" + res))
        subs.append(res)
    return tuple(order)


def _contract(order: tuple, operands: list) -> np.ndarray:
    """Run a :func:`_pairwise` order: two operands at a time (BLAS for large float64 ones that sum
    a vertex out: at least :data:`_BLAS_WORK` multiply-adds, every axis of length n)."""
    if order[0][0] is None:
        return np.einsum(order[0][1], *operands)
    operands = list(operands)
    for idx, spec in order:
        taken = [operands.pop(i) for i in idx]
        inputs, out = spec.split("->")
        letters = set(inputs) - {","}
        n = max(max(t.shape, default=1) for t in taken)
        big = (taken[0].dtype == np.float64 and not letters <= set(out)
               and float(n) ** len(letters) >= _BLAS_WORK)
        operands.append(np.einsum(spec, *taken, optimize=big))
    return operands[0]


def _dp(F: nx.Graph, A: np.ndarray, roots: tuple, max_work: float) -> np.ndarray:
    """The tensor over V(G)^roots of rooted counts of the connected pattern F (a 0-d array when
    ``roots`` is empty): the bottom-up pass of the module docstring."""
    n = A.shape[0]
    steps, sizes = _plan(F, roots)
    _check_work(sizes, n, max_work)
    ones = np.ones(n, dtype=A.dtype)
    messages: list = []
    for spec, ops in steps:
        operands = [A if o == "A" else ones if o == "1" else messages[o] for o in ops]
        messages.append(_contract(spec, operands))
    return messages[-1]


@lru_cache(maxsize=4096)
def _batched(order: tuple) -> tuple:
    """A :func:`_pairwise` order with a leading batch axis (``Z``, never a pattern vertex's
    letter) on every operand and result: one graph per index."""
    return tuple((idx, ",".join("Z" + x for x in spec.split("->")[0].split(",")) + "->Z" + spec.split("->")[1])
                 for idx, spec in order)


def dp_batched(F: nx.Graph, A: np.ndarray, roots: tuple = ()) -> np.ndarray:
    """:func:`_dp` over a stack of adjacency matrices ``A`` (B x n x n, graphs of one size, in
    the arithmetic's dtype), the batch axis first in every tensor: one numpy call per
    contraction for B graphs (the small graphs of a batch, :class:`wltools.hom.batch.Counter`).
    Exact as :func:`_dp` (the dtype chosen for the largest Δ of the stack)."""
    B, n = A.shape[0], A.shape[1]
    steps, _ = _plan(F, roots)
    ones = np.ones((B, n), dtype=A.dtype)
    messages: list = []
    for order, ops in steps:
        operands = [A if o == "A" else ones if o == "1" else messages[o] for o in ops]
        messages.append(_contract(_batched(order), operands))
    return messages[-1]


def _exact(x) -> int:
    return int(round(x)) if isinstance(x, (float, np.floating)) else int(x)


def _count_connected(F: nx.Graph, G: nx.Graph, roots: tuple = (), dtype=None,
                     max_work: float = MAX_WORK, adjacency: dict | None = None) -> np.ndarray:
    """Rooted counts (object array over V(G)^roots; 0-d when unrooted) of a connected F.
    ``dtype`` forces the arithmetic (tests); by default the narrowest exact one. ``adjacency``
    keeps G's adjacency matrix per dtype between calls."""
    dtype = _dtype(G, F.number_of_nodes()) if dtype is None else dtype
    adjacency = {} if adjacency is None else adjacency
    if dtype not in adjacency:
        adjacency[dtype] = _adjacency(G, dtype)
    T = np.asarray(_dp(F, adjacency[dtype], roots, max_work))
    out = np.empty(T.shape, dtype=object)
    flat_in, flat_out = T.reshape(-1), out.reshape(-1)
    for i in range(flat_in.size):
        flat_out[i] = _exact(flat_in[i])
    return out


