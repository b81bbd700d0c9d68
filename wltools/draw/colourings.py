"""Per-round node colourings of a pair under a refinement test, for pictures.

:func:`wltools.refine.refine_pair` returns a verdict, the first iteration at which the colour
histograms differ and a witness sentence, but not the colourings. This module replays the same
refinement from the engine's public pieces (the initial colours and the one-round functions each
test is built from: :func:`~wltools.refine.gdwl.gdwl_next_colours`,
:func:`~wltools.refine.fwl.fwl2_next_colours`, ...) with the loop of
:func:`wltools.refine.engine.refine_rounds` (one joint colour table for both graphs; stop at the
first round that splits no class), and keeps every round's colours.

What a node's colour is depends on the test:

* node tests (1-WL, SPD / RD / RRWP GD-WL, EPWL, S3 / S4, N_K): the node's own colour;
* pair tests (3-WL as 2-FWL, LFWL(2), SLFWL(2)): the colour of the diagonal pair ``(v, v)``;
* subgraph tests pooled VS (SWL(VS), PSWL(VS), GSWL, SSWL): the colour of the subgraph ``G^v``,
  i.e. the multiset ``{{chi(v, w) : w}}`` that the test pools; pooled SV (SWL(SV), PSWL(SV)): the
  multiset ``{{chi(w, v) : w}}`` of node ``v`` across subgraphs.

The histograms the test compares are those of the *elements* it refines (nodes, pairs, pooled
subgraphs); :func:`pair_colouring` states both the test's first differing round and the round it
shows. 4-WL (3-FWL) and the marking tests M1 / M2 are not replayed here
(:class:`UnsupportedTestError`).

Drift guard: ``tests/wltools/test_draw.py`` checks, for every test of :data:`DRAWABLE_TESTS`, that
the replay's first differing iteration, number of rounds and class sizes equal
:func:`~wltools.refine.refine_pair`'s; :func:`pair_colouring` checks it again on every call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import networkx as nx
import numpy as np

from ..errors import UnknownNameError, WLToolsError
from ..graphs import relabel_consecutive
from ..wl_tests import TEST_LABELS, ego_radius, is_test_name

__all__ = ["DRAWABLE_TESTS", "UnsupportedTestError", "ReplayMismatchError", "ColourRounds", "PairColouring", "colour_rounds",
           "pair_colouring", "is_drawable"]

#: Tests whose colourings :func:`colour_rounds` replays (and ``nK`` for any ``K >= 1``).
DRAWABLE_TESTS = ("1wl", "spd", "rd", "rrwp", "3wl", "epwl", "epwl-lap", "s3", "s4", "n1", "n2",
                  "swl-vs", "swl-sv", "pswl-vs", "pswl-sv", "gswl", "sswl", "lfwl2", "slfwl2")


class UnsupportedTestError(WLToolsError):
    """A test whose per-round colourings cannot be drawn (4-WL, M1, M2), or a labelled pair."""


class ReplayMismatchError(WLToolsError):
    """The replayed colourings disagree with :func:`~wltools.refine.refine_pair` (a bug: the
    picture would show another verdict than the test's)."""


#: Node / edge attribute of labels (:mod:`wltools.labels`); labelled pairs draw with
#: :data:`LABELLED_DRAWABLE`.
_LABEL = "label"


def _has_labels(G: nx.Graph) -> bool:
    """Whether some node or edge of ``G`` carries a label attribute."""
    return any(_LABEL in d for _, d in G.nodes(data=True)) or any(_LABEL in d for *_, d in G.edges(data=True))


def is_drawable(test: str) -> bool:
    """Whether :func:`colour_rounds` can replay ``test``.

    Examples
    --------
    >>> [is_drawable(t) for t in ("1wl", "3wl", "n3", "3fwl", "m1")]
    [True, True, True, False, False]
    """
    return test in DRAWABLE_TESTS or ego_radius(test) is not None


@dataclass
class ColourRounds:
    """Every round's joint colouring of a pair (:func:`colour_rounds`).

    Attributes
    ----------
    test : str
    element : str
        What the test refines: ``"node"``, ``"pair"`` (ordered pairs ``(u, v)``).
    node_meaning : str
        What a node's colour is (module docstring), for captions.
    elements : list of (array, array)
        Per iteration ``t = 0..rounds``, the element colours of G and H (shape ``[n]`` or ``[n, n]``),
        ids from one table shared by the two graphs.
    nodes : list of (array, array)
        Per iteration, the node colours of G and H (length ``n`` each), ids shared by the two graphs.
    compared : list of (array, array)
        Per iteration, the colours whose histograms the test compares (flattened).
    first_diff : int or None
        First iteration at which the compared histograms differ.
    """

    test: str
    element: str
    node_meaning: str
    elements: list = field(default_factory=list)
    nodes: list = field(default_factory=list)
    compared: list = field(default_factory=list)
    first_diff: int | None = None

    @property
    def rounds(self) -> int:
        """Rounds until the joint colouring is stable."""
        return len(self.elements) - 1

    def class_sizes(self) -> tuple:
        """Sorted (descending) sizes of the stable element classes of G and of H."""
        out = []
        for c in self.elements[-1]:
            counts = np.bincount(c.reshape(-1)) if c.size else np.zeros(0, dtype=np.int64)
            out.append(tuple(sorted(counts[counts > 0].tolist(), reverse=True)))
        return tuple(out)


def _differ(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the colour histograms of ``a`` and ``b`` (non-negative ids) differ."""
    k = int(max(a.max(initial=-1), b.max(initial=-1))) + 1
    return bool(np.any(np.bincount(a, minlength=k) != np.bincount(b, minlength=k)))


@dataclass
class _Spec:
    """How to replay one test: initial colours, one round, and the node and compared views."""

    element: str
    node_meaning: str
    init: tuple
    next_colours: Callable
    nodes: Callable = None  # (cg, ch) -> node colours of G and H, joint ids
    compared: Callable = None  # (cg, ch) -> flattened compared colours of G and H

    def __post_init__(self):
        if self.nodes is None:
            self.nodes = _diagonal if self.element == "pair" else (lambda cg, ch: (cg, ch))
        if self.compared is None:
            self.compared = lambda cg, ch: (cg.reshape(-1), ch.reshape(-1))


def _diagonal(cg: np.ndarray, ch: np.ndarray):
    """Node colours of pair tests: the colours of the pairs ``(v, v)``, renumbered jointly."""
    return _joint_ids(np.diagonal(cg).copy(), np.diagonal(ch).copy())


def _joint_ids(a: np.ndarray, b: np.ndarray):
    """Renumber two arrays' values ``0..k-1`` from one sorted table."""
    inv = np.unique(np.concatenate([a.reshape(-1), b.reshape(-1)]), return_inverse=True)[1].reshape(-1)
    return inv[: a.size].reshape(a.shape), inv[a.size :].reshape(b.shape)


def _wl1_spec(G: nx.Graph, H: nx.Graph, init_g=None, init_h=None, meaning: str = "its colour") -> _Spec:
    """1-WL from initial colours (zeros by default): rows ``[chi(v), sorted neighbour colours]``."""
    from ..distances.modular import unique_rows
    from ..refine.seeded import neighbour_table

    n = G.number_of_nodes()
    width = max([d for _, d in G.degree] + [d for _, d in H.degree] + [1])
    nb = np.concatenate([neighbour_table(G, 0, width, 2 * n), neighbour_table(H, n, width, 2 * n)])

    def next_colours(cg, ch, k):
        ext = np.concatenate([cg, ch, np.array([-1], dtype=np.int64)])
        items = np.sort(ext[nb], axis=1)
        return unique_rows(np.concatenate([ext[:-1, None], items], axis=1)), None

    zeros = np.zeros(n, dtype=np.int64)
    init = (zeros, zeros.copy()) if init_g is None else (np.asarray(init_g), np.asarray(init_h))
    return _Spec("node", meaning, init, next_colours)


def _keys_spec(G, H, test: str) -> _Spec:
    """S3 / S4 / N_K: 1-WL from an exact per-node invariant (as :mod:`wltools.refine.seeded`)."""
    from ..refine.seeded import shared_ids

    if test in ("s3", "s4"):
        from ..refine.substructure import substructure_counts

        k = int(test[1])
        keys = substructure_counts(G, k), substructure_counts(H, k)
        meaning = f"1-WL colour from its counts of induced {k}-node subgraphs"
    else:
        from ..refine.ego import ego_keys

        radius, cache = ego_radius(test), {}
        keys = ego_keys(G, radius, cache), ego_keys(H, radius, cache)
        meaning = f"1-WL colour from the class of its radius-{radius} ego network"
    ig, ih, _ = shared_ids(*keys)
    return _wl1_spec(G, H, ig, ih, meaning)


def _gdwl_spec(Dg, Dh, meaning: str) -> _Spec:
    """GD-WL (and EPWL) over shared key matrices, from all-equal colours."""
    from ..refine.gdwl import gdwl_next_colours

    zeros = np.zeros(Dg.shape[0], dtype=np.int64)
    return _Spec("node", meaning, (zeros, zeros.copy()), gdwl_next_colours(Dg, Dh))


def _swl_spec(G, H, test: str) -> _Spec:
    """The subgraph WL tests, from :mod:`wltools.refine.swl`'s round (pair colours)."""
    from ..distances import adjacency_matrix
    from ..refine import swl

    spec = swl.SWL_CLASSES[test]
    Ag, Ah = adjacency_matrix(G), adjacency_matrix(H)
    d = int(max(Ag.sum(axis=1).max(initial=0), Ah.sum(axis=1).max(initial=0)))
    tables = (swl._Tables(Ag, d), swl._Tables(Ah, d))
    step = swl._next_colours(spec, tables, swl.row_width(test, d), swl.DEFAULT_MAX_BYTES)
    init = (swl._initial(spec, Ag), swl._initial(spec, Ah))
    if spec.pooling == "all":
        return _Spec("pair", "the colour of the pair (v, v)", init, step)

    def pooled(cg, ch):
        pg, ph, _ = swl._pooled(spec.pooling, cg, ch)
        return pg, ph

    meaning = ("the colour of its subgraph G^v (the multiset of chi(v, w) over w)" if spec.pooling == "VS"
               else "the multiset of its colours chi(w, v) across the subgraphs G^w")
    return _Spec("pair", meaning, init, step, nodes=pooled, compared=pooled)


#: Tests whose replay reads node and edge labels (:mod:`wltools.labels`), each with the
#: definition its refinement module states.
LABELLED_DRAWABLE = ("1wl", "spd", "rd", "rrwp", "3wl")


def _labelled_wl1_spec(G: nx.Graph, H: nx.Graph, labels) -> _Spec:
    """Labelled 1-WL (:mod:`wltools.refine.wl1`): from the node labels, rows ``[chi(v), sorted
    (neighbour colour * B + edge label id)]`` (``B`` edge label ids; 1 and 0 without edge labels)."""
    from ..distances.modular import unique_rows

    n = G.number_of_nodes()
    base = labels.edge_ids if labels.edge is not None else 1
    width = max([d for _, d in G.degree] + [d for _, d in H.degree] + [1])
    nb = np.full((2 * n, width), 2 * n, dtype=np.int64)
    el = np.zeros((2 * n, width), dtype=np.int64)
    for g, X in enumerate((G, H)):
        E = labels.edge_matrix(g, n) if labels.edge is not None else None
        for v in range(n):
            for j, u in enumerate(sorted(X[v])):
                nb[g * n + v, j] = g * n + u
                el[g * n + v, j] = 0 if E is None else int(E[v, u])

    def next_colours(cg, ch, k):
        ext = np.concatenate([cg, ch, np.array([-1], dtype=np.int64)])
        items = np.where(nb < 2 * n, ext[nb] * base + el, -1)
        items.sort(axis=1)
        return unique_rows(np.concatenate([ext[:-1, None], items], axis=1)), None

    zeros = np.zeros(n, dtype=np.int64)
    init = labels.node if labels.node is not None else (zeros, zeros.copy())
    return _Spec("node", "its colour (from its label)", init, next_colours)


def _labelled_spec(G: nx.Graph, H: nx.Graph, test: str, rrwp_steps: int | None, labels) -> _Spec:
    """The replay of ``test`` on a labelled pair (:data:`LABELLED_DRAWABLE` only)."""
    if test == "1wl":
        return _labelled_wl1_spec(G, H, labels)
    n = G.number_of_nodes()
    zeros = np.zeros(n, dtype=np.int64)
    if test in ("spd", "rd", "rrwp"):
        from ..refine.gdwl import _with_edge_labels, gdwl_next_colours, joint_keys

        Dg, Dh, key_text = joint_keys(G, H, (test,), rrwp_steps)
        if labels.edge is not None:
            Dg, Dh, _ = _with_edge_labels(Dg, Dh, key_text, labels)
        init = labels.node if labels.node is not None else (zeros, zeros.copy())
        return _Spec("node", "its colour (from its label)", init, gdwl_next_colours(Dg, Dh))
    if test == "3wl":
        from ..distances import adjacency_matrix
        from ..refine.fwl import fwl2_next_colours, labelled_atomic_types

        cg, ch, _ = labelled_atomic_types(adjacency_matrix(G), adjacency_matrix(H), labels)
        return _Spec("pair", "the colour of the pair (v, v)", (cg, ch), fwl2_next_colours(n))
    raise UnsupportedTestError(f"cannot draw {TEST_LABELS.get(test, test)} ({test}) on labelled graphs yet; "
                               f"labelled pairs draw with {', '.join(LABELLED_DRAWABLE)}")


def _spec_of(G: nx.Graph, H: nx.Graph, test: str, rrwp_steps: int | None, labels=None) -> _Spec:
    """The replay of ``test`` on ``(G, H)``, as :func:`~wltools.refine.refine_pair` dispatches it."""
    if labels is not None:
        return _labelled_spec(G, H, test, rrwp_steps, labels)
    if test == "1wl":
        return _wl1_spec(G, H)
    if test in ("spd", "rd", "rrwp"):
        from ..refine.gdwl import joint_keys

        Dg, Dh, _ = joint_keys(G, H, (test,), rrwp_steps)
        return _gdwl_spec(Dg, Dh, "its colour")
    if test in ("epwl", "epwl-lap"):
        from ..refine.epwl import MATRICES, walk_keys

        Dg, Dh = walk_keys([G, H], MATRICES[test])
        return _gdwl_spec(Dg, Dh, "its colour")
    if test == "3wl":
        from ..distances import adjacency_matrix
        from ..refine.fwl import atomic_types, fwl2_next_colours

        init = (atomic_types(adjacency_matrix(G)), atomic_types(adjacency_matrix(H)))
        return _Spec("pair", "the colour of the pair (v, v)", init, fwl2_next_colours(G.number_of_nodes()))
    if test in ("s3", "s4") or ego_radius(test) is not None:
        return _keys_spec(G, H, test)
    from ..refine.swl import SWL_CLASSES

    if test in SWL_CLASSES:
        return _swl_spec(G, H, test)
    raise UnsupportedTestError(f"cannot draw the colourings of {TEST_LABELS.get(test, test)} ({test}); "
                               f"drawable tests: {', '.join(DRAWABLE_TESTS)}, or nK")


def on_nodes_0_to_n(G: nx.Graph) -> nx.Graph:
    """``G`` when its nodes are ``0..n-1``, else :func:`~wltools.graphs.relabel_consecutive` of it
    (the relabelling :func:`~wltools.refine.refine_pair` applies)."""
    if set(G.nodes) == set(range(G.number_of_nodes())):
        return G
    return relabel_consecutive(G)


def colour_rounds(G: nx.Graph, H: nx.Graph, test: str, *, rrwp_steps: int | None = None) -> ColourRounds:
    """Replay ``test`` on a pair of equal order and size, keeping every round's colours.

    Raises :class:`UnsupportedTestError` for a test not in :data:`DRAWABLE_TESTS` (nor ``nK``) and
    :class:`~wltools.errors.UnknownNameError` for no test at all.

    Examples
    --------
    >>> import networkx as nx
    >>> r = colour_rounds(nx.path_graph(4), nx.star_graph(3), "1wl")
    >>> r.first_diff, r.rounds, [c.tolist() for c in r.nodes[1]]
    (1, 2, [[0, 1, 1, 0], [2, 0, 0, 0]])
    """
    if not is_test_name(test):
        raise UnknownNameError(f"unknown test {test!r}")
    G, H = on_nodes_0_to_n(G), on_nodes_0_to_n(H)
    if G.number_of_nodes() != H.number_of_nodes() or G.number_of_edges() != H.number_of_edges():
        raise ValueError("colour_rounds needs graphs of equal order and size (refine_pair answers first)")
    from ..labels import pair_labels

    spec = _spec_of(G, H, test, rrwp_steps, pair_labels(G, H))
    out = ColourRounds(test, spec.element, spec.node_meaning)
    cg, ch = _joint_ids(*spec.init)
    k = int(max(cg.max(initial=-1), ch.max(initial=-1))) + 1

    def keep(t, cg, ch):
        out.elements.append((cg, ch))
        out.nodes.append(spec.nodes(cg, ch))
        comp = spec.compared(cg, ch)
        out.compared.append(comp)
        if out.first_diff is None and _differ(*comp):
            out.first_diff = t

    keep(0, cg, ch)
    size_g = cg.size
    while cg.size:
        new, _ = spec.next_colours(cg, ch, k)
        if new.size == 0 or int(new.max()) + 1 == k:
            break
        k = int(new.max()) + 1
        cg, ch = new[:size_g].reshape(cg.shape), new[size_g:].reshape(ch.shape)
        keep(len(out.elements), cg, ch)
    return out


@dataclass
class PairColouring:
    """The node colouring of a pair at one round, ready to draw (:func:`pair_colouring`).

    Attributes
    ----------
    test, label : str
        The test's name and its label in tables (``"1-WL"``).
    G, H : nx.Graph
        The graphs on nodes ``0..n-1`` (as refined).
    distinguished : bool
    reason : str
        As :class:`~wltools.refine.RefinementResult`: ``order``, ``edges``, ``histogram``, ``none``.
    first_diff : int or None
        The test's first differing iteration (:attr:`RefinementResult.iteration`).
    rounds : int
        Rounds to the stable colouring.
    shown_round : int
        The round whose node colours are shown: where the node colour histograms first differ
        (the test's first differing round, or later for pair tests whose diagonal differs later),
        else the stable colouring.
    colours_g, colours_h : list of int
        Node colours at ``shown_round``, renumbered ``0..c-1`` over both graphs (same id = same
        colour class in both).
    differing : list of (int, int, int)
        ``(class, count in G, count in H)`` of the node classes whose counts differ at
        ``shown_round``, largest difference first.
    node_meaning : str
        What a node's colour is (e.g. "the colour of the pair (v, v)").
    witness : str
        :func:`~wltools.refine.refine_pair`'s witness sentence.
    """

    test: str
    label: str
    G: nx.Graph
    H: nx.Graph
    distinguished: bool
    reason: str
    first_diff: int | None
    rounds: int
    shown_round: int
    colours_g: list
    colours_h: list
    differing: list
    node_meaning: str
    witness: str

    @property
    def classes(self) -> int:
        """Number of node colour classes shown (over both graphs)."""
        return len(set(self.colours_g) | set(self.colours_h))


def _differing(cg: list, ch: list) -> list:
    """``(class, count in G, count in H)`` of the classes whose counts differ, largest difference first."""
    k = max(cg + ch + [-1]) + 1
    hg, hh = np.bincount(cg, minlength=k), np.bincount(ch, minlength=k)
    diff = [(c, int(hg[c]), int(hh[c])) for c in range(k) if hg[c] != hh[c]]
    return sorted(diff, key=lambda x: (-abs(x[1] - x[2]), x[0]))


def pair_colouring(G: nx.Graph, H: nx.Graph, test: str, *, round: int | None = None,
                   rrwp_steps: int | None = None, result=None) -> PairColouring:
    """The node colouring of ``(G, H)`` under ``test`` at ``round`` (default: where the node
    colour histograms first differ, else the stable colouring), with the verdict of
    :func:`~wltools.refine.refine_pair`.

    ``result``: the pair's :class:`~wltools.refine.RefinementResult` under ``test`` if the caller
    has it (else it is computed).

    Raises :class:`UnsupportedTestError` for a test that cannot be replayed or a labelled pair,
    ``ValueError`` for a round beyond the stable one, and :class:`ReplayMismatchError` if the
    replay disagrees with
    :func:`~wltools.refine.refine_pair` (a picture never shows another verdict than the test's).

    Examples
    --------
    >>> import networkx as nx
    >>> pc = pair_colouring(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "spd")
    >>> pc.distinguished, pc.shown_round, pc.differing
    (True, 1, [(0, 6, 0), (1, 0, 6)])
    """
    from ..refine import refine_pair

    if not is_drawable(test):
        raise UnsupportedTestError(f"cannot draw the colourings of {TEST_LABELS.get(test, test)} ({test}); "
                                   f"drawable tests: {', '.join(DRAWABLE_TESTS)}, or nK")
    if (_has_labels(G) or _has_labels(H)) and test not in LABELLED_DRAWABLE:
        raise UnsupportedTestError(f"cannot draw {TEST_LABELS.get(test, test)} ({test}) on labelled graphs yet "
                                   f"(node or edge attribute {_LABEL!r}); labelled pairs draw with "
                                   f"{', '.join(LABELLED_DRAWABLE)}")
    if result is None or result.test != test:
        result = refine_pair(G, H, test, rrwp_steps=rrwp_steps)
    G, H = on_nodes_0_to_n(G), on_nodes_0_to_n(H)
    label = TEST_LABELS.get(test, test.upper())
    if result.reason in ("order", "edges"):
        return PairColouring(test, label, G, H, True, result.reason, 0, 0, 0, [0] * len(G), [0] * len(H),
                             [], "not refined (the graphs differ in size)", result.witness)
    rounds = colour_rounds(G, H, test, rrwp_steps=rrwp_steps)
    if (rounds.first_diff, rounds.rounds, rounds.class_sizes()) != (
            result.iteration, result.iterations, tuple(map(tuple, result.class_sizes))):
        raise ReplayMismatchError(f"the replayed {test} colourings disagree with refine_pair (iteration "
                           f"{rounds.first_diff} vs {result.iteration}, rounds {rounds.rounds} vs {result.iterations})")
    first = rounds.first_diff
    if round is None and first is None:
        shown = rounds.rounds
    elif round is None:  # pair tests: the diagonal may differ a round later than the pairs
        shown = next((t for t in range(first, rounds.rounds + 1) if _differ(*rounds.nodes[t])), first)
    elif not 0 <= round <= rounds.rounds:
        raise ValueError(f"round {round} is outside 0..{rounds.rounds} (the colouring is stable after "
                         f"{rounds.rounds} round(s))")
    else:
        shown = round
    ng, nh = _joint_ids(*rounds.nodes[shown])
    cg, ch = ng.tolist(), nh.tolist()
    return PairColouring(test, label, G, H, result.distinguished, result.reason, result.iteration,
                         rounds.rounds, shown, cg, ch, _differing(cg, ch), rounds.node_meaning, result.witness)
