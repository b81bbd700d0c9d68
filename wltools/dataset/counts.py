"""Subgraph counts as the targets of a collection (``wltools dataset --targets count:PATTERN``):
per graph, how many subgraphs (not necessarily induced) are isomorphic to a small pattern ``P``,
the regression targets of the counting literature (Chen et al., NeurIPS 2020, "Can graph neural
networks count substructures?", Sec. 2: the subgraph count ``C_S(G; P)``).

The count is the number of injective edge-preserving maps of ``P`` into ``G`` (networkx's
:class:`~networkx.algorithms.isomorphism.GraphMatcher`, ``subgraph_monomorphisms_iter``) divided
by the number of automorphisms of ``P`` (each subgraph is the image of ``|Aut(P)|`` maps). Exact,
by enumeration: for small patterns on small graphs (molecules); patterns above
:data:`MAX_PATTERN_NODES` nodes are refused. Node and edge labels are not matched.

Examples
--------
>>> import networkx as nx
>>> subgraph_count(nx.complete_graph(4), nx.cycle_graph(4)), subgraph_count(nx.petersen_graph(), nx.cycle_graph(5))
(3, 12)
"""

from __future__ import annotations

import networkx as nx
from networkx.algorithms.isomorphism import GraphMatcher

from ..errors import GraphFormatError

__all__ = ["subgraph_count", "count_targets", "MAX_PATTERN_NODES"]

#: Largest pattern counted (enumeration grows as ``n^|P|``).
MAX_PATTERN_NODES = 8


def subgraph_count(G: nx.Graph, P: nx.Graph) -> int:
    """The number of subgraphs of ``G`` isomorphic to ``P`` (module docstring)."""
    maps = sum(1 for _ in GraphMatcher(G, P).subgraph_monomorphisms_iter())
    autos = sum(1 for _ in GraphMatcher(P, P).isomorphisms_iter())
    return maps // autos


def count_targets(coll, spec: str) -> list[int]:
    """``count:PATTERN`` -> the count of ``PATTERN`` (any graph ``wltools check`` reads:
    ``cycle:4``, ``path:3``, a graph6 string, ...) in every graph of ``coll``."""
    from ..graphs import load_graph

    name = spec.split(":", 1)[1] if spec.startswith("count:") else spec
    if not name:
        raise GraphFormatError("count: needs a pattern, e.g. count:cycle:4")
    P = load_graph(name)
    if P.number_of_nodes() > MAX_PATTERN_NODES:
        raise GraphFormatError(f"count:{name}: the pattern has {P.number_of_nodes()} nodes; patterns of at most "
                               f"{MAX_PATTERN_NODES} are counted (by enumeration)")
    return [subgraph_count(coll.graph(i), P) for i in range(coll.num_graphs)]
