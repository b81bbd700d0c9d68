"""Per-round node colourings of a pair under a refinement test, for pictures.

:func:`wltools.refine.refine_pair` returns a verdict, the first iteration at which the colour
histograms differ and a witness sentence, but not the colourings. This module runs the test's
declaration (:func:`wltools.refine.declarations.declaration`) on the one refinement kernel with a
:class:`~wltools.refine.kernel.History`, and reads every round's colours from it (one joint colour
table for both graphs; nothing replayed here).

What a node's colour is depends on the test:

* node tests (1-WL, SPD / RD / RRWP GD-WL, EPWL, S3 / S4, N_K): the node's own colour;
* pair tests (3-WL as 2-FWL, LFWL(2), SLFWL(2)): the colour of the diagonal pair ``(v, v)``;
* subgraph tests pooled VS (SWL(VS), PSWL(VS), GSWL, SSWL): the colour of the subgraph ``G^v``,
  i.e. the multiset ``{{chi(v, w) : w}}`` that the test pools; pooled SV (SWL(SV), PSWL(SV)): the
  multiset ``{{chi(w, v) : w}}`` of node ``v`` across subgraphs.

The histograms the test compares are those of the *elements* it refines (nodes, pairs, pooled
subgraphs); :func:`pair_colouring` states both the test's first differing round and the round it
shows. 4-WL (3-FWL) and the marking tests M1 / M2 are not drawn (:class:`UnsupportedTestError`).
Labelled pairs draw with every drawable test that is defined on them, with the labelled
definition its refinement module states (the same kernel declaration): all but BREC's
baselines S3, S4 and N_K, which are defined on unlabelled graphs only, and EPWL on edge labels
(refused with :func:`~wltools.refine.refine_pair`'s line).

Drift guard: ``tests/wltools/test_draw.py`` checks, for every test of :data:`DRAWABLE_TESTS`, that
the history's first differing iteration, number of rounds and class sizes equal
:func:`~wltools.refine.refine_pair`'s; :func:`pair_colouring` checks it again on every call (1-WL's
:func:`~wltools.refine.refine_pair` runs its incremental path, the others the same declaration).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from ..errors import UnknownNameError, WLToolsError
from ..graphs import relabel_consecutive
from ..refine.names import is_test_name, label_of
from ..wltests.registry import builtin_tests, get_test

__all__ = ["DRAWABLE_TESTS", "UnsupportedTestError", "ReplayMismatchError", "ColourRounds", "PairColouring", "colour_rounds",
           "pair_colouring", "is_drawable"]

#: Built-in tests whose colourings :func:`colour_rounds` reads from the kernel (and ``nK`` for any
#: ``K >= 1``, and tests from outside that declare a drawing): those whose
#: :class:`~wltools.wltests.WLTest` has a declaration and a ``draw``.
DRAWABLE_TESTS = tuple(t.name for t in builtin_tests() if t.drawable)


class UnsupportedTestError(WLToolsError):
    """A test whose per-round colourings cannot be drawn (4-WL, M1, M2)."""


class ReplayMismatchError(WLToolsError):
    """The kernel's colourings disagree with :func:`~wltools.refine.refine_pair` (a bug: the
    picture would show another verdict than the test's)."""


#: Node / edge attribute of labels (:mod:`wltools.graphs.labels`).
_LABEL = "label"


def is_drawable(test: str) -> bool:
    """Whether :func:`colour_rounds` can give ``test``'s colourings.

    Examples
    --------
    >>> [is_drawable(t) for t in ("1wl", "3wl", "n5", "wl0")]
    [True, True, True, False]
    """
    return is_test_name(test) and get_test(test).drawable


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


def _joint_ids(a: np.ndarray, b: np.ndarray):
    """Renumber two arrays' values ``0..k-1`` from one sorted table."""
    inv = np.unique(np.concatenate([a.reshape(-1), b.reshape(-1)]), return_inverse=True)[1].reshape(-1)
    return inv[: a.size].reshape(a.shape), inv[a.size :].reshape(b.shape)


def _refuse_labels(labels, test: str) -> None:
    """Refuse, with :func:`~wltools.refine.refine_pair`'s line, labels that ``test`` is not
    defined on (its :class:`~wltools.wltests.WLTest`'s ``labels``): every drawable test draws a
    labelled pair that it refines."""
    get_test(test).check_labels(labels)


def _view(test: str) -> tuple[str, str, bool]:
    """What ``test`` colours (``node`` / ``pair``), what a node's colour means, and whether the
    node colours are the compared (pooled) ones rather than the diagonal pairs ``(v, v)``: the
    ``draw`` of its :class:`~wltools.wltests.WLTest`."""
    return get_test(test).draw


def on_nodes_0_to_n(G: nx.Graph) -> nx.Graph:
    """``G`` when its nodes are ``0..n-1``, else :func:`~wltools.graphs.relabel_consecutive` of it
    (the relabelling :func:`~wltools.refine.refine_pair` applies)."""
    if set(G.nodes) == set(range(G.number_of_nodes())):
        return G
    return relabel_consecutive(G)


def colour_rounds(G: nx.Graph, H: nx.Graph, test: str, *, rrwp_steps: int | None = None) -> ColourRounds:
    """Every round's colours of ``test`` on a pair of equal order and size (the kernel's history).

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
    return _rounds(G, H, test, rrwp_steps)[0]


def _rounds(G: nx.Graph, H: nx.Graph, test: str, rrwp_steps: int | None) -> tuple[ColourRounds, object]:
    """Refine ``test``'s kernel declaration with history (:mod:`wltools.refine.declarations`):
    every round's colourings, and the refinement's result."""
    from ..graphs.labels import pair_labels
    from ..refine.declarations import declaration
    from ..refine.kernel import History, refine

    labels = pair_labels(G, H)
    _refuse_labels(labels, test)
    if not is_drawable(test):
        raise UnsupportedTestError(f"cannot draw the colourings of {label_of(test)} ({test}); "
                                   f"drawable tests: {', '.join(DRAWABLE_TESTS)}, or nK")
    element, meaning, pooled = _view(test)
    history = History(max_bytes=_history_budget(G, H, test, rrwp_steps))
    result = refine(declaration(G, H, test, rrwp_steps=rrwp_steps, labels=labels), history=history)
    out = ColourRounds(test, element, meaning, elements=history.colours, compared=history.compared,
                       first_diff=history.first_diff)
    for (cg, ch), comp in zip(history.colours, history.compared):
        out.nodes.append(comp if pooled else _joint_ids(np.diagonal(cg).copy(), np.diagonal(ch).copy())
                         if element == "pair" else (cg, ch))
    return out, result


#: The bound on the colourings kept for a drawing when the machine does not say what it has.
HISTORY_BYTES = 2 * 2**30


def _history_budget(G: nx.Graph, H: nx.Graph, test: str, rrwp_steps: int | None) -> int:
    """Refuse (one line, :func:`wltools.runtime.memory.require`) a pair whose refinement alone does
    not fit the memory budget; else the bytes left for the colourings of every round, a bound the
    kernel's :class:`~wltools.refine.kernel.History` keeps (beyond it, one line)."""
    from ..graphs import edge_count
    from ..refine.cost import peak_bytes
    from ..runtime.memory import default_budget, require

    n, m = G.number_of_nodes(), max(edge_count(G), edge_count(H))
    try:
        need = peak_bytes(test, n, m, rrwp_steps=rrwp_steps)
    except UnknownNameError:  # a test without a cost model
        need = 0
    require(need, f"the colourings of {label_of(test)} on {n:,} nodes")
    budget = default_budget()
    return max(HISTORY_BYTES if budget is None else budget - need, 0)


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

    @property
    def labelled(self) -> tuple[bool, bool]:
        """Whether some node, and some edge, of G or H carries a label (attribute ``"label"``)."""
        return (any(_LABEL in d for X in (self.G, self.H) for _, d in X.nodes(data=True)),
                any(_LABEL in d for X in (self.G, self.H) for *_, d in X.edges(data=True)))


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

    Raises :class:`UnsupportedTestError` for a test that cannot be drawn,
    :class:`~wltools.errors.UnsupportedGraphError` for labels the test is not defined on (as
    :func:`~wltools.refine.refine_pair`), ``ValueError`` for a round beyond the stable one, and :class:`ReplayMismatchError` if the
    kernel's history disagrees with
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
        raise UnsupportedTestError(f"cannot draw the colourings of {label_of(test)} ({test}); "
                                   f"drawable tests: {', '.join(DRAWABLE_TESTS)}, or nK")
    if result is None or result.test != test:
        result = refine_pair(G, H, test, rrwp_steps=rrwp_steps)
    G, H = on_nodes_0_to_n(G), on_nodes_0_to_n(H)
    label = label_of(test)
    if result.reason in ("order", "edges"):
        return PairColouring(test, label, G, H, True, result.reason, 0, 0, 0, [0] * len(G), [0] * len(H),
                             [], "not refined (the graphs differ in size)", result.witness)
    rounds, _ = _rounds(G, H, test, rrwp_steps)
    if (rounds.first_diff, rounds.rounds, rounds.class_sizes()) != (
            result.iteration, result.iterations, tuple(map(tuple, result.class_sizes))):
        raise ReplayMismatchError(f"the {test} colourings disagree with refine_pair (iteration "
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
